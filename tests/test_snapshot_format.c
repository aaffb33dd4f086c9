/* Snapshots refused: every flipped bit, every truncation, a trailing byte,
 * a newer format, contents resealed with a valid checksum but inconsistent
 * or out of range; every allocation failed in turn during a load and a
 * clone; the calls' own refusals. A refused load creates nothing and
 * leaves nothing allocated. The layout read here is the one of
 * docs/snapshots.md. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "scenes.h"
#include "support.h"

/* --- the bytes --------------------------------------------------------------- */

typedef struct snap {
    unsigned char *p;
    size_t n;
} snap;

/* A scene with an integrator that gives its snapshot most of what it can
 * hold (backward Euler's pattern, RATTLE's held factorization and the
 * forces it keeps for the next step, RK45's step), after a few steps. */
static void build_stepped(const ts_scene *scene, ts_world *w)
{
    cdyn_integrator integ = CDYN_INTEGRATOR_RK45;
    if (scene == &ts_scene_springs || scene == &ts_scene_pairs)
        integ = CDYN_INTEGRATOR_BACKWARD_EULER;
    else if (scene == &ts_scene_driven || scene == &ts_scene_chain ||
             scene == &ts_scene_fluid || scene == &ts_scene_langevin)
        integ = CDYN_INTEGRATOR_RATTLE;
    ts_scene_build(scene, w, integ,
                   scene == &ts_scene_rigid ? CDYN_SOLVER_CG : CDYN_SOLVER_DIRECT);
    for (int i = 0; i < 4; i++)
        assert_int_equal(cdyn_system_step(w->sys, 1e-3), CDYN_OK);
}

static snap save(const cdyn_system *sys)
{
    snap s;
    assert_int_equal(cdyn_system_snapshot_size(sys, &s.n), CDYN_OK);
    s.p = malloc(s.n + 1);
    assert_non_null(s.p);
    size_t written;
    assert_int_equal(cdyn_system_save(sys, s.p, s.n, &written), CDYN_OK);
    assert_int_equal(written, s.n);
    return s;
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p)
{
    return get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

static void put_u64(unsigned char *p, uint64_t v)
{
    put_u32(p, (uint32_t)v);
    put_u32(p + 4, (uint32_t)(v >> 32));
}

/* The checksum of the format: FNV-1a over little-endian 64-bit words. */
static void reseal(snap *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i + 8 <= s->n - 8; i += 8)
        h = (h ^ get_u64(s->p + i)) * 0x100000001b3ULL;
    put_u64(s->p + s->n - 8, h);
}

/* The payload of section @p id: its offset. */
static size_t section(const snap *s, uint32_t id, size_t *len)
{
    size_t at = 32;
    while (at + 16 <= s->n - 8) {
        uint32_t this_id = get_u32(s->p + at);
        uint64_t l = get_u64(s->p + at + 8);
        if (this_id == id) {
            *len = (size_t)l;
            return at + 16;
        }
        at += 16 + (size_t)l;
    }
    fail_msg("no section %u", id);
    return 0;
}

enum {
    SEC_PARTICLES = 2,
    SEC_FORCES = 3,
    SEC_CONSTRAINTS = 4,
    SEC_BOX = 11,
    SEC_THERMOSTAT = 12,
    SEC_KEPT = 13
};

/* A load of @p s with a counting allocator and the scenes' resolver: its
 * status; *out gets the system (NULL on failure). Whatever happens, a
 * failure leaves nothing allocated. */
static cdyn_status load_counted(const unsigned char *p, size_t n, ts_counting_alloc *count,
                                cdyn_system **out)
{
    cdyn_allocator a = ts_counting_allocator(count);
    cdyn_snapshot_options o;
    cdyn_snapshot_options_init(&o);
    o.allocator = &a;
    o.resolve = ts_scene_resolve;
    *out = (cdyn_system *)count; /* must be overwritten */
    cdyn_status st = cdyn_system_load(p, n, &o, NULL, out);
    if (st) {
        assert_null(*out);
        assert_int_equal(count->live_bytes, 0);
        assert_int_equal(count->allocs - (count->failed ? 1u : 0u), count->frees);
    }
    return st;
}

