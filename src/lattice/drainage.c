/* The river network (step 7 of the seed): receivers by priority-flood from
 * the outlet row, then drainage accumulated in reverse flood order.
 *
 * The flood expands sites in order of their level, the height at which
 * water leaves them (their own height, or the spill height of the
 * depression they lie in). The site that first reaches a neighbour becomes
 * that neighbour's receiver: since sites are expanded in order of level, it
 * is a neighbour of lowest level, i.e. steepest descent on the filled
 * surface. A site no higher than the current level (in a depression, or on a
 * flat) gets that level and joins a FIFO: lakes and flats are crossed
 * breadth-first from where the flood entered them, towards their spill
 * point. The expansion order is a topological order of the receiver forest
 * (every receiver is expanded before its donors), so the accumulation is one
 * reverse pass: no per-site walk, no sort. */
#include "lattice.h"

#include <string.h>

#include "alloc.h"

/* A heap entry packs the top 32 bits of an order-preserving image of the
 * height with the site index; equal heads fall back on the exact height,
 * then the index, so the order is total and the same everywhere. */
static inline uint64_t entry(const double *h, uint32_t i)
{
    double v = h[i] + 0.0; /* -0 becomes +0: equal heights, equal keys */
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    u = (u >> 63) ? ~u : (u | 0x8000000000000000ULL);
    return (u & 0xFFFFFFFF00000000ULL) | i;
}

static inline bool before(const double *h, uint64_t a, uint64_t b)
{
    if ((a ^ b) >> 32)
        return a < b;
    double ha = h[(uint32_t)a], hb = h[(uint32_t)b];
    if (ha != hb)
        return ha < hb;
    return a < b;
}

typedef struct heap {
    uint64_t *e;
    size_t n;
} heap;

static inline void heap_push(heap *q, const double *h, uint64_t v)
{
    size_t i = q->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!before(h, v, q->e[p]))
            break;
        q->e[i] = q->e[p];
        i = p;
    }
    q->e[i] = v;
}

static inline uint64_t heap_pop(heap *q, const double *h)
{
    uint64_t top = q->e[0];
    uint64_t last = q->e[--q->n];
    size_t n = q->n, i = 0;
    if (n == 0)
        return top;
    /* Floyd's bottom-up pop: walk the hole down to a leaf along the smaller
     * children, then sift the last entry up from there (fewer comparisons
     * than testing it at every level, since it usually belongs low). */
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(h, q->e[c + 1], q->e[c]))
            c++;
        q->e[i] = q->e[c];
        i = c;
    }
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!before(h, last, q->e[p]))
            break;
        q->e[i] = q->e[p];
        i = p;
    }
    q->e[i] = last;
    return top;
}

/* Fills lat->recv and @p order (the expansion order, n sites). */
static void flood(cdyn_lattice *lat, uint32_t *order, heap *q)
{
    const double *h = lat->height;
    uint32_t *recv = lat->recv;
    size_t w = lat->w, n = lat->n;
    bool periodic = lat->periodic;

    memset(recv, 0xFF, n * sizeof *recv); /* CDYN__LATTICE_UNSET everywhere */
    q->n = 0;
    for (size_t x = 0; x < w; x++) {
        recv[x] = (uint32_t)x;
        heap_push(q, h, entry(h, (uint32_t)x));
    }
    size_t head = 0, tail = 0;
    while (q->n > 0) {
        /* Every site at the lowest level waiting in the heap starts the
         * FIFO at once, so a flat is crossed from all its entries alike. */
        uint32_t c = (uint32_t)heap_pop(q, h);
        double level = h[c];
        order[tail++] = c;
        while (q->n > 0 && h[(uint32_t)q->e[0]] == level)
            order[tail++] = (uint32_t)heap_pop(q, h);
        while (head < tail) {
            size_t s = order[head++];
            size_t x = s % w;
            uint32_t nb[4];
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
            for (int i = 0; i < k; i++) {
                uint32_t m = nb[i];
                if (recv[m] != CDYN__LATTICE_UNSET)
                    continue;
                recv[m] = (uint32_t)s;
                if (h[m] <= level)
                    order[tail++] = m; /* drowned at this level: FIFO */
                else
                    heap_push(q, h, entry(h, m));
            }
        }
    }
}

cdyn_status cdyn__lattice_update_drainage(cdyn_lattice *lat)
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
    uint32_t *order = cdyn__alloc_array(a, n, sizeof *order);
    /* Each site enters the heap at most once: n entries never overflow,
     * and only the flood's frontier is ever touched. */
    heap q = {cdyn__alloc_array(a, n, sizeof(uint64_t)), 0};
    if (!recv || !drain || !order || !q.e) {
        if (recv != lat->recv)
            cdyn__free_array(a, recv, n, sizeof *recv);
        if (drain != lat->drain)
            cdyn__free_array(a, drain, n, sizeof *drain);
        cdyn__free_array(a, order, n, sizeof *order);
        cdyn__free_array(a, q.e, n, sizeof(uint64_t));
        return cdyn__lattice_fail(lat, CDYN_ERR_NO_MEMORY,
                                  "no memory for the drainage (%zu sites)", n);
    }
    lat->recv = recv;
    lat->drain = drain;

    flood(lat, order, &q);
    cdyn__free_array(a, q.e, n, sizeof(uint64_t));

    /* Reverse expansion order visits donors before their receivers. */
    for (size_t i = 0; i < n; i++)
        drain[i] = 1;
    for (size_t k = n; k-- > 0;) {
        uint32_t s = order[k], r = recv[s];
        if (r != s)
            drain[r] += drain[s];
    }
    cdyn__free_array(a, order, n, sizeof *order);
    lat->drainage_valid = true;
    return CDYN_OK;
}

static cdyn_status start(cdyn_lattice *lat, const void *out, size_t capacity, bool need_out)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__lattice_ok(lat);
    if (need_out && !out)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, "out is NULL");
    if (out && capacity < lat->n)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT,
                                  "capacity %zu is below W * H = %zu", capacity, lat->n);
    return cdyn__lattice_update_drainage(lat);
}

cdyn_status cdyn_lattice_drainage(cdyn_lattice *lat, uint32_t *out, size_t capacity)
{
    cdyn_status st = start(lat, out, capacity, false);
    if (st == CDYN_OK && out)
        memcpy(out, lat->drain, lat->n * sizeof *out);
    return st;
}

cdyn_status cdyn_lattice_get_receivers(cdyn_lattice *lat, uint32_t *out, size_t capacity)
{
    cdyn_status st = start(lat, out, capacity, true);
    if (st == CDYN_OK)
        memcpy(out, lat->recv, lat->n * sizeof *out);
    return st;
}

cdyn_status cdyn_lattice_get_network(cdyn_lattice *lat, uint8_t *out, size_t capacity)
{
    cdyn_status st = start(lat, out, capacity, true);
    if (st == CDYN_OK)
        for (size_t i = 0; i < lat->n; i++)
            out[i] = (double)lat->drain[i] >= lat->R;
    return st;
}
