/* One force evaluation per step (velocity Verlet, RATTLE, the Langevin
 * scheme) when no force depends on velocity:
 *  - a user force that counts its calls is called once per step (plus the
 *    first), twice when it says it depends on velocity;
 *  - every kind of change between steps (time, positions, velocities,
 *    masses, particles, forces, constraints, grounds, integrator, box,
 *    thermostat) makes the next step evaluate its start again;
 *  - the results are bit for bit those of evaluating at every start: a run
 *    whose cache is dropped before each step (by setting the clock to the
 *    time it has) ends in the same bits, for a periodic liquid with bead-rod
 *    chains and exclusions under velocity Verlet, RATTLE and Langevin;
 *  - forces applied for one step act in that step alone, held ones until
 *    cleared, with the same bits. */
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

static int calls;

/* A weak pull towards the origin that counts its calls. */
static int counting(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                    const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)v, (void)user;
    calls++;
    for (size_t i = 0; i < n * (size_t)dim; i++)
        f[i] -= 0.1 * x[i];
    return 0;
}

static cdyn_system *pendulum(cdyn_integrator integ, bool velocity_dependent, cdyn_particle *p)
{
    cdyn_system *sys;
    ok(cdyn_system_create(3, &sys));
    ok(cdyn_particle_add(sys, 1, (double[]){0, 0, 0}, NULL, &p[0]));
    ok(cdyn_particle_add(sys, 1, (double[]){1, 0, 0}, (double[]){0, 1, 0}, &p[1]));
    ok(cdyn_particle_add(sys, 2, (double[]){2, 0, 0}, (double[]){0, 0, 1}, &p[2]));
    ok(cdyn_particle_set_fixed(sys, p[0], true));
    cdyn_force f;
    ok(cdyn_force_add_callback(sys, counting, NULL, velocity_dependent, &f));
    ok(cdyn_force_add_gravity(sys, (double[]){0, -9.81, 0}, &f));
    if (integ == CDYN_INTEGRATOR_RATTLE) {
        cdyn_constraint c;
        ok(cdyn_constraint_add_distance(sys, p[0], p[1], 1, &c));
        ok(cdyn_constraint_add_distance(sys, p[1], p[2], 1, &c));
    }
    ok(cdyn_system_set_integrator(sys, integ));
    return sys;
}

static void test_one_evaluation_per_step(void **state)
{
    (void)state;
    const cdyn_integrator integ[2] = {CDYN_INTEGRATOR_VELOCITY_VERLET, CDYN_INTEGRATOR_RATTLE};
    for (int i = 0; i < 2; i++)
        for (int vd = 0; vd <= 1; vd++) {
            cdyn_particle p[3];
            cdyn_system *sys = pendulum(integ[i], vd, p);
            calls = 0;
            for (int s = 0; s < 50; s++)
                ok(cdyn_system_step(sys, 0.01));
            /* velocity-dependent: start, end and the predictor's evaluation */
            int want = vd ? 150 : 51;
            print_message("%s, %s: %d evaluations in 50 steps\n", i ? "RATTLE" : "Verlet",
                          vd ? "velocity-dependent" : "positions only", calls);
            assert_int_equal(calls, want);
            cdyn_system_destroy(sys);
        }
}

