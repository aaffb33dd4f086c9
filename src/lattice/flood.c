/* Receivers by priority-flood (Barnes, Lehman and Mulla 2014).
 *
 * The level of a site is the height at which its water leaves: the lowest,
 * over all paths to an outlet, of the highest height on the path (its own
 * height, or the spill height of the depression it lies in). The flood
 * starts from every outlet (own receiver) and expands sites in order of
 * level, ties by site index; a site no higher than the level being
 * expanded is drowned at that level and joins a FIFO, so a lake or a flat
 * is crossed breadth-first from every site where the flood entered it at
 * once. Every receiver is expanded before its donors, so the receivers form
 * a forest rooted in the outlets.
 *
 * D4: a site's receiver is the neighbour that first reached it, a neighbour
 * of lowest level (the steepest descent on the filled surface for equal
 * spacings) and, on a flat, the next step of a shortest path to where the
 * flood entered it.
 * D8: eight neighbours, and every reached site's level recorded. After the
 * flood, a site that stands above a neighbour on the filled surface (one
 * taken from the heap: it was reached from a lower level) drains to its
 * steepest descent, (its level - the neighbour's level) times 1 / distance
 * with distances dx, dy and sqrt(dx^2 + dy^2), ties to the first in the
 * order down, left, right, up, down-left, down-right, up-left, up-right. A
 * drowned site (lake or flat; it has no neighbour of lower level) drains to
 * the neighbour that first reached it, as in D4: flats are resolved
 * breadth-first, not by an epsilon gradient, so no height is changed.
 *
 * No-data cells are never reached (marked at the start) and receive
 * nothing. Sites no outlet can reach (a basin closed by walls or no-data)
 * are flooded afterwards from their lowest site, ties by index, which
 * becomes its own receiver: a sink. */
#include "lattice/flood.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "lattice/flood_heap.h"
#include "lattice/terrain.h"

typedef struct flood {
    const double *h;
    uint32_t *recv;  /* set when the flood reaches the site */
    /* One bit per site, set when the flood reaches it: the test of every
     * neighbour reads this map, 32 times denser than the receivers, so it
     * mostly stays in cache while the flood wanders. */
    uint64_t *reached;
    uint32_t *fifo;  /* ring of n entries */
    size_t fhead, fcount;
    cdyn__heap q;
    size_t w, n;
    bool periodic;
    /* D8 only: the level of every reached site, and 1 / distance for a
     * move along x, along y and diagonally. */
    double *lvl;
    double inv[3];
} flood;

static inline bool is_reached(const flood *f, uint32_t m)
{
    return (f->reached[m >> 6] >> (m & 63)) & 1;
}

static inline void mark(flood *f, uint32_t m)
{
    f->reached[m >> 6] |= 1ULL << (m & 63);
}

static inline void fifo_push(flood *f, uint32_t s)
{
    size_t at = f->fhead + f->fcount++;
    f->fifo[at < f->n ? at : at - f->n] = s;
}

static inline uint32_t fifo_pop(flood *f)
{
    uint32_t s = f->fifo[f->fhead];
    f->fhead = f->fhead + 1 == f->n ? 0 : f->fhead + 1;
    f->fcount--;
    return s;
}

/* Hints that the flood will soon read around site @p s (the rows above and
 * below too): the flood front wanders over the whole lattice, so on large
 * lattices most expansions miss the cache, and asking early hides part of
 * the wait. No effect on results. */
static inline void prefetch_site(const double *h, size_t s, size_t w, size_t n)
{
#if defined(__GNUC__)
    __builtin_prefetch(h + s);
    if (s >= w)
        __builtin_prefetch(h + s - w);
    if (s + w < n)
        __builtin_prefetch(h + s + w);
#else
    (void)h, (void)s, (void)w, (void)n;
#endif
}

/* Expands @p s at level @p lv over its 4-neighbours: its unreached
 * neighbours drain to it; those no higher than lv are drowned at lv
 * (FIFO), the others wait in the heap with their own height as level. */
static bool expand4(flood *f, uint32_t s, double lv)
{
    const double *h = f->h;
    uint32_t *recv = f->recv;
    uint32_t nb[4];
    int k = cdyn__lattice_nbrs4(s, s % (uint32_t)f->w, f->w, f->n, f->periodic, nb);
    uint64_t *reached = f->reached;
    for (int i = 0; i < k; i++) {
        uint32_t m = nb[i];
        uint64_t bit = 1ULL << (m & 63);
        if (reached[m >> 6] & bit)
            continue;
        reached[m >> 6] |= bit;
        recv[m] = s;
        double hm = h[m];
        if (hm <= lv)
            fifo_push(f, m);
        else if (!cdyn__heap_push(&f->q, cdyn__flood_key(hm), m))
            return false;
    }
    return true;
}

