#include "support.h"

#include <math.h>

#include <cdyn/cdyn.h>
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

double ts_rand_sym(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-52 - 1.0;
}

size_t ts_make_network(cdyn_system *sys, int nx, int ny, double h, double k, double c,
                       double perturb, uint64_t seed, cdyn_particle *out_particles)
{
    int dim = cdyn_system_get_dimension(sys);
    size_t n = (size_t)nx * (size_t)ny, springs = 0;
    cdyn_particle *p = malloc(n * sizeof *p);
    if (!p)
        return 0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            double x[3] = {i * h + perturb * h * ts_rand_sym(&seed),
                           j * h + perturb * h * ts_rand_sym(&seed), 0.0};
            if (cdyn_particle_add(sys, 1.0, x, NULL, &p[j * nx + i]) != CDYN_OK)
                goto fail;
        }
    (void)dim;
    static const int nb[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            for (int e = 0; e < 4; e++) {
                int i2 = i + nb[e][0], j2 = j + nb[e][1];
                if (i2 < 0 || i2 >= nx || j2 >= ny)
                    continue;
                double rest = h * sqrt((double)(nb[e][0] * nb[e][0] + nb[e][1] * nb[e][1]));
                cdyn_force f;
                if (cdyn_force_add_spring(sys, p[j * nx + i], p[j2 * nx + i2], k, c, rest, &f))
                    goto fail;
                springs++;
            }
    if (out_particles)
        for (size_t i = 0; i < n; i++)
            out_particles[i] = p[i];
    free(p);
    return springs;
fail:
    free(p);
    return 0;
}
