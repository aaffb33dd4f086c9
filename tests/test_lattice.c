/* The erosion lattice through its public API: creation and bad input,
 * parameters, heights, the rules of a drop, the slide invariant and the
 * conservation of height, drainage and the river network, determinism, and
 * out-of-memory behaviour. */
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

static cdyn_lattice *make(size_t w, size_t h, uint64_t seed)
{
    cdyn_lattice *lat = NULL;
    assert_int_equal(cdyn_lattice_create(w, h, seed, NULL, &lat), CDYN_OK);
    assert_non_null(lat);
    return lat;
}

static double *heights_of(const cdyn_lattice *lat, size_t *n_out)
{
    size_t w, h;
    assert_int_equal(cdyn_lattice_get_size(lat, &w, &h), CDYN_OK);
    double *v = malloc(w * h * sizeof *v);
    assert_int_equal(cdyn_lattice_get_heights(lat, v, w * h), CDYN_OK);
    if (n_out)
        *n_out = w * h;
    return v;
}

/* The largest amount by which a site stands above a neighbour. */
static double max_step(const double *h, size_t w, size_t ht, int periodic)
{
    double worst = -INFINITY;
    for (size_t y = 0; y < ht; y++)
        for (size_t x = 0; x < w; x++) {
            double v = h[y * w + x];
            if (y > 0 && v - h[(y - 1) * w + x] > worst)
                worst = v - h[(y - 1) * w + x];
            if (y + 1 < ht && v - h[(y + 1) * w + x] > worst)
                worst = v - h[(y + 1) * w + x];
            if (x > 0 && v - h[y * w + x - 1] > worst)
                worst = v - h[y * w + x - 1];
            if (x + 1 < w && v - h[y * w + x + 1] > worst)
                worst = v - h[y * w + x + 1];
            if (periodic && x == 0 && v - h[y * w + w - 1] > worst)
                worst = v - h[y * w + w - 1];
            if (periodic && x == w - 1 && v - h[y * w] > worst)
                worst = v - h[y * w];
        }
    return worst;
}

