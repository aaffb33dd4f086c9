/** @file
 * @brief Rigid bodies: sets of particles that keep their relative positions.
 *
 * A rigid body is made from particles of a system.
 * From then on its members move together: the body's state is its centre of
 * mass X_cm, the velocity U_cm of the centre of mass, the angular momentum
 * L about X_cm and its orientation; the inertia tensor is
 * I(t) = sum m (|x~|^2 1 - x~ x~^T) with x~ = x - X_cm, the angular velocity
 * Omega = I^-1 L, and each step rotates the members with the exact rotation
 * R(Omega, dt) while U_cm and L follow the total force and the
 * torque about X_cm of every force acting on the members (gravity, springs
 * and pair forces to other particles, grounds, callbacks). docs/rigid.md
 * derives the two time-stepping schemes and the rest of what follows.
 *
 * Members keep their handles and indices: their positions and velocities
 * are read as usual (cdyn_particle_get_position(), bulk arrays, diagnostics,
 * which count them as movable particles). Changing a member directly
 * (cdyn_particle_set_position(), _set_velocity, _set_mass, _set_fixed,
 * cdyn_particle_remove()) and putting it in a constraint are refused with
 * CDYN_ERR_INVALID_ARGUMENT: move the body with the setters below, or
 * dissolve it first. Bulk setters (cdyn_system_set_positions(),
 * _set_velocities) are not refused; the next step starts from the rigid
 * motion that fits what they wrote (docs/rigid.md).
 *
 * Rotational quantities are always three-dimensional: angular momentum and
 * angular velocity are 3 values, inertia tensors and orientations 3 x 3
 * row-major (9 values). A 2-D system is the plane z = 0: the angular
 * momentum and velocity are (0, 0, L) and (0, 0, Omega), the orientation is
 * a plane rotation in the upper-left 2 x 2 block with 1 at [8], and the
 * inertia tensor is that of the flat body in space: the upper-left block is
 * planar 2 x 2 tensor sum m (|x~|^2 1 - x~ x~^T) and [8] is the moment
 * sum m |x~|^2 about the normal, the one that rotates a plane body.
 *
 * The body frame is the world frame at the moment the body was made, with
 * its origin at the centre of mass: the orientation starts as the identity
 * and maps body-frame vectors to world vectors.
 *
 * Queries read the committed state (after the last step or set call).
 */
#ifndef CDYN_RIGID_H
#define CDYN_RIGID_H

#include <stdbool.h>
#include <stddef.h>

#include "export.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How a body's state is advanced in a step (cdyn_rigid_set_scheme()).
 *
 *  The values are pinned. docs/rigid.md gives both step by step.
 *  @since 0.1
 */
typedef enum cdyn_rigid_scheme {
    /** The classic rigid-body step, first order: rotate by R(Omega(t), dt),
     *  move the centre with U_cm(t), then update U_cm and L with the force
     *  and torque at the new positions. One force evaluation per step. */
    CDYN_RIGID_FIRST_ORDER = 1,
    /** The default, second order: half a kick with the force and torque at
     *  the start, a drift whose rotation uses the angular velocity at the
     *  half-way orientation, half a kick at the end. Two force evaluations
     *  per step (three when some force depends on velocity). */
    CDYN_RIGID_SECOND_ORDER = 2
} cdyn_rigid_scheme;

/** Makes a rigid body of particles: from now on they keep their present
 *  relative positions.
 *
 *  Their velocities are replaced by the rigid motion with the same momentum and
 *  the same angular momentum about the centre of mass (velocities that already
 *  are rigid are kept; otherwise kinetic energy is lost, as in a perfectly
 *  inelastic lock-up). The body frame is the present world frame, centred at
 *  the centre of mass. The scheme is CDYN_RIGID_SECOND_ORDER. Nothing changes
 *  on failure.
 *
 *  @param[in,out] sys        The system.
 *  @param[in]     particles  @p n particle handles, each once, read during the
 *                            call only.
 *  @param[in]     n          The number of particles, at least 1 (2 for a body
 *                            that is not singular) and at most the number of
 *                            live particles.
 *  @param[out]    out        Receives the body's handle.
 *  @retval CDYN_OK                    the body was made.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p particles or @p out is NULL,
 *                                     @p n is 0 or more than the live
 *                                     particles, or a particle is listed twice,
 *                                     fixed, kinematic (a prescribed motion),
 *                                     in another body, in a constraint or on a
 *                                     curve or surface.
 *  @retval CDYN_ERR_INVALID_HANDLE    a handle of @p particles is 0, not a
 *                                     particle, or of another system.
 *  @retval CDYN_ERR_STALE_HANDLE      a handle of @p particles names a removed
 *                                     particle.
 *  @retval CDYN_ERR_SINGULAR          the inertia tensor is singular: one
 *                                     particle, all particles at one point, or
 *                                     (in 3-D) all on one line (the smallest
 *                                     principal moment below 1e-10 of the
 *                                     largest).
 *  @retval CDYN_ERR_NO_MEMORY         an allocation failed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_add(cdyn_system *sys, const cdyn_particle *particles, size_t n,
                                    cdyn_rigid *out);

/** Dissolves a rigid body.
 *
 *  Its particles return to free motion with their current positions and
 *  velocities (the body's rigid motion at this moment), their handles
 *  unchanged; the body's handle becomes stale.
 *
 *  @param[in,out] sys   The system.
 *  @param[in]     body  The body.
 *  @retval CDYN_OK                    the body was dissolved.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved already.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_remove(cdyn_system *sys, cdyn_rigid body);

/** Tells whether a handle names a live rigid body of a system.
 *
 *  Sets no status and leaves the last-error message alone.
 *
 *  @param[in] sys   The system, or NULL.
 *  @param[in] body  Any handle.
 *  @return true when @p body is a live rigid body of @p sys; false otherwise
 *          and for a NULL @p sys.
 *  @since 0.1
 */
