/* Mud slides (step 6 of the seed), in rounds of simultaneous slides. */
#ifndef CDYN__LATTICE_SLIDE_H
#define CDYN__LATTICE_SLIDE_H

#include <stddef.h>

#include "lattice/lattice.h"

/* Relaxes the surface from the @p count sites in lat->list_b (each marked in
 * lat->flags): in each round every listed site higher than its lowest
 * neighbour by dh > M is lowered by dh / S, all computed from the heights at
 * the start of the round; the sites that slid and their neighbours form the
 * next round, until a round moves nothing. Cost: the sites the rounds touch.
 * Updates the slide counters. Returns the number of rounds. */
size_t cdyn__lattice_slide(cdyn_lattice *lat, size_t count);

/* Relaxes every site: lists all of them and calls cdyn__lattice_slide. */
void cdyn__lattice_slide_all(cdyn_lattice *lat);

/* The reference for tests: the same rounds, each a full sweep over all sites
 * with no work list. Needs no scratch but @p newh (n doubles). Adds the
 * height removed to *slid and returns the number of rounds that moved
 * something. */
size_t cdyn__lattice_slide_naive(cdyn_lattice *lat, double *newh, double *slid);

#endif
