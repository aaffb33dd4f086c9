/* Implicit constraints: a spinning rod (N = 2) against its closed
 * form, constraint forces doing no work, built-in kinds, enable/disable,
 * compliance, user constraints, and the solver report. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

static cdyn_system *make(int dim, cdyn_integrator integrator)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(dim, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, integrator), CDYN_OK);
    return sys;
}

static double norm(const double *v, int dim)
{
    double s = 0;
    for (int k = 0; k < dim; k++)
        s += v[k] * v[k];
    return sqrt(s);
}

/* N = 2: two equal masses m on a rod of length d spinning freely.
 * The tension is m |v1 - v2|^2 / (2 d) and each mass moves on a circle
 * about the bond centre. */
static void test_spinning_rod(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        const double m = 1.7, d = 0.8, omega = 3.0;
        cdyn_system *sys = make(dim, CDYN_INTEGRATOR_RK4);
        cdyn_particle a, b;
        /* Bond centre at (1, 2, 0.5) moving with (0.3, -0.1, 0.2); rotation about z. */
        double c0[3] = {1, 2, 0.5}, u[3] = {0.3, -0.1, dim == 3 ? 0.2 : 0};
        double xa[3] = {c0[0] - d / 2, c0[1], c0[2]}, xb[3] = {c0[0] + d / 2, c0[1], c0[2]};
        double va[3] = {u[0], u[1] - omega * d / 2, u[2]}, vb[3] = {u[0], u[1] + omega * d / 2, u[2]};
        assert_int_equal(cdyn_particle_add(sys, m, xa, va, &a), CDYN_OK);
        assert_int_equal(cdyn_particle_add(sys, m, xb, vb, &b), CDYN_OK);
        cdyn_constraint rod;
        assert_int_equal(cdyn_constraint_add_distance(sys, a, b, d, &rod), CDYN_OK);
        /* The closed form holds on the manifold: no feedback terms. */
        assert_int_equal(ts_set_gains(sys, 0, 0), CDYN_OK);
        double worst = 0;
        for (int i = 0; i < 2000; i++) {
            if (i % 50 == 0) {
                assert_int_equal(cdyn_system_evaluate(sys, NULL, 0), CDYN_OK);
                double pa[3], pb[3], wa[3], wb[3], fa[3], fb[3], rel[3];
                cdyn_particle_get_position(sys, a, pa);
                cdyn_particle_get_position(sys, b, pb);
                cdyn_particle_get_velocity(sys, a, wa);
                cdyn_particle_get_velocity(sys, b, wb);
                for (int k = 0; k < dim; k++)
                    rel[k] = wa[k] - wb[k];
                double want = m * norm(rel, dim) * norm(rel, dim) / (2 * d);
                assert_int_equal(cdyn_constraint_get_force(sys, rod, a, fa), CDYN_OK);
                assert_int_equal(cdyn_constraint_get_force(sys, rod, b, fb), CDYN_OK);
                worst = fmax(worst, fabs(norm(fa, dim) - want) / want);
                /* Equal and opposite, pulling a towards b. */
                double dot = 0;
                for (int k = 0; k < dim; k++) {
                    assert_near(fa[k], -fb[k], 1e-12 * want);
                    dot += fa[k] * (pb[k] - pa[k]);
                }
                assert_true(dot > 0);
                /* Both on the circle of radius d / 2 about the moving centre. */
                double t;
                cdyn_system_get_time(sys, &t);
                double ra[3];
                for (int k = 0; k < dim; k++)
                    ra[k] = pa[k] - (c0[k] + u[k] * t);
                assert_near(norm(ra, dim), d / 2, 1e-9);
            }
            assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
        }
        print_message("dim %d: worst relative tension error %.3e\n", dim, worst);
        assert_true(worst < 1e-12);
        cdyn_system_destroy(sys);
    }
}

/* Makes a chain's velocities tangent to its rods (G v = 0) by Gauss-Seidel
 * sweeps over the rods, written independently of the library's solver. */
