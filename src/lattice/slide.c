#include "lattice/slide.h"

/* The height site @p s slides to from the current heights, or its own
 * height when it stands (dh <= M, or dh / S too small to change it). */
static double slid_height(const cdyn_lattice *lat, uint32_t s, unsigned side)
{
    const double *h = lat->height;
    uint32_t nb[4];
    int k = cdyn__lattice_neighbours_fast(lat, s, side, nb);
    double lowest = h[nb[0]];
    for (int i = 1; i < k; i++)
        if (h[nb[i]] < lowest)
            lowest = h[nb[i]];
    double dh = h[s] - lowest;
    if (!(dh > lat->M))
        return h[s];
    return h[s] - dh / lat->S;
}

size_t cdyn__lattice_slide(cdyn_lattice *lat, size_t count)
{
    uint32_t *cur = lat->list_b, *next = lat->list_a;
    double *h = lat->height, *newh = lat->newh;
    size_t rounds = 0;
    while (count > 0) {
        /* Pass 1: what every listed site slides to, from the heights at
         * the start of the round; the sites that move are compacted to the
         * front of the list. */
        size_t moved = 0;
        for (size_t k = 0; k < count; k++) {
            uint32_t s = cur[k];
            unsigned f = lat->flags[s] & ~CDYN__LATTICE_QUEUED;
            lat->flags[s] = (uint8_t)f;
            double v = slid_height(lat, s, f);
            if (v < h[s]) {
                cur[moved] = s;
                newh[moved] = v;
                moved++;
            }
        }
        if (moved == 0)
            break;
        rounds++;
        /* Pass 2: apply; a site that slid may still exceed M, and its
         * neighbours now face a deeper drop: they form the next round. */
        size_t n_next = 0;
        for (size_t k = 0; k < moved; k++) {
            uint32_t s = cur[k], nb[4];
            lat->counters.total_slid += h[s] - newh[k];
            h[s] = newh[k];
            n_next = cdyn__lattice_enqueue(lat, next, n_next, s);
            int nn = cdyn__lattice_neighbours_fast(lat, s, lat->flags[s], nb);
            for (int i = 0; i < nn; i++)
                n_next = cdyn__lattice_enqueue(lat, next, n_next, nb[i]);
        }
        lat->counters.slides += moved;
        uint32_t *t = cur;
        cur = next;
        next = t;
        count = n_next;
    }
    /* Every site listed has had its mark cleared by pass 1. */
    lat->counters.slide_rounds += rounds;
    /* The lists may have swapped roles: keep list_b as "the current round"
     * for the next call (the buffers are interchangeable). */
    lat->list_b = cur;
    lat->list_a = next;
    return rounds;
}

void cdyn__lattice_slide_all(cdyn_lattice *lat)
{
    for (size_t i = 0; i < lat->n; i++) {
        lat->list_b[i] = (uint32_t)i;
        lat->flags[i] |= CDYN__LATTICE_QUEUED;
    }
    cdyn__lattice_slide(lat, lat->n);
}

size_t cdyn__lattice_slide_naive(cdyn_lattice *lat, double *newh, double *slid)
{
    double *h = lat->height;
    size_t rounds = 0;
    for (;;) {
        size_t moved = 0;
        for (size_t i = 0; i < lat->n; i++) {
            size_t x = i % lat->w;
            unsigned side = (x == 0 ? CDYN__LATTICE_LEFT : 0u) |
                            (x + 1 == lat->w ? CDYN__LATTICE_RIGHT : 0u);
            newh[i] = slid_height(lat, (uint32_t)i, side);
            if (newh[i] < h[i])
                moved++;
        }
        if (moved == 0)
            return rounds;
        rounds++;
        for (size_t i = 0; i < lat->n; i++) {
            if (newh[i] < h[i]) {
                *slid += h[i] - newh[i];
                h[i] = newh[i];
            }
        }
    }
}
