/* The heights: the initial surface, the valid range and the bound on the
 * lowest height that lets rain skip its rollback copy. */
#ifndef CDYN__LATTICE_HEIGHTS_H
#define CDYN__LATTICE_HEIGHTS_H

#include <stdbool.h>

#include "lattice/lattice.h"

/* The default initial surface of cdyn_lattice_create. */
#define CDYN__LATTICE_DEFAULT_SLOPE 0.5
#define CDYN__LATTICE_DEFAULT_NOISE 1.0

/* h(x, y) = slope * y + noise * u from the lattice's generator, in site
 * order; marks the surface new (relax, drainage, lowest height). */
void cdyn__lattice_fill_tilted(cdyn_lattice *lat, double slope, double noise);

/* |v| <= CDYN_LATTICE_HEIGHT_MAX (NaN is not). */
static inline bool cdyn__lattice_height_ok(double v)
{
    return v >= -CDYN_LATTICE_HEIGHT_MAX && v <= CDYN_LATTICE_HEIGHT_MAX;
}

/* The first height of @p v (n values) outside the valid range, or n. */
size_t cdyn__lattice_first_bad_height(const double *v, size_t n);

/* Called after the heights were replaced: the next rain relaxes them, the
 * drainage is stale, and lat->hmin_bound is their exact minimum. */
void cdyn__lattice_heights_replaced(cdyn_lattice *lat);

#endif
