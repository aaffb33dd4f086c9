#include "support.h"

#include <math.h>
#include <stdlib.h>

double ts_fit_slope(const double *x, const double *y, size_t n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    double dn = (double)n;
    return (dn * sxy - sx * sy) / (dn * sxx - sx * sx);
}

double ts_fit_order(const double *h, const double *err, size_t n)
{
    double lx[64], ly[64];
    if (n > 64)
        n = 64;
    for (size_t i = 0; i < n; i++) {
        lx[i] = log(h[i]);
        ly[i] = log(err[i]);
    }
    return ts_fit_slope(lx, ly, n);
}

static void *counting_alloc(size_t size, void *user)
{
    ts_counting_alloc *s = user;
    s->allocs++;
    if (s->fail_at && s->allocs == s->fail_at) {
        s->failed = 1;
        return NULL;
    }
    void *p = malloc(size);
    if (p) {
        s->live_bytes += size;
        if (s->live_bytes > s->peak_bytes)
            s->peak_bytes = s->live_bytes;
    }
    return p;
}

static void counting_free(void *ptr, size_t size, void *user)
{
    ts_counting_alloc *s = user;
    if (!ptr)
        return;
    s->frees++;
    s->live_bytes -= size;
    free(ptr);
}

cdyn_allocator ts_counting_allocator(ts_counting_alloc *state)
{
    cdyn_allocator a = {counting_alloc, counting_free, state};
    return a;
}

uint64_t ts_hash_bytes(const void *data, size_t n, uint64_t h)
{
    const unsigned char *p = data;
    if (h == 0)
        h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}
