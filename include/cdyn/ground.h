/* cdyn: grounds -- surfaces H(x) = 0 that push particles back out.
 *
 * A ground is a handle owned by a system. It is described by a function
 * H of position that is positive above the ground, zero on it and negative
 * below. Several grounds may exist at once; their
 * forces add. docs/ground.md derives the model; in short, for a particle at
 * x with velocity U below a ground (H(x) < 0), with g = grad H(x):
 *
 *   n   = g / |g|             unit normal, pointing out of the ground
 *   d   = -H / |g|            penetration depth (> 0), to first order
 *   v_n = n . U               normal speed (< 0 while sinking)
 *   N   = max(0, S d - c v_n) normal force magnitude, never pulling
 *   U_t = U - v_n n           tangential velocity
 *   F   = N n - mu N U_t / sqrt(|U_t|^2 + v_s^2)
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
 * part of cdyn_system_get_potential_energy.
 *
 * Defaults of a new ground: stiffness 1e4 N/m, damping 0, friction 0,
 * friction speed 0.01 m/s (see cdyn_ground_set_friction_speed for why).
 *
 * Shapes and their H (dim = 2 or 3 is the system's dimension):
 *   plane        H = (a . x - b) / |a|       normal a, offset b
 *   sphere       H = |x - c| - R   (outside: the ball is solid)
 *                H = R - |x - c|   (inside: a spherical bowl or shell)
 *   height field H = x_up - f(other axes)   f interpolated from samples
 *   callback     what the function returns
 *
 * Queries read the committed state: the positions and velocities after the
 * last step or set call, never an intermediate stage of a step.
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

/** The shape of a ground. Values are pinned. @since 0.1 */
typedef enum cdyn_ground_kind {
    CDYN_GROUND_PLANE = 1,       /**< a plane (a line in 2-D) */
    CDYN_GROUND_SPHERE = 2,      /**< a sphere (a circle in 2-D), solid or hollow */
    CDYN_GROUND_HEIGHTFIELD = 3, /**< heights sampled on a grid (a profile in 2-D) */
    CDYN_GROUND_CALLBACK = 4     /**< a user function gives H and grad H */
} cdyn_ground_kind;

/** A ground given by a user function. At time @p t (s) and the point @p x
 *  (@p dim doubles) it writes H(x, t) into *@p h, grad H(x, t) into
 *  @p grad and the velocity of the ground's material at x into
 *  @p velocity (@p dim doubles each, cleared to zero before the call: a
 *  ground that does not move leaves it). H must be positive above the
 *  ground and negative below, and grad H must not vanish where H < 0 (the
 *  normal is grad H / |grad H|). Damping and friction act on the
 *  particle's velocity relative to @p velocity; a moving ground should
 *  give H and the velocity consistently (for a surface carried by the
 *  velocity field w, dH/dt = -grad H . w). With a motion attached
 *  (cdyn_ground_set_motion) @p x, @p grad and @p velocity are in the
 *  ground's own frame. @p sys is the system (read-only: calls that change
 *  it return CDYN_ERR_BUSY). Return 0 on success; any other value, a
 *  non-finite output or a zero gradient below the ground makes the calling
 *  function fail with CDYN_ERR_CALLBACK (a step then leaves the system as
 *  it was). Called once per movable particle and force evaluation (more for
 *  a Jacobian). @since 0.1 */
typedef int (*cdyn_ground_fn)(const cdyn_system *sys, double t, int dim, const double *x,
                              double *h, double *grad, double *velocity, void *user);

