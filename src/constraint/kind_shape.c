/* Curves and surfaces: the constraint holds its particle in generalized
 * coordinates (generalized/), so it has no rows and none of the row
 * operations. Its add functions are in parametric/. */
#include "constraint/constraint.h"
#include "constraint/kind.h"
#include "core/system.h"
#include "generalized/generalized.h"

/* A motion carries the shape (generalized/: x = r(q, t)). */
static cdyn_status attach_motion(cdyn_system *sys, cdyn__constraint *c,
                                 const cdyn_motion_desc *motion)
{
    return cdyn__param_set_motion(sys, c->d.param, motion);
}

static const cdyn__motion *motion_of(const cdyn__constraint *c)
{
    return c->d.param->carrier.moving ? &c->d.param->carrier.motion : NULL;
}

/* The particle returns to Cartesian coordinates with the same state. */
static void release(cdyn_system *sys, cdyn__constraint *c)
{
    cdyn__param_release(sys, c->d.param);
    c->d.param = NULL;
}

const cdyn__constraint_kind cdyn__kind_curve = {
    .kind = CDYN_CONSTRAINT_CURVE, .name = "curve", .shape = true, .coordinates = 1,
    .attach_motion = attach_motion, .motion_of = motion_of, .release = release};

const cdyn__constraint_kind cdyn__kind_surface = {
    .kind = CDYN_CONSTRAINT_SURFACE, .name = "surface", .shape = true, .coordinates = 2,
    .attach_motion = attach_motion, .motion_of = motion_of, .release = release};
