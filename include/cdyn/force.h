/* cdyn: force generators.
 *
 * Each generator is a handle owned by the system; every step sums the forces
 * of all generators on every particle before constraints are solved. Forces
 * on fixed particles are computed but do not move them. Forces applied to
 * particles directly, without a generator, are at the end of this header.
 */
#ifndef CDYN_FORCE_H
#define CDYN_FORCE_H

#include <stdbool.h>
#include <stddef.h>

#include "export.h"
#include "status.h"
#include "system.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Kinds of force generator. Values are pinned. */
typedef enum cdyn_force_kind {
    CDYN_FORCE_GRAVITY = 1,  /**< uniform field: F = m g */
    CDYN_FORCE_SPRING = 2,   /**< spring + dashpot between two particles */
    CDYN_FORCE_DRAG = 3,     /**< linear drag: F = -b v */
    CDYN_FORCE_CALLBACK = 4, /**< user function */
    CDYN_FORCE_PAIR = 5      /**< pair potentials (pair.h) */
} cdyn_force_kind;

/** Uniform gravity: every particle gets F = m g. Its potential energy is
 *  the sum of -m g.x over the particles that are not fixed (a fixed particle
 *  exchanges no energy with the system, so it adds nothing).
 *  @p g has dim finite components (m/s^2). @since 0.1 */
CDYN_API cdyn_status cdyn_force_add_gravity(cdyn_system *sys, const double *g, cdyn_force *out);

/** A spring with a dashpot between particles @p a and @p b: with
 *  d = x_b - x_a, l = |d|, n = d / l, the tension is
 *  T = S (l - R0) + D n.(v_b - v_a), and a receives T n, b receives -T n.
 *  @p stiffness S (N/m) and @p damping D (N s/m) finite and >= 0,
 *  @p rest_length R0 (m) finite and >= 0; potential energy S (l - R0)^2 / 2.
 *  When the two particles coincide exactly the direction is undefined and
 *  the spring exerts no force at that instant (never NaN).
 *  CDYN_ERR_INVALID_ARGUMENT also when a == b. @since 0.1 */
CDYN_API cdyn_status cdyn_force_add_spring(cdyn_system *sys, cdyn_particle a, cdyn_particle b,
                                           double stiffness, double damping, double rest_length,
                                           cdyn_force *out);

/** Linear drag on every particle: F = -b v with @p coefficient b (kg/s),
 *  finite and >= 0. @since 0.1 */
CDYN_API cdyn_status cdyn_force_add_drag(cdyn_system *sys, double coefficient, cdyn_force *out);

/** A user force: @p fn (not NULL) is called with @p user at every force
 *  evaluation of a step (see cdyn_force_fn). The library keeps @p user but
 *  never dereferences it. @p velocity_dependent tells integrators whether
 *  the force depends on velocities (velocity Verlet then adds a corrector
 *  evaluation). @since 0.1 */
CDYN_API cdyn_status cdyn_force_add_callback(cdyn_system *sys, cdyn_force_fn fn, void *user,
                                             bool velocity_dependent, cdyn_force *out);

/** The accumulator a force Jacobian callback adds its blocks to. Opaque;
 *  the library passes one to each call of a cdyn_force_jacobian_fn and it
 *  is valid during that call only. */
typedef struct cdyn_jacobian cdyn_jacobian;

/** Callback giving the Jacobian of a user force (see
 *  cdyn_force_add_callback_with_jacobian): at the state (@p t, @p x, @p v),
 *  laid out as for cdyn_force_fn, add for every pair of particle indices
 *  (i, j) whose force depends on each other's state the blocks dF_i/dx_j
 *  and dF_i/dv_j with cdyn_jacobian_add_block(@p jac, ...). A block added
 *  twice sums; pairs never added count as zero. Return 0 on success; any
 *  other value stops the step with CDYN_ERR_CALLBACK and leaves the system
 *  as before the step. The callback may read @p sys but any call that
 *  changes it returns CDYN_ERR_BUSY. @since 0.1 */
typedef int (*cdyn_force_jacobian_fn)(const cdyn_system *sys, double t, size_t n, int dim,
                                      const double *x, const double *v, cdyn_jacobian *jac,
                                      void *user);

/** As cdyn_force_add_callback, with @p jacobian (not NULL) giving the
 *  force's Jacobian to implicit integrators (CDYN_INTEGRATOR_BACKWARD_EULER).
 *  Without one they differentiate @p fn numerically (1 + dim calls per
 *  Newton iteration, 1 + 2 dim when velocity dependent, plus one call per
 *  product of the Krylov correction; docs/backward_euler.md section 4);
 *  the Jacobian saves those calls. Both functions receive @p user, which
 *  the library keeps but never dereferences. Statuses as
 *  cdyn_force_add_callback, CDYN_ERR_INVALID_ARGUMENT also for a NULL
 *  @p jacobian. The kind is CDYN_FORCE_CALLBACK. @since 0.1 */
