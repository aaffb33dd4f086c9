/* RATTLE's chain kernel on long paths, swept from both ends at once
 * (src/projection/chain_twisted.c): the same motion, multipliers and
 * forces as the general projection (sparse LDL^T, reached by adding a
 * three-rod star whose hub is in three rods), on paths of even and odd row
 * counts, fixed or free at either end, in 2-D and 3-D, from a cold start
 * and through rebased Newton iterations; a redundant path, which the
 * twisted sweeps hand back to the one-ended ones; and the same bits for a
 * chain numbered in order along it and out of order. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

enum { MAX_RODS = 800 };

typedef struct scene {
    cdyn_system *sys;
    cdyn_particle p[MAX_RODS + 8];
    cdyn_constraint rod[MAX_RODS];
    cdyn_particle at[MAX_RODS]; /* a particle of each rod */
    int n_particles, n_rods;
} scene;

static void options(cdyn_system *sys, double tol)
{
    cdyn_projection_options o;
    cdyn_projection_options_init(&o);
    o.method = CDYN_PROJECTION_NEWTON;
    o.position_tolerance = tol;
    o.velocity_tolerance = tol;
    o.max_iterations = 1000;
    assert_int_equal(cdyn_system_set_projection_options(sys, &o), CDYN_OK);
}

static cdyn_particle add(scene *s, double m, double x, double y, double z, double vz)
{
    cdyn_particle p;
    assert_int_equal(cdyn_particle_add(s->sys, m, (double[]){x, y, z}, (double[]){0, 0, vz}, &p),
                     CDYN_OK);
    s->p[s->n_particles++] = p;
    return p;
}

/* A rod between particles i and j (given from j to i when @p flip). */
static void rod(scene *s, int i, int j, double len, int flip)
{
    assert_int_equal(cdyn_constraint_add_distance(s->sys, s->p[flip ? j : i], s->p[flip ? i : j],
                                                  len, &s->rod[s->n_rods]),
                     CDYN_OK);
    s->at[s->n_rods++] = s->p[j];
}

/* A star of three rods from a moving hub to fixed ends, far away: its hub
 * is in three rods, so the whole system takes the general projection. */
static void add_star(scene *s)
{
    const int hub = s->n_particles;
    add(s, 1.0, 50, 50, 0, 0);
    for (int j = 0; j < 3; j++) {
        add(s, 1.0, 50 + cos(2.1 * j), 50 + sin(2.1 * j), 0, 0);
        assert_int_equal(cdyn_particle_set_fixed(s->sys, s->p[s->n_particles - 1], true), CDYN_OK);
        cdyn_constraint c;
        assert_int_equal(cdyn_constraint_add_distance(s->sys, s->p[hub], s->p[s->n_particles - 1],
                                                      1.0, &c),
                         CDYN_OK);
    }
}

