/* The Langevin thermostat (thermostat.h) against statistical mechanics:
 *  - an ideal gas of light and heavy particles: <m v_k^2> = kT for each
 *    mass (equipartition), the kinetic temperature <T> = kT;
 *  - a chain of rods (RATTLE): <T> = kT over the N_f = dim N - rods
 *    degrees of freedom the constraints leave;
 *  - a bead-rod trimer: the bond angle's distribution is the exact one of
 *    rigid constraints, p(cos theta) ~ sqrt(4 - cos^2 theta) (equal masses;
 *    Fixman, Proc. Natl. Acad. Sci. USA 71, 3050 (1974)), not the uniform
 *    one of a freely jointed chain without constraints, which the test
 *    shows it can tell apart;
 *  - a bead-rod chain of n bonds: <R^2> = n b^2, as for the freely jointed
 *    chain (the constraints' weight is even in each bond angle's cosine);
 *  - the noise is a function of seed, step and particle alone: a particle
 *    moves the same with other particles present or not; the same seed
 *    repeats a run bit for bit;
 *  - settings and unsupported combinations are refused.
 * Each mean is compared within 4 standard errors, the error estimated by
 * blocking (samples are correlated over 1/gamma); the trimers' histogram
 * by chi^2, the errors from the spread of 64 independent trimers. */
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

/* Mean and standard error of x[0..n) from 20 blocks. */
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

static void expect_mean(const char *what, const double *x, size_t n, double want)
{
    double m, e;
    block_stats(x, n, &m, &e);
    print_message("%s: %.5f +- %.5f (want %.5f, %.1f sigma)\n", what, m, e, want,
                  fabs(m - want) / e);
    assert_true(e > 0);
    assert_true(fabs(m - want) < 4 * e);
}

static void test_ideal_gas(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        cdyn_system *sys;
        ok(cdyn_system_create(dim, &sys));
        enum { N = 400, STEPS = 6000, EVERY = 5 };
        cdyn_particle p[N];
        uint64_t s = 3;
        for (int i = 0; i < N; i++) {
            double x[3] = {ts_rand_sym(&s), ts_rand_sym(&s), ts_rand_sym(&s)};
            ok(cdyn_particle_add(sys, i % 2 ? 4.0 : 1.0, x, NULL, &p[i]));
        }
        const double kT = 2.0;
        ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET));
        ok(ts_set_langevin(sys, kT, 2.0, 7));
        static double temp[STEPS / EVERY], light[STEPS / EVERY], heavy[STEPS / EVERY];
        size_t m = 0;
        for (int step = 0; step < STEPS + 500; step++) {
            ok(cdyn_system_step(sys, 0.05));
            if (step < 500 || (step - 500) % EVERY)
                continue;
            double v[3 * N], sl = 0, sh = 0;
            ok(cdyn_system_get_temperature(sys, &temp[m]));
            ok(cdyn_system_get_velocities(sys, v, (size_t)(dim * N)));
            for (int i = 0; i < N; i++)
                for (int k = 0; k < dim; k++) {
                    double e = v[dim * i + k] * v[dim * i + k];
                    if (i % 2)
                        sh += 4.0 * e;
                    else
                        sl += e;
                }
            light[m] = sl / (N / 2 * dim);
            heavy[m] = sh / (N / 2 * dim);
            m++;
        }
        expect_mean(dim == 2 ? "2-D ideal gas T" : "3-D ideal gas T", temp, m, kT);
        expect_mean("  <m v_k^2>, m = 1", light, m, kT);
        expect_mean("  <m v_k^2>, m = 4", heavy, m, kT);
        cdyn_system_destroy(sys);
    }
}

/* A chain of n rods of length b along x, beads of unit mass. */
static cdyn_system *chain(int n, double b, double kT, double gamma, uint64_t seed,
                          cdyn_particle *p)
{
    cdyn_system *sys;
    ok(cdyn_system_create(3, &sys));
    for (int i = 0; i <= n; i++) {
        double x[3] = {b * i, 0.1 * (i % 2), 0};
        ok(cdyn_particle_add(sys, 1, x, NULL, &p[i]));
        if (i) {
            cdyn_constraint c;
            double d = sqrt(b * b + 0.01);
            ok(cdyn_constraint_add_distance(sys, p[i - 1], p[i], d, &c));
        }
    }
    ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE));
    ok(ts_set_langevin(sys, kT, gamma, seed));
    return sys;
}

/* Samples the temperature of @p sys every 10 steps of 0.005 s after
 * @p burn steps, @p steps steps in all past them, into @p temp; the count. */
