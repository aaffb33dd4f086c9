/** @file
 *  @brief A simulation system: its lifetime, clock, integrator, step and
 *  bulk state.
 *
 *  Units: the library is unit-agnostic; use any consistent set. The
 *  comments name SI units (metres, kilograms, seconds, newtons). Every
 *  function that takes a cdyn_system * may be called from one thread at a
 *  time per system; distinct systems may be used from different threads at
 *  once. Guide: docs/concepts.md.
 */
#ifndef CDYN_SYSTEM_H
#define CDYN_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The time integrators, chosen with cdyn_system_set_integrator().
 *
 *  The values are pinned. Guide: docs/forces_integrators.md.
 */
typedef enum cdyn_integrator {
    /** Explicit Euler: x += dt v(t), v += dt a(t). Order 1; the energy of
     *  an oscillator grows. */
    CDYN_INTEGRATOR_EXPLICIT_EULER = 1,
    /** Symplectic Euler: v += dt a(t), then x += dt v(t + dt). Order 1,
     *  symplectic for conservative forces (also called semi-implicit or
     *  forward Euler). The default of a new system. */
    CDYN_INTEGRATOR_SYMPLECTIC_EULER = 2,
    /** Velocity Verlet. Order 2, symplectic for conservative forces; with
     *  velocity-dependent forces (dashpots, drag, constraints) one corrector
     *  evaluation keeps order 2. */
    CDYN_INTEGRATOR_VELOCITY_VERLET = 3,
    /** Classical Runge-Kutta. Order 4, four evaluations per step. */
    CDYN_INTEGRATOR_RK4 = 4,
    /** Dormand-Prince 5(4) with error control: cdyn_system_step(dt) covers
     *  dt in as many internal steps as the tolerances need. Options:
     *  cdyn_system_set_rk45_options(); report: cdyn_system_get_rk45_stats(). */
    CDYN_INTEGRATOR_RK45 = 5,
    /** RATTLE: velocity Verlet whose constraint forces come from projections
     *  (projection.h). SHAKE puts the positions on g = 0, RATTLE the
     *  velocities on G v = 0, to the tolerances of
     *  cdyn_system_set_projection_options(). Order 2, symplectic and
     *  time-reversible on the constraint manifold for conservative forces;
     *  no feedback gains. Two force evaluations per step (three with
     *  velocity-dependent forces). A projection that does not converge fails
     *  the step with CDYN_ERR_NOT_CONVERGED; particles on curves or surfaces
     *  and compliant constraints give CDYN_ERR_UNSUPPORTED. Guide:
     *  docs/rattle.md. */
    CDYN_INTEGRATOR_RATTLE = 6,
    /** Backward (implicit) Euler: v1 = v0 + dt M^-1 F(x1, v1),
     *  x1 = x0 + dt v1, solved by Newton's method with the forces' analytic
     *  Jacobians and the library's sparse solver; implicit constraints hold
     *  at x1. Order 1, dissipative, stable for stiff springs at any dt.
     *  Options: cdyn_system_set_newton_options(); report:
     *  cdyn_system_get_newton_stats(); guide: docs/backward_euler.md.
     *  Particles on curves and surfaces are not supported
     *  (CDYN_ERR_UNSUPPORTED at the step). */
    CDYN_INTEGRATOR_BACKWARD_EULER = 7
} cdyn_integrator;

