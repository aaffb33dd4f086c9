/* C2 cubic spline curves through control points, with an arc-length table.
 *
 * Parametrization: uniform knots, knot i (the i-th point) at q = i; segment i
 * covers q in [i, i + 1], so the segment of q is floor(q) (O(1) lookup). An
 * open spline of n points has n - 1 segments and q in [0, n - 1]; a closed one
 * has n segments (the last joins point n - 1 to point 0) and q periodic in
 * [0, n). Derivatives are with respect to q, so r' has the size of a chord.
 *
 * Slopes come from the C2 conditions: s[i-1] + 4 s[i] + s[i+1] = 3 (P[i+1] -
 * P[i-1]) at inner knots, plus r'' = 0 at the ends (natural), r' given at the
 * ends (clamped), or the same equation wrapped around (closed, solved by
 * Sherman-Morrison on the cyclic tridiagonal matrix).
 *
 * Arc length: cum[i] = length from q = 0 to knot i, each segment integrated by
 * adaptive Gauss-Legendre to 1e-13 relative; s(q) adds the partial segment the
 * same way; q(s) finds the segment by binary search in cum and solves in it by
 * Newton's method safeguarded by bisection.
 */
#ifndef CDYN__PARAMETRIC_SPLINE_H
#define CDYN__PARAMETRIC_SPLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "cdyn/shapes.h"
#include "cdyn/types.h"

typedef struct cdyn__spline {
    size_t n_seg;  /* number of segments */
    bool closed;   /* periodic in [0, n_seg) */
    double length; /* total arc length, cum[n_seg] */
    double *coef;  /* 12 per segment: coef[12 i + 4 k + p] is the t^p coefficient of
                      component k on segment i, t = q - i */
    double *cum;   /* n_seg + 1 arc lengths at the knots (inside the coef block) */
} cdyn__spline;

/* Builds the spline through @p n points of @p dim doubles each (dim 2 or 3).
 * @p t0, @p t1: end derivatives for CDYN_SPLINE_CLAMPED (dim doubles), else
 * unused. Refuses (CDYN_ERR_INVALID_ARGUMENT) NULL points, n < 4, non-finite
 * values, consecutive points closer than 1e-12 of the bounding-box diagonal
 * (for a closed spline, last and first too), zero clamped tangents, an
 * unknown end. CDYN_ERR_NO_MEMORY on allocation failure. *s is written only
 * on success. */
cdyn_status cdyn__spline_init(cdyn__spline *s, const double *points, size_t n, int dim,
                              cdyn_spline_end end, const double *t0, const double *t1,
                              const cdyn_allocator *a);

/* Frees what init or copy allocated with the same allocator; clears *s. */
void cdyn__spline_free(cdyn__spline *s, const cdyn_allocator *a);

/* Deep copy into *dst (written only on success). */
cdyn_status cdyn__spline_copy(cdyn__spline *dst, const cdyn__spline *src,
                              const cdyn_allocator *a);

/* Segment @p i at local t (0..1; outside extrapolates that cubic). Any output
 * may be NULL. */
void cdyn__spline_eval_segment(const cdyn__spline *s, size_t i, double t, double r[3],
                               double dr[3], double ddr[3]);

/* The spline at q: closed wraps q; open extends the end cubics beyond
 * [0, n_seg]. Any output may be NULL. */
void cdyn__spline_eval(const cdyn__spline *s, double q, double r[3], double dr[3], double ddr[3]);

/* Arc length from q = 0 to @p q (negative below 0; closed splines add whole
 * turns). */
double cdyn__spline_arc_length(const cdyn__spline *s, double q); /* NaN on overflow */

/* The q with cdyn__spline_arc_length(s, q) = @p len. Open splines refuse len
 * outside [0, length] (CDYN_ERR_INVALID_ARGUMENT). */
cdyn_status cdyn__spline_param_at(const cdyn__spline *s, double len, double *q);

#endif /* CDYN__PARAMETRIC_SPLINE_H */
