/* cdyn: implicit holonomic constraints g(x) = 0 and their solver.
 *
 * Every force evaluation solves
 *
 *     (G W G^T) lambda = -G' v - G W F - ks g - kd g'
 *
 * for the multipliers lambda (one per constraint row), with G = dg/dx the
 * Jacobian, W the inverse masses and F every other force (generators,
 * applied forces, grounds), then adds the constraint force G^T lambda to F.
 * The forces do no work on motions that keep g' = 0. ks, kd feed drift back
 * (Baumgarte; cdyn_solver_options). Compliant rows
 * (cdyn_constraint_set_compliance) replace the feedback terms by an
 * implicit spring over the step, adding alpha / dt^2 to their diagonal.
 *
 * The built-in constraints use quadratic forms where a distance is
 * involved (g = (|d|^2 - L^2) / 2 for rods), so a multiplier has units of
 * force per length; cdyn_constraint_get_force gives the Cartesian force in
 * newtons; cdyn_system_get_constraint_forces all of them per particle.
 *
 * A constraint owns its rows; a particle removed from the system removes
 * every constraint that touches it (their handles become stale).
 */
#ifndef CDYN_CONSTRAINT_H
#define CDYN_CONSTRAINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export.h"
#include "motion.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Kinds of constraint. Values are pinned. */
typedef enum cdyn_constraint_kind {
    CDYN_CONSTRAINT_DISTANCE = 1, /**< |x_b - x_a| = L between two particles */
    CDYN_CONSTRAINT_ANCHOR = 2,   /**< |x - b| = L from a fixed point b (a rod) */
    CDYN_CONSTRAINT_PIN = 3,      /**< x = p: dim rows */
    CDYN_CONSTRAINT_PLANE = 4,    /**< n.x = c: a plane in 3-D, a line in 2-D */
    CDYN_CONSTRAINT_USER = 5,     /**< rows, Jacobian and G'v from a callback */
    CDYN_CONSTRAINT_IMPLICIT = 6, /**< c(x) = 0 for one particle, from a callback */
    CDYN_CONSTRAINT_CURVE = 7,    /**< x = r(q) on a curve (parametric.h) */
    CDYN_CONSTRAINT_SURFACE = 8   /**< x = r(u, v) on a surface (parametric.h) */
} cdyn_constraint_kind;

/** Linear solvers for the multipliers. Values are pinned. */
typedef enum cdyn_constraint_solver {
    /** Sparse LDL^T with a fill-reducing order; chains and trees factor
     *  with no fill. Exact; the default. */
    CDYN_SOLVER_DIRECT = 1,
    /** Jacobi-preconditioned conjugate gradients, warm-started from the
     *  previous multipliers; for very large loopy systems. */
    CDYN_SOLVER_CG = 2
} cdyn_constraint_solver;

/** A user constraint of @p n_rows equations g(x, t) = 0 on @p n_particles
 *  particles, evaluated at time @p t (s) for the system @p sys (read-only:
 *  any call that changes it returns CDYN_ERR_BUSY). @p x and @p v hold the
 *  particles' positions and velocities in the order given at creation
 *  (n_particles * dim values each). Write:
 *  - @p g: the n_rows residuals;
 *  - @p jacobian: G = dg/dx, n_rows * n_particles * dim values, row r's
 *    block for particle j at (r * n_particles + j) * dim;
 *  - @p velocity_terms: the part of g'' that holds no acceleration, so that
 *    g'' = G a + velocity_terms (n_rows values). For a constraint that does
 *    not depend on t it is (dG/dt) v, that is v^T Hess(g_r) v for row r;
 *    a time-dependent one adds 2 (dG/dt at fixed x) v + d2g/dt2;
 *  - @p g_t: the partial derivative dg/dt at fixed x (n_rows values), or
 *    NULL. It is NULL unless the constraint was declared time-dependent
 *    (cdyn_constraint_set_time_dependent); it is then filled with NaN
 *    before the call, and a callback that leaves any NaN in it has its time
 *    derivatives formed by the library from calls at t +- 2^-13 s (central
 *    differences): @p velocity_terms must then hold the spatial part
 *    v^T Hess(g_r) v only. Their error is about (omega h)^2 / 6 relative,
 *    omega the fastest angular frequency of the motion, h = 2^-13 s, plus a
 *    round-off of about 1e-16 |g| / h^2 in d2g/dt2.
 *  Return 0 on success; anything else (or a non-finite output) fails the
 *  step with CDYN_ERR_CALLBACK and leaves the system as before it.
 *  @since 0.1 */
