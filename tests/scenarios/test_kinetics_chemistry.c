/* Chemical kinetics against what the chemistry says: the Bateman solution
 * of a first-order chain, the equilibrium and relaxation rate of A <=> B,
 * Robertson's stiff network (conservation, positivity, steps growing like
 * log t, and the explicit method's cost), Michaelis-Menten against the
 * quasi-steady-state rate law, and the Brusselator's fixed point and limit
 * cycle on either side of B = 1 + A^2. */
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

static cdyn_kinetics *make(void)
{
    cdyn_kinetics *k = NULL;
    assert_int_equal(cdyn_kinetics_create(&k), CDYN_OK);
    return k;
}

static size_t species(cdyn_kinetics *k, const char *name, double c)
{
    size_t i;
    assert_int_equal(cdyn_kinetics_add_species(k, name, c, &i), CDYN_OK);
    return i;
}

static void react(cdyn_kinetics *k, size_t nr, const size_t *r, const int *rc, size_t np,
                  const size_t *p, const int *pc, double kk)
{
    assert_int_equal(cdyn_kinetics_add_reaction(k, nr, r, rc, np, p, pc, kk, NULL), CDYN_OK);
}

static void set_options(cdyn_kinetics *k, cdyn_kinetics_method m, double rtol, double atol)
{
    cdyn_kinetics_options o;
    cdyn_kinetics_options_init(&o);
    o.method = m;
    o.rtol = rtol;
    o.atol = atol;
    o.max_steps = 1000000;
    assert_int_equal(cdyn_kinetics_set_options(k, &o), CDYN_OK);
}

static cdyn_kinetics_stats stats_of(const cdyn_kinetics *k)
{
    cdyn_kinetics_stats s = {.size = sizeof s};
    assert_int_equal(cdyn_kinetics_get_stats(k, &s), CDYN_OK);
    return s;
}

/* --- A -> B -> C ----------------------------------------------------------- */

/* A -k1-> B -k2-> C from A = 1: A = e^(-k1 t), B = k1 / (k2 - k1)
 * (e^(-k1 t) - e^(-k2 t)), C = 1 - A - B (Bateman). At tolerance 1e-10 the
 * BDF and Dormand-Prince outputs, at steps and between them, are within a
 * relative 1e-8 of it while A >= 1e-4 (t <= 4.6), and within 1e-8 of each
 * species' peak over the whole run. (Past that, A keeps decaying through
 * twenty e-foldings and its relative error, the sum of the steps' local
 * errors, grows to about 2e-8 at t = 10; CVODE's on the same problem is
 * 4e-8.) */
static void test_bateman(void **state)
{
    (void)state;
    const double k1 = 2.0, k2 = 0.7;
    for (int m = 0; m < 2; m++) {
        cdyn_kinetics *k = make();
        size_t a = species(k, "A", 1.0), b = species(k, "B", 0.0), c = species(k, "C", 0.0);
        react(k, 1, &a, NULL, 1, &b, NULL, k1);
        react(k, 1, &b, NULL, 1, &c, NULL, k2);
        set_options(k, m ? CDYN_KINETICS_DORMAND_PRINCE : CDYN_KINETICS_BDF, 1e-10, 1e-20);
        enum { NT = 40 };
        double times[NT], out[3 * NT];
        for (int i = 0; i < NT; i++)
            times[i] = 0.25 * (i + 1);
        assert_int_equal(cdyn_kinetics_integrate(k, 10.0, times, NT, out, 3 * NT), CDYN_OK);
        /* peaks: A 1, B at t* = ln(k1 / k2) / (k1 - k2), C 1 */
        double ts = log(k1 / k2) / (k1 - k2);
        double peak[3] = {1.0, k1 / (k2 - k1) * (exp(-k1 * ts) - exp(-k2 * ts)), 1.0};
        double rel = 0.0, rel_all = 0.0, scaled = 0.0;
        for (int i = 0; i < NT; i++) {
            double t = times[i], ea = exp(-k1 * t), eb = exp(-k2 * t);
            double want[3] = {ea, k1 / (k2 - k1) * (ea - eb), 0.0};
            want[2] = 1.0 - want[0] - want[1];
            for (int s = 0; s < 3; s++) {
                double d = fabs(out[3 * i + s] - want[s]);
                rel_all = d / want[s] > rel_all ? d / want[s] : rel_all;
                if (ea >= 1e-4)
                    rel = d / want[s] > rel ? d / want[s] : rel;
                scaled = d / peak[s] > scaled ? d / peak[s] : scaled;
            }
        }
        print_message("Bateman, %s (%llu steps): relative error %.2e while A >= 1e-4, %.2e "
                      "relative to the peaks, %.2e pointwise to t = 10\n",
                      m ? "Dormand-Prince" : "BDF", (unsigned long long)stats_of(k).steps, rel,
                      scaled, rel_all);
        assert_true(rel <= 1e-8);
        assert_true(scaled <= 1e-8);
        cdyn_kinetics_destroy(k);
    }
}

