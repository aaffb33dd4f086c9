/* The host task system (include/cdyn/tasks.h):
 *  - the setters and getters of systems and lattices check what they are
 *    given and change nothing on bad input;
 *  - thread-count determinism: the same scenes (a long rod chain under
 *    RATTLE, a free fall of many particles, a large spring network, a
 *    liquid of a pair set, many particles on grounds, a comb of rods and a
 *    long chain under the multiplier solve) stepped without a task system,
 *    through the reference pool over POSIX threads (examples/task_pool.c)
 *    with 1, 2 and 4 workers, and through a serial host that runs the
 *    ranges of every loop one item at a time in reverse order, end with
 *    state hashes equal
 *    bit for bit (the long chains' runs without a task system excepted:
 *    their solves are cut into segments only for a task system). The
 *    scenes are large enough for the library to hand its loops over
 *    (checked by counting the loops the hosts received);
 *  - the cut multiplier solve of a hanging chain gives the weights the rods
 *    carry, as the uncut one does, and leaves a redundant row to the
 *    general path. */
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
#include "task_pool.h"

/* ------------------------------------------------------------------------
 * Checks of the setters and getters
 * ------------------------------------------------------------------------ */

static void test_init_defaults(void **state)
{
    (void)state;
    cdyn_task_system ts;
    memset(&ts, 0xab, sizeof ts);
    cdyn_task_system_init(&ts);
    assert_int_equal(ts.size, sizeof ts);
    assert_int_equal(ts.worker_count, 1);
    assert_null(ts.enqueue);
    assert_null(ts.finish);
    assert_null(ts.user);
    cdyn_task_system_init(NULL); /* ignored */
}

static void test_system_set_get(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    ts_reverse_host h = {0, 0, 0};
    cdyn_task_system good = ts_reverse_tasks(&h, 4), out;

    /* The default is the serial one. */
    out.size = sizeof out;
    assert_int_equal(cdyn_system_get_task_system(sys, &out), CDYN_OK);
    assert_int_equal(out.worker_count, 1);
    assert_null(out.enqueue);

    /* Bad input: refused, nothing changed. */
    cdyn_task_system bad = good;
    bad.size = sizeof bad - 1;
    assert_int_equal(cdyn_system_set_task_system(sys, &bad), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(sys), "size"));
    bad = good;
    bad.finish = NULL;
    assert_int_equal(cdyn_system_set_task_system(sys, &bad), CDYN_ERR_INVALID_ARGUMENT);
    bad = good;
    bad.enqueue = NULL;
    assert_int_equal(cdyn_system_set_task_system(sys, &bad), CDYN_ERR_INVALID_ARGUMENT);
    bad = good;
    bad.worker_count = 0;
    assert_int_equal(cdyn_system_set_task_system(sys, &bad), CDYN_ERR_INVALID_ARGUMENT);
    bad.worker_count = 1025;
    assert_int_equal(cdyn_system_set_task_system(sys, &bad), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_set_task_system(NULL, &good), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_get_task_system(sys, &out), CDYN_OK);
    assert_null(out.enqueue);

    /* Set, read back (whole and as a prefix), reset. */
    assert_int_equal(cdyn_system_set_task_system(sys, &good), CDYN_OK);
    assert_int_equal(cdyn_system_get_task_system(sys, &out), CDYN_OK);
    assert_int_equal(out.worker_count, 4);
    assert_ptr_equal(out.user, &h);
    assert_true(out.enqueue == good.enqueue && out.finish == good.finish);
    cdyn_task_system prefix;
    memset(&prefix, 0, sizeof prefix);
    prefix.size = offsetof(cdyn_task_system, enqueue);
    assert_int_equal(cdyn_system_get_task_system(sys, &prefix), CDYN_OK);
    assert_int_equal(prefix.worker_count, 4);
    assert_null(prefix.enqueue); /* past the caller's size: not written */
    out.size = sizeof(size_t) - 1;
    assert_int_equal(cdyn_system_get_task_system(sys, &out), CDYN_ERR_INVALID_ARGUMENT);
    out.size = sizeof out;
    assert_int_equal(cdyn_system_get_task_system(sys, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_get_task_system(NULL, &out), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_set_task_system(sys, NULL), CDYN_OK);
    assert_int_equal(cdyn_system_get_task_system(sys, &out), CDYN_OK);
    assert_int_equal(out.worker_count, 1);
    assert_null(out.enqueue);
    cdyn_system_destroy(sys);
}

