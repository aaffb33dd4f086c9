/** @file
 * @brief Grounds: surfaces H(x) = 0 that push particles back out, with
 * damping and friction.
 *
 * A ground is a handle owned by a system. It is described by a function
 * H of position that is positive above the ground, zero on it and negative
 * below. Several grounds may exist at once; their
 * forces add. docs/ground.md derives the model; in short, for a particle at
 * x with velocity U below a ground (H(x) < 0), with g = grad H(x):
 *
 *     n   = g / |g|             unit normal, pointing out of the ground
 *     d   = -H / |g|            penetration depth (> 0), to first order
 *     v_n = n . U               normal speed (< 0 while sinking)
 *     N   = max(0, S d - c v_n) normal force magnitude, never pulling
 *     U_t = U - v_n n           tangential velocity
 *     F   = N n - mu N U_t / sqrt(|U_t|^2 + v_s^2)
 *
 * with the ground's stiffness S (N/m), normal damping c (N s/m), friction
 * coefficient mu (dimensionless) and friction speed v_s (m/s). With c = 0
 * the normal force is the penalty -S H/|g| g/|g| exactly. The friction
 * opposes the tangential velocity with magnitude mu N when |U_t| >> v_s;
 * below v_s it fades linearly to zero, so the force is a smooth function of
 * the velocity and a resting particle does not chatter. The price is creep:
 * a particle held by friction on a slope whose tangential load is a
 * fraction r = F_t / (mu N) < 1 of the friction limit creeps at the speed
 * v_s r / sqrt(1 - r^2) (on an incline of angle theta, r = tan(theta) / mu).
 *
 * Above or on a ground (H >= 0) a particle feels nothing from it. Grounds
 * act on movable particles only: a fixed particle (infinite inertia) is
 * not pushed, not counted as a contact and adds no energy. The penalty
 * energy S H^2 / (2 |g|^2) = S d^2 / 2 of every particle below a ground is
 * part of cdyn_system_get_potential_energy().
 *
 * Defaults of a new ground: stiffness 1e4 N/m, damping 0, friction 0,
 * friction speed 0.01 m/s (see cdyn_ground_set_friction_speed() for why).
 *
 * Shapes and their H (dim = 2 or 3 is the system's dimension):
 *
 *     plane        H = (a . x - b) / |a|       normal a, offset b
 *     sphere       H = |x - c| - R   (outside: the ball is solid)
 *                  H = R - |x - c|   (inside: a spherical bowl or shell)
 *     height field H = x_up - f(other axes)   f interpolated from samples
 *     callback     what the function returns
 *
 * Queries read the committed state: the positions and velocities after the
 * last step or set call, never an intermediate stage of a step. Guide:
 * docs/ground.md.
 */
#ifndef CDYN_GROUND_H
#define CDYN_GROUND_H

#include <stdbool.h>
#include <stddef.h>

#include "export.h"
#include "motion.h"
#include "shapes.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The shapes of a ground, read with cdyn_ground_get_kind().
 *
 *  The values are pinned.
 *  @since 0.1
 */
typedef enum cdyn_ground_kind {
    CDYN_GROUND_PLANE = 1,       /**< A plane (a line in 2-D). */
    CDYN_GROUND_SPHERE = 2,      /**< A sphere (a circle in 2-D), solid or hollow. */
    CDYN_GROUND_HEIGHTFIELD = 3, /**< Heights sampled on a grid (a profile in 2-D). */
    CDYN_GROUND_CALLBACK = 4     /**< A user function gives H and grad H. */
} cdyn_ground_kind;