/* --- A <=> B ---------------------------------------------------------------- */

/* A <=> B (k_f = 3, k_b = 1) from A = 1: c_B / c_A -> k_f / k_b, and
 * A - A_eq = (1 - A_eq) e^(-(k_f + k_b) t). */
static void test_reversible(void **state)
{
    (void)state;
    const double kf = 3.0, kb = 1.0, aeq = kb / (kf + kb);
    for (int m = 0; m < 2; m++) {
        cdyn_kinetics *k = make();
        size_t a = species(k, "A", 1.0), b = species(k, "B", 0.0);
        assert_int_equal(cdyn_kinetics_add_reversible_reaction(k, 1, &a, NULL, 1, &b, NULL, kf,
                                                               kb, NULL),
                         CDYN_OK);
        set_options(k, m ? CDYN_KINETICS_DORMAND_PRINCE : CDYN_KINETICS_BDF, 1e-10, 1e-16);
        enum { NT = 12 };
        double times[NT], out[2 * NT], lt[NT], ld[NT];
        for (int i = 0; i < NT; i++)
            times[i] = 0.25 * (i + 1);
        assert_int_equal(cdyn_kinetics_integrate(k, 30.0, times, NT, out, 2 * NT), CDYN_OK);
        for (int i = 0; i < NT; i++) {
            lt[i] = times[i];
            ld[i] = log(out[2 * i] - aeq);
        }
        double rate = -ts_fit_slope(lt, ld, NT);
        double c[2];
        cdyn_kinetics_get_concentrations(k, c, 2);
        print_message("A <=> B: c_B / c_A = %.12f (k_f / k_b = 3), approach rate %.8f "
                      "(k_f + k_b = 4)\n",
                      c[1] / c[0], rate);
        assert_near(c[1] / c[0], kf / kb, 3e-9);
        assert_near(rate, kf + kb, 1e-4);
        cdyn_kinetics_destroy(k);
    }
}

/* --- Robertson ---------------------------------------------------------------- */

static cdyn_kinetics *robertson(void)
{
    cdyn_kinetics *k = make();
    size_t a = species(k, "A", 1.0), b = species(k, "B", 0.0), c = species(k, "C", 0.0);
    size_t bb[] = {b, c}, ac[] = {a, c};
    int two[] = {2};
    react(k, 1, &a, NULL, 1, &b, NULL, 0.04);
    react(k, 1, &b, two, 2, bb, NULL, 3e7);
    react(k, 2, bb, NULL, 2, ac, NULL, 1e4);
    return k;
}

/* From 0 to 4e10 the sum A + B + C (the network's one moiety) stays 1 to
 * 1e-12 at every output, and no concentration falls below -atol. */
