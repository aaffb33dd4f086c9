/* Fill-reducing orderings (internal): paths from both ends, perfect
 * elimination for chordal graphs, approximate minimum degree otherwise;
 * cdyn__ordering_compute picks among them.
 *
 * Approximate minimum degree is the algorithm of Amestoy, Davis and Duff
 * (SIAM J. Matrix Anal. Appl. 17, 1996), written from the paper: elimination
 * on the quotient graph with element absorption (including aggressive
 * absorption), supervariables found by hashing, mass elimination and the
 * approximate external degree bound. Dense-row deferral is left out: the
 * constraint graphs it serves have bounded degree except around shared
 * particles, whose cliques cost no fill. On a tree (a chain is one) its
 * degrees stay exact, so every pivot is a leaf and there is no fill.
 *
 * Every order is deterministic. AMD's degree buckets are last-in first-out
 * and first filled in ascending index order, so among the initial ties the
 * largest index goes first (as in the reference AMD).
 */
#ifndef CDYN__SOLVER_ORDERING_H
#define CDYN__SOLVER_ORDERING_H

#include <stdint.h>

#include "cdyn/status.h"
#include "cdyn/types.h"
#include "solver/symmat.h"

/* Where an elimination order came from. */
typedef enum cdyn__ordering_kind {
    CDYN__ORDERING_PATHS = 0,   /* every component a path, taken from both ends */
    CDYN__ORDERING_PERFECT = 1, /* a perfect elimination order: no fill at all */
    CDYN__ORDERING_AMD = 2,     /* approximate minimum degree */
    CDYN__ORDERING_GIVEN = 3    /* the caller's (cdyn__symbolic_analyze) */
} cdyn__ordering_kind;

/* The default fill-reducing order of the pattern of @p a, the first that
 * applies of:
 *  - PATHS: every component is a path (chains of rods): each path is taken
 *    from both ends alternately, zero fill, and two independent recurrences
 *    interleave in the factor and solve loops (a chain is latency-bound);
 *  - PERFECT: the graph is chordal, which gives a zero-fill order (trees, and
 *    the line graph of any tree of rods, where a particle shared by k rods
 *    makes a k-clique); found by maximum cardinality search and confirmed by
 *    the zero-fill test of Tarjan and Yannakakis (SIAM J. Comput. 13, 1984);
 *  - AMD: approximate minimum degree (cdyn__ordering_amd).
 * The first two cost O(n + nnz).
 * perm[k] is the original row eliminated k-th (the caller's array of a->n
 * entries; unspecified after a failure); @p kind (may be NULL) tells which
 * order was used. Statuses as cdyn__ordering_amd. */
cdyn_status cdyn__ordering_compute(const cdyn__symmat *a, const cdyn_allocator *alloc,
                                   uint32_t *perm, cdyn__ordering_kind *kind);

/* Maximum cardinality search order (reversed, so perm[k] is eliminated
 * k-th) into @p perm, and *perfect = whether it causes no fill, i.e. whether
 * the graph is chordal. Workspace from @p alloc, freed before returning.
 * Statuses as cdyn__ordering_amd. */
cdyn_status cdyn__ordering_mcs(const cdyn__symmat *a, const cdyn_allocator *alloc,
                               uint32_t *perm, int *perfect);

/* Computes the elimination order of the pattern of @p a (values unused):
 * perm[k] is the original row eliminated k-th. @p perm is the caller's
 * array of a->n entries; it is written only on success. Workspace (about
 * 17 n + 2.4 nnz 32-bit words) comes from @p alloc and is freed before
 * returning.
 * Returns CDYN_OK, CDYN_ERR_INVALID_ARGUMENT (NULL pointer),
 * CDYN_ERR_UNSUPPORTED (the workspace would exceed 2^31 entries),
 * CDYN_ERR_NO_MEMORY. */
cdyn_status cdyn__ordering_amd(const cdyn__symmat *a, const cdyn_allocator *alloc,
                               uint32_t *perm);

#endif /* CDYN__SOLVER_ORDERING_H */