typedef int (*cdyn_constraint_fn)(const cdyn_system *sys, double t, size_t n_particles, int dim,
                                  const double *x, const double *v, size_t n_rows, double *g,
                                  double *jacobian, double *velocity_terms, double *g_t,
                                  void *user);

/** An implicit curve (2-D) or surface (3-D) c(x, t) = 0 for one particle,
 *  evaluated at time @p t for the system @p sys (read-only) at the point
 *  @p x (dim values): write c into *@p c, its gradient into @p gradient
 *  (dim values) and its Hessian into @p hessian (dim * dim values,
 *  row-major). @p c_t, @p gradient_t and @p c_tt are NULL unless the
 *  constraint was declared time-dependent
 *  (cdyn_constraint_set_time_dependent); then they are filled with NaN and
 *  the callback writes dc/dt, d(grad c)/dt (dim values) and d2c/dt2 at
 *  fixed x, or leaves NaN in any of them to have all three formed by
 *  central differences in t (error as for cdyn_constraint_fn).
 *  Return 0 on success; anything else (or a non-finite output) fails the
 *  step with CDYN_ERR_CALLBACK. @since 0.1 */
typedef int (*cdyn_implicit_fn)(const cdyn_system *sys, double t, int dim, const double *x,
                                double *c, double *gradient, double *hessian, double *c_t,
                                double *gradient_t, double *c_tt, void *user);

/** Solver report, filled by cdyn_system_get_solver_stats. Set @c size to
 *  sizeof(cdyn_solver_stats) before the call; fields beyond it are not
 *  written, so the struct may grow. */
typedef struct cdyn_solver_stats {
    size_t size;
    size_t rows;                /**< constraint rows in the last solve */
    size_t iterations;          /**< CG iterations of the last solve (0: direct) */
    double residual;            /**< relative residual of the last solve */
    size_t redundant_rows;      /**< rows dropped as redundant in the last solve */
    uint64_t solves;            /**< solves since the system was created */
    uint64_t redundant_solves;  /**< solves that met redundant rows (a warning) */
    uint64_t cg_not_converged;  /**< CG solves that hit the iteration cap (a warning) */
    cdyn_constraint last_redundant; /**< a constraint of the last redundant row; 0 if none */
    size_t factor_nonzeros;     /**< entries of L below the diagonal (direct solver) */
} cdyn_solver_stats;

/** A rod of @p length L (finite, > 0) between particles @p a and @p b:
 *  g = (|x_b - x_a|^2 - L^2) / 2. CDYN_ERR_INVALID_ARGUMENT for a == b, a
 *  bad length or NULL @p out; handle statuses for bad particles;
 *  CDYN_ERR_NO_MEMORY. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_add_distance(cdyn_system *sys, cdyn_particle a,
                                                  cdyn_particle b, double length,
                                                  cdyn_constraint *out);

/** A rod of @p length L (> 0) from the fixed point @p anchor (dim finite
 *  values, copied): g = (|x - b|^2 - L^2) / 2. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_add_anchor(cdyn_system *sys, cdyn_particle p,
                                                const double *anchor, double length,
                                                cdyn_constraint *out);

/** Holds @p p at @p point (dim finite values): dim rows g = x - point.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_add_pin(cdyn_system *sys, cdyn_particle p,
                                             const double *point, cdyn_constraint *out);

/** Keeps @p p on the plane (3-D) or line (2-D) n.x = offset; @p normal
 *  (dim finite values, not zero) is normalized, @p offset scaled with it.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_add_plane(cdyn_system *sys, cdyn_particle p,
                                               const double *normal, double offset,
                                               cdyn_constraint *out);

/** A user constraint of @p n_rows (1..64) equations on the @p n_particles
 *  (1..64) distinct particles listed in @p particles (copied). @p fn is
 *  called at every force evaluation; @p user is passed back and never
 *  dereferenced. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_add_user(cdyn_system *sys, const cdyn_particle *particles,
                                              size_t n_particles, size_t n_rows,
                                              cdyn_constraint_fn fn, void *user,
                                              cdyn_constraint *out);

/** Keeps @p p on c(x) = 0 given by @p fn (one row; G = grad c,
 *  G'v = v^T Hess(c) v). A bead on the parabola x^2 + 100 y = 0 is
 *  c = x^2 + 100 y. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_add_implicit(cdyn_system *sys, cdyn_particle p,
                                                  cdyn_implicit_fn fn, void *user,
                                                  cdyn_constraint *out);

/** Removes a constraint. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_remove(cdyn_system *sys, cdyn_constraint c);

/** true when @p c is a live constraint of @p sys. @since 0.1 */
CDYN_API bool cdyn_constraint_is_valid(const cdyn_system *sys, cdyn_constraint c);

