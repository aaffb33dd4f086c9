/** @file
 *  @brief The types every module shares: the system, the handles, the
 *  allocator.
 *
 *  Handles are plain 64-bit integers so that any FFI can carry them. Their
 *  bits hold the object kind, a per-system salt, a generation counter and
 *  the slot index + 1; the zero value of every handle type means "none". A
 *  handle of a removed object or of the wrong kind is refused with a status,
 *  never undefined behaviour. The salt is 12 bits derived from the system's
 *  address (no global counter), so a handle of another live system is
 *  refused unless the two salts happen to agree, a 1 in 4096 chance; even
 *  then it is only taken if its slot and generation are live in this
 *  system. A slot whose generation counter is exhausted is retired, never
 *  reused. The bit layout is not part of the API: compare, store and pass
 *  handles back, but do not build or take them apart.
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
 *
 *  Opaque. The caller owns it: cdyn_system_create() makes one,
 *  cdyn_system_destroy() frees it and everything it holds.
 */
typedef struct cdyn_system cdyn_system;

/** Handle of a particle of a system; 0 means none. */
typedef uint64_t cdyn_particle;
/** Handle of a force generator of a system; 0 means none. */
typedef uint64_t cdyn_force;
/** Handle of a constraint of a system; 0 means none. */
typedef uint64_t cdyn_constraint;
/** Handle of a ground of a system; 0 means none. */
typedef uint64_t cdyn_ground;
/** Handle of a rigid body of a system; 0 means none. */
typedef uint64_t cdyn_rigid;

/** A caller-supplied allocator, for the memory of one system, lattice or
 *  reaction network.
 *
 *  The library copies the struct when the object is created; @c user must
 *  stay valid until the object is destroyed. Both functions are required
 *  and are called on the thread that called into the library. The library
 *  never asks for 0 bytes, and treats a size computation that would
 *  overflow as a failed allocation without calling @c alloc. New blocks are
 *  allocated before old ones are released, so a failed allocation
 *  (CDYN_ERR_NO_MEMORY) leaves the object as it was.
 */
typedef struct cdyn_allocator {
    /** Returns @p size bytes aligned for any type, or NULL on failure
     *  (reported as CDYN_ERR_NO_MEMORY). Arguments: @p size, the number of
     *  bytes (> 0); @p user, the struct's @c user. */
    void *(*alloc)(size_t size, void *user);
    /** Releases a block that @c alloc returned. Arguments: @p ptr, the
     *  block (never NULL); @p size, the size that was requested for it, so
     *  that an arena or pool needs no headers; @p user, the struct's
     *  @c user. */
    void (*free)(void *ptr, size_t size, void *user);
    /** Passed back to @c alloc and @c free unchanged; never dereferenced by
     *  the library. May be NULL. */
    void *user;
} cdyn_allocator;

#ifdef __cplusplus
}
#endif

#endif /* CDYN_TYPES_H */
