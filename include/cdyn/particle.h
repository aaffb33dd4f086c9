/** @file
 *  @brief Particles (point masses) of a system: adding, removing, their
 *  state, mass, fixed flag and prescribed motion.
 *
 *  A particle has a mass (> 0), a position and a velocity of the system's
 *  dimension. A fixed particle has infinite inertia: forces do not
 *  accelerate it, and it moves only with the velocity it is given (zero by
 *  default), like a kinematic body. Vectors are passed as arrays of dim
 *  doubles, copied during the call.
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

/** Adds a particle to a system.
 *
 *  The particle takes a free index (the most recently freed one first, else a
 *  new one) and gets a new handle. It starts free: not fixed, not kinematic, on
 *  no shape.
 *
 *  @param[in,out] sys       The system.
 *  @param[in]     mass      Mass (kg), finite and > 0.
 *  @param[in]     position  dim finite values (m), copied.
 *  @param[in]     velocity  dim finite values (m/s), copied; NULL for rest.
 *  @param[out]    out       Receives the new particle's handle.
 *  @retval CDYN_OK                    the particle was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p position or @p out is NULL,
 *                                     the mass is not finite and > 0, or a
 *                                     value of @p position or @p velocity is
 *                                     not finite.
 *  @retval CDYN_ERR_NO_MEMORY         growing the storage failed; nothing
 *                                     changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_add(cdyn_system *sys, double mass, const double *position,
                                       const double *velocity, cdyn_particle *out);

/** Removes a particle from a system.
 *
 *  What acts on the particle goes with it: the springs attached to it and its
 *  constraints are removed (their handles become stale), it leaves every
 *  pair-potential set, its applied force and its motion are dropped. Its index
 *  is freed and reused by a later cdyn_particle_add(), with a new handle.
 *
 *  @param[in,out] sys  The system.
 *  @param[in]     p    The particle.
 *  @retval CDYN_OK                    the particle was removed.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or the particle belongs
 *                                     to a rigid body (dissolve it first:
 *                                     cdyn_rigid_remove()).
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed already.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_remove(cdyn_system *sys, cdyn_particle p);

/** Tells whether a handle names a live particle of a system.
 *
 *  Sets no status and leaves the last-error message alone.
 *
 *  @param[in] sys  The system, or NULL.
 *  @param[in] p    Any handle.
 *  @return true when @p p is a live particle of @p sys; false otherwise and for
 *          a NULL @p sys.
 *  @since 0.1
 */
CDYN_API bool cdyn_particle_is_valid(const cdyn_system *sys, cdyn_particle p);

