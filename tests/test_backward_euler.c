/* Backward Euler: Newton's method on the implicit step.
 *
 *  - a stiff spring network (k dt^2 / m = 100) stays bounded where forward
 *    (explicit and symplectic) Euler diverge, with <= 5 Newton iterations
 *    per step at the default tolerance;
 *  - order 1 on a nonlinear spring pendulum against an RK45 reference;
 *  - quadratic convergence: the residual sequence of a strongly nonlinear
 *    step on an undamped network (each residual about the square of the
 *    previous), and still with dashpots (the skew correction);
 *  - constraints (KKT system): a pendulum and the standard chain keep their
 *    rod lengths to round-off; energy decays at the rate h g / L predicted
 *    for backward Euler, halving with dt; constraint forces are reported;
 *  - callback forces with a user Jacobian (same trajectory as the built-in
 *    spring), without (finite differences), and a bad block;
 *  - ground contact: a particle settles at penetration m g / S;
 *  - pair potentials (list and set) and drag;
 *  - a Newton matrix that is not positive definite (compressed stiff
 *    springs, huge dt) is regularized and reported;
 *  - bad input, non-convergence and failures change nothing; unsupported
 *    configurations; no allocation per step once the shape is set; every
 *    allocation failure of the first step is refused cleanly.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define BE CDYN_INTEGRATOR_BACKWARD_EULER

static double energy(const cdyn_system *sys)
{
    double k, p;
    assert_int_equal(cdyn_system_get_kinetic_energy(sys, &k), CDYN_OK);
    assert_int_equal(cdyn_system_get_potential_energy(sys, &p), CDYN_OK);
    return k + p;
}

static cdyn_newton_stats stats(const cdyn_system *sys)
{
    cdyn_newton_stats s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    assert_int_equal(cdyn_system_get_newton_stats(sys, &s), CDYN_OK);
    return s;
}

/* Residual history of the last step into r (capacity 64); returns its length. */
static size_t residuals(const cdyn_system *sys, double *r)
{
    size_t n;
    assert_int_equal(cdyn_system_get_newton_residuals(sys, r, 64, &n), CDYN_OK);
    assert_true(n <= 64);
    return n;
}

static void print_residuals(const char *what, const double *r, size_t n)
{
    char buf[512];
    int len = snprintf(buf, sizeof buf, "%s:", what);
    for (size_t k = 0; k < n && len > 0 && (size_t)len < sizeof buf; k++)
        len += snprintf(buf + len, sizeof buf - (size_t)len, " %.2e", r[k]);
    print_message("%s\n", buf);
}

/* Sets rigid rotation omega about (cx, cy) as the velocities of every particle. */
static void spin(cdyn_system *sys, double omega, double cx, double cy)
{
    size_t n;
    assert_int_equal(cdyn_system_get_index_count(sys, &n), CDYN_OK);
    int d = cdyn_system_get_dimension(sys);
    double x[512], v[512];
    assert_true(n * (size_t)d <= 512);
    assert_int_equal(cdyn_system_get_positions(sys, x, 512), CDYN_OK);
    memset(v, 0, sizeof v);
    for (size_t i = 0; i < n; i++) {
        v[i * (size_t)d] = -omega * (x[i * (size_t)d + 1] - cy);
        v[i * (size_t)d + 1] = omega * (x[i * (size_t)d] - cx);
    }
    assert_int_equal(cdyn_system_set_velocities(sys, v, n * (size_t)d), CDYN_OK);
}

/* ------------------------------------------------------------------ */
/* Stiff network                                                       */

/* 8 x 8 unit masses, spacing 0.1, springs k = 1e6 along edges and
 * diagonals, positions perturbed by 10% of the spacing, dt = 0.01:
 * k dt^2 / m = 100. */
static cdyn_system *stiff_network(cdyn_integrator integ)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_true(ts_make_network(sys, 8, 8, 0.1, 1e6, 0.0, 0.1, 7, NULL) > 0);
    assert_int_equal(cdyn_system_set_integrator(sys, integ), CDYN_OK);
    return sys;
}

static void test_stiff_network(void **state)
{
    (void)state;
    const double dt = 0.01;
    /* Forward Euler, both variants: blows up within a few steps. */
    const cdyn_integrator fwd[2] = {CDYN_INTEGRATOR_EXPLICIT_EULER,
                                    CDYN_INTEGRATOR_SYMPLECTIC_EULER};
    for (int m = 0; m < 2; m++) {
        cdyn_system *sys = stiff_network(fwd[m]);
        double e0 = energy(sys);
        int diverged = 0;
        for (int i = 1; i <= 200 && !diverged; i++) {
            cdyn_status st = cdyn_system_step(sys, dt);
            if (st == CDYN_ERR_DIVERGED || (st == CDYN_OK && !(energy(sys) < 1e6 * e0)))
                diverged = i;
            else
                assert_int_equal(st, CDYN_OK);
        }
        print_message("%s Euler: energy above 1e6 x E0 = %.4g J at step %d\n",
                      m ? "symplectic" : "explicit", e0, diverged);
        assert_true(diverged > 0 && diverged <= 10);
        cdyn_system_destroy(sys);
    }
    /* Backward Euler: energy never above its start, <= 5 Newton iterations. */
    cdyn_system *sys = stiff_network(BE);
    cdyn_newton_options no = {.size = sizeof no};
    assert_int_equal(cdyn_system_get_newton_options(sys, &no), CDYN_OK);
    assert_true(no.tolerance == 1e-10 && no.max_iterations == 20);
    double e0 = energy(sys), emax = 0, r[64];
    size_t worst = 0, sum = 0, first_sum = 0;
    for (int i = 1; i <= 500; i++) {
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        double e = energy(sys);
        emax = e > emax ? e : emax;
        cdyn_newton_stats s = stats(sys);
        worst = s.iterations > worst ? s.iterations : worst;
        sum += s.iterations;
        if (i <= 20)
            first_sum += s.iterations;
        if (i <= 3) {
            size_t n = residuals(sys, r);
            assert_int_equal(n, s.iterations + 1);
            char what[32];
            snprintf(what, sizeof what, "stiff network step %d", i);
            print_residuals(what, r, n);
        }
    }
    cdyn_newton_stats s = stats(sys);
    print_message("backward Euler: E0 = %.4g J, max E over 500 steps %.4g J, final %.3g J; "
                  "Newton iterations per step: max %zu, mean %.2f over the first 20 steps, "
                  "%.2f over all (0 once at rest); regularized %llu, line-search cuts %llu\n",
                  e0, emax, energy(sys), worst, (double)first_sum / 20.0, (double)sum / 500.0,
                  (unsigned long long)s.regularized, (unsigned long long)s.line_search_cuts);
    assert_true(emax <= e0);
    assert_true(energy(sys) < 1e-6 * e0); /* dissipated to rest */
    assert_true(worst <= 5);
    assert_true(s.steps == 500 && s.failed_steps == 0 && s.total_iterations == sum);
    assert_int_equal(s.unknowns, 128);
    cdyn_system_destroy(sys);
}

