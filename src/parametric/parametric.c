/* Particles on curves and surfaces: generalized coordinates, their mass
 * blocks m r'^T r', the map to Cartesian space, and the state bookkeeping
 * (sys->u, sys->ud, sys->param_of). */
#include "parametric/parametric.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "cdyn/parametric.h"
#include "constraint/constraint.h"
#include "shapes/curve_closest.h"
#include "shapes/surface_closest.h"
#include "core/system.h"
#include "core/finite.h"

cdyn__param *cdyn__param_of(const cdyn_system *sys, uint32_t slot)
{
    if (!sys->param_of || !sys->param_of[slot])
        return NULL;
    return sys->cons->c[sys->param_of[slot] - 1].d.param;
}

/* --- the separate generalized state --------------------------------------- */

cdyn_status cdyn__params_enter_mode(cdyn_system *sys)
{
    if (sys->param_of)
        return CDYN_OK;
    const cdyn_allocator *a = &sys->alloc;
    size_t cap = sys->particles.capacity, len = cap * (size_t)sys->dim;
    double *u = cdyn__alloc_array(a, len, sizeof *u), *ud = cdyn__alloc_array(a, len, sizeof *ud);
    uint32_t *of = cdyn__calloc_array(a, cap, sizeof *of);
    if (!u || !ud || !of) {
        cdyn__free_array(a, u, len, sizeof *u);
        cdyn__free_array(a, ud, len, sizeof *ud);
        cdyn__free_array(a, of, cap, sizeof *of);
        return CDYN_ERR_NO_MEMORY;
    }
    memcpy(u, sys->x, len * sizeof *u);
    memcpy(ud, sys->v, len * sizeof *ud);
    sys->u = u;
    sys->ud = ud;
    sys->param_of = of;
    return CDYN_OK;
}

void cdyn__params_leave_mode(cdyn_system *sys)
{
    if (!sys->param_of)
        return;
    const cdyn_allocator *a = &sys->alloc;
    size_t cap = sys->particles.capacity, len = cap * (size_t)sys->dim;
    cdyn__free_array(a, sys->u, len, sizeof *sys->u);
    cdyn__free_array(a, sys->ud, len, sizeof *sys->ud);
    cdyn__free_array(a, sys->param_of, cap, sizeof *sys->param_of);
    sys->param_of = NULL;
    sys->u = sys->x;
    sys->ud = sys->v;
}

/* --- evaluation ------------------------------------------------------------ */

/* Position, velocity and the caches of record @p p at (q, qd). */
static cdyn_status param_eval(const cdyn_system *sys, cdyn__param *p, const double *q,
                              const double *qd, double *x, double *v)
{
    size_t d = (size_t)sys->dim;
    double r[3] = {0}, c[3] = {0};
    cdyn_status st;
    if (p->k == 1) {
        double r1[3] = {0}, r2[3] = {0};
        if (p->arc) {
            if (!isfinite(q[0]))
                return CDYN_ERR_INVALID_ARGUMENT;
            cdyn__cycloid_eval_arc(&p->curve, q[0], r, r1, r2);
        } else if ((st = cdyn__curve_eval(&p->curve, q[0], r, r1, r2))) {
            return st;
        }
        for (size_t i = 0; i < 3; i++) {
            p->rq[0][i] = r1[i];
            c[i] = r2[i] * qd[0] * qd[0];
        }
    } else {
        double ru[3], rv[3], ruu[3], ruv[3], rvv[3];
        if ((st = cdyn__surface_eval(&p->surface, q[0], q[1], r, ru, rv, ruu, ruv, rvv)))
            return st;
        for (size_t i = 0; i < 3; i++) {
            p->rq[0][i] = ru[i];
            p->rq[1][i] = rv[i];
            c[i] = ruu[i] * qd[0] * qd[0] + 2.0 * ruv[i] * qd[0] * qd[1] + rvv[i] * qd[1] * qd[1];
        }
    }
    /* Metric G = r'^T r' and the mass block m G. */
    double g[4];
    for (int a = 0; a < p->k; a++)
        for (int b = 0; b < p->k; b++) {
            double s = 0;
            for (size_t i = 0; i < d; i++)
                s += p->rq[a][i] * p->rq[b][i];
            g[a * p->k + b] = s;
        }
    double det = p->k == 1 ? g[0] : g[0] * g[3] - g[1] * g[2];
    double scale = p->k == 1 ? g[0] : g[0] * g[3];
    if (!(det > 1e-24 * scale) || !(det > 0))
        return cdyn__fail(sys, CDYN_ERR_SINGULAR,
                          "shape: degenerate parametrization (r' = 0 or r_u x r_v = 0) at q = %g",
                          q[0]);
    double m = sys->mass[p->slot], winv = sys->fixed[p->slot] ? 0.0 : 1.0 / m;
    if (p->k == 1) {
        p->minv[0] = winv / g[0];
    } else {
        p->minv[0] = winv * g[3] / det;
        p->minv[1] = -winv * g[1] / det;
        p->minv[2] = -winv * g[2] / det;
        p->minv[3] = winv * g[0] / det;
    }
    /* W = r' M_u^-1 r'^T, symmetric; a curve's is an outer product. */
    for (size_t i = 0; i < d; i++) {
        double ai = p->k == 1 ? p->minv[0] * p->rq[0][i]
                              : p->minv[0] * p->rq[0][i] + p->minv[2] * p->rq[1][i];
        double bi = p->k == 1 ? 0.0 : p->minv[1] * p->rq[0][i] + p->minv[3] * p->rq[1][i];
        for (size_t j = 0; j <= i; j++) {
            double w = ai * p->rq[0][j] + (p->k == 1 ? 0.0 : bi * p->rq[1][j]);
            p->w[i * d + j] = p->w[j * d + i] = w;
        }
    }
    for (size_t i = 0; i < d; i++) {
        x[i] = r[i];
        v[i] = p->rq[0][i] * qd[0] + (p->k == 2 ? p->rq[1][i] * qd[1] : 0.0);
        p->c[i] = c[i];
    }
    return CDYN_OK;
}

