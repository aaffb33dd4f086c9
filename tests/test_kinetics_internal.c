/* White-box tests of the kinetics internals: the sparse LU (solves against
 * a dense elimination, pivoting, refactorization and its pivot check,
 * singular matrices), the minimum-degree order (no fill on a path and on
 * an arrow), the analytic Jacobian against differences of the rates, the
 * BDF coefficients (constant steps give the classical BDF polynomial; the
 * order-change polynomial keeps the past values) and integer powers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "core/alloc.h"
#include "kinetics/bdf_coeffs.h"
#include "kinetics/jacobian.h"
#include "kinetics/kinetics.h"
#include "kinetics/min_degree.h"
#include "kinetics/rates.h"
#include "kinetics/sparse_lu.h"
#include "support.h"

/* A sparse matrix in compressed columns built from a dense one. */
typedef struct csc {
    size_t n, *col, *row;
    double *val;
} csc;

static csc from_dense(const double *a, size_t n, const unsigned char *pattern)
{
    csc m = {n, calloc(n + 1, sizeof(size_t)), malloc(n * n * sizeof(size_t) + 1),
             malloc(n * n * sizeof(double) + 1)};
    size_t e = 0;
    for (size_t k = 0; k < n; k++) {
        for (size_t i = 0; i < n; i++)
            if (pattern[i * n + k]) {
                m.row[e] = i;
                m.val[e++] = a[i * n + k];
            }
        m.col[k + 1] = e;
    }
    return m;
}

static void free_csc(csc *m)
{
    free(m->col), free(m->row), free(m->val);
}

/* Dense Gaussian elimination with partial pivoting: x = A^-1 b. */
static void dense_solve(const double *a0, const double *b, size_t n, double *x)
{
    double *a = malloc(n * n * sizeof *a);
    memcpy(a, a0, n * n * sizeof *a);
    memcpy(x, b, n * sizeof *x);
    for (size_t k = 0; k < n; k++) {
        size_t p = k;
        for (size_t i = k; i < n; i++)
            if (fabs(a[i * n + k]) > fabs(a[p * n + k]))
                p = i;
        for (size_t j = 0; j < n; j++) {
            double t = a[k * n + j];
            a[k * n + j] = a[p * n + j];
            a[p * n + j] = t;
        }
        double t = x[k];
        x[k] = x[p];
        x[p] = t;
        for (size_t i = k + 1; i < n; i++) {
            double f = a[i * n + k] / a[k * n + k];
            for (size_t j = k; j < n; j++)
                a[i * n + j] -= f * a[k * n + j];
            x[i] -= f * x[k];
        }
    }
    for (size_t k = n; k-- > 0;) {
        for (size_t j = k + 1; j < n; j++)
            x[k] -= a[k * n + j] * x[j];
        x[k] /= a[k * n + k];
    }
    free(a);
}

/* Factors @p m with a minimum-degree order and returns the LU. */
static cdyn__kin_lu factor(const cdyn_allocator *al, const csc *m, cdyn_status want)
{
    size_t *perm = malloc(m->n * sizeof *perm);
    assert_int_equal(cdyn__kin_min_degree(al, m->n, m->col, m->row, perm), CDYN_OK);
    cdyn__kin_lu lu;
    assert_int_equal(cdyn__kin_lu_init(al, &lu, m->n, perm, 1e-3, m->col, m->row), CDYN_OK);
    assert_int_equal(cdyn__kin_lu_factor(al, &lu, m->col, m->row, m->val), want);
    free(perm);
    return lu;
}

static double solve_error(const cdyn__kin_lu *lu, const double *a, size_t n, uint64_t *seed)
{
    double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x), *w = malloc(n * sizeof *w);
    double *xd = malloc(n * sizeof *xd);
    for (size_t i = 0; i < n; i++)
        b[i] = ts_rand_sym(seed);
    memcpy(x, b, n * sizeof *x);
    cdyn__kin_lu_solve(lu, x, w);
    dense_solve(a, b, n, xd);
    double e = 0, s = 0;
    for (size_t i = 0; i < n; i++) {
        e = fmax(e, fabs(x[i] - xd[i]));
        s = fmax(s, fabs(xd[i]));
    }
    free(b), free(x), free(w), free(xd);
    return e / s;
}

