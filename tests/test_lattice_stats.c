/* Network statistics: the drainage-area distribution and Hack's law checked
 * against the Scheidegger model, whose exponents are known exactly
 * (tau = 4/3, h = 2/3); Strahler orders and the bifurcation ratio on
 * hand-built trees; the lattice's own network; bad input. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

/* The Scheidegger model: each site of row y >= 1 drains to (x - 1, y - 1)
 * or (x + 1, y - 1) with probability 1/2 (periodic in x); row 0 is the
 * outlet. Rivers are coalescing random walks. */
static uint32_t *scheidegger(size_t w, size_t h, uint64_t seed)
{
    uint32_t *r = malloc(w * h * sizeof *r);
    uint64_t s = seed;
    for (size_t i = 0; i < w * h; i++) {
        size_t x = i % w, y = i / w;
        if (y == 0) {
            r[i] = (uint32_t)i;
            continue;
        }
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t nx = (s >> 63) ? (x + 1) % w : (x + w - 1) % w;
        r[i] = (uint32_t)((y - 1) * w + nx);
    }
    return r;
}

static void test_scheidegger_exponents(void **state)
{
    (void)state;
    /* Tall, so that basins of the fitted sizes (a <= 1000, length ~ a^(2/3)
     * <= 100 rows) are rarely cut by the top edge. */
    const size_t w = 512, h = 4096;
    for (uint64_t seed = 1; seed <= 2; seed++) {
        uint32_t *r = scheidegger(w, h, seed);
        cdyn_lattice_stats_options o;
        cdyn_lattice_stats_options_init(&o);
        o.area_min = 10;
        o.area_max = 1000;
        o.hack_min = 10;
        o.hack_max = 1000;
        cdyn_lattice_stats st = {.size = sizeof st};
        assert_int_equal(cdyn_lattice_stats_from_receivers(w * h, r, NULL, &o, &st), CDYN_OK);
        print_message("Scheidegger seed %llu: tau = %.4f (4/3), h = %.4f (2/3), R_B = %.3f\n",
                      (unsigned long long)seed, st.tau, st.hack_exponent,
                      st.bifurcation_ratio);
        assert_true(st.sites == w * h);
        assert_true(st.outlets == w);
        assert_true(st.area_fit_points == 21);
        assert_true(fabs(st.tau - 4.0 / 3.0) < 0.05);
        assert_true(fabs(st.area_exponent - 1.0 / 3.0) < 0.05);
        assert_true(fabs(st.hack_exponent - 2.0 / 3.0) < 0.05);
        assert_true(st.bifurcation_ratio > 3 && st.bifurcation_ratio < 6);
        free(r);
    }
}

/*        0            outlet
 *      /   \
 *     1     2
 *   / | \  / \
 *  3  4 7  5  6
 *  |
 *  8                                                          */
static const uint32_t tree[9] = {0, 0, 0, 1, 1, 2, 2, 1, 3};

static void test_strahler_and_drainage_on_a_tree(void **state)
{
    (void)state;
    uint32_t a[9];
    assert_int_equal(cdyn_lattice_drainage_from_receivers(9, tree, NULL, a), CDYN_OK);
    const uint32_t want[9] = {9, 5, 3, 2, 1, 1, 1, 1, 1};
    assert_memory_equal(a, want, sizeof want);

    /* A star of 299 donors around one outlet: wider than a byte counts. */
    uint32_t star[300], sa[300];
    for (int i = 0; i < 300; i++)
        star[i] = 0;
    assert_int_equal(cdyn_lattice_drainage_from_receivers(300, star, NULL, sa), CDYN_OK);
    assert_int_equal(sa[0], 300);
    assert_int_equal(sa[299], 1);
    star[0] = 299; /* 0 -> 299 -> 0: a cycle */
    assert_int_equal(cdyn_lattice_drainage_from_receivers(300, star, NULL, sa),
                     CDYN_ERR_INVALID_ARGUMENT);

    cdyn_lattice_stats st = {.size = sizeof st};
    assert_int_equal(cdyn_lattice_stats_from_receivers(9, tree, NULL, NULL, &st), CDYN_OK);
    assert_true(st.outlets == 1 && st.max_drainage == 9 && st.network_sites == 9);
    assert_true(st.threshold == 1);
    /* Leaves 3..8 are order 1 (3 continues 8's stream); 1 and 2 are order
     * 2; the root is order 3. */
    assert_int_equal(st.max_order, 3);
    assert_true(st.streams[0] == 5 && st.streams[1] == 2 && st.streams[2] == 1);
    assert_true(fabs(st.bifurcation_ratio - 2.5) < 1e-12); /* 5 / 2, top order left out */
    assert_true(isnan(st.area_exponent)); /* no range to fit */

    /* Only sites with drainage >= 2: 3 and 2 are sources, 1 continues 3,
     * the root joins two order-1 streams. */
    cdyn_lattice_stats_options o;
    cdyn_lattice_stats_options_init(&o);
    o.threshold = 2;
    assert_int_equal(cdyn_lattice_stats_from_receivers(9, tree, NULL, &o, &st), CDYN_OK);
    assert_true(st.network_sites == 4);
    assert_int_equal(st.max_order, 2);
    assert_true(st.streams[0] == 2 && st.streams[1] == 1);
    assert_true(fabs(st.bifurcation_ratio - 2.0) < 1e-12);

    /* A perfect binary tree of depth 4: R_B = 2 exactly. */
    uint32_t bin[31];
    for (uint32_t i = 0; i < 31; i++)
        bin[i] = i == 0 ? 0 : (i - 1) / 2;
    assert_int_equal(cdyn_lattice_stats_from_receivers(31, bin, NULL, NULL, &st), CDYN_OK);
    assert_int_equal(st.max_order, 5);
    for (int k = 0; k < 5; k++)
        assert_true(st.streams[k] == (uint64_t)(16 >> k));
    assert_true(fabs(st.bifurcation_ratio - 2.0) < 1e-12);
}

