/** @file
 * @brief Particles held on curves and surfaces in generalized coordinates.
 *
 * A particle put on a curve x = r(q) (one coordinate) or a surface
 * x = r(u, v) (two, 3-D only) moves from then on in those coordinates: the
 * integrators advance (q, q') with the generalized mass m r'^T r' and force
 * r'^T (F - m r'' q'^2), so the particle is on its
 * shape to round-off at every step. Its Cartesian position and velocity stay
 * readable and settable as for any particle (a set position is projected to
 * the nearest point of the shape, a set velocity to its tangent), forces and
 * implicit constraints act on it as on any particle, and
 * cdyn_constraint_get_force() returns the force the shape exerts (the normal
 * force). Removing the constraint returns the particle to Cartesian
 * coordinates with the same position and velocity.
 *
 * Shapes are described by cdyn_curve_desc and cdyn_surface_desc (shapes.h);
 * the library copies what they point to. At a hard end of an open curve (or
 * of a window cut with q_min/q_max) the particle stops: its coordinate is
 * clamped to the end it crossed and its velocity along the shape set to zero
 * when pointing out. A bead on a cycloid is integrated in the arc length of
 * the arch, not in q, so that it reaches a cusp (where q' would be
 * infinite) with finite speed and stops there; the coordinate functions
 * still speak q.
 * Periodic coordinates are wrapped; a whole sphere's chart is turned away
 * from its poles between steps and when a particle is put (or set) near one
 * (the coordinates change, the motion does not), so any point of it is
 * accepted.
 *
 * Every integrator works with particles on shapes except RATTLE, the
 * post-step projection, backward Euler and the Langevin thermostat, which
 * refuse them at the step (CDYN_ERR_UNSUPPORTED). Velocity Verlet and
 * symplectic Euler keep their order but, with a position-dependent mass,
 * are no longer symplectic in (q, q'). Guide: docs/parametric.md.
 */
#ifndef CDYN_PARAMETRIC_H
#define CDYN_PARAMETRIC_H

#include <stddef.h>

#include "export.h"
#include "shapes.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Puts a particle on a curve, in generalized coordinates.
 *
 *  The particle is moved to the nearest point of the curve and its velocity
 *  projected onto the tangent; from then on it moves in the curve's coordinate
 *  q (see the top of this header). The constraint's kind is
 *  CDYN_CONSTRAINT_CURVE. Nothing changes on failure.
 *
 *  @param[in,out] sys    The system, 2-D or 3-D.
 *  @param[in]     p      The particle; not on a shape already, not in a rigid
 *                        body.
 *  @param[in]     curve  The curve's description (shapes.h), read during the
 *                        call; what it points to (spline points) is copied.
 *  @param[out]    out    Receives the constraint's handle.
 *  @retval CDYN_OK                    the particle is on the curve.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p curve or @p out is NULL, the
 *                                     description is bad or degenerate
 *                                     (shapes.h), the particle is already on a
 *                                     shape or part of a rigid body, the start
 *                                     point is one where r' vanishes (a
 *                                     callback curve's; a cycloid's cusps are
 *                                     accepted), or the curve has no finite
 *                                     point near the particle.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @retval CDYN_ERR_UNSUPPORTED       the particle is kinematic (a prescribed
 *                                     motion moves it; move the curve instead).
 *  @retval CDYN_ERR_CALLBACK          a callback curve failed or gave a
 *                                     non-finite value.
 *  @retval CDYN_ERR_NO_MEMORY         an allocation failed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_add_on_curve(cdyn_system *sys, cdyn_particle p,
                                                  const cdyn_curve_desc *curve,
                                                  cdyn_constraint *out);

