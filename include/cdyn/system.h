/* cdyn: a simulation system, its clock, its integrator and its step.
 *
 * Units: the library is unit-agnostic; use any consistent set (SI: metres,
 * kilograms, seconds, newtons). Every function that takes a cdyn_system *
 * may be called from one thread at a time per system; distinct systems may be
 * used from different threads at once.
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

/** Time integrators. Values are pinned. */
typedef enum cdyn_integrator {
    /** x += dt v(t), v += dt a(t). Order 1; energy grows on oscillators. */
    CDYN_INTEGRATOR_EXPLICIT_EULER = 1,
    /** v += dt a(t), then x += dt v(t + dt). Order 1, symplectic for
     *  conservative forces (also called semi-implicit or forward Euler). The
     *  default. */
    CDYN_INTEGRATOR_SYMPLECTIC_EULER = 2,
    /** Velocity Verlet. Order 2, symplectic for conservative forces; with
     *  velocity-dependent forces (dashpots, drag, constraints) one corrector
     *  evaluation keeps order 2. */
    CDYN_INTEGRATOR_VELOCITY_VERLET = 3,
    /** Classical Runge-Kutta. Order 4, four evaluations per step. */
    CDYN_INTEGRATOR_RK4 = 4,
    /** Dormand-Prince 5(4) with error control: cdyn_system_step(dt) covers
     *  dt in as many internal steps as the tolerances need. Options:
     *  cdyn_system_set_rk45_options; report: cdyn_system_get_rk45_stats. */
    CDYN_INTEGRATOR_RK45 = 5,
    /** RATTLE: velocity Verlet whose constraint forces come from projections
     *  (projection.h): SHAKE puts the positions on g = 0, RATTLE the
     *  velocities on G v = 0, to the tolerances of
     *  cdyn_system_set_projection_options.
     *  Order 2, symplectic and time-reversible on the constraint manifold
     *  for conservative forces; no feedback gains. Two force evaluations per
     *  step (three with velocity-dependent forces). A projection that does
     *  not converge fails the step with CDYN_ERR_NOT_CONVERGED; particles on
     *  curves or surfaces and compliant constraints give
     *  CDYN_ERR_UNSUPPORTED. Guide: docs/rattle.md. @since 0.1 */
    CDYN_INTEGRATOR_RATTLE = 6,
    /** Backward (implicit) Euler: v1 = v0 + dt M^-1 F(x1, v1),
     *  x1 = x0 + dt v1, solved by Newton's method with the forces' analytic
     *  Jacobians and the library's sparse solver; implicit constraints hold
     *  at x1. Order 1, dissipative, stable for stiff springs at any dt.
     *  Options: cdyn_system_set_newton_options; report:
     *  cdyn_system_get_newton_stats; guide: docs/backward_euler.md. Particles
     *  on curves and surfaces are not supported (CDYN_ERR_UNSUPPORTED at the
     *  step). @since 0.1 */
    CDYN_INTEGRATOR_BACKWARD_EULER = 7
} cdyn_integrator;

/** Callback of a user force generator (cdyn_force_add_callback).
 *  Adds forces into @p f (it must add, not overwrite). Arrays are indexed by
 *  particle index (cdyn_particle_get_index) times @p dim; @p n is the index
 *  count (cdyn_system_get_index_count); removed indices hold zeros. @p x and
 *  @p v are the state at which the force is wanted (an intermediate stage of
 *  multi-stage integrators, not necessarily the committed state). Return 0
 *  on success; any other value stops the step with CDYN_ERR_CALLBACK and
 *  leaves the system as before the step. The callback may read @p sys but
 *  any call that changes it returns CDYN_ERR_BUSY. It must give the same
 *  forces for the same arguments: velocity Verlet and RATTLE reuse the
 *  forces of one step's end at the next one's start while the system is
 *  unchanged (unless the force is declared velocity dependent), so after
 *  changing data the callback reads, change the system, for instance with
 *  cdyn_system_set_time(sys, t) at the current time. */
typedef int (*cdyn_force_fn)(const cdyn_system *sys, double t, size_t n, int dim,
                             const double *x, const double *v, double *f, void *user);

/** Creates an empty system of dimension @p dim (2 or 3) using malloc/free.
 *  On success *out owns a new system that the caller destroys with
 *  cdyn_system_destroy. Returns CDYN_ERR_INVALID_ARGUMENT for a NULL @p out
 *  or a dimension other than 2 or 3, CDYN_ERR_NO_MEMORY if allocation fails
 *  (*out is then set to NULL). @since 0.1 */
