/* Lattice snapshots: a run split by a save and a load equals the
 * uninterrupted run bit for bit (under both slide rules, with sites left
 * waiting to slide); the layout is the documented little-endian one;
 * damaged, truncated, foreign and out-of-range buffers are refused with
 * CDYN_ERR_FORMAT and nothing is created; out of memory leaks nothing. */
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

/* A lattice with every setting away from its default, rained on; under the
 * once rule it ends with sites waiting to slide. */
static cdyn_lattice *worked_lattice_rule(cdyn_lattice_slide_rule rule)
{
    cdyn_lattice *lat;
    assert_int_equal(cdyn_lattice_create(37, 29, 20261125, NULL, &lat), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_E, 3.5), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_D, 0.02), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_M, 1.5), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_S, 3.0), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_param(lat, CDYN_LATTICE_R, 20.0), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_walk_cap(lat, 500), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_boundary(lat, CDYN_LATTICE_PERIODIC), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_slide_rule(lat, rule), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain(lat, 3000), CDYN_OK);
    return lat;
}

static cdyn_lattice *worked_lattice(void)
{
    return worked_lattice_rule(CDYN_LATTICE_SLIDE_CASCADE);
}

/* Bytes of a version-2 snapshot of the 37 x 29 lattice with P pending and
 * no masks. */
static size_t snapshot_bytes(size_t pending)
{
    return 272 + 8 * 37 * 29 + 4 * pending;
}

static size_t pending_of(const cdyn_lattice *lat)
{
    cdyn_lattice_counters c = {.size = sizeof c};
    assert_int_equal(cdyn_lattice_get_counters(lat, &c), CDYN_OK);
    return (size_t)c.pending_sites;
}

static size_t save(const cdyn_lattice *lat, unsigned char **out)
{
    size_t size = 0, written = 0;
    assert_int_equal(cdyn_lattice_snapshot_size(lat, &size), CDYN_OK);
    assert_int_equal(size, snapshot_bytes(pending_of(lat)));
    *out = malloc(size);
    assert_non_null(*out);
    assert_int_equal(cdyn_lattice_save(lat, *out, size, &written), CDYN_OK);
    assert_int_equal(written, size);
    return size;
}

/* Heights, counters and drainage of a lattice, for comparisons. */
typedef struct outcome {
    double h[37 * 29];
    uint32_t drain[37 * 29];
    cdyn_lattice_counters c;
} outcome;

static void outcome_of(cdyn_lattice *lat, outcome *o)
{
    memset(o, 0, sizeof *o);
    assert_int_equal(cdyn_lattice_get_heights(lat, o->h, 37 * 29), CDYN_OK);
    assert_int_equal(cdyn_lattice_compute_drainage(lat, o->drain, 37 * 29), CDYN_OK);
    o->c.size = sizeof o->c;
    assert_int_equal(cdyn_lattice_get_counters(lat, &o->c), CDYN_OK);
}

static void restore_then_rain(cdyn_lattice_slide_rule rule)
{
    cdyn_lattice *lat = worked_lattice_rule(rule);
    if (rule == CDYN_LATTICE_SLIDE_ONCE)
        assert_true(pending_of(lat) > 0); /* the part of the state in question */
    unsigned char *buf;
    size_t size = save(lat, &buf);
    cdyn_lattice *copy;
    assert_int_equal(cdyn_lattice_load(buf, size, NULL, &copy), CDYN_OK);
    /* The settings came back. */
    double v;
    const cdyn_lattice_param params[5] = {CDYN_LATTICE_E, CDYN_LATTICE_D, CDYN_LATTICE_M,
                                          CDYN_LATTICE_S, CDYN_LATTICE_R};
    const double want[5] = {3.5, 0.02, 1.5, 3.0, 20.0};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(cdyn_lattice_get_param(copy, params[i], &v), CDYN_OK);
        assert_true(v == want[i]);
    }
    uint64_t cap;
    cdyn_lattice_boundary b;
    assert_int_equal(cdyn_lattice_get_walk_cap(copy, &cap), CDYN_OK);
    assert_int_equal(cap, 500);
    assert_int_equal(cdyn_lattice_get_boundary(copy, &b), CDYN_OK);
    assert_int_equal(b, CDYN_LATTICE_PERIODIC);
    /* Both go on raining: the random generator went along, so the drops,
     * the heights, the counters and the drainage are the same bits. */
    assert_int_equal(cdyn_lattice_rain(lat, 2000), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain(copy, 2000), CDYN_OK);
    static outcome a, c;
    outcome_of(lat, &a);
    outcome_of(copy, &c);
    assert_memory_equal(a.h, c.h, sizeof a.h);
    assert_memory_equal(a.drain, c.drain, sizeof a.drain);
    assert_memory_equal(&a.c, &c.c, sizeof a.c);
    assert_int_equal(a.c.drops, 5000);
    /* And the copy saves to the same bytes as the original. */
    unsigned char *b1, *b2;
    size_t s1 = save(lat, &b1), s2 = save(copy, &b2);
    assert_int_equal(s1, s2);
    assert_memory_equal(b1, b2, s1);
    free(b1), free(b2), free(buf);
    cdyn_lattice_slide_rule r2;
    assert_int_equal(cdyn_lattice_get_slide_rule(copy, &r2), CDYN_OK);
    assert_int_equal(r2, rule);
    cdyn_lattice_destroy(copy);
    cdyn_lattice_destroy(lat);
}

