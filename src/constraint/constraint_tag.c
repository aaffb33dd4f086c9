/* The tags of the constraints made with a callback (a user or implicit
 * constraint's, a callback curve's or surface's): what a snapshot holds in
 * place of the function (include/cdyn/snapshot.h). */
#include "constraint/constraint.h"
#include "constraint/kind.h"
#include "core/lookup.h"
#include "core/system.h"
#include "generalized/generalized.h"

/* Where the tag of @p c's callback is kept, or NULL when it has none. */
static uint64_t *tag_of(cdyn__constraint *c)
{
    const cdyn__constraint_kind *kind = cdyn__kind_of(c);
    if (kind->time_callback)
        return &c->d.cb.tag;
    if (!kind->shape)
        return NULL;
    cdyn__param *p = c->d.param;
    if (p->k == 1)
        return p->curve.kind == CDYN_CURVE_CALLBACK ? &p->curve.tag : NULL;
    return p->surface.kind == CDYN_SURFACE_CALLBACK ? &p->surface.tag : NULL;
}

static cdyn_status no_callback(const cdyn_system *sys, const char *what)
{
    return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                      "%s: the constraint has no callback (user and implicit constraints and "
                      "callback curves and surfaces have)", what);
}

cdyn_status cdyn_constraint_set_tag(cdyn_system *sys, cdyn_constraint h, uint64_t tag)
{
    const char *what = "constraint_set_tag";
    uint32_t i;
    cdyn_status st = cdyn__enter_object_change(sys, sys, what,
                                               sys && sys->cons ? &sys->cons->slots : NULL, h,
                                               CDYN__KIND_CONSTRAINT, &i);
    if (st)
        return st;
    uint64_t *at = tag_of(&sys->cons->c[i]);
    if (!at)
        return no_callback(sys, what);
    *at = tag;
    return CDYN_OK;
}

cdyn_status cdyn_constraint_get_tag(const cdyn_system *sys, cdyn_constraint h, uint64_t *out)
{
    const char *what = "constraint_get_tag";
    uint32_t i;
    cdyn_status st = cdyn__enter_object(sys, out, what, sys && sys->cons ? &sys->cons->slots : NULL,
                                        h, CDYN__KIND_CONSTRAINT, &i);
    if (st)
        return st;
    const uint64_t *at = tag_of(&sys->cons->c[i]);
    if (!at)
        return no_callback(sys, what);
    *out = *at;
    return CDYN_OK;
}
