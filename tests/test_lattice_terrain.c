/* Drainage of terrain: D8 routing on hand-made terrains with known
 * receivers and areas, D8 and D4 agreeing on planes tilted along an axis,
 * D4 and D8 against an independent brute-force routing on random terrains
 * (levels by relaxation, steepest descents, breadth-first distances on
 * flats), and conservation of water with any outlet edges, outlet mask and
 * no-data pattern. */
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
    assert_int_equal(cdyn_lattice_create(w, h, 1, NULL, &lat), CDYN_OK);
    if (heights)
        assert_int_equal(cdyn_lattice_set_heights(lat, heights, w * h), CDYN_OK);
    return lat;
}

/* ---- an independent routing, the slow way ------------------------------ */

typedef struct terrain {
    size_t w, h, n;
    int periodic, d8;
    double dx, dy;
    const double *z;
    const uint8_t *outlet; /* 1: an outlet (edges, mask, next to no-data) */
    const uint8_t *nodata;
} terrain;

/* The neighbours of @p i in the documented order (down, left, right, up,
 * then down-left, down-right, up-left, up-right), and their distances. */
static int neighbours(const terrain *t, size_t i, size_t nb[8], double dist[8])
{
    long w = (long)t->w, x = (long)(i % t->w), y = (long)(i / t->w);
    const long off[8][2] = {{0, -1}, {-1, 0}, {1, 0}, {0, 1}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    int k = 0;
    for (int d = 0; d < (t->d8 ? 8 : 4); d++) {
        long nx = x + off[d][0], ny = y + off[d][1];
        if (ny < 0 || ny >= (long)t->h)
            continue;
        if (nx < 0 || nx >= w) {
            if (!t->periodic)
                continue;
            nx = (nx + w) % w;
        }
        nb[k] = (size_t)(ny * w + nx);
        dist[k] = d < 4 ? (off[d][0] ? t->dx : t->dy) : sqrt(t->dx * t->dx + t->dy * t->dy);
        k++;
    }
    return k;
}

/* Levels: the lowest, over paths to an outlet, of the highest height on the
 * path (infinite where no outlet is reached; no-data never crossed). */
static double *levels(const terrain *t)
{
    double *lv = malloc(t->n * sizeof *lv);
    for (size_t i = 0; i < t->n; i++)
        lv[i] = t->outlet[i] && !t->nodata[i] ? t->z[i] : INFINITY;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < t->n; i++) {
            if (t->nodata[i] || t->outlet[i])
                continue;
            size_t nb[8];
            double d[8], m = INFINITY;
            int k = neighbours(t, i, nb, d);
            for (int j = 0; j < k; j++)
                if (!t->nodata[nb[j]] && lv[nb[j]] < m)
                    m = lv[nb[j]];
            double v = t->z[i] > m ? t->z[i] : m;
            if (v < lv[i]) {
                lv[i] = v;
                changed = 1;
            }
        }
    }
    return lv;
}

/* Checks the lattice's receivers against the slow routing: outlets drain to
 * themselves; a site above some neighbour's level drains to a neighbour of
 * lowest level (D4) or exactly to its steepest descent (D8: level
 * difference times 1 / distance, ties to the first in order); a site on a
 * flat of the filled surface drains to a neighbour of its level one step
 * closer (breadth-first) to where the flat is left. */
