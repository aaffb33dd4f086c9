/** @file
 * @brief Implicit holonomic constraints g(x, t) = 0, their multiplier
 * solve, driven constraints and the solver's options and report.
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
 * (cdyn_constraint_set_compliance()) replace the feedback terms by an
 * implicit spring over the step, adding alpha / dt^2 to their diagonal.
 *
 * The built-in constraints use quadratic forms where a distance is
 * involved (g = (|d|^2 - L^2) / 2 for rods), so a multiplier has units of
 * force per length; cdyn_constraint_get_force() gives the Cartesian force in
 * newtons; cdyn_system_get_constraint_forces() all of them per particle.
 *
 * A constraint owns its rows; a particle removed from the system removes
 * every constraint that touches it (their handles become stale). Particles
 * of rigid bodies cannot be constrained. Guide: docs/constraints.md.
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

/** The kinds of constraint, read with cdyn_constraint_get_kind().
 *
 *  The values are pinned.
 */
typedef enum cdyn_constraint_kind {
    CDYN_CONSTRAINT_DISTANCE = 1, /**< |x_b - x_a| = L between two particles (a rod). */
    CDYN_CONSTRAINT_ANCHOR = 2,   /**< |x - b| = L from a fixed point b (a rod). */
    CDYN_CONSTRAINT_PIN = 3,      /**< x = p: dim rows. */
    CDYN_CONSTRAINT_PLANE = 4,    /**< n.x = c: a plane in 3-D, a line in 2-D. */
    CDYN_CONSTRAINT_USER = 5,     /**< Rows, Jacobian and G'v from a callback. */
    CDYN_CONSTRAINT_IMPLICIT = 6, /**< c(x) = 0 for one particle, from a callback. */
    CDYN_CONSTRAINT_CURVE = 7,    /**< x = r(q) on a curve (parametric.h). */
    CDYN_CONSTRAINT_SURFACE = 8   /**< x = r(u, v) on a surface (parametric.h). */
} cdyn_constraint_kind;

/** The linear solvers for the multipliers (cdyn_solver_options.solver).
 *
 *  The values are pinned.
 */
typedef enum cdyn_constraint_solver {
    /** Sparse LDL^T with a fill-reducing order; chains and trees factor
     *  with no fill. Exact; the default. */
    CDYN_SOLVER_DIRECT = 1,
    /** Jacobi-preconditioned conjugate gradients, warm-started from the
     *  previous multipliers; for very large loopy systems. */
    CDYN_SOLVER_CG = 2
} cdyn_constraint_solver;

/** A user constraint: n_rows equations g(x, t) = 0 on n_particles particles
 *  (cdyn_constraint_add_user()).
 *
 *  The callback writes, at the state @p x, @p v and time @p t:
 *
 *  - @p g: the n_rows residuals;
 *  - @p jacobian: G = dg/dx, n_rows * n_particles * dim values, row r's block
 *    for particle j at (r * n_particles + j) * dim;
 *  - @p velocity_terms: the part of g'' that holds no acceleration, so that
 *    g'' = G a + velocity_terms (n_rows values). For a constraint that does not
 *    depend on t it is (dG/dt) v, that is v^T Hess(g_r) v for row r; a
 *    time-dependent one adds 2 (dG/dt at fixed x) v + d2g/dt2;
 *  - @p g_t: the partial derivative dg/dt at fixed x (n_rows values), when it
 *    is not NULL.
 *
 *  @p g_t is NULL unless the constraint was declared time-dependent
 *  (cdyn_constraint_set_time_dependent()); it is then filled with NaN before
 *  the call, and a callback that leaves any NaN in it has its time derivatives
 *  formed by the library from calls at t +- 2^-13 s (central differences):
 *  @p velocity_terms must then hold the spatial part v^T Hess(g_r) v only.
 *  Their error is about (omega h)^2 / 6 relative, omega the fastest angular
 *  frequency of the motion, h = 2^-13 s, plus a round-off of about 1e-16 |g| /
 *  h^2 in d2g/dt2. The callback may read @p sys; any call that changes it
 *  returns CDYN_ERR_BUSY.
 *
 *  @param[in]  sys             The system being evaluated; read only.
 *  @param[in]  t               Time (s).
 *  @param[in]  n_particles     The number of particles of the constraint.
 *  @param[in]  dim             The dimension, 2 or 3.
 *  @param[in]  x               Positions (m) of the constraint's particles in
 *                              the order given at creation, n_particles * dim
 *                              values.
 *  @param[in]  v               Their velocities (m/s), laid out as @p x.
 *  @param[in]  n_rows          The number of equations.
 *  @param[out] g               Receives the n_rows residuals.
 *  @param[out] jacobian        Receives G, n_rows * n_particles * dim values.
 *  @param[out] velocity_terms  Receives the n_rows velocity terms of g''.
 *  @param[out] g_t             Receives dg/dt at fixed x, n_rows values; NULL
 *                              unless the constraint is time-dependent.
 *  @param[in]  user            The pointer given to cdyn_constraint_add_user().
 *  @return 0 on success; anything else (or a non-finite output) fails the step
 *          or call with CDYN_ERR_CALLBACK and leaves the system as it was
 *          before it.
 *  @since 0.1
 */
