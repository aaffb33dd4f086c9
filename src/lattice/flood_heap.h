/* The priority-flood's heap: sites ordered by level through an
 * order-preserving 64-bit image of the level, so that comparisons are
 * integer and need no look-up. Sites of equal level leave the heap together
 * and are then sorted by index (flood.c), so the heap itself need not break
 * ties. */
#ifndef CDYN__LATTICE_FLOOD_HEAP_H
#define CDYN__LATTICE_FLOOD_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"

static inline uint64_t cdyn__flood_key(double v)
{
    v += 0.0; /* -0 becomes +0: equal levels, equal keys */
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return (u >> 63) ? ~u : (u | 0x8000000000000000ULL);
}

/* The level back from its key (exact: the image is a bijection), so that
 * popping a site needs no look-up of its height, a cache miss on large
 * lattices. */
static inline double cdyn__flood_level(uint64_t key)
{
    uint64_t u = (key >> 63) ? (key & 0x7FFFFFFFFFFFFFFFULL) : ~key;
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

typedef struct cdyn__hentry {
    uint64_t key;
    uint64_t site;
} cdyn__hentry;

/* A 4-ary min-heap (shallower than a binary one, and its four children
 * share a cache line), growing through the lattice's allocator. */
typedef struct cdyn__heap {
    cdyn__hentry *e;
    size_t n, cap;
    const cdyn_allocator *a;
} cdyn__heap;

static inline bool cdyn__heap_less(const cdyn__hentry *a, const cdyn__hentry *b)
{
    return a->key < b->key;
}

static inline bool cdyn__heap_push(cdyn__heap *q, uint64_t key, uint32_t site)
{
    if (q->n == q->cap) {
        size_t cap = q->cap * 2;
        cdyn__hentry *e = cdyn__alloc_array(q->a, cap, sizeof *e);
        if (!e)
            return false;
        memcpy(e, q->e, q->n * sizeof *e);
        cdyn__free_array(q->a, q->e, q->cap, sizeof *e);
        q->e = e;
        q->cap = cap;
    }
    cdyn__hentry v = {key, site};
    size_t i = q->n++;
    while (i > 0) {
        size_t p = (i - 1) / 4;
        if (!cdyn__heap_less(&v, &q->e[p]))
            break;
        q->e[i] = q->e[p];
        i = p;
    }
    q->e[i] = v;
    return true;
}

static inline uint32_t cdyn__heap_pop(cdyn__heap *q)
{
    cdyn__hentry *e = q->e;
    uint32_t top = (uint32_t)e[0].site;
    cdyn__hentry last = e[--q->n];
    size_t n = q->n, i = 0;
    if (n == 0)
        return top;
    for (;;) {
        size_t c = 4 * i + 1;
        if (c + 3 < n) {
            size_t c01 = c + cdyn__heap_less(&e[c + 1], &e[c]);
            size_t c23 = c + 2 + cdyn__heap_less(&e[c + 3], &e[c + 2]);
            c = cdyn__heap_less(&e[c23], &e[c01]) ? c23 : c01;
        } else {
            if (c >= n)
                break;
            for (size_t j = c + 1; j < n; j++)
                if (cdyn__heap_less(&e[j], &e[c]))
                    c = j;
        }
        if (!cdyn__heap_less(&e[c], &last))
            break;
        e[i] = e[c];
        i = c;
    }
    e[i] = last;
    return top;
}

#endif
