/* Force generators: the spring-dashpot, gravity, drag,
 * user callbacks, energies and bad input. */
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

static void assert_rel(double got, double want, double tol)
{
    double scale = fabs(want) > 1e-300 ? fabs(want) : 1.0;
    if (!(fabs(got - want) <= tol * scale))
        fail_msg("got %.17g want %.17g (rel err %.3g > %.3g)", got, want,
                 fabs(got - want) / scale, tol);
}

/* One explicit-Euler step of dt = 1 turns the force into a velocity change,
 * which is compared with T n computed here from eq. (6). */
static void test_spring_dashpot_matches_formula(void **state)
{
    (void)state;
    cdyn_system *sys = make(3);
    const double xa[3] = {0.1, -0.2, 0.3}, xb[3] = {1.3, 0.9, -0.4};
    const double va[3] = {0.5, -1.0, 0.25}, vb[3] = {-0.7, 0.2, 1.5};
    const double S = 7.5, D = 0.8, R0 = 1.1, ma = 2.0, mb = 3.0;
    cdyn_particle a, b;
    cdyn_particle_add(sys, ma, xa, va, &a);
    cdyn_particle_add(sys, mb, xb, vb, &b);
    cdyn_force f;
    assert_int_equal(cdyn_force_add_spring(sys, a, b, S, D, R0, &f), CDYN_OK);

    double d[3], l = 0, rate = 0;
    for (int k = 0; k < 3; k++) {
        d[k] = xb[k] - xa[k];
        l += d[k] * d[k];
    }
    l = sqrt(l);
    for (int k = 0; k < 3; k++)
        rate += d[k] / l * (vb[k] - va[k]);
    double T = S * (l - R0) + D * rate;
    double tension;
    assert_int_equal(cdyn_force_get_spring_tension(sys, f, &tension), CDYN_OK);
    assert_rel(tension, T, 1e-14);
    double e;
    assert_int_equal(cdyn_force_get_energy(sys, f, &e), CDYN_OK);
    assert_rel(e, 0.5 * S * (l - R0) * (l - R0), 1e-14);

    cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_EXPLICIT_EULER);
    assert_int_equal(cdyn_system_step(sys, 1.0), CDYN_OK);
    double va1[3], vb1[3];
    cdyn_particle_get_velocity(sys, a, va1);
    cdyn_particle_get_velocity(sys, b, vb1);
    for (int k = 0; k < 3; k++) {
        assert_rel(ma * (va1[k] - va[k]), T * d[k] / l, 1e-13);
        assert_rel(mb * (vb1[k] - vb[k]), -T * d[k] / l, 1e-13);
    }
    cdyn_force_kind kind;
    assert_int_equal(cdyn_force_get_kind(sys, f, &kind), CDYN_OK);
    assert_int_equal(kind, CDYN_FORCE_SPRING);
    cdyn_system_destroy(sys);
}

static void test_zero_length_spring_is_finite(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_particle a, b;
    cdyn_particle_add(sys, 1, (double[]){1, 1}, (double[]){0.5, 0}, &a);
    cdyn_particle_add(sys, 1, (double[]){1, 1}, (double[]){-0.5, 0}, &b);
    cdyn_force f;
    assert_int_equal(cdyn_force_add_spring(sys, a, b, 10, 2, 1, &f), CDYN_OK);
    double t;
    assert_int_equal(cdyn_force_get_spring_tension(sys, f, &t), CDYN_OK);
    assert_true(t == -10.0 * 1.0); /* the elastic part alone: -S R0 */
    cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_EXPLICIT_EULER);
    assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    double v[2];
    cdyn_particle_get_velocity(sys, a, v);
    assert_true(v[0] == 0.5 && v[1] == 0); /* no direction, no force */
    /* Once apart (still compressed: l = 0.01 < R0) the spring pushes them
     * further apart: a, on the +x side, speeds up along +x. */
    assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    cdyn_particle_get_velocity(sys, a, v);
    assert_true(v[0] > 0.5);
    cdyn_system_destroy(sys);
}

