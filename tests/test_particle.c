/* Particles: properties, fixed particles, bulk arrays, bad input. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

static cdyn_system *make(int dim)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(dim, &sys), CDYN_OK);
    return sys;
}

static void test_add_and_read_back(void **state)
{
    (void)state;
    cdyn_system *sys = make(3);
    cdyn_particle p;
    double x[3] = {1, 2, 3}, v[3] = {-1, 0.5, 4}, out[3];
    assert_int_equal(cdyn_particle_add(sys, 2.5, x, v, &p), CDYN_OK);
    assert_true(p != 0);
    assert_true(cdyn_particle_is_valid(sys, p));
    assert_int_equal(cdyn_particle_get_position(sys, p, out), CDYN_OK);
    assert_memory_equal(out, x, sizeof x);
    assert_int_equal(cdyn_particle_get_velocity(sys, p, out), CDYN_OK);
    assert_memory_equal(out, v, sizeof v);
    double m;
    assert_int_equal(cdyn_particle_get_mass(sys, p, &m), CDYN_OK);
    assert_true(m == 2.5);
    cdyn_particle q;
    assert_int_equal(cdyn_particle_add(sys, 1.0, x, NULL, &q), CDYN_OK);
    assert_int_equal(cdyn_particle_get_velocity(sys, q, out), CDYN_OK);
    assert_true(out[0] == 0 && out[1] == 0 && out[2] == 0);
    size_t idx;
    assert_int_equal(cdyn_particle_get_index(sys, q, &idx), CDYN_OK);
    assert_int_equal(idx, 1);

    assert_int_equal(cdyn_particle_set_position(sys, q, (double[]){7, 8, 9}), CDYN_OK);
    assert_int_equal(cdyn_particle_set_velocity(sys, q, (double[]){1, 1, 1}), CDYN_OK);
    assert_int_equal(cdyn_particle_set_mass(sys, q, 4.0), CDYN_OK);
    assert_int_equal(cdyn_particle_get_position(sys, q, out), CDYN_OK);
    assert_true(out[0] == 7 && out[1] == 8 && out[2] == 9);
    assert_int_equal(cdyn_particle_get_mass(sys, q, &m), CDYN_OK);
    assert_true(m == 4.0);
    cdyn_system_destroy(sys);
}

static void test_bad_input_changes_nothing(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_particle p = 0;
    const double ok[2] = {1, 1};
    const double bad_masses[] = {0.0, -1.0, NAN, INFINITY};
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(cdyn_particle_add(sys, bad_masses[i], ok, NULL, &p),
                         CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_add(sys, 1, (double[]){NAN, 0}, NULL, &p),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_add(sys, 1, (double[]){0, INFINITY}, NULL, &p),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_add(sys, 1, ok, (double[]){0, NAN}, &p),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_add(sys, 1, NULL, NULL, &p), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_add(sys, 1, ok, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_add(NULL, 1, ok, NULL, &p), CDYN_ERR_INVALID_ARGUMENT);
    size_t n = 9;
    cdyn_system_get_particle_count(sys, &n);
    assert_int_equal(n, 0);
    assert_true(p == 0);

    assert_int_equal(cdyn_particle_add(sys, 1, ok, NULL, &p), CDYN_OK);
    double out[2];
    assert_int_equal(cdyn_particle_set_position(sys, p, (double[]){NAN, 2}), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_set_velocity(sys, p, (double[]){1, -INFINITY}), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_set_mass(sys, p, -2), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_set_mass(sys, p, NAN), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_set_position(sys, p, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_get_position(sys, p, NULL), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_particle_get_position(sys, p, out);
    assert_true(out[0] == 1 && out[1] == 1);
    cdyn_particle_get_velocity(sys, p, out);
    assert_true(out[0] == 0 && out[1] == 0);
    double m;
    cdyn_particle_get_mass(sys, p, &m);
    assert_true(m == 1);
    cdyn_system_destroy(sys);
}

/* A fixed particle ignores forces but keeps (kinematic) velocity. */
static void test_fixed_particles(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_particle a, b;
    cdyn_particle_add(sys, 1, (double[]){0, 0}, NULL, &a);
    cdyn_particle_add(sys, 1, (double[]){5, 0}, (double[]){1, 0}, &b);
    assert_int_equal(cdyn_particle_set_fixed(sys, a, true), CDYN_OK);
    assert_int_equal(cdyn_particle_set_fixed(sys, b, true), CDYN_OK);
    bool fixed = false;
    assert_int_equal(cdyn_particle_get_fixed(sys, a, &fixed), CDYN_OK);
    assert_true(fixed);
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g);
    for (int i = 0; i < 100; i++)
        assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    double x[2];
    cdyn_particle_get_position(sys, a, x);
    assert_true(x[0] == 0 && x[1] == 0);
    cdyn_particle_get_position(sys, b, x);
    assert_near(x[0], 6.0, 1e-12);
    assert_true(x[1] == 0);
    /* Released, it falls: v_y = -g t after one second (symplectic Euler is exact for v). */
    assert_int_equal(cdyn_particle_set_fixed(sys, a, false), CDYN_OK);
    for (int i = 0; i < 100; i++)
        cdyn_system_step(sys, 0.01);
    double v[2];
    cdyn_particle_get_velocity(sys, a, v);
    assert_near(v[1], -9.81, 1e-12);
    double ke;
    cdyn_system_get_kinetic_energy(sys, &ke); /* b, still fixed, is excluded */
    assert_near(ke, 0.5 * 9.81 * 9.81, 1e-9);
    cdyn_system_destroy(sys);
}

