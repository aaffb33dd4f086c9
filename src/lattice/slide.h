/* Mud slides, in rounds of simultaneous slides, by the lattice's slide rule
 * (cdyn_lattice_slide_rule). */
#ifndef CDYN__LATTICE_SLIDE_H
#define CDYN__LATTICE_SLIDE_H

#include <stddef.h>

#include "lattice/lattice.h"

/* A cascade of one drop makes at most this many slides per site of the
 * lattice; the sites it leaves slide at the next drop. */
#define CDYN__LATTICE_SLIDE_CAP_PER_SITE 16

/* Where the slides of a site that stands dh > M above its lowest neighbour
 * end, as a height above that neighbour: dh r^k with r = 1 - 1/S and k >= 1
 * the fewest slides after which dh r^k <= M (0 when M = 0, the series'
 * limit). Computed from r's powers by squaring in at most 2 * 64
 * multiplications, the same bits on every platform. */
double cdyn__lattice_series_end(double dh, double M, double r);

/* The slide phase of a drop. lat->list_b[0 .. count) holds the sites to
 * examine, each marked CDYN__LATTICE_QUEUED. In each round every listed
 * site higher than its lowest neighbour by dh > M slides (by the rule), all
 * computed from the heights at the start of the round; the sites that slid
 * and their neighbours form the next round. CDYN_LATTICE_SLIDE_ONCE runs one
 * round; CDYN_LATTICE_SLIDE_CASCADE runs rounds until one moves nothing or
 * the drop has made CDYN__LATTICE_SLIDE_CAP_PER_SITE W H slides. The next
 * round's sites stay in lat->list_b[0 .. lat->pending), marked, for the next
 * drop. Updates the slide counters. Cost: the sites the rounds touch. */
void cdyn__lattice_slide(cdyn_lattice *lat, size_t count);

/* Lists every site for the next slide phase (a new surface, M, S, rule or
 * boundary): under the cascade rule relaxes at once; under the once rule
 * leaves them all pending for the next drop. */
void cdyn__lattice_slide_all(cdyn_lattice *lat);

/* The reference for tests: the same rounds, each a full sweep over all sites
 * with no work list and no cap. Needs no scratch but @p newh (n doubles).
 * Runs at most @p max_rounds rounds; adds the height removed to *slid and
 * returns the number of rounds that moved something. */
size_t cdyn__lattice_slide_naive(cdyn_lattice *lat, double *newh, double *slid,
                                 size_t max_rounds);

#endif
