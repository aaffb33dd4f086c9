/* Temperature and pressure (diagnostics.h) against their definitions:
 *  - degrees of freedom of free, fixed, rod-joined, rigid and curve-bound
 *    particles;
 *  - kT = sum m v^2 / N_f for given velocities;
 *  - the pressure of an ideal gas (kinetic part alone), of a stretched
 *    spring and of a WCA pair at rest (the virial -T l and F r), both
 *    through a periodic face, and of a freely rotating rigid dimer, whose
 *    constraint virial cancels its kinetic part (P = 0: a molecule adds
 *    only its centre's motion);
 *  - refusals: no box, no degree of freedom. */
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

static void test_degrees_of_freedom(void **state)
{
    (void)state;
    cdyn_system *sys;
    ok(cdyn_system_create(3, &sys));
    double nf, kT;
    assert_int_equal(cdyn_system_get_temperature(sys, &kT), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_particle p[8];
    for (int i = 0; i < 8; i++)
        ok(cdyn_particle_add(sys, 1.0 + i, (double[]){i, 0.5 * i * i, 0.1 * i}, NULL, &p[i]));
    ok(cdyn_system_get_degrees_of_freedom(sys, &nf));
    assert_true(nf == 24);
    ok(cdyn_particle_set_fixed(sys, p[0], true));
    ok(cdyn_system_get_degrees_of_freedom(sys, &nf));
    assert_true(nf == 21);
    cdyn_constraint c;
    ok(cdyn_constraint_add_distance(sys, p[1], p[2], 1.1, &c));
    ok(cdyn_system_get_degrees_of_freedom(sys, &nf));
    assert_true(nf == 20);
    cdyn_rigid r;
    ok(cdyn_rigid_add(sys, (cdyn_particle[]){p[3], p[4], p[5]}, 3, &r));
    ok(cdyn_system_get_degrees_of_freedom(sys, &nf));
    assert_true(nf == 20 - 9 + 6);
    cdyn_curve_desc line;
    cdyn_curve_desc_init(&line, CDYN_CURVE_LINE);
    ok(cdyn_constraint_add_on_curve(sys, p[6], &line, &c));
    ok(cdyn_system_get_degrees_of_freedom(sys, &nf));
    assert_true(nf == 17 - 3 + 1);
    assert_int_equal(cdyn_system_get_degrees_of_freedom(sys, NULL), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_system_destroy(sys);
}

static void test_temperature(void **state)
{
    (void)state;
    cdyn_system *sys;
    ok(cdyn_system_create(2, &sys));
    cdyn_particle p[3];
    ok(cdyn_particle_add(sys, 2, (double[]){0, 0}, (double[]){1, 2}, &p[0]));
    ok(cdyn_particle_add(sys, 3, (double[]){1, 0}, (double[]){-1, 0}, &p[1]));
    ok(cdyn_particle_add(sys, 5, (double[]){2, 0}, (double[]){0, 0.5}, &p[2]));
    double kT;
    ok(cdyn_system_get_temperature(sys, &kT));
    assert_near(kT, (2 * 5 + 3 * 1 + 5 * 0.25) / 6.0, 1e-15);
    cdyn_system_destroy(sys);
}

static void test_pressure_of_pairs_and_springs(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        cdyn_system *sys;
        ok(cdyn_system_create(dim, &sys));
        double P;
        assert_int_equal(cdyn_system_get_pressure(sys, &P), CDYN_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(cdyn_system_last_error(sys), "no box"));
        cdyn_particle p[4];
        const double L[3] = {5, 6, 7};
        /* an ideal pair of moving particles far apart, plus a spring and
         * a WCA pair, both through the face x = 0 */
        ok(cdyn_particle_add(sys, 2, (double[]){2, 3, 3}, (double[]){0.5, -1, 0.25}, &p[0]));
        ok(cdyn_particle_add(sys, 1, (double[]){0.2, 1, 1}, NULL, &p[1]));
        ok(cdyn_particle_add(sys, 1, (double[]){4.6, 1, 1}, NULL, &p[2]));   /* 0.6 from p1 */
        ok(cdyn_particle_add(sys, 1, (double[]){0.2, 1.95, 1}, NULL, &p[3])); /* 0.95 from p1 */
        ok(cdyn_system_set_box(sys, (double[]){0, 0, 0}, L, (bool[]){true, true, true}));
        double V = L[0] * L[1] * (dim == 3 ? L[2] : 1);
        double kin = 2 * (0.25 + 1 + (dim == 3 ? 0.0625 : 0));
        ok(cdyn_system_get_pressure(sys, &P));
        assert_near(P, kin / (dim * V), 1e-14);
        cdyn_force s, w;
        ok(cdyn_force_add_spring(sys, p[1], p[2], 10, 0, 0.5, &s)); /* stretched by 0.1 */
        ok(cdyn_system_get_pressure(sys, &P));
        assert_near(P, (kin - 10 * 0.1 * 0.6) / (dim * V), 1e-13);
        cdyn_pair_params pp;
        ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE));
        ok(cdyn_force_add_pairs(sys, &pp, (cdyn_particle[]){p[1], p[3]}, 1, &w));
        double s6 = pow(1 / 0.95, 6), F = 24 * s6 * (2 * s6 - 1) / 0.95;
        ok(cdyn_system_get_pressure(sys, &P));
        assert_near(P, (kin - 10 * 0.1 * 0.6 + F * 0.95) / (dim * V), 1e-12);
        cdyn_system_destroy(sys);
    }
}

/* A rigid dimer spinning about its resting centre: its rod's virial
 * cancels its kinetic energy, P = 0 (to the order h of the multipliers
 * RATTLE reports). */
static void test_pressure_of_a_spinning_rod(void **state)
{
    (void)state;
    cdyn_system *sys;
    ok(cdyn_system_create(3, &sys));
    cdyn_particle a, b;
    ok(cdyn_particle_add(sys, 1, (double[]){2, 2, 2}, (double[]){0, -3, 0}, &a));
    ok(cdyn_particle_add(sys, 1, (double[]){3, 2, 2}, (double[]){0, 3, 0}, &b));
    cdyn_constraint c;
    ok(cdyn_constraint_add_distance(sys, a, b, 1.0, &c));
    ok(cdyn_system_set_box(sys, (double[]){0, 0, 0}, (double[]){4, 4, 4},
                           (bool[]){true, true, true}));
    ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE));
    double P;
    for (int s = 0; s < 100; s++)
        ok(cdyn_system_step(sys, 1e-4));
    ok(cdyn_system_get_pressure(sys, &P));
    double kin = 2 * 9.0 / (3 * 64.0); /* the kinetic part alone */
    print_message("spinning rod: P = %.3g (kinetic part %.3g)\n", P, kin);
    assert_true(fabs(P) < 1e-3 * kin);
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_degrees_of_freedom),
        cmocka_unit_test(test_temperature),
        cmocka_unit_test(test_pressure_of_pairs_and_springs),
        cmocka_unit_test(test_pressure_of_a_spinning_rod),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
