/* g, its Jacobian blocks and G'v for each kind of constraint. The quadratic
 * forms (seeds 003, 004) need no square root: for g = (|d|^2 - L^2) / 2,
 * G = d^T per end and G'v = |d'|^2. */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "core/system.h"
#include "core/finite.h"

static double dot(const double *a, const double *b, int dim)
{
    double s = 0;
    for (int k = 0; k < dim; k++)
        s += a[k] * b[k];
    return s;
}

static cdyn_status eval_user(cdyn_system *sys, cdyn__constraint *c, const double *x,
                             const double *v, double *g, double *jac, double *bias)
{
    cdyn__constraints *k = sys->cons;
    size_t d = (size_t)sys->dim, np = c->n_particles;
    double *gx = k->gather, *gv = k->gather + CDYN__CONSTRAINT_MAX_PARTICLES * 3;
    for (size_t j = 0; j < np; j++) {
        size_t s = cdyn__constraint_particle(c, (uint32_t)j);
        memcpy(gx + j * d, x + s * d, d * sizeof *gx);
        memcpy(gv + j * d, v + s * d, d * sizeof *gv);
    }
    int rc = c->d.cb.fn.user(gx, gv, np, sys->dim, c->n_rows, g, jac, bias, c->d.cb.user);
    if (rc != 0)
        return cdyn__fail(sys, CDYN_ERR_CALLBACK, "constraint callback returned %d", rc);
    if (!cdyn__all_finite(g, c->n_rows) || !cdyn__all_finite(bias, c->n_rows) ||
        !cdyn__all_finite(jac, c->n_rows * np * d))
        return cdyn__fail(sys, CDYN_ERR_CALLBACK, "constraint callback returned a non-finite value");
    return CDYN_OK;
}

static cdyn_status eval_implicit(cdyn_system *sys, cdyn__constraint *c, const double *x,
                                 const double *v, double *g, double *jac, double *bias)
{
    int dim = sys->dim;
    const double *xp = x + (size_t)c->u.particle[0] * (size_t)dim;
    const double *vp = v + (size_t)c->u.particle[0] * (size_t)dim;
    double hess[9];
    int rc = c->d.cb.fn.implicit(xp, dim, g, jac, hess, c->d.cb.user);
    if (rc != 0)
        return cdyn__fail(sys, CDYN_ERR_CALLBACK, "implicit constraint callback returned %d", rc);
    double q = 0;
    for (int a = 0; a < dim; a++)
        for (int b = 0; b < dim; b++)
            q += vp[a] * hess[a * dim + b] * vp[b];
    *bias = q;
    if (!isfinite(*g) || !isfinite(q) || !cdyn__all_finite(jac, (size_t)dim))
        return cdyn__fail(sys, CDYN_ERR_CALLBACK,
                          "implicit constraint callback returned a non-finite value");
    return CDYN_OK;
}

cdyn_status cdyn__constraint_eval(cdyn_system *sys, cdyn__constraint *c, const double *x,
                                  const double *v, double *g, double *jac, double *bias)
{
    int dim = sys->dim;
    size_t d = (size_t)dim;
    switch ((cdyn_constraint_kind)c->kind) {
    case CDYN_CONSTRAINT_DISTANCE: {
        const double *xa = x + c->u.particle[0] * d, *xb = x + c->u.particle[1] * d;
        const double *va = v + c->u.particle[0] * d, *vb = v + c->u.particle[1] * d;
        double dd[3], dv[3];
        for (int k = 0; k < dim; k++) {
            dd[k] = xb[k] - xa[k];
            dv[k] = vb[k] - va[k];
            jac[k] = -dd[k];
            jac[d + (size_t)k] = dd[k];
        }
        g[0] = 0.5 * (dot(dd, dd, dim) - c->d.p[0] * c->d.p[0]);
        bias[0] = dot(dv, dv, dim);
        return CDYN_OK;
    }
    case CDYN_CONSTRAINT_ANCHOR: {
        const double *xp = x + c->u.particle[0] * d, *vp = v + c->u.particle[0] * d;
        double dd[3];
        for (int k = 0; k < dim; k++)
            jac[k] = dd[k] = xp[k] - c->d.p[k];
        g[0] = 0.5 * (dot(dd, dd, dim) - c->d.p[3] * c->d.p[3]);
        bias[0] = dot(vp, vp, dim);
        return CDYN_OK;
    }
    case CDYN_CONSTRAINT_PIN: {
        const double *xp = x + c->u.particle[0] * d;
        for (size_t r = 0; r < d; r++) {
            g[r] = xp[r] - c->d.p[r];
            bias[r] = 0;
            for (size_t k = 0; k < d; k++)
                jac[r * d + k] = r == k ? 1.0 : 0.0;
        }
        return CDYN_OK;
    }
    case CDYN_CONSTRAINT_PLANE: {
        const double *xp = x + c->u.particle[0] * d;
        memcpy(jac, c->d.p, d * sizeof *jac);
        g[0] = dot(c->d.p, xp, dim) - c->d.p[3];
        bias[0] = 0;
        return CDYN_OK;
    }
    case CDYN_CONSTRAINT_USER:
        return eval_user(sys, c, x, v, g, jac, bias);
    case CDYN_CONSTRAINT_IMPLICIT:
        return eval_implicit(sys, c, x, v, g, jac, bias);
    case CDYN_CONSTRAINT_CURVE:
    case CDYN_CONSTRAINT_SURFACE:
        break; /* held in generalized coordinates: no rows */
    }
    return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "constraint of unknown kind %d", c->kind);
}
