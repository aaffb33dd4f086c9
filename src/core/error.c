/* The per-system error message and the entry checks. */
#include "core/error.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/system.h"

cdyn_status cdyn__fail(const cdyn_system *sys, cdyn_status status, const char *fmt, ...)
{
    if (sys) {
        /* The error buffer is the one field a const query may write. */
        char *buf = ((cdyn_system *)(uintptr_t)sys)->error;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, CDYN__ERROR_LEN, fmt, ap);
        va_end(ap);
        ((cdyn_system *)(uintptr_t)sys)->n_failures++;
    }
    return status;
}

uint64_t cdyn__failure_mark(const cdyn_system *sys)
{
    return sys ? sys->n_failures : 0;
}

cdyn_status cdyn__blame(const cdyn_system *sys, cdyn_status st, uint64_t mark, const char *what,
                        const char *why)
{
    if (st == CDYN_OK || !sys)
        return st;
    if (sys->n_failures == mark)
        return cdyn__fail(sys, st, "%s: %s", what, why ? why : cdyn_status_string(st));
    size_t n = strlen(what);
    if (strncmp(sys->error, what, n) == 0 && (sys->error[n] == ':' || sys->error[n] == ' '))
        return st; /* "step: ...", "step (RATTLE): ..." */
    char old[CDYN__ERROR_LEN];
    memcpy(old, sys->error, sizeof old);
    return cdyn__fail(sys, st, "%s: %s", what, old);
}

cdyn_status cdyn__check_not_busy(cdyn_system *sys, const char *what)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (sys->in_step || sys->in_callback)
        return cdyn__fail(sys, CDYN_ERR_BUSY,
                          "%s: the system is inside a step or a callback (called from a callback)",
                          what);
    return CDYN_OK;
}

cdyn_status cdyn__check_mutable(cdyn_system *sys, const char *what)
{
    cdyn_status st = cdyn__check_not_busy(sys, what);
    if (!st)
        sys->revision++; /* even a call that then fails validation: a safe overcount */
    return st;
}

cdyn_status cdyn__enter_query(const cdyn_system *sys, const void *out, const char *what)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    return CDYN_OK;
}

cdyn_status cdyn__enter_change(cdyn_system *sys, const void *arg, const char *what)
{
    cdyn_status st = cdyn__check_mutable(sys, what);
    if (st)
        return st;
    if (!arg)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    return CDYN_OK;
}
