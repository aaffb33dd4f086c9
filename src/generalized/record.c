/* The records of particles on curves and surfaces: the map from particle
 * slots to records, the separate generalized state, and each record's
 * evaluation (position, velocity, the mass block m r'^T r' and the
 * effective inverse mass). */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/finite.h"
#include "core/system.h"
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
                      : st == CDYN_ERR_NOT_CONVERGED
                          ? "the search for the closest point did not converge"
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

/* Position, velocity and the caches of record @p p at (q, qd). */
cdyn_status cdyn__param_eval(const cdyn_system *sys, cdyn__param *p, const double *q,
                             const double *qd, double *x, double *v)
{
    size_t d = (size_t)sys->dim;
    double r[3] = {0}, c[3] = {0};
    cdyn_status st;
    if (p->k == 1) {
        double r1[3] = {0}, r2[3] = {0};
        if (p->arc) {
            if (!isfinite(q[0]))
                return cdyn__param_failed(sys, CDYN_ERR_INVALID_ARGUMENT, "evaluate the shape", q[0]);
            cdyn__cycloid_eval_arc(&p->curve, q[0], r, r1, r2);
        } else if ((st = cdyn__curve_eval(&p->curve, q[0], r, r1, r2))) {
            return cdyn__param_failed(sys, st, "evaluate the shape", q[0]);
        }
        for (size_t i = 0; i < 3; i++) {
            p->rq[0][i] = r1[i];
            c[i] = r2[i] * qd[0] * qd[0];
        }
    } else {
        double ru[3], rv[3], ruu[3], ruv[3], rvv[3];
        if ((st = cdyn__surface_eval(&p->surface, q[0], q[1], r, ru, rv, ruu, ruv, rvv)))
            return cdyn__param_failed(sys, st, "evaluate the shape", q[0]);
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
        sys->param_of[s] = NULL;
        /* Back to Cartesian coordinates with the same position and velocity. */
        memcpy(sys->u + s * d, sys->x + s * d, d * sizeof(double));
        memcpy(sys->ud + s * d, sys->v + s * d, d * sizeof(double));
        if (--sys->n_param == 0)
            cdyn__params_leave_mode(sys);
    }
    cdyn__param_free(sys, p);
}
