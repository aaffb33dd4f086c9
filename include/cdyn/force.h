/** @file
 *  @brief Force generators (gravity, spring-dashpots, drag, user callbacks)
 *  and forces applied to particles directly.
 *
 *  Each generator is an object of the system, named by a cdyn_force() handle;
 *  every force evaluation sums the forces of all generators on every
 *  particle, in slot order, before constraints are solved. Forces on fixed
 *  particles are computed but do not move them. Pair potentials are
 *  generators too (pair.h). Forces applied to particles directly, without a
 *  generator, are at the end of this header. Guide:
 *  docs/forces_integrators.md.
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

/** The kinds of force generator, read with cdyn_force_get_kind().
 *
 *  The values are pinned.
 */
typedef enum cdyn_force_kind {
    CDYN_FORCE_GRAVITY = 1,  /**< Uniform field, F = m g: cdyn_force_add_gravity(). */
    CDYN_FORCE_SPRING = 2,   /**< Spring and dashpot between two particles. */
    CDYN_FORCE_DRAG = 3,     /**< Linear drag, F = -b v: cdyn_force_add_drag(). */
    CDYN_FORCE_CALLBACK = 4, /**< A user function: cdyn_force_add_callback(). */
    CDYN_FORCE_PAIR = 5      /**< Pair potentials over a set of particles (pair.h). */
} cdyn_force_kind;

/** Adds a uniform gravity field: every particle gets F = m g.
 *
 *  Its potential energy is the sum of -m g.x over the particles that are not
 *  fixed (a fixed particle exchanges no energy with the system, so it adds
 *  nothing). Several gravity generators add up.
 *
 *  @param[in,out] sys  The system.
 *  @param[in]     g    The field (m/s^2), dim finite values, copied.
 *  @param[out]    out  Receives the generator's handle.
 *  @retval CDYN_OK                    the generator was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p g or @p out is NULL, or a
 *                                     value of @p g is not finite.
 *  @retval CDYN_ERR_NO_MEMORY         growing the storage of generators failed;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_add_gravity(cdyn_system *sys, const double *g, cdyn_force *out);

/** Adds a spring with a dashpot between two particles.
 *
 *  With d = x_b - x_a, l = |d|, n = d / l, the tension is T = S (l - R0) + D
 *  n.(v_b - v_a); particle a receives T n, particle b receives -T n. The
 *  potential energy is S (l - R0)^2 / 2. When the two particles coincide
 *  exactly the direction is undefined and the spring exerts no force at that
 *  instant (never NaN). The spring is removed with either particle.
 *
 *  @param[in,out] sys          The system.
 *  @param[in]     a            The first particle.
 *  @param[in]     b            The second particle, not @p a.
 *  @param[in]     stiffness    S (N/m), finite and >= 0.
 *  @param[in]     damping      D (N s/m), finite and >= 0; a non-zero one makes
 *                              the force velocity dependent.
 *  @param[in]     rest_length  R0 (m), finite and >= 0.
 *  @param[out]    out          Receives the generator's handle.
 *  @retval CDYN_OK                    the spring was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, @p a and @p b
 *                                     are the same particle, or a parameter is
 *                                     not finite and >= 0.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p a or @p b is 0, not a particle, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p a or @p b was removed.
 *  @retval CDYN_ERR_NO_MEMORY         growing the storage of generators failed;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_add_spring(cdyn_system *sys, cdyn_particle a, cdyn_particle b,
                                           double stiffness, double damping, double rest_length,
                                           cdyn_force *out);

/** Adds linear drag on every particle: F = -b v.
 *
 *  Drag has no potential energy; it makes the forces velocity dependent.
 *
 *  @param[in,out] sys          The system.
 *  @param[in]     coefficient  b (kg/s, that is N s/m), finite and >= 0.
 *  @param[out]    out          Receives the generator's handle.
 *  @retval CDYN_OK                    the generator was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or
 *                                     @p coefficient is not finite and >= 0.
 *  @retval CDYN_ERR_NO_MEMORY         growing the storage of generators failed;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_add_drag(cdyn_system *sys, double coefficient, cdyn_force *out);

/** Adds a user force generator.
 *
 *  @p fn is called at every force evaluation (cdyn_force_fn). Implicit
 *  integrators (CDYN_INTEGRATOR_BACKWARD_EULER) differentiate it numerically;
 *  cdyn_force_add_callback_with_jacobian() gives them its Jacobian instead. The
 *  generator has no potential energy.
 *
 *  @param[in,out] sys                 The system.
 *  @param[in]     fn                  The force function; not NULL.
 *  @param[in]     user                Passed back to @p fn; kept by the system
 *                                     for the generator's lifetime and never
 *                                     dereferenced. May be NULL.
 *  @param[in]     velocity_dependent  true when the force depends on
 *                                     velocities: velocity Verlet then adds a
 *                                     corrector evaluation, and forces are not
 *                                     reused from one step to the next.
 *  @param[out]    out                 Receives the generator's handle.
 *  @retval CDYN_OK                    the generator was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p fn or @p out is NULL.
 *  @retval CDYN_ERR_NO_MEMORY         growing the storage of generators failed;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_add_callback(cdyn_system *sys, cdyn_force_fn fn, void *user,
                                             bool velocity_dependent, cdyn_force *out);

/** The accumulator a force Jacobian callback adds its blocks to.
 *
 *  Opaque. The library passes one to each call of a cdyn_force_jacobian_fn;
 *  it is valid during that call only.
 */