CDYN_API cdyn_status cdyn_system_create(int dim, cdyn_system **out);

/** As cdyn_system_create, with all memory of the system taken from
 *  @p allocator (copied; its user pointer must outlive the system). NULL
 *  means malloc/free. CDYN_ERR_INVALID_ARGUMENT also when the allocator
 *  lacks alloc or free. @since 0.1 */
CDYN_API cdyn_status cdyn_system_create_with_allocator(int dim, const cdyn_allocator *allocator,
                                                       cdyn_system **out);

/** Destroys @p sys and everything it owns; every handle of it becomes
 *  meaningless. NULL is a no-op. Must not be called from a callback. @since 0.1 */
CDYN_API void cdyn_system_destroy(cdyn_system *sys);

/** The dimension (2 or 3) given at creation; 0 for NULL. @since 0.1 */
CDYN_API int cdyn_system_get_dimension(const cdyn_system *sys);

/** The message of the most recent call on @p sys that failed, naming what
 *  was wrong: a NUL-terminated string owned by the system, valid until the
 *  next call on it; "" when no call has failed yet, a fixed text for NULL.
 *  Successful calls leave it unchanged. @since 0.1 */
CDYN_API const char *cdyn_system_last_error(const cdyn_system *sys);

/** Simulated time in seconds (starts at 0). CDYN_ERR_INVALID_ARGUMENT for
 *  NULL arguments. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_time(const cdyn_system *sys, double *out);

/** Sets the simulated time; must be finite. @since 0.1 */
CDYN_API cdyn_status cdyn_system_set_time(cdyn_system *sys, double t);

/** Selects the integrator used by the next steps. CDYN_ERR_INVALID_ARGUMENT
 *  for a value outside cdyn_integrator. @since 0.1 */
CDYN_API cdyn_status cdyn_system_set_integrator(cdyn_system *sys, cdyn_integrator integrator);

/** The selected integrator. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_integrator(const cdyn_system *sys, cdyn_integrator *out);

/** Options of CDYN_INTEGRATOR_RK45. Fill with cdyn_rk45_options_init, then
 *  change what you need; the size field lets the struct grow. */
typedef struct cdyn_rk45_options {
    size_t size; /**< sizeof(cdyn_rk45_options), set by the init function */
    /** Absolute error tolerance (units of the state: m and m/s), finite,
     *  >= 0; default 1e-9. An internal step is accepted when every position
     *  and velocity component e of its error estimate satisfies
     *  |e| <= abs_tol + rel_tol * max(|y_old|, |y_new|), y_old and y_new that
     *  component before and after the internal step. */
    double abs_tol;
    /** Relative error tolerance, finite, >= 0, not 0 together with abs_tol;
     *  default 1e-9. */
    double rel_tol;
    /** The first internal step (s) tried when the controller starts afresh:
     *  at the first RK45 step, after cdyn_system_set_integrator selects RK45
     *  and after these options are set. Finite, >= 0; 0 (the default) tries
     *  the whole dt of the step. Later steps start from the size the
     *  controller chose last. */
    double initial_step;
    /** The largest internal step (s), finite, >= 0; 0 (the default) sets no
     *  bound. A bound keeps the controller from stepping over short events
     *  (a force that acts only briefly) that its error estimate would miss. */
    double max_step;
} cdyn_rk45_options;

/** What CDYN_INTEGRATOR_RK45 did. Set @c size to sizeof(cdyn_rk45_stats)
 *  before calling cdyn_system_get_rk45_stats; fields beyond it are not
 *  written, so the struct may grow. Counters run since the system was
 *  created; all zero before the first RK45 step. */
typedef struct cdyn_rk45_stats {
    size_t size;
    uint64_t steps;        /**< calls of cdyn_system_step that RK45 completed */
    uint64_t failed_steps; /**< calls that returned an error (state kept) */
    /** Internal steps accepted and rejected by the error test, summed over
     *  the completed calls. */
    uint64_t accepted;
    uint64_t rejected;
    /** Size (s) of the last accepted internal step of the last completed
     *  call (possibly shortened to end exactly at its dt). */
    double last_step;
    /** Size (s) the controller will try first at the next call; 0 when it
     *  starts afresh (see cdyn_rk45_options.initial_step). */
    double next_step;
} cdyn_rk45_stats;

