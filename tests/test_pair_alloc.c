/* Memory of periodic boxes, pair sets and the thermostat:
 *  - no allocation in steps: bead-rod chains through the faces of a periodic
 *    box with WCA between beads not bonded (neighbour list, exclusions) under
 *    RATTLE with the Langevin thermostat, and a Lennard-Jones liquid under
 *    velocity Verlet, allocate and free nothing once their first step ran;
 *    nor do the diagnostics (temperature, pressure, unwrapped positions,
 *    image counters, the list's counters) nor changes that keep the shape
 *    (positions moved by box lengths, velocities, the clock, the thermostat
 *    set again) followed by steps;
 *  - out of memory: a script (a system, chains through the faces, the box,
 *    rods, a pair set with bonded and explicit exclusions and its skin,
 *    RATTLE with the thermostat, steps, a spring across a face, more beads
 *    and a second pair set, positions set by box lengths, steps) is run
 *    once to count its allocations and then with the Nth allocation failing
 *    for every N: the call that meets the failure returns
 *    CDYN_ERR_NO_MEMORY with a message and leaves the state (clock,
 *    positions, velocities) as it was, the same call then succeeds, the
 *    run ends in the bits of the unfailed run, and after destroy no byte is
 *    live;
 *  - explicit exclusions out of memory: each allocation of the call failed
 *    in turn leaves the set with the pairs it had. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define ok(call) assert_int_equal((call), CDYN_OK)

enum { CHAINS = 6, BEADS = 7, EXTRA = 8, NMAX = CHAINS * BEADS + EXTRA };
static const double L = 8.0, BOND = 0.97;

/* Bead i of chain c: straight chains along x through the face x = L,
 * spaced in y and z (positions given wrapped into the box). */
static void bead(int c, int i, double *x, double *v)
{
    x[0] = fmod(4.0 + BOND * i, L);
    x[1] = 0.8 + 1.6 * (c % 3);
    x[2] = 1.2 + 3.0 * (c / 3);
    v[0] = 0.3 * sin(c + i);
    v[1] = 0.2 * cos(2.0 * i + c);
    v[2] = 0.1 * sin(3.0 * i);
}

/* ------------------------------------------------------------------ */
/* The script, one call at a time: run_call(k) makes call k (0-based) and
 * returns its status; the number of calls is N_CALLS. */

typedef struct run {
    ts_counting_alloc ca;
    cdyn_allocator alloc;
    cdyn_system *sys;
    cdyn_particle p[NMAX];
    cdyn_force pairs, pairs2;
} run;

enum {
    C_CREATE = 0,
    C_BEADS = 1,                      /* one call per bead */
    C_BOX = C_BEADS + CHAINS * BEADS, /* the box */
    C_RODS,                           /* one per rod */
    C_PAIRS = C_RODS + CHAINS * (BEADS - 1),
    C_EXCLUDE,
    C_EXPLICIT,
    C_SKIN,
    C_INTEGRATOR,
    C_LANGEVIN,
    C_STEPS1,
    C_SPRING = C_STEPS1 + 30,
    C_STEPS2,
    C_EXTRA = C_STEPS2 + 10,          /* free beads past the capacity */
    C_PAIRS2 = C_EXTRA + EXTRA,
    C_SHIFT,                          /* positions set one box length over */
    C_STEPS3,
    N_CALLS = C_STEPS3 + 30
};

static cdyn_status thermostat(cdyn_system *sys, double kT, double gamma, uint64_t seed)
{
    cdyn_langevin_options o;
    cdyn_langevin_options_init(&o);
    o.kT = kT;
    o.gamma = gamma;
    o.seed = seed;
    return cdyn_system_set_langevin_options(sys, &o);
}