typedef struct cdyn_jacobian cdyn_jacobian;

/** A user force's Jacobian (cdyn_force_add_callback_with_jacobian()).
 *
 *  At the state (@p t, @p x, @p v), laid out as for cdyn_force_fn, the callback
 *  adds with cdyn_jacobian_add_block() the blocks dF_i/dx_j and dF_i/dv_j for
 *  every pair of particle indices (i, j) whose force depends on each other's
 *  state. A block added twice sums; pairs never added count as zero. The
 *  callback may read @p sys, but any call that changes it returns
 *  CDYN_ERR_BUSY.
 *
 *  @param[in]     sys   The system being evaluated; read only.
 *  @param[in]     t     Time (s) of the state.
 *  @param[in]     n     The index count (cdyn_system_get_index_count()).
 *  @param[in]     dim   The dimension, 2 or 3.
 *  @param[in]     x     Positions (m), n * dim values, valid during the call.
 *  @param[in]     v     Velocities (m/s), n * dim values, valid during the
 *                       call.
 *  @param[in,out] jac   The accumulator to add the blocks to, valid during the
 *                       call only.
 *  @param[in]     user  The pointer given to
 *                       cdyn_force_add_callback_with_jacobian().
 *  @return 0 on success; any other value (or a block that
 *          cdyn_jacobian_add_block() refused) stops the step with
 *          CDYN_ERR_CALLBACK and leaves the system as it was before the step.
 *  @since 0.1
 */
typedef int (*cdyn_force_jacobian_fn)(const cdyn_system *sys, double t, size_t n, int dim,
                                      const double *x, const double *v, cdyn_jacobian *jac,
                                      void *user);

