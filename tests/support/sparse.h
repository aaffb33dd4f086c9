/* White-box builders of sparse symmetric patterns for the solver suites
 * (linked with the library's internals): growable pair lists, the patterns
 * of chains, trees, grids, random graphs and the line graphs of rods, and a
 * seeded xorshift generator so that each suite keeps its own sequence. */
#ifndef CDYN_TEST_SPARSE_H
#define CDYN_TEST_SPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "solver/symmat.h"

/* xorshift64 on *state: the next value, a value below n, one in [0, 1). */
uint64_t ts_xorshift(uint64_t *state);
uint32_t ts_below(uint64_t *state, uint32_t n);
double ts_unit(uint64_t *state);

/* A growable list of index pairs. */
typedef struct ts_pairs {
    uint32_t *v;
    size_t n, cap;
} ts_pairs;

void ts_pairs_push(ts_pairs *p, uint32_t a, uint32_t b);

/* The n x n pattern of the pairs (which are freed), asserted to build. */
cdyn__symmat ts_symmat_from_pairs(uint32_t n, ts_pairs *p);

/* Patterns: a path, a random tree (labels shuffled when @p shuffle, so
 * that no order is natural), a w x h grid, @p edges random pairs. */
cdyn__symmat ts_symmat_chain(uint32_t n);
cdyn__symmat ts_symmat_random_tree(uint32_t n, uint64_t *rng, int shuffle);
cdyn__symmat ts_symmat_grid(uint32_t w, uint32_t h);
cdyn__symmat ts_symmat_random_graph(uint32_t n, uint32_t edges, uint64_t *rng);

/* The constraint graph of m rods (ends[2t], ends[2t + 1]) on np particles:
 * two rods couple when they share a particle. */
cdyn__symmat ts_symmat_line_graph(uint32_t np, uint32_t m, const uint32_t *ends);

/* Frees a pattern made by these builders. */
void ts_symmat_destroy(cdyn__symmat *m);

#endif
