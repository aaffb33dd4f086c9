/* User force callbacks, with or without a Jacobian of their own. */
#include "core/callback.h"
#include "core/lookup.h"
#include "core/system.h"
#include "force/force.h"

static cdyn_status apply(const cdyn_system *sys, const cdyn__force *g, uint32_t slot, double t,
                         const double *x, const double *v, double *f)
{
    cdyn__callback_enter(sys);
    int rc = g->fn(sys, t, sys->particles.count, sys->dim, x, v, f, g->user);
    cdyn__callback_leave(sys);
    if (rc != 0)
        return cdyn__fail(sys, CDYN_ERR_CALLBACK, "force callback (slot %u) returned %d at t = %g",
                          slot, rc, t);
    return CDYN_OK;
}

/* A user force has no potential the library knows. */
static cdyn_status energy(const cdyn_system *sys, const cdyn__force *g, const double *x,
                          double *out)
{
    (void)sys, (void)g, (void)x;
    *out = 0.0;
    return CDYN_OK;
}

/* No jacobian op: implicit integrators call the user's Jacobian (g->jac)
 * or differentiate apply themselves. */
const cdyn__force_ops cdyn__callback_ops = {
    .kind = CDYN_FORCE_CALLBACK, .apply = apply, .energy = energy, .dynamic_pattern = true};

cdyn_status cdyn_force_add_callback(cdyn_system *sys, cdyn_force_fn fn, void *user,
                                    bool velocity_dependent, cdyn_force *out)
{
    cdyn_status st = cdyn__force_add_prologue(sys, out, "force_add_callback");
    if (st)
        return st;
    if (!fn)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "force_add_callback: NULL function");
    cdyn__force f = {.ops = &cdyn__callback_ops, .velocity_dependent = velocity_dependent,
                     .user_fn = 1, .fn = fn, .user = user};
    return cdyn__force_insert(sys, &f, out, "force_add_callback");
}

cdyn_status cdyn_force_add_callback_with_jacobian(cdyn_system *sys, cdyn_force_fn fn,
                                                  cdyn_force_jacobian_fn jacobian, void *user,
                                                  bool velocity_dependent, cdyn_force *out)
{
    const char *what = "force_add_callback_with_jacobian";
    cdyn_status st = cdyn__force_add_prologue(sys, out, what);
    if (st)
        return st;
    if (!fn || !jacobian)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    cdyn__force f = {.ops = &cdyn__callback_ops, .velocity_dependent = velocity_dependent,
                     .user_fn = 1, .fn = fn, .jac = jacobian, .user = user};
    return cdyn__force_insert(sys, &f, out, what);
}

/* The tag calls' check that slot @p i holds a generator made with a user
 * function. */
static cdyn_status require_callback(const cdyn_system *sys, uint32_t i, const char *what)
{
    if (sys->force[i].user_fn)
        return CDYN_OK;
    return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                      "%s: the force is neither a callback force nor a callback pair potential",
                      what);
}

cdyn_status cdyn_force_set_tag(cdyn_system *sys, cdyn_force f, uint64_t tag)
{
    const char *what = "force_set_tag";
    uint32_t i;
    cdyn_status st = cdyn__enter_object_change(sys, sys, what, sys ? &sys->forces : NULL, f,
                                               CDYN__KIND_FORCE, &i);
    if (!st && !(st = require_callback(sys, i, what)))
        sys->force[i].tag = tag;
    return st;
}

cdyn_status cdyn_force_get_tag(const cdyn_system *sys, cdyn_force f, uint64_t *out)
{
    const char *what = "force_get_tag";
    uint32_t i;
    cdyn_status st = cdyn__enter_object(sys, out, what, sys ? &sys->forces : NULL, f,
                                        CDYN__KIND_FORCE, &i);
    if (!st && !(st = require_callback(sys, i, what)))
        *out = sys->force[i].tag;
    return st;
}
