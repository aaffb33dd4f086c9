/* Moving grounds: the motion that carries a ground, the velocity of its
 * surface material, and the ground's velocity at a point
 * (include/cdyn/ground.h). */
#include "ground/ground.h"

#include <math.h>
#include <string.h>

#include "core/finite.h"
#include "core/lookup.h"
#include "core/system.h"

static cdyn_status change(cdyn_system *sys, cdyn_ground h, const char *what, uint32_t *slot)
{
    cdyn_status st = cdyn__check_mutable(sys, what);
    return st ? st : cdyn__ground_slot(sys, h, what, slot);
}

static cdyn_status query(const cdyn_system *sys, cdyn_ground h, const void *out,
                         const char *what, uint32_t *slot)
{
    return cdyn__enter_object(sys, out, what, sys && sys->grounds ? &sys->grounds->slots : NULL,
                              h, CDYN__KIND_GROUND, slot);
}

cdyn_status cdyn_ground_set_motion(cdyn_system *sys, cdyn_ground ground,
                                   const cdyn_motion_desc *motion)
{
    const char *what = "ground_set_motion";
    uint32_t i;
    cdyn_status st = change(sys, ground, what, &i);
    if (st)
        return st;
    const char *why = motion ? cdyn__motion_invalid(motion, sys->dim) : NULL;
    if (why)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: %s", what, why);
    const uint64_t mark = cdyn__failure_mark(sys);
    st = cdyn__carrier_attach(sys, &sys->grounds->g[i].carrier, motion, sys->dim, sys->time);
    return cdyn__blame(sys, st, mark, what, NULL);
}

cdyn_status cdyn_ground_get_motion(const cdyn_system *sys, cdyn_ground ground,
                                   cdyn_motion_desc *out, bool *moving)
{
    uint32_t i;
    cdyn_status st = query(sys, ground, moving, "ground_get_motion", &i);
    if (st)
        return st;
    const cdyn__carrier *c = &sys->grounds->g[i].carrier;
    *moving = c->moving;
    if (c->moving && out)
        *out = c->motion.desc;
    return CDYN_OK;
}

cdyn_status cdyn_ground_set_surface_velocity(cdyn_system *sys, cdyn_ground ground,
                                             const double *velocity)
{
    const char *what = "ground_set_surface_velocity";
    uint32_t i;
    cdyn_status st = change(sys, ground, what, &i);
    if (st)
        return st;
    if (!velocity || !cdyn__all_finite(velocity, (size_t)sys->dim))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: velocity must be %d finite values",
                          what, sys->dim);
    double *s = sys->grounds->g[i].surface_velocity;
    memset(s, 0, 3 * sizeof *s);
    memcpy(s, velocity, (size_t)sys->dim * sizeof *s);
    return CDYN_OK;
}

cdyn_status cdyn_ground_get_surface_velocity(const cdyn_system *sys, cdyn_ground ground,
                                             double *out)
{
    uint32_t i;
    cdyn_status st = query(sys, ground, out, "ground_get_surface_velocity", &i);
    if (!st)
        memcpy(out, sys->grounds->g[i].surface_velocity, (size_t)sys->dim * sizeof *out);
    return st;
}

cdyn_status cdyn_ground_get_velocity(const cdyn_system *sys, cdyn_ground ground,
                                     const double *x, double *out)
{
    const char *what = "ground_get_velocity";
    uint32_t i;
    cdyn_status st = query(sys, ground, out, what, &i);
    if (st)
        return st;
    if (!x || !cdyn__all_finite(x, (size_t)sys->dim))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: x must be %d finite values", what,
                          sys->dim);
    const cdyn__ground *g = &sys->grounds->g[i];
    cdyn__ground_at at;
    double h, grad[3], w[3];
    const uint64_t mark = cdyn__failure_mark(sys);
    if ((st = cdyn__ground_at_time(sys, g, sys->time, &at)) ||
        (st = cdyn__ground_eval(sys, g, &at, x, false, &h, grad, NULL, w)))
        return cdyn__blame(sys, st, mark, what, NULL);
    memcpy(out, w, (size_t)sys->dim * sizeof *out);
    return CDYN_OK;
}