/* As expand4 over the 8-neighbours, recording each reached site's level. */
static bool expand8(flood *f, uint32_t s, double lv)
{
    const double *h = f->h;
    double *lvl = f->lvl;
    uint32_t nb[8];
    uint8_t kind[8];
    int k = cdyn__lattice_nbrs8(s, s % (uint32_t)f->w, f->w, f->n, f->periodic, nb, kind);
    for (int i = 0; i < k; i++) {
        uint32_t m = nb[i];
        if (is_reached(f, m))
            continue;
        mark(f, m);
        f->recv[m] = s;
        double hm = h[m];
        if (hm <= lv) {
            lvl[m] = lv;
            fifo_push(f, m);
        } else {
            lvl[m] = hm;
            if (!cdyn__heap_push(&f->q, cdyn__flood_key(hm), m))
                return false;
        }
    }
    return true;
}

/* D8's steepest descents, after the flood, in one pass in site order (the
 * levels of three rows at a time, where the flood read them scattered). A
 * site with a neighbour of lower level was reached from one (it came from
 * the heap) and drains down its steepest descent: (its level - theirs) *
 * (1 / distance), ties to the first in order. A site with none lies on a
 * flat of the filled surface and keeps the neighbour that first reached it;
 * outlets and sinks keep themselves, no-data cells their UNSET. */
static void descend8(flood *f)
{
    const double *lvl = f->lvl;
    uint32_t *recv = f->recv;
    for (size_t s = 0, x = 0; s < f->n; s++, x = x + 1 == f->w ? 0 : x + 1) {
        uint32_t r = recv[s];
        if (r == s || r == CDYN__LATTICE_UNSET)
            continue;
        uint32_t nb[8];
        uint8_t kind[8];
        int k = cdyn__lattice_nbrs8(s, x, f->w, f->n, f->periodic, nb, kind);
        double lv = lvl[s], most = 0.0;
        for (int i = 0; i < k; i++) {
            double l = lvl[nb[i]];
            if (!(l < lv))
                continue;
            double slope = (lv - l) * f->inv[kind[i]];
            if (slope > most) {
                most = slope;
                r = nb[i];
            }
        }
        recv[s] = r;
    }
}

static int cmp_site(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Sorts a batch of sites by index (distinct keys: any sort gives the same
 * order). Batches are nearly always one site long. */
static void sort_sites(uint32_t *v, size_t n)
{
    if (n > 16) {
        qsort(v, n, sizeof *v, cmp_site);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        uint32_t t = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1] > t; j--)
            v[j] = v[j - 1];
        v[j] = t;
    }
}

/* Moves every site waiting at the lowest level from the heap to the FIFO,
 * in index order, so that a flat is crossed from all its entries alike.
 * Returns the level. */
static double take_batch(flood *f)
{
    uint64_t key = f->q.e[0].key;
    f->fhead = 0; /* the FIFO is empty: the batch is f->fifo[0 .. fcount) */
    while (f->q.n > 0 && f->q.e[0].key == key)
        fifo_push(f, cdyn__heap_pop(&f->q));
    sort_sites(f->fifo, f->fcount);
    if (f->q.n > 0)
        prefetch_site(f->h, (size_t)f->q.e[0].site, f->w, f->n);
    return cdyn__flood_level(key);
}

/* Expands the sites level by level until the queue is empty: one loop for
 * both neighbourhoods (so that the batch code is inlined once; the branch
 * on @p d8 always goes the same way). */
static bool run(flood *f, bool d8)
{
    while (f->q.n > 0) {
        double lv = take_batch(f);
        while (f->fcount > 0) {
            uint32_t s = fifo_pop(f);
            if (!(d8 ? expand8(f, s, lv) : expand4(f, s, lv)))
                return false;
        }
    }
    return true;
}

/* Makes site @p s an outlet (its own receiver) unless the flood has it
 * already or it holds no data. */
static bool seed_site(flood *f, size_t s)
{
    uint32_t v = (uint32_t)s;
    if (is_reached(f, v))
        return true;
    mark(f, v);
    f->recv[v] = v;
    if (f->lvl)
        f->lvl[v] = f->h[v];
    return cdyn__heap_push(&f->q, cdyn__flood_key(f->h[v]), v);
}

/* Marks no-data cells reached (receiver UNSET) and pushes every outlet: the
 * open edges, the outlet mask, and with CDYN_LATTICE_EDGE_NODATA the
 * neighbours of no-data cells (in the routing's neighbourhood). Only those
 * sites are visited, besides one pass over the masks' bytes. */
