/* The table of constraint kinds, indexed by cdyn_constraint_kind value. */
#include "constraint/kind.h"

#include <math.h>

#include "core/system.h"
#include "core/vec.h"

static const cdyn__constraint_kind *const TABLE[] = {
    [CDYN_CONSTRAINT_DISTANCE] = &cdyn__kind_distance,
    [CDYN_CONSTRAINT_ANCHOR] = &cdyn__kind_anchor,
    [CDYN_CONSTRAINT_PIN] = &cdyn__kind_pin,
    [CDYN_CONSTRAINT_PLANE] = &cdyn__kind_plane,
    [CDYN_CONSTRAINT_USER] = &cdyn__kind_user,
    [CDYN_CONSTRAINT_IMPLICIT] = &cdyn__kind_implicit,
    [CDYN_CONSTRAINT_CURVE] = &cdyn__kind_curve,
    [CDYN_CONSTRAINT_SURFACE] = &cdyn__kind_surface,
};

const cdyn__constraint_kind *cdyn__constraint_kind_of(uint8_t kind)
{
    return kind < sizeof TABLE / sizeof TABLE[0] ? TABLE[kind] : NULL;
}

bool cdyn__valid_length(double l)
{
    return isfinite(l) && l > 0;
}

const double *cdyn__identity(int dim)
{
    static const double eye2[4] = {1, 0, 0, 1}, eye3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    return dim == 2 ? eye2 : eye3;
}

cdyn_status cdyn__hessian_none(cdyn_system *sys, const struct cdyn__constraint *c, double t,
                               const double *x, double hn, bool definite,
                               cdyn__hessian_add_fn add, void *ctx)
{
    (void)sys, (void)c, (void)t, (void)x, (void)hn, (void)definite, (void)add, (void)ctx;
    return CDYN_OK;
}

double cdyn__length_unit(const struct cdyn__constraint *c)
{
    (void)c;
    return 1.0;
}
