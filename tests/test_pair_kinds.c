/* The Lennard-Jones, tabulated and callback pair potentials (pair.h):
 *  - LJ: U and F against the formula, F = -dU/dr, the minimum at
 *    2^(1/6) sigma, U(r_c) = 0 when shifted and U_LJ(r_c) when not, the
 *    default cutoff 2.5 sigma; with r_c = 2^(1/6) sigma and the shift it is
 *    the WCA potential;
 *  - tables: exact at the samples, F = -dU/dr everywhere (so energy is
 *    conserved), and the interpolation error of a smooth potential falls as
 *    h^4 (energy) and h^3 (force) when the spacing h is halved;
 *  - callbacks: the same forces as the built-in LJ to round-off; a failing
 *    callback fails the step with CDYN_ERR_CALLBACK and keeps the state;
 *    busy calls from inside;
 *  - bad parameters of each kind refused with a message. */
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

/* The force on the second of two unit masses r apart along a direction
 * (from the first to the second) and the generator's energy. */
static void probe(const cdyn_pair_params *pp, double r, double *force, double *energy)
{
    cdyn_system *sys;
    ok(cdyn_system_create(3, &sys));
    const double n[3] = {0.48, 0.6, 0.64}; /* a unit vector */
    cdyn_particle p[2];
    ok(cdyn_particle_add(sys, 1, (double[]){0.1, -0.2, 0.3}, NULL, &p[0]));
    ok(cdyn_particle_add(sys, 1, (double[]){0.1 + r * n[0], -0.2 + r * n[1], 0.3 + r * n[2]},
                         NULL, &p[1]));
    cdyn_force f;
    ok(cdyn_force_add_pair_set(sys, pp, p, 2, &f));
    double acc[6];
    ok(cdyn_system_evaluate(sys, acc, 6));
    *force = acc[3] * n[0] + acc[4] * n[1] + acc[5] * n[2];
    assert_near(acc[0], -acc[3], 1e-13 * (1 + fabs(acc[3])));
    ok(cdyn_force_get_energy(sys, f, energy));
    cdyn_system_destroy(sys);
}

static double lj_u(double r)
{
    double s6 = pow(1 / r, 6);
    return 4 * s6 * (s6 - 1);
}

static double lj_f(double r)
{
    double s6 = pow(1 / r, 6);
    return 24 * s6 * (2 * s6 - 1) / r;
}

static void test_lennard_jones(void **state)
{
    (void)state;
    cdyn_pair_params pp;
    ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ));
    assert_true(pp.cutoff == 0 && pp.shift);
    const double rc = 2.5;
    for (int shift = 0; shift <= 1; shift++) {
        pp.shift = shift;
        for (double r = 0.9; r < 2.6; r += 0.137) {
            double f, u;
            probe(&pp, r, &f, &u);
            if (r >= rc) {
                assert_true(f == 0 && u == 0);
                continue;
            }
            assert_near(f, lj_f(r), 1e-12 * fabs(lj_f(r)) + 1e-15);
            assert_near(u, lj_u(r) - (shift ? lj_u(rc) : 0), 1e-12 * (1 + fabs(lj_u(r))));
            double h = 1e-6, up, um, fp;
            probe(&pp, r + h, &fp, &up);
            probe(&pp, r - h, &fp, &um);
            assert_near(f, -(up - um) / (2 * h), 1e-6 * (1 + fabs(f)));
        }
        double f, u;
        probe(&pp, 1.122462048309373, &f, &u); /* the minimum */
        assert_true(fabs(f) < 1e-12);
        probe(&pp, rc - 1e-9, &f, &u);
        assert_near(u, shift ? 0.0 : lj_u(rc), 1e-8);
    }
    /* cut at the minimum and shifted: the WCA potential */
    cdyn_pair_params wca;
    ok(cdyn_pair_params_init(&wca, CDYN_PAIR_LJ_REPULSIVE));
    pp.shift = 1;
    pp.cutoff = 1.122462048309373;
    for (double r = 0.92; r < 1.12; r += 0.03) {
        double f1, u1, f2, u2;
        probe(&pp, r, &f1, &u1);
        probe(&wca, r, &f2, &u2);
        assert_near(f1, f2, 1e-12 * fabs(f2));
        assert_near(u1, u2, 1e-12 * (1 + fabs(u2)));
    }
}