/** Fills @p options with the defaults: size = sizeof(cdyn_rk45_options),
 *  abs_tol = rel_tol = 1e-9, initial_step = 0 (the whole dt), max_step = 0
 *  (no bound). NULL is a no-op. @since 0.1 */
CDYN_API void cdyn_rk45_options_init(cdyn_rk45_options *options);

/** Sets the options of CDYN_INTEGRATOR_RK45 (copied; the pointer is not
 *  kept). They apply from the next step, whose controller starts afresh.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (nothing changed, the message
 *  names the field) for a NULL argument, a size other than
 *  sizeof(cdyn_rk45_options), a tolerance not finite or < 0, both
 *  tolerances 0, or a step not finite or < 0; CDYN_ERR_BUSY from a
 *  callback. @since 0.1 */
CDYN_API cdyn_status cdyn_system_set_rk45_options(cdyn_system *sys,
                                                  const cdyn_rk45_options *options);

/** Copies the RK45 options of @p sys into @p out (the defaults of
 *  cdyn_rk45_options_init before any cdyn_system_set_rk45_options).
 *  @p out->size must be set by the caller (at least sizeof(size_t)); at
 *  most that many bytes are written and the size field is left as it is.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL or a size below
 *  sizeof(size_t) (nothing written). @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_rk45_options(const cdyn_system *sys,
                                                  cdyn_rk45_options *out);

/** Fills @p out (whose size field the caller set, at least sizeof(size_t);
 *  at most that many bytes are written) with the RK45 report.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL or a size below
 *  sizeof(size_t) (nothing written). @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_rk45_stats(const cdyn_system *sys, cdyn_rk45_stats *out);

/** Newton options of CDYN_INTEGRATOR_BACKWARD_EULER (docs/backward_euler.md).
 *  Fill with cdyn_newton_options_init, then change what you need; the size
 *  field lets the struct grow. */
