/** @file
 * @brief SHAKE/RATTLE projection onto the constraint manifold: options and
 * report.
 *
 * The implicit constraints g(x) = 0 (constraint.h) define the manifold of
 * admissible positions; differentiating them gives the hidden velocity
 * constraint G(x) v = 0 (the momenta tangent to the manifold). Positions and velocities
 * that satisfy both lie on its tangent bundle. A projection moves a state
 * back onto it:
 *
 *     positions   x* = x + W G(x_ref)^T mu   with mu such that g(x*) = 0
 *     velocities  v* = v + W G(x*)^T nu      with nu such that G(x*) v* = 0
 *
 * W being the inverse masses (0 for fixed particles). CDYN_INTEGRATOR_RATTLE
 * (system.h) always projects: its constraint forces are the projections'
 * multipliers, no feedback gains are used. The other integrators keep their
 * multiplier solve and feedback, and project after each step when the
 * options below enable it, which removes drift without gains.
 *
 * Two methods (cdyn_projection_method): the classic per-constraint SHAKE
 * iteration (Ryckaert, Ciccotti and Berendsen 1977; Andersen 1983 for the
 * velocities), and a Newton iteration on all constraints at once with the
 * sparse factorization of G W G^T that the multiplier solve uses (see
 * docs/rattle.md; a long chain converges in a few iterations, whereas the
 * per-constraint sweeps of SHAKE slow down with the chain's length).
 *
 * Tolerances are relative. Row r of a constraint is within the position
 * tolerance when its residual |g_r| / b_r (b_r: the largest norm of the
 * row's Jacobian blocks, the measure of cdyn_system_compute_constraint_residuals():
 * a rod's length error) is at most
 *
 *     max(position_tolerance * s_r, 4 eps (X_r + s_r))
 *
 * with s_r the constraint's length scale (the length L of a distance or
 * anchor constraint; 1 length unit for pins, planes, user and implicit
 * constraints, whose tolerance is therefore absolute), X_r the largest
 * coordinate magnitude among the row's particles (and anchor point) and
 * eps = 2^-52: the second term is the round-off of positions far from the
 * origin, which no projection can beat. (Rods and anchors are tested on the
 * projected positions before they are rounded to doubles, against
 * max(position_tolerance, 4 eps) s_r; storing them then rounds each
 * coordinate once, which the second term covers.) Its velocity residual
 * |G_r v| / b_r (a rod's rate of change of length) must be at most
 *
 *     max(velocity_tolerance, 4 eps) * S_r
 *
 * with S_r the largest speed among the row's particles. Positions within
 * the tolerance are left as they are; the Newton method corrects velocities
 * by one linear solve, which changes tangent velocities by round-off only.
 *
 * Projection needs rigid constraints: a compliant one (nonzero
 * cdyn_constraint_set_compliance()) makes a step with projection fail with
 * CDYN_ERR_UNSUPPORTED, as do particles on curves or surfaces (parametric.h),
 * whose mass is position dependent.
 */
#ifndef CDYN_PROJECTION_H
#define CDYN_PROJECTION_H

#include <stddef.h>
#include <stdint.h>

#include "export.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The projection methods (cdyn_projection_options.method).
 *
 *  The values are pinned.
 */
typedef enum cdyn_projection_method {
    /** Classic SHAKE/RATTLE: sweeps over the constraint rows in order, each
     *  row corrected alone (Gauss-Seidel); a sweep costs O(rows) and the
     *  number of sweeps grows with the coupling (on a chain of N rods like
     *  N^2 when the error is spread along it). For small systems and as a
     *  reference. */
    CDYN_PROJECTION_SHAKE = 1,
    /** All rows at once: a quasi-Newton iteration whose matrix
     *  G(x_ref) W G(x_ref)^T is factored by the sparse LDL^T of the
     *  multiplier solve (a chain or tree without fill, O(rows)); the
     *  velocity projection is one linear solve. RATTLE on rod chains
     *  (every row a distance constraint, every moving particle in at most
     *  two of them, no loop) with forces that do not depend on velocity
     *  takes the exact Newton step instead, on the tridiagonal Jacobian
     *  (docs/rattle.md section 4). The default. */
    CDYN_PROJECTION_NEWTON = 2
} cdyn_projection_method;

/** Options of the projections.
 *
 *  Fill with cdyn_projection_options_init(), change what you need, then
 *  pass to cdyn_system_set_projection_options(). The size field lets the
 *  struct grow.
 */
