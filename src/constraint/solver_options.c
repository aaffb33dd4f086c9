/* The options of the multiplier solve and its report (constraint.h), kept
 * in the constraint store. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "constraint/constraint.h"
#include "core/sized.h"
#include "core/system.h"

void cdyn_solver_options_init(cdyn_solver_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->size = sizeof *options;
    options->solver = CDYN_SOLVER_DIRECT;
    options->ks = 100.0;
    options->kd = 20.0;
    options->cg_tolerance = 1e-10;
    options->cg_max_iterations = 1000;
}

static cdyn_status check(const cdyn_system *sys, const cdyn_solver_options *o)
{
    const char *what = "set_solver_options";
    cdyn_status st = cdyn__sized_check(sys, o, sizeof *o, what, "cdyn_solver_options");
    if (st)
        return st;
    if (o->solver != CDYN_SOLVER_DIRECT && o->solver != CDYN_SOLVER_CG)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: unknown solver %d", what,
                          (int)o->solver);
    if (!isfinite(o->ks) || !isfinite(o->kd) || o->ks < 0 || o->kd < 0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: gains ks %g and kd %g must be finite and >= 0", what, o->ks, o->kd);
    if (!isfinite(o->cg_tolerance) || !(o->cg_tolerance > 0))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: cg_tolerance %g must be finite and > 0", what, o->cg_tolerance);
    if (o->cg_max_iterations < 1 || o->cg_max_iterations > UINT32_MAX)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: cg_max_iterations %zu must be in 1 .. 2^32 - 1", what,
                          o->cg_max_iterations);
    return CDYN_OK;
}

cdyn_status cdyn_system_set_solver_options(cdyn_system *sys, const cdyn_solver_options *options)
{
    cdyn_status st = cdyn__enter_change(sys, options, "set_solver_options");
    if (st || (st = check(sys, options)) || (st = cdyn__constraints_ensure(sys, "set_solver_options")))
        return st;
    cdyn__constraints *k = sys->cons;
    /* Another solver needs its own arrays: the topology pass makes them. */
    if (k->opt.solver != options->solver)
        k->dirty = true;
    k->opt = *options;
    return CDYN_OK;
}

cdyn_status cdyn_system_get_solver_options(const cdyn_system *sys, cdyn_solver_options *out)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn_solver_options o;
    if (sys->cons)
        o = sys->cons->opt;
    else
        cdyn_solver_options_init(&o);
    return cdyn__sized_get(sys, out, &o, sizeof o, "get_solver_options");
}

cdyn_status cdyn_system_get_solver_stats(const cdyn_system *sys, cdyn_solver_stats *out)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn_solver_stats s;
    memset(&s, 0, sizeof s);
    if (sys->cons)
        s = sys->cons->stats;
    return cdyn__sized_get(sys, out, &s, sizeof s, "get_solver_stats");
}