static void begin(scene *s, int dim, double tol)
{
    memset(s, 0, sizeof *s);
    assert_int_equal(cdyn_system_create(dim, &s->sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(s->sys, CDYN_INTEGRATOR_RATTLE), CDYN_OK);
    options(s->sys, tol);
}

static void gravity(scene *s, double gx, double gy)
{
    cdyn_force g;
    assert_int_equal(cdyn_force_add_gravity(s->sys, (double[]){gx, gy, 0}, &g), CDYN_OK);
}

/* Two paths of n1 and n2 rods hanging from one fixed pivot (a fixed hub:
 * both paths start there), slanted, of unequal masses; the first path's
 * rods added out of order, every other one from its far end, the second's
 * from the far end up; a particle in no rod. */
static void two_paths(scene *s, int dim, int n1, int n2, int general)
{
    begin(s, dim, 1e-12);
    add(s, 1.0, 0, 0, 0, 0);
    assert_int_equal(cdyn_particle_set_fixed(s->sys, s->p[0], true), CDYN_OK);
    for (int i = 1; i <= n1; i++)
        add(s, 1.0 + 0.5 * (i % 3), 0.08 * i, -0.06 * i, 0, dim == 3 ? 0.3 * cos(i) : 0);
    for (int i = 1; i <= n2; i++)
        add(s, 2.0 + 0.25 * (i % 4), -0.06 * i, -0.08 * i, 0, dim == 3 ? 0.2 * sin(i) : 0);
    add(s, 1.0, 5, 5, 0, 0);
    for (int pass = 0; pass < 2; pass++)
        for (int i = pass; i < n1; i += 2)
            rod(s, i, i + 1, 0.1, i % 4 == 1);
    for (int i = n2; i >= 1; i--)
        rod(s, i == 1 ? 0 : n1 + i - 1, n1 + i, 0.1, 0);
    gravity(s, 0, -9.81);
    if (general)
        add_star(s);
}

/* A free chain of n rods, spinning, no gravity: both end particles move
 * (the sweeps write them). */
static void free_chain(scene *s, int dim, int n, int general)
{
    begin(s, dim, 1e-12);
    const double L = 0.1 * n;
    for (int i = 0; i <= n; i++) {
        const double x = 0.1 * i - 0.5 * L;
        cdyn_particle p;
        assert_int_equal(cdyn_particle_add(s->sys, 1.0 + 0.1 * (i % 5), (double[]){x, 0, 0},
                                           (double[]){0, 0.5 * x, dim == 3 ? 0.2 : 0}, &p),
                         CDYN_OK);
        s->p[s->n_particles++] = p;
    }
    for (int i = 0; i < n; i++)
        rod(s, i, i + 1, 0.1, i % 3 == 0);
    if (general)
        add_star(s);
}

/* A chain of n rods fixed at both ends, slack: a V (for an odd n with a
 * level rod at its bottom), falling under gravity. */
static void v_chain(scene *s, int dim, int n, int general)
{
    begin(s, dim, 1e-12);
    const double c = 0.1 * cos(0.6), d = 0.1 * sin(0.6);
    const int m = n / 2;
    for (int i = 0; i <= n; i++) {
        if (n % 2 == 0 || i <= m)
            add(s, 1.0 + 0.5 * (i % 2), c * i, -d * (i <= m ? i : n - i), 0, 0);
        else
            add(s, 1.0 + 0.5 * (i % 2), c * (i - 1) + 0.1, -d * (n - i), 0, 0);
    }
    assert_int_equal(cdyn_particle_set_fixed(s->sys, s->p[0], true), CDYN_OK);
    assert_int_equal(cdyn_particle_set_fixed(s->sys, s->p[n], true), CDYN_OK);
    for (int i = 0; i < n; i++)
        rod(s, i, i + 1, 0.1, i % 2);
    gravity(s, 0, -9.81);
    if (general)
        add_star(s);
}

typedef void (*build_fn)(scene *, int, int, int);

static void two_paths_300_301(scene *s, int dim, int n, int general)
{
    (void)n;
    two_paths(s, dim, 300, 301, general);
}

/* Steps the kernel's scene and the general path's side by side and
 * compares positions, velocities, multipliers and forces. */
static void against_general(const char *what, build_fn build, int dim, int n, double dt,
                            int steps, int evaluate, double min_iterations)
{
    scene a, b;
    build(&a, dim, n, 0);
    build(&b, dim, n, 1);
    if (evaluate) {
        assert_int_equal(cdyn_system_evaluate(a.sys, NULL, 0), CDYN_OK);
        assert_int_equal(cdyn_system_evaluate(b.sys, NULL, 0), CDYN_OK);
    }
    for (int k = 0; k < steps; k++) {
        assert_int_equal(cdyn_system_step(a.sys, dt), CDYN_OK);
        assert_int_equal(cdyn_system_step(b.sys, dt), CDYN_OK);
    }
    double dx = 0, dv = 0, dl = 0, df = 0, lmax = 0, scale = 0;
    for (int i = 0; i < a.n_particles; i++) {
        double xa[3], xb[3], va[3], vb[3];
        cdyn_particle_get_position(a.sys, a.p[i], xa);
        cdyn_particle_get_position(b.sys, b.p[i], xb);
        cdyn_particle_get_velocity(a.sys, a.p[i], va);
        cdyn_particle_get_velocity(b.sys, b.p[i], vb);
        for (int q = 0; q < dim; q++) {
            dx = fmax(dx, fabs(xa[q] - xb[q]));
            dv = fmax(dv, fabs(va[q] - vb[q]));
            scale = fmax(scale, fabs(xa[q]));
        }
    }
    for (int i = 0; i < a.n_rods; i++) {
        double la, lb, fa[3], fb[3];
        assert_int_equal(cdyn_constraint_get_multipliers(a.sys, a.rod[i], &la, 1), CDYN_OK);
        assert_int_equal(cdyn_constraint_get_multipliers(b.sys, b.rod[i], &lb, 1), CDYN_OK);
        assert_int_equal(cdyn_constraint_get_force(a.sys, a.rod[i], a.at[i], fa), CDYN_OK);
        assert_int_equal(cdyn_constraint_get_force(b.sys, b.rod[i], b.at[i], fb), CDYN_OK);
        dl = fmax(dl, fabs(la - lb));
        lmax = fmax(lmax, fabs(lb));
        for (int q = 0; q < dim; q++)
            df = fmax(df, fabs(fa[q] - fb[q]));
    }
    cdyn_projection_stats sa = {.size = sizeof sa};
    cdyn_system_get_projection_stats(a.sys, &sa);
    const double iters = (double)sa.position_iterations_total / steps;
    double pr, vr;
    assert_int_equal(cdyn_system_compute_constraint_residuals(a.sys, &pr, &vr), CDYN_OK);
    print_message("%s, %d-D: kernel and general projection differ by %.2e m, %.2e m/s; "
                  "multipliers by %.2e of %.2e, forces by %.2e N; %.2f position, %.2f velocity "
                  "iterations per step; residuals %.1e, %.1e\n",
                  what, dim, dx, dv, dl, lmax, df, iters,
                  (double)sa.velocity_iterations_total / steps, pr, vr);
    assert_true(dx < 1e-10 * fmax(scale, 1.0) && dv < 1e-8);
    assert_true(dl < 1e-6 * lmax && df < 1e-6 * lmax);
    assert_int_equal(sa.not_converged, 0);
    assert_true(iters >= min_iterations);
    assert_true(sa.position_residual <= 1e-12 && sa.velocity_residual <= 1e-12);
    assert_true(pr < 1e-12 * 0.1 * 2);
    cdyn_system_destroy(a.sys);
    cdyn_system_destroy(b.sys);
}

static void test_two_paths(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++)
        against_general("paths of 300 and 301 rods from a fixed hub", two_paths_300_301, dim, 0,
                        1e-3, 200, 1, 1.0);
}