static void test_create_and_bad_sizes(void **state)
{
    (void)state;
    cdyn_lattice *lat = (cdyn_lattice *)&lat; /* set to NULL on every failure */
    assert_int_equal(cdyn_lattice_create(4, 4, 1, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    lat = (cdyn_lattice *)&lat;
    assert_int_equal(cdyn_lattice_create(1, 4, 1, NULL, &lat), CDYN_ERR_INVALID_ARGUMENT);
    assert_null(lat);
    lat = (cdyn_lattice *)&lat;
    assert_int_equal(cdyn_lattice_create(4, 1, 1, NULL, &lat), CDYN_ERR_INVALID_ARGUMENT);
    assert_null(lat);
    lat = (cdyn_lattice *)&lat;
    assert_int_equal(cdyn_lattice_create(0, 0, 1, NULL, &lat), CDYN_ERR_INVALID_ARGUMENT);
    assert_null(lat);
    lat = (cdyn_lattice *)&lat;
    assert_int_equal(cdyn_lattice_create(SIZE_MAX / 2, 3, 1, NULL, &lat),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_null(lat);
    lat = (cdyn_lattice *)&lat;
    assert_int_equal(cdyn_lattice_create(SIZE_MAX / 16 + 1, 2, 1, NULL, &lat),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_null(lat);
    lat = (cdyn_lattice *)&lat;
    assert_int_equal(cdyn_lattice_create(70000, 70000, 1, NULL, &lat),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_null(lat);
    cdyn_allocator half = {NULL, NULL, NULL};
    lat = (cdyn_lattice *)&lat;
    assert_int_equal(cdyn_lattice_create(4, 4, 1, &half, &lat), CDYN_ERR_INVALID_ARGUMENT);
    assert_null(lat);

    lat = make(2, 2, 1);
    size_t w = 0, h = 0;
    assert_int_equal(cdyn_lattice_get_size(lat, &w, &h), CDYN_OK);
    assert_int_equal(w, 2);
    assert_int_equal(h, 2);
    assert_string_equal(cdyn_lattice_last_error(lat), "");
    cdyn_lattice_destroy(lat);
    cdyn_lattice_destroy(NULL);
    assert_string_equal(cdyn_lattice_last_error(NULL), "");
    assert_int_equal(cdyn_lattice_get_size(NULL, &w, &h), CDYN_ERR_INVALID_ARGUMENT);
}

static void test_parameters(void **state)
{
    (void)state;
    cdyn_lattice *lat = make(8, 8, 1);
    const cdyn_lattice_param p[5] = {CDYN_LATTICE_E, CDYN_LATTICE_D, CDYN_LATTICE_M,
                                     CDYN_LATTICE_S, CDYN_LATTICE_R};
    const double def[5] = {2.0, 0.01, 2.0, 2.0, 100.0};
    for (int i = 0; i < 5; i++) {
        double v;
        assert_int_equal(cdyn_lattice_get_param(lat, p[i], &v), CDYN_OK);
        assert_true(v == def[i]);
    }
    const struct { cdyn_lattice_param p; double v; } bad[] = {
        {CDYN_LATTICE_E, NAN}, {CDYN_LATTICE_E, INFINITY}, {CDYN_LATTICE_D, -1e-9},
        {CDYN_LATTICE_D, NAN}, {CDYN_LATTICE_D, INFINITY},
        {CDYN_LATTICE_D, CDYN_LATTICE_HEIGHT_MAX * 1.0000001}, {CDYN_LATTICE_D, 1e308},
        {CDYN_LATTICE_M, -0.5}, {CDYN_LATTICE_M, NAN}, {CDYN_LATTICE_S, 1.0},
        {CDYN_LATTICE_S, 0.5}, {CDYN_LATTICE_S, NAN}, {CDYN_LATTICE_S, INFINITY},
        {CDYN_LATTICE_S, CDYN_LATTICE_S_MAX * 1.0000001}, {CDYN_LATTICE_R, 0.5},
        {CDYN_LATTICE_R, NAN}, {(cdyn_lattice_param)99, 1.0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(cdyn_lattice_set_param(lat, bad[i].p, bad[i].v),
                         CDYN_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(cdyn_lattice_last_error(lat), "cdyn_lattice_set_param: "));
    }
    for (int i = 0; i < 5; i++) {
        double v;
        assert_int_equal(cdyn_lattice_get_param(lat, p[i], &v), CDYN_OK);
        assert_true(v == def[i]);
    }
    double v;
    assert_int_equal(cdyn_lattice_get_param(lat, (cdyn_lattice_param)99, &v),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_M, INFINITY), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_E, -3.0), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_D, 0.0), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_D, CDYN_LATTICE_HEIGHT_MAX),
                     CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_S, CDYN_LATTICE_S_MAX), CDYN_OK);
    /* Successful calls leave the last failure's message as it was. */
    assert_non_null(strstr(cdyn_lattice_last_error(lat), "unknown parameter 99"));
    assert_int_equal(cdyn_lattice_set_param(NULL, CDYN_LATTICE_E, 1.0),
                     CDYN_ERR_INVALID_ARGUMENT);

    uint64_t cap;
    assert_int_equal(cdyn_lattice_get_walk_cap(lat, &cap), CDYN_OK);
    assert_true(cap == 2 * (8 + 8));
    assert_int_equal(cdyn_lattice_set_walk_cap(lat, 0), CDYN_ERR_INVALID_ARGUMENT);
    /* At most 64 W H moves: a bound on a drop's work set by the size alone. */
    assert_int_equal(cdyn_lattice_set_walk_cap(lat, 64 * 64 + 1), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_set_walk_cap(lat, 64 * 64), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_walk_cap(lat, 5), CDYN_OK);
    assert_int_equal(cdyn_lattice_get_walk_cap(lat, &cap), CDYN_OK);
    assert_true(cap == 5);

    cdyn_lattice_boundary b;
    assert_int_equal(cdyn_lattice_get_boundary(lat, &b), CDYN_OK);
    assert_int_equal(b, CDYN_LATTICE_WALLS);
    assert_int_equal(cdyn_lattice_set_boundary(lat, (cdyn_lattice_boundary)7),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_set_boundary(lat, CDYN_LATTICE_PERIODIC), CDYN_OK);
    assert_int_equal(cdyn_lattice_get_boundary(lat, &b), CDYN_OK);
    assert_int_equal(b, CDYN_LATTICE_PERIODIC);
    cdyn_lattice_destroy(lat);

    lat = make(2, 5, 1);
    assert_int_equal(cdyn_lattice_set_boundary(lat, CDYN_LATTICE_PERIODIC),
                     CDYN_ERR_INVALID_ARGUMENT);
    cdyn_lattice_destroy(lat);
}

static void test_heights_and_initial_surface(void **state)
{
    (void)state;
    cdyn_lattice *lat = make(6, 5, 3);
    assert_int_equal(cdyn_lattice_init_tilted(lat, 0.75, 0.5), CDYN_OK);
    size_t n;
    double *h = heights_of(lat, &n);
    for (size_t i = 0; i < n; i++) {
        double r = h[i] - 0.75 * (double)(i / 6);
        assert_true(r >= 0 && r < 0.5);
    }
    /* Bad input changes nothing. */
    assert_int_equal(cdyn_lattice_init_tilted(lat, -1, 0.5), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_init_tilted(lat, 1, NAN), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_init_tilted(lat, 1e308, 1), CDYN_ERR_INVALID_ARGUMENT);
    double *g = malloc(n * sizeof *g);
    for (size_t i = 0; i < n; i++)
        g[i] = (double)i * 0.5 - 3;
    g[17] = NAN;
    assert_int_equal(cdyn_lattice_set_heights(lat, g, n), CDYN_ERR_INVALID_ARGUMENT);
    assert_true(strstr(cdyn_lattice_last_error(lat), "17") != NULL);
    g[17] = INFINITY;
    assert_int_equal(cdyn_lattice_set_heights(lat, g, n), CDYN_ERR_INVALID_ARGUMENT);
    /* The valid range ends at CDYN_LATTICE_HEIGHT_MAX on both sides. */
    g[17] = -CDYN_LATTICE_HEIGHT_MAX * 1.0000001;
    assert_int_equal(cdyn_lattice_set_heights(lat, g, n), CDYN_ERR_INVALID_ARGUMENT);
    g[17] = 1e308;
    assert_int_equal(cdyn_lattice_set_heights(lat, g, n), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_init_tilted(lat, CDYN_LATTICE_HEIGHT_MAX / 3, 1),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_init_tilted(lat, 0, CDYN_LATTICE_HEIGHT_MAX * 2),
                     CDYN_ERR_INVALID_ARGUMENT);
    g[17] = 1;
    assert_int_equal(cdyn_lattice_set_heights(lat, g, n - 1), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_set_heights(lat, NULL, n), CDYN_ERR_INVALID_ARGUMENT);
    double *now = heights_of(lat, NULL);
    assert_memory_equal(now, h, n * sizeof *h);
    assert_int_equal(cdyn_lattice_get_heights(lat, now, n - 1), CDYN_ERR_INVALID_ARGUMENT);
    /* A round trip is exact. */
    assert_int_equal(cdyn_lattice_set_heights(lat, g, n), CDYN_OK);
    free(now);
    now = heights_of(lat, NULL);
    assert_memory_equal(now, g, n * sizeof *g);
    free(h);
    free(g);
    free(now);
    cdyn_lattice_destroy(lat);
}

static void test_drop_rules(void **state)
{
    (void)state;
    /* No slides: each drop lowers exactly the sites it visited, each by D
     * once, one of them (the last) in row 0, and they form a path. */
    cdyn_lattice *lat = make(9, 8, 5);
    /* Noise below the tilt: no pits, so no walk is capped. */
    assert_int_equal(cdyn_lattice_init_tilted(lat, 1.0, 0.75), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_M, INFINITY), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_D, 0.125), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain(lat, 0), CDYN_OK);
    size_t n;
    double *before = heights_of(lat, &n);
    for (int d = 0; d < 200; d++) {
        cdyn_lattice_counters c0 = {.size = sizeof c0}, c1 = {.size = sizeof c1};
        assert_int_equal(cdyn_lattice_get_counters(lat, &c0), CDYN_OK);
        assert_int_equal(cdyn_lattice_rain(lat, 1), CDYN_OK);
        assert_int_equal(cdyn_lattice_get_counters(lat, &c1), CDYN_OK);
        double *after = heights_of(lat, NULL);
        size_t lowered = 0, in_row0 = 0;
        uint8_t mark[72] = {0};
        for (size_t i = 0; i < n; i++) {
            if (after[i] != before[i]) {
                assert_true(after[i] == before[i] - 0.125);
                lowered++;
                in_row0 += i < 9;
                mark[i] = 1;
            }
        }
        assert_true(c1.drops == c0.drops + 1);
        assert_true(c1.sites_eroded - c0.sites_eroded == lowered);
        assert_true(c1.walk_steps - c0.walk_steps >= lowered - 1);
        assert_true(c1.capped_walks == 0);
        assert_int_equal(in_row0, 1); /* it stopped on reaching row 0 */
        /* The lowered sites are 4-connected. */
        size_t stack[72], top = 0, seen = 0;
        for (size_t i = 0; i < n && top == 0; i++)
            if (mark[i]) {
                mark[i] = 2;
                stack[top++] = i;
            }
        while (top > 0) {
            size_t s = stack[--top];
            seen++;
            size_t x = s % 9;
            const long off[4] = {-9, -1, 1, 9};
            for (int k = 0; k < 4; k++) {
                if ((k == 1 && x == 0) || (k == 2 && x == 8))
                    continue;
                long m = (long)s + off[k];
                if (m >= 0 && m < (long)n && mark[m] == 1) {
                    mark[m] = 2;
                    stack[top++] = (size_t)m;
                }
            }
        }
        assert_int_equal(seen, lowered);
        free(before);
        before = after;
    }
    /* A drop that starts in row 0 is already there: one site, no move. */
    cdyn_lattice_counters c0 = {.size = sizeof c0}, c1 = {.size = sizeof c1};
    cdyn_lattice_get_counters(lat, &c0);
    assert_int_equal(cdyn_lattice_rain_at(lat, 4, 0, 1), CDYN_OK);
    cdyn_lattice_get_counters(lat, &c1);
    assert_true(c1.walk_steps == c0.walk_steps && c1.sites_eroded == c0.sites_eroded + 1);
    double *after = heights_of(lat, NULL);
    for (size_t i = 0; i < n; i++)
        assert_true(after[i] == (i == 4 ? before[i] - 0.125 : before[i]));
    assert_int_equal(cdyn_lattice_rain_at(lat, 9, 0, 1), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_rain_at(lat, 0, 8, 1), CDYN_ERR_INVALID_ARGUMENT);
    free(before);
    free(after);
    cdyn_lattice_destroy(lat);
}

