/* Internal: the sparse LDL^T factorization and solves (src/solver/ldlt.c):
 * accuracy against dense Cholesky, redundant and conflicting rows,
 * compliance, no allocation after analysis, out-of-memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "core/alloc.h"
#include "solver/ldlt.h"
#include "solver/symmat.h"
#include "sparse.h"
#include "support.h"

static uint64_t rng = 0x853c49e6748fea9bULL;

/* ---- patterns ---------------------------------------------------------- */

/* Rods: rod t joins particles ends[2t] and ends[2t + 1]. */
typedef struct rods {
    uint32_t np, m;
    uint32_t *ends;
} rods;

static void rods_add(rods *r, uint32_t a, uint32_t b)
{
    r->ends = realloc(r->ends, 2 * ((size_t)r->m + 1) * sizeof *r->ends);
    r->ends[2 * r->m] = a;
    r->ends[2 * r->m + 1] = b;
    r->m++;
}

/* The constraint graph of rods: one group per particle. */
static cdyn__symmat rods_pattern(const rods *r)
{
    cdyn_allocator al = cdyn__allocator_default();
    uint32_t *gp = calloc((size_t)r->np + 1, sizeof *gp);
    uint32_t *gr = malloc(2 * (size_t)r->m * sizeof *gr + 1);
    uint32_t *cur = malloc((size_t)r->np * sizeof *cur + 1);
    for (uint32_t t = 0; t < 2 * r->m; t++)
        gp[r->ends[t] + 1]++;
    for (uint32_t i = 0; i < r->np; i++)
        gp[i + 1] += gp[i];
    memcpy(cur, gp, r->np * sizeof *cur);
    for (uint32_t t = 0; t < 2 * r->m; t++)
        gr[cur[r->ends[t]]++] = t / 2;
    cdyn__symmat a;
    cdyn__symmat_init(&a);
    assert_int_equal(cdyn__symmat_build_groups(&a, &al, r->m, r->np, gp, gr), CDYN_OK);
    free(gp);
    free(gr);
    free(cur);
    return a;
}

static rods random_rod_tree(uint32_t np)
{
    rods r = {np, 0, NULL};
    for (uint32_t i = 1; i < np; i++)
        rods_add(&r, i, ts_below(&rng, i));
    return r;
}

static rods cloth_rods(uint32_t n)
{
    rods r = {n * n, 0, NULL};
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++) {
            if (x + 1 < n)
                rods_add(&r, y * n + x, y * n + x + 1);
            if (y + 1 < n)
                rods_add(&r, y * n + x, (y + 1) * n + x);
        }
    return r;
}

static cdyn__symmat rod_graph(rods r)
{
    cdyn__symmat a = rods_pattern(&r);
    free(r.ends);
    return a;
}

/* ---- values ------------------------------------------------------------- */

/* Random off-diagonals in [-1, 1], diagonal dominant: SPD. */
static void fill_spd(cdyn__symmat *m)
{
    double *rs = calloc((size_t)m->n + 1, sizeof *rs);
    for (uint32_t j = 0; j < m->n; j++)
        for (uint32_t p = m->colptr[j] + 1; p < m->colptr[j + 1]; p++) {
            m->val[p] = 2.0 * ts_unit(&rng) - 1.0;
            rs[j] += fabs(m->val[p]);
            rs[m->rowind[p]] += fabs(m->val[p]);
        }
    for (uint32_t j = 0; j < m->n; j++)
        m->val[m->colptr[j]] = rs[j] + 0.1 + ts_unit(&rng);
    free(rs);
}

/* A = G W G^T for the rods at positions x (3-D) with inverse masses winv:
 * rod t has gradient u at its first particle and -u at its second. */