/** Adds a plane ground {x : @p normal . x = @p offset}: H = (normal . x -
 *  offset) / |normal|, so the side @p normal points to is above. @p normal
 *  is dim finite values, not all zero (need not be unit; it is normalized
 *  and so is the offset); @p offset finite, in length units times |normal|.
 *  On success *@p out is the new ground's handle, with the default
 *  settings (header comment).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys, @p normal
 *  or @p out, a non-finite or zero normal, a non-finite offset;
 *  CDYN_ERR_BUSY from inside a step; CDYN_ERR_NO_MEMORY (nothing changed).
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_ground_add_plane(cdyn_system *sys, const double *normal, double offset,
                                           cdyn_ground *out);

/** Adds a sphere ground of centre @p center (dim finite values, copied)
 *  and @p radius (finite, > 0, length units); a circle in 2-D. With
 *  @p inside false the ball is solid ground and particles stay outside it:
 *  H = |x - c| - R. With @p inside true the ground is everything outside
 *  the sphere and particles stay inside it (a bowl, a closed shell):
 *  H = R - |x - c|. |grad H| = 1, so -H is the exact distance to the
 *  sphere. At the centre itself, where the normal is undefined, the normal
 *  is taken along the last axis (+y in 2-D, +z in 3-D; only an outside
 *  sphere can push there).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys, @p center
 *  or @p out, non-finite values, a radius <= 0; CDYN_ERR_BUSY;
 *  CDYN_ERR_NO_MEMORY (nothing changed). @since 0.1 */
CDYN_API cdyn_status cdyn_ground_add_sphere(cdyn_system *sys, const double *center,
                                            double radius, bool inside, cdyn_ground *out);

/** Adds a height-field ground from @p desc (see cdyn_heightfield_desc; the
 *  samples are copied, @p desc is read during the call only). The
 *  interpolation (bilinear or bicubic spline) and the clamping outside the
 *  grid are those of cdyn_heightfield_evaluate.
 *
 *  In 3-D: heights f(x, y) on an nx x ny grid (nx, ny >= 2) are measured
 *  along the axis desc->up_axis; the grid's x and y are the other two axes
 *  in increasing order. H = x_up - f, grad H = e_up - grad f.
 *
 *  In 2-D the height field is a profile: desc->ny must be 1 and samples
 *  holds nx >= 2 heights f(origin[0] + i spacing[0]); origin[1] and
 *  spacing[1] are ignored. up_axis 1 (or 2, the default, read as the last
 *  axis) gives the ground y = f(x); up_axis 0 gives x = f(y). BILINEAR is
 *  then piecewise linear, BICUBIC the C2 not-a-knot cubic spline through
 *  the samples (the 1-D case of the bicubic rule).
 *
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys, @p desc or
 *  @p out, and every description cdyn_heightfield_evaluate refuses (bad
 *  size field, grid below 2 x 2 -- in 2-D: nx < 2 or ny != 1 --, NULL or
 *  non-finite samples, bad spacing, origin, interpolation or up_axis);
 *  CDYN_ERR_BUSY; CDYN_ERR_NO_MEMORY (nothing changed). @since 0.1 */
CDYN_API cdyn_status cdyn_ground_add_heightfield(cdyn_system *sys,
                                                 const cdyn_heightfield_desc *desc,
                                                 cdyn_ground *out);

/** Adds a ground given by @p fn (not NULL; see cdyn_ground_fn). The system
 *  keeps @p fn and @p user (never dereferenced nor freed by the library;
 *  @p user must stay valid while the ground exists). The Jacobian of its
 *  force (cdyn_ground_get_jacobian, implicit integrators) needs the Hessian
 *  of H, which the function does not give: it is taken by central
 *  differences of grad H with steps 6e-6 max(1, |x_k|) (2 dim extra calls
 *  per contact).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys, @p fn or
 *  @p out; CDYN_ERR_BUSY; CDYN_ERR_NO_MEMORY (nothing changed).
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_ground_add_callback(cdyn_system *sys, cdyn_ground_fn fn, void *user,
                                              cdyn_ground *out);

/** Moves @p ground with the rigid motion @p motion (motion.h) from the
 *  system's current time t_s on, as T(t) T(t_s)^-1: H(x, t) = H_0(T(t_s)
 *  T(t)^-1 x) with H_0 the ground as it is at t_s. Damping and friction act
 *  on the particles' velocities relative to the ground's material, whose
 *  velocity at x is p' + omega x (x - p) (plus the surface velocity). A
 *  shaker table is a plane with an OSCILLATION motion; a turntable a plane
 *  with a ROTATION. A new motion continues from where the old one left
 *  the ground; NULL stops it there. The description is copied. The work
 *  the ground does on the particles through its motion is part of
 *  cdyn_system_get_drive_work.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or a bad
 *  description; CDYN_ERR_CALLBACK when a callback motion fails at the
 *  current time (nothing changed); handle statuses; CDYN_ERR_BUSY.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_ground_set_motion(cdyn_system *sys, cdyn_ground ground,
                                            const cdyn_motion_desc *motion);

/** Whether a motion moves @p ground (*@p moving) and, if so and @p out is
 *  not NULL, a copy of its description.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL @p sys or @p moving;
 *  handle statuses. @since 0.1 */
