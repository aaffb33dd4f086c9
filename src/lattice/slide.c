#include "lattice/slide.h"

double cdyn__lattice_series_end(double dh, double M, double r)
{
    if (!(M > 0))
        return 0.0;
    /* p[j] = r^(2^j) until dh p[J] <= M: then the number of slides k lies
     * in 1 .. 2^J. With S <= 1e12 and dh / M < 1e425, J stays below 51. */
    double p[64];
    int J = 0;
    p[0] = r;
    while (!(dh * p[J] <= M) && J < 63) {
        p[J + 1] = p[J] * p[J];
        J++;
    }
    /* Binary descent: the largest e < 2^J with dh r^e > M (e = k - 1),
     * then the last slide. */
    double v = dh;
    for (int j = J - 1; j >= 0; j--)
        if (v * p[j] > M)
            v *= p[j];
    v *= r;
    return v <= M ? v : M; /* rounding cannot leave it above M */
}

/* The height site @p s slides to from the current heights, or its own
 * height when it stands (dh <= M, or a slide too small to change it). */
static double slid_height(const cdyn_lattice *lat, uint32_t s, unsigned side)
{
    const double *h = lat->height;
    uint32_t nb[4];
    int k = cdyn__lattice_neighbours_fast(lat, s, side, nb);
    double lowest = h[nb[0]];
    for (int i = 1; i < k; i++)
        if (h[nb[i]] < lowest)
            lowest = h[nb[i]];
    double hs = h[s], dh = hs - lowest;
    if (!(dh > lat->M))
        return hs;
    /* One slide of dh / S (the once rule, and a cascade that one slide
     * settles), else the end of the cascade's series in one step. */
    double v = lat->slide_rule == CDYN_LATTICE_SLIDE_ONCE || dh * lat->slide_r <= lat->M
                   ? hs - dh / lat->S
                   : lowest + cdyn__lattice_series_end(dh, lat->M, lat->slide_r);
    /* Never below the neighbour it slides towards (rounding with S near
     * 1): the lowest height of the lattice never falls by a slide. */
    return v < lowest ? lowest : v;
}

void cdyn__lattice_slide(cdyn_lattice *lat, size_t count)
{
    uint32_t *cur = lat->list_b, *next = lat->list_a;
    double *h = lat->height, *newh = lat->newh;
    bool once = lat->slide_rule == CDYN_LATTICE_SLIDE_ONCE;
    uint64_t budget = CDYN__LATTICE_SLIDE_CAP_PER_SITE * (uint64_t)lat->n, made = 0;
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
        count = 0;
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
        made += moved;
        uint32_t *t = cur;
        cur = next;
        next = t;
        count = n_next;
        if (once)
            break;
        if (made >= budget) {
            lat->counters.capped_cascades++;
            break;
        }
    }
    lat->counters.slide_rounds += rounds;
    /* What is left (marked) waits for the next drop. The lists may have
     * swapped roles: keep list_b as "the current round" (the buffers are
     * interchangeable). */
    lat->pending = count;
    lat->list_b = cur;
    lat->list_a = next;
}

void cdyn__lattice_slide_all(cdyn_lattice *lat)
{
    for (size_t i = 0; i < lat->n; i++) {
        lat->list_b[i] = (uint32_t)i;
        lat->flags[i] |= CDYN__LATTICE_QUEUED;
    }
    if (lat->slide_rule == CDYN_LATTICE_SLIDE_ONCE)
        lat->pending = lat->n;
    else
        cdyn__lattice_slide(lat, lat->n);
}

size_t cdyn__lattice_slide_naive(cdyn_lattice *lat, double *newh, double *slid,
                                 size_t max_rounds)
{
    double *h = lat->height;
    size_t rounds = 0;
    while (rounds < max_rounds) {
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
    return rounds;
}
