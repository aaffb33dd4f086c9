/* The direct and CG solvers agree on large systems: a 1000-link chain (the
 * standard chain) and a 30 x 30 cloth of rods. CG
 * stops at a relative residual tol; the error of its multipliers is then
 * bounded by cond(A) * tol, estimated here from the structure. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stddef.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

typedef struct scene {
    cdyn_system *sys;
    cdyn_constraint *rods;
    size_t n_rods;
} scene;

static void standard_chain(scene *s, int n, cdyn_constraint_solver solver)
{
    assert_int_equal(cdyn_system_create(2, &s->sys), CDYN_OK);
    ts_set_solver(s->sys, solver);
    s->rods = malloc((size_t)n * sizeof *s->rods);
    s->n_rods = (size_t)n;
    assert_int_equal(ts_standard_chain(s->sys, n, NULL, s->rods), CDYN_OK);
}

/* N x N particles, rods along grid edges, two opposite corners fixed. (Two
 * corners of one edge would make that edge a taut line of rods between
 * fixed points: a self-stress, i.e. redundant rows, which is another test.) */
static void cloth(scene *s, int n, cdyn_constraint_solver solver)
{
    assert_int_equal(cdyn_system_create(3, &s->sys), CDYN_OK);
    ts_set_solver(s->sys, solver);
    cdyn_particle *p = malloc((size_t)(n * n) * sizeof *p);
    const double h = 0.05;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            cdyn_particle_add(s->sys, 0.01, (double[]){h * i, 0, -h * j}, NULL, &p[j * n + i]);
    cdyn_particle_set_fixed(s->sys, p[0], true);
    cdyn_particle_set_fixed(s->sys, p[n * n - 1], true);
    s->rods = malloc((size_t)(2 * n * (n - 1)) * sizeof *s->rods);
    s->n_rods = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (i + 1 < n)
                cdyn_constraint_add_distance(s->sys, p[j * n + i], p[j * n + i + 1], h,
                                             &s->rods[s->n_rods++]);
            if (j + 1 < n)
                cdyn_constraint_add_distance(s->sys, p[j * n + i], p[(j + 1) * n + i], h,
                                             &s->rods[s->n_rods++]);
        }
    /* Swing it: a sideways velocity field and gravity. */
    for (int k = 0; k < n * n; k++)
        cdyn_particle_set_velocity(s->sys, p[k], (double[]){0, 0.3 * (k % n) / n, 0});
    cdyn_force g;
    cdyn_force_add_gravity(s->sys, (double[]){0, 0, -9.81}, &g);
    free(p);
}

static void multipliers(const scene *s, double *out)
{
    assert_int_equal(cdyn_system_evaluate(s->sys, NULL, 0), CDYN_OK);
    for (size_t i = 0; i < s->n_rods; i++)
        assert_int_equal(cdyn_constraint_get_multipliers(s->sys, s->rods[i], &out[i], 1), CDYN_OK);
}

static void destroy(scene *s)
{
    cdyn_system_destroy(s->sys);
    free(s->rods);
}

static double rel_diff(const double *a, const double *b, size_t n)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        num += (a[i] - b[i]) * (a[i] - b[i]);
        den += a[i] * a[i];
    }
    return sqrt(num / den);
}

/* The largest coordinate difference between the positions of two scenes
 * with the same particles. */
static double position_gap(const scene *a, const scene *b)
{
    ts_state sa, sb;
    ts_state_capture(a->sys, &sa);
    ts_state_capture(b->sys, &sb);
    double worst = ts_state_max_diff(&sa, &sb, NULL);
    ts_state_free(&sa);
    ts_state_free(&sb);
    return worst;
}