static size_t sample_temperature(cdyn_system *sys, int burn, int steps, double *temp)
{
    size_t m = 0;
    for (int step = 0; step < steps + burn; step++) {
        ok(cdyn_system_step(sys, 0.005));
        if (step >= burn && (step - burn) % 10 == 0)
            ok(cdyn_system_get_temperature(sys, &temp[m++]));
    }
    return m;
}

static void test_constrained_chain_equipartition(void **state)
{
    (void)state;
    enum { N = 9, STEPS = 40000 };
    cdyn_particle p[N + 1];
    cdyn_system *sys = chain(N, 1.0, 1.5, 1.0, 11, p);
    double nf;
    ok(cdyn_system_get_degrees_of_freedom(sys, &nf));
    assert_true(nf == 3 * (N + 1) - N);
    static double temp[STEPS / 10];
    const size_t m = sample_temperature(sys, 2000, STEPS, temp);
    expect_mean("chain of 9 rods: T over N_f = 21", temp, m, 1.5);
    cdyn_system_destroy(sys);
}

/* A chain of 300 rods, long enough for the kernel that sweeps paths from
 * both ends: the noise acts between the two half drifts, on every bead. */
static void test_long_chain_equipartition(void **state)
{
    (void)state;
    enum { N = 300, STEPS = 6000 };
    static cdyn_particle p[N + 1];
    cdyn_system *sys = chain(N, 1.0, 1.5, 1.0, 17, p);
    static double temp[STEPS / 10];
    const size_t m = sample_temperature(sys, 1000, STEPS, temp);
    expect_mean("chain of 300 rods: T over N_f = 603", temp, m, 1.5);
    cdyn_system_destroy(sys);
}

static void test_trimer_angle_distribution(void **state)
{
    (void)state;
    enum { T = 64, STEPS = 45000, EVERY = 5, BINS = 10 };
    /* T trimers apart from each other in one system */
    cdyn_system *sys;
    ok(cdyn_system_create(3, &sys));
    cdyn_particle p[3 * T];
    for (int t = 0; t < T; t++)
        for (int i = 0; i < 3; i++) {
            double x[3] = {10.0 * t + i, 0.3 * (i == 1), 0};
            ok(cdyn_particle_add(sys, 1, x, NULL, &p[3 * t + i]));
            cdyn_constraint c;
            if (i)
                ok(cdyn_constraint_add_distance(sys, p[3 * t + i - 1], p[3 * t + i], 1.0, &c));
        }
    ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE));
    ok(ts_set_langevin(sys, 1.0, 2.0, 5));
    static double u[T][STEPS / EVERY];
    size_t m = 0;
    for (int step = 0; step < STEPS + 1000; step++) {
        ok(cdyn_system_step(sys, 0.02));
        if (step < 1000 || (step - 1000) % EVERY)
            continue;
        double x[9 * T];
        ok(cdyn_system_get_positions(sys, x, 9 * T));
        for (int t = 0; t < T; t++) {
            const double *y = x + 9 * t;
            double a[3], b[3], la = 0, lb = 0, dot = 0;
            for (int k = 0; k < 3; k++) {
                a[k] = y[3 + k] - y[k];
                b[k] = y[6 + k] - y[3 + k];
                la += a[k] * a[k];
                lb += b[k] * b[k];
                dot += a[k] * b[k];
            }
            u[t][m] = dot / sqrt(la * lb);
        }
        m++;
    }
    /* Per bin, the fraction of each trimer's samples: the trimers are
     * independent, so the spread of their fractions gives the error of
     * the mean fraction. */
    static double frac[BINS][T];
    for (int t = 0; t < T; t++) {
        for (int b = 0; b < BINS; b++)
            frac[b][t] = 0;
        for (size_t i = 0; i < m; i++) {
            int b = (int)((u[t][i] + 1) * 0.5 * BINS);
            frac[b < 0 ? 0 : b >= BINS ? BINS - 1 : b][t] += 1.0 / (double)m;
        }
    }
    /* p(u) = sqrt(4 - u^2) / Z on [-1, 1]: its integral is
     * F(u) = u sqrt(4 - u^2) / 2 + 2 asin(u / 2). */
    double chi_rigid = 0, chi_uniform = 0;
#define F(v) ((v) * sqrt(4 - (v) * (v)) / 2 + 2 * asin((v) / 2))
    const double z = F(1.0) - F(-1.0);
    for (int b = 0; b < BINS; b++) {
        double lo = -1 + 2.0 * b / BINS, hi = lo + 2.0 / BINS, mean = 0, var = 0;
        for (int t = 0; t < T; t++)
            mean += frac[b][t] / T;
        for (int t = 0; t < T; t++)
            var += (frac[b][t] - mean) * (frac[b][t] - mean) / (T - 1);
        double err2 = var / T, pr = (F(hi) - F(lo)) / z, pu = 1.0 / BINS;
        chi_rigid += (mean - pr) * (mean - pr) / err2;
        chi_uniform += (mean - pu) * (mean - pu) / err2;
    }
