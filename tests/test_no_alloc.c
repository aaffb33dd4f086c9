/* No allocation in the step: with a counting allocator, once the shape
 * (particles, forces) is set and one step has run with an integrator,
 * further steps with it allocate and free nothing, for every integrator;
 * neither do queries, bulk reads and writes, nor changes that keep the
 * shape (positions, velocities, masses, fixing, the clock, going back to an
 * integrator that needs less workspace); nor, once the first force was
 * applied, do applied forces and the bulk reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define NP 24

static const cdyn_integrator ALL[] = {
    CDYN_INTEGRATOR_EXPLICIT_EULER, CDYN_INTEGRATOR_SYMPLECTIC_EULER,
    CDYN_INTEGRATOR_VELOCITY_VERLET, CDYN_INTEGRATOR_RK4, CDYN_INTEGRATOR_RK45,
};
#define N_INTEGRATORS (sizeof ALL / sizeof ALL[0])

static int wind(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                const double *v, double *f, void *user)
{
    (void)sys;
    (void)x;
    unsigned long *calls = user;
    ++*calls;
    for (size_t i = 0; i < n; i++)
        f[i * (size_t)dim] += 0.2 - 0.01 * v[i * (size_t)dim] + 0.001 * t;
    return 0;
}

typedef struct world {
    ts_counting_alloc ca;
    cdyn_allocator alloc;
    cdyn_system *sys;
    cdyn_particle p[NP];
    cdyn_force spring0, gravity;
    unsigned long calls;
    int dim;
} world;

static void build(world *w, int dim)
{
    memset(w, 0, sizeof *w);
    w->dim = dim;
    w->alloc = ts_counting_allocator(&w->ca);
    assert_int_equal(cdyn_system_create_with_allocator(dim, &w->alloc, &w->sys), CDYN_OK);
    for (int i = 0; i < NP; i++) {
        double pos[3] = {0.3 * (double)(i % 6), 0.3 * (double)(i / 6), 0.01 * (double)i};
        assert_int_equal(cdyn_particle_add(w->sys, 1.0, pos, NULL, &w->p[i]), CDYN_OK);
    }
    assert_int_equal(cdyn_particle_set_fixed(w->sys, w->p[0], true), CDYN_OK);
    cdyn_force f;
    for (int i = 0; i < NP; i++) {
        if (i % 6 != 5) {
            assert_int_equal(cdyn_force_add_spring(w->sys, w->p[i], w->p[i + 1], 30, 0.2, 0.3, &f),
                             CDYN_OK);
            if (i == 0)
                w->spring0 = f;
        }
        if (i + 6 < NP)
            assert_int_equal(cdyn_force_add_spring(w->sys, w->p[i], w->p[i + 6], 30, 0.2, 0.3, &f),
                             CDYN_OK);
    }
    const double g[3] = {0, -9.81, 0};
    assert_int_equal(cdyn_force_add_gravity(w->sys, g, &w->gravity), CDYN_OK);
    assert_int_equal(cdyn_force_add_drag(w->sys, 0.01, &f), CDYN_OK);
    assert_int_equal(cdyn_force_add_callback(w->sys, wind, &w->calls, true, &f), CDYN_OK);
}

/* Counts the allocator saw so far. */
typedef struct counts {
    size_t allocs, frees, live;
} counts;

static counts now(const world *w)
{
    counts c = {w->ca.allocs, w->ca.frees, w->ca.live_bytes};
    return c;
}

static void assert_unchanged(const counts *a, const counts *b, const char *what)
{
    if (a->allocs != b->allocs || a->frees != b->frees || a->live != b->live)
        fail_msg("%s: allocs %zu -> %zu, frees %zu -> %zu, live bytes %zu -> %zu", what,
                 a->allocs, b->allocs, a->frees, b->frees, a->live, b->live);
}

static void check_steps_allocate_nothing(int dim)
{
    static world w;
    build(&w, dim);
    for (size_t k = 0; k < N_INTEGRATORS; k++) {
        assert_int_equal(cdyn_system_set_integrator(w.sys, ALL[k]), CDYN_OK);
        /* The first step with this integrator may size the workspace. */
        assert_int_equal(cdyn_system_step(w.sys, 1e-3), CDYN_OK);
        counts before = now(&w);
        unsigned long calls_before = w.calls;
        for (int i = 0; i < 200; i++)
            assert_int_equal(cdyn_system_step(w.sys, 1e-3), CDYN_OK);
        counts after = now(&w);
        assert_true(w.calls > calls_before); /* the steps did evaluate forces */
        assert_unchanged(&before, &after, "steps");
    }
    /* Back to integrators needing less workspace: nothing at all. */
    counts before = now(&w);
    for (size_t k = 0; k < N_INTEGRATORS; k++) {
        assert_int_equal(cdyn_system_set_integrator(w.sys, ALL[k]), CDYN_OK);
        for (int i = 0; i < 20; i++)
            assert_int_equal(cdyn_system_step(w.sys, 1e-3), CDYN_OK);
    }
    counts after = now(&w);
    assert_unchanged(&before, &after, "switching back");
    cdyn_system_destroy(w.sys);
    assert_int_equal(w.ca.live_bytes, 0);
    assert_int_equal(w.ca.allocs, w.ca.frees);
}

