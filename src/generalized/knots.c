/* Where fixed steps must end (spline knots, height-field cell edges) and
 * the commit of a step's generalized state (periodic wrap, hard ends,
 * re-charting). */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/finite.h"
#include "core/system.h"
#include "generalized/generalized.h"

/* Shapes whose derivatives jump on grid lines: a spline's third derivative
 * at its knots (integer q), a bicubic height field's third derivatives on
 * its cell edges (u = x0 + i dx, v = y0 + j dy). */
static bool has_knots(const cdyn__param *p)
{
    return p->k == 1 ? p->curve.kind == CDYN_CURVE_SPLINE
                     : p->surface.kind == CDYN_SURFACE_HEIGHTFIELD;
}

bool cdyn__params_have_knots(const cdyn_system *sys)
{
    for (uint32_t s = 0; sys->param_of && s < sys->particles.count; s++) {
        const cdyn__param *p = cdyn__param_of(sys, s);
        if (p && has_knots(p))
            return true;
    }
    return false;
}

/* Smallest t in (lo, h] with q + qd t + a t^2 / 2 = knot, or h. */
static double time_to(double q, double qd, double a, double knot, double lo, double h)
{
    double dq = knot - q;
    if (a == 0.0 || fabs(a * h * h) < 1e-12 * fabs(dq)) {
        double t = qd != 0.0 ? dq / qd : -1.0;
        return t > lo && t <= h ? t : h;
    }
    /* a t^2 / 2 + qd t - dq = 0, roots by the stable formula. */
    double disc = qd * qd + 2.0 * a * dq;
    if (disc < 0)
        return h;
    double sq = sqrt(disc), qq = -0.5 * (qd + (qd >= 0 ? sq : -sq));
    double r1 = qq / (0.5 * a), r2 = qq != 0.0 ? -dq / qq : -1.0;
    double best = h;
    if (r1 > lo && r1 < best)
        best = r1;
    if (r2 > lo && r2 < best)
        best = r2;
    return best;
}

/* The first time within (lo, best] at which q + qd t + a t^2 / 2 reaches an
 * integer, or best. */
static double integer_crossing(double q, double qd, double a, double lo, double best)
{
    /* The integers around q: the motion within h can reach only these two
     * unless q' h spans more, in which case the nearer one comes first. */
    double below = floor(q), above = below + 1.0;
    double t = fmin(time_to(q, qd, a, above, lo, best), time_to(q, qd, a, below, lo, best));
    if (q == below)
        t = fmin(t, time_to(q, qd, a, below - 1.0, lo, best));
    return fmin(best, t);
}

double cdyn__params_next_knot(const cdyn_system *sys, double h, const double *qdd)
{
    size_t d = (size_t)sys->dim;
    double best = h, lo = 1e-6 * h;
    for (uint32_t s = 0; sys->param_of && s < sys->particles.count; s++) {
        const cdyn__param *p = cdyn__param_of(sys, s);
        if (!p || !has_knots(p))
            continue;
        const double *q = sys->u + s * d, *qd = sys->ud + s * d;
        const double *a = qdd ? qdd + s * d : NULL;
        if (p->k == 1) {
            best = integer_crossing(q[0], qd[0], a ? a[0] : 0.0, lo, best);
            continue;
        }
        /* Height field: in cell units, edges at integers. */
        const cdyn__heightfield *hf = &p->surface.hf;
        double o[2] = {hf->x0, hf->y0}, step[2] = {hf->dx, hf->dy};
        for (int k = 0; k < 2; k++)
            best = integer_crossing((q[k] - o[k]) / step[k], qd[k] / step[k],
                                    a ? a[k] / step[k] : 0.0, lo, best);
    }
    return best;
}

/* Keeps q inside a non-periodic domain: at a hard end the particle stops
 * (its velocity along q is zeroed when it points outwards). */
static void stop_at_ends(const cdyn__domain *dom, double *q, double *qd)
{
    if (dom->periodic) {
        *q = cdyn__domain_wrap(dom, *q);
        return;
    }
    if (*q < dom->lo && dom->lo_end == CDYN__END_HARD) {
        *q = dom->lo;
        if (*qd < 0)
            *qd = 0;
    } else if (*q > dom->hi && dom->hi_end == CDYN__END_HARD) {
        *q = dom->hi;
        if (*qd > 0)
            *qd = 0;
    }
}

cdyn_status cdyn__params_commit(cdyn_system *sys, double t1)
{
    size_t d = (size_t)sys->dim;
    for (uint32_t s = 0; s < sys->particles.count; s++) {
        cdyn__param *p = cdyn__param_of(sys, s);
        if (!p)
            continue;
        double *q = sys->u + s * d, *qd = sys->ud + s * d;
        if (p->k == 1) {
            stop_at_ends(p->arc ? &p->arc_dom : cdyn__curve_domain(&p->curve), &q[0], &qd[0]);
        } else {
            stop_at_ends(&p->surface.du, &q[0], &qd[0]);
            stop_at_ends(&p->surface.dv, &q[1], &qd[1]);
            cdyn__surface_rechart(&p->surface, &q[0], &q[1], &qd[0], &qd[1]);
        }
    }
    cdyn_status st = cdyn__params_to_cartesian(sys, t1, sys->u, sys->ud, sys->ws.px, sys->ws.pv);
    if (st)
        return st;
    /* The step checked the generalized state; a shape may still overflow
     * (a point of a huge curve). */
    size_t n = (size_t)sys->particles.count * d;
    if (!cdyn__all_finite(sys->ws.px, n) || !cdyn__all_finite(sys->ws.pv, n))
        return cdyn__fail(sys, CDYN_ERR_DIVERGED,
                          "step: a shape gives a non-finite position or velocity at t = %g; "
                          "state kept", t1);
    memcpy(sys->x, sys->ws.px, n * sizeof *sys->x);
    memcpy(sys->v, sys->ws.pv, n * sizeof *sys->v);
    return CDYN_OK;
}
