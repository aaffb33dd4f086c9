/* Pair potentials (pair.h): Hertz and WCA forces and energies against their
 * formulas, F = -dU/dr, continuity at the cutoff, Newton's third law in a
 * gas, an elastic and a damped Hertz collision, the cell list against a
 * brute-force search, explicit pair lists, particle removal, bad input, no
 * allocation in steps, determinism, and out of memory at every allocation. */
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

#define WCA_RC 1.122462048309373 /* 2^(1/6) */

static cdyn_system *make(int dim)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(dim, &sys), CDYN_OK);
    return sys;
}

static cdyn_particle add(cdyn_system *sys, double m, const double *x, const double *v)
{
    cdyn_particle p;
    assert_int_equal(cdyn_particle_add(sys, m, x, v, &p), CDYN_OK);
    return p;
}

static cdyn_pair_params hertz(double k, double radius, double damping)
{
    cdyn_pair_params pp;
    assert_int_equal(cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ), CDYN_OK);
    pp.stiffness = k;
    pp.radius = radius;
    pp.damping = damping;
    return pp;
}

static cdyn_pair_params wca(double epsilon, double sigma, double damping)
{
    cdyn_pair_params pp;
    assert_int_equal(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE), CDYN_OK);
    pp.epsilon = epsilon;
    pp.sigma = sigma;
    pp.damping = damping;
    return pp;
}

static void assert_rel(double got, double want, double tol)
{
    double scale = fabs(want) > 1e-300 ? fabs(want) : 1.0;
    if (!(fabs(got - want) <= tol * scale))
        fail_msg("got %.17g want %.17g (rel err %.3g > %.3g)", got, want,
                 fabs(got - want) / scale, tol);
}

/* Forces on every index (unit masses: acceleration = force). */
static void forces(cdyn_system *sys, double *f, size_t cap)
{
    assert_int_equal(cdyn_system_evaluate(sys, f, cap), CDYN_OK);
}

static double energy_of(const cdyn_system *sys, cdyn_force f)
{
    double e;
    assert_int_equal(cdyn_force_get_energy(sys, f, &e), CDYN_OK);
    return e;
}

static void test_params_init(void **state)
{
    (void)state;
    cdyn_pair_params pp;
    memset(&pp, 0xff, sizeof pp);
    assert_int_equal(cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ), CDYN_OK);
    assert_int_equal(pp.size, sizeof pp);
    assert_int_equal(pp.kind, CDYN_PAIR_HERTZ);
    assert_true(pp.stiffness == 1 && pp.radius == 0.5 && pp.epsilon == 1 && pp.sigma == 1 &&
                pp.damping == 0);
    assert_int_equal(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE), CDYN_OK);
    assert_int_equal(pp.kind, CDYN_PAIR_LJ_REPULSIVE);
    assert_int_equal(cdyn_pair_params_init(NULL, CDYN_PAIR_HERTZ), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_pair_params before = pp;
    assert_int_equal(cdyn_pair_params_init(&pp, (cdyn_pair_kind)0), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_pair_params_init(&pp, (cdyn_pair_kind)6), CDYN_ERR_INVALID_ARGUMENT);
    assert_memory_equal(&pp, &before, sizeof pp);
    assert_int_equal(CDYN_PAIR_HERTZ, 1);
    assert_int_equal(CDYN_PAIR_LJ_REPULSIVE, 2);
    assert_int_equal(CDYN_FORCE_PAIR, 5);
}

/* The formulas of pair.h for one pair at distance r: force F (> 0 apart)
 * and energy U. kind 1 Hertz (k, rc = R_a + R_b), 2 WCA (eps, sigma). */
typedef struct model {
    int kind;
    double k, rc, eps, sigma;
} model;

static void reference(const model *m, double r, double *F, double *U)
{
    *F = *U = 0;
    if (m->kind == 1) {
        double delta = m->rc - r;
        if (delta > 0) {
            *F = r > 0 ? m->k * pow(delta, 1.5) : 0;
            *U = 0.4 * m->k * pow(delta, 2.5);
        }
    } else if (r < WCA_RC * m->sigma) {
        double s6 = pow(m->sigma / r, 6);
        *F = 24 * m->eps / r * (2 * s6 * s6 - s6);
        *U = 4 * m->eps * (s6 * s6 - s6) + m->eps;
    }
}

/* Two unit-mass balls, b placed at xa + r n: the force on b is +F d / |d|
 * and on a its opposite (d = x_b - x_a as stored), the energy U. */
static void check_pair_at(cdyn_system *sys, cdyn_force f, cdyn_particle b, const double *xa,
                          const double *n, double r, const model *m)
{
    double xb[3], d[3], r2 = 0;
    for (int k = 0; k < 3; k++)
        xb[k] = xa[k] + r * n[k];
    assert_int_equal(cdyn_particle_set_position(sys, b, xb), CDYN_OK);
    for (int k = 0; k < 3; k++) {
        d[k] = xb[k] - xa[k];
        r2 += d[k] * d[k];
    }
    double ra = sqrt(r2), F, U;
    reference(m, ra, &F, &U);
    double acc[6];
    forces(sys, acc, 6);
    for (int k = 0; k < 3; k++) {
        double want = ra > 0 ? F * d[k] / ra : 0;
        assert_near(acc[3 + k], want, 1e-13 * fabs(F));
        assert_near(acc[k], -want, 1e-13 * fabs(F));
    }
    assert_rel(energy_of(sys, f), U, 1e-13);
    double pe;
    assert_int_equal(cdyn_system_get_potential_energy(sys, &pe), CDYN_OK);
    assert_rel(pe, U, 1e-13);
}

/* -dU/dr by central differences of the reported energy equals the force. */
static void check_force_is_gradient(cdyn_system *sys, cdyn_force f, cdyn_particle b,
                                    const double *xa, const double *n, double r)
{
    const double h = 1e-6 * r;
    double e[2], xb[3];
    for (int s = 0; s < 2; s++) {
        double rr = r + (s ? h : -h);
        for (int k = 0; k < 3; k++)
            xb[k] = xa[k] + rr * n[k];
        assert_int_equal(cdyn_particle_set_position(sys, b, xb), CDYN_OK);
        e[s] = energy_of(sys, f);
    }
    for (int k = 0; k < 3; k++)
        xb[k] = xa[k] + r * n[k];
    assert_int_equal(cdyn_particle_set_position(sys, b, xb), CDYN_OK);
    double acc[6], fr = 0;
    forces(sys, acc, 6);
    for (int k = 0; k < 3; k++)
        fr += acc[3 + k] * n[k];
    assert_rel(-(e[1] - e[0]) / (2 * h), fr, 1e-7);
}

