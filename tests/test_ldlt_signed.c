/* Internal: LDL^T with prescribed pivot signs (src/solver/ldlt_signed.c),
 * the solver of backward Euler's KKT systems [[J, G^T], [G, -C]]:
 * accuracy against dense elimination on random quasi-definite systems in
 * two valid orders, the shift diag_add, a redundant constraint row, pivots
 * of the wrong sign on either kind of row (reported, scratch left clean),
 * non-finite input, no allocation after the analysis. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "core/alloc.h"
#include "solver/ldlt_signed.h"
#include "solver/symmat.h"
#include "support.h"

#define NV 40
#define NC 12
#define N (NV + NC)

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static double urand(void)
{
    return 0.5 * (ts_rand_sym(&rng) + 1.0);
}

/* A random KKT system: J = SPD (diagonally dominant, couplings between
 * neighbours and a few random pairs), G rows on 2 or 3 velocity rows,
 * C = 0 on even rows and random on odd ones. Dense copy in dense[N][N]. */
typedef struct kkt {
    cdyn__symmat a;
    double dense[N][N];
    int8_t sign[N];
    uint32_t last_v[NC]; /* the largest velocity row of each constraint */
} kkt;

static void set(kkt *k, uint32_t i, uint32_t j, double v)
{
    k->dense[i][j] = v;
    k->dense[j][i] = v;
}

static void build(kkt *k, const cdyn_allocator *al, int redundant)
{
    memset(k, 0, sizeof *k);
    uint32_t pairs[2 * 400];
    size_t np = 0;
    for (uint32_t i = 0; i + 1 < NV; i++) {
        set(k, i + 1, i, -urand());
        pairs[2 * np] = i + 1, pairs[2 * np + 1] = i, np++;
    }
    for (int t = 0; t < 20; t++) {
        uint32_t i = (uint32_t)(urand() * NV) % NV, j = (uint32_t)(urand() * NV) % NV;
        if (i == j || k->dense[i][j] != 0)
            continue;
        set(k, i, j, 0.5 * ts_rand_sym(&rng));
        pairs[2 * np] = i, pairs[2 * np + 1] = j, np++;
    }
    for (uint32_t i = 0; i < NV; i++) {
        double s = 0;
        for (uint32_t j = 0; j < NV; j++)
            s += j != i ? fabs(k->dense[i][j]) : 0.0;
        k->dense[i][i] = s + 0.5 + urand();
        k->sign[i] = 1;
    }
    for (uint32_t r = 0; r < NC; r++) {
        uint32_t row = NV + r;
        k->sign[row] = -1;
        int m = 2 + (int)(r % 2);
        for (int t = 0; t < m; t++) {
            uint32_t j = (r * 7 + (uint32_t)t * 13) % NV;
            set(k, row, j, ts_rand_sym(&rng) + (t == 0 ? 2.0 : 0.0));
            pairs[2 * np] = row, pairs[2 * np + 1] = j, np++;
            k->last_v[r] = j > k->last_v[r] ? j : k->last_v[r];
        }
        k->dense[row][row] = (r % 2) ? -0.1 * urand() : 0.0;
    }
    if (redundant) { /* the last row repeats the first */
        for (uint32_t j = 0; j < NV; j++) {
            set(k, N - 1, j, k->dense[NV][j]);
        }
        k->dense[N - 1][N - 1] = 0;
        k->dense[NV][NV] = 0;
        for (uint32_t j = 0; j < NV; j++)
            if (k->dense[NV][j] != 0) {
                pairs[2 * np] = N - 1, pairs[2 * np + 1] = j, np++;
            }
        k->last_v[NC - 1] = k->last_v[0];
    }
    cdyn__symmat_init(&k->a);
    assert_int_equal(cdyn__symmat_build(&k->a, al, N, np, pairs), CDYN_OK);
    for (uint32_t j = 0; j < N; j++)
        for (uint32_t p = k->a.colptr[j]; p < k->a.colptr[j + 1]; p++)
            k->a.val[p] = k->dense[k->a.rowind[p]][j];
}

/* Dense Gaussian elimination with partial pivoting: x = A^-1 b. */
static void dense_solve(double a[N][N], const double *b, double *x)
{
    static double m[N][N + 1];
    for (int i = 0; i < N; i++) {
        memcpy(m[i], a[i], N * sizeof(double));
        m[i][N] = b[i];
    }
    for (int c = 0; c < N; c++) {
        int p = c;
        for (int r = c + 1; r < N; r++)
            if (fabs(m[r][c]) > fabs(m[p][c]))
                p = r;
        for (int q = 0; q <= N; q++) {
            double t = m[c][q];
            m[c][q] = m[p][q];
            m[p][q] = t;
        }
        for (int r = c + 1; r < N; r++) {
            double f = m[r][c] / m[c][c];
            for (int q = c; q <= N; q++)
                m[r][q] -= f * m[c][q];
        }
    }
    for (int r = N - 1; r >= 0; r--) {
        double s = m[r][N];
        for (int q = r + 1; q < N; q++)
            s -= m[r][q] * x[q];
        x[r] = s / m[r][r];
    }
}