typedef struct cdyn_newton_options {
    size_t size; /**< sizeof(cdyn_newton_options), set by the init function */
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

/** Fills @p options with the defaults: size = sizeof(cdyn_newton_options),
 *  tolerance = 1e-10, max_iterations = 20. NULL is a no-op. @since 0.1 */
CDYN_API void cdyn_newton_options_init(cdyn_newton_options *options);

/** Sets the Newton options of backward Euler (copied; the pointer is not
 *  kept). They apply from the next step.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (nothing changed, the message
 *  names the field) for a NULL argument, a size other than
 *  sizeof(cdyn_newton_options) or a value out of range; CDYN_ERR_BUSY from
 *  a callback. @since 0.1 */
CDYN_API cdyn_status cdyn_system_set_newton_options(cdyn_system *sys,
                                                    const cdyn_newton_options *options);

/** Copies the Newton options of @p sys into @p out (the defaults before any
 *  cdyn_system_set_newton_options). @p out->size must be set by the caller
 *  (at least sizeof(size_t)); at most that many bytes are written and the
 *  size field is left as it is.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL or a size below
 *  sizeof(size_t) (nothing written). @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_newton_options(const cdyn_system *sys,
                                                    cdyn_newton_options *out);

/** Report of backward Euler's Newton iterations, filled by
 *  cdyn_system_get_newton_stats. Set @c size to sizeof(cdyn_newton_stats)
 *  before the call; fields beyond it are not written, so the struct may
 *  grow. "Last step" is the last backward Euler step attempted, whether it
 *  succeeded or not; counters run since the system was created. */
typedef struct cdyn_newton_stats {
    size_t size;
    size_t iterations;          /**< Newton updates (linear solves) of the last step */
    double residual;            /**< its final scaled residual (cdyn_newton_options.tolerance) */
    size_t unknowns;            /**< order of its Newton system: dim * index count + rows */
    size_t factor_nonzeros;     /**< entries of the factor L below its diagonal */
    size_t redundant_rows;      /**< constraint rows dropped as redundant, last factor */
    uint64_t steps;             /**< backward Euler steps attempted */
    uint64_t total_iterations;  /**< Newton updates summed over them */
    uint64_t failed_steps;      /**< steps that returned an error */
    uint64_t regularized;       /**< factorizations that needed the shift J + tau M
                                     (J not positive definite at the iterate; a warning) */
    uint64_t line_search_cuts;  /**< Newton updates shortened by the line search */
    uint64_t inexact_solves;    /**< linear solves whose non-symmetric correction did
                                     not converge (an inexact Newton step; a warning) */
    uint64_t dropped_blocks;    /**< Jacobian blocks outside the sparsity pattern, left
                                     out of a step (contacts that appeared mid-step) */
    uint64_t analyses;          /**< sparsity patterns built and analysed */
} cdyn_newton_stats;

/** Copies the Newton report into @p out, whose @c size the caller sets
 *  (fields beyond it are not written); all zero before the first backward
 *  Euler step. CDYN_ERR_INVALID_ARGUMENT for NULL arguments or a @c size
 *  below sizeof(size_t). @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_newton_stats(const cdyn_system *sys, cdyn_newton_stats *out);

/** The scaled residuals of the last backward Euler step, one per Newton
 *  iterate (the start, then after each update: iterations + 1 values), so
 *  that its convergence can be inspected (quadratic for an exact Jacobian):
 *  writes the first min(count, @p capacity) into @p out (may be NULL when
 *  @p capacity is 0) and their number to *@p count (0 before the first
 *  step). CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or @p count, or a
 *  NULL @p out with a non-zero @p capacity. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_newton_residuals(const cdyn_system *sys, double *out,
                                                      size_t capacity, size_t *count);

/** Advances the system by @p dt seconds (finite, > 0) with the selected
 *  integrator. On any error the state (positions, velocities, time) is
 *  exactly as before the call. Returns CDYN_ERR_DIVERGED when the step gave
 *  a non-finite state, CDYN_ERR_CALLBACK when a callback failed,
 *  CDYN_ERR_SINGULAR when constraints conflict (the message names one),
 *  CDYN_ERR_NO_MEMORY when scratch space for a changed shape could not be
 *  allocated, CDYN_ERR_NOT_CONVERGED when RK45 needed more than 10^6
 *  internal steps or a step below round-off (CDYN_ERR_DIVERGED instead when
 *  its error estimate was still not finite at that smallest step), or backward Euler's Newton
 *  iteration its cap, CDYN_ERR_SINGULAR also when backward Euler's Newton
 *  matrix stays singular, CDYN_ERR_UNSUPPORTED for backward Euler with
 *  particles on curves or surfaces, CDYN_ERR_BUSY from a callback.
 *  Once the shape (particles, forces) is unchanged since the previous step,
 *  a step allocates nothing (backward Euler: also the pairs of particles its
 *  Jacobian couples, which pair sets and user Jacobians may change).
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_system_step(cdyn_system *sys, double dt);

/** Number of live particles. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_particle_count(const cdyn_system *sys, size_t *out);

/** Number of particle indices: one more than the highest index ever used.
 *  Bulk arrays hold this many entries of dim doubles; equal to the particle
 *  count as long as no particle was removed. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_index_count(const cdyn_system *sys, size_t *out);

/** Copies all positions into @p out: index i's coordinates at
 *  out[i*dim .. i*dim+dim-1], removed indices as zeros. @p capacity is the
 *  length of @p out in doubles and must be >= index count * dim, else
 *  CDYN_ERR_INVALID_ARGUMENT and nothing written. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_positions(const cdyn_system *sys, double *out,
                                               size_t capacity);

/** As cdyn_system_get_positions, for velocities. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_velocities(const cdyn_system *sys, double *out,
                                                size_t capacity);

/** Sets all positions from @p in (layout of cdyn_system_get_positions;
 *  entries of removed indices and of kinematic particles, whose motions
 *  set their state, are ignored). @p count must equal index
 *  count * dim and every value must be finite, else
 *  CDYN_ERR_INVALID_ARGUMENT and nothing changed. @since 0.1 */
CDYN_API cdyn_status cdyn_system_set_positions(cdyn_system *sys, const double *in, size_t count);

/** As cdyn_system_set_positions, for velocities. @since 0.1 */
CDYN_API cdyn_status cdyn_system_set_velocities(cdyn_system *sys, const double *in, size_t count);

/** Copies the mass (kg) of every particle index into @p out: index i's at
 *  out[i], removed indices as zeros; a fixed particle's is the mass it has
 *  when released. @p capacity is the length of @p out and must be >= the
 *  index count.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (nothing written) for NULL
 *  arguments or a short @p capacity. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_masses(const cdyn_system *sys, double *out,
                                            size_t capacity);

/** Copies the fixed flag (cdyn_particle_set_fixed) of every particle index
 *  into @p out: index i's at out[i], removed indices false. @p capacity is
 *  the length of @p out and must be >= the index count.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (nothing written) for NULL
 *  arguments or a short @p capacity. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_fixed(const cdyn_system *sys, bool *out, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_SYSTEM_H */