/* A table of LJ (cut at 2.5, shifted) with @p n samples from 0.9. */
static double *lj_table(size_t n, cdyn_pair_params *pp)
{
    double *t = malloc(2 * n * sizeof *t);
    assert_non_null(t);
    for (size_t k = 0; k < n; k++) {
        double r = 0.9 + (2.5 - 0.9) * (double)k / (double)(n - 1);
        t[2 * k] = lj_u(r) - lj_u(2.5);
        t[2 * k + 1] = lj_f(r);
    }
    ok(cdyn_pair_params_init(pp, CDYN_PAIR_TABLE));
    pp->table = t;
    pp->table_size = n;
    pp->table_r_min = 0.9;
    pp->cutoff = 2.5;
    return t;
}

static void test_table(void **state)
{
    (void)state;
    double err_u[4], err_f[4], hs[4];
    for (int level = 0; level < 4; level++) {
        size_t n = (size_t)(20 << level) + 1;
        cdyn_pair_params pp;
        double *t = lj_table(n, &pp);
        hs[level] = 1.6 / (double)(n - 1);
        double eu = 0, ef = 0;
        for (double r = 0.95; r < 2.45; r += 0.0173) {
            double f, u;
            probe(&pp, r, &f, &u);
            eu = fmax(eu, fabs(u - (lj_u(r) - lj_u(2.5))));
            ef = fmax(ef, fabs(f - lj_f(r)));
            if (level == 1) { /* F = -dU/dr of the interpolant itself */
                double h = 1e-6, up, um, fp;
                probe(&pp, r + h, &fp, &up);
                probe(&pp, r - h, &fp, &um);
                assert_near(f, -(up - um) / (2 * h), 1e-6 * (1 + fabs(f)));
            }
        }
        /* exact at the samples */
        double f, u;
        probe(&pp, 0.9 + 1.6 * 7.0 / (double)(n - 1), &f, &u);
        assert_near(u, t[14], 1e-12 * (1 + fabs(t[14])));
        assert_near(f, t[15], 1e-11 * (1 + fabs(t[15])));
        err_u[level] = eu;
        err_f[level] = ef;
        free(t);
    }
    double ou = ts_fit_order(hs, err_u, 4), of = ts_fit_order(hs, err_f, 4);
    print_message("table: energy error %.2g -> %.2g (order %.2f), force %.2g -> %.2g (order "
                  "%.2f)\n", err_u[0], err_u[3], ou, err_f[0], err_f[3], of);
    assert_true(ou > 3.6 && ou < 4.4);
    assert_true(of > 2.6 && of < 3.4);
}

static int fail_after; /* a callback that fails on its fail_after-th call */
static int cb_calls;

static int lj_cb(const cdyn_system *sys, double t, size_t i, size_t j, double r, double *energy,
                 double *force, double *dforce, void *user)
{
    (void)t, (void)i, (void)j;
    assert_true(user == &cb_calls);
    if (++cb_calls == fail_after)
        return 7;
    /* calls that would change the system are refused */
    if (cb_calls == 1)
        assert_int_equal(cdyn_system_set_time((cdyn_system *)(uintptr_t)sys, 0),
                         CDYN_ERR_BUSY);
    if (energy)
        *energy = lj_u(r) - lj_u(2.5);
    if (force)
        *force = lj_f(r);
    if (dforce) {
        double s6 = pow(1 / r, 6);
        *dforce = 24 * s6 * (7 - 26 * s6) / (r * r);
    }
    return 0;
}

