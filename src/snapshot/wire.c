/* Little-endian bytes in and out, and the checksum. */
#include "snapshot/wire.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Whether the host stores integers little-endian: then runs of doubles
 * and words are copied as they are. */
static bool host_le(void)
{
    const uint32_t one = 1;
    unsigned char b[4];
    memcpy(b, &one, sizeof b);
    return b[0] == 1;
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* Room for n more bytes: the position to write at, or NULL (counted only). */
static unsigned char *reserve(cdyn__wout *w, size_t n)
{
    unsigned char *at = w->p && w->len <= w->cap && n <= w->cap - w->len ? w->p + w->len : NULL;
    w->len += n;
    return at;
}

static void out_int(cdyn__wout *w, uint64_t v, int n)
{
    unsigned char *at = reserve(w, (size_t)n);
    if (at)
        put_le(at, v, n);
}

void cdyn__out_u8(cdyn__wout *w, uint8_t v)
{
    out_int(w, v, 1);
}

void cdyn__out_u16(cdyn__wout *w, uint16_t v)
{
    out_int(w, v, 2);
}

void cdyn__out_u32(cdyn__wout *w, uint32_t v)
{
    out_int(w, v, 4);
}

void cdyn__out_u64(cdyn__wout *w, uint64_t v)
{
    out_int(w, v, 8);
}

void cdyn__out_f64(cdyn__wout *w, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    out_int(w, u, 8);
}

void cdyn__out_f64s(cdyn__wout *w, const double *v, size_t n)
{
    unsigned char *at = reserve(w, 8 * n);
    if (!at || n == 0)
        return;
    if (host_le()) {
        memcpy(at, v, 8 * n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, &v[i], sizeof u);
        put_le(at + 8 * i, u, 8);
    }
}

void cdyn__out_u32s(cdyn__wout *w, const uint32_t *v, size_t n)
{
    unsigned char *at = reserve(w, 4 * n);
    if (!at || n == 0)
        return;
    if (host_le()) {
        memcpy(at, v, 4 * n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        put_le(at + 4 * i, v[i], 4);
}

void cdyn__out_pad(cdyn__wout *w)
{
    size_t n = (8 - w->len % 8) % 8;
    unsigned char *at = reserve(w, n);
    if (at)
        memset(at, 0, n);
}

void cdyn__out_patch_u64(cdyn__wout *w, size_t at, uint64_t v)
{
    if (w->p && at <= w->cap && 8 <= w->cap - at)
        put_le(w->p + at, v, 8);
}

bool cdyn__in_fail(cdyn__win *r, const char *fmt, ...)
{
    if (r->failed)
        return false;
    r->failed = true;
    r->fail_at = r->pos;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
    r->pos = r->end;
    return false;
}

/* The position of n more bytes, or NULL (the reader fails). */
static const unsigned char *take(cdyn__win *r, size_t n)
{
    if (r->failed)
        return NULL;
    if (r->pos > r->end || n > r->end - r->pos) {
        cdyn__in_fail(r, "truncated: %zu bytes wanted, %zu left in the section", n,
                      r->pos <= r->end ? r->end - r->pos : 0);
        return NULL;
    }
    const unsigned char *at = r->p + r->pos;
    r->pos += n;
    return at;
}

static uint64_t in_int(cdyn__win *r, int n)
{
    const unsigned char *at = take(r, (size_t)n);
    return at ? get_le(at, n) : 0;
}

uint8_t cdyn__in_u8(cdyn__win *r)
{
    return (uint8_t)in_int(r, 1);
}

uint16_t cdyn__in_u16(cdyn__win *r)
{
    return (uint16_t)in_int(r, 2);
}

uint32_t cdyn__in_u32(cdyn__win *r)
{
    return (uint32_t)in_int(r, 4);
}

uint64_t cdyn__in_u64(cdyn__win *r)
{
    return in_int(r, 8);
}

double cdyn__in_f64(cdyn__win *r)
{
    uint64_t u = in_int(r, 8);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

void cdyn__in_f64s(cdyn__win *r, double *out, size_t n)
{
    if (n == 0)
        return;
    const unsigned char *at = n <= SIZE_MAX / 8 ? take(r, 8 * n) : NULL;
    if (!at) {
        if (n > SIZE_MAX / 8)
            cdyn__in_fail(r, "absurd count %zu", n);
        if (out)
            memset(out, 0, n * sizeof *out);
        return;
    }
    if (host_le()) {
        memcpy(out, at, 8 * n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t u = get_le(at + 8 * i, 8);
        memcpy(&out[i], &u, sizeof u);
    }
}

void cdyn__in_u32s(cdyn__win *r, uint32_t *out, size_t n)
{
    if (n == 0)
        return;
    const unsigned char *at = n <= SIZE_MAX / 4 ? take(r, 4 * n) : NULL;
    if (!at) {
        if (n > SIZE_MAX / 4)
            cdyn__in_fail(r, "absurd count %zu", n);
        if (out)
            memset(out, 0, n * sizeof *out);
        return;
    }
    if (host_le()) {
        memcpy(out, at, 4 * n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        out[i] = (uint32_t)get_le(at + 4 * i, 4);
}

bool cdyn__in_flag(cdyn__win *r, const char *what)
{
    uint8_t v = cdyn__in_u8(r);
    if (v > 1)
        return cdyn__in_fail(r, "%s: flag %u is not 0 or 1", what, v);
    return v == 1;
}

double cdyn__in_finite(cdyn__win *r, const char *what)
{
    double v = cdyn__in_f64(r);
    if (!isfinite(v)) {
        cdyn__in_fail(r, "%s: %g is not finite", what, v);
        return 0.0;
    }
    return v;
}

void cdyn__in_finites(cdyn__win *r, double *out, size_t n, const char *what)
{
    cdyn__in_f64s(r, out, n);
    for (size_t i = 0; i < n && !r->failed; i++)
        if (!isfinite(out[i])) {
            cdyn__in_fail(r, "%s: value %zu (%g) is not finite", what, i, out[i]);
            memset(out, 0, n * sizeof *out);
        }
}

bool cdyn__in_room(cdyn__win *r, uint64_t count, size_t each, const char *what)
{
    if (r->failed)
        return false;
    size_t left = r->pos <= r->end ? r->end - r->pos : 0;
    if (each && count > left / each)
        return cdyn__in_fail(r, "%s: count %llu needs more than the %zu bytes left", what,
                             (unsigned long long)count, left);
    return true;
}

void cdyn__in_pad(cdyn__win *r)
{
    size_t n = (8 - r->pos % 8) % 8;
    const unsigned char *at = take(r, n);
    for (size_t i = 0; at && i < n; i++)
        if (at[i] != 0) {
            cdyn__in_fail(r, "padding byte %zu is not zero", i);
            return;
        }
}

uint64_t cdyn__checksum(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    const bool le = host_le();
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint64_t w;
        if (le)
            memcpy(&w, p + i, sizeof w);
        else
            w = get_le(p + i, 8);
        h = (h ^ w) * 0x100000001b3ULL;
    }
    return h;
}