static cdyn_status shift_positions(cdyn_system *sys)
{
    size_t n;
    cdyn_status st = cdyn_system_get_index_count(sys, &n);
    double *x = malloc(3 * n * sizeof *x);
    assert_non_null(x);
    if (!st)
        st = cdyn_system_get_positions(sys, x, 3 * n);
    for (size_t i = 0; !st && i < n; i++)
        x[3 * i + (i % 3)] += (i % 2 ? L : -L);
    if (!st)
        st = cdyn_system_set_positions(sys, x, 3 * n);
    free(x);
    return st;
}

static cdyn_status run_call(run *r, int k)
{
    double x[3], v[3];
    cdyn_constraint c;
    cdyn_force f;
    cdyn_pair_params pp;
    if (k == C_CREATE)
        return cdyn_system_create_with_allocator(3, &r->alloc, &r->sys);
    if (k >= C_BEADS && k < C_BOX) {
        int b = k - C_BEADS;
        bead(b / BEADS, b % BEADS, x, v);
        return cdyn_particle_add(r->sys, 1, x, v, &r->p[b]);
    }
    if (k == C_BOX)
        return cdyn_system_set_box(r->sys, (double[]){0, 0, 0}, (double[]){L, L, L},
                                   (bool[]){true, true, true});
    if (k >= C_RODS && k < C_PAIRS) {
        int b = k - C_RODS, ch = b / (BEADS - 1), i = b % (BEADS - 1);
        return cdyn_constraint_add_distance(r->sys, r->p[ch * BEADS + i],
                                            r->p[ch * BEADS + i + 1], BOND, &c);
    }
    if (k == C_PAIRS) {
        ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE));
        return cdyn_force_add_pair_set(r->sys, &pp, r->p, CHAINS * BEADS, &r->pairs);
    }
    if (k == C_EXCLUDE)
        return cdyn_force_set_pair_exclude_bonded(r->sys, r->pairs, 2);
    if (k == C_EXPLICIT) {
        const cdyn_particle two[2] = {r->p[0], r->p[BEADS]};
        return cdyn_force_add_pair_exclusions(r->sys, r->pairs, two, 1);
    }
    if (k == C_SKIN)
        return cdyn_force_set_pair_skin(r->sys, r->pairs, 0.4);
    if (k == C_INTEGRATOR)
        return cdyn_system_set_integrator(r->sys, CDYN_INTEGRATOR_RATTLE);
    if (k == C_LANGEVIN)
        return thermostat(r->sys, 1.0, 1.0, 11);
    if ((k >= C_STEPS1 && k < C_SPRING) || (k >= C_STEPS2 && k < C_EXTRA) ||
        (k >= C_STEPS3 && k < N_CALLS))
        return cdyn_system_step(r->sys, 0.003);
    if (k == C_SPRING) /* the ends of two chains, through the face */
        return cdyn_force_add_spring(r->sys, r->p[BEADS - 1], r->p[2 * BEADS], 5.0, 0.1, 2.0, &f);
    if (k >= C_EXTRA && k < C_PAIRS2) {
        int e = k - C_EXTRA;
        x[0] = 0.5 + 0.8 * e, x[1] = 5.6, x[2] = 6.3;
        v[0] = 0.1, v[1] = -0.2, v[2] = 0.05 * e;
        return cdyn_particle_add(r->sys, 1, x, v, &r->p[CHAINS * BEADS + e]);
    }
    if (k == C_PAIRS2) {
        ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ));
        pp.radius = 0.5;
        return cdyn_force_add_pair_set(r->sys, &pp, r->p + CHAINS * BEADS, EXTRA, &r->pairs2);
    }
    if (k == C_SHIFT)
        return shift_positions(r->sys);
    fail_msg("call %d not in the script", k);
    return CDYN_ERR_INVALID_ARGUMENT;
}

/* Runs the script with the @p fail_at-th allocation failing (0: none);
 * returns the final state in @p out and the allocation count. */
