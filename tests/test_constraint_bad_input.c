/* Bad input to the constraint API: a status, a message, and nothing changed. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

static size_t count_constraints_effect(cdyn_system *sys)
{
    /* A constraint that exists shows up as rows in the next solve. */
    cdyn_system_evaluate(sys, NULL, 0);
    cdyn_solver_stats st = {.size = sizeof st};
    cdyn_system_get_solver_stats(sys, &st);
    return st.rows;
}

static void test_bad_arguments(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    cdyn_particle a, b, gone;
    cdyn_particle_add(sys, 1, (double[]){0, 0}, NULL, &a);
    cdyn_particle_add(sys, 1, (double[]){1, 0}, NULL, &b);
    cdyn_particle_add(sys, 1, (double[]){2, 0}, NULL, &gone);
    cdyn_particle_remove(sys, gone);
    cdyn_constraint c = 0;
    assert_int_equal(cdyn_constraint_add_distance(sys, a, b, 0.0, &c), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_add_distance(sys, a, b, -1.0, &c), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_add_distance(sys, a, b, NAN, &c), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_add_distance(sys, a, a, 1.0, &c), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(sys), "twice"));
    assert_int_equal(cdyn_constraint_add_distance(sys, a, gone, 1.0, &c), CDYN_ERR_STALE_HANDLE);
    assert_int_equal(cdyn_constraint_add_distance(sys, a, 0, 1.0, &c), CDYN_ERR_INVALID_HANDLE);
    assert_int_equal(cdyn_constraint_add_distance(sys, a, b, 1.0, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_add_anchor(sys, a, (double[]){NAN, 0}, 1.0, &c),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_add_anchor(sys, a, NULL, 1.0, &c), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_add_anchor(sys, a, (double[]){0, 0}, INFINITY, &c),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_add_pin(sys, a, (double[]){0, INFINITY}, &c),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_add_plane(sys, a, (double[]){0, 0}, 1.0, &c),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_add_plane(sys, a, (double[]){0, 1}, NAN, &c),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_add_implicit(sys, a, NULL, NULL, &c), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_add_user(sys, (cdyn_particle[]){a, b, a}, 3, 1,
                                              (cdyn_constraint_fn)1, NULL, &c),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_add_user(sys, (cdyn_particle[]){a}, 1, 0, (cdyn_constraint_fn)1,
                                              NULL, &c),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_add_user(sys, (cdyn_particle[]){a}, 1, 1, NULL, NULL, &c),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_true(c == 0);
    assert_int_equal(count_constraints_effect(sys), 0);
    /* Handles of other kinds are refused. */
    cdyn_force f;
    cdyn_force_add_gravity(sys, (double[]){0, -1}, &f);
    assert_int_equal(cdyn_constraint_remove(sys, f), CDYN_ERR_INVALID_HANDLE);
    assert_int_equal(cdyn_constraint_remove(sys, 0), CDYN_ERR_INVALID_HANDLE);
    assert_false(cdyn_constraint_is_valid(sys, a));
    cdyn_system_destroy(sys);
}

typedef struct behaviour {
    int rc;
    bool nan;
} behaviour;

static int bad_curve(const cdyn_system *sys, double t, int dim, const double *x, double *c,
                 double *grad, double *hess, double *c_t, double *grad_t, double *c_tt,
                 void *user)
{
    (void)sys, (void)t, (void)c_t, (void)grad_t, (void)c_tt;
    const behaviour *b = user;
    *c = x[1];
    grad[0] = 0, grad[1] = 1;
    for (int i = 0; i < dim * dim; i++)
        hess[i] = 0;
    if (b->nan)
        grad[0] = NAN;
    return b->rc;
}

static int bad_user(const cdyn_system *sys, double t, size_t np, int dim, const double *x,
                    const double *v, size_t nr, double *g, double *jac, double *jdot_v, double *g_t,
                    void *user)
{
    (void)sys, (void)t, (void)g_t;
    (void)x, (void)v, (void)np, (void)nr;
    const behaviour *b = user;
    g[0] = b->nan ? NAN : 0.0;
    for (int k = 0; k < dim; k++)
        jac[k] = k == 1;
    jdot_v[0] = 0;
    return b->rc;
}

static void test_failing_callbacks_change_nothing(void **state)
{
    (void)state;
    const behaviour cases[] = {{7, false}, {0, true}};
    for (int kind = 0; kind < 2; kind++)
        for (int k = 0; k < 2; k++) {
            cdyn_system *sys;
            assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
            cdyn_particle p;
            cdyn_particle_add(sys, 1, (double[]){0.5, 0}, (double[]){1, 0}, &p);
            cdyn_constraint c;
            if (kind == 0)
                assert_int_equal(cdyn_constraint_add_implicit(sys, p, bad_curve, (void *)&cases[k], &c),
                                 CDYN_OK);
            else
                assert_int_equal(cdyn_constraint_add_user(sys, &p, 1, 1, bad_user, (void *)&cases[k], &c),
                                 CDYN_OK);
            double x0[2], x1[2], t0, t1;
            cdyn_particle_get_position(sys, p, x0);
            cdyn_system_get_time(sys, &t0);
            assert_int_equal(cdyn_system_step(sys, 1e-2), CDYN_ERR_CALLBACK);
            assert_true(strlen(cdyn_system_last_error(sys)) > 0);
            cdyn_particle_get_position(sys, p, x1);
            cdyn_system_get_time(sys, &t1);
            assert_memory_equal(x0, x1, sizeof x0);
            assert_true(t0 == t1);
            cdyn_system_destroy(sys);
        }
}

/* The unit circle about the origin: c = (|x|^2 - 1) / 2, all finite. */
static int unit_circle(const cdyn_system *sys, double t, int dim, const double *x, double *c,
                       double *grad, double *hess, double *c_t, double *grad_t, double *c_tt,
                       void *user)
{
    (void)sys, (void)t, (void)c_t, (void)grad_t, (void)c_tt, (void)user;
    *c = 0.5 * (x[0] * x[0] + x[1] * x[1] - 1);
    for (int a = 0; a < dim; a++) {
        grad[a] = x[a];
        for (int b = 0; b < dim; b++)
            hess[a * dim + b] = a == b;
    }
    return 0;
}

/* A curvature term v^T Hess(c) v that overflows with finite callback values
 * is a state out of range (CDYN_ERR_DIVERGED), not a failing callback. */
static void test_overflowing_curvature_term_diverges(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    cdyn_particle p;
    assert_int_equal(cdyn_particle_add(sys, 1, (double[]){1, 0}, (double[]){0, 1e200}, &p),
                     CDYN_OK);
    cdyn_constraint c;
    assert_int_equal(cdyn_constraint_add_implicit(sys, p, unit_circle, NULL, &c), CDYN_OK);
    double pr, vr, x0[2], x1[2];
    assert_int_equal(cdyn_system_compute_constraint_residuals(sys, &pr, &vr), CDYN_ERR_DIVERGED);
    assert_non_null(strstr(cdyn_system_last_error(sys), "compute_constraint_residuals"));
    assert_non_null(strstr(cdyn_system_last_error(sys), "overflows"));
    cdyn_particle_get_position(sys, p, x0);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_ERR_DIVERGED);
    cdyn_particle_get_position(sys, p, x1);
    assert_memory_equal(x0, x1, sizeof x0);
    /* at an ordinary speed the same constraint works */
    assert_int_equal(cdyn_particle_set_velocity(sys, p, (double[]){0, 1}), CDYN_OK);
    assert_int_equal(cdyn_system_compute_constraint_residuals(sys, &pr, &vr), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    cdyn_system_destroy(sys);
}

/* A callback that tries to change the system it is given, with what it got. */
typedef struct intruder {
    cdyn_system *sys;
    cdyn_particle p;
    cdyn_status got;
    int calls;
} intruder;

static void intrude(intruder *in)
{
    if (in->calls++ == 0)
        in->got = cdyn_particle_set_mass(in->sys, in->p, 5.0);
}

static int intruding_curve(const cdyn_system *sys, double t, double q, double r[3], double dr[3],
                           double ddr[3], void *user)
{
    (void)sys, (void)t;
    intrude(user);
    r[0] = cos(q), r[1] = sin(q);
    dr[0] = -sin(q), dr[1] = cos(q);
    ddr[0] = -cos(q), ddr[1] = -sin(q);
    return 0;
}

static int intruding_ground(const cdyn_system *sys, double t, int dim, const double *x, double *h,
                            double *grad, double *velocity, void *user)
{
    (void)sys, (void)t, (void)dim, (void)velocity;
    intrude(user);
    *h = x[1] + 1;
    grad[1] = 1;
    return 0;
}

/* The headers make every callback read-only wherever it is called from:
 * putting a particle on a callback curve and a query of a callback ground
 * run them outside any step, and a change they try is refused all the same
 * (it used to go through). */
static void test_callbacks_outside_steps_are_read_only(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    cdyn_particle p, q;
    cdyn_particle_add(sys, 1, (double[]){0.5, 0.5}, NULL, &p);
    cdyn_particle_add(sys, 1, (double[]){0, -2}, NULL, &q);
    intruder in = {sys, q, CDYN_OK, 0};
    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, CDYN_CURVE_CALLBACK);
    d.callback = intruding_curve, d.user = &in, d.periodic = 1;
    d.q_min = 0, d.q_max = 2 * TS_PI;
    cdyn_constraint c;
    assert_int_equal(cdyn_constraint_add_on_curve(sys, p, &d, &c), CDYN_OK);
    assert_int_equal(in.got, CDYN_ERR_BUSY);
    double m;
    cdyn_particle_get_mass(sys, q, &m);
    assert_true(m == 1.0);

    intruder in2 = {sys, q, CDYN_OK, 0};
    cdyn_ground g;
    assert_int_equal(cdyn_ground_add_callback(sys, intruding_ground, &in2, &g), CDYN_OK);
    double e;
    assert_int_equal(cdyn_ground_get_energy(sys, g, &e), CDYN_OK);
    assert_int_equal(in2.got, CDYN_ERR_BUSY);
    cdyn_particle_get_mass(sys, q, &m);
    assert_true(m == 1.0);
    /* Outside callbacks the same call goes through. */
    assert_int_equal(cdyn_particle_set_mass(sys, q, 5.0), CDYN_OK);
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_failing_callbacks_change_nothing),
        cmocka_unit_test(test_overflowing_curvature_term_diverges),
        cmocka_unit_test(test_callbacks_outside_steps_are_read_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