/* RK4 integrates a constant acceleration exactly. */
static void test_gravity_free_fall(void **state)
{
    (void)state;
    cdyn_system *sys = make(3);
    const double g[3] = {0.3, -9.81, 0.1}, x0[3] = {1, 2, 3}, v0[3] = {4, 5, -6};
    cdyn_particle p;
    cdyn_particle_add(sys, 3.0, x0, v0, &p);
    cdyn_force f;
    assert_int_equal(cdyn_force_add_gravity(sys, g, &f), CDYN_OK);
    cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4);
    for (int i = 0; i < 200; i++)
        assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    double x[3], v[3], t = 2.0;
    cdyn_particle_get_position(sys, p, x);
    cdyn_particle_get_velocity(sys, p, v);
    for (int k = 0; k < 3; k++) {
        assert_near(x[k], x0[k] + v0[k] * t + 0.5 * g[k] * t * t, 1e-11);
        assert_near(v[k], v0[k] + g[k] * t, 1e-12);
    }
    double e, e_sys;
    assert_int_equal(cdyn_force_get_energy(sys, f, &e), CDYN_OK);
    assert_rel(e, -3.0 * (g[0] * x[0] + g[1] * x[1] + g[2] * x[2]), 1e-14);
    assert_int_equal(cdyn_system_get_potential_energy(sys, &e_sys), CDYN_OK);
    assert_rel(e_sys, e, 1e-15);
    /* A fixed particle exchanges no energy with the field: it adds nothing. */
    cdyn_particle anchor;
    assert_int_equal(cdyn_particle_add(sys, 2.0, (double[]){5, 7, -2}, NULL, &anchor), CDYN_OK);
    assert_int_equal(cdyn_particle_set_fixed(sys, anchor, true), CDYN_OK);
    double e_with_fixed;
    assert_int_equal(cdyn_force_get_energy(sys, f, &e_with_fixed), CDYN_OK);
    assert_true(e_with_fixed == e);
    cdyn_system_destroy(sys);
}

static void test_linear_drag_decay(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    const double m = 2.0, b = 0.7;
    cdyn_particle p;
    cdyn_particle_add(sys, m, (double[]){0, 0}, (double[]){3, -1}, &p);
    cdyn_force f;
    assert_int_equal(cdyn_force_add_drag(sys, b, &f), CDYN_OK);
    cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4);
    for (int i = 0; i < 1000; i++)
        cdyn_system_step(sys, 1e-3);
    double v[2], x[2], decay = exp(-b / m);
    cdyn_particle_get_velocity(sys, p, v);
    cdyn_particle_get_position(sys, p, x);
    assert_rel(v[0], 3 * decay, 1e-12);
    assert_rel(v[1], -1 * decay, 1e-12);
    assert_rel(x[0], 3 * m / b * (1 - decay), 1e-12);
    double e;
    assert_int_equal(cdyn_force_get_energy(sys, f, &e), CDYN_OK);
    assert_true(e == 0);
    cdyn_system_destroy(sys);
}

typedef struct push {
    double force[3];
    int calls;
    int fail_after;
    cdyn_status busy_status;
    bool try_mutate;
} push;

static int push_fn(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                   const double *v, double *f, void *user)
{
    (void)t, (void)x, (void)v;
    push *p = user;
    p->calls++;
    if (p->fail_after && p->calls > p->fail_after)
        return 42;
    if (p->try_mutate) {
        /* A misbehaving callback that casts const away must be refused. */
        cdyn_particle q;
        p->busy_status = cdyn_particle_add((cdyn_system *)(size_t)sys, 1, (double[]){0, 0, 0},
                                           NULL, &q);
    }
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < dim; k++)
            f[i * (size_t)dim + (size_t)k] += p->force[k];
    return 0;
}