static void test_walk_cap_ends_and_counts(void **state)
{
    (void)state;
    /* A flat lattice far from row 0 with a cap of 2 moves. */
    cdyn_lattice *lat = make(5, 30, 9);
    assert_int_equal(cdyn_lattice_init_tilted(lat, 0, 0), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_walk_cap(lat, 2), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain(lat, 0), CDYN_OK);
    size_t n;
    double *before = heights_of(lat, &n);
    assert_int_equal(cdyn_lattice_rain_at(lat, 2, 29, 3), CDYN_OK);
    cdyn_lattice_counters c = {.size = sizeof c};
    assert_int_equal(cdyn_lattice_get_counters(lat, &c), CDYN_OK);
    assert_true(c.capped_walks == 3 && c.drops == 3);
    assert_true(c.walk_steps == 6);
    /* They never reached the outlet: nothing is eroded. */
    assert_true(c.sites_eroded == 0 && c.total_eroded == 0);
    double *after = heights_of(lat, NULL);
    assert_memory_equal(after, before, n * sizeof *after);
    free(before);
    free(after);
    cdyn_lattice_destroy(lat);
}

static void check_invariant_and_conservation(size_t w, size_t ht, int periodic, uint64_t seed)
{
    cdyn_lattice *lat = make(w, ht, seed);
    const double M = 0.6;
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_D, 0.2), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_M, M), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_S, 3.0), CDYN_OK);
    if (periodic)
        assert_int_equal(cdyn_lattice_set_boundary(lat, CDYN_LATTICE_PERIODIC), CDYN_OK);
    size_t n;
    double *h0 = heights_of(lat, &n), total0 = 0;
    for (size_t i = 0; i < n; i++)
        total0 += h0[i];
    /* The default surface is steeper than M: the first call relaxes it. */
    assert_true(max_step(h0, w, ht, periodic) > M);
    for (int d = 0; d < 300; d++) {
        assert_int_equal(cdyn_lattice_rain(lat, 1), CDYN_OK);
        double *h = heights_of(lat, NULL);
        assert_true(max_step(h, w, ht, periodic) <= M);
        free(h);
    }
    cdyn_lattice_counters c = {.size = sizeof c};
    assert_int_equal(cdyn_lattice_get_counters(lat, &c), CDYN_OK);
    assert_true(c.slides > 0 && c.slide_rounds > 0);
    double *h = heights_of(lat, NULL), total = 0;
    for (size_t i = 0; i < n; i++)
        total += h[i];
    double removed = total0 - total;
    assert_true(fabs(c.total_eroded - 0.2 * (double)c.sites_eroded) <=
                1e-12 * c.total_eroded);
    assert_true(fabs(removed - (c.total_eroded + c.total_slid)) <= 1e-9 * removed);
    free(h0);
    free(h);
    cdyn_lattice_destroy(lat);
}

