/* Allocation through the caller's allocator, with overflow-checked sizes.
 *
 * Every object that allocates (system, lattice) holds a cdyn_allocator; these
 * helpers are the only way library code gets memory. A size computation that
 * would overflow is treated as an allocation failure.
 */
#ifndef CDYN__ALLOC_H
#define CDYN__ALLOC_H

#include <stdbool.h>
#include <stddef.h>

#include "cdyn/types.h"

/* The default allocator (malloc/free). A pure function: no shared state. */
cdyn_allocator cdyn__allocator_default(void);

/* Fills *out from @p user, or the default when @p user is NULL. Returns false
 * when @p user is given but lacks alloc or free. */
bool cdyn__allocator_init(cdyn_allocator *out, const cdyn_allocator *user);

/* n * size bytes, or NULL on failure or overflow. Zero bytes yields NULL too,
 * without calling the allocator. Memory is not cleared. */
void *cdyn__alloc_array(const cdyn_allocator *a, size_t n, size_t size);

/* As cdyn__alloc_array, memory cleared to zero bytes. */
void *cdyn__calloc_array(const cdyn_allocator *a, size_t n, size_t size);

/* Frees what cdyn__alloc_array(a, n, size) returned; NULL is a no-op. */
void cdyn__free_array(const cdyn_allocator *a, void *ptr, size_t n, size_t size);

/* true when n * size overflows size_t. */
bool cdyn__mul_overflows(size_t n, size_t size);

#endif /* CDYN__ALLOC_H */