static void project_chain_velocities(cdyn_system *sys, const cdyn_particle *p, int n)
{
    double x[64][3], v[64][3], w[64];
    for (int i = 0; i <= n; i++) {
        cdyn_particle_get_position(sys, p[i], x[i]);
        cdyn_particle_get_velocity(sys, p[i], v[i]);
        bool fixed;
        double m;
        cdyn_particle_get_fixed(sys, p[i], &fixed);
        cdyn_particle_get_mass(sys, p[i], &m);
        w[i] = fixed ? 0.0 : 1.0 / m;
    }
    for (int sweep = 0; sweep < 2000; sweep++) {
        double worst = 0;
        for (int i = 1; i <= n; i++) {
            double d[3], gd = 0, d2 = 0, vs = 0;
            for (int k = 0; k < 3; k++) {
                d[k] = x[i][k] - x[i - 1][k];
                gd += d[k] * (v[i][k] - v[i - 1][k]);
                d2 += d[k] * d[k];
                vs += fabs(v[i][k]) + fabs(v[i - 1][k]);
            }
            double mu = gd / (d2 * (w[i] + w[i - 1]));
            for (int k = 0; k < 3; k++) {
                v[i - 1][k] += w[i - 1] * mu * d[k];
                v[i][k] -= w[i] * mu * d[k];
            }
            worst = fmax(worst, fabs(gd) / (sqrt(d2) * (vs + 1e-300)));
        }
        if (worst < 1e-15)
            break;
    }
    for (int i = 0; i <= n; i++)
        cdyn_particle_set_velocity(sys, p[i], v[i]);
}

/* Sum of F_c . v over the particles is zero: constraint forces do no work
 * (d'Alembert's principle). A 3-D chain swinging under gravity; its velocities
 * start tangent to the constraints and RK4 keeps G v near round-off. */
static void test_constraint_forces_do_no_work(void **state)
{
    (void)state;
    cdyn_system *sys = make(3, CDYN_INTEGRATOR_RK4);
    enum { N = 12 };
    cdyn_particle p[N + 1];
    cdyn_constraint c[N];
    assert_int_equal(cdyn_particle_add(sys, 1, (double[]){0, 0, 0}, NULL, &p[0]), CDYN_OK);
    cdyn_particle_set_fixed(sys, p[0], true);
    uint64_t seed = 4;
    for (int i = 1; i <= N; i++) {
        /* Hanging, bent a little, swinging gently in 3-D. */
        double x[3] = {0.03 * i + 0.01 * ts_rand_sym(&seed), -0.1 * i,
                       0.01 * ts_rand_sym(&seed)};
        double v[3] = {0.1 * ts_rand_sym(&seed), 0.0, 0.1 * ts_rand_sym(&seed)};
        cdyn_particle_add(sys, 0.5 + 0.1 * i, x, v, &p[i]);
    }
    /* Rods set to the initial lengths, so the start is on the manifold. */
    for (int i = 1; i <= N; i++) {
        double xa[3], xb[3], dd[3];
        cdyn_particle_get_position(sys, p[i - 1], xa);
        cdyn_particle_get_position(sys, p[i], xb);
        for (int k = 0; k < 3; k++)
            dd[k] = xb[k] - xa[k];
        assert_int_equal(cdyn_constraint_add_distance(sys, p[i - 1], p[i], norm(dd, 3), &c[i - 1]),
                         CDYN_OK);
    }
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, -9.81, 0}, &g);
    project_chain_velocities(sys, p, N);
    double worst = 0;
    for (int step = 0; step < 1000; step++) {
        /* Remove the integrator's drift from G v (else F_c . v = lambda G v
         * measures the drift, not the force), then evaluate. */
        project_chain_velocities(sys, p, N);
        assert_int_equal(cdyn_system_evaluate(sys, NULL, 0), CDYN_OK);
        double power = 0, scale = 0;
        for (int i = 0; i < N; i++)
            for (int e = 0; e < 2; e++) {
                double f[3], v[3];
                cdyn_constraint_get_force(sys, c[i], p[i + e], f);
                cdyn_particle_get_velocity(sys, p[i + e], v);
                for (int k = 0; k < 3; k++) {
                    power += f[k] * v[k];
                    scale += fabs(f[k] * v[k]);
                }
            }
        /* F_c . v = lambda (G v): zero up to the velocity drift of the run. */
        worst = fmax(worst, fabs(power) / scale);
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    }
    print_message("worst |sum F_c.v| / sum |F_c v| = %.3e\n", worst);
    assert_true(worst < 1e-13);
    cdyn_system_destroy(sys);
}