static void check_routing(const terrain *t, const uint32_t *r)
{
    double *lv = levels(t);
    /* Breadth-first distance on flats from the sites that leave them. */
    size_t *dist = malloc(t->n * sizeof *dist);
    for (size_t i = 0; i < t->n; i++) {
        dist[i] = SIZE_MAX;
        if (t->nodata[i] || !isfinite(lv[i]))
            continue;
        size_t nb[8];
        double d[8];
        int k = neighbours(t, i, nb, d), lower = 0;
        for (int j = 0; j < k; j++)
            lower |= !t->nodata[nb[j]] && lv[nb[j]] < lv[i];
        if (lower || t->outlet[i])
            dist[i] = 0;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < t->n; i++) {
            if (t->nodata[i] || !isfinite(lv[i]) || dist[i] == 0)
                continue;
            size_t nb[8];
            double d[8];
            int k = neighbours(t, i, nb, d);
            for (int j = 0; j < k; j++)
                if (!t->nodata[nb[j]] && lv[nb[j]] == lv[i] && dist[nb[j]] != SIZE_MAX &&
                    dist[nb[j]] + 1 < dist[i]) {
                    dist[i] = dist[nb[j]] + 1;
                    changed = 1;
                }
        }
    }
    for (size_t i = 0; i < t->n; i++) {
        if (t->nodata[i]) {
            assert_true(r[i] == CDYN_LATTICE_NO_RECEIVER);
            continue;
        }
        assert_true(isfinite(lv[i])); /* every site reaches an outlet here */
        if (t->outlet[i]) {
            assert_int_equal(r[i], i);
            continue;
        }
        size_t nb[8];
        double d[8];
        int k = neighbours(t, i, nb, d), found = 0;
        for (int j = 0; j < k; j++)
            found |= nb[j] == r[i];
        assert_true(found);
        if (dist[i] == 0) {
            double lowest = INFINITY, steepest = -1;
            size_t best = SIZE_MAX;
            for (int j = 0; j < k; j++) {
                if (t->nodata[nb[j]])
                    continue;
                lowest = fmin(lowest, lv[nb[j]]);
                double s = (lv[i] - lv[nb[j]]) * (1.0 / d[j]);
                if (lv[nb[j]] < lv[i] && s > steepest) {
                    steepest = s;
                    best = nb[j];
                }
            }
            if (t->d8)
                assert_int_equal(r[i], best);
            else
                assert_true(lv[r[i]] == lowest);
        } else {
            assert_true(lv[r[i]] == lv[i]);
            assert_true(dist[r[i]] + 1 == dist[i]);
        }
    }
    free(lv);
    free(dist);
}

/* ---- hand-made terrains ------------------------------------------------ */

/* A 3 x 3 peak with every edge open: the centre drains to the steepest of
 * its eight neighbours, a diagonal here (5 / sqrt 2 = 3.5 beats 2 / 1). */
static void test_d8_peak(void **state)
{
    (void)state;
    const double h[9] = {5, 8, 5,
                         8, 10, 8,
                         5, 8, 6};
    cdyn_lattice *lat = make(3, 3, h);
    assert_int_equal(cdyn_lattice_set_outlet_edges(lat, CDYN_LATTICE_EDGE_BOTTOM |
                                                            CDYN_LATTICE_EDGE_TOP |
                                                            CDYN_LATTICE_EDGE_LEFT |
                                                            CDYN_LATTICE_EDGE_RIGHT),
                     CDYN_OK);
    uint32_t r[9], d[9];
    assert_int_equal(cdyn_lattice_compute_receivers(lat, r, 9), CDYN_OK);
    assert_int_equal(r[4], 1); /* D4: the lowest 4-neighbour, the first of equals */
    assert_int_equal(cdyn_lattice_set_routing(lat, CDYN_LATTICE_D8), CDYN_OK);
    assert_int_equal(cdyn_lattice_compute_receivers(lat, r, 9), CDYN_OK);
    assert_int_equal(r[4], 0); /* down-left: the first of the three diagonals at 5 */
    assert_int_equal(cdyn_lattice_compute_drainage(lat, d, 9), CDYN_OK);
    const uint32_t want[9] = {2, 1, 1, 1, 1, 1, 1, 1, 1};
    assert_memory_equal(d, want, sizeof want);
    for (int i = 0; i < 9; i++)
        if (i != 4)
            assert_int_equal(r[i], i);
    /* Cells 3.5 times as long along y: going down (y - 1) by 6 over 3.5 is
     * gentler than left by 2 over 1; with 2.5 it is steeper. The diagonals
     * fall 1 over more than 2.5. */
    const double h2[9] = {9, 4, 9,
                          8, 10, 9,
                          9, 9, 9};
    assert_int_equal(cdyn_lattice_set_heights(lat, h2, 9), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_cell_size(lat, 1, 3.5), CDYN_OK);
    assert_int_equal(cdyn_lattice_compute_receivers(lat, r, 9), CDYN_OK);
    assert_int_equal(r[4], 3); /* left: 2 / 1 beats down 6 / 3.5 */
    assert_int_equal(cdyn_lattice_set_cell_size(lat, 1, 2.5), CDYN_OK);
    assert_int_equal(cdyn_lattice_compute_receivers(lat, r, 9), CDYN_OK);
    assert_int_equal(r[4], 1); /* down: 6 / 2.5 beats 2 */
    double area[9];
    assert_int_equal(cdyn_lattice_compute_drainage_area(lat, area, 9), CDYN_OK);
    assert_true(area[1] == 2 * 2.5 && area[0] == 2.5 && area[4] == 2.5);
    cdyn_lattice_destroy(lat);
}