CDYN_API cdyn_status cdyn_ground_get_motion(const cdyn_system *sys, cdyn_ground ground,
                                            cdyn_motion_desc *out, bool *moving);

/** The velocity (m/s, dim finite values) of the ground's surface material
 *  relative to the ground itself, in the ground's own frame: a conveyor
 *  belt (default zero). It should be tangent to the ground: friction and
 *  damping act on the particles' velocities relative to it, so a part
 *  along the normal would push or pull through the damping. Its work is
 *  part of cdyn_system_get_drive_work.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL or non-finite
 *  values; handle statuses; CDYN_ERR_BUSY. @since 0.1 */
CDYN_API cdyn_status cdyn_ground_set_surface_velocity(cdyn_system *sys, cdyn_ground ground,
                                                      const double *velocity);

/** The surface velocity of @p ground (dim values into @p out).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL; handle statuses.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_ground_get_surface_velocity(const cdyn_system *sys,
                                                      cdyn_ground ground, double *out);

/** The velocity (m/s, dim values into @p out) of the ground's material at
 *  the point @p x (dim finite values) at the system's current time: its
 *  motion's, its surface velocity and, for a callback ground, the velocity
 *  its function gives. Friction acts against the particles' velocities
 *  relative to this one.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL or non-finite
 *  arguments; CDYN_ERR_CALLBACK from a callback; handle statuses.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_ground_get_velocity(const cdyn_system *sys, cdyn_ground ground,
                                              const double *x, double *out);

/** Removes @p ground and frees what it holds; its handle becomes stale.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys;
 *  CDYN_ERR_INVALID_HANDLE (zero, wrong kind, another system's);
 *  CDYN_ERR_STALE_HANDLE (already removed); CDYN_ERR_BUSY. @since 0.1 */
CDYN_API cdyn_status cdyn_ground_remove(cdyn_system *sys, cdyn_ground ground);

/** true when @p ground is a live ground of @p sys (false for NULL). Sets
 *  no error message. @since 0.1 */
CDYN_API bool cdyn_ground_is_valid(const cdyn_system *sys, cdyn_ground ground);

/** The shape of @p ground into *@p out.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL; CDYN_ERR_INVALID_HANDLE;
 *  CDYN_ERR_STALE_HANDLE. @since 0.1 */
CDYN_API cdyn_status cdyn_ground_get_kind(const cdyn_system *sys, cdyn_ground ground,
                                          cdyn_ground_kind *out);

/** Sets the stiffness S (N/m, finite, >= 0; default 1e4) of @p ground: a
 *  particle of mass m resting on it under gravity g sinks m g / S. An
 *  explicit integrator needs dt well below sqrt(m / S) (symplectic Euler is
 *  stable for dt < 2 sqrt(m / S)). S = 0 makes the ground push with its
 *  damping only.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or a bad
 *  value (nothing changed); CDYN_ERR_INVALID_HANDLE; CDYN_ERR_STALE_HANDLE;
 *  CDYN_ERR_BUSY. @since 0.1 */
