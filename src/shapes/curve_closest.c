#include "shapes/curve_closest.h"

#include <float.h>
#include <math.h>

#include "core/vec.h"

#define TWO_PI 6.283185307179586476925287
#define MAX_SAMPLES 4096

static cdyn_status dist2(const cdyn__curve *c, const double x[3], double q, double *d)
{
    double r[3], e[3];
    cdyn_status st = cdyn__curve_eval(c, q, r, NULL, NULL);
    if (st == CDYN_OK) {
        cdyn__v3_sub(e, r, x);
        *d = cdyn__v3_dot(e, e);
    }
    return st;
}

/* Keeps (q, d) as the best so far when d is smaller, or equal with smaller q. */
static void consider(double q, double d, double *best_q, double *best_d)
{
    if (d < *best_d || (d == *best_d && q < *best_q)) {
        *best_q = q;
        *best_d = d;
    }
}

/* Newton descent on D(q) = |r - x|^2 / 2 from q, clamped to [lo, hi]
 * (infinite bounds: free). @p scale: the parameter scale for the stopping
 * test. */
static cdyn_status refine(const cdyn__curve *c, const double x[3], double lo, double hi,
                          double scale, double q, double *q_out, double *d_out)
{
    double r[3], dr[3], ddr[3], e[3];
    cdyn_status st = cdyn__curve_eval(c, q, r, dr, ddr);
    if (st != CDYN_OK)
        return st;
    cdyn__v3_sub(e, r, x);
    double d = cdyn__v3_dot(e, e), xn = cdyn__v3_norm(x);
    for (int it = 0; it < 100; it++) {
        double g = cdyn__v3_dot(dr, e);
        double gn = cdyn__v3_dot(dr, dr);
        double h = gn + cdyn__v3_dot(ddr, e);
        if (!(h > 0.0))
            h = gn;
        if (!(h > 0.0) || g == 0.0 || (q <= lo && g > 0.0) || (q >= hi && g < 0.0))
            break;
        double step = -g / h, tol = 1e-15 * fmax(fabs(q), scale);
        /* D is flat at its minimum and r - x cancels: a change of D below its
         * rounding counts as no increase, so that Newton's method can finish. */
        double noise = 1e-14 * d + 32.0 * DBL_EPSILON * sqrt(d) * (cdyn__v3_norm(r) + xn);
        double qn = q, dn = d;
        bool accepted = false;
        for (int ls = 0; ls < 60; ls++) {
            qn = fmin(hi, fmax(lo, q + step));
            if ((st = dist2(c, x, qn, &dn)) != CDYN_OK)
                return st;
            bool ok = dn <= d + noise;
            if (ok || fabs(qn - q) <= tol) {
                accepted = ok;
                break;
            }
            step *= 0.5;
        }
        if (!accepted)
            break;
        bool done = fabs(qn - q) <= tol;
        q = qn;
        if ((st = cdyn__curve_eval(c, q, r, dr, ddr)) != CDYN_OK)
            return st;
        cdyn__v3_sub(e, r, x);
        d = cdyn__v3_dot(e, e);
        if (done)
            break;
    }
    *q_out = q;
    *d_out = d;
    return CDYN_OK;
}

/* refine() from q, unless r' vanishes there (a cycloid's cusp), where Newton
 * cannot move: then from half a sample spacing @p h on either side. */
static cdyn_status refine_from(const cdyn__curve *c, const double x[3], double lo, double hi,
                               double scale, double h, double q, double *best_q, double *best_d)
{
    double dr[3], ddr[3], qr, dd;
    cdyn_status st = cdyn__curve_eval(c, q, NULL, dr, ddr);
    if (st != CDYN_OK)
        return st;
    if (cdyn__v3_dot(dr, dr) > 1e-24 * cdyn__v3_dot(ddr, ddr) * fmax(1.0, q * q)) {
        if ((st = refine(c, x, lo, hi, scale, q, &qr, &dd)) == CDYN_OK)
            consider(qr, dd, best_q, best_d);
        return st;
    }
    for (int side = -1; side <= 1; side += 2) {
        double qs = fmin(hi, fmax(lo, q + 0.5 * h * side));
        if (qs == q)
            continue;
        if ((st = refine(c, x, lo, hi, scale, qs, &qr, &dd)) != CDYN_OK)
            return st;
        consider(qr, dd, best_q, best_d);
    }
    if ((st = dist2(c, x, q, &dd)) == CDYN_OK)
        consider(q, dd, best_q, best_d); /* the cusp itself */
    return st;
}