static void test_hack_on_a_chain(void **state)
{
    (void)state;
    /* A single stream of 500 sites draining to site 0: the k-th site from
     * the top has area k and main-stream length k, so h = 1 exactly. */
    enum { L = 500 };
    uint32_t r[L];
    for (uint32_t k = 0; k < L; k++)
        r[k] = k == 0 ? 0 : k - 1;
    cdyn_lattice_stats_options o;
    cdyn_lattice_stats_options_init(&o);
    o.area_min = 20;
    o.area_max = 400;
    o.hack_min = 20;
    o.hack_max = 400;
    cdyn_lattice_stats st = {.size = sizeof st};
    assert_int_equal(cdyn_lattice_stats_from_receivers(L, r, NULL, &o, &st), CDYN_OK);
    assert_true(fabs(st.hack_exponent - 1.0) < 1e-12);
    /* 14 grid points 20 * 10^(n/10) <= 400 bound 13 whole bins; the areas
     * from the last point (399.05) to 400 make no bin of their own. */
    assert_true(st.hack_fit_points == 13);
    /* P(A >= a) = (L - a + 1) / L: not a power law, but a fit exists. */
    assert_true(st.area_fit_points == 14 && isfinite(st.area_exponent));
    assert_int_equal(st.max_order, 1);
    assert_true(isnan(st.bifurcation_ratio));
}

static void test_lattice_network_stats(void **state)
{
    (void)state;
    cdyn_lattice *lat = NULL;
    assert_int_equal(cdyn_lattice_create(64, 64, 5, NULL, &lat), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain(lat, 20000), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_R, 20), CDYN_OK);
    cdyn_lattice_stats st = {.size = sizeof st};
    assert_int_equal(cdyn_lattice_compute_stats(lat, NULL, &st), CDYN_OK);
    assert_true(st.sites == 64 * 64 && st.outlets == 64);
    assert_true(st.threshold == 20);
    uint32_t d[64 * 64];
    uint8_t mask[64 * 64];
    assert_int_equal(cdyn_lattice_compute_drainage(lat, d, 64 * 64), CDYN_OK);
    assert_int_equal(cdyn_lattice_compute_network(lat, mask, 64 * 64), CDYN_OK);
    uint64_t net = 0, amax = 0;
    for (size_t i = 0; i < 64 * 64; i++) {
        net += mask[i];
        amax = d[i] > amax ? d[i] : amax;
    }
    assert_true(st.network_sites == net && st.max_drainage == amax);
    assert_true(st.max_order >= 2);
    /* The same numbers from the receivers through the generic entry. */
    uint32_t r[64 * 64];
    assert_int_equal(cdyn_lattice_compute_receivers(lat, r, 64 * 64), CDYN_OK);
    cdyn_lattice_stats_options o;
    cdyn_lattice_stats_options_init(&o);
    o.threshold = 20;
    cdyn_lattice_stats st2 = {.size = sizeof st2};
    assert_int_equal(cdyn_lattice_stats_from_receivers(64 * 64, r, NULL, &o, &st2), CDYN_OK);
    assert_memory_equal(&st, &st2, offsetof(cdyn_lattice_stats, area_exponent));
    assert_true(st.max_order == st2.max_order);
    assert_memory_equal(st.streams, st2.streams, sizeof st.streams);
    cdyn_lattice_destroy(lat);
}

/* A lattice in the model's regime (W H / 4 drops on 128^2): the default
 * fit range is [10, max drainage / 20], the largest basin drains a strip of
 * the lattice's height (below 3 H^(3/2)), and the exponents are those of
 * the model's river networks (docs/lattice.md: tau 1.35 to 1.38, h 0.64 to
 * 0.68 over sizes and seeds), here with a seed's scatter allowed. */