static void test_restore_then_rain_equals_one_run(void **state)
{
    (void)state;
    restore_then_rain(CDYN_LATTICE_SLIDE_CASCADE);
    restore_then_rain(CDYN_LATTICE_SLIDE_ONCE);
}

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* The documented layout, read byte by byte: the same on every platform. */
static void test_layout_is_little_endian(void **state)
{
    (void)state;
    cdyn_lattice *lat = worked_lattice();
    unsigned char *buf;
    size_t size = save(lat, &buf);
    assert_memory_equal(buf, "CDYNLAT", 8);
    assert_int_equal(buf[8], 2);
    assert_int_equal(buf[9] | buf[10] | buf[11], 0);
    assert_int_equal(le64(buf + 16), 37);
    assert_int_equal(le64(buf + 24), 29);
    double e, last;
    uint64_t u = le64(buf + 32);
    memcpy(&e, &u, sizeof e);
    assert_true(e == 3.5);
    assert_int_equal(le64(buf + 72), 500);
    assert_int_equal(le64(buf + 120), 3000); /* drops */
    assert_int_equal(le64(buf + 200) & 0xffffffffu, 0); /* the cascade rule */
    assert_int_equal(le64(buf + 208), (uint64_t)CDYN_LATTICE_EDGE_BOTTOM << 32); /* D4 */
    u = le64(buf + 216);
    memcpy(&e, &u, sizeof e);
    assert_true(e == 1.0); /* dx */
    assert_int_equal(le64(buf + 248), 0); /* no masks */
    assert_int_equal(le64(buf + 256), 0); /* nothing pending */
    static double hs[37 * 29];
    assert_int_equal(cdyn_lattice_get_heights(lat, hs, 37 * 29), CDYN_OK);
    u = le64(buf + 264 + 8 * (37 * 29 - 1));
    memcpy(&last, &u, sizeof last);
    assert_true(last == hs[37 * 29 - 1]);
    assert_int_equal(le64(buf + size - 8), ts_hash_bytes(buf, size - 8, 0xcbf29ce484222325ULL));
    free(buf);
    cdyn_lattice_destroy(lat);
}

static void expect_refused(const unsigned char *buf, size_t size, cdyn_status want)
{
    cdyn_lattice *out = (cdyn_lattice *)&out; /* not NULL: must be cleared */
    assert_int_equal(cdyn_lattice_load(buf, size, NULL, &out), want);
    assert_null(out);
}