static void test_hertz_two_balls(void **state)
{
    (void)state;
    cdyn_system *sys = make(3);
    const double xa[3] = {0.1, -0.2, 0.3}, n[3] = {1.0 / 3, 2.0 / 3, -2.0 / 3};
    const double k = 250.0, R = 0.5;
    cdyn_particle a = add(sys, 1, xa, NULL), b = add(sys, 1, xa, NULL);
    cdyn_pair_params pp = hertz(k, R, 0);
    cdyn_force f;
    assert_int_equal(cdyn_force_add_pairs(sys, &pp, (cdyn_particle[]){a, b}, 1, &f), CDYN_OK);
    cdyn_force_kind kind;
    assert_int_equal(cdyn_force_get_kind(sys, f, &kind), CDYN_OK);
    assert_int_equal(kind, CDYN_FORCE_PAIR);
    model m = {.kind = 1, .k = k, .rc = 2 * R};
    const double rs[] = {0.2, 0.6, 0.9, 0.99, 0.999999, 1.0 - 1e-12, 1.0 + 1e-12, 1.5};
    for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) {
        check_pair_at(sys, f, b, xa, n, rs[i], &m);
        if (rs[i] <= 0.99)
            check_force_is_gradient(sys, f, b, xa, n, rs[i]);
    }
    /* Apart: exactly no force, no energy. */
    double acc[6];
    forces(sys, acc, 6);
    for (int i = 0; i < 6; i++)
        assert_true(acc[i] == 0);
    assert_true(energy_of(sys, f) == 0);
    /* Per-ball radius: R_b = 0.7 moves the cutoff to 1.2. */
    assert_int_equal(cdyn_force_set_pair_radius(sys, f, b, 0.7), CDYN_OK);
    double rb;
    assert_int_equal(cdyn_force_get_pair_radius(sys, f, b, &rb), CDYN_OK);
    assert_true(rb == 0.7);
    assert_int_equal(cdyn_force_get_pair_radius(sys, f, a, &rb), CDYN_OK);
    assert_true(rb == R);
    m.rc = R + 0.7;
    check_pair_at(sys, f, b, xa, n, 1.1, &m);
    check_force_is_gradient(sys, f, b, xa, n, 1.1);
    /* Coincident centres: no direction, no force, finite energy. */
    check_pair_at(sys, f, b, xa, n, 0.0, &m);
    assert_rel(energy_of(sys, f), 0.4 * k * pow(1.2, 2.5), 1e-14);
    cdyn_system_destroy(sys);
}

static void test_wca_values_and_continuity(void **state)
{
    (void)state;
    cdyn_system *sys = make(3);
    const double xa[3] = {-1.0, 2.0, 0.5}, n[3] = {0.6, 0.0, 0.8};
    const double eps = 2.0, sigma = 0.8, rc = WCA_RC * sigma;
    cdyn_particle a = add(sys, 1, xa, NULL), b = add(sys, 1, xa, NULL);
    cdyn_pair_params pp = wca(eps, sigma, 0);
    cdyn_force f;
    assert_int_equal(cdyn_force_add_pairs(sys, &pp, (cdyn_particle[]){a, b}, 1, &f), CDYN_OK);
    model m = {.kind = 2, .eps = eps, .sigma = sigma};
    const double rs[] = {0.3, 0.7, 0.8, 0.85, 0.88};
    for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) {
        check_pair_at(sys, f, b, xa, n, rs[i], &m);
        check_force_is_gradient(sys, f, b, xa, n, rs[i]);
    }
    /* At the cutoff force and energy reach 0 continuously: just inside,
     * F ~ 72 eps eta / rc and U ~ 36 eps eta^2 for r = rc (1 - eta). */
    const double eta = 1e-6;
    double xb[3], acc[6];
    for (int k = 0; k < 3; k++)
        xb[k] = xa[k] + rc * (1 - eta) * n[k];
    cdyn_particle_set_position(sys, b, xb);
    forces(sys, acc, 6);
    double fr = acc[3] * n[0] + acc[4] * n[1] + acc[5] * n[2];
    assert_rel(fr, 72 * eps * eta / rc, 1e-4);
    assert_rel(energy_of(sys, f), 36 * eps * eta * eta, 1e-4);
    for (int k = 0; k < 3; k++)
        xb[k] = xa[k] + rc * (1 + eta) * n[k];
    cdyn_particle_set_position(sys, b, xb);
    forces(sys, acc, 6);
    for (int k = 0; k < 6; k++)
        assert_true(acc[k] == 0);
    assert_true(energy_of(sys, f) == 0);
    /* Radii are a Hertz notion. */
    assert_int_equal(cdyn_force_set_pair_radius(sys, f, a, 1.0), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_system_destroy(sys);
}

/* An isolated gas: pair forces cancel in pairs, so the total momentum (a
 * linear invariant, which RK4 keeps exactly) stays put to round-off. */