static void test_free_chain(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        against_general("free chain of 256 rods", free_chain, dim, 256, 1e-3, 200, 0, 0.0);
        against_general("free chain of 257 rods", free_chain, dim, 257, 1e-3, 200, 0, 0.0);
    }
}

static void test_both_ends_fixed(void **state)
{
    (void)state;
    against_general("V of 400 rods fixed at both ends", v_chain, 2, 400, 1e-3, 200, 0, 1.0);
    against_general("V of 401 rods fixed at both ends", v_chain, 3, 401, 1e-3, 200, 0, 1.0);
}

/* Long steps from a cold start: more than one Newton iteration, so the
 * rebased iterations run. */
static void test_rebased_iterations(void **state)
{
    (void)state;
    against_general("V of 400 rods, dt = 4e-3", v_chain, 2, 400, 4e-3, 50, 0, 1.5);
    against_general("V of 301 rods, dt = 4e-3", v_chain, 3, 301, 4e-3, 50, 0, 1.5);
}

/* A taut straight chain between two fixed particles, gravity along it: its
 * rows are redundant (n rods fix n - 1 coordinates along the line), so the
 * twisted sweeps' pivots fail and the one-ended sweeps drop a row, as the
 * general path does. The multipliers are not unique then, but the chain
 * stays at rest and the rods hold every particle's weight. */