typedef int (*cdyn_constraint_fn)(const cdyn_system *sys, double t, size_t n_particles, int dim,
                                  const double *x, const double *v, size_t n_rows, double *g,
                                  double *jacobian, double *velocity_terms, double *g_t,
                                  void *user);

/** An implicit curve (2-D) or surface (3-D) c(x, t) = 0 for one particle
 *  (cdyn_constraint_add_implicit()).
 *
 *  The callback writes c, its gradient and its Hessian at the point @p x and
 *  time @p t. @p c_t, @p gradient_t and @p c_tt are NULL unless the constraint
 *  was declared time-dependent (cdyn_constraint_set_time_dependent()); then
 *  they are filled with NaN and the callback writes dc/dt, d(grad c)/dt and
 *  d2c/dt2 at fixed x, or leaves NaN in any of them to have all three formed by
 *  central differences in t (error as for cdyn_constraint_fn). The callback may
 *  read @p sys; any call that changes it returns CDYN_ERR_BUSY.
 *
 *  @param[in]  sys         The system being evaluated; read only.
 *  @param[in]  t           Time (s).
 *  @param[in]  dim         The dimension, 2 or 3.
 *  @param[in]  x           The particle's position (m), dim values.
 *  @param[out] c           Receives c(x, t).
 *  @param[out] gradient    Receives grad c, dim values.
 *  @param[out] hessian     Receives the Hessian of c, dim * dim values,
 *                          row-major.
 *  @param[out] c_t         Receives dc/dt; NULL unless time-dependent.
 *  @param[out] gradient_t  Receives d(grad c)/dt, dim values; NULL unless
 *                          time-dependent.
 *  @param[out] c_tt        Receives d2c/dt2; NULL unless time-dependent.
 *  @param[in]  user        The pointer given to cdyn_constraint_add_implicit().
 *  @return 0 on success; anything else (or a non-finite output) fails the step
 *          or call with CDYN_ERR_CALLBACK.
 *  @since 0.1
 */
typedef int (*cdyn_implicit_fn)(const cdyn_system *sys, double t, int dim, const double *x,
                                double *c, double *gradient, double *hessian, double *c_t,
                                double *gradient_t, double *c_tt, void *user);

/** The report of the multiplier solve, read with
 *  cdyn_system_get_solver_stats().
 *
 *  Set @c size to sizeof(cdyn_solver_stats) before the call; fields beyond
 *  it are not written, so the struct may grow.
 */
typedef struct cdyn_solver_stats {
    size_t size;                /**< Set by the caller: the bytes that may be written. */
    size_t rows;                /**< Constraint rows in the last solve. */
    size_t iterations;          /**< CG iterations of the last solve (0: direct). */
    double residual;            /**< Relative residual of the last solve. */
    size_t redundant_rows;      /**< Rows dropped as redundant in the last solve. */
    uint64_t solves;            /**< Solves since the system was created. */
    uint64_t redundant_solves;  /**< Solves that met redundant rows (a warning). */
    uint64_t cg_not_converged;  /**< CG solves that hit the iteration cap (a warning). */
    cdyn_constraint last_redundant; /**< A constraint of the last redundant row; 0 if none. */
    size_t factor_nonzeros;     /**< Entries of L below the diagonal (direct solver). */
} cdyn_solver_stats;