/** Adds a user force generator with its Jacobian.
 *
 *  As cdyn_force_add_callback(), with @p jacobian giving the force's Jacobian
 *  to implicit integrators (CDYN_INTEGRATOR_BACKWARD_EULER). Without one they
 *  differentiate @p fn numerically (1 + dim calls per Newton iteration, 1 + 2
 *  dim when velocity dependent, plus one call per product of the Krylov
 *  correction; docs/backward_euler.md section 4); the Jacobian saves those
 *  calls. The kind is CDYN_FORCE_CALLBACK.
 *
 *  @param[in,out] sys                 The system.
 *  @param[in]     fn                  The force function; not NULL.
 *  @param[in]     jacobian            Its Jacobian; not NULL.
 *  @param[in]     user                Passed back to both functions; kept for
 *                                     the generator's lifetime and never
 *                                     dereferenced. May be NULL.
 *  @param[in]     velocity_dependent  true when the force depends on
 *                                     velocities.
 *  @param[out]    out                 Receives the generator's handle.
 *  @retval CDYN_OK                    the generator was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p fn, @p jacobian or @p out is
 *                                     NULL.
 *  @retval CDYN_ERR_NO_MEMORY         growing the storage of generators failed;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_add_callback_with_jacobian(cdyn_system *sys, cdyn_force_fn fn,
                                                           cdyn_force_jacobian_fn jacobian,
                                                           void *user, bool velocity_dependent,
                                                           cdyn_force *out);

/** Adds one pair's blocks to a force Jacobian, inside a cdyn_force_jacobian_fn.
 *
 *  Blocks that touch a fixed, removed or rigid-body particle are accepted and
 *  ignored (those particles do not move in the Newton iteration). A refused
 *  block fails the step with CDYN_ERR_CALLBACK even if the callback returns 0.
 *
 *  @param[in,out] jac   The accumulator the callback received.
 *  @param[in]     i     Index of the particle whose force is differentiated,
 *                       below the index count given to the callback.
 *  @param[in]     j     Index of the particle whose state it is differentiated
 *                       by, below the index count.
 *  @param[in]     dfdx  dF_i/dx_j (N/m), dim x dim row-major (entry [r * dim +
 *                       c] = dF_i[r] / dx_j[c]), read during the call; NULL for
 *                       a zero block.
 *  @param[in]     dfdv  dF_i/dv_j (N s/m), laid out as @p dfdx; NULL for a zero
 *                       block.
 *  @retval CDYN_OK                    the blocks were added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p jac is NULL, @p i or @p j is out of
 *                                     range, or an entry is not finite.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_jacobian_add_block(cdyn_jacobian *jac, size_t i, size_t j,
                                             const double *dfdx, const double *dfdv);

/** Sets the tag of a generator made with a user function.
 *
 *  A tag is an integer of the caller's choosing that a snapshot holds in
 *  place of the functions and the user pointer; cdyn_system_load() asks its
 *  resolver for them by tag (snapshot.h). 0 until set.
 *
 *  @param[in,out] sys  The system.
 *  @param[in]     f    A callback force (CDYN_FORCE_CALLBACK) or a pair
 *                      generator of kind CDYN_PAIR_CALLBACK (pair.h).
 *  @param[in]     tag  Any value.
 *  @retval CDYN_OK                    the tag was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or @p f was made with no
 *                                     user function.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_set_tag(cdyn_system *sys, cdyn_force f, uint64_t tag);

/** Reads the tag of a generator made with a user function.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  f    A callback force or a callback pair potential.
 *  @param[out] out  Receives the tag (0 unless set).
 *  @retval CDYN_OK                    the tag was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p f was
 *                                     made with no user function.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_get_tag(const cdyn_system *sys, cdyn_force f, uint64_t *out);

/** Changes the field of a gravity generator.
 *
 *  @param[in,out] sys  The system.
 *  @param[in]     f    The gravity generator.
 *  @param[in]     g    The new field (m/s^2), dim finite values, copied.
 *  @retval CDYN_OK                    the field was changed.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p g is NULL, a value is not
 *                                     finite, or @p f is not a gravity
 *                                     generator.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_set_gravity(cdyn_system *sys, cdyn_force f, const double *g);

/** Reads the field of a gravity generator.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  f    The gravity generator.
 *  @param[out] out  Receives dim values (m/s^2).
 *  @retval CDYN_OK                    the field was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p f is not
 *                                     a gravity generator.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_get_gravity(const cdyn_system *sys, cdyn_force f, double *out);

/** Changes the coefficient of a drag generator.
 *
 *  @param[in,out] sys          The system.
 *  @param[in]     f            The drag generator.
 *  @param[in]     coefficient  b (kg/s, that is N s/m), finite and >= 0.
 *  @retval CDYN_OK                    the coefficient was changed.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, @p coefficient is not
 *                                     finite and >= 0, or @p f is not a drag
 *                                     generator.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_set_drag(cdyn_system *sys, cdyn_force f, double coefficient);

/** Reads the coefficient of a drag generator.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  f    The drag generator.
 *  @param[out] out  Receives b (kg/s).
 *  @retval CDYN_OK                    the coefficient was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p f is not
 *                                     a drag generator.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_get_drag(const cdyn_system *sys, cdyn_force f, double *out);

/** Changes a spring's stiffness, damping and rest length.
 *
 *  The parameters are those of cdyn_force_add_spring(); its ends stay. A
 *  damping that becomes zero or non-zero makes the system's forces stop or
 *  start depending on velocity (velocity Verlet's corrector).
 *
 *  @param[in,out] sys          The system.
 *  @param[in]     f            The spring.
 *  @param[in]     stiffness    S (N/m), finite and >= 0.
 *  @param[in]     damping      D (N s/m), finite and >= 0.
 *  @param[in]     rest_length  R0 (m), finite and >= 0.
 *  @retval CDYN_OK                    the parameters were changed.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, a parameter is not finite
 *                                     and >= 0, or @p f is not a spring.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_set_spring(cdyn_system *sys, cdyn_force f, double stiffness,
                                           double damping, double rest_length);

/** Reads a spring's stiffness, damping and rest length.
 *
 *  Any output may be NULL, not all of them.
 *
 *  @param[in]  sys          The system.
 *  @param[in]  f            The spring.
 *  @param[out] stiffness    Receives S (N/m); may be NULL.
 *  @param[out] damping      Receives D (N s/m); may be NULL.
 *  @param[out] rest_length  Receives R0 (m); may be NULL.
 *  @retval CDYN_OK                    the parameters were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, every output is NULL, or
 *                                     @p f is not a spring.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_get_spring(const cdyn_system *sys, cdyn_force f,
                                           double *stiffness, double *damping,
                                           double *rest_length);

/** Removes a force generator.
 *
 *  Its handle becomes stale. A callback generator's @c user pointer is no
 *  longer kept; a pair generator releases its particle sets and neighbour lists
 *  (pair.h).
 *
 *  @param[in,out] sys  The system.
 *  @param[in]     f    The generator.
 *  @retval CDYN_OK                    the generator was removed.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed already (also with the
 *                                     particle of a spring).
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_remove(cdyn_system *sys, cdyn_force f);

/** Tells whether a handle names a live force generator of a system.
 *
 *  Sets no status and leaves the last-error message alone.
 *
 *  @param[in] sys  The system, or NULL.
 *  @param[in] f    Any handle.
 *  @return true when @p f is a live force generator of @p sys; false otherwise
 *          and for a NULL @p sys.
 *  @since 0.1
 */