cdyn_status cdyn__params_to_cartesian(cdyn_system *sys, const double *u, const double *ud,
                                      double *x, double *v)
{
    size_t d = (size_t)sys->dim, n = (size_t)sys->particles.count;
    memcpy(x, u, n * d * sizeof *x);
    memcpy(v, ud, n * d * sizeof *v);
    const cdyn__constraints *k = sys->cons;
    for (uint32_t s = 0; s < sys->particles.count; s++) {
        if (!sys->param_of[s])
            continue;
        cdyn__param *p = k->c[sys->param_of[s] - 1].d.param;
        cdyn_status st = param_eval(sys, p, u + s * d, ud + s * d, x + s * d, v + s * d);
        if (st)
            return st == CDYN_ERR_INVALID_ARGUMENT ? cdyn__fail(sys, CDYN_ERR_DIVERGED,
                                                                "shape: non-finite coordinate")
                                                   : st;
    }
    return CDYN_OK;
}

void cdyn__params_save_forces(cdyn_system *sys, const double *f)
{
    size_t d = (size_t)sys->dim;
    for (uint32_t s = 0; s < sys->particles.count; s++) {
        cdyn__param *p = cdyn__param_of(sys, s);
        if (!p)
            continue;
        memcpy(p->f, f + s * d, d * sizeof *f);
        memset(p->fc, 0, sizeof p->fc);
    }
}

void cdyn__params_free_accel(cdyn_system *sys, double *a)
{
    size_t d = (size_t)sys->dim;
    for (uint32_t s = 0; s < sys->particles.count; s++) {
        cdyn__param *p = cdyn__param_of(sys, s);
        if (!p)
            continue;
        /* c + W y = c + r' (M_u^-1 (r'^T y)): O(d k), not O(d^2). */
        double m = sys->mass[s], rty[2] = {0, 0}, z[2];
        for (size_t i = 0; i < d; i++) {
            double y = p->f[i] - m * p->c[i];
            rty[0] += p->rq[0][i] * y;
            rty[1] += p->rq[1][i] * y;
        }
        if (p->k == 1) {
            z[0] = p->minv[0] * rty[0];
            z[1] = 0.0;
        } else {
            z[0] = p->minv[0] * rty[0] + p->minv[1] * rty[1];
            z[1] = p->minv[2] * rty[0] + p->minv[3] * rty[1];
        }
        for (size_t i = 0; i < d; i++)
            a[s * d + i] = p->c[i] + p->rq[0][i] * z[0] + p->rq[1][i] * z[1];
    }
}