static void fill_rods(cdyn__symmat *a, const rods *r, const double *x, const double *winv)
{
    cdyn__symmat_zero(a);
    double *u = malloc(3 * (size_t)r->m * sizeof *u + 1);
    for (uint32_t t = 0; t < r->m; t++) {
        const double *xa = x + 3 * r->ends[2 * t], *xb = x + 3 * r->ends[2 * t + 1];
        double d[3] = {xa[0] - xb[0], xa[1] - xb[1], xa[2] - xb[2]};
        double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int c = 0; c < 3; c++)
            u[3 * t + c] = d[c] / len;
    }
    for (uint32_t s = 0; s < r->m; s++)
        for (uint32_t t = 0; t <= s; t++)
            for (int es = 0; es < 2; es++)
                for (int et = 0; et < 2; et++) {
                    uint32_t p = r->ends[2 * s + es];
                    if (p != r->ends[2 * t + et])
                        continue;
                    double sign = (es == et) ? 1.0 : -1.0;
                    double g = sign * winv[p] *
                               (u[3 * s] * u[3 * t] + u[3 * s + 1] * u[3 * t + 1] +
                                u[3 * s + 2] * u[3 * t + 2]);
                    uint32_t pos;
                    assert_int_equal(cdyn__symmat_find(a, s, t, &pos), CDYN_OK);
                    a->val[pos] += g;
                }
    free(u);
}

/* ---- dense reference ---------------------------------------------------- */

static double *to_dense(const cdyn__symmat *m, const double *diag_add)
{
    const uint32_t n = m->n;
    double *d = calloc((size_t)n * n, sizeof *d);
    for (uint32_t j = 0; j < n; j++) {
        for (uint32_t p = m->colptr[j]; p < m->colptr[j + 1]; p++) {
            uint32_t i = m->rowind[p];
            d[(size_t)i * n + j] = d[(size_t)j * n + i] = m->val[p];
        }
        if (diag_add)
            d[(size_t)j * n + j] += diag_add[j];
    }
    return d;
}

/* Dense Cholesky solve of d x = b in place (d is overwritten). */
static void dense_cholesky_solve(double *d, uint32_t n, double *b)
{
    for (uint32_t j = 0; j < n; j++) {
        double s = d[(size_t)j * n + j];
        for (uint32_t k = 0; k < j; k++)
            s -= d[(size_t)j * n + k] * d[(size_t)j * n + k];
        assert_true(s > 0.0);
        double ljj = sqrt(s);
        d[(size_t)j * n + j] = ljj;
        for (uint32_t i = j + 1; i < n; i++) {
            double t = d[(size_t)i * n + j];
            for (uint32_t k = 0; k < j; k++)
                t -= d[(size_t)i * n + k] * d[(size_t)j * n + k];
            d[(size_t)i * n + j] = t / ljj;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t k = 0; k < i; k++)
            b[i] -= d[(size_t)i * n + k] * b[k];
        b[i] /= d[(size_t)i * n + i];
    }
    for (uint32_t i = n; i-- > 0;) {
        for (uint32_t k = i + 1; k < n; k++)
            b[i] -= d[(size_t)k * n + i] * b[k];
        b[i] /= d[(size_t)i * n + i];
    }
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

static double residual_of(const cdyn__symmat *a, const double *diag_add, const double *x,
                          const double *b, uint32_t *worst)
{
    double *r = malloc(((size_t)a->n + 1) * sizeof *r), rel = -1.0;
    cdyn__symmat_residual(a, diag_add, x, b, r, &rel, worst);
    free(r);
    return rel;
}

/* ---- tests --------------------------------------------------------------- */

/* Solves one SPD system three ways (factor_solve, factor + solve, and a
 * second solve with the same factorization); returns the relative residual
 * and leaves the solution in x. */
static double solve_checked(cdyn__symmat *a, const double *diag_add, const double *b,
                            double *x, const uint32_t *order)
{
    cdyn_allocator al = cdyn__allocator_default();
    const uint32_t n = a->n;
    cdyn__ldlt f;
    cdyn__ldlt_init(&f);
    assert_int_equal(cdyn__ldlt_analyze(&f, a, &al, order), CDYN_OK);
    memcpy(x, b, n * sizeof *x);
    assert_int_equal(cdyn__ldlt_factor_solve(&f, a, diag_add, 1e-12, x), CDYN_OK);
    assert_int_equal(f.nredundant, 0);
    double *x2 = malloc(((size_t)n + 1) * sizeof *x2);
    memcpy(x2, b, n * sizeof *x2);
    assert_int_equal(cdyn__ldlt_factor(&f, a, diag_add, 1e-12), CDYN_OK);
    assert_int_equal(cdyn__ldlt_solve(&f, x2), CDYN_OK);
    /* Same factorization, the forward solve fused or not: equal to rounding. */
    assert_true(max_abs_diff(x, x2, n) <= 1e-13 * (1.0 + max_abs(x, n)));
    memcpy(x2, b, n * sizeof *x2);
    assert_int_equal(cdyn__ldlt_solve(&f, x2), CDYN_OK); /* solves repeat */
    assert_true(max_abs_diff(x, x2, n) <= 1e-13 * (1.0 + max_abs(x, n)));
    free(x2);
    cdyn__ldlt_destroy(&f, &al);
    return residual_of(a, diag_add, x, b, NULL);
}

static void check_against_dense(cdyn__symmat *a)
{
    const uint32_t n = a->n;
    fill_spd(a);
    double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x);
    for (uint32_t i = 0; i < n; i++)
        b[i] = 2.0 * ts_unit(&rng) - 1.0;
    double rel = solve_checked(a, NULL, b, x, NULL);
    assert_true(rel < 1e-14);
    double *d = to_dense(a, NULL), *xd = malloc(n * sizeof *xd);
    memcpy(xd, b, n * sizeof *xd);
    dense_cholesky_solve(d, n, xd);
    assert_true(max_abs_diff(x, xd, n) <= 1e-12 * max_abs(xd, n));
    /* A caller's order (here the natural one) gives the same solution. */
    uint32_t *id = malloc(n * sizeof *id);
    for (uint32_t i = 0; i < n; i++)
        id[i] = i;
    rel = solve_checked(a, NULL, b, x, id);
    assert_true(rel < 1e-14);
    assert_true(max_abs_diff(x, xd, n) <= 1e-12 * max_abs(xd, n));
    free(id);
    free(d);
    free(xd);
    free(b);
    free(x);
}