/* ------------------------------------------------------------------ */
/* Order                                                               */

/* A mass on a soft spring from a fixed point, swinging in gravity (a
 * nonlinear elastic pendulum), t = 0 .. 1. */
static cdyn_system *elastic_pendulum(cdyn_integrator integ)
{
    cdyn_system *sys;
    cdyn_particle a, b;
    cdyn_force f;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0, 0}, NULL, &a), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 0.5, (double[]){0.8, -0.3}, (double[]){0, 0.5}, &b),
                     CDYN_OK);
    assert_int_equal(cdyn_particle_set_fixed(sys, a, true), CDYN_OK);
    assert_int_equal(cdyn_force_add_spring(sys, a, b, 40.0, 0.0, 0.7, &f), CDYN_OK);
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &f), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, integ), CDYN_OK);
    return sys;
}

static void run_to(cdyn_system *sys, double t_end, double dt)
{
    int n = (int)lround(t_end / dt);
    for (int i = 0; i < n; i++)
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
}

static void test_order(void **state)
{
    (void)state;
    double ref[4], x[4], h[4], err[4];
    cdyn_system *sys = elastic_pendulum(CDYN_INTEGRATOR_RK45);
    assert_int_equal(ts_set_rk45_tolerance(sys, 1e-13, 1e-13), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1.0), CDYN_OK);
    assert_int_equal(cdyn_system_get_positions(sys, ref, 4), CDYN_OK);
    cdyn_system_destroy(sys);
    for (int k = 0; k < 4; k++) {
        h[k] = 0.01 / (double)(1 << k);
        sys = elastic_pendulum(BE);
        run_to(sys, 1.0, h[k]);
        assert_int_equal(cdyn_system_get_positions(sys, x, 4), CDYN_OK);
        err[k] = hypot(x[2] - ref[2], x[3] - ref[3]);
        cdyn_system_destroy(sys);
    }
    double order = ts_fit_order(h, err, 4);
    print_message("order: position errors at t = 1 for dt = 0.01 / 2^k: %.3e %.3e %.3e %.3e; "
                  "fitted order %.3f\n", err[0], err[1], err[2], err[3], order);
    assert_true(order > 0.9 && order < 1.1);
}

/* ------------------------------------------------------------------ */
/* Quadratic convergence                                               */

/* Checks that every residual above the round-off level is at most
 * c times the square of the previous one, and that the last is below
 * the tolerance. Returns the largest ratio r[k+1] / r[k]^2. */
static double quadratic_ratio(const double *r, size_t n, double above)
{
    double worst = 0;
    for (size_t k = 0; k + 1 < n; k++) {
        if (r[k + 1] < above)
            break;
        double q = r[k + 1] / (r[k] * r[k]);
        worst = q > worst ? q : worst;
    }
    return worst;
}

/* A 5 x 5 network spinning at 60 rad/s, steps of 0.02 s: each step turns
 * the network by 1.2 rad, far from linear. */
static cdyn_system *spinning_network(double damping)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_true(ts_make_network(sys, 5, 5, 0.1, 1e4, damping, 0.2, 11, NULL) > 0);
    spin(sys, 60.0, 0.2, 0.2);
    assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
    return sys;
}

static void test_quadratic_convergence(void **state)
{
    (void)state;
    double r[64];
    for (int damped = 0; damped < 2; damped++) {
        cdyn_system *sys = spinning_network(damped ? 100.0 : 0.0);
        /* A tight tolerance shows the sequence down to round-off. */
        assert_int_equal(ts_set_newton(sys, 1e-15, 50), CDYN_OK);
        double worst = 0;
        size_t longest = 0;
        for (int i = 1; i <= 5; i++) {
            assert_int_equal(cdyn_system_step(sys, 0.02), CDYN_OK);
            size_t n = residuals(sys, r);
            if (i <= 2) {
                char what[48];
                snprintf(what, sizeof what, "%s network, step %d", damped ? "damped" : "undamped",
                         i);
                print_residuals(what, r, n);
            }
            double q = quadratic_ratio(r, n, 1e-13);
            worst = q > worst ? q : worst;
            longest = n > longest ? n : longest;
        }
        cdyn_newton_stats s = stats(sys);
        print_message("%s: max r[k+1] / r[k]^2 = %.3g (residuals above 1e-13), at most %zu "
                      "iterations; inexact solves %llu\n", damped ? "dashpots (skew correction)"
                      : "springs only (exact Jacobian)", worst, longest - 1,
                      (unsigned long long)s.inexact_solves);
        assert_true(worst < 20.0);
        assert_true(longest - 1 <= 7);
        assert_true(s.inexact_solves == 0);
        cdyn_system_destroy(sys);
    }
}

/* ------------------------------------------------------------------ */
/* Constraints                                                         */

/* Pendulum of length L: a rod from a fixed pivot, released at angle theta0. */
static cdyn_system *rod_pendulum(double length, double theta0, cdyn_constraint *rod,
                                 cdyn_particle *bob_out)
{
    cdyn_system *sys;
    cdyn_particle piv, bob;
    cdyn_force g;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0, 0}, NULL, &piv), CDYN_OK);
    assert_int_equal(cdyn_particle_set_fixed(sys, piv, true), CDYN_OK);
    double p[2] = {length * sin(theta0), -length * cos(theta0)};
    assert_int_equal(cdyn_particle_add(sys, 2.0, p, NULL, &bob), CDYN_OK);
    assert_int_equal(cdyn_constraint_add_distance(sys, piv, bob, length, rod), CDYN_OK);
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
    *bob_out = bob;
    return sys;
}

static void test_pendulum(void **state)
{
    (void)state;
    /* Backward Euler multiplies a linear oscillator's energy by
     * 1 / (1 + (h w)^2) per step: E(t) = E0 exp(-h w^2 t) for small h w,
     * w^2 = g / L. Energy above the rest state after 2 s, small swing. */
    const double L = 1.0, theta0 = 0.1, T = 2.0, g = 9.81;
    double loss[3], pred[3];
    for (int k = 0; k < 3; k++) {
        double dt = 0.004 / (double)(1 << k);
        cdyn_constraint rod;
        cdyn_particle bob;
        cdyn_system *sys = rod_pendulum(L, theta0, &rod, &bob);
        double rest = -2.0 * g * L, e0 = energy(sys) - rest, prev = e0, len_err = 0;
        size_t worst = 0;
        int n = (int)lround(T / dt);
        for (int i = 0; i < n; i++) {
            assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
            double x[4], e = energy(sys) - rest;
            assert_int_equal(cdyn_system_get_positions(sys, x, 4), CDYN_OK);
            double err = fabs(hypot(x[2], x[3]) - L);
            len_err = err > len_err ? err : len_err;
            assert_true(e <= prev * (1 + 1e-12)); /* dissipative: never gains energy */
            prev = e;
            cdyn_newton_stats s = stats(sys);
            worst = s.iterations > worst ? s.iterations : worst;
        }
        loss[k] = 1.0 - prev / e0;
        pred[k] = 1.0 - exp(-dt * g / L * T);
        print_message("pendulum L = 1, dt = %.4g: rod length error max %.2e, energy lost in "
                      "2 s %.4f (predicted 1 - exp(-h g T / L) = %.4f), <= %zu iterations\n",
                      dt, len_err, loss[k], pred[k], worst);
        assert_true(len_err < 1e-12);
        assert_true(fabs(loss[k] - pred[k]) < 0.05 * pred[k]);
        assert_true(worst <= 4);
        /* The constraint force holds the bob: about m g at the bottom of a
         * small swing plus the centripetal part; it points to the pivot. */
        double f[2];
        assert_int_equal(cdyn_constraint_get_force(sys, rod, bob, f), CDYN_OK);
        double x[4];
        assert_int_equal(cdyn_system_get_positions(sys, x, 4), CDYN_OK);
        double radial = (f[0] * x[2] + f[1] * x[3]) / L;
        assert_true(radial < -0.95 * 2.0 * g && radial > -1.1 * 2.0 * g);
        cdyn_system_destroy(sys);
    }
    assert_true(loss[0] / loss[1] > 1.8 && loss[0] / loss[1] < 2.1);
    assert_true(loss[1] / loss[2] > 1.9 && loss[1] / loss[2] < 2.1);
}

