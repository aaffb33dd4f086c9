/* White-box tests of the lattice: the walk's rules one move at a time (with
 * chi-square checks of its probabilities), the exponential behind them, and
 * the work-list slides against a naive full sweep. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cdyn/lattice.h"
#include "lattice/lattice.h"
#include "lattice/rng.h"
#include "lattice/slide.h"
#include "lattice/walk.h"

#include "support.h"

#define UNSET CDYN__LATTICE_UNSET

static cdyn_lattice *make(size_t w, size_t h, const double *heights)
{
    cdyn_lattice *lat = NULL;
    assert_int_equal(cdyn_lattice_create(w, h, 1, NULL, &lat), CDYN_OK);
    if (heights)
        assert_int_equal(cdyn_lattice_set_heights(lat, heights, w * h), CDYN_OK);
    return lat;
}

static void test_exp_matches_libm(void **state)
{
    (void)state;
    assert_true(cdyn__lattice_exp(0.0) == 1.0);
    assert_true(cdyn__lattice_exp(-0.0) == 1.0);
    assert_true(cdyn__lattice_exp(-800.0) == 0.0);
    assert_true(cdyn__lattice_exp(-INFINITY) == 0.0);
    assert_true(cdyn__lattice_exp(NAN) == 0.0);
    double worst = 0;
    for (int i = 0; i <= 200000; i++) {
        double x = -700.0 * i / 200000.0;
        double want = exp(x), got = cdyn__lattice_exp(x);
        double rel = fabs(got - want) / want;
        if (rel > worst)
            worst = rel;
    }
    assert_true(worst < 1e-15 * 4);
    /* Subnormal results keep their absolute accuracy. */
    for (double x = -744.0; x < -700.0; x += 0.37)
        assert_true(fabs(cdyn__lattice_exp(x) - exp(x)) <= 1e-15 * exp(x) + 1e-320);
}

/* Draws @p n moves from (cur, prev) and checks the frequencies against
 * weights @p want over the sites @p site (k of them) by chi-square. */
static void check_moves(cdyn_lattice *lat, uint32_t cur, uint32_t prev, const uint32_t *site,
                        const double *want, int k, double chi2_limit)
{
    cdyn__rng rng;
    cdyn__lattice_rng_seed(&rng, 99);
    const int n = 200000;
    double count[4] = {0}, total = 0;
    for (int i = 0; i < k; i++)
        total += want[i];
    for (int d = 0; d < n; d++) {
        bool pit;
        uint32_t next = cdyn__lattice_walk_choose(lat, &rng, cur, prev, &pit);
        assert_false(pit);
        int j = 0;
        while (j < k && site[j] != next)
            j++;
        assert_true(j < k); /* never a site of weight 0, never prev */
        count[j]++;
    }
    double chi2 = 0;
    for (int i = 0; i < k; i++) {
        double e = n * want[i] / total;
        chi2 += (count[i] - e) * (count[i] - e) / e;
    }
    assert_true(chi2 < chi2_limit);
}

static void test_walk_probabilities_3x3(void **state)
{
    (void)state;
    /* Centre (1,1) = site 4 at height 5: down 3 (dh 2), left 4 (dh 1),
     * right 5 (dh 0), up 6 (dh -1, never). */
    const double h[9] = {9, 3, 9,
                         4, 5, 5,
                         9, 6, 9};
    cdyn_lattice *lat = make(3, 3, h);
    for (int k = 0; k < 3; k++) {
        double E = k == 0 ? 1.0 : k == 1 ? 0.0 : -0.7;
        assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_E, E), CDYN_OK);
        const uint32_t site[3] = {1, 3, 5};
        const double want[3] = {exp(2 * E), exp(E), 1.0};
        /* 2 degrees of freedom: P(chi2 > 13.8) = 0.001. */
        check_moves(lat, 4, UNSET, site, want, 3, 13.8);
        /* Arriving from the right, it is never the next site. */
        check_moves(lat, 4, 5, site, want, 2, 10.83);
    }
    cdyn_lattice_destroy(lat);
}

static void test_walk_probabilities_4x4_four_ways(void **state)
{
    (void)state;
    /* Site (1,2) = 9 at height 10 with four lower neighbours. */
    const double h[16] = {20, 20, 20, 20,
                          20, 9.5, 20, 20,
                          8, 10, 7.25, 20,
                          20, 9.9, 20, 20};
    cdyn_lattice *lat = make(4, 4, h);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_E, 0.8), CDYN_OK);
    const uint32_t site[4] = {5, 8, 10, 13};
    const double want[4] = {exp(0.8 * 0.5), exp(0.8 * 2), exp(0.8 * 2.75), exp(0.8 * 0.1)};
    /* 3 degrees of freedom: P(chi2 > 16.27) = 0.001. */
    check_moves(lat, 9, UNSET, site, want, 4, 16.27);
    /* From below (site 5), the other three keep their relative weights. */
    check_moves(lat, 9, 5, site + 1, want + 1, 3, 13.8);
    cdyn_lattice_destroy(lat);
}

