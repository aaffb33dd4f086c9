/* Internal: Jacobi-preconditioned conjugate gradient (src/solver/cg.c):
 * agreement with LDL^T, warm start, iteration cap, singular but consistent
 * systems, no allocation per solve, out-of-memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "core/alloc.h"
#include "solver/cg.h"
#include "solver/ldlt.h"
#include "solver/symmat.h"
#include "support.h"

static uint64_t rng = 0xda942042e4dd58b5ULL;

static double next_unit(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}

/* Cloth: an n x n grid of unit-mass particles, two corners pinned, a rod on
 * every grid edge; A = G W G^T with the particles slightly displaced in 3-D
 * so that the rods are not all aligned. */
static cdyn__symmat cloth(uint32_t n, int pin)
{
    cdyn_allocator al = cdyn__allocator_default();
    const uint32_t np = n * n, m = 2 * n * (n - 1);
    uint32_t *ends = malloc(2 * (size_t)m * sizeof *ends), t = 0;
    double *x = malloc(3 * (size_t)np * sizeof *x), *winv = malloc(np * sizeof *winv);
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t c = 0; c < n; c++) {
            uint32_t p = y * n + c;
            x[3 * p] = 0.1 * c + 0.01 * (next_unit() - 0.5);
            x[3 * p + 1] = 0.1 * y + 0.01 * (next_unit() - 0.5);
            x[3 * p + 2] = 0.02 * (next_unit() - 0.5);
            winv[p] = (pin && y == 0 && (c == 0 || c == n - 1)) ? 0.0 : 1.0;
            if (c + 1 < n) {
                ends[2 * t] = p;
                ends[2 * t + 1] = p + 1;
                t++;
            }
            if (y + 1 < n) {
                ends[2 * t] = p;
                ends[2 * t + 1] = p + n;
                t++;
            }
        }
    uint32_t *gp = calloc((size_t)np + 1, sizeof *gp), *gr = malloc(2 * (size_t)m * sizeof *gr);
    uint32_t *cur = malloc(np * sizeof *cur);
    for (uint32_t k = 0; k < 2 * m; k++)
        gp[ends[k] + 1]++;
    for (uint32_t i = 0; i < np; i++)
        gp[i + 1] += gp[i];
    memcpy(cur, gp, np * sizeof *cur);
    for (uint32_t k = 0; k < 2 * m; k++)
        gr[cur[ends[k]]++] = k / 2;
    cdyn__symmat a;
    cdyn__symmat_init(&a);
    assert_int_equal(cdyn__symmat_build_groups(&a, &al, m, np, gp, gr), CDYN_OK);
    /* A(s, t) = sum over shared particles p of +-u_s . u_t / m_p. */
    double *u = malloc(3 * (size_t)m * sizeof *u);
    for (uint32_t k = 0; k < m; k++) {
        const double *xa = x + 3 * ends[2 * k], *xb = x + 3 * ends[2 * k + 1];
        double d[3] = {xa[0] - xb[0], xa[1] - xb[1], xa[2] - xb[2]};
        double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int c = 0; c < 3; c++)
            u[3 * k + c] = d[c] / len;
    }
    for (uint32_t p = 0; p < np; p++)
        for (uint32_t i = gp[p]; i < gp[p + 1]; i++)
            for (uint32_t j = gp[p]; j <= i; j++) {
                uint32_t s = gr[i], r = gr[j];
                double ss = ends[2 * s] == p ? 1.0 : -1.0, sr = ends[2 * r] == p ? 1.0 : -1.0;
                double dot = u[3 * s] * u[3 * r] + u[3 * s + 1] * u[3 * r + 1] +
                             u[3 * s + 2] * u[3 * r + 2];
                uint32_t pos;
                assert_int_equal(cdyn__symmat_find(&a, s, r, &pos), CDYN_OK);
                a.val[pos] += ss * sr * dot * winv[p];
            }
    free(u);
    free(gp);
    free(gr);
    free(cur);
    free(x);
    free(winv);
    free(ends);
    return a;
}

