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

bool cdyn__lattice_forest_accumulate_walk(size_t n, const uint32_t *recv, uint32_t *donors,
                                          uint32_t *drain)
{
    const uint32_t done = UINT32_MAX;
    memset(donors, 0, n * sizeof *donors);
    for (size_t i = 0; i < n; i++) {
        drain[i] = 1;
        if (recv[i] != i)
            donors[recv[i]]++;
    }
    size_t passed = 0;
    for (size_t i = n; i-- > 0;) {
        if (donors[i] != 0)
            continue;
        uint32_t s = (uint32_t)i;
        donors[s] = done;
        passed++;
        for (;;) {
            uint32_t r = recv[s];
            if (r == s)
                break;
            drain[r] += drain[s];
            if (--donors[r] != 0)
                break;
            donors[r] = done;
            passed++;
            s = r;
        }
    }
    /* A site on a cycle always waits for a donor: it is never passed. */
    return passed == n;
}

cdyn_status cdyn_lattice_drainage_from_receivers(size_t n_sites, const uint32_t *receivers,
                                                 const cdyn_allocator *alloc, uint32_t *out)
{
    cdyn_allocator a;
    if (!receivers || !out || n_sites == 0 || n_sites > UINT32_MAX ||
        !cdyn__allocator_init(&a, alloc))
        return CDYN_ERR_INVALID_ARGUMENT;
    for (size_t i = 0; i < n_sites; i++)
        if (receivers[i] >= n_sites)
            return CDYN_ERR_INVALID_ARGUMENT;
    uint32_t *donors = cdyn__alloc_array(&a, n_sites, sizeof *donors);
    if (!donors)
        return CDYN_ERR_NO_MEMORY;
    bool ok = cdyn__lattice_forest_accumulate_walk(n_sites, receivers, donors, out);
    cdyn__free_array(&a, donors, n_sites, sizeof *donors);
    return ok ? CDYN_OK : CDYN_ERR_INVALID_ARGUMENT;
}