static void test_pin_and_plane(void **state)
{
    (void)state;
    cdyn_system *sys = make(3, CDYN_INTEGRATOR_RK4);
    cdyn_particle a, b;
    cdyn_particle_add(sys, 2.0, (double[]){1, 2, 3}, NULL, &a);
    cdyn_particle_add(sys, 1.0, (double[]){0, 0, 1}, (double[]){1, 0.5, 0}, &b);
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, 0, -9.81}, &g);
    cdyn_constraint pin, plane;
    assert_int_equal(cdyn_constraint_add_pin(sys, a, (double[]){1, 2, 3}, &pin), CDYN_OK);
    /* The plane z = 1 (normal given unnormalized). */
    assert_int_equal(cdyn_constraint_add_plane(sys, b, (double[]){0, 0, 2}, 2.0, &plane), CDYN_OK);
    size_t rows;
    cdyn_constraint_get_row_count(sys, pin, &rows);
    assert_int_equal(rows, 3);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    double x[3], f[3];
    cdyn_particle_get_position(sys, a, x);
    assert_near(x[0], 1, 1e-12);
    assert_near(x[1], 2, 1e-12);
    assert_near(x[2], 3, 1e-12);
    cdyn_particle_get_position(sys, b, x);
    assert_near(x[0], 1.0, 1e-12); /* slides freely in the plane */
    assert_near(x[1], 0.5, 1e-12);
    assert_near(x[2], 1.0, 1e-12);
    assert_int_equal(cdyn_system_evaluate(sys, NULL, 0), CDYN_OK);
    assert_int_equal(cdyn_constraint_get_force(sys, pin, a, f), CDYN_OK);
    assert_near(f[2], 2.0 * 9.81, 1e-10); /* the pin carries the weight */
    assert_int_equal(cdyn_constraint_get_force(sys, plane, b, f), CDYN_OK);
    assert_near(f[2], 9.81, 1e-10);
    assert_int_equal(cdyn_constraint_get_force(sys, plane, a, f), CDYN_ERR_INVALID_ARGUMENT);
    double mult[3];
    assert_int_equal(cdyn_constraint_get_multipliers(sys, pin, mult, 2), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_get_multipliers(sys, pin, mult, 3), CDYN_OK);
    assert_near(mult[2], 2.0 * 9.81, 1e-10);
    cdyn_system_destroy(sys);
}

