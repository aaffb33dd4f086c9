/* The river network (step 7 of the seed): receivers by priority-flood from
 * the outlet row, then drainage by walks down the receivers.
 *
 * The level of a site is the height at which its water leaves: the lowest,
 * over all paths to row 0, of the highest height on the path (its own
 * height, or the spill height of the depression it lies in). The flood
 * (Barnes et al. 2014) expands sites in order of level, ties by site index;
 * a site no higher than the level being expanded is drowned at that level
 * and joins a FIFO, so a lake or a flat is crossed breadth-first from every
 * site where the flood entered it at once. Each site's receiver is the
 * neighbour that first reached it: since levels are expanded in order, that
 * is a neighbour of lowest level (steepest descent on the filled surface),
 * and on a flat the next step of a shortest path to where the flood entered,
 * i.e. towards the spill point. Every receiver is expanded before its
 * donors, so the receivers form a forest rooted in row 0.
 *
 * Drainage: from every site with no donor left, walk down the receivers
 * adding up, stopping at a site that still waits for a donor; each site is
 * passed once, O(W H) (forest.c).
 *
 * Memory beyond the heights: receivers and drainage (8 bytes per site, kept
 * as the result), a donor count (1 byte) and a reached bit per site while
 * it runs, and the heap, which holds only the flood's frontier.
 */
#include "lattice/lattice.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "lattice/forest.h"

/* The heap orders sites by level through an order-preserving 64-bit image
 * of the level, so comparisons are integer and need no look-up. Sites of
 * equal level leave the heap together and are then sorted by index, so the
 * heap itself need not break ties. */
static inline uint64_t key_of(double v)
{
    v += 0.0; /* -0 becomes +0: equal levels, equal keys */
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return (u >> 63) ? ~u : (u | 0x8000000000000000ULL);
}

/* The level back from its key (exact: the image is a bijection), so that
 * popping a site needs no look-up of its height, a cache miss on large
 * lattices. */
