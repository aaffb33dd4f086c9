/* cdyn: the types every module shares: objects, handles, the allocator.
 *
 * Handles are plain 64-bit integers so that any FFI can carry them. Their bits
 * hold the object kind, a per-system salt, a generation counter and the slot
 * index + 1; the zero value of every handle type means "none". A handle of a
 * removed object or of the wrong kind is refused with a status, never
 * undefined behaviour. The salt is 12 bits derived from the system's address
 * (no global counter), so a handle of another live system is refused unless
 * the two salts happen to agree, a 1 in 4096 chance; even then it is only
 * taken if its slot and generation are live in this system. A slot whose
 * generation counter is exhausted is retired, never reused.
 */
#ifndef CDYN_TYPES_H
#define CDYN_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "export.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A simulation: particles, forces, constraints, grounds, rigid bodies.
 *  Opaque; owned by the caller (cdyn_system_create / cdyn_system_destroy). */
typedef struct cdyn_system cdyn_system;

typedef uint64_t cdyn_particle;   /**< handle of a particle; 0 = none */
typedef uint64_t cdyn_force;      /**< handle of a force generator; 0 = none */
typedef uint64_t cdyn_constraint; /**< handle of a constraint; 0 = none */
typedef uint64_t cdyn_ground;     /**< handle of a ground; 0 = none */
typedef uint64_t cdyn_rigid;      /**< handle of a rigid body; 0 = none */

/** A caller-supplied allocator. The library copies the struct; @c user is
 *  passed back unchanged. @c alloc returns memory aligned for any type or NULL
 *  on failure (which the library reports as CDYN_ERR_NO_MEMORY); @c free
 *  receives the size that was requested. Both are called on the thread that
 *  called into the library. */
typedef struct cdyn_allocator {
    void *(*alloc)(size_t size, void *user);
    void (*free)(void *ptr, size_t size, void *user);
    void *user;
} cdyn_allocator;

#ifdef __cplusplus
}
#endif

#endif /* CDYN_TYPES_H */