/* The standard chain, N links. */
static cdyn_system *chain(int n_links, cdyn_particle *p)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(ts_standard_chain(sys, n_links, p, NULL), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
    return sys;
}

static double chain_length_error(const cdyn_system *sys, int n_links)
{
    double x[2 * 101], worst = 0;
    assert_int_equal(cdyn_system_get_positions(sys, x, 2 * 101), CDYN_OK);
    for (int i = 1; i <= n_links; i++) {
        double e = fabs(hypot(x[2 * i] - x[2 * i - 2], x[2 * i + 1] - x[2 * i - 1]) - 0.1);
        worst = e > worst ? e : worst;
    }
    return worst;
}

static void test_chain(void **state)
{
    (void)state;
    const int N = 100;
    cdyn_particle p[101];
    double lost[2];
    for (int k = 0; k < 2; k++) {
        double dt = k ? 5e-4 : 1e-3;
        cdyn_system *sys = chain(N, p);
        double e0 = energy(sys), len_err = 0, prev = e0;
        size_t worst = 0, sum = 0;
        int n = (int)lround(1.0 / dt);
        for (int i = 0; i < n; i++) {
            assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
            double e = chain_length_error(sys, N), en = energy(sys);
            len_err = e > len_err ? e : len_err;
            assert_true(en <= prev + 1e-9);
            prev = en;
            cdyn_newton_stats s = stats(sys);
            worst = s.iterations > worst ? s.iterations : worst;
            sum += s.iterations;
        }
        cdyn_newton_stats s = stats(sys);
        /* Energy lost relative to a reference: the potential drop of the
         * chain's centre of mass, which an exact solution turns into
         * kinetic energy; here E0 - E. */
        lost[k] = e0 - energy(sys);
        print_message("standard chain, 100 links, dt = %.1e, 1 s: rod length error max %.2e; "
                      "energy lost %.4f J; Newton iterations max %zu, mean %.2f; %zu unknowns, "
                      "factor %zu nonzeros\n", dt, len_err, lost[k], worst, (double)sum / n,
                      s.unknowns, s.factor_nonzeros);
        assert_true(len_err < 1e-12);
        assert_true(worst <= 5);
        assert_true(s.factor_nonzeros < 10 * s.unknowns); /* no dense fill */
        cdyn_system_destroy(sys);
    }
    assert_true(lost[1] < 0.75 * lost[0]);
}

/* Three rods in a closed triangle plus a fourth, duplicate rod: the
 * duplicate row is redundant and consistent, dropped without harm. */
static void test_redundant_rods(void **state)
{
    (void)state;
    cdyn_system *sys;
    cdyn_particle p[3];
    cdyn_constraint c;
    cdyn_force g;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    const double pos[3][2] = {{0, 0}, {1, 0}, {0.5, 0.8}};
    for (int i = 0; i < 3; i++)
        assert_int_equal(cdyn_particle_add(sys, 1.0, pos[i], (double[]){0.3 * i, -0.2}, &p[i]),
                         CDYN_OK);
    assert_int_equal(cdyn_particle_set_fixed(sys, p[0], true), CDYN_OK);
    for (int i = 0; i < 3; i++) {
        double d = hypot(pos[(i + 1) % 3][0] - pos[i][0], pos[(i + 1) % 3][1] - pos[i][1]);
        assert_int_equal(cdyn_constraint_add_distance(sys, p[i], p[(i + 1) % 3], d, &c), CDYN_OK);
    }
    assert_int_equal(cdyn_constraint_add_distance(sys, p[1], p[2], hypot(0.5, 0.8), &c), CDYN_OK);
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
    for (int i = 0; i < 100; i++)
        assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    cdyn_newton_stats s = stats(sys);
    assert_true(s.redundant_rows >= 1);
    double x[6];
    assert_int_equal(cdyn_system_get_positions(sys, x, 6), CDYN_OK);
    assert_near(hypot(x[4] - x[2], x[5] - x[3]), hypot(0.5, 0.8), 1e-12);
    cdyn_system_destroy(sys);
}

/* ------------------------------------------------------------------ */
/* Callback forces                                                     */

typedef struct user_spring {
    size_t a, b;
    double k, rest;
    unsigned long calls, jac_calls;
} user_spring;

/* The built-in spring's force, as a callback. */
static int spring_fn(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                     const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)n, (void)v;
    user_spring *s = user;
    s->calls++;
    size_t d = (size_t)dim;
    double dx[3], l2 = 0;
    for (size_t q = 0; q < d; q++) {
        dx[q] = x[s->b * d + q] - x[s->a * d + q];
        l2 += dx[q] * dx[q];
    }
    double l = sqrt(l2), t_over_l = s->k * (l - s->rest) / l;
    for (size_t q = 0; q < d; q++) {
        f[s->a * d + q] += t_over_l * dx[q];
        f[s->b * d + q] -= t_over_l * dx[q];
    }
    return 0;
}

static int spring_jac(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                      const double *v, cdyn_jacobian *jac, void *user)
{
    (void)sys, (void)t, (void)n, (void)v;
    user_spring *s = user;
    s->jac_calls++;
    size_t d = (size_t)dim;
    double dx[3], l2 = 0, k[9], mk[9];
    for (size_t q = 0; q < d; q++) {
        dx[q] = x[s->b * d + q] - x[s->a * d + q];
        l2 += dx[q] * dx[q];
    }
    double l = sqrt(l2), tl = s->k * (l - s->rest) / l;
    /* K = dF_a/dx_b = k n n^T + (T / l)(I - n n^T). */
    for (size_t r = 0; r < d; r++)
        for (size_t c = 0; c < d; c++) {
            double nn = dx[r] * dx[c] / l2;
            k[r * d + c] = s->k * nn + tl * ((r == c) - nn);
            mk[r * d + c] = -k[r * d + c];
        }
    if (cdyn_jacobian_add_block(jac, s->a, s->a, mk, NULL) ||
        cdyn_jacobian_add_block(jac, s->a, s->b, k, NULL) ||
        cdyn_jacobian_add_block(jac, s->b, s->a, k, NULL) ||
        cdyn_jacobian_add_block(jac, s->b, s->b, mk, NULL))
        return 1;
    return 0;
}