/** Adds a rod of fixed length between two particles: g = (|x_b - x_a|^2 - L^2)
 *  / 2.
 *
 *  @param[in,out] sys     The system.
 *  @param[in]     a       The first particle.
 *  @param[in]     b       The second particle, not @p a.
 *  @param[in]     length  L (m), finite and > 0.
 *  @param[out]    out     Receives the constraint's handle.
 *  @retval CDYN_OK                    the constraint was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, @p a and @p b
 *                                     are the same particle, a particle belongs
 *                                     to a rigid body, or the length is not
 *                                     finite and > 0.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p a or @p b is 0, not a particle, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p a or @p b was removed.
 *  @retval CDYN_ERR_NO_MEMORY         growing the constraint storage failed;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_add_distance(cdyn_system *sys, cdyn_particle a,
                                                  cdyn_particle b, double length,
                                                  cdyn_constraint *out);

/** Adds a rod of fixed length from a fixed point to a particle: g = (|x -
 *  b|^2 - L^2) / 2.
 *
 *  The point may be moved later (cdyn_constraint_set_motion()) and the length
 *  driven (cdyn_constraint_set_length_schedule()).
 *
 *  @param[in,out] sys     The system.
 *  @param[in]     p       The particle.
 *  @param[in]     anchor  The point b (m), dim finite values, copied.
 *  @param[in]     length  L (m), finite and > 0.
 *  @param[out]    out     Receives the constraint's handle.
 *  @retval CDYN_OK                    the constraint was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p anchor or @p out is NULL, a
 *                                     value of @p anchor is not finite, the
 *                                     length is not finite and > 0, or the
 *                                     particle belongs to a rigid body.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @retval CDYN_ERR_NO_MEMORY         growing the constraint storage failed;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_add_anchor(cdyn_system *sys, cdyn_particle p,
                                                const double *anchor, double length,
                                                cdyn_constraint *out);

/** Holds a particle at a point: dim rows g = x - point.
 *
 *  @param[in,out] sys    The system.
 *  @param[in]     p      The particle.
 *  @param[in]     point  The point (m), dim finite values, copied.
 *  @param[out]    out    Receives the constraint's handle.
 *  @retval CDYN_OK                    the constraint was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p point or @p out is NULL, a
 *                                     value of @p point is not finite, or the
 *                                     particle belongs to a rigid body.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @retval CDYN_ERR_NO_MEMORY         growing the constraint storage failed;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_add_pin(cdyn_system *sys, cdyn_particle p,
                                             const double *point, cdyn_constraint *out);

/** Keeps a particle on a plane (3-D) or a line (2-D): g = n.x - offset.
 *
 *  The normal is normalized and the offset divided by its length, so that g is
 *  the signed distance from the plane.
 *
 *  @param[in,out] sys     The system.
 *  @param[in]     p       The particle.
 *  @param[in]     normal  The normal n, dim finite values, not all zero;
 *                         copied.
 *  @param[in]     offset  The offset (m, times |n|), finite.
 *  @param[out]    out     Receives the constraint's handle.
 *  @retval CDYN_OK                    the constraint was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, @p normal is
 *                                     NULL, not finite or zero, @p offset is
 *                                     not finite, or the particle belongs to a
 *                                     rigid body.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @retval CDYN_ERR_NO_MEMORY         growing the constraint storage failed;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_add_plane(cdyn_system *sys, cdyn_particle p,
                                               const double *normal, double offset,
                                               cdyn_constraint *out);

/** Adds a user constraint of n_rows equations on up to 64 particles.
 *
 *  @p fn is called at every force evaluation and residual computation
 *  (cdyn_constraint_fn).
 *
 *  @param[in,out] sys          The system.
 *  @param[in]     particles    @p n_particles distinct particle handles,
 *                              copied.
 *  @param[in]     n_particles  The number of particles, 1 .. 64.
 *  @param[in]     n_rows       The number of equations, 1 .. 64.
 *  @param[in]     fn           The constraint function; not NULL.
 *  @param[in]     user         Passed back to @p fn; kept for the constraint's
 *                              lifetime and never dereferenced. May be NULL.
 *  @param[out]    out          Receives the constraint's handle.
 *  @retval CDYN_OK                    the constraint was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p particles, @p fn or @p out is
 *                                     NULL, a count is outside 1 .. 64, a
 *                                     particle is listed twice or belongs to a
 *                                     rigid body.
 *  @retval CDYN_ERR_INVALID_HANDLE    a handle of @p particles is 0, not a
 *                                     particle, or of another system.
 *  @retval CDYN_ERR_STALE_HANDLE      a handle of @p particles names a removed
 *                                     particle.
 *  @retval CDYN_ERR_NO_MEMORY         growing the constraint storage failed;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_add_user(cdyn_system *sys, const cdyn_particle *particles,
                                              size_t n_particles, size_t n_rows,
                                              cdyn_constraint_fn fn, void *user,
                                              cdyn_constraint *out);

/** Keeps a particle on an implicit curve (2-D) or surface (3-D) c(x) = 0 given
 *  by a callback.
 *
 *  One row, with G = grad c and G'v = v^T Hess(c) v. A bead on the parabola
 *  x^2 + 100 y = 0 has c = x^2 + 100 y.
 *
 *  @param[in,out] sys   The system.
 *  @param[in]     p     The particle.
 *  @param[in]     fn    The function c; not NULL.
 *  @param[in]     user  Passed back to @p fn; kept for the constraint's
 *                       lifetime and never dereferenced. May be NULL.
 *  @param[out]    out   Receives the constraint's handle.
 *  @retval CDYN_OK                    the constraint was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p fn or @p out is NULL, or the
 *                                     particle belongs to a rigid body.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @retval CDYN_ERR_NO_MEMORY         growing the constraint storage failed;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_add_implicit(cdyn_system *sys, cdyn_particle p,
                                                  cdyn_implicit_fn fn, void *user,
                                                  cdyn_constraint *out);

/** Removes a constraint.
 *
 *  Its handle becomes stale and its rows leave the solve from the next
 *  evaluation on. Removing a curve or surface constraint (parametric.h)
 *  releases its particle, which keeps its position and velocity and moves
 *  freely.
 *
 *  @param[in,out] sys  The system.
 *  @param[in]     c    The constraint.
 *  @retval CDYN_OK                    the constraint was removed.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed already (also with one
 *                                     of its particles).
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_remove(cdyn_system *sys, cdyn_constraint c);

/** Tells whether a handle names a live constraint of a system.
 *
 *  Sets no status and leaves the last-error message alone.
 *
 *  @param[in] sys  The system, or NULL.
 *  @param[in] c    Any handle.
 *  @return true when @p c is a live constraint of @p sys; false otherwise and
 *          for a NULL @p sys.
 *  @since 0.1
 */