static void test_against_dense_cholesky(void **state)
{
    (void)state;
    cdyn__symmat mats[] = {
        ts_symmat_chain(1), ts_symmat_chain(2), ts_symmat_chain(3), ts_symmat_chain(101), ts_symmat_random_tree(150, &rng, 0), ts_symmat_random_tree(7, &rng, 0),
        rod_graph(random_rod_tree(120)), ts_symmat_grid(12, 11), rod_graph(cloth_rods(9)),
        ts_symmat_random_graph(150, 400, &rng), ts_symmat_random_graph(200, 120, &rng),
    };
    cdyn_allocator al = cdyn__allocator_default();
    for (size_t t = 0; t < sizeof mats / sizeof mats[0]; t++) {
        check_against_dense(&mats[t]);
        cdyn__symmat_destroy(&mats[t], &al);
    }
}

static void test_large_systems(void **state)
{
    (void)state;
    cdyn__symmat mats[] = {ts_symmat_chain(200000), ts_symmat_random_tree(50000, &rng, 0),
                           rod_graph(random_rod_tree(30000)), rod_graph(cloth_rods(40)),
                           ts_symmat_random_graph(5000, 8000, &rng)};
    cdyn_allocator al = cdyn__allocator_default();
    for (size_t t = 0; t < sizeof mats / sizeof mats[0]; t++) {
        const uint32_t n = mats[t].n;
        fill_spd(&mats[t]);
        double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x);
        for (uint32_t i = 0; i < n; i++)
            b[i] = 2.0 * ts_unit(&rng) - 1.0;
        assert_true(solve_checked(&mats[t], NULL, b, x, NULL) < 1e-14);
        free(b);
        free(x);
        cdyn__symmat_destroy(&mats[t], &al);
    }
}

/* A hanging chain of np particles (particle 0 fixed) with rods i-(i+1), and
 * extra rods given by the caller. Positions on a gentle zigzag in 3-D. */
static rods chain_rods(uint32_t np, double *x, double *winv)
{
    rods r = {np, 0, NULL};
    for (uint32_t i = 0; i < np; i++) {
        x[3 * i] = 0.1 * i;
        x[3 * i + 1] = 0.03 * (double)(i % 2) - 0.02 * i;
        x[3 * i + 2] = 0.01 * (double)(i % 3);
        winv[i] = i == 0 ? 0.0 : 1.0 / (1.0 + 0.1 * i);
    }
    for (uint32_t i = 0; i + 1 < np; i++)
        rods_add(&r, i, i + 1);
    return r;
}

/* Factors the rods' A, checks the dropped rows are exactly one of @p cand,
 * then solves a consistent and an inconsistent right-hand side. */