static void test_walk_returns_only_when_nothing_else(void **state)
{
    (void)state;
    /* Site 4 (centre, height 5): the only neighbour with dh >= 0 is the
     * left one (site 3, height 5, dh = 0). */
    const double h[9] = {9, 7, 9,
                         5, 5, 8,
                         9, 6, 9};
    cdyn_lattice *lat = make(3, 3, h);
    cdyn__rng rng;
    cdyn__lattice_rng_seed(&rng, 1);
    bool pit;
    /* Arrived from 3: 3 is the only move with a chance, so it goes back. */
    assert_int_equal(cdyn__lattice_walk_choose(lat, &rng, 4, 3, &pit), 3);
    assert_false(pit);
    /* Arrived from elsewhere: 3 as well. */
    assert_int_equal(cdyn__lattice_walk_choose(lat, &rng, 4, 5, &pit), 3);
    cdyn_lattice_destroy(lat);
}

static void test_walk_pit_moves_to_lowest(void **state)
{
    (void)state;
    /* Site 4 (height 1) is lower than all four neighbours. */
    const double h[9] = {9, 6, 9,
                         3, 1, 2,
                         9, 4, 9};
    cdyn_lattice *lat = make(3, 3, h);
    cdyn__rng rng;
    cdyn__lattice_rng_seed(&rng, 1);
    bool pit;
    assert_int_equal(cdyn__lattice_walk_choose(lat, &rng, 4, UNSET, &pit), 5);
    assert_true(pit);
    /* Not straight back to where it came from: the next lowest. */
    assert_int_equal(cdyn__lattice_walk_choose(lat, &rng, 4, 5, &pit), 3);
    assert_true(pit);
    /* A neighbour this drop has visited is passed over while another is
     * not: the drop explores the rim of a depression. */
    assert_true(cdyn__lattice_rain_scratch(lat));
    lat->stamp_now = 5;
    lat->stamp[5] = 5;
    assert_int_equal(cdyn__lattice_walk_choose(lat, &rng, 4, UNSET, &pit), 3);
    lat->stamp[1] = lat->stamp[3] = lat->stamp[7] = 5;
    assert_int_equal(cdyn__lattice_walk_choose(lat, &rng, 4, UNSET, &pit), 5);
    assert_int_equal(cdyn__lattice_walk_choose(lat, &rng, 4, 5, &pit), 3);
    lat->stamp_now = 6;
    /* Equal lowest neighbours: the first in the order down, left, right, up. */
    const double g[9] = {9, 2, 9,
                         2, 1, 2,
                         9, 2, 9};
    assert_int_equal(cdyn_lattice_set_heights(lat, g, 9), CDYN_OK);
    assert_int_equal(cdyn__lattice_walk_choose(lat, &rng, 4, UNSET, &pit), 1);
    assert_int_equal(cdyn__lattice_walk_choose(lat, &rng, 4, 1, &pit), 3);
    cdyn_lattice_destroy(lat);
}

static void test_walk_periodic_neighbours(void **state)
{
    (void)state;
    /* On the left edge, the left neighbour is across the lattice (x = 3). */
    const double h[12] = {9, 9, 9, 9,
                          5, 9, 9, 4,
                          9, 9, 9, 9};
    cdyn_lattice *lat = make(4, 3, h);
    cdyn__rng rng;
    cdyn__lattice_rng_seed(&rng, 1);
    bool pit;
    assert_int_equal(cdyn__lattice_walk_choose(lat, &rng, 4, UNSET, &pit), 0); /* pit */
    assert_true(pit);
    assert_int_equal(cdyn_lattice_set_boundary(lat, CDYN_LATTICE_PERIODIC), CDYN_OK);
    assert_int_equal(cdyn__lattice_walk_choose(lat, &rng, 4, UNSET, &pit), 7);
    assert_false(pit);
    cdyn_lattice_destroy(lat);
}

static double frand(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) * 0x1.0p-53;
}

/* Lists every site for a slide phase and runs it (one round under the once
 * rule, the whole cascade under the default). */