CDYN_API bool cdyn_constraint_is_valid(const cdyn_system *sys, cdyn_constraint c);

/** Reads the kind of a constraint.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  c    The constraint.
 *  @param[out] out  Receives its kind.
 *  @retval CDYN_OK                    the kind was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_get_kind(const cdyn_system *sys, cdyn_constraint c,
                                              cdyn_constraint_kind *out);

/** Reads the number of equations of a constraint.
 *
 *  The rows it adds to the multiplier solve: 1 for rods, anchors, planes and
 *  implicit constraints, dim for pins, n_rows for user constraints. A curve or
 *  surface constraint has no rows in the solve; for it the count is the number
 *  of degrees of freedom it removes, dim - 1 for a curve, dim - 2 for a
 *  surface.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  c    The constraint.
 *  @param[out] out  Receives the count.
 *  @retval CDYN_OK                    the count was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_get_row_count(const cdyn_system *sys, cdyn_constraint c,
                                                   size_t *out);

/** Enables or disables a constraint.
 *
 *  A disabled constraint keeps its settings but takes no part in the solve;
 *  constraints start enabled. A curve or surface constraint is always enabled:
 *  enabling it does nothing, disabling it is refused (remove it instead).
 *
 *  @param[in,out] sys      The system.
 *  @param[in]     c        The constraint.
 *  @param[in]     enabled  true to enable, false to disable.
 *  @retval CDYN_OK                    the constraint is enabled or disabled as
 *                                     asked.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @retval CDYN_ERR_UNSUPPORTED       @p c is a curve or surface constraint and
 *                                     @p enabled is false.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_set_enabled(cdyn_system *sys, cdyn_constraint c,
                                                 bool enabled);

/** Reads whether a constraint is enabled.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  c    The constraint.
 *  @param[out] out  Receives true when the constraint takes part in the solve.
 *  @retval CDYN_OK                    the flag was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_get_enabled(const cdyn_system *sys, cdyn_constraint c,
                                                 bool *out);

/** Sets the compliance of every row of a constraint, making it an implicit
 *  spring.
 *
 *  0 (the default) is rigid. A compliant row acts as a spring of energy g^2 /
 *  (2 alpha), treated implicitly over the step dt: it solves (G W G^T + alpha /
 *  dt^2) lambda = -G'v - G W F - g / dt^2 - g' / dt, which tends to the rigid
 *  constraint as alpha -> 0 and to the force -g / alpha for large alpha. dt is
 *  the dt passed to the step in progress (with RK45 the outer dt, not the
 *  internal step); cdyn_system_evaluate() uses the last step's dt, or 1e-3 s
 *  before the first step. RATTLE and the projections refuse compliant
 *  constraints at the step (CDYN_ERR_UNSUPPORTED).
 *
 *  @param[in,out] sys         The system.
 *  @param[in]     c           The constraint.
 *  @param[in]     compliance  alpha, the inverse stiffness (units of g per
 *                             multiplier), finite and >= 0.
 *  @retval CDYN_OK                    the compliance was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or @p compliance is not
 *                                     finite and >= 0.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @retval CDYN_ERR_UNSUPPORTED       @p c is a curve or surface constraint
 *                                     (exact by construction, it has no rows to
 *                                     soften).
 *  @retval CDYN_ERR_NO_MEMORY         the first compliant constraint of a
 *                                     system could not allocate the per-row
 *                                     compliance array; nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_set_compliance(cdyn_system *sys, cdyn_constraint c,
                                                    double compliance);

/** Reads the compliance of a constraint.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  c    The constraint.
 *  @param[out] out  Receives alpha; 0 for a rigid constraint.
 *  @retval CDYN_OK                    the compliance was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_get_compliance(const cdyn_system *sys, cdyn_constraint c,
                                                    double *out);

/** Reads the multipliers of a constraint, one per row, from the most recent
 *  force evaluation.
 *
 *  The most recent evaluation is the last stage of the last step, or
 *  cdyn_system_evaluate(). The values are zero before any evaluation, after the
 *  constraints changed (until the next one) and while the constraint is
 *  disabled. A curve or surface constraint has no multipliers: nothing is
 *  written (its force is cdyn_constraint_get_force()).
 *
 *  @param[in]  sys       The system.
 *  @param[in]  c         The constraint.
 *  @param[out] out       Receives the multipliers (units of force over the
 *                        units of g: N/m for rods); may be NULL for a curve or
 *                        surface constraint.
 *  @param[in]  capacity  The length of @p out, at least the row count.
 *  @retval CDYN_OK                    the multipliers were written (or there
 *                                     are none).
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or @p out is NULL or
 *                                     @p capacity short for a constraint with
 *                                     rows.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_get_multipliers(const cdyn_system *sys, cdyn_constraint c,
                                                     double *out, size_t capacity);

/** Reads the Cartesian force that a constraint exerts on one of its particles.
 *
 *  G^T lambda for that particle at the most recent force evaluation; zero
 *  before any evaluation, after the constraints changed (until the next one)
 *  and while the constraint is disabled. For a curve or surface constraint, the
 *  force its shape exerts (the normal force) at the most recent force
 *  evaluation.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  c    The constraint.
 *  @param[in]  p    One of the constraint's particles.
 *  @param[out] out  Receives dim values (N).
 *  @retval CDYN_OK                    the force was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p p is not
 *                                     one of the constraint's particles.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system; or @p p is 0, not a
 *                                     particle, or of another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c or @p p was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_get_force(const cdyn_system *sys, cdyn_constraint c,
                                               cdyn_particle p, double *out);

/** Copies the total constraint force on every particle index into a flat array.
 *
 *  In the layout of cdyn_system_get_positions(): for each particle the sum over
 *  its constraints of G^T lambda at the most recent force evaluation, as
 *  cdyn_constraint_get_force() gives them one at a time, plus for a particle
 *  held on a curve or surface the force of the shape. Fixed and kinematic
 *  particles get the reaction of their constraints; removed indices, particles
 *  in no constraint and disabled constraints contribute zeros, as does every
 *  constraint before the first evaluation or after the constraints changed
 *  (until the next one). With CDYN_INTEGRATOR_RATTLE the forces are those of
 *  its projections.
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
 * part of cdyn_system_get_drive_work(). Guide: docs/driven.md. */