static void check_redundant(rods *r, const double *x, const double *winv,
                            const uint32_t *cand, size_t ncand)
{
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__symmat a = rods_pattern(r);
    fill_rods(&a, r, x, winv);
    const uint32_t n = a.n;
    cdyn__ldlt f;
    cdyn__ldlt_init(&f);
    assert_int_equal(cdyn__ldlt_analyze(&f, &a, &al, NULL), CDYN_OK);
    assert_int_equal(cdyn__ldlt_factor(&f, &a, NULL, 1e-10), CDYN_OK);
    assert_int_equal(f.nredundant, 1);
    int found = 0;
    for (size_t c = 0; c < ncand; c++)
        found |= f.redundant[0] == cand[c];
    assert_true(found);
    const uint32_t dropped = f.redundant[0];

    /* Consistent: b = A y. */
    double *y = malloc(n * sizeof *y), *b = malloc(n * sizeof *b), *s = malloc(n * sizeof *s);
    for (uint32_t i = 0; i < n; i++)
        y[i] = 2.0 * ts_unit(&rng) - 1.0;
    cdyn__symmat_mul(&a, NULL, y, b);
    memcpy(s, b, n * sizeof *s);
    assert_int_equal(cdyn__ldlt_solve(&f, s), CDYN_OK);
    assert_true(s[dropped] == 0.0);
    for (uint32_t i = 0; i < n; i++)
        assert_true(isfinite(s[i]));
    assert_true(residual_of(&a, NULL, s, b, NULL) < 1e-12);
    /* factor_solve drops the same row and gives the same answer. */
    double *s2 = malloc(n * sizeof *s2);
    memcpy(s2, b, n * sizeof *s2);
    assert_int_equal(cdyn__ldlt_factor_solve(&f, &a, NULL, 1e-10, s2), CDYN_OK);
    assert_int_equal(f.nredundant, 1);
    assert_int_equal(f.redundant[0], dropped);
    assert_true(max_abs_diff(s, s2, n) <= 1e-12 * (1.0 + max_abs(s, n)));

    /* Inconsistent: the candidates disagree; the dropped row is left over. */
    b[cand[0]] += 0.5;
    memcpy(s, b, n * sizeof *s);
    assert_int_equal(cdyn__ldlt_solve(&f, s), CDYN_OK);
    for (uint32_t i = 0; i < n; i++)
        assert_true(isfinite(s[i]));
    uint32_t worst = UINT32_MAX;
    double rel = residual_of(&a, NULL, s, b, &worst);
    assert_true(rel > 1e-3);
    assert_int_equal(worst, dropped);

    /* Compliance regularizes: nothing dropped, the softened system solved. */
    double *alpha = malloc(n * sizeof *alpha);
    for (uint32_t i = 0; i < n; i++)
        alpha[i] = 1e-6;
    memcpy(s, b, n * sizeof *s);
    assert_int_equal(cdyn__ldlt_factor_solve(&f, &a, alpha, 1e-10, s), CDYN_OK);
    assert_int_equal(f.nredundant, 0);
    assert_true(residual_of(&a, alpha, s, b, NULL) < 1e-12);

    free(alpha);
    free(s2);
    free(s);
    free(b);
    free(y);
    cdyn__ldlt_destroy(&f, &al);
    cdyn__symmat_destroy(&a, &al);
}

static void test_redundant_duplicate_row(void **state)
{
    (void)state;
    enum { NP = 12 };
    double x[3 * NP], winv[NP];
    rods r = chain_rods(NP, x, winv);
    rods_add(&r, 4, 5); /* the same rod as rod 4: a duplicated row */
    const uint32_t cand[] = {4, r.m - 1};
    check_redundant(&r, x, winv, cand, 2);
    free(r.ends);
}

static void test_redundant_combination(void **state)
{
    (void)state;
    enum { NP = 12 };
    double x[3 * NP], winv[NP];
    rods r = chain_rods(NP, x, winv);
    /* Make particles 6, 7, 8 collinear and add rod 6-8: its gradient is the
     * sum of those of rods 6-7 and 7-8 (rows 6 and 7). */
    x[3 * 7] = 0.5 * (x[3 * 6] + x[3 * 8]);
    x[3 * 7 + 1] = 0.5 * (x[3 * 6 + 1] + x[3 * 8 + 1]);
    x[3 * 7 + 2] = 0.5 * (x[3 * 6 + 2] + x[3 * 8 + 2]);
    rods_add(&r, 6, 8);
    const uint32_t cand[] = {6, 7, r.m - 1};
    check_redundant(&r, x, winv, cand, 3);
    free(r.ends);
}