static void compare(void (*build)(scene *, int, cdyn_constraint_solver), int n, double cond,
                    const char *name)
{
    /* A residual much below cond(A) * eps (about 1e-10 here) is out of
     * reach of CG in double precision. */
    const double tol = 1e-10;
    scene d, c;
    build(&d, n, CDYN_SOLVER_DIRECT);
    build(&c, n, CDYN_SOLVER_CG);
    ts_set_cg(c.sys, tol, 100000);
    /* Move both a little first so the state is not the symmetric start. */
    for (int i = 0; i < 20; i++) {
        assert_int_equal(cdyn_system_step(d.sys, 1e-3), CDYN_OK);
        assert_int_equal(cdyn_system_step(c.sys, 1e-3), CDYN_OK);
    }
    double *ld = malloc(d.n_rods * sizeof *ld), *lc = malloc(c.n_rods * sizeof *lc);
    multipliers(&d, ld);
    multipliers(&c, lc);
    cdyn_solver_stats st = {.size = sizeof st};
    cdyn_system_get_solver_stats(c.sys, &st);
    double diff = rel_diff(lc, ld, d.n_rods);
    print_message("%s: %zu rods, CG %zu iterations, relative residual %.2e, "
                  "multiplier difference %.2e (bound cond * tol = %.1e)\n",
                  name, d.n_rods, st.iterations, st.residual, diff, cond * tol);
    assert_true(st.residual <= tol);
    assert_true(st.cg_not_converged == 0);
    assert_true(diff <= cond * tol);
    /* And the trajectories stay together over a further run. */
    for (int i = 0; i < 50; i++) {
        cdyn_system_step(d.sys, 1e-3);
        cdyn_system_step(c.sys, 1e-3);
    }
    double worst = position_gap(&d, &c);
    print_message("%s: positions differ by at most %.2e after 70 steps\n", name, worst);
    assert_true(worst < 1e-8);
    free(ld), free(lc);
    destroy(&d);
    destroy(&c);
}

/* G W G^T of a chain hanging from a fixed pivot is L^2 times the tridiagonal
 * (2, -1) matrix with a 1 in the last corner: its condition number is below
 * (4 N / pi)^2 (eigenvalues from 2 - 2 cos). */
static void test_chain_1000(void **state)
{
    (void)state;
    const int n = 1000;
    compare(standard_chain, n, 4.0 * (4.0 * n / TS_PI) * (4.0 * n / TS_PI), "chain");
}

/* The cloth's rod graph is a grid; the Laplacian-like A has a condition
 * number of order (path length)^2 = (2 N)^2 with a constant that the
 * varying rod directions change; take 16 (2 N)^2. */
static void test_cloth_30(void **state)
{
    (void)state;
    const int n = 30;
    compare(cloth, n, 16.0 * (2.0 * n) * (2.0 * n), "cloth");
}

/* A chain of n rods in dim dimensions, hanging from a fixed pivot and
 * released from a slanted line, unequal masses. With in_order = 1 the rods
 * are added from the pivot down, so their rows form the tridiagonal pattern
 * that the two-sweep chain kernel takes (constraint_chain.c); with
 * in_order = 0 the even rods are added first, then the odd ones, so
 * neighbouring rods are not neighbouring rows and the general path (row
 * pass, assembly, sparse LDL^T) solves the same equations. s->rods[i] is
 * rod i either way. With fixed_pair the chain starts with a rod between two
 * fixed particles: a zero row, which the kernel hands to the general path
 * as redundant. */
static void ordered_chain(scene *s, int n, int dim, int in_order, double compliance,
                          int fixed_pair)
{
    assert_int_equal(cdyn_system_create(dim, &s->sys), CDYN_OK);
    int np = n + 1 + fixed_pair;
    cdyn_particle *p = malloc((size_t)np * sizeof *p);
    double x[3] = {0, 0, 0};
    cdyn_particle_add(s->sys, 1.0, x, NULL, &p[0]);
    cdyn_particle_set_fixed(s->sys, p[0], true);
    if (fixed_pair) {
        x[dim - 1] = 0.1;
        cdyn_particle_add(s->sys, 1.0, x, NULL, &p[1]);
        cdyn_particle_set_fixed(s->sys, p[1], true);
    }
    for (int i = 1 + fixed_pair; i < np; i++) {
        x[0] += 0.08, x[dim - 1] += 0.06;
        cdyn_particle_add(s->sys, 1.0 + 0.5 * (i % 3), x, NULL, &p[i]);
    }
    s->n_rods = (size_t)(np - 1);
    s->rods = malloc(s->n_rods * sizeof *s->rods);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < np - 1; i++) {
            if (in_order ? pass == 1 : i % 2 != pass)
                continue;
            assert_int_equal(cdyn_constraint_add_distance(s->sys, p[i], p[i + 1], 0.1,
                                                          &s->rods[i]),
                             CDYN_OK);
            if (compliance > 0)
                assert_int_equal(cdyn_constraint_set_compliance(s->sys, s->rods[i], compliance),
                                 CDYN_OK);
        }
    free(p);
    cdyn_force g;
    double gv[3] = {0, 0, 0};
    gv[dim - 1] = -9.81;
    cdyn_force_add_gravity(s->sys, gv, &g);
    cdyn_system_set_integrator(s->sys, CDYN_INTEGRATOR_SYMPLECTIC_EULER);
}