/** A ground given by a user function (cdyn_ground_add_callback()).
 *
 *  At time @p t and the point @p x the function writes H(x, t), grad H(x, t)
 *  and the velocity of the ground's material at x. H must be positive above the
 *  ground and negative below, and grad H must not vanish where H < 0 (the
 *  normal is grad H / |grad H|). Damping and friction act on the particle's
 *  velocity relative to @p velocity; a moving ground should give H and the
 *  velocity consistently (for a surface carried by the velocity field w,
 *  dH/dt = -grad H . w). With a motion attached (cdyn_ground_set_motion())
 *  @p x, @p grad and @p velocity are in the ground's own frame. Called once per
 *  movable particle and force evaluation (more for a Jacobian). The function
 *  may read @p sys; calls that change it return CDYN_ERR_BUSY.
 *
 *  @param[in]  sys       The system, read only.
 *  @param[in]  t         Time (s).
 *  @param[in]  dim       The dimension, 2 or 3.
 *  @param[in]  x         The point (m), @p dim values.
 *  @param[out] h         Receives H(x, t) (m, or any length-like unit whose
 *                        gradient is dimensionless near the surface).
 *  @param[out] grad      Receives grad H(x, t), @p dim values.
 *  @param[out] velocity  Receives the velocity of the ground's material at x
 *                        (m/s), @p dim values, cleared to zero before the call:
 *                        a ground that does not move leaves it.
 *  @param[in]  user      The pointer given to cdyn_ground_add_callback().
 *  @return 0 on success; any other value, a non-finite output or a zero
 *          gradient below the ground makes the calling function fail with
 *          CDYN_ERR_CALLBACK (a step then leaves the system as it was).
 *  @since 0.1
 */
typedef int (*cdyn_ground_fn)(const cdyn_system *sys, double t, int dim, const double *x,
                              double *h, double *grad, double *velocity, void *user);