void cdyn__params_generalized_accel(cdyn_system *sys, double *a)
{
    size_t d = (size_t)sys->dim;
    for (uint32_t s = 0; s < sys->particles.count; s++) {
        cdyn__param *p = cdyn__param_of(sys, s);
        if (!p)
            continue;
        double m = sys->mass[s], y[3], rty[2] = {0, 0};
        for (size_t i = 0; i < d; i++) {
            y[i] = p->f[i] + p->fc[i] - m * p->c[i];
            p->normal[i] = m * a[s * d + i] - p->f[i] - p->fc[i];
        }
        for (int b = 0; b < p->k; b++)
            for (size_t i = 0; i < d; i++)
                rty[b] += p->rq[b][i] * y[i];
        double *out = a + s * d;
        memset(out, 0, d * sizeof *out);
        for (int b = 0; b < p->k; b++)
            for (int c = 0; c < p->k; c++)
                out[b] += p->minv[b * p->k + c] * rty[c];
    }
}

/* --- knots ------------------------------------------------------------------ */

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

/* --- commits and setters --------------------------------------------------- */

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

cdyn_status cdyn__params_commit(cdyn_system *sys)
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
    cdyn_status st = cdyn__params_to_cartesian(sys, sys->u, sys->ud, sys->ws.px, sys->ws.pv);
    if (st)
        return st;
    size_t n = (size_t)sys->particles.count * d;
    memcpy(sys->x, sys->ws.px, n * sizeof *sys->x);
    memcpy(sys->v, sys->ws.pv, n * sizeof *sys->v);
    return CDYN_OK;
}

void cdyn__params_cartesian_accel(cdyn_system *sys, double *a)
{
    size_t d = (size_t)sys->dim;
    for (uint32_t s = 0; s < sys->particles.count; s++) {
        cdyn__param *p = cdyn__param_of(sys, s);
        if (!p)
            continue;
        double qdd[2] = {a[s * d], p->k == 2 ? a[s * d + 1] : 0.0};
        for (size_t i = 0; i < d; i++)
            a[s * d + i] = p->c[i] + p->rq[0][i] * qdd[0] + (p->k == 2 ? p->rq[1][i] * qdd[1] : 0.0);
    }
}

/* Coordinates of the point of @p p's shape nearest to x, and the parameter
 * velocity best matching v. On a whole sphere, a point within 45 degrees of
 * a pole is given in a turned chart (as the step would re-chart it), so
 * that the poles themselves are accepted: then *turned is set and *chart
 * holds the surface with the new frame, for the caller to adopt; the record
 * is not changed. */
static cdyn_status project(const cdyn_system *sys, cdyn__param *p, const double *x,
                           const double *v, const double *hint, double *q, double *qd,
                           cdyn__surface *chart, bool *turned)
{
    double x3[3] = {0, 0, 0}, v3[3] = {0, 0, 0};
    memcpy(x3, x, (size_t)sys->dim * sizeof *x3);
    memcpy(v3, v, (size_t)sys->dim * sizeof *v3);
    cdyn_status st;
    if (p->arc) {
        /* Closest in q, then in arc length; the velocity along the unit
         * tangent, which exists at the cusps too. */
        double qh = hint ? cdyn__cycloid_param_of(&p->curve, hint[0]) : 0.0, t[3];
        if ((st = cdyn__curve_closest(&p->curve, x3, hint ? &qh : NULL, &q[0])))
            return st;
        q[0] = cdyn__domain_clamp(&p->arc_dom, cdyn__cycloid_arc_of(&p->curve, q[0]));
        cdyn__cycloid_eval_arc(&p->curve, q[0], NULL, t, NULL);
        qd[0] = t[0] * v3[0] + t[1] * v3[1] + t[2] * v3[2];
        return CDYN_OK;
    }
    if (p->k == 1) {
        if ((st = cdyn__curve_closest(&p->curve, x3, hint, &q[0])))
            return st;
        st = cdyn__curve_param_velocity(&p->curve, q[0], v3, &qd[0]);
    } else {
        *chart = p->surface;
        *turned = cdyn__surface_rechart_point(chart, x3);
        if ((st = cdyn__surface_closest(chart, x3, *turned ? NULL : hint, &q[0], &q[1])))
            return st;
        st = cdyn__surface_param_velocity(chart, q[0], q[1], v3, &qd[0], &qd[1]);
    }
    if (st == CDYN_ERR_SINGULAR)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "shape: the parametrization degenerates at the particle's point");
    return st;
}

