/* A rod to a fixed point b: g = (|x - b|^2 - L^2) / 2, G = x - b,
 * G'v = |v|^2. Fused kernels take it in the multiplier solve and the
 * projections (path CDYN__ROWS_ANCHOR). */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/kind.h"
#include "core/finite.h"
#include "core/system.h"
#include "core/vec.h"

static cdyn_status eval(cdyn_system *sys, const cdyn__constraint *c, const double *x,
                        const double *v, double *g, double *jac, double *bias)
{
    int dim = sys->dim;
    size_t d = (size_t)dim;
    const double *xp = x + c->u.particle[0] * d, *vp = v + c->u.particle[0] * d;
    double dd[3];
    for (int k = 0; k < dim; k++)
        jac[k] = dd[k] = xp[k] - c->d.p[k];
    g[0] = 0.5 * (cdyn__vec_dot(dd, dd, dim) - c->d.p[3] * c->d.p[3]);
    bias[0] = cdyn__vec_dot(vp, vp, dim);
    return CDYN_OK;
}

/* Hess g = I; pushing (nu < 0) is left out of a definite matrix. */
static cdyn_status hessian(cdyn_system *sys, const cdyn__constraint *c, const double *x, double hn,
                           bool definite, cdyn__hessian_add_fn add, void *ctx)
{
    (void)x;
    if (definite && hn < 0)
        hn = 0;
    add(ctx, c->u.particle[0], c->u.particle[0], cdyn__identity(sys->dim), hn);
    return CDYN_OK;
}

static double length_scale(const cdyn__constraint *c)
{
    return c->d.p[3];
}

static const double *fixed_point(const cdyn__constraint *c)
{
    return c->d.p;
}

const cdyn__constraint_kind cdyn__kind_anchor = {.kind = CDYN_CONSTRAINT_ANCHOR,
                                                 .name = "anchor",
                                                 .path = CDYN__ROWS_ANCHOR,
                                                 .pure = true,
                                                 .eval = eval,
                                                 .hessian = hessian,
                                                 .length_scale = length_scale,
                                                 .fixed_point = fixed_point};

cdyn_status cdyn_constraint_add_anchor(cdyn_system *sys, cdyn_particle p, const double *anchor,
                                       double length, cdyn_constraint *out)
{
    const char *what = "constraint_add_anchor";
    cdyn_status st = cdyn__constraint_add_prologue(sys, out, what);
    uint32_t s[1];
    if (st || (st = cdyn__constraint_resolve_particles(sys, &p, 1, s, what)))
        return st;
    if (!anchor || !cdyn__all_finite(anchor, (size_t)sys->dim))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: anchor must be %d finite values",
                          what, sys->dim);
    if (!cdyn__valid_length(length))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: length %g must be finite and > 0",
                          what, length);
    cdyn__constraint c = {.kind = CDYN_CONSTRAINT_ANCHOR, .n_particles = 1, .n_rows = 1};
    memcpy(c.d.p, anchor, (size_t)sys->dim * sizeof(double));
    c.d.p[3] = length;
    return cdyn__constraint_insert(sys, &c, s, out, what, NULL);
}