static void test_lattice_set_get(void **state)
{
    (void)state;
    cdyn_lattice *lat;
    assert_int_equal(cdyn_lattice_create(16, 16, 1, NULL, &lat), CDYN_OK);
    ts_reverse_host h = {0, 0, 0};
    cdyn_task_system good = ts_reverse_tasks(&h, 4), out, bad = good;
    bad.worker_count = 0;
    assert_int_equal(cdyn_lattice_set_task_system(lat, &bad), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_set_task_system(NULL, &good), CDYN_ERR_INVALID_ARGUMENT);
    out.size = sizeof out;
    assert_int_equal(cdyn_lattice_get_task_system(lat, &out), CDYN_OK);
    assert_null(out.enqueue);
    assert_int_equal(cdyn_lattice_set_task_system(lat, &good), CDYN_OK);
    assert_int_equal(cdyn_lattice_get_task_system(lat, &out), CDYN_OK);
    assert_int_equal(out.worker_count, 4);
    assert_int_equal(cdyn_lattice_get_task_system(lat, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_get_task_system(NULL, &out), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_set_task_system(lat, NULL), CDYN_OK);
    cdyn_lattice_destroy(lat);
}

/* ------------------------------------------------------------------------
 * Thread-count determinism
 * ------------------------------------------------------------------------ */

/* How a run is hosted: no task system, the reverse host, or the pool with
 * 1, 2 or 4 workers. */
enum { HOST_NONE, HOST_REVERSE, HOST_POOL1, HOST_POOL2, HOST_POOL4, N_HOSTS };
static const unsigned pool_workers[N_HOSTS] = {0, 0, 1, 2, 4};

typedef struct host {
    ts_reverse_host reverse;
    task_pool *pool;
    cdyn_task_system ts;
} host;

/* Sets host @p which up; returns the task system to hand over (NULL for
 * none). */
static const cdyn_task_system *host_open(host *h, int which)
{
    memset(h, 0, sizeof *h);
    if (which == HOST_NONE)
        return NULL;
    if (which == HOST_REVERSE) {
        h->ts = ts_reverse_tasks(&h->reverse, 4);
        return &h->ts;
    }
    assert_int_equal(task_pool_create(pool_workers[which], &h->pool), 0);
    cdyn_task_system_init(&h->ts);
    task_pool_fill(h->pool, &h->ts);
    return &h->ts;
}

/* Loops the host received. */
static unsigned long long host_loops(const host *h)
{
    if (h->pool) {
        unsigned long long loops, caller, threads;
        task_pool_counts(h->pool, &loops, &caller, &threads);
        return loops;
    }
    return h->reverse.loops;
}

static void host_close(host *h)
{
    task_pool_destroy(h->pool);
    assert_int_equal(h->reverse.bad_handles, 0); /* finish got enqueue's handle */
}

typedef cdyn_status (*scene_fn)(cdyn_system *sys);

/* Builds a scene, hands it host @p which, steps it and returns the hash of
 * its final state; *loops gets the loops the host received. */
static uint64_t run_scene(int dim, scene_fn build, int steps, double dt, int which,
                          unsigned long long *loops)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(dim, &sys), CDYN_OK);
    assert_int_equal(build(sys), CDYN_OK);
    host h;
    const cdyn_task_system *ts = host_open(&h, which);
    assert_int_equal(cdyn_system_set_task_system(sys, ts), CDYN_OK);
    for (int s = 0; s < steps; s++)
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
    ts_state st;
    ts_state_capture(sys, &st);
    uint64_t hash = ts_state_hash(&st, 0);
    ts_state_free(&st);
    assert_int_equal(cdyn_system_set_task_system(sys, NULL), CDYN_OK);
    cdyn_system_destroy(sys);
    *loops = host_loops(&h);
    host_close(&h);
    return hash;
}

/* Runs the scene under every host: equal hashes, and loops handed over
 * by every host with more than one worker. With @p like_serial false the
 * run without a task system may differ (long RATTLE chains are cut into
 * segments only for a task system) and is not compared. */
static void check_scene_as(int dim, scene_fn build, int steps, double dt, bool like_serial)
{
    unsigned long long loops;
    uint64_t serial = run_scene(dim, build, steps, dt, HOST_NONE, &loops);
    uint64_t first = 0;
    for (int which = HOST_REVERSE; which < N_HOSTS; which++) {
        uint64_t hash = run_scene(dim, build, steps, dt, which, &loops);
        if (which == HOST_REVERSE)
            first = hash;
        if (like_serial && hash != serial)
            fail_msg("host %d: state hash %016llx, serial %016llx", which,
                     (unsigned long long)hash, (unsigned long long)serial);
        if (hash != first)
            fail_msg("host %d: state hash %016llx, reverse host %016llx", which,
                     (unsigned long long)hash, (unsigned long long)first);
        if (which == HOST_POOL1)
            assert_int_equal(loops, 0); /* one worker: everything inline */
        else if (loops == 0)
            fail_msg("host %d received no loop: the scene is too small to test it", which);
    }
}

