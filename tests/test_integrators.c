/* Convergence orders measured by halving dt on a nonlinear problem: a
 * perturbed 3 x 3 spring network (with and without dashpots) in 2-D and 3-D.
 * The error at T = 1 against a fine RK4 reference must fall with the order
 * the integrator promises; RK45 must meet its tolerance. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define NX 3
#define NY 3
#define NP (NX * NY)

typedef struct problem {
    int dim;
    double damping;
} problem;

static cdyn_system *build(const problem *pb)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(pb->dim, &sys), CDYN_OK);
    cdyn_particle p[NP];
    assert_true(ts_make_network(sys, NX, NY, 1.0, 50.0, pb->damping, 0.15, 7, p) > 0);
    /* Spin it and kick one corner so that the motion is far from linear. */
    for (int i = 0; i < NP; i++) {
        double x[3];
        cdyn_particle_get_position(sys, p[i], x);
        double v[3] = {-(x[1] - 1.0), x[0] - 1.0, pb->dim == 3 ? 0.3 * x[0] : 0.0};
        if (i == 0)
            v[0] += 2.0, v[1] -= 1.0;
        cdyn_particle_set_velocity(sys, p[i], v);
    }
    cdyn_force g;
    double grav[3] = {0, -9.81, 0};
    cdyn_force_add_gravity(sys, grav, &g);
    return sys;
}

/* Final positions after T = 1 with @p steps steps of @p integrator. */
static void run(const problem *pb, cdyn_integrator integrator, int steps, double *x)
{
    cdyn_system *sys = build(pb);
    assert_int_equal(cdyn_system_set_integrator(sys, integrator), CDYN_OK);
    double dt = 1.0 / steps;
    for (int i = 0; i < steps; i++)
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
    assert_int_equal(cdyn_system_get_positions(sys, x, (size_t)(NP * pb->dim)), CDYN_OK);
    cdyn_system_destroy(sys);
}

static double max_diff(const double *a, const double *b, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

static double measured_order(const problem *pb, cdyn_integrator integrator, int n0)
{
    double ref[NP * 3], x[NP * 3], h[4], err[4];
    run(pb, CDYN_INTEGRATOR_RK4, 20000, ref);
    for (int r = 0; r < 4; r++) {
        int steps = n0 << r;
        run(pb, integrator, steps, x);
        h[r] = 1.0 / steps;
        err[r] = max_diff(x, ref, NP * pb->dim);
    }
    double order = ts_fit_order(h, err, 4);
    print_message("integrator %d dim %d damping %.1f: errors %.3e %.3e %.3e %.3e order %.3f\n",
                  (int)integrator, pb->dim, pb->damping, err[0], err[1], err[2], err[3], order);
    return order;
}

static const problem PROBLEMS[] = {{2, 0.0}, {2, 0.5}, {3, 0.0}, {3, 0.5}};

static void check_order(cdyn_integrator integrator, int n0, double want)
{
    for (size_t i = 0; i < sizeof PROBLEMS / sizeof PROBLEMS[0]; i++)
        assert_near(measured_order(&PROBLEMS[i], integrator, n0), want, 0.15);
}

static void test_explicit_euler_order_1(void **state)
{
    (void)state;
    check_order(CDYN_INTEGRATOR_EXPLICIT_EULER, 2000, 1.0);
}

static void test_symplectic_euler_order_1(void **state)
{
    (void)state;
    check_order(CDYN_INTEGRATOR_SYMPLECTIC_EULER, 2000, 1.0);
}

static void test_velocity_verlet_order_2(void **state)
{
    (void)state;
    check_order(CDYN_INTEGRATOR_VELOCITY_VERLET, 200, 2.0);
}

static void test_rk4_order_4(void **state)
{
    (void)state;
    check_order(CDYN_INTEGRATOR_RK4, 80, 4.0);
}

/* RK45 with tolerance tol: the global error after T = 1 stays within a small
 * multiple of tol, and shrinks as tol does. */
static void test_rk45_meets_tolerance(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof PROBLEMS / sizeof PROBLEMS[0]; i++) {
        const problem *pb = &PROBLEMS[i];
        double ref[NP * 3], x[NP * 3], prev = INFINITY;
        run(pb, CDYN_INTEGRATOR_RK4, 20000, ref);
        for (double tol = 1e-6; tol >= 1e-10; tol *= 0.01) {
            cdyn_system *sys = build(pb);
            cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK45);
            assert_int_equal(ts_set_rk45_tolerance(sys, tol, tol), CDYN_OK);
            for (int s = 0; s < 4; s++)
                assert_int_equal(cdyn_system_step(sys, 0.25), CDYN_OK);
            cdyn_system_get_positions(sys, x, (size_t)(NP * pb->dim));
            cdyn_rk45_stats rs = {.size = sizeof rs};
            assert_int_equal(cdyn_system_get_rk45_stats(sys, &rs), CDYN_OK);
            uint64_t acc = rs.accepted, rej = rs.rejected;
            double err = max_diff(x, ref, NP * pb->dim);
            print_message("RK45 tol %.0e: error %.3e, %llu accepted, %llu rejected\n", tol, err,
                          (unsigned long long)acc, (unsigned long long)rej);
            assert_true(acc >= 4);
            assert_true(err <= 20.0 * tol);
            assert_true(err < prev);
            prev = err;
            cdyn_system_destroy(sys);
        }
    }
}

/* RK45 controls the error of every position and velocity component: under
 * strong linear drag (b / m = 50 1/s) the velocity decays as v0 exp(-b t / m)
 * while the position barely moves, so a norm that looked at positions only
 * would accept steps whose velocity error is many times the tolerance
 * (measured: 10x). Here the velocity stays within atol + rtol |v| of the
 * exact one at every step (measured: 0.24 of it). */
static void test_rk45_controls_velocity_error(void **state)
{
    (void)state;
    const double m = 1, b = 50, v0 = 3, tol = 1e-8;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    cdyn_particle p;
    cdyn_force f;
    assert_int_equal(cdyn_particle_add(sys, m, (double[]){0, 0}, (double[]){v0, 0}, &p), CDYN_OK);
    assert_int_equal(cdyn_force_add_drag(sys, b, &f), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK45), CDYN_OK);
    assert_int_equal(ts_set_rk45_tolerance(sys, tol, tol), CDYN_OK);
    double worst = 0;
    for (int i = 1; i <= 200; i++) {
        assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
        double v[2], exact = v0 * exp(-b * 0.01 * i / m);
        assert_int_equal(cdyn_particle_get_velocity(sys, p, v), CDYN_OK);
        worst = fmax(worst, fabs(v[0] - exact) / (tol + tol * fabs(exact)));
    }
    print_message("RK45 under drag: largest velocity error %.3f of the tolerance\n", worst);
    assert_true(worst <= 1.0);
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_explicit_euler_order_1),
        cmocka_unit_test(test_symplectic_euler_order_1),
        cmocka_unit_test(test_velocity_verlet_order_2),
        cmocka_unit_test(test_rk4_order_4),
        cmocka_unit_test(test_rk45_meets_tolerance),
        cmocka_unit_test(test_rk45_controls_velocity_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