CDYN_API cdyn_status cdyn_ground_set_stiffness(cdyn_system *sys, cdyn_ground ground,
                                               double stiffness);

/** The stiffness S (N/m). Statuses as cdyn_ground_get_kind. @since 0.1 */
CDYN_API cdyn_status cdyn_ground_get_stiffness(const cdyn_system *sys, cdyn_ground ground,
                                               double *out);

/** Sets the normal damping c (N s/m, finite, >= 0; default 0): below the
 *  ground the normal force is max(0, S d - c v_n), a dashpot along the
 *  normal that never pulls. c = 2 sqrt(m S) damps a particle of mass m
 *  critically. The dashpot engages at touch-down, so the force jumps by
 *  -c v_n there. Statuses as cdyn_ground_set_stiffness. @since 0.1 */
CDYN_API cdyn_status cdyn_ground_set_damping(cdyn_system *sys, cdyn_ground ground,
                                             double damping);

/** The normal damping c (N s/m). Statuses as cdyn_ground_get_kind. @since 0.1 */
CDYN_API cdyn_status cdyn_ground_get_damping(const cdyn_system *sys, cdyn_ground ground,
                                             double *out);

/** Sets the friction coefficient mu (finite, >= 0; default 0, frictionless):
 *  a sliding particle is braked by mu N against its tangential velocity.
 *  Statuses as cdyn_ground_set_stiffness. @since 0.1 */
CDYN_API cdyn_status cdyn_ground_set_friction(cdyn_system *sys, cdyn_ground ground, double mu);

/** The friction coefficient mu. Statuses as cdyn_ground_get_kind. @since 0.1 */
CDYN_API cdyn_status cdyn_ground_get_friction(const cdyn_system *sys, cdyn_ground ground,
                                              double *out);

/** Sets the friction speed v_s (m/s, finite, > 0; default 0.01), the
 *  tangential speed below which friction fades to zero: the friction force
 *  is -mu N U_t / sqrt(|U_t|^2 + v_s^2). Smaller v_s is closer to Coulomb's
 *  law (less creep: a particle held on a slope at the fraction r < 1 of
 *  the friction limit creeps at v_s r / sqrt(1 - r^2)) but stiffer: below
 *  v_s friction is a viscous brake of rate mu N / (m v_s), about
 *  mu g / v_s for a particle resting under gravity g, and an explicit
 *  integrator stops it without overshoot only while dt mu g / v_s < 1
 *  (diverges beyond 2). The default keeps dt mu g / v_s below 1 (0.981) for the
 *  usual dt = 1e-3 s, mu <= 1 and g = 9.81 m/s^2, while a slide at 1 m/s
 *  loses under 1e-4 of its friction. Statuses as cdyn_ground_set_stiffness.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_ground_set_friction_speed(cdyn_system *sys, cdyn_ground ground,
                                                    double speed);

/** The friction speed v_s (m/s). Statuses as cdyn_ground_get_kind.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_ground_get_friction_speed(const cdyn_system *sys, cdyn_ground ground,
                                                    double *out);

/** Evaluates the ground's function at the point @p x (dim finite values):
 *  H(x) into *@p h and grad H(x) into @p grad (dim values); each output
 *  may be NULL. Useful to draw a ground as the library sees it.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or @p x or
 *  a non-finite @p x; CDYN_ERR_INVALID_HANDLE; CDYN_ERR_STALE_HANDLE;
 *  CDYN_ERR_CALLBACK when a callback ground's function fails (nothing
 *  written). @since 0.1 */
CDYN_API cdyn_status cdyn_ground_evaluate(const cdyn_system *sys, cdyn_ground ground,
                                          const double *x, double *h, double *grad);

/** The number of movable particles below @p ground (H < 0) at the committed
 *  state into *@p out.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL; CDYN_ERR_INVALID_HANDLE;
 *  CDYN_ERR_STALE_HANDLE; CDYN_ERR_CALLBACK (callback ground). @since 0.1 */
