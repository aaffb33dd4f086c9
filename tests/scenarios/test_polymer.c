/* A polymer: a 3-D freely jointed chain of N = 100 rigid bonds of
 * length b between 101 unit masses, no other force, integrated with RATTLE
 * (docs/rattle.md, section "The polymer test").
 *
 * 1. One chain with random thermal velocities: every bond length stays
 *    within the projection tolerance for 10^5 steps, velocities stay
 *    tangent, and the energy (all kinetic) is conserved.
 *
 * 2. The mean-square end-to-end distance <R^2> of a freely jointed chain in
 *    equilibrium is N b^2. Which average? An isolated chain conserves its
 *    energy, momentum and angular momentum, so one chain's time average is
 *    an average over its own (E, P, L) shell: a spinning chain is stretched,
 *    a chain started straight keeps the large angular momentum random
 *    velocities give it and never reaches N b^2. The correct statistical
 *    test is an ensemble average over independent chains drawn from the
 *    canonical distribution, which the exact dynamics leave invariant (and
 *    RATTLE, being symplectic, to O(dt^2)); the time average over each run
 *    then only reduces the variance. Canonical for rigid bonds means:
 *    configurations with bond directions uniform on the sphere weighted by
 *    sqrt(det Z), Z = G M^-1 G^T (Fixman 1974; for three masses the known
 *    sin(theta) sqrt(1 - cos^2(theta) / 4) bond-angle law), drawn exactly
 *    by rejection since det Z <= 2^N (Hadamard); velocities Maxwellian,
 *    projected onto the tangent space G v = 0 (the canonical momenta given
 *    the configuration), centre-of-mass velocity removed (it does not
 *    couple). det Z is even in every bond-angle cosine, so the weight does
 *    not change <R^2> = N b^2; what the test checks is that the dynamics
 *    keep it, the estimate being compared with N b^2 within four standard
 *    errors computed from the spread over the chains. */
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

#define NB 100      /* bonds */
#define NP (NB + 1) /* beads */

static const double BOND = 1.0, KT = 1.0, DT = 0.005;

static double uniform01(uint64_t *s)
{
    return 0.5 * (ts_rand_sym(s) + 1.0); /* [0, 1) */
}

static double gaussian(uint64_t *s)
{
    double u = 1.0 - uniform01(s), v = uniform01(s);
    return sqrt(-2.0 * log(u)) * cos(2.0 * TS_PI * v);
}

/* Bond directions (unit vectors) drawn from the rigid-bond canonical
 * distribution: uniform, accepted with probability sqrt(det T / 2^N),
 * T = tridiag(-c_i, 2, -c_i) (Z for unit masses and bonds), c_i the cosine
 * between bonds i and i + 1. Returns the number of tries. */
static int canonical_bonds(uint64_t *s, double u[NB][3])
{
    for (int tries = 1;; tries++) {
        for (int i = 0; i < NB; i++) {
            double z = ts_rand_sym(s), phi = TS_PI * ts_rand_sym(s), r = sqrt(1 - z * z);
            u[i][0] = r * cos(phi);
            u[i][1] = r * sin(phi);
            u[i][2] = z;
        }
        /* d_k = det(T_k) / 2^k: d_k = d_{k-1} - (c_{k-1}^2 / 4) d_{k-2}. */
        double d0 = 1, d1 = 1;
        for (int i = 1; i < NB; i++) {
            double c = u[i - 1][0] * u[i][0] + u[i - 1][1] * u[i][1] + u[i - 1][2] * u[i][2];
            double d2 = d1 - 0.25 * c * c * d0;
            d0 = d1;
            d1 = d2;
        }
        if (uniform01(s) < sqrt(d1))
            return tries;
    }
}

/* Maxwellian velocities projected onto G v = 0 (Z lambda = G v by the
 * tridiagonal recurrence, v -= M^-1 G^T lambda), centre of mass at rest. */
