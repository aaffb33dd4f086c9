/* The closest point of a curve to a point in space.
 *
 * Exact for the line (projection), the circle (angle of the projection onto
 * its plane) and the parabola (real roots of the cubic r'.(r - x) = 0). The
 * other kinds sample a window that must hold the global minimum of |r - x|
 * (helix: |q - h / b| <= pi, h the axial coordinate of x and b the rise per
 * radian; cycloid: |x - R q| <= sqrt(D0) + R with D0 the squared distance at
 * q = x / R, at most 4096 samples;
 * spline: the domain, 8 samples per segment; callback: the domain, or [-8, 8]
 * about an anchor when unbounded) and refine each local minimum of the
 * samples by Newton's method on D(q) = |r - x|^2 / 2 (D' = r'.(r - x), D'' =
 * |r'|^2 + r''.(r - x), Gauss-Newton where D'' <= 0), with a backtracking line
 * search and clamped to the domain.
 */
#ifndef CDYN__PARAMETRIC_CURVE_CLOSEST_H
#define CDYN__PARAMETRIC_CURVE_CLOSEST_H

#include "shapes/curve.h"

/* *q = the parameter of the curve point nearest to @p x (3 doubles; in 2-D
 * x[2] only adds a constant to the distance), inside the domain (wrapped when
 * periodic). @p q_hint (optional) anchors the search window of a callback
 * curve with an unbounded domain. CDYN_ERR_INVALID_ARGUMENT for non-finite x;
 * CDYN_ERR_CALLBACK. */
cdyn_status cdyn__curve_closest(const cdyn__curve *c, const double x[3], const double *q_hint,
                                double *q);

#endif /* CDYN__PARAMETRIC_CURVE_CLOSEST_H */