static double max_abs_diff(const double *a, const double *b, uint32_t n)
{
    double m = 0.0;
    for (uint32_t i = 0; i < n; i++)
        m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

static double max_abs(const double *a, uint32_t n)
{
    double m = 0.0;
    for (uint32_t i = 0; i < n; i++)
        m = fmax(m, fabs(a[i]));
    return m;
}

static void ldlt_solution(const cdyn__symmat *a, const double *diag_add, const double *b,
                          double *x)
{
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__ldlt f;
    cdyn__ldlt_init(&f);
    assert_int_equal(cdyn__ldlt_analyze(&f, a, &al, NULL), CDYN_OK);
    memcpy(x, b, a->n * sizeof *x);
    assert_int_equal(cdyn__ldlt_factor_solve(&f, a, diag_add, 1e-12, x), CDYN_OK);
    assert_int_equal(f.nredundant, 0);
    cdyn__ldlt_destroy(&f, &al);
}

static void test_agrees_with_ldlt(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    const uint32_t sizes[] = {6, 20, 40};
    for (size_t s = 0; s < 3; s++) {
        cdyn__symmat a = cloth(sizes[s], 1);
        const uint32_t n = a.n;
        double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x);
        double *xd = malloc(n * sizeof *xd), *alpha = malloc(n * sizeof *alpha);
        for (uint32_t i = 0; i < n; i++) {
            b[i] = 2.0 * next_unit() - 1.0;
            alpha[i] = 1e-3 * next_unit();
        }
        cdyn__cg cg;
        cdyn__cg_init(&cg);
        assert_int_equal(cdyn__cg_reserve(&cg, &al, n), CDYN_OK);
        for (int soft = 0; soft < 2; soft++) {
            const double *add = soft ? alpha : NULL;
            ldlt_solution(&a, add, b, xd);
            memset(x, 0, n * sizeof *x);
            cdyn__cg_report rep;
            assert_int_equal(cdyn__cg_solve(&cg, &a, add, b, x, 1e-10, 10 * n, &rep), CDYN_OK);
            assert_true(rep.relres <= 1e-10);
            assert_true(rep.iterations > 0 && rep.iterations < 10 * n);
            double r = -1.0;
            double *res = malloc(n * sizeof *res);
            cdyn__symmat_residual(&a, add, x, b, res, &r, NULL);
            free(res);
            assert_true(r < 1e-9);
            /* The solutions agree to the tolerance times the conditioning
             * (cloth systems are mildly ill-conditioned). */
            assert_true(max_abs_diff(x, xd, n) <= 1e-6 * max_abs(xd, n));
            print_message("cloth %ux%u (%u rows)%s: %u CG iterations, relres %.2e\n",
                          sizes[s], sizes[s], n, soft ? " + compliance" : "", rep.iterations,
                          rep.relres);

            /* Warm start from the direct solution: nothing (or one step) to do. */
            memcpy(x, xd, n * sizeof *x);
            assert_int_equal(cdyn__cg_solve(&cg, &a, add, b, x, 1e-10, 10 * n, &rep), CDYN_OK);
            assert_true(rep.iterations <= 1);
            /* Warm start from a nearby guess: fewer iterations than cold. */
            cdyn__cg_report cold;
            memset(x, 0, n * sizeof *x);
            assert_int_equal(cdyn__cg_solve(&cg, &a, add, b, x, 1e-10, 10 * n, &cold), CDYN_OK);
            for (uint32_t i = 0; i < n; i++)
                x[i] = xd[i] * (1.0 + 1e-4 * (next_unit() - 0.5));
            assert_int_equal(cdyn__cg_solve(&cg, &a, add, b, x, 1e-10, 10 * n, &rep), CDYN_OK);
            assert_true(rep.iterations < cold.iterations);
        }
        cdyn__cg_destroy(&cg, &al);
        free(b);
        free(x);
        free(xd);
        free(alpha);
        cdyn__symmat_destroy(&a, &al);
    }
}

static void test_iteration_cap(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__symmat a = cloth(20, 1);
    const uint32_t n = a.n;
    double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x);
    for (uint32_t i = 0; i < n; i++)
        b[i] = 2.0 * next_unit() - 1.0;
    cdyn__cg cg;
    cdyn__cg_init(&cg);
    assert_int_equal(cdyn__cg_reserve(&cg, &al, n), CDYN_OK);
    memset(x, 0, n * sizeof *x);
    cdyn__cg_report rep;
    assert_int_equal(cdyn__cg_solve(&cg, &a, NULL, b, x, 1e-12, 3, &rep),
                     CDYN_ERR_NOT_CONVERGED);
    assert_int_equal(rep.iterations, 3);
    assert_true(rep.relres > 1e-12 && rep.relres < 1.0);
    for (uint32_t i = 0; i < n; i++)
        assert_true(isfinite(x[i]));
    /* A cap of zero: only the initial residual is measured. */
    memset(x, 0, n * sizeof *x);
    assert_int_equal(cdyn__cg_solve(&cg, &a, NULL, b, x, 1e-12, 0, &rep),
                     CDYN_ERR_NOT_CONVERGED);
    assert_int_equal(rep.iterations, 0);
    assert_true(fabs(rep.relres - 1.0) < 1e-15);
    assert_true(max_abs(x, n) == 0.0);
    cdyn__cg_destroy(&cg, &al);
    free(b);
    free(x);
    cdyn__symmat_destroy(&a, &al);
}

