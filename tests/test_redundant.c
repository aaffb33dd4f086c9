/* Redundant constraints make G W G^T singular: the solver drops the
 * dependent rows, counts a warning and the motion is the same as without
 * them. Conflicting ones report CDYN_ERR_SINGULAR naming a constraint and
 * leave the state as it was. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

/* A spinning, falling rigid triangle; with @p duplicate a second rod on
 * edge 0-1. Returns the positions after 1 s. */
static void triangle(bool duplicate, cdyn_constraint_solver solver, double out[6],
                     cdyn_solver_stats *stats, cdyn_constraint *dup_out)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4);
    ts_set_solver(sys, solver);
    ts_set_cg(sys, 1e-14, 100);
    const double xs[3][2] = {{0, 0}, {1, 0}, {0.3, 0.8}};
    const double vs[3][2] = {{0, -1}, {0, 1}, {-0.8, -0.3}};
    cdyn_particle p[3];
    for (int i = 0; i < 3; i++)
        cdyn_particle_add(sys, 1.0 + i, xs[i], vs[i], &p[i]);
    cdyn_constraint c;
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        double l = hypot(xs[j][0] - xs[i][0], xs[j][1] - xs[i][1]);
        assert_int_equal(cdyn_constraint_add_distance(sys, p[i], p[j], l, &c), CDYN_OK);
    }
    if (duplicate)
        assert_int_equal(cdyn_constraint_add_distance(sys, p[1], p[0], 1.0, dup_out), CDYN_OK);
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    cdyn_system_get_positions(sys, out, 6);
    stats->size = sizeof *stats;
    cdyn_system_get_solver_stats(sys, stats);
    cdyn_system_destroy(sys);
}

static void test_duplicate_edge(void **state)
{
    (void)state;
    double a[6], b[6];
    cdyn_solver_stats sa, sb;
    cdyn_constraint dup = 0;
    triangle(false, CDYN_SOLVER_DIRECT, a, &sa, NULL);
    triangle(true, CDYN_SOLVER_DIRECT, b, &sb, &dup);
    for (int i = 0; i < 6; i++)
        assert_near(b[i], a[i], 1e-12);
    assert_int_equal(sa.redundant_solves, 0);
    assert_int_equal(sb.redundant_rows, 1);
    assert_int_equal(sb.redundant_solves, sb.solves);
    assert_true(sb.last_redundant != 0);
    assert_true(sb.residual < 1e-12);
    /* CG handles the consistent singular system too. */
    double c[6];
    cdyn_solver_stats sc;
    triangle(true, CDYN_SOLVER_CG, c, &sc, &dup);
    for (int i = 0; i < 6; i++)
        assert_near(c[i], a[i], 1e-9);
}

/* Particle a pinned at P; b held by a rod to a and by an anchor rod to P of
 * the same length: the rod row is a combination of the pin rows and the
 * anchor row. */
static void test_pin_and_anchor_to_same_point(void **state)
{
    (void)state;
    double end[2][2];
    for (int variant = 0; variant < 2; variant++) {
        cdyn_system *sys;
        assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
        cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4);
        cdyn_particle a, b;
        cdyn_particle_add(sys, 1.0, (double[]){1, 2}, NULL, &a);
        cdyn_particle_add(sys, 1.0, (double[]){1.8, 1.4}, NULL, &b);
        cdyn_force g;
        cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g);
        cdyn_constraint pin, rod, anchor;
        cdyn_constraint_add_pin(sys, a, (double[]){1, 2}, &pin);
        cdyn_constraint_add_distance(sys, a, b, 1.0, &rod);
        if (variant)
            cdyn_constraint_add_anchor(sys, b, (double[]){1, 2}, 1.0, &anchor);
        for (int i = 0; i < 500; i++)
            assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
        cdyn_particle_get_position(sys, b, end[variant]);
        cdyn_solver_stats st = {.size = sizeof st};
        cdyn_system_get_solver_stats(sys, &st);
        assert_int_equal(st.redundant_rows, variant ? 1 : 0);
        double x[2];
        assert_true(isfinite(end[variant][0]) && isfinite(end[variant][1]));
        cdyn_particle_get_position(sys, a, x);
        assert_near(x[0], 1, 1e-12);
        assert_near(x[1], 2, 1e-12);
        cdyn_system_destroy(sys);
    }
    assert_near(end[1][0], end[0][0], 1e-12);
    assert_near(end[1][1], end[0][1], 1e-12);
}

/* Two pins holding one particle at different points cannot both hold. */
static void test_conflicting_pins(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(3, &sys), CDYN_OK);
    cdyn_particle p;
    cdyn_particle_add(sys, 1.0, (double[]){0, 0, 0}, (double[]){0.1, 0, 0}, &p);
    cdyn_constraint a, b;
    cdyn_constraint_add_pin(sys, p, (double[]){0, 0, 0}, &a);
    cdyn_constraint_add_pin(sys, p, (double[]){0.5, 0, 0}, &b);
    double x0[3], v0[3], t0, x1[3], v1[3], t1;
    cdyn_particle_get_position(sys, p, x0);
    cdyn_particle_get_velocity(sys, p, v0);
    cdyn_system_get_time(sys, &t0);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_ERR_SINGULAR);
    const char *msg = cdyn_system_last_error(sys);
    assert_non_null(strstr(msg, "conflict"));
    assert_non_null(strstr(msg, "0x"));
    cdyn_particle_get_position(sys, p, x1);
    cdyn_particle_get_velocity(sys, p, v1);
    cdyn_system_get_time(sys, &t1);
    assert_memory_equal(x0, x1, sizeof x0);
    assert_memory_equal(v0, v1, sizeof v0);
    assert_true(t0 == t1);
    /* Removing one of them resolves it. */
    assert_int_equal(cdyn_constraint_remove(sys, b), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_duplicate_edge),
        cmocka_unit_test(test_pin_and_anchor_to_same_point),
        cmocka_unit_test(test_conflicting_pins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
