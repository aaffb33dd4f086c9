/* A copy of everything rain changes, taken when a rain might erode a
 * height out of the valid range, so that it can fail with nothing changed. */
#ifndef CDYN__LATTICE_ROLLBACK_H
#define CDYN__LATTICE_ROLLBACK_H

#include <stdbool.h>
#include <stdint.h>

#include "lattice/lattice.h"

typedef struct cdyn__lattice_copy {
    double *height;                 /* n heights */
    uint32_t *pending;              /* the pending sites, in order */
    size_t n_pending;
    cdyn_lattice_counters counters;
    cdyn__rng rng;
    double hmin_bound;
    bool needs_relax;
} cdyn__lattice_copy;

/* true when @p n_drops drops cannot lower any height below
 * -CDYN_LATTICE_HEIGHT_MAX: only erosion lowers the lowest height, by at
 * most D per drop. May tighten lat->hmin_bound to the exact minimum. */
bool cdyn__lattice_rain_is_safe(cdyn_lattice *lat, uint64_t n_drops);

/* Takes the copy (false when the allocator fails: nothing taken). */
bool cdyn__lattice_copy_take(cdyn_lattice *lat, cdyn__lattice_copy *c);

/* Puts the lattice back as it was when the copy was taken, and frees it. */
void cdyn__lattice_copy_restore(cdyn_lattice *lat, cdyn__lattice_copy *c);

/* Frees the copy without restoring it. */
void cdyn__lattice_copy_free(cdyn_lattice *lat, cdyn__lattice_copy *c);

#endif
