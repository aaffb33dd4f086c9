/* Sparse LU factorization of an unsymmetric matrix, A(p, q) = L U, for the
 * Newton systems of the implicit methods.
 *
 * Left-looking (Gilbert and Peierls, SIAM J. Sci. Stat. Comput. 9, 1988):
 * column k of L and U comes from one sparse triangular solve with the
 * columns of L already computed, its pattern from a depth-first search of
 * their graph. The column order q is fill-reducing (minimum degree on
 * A + A^T) and fixed; rows are chosen by threshold partial pivoting that
 * prefers the diagonal entry A(q[k], q[k]) when it is at least tol times
 * the largest candidate, so that a matrix like I - gamma J keeps the
 * symmetric order and its predicted fill. A refactorization of new values
 * on the same pattern reuses the pivots and the patterns of L and U (no
 * search, a fixed order of operations); it reports a pivot that fell below
 * the threshold, and the caller then factors afresh. */
#ifndef CDYN__KINETICS_SPARSE_LU_H
#define CDYN__KINETICS_SPARSE_LU_H

#include <stdbool.h>
#include <stddef.h>

#include "cdyn/status.h"
#include "cdyn/types.h"

typedef struct cdyn__kin_lu {
    size_t n;
    double tol;        /* pivot threshold */
    size_t *q;         /* column order: pivot k takes column q[k] */
    size_t *pinv;      /* row -> pivot position */
    size_t *prow;      /* pivot position -> row */
    /* L (unit diagonal not stored) and U (diagonal apart) by pivot column,
     * row indices in pivot numbering, U's ascending. */
    size_t *lp, *li, *up, *ui;
    double *lx, *ux, *ud;
    size_t lcap, ucap;
    bool factored;     /* pivots and patterns valid for a refactorization */
    /* work space */
    double *x;         /* n, all zero between columns */
    size_t *stack;     /* 2 n: depth-first search and its output */
    size_t *pstack;    /* n */
    size_t *mark;      /* n stamps */
    size_t stamp;
} cdyn__kin_lu;

/* Sets up an LU of order n with column order @p q (copied) and pivot
 * threshold @p tol; the storage is sized by a factorization of the pattern
 * (col, row) with diagonal pivots, so that a matrix that keeps them needs
 * no more. CDYN_OK or CDYN_ERR_NO_MEMORY (nothing kept). */
cdyn_status cdyn__kin_lu_init(const cdyn_allocator *a, cdyn__kin_lu *lu, size_t n,
                              const size_t *q, double tol, const size_t *col,
                              const size_t *row);

void cdyn__kin_lu_free(const cdyn_allocator *a, cdyn__kin_lu *lu);

/* Factors A (compressed columns col, row, val) with a fresh pivot search.
 * CDYN_OK; CDYN_ERR_SINGULAR (a column with no nonzero finite candidate);
 * CDYN_ERR_NO_MEMORY when L or U outgrow their storage and it cannot
 * grow. Afterwards lu->factored tells whether a factorization is usable. */
cdyn_status cdyn__kin_lu_factor(const cdyn_allocator *a, cdyn__kin_lu *lu, const size_t *col,
                                const size_t *row, const double *val);

/* Factors new values of the pattern last factored, with its pivots.
 * Returns false (lu->factored cleared) when a pivot is zero, not finite or
 * below tol times its column's largest candidate: factor afresh. */
bool cdyn__kin_lu_refactor(cdyn__kin_lu *lu, const size_t *col, const size_t *row,
                           const double *val);

/* Solves A x = b in place (b in, x out), with @p work (n) as scratch. */
void cdyn__kin_lu_solve(const cdyn__kin_lu *lu, double *b, double *work);

/* Entries of L + U, the diagonal included. */
size_t cdyn__kin_lu_nonzeros(const cdyn__kin_lu *lu);

#endif