/* Each change between two steps makes the second evaluate its start. */
static void test_changes_invalidate(void **state)
{
    (void)state;
    for (int change = 0; change < 13; change++) {
        cdyn_particle p[3];
        cdyn_system *sys = pendulum(CDYN_INTEGRATOR_VELOCITY_VERLET, false, p);
        ok(cdyn_system_step(sys, 0.01));
        ok(cdyn_system_step(sys, 0.01));
        double t, x[3], v[3];
        cdyn_force f;
        cdyn_particle q;
        cdyn_ground g;
        ok(cdyn_system_get_time(sys, &t));
        ok(cdyn_particle_get_position(sys, p[1], x));
        ok(cdyn_particle_get_velocity(sys, p[1], v));
        calls = 0;
        switch (change) {
        case 0: ok(cdyn_system_set_time(sys, t)); break;
        case 1: ok(cdyn_particle_set_position(sys, p[1], x)); break;
        case 2: ok(cdyn_particle_set_velocity(sys, p[1], v)); break;
        case 3: ok(cdyn_particle_set_mass(sys, p[2], 3)); break;
        case 4: ok(cdyn_particle_add(sys, 1, (double[]){5, 5, 5}, NULL, &q)); break;
        case 5: ok(cdyn_force_add_gravity(sys, (double[]){0, 0, 0}, &f)); break;
        case 6: ok(cdyn_ground_add_plane(sys, (double[]){0, 1, 0}, -100, &g)); break;
        case 7: ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET)); break;
        case 8: ok(cdyn_particle_set_fixed(sys, p[2], false)); break;
        case 9:
            ok(cdyn_system_set_box(sys, (double[]){-50, -50, -50}, (double[]){100, 100, 100},
                                   (bool[]){true, true, true}));
            break;
        case 10: ok(ts_set_langevin(sys, 0.0, 0.0, 1)); break;
        case 11: {
            cdyn_constraint c;
            ok(cdyn_constraint_add_pin(sys, p[0], (double[]){0, 0, 0}, &c));
            ok(cdyn_constraint_set_enabled(sys, c, false));
            break;
        }
        default: ok(cdyn_system_evaluate(sys, NULL, 0)); break;
        }
        ok(cdyn_system_step(sys, 0.01));
        int want = change == 12 ? 3 : 2; /* evaluate's own call, then start and end */
        if (calls != want)
            fail_msg("change %d: %d evaluations, want %d", change, calls, want);
        calls = 0;
        ok(cdyn_system_step(sys, 0.01));
        assert_int_equal(calls, 1); /* and the one after reuses again */
        cdyn_system_destroy(sys);
    }
}

/* Bead-rod chains in a WCA liquid, periodic, with bonded exclusions. */
static cdyn_system *melt(int dim, cdyn_integrator integ, bool langevin)
{
    cdyn_system *sys;
    ok(cdyn_system_create(dim, &sys));
    static cdyn_particle p[1024];
    size_t n = ts_make_fluid(sys, dim == 3 ? 4 : 12, 0.6, 1.0, 0.02, 21, p);
    assert_true(n > 0);
    /* rods between particles 4k and 4k+1 (neighbours on the lattice) */
    double x[6];
    if (integ == CDYN_INTEGRATOR_RATTLE)
        for (size_t k = 0; k + 1 < n; k += 4) {
            cdyn_constraint c;
            /* unwrapped: a wrapped pair may straddle a face */
            ok(cdyn_particle_get_unwrapped_position(sys, p[k], x));
            ok(cdyn_particle_get_unwrapped_position(sys, p[k + 1], x + 3));
            double l2 = 0;
            for (int d = 0; d < dim; d++)
                l2 += (x[3 + d] - x[d]) * (x[3 + d] - x[d]);
            ok(cdyn_constraint_add_distance(sys, p[k], p[k + 1], sqrt(l2), &c));
        }
    cdyn_pair_params pp;
    cdyn_force f;
    ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE));
    ok(cdyn_force_add_pair_set(sys, &pp, p, n, &f));
    ok(cdyn_force_set_pair_exclude_bonded(sys, f, 1));
    ok(cdyn_system_set_integrator(sys, integ));
    if (langevin)
        ok(ts_set_langevin(sys, 1.0, 0.5, 99));
    return sys;
}

