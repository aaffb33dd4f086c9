/* The lattice at the edges of its ranges: heights stay within
 * [-CDYN_LATTICE_HEIGHT_MAX, CDYN_LATTICE_HEIGHT_MAX] (rain that would erode
 * below it fails with nothing changed), a drop's slides do not grow with S
 * under either slide rule, a cascade stopped at its cap goes on at the next
 * drops, and a lattice that saves always loads. */
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

static cdyn_lattice *make(size_t w, size_t h, const double *heights)
{
    cdyn_lattice *lat = NULL;
    assert_int_equal(cdyn_lattice_create(w, h, 11, NULL, &lat), CDYN_OK);
    if (heights)
        assert_int_equal(cdyn_lattice_set_heights(lat, heights, w * h), CDYN_OK);
    return lat;
}

static cdyn_lattice_counters counters(const cdyn_lattice *lat)
{
    cdyn_lattice_counters c = {.size = sizeof c};
    assert_int_equal(cdyn_lattice_get_counters(lat, &c), CDYN_OK);
    return c;
}

/* The snapshot of @p lat (malloc'd), its size in *size. */
static unsigned char *snapshot(const cdyn_lattice *lat, size_t *size)
{
    assert_int_equal(cdyn_lattice_snapshot_size(lat, size), CDYN_OK);
    unsigned char *b = malloc(*size);
    assert_int_equal(cdyn_lattice_save(lat, b, *size, NULL), CDYN_OK);
    return b;
}

/* Saves, loads and saves again: the same bytes. */
static void check_saves_and_loads(const cdyn_lattice *lat)
{
    size_t n1, n2;
    unsigned char *a = snapshot(lat, &n1);
    cdyn_lattice *copy = NULL;
    assert_int_equal(cdyn_lattice_load(a, n1, NULL, &copy), CDYN_OK);
    unsigned char *b = snapshot(copy, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    free(a);
    free(b);
    cdyn_lattice_destroy(copy);
}

static void check_heights_valid(const cdyn_lattice *lat)
{
    size_t w, h;
    assert_int_equal(cdyn_lattice_get_size(lat, &w, &h), CDYN_OK);
    double *v = malloc(w * h * sizeof *v);
    assert_int_equal(cdyn_lattice_get_heights(lat, v, w * h), CDYN_OK);
    for (size_t i = 0; i < w * h; i++)
        assert_true(v[i] >= -CDYN_LATTICE_HEIGHT_MAX && v[i] <= CDYN_LATTICE_HEIGHT_MAX);
    free(v);
}

/* The largest height difference between neighbours (walls). */
static double max_step(const cdyn_lattice *lat)
{
    size_t w, ht;
    assert_int_equal(cdyn_lattice_get_size(lat, &w, &ht), CDYN_OK);
    double *h = malloc(w * ht * sizeof *h), worst = 0;
    assert_int_equal(cdyn_lattice_get_heights(lat, h, w * ht), CDYN_OK);
    for (size_t i = 0; i < w * ht; i++) {
        size_t x = i % w;
        if (x + 1 < w)
            worst = fmax(worst, fabs(h[i] - h[i + 1]));
        if (i + w < w * ht)
            worst = fmax(worst, fabs(h[i] - h[i + w]));
    }
    free(h);
    return worst;
}

/* Erosion as large as the range: the first drop on a site at 0 takes it to
 * the bottom of the range, the second would go below it and fails, with
 * the lattice as it was (generator and counters included); it still
 * saves and loads, and rains where there is room. */
static void test_erosion_below_the_range_rolls_back(void **state)
{
    (void)state;
    const double zero[12] = {0};
    cdyn_lattice *lat = make(4, 3, zero);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_D, CDYN_LATTICE_HEIGHT_MAX),
                     CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_M, INFINITY), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain_at(lat, 2, 0, 1), CDYN_OK);
    double h[12];
    assert_int_equal(cdyn_lattice_get_heights(lat, h, 12), CDYN_OK);
    assert_true(h[2] == -CDYN_LATTICE_HEIGHT_MAX);
    check_saves_and_loads(lat);

    size_t n0, n1;
    unsigned char *before = snapshot(lat, &n0);
    assert_int_equal(cdyn_lattice_rain_at(lat, 2, 0, 1), CDYN_ERR_DIVERGED);
    const char *msg = cdyn_lattice_last_error(lat);
    assert_non_null(strstr(msg, "cdyn_lattice_rain_at: "));
    assert_non_null(strstr(msg, "(2, 0)"));
    unsigned char *after = snapshot(lat, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    free(after);

    /* Random rain: some drop of the hundred lands on site 2 and fails;
     * the ninety-odd before it are undone too. */
    assert_int_equal(cdyn_lattice_rain(lat, 100), CDYN_ERR_DIVERGED);
    assert_non_null(strstr(cdyn_lattice_last_error(lat), "cdyn_lattice_rain: "));
    after = snapshot(lat, &n1);
    assert_memory_equal(before, after, n0);
    free(after);
    free(before);
    check_heights_valid(lat);
    check_saves_and_loads(lat);
    /* Other sites still have room for one drop each. */
    assert_int_equal(cdyn_lattice_rain_at(lat, 0, 0, 1), CDYN_OK);
    cdyn_lattice_destroy(lat);
}