/** A user force generator's function (cdyn_force_add_callback()).
 *
 *  Adds the forces (N) it wants at the state @p x, @p v into @p f: it must
 *  add, not overwrite. The arrays are laid out as the bulk arrays
 *  (cdyn_system_get_positions()): the values of particle index i
 *  (cdyn_particle_get_index()) at [i*dim .. i*dim+dim-1]; removed indices
 *  hold zeros. @p x and @p v are the state at which the force is wanted (an
 *  intermediate stage of a multi-stage integrator, not necessarily the
 *  committed state). The arrays belong to the library and are valid only
 *  during the call.
 *
 *  The callback may read @p sys, but any call that changes it returns
 *  CDYN_ERR_BUSY. It must give the same forces for the same arguments:
 *  velocity Verlet and RATTLE reuse the forces of one step's end at the
 *  next one's start while the system is unchanged (unless the force is
 *  declared velocity dependent), so after changing data the callback
 *  reads, change the system, for instance with cdyn_system_set_time(sys, t)
 *  at the current time.
 *
 *  @param[in]     sys   The system being evaluated; read only.
 *  @param[in]     t     Time (s) of the state.
 *  @param[in]     n     The index count (cdyn_system_get_index_count()).
 *  @param[in]     dim   The dimension, 2 or 3.
 *  @param[in]     x     Positions (m), n * dim values.
 *  @param[in]     v     Velocities (m/s), n * dim values.
 *  @param[in,out] f     Forces (N), n * dim values, to add to.
 *  @param[in]     user  The pointer given to cdyn_force_add_callback().
 *  @return 0 on success; any other value stops the step (or the call that
 *          evaluated the forces) with CDYN_ERR_CALLBACK and leaves the
 *          system as it was before it.
 */
typedef int (*cdyn_force_fn)(const cdyn_system *sys, double t, size_t n, int dim,
                             const double *x, const double *v, double *f, void *user);

/** Creates an empty system whose memory comes from malloc and free.
 *
 *  A new system has time 0, no particles, no forces, the integrator
 *  CDYN_INTEGRATOR_SYMPLECTIC_EULER and the default options of every integrator
 *  and solver.
 *
 *  @param[in]  dim  The dimension of every vector of the system, 2 or 3; fixed
 *                   for its lifetime.
 *  @param[out] out  Receives the new system, which the caller owns and frees
 *                   with cdyn_system_destroy(); set to NULL on failure.
 *  @retval CDYN_OK                    the system was created.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p out is NULL, or @p dim is not 2 or 3.
 *  @retval CDYN_ERR_NO_MEMORY         the allocation failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_create(int dim, cdyn_system **out);

/** Creates an empty system whose memory comes from a given allocator.
 *
 *  As cdyn_system_create(), with every allocation of the system, for its whole
 *  life, made through @p allocator.
 *
 *  @param[in]  dim        The dimension, 2 or 3.
 *  @param[in]  allocator  The allocator, copied; its @c user pointer must
 *                         outlive the system. NULL means malloc and free.
 *  @param[out] out        Receives the new system, which the caller owns and
 *                         frees with cdyn_system_destroy(); set to NULL on
 *                         failure.
 *  @retval CDYN_OK                    the system was created.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p out is NULL, @p dim is not 2 or 3, or
 *                                     the allocator lacks @c alloc or @c free.
 *  @retval CDYN_ERR_NO_MEMORY         the allocator returned NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_create_with_allocator(int dim, const cdyn_allocator *allocator,
                                                       cdyn_system **out);

/** Destroys a system and everything it owns.
 *
 *  Particles, force generators, constraints, grounds, rigid bodies and scratch
 *  space are freed; every handle of the system becomes meaningless. Must not be
 *  called from one of the system's callbacks (the library does not check this).
 *
 *  @param[in] sys  The system to destroy; NULL is a no-op.
 *  @since 0.1
 */
CDYN_API void cdyn_system_destroy(cdyn_system *sys);

/** The dimension of a system.
 *
 *  @param[in] sys  The system, or NULL.
 *  @return 2 or 3, as given at creation; 0 for a NULL @p sys.
 *  @since 0.1
 */
CDYN_API int cdyn_system_get_dimension(const cdyn_system *sys);

/** The message of the most recent call on a system that failed.
 *
 *  The message names the call and what was wrong ("set_time: time inf is not
 *  finite"). Successful calls leave it unchanged. A call refused because its
 *  system argument was NULL has nowhere to record a message.
 *
 *  @param[in] sys  The system, or NULL.
 *  @return A NUL-terminated string owned by the system, valid until the next
 *          call on it; "" when no call has failed yet; a static text for a NULL
 *          @p sys. Never NULL.
 *  @since 0.1
 */
