/* cdyn: particles (point masses) of a system.
 *
 * A particle has a mass (> 0), a position and a velocity of the system's
 * dimension. A fixed particle has infinite inertia: forces do not accelerate
 * it, and it moves only with the velocity it is given (zero by default), like
 * a kinematic body. Vectors are passed as arrays of dim doubles.
 */
#ifndef CDYN_PARTICLE_H
#define CDYN_PARTICLE_H

#include <stdbool.h>
#include <stddef.h>

#include "export.h"
#include "motion.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Adds a particle of @p mass (finite, > 0) at @p position (dim finite
 *  values, copied); @p velocity may be NULL for rest. On success *out is
 *  its handle. CDYN_ERR_INVALID_ARGUMENT for NULL or non-finite input,
 *  CDYN_ERR_NO_MEMORY when growing storage fails (nothing changed),
 *  CDYN_ERR_BUSY from a callback. @since 0.1 */
CDYN_API cdyn_status cdyn_particle_add(cdyn_system *sys, double mass, const double *position,
                                       const double *velocity, cdyn_particle *out);

/** Removes @p p; force generators that act on it (springs) are removed with
 *  it and their handles become stale. Its index is reused by a later add,
 *  with a new handle. CDYN_ERR_INVALID_HANDLE / CDYN_ERR_STALE_HANDLE for a
 *  bad handle. @since 0.1 */
CDYN_API cdyn_status cdyn_particle_remove(cdyn_system *sys, cdyn_particle p);

/** true when @p p is a live particle of @p sys. @since 0.1 */
CDYN_API bool cdyn_particle_is_valid(const cdyn_system *sys, cdyn_particle p);

/** The index of @p p in bulk arrays and force callbacks; stable for the
 *  particle's lifetime. @since 0.1 */
CDYN_API cdyn_status cdyn_particle_get_index(const cdyn_system *sys, cdyn_particle p,
                                             size_t *out);

/** Position (dim values written to @p out). @since 0.1 */
CDYN_API cdyn_status cdyn_particle_get_position(const cdyn_system *sys, cdyn_particle p,
                                                double *out);

/** Sets the position (dim finite values). @since 0.1 */
CDYN_API cdyn_status cdyn_particle_set_position(cdyn_system *sys, cdyn_particle p,
                                                const double *position);

/** Velocity (dim values written to @p out). @since 0.1 */
CDYN_API cdyn_status cdyn_particle_get_velocity(const cdyn_system *sys, cdyn_particle p,
                                                double *out);

/** Sets the velocity (dim finite values). @since 0.1 */
CDYN_API cdyn_status cdyn_particle_set_velocity(cdyn_system *sys, cdyn_particle p,
                                                const double *velocity);

/** Mass (also of a fixed particle: the mass it has when released). @since 0.1 */
CDYN_API cdyn_status cdyn_particle_get_mass(const cdyn_system *sys, cdyn_particle p, double *out);

/** Sets the mass (finite, > 0). @since 0.1 */
CDYN_API cdyn_status cdyn_particle_set_mass(cdyn_system *sys, cdyn_particle p, double mass);

/** Fixes (infinite inertia) or releases @p p. @since 0.1 */
CDYN_API cdyn_status cdyn_particle_set_fixed(cdyn_system *sys, cdyn_particle p, bool fixed);

/** Whether @p p is fixed. @since 0.1 */
CDYN_API cdyn_status cdyn_particle_get_fixed(const cdyn_system *sys, cdyn_particle p, bool *out);

/** Makes @p p kinematic: from the system's current time t_s on it follows
 *  the rigid motion @p motion (motion.h), X(t) = T(t) T(t_s)^-1 X(t_s), with
 *  the motion's velocity and acceleration at that point, at every stage of
 *  every integrator (its velocity becomes the motion's at once). For the
 *  dynamics it has infinite inertia: forces do not move it, grounds do not
 *  act on it, and constraints to it act as constraints to a moving anchor.
 *  Its mass is kept: it counts in the kinetic energy, the momentum and
 *  gravity's potential, and the work its motion does on the rest,
 *  (m a - F) . v summed over time with F every force on it, is part of
 *  cdyn_system_get_drive_work. A new motion continues from where the
 *  particle is; NULL releases it: it keeps its position and velocity and
 *  moves freely again with its mass. The description is copied (a
 *  callback's @p user pointer is kept, never dereferenced). While
 *  kinematic, cdyn_particle_set_position, _set_velocity, _set_mass and
 *  _set_fixed refuse it, and the bulk setters leave it alone.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys, a bad
 *  description (the message names the field), a fixed particle or one in
 *  a rigid body; CDYN_ERR_UNSUPPORTED for a particle held on a curve or
 *  surface (move the shape instead: cdyn_constraint_set_motion);
 *  CDYN_ERR_CALLBACK when a callback motion fails at the current time
 *  (nothing changed); CDYN_ERR_NO_MEMORY; handle statuses; CDYN_ERR_BUSY.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_particle_set_motion(cdyn_system *sys, cdyn_particle p,
                                              const cdyn_motion_desc *motion);

/** Whether @p p is kinematic (*@p kinematic) and, if so and @p out is not
 *  NULL, a copy of its motion's description.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL @p sys or
 *  @p kinematic; handle statuses. @since 0.1 */
CDYN_API cdyn_status cdyn_particle_get_motion(const cdyn_system *sys, cdyn_particle p,
                                              cdyn_motion_desc *out, bool *kinematic);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_PARTICLE_H */
