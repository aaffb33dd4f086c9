/* Sparse LDL^T factorization of a symmetric positive semi-definite matrix
 * (internal): the direct solver for (G W G^T) lambda = rhs.
 *
 * Use, per topology and per step:
 *
 *     cdyn__ldlt f; cdyn__ldlt_init(&f);
 *     cdyn__ldlt_analyze(&f, &a, alloc, NULL);       when the pattern changes
 *     each step: fill a.val, then
 *     cdyn__ldlt_factor_solve(&f, &a, compliance, 1e-10, x);
 *                          x: rhs in, solution out; no allocation
 *     (or cdyn__ldlt_factor, then cdyn__ldlt_solve per right-hand side)
 *     cdyn__symmat_residual(...) when rows were found redundant
 *     cdyn__ldlt_destroy(&f, alloc);
 *
 * The factorization is up-looking: row k of L comes from a sparse triangular
 * solve with the rows already done, over the patterns precomputed by
 * cdyn__symbolic, so there is no graph search and no dense vector to clear.
 * When no column of L has two entries (chains, trees) the row loop has no
 * inner update at all and L is stored by rows, in the order it is produced;
 * otherwise by columns, so that the inner update reads it contiguously.
 * Both solves run over rows, the backward one as a scatter. A chain
 * is latency-bound (each pivot waits for the previous division), which the
 * two-ended path order of cdyn__ordering_compute halves, and
 * cdyn__ldlt_factor_solve hides the forward solve under the factorization.
 *
 * Redundancy: a pivot d_k <= eps_rel * (A_kk + diag_add_k) means row k is
 * (numerically) a combination of rows eliminated before it. Its 1/d_k is set
 * to 0, which drops the row: its multiplier comes out 0, L(:, k) is 0 and the
 * other rows carry the load. For a consistent right-hand side that is an
 * exact solution; an inconsistent one (conflicting constraints) leaves a
 * residual in the dropped row, which cdyn__symmat_residual measures.
 */
#ifndef CDYN__SOLVER_LDLT_H
#define CDYN__SOLVER_LDLT_H

#include <stdint.h>

#include "cdyn/status.h"
#include "cdyn/types.h"
#include "solver/symbolic.h"
#include "solver/symmat.h"

/* A pivot at or below this fraction of its diagonal marks its row as
 * redundant: the factorization drops it (the multiplier solve, the
 * projections and their chain kernels all use this one threshold). */
#define CDYN__REDUNDANT_PIVOT 1e-10

typedef struct cdyn__ldlt {
    cdyn__symbolic sym; /* pattern-only data, see symbolic.h */
    double *lx;         /* sym.lnz values of L; by rows for a forest (entry t
                         * of the row storage), else by columns (sym.rq[t]) */
    double *dinv;       /* n: 1 / d_k, or 0 for a dropped (redundant) row */
    double *y;          /* n scratch of the factor, all zero between calls;
                         * NULL for a forest (no updates) */
    double *w;          /* n scratch of the solves */
    uint32_t *redundant; /* rows (original numbering) the last factor dropped, */
    uint32_t nredundant; /*  in elimination order; capacity n */
    int factored;       /* a factorization matching sym is held */
} cdyn__ldlt;

/* An empty factorization, safe to destroy or to analyse into. */
void cdyn__ldlt_init(cdyn__ldlt *f);

/* Frees what @p f owns through @p alloc (the allocator it was analysed with)
 * and leaves it empty. NULL-safe. */
void cdyn__ldlt_destroy(cdyn__ldlt *f, const cdyn_allocator *alloc);

/* Symbolic analysis of the pattern of @p a (values unused) and allocation of
 * every array the factor and solves will use; see cdyn__symbolic_analyze for
 * @p order (NULL: the default ordering). Call again only when the pattern
 * changes. On failure @p f is unchanged and nothing leaks.
 * Returns CDYN_OK, CDYN_ERR_INVALID_ARGUMENT, CDYN_ERR_UNSUPPORTED,
 * CDYN_ERR_NO_MEMORY (as cdyn__symbolic_analyze). */
cdyn_status cdyn__ldlt_analyze(cdyn__ldlt *f, const cdyn__symmat *a,
                               const cdyn_allocator *alloc, const uint32_t *order);

/* Numeric factorization P (A + diag(diag_add)) P^T = L D L^T of the values of
 * @p a, which must have the pattern given to cdyn__ldlt_analyze (its order
 * and entry count are checked). @p diag_add (original numbering, may be
 * NULL) is the per-row compliance, >= 0. A row whose pivot is <= eps_rel
 * times its diagonal (A_kk + diag_add_k) is dropped and listed in
 * f->redundant; eps_rel in [0, 1): around 1e-10 suits double precision, 0
 * drops only non-positive pivots. Allocates nothing.
 * Returns CDYN_OK (possibly with f->nredundant > 0), or
 * CDYN_ERR_INVALID_ARGUMENT: NULL, pattern mismatch, eps_rel out of range
 * (f unchanged), or a non-finite pivot from non-finite input (then f holds
 * no factorization). */
cdyn_status cdyn__ldlt_factor(cdyn__ldlt *f, const cdyn__symmat *a,
                              const double *diag_add, double eps_rel);

/* Solves (A + diag(diag_add)) x = b with the last factorization, in place:
 * @p x holds b on entry (original numbering, length n) and the solution on
 * return; dropped rows get 0. Allocates nothing.
 * Returns CDYN_OK, CDYN_ERR_INVALID_ARGUMENT (NULL, or no factorization). */
cdyn_status cdyn__ldlt_solve(cdyn__ldlt *f, double *x);

/* cdyn__ldlt_factor then cdyn__ldlt_solve(f, x), with the forward solve done
 * row by row inside the factorization: one pass over the data fewer, and on
 * a chain the two recurrences overlap. The result agrees with the two calls
 * to rounding (the forward solve multiplies in another order) and is
 * deterministic. Statuses of cdyn__ldlt_factor; on error @p x is unchanged.
 * This is the call for one right-hand side per step. */
cdyn_status cdyn__ldlt_factor_solve(cdyn__ldlt *f, const cdyn__symmat *a,
                                    const double *diag_add, double eps_rel, double *x);

/* cdyn__ldlt_factor_solve with the right-hand side @p b kept: the solution
 * goes to @p x (which may be b). Same results and statuses; on error @p x is
 * unchanged. Spares a copy when the caller needs b afterwards. */
cdyn_status cdyn__ldlt_factor_solve_rhs(cdyn__ldlt *f, const cdyn__symmat *a,
                                        const double *diag_add, double eps_rel,
                                        const double *b, double *x);

#endif /* CDYN__SOLVER_LDLT_H */