static void test_redundant_path(void **state)
{
    (void)state;
    for (int n = 300; n <= 301; n++)
        for (int general = 0; general < 2; general++) {
            scene s;
            begin(&s, 2, 1e-12);
            for (int i = 0; i <= n; i++)
                add(&s, 1.0 + 0.5 * (i % 2), 0.1 * i, 0, 0, 0);
            assert_int_equal(cdyn_particle_set_fixed(s.sys, s.p[0], true), CDYN_OK);
            assert_int_equal(cdyn_particle_set_fixed(s.sys, s.p[n], true), CDYN_OK);
            for (int i = 0; i < n; i++)
                rod(&s, i, i + 1, 0.1, 0);
            gravity(&s, -9.81, 0);
            if (general)
                add_star(&s);
            for (int k = 0; k < 20; k++)
                assert_int_equal(cdyn_system_step(s.sys, 1e-3), CDYN_OK);
            double drift = 0, speed = 0, imbalance = 0;
            for (int i = 1; i < n; i++) {
                double x[2], v[2], fa[2], fb[2];
                cdyn_particle_get_position(s.sys, s.p[i], x);
                cdyn_particle_get_velocity(s.sys, s.p[i], v);
                drift = fmax(drift, hypot(x[0] - 0.1 * i, x[1]));
                speed = fmax(speed, hypot(v[0], v[1]));
                /* Rod i - 1 ends at particle i, rod i starts there. */
                assert_int_equal(cdyn_constraint_get_force(s.sys, s.rod[i - 1], s.p[i], fa), CDYN_OK);
                assert_int_equal(cdyn_constraint_get_force(s.sys, s.rod[i], s.p[i], fb), CDYN_OK);
                imbalance = fmax(imbalance, fabs(fa[0] + fb[0] - 9.81 * (1.0 + 0.5 * (i % 2))));
            }
            cdyn_solver_stats st = {.size = sizeof st};
            cdyn_system_get_solver_stats(s.sys, &st);
            print_message("%d rods, %s: drift %.1e m, speed %.1e m/s, weight unbalanced by "
                          "%.1e N\n", n, general ? "general path" : "chain kernel", drift, speed,
                          imbalance);
            assert_true(drift < 1e-12 && speed < 1e-10);
            assert_true(imbalance < 1e-6);
            cdyn_system_destroy(s.sys);
        }
}

/* The velocities a force callback was last given. */
typedef struct seen {
    double v[3 * (MAX_RODS + 8)];
} seen;

static int record_velocities(const cdyn_system *sys, double t, size_t n, int dim,
                             const double *x, const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)x;
    memcpy(((seen *)user)->v, v, n * (size_t)dim * sizeof *v);
    for (size_t i = 0; i < n; i++)
        f[i * (size_t)dim + 1] -= 0.5; /* a push down on every bead */
    return 0;
}

/* A callback declared velocity independent is still handed the half-step
 * velocities v_h = (x1 - x0) / h at the step's closing evaluation, on
 * every particle: the kernel, which keeps those of a path's inner
 * particles to itself, hands them over first. */
static void test_callback_sees_half_step_velocities(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        enum { N = 300 };
        const double h = 1e-3;
        scene s;
        free_chain(&s, dim, N, 0);
        static seen got;
        cdyn_force cb;
        assert_int_equal(cdyn_force_add_callback(s.sys, record_velocities, &got, false, &cb),
                         CDYN_OK);
        const size_t m = (size_t)(N + 1) * (size_t)dim;
        double x0[3 * (N + 1)], x1[3 * (N + 1)];
        for (int k = 0; k < 3; k++) {
            assert_int_equal(cdyn_system_get_positions(s.sys, x0, m), CDYN_OK);
            assert_int_equal(cdyn_system_step(s.sys, h), CDYN_OK);
            assert_int_equal(cdyn_system_get_positions(s.sys, x1, m), CDYN_OK);
            double worst = 0;
            for (size_t i = 0; i < m; i++)
                worst = fmax(worst, fabs(got.v[i] - (x1[i] - x0[i]) / h));
            print_message("%d-D, step %d: |v - (x1 - x0) / h| <= %.1e m/s\n", dim, k, worst);
            assert_true(worst < 1e-9);
        }
        cdyn_system_destroy(s.sys);
    }
}