#undef F
    print_message("trimers: %d x %zu samples; chi^2 (10 bins) against sqrt(4 - u^2): %.1f, "
                  "against uniform: %.1f\n",
                  T, m, chi_rigid, chi_uniform);
    assert_true(chi_rigid < 29.6);   /* p = 0.001 for 10 degrees of freedom */
    assert_true(chi_uniform > 60.0); /* the distribution of free joints is told apart */
    cdyn_system_destroy(sys);
}

static void test_chain_end_to_end(void **state)
{
    (void)state;
    enum { N = 8, STEPS = 60000, EVERY = 10 };
    cdyn_particle p[N + 1];
    cdyn_system *sys = chain(N, 1.0, 1.0, 1.0, 13, p);
    static double r2[STEPS / EVERY];
    size_t m = 0;
    const double b2 = 1.01; /* the rods are sqrt(1 + 0.01) long */
    for (int step = 0; step < STEPS + 3000; step++) {
        ok(cdyn_system_step(sys, 0.01));
        if (step < 3000 || (step - 3000) % EVERY)
            continue;
        double a[3], z[3];
        ok(cdyn_particle_get_position(sys, p[0], a));
        ok(cdyn_particle_get_position(sys, p[N], z));
        r2[m++] = ((z[0] - a[0]) * (z[0] - a[0]) + (z[1] - a[1]) * (z[1] - a[1]) +
                   (z[2] - a[2]) * (z[2] - a[2])) /
                  b2;
    }
    expect_mean("chain of 8 rods: <R^2> / b^2", r2, m, N);
    cdyn_system_destroy(sys);
}

/* A particle's noise is its own: alone or among others, it moves the same. */
static void test_noise_independent_of_others(void **state)
{
    (void)state;
    double x1[3], x2[3];
    for (int crowd = 0; crowd <= 1; crowd++) {
        cdyn_system *sys;
        ok(cdyn_system_create(3, &sys));
        cdyn_particle p;
        ok(cdyn_particle_add(sys, 1, (double[]){0, 0, 0}, NULL, &p));
        for (int i = 0; crowd && i < 50; i++) {
            cdyn_particle q;
            ok(cdyn_particle_add(sys, 2, (double[]){5.0 + i, 0, 0}, NULL, &q));
        }
        ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET));
        ok(ts_set_langevin(sys, 1, 1, 42));
        for (int s = 0; s < 100; s++)
            ok(cdyn_system_step(sys, 0.01));
        ok(cdyn_particle_get_position(sys, p, crowd ? x2 : x1));
        cdyn_system_destroy(sys);
    }
    assert_memory_equal(x1, x2, sizeof x1);
}

static void test_settings(void **state)
{
    (void)state;
    cdyn_system *sys;
    ok(cdyn_system_create(2, &sys));
    /* the defaults before any set: off */
    cdyn_langevin_options o = {.size = sizeof o}, d;
    o.kT = o.gamma = -1;
    o.seed = 9;
    ok(cdyn_system_get_langevin_options(sys, &o));
    cdyn_langevin_options_init(&d);
    assert_memory_equal(&o, &d, sizeof o);
    assert_true(o.size == sizeof o && o.kT == 0 && o.gamma == 0 && o.seed == 0);
    assert_int_equal(ts_set_langevin(sys, -1, 1, 0), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(sys), "kT"));
    assert_int_equal(ts_set_langevin(sys, 1, NAN, 0), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(sys), "gamma"));
    assert_int_equal(ts_set_langevin(sys, INFINITY, 1, 0), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(ts_set_langevin(NULL, 1, 1, 0), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_set_langevin_options(sys, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_get_langevin_options(sys, NULL), CDYN_ERR_INVALID_ARGUMENT);
    d.size = sizeof d - 1; /* not the struct's size */
    assert_int_equal(cdyn_system_set_langevin_options(sys, &d), CDYN_ERR_INVALID_ARGUMENT);
    d.size = 1;
    assert_int_equal(cdyn_system_get_langevin_options(sys, &d), CDYN_ERR_INVALID_ARGUMENT);
    ok(ts_set_langevin(sys, 0.5, 2, 77));
    ok(cdyn_system_get_langevin_options(sys, &o));
    assert_true(o.kT == 0.5 && o.gamma == 2 && o.seed == 77);
    /* a smaller struct reads its prefix, the size field is the caller's */
    struct {
        size_t size;
        double kT;
    } old = {sizeof old, 0};
    ok(cdyn_system_get_langevin_options(sys, (cdyn_langevin_options *)(void *)&old));
    assert_true(old.size == sizeof old && old.kT == 0.5);
    cdyn_particle p[2];
    ok(cdyn_particle_add(sys, 1, (double[]){0, 0}, NULL, &p[0]));
    ok(cdyn_particle_add(sys, 1, (double[]){1, 0}, NULL, &p[1]));
    ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4));
    assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_ERR_UNSUPPORTED);
    assert_non_null(strstr(cdyn_system_last_error(sys), "Langevin"));
    cdyn_constraint c;
    ok(cdyn_constraint_add_distance(sys, p[0], p[1], 1, &c));
    ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET));
    assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_ERR_UNSUPPORTED);
    assert_non_null(strstr(cdyn_system_last_error(sys), "RATTLE"));
    ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE));
    ok(cdyn_system_step(sys, 0.01));
    /* gamma 0: off (RK4 steps again), the other fields read back as set */
    ok(ts_set_langevin(sys, 0.5, 0, 3));
    ok(cdyn_system_get_langevin_options(sys, &o));
    assert_true(o.kT == 0.5 && o.gamma == 0 && o.seed == 3);
    ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4));
    ok(cdyn_system_step(sys, 0.01));
    cdyn_system_destroy(sys);
}

