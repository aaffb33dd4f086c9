/* Captures of a system's state, to compare two runs or pin a hash. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "support.h"

uint64_t ts_hash_doubles(const double *v, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t bits;
        memcpy(&bits, &v[i], sizeof bits);
        unsigned char b[8];
        for (int k = 0; k < 8; k++)
            b[k] = (unsigned char)(bits >> (8 * k));
        h = ts_hash_bytes(b, 8, h);
    }
    return h;
}

void ts_state_capture(const cdyn_system *sys, ts_state *s)
{
    size_t n = 0;
    cdyn_system_get_index_count(sys, &n);
    s->len = n * (size_t)cdyn_system_get_dimension(sys);
    s->x = malloc((s->len ? s->len : 1) * sizeof *s->x);
    s->v = malloc((s->len ? s->len : 1) * sizeof *s->v);
    cdyn_system_get_time(sys, &s->time);
    cdyn_system_get_positions(sys, s->x, s->len);
    cdyn_system_get_velocities(sys, s->v, s->len);
}

void ts_state_free(ts_state *s)
{
    free(s->x);
    free(s->v);
    memset(s, 0, sizeof *s);
}

double ts_state_max_diff(const ts_state *a, const ts_state *b, double *dv)
{
    double mx = a->len == b->len ? 0 : INFINITY, mv = mx;
    for (size_t i = 0; i < a->len && a->len == b->len; i++) {
        mx = fmax(mx, fabs(a->x[i] - b->x[i]));
        mv = fmax(mv, fabs(a->v[i] - b->v[i]));
    }
    if (dv)
        *dv = mv;
    return mx;
}

uint64_t ts_state_hash(const ts_state *s, uint64_t h)
{
    h = ts_hash_doubles(&s->time, 1, h);
    h = ts_hash_doubles(s->x, s->len, h);
    return ts_hash_doubles(s->v, s->len, h);
}