/* A closed loop of rods in a plane with one particle held: the loop has one
 * more rod than a tree, yet all rows stay independent: nothing dropped. */
static void test_independent_loop_not_flagged(void **state)
{
    (void)state;
    enum { NP = 10 };
    double x[3 * NP], winv[NP];
    rods r = chain_rods(NP, x, winv);
    rods_add(&r, NP - 1, 0);
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__symmat a = rods_pattern(&r);
    fill_rods(&a, &r, x, winv);
    cdyn__ldlt f;
    cdyn__ldlt_init(&f);
    assert_int_equal(cdyn__ldlt_analyze(&f, &a, &al, NULL), CDYN_OK);
    assert_int_equal(cdyn__ldlt_factor(&f, &a, NULL, 1e-10), CDYN_OK);
    assert_int_equal(f.nredundant, 0);
    cdyn__ldlt_destroy(&f, &al);
    cdyn__symmat_destroy(&a, &al);
    free(r.ends);
}

static void test_compliance(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__symmat mats[] = {ts_symmat_chain(300), rod_graph(cloth_rods(8)), ts_symmat_random_graph(120, 300, &rng)};
    for (size_t t = 0; t < 3; t++) {
        cdyn__symmat *a = &mats[t];
        const uint32_t n = a->n;
        fill_spd(a);
        double *alpha = malloc(n * sizeof *alpha), *b = malloc(n * sizeof *b);
        double *x = malloc(n * sizeof *x), *x2 = malloc(n * sizeof *x2);
        for (uint32_t i = 0; i < n; i++) {
            alpha[i] = (i % 3) ? 0.5 * ts_unit(&rng) : 0.0;
            b[i] = 2.0 * ts_unit(&rng) - 1.0;
        }
        assert_true(solve_checked(a, alpha, b, x, NULL) < 1e-14);
        if (n <= 300) {
            double *d = to_dense(a, alpha);
            memcpy(x2, b, n * sizeof *x2);
            dense_cholesky_solve(d, n, x2);
            assert_true(max_abs_diff(x, x2, n) <= 1e-12 * max_abs(x2, n));
            free(d);
        }
        /* Adding alpha to the diagonal by hand gives the same bits. */
        for (uint32_t j = 0; j < n; j++)
            a->val[a->colptr[j]] += alpha[j];
        assert_true(solve_checked(a, NULL, b, x2, NULL) < 1e-14);
        assert_memory_equal(x, x2, n * sizeof *x);
        free(alpha);
        free(b);
        free(x);
        free(x2);
        cdyn__symmat_destroy(a, &al);
    }
}

static void test_no_allocation_after_analysis(void **state)
{
    (void)state;
    ts_counting_alloc ca = {0};
    cdyn_allocator al = ts_counting_allocator(&ca);
    cdyn__symmat a = rod_graph(cloth_rods(10));
    fill_spd(&a);
    cdyn__ldlt f;
    cdyn__ldlt_init(&f);
    assert_int_equal(cdyn__ldlt_analyze(&f, &a, &al, NULL), CDYN_OK);
    const size_t allocs = ca.allocs, live = ca.live_bytes;
    double *x = malloc(a.n * sizeof *x);
    for (int step = 0; step < 20; step++) {
        for (uint32_t i = 0; i < a.n; i++)
            x[i] = ts_unit(&rng);
        assert_int_equal(cdyn__ldlt_factor(&f, &a, NULL, 1e-12), CDYN_OK);
        assert_int_equal(cdyn__ldlt_solve(&f, x), CDYN_OK);
        assert_int_equal(cdyn__ldlt_factor_solve(&f, &a, NULL, 1e-12, x), CDYN_OK);
    }
    assert_int_equal(ca.allocs, allocs);
    assert_int_equal(ca.live_bytes, live);
    free(x);
    cdyn__ldlt_destroy(&f, &al);
    assert_int_equal(ca.live_bytes, 0);
    cdyn_allocator dal = cdyn__allocator_default();
    cdyn__symmat_destroy(&a, &dal);
}