/* Samples [a, b] (n intervals; periodic: b - a is the period, n samples) and
 * refines every local minimum of the samples, and the smallest sample. */
static cdyn_status search(const cdyn__curve *c, const double x[3], double a, double b,
                          bool periodic, size_t n, double *best_q, double *best_d)
{
    double h = (b - a) / (double)n, lo = periodic ? -INFINITY : a, hi = periodic ? INFINITY : b;
    size_t count = periodic ? n : n + 1;
    double d_prev = INFINITY, d_cur, d_next, d_first = 0.0, d_last = INFINITY;
    double min_d = INFINITY, min_q = a;
    bool min_refined = false;
    cdyn_status st;
    if ((st = dist2(c, x, a, &d_cur)) != CDYN_OK)
        return st;
    if (periodic && (st = dist2(c, x, a + (double)(n - 1) * h, &d_last)) != CDYN_OK)
        return st;
    d_first = d_cur;
    if (periodic)
        d_prev = d_last;
    for (size_t k = 0; k < count; k++) {
        double qk = a + (double)k * h;
        if (k + 1 < count) {
            if ((st = dist2(c, x, a + (double)(k + 1) * h, &d_next)) != CDYN_OK)
                return st;
        } else {
            d_next = periodic ? d_first : INFINITY;
        }
        bool is_min = d_cur < d_prev && d_cur <= d_next;
        if (d_cur < min_d) {
            min_d = d_cur;
            min_q = qk;
            min_refined = is_min;
        }
        if (is_min && (st = refine_from(c, x, lo, hi, b - a, h, qk, best_q, best_d)) != CDYN_OK)
            return st;
        d_prev = d_cur;
        d_cur = d_next;
    }
    if (!min_refined && (st = refine_from(c, x, lo, hi, b - a, h, min_q, best_q, best_d)) != CDYN_OK)
        return st;
    return CDYN_OK;
}

static size_t sample_count(double width, double step)
{
    double n = ceil(width / step);
    return n < 16.0 ? 16 : (n > (double)MAX_SAMPLES ? MAX_SAMPLES : (size_t)n);
}

/* The search interval [centre - half, centre + half] met with the domain; when
 * they miss each other, the stretch of the domain of length 2 half next to
 * the window. */
static void window(const cdyn__domain *d, double centre, double half, double *a, double *b)
{
    double lo = centre - half, hi = centre + half;
    if (hi < d->lo) {
        lo = d->lo;
        hi = d->lo + 2.0 * half;
    } else if (lo > d->hi) {
        hi = d->hi;
        lo = d->hi - 2.0 * half;
    }
    *a = fmax(lo, d->lo);
    *b = fmin(hi, d->hi);
}

/* Circle: angle of the projection; an arc takes the nearer end when the
 * angle falls outside it. */
static double closest_circle(const cdyn__curve *c, const double p[3])
{
    double x = cdyn__v3_dot(p, c->e1), y = cdyn__v3_dot(p, c->e2);
    double ang = (x == 0.0 && y == 0.0) ? 0.0 : atan2(y, x);
    const cdyn__domain *d = &c->dom;
    if (d->periodic)
        return cdyn__domain_wrap(d, ang);
    double t = fmod(ang - d->lo, TWO_PI);
    if (t < 0.0)
        t += TWO_PI;
    if (d->lo + t <= d->hi)
        return d->lo + t;
    return (d->lo + t - d->hi) < (TWO_PI - t) ? d->hi : d->lo;
}

/* Parabola q e1 + a q^2 e2: the real roots of 2 a^2 q^3 + (1 - 2 a py) q - px
 * (closed form, then Newton-polished), and the domain's ends. */