static void check_scene(int dim, scene_fn build, int steps, double dt)
{
    check_scene_as(dim, build, steps, dt, true);
}

/* The standard chain of @p links links under @p integ. */
static cdyn_status standard_chain_under(cdyn_system *sys, int links, cdyn_integrator integ)
{
    cdyn_status st = ts_standard_chain(sys, links, NULL, NULL);
    return st ? st : cdyn_system_set_integrator(sys, integ);
}

/* The standard chain of 12000 links under RATTLE: the partitioned kernel
 * with three segments under a task system, one segment without. */
static cdyn_status chain_scene(cdyn_system *sys)
{
    return standard_chain_under(sys, 12000, CDYN_INTEGRATOR_RATTLE);
}

static void test_chain_determinism(void **state)
{
    (void)state;
    check_scene_as(2, chain_scene, 20, 1e-3, false);
    check_scene_as(3, chain_scene, 5, 1e-3, false);
}

/* Two chains of 5000 and 5001 links from one fixed pivot under RATTLE:
 * paths too short to cut, each swept from both ends at once, on the host's
 * threads side by side (their 10001 rows pass the threshold for handing a
 * sweep over). The plan does not depend on the task system, so the bits
 * are the serial run's. */
static cdyn_status two_paths_scene(cdyn_system *sys)
{
    const int dim = cdyn_system_get_dimension(sys);
    cdyn_particle pivot, prev, p;
    cdyn_constraint c;
    cdyn_force g;
    cdyn_status st = cdyn_particle_add(sys, 1.0, (double[]){0, 0, 0}, NULL, &pivot);
    if (!st)
        st = cdyn_particle_set_fixed(sys, pivot, true);
    for (int path = 0; path < 2 && !st; path++) {
        prev = pivot;
        for (int i = 1; i <= 5000 + path && !st; i++) {
            const double s = path ? -1.0 : 1.0;
            st = cdyn_particle_add(sys, 1.0 + 0.5 * (i % 3),
                                   (double[]){s * 0.08 * i, -0.06 * i, 0},
                                   (double[]){0, 0, dim == 3 ? 0.1 * cos(i) : 0}, &p);
            if (!st)
                st = cdyn_constraint_add_distance(sys, prev, p, 0.1, &c);
            prev = p;
        }
    }
    if (!st)
        st = cdyn_force_add_gravity(sys, (double[]){0, -9.81, 0}, &g);
    return st ? st : cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE);
}

static void test_twisted_paths_determinism(void **state)
{
    (void)state;
    check_scene(2, two_paths_scene, 20, 1e-3);
    check_scene(3, two_paths_scene, 5, 1e-3);
}

/* 70000 particles thrown in a fan under gravity (velocity Verlet). */
static cdyn_status fall_scene(cdyn_system *sys)
{
    const int dim = cdyn_system_get_dimension(sys);
    const double g[3] = {0, -9.81, 0};
    cdyn_force f;
    cdyn_status st = cdyn_force_add_gravity(sys, g, &f);
    if (st || (st = cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET)))
        return st;
    uint64_t seed = 7;
    for (int i = 0; i < 70000 && !st; i++) {
        double x[3], v[3];
        for (int k = 0; k < dim; k++) {
            x[k] = ts_rand_sym(&seed);
            v[k] = 3.0 * ts_rand_sym(&seed);
        }
        cdyn_particle p;
        st = cdyn_particle_add(sys, 1.0 + 0.5 * ts_rand_sym(&seed), x, v, &p);
    }
    return st;
}

static void test_fall_determinism(void **state)
{
    (void)state;
    check_scene(2, fall_scene, 10, 1e-3);
    check_scene(3, fall_scene, 3, 1e-3);
}

/* The fall with drag under @p integ, whose passes over the state go to
 * the host's threads (140000 values in 2-D). */
static cdyn_status fall_with_drag(cdyn_system *sys, cdyn_integrator integ)
{
    cdyn_force f;
    cdyn_status st = fall_scene(sys);
    if (!st)
        st = cdyn_force_add_drag(sys, 0.3, &f);
    if (!st)
        st = cdyn_system_set_integrator(sys, integ);
    return st;
}

static cdyn_status fall_rk4_scene(cdyn_system *sys)
{
    return fall_with_drag(sys, CDYN_INTEGRATOR_RK4);
}

