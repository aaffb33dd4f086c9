/* A pin: x = p, dim rows with G = I and G'v = 0. */
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/kind.h"
#include "core/finite.h"
#include "core/system.h"

static cdyn_status eval(cdyn_system *sys, const cdyn__constraint *c, const double *x,
                        const double *v, double *g, double *jac, double *bias)
{
    (void)v;
    size_t d = (size_t)sys->dim;
    const double *xp = x + c->u.particle[0] * d;
    for (size_t r = 0; r < d; r++) {
        g[r] = xp[r] - c->d.p[r];
        bias[r] = 0;
        for (size_t k = 0; k < d; k++)
            jac[r * d + k] = r == k ? 1.0 : 0.0;
    }
    return CDYN_OK;
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