/** Moves the geometry of a constraint with a prescribed rigid motion.
 *
 *  From the system's current time t_s on, the geometry moves as T(t) T(t_s)^-1:
 *  an anchor's or pin's point, a plane, or the curve or surface of a parametric
 *  constraint (parametric.h). Nothing jumps at t_s: the particles keep their
 *  positions and velocities, except that a particle held on a curve or surface
 *  keeps its coordinates and their rates, so that its velocity gains the
 *  velocity of the shape's material where it is. A particle whose velocity does
 *  not fit the moving constraint (G v + dg/dt != 0) is brought onto it by the
 *  drift feedback or the projection. A new motion replaces the old one from
 *  where it left the geometry.
 *
 *  @param[in,out] sys     The system.
 *  @param[in]     c       An anchor, pin, plane, curve or surface constraint.
 *  @param[in]     motion  The motion's description, copied (a callback's
 *                         @c user pointer is kept and passed back, never
 *                         dereferenced). NULL stops the motion and leaves the
 *                         geometry where it is at the current time.
 *  @retval CDYN_OK                    the motion was attached or stopped.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or the description is bad
 *                                     (the message names the field).
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @retval CDYN_ERR_UNSUPPORTED       @p c is a distance, user or implicit
 *                                     constraint (they have no geometry of
 *                                     their own: use a length schedule or a
 *                                     time-dependent callback).
 *  @retval CDYN_ERR_CALLBACK          a callback motion failed at the current
 *                                     time; nothing changed.
 *  @retval CDYN_ERR_DIVERGED          a built-in motion overflows to a
 *                                     non-finite state at the current time;
 *                                     nothing changed.
 *  @retval CDYN_ERR_NO_MEMORY         the constraint's drive record could not
 *                                     be allocated; nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_set_motion(cdyn_system *sys, cdyn_constraint c,
                                                const cdyn_motion_desc *motion);

/** Reads whether a motion moves a constraint and, if so, its description.
 *
 *  @param[in]  sys     The system.
 *  @param[in]  c       The constraint.
 *  @param[out] out     Receives a copy of the motion's description when one
 *                      moves the constraint (left alone otherwise); may be
 *                      NULL.
 *  @param[out] moving  Receives true when a motion moves the constraint.
 *  @retval CDYN_OK                    the answer was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p moving is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_get_motion(const cdyn_system *sys, cdyn_constraint c,
                                                cdyn_motion_desc *out, bool *moving);

/** Drives the length of a distance or anchor constraint by a schedule.
 *
 *  From the current time t_s on, L(t) = L(t_s) + s(t) - s(t_s) (motion.h). The
 *  constraint then has dg/dt = -L L' and its g'' the terms -(L'^2 + L L''). A
 *  schedule that makes L reach 0 or below makes the constraint singular there:
 *  the step then fails with CDYN_ERR_SINGULAR or CDYN_ERR_DIVERGED.
 *
 *  @param[in,out] sys       The system.
 *  @param[in]     c         A distance or anchor constraint.
 *  @param[in]     schedule  The schedule's description, copied (a callback's
 *                           @c user pointer is kept, never dereferenced). NULL
 *                           stops the schedule at the current length.
 *  @retval CDYN_OK                    the schedule was attached or stopped.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or the description is bad
 *                                     (the message names the field).
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @retval CDYN_ERR_UNSUPPORTED       @p c is of another kind.
 *  @retval CDYN_ERR_CALLBACK          a callback schedule (the new one, or the
 *                                     one that sets the current length) failed
 *                                     at the current time; nothing changed.
 *  @retval CDYN_ERR_DIVERGED          a built-in schedule's value overflows at
 *                                     the current time; nothing changed.
 *  @retval CDYN_ERR_NO_MEMORY         the constraint's drive record could not
 *                                     be allocated; nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_set_length_schedule(cdyn_system *sys, cdyn_constraint c,
                                                         const cdyn_schedule_desc *schedule);

/** Reads whether a schedule drives the length of a constraint and, if so, its
 *  description.
 *
 *  @param[in]  sys        The system.
 *  @param[in]  c          The constraint.
 *  @param[out] out        Receives a copy of the schedule's description when
 *                         one drives the constraint (left alone otherwise); may
 *                         be NULL.
 *  @param[out] scheduled  Receives true when a schedule drives the length.
 *  @retval CDYN_OK                    the answer was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p scheduled is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_get_length_schedule(const cdyn_system *sys,
                                                         cdyn_constraint c,
                                                         cdyn_schedule_desc *out,
                                                         bool *scheduled);

/** Declares whether the callback of a user or implicit constraint depends on
 *  time.
 *
 *  A time-dependent callback receives non-NULL time-derivative outputs
 *  (cdyn_constraint_fn, cdyn_implicit_fn) and may leave them to central
 *  differences in t. Constraints start time-independent.
 *
 *  @param[in,out] sys             The system.
 *  @param[in]     c               A user or implicit constraint.
 *  @param[in]     time_dependent  true when the callback depends on t.
 *  @retval CDYN_OK                    the declaration was recorded.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @retval CDYN_ERR_UNSUPPORTED       @p c is a built-in kind (use
 *                                     cdyn_constraint_set_motion() or a length
 *                                     schedule).
 *  @retval CDYN_ERR_NO_MEMORY         room for the time differences or the
 *                                     drive record could not be allocated;
 *                                     nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_set_time_dependent(cdyn_system *sys, cdyn_constraint c,
                                                        bool time_dependent);

/** Reads whether a constraint was declared time-dependent.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  c    The constraint.
 *  @param[out] out  Receives true when it was declared time-dependent (always
 *                   false for built-in kinds).
 *  @retval CDYN_OK                    the flag was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_get_time_dependent(const cdyn_system *sys,
                                                        cdyn_constraint c, bool *out);

/** Sets the tag of the callback behind a constraint.
 *
 *  A tag is an integer of the caller's choosing that a snapshot holds in
 *  place of the function and its user pointer; cdyn_system_load() asks its
 *  resolver for them by tag (snapshot.h). The callback is a user
 *  constraint's, an implicit constraint's, or the callback curve's or
 *  surface's of a particle on a shape (whose description's @c tag set it
 *  first). 0 until set.
 *
 *  @param[in,out] sys  The system.
 *  @param[in]     c    A user or implicit constraint, or a particle's
 *                      constraint on a callback curve or surface.
 *  @param[in]     tag  Any value.
 *  @retval CDYN_OK                    the tag was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or @p c has no callback.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_set_tag(cdyn_system *sys, cdyn_constraint c, uint64_t tag);

/** Reads the tag of the callback behind a constraint.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  c    A constraint with a callback, as for
 *                   cdyn_constraint_set_tag().
 *  @param[out] out  Receives the tag (0 unless set).
 *  @retval CDYN_OK                    the tag was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p c has no
 *                                     callback.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_get_tag(const cdyn_system *sys, cdyn_constraint c,
                                             uint64_t *out);

/** Reads the point of an anchor or pin at the system's current time.
 *
 *  Where its motion has carried it, or where it was put.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  c    An anchor or pin.
 *  @param[out] out  Receives dim values (m).
 *  @retval CDYN_OK                    the point was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @retval CDYN_ERR_UNSUPPORTED       @p c is of another kind.
 *  @retval CDYN_ERR_CALLBACK          a callback motion failed at the current
 *                                     time.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_get_point(const cdyn_system *sys, cdyn_constraint c,
                                               double *out);

/** Reads the length of a distance or anchor constraint at the system's current
 *  time.
 *
 *  Following its schedule, if any.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  c    A distance or anchor constraint.
 *  @param[out] out  Receives L (m).
 *  @retval CDYN_OK                    the length was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @retval CDYN_ERR_UNSUPPORTED       @p c is of another kind.
 *  @retval CDYN_ERR_CALLBACK          a callback schedule (or the motion of an
 *                                     anchor) failed at the current time.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_get_length(const cdyn_system *sys, cdyn_constraint c,
                                                double *out);

/** Options of the multiplier solve.
 *
 *  Fill with cdyn_solver_options_init(), change what you need, then pass to
 *  cdyn_system_set_solver_options(). The size field lets the struct grow.
 */
