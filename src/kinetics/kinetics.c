/* What every kinetics file shares: errors, checks, growing arrays; and the
 * state (time and concentrations). Creation and destruction, which reach
 * every store, are in object.c above the others. */
#include "kinetics/kinetics.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

cdyn_status cdyn__kin_fail(const cdyn_kinetics *kin, cdyn_status st, const char *fn,
                           const char *fmt, ...)
{
    if (kin) {
        char *err = ((cdyn_kinetics *)(uintptr_t)kin)->err;
        size_t cap = sizeof kin->err;
        int k = snprintf(err, cap, "%s: ", fn);
        if (k < 0 || (size_t)k >= cap)
            k = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + k, cap - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return st;
}

cdyn_status cdyn__kin_check_out(const cdyn_kinetics *kin, const char *fn, const void *out,
                                size_t capacity, size_t need)
{
    if (!kin)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (capacity < need)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "capacity %zu is below the %zu values", capacity, need);
    if (need && !out)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn, "out is NULL");
    return CDYN_OK;
}

cdyn_status cdyn__kin_check_ptr(const cdyn_kinetics *kin, const char *fn, const void *p,
                                const char *name)
{
    if (!kin)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!p)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn, "%s is NULL", name);
    return CDYN_OK;
}

cdyn_status cdyn__kin_enter(cdyn_kinetics *kin, const char *fn)
{
    if (!kin)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (kin->busy)
        return cdyn__kin_fail(kin, CDYN_ERR_BUSY, fn,
                              "called from a rate law while the object is in use");
    return CDYN_OK;
}

bool cdyn__kin_reserve(const cdyn_allocator *a, void **ptr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap && *ptr) /* never NULL after: no NULL + 0 in callers */
        return true;
    size_t c = *cap < 8 ? 8 : *cap;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            return false;
        c *= 2;
    }
    void *p = cdyn__alloc_array(a, c, size);
    if (!p)
        return false;
    if (*ptr) {
        memcpy(p, *ptr, *cap * size);
        cdyn__free_array(a, *ptr, *cap, size);
    }
    *ptr = p;
    *cap = c;
    return true;
}

cdyn_status cdyn_kinetics_get_concentrations(const cdyn_kinetics *kin, double *out,
                                             size_t capacity)
{
    cdyn_status st = cdyn__kin_check_out(kin, "cdyn_kinetics_get_concentrations", out, capacity,
                                         kin ? kin->sp.n : 0);
    if (st)
        return st;
    if (kin->sp.n)
        memcpy(out, kin->sp.c, kin->sp.n * sizeof(double));
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_set_concentrations(cdyn_kinetics *kin, const double *c, size_t count)
{
    static const char fn[] = "cdyn_kinetics_set_concentrations";
    cdyn_status st = cdyn__kin_enter(kin, fn);
    if (st)
        return st;
    if (!c)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn, "c is NULL");
    if (count != kin->sp.n)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "count %zu is not the species count %zu", count, kin->sp.n);
    for (size_t i = 0; i < count; i++)
        if (!isfinite(c[i]) || c[i] < 0)
            return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "concentration %zu (%s) is %g: must be finite and >= 0", i,
                                  kin->sp.name[i], c[i]);
    if (count)
        memcpy(kin->sp.c, c, count * sizeof(double));
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_get_time(const cdyn_kinetics *kin, double *t)
{
    cdyn_status st = cdyn__kin_check_ptr(kin, "cdyn_kinetics_get_time", t, "t");
    if (st)
        return st;
    *t = kin->t;
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_set_time(cdyn_kinetics *kin, double t)
{
    static const char fn[] = "cdyn_kinetics_set_time";
    cdyn_status st = cdyn__kin_enter(kin, fn);
    if (st)
        return st;
    if (!isfinite(t))
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn, "time %g is not finite", t);
    kin->t = t;
    return CDYN_OK;
}
