/* The river network (step 7 of the model): receivers by priority-flood from
 * the outlets (flood.c), then drainage by walks down the receivers
 * (forest.c), each site passed once, O(W H).
 *
 * Memory beyond the heights: receivers and drainage (8 bytes per site, kept
 * as the result), a donor count (1 byte) and a reached bit per site while
 * it runs, in D8 a level per site (8 bytes), and the heap, which holds only
 * the flood's frontier. */
#include "lattice/lattice.h"

#include <string.h>

#include "core/alloc.h"
#include "lattice/flood.h"
#include "lattice/forest.h"

cdyn_status cdyn__lattice_update_drainage(cdyn_lattice *lat, const char *fn)
{
    if (lat->drainage_valid)
        return CDYN_OK;
    const cdyn_allocator *a = &lat->alloc;
    size_t n = lat->n;
    uint32_t *recv = lat->recv, *drain = lat->drain;
    if (!recv)
        recv = cdyn__alloc_array(a, n, sizeof *recv);
    if (!drain)
        drain = cdyn__alloc_array(a, n, sizeof *drain);
    uint8_t *donors = cdyn__alloc_array(a, n, 1);
    if (!recv || !drain || !donors) {
        if (recv != lat->recv)
            cdyn__free_array(a, recv, n, sizeof *recv);
        if (drain != lat->drain)
            cdyn__free_array(a, drain, n, sizeof *drain);
        cdyn__free_array(a, donors, n, 1);
        return cdyn__lattice_fail(lat, CDYN_ERR_NO_MEMORY, fn,
                                  "no memory for the drainage (%zu sites)", n);
    }
    lat->recv = recv;
    lat->drain = drain;
    /* The drainage array is free until the accumulation: the flood's FIFO. */
    bool ok = cdyn__lattice_flood(lat, recv, drain);
    if (ok)
        cdyn__lattice_forest_accumulate_walk(n, recv, donors, drain, lat->cell != NULL);
    cdyn__free_array(a, donors, n, 1);
    if (!ok)
        return cdyn__lattice_fail(lat, CDYN_ERR_NO_MEMORY, fn,
                                  "no memory for the flood (%zu sites)", n);
    lat->drainage_valid = true;
    return CDYN_OK;
}

static cdyn_status start(cdyn_lattice *lat, const char *fn, const void *out, size_t capacity,
                         bool need_out)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (need_out && !out)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "out is NULL");
    if (out && capacity < lat->n)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "capacity %zu is below W * H = %zu", capacity, lat->n);
    return cdyn__lattice_update_drainage(lat, fn);
}

cdyn_status cdyn_lattice_compute_drainage(cdyn_lattice *lat, uint32_t *out, size_t capacity)
{
    cdyn_status st = start(lat, "cdyn_lattice_compute_drainage", out, capacity, false);
    if (st == CDYN_OK && out)
        memcpy(out, lat->drain, lat->n * sizeof *out);
    return st;
}

cdyn_status cdyn_lattice_compute_drainage_area(cdyn_lattice *lat, double *out, size_t capacity)
{
    cdyn_status st = start(lat, "cdyn_lattice_compute_drainage_area", out, capacity, true);
    if (st == CDYN_OK) {
        double cell = lat->dx * lat->dy;
        for (size_t i = 0; i < lat->n; i++)
            out[i] = (double)lat->drain[i] * cell;
    }
    return st;
}

cdyn_status cdyn_lattice_compute_receivers(cdyn_lattice *lat, uint32_t *out, size_t capacity)
{
    cdyn_status st = start(lat, "cdyn_lattice_compute_receivers", out, capacity, true);
    if (st == CDYN_OK)
        memcpy(out, lat->recv, lat->n * sizeof *out); /* UNSET = CDYN_LATTICE_NO_RECEIVER */
    return st;
}

cdyn_status cdyn_lattice_compute_network(cdyn_lattice *lat, uint8_t *out, size_t capacity)
{
    cdyn_status st = start(lat, "cdyn_lattice_compute_network", out, capacity, true);
    if (st == CDYN_OK)
        for (size_t i = 0; i < lat->n; i++)
            out[i] = (double)lat->drain[i] >= lat->R;
    return st;
}