static void check_gas_momentum(int dim, cdyn_pair_params pp, double spacing, double jitter)
{
    cdyn_system *sys = make(dim);
    enum { N = 200 };
    cdyn_particle p[N];
    uint64_t rng = 12345u + (uint64_t)dim;
    int side = dim == 2 ? 15 : 6; /* 225 or 216 sites, 200 used */
    for (int i = 0; i < N; i++) {
        int ix = i % side, iy = (i / side) % side, iz = i / (side * side);
        double x[3] = {spacing * ix + jitter * ts_rand_sym(&rng),
                       spacing * iy + jitter * ts_rand_sym(&rng),
                       dim == 3 ? spacing * iz + jitter * ts_rand_sym(&rng) : 0};
        double v[3] = {ts_rand_sym(&rng), ts_rand_sym(&rng), dim == 3 ? ts_rand_sym(&rng) : 0};
        p[i] = add(sys, 1.0 + 0.5 * (ts_rand_sym(&rng) + 1), x, v);
    }
    cdyn_force f;
    assert_int_equal(cdyn_force_add_pair_set(sys, &pp, p, N, &f), CDYN_OK);
    size_t contacts;
    assert_int_equal(cdyn_force_get_pair_contacts(sys, f, NULL, 0, &contacts), CDYN_OK);
    assert_true(contacts > 20); /* the gas is dense enough to interact */
    double p0[3], p1[3], scale = 0;
    assert_int_equal(cdyn_system_get_momentum(sys, p0), CDYN_OK);
    cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4);
    for (int s = 0; s < 400; s++)
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    assert_int_equal(cdyn_system_get_momentum(sys, p1), CDYN_OK);
    double vel[3 * N], m;
    assert_int_equal(cdyn_system_get_velocities(sys, vel, 3 * N), CDYN_OK);
    for (int i = 0; i < N; i++) {
        cdyn_particle_get_mass(sys, p[i], &m);
        for (int k = 0; k < dim; k++)
            scale += m * fabs(vel[i * dim + k]);
    }
    double dp = 0;
    for (int k = 0; k < dim; k++)
        dp = fmax(dp, fabs(p1[k] - p0[k]));
    print_message("gas %d-D (%s): %zu contacts at start, max |dP_k| = %.3g "
                  "(sum m|v| = %.3g)\n", dim, pp.kind == CDYN_PAIR_HERTZ ? "Hertz" : "WCA",
                  contacts, dp, scale);
    assert_true(dp <= 1e-13 * scale);
    cdyn_system_destroy(sys);
}

static void test_gas_conserves_momentum(void **state)
{
    (void)state;
    check_gas_momentum(3, hertz(1e3, 0.5, 0), 0.95, 0.05);
    check_gas_momentum(2, hertz(1e3, 0.5, 0.2), 0.95, 0.05);
    check_gas_momentum(2, wca(1.0, 1.0, 0), 1.05, 0.05);
    check_gas_momentum(3, wca(1.0, 1.0, 0.1), 1.05, 0.05);
}

typedef struct collision {
    double va, vb;       /* velocities after the collision */
    double max_energy_err; /* max |E(t) - E(0)| / E(0) over the run */
    double final_energy_err;
} collision;

/* Ball a (at rest distance 0.1 away) hits ball b at rest head-on with
 * speed v; equal unit masses, radius 0.5, Hertz k, damping alpha. */
static collision collide(double k, double alpha, double v, double dt)
{
    cdyn_system *sys = make(3);
    cdyn_particle a = add(sys, 1, (double[]){0, 0, 0}, (double[]){v, 0, 0});
    cdyn_particle b = add(sys, 1, (double[]){1.1, 0, 0}, NULL);
    cdyn_pair_params pp = hertz(k, 0.5, alpha);
    cdyn_force f;
    assert_int_equal(cdyn_force_add_pair_set(sys, &pp, (cdyn_particle[]){a, b}, 2, &f), CDYN_OK);
    cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4);
    double e0 = 0.5 * v * v, worst = 0, ke, pe;
    long steps = lround(0.4 / dt); /* contact lasts ~0.07 s from t = 0.1 / v */
    for (long s = 0; s < steps; s++) {
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        cdyn_system_get_kinetic_energy(sys, &ke);
        cdyn_system_get_potential_energy(sys, &pe);
        worst = fmax(worst, fabs(ke + pe - e0) / e0);
    }
    collision c = {.max_energy_err = worst, .final_energy_err = fabs(ke + pe - e0) / e0};
    double w[3];
    cdyn_particle_get_velocity(sys, a, w);
    c.va = w[0];
    assert_near(w[1], 0, 1e-15);
    cdyn_particle_get_velocity(sys, b, w);
    c.vb = w[0];
    size_t n;
    assert_int_equal(cdyn_force_get_pair_contacts(sys, f, NULL, 0, &n), CDYN_OK);
    assert_int_equal(n, 0); /* apart again */
    cdyn_system_destroy(sys);
    return c;
}

static void test_hertz_collision(void **state)
{
    (void)state;
    const double v = 1.0;
    collision c = collide(1e4, 0, v, 1e-4);
    double e = (c.vb - c.va) / v;
    print_message("elastic: va' = %.3g, vb' = %.12f, restitution %.12f, energy error max "
                  "%.3g final %.3g\n", c.va, c.vb, e, c.max_energy_err, c.final_energy_err);
    assert_near(c.va, 0, 1e-6);
    assert_near(c.vb, v, 1e-6);
    assert_near(e, 1, 1e-6);
    assert_true(c.max_energy_err < 1e-6);
    /* Hunt-Crossley damping: e ~ 1 - alpha v for small alpha v; momentum
     * is still exchanged exactly. */
    const double alphas[] = {0.02, 0.1, 0.3};
    for (size_t i = 0; i < 3; i++) {
        c = collide(1e4, alphas[i], v, 1e-4);
        e = (c.vb - c.va) / v;
        print_message("alpha %.2f s/m: restitution %.6f (1 - alpha v = %.2f), energy lost "
                      "%.4f\n", alphas[i], e, 1 - alphas[i] * v, c.final_energy_err);
        assert_true(e < 1 - 0.5 * alphas[i] * v);
        assert_true(e > 1 - 1.5 * alphas[i] * v);
        assert_near(c.va + c.vb, v, 1e-12);
        /* KE lost: (1 - e^2) / 2 of the initial m v^2 / 2. */
        assert_rel(c.final_energy_err, (1 - e * e) / 2, 1e-6);
    }
}

/* Brute force: every pair within the cutoff, as sorted (i < j) index pairs. */
static int cmp_pair(const void *pa, const void *pb)
{
    const size_t *a = pa, *b = pb;
    if (a[0] != b[0])
        return a[0] < b[0] ? -1 : 1;
    return a[1] < b[1] ? -1 : a[1] > b[1];
}

