/* Sparse LDL^T of a symmetric quasi-definite matrix with a prescribed sign
 * per pivot (internal): the direct solver of backward Euler's Newton/KKT
 * systems
 *
 *     [ J   G^T ]        J symmetric positive definite (velocity rows),
 *     [ G   -C  ]        C >= 0 diagonal (compliance; 0 for rigid rows).
 *
 * cdyn__ldlt (ldlt.c) serves positive semi-definite matrices and drops every
 * non-positive pivot as a redundant row, which would destroy the negative
 * pivots of the constraint rows here. This factorization reuses the same
 * symbolic analysis (cdyn__symbolic) and the same up-looking row algorithm,
 * but checks each pivot against the sign the caller expects for its row:
 *
 *   - expected positive (sign[i] > 0): d_k > eps_rel * s_k, else the
 *     factorization stops and reports the row (J is not positive definite,
 *     or nearly singular, at the current Newton iterate);
 *   - expected negative (sign[i] < 0): d_k < -eps_rel * s_k is accepted;
 *     |d_k| <= eps_rel * s_k drops the row as redundant (1/d_k = 0: its
 *     unknown comes out 0, as cdyn__ldlt does for redundant constraints);
 *     d_k > eps_rel * s_k stops with the row reported.
 *
 * s_k = |A_kk + diag_add_k| + sum_j |L(k, j)^2 d_j| is the size of the terms
 * that formed d_k, so the tests are relative to what cancelled.
 *
 * Without pivoting an LDL^T of an indefinite matrix need not exist. It does,
 * with the signs above, when J is positive definite, G has full row rank and
 * the elimination order puts every constraint row after all the velocity
 * rows it couples to (a leading block of such an order is itself a KKT
 * matrix whose inertia fixes the sign of its last pivot). The caller
 * provides such an order (cdyn__ldlt_signed_analyze checks nothing about
 * it; the symbolic postorder keeps the property, since a row coupled to an
 * earlier one is its ancestor in the elimination tree).
 */
#ifndef CDYN__SOLVER_LDLT_SIGNED_H
#define CDYN__SOLVER_LDLT_SIGNED_H

#include <stdint.h>

#include "cdyn/status.h"
#include "cdyn/types.h"
#include "solver/symbolic.h"
#include "solver/symmat.h"

/* No row: the value of cdyn__ldlt_signed.bad_row after a clean factor. */
#define CDYN__LDLT_SIGNED_NONE UINT32_MAX

typedef struct cdyn__ldlt_signed {
    cdyn__symbolic sym;  /* pattern-only data, see symbolic.h */
    double *lx;          /* sym.lnz values of L, by columns (entry sym.rq[t]) */
    double *dinv;        /* n: 1 / d_k, or 0 for a dropped row */
    double *y;           /* n scratch of the factor, all zero between calls */
    double *w;           /* n scratch of the solve */
    uint32_t nredundant; /* rows dropped by the last factor */
    uint32_t bad_row;    /* row (original numbering) whose pivot had the wrong
                            sign, or CDYN__LDLT_SIGNED_NONE */
    double bad_pivot;    /* that pivot */
    int factored;        /* a usable factorization is held */
} cdyn__ldlt_signed;

/* An empty factorization, safe to destroy or to analyse into. */
void cdyn__ldlt_signed_init(cdyn__ldlt_signed *f);

/* Frees what @p f owns through @p alloc and leaves it empty. NULL-safe. */
void cdyn__ldlt_signed_destroy(cdyn__ldlt_signed *f, const cdyn_allocator *alloc);

/* Symbolic analysis of the pattern of @p a in the elimination order
 * @p order (order[k] = row eliminated k-th, required: see the top of this
 * file), and allocation of the numeric arrays. On failure @p f is unchanged.
 * Statuses of cdyn__symbolic_analyze. */
cdyn_status cdyn__ldlt_signed_analyze(cdyn__ldlt_signed *f, const cdyn__symmat *a,
                                      const cdyn_allocator *alloc, const uint32_t *order);

/* Numeric factorization of A + diag(diag_add) (diag_add may be NULL) with
 * the expected pivot signs @p sign (original numbering, +1 or -1 per row).
 * Allocates nothing.
 * Returns CDYN_OK (f->nredundant rows dropped, f->bad_row NONE);
 * CDYN_ERR_SINGULAR when a pivot had the wrong sign (f->bad_row names the
 * row; no factorization is held); CDYN_ERR_INVALID_ARGUMENT for NULL
 * arguments, a pattern that does not match the analysis or a non-finite
 * pivot. */
cdyn_status cdyn__ldlt_signed_factor(cdyn__ldlt_signed *f, const cdyn__symmat *a,
                                     const double *diag_add, const int8_t *sign,
                                     double eps_rel);

/* Solves (A + diag(diag_add)) x = b with the last factorization, in place
 * (@p x: b in, solution out, original numbering); dropped rows get 0.
 * Allocates nothing. CDYN_ERR_INVALID_ARGUMENT without a factorization. */
cdyn_status cdyn__ldlt_signed_solve(cdyn__ldlt_signed *f, double *x);

#endif /* CDYN__SOLVER_LDLT_SIGNED_H */