typedef struct cdyn_solver_options {
    size_t size; /**< sizeof(cdyn_solver_options), set by the init function. */
    /** The linear solver: CDYN_SOLVER_DIRECT (the default) or
     *  CDYN_SOLVER_CG. */
    cdyn_constraint_solver solver;
    /** Drift-feedback gain on the position error g (1/s^2), finite and
     *  >= 0; default 100. With kd = 20 it gives a critically damped return
     *  of the error with a time constant of 0.1 s, stable for dt up to
     *  about 0.05 s with the explicit integrators. RATTLE and compliant
     *  rows use no gains. */
    double ks;
    /** Drift-feedback gain on the velocity error g' (1/s), finite and
     *  >= 0; default 20. */
    double kd;
    /** CG: relative residual tolerance, finite and > 0; default 1e-10. */
    double cg_tolerance;
    /** CG: iteration cap, 1 .. 2^32 - 1; default 1000. A solve that hits
     *  the cap keeps its last iterate and is counted in
     *  cdyn_solver_stats.cg_not_converged. */
    size_t cg_max_iterations;
} cdyn_solver_options;

/** Fills the options of the multiplier solve with the defaults.
 *
 *  The defaults: size = sizeof(cdyn_solver_options), CDYN_SOLVER_DIRECT, ks =
 *  100, kd = 20, cg_tolerance = 1e-10, cg_max_iterations = 1000.
 *
 *  @param[out] options  The struct to fill; NULL is a no-op.
 *  @since 0.1
 */
