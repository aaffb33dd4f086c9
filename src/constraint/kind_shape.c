/* Curves and surfaces: the constraint holds its particle in generalized
 * coordinates (generalized/), so it has no rows and none of the row
 * operations. Its add functions are in parametric/. */
#include "constraint/constraint.h"
#include "constraint/kind.h"
#include "core/system.h"
#include "generalized/generalized.h"

/* The particle returns to Cartesian coordinates with the same state. */
static void release(cdyn_system *sys, cdyn__constraint *c)
{
    cdyn__param_release(sys, c->d.param);
    c->d.param = NULL;
}

const cdyn__constraint_kind cdyn__kind_curve = {
    .kind = CDYN_CONSTRAINT_CURVE, .name = "curve", .shape = true, .coordinates = 1,
    .release = release};

const cdyn__constraint_kind cdyn__kind_surface = {
    .kind = CDYN_CONSTRAINT_SURFACE, .name = "surface", .shape = true, .coordinates = 2,
    .release = release};
