#include "lattice/rollback.h"

#include <string.h>

#include "core/alloc.h"

bool cdyn__lattice_rain_is_safe(cdyn_lattice *lat, uint64_t n_drops)
{
    /* Twice the erosion for margin: the product and the count's conversion
     * round, the heights' own subtractions are exact enough. */
    double most = 2.0 * (double)n_drops * lat->D;
    if (lat->hmin_bound - most >= -CDYN_LATTICE_HEIGHT_MAX)
        return true;
    /* The bound drifts below the true lowest height as valleys deepen in
     * places; measure it before deciding to copy. */
    double lo = lat->height[0];
    for (size_t i = 1; i < lat->n; i++)
        lo = lat->height[i] < lo ? lat->height[i] : lo;
    lat->hmin_bound = lo;
    return lo - most >= -CDYN_LATTICE_HEIGHT_MAX;
}

bool cdyn__lattice_copy_take(cdyn_lattice *lat, cdyn__lattice_copy *c)
{
    const cdyn_allocator *a = &lat->alloc;
    memset(c, 0, sizeof *c);
    c->height = cdyn__alloc_array(a, lat->n, sizeof *c->height);
    c->n_pending = lat->pending;
    if (c->n_pending > 0)
        c->pending = cdyn__alloc_array(a, c->n_pending, sizeof *c->pending);
    if (!c->height || (c->n_pending > 0 && !c->pending)) {
        cdyn__lattice_copy_free(lat, c);
        return false;
    }
    memcpy(c->height, lat->height, lat->n * sizeof *c->height);
    if (c->n_pending > 0)
        memcpy(c->pending, lat->list_b, c->n_pending * sizeof *c->pending);
    c->counters = lat->counters;
    c->rng = lat->rng;
    c->hmin_bound = lat->hmin_bound;
    c->needs_relax = lat->needs_relax;
    return true;
}

void cdyn__lattice_copy_restore(cdyn_lattice *lat, cdyn__lattice_copy *c)
{
    memcpy(lat->height, c->height, lat->n * sizeof *c->height);
    /* The pending list and its marks as they were. */
    for (size_t i = 0; i < lat->n; i++)
        lat->flags[i] = (uint8_t)(lat->flags[i] & ~CDYN__LATTICE_QUEUED);
    for (size_t k = 0; k < c->n_pending; k++) {
        lat->list_b[k] = c->pending[k];
        lat->flags[c->pending[k]] |= CDYN__LATTICE_QUEUED;
    }
    lat->pending = c->n_pending;
    lat->counters = c->counters;
    lat->rng = c->rng;
    lat->hmin_bound = c->hmin_bound;
    lat->needs_relax = c->needs_relax;
    cdyn__lattice_heights_changed(lat);
    cdyn__lattice_copy_free(lat, c);
}

void cdyn__lattice_copy_free(cdyn_lattice *lat, cdyn__lattice_copy *c)
{
    const cdyn_allocator *a = &lat->alloc;
    cdyn__free_array(a, c->height, lat->n, sizeof *c->height);
    cdyn__free_array(a, c->pending, c->n_pending, sizeof *c->pending);
    c->height = NULL;
    c->pending = NULL;
}
