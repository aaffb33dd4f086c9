/* Rain (steps 2-6 of the model): drops that walk, erode and set off slides. */
#include "lattice/lattice.h"

#include "core/alloc.h"
#include "lattice/rollback.h"
#include "lattice/slide.h"
#include "lattice/terrain.h"
#include "lattice/walk.h"

bool cdyn__lattice_rain_scratch(cdyn_lattice *lat)
{
    if (lat->stamp)
        return true;
    const cdyn_allocator *a = &lat->alloc;
    size_t n = lat->n;
    uint32_t *stamp = cdyn__calloc_array(a, n, sizeof *stamp);
    uint32_t *la = cdyn__alloc_array(a, n, sizeof *la);
    uint32_t *lb = cdyn__alloc_array(a, n, sizeof *lb);
    double *newh = cdyn__alloc_array(a, n, sizeof *newh);
    uint8_t *flags = cdyn__calloc_array(a, n, sizeof *flags);
    if (!stamp || !la || !lb || !newh || !flags) {
        cdyn__free_array(a, stamp, n, sizeof *stamp);
        cdyn__free_array(a, la, n, sizeof *la);
        cdyn__free_array(a, lb, n, sizeof *lb);
        cdyn__free_array(a, newh, n, sizeof *newh);
        cdyn__free_array(a, flags, n, sizeof *flags);
        return false;
    }
    for (size_t y = 0; y < lat->h; y++) {
        flags[y * lat->w] |= CDYN__LATTICE_LEFT;
        flags[y * lat->w + lat->w - 1] |= CDYN__LATTICE_RIGHT;
    }
    lat->stamp = stamp;
    lat->stamp_now = 0;
    lat->list_a = la;
    lat->list_b = lb;
    lat->newh = newh;
    lat->flags = flags;
    return true;
}

void cdyn__lattice_free_scratch(cdyn_lattice *lat)
{
    const cdyn_allocator *a = &lat->alloc;
    size_t n = lat->n;
    cdyn__free_array(a, lat->stamp, n, sizeof *lat->stamp);
    cdyn__free_array(a, lat->list_a, n, sizeof *lat->list_a);
    cdyn__free_array(a, lat->list_b, n, sizeof *lat->list_b);
    cdyn__free_array(a, lat->newh, n, sizeof *lat->newh);
    cdyn__free_array(a, lat->flags, n, sizeof *lat->flags);
    cdyn__free_array(a, lat->recv, n, sizeof *lat->recv);
    cdyn__free_array(a, lat->drain, n, sizeof *lat->drain);
    lat->stamp = lat->list_a = lat->list_b = NULL;
    lat->newh = NULL;
    lat->flags = NULL;
    lat->recv = lat->drain = NULL;
}

/* One drop from site @p start: walk to row 0, lower every visited site by D
 * once, then slide from the neighbours of the path and the sites left
 * waiting by the drop before. A drop stopped by the cap never reached the
 * outlet, so it carried nothing away: it erodes nothing (otherwise trapped
 * drops would dig the depressions that trap the next ones ever deeper).
 * With @p check, a drop that would erode a site below the valid range
 * returns that site before eroding anything; otherwise CDYN__LATTICE_UNSET. */
