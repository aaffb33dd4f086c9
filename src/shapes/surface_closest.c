#include "shapes/surface_closest.h"

#include <float.h>
#include <math.h>

#include "core/vec.h"

#define PI 3.141592653589793238462643
#define TWO_PI 6.283185307179586476925287
#define KEEP 8

typedef struct box {
    double lo[2], hi[2]; /* -inf/+inf for periodic (free) parameters */
    double a[2], b[2];   /* the finite sampling range */
    bool periodic[2];
} box;

static cdyn_status dist2(const cdyn__surface *s, const double x[3], const double p[2], double *d)
{
    double r[3], e[3];
    cdyn_status st = cdyn__surface_eval(s, p[0], p[1], r, NULL, NULL, NULL, NULL, NULL);
    if (st == CDYN_OK) {
        cdyn__v3_sub(e, r, x);
        *d = cdyn__v3_dot(e, e);
    }
    return st;
}

static void clamp2(const box *b, const double p[2], double out[2])
{
    for (int i = 0; i < 2; i++)
        out[i] = fmin(b->hi[i], fmax(b->lo[i], p[i]));
}

/* Solves the symmetric 2 x 2 system [h00 h01; h01 h11] s = -g; false unless
 * positive definite. */
static bool solve_pd(double h00, double h01, double h11, const double g[2], double s[2])
{
    double det = h00 * h11 - h01 * h01;
    if (!(h00 > 0.0) || !(det > 1e-14 * h00 * h11))
        return false;
    s[0] = -(h11 * g[0] - h01 * g[1]) / det;
    s[1] = -(h00 * g[1] - h01 * g[0]) / det;
    return true;
}

/* Projected Newton descent from p; on return p is the local minimum found
 * and *d_out its squared distance. */
static cdyn_status refine(const cdyn__surface *s, const double x[3], const box *b, double p[2],
                          double *d_out)
{
    double w[6][3], e[3];
    clamp2(b, p, p);
    cdyn_status st = cdyn__surface_eval(s, p[0], p[1], w[0], w[1], w[2], w[3], w[4], w[5]);
    if (st != CDYN_OK)
        return st;
    cdyn__v3_sub(e, w[0], x);
    double d = cdyn__v3_dot(e, e), xn = cdyn__v3_norm(x);
    for (int it = 0; it < 100; it++) {
        double g[2] = {cdyn__v3_dot(w[1], e), cdyn__v3_dot(w[2], e)};
        double G00 = cdyn__v3_dot(w[1], w[1]), G01 = cdyn__v3_dot(w[1], w[2]);
        double G11 = cdyn__v3_dot(w[2], w[2]);
        double H00 = G00 + cdyn__v3_dot(w[3], e), H01 = G01 + cdyn__v3_dot(w[4], e);
        double H11 = G11 + cdyn__v3_dot(w[5], e);
        bool held[2];
        for (int i = 0; i < 2; i++)
            held[i] = (p[i] <= b->lo[i] && g[i] > 0.0) || (p[i] >= b->hi[i] && g[i] < 0.0) ||
                      g[i] == 0.0;
        double step[2] = {0.0, 0.0};
        if (held[0] && held[1])
            break;
        if (!held[0] && !held[1]) {
            if (!solve_pd(H00, H01, H11, g, step) && !solve_pd(G00, G01, G11, g, step))
                break;
        } else {
            int i = held[0] ? 1 : 0;
            double h = i == 0 ? H00 : H11, gn = i == 0 ? G00 : G11;
            if (!(h > 0.0))
                h = gn;
            if (!(h > 0.0))
                break;
            step[i] = -g[i] / h;
        }
        double tol[2] = {1e-15 * fmax(fabs(p[0]), b->b[0] - b->a[0]),
                         1e-15 * fmax(fabs(p[1]), b->b[1] - b->a[1])};
        double pn[2] = {p[0], p[1]}, dn = d;
        /* D is flat at its minimum and r - x cancels: a change of D below its
         * rounding counts as no increase, so that Newton's method can finish. */
        double noise = 1e-14 * d + 32.0 * DBL_EPSILON * sqrt(d) * (cdyn__v3_norm(w[0]) + xn);
        bool accepted = false, tiny = false;
        for (int ls = 0; ls < 60; ls++) {
            double t[2] = {p[0] + step[0], p[1] + step[1]};
            clamp2(b, t, pn);
            tiny = fabs(pn[0] - p[0]) <= tol[0] && fabs(pn[1] - p[1]) <= tol[1];
            if ((st = dist2(s, x, pn, &dn)) != CDYN_OK)
                return st;
            bool ok = dn <= d + noise;
            if (ok || tiny) {
                accepted = ok;
                break;
            }
            step[0] *= 0.5;
            step[1] *= 0.5;
        }
        if (!accepted)
            break;
        p[0] = pn[0];
        p[1] = pn[1];
        if ((st = cdyn__surface_eval(s, p[0], p[1], w[0], w[1], w[2], w[3], w[4], w[5])) !=
            CDYN_OK)
            return st;
        cdyn__v3_sub(e, w[0], x);
        d = cdyn__v3_dot(e, e);
        if (tiny)
            break;
    }
    *d_out = d;
    return CDYN_OK;
}