static void test_enable_disable_and_remove(void **state)
{
    (void)state;
    cdyn_system *sys = make(2, CDYN_INTEGRATOR_RK4);
    cdyn_particle p;
    cdyn_particle_add(sys, 1.0, (double[]){1, 0}, NULL, &p);
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g);
    cdyn_constraint rod;
    assert_int_equal(cdyn_constraint_add_anchor(sys, p, (double[]){0, 0}, 1.0, &rod), CDYN_OK);
    bool en = false;
    assert_int_equal(cdyn_constraint_get_enabled(sys, rod, &en), CDYN_OK);
    assert_true(en);
    for (int i = 0; i < 100; i++)
        cdyn_system_step(sys, 1e-3);
    double x[2];
    cdyn_particle_get_position(sys, p, x);
    assert_near(hypot(x[0], x[1]), 1.0, 1e-9);
    /* Disabled, the particle falls freely: v_y changes by -g dt per step. */
    assert_int_equal(cdyn_constraint_set_enabled(sys, rod, false), CDYN_OK);
    double v0[2], v1[2];
    cdyn_particle_get_velocity(sys, p, v0);
    cdyn_system_step(sys, 1e-3);
    cdyn_particle_get_velocity(sys, p, v1);
    assert_near(v1[0], v0[0], 1e-15);
    assert_near(v1[1] - v0[1], -9.81e-3, 1e-12);
    double mult;
    assert_int_equal(cdyn_constraint_get_multipliers(sys, rod, &mult, 1), CDYN_OK);
    assert_true(mult == 0);
    assert_int_equal(cdyn_constraint_set_enabled(sys, rod, true), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    assert_int_equal(cdyn_constraint_remove(sys, rod), CDYN_OK);
    assert_false(cdyn_constraint_is_valid(sys, rod));
    assert_int_equal(cdyn_constraint_remove(sys, rod), CDYN_ERR_STALE_HANDLE);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    /* Removing a particle removes its constraints. */
    cdyn_particle q;
    cdyn_particle_add(sys, 1.0, (double[]){2, 0}, NULL, &q);
    cdyn_constraint link;
    cdyn_constraint_add_distance(sys, p, q, 1.0, &link);
    assert_int_equal(cdyn_particle_remove(sys, q), CDYN_OK);
    assert_false(cdyn_constraint_is_valid(sys, link));
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    cdyn_system_destroy(sys);
}

/* A compliant anchor of compliance alpha = 1 / k for the quadratic g acts
 * like a spring of energy g^2 / (2 alpha); near the rest length that is a
 * linear spring of stiffness L^2 / alpha along the rod. Small oscillations
 * then have angular frequency sqrt(L^2 / (alpha m)). */
static void test_compliance_is_a_spring(void **state)
{
    (void)state;
    const double m = 2.0, L = 1.0, kspring = 200.0, alpha = L * L / kspring, amp = 1e-3;
    cdyn_system *sys = make(2, CDYN_INTEGRATOR_SYMPLECTIC_EULER);
    cdyn_particle p;
    cdyn_particle_add(sys, m, (double[]){L + amp, 0}, NULL, &p);
    cdyn_constraint c;
    cdyn_constraint_add_anchor(sys, p, (double[]){0, 0}, L, &c);
    assert_int_equal(cdyn_constraint_set_compliance(sys, c, alpha), CDYN_OK);
    double got;
    cdyn_constraint_get_compliance(sys, c, &got);
    assert_true(got == alpha);
    /* Count zero crossings of x - L over 2 s to measure the frequency. */
    const double dt = 1e-5;
    int crossings = 0;
    double prev = amp, t_first = 0, t_last = 0;
    for (int i = 1; i <= 200000; i++) {
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        double x[2];
        cdyn_particle_get_position(sys, p, x);
        double u = x[0] - L;
        if ((u < 0) != (prev < 0)) {
            double t = (i - 1 + prev / (prev - u)) * dt;
            if (crossings == 0)
                t_first = t;
            t_last = t;
            crossings++;
        }
        prev = u;
    }
    double period = 2 * (t_last - t_first) / (crossings - 1);
    double want = 2 * TS_PI / sqrt(kspring / m);
    print_message("compliant rod: period %.6f, spring period %.6f\n", period, want);
    assert_near(period, want, 2e-3 * want);
    assert_int_equal(cdyn_constraint_set_compliance(sys, c, -1), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_system_destroy(sys);
}

/* A user constraint equal to a rod, built from the callback interface:
 * the motion matches the built-in distance constraint. */
static int rod_fn(const cdyn_system *sys, double t, size_t np, int dim, const double *x,
                    const double *v, size_t nr, double *g, double *jac, double *jdot_v, double *g_t,
                    void *user)
{
    (void)sys, (void)t, (void)g_t;
    (void)np, (void)nr;
    double L = *(const double *)user, d2 = 0, v2 = 0;
    for (int k = 0; k < dim; k++) {
        double dk = x[dim + k] - x[k], vk = v[dim + k] - v[k];
        jac[k] = -dk;
        jac[dim + k] = dk;
        d2 += dk * dk;
        v2 += vk * vk;
    }
    g[0] = 0.5 * (d2 - L * L);
    jdot_v[0] = v2;
    return 0;
}

static int rod_cb(const cdyn_system *sys, double t, size_t np, int dim, const double *x,
                    const double *v, size_t nr, double *g, double *jac, double *jdot_v, double *g_t,
                    void *user)
{
    return rod_fn(sys, t, np, dim, x, v, nr, g, jac, jdot_v, g_t, user);
}

static void run_pendulum(bool user, double out[2])
{
    cdyn_system *sys = make(2, CDYN_INTEGRATOR_RK4);
    cdyn_particle pivot, bob;
    cdyn_particle_add(sys, 1.0, (double[]){0, 0}, NULL, &pivot);
    cdyn_particle_set_fixed(sys, pivot, true);
    cdyn_particle_add(sys, 1.0, (double[]){0.6, -0.8}, NULL, &bob);
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g);
    cdyn_constraint c;
    static double L = 1.0;
    if (user)
        assert_int_equal(cdyn_constraint_add_user(sys, (cdyn_particle[]){pivot, bob}, 2, 1, rod_fn,
                                                  &L, &c), CDYN_OK);
    else
        assert_int_equal(cdyn_constraint_add_distance(sys, pivot, bob, 1.0, &c), CDYN_OK);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    cdyn_particle_get_position(sys, bob, out);
    cdyn_system_destroy(sys);
}