/* A = G G^T with a duplicated row (two identical rods): singular, and CG
 * still converges for a consistent right-hand side b = A y. The LDL^T drops
 * one of the two rows for the same system. */
static void test_singular_consistent(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    const uint32_t n = 30;
    uint32_t pairs[2 * 60], np = 0;
    for (uint32_t i = 0; i + 1 < n; i++) {
        pairs[2 * np] = i;
        pairs[2 * np + 1] = i + 1;
        np++;
    }
    /* Rod i joins particles i and i + 1 on a line, except rod 11, which
     * duplicates rod 10 (particles 10 and 11): it also couples with rod 9. */
    pairs[2 * np] = 9;
    pairs[2 * np + 1] = 11;
    np++;
    cdyn__symmat a;
    cdyn__symmat_init(&a);
    assert_int_equal(cdyn__symmat_build(&a, &al, n, np, pairs), CDYN_OK);
    double g[30][31];
    memset(g, 0, sizeof g);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = i == 11 ? 10 : i;
        g[i][r] = 1.0;
        g[i][r + 1] = -1.0;
    }
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t p = a.colptr[j]; p < a.colptr[j + 1]; p++) {
            uint32_t i = a.rowind[p];
            double s = 0.0;
            for (uint32_t c = 0; c < 31; c++)
                s += g[i][c] * g[j][c];
            a.val[p] = s;
        }
    double *y = malloc(n * sizeof *y), *b = malloc(n * sizeof *b), *x = calloc(n, sizeof *x);
    for (uint32_t i = 0; i < n; i++)
        y[i] = next_unit();
    cdyn__symmat_mul(&a, NULL, y, b);
    cdyn__cg cg;
    cdyn__cg_init(&cg);
    assert_int_equal(cdyn__cg_reserve(&cg, &al, n), CDYN_OK);
    cdyn__cg_report rep;
    assert_int_equal(cdyn__cg_solve(&cg, &a, NULL, b, x, 1e-12, 200, &rep), CDYN_OK);
    assert_true(rep.relres <= 1e-12);
    double r = -1.0, *res = malloc(n * sizeof *res);
    cdyn__symmat_residual(&a, NULL, x, b, res, &r, NULL);
    assert_true(r < 1e-12);
    free(res);
    cdyn__ldlt f;
    cdyn__ldlt_init(&f);
    assert_int_equal(cdyn__ldlt_analyze(&f, &a, &al, NULL), CDYN_OK);
    assert_int_equal(cdyn__ldlt_factor(&f, &a, NULL, 1e-10), CDYN_OK);
    assert_int_equal(f.nredundant, 1);
    assert_true(f.redundant[0] == 10 || f.redundant[0] == 11);
    cdyn__ldlt_destroy(&f, &al);
    cdyn__cg_destroy(&cg, &al);
    free(y);
    free(b);
    free(x);
    cdyn__symmat_destroy(&a, &al);
}