static void test_default_fit_in_the_model_regime(void **state)
{
    (void)state;
    cdyn_lattice *lat = NULL;
    assert_int_equal(cdyn_lattice_create(128, 128, 2, NULL, &lat), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain(lat, 128 * 128 / 4), CDYN_OK);
    cdyn_lattice_stats st = {.size = sizeof st};
    assert_int_equal(cdyn_lattice_compute_stats(lat, NULL, &st), CDYN_OK);
    assert_true(st.area_fit_min == 10);
    assert_true(st.area_fit_max == (double)st.max_drainage / 20);
    assert_true(st.hack_fit_max == st.area_fit_max);
    assert_true((double)st.max_drainage < 3 * pow(128, 1.5));
    assert_true(st.area_fit_points >= 10);
    print_message("128^2 after W H / 4 drops: tau %.3f, h %.3f, R_B %.2f over 10..%g\n",
                  st.tau, st.hack_exponent, st.bifurcation_ratio, st.area_fit_max);
    assert_true(st.tau > 1.30 && st.tau < 1.45);
    assert_true(st.hack_exponent > 0.58 && st.hack_exponent < 0.75);
    cdyn_lattice_destroy(lat);
}

static void test_bad_input(void **state)
{
    (void)state;
    cdyn_lattice_stats st = {.size = sizeof st};
    uint32_t a[9];
    const uint32_t out_of_range[3] = {0, 3, 0}, cycle[3] = {0, 2, 1};
    assert_int_equal(cdyn_lattice_stats_from_receivers(3, out_of_range, NULL, NULL, &st),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_stats_from_receivers(3, cycle, NULL, NULL, &st),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_drainage_from_receivers(3, cycle, NULL, a),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_drainage_from_receivers(3, out_of_range, NULL, a),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_drainage_from_receivers(0, tree, NULL, a),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_drainage_from_receivers(3, NULL, NULL, a),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_stats_from_receivers(0, tree, NULL, NULL, &st),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_stats_from_receivers(9, tree, NULL, NULL, NULL),
                     CDYN_ERR_INVALID_ARGUMENT);
    cdyn_lattice_stats small = {.size = 8};
    assert_int_equal(cdyn_lattice_stats_from_receivers(9, tree, NULL, NULL, &small),
                     CDYN_ERR_INVALID_ARGUMENT);
    cdyn_lattice_stats_options o;
    cdyn_lattice_stats_options_init(&o);
    o.area_min = 10;
    o.area_max = 5;
    assert_int_equal(cdyn_lattice_stats_from_receivers(9, tree, NULL, &o, &st),
                     CDYN_ERR_INVALID_ARGUMENT);
    cdyn_lattice_stats_options_init(&o);
    o.points_per_decade = 0;
    assert_int_equal(cdyn_lattice_stats_from_receivers(9, tree, NULL, &o, &st),
                     CDYN_ERR_INVALID_ARGUMENT);
    cdyn_lattice_stats_options_init(&o);
    o.threshold = NAN;
    assert_int_equal(cdyn_lattice_stats_from_receivers(9, tree, NULL, &o, &st),
                     CDYN_ERR_INVALID_ARGUMENT);
    cdyn_lattice_stats_options_init(&o);
    o.size = 0;
    assert_int_equal(cdyn_lattice_stats_from_receivers(9, tree, NULL, &o, &st),
                     CDYN_ERR_INVALID_ARGUMENT);
    cdyn_lattice_stats_options_init(NULL);

    cdyn_lattice *lat = NULL;
    assert_int_equal(cdyn_lattice_create(4, 4, 1, NULL, &lat), CDYN_OK);
    assert_int_equal(cdyn_lattice_compute_stats(lat, NULL, &small), CDYN_ERR_INVALID_ARGUMENT);
    assert_true(strlen(cdyn_lattice_last_error(lat)) > 0);
    assert_int_equal(cdyn_lattice_compute_stats(lat, &o, &st), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_compute_stats(NULL, NULL, &st), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_lattice_destroy(lat);

    /* Out of memory in the generic entries: a status, no leak. */
    for (size_t fail = 1; fail <= 6; fail++) {
        ts_counting_alloc c = {0};
        c.fail_at = fail;
        cdyn_allocator al = ts_counting_allocator(&c);
        cdyn_status s1 = cdyn_lattice_stats_from_receivers(9, tree, &al, NULL, &st);
        assert_true(s1 == CDYN_OK || s1 == CDYN_ERR_NO_MEMORY);
        assert_int_equal(c.live_bytes, 0);
        ts_counting_alloc c2 = {0};
        c2.fail_at = fail;
        al = ts_counting_allocator(&c2);
        s1 = cdyn_lattice_drainage_from_receivers(9, tree, &al, a);
        assert_true(s1 == CDYN_OK || s1 == CDYN_ERR_NO_MEMORY);
        assert_int_equal(c2.live_bytes, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scheidegger_exponents),
        cmocka_unit_test(test_strahler_and_drainage_on_a_tree),
        cmocka_unit_test(test_hack_on_a_chain),
        cmocka_unit_test(test_lattice_network_stats),
        cmocka_unit_test(test_default_fit_in_the_model_regime),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