/* The chain kernel and the general path give the same motion and forces,
 * on a chain of @p n rods (from 256 rows, an even count of them and no
 * compliance, the kernel eliminates from both ends at once:
 * constraint_chain_twisted.c). */
static void kernel_against_general(int dim, double compliance, int fixed_pair, int n)
{
    scene a, b;
    ordered_chain(&a, n, dim, 1, compliance, fixed_pair);
    ordered_chain(&b, n, dim, 0, compliance, fixed_pair);
    for (int i = 0; i < 300; i++) {
        assert_int_equal(cdyn_system_step(a.sys, 1e-3), CDYN_OK);
        assert_int_equal(cdyn_system_step(b.sys, 1e-3), CDYN_OK);
    }
    double *la = malloc(a.n_rods * sizeof *la), *lb = malloc(b.n_rods * sizeof *lb);
    multipliers(&a, la);
    multipliers(&b, lb);
    cdyn_solver_stats sa = {.size = sizeof sa}, sb = {.size = sizeof sb};
    cdyn_system_get_solver_stats(a.sys, &sa);
    cdyn_system_get_solver_stats(b.sys, &sb);
    assert_int_equal(sa.redundant_rows, fixed_pair ? 1 : 0);
    assert_int_equal(sb.redundant_rows, sa.redundant_rows);
    assert_int_equal(sa.rows, sb.rows);
    double worst = position_gap(&a, &b);
    double diff = rel_diff(la, lb, a.n_rods);
    print_message("chain kernel, %d rows, %d-D%s%s: positions differ by %.2e m after 300 "
                  "steps, multipliers by %.2e (relative)\n", (int)a.n_rods, dim,
                  compliance > 0 ? ", compliant" : "", fixed_pair ? ", redundant first row" : "",
                  worst, diff);
    assert_true(worst < 1e-12);
    assert_true(diff < 1e-11);
    free(la), free(lb);
    destroy(&a);
    destroy(&b);
}

static void test_chain_kernel_2d(void **state)
{
    (void)state;
    kernel_against_general(2, 0.0, 0, 200);
}

static void test_chain_kernel_3d_compliant(void **state)
{
    (void)state;
    kernel_against_general(3, 1e-7, 0, 200);
}

static void test_chain_kernel_redundant_row(void **state)
{
    (void)state;
    kernel_against_general(2, 0.0, 1, 200);
}

/* 300 and 301 rows (an odd count leaves a row between the two ends'
 * sweeps): eliminated from both ends, in 2-D and 3-D; with the zero row
 * between two fixed particles the twisted sweeps hand the solve back, and
 * the general path drops the row. */
static void test_twisted_kernel(void **state)
{
    (void)state;
    kernel_against_general(2, 0.0, 0, 300);
    kernel_against_general(3, 0.0, 0, 300);
    kernel_against_general(2, 0.0, 0, 301);
    kernel_against_general(3, 0.0, 0, 301);
    kernel_against_general(2, 0.0, 1, 299);
    kernel_against_general(2, 0.0, 1, 300);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_1000),
        cmocka_unit_test(test_cloth_30),
        cmocka_unit_test(test_chain_kernel_2d),
        cmocka_unit_test(test_chain_kernel_3d_compliant),
        cmocka_unit_test(test_chain_kernel_redundant_row),
        cmocka_unit_test(test_twisted_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