/** The kind of @p c. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_get_kind(const cdyn_system *sys, cdyn_constraint c,
                                              cdyn_constraint_kind *out);

/** Number of rows (equations) of @p c. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_get_row_count(const cdyn_system *sys, cdyn_constraint c,
                                                   size_t *out);

/** Enables or disables @p c; a disabled constraint keeps its settings but
 *  takes no part in the solve. Constraints start enabled. A curve or
 *  surface constraint is always enabled: enabling it is a no-op, disabling
 *  it gives CDYN_ERR_UNSUPPORTED (remove it instead). Stale, foreign or
 *  wrong-kind handles: CDYN_ERR_STALE_HANDLE / CDYN_ERR_INVALID_HANDLE;
 *  during a step: CDYN_ERR_BUSY. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_set_enabled(cdyn_system *sys, cdyn_constraint c,
                                                 bool enabled);

/** Whether @p c is enabled. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_get_enabled(const cdyn_system *sys, cdyn_constraint c,
                                                 bool *out);

/** Compliance alpha >= 0 (inverse stiffness, units of g per multiplier) of
 *  every row of @p c; 0 (the default) is rigid. A compliant row acts as a
 *  spring of energy g^2 / (2 alpha), treated implicitly over the step dt:
 *  it solves (G W G^T + alpha / dt^2) lambda = -G'v - G W F - g / dt^2
 *  - g' / dt, which tends to the rigid constraint as alpha -> 0 and to the
 *  force -g / alpha for large alpha. dt is the dt passed to the step in
 *  progress (with RK45 the outer dt, not the internal step);
 *  cdyn_system_evaluate uses the last step's dt, or 1e-3 s before the first
 *  step.
 *  Returns CDYN_ERR_INVALID_ARGUMENT for a negative or non-finite value,
 *  CDYN_ERR_UNSUPPORTED for a curve or surface constraint (exact by
 *  construction, it has no rows to soften), CDYN_ERR_NO_MEMORY when the
 *  first compliant constraint of a system cannot allocate the per-row
 *  compliance array (nothing changed), handle errors as for every
 *  constraint function, CDYN_ERR_BUSY during a step. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_set_compliance(cdyn_system *sys, cdyn_constraint c,
                                                    double compliance);

/** The compliance of @p c. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_get_compliance(const cdyn_system *sys, cdyn_constraint c,
                                                    double *out);

/** The multipliers of @p c (one per row) from the most recent force
 *  evaluation (the last stage of the last step, or cdyn_system_evaluate).
 *  @p capacity must be >= the row count (else CDYN_ERR_INVALID_ARGUMENT).
 *  Zero before any evaluation or while @p c is disabled. A curve or surface
 *  constraint has no multipliers: CDYN_OK with nothing written (@p out may
 *  be NULL); its force is cdyn_constraint_get_force. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_get_multipliers(const cdyn_system *sys, cdyn_constraint c,
                                                     double *out, size_t capacity);

/** The Cartesian force (N, dim values) that @p c exerts on particle @p p
 *  at the most recent force evaluation. CDYN_ERR_INVALID_ARGUMENT when @p p
 *  is not one of its particles. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_get_force(const cdyn_system *sys, cdyn_constraint c,
                                               cdyn_particle p, double *out);

/** The total constraint force (N) on every particle index at the most
 *  recent force evaluation, in the flat layout of
 *  cdyn_system_get_positions: for each particle the sum over its
 *  constraints of G^T lambda, as cdyn_constraint_get_force gives them one
 *  at a time, plus for a particle held on a curve or surface the force of
 *  the shape. Fixed and kinematic particles get the reaction of their
 *  constraints; removed indices, particles in no constraint and disabled
 *  constraints contribute zeros, as does every constraint before the first
 *  evaluation or after the constraints changed (until the next one). With
 *  CDYN_INTEGRATOR_RATTLE the forces are those of its projections.
 *  @p capacity is the length of @p out in doubles.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (nothing written) for NULL
 *  arguments or @p capacity below index count * dim. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_constraint_forces(const cdyn_system *sys, double *out,
                                                       size_t capacity);

/* ---- Driven (time-dependent) constraints -------------------------------
 *
 * A constraint may depend on time, g(x, t) = 0. Everything that uses g
 * then uses its time derivatives too: the multiplier equation's right-hand
 * side (the velocity terms of g'' and the feedback on g' = G v + dg/dt),
 * the projections (G v + dg/dt = 0), backward Euler's g(x1, t1) = 0 and the
 * residuals. Such constraints take the general row path (not the fused rod
 * kernels). The work their forces do, -lambda . dg/dt per unit time, is
 * part of cdyn_system_get_drive_work. Guide: docs/driven.md. */