static void check_set_against_brute_force(int dim, int hertz_kind, uint64_t seed)
{
    enum { N = 400 };
    cdyn_system *sys = make(dim);
    static double x[N][3], rad[N];
    static cdyn_particle p[N];
    uint64_t rng = seed;
    const size_t d = (size_t)dim;
    for (int i = 0; i < N; i++) {
        double c[3] = {0, 0, 0}, spread = 4.0;
        int group = i % 8;
        if (group == 5) { /* a cluster far away, in negative coordinates */
            c[0] = -3.0e7;
            c[1] = 1.0e6;
            c[2] = -2.5e5;
            spread = 2.0;
        } else if (group == 6) { /* beyond 2^40 cells: clamped coordinates */
            c[0] = 5.0e12;
            c[1] = -7.0e12;
            c[2] = 3.0e12;
            spread = 2.0;
        } else if (group == 7 && i % 16 == 7) { /* isolated, very far */
            c[0] = (i % 32 == 7 ? 1 : -1) * 1e15 * (1 + i);
            c[1] = -1e14 * i;
            c[2] = 1e13;
            spread = 1.0;
        }
        for (size_t k = 0; k < d; k++)
            x[i][k] = c[k] + spread * ts_rand_sym(&rng);
        rad[i] = 0.3 + 0.25 * (ts_rand_sym(&rng) + 1); /* 0.3 .. 0.8 */
        p[i] = add(sys, 1, x[i], NULL);
    }
    cdyn_pair_params pp = hertz_kind ? hertz(50, 0.5, 0) : wca(1.0, 0.9, 0);
    cdyn_force f;
    assert_int_equal(cdyn_force_add_pair_set(sys, &pp, p, N, &f), CDYN_OK);
    if (hertz_kind)
        for (int i = 0; i < N; i++)
            assert_int_equal(cdyn_force_set_pair_radius(sys, f, p[i], rad[i]), CDYN_OK);

    static size_t want[N * N][2], got[N * N][2];
    static cdyn_particle out[2 * N * N];
    size_t n_want = 0;
    double e_want = 0;
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++) {
            double r2 = 0;
            for (size_t k = 0; k < d; k++)
                r2 += (x[j][k] - x[i][k]) * (x[j][k] - x[i][k]);
            double rc = hertz_kind ? rad[i] + rad[j] : WCA_RC * 0.9;
            if (!(r2 < rc * rc))
                continue;
            want[n_want][0] = (size_t)i;
            want[n_want][1] = (size_t)j;
            n_want++;
            double r = sqrt(r2);
            if (hertz_kind) {
                e_want += 0.4 * 50 * pow(rc - r, 2.5);
            } else {
                double s6 = pow(0.9 / r, 6);
                e_want += 4 * (s6 * s6 - s6) + 1;
            }
        }
    size_t n_got = 0;
    assert_int_equal(cdyn_force_get_pair_contacts(sys, f, out, N * N, &n_got), CDYN_OK);
    assert_int_equal(n_got, n_want);
    assert_true(n_want > N / 4);
    for (size_t c = 0; c < n_got; c++) {
        size_t ia, ib;
        assert_int_equal(cdyn_particle_get_index(sys, out[2 * c], &ia), CDYN_OK);
        assert_int_equal(cdyn_particle_get_index(sys, out[2 * c + 1], &ib), CDYN_OK);
        got[c][0] = ia < ib ? ia : ib;
        got[c][1] = ia < ib ? ib : ia;
    }
    qsort(got, n_got, sizeof got[0], cmp_pair);
    qsort(want, n_want, sizeof want[0], cmp_pair);
    assert_memory_equal(got, want, n_got * sizeof got[0]);
    assert_rel(energy_of(sys, f), e_want, 1e-11);

    /* The same forces from an explicit list of every pair (O(n^2)). */
    static double acc_set[3 * N], acc_list[3 * N];
    forces(sys, acc_set, 3 * N);
    static cdyn_particle all[N * (N - 1)];
    size_t m = 0;
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++) {
            all[m++] = p[i];
            all[m++] = p[j];
        }
    cdyn_force g;
    assert_int_equal(cdyn_force_add_pairs(sys, &pp, all, m / 2, &g), CDYN_OK);
    if (hertz_kind)
        for (int i = 0; i < N; i++)
            assert_int_equal(cdyn_force_set_pair_radius(sys, g, p[i], rad[i]), CDYN_OK);
    assert_int_equal(cdyn_force_remove(sys, f), CDYN_OK);
    forces(sys, acc_list, 3 * N);
    double fmax_ = 0;
    for (size_t i = 0; i < N * d; i++)
        fmax_ = fmax(fmax_, fabs(acc_list[i]));
    for (size_t i = 0; i < N * d; i++)
        assert_near(acc_set[i], acc_list[i], 1e-12 * fmax_);
    assert_rel(energy_of(sys, g), e_want, 1e-11);
    print_message("%d-D %s seed %llu: %zu pairs within the cutoff, found by both\n", dim,
                  hertz_kind ? "Hertz" : "WCA", (unsigned long long)seed, n_got);
    cdyn_system_destroy(sys);
}

static void test_cell_list_matches_brute_force(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++)
        for (int dim = 2; dim <= 3; dim++)
            for (int h = 0; h <= 1; h++)
                check_set_against_brute_force(dim, h, seed * 7919u);
}

/* A particle sitting exactly on cell boundaries and lattices of touching
 * balls (many distances equal to the cutoff up to round-off). */
static void test_cell_list_lattice(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        cdyn_system *sys = make(dim);
        enum { S = 7 };
        cdyn_particle p[S * S * S];
        size_t n = 0;
        const double a = 0.999; /* spacing just under 2 R: every neighbour overlaps */
        for (int i = 0; i < S; i++)
            for (int j = 0; j < S; j++)
                for (int k = 0; k < (dim == 3 ? S : 1); k++)
                    p[n++] = add(sys, 1, (double[]){a * (i - 3), a * (j - 3), a * (k - 3)},
                                 NULL);
        cdyn_pair_params pp = hertz(1, 0.5, 0);
        cdyn_force f;
        assert_int_equal(cdyn_force_add_pair_set(sys, &pp, p, n, &f), CDYN_OK);
        size_t c;
        assert_int_equal(cdyn_force_get_pair_contacts(sys, f, NULL, 0, &c), CDYN_OK);
        size_t want = dim == 2 ? 2 * S * (S - 1) : 3 * S * S * (S - 1);
        assert_int_equal(c, want);
        cdyn_system_destroy(sys);
    }
}

