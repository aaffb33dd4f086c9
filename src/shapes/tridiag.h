/* Tridiagonal linear solves (Thomas algorithm), for spline slopes. */
#ifndef CDYN__PARAMETRIC_TRIDIAG_H
#define CDYN__PARAMETRIC_TRIDIAG_H

#include <stddef.h>

/* Solves the n x n tridiagonal system with sub-diagonal @p sub (sub[0]
 * unused), diagonal @p diag and super-diagonal @p sup (sup[n - 1] unused) for
 * @p ncols right-hand sides at once: column k of row i is x[i * stride + k],
 * overwritten by the solution. @p work holds n doubles. No pivoting: the
 * callers' matrices are diagonally dominant, or nearly (not-a-knot rows). */
void cdyn__tridiag_solve(size_t n, const double *sub, const double *diag, const double *sup,
                         double *x, size_t stride, size_t ncols, double *work);

#endif /* CDYN__PARAMETRIC_TRIDIAG_H */