/* A chain of n rods hanging from a fixed pivot, slanted and swinging, of
 * unequal masses: logical particle i is added as the perm(i)-th particle,
 * and the rods are added from the pivot down or, with @p from_free_end,
 * from the free end up (the path then runs from the free end). */
static void numbered_chain(scene *s, int dim, int n, int scrambled, int from_free_end)
{
    begin(s, dim, 1e-12);
    cdyn_particle by_logical[MAX_RODS + 1];
    /* i -> 11 i mod (n + 1) permutes 0..n when 11 does not divide n + 1. */
    for (int j = 0; j <= n; j++) {
        const int i = scrambled ? (11 * j) % (n + 1) : j;
        by_logical[i] = add(s, 1.0 + 0.5 * (i % 3), 0.08 * i, -0.06 * i, 0.0,
                            dim == 3 ? 0.1 * sin(0.3 * i) : 0.0);
    }
    for (int i = 0; i <= n; i++)
        s->p[i] = by_logical[i];
    assert_int_equal(cdyn_particle_set_fixed(s->sys, s->p[0], true), CDYN_OK);
    for (int k = 0; k < n; k++) {
        const int i = from_free_end ? n - 1 - k : k;
        rod(s, i, i + 1, 0.1, i % 3 == 2);
    }
    gravity(s, 0.5, -9.81);
}

/* The kernel computes the particle and row indices of a chain numbered in
 * order along it instead of loading them: the same arithmetic, so the same
 * bits as the same chain numbered out of order, in either direction of the
 * path. */
static void test_numbering(void **state)
{
    (void)state;
    enum { N = 300 };
    for (int dim = 2; dim <= 3; dim++)
        for (int from_free_end = 0; from_free_end < 2; from_free_end++) {
            scene a, b;
            numbered_chain(&a, dim, N, 0, from_free_end);
            numbered_chain(&b, dim, N, 1, from_free_end);
            for (int k = 0; k < 100; k++) {
                assert_int_equal(cdyn_system_step(a.sys, 1e-3), CDYN_OK);
                assert_int_equal(cdyn_system_step(b.sys, 1e-3), CDYN_OK);
            }
            int differ = 0;
            for (int i = 0; i <= N; i++) {
                double xa[3] = {0}, xb[3] = {0}, va[3] = {0}, vb[3] = {0};
                cdyn_particle_get_position(a.sys, a.p[i], xa);
                cdyn_particle_get_position(b.sys, b.p[i], xb);
                cdyn_particle_get_velocity(a.sys, a.p[i], va);
                cdyn_particle_get_velocity(b.sys, b.p[i], vb);
                differ += memcmp(xa, xb, sizeof xa) != 0 || memcmp(va, vb, sizeof va) != 0;
            }
            for (int r = 0; r < N; r++) {
                double la, lb;
                assert_int_equal(cdyn_constraint_get_multipliers(a.sys, a.rod[r], &la, 1), CDYN_OK);
                assert_int_equal(cdyn_constraint_get_multipliers(b.sys, b.rod[r], &lb, 1), CDYN_OK);
                differ += memcmp(&la, &lb, sizeof la) != 0;
            }
            double xa[3];
            cdyn_particle_get_position(a.sys, a.p[N], xa);
            print_message("%d-D, rods added from the %s: free end at (%.6f, %.6f); %d values "
                          "differ between the numberings\n",
                          dim, from_free_end ? "free end" : "pivot", xa[0], xa[1], differ);
            assert_int_equal(differ, 0);
            assert_true(xa[1] < -0.06 * N); /* it fell */
            cdyn_system_destroy(a.sys);
            cdyn_system_destroy(b.sys);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_paths),
        cmocka_unit_test(test_free_chain),
        cmocka_unit_test(test_both_ends_fixed),
        cmocka_unit_test(test_rebased_iterations),
        cmocka_unit_test(test_redundant_path),
        cmocka_unit_test(test_callback_sees_half_step_velocities),
        cmocka_unit_test(test_numbering),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
