#include "shapes/spline.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "shapes/frame.h"
#include "shapes/quadrature.h"
#include "shapes/tridiag.h"
#include "core/vec.h"

#define SPLINE_QUAD_TOL 1e-13

static size_t block_count(size_t n_seg)
{
    return 12 * n_seg + n_seg + 1;
}

static bool check_points(const double *points, size_t n, int dim, bool closed)
{
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        double p[3];
        cdyn__frame_load(p, points + i * (size_t)dim, dim);
        if (!cdyn__v3_isfinite(p))
            return false;
        for (int k = 0; k < 3; k++) {
            lo[k] = i == 0 || p[k] < lo[k] ? p[k] : lo[k];
            hi[k] = i == 0 || p[k] > hi[k] ? p[k] : hi[k];
        }
    }
    double diag_v[3];
    cdyn__v3_sub(diag_v, hi, lo);
    double diag = cdyn__v3_norm(diag_v);
    if (!(diag > 0.0) || !isfinite(diag))
        return false;
    size_t pairs = closed ? n : n - 1;
    for (size_t i = 0; i < pairs; i++) {
        double a[3], b[3], d[3];
        cdyn__frame_load(a, points + i * (size_t)dim, dim);
        cdyn__frame_load(b, points + ((i + 1) % n) * (size_t)dim, dim);
        cdyn__v3_sub(d, b, a);
        if (!(cdyn__v3_norm(d) > 1e-12 * diag))
            return false;
    }
    return true;
}

static void load_point(double p[3], const double *points, size_t i, size_t n, int dim)
{
    cdyn__frame_load(p, points + (i % n) * (size_t)dim, dim);
}

/* Slopes of the open spline into S (n rows of 3). work holds 4 n doubles. */
static void open_slopes(double *S, const double *points, size_t n, int dim, cdyn_spline_end end,
                        const double t0[3], const double t1[3], double *work)
{
    double *sub = work, *diag = work + n, *sup = work + 2 * n, *tmp = work + 3 * n;
    for (size_t i = 0; i < n; i++) {
        sub[i] = 1.0;
        diag[i] = 4.0;
        sup[i] = 1.0;
        double a[3], b[3];
        load_point(a, points, i == 0 ? 0 : i - 1, n, dim);
        load_point(b, points, i + 1 < n ? i + 1 : n - 1, n, dim);
        for (int k = 0; k < 3; k++)
            S[3 * i + (size_t)k] = 3.0 * (b[k] - a[k]);
    }
    if (end == CDYN_SPLINE_CLAMPED) {
        diag[0] = diag[n - 1] = 1.0;
        sup[0] = sub[n - 1] = 0.0;
        for (int k = 0; k < 3; k++) {
            S[k] = t0[k];
            S[3 * (n - 1) + (size_t)k] = t1[k];
        }
    } else {
        /* natural: 2 s0 + s1 = 3 (P1 - P0), s_{n-2} + 2 s_{n-1} = 3 (P_{n-1} - P_{n-2});
         * the right-hand sides above already hold 3 (P1 - P0) and 3 (P_{n-1} - P_{n-2}). */
        diag[0] = diag[n - 1] = 2.0;
    }
    cdyn__tridiag_solve(n, sub, diag, sup, S, 3, 3, tmp);
}

/* Slopes of the closed spline (cyclic system, Sherman-Morrison). work: 5 n. */
static void closed_slopes(double *S, const double *points, size_t n, int dim, double *work)
{
    double *sub = work, *diag = work + n, *sup = work + 2 * n, *tmp = work + 3 * n;
    double *z = work + 4 * n;
    const double gamma = -4.0; /* -diag[0]; corners alpha = beta = 1 */
    for (size_t i = 0; i < n; i++) {
        sub[i] = 1.0;
        diag[i] = 4.0;
        sup[i] = 1.0;
        z[i] = 0.0;
        double a[3], b[3];
        load_point(a, points, i + n - 1, n, dim);
        load_point(b, points, i + 1, n, dim);
        for (int k = 0; k < 3; k++)
            S[3 * i + (size_t)k] = 3.0 * (b[k] - a[k]);
    }
    diag[0] -= gamma;
    diag[n - 1] -= 1.0 / gamma;
    z[0] = gamma;
    z[n - 1] = 1.0;
    cdyn__tridiag_solve(n, sub, diag, sup, S, 3, 3, tmp);
    cdyn__tridiag_solve(n, sub, diag, sup, z, 1, 1, tmp);
    double den = 1.0 + z[0] + z[n - 1] / gamma;
    for (int k = 0; k < 3; k++) {
        double fact = (S[k] + S[3 * (n - 1) + (size_t)k] / gamma) / den;
        for (size_t i = 0; i < n; i++)
            S[3 * i + (size_t)k] -= fact * z[i];
    }
}