static bool seed(flood *f, const cdyn_lattice *lat)
{
    const uint8_t *cell = lat->cell;
    size_t w = f->w, n = f->n, h = n / w;
    if (cell)
        for (size_t i = 0; i < n; i++)
            if (cell[i] & CDYN__LATTICE_CELL_NODATA) {
                mark(f, (uint32_t)i);
                f->recv[i] = CDYN__LATTICE_UNSET;
                if (f->lvl)
                    f->lvl[i] = INFINITY; /* never anyone's descent */
            }
    uint32_t e = lat->outlet_edges;
    bool ok = true;
    for (size_t x = 0; x < w && ok; x++) {
        if (e & CDYN_LATTICE_EDGE_BOTTOM)
            ok = seed_site(f, x);
        if (ok && (e & CDYN_LATTICE_EDGE_TOP))
            ok = seed_site(f, (h - 1) * w + x);
    }
    for (size_t y = 0; y < h && ok; y++) { /* never with periodic sides */
        if (e & CDYN_LATTICE_EDGE_LEFT)
            ok = seed_site(f, y * w);
        if (ok && (e & CDYN_LATTICE_EDGE_RIGHT))
            ok = seed_site(f, y * w + w - 1);
    }
    for (size_t i = 0; cell && i < n && ok; i++) {
        if (cell[i] & CDYN__LATTICE_CELL_OUTLET)
            ok = seed_site(f, i);
        if ((cell[i] & CDYN__LATTICE_CELL_NODATA) && (e & CDYN_LATTICE_EDGE_NODATA)) {
            uint32_t nb[8];
            uint8_t kind[8];
            int k = f->lvl ? cdyn__lattice_nbrs8(i, i % w, w, n, f->periodic, nb, kind)
                           : cdyn__lattice_nbrs4(i, i % w, w, n, f->periodic, nb);
            for (int j = 0; j < k && ok; j++)
                ok = seed_site(f, nb[j]); /* a no-data neighbour is reached already */
        }
    }
    return ok;
}

typedef struct candidate {
    uint64_t key;
    uint32_t site;
} candidate;

static int cmp_candidate(const void *a, const void *b)
{
    const candidate *x = a, *y = b;
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return (x->site > y->site) - (x->site < y->site);
}

/* The sites no outlet reached: each basin of them is flooded from its
 * lowest site (ties by index), which becomes a sink. */
static bool sinks(flood *f, bool d8)
{
    size_t left = 0, words = (f->n + 63) / 64;
    for (size_t k = 0; k < words; k++) {
        uint64_t v = ~f->reached[k];
        if (k == words - 1 && f->n % 64)
            v &= (1ULL << (f->n % 64)) - 1;
        while (v) {
            v &= v - 1;
            left++;
        }
    }
    if (left == 0)
        return true;
    candidate *c = cdyn__alloc_array(f->q.a, left, sizeof *c);
    if (!c)
        return false;
    size_t m = 0;
    for (size_t i = 0; i < f->n; i++)
        if (!is_reached(f, (uint32_t)i))
            c[m++] = (candidate){cdyn__flood_key(f->h[i]), (uint32_t)i};
    qsort(c, m, sizeof *c, cmp_candidate);
    bool ok = true;
    for (size_t k = 0; k < m && ok; k++) {
        uint32_t s = c[k].site;
        if (is_reached(f, s))
            continue;
        mark(f, s);
        f->recv[s] = s;
        if (d8)
            f->lvl[s] = f->h[s];
        ok = cdyn__heap_push(&f->q, c[k].key, s) && run(f, d8);
    }
    cdyn__free_array(f->q.a, c, left, sizeof *c);
    return ok;
}

bool cdyn__lattice_flood(const cdyn_lattice *lat, uint32_t *recv, uint32_t *fifo)
{
    const cdyn_allocator *a = &lat->alloc;
    size_t n = lat->n, nbits = (n + 63) / 64, cap0 = 4096;
    bool d8 = lat->routing == CDYN_LATTICE_D8;
    uint64_t *reached = cdyn__calloc_array(a, nbits, sizeof *reached);
    cdyn__hentry *e = cdyn__alloc_array(a, cap0, sizeof *e);
    double *lvl = d8 ? cdyn__alloc_array(a, n, sizeof *lvl) : NULL;
    bool ok = reached && e && (!d8 || lvl);
    if (ok) {
        flood f = {lat->height, recv, reached, fifo, 0, 0, {e, 0, cap0, a},
                   lat->w, n, lat->periodic, lvl, {0, 0, 0}};
        if (d8) {
            f.inv[0] = 1.0 / lat->dx;
            f.inv[1] = 1.0 / lat->dy;
            f.inv[2] = 1.0 / sqrt(lat->dx * lat->dx + lat->dy * lat->dy);
        }
        ok = seed(&f, lat) && run(&f, d8) && sinks(&f, d8);
        if (ok && d8)
            descend8(&f);
        e = f.q.e;
        cap0 = f.q.cap;
    }
    cdyn__free_array(a, e, cap0, sizeof *e);
    cdyn__free_array(a, reached, nbits, sizeof *reached);
    cdyn__free_array(a, lvl, n, sizeof *lvl);
    return ok;
}