static void closest_parabola(const cdyn__curve *c, const double x[3], const double p[3],
                             double *best_q, double *best_d)
{
    double a = c->a, px = cdyn__v3_dot(p, c->e1), py = cdyn__v3_dot(p, c->e2);
    double k1 = 1.0 - 2.0 * a * py, k3 = 2.0 * a * a;
    double roots[3];
    int nr = 0;
    double P = k1 / k3, Q = -px / k3;
    if (a == 0.0 || !isfinite(P) || !isfinite(Q)) {
        roots[nr++] = k1 != 0.0 ? px / k1 : px;
    } else {
        double disc = 0.25 * Q * Q + P * P * P / 27.0;
        if (disc >= 0.0) {
            double sd = sqrt(disc);
            roots[nr++] = cbrt(-0.5 * Q + sd) + cbrt(-0.5 * Q - sd);
        } else {
            double m = 2.0 * sqrt(-P / 3.0);
            double arg = 3.0 * Q / (P * m);
            arg = arg < -1.0 ? -1.0 : (arg > 1.0 ? 1.0 : arg);
            double th = acos(arg) / 3.0;
            for (int k = 0; k < 3; k++)
                roots[nr++] = m * cos(th - TWO_PI * (double)k / 3.0);
        }
    }
    const cdyn__domain *d = &c->dom;
    for (int i = 0; i < nr; i++) {
        double q = roots[i];
        for (int it = 0; it < 8; it++) { /* Newton on the cubic */
            double f = (k3 * q * q + k1) * q - px, fp = 3.0 * k3 * q * q + k1;
            if (fp == 0.0)
                break;
            double qn = q - f / fp;
            if (!isfinite(qn) || qn == q)
                break;
            q = qn;
        }
        q = cdyn__domain_clamp(d, q);
        double dd = INFINITY; /* stays when the curve cannot be evaluated there */
        (void)dist2(c, x, q, &dd);
        consider(q, dd, best_q, best_d);
    }
    double ends[2] = {d->lo, d->hi};
    for (int k = 0; k < 2; k++) {
        if (isfinite(ends[k])) {
            double dd = INFINITY;
            (void)dist2(c, x, ends[k], &dd);
            consider(ends[k], dd, best_q, best_d);
        }
    }
}

cdyn_status cdyn__curve_closest(const cdyn__curve *c, const double x[3], const double *q_hint,
                                double *q)
{
    if (!cdyn__v3_isfinite(x))
        return CDYN_ERR_INVALID_ARGUMENT;
    const cdyn__domain *d = &c->dom;
    double p[3], best_q = INFINITY, best_d = INFINITY;
    cdyn__v3_sub(p, x, c->o);
    cdyn_status st = CDYN_OK;
    switch (c->kind) {
    case CDYN_CURVE_LINE:
        best_q = cdyn__domain_clamp(d, cdyn__v3_dot(p, c->e1));
        break;
    case CDYN_CURVE_CIRCLE:
        best_q = closest_circle(c, p);
        break;
    case CDYN_CURVE_PARABOLA:
        closest_parabola(c, x, p, &best_q, &best_d);
        break;
    case CDYN_CURVE_HELIX: {
        /* D(q) >= (R - rho)^2 + (h - b q)^2, with equality at the angle of x
         * on every turn; one of those lies within pi of h / b, so no q
         * farther than pi from h / b can win. */
        double h = cdyn__v3_dot(p, c->e3), a, b;
        window(d, h / c->rise, 0.5 * TWO_PI, &a, &b);
        st = search(c, x, a, b, false, 32, &best_q, &best_d);
        break;
    }
    case CDYN_CURVE_CYCLOID: {
        double R = c->radius, px = cdyn__v3_dot(p, c->e1), centre = px / R, d0, a, b;
        double pz[3], r0[3];
        /* D0: in-plane squared distance at q = px / R bounds the minimum */
        if ((st = cdyn__curve_eval(c, centre, r0, NULL, NULL)) != CDYN_OK)
            return st;
        cdyn__v3_sub(pz, r0, x);
        double off = cdyn__v3_dot(p, c->e3);
        d0 = fmax(0.0, cdyn__v3_dot(pz, pz) - off * off);
        window(d, centre, (sqrt(d0) + R) / R, &a, &b);
        st = search(c, x, a, b, false, sample_count(b - a, TWO_PI / 32.0), &best_q, &best_d);
        break;
    }
    case CDYN_CURVE_SPLINE:
        st = search(c, x, d->lo, d->hi, d->periodic,
                    sample_count(d->hi - d->lo, 0.125), &best_q, &best_d);
        break;
    case CDYN_CURVE_CALLBACK: {
        double a = d->lo, b = d->hi;
        if (!cdyn__domain_is_bounded(d)) {
            double anchor = q_hint && isfinite(*q_hint) ? *q_hint
                            : isfinite(d->lo)           ? d->lo + 8.0
                            : isfinite(d->hi)           ? d->hi - 8.0
                                                        : 0.0;
            window(d, anchor, 8.0, &a, &b);
        }
        st = search(c, x, a, b, d->periodic, 256, &best_q, &best_d);
        break;
    }
    }
    if (st != CDYN_OK)
        return st;
    *q = cdyn__domain_clamp(d, best_q);
    return CDYN_OK;
}
