/* Implicit form: a bead on x^2 + 100 y = 0 (a few lines of user
 * code). With C = x^2 + 100 y the constraint force is
 *   Fc.y = -(50 m vx^2 + 50 x Fx + 2500 Fy) / (x^2 + 2500),  Fc.x = Fc.y x / 50
 * (the derivation gives 50 in the Fx term; a horizontal force checks it).
 * Gravity points along +y, as in screen coordinates, so the bead oscillates in the bowl. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

static int parabola(const cdyn_system *sys, double t, int dim, const double *x, double *c,
                 double *grad, double *hess, double *c_t, double *grad_t, double *c_tt,
                 void *user)
{
    (void)sys, (void)t, (void)c_t, (void)grad_t, (void)c_tt;
    (void)dim, (void)user;
    *c = x[0] * x[0] + 100.0 * x[1];
    grad[0] = 2.0 * x[0], grad[1] = 100.0;
    hess[0] = 2.0, hess[1] = hess[2] = hess[3] = 0.0;
    return 0;
}

static void run(double fx, double *worst_rel, double *final_c)
{
    const double m = 1.3, g = 9.81;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4);
    assert_int_equal(ts_set_gains(sys, 0, 0), CDYN_OK);
    cdyn_particle bead;
    cdyn_particle_add(sys, m, (double[]){50.0, -25.0}, NULL, &bead);
    cdyn_force grav;
    cdyn_force_add_gravity(sys, (double[]){fx / m, g}, &grav);
    cdyn_constraint c;
    assert_int_equal(cdyn_constraint_add_implicit(sys, bead, parabola, NULL, &c), CDYN_OK);
    *worst_rel = 0;
    for (int i = 0; i < 5000; i++) {
        assert_int_equal(cdyn_system_evaluate(sys, NULL, 0), CDYN_OK);
        double x[2], v[2], f[2];
        cdyn_particle_get_position(sys, bead, x);
        cdyn_particle_get_velocity(sys, bead, v);
        assert_int_equal(cdyn_constraint_get_force(sys, c, bead, f), CDYN_OK);
        double Fx = fx, Fy = m * g;
        double fcy = -(50 * m * v[0] * v[0] + 50 * x[0] * Fx + 2500 * Fy) / (x[0] * x[0] + 2500);
        double fcx = fcy * x[0] / 50;
        double scale = hypot(fcx, fcy);
        *worst_rel = fmax(*worst_rel, hypot(f[0] - fcx, f[1] - fcy) / scale);
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    }
    double x[2];
    cdyn_particle_get_position(sys, bead, x);
    *final_c = x[0] * x[0] + 100 * x[1];
    cdyn_system_destroy(sys);
}

static void test_gravity_only(void **state)
{
    (void)state;
    double worst, c;
    run(0.0, &worst, &c);
    print_message("gravity only: worst relative force error %.3e, |c| after 5 s %.3e\n", worst,
                  fabs(c));
    assert_true(worst < 1e-12);
}

static void test_horizontal_force(void **state)
{
    (void)state;
    double worst, c;
    run(4.0, &worst, &c);
    print_message("with Fx = 4: worst relative force error %.3e, |c| after 5 s %.3e\n", worst,
                  fabs(c));
    assert_true(worst < 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gravity_only),
        cmocka_unit_test(test_horizontal_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