/* Two free masses and a fixed one; spring fixed-a built in, spring a-b
 * built in (mode 0), a callback with Jacobian (1) or without (2): a force
 * that couples two particles, which finite differences of the diagonal
 * blocks alone would miss. */
static cdyn_system *two_springs(int mode, user_spring *us)
{
    cdyn_system *sys;
    cdyn_particle p[3];
    cdyn_force f;
    assert_int_equal(cdyn_system_create(3, &sys), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0, 0, 0}, NULL, &p[0]), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){1.2, 0.1, 0}, (double[]){0, 2, 1},
                                       &p[1]), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 2.0, (double[]){1.9, 0.9, 0.3},
                                       (double[]){-1, 0, 0.5}, &p[2]), CDYN_OK);
    assert_int_equal(cdyn_particle_set_fixed(sys, p[0], true), CDYN_OK);
    assert_int_equal(cdyn_force_add_spring(sys, p[0], p[1], 500.0, 0.0, 1.0, &f), CDYN_OK);
    memset(us, 0, sizeof *us);
    us->a = 1;
    us->b = 2;
    us->k = 800.0;
    us->rest = 1.0;
    if (mode == 0)
        assert_int_equal(cdyn_force_add_spring(sys, p[1], p[2], us->k, 0.0, us->rest, &f),
                         CDYN_OK);
    else if (mode == 1)
        assert_int_equal(cdyn_force_add_callback_with_jacobian(sys, spring_fn, spring_jac, us,
                                                               false, &f), CDYN_OK);
    else
        assert_int_equal(cdyn_force_add_callback(sys, spring_fn, us, false, &f), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
    return sys;
}

static void test_callback_jacobian(void **state)
{
    (void)state;
    double x[3][9];
    uint64_t iters[3];
    user_spring us[3];
    size_t most[3] = {0, 0, 0};
    for (int mode = 0; mode < 3; mode++) {
        cdyn_system *sys = two_springs(mode, &us[mode]);
        for (int i = 0; i < 50; i++) {
            assert_int_equal(cdyn_system_step(sys, 0.05), CDYN_OK);
            cdyn_newton_stats s = stats(sys);
            most[mode] = s.iterations > most[mode] ? s.iterations : most[mode];
        }
        assert_int_equal(cdyn_system_get_positions(sys, x[mode], 9), CDYN_OK);
        iters[mode] = stats(sys).total_iterations;
        cdyn_system_destroy(sys);
    }
    double d1 = 0, d2 = 0;
    for (int q = 0; q < 9; q++) {
        d1 = fmax(d1, fabs(x[1][q] - x[0][q]));
        d2 = fmax(d2, fabs(x[2][q] - x[0][q]));
    }
    print_message("callback spring, 50 steps of 0.05 s: Newton iterations (total, most per "
                  "step) built-in %llu, %zu; callback with Jacobian %llu, %zu (%lu Jacobian "
                  "calls); without (finite differences: diagonal blocks in the factor, "
                  "directional derivatives in GMRES) %llu, %zu (%lu force calls); max position "
                  "difference to the built-in %.2e and %.2e\n",
                  (unsigned long long)iters[0], most[0], (unsigned long long)iters[1], most[1],
                  us[1].jac_calls, (unsigned long long)iters[2], most[2], us[2].calls, d1, d2);
    assert_true(iters[1] == iters[0]);
    assert_true(d1 < 1e-9);
    assert_true(us[1].jac_calls > 0);
    /* Without its Jacobian the coupling reaches Newton through GMRES's
     * finite-difference products: about as many iterations, same answer. */
    assert_true(iters[2] <= iters[0] + iters[0] / 10);
    assert_true(most[2] <= most[0] + 1);
    assert_true(d2 < 1e-7);
}

/* A force on each particle from its own state only (an anchored spring per
 * particle plus quadratic air drag): the finite-difference diagonal blocks
 * are the whole Jacobian, so Newton stays quadratic. */
static int local_fn(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                    const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)user;
    size_t d = (size_t)dim;
    for (size_t i = 0; i < n; i++) {
        double sp = 0;
        for (size_t q = 0; q < d; q++)
            sp += v[i * d + q] * v[i * d + q];
        sp = sqrt(sp);
        for (size_t q = 0; q < d; q++)
            f[i * d + q] += -300.0 * x[i * d + q] * (1.0 + x[i * d + q] * x[i * d + q]) -
                            2.0 * sp * v[i * d + q];
    }
    return 0;
}

static void test_callback_finite_differences(void **state)
{
    (void)state;
    cdyn_system *sys;
    cdyn_force f;
    cdyn_particle p;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0.5 + 0.2 * i, -0.4 * i},
                                           (double[]){3.0 - i, 1.0 + i}, &p), CDYN_OK);
    assert_int_equal(cdyn_force_add_callback(sys, local_fn, NULL, true, &f), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
    double r[64], worst = 0;
    size_t most = 0;
    for (int i = 1; i <= 20; i++) {
        assert_int_equal(cdyn_system_step(sys, 0.05), CDYN_OK);
        size_t n = residuals(sys, r);
        if (i == 1)
            print_residuals("callback, finite-difference Jacobian, step 1", r, n);
        double q = quadratic_ratio(r, n, 1e-9);
        worst = q > worst ? q : worst;
        most = n - 1 > most ? n - 1 : most;
    }
    assert_true(most <= 6);
    assert_true(worst < 100.0);
    cdyn_system_destroy(sys);
}

static int bad_block_jac(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                         const double *v, cdyn_jacobian *jac, void *user)
{
    (void)sys, (void)t, (void)dim, (void)x, (void)v, (void)user;
    double b[4] = {1, 0, 0, NAN};
    (void)cdyn_jacobian_add_block(jac, n, 0, b, NULL); /* index out of range, ignored status */
    return 0;
}

static int failing_jac(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                       const double *v, cdyn_jacobian *jac, void *user)
{
    (void)sys, (void)t, (void)n, (void)dim, (void)x, (void)v, (void)jac, (void)user;
    return 7;
}

static int zero_fn(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                   const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)n, (void)dim, (void)x, (void)v, (void)f, (void)user;
    return 0;
}

static int nan_block_jac(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                         const double *v, cdyn_jacobian *jac, void *user)
{
    (void)sys, (void)t, (void)n, (void)dim, (void)x, (void)v, (void)user;
    double b[4] = {1, 0, 0, NAN};
    cdyn_status st = cdyn_jacobian_add_block(jac, 0, 0, NULL, b);
    return st == CDYN_ERR_INVALID_ARGUMENT ? 0 : 1;
}