static void test_callback(void **state)
{
    (void)state;
    /* the same liquid with the built-in LJ and with the callback */
    cdyn_system *sys[2];
    cdyn_particle p[2][256];
    cdyn_force f[2];
    size_t n = 0;
    for (int k = 0; k < 2; k++) {
        ok(cdyn_system_create(3, &sys[k]));
        n = ts_make_fluid(sys[k], 4, 0.8, 1.0, 0.05, 1, p[k]);
        cdyn_pair_params pp;
        if (k == 0) {
            ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ));
        } else {
            ok(cdyn_pair_params_init(&pp, CDYN_PAIR_CALLBACK));
            pp.fn = lj_cb;
            pp.user = &cb_calls;
            pp.cutoff = 2.5;
        }
        ok(cdyn_force_add_pair_set(sys[k], &pp, p[k], n, &f[k]));
        ok(cdyn_system_set_integrator(sys[k], CDYN_INTEGRATOR_VELOCITY_VERLET));
    }
    fail_after = -1;
    cb_calls = 0;
    for (int s = 0; s < 100; s++) {
        ok(cdyn_system_step(sys[0], 0.004));
        ok(cdyn_system_step(sys[1], 0.004));
    }
    assert_true(cb_calls > 0);
    ts_state a, b;
    ts_state_capture(sys[0], &a);
    ts_state_capture(sys[1], &b);
    double dv, dx = ts_state_max_diff(&a, &b, &dv);
    print_message("callback LJ against built-in after 100 steps: |dx| %.2g, |dv| %.2g\n", dx, dv);
    assert_true(dx < 1e-10 && dv < 1e-9);
    double e0, e1;
    ok(cdyn_force_get_energy(sys[0], f[0], &e0));
    ok(cdyn_force_get_energy(sys[1], f[1], &e1));
    assert_near(e1, e0, 1e-10 * fabs(e0));
    /* a failing callback: the step fails, nothing moves */
    ts_state before, after;
    ts_state_capture(sys[1], &before);
    cb_calls = 0;
    fail_after = 40;
    assert_int_equal(cdyn_system_step(sys[1], 0.004), CDYN_ERR_CALLBACK);
    assert_non_null(strstr(cdyn_system_last_error(sys[1]), "returned 7"));
    ts_state_capture(sys[1], &after);
    assert_true(before.time == after.time);
    assert_memory_equal(before.x, after.x, before.len * sizeof(double));
    assert_memory_equal(before.v, after.v, before.len * sizeof(double));
    /* so do the energy queries, leaving the output as it was */
    double e = 42;
    cb_calls = 1; /* past the check of calls during steps */
    assert_int_equal(cdyn_force_get_energy(sys[1], f[1], &e), CDYN_ERR_CALLBACK);
    assert_true(e == 42);
    cb_calls = 1;
    assert_int_equal(cdyn_system_get_potential_energy(sys[1], &e), CDYN_ERR_CALLBACK);
    assert_true(e == 42);
    fail_after = -1;
    ok(cdyn_system_step(sys[1], 0.004)); /* and it goes on */
    ts_state_free(&a);
    ts_state_free(&b);
    ts_state_free(&before);
    ts_state_free(&after);
    cdyn_system_destroy(sys[0]);
    cdyn_system_destroy(sys[1]);
}

static void test_bad_params(void **state)
{
    (void)state;
    cdyn_system *sys;
    ok(cdyn_system_create(2, &sys));
    cdyn_particle p[2];
    ok(cdyn_particle_add(sys, 1, (double[]){0, 0}, NULL, &p[0]));
    ok(cdyn_particle_add(sys, 1, (double[]){1, 0}, NULL, &p[1]));
    cdyn_force f;
    cdyn_pair_params pp;
    double table[4] = {1, 2, 0, 0};
    struct {
        cdyn_pair_kind kind;
        int field;
        const char *msg;
    } cases[] = {
        {CDYN_PAIR_LJ, 0, "cutoff"},          {CDYN_PAIR_LJ, 1, "sigma"},
        {CDYN_PAIR_TABLE, 2, "cutoff"},       {CDYN_PAIR_TABLE, 3, "NULL table"},
        {CDYN_PAIR_TABLE, 4, "table_size"},   {CDYN_PAIR_TABLE, 5, "table_r_min"},
        {CDYN_PAIR_TABLE, 6, "not finite"},   {CDYN_PAIR_CALLBACK, 7, "NULL fn"},
        {CDYN_PAIR_CALLBACK, 8, "cutoff"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ok(cdyn_pair_params_init(&pp, cases[i].kind));
        pp.table = table;
        pp.table_size = 2;
        pp.cutoff = 2;
        pp.fn = lj_cb;
        table[1] = 2;
        switch (cases[i].field) {
        case 0: pp.cutoff = -1; break;
        case 1: pp.sigma = 0; break;
        case 2: pp.cutoff = INFINITY; break;
        case 3: pp.table = NULL; break;
        case 4: pp.table_size = 1; break;
        case 5: pp.table_r_min = 2.5; break;
        case 6: table[1] = NAN; break;
        case 7: pp.fn = NULL; break;
        default: pp.cutoff = 0; break;
        }
        assert_int_equal(cdyn_force_add_pair_set(sys, &pp, p, 2, &f), CDYN_ERR_INVALID_ARGUMENT);
        if (!strstr(cdyn_system_last_error(sys), cases[i].msg))
            fail_msg("case %zu: message '%s' lacks '%s'", i, cdyn_system_last_error(sys),
                     cases[i].msg);
    }
    /* An older, shorter struct (ending at damping) takes the defaults. */
    ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE));
    pp.size = offsetof(cdyn_pair_params, damping) + sizeof(double);
    ok(cdyn_force_add_pair_set(sys, &pp, p, 2, &f));
    pp.size = 12;
    assert_int_equal(cdyn_force_add_pair_set(sys, &pp, p, 2, &f), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lennard_jones),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_callback),
        cmocka_unit_test(test_bad_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