CDYN_API bool cdyn_force_is_valid(const cdyn_system *sys, cdyn_force f);

/** Reads the kind of a force generator.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  f    The generator.
 *  @param[out] out  Receives its kind.
 *  @retval CDYN_OK                    the kind was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_get_kind(const cdyn_system *sys, cdyn_force f,
                                         cdyn_force_kind *out);

/** Reads the potential energy of a force generator at the committed positions.
 *
 *  Gravity and springs as given with cdyn_force_add_gravity() and
 *  cdyn_force_add_spring(), pair potentials as in pair.h; 0 for drag and
 *  callbacks.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  f    The generator.
 *  @param[out] out  Receives the energy (J).
 *  @retval CDYN_OK                    the energy was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @retval CDYN_ERR_CALLBACK          a pair generator's callback potential
 *                                     failed or gave a non-finite value;
 *                                     @p out is left as it was.
 *  @retval CDYN_ERR_NO_MEMORY         a pair generator's exclusion lists,
 *                                     stale after bonds changed, could not be
 *                                     rebuilt; @p out is left as it was.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_get_energy(const cdyn_system *sys, cdyn_force f, double *out);

/** Reads the tension of a spring at the committed state.
 *
 *  T by the formula of cdyn_force_add_spring(), positive when the spring is
 *  stretched or opening. When the two particles coincide the dashpot has no
 *  direction and T is the elastic part alone, -S R0.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  f    The spring.
 *  @param[out] out  Receives T (N).
 *  @retval CDYN_OK                    the tension was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p f is not
 *                                     a spring.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_get_spring_tension(const cdyn_system *sys, cdyn_force f,
                                                   double *out);

/* ---- Applied forces ----------------------------------------------------- */

/** Where an applied force goes: the accumulator it is added to.
 *
 *  An applied force is a force given to a particle directly, held by the
 *  system in one of two accumulators per particle and added to the forces
 *  of the generators at every force evaluation of every integrator
 *  (backward Euler's Newton iteration and rigid bodies included). It is
 *  constant over a step: it has no Jacobian and no potential energy, and
 *  the work it does is counted nowhere (neither in the potential energy nor
 *  in cdyn_system_get_drive_work()), so with applied forces kinetic +
 *  potential energy - drive work changes by that work. Fixed and kinematic
 *  particles accept applied forces but are not moved by them: a kinematic
 *  particle's motion works against them (part of
 *  cdyn_system_get_drive_work()); a fixed particle keeps its applied force,
 *  which acts once it is released. Removing a particle clears its applied
 *  force. The accumulators are allocated by the first call that applies a
 *  force and grow with the particles; steps allocate nothing for them.
 *
 *  The values are pinned.
 */