CDYN_API cdyn_status cdyn_force_add_callback_with_jacobian(cdyn_system *sys, cdyn_force_fn fn,
                                                           cdyn_force_jacobian_fn jacobian,
                                                           void *user, bool velocity_dependent,
                                                           cdyn_force *out);

/** Adds to @p jac, inside a cdyn_force_jacobian_fn, the blocks of particle
 *  indices @p i and @p j (< the index count given to the callback):
 *  @p dfdx = dF_i/dx_j (N/m) and @p dfdv = dF_i/dv_j (N s/m), each dim x dim
 *  row-major (entry [r * dim + c] = dF_i[r] / dx_j[c]), read during the
 *  call; either may be NULL (a zero block). Blocks that touch a fixed,
 *  removed or rigid-body particle are accepted and ignored (those particles
 *  do not move in the Newton iteration). CDYN_ERR_INVALID_ARGUMENT for a
 *  NULL @p jac, an index out of range or a non-finite entry; the step then
 *  fails with CDYN_ERR_CALLBACK even if the callback returns 0. @since 0.1 */
CDYN_API cdyn_status cdyn_jacobian_add_block(cdyn_jacobian *jac, size_t i, size_t j,
                                             const double *dfdx, const double *dfdv);

/** Changes the field of the gravity generator @p f to @p g (m/s^2, dim
 *  finite values, copied).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or @p g,
 *  non-finite values, or @p f not a gravity generator; handle statuses;
 *  CDYN_ERR_BUSY from a callback. @since 0.1 */
CDYN_API cdyn_status cdyn_force_set_gravity(cdyn_system *sys, cdyn_force f, const double *g);

/** The field of the gravity generator @p f (dim values into @p out).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL arguments or @p f
 *  not a gravity generator; handle statuses. @since 0.1 */
CDYN_API cdyn_status cdyn_force_get_gravity(const cdyn_system *sys, cdyn_force f, double *out);

/** Changes the coefficient b (N s/m, finite, >= 0) of the drag generator
 *  @p f.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys, a bad
 *  value, or @p f not a drag generator; handle statuses; CDYN_ERR_BUSY.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_force_set_drag(cdyn_system *sys, cdyn_force f, double coefficient);

/** The coefficient of the drag generator @p f into *@p out.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL arguments or @p f
 *  not a drag generator; handle statuses. @since 0.1 */
CDYN_API cdyn_status cdyn_force_get_drag(const cdyn_system *sys, cdyn_force f, double *out);

/** Changes a spring's stiffness S (N/m), damping D (N s/m) and rest length
 *  R0 (m), each finite and >= 0, as given to cdyn_force_add_spring; its
 *  ends stay. A damping that becomes zero or non-zero makes the system's
 *  forces stop or start depending on velocity (velocity Verlet's
 *  corrector).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys, a bad
 *  value, or @p f not a spring; handle statuses; CDYN_ERR_BUSY.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_force_set_spring(cdyn_system *sys, cdyn_force f, double stiffness,
                                           double damping, double rest_length);

/** A spring's stiffness, damping and rest length; any output may be NULL,
 *  not all.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys, every
 *  output NULL, or @p f not a spring; handle statuses. @since 0.1 */
CDYN_API cdyn_status cdyn_force_get_spring(const cdyn_system *sys, cdyn_force f,
                                           double *stiffness, double *damping,
                                           double *rest_length);

/** Removes a force generator. @since 0.1 */
CDYN_API cdyn_status cdyn_force_remove(cdyn_system *sys, cdyn_force f);

/** true when @p f is a live force generator of @p sys. @since 0.1 */
CDYN_API bool cdyn_force_is_valid(const cdyn_system *sys, cdyn_force f);

/** The kind of @p f. @since 0.1 */
CDYN_API cdyn_status cdyn_force_get_kind(const cdyn_system *sys, cdyn_force f,
                                         cdyn_force_kind *out);

/** Potential energy (J) of @p f at the current state: gravity and springs
 *  as documented above, pair potentials as in pair.h, 0 for drag and
 *  callbacks. @since 0.1 */
CDYN_API cdyn_status cdyn_force_get_energy(const cdyn_system *sys, cdyn_force f, double *out);

/** Current tension T (N, positive when stretched or opening) of a spring,
 *  by the formula of cdyn_force_add_spring. When the two particles coincide
 *  the dashpot has no direction and T is the elastic part alone, -S R0.
 *  CDYN_ERR_INVALID_ARGUMENT when @p f is not a spring. @since 0.1 */