static uint32_t drop(cdyn_lattice *lat, uint32_t start, bool check)
{
    cdyn_lattice_counters *c = &lat->counters;
    uint32_t *stamp = lat->stamp, *path = lat->list_a;
    size_t w = lat->w, np = 0;

    /* A fresh stamp marks the sites this drop visits, so that each is
     * eroded once however often the walk passes it. */
    if (++lat->stamp_now == 0) {
        for (size_t i = 0; i < lat->n; i++)
            stamp[i] = 0;
        lat->stamp_now = 1;
    }
    uint32_t now = lat->stamp_now;

    uint32_t cur = start, prev = CDYN__LATTICE_UNSET;
    stamp[cur] = now;
    path[np++] = cur;
    uint64_t steps = 0, cap = lat->walk_cap;
    bool capped = false;
    while (cur >= w) { /* y > 0 */
        if (steps == cap) {
            capped = true;
            break;
        }
#if defined(__GNUC__)
        /* Drops mostly run downhill, towards row 0: ask for the heights and
         * stamps three rows down now, so they are there when the walk is. */
        if (cur >= 3 * w) {
            __builtin_prefetch(lat->height + cur - 3 * w);
            __builtin_prefetch(stamp + cur - 3 * w);
        }
#endif
        bool pit;
        uint32_t next = cdyn__lattice_walk_choose(lat, &lat->rng, cur, prev, &pit);
        c->pit_moves += pit;
        steps++;
        prev = cur;
        cur = next;
        if (stamp[cur] != now) {
            stamp[cur] = now;
            path[np++] = cur;
        }
    }
    c->drops++;
    c->walk_steps += steps;
    /* The sites left waiting by the drop before slide in this drop's
     * phase, with those this drop's erosion sets off. */
    size_t nr = lat->pending;
    if (capped) {
        c->capped_walks++;
        np = 0;
    }

    double *h = lat->height, D = lat->D;
    if (check)
        for (size_t k = 0; k < np; k++)
            if (!(h[path[k]] - D >= -CDYN_LATTICE_HEIGHT_MAX))
                return path[k];
    c->sites_eroded += np;
    for (size_t k = 0; k < np; k++) {
        h[path[k]] -= D;
        c->total_eroded += D;
    }
    if (np > 0)
        lat->hmin_bound -= D; /* h - D >= hmin - D, rounding is monotone */
    /* Before the drop every site standing more than M above a neighbour
     * was pending; now only a neighbour u of an eroded site s can join
     * them, and only above s: the pairs with h(u) - h(s) > M. (Testing that
     * pair here, rather than listing every neighbour for a full test, keeps
     * a drop that sets off no slide cheap.) */
    uint32_t *round = lat->list_b;
    double M = lat->M;
    for (size_t k = 0; k < np; k++) {
        uint32_t nb[4], s = path[k];
        double hs = h[s];
        int nn = cdyn__lattice_neighbours_fast(lat, s, lat->flags[s], nb);
        for (int i = 0; i < nn; i++)
            if (h[nb[i]] - hs > M)
                nr = cdyn__lattice_enqueue(lat, round, nr, nb[i]);
    }
    if (nr > 0)
        cdyn__lattice_slide(lat, nr);
    return CDYN__LATTICE_UNSET;
}

static cdyn_status rain(cdyn_lattice *lat, const char *fn, bool fixed, uint32_t site,
                        uint64_t n_drops)
{
    /* The erosion model's drops run to row 0 over sites that all hold data. */
    if (!cdyn__lattice_terrain_is_plain(lat))
        return cdyn__lattice_fail(lat, CDYN_ERR_UNSUPPORTED, fn,
                                  "rain needs the model's outlets: row 0 only, no outlet or "
                                  "no-data mask");
    if (!cdyn__lattice_rain_scratch(lat))
        return cdyn__lattice_fail(lat, CDYN_ERR_NO_MEMORY, fn,
                                  "no memory for the rain scratch (%zu sites)", lat->n);
    /* Near the bottom of the valid range, keep a copy to roll back to. */
    cdyn__lattice_copy copy;
    bool check = !cdyn__lattice_rain_is_safe(lat, n_drops);
    if (check && !cdyn__lattice_copy_take(lat, &copy))
        return cdyn__lattice_fail(lat, CDYN_ERR_NO_MEMORY, fn,
                                  "no memory for the copy to roll back to (%zu sites)", lat->n);
    if (lat->needs_relax) {
        cdyn__lattice_slide_all(lat);
        lat->needs_relax = false;
        cdyn__lattice_heights_changed(lat);
    }
    for (uint64_t d = 0; d < n_drops; d++) {
        uint32_t start = fixed ? site : (uint32_t)cdyn__lattice_rng_below(&lat->rng, lat->n);
        uint32_t bad = drop(lat, start, check);
        if (bad != CDYN__LATTICE_UNSET) {
            double hb = lat->height[bad];
            cdyn__lattice_copy_restore(lat, &copy);
            return cdyn__lattice_fail(lat, CDYN_ERR_DIVERGED, fn,
                                      "drop %llu of %llu would erode site (%zu, %zu) from %g "
                                      "below the lowest height -%g; nothing rained",
                                      (unsigned long long)d + 1, (unsigned long long)n_drops,
                                      (size_t)bad % lat->w, (size_t)bad / lat->w, hb,
                                      CDYN_LATTICE_HEIGHT_MAX);
        }
    }
    if (check)
        cdyn__lattice_copy_free(lat, &copy);
    if (n_drops > 0)
        cdyn__lattice_heights_changed(lat);
    return CDYN_OK;
}

cdyn_status cdyn_lattice_rain(cdyn_lattice *lat, uint64_t n_drops)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    return rain(lat, "cdyn_lattice_rain", false, 0, n_drops);
}

cdyn_status cdyn_lattice_rain_at(cdyn_lattice *lat, size_t x, size_t y, uint64_t n_drops)
{
    static const char fn[] = "cdyn_lattice_rain_at";
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (x >= lat->w || y >= lat->h)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "site (%zu, %zu) outside the %zu x %zu lattice", x, y,
                                  lat->w, lat->h);
    return rain(lat, fn, true, (uint32_t)(y * lat->w + x), n_drops);
}