/* A valley running diagonally down a 5 x 5 plane to the corner (0, 0):
 * D8 follows it in diagonal steps, D4 in a staircase; both carry all 25
 * units out of the corner region, and the diagonal's drainage grows by the
 * sites beside it. */
static void test_d8_diagonal_valley(void **state)
{
    (void)state;
    double h[25];
    for (int i = 0; i < 25; i++) {
        int x = i % 5, y = i / 5;
        h[i] = 1.0 * (x + y) + 3.0 * abs(x - y);
    }
    cdyn_lattice *lat = make(5, 5, h);
    assert_int_equal(cdyn_lattice_set_outlet_edges(lat, 0), CDYN_OK);
    const uint8_t corner[25] = {1};
    assert_int_equal(cdyn_lattice_set_outlet_mask(lat, corner, 25), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_routing(lat, CDYN_LATTICE_D8), CDYN_OK);
    uint32_t r[25], d[25];
    assert_int_equal(cdyn_lattice_compute_receivers(lat, r, 25), CDYN_OK);
    assert_int_equal(cdyn_lattice_compute_drainage(lat, d, 25), CDYN_OK);
    for (int k = 1; k < 5; k++)
        assert_int_equal(r[k * 6], (k - 1) * 6); /* down the diagonal */
    assert_int_equal(d[0], 25);
    assert_int_equal(r[0], 0);
    /* Off the diagonal, a site above it (x < y) drains down-right or down
     * towards it, never away. */
    for (int i = 0; i < 25; i++) {
        int x = i % 5, y = i / 5, rx = (int)r[i] % 5, ry = (int)r[i] / 5;
        if (i != 0)
            assert_true(abs(rx - ry) < abs(x - y) || (x == y && rx == ry));
    }
    cdyn_lattice_destroy(lat);
}

/* A plane tilted along an axis: D4 and D8 give the same receivers, straight
 * down the slope (a diagonal falls as much over sqrt 2 times the distance),
 * towards row 0 and, tilted along x with the left edge open, towards x = 0. */
static void test_d8_and_d4_agree_on_tilted_planes(void **state)
{
    (void)state;
    enum { W = 9, H = 7, N = W * H };
    double h[N];
    uint32_t r4[N], r8[N];
    for (int axis = 0; axis < 2; axis++) {
        for (int periodic = 0; periodic < 2; periodic++) {
            if (axis == 1 && periodic)
                continue; /* no left edge then */
            for (int i = 0; i < N; i++)
                h[i] = axis == 0 ? 0.5 * (i / W) : 0.25 * (i % W);
            cdyn_lattice *lat = make(W, H, h);
            if (periodic)
                assert_int_equal(cdyn_lattice_set_boundary(lat, CDYN_LATTICE_PERIODIC), CDYN_OK);
            if (axis == 1)
                assert_int_equal(cdyn_lattice_set_outlet_edges(lat, CDYN_LATTICE_EDGE_LEFT),
                                 CDYN_OK);
            assert_int_equal(cdyn_lattice_compute_receivers(lat, r4, N), CDYN_OK);
            assert_int_equal(cdyn_lattice_set_routing(lat, CDYN_LATTICE_D8), CDYN_OK);
            assert_int_equal(cdyn_lattice_compute_receivers(lat, r8, N), CDYN_OK);
            assert_memory_equal(r4, r8, sizeof r4);
            for (int i = 0; i < N; i++) {
                int outlet = axis == 0 ? i < W : i % W == 0;
                assert_int_equal(r8[i], outlet ? i : axis == 0 ? i - W : i - 1);
            }
            cdyn_lattice_destroy(lat);
        }
    }
}

