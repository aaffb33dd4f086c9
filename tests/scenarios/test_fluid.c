/* A WCA liquid in a periodic box against the physics:
 *  - velocity Verlet's energy error falls as dt^2 (fitted order on a
 *    refinement of dt over the same stretch of time, 2-D and 3-D);
 *  - the equation of state at one state point against a published
 *    simulation: T* = 0.90, packing fraction eta = pi rho sigma^3 / 6 =
 *    0.300, 500 particles: Z = P / (rho kT) = 4.312 and U / N = 0.318
 *    epsilon (Monte Carlo, NVT), A. Mirzaeinia, F. Feyzi and
 *    S. M. Hashemianzadeh, "Equation of state and Helmholtz free energy for
 *    the atomic system of the repulsive Lennard-Jones particles",
 *    J. Chem. Phys. 147, 214503 (2017), supplementary Table I. The run
 *    samples the same ensemble (500 particles, Langevin thermostat) and
 *    compares within four combined standard errors, its own from blocking
 *    and the table's taken as 0.01 in Z and 0.003 in U / N (the table
 *    gives three decimals). */
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

static cdyn_system *liquid(int dim, int n, double rho, double kT, size_t *count,
                           cdyn_force *force)
{
    cdyn_system *sys;
    ok(cdyn_system_create(dim, &sys));
    static cdyn_particle p[4096];
    *count = ts_make_fluid(sys, n, rho, kT, 0.05, 77, p);
    assert_true(*count > 0);
    cdyn_pair_params pp;
    ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE));
    ok(cdyn_force_add_pair_set(sys, &pp, p, *count, force));
    ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET));
    return sys;
}

static double energy(const cdyn_system *sys)
{
    double k, u;
    ok(cdyn_system_get_kinetic_energy(sys, &k));
    ok(cdyn_system_get_potential_energy(sys, &u));
    return k + u;
}

static void test_energy_error_order(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        double dts[3] = {0.004, 0.002, 0.001}, err[3];
        for (int i = 0; i < 3; i++) {
            size_t n;
            cdyn_force f;
            cdyn_system *sys = liquid(dim, dim == 3 ? 4 : 11, 0.8, 1.0, &n, &f);
            /* melt the lattice first, at the finest step for all */
            for (int s = 0; s < 400; s++)
                ok(cdyn_system_step(sys, 0.001));
            double e0 = energy(sys), worst = 0;
            const int steps = (int)lround(1.0 / dts[i]);
            for (int s = 0; s < steps; s++) {
                ok(cdyn_system_step(sys, dts[i]));
                worst = fmax(worst, fabs(energy(sys) - e0));
            }
            err[i] = worst / (double)n;
            cdyn_system_destroy(sys);
        }
        double order = ts_fit_order(dts, err, 3);
        print_message("%d-D: energy error per particle %.3g, %.3g, %.3g: order %.2f\n", dim,
                      err[0], err[1], err[2], order);
        assert_true(order > 1.8 && order < 2.2);
    }
}

/* Mean and standard error from 20 blocks. */
static void block_stats(const double *x, size_t n, double *mean, double *err)
{
    enum { B = 20 };
    double m = 0, bm[B];
    size_t len = n / B;
    for (int b = 0; b < B; b++) {
        bm[b] = 0;
        for (size_t i = 0; i < len; i++)
            bm[b] += x[(size_t)b * len + i] / (double)len;
        m += bm[b] / B;
    }
    double v = 0;
    for (int b = 0; b < B; b++)
        v += (bm[b] - m) * (bm[b] - m) / (B - 1);
    *mean = m;
    *err = sqrt(v / B);
}

static void test_equation_of_state(void **state)
{
    (void)state;
    const double kT = 0.90, eta = 0.300, rho = 6 * eta / TS_PI;
    const double z_ref = 4.312, u_ref = 0.318, z_ref_err = 0.01, u_ref_err = 0.003;
    size_t n;
    cdyn_force f;
    cdyn_system *sys = liquid(3, 5, rho, kT, &n, &f); /* 500 particles */
    ok(ts_set_langevin(sys, kT, 1.0, 2017));
    enum { EQUIL = 3000, SAMPLES = 4000, EVERY = 5 };
    static double z[SAMPLES], u[SAMPLES];
    for (int s = 0; s < EQUIL; s++)
        ok(cdyn_system_step(sys, 0.005));
    for (int i = 0; i < SAMPLES; i++) {
        for (int s = 0; s < EVERY; s++)
            ok(cdyn_system_step(sys, 0.005));
        double p, e;
        ok(cdyn_system_get_pressure(sys, &p));
        ok(cdyn_force_get_energy(sys, f, &e));
        z[i] = p / (rho * kT);
        u[i] = e / (double)n;
    }
    double zm, ze, um, ue;
    block_stats(z, SAMPLES, &zm, &ze);
    block_stats(u, SAMPLES, &um, &ue);
    double zs = sqrt(ze * ze + z_ref_err * z_ref_err), us = sqrt(ue * ue + u_ref_err * u_ref_err);
    print_message("WCA at T* = %.2f, eta = %.3f: Z = %.4f +- %.4f (published %.3f, %.1f sigma), "
                  "U/N = %.4f +- %.4f (published %.3f, %.1f sigma)\n",
                  kT, eta, zm, ze, z_ref, fabs(zm - z_ref) / zs, um, ue, u_ref,
                  fabs(um - u_ref) / us);
    assert_true(fabs(zm - z_ref) < 4 * zs);
    assert_true(fabs(um - u_ref) < 4 * us);
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_energy_error_order),
        cmocka_unit_test(test_equation_of_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