CDYN_API const char *cdyn_system_last_error(const cdyn_system *sys);

/** Reads the simulated time.
 *
 *  @param[in]  sys  The system.
 *  @param[out] out  Receives the time (s); 0 for a new system.
 *  @retval CDYN_OK                    the time was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_time(const cdyn_system *sys, double *out);

/** Sets the simulated time.
 *
 *  Positions and velocities stay; the next step starts from @p t, and
 *  prescribed motions and time-dependent callbacks are evaluated from there.
 *  The call also marks the system as changed, so that forces kept from the
 *  previous step are computed anew.
 *
 *  @param[in,out] sys  The system.
 *  @param[in]     t    The new time (s), finite.
 *  @retval CDYN_OK                    the time was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL or @p t is not finite.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_set_time(cdyn_system *sys, double t);

/** Selects the integrator of the next steps.
 *
 *  Each integrator keeps its own options, which a change of integrator leaves
 *  as they are. Selecting CDYN_INTEGRATOR_RK45 restarts its step-size
 *  controller from cdyn_rk45_options.initial_step.
 *
 *  @param[in,out] sys         The system.
 *  @param[in]     integrator  A value of cdyn_integrator.
 *  @retval CDYN_OK                    the integrator was selected.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL or @p integrator is not a
 *                                     value of cdyn_integrator.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_set_integrator(cdyn_system *sys, cdyn_integrator integrator);

/** Reads the selected integrator.
 *
 *  @param[in]  sys  The system.
 *  @param[out] out  Receives the integrator of the next steps.
 *  @retval CDYN_OK                    the integrator was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_integrator(const cdyn_system *sys, cdyn_integrator *out);

/** Options of CDYN_INTEGRATOR_RK45.
 *
 *  Fill with cdyn_rk45_options_init(), change what you need, then pass to
 *  cdyn_system_set_rk45_options(). The size field lets the struct grow.
 */
typedef struct cdyn_rk45_options {
    size_t size; /**< sizeof(cdyn_rk45_options), set by the init function. */
    /** Absolute error tolerance (units of the state: m and m/s), finite,
     *  >= 0; default 1e-9. An internal step is accepted when every position
     *  and velocity component e of its error estimate satisfies
     *  |e| <= abs_tol + rel_tol * max(|y_old|, |y_new|), y_old and y_new that
     *  component before and after the internal step. */
    double abs_tol;
    /** Relative error tolerance (dimensionless), finite, >= 0, not 0
     *  together with abs_tol; default 1e-9. */
    double rel_tol;
    /** The first internal step (s) tried when the controller starts afresh:
     *  at the first RK45 step, after cdyn_system_set_integrator() selects RK45
     *  and after these options are set. Finite, >= 0; 0 (the default) tries
     *  the whole dt of the step. Later steps start from the size the
     *  controller chose last. */
    double initial_step;
    /** The largest internal step (s), finite, >= 0; 0 (the default) sets no
     *  bound. A bound keeps the controller from stepping over short events
     *  (a force that acts only briefly) that its error estimate would miss. */
    double max_step;
} cdyn_rk45_options;

/** The report of CDYN_INTEGRATOR_RK45, read with cdyn_system_get_rk45_stats().
 *
 *  Set @c size to sizeof(cdyn_rk45_stats) before the call; fields beyond it
 *  are not written, so the struct may grow. Counters run since the system
 *  was created; all zero before the first RK45 step.
 */
typedef struct cdyn_rk45_stats {
    size_t size;           /**< Set by the caller: the bytes that may be written. */
    /** RK45 steps attempted: calls of cdyn_system_step() that ran the
     *  integrator (a system without particles does not), failed ones
     *  included. */
    uint64_t steps;
    /** Of those, the ones that failed inside RK45 (a callback, too many
     *  internal steps, a step size underflow); the state was kept. */
    uint64_t failed_steps;
    /** Internal steps accepted by the error test, summed over the steps
     *  that RK45 completed. */
    uint64_t accepted;
    /** Internal steps rejected by the error test (and taken again shorter),
     *  summed over the steps that RK45 completed. */
    uint64_t rejected;
    /** Size (s) of the last accepted internal step of the last completed
     *  step (possibly shortened to end exactly at its dt). */
    double last_step;
    /** Size (s) the controller will try first at the next call; 0 when it
     *  starts afresh (see cdyn_rk45_options.initial_step). */
    double next_step;
} cdyn_rk45_stats;

