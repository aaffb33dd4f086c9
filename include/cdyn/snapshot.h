/* cdyn: snapshots of a system -- save a whole system into bytes, load it
 * back as a new system, or clone it in memory.
 *
 * A snapshot holds everything a step depends on: the dimension, the clock,
 * every particle (mass, fixed flag, state, the generation counters and free
 * slots behind the handles), every force generator (a pair set with its
 * exclusions and neighbour list), constraint, shape, ground, rigid body and
 * kinematic particle with its motion, the periodic box with its image
 * counters, the integrator with the options and adaptive state of every
 * integrator, the Langevin thermostat and its noise counter, the constraint
 * solver's settings, the projection's options, the multipliers the next
 * step starts from and the caches that change its rounding. Stepping the
 * loaded system gives the same bits as stepping the saved one; handles
 * taken before the save name the same objects in the loaded system (stale
 * ones stay stale). What is not saved, and the format with its promise
 * across versions: docs/snapshots.md.
 *
 * Callbacks cannot be written into bytes. Each object made with a function
 * and a user pointer (callback forces and pair potentials, user and
 * implicit constraints, callback grounds, callback curves and surfaces,
 * callback motions and schedules) carries a user-chosen integer tag
 * (cdyn_force_set_tag, cdyn_constraint_set_tag, cdyn_ground_set_tag, the
 * @c tag field of the shape, motion and schedule descriptions; 0 unless
 * set). A snapshot holds
 * the tag; cdyn_system_load asks a resolver for the function and the user
 * pointer of each. A system without callbacks needs no resolver.
 *
 * Buffers are little-endian and independent of the platform's struct
 * layout: a snapshot loads on any platform the library builds on. */
#ifndef CDYN_SNAPSHOT_H
#define CDYN_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "constraint.h"
#include "export.h"
#include "force.h"
#include "ground.h"
#include "motion.h"
#include "pair.h"
#include "shapes.h"
#include "status.h"
#include "system.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a callback of a snapshot belongs to, which says the field of
 *  cdyn_callback_binding a resolver fills. Values are pinned. @since 0.1 */
typedef enum cdyn_callback_kind {
    CDYN_CALLBACK_FORCE = 1,      /**< cdyn_force_add_callback[_with_jacobian]: @c force,
                                       and @c force_jacobian when the force had one */
    CDYN_CALLBACK_CONSTRAINT = 2, /**< cdyn_constraint_add_user: @c constraint */
    CDYN_CALLBACK_IMPLICIT = 3,   /**< cdyn_constraint_add_implicit: @c implicit */
    CDYN_CALLBACK_GROUND = 4,     /**< cdyn_ground_add_callback: @c ground */
    CDYN_CALLBACK_CURVE = 5,      /**< a CDYN_CURVE_CALLBACK curve: @c curve */
    CDYN_CALLBACK_SURFACE = 6,    /**< a CDYN_SURFACE_CALLBACK surface: @c surface */
    CDYN_CALLBACK_MOTION = 7,     /**< a CDYN_MOTION_CALLBACK motion: @c motion */
    CDYN_CALLBACK_SCHEDULE = 8,   /**< a CDYN_SCHEDULE_CALLBACK schedule: @c schedule */
    CDYN_CALLBACK_PAIR = 9        /**< a CDYN_PAIR_CALLBACK pair potential (pair.h): @c pair */
} cdyn_callback_kind;

/** The functions and user pointer a resolver gives for one callback: the
 *  field named by the kind asked (and @c user); the others are ignored.
 *  The loader clears the struct and sets @c size before each call.
 *  @since 0.1 */
typedef struct cdyn_callback_binding {
    size_t size;                          /**< sizeof(cdyn_callback_binding) */
    cdyn_force_fn force;                  /**< CDYN_CALLBACK_FORCE */
    cdyn_force_jacobian_fn force_jacobian; /**< CDYN_CALLBACK_FORCE with a Jacobian */
    cdyn_constraint_fn constraint;        /**< CDYN_CALLBACK_CONSTRAINT */
    cdyn_implicit_fn implicit;            /**< CDYN_CALLBACK_IMPLICIT */
    cdyn_ground_fn ground;                /**< CDYN_CALLBACK_GROUND */
    cdyn_curve_fn curve;                  /**< CDYN_CALLBACK_CURVE */
    cdyn_surface_fn surface;              /**< CDYN_CALLBACK_SURFACE */
    cdyn_motion_fn motion;                /**< CDYN_CALLBACK_MOTION */
    cdyn_schedule_fn schedule;            /**< CDYN_CALLBACK_SCHEDULE */
    cdyn_pair_fn pair;                    /**< CDYN_CALLBACK_PAIR */
    void *user;                           /**< passed back to the functions, never
                                               dereferenced by the library */
} cdyn_callback_binding;

/** A resolver: for the callback of kind @p kind with tag @p tag, fill the
 *  matching function field of @p out (and @c user) and return 0; any other
 *  value, or a function field left NULL, means "not known" and the load
 *  fails with CDYN_ERR_UNRESOLVED. Called once per callback object, in the
 *  order of the snapshot (forces and pair potentials, constraints and their shapes, motions and
 *  schedules, grounds, kinematic particles' motions), never after the load
 *  returns; it must not call into the system being loaded (there is none
 *  yet). @since 0.1 */
