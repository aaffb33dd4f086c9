#include "shapes/quadrature.h"

#include <math.h>

/* Abscissae and weights of the 7-point Gauss-Legendre rule on [-1, 1]. */
static const double gl_x[4] = {0.0, 0.4058451513773971669066064, 0.7415311855993944398638648,
                               0.9491079123427585245261897};
static const double gl_w[4] = {0.4179591836734693877551020, 0.3818300505051189449503698,
                               0.2797053914892766679014678, 0.1294849661688696932706114};

static cdyn_status gl7(cdyn__integrand f, const void *ctx, double a, double b, double *out)
{
    double c = 0.5 * (a + b), h = 0.5 * (b - a);
    double v;
    cdyn_status st = f(ctx, c, &v);
    if (st != CDYN_OK)
        return st;
    double sum = gl_w[0] * v;
    for (int k = 1; k < 4; k++) {
        double vl, vr;
        if ((st = f(ctx, c - h * gl_x[k], &vl)) != CDYN_OK ||
            (st = f(ctx, c + h * gl_x[k], &vr)) != CDYN_OK)
            return st;
        sum += gl_w[k] * (vl + vr);
    }
    *out = h * sum;
    /* An overflowing integrand (or panel) would never meet the tolerance:
     * the test below is false for inf and NaN. */
    return isfinite(*out) ? CDYN_OK : CDYN_ERR_DIVERGED;
}

static cdyn_status refine(cdyn__integrand f, const void *ctx, double a, double b, double whole,
                          double tol, int depth, int *budget, double *out)
{
    double m = 0.5 * (a + b), left, right;
    cdyn_status st;
    if (--*budget < 0)
        return CDYN_ERR_NOT_CONVERGED;
    if ((st = gl7(f, ctx, a, m, &left)) != CDYN_OK || (st = gl7(f, ctx, m, b, &right)) != CDYN_OK)
        return st;
    double both = left + right;
    if (fabs(both - whole) <= tol || depth >= 30 || !(m > a && m < b)) {
        *out = both;
        return CDYN_OK;
    }
    double il, ir;
    if ((st = refine(f, ctx, a, m, left, 0.5 * tol, depth + 1, budget, &il)) != CDYN_OK ||
        (st = refine(f, ctx, m, b, right, 0.5 * tol, depth + 1, budget, &ir)) != CDYN_OK)
        return st;
    *out = il + ir;
    return CDYN_OK;
}

cdyn_status cdyn__quad_adaptive(cdyn__integrand f, const void *ctx, double a, double b,
                                double rel_tol, double *out)
{
    if (a == b) {
        *out = 0.0;
        return CDYN_OK;
    }
    double lo = a < b ? a : b, hi = a < b ? b : a;
    double whole;
    cdyn_status st = gl7(f, ctx, lo, hi, &whole);
    if (st != CDYN_OK)
        return st;
    double tol = rel_tol * fabs(whole);
    if (!(tol > 0.0))
        tol = 1e-300;
    double v;
    int budget = CDYN__QUAD_MAX_PANELS;
    if ((st = refine(f, ctx, lo, hi, whole, tol, 0, &budget, &v)) != CDYN_OK)
        return st;
    *out = a < b ? v : -v;
    return CDYN_OK;
}