typedef enum cdyn_apply_mode {
    /** Held at every evaluation of every step until cleared
     *  (cdyn_particle_clear_applied_force(),
     *  cdyn_system_clear_applied_forces()). */
    CDYN_APPLY_UNTIL_CLEARED = 1,
    /** Acts during the next successful cdyn_system_step() only, at all its
     *  evaluations (over its whole dt: every internal step of RK45, every
     *  substep at spline knots), then cleared: an impulse F dt. A step that
     *  fails changes nothing and keeps it for the next attempt.
     *  cdyn_system_evaluate(), which evaluates what the next step starts
     *  from, includes it. */
    CDYN_APPLY_NEXT_STEP = 2
} cdyn_apply_mode;

/** Adds a force to the applied force of a particle.
 *
 *  Forces given in one mode add up; the two modes' accumulators are separate.
 *  The first applied force of a system allocates the accumulators.
 *
 *  @param[in,out] sys    The system.
 *  @param[in]     p      The particle.
 *  @param[in]     force  The force (N), dim finite values, copied.
 *  @param[in]     mode   The accumulator: CDYN_APPLY_UNTIL_CLEARED or
 *                        CDYN_APPLY_NEXT_STEP.
 *  @retval CDYN_OK                    the force was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  nothing changed: @p sys or @p force is
 *                                     NULL, a value is not finite, or @p mode
 *                                     is not a value of cdyn_apply_mode.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @retval CDYN_ERR_NO_MEMORY         the accumulators could not be allocated;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_apply_force(cdyn_system *sys, cdyn_particle p,
                                               const double *force, cdyn_apply_mode mode);

/** Clears both applied-force accumulators of a particle.
 *
 *  A particle without an applied force has nothing to clear.
 *
 *  @param[in,out] sys  The system.
 *  @param[in]     p    The particle.
 *  @retval CDYN_OK                    the particle's applied force is zero.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_clear_applied_force(cdyn_system *sys, cdyn_particle p);

/** Reads the applied force of a particle: the sum of both accumulators.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  p    The particle.
 *  @param[out] out  Receives dim values (N); zeros when no force was applied.
 *  @retval CDYN_OK                    the force was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_get_applied_force(const cdyn_system *sys, cdyn_particle p,
                                                     double *out);

/** Adds forces to the applied forces of every particle at once.
 *
 *  As cdyn_particle_apply_force() on each live particle; entries of removed
 *  indices are ignored.
 *
 *  @param[in,out] sys     The system.
 *  @param[in]     forces  The forces (N) in the layout of
 *                         cdyn_system_get_positions(): index i's at
 *                         forces[i*dim .. i*dim+dim-1]; copied.
 *  @param[in]     count   The length of @p forces: exactly the index count
 *                         times dim.
 *  @param[in]     mode    The accumulator: CDYN_APPLY_UNTIL_CLEARED or
 *                         CDYN_APPLY_NEXT_STEP.
 *  @retval CDYN_OK                    the forces were added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  nothing changed: @p sys or @p forces is
 *                                     NULL, @p count does not match, a value at
 *                                     a live index is not finite, or @p mode is
 *                                     not a value of cdyn_apply_mode.
 *  @retval CDYN_ERR_NO_MEMORY         the accumulators could not be allocated;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_apply_forces(cdyn_system *sys, const double *forces,
                                              size_t count, cdyn_apply_mode mode);

/** Clears the applied forces of every particle, both accumulators.
 *
 *  @param[in,out] sys  The system.
 *  @retval CDYN_OK                    every applied force is zero.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_clear_applied_forces(cdyn_system *sys);

/** Copies the applied forces of every particle index into a flat array.
 *
 *  The sum of both accumulators, in the layout of cdyn_system_get_positions();
 *  removed indices and particles without an applied force as zeros.
 *
 *  @param[in]  sys       The system.
 *  @param[out] out       Receives the forces (N).
 *  @param[in]  capacity  The length of @p out in doubles, at least the index
 *                        count times dim.
 *  @retval CDYN_OK                    the forces were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p capacity
 *                                     is short; nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_applied_forces(const cdyn_system *sys, double *out,
                                                    size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_FORCE_H */
