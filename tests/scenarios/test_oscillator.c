/* The damped spring-mass oscillator against its closed-form solution in the
 * under-, critically and over-damped regimes (the spring-dashpot in 1-D). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

/* Displacement u(t) from rest length for m u'' + c u' + k u = 0,
 * u(0) = A, u'(0) = 0. */
static double exact(double m, double k, double c, double A, double t)
{
    double w0 = sqrt(k / m), zeta = c / (2.0 * sqrt(k * m));
    if (zeta < 1.0 - 1e-12) {
        double wd = w0 * sqrt(1.0 - zeta * zeta);
        return exp(-zeta * w0 * t) * A * (cos(wd * t) + zeta * w0 / wd * sin(wd * t));
    }
    if (zeta <= 1.0 + 1e-12)
        return A * (1.0 + w0 * t) * exp(-w0 * t);
    double s = sqrt(zeta * zeta - 1.0);
    double r1 = -w0 * (zeta - s), r2 = -w0 * (zeta + s);
    return A * (r1 * exp(r2 * t) - r2 * exp(r1 * t)) / (r1 - r2);
}

static double max_error(int dim, double c, cdyn_integrator integrator, double dt)
{
    const double m = 1.5, k = 20.0, R0 = 1.0, A = 0.3;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(dim, &sys), CDYN_OK);
    cdyn_particle anchor, bob;
    /* The spring lies along a diagonal to exercise every component. */
    double dir[3] = {0.6, 0.8, 0.0};
    if (dim == 3)
        dir[0] = 0.48, dir[1] = 0.64, dir[2] = 0.6;
    double x0[3];
    for (int i = 0; i < 3; i++)
        x0[i] = (R0 + A) * dir[i];
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0, 0, 0}, NULL, &anchor), CDYN_OK);
    assert_int_equal(cdyn_particle_set_fixed(sys, anchor, true), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, m, x0, NULL, &bob), CDYN_OK);
    cdyn_force f;
    assert_int_equal(cdyn_force_add_spring(sys, anchor, bob, k, c, R0, &f), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, integrator), CDYN_OK);
    double err = 0;
    int steps = (int)lround(4.0 / dt);
    for (int i = 1; i <= steps; i++) {
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        double x[3], u = -R0;
        cdyn_particle_get_position(sys, bob, x);
        double r = 0;
        for (int j = 0; j < dim; j++)
            r += x[j] * dir[j];
        u += r;
        double e = fabs(u - exact(m, k, c, A, i * dt));
        if (e > err)
            err = e;
    }
    cdyn_system_destroy(sys);
    return err;
}

/* c_crit = 2 sqrt(k m) = 2 sqrt(30). */
static const double C_UNDER = 1.0, C_CRIT = 10.954451150103322, C_OVER = 25.0;

static void test_regimes_rk4(void **state)
{
    (void)state;
    const double c[3] = {C_UNDER, C_CRIT, C_OVER};
    for (int dim = 2; dim <= 3; dim++)
        for (int i = 0; i < 3; i++)
            assert_near(max_error(dim, c[i], CDYN_INTEGRATOR_RK4, 1e-3), 0.0, 1e-11);
}

static void test_regimes_rk45(void **state)
{
    (void)state;
    const double c[3] = {C_UNDER, C_CRIT, C_OVER};
    for (int i = 0; i < 3; i++)
        assert_near(max_error(2, c[i], CDYN_INTEGRATOR_RK45, 0.05), 0.0, 1e-8);
}

/* Lower-order integrators converge to the same closed form. */
static void test_regimes_low_order(void **state)
{
    (void)state;
    const double c[3] = {C_UNDER, C_CRIT, C_OVER};
    for (int i = 0; i < 3; i++) {
        assert_near(max_error(2, c[i], CDYN_INTEGRATOR_VELOCITY_VERLET, 1e-3), 0.0, 2e-6);
        assert_near(max_error(2, c[i], CDYN_INTEGRATOR_SYMPLECTIC_EULER, 1e-4), 0.0, 2e-4);
        assert_near(max_error(2, c[i], CDYN_INTEGRATOR_EXPLICIT_EULER, 1e-4), 0.0, 1e-3);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regimes_rk4),
        cmocka_unit_test(test_regimes_rk45),
        cmocka_unit_test(test_regimes_low_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
