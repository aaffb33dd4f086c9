/* A fill-reducing elimination order for the sparse LU: minimum degree on
 * the graph of A + A^T. */
#ifndef CDYN__KINETICS_MIN_DEGREE_H
#define CDYN__KINETICS_MIN_DEGREE_H

#include <stddef.h>

#include "cdyn/status.h"
#include "cdyn/types.h"

/* The minimum-degree order of the n x n pattern given in compressed
 * columns (col: n + 1 starts, row: row indices; values are not needed),
 * symmetrized: perm[k] is the node eliminated k-th. The elimination graph
 * is kept explicitly (each elimination joins the neighbours of the node
 * into a clique), which costs about the fill of a symmetric factor; ties
 * go to the node whose degree was set last (buckets are last-in
 * first-out), so the order is deterministic. Work space comes from @p a
 * and is freed before returning. CDYN_OK or CDYN_ERR_NO_MEMORY. */
cdyn_status cdyn__kin_min_degree(const cdyn_allocator *a, size_t n, const size_t *col,
                                 const size_t *row, size_t *perm);

#endif