static void test_bad_input(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__symmat a = ts_symmat_chain(10), other = ts_symmat_chain(11);
    fill_spd(&a);
    fill_spd(&other);
    double x[11] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    cdyn__ldlt f;
    cdyn__ldlt_init(&f);
    /* Not analysed yet. */
    assert_int_equal(cdyn__ldlt_factor(&f, &a, NULL, 1e-12), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ldlt_solve(&f, x), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ldlt_analyze(NULL, &a, &al, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ldlt_analyze(&f, &a, &al, NULL), CDYN_OK);
    /* Analysed, not factored. */
    assert_int_equal(cdyn__ldlt_solve(&f, x), CDYN_ERR_INVALID_ARGUMENT);
    /* Another pattern. */
    assert_int_equal(cdyn__ldlt_factor(&f, &other, NULL, 1e-12), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ldlt_factor_solve(&f, &other, NULL, 1e-12, x),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ldlt_factor_solve(&f, &a, NULL, 1e-12, NULL),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ldlt_factor(&f, &a, NULL, 1e-12), CDYN_OK);
    assert_int_equal(cdyn__ldlt_solve(&f, NULL), CDYN_ERR_INVALID_ARGUMENT);
    /* A bad threshold is refused and keeps the factorization. */
    assert_int_equal(cdyn__ldlt_factor(&f, &a, NULL, -1.0), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ldlt_factor(&f, &a, NULL, NAN), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ldlt_factor(&f, &a, NULL, 1.0), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ldlt_solve(&f, x), CDYN_OK);
    /* Non-finite values: refused, and the old factorization is gone. */
    for (int kind = 0; kind < 3; kind++) {
        double saved = a.val[kind == 0 ? 0 : 5];
        a.val[kind == 0 ? 0 : 5] = kind == 2 ? INFINITY : NAN;
        double before[11];
        memcpy(before, x, sizeof x);
        assert_int_equal(cdyn__ldlt_factor_solve(&f, &a, NULL, 1e-12, x),
                         CDYN_ERR_INVALID_ARGUMENT);
        assert_memory_equal(before, x, sizeof x);
        assert_int_equal(cdyn__ldlt_solve(&f, x), CDYN_ERR_INVALID_ARGUMENT);
        a.val[kind == 0 ? 0 : 5] = saved;
    }
    double nan_add[10] = {0, 0, 0, NAN, 0, 0, 0, 0, 0, 0};
    assert_int_equal(cdyn__ldlt_factor(&f, &a, nan_add, 1e-12), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ldlt_factor(&f, &a, NULL, 1e-12), CDYN_OK);
    assert_int_equal(cdyn__ldlt_solve(&f, x), CDYN_OK);
    cdyn__ldlt_destroy(&f, &al);
    cdyn__ldlt_destroy(&f, &al);
    cdyn__ldlt_destroy(NULL, &al);
    cdyn__symmat_destroy(&a, &al);
    cdyn__symmat_destroy(&other, &al);
}

static void test_zero_rows_are_dropped(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    /* Rows 2 and 5 are all zero (a degenerate constraint): dropped, the rest
     * solved, their multipliers 0. */
    cdyn__symmat a = ts_symmat_chain(8);
    fill_spd(&a);
    for (uint32_t j = 0; j < a.n; j++)
        for (uint32_t p = a.colptr[j]; p < a.colptr[j + 1]; p++)
            if (j == 2 || j == 5 || a.rowind[p] == 2 || a.rowind[p] == 5)
                a.val[p] = 0.0;
    cdyn__ldlt f;
    cdyn__ldlt_init(&f);
    assert_int_equal(cdyn__ldlt_analyze(&f, &a, &al, NULL), CDYN_OK);
    double b[8] = {1, -1, 0, 2, 0.5, 0, -3, 1}, x[8];
    memcpy(x, b, sizeof x);
    assert_int_equal(cdyn__ldlt_factor_solve(&f, &a, NULL, 0.0, x), CDYN_OK);
    assert_int_equal(f.nredundant, 2);
    assert_true((f.redundant[0] == 2 && f.redundant[1] == 5) ||
                (f.redundant[0] == 5 && f.redundant[1] == 2));
    assert_true(x[2] == 0.0 && x[5] == 0.0);
    assert_true(residual_of(&a, NULL, x, b, NULL) < 1e-14);
    cdyn__ldlt_destroy(&f, &al);
    cdyn__symmat_destroy(&a, &al);
}

static void test_empty(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__symmat a;
    cdyn__symmat_init(&a);
    cdyn__ldlt f;
    cdyn__ldlt_init(&f);
    assert_int_equal(cdyn__ldlt_analyze(&f, &a, &al, NULL), CDYN_OK);
    assert_int_equal(cdyn__ldlt_factor(&f, &a, NULL, 1e-12), CDYN_OK);
    assert_int_equal(cdyn__ldlt_solve(&f, NULL), CDYN_OK);
    assert_int_equal(cdyn__ldlt_factor_solve(&f, &a, NULL, 1e-12, NULL), CDYN_OK);
    cdyn__ldlt_destroy(&f, &al);
}

/* Failing the Nth allocation of the analysis, for every N: out of memory,
 * no leak, and a previous analysis still works. */
static void test_out_of_memory(void **state)
{
    (void)state;
    cdyn_allocator dal = cdyn__allocator_default();
    cdyn__symmat mats[] = {rod_graph(cloth_rods(5)), ts_symmat_chain(40), ts_symmat_random_tree(60, &rng, 0)};
    for (size_t t = 0; t < 3; t++) {
        cdyn__symmat *a = &mats[t];
        const uint32_t n = a->n;
        fill_spd(a);
        double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x), *x0 = malloc(n * sizeof *x0);
        for (uint32_t i = 0; i < n; i++)
            b[i] = ts_unit(&rng);
        int succeeded = 0;
        for (size_t fail = 1; !succeeded; fail++) {
            ts_counting_alloc ca = {0};
            cdyn_allocator al = ts_counting_allocator(&ca);
            cdyn__ldlt f;
            cdyn__ldlt_init(&f);
            /* A first, good analysis; then one under failure. */
            assert_int_equal(cdyn__ldlt_analyze(&f, a, &al, NULL), CDYN_OK);
            memcpy(x0, b, n * sizeof *x0);
            assert_int_equal(cdyn__ldlt_factor_solve(&f, a, NULL, 1e-12, x0), CDYN_OK);
            size_t live = ca.live_bytes;
            ca.fail_at = ca.allocs + fail;
            cdyn_status st = cdyn__ldlt_analyze(&f, a, &al, NULL);
            if (st == CDYN_OK) {
                assert_false(ca.failed);
                succeeded = 1;
            } else {
                assert_int_equal(st, CDYN_ERR_NO_MEMORY);
                assert_int_equal(ca.live_bytes, live);
            }
            memcpy(x, b, n * sizeof *x);
            assert_int_equal(cdyn__ldlt_factor_solve(&f, a, NULL, 1e-12, x), CDYN_OK);
            assert_memory_equal(x, x0, n * sizeof *x);
            cdyn__ldlt_destroy(&f, &al);
            assert_int_equal(ca.live_bytes, 0);
            assert_int_equal(ca.allocs - (size_t)ca.failed, ca.frees);
            /* And from scratch. */
            ts_counting_alloc cb = {0};
            cb.fail_at = fail;
            cdyn_allocator bl = ts_counting_allocator(&cb);
            cdyn__ldlt g;
            cdyn__ldlt_init(&g);
            st = cdyn__ldlt_analyze(&g, a, &bl, NULL);
            assert_true(st == CDYN_OK || st == CDYN_ERR_NO_MEMORY);
            if (st != CDYN_OK)
                assert_int_equal(cb.live_bytes, 0);
            cdyn__ldlt_destroy(&g, &bl);
            assert_int_equal(cb.live_bytes, 0);
        }
        free(b);
        free(x);
        free(x0);
        cdyn__symmat_destroy(a, &dal);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_dense_cholesky),
        cmocka_unit_test(test_large_systems),
        cmocka_unit_test(test_redundant_duplicate_row),
        cmocka_unit_test(test_redundant_combination),
        cmocka_unit_test(test_independent_loop_not_flagged),
        cmocka_unit_test(test_compliance),
        cmocka_unit_test(test_no_allocation_after_analysis),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_zero_rows_are_dropped),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
