/* cdyn: rigid bodies -- sets of particles that keep their relative positions.
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
 * are read as usual (cdyn_particle_get_position, bulk arrays, diagnostics,
 * which count them as movable particles). Changing a member directly
 * (cdyn_particle_set_position, _set_velocity, _set_mass, _set_fixed,
 * cdyn_particle_remove) and putting it in a constraint are refused with
 * CDYN_ERR_INVALID_ARGUMENT: move the body with the setters below, or
 * dissolve it first. Bulk setters (cdyn_system_set_positions,
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

/** How a body's state is advanced in a step. Values are pinned.
 *  docs/rigid.md gives both step by step. @since 0.1 */
typedef enum cdyn_rigid_scheme {
    /** The classic rigid-body step, first order: rotate by R(Omega(t), dt), move the
     *  centre with U_cm(t), then update U_cm and L with the force and torque
     *  at the new positions. One force evaluation per step. */
    CDYN_RIGID_FIRST_ORDER = 1,
    /** The default, second order: half a kick with the force and torque at
     *  the start, a drift whose rotation uses the angular velocity at the
     *  half-way orientation, half a kick at the end. Two force evaluations
     *  per step (three when some force depends on velocity). */
    CDYN_RIGID_SECOND_ORDER = 2
} cdyn_rigid_scheme;

/** Makes a rigid body of the @p n particles @p particles (handles, read
 *  during the call only). From now on they keep their present relative
 *  positions. Their velocities are replaced by the rigid motion with the
 *  same momentum and the same angular momentum about the centre of mass
 *  (velocities that already are rigid are kept; otherwise kinetic energy is
 *  lost, as in a perfectly inelastic lock-up). The body frame is the present
 *  world frame, centred at the centre of mass. The scheme is
 *  CDYN_RIGID_SECOND_ORDER. On success *@p out is the body's handle.
 *
 *  @return CDYN_OK;
 *  CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys, @p particles or @p out, @p n
 *  = 0, a particle listed twice, a fixed particle, a particle that is in
 *  another body, in a constraint or on a curve or surface;
 *  CDYN_ERR_INVALID_HANDLE / CDYN_ERR_STALE_HANDLE for a bad particle
 *  handle; CDYN_ERR_SINGULAR when the inertia tensor is singular: one
 *  particle, all particles at one point, or (in 3-D) all on one line (the
 *  smallest principal moment below 1e-10 of the largest); CDYN_ERR_BUSY
 *  from inside a step; CDYN_ERR_NO_MEMORY. On any error nothing changed.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_add(cdyn_system *sys, const cdyn_particle *particles, size_t n,
                                    cdyn_rigid *out);

/** Dissolves @p body: its particles return to free motion with their
 *  current positions and velocities (the body's rigid motion at this
 *  moment), their handles unchanged; the body's handle becomes stale.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys;
 *  CDYN_ERR_INVALID_HANDLE (zero, wrong kind, another system's);
 *  CDYN_ERR_STALE_HANDLE (already dissolved); CDYN_ERR_BUSY. @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_remove(cdyn_system *sys, cdyn_rigid body);

/** true when @p body is a live rigid body of @p sys (false for a NULL
 *  @p sys). Sets no error message. @since 0.1 */
CDYN_API bool cdyn_rigid_is_valid(const cdyn_system *sys, cdyn_rigid body);