/* Orders with every constraint row after its velocity rows: 0 = all
 * velocities then all rows; 1 = velocities backwards, each row right after
 * its last velocity (in that backward order: its smallest). */
static void make_order(const kkt *k, int kind, uint32_t *order)
{
    uint32_t n = 0;
    if (kind == 0) {
        for (uint32_t i = 0; i < N; i++)
            order[n++] = i;
        return;
    }
    for (uint32_t i = NV; i-- > 0;) {
        order[n++] = i;
        for (uint32_t r = 0; r < NC; r++) {
            uint32_t first = NV;
            for (uint32_t j = 0; j < NV; j++)
                if (k->dense[NV + r][j] != 0 && j < first)
                    first = j;
            if (first == i)
                order[n++] = NV + r;
        }
    }
    assert_int_equal(n, N);
}

static void test_accuracy(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    static kkt k;
    double worst = 0;
    for (int trial = 0; trial < 20; trial++) {
        build(&k, &al, 0);
        for (int kind = 0; kind < 2; kind++) {
            uint32_t order[N];
            make_order(&k, kind, order);
            cdyn__ldlt_signed f;
            cdyn__ldlt_signed_init(&f);
            assert_int_equal(cdyn__ldlt_signed_analyze(&f, &k.a, &al, order), CDYN_OK);
            /* with and without a shift on the velocity rows */
            for (int shifted = 0; shifted < 2; shifted++) {
                double da[N] = {0};
                if (shifted)
                    for (int i = 0; i < NV; i++) {
                        da[i] = 0.3;
                        k.dense[i][i] += 0.3;
                    }
                assert_int_equal(cdyn__ldlt_signed_factor(&f, &k.a, shifted ? da : NULL, k.sign,
                                                          1e-10), CDYN_OK);
                assert_int_equal(f.nredundant, 0);
                assert_int_equal(f.bad_row, CDYN__LDLT_SIGNED_NONE);
                double b[N], x[N], ref[N];
                for (int i = 0; i < N; i++)
                    b[i] = x[i] = ts_rand_sym(&rng);
                assert_int_equal(cdyn__ldlt_signed_solve(&f, x), CDYN_OK);
                dense_solve(k.dense, b, ref);
                for (int i = 0; i < N; i++) {
                    double e = fabs(x[i] - ref[i]) / (1.0 + fabs(ref[i]));
                    worst = e > worst ? e : worst;
                }
                if (shifted)
                    for (int i = 0; i < NV; i++)
                        k.dense[i][i] -= 0.3;
            }
            cdyn__ldlt_signed_destroy(&f, &al);
        }
        cdyn__symmat_destroy(&k.a, &al);
    }
    print_message("signed LDL^T vs dense elimination, 80 solves of order %d: max error %.2e\n",
                  N, worst);
    assert_true(worst < 1e-11);
}

static void test_redundant(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    static kkt k;
    build(&k, &al, 1);
    uint32_t order[N];
    make_order(&k, 0, order);
    cdyn__ldlt_signed f;
    cdyn__ldlt_signed_init(&f);
    assert_int_equal(cdyn__ldlt_signed_analyze(&f, &k.a, &al, order), CDYN_OK);
    assert_int_equal(cdyn__ldlt_signed_factor(&f, &k.a, NULL, k.sign, 1e-10), CDYN_OK);
    assert_int_equal(f.nredundant, 1);
    /* A consistent right-hand side (the duplicate rows agree): the solution
     * satisfies every row, the dropped row's unknown is 0. */
    double b[N], x[N], r[N];
    for (int i = 0; i < N; i++)
        b[i] = ts_rand_sym(&rng);
    b[N - 1] = b[NV];
    memcpy(x, b, sizeof b);
    assert_int_equal(cdyn__ldlt_signed_solve(&f, x), CDYN_OK);
    double worst = 0;
    for (int i = 0; i < N; i++) {
        r[i] = b[i];
        for (int j = 0; j < N; j++)
            r[i] -= k.dense[i][j] * x[j];
        worst = fabs(r[i]) > worst ? fabs(r[i]) : worst;
    }
    assert_true(worst < 1e-12);
    assert_true(x[N - 1] == 0.0 || x[NV] == 0.0);
    cdyn__ldlt_signed_destroy(&f, &al);
    cdyn__symmat_destroy(&k.a, &al);
}

