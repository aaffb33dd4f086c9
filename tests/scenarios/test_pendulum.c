/* The rigid pendulum: the period at 10, 60, 90 and 120 degrees amplitude
 * against 4 sqrt(L/g) K(sin(theta0/2)), K the complete elliptic integral of
 * the first kind; RK4 with crossing times from cubic Hermite interpolation. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

/* K(k) = pi / (2 AGM(1, sqrt(1 - k^2))). */
static double elliptic_k(double k)
{
    double a = 1.0, b = sqrt(1.0 - k * k);
    for (int i = 0; i < 40 && fabs(a - b) > 1e-16 * a; i++) {
        double an = 0.5 * (a + b);
        b = sqrt(a * b);
        a = an;
    }
    return TS_PI / (2.0 * a);
}

/* Root in [0, h] of the cubic Hermite interpolant through (x0, v0), (x1, v1). */
static double hermite_root(double x0, double v0, double x1, double v1, double h)
{
    double lo = 0, hi = 1;
    for (int i = 0; i < 100; i++) {
        double s = 0.5 * (lo + hi);
        double h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s;
        double h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s;
        double x = h00 * x0 + h10 * h * v0 + h01 * x1 + h11 * h * v1;
        if ((x < 0) == (x0 < 0))
            lo = s;
        else
            hi = s;
    }
    return 0.5 * (lo + hi) * h;
}

static double measured_period(double theta0_deg, int anchor_kind)
{
    const double L = 1.3, g = 9.81, dt = 1e-3, th = theta0_deg * TS_PI / 180.0;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4);
    cdyn_particle bob;
    cdyn_particle_add(sys, 0.7, (double[]){L * sin(th), -L * cos(th)}, NULL, &bob);
    cdyn_force grav;
    cdyn_force_add_gravity(sys, (double[]){0, -g}, &grav);
    cdyn_constraint rod;
    if (anchor_kind) {
        assert_int_equal(cdyn_constraint_add_anchor(sys, bob, (double[]){0, 0}, L, &rod), CDYN_OK);
    } else {
        cdyn_particle pivot;
        cdyn_particle_add(sys, 1.0, (double[]){0, 0}, NULL, &pivot);
        cdyn_particle_set_fixed(sys, pivot, true);
        assert_int_equal(cdyn_constraint_add_distance(sys, pivot, bob, L, &rod), CDYN_OK);
    }
    double want = 4 * sqrt(L / g) * elliptic_k(sin(th / 2));
    double x0[2], v0[2], t_first = -1, t_last = 0;
    int crossings = 0;
    cdyn_particle_get_position(sys, bob, x0);
    cdyn_particle_get_velocity(sys, bob, v0);
    int steps = (int)(3.2 * want / dt);
    for (int i = 0; i < steps; i++) {
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        double x1[2], v1[2];
        cdyn_particle_get_position(sys, bob, x1);
        cdyn_particle_get_velocity(sys, bob, v1);
        if ((x1[0] < 0) != (x0[0] < 0)) {
            double t = i * dt + hermite_root(x0[0], v0[0], x1[0], v1[0], dt);
            if (crossings == 0)
                t_first = t;
            t_last = t;
            crossings++;
        }
        x0[0] = x1[0], x0[1] = x1[1], v0[0] = v1[0], v0[1] = v1[1];
    }
    cdyn_system_destroy(sys);
    assert_true(crossings >= 5);
    double period = 2 * (t_last - t_first) / (crossings - 1);
    print_message("amplitude %5.1f deg: period %.12f, exact %.12f, rel err %.2e\n", theta0_deg,
                  period, want, fabs(period - want) / want);
    return (period - want) / want;
}

static void test_periods(void **state)
{
    (void)state;
    const double amplitudes[] = {10, 60, 90, 120};
    for (int i = 0; i < 4; i++) {
        assert_near(measured_period(amplitudes[i], 1), 0.0, 1e-6);
        assert_near(measured_period(amplitudes[i], 0), 0.0, 1e-6);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_periods),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