/* RK45's error norm is a maximum over ranges of values, as its stages and
 * its accepted state are formed range by range. */
static cdyn_status fall_rk45_scene(cdyn_system *sys)
{
    return fall_with_drag(sys, CDYN_INTEGRATOR_RK45);
}

static cdyn_status fall_euler_scene(cdyn_system *sys)
{
    return fall_with_drag(sys, CDYN_INTEGRATOR_EXPLICIT_EULER);
}

static void test_rk4_determinism(void **state)
{
    (void)state;
    check_scene(2, fall_rk4_scene, 5, 1e-3);
}

static void test_rk45_and_euler_determinism(void **state)
{
    (void)state;
    check_scene(2, fall_rk45_scene, 3, 1e-2);
    check_scene(2, fall_euler_scene, 5, 1e-3);
}

/* RK45's error norm over many ranges: 40000 particles drift freely (no
 * error) and the last, in the last range of values, oscillates on a spring
 * to a fixed anchor (omega = 50 rad/s). Its error alone must keep the
 * internal steps short: after 0.5 s it is where x = A cos(omega t) puts
 * it, with and without a task system. */
static void test_rk45_error_in_the_last_range(void **state)
{
    (void)state;
    for (int which = HOST_NONE; which <= HOST_POOL2; which += HOST_POOL2 - HOST_NONE) {
        cdyn_system *sys;
        assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
        assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK45), CDYN_OK);
        cdyn_particle p, anchor;
        for (int i = 0; i < 40000; i++) {
            const double x[2] = {0.01 * i, 1.0}, v[2] = {1.0, 0.0};
            assert_int_equal(cdyn_particle_add(sys, 1.0, x, v, &p), CDYN_OK);
        }
        const double origin[2] = {0, -1}, start[2] = {0.1, -1};
        assert_int_equal(cdyn_particle_add(sys, 1.0, origin, NULL, &anchor), CDYN_OK);
        assert_int_equal(cdyn_particle_set_fixed(sys, anchor, true), CDYN_OK);
        assert_int_equal(cdyn_particle_add(sys, 1.0, start, NULL, &p), CDYN_OK);
        cdyn_force f;
        assert_int_equal(cdyn_force_add_spring(sys, anchor, p, 2500.0, 0.0, 0.0, &f), CDYN_OK);
        host h;
        assert_int_equal(cdyn_system_set_task_system(sys, host_open(&h, which)), CDYN_OK);
        for (int s = 0; s < 5; s++)
            assert_int_equal(cdyn_system_step(sys, 0.1), CDYN_OK);
        double x[2];
        assert_int_equal(cdyn_particle_get_position(sys, p, x), CDYN_OK);
        const double want = 0.1 * cos(50.0 * 0.5);
        if (!(fabs(x[0] - want) < 1e-6 && fabs(x[1] + 1.0) < 1e-12))
            fail_msg("host %d: oscillator at (%.9f, %.9f), expected (%.9f, -1)", which, x[0],
                     x[1], want);
        if (which == HOST_POOL2)
            assert_true(host_loops(&h) > 0);
        assert_int_equal(cdyn_system_set_task_system(sys, NULL), CDYN_OK);
        cdyn_system_destroy(sys);
        host_close(&h);
    }
}

/* A stray in a middle range of roots and in the last (ts_stray_scene):
 * the box's check runs in ranges of roots, and the range holding the stray
 * alone must see it. */
static cdyn_status stray_in_middle_scene(cdyn_system *sys)
{
    cdyn_particle p;
    return ts_stray_scene(sys, 35001, 11, &p);
}

static cdyn_status stray_at_end_scene(cdyn_system *sys)
{
    cdyn_particle p;
    return ts_stray_scene(sys, TS_STRAY_PARTICLES - 1, 11, &p);
}

static void test_strays_move_back(void **state)
{
    (void)state;
    check_scene(2, stray_in_middle_scene, 10, 1e-2);
    check_scene(2, stray_at_end_scene, 10, 1e-2);
    /* Each stray crossed the upper face once: one box length down. */
    const uint32_t slots[2] = {35001, TS_STRAY_PARTICLES - 1};
    for (int k = 0; k < 2; k++)
        for (int which = HOST_NONE; which <= HOST_POOL2; which += HOST_POOL2) {
            cdyn_system *sys;
            assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
            cdyn_particle stray;
            assert_int_equal(ts_stray_scene(sys, slots[k], 11, &stray), CDYN_OK);
            host h;
            assert_int_equal(cdyn_system_set_task_system(sys, host_open(&h, which)), CDYN_OK);
            for (int s = 0; s < 10; s++)
                assert_int_equal(cdyn_system_step(sys, 1e-2), CDYN_OK);
            int64_t image[2];
            double x[2];
            assert_int_equal(cdyn_particle_get_image(sys, stray, image), CDYN_OK);
            assert_int_equal(cdyn_particle_get_position(sys, stray, x), CDYN_OK);
            assert_true(image[0] == 1 && image[1] == 0);
            assert_true(x[0] >= 0 && x[0] < 100);
            assert_int_equal(cdyn_system_set_task_system(sys, NULL), CDYN_OK);
            cdyn_system_destroy(sys);
            host_close(&h);
        }
}

