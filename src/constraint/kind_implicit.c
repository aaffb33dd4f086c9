/* An implicit curve (2-D) or surface (3-D) c(x) = 0 for one particle from
 * a callback giving c, its gradient and its Hessian: G = grad c,
 * G'v = v^T Hess(c) v. */
#include <math.h>

#include "constraint/constraint.h"
#include "constraint/kind.h"
#include "core/finite.h"
#include "core/system.h"

static cdyn_status eval(cdyn_system *sys, const cdyn__constraint *c, const double *x,
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

/* The callback's Hessian, whatever the sign of the multiplier: a curved
 * shape's geometric stiffness has either sign by nature. */
static cdyn_status hessian(cdyn_system *sys, const cdyn__constraint *c, const double *x, double hn,
                           bool definite, cdyn__hessian_add_fn add, void *ctx)
{
    (void)definite;
    uint32_t s = c->u.particle[0];
    double gval, grad[3], hess[9];
    int rc = c->d.cb.fn.implicit(x + (size_t)s * (size_t)sys->dim, sys->dim, &gval, grad, hess,
                                 c->d.cb.user);
    if (rc != 0)
        return cdyn__fail(sys, CDYN_ERR_CALLBACK, "implicit constraint callback returned %d", rc);
    if (!cdyn__all_finite(hess, (size_t)(sys->dim * sys->dim)))
        return cdyn__fail(sys, CDYN_ERR_CALLBACK,
                          "implicit constraint callback returned a non-finite Hessian");
    add(ctx, s, s, hess, hn);
    return CDYN_OK;
}

const cdyn__constraint_kind cdyn__kind_implicit = {.kind = CDYN_CONSTRAINT_IMPLICIT,
                                                   .name = "implicit",
                                                   .eval = eval,
                                                   .hessian = hessian,
                                                   .length_scale = cdyn__length_unit};

cdyn_status cdyn_constraint_add_implicit(cdyn_system *sys, cdyn_particle p, cdyn_implicit_fn fn,
                                         void *user, cdyn_constraint *out)
{
    const char *what = "constraint_add_implicit";
    cdyn_status st = cdyn__constraint_add_prologue(sys, out, what);
    uint32_t s[1];
    if (st || (st = cdyn__constraint_resolve_particles(sys, &p, 1, s, what)))
        return st;
    if (!fn)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL function", what);
    cdyn__constraint c = {.kind = CDYN_CONSTRAINT_IMPLICIT, .n_particles = 1, .n_rows = 1,
                          .d.cb = {.fn.implicit = fn, .user = user}};
    return cdyn__constraint_insert(sys, &c, s, out, what, NULL);
}