/* Places particle slot of @p p at (q, qd) in both state representations. */
static cdyn_status place(cdyn_system *sys, cdyn__param *p, const double *q, const double *qd)
{
    size_t d = (size_t)sys->dim, s = p->slot;
    double x[3], v[3];
    cdyn_status st = param_eval(sys, p, q, qd, x, v);
    if (st)
        return st;
    cdyn__constraints_materialize_jac(sys);
    memset(sys->u + s * d, 0, d * sizeof(double));
    memset(sys->ud + s * d, 0, d * sizeof(double));
    for (int a = 0; a < p->k; a++) {
        sys->u[s * d + (size_t)a] = q[a];
        sys->ud[s * d + (size_t)a] = qd[a];
    }
    memcpy(sys->x + s * d, x, d * sizeof *x);
    memcpy(sys->v + s * d, v, d * sizeof *v);
    return CDYN_OK;
}

cdyn_status cdyn__params_check_projection(cdyn_system *sys, uint32_t slot, const double *x,
                                          const double *v)
{
    cdyn__param *p = cdyn__param_of(sys, slot);
    if (!p)
        return CDYN_OK;
    size_t d = (size_t)sys->dim;
    double q[2], qd[2], xs[3], vs[3];
    cdyn__surface chart;
    bool turned = false;
    cdyn_status st = project(sys, p, x ? x : sys->x + slot * d, v ? v : sys->v + slot * d,
                             sys->u + slot * d, q, qd, &chart, &turned);
    if (st)
        return st;
    /* On a copy of the record: nothing may change here. */
    cdyn__param trial = *p;
    if (turned)
        trial.surface = chart;
    return param_eval(sys, &trial, q, qd, xs, vs);
}

cdyn_status cdyn__params_sync_slot(cdyn_system *sys, uint32_t slot)
{
    if (!sys->param_of)
        return CDYN_OK;
    size_t d = (size_t)sys->dim;
    cdyn__param *p = cdyn__param_of(sys, slot);
    if (!p) {
        memcpy(sys->u + slot * d, sys->x + slot * d, d * sizeof(double));
        memcpy(sys->ud + slot * d, sys->v + slot * d, d * sizeof(double));
        return CDYN_OK;
    }
    double q[2], qd[2];
    cdyn__surface chart, old = p->surface;
    bool turned = false;
    cdyn_status st = project(sys, p, sys->x + slot * d, sys->v + slot * d, sys->u + slot * d, q,
                             qd, &chart, &turned);
    if (st)
        return st;
    if (turned)
        p->surface = chart;
    if ((st = place(sys, p, q, qd)) && turned)
        p->surface = old;
    return st;
}

/* --- records --------------------------------------------------------------- */

void cdyn__param_free(cdyn_system *sys, cdyn__param *p)
{
    if (!p)
        return;
    if (p->k == 1)
        cdyn__curve_free(&p->curve);
    else
        cdyn__surface_free(&p->surface);
    cdyn__free_array(&sys->alloc, p, 1, sizeof *p);
}

void cdyn__param_release(cdyn_system *sys, cdyn__param *p)
{
    if (sys->param_of && sys->param_of[p->slot]) {
        size_t d = (size_t)sys->dim, s = p->slot;
        sys->param_of[s] = 0;
        /* Back to Cartesian coordinates with the same position and velocity. */
        memcpy(sys->u + s * d, sys->x + s * d, d * sizeof(double));
        memcpy(sys->ud + s * d, sys->v + s * d, d * sizeof(double));
        if (--sys->n_param == 0)
            cdyn__params_leave_mode(sys);
    }
    cdyn__param_free(sys, p);
}

/* Builds a record for particle @p slot on the shape described by @p curve or
 * @p surface, projected from the particle's current state; then the
 * constraint. Everything fallible happens before anything is changed. */
