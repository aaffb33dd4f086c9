/* Backward Euler's Newton options and its report (system.h), kept in the
 * integrator's state (backward_euler.h). */
#include <string.h>

#include "core/sized.h"
#include "core/system.h"
#include "step/backward_euler/backward_euler.h"

void cdyn_newton_options_init(cdyn_newton_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->size = sizeof *options;
    options->tolerance = CDYN__NEWTON_DEFAULT_TOLERANCE;
    options->max_iterations = CDYN__NEWTON_DEFAULT_MAX_ITERATIONS;
}

cdyn_status cdyn_system_set_newton_options(cdyn_system *sys, const cdyn_newton_options *options)
{
    const char *what = "set_newton_options";
    cdyn_status st = cdyn__enter_change(sys, options, what);
    if (st || (st = cdyn__sized_check(sys, options, sizeof *options, what,
                                      "cdyn_newton_options")))
        return st;
    double tol = options->tolerance;
    if (!(tol >= CDYN__NEWTON_MIN_TOLERANCE && tol <= CDYN__NEWTON_MAX_TOLERANCE))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: tolerance %g must be in [%g, %g]", what, tol,
                          CDYN__NEWTON_MIN_TOLERANCE, CDYN__NEWTON_MAX_TOLERANCE);
    if (options->max_iterations < 1 || options->max_iterations > CDYN__NEWTON_MAX_ITERATIONS)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: max_iterations %zu must be in [1, %d]", what,
                          options->max_iterations, CDYN__NEWTON_MAX_ITERATIONS);
    cdyn__be_of(sys)->opt = *options;
    return CDYN_OK;
}

cdyn_status cdyn_system_get_newton_options(const cdyn_system *sys, cdyn_newton_options *out)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    const cdyn__be *be = cdyn__be_of(sys);
    return cdyn__sized_get(sys, out, &be->opt, sizeof be->opt, "get_newton_options");
}

cdyn_status cdyn_system_get_newton_stats(const cdyn_system *sys, cdyn_newton_stats *out)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    const cdyn__be *be = cdyn__be_of(sys);
    return cdyn__sized_get(sys, out, &be->stats, sizeof be->stats, "get_newton_stats");
}

cdyn_status cdyn_system_get_newton_residuals(const cdyn_system *sys, double *out,
                                             size_t capacity, size_t *count)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!count || (!out && capacity))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "get_newton_residuals: NULL argument");
    const cdyn__be *be = cdyn__be_of(sys);
    size_t n = be->hist_len;
    if (n && capacity)
        memcpy(out, be->hist, (n < capacity ? n : capacity) * sizeof *out);
    *count = n;
    return CDYN_OK;
}