static void test_steps_2d(void **state)
{
    (void)state;
    check_steps_allocate_nothing(2);
}

static void test_steps_3d(void **state)
{
    (void)state;
    check_steps_allocate_nothing(3);
}

/* Queries and changes that keep the shape allocate nothing either, and the
 * steps after them neither. */
static void test_queries_and_state_changes(void **state)
{
    (void)state;
    static world w;
    build(&w, 3);
    assert_int_equal(cdyn_system_set_integrator(w.sys, CDYN_INTEGRATOR_RK45), CDYN_OK);
    assert_int_equal(cdyn_system_step(w.sys, 1e-3), CDYN_OK);
    counts before = now(&w);

    double x[3 * NP], v[3 * NP], e, vec[3], t;
    size_t n;
    bool fixed;
    cdyn_force_kind kind;
    cdyn_rk45_stats rs = {.size = sizeof rs};
    for (int round = 0; round < 3; round++) {
        assert_int_equal(cdyn_system_get_positions(w.sys, x, 3 * NP), CDYN_OK);
        assert_int_equal(cdyn_system_get_velocities(w.sys, v, 3 * NP), CDYN_OK);
        x[3] += 0.01;
        v[4] -= 0.01;
        assert_int_equal(cdyn_system_set_positions(w.sys, x, 3 * NP), CDYN_OK);
        assert_int_equal(cdyn_system_set_velocities(w.sys, v, 3 * NP), CDYN_OK);
        assert_int_equal(cdyn_system_get_kinetic_energy(w.sys, &e), CDYN_OK);
        assert_int_equal(cdyn_system_get_potential_energy(w.sys, &e), CDYN_OK);
        assert_int_equal(cdyn_system_get_momentum(w.sys, vec), CDYN_OK);
        assert_int_equal(cdyn_system_get_angular_momentum(w.sys, vec), CDYN_OK);
        assert_int_equal(cdyn_system_get_center_of_mass(w.sys, vec, &e), CDYN_OK);
        assert_int_equal(cdyn_system_get_particle_count(w.sys, &n), CDYN_OK);
        assert_int_equal(cdyn_system_get_index_count(w.sys, &n), CDYN_OK);
        assert_int_equal(cdyn_system_get_rk45_stats(w.sys, &rs), CDYN_OK);
        assert_int_equal(cdyn_system_get_time(w.sys, &t), CDYN_OK);
        assert_int_equal(cdyn_system_set_time(w.sys, t + 1.0), CDYN_OK);
        assert_int_equal(ts_set_rk45_tolerance(w.sys, 1e-8, 1e-8), CDYN_OK);
        assert_int_equal(cdyn_particle_get_position(w.sys, w.p[3], vec), CDYN_OK);
        vec[0] += 0.001;
        assert_int_equal(cdyn_particle_set_position(w.sys, w.p[3], vec), CDYN_OK);
        assert_int_equal(cdyn_particle_get_velocity(w.sys, w.p[3], vec), CDYN_OK);
        assert_int_equal(cdyn_particle_set_velocity(w.sys, w.p[3], vec), CDYN_OK);
        assert_int_equal(cdyn_particle_get_mass(w.sys, w.p[3], &e), CDYN_OK);
        assert_int_equal(cdyn_particle_set_mass(w.sys, w.p[3], e * 1.5), CDYN_OK);
        assert_int_equal(cdyn_particle_set_fixed(w.sys, w.p[5], round % 2 == 0), CDYN_OK);
        assert_int_equal(cdyn_particle_get_fixed(w.sys, w.p[5], &fixed), CDYN_OK);
        assert_int_equal(cdyn_force_get_kind(w.sys, w.spring0, &kind), CDYN_OK);
        assert_int_equal(cdyn_force_get_energy(w.sys, w.gravity, &e), CDYN_OK);
        assert_int_equal(cdyn_force_get_spring_tension(w.sys, w.spring0, &e), CDYN_OK);
        /* Refused calls do not allocate to write their message. */
        assert_int_equal(cdyn_system_step(w.sys, -1.0), CDYN_ERR_INVALID_ARGUMENT);
        assert_int_equal(cdyn_particle_get_mass(w.sys, 0, &e), CDYN_ERR_INVALID_HANDLE);
        for (int i = 0; i < 10; i++)
            assert_int_equal(cdyn_system_step(w.sys, 1e-3), CDYN_OK);
    }
    counts after = now(&w);
    assert_unchanged(&before, &after, "queries and state changes");

    /* Removing a force or a particle shrinks the shape: still nothing. */
    assert_int_equal(cdyn_force_remove(w.sys, w.gravity), CDYN_OK);
    assert_int_equal(cdyn_particle_remove(w.sys, w.p[NP - 1]), CDYN_OK);
    for (int i = 0; i < 10; i++)
        assert_int_equal(cdyn_system_step(w.sys, 1e-3), CDYN_OK);
    /* Re-adding into the freed slots reuses storage: still nothing. */
    const double pos[3] = {2, 2, 2};
    cdyn_particle q;
    assert_int_equal(cdyn_particle_add(w.sys, 1.0, pos, NULL, &q), CDYN_OK);
    for (int i = 0; i < 10; i++)
        assert_int_equal(cdyn_system_step(w.sys, 1e-3), CDYN_OK);
    after = now(&w);
    assert_unchanged(&before, &after, "removal and slot reuse");
    cdyn_system_destroy(w.sys);
    assert_int_equal(w.ca.live_bytes, 0);
}