static void test_callback_force(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_particle p;
    cdyn_particle_add(sys, 2.0, (double[]){0, 0}, NULL, &p);
    push u = {.force = {2.0, -4.0}};
    cdyn_force f;
    assert_int_equal(cdyn_force_add_callback(sys, NULL, &u, false, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_callback(sys, push_fn, &u, false, &f), CDYN_OK);
    cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4);
    for (int i = 0; i < 10; i++)
        assert_int_equal(cdyn_system_step(sys, 0.1), CDYN_OK);
    assert_int_equal(u.calls, 40); /* four evaluations per RK4 step */
    double x[2];
    cdyn_particle_get_position(sys, p, x);
    assert_near(x[0], 0.5 * 1.0 * 1.0, 1e-13);
    assert_near(x[1], 0.5 * -2.0 * 1.0, 1e-13);

    /* A failing callback stops the step and changes nothing. */
    double xb[2], vb[2], tb, xa[2], va[2], ta;
    cdyn_particle_get_position(sys, p, xb);
    cdyn_particle_get_velocity(sys, p, vb);
    cdyn_system_get_time(sys, &tb);
    u.fail_after = u.calls + 2;
    assert_int_equal(cdyn_system_step(sys, 0.1), CDYN_ERR_CALLBACK);
    assert_non_null(strstr(cdyn_system_last_error(sys), "42"));
    cdyn_particle_get_position(sys, p, xa);
    cdyn_particle_get_velocity(sys, p, va);
    cdyn_system_get_time(sys, &ta);
    assert_memory_equal(xa, xb, sizeof xa);
    assert_memory_equal(va, vb, sizeof va);
    assert_true(ta == tb);

    /* Changing the system from inside a step is refused. */
    u.fail_after = 0;
    u.try_mutate = true;
    assert_int_equal(cdyn_system_step(sys, 0.1), CDYN_OK);
    assert_int_equal(u.busy_status, CDYN_ERR_BUSY);
    size_t n;
    cdyn_system_get_particle_count(sys, &n);
    assert_int_equal(n, 1);

    /* Removed, it no longer acts. */
    assert_int_equal(cdyn_force_remove(sys, f), CDYN_OK);
    int calls = u.calls;
    cdyn_system_step(sys, 0.1);
    assert_int_equal(u.calls, calls);
    cdyn_system_destroy(sys);
}