CDYN_API bool cdyn_rigid_is_valid(const cdyn_system *sys, cdyn_rigid body);

/** Reads which rigid body holds a particle.
 *
 *  @param[in]  sys       The system.
 *  @param[in]  particle  The particle.
 *  @param[out] out       Receives the body's handle, or 0 when the particle is
 *                        free.
 *  @retval CDYN_OK                    the handle was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p particle is 0, not a particle, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p particle was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_find(const cdyn_system *sys, cdyn_particle particle,
                                     cdyn_rigid *out);

/** Reads the number of particles of a rigid body.
 *
 *  @param[in]  sys   The system.
 *  @param[in]  body  The body.
 *  @param[out] out   Receives the count.
 *  @retval CDYN_OK                    the count was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_get_particle_count(const cdyn_system *sys, cdyn_rigid body,
                                                   size_t *out);

/** Copies the handles of a rigid body's particles.
 *
 *  In the order given to cdyn_rigid_add().
 *
 *  @param[in]  sys       The system.
 *  @param[in]  body      The body.
 *  @param[out] out       Receives the handles.
 *  @param[in]  capacity  The number of handles @p out holds, at least the
 *                        particle count.
 *  @retval CDYN_OK                    the handles were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p capacity
 *                                     is short; nothing written.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_get_particles(const cdyn_system *sys, cdyn_rigid body,
                                              cdyn_particle *out, size_t capacity);

/** Chooses how a rigid body is advanced in a step.
 *
 *  Takes effect at the next step; the body's state is not touched.
 *
 *  @param[in,out] sys     The system.
 *  @param[in]     body    The body.
 *  @param[in]     scheme  A value of cdyn_rigid_scheme.
 *  @retval CDYN_OK                    the scheme was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or @p scheme is not a
 *                                     value of cdyn_rigid_scheme.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_set_scheme(cdyn_system *sys, cdyn_rigid body,
                                           cdyn_rigid_scheme scheme);

/** Reads how a rigid body is advanced.
 *
 *  @param[in]  sys   The system.
 *  @param[in]  body  The body.
 *  @param[out] out   Receives the scheme.
 *  @retval CDYN_OK                    the scheme was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_get_scheme(const cdyn_system *sys, cdyn_rigid body,
                                           cdyn_rigid_scheme *out);

/** Reads the total mass of a rigid body, M = sum m.
 *
 *  @param[in]  sys   The system.
 *  @param[in]  body  The body.
 *  @param[out] out   Receives M (kg).
 *  @retval CDYN_OK                    the mass was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_get_mass(const cdyn_system *sys, cdyn_rigid body, double *out);

/** Reads the centre of mass of a rigid body, X_cm = sum m x / M.
 *
 *  @param[in]  sys   The system.
 *  @param[in]  body  The body.
 *  @param[out] out   Receives dim values (m).
 *  @retval CDYN_OK                    the centre was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_get_center_of_mass(const cdyn_system *sys, cdyn_rigid body,
                                                   double *out);

/** Reads the velocity of a rigid body's centre of mass, U_cm = sum m v / M.
 *
 *  @param[in]  sys   The system.
 *  @param[in]  body  The body.
 *  @param[out] out   Receives dim values (m/s).
 *  @retval CDYN_OK                    the velocity was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_get_velocity(const cdyn_system *sys, cdyn_rigid body,
                                             double *out);

/** Sets the velocity of a rigid body's centre of mass, keeping its angular
 *  velocity.
 *
 *  Every member gets v = U_cm + Omega x x~.
 *
 *  @param[in,out] sys       The system.
 *  @param[in]     body      The body.
 *  @param[in]     velocity  U_cm (m/s), dim finite values, copied.
 *  @retval CDYN_OK                    the velocity was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p velocity is NULL, or a value
 *                                     is not finite; nothing changed.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_set_velocity(cdyn_system *sys, cdyn_rigid body,
                                             const double *velocity);

/** Reads the angular momentum of a rigid body about its centre of mass, L = sum
 *  m x~ x (v - U_cm).
 *
 *  @param[in]  sys   The system.
 *  @param[in]  body  The body.
 *  @param[out] out   Receives 3 values (kg m^2/s); in 2-D (0, 0, L).
 *  @retval CDYN_OK                    the angular momentum was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_get_angular_momentum(const cdyn_system *sys, cdyn_rigid body,
                                                     double out[3]);

/** Reads the angular velocity of a rigid body, Omega = I^-1 L.
 *
 *  @param[in]  sys   The system.
 *  @param[in]  body  The body.
 *  @param[out] out   Receives 3 values (rad/s); in 2-D (0, 0, Omega).
 *  @retval CDYN_OK                    the angular velocity was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_get_angular_velocity(const cdyn_system *sys, cdyn_rigid body,
                                                     double out[3]);

/** Sets the angular velocity of a rigid body, keeping the velocity of its
 *  centre of mass.
 *
 *  Every member gets v = U_cm + Omega x x~, so L becomes I Omega.
 *
 *  @param[in,out] sys    The system.
 *  @param[in]     body   The body.
 *  @param[in]     omega  Omega (rad/s), 3 finite values, copied; in 2-D the
 *                        first two must be 0.
 *  @retval CDYN_OK                    the angular velocity was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p omega is NULL, a value is
 *                                     not finite, or (2-D) an in-plane
 *                                     component is not 0; nothing changed.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_set_angular_velocity(cdyn_system *sys, cdyn_rigid body,
                                                     const double omega[3]);

/** Reads the inertia tensor of a rigid body about its centre of mass, in world
 *  axes.
 *
 *  I(t) = sum m (|x~|^2 1 - x~ x~^T); in 2-D see the top of this header.
 *
 *  @param[in]  sys   The system.
 *  @param[in]  body  The body.
 *  @param[out] out   Receives 9 values (kg m^2), row-major.
 *  @retval CDYN_OK                    the tensor was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_get_inertia(const cdyn_system *sys, cdyn_rigid body,
                                            double out[9]);

/** Reads the inertia tensor of a rigid body in its body frame.
 *
 *  The body frame is the world frame when the body was made, so the tensor is
 *  constant: I_body = Q^T I(t) Q with Q the orientation.
 *
 *  @param[in]  sys   The system.
 *  @param[in]  body  The body.
 *  @param[out] out   Receives 9 values (kg m^2), row-major.
 *  @retval CDYN_OK                    the tensor was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_get_body_inertia(const cdyn_system *sys, cdyn_rigid body,
                                                 double out[9]);

/** Reads the orientation of a rigid body: the rotation Q from body-frame
 *  vectors to world vectors.
 *
 *  x = X_cm + Q b for a member whose body-frame offset is b (its offset from
 *  the centre of mass when the body was made). Q is the identity when the body
 *  was made; in 2-D a plane rotation (see the top of this header).
 *
 *  @param[in]  sys   The system.
 *  @param[in]  body  The body.
 *  @param[out] out   Receives 9 values, row-major, orthogonal with determinant
 *                    +1.
 *  @retval CDYN_OK                    the orientation was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_get_orientation(const cdyn_system *sys, cdyn_rigid body,
                                                double out[9]);

/** Reads the kinetic energy of a rigid body, split into translation and
 *  rotation.
 *
 *  Their sum is sum m |v|^2 / 2 over the members.
 *
 *  @param[in]  sys            The system.
 *  @param[in]  body           The body.
 *  @param[out] translational  Receives M |U_cm|^2 / 2 (J); may be NULL, not
 *                             together with @p rotational.
 *  @param[out] rotational     Receives L . Omega / 2 (J); may be NULL.
 *  @retval CDYN_OK                    the energies were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or both outputs are NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p body is 0, not a rigid body, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p body was dissolved.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_get_kinetic_energy(const cdyn_system *sys, cdyn_rigid body,
                                                   double *translational, double *rotational);

/** Computes the rotation R(Omega, dt) of a rigid body turning at Omega for dt.
 *
 *  The rotation by the angle |Omega| dt about the axis a = Omega / |Omega|, in
 *  the Rodrigues form R x~ = P x~ + cos(|Omega| dt) (1 - P) x~ + sin(|Omega|
 *  dt) a x x~ with P = a a^T. It is what a step applies to the members'
 *  offsets; the identity for Omega = 0. Needs no system.
 *
 *  @param[in]  omega  Omega (rad/s), 3 finite values.
 *  @param[in]  dt     The time (s), finite; may be negative or 0.
 *  @param[out] out    Receives R, 9 values, row-major.
 *  @retval CDYN_OK                    the rotation was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p omega or @p out is NULL, or a value is
 *                                     not finite (also |Omega| dt overflowing);
 *                                     nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_rigid_rotation(const double omega[3], double dt, double out[9]);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_RIGID_H */
