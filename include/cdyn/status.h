/* cdyn: status codes returned by every fallible call.
 *
 * The values are pinned: new codes are appended, none is ever renumbered, so
 * a binding may hard-code them.
 */
#ifndef CDYN_STATUS_H
#define CDYN_STATUS_H

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cdyn_status {
    CDYN_OK = 0,                   /**< success */
    CDYN_ERR_INVALID_ARGUMENT = 1, /**< NULL, NaN/inf, out of range, overflowing size */
    CDYN_ERR_INVALID_HANDLE = 2,   /**< zero handle, wrong kind, or another system's */
    CDYN_ERR_STALE_HANDLE = 3,     /**< the object was removed */
    CDYN_ERR_NO_MEMORY = 4,        /**< the allocator failed; nothing changed */
    CDYN_ERR_SINGULAR = 5,         /**< a linear system has no (unique) solution */
    CDYN_ERR_NOT_CONVERGED = 6,    /**< an iteration hit its cap before its tolerance */
    CDYN_ERR_DIVERGED = 7,         /**< a step produced a non-finite state; state kept */
    CDYN_ERR_UNSUPPORTED = 8,      /**< valid request this configuration cannot do */
    CDYN_ERR_CALLBACK = 9,         /**< a user callback reported an error */
    CDYN_ERR_BUSY = 10,            /**< the object is inside a step (called from a callback) */
    CDYN_ERR_IO = 11,              /**< reading or writing a file failed */
    CDYN_ERR_FORMAT = 12,          /**< a buffer or file is corrupt, truncated or foreign */
    CDYN_ERR_UNRESOLVED = 13       /**< a snapshot's callback has no function (resolver) */
} cdyn_status;

/** A one-line English description of @p status ("invalid argument", ...);
 *  "unknown status" for a value outside the enum. Static string, never NULL.
 *  @since 0.1 */
CDYN_API const char *cdyn_status_string(cdyn_status status);

/** The enumerator's name ("CDYN_ERR_INVALID_ARGUMENT", ...); "CDYN_UNKNOWN"
 *  for a value outside the enum. Static string, never NULL. @since 0.1 */
CDYN_API const char *cdyn_status_name(cdyn_status status);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_STATUS_H */
