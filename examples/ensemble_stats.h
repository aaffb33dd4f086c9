/* ensemble_stats: the statistics an ensemble's results need: means with
 * standard errors, 95 % confidence intervals from Student's t, straight-line
 * fits, and a hash of result bits. Not part of the library. */
#ifndef CDYN_EXAMPLE_ENSEMBLE_STATS_H
#define CDYN_EXAMPLE_ENSEMBLE_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Mean of x[0], x[stride], ... (n values, NaNs left out) with the sample
 * standard deviation and the standard error of the mean; *used receives
 * the values counted. sd and se are NaN below 2 values. Any output pointer
 * may be NULL. */
void ensemble_mean(const double *x, size_t n, size_t stride, double *mean, double *sd,
                   double *se, size_t *used);

/* The two-sided 95 % quantile of Student's t with @p dof degrees of freedom
 * (12.71 for 1, 1.96 in the limit); NaN for 0. */
double ensemble_t95(size_t dof);

/* Least-squares line y = slope x + intercept through n points (n >= 2);
 * NaN slope and intercept when the x are all equal or n < 2. */
void ensemble_fit_line(const double *x, const double *y, size_t n, double *slope,
                       double *intercept);

/* The chi-square d^T C^-1 d of a deviation d (k values) whose covariance
 * is C (k x k, row-major, symmetric), by Cholesky factorization; @p work
 * holds k (k + 1) doubles. NaN when C is not positive definite. */
double ensemble_chi2(const double *cov, const double *d, size_t k, double *work);

/* FNV-1a 64 of @p size bytes, continuing from @p hash (start with
 * ENSEMBLE_HASH_START). */
#define ENSEMBLE_HASH_START 0xcbf29ce484222325u
uint64_t ensemble_hash(uint64_t hash, const void *data, size_t size);

#endif