/* A perturbed 120 x 100 grid of unit masses joined by about 47000 damped
 * springs (edges and diagonals), free under gravity (velocity Verlet). */
static cdyn_status network_scene(cdyn_system *sys)
{
    const double g[3] = {0, -9.81, 0};
    cdyn_force f;
    if (ts_make_network(sys, 120, 100, 0.1, 400.0, 0.5, 0.2, 11, NULL) == 0)
        return CDYN_ERR_NO_MEMORY;
    cdyn_status st = cdyn_force_add_gravity(sys, g, &f);
    return st ? st : cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET);
}

static void test_spring_determinism(void **state)
{
    (void)state;
    check_scene(2, network_scene, 10, 1e-3);
    check_scene(3, network_scene, 3, 1e-3);
}

/* A dozen springs, too few to split: with a task system they are applied
 * in turn on the calling thread, to the serial bits, and no loop is handed
 * over. */
static cdyn_status few_springs_scene(cdyn_system *sys)
{
    return ts_make_network(sys, 3, 3, 0.1, 400.0, 0.5, 0.2, 11, NULL) == 0
               ? CDYN_ERR_NO_MEMORY
               : cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET);
}

static void test_few_springs(void **state)
{
    (void)state;
    unsigned long long loops;
    const uint64_t serial = run_scene(2, few_springs_scene, 10, 1e-3, HOST_NONE, &loops);
    for (int which = HOST_REVERSE; which < N_HOSTS; which++) {
        assert_true(run_scene(2, few_springs_scene, 10, 1e-3, which, &loops) == serial);
        assert_int_equal(loops, 0);
    }
}

/* A WCA liquid (a repulsive Lennard-Jones pair set) at density 0.8 in a
 * periodic box: 2 * 100^2 members in 2-D, 4 * 17^3 in 3-D (velocity
 * Verlet), enough members for several blocks of the pair kernel. */
static cdyn_status liquid_thinned(cdyn_system *sys, int n, bool thin)
{
    const int dim = cdyn_system_get_dimension(sys);
    const size_t count = ts_fluid_count(dim, n);
    cdyn_particle *p = malloc(count * sizeof *p);
    if (!p)
        return CDYN_ERR_NO_MEMORY;
    cdyn_status st = CDYN_ERR_NO_MEMORY;
    size_t kept = ts_make_fluid(sys, n, 0.8, 1.0, 0.05, 3, p);
    if (kept == count && thin) {
        /* Every other member of the lower half removed: the upper half,
         * twice as dense, has twice the pairs per member. */
        double lo[3], len[3];
        bool periodic[3], has_box;
        cdyn_system_get_box(sys, lo, len, periodic, &has_box);
        kept = 0;
        for (size_t i = 0; i < count; i++) {
            double x[3];
            cdyn_particle_get_position(sys, p[i], x);
            if (x[1] < lo[1] + 0.5 * len[1] && i % 2 && cdyn_particle_remove(sys, p[i]) == CDYN_OK)
                continue;
            p[kept++] = p[i];
        }
    }
    if (kept > 0) {
        cdyn_pair_params pp;
        cdyn_force f;
        cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE);
        st = cdyn_force_add_pair_set(sys, &pp, p, kept, &f);
        if (!st)
            st = cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET);
    }
    free(p);
    return st;
}

static cdyn_status liquid(cdyn_system *sys, int n)
{
    return liquid_thinned(sys, n, false);
}

static cdyn_status liquid_scene(cdyn_system *sys)
{
    return liquid(sys, cdyn_system_get_dimension(sys) == 2 ? 100 : 17);
}

/* 2 * 190^2 = 72200 members in 2-D, 4 * 26^3 = 70304 in 3-D: the
 * neighbour list's gather and its row-by-row build in blocks too. */
static cdyn_status big_liquid_scene(cdyn_system *sys)
{
    return liquid(sys, cdyn_system_get_dimension(sys) == 2 ? 190 : 26);
}