static void test_slide_invariant_and_conservation(void **state)
{
    (void)state;
    check_invariant_and_conservation(24, 20, 0, 1);
    check_invariant_and_conservation(17, 23, 1, 2);
}

/* Follows receivers from every site: each chain reaches row 0 within n
 * steps; returns the drainage counted the slow way. */
static uint32_t *naive_drainage(const uint32_t *recv, size_t w, size_t n)
{
    uint32_t *d = calloc(n, sizeof *d);
    for (size_t i = 0; i < n; i++) {
        size_t s = i, steps = 0;
        for (;;) {
            d[s]++;
            if (recv[s] == s)
                break;
            s = recv[s];
            assert_true(++steps <= n);
        }
        assert_true(s < w);
    }
    return d;
}

/* Levels the slow way: lowest over paths to row 0 of the highest height,
 * by relaxation until nothing changes. */
static double *naive_levels(const double *h, size_t w, size_t n, int periodic)
{
    double *lv = malloc(n * sizeof *lv);
    for (size_t i = 0; i < n; i++)
        lv[i] = i < w ? h[i] : INFINITY;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = w; i < n; i++) {
            size_t x = i % w;
            double m = lv[i - w];
            if (x > 0 && lv[i - 1] < m) m = lv[i - 1];
            if (x + 1 < w && lv[i + 1] < m) m = lv[i + 1];
            if (periodic && x == 0 && lv[i + w - 1] < m) m = lv[i + w - 1];
            if (periodic && x + 1 == w && lv[i + 1 - w] < m) m = lv[i + 1 - w];
            if (i + w < n && lv[i + w] < m) m = lv[i + w];
            double v = h[i] > m ? h[i] : m;
            if (v < lv[i]) {
                lv[i] = v;
                changed = 1;
            }
        }
    }
    return lv;
}

