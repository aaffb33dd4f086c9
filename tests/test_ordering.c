/* Internal: fill-reducing orderings (src/solver/ordering.c) and the fill
 * they give through the symbolic analysis (src/solver/symbolic.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "core/alloc.h"
#include "solver/ordering.h"
#include "solver/symbolic.h"
#include "solver/symmat.h"
#include "sparse.h"
#include "support.h"

static uint64_t rng = 0x2545f4914f6cdd1dULL;

/* The line graph of a random tree of np particles (a branched polymer). */
static cdyn__symmat rod_tree(uint32_t np)
{
    uint32_t *ends = malloc(2 * (size_t)np * sizeof *ends);
    for (uint32_t i = 1; i < np; i++) {
        ends[2 * (i - 1)] = i;
        ends[2 * (i - 1) + 1] = ts_below(&rng, i);
    }
    cdyn__symmat a = ts_symmat_line_graph(np, np - 1, ends);
    free(ends);
    return a;
}

/* Cloth: an N x N grid of particles with a rod on every grid edge. */
static cdyn__symmat cloth(uint32_t n)
{
    uint32_t m = 2 * n * (n - 1), t = 0;
    uint32_t *ends = malloc(2 * (size_t)m * sizeof *ends);
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++) {
            uint32_t p = y * n + x;
            if (x + 1 < n) {
                ends[2 * t] = p;
                ends[2 * t + 1] = p + 1;
                t++;
            }
            if (y + 1 < n) {
                ends[2 * t] = p;
                ends[2 * t + 1] = p + n;
                t++;
            }
        }
    cdyn__symmat a = ts_symmat_line_graph(n * n, m, ends);
    free(ends);
    return a;
}

static cdyn__symmat star(uint32_t n)
{
    ts_pairs p = {0};
    for (uint32_t i = 1; i < n; i++)
        ts_pairs_push(&p, n / 2, (n / 2 + i) % n);
    return ts_symmat_from_pairs(n, &p);
}

static cdyn__symmat clique(uint32_t n)
{
    ts_pairs p = {0};
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < i; j++)
            ts_pairs_push(&p, i, j);
    return ts_symmat_from_pairs(n, &p);
}

static cdyn__symmat cycle(uint32_t n)
{
    ts_pairs p = {0};
    for (uint32_t i = 0; i < n; i++)
        ts_pairs_push(&p, i, (i + 1) % n);
    return ts_symmat_from_pairs(n, &p);
}

/* Several components of different kinds, plus isolated rows. */
static cdyn__symmat mixture(void)
{
    ts_pairs p = {0};
    for (uint32_t i = 0; i + 1 < 30; i++)
        ts_pairs_push(&p, 2 * i, 2 * i + 2); /* a path on the even rows < 60 */
    for (uint32_t i = 0; i < 20; i++)
        ts_pairs_push(&p, 61 + 2 * i, 61 + 2 * ((i + 1) % 20)); /* a cycle on odd rows */
    for (uint32_t i = 0; i < 15; i++)
        ts_pairs_push(&p, 100 + i, 100 + ts_below(&rng, i + 1)); /* a tree, with self pairs */
    return ts_symmat_from_pairs(130, &p);
}

static void assert_permutation(const uint32_t *perm, uint32_t n)
{
    unsigned char *seen = calloc(n ? n : 1, 1);
    for (uint32_t k = 0; k < n; k++) {
        assert_true(perm[k] < n);
        assert_false(seen[perm[k]]);
        seen[perm[k]] = 1;
    }
    free(seen);
}

/* nnz(L) below the diagonal for @p order (NULL: the default ordering). */
static uint32_t fill_of(const cdyn__symmat *a, const uint32_t *order,
                        cdyn__ordering_kind *kind)
{
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__symbolic s;
    cdyn__symbolic_init(&s);
    assert_int_equal(cdyn__symbolic_analyze(&s, a, &al, order), CDYN_OK);
    assert_permutation(s.perm, s.n);
    uint32_t lnz = s.lnz;
    if (kind)
        *kind = s.ordering;
    cdyn__symbolic_destroy(&s, &al);
    return lnz;
}

static uint32_t fill_amd(const cdyn__symmat *a)
{
    cdyn_allocator al = cdyn__allocator_default();
    uint32_t *perm = malloc((a->n ? a->n : 1) * sizeof *perm);
    assert_int_equal(cdyn__ordering_amd(a, &al, perm), CDYN_OK);
    assert_permutation(perm, a->n);
    uint32_t lnz = fill_of(a, perm, NULL);
    free(perm);
    return lnz;
}

static uint32_t fill_natural(const cdyn__symmat *a)
{
    uint32_t *perm = malloc((a->n ? a->n : 1) * sizeof *perm);
    for (uint32_t i = 0; i < a->n; i++)
        perm[i] = i;
    uint32_t lnz = fill_of(a, perm, NULL);
    free(perm);
    return lnz;
}

