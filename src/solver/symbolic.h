/* Symbolic analysis for the sparse LDL^T factorization (internal).
 *
 * From the pattern of A and a fill-reducing order it computes everything the
 * numeric phase needs and that changes only with the pattern: the final
 * permutation (the order, then a postorder of its elimination tree), the
 * elimination tree, and the pattern of L by rows (the order in which the
 * up-looking factorization produces it and the solves read it) with, for
 * each entry, where its value comes from in A and where it sits in its
 * column. The numeric phase then runs without any graph search.
 *
 * Storage of L (strictly lower part, unit diagonal implied): entry t of row
 * k, t in [rp[k], rp[k + 1]), is L(k, rj[t]); columns ascend within a row.
 * Column j lists the same entries by ascending row: li[q] is the row, for q
 * in [lp[j], lp[j + 1]), and rq[t] links a row entry to its column index.
 */
#ifndef CDYN__SOLVER_SYMBOLIC_H
#define CDYN__SOLVER_SYMBOLIC_H

#include <stdint.h>

#include "cdyn/status.h"
#include "cdyn/types.h"
#include "solver/ordering.h"
#include "solver/symmat.h"

/* A root of the elimination tree has this parent; an entry of L that is
 * fill (zero in A) has this source. */
#define CDYN__SYMBOLIC_NONE UINT32_MAX

typedef struct cdyn__symbolic {
    uint32_t n;
    uint32_t annz;    /* entry count of the analysed matrix (a pattern check) */
    uint32_t lnz;     /* entries of L below the diagonal */
    cdyn__ordering_kind ordering; /* how the order was found */
    int forest;       /* no column of L has two entries: no updates in the factor */
    uint32_t *perm;   /* n: perm[k] = original row of pivot k */
    uint32_t *parent; /* n: elimination tree of P A P^T (NULL when lean) */
    uint32_t *adiag;  /* n: position of A(perm[k], perm[k]) in val[] */
    uint32_t *rp;     /* n + 1: row starts */
    uint32_t *rj;     /* lnz: column of each row entry */
    uint32_t *rsrc;   /* lnz: position of the entry's value in val[], or NONE */
    uint32_t *rq;     /* lnz: index q of the entry in its column's list */
    uint32_t *lp;     /* n + 1: column starts */
    uint32_t *li;     /* lnz: row of each column entry */
                      /* (rq, lp, li: NULL for a lean analysis of a forest) */
} cdyn__symbolic;

/* An empty analysis, safe to destroy or to analyse into. */
void cdyn__symbolic_init(cdyn__symbolic *s);

/* Frees what @p s owns through @p alloc and leaves it empty. NULL-safe. */
void cdyn__symbolic_destroy(cdyn__symbolic *s, const cdyn_allocator *alloc);

/* Analyses the pattern of @p a. @p order is a fill-reducing order to start
 * from (order[k] = row eliminated k-th, copied, not kept), or NULL for
 * the default (cdyn__ordering_compute: both-ends order for paths, perfect
 * elimination when the graph is chordal, else approximate minimum degree).
 * Except for paths, the elimination tree of that order is then postordered,
 * which keeps the fill and makes each subtree contiguous (a tree of
 * constraints comes out leaves first). Costs O(nnz(L) + nnz(A)) beyond the
 * ordering. On success the previous content of @p s is freed and replaced;
 * on failure @p s is unchanged and nothing leaks.
 * Returns CDYN_OK, CDYN_ERR_INVALID_ARGUMENT (NULL pointer, @p order not a
 * permutation of 0..n-1), CDYN_ERR_UNSUPPORTED (n, nnz(A) or nnz(L) would
 * reach CDYN__SOLVER_MAX_INDEX), CDYN_ERR_NO_MEMORY. */
cdyn_status cdyn__symbolic_analyze(cdyn__symbolic *s, const cdyn__symmat *a,
                                   const cdyn_allocator *alloc,
                                   const uint32_t *order);

/* As cdyn__symbolic_analyze, keeping only what cdyn__ldlt reads: parent is
 * not kept, and when L is a forest neither are the column lists (lp, li, rq
 * stay NULL; its factor has no inner updates and stores L by rows). Saves
 * 16 bytes per row of a chain or tree. */
cdyn_status cdyn__symbolic_analyze_lean(cdyn__symbolic *s, const cdyn__symmat *a,
                                        const cdyn_allocator *alloc,
                                        const uint32_t *order);

#endif /* CDYN__SOLVER_SYMBOLIC_H */
