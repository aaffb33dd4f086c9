/* Measured orders of convergence of the kinetics integrators on a non-stiff
 * network with a closed-form solution: A -> B -> C (first order, Bateman)
 * beside 2 D -> E (second order: D = D0 / (1 + 2 k D0 t)).
 *
 *  - backward Euler, fixed step h = T / N: the error at T falls like h;
 *  - Dormand-Prince and the BDF capped at order q = 1..5, tolerance
 *    refined: the error falls like steps^-p, p = 5 and q. The same holds
 *    for the largest error over output times between the steps, which the
 *    methods' interpolants produce: they keep the order. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define K1 1.0
#define K2 0.5
#define K3 0.3
#define D0 1.0
#define T_END 3.0
#define NT 97

static void exact(double t, double *c)
{
    double ea = exp(-K1 * t), eb = exp(-K2 * t);
    c[0] = ea;
    c[1] = K1 / (K2 - K1) * (ea - eb);
    c[2] = 1.0 - c[0] - c[1];
    c[3] = D0 / (1.0 + 2.0 * K3 * D0 * t);
    c[4] = 0.5 * (D0 - c[3]);
}

typedef struct run {
    double steps, err_end, err_out;
} run;

/* rtol with atol = rtol / 1000; h: backward Euler's step, or for the
 * adaptive methods a fixed step (initial and largest step, with a
 * tolerance loose enough that no step is rejected) when rtol >= 0.1. */
static run integrate(cdyn_kinetics_method m, double rtol, double h, int max_order)
{
    cdyn_kinetics *k;
    assert_int_equal(cdyn_kinetics_create(&k), CDYN_OK);
    size_t a, b, c, d, e;
    cdyn_kinetics_add_species(k, "A", 1.0, &a);
    cdyn_kinetics_add_species(k, "B", 0.0, &b);
    cdyn_kinetics_add_species(k, "C", 0.0, &c);
    cdyn_kinetics_add_species(k, "D", D0, &d);
    cdyn_kinetics_add_species(k, "E", 0.0, &e);
    int two[] = {2};
    assert_int_equal(cdyn_kinetics_add_reaction(k, 1, &a, NULL, 1, &b, NULL, K1, NULL), CDYN_OK);
    assert_int_equal(cdyn_kinetics_add_reaction(k, 1, &b, NULL, 1, &c, NULL, K2, NULL), CDYN_OK);
    assert_int_equal(cdyn_kinetics_add_reaction(k, 1, &d, two, 1, &e, NULL, K3, NULL), CDYN_OK);
    cdyn_kinetics_options o;
    cdyn_kinetics_options_init(&o);
    o.method = m;
    o.rtol = rtol;
    o.atol = rtol * 1e-3;
    o.fixed_step = h;
    if (rtol >= 0.1 && m != CDYN_KINETICS_BACKWARD_EULER) {
        o.initial_step = h;
        o.max_step = h;
    }
    o.max_order = max_order;
    o.max_steps = 10000000;
    assert_int_equal(cdyn_kinetics_set_options(k, &o), CDYN_OK);
    double times[NT], out[5 * NT], want[5], y[5];
    for (int i = 0; i < NT; i++)
        times[i] = T_END * (i + 0.5) / NT; /* between steps, mostly */
    assert_int_equal(cdyn_kinetics_integrate(k, T_END, times, NT, out, 5 * NT), CDYN_OK);
    run r = {0, 0, 0};
    for (int i = 0; i < NT; i++) {
        exact(times[i], want);
        for (int s = 0; s < 5; s++)
            r.err_out = fmax(r.err_out, fabs(out[5 * i + s] - want[s]));
    }
    cdyn_kinetics_get_concentrations(k, y, 5);
    exact(T_END, want);
    for (int s = 0; s < 5; s++)
        r.err_end = fmax(r.err_end, fabs(y[s] - want[s]));
    cdyn_kinetics_stats st = {.size = sizeof st};
    cdyn_kinetics_get_stats(k, &st);
    r.steps = (double)st.steps;
    cdyn_kinetics_destroy(k);
    return r;
}

