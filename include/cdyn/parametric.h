/* cdyn: particles held on curves and surfaces in generalized coordinates.
 *
 * A particle put on a curve x = r(q) (one coordinate) or a surface
 * x = r(u, v) (two, 3-D only) moves from then on in those coordinates: the
 * integrators advance (q, q') with the generalized mass m r'^T r' and force
 * r'^T (F - m r'' q'^2), so the particle is on its
 * shape to round-off at every step. Its Cartesian position and velocity stay
 * readable and settable as for any particle (a set position is projected to
 * the nearest point of the shape, a set velocity to its tangent), forces and
 * implicit constraints act on it as on any particle, and
 * cdyn_constraint_get_force returns the force the shape exerts (the normal
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
 * Every integrator works with particles on shapes. Velocity Verlet and
 * symplectic Euler keep their order but, with a position-dependent mass,
 * are no longer symplectic in (q, q').
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

/** Puts particle @p p on the curve @p curve (2-D or 3-D): the particle is
 *  moved to the nearest point of the curve and its velocity projected onto
 *  the tangent. On success *out is the constraint (kind
 *  CDYN_CONSTRAINT_CURVE). The description is read during the call only.
 *  @return CDYN_OK;
 *  CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys, @p curve or @p out, a bad or
 *  degenerate description (shapes.h), a particle already on a shape or
 *  part of a rigid body, or a start point where r' vanishes (a callback
 *  curve's; a cycloid's cusps are accepted);
 *  CDYN_ERR_INVALID_HANDLE or CDYN_ERR_STALE_HANDLE for @p p;
 *  CDYN_ERR_CALLBACK from a callback curve;
 *  CDYN_ERR_BUSY when called from a callback during a step;
 *  CDYN_ERR_NO_MEMORY. Nothing changes on failure. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_add_on_curve(cdyn_system *sys, cdyn_particle p,
                                                  const cdyn_curve_desc *curve,
                                                  cdyn_constraint *out);

/** Puts particle @p p on the surface @p surface (3-D systems only), as
 *  cdyn_constraint_add_on_curve (kind CDYN_CONSTRAINT_SURFACE). Every point
 *  of a whole sphere is accepted, the poles included (its chart is turned
 *  at once when the point lies within 45 degrees of a pole).
 *  @return the statuses of cdyn_constraint_add_on_curve, with
 *  CDYN_ERR_INVALID_ARGUMENT also for a 2-D system and when r_u x r_v
 *  vanishes at the start point (a callback surface, or a pole of a sphere
 *  with a window); CDYN_ERR_UNSUPPORTED for a height field with
 *  CDYN_HEIGHTFIELD_BILINEAR interpolation (its slope jumps at every cell
 *  edge; use BICUBIC; bilinear grounds are fine). @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_add_on_surface(cdyn_system *sys, cdyn_particle p,
                                                    const cdyn_surface_desc *surface,
                                                    cdyn_constraint *out);

/** Number of generalized coordinates of @p c into *@p out: 1 for a curve, 2
 *  for a surface, 0 for the implicit kinds.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or @p out;
 *  CDYN_ERR_INVALID_HANDLE or CDYN_ERR_STALE_HANDLE for @p c. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_get_coordinate_count(const cdyn_system *sys,
                                                          cdyn_constraint c, size_t *out);

/** The coordinates and their rates of a curve or surface constraint (1 or 2
 *  values each; either pointer may be NULL). A whole sphere's (u, v) refer
 *  to its current chart, which re-charting turns. On a cycloid's cusp
 *  (r' = 0) a moving bead has an infinite q', reported as +-HUGE_VAL (read
 *  its Cartesian velocity instead): a bead put there moving, or leaving it
 *  (explicit Euler's first step from rest there keeps the position and
 *  turns the velocity inwards). A bead that arrives at a cusp stops
 *  there, q' = 0.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or another
 *  kind of constraint; CDYN_ERR_INVALID_HANDLE or CDYN_ERR_STALE_HANDLE for
 *  @p c. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_get_coordinates(const cdyn_system *sys, cdyn_constraint c,
                                                     double *q, double *qdot);

/** Sets the coordinates (@p q, or NULL to keep them) and their rates
 *  (@p qdot, or NULL to keep them): finite, inside the shape's domain
 *  (periodic coordinates are wrapped). The Cartesian position and velocity
 *  follow. Coordinates on a pole of a whole sphere's chart are accepted and
 *  moved to a turned chart (u' has no meaning there and is dropped).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys, another
 *  kind of constraint, non-finite values or coordinates outside the
 *  domain; CDYN_ERR_INVALID_HANDLE or CDYN_ERR_STALE_HANDLE for @p c;
 *  CDYN_ERR_SINGULAR where the parametrization degenerates (a callback
 *  shape's, a pole of a sphere with a window); CDYN_ERR_CALLBACK;
 *  CDYN_ERR_BUSY when called from a callback during a step. Nothing
 *  changes on failure. @since 0.1 */
CDYN_API cdyn_status cdyn_constraint_set_coordinates(cdyn_system *sys, cdyn_constraint c,
                                                     const double *q, const double *qdot);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_PARAMETRIC_H */