static size_t run_script(size_t fail_at, ts_state *out)
{
    run r;
    memset(&r, 0, sizeof r);
    r.alloc = ts_counting_allocator(&r.ca);
    r.ca.fail_at = fail_at;
    for (int k = 0; k < N_CALLS; k++) {
        ts_state before = {0}, after = {0};
        if (r.sys)
            ts_state_capture(r.sys, &before);
        const int failed_before = r.ca.failed;
        cdyn_status st = run_call(&r, k);
        if (st == CDYN_ERR_NO_MEMORY) {
            if (r.ca.failed == failed_before)
                fail_msg("fail_at %zu: call %d out of memory without meeting the failure",
                         fail_at, k);
            if (r.sys) {
                assert_true(strlen(cdyn_system_last_error(r.sys)) > 0);
                ts_state_capture(r.sys, &after);
                if (after.len != before.len || after.time != before.time ||
                    memcmp(after.x, before.x, after.len * sizeof *after.x) ||
                    memcmp(after.v, before.v, after.len * sizeof *after.v))
                    fail_msg("fail_at %zu: call %d changed the state when it failed", fail_at,
                             k);
                ts_state_free(&after);
            }
            r.ca.fail_at = 0; /* the same call again, with memory */
            st = run_call(&r, k);
        }
        if (st != CDYN_OK)
            fail_msg("fail_at %zu: call %d: status %d (%s)", fail_at, k, (int)st,
                     r.sys ? cdyn_system_last_error(r.sys) : "no system");
        ts_state_free(&before);
    }
    ts_state_capture(r.sys, out);
    cdyn_system_destroy(r.sys);
    assert_int_equal(r.ca.live_bytes, 0);
    assert_int_equal(r.ca.allocs, r.ca.frees + (size_t)r.ca.failed);
    return r.ca.allocs;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    ts_state ref;
    size_t total = run_script(0, &ref);
    print_message("%zu allocations in the script\n", total);
    for (size_t n = 1; n <= total; n++) {
        ts_state s;
        run_script(n, &s);
        if (s.len != ref.len || s.time != ref.time ||
            memcmp(s.x, ref.x, s.len * sizeof *s.x) || memcmp(s.v, ref.v, s.len * sizeof *s.v))
            fail_msg("fail_at %zu: the run ends elsewhere than the unfailed one", n);
        ts_state_free(&s);
    }
    ts_state_free(&ref);
}

/* Explicit exclusions out of memory: with each allocation of the call
 * failing in turn, the call returns CDYN_ERR_NO_MEMORY and the set keeps
 * the pairs it had (the first exclusions of a set also make its lists, so
 * a failure can come after the new pairs are in hand); with memory, the
 * pair is excluded. */
static void test_exclusions_out_of_memory(void **state)
{
    (void)state;
    for (size_t extra = 1;; extra++) {
        ts_counting_alloc ca;
        memset(&ca, 0, sizeof ca);
        cdyn_allocator al = ts_counting_allocator(&ca);
        cdyn_system *sys;
        ok(cdyn_system_create_with_allocator(3, &al, &sys));
        cdyn_particle p[4];
        for (int i = 0; i < 4; i++)
            ok(cdyn_particle_add(sys, 1, (double[]){1.5 * i, 0, 0}, NULL, &p[i]));
        cdyn_pair_params pp;
        cdyn_force f;
        ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE));
        ok(cdyn_force_add_pair_set(sys, &pp, p, 4, &f));
        cdyn_pair_stats ps = {.size = sizeof ps};
        ok(cdyn_force_get_pair_stats(sys, f, &ps));
        assert_int_equal(ps.excluded, 0);
        const cdyn_particle two[2] = {p[0], p[1]};
        ca.fail_at = ca.allocs + extra;
        cdyn_status st = cdyn_force_add_pair_exclusions(sys, f, two, 1);
        ca.fail_at = 0;
        ok(cdyn_force_get_pair_stats(sys, f, &ps));
        if (st == CDYN_OK) {
            assert_false(ca.failed); /* the call made fewer allocations than extra */
            assert_int_equal(ps.excluded, 1);
            cdyn_system_destroy(sys);
            assert_true(extra > 2); /* the list of pairs and the lists were met */
            break;
        }
        assert_int_equal(st, CDYN_ERR_NO_MEMORY);
        if (ps.excluded != 0)
            fail_msg("allocation %zu of the call failed: %zu pairs excluded, not 0", extra,
                     ps.excluded);
        ok(cdyn_force_add_pair_exclusions(sys, f, two, 1));
        ok(cdyn_force_get_pair_stats(sys, f, &ps));
        assert_int_equal(ps.excluded, 1);
        cdyn_system_destroy(sys);
        assert_int_equal(ca.live_bytes, 0);
    }
}