/* Applied forces: the first one allocates the accumulators; from then on
 * neither steps (every integrator, backward Euler included, a force for the
 * next step given before each), nor applying and clearing, nor the bulk
 * reads allocate anything. A particle removed and added back reuses its
 * slot's accumulators. */
static void test_applied_forces(void **state)
{
    (void)state;
    static world w;
    build(&w, 3);
    double held[3 * NP], out[3 * NP], m[NP];
    bool fixed[NP];
    for (int i = 0; i < 3 * NP; i++)
        held[i] = 0.01 * (i % 7) - 0.03;
    assert_int_equal(cdyn_system_apply_forces(w.sys, held, 3 * NP, CDYN_APPLY_UNTIL_CLEARED),
                     CDYN_OK);
    const double kick[3] = {0.5, 0, -0.5};
    const cdyn_integrator all[] = {
        CDYN_INTEGRATOR_EXPLICIT_EULER, CDYN_INTEGRATOR_SYMPLECTIC_EULER,
        CDYN_INTEGRATOR_VELOCITY_VERLET, CDYN_INTEGRATOR_RK4, CDYN_INTEGRATOR_RK45,
        CDYN_INTEGRATOR_BACKWARD_EULER};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
        assert_int_equal(cdyn_system_set_integrator(w.sys, all[k]), CDYN_OK);
        assert_int_equal(cdyn_system_step(w.sys, 1e-3), CDYN_OK); /* may size its workspace */
        counts before = now(&w);
        for (int i = 0; i < 50; i++) {
            assert_int_equal(cdyn_particle_apply_force(w.sys, w.p[i % NP], kick,
                                                       CDYN_APPLY_NEXT_STEP), CDYN_OK);
            assert_int_equal(cdyn_system_step(w.sys, 1e-3), CDYN_OK);
            assert_int_equal(cdyn_system_get_applied_forces(w.sys, out, 3 * NP), CDYN_OK);
            assert_int_equal(cdyn_system_get_constraint_forces(w.sys, out, 3 * NP), CDYN_OK);
            assert_int_equal(cdyn_system_get_contact_forces(w.sys, out, 3 * NP), CDYN_OK);
            assert_int_equal(cdyn_system_get_masses(w.sys, m, NP), CDYN_OK);
            assert_int_equal(cdyn_system_get_fixed(w.sys, fixed, NP), CDYN_OK);
        }
        assert_int_equal(cdyn_particle_clear_applied_force(w.sys, w.p[3]), CDYN_OK);
        assert_int_equal(cdyn_system_clear_applied_forces(w.sys), CDYN_OK);
        assert_int_equal(cdyn_system_apply_forces(w.sys, held, 3 * NP, CDYN_APPLY_UNTIL_CLEARED),
                         CDYN_OK);
        counts after = now(&w);
        assert_unchanged(&before, &after, "steps with applied forces");
    }
    counts before = now(&w);
    assert_int_equal(cdyn_particle_remove(w.sys, w.p[NP - 1]), CDYN_OK);
    const double pos[3] = {2, 2, 2};
    assert_int_equal(cdyn_particle_add(w.sys, 1.0, pos, NULL, &w.p[NP - 1]), CDYN_OK);
    assert_int_equal(cdyn_particle_apply_force(w.sys, w.p[NP - 1], kick, CDYN_APPLY_NEXT_STEP),
                     CDYN_OK);
    assert_int_equal(cdyn_system_step(w.sys, 1e-3), CDYN_OK);
    counts after = now(&w);
    assert_unchanged(&before, &after, "slot reuse with applied forces");
    cdyn_system_destroy(w.sys);
    assert_int_equal(w.ca.live_bytes, 0);
    assert_int_equal(w.ca.allocs, w.ca.frees);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steps_2d),
        cmocka_unit_test(test_steps_3d),
        cmocka_unit_test(test_queries_and_state_changes),
        cmocka_unit_test(test_applied_forces),
    };
    return cmocka_run_group_tests_name("no_alloc", tests, NULL, NULL);
}