static void test_robertson_conservation(void **state)
{
    (void)state;
    cdyn_kinetics *k = robertson();
    const double atol = 1e-12;
    set_options(k, CDYN_KINETICS_BDF, 1e-6, atol);
    size_t m;
    double l[3], before, after;
    assert_int_equal(cdyn_kinetics_get_moiety_count(k, &m), CDYN_OK);
    assert_int_equal(m, 1);
    assert_int_equal(cdyn_kinetics_get_moieties(k, l, 3), CDYN_OK);
    assert_true(l[0] == 1.0 && l[1] == 1.0 && l[2] == 1.0);
    assert_int_equal(cdyn_kinetics_get_moiety_totals(k, &before, 1), CDYN_OK);
    enum { NT = 34 };
    double times[NT], out[3 * NT];
    for (int i = 0; i < NT; i++)
        times[i] = 4e10 * pow(10.0, -0.5 * (NT - 1 - i));
    assert_int_equal(cdyn_kinetics_integrate(k, 4e10, times, NT, out, 3 * NT), CDYN_OK);
    double worst = 0.0, lowest = 1.0;
    for (int i = 0; i < NT; i++) {
        double s = out[3 * i] + out[3 * i + 1] + out[3 * i + 2];
        worst = fabs(s - 1.0) > worst ? fabs(s - 1.0) : worst;
        for (int j = 0; j < 3; j++)
            lowest = out[3 * i + j] < lowest ? out[3 * i + j] : lowest;
    }
    assert_int_equal(cdyn_kinetics_get_moiety_totals(k, &after, 1), CDYN_OK);
    cdyn_kinetics_stats st = stats_of(k);
    print_message("Robertson to 4e10: |sum - 1| <= %.2e, lowest concentration %.3e, %llu "
                  "steps, %llu rejected, %llu negative\n",
                  worst, lowest, (unsigned long long)st.steps,
                  (unsigned long long)st.rejected_steps,
                  (unsigned long long)st.negative_rejections);
    assert_true(worst <= 1e-12);
    assert_true(fabs(after - before) <= 1e-12);
    assert_true(lowest >= -atol);
    /* the known long-time behaviour: A ~ 1 / (k-ratio t) -> 5.2e-8 at 4e10 */
    assert_near(out[3 * (NT - 1)], 5.2083e-8, 2e-11);
    cdyn_kinetics_destroy(k);
}

/* Steps to reach T grow like log T for the BDF (a linear fit in log10 T
 * explains them), while the explicit method, held to the stability limit
 * of the fast reactions, needs steps in proportion to T: orders of
 * magnitude more already at T = 40. */
static void test_robertson_steps(void **state)
{
    (void)state;
    enum { NK = 10 };
    double lt[NK], steps[NK];
    for (int i = 0; i < NK; i++) {
        double T = 4.0 * pow(10.0, i + 1); /* 40 .. 4e10 */
        cdyn_kinetics *k = robertson();
        set_options(k, CDYN_KINETICS_BDF, 1e-6, 1e-12);
        assert_int_equal(cdyn_kinetics_integrate(k, T, NULL, 0, NULL, 0), CDYN_OK);
        lt[i] = log10(T);
        steps[i] = (double)stats_of(k).steps;
        cdyn_kinetics_destroy(k);
    }
    double slope = ts_fit_slope(lt, steps, NK), mean_l = 0, mean_s = 0, res = 0;
    for (int i = 0; i < NK; i++) {
        mean_l += lt[i] / NK;
        mean_s += steps[i] / NK;
    }
    for (int i = 0; i < NK; i++) {
        double fit = mean_s + slope * (lt[i] - mean_l);
        res = fabs(steps[i] - fit) > res ? fabs(steps[i] - fit) : res;
    }
    print_message("BDF steps to T = 4e1 .. 4e10: %.0f .. %.0f, %.1f per decade, largest "
                  "deviation from the line %.1f\n",
                  steps[0], steps[NK - 1], slope, res);
    assert_true(slope > 0);
    assert_true(res <= 0.15 * mean_s);
    assert_true(steps[NK - 1] < 3000);

    double dp[2];
    for (int i = 0; i < 2; i++) {
        cdyn_kinetics *k = robertson();
        set_options(k, CDYN_KINETICS_DORMAND_PRINCE, 1e-6, 1e-12);
        assert_int_equal(cdyn_kinetics_integrate(k, i ? 40.0 : 4.0, NULL, 0, NULL, 0), CDYN_OK);
        dp[i] = (double)stats_of(k).steps;
        cdyn_kinetics_destroy(k);
    }
    print_message("Dormand-Prince steps to T = 4: %.0f, to 40: %.0f (BDF to 40: %.0f)\n", dp[0],
                  dp[1], steps[0]);
    assert_true(dp[1] >= 100.0 * steps[0]);
    assert_true(dp[1] / dp[0] > 5.0); /* about proportional to T */
}

/* --- Michaelis-Menten -------------------------------------------------------- */

/* E + S <=> ES -> E + P with k1 = 10, k-1 = 1, k2 = 1 (K_m = 0.2), S0 = 1.
 * With enzyme scarce the product follows the quasi-steady-state rate
 * dS/dt = -V S / (K_m + S), V = k2 E0, whose solution satisfies
 * K_m ln(S / S0) + S - S0 = -V t; the difference is of first order in
 * E0 / (S0 + K_m). */