/* The same, the lower half thinned: the blocks of the upper half find
 * more rows than their share of the list's room, and the build falls back
 * to the calling thread. */
static cdyn_status uneven_liquid_scene(cdyn_system *sys)
{
    return liquid_thinned(sys, cdyn_system_get_dimension(sys) == 2 ? 190 : 26, true);
}

static void test_pair_determinism(void **state)
{
    (void)state;
    check_scene(2, liquid_scene, 20, 2e-3);
    check_scene(3, liquid_scene, 10, 2e-3);
    check_scene(2, big_liquid_scene, 20, 2e-3);
    check_scene(3, big_liquid_scene, 5, 2e-3);
    check_scene(2, uneven_liquid_scene, 20, 2e-3);
    check_scene(3, uneven_liquid_scene, 5, 2e-3);
}

/* 30000 particles thrown about just above a plane with friction, inside a
 * bowl (a hollow sphere), many of them in contact from the start (velocity
 * Verlet, gravity). */
static cdyn_status grounds_scene(cdyn_system *sys)
{
    const int dim = cdyn_system_get_dimension(sys);
    const double g[3] = {0, -9.81, 0}, up[3] = {0, 1, 0}, c[3] = {0, 0.5, 0};
    cdyn_force f;
    cdyn_ground plane, bowl;
    cdyn_status st = cdyn_force_add_gravity(sys, g, &f);
    if (st || (st = cdyn_ground_add_plane(sys, up, 0.0, &plane)) ||
        (st = cdyn_ground_set_friction(sys, plane, 0.5)) ||
        (st = cdyn_ground_add_sphere(sys, c, 1.0, true, &bowl)) ||
        (st = cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET)))
        return st;
    uint64_t seed = 5;
    for (int i = 0; i < 30000 && !st; i++) {
        double x[3], v[3];
        for (int k = 0; k < dim; k++) {
            x[k] = 0.95 * ts_rand_sym(&seed);
            v[k] = ts_rand_sym(&seed);
        }
        x[1] = 0.1 * x[1] + 0.05;
        cdyn_particle p;
        st = cdyn_particle_add(sys, 1.0, x, v, &p);
    }
    return st;
}

static void test_ground_determinism(void **state)
{
    (void)state;
    check_scene(2, grounds_scene, 20, 1e-4);
    check_scene(3, grounds_scene, 10, 1e-4);
}

/* A comb of rods: a spine of 100 particles (the first fixed) with a
 * hanging chain of 100 below each, 10^4 rods under gravity, stepped with
 * the multiplier solve (symplectic Euler): a tree, not a path, so the rows
 * go through the general pass. */
static cdyn_status comb_scene(cdyn_system *sys)
{
    const double g[3] = {0, -9.81, 0};
    cdyn_force f;
    cdyn_status st = cdyn_force_add_gravity(sys, g, &f);
    if (st || (st = cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_SYMPLECTIC_EULER)))
        return st;
    cdyn_particle spine = 0;
    for (int i = 0; i < 100 && !st; i++) {
        double x[3] = {0.1 * i, 0, 0};
        cdyn_particle s, prev;
        cdyn_constraint c;
        if ((st = cdyn_particle_add(sys, 1.0, x, NULL, &s)))
            break;
        if (i == 0)
            st = cdyn_particle_set_fixed(sys, s, true);
        else
            st = cdyn_constraint_add_distance(sys, spine, s, 0.1, &c);
        spine = prev = s;
        for (int j = 1; j <= 100 && !st; j++) {
            double y[3] = {0.1 * i + 0.01 * j, -0.1 * j, 0};
            cdyn_particle q;
            if (!(st = cdyn_particle_add(sys, 1.0, y, NULL, &q)))
                st = cdyn_constraint_add_distance(sys, prev, q, 0.1, &c);
            prev = q;
        }
    }
    return st;
}

static void test_rows_determinism(void **state)
{
    (void)state;
    check_scene(2, comb_scene, 5, 1e-3);
    check_scene(3, comb_scene, 3, 1e-3);
}

/* The standard chain of 25000 links under symplectic Euler: the multiplier
 * solve cut into three segments under a task system (a middle one has
 * neighbours on both sides), uncut without one. */
static cdyn_status chain_euler_scene(cdyn_system *sys)
{
    return standard_chain_under(sys, 25000, CDYN_INTEGRATOR_SYMPLECTIC_EULER);
}