static void canonical_velocities(uint64_t *s, double u[NB][3], double v[NP][3])
{
    for (int j = 0; j < NP; j++)
        for (int k = 0; k < 3; k++)
            v[j][k] = sqrt(KT) * gaussian(s);
    double rhs[NB], diag[NB], off[NB], lam[NB];
    for (int i = 0; i < NB; i++) {
        rhs[i] = 0;
        for (int k = 0; k < 3; k++)
            rhs[i] += u[i][k] * (v[i + 1][k] - v[i][k]);
        diag[i] = 2.0;
        off[i] = i + 1 < NB ? -(u[i][0] * u[i + 1][0] + u[i][1] * u[i + 1][1] +
                                u[i][2] * u[i + 1][2])
                            : 0.0;
    }
    /* Forward elimination and back substitution (Z is positive definite). */
    for (int i = 1; i < NB; i++) {
        double f = off[i - 1] / diag[i - 1];
        diag[i] -= f * off[i - 1];
        rhs[i] -= f * rhs[i - 1];
    }
    for (int i = NB - 1; i >= 0; i--)
        lam[i] = (rhs[i] - (i + 1 < NB ? off[i] * lam[i + 1] : 0.0)) / diag[i];
    for (int i = 0; i < NB; i++)
        for (int k = 0; k < 3; k++) {
            v[i + 1][k] -= lam[i] * u[i][k];
            v[i][k] += lam[i] * u[i][k];
        }
    for (int k = 0; k < 3; k++) {
        double m = 0;
        for (int j = 0; j < NP; j++)
            m += v[j][k];
        for (int j = 0; j < NP; j++)
            v[j][k] -= m / NP;
    }
}

typedef struct polymer {
    cdyn_system *sys;
    cdyn_particle p[NP];
} polymer;