/** Puts a particle on a surface, in generalized coordinates (3-D systems only).
 *
 *  As cdyn_constraint_add_on_curve(), with two coordinates (u, v); the
 *  constraint's kind is CDYN_CONSTRAINT_SURFACE. Every point of a whole sphere
 *  is accepted, the poles included (its chart is turned at once when the point
 *  lies within 45 degrees of a pole). Nothing changes on failure.
 *
 *  @param[in,out] sys      The system, 3-D.
 *  @param[in]     p        The particle; not on a shape already, not in a rigid
 *                          body.
 *  @param[in]     surface  The surface's description (shapes.h), read during
 *                          the call; what it points to (height samples) is
 *                          copied.
 *  @param[out]    out      Receives the constraint's handle.
 *  @retval CDYN_OK                    the particle is on the surface.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p surface or @p out is NULL, the
 *                                     system is 2-D, the description is bad or
 *                                     degenerate (shapes.h), the particle is
 *                                     already on a shape or part of a rigid
 *                                     body, r_u x r_v vanishes at the start
 *                                     point (a callback surface, or a pole of a
 *                                     sphere with a window), or the surface has
 *                                     no finite point near the particle.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @retval CDYN_ERR_UNSUPPORTED       a height field with
 *                                     CDYN_HEIGHTFIELD_BILINEAR interpolation
 *                                     (its slope jumps at every cell edge; use
 *                                     BICUBIC; bilinear grounds are fine).
 *                                     Or the particle is kinematic (a
 *                                     prescribed motion moves it).
 *  @retval CDYN_ERR_CALLBACK          a callback surface failed or gave a
 *                                     non-finite value.
 *  @retval CDYN_ERR_NO_MEMORY         an allocation failed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_add_on_surface(cdyn_system *sys, cdyn_particle p,
                                                    const cdyn_surface_desc *surface,
                                                    cdyn_constraint *out);

/** Reads the number of generalized coordinates of a constraint.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  c    The constraint.
 *  @param[out] out  Receives 1 for a curve, 2 for a surface, 0 for the implicit
 *                   kinds.
 *  @retval CDYN_OK                    the count was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_get_coordinate_count(const cdyn_system *sys,
                                                          cdyn_constraint c, size_t *out);

/** Reads the generalized coordinates of a particle on a curve or surface, and
 *  their rates.
 *
 *  A whole sphere's (u, v) refer to its current chart, which re-charting turns.
 *  On a cycloid's cusp (r' = 0) a moving bead has an infinite q', reported as
 *  +-HUGE_VAL (read its Cartesian velocity instead): a bead put there moving,
 *  or leaving it (explicit Euler's first step from rest there keeps the
 *  position and turns the velocity inwards). A bead that arrives at a cusp
 *  stops there, q' = 0.
 *
 *  @param[in]  sys   The system.
 *  @param[in]  c     A curve or surface constraint.
 *  @param[out] q     Receives the coordinates, 1 or 2 values (units of the
 *                    shape's parameters); may be NULL.
 *  @param[out] qdot  Receives their rates (per second); may be NULL.
 *  @retval CDYN_OK                    the coordinates were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or @p c is not a curve or
 *                                     surface constraint.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_get_coordinates(const cdyn_system *sys, cdyn_constraint c,
                                                     double *q, double *qdot);

/** Sets the generalized coordinates of a particle on a curve or surface, or
 *  their rates.
 *
 *  The values must be finite and inside the shape's domain (periodic
 *  coordinates are wrapped). The Cartesian position and velocity follow.
 *  Coordinates on a pole of a whole sphere's chart are accepted and moved to a
 *  turned chart (u' has no meaning there and is dropped). Nothing changes on
 *  failure.
 *
 *  @param[in,out] sys   The system.
 *  @param[in]     c     A curve or surface constraint.
 *  @param[in]     q     The new coordinates, 1 or 2 values, copied; NULL keeps
 *                       them.
 *  @param[in]     qdot  Their new rates (per second), copied; NULL keeps them.
 *  @retval CDYN_OK                    the coordinates were set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, @p c is not a curve or
 *                                     surface constraint, a value is not
 *                                     finite, or a coordinate is outside the
 *                                     domain.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p c is 0, not a constraint, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p c was removed.
 *  @retval CDYN_ERR_SINGULAR          the parametrization degenerates there (a
 *                                     callback shape's, a pole of a sphere with
 *                                     a window).
 *  @retval CDYN_ERR_CALLBACK          a callback shape failed or gave a
 *                                     non-finite value.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_constraint_set_coordinates(cdyn_system *sys, cdyn_constraint c,
                                                     const double *q, const double *qdot);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_PARAMETRIC_H */
