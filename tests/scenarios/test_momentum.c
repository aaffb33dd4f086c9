/* Newton's third law: internal spring and dashpot forces cancel in
 * pairs, so an isolated network keeps its total momentum, and under an
 * external force the centre of mass moves as a single particle of the total
 * mass would. Central pair forces also conserve angular momentum. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define NX 4
#define NY 3

static const cdyn_integrator ALL[] = {
    CDYN_INTEGRATOR_EXPLICIT_EULER, CDYN_INTEGRATOR_SYMPLECTIC_EULER,
    CDYN_INTEGRATOR_VELOCITY_VERLET, CDYN_INTEGRATOR_RK4, CDYN_INTEGRATOR_RK45};

static cdyn_system *network(int dim, cdyn_integrator integrator, uint64_t seed)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(dim, &sys), CDYN_OK);
    cdyn_particle p[NX * NY];
    assert_true(ts_make_network(sys, NX, NY, 0.5, 40.0, 0.8, 0.2, seed, p) > 0);
    for (int i = 0; i < NX * NY; i++) {
        double v[3] = {ts_rand_sym(&seed), ts_rand_sym(&seed), ts_rand_sym(&seed)};
        cdyn_particle_set_velocity(sys, p[i], v);
        cdyn_particle_set_mass(sys, p[i], 1.0 + 0.5 * (ts_rand_sym(&seed) + 1.0));
    }
    assert_int_equal(cdyn_system_set_integrator(sys, integrator), CDYN_OK);
    return sys;
}

static void test_isolated_momentum_constant(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++)
        for (size_t k = 0; k < sizeof ALL / sizeof ALL[0]; k++) {
            cdyn_system *sys = network(dim, ALL[k], 3);
            double p0[3], p[3], scale = 0;
            cdyn_system_get_momentum(sys, p0);
            for (int j = 0; j < dim; j++)
                scale += fabs(p0[j]);
            for (int i = 0; i < 500; i++) {
                assert_int_equal(cdyn_system_step(sys, 2e-3), CDYN_OK);
                cdyn_system_get_momentum(sys, p);
                for (int j = 0; j < dim; j++)
                    assert_near(p[j], p0[j], 1e-13 * (1.0 + scale));
            }
            cdyn_system_destroy(sys);
        }
}

/* P(t) = P0 + F t for every integrator (forces enter linearly); the centre
 * of mass follows X0 + U0 t + F t^2 / (2 M) exactly with RK4 and Verlet, to
 * first order with the Euler variants. */
static void test_center_of_mass_follows_external_force(void **state)
{
    (void)state;
    const double g[3] = {0.5, -9.81, 1.25};
    for (int dim = 2; dim <= 3; dim++)
        for (size_t k = 0; k < sizeof ALL / sizeof ALL[0]; k++) {
            cdyn_system *sys = network(dim, ALL[k], 5);
            cdyn_force grav;
            cdyn_force_add_gravity(sys, g, &grav);
            double x0[3], p0[3], mass;
            cdyn_system_get_center_of_mass(sys, x0, &mass);
            cdyn_system_get_momentum(sys, p0);
            const double dt = 2e-3;
            const int steps = 500;
            for (int i = 0; i < steps; i++)
                assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
            double t = dt * steps, x[3], p[3];
            cdyn_system_get_center_of_mass(sys, x, NULL);
            cdyn_system_get_momentum(sys, p);
            bool exact = ALL[k] == CDYN_INTEGRATOR_RK4 || ALL[k] == CDYN_INTEGRATOR_VELOCITY_VERLET ||
                         ALL[k] == CDYN_INTEGRATOR_RK45;
            for (int j = 0; j < dim; j++) {
                assert_near(p[j], p0[j] + mass * g[j] * t, 1e-11);
                double want = x0[j] + p0[j] / mass * t + 0.5 * g[j] * t * t;
                /* Symplectic Euler: x_n = x0 + u0 t + g t (t + dt) / 2, explicit
                 * Euler: g t (t - dt) / 2; both within g t dt / 2 of the exact. */
                assert_near(x[j], want, exact ? 1e-12 : 0.5 * fabs(g[j]) * t * dt + 1e-12);
            }
            cdyn_system_destroy(sys);
        }
}

/* Springs and dashpots act along the line of centres: no torque. The
 * symplectic integrators keep L to round-off, the others to their order. */
static void test_angular_momentum(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++)
        for (size_t k = 0; k < sizeof ALL / sizeof ALL[0]; k++) {
            cdyn_system *sys = network(dim, ALL[k], 9);
            double l0[3], l[3];
            cdyn_system_get_angular_momentum(sys, l0);
            for (int i = 0; i < 500; i++)
                assert_int_equal(cdyn_system_step(sys, 2e-3), CDYN_OK);
            cdyn_system_get_angular_momentum(sys, l);
            bool exact = ALL[k] == CDYN_INTEGRATOR_SYMPLECTIC_EULER ||
                         ALL[k] == CDYN_INTEGRATOR_VELOCITY_VERLET;
            double tol = exact ? 1e-12 : ALL[k] == CDYN_INTEGRATOR_EXPLICIT_EULER ? 1e-1 : 1e-6;
            for (int j = 0; j < 3; j++)
                assert_near(l[j], l0[j], tol);
            if (dim == 2)
                assert_true(l[0] == 0 && l[1] == 0);
            cdyn_system_destroy(sys);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isolated_momentum_constant),
        cmocka_unit_test(test_center_of_mass_follows_external_force),
        cmocka_unit_test(test_angular_momentum),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