static void test_explicit_pair_list(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    /* Three overlapping balls in a row; only (a, b) is listed. */
    cdyn_particle a = add(sys, 1, (double[]){0, 0}, NULL);
    cdyn_particle b = add(sys, 1, (double[]){0.9, 0}, NULL);
    cdyn_particle c = add(sys, 1, (double[]){1.8, 0}, NULL);
    cdyn_pair_params pp = hertz(100, 0.5, 0);
    cdyn_force f;
    assert_int_equal(cdyn_force_add_pairs(sys, &pp, (cdyn_particle[]){a, b}, 1, &f), CDYN_OK);
    double acc[6], F = 100 * pow(0.1, 1.5);
    forces(sys, acc, 6);
    assert_rel(acc[0], -F, 1e-14);
    assert_rel(acc[2], F, 1e-14);
    assert_true(acc[4] == 0 && acc[5] == 0);
    cdyn_particle out[4];
    size_t n;
    assert_int_equal(cdyn_force_get_pair_contacts(sys, f, out, 2, &n), CDYN_OK);
    assert_int_equal(n, 1);
    assert_true(out[0] == a && out[1] == b);
    /* Listed twice: acts twice. Both pairs of a cradle of three. */
    cdyn_force g;
    assert_int_equal(cdyn_force_add_pairs(sys, &pp, (cdyn_particle[]){b, a, b, c, c, b}, 3, &g),
                     CDYN_OK);
    forces(sys, acc, 6);
    assert_rel(acc[0], -2 * F, 1e-14);
    assert_rel(acc[2], 2 * F - 2 * F, 1e-14);
    assert_rel(acc[4], 2 * F, 1e-14);
    assert_rel(energy_of(sys, g), 3 * 0.4 * 100 * pow(0.1, 2.5), 1e-14);
    double pe;
    assert_int_equal(cdyn_system_get_potential_energy(sys, &pe), CDYN_OK);
    assert_rel(pe, 4 * 0.4 * 100 * pow(0.1, 2.5), 1e-14);
    /* The count comes back even when the capacity is short. */
    assert_int_equal(cdyn_force_get_pair_contacts(sys, g, out, 1, &n), CDYN_OK);
    assert_int_equal(n, 3);
    assert_true(out[0] == b && out[1] == a);
    cdyn_system_destroy(sys);
}

static void test_remove_particle(void **state)
{
    (void)state;
    ts_counting_alloc ca;
    memset(&ca, 0, sizeof ca);
    cdyn_allocator al = ts_counting_allocator(&ca);
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create_with_allocator(2, &al, &sys), CDYN_OK);
    cdyn_particle p[4];
    for (int i = 0; i < 4; i++)
        p[i] = add(sys, 1, (double[]){0.9 * i, 0}, NULL);
    cdyn_pair_params pp = hertz(100, 0.5, 0);
    cdyn_force set, list;
    assert_int_equal(cdyn_force_add_pair_set(sys, &pp, p, 4, &set), CDYN_OK);
    assert_int_equal(cdyn_force_add_pairs(sys, &pp, (cdyn_particle[]){p[0], p[1], p[1], p[2],
                                                                      p[2], p[3]}, 3, &list),
                     CDYN_OK);
    const double u1 = 0.4 * 100 * pow(0.1, 2.5);
    assert_rel(energy_of(sys, set), 3 * u1, 1e-14);
    assert_int_equal(cdyn_force_set_pair_radius(sys, set, p[3], 0.6), CDYN_OK);
    /* Removing p[1]: the set forgets it, the list drops (0,1) and (1,2). */
    assert_int_equal(cdyn_particle_remove(sys, p[1]), CDYN_OK);
    assert_true(cdyn_force_is_valid(sys, set) && cdyn_force_is_valid(sys, list));
    assert_rel(energy_of(sys, set), 0.4 * 100 * pow(0.2, 2.5), 1e-14); /* (2,3), R_3 = 0.6 */
    assert_rel(energy_of(sys, list), u1, 1e-14);
    double r;
    assert_int_equal(cdyn_force_get_pair_radius(sys, set, p[1], &r), CDYN_ERR_STALE_HANDLE);
    assert_int_equal(cdyn_force_get_pair_radius(sys, set, p[3], &r), CDYN_OK);
    assert_true(r == 0.6);
    /* A new particle on the freed slot, overlapping p[0], is in neither. */
    cdyn_particle q = add(sys, 1, (double[]){0.5, 0}, NULL);
    size_t iq, n;
    assert_int_equal(cdyn_particle_get_index(sys, q, &iq), CDYN_OK);
    assert_int_equal(iq, 1);
    assert_rel(energy_of(sys, set), 0.4 * 100 * pow(0.2, 2.5), 1e-14);
    assert_int_equal(cdyn_force_get_pair_contacts(sys, set, NULL, 0, &n), CDYN_OK);
    assert_int_equal(n, 1);
    assert_int_equal(cdyn_force_set_pair_radius(sys, set, q, 1.0), CDYN_ERR_INVALID_ARGUMENT);
    /* The list loses its last pair and stays, exerting nothing. */
    assert_int_equal(cdyn_particle_remove(sys, p[3]), CDYN_OK);
    assert_true(energy_of(sys, list) == 0);
    assert_int_equal(cdyn_force_get_pair_contacts(sys, list, NULL, 0, &n), CDYN_OK);
    assert_int_equal(n, 0);
    assert_int_equal(cdyn_particle_remove(sys, p[2]), CDYN_OK);
    assert_int_equal(cdyn_particle_remove(sys, p[0]), CDYN_OK);
    assert_true(energy_of(sys, list) == 0 && energy_of(sys, set) == 0);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    /* Removing the generators gives their memory back. */
    assert_int_equal(cdyn_force_remove(sys, set), CDYN_OK);
    assert_int_equal(cdyn_force_remove(sys, list), CDYN_OK);
    assert_false(cdyn_force_is_valid(sys, set));
    assert_int_equal(cdyn_force_get_pair_contacts(sys, set, NULL, 0, &n), CDYN_ERR_STALE_HANDLE);
    cdyn_system_destroy(sys);
    assert_int_equal(ca.live_bytes, 0);
}