static int is_neighbour(size_t a, size_t b, size_t w, int periodic)
{
    size_t ax = a % w, bx = b % w, ay = a / w, by = b / w;
    if (ax == bx)
        return ay + 1 == by || by + 1 == ay;
    if (ay != by)
        return 0;
    return ax + 1 == bx || bx + 1 == ax || (periodic && (ax + bx == w - 1) && (ax == 0 || bx == 0));
}

static void check_drainage(cdyn_lattice *lat, int periodic)
{
    size_t w, ht;
    cdyn_lattice_get_size(lat, &w, &ht);
    size_t n = w * ht;
    double *h = heights_of(lat, NULL);
    uint32_t *d = malloc(n * sizeof *d), *r = malloc(n * sizeof *r);
    assert_int_equal(cdyn_lattice_compute_drainage(lat, d, n), CDYN_OK);
    assert_int_equal(cdyn_lattice_compute_receivers(lat, r, n), CDYN_OK);
    uint32_t *nd = naive_drainage(r, w, n);
    assert_memory_equal(d, nd, n * sizeof *d);
    uint64_t out = 0;
    for (size_t x = 0; x < w; x++) {
        assert_int_equal(r[x], x);
        out += d[x];
    }
    assert_true(out == n);
    /* Every receiver is a neighbour of lowest level (the filled surface),
     * never higher than the site itself. */
    double *lv = naive_levels(h, w, n, periodic);
    for (size_t i = w; i < n; i++) {
        assert_true(is_neighbour(i, r[i], w, periodic));
        assert_true(lv[r[i]] <= lv[i]);
        size_t x = i % w;
        double m = lv[i - w];
        if (x > 0 && lv[i - 1] < m) m = lv[i - 1];
        if (x + 1 < w && lv[i + 1] < m) m = lv[i + 1];
        if (periodic && x == 0 && lv[i + w - 1] < m) m = lv[i + w - 1];
        if (periodic && x + 1 == w && lv[i + 1 - w] < m) m = lv[i + 1 - w];
        if (i + w < n && lv[i + w] < m) m = lv[i + w];
        assert_true(lv[r[i]] == m);
    }
    free(h);
    free(d);
    free(r);
    free(nd);
    free(lv);
}