static void test_wrong_signs(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    static kkt k;
    build(&k, &al, 0);
    uint32_t order[N];
    make_order(&k, 0, order);
    cdyn__ldlt_signed f;
    cdyn__ldlt_signed_init(&f);
    assert_int_equal(cdyn__ldlt_signed_analyze(&f, &k.a, &al, order), CDYN_OK);
    /* J indefinite: a negative diagonal on velocity row 5. */
    uint32_t p5 = k.a.colptr[5];
    double keep = k.a.val[p5];
    k.a.val[p5] = -keep;
    assert_int_equal(cdyn__ldlt_signed_factor(&f, &k.a, NULL, k.sign, 1e-10), CDYN_ERR_SINGULAR);
    assert_int_equal(f.bad_row, 5);
    assert_true(f.bad_pivot < 0);
    double x[N] = {0};
    assert_int_equal(cdyn__ldlt_signed_solve(&f, x), CDYN_ERR_INVALID_ARGUMENT);
    /* A shift large enough lifts it. */
    double da[N] = {0};
    for (int i = 0; i < NV; i++)
        da[i] = 2.0 * keep + 1.0;
    assert_int_equal(cdyn__ldlt_signed_factor(&f, &k.a, da, k.sign, 1e-10), CDYN_OK);
    k.a.val[p5] = keep;
    /* A constraint row whose pivot comes out positive. */
    uint32_t pc = k.a.colptr[NV + 1];
    double keepc = k.a.val[pc];
    k.a.val[pc] = 1e6;
    assert_int_equal(cdyn__ldlt_signed_factor(&f, &k.a, NULL, k.sign, 1e-10), CDYN_ERR_SINGULAR);
    assert_int_equal(f.bad_row, NV + 1);
    k.a.val[pc] = keepc;
    /* The scratch is clean after the early exits: a good factor still
     * matches the dense solve. */
    assert_int_equal(cdyn__ldlt_signed_factor(&f, &k.a, NULL, k.sign, 1e-10), CDYN_OK);
    for (uint32_t i = 0; i < N; i++)
        assert_true(f.y[i] == 0.0);
    double b[N], ref[N];
    for (int i = 0; i < N; i++)
        b[i] = x[i] = ts_rand_sym(&rng);
    assert_int_equal(cdyn__ldlt_signed_solve(&f, x), CDYN_OK);
    dense_solve(k.dense, b, ref);
    for (int i = 0; i < N; i++)
        assert_near(x[i], ref[i], 1e-11 * (1 + fabs(ref[i])));
    /* Non-finite input and mismatched patterns. */
    k.a.val[p5] = NAN;
    assert_int_equal(cdyn__ldlt_signed_factor(&f, &k.a, NULL, k.sign, 1e-10),
                     CDYN_ERR_INVALID_ARGUMENT);
    k.a.val[p5] = keep;
    assert_int_equal(cdyn__ldlt_signed_factor(&f, &k.a, NULL, NULL, 1e-10),
                     CDYN_ERR_INVALID_ARGUMENT);
    cdyn__symmat other;
    cdyn__symmat_init(&other);
    assert_int_equal(cdyn__ldlt_signed_factor(&f, &other, NULL, k.sign, 1e-10),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__ldlt_signed_analyze(&f, &k.a, &al, NULL), CDYN_ERR_INVALID_ARGUMENT);
    cdyn__ldlt_signed_destroy(&f, &al);
    cdyn__ldlt_signed_destroy(&f, &al); /* twice: empty */
    cdyn__ldlt_signed_destroy(NULL, &al);
    cdyn__symmat_destroy(&k.a, &al);
}

static void test_no_allocation(void **state)
{
    (void)state;
    ts_counting_alloc ca;
    memset(&ca, 0, sizeof ca);
    cdyn_allocator al = ts_counting_allocator(&ca);
    static kkt k;
    build(&k, &al, 0);
    uint32_t order[N];
    make_order(&k, 1, order);
    cdyn__ldlt_signed f;
    cdyn__ldlt_signed_init(&f);
    assert_int_equal(cdyn__ldlt_signed_analyze(&f, &k.a, &al, order), CDYN_OK);
    size_t allocs = ca.allocs;
    double x[N];
    for (int t = 0; t < 10; t++) {
        assert_int_equal(cdyn__ldlt_signed_factor(&f, &k.a, NULL, k.sign, 1e-10), CDYN_OK);
        for (int i = 0; i < N; i++)
            x[i] = 1.0;
        assert_int_equal(cdyn__ldlt_signed_solve(&f, x), CDYN_OK);
    }
    assert_int_equal(ca.allocs, allocs);
    /* Every allocation of an analysis fails cleanly: the target keeps
     * what it had, nothing leaks. */
    size_t live = ca.live_bytes, before = ca.allocs;
    cdyn__ldlt_signed g;
    cdyn__ldlt_signed_init(&g);
    assert_int_equal(cdyn__ldlt_signed_analyze(&g, &k.a, &al, order), CDYN_OK);
    size_t per_analysis = ca.allocs - before;
    cdyn__ldlt_signed_destroy(&g, &al);
    for (size_t q = 1; q <= per_analysis; q++) {
        ca.fail_at = ca.allocs + q;
        assert_int_equal(cdyn__ldlt_signed_analyze(&f, &k.a, &al, order), CDYN_ERR_NO_MEMORY);
        ca.fail_at = 0;
        assert_int_equal(ca.live_bytes, live);
        assert_int_equal(cdyn__ldlt_signed_factor(&f, &k.a, NULL, k.sign, 1e-10), CDYN_OK);
    }
    cdyn__ldlt_signed_destroy(&f, &al);
    cdyn__symmat_destroy(&k.a, &al);
    assert_int_equal(ca.live_bytes, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accuracy),
        cmocka_unit_test(test_redundant),
        cmocka_unit_test(test_wrong_signs),
        cmocka_unit_test(test_no_allocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
