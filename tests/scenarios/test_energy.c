/* Long-run energy behaviour on an undamped spring network: symplectic Euler
 * and velocity Verlet keep the energy bounded over 10^6 steps (no drift),
 * while explicit Euler's grows. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

static cdyn_system *network(cdyn_integrator integrator)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    cdyn_particle p[6];
    assert_true(ts_make_network(sys, 3, 2, 1.0, 20.0, 0.0, 0.2, 11, p) > 0);
    cdyn_particle_set_velocity(sys, p[0], (double[]){1.0, -0.5});
    cdyn_particle_set_velocity(sys, p[5], (double[]){-0.3, 0.8});
    assert_int_equal(cdyn_system_set_integrator(sys, integrator), CDYN_OK);
    return sys;
}

static double energy(const cdyn_system *sys)
{
    double k, u;
    cdyn_system_get_kinetic_energy(sys, &k);
    cdyn_system_get_potential_energy(sys, &u);
    return k + u;
}

/* Runs @p steps steps of dt, sampling the relative energy error; returns the
 * largest |E - E0| / E0 and the mean error over the first and last tenth. */
static double run(cdyn_integrator integrator, long steps, double dt, double *first_mean,
                  double *last_mean)
{
    cdyn_system *sys = network(integrator);
    double e0 = energy(sys), worst = 0, sum_first = 0, sum_last = 0;
    long tenth = steps / 10, n_first = 0, n_last = 0;
    for (long i = 1; i <= steps; i++) {
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        if (i % 100 != 0)
            continue;
        double rel = (energy(sys) - e0) / e0;
        worst = fmax(worst, fabs(rel));
        if (i <= tenth)
            sum_first += rel, n_first++;
        else if (i > steps - tenth)
            sum_last += rel, n_last++;
    }
    *first_mean = sum_first / (double)n_first;
    *last_mean = sum_last / (double)n_last;
    cdyn_system_destroy(sys);
    return worst;
}

static void check_bounded(cdyn_integrator integrator, double bound)
{
    double first, last;
    double worst = run(integrator, 1000000, 1e-3, &first, &last);
    print_message("integrator %d: max |dE/E0| = %.3e over 10^6 steps; mean first tenth %.3e, "
                  "last tenth %.3e\n", (int)integrator, worst, first, last);
    assert_true(worst < bound);
    /* No secular drift: the long-time average does not move. */
    assert_true(fabs(last - first) < 0.05 * bound);
}

static void test_symplectic_euler_bounded(void **state)
{
    (void)state;
    check_bounded(CDYN_INTEGRATOR_SYMPLECTIC_EULER, 1e-2);
}

static void test_velocity_verlet_bounded(void **state)
{
    (void)state;
    check_bounded(CDYN_INTEGRATOR_VELOCITY_VERLET, 5e-5);
}

/* Explicit Euler multiplies the energy of each mode by about 1 + (w dt)^2
 * per step: over 10^5 steps it must grow steadily. */
static void test_explicit_euler_grows(void **state)
{
    (void)state;
    double first, last;
    double worst = run(CDYN_INTEGRATOR_EXPLICIT_EULER, 100000, 1e-3, &first, &last);
    print_message("explicit Euler: max dE/E0 = %.3e; mean first tenth %.3e, last tenth %.3e\n",
                  worst, first, last);
    assert_true(last > 0.1);
    assert_true(last > 10.0 * fabs(first));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_symplectic_euler_bounded),
        cmocka_unit_test(test_velocity_verlet_bounded),
        cmocka_unit_test(test_explicit_euler_grows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