static void test_drainage_tilted_plane(void **state)
{
    (void)state;
    for (int periodic = 0; periodic < 2; periodic++) {
        cdyn_lattice *lat = make(6, 9, 1);
        assert_int_equal(cdyn_lattice_init_tilted(lat, 0.5, 0.0), CDYN_OK);
        if (periodic)
            assert_int_equal(cdyn_lattice_set_boundary(lat, CDYN_LATTICE_PERIODIC), CDYN_OK);
        uint32_t d[54];
        assert_int_equal(cdyn_lattice_compute_drainage(lat, d, 54), CDYN_OK);
        for (size_t i = 0; i < 54; i++)
            assert_int_equal(d[i], 9 - i / 6); /* straight down each column */
        check_drainage(lat, periodic);
        /* A flat lattice drains straight down too (breadth-first from row 0). */
        assert_int_equal(cdyn_lattice_init_tilted(lat, 0.0, 0.0), CDYN_OK);
        assert_int_equal(cdyn_lattice_compute_drainage(lat, d, 54), CDYN_OK);
        for (size_t i = 0; i < 54; i++)
            assert_int_equal(d[i], 9 - i / 6);
        assert_int_equal(cdyn_lattice_compute_drainage(lat, d, 53), CDYN_ERR_INVALID_ARGUMENT);
        assert_int_equal(cdyn_lattice_compute_drainage(lat, NULL, 0), CDYN_OK);
        cdyn_lattice_destroy(lat);
    }
}

static void test_drainage_pits_reach_the_outlet(void **state)
{
    (void)state;
    /* A 5 x 5 basin: a deep pit at (2,2) in a ring of 5s, spilling over
     * (1,1) = 4 towards row 0. */
    const double h[25] = {0, 1, 1, 1, 1,
                          3, 4, 5, 5, 3,
                          5, 5, -3, 5, 5,
                          5, 5, 5, 5, 5,
                          9, 9, 9, 9, 9};
    cdyn_lattice *lat = make(5, 5, 1);
    assert_int_equal(cdyn_lattice_set_heights(lat, h, 25), CDYN_OK);
    uint32_t d[25], r[25];
    assert_int_equal(cdyn_lattice_compute_drainage(lat, d, 25), CDYN_OK);
    assert_int_equal(cdyn_lattice_compute_receivers(lat, r, 25), CDYN_OK);
    /* The pit drains to a ring neighbour of level 5 and out. */
    assert_true(r[12] == 7 || r[12] == 11 || r[12] == 13 || r[12] == 17);
    uint64_t out = 0;
    for (int x = 0; x < 5; x++)
        out += d[x];
    assert_true(out == 25);
    check_drainage(lat, 0);
    uint8_t mask[25];
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_R, 3), CDYN_OK);
    assert_int_equal(cdyn_lattice_compute_network(lat, mask, 25), CDYN_OK);
    for (int i = 0; i < 25; i++)
        assert_int_equal(mask[i], d[i] >= 3);
    assert_int_equal(cdyn_lattice_compute_network(lat, NULL, 25), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_compute_receivers(lat, r, 24), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_lattice_destroy(lat);

    /* Rough random surfaces full of pits and flats (heights quantized so
     * that ties are common), both side boundaries. */
    uint64_t s = 12345;
    for (int k = 0; k < 12; k++) {
        size_t w = 3 + (size_t)k * 2, ht = 20 - (size_t)k;
        int periodic = k % 2;
        lat = make(w, ht, (uint64_t)k);
        double *g = malloc(w * ht * sizeof *g);
        for (size_t i = 0; i < w * ht; i++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            g[i] = 0.1 * (double)(i / w) + (double)((s >> 33) % 7);
        }
        assert_int_equal(cdyn_lattice_set_heights(lat, g, w * ht), CDYN_OK);
        if (periodic)
            assert_int_equal(cdyn_lattice_set_boundary(lat, CDYN_LATTICE_PERIODIC), CDYN_OK);
        check_drainage(lat, periodic);
        free(g);
        cdyn_lattice_destroy(lat);
    }
}