static void test_valid_and_deterministic(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__symmat mats[] = {ts_symmat_chain(1),          ts_symmat_chain(2),        ts_symmat_chain(257),
                           ts_symmat_random_tree(300, &rng, 1),  rod_tree(300),   cloth(12),
                           ts_symmat_grid(17, 9),       ts_symmat_random_graph(200, 500, &rng),
                           ts_symmat_random_graph(300, 150, &rng), star(64), clique(25),
                           cycle(40),         mixture()};
    for (size_t t = 0; t < sizeof mats / sizeof mats[0]; t++) {
        const uint32_t n = mats[t].n;
        uint32_t *p1 = malloc(n * sizeof *p1), *p2 = malloc(n * sizeof *p2);
        assert_int_equal(cdyn__ordering_amd(&mats[t], &al, p1), CDYN_OK);
        assert_permutation(p1, n);
        assert_int_equal(cdyn__ordering_amd(&mats[t], &al, p2), CDYN_OK);
        assert_memory_equal(p1, p2, n * sizeof *p1);
        cdyn__ordering_kind k1, k2;
        assert_int_equal(cdyn__ordering_compute(&mats[t], &al, p1, &k1), CDYN_OK);
        assert_permutation(p1, n);
        assert_int_equal(cdyn__ordering_compute(&mats[t], &al, p2, &k2), CDYN_OK);
        assert_int_equal(k1, k2);
        assert_memory_equal(p1, p2, n * sizeof *p1);
        int perfect = -1;
        assert_int_equal(cdyn__ordering_mcs(&mats[t], &al, p1, &perfect), CDYN_OK);
        assert_permutation(p1, n);
        /* The default never fills more than AMD. */
        assert_true(fill_of(&mats[t], NULL, NULL) <= fill_amd(&mats[t]));
        free(p1);
        free(p2);
        ts_symmat_destroy(&mats[t]);
    }
}

