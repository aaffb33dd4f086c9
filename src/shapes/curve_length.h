/* Arc length along curves and its inverse.
 *
 * Closed forms where they exist (line, circle, helix: proportional to q;
 * parabola: (q/2) sqrt(1 + 4a^2 q^2) + asinh(2aq) / (4a); cycloid: 8R per
 * arch, 8R sin^2(tau/4) within one, tau = q mod 2 pi), the spline's arc-length
 * table, and adaptive Gauss-Legendre quadrature of |r'| for callbacks.
 */
#ifndef CDYN__PARAMETRIC_CURVE_LENGTH_H
#define CDYN__PARAMETRIC_CURVE_LENGTH_H

#include "shapes/curve.h"

/* Signed arc length from q0 to q1 (negative when q1 < q0), periodic curves
 * not wrapped. CDYN_ERR_INVALID_ARGUMENT for non-finite q; CDYN_ERR_CALLBACK. */
cdyn_status cdyn__curve_arc_length(const cdyn__curve *c, double q0, double q1, double *s);

/* The q at signed arc length @p s from @p q0. CDYN_ERR_INVALID_ARGUMENT for
 * non-finite input or a length that runs past a finite end of the domain;
 * CDYN_ERR_NOT_CONVERGED (a callback curve whose speed vanishes);
 * CDYN_ERR_CALLBACK. */
cdyn_status cdyn__curve_param_at_length(const cdyn__curve *c, double q0, double s, double *q);

/* Length of the whole domain (one period of a periodic curve) into *len;
 * CDYN_ERR_INVALID_ARGUMENT when the domain is unbounded. */
cdyn_status cdyn__curve_total_length(const cdyn__curve *c, double *len);

#endif /* CDYN__PARAMETRIC_CURVE_LENGTH_H */