static cdyn_status add_shape(cdyn_system *sys, cdyn_particle particle,
                             const cdyn_curve_desc *curve, const cdyn_surface_desc *surface,
                             cdyn_constraint *out, const char *what)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn_status st = cdyn__check_mutable(sys, what);
    if (st)
        return st;
    if (!out || (!curve && !surface))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    uint32_t slot;
    if ((st = cdyn__constraint_resolve_particles(sys, &particle, 1, &slot, what)))
        return st;
    if (cdyn__param_of(sys, slot))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: the particle is already on a shape; remove that constraint first",
                          what);
    if (surface && sys->dim != 3)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: surfaces need a 3-D system", what);
    cdyn__param *p = cdyn__calloc_array(&sys->alloc, 1, sizeof *p);
    if (!p)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
    p->k = curve ? 1 : 2;
    p->slot = slot;
    st = curve ? cdyn__curve_init(&p->curve, curve, sys->dim, &sys->alloc)
               : cdyn__surface_init(&p->surface, surface, &sys->alloc);
    if (st) {
        cdyn__free_array(&sys->alloc, p, 1, sizeof *p);
        return cdyn__fail(sys, st, "%s: %s", what,
                          st == CDYN_ERR_NO_MEMORY ? "out of memory"
                                                   : "invalid or degenerate shape description");
    }
    if (surface && p->surface.kind == CDYN_SURFACE_HEIGHTFIELD &&
        p->surface.hf.mode == CDYN_HEIGHTFIELD_BILINEAR) {
        /* Its normal jumps on every cell edge while (u', v') pass unchanged:
         * the speed jumps there and energy is not conserved. */
        cdyn__param_free(sys, p);
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "%s: a particle cannot ride a BILINEAR height field (its slope jumps "
                          "at cell edges); use CDYN_HEIGHTFIELD_BICUBIC",
                          what);
    }
    if (curve && p->curve.kind == CDYN_CURVE_CYCLOID) {
        const cdyn__domain *dom = cdyn__curve_domain(&p->curve);
        p->arc = true;
        p->arc_dom = cdyn__domain_interval(cdyn__cycloid_arc_of(&p->curve, dom->lo),
                                           cdyn__cycloid_arc_of(&p->curve, dom->hi), dom->lo_end,
                                           dom->hi_end);
    }
    size_t d = (size_t)sys->dim;
    double q[2] = {0, 0}, qd[2] = {0, 0}, x[3], v[3];
    cdyn__surface chart;
    bool turned = false;
    st = project(sys, p, sys->x + slot * d, sys->v + slot * d, NULL, q, qd, &chart, &turned);
    if (!st && turned)
        p->surface = chart; /* a shallow copy: a sphere owns no arrays */
    if (st || (st = param_eval(sys, p, q, qd, x, v))) {
        cdyn__param_free(sys, p);
        return st == CDYN_ERR_SINGULAR
                   ? cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                                "%s: the shape's parametrization degenerates at the start point",
                                what)
                   : st;
    }
    bool entered = !sys->param_of;
    if ((st = cdyn__params_enter_mode(sys))) {
        cdyn__param_free(sys, p);
        return cdyn__fail(sys, st, "%s: out of memory", what);
    }
    cdyn__constraint proto = {.kind = (uint8_t)(curve ? CDYN_CONSTRAINT_CURVE : CDYN_CONSTRAINT_SURFACE),
                              .n_particles = 1, .n_rows = 0, .d.param = p};
    uint32_t cslot;
    if ((st = cdyn__constraint_insert(sys, &proto, &slot, out, what, &cslot))) {
        if (entered)
            cdyn__params_leave_mode(sys);
        cdyn__param_free(sys, p);
        return st;
    }
    p->owner = cslot;
    sys->param_of[slot] = cslot + 1u;
    sys->n_param++;
    return place(sys, p, q, qd);
}

cdyn_status cdyn_constraint_add_on_curve(cdyn_system *sys, cdyn_particle p,
                                         const cdyn_curve_desc *curve, cdyn_constraint *out)
{
    return add_shape(sys, p, curve, NULL, out, "constraint_add_on_curve");
}

cdyn_status cdyn_constraint_add_on_surface(cdyn_system *sys, cdyn_particle p,
                                           const cdyn_surface_desc *surface, cdyn_constraint *out)
{
    return add_shape(sys, p, NULL, surface, out, "constraint_add_on_surface");
}

/* Arc length and its rate to the public q, q' of a cycloid. q' is infinite
 * where a moving bead sits on a cusp (only if it was put there moving). */
static void arc_to_param(const cdyn__param *p, double *q, double *qd)
{
    double s = q[0], sd = qd[0];
    q[0] = cdyn__cycloid_param_of(&p->curve, s);
    if (sd != 0.0) {
        double dr[3] = {0, 0, 0};
        (void)cdyn__curve_eval(&p->curve, q[0], NULL, dr, NULL);
        double speed = sqrt(dr[0] * dr[0] + dr[1] * dr[1] + dr[2] * dr[2]);
        qd[0] = speed > 0.0 ? sd / speed : copysign(HUGE_VAL, sd);
    }
}

/* The record of a shape constraint handle. */
static cdyn_status shape_of(const cdyn_system *sys, cdyn_constraint h, const char *what,
                            cdyn__param **out)
{
    uint32_t i;
    cdyn_status st = cdyn__constraint_slot(sys, h, &i);
    if (st)
        return st;
    const cdyn__constraint *c = &sys->cons->c[i];
    if (c->kind != CDYN_CONSTRAINT_CURVE && c->kind != CDYN_CONSTRAINT_SURFACE)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: the constraint does not hold a particle on a curve or surface",
                          what);
    *out = c->d.param;
    return CDYN_OK;
}