/* ---- random terrains against the slow routing -------------------------- */

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* Sets up a random terrain on @p lat (quantized heights so that flats and
 * ties are common; optional masks and edges) and fills @p t and its
 * outlet/no-data arrays from what the lattice reports. */
static void random_terrain(cdyn_lattice *lat, terrain *t, double *z, uint8_t *outlet,
                           uint8_t *nodata, uint64_t *s, int masks, uint32_t edges)
{
    for (size_t i = 0; i < t->n; i++)
        z[i] = 0.05 * (double)(i / t->w) + (double)(next(s) % 5);
    assert_int_equal(cdyn_lattice_set_heights(lat, z, t->n), CDYN_OK);
    if (t->periodic)
        assert_int_equal(cdyn_lattice_set_boundary(lat, CDYN_LATTICE_PERIODIC), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_routing(lat, t->d8 ? CDYN_LATTICE_D8 : CDYN_LATTICE_D4),
                     CDYN_OK);
    assert_int_equal(cdyn_lattice_set_cell_size(lat, t->dx, t->dy), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_outlet_edges(lat, edges), CDYN_OK);
    uint8_t *mask = calloc(t->n, 1), *holes = calloc(t->n, 1);
    if (masks) {
        for (size_t i = 0; i < t->n; i++) {
            mask[i] = next(s) % 17 == 0;
            holes[i] = next(s) % 9 == 0;
        }
        holes[0] = 0;
        assert_int_equal(cdyn_lattice_set_outlet_mask(lat, mask, t->n), CDYN_OK);
        assert_int_equal(cdyn_lattice_set_nodata_mask(lat, holes, t->n), CDYN_OK);
    }
    memcpy(nodata, holes, t->n);
    /* Outlets by the documented rule, computed here. */
    for (size_t i = 0; i < t->n; i++) {
        size_t x = i % t->w, y = i / t->w;
        int o = mask[i] || ((edges & CDYN_LATTICE_EDGE_BOTTOM) && y == 0) ||
                ((edges & CDYN_LATTICE_EDGE_TOP) && y == t->h - 1) ||
                ((edges & CDYN_LATTICE_EDGE_LEFT) && x == 0) ||
                ((edges & CDYN_LATTICE_EDGE_RIGHT) && x == t->w - 1);
        if ((edges & CDYN_LATTICE_EDGE_NODATA) && !o) {
            size_t nb[8];
            double d[8];
            int k = neighbours(t, i, nb, d);
            for (int j = 0; j < k; j++)
                o |= holes[nb[j]];
        }
        outlet[i] = (uint8_t)(o && !holes[i]);
    }
    free(mask);
    free(holes);
}