typedef struct seg_ctx {
    const cdyn__spline *s;
    size_t i;
} seg_ctx;

static cdyn_status seg_speed(const void *ctx, double t, double *out)
{
    const seg_ctx *c = ctx;
    const double *cf = c->s->coef + 12 * c->i;
    double d[3];
    for (int k = 0; k < 3; k++) {
        const double *p = cf + 4 * k;
        d[k] = p[1] + t * (2.0 * p[2] + 3.0 * t * p[3]);
    }
    /* Rescaled when the squares would overflow: a huge but finite tangent
     * has a finite speed. */
    *out = cdyn__vec_norm(d, 3);
    return CDYN_OK;
}

/* The length of segment i between t0 and t1 into *out. Fails (status of
 * the quadrature) only when the segment's speed or length overflows;
 * within a segment whose whole length was measured it cannot. */
static cdyn_status seg_measure(const cdyn__spline *s, size_t i, double t0, double t1, double *out)
{
    seg_ctx ctx = {s, i};
    *out = 0.0;
    return cdyn__quad_adaptive(seg_speed, &ctx, t0, t1, SPLINE_QUAD_TOL, out);
}

static double seg_length(const cdyn__spline *s, size_t i, double t0, double t1)
{
    double v;
    (void)seg_measure(s, i, t0, t1, &v);
    return v;
}

cdyn_status cdyn__spline_init(cdyn__spline *s, const double *points, size_t n, int dim,
                              cdyn_spline_end end, const double *t0, const double *t1,
                              const cdyn_allocator *a)
{
    if (!points || n < 4 || (dim != 2 && dim != 3))
        return CDYN_ERR_INVALID_ARGUMENT;
    if (end != CDYN_SPLINE_NATURAL && end != CDYN_SPLINE_CLAMPED && end != CDYN_SPLINE_CLOSED)
        return CDYN_ERR_INVALID_ARGUMENT;
    bool closed = end == CDYN_SPLINE_CLOSED;
    double tan0[3] = {0, 0, 0}, tan1[3] = {0, 0, 0};
    if (end == CDYN_SPLINE_CLAMPED) {
        if (!t0 || !t1)
            return CDYN_ERR_INVALID_ARGUMENT;
        cdyn__frame_load(tan0, t0, dim);
        cdyn__frame_load(tan1, t1, dim);
        double n0 = cdyn__v3_norm(tan0), n1 = cdyn__v3_norm(tan1);
        if (!cdyn__v3_isfinite(tan0) || !cdyn__v3_isfinite(tan1) || !(n0 > 0.0) || !(n1 > 0.0))
            return CDYN_ERR_INVALID_ARGUMENT;
    }
    if (n > (SIZE_MAX - 1) / 13 || n > SIZE_MAX / 64)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!check_points(points, n, dim, closed))
        return CDYN_ERR_INVALID_ARGUMENT;

    size_t n_seg = closed ? n : n - 1;
    double *block = cdyn__alloc_array(a, block_count(n_seg), sizeof(double));
    double *work = cdyn__alloc_array(a, 8 * n, sizeof(double));
    if (!block || !work) {
        cdyn__free_array(a, block, block_count(n_seg), sizeof(double));
        cdyn__free_array(a, work, 8 * n, sizeof(double));
        return CDYN_ERR_NO_MEMORY;
    }
    double *S = work; /* n rows of 3 slopes, then the solver's workspace */
    if (closed)
        closed_slopes(S, points, n, dim, work + 3 * n);
    else
        open_slopes(S, points, n, dim, end, tan0, tan1, work + 3 * n);

    cdyn__spline sp = {n_seg, closed, 0.0, block, block + 12 * n_seg};
    for (size_t i = 0; i < n_seg; i++) {
        double p0[3], p1[3];
        load_point(p0, points, i, n, dim);
        load_point(p1, points, i + 1, n, dim);
        const double *s0 = S + 3 * i, *s1 = S + 3 * ((i + 1) % n);
        for (int k = 0; k < 3; k++) {
            double *c = sp.coef + 12 * i + 4 * k;
            double d = p1[k] - p0[k];
            c[0] = p0[k];
            c[1] = s0[k];
            c[2] = 3.0 * d - 2.0 * s0[k] - s1[k];
            c[3] = -2.0 * d + s0[k] + s1[k];
        }
    }
    cdyn__free_array(a, work, 8 * n, sizeof(double));

    sp.cum[0] = 0.0;
    for (size_t i = 0; i < n_seg; i++) {
        double len;
        if (seg_measure(&sp, i, 0.0, 1.0, &len) != CDYN_OK || !isfinite(sp.cum[i] + len)) {
            /* Points or tangents so large that the length overflows. */
            cdyn__free_array(a, block, block_count(n_seg), sizeof(double));
            return CDYN_ERR_INVALID_ARGUMENT;
        }
        sp.cum[i + 1] = sp.cum[i] + len;
    }
    sp.length = sp.cum[n_seg];
    *s = sp;
    return CDYN_OK;
}

