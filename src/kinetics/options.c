/* Integration options, per-species tolerances and the counters. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kinetics/integrator.h"

void cdyn_kinetics_options_init(cdyn_kinetics_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->size = sizeof *options;
    options->method = CDYN_KINETICS_BDF;
    options->rtol = 1e-6;
    options->atol = 1e-12;
    options->max_steps = 100000;
    options->initial_step = 0.0;
    options->max_step = 0.0;
    options->fixed_step = 0.0;
    options->max_order = 5;
    options->max_newton_iterations = 0;
}

/* 0 or finite and > 0. */
static bool zero_or_positive(double x)
{
    return x == 0.0 || (isfinite(x) && x > 0);
}

cdyn_status cdyn_kinetics_set_options(cdyn_kinetics *kin, const cdyn_kinetics_options *options)
{
    static const char fn[] = "cdyn_kinetics_set_options";
    cdyn_status st = cdyn__kin_enter(kin, fn);
    if (st)
        return st;
    const cdyn_kinetics_options *o = options;
    const cdyn_status bad = CDYN_ERR_INVALID_ARGUMENT;
    if (!o)
        return cdyn__kin_fail(kin, bad, fn, "options is NULL");
    if (o->size != sizeof *o)
        return cdyn__kin_fail(kin, bad, fn,
                              "options.size is %zu, not %zu: fill it with "
                              "cdyn_kinetics_options_init",
                              o->size, sizeof *o);
    if (!cdyn__kin_method_find(o->method))
        return cdyn__kin_fail(kin, bad, fn, "unknown method %d", (int)o->method);
    if (!isfinite(o->rtol) || !(o->rtol >= 1e-14) || !(o->rtol < 1))
        return cdyn__kin_fail(kin, bad, fn, "rtol %g is not in [1e-14, 1)", o->rtol);
    if (!isfinite(o->atol) || !(o->atol > 0))
        return cdyn__kin_fail(kin, bad, fn, "atol %g must be finite and > 0", o->atol);
    if (o->max_steps < 1)
        return cdyn__kin_fail(kin, bad, fn, "max_steps must be >= 1");
    if (!zero_or_positive(o->initial_step))
        return cdyn__kin_fail(kin, bad, fn, "initial_step %g must be 0 or finite and > 0",
                              o->initial_step);
    if (!zero_or_positive(o->max_step))
        return cdyn__kin_fail(kin, bad, fn, "max_step %g must be 0 or finite and > 0",
                              o->max_step);
    if (!zero_or_positive(o->fixed_step))
        return cdyn__kin_fail(kin, bad, fn, "fixed_step %g must be 0 or finite and > 0",
                              o->fixed_step);
    if (o->method == CDYN_KINETICS_BACKWARD_EULER && o->fixed_step == 0.0)
        return cdyn__kin_fail(kin, bad, fn, "backward Euler needs fixed_step > 0");
    if (o->max_order < 1 || o->max_order > 5)
        return cdyn__kin_fail(kin, bad, fn, "max_order %d is not in 1..5", o->max_order);
    if (o->max_newton_iterations < 0 || o->max_newton_iterations > 100)
        return cdyn__kin_fail(kin, bad, fn, "max_newton_iterations %d is not in 0..100",
                              o->max_newton_iterations);
    kin->opt = *o;
    return CDYN_OK;
}

/* The size-first output struct @p out: NULL or a size below its first
 * field refused. */
static cdyn_status check_sized(const cdyn_kinetics *kin, const char *fn, const void *out)
{
    cdyn_status st = cdyn__kin_check_ptr(kin, fn, out, "out");
    if (st)
        return st;
    size_t size;
    memcpy(&size, out, sizeof size);
    if (size < sizeof(size_t))
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "out->size is %zu: set it to the struct's size", size);
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_get_options(const cdyn_kinetics *kin, cdyn_kinetics_options *out)
{
    cdyn_status st = check_sized(kin, "cdyn_kinetics_get_options", out);
    if (st)
        return st;
    size_t size = out->size < sizeof *out ? out->size : sizeof *out;
    memcpy((char *)out + sizeof(size_t), (const char *)&kin->opt + sizeof(size_t),
           size - sizeof(size_t));
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_set_absolute_tolerances(cdyn_kinetics *kin, const double *atol,
                                                  size_t count)
{
    static const char fn[] = "cdyn_kinetics_set_absolute_tolerances";
    cdyn_status st = cdyn__kin_enter(kin, fn);
    if (st)
        return st;
    const cdyn_allocator *a = &kin->alloc;
    if (count == 0 && (!atol || kin->sp.n == 0)) {
        cdyn__free_array(a, kin->atol, kin->atol_n, sizeof(double));
        kin->atol = NULL;
        kin->atol_n = 0;
        return CDYN_OK;
    }
    if (!atol)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "atol is NULL with count %zu", count);
    if (count != kin->sp.n)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "count %zu is not the species count %zu", count, kin->sp.n);
    for (size_t i = 0; i < count; i++)
        if (!isfinite(atol[i]) || !(atol[i] > 0))
            return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "atol[%zu] (%s) is %g: must be finite and > 0", i,
                                  kin->sp.name[i], atol[i]);
    double *copy = kin->atol;
    if (count != kin->atol_n) {
        copy = cdyn__alloc_array(a, count, sizeof(double));
        if (!copy)
            return cdyn__kin_fail(kin, CDYN_ERR_NO_MEMORY, fn,
                                  "out of memory for %zu tolerances", count);
        cdyn__free_array(a, kin->atol, kin->atol_n, sizeof(double));
    }
    memcpy(copy, atol, count * sizeof(double));
    kin->atol = copy;
    kin->atol_n = count;
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_get_stats(const cdyn_kinetics *kin, cdyn_kinetics_stats *out)
{
    cdyn_status st = check_sized(kin, "cdyn_kinetics_get_stats", out);
    if (st)
        return st;
    size_t size = out->size < sizeof *out ? out->size : sizeof *out;
    memcpy((char *)out + sizeof(size_t), (const char *)&kin->stats + sizeof(size_t),
           size - sizeof(size_t));
    return CDYN_OK;
}