static void slide_everything(cdyn_lattice *lat)
{
    for (size_t i = 0; i < lat->n; i++) {
        lat->list_b[i] = (uint32_t)i;
        lat->flags[i] |= CDYN__LATTICE_QUEUED;
    }
    cdyn__lattice_slide(lat, lat->n);
}

/* The work list and the naive full sweep: the same rounds, so the same
 * surface bit for bit, and the same removed height up to summation order.
 * Under the once rule one round each, and the sites left pending are the
 * ones that slid and their neighbours. */
static void compare_slides(size_t w, size_t ht, bool periodic, uint64_t seed, bool after_drop,
                           cdyn_lattice_slide_rule rule)
{
    size_t n = w * ht;
    double *h0 = malloc(n * sizeof *h0), *newh = malloc(n * sizeof *newh);
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++)
        h0[i] = 0.3 * (double)(i / w) + 3.0 * frand(&s);
    cdyn_lattice *a = make(w, ht, h0), *b = make(w, ht, h0);
    for (int k = 0; k < 2; k++) {
        cdyn_lattice *l = k ? b : a;
        assert_int_equal(cdyn_lattice_set_param(l, CDYN_LATTICE_M, 0.5), CDYN_OK);
        assert_int_equal(cdyn_lattice_set_param(l, CDYN_LATTICE_S, 2.5), CDYN_OK);
        assert_int_equal(cdyn_lattice_set_slide_rule(l, rule), CDYN_OK);
        if (periodic)
            assert_int_equal(cdyn_lattice_set_boundary(l, CDYN_LATTICE_PERIODIC), CDYN_OK);
        assert_true(cdyn__lattice_rain_scratch(l));
    }
    const bool once = rule == CDYN_LATTICE_SLIDE_ONCE;
    double slid_a, slid_b = 0;
    double *before_phase = malloc(n * sizeof *before_phase);
    if (after_drop) {
        /* Relax both, then erode a random path by 2 and slide again. */
        a->slide_rule = CDYN_LATTICE_SLIDE_CASCADE;
        slide_everything(a);
        a->slide_rule = rule;
        memcpy(b->height, a->height, n * sizeof(double));
        size_t cur = n - 1 - (size_t)(frand(&s) * (double)w);
        size_t path[64], np = 0;
        for (int step = 0; step < 40 && np < 64; step++) {
            path[np++] = cur;
            uint32_t nb[4];
            int kk = cdyn__lattice_neighbours(a, cur, nb);
            cur = nb[(int)(frand(&s) * kk)];
        }
        for (size_t k = 0; k < np; k++) {
            bool dup = false;
            for (size_t j = 0; j < k; j++)
                dup |= path[j] == path[k];
            if (!dup) {
                a->height[path[k]] -= 2.0;
                b->height[path[k]] -= 2.0;
            }
        }
        size_t nr = 0;
        for (size_t k = 0; k < np; k++) {
            uint32_t nb[4];
            int kk = cdyn__lattice_neighbours(a, path[k], nb);
            for (int i = 0; i < kk; i++)
                nr = cdyn__lattice_enqueue(a, a->list_b, nr, nb[i]);
        }
        double before = a->counters.total_slid;
        memcpy(before_phase, a->height, n * sizeof(double));
        cdyn__lattice_slide(a, nr);
        slid_a = a->counters.total_slid - before;
    } else {
        memcpy(before_phase, a->height, n * sizeof(double));
        slide_everything(a);
        slid_a = a->counters.total_slid;
    }
    size_t rounds = cdyn__lattice_slide_naive(b, newh, &slid_b, once ? 1 : SIZE_MAX);
    assert_true(rounds > 0);
    assert_memory_equal(a->height, b->height, n * sizeof(double));
    assert_true(fabs(slid_a - slid_b) <= 1e-12 * fabs(slid_b));
    if (!once) {
        /* The invariant: no site stands more than M above a neighbour, and
         * nothing is left marked for a next round. */
        for (size_t i = 0; i < n; i++) {
            uint32_t nb[4];
            int kk = cdyn__lattice_neighbours(a, i, nb);
            for (int j = 0; j < kk; j++)
                assert_true(a->height[i] - a->height[nb[j]] <= 0.5);
        }
        assert_int_equal(a->pending, 0);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(a->flags[i] & CDYN__LATTICE_QUEUED, 0);
    } else {
        /* Pending: exactly the sites that slid and their neighbours, each
         * once and marked. */
        uint8_t *want = calloc(n, 1);
        for (size_t i = 0; i < n; i++) {
            if (a->height[i] == before_phase[i])
                continue;
            want[i] = 1;
            uint32_t nb[4];
            int kk = cdyn__lattice_neighbours(a, i, nb);
            for (int j = 0; j < kk; j++)
                want[nb[j]] = 1;
        }
        size_t count = 0;
        for (size_t i = 0; i < n; i++) {
            count += want[i];
            assert_int_equal((a->flags[i] & CDYN__LATTICE_QUEUED) != 0, want[i]);
        }
        assert_int_equal(a->pending, count);
        for (size_t k = 0; k < a->pending; k++)
            assert_true(want[a->list_b[k]]);
        free(want);
    }
    cdyn_lattice_destroy(a);
    cdyn_lattice_destroy(b);
    free(h0);
    free(newh);
    free(before_phase);
}