/* Bad input gets its status and changes nothing. */
static void test_bad_input(void **state)
{
    (void)state;
    ts_counting_alloc ca;
    memset(&ca, 0, sizeof ca);
    cdyn_allocator al = ts_counting_allocator(&ca);
    cdyn_system *sys, *other;
    assert_int_equal(cdyn_system_create_with_allocator(3, &al, &sys), CDYN_OK);
    other = make(3);
    cdyn_particle a = add(sys, 1, (double[]){0, 0, 0}, NULL);
    cdyn_particle b = add(sys, 1, (double[]){0.9, 0, 0}, NULL);
    cdyn_particle dead = add(sys, 1, (double[]){5, 0, 0}, NULL);
    assert_int_equal(cdyn_particle_remove(sys, dead), CDYN_OK);
    cdyn_particle foreign = add(other, 1, (double[]){0, 0, 0}, NULL);
    cdyn_force spring, ok;
    assert_int_equal(cdyn_force_add_spring(sys, a, b, 1, 0, 1, &spring), CDYN_OK);
    cdyn_pair_params good = hertz(10, 0.5, 0);
    assert_int_equal(cdyn_force_add_pairs(sys, &good, (cdyn_particle[]){a, b}, 1, &ok), CDYN_OK);
    double pe0;
    cdyn_system_get_potential_energy(sys, &pe0);
    const size_t live0 = ca.live_bytes;
    const double nan = NAN, inf = INFINITY;

    typedef struct bad {
        cdyn_pair_params pp;
        cdyn_status want;
    } bad;
    bad cases[16];
    int nc = 0;
    cases[nc] = (bad){hertz(nan, 0.5, 0), CDYN_ERR_INVALID_ARGUMENT}, nc++;
    cases[nc] = (bad){hertz(-1, 0.5, 0), CDYN_ERR_INVALID_ARGUMENT}, nc++;
    cases[nc] = (bad){hertz(inf, 0.5, 0), CDYN_ERR_INVALID_ARGUMENT}, nc++;
    cases[nc] = (bad){hertz(1, 0, 0), CDYN_ERR_INVALID_ARGUMENT}, nc++;
    cases[nc] = (bad){hertz(1, -0.5, 0), CDYN_ERR_INVALID_ARGUMENT}, nc++;
    cases[nc] = (bad){hertz(1, nan, 0), CDYN_ERR_INVALID_ARGUMENT}, nc++;
    cases[nc] = (bad){hertz(1, 0.5, -1), CDYN_ERR_INVALID_ARGUMENT}, nc++;
    cases[nc] = (bad){hertz(1, 0.5, nan), CDYN_ERR_INVALID_ARGUMENT}, nc++;
    cases[nc] = (bad){wca(1, 0, 0), CDYN_ERR_INVALID_ARGUMENT}, nc++;
    cases[nc] = (bad){wca(1, -1, 0), CDYN_ERR_INVALID_ARGUMENT}, nc++;
    cases[nc] = (bad){wca(-1, 1, 0), CDYN_ERR_INVALID_ARGUMENT}, nc++;
    cases[nc] = (bad){wca(nan, 1, 0), CDYN_ERR_INVALID_ARGUMENT}, nc++;
    cases[nc] = (bad){wca(1, inf, 0), CDYN_ERR_INVALID_ARGUMENT}, nc++;
    cases[nc] = (bad){good, CDYN_ERR_INVALID_ARGUMENT}, cases[nc].pp.size--, nc++;
    cases[nc] = (bad){good, CDYN_ERR_INVALID_ARGUMENT}, cases[nc].pp.kind = (cdyn_pair_kind)7,
    nc++;
    cases[nc] = (bad){good, CDYN_ERR_INVALID_ARGUMENT}, cases[nc].pp.size = 0, nc++;
    cdyn_force f = 77;
    for (int i = 0; i < nc; i++) {
        assert_int_equal(cdyn_force_add_pairs(sys, &cases[i].pp, (cdyn_particle[]){a, b}, 1, &f),
                         cases[i].want);
        assert_true(strncmp(cdyn_system_last_error(sys), "force_add_pairs:", 16) == 0);
        assert_int_equal(cdyn_force_add_pair_set(sys, &cases[i].pp, (cdyn_particle[]){a, b}, 2,
                                                 &f), cases[i].want);
        assert_true(strncmp(cdyn_system_last_error(sys), "force_add_pair_set:", 19) == 0);
    }
    /* Irrelevant fields are ignored: a NaN sigma does not spoil a Hertz. */
    cdyn_pair_params loose = hertz(10, 0.5, 0);
    loose.sigma = nan;
    loose.epsilon = -3;
    cdyn_force h;
    assert_int_equal(cdyn_force_add_pairs(sys, &loose, (cdyn_particle[]){a, b}, 1, &h), CDYN_OK);
    assert_int_equal(cdyn_force_remove(sys, h), CDYN_OK);
    /* Handles and counts. */
    cdyn_particle l[4] = {a, b, a, a};
    assert_int_equal(cdyn_force_add_pairs(sys, &good, l + 2, 1, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pairs(sys, &good, l, 2, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pair_set(sys, &good, l, 3, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pair_set(sys, &good, (cdyn_particle[]){b, a, b}, 3, &f),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pairs(sys, &good, (cdyn_particle[]){a, dead}, 1, &f),
                     CDYN_ERR_STALE_HANDLE);
    assert_int_equal(cdyn_force_add_pair_set(sys, &good, (cdyn_particle[]){a, b, dead}, 3, &f),
                     CDYN_ERR_STALE_HANDLE);
    assert_int_equal(cdyn_force_add_pairs(sys, &good, (cdyn_particle[]){foreign, a}, 1, &f),
                     CDYN_ERR_INVALID_HANDLE);
    assert_int_equal(cdyn_force_add_pairs(sys, &good, (cdyn_particle[]){a, 0}, 1, &f),
                     CDYN_ERR_INVALID_HANDLE);
    assert_int_equal(cdyn_force_add_pair_set(sys, &good, (cdyn_particle[]){a, spring}, 2, &f),
                     CDYN_ERR_INVALID_HANDLE);
    assert_int_equal(cdyn_force_add_pairs(sys, &good, l, 0, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pair_set(sys, &good, l, 0, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pairs(sys, &good, l, SIZE_MAX / 2, &f),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pair_set(sys, &good, l, SIZE_MAX, &f),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pairs(sys, NULL, l, 1, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pairs(sys, &good, NULL, 1, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pairs(sys, &good, l, 1, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pair_set(sys, NULL, l, 2, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pair_set(sys, &good, NULL, 2, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pair_set(sys, &good, l, 2, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pairs(NULL, &good, l, 1, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pair_set(NULL, &good, l, 2, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_true(f == 77);
    /* Radius and contact queries. */
    double r = 42;
    size_t n = 42;
    cdyn_particle out[2];
    assert_int_equal(cdyn_force_set_pair_radius(sys, ok, a, 0), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_set_pair_radius(sys, ok, a, nan), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_set_pair_radius(sys, ok, a, -inf), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_set_pair_radius(sys, ok, a, inf), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_set_pair_radius(sys, ok, dead, 1), CDYN_ERR_STALE_HANDLE);
    assert_int_equal(cdyn_force_set_pair_radius(sys, spring, a, 1), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_set_pair_radius(sys, a, a, 1), CDYN_ERR_INVALID_HANDLE);
    assert_int_equal(cdyn_force_set_pair_radius(sys, 0, a, 1), CDYN_ERR_INVALID_HANDLE);
    assert_int_equal(cdyn_force_set_pair_radius(NULL, ok, a, 1), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_get_pair_radius(sys, ok, a, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_get_pair_radius(sys, spring, a, &r), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_get_pair_radius(NULL, ok, a, &r), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_get_pair_contacts(sys, ok, NULL, 1, &n), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_get_pair_contacts(sys, ok, out, 1, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_get_pair_contacts(sys, spring, out, 1, &n),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_get_pair_contacts(NULL, ok, out, 1, &n), CDYN_ERR_INVALID_ARGUMENT);
    assert_true(r == 42 && n == 42);
    assert_int_equal(cdyn_force_get_pair_radius(sys, ok, a, &r), CDYN_OK);
    assert_true(r == 0.5);

    double pe1;
    cdyn_system_get_potential_energy(sys, &pe1);
    assert_true(pe0 == pe1);
    assert_int_equal(ca.live_bytes, live0);
    cdyn_system_destroy(other);
    cdyn_system_destroy(sys);
    assert_int_equal(ca.live_bytes, 0);
}

/* A callback that tries to add a pair generator during a step gets BUSY. */
static int meddle(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                  const double *v, double *f, void *user)
{
    (void)t, (void)n, (void)dim, (void)x, (void)v, (void)f;
    cdyn_status *st = user;
    cdyn_pair_params pp;
    cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ);
    cdyn_particle p[2] = {0, 0};
    cdyn_force g;
    cdyn_system *mut = (cdyn_system *)(uintptr_t)sys; /* a misbehaving callback */
    st[0] = cdyn_force_add_pair_set(mut, &pp, p, 2, &g);
    st[1] = cdyn_force_set_pair_radius(mut, 1, 1, 1.0);
    return 0;
}

static void test_busy_inside_step(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    add(sys, 1, (double[]){0, 0}, NULL);
    cdyn_status st[2] = {CDYN_OK, CDYN_OK};
    cdyn_force f;
    assert_int_equal(cdyn_force_add_callback(sys, meddle, st, false, &f), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    assert_int_equal(st[0], CDYN_ERR_BUSY);
    assert_int_equal(st[1], CDYN_ERR_BUSY);
    cdyn_system_destroy(sys);
}

/* A damped Hertz gas in 3-D with a pair set and a pair list. */
static cdyn_system *build_gas(const cdyn_allocator *al, int n, cdyn_force *set)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create_with_allocator(3, al, &sys), CDYN_OK);
    cdyn_particle p[64];
    uint64_t rng = 99;
    for (int i = 0; i < n; i++) {
        double x[3] = {0.9 * (i % 4) + 0.05 * ts_rand_sym(&rng),
                       0.9 * ((i / 4) % 4) + 0.05 * ts_rand_sym(&rng),
                       0.9 * (i / 16) + 0.05 * ts_rand_sym(&rng)};
        double v[3] = {ts_rand_sym(&rng), ts_rand_sym(&rng), ts_rand_sym(&rng)};
        p[i] = add(sys, 1, x, v);
    }
    cdyn_pair_params pp = hertz(1e3, 0.5, 0.05);
    assert_int_equal(cdyn_force_add_pair_set(sys, &pp, p, (size_t)n, set), CDYN_OK);
    cdyn_pair_params pw = wca(0.5, 0.95, 0.0);
    cdyn_force list;
    assert_int_equal(cdyn_force_add_pairs(sys, &pw, p, (size_t)n / 2, &list), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4), CDYN_OK);
    return sys;
}

static void test_no_allocation_in_steps_and_determinism(void **state)
{
    (void)state;
    ts_counting_alloc ca;
    memset(&ca, 0, sizeof ca);
    cdyn_allocator al = ts_counting_allocator(&ca);
    cdyn_force set;
    cdyn_system *s1 = build_gas(&al, 48, &set);
    assert_int_equal(cdyn_system_step(s1, 1e-3), CDYN_OK); /* sizes the workspace */
    size_t allocs = ca.allocs;
    for (int s = 0; s < 200; s++)
        assert_int_equal(cdyn_system_step(s1, 1e-3), CDYN_OK);
    double e;
    size_t n;
    assert_int_equal(cdyn_system_get_potential_energy(s1, &e), CDYN_OK);
    assert_int_equal(cdyn_force_get_pair_contacts(s1, set, NULL, 0, &n), CDYN_OK);
    assert_int_equal(ca.allocs, allocs);
    /* A second system at other addresses, built after unrelated
     * allocations, ends bit for bit in the same state. */
    void *junk = malloc(12345);
    cdyn_force set2;
    cdyn_system *s2 = build_gas(NULL, 48, &set2);
    for (int s = 0; s < 201; s++)
        assert_int_equal(cdyn_system_step(s2, 1e-3), CDYN_OK);
    double x1[3 * 48], x2[3 * 48], v1[3 * 48], v2[3 * 48];
    cdyn_system_get_positions(s1, x1, 3 * 48);
    cdyn_system_get_positions(s2, x2, 3 * 48);
    cdyn_system_get_velocities(s1, v1, 3 * 48);
    cdyn_system_get_velocities(s2, v2, 3 * 48);
    assert_memory_equal(x1, x2, sizeof x1);
    assert_memory_equal(v1, v2, sizeof v1);
    free(junk);
    cdyn_system_destroy(s1);
    cdyn_system_destroy(s2);
    assert_int_equal(ca.live_bytes, 0);
}

/* Out of memory: the scenario below runs once to count allocations, then
 * once for every N with the Nth allocation failing. The failing call returns
 * CDYN_ERR_NO_MEMORY and changes nothing visible; the retry succeeds; the
 * run ends bit for bit as the unfailed one; nothing leaks. */
#define OOM_P 24

typedef struct oom_run {
    cdyn_system *sys;
    cdyn_particle p[OOM_P];
    cdyn_force f[8];
    int nf;
} oom_run;

typedef struct oom_view {
    double x[3 * OOM_P], v[3 * OOM_P], pe;
    size_t count, contacts[8];
    bool valid[8];
} oom_view;

static void oom_look(const oom_run *r, oom_view *w)
{
    memset(w, 0, sizeof *w);
    size_t idx;
    assert_int_equal(cdyn_system_get_index_count(r->sys, &idx), CDYN_OK);
    assert_int_equal(cdyn_system_get_positions(r->sys, w->x, 3 * OOM_P), CDYN_OK);
    assert_int_equal(cdyn_system_get_velocities(r->sys, w->v, 3 * OOM_P), CDYN_OK);
    assert_int_equal(cdyn_system_get_potential_energy(r->sys, &w->pe), CDYN_OK);
    assert_int_equal(cdyn_system_get_particle_count(r->sys, &w->count), CDYN_OK);
    for (int i = 0; i < r->nf; i++) {
        w->valid[i] = cdyn_force_is_valid(r->sys, r->f[i]);
        if (w->valid[i])
            assert_int_equal(cdyn_force_get_pair_contacts(r->sys, r->f[i], NULL, 0,
                                                          &w->contacts[i]), CDYN_OK);
    }
}

/* Op k of the scenario; returns its status. */
static cdyn_status oom_op(oom_run *r, int k, int dim, const cdyn_allocator *al, bool *done)
{
    *done = false;
    switch (k) {
    case 0:
        return cdyn_system_create_with_allocator(dim, al, &r->sys);
    case 1: {
        cdyn_status st = CDYN_OK;
        for (int i = 0; i < 20 && !st; i++)
            if (!r->p[i])
                st = cdyn_particle_add(r->sys, 1.0, (double[]){0.9 * (i % 5), 0.9 * (i / 5), 0.1 * (i % 3)},
                                       (double[]){0.1 * (i % 3), -0.2 * (i % 2), 0.05}, &r->p[i]);
        return st;
    }
    case 2: {
        cdyn_pair_params pp = hertz(500, 0.5, 0.1);
        cdyn_status st = cdyn_force_add_pair_set(r->sys, &pp, r->p, 16, &r->f[r->nf]);
        if (!st)
            r->nf++;
        return st;
    }
    case 3: {
        cdyn_pair_params pp = wca(1, 0.95, 0);
        cdyn_status st = cdyn_force_add_pairs(r->sys, &pp, r->p + 10, 5, &r->f[r->nf]);
        if (!st)
            r->nf++;
        return st;
    }
    case 4:
        return cdyn_force_set_pair_radius(r->sys, r->f[0], r->p[3], 0.55);
    case 5:
        cdyn_system_set_integrator(r->sys, CDYN_INTEGRATOR_RK4);
        return cdyn_system_step(r->sys, 1e-3);
    case 6:
        return cdyn_particle_remove(r->sys, r->p[12]);
    case 7:
        return cdyn_system_step(r->sys, 1e-3);
    case 8: {
        cdyn_pair_params pp = hertz(300, 0.45, 0);
        cdyn_particle q[4] = {r->p[0], r->p[1], r->p[5], r->p[6]};
        cdyn_status st = cdyn_force_add_pair_set(r->sys, &pp, q, 4, &r->f[r->nf]);
        if (!st)
            r->nf++;
        return st;
    }
    case 9:
        return cdyn_force_remove(r->sys, r->f[0]);
    case 10:
        cdyn_system_set_integrator(r->sys, CDYN_INTEGRATOR_RK45);
        return cdyn_system_step(r->sys, 1e-3);
    default:
        *done = true;
        return CDYN_OK;
    }
}

static void oom_scenario(int dim, size_t fail_at, size_t *allocs, oom_view *final)
{
    ts_counting_alloc ca;
    memset(&ca, 0, sizeof ca);
    ca.fail_at = fail_at;
    cdyn_allocator al = ts_counting_allocator(&ca);
    static oom_run r;
    memset(&r, 0, sizeof r);
    static oom_view before, after;
    bool done = false;
    for (int k = 0; !done; k++) {
        if (r.sys)
            oom_look(&r, &before);
        int failed_before = ca.failed;
        cdyn_status st = oom_op(&r, k, dim, &al, &done);
        bool met = ca.failed && !failed_before;
        if (met || st == CDYN_ERR_NO_MEMORY) {
            if (!met || st != CDYN_ERR_NO_MEMORY)
                fail_msg("dim %d fail_at %zu op %d: %s, met failure %d", dim, fail_at, k,
                         cdyn_status_name(st), (int)met);
            if (r.sys) {
                /* Op 1 adds particles one by one: those added before the
                 * failure stay (each call is its own). */
                if (k != 1) {
                    oom_look(&r, &after);
                    assert_memory_equal(&before, &after, sizeof before);
                }
            } else {
                assert_int_equal(ca.live_bytes, 0);
            }
            ca.fail_at = 0;
            st = oom_op(&r, k, dim, &al, &done);
        }
        if (st)
            fail_msg("dim %d fail_at %zu op %d: %s (%s)", dim, fail_at, k, cdyn_status_name(st),
                     cdyn_system_last_error(r.sys));
    }
    oom_look(&r, final);
    *allocs = ca.allocs;
    cdyn_system_destroy(r.sys);
    assert_int_equal(ca.live_bytes, 0);
    assert_int_equal(ca.allocs, ca.frees + (size_t)ca.failed);
}

static void test_oom_every_allocation(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        static oom_view ref, run;
        size_t total, n;
        oom_scenario(dim, 0, &total, &ref);
        assert_true(total > 20);
        for (size_t k = 1; k <= total + 1; k++) {
            oom_scenario(dim, k, &n, &run);
            assert_memory_equal(&ref, &run, sizeof ref);
        }
        print_message("%d-D: %zu allocations, each failed once\n", dim, total);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params_init),
        cmocka_unit_test(test_hertz_two_balls),
        cmocka_unit_test(test_wca_values_and_continuity),
        cmocka_unit_test(test_gas_conserves_momentum),
        cmocka_unit_test(test_hertz_collision),
        cmocka_unit_test(test_cell_list_matches_brute_force),
        cmocka_unit_test(test_cell_list_lattice),
        cmocka_unit_test(test_explicit_pair_list),
        cmocka_unit_test(test_remove_particle),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_busy_inside_step),
        cmocka_unit_test(test_no_allocation_in_steps_and_determinism),
        cmocka_unit_test(test_oom_every_allocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