cdyn_status cdyn_constraint_get_coordinates(const cdyn_system *sys, cdyn_constraint h, double *q,
                                            double *qdot)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__param *p = NULL;
    cdyn_status st = shape_of(sys, h, "constraint_get_coordinates", &p);
    if (st)
        return st;
    size_t d = (size_t)sys->dim;
    double nq[2], nqd[2];
    for (int a = 0; a < p->k; a++) {
        nq[a] = sys->u[p->slot * d + (size_t)a];
        nqd[a] = sys->ud[p->slot * d + (size_t)a];
    }
    if (p->arc)
        arc_to_param(p, nq, nqd);
    for (int a = 0; a < p->k; a++) {
        if (q)
            q[a] = nq[a];
        if (qdot)
            qdot[a] = nqd[a];
    }
    return CDYN_OK;
}

cdyn_status cdyn_constraint_set_coordinates(cdyn_system *sys, cdyn_constraint h, const double *q,
                                            const double *qdot)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    const char *what = "constraint_set_coordinates";
    cdyn_status st = cdyn__check_mutable(sys, what);
    cdyn__param *p = NULL;
    if (st || (st = shape_of(sys, h, what, &p)))
        return st;
    size_t d = (size_t)sys->dim;
    double nq[2] = {0, 0}, nqd[2] = {0, 0};
    for (int a = 0; a < p->k; a++) {
        nq[a] = sys->u[p->slot * d + (size_t)a];
        nqd[a] = sys->ud[p->slot * d + (size_t)a];
    }
    if (p->arc)
        arc_to_param(p, nq, nqd);
    for (int a = 0; a < p->k; a++) {
        nq[a] = q ? q[a] : nq[a];
        nqd[a] = qdot ? qdot[a] : nqd[a];
    }
    if (!cdyn__all_finite(nq, 2) || !cdyn__all_finite(nqd, 2))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: non-finite coordinate", what);
    const cdyn__domain *du = p->k == 1 ? cdyn__curve_domain(&p->curve) : &p->surface.du;
    const cdyn__domain *dv = p->k == 1 ? NULL : &p->surface.dv;
    if ((!du->periodic && (nq[0] < du->lo || nq[0] > du->hi)) ||
        (dv && !dv->periodic && (nq[1] < dv->lo || nq[1] > dv->hi)))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: coordinate outside the shape's domain",
                          what);
    nq[0] = cdyn__domain_wrap(du, nq[0]);
    if (dv)
        nq[1] = cdyn__domain_wrap(dv, nq[1]);
    if (p->arc) {
        /* s' = |r'(q)| q', dr/dq pointing along increasing s inside the arch */
        double dr[3];
        if ((st = cdyn__curve_eval(&p->curve, nq[0], NULL, dr, NULL)))
            return st;
        nqd[0] *= sqrt(dr[0] * dr[0] + dr[1] * dr[1] + dr[2] * dr[2]);
        nq[0] = cdyn__domain_clamp(&p->arc_dom, cdyn__cycloid_arc_of(&p->curve, nq[0]));
    }
    /* place() evaluates before writing: a failure leaves the state as it was. */
    st = place(sys, p, nq, nqd);
    if (st != CDYN_ERR_SINGULAR || p->k != 2)
        return st;
    /* On a pole of a whole sphere's chart: the point in a turned chart, as a
     * step would re-chart it (u' is lost there: r_u = 0). */
    cdyn__surface old = p->surface, chart = p->surface;
    if (cdyn__surface_rechart(&chart, &nq[0], &nq[1], &nqd[0], &nqd[1])) {
        p->surface = chart;
        if ((st = place(sys, p, nq, nqd)))
            p->surface = old;
    }
    return st;
}

cdyn_status cdyn_constraint_get_coordinate_count(const cdyn_system *sys, cdyn_constraint h,
                                                 size_t *out)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "constraint_get_coordinate_count: NULL");
    uint32_t i;
    cdyn_status st = cdyn__constraint_slot(sys, h, &i);
    if (st)
        return st;
    const cdyn__constraint *c = &sys->cons->c[i];
    *out = c->kind == CDYN_CONSTRAINT_CURVE ? 1 : c->kind == CDYN_CONSTRAINT_SURFACE ? 2 : 0;
    return CDYN_OK;
}
