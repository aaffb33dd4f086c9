/* Handles and the slot pools behind them.
 *
 * A handle is 64 bits: kind (4) | salt (12) | generation (16) | slot + 1 (32).
 * The salt is per system, so a handle from another system is refused with
 * high probability; the generation makes a handle of a removed object stale.
 * A pool only tracks slots; the owner keeps the per-slot data in arrays of
 * the pool's capacity and grows them together (cdyn__slots_grow).
 */
#ifndef CDYN__HANDLE_H
#define CDYN__HANDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cdyn/types.h"

typedef enum cdyn__kind {
    CDYN__KIND_PARTICLE = 1,
    CDYN__KIND_FORCE = 2,
    CDYN__KIND_CONSTRAINT = 3,
    CDYN__KIND_GROUND = 4,
    CDYN__KIND_RIGID = 5
} cdyn__kind;

typedef struct cdyn__slots {
    uint32_t count;    /* slots ever used: [0, count) */
    uint32_t capacity; /* length of the per-slot arrays */
    uint32_t live;     /* slots currently holding an object */
    uint32_t n_free;
    uint16_t *generation;
    uint8_t *alive;
    uint32_t *free_list; /* removed slots, reused last-in first-out */
} cdyn__slots;

uint64_t cdyn__handle_make(cdyn__kind kind, uint16_t salt, uint16_t generation, uint32_t slot);

/* Resolves @p handle to its slot. INVALID_HANDLE for zero, wrong kind, wrong
 * salt or a slot never used; STALE_HANDLE for a removed object. */
cdyn_status cdyn__slots_resolve(const cdyn__slots *s, uint64_t handle, cdyn__kind kind,
                                uint16_t salt, uint32_t *slot);

/* true when taking a slot needs the arrays to grow first. */
bool cdyn__slots_full(const cdyn__slots *s);

/* Takes a free slot (reused or new); the caller has ensured !full. */
uint32_t cdyn__slots_take(cdyn__slots *s);

/* Returns @p slot to the pool and bumps its generation; after 65535 reuses
 * a slot is retired instead, so a stale handle never comes back to life. */
void cdyn__slots_release(cdyn__slots *s, uint32_t slot);

/* Grows the pool's own arrays and @p n owner arrays from s->capacity to
 * @p new_capacity elements: all new blocks are allocated before anything is
 * freed, so on CDYN_ERR_NO_MEMORY nothing changed. arrays[i] points to the
 * owner's pointer, sizes[i] is its element size. New elements are zeroed. */
cdyn_status cdyn__slots_grow(cdyn__slots *s, const cdyn_allocator *a, uint32_t new_capacity,
                             size_t n, void **const arrays[], const size_t sizes[]);

void cdyn__slots_free(cdyn__slots *s, const cdyn_allocator *a, size_t n,
                      void **const arrays[], const size_t sizes[]);

/* A capacity at least @p need, growing geometrically from @p have. */
uint32_t cdyn__grown_capacity(uint32_t have, uint32_t need);

#endif /* CDYN__HANDLE_H */