/* Rain near the bottom of the range keeps a copy to roll back to; when
 * that copy cannot be had the call fails with nothing changed. */
static void test_rollback_copy_out_of_memory(void **state)
{
    (void)state;
    int completed = 0;
    for (size_t fail = 1; !completed; fail++) {
        ts_counting_alloc st = {0};
        cdyn_allocator a = ts_counting_allocator(&st);
        cdyn_lattice *lat = NULL;
        assert_int_equal(cdyn_lattice_create(6, 5, 2, &a, &lat), CDYN_OK);
        double h[30];
        for (int i = 0; i < 30; i++)
            h[i] = -CDYN_LATTICE_HEIGHT_MAX + 1.5e98 + 1e99 * (i / 6); /* room for one D */
        assert_int_equal(cdyn_lattice_set_heights(lat, h, 30), CDYN_OK);
        assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_D, 1e98), CDYN_OK);
        assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_M, INFINITY), CDYN_OK);
        size_t n0, n1;
        unsigned char *before = snapshot(lat, &n0);
        st.fail_at = st.allocs + fail;
        cdyn_status s = cdyn_lattice_rain_at(lat, 3, 4, 1);
        if (s == CDYN_ERR_NO_MEMORY) {
            assert_non_null(strstr(cdyn_lattice_last_error(lat), "cdyn_lattice_rain_at: "));
            unsigned char *after = snapshot(lat, &n1);
            assert_memory_equal(before, after, n0);
            free(after);
        } else {
            assert_int_equal(s, CDYN_OK);
            completed = st.failed == 0;
        }
        free(before);
        cdyn_lattice_destroy(lat);
        assert_int_equal(st.live_bytes, 0);
    }
}

/* Heights at both ends of the range, side by side (the low ones with room
 * for a hundred drops' erosion), slide and erode with every difference and
 * sum finite: rain succeeds, every height stays in the range, and the
 * lattice saves and loads. */
static void test_extreme_heights_stay_in_range(void **state)
{
    (void)state;
    double h[48];
    for (int i = 0; i < 48; i++)
        h[i] = (i / 8 + i % 8) % 2 ? CDYN_LATTICE_HEIGHT_MAX : -CDYN_LATTICE_HEIGHT_MAX + 1e95;
    for (int k = 0; k < 4; k++) {
        cdyn_lattice *lat = make(8, 6, h);
        assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_M, k < 2 ? 0.0 : 1.0), CDYN_OK);
        assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_S, k % 2 ? 1.0000001 : 7.0),
                         CDYN_OK);
        assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_E, 1e300), CDYN_OK);
        assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_D, 1e90), CDYN_OK);
        for (int d = 0; d < 20; d++) {
            assert_int_equal(cdyn_lattice_rain(lat, 5), CDYN_OK);
            check_heights_valid(lat);
        }
        cdyn_lattice_counters c = counters(lat);
        assert_true(isfinite(c.total_slid) && isfinite(c.total_eroded));
        check_saves_and_loads(lat);
        cdyn_lattice_destroy(lat);
    }
}

/* The 5 x 4 lattice with one pit 1000 below a flat: the slides that relax
 * it do not grow with S (the cascade closes each site's geometric series in
 * one slide), and afterwards no slope exceeds M. */
static void test_cascade_work_does_not_grow_with_S(void **state)
{
    (void)state;
    double h[20] = {0};
    h[12] = -1000;
    const double S[] = {2, 1e3, 1e5, 1e7, CDYN_LATTICE_S_MAX};
    uint64_t first = 0;
    for (size_t k = 0; k < sizeof S / sizeof *S; k++) {
        cdyn_lattice *lat = make(5, 4, h);
        assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_S, S[k]), CDYN_OK);
        assert_int_equal(cdyn_lattice_rain(lat, 1), CDYN_OK);
        cdyn_lattice_counters c = counters(lat);
        if (k == 0)
            first = c.slides;
        /* The same number of (closed) slides for every S here, and far
         * below the cap of 16 per site. */
        assert_true(c.slides == first);
        assert_true(c.slides < 16 * 20 && c.capped_cascades == 0 && c.pending_sites == 0);
        assert_true(max_step(lat) <= 2.0);
        check_saves_and_loads(lat);
        cdyn_lattice_destroy(lat);
    }
}