/** Moves the geometry of @p c with the rigid motion @p motion (motion.h)
 *  from the system's current time t_s on, as T(t) T(t_s)^-1: an anchor's
 *  or pin's point, a plane, or the curve or surface of a parametric
 *  constraint (parametric.h). Nothing jumps at t_s: the particles keep
 *  their positions and velocities, except that a particle held on a curve
 *  or surface keeps its coordinates and their rates, so that its velocity
 *  gains the velocity of the shape's material where it is. A particle
 *  whose velocity does not fit the moving constraint (G v + dg/dt != 0)
 *  is brought onto it by the drift feedback or the projection. Attaching a
 *  new motion
 *  replaces the old one from where it left the geometry; NULL stops the
 *  motion and leaves the geometry where it is at the current time. The
 *  description is copied (a callback's @p user pointer is kept, never
 *  dereferenced).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or a bad
 *  description (the message says which field); CDYN_ERR_UNSUPPORTED for
 *  distance, user and implicit constraints (they have no geometry of their
 *  own: use a length schedule or a time-dependent callback);
 *  CDYN_ERR_CALLBACK when a callback motion fails at the current time
 *  (nothing changed); CDYN_ERR_NO_MEMORY; handle statuses; CDYN_ERR_BUSY.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_set_motion(cdyn_system *sys, cdyn_constraint c,
                                                const cdyn_motion_desc *motion);

/** Whether a motion moves @p c (*@p moving) and, if so and @p out is not
 *  NULL, a copy of its description.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or
 *  @p moving; handle statuses. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_get_motion(const cdyn_system *sys, cdyn_constraint c,
                                                cdyn_motion_desc *out, bool *moving);

/** Drives the length L of a distance or anchor constraint by @p schedule
 *  (motion.h) from the current time t_s on: L(t) = L(t_s) + s(t) - s(t_s).
 *  The constraint then has dg/dt = -L L' and its g'' the terms
 *  -(L'^2 + L L''). NULL stops the schedule at the current length. The
 *  description is copied.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or a bad
 *  description; CDYN_ERR_UNSUPPORTED for other kinds; CDYN_ERR_CALLBACK
 *  when a callback schedule fails at the current time; CDYN_ERR_NO_MEMORY;
 *  handle statuses; CDYN_ERR_BUSY. A schedule that makes L reach 0 or
 *  below makes the constraint singular there: the step then fails with
 *  CDYN_ERR_SINGULAR or CDYN_ERR_DIVERGED. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_set_length_schedule(cdyn_system *sys, cdyn_constraint c,
                                                         const cdyn_schedule_desc *schedule);

/** Whether a schedule drives the length of @p c (*@p scheduled) and, if so
 *  and @p out is not NULL, a copy of its description.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or
 *  @p scheduled; handle statuses. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_get_length_schedule(const cdyn_system *sys,
                                                         cdyn_constraint c,
                                                         cdyn_schedule_desc *out,
                                                         bool *scheduled);

/** Declares whether the callback of a user or implicit constraint depends
 *  on time (default false). A time-dependent callback receives non-NULL
 *  time-derivative outputs (see cdyn_constraint_fn and cdyn_implicit_fn)
 *  and may leave them to central differences in t.
 *  @return CDYN_OK; CDYN_ERR_UNSUPPORTED for built-in kinds (use
 *  cdyn_constraint_set_motion or a length schedule); CDYN_ERR_NO_MEMORY
 *  (room for the differences of a user constraint); handle statuses;
 *  CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys; CDYN_ERR_BUSY. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_set_time_dependent(cdyn_system *sys, cdyn_constraint c,
                                                        bool time_dependent);

/** Whether @p c was declared time-dependent.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL; handle statuses.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_get_time_dependent(const cdyn_system *sys,
                                                        cdyn_constraint c, bool *out);

/** The point of an anchor or pin at the system's current time (dim
 *  values, m): where its motion has carried it, or where it was put.
 *  @return CDYN_OK; CDYN_ERR_UNSUPPORTED for other kinds;
 *  CDYN_ERR_CALLBACK when a callback motion fails; CDYN_ERR_INVALID_ARGUMENT
 *  for NULL; handle statuses. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_get_point(const cdyn_system *sys, cdyn_constraint c,
                                               double *out);

/** The length L (m) of a distance or anchor constraint at the system's
 *  current time (following its schedule, if any).
 *  @return CDYN_OK; CDYN_ERR_UNSUPPORTED for other kinds;
 *  CDYN_ERR_CALLBACK when a callback schedule fails; CDYN_ERR_INVALID_ARGUMENT
 *  for NULL; handle statuses. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_get_length(const cdyn_system *sys, cdyn_constraint c,
                                                double *out);

/** Options of the multiplier solve. Fill with cdyn_solver_options_init,
 *  then change what you need; the size field lets the struct grow. */