/** Adds a plane ground (a line in 2-D): H = (normal . x - offset) / |normal|.
 *
 *  The side @p normal points to is above. The normal need not be unit: it is
 *  normalized, and so is the offset. The new ground has the default settings
 *  (see the top of this header).
 *
 *  @param[in,out] sys     The system.
 *  @param[in]     normal  dim finite values, not all zero; copied.
 *  @param[in]     offset  The offset (m, times |normal|), finite.
 *  @param[out]    out     Receives the ground's handle.
 *  @retval CDYN_OK                    the ground was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, @p normal is
 *                                     NULL, not finite or zero, or @p offset is
 *                                     not finite (also after the division by
 *                                     |normal|).
 *  @retval CDYN_ERR_NO_MEMORY         growing the storage of grounds failed;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_add_plane(cdyn_system *sys, const double *normal, double offset,
                                           cdyn_ground *out);

/** Adds a sphere ground (a circle in 2-D), solid or hollow.
 *
 *  With @p inside false the ball is solid ground and particles stay outside it:
 *  H = |x - c| - R. With @p inside true the ground is everything outside the
 *  sphere and particles stay inside it (a bowl, a closed shell): H = R - |x -
 *  c|. |grad H| = 1, so -H is the exact distance to the sphere. At the centre
 *  itself, where the normal is undefined, the normal is taken along the last
 *  axis (+y in 2-D, +z in 3-D; only an outside sphere can push there).
 *
 *  @param[in,out] sys     The system.
 *  @param[in]     center  The centre c (m), dim finite values, copied.
 *  @param[in]     radius  R (m), finite and > 0.
 *  @param[in]     inside  false for a solid ball, true for a hollow shell.
 *  @param[out]    out     Receives the ground's handle.
 *  @retval CDYN_OK                    the ground was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p center or @p out is NULL, a
 *                                     value of @p center is not finite, or
 *                                     @p radius is not finite and > 0.
 *  @retval CDYN_ERR_NO_MEMORY         growing the storage of grounds failed;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_add_sphere(cdyn_system *sys, const double *center,
                                            double radius, bool inside, cdyn_ground *out);

/** Adds a height-field ground, heights sampled on a grid (a profile in 2-D).
 *
 *  The interpolation (bilinear or bicubic spline) and the clamping outside the
 *  grid are those of cdyn_heightfield_evaluate().
 *
 *  In 3-D: heights f(x, y) on an nx x ny grid (nx, ny >= 2) are measured along
 *  the axis desc->up_axis; the grid's x and y are the other two axes in
 *  increasing order. H = x_up - f, grad H = e_up - grad f.
 *
 *  In 2-D the height field is a profile: desc->ny must be 1 and samples holds
 *  nx >= 2 heights f(origin[0] + i spacing[0]); origin[1] and spacing[1] are
 *  ignored. up_axis 1 (or 2, the default, read as the last axis) gives the
 *  ground y = f(x); up_axis 0 gives x = f(y). BILINEAR is then piecewise
 *  linear, BICUBIC the C2 not-a-knot cubic spline through the samples (the 1-D
 *  case of the bicubic rule).
 *
 *  @param[in,out] sys   The system.
 *  @param[in]     desc  The height field's description (shapes.h), read during
 *                       the call; the samples are copied.
 *  @param[out]    out   Receives the ground's handle.
 *  @retval CDYN_OK                    the ground was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p desc or @p out is NULL, or the
 *                                     description is one
 *                                     cdyn_heightfield_evaluate() refuses: a
 *                                     size field other than
 *                                     sizeof(cdyn_heightfield_desc), a grid
 *                                     below 2 x 2 (in 2-D: nx < 2 or ny != 1),
 *                                     NULL or non-finite samples, a bad
 *                                     spacing, origin, interpolation or
 *                                     up_axis.
 *  @retval CDYN_ERR_NO_MEMORY         an allocation failed; nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_add_heightfield(cdyn_system *sys,
                                                 const cdyn_heightfield_desc *desc,
                                                 cdyn_ground *out);

/** Adds a ground given by a user function.
 *
 *  The Jacobian of its force (cdyn_ground_get_jacobian(), implicit integrators)
 *  needs the Hessian of H, which the function does not give: it is taken by
 *  central differences of grad H with steps 6e-6 max(1, |x_k|) (2 dim extra
 *  calls per contact).
 *
 *  @param[in,out] sys   The system.
 *  @param[in]     fn    The function (cdyn_ground_fn); not NULL. Kept by the
 *                       system.
 *  @param[in]     user  Passed back to @p fn; kept while the ground exists and
 *                       never dereferenced or freed by the library. May be
 *                       NULL.
 *  @param[out]    out   Receives the ground's handle.
 *  @retval CDYN_OK                    the ground was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p fn or @p out is NULL.
 *  @retval CDYN_ERR_NO_MEMORY         growing the storage of grounds failed;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_add_callback(cdyn_system *sys, cdyn_ground_fn fn, void *user,
                                              cdyn_ground *out);

/** Sets the tag of a callback ground.
 *
 *  A tag is an integer of the caller's choosing that a snapshot holds in
 *  place of the function and its user pointer; cdyn_system_load() asks its
 *  resolver for them by tag (snapshot.h). 0 until set.
 *
 *  @param[in,out] sys     The system.
 *  @param[in]     ground  A callback ground (CDYN_GROUND_CALLBACK).
 *  @param[in]     tag     Any value.
 *  @retval CDYN_OK                    the tag was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or @p ground is not a
 *                                     callback ground.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_set_tag(cdyn_system *sys, cdyn_ground ground, uint64_t tag);

/** Reads the tag of a callback ground.
 *
 *  @param[in]  sys     The system.
 *  @param[in]  ground  A callback ground.
 *  @param[out] out     Receives the tag (0 unless set).
 *  @retval CDYN_OK                    the tag was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p ground is
 *                                     not a callback ground.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_get_tag(const cdyn_system *sys, cdyn_ground ground,
                                         uint64_t *out);

/** Moves a ground with a prescribed rigid motion.
 *
 *  From the system's current time t_s on, the ground moves as T(t) T(t_s)^-1:
 *  H(x, t) = H_0(T(t_s) T(t)^-1 x) with H_0 the ground as it is at t_s. Damping
 *  and friction act on the particles' velocities relative to the ground's
 *  material, whose velocity at x is p' + omega x (x - p) (plus the surface
 *  velocity). A shaker table is a plane with an OSCILLATION motion; a turntable
 *  a plane with a ROTATION. A new motion continues from where the old one left
 *  the ground. The work the ground does on the particles through its motion is
 *  part of cdyn_system_get_drive_work().
 *
 *  @param[in,out] sys     The system.
 *  @param[in]     ground  The ground.
 *  @param[in]     motion  The motion's description, copied (a callback's
 *                         @c user pointer is kept, never dereferenced). NULL
 *                         stops the motion where the ground is.
 *  @retval CDYN_OK                    the motion was attached or stopped.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or the description is bad
 *                                     (the message names the field).
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @retval CDYN_ERR_CALLBACK          a callback motion (the new one, or the
 *                                     one that places the ground now) failed at
 *                                     the current time; nothing changed.
 *  @retval CDYN_ERR_DIVERGED          a built-in motion overflows to a
 *                                     non-finite state at the current time;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_set_motion(cdyn_system *sys, cdyn_ground ground,
                                            const cdyn_motion_desc *motion);

/** Reads whether a motion moves a ground and, if so, its description.
 *
 *  @param[in]  sys     The system.
 *  @param[in]  ground  The ground.
 *  @param[out] out     Receives a copy of the motion's description when one
 *                      moves the ground (left alone otherwise); may be NULL.
 *  @param[out] moving  Receives true when a motion moves the ground.
 *  @retval CDYN_OK                    the answer was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p moving is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_get_motion(const cdyn_system *sys, cdyn_ground ground,
                                            cdyn_motion_desc *out, bool *moving);

/** Sets the velocity of a ground's surface material relative to the ground: a
 *  conveyor belt.
 *
 *  In the ground's own frame; zero by default. It should be tangent to the
 *  ground: friction and damping act on the particles' velocities relative to
 *  it, so a part along the normal would push or pull through the damping. Its
 *  work is part of cdyn_system_get_drive_work().
 *
 *  @param[in,out] sys       The system.
 *  @param[in]     ground    The ground.
 *  @param[in]     velocity  The velocity (m/s), dim finite values, copied.
 *  @retval CDYN_OK                    the velocity was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p velocity is NULL, or a value
 *                                     is not finite.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_set_surface_velocity(cdyn_system *sys, cdyn_ground ground,
                                                      const double *velocity);

/** Reads the surface velocity of a ground.
 *
 *  @param[in]  sys     The system.
 *  @param[in]  ground  The ground.
 *  @param[out] out     Receives dim values (m/s), in the ground's own frame.
 *  @retval CDYN_OK                    the velocity was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_get_surface_velocity(const cdyn_system *sys,
                                                      cdyn_ground ground, double *out);

/** Reads the velocity of a ground's material at a point, at the system's
 *  current time.
 *
 *  The sum of its motion's velocity there, its surface velocity and, for a
 *  callback ground, the velocity its function gives. Friction acts against the
 *  particles' velocities relative to this one.
 *
 *  @param[in]  sys     The system.
 *  @param[in]  ground  The ground.
 *  @param[in]  x       The point (m), dim finite values.
 *  @param[out] out     Receives dim values (m/s).
 *  @retval CDYN_OK                    the velocity was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p x or @p out is NULL, or a
 *                                     value of @p x is not finite.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @retval CDYN_ERR_CALLBACK          a callback ground or the ground's motion
 *                                     failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_get_velocity(const cdyn_system *sys, cdyn_ground ground,
                                              const double *x, double *out);

/** Removes a ground and frees what it holds.
 *
 *  Its handle becomes stale.
 *
 *  @param[in,out] sys     The system.
 *  @param[in]     ground  The ground.
 *  @retval CDYN_OK                    the ground was removed.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed already.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_remove(cdyn_system *sys, cdyn_ground ground);

/** Tells whether a handle names a live ground of a system.
 *
 *  Sets no status and leaves the last-error message alone.
 *
 *  @param[in] sys     The system, or NULL.
 *  @param[in] ground  Any handle.
 *  @return true when @p ground is a live ground of @p sys; false otherwise and
 *          for a NULL @p sys.
 *  @since 0.1
 */