static void test_backward_euler_order(void **state)
{
    (void)state;
    double h[5], err[5], err_out[5];
    for (int i = 0; i < 5; i++) {
        h[i] = T_END / (25.0 * pow(2.0, i));
        run r = integrate(CDYN_KINETICS_BACKWARD_EULER, 1e-10, h[i], 5);
        assert_near(r.steps, 25.0 * pow(2.0, i), 0.0);
        err[i] = r.err_end;
        err_out[i] = r.err_out;
    }
    double p = ts_fit_order(h, err, 5), p_out = ts_fit_order(h, err_out, 5);
    print_message("backward Euler: order %.3f at T, %.3f between steps (error %.2e at h = "
                  "%.3g)\n",
                  p, p_out, err[4], h[4]);
    assert_near(p, 1.0, 0.05);
    assert_near(p_out, 1.0, 0.1);
}

/* Slope of -log(error) against log(steps) over tolerances tol0 /
 * 10^(i / 2), i < n. */
static void adaptive_order(cdyn_kinetics_method m, int q, double tol0, int n, double *p,
                           double *p_out, double *last_err)
{
    double steps[16], err[16], err_out[16];
    for (int i = 0; i < n; i++) {
        run r = integrate(m, tol0 * pow(10.0, -0.5 * i), 0.0, q);
        steps[i] = r.steps;
        err[i] = r.err_end;
        err_out[i] = r.err_out;
    }
    *p = -ts_fit_order(steps, err, (size_t)n);
    *p_out = -ts_fit_order(steps, err_out, (size_t)n);
    *last_err = err[n - 1];
}

/* Dormand-Prince at fixed steps h = T / N: order 5 at T; its continuous
 * extension (order 4 locally, O(h^5) per step) keeps the order between
 * steps. */
static void test_dormand_prince_order(void **state)
{
    (void)state;
    double h[5], err[5], err_out[5];
    for (int i = 0; i < 5; i++) {
        h[i] = T_END / (20.0 * pow(2.0, i));
        run r = integrate(CDYN_KINETICS_DORMAND_PRINCE, 0.5, h[i], 5);
        assert_near(r.steps, 20.0 * pow(2.0, i), 1.0);
        err[i] = r.err_end;
        err_out[i] = r.err_out;
    }
    double p = ts_fit_order(h, err, 5), p_out = ts_fit_order(h, err_out, 5);
    print_message("Dormand-Prince at fixed steps: order %.3f at T, %.3f between steps (error "
                  "%.2e at h = %.3g)\n",
                  p, p_out, err[4], h[4]);
    assert_near(p, 5.0, 0.25);
    assert_true(p_out > 4.0 - 0.25);
    /* adaptive: the error follows the tolerance, about steps^-5 */
    double pa, pa_out, e;
    adaptive_order(CDYN_KINETICS_DORMAND_PRINCE, 5, 1e-7, 9, &pa, &pa_out, &e);
    print_message("Dormand-Prince adaptive: order %.3f at T, %.3f between steps (error "
                  "%.2e)\n",
                  pa, pa_out, e);
    assert_true(pa > 4.7 && pa < 5.8);
}

/* The BDF capped at order q: the slope over tolerances a half decade
 * apart (steps from about 10^2 to 10^3). An adaptive run spends a share of
 * its steps starting up (order and step growing from their first values);
 * that share shrinks as the tolerance tightens, which steepens the
 * measured slope: Dormand-Prince measures about 5.35 adaptive against 4.98
 * at fixed steps above, and the BDF's longer start-up shows the same
 * upward bias at high orders. Hence the band [q - 0.3, q + 0.8]. */
static void test_bdf_orders(void **state)
{
    (void)state;
    const double tol0[6] = {0, 1e-3, 1e-4, 1e-6, 1e-7, 1e-8};
    double prev = 0.0;
    for (int q = 1; q <= 5; q++) {
        double p, p_out, e;
        adaptive_order(CDYN_KINETICS_BDF, q, tol0[q], q == 1 ? 7 : 9, &p, &p_out, &e);
        print_message("BDF capped at order %d: order %.3f at T, %.3f between steps (error "
                      "%.2e)\n",
                      q, p, p_out, e);
        assert_true(p > q - 0.3 && p < q + 0.8);
        assert_true(p_out > q - 0.3 && p_out < q + 0.8);
        assert_true(p > prev + 0.5);
        prev = p;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backward_euler_order),
        cmocka_unit_test(test_dormand_prince_order),
        cmocka_unit_test(test_bdf_orders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
