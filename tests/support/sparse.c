/* Sparse patterns for the solver suites. */
#include "sparse.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/alloc.h"

uint64_t ts_xorshift(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

uint32_t ts_below(uint64_t *state, uint32_t n)
{
    return (uint32_t)(ts_xorshift(state) % n);
}

double ts_unit(uint64_t *state)
{
    return (double)(ts_xorshift(state) >> 11) * (1.0 / 9007199254740992.0);
}

void ts_pairs_push(ts_pairs *p, uint32_t a, uint32_t b)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->v = realloc(p->v, 2 * p->cap * sizeof *p->v);
    }
    p->v[2 * p->n] = a;
    p->v[2 * p->n + 1] = b;
    p->n++;
}

cdyn__symmat ts_symmat_from_pairs(uint32_t n, ts_pairs *p)
{
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__symmat m;
    cdyn__symmat_init(&m);
    assert_int_equal(cdyn__symmat_build(&m, &al, n, p->n, p->v), CDYN_OK);
    free(p->v);
    memset(p, 0, sizeof *p);
    return m;
}

cdyn__symmat ts_symmat_chain(uint32_t n)
{
    ts_pairs p = {0};
    for (uint32_t i = 0; i + 1 < n; i++)
        ts_pairs_push(&p, i, i + 1);
    return ts_symmat_from_pairs(n, &p);
}

cdyn__symmat ts_symmat_random_tree(uint32_t n, uint64_t *rng, int shuffle)
{
    uint32_t *label = malloc(n * sizeof *label);
    for (uint32_t i = 0; i < n; i++)
        label[i] = i;
    for (uint32_t i = n; shuffle && i > 1; i--) {
        uint32_t j = ts_below(rng, i), t = label[i - 1];
        label[i - 1] = label[j];
        label[j] = t;
    }
    ts_pairs p = {0};
    for (uint32_t i = 1; i < n; i++)
        ts_pairs_push(&p, label[i], label[ts_below(rng, i)]);
    free(label);
    return ts_symmat_from_pairs(n, &p);
}

cdyn__symmat ts_symmat_grid(uint32_t w, uint32_t h)
{
    ts_pairs p = {0};
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            if (x + 1 < w)
                ts_pairs_push(&p, y * w + x, y * w + x + 1);
            if (y + 1 < h)
                ts_pairs_push(&p, y * w + x, (y + 1) * w + x);
        }
    return ts_symmat_from_pairs(w * h, &p);
}

cdyn__symmat ts_symmat_random_graph(uint32_t n, uint32_t edges, uint64_t *rng)
{
    ts_pairs p = {0};
    for (uint32_t e = 0; e < edges; e++) {
        uint32_t a = ts_below(rng, n);
        ts_pairs_push(&p, a, ts_below(rng, n));
    }
    return ts_symmat_from_pairs(n, &p);
}

cdyn__symmat ts_symmat_line_graph(uint32_t np, uint32_t m, const uint32_t *ends)
{
    cdyn_allocator al = cdyn__allocator_default();
    uint32_t *gp = calloc((size_t)np + 1, sizeof *gp), *gr = malloc(2 * (size_t)m * sizeof *gr);
    uint32_t *cur = malloc((size_t)np * sizeof *cur);
    for (uint32_t t = 0; t < 2 * m; t++)
        gp[ends[t] + 1]++;
    for (uint32_t i = 0; i < np; i++)
        gp[i + 1] += gp[i];
    memcpy(cur, gp, np * sizeof *cur);
    for (uint32_t t = 0; t < 2 * m; t++)
        gr[cur[ends[t]]++] = t / 2;
    cdyn__symmat a;
    cdyn__symmat_init(&a);
    assert_int_equal(cdyn__symmat_build_groups(&a, &al, m, np, gp, gr), CDYN_OK);
    free(gp);
    free(gr);
    free(cur);
    return a;
}

void ts_symmat_destroy(cdyn__symmat *m)
{
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__symmat_destroy(m, &al);
}
