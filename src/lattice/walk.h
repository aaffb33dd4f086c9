/* One move of a rain drop (steps 3-4 of the model) and the exponential that
 * weighs the moves. */
#ifndef CDYN__LATTICE_WALK_H
#define CDYN__LATTICE_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "lattice/lattice.h"

/* e^x for x <= 0 (0 below -745 and for NaN), from + - * and a table only:
 * the walk's weights, and so the landscape, do not depend on the platform's
 * libm. Relative error below 1e-15. */
double cdyn__lattice_exp(double x);

/* The site a drop at @p cur moves to, having arrived from @p prev
 * (CDYN__LATTICE_UNSET for none). Neighbours n with dh = h[cur] - h[n] >= 0
 * are chosen with probability proportional to exp(E dh); @p prev only when no
 * other has that chance. With no such neighbour (a pit) the drop moves to
 * its lowest neighbour other than @p prev (ties in the order down, left,
 * right, up) and *pit is set. Draws from @p rng only when there are two or
 * more candidates. */
uint32_t cdyn__lattice_walk_choose(const cdyn_lattice *lat, cdyn__rng *rng, uint32_t cur,
                                   uint32_t prev, bool *pit);

#endif
