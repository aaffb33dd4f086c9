/* The per-system error message and the checks every entry point makes.
 * Internal. */
#ifndef CDYN__CORE_ERROR_H
#define CDYN__CORE_ERROR_H

#include "cdyn/status.h"
#include <stdint.h>

#include "cdyn/types.h"

#define CDYN__ERROR_LEN 256

/* Records a formatted message as the system's last error and returns
 * @p status. Takes a const system: the message is the one mutable part of a
 * query (one thread per system, as documented). NULL @p sys: returns
 * @p status only. */
cdyn_status cdyn__fail(const cdyn_system *sys, cdyn_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A mark of the messages recorded so far, taken by an entry point before it
 * calls into lower layers. */
uint64_t cdyn__failure_mark(const cdyn_system *sys);

/* Names the entry point @p what in the message of a failure @p st passed up
 * from lower layers: one that recorded no message since @p mark (a status
 * passed up as it is) gets "what: <why>" (@p why, or the status's string
 * when NULL); one that did gets "what: " in front unless it names @p what
 * already. Returns @p st; CDYN_OK and a NULL @p sys pass through. */
cdyn_status cdyn__blame(const cdyn_system *sys, cdyn_status st, uint64_t mark, const char *what,
                        const char *why);

/* The first check of a call that changes the system: CDYN_ERR_INVALID_ARGUMENT
 * for a NULL @p sys (no message: there is no system to hold it), and
 * CDYN_ERR_BUSY from inside a step (a callback calling back in). On success
 * it bumps sys->revision: whatever a step keeps for the next one (forces,
 * clusters) is then recomputed. */
cdyn_status cdyn__check_mutable(cdyn_system *sys, const char *what);

/* As cdyn__check_mutable without bumping the revision: for the step itself,
 * whose own changes are the ones its caches describe. */
cdyn_status cdyn__check_not_busy(cdyn_system *sys, const char *what);

/* The first checks of a query named @p what: @p sys present (else
 * CDYN_ERR_INVALID_ARGUMENT, no message: there is no system to hold it),
 * @p out present. */
cdyn_status cdyn__enter_query(const cdyn_system *sys, const void *out, const char *what);

/* The first checks of a call that changes the system: as
 * cdyn__enter_query for @p arg, and the system not inside a step. */
cdyn_status cdyn__enter_change(cdyn_system *sys, const void *arg, const char *what);

#endif /* CDYN__CORE_ERROR_H */