static void test_kinds(void **state)
{
    (void)state;
    struct {
        cdyn__symmat m;
        cdyn__ordering_kind kind;
    } cases[] = {
        {ts_symmat_chain(1000), CDYN__ORDERING_PATHS},
        {ts_symmat_random_tree(500, &rng, 1), CDYN__ORDERING_PERFECT},
        {rod_tree(500), CDYN__ORDERING_PERFECT},
        {clique(10), CDYN__ORDERING_PERFECT},
        {cycle(3), CDYN__ORDERING_PERFECT}, /* a triangle is chordal */
        {cycle(4), CDYN__ORDERING_AMD},
        {cloth(10), CDYN__ORDERING_AMD},
        {ts_symmat_grid(5, 5), CDYN__ORDERING_AMD},
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        cdyn__ordering_kind k;
        uint32_t lnz = fill_of(&cases[t].m, NULL, &k);
        assert_int_equal(k, cases[t].kind);
        if (k != CDYN__ORDERING_AMD)
            assert_int_equal(lnz, cases[t].m.nnz - cases[t].m.n);
        ts_symmat_destroy(&cases[t].m);
    }
    /* A caller's order is reported as such. */
    cdyn__symmat c = ts_symmat_chain(10);
    uint32_t id[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    cdyn__ordering_kind k;
    assert_int_equal(fill_of(&c, id, &k), 9);
    assert_int_equal(k, CDYN__ORDERING_GIVEN);
    ts_symmat_destroy(&c);
}

/* The path order takes each path from both ends: consecutive pivots
 * alternate between the two halves of a chain. */
static void test_chain_two_ended(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__symmat c = ts_symmat_chain(9);
    uint32_t perm[9];
    cdyn__ordering_kind k;
    assert_int_equal(cdyn__ordering_compute(&c, &al, perm, &k), CDYN_OK);
    const uint32_t want[9] = {0, 8, 1, 7, 2, 6, 3, 5, 4};
    assert_memory_equal(perm, want, sizeof want);
    ts_symmat_destroy(&c);
}

/* Baraff: a tree of constraints factors with no fill. Trees, chains and the
 * line graphs of trees (rods meeting at particles) under the default order;
 * trees and chains under AMD alone as well. */
static void test_zero_fill_on_trees(void **state)
{
    (void)state;
    for (uint32_t n = 2; n < 3000; n = n * 3 + 1) {
        for (int rep = 0; rep < 3; rep++) {
            cdyn__symmat t = ts_symmat_random_tree(n, &rng, 1);
            assert_int_equal(fill_of(&t, NULL, NULL), n - 1);
            assert_int_equal(fill_amd(&t), n - 1);
            ts_symmat_destroy(&t);
            cdyn__symmat r = rod_tree(n + 1);
            assert_int_equal(fill_of(&r, NULL, NULL), r.nnz - r.n);
            ts_symmat_destroy(&r);
        }
        cdyn__symmat c = ts_symmat_chain(n);
        assert_int_equal(fill_of(&c, NULL, NULL), n - 1);
        assert_int_equal(fill_amd(&c), n - 1);
        ts_symmat_destroy(&c);
        cdyn__symmat s = star(n);
        assert_int_equal(fill_amd(&s), n - 1);
        ts_symmat_destroy(&s);
    }
    /* AMD on a clique: no fill possible, none made. */
    cdyn__symmat q = clique(40);
    assert_int_equal(fill_amd(&q), q.nnz - q.n);
    ts_symmat_destroy(&q);
}

/* Cloth (the line graph of an N x N grid of rods): the fill stays near
 * n log n, where the natural order is far worse. */
static void test_cloth_fill(void **state)
{
    (void)state;
    const uint32_t sizes[] = {30, 60};
    for (size_t t = 0; t < 2; t++) {
        cdyn__symmat c = cloth(sizes[t]);
        const double n = c.n, nlogn = n * log2(n);
        uint32_t amd = fill_of(&c, NULL, NULL), nat = fill_natural(&c);
        print_message("cloth %ux%u: n %u, nnz(A) below diag %u, nnz(L) below diag "
                      "%u with AMD (%.2f n log2 n), %u natural (%.2f n log2 n)\n",
                      sizes[t], sizes[t], c.n, c.nnz - c.n, amd, amd / nlogn, nat,
                      nat / nlogn);
        assert_true(amd <= 2.0 * nlogn);
        assert_true(nat > 2.0 * nlogn); /* the bound does discriminate */
        assert_true(3 * (uint64_t)amd < nat);
        ts_symmat_destroy(&c);
    }
    /* A plain grid graph too. */
    cdyn__symmat g = ts_symmat_grid(40, 40);
    assert_true(fill_amd(&g) <= 2.0 * g.n * log2((double)g.n));
    ts_symmat_destroy(&g);
}

/* Narrow grids (banded matrices): the natural order is already good there,
 * and AMD must not do worse. (This caught element lists corrupted by the
 * in-place list update: degrees went wrong and the fill grew to 1.6 times
 * the natural order's.) */
static void test_narrow_grids_no_worse_than_natural(void **state)
{
    (void)state;
    for (uint32_t w = 2; w <= 12; w++) {
        cdyn__symmat g = ts_symmat_grid(w, 300 / w);
        uint32_t amd = fill_amd(&g), nat = fill_natural(&g);
        assert_true(amd <= nat);
        ts_symmat_destroy(&g);
    }
}

static void test_mcs_detects_chordality(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    struct {
        cdyn__symmat m;
        int chordal;
    } cases[] = {
        {cycle(3), 1}, {cycle(4), 0}, {cycle(50), 0}, {clique(12), 1},
        {ts_symmat_random_tree(100, &rng, 1), 1}, {rod_tree(100), 1}, {ts_symmat_grid(3, 3), 0}, {mixture(), 0},
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        uint32_t *perm = malloc(cases[t].m.n * sizeof *perm);
        int perfect = -1;
        assert_int_equal(cdyn__ordering_mcs(&cases[t].m, &al, perm, &perfect), CDYN_OK);
        assert_int_equal(perfect, cases[t].chordal);
        if (perfect)
            assert_int_equal(fill_of(&cases[t].m, perm, NULL), cases[t].m.nnz - cases[t].m.n);
        else
            assert_true(fill_of(&cases[t].m, perm, NULL) > cases[t].m.nnz - cases[t].m.n);
        free(perm);
        ts_symmat_destroy(&cases[t].m);
    }
}

static void test_bad_input(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__symmat c = ts_symmat_chain(5);
    uint32_t perm[5];
    int perfect;
    assert_int_equal(cdyn__ordering_amd(NULL, &al, perm), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ordering_amd(&c, NULL, perm), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ordering_amd(&c, &al, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ordering_compute(&c, &al, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ordering_mcs(&c, &al, perm, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ordering_mcs(&c, &al, NULL, &perfect), CDYN_ERR_INVALID_ARGUMENT);
    cdyn__symbolic s;
    cdyn__symbolic_init(&s);
    uint32_t dup[5] = {0, 1, 1, 3, 4}, big[5] = {0, 1, 2, 3, 5};
    assert_int_equal(cdyn__symbolic_analyze(&s, &c, &al, dup), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__symbolic_analyze(&s, &c, &al, big), CDYN_ERR_INVALID_ARGUMENT);
    assert_null(s.perm);
    cdyn__symmat empty;
    cdyn__symmat_init(&empty);
    assert_int_equal(cdyn__ordering_amd(&empty, &al, NULL), CDYN_OK);
    assert_int_equal(cdyn__ordering_compute(&empty, &al, NULL, NULL), CDYN_OK);
    assert_int_equal(cdyn__symbolic_analyze(&s, &empty, &al, NULL), CDYN_OK);
    assert_int_equal(s.lnz, 0);
    cdyn__symbolic_destroy(&s, &al);
    ts_symmat_destroy(&c);
}

/* Every allocation failure is reported and leaks nothing; an analysis
 * that fails leaves the previous one in place. */
static void test_out_of_memory(void **state)
{
    (void)state;
    cdyn__symmat mats[] = {cloth(6), rod_tree(40), ts_symmat_chain(30)};
    for (size_t t = 0; t < 3; t++) {
        const uint32_t n = mats[t].n;
        uint32_t *perm = malloc(n * sizeof *perm);
        for (int which = 0; which < 3; which++) {
            int succeeded = 0;
            for (size_t fail = 1; !succeeded; fail++) {
                ts_counting_alloc ca = {0};
                ca.fail_at = fail;
                cdyn_allocator al = ts_counting_allocator(&ca);
                cdyn_status st;
                cdyn__symbolic s;
                cdyn__symbolic_init(&s);
                if (which == 0)
                    st = cdyn__ordering_amd(&mats[t], &al, perm);
                else if (which == 1)
                    st = cdyn__ordering_compute(&mats[t], &al, perm, NULL);
                else
                    st = cdyn__symbolic_analyze(&s, &mats[t], &al, NULL);
                if (st == CDYN_OK) {
                    assert_false(ca.failed);
                    succeeded = 1;
                } else {
                    assert_int_equal(st, CDYN_ERR_NO_MEMORY);
                    assert_null(s.perm);
                    assert_int_equal(ca.live_bytes, 0);
                }
                cdyn__symbolic_destroy(&s, &al);
                assert_int_equal(ca.live_bytes, 0);
            }
        }
        /* Re-analysis under failure keeps the old analysis intact. */
        ts_counting_alloc ca = {0};
        cdyn_allocator al = ts_counting_allocator(&ca);
        cdyn__symbolic s;
        cdyn__symbolic_init(&s);
        assert_int_equal(cdyn__symbolic_analyze(&s, &mats[t], &al, NULL), CDYN_OK);
        uint32_t lnz = s.lnz, *old_perm = s.perm;
        ca.fail_at = ca.allocs + 2;
        assert_int_equal(cdyn__symbolic_analyze(&s, &mats[t], &al, NULL), CDYN_ERR_NO_MEMORY);
        assert_int_equal(s.lnz, lnz);
        assert_ptr_equal(s.perm, old_perm);
        cdyn__symbolic_destroy(&s, &al);
        assert_int_equal(ca.live_bytes, 0);
        free(perm);
        ts_symmat_destroy(&mats[t]);
    }
}

/* Clusters: cliques of 3 to 8 rows (the rows of rigid clusters of rods, or
 * of a user constraint on many particles) joined by random links. Their
 * rows become supervariables, whose weights the degrees count: ignoring
 * them changes the fill by several per cent either way. The factor's
 * non-zero count of this seeded matrix is pinned (a change of the
 * ordering's arithmetic shows as a change here; re-pin it only with a
 * reason). */
static cdyn__symmat clusters(uint64_t *seed)
{
    ts_pairs p = {0};
    uint32_t n = 0;
    for (int c = 0; c < 60; c++) {
        uint32_t size = 3 + ts_below(seed, 6);
        for (uint32_t i = 0; i < size; i++)
            for (uint32_t j = 0; j < i; j++)
                ts_pairs_push(&p, n + i, n + j);
        n += size;
    }
    for (int l = 0; l < 90; l++) {
        uint32_t a = ts_below(seed, n);
        uint32_t b = ts_below(seed, n);
        if (a != b)
            ts_pairs_push(&p, a, b);
    }
    return ts_symmat_from_pairs(n, &p);
}

#define CLUSTERS_PINNED_FILL 1273

static void test_clustered_fill_pinned(void **state)
{
    (void)state;
    uint64_t seed = 0x5eed5eed12345678ULL;
    cdyn__symmat m = clusters(&seed);
    uint32_t fill = fill_amd(&m);
    print_message("clustered matrix: n = %u, nnz = %u, AMD fill %u\n", m.n, m.nnz, fill);
    assert_int_equal(fill, CLUSTERS_PINNED_FILL);
    ts_symmat_destroy(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_and_deterministic),
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_chain_two_ended),
        cmocka_unit_test(test_zero_fill_on_trees),
        cmocka_unit_test(test_cloth_fill),
        cmocka_unit_test(test_narrow_grids_no_worse_than_natural),
        cmocka_unit_test(test_mcs_detects_chordality),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_clustered_fill_pinned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
