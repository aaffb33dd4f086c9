/* System lifetime, settings, step argument checks, divergence rollback. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

static void test_create_dimensions(void **state)
{
    (void)state;
    cdyn_system *sys = (cdyn_system *)1;
    for (int dim = -1; dim <= 5; dim++) {
        cdyn_status st = cdyn_system_create(dim, &sys);
        if (dim == 2 || dim == 3) {
            assert_int_equal(st, CDYN_OK);
            assert_int_equal(cdyn_system_get_dimension(sys), dim);
            cdyn_system_destroy(sys);
        } else {
            assert_int_equal(st, CDYN_ERR_INVALID_ARGUMENT);
            assert_null(sys);
        }
    }
    assert_int_equal(cdyn_system_create(3, NULL), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_system_destroy(NULL);
    assert_int_equal(cdyn_system_get_dimension(NULL), 0);
    assert_non_null(cdyn_system_last_error(NULL));
}

static void test_allocator(void **state)
{
    (void)state;
    ts_counting_alloc counts = {0};
    cdyn_allocator a = ts_counting_allocator(&counts);
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create_with_allocator(2, &a, &sys), CDYN_OK);
    cdyn_particle p;
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0, 0}, NULL, &p), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    assert_true(counts.allocs > 0);
    cdyn_system_destroy(sys);
    assert_int_equal(counts.live_bytes, 0);
    assert_int_equal(counts.allocs, counts.frees);

    cdyn_allocator bad = a;
    bad.free = NULL;
    assert_int_equal(cdyn_system_create_with_allocator(2, &bad, &sys), CDYN_ERR_INVALID_ARGUMENT);
    counts.fail_at = counts.allocs + 1;
    assert_int_equal(cdyn_system_create_with_allocator(2, &a, &sys), CDYN_ERR_NO_MEMORY);
    assert_null(sys);
}

static void test_time_and_integrator(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(3, &sys), CDYN_OK);
    double t = -1;
    assert_int_equal(cdyn_system_get_time(sys, &t), CDYN_OK);
    assert_true(t == 0.0);
    assert_int_equal(cdyn_system_set_time(sys, 2.5), CDYN_OK);
    assert_int_equal(cdyn_system_set_time(sys, NAN), CDYN_ERR_INVALID_ARGUMENT);
    assert_true(strlen(cdyn_system_last_error(sys)) > 0);
    assert_int_equal(cdyn_system_get_time(sys, &t), CDYN_OK);
    assert_true(t == 2.5);
    assert_int_equal(cdyn_system_get_time(sys, NULL), CDYN_ERR_INVALID_ARGUMENT);

    cdyn_integrator it;
    assert_int_equal(cdyn_system_get_integrator(sys, &it), CDYN_OK);
    assert_int_equal(it, CDYN_INTEGRATOR_SYMPLECTIC_EULER);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, (cdyn_integrator)0), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_set_integrator(sys, (cdyn_integrator)99), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_get_integrator(sys, &it), CDYN_OK);
    assert_int_equal(it, CDYN_INTEGRATOR_RK4);

    /* RK45 options and counters: tests/test_options.c. */
    cdyn_system_destroy(sys);
}

static void test_step_arguments(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    const double bad[] = {0.0, -1e-3, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(cdyn_system_step(sys, bad[i]), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_step(NULL, 1e-3), CDYN_ERR_INVALID_ARGUMENT);
    /* An empty system still keeps time. */
    assert_int_equal(cdyn_system_step(sys, 0.25), CDYN_OK);
    double t;
    cdyn_system_get_time(sys, &t);
    assert_true(t == 0.25);
    size_t n = 7;
    assert_int_equal(cdyn_system_get_particle_count(sys, &n), CDYN_OK);
    assert_int_equal(n, 0);
    cdyn_system_destroy(sys);
}

/* A stiff spring stepped far beyond stability overflows: the step reports
 * divergence and leaves positions, velocities and time as they were. */
static void test_divergence_rolls_back(void **state)
{
    (void)state;
    const cdyn_integrator its[] = {CDYN_INTEGRATOR_EXPLICIT_EULER, CDYN_INTEGRATOR_SYMPLECTIC_EULER,
                                   CDYN_INTEGRATOR_VELOCITY_VERLET, CDYN_INTEGRATOR_RK4};
    for (size_t k = 0; k < sizeof its / sizeof its[0]; k++) {
        cdyn_system *sys;
        assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
        cdyn_particle a, b;
        cdyn_particle_add(sys, 1.0, (double[]){0, 0}, NULL, &a);
        cdyn_particle_add(sys, 1.0, (double[]){1.1, 0.3}, (double[]){0.5, 0}, &b);
        cdyn_force f;
        assert_int_equal(cdyn_force_add_spring(sys, a, b, 1e300, 0, 1.0, &f), CDYN_OK);
        cdyn_system_set_integrator(sys, its[k]);
        double x0[4], v0[4], x1[4], v1[4], t;
        cdyn_system_get_positions(sys, x0, 4);
        cdyn_system_get_velocities(sys, v0, 4);
        cdyn_status st = CDYN_OK;
        for (int i = 0; i < 10 && st == CDYN_OK; i++) {
            cdyn_system_get_positions(sys, x0, 4);
            cdyn_system_get_velocities(sys, v0, 4);
            st = cdyn_system_step(sys, 1e3);
        }
        assert_int_equal(st, CDYN_ERR_DIVERGED);
        assert_true(strstr(cdyn_system_last_error(sys), "non-finite") != NULL);
        cdyn_system_get_positions(sys, x1, 4);
        cdyn_system_get_velocities(sys, v1, 4);
        assert_memory_equal(x0, x1, sizeof x0);
        assert_memory_equal(v0, v1, sizeof v0);
        cdyn_system_get_time(sys, &t);
        assert_true(isfinite(t));
        cdyn_system_destroy(sys);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_dimensions),
        cmocka_unit_test(test_allocator),
        cmocka_unit_test(test_time_and_integrator),
        cmocka_unit_test(test_step_arguments),
        cmocka_unit_test(test_divergence_rolls_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