/* Refused with CDYN_ERR_FORMAT before anything was allocated. */
static void expect_refused_early(const unsigned char *p, size_t n)
{
    ts_counting_alloc count = {0};
    cdyn_system *out;
    assert_int_equal(load_counted(p, n, &count, &out), CDYN_ERR_FORMAT);
    assert_int_equal(count.allocs, 0);
}

/* Refused with CDYN_ERR_FORMAT (after the checks of the frame), a report
 * whose message contains @p words. */
static void expect_refused(const snap *s, const char *words)
{
    ts_counting_alloc count = {0};
    cdyn_allocator a = ts_counting_allocator(&count);
    cdyn_snapshot_options o;
    cdyn_snapshot_options_init(&o);
    o.allocator = &a;
    o.resolve = ts_scene_resolve;
    cdyn_snapshot_report rep = {.size = sizeof rep};
    cdyn_system *out;
    assert_int_equal(cdyn_system_load(s->p, s->n, &o, &rep, &out), CDYN_ERR_FORMAT);
    assert_null(out);
    assert_int_equal(count.live_bytes, 0);
    if (!strstr(rep.message, words))
        fail_msg("report \"%s\" does not say \"%s\"", rep.message, words);
}

/* --- damage ------------------------------------------------------------------ */

/* Every bit of every scene's snapshot, flipped alone: the checksum (or the
 * frame) refuses it before anything is allocated. */
