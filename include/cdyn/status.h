/** @file
 *  @brief Status codes returned by every fallible call, and their names.
 *
 *  Every call that can fail returns a cdyn_status: CDYN_OK (0) on
 *  success, a positive code otherwise. The values are pinned: new codes are
 *  appended, none is ever renumbered, so a binding may hard-code them. The
 *  detail of a failure is in the message of the object that was called
 *  (cdyn_system_last_error(), cdyn_lattice_last_error(),
 *  cdyn_kinetics_last_error()).
 */
#ifndef CDYN_STATUS_H
#define CDYN_STATUS_H

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a call did: success, or why it failed.
 *
 *  The values are part of the ABI and never change. cdyn_status_name() and
 *  cdyn_status_string() give each one's name and description.
 */
typedef enum cdyn_status {
    /** Success. */
    CDYN_OK = 0,
    /** An argument is wrong: NULL, NaN or infinite, out of its documented
     *  range, a size that does not match, a size computation that would
     *  overflow. Nothing changed. */
    CDYN_ERR_INVALID_ARGUMENT = 1,
    /** A handle is 0, of another kind (a force passed as a particle) or of
     *  another system. */
    CDYN_ERR_INVALID_HANDLE = 2,
    /** A handle names an object that was removed. */
    CDYN_ERR_STALE_HANDLE = 3,
    /** The allocator returned NULL; the object is as it was before the call. */
    CDYN_ERR_NO_MEMORY = 4,
    /** A linear system has no unique solution (conflicting constraints, a
     *  singular Newton matrix). */
    CDYN_ERR_SINGULAR = 5,
    /** An iteration reached its cap before its tolerance (a projection, a
     *  Newton iteration, an adaptive integrator's step count). */
    CDYN_ERR_NOT_CONVERGED = 6,
    /** A step produced a non-finite state; the state is kept as it was
     *  before the step. */
    CDYN_ERR_DIVERGED = 7,
    /** A valid request that this configuration cannot do (an integrator
     *  that does not handle a kind of constraint). */
    CDYN_ERR_UNSUPPORTED = 8,
    /** A user callback returned non-zero (or a non-finite value where the
     *  header says so). */
    CDYN_ERR_CALLBACK = 9,
    /** A call that changes an object was made from one of its callbacks
     *  during a step. */
    CDYN_ERR_BUSY = 10,
    /** Reading or writing a file failed. */
    CDYN_ERR_IO = 11,
    /** A buffer or file is corrupt, truncated or was written by something
     *  else. */
    CDYN_ERR_FORMAT = 12,
    /** A snapshot holds a callback that the load's resolver gave no function
     *  for (cdyn_system_load()); nothing was created. */
    CDYN_ERR_UNRESOLVED = 13
} cdyn_status;

/** Describes a status in a few English words.
 *
 *  @param[in] status  Any value, also one outside the enum.
 *  @return A static NUL-terminated string ("invalid argument", ...),
 *          "unknown status" for a value outside cdyn_status; never NULL,
 *          never to be freed.
 *  @since 0.1
 */
CDYN_API const char *cdyn_status_string(cdyn_status status);

/** Names a status as it is spelled in this header.
 *
 *  @param[in] status  Any value, also one outside the enum.
 *  @return A static NUL-terminated string, the enumerator's name
 *          ("CDYN_ERR_INVALID_ARGUMENT", ...), "CDYN_UNKNOWN" for a value
 *          outside cdyn_status; never NULL, never to be freed.
 *  @since 0.1
 */
CDYN_API const char *cdyn_status_name(cdyn_status status);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_STATUS_H */