static inline double level_of(uint64_t key)
{
    uint64_t u = (key >> 63) ? (key & 0x7FFFFFFFFFFFFFFFULL) : ~key;
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

typedef struct hentry {
    uint64_t key;
    uint64_t site;
} hentry;

static inline bool less(const hentry *a, const hentry *b)
{
    return a->key < b->key;
}

/* A 4-ary min-heap (shallower than a binary one, and its four children
 * share a cache line), growing through the lattice's allocator. */
typedef struct heap {
    hentry *e;
    size_t n, cap;
    const cdyn_allocator *a;
} heap;

static bool heap_push(heap *q, uint64_t key, uint32_t site)
{
    if (q->n == q->cap) {
        size_t cap = q->cap * 2;
        hentry *e = cdyn__alloc_array(q->a, cap, sizeof *e);
        if (!e)
            return false;
        memcpy(e, q->e, q->n * sizeof *e);
        cdyn__free_array(q->a, q->e, q->cap, sizeof *e);
        q->e = e;
        q->cap = cap;
    }
    hentry v = {key, site};
    size_t i = q->n++;
    while (i > 0) {
        size_t p = (i - 1) / 4;
        if (!less(&v, &q->e[p]))
            break;
        q->e[i] = q->e[p];
        i = p;
    }
    q->e[i] = v;
    return true;
}

static uint32_t heap_pop(heap *q)
{
    hentry *e = q->e;
    uint32_t top = (uint32_t)e[0].site;
    hentry last = e[--q->n];
    size_t n = q->n, i = 0;
    if (n == 0)
        return top;
    for (;;) {
        size_t c = 4 * i + 1;
        if (c + 3 < n) {
            size_t c01 = c + less(&e[c + 1], &e[c]);
            size_t c23 = c + 2 + less(&e[c + 3], &e[c + 2]);
            c = less(&e[c23], &e[c01]) ? c23 : c01;
        } else {
            if (c >= n)
                break;
            for (size_t j = c + 1; j < n; j++)
                if (less(&e[j], &e[c]))
                    c = j;
        }
        if (!less(&e[c], &last))
            break;
        e[i] = e[c];
        i = c;
    }
    e[i] = last;
    return top;
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

/* Neighbours in the order down, left, right, up (as
 * cdyn__lattice_neighbours, with x = s % w given). */
static inline int nbrs(size_t s, size_t x, size_t w, size_t n, bool periodic, uint32_t nb[4])
{
    int k = 0;
    if (s >= w)
        nb[k++] = (uint32_t)(s - w);
    if (x > 0)
        nb[k++] = (uint32_t)(s - 1);
    else if (periodic)
        nb[k++] = (uint32_t)(s + w - 1);
    if (x + 1 < w)
        nb[k++] = (uint32_t)(s + 1);
    else if (periodic)
        nb[k++] = (uint32_t)(s + 1 - w);
    if (s + w < n)
        nb[k++] = (uint32_t)(s + w);
    return k;
}

typedef struct flood {
    const double *h;
    uint32_t *recv;  /* set when the flood reaches the site */
    /* One bit per site, set when the flood reaches it: the test of every
     * neighbour reads this map, 32 times denser than the receivers, so it
     * mostly stays in cache while the flood wanders. */
    uint64_t *reached;
    uint32_t *fifo;  /* ring of n entries (the drainage array, free until then) */
    size_t fhead, fcount;
    heap q;
    size_t w, n;
    bool periodic;
} flood;

static inline void fifo_push(flood *f, uint32_t s)
{
    size_t at = f->fhead + f->fcount++;
    f->fifo[at < f->n ? at : at - f->n] = s;
}

/* Expands @p s at level @p lv: its unreached neighbours drain to it; those
 * no higher than lv are drowned at lv (FIFO), the others wait in the heap
 * with their own height as level. */
static bool expand(flood *f, uint32_t s, double lv)
{
    const double *h = f->h;
    uint32_t *recv = f->recv;
    uint32_t nb[4];
    int k = nbrs(s, s % (uint32_t)f->w, f->w, f->n, f->periodic, nb);
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
        else if (!heap_push(&f->q, key_of(hm), m))
            return false;
    }
    return true;
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

static bool run_flood(flood *f)
{
    const double *h = f->h;
    memset(f->reached, 0, (f->n + 63) / 64 * sizeof *f->reached);
    for (size_t x = 0; x < f->w; x++) {
        f->reached[x >> 6] |= 1ULL << (x & 63);
        f->recv[x] = (uint32_t)x;
        if (!heap_push(&f->q, key_of(h[x]), (uint32_t)x))
            return false;
    }
    while (f->q.n > 0) {
        /* Every site waiting at the lowest level starts the FIFO at once,
         * so a flat is crossed from all its entries alike. */
        uint64_t key = f->q.e[0].key;
        double lv = level_of(key);
        f->fhead = 0; /* the FIFO is empty: the batch is f->fifo[0 .. fcount) */
        while (f->q.n > 0 && f->q.e[0].key == key)
            fifo_push(f, heap_pop(&f->q));
        sort_sites(f->fifo, f->fcount);
        if (f->q.n > 0)
            prefetch_site(h, (size_t)f->q.e[0].site, f->w, f->n);
        while (f->fcount > 0) {
            uint32_t s = f->fifo[f->fhead];
            f->fhead = f->fhead + 1 == f->n ? 0 : f->fhead + 1;
            f->fcount--;
            if (!expand(f, s, lv))
                return false;
        }
    }
    return true;
}

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
    size_t nbits = (n + 63) / 64, cap0 = 4096;
    uint64_t *reached = cdyn__alloc_array(a, nbits, sizeof *reached);
    hentry *e = cdyn__alloc_array(a, cap0, sizeof *e);
    if (!recv || !drain || !donors || !reached || !e) {
        if (recv != lat->recv)
            cdyn__free_array(a, recv, n, sizeof *recv);
        if (drain != lat->drain)
            cdyn__free_array(a, drain, n, sizeof *drain);
        cdyn__free_array(a, donors, n, 1);
        cdyn__free_array(a, reached, nbits, sizeof *reached);
        cdyn__free_array(a, e, cap0, sizeof *e);
        return cdyn__lattice_fail(lat, CDYN_ERR_NO_MEMORY, fn,
                                  "no memory for the drainage (%zu sites)", n);
    }
    lat->recv = recv;
    lat->drain = drain;

    flood f = {lat->height, recv, reached, drain, 0,      0,
               {e, 0, cap0, a}, lat->w, n,     lat->periodic};
    bool ok = run_flood(&f);
    cdyn__free_array(a, f.q.e, f.q.cap, sizeof *f.q.e);
    cdyn__free_array(a, reached, nbits, sizeof *reached);
    if (ok)
        cdyn__lattice_forest_accumulate_walk(n, recv, donors, drain); /* a forest */
    cdyn__free_array(a, donors, n, 1);
    if (!ok)
        return cdyn__lattice_fail(lat, CDYN_ERR_NO_MEMORY, fn,
                                  "no memory for the flood's heap (%zu sites)", n);
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

cdyn_status cdyn_lattice_drainage(cdyn_lattice *lat, uint32_t *out, size_t capacity)
{
    cdyn_status st = start(lat, "cdyn_lattice_drainage", out, capacity, false);
    if (st == CDYN_OK && out)
        memcpy(out, lat->drain, lat->n * sizeof *out);
    return st;
}

cdyn_status cdyn_lattice_get_receivers(cdyn_lattice *lat, uint32_t *out, size_t capacity)
{
    cdyn_status st = start(lat, "cdyn_lattice_get_receivers", out, capacity, true);
    if (st == CDYN_OK)
        memcpy(out, lat->recv, lat->n * sizeof *out);
    return st;
}

cdyn_status cdyn_lattice_get_network(cdyn_lattice *lat, uint8_t *out, size_t capacity)
{
    cdyn_status st = start(lat, "cdyn_lattice_get_network", out, capacity, true);
    if (st == CDYN_OK)
        for (size_t i = 0; i < lat->n; i++)
            out[i] = (double)lat->drain[i] >= lat->R;
    return st;
}