static void test_chain_euler_determinism(void **state)
{
    (void)state;
    check_scene_as(2, chain_euler_scene, 20, 1e-3, false);
    check_scene_as(3, chain_euler_scene, 10, 1e-3, false);
}

/* Hanging chains of unit masses at rest below one fixed pivot (rods of
 * 0.1 m, gravity 9.81 along -y), @p chains of @p links each, built one
 * after the other so that their rows follow each other; with @p pinned the
 * last particle of each is fixed too. rods[c * links + i] joins particles
 * i and i + 1 of chain c (particle 0 the pivot). */
#define HANG_LINKS 25000
static void hanging_chains(cdyn_system *sys, int chains, int links, bool pinned,
                           cdyn_constraint *rods)
{
    const double g[3] = {0, -9.81, 0};
    cdyn_force f;
    assert_int_equal(cdyn_force_add_gravity(sys, g, &f), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_SYMPLECTIC_EULER),
                     CDYN_OK);
    const double top[3] = {0, 0, 0};
    cdyn_particle pivot;
    assert_int_equal(cdyn_particle_add(sys, 1.0, top, NULL, &pivot), CDYN_OK);
    assert_int_equal(cdyn_particle_set_fixed(sys, pivot, true), CDYN_OK);
    for (int c = 0; c < chains; c++) {
        cdyn_particle prev = pivot;
        for (int i = 1; i <= links; i++) {
            double x[3] = {0, -0.1 * i, 0};
            cdyn_particle p;
            assert_int_equal(cdyn_particle_add(sys, 1.0, x, NULL, &p), CDYN_OK);
            if (pinned && i == links)
                assert_int_equal(cdyn_particle_set_fixed(sys, p, true), CDYN_OK);
            assert_int_equal(
                cdyn_constraint_add_distance(sys, prev, p, 0.1, &rods[c * links + i - 1]),
                CDYN_OK);
            prev = p;
        }
    }
}

/* Hanging chains at rest: rod i of a chain of N links carries the weight
 * of the N - i masses below it, so its multiplier is -(N - i) g / L (the
 * force on the lower particle is lambda (x_b - x_a), upwards), with and
 * without the cut, to the conditioning of a chain's matrix: its condition
 * number is about (2 N / pi)^2, 2.5e8 for N = 25000. One chain of 25001
 * links (three segments), and two of 12500 from the same pivot, whose
 * rows do not couple where one chain ends and the next begins, inside a
 * segment, and whose first rows share the fixed pivot. */
static void test_cut_hanging_chain(void **state)
{
    (void)state;
    cdyn_constraint *rods = malloc((HANG_LINKS + 1) * sizeof *rods);
    assert_non_null(rods);
    for (int chains = 1; chains <= 2; chains++) {
        /* An odd row count for the one chain: without a task system it is
         * eliminated from both ends with a row left between them. */
        const int links = chains == 1 ? HANG_LINKS + 1 : HANG_LINKS / chains;
        for (int which = HOST_NONE; which <= HOST_POOL2; which += HOST_POOL2 - HOST_NONE) {
            for (int dim = 2; dim <= 3; dim++) {
                cdyn_system *sys;
                assert_int_equal(cdyn_system_create(dim, &sys), CDYN_OK);
                hanging_chains(sys, chains, links, false, rods);
                host h;
                assert_int_equal(cdyn_system_set_task_system(sys, host_open(&h, which)),
                                 CDYN_OK);
                assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
                double worst = 0;
                for (int r = 0; r < chains * links; r++) {
                    double lambda, want = -(double)(links - r % links) * 9.81 / 0.1;
                    assert_int_equal(cdyn_constraint_get_multipliers(sys, rods[r], &lambda, 1),
                                     CDYN_OK);
                    double e = fabs(lambda - want) / (links * 9.81 / 0.1);
                    worst = e > worst ? e : worst;
                }
                if (!(worst < 1e-15 * (double)links * links))
                    fail_msg("%d chains, host %d, %d-D: multipliers off by %.3e of the largest",
                             chains, which, dim, worst);
                print_message("%d chains, host %d, %d-D: multipliers off by %.3e of the "
                              "largest\n", chains, which, dim, worst);
                if (which == HOST_POOL2)
                    assert_true(host_loops(&h) > 0);
                assert_int_equal(cdyn_system_set_task_system(sys, NULL), CDYN_OK);
                cdyn_system_destroy(sys);
                host_close(&h);
            }
        }
    }
    free(rods);
}

/* A hanging chain whose last particle is fixed too has one redundant row
 * (the rods' extensions along the line sum to the fixed distance; the
 * tensions are statically indeterminate): the cut solve must not hide it.
 * Under a task system the step goes to the general path as without one:
 * one row dropped, the same state. */