typedef int (*cdyn_callback_resolve_fn)(cdyn_callback_kind kind, uint64_t tag,
                                        cdyn_callback_binding *out, void *user);

/** Options of cdyn_system_load. Fill with cdyn_snapshot_options_init().
 *  @since 0.1 */
typedef struct cdyn_snapshot_options {
    size_t size;                        /**< sizeof(cdyn_snapshot_options), set by init */
    const cdyn_allocator *allocator;    /**< the new system's allocator (copied); NULL:
                                             malloc and free */
    cdyn_callback_resolve_fn resolve;   /**< NULL: the snapshot must hold no callback */
    void *resolve_user;                 /**< passed back to @c resolve */
} cdyn_snapshot_options;

/** Fills @p options with the defaults: size set, no allocator (malloc),
 *  no resolver. NULL: does nothing. @since 0.1 */
CDYN_API void cdyn_snapshot_options_init(cdyn_snapshot_options *options);

/** Why a load failed, for a caller that wants more than the status (a
 *  failed load makes no system to hold a message). Set @c size to
 *  sizeof(cdyn_snapshot_report) before the call; fields beyond it are not
 *  written. @since 0.1 */
typedef struct cdyn_snapshot_report {
    size_t size;
    /** CDYN_ERR_UNRESOLVED: the kind and tag of the first callback the
     *  resolver did not give; 0 otherwise. */
    cdyn_callback_kind callback_kind;
    uint64_t callback_tag;
    /** CDYN_ERR_FORMAT: the byte offset at which the problem was found. */
    uint64_t offset;
    /** "system_load: ..." for a failure, empty on success. */
    char message[256];
} cdyn_snapshot_report;

/** Bytes a snapshot of @p sys takes now, into *@p out (it changes as the
 *  system changes: call it before each save). O(size of the system).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL arguments (message
 *  "system_snapshot_size: ..." when @p sys is given). @since 0.1 */
CDYN_API cdyn_status cdyn_system_snapshot_size(const cdyn_system *sys, size_t *out);

/** Writes a snapshot of @p sys into @p buffer (@p capacity bytes, the
 *  caller's; the library keeps no pointer to it) and its length into
 *  *@p written (may be NULL). The system is not changed: saving does not
 *  perturb the run. Format (versioned, little-endian, checksummed):
 *  docs/snapshots.md.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or
 *  @p buffer or a @p capacity below cdyn_system_snapshot_size (nothing
 *  useful written; the message says the size needed); CDYN_ERR_BUSY from
 *  inside a step (a callback). @since 0.1 */
CDYN_API cdyn_status cdyn_system_save(const cdyn_system *sys, void *buffer, size_t capacity,
                                      size_t *written);

/** Creates a system from a snapshot written by cdyn_system_save (by this
 *  or an earlier version of the library): *@p out owns a new system, which
 *  the caller destroys with cdyn_system_destroy. The buffer is read during
 *  the call only. @p options may be NULL (defaults); @p report may be NULL.
 *  The loaded system uses the saved handles' salt, so handles of the saved
 *  system work on it. Allocations stay within a small multiple of @p size
 *  until the snapshot has been checked, whatever counts it declares.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL @p buffer or
 *  @p out, or options whose size is not sizeof(cdyn_snapshot_options);
 *  CDYN_ERR_FORMAT for a buffer that is not a whole, intact snapshot: a
 *  wrong magic, a format version newer than this library's, a size that is
 *  not the snapshot's (truncated, trailing bytes), a checksum that does not
 *  match, or contents that are inconsistent or out of range (counts that
 *  disagree, handles out of range, non-finite state, an object naming a
 *  removed particle, ...); CDYN_ERR_UNRESOLVED when the resolver (or its
 *  absence) leaves a callback without a function (@p report names its kind
 *  and tag); CDYN_ERR_NO_MEMORY. On failure *@p out is NULL, nothing is
 *  left allocated and the resolver's bindings are forgotten. @since 0.1 */
CDYN_API cdyn_status cdyn_system_load(const void *buffer, size_t size,
                                      const cdyn_snapshot_options *options,
                                      cdyn_snapshot_report *report, cdyn_system **out);

/** A deep copy of @p sys: the same as a save followed by a load, with the
 *  callbacks keeping their functions and user pointers (no resolver) and
 *  the buffer held by the library for the duration of the call (allocated
 *  with the new system's allocator). @p allocator: the copy's allocator
 *  (copied); NULL: that of @p sys. The copy shares nothing with @p sys but
 *  the user pointers of callbacks and the handles' salt.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (NULL @p sys or @p out, an
 *  allocator without functions); CDYN_ERR_BUSY from inside a step;
 *  CDYN_ERR_NO_MEMORY (*@p out NULL, nothing leaked). The message of a
 *  failure is recorded on @p sys ("system_clone: ..."). @since 0.1 */
CDYN_API cdyn_status cdyn_system_clone(const cdyn_system *sys, const cdyn_allocator *allocator,
                                       cdyn_system **out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_SNAPSHOT_H */