/* The rule as stated: one round of slides per drop, each by dh / S; what
 * still stands above M waits. Work per drop is one round whatever S. */
static void test_once_rule_slides_one_round_per_drop(void **state)
{
    (void)state;
    double h[20] = {0};
    h[12] = -1000;
    const double S[] = {2, 1e7};
    for (size_t k = 0; k < 2; k++) {
        cdyn_lattice *lat = make(5, 4, h);
        assert_int_equal(cdyn_lattice_set_slide_rule(lat, CDYN_LATTICE_SLIDE_ONCE), CDYN_OK);
        assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_S, S[k]), CDYN_OK);
        assert_int_equal(cdyn_lattice_rain(lat, 0), CDYN_OK);
        cdyn_lattice_counters c = counters(lat);
        assert_true(c.slides == 0 && c.pending_sites == 20); /* all listed, none slid */
        uint64_t rounds = 0;
        for (int d = 1; d <= 40; d++) {
            assert_int_equal(cdyn_lattice_rain(lat, 1), CDYN_OK);
            c = counters(lat);
            assert_true(c.slide_rounds <= rounds + 1);
            rounds = c.slide_rounds;
            assert_true(c.slides <= 20 * (uint64_t)d);
        }
        if (S[k] == 2) {
            /* Halving the difference each drop: relaxed well within 40. */
            assert_true(c.pending_sites == 0);
            assert_true(max_step(lat) <= 2.0);
        } else {
            /* A ten-millionth of the difference per drop: still waiting. */
            assert_true(c.pending_sites > 0);
        }
        check_saves_and_loads(lat);
        cdyn_lattice_destroy(lat);
    }
}

/* A surface whose relaxation needs more than 16 slides per site (a bowl
 * far steeper than M: each site must follow the sites below it down, time
 * and again): the cascade stops at the cap, the sites it left slide at the
 * next drops, and the invariant is reached in the end. */
static void test_capped_cascade_goes_on_at_the_next_drops(void **state)
{
    (void)state;
    enum { W = 32, H = 32 };
    double *h = malloc(W * H * sizeof *h);
    for (size_t i = 0; i < W * H; i++)
        h[i] = -(double)((i % W) * (i % W) + (i / W) * (i / W));
    cdyn_lattice *lat = make(W, H, h);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_M, 0.5), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_D, 0), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain(lat, 0), CDYN_OK);
    cdyn_lattice_counters c = counters(lat);
    assert_true(c.capped_cascades == 1 && c.pending_sites > 0);
    assert_true(c.slides <= 16 * W * H + W * H); /* the cap, plus the last round */
    check_saves_and_loads(lat);
    uint64_t drops = 0;
    while (c.pending_sites > 0 && drops < 1000) {
        uint64_t s0 = c.slides;
        assert_int_equal(cdyn_lattice_rain(lat, 1), CDYN_OK);
        drops++;
        c = counters(lat);
        assert_true(c.slides - s0 <= 17 * W * H);
    }
    assert_true(c.pending_sites == 0);
    assert_true(max_step(lat) <= 0.5);
    free(h);
    cdyn_lattice_destroy(lat);
}

/* A program built with the first layout of the counters (up to total_slid)
 * gets those fields and nothing past them is written. */
static void test_counters_of_the_first_layout(void **state)
{
    (void)state;
    cdyn_lattice *lat = make(6, 5, NULL);
    assert_int_equal(cdyn_lattice_rain(lat, 30), CDYN_OK);
    cdyn_lattice_counters full = counters(lat), old;
    memset(&old, 0xAB, sizeof old);
    old.size = offsetof(cdyn_lattice_counters, total_slid) + sizeof(double);
    assert_int_equal(cdyn_lattice_get_counters(lat, &old), CDYN_OK);
    assert_true(old.drops == 30 && old.walk_steps == full.walk_steps);
    assert_true(old.total_slid == full.total_slid);
    const unsigned char *tail = (const unsigned char *)&old.capped_cascades;
    for (size_t i = 0; i < 2 * sizeof(uint64_t); i++)
        assert_int_equal(tail[i], 0xAB);
    old.size = offsetof(cdyn_lattice_counters, total_slid);
    assert_int_equal(cdyn_lattice_get_counters(lat, &old), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_lattice_destroy(lat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_erosion_below_the_range_rolls_back),
        cmocka_unit_test(test_rollback_copy_out_of_memory),
        cmocka_unit_test(test_extreme_heights_stay_in_range),
        cmocka_unit_test(test_cascade_work_does_not_grow_with_S),
        cmocka_unit_test(test_once_rule_slides_one_round_per_drop),
        cmocka_unit_test(test_capped_cascade_goes_on_at_the_next_drops),
        cmocka_unit_test(test_counters_of_the_first_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