CDYN_API void cdyn_solver_options_init(cdyn_solver_options *options);

/** Sets the options of the multiplier solve.
 *
 *  They apply from the next force evaluation; a change of solver lays out the
 *  solve anew.
 *
 *  @param[in,out] sys      The system.
 *  @param[in]     options  The options, filled by cdyn_solver_options_init()
 *                          and then changed; copied, the pointer is not kept.
 *  @retval CDYN_OK                    the options were set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  nothing changed (the message names the
 *                                     field): @p sys or @p options is NULL, its
 *                                     size is not sizeof(cdyn_solver_options),
 *                                     the solver is unknown, a gain is not
 *                                     finite and >= 0, the CG tolerance is not
 *                                     finite and > 0, or the iteration cap is
 *                                     outside 1 .. 2^32 - 1.
 *  @retval CDYN_ERR_NO_MEMORY         the constraint store (created on first
 *                                     use) could not be allocated; nothing
 *                                     changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_set_solver_options(cdyn_system *sys,
                                                    const cdyn_solver_options *options);

/** Reads the options of the multiplier solve.
 *
 *  Before any cdyn_system_set_solver_options() they are the defaults of
 *  cdyn_solver_options_init().
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
CDYN_API cdyn_status cdyn_system_get_solver_options(const cdyn_system *sys,
                                                    cdyn_solver_options *out);

/** Evaluates forces, constraint multipliers and accelerations at the committed
 *  state without stepping.
 *
 *  With what the next step would start from: forces applied for the next step
 *  are included. The multipliers and constraint forces it computes are those
 *  that cdyn_constraint_get_multipliers() and the other constraint queries then
 *  report. Positions and velocities do not change (in a periodic box, clusters
 *  may be moved by whole box lengths, which changes no position as read); like
 *  a step, it may lay out the constraint rows and allocate scratch space first.
 *
 *  @param[in,out] sys       The system.
 *  @param[out]    out       Receives the accelerations (m/s^2) in the layout of
 *                           cdyn_system_get_positions(); may be NULL.
 *  @param[in]     capacity  The length of @p out in doubles, at least the index
 *                           count times dim when @p out is not NULL.
 *  @retval CDYN_OK                    the system was evaluated.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, @p capacity is short, or
 *                                     a pair generator's cutoff is not below
 *                                     half a periodic box length.
 *  @retval CDYN_ERR_CALLBACK          a callback (force, constraint, shape,
 *                                     motion, ground, pair potential) failed.
 *  @retval CDYN_ERR_SINGULAR          constraints conflict, so that no
 *                                     multipliers satisfy them.
 *  @retval CDYN_ERR_DIVERGED          the constraint equations were not finite.
 *  @retval CDYN_ERR_UNSUPPORTED       bonded particles close a loop through the
 *                                     faces of a periodic box.
 *  @retval CDYN_ERR_NO_MEMORY         scratch space or the constraint layout
 *                                     could not be allocated.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_evaluate(cdyn_system *sys, double *out, size_t capacity);

/** Computes the worst constraint residuals at the committed state and time.
 *
 *  Over every enabled row: |g| / b for the position and |g'| / b for the
 *  velocity (g' = G v + dg/dt, the rate of change of g along the motion), with
 *  b the largest norm of the row's blocks (one block per particle). For rods
 *  and anchors that is the length error (m, to first order) and the rate of
 *  change of length (m/s); for pins the distance from the point; for planes the
 *  distance from the plane. Work on demand (hence compute_, not get_): it
 *  evaluates every constraint, user callbacks included, and lays out the
 *  constraint rows first if they changed (which may allocate).
 *
 *  @param[in,out] sys       The system.
 *  @param[out]    position  Receives the worst position residual (m for rods,
 *                           anchors, pins and planes); may be NULL.
 *  @param[out]    velocity  Receives the worst velocity residual (m/s for
 *                           those); may be NULL.
 *  @retval CDYN_OK                    the residuals were written (0 without
 *                                     enabled constraints).
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL.
 *  @retval CDYN_ERR_CALLBACK          a constraint callback or the motion of a
 *                                     constraint failed.
 *  @retval CDYN_ERR_DIVERGED          a constraint's terms overflow: a built-in
 *                                     motion or schedule at the time, or the
 *                                     velocity term of an implicit constraint
 *                                     (a speed too large).
 *  @retval CDYN_ERR_NO_MEMORY         the constraint layout could not be
 *                                     allocated.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_compute_constraint_residuals(cdyn_system *sys, double *position,
                                                              double *velocity);

/** Reads the report of the multiplier solve.
 *
 *  All zero before the first solve.
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
CDYN_API cdyn_status cdyn_system_get_solver_stats(const cdyn_system *sys,
                                                  cdyn_solver_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_CONSTRAINT_H */
