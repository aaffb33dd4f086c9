/* Sparse symmetric matrices stored as their lower triangle in compressed
 * columns (internal).
 *
 * Column j holds the rows i >= j of A(:, j); the diagonal is always stored and
 * always first, the rows after it ascend strictly. Indices are uint32_t: the
 * solver refuses (CDYN_ERR_UNSUPPORTED) a matrix whose order or entry count
 * reaches 2^31, which keeps every index array half the size of a size_t one.
 *
 * The caller builds the pattern once per topology, looks up once the value
 * position of each entry it will fill (cdyn__symmat_find), then each step
 * overwrites val[] in place. Analyses (cdyn__ldlt) depend only on the pattern.
 */
#ifndef CDYN__SOLVER_SYMMAT_H
#define CDYN__SOLVER_SYMMAT_H

#include <stddef.h>
#include <stdint.h>

#include "cdyn/status.h"
#include "cdyn/types.h"

/* Largest order and entry count accepted anywhere in the solver. */
#define CDYN__SOLVER_MAX_INDEX ((uint32_t)INT32_MAX)

typedef struct cdyn__symmat {
    uint32_t n;       /* order */
    uint32_t nnz;     /* stored entries, diagonal included: colptr[n] */
    uint32_t *colptr; /* n + 1 column starts */
    uint32_t *rowind; /* nnz row indices; rowind[colptr[j]] == j */
    double *val;      /* nnz values, the caller's to fill */
} cdyn__symmat;

/* An empty matrix (all zero): safe to destroy, to build into, or to pass to
 * any function as a 0 x 0 matrix. */
void cdyn__symmat_init(cdyn__symmat *m);

/* Frees what @p m owns through @p alloc (the allocator it was built with)
 * and leaves it empty. NULL-safe. */
void cdyn__symmat_destroy(cdyn__symmat *m, const cdyn_allocator *alloc);

/* Builds the pattern of an n x n symmetric matrix from @p npairs coupled
 * index pairs (pairs[2t], pairs[2t + 1]), given in either triangle, in any
 * order, duplicates allowed; pairs (i, i) are accepted and ignored since every
 * diagonal entry is stored anyway. Values are set to zero. Costs
 * O(n + npairs). On success the previous content of @p m is freed and
 * replaced; on failure @p m is unchanged.
 * Returns CDYN_OK, CDYN_ERR_INVALID_ARGUMENT (NULL array with a non-zero
 * count, an index >= n), CDYN_ERR_UNSUPPORTED (n or the entry count reaches
 * CDYN__SOLVER_MAX_INDEX), CDYN_ERR_NO_MEMORY. */
cdyn_status cdyn__symmat_build(cdyn__symmat *m, const cdyn_allocator *alloc,
                               uint32_t n, size_t npairs, const uint32_t *pairs);

/* Builds the pattern from groups of mutually coupled rows: group g lists the
 * rows group_rows[group_ptr[g] .. group_ptr[g + 1] - 1], and every two rows of
 * one group couple. For constraints this is one group per particle holding
 * the constraint rows that touch it, which gives exactly the pattern of
 * G W G^T. Same contract and statuses as cdyn__symmat_build; a row repeated
 * in a group is harmless. */
cdyn_status cdyn__symmat_build_groups(cdyn__symmat *m, const cdyn_allocator *alloc,
                                      uint32_t n, uint32_t ngroups,
                                      const uint32_t *group_ptr,
                                      const uint32_t *group_rows);

/* Position in m->val of entry (i, j) (either triangle): a binary search in
 * column min(i, j), meant to be called once per entry when the pattern is
 * set, not per step. Returns CDYN_OK and *pos, or CDYN_ERR_INVALID_ARGUMENT
 * when an index is out of range or the entry is not in the pattern. */
cdyn_status cdyn__symmat_find(const cdyn__symmat *m, uint32_t i, uint32_t j,
                              uint32_t *pos);

/* Sets every stored value to zero. */
void cdyn__symmat_zero(cdyn__symmat *m);

/* y = (A + diag(diag_add)) x, using the stored lower triangle and its
 * transpose. @p diag_add may be NULL (no addition). x and y have length n and
 * must not overlap. Allocates nothing. */
void cdyn__symmat_mul(const cdyn__symmat *m, const double *diag_add,
                      const double *x, double *y);

/* r = b - (A + diag(diag_add)) x into the caller's @p r (length n), and the
 * relative residual
 *     *rel = ||r||_inf / (max_k |A_kk + diag_add_k| * ||x||_inf + ||b||_inf)
 * (0 when the denominator is 0). For a positive semi-definite matrix the
 * largest diagonal entry bounds every entry, so this is a normwise backward
 * error up to the row degree: ~1e-15 for a consistent solve, O(1) when the
 * right-hand side conflicts with a redundant row. *worst receives the row
 * (original numbering) of the largest |r_i| (0 when n == 0); either output
 * pointer may be NULL. A non-finite input yields a non-finite *rel.
 * Allocates nothing. */
void cdyn__symmat_residual(const cdyn__symmat *m, const double *diag_add,
                           const double *x, const double *b, double *r,
                           double *rel, uint32_t *worst);

#endif /* CDYN__SOLVER_SYMMAT_H */