/* Rewrites the checksum, so that a change reaches the value checks. */
static void reseal(unsigned char *buf, size_t size)
{
    uint64_t h = ts_hash_bytes(buf, size - 8, 0xcbf29ce484222325ULL);
    for (int i = 0; i < 8; i++)
        buf[size - 8 + (size_t)i] = (unsigned char)(h >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put_double(unsigned char *p, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    put64(p, u);
}

/* One value rewritten in a sealed buffer, and what loading it gives. */
typedef struct edit {
    size_t at;
    int kind; /* 4: u32, 8: u64, 'd': f64 */
    double value;
    cdyn_status want;
} edit;

static void test_damaged_buffers_are_refused(void **state)
{
    (void)state;
    cdyn_lattice *lat = worked_lattice();
    unsigned char *buf;
    size_t size = save(lat, &buf);
    unsigned char *bad = malloc(size + 1);
    /* Every single flipped bit, in every region, breaks the checksum (or
     * the magic, version or sizes before it). */
    const size_t where[] = {0, 7, 8, 12, 16, 24, 33, 72, 80, 88, 120, 176, 192, 200, 208,
                            216, 232, 248, 256, 264, size / 2, size - 9, size - 8, size - 1};
    for (size_t i = 0; i < sizeof where / sizeof *where; i++) {
        memcpy(bad, buf, size);
        bad[where[i]] ^= 0x10;
        expect_refused(bad, size, CDYN_ERR_FORMAT);
    }
    /* Truncated anywhere, or with a byte too many. */
    expect_refused(buf, 0, CDYN_ERR_FORMAT);
    expect_refused(buf, 100, CDYN_ERR_FORMAT);
    expect_refused(buf, size - 1, CDYN_ERR_FORMAT);
    memcpy(bad, buf, size);
    bad[size] = 0;
    expect_refused(bad, size + 1, CDYN_ERR_FORMAT);
    /* Sealed again but wrong inside: another version, sizes out of range,
     * values their setters refuse (among them an S so large that the old
     * cascade would never end, and heights beyond the valid range), the
     * generator's forbidden all-zero state. */
    const edit edits[] = {
        {8, 4, 1, CDYN_ERR_FORMAT},                  /* version 1 */
        {8, 4, 3, CDYN_ERR_FORMAT},                  /* version 3 */
        {12, 4, 1, CDYN_ERR_FORMAT},                 /* reserved */
        {16, 8, 1, CDYN_ERR_FORMAT},                 /* width 1 */
        {16, 8, 1e9, CDYN_ERR_FORMAT},               /* sizes and length disagree */
        {40, 'd', -1, CDYN_ERR_FORMAT},              /* D < 0 */
        {40, 'd', 1e101, CDYN_ERR_FORMAT},           /* D > the largest height */
        {56, 'd', 1, CDYN_ERR_FORMAT},               /* S = 1 */
        {56, 'd', 1e13, CDYN_ERR_FORMAT},            /* S beyond its range */
        {56, 'd', 1e12, CDYN_OK},                    /* the largest S */
        {72, 8, 0, CDYN_ERR_FORMAT},                 /* walk cap 0 */
        {72, 8, 64 * 37 * 29 + 1, CDYN_ERR_FORMAT},  /* walk cap > 64 W H */
        {72, 8, 64 * 37 * 29, CDYN_OK},              /* the largest walk cap */
        {80, 4, 2, CDYN_ERR_FORMAT},                 /* periodic flag */
        {84, 4, 7, CDYN_ERR_FORMAT},                 /* relax flag */
        {176, 'd', -1, CDYN_ERR_FORMAT},             /* total eroded < 0 */
        {184, 'd', INFINITY, CDYN_ERR_FORMAT},       /* total slid infinite */
        {200, 4, 2, CDYN_ERR_FORMAT},                /* slide rule */
        {204, 4, 1, CDYN_ERR_FORMAT},                /* reserved */
        {208, 4, 2, CDYN_ERR_FORMAT},                /* routing */
        {208, 4, 1, CDYN_OK},                        /* D8 */
        {212, 4, 32, CDYN_ERR_FORMAT},               /* an unknown edge */
        {212, 4, CDYN_LATTICE_EDGE_LEFT, CDYN_ERR_FORMAT}, /* with periodic sides */
        {212, 4, CDYN_LATTICE_EDGE_TOP | CDYN_LATTICE_EDGE_NODATA, CDYN_OK},
        {216, 'd', 0, CDYN_ERR_FORMAT},              /* dx */
        {224, 'd', 1e101, CDYN_ERR_FORMAT},          /* dy */
        {224, 'd', 2.5, CDYN_OK},
        {232, 'd', NAN, CDYN_ERR_FORMAT},            /* origin */
        {240, 'd', -1e300, CDYN_OK},
        {248, 4, 2, CDYN_ERR_FORMAT},                /* masks flag */
        {248, 4, 1, CDYN_ERR_FORMAT},                /* masks the length has no room for */
        {252, 4, 1, CDYN_ERR_FORMAT},                /* reserved */
        {264, 'd', NAN, CDYN_ERR_FORMAT},            /* height 0 */
        {264, 'd', -1.0000001e100, CDYN_ERR_FORMAT}, /* height 0 below the range */
        {264 + 8 * 100, 'd', 1e300, CDYN_ERR_FORMAT},
        {264, 'd', -1e100, CDYN_OK},                 /* the range's ends */
        {264 + 8, 'd', 1e100, CDYN_OK},
    };
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        memcpy(bad, buf, size);
        const edit *e = &edits[i];
        if (e->kind == 'd')
            put_double(bad + e->at, e->value);
        else if (e->kind == 8)
            put64(bad + e->at, (uint64_t)e->value);
        else
            for (int k = 0; k < 4; k++)
                bad[e->at + (size_t)k] = (unsigned char)((uint32_t)e->value >> (8 * k));
        reseal(bad, size);
        cdyn_lattice *out = (cdyn_lattice *)&out;
        cdyn_status got = cdyn_lattice_load(bad, size, NULL, &out);
        if (got != e->want)
            fail_msg("edit %zu (offset %zu): status %d, want %d", i, e->at, (int)got,
                     (int)e->want);
        if (got == CDYN_OK) {
            /* A lattice that loads saves to the same bytes. */
            unsigned char *again = malloc(size);
            assert_int_equal(cdyn_lattice_save(out, again, size, NULL), CDYN_OK);
            assert_memory_equal(again, bad, size);
            free(again);
            cdyn_lattice_destroy(out);
        } else {
            assert_null(out);
        }
    }
    memcpy(bad, buf, size);
    memset(bad + 88, 0, 32);
    reseal(bad, size);
    expect_refused(bad, size, CDYN_ERR_FORMAT);
    free(bad);
    free(buf);
    cdyn_lattice_destroy(lat);
}

/* The sites waiting to slide: each a site of the lattice, none twice, and
 * their count agreeing with the buffer's length. */
static void test_bad_pending_lists_are_refused(void **state)
{
    (void)state;
    cdyn_lattice *lat = worked_lattice_rule(CDYN_LATTICE_SLIDE_ONCE);
    unsigned char *buf;
    size_t size = save(lat, &buf);
    size_t p = pending_of(lat), list = size - 8 - 4 * p;
    assert_true(p >= 2);
    unsigned char *bad = malloc(size);
    memcpy(bad, buf, size);
    memcpy(bad + list, bad + list + 4, 4); /* the second site twice */
    reseal(bad, size);
    expect_refused(bad, size, CDYN_ERR_FORMAT);
    memcpy(bad, buf, size);
    put64(bad + 256, 37 * 29); /* more than the buffer holds */
    reseal(bad, size);
    expect_refused(bad, size, CDYN_ERR_FORMAT);
    memcpy(bad, buf, size);
    for (int k = 0; k < 4; k++)
        bad[list + (size_t)k] = (unsigned char)((37u * 29u) >> (8 * k)); /* not a site */
    reseal(bad, size);
    expect_refused(bad, size, CDYN_ERR_FORMAT);
    free(bad);
    free(buf);
    cdyn_lattice_destroy(lat);
}

/* The terrain settings and masks travel with the lattice: the copy has the
 * same settings and drains the same bits; damaged masks are refused. */
static void test_terrain_round_trip(void **state)
{
    (void)state;
    enum { W = 11, H = 9, N = W * H };
    cdyn_lattice *lat;
    assert_int_equal(cdyn_lattice_create(W, H, 5, NULL, &lat), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain(lat, 300), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_routing(lat, CDYN_LATTICE_D8), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_cell_size(lat, 30, 25), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_origin(lat, 512345.5, 4200000.25), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_outlet_edges(lat, CDYN_LATTICE_EDGE_TOP |
                                                            CDYN_LATTICE_EDGE_NODATA),
                     CDYN_OK);
    uint8_t outlets[N] = {0}, holes[N] = {0};
    outlets[3 * W + 4] = 1;
    holes[5 * W + 5] = holes[5 * W + 6] = holes[0] = 1;
    assert_int_equal(cdyn_lattice_set_outlet_mask(lat, outlets, N), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_nodata_mask(lat, holes, N), CDYN_OK);
    size_t size;
    assert_int_equal(cdyn_lattice_snapshot_size(lat, &size), CDYN_OK);
    assert_int_equal(size, 272 + 9 * N);
    unsigned char *buf = malloc(size);
    assert_int_equal(cdyn_lattice_save(lat, buf, size, NULL), CDYN_OK);
    cdyn_lattice *copy = NULL;
    assert_int_equal(cdyn_lattice_load(buf, size, NULL, &copy), CDYN_OK);
    uint32_t d1[N], d2[N], r1[N], r2[N];
    assert_int_equal(cdyn_lattice_compute_drainage(lat, d1, N), CDYN_OK);
    assert_int_equal(cdyn_lattice_compute_drainage(copy, d2, N), CDYN_OK);
    assert_memory_equal(d1, d2, sizeof d1);
    assert_int_equal(cdyn_lattice_compute_receivers(lat, r1, N), CDYN_OK);
    assert_int_equal(cdyn_lattice_compute_receivers(copy, r2, N), CDYN_OK);
    assert_memory_equal(r1, r2, sizeof r1);
    double x, y;
    assert_int_equal(cdyn_lattice_get_origin(copy, &x, &y), CDYN_OK);
    assert_true(x == 512345.5 && y == 4200000.25);
    assert_int_equal(cdyn_lattice_get_cell_size(copy, &x, &y), CDYN_OK);
    assert_true(x == 30 && y == 25);
    uint8_t m[N];
    assert_int_equal(cdyn_lattice_get_nodata_mask(copy, m, N), CDYN_OK);
    assert_memory_equal(m, holes, N);
    assert_int_equal(cdyn_lattice_get_outlet_mask(copy, m, N), CDYN_OK);
    assert_memory_equal(m, outlets, N);
    unsigned char *again = malloc(size);
    assert_int_equal(cdyn_lattice_save(copy, again, size, NULL), CDYN_OK);
    assert_memory_equal(again, buf, size);
    /* Mask bytes: unknown bits, none set, every site no-data. */
    size_t at = 264 + 8 * N;
    memcpy(again, buf, size);
    again[at + 7] = 4;
    reseal(again, size);
    expect_refused(again, size, CDYN_ERR_FORMAT);
    memcpy(again, buf, size);
    memset(again + at, 0, N);
    reseal(again, size);
    expect_refused(again, size, CDYN_ERR_FORMAT);
    memset(again + at, 2, N);
    reseal(again, size);
    expect_refused(again, size, CDYN_ERR_FORMAT);
    free(again);
    free(buf);
    cdyn_lattice_destroy(copy);
    cdyn_lattice_destroy(lat);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    cdyn_lattice *lat = worked_lattice();
    unsigned char *buf;
    size_t size = save(lat, &buf), written = 12345, n;
    assert_int_equal(cdyn_lattice_snapshot_size(NULL, &n), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_snapshot_size(lat, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_save(NULL, buf, size, &written), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_save(lat, NULL, size, &written), CDYN_ERR_INVALID_ARGUMENT);
    /* Too small a buffer: nothing written. */
    unsigned char *small = calloc(size, 1);
    assert_int_equal(cdyn_lattice_save(lat, small, size - 1, &written), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(written, 12345);
    for (size_t i = 0; i < size; i++)
        assert_int_equal(small[i], 0);
    assert_int_equal(cdyn_lattice_save(lat, small, size, NULL), CDYN_OK);
    cdyn_lattice *out;
    assert_int_equal(cdyn_lattice_load(NULL, size, NULL, &out), CDYN_ERR_INVALID_ARGUMENT);
    assert_null(out);
    assert_int_equal(cdyn_lattice_load(buf, size, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_allocator half = {NULL, NULL, NULL};
    assert_int_equal(cdyn_lattice_load(buf, size, &half, &out), CDYN_ERR_INVALID_ARGUMENT);
    assert_null(out);
    free(small);
    free(buf);
    cdyn_lattice_destroy(lat);
}

/* Every allocation of a load failed in turn (the pending sites of the once
 * rule need the rain scratch too): NO_MEMORY, nothing leaked; then the load
 * succeeds through the same allocator. */
static void test_load_out_of_memory(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        cdyn_lattice *lat =
            worked_lattice_rule(r ? CDYN_LATTICE_SLIDE_ONCE : CDYN_LATTICE_SLIDE_CASCADE);
        unsigned char *buf;
        size_t size = save(lat, &buf);
        for (size_t k = 1;; k++) {
            ts_counting_alloc st = {0};
            st.fail_at = k;
            cdyn_allocator a = ts_counting_allocator(&st);
            cdyn_lattice *out = NULL;
            cdyn_status s = cdyn_lattice_load(buf, size, &a, &out);
            if (s == CDYN_OK) {
                assert_false(st.failed);
                cdyn_lattice_destroy(out);
                assert_int_equal(st.live_bytes, 0);
                break;
            }
            assert_int_equal(s, CDYN_ERR_NO_MEMORY);
            assert_null(out);
            assert_int_equal(st.live_bytes, 0);
            assert_true(k < 10);
        }
        free(buf);
        cdyn_lattice_destroy(lat);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_restore_then_rain_equals_one_run),
        cmocka_unit_test(test_layout_is_little_endian),
        cmocka_unit_test(test_damaged_buffers_are_refused),
        cmocka_unit_test(test_bad_pending_lists_are_refused),
        cmocka_unit_test(test_terrain_round_trip),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_load_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