static void test_callback_errors(void **state)
{
    (void)state;
    cdyn_force_jacobian_fn bad[3] = {bad_block_jac, failing_jac, nan_block_jac};
    for (int k = 0; k < 3; k++) {
        cdyn_system *sys;
        cdyn_particle p;
        cdyn_force f;
        assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
        assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0, 1}, (double[]){1, 0}, &p),
                         CDYN_OK);
        assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &f), CDYN_OK);
        assert_int_equal(cdyn_force_add_callback_with_jacobian(sys, zero_fn, bad[k], NULL, false,
                                                               &f), CDYN_OK);
        assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
        double x0[2], x1[2], t;
        assert_int_equal(cdyn_system_get_positions(sys, x0, 2), CDYN_OK);
        assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_ERR_CALLBACK);
        assert_non_null(strstr(cdyn_system_last_error(sys), "Jacobian"));
        assert_int_equal(cdyn_system_get_positions(sys, x1, 2), CDYN_OK);
        assert_memory_equal(x0, x1, sizeof x0);
        assert_int_equal(cdyn_system_get_time(sys, &t), CDYN_OK);
        assert_true(t == 0.0);
        cdyn_system_destroy(sys);
    }
}

/* ------------------------------------------------------------------ */
/* Ground, pairs, drag                                                 */

static void test_ground_rest(void **state)
{
    (void)state;
    const double m = 2.0, g = 9.81, S = 5e4;
    cdyn_system *sys;
    cdyn_particle p;
    cdyn_force f;
    cdyn_ground gr;
    assert_int_equal(cdyn_system_create(3, &sys), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, m, (double[]){0.3, 0.2, 0.05},
                                       (double[]){0.5, 0, -1.0}, &p), CDYN_OK);
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, 0, -g}, &f), CDYN_OK);
    assert_int_equal(cdyn_ground_add_plane(sys, (double[]){0, 0, 1}, 0.0, &gr), CDYN_OK);
    assert_int_equal(cdyn_ground_set_stiffness(sys, gr, S), CDYN_OK);
    assert_int_equal(cdyn_ground_set_friction(sys, gr, 0.5), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
    size_t worst = 0;
    for (int i = 0; i < 2000; i++) {
        assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
        cdyn_newton_stats s = stats(sys);
        worst = s.iterations > worst ? s.iterations : worst;
    }
    double x[3], v[3];
    assert_int_equal(cdyn_system_get_positions(sys, x, 3), CDYN_OK);
    assert_int_equal(cdyn_system_get_velocities(sys, v, 3), CDYN_OK);
    print_message("ground: resting penetration %.12g m, m g / S = %.12g m (S dt^2 / m = %g); "
                  "speed %.2e m/s; at most %zu Newton iterations per step\n", -x[2], m * g / S,
                  S * 1e-4 / m, hypot(hypot(v[0], v[1]), v[2]), worst);
    assert_near(-x[2], m * g / S, 1e-9 * m * g / S);
    assert_true(worst <= 12); /* the impact step: the contact force has a kink at H = 0 */
    cdyn_system_destroy(sys);
}

static void test_pairs_and_drag(void **state)
{
    (void)state;
    /* A row of Hertz balls (pair list) hit by a fast one, and a pile in a
     * pair set falling on a ground; drag on everything. */
    cdyn_system *sys;
    cdyn_particle p[12];
    cdyn_force f;
    cdyn_ground gr;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0.2 * i, 2.0},
                                           (double[]){i ? 0.0 : 3.0, 0}, &p[i]), CDYN_OK);
    for (int i = 4; i < 12; i++) /* two rows, converging sideways */
        assert_int_equal(cdyn_particle_add(sys, 1.0,
                                           (double[]){0.2 * (i % 4), 0.1 + 0.2 * (i / 8)},
                                           (double[]){i % 2 ? -1.0 : 1.0, 0}, &p[i]), CDYN_OK);
    cdyn_pair_params pp;
    assert_int_equal(cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ), CDYN_OK);
    pp.radius = 0.1;
    pp.stiffness = 1e5;
    pp.damping = 0.1;
    cdyn_particle list[6] = {p[0], p[1], p[1], p[2], p[2], p[3]};
    assert_int_equal(cdyn_force_add_pairs(sys, &pp, list, 3, &f), CDYN_OK);
    pp.radius = 0.07;
    assert_int_equal(cdyn_force_add_pair_set(sys, &pp, p + 4, 8, &f), CDYN_OK);
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &f), CDYN_OK);
    assert_int_equal(cdyn_force_add_drag(sys, 0.05, &f), CDYN_OK);
    assert_int_equal(cdyn_ground_add_plane(sys, (double[]){0, 1}, 0.0, &gr), CDYN_OK);
    assert_int_equal(cdyn_ground_set_stiffness(sys, gr, 1e5), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
    double e0 = energy(sys);
    size_t worst = 0;
    for (int i = 0; i < 400; i++) {
        assert_int_equal(cdyn_system_step(sys, 0.005), CDYN_OK);
        cdyn_newton_stats s = stats(sys);
        worst = s.iterations > worst ? s.iterations : worst;
    }
    cdyn_newton_stats s = stats(sys);
    double v[24];
    assert_int_equal(cdyn_system_get_velocities(sys, v, 24), CDYN_OK);
    print_message("pairs: at most %zu iterations per step; %llu pattern analyses, %llu blocks "
                  "left out mid-step, %llu regularized; speed of the last ball of the row %.3f "
                  "m/s\n", worst, (unsigned long long)s.analyses,
                  (unsigned long long)s.dropped_blocks, (unsigned long long)s.regularized, v[6]);
    assert_true(v[6] > 1.0); /* the momentum went down the row */
    assert_true(energy(sys) < e0);
    assert_true(worst <= 12);
    assert_true(s.analyses >= 2); /* the pile's contacts changed the pattern */
    cdyn_system_destroy(sys);
}

/* A rigid triangle (its members have inverse mass 0: kinematic in the
 * Newton system, moved by the rigid-body hook) hangs from a fixed point by
 * a stiff spring, with a free particle on a second spring below it. */
static void test_rigid_members(void **state)
{
    (void)state;
    cdyn_system *sys;
    cdyn_particle top, tri[3], bob;
    cdyn_force f;
    cdyn_rigid body;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0, 0}, NULL, &top), CDYN_OK);
    assert_int_equal(cdyn_particle_set_fixed(sys, top, true), CDYN_OK);
    const double pos[3][2] = {{0, -1}, {0.4, -1.3}, {-0.4, -1.3}};
    for (int i = 0; i < 3; i++)
        assert_int_equal(cdyn_particle_add(sys, 1.0, pos[i], NULL, &tri[i]), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 0.5, (double[]){0.1, -2.0}, NULL, &bob), CDYN_OK);
    assert_int_equal(cdyn_rigid_add(sys, tri, 3, &body), CDYN_OK);
    assert_int_equal(cdyn_force_add_spring(sys, top, tri[0], 1e4, 0, 1.0, &f), CDYN_OK);
    assert_int_equal(cdyn_force_add_spring(sys, tri[1], bob, 1e4, 0, 0.7, &f), CDYN_OK);
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &f), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
    for (int i = 0; i < 200; i++)
        assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    double x[10];
    assert_int_equal(cdyn_system_get_positions(sys, x, 10), CDYN_OK);
    /* The body stayed rigid, the free particle hangs below it. */
    assert_near(hypot(x[4] - x[2], x[5] - x[3]), hypot(0.4, 0.3), 1e-9);
    assert_near(hypot(x[6] - x[4], x[7] - x[5]), 0.8, 1e-9);
    assert_true(x[9] < x[5]);
    assert_true(cdyn_rigid_is_valid(sys, body));
    cdyn_system_destroy(sys);
}