static void test_lu_random(void **state)
{
    (void)state;
    cdyn_allocator al;
    cdyn__allocator_init(&al, NULL);
    uint64_t seed = 99;
    enum { N = 60 };
    double *a = calloc(N * N, sizeof *a);
    unsigned char *pat = calloc(N * N, 1);
    for (int trial = 0; trial < 10; trial++) {
        memset(a, 0, N * N * sizeof *a);
        memset(pat, 0, N * N);
        for (size_t i = 0; i < N; i++)
            for (size_t j = 0; j < N; j++)
                if (i == j || ts_rand_sym(&seed) > 0.85) {
                    pat[i * N + j] = 1;
                    a[i * N + j] = ts_rand_sym(&seed);
                }
        /* every third trial: zero diagonals, which need row pivoting (and
         * an entry below each, so that the matrix stays regular) */
        for (size_t i = 0; i < N; i++)
            if (trial % 3 == 2 && i % 4 == 1) {
                a[i * N + i] = 0.0;
                pat[((i + 1) % N) * N + i] = 1;
                a[((i + 1) % N) * N + i] = 3.0;
            } else {
                a[i * N + i] += 4.0 * (i % 2 ? 1 : -1);
            }
        csc m = from_dense(a, N, pat);
        cdyn__kin_lu lu = factor(&al, &m, CDYN_OK);
        double e = solve_error(&lu, a, N, &seed);
        assert_true(e < 1e-12);
        /* new values on the same pattern: refactor with the same pivots */
        for (size_t p = 0; p < m.col[N]; p++)
            m.val[p] *= 1.0 + 0.1 * ts_rand_sym(&seed);
        for (size_t k = 0; k < N; k++)
            for (size_t p = m.col[k]; p < m.col[k + 1]; p++)
                a[m.row[p] * N + k] = m.val[p];
        if (cdyn__kin_lu_refactor(&lu, m.col, m.row, m.val))
            assert_true(solve_error(&lu, a, N, &seed) < 1e-12);
        else
            assert_int_equal(cdyn__kin_lu_factor(&al, &lu, m.col, m.row, m.val), CDYN_OK);
        assert_true(solve_error(&lu, a, N, &seed) < 1e-12);
        cdyn__kin_lu_free(&al, &lu);
        free_csc(&m);
    }
    free(a), free(pat);
}

/* A pivot that becomes zero is caught by the refactorization; a fresh
 * factorization pivots around it. A zero column is singular. */
