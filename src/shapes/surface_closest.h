/* The closest point of a surface to a point in space.
 *
 * Closed form for the whole plane, sphere and torus (projection; the angles
 * of the point in the shape's frame). Windowed shapes, height fields and
 * callback surfaces refine candidates by projected Newton iteration on D(u,
 * v) = |r - x|^2 / 2 (Gauss-Newton where the Hessian is not positive
 * definite; backtracking line search; variables at a bound whose gradient
 * points outwards are held), kept in the domain's box. Candidates: the
 * closed-form or clamped guess; for height fields the vertical projection of
 * x and the best grid samples (nodes, at most 256 x 256); for callbacks the
 * best of a 32 x 32 sample grid over the domain (or over [-8, 8] about an
 * anchor in an unbounded direction); the caller's hint.
 */
#ifndef CDYN__PARAMETRIC_SURFACE_CLOSEST_H
#define CDYN__PARAMETRIC_SURFACE_CLOSEST_H

#include "shapes/surface.h"

/* (*u, *v) of the surface point nearest to @p x, inside the domain (wrapped
 * where periodic). @p uv_hint (optional, 2 doubles) adds a starting guess and
 * anchors the window of an unbounded callback surface.
 * CDYN_ERR_INVALID_ARGUMENT for non-finite x; CDYN_ERR_CALLBACK. */
cdyn_status cdyn__surface_closest(const cdyn__surface *s, const double x[3],
                                  const double *uv_hint, double *u, double *v);

#endif /* CDYN__PARAMETRIC_SURFACE_CLOSEST_H */