/* ------------------------------------------------------------------ */

/* Diagnostics and changes that keep the shape, then steps. */
static void exercise(cdyn_system *sys, cdyn_force f, cdyn_particle p0, bool langevin)
{
    size_t n;
    ok(cdyn_system_get_index_count(sys, &n));
    static double x[3 * NMAX * 8];
    static int64_t image[3];
    double t, val;
    ok(cdyn_system_get_temperature(sys, &val));
    ok(cdyn_system_get_pressure(sys, &val));
    ok(cdyn_system_get_degrees_of_freedom(sys, &val));
    ok(cdyn_system_get_unwrapped_positions(sys, x, 3 * n));
    ok(cdyn_particle_get_image(sys, p0, image));
    ok(cdyn_particle_get_unwrapped_position(sys, p0, x));
    cdyn_pair_stats ps = {.size = sizeof ps};
    ok(cdyn_force_get_pair_stats(sys, f, &ps));
    ok(shift_positions(sys));
    ok(cdyn_system_get_velocities(sys, x, 3 * n));
    ok(cdyn_system_set_velocities(sys, x, 3 * n));
    ok(cdyn_system_get_time(sys, &t));
    ok(cdyn_system_set_time(sys, t));
    if (langevin)
        ok(thermostat(sys, 1.2, 0.5, 3));
    for (int s = 0; s < 200; s++)
        ok(cdyn_system_step(sys, 0.003));
}

static void test_steps_allocate_nothing(void **state)
{
    (void)state;
    /* bead-rod chains, RATTLE, Langevin */
    {
        run r;
        memset(&r, 0, sizeof r);
        r.alloc = ts_counting_allocator(&r.ca);
        for (int k = 0; k < C_SPRING; k++)
            ok(run_call(&r, k));
        size_t allocs = r.ca.allocs, frees = r.ca.frees;
        exercise(r.sys, r.pairs, r.p[0], true);
        assert_int_equal(r.ca.allocs, allocs);
        assert_int_equal(r.ca.frees, frees);
        cdyn_system_destroy(r.sys);
        assert_int_equal(r.ca.live_bytes, 0);
    }
    /* a Lennard-Jones liquid, velocity Verlet, 2-D and 3-D */
    for (int dim = 2; dim <= 3; dim++) {
        ts_counting_alloc ca = {0};
        cdyn_allocator a = ts_counting_allocator(&ca);
        cdyn_system *sys;
        ok(cdyn_system_create_with_allocator(dim, &a, &sys));
        static cdyn_particle p[1024];
        size_t n = ts_make_fluid(sys, dim == 3 ? 4 : 12, 0.7, 1.0, 0.05, 5, p);
        assert_true(n > 0 && n <= 1024);
        cdyn_pair_params pp;
        cdyn_force f;
        ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ));
        ok(cdyn_force_add_pair_set(sys, &pp, p, n, &f));
        ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET));
        ok(cdyn_system_step(sys, 0.003));
        size_t allocs = ca.allocs, frees = ca.frees;
        if (dim == 3) /* the shift needs room for 3 values per index */
            exercise(sys, f, p[0], false);
        else
            for (int s = 0; s < 500; s++)
                ok(cdyn_system_step(sys, 0.003));
        assert_int_equal(ca.allocs, allocs);
        assert_int_equal(ca.frees, frees);
        cdyn_system_destroy(sys);
        assert_int_equal(ca.live_bytes, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steps_allocate_nothing),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_exclusions_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