/* The best candidates of a sample grid, one per neighbourhood. */
typedef struct keep_list {
    size_t n;
    size_t i[KEEP], j[KEEP];
    double d[KEEP];
} keep_list;

static bool adjacent(size_t a, size_t b)
{
    return a == b || a + 1 == b || b + 1 == a;
}

static void keep_sample(keep_list *k, size_t i, size_t j, double d)
{
    size_t m = 0;
    for (size_t t = 0; t < k->n; t++) {
        bool near = adjacent(k->i[t], i) && adjacent(k->j[t], j);
        if (near && k->d[t] <= d)
            return; /* a better neighbour is kept already */
        if (!near) { /* drop worse neighbours, keep the rest in order */
            k->i[m] = k->i[t];
            k->j[m] = k->j[t];
            k->d[m] = k->d[t];
            m++;
        }
    }
    k->n = m;
    if (k->n == KEEP && d >= k->d[KEEP - 1])
        return;
    size_t pos = k->n < KEEP ? k->n++ : KEEP - 1;
    while (pos > 0 && k->d[pos - 1] > d) {
        k->i[pos] = k->i[pos - 1];
        k->j[pos] = k->j[pos - 1];
        k->d[pos] = k->d[pos - 1];
        pos--;
    }
    k->i[pos] = i;
    k->j[pos] = j;
    k->d[pos] = d;
}

static double grid_point(const box *b, int axis, size_t k, size_t n)
{
    size_t cells = b->periodic[axis] ? n : n - 1;
    return b->a[axis] + (b->b[axis] - b->a[axis]) * (double)k / (double)cells;
}

/* Refines p and keeps it as the best when it is nearer (ties: smaller u,
 * then smaller v). */
static cdyn_status try_start(const cdyn__surface *s, const double x[3], const box *b,
                             const double start[2], double best[2], double *best_d)
{
    double p[2] = {start[0], start[1]}, d;
    cdyn_status st = refine(s, x, b, p, &d);
    if (st != CDYN_OK)
        return st;
    if (d < *best_d ||
        (d == *best_d && (p[0] < best[0] || (p[0] == best[0] && p[1] < best[1])))) {
        best[0] = p[0];
        best[1] = p[1];
        *best_d = d;
    }
    return CDYN_OK;
}

/* Samples an nu x nv grid over the box and refines its best candidates. */
static cdyn_status sample_and_refine(const cdyn__surface *s, const double x[3], const box *b,
                                     size_t nu, size_t nv, double best[2], double *best_d)
{
    keep_list k = {0, {0}, {0}, {0}};
    cdyn_status st;
    for (size_t j = 0; j < nv; j++) {
        for (size_t i = 0; i < nu; i++) {
            double p[2] = {grid_point(b, 0, i, nu), grid_point(b, 1, j, nv)}, d;
            if ((st = dist2(s, x, p, &d)) != CDYN_OK)
                return st;
            keep_sample(&k, i, j, d);
        }
    }
    for (size_t t = 0; t < k.n; t++) {
        double p[2] = {grid_point(b, 0, k.i[t], nu), grid_point(b, 1, k.j[t], nv)};
        if ((st = try_start(s, x, b, p, best, best_d)) != CDYN_OK)
            return st;
    }
    return CDYN_OK;
}

/* Box of a domain: free for periodic, the domain for bounded, a window of
 * half-width 8 about the anchor for unbounded directions. */
static void make_axis(box *b, int axis, const cdyn__domain *d, double anchor)
{
    b->periodic[axis] = d->periodic;
    b->lo[axis] = d->periodic ? -INFINITY : d->lo;
    b->hi[axis] = d->periodic ? INFINITY : d->hi;
    if (cdyn__domain_is_bounded(d)) {
        b->a[axis] = d->lo;
        b->b[axis] = d->hi;
        return;
    }
    double c = isfinite(anchor) ? anchor
               : isfinite(d->lo) ? d->lo + 8.0
               : isfinite(d->hi) ? d->hi - 8.0
                                 : 0.0;
    b->a[axis] = fmax(d->lo, c - 8.0);
    b->b[axis] = fmin(d->hi, c + 8.0);
}

/* An angle of a naturally periodic coordinate, brought into a window [lo, hi]
 * of the domain, or to its nearer end. */