/* ------------------------------------------------------------------ */
/* Indefinite Newton matrix                                            */

static void test_indefinite(void **state)
{
    (void)state;
    /* A square of stiff springs squeezed to 60% of its size: compressed
     * springs have negative transverse stiffness S (1 - R0 / l), and at
     * S dt^2 / m = 100 the matrix M - h^2 dF/dx is not positive definite
     * at the start of the step. Clamping that stiffness at 0 (springs in
     * compression) restores it. */
    cdyn_system *sys;
    cdyn_particle p[4];
    cdyn_force f;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    const double pos[4][2] = {{0, 0}, {0.6, 0.05}, {0.62, 0.6}, {-0.03, 0.6}};
    for (int i = 0; i < 4; i++)
        assert_int_equal(cdyn_particle_add(sys, 1.0, pos[i], NULL, &p[i]), CDYN_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(cdyn_force_add_spring(sys, p[i], p[(i + 1) % 4], 1e4, 0, 1.0, &f),
                         CDYN_OK);
    assert_int_equal(cdyn_force_add_spring(sys, p[0], p[2], 1e4, 0, sqrt(2.0), &f), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
    size_t first = 0;
    for (int i = 0; i < 20; i++) {
        assert_int_equal(cdyn_system_step(sys, 0.1), CDYN_OK);
        if (i == 0)
            first = stats(sys).iterations;
    }
    cdyn_newton_stats s = stats(sys);
    double x[8];
    assert_int_equal(cdyn_system_get_positions(sys, x, 8), CDYN_OK);
    double side = hypot(x[2] - x[0], x[3] - x[1]), diag = hypot(x[4] - x[0], x[5] - x[1]);
    print_message("squeezed square: %llu regularized factorizations in %llu steps, %zu "
                  "Newton iterations in the first, %llu in all; side %.6f (rest 1), diagonal "
                  "%.6f (rest %.6f)\n", (unsigned long long)s.regularized,
                  (unsigned long long)s.steps, first, (unsigned long long)s.total_iterations,
                  side, diag, sqrt(2.0));
    assert_true(s.regularized >= 1);
    assert_true(first <= 5);
    assert_near(side, 1.0, 1e-6);
    assert_near(diag, sqrt(2.0), 1e-6);
    cdyn_system_destroy(sys);

    /* A particle 20% deep in a solid sphere ground: the curvature term of
     * the contact, S (R / r - 1) (I - n n^T), times dt^2 / m = 1e-2 * 1e4 /
     * 1 exceeds 1; no spring to clamp, so the shift tau M does it. */
    cdyn_ground gr;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0.8, 0}, (double[]){0, 3}, &p[0]),
                     CDYN_OK);
    assert_int_equal(cdyn_ground_add_sphere(sys, (double[]){0, 0}, 1.0, false, &gr), CDYN_OK);
    assert_int_equal(cdyn_ground_set_stiffness(sys, gr, 1e4), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 0.1), CDYN_OK);
    s = stats(sys);
    print_message("deep in a sphere ground: %llu regularized (shifted) factorizations, %zu "
                  "iterations\n", (unsigned long long)s.regularized, s.iterations);
    assert_true(s.regularized >= 1 && s.iterations <= 5);
    assert_int_equal(cdyn_system_get_positions(sys, x, 8), CDYN_OK);
    assert_true(hypot(x[0], x[1]) > 0.99); /* pushed out */
    cdyn_system_destroy(sys);
}

/* ------------------------------------------------------------------ */
/* Options, bad input, failures                                        */