/** Reads the index of a particle.
 *
 *  The index is its entry in bulk arrays (cdyn_system_get_positions()) and in
 *  the arrays a force callback receives; it is stable for the particle's
 *  lifetime.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  p    The particle.
 *  @param[out] out  Receives the index, less than the index count.
 *  @retval CDYN_OK                    the index was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_get_index(const cdyn_system *sys, cdyn_particle p,
                                             size_t *out);

/** Reads the position of a particle.
 *
 *  In a periodic box (box.h) the position is wrapped into the box;
 *  cdyn_particle_get_unwrapped_position() gives the unwrapped one.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  p    The particle.
 *  @param[out] out  Receives dim values (m).
 *  @retval CDYN_OK                    the position was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_get_position(const cdyn_system *sys, cdyn_particle p,
                                                double *out);

/** Sets the position of a particle.
 *
 *  A particle held on a curve or surface is placed at the point of its shape
 *  closest to @p position, with the part of its velocity along the shape; if
 *  that fails, nothing changes. In a periodic box the particle's image counter
 *  follows the move.
 *
 *  @param[in,out] sys       The system.
 *  @param[in]     p         The particle.
 *  @param[in]     position  dim finite values (m), copied.
 *  @retval CDYN_OK                    the position was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p position is NULL, a value is
 *                                     not finite, the particle belongs to a
 *                                     rigid body or follows a motion
 *                                     (cdyn_particle_set_motion()), or it is on
 *                                     a shape that has no finite point there.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @retval CDYN_ERR_CALLBACK          the callback of the particle's shape
 *                                     failed (nothing changed).
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_set_position(cdyn_system *sys, cdyn_particle p,
                                                const double *position);

/** Reads the velocity of a particle.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  p    The particle.
 *  @param[out] out  Receives dim values (m/s).
 *  @retval CDYN_OK                    the velocity was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_get_velocity(const cdyn_system *sys, cdyn_particle p,
                                                double *out);

/** Sets the velocity of a particle.
 *
 *  A fixed particle keeps it and moves with it. A particle held on a curve or
 *  surface keeps the part of @p velocity along its shape; if that fails,
 *  nothing changes.
 *
 *  @param[in,out] sys       The system.
 *  @param[in]     p         The particle.
 *  @param[in]     velocity  dim finite values (m/s), copied.
 *  @retval CDYN_OK                    the velocity was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p velocity is NULL, a value is
 *                                     not finite, the particle belongs to a
 *                                     rigid body or follows a motion
 *                                     (cdyn_particle_set_motion()), or its
 *                                     shape degenerates where it is.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @retval CDYN_ERR_CALLBACK          the callback of the particle's shape
 *                                     failed (nothing changed).
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_set_velocity(cdyn_system *sys, cdyn_particle p,
                                                const double *velocity);

/** Reads the mass of a particle.
 *
 *  A fixed particle's is the mass it has when released.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  p    The particle.
 *  @param[out] out  Receives the mass (kg).
 *  @retval CDYN_OK                    the mass was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_get_mass(const cdyn_system *sys, cdyn_particle p, double *out);

/** Sets the mass of a particle.
 *
 *  A fixed particle keeps its infinite inertia and gets this mass when
 *  released.
 *
 *  @param[in,out] sys   The system.
 *  @param[in]     p     The particle.
 *  @param[in]     mass  The mass (kg), finite and > 0.
 *  @retval CDYN_OK                    the mass was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, the mass is not finite
 *                                     and > 0, or the particle belongs to a
 *                                     rigid body or follows a motion.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_set_mass(cdyn_system *sys, cdyn_particle p, double mass);

/** Fixes a particle (infinite inertia) or releases it.
 *
 *  Forces on a fixed particle are computed but do not accelerate it; it keeps
 *  its velocity (zero unless one was set) and moves with it. Releasing it
 *  restores its mass. Diagnostics leave fixed particles out of mass-weighted
 *  sums (diagnostics.h).
 *
 *  @param[in,out] sys    The system.
 *  @param[in]     p      The particle.
 *  @param[in]     fixed  true to fix, false to release.
 *  @retval CDYN_OK                    the flag was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or the particle belongs
 *                                     to a rigid body or follows a motion.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_set_fixed(cdyn_system *sys, cdyn_particle p, bool fixed);

/** Reads whether a particle is fixed.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  p    The particle.
 *  @param[out] out  Receives true when the particle is fixed.
 *  @retval CDYN_OK                    the flag was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_get_fixed(const cdyn_system *sys, cdyn_particle p, bool *out);

/** Makes a particle kinematic, following a prescribed rigid motion, or releases
 *  it.
 *
 *  From the system's current time t_s on, the particle follows @p motion
 *  (motion.h): X(t) = T(t) T(t_s)^-1 X(t_s), with the motion's velocity and
 *  acceleration at that point, at every stage of every integrator; its velocity
 *  becomes the motion's at once. A new motion continues from where the particle
 *  is. For the dynamics it has infinite inertia: forces do not move it, grounds
 *  do not act on it, and constraints to it act as constraints to a moving
 *  anchor. Its mass is kept: it counts in the kinetic energy, the momentum and
 *  gravity's potential, and the work its motion does on the rest, (m a - F) . v
 *  summed over time with F every force on it, is part of
 *  cdyn_system_get_drive_work(). While kinematic, cdyn_particle_set_position(),
 *  cdyn_particle_set_velocity(), cdyn_particle_set_mass() and
 *  cdyn_particle_set_fixed() refuse it, and the bulk setters leave it alone.
 *
 *  @param[in,out] sys     The system.
 *  @param[in]     p       The particle.
 *  @param[in]     motion  The motion's description, copied (a callback's
 *                         @c user pointer is kept and passed back, never
 *                         dereferenced). NULL releases the particle: it keeps
 *                         its position and velocity and moves freely again with
 *                         its mass.
 *  @retval CDYN_OK                    the motion was set, or the particle
 *                                     released (also when it was not
 *                                     kinematic).
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, the description is bad
 *                                     (the message names the field), or the
 *                                     particle is fixed or belongs to a rigid
 *                                     body.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @retval CDYN_ERR_UNSUPPORTED       the particle is held on a curve or
 *                                     surface (move the shape instead:
 *                                     cdyn_constraint_set_motion()).
 *  @retval CDYN_ERR_CALLBACK          a callback motion failed at the current
 *                                     time (nothing changed).
 *  @retval CDYN_ERR_DIVERGED          a built-in motion overflows to a
 *                                     non-finite state at the current time
 *                                     (nothing changed).
 *  @retval CDYN_ERR_NO_MEMORY         the storage of kinematic particles could
 *                                     not grow (nothing changed).
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_set_motion(cdyn_system *sys, cdyn_particle p,
                                              const cdyn_motion_desc *motion);

/** Reads whether a particle is kinematic and, if so, its motion.
 *
 *  @param[in]  sys        The system.
 *  @param[in]  p          The particle.
 *  @param[out] out        Receives a copy of the motion's description when the
 *                         particle is kinematic (left alone otherwise); may be
 *                         NULL.
 *  @param[out] kinematic  Receives true when the particle follows a motion.
 *  @retval CDYN_OK                    the answer was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p kinematic is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_get_motion(const cdyn_system *sys, cdyn_particle p,
                                              cdyn_motion_desc *out, bool *kinematic);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_PARTICLE_H */