static void test_user_constraint_matches_builtin(void **state)
{
    (void)state;
    double a[2], b[2];
    run_pendulum(false, a);
    run_pendulum(true, b);
    assert_near(a[0], b[0], 1e-14);
    assert_near(a[1], b[1], 1e-14);
}

static void test_solver_stats_and_settings(void **state)
{
    (void)state;
    cdyn_system *sys = make(2, CDYN_INTEGRATOR_SYMPLECTIC_EULER);
    /* The options' own rules (defaults, refusals, sizes): test_options.c. */
    assert_int_equal(ts_set_gains(sys, 50, 10), CDYN_OK);
    cdyn_particle p[5];
    cdyn_particle_add(sys, 1, (double[]){0, 0}, NULL, &p[0]);
    cdyn_particle_set_fixed(sys, p[0], true);
    for (int i = 1; i < 5; i++) {
        cdyn_particle_add(sys, 1, (double[]){0.1 * i, 0}, NULL, &p[i]);
        cdyn_constraint c;
        cdyn_constraint_add_distance(sys, p[i - 1], p[i], 0.1, &c);
    }
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    cdyn_solver_stats st = {.size = sizeof st};
    assert_int_equal(cdyn_system_get_solver_stats(sys, &st), CDYN_OK);
    assert_int_equal(st.size, sizeof st);
    assert_int_equal(st.rows, 4);
    assert_int_equal(st.solves, 1);
    assert_int_equal(st.redundant_rows, 0);
    assert_int_equal(st.factor_nonzeros, 3); /* a chain factors with no fill */
    /* A caller built against a smaller struct gets only its fields. */
    cdyn_solver_stats small;
    memset(&small, 0xab, sizeof small);
    small.size = offsetof(cdyn_solver_stats, iterations);
    assert_int_equal(cdyn_system_get_solver_stats(sys, &small), CDYN_OK);
    assert_int_equal(small.rows, 4);
    unsigned char *tail = (unsigned char *)&small + offsetof(cdyn_solver_stats, iterations);
    assert_int_equal(tail[0], 0xab);
    assert_int_equal(ts_set_solver(sys, CDYN_SOLVER_CG), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    cdyn_system_get_solver_stats(sys, &st);
    assert_true(st.iterations > 0);
    assert_true(st.residual < 1e-10);
    cdyn_system_destroy(sys);
}

/* Residuals are lengths: a rod 1e-3 too long reports (l^2 - L^2) / (2 l),
 * fixed end or not; a pin 0.02 off reports 0.02. */
static void test_residuals_are_lengths(void **state)
{
    (void)state;
    for (int fixed = 0; fixed < 2; fixed++) {
        cdyn_system *sys = make(2, CDYN_INTEGRATOR_RK4);
        cdyn_particle a, b;
        cdyn_particle_add(sys, 1, (double[]){0, 0}, NULL, &a);
        cdyn_particle_set_fixed(sys, a, fixed);
        cdyn_particle_add(sys, 1, (double[]){0, 1.001}, (double[]){0, 0.5}, &b);
        cdyn_constraint c;
        cdyn_constraint_add_distance(sys, a, b, 1.0, &c);
        double pos, vel;
        assert_int_equal(cdyn_system_compute_constraint_residuals(sys, &pos, &vel), CDYN_OK);
        assert_near(pos, (1.001 * 1.001 - 1.0) / (2 * 1.001), 1e-15);
        assert_near(vel, 0.5, 1e-15);
        cdyn_system_destroy(sys);
    }
    cdyn_system *sys = make(3, CDYN_INTEGRATOR_RK4);
    cdyn_particle p;
    cdyn_particle_add(sys, 1, (double[]){1, 2, 3.02}, NULL, &p);
    cdyn_constraint pin;
    cdyn_constraint_add_pin(sys, p, (double[]){1, 2, 3}, &pin);
    double pos;
    assert_int_equal(cdyn_system_compute_constraint_residuals(sys, &pos, NULL), CDYN_OK);
    assert_near(pos, 0.02, 1e-15);
    cdyn_system_destroy(sys);
}

/* A chain with a pin and a user constraint, built and stepped with an
 * allocator that fails the Nth allocation: every N gives CDYN_ERR_NO_MEMORY
 * from exactly one call, retrying it succeeds, the run ends in the same state
 * as an unfailed one, and nothing leaks. After the first step, steps
 * allocate nothing. */
static int rod_cb(const cdyn_system *sys, double t, size_t np, int dim, const double *x,
                    const double *v, size_t nr, double *g, double *jac, double *jdot_v, double *g_t,
                    void *user);

static cdyn_status build_and_run(ts_counting_alloc *counts, double *out, int *failures)
{
    cdyn_allocator a = ts_counting_allocator(counts);
    cdyn_system *sys = NULL;
    cdyn_status st;
    *failures = 0;
#define TRY(call)                                                                              \
    do {                                                                                       \
        while ((st = (call)) == CDYN_ERR_NO_MEMORY)                                            \
            (*failures)++;                                                                     \
        if (st)                                                                                \
            return st;                                                                         \
    } while (0)
    TRY(cdyn_system_create_with_allocator(2, &a, &sys));
    cdyn_particle p[12];
    static double L = 0.1;
    for (int i = 0; i < 12; i++)
        TRY(cdyn_particle_add(sys, 1.0, (double[]){0.1 * i, 0}, NULL, &p[i]));
    cdyn_constraint c;
    TRY(cdyn_constraint_add_pin(sys, p[0], (double[]){0, 0}, &c));
    for (int i = 1; i < 11; i++)
        TRY(cdyn_constraint_add_distance(sys, p[i - 1], p[i], 0.1, &c));
    TRY(cdyn_constraint_add_user(sys, (cdyn_particle[]){p[10], p[11]}, 2, 1, rod_cb, &L, &c));
    cdyn_force g;
    TRY(cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g));
    TRY(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4));
    TRY(cdyn_system_step(sys, 1e-3));
    size_t before = counts->allocs;
    for (int i = 0; i < 50; i++)
        TRY(cdyn_system_step(sys, 1e-3));
    if (counts->allocs != before)
        return CDYN_ERR_INVALID_ARGUMENT; /* a step allocated */
    TRY(ts_set_solver(sys, CDYN_SOLVER_CG));
    TRY(cdyn_system_step(sys, 1e-3));
    cdyn_system_get_positions(sys, out, 24);
