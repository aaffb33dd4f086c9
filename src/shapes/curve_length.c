#include "shapes/curve_length.h"

#include <math.h>

#include "shapes/quadrature.h"
#include "core/vec.h"

#define TWO_PI 6.283185307179586476925287
#define QUAD_TOL 1e-13

/* ---- analytic kinds: a cumulative length S(q) and its inverse ---- */

static double parabola_S(double a, double q)
{
    if (a == 0.0)
        return q;
    double t = 2.0 * a * q;
    return 0.5 * q * hypot(1.0, t) + asinh(t) / (4.0 * a);
}

static double cycloid_S(double R, double q)
{
    double k = floor(q / TWO_PI), tau = q - k * TWO_PI, s = sin(0.25 * tau);
    return 8.0 * R * (k + s * s);
}

static double cycloid_S_inverse(double R, double S)
{
    double arch = 8.0 * R, k = floor(S / arch), rem = (S - k * arch) / arch;
    rem = rem < 0.0 ? 0.0 : (rem > 1.0 ? 1.0 : rem);
    return k * TWO_PI + 4.0 * asin(sqrt(rem));
}

/* Parabola: q with S(q) = target, by Newton's method kept in a bracket
 * (|S(q)| >= |q|, so q lies between 0 and target). */
static double parabola_S_inverse(double a, double target)
{
    if (a == 0.0 || target == 0.0)
        return target;
    double lo = target < 0.0 ? target : 0.0, hi = target < 0.0 ? 0.0 : target;
    double q = copysign(fmin(fabs(target), sqrt(fabs(target / a))), target);
    for (int it = 0; it < 200; it++) {
        double g = parabola_S(a, q) - target;
        if (g > 0.0)
            hi = q;
        else if (g < 0.0)
            lo = q;
        else
            break;
        double qn = q - g / hypot(1.0, 2.0 * a * q);
        if (!(qn > lo && qn < hi))
            qn = 0.5 * (lo + hi);
        if (qn == q || hi - lo <= 2e-16 * fabs(q))
            break;
        q = qn;
    }
    return q;
}

static bool has_closed_form(cdyn_curve_kind kind)
{
    return kind != CDYN_CURVE_CALLBACK;
}

/* Cumulative arc length S(q) of a non-callback kind from a fixed reference. */
static double cum_length(const cdyn__curve *c, double q)
{
    switch (c->kind) {
    case CDYN_CURVE_CIRCLE:
        return c->radius * q;
    case CDYN_CURVE_HELIX:
        return hypot(c->radius, c->rise) * q;
    case CDYN_CURVE_PARABOLA:
        return parabola_S(c->a, q);
    case CDYN_CURVE_CYCLOID:
        return cycloid_S(c->radius, q);
    case CDYN_CURVE_SPLINE:
        return cdyn__spline_arc_length(&c->spline, q);
    default:
        return q; /* line: q is arc length */
    }
}

static cdyn_status cum_inverse(const cdyn__curve *c, double S, double *q)
{
    switch (c->kind) {
    case CDYN_CURVE_CIRCLE:
        *q = S / c->radius;
        return CDYN_OK;
    case CDYN_CURVE_HELIX:
        *q = S / hypot(c->radius, c->rise);
        return CDYN_OK;
    case CDYN_CURVE_PARABOLA:
        *q = parabola_S_inverse(c->a, S);
        return CDYN_OK;
    case CDYN_CURVE_CYCLOID:
        *q = cycloid_S_inverse(c->radius, S);
        return CDYN_OK;
    case CDYN_CURVE_SPLINE:
        return cdyn__spline_param_at(&c->spline, S, q);
    default:
        *q = S;
        return CDYN_OK;
    }
}

/* ---- callbacks: quadrature of the speed ---- */

static cdyn_status callback_speed(const void *ctx, double q, double *out)
{
    double dr[3];
    cdyn_status st = cdyn__curve_eval(ctx, q, NULL, dr, NULL);
    if (st == CDYN_OK)
        *out = cdyn__v3_norm(dr);
    return st;
}

static cdyn_status callback_length(const cdyn__curve *c, double q0, double q1, double *s)
{
    return cdyn__quad_adaptive(callback_speed, c, q0, q1, QUAD_TOL, s);
}

/* Callback inverse: march from q0 in growing steps until the length is
 * passed (or an end is hit), then Newton in the last step, safeguarded by
 * bisection. All lengths measured as magnitudes along direction dir. */
