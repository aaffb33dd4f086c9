/* Adaptive Gauss-Legendre quadrature of a non-negative integrand (a speed
 * |r'(q)|), for arc lengths. Deterministic: the subdivision depends on the
 * integrand's values only. */
#ifndef CDYN__SHAPES_QUADRATURE_H
#define CDYN__SHAPES_QUADRATURE_H

#include "cdyn/status.h"

/* The integrand at t into *out; a status other than CDYN_OK stops the
 * quadrature and is returned by it. */
typedef cdyn_status (*cdyn__integrand)(const void *ctx, double t, double *out);

/* The integral of f over [a, b] (b < a gives the negative) into *out: 7-point
 * Gauss-Legendre on halves compared with the whole, bisected until they agree
 * to @p rel_tol of the integral. The work is bounded whatever the
 * integrand: at most 30 levels deep and CDYN__QUAD_MAX_PANELS bisections
 * in all (CDYN_ERR_NOT_CONVERGED beyond). A non-finite value of the
 * integrand (an overflow) ends it with CDYN_ERR_DIVERGED; the integrand's
 * own status is returned as it is. */
#define CDYN__QUAD_MAX_PANELS 4096
cdyn_status cdyn__quad_adaptive(cdyn__integrand f, const void *ctx, double a, double b,
                                double rel_tol, double *out);

#endif /* CDYN__SHAPES_QUADRATURE_H */