/* Receivers from a picture: one character per site, the top row (y = H - 1)
 * first: 'o' an outlet (its own receiver), 'v' down (y - 1), '^' up, '<'
 * left, '>' right. */
static void receivers_from_picture(const char *pic, size_t w, size_t ht, uint32_t *out)
{
    size_t k = 0;
    for (size_t row = 0; row < ht; row++) {
        size_t y = ht - 1 - row;
        for (size_t x = 0; x < w; x++) {
            while (pic[k] == ' ' || pic[k] == '\n')
                k++;
            size_t i = y * w + x;
            switch (pic[k++]) {
            case 'o': out[i] = (uint32_t)i; break;
            case 'v': out[i] = (uint32_t)(i - w); break;
            case '^': out[i] = (uint32_t)(i + w); break;
            case '<': out[i] = (uint32_t)(i - 1); break;
            case '>': out[i] = (uint32_t)(i + 1); break;
            default: fail_msg("bad picture character at %zu", k - 1);
            }
        }
    }
}

/* Ties at the flood's level. A walled basin drains through one gap at
 * (4, 1); inside, a flat at height 1 with two holes at 0.5. The flood
 * enters at the gap at level 1 and every flat site (h = 1, exactly the
 * level) is drowned at once and joins the breadth-first queue with the
 * holes: each drains to the neighbour that reached it first, along a
 * shortest path to the gap. Row 2 turns towards the gap; rows 3 to 5 run
 * straight down, past the holes. (Treating sites exactly at the level as
 * higher would send them through the heap after the holes, and the holes
 * would pull (1, 3) and (7, 3) sideways.) */
static void test_flat_ties_at_the_flood_level(void **state)
{
    (void)state;
    const double h[63] = {0, 0, 0,   0, 0, 0, 0,   0, 0,
                          5, 5, 5,   5, 1, 5, 5,   5, 5,
                          5, 1, 1,   1, 1, 1, 1,   1, 5,
                          5, 1, 0.5, 1, 1, 1, 0.5, 1, 5,
                          5, 1, 1,   1, 1, 1, 1,   1, 5,
                          5, 1, 1,   1, 1, 1, 1,   1, 5,
                          5, 5, 5,   5, 5, 5, 5,   5, 5};
    const char *want_pic = "v v v v v v v v v"  /* y = 6: the top wall */
                           "> v v v v v v v <"
                           "> v v v v v v v <"
                           "> v v v v v v v <"  /* y = 3: the holes' row */
                           "> > > > v < < < <"  /* y = 2: towards the gap */
                           "v v v v v v v v v"  /* y = 1: the wall and its gap */
                           "o o o o o o o o o"; /* y = 0: the outlets */
    uint32_t want[63], got[63];
    receivers_from_picture(want_pic, 9, 7, want);
    cdyn_lattice *lat = make(9, 7, 1);
    assert_int_equal(cdyn_lattice_set_heights(lat, h, 63), CDYN_OK);
    assert_int_equal(cdyn_lattice_compute_receivers(lat, got, 63), CDYN_OK);
    for (size_t i = 0; i < 63; i++)
        if (got[i] != want[i])
            fail_msg("site (%zu, %zu): receiver %u, want %u", i % 9, i / 9, got[i], want[i]);
    check_drainage(lat, 0);
    cdyn_lattice_destroy(lat);
}

static void test_drainage_follows_rain(void **state)
{
    (void)state;
    /* The cached drainage is recomputed after the heights change. */
    cdyn_lattice *lat = make(16, 16, 4);
    uint32_t a[256], b[256];
    assert_int_equal(cdyn_lattice_compute_drainage(lat, a, 256), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain(lat, 2000), CDYN_OK);
    assert_int_equal(cdyn_lattice_compute_drainage(lat, b, 256), CDYN_OK);
    assert_true(memcmp(a, b, sizeof a) != 0);
    check_drainage(lat, 0);
    cdyn_lattice_destroy(lat);
}

#ifndef PINNED_HASH
#define PINNED_HASH 0xf1e02307952eecf7ULL
#endif

