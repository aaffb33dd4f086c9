/* Reading and changing the parameters of the built-in generators after
 * they were added: gravity's field, drag's coefficient, a spring's
 * stiffness, damping and rest length (include/cdyn/force.h). */
#include <math.h>
#include <string.h>

#include "core/finite.h"
#include "core/lookup.h"
#include "core/system.h"
#include "force/force.h"

/* The slot of @p f, which must be of kind @p ops (named @p kind_name). */
static cdyn_status of_kind(const cdyn_system *sys, cdyn_force f, const cdyn__force_ops *ops,
                           const char *kind_name, const char *what, uint32_t *slot)
{
    cdyn_status st = cdyn__enter_object(sys, sys, what, sys ? &sys->forces : NULL, f,
                                        CDYN__KIND_FORCE, slot);
    if (!st && sys->force[*slot].ops != ops)
        st = cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: the force is not %s", what,
                        kind_name);
    return st;
}

static cdyn_status changing(cdyn_system *sys, cdyn_force f, const cdyn__force_ops *ops,
                            const char *kind_name, const char *what, uint32_t *slot)
{
    cdyn_status st = cdyn__check_mutable(sys, what);
    return st ? st : of_kind(sys, f, ops, kind_name, what, slot);
}

cdyn_status cdyn_force_set_gravity(cdyn_system *sys, cdyn_force f, const double *g)
{
    const char *what = "force_set_gravity";
    uint32_t i;
    cdyn_status st = changing(sys, f, &cdyn__gravity_ops, "gravity", what, &i);
    if (st)
        return st;
    if (!g || !cdyn__all_finite(g, (size_t)sys->dim))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: g must be %d finite values",
                          what, sys->dim);
    memcpy(sys->force[i].p, g, (size_t)sys->dim * sizeof *g);
    return CDYN_OK;
}

cdyn_status cdyn_force_get_gravity(const cdyn_system *sys, cdyn_force f, double *out)
{
    const char *what = "force_get_gravity";
    uint32_t i;
    cdyn_status st = of_kind(sys, f, &cdyn__gravity_ops, "gravity", what, &i);
    if (!st && !out)
        st = cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: out is NULL", what);
    if (!st)
        memcpy(out, sys->force[i].p, (size_t)sys->dim * sizeof *out);
    return st;
}

cdyn_status cdyn_force_set_drag(cdyn_system *sys, cdyn_force f, double coefficient)
{
    const char *what = "force_set_drag";
    uint32_t i;
    cdyn_status st = changing(sys, f, &cdyn__drag_ops, "drag", what, &i);
    if (st)
        return st;
    if (!isfinite(coefficient) || coefficient < 0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: coefficient %g must be finite and >= 0", what, coefficient);
    sys->force[i].p[0] = coefficient;
    return CDYN_OK;
}

cdyn_status cdyn_force_get_drag(const cdyn_system *sys, cdyn_force f, double *out)
{
    const char *what = "force_get_drag";
    uint32_t i;
    cdyn_status st = of_kind(sys, f, &cdyn__drag_ops, "drag", what, &i);
    if (!st && !out)
        st = cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: out is NULL", what);
    if (!st)
        *out = sys->force[i].p[0];
    return st;
}

cdyn_status cdyn_force_set_spring(cdyn_system *sys, cdyn_force f, double stiffness,
                                  double damping, double rest_length)
{
    const char *what = "force_set_spring";
    uint32_t i;
    cdyn_status st = changing(sys, f, &cdyn__spring_ops, "a spring", what, &i);
    if (st)
        return st;
    if (!isfinite(stiffness) || stiffness < 0 || !isfinite(damping) || damping < 0 ||
        !isfinite(rest_length) || rest_length < 0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: stiffness %g, damping %g and rest length %g must be finite and "
                          ">= 0", what, stiffness, damping, rest_length);
    cdyn__force *g = &sys->force[i];
    /* A dashpot makes the force depend on velocity (velocity Verlet's
     * corrector, the reuse of end-of-step forces). */
    uint8_t vd = damping > 0;
    sys->n_velocity_dependent = sys->n_velocity_dependent - g->velocity_dependent + vd;
    g->velocity_dependent = vd;
    g->p[0] = stiffness;
    g->p[1] = damping;
    g->p[2] = rest_length;
    return CDYN_OK;
}

cdyn_status cdyn_force_get_spring(const cdyn_system *sys, cdyn_force f, double *stiffness,
                                  double *damping, double *rest_length)
{
    const char *what = "force_get_spring";
    uint32_t i;
    cdyn_status st = of_kind(sys, f, &cdyn__spring_ops, "a spring", what, &i);
    if (st)
        return st;
    if (!stiffness && !damping && !rest_length)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: every output is NULL", what);
    const double *p = sys->force[i].p;
    if (stiffness)
        *stiffness = p[0];
    if (damping)
        *damping = p[1];
    if (rest_length)
        *rest_length = p[2];
    return CDYN_OK;
}
