#include "forest.h"

#include <string.h>

#include "cdyn/lattice.h"
#include "alloc.h"

bool cdyn__lattice_forest_order(size_t n, const uint32_t *recv, uint32_t *indeg,
                                uint32_t *order)
{
    memset(indeg, 0, n * sizeof *indeg);
    for (size_t i = 0; i < n; i++) {
        uint32_t r = recv[i];
        if (r >= n)
            return false;
        if (r != i)
            indeg[r]++;
    }
    /* Kahn's algorithm with the output array as its queue. */
    size_t tail = 0;
    for (size_t i = 0; i < n; i++)
        if (indeg[i] == 0)
            order[tail++] = (uint32_t)i;
    for (size_t head = 0; head < tail; head++) {
        uint32_t s = order[head], r = recv[s];
        if (r != s && --indeg[r] == 0)
            order[tail++] = r;
    }
    /* A site on a cycle never loses all its donors. */
    return tail == n;
}

void cdyn__lattice_forest_accumulate(size_t n, const uint32_t *recv, const uint32_t *order,
                                     uint32_t *drain)
{
    for (size_t i = 0; i < n; i++)
        drain[i] = 1;
    for (size_t k = 0; k < n; k++) {
        uint32_t s = order[k], r = recv[s];
        if (r != s)
            drain[r] += drain[s];
    }
}

cdyn_status cdyn_lattice_drainage_from_receivers(size_t n_sites, const uint32_t *receivers,
                                                 const cdyn_allocator *alloc, uint32_t *out)
{
    cdyn_allocator a;
    if (!receivers || !out || n_sites == 0 || n_sites > UINT32_MAX ||
        !cdyn__allocator_init(&a, alloc))
        return CDYN_ERR_INVALID_ARGUMENT;
    uint32_t *indeg = cdyn__alloc_array(&a, n_sites, sizeof *indeg);
    uint32_t *order = cdyn__alloc_array(&a, n_sites, sizeof *order);
    cdyn_status st = CDYN_OK;
    if (!indeg || !order)
        st = CDYN_ERR_NO_MEMORY;
    else if (!cdyn__lattice_forest_order(n_sites, receivers, indeg, order))
        st = CDYN_ERR_INVALID_ARGUMENT;
    else
        cdyn__lattice_forest_accumulate(n_sites, receivers, order, out);
    cdyn__free_array(&a, indeg, n_sites, sizeof *indeg);
    cdyn__free_array(&a, order, n_sites, sizeof *order);
    return st;
}