static void test_options(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    /* The ranges of the Newton options (the struct's rules in general:
     * test_options.c). */
    const double bad_tol[] = {0.0, -1e-10, 1e-16, 0.2, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad_tol / sizeof bad_tol[0]; i++)
        assert_int_equal(ts_set_newton(sys, bad_tol[i], 10), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(ts_set_newton(sys, 1e-8, 0), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(ts_set_newton(sys, 1e-8, 1001), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_newton_options no = {.size = sizeof no};
    assert_int_equal(cdyn_system_get_newton_options(sys, &no), CDYN_OK);
    assert_true(no.tolerance == 1e-10 && no.max_iterations == 20); /* unchanged */
    assert_int_equal(ts_set_newton(sys, 1e-15, 1), CDYN_OK);
    assert_int_equal(ts_set_newton(sys, 0.1, 1000), CDYN_OK);
    assert_int_equal(cdyn_system_get_newton_options(sys, &no), CDYN_OK);
    assert_true(no.tolerance == 0.1 && no.max_iterations == 1000);

    /* Reports before any step: zeros. */
    cdyn_newton_stats s;
    memset(&s, 0xff, sizeof s);
    s.size = sizeof s;
    assert_int_equal(cdyn_system_get_newton_stats(sys, &s), CDYN_OK);
    assert_true(s.iterations == 0 && s.steps == 0 && s.size == sizeof s);
    s.size = 0;
    assert_int_equal(cdyn_system_get_newton_stats(sys, &s), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_get_newton_stats(sys, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_get_newton_stats(NULL, &s), CDYN_ERR_INVALID_ARGUMENT);
    /* A short struct gets only its fields. */
    struct {
        size_t size, iterations;
        double canary;
    } small = {2 * sizeof(size_t), 99, 1.5};
    assert_int_equal(cdyn_system_get_newton_stats(sys, (cdyn_newton_stats *)(void *)&small),
                     CDYN_OK);
    assert_true(small.iterations == 0 && small.canary == 1.5);
    size_t count = 99;
    assert_int_equal(cdyn_system_get_newton_residuals(sys, NULL, 0, &count), CDYN_OK);
    assert_int_equal(count, 0);
    assert_int_equal(cdyn_system_get_newton_residuals(sys, NULL, 3, &count),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_get_newton_residuals(sys, NULL, 0, NULL),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_get_newton_residuals(NULL, NULL, 0, &count),
                     CDYN_ERR_INVALID_ARGUMENT);

    /* Registration of callbacks with a Jacobian. */
    cdyn_force f = 0;
    assert_int_equal(cdyn_force_add_callback_with_jacobian(sys, NULL, spring_jac, NULL, false, &f),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_callback_with_jacobian(sys, spring_fn, NULL, NULL, false, &f),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_callback_with_jacobian(sys, spring_fn, spring_jac, NULL, false,
                                                           NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_callback_with_jacobian(NULL, spring_fn, spring_jac, NULL,
                                                           false, &f), CDYN_ERR_INVALID_ARGUMENT);
    assert_true(f == 0);
    assert_int_equal(cdyn_force_add_callback_with_jacobian(sys, spring_fn, spring_jac, NULL, true,
                                                           &f), CDYN_OK);
    cdyn_force_kind kind;
    assert_int_equal(cdyn_force_get_kind(sys, f, &kind), CDYN_OK);
    assert_int_equal(kind, CDYN_FORCE_CALLBACK);
    assert_int_equal(cdyn_jacobian_add_block(NULL, 0, 0, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);

    cdyn_integrator integ;
    assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
    assert_int_equal(cdyn_system_get_integrator(sys, &integ), CDYN_OK);
    assert_int_equal(integ, BE);
    assert_int_equal((int)CDYN_INTEGRATOR_BACKWARD_EULER, 7);
    cdyn_system_destroy(sys);
}

/* A callback that changes the system during a step gets CDYN_ERR_BUSY. */
static int meddling_jac(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                        const double *v, cdyn_jacobian *jac, void *user)
{
    (void)t, (void)n, (void)dim, (void)x, (void)v, (void)jac, (void)sys;
    cdyn_system *mut = user;
    return ts_set_newton(mut, 1e-8, 5) == CDYN_ERR_BUSY ? 0 : 1;
}

static void test_busy(void **state)
{
    (void)state;
    cdyn_system *sys;
    cdyn_particle p;
    cdyn_force f;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0, 1}, (double[]){1, 0}, &p), CDYN_OK);
    assert_int_equal(cdyn_force_add_callback_with_jacobian(sys, zero_fn, meddling_jac, sys, false,
                                                           &f), CDYN_OK);
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &f), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    cdyn_newton_options no = {.size = sizeof no};
    assert_int_equal(cdyn_system_get_newton_options(sys, &no), CDYN_OK);
    assert_true(no.tolerance == 1e-10);
    cdyn_system_destroy(sys);
}

static void test_not_converged(void **state)
{
    (void)state;
    /* A cap of one iteration on the spinning network's strongly nonlinear
     * step: not converged, and nothing changed. */
    cdyn_system *sys = spinning_network(0.0);
    assert_int_equal(ts_set_newton(sys, 1e-10, 1), CDYN_OK);
    size_t n;
    assert_int_equal(cdyn_system_get_index_count(sys, &n), CDYN_OK);
    double x0[64], v0[64], x1[64], v1[64], t;
    assert_int_equal(cdyn_system_get_positions(sys, x0, 64), CDYN_OK);
    assert_int_equal(cdyn_system_get_velocities(sys, v0, 64), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 0.02), CDYN_ERR_NOT_CONVERGED);
    print_message("cap 1: %s\n", cdyn_system_last_error(sys));
    assert_non_null(strstr(cdyn_system_last_error(sys), "did not converge"));
    assert_int_equal(cdyn_system_get_positions(sys, x1, 64), CDYN_OK);
    assert_int_equal(cdyn_system_get_velocities(sys, v1, 64), CDYN_OK);
    assert_memory_equal(x0, x1, 2 * n * sizeof(double));
    assert_memory_equal(v0, v1, 2 * n * sizeof(double));
    assert_int_equal(cdyn_system_get_time(sys, &t), CDYN_OK);
    assert_true(t == 0.0);
    cdyn_newton_stats s = stats(sys);
    assert_true(s.iterations == 1 && s.failed_steps == 1 && s.steps == 1);
    double r[64];
    assert_int_equal(residuals(sys, r), 2);
    assert_true(r[1] > 1e-10);
    /* With the default cap the same step succeeds. */
    assert_int_equal(ts_set_newton(sys, 1e-10, 20), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 0.02), CDYN_OK);
    cdyn_system_destroy(sys);
}

static void test_unsupported(void **state)
{
    (void)state;
    /* A bead on a circle (a parametric constraint). */
    cdyn_system *sys;
    cdyn_particle p;
    cdyn_constraint c;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){1, 0}, NULL, &p), CDYN_OK);
    cdyn_curve_desc cd;
    cdyn_curve_desc_init(&cd, CDYN_CURVE_CIRCLE);
    assert_int_equal(cdyn_constraint_add_on_curve(sys, p, &cd, &c), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_ERR_UNSUPPORTED);
    assert_non_null(strstr(cdyn_system_last_error(sys), "RK4"));
    double t;
    assert_int_equal(cdyn_system_get_time(sys, &t), CDYN_OK);
    assert_true(t == 0.0);
    cdyn_system_destroy(sys);
}

static void test_diverged_keeps_state(void **state)
{
    (void)state;
    /* A callback force that is NaN everywhere: DIVERGED, state kept. */
    cdyn_system *sys;
    cdyn_particle p;
    cdyn_force f;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0.5, 1}, (double[]){1, 0}, &p),
                     CDYN_OK);
    assert_int_equal(cdyn_force_add_callback(sys, local_fn, NULL, true, &f), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, BE), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    double x0[2], x1[2];
    assert_int_equal(cdyn_system_get_positions(sys, x0, 2), CDYN_OK);
    assert_int_equal(cdyn_system_set_velocities(sys, (double[]){1e300, 0}, 2), CDYN_OK);
    cdyn_status st = cdyn_system_step(sys, 0.01);
    assert_true(st == CDYN_ERR_DIVERGED || st == CDYN_ERR_NOT_CONVERGED);
    assert_int_equal(cdyn_system_get_positions(sys, x1, 2), CDYN_OK);
    assert_memory_equal(x0, x1, sizeof x0);
    cdyn_system_destroy(sys);
}

/* ------------------------------------------------------------------ */
/* Memory                                                              */

typedef struct mem_world {
    ts_counting_alloc ca;
    cdyn_allocator alloc;
    cdyn_system *sys;
    user_spring us;
} mem_world;

/* Springs with dashpots, a fixed particle, drag, gravity, a ground, a
 * callback with and one without a Jacobian, a pair list and rods. */