static void test_bad_input_and_zero_rhs(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__symmat a = cloth(5, 1);
    const uint32_t n = a.n;
    double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x), *x0 = malloc(n * sizeof *x0);
    for (uint32_t i = 0; i < n; i++) {
        b[i] = next_unit();
        x[i] = x0[i] = next_unit();
    }
    cdyn__cg cg;
    cdyn__cg_init(&cg);
    cdyn__cg_report rep;
    /* No workspace yet, then too small. */
    assert_int_equal(cdyn__cg_solve(&cg, &a, NULL, b, x, 1e-8, 100, &rep),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__cg_reserve(&cg, &al, n - 1), CDYN_OK);
    assert_int_equal(cdyn__cg_solve(&cg, &a, NULL, b, x, 1e-8, 100, &rep),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__cg_reserve(&cg, &al, n), CDYN_OK);
    assert_int_equal(cdyn__cg_solve(&cg, &a, NULL, b, x, 0.0, 100, &rep),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__cg_solve(&cg, &a, NULL, b, x, NAN, 100, &rep),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__cg_solve(&cg, &a, NULL, NULL, x, 1e-8, 100, &rep),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__cg_reserve(NULL, &al, n), CDYN_ERR_INVALID_ARGUMENT);
    /* Non-finite input anywhere: refused, x untouched. */
    b[3] = NAN;
    assert_int_equal(cdyn__cg_solve(&cg, &a, NULL, b, x, 1e-8, 100, &rep),
                     CDYN_ERR_INVALID_ARGUMENT);
    b[3] = 0.5;
    double saved = a.val[7];
    a.val[7] = INFINITY;
    assert_int_equal(cdyn__cg_solve(&cg, &a, NULL, b, x, 1e-8, 100, &rep),
                     CDYN_ERR_INVALID_ARGUMENT);
    a.val[7] = saved;
    double *alpha = calloc(n, sizeof *alpha);
    alpha[n - 1] = NAN;
    assert_int_equal(cdyn__cg_solve(&cg, &a, alpha, b, x, 1e-8, 100, &rep),
                     CDYN_ERR_INVALID_ARGUMENT);
    x[0] = INFINITY;
    assert_int_equal(cdyn__cg_solve(&cg, &a, NULL, b, x, 1e-8, 100, &rep),
                     CDYN_ERR_INVALID_ARGUMENT);
    x[0] = x0[0];
    assert_memory_equal(x, x0, n * sizeof *x);
    /* b = 0: x = 0 at once. */
    memset(b, 0, n * sizeof *b);
    assert_int_equal(cdyn__cg_solve(&cg, &a, NULL, b, x, 1e-8, 100, &rep), CDYN_OK);
    assert_int_equal(rep.iterations, 0);
    assert_true(max_abs(x, n) == 0.0);
    assert_int_equal(cdyn__cg_solve(&cg, &a, NULL, b, x, 1e-8, 100, NULL), CDYN_OK);
    /* An empty system. */
    cdyn__symmat e;
    cdyn__symmat_init(&e);
    assert_int_equal(cdyn__cg_solve(&cg, &e, NULL, NULL, NULL, 1e-8, 100, &rep), CDYN_OK);
    cdyn__cg_destroy(&cg, &al);
    cdyn__cg_destroy(&cg, &al);
    cdyn__cg_destroy(NULL, &al);
    free(alpha);
    free(b);
    free(x);
    free(x0);
    cdyn__symmat_destroy(&a, &al);
}

static void test_no_allocation_per_solve(void **state)
{
    (void)state;
    ts_counting_alloc ca = {0};
    cdyn_allocator al = ts_counting_allocator(&ca);
    cdyn_allocator dal = cdyn__allocator_default();
    cdyn__symmat a = cloth(12, 1);
    const uint32_t n = a.n;
    cdyn__cg cg;
    cdyn__cg_init(&cg);
    assert_int_equal(cdyn__cg_reserve(&cg, &al, n), CDYN_OK);
    const size_t allocs = ca.allocs;
    /* Reserving no more than the capacity does not allocate either. */
    assert_int_equal(cdyn__cg_reserve(&cg, &al, n / 2), CDYN_OK);
    assert_int_equal(cdyn__cg_reserve(&cg, &al, n), CDYN_OK);
    double *b = malloc(n * sizeof *b), *x = calloc(n, sizeof *x);
    for (int step = 0; step < 10; step++) {
        for (uint32_t i = 0; i < n; i++)
            b[i] = next_unit() - 0.5;
        assert_int_equal(cdyn__cg_solve(&cg, &a, NULL, b, x, 1e-10, 5 * n, NULL), CDYN_OK);
    }
    assert_int_equal(ca.allocs, allocs);
    cdyn__cg_destroy(&cg, &al);
    assert_int_equal(ca.live_bytes, 0);
    free(b);
    free(x);
    cdyn__symmat_destroy(&a, &dal);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    int succeeded = 0;
    for (size_t fail = 1; !succeeded; fail++) {
        ts_counting_alloc ca = {0};
        cdyn_allocator al = ts_counting_allocator(&ca);
        cdyn__cg cg;
        cdyn__cg_init(&cg);
        assert_int_equal(cdyn__cg_reserve(&cg, &al, 10), CDYN_OK);
        double *r = cg.r;
        size_t live = ca.live_bytes;
        ca.fail_at = ca.allocs + fail;
        cdyn_status st = cdyn__cg_reserve(&cg, &al, 1000);
        if (st == CDYN_OK) {
            succeeded = 1;
            assert_int_equal(cg.capacity, 1000);
        } else {
            assert_int_equal(st, CDYN_ERR_NO_MEMORY);
            assert_int_equal(ca.live_bytes, live);
            assert_int_equal(cg.capacity, 10);
            assert_ptr_equal(cg.r, r);
        }
        cdyn__cg_destroy(&cg, &al);
        assert_int_equal(ca.live_bytes, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agrees_with_ldlt),
        cmocka_unit_test(test_iteration_cap),
        cmocka_unit_test(test_singular_consistent),
        cmocka_unit_test(test_bad_input_and_zero_rhs),
        cmocka_unit_test(test_no_allocation_per_solve),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
