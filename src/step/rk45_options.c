/* The options and the report of CDYN_INTEGRATOR_RK45 (system.h), kept in
 * its state (step/runge_kutta.h). */
#include <math.h>
#include <string.h>

#include "core/sized.h"
#include "core/system.h"
#include "step/integrator.h"
#include "step/runge_kutta.h"

void cdyn_rk45_options_init(cdyn_rk45_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->size = sizeof *options;
    options->abs_tol = 1e-9;
    options->rel_tol = 1e-9;
    options->initial_step = 0;
    options->max_step = 0;
}

static bool finite_nonnegative(double x)
{
    return isfinite(x) && x >= 0;
}

static cdyn_status check(const cdyn_system *sys, const cdyn_rk45_options *o)
{
    const char *what = "set_rk45_options";
    cdyn_status st = cdyn__sized_check(sys, o, sizeof *o, what, "cdyn_rk45_options");
    if (st)
        return st;
    if (!finite_nonnegative(o->abs_tol) || !finite_nonnegative(o->rel_tol) ||
        (o->abs_tol == 0 && o->rel_tol == 0))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: abs_tol %g and rel_tol %g must be finite and >= 0, not both zero",
                          what, o->abs_tol, o->rel_tol);
    if (!finite_nonnegative(o->initial_step))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: initial_step %g must be finite and >= 0", what, o->initial_step);
    if (!finite_nonnegative(o->max_step))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: max_step %g must be finite and >= 0", what, o->max_step);
    return CDYN_OK;
}

cdyn_status cdyn_system_set_rk45_options(cdyn_system *sys, const cdyn_rk45_options *options)
{
    cdyn_status st = cdyn__enter_change(sys, options, "set_rk45_options");
    if (st || (st = check(sys, options)))
        return st;
    cdyn__rk45 *rk = cdyn__integrator_state(sys, CDYN_INTEGRATOR_RK45);
    rk->opt = *options;
    rk->h = 0; /* the controller starts afresh, from initial_step */
    return CDYN_OK;
}

cdyn_status cdyn_system_get_rk45_options(const cdyn_system *sys, cdyn_rk45_options *out)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    const cdyn__rk45 *rk = cdyn__integrator_state(sys, CDYN_INTEGRATOR_RK45);
    return cdyn__sized_get(sys, out, &rk->opt, sizeof rk->opt, "get_rk45_options");
}

cdyn_status cdyn_system_get_rk45_stats(const cdyn_system *sys, cdyn_rk45_stats *out)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    const cdyn__rk45 *rk = cdyn__integrator_state(sys, CDYN_INTEGRATOR_RK45);
    cdyn_rk45_stats s = rk->stats;
    s.next_step = rk->h;
    return cdyn__sized_get(sys, out, &s, sizeof s, "get_rk45_stats");
}
