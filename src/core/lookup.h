/* Handle to slot, with the message every kind of object words the same way.
 * Internal. */
#ifndef CDYN__CORE_LOOKUP_H
#define CDYN__CORE_LOOKUP_H

#include <stdint.h>

#include "core/handle.h"

/* Resolves @p handle, of kind @p kind, in the pool @p slots (NULL: the
 * store does not exist yet, so no handle is valid) into *slot. On failure
 * records "what: <kind> handle 0x... refers to a removed <kind>" (stale) or
 * "what: ... is not a <kind> of this system" (zero, wrong kind, foreign),
 * @p what naming the public call, and returns CDYN_ERR_STALE_HANDLE or
 * CDYN_ERR_INVALID_HANDLE. */
cdyn_status cdyn__resolve(const cdyn_system *sys, const cdyn__slots *slots, uint64_t handle,
                          cdyn__kind kind, uint32_t *slot, const char *what);

/* The preamble of a query on one object, the same for every kind:
 * @p sys present (else CDYN_ERR_INVALID_ARGUMENT with no message: there is
 * no system to hold it), @p ptr (an output or input) present, @p handle
 * resolved as by cdyn__resolve. @p what names the call in messages, the
 * handle's included ("what: particle handle ..."). */
cdyn_status cdyn__enter_object(const cdyn_system *sys, const void *ptr, const char *what,
                               const cdyn__slots *slots, uint64_t handle, cdyn__kind kind,
                               uint32_t *slot);

/* As cdyn__enter_object for a call that changes the system: also refused
 * with CDYN_ERR_BUSY from inside a step. */
cdyn_status cdyn__enter_object_change(cdyn_system *sys, const void *ptr, const char *what,
                                      const cdyn__slots *slots, uint64_t handle,
                                      cdyn__kind kind, uint32_t *slot);

/* The handle of live slot @p slot of @p slots. */
uint64_t cdyn__handle_of(const cdyn_system *sys, const cdyn__slots *slots, cdyn__kind kind,
                         uint32_t slot);

#endif /* CDYN__CORE_LOOKUP_H */