/* The thermostat refuses rigid bodies, kinematic particles and particles on
 * shapes while the system has any, and steps again once the last of them is
 * gone: what it refuses is the system as it is, not what it once held. */
static void test_refusals_end_with_their_cause(void **state)
{
    (void)state;
    cdyn_system *sys;
    ok(cdyn_system_create(2, &sys));
    cdyn_particle p[3];
    for (int i = 0; i < 3; i++)
        ok(cdyn_particle_add(sys, 1, (double[]){i, 0.5 * i * i}, NULL, &p[i]));
    ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET));
    ok(ts_set_langevin(sys, 0.5, 2, 5));
    ok(cdyn_system_step(sys, 0.01));
    /* a rigid body */
    cdyn_rigid body;
    ok(cdyn_rigid_add(sys, p, 3, &body));
    assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_ERR_UNSUPPORTED);
    assert_non_null(strstr(cdyn_system_last_error(sys), "rigid"));
    ok(cdyn_rigid_remove(sys, body));
    ok(cdyn_system_step(sys, 0.01));
    /* a kinematic particle */
    cdyn_motion_desc m;
    cdyn_motion_desc_init(&m, CDYN_MOTION_LINEAR);
    m.velocity[0] = 0.1;
    ok(cdyn_particle_set_motion(sys, p[0], &m));
    assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_ERR_UNSUPPORTED);
    assert_non_null(strstr(cdyn_system_last_error(sys), "kinematic"));
    ok(cdyn_particle_set_motion(sys, p[0], NULL));
    ok(cdyn_system_step(sys, 0.01));
    /* a particle on a circle */
    cdyn_curve_desc cd;
    cdyn_curve_desc_init(&cd, CDYN_CURVE_CIRCLE);
    cdyn_constraint c;
    ok(cdyn_constraint_add_on_curve(sys, p[1], &cd, &c));
    assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_ERR_UNSUPPORTED);
    ok(cdyn_constraint_remove(sys, c));
    ok(cdyn_system_step(sys, 0.01));
    cdyn_system_destroy(sys);
}

/* The same seed repeats a run bit for bit; another seed does not. */
static void test_reproducible(void **state)
{
    (void)state;
    ts_state st[3];
    const uint64_t seeds[3] = {5, 5, 6};
    for (int r = 0; r < 3; r++) {
        cdyn_particle p[5];
        cdyn_system *sys = chain(4, 1.0, 1.0, 1.0, seeds[r], p);
        for (int s = 0; s < 200; s++)
            ok(cdyn_system_step(sys, 0.01));
        ts_state_capture(sys, &st[r]);
        cdyn_system_destroy(sys);
    }
    assert_memory_equal(st[0].x, st[1].x, st[0].len * sizeof(double));
    assert_memory_equal(st[0].v, st[1].v, st[0].len * sizeof(double));
    assert_true(ts_state_max_diff(&st[0], &st[2], NULL) > 1e-3);
    for (int r = 0; r < 3; r++)
        ts_state_free(&st[r]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ideal_gas),
        cmocka_unit_test(test_refusals_end_with_their_cause),
        cmocka_unit_test(test_constrained_chain_equipartition),
        cmocka_unit_test(test_long_chain_equipartition),
        cmocka_unit_test(test_trimer_angle_distribution),
        cmocka_unit_test(test_chain_end_to_end),
        cmocka_unit_test(test_noise_independent_of_others),
        cmocka_unit_test(test_settings),
        cmocka_unit_test(test_reproducible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