static void make_polymer(polymer *pm, uint64_t *seed, int *tries)
{
    double u[NB][3], v[NP][3], x[3] = {0, 0, 0};
    int t = canonical_bonds(seed, u);
    if (tries)
        *tries = t;
    canonical_velocities(seed, u, v);
    assert_int_equal(cdyn_system_create(3, &pm->sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(pm->sys, CDYN_INTEGRATOR_RATTLE), CDYN_OK);
    cdyn_projection_options o;
    cdyn_projection_options_init(&o);
    o.position_tolerance = 1e-10;
    o.velocity_tolerance = 1e-10;
    assert_int_equal(cdyn_system_set_projection_options(pm->sys, &o), CDYN_OK);
    for (int j = 0; j < NP; j++) {
        if (j > 0)
            for (int k = 0; k < 3; k++)
                x[k] += BOND * u[j - 1][k];
        assert_int_equal(cdyn_particle_add(pm->sys, 1.0, x, v[j], &pm->p[j]), CDYN_OK);
        if (j > 0) {
            cdyn_constraint c;
            assert_int_equal(cdyn_constraint_add_distance(pm->sys, pm->p[j - 1], pm->p[j], BOND, &c),
                             CDYN_OK);
        }
    }
}

static double end_to_end2(const polymer *pm)
{
    double a[3], b[3], r2 = 0;
    cdyn_particle_get_position(pm->sys, pm->p[0], a);
    cdyn_particle_get_position(pm->sys, pm->p[NB], b);
    for (int k = 0; k < 3; k++)
        r2 += (b[k] - a[k]) * (b[k] - a[k]);
    return r2;
}

/* Largest relative bond-length error, from the positions. */
static double bond_error(const polymer *pm)
{
    double x[NP * 3], worst = 0;
    assert_int_equal(cdyn_system_get_positions(pm->sys, x, NP * 3), CDYN_OK);
    for (int i = 0; i < NB; i++) {
        double l2 = 0;
        for (int k = 0; k < 3; k++)
            l2 += (x[3 * i + 3 + k] - x[3 * i + k]) * (x[3 * i + 3 + k] - x[3 * i + k]);
        worst = fmax(worst, fabs(sqrt(l2) - BOND) / BOND);
    }
    return worst;
}

static void test_bonds_held(void **state)
{
    (void)state;
    uint64_t seed = 20240531;
    polymer pm;
    make_polymer(&pm, &seed, NULL);
    double k0;
    cdyn_system_get_kinetic_energy(pm.sys, &k0);
    double worst_p = 0, worst_v = 0, worst_b = 0, worst_e = 0;
    const long steps = 100000;
    for (long s = 1; s <= steps; s++) {
        if (cdyn_system_step(pm.sys, DT) != CDYN_OK)
            fail_msg("step %ld: %s", s, cdyn_system_last_error(pm.sys));
        double pr, vr;
        assert_int_equal(cdyn_system_compute_constraint_residuals(pm.sys, &pr, &vr), CDYN_OK);
        worst_p = fmax(worst_p, pr / BOND);
        worst_v = fmax(worst_v, vr);
        if (s % 1000 == 0) {
            double k;
            cdyn_system_get_kinetic_energy(pm.sys, &k);
            worst_e = fmax(worst_e, fabs(k - k0) / k0);
            worst_b = fmax(worst_b, bond_error(&pm));
        }
    }
    cdyn_projection_stats st = {.size = sizeof st};
    cdyn_system_get_projection_stats(pm.sys, &st);
    print_message("N = %d bonds, 10^5 steps of %g: worst bond residual %.2e b (bond lengths "
                  "from the positions %.2e), velocity residual %.2e, energy error %.2e; "
                  "%.2f position and %.2f velocity iterations per step\n",
                  NB, DT, worst_p, worst_b, worst_v, worst_e,
                  (double)st.position_iterations_total / (double)steps,
                  (double)st.velocity_iterations_total / (double)steps);
    assert_true(worst_p <= 1e-10 * (1 + 1e-6));
    assert_true(worst_b <= 1.1e-10);
    /* |G v| / b <= tol times the fastest bead of the row, itself at most a
     * few sqrt(kT / m). */
    assert_true(worst_v <= 1e-10 * 10);
    assert_true(worst_e < 1e-3);
    cdyn_system_destroy(pm.sys);
}

static void test_end_to_end_distance(void **state)
{
    (void)state;
    const int chains = 300, steps = 8000, every = 20;
    uint64_t seed = 42;
    double sum = 0, sum2 = 0, sum0 = 0;
    long tries = 0;
    for (int c = 0; c < chains; c++) {
        polymer pm;
        int t;
        make_polymer(&pm, &seed, &t);
        tries += t;
        sum0 += end_to_end2(&pm);
        double avg = 0;
        int n = 0;
        for (int s = 1; s <= steps; s++) {
            if (cdyn_system_step(pm.sys, DT) != CDYN_OK)
                fail_msg("chain %d, step %d: %s", c, s, cdyn_system_last_error(pm.sys));
            if (s % every == 0) {
                avg += end_to_end2(&pm);
                n++;
            }
        }
        avg /= n;
        sum += avg;
        sum2 += avg * avg;
        cdyn_system_destroy(pm.sys);
    }
    const double nb2 = NB * BOND * BOND;
    double mean = sum / chains, var = (sum2 - chains * mean * mean) / (chains - 1);
    double err = sqrt(var / chains);
    print_message("<R^2> / (N b^2) = %.4f +- %.4f (time average over t = %g of each of %d "
                  "chains; at t = 0 %.4f); rejection sampling took %.1f tries per chain\n",
                  mean / nb2, err / nb2, steps * DT, chains, sum0 / chains / nb2,
                  (double)tries / chains);
    /* Statistical power: the standard error must be small enough to mean
     * something, and the estimate within four standard errors of N b^2. */
    assert_true(err / nb2 < 0.04);
    assert_true(fabs(mean - nb2) <= 4 * err);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bonds_held),
        cmocka_unit_test(test_end_to_end_distance),
    };
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