CDYN_API cdyn_status cdyn_force_get_spring_tension(const cdyn_system *sys, cdyn_force f,
                                                   double *out);

/* ---- Applied forces -----------------------------------------------------
 *
 * A force given to a particle directly, held by the system in one of two
 * accumulators per particle (cdyn_apply_mode) and added to the forces of
 * the generators at every force evaluation of every integrator (backward
 * Euler's Newton iteration and rigid bodies included). An applied force is
 * constant over a step: it has no Jacobian and no potential energy, and the
 * work it does is counted nowhere (neither in the potential energy nor in
 * cdyn_system_get_drive_work), so with applied forces kinetic + potential
 * energy - drive work changes by that work. Fixed and kinematic particles
 * accept applied forces but are not moved by them: a kinematic particle's
 * motion works against them (part of cdyn_system_get_drive_work); a fixed
 * particle keeps its applied force, which acts once it is released.
 * Removing a particle clears its applied force. The accumulators are allocated on the first
 * call that applies a force and grow with the particles; steps allocate
 * nothing for them. */

/** Where an applied force goes. Values are pinned. */
typedef enum cdyn_apply_mode {
    /** Held at every evaluation of every step until cleared
     *  (cdyn_particle_clear_applied_force, cdyn_system_clear_applied_forces). */
    CDYN_APPLY_UNTIL_CLEARED = 1,
    /** Acts during the next successful cdyn_system_step only, at all its
     *  evaluations (over its whole dt: every internal step of RK45, every
     *  substep at spline knots), then cleared: an impulse F dt. A step that
     *  fails changes nothing and keeps it for the next attempt.
     *  cdyn_system_evaluate, which evaluates what the next step starts
     *  from, includes it. */
    CDYN_APPLY_NEXT_STEP = 2
} cdyn_apply_mode;

/** Adds @p force (N; dim finite values, copied) to the applied force of
 *  @p p in the accumulator @p mode. Forces given in one mode add up.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (nothing changed) for a NULL
 *  @p sys or @p force, a non-finite value or an unknown mode;
 *  CDYN_ERR_INVALID_HANDLE / CDYN_ERR_STALE_HANDLE for a bad particle;
 *  CDYN_ERR_NO_MEMORY when the first applied force of the system cannot
 *  allocate the accumulators (nothing changed); CDYN_ERR_BUSY from a
 *  callback. @since 0.1 */
CDYN_API cdyn_status cdyn_particle_apply_force(cdyn_system *sys, cdyn_particle p,
                                               const double *force, cdyn_apply_mode mode);

/** Clears both applied-force accumulators of @p p (a particle without an
 *  applied force: nothing to do).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys; handle
 *  statuses; CDYN_ERR_BUSY from a callback. @since 0.1 */
CDYN_API cdyn_status cdyn_particle_clear_applied_force(cdyn_system *sys, cdyn_particle p);

/** The applied force of @p p (N; dim values into @p out): the sum of both
 *  accumulators, zero when none was applied.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL arguments; handle
 *  statuses. @since 0.1 */
CDYN_API cdyn_status cdyn_particle_get_applied_force(const cdyn_system *sys, cdyn_particle p,
                                                     double *out);

/** Adds @p forces (N; the flat layout of cdyn_system_get_positions, index
 *  i's force at forces[i*dim .. i*dim+dim-1]) to the applied forces of
 *  every particle in the accumulator @p mode, as cdyn_particle_apply_force
 *  on each. Entries of removed indices are ignored.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (nothing changed) for a NULL
 *  @p sys or @p forces, @p count other than index count * dim, a
 *  non-finite value at a live index, or an unknown mode; CDYN_ERR_NO_MEMORY
 *  (nothing changed); CDYN_ERR_BUSY from a callback. @since 0.1 */
CDYN_API cdyn_status cdyn_system_apply_forces(cdyn_system *sys, const double *forces,
                                              size_t count, cdyn_apply_mode mode);

/** Clears the applied forces of every particle, both accumulators.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys;
 *  CDYN_ERR_BUSY from a callback. @since 0.1 */
CDYN_API cdyn_status cdyn_system_clear_applied_forces(cdyn_system *sys);

/** The applied forces of every particle (N; sum of both accumulators) in
 *  the flat layout of cdyn_system_get_positions, removed indices and
 *  particles without an applied force as zeros. @p capacity is the length
 *  of @p out in doubles.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (nothing written) for NULL
 *  arguments or @p capacity below index count * dim. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_applied_forces(const cdyn_system *sys, double *out,
                                                    size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_FORCE_H */