/** Fills RK45 options with the defaults.
 *
 *  The defaults: size = sizeof(cdyn_rk45_options), abs_tol = rel_tol = 1e-9,
 *  initial_step = 0 (the whole dt), max_step = 0 (no bound).
 *
 *  @param[out] options  The struct to fill; NULL is a no-op.
 *  @since 0.1
 */
CDYN_API void cdyn_rk45_options_init(cdyn_rk45_options *options);

/** Sets the options of CDYN_INTEGRATOR_RK45.
 *
 *  They apply from the next step, whose step-size controller starts afresh from
 *  cdyn_rk45_options.initial_step.
 *
 *  @param[in,out] sys      The system.
 *  @param[in]     options  The options, filled by cdyn_rk45_options_init() and
 *                          then changed; copied, the pointer is not kept.
 *  @retval CDYN_OK                    the options were set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  nothing changed (the message names the
 *                                     field): @p sys or @p options is NULL, its
 *                                     size is not sizeof(cdyn_rk45_options), a
 *                                     tolerance is not finite or < 0, both
 *                                     tolerances are 0, or a step is not finite
 *                                     or < 0.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_set_rk45_options(cdyn_system *sys,
                                                  const cdyn_rk45_options *options);

/** Reads the options of CDYN_INTEGRATOR_RK45.
 *
 *  Before any cdyn_system_set_rk45_options() they are the defaults of
 *  cdyn_rk45_options_init().
 *
 *  @param[in]     sys  The system.
 *  @param[in,out] out  The caller's struct: its @c size field, set by the
 *                      caller to at least sizeof(size_t), says how many bytes
 *                      may be written; it is left as it is.
 *  @retval CDYN_OK                    the options were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or out->size is
 *                                     below sizeof(size_t); nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_rk45_options(const cdyn_system *sys,
                                                  cdyn_rk45_options *out);

/** Reads the report of CDYN_INTEGRATOR_RK45.
 *
 *  All zero before the first RK45 step.
 *
 *  @param[in]     sys  The system.
 *  @param[in,out] out  The caller's struct: its @c size field, set by the
 *                      caller to at least sizeof(size_t), says how many bytes
 *                      may be written; it is left as it is.
 *  @retval CDYN_OK                    the report was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or out->size is
 *                                     below sizeof(size_t); nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_rk45_stats(const cdyn_system *sys, cdyn_rk45_stats *out);

/** Newton options of CDYN_INTEGRATOR_BACKWARD_EULER.
 *
 *  Fill with cdyn_newton_options_init(), change what you need, then pass to
 *  cdyn_system_set_newton_options(). The size field lets the struct grow.
 *  Guide: docs/backward_euler.md.
 */
typedef struct cdyn_newton_options {
    size_t size; /**< sizeof(cdyn_newton_options), set by the init function. */
    /** A step's Newton iteration stops when every component of its scaled
     *  residual (velocity rows: momentum residual / diagonal of the Newton
     *  matrix; constraint rows: distance to g = 0 / dt, both in m/s) is at
     *  most this tolerance times the step's velocity scale (the largest
     *  speed before or after the step, or the first Newton correction if
     *  larger), or below the round-off floor 16 eps max|x| / dt.
     *  Dimensionless, finite, in [1e-15, 0.1]; default 1e-10. */
    double tolerance;
    /** The most Newton updates per step, 1 .. 1000; default 20. A step that
     *  needs more fails with CDYN_ERR_NOT_CONVERGED and changes nothing. */
    size_t max_iterations;
} cdyn_newton_options;

/** Fills the Newton options of backward Euler with the defaults.
 *
 *  The defaults: size = sizeof(cdyn_newton_options), tolerance = 1e-10,
 *  max_iterations = 20.
 *
 *  @param[out] options  The struct to fill; NULL is a no-op.
 *  @since 0.1
 */