static void test_bad_force_input(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_particle a, b;
    cdyn_particle_add(sys, 1, (double[]){0, 0}, NULL, &a);
    cdyn_particle_add(sys, 1, (double[]){1, 0}, NULL, &b);
    cdyn_force f = 0;
    assert_int_equal(cdyn_force_add_spring(sys, a, a, 1, 0, 1, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_spring(sys, a, b, NAN, 0, 1, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_spring(sys, a, b, INFINITY, 0, 1, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_spring(sys, a, b, -1, 0, 1, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_spring(sys, a, b, 1, -0.1, 1, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_spring(sys, a, b, 1, 0, -1, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_spring(sys, a, b, 1, 0, 1, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_spring(sys, a, 0, 1, 0, 1, &f), CDYN_ERR_INVALID_HANDLE);
    assert_int_equal(cdyn_force_add_gravity(sys, NULL, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, NAN}, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_drag(sys, -1, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_drag(sys, INFINITY, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_true(f == 0);
    double pe;
    cdyn_system_get_potential_energy(sys, &pe);
    assert_true(pe == 0);
    /* Tension of a non-spring is refused. */
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, -1}, &g);
    double t;
    assert_int_equal(cdyn_force_get_spring_tension(sys, g, &t), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_system_destroy(sys);
}

/* Parameters changed after the generators were added take effect in the
 * next step: free fall under the new field (RK4 is exact for it), the
 * exponential decay of the new drag, the new spring's period; they read
 * back; bad values and wrong kinds are refused with nothing changed. */
static void test_force_parameters(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_particle p, q;
    assert_int_equal(cdyn_particle_add(sys, 2.0, (double[]){0, 0}, (double[]){1, 0}, &p), CDYN_OK);
    cdyn_force g, d, s;
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g), CDYN_OK);
    assert_int_equal(cdyn_force_add_drag(sys, 0.3, &d), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4), CDYN_OK);
    /* a new field and no drag: x = v0 t, y = g t^2 / 2 */
    assert_int_equal(cdyn_force_set_gravity(sys, g, (double[]){0.5, -1.62}), CDYN_OK);
    assert_int_equal(cdyn_force_set_drag(sys, d, 0.0), CDYN_OK);
    double back[2], b;
    assert_int_equal(cdyn_force_get_gravity(sys, g, back), CDYN_OK);
    assert_true(back[0] == 0.5 && back[1] == -1.62);
    assert_int_equal(cdyn_force_get_drag(sys, d, &b), CDYN_OK);
    assert_true(b == 0.0);
    for (int i = 0; i < 100; i++)
        assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    double x[2];
    assert_int_equal(cdyn_particle_get_position(sys, p, x), CDYN_OK);
    assert_rel(x[0], 1.0 + 0.5 * 0.5, 1e-13);
    assert_rel(x[1], -0.5 * 1.62, 1e-13);
    /* drag alone: v = v1 exp(-b t / m) */
    double v1[2], v2[2];
    assert_int_equal(cdyn_force_set_gravity(sys, g, (double[]){0, 0}), CDYN_OK);
    assert_int_equal(cdyn_force_set_drag(sys, d, 0.4), CDYN_OK);
    assert_int_equal(cdyn_particle_get_velocity(sys, p, v1), CDYN_OK);
    for (int i = 0; i < 100; i++)
        assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    assert_int_equal(cdyn_particle_get_velocity(sys, p, v2), CDYN_OK);
    assert_rel(v2[0], v1[0] * exp(-0.4 * 1.0 / 2.0), 1e-9);
    /* a spring to a fixed particle: period 2 pi sqrt(m / S) after the change */
    assert_int_equal(cdyn_force_set_drag(sys, d, 0.0), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0, 0}, NULL, &q), CDYN_OK);
    assert_int_equal(cdyn_particle_set_fixed(sys, q, true), CDYN_OK);
    assert_int_equal(cdyn_particle_set_position(sys, p, (double[]){1.2, 0}), CDYN_OK);
    assert_int_equal(cdyn_particle_set_velocity(sys, p, (double[]){0, 0}), CDYN_OK);
    assert_int_equal(cdyn_force_add_spring(sys, p, q, 10, 0, 1, &s), CDYN_OK);
    assert_int_equal(cdyn_force_set_spring(sys, s, 50, 0, 0.8), CDYN_OK);
    double S, D, R0;
    assert_int_equal(cdyn_force_get_spring(sys, s, &S, &D, &R0), CDYN_OK);
    assert_true(S == 50 && D == 0 && R0 == 0.8);
    double period = 2 * TS_PI * sqrt(2.0 / 50.0), t = 0, prev = 0.4, cross = -1;
    int crossings = 0;
    while (crossings < 2) {
        assert_int_equal(cdyn_system_step(sys, 1e-4), CDYN_OK);
        t += 1e-4;
        assert_int_equal(cdyn_particle_get_position(sys, p, x), CDYN_OK);
        double e = x[0] - 0.8;
        if ((prev > 0) != (e > 0)) {
            cross = t - 1e-4 * e / (e - prev);
            crossings++;
        }
        prev = e;
    }
    assert_rel(cross, 0.75 * period, 1e-7);
    /* refusals change nothing */
    ts_state before, after;
    ts_state_capture(sys, &before);
    assert_int_equal(cdyn_force_set_spring(sys, s, NAN, 0, 1), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(sys), "force_set_spring"));
    assert_int_equal(cdyn_force_set_spring(sys, g, 1, 0, 1), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(sys), "not a spring"));
    assert_int_equal(cdyn_force_set_drag(sys, d, -1), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_set_gravity(sys, g, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_set_gravity(sys, d, (double[]){0, 1}), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_get_drag(sys, s, &b), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_get_spring(sys, s, NULL, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_get_gravity(sys, g, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_get_spring(sys, s, &S, &D, &R0), CDYN_OK);
    assert_true(S == 50 && D == 0 && R0 == 0.8);
    ts_state_capture(sys, &after);
    assert_true(ts_state_max_diff(&before, &after, NULL) == 0);
    ts_state_free(&before);
    ts_state_free(&after);
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spring_dashpot_matches_formula),
        cmocka_unit_test(test_zero_length_spring_is_finite),
        cmocka_unit_test(test_gravity_free_fall),
        cmocka_unit_test(test_linear_drag_decay),
        cmocka_unit_test(test_callback_force),
        cmocka_unit_test(test_bad_force_input),
        cmocka_unit_test(test_force_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
