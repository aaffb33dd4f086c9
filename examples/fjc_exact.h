/* fjc_exact: the exact distribution of the end-to-end distance R of a
 * freely jointed chain of n bonds of length 1 (bond directions independent
 * and uniform on the sphere), and its Gaussian limit. Not part of the
 * library.
 *
 * Each bond's projection on an axis is uniform in [-1, 1] (Archimedes), so
 * the projection Z of R is 2 S - n with S a sum of n uniforms on [0, 1],
 * whose density is the cardinal B-spline M_n (Irwin-Hall). R is isotropic,
 * so its density is f(r) = -2 r f_Z'(r) = -(r / 2) M_n'(x), x = (r + n) / 2,
 * and M_n' = M_{n-1}(x) - M_{n-1}(x - 1). The B-splines come from their
 * recurrence, a sum of positive terms: no cancellation, unlike Treloar's
 * alternating sum, which loses every digit by n = 100. */
#ifndef CDYN_EXAMPLE_FJC_EXACT_H
#define CDYN_EXAMPLE_FJC_EXACT_H

/* The density of R at r (0 outside [0, n]) for n >= 2 bonds; NaN when out
 * of memory (O(n) scratch) or n < 2. O(n^2) time. */
double fjc_density(int n, double r);

/* P(R <= r) for n >= 2 bonds; NaN as above. O(n^2) time. */
double fjc_cdf(int n, double r);

/* The Gaussian chain's P(R <= r) for n bonds: <R^2> = n, the limit of
 * large n. */
double fjc_gaussian_cdf(int n, double r);

/* Its density. */
double fjc_gaussian_density(int n, double r);

#endif