CDYN_API void cdyn_newton_options_init(cdyn_newton_options *options);

/** Sets the Newton options of CDYN_INTEGRATOR_BACKWARD_EULER.
 *
 *  They apply from the next step.
 *
 *  @param[in,out] sys      The system.
 *  @param[in]     options  The options, filled by cdyn_newton_options_init()
 *                          and then changed; copied, the pointer is not kept.
 *  @retval CDYN_OK                    the options were set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  nothing changed (the message names the
 *                                     field): @p sys or @p options is NULL, its
 *                                     size is not sizeof(cdyn_newton_options),
 *                                     the tolerance is outside [1e-15, 0.1] or
 *                                     max_iterations outside 1 .. 1000.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_set_newton_options(cdyn_system *sys,
                                                    const cdyn_newton_options *options);

/** Reads the Newton options of CDYN_INTEGRATOR_BACKWARD_EULER.
 *
 *  Before any cdyn_system_set_newton_options() they are the defaults of
 *  cdyn_newton_options_init().
 *
 *  @param[in]     sys  The system.
 *  @param[in,out] out  The caller's struct: its @c size field, set by the
 *                      caller to at least sizeof(size_t), says how many bytes
 *                      may be written; it is left as it is.
 *  @retval CDYN_OK                    the options were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or out->size is
 *                                     below sizeof(size_t); nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_newton_options(const cdyn_system *sys,
                                                    cdyn_newton_options *out);

/** The report of backward Euler's Newton iterations, read with
 *  cdyn_system_get_newton_stats().
 *
 *  Set @c size to sizeof(cdyn_newton_stats) before the call; fields beyond
 *  it are not written, so the struct may grow. "Last step" is the last
 *  backward Euler step attempted, whether it succeeded or not; counters run
 *  since the system was created.
 */
typedef struct cdyn_newton_stats {
    size_t size;                /**< Set by the caller: the bytes that may be written. */
    size_t iterations;          /**< Newton updates (linear solves) of the last step. */
    /** The last step's final scaled residual, the quantity that
     *  cdyn_newton_options.tolerance bounds (dimensionless). */
    double residual;
    size_t unknowns;            /**< Order of its Newton system: dim * index count + rows. */
    size_t factor_nonzeros;     /**< Entries of its factor L below the diagonal. */
    size_t redundant_rows;      /**< Constraint rows its last factor dropped as redundant. */
    uint64_t steps;             /**< Backward Euler steps attempted. */
    uint64_t total_iterations;  /**< Newton updates summed over them. */
    uint64_t failed_steps;      /**< Steps that failed inside backward Euler (state kept). */
    /** Factorizations that needed the shift J + tau M (J not positive
     *  definite at the iterate; a warning, not an error). */
    uint64_t regularized;
    uint64_t line_search_cuts;  /**< Newton updates shortened by the line search. */
    /** Linear solves whose non-symmetric correction did not converge (an
     *  inexact Newton step; a warning, not an error). */
    uint64_t inexact_solves;
    /** Jacobian blocks outside the sparsity pattern, left out of a step
     *  (contacts that appeared within the step). */
    uint64_t dropped_blocks;
    uint64_t analyses;          /**< Sparsity patterns built and analysed. */
} cdyn_newton_stats;