static void test_slides_match_naive_sweep(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        for (int r = 0; r < 2; r++) {
            cdyn_lattice_slide_rule rule = r ? CDYN_LATTICE_SLIDE_ONCE : CDYN_LATTICE_SLIDE_CASCADE;
            compare_slides(7 + seed % 5, 5 + seed % 7, seed % 2 == 0, seed, false, rule);
            compare_slides(16, 16, seed % 3 == 0, seed * 77, true, rule);
        }
    }
}

/* The closed series against the slides it stands for, one at a time: the
 * same end (up to rounding of the powers), at most M and more than M r. */
static void test_series_end_matches_repeated_slides(void **state)
{
    (void)state;
    const double S[] = {1.001, 1.5, 2, 3, 10, 1e3, 1e5};
    const double ratio[] = {1.0000001, 1.01, 1.7, 2, 10, 1e3, 1e8};
    for (size_t i = 0; i < sizeof S / sizeof *S; i++) {
        double r = 1.0 - 1.0 / S[i];
        for (size_t j = 0; j < sizeof ratio / sizeof *ratio; j++) {
            const double M = 0.75, dh = M * ratio[j];
            double v = dh;
            uint64_t k = 0;
            do {
                v *= r;
                k++;
            } while (v > M);
            double got = cdyn__lattice_series_end(dh, M, r);
            assert_true(got <= M);
            assert_true(got > M * r * (1 - 1e-9));
            assert_near(got, v, 1e-9 * M);
        }
    }
    assert_true(cdyn__lattice_series_end(5.0, 0.0, 0.5) == 0.0);
    /* The extremes: the largest S and a ratio of 1e300 end in (M r, M]. */
    double r = 1.0 - 1.0 / CDYN_LATTICE_S_MAX, got = cdyn__lattice_series_end(1e100, 1e-200, r);
    assert_true(got <= 1e-200 && got > 1e-200 * r * (1 - 1e-6));
    got = cdyn__lattice_series_end(1e100, 5e-324, r);
    assert_true(got <= 5e-324);
}

static void test_drop_erodes_each_visited_site_once(void **state)
{
    (void)state;
    /* From site 4 (a pit) the drop climbs to 5, must come back (4 is its
     * only move with a chance), then leaves the pit over 1 to row 0: it
     * visits 4 twice but lowers it once. No slides (M = inf). */
    const double h[9] = {9, 6, 9,
                         9, 4, 5,
                         9, 9, 9};
    cdyn_lattice *lat = make(3, 3, h);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_M, INFINITY), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_D, 0.25), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain_at(lat, 1, 1, 1), CDYN_OK);
    cdyn_lattice_counters c = {.size = sizeof c};
    assert_int_equal(cdyn_lattice_get_counters(lat, &c), CDYN_OK);
    assert_true(c.walk_steps == 3);
    assert_true(c.sites_eroded == 3);
    assert_true(c.pit_moves == 2);
    const double want[9] = {9, 5.75, 9,
                            9, 3.75, 4.75,
                            9, 9, 9};
    double got[9];
    assert_int_equal(cdyn_lattice_get_heights(lat, got, 9), CDYN_OK);
    assert_memory_equal(got, want, sizeof want);
    cdyn_lattice_destroy(lat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exp_matches_libm),
        cmocka_unit_test(test_walk_probabilities_3x3),
        cmocka_unit_test(test_walk_probabilities_4x4_four_ways),
        cmocka_unit_test(test_walk_returns_only_when_nothing_else),
        cmocka_unit_test(test_walk_pit_moves_to_lowest),
        cmocka_unit_test(test_walk_periodic_neighbours),
        cmocka_unit_test(test_slides_match_naive_sweep),
        cmocka_unit_test(test_series_end_matches_repeated_slides),
        cmocka_unit_test(test_drop_erodes_each_visited_site_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