/** The body that holds @p particle into *@p out, or 0 when the particle is
 *  free. @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL;
 *  CDYN_ERR_INVALID_HANDLE / CDYN_ERR_STALE_HANDLE for a bad particle
 *  handle. @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_find(const cdyn_system *sys, cdyn_particle particle,
                                     cdyn_rigid *out);

/** The number of particles of @p body into *@p out.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL;
 *  CDYN_ERR_INVALID_HANDLE; CDYN_ERR_STALE_HANDLE. @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_get_particle_count(const cdyn_system *sys, cdyn_rigid body,
                                                   size_t *out);

/** The handles of the particles of @p body, in the order given to
 *  cdyn_rigid_add, into @p out (room for @p capacity handles).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL or a @p capacity
 *  below the particle count (nothing written); CDYN_ERR_INVALID_HANDLE;
 *  CDYN_ERR_STALE_HANDLE. @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_get_particles(const cdyn_system *sys, cdyn_rigid body,
                                              cdyn_particle *out, size_t capacity);

/** Chooses how @p body is advanced (cdyn_rigid_scheme). Takes effect at the
 *  next step; the body's state is not touched.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or an
 *  unknown scheme; CDYN_ERR_INVALID_HANDLE; CDYN_ERR_STALE_HANDLE;
 *  CDYN_ERR_BUSY. @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_set_scheme(cdyn_system *sys, cdyn_rigid body,
                                           cdyn_rigid_scheme scheme);

/** The scheme of @p body into *@p out. Statuses as
 *  cdyn_rigid_get_particle_count. @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_get_scheme(const cdyn_system *sys, cdyn_rigid body,
                                           cdyn_rigid_scheme *out);

/** The total mass M = sum m (kg) of @p body into *@p out. Statuses as
 *  cdyn_rigid_get_particle_count. @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_get_mass(const cdyn_system *sys, cdyn_rigid body, double *out);

/** The centre of mass X_cm = sum m x / M (m; dim values into @p out).
 *  Statuses as cdyn_rigid_get_particle_count. @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_get_center_of_mass(const cdyn_system *sys, cdyn_rigid body,
                                                   double *out);

/** The velocity of the centre of mass U_cm = sum m v / M (m/s; dim values
 *  into @p out). Statuses as cdyn_rigid_get_particle_count. @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_get_velocity(const cdyn_system *sys, cdyn_rigid body,
                                             double *out);

/** Sets the velocity of the centre of mass to @p velocity (m/s; dim finite
 *  values), keeping the angular velocity: every member gets
 *  v = U_cm + Omega x x~.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL or non-finite input
 *  (nothing changed); CDYN_ERR_INVALID_HANDLE; CDYN_ERR_STALE_HANDLE;
 *  CDYN_ERR_BUSY. @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_set_velocity(cdyn_system *sys, cdyn_rigid body,
                                             const double *velocity);

/** The angular momentum about the centre of mass,
 *  L = sum m x~ x (v - U_cm) (kg m^2/s; 3 values into @p out; in 2-D
 *  (0, 0, L)). Statuses as cdyn_rigid_get_particle_count. @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_get_angular_momentum(const cdyn_system *sys, cdyn_rigid body,
                                                     double out[3]);

/** The angular velocity Omega = I^-1 L (rad/s; 3 values into @p out; in
 *  2-D (0, 0, Omega)). Statuses as cdyn_rigid_get_particle_count.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_get_angular_velocity(const cdyn_system *sys, cdyn_rigid body,
                                                     double out[3]);

/** Sets the angular velocity to @p omega (rad/s; 3 finite values; in 2-D
 *  the first two must be 0), keeping the velocity of the centre of mass:
 *  every member gets v = U_cm + Omega x x~, so L becomes I Omega.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL, non-finite input or
 *  (2-D) an in-plane component (nothing changed); CDYN_ERR_INVALID_HANDLE;
 *  CDYN_ERR_STALE_HANDLE; CDYN_ERR_BUSY. @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_set_angular_velocity(cdyn_system *sys, cdyn_rigid body,
                                                     const double omega[3]);

/** The inertia tensor about the centre of mass in world axes,
 *  I(t) = sum m (|x~|^2 1 - x~ x~^T) (kg m^2; 9 values, row-major, into
 *  @p out; 2-D: see the header comment). Statuses as
 *  cdyn_rigid_get_particle_count. @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_get_inertia(const cdyn_system *sys, cdyn_rigid body,
                                            double out[9]);

/** The inertia tensor in the body frame (the world frame when the body was
 *  made; constant): I_body = Q^T I(t) Q with Q the orientation (kg m^2;
 *  9 values, row-major). Statuses as cdyn_rigid_get_particle_count.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_get_body_inertia(const cdyn_system *sys, cdyn_rigid body,
                                                 double out[9]);

/** The orientation Q, the rotation that takes body-frame vectors to world
 *  vectors: x = X_cm + Q b for a member whose body-frame offset is b (its
 *  offset from the centre of mass when the body was made). 9 values,
 *  row-major, orthogonal with determinant +1; the identity when the body
 *  was made; in 2-D a plane rotation (header comment). Statuses as
 *  cdyn_rigid_get_particle_count. @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_get_orientation(const cdyn_system *sys, cdyn_rigid body,
                                                double out[9]);

/** The kinetic energy of @p body (J): the translational part M |U_cm|^2 / 2
 *  into *@p translational and the rotational part L . Omega / 2 into
 *  *@p rotational; either pointer may be NULL, not both. Their sum is
 *  sum m |v|^2 / 2 over the members.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or both
 *  outputs NULL; CDYN_ERR_INVALID_HANDLE; CDYN_ERR_STALE_HANDLE.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_get_kinetic_energy(const cdyn_system *sys, cdyn_rigid body,
                                                   double *translational, double *rotational);

/** The rotation R(Omega, dt) of a rigid body turning at Omega for dt: the rotation by the angle |Omega| dt
 *  about the axis a = Omega / |Omega|, in the Rodrigues form
 *  R x~ = P x~ + cos(|Omega| dt) (1 - P) x~ + sin(|Omega| dt) a x x~ with
 *  P = a a^T, into @p out (9 values, row-major). It is what a step applies
 *  to the members' offsets; the identity for Omega = 0. Needs no system.
 *  @p omega: 3 finite values (rad/s); @p dt finite (s; may be negative or 0).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL or non-finite input
 *  (nothing written). @since 0.1 */
CDYN_API cdyn_status cdyn_rigid_rotation(const double omega[3], double dt, double out[9]);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_RIGID_H */
