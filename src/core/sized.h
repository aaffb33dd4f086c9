/* Size-first structs (options and reports whose first field is their own
 * size, so that they may grow): the one rule by which every getter fills
 * the caller's copy. Internal. */
#ifndef CDYN__CORE_SIZED_H
#define CDYN__CORE_SIZED_H

#include <stddef.h>

#include "cdyn/status.h"
#include "cdyn/types.h"

/* Copies @p src, a struct of @p n bytes whose first field is a size_t, into
 * the caller's struct @p out up to the size the caller wrote in out's first
 * field, leaving that field as it is: a smaller size reads a prefix, a
 * larger one leaves the bytes beyond @p n alone. CDYN_ERR_INVALID_ARGUMENT
 * (message "what: ...", nothing written) for a NULL @p out or a size below
 * sizeof(size_t). */
cdyn_status cdyn__sized_get(const cdyn_system *sys, void *out, const void *src, size_t n,
                            const char *what);

/* The check of a setter: CDYN_OK when the size field of @p in equals
 * @p n, else CDYN_ERR_INVALID_ARGUMENT with "what: size ... != sizeof(type)
 * ... (use init)". */
cdyn_status cdyn__sized_check(const cdyn_system *sys, const void *in, size_t n, const char *what,
                              const char *type);

#endif /* CDYN__CORE_SIZED_H */