static double window_angle(const cdyn__domain *d, double ang)
{
    if (d->periodic)
        return cdyn__domain_wrap(d, ang);
    double t = fmod(ang - d->lo, TWO_PI);
    if (t < 0.0)
        t += TWO_PI;
    if (d->lo + t <= d->hi)
        return d->lo + t;
    return (d->lo + t - d->hi) < (TWO_PI - t) ? d->hi : d->lo;
}

/* Closed-form guess for plane, sphere and torus (exact without a window). */
static void analytic_guess(const cdyn__surface *s, const double x[3], double p[2])
{
    double rel[3];
    cdyn__v3_sub(rel, x, s->o);
    if (s->kind == CDYN_SURFACE_PLANE) {
        double g00 = cdyn__v3_dot(s->e1, s->e1), g01 = cdyn__v3_dot(s->e1, s->e2);
        double g11 = cdyn__v3_dot(s->e2, s->e2), det = g00 * g11 - g01 * g01;
        double a = cdyn__v3_dot(s->e1, rel), c = cdyn__v3_dot(s->e2, rel);
        p[0] = (g11 * a - g01 * c) / det;
        p[1] = (g00 * c - g01 * a) / det;
        return;
    }
    double a = cdyn__v3_dot(rel, s->e1), b = cdyn__v3_dot(rel, s->e2);
    double c = cdyn__v3_dot(rel, s->e3), rho = hypot(a, b);
    p[0] = rho == 0.0 ? 0.0 : atan2(b, a);
    if (s->kind == CDYN_SURFACE_SPHERE)
        p[1] = (rho == 0.0 && c == 0.0) ? 0.5 * PI : atan2(rho, c);
    else
        p[1] = (rho == s->radius && c == 0.0) ? 0.0 : atan2(c, rho - s->radius);
    p[0] = window_angle(&s->du, p[0]);
    if (s->kind == CDYN_SURFACE_TORUS)
        p[1] = window_angle(&s->dv, p[1]);
    else
        p[1] = fmin(s->dv.hi, fmax(s->dv.lo, p[1]));
}

cdyn_status cdyn__surface_closest(const cdyn__surface *s, const double x[3],
                                  const double *uv_hint, double *u, double *v)
{
    if (!cdyn__v3_isfinite(x))
        return CDYN_ERR_INVALID_ARGUMENT;
    bool hint = uv_hint && isfinite(uv_hint[0]) && isfinite(uv_hint[1]);
    box b;
    make_axis(&b, 0, &s->du, hint ? uv_hint[0] : NAN);
    make_axis(&b, 1, &s->dv, hint ? uv_hint[1] : NAN);
    double best[2] = {INFINITY, INFINITY}, best_d = INFINITY;
    cdyn_status st = CDYN_OK;
    switch (s->kind) {
    case CDYN_SURFACE_PLANE:
    case CDYN_SURFACE_SPHERE:
    case CDYN_SURFACE_TORUS: {
        double p[2];
        analytic_guess(s, x, p);
        bool whole = s->kind == CDYN_SURFACE_PLANE
                         ? !isfinite(s->du.lo) && !isfinite(s->du.hi) && !isfinite(s->dv.lo) &&
                               !isfinite(s->dv.hi)
                         : s->du.periodic && (s->kind == CDYN_SURFACE_SPHERE
                                                  ? s->dv.lo_end == CDYN__END_SINGULAR &&
                                                        s->dv.hi_end == CDYN__END_SINGULAR
                                                  : s->dv.periodic);
        if (whole) {
            best[0] = p[0];
            best[1] = p[1];
            st = dist2(s, x, best, &best_d);
        } else {
            st = try_start(s, x, &b, p, best, &best_d);
        }
        break;
    }
    case CDYN_SURFACE_HEIGHTFIELD: {
        double p[2] = {x[s->axis_u], x[s->axis_v]};
        if ((st = try_start(s, x, &b, p, best, &best_d)) != CDYN_OK)
            return st;
        double wu = b.b[0] - b.a[0], wv = b.b[1] - b.a[1];
        size_t nu = (size_t)fmin(256.0, ceil(wu / s->hf.dx)) + 1;
        size_t nv = (size_t)fmin(256.0, ceil(wv / s->hf.dy)) + 1;
        st = sample_and_refine(s, x, &b, nu, nv, best, &best_d);
        break;
    }
    default:
        st = sample_and_refine(s, x, &b, b.periodic[0] ? 32 : 33, b.periodic[1] ? 32 : 33, best,
                               &best_d);
        break;
    }
    if (st == CDYN_OK && hint)
        st = try_start(s, x, &b, uv_hint, best, &best_d);
    if (st != CDYN_OK)
        return st;
    *u = cdyn__domain_clamp(&s->du, best[0]);
    *v = cdyn__domain_clamp(&s->dv, best[1]);
    return CDYN_OK;
}
