/* A pin: x = p, dim rows with G = I and G'v = 0. A motion may carry p:
 * then dg/dt = -p' and the velocity terms of g'' are -p''. */
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/drive.h"
#include "constraint/kind.h"
#include "core/finite.h"
#include "core/system.h"

static cdyn_status eval(cdyn_system *sys, const cdyn__constraint *c, double t, const double *x,
                        const double *v, double *g, double *jac, double *bias, double *gt)
{
    (void)v;
    double b[3], bd[3], bdd[3];
    cdyn_status st = cdyn__drive_point(sys, c, t, b, bd, bdd);
    if (st)
        return st;
    size_t d = (size_t)sys->dim;
    const double *xp = x + c->u.particle[0] * d;
    for (size_t r = 0; r < d; r++) {
        g[r] = xp[r] - b[r];
        /* 0 - y rather than -y: a pin that does not move gives +0, the
         * bits it always gave. */
        bias[r] = 0.0 - bdd[r];
        gt[r] = 0.0 - bd[r];
        for (size_t k = 0; k < d; k++)
            jac[r * d + k] = r == k ? 1.0 : 0.0;
    }
    return CDYN_OK;
}

static cdyn_status geometry_at(const cdyn_system *sys, const cdyn__constraint *c, double t,
                               double out[4])
{
    double b[3];
    cdyn_status st = cdyn__drive_point(sys, c, t, b, NULL, NULL);
    if (!st) {
        out[0] = b[0];
        out[1] = b[1];
        out[2] = b[2];
        out[3] = 0.0;
    }
    return st;
}

static const double *fixed_point(const cdyn__constraint *c)
{
    return c->d.p;
}

const cdyn__constraint_kind cdyn__kind_pin = {.kind = CDYN_CONSTRAINT_PIN,
                                              .name = "pin",
                                              .pure = true,
                                              .eval = eval,
                                              .hessian = cdyn__hessian_none,
                                              .attach_motion = cdyn__drive_attach_motion,
                                              .motion_of = cdyn__drive_motion_of,
                                              .geometry_at = geometry_at,
                                              .length_scale = cdyn__length_unit,
                                              .fixed_point = fixed_point};

cdyn_status cdyn_constraint_add_pin(cdyn_system *sys, cdyn_particle p, const double *point,
                                    cdyn_constraint *out)
{
    const char *what = "constraint_add_pin";
    cdyn_status st = cdyn__constraint_add_prologue(sys, out, what);
    uint32_t s[1];
    if (st || (st = cdyn__constraint_resolve_particles(sys, &p, 1, s, what)))
        return st;
    if (!point || !cdyn__all_finite(point, (size_t)sys->dim))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: point must be %d finite values",
                          what, sys->dim);
    cdyn__constraint c = {.kind = CDYN_CONSTRAINT_PIN, .n_particles = 1,
                          .n_rows = (uint16_t)sys->dim};
    memcpy(c.d.p, point, (size_t)sys->dim * sizeof(double));
    return cdyn__constraint_insert(sys, &c, s, out, what, NULL);
}