#undef TRY
    cdyn_system_destroy(sys);
    return CDYN_OK;
}

static void test_out_of_memory_and_no_allocation(void **state)
{
    (void)state;
    ts_counting_alloc ref = {0};
    double want[24], got[24];
    int failures;
    assert_int_equal(build_and_run(&ref, want, &failures), CDYN_OK);
    assert_int_equal(failures, 0);
    size_t total = ref.allocs;
    for (size_t n = 1; n <= total; n++) {
        ts_counting_alloc counts = {0};
        counts.fail_at = n;
        assert_int_equal(build_and_run(&counts, got, &failures), CDYN_OK);
        assert_int_equal(failures, 1);
        assert_memory_equal(got, want, sizeof want);
        assert_int_equal(counts.live_bytes, 0);
        assert_int_equal(counts.allocs, counts.frees + 1);
    }
    print_message("constraints: %zu allocations, each failed once in turn\n", total);
}

/* Stale, foreign and wrong-kind constraint handles. */
static void test_constraint_handles(void **state)
{
    (void)state;
    cdyn_system *a = make(2, CDYN_INTEGRATOR_RK4), *b = make(2, CDYN_INTEGRATOR_RK4);
    cdyn_particle pa, pb;
    cdyn_particle_add(a, 1, (double[]){1, 0}, NULL, &pa);
    cdyn_particle_add(b, 1, (double[]){1, 0}, NULL, &pb);
    cdyn_constraint ca, cb;
    cdyn_constraint_add_anchor(a, pa, (double[]){0, 0}, 1.0, &ca);
    cdyn_constraint_add_anchor(b, pb, (double[]){0, 0}, 1.0, &cb);
    bool en;
    /* The 12-bit salt tells systems apart with probability 4095/4096. */
    if (ca != cb)
        assert_int_equal(cdyn_constraint_get_enabled(a, cb, &en), CDYN_ERR_INVALID_HANDLE);
    assert_int_equal(cdyn_constraint_get_enabled(a, pa, &en), CDYN_ERR_INVALID_HANDLE);
    assert_int_equal(cdyn_constraint_get_enabled(a, 0, &en), CDYN_ERR_INVALID_HANDLE);
    assert_int_equal(cdyn_constraint_remove(a, ca), CDYN_OK);
    assert_int_equal(cdyn_constraint_get_enabled(a, ca, &en), CDYN_ERR_STALE_HANDLE);
    assert_int_equal(cdyn_constraint_set_compliance(a, ca, 1.0), CDYN_ERR_STALE_HANDLE);
    cdyn_constraint again;
    cdyn_constraint_add_anchor(a, pa, (double[]){0, 0}, 1.0, &again);
    assert_true(again != ca); /* the slot is reused with a new generation */
    assert_true(cdyn_constraint_is_valid(a, again));
    assert_false(cdyn_constraint_is_valid(a, ca));
    cdyn_system_destroy(a);
    cdyn_system_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spinning_rod),
        cmocka_unit_test(test_constraint_forces_do_no_work),
        cmocka_unit_test(test_pin_and_plane),
        cmocka_unit_test(test_enable_disable_and_remove),
        cmocka_unit_test(test_compliance_is_a_spring),
        cmocka_unit_test(test_user_constraint_matches_builtin),
        cmocka_unit_test(test_solver_stats_and_settings),
        cmocka_unit_test(test_residuals_are_lengths),
        cmocka_unit_test(test_out_of_memory_and_no_allocation),
        cmocka_unit_test(test_constraint_handles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
