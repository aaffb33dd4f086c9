/** @file
 * @brief Snapshots of a system: a whole system saved into bytes, loaded
 * back as a new system, or cloned in memory.
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
 * (cdyn_force_set_tag(), cdyn_constraint_set_tag(), cdyn_ground_set_tag(),
 * the @c tag field of the shape, motion and schedule descriptions; 0 unless
 * set). A snapshot holds the tag; cdyn_system_load() asks a resolver for
 * the function and the user pointer of each. A system without callbacks
 * needs no resolver.
 *
 * Buffers are little-endian and independent of the platform's struct
 * layout: a snapshot loads on any platform the library builds on.
 */
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

/** What a callback of a snapshot belongs to.
 *
 *  The kind names the field of cdyn_callback_binding that a resolver fills.
 *  The values are pinned.
 *  @since 0.1
 */
typedef enum cdyn_callback_kind {
    /** A force of cdyn_force_add_callback() or
     *  cdyn_force_add_callback_with_jacobian(): @c force, and
     *  @c force_jacobian when the force had one. */
    CDYN_CALLBACK_FORCE = 1,
    CDYN_CALLBACK_CONSTRAINT = 2, /**< A constraint of cdyn_constraint_add_user(): @c constraint. */
    CDYN_CALLBACK_IMPLICIT = 3,   /**< A constraint of cdyn_constraint_add_implicit(): @c implicit. */
    CDYN_CALLBACK_GROUND = 4,     /**< A ground of cdyn_ground_add_callback(): @c ground. */
    CDYN_CALLBACK_CURVE = 5,      /**< A CDYN_CURVE_CALLBACK curve: @c curve. */
    CDYN_CALLBACK_SURFACE = 6,    /**< A CDYN_SURFACE_CALLBACK surface: @c surface. */
    CDYN_CALLBACK_MOTION = 7,     /**< A CDYN_MOTION_CALLBACK motion: @c motion. */
    CDYN_CALLBACK_SCHEDULE = 8,   /**< A CDYN_SCHEDULE_CALLBACK schedule: @c schedule. */
    CDYN_CALLBACK_PAIR = 9        /**< A CDYN_PAIR_CALLBACK pair potential (pair.h): @c pair. */
} cdyn_callback_kind;

/** The functions and the user pointer a resolver gives for one callback.
 *
 *  The resolver fills the field named by the kind asked, and @c user; the
 *  library reads only those. The loader clears the struct and sets @c size
 *  before each call.
 *  @since 0.1
 */
typedef struct cdyn_callback_binding {
    size_t size;                           /**< sizeof(cdyn_callback_binding), set by the loader. */
    cdyn_force_fn force;                   /**< CDYN_CALLBACK_FORCE: the force. */
    /** CDYN_CALLBACK_FORCE: the force's Jacobian; required when the saved
     *  force had one, ignored otherwise. */
    cdyn_force_jacobian_fn force_jacobian;
    cdyn_constraint_fn constraint;         /**< CDYN_CALLBACK_CONSTRAINT: the constraint. */
    cdyn_implicit_fn implicit;             /**< CDYN_CALLBACK_IMPLICIT: the implicit function. */
    cdyn_ground_fn ground;                 /**< CDYN_CALLBACK_GROUND: the ground's height. */
    cdyn_curve_fn curve;                   /**< CDYN_CALLBACK_CURVE: the curve. */
    cdyn_surface_fn surface;               /**< CDYN_CALLBACK_SURFACE: the surface. */
    cdyn_motion_fn motion;                 /**< CDYN_CALLBACK_MOTION: the motion. */
    cdyn_schedule_fn schedule;             /**< CDYN_CALLBACK_SCHEDULE: the schedule. */
    cdyn_pair_fn pair;                     /**< CDYN_CALLBACK_PAIR: the pair potential. */
    /** Passed back to the functions; kept by the loaded system as long as
     *  the object lives, never dereferenced by the library. */
    void *user;
} cdyn_callback_binding;

/** A resolver: gives the functions of a callback by its kind and tag.
 *
 *  It is called once per callback object, in the order of the snapshot
 *  (forces and pair potentials, constraints with their shapes, motions and
 *  schedules, grounds, kinematic particles' motions), during
 *  cdyn_system_load() only. It must not call into a system being loaded
 *  (there is none yet).
 *
 *  @param[in]  kind  What the callback belongs to.
 *  @param[in]  tag   The tag the object had when it was saved.
 *  @param[out] out   Cleared, with @c size set; receives the function field
 *                    of @p kind and @c user.
 *  @param[in]  user  The @c resolve_user of cdyn_snapshot_options.
 *  @return 0 when @p out was filled; any other value, or the function field
 *          left NULL, means "not known": the load fails with
 *          CDYN_ERR_UNRESOLVED.
 *  @since 0.1
 */
typedef int (*cdyn_callback_resolve_fn)(cdyn_callback_kind kind, uint64_t tag,
                                        cdyn_callback_binding *out, void *user);

/** The options of cdyn_system_load().
 *
 *  Fill it with cdyn_snapshot_options_init() first.
 *  @since 0.1
 */
typedef struct cdyn_snapshot_options {
    size_t size; /**< sizeof(cdyn_snapshot_options), set by the init function. */
    /** The new system's allocator, copied; NULL (the default): malloc and
     *  free. */
    const cdyn_allocator *allocator;
    /** The resolver of the snapshot's callbacks; NULL (the default): the
     *  snapshot must hold no callback. */
    cdyn_callback_resolve_fn resolve;
    void *resolve_user; /**< Passed back to @c resolve; default NULL. */
} cdyn_snapshot_options;