static double qssa_substrate(double t, double km, double v)
{
    double s = 1.0; /* Newton on g(s) = km ln s + s - 1 + v t from above */
    for (int i = 0; i < 100; i++) {
        double g = km * log(s) + s - 1.0 + v * t, d = km / s + 1.0;
        double next = s - g / d;
        if (next <= 0)
            next = 0.5 * s;
        if (fabs(next - s) <= 1e-15 * s) {
            s = next;
            break;
        }
        s = next;
    }
    return s;
}

static double michaelis_menten_gap(double e0)
{
    const double k1 = 10.0, km1 = 1.0, k2 = 1.0, km = (km1 + k2) / k1, v = k2 * e0;
    cdyn_kinetics *k = make();
    size_t e = species(k, "E", e0), s = species(k, "S", 1.0), es = species(k, "ES", 0.0);
    size_t p = species(k, "P", 0.0);
    size_t left[] = {e, s}, right[] = {e, p};
    assert_int_equal(cdyn_kinetics_add_reversible_reaction(k, 2, left, NULL, 1, &es, NULL, k1,
                                                           km1, NULL),
                     CDYN_OK);
    react(k, 1, &es, NULL, 2, right, NULL, k2);
    set_options(k, CDYN_KINETICS_BDF, 1e-9, 1e-15);
    /* moieties: E + ES and S + ES + P */
    double l[8], tot[2];
    size_t m;
    assert_int_equal(cdyn_kinetics_get_moiety_count(k, &m), CDYN_OK);
    assert_int_equal(m, 2);
    assert_int_equal(cdyn_kinetics_get_moieties(k, l, 8), CDYN_OK);
    const double want[8] = {1, 0, 1, 0, 0, 1, 1, 1};
    for (int i = 0; i < 8; i++)
        assert_near(l[i], want[i], 0.0);
    double t_end = (km * log(20.0) + 0.95) / v; /* 95% converted */
    enum { NT = 50 };
    double times[NT], out[4 * NT];
    for (int i = 0; i < NT; i++)
        times[i] = t_end * (i + 1) / NT;
    assert_int_equal(cdyn_kinetics_integrate(k, t_end, times, NT, out, 4 * NT), CDYN_OK);
    assert_int_equal(cdyn_kinetics_get_moiety_totals(k, tot, 2), CDYN_OK);
    assert_near(tot[0], e0, 1e-13 * e0 + 1e-16);
    assert_near(tot[1], 1.0, 1e-13);
    double gap = 0.0;
    for (int i = 0; i < NT; i++) {
        double pq = 1.0 - qssa_substrate(times[i], km, v);
        double d = fabs(out[4 * i + 3] - pq);
        gap = d > gap ? d : gap;
    }
    cdyn_kinetics_destroy(k);
    return gap;
}

static void test_michaelis_menten(void **state)
{
    (void)state;
    double g2 = michaelis_menten_gap(1e-2), g3 = michaelis_menten_gap(1e-3);
    double g4 = michaelis_menten_gap(1e-4);
    print_message("Michaelis-Menten, largest |P - P_qssa|: E0 = 1e-2: %.3e, 1e-3: %.3e, "
                  "1e-4: %.3e\n",
                  g2, g3, g4);
    /* first order in E0, and small */
    assert_true(g3 / g2 > 0.05 && g3 / g2 < 0.2);
    assert_true(g4 / g3 > 0.05 && g4 / g3 < 0.2);
    assert_true(g4 < 1e-4);
}

/* --- The Brusselator ----------------------------------------------------------- */

/* 0 -> X (a), 2X + Y -> 3X (1), X -> Y (b), X -> 0 (1): the fixed point
 * (a, b / a) has trace b - 1 - a^2 and determinant a^2: stable below
 * b = 1 + a^2, a limit cycle above. Writes X, Y at n equally spaced times
 * of (0, t_end] into out. */
static void brusselator(double a, double b, double x0, double y0, double t_end, size_t n,
                        double *out)
{
    cdyn_kinetics *k = make();
    size_t x = species(k, "X", x0), y = species(k, "Y", y0), xy[] = {x, y};
    int c21[] = {2, 1}, c3[] = {3};
    react(k, 0, NULL, NULL, 1, &x, NULL, a);
    react(k, 2, xy, c21, 1, &x, c3, 1.0);
    react(k, 1, &x, NULL, 1, &y, NULL, b);
    react(k, 1, &x, NULL, 0, NULL, NULL, 1.0);
    set_options(k, CDYN_KINETICS_BDF, 1e-9, 1e-12);
    double *times = malloc(n * sizeof *times);
    for (size_t i = 0; i < n; i++)
        times[i] = t_end * (double)(i + 1) / (double)n;
    assert_int_equal(cdyn_kinetics_integrate(k, t_end, times, n, out, 2 * n), CDYN_OK);
    free(times);
    cdyn_kinetics_destroy(k);
}