static uint64_t run_hash(uint64_t seed, int periodic)
{
    cdyn_lattice *lat = make(48, 40, seed);
    if (periodic)
        assert_int_equal(cdyn_lattice_set_boundary(lat, CDYN_LATTICE_PERIODIC), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_D, 0.05), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain(lat, 3000), CDYN_OK);
    size_t n;
    double *h = heights_of(lat, &n);
    uint64_t hash = ts_hash_bytes(h, n * sizeof *h, 0);
    cdyn_lattice_counters c = {.size = sizeof c};
    cdyn_lattice_get_counters(lat, &c);
    hash = ts_hash_bytes(&c.walk_steps, sizeof c.walk_steps, hash);
    free(h);
    cdyn_lattice_destroy(lat);
    return hash;
}

static void test_same_seed_same_heights(void **state)
{
    (void)state;
    uint64_t a = run_hash(77, 0), b = run_hash(77, 0), c = run_hash(78, 0);
    assert_true(a == b);
    assert_true(a != c);
    assert_true(run_hash(77, 1) == run_hash(77, 1));
    assert_true(run_hash(77, 1) != a);
    /* Pinned: the same on every platform (integer generator, no libm in
     * the walk, no contraction). A deliberate change of the model updates
     * this value and says so in CHANGELOG.md. */
    if (a != PINNED_HASH)
        print_message("run hash 0x%016llxULL\n", (unsigned long long)a);
    assert_true(a == PINNED_HASH);
}

/* Out of memory at every allocation: each call fails cleanly, changes
 * nothing, leaks nothing, and the lattice stays usable. */
static void test_out_of_memory_everywhere(void **state)
{
    (void)state;
    int completed = 0;
    for (size_t fail = 1; !completed; fail++) {
        ts_counting_alloc st = {0};
        st.fail_at = fail;
        cdyn_allocator a = ts_counting_allocator(&st);
        cdyn_lattice *lat = NULL;
        cdyn_status s = cdyn_lattice_create(20, 15, 3, &a, &lat);
        if (s != CDYN_OK) {
            assert_int_equal(s, CDYN_ERR_NO_MEMORY);
            assert_null(lat);
            assert_int_equal(st.live_bytes, 0);
            continue;
        }
        double *before = heights_of(lat, NULL);
        s = cdyn_lattice_rain(lat, 50);
        if (s != CDYN_OK) {
            assert_int_equal(s, CDYN_ERR_NO_MEMORY);
            double *now = heights_of(lat, NULL);
            assert_memory_equal(now, before, 300 * sizeof(double));
            free(now);
            st.fail_at = 0;
            assert_int_equal(cdyn_lattice_rain(lat, 50), CDYN_OK);
        }
        free(before);
        before = heights_of(lat, NULL);
        uint32_t d[300];
        s = cdyn_lattice_compute_drainage(lat, d, 300);
        if (s != CDYN_OK) {
            assert_int_equal(s, CDYN_ERR_NO_MEMORY);
            st.fail_at = 0;
            assert_int_equal(cdyn_lattice_compute_drainage(lat, d, 300), CDYN_OK);
        }
        cdyn_lattice_stats stats = {.size = sizeof stats};
        s = cdyn_lattice_compute_stats(lat, NULL, &stats);
        if (s != CDYN_OK) {
            assert_int_equal(s, CDYN_ERR_NO_MEMORY);
            st.fail_at = 0;
            assert_int_equal(cdyn_lattice_compute_stats(lat, NULL, &stats), CDYN_OK);
        } else if (st.failed == 0) {
            completed = 1;
        }
        double *now = heights_of(lat, NULL);
        assert_memory_equal(now, before, 300 * sizeof(double));
        free(now);
        free(before);
        cdyn_lattice_destroy(lat);
        assert_int_equal(st.live_bytes, 0);
        assert_int_equal(st.allocs - (st.failed ? 1 : 0), st.frees);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_and_bad_sizes),
        cmocka_unit_test(test_parameters),
        cmocka_unit_test(test_heights_and_initial_surface),
        cmocka_unit_test(test_drop_rules),
        cmocka_unit_test(test_walk_cap_ends_and_counts),
        cmocka_unit_test(test_slide_invariant_and_conservation),
        cmocka_unit_test(test_drainage_tilted_plane),
        cmocka_unit_test(test_drainage_pits_reach_the_outlet),
        cmocka_unit_test(test_flat_ties_at_the_flood_level),
        cmocka_unit_test(test_drainage_follows_rain),
        cmocka_unit_test(test_same_seed_same_heights),
        cmocka_unit_test(test_out_of_memory_everywhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