/** Reads the report of backward Euler's Newton iterations.
 *
 *  All zero before the first backward Euler step.
 *
 *  @param[in]     sys  The system.
 *  @param[in,out] out  The caller's struct: its @c size field, set by the
 *                      caller to at least sizeof(size_t), says how many bytes
 *                      may be written; it is left as it is.
 *  @retval CDYN_OK                    the report was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or out->size is
 *                                     below sizeof(size_t); nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_newton_stats(const cdyn_system *sys, cdyn_newton_stats *out);

/** Reads the scaled residuals of the last backward Euler step, one per Newton
 *  iterate.
 *
 *  The start, then one after each update: cdyn_newton_stats.iterations + 1
 *  values, so that the convergence can be inspected (quadratic for an exact
 *  Jacobian). The residual is the one the tolerance of cdyn_newton_options
 *  applies to.
 *
 *  @param[in]  sys       The system.
 *  @param[out] out       Receives the first min(*count, @p capacity) residuals
 *                        (dimensionless); may be NULL when @p capacity is 0.
 *  @param[in]  capacity  The length of @p out.
 *  @param[out] count     Receives the number of residuals of the last step,
 *                        whatever @p capacity is; 0 before the first step.
 *  @retval CDYN_OK                    the residuals were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p count is NULL, or @p out is
 *                                     NULL with a non-zero @p capacity.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_newton_residuals(const cdyn_system *sys, double *out,
                                                      size_t capacity, size_t *count);

/** Advances a system by one step of the selected integrator.
 *
 *  On any error the state (positions, velocities, time, the drive work) is
 *  exactly as before the call. A system without particles only advances its
 *  clock. Forces applied for one step (cdyn_particle_apply_force()) are used up
 *  by a successful step. Once the shape (particles, forces, constraints) is
 *  unchanged since the previous step, a step allocates nothing; backward Euler
 *  also counts as shape the pairs of particles its Jacobian couples, which pair
 *  sets and user Jacobians may change.
 *
 *  @param[in,out] sys  The system.
 *  @param[in]     dt   The step (s), finite and > 0.
 *  @retval CDYN_OK                    the state advanced by @p dt.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL or @p dt is not finite
 *                                     and > 0; a pair generator's cutoff is not
 *                                     below half a periodic box length; or a
 *                                     particle on a curve or surface reached a
 *                                     point where its shape has no finite
 *                                     value.
 *  @retval CDYN_ERR_DIVERGED          the step gave a non-finite state; or
 *                                     RK45's error estimate was still not
 *                                     finite at its smallest step; or the
 *                                     constraint equations were not finite.
 *  @retval CDYN_ERR_CALLBACK          a callback (force, constraint, shape,
 *                                     motion, ground, pair potential) failed.
 *  @retval CDYN_ERR_SINGULAR          constraints conflict, so that no
 *                                     multipliers satisfy them (the message
 *                                     names one); or backward Euler's Newton
 *                                     matrix stayed singular.
 *  @retval CDYN_ERR_NOT_CONVERGED     RK45 needed more than 10^6 internal steps
 *                                     or a step below round-off; backward
 *                                     Euler's Newton iteration or a projection
 *                                     (RATTLE, post-step projection) reached
 *                                     its cap.
 *  @retval CDYN_ERR_UNSUPPORTED       the integrator cannot treat the system:
 *                                     RATTLE or the post-step projection with
 *                                     particles on curves or surfaces or with
 *                                     compliant constraints; backward Euler
 *                                     with particles on curves or surfaces or
 *                                     more unknowns than its solver indexes;
 *                                     the Langevin thermostat (thermostat.h)
 *                                     with an integrator other than velocity
 *                                     Verlet and RATTLE, with constraints under
 *                                     velocity Verlet, with particles on
 *                                     shapes, rigid bodies or driven systems;
 *                                     bonded particles that close a loop
 *                                     through the faces of a periodic box.
 *  @retval CDYN_ERR_NO_MEMORY         scratch space for a changed shape could
 *                                     not be allocated.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_step(cdyn_system *sys, double dt);

/** Reads the number of live particles.
 *
 *  @param[in]  sys  The system.
 *  @param[out] out  Receives the number of particles added and not removed.
 *  @retval CDYN_OK                    the count was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_particle_count(const cdyn_system *sys, size_t *out);

/** Reads the number of particle indices: one more than the highest index ever
 *  used.
 *
 *  Bulk arrays hold this many entries of dim doubles. It never decreases, and
 *  equals the particle count as long as no particle was removed.
 *
 *  @param[in]  sys  The system.
 *  @param[out] out  Receives the index count.
 *  @retval CDYN_OK                    the count was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_index_count(const cdyn_system *sys, size_t *out);

/** Copies the positions of every particle index into a flat array.
 *
 *  Index i's coordinates go to out[i*dim .. i*dim+dim-1], removed indices as
 *  zeros. In a periodic box (box.h) the positions are wrapped into the box;
 *  cdyn_system_get_unwrapped_positions() gives the unwrapped ones.
 *
 *  @param[in]  sys       The system.
 *  @param[out] out       Receives the positions (m).
 *  @param[in]  capacity  The length of @p out in doubles, at least the index
 *                        count times dim.
 *  @retval CDYN_OK                    the positions were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p capacity
 *                                     is short; nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_positions(const cdyn_system *sys, double *out,
                                               size_t capacity);

/** Copies the velocities of every particle index into a flat array.
 *
 *  The layout of cdyn_system_get_positions(): index i's at out[i*dim ..],
 *  removed indices as zeros.
 *
 *  @param[in]  sys       The system.
 *  @param[out] out       Receives the velocities (m/s).
 *  @param[in]  capacity  The length of @p out in doubles, at least the index
 *                        count times dim.
 *  @retval CDYN_OK                    the velocities were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p capacity
 *                                     is short; nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_velocities(const cdyn_system *sys, double *out,
                                                size_t capacity);

/** Sets the positions of every particle from a flat array.
 *
 *  The layout of cdyn_system_get_positions(). Entries of removed indices and of
 *  kinematic particles (whose motions set their state) are ignored. Particles
 *  held on curves or surfaces are projected onto their shapes; every projection
 *  is tried before anything changes. In a periodic box the particles' image
 *  counters follow the new positions.
 *
 *  @param[in,out] sys    The system.
 *  @param[in]     in     The positions (m), copied.
 *  @param[in]     count  The length of @p in: exactly the index count times
 *                        dim.
 *  @retval CDYN_OK                    the positions were set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  nothing changed: @p sys or @p in is NULL,
 *                                     @p count does not match, a value of a
 *                                     live particle is not finite, or a
 *                                     particle on a shape has no finite point
 *                                     of its shape near its new position.
 *  @retval CDYN_ERR_CALLBACK          the callback of a particle's shape failed
 *                                     (nothing changed).
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_set_positions(cdyn_system *sys, const double *in, size_t count);

/** Sets the velocities of every particle from a flat array.
 *
 *  As cdyn_system_set_positions(), for velocities. A particle held on a curve
 *  or surface keeps the part of its velocity along its shape.
 *
 *  @param[in,out] sys    The system.
 *  @param[in]     in     The velocities (m/s), copied.
 *  @param[in]     count  The length of @p in: exactly the index count times
 *                        dim.
 *  @retval CDYN_OK                    the velocities were set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  nothing changed: @p sys or @p in is NULL,
 *                                     @p count does not match, a value of a
 *                                     live particle is not finite, or a
 *                                     particle's shape degenerates where it is.
 *  @retval CDYN_ERR_CALLBACK          the callback of a particle's shape failed
 *                                     (nothing changed).
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_set_velocities(cdyn_system *sys, const double *in, size_t count);

/** Copies the mass of every particle index into an array.
 *
 *  Index i's at out[i], removed indices as zeros; a fixed particle's is the
 *  mass it has when released.
 *
 *  @param[in]  sys       The system.
 *  @param[out] out       Receives the masses (kg).
 *  @param[in]  capacity  The length of @p out, at least the index count.
 *  @retval CDYN_OK                    the masses were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p capacity
 *                                     is short; nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_masses(const cdyn_system *sys, double *out,
                                            size_t capacity);

/** Copies the fixed flag (cdyn_particle_set_fixed()) of every particle index
 *  into an array.
 *
 *  Index i's at out[i], removed indices false.
 *
 *  @param[in]  sys       The system.
 *  @param[out] out       Receives the flags.
 *  @param[in]  capacity  The length of @p out, at least the index count.
 *  @retval CDYN_OK                    the flags were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p capacity
 *                                     is short; nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_fixed(const cdyn_system *sys, bool *out, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_SYSTEM_H */
