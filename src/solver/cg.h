/* Jacobi-preconditioned conjugate gradient on a cdyn__symmat (internal): the
 * iterative solver for large loopy constraint systems, warm-started from the
 * previous step's multipliers.
 */
#ifndef CDYN__SOLVER_CG_H
#define CDYN__SOLVER_CG_H

#include <stdint.h>

#include "cdyn/status.h"
#include "cdyn/types.h"
#include "solver/symmat.h"

typedef struct cdyn__cg {
    uint32_t capacity; /* rows the workspace holds */
    double *r, *z, *p, *q, *minv; /* capacity each */
} cdyn__cg;

/* Outcome of one solve. */
typedef struct cdyn__cg_report {
    uint32_t iterations; /* matrix products after the initial residual */
    double relres;       /* ||b - (A + D) x||_2 / ||b||_2, recomputed at exit */
} cdyn__cg_report;

/* An empty solver (no workspace), safe to destroy or to reserve. */
void cdyn__cg_init(cdyn__cg *cg);

/* Frees the workspace through @p alloc and leaves @p cg empty. NULL-safe. */
void cdyn__cg_destroy(cdyn__cg *cg, const cdyn_allocator *alloc);

/* Makes the workspace hold n rows; allocates only when n exceeds the
 * current capacity (so call it when the constraint count changes, not per
 * step). On failure @p cg is unchanged.
 * Returns CDYN_OK, CDYN_ERR_INVALID_ARGUMENT (NULL), CDYN_ERR_NO_MEMORY. */
cdyn_status cdyn__cg_reserve(cdyn__cg *cg, const cdyn_allocator *alloc, uint32_t n);

/* Solves (A + diag(diag_add)) x = b by conjugate gradients with the
 * preconditioner 1 / (A_kk + diag_add_k) (0 for an empty row), starting from
 * the caller's @p x (warm start). Stops when ||r||_2 <= tol ||b||_2, the
 * recursive residual being confirmed by a true one (and the iteration
 * restarted from the true residual if they disagree), or after max_iter
 * products. A is positive semi-definite; for a singular A the right-hand side
 * must be consistent. b == 0 gives x = 0. Allocates nothing.
 * @p report may be NULL.
 * Returns CDYN_OK; CDYN_ERR_NOT_CONVERGED when max_iter is reached or the
 * search direction loses positive curvature (x is then the last, finite,
 * iterate); CDYN_ERR_INVALID_ARGUMENT (NULL, workspace smaller than a->n,
 * tol not positive, non-finite A, diag_add, b or x: then x is untouched). */
cdyn_status cdyn__cg_solve(cdyn__cg *cg, const cdyn__symmat *a, const double *diag_add,
                           const double *b, double *x, double tol, uint32_t max_iter,
                           cdyn__cg_report *report);

#endif /* CDYN__SOLVER_CG_H */