static void test_lu_pivots(void **state)
{
    (void)state;
    cdyn_allocator al;
    cdyn__allocator_init(&al, NULL);
    uint64_t seed = 5;
    double a[9] = {4, 1, 0, 1, 4, 1, 0, 1, 4};
    unsigned char pat[9] = {1, 1, 0, 1, 1, 1, 0, 1, 1};
    csc m = from_dense(a, 3, pat);
    cdyn__kin_lu lu = factor(&al, &m, CDYN_OK);
    assert_int_equal(cdyn__kin_lu_nonzeros(&lu), 7);
    /* A(0,0) = 0: the diagonal pivot of column 0 is gone */
    a[0] = 0.0;
    m.val[0] = 0.0;
    assert_false(cdyn__kin_lu_refactor(&lu, m.col, m.row, m.val));
    assert_int_equal(cdyn__kin_lu_factor(&al, &lu, m.col, m.row, m.val), CDYN_OK);
    assert_true(solve_error(&lu, a, 3, &seed) < 1e-14);
    cdyn__kin_lu_free(&al, &lu);
    /* a zero column */
    double z[9] = {1, 0, 2, 3, 0, 4, 5, 0, 6};
    unsigned char zp[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    csc mz = from_dense(z, 3, zp);
    lu = factor(&al, &mz, CDYN_ERR_SINGULAR);
    assert_false(lu.factored);
    cdyn__kin_lu_free(&al, &lu);
    free_csc(&m);
    free_csc(&mz);
}

/* Minimum degree on a path and on an arrow (a hub row and column): no
 * fill, although the arrow in its natural order fills completely. */
static void test_min_degree_no_fill(void **state)
{
    (void)state;
    cdyn_allocator al;
    cdyn__allocator_init(&al, NULL);
    enum { N = 40 };
    double *a = calloc(N * N, sizeof *a);
    unsigned char *pat = calloc(N * N, 1);
    for (int shape = 0; shape < 2; shape++) {
        memset(a, 0, N * N * sizeof *a);
        memset(pat, 0, N * N);
        size_t nnz = 0;
        for (size_t i = 0; i < N; i++)
            for (size_t j = 0; j < N; j++) {
                int on = shape == 0 ? (i == j || i + 1 == j || j + 1 == i)
                                    : (i == j || i == 0 || j == 0);
                if (on) {
                    pat[i * N + j] = 1;
                    a[i * N + j] = i == j ? 2.0 * N : -1.0;
                    nnz++;
                }
            }
        csc m = from_dense(a, N, pat);
        cdyn__kin_lu lu = factor(&al, &m, CDYN_OK);
        assert_int_equal(cdyn__kin_lu_nonzeros(&lu), nnz);
        uint64_t seed = 1;
        assert_true(solve_error(&lu, a, N, &seed) < 1e-13);
        cdyn__kin_lu_free(&al, &lu);
        free_csc(&m);
    }
    free(a), free(pat);
}

/* A user law of species 1, 4 and 7, and its derivatives. */
static int law(const cdyn_kinetics *kin, double t, const double *c, size_t n,
               double *rate, void *user)
{
    (void)kin;
    (void)t, (void)n, (void)user;
    *rate = c[1] * c[4] / (0.5 + c[7]) + 0.1 * t;
    return 0;
}

static int law_jac(const cdyn_kinetics *kin, double t, const double *c, size_t n,
                   double *d, void *user)
{
    (void)kin;
    (void)t, (void)n, (void)user;
    double q = 0.5 + c[7];
    d[0] = c[4] / q;
    d[1] = c[1] / q;
    d[2] = -c[1] * c[4] / (q * q);
    return 0;
}

/* The analytic Jacobian of a random network (coefficients up to 3, sources,
 * sinks, catalysts, user laws with and without derivatives) against
 * central differences of the species rates. */
static void test_jacobian_against_differences(void **state)
{
    (void)state;
    uint64_t seed = 2024;
    cdyn_kinetics *k;
    assert_int_equal(cdyn_kinetics_create(&k), CDYN_OK);
    enum { N = 12 };
    char name[8];
    for (int i = 0; i < N; i++) {
        name[0] = 'S';
        name[1] = (char)('a' + i);
        name[2] = '\0';
        assert_int_equal(cdyn_kinetics_add_species(k, name, 0.3 + 0.5 * (ts_rand_sym(&seed) + 1),
                                                   NULL),
                         CDYN_OK);
    }
    for (int r = 0; r < 30; r++) {
        size_t re[3], pr[3];
        int rc[3], pc[3];
        size_t nre = (size_t)(r % 4), npr = (size_t)((r / 4) % 3);
        for (size_t i = 0; i < 3; i++) {
            re[i] = (size_t)((ts_rand_sym(&seed) + 1) * 0.5 * N) % N;
            pr[i] = (size_t)((ts_rand_sym(&seed) + 1) * 0.5 * N) % N;
            rc[i] = 1 + (int)((ts_rand_sym(&seed) + 1) * 1.5) % 3;
            pc[i] = 1 + (int)((ts_rand_sym(&seed) + 1) * 1.5) % 3;
        }
        if (nre + npr == 0)
            npr = 1;
        assert_int_equal(cdyn_kinetics_add_reaction(k, nre, re, rc, npr, pr, pc,
                                                    0.2 + (ts_rand_sym(&seed) + 1), NULL),
                         CDYN_OK);
    }
    size_t deps[3] = {1, 4, 7}, x = 1, y = 9;
    cdyn_kinetics_add_rate_law(k, 1, &x, NULL, 1, &y, NULL, 3, deps, law, law_jac, NULL, NULL);
    cdyn_kinetics_add_rate_law(k, 1, &y, NULL, 1, &x, NULL, 3, deps, law, NULL, NULL, NULL);

    cdyn__kin_jac jac;
    assert_int_equal(cdyn__kin_jac_build(k, &jac), CDYN_OK);
    double c[N], scale[N], cwork[N], cp[N], fp[N], fm[N], v[64];
    size_t nr;
    cdyn_kinetics_get_reaction_count(k, &nr);
    assert_true(nr <= 64);
    cdyn_kinetics_get_concentrations(k, c, N);
    for (int i = 0; i < N; i++)
        scale[i] = 1e-6 * (fabs(c[i]) + 1e-3);
    assert_int_equal(cdyn__kin_jac_eval(k, "test", &jac, 0.3, c, scale, cwork), CDYN_OK);
    double worst = 0.0;
    for (size_t l = 0; l < N; l++) {
        double h = 1e-6 * c[l];
        memcpy(cp, c, sizeof cp);
        cp[l] = c[l] + h;
        cdyn__kin_species_rates(k, "test", 0.3, cp, v, fp);
        cp[l] = c[l] - h;
        cdyn__kin_species_rates(k, "test", 0.3, cp, v, fm);
        for (size_t i = 0; i < N; i++) {
            double want = (fp[i] - fm[i]) / (2 * h), got = 0.0;
            for (size_t p = jac.col[l]; p < jac.col[l + 1]; p++)
                if (jac.row[p] == i)
                    got = jac.val[p];
            double d = fabs(got - want) / (1.0 + fabs(want));
            worst = d > worst ? d : worst;
        }
    }
    print_message("Jacobian against central differences: largest difference %.2e\n", worst);
    assert_true(worst < 1e-6);
    /* the diagonal is in the pattern */
    for (size_t i = 0; i < N; i++)
        assert_int_equal(jac.row[jac.diag[i]], i);
    cdyn__kin_jac_free(&k->alloc, &jac);
    cdyn_kinetics_destroy(k);
}

/* Constant steps: Lambda(x) = prod_{i=1}^q (1 + x / i), the polynomial of
 * the classical BDF (l_1 = H_q). */
static void test_bdf_lambda_constant_steps(void **state)
{
    (void)state;
    double tau[CDYN__KIN_BDF_QMAX + 2], l[CDYN__KIN_BDF_QMAX + 1], p[CDYN__KIN_BDF_QMAX + 1];
    for (int i = 0; i < CDYN__KIN_BDF_QMAX + 2; i++)
        tau[i] = 0.25;
    for (int q = 1; q <= CDYN__KIN_BDF_QMAX; q++) {
        cdyn__kin_bdf_lambda(q, 0.25, tau, l);
        memset(p, 0, sizeof p);
        p[0] = 1.0;
        for (int i = 1; i <= q; i++)
            for (int j = i; j >= 1; j--)
                p[j] += p[j - 1] / i;
        for (int j = 0; j <= q; j++)
            assert_near(l[j], p[j], 1e-15);
        assert_near(l[1], cdyn__kin_bdf_harmonic(q), 1e-15);
    }
}

/* Variable steps: Lambda vanishes at the past points x = -xi_i, i < q,
 * keeps l_1 = H_q; psi has a double root at 0, roots at the m past points
 * and leading coefficient 1. */
static void test_bdf_variable_steps(void **state)
{
    (void)state;
    const double h = 0.3, tau[7] = {0, 0.2, 0.45, 0.1, 0.33, 0.27, 0.5};
    double l[6], psi[8];
    for (int q = 2; q <= 5; q++) {
        cdyn__kin_bdf_lambda(q, h, tau, l);
        assert_near(l[0], 1.0, 0.0);
        assert_near(l[1], cdyn__kin_bdf_harmonic(q), 1e-14);
        double xi = h;
        for (int i = 1; i < q; i++) {
            if (i > 1)
                xi += tau[i - 1];
            double x = -xi / h, s = 0.0;
            for (int j = q; j >= 0; j--)
                s = s * x + l[j];
            assert_near(s, 0.0, 1e-12);
        }
    }
    for (int m = 0; m <= 4; m++) {
        cdyn__kin_bdf_psi(m, h, tau, psi);
        assert_true(psi[0] == 0.0 && psi[1] == 0.0);
        assert_near(psi[m + 2], 1.0, 0.0);
        double xi = 0.0;
        for (int i = 1; i <= m; i++) {
            xi += tau[i];
            double x = -xi / h, s = 0.0;
            for (int j = m + 2; j >= 0; j--)
                s = s * x + psi[j];
            assert_near(s, 0.0, 1e-12);
        }
    }
    /* error factors: order q's is 1 / ((q + 1) H_q + 1), positive, falling */
    for (int q = 1; q <= 5; q++) {
        assert_near(cdyn__kin_bdf_error_q(q),
                    1.0 / ((q + 1) * cdyn__kin_bdf_harmonic(q) + 1.0), 1e-16);
        assert_true(cdyn__kin_bdf_error_up(q) > 0 && cdyn__kin_bdf_raise_factor(q) > 0);
        if (q > 1)
            assert_true(cdyn__kin_bdf_error_down(q) > 0);
    }
}

static void test_ipow(void **state)
{
    (void)state;
    assert_true(cdyn__kin_ipow(3.0, 0) == 1.0);
    assert_true(cdyn__kin_ipow(3.0, 1) == 3.0);
    assert_true(cdyn__kin_ipow(3.0, 5) == 243.0);
    assert_true(cdyn__kin_ipow(-2.0, 7) == -128.0);
    assert_true(cdyn__kin_ipow(0.5, 10) == 1.0 / 1024.0);
    assert_near(cdyn__kin_ipow(1.1, 1000), pow(1.1, 1000), 1e-12 * pow(1.1, 1000));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lu_random),
        cmocka_unit_test(test_lu_pivots),
        cmocka_unit_test(test_min_degree_no_fill),
        cmocka_unit_test(test_jacobian_against_differences),
        cmocka_unit_test(test_bdf_lambda_constant_steps),
        cmocka_unit_test(test_bdf_variable_steps),
        cmocka_unit_test(test_ipow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
