#include "lattice/forest.h"

#include <string.h>

#include "cdyn/lattice.h"
#include "core/alloc.h"
#include "lattice/lattice.h"

bool cdyn__lattice_forest_order(size_t n, const uint32_t *recv, uint32_t *indeg,
                                uint32_t *order)
{
    memset(indeg, 0, n * sizeof *indeg);
    for (size_t i = 0; i < n; i++) {
        uint32_t r = recv[i];
        if (r == CDYN__LATTICE_UNSET)
            continue;
        if (r >= n || recv[r] == CDYN__LATTICE_UNSET)
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
        if (r != s && r != CDYN__LATTICE_UNSET && --indeg[r] == 0)
            order[tail++] = r;
    }
    /* A site on a cycle never loses all its donors. */
    return tail == n;
}

void cdyn__lattice_forest_accumulate(size_t n, const uint32_t *recv, const uint32_t *order,
                                     uint32_t *drain)
{
    for (size_t i = 0; i < n; i++)
        drain[i] = recv[i] != CDYN__LATTICE_UNSET;
    for (size_t k = 0; k < n; k++) {
        uint32_t s = order[k], r = recv[s];
        if (r != s && r != CDYN__LATTICE_UNSET)
            drain[r] += drain[s];
    }
}

/* The walks of cdyn__lattice_forest_accumulate_walk, for donor counts of
 * type T whose largest value marks a site done, with (EXCL 1) or without
 * (EXCL 0, every receiver a site) excluded sites. The scan goes down the
 * indices; a site is ready when all its donors have passed their water on.
 * A receiver that becomes ready is continued at once only if the scan has
 * gone past it already (a receiver above, or to the right in its row);
 * otherwise the scan reaches it soon. On a lattice draining towards row 0
 * nearly every site is ready when the scan reaches it and nearly no walk
 * goes on, so the tests below almost always go the same way: few branch
 * mispredictions, and the scan touches memory a row or two at a time. */
#define WALKS(T, DONE, EXCL)                                                    \
    do {                                                                        \
        memset(donors, 0, n * sizeof *donors);                                  \
        for (size_t i = 0; i < n; i++) {                                        \
            uint32_t r = recv[i];                                               \
            drain[i] = !(EXCL) || r != CDYN__LATTICE_UNSET;                     \
            if (r != i && (!(EXCL) || r != CDYN__LATTICE_UNSET))                \
                donors[r]++;                                                    \
        }                                                                       \
        for (size_t i = n; i-- > 0;) {                                          \
            if (donors[i] != 0)                                                 \
                continue;                                                       \
            uint32_t s = (uint32_t)i;                                           \
            donors[s] = (DONE);                                                 \
            passed++;                                                           \
            for (;;) {                                                          \
                uint32_t r = recv[s];                                           \
                if ((r == s) | ((EXCL) && r == CDYN__LATTICE_UNSET))            \
                    break;                                                      \
                drain[r] += drain[s];                                           \
                T left = --donors[r];                                           \
                if ((left != 0) | (r < i))                                      \
                    break;                                                      \
                donors[r] = (DONE);                                             \
                passed++;                                                       \
                s = r;                                                          \
            }                                                                   \
        }                                                                       \
    } while (0)

bool cdyn__lattice_forest_accumulate_walk(size_t n, const uint32_t *recv, uint8_t *donors,
                                          uint32_t *drain, bool excluded)
{
    size_t passed = 0;
    if (excluded)
        WALKS(uint8_t, 0xFF, 1);
    else
        WALKS(uint8_t, 0xFF, 0);
    /* A site on a cycle always waits for a donor: it is never passed. */
    return passed == n;
}

/* As above with 32-bit donor counts, for forests with wide confluences. */
static bool accumulate_walk32(size_t n, const uint32_t *recv, uint32_t *donors,
                              uint32_t *drain)
{
    size_t passed = 0;
    WALKS(uint32_t, UINT32_MAX, 1);
    return passed == n;
}

cdyn_status cdyn_lattice_drainage_from_receivers(size_t n_sites, const uint32_t *receivers,
                                                 const cdyn_allocator *alloc, uint32_t *out)
{
    cdyn_allocator a;
    if (!receivers || !out || n_sites == 0 || n_sites > UINT32_MAX ||
        !cdyn__allocator_init(&a, alloc))
        return CDYN_ERR_INVALID_ARGUMENT;
    /* One pass checks the indices and counts donors in a byte while no site
     * has more than 254 (always so on a 4-neighbour lattice); a wider
     * confluence falls back to 32-bit counts. */
    uint8_t *d8 = cdyn__calloc_array(&a, n_sites, 1);
    if (!d8)
        return CDYN_ERR_NO_MEMORY;
    bool wide = false, excluded = false;
    for (size_t i = 0; i < n_sites; i++) {
        uint32_t r = receivers[i];
        if (r == CDYN__LATTICE_UNSET) {
            excluded = true; /* not a site of the forest */
            continue;
        }
        if (r >= n_sites || receivers[r] == CDYN__LATTICE_UNSET) {
            cdyn__free_array(&a, d8, n_sites, 1);
            return CDYN_ERR_INVALID_ARGUMENT;
        }
        if (r != i && ++d8[r] == 0xFF)
            wide = true;
    }
    bool ok;
    if (!wide) {
        ok = cdyn__lattice_forest_accumulate_walk(n_sites, receivers, d8, out, excluded);
        cdyn__free_array(&a, d8, n_sites, 1);
    } else {
        cdyn__free_array(&a, d8, n_sites, 1);
        uint32_t *d32 = cdyn__alloc_array(&a, n_sites, sizeof *d32);
        if (!d32)
            return CDYN_ERR_NO_MEMORY;
        ok = accumulate_walk32(n_sites, receivers, d32, out);
        cdyn__free_array(&a, d32, n_sites, sizeof *d32);
    }
    return ok ? CDYN_OK : CDYN_ERR_INVALID_ARGUMENT;
}