typedef struct cdyn_solver_options {
    size_t size; /**< sizeof(cdyn_solver_options), set by the init function */
    /** The linear solver: CDYN_SOLVER_DIRECT (the default) or
     *  CDYN_SOLVER_CG. */
    cdyn_constraint_solver solver;
    /** Drift-feedback gains of the multiplier equation: ks (1/s^2) and kd
     *  (1/s), finite and >= 0. Defaults ks = 100, kd = 20: a critically
     *  damped return of the error with a time constant of 0.1 s, stable for
     *  dt up to about 0.05 s with the explicit integrators. RATTLE and
     *  compliant rows use no gains. */
    double ks;
    double kd;
    /** CG: relative residual tolerance, finite and > 0; default 1e-10. */
    double cg_tolerance;
    /** CG: iteration cap, 1 .. 2^32 - 1; default 1000. A solve that hits
     *  the cap keeps its last iterate and is counted in
     *  cdyn_solver_stats.cg_not_converged. */
    size_t cg_max_iterations;
} cdyn_solver_options;

/** Fills @p options with the defaults: size = sizeof(cdyn_solver_options),
 *  CDYN_SOLVER_DIRECT, ks = 100, kd = 20, cg_tolerance = 1e-10,
 *  cg_max_iterations = 1000. NULL is a no-op. @since 0.1 */
CDYN_API void cdyn_solver_options_init(cdyn_solver_options *options);

/** Sets the options of the multiplier solve of @p sys (copied; the pointer
 *  is not kept); they apply from the next force evaluation.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (nothing changed, the message
 *  names the field) for a NULL argument, a size other than
 *  sizeof(cdyn_solver_options), an unknown solver, a gain not finite or
 *  < 0, a CG tolerance not finite or <= 0, or an iteration cap outside
 *  1 .. 2^32 - 1; CDYN_ERR_NO_MEMORY when the constraint store (created on
 *  first use) cannot be allocated; CDYN_ERR_BUSY from a callback.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_system_set_solver_options(cdyn_system *sys,
                                                    const cdyn_solver_options *options);

/** Copies the solver options of @p sys into @p out (the defaults before any
 *  cdyn_system_set_solver_options). @p out->size must be set by the caller
 *  (at least sizeof(size_t)); at most that many bytes are written and the
 *  size field is left as it is.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL or a size below
 *  sizeof(size_t) (nothing written). @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_solver_options(const cdyn_system *sys,
                                                    cdyn_solver_options *out);

/** Evaluates forces, constraint multipliers and accelerations at the
 *  committed state without stepping, with what the next step would start
 *  from (forces applied for the next step included); the accelerations
 *  (m/s^2, index count * dim values, layout of cdyn_system_get_positions)
 *  go to @p out when it is not NULL (then @p capacity must be large
 *  enough). Statuses as for a step (callback, singular); the state never
 *  changes. @since 0.1 */
CDYN_API cdyn_status cdyn_system_evaluate(cdyn_system *sys, double *out, size_t capacity);

/** Computes the worst constraint residuals at the committed state and
 *  time, over every enabled row: |g| / b into *@p position and |g'| / b
 *  into *@p velocity (g' = G v + dg/dt, the rate of change of g along the
 *  motion), with b the largest norm of the row's blocks (one block per
 *  particle). For rods and anchors that is the length error (m, to first
 *  order) and the rate of change of length (m/s); for pins the distance
 *  from the point; for planes the distance from the plane. Either pointer
 *  may be NULL. Work on demand (hence compute_, not get_): it evaluates
 *  every constraint, user callbacks included, and lays out the constraint
 *  rows first if they changed (which may allocate).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys;
 *  CDYN_ERR_CALLBACK from a callback; CDYN_ERR_NO_MEMORY; CDYN_ERR_BUSY
 *  from a callback. @since 0.1 */
CDYN_API cdyn_status cdyn_system_compute_constraint_residuals(cdyn_system *sys, double *position,
                                                              double *velocity);

/** Fills @p out (whose size field the caller set, at least sizeof(size_t);
 *  at most that many bytes are written) with the solver report; all zero
 *  before the first solve.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL or a size below
 *  sizeof(size_t) (nothing written). @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_solver_stats(const cdyn_system *sys,
                                                  cdyn_solver_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_CONSTRAINT_H */