CDYN_API cdyn_status cdyn_ground_get_contact_count(const cdyn_system *sys, cdyn_ground ground,
                                                   size_t *out);

/** The penetration depth d = -H / |grad H| (length units) of @p particle
 *  into @p ground at the committed state into *@p out, 0 when it is on or
 *  above it. A
 *  geometric query: answered for fixed particles too.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL; CDYN_ERR_INVALID_HANDLE
 *  or CDYN_ERR_STALE_HANDLE for a bad ground or particle handle;
 *  CDYN_ERR_CALLBACK. @since 0.1 */
CDYN_API cdyn_status cdyn_ground_get_penetration(const cdyn_system *sys, cdyn_ground ground,
                                                 cdyn_particle particle, double *out);

/** The sums over all movable particles of the normal forces N n and of the
 *  friction forces that @p ground exerts at the committed state (N): 3
 *  values each (in 2-D the third is 0); either pointer may be NULL. These
 *  are the forces the next step starts from (for the explicit Euler
 *  variants, the forces it uses).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys;
 *  CDYN_ERR_INVALID_HANDLE; CDYN_ERR_STALE_HANDLE; CDYN_ERR_CALLBACK
 *  (nothing written). @since 0.1 */
CDYN_API cdyn_status cdyn_ground_get_total_force(const cdyn_system *sys, cdyn_ground ground,
                                                 double normal[3], double friction[3]);

/** The contact force (N) of every ground on every particle index at the
 *  committed state and time, in the flat layout of
 *  cdyn_system_get_positions: for each particle the sum over the grounds
 *  of the normal force N n and the friction force, as
 *  cdyn_ground_get_total_force sums them over the particles. Fixed and
 *  kinematic particles, which grounds do not act on, removed indices and
 *  particles above every ground get zeros. @p capacity is the length of
 *  @p out in doubles.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (nothing written) for NULL
 *  arguments or @p capacity below index count * dim; CDYN_ERR_CALLBACK when
 *  a callback ground or motion fails (@p out then unspecified).
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_contact_forces(const cdyn_system *sys, double *out,
                                                    size_t capacity);

/** The penalty energy sum S H^2 / (2 |grad H|^2) over the movable particles
 *  below @p ground at the committed state (J) into *@p out: the ground's
 *  share of cdyn_system_get_potential_energy. Exactly the potential of the
 *  normal force for planes and spheres (|grad H| constant); for other
 *  shapes the force differs from minus its gradient by O(S d^2 |grad grad H|).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL; CDYN_ERR_INVALID_HANDLE;
 *  CDYN_ERR_STALE_HANDLE; CDYN_ERR_CALLBACK. @since 0.1 */
CDYN_API cdyn_status cdyn_ground_get_energy(const cdyn_system *sys, cdyn_ground ground,
                                            double *out);

/** The Jacobian of the force F (normal + friction) that @p ground exerts on
 *  @p particle, at the committed state: dF/dx into @p dfdx (N/m) and dF/dv
 *  into @p dfdv (N s/m), each dim x dim row-major (entry [r * dim + c] is
 *  dF_r / d(x or v)_c), either may be NULL. Analytic, with the Hessian of
 *  H for curved grounds (central differences of grad H for callback
 *  grounds). Zero when the particle is on or above the ground, or fixed.
 *  Where the force is not differentiable the blocks are those of the side
 *  the state belongs to: no contact at H >= 0, no normal force (and no
 *  friction) where S d <= c v_n. Implicit integrators use the same
 *  blocks.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys;
 *  CDYN_ERR_INVALID_HANDLE or CDYN_ERR_STALE_HANDLE for a bad ground or
 *  particle handle; CDYN_ERR_CALLBACK (nothing written). @since 0.1 */
CDYN_API cdyn_status cdyn_ground_get_jacobian(const cdyn_system *sys, cdyn_ground ground,
                                              cdyn_particle particle, double *dfdx,
                                              double *dfdv);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_GROUND_H */