static void test_routing_matches_brute_force(void **state)
{
    (void)state;
    uint64_t s = 2024;
    for (int k = 0; k < 48; k++) {
        terrain t = {0};
        t.w = 3 + (size_t)(k % 7) * 2;
        t.h = 4 + (size_t)(k % 5) * 3;
        t.n = t.w * t.h;
        t.d8 = k % 2;
        t.periodic = k % 3 == 0;
        t.dx = k % 4 == 1 ? 2.5 : 1;
        t.dy = k % 4 == 3 ? 0.75 : 1;
        int masks = k % 4 >= 2;
        /* Outlets on the bottom, on every open edge, or only next to
         * no-data; always the bottom too so that every site drains. */
        uint32_t edges = CDYN_LATTICE_EDGE_BOTTOM |
                         (k % 5 == 1 ? CDYN_LATTICE_EDGE_TOP : 0) |
                         (masks ? CDYN_LATTICE_EDGE_NODATA : 0) |
                         (!t.periodic && k % 5 == 2 ? CDYN_LATTICE_EDGE_LEFT | CDYN_LATTICE_EDGE_RIGHT : 0);
        double *z = malloc(t.n * sizeof *z);
        uint8_t *outlet = malloc(t.n), *nodata = malloc(t.n);
        uint32_t *r = malloc(t.n * sizeof *r);
        cdyn_lattice *lat = make(t.w, t.h, NULL);
        t.z = z;
        t.outlet = outlet;
        t.nodata = nodata;
        random_terrain(lat, &t, z, outlet, nodata, &s, masks, edges);
        /* The bottom row might be all no-data here: then some sites are
         * in closed basins, which the conservation test covers. */
        int closed = 0;
        double *lv = levels(&t);
        for (size_t i = 0; i < t.n; i++)
            closed |= !nodata[i] && !isfinite(lv[i]);
        free(lv);
        assert_int_equal(cdyn_lattice_compute_receivers(lat, r, t.n), CDYN_OK);
        if (!closed)
            check_routing(&t, r);
        cdyn_lattice_destroy(lat);
        free(z);
        free(outlet);
        free(nodata);
        free(r);
    }
}

/* ---- conservation ------------------------------------------------------ */

/* Every unit of water ends at a site that is its own receiver (an outlet,
 * or the lowest site of a basin no outlet reaches), and those sites'
 * drainages add up to the sites that hold data; no-data cells drain
 * nothing and receive nothing. Any edges, outlet mask and no-data pattern,
 * closed basins included. */
static void test_outlet_drainage_adds_up_to_the_valid_cells(void **state)
{
    (void)state;
    uint64_t s = 77;
    for (int k = 0; k < 60; k++) {
        terrain t = {0};
        t.w = 4 + (size_t)(k % 6);
        t.h = 3 + (size_t)(k % 7);
        t.n = t.w * t.h;
        t.d8 = k % 2;
        t.periodic = k % 5 == 0;
        t.dx = 1 + (double)(k % 3);
        t.dy = 1;
        uint32_t edges = (uint32_t)next(&s) % 32;
        if (t.periodic)
            edges &= ~(uint32_t)(CDYN_LATTICE_EDGE_LEFT | CDYN_LATTICE_EDGE_RIGHT);
        double *z = malloc(t.n * sizeof *z);
        uint8_t *outlet = malloc(t.n), *nodata = malloc(t.n);
        uint32_t *r = malloc(t.n * sizeof *r), *d = malloc(t.n * sizeof *d);
        t.z = z;
        t.outlet = outlet;
        t.nodata = nodata;
        cdyn_lattice *lat = make(t.w, t.h, NULL);
        random_terrain(lat, &t, z, outlet, nodata, &s, k % 3 != 0, edges);
        assert_int_equal(cdyn_lattice_compute_drainage(lat, d, t.n), CDYN_OK);
        assert_int_equal(cdyn_lattice_compute_receivers(lat, r, t.n), CDYN_OK);
        uint64_t valid = 0, out = 0;
        for (size_t i = 0; i < t.n; i++) {
            if (nodata[i]) {
                assert_int_equal(d[i], 0);
                assert_true(r[i] == CDYN_LATTICE_NO_RECEIVER);
                continue;
            }
            valid++;
            if (!(r[i] < t.n && !nodata[r[i]]))
                fail_msg("case %d (%zu x %zu, d8 %d, periodic %d, edges %u): site %zu drains to %u",
                         k, t.w, t.h, t.d8, t.periodic, (unsigned)edges, i, r[i]);
            if (r[i] == i) {
                out += d[i];
                /* An outlet, or a sink: the lowest of the sites draining
                 * to it (ties to the lowest index). */
                if (!outlet[i])
                    for (size_t j = 0; j < t.n; j++) {
                        size_t e = j, steps = 0;
                        while (r[e] != e && steps++ <= t.n)
                            e = r[e];
                        if (!nodata[j] && e == i)
                            assert_true(z[j] > z[i] || (z[j] == z[i] && j >= i));
                    }
            } else {
                assert_false(outlet[i]);
            }
            /* Each chain ends within n steps. */
            size_t e = i, steps = 0;
            while (r[e] != e) {
                e = r[e];
                assert_true(++steps <= t.n);
            }
        }
        assert_true(out == valid);
        /* The statistics count the same sites and outlets. */
        cdyn_lattice_stats st = {.size = sizeof st};
        assert_int_equal(cdyn_lattice_compute_stats(lat, NULL, &st), CDYN_OK);
        assert_true(st.sites == valid);
        uint64_t own = 0;
        for (size_t i = 0; i < t.n; i++)
            own += !nodata[i] && r[i] == i;
        assert_true(st.outlets == own);
        cdyn_lattice_destroy(lat);
        free(z);
        free(outlet);
        free(nodata);
        free(r);
        free(d);
    }
}

