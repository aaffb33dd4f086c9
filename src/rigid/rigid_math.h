/* The rigid bodies' own linear algebra (3-vectors and 3 x 3 matrices are
 * in core/vec.h): the exact rotation R(Omega, dt), a Jacobi eigensolver for
 * symmetric matrices up to 4 x 4 and the least-squares rotation fit.
 * Internal; pure functions, no allocation. */
#ifndef CDYN__RIGID_MATH_H
#define CDYN__RIGID_MATH_H

/* R(Omega, dt) = 1 - h (1 - a a^T) + s [a]x with a = Omega / |Omega|,
 * s = sin(|Omega| dt), h = 1 - cos(|Omega| dt) computed as
 * 2 sin^2(|Omega| dt / 2): the Rodrigues form, written so that the
 * axis direction is kept exactly (R a = a to round-off, and R[8] = 1 exactly
 * for Omega along z). The identity when Omega = 0. */
void cdyn__rotation(const double omega[3], double dt, double r[9]);

/* Eigen-decomposition of the symmetric n x n matrix @p a (n <= 4, row-major,
 * read only) by cyclic Jacobi rotations: eigenvalues into @p w (ascending),
 * unit eigenvectors into the columns of @p v (row-major n x n). Fixed
 * operation order: deterministic. */
void cdyn__sym_eigen(int n, const double *a, double *w, double *v);

/* The rotation Q that minimizes sum_k m_k |Q b_k - y_k|^2, given the
 * 3 x 3 matrix s = sum_k m_k b_k y_k^T (s[i * 3 + j] = sum m b_i y_j):
 * Horn's unit quaternion, the eigenvector of the largest eigenvalue of a
 * symmetric 4 x 4 matrix built from s, turned into an orthogonal matrix
 * with determinant +1. Exact (to round-off) when y_k = Q b_k for a
 * configuration that is not collinear. */
void cdyn__fit_rotation(const double s[9], double q[9]);

#endif /* CDYN__RIGID_MATH_H */