/** Fills the options of cdyn_system_load() with the defaults.
 *
 *  The defaults: size = sizeof(cdyn_snapshot_options), no allocator (malloc
 *  and free), no resolver.
 *
 *  @param[out] options  The struct to fill; NULL is a no-op.
 *  @since 0.1
 */
CDYN_API void cdyn_snapshot_options_init(cdyn_snapshot_options *options);

/** Why a load failed.
 *
 *  A failed load makes no system to hold a message, so the caller may pass
 *  a report. Set @c size to sizeof(cdyn_snapshot_report) before the call;
 *  the fields beyond it are not written.
 *  @since 0.1
 */
typedef struct cdyn_snapshot_report {
    size_t size; /**< sizeof(cdyn_snapshot_report), set by the caller. */
    /** CDYN_ERR_UNRESOLVED: the kind of the first callback the resolver did
     *  not give; 0 otherwise. */
    cdyn_callback_kind callback_kind;
    /** CDYN_ERR_UNRESOLVED: that callback's tag; 0 otherwise. */
    uint64_t callback_tag;
    /** CDYN_ERR_FORMAT: the byte offset at which the problem was found. */
    uint64_t offset;
    /** "system_load: ..." for a failure, NUL-terminated; empty on success. */
    char message[256];
} cdyn_snapshot_report;

/** Computes the size of a snapshot of a system.
 *
 *  The size changes as the system changes: ask before each save. It costs a
 *  pass over the system, like the save.
 *
 *  @param[in]  sys  The system.
 *  @param[out] out  Receives the size in bytes.
 *  @retval CDYN_OK                    the size was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_snapshot_size(const cdyn_system *sys, size_t *out);

/** Writes a snapshot of a system into a buffer.
 *
 *  The system is only read: saving does not perturb the run. The format
 *  (versioned, little-endian, checksummed) is in docs/snapshots.md.
 *
 *  @param[in]  sys       The system.
 *  @param[out] buffer    The caller's buffer; the library keeps no pointer
 *                        to it.
 *  @param[in]  capacity  Its size in bytes, at least
 *                        cdyn_system_snapshot_size().
 *  @param[out] written   Receives the bytes written; may be NULL.
 *  @retval CDYN_OK                    the snapshot was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p buffer is NULL, or
 *                                     @p capacity is below the size needed
 *                                     (the message says it; nothing useful
 *                                     was written).
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_save(const cdyn_system *sys, void *buffer, size_t capacity,
                                      size_t *written);

/** Creates a system from a snapshot.
 *
 *  The snapshot was written by cdyn_system_save() of this or an earlier
 *  version of the library. The loaded system has the saved handles' salt,
 *  so handles of the saved system work on it. The buffer is read during the
 *  call only. The loader checks every count against the bytes behind it
 *  before it allocates by it: its allocations stay within a small multiple
 *  of @p size whatever the counts say. On failure nothing is created or
 *  left allocated, and the resolver's bindings are forgotten.
 *
 *  @param[in]  buffer   The snapshot.
 *  @param[in]  size     Its length in bytes.
 *  @param[in]  options  The allocator and the resolver; NULL for the
 *                       defaults (cdyn_snapshot_options_init()).
 *  @param[out] report   Receives why a load failed (see
 *                       cdyn_snapshot_report); may be NULL.
 *  @param[out] out      Receives the new system, which the caller destroys
 *                       with cdyn_system_destroy(); NULL on failure.
 *  @retval CDYN_OK                    the system was created.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p buffer or @p out is NULL, the
 *                                     options' size is not
 *                                     sizeof(cdyn_snapshot_options), or the
 *                                     allocator lacks a function.
 *  @retval CDYN_ERR_FORMAT            the buffer is not a whole, intact
 *                                     snapshot: a wrong magic, a format
 *                                     version newer than this library's, a
 *                                     length that is not the buffer's
 *                                     (truncated, trailing bytes), a checksum
 *                                     that does not match, or contents that
 *                                     are inconsistent or out of range
 *                                     (counts that disagree, handles out of
 *                                     range, non-finite state, an object
 *                                     naming a removed particle, ...).
 *  @retval CDYN_ERR_UNRESOLVED        the resolver (or its absence) left a
 *                                     callback without a function; the report
 *                                     names its kind and tag.
 *  @retval CDYN_ERR_NO_MEMORY         the allocator failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_load(const void *buffer, size_t size,
                                      const cdyn_snapshot_options *options,
                                      cdyn_snapshot_report *report, cdyn_system **out);

/** Copies a system deeply.
 *
 *  The same as a save followed by a load, with the callbacks keeping their
 *  functions and user pointers (no resolver) and the buffer held by the
 *  library for the length of the call (allocated with the copy's
 *  allocator). The copy shares nothing with @p sys but the callbacks' user
 *  pointers and the handles' salt. A failure's message is recorded on
 *  @p sys ("system_clone: ...").
 *
 *  @param[in]  sys        The system to copy; only read.
 *  @param[in]  allocator  The copy's allocator, copied; NULL for that of
 *                         @p sys.
 *  @param[out] out        Receives the copy, which the caller destroys with
 *                         cdyn_system_destroy(); NULL on failure.
 *  @retval CDYN_OK                    the copy was created.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or the
 *                                     allocator lacks a function.
 *  @retval CDYN_ERR_NO_MEMORY         the allocator failed; nothing was
 *                                     created or left allocated.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_clone(const cdyn_system *sys, const cdyn_allocator *allocator,
                                       cdyn_system **out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_SNAPSHOT_H */
