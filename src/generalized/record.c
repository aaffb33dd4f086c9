/* The records of particles on curves and surfaces: the map from particle
 * slots to records, the separate generalized state, and each record's
 * evaluation (position, velocity, the mass block m r'^T r' and the
 * effective inverse mass). */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/finite.h"
#include "core/system.h"
#include "core/vec.h"
#include "generalized/generalized.h"

cdyn__param *cdyn__param_of(const cdyn_system *sys, uint32_t slot)
{
    return sys->param_of ? sys->param_of[slot] : NULL;
}

cdyn_status cdyn__param_failed(const cdyn_system *sys, cdyn_status st, const char *doing,
                               double q)
{
    const char *why = st == CDYN_ERR_CALLBACK
                          ? "its callback failed or returned a non-finite value"
                      : st == CDYN_ERR_NO_MEMORY ? "out of memory"
                          : "no finite point of the shape there (coordinate or result out of range)";
    if (isnan(q))
        return cdyn__fail(sys, st, "cannot %s: %s", doing, why);
    return cdyn__fail(sys, st, "cannot %s at q = %g: %s", doing, q, why);
}

/* --- the separate generalized state --------------------------------------- */

cdyn_status cdyn__params_enter_mode(cdyn_system *sys)
{
    if (sys->param_of)
        return CDYN_OK;
    const cdyn_allocator *a = &sys->alloc;
    size_t cap = sys->particles.capacity, len = cap * (size_t)sys->dim;
    double *u = cdyn__alloc_array(a, len, sizeof *u), *ud = cdyn__alloc_array(a, len, sizeof *ud);
    cdyn__param **of = cdyn__calloc_array(a, cap, sizeof *of);
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

/* The shape in its own frame at (q, t): r, the columns r' and the second
 * derivatives (a curve's r'' in rqq[0]; a surface's r_uu, r_uv, r_vv). */
typedef struct shape_point {
    double r[3], rq[2][3], rqq[3][3];
} shape_point;

static cdyn_status shape_at(const cdyn_system *sys, cdyn__param *p, double t, const double *q,
                            shape_point *sp)
{
    memset(sp, 0, sizeof *sp);
    cdyn_status st;
    if (p->k == 2) {
        p->surface.sys = sys;
        p->surface.time = t;
        st = cdyn__surface_eval(&p->surface, q[0], q[1], sp->r, sp->rq[0], sp->rq[1], sp->rqq[0],
                                sp->rqq[1], sp->rqq[2]);
        return st ? cdyn__param_failed(sys, st, "evaluate the shape", q[0]) : CDYN_OK;
    }
    p->curve.sys = sys;
    p->curve.time = t;
    if (p->arc) {
        if (!isfinite(q[0]))
            return cdyn__param_failed(sys, CDYN_ERR_INVALID_ARGUMENT, "evaluate the shape", q[0]);
        cdyn__cycloid_eval_arc(&p->curve, q[0], sp->r, sp->rq[0], sp->rqq[0]);
        return CDYN_OK;
    }
    st = cdyn__curve_eval(&p->curve, q[0], sp->r, sp->rq[0], sp->rqq[0]);
    return st ? cdyn__param_failed(sys, st, "evaluate the shape", q[0]) : CDYN_OK;
}

/* Whether the shape changes in its own frame (a callback declared
 * time-dependent). */
static bool shape_changes(const cdyn__param *p)
{
    return p->k == 1 ? p->curve.time_dependent : p->surface.time_dependent;
}

bool cdyn__param_moves(const cdyn__param *p)
{
    return p->carrier.moving || shape_changes(p);
}

/* dr/dt, d(r')/dt and d2r/dt2 in the shape's own frame at q, by central
 * differences in t (constraint/drive.h's step). */
static cdyn_status time_partials(const cdyn_system *sys, cdyn__param *p, double t,
                                 const double *q, const shape_point *at, double rt[3],
                                 double rqt[2][3], double rtt[3])
{
    const double h = 1.220703125e-4; /* 2^-13 */
    double tp = t + h, tm = t - h, hp = tp - t, hm = t - tm, h2 = hp + hm;
    shape_point sp, sm;
    cdyn_status st = shape_at(sys, p, tp, q, &sp);
    if (st || (st = shape_at(sys, p, tm, q, &sm)))
        return st;
    for (int i = 0; i < 3; i++) {
        rt[i] = (sp.r[i] - sm.r[i]) / h2;
        rtt[i] = 2.0 * ((sp.r[i] - at->r[i]) / hp - (at->r[i] - sm.r[i]) / hm) / h2;
        for (int a = 0; a < 2; a++)
            rqt[a][i] = (sp.rq[a][i] - sm.rq[a][i]) / h2;
    }
    /* The shape's context back at t. */
    shape_point again;
    return shape_at(sys, p, t, q, &again);
}

cdyn_status cdyn__param_eval(const cdyn_system *sys, cdyn__param *p, double t, const double *q,
                             const double *qd, double *x, double *v)
{
    size_t d = (size_t)sys->dim;
    shape_point sp;
    cdyn_status st = shape_at(sys, p, t, q, &sp);
    if (st)
        return st;
    /* A point or tangent out of range (far out on a parabola) is no point
     * of the shape, not a degenerate parametrization. */
    if (!cdyn__all_finite(sp.r, 3) || !cdyn__all_finite(sp.rq[0], 3) ||
        (p->k == 2 && !cdyn__all_finite(sp.rq[1], 3)))
        return cdyn__param_failed(sys, CDYN_ERR_INVALID_ARGUMENT, "evaluate the shape", q[0]);
    /* In the shape's own frame: c_b, the velocity v_b and dr_b/dt. */
    double c[3], vb[3], rt[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        c[i] = p->k == 1 ? sp.rqq[0][i] * qd[0] * qd[0]
                         : sp.rqq[0][i] * qd[0] * qd[0] + 2.0 * sp.rqq[1][i] * qd[0] * qd[1] +
                               sp.rqq[2][i] * qd[1] * qd[1];
    }
    if (shape_changes(p)) {
        double rqt[2][3], rtt[3];
        if ((st = time_partials(sys, p, t, q, &sp, rt, rqt, rtt)))
            return st;
        for (int i = 0; i < 3; i++) {
            c[i] += rtt[i] + 2.0 * rqt[0][i] * qd[0] + (p->k == 2 ? 2.0 * rqt[1][i] * qd[1] : 0.0);
        }
    }
    for (int i = 0; i < 3; i++) {
        vb[i] = sp.rq[0][i] * qd[0] + (p->k == 2 ? sp.rq[1][i] * qd[1] : 0.0);
        if (shape_changes(p))
            vb[i] += rt[i];
    }
    double xw[3], vw[3];
    if (!cdyn__carrier_active(&p->carrier)) {
        for (int i = 0; i < 3; i++) {
            p->rq[0][i] = sp.rq[0][i];
            p->rq[1][i] = sp.rq[1][i];
            xw[i] = sp.r[i];
            vw[i] = vb[i];
            p->c[i] = c[i];
            p->wt[i] = rt[i];
        }
    } else {
        /* Carried by the frame: x = rot r + shift, v = rot v_b + w_f(x),
         * c = rot c_b + 2 omega x (rot v_b) + a_f(x). */
        cdyn__frame f;
        if ((st = cdyn__carrier_frame(sys, &p->carrier, t, &f)))
            return st;
        double rv[3], cor[3], wf[3], af[3], rc[3], rrt[3];
        cdyn__frame_point(&f, sp.r, xw, wf, af);
        cdyn__frame_turn(&f, sp.rq[0], p->rq[0]);
        cdyn__frame_turn(&f, sp.rq[1], p->rq[1]);
        cdyn__frame_turn(&f, vb, rv);
        cdyn__frame_turn(&f, c, rc);
        cdyn__frame_turn(&f, rt, rrt);
        cdyn__v3_cross(cor, f.omega, rv);
        for (int i = 0; i < 3; i++) {
            vw[i] = rv[i] + wf[i];
            p->c[i] = rc[i] + 2.0 * cor[i] + af[i];
            p->wt[i] = rrt[i] + wf[i];
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
    memcpy(x, xw, d * sizeof *x);
    memcpy(v, vw, d * sizeof *v);
    return CDYN_OK;
}

cdyn_status cdyn__param_set_motion(cdyn_system *sys, cdyn__param *p,
                                   const cdyn_motion_desc *motion)
{
    bool before = cdyn__param_moves(p);
    cdyn__carrier old = p->carrier;
    cdyn_status st = cdyn__carrier_attach(sys, &p->carrier, motion, sys->dim, sys->time);
    if (st)
        return st;
    /* The particle keeps its coordinates and their rates: its velocity
     * becomes r' q' plus the shape's own velocity there. */
    size_t d = (size_t)sys->dim, s = p->slot;
    double q[2] = {sys->u[s * d], p->k == 2 ? sys->u[s * d + 1] : 0.0};
    double qd[2] = {sys->ud[s * d], p->k == 2 ? sys->ud[s * d + 1] : 0.0};
    if ((st = cdyn__param_place(sys, p, q, qd))) {
        p->carrier = old;
        return st;
    }
    bool after = cdyn__param_moves(p);
    sys->n_moving_shapes = sys->n_moving_shapes + (after ? 1u : 0u) - (before ? 1u : 0u);
    return CDYN_OK;
}

double cdyn__params_drive_power(const cdyn_system *sys)
{
    if (!sys->n_moving_shapes)
        return 0.0;
    size_t d = (size_t)sys->dim;
    double pw = 0;
    for (uint32_t s = 0; s < sys->particles.count; s++) {
        const cdyn__param *p = cdyn__param_of(sys, s);
        if (!p || !cdyn__param_moves(p))
            continue;
        for (size_t i = 0; i < d; i++)
            pw += p->normal[i] * p->wt[i];
    }
    return pw;
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
        if (cdyn__param_moves(p))
            sys->n_moving_shapes--;
        size_t d = (size_t)sys->dim, s = p->slot;
        sys->param_of[s] = NULL;
        /* Back to Cartesian coordinates with the same position and velocity. */
        memcpy(sys->u + s * d, sys->x + s * d, d * sizeof(double));
        memcpy(sys->ud + s * d, sys->v + s * d, d * sizeof(double));
        if (--sys->n_param == 0)
            cdyn__params_leave_mode(sys);
    }
    cdyn__param_free(sys, p);
}