void cdyn__spline_free(cdyn__spline *s, const cdyn_allocator *a)
{
    if (s->coef)
        cdyn__free_array(a, s->coef, block_count(s->n_seg), sizeof(double));
    memset(s, 0, sizeof *s);
}

cdyn_status cdyn__spline_copy(cdyn__spline *dst, const cdyn__spline *src,
                              const cdyn_allocator *a)
{
    size_t count = block_count(src->n_seg);
    double *block = cdyn__alloc_array(a, count, sizeof(double));
    if (!block)
        return CDYN_ERR_NO_MEMORY;
    memcpy(block, src->coef, count * sizeof(double));
    *dst = *src;
    dst->coef = block;
    dst->cum = block + 12 * src->n_seg;
    return CDYN_OK;
}

void cdyn__spline_eval_segment(const cdyn__spline *s, size_t i, double t, double r[3],
                               double dr[3], double ddr[3])
{
    const double *cf = s->coef + 12 * i;
    for (int k = 0; k < 3; k++) {
        const double *c = cf + 4 * k;
        if (r)
            r[k] = c[0] + t * (c[1] + t * (c[2] + t * c[3]));
        if (dr)
            dr[k] = c[1] + t * (2.0 * c[2] + 3.0 * t * c[3]);
        if (ddr)
            ddr[k] = 2.0 * c[2] + 6.0 * t * c[3];
    }
}

/* Segment index and local parameter of q. Closed: q wrapped to [0, n_seg). */
static size_t locate(const cdyn__spline *s, double q, double *t)
{
    double n = (double)s->n_seg;
    if (s->closed) {
        q = fmod(q, n);
        if (q < 0.0)
            q += n;
        if (!(q < n))
            q = 0.0;
    } else if (q < 0.0) {
        *t = q;
        return 0;
    } else if (q >= n - 1.0) {
        *t = q - (n - 1.0);
        return s->n_seg - 1;
    }
    size_t i = (size_t)q;
    if (i >= s->n_seg)
        i = s->n_seg - 1;
    *t = q - (double)i;
    return i;
}

void cdyn__spline_eval(const cdyn__spline *s, double q, double r[3], double dr[3], double ddr[3])
{
    double t;
    size_t i = locate(s, q, &t);
    cdyn__spline_eval_segment(s, i, t, r, dr, ddr);
}

double cdyn__spline_arc_length(const cdyn__spline *s, double q)
{
    double turns = 0.0;
    if (s->closed) {
        double n = (double)s->n_seg;
        turns = floor(q / n);
        q -= turns * n;
    }
    double t, part;
    size_t i = locate(s, q, &t);
    /* Far beyond an open spline's ends its extrapolated cubic overflows. */
    if (seg_measure(s, i, 0.0, t, &part) != CDYN_OK)
        return NAN;
    return turns * s->length + s->cum[i] + part;
}

/* First index i with cum[i + 1] >= len, len in [0, length]. */
static size_t find_segment(const cdyn__spline *s, double len)
{
    size_t lo = 0, hi = s->n_seg - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->cum[mid + 1] < len)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

cdyn_status cdyn__spline_param_at(const cdyn__spline *s, double len, double *q)
{
    if (!isfinite(len))
        return CDYN_ERR_INVALID_ARGUMENT;
    double turns = 0.0;
    if (s->closed) {
        turns = floor(len / s->length);
        len -= turns * s->length;
        if (len < 0.0)
            len = 0.0;
        if (len > s->length)
            len = s->length;
    } else if (len < 0.0 || len > s->length) {
        return CDYN_ERR_INVALID_ARGUMENT;
    }
    size_t i = find_segment(s, len);
    double target = len - s->cum[i];
    double seg = s->cum[i + 1] - s->cum[i];
    /* Newton on g(t) = L(0, t) - target, bracketed in [0, 1]. */
    double a = 0.0, b = 1.0;
    seg_ctx ctx = {s, i};
    double t = seg > 0.0 ? target / seg : 0.0;
    double at = seg_length(s, i, 0.0, t);
    for (int it = 0; it < 100; it++) {
        double g = at - target;
        if (g > 0.0)
            b = t;
        else
            a = t;
        if (fabs(g) <= 1e-15 * (seg + s->cum[i + 1]))
            break;
        double v;
        (void)seg_speed(&ctx, t, &v);
        double tn = v > 0.0 ? t - g / v : -1.0;
        if (!(tn > a && tn < b))
            tn = 0.5 * (a + b);
        if (tn == t || b - a <= 4e-16)
            break;
        at += seg_length(s, i, t, tn);
        t = tn;
    }
    *q = turns * (double)s->n_seg + (double)i + t;
    return CDYN_OK;
}