/* The largest distance from (a, b / a) over samples [i0, i1). */
static double envelope(const double *out, size_t i0, size_t i1, double a, double b)
{
    double e = 0.0;
    for (size_t i = i0; i < i1; i++) {
        double d = hypot(out[2 * i] - a, out[2 * i + 1] - b / a);
        e = d > e ? d : e;
    }
    return e;
}

static void test_brusselator_fixed_point(void **state)
{
    (void)state;
    /* b = 1.5 < 2: the deviation decays like exp(t (b - 1 - a^2) / 2) */
    enum { N = 6000 };
    double *out = malloc(2 * N * sizeof *out);
    brusselator(1.0, 1.5, 1.5, 1.0, 60.0, N, out);
    double e1 = envelope(out, 2000, 3000, 1.0, 1.5), e2 = envelope(out, 4000, 5000, 1.0, 1.5);
    double want = exp(-0.25 * 20.0);
    print_message("Brusselator b = 1.5: envelope ratio over 20 time units %.4e (theory %.4e), "
                  "final distance %.2e\n",
                  e2 / e1, want, envelope(out, N - 1, N, 1.0, 1.5));
    assert_true(e2 / e1 > 0.7 * want && e2 / e1 < 1.4 * want);
    assert_true(envelope(out, N - 1, N, 1.0, 1.5) < 1e-5);
    /* just either side of the threshold b = 2: a small deviation shrinks
     * below it and grows above it, at the rate (b - 2) / 2 */
    for (int side = 0; side < 2; side++) {
        double b = side ? 2.1 : 1.9;
        brusselator(1.0, b, 1.001, b, 60.0, N, out);
        double r = envelope(out, 4000, 5000, 1.0, b) / envelope(out, 2000, 3000, 1.0, b);
        double w = exp(0.5 * (b - 2.0) * 20.0);
        print_message("b = %.1f: envelope ratio %.4f (linear theory %.4f)\n", b, r, w);
        assert_true(side ? r > 1.5 : r < 0.6);
        assert_true(r > 0.7 * w && r < 1.4 * w);
    }
    free(out);
}

static void test_brusselator_limit_cycle(void **state)
{
    (void)state;
    /* b = 3 > 2: from near the fixed point onto a limit cycle. Maxima of X
     * (quadratic through three samples) after the transient: equal periods
     * and equal heights, far from the fixed point. */
    enum { N = 20000 };
    const double dt = 100.0 / N;
    double *out = malloc(2 * N * sizeof *out);
    brusselator(1.0, 3.0, 1.01, 3.0, 100.0, N, out);
    double tmax[64], xmax[64];
    int nm = 0;
    for (size_t i = N / 2; i + 1 < N && nm < 64; i++) {
        double xm = out[2 * (i - 1)], x0 = out[2 * i], xp = out[2 * (i + 1)];
        if (x0 > xm && x0 >= xp) {
            double d = 0.5 * (xm - xp) / (xm - 2 * x0 + xp);
            tmax[nm] = dt * ((double)i + 1.0 + d);
            xmax[nm] = x0 - 0.25 * (xm - xp) * d;
            nm++;
        }
    }
    assert_true(nm >= 5);
    double p0 = tmax[1] - tmax[0];
    for (int i = 2; i < nm; i++) {
        assert_near(tmax[i] - tmax[i - 1], p0, 1e-3 * p0);
        assert_near(xmax[i], xmax[0], 1e-3 * xmax[0]);
    }
    print_message("Brusselator b = 3: limit cycle with period %.4f, max X %.4f (%d maxima in "
                  "[50, 100])\n",
                  p0, xmax[0], nm);
    assert_true(xmax[0] > 3.0);
    assert_true(envelope(out, N / 2, N, 1.0, 3.0) > 2.0);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bateman),
        cmocka_unit_test(test_reversible),
        cmocka_unit_test(test_robertson_conservation),
        cmocka_unit_test(test_robertson_steps),
        cmocka_unit_test(test_michaelis_menten),
        cmocka_unit_test(test_brusselator_fixed_point),
        cmocka_unit_test(test_brusselator_limit_cycle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
