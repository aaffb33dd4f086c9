/* The map between generalized and Cartesian coordinates in an evaluation:
 * positions and velocities r(q), r' q'; accelerations from forces through
 * the mass blocks; q'' and the normal force back. */
#include <string.h>

#include "core/alloc.h"
#include "core/finite.h"
#include "core/system.h"
#include "generalized/generalized.h"

cdyn_status cdyn__params_to_cartesian(cdyn_system *sys, double t, const double *u,
                                      const double *ud, double *x, double *v)
{
    size_t d = (size_t)sys->dim, n = (size_t)sys->particles.count;
    memcpy(x, u, n * d * sizeof *x);
    memcpy(v, ud, n * d * sizeof *v);
    for (uint32_t s = 0; s < sys->particles.count; s++) {
        cdyn__param *p = sys->param_of[s];
        if (!p)
            continue;
        cdyn_status st = cdyn__param_eval(sys, p, t, u + s * d, ud + s * d, x + s * d, v + s * d);
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
