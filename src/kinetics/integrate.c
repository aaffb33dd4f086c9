/* cdyn_kinetics_integrate: checks, the method table, outputs at t0, and the
 * rollback of a failed integration. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kinetics/integrator.h"

static const cdyn__kin_method_desc METHODS[] = {
    {CDYN_KINETICS_BDF, "BDF", true, cdyn__kin_bdf},
    {CDYN_KINETICS_BACKWARD_EULER, "backward Euler", true, cdyn__kin_backward_euler},
    {CDYN_KINETICS_DORMAND_PRINCE, "Dormand-Prince", false, cdyn__kin_dormand_prince},
};

const cdyn__kin_method_desc *cdyn__kin_method_find(cdyn_kinetics_method method)
{
    for (size_t i = 0; i < sizeof METHODS / sizeof METHODS[0]; i++)
        if (METHODS[i].method == method)
            return &METHODS[i];
    return NULL;
}

cdyn_status cdyn_kinetics_integrate(cdyn_kinetics *kin, double t_end, const double *times,
                                    size_t n_times, double *out, size_t capacity)
{
    static const char fn[] = "cdyn_kinetics_integrate";
    cdyn_status st = cdyn__kin_enter(kin, fn);
    if (st)
        return st;
    size_t n = kin->sp.n;
    double t0 = kin->t;
    if (n == 0)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn, "the network has no species");
    if (!isfinite(t_end) || t_end < t0)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "t_end %g must be finite and >= the current time %g", t_end, t0);
    if (n_times && !times)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "%zu output times but times is NULL", n_times);
    if (cdyn__mul_overflows(n_times, n))
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "%zu output times x %zu species overflows", n_times, n);
    size_t need = n_times * n;
    if (capacity < need || (need && !out))
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "out holds %zu values, %zu output times need %zu", capacity,
                              n_times, need);
    /* (times are read only once out is known to hold them all) */
    for (size_t r = 0; r < n_times; r++) {
        if (!(times[r] >= t0 && times[r] <= t_end))
            return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "output time %zu (%g) is outside [%g, %g]", r, times[r], t0,
                                  t_end);
        if (r > 0 && times[r] < times[r - 1])
            return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "output time %zu (%g) is before the one before it (%g)", r,
                                  times[r], times[r - 1]);
    }
    const cdyn__kin_method_desc *m = cdyn__kin_method_find(kin->opt.method);
    if ((st = cdyn__kin_work_prepare(kin, fn, m->implicit)))
        return st;

    cdyn__kin_work *w = kin->work;
    cdyn__kin_run run = {
        .kin = kin, .fn = fn, .w = w, .n = n, .t0 = t0, .t_end = t_end,
        .rtol = kin->opt.rtol, .atol = kin->opt.atol, .atol_sp = kin->atol,
        .atol_n = kin->atol ? kin->atol_n : 0, .max_steps = kin->opt.max_steps,
        .h_init = kin->opt.initial_step, .h_max = kin->opt.max_step,
        .max_order = kin->opt.max_order, .max_newton = kin->opt.max_newton_iterations,
        .fixed_step = kin->opt.fixed_step, .times = times, .n_times = n_times, .out = out,
    };
    memset(&kin->stats, 0, sizeof kin->stats);
    kin->stats.size = sizeof kin->stats;
    /* Outputs at t0 are the state itself. */
    while (run.next < n_times && times[run.next] == t0) {
        memcpy(out + run.next * n, kin->sp.c, n * sizeof(double));
        run.next++;
    }
    if (t_end == t0)
        return CDYN_OK;
    double *saved = w->vec[CDYN__KIN_VEC_ROLLBACK];
    memcpy(saved, kin->sp.c, n * sizeof(double));
    kin->busy = true;
    st = m->run(&run);
    kin->busy = false;
    if (st) {
        memcpy(kin->sp.c, saved, n * sizeof(double));
        kin->t = t0;
        return st;
    }
    kin->t = t_end;
    return CDYN_OK;
}