static void test_bulk_arrays(void **state)
{
    (void)state;
    cdyn_system *sys = make(3);
    cdyn_particle p[4];
    for (int i = 0; i < 4; i++)
        cdyn_particle_add(sys, 1, (double[]){i, 10.0 * i, -i}, (double[]){0, 0, i}, &p[i]);
    double x[12], v[12];
    assert_int_equal(cdyn_system_get_positions(sys, x, 11), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_get_positions(sys, x, 12), CDYN_OK);
    for (int i = 0; i < 4; i++) {
        assert_true(x[3 * i] == i && x[3 * i + 1] == 10.0 * i && x[3 * i + 2] == -i);
    }
    assert_int_equal(cdyn_system_get_velocities(sys, v, 12), CDYN_OK);
    assert_true(v[11] == 3);

    /* Remove index 1: bulk arrays keep indices; the hole reads as zeros. */
    assert_int_equal(cdyn_particle_remove(sys, p[1]), CDYN_OK);
    size_t count, indices;
    cdyn_system_get_particle_count(sys, &count);
    cdyn_system_get_index_count(sys, &indices);
    assert_int_equal(count, 3);
    assert_int_equal(indices, 4);
    assert_int_equal(cdyn_system_get_positions(sys, x, 12), CDYN_OK);
    assert_true(x[3] == 0 && x[4] == 0 && x[5] == 0);

    double in[12];
    for (int i = 0; i < 12; i++)
        in[i] = 100.0 + i;
    assert_int_equal(cdyn_system_set_positions(sys, in, 11), CDYN_ERR_INVALID_ARGUMENT);
    in[7] = NAN;
    assert_int_equal(cdyn_system_set_positions(sys, in, 12), CDYN_ERR_INVALID_ARGUMENT);
    double y[12];
    cdyn_system_get_positions(sys, y, 12);
    assert_memory_equal(x, y, sizeof x); /* nothing changed */
    in[7] = 107;
    in[4] = NAN; /* inside the removed index: ignored */
    assert_int_equal(cdyn_system_set_positions(sys, in, 12), CDYN_OK);
    assert_int_equal(cdyn_system_set_velocities(sys, in, 12), CDYN_OK);
    double pos[3];
    cdyn_particle_get_position(sys, p[2], pos);
    assert_true(pos[0] == 106 && pos[1] == 107 && pos[2] == 108);
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_and_read_back),
        cmocka_unit_test(test_bad_input_changes_nothing),
        cmocka_unit_test(test_fixed_particles),
        cmocka_unit_test(test_bulk_arrays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