static cdyn_status build_world(mem_world *w, bool rods)
{
    cdyn_status st;
    cdyn_particle p[12];
    cdyn_force f;
    cdyn_constraint c;
    cdyn_ground gr;
    w->alloc = ts_counting_allocator(&w->ca);
    if ((st = cdyn_system_create_with_allocator(2, &w->alloc, &w->sys)))
        return st;
    cdyn_system *sys = w->sys;
    for (int i = 0; i < 12; i++)
        if ((st = cdyn_particle_add(sys, 1.0, (double[]){0.3 * (i % 4), 0.2 + 0.3 * (i / 4)},
                                    NULL, &p[i])))
            return st;
    if ((st = cdyn_particle_set_fixed(sys, p[0], true)))
        return st;
    for (int i = 0; i < 11; i++)
        if (i % 4 != 3 && (st = cdyn_force_add_spring(sys, p[i], p[i + 1], 300, 0.5, 0.3, &f)))
            return st;
    if (rods && ((st = cdyn_constraint_add_distance(sys, p[0], p[4], 0.3, &c)) ||
                 (st = cdyn_constraint_add_distance(sys, p[4], p[8], 0.3, &c))))
        return st;
    cdyn_pair_params pp;
    cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ);
    pp.radius = 0.16;
    pp.stiffness = 1e4;
    cdyn_particle list[4] = {p[5], p[9], p[6], p[10]};
    w->us.a = 3;
    w->us.b = 7;
    w->us.k = 100;
    w->us.rest = 0.3;
    if ((st = cdyn_force_add_pairs(sys, &pp, list, 2, &f)) ||
        (st = cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &f)) ||
        (st = cdyn_force_add_drag(sys, 0.1, &f)) ||
        (st = cdyn_force_add_callback_with_jacobian(sys, spring_fn, spring_jac, &w->us, false,
                                                    &f)) ||
        (st = cdyn_force_add_callback(sys, local_fn, NULL, true, &f)) ||
        (st = cdyn_ground_add_plane(sys, (double[]){0, 1}, 0.0, &gr)) ||
        (st = cdyn_system_set_integrator(sys, BE)))
        return st;
    return CDYN_OK;
}

static void test_no_allocation(void **state)
{
    (void)state;
    for (int rods = 0; rods < 2; rods++) {
        mem_world w;
        memset(&w, 0, sizeof w);
        assert_int_equal(build_world(&w, rods), CDYN_OK);
        assert_int_equal(cdyn_system_step(w.sys, 0.01), CDYN_OK);
        size_t allocs = w.ca.allocs, frees = w.ca.frees;
        for (int i = 0; i < 200; i++)
            assert_int_equal(cdyn_system_step(w.sys, 0.01), CDYN_OK);
        /* Changes that keep the shape: options, velocities, and without
         * rods (whose topology follows the fixed flags) fixing. */
        cdyn_particle p;
        double v[26] = {0};
        assert_int_equal(cdyn_particle_add(w.sys, 1.0, (double[]){5, 5}, NULL, &p), CDYN_OK);
        assert_int_equal(cdyn_system_step(w.sys, 0.01), CDYN_OK);
        assert_true(w.ca.allocs > allocs); /* a new slot: a new pattern */
        allocs = w.ca.allocs, frees = w.ca.frees;
        if (!rods)
            assert_int_equal(cdyn_particle_set_fixed(w.sys, p, true), CDYN_OK);
        assert_int_equal(ts_set_newton(w.sys, 1e-9, 10), CDYN_OK);
        assert_int_equal(cdyn_system_get_velocities(w.sys, v, 26), CDYN_OK);
        v[1] += 0.5;
        assert_int_equal(cdyn_system_set_velocities(w.sys, v, 26), CDYN_OK);
        for (int i = 0; i < 50; i++)
            assert_int_equal(cdyn_system_step(w.sys, 0.01), CDYN_OK);
        if (!rods)
            assert_int_equal(cdyn_particle_set_fixed(w.sys, p, false), CDYN_OK);
        for (int i = 0; i < 50; i++)
            assert_int_equal(cdyn_system_step(w.sys, 0.01), CDYN_OK);
        assert_int_equal(w.ca.allocs, allocs);
        assert_int_equal(w.ca.frees, frees);
        cdyn_newton_stats s = stats(w.sys);
        print_message("%s: no allocation in the last 100 of %llu steps; %llu analyses; %zu "
                      "bytes live\n", rods ? "with rods" : "without rods",
                      (unsigned long long)s.steps, (unsigned long long)s.analyses,
                      w.ca.live_bytes);
        cdyn_system_destroy(w.sys);
        assert_int_equal(w.ca.live_bytes, 0);
    }
}

static void test_out_of_memory(void **state)
{
    (void)state;
    /* Count the allocations of building the world and its first step. */
    mem_world w;
    memset(&w, 0, sizeof w);
    assert_int_equal(build_world(&w, true), CDYN_OK);
    size_t built = w.ca.allocs;
    assert_int_equal(cdyn_system_step(w.sys, 0.01), CDYN_OK);
    size_t total = w.ca.allocs;
    double ref[24];
    assert_int_equal(cdyn_system_get_positions(w.sys, ref, 24), CDYN_OK);
    cdyn_system_destroy(w.sys);
    assert_true(total > built);
    /* Fail each allocation of the first step: NO_MEMORY, state kept, and
     * the step then succeeds with the same result. */
    for (size_t k = built + 1; k <= total; k++) {
        memset(&w, 0, sizeof w);
        assert_int_equal(build_world(&w, true), CDYN_OK);
        double x0[24], x1[24];
        assert_int_equal(cdyn_system_get_positions(w.sys, x0, 24), CDYN_OK);
        w.ca.fail_at = k;
        assert_int_equal(cdyn_system_step(w.sys, 0.01), CDYN_ERR_NO_MEMORY);
        assert_int_equal(cdyn_system_get_positions(w.sys, x1, 24), CDYN_OK);
        assert_memory_equal(x0, x1, sizeof x0);
        w.ca.fail_at = 0;
        assert_int_equal(cdyn_system_step(w.sys, 0.01), CDYN_OK);
        assert_int_equal(cdyn_system_get_positions(w.sys, x1, 24), CDYN_OK);
        assert_memory_equal(ref, x1, sizeof x1);
        cdyn_system_destroy(w.sys);
        assert_int_equal(w.ca.live_bytes, 0);
    }
    print_message("out of memory: each of the %zu allocations of the first step refused "
                  "cleanly\n", total - built);
}

static void test_determinism(void **state)
{
    (void)state;
    uint64_t h[2];
    for (int k = 0; k < 2; k++) {
        mem_world w;
        memset(&w, 0, sizeof w);
        assert_int_equal(build_world(&w, true), CDYN_OK);
        for (int i = 0; i < 100; i++)
            assert_int_equal(cdyn_system_step(w.sys, 0.01), CDYN_OK);
        double x[24], v[24];
        assert_int_equal(cdyn_system_get_positions(w.sys, x, 24), CDYN_OK);
        assert_int_equal(cdyn_system_get_velocities(w.sys, v, 24), CDYN_OK);
        h[k] = ts_hash_bytes(v, sizeof v, ts_hash_bytes(x, sizeof x, 0));
        cdyn_system_destroy(w.sys);
    }
    assert_true(h[0] == h[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stiff_network),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_quadratic_convergence),
        cmocka_unit_test(test_pendulum),
        cmocka_unit_test(test_chain),
        cmocka_unit_test(test_redundant_rods),
        cmocka_unit_test(test_callback_jacobian),
        cmocka_unit_test(test_callback_finite_differences),
        cmocka_unit_test(test_callback_errors),
        cmocka_unit_test(test_ground_rest),
        cmocka_unit_test(test_pairs_and_drag),
        cmocka_unit_test(test_rigid_members),
        cmocka_unit_test(test_indefinite),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_busy),
        cmocka_unit_test(test_not_converged),
        cmocka_unit_test(test_unsupported),
        cmocka_unit_test(test_diverged_keeps_state),
        cmocka_unit_test(test_no_allocation),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_determinism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