CDYN_API bool cdyn_ground_is_valid(const cdyn_system *sys, cdyn_ground ground);

/** Reads the shape of a ground.
 *
 *  @param[in]  sys     The system.
 *  @param[in]  ground  The ground.
 *  @param[out] out     Receives its kind.
 *  @retval CDYN_OK                    the kind was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_get_kind(const cdyn_system *sys, cdyn_ground ground,
                                          cdyn_ground_kind *out);

/** Sets the stiffness of a ground.
 *
 *  A particle of mass m resting on it under gravity g sinks m g / S. An
 *  explicit integrator needs dt well below sqrt(m / S) (symplectic Euler is
 *  stable for dt < 2 sqrt(m / S)). S = 0 makes the ground push with its damping
 *  only.
 *
 *  @param[in,out] sys        The system.
 *  @param[in]     ground     The ground.
 *  @param[in]     stiffness  S (N/m), finite and >= 0; default 1e4.
 *  @retval CDYN_OK                    the stiffness was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or the value is not
 *                                     finite and >= 0; nothing changed.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_set_stiffness(cdyn_system *sys, cdyn_ground ground,
                                               double stiffness);

/** Reads the stiffness of a ground.
 *
 *  @param[in]  sys     The system.
 *  @param[in]  ground  The ground.
 *  @param[out] out     Receives S (N/m).
 *  @retval CDYN_OK                    the stiffness was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_get_stiffness(const cdyn_system *sys, cdyn_ground ground,
                                               double *out);

/** Sets the normal damping of a ground.
 *
 *  Below the ground the normal force is max(0, S d - c v_n), a dashpot along
 *  the normal that never pulls. c = 2 sqrt(m S) damps a particle of mass m
 *  critically. The dashpot engages at touch-down, so the force jumps by -c v_n
 *  there.
 *
 *  @param[in,out] sys      The system.
 *  @param[in]     ground   The ground.
 *  @param[in]     damping  c (N s/m), finite and >= 0; default 0.
 *  @retval CDYN_OK                    the damping was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or the value is not
 *                                     finite and >= 0; nothing changed.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_set_damping(cdyn_system *sys, cdyn_ground ground,
                                             double damping);

/** Reads the normal damping of a ground.
 *
 *  @param[in]  sys     The system.
 *  @param[in]  ground  The ground.
 *  @param[out] out     Receives c (N s/m).
 *  @retval CDYN_OK                    the damping was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_get_damping(const cdyn_system *sys, cdyn_ground ground,
                                             double *out);

/** Sets the friction coefficient of a ground.
 *
 *  A sliding particle is braked by mu N against its tangential velocity (see
 *  cdyn_ground_set_friction_speed() for slow particles).
 *
 *  @param[in,out] sys     The system.
 *  @param[in]     ground  The ground.
 *  @param[in]     mu      The coefficient (dimensionless), finite and >= 0;
 *                         default 0, frictionless.
 *  @retval CDYN_OK                    the coefficient was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or the value is not
 *                                     finite and >= 0; nothing changed.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_set_friction(cdyn_system *sys, cdyn_ground ground, double mu);

/** Reads the friction coefficient of a ground.
 *
 *  @param[in]  sys     The system.
 *  @param[in]  ground  The ground.
 *  @param[out] out     Receives mu.
 *  @retval CDYN_OK                    the coefficient was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_get_friction(const cdyn_system *sys, cdyn_ground ground,
                                              double *out);

/** Sets the friction speed of a ground, below which friction fades to zero.
 *
 *  The friction force is -mu N U_t / sqrt(|U_t|^2 + v_s^2). Smaller v_s is
 *  closer to Coulomb's law (less creep: a particle held on a slope at the
 *  fraction r < 1 of the friction limit creeps at v_s r / sqrt(1 - r^2)) but
 *  stiffer: below v_s friction is a viscous brake of rate mu N / (m v_s), about
 *  mu g / v_s for a particle resting under gravity g, and an explicit
 *  integrator stops it without overshoot only while dt mu g / v_s < 1 (it
 *  diverges beyond 2). The default keeps dt mu g / v_s below 1 (0.981) for the
 *  usual dt = 1e-3 s, mu <= 1 and g = 9.81 m/s^2, while a slide at 1 m/s loses
 *  under 1e-4 of its friction.
 *
 *  @param[in,out] sys     The system.
 *  @param[in]     ground  The ground.
 *  @param[in]     speed   v_s (m/s), finite and > 0; default 0.01.
 *  @retval CDYN_OK                    the speed was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or the value is not
 *                                     finite and > 0; nothing changed.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_set_friction_speed(cdyn_system *sys, cdyn_ground ground,
                                                    double speed);

/** Reads the friction speed of a ground.
 *
 *  @param[in]  sys     The system.
 *  @param[in]  ground  The ground.
 *  @param[out] out     Receives v_s (m/s).
 *  @retval CDYN_OK                    the speed was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_get_friction_speed(const cdyn_system *sys, cdyn_ground ground,
                                                    double *out);

/** Evaluates a ground's function H and its gradient at a point, at the system's
 *  current time.
 *
 *  Useful to draw a ground as the library sees it. Nothing is written on
 *  failure.
 *
 *  @param[in]  sys     The system.
 *  @param[in]  ground  The ground.
 *  @param[in]  x       The point (m), dim finite values.
 *  @param[out] h       Receives H(x) (m); may be NULL.
 *  @param[out] grad    Receives grad H(x), dim values; may be NULL.
 *  @retval CDYN_OK                    the values were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p x is NULL, or a value of
 *                                     @p x is not finite.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @retval CDYN_ERR_CALLBACK          a callback ground or the ground's motion
 *                                     failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_evaluate(const cdyn_system *sys, cdyn_ground ground,
                                          const double *x, double *h, double *grad);

/** Counts the movable particles below a ground (H < 0) at the committed state.
 *
 *  Fixed and kinematic particles, which grounds do not act on, are not counted.
 *
 *  @param[in]  sys     The system.
 *  @param[in]  ground  The ground.
 *  @param[out] out     Receives the count.
 *  @retval CDYN_OK                    the count was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @retval CDYN_ERR_CALLBACK          a callback ground or the ground's motion
 *                                     failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_get_contact_count(const cdyn_system *sys, cdyn_ground ground,
                                                   size_t *out);

/** Reads how deep a particle is below a ground at the committed state: d = -H /
 *  |grad H|.
 *
 *  A geometric query: answered for fixed and kinematic particles too.
 *
 *  @param[in]  sys       The system.
 *  @param[in]  ground    The ground.
 *  @param[in]  particle  The particle.
 *  @param[out] out       Receives d (m); 0 when the particle is on or above the
 *                        ground.
 *  @retval CDYN_OK                    the depth was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system; or @p particle is 0, not
 *                                     a particle, or of another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground or @p particle was removed.
 *  @retval CDYN_ERR_CALLBACK          a callback ground or the ground's motion
 *                                     failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_get_penetration(const cdyn_system *sys, cdyn_ground ground,
                                                 cdyn_particle particle, double *out);

/** Sums the normal and the friction forces a ground exerts on all movable
 *  particles at the committed state.
 *
 *  These are the forces the next step starts from (for the explicit Euler
 *  variants, the forces it uses). Nothing is written on failure.
 *
 *  @param[in]  sys       The system.
 *  @param[in]  ground    The ground.
 *  @param[out] normal    Receives the sum of N n (N), 3 values (in 2-D the
 *                        third is 0); may be NULL.
 *  @param[out] friction  Receives the sum of the friction forces (N), 3 values;
 *                        may be NULL.
 *  @retval CDYN_OK                    the sums were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @retval CDYN_ERR_CALLBACK          a callback ground or the ground's motion
 *                                     failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_get_total_force(const cdyn_system *sys, cdyn_ground ground,
                                                 double normal[3], double friction[3]);

/** Copies the contact force of every ground on every particle index into a flat
 *  array.
 *
 *  At the committed state and time, in the layout of
 *  cdyn_system_get_positions(): for each particle the sum over the grounds of
 *  the normal force N n and the friction force, as
 *  cdyn_ground_get_total_force() sums them over the particles. Fixed and
 *  kinematic particles, which grounds do not act on, removed indices and
 *  particles above every ground get zeros.
 *
 *  @param[in]  sys       The system.
 *  @param[out] out       Receives the forces (N); unspecified after a
 *                        CDYN_ERR_CALLBACK.
 *  @param[in]  capacity  The length of @p out in doubles, at least the index
 *                        count times dim.
 *  @retval CDYN_OK                    the forces were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p capacity
 *                                     is short; nothing written.
 *  @retval CDYN_ERR_CALLBACK          a callback ground or a ground's motion
 *                                     failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_contact_forces(const cdyn_system *sys, double *out,
                                                    size_t capacity);

/** Reads the penalty energy of a ground at the committed state.
 *
 *  The sum of S H^2 / (2 |grad H|^2) over the movable particles below it: the
 *  ground's share of cdyn_system_get_potential_energy(). Exactly the potential
 *  of the normal force for planes and spheres (|grad H| constant); for other
 *  shapes the force differs from minus its gradient by O(S d^2 |grad grad H|).
 *
 *  @param[in]  sys     The system.
 *  @param[in]  ground  The ground.
 *  @param[out] out     Receives the energy (J).
 *  @retval CDYN_OK                    the energy was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground was removed.
 *  @retval CDYN_ERR_CALLBACK          a callback ground or the ground's motion
 *                                     failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_get_energy(const cdyn_system *sys, cdyn_ground ground,
                                            double *out);

/** Reads the Jacobian of the force a ground exerts on one particle at the
 *  committed state.
 *
 *  dF/dx and dF/dv of F = normal + friction force. Analytic, with the Hessian
 *  of H for curved grounds (central differences of grad H for callback
 *  grounds). Zero when the particle is on or above the ground, fixed or
 *  kinematic. Where the force is not differentiable the blocks are those of the
 *  side the state belongs to: no contact at H >= 0, no normal force (and no
 *  friction) where S d <= c v_n. Implicit integrators use the same blocks.
 *  Nothing is written on failure.
 *
 *  @param[in]  sys       The system.
 *  @param[in]  ground    The ground.
 *  @param[in]  particle  The particle.
 *  @param[out] dfdx      Receives dF/dx (N/m), dim x dim row-major (entry [r *
 *                        dim + c] is dF_r / dx_c); may be NULL.
 *  @param[out] dfdv      Receives dF/dv (N s/m), laid out as @p dfdx; may be
 *                        NULL.
 *  @retval CDYN_OK                    the blocks were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p ground is 0, not a ground, or of
 *                                     another system; or @p particle is 0, not
 *                                     a particle, or of another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p ground or @p particle was removed.
 *  @retval CDYN_ERR_CALLBACK          a callback ground or the ground's motion
 *                                     failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_ground_get_jacobian(const cdyn_system *sys, cdyn_ground ground,
                                              cdyn_particle particle, double *dfdx,
                                              double *dfdv);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_GROUND_H */