typedef struct cdyn_projection_options {
    size_t size; /**< sizeof(cdyn_projection_options), set by the init function. */
    /** 1: integrators other than RATTLE project positions and velocities
     *  after each step (with RK45 after the whole dt); 0 (the default): they
     *  do not. RATTLE always projects. */
    int enabled;
    /** CDYN_PROJECTION_NEWTON (default) or CDYN_PROJECTION_SHAKE. */
    cdyn_projection_method method;
    /** Relative position tolerance, finite, > 0 and < 1; default 1e-10.
     *  See the header comment for the exact test per row. */
    double position_tolerance;
    /** Relative velocity tolerance, finite, > 0 and < 1; default 1e-10. */
    double velocity_tolerance;
    /** Iteration cap of each projection, 1 .. 2^32 - 1: Newton solves or
     *  SHAKE sweeps; default 1000. A projection that needs more, or whose
     *  Newton iteration diverges (or, on rod chains, has not halved its
     *  largest residual in 8 iterations), fails the step with
     *  CDYN_ERR_NOT_CONVERGED (state kept; the message names the worst
     *  constraint). */
    size_t max_iterations;
} cdyn_projection_options;

/** The report of the projections, read with
 *  cdyn_system_get_projection_stats().
 *
 *  Set @c size to sizeof(cdyn_projection_stats) before the call; fields
 *  beyond it are not written, so the struct may grow. "Last" means the last
 *  step that projected, successful or not.
 */
typedef struct cdyn_projection_stats {
    size_t size; /**< Set by the caller: the bytes that may be written. */
    /** Last step: iterations of the position projection (Newton solves or
     *  SHAKE sweeps that corrected something). */
    size_t position_iterations;
    /** Last step: iterations of the velocity projections (Newton solves,
     *  including refinements; SHAKE sweeps). RATTLE makes a second velocity
     *  projection when forces depend on velocity. */
    size_t velocity_iterations;
    /** Last step: the worst position residual at the end of the position
     *  projection, divided by the row's length scale s_r (dimensionless,
     *  comparable with position_tolerance). */
    double position_residual;
    /** Last step: the worst velocity residual |G_r v| / b_r divided by the
     *  row's speed S_r at the end of the velocity projection. */
    double velocity_residual;
    /** A constraint owning the row with the largest relative position
     *  residual at the end of the last position projection (when it failed,
     *  the one named in the message); 0 before any projection. */
    cdyn_constraint worst;
    uint64_t projections;          /**< Position projections since creation. */
    uint64_t position_iterations_total; /**< Sum of position_iterations. */
    uint64_t velocity_iterations_total; /**< Sum of velocity_iterations. */
    /** Numeric factorizations made by the Newton method since creation.
     *  RATTLE reuses the factorization at the end of a step for the position
     *  projection of the next one, so this grows by one per step while
     *  nothing else touches the state between steps; on rod chains it
     *  factors the Newton matrix and G W G^T at the new positions, two per
     *  step and position iteration. */
    uint64_t factorizations;
    uint64_t not_converged;        /**< Projections that hit max_iterations. */
} cdyn_projection_stats;

/** Fills the projection options with the defaults.
 *
 *  The defaults: size = sizeof(cdyn_projection_options), enabled = 0, method =
 *  CDYN_PROJECTION_NEWTON, both tolerances 1e-10, max_iterations = 1000.
 *
 *  @param[out] options  The struct to fill; NULL is a no-op.
 *  @since 0.1
 */
CDYN_API void cdyn_projection_options_init(cdyn_projection_options *options);

/** Sets the projection options.
 *
 *  They apply from the next step; a change of method lays out the projection
 *  anew.
 *
 *  @param[in,out] sys      The system.
 *  @param[in]     options  The options, filled by
 *                          cdyn_projection_options_init() and then changed;
 *                          copied, the pointer is not kept.
 *  @retval CDYN_OK                    the options were set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  nothing changed (the message names the
 *                                     field): @p sys or @p options is NULL, its
 *                                     size is not
 *                                     sizeof(cdyn_projection_options), enabled
 *                                     is not 0 or 1, the method is unknown, a
 *                                     tolerance is not finite or outside (0,
 *                                     1), or max_iterations is outside
 *                                     1 .. 2^32 - 1.
 *  @retval CDYN_ERR_NO_MEMORY         the projection state (a few hundred
 *                                     bytes, created on first use) could not be
 *                                     allocated; nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_set_projection_options(cdyn_system *sys,
                                                        const cdyn_projection_options *options);

/** Reads the projection options.
 *
 *  Before any cdyn_system_set_projection_options() they are the defaults of
 *  cdyn_projection_options_init().
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
CDYN_API cdyn_status cdyn_system_get_projection_options(const cdyn_system *sys,
                                                        cdyn_projection_options *out);

/** Reads the report of the projections.
 *
 *  All zero before the first projection.
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
CDYN_API cdyn_status cdyn_system_get_projection_stats(const cdyn_system *sys,
                                                      cdyn_projection_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_PROJECTION_H */