static cdyn_status callback_inverse(const cdyn__curve *c, double q0, double s, double *q)
{
    double dir = s < 0.0 ? -1.0 : 1.0, target = fabs(s);
    const cdyn__domain *d = &c->dom;
    double end = d->periodic ? dir * INFINITY : (dir > 0.0 ? d->hi : d->lo);
    double v;
    cdyn_status st = callback_speed(c, q0, &v);
    if (st != CDYN_OK)
        return st;
    double step = v > 0.0 ? target / v : 1.0;
    double a = q0, la = 0.0, b = q0, lb = 0.0;
    int it;
    for (it = 0; it < 64; it++) {
        b = a + dir * step;
        bool at_end = dir > 0.0 ? b >= end : b <= end;
        if (at_end)
            b = end;
        double piece;
        if ((st = callback_length(c, a, b, &piece)) != CDYN_OK)
            return st;
        lb = la + fabs(piece);
        if (lb >= target)
            break;
        if (at_end)
            return CDYN_ERR_INVALID_ARGUMENT;
        a = b;
        la = lb;
        step *= 2.0;
    }
    if (it == 64)
        return CDYN_ERR_NOT_CONVERGED;
    /* Root of L(t) - target on [a, b] (in the direction of travel). Lengths
     * are measured from lo, the last point known to lie short of the target,
     * so that a piece beyond the root never feeds back into them. */
    double t = a, lt = la, lo = a, llo = la, hi = b;
    for (it = 0; it < 200; it++) {
        if ((st = callback_speed(c, t, &v)) != CDYN_OK)
            return st;
        double g = lt - target;
        if (g == 0.0)
            break;
        double tn = v > 0.0 ? t - dir * g / v : 0.5 * (lo + hi);
        bool inside = dir > 0.0 ? (tn > lo && tn < hi) : (tn < lo && tn > hi);
        if (!inside)
            tn = 0.5 * (lo + hi);
        if (tn == t || fabs(hi - lo) <= 4e-16 * fmax(1.0, fabs(t)))
            break;
        double piece;
        if ((st = callback_length(c, lo, tn, &piece)) != CDYN_OK)
            return st;
        t = tn;
        lt = llo + dir * piece;
        if (lt > target) {
            hi = t;
        } else {
            lo = t;
            llo = lt;
        }
        if (fabs(lt - target) <= 1e-15 * target)
            break;
    }
    *q = t;
    return CDYN_OK;
}

cdyn_status cdyn__curve_arc_length(const cdyn__curve *c, double q0, double q1, double *s)
{
    if (!isfinite(q0) || !isfinite(q1))
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!has_closed_form(c->kind))
        return callback_length(c, q0, q1, s);
    switch (c->kind) {
    case CDYN_CURVE_LINE:
    case CDYN_CURVE_CIRCLE:
    case CDYN_CURVE_HELIX:
        *s = cum_length(c, q1 - q0);
        return CDYN_OK;
    default:
        *s = cum_length(c, q1) - cum_length(c, q0);
        /* A length beyond double's range (a spline far beyond its ends). */
        return isfinite(*s) ? CDYN_OK : CDYN_ERR_INVALID_ARGUMENT;
    }
}

cdyn_status cdyn__curve_param_at_length(const cdyn__curve *c, double q0, double s, double *q)
{
    if (!isfinite(q0) || !isfinite(s))
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!has_closed_form(c->kind))
        return callback_inverse(c, q0, s, q);
    const cdyn__domain *d = &c->dom;
    double target = cum_length(c, q0) + s;
    if (!isfinite(target))
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!d->periodic) {
        /* A length that ends on a finite end within rounding is that end. */
        double ends[2] = {d->lo, d->hi};
        for (int k = 0; k < 2; k++) {
            if (!isfinite(ends[k]))
                continue;
            double se = cum_length(c, ends[k]);
            double past = k == 0 ? se - target : target - se;
            if (past > 1e-12 * (fabs(se) + fabs(s)))
                return CDYN_ERR_INVALID_ARGUMENT;
            if (past > 0.0)
                target = se;
        }
    }
    double out;
    cdyn_status st;
    switch (c->kind) {
    case CDYN_CURVE_LINE:
    case CDYN_CURVE_CIRCLE:
    case CDYN_CURVE_HELIX:
        st = cum_inverse(c, target - cum_length(c, q0), &out);
        out += q0;
        break;
    default:
        st = cum_inverse(c, target, &out);
        break;
    }
    if (st == CDYN_OK)
        *q = d->periodic ? out : cdyn__domain_clamp(d, out);
    return st;
}

cdyn_status cdyn__curve_total_length(const cdyn__curve *c, double *len)
{
    if (!cdyn__domain_is_bounded(&c->dom))
        return CDYN_ERR_INVALID_ARGUMENT;
    return cdyn__curve_arc_length(c, c->dom.lo, c->dom.hi, len);
}