static void test_every_bit_flipped(void **state)
{
    (void)state;
    for (size_t k = 0; k < TS_N_SCENES; k++) {
        ts_world w;
        build_stepped(ts_scenes[k], &w);
        snap s = save(w.sys);
        for (size_t bit = 0; bit < 8 * s.n; bit++) {
            s.p[bit / 8] ^= (unsigned char)(1u << (bit % 8));
            expect_refused_early(s.p, s.n);
            s.p[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        }
        free(s.p);
        ts_scene_free(&w);
    }
}

/* Every proper prefix, and one byte more. */
static void test_truncations_and_trailing_bytes(void **state)
{
    (void)state;
    for (size_t k = 0; k < TS_N_SCENES; k++) {
        ts_world w;
        build_stepped(ts_scenes[k], &w);
        snap s = save(w.sys);
        for (size_t n = 0; n < s.n; n++)
            expect_refused_early(s.p, n);
        s.p[s.n] = 0;
        expect_refused_early(s.p, s.n + 1);
        free(s.p);
        ts_scene_free(&w);
    }
}

/* Every bit flipped and the checksum made good again: the loader refuses
 * what it must and never crashes, leaks or keeps a broken system; what it
 * accepts steps and saves. */
static void test_resealed_bit_flips(void **state)
{
    (void)state;
    const ts_scene *scenes[] = {&ts_scene_chain, &ts_scene_driven};
    size_t accepted = 0, refused = 0;
    for (size_t k = 0; k < 2; k++) {
        ts_world w;
        build_stepped(scenes[k], &w);
        snap s = save(w.sys);
        for (size_t bit = 0; bit < 8 * (s.n - 8); bit++) {
            snap t = {malloc(s.n), s.n};
            memcpy(t.p, s.p, s.n);
            t.p[bit / 8] ^= (unsigned char)(1u << (bit % 8));
            reseal(&t);
            ts_counting_alloc count = {0};
            cdyn_system *out;
            cdyn_status st = load_counted(t.p, t.n, &count, &out);
            assert_true(st == CDYN_OK || st == CDYN_ERR_FORMAT || st == CDYN_ERR_UNRESOLVED);
            if (st == CDYN_OK) {
                accepted++;
                (void)cdyn_system_step(out, 1e-3); /* may fail: a strange but valid state */
                size_t n;
                assert_int_equal(cdyn_system_snapshot_size(out, &n), CDYN_OK);
                cdyn_system_destroy(out);
                assert_int_equal(count.live_bytes, 0);
            } else {
                refused++;
            }
            free(t.p);
        }
        free(s.p);
        ts_scene_free(&w);
    }
    /* Both happen: mantissa bits of the state are as good as any. */
    assert_true(accepted > 0 && refused > 0);
}

/* As test_resealed_bit_flips in the sections the pair interactions fill
 * (a Langevin fluid's forces with its pair set, box, thermostat and kept
 * forces): each flip refused, or loaded into a system that steps and
 * saves. */
static void test_resealed_bit_flips_of_pairs(void **state)
{
    (void)state;
    ts_world w;
    build_stepped(&ts_scene_langevin, &w);
    snap s = save(w.sys);
    const uint32_t ids[] = {SEC_FORCES, SEC_BOX, SEC_THERMOSTAT, SEC_KEPT};
    size_t accepted = 0, refused = 0;
    for (size_t k = 0; k < 4; k++) {
        size_t len, at = section(&s, ids[k], &len);
        for (size_t bit = 8 * at; bit < 8 * (at + len); bit++) {
            snap t = {malloc(s.n), s.n};
            memcpy(t.p, s.p, s.n);
            t.p[bit / 8] ^= (unsigned char)(1u << (bit % 8));
            reseal(&t);
            ts_counting_alloc count = {0};
            cdyn_system *out;
            cdyn_status st = load_counted(t.p, t.n, &count, &out);
            assert_true(st == CDYN_OK || st == CDYN_ERR_FORMAT || st == CDYN_ERR_UNRESOLVED);
            if (st == CDYN_OK) {
                accepted++;
                (void)cdyn_system_step(out, 1e-3);
                size_t n;
                assert_int_equal(cdyn_system_snapshot_size(out, &n), CDYN_OK);
                cdyn_system_destroy(out);
                assert_int_equal(count.live_bytes, 0);
            } else {
                refused++;
            }
            free(t.p);
        }
    }
    assert_true(accepted > 0 && refused > 0);
    free(s.p);
    ts_scene_free(&w);
}

/* A format version this library does not know, resealed. */
static void test_newer_version(void **state)
{
    (void)state;
    ts_world w;
    build_stepped(&ts_scene_chain, &w);
    snap s = save(w.sys);
    put_u32(s.p + 8, get_u32(s.p + 8) + 1);
    reseal(&s);
    char words[32];
    snprintf(words, sizeof words, "format version %u", get_u32(s.p + 8));
    expect_refused(&s, words);
    free(s.p);
    ts_scene_free(&w);
}

/* Offsets in the particles section of a system of @p count slots. */
static size_t particles_live(const snap *s)
{
    size_t len;
    return section(s, SEC_PARTICLES, &len) + 4;
}

/* Contents resealed but wrong, one each: the loader names the problem. */
static void test_resealed_invalid_contents(void **state)
{
    (void)state;
    ts_world w;
    ts_scene_build(&ts_scene_chain, &w, CDYN_INTEGRATOR_RK4, CDYN_SOLVER_DIRECT);
    /* A removed particle at the end of the chain: slot 9 is dead, its rod
     * (slot 7) gone with it. */
    assert_int_equal(cdyn_particle_remove(w.sys, w.particles[8]), CDYN_OK);
    assert_int_equal(cdyn_system_step(w.sys, 1e-3), CDYN_OK);
    const snap good = save(w.sys);
    snap s = {malloc(good.n), good.n};
    size_t len;

    /* Counts that disagree: one more live particle than live flags. */
    memcpy(s.p, good.p, s.n);
    size_t at = particles_live(&s);
    put_u32(s.p + at, get_u32(s.p + at) + 1);
    reseal(&s);
    expect_refused(&s, "particles");

    /* A slot count beyond any buffer: refused before it is allocated. */
    memcpy(s.p, good.p, s.n);
    at = section(&s, SEC_PARTICLES, &len);
    put_u32(s.p + at, 0x7fffffffu);
    put_u32(s.p + at + 4, 0x7fffffffu);
    reseal(&s);
    {
        ts_counting_alloc count = {0};
        cdyn_system *out;
        assert_int_equal(load_counted(s.p, s.n, &count, &out), CDYN_ERR_FORMAT);
        assert_true(count.peak_bytes < 16 * good.n);
    }

    /* A non-finite position: the first particle's x (after the pool, the
     * masses and the flags). */
    memcpy(s.p, good.p, s.n);
    at = section(&s, SEC_PARTICLES, &len);
    uint32_t count = get_u32(s.p + at), n_free = get_u32(s.p + at + 8);
    size_t x0 = at + 12 + 4 * (size_t)count + 4 * (size_t)n_free + 8 * (size_t)count + count;
    const double nan = NAN;
    memcpy(s.p + x0, &nan, sizeof nan);
    reseal(&s);
    expect_refused(&s, "positions");

    /* The rods: the constraint section's pool, then per rod u8 kind,
     * u8 enabled, u16 particles, u16 rows, u32 slots. */
    at = section(&good, SEC_CONSTRAINTS, &len);
    size_t pool = at + 1 + 1 + 8 * 3 + 8 + 1 + 9 * 8;
    uint32_t rods = get_u32(good.p + pool), rod_free = get_u32(good.p + pool + 8);
    size_t first_rod = pool + 12 + 4 * (size_t)rods + 4 * (size_t)rod_free;
    assert_int_equal(good.p[first_rod], CDYN_CONSTRAINT_DISTANCE);
    /* A rod naming a removed particle (slot 9). */
    memcpy(s.p, good.p, s.n);
    put_u32(s.p + first_rod + 6 + 4, 9);
    reseal(&s);
    expect_refused(&s, "removed");
    /* A rod naming a slot out of range. */
    memcpy(s.p, good.p, s.n);
    put_u32(s.p + first_rod + 6, 1000);
    reseal(&s);
    expect_refused(&s, "out of range");
    /* A rod with three particles. */
    memcpy(s.p, good.p, s.n);
    s.p[first_rod + 2] = 3;
    reseal(&s);
    expect_refused(&s, "3 particles");

    /* A section that is not the one expected there. */
    memcpy(s.p, good.p, s.n);
    at = section(&s, SEC_FORCES, &len);
    put_u32(s.p + at - 16, 99);
    reseal(&s);
    expect_refused(&s, "forces section");

    free(s.p);
    free(good.p);
    ts_scene_free(&w);
}

/* The pair set of the fluid in the forces section: its offset (the
 * generator's kind byte), after the pool. */
static size_t pair_set_at(const snap *s)
{
    size_t len, at = section(s, SEC_FORCES, &len);
    uint32_t count = get_u32(s->p + at), n_free = get_u32(s->p + at + 8);
    at += 12 + 4 * (size_t)count + 4 * (size_t)n_free;
    assert_int_equal(s->p[at], CDYN_FORCE_PAIR);
    return at;
}

/* Contents of the pair interactions resealed but wrong, one each. */
static void test_resealed_invalid_pair_contents(void **state)
{
    (void)state;
    ts_world w;
    build_stepped(&ts_scene_langevin, &w);
    const snap good = save(w.sys);
    snap s = {malloc(good.n), good.n};
    size_t len;

    /* The set: kind, set flag, six parameters, n, capacity, n slots, two
     * counters, skin, depth, the pairs given, the exclusion lists' flags,
     * revision and digest, their starts and entries, then the neighbour
     * list's flags, skin, epoch and five counts. */
    size_t at = pair_set_at(&good) + 1;
    assert_int_equal(good.p[at], CDYN_PAIR_LJ);
    assert_int_equal(good.p[at + 1], 1);
    const uint32_t n = get_u32(good.p + at + 2 + 48);
    const size_t counters = at + 2 + 48 + 8 + 4 * (size_t)n;
    const size_t given = counters + 16 + 8 + 1;
    const uint64_t n_given = get_u64(good.p + given);
    const size_t lists = given + 8 + 8 * (size_t)n_given;
    assert_int_equal(good.p[lists], 3); /* made, some pair excluded */
    const size_t starts = lists + 1 + 16;
    const uint32_t total = get_u32(good.p + starts + 4 * (size_t)n);
    const size_t entries = starts + 4 * ((size_t)n + 1);
    const size_t nlist = entries + 4 * (size_t)total;
    assert_int_equal(good.p[nlist] & 1, 1); /* held */

    /* A capacity beyond the particles. */
    memcpy(s.p, good.p, s.n);
    put_u32(s.p + at + 2 + 48 + 4, 1000);
    reseal(&s);
    expect_refused(&s, "out of range");
    /* A member twice. */
    memcpy(s.p, good.p, s.n);
    put_u32(s.p + at + 2 + 48 + 8 + 4, get_u32(s.p + at + 2 + 48 + 8));
    reseal(&s);
    expect_refused(&s, "twice");
    /* A bonded depth of 3. */
    memcpy(s.p, good.p, s.n);
    s.p[counters + 16 + 8] = 3;
    reseal(&s);
    expect_refused(&s, "depth");
    /* A pair given one way only: its first entry made a pair with itself. */
    memcpy(s.p, good.p, s.n);
    put_u64(s.p + given + 8, get_u64(s.p + given + 8) & ~0xffffffffull);
    reseal(&s);
    expect_refused(&s, "pair exclusion");
    /* A member that excludes itself. */
    memcpy(s.p, good.p, s.n);
    {
        size_t k = 0;
        while (get_u32(good.p + starts + 4 * (k + 1)) == get_u32(good.p + starts + 4 * k))
            k++; /* the first member with a list */
        put_u32(s.p + entries + 4 * (size_t)get_u32(good.p + starts + 4 * k), (uint32_t)k);
    }
    reseal(&s);
    expect_refused(&s, "exclusion lists");
    /* Room for more pairs than a snapshot of this size restores: refused
     * before anything that size is allocated. */
    memcpy(s.p, good.p, s.n);
    put_u64(s.p + nlist + 1 + 16 + 24, (uint64_t)1 << 40);
    reseal(&s);
    expect_refused(&s, "restores");
    /* The members in sorted order: one twice. */
    const size_t order = nlist + 1 + 16 + 40;
    memcpy(s.p, good.p, s.n);
    put_u32(s.p + order + 4, get_u32(s.p + order));
    reseal(&s);
    expect_refused(&s, "twice");

    /* The box: periodic along z in 2-D. */
    memcpy(s.p, good.p, s.n);
    at = section(&s, SEC_BOX, &len);
    assert_int_equal(s.p[at], 1);
    s.p[at + 1] |= 8;
    reseal(&s);
    expect_refused(&s, "box");
    /* A negative length. */
    memcpy(s.p, good.p, s.n);
    const double neg = -3.0;
    memcpy(s.p + at + 2 + 24, &neg, sizeof neg);
    reseal(&s);
    expect_refused(&s, "box");

    /* The thermostat: a negative friction. */
    memcpy(s.p, good.p, s.n);
    at = section(&s, SEC_THERMOSTAT, &len);
    assert_int_equal(s.p[at], 1);
    memcpy(s.p + at + 1 + 8, &neg, sizeof neg);
    reseal(&s);
    expect_refused(&s, "gamma");

    free(s.p);
    free(good.p);
    ts_scene_free(&w);

    /* Forces kept for a step that does not keep them (backward Euler). */
    build_stepped(&ts_scene_springs, &w);
    snap t = save(w.sys);
    at = section(&t, SEC_KEPT, &len);
    assert_int_equal(t.p[at], 0);
    t.p[at] = 1;
    reseal(&t);
    expect_refused(&t, "kept forces");
    free(t.p);
    ts_scene_free(&w);
}

/* --- allocation failures -------------------------------------------------------- */

/* Every allocation of a load, failed in turn: CDYN_ERR_NO_MEMORY with
 * nothing created or left allocated, until the load succeeds and gives the
 * saved system's bytes back. */
static void test_every_allocation_failed_in_load(void **state)
{
    (void)state;
    for (size_t k = 0; k < TS_N_SCENES; k++) {
        ts_world w;
        build_stepped(ts_scenes[k], &w);
        snap s = save(w.sys);
        for (size_t fail_at = 1;; fail_at++) {
            ts_counting_alloc count = {.fail_at = fail_at};
            cdyn_system *out;
            cdyn_status st = load_counted(s.p, s.n, &count, &out);
            if (st == CDYN_OK) {
                assert_false(count.failed);
                snap t = save(out);
                assert_true(t.n == s.n && memcmp(t.p, s.p, s.n) == 0);
                free(t.p);
                cdyn_system_destroy(out);
                assert_int_equal(count.live_bytes, 0);
                break;
            }
            assert_int_equal(st, CDYN_ERR_NO_MEMORY);
        }
        free(s.p);
        ts_scene_free(&w);
    }
}

/* A load of every scene allocates at most a small multiple of the
 * snapshot's length at any moment (the loader's own arrays sized by the
 * counts checked against the bytes, plus the topology a step would lay out). */
static void test_load_allocates_a_small_multiple(void **state)
{
    (void)state;
    for (size_t k = 0; k < TS_N_SCENES; k++) {
        ts_world w;
        build_stepped(ts_scenes[k], &w);
        snap s = save(w.sys);
        ts_counting_alloc count = {0};
        cdyn_system *out;
        assert_int_equal(load_counted(s.p, s.n, &count, &out), CDYN_OK);
        if (count.peak_bytes >= 16 * s.n)
            fail_msg("%s: a load of %zu bytes peaked at %zu bytes", ts_scenes[k]->name, s.n,
                     count.peak_bytes);
        cdyn_system_destroy(out);
        free(s.p);
        ts_scene_free(&w);
    }
}

/* The same for a clone into a counting allocator: the source is left as
 * it was and its message names the call. */
static void test_every_allocation_failed_in_clone(void **state)
{
    (void)state;
    for (size_t k = 0; k < TS_N_SCENES; k++) {
        ts_world w;
        build_stepped(ts_scenes[k], &w);
        snap s = save(w.sys);
        for (size_t fail_at = 1;; fail_at++) {
            ts_counting_alloc count = {.fail_at = fail_at};
            cdyn_allocator a = ts_counting_allocator(&count);
            cdyn_system *out = (cdyn_system *)&count;
            cdyn_status st = cdyn_system_clone(w.sys, &a, &out);
            if (st == CDYN_OK) {
                snap t = save(out);
                assert_true(t.n == s.n && memcmp(t.p, s.p, s.n) == 0);
                free(t.p);
                cdyn_system_destroy(out);
                assert_int_equal(count.live_bytes, 0);
                break;
            }
            assert_int_equal(st, CDYN_ERR_NO_MEMORY);
            assert_null(out);
            assert_int_equal(count.live_bytes, 0);
            assert_non_null(strstr(cdyn_system_last_error(w.sys), "system_clone: "));
        }
        snap after = save(w.sys);
        assert_true(after.n == s.n && memcmp(after.p, s.p, s.n) == 0);
        free(after.p);
        free(s.p);
        ts_scene_free(&w);
    }
}

/* --- the calls' own refusals ----------------------------------------------------- */

static int save_inside(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                       const double *v, double *f, void *user)
{
    (void)t, (void)n, (void)dim, (void)x, (void)v, (void)f;
    unsigned char buf[8];
    cdyn_system *copy = NULL;
    cdyn_status *st = user;
    st[0] = cdyn_system_save(sys, buf, sizeof buf, NULL);
    st[1] = cdyn_system_clone(sys, NULL, &copy);
    return copy != NULL;
}

static void test_refusals(void **state)
{
    (void)state;
    ts_world w;
    build_stepped(&ts_scene_chain, &w);
    cdyn_system *sys = w.sys;
    size_t n;
    assert_int_equal(cdyn_system_snapshot_size(NULL, &n), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_snapshot_size(sys, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(sys), "system_snapshot_size"));
    assert_int_equal(cdyn_system_snapshot_size(sys, &n), CDYN_OK);
    unsigned char *buf = malloc(n);
    assert_int_equal(cdyn_system_save(sys, NULL, n, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_save(sys, buf, n - 8, NULL), CDYN_ERR_INVALID_ARGUMENT);
    char want[64];
    snprintf(want, sizeof want, "%zu bytes needed", n);
    assert_non_null(strstr(cdyn_system_last_error(sys), want));
    size_t written = 0;
    assert_int_equal(cdyn_system_save(sys, buf, n, &written), CDYN_OK);
    assert_int_equal(written, n);

    cdyn_system *out = (cdyn_system *)buf;
    assert_int_equal(cdyn_system_load(NULL, n, NULL, NULL, &out), CDYN_ERR_INVALID_ARGUMENT);
    assert_null(out);
    assert_int_equal(cdyn_system_load(buf, n, NULL, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_snapshot_options o;
    cdyn_snapshot_options_init(&o);
    o.size = sizeof o - 1;
    cdyn_snapshot_report rep = {.size = sizeof rep};
    assert_int_equal(cdyn_system_load(buf, n, &o, &rep, &out), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rep.message, "cdyn_snapshot_options"));
    /* A report shorter than the struct gets its prefix only. */
    struct {
        cdyn_snapshot_report r;
        unsigned char guard;
    } small;
    memset(&small, 0xab, sizeof small);
    small.r.size = offsetof(cdyn_snapshot_report, offset);
    assert_int_equal(cdyn_system_load(buf, n - 1, NULL, &small.r, &out), CDYN_ERR_FORMAT);
    assert_int_equal(small.r.callback_kind, 0);
    assert_true(small.r.offset == 0xabababababababab && small.guard == 0xab);
    /* A good one reports nothing. */
    assert_int_equal(cdyn_system_load(buf, n, NULL, &rep, &out), CDYN_OK);
    assert_string_equal(rep.message, "");
    cdyn_system_destroy(out);

    assert_int_equal(cdyn_system_clone(NULL, NULL, &out), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_clone(sys, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_allocator broken = {NULL, NULL, NULL};
    assert_int_equal(cdyn_system_clone(sys, &broken, &out), CDYN_ERR_INVALID_ARGUMENT);
    assert_null(out);

    /* From inside a step: busy, and the step goes on. */
    cdyn_status inside[2] = {CDYN_OK, CDYN_OK};
    cdyn_force f;
    assert_int_equal(cdyn_force_add_callback(sys, save_inside, inside, false, &f), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    assert_int_equal(inside[0], CDYN_ERR_BUSY);
    assert_int_equal(inside[1], CDYN_ERR_BUSY);
    free(buf);
    ts_scene_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_bit_flipped),
        cmocka_unit_test(test_truncations_and_trailing_bytes),
        cmocka_unit_test(test_resealed_bit_flips),
        cmocka_unit_test(test_newer_version),
        cmocka_unit_test(test_resealed_invalid_contents),
        cmocka_unit_test(test_resealed_bit_flips_of_pairs),
        cmocka_unit_test(test_resealed_invalid_pair_contents),
        cmocka_unit_test(test_every_allocation_failed_in_load),
        cmocka_unit_test(test_load_allocates_a_small_multiple),
        cmocka_unit_test(test_every_allocation_failed_in_clone),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
