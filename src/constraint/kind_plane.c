/* A plane (3-D) or line (2-D): g = n.x - c with n a unit normal, G = n,
 * G'v = 0. */
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
    (void)v;
    size_t d = (size_t)sys->dim;
    const double *xp = x + c->u.particle[0] * d;
    memcpy(jac, c->d.p, d * sizeof *jac);
    g[0] = cdyn__vec_dot(c->d.p, xp, sys->dim) - c->d.p[3];
    bias[0] = 0;
    return CDYN_OK;
}

const cdyn__constraint_kind cdyn__kind_plane = {.kind = CDYN_CONSTRAINT_PLANE,
                                                .name = "plane",
                                                .pure = true,
                                                .eval = eval,
                                                .hessian = cdyn__hessian_none,
                                                .length_scale = cdyn__length_unit};

cdyn_status cdyn_constraint_add_plane(cdyn_system *sys, cdyn_particle p, const double *normal,
                                      double offset, cdyn_constraint *out)
{
    const char *what = "constraint_add_plane";
    cdyn_status st = cdyn__constraint_add_prologue(sys, out, what);
    uint32_t s[1];
    if (st || (st = cdyn__constraint_resolve_particles(sys, &p, 1, s, what)))
        return st;
    double len = 0;
    if (normal && cdyn__all_finite(normal, (size_t)sys->dim))
        for (int k = 0; k < sys->dim; k++)
            len += normal[k] * normal[k];
    len = sqrt(len);
    if (!(len > 0) || !isfinite(len) || !isfinite(offset))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: normal must be %d finite values, not all zero, and the offset "
                          "finite", what, sys->dim);
    cdyn__constraint c = {.kind = CDYN_CONSTRAINT_PLANE, .n_particles = 1, .n_rows = 1};
    for (int k = 0; k < sys->dim; k++)
        c.d.p[k] = normal[k] / len;
    c.d.p[3] = offset / len;
    return cdyn__constraint_insert(sys, &c, s, out, what, NULL);
}