/* The generic entry points take CDYN_LATTICE_NO_RECEIVER for sites outside
 * the forest, and refuse a site that drains into one. */
static void test_forests_with_excluded_sites(void **state)
{
    (void)state;
    const uint32_t X = CDYN_LATTICE_NO_RECEIVER;
    const uint32_t tree[6] = {0, 0, X, 1, 1, X};
    uint32_t d[6];
    assert_int_equal(cdyn_lattice_drainage_from_receivers(6, tree, NULL, d), CDYN_OK);
    const uint32_t want[6] = {4, 3, 0, 1, 1, 0};
    assert_memory_equal(d, want, sizeof want);
    cdyn_lattice_stats st = {.size = sizeof st};
    assert_int_equal(cdyn_lattice_stats_from_receivers(6, tree, NULL, NULL, &st), CDYN_OK);
    assert_true(st.sites == 4 && st.outlets == 1 && st.max_drainage == 4);
    const uint32_t into_hole[3] = {0, 2, X};
    assert_int_equal(cdyn_lattice_drainage_from_receivers(3, into_hole, NULL, d),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_stats_from_receivers(3, into_hole, NULL, NULL, &st),
                     CDYN_ERR_INVALID_ARGUMENT);
    const uint32_t none[2] = {X, X};
    assert_int_equal(cdyn_lattice_stats_from_receivers(2, none, NULL, NULL, &st),
                     CDYN_ERR_INVALID_ARGUMENT);
}

/* The terrain settings read back; rain needs the model's outlets. */
static void test_settings_and_rain(void **state)
{
    (void)state;
    cdyn_lattice *lat = make(6, 5, NULL);
    cdyn_lattice_routing ro;
    uint32_t e;
    double a, b;
    assert_int_equal(cdyn_lattice_get_routing(lat, &ro), CDYN_OK);
    assert_int_equal(ro, CDYN_LATTICE_D4);
    assert_int_equal(cdyn_lattice_get_outlet_edges(lat, &e), CDYN_OK);
    assert_int_equal(e, CDYN_LATTICE_EDGE_BOTTOM);
    assert_int_equal(cdyn_lattice_get_cell_size(lat, &a, &b), CDYN_OK);
    assert_true(a == 1 && b == 1);
    assert_int_equal(cdyn_lattice_set_origin(lat, 500000.5, -12.25), CDYN_OK);
    assert_int_equal(cdyn_lattice_get_origin(lat, &a, &b), CDYN_OK);
    assert_true(a == 500000.5 && b == -12.25);
    uint8_t m[30] = {0}, got[30];
    m[7] = 9;
    assert_int_equal(cdyn_lattice_set_nodata_mask(lat, m, 30), CDYN_OK);
    assert_int_equal(cdyn_lattice_get_nodata_mask(lat, got, 30), CDYN_OK);
    for (int i = 0; i < 30; i++)
        assert_int_equal(got[i], i == 7);
    assert_int_equal(cdyn_lattice_get_outlet_mask(lat, got, 30), CDYN_OK);
    for (int i = 0; i < 30; i++)
        assert_int_equal(got[i], 0);
    /* Rain runs the erosion model, whose drops leave at row 0 only. */
    assert_int_equal(cdyn_lattice_rain(lat, 1), CDYN_ERR_UNSUPPORTED);
    assert_non_null(strstr(cdyn_lattice_last_error(lat), "cdyn_lattice_rain: "));
    assert_int_equal(cdyn_lattice_set_nodata_mask(lat, NULL, 0), CDYN_OK);
    assert_int_equal(cdyn_lattice_get_nodata_mask(lat, got, 30), CDYN_OK);
    for (int i = 0; i < 30; i++)
        assert_int_equal(got[i], 0);
    assert_int_equal(cdyn_lattice_set_outlet_edges(lat, CDYN_LATTICE_EDGE_TOP), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain(lat, 1), CDYN_ERR_UNSUPPORTED);
    assert_int_equal(cdyn_lattice_set_outlet_edges(lat, CDYN_LATTICE_EDGE_BOTTOM), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_routing(lat, CDYN_LATTICE_D8), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain(lat, 10), CDYN_OK); /* D8 is for the drainage */
    /* Periodic sides and open left or right edges exclude each other. */
    assert_int_equal(cdyn_lattice_set_outlet_edges(lat, CDYN_LATTICE_EDGE_LEFT), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_boundary(lat, CDYN_LATTICE_PERIODIC),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_set_outlet_edges(lat, CDYN_LATTICE_EDGE_BOTTOM), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_boundary(lat, CDYN_LATTICE_PERIODIC), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_outlet_edges(lat, CDYN_LATTICE_EDGE_RIGHT),
                     CDYN_ERR_INVALID_ARGUMENT);
    cdyn_lattice_destroy(lat);
}

