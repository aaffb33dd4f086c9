/* Drainage forests given by receivers: receiver[i] is the site i drains to,
 * i itself for an outlet, CDYN__LATTICE_UNSET (UINT32_MAX) for a site that
 * is not part of the forest (a no-data cell: drainage 0, no donors).
 * Shared by the drainage, the statistics and the public
 * drainage-from-receivers entry point. */
#ifndef CDYN__LATTICE_FOREST_H
#define CDYN__LATTICE_FOREST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes to @p order a topological order of the forest (every site before
 * its receiver: sources first; excluded sites anywhere), using @p indeg (n
 * entries) as scratch. Returns false when an index is >= n (and not
 * UNSET), a site drains into an excluded one, or the receivers contain a
 * cycle. */
bool cdyn__lattice_forest_order(size_t n, const uint32_t *recv, uint32_t *indeg,
                                uint32_t *order);

/* drain[i] = 1 + sum of the drainage of the sites whose receiver is i (0
 * for an excluded site), following @p order from
 * cdyn__lattice_forest_order. */
void cdyn__lattice_forest_accumulate(size_t n, const uint32_t *recv, const uint32_t *order,
                                     uint32_t *drain);

/* The same drainage without an order: from every site whose donors are all
 * counted, walk down the receivers adding up, and stop at a site that still
 * waits for one; each site is passed once, O(n). Sites are taken from the
 * last index down, which on a lattice whose water runs towards row 0 keeps
 * the walks short and the memory touched within a few rows. @p donors (n
 * bytes) is scratch; every recv[i] must be < n, or UNSET when
 * @p excluded (the walks then test for it), no site may drain into an
 * excluded one, and no site may have more than 254 donors (a lattice site
 * has at most 8). Returns false if the receivers hold a cycle
 * (drain is then incomplete). */
bool cdyn__lattice_forest_accumulate_walk(size_t n, const uint32_t *recv, uint8_t *donors,
                                          uint32_t *drain, bool excluded);

#endif