static void test_bit_identical(void **state)
{
    (void)state;
    const struct {
        cdyn_integrator integ;
        bool langevin;
    } cases[] = {{CDYN_INTEGRATOR_VELOCITY_VERLET, false},
                 {CDYN_INTEGRATOR_RATTLE, false},
                 {CDYN_INTEGRATOR_VELOCITY_VERLET, true},
                 {CDYN_INTEGRATOR_RATTLE, true}};
    for (int dim = 2; dim <= 3; dim++)
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            cdyn_system *a = melt(dim, cases[c].integ, cases[c].langevin);
            cdyn_system *b = melt(dim, cases[c].integ, cases[c].langevin);
            for (int s = 0; s < 300; s++) {
                if (cdyn_system_step(a, 0.004) != CDYN_OK)
                    fail_msg("%d-D case %zu step %d: %s", dim, c, s, cdyn_system_last_error(a));
                double t;
                ok(cdyn_system_get_time(b, &t));
                ok(cdyn_system_set_time(b, t)); /* drops the kept forces */
                ok(cdyn_system_step(b, 0.004));
            }
            ts_state sa, sb;
            ts_state_capture(a, &sa);
            ts_state_capture(b, &sb);
            assert_int_equal(sa.len, sb.len);
            assert_memory_equal(sa.x, sb.x, sa.len * sizeof *sa.x);
            assert_memory_equal(sa.v, sb.v, sa.len * sizeof *sa.v);
            ts_state_free(&sa);
            ts_state_free(&sb);
            cdyn_system_destroy(a);
            cdyn_system_destroy(b);
        }
}

static void momentum(const cdyn_system *sys, double *out)
{
    ok(cdyn_system_get_momentum(sys, out));
}

/* Forces applied between steps: a one-step force acts in its step alone
 * (the momentum of the periodic liquid changes by F dt in that step and in
 * no other), a held force at every step until cleared; the runs keep their
 * bits against a run that drops the kept forces before every step. */
static void test_applied_forces(void **state)
{
    (void)state;
    const double dt = 0.004, F[3] = {3.0, -2.0, 1.5};
    for (int integ = 0; integ < 2; integ++) {
        cdyn_integrator ig = integ ? CDYN_INTEGRATOR_RATTLE : CDYN_INTEGRATOR_VELOCITY_VERLET;
        cdyn_system *a = melt(3, ig, false), *b = melt(3, ig, false);
        cdyn_system *both[2] = {a, b};
        for (int s = 0; s < 120; s++) {
            for (int k = 0; k < 2; k++) {
                cdyn_system *sys = both[k];
                size_t n;
                ok(cdyn_system_get_index_count(sys, &n));
                double p0[3], p1[3], *push = calloc(3 * n, sizeof *push);
                assert_non_null(push);
                momentum(sys, p0);
                memcpy(push + 3 * (s == 41 ? 7 : 3), F, sizeof F);
                if (s == 40 || s == 41) /* two steps in a row, then none */
                    ok(cdyn_system_apply_forces(sys, push, 3 * n, CDYN_APPLY_NEXT_STEP));
                if (s == 80)
                    ok(cdyn_system_apply_forces(sys, push, 3 * n, CDYN_APPLY_UNTIL_CLEARED));
                if (s == 100)
                    ok(cdyn_system_clear_applied_forces(sys));
                free(push);
                if (k == 1) {
                    double t;
                    ok(cdyn_system_get_time(sys, &t));
                    ok(cdyn_system_set_time(sys, t)); /* drops the kept forces */
                }
                ok(cdyn_system_step(sys, dt));
                momentum(sys, p1);
                const bool pushed = s == 40 || s == 41 || (s >= 80 && s < 100);
                for (int c = 0; c < 3; c++) {
                    double want = pushed ? F[c] * dt : 0.0;
                    if (fabs(p1[c] - p0[c] - want) > 1e-11)
                        fail_msg("%s run %d step %d: momentum change %g, want %g", integ ?
                                 "RATTLE" : "Verlet", k, s, p1[c] - p0[c], want);
                }
            }
        }
        ts_state sa, sb;
        ts_state_capture(a, &sa);
        ts_state_capture(b, &sb);
        assert_memory_equal(sa.x, sb.x, sa.len * sizeof *sa.x);
        assert_memory_equal(sa.v, sb.v, sa.len * sizeof *sa.v);
        ts_state_free(&sa);
        ts_state_free(&sb);
        cdyn_system_destroy(a);
        cdyn_system_destroy(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_evaluation_per_step),
        cmocka_unit_test(test_changes_invalidate),
        cmocka_unit_test(test_bit_identical),
        cmocka_unit_test(test_applied_forces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