/* Out of memory while setting a mask or draining with masks in D8: a
 * status, nothing changed, nothing leaked. */
static void test_terrain_out_of_memory(void **state)
{
    (void)state;
    for (size_t fail = 1; fail < 40; fail++) {
        ts_counting_alloc st = {0};
        cdyn_allocator a = ts_counting_allocator(&st);
        cdyn_lattice *lat = NULL;
        assert_int_equal(cdyn_lattice_create(7, 6, 3, &a, &lat), CDYN_OK);
        assert_int_equal(cdyn_lattice_set_routing(lat, CDYN_LATTICE_D8), CDYN_OK);
        assert_int_equal(cdyn_lattice_set_outlet_edges(lat, 0), CDYN_OK); /* a sink too */
        uint8_t m[42] = {0}, got[42];
        m[20] = 1;
        st.fail_at = st.allocs + fail;
        cdyn_status s = cdyn_lattice_set_nodata_mask(lat, m, 42);
        assert_true(s == CDYN_OK || s == CDYN_ERR_NO_MEMORY);
        assert_int_equal(cdyn_lattice_get_nodata_mask(lat, got, 42), CDYN_OK);
        assert_int_equal(got[20], s == CDYN_OK); /* set, or nothing changed */
        if (s == CDYN_OK) {
            uint32_t d[42];
            s = cdyn_lattice_compute_drainage(lat, d, 42);
            assert_true(s == CDYN_OK || s == CDYN_ERR_NO_MEMORY);
            if (s == CDYN_OK)
                assert_int_equal(d[20], 0);
        }
        if (s == CDYN_ERR_NO_MEMORY && !st.failed)
            fail_msg("no memory without a failed allocation");
        st.fail_at = 0;
        uint32_t d[42];
        assert_int_equal(cdyn_lattice_compute_drainage(lat, d, 42), CDYN_OK);
        cdyn_lattice_destroy(lat);
        assert_int_equal(st.live_bytes, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_d8_peak),
        cmocka_unit_test(test_d8_diagonal_valley),
        cmocka_unit_test(test_d8_and_d4_agree_on_tilted_planes),
        cmocka_unit_test(test_routing_matches_brute_force),
        cmocka_unit_test(test_outlet_drainage_adds_up_to_the_valid_cells),
        cmocka_unit_test(test_forests_with_excluded_sites),
        cmocka_unit_test(test_settings_and_rain),
        cmocka_unit_test(test_terrain_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