static void test_cut_redundant_chain(void **state)
{
    (void)state;
    uint64_t hashes[2];
    for (int k = 0; k < 2; k++) {
        cdyn_system *sys;
        assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
        cdyn_constraint *rods = malloc(HANG_LINKS * sizeof *rods);
        assert_non_null(rods);
        hanging_chains(sys, 1, HANG_LINKS, true, rods);
        host h;
        assert_int_equal(cdyn_system_set_task_system(sys, host_open(&h, k ? HOST_POOL2 : HOST_NONE)),
                         CDYN_OK);
        for (int s = 0; s < 3; s++)
            assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
        cdyn_solver_stats st = {.size = sizeof st};
        assert_int_equal(cdyn_system_get_solver_stats(sys, &st), CDYN_OK);
        assert_int_equal(st.redundant_rows, 1);
        ts_state x;
        ts_state_capture(sys, &x);
        hashes[k] = ts_state_hash(&x, 0);
        ts_state_free(&x);
        assert_int_equal(cdyn_system_set_task_system(sys, NULL), CDYN_OK);
        cdyn_system_destroy(sys);
        host_close(&h);
        free(rods);
    }
    assert_true(hashes[0] == hashes[1]);
}

/* With a parallel task system a step still allocates nothing once the
 * system's shape is set (the scratch of the split spring evaluation and of
 * the cut chain solve is sized by the first step), and a failed allocation
 * of that scratch fails the step with CDYN_ERR_NO_MEMORY, the state
 * unchanged, after which the step succeeds. */
static void check_no_alloc_and_oom(scene_fn build)
{
    ts_counting_alloc count = {0};
    cdyn_allocator a = ts_counting_allocator(&count);
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create_with_allocator(2, &a, &sys), CDYN_OK);
    assert_int_equal(build(sys), CDYN_OK);
    ts_reverse_host h = {0, 0, 0};
    cdyn_task_system ts = ts_reverse_tasks(&h, 4);
    assert_int_equal(cdyn_system_set_task_system(sys, &ts), CDYN_OK);

    /* Fail the first step's Nth allocation, N = 1, 2 ... until it succeeds. */
    ts_state before;
    ts_state_capture(sys, &before);
    const uint64_t hash0 = ts_state_hash(&before, 0);
    ts_state_free(&before);
    int failures = 0;
    for (;;) {
        count.fail_at = count.allocs + (size_t)failures + 1; /* the step's Nth */
        cdyn_status st = cdyn_system_step(sys, 1e-3);
        count.fail_at = 0;
        if (st == CDYN_OK)
            break;
        assert_int_equal(st, CDYN_ERR_NO_MEMORY);
        ts_state after;
        ts_state_capture(sys, &after);
        assert_true(ts_state_hash(&after, 0) == hash0);
        ts_state_free(&after);
        assert_true(++failures < 100);
    }
    assert_true(failures >= 1);
    size_t allocs = count.allocs;
    unsigned long loops = h.loops;
    for (int i = 0; i < 5; i++)
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    assert_int_equal(count.allocs, allocs);
    assert_true(h.loops > loops);
    assert_int_equal(h.bad_handles, 0);
    cdyn_system_destroy(sys);
    assert_int_equal(count.live_bytes, 0);
}

/* The split spring evaluation's scratch and the cut chain solve's. */
static void test_no_alloc_and_oom(void **state)
{
    (void)state;
    check_no_alloc_and_oom(network_scene);
    check_no_alloc_and_oom(chain_euler_scene);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_defaults),
        cmocka_unit_test(test_system_set_get),
        cmocka_unit_test(test_lattice_set_get),
        cmocka_unit_test(test_chain_determinism),
        cmocka_unit_test(test_twisted_paths_determinism),
        cmocka_unit_test(test_fall_determinism),
        cmocka_unit_test(test_rk4_determinism),
        cmocka_unit_test(test_rk45_and_euler_determinism),
        cmocka_unit_test(test_rk45_error_in_the_last_range),
        cmocka_unit_test(test_strays_move_back),
        cmocka_unit_test(test_spring_determinism),
        cmocka_unit_test(test_few_springs),
        cmocka_unit_test(test_pair_determinism),
        cmocka_unit_test(test_ground_determinism),
        cmocka_unit_test(test_rows_determinism),
        cmocka_unit_test(test_chain_euler_determinism),
        cmocka_unit_test(test_cut_hanging_chain),
        cmocka_unit_test(test_cut_redundant_chain),
        cmocka_unit_test(test_no_alloc_and_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
