/* Internal: the symmetric lower-triangle CSC matrix (src/solver/symmat.c):
 * pattern building, entry lookup, products, residuals, out-of-memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "core/alloc.h"
#include "solver/symmat.h"
#include "support.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next_u64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double next_unit(void)
{
    return (double)(next_u64() >> 11) * (1.0 / 9007199254740992.0);
}

/* Random pairs in both triangles, with duplicates and self pairs. */
static uint32_t *random_pairs(uint32_t n, size_t npairs)
{
    uint32_t *p = malloc(2 * npairs * sizeof *p);
    for (size_t t = 0; t < npairs; t++) {
        p[2 * t] = (uint32_t)(next_u64() % n);
        p[2 * t + 1] = (uint32_t)(next_u64() % n);
    }
    return p;
}

/* Dense 0/1 adjacency (with diagonal) of the pairs. */
static unsigned char *dense_pattern(uint32_t n, size_t npairs, const uint32_t *pairs)
{
    unsigned char *d = calloc((size_t)n * n, 1);
    for (uint32_t i = 0; i < n; i++)
        d[(size_t)i * n + i] = 1;
    for (size_t t = 0; t < npairs; t++) {
        uint32_t a = pairs[2 * t], b = pairs[2 * t + 1];
        d[(size_t)a * n + b] = d[(size_t)b * n + a] = 1;
    }
    return d;
}

static void check_structure(const cdyn__symmat *m, const unsigned char *dense)
{
    const uint32_t n = m->n;
    assert_int_equal(m->colptr[0], 0);
    assert_int_equal(m->colptr[n], m->nnz);
    uint32_t count = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t p = m->colptr[j];
        assert_true(p < m->colptr[j + 1]);
        assert_int_equal(m->rowind[p], j); /* diagonal first */
        for (p++; p < m->colptr[j + 1]; p++) {
            assert_true(m->rowind[p] > m->rowind[p - 1]); /* ascending, no duplicate */
            assert_true(dense[(size_t)m->rowind[p] * n + j]);
        }
        for (uint32_t i = j; i < n; i++)
            count += dense[(size_t)i * n + j];
    }
    assert_int_equal(count, m->nnz);
    for (uint32_t p = 0; p < m->nnz; p++)
        assert_true(m->val[p] == 0.0);
}

static void test_build_pairs(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    for (uint32_t n = 1; n <= 60; n += 7) {
        size_t npairs = (size_t)n * 3;
        uint32_t *pairs = random_pairs(n, npairs);
        unsigned char *dense = dense_pattern(n, npairs, pairs);
        cdyn__symmat m;
        cdyn__symmat_init(&m);
        assert_int_equal(cdyn__symmat_build(&m, &al, n, npairs, pairs), CDYN_OK);
        assert_int_equal(m.n, n);
        check_structure(&m, dense);
        /* Rebuilding into a used matrix replaces it. */
        assert_int_equal(cdyn__symmat_build(&m, &al, n, 0, NULL), CDYN_OK);
        assert_int_equal(m.nnz, n);
        cdyn__symmat_destroy(&m, &al);
        free(dense);
        free(pairs);
    }
}

static void test_build_groups_matches_pairs(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    /* Rods on a 5 x 4 grid of particles: group = rods touching a particle. */
    const uint32_t w = 5, h = 4, np = w * h;
    uint32_t ends[2 * 64], m = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            if (x + 1 < w) {
                ends[2 * m] = y * w + x;
                ends[2 * m + 1] = y * w + x + 1;
                m++;
            }
            if (y + 1 < h) {
                ends[2 * m] = y * w + x;
                ends[2 * m + 1] = (y + 1) * w + x;
                m++;
            }
        }
    uint32_t gp[64] = {0}, gr[128], cur[64];
    for (uint32_t t = 0; t < 2 * m; t++)
        gp[ends[t] + 1]++;
    for (uint32_t i = 0; i < np; i++)
        gp[i + 1] += gp[i];
    memcpy(cur, gp, sizeof cur);
    for (uint32_t t = 0; t < 2 * m; t++)
        gr[cur[ends[t]]++] = t / 2;
    cdyn__symmat g;
    cdyn__symmat_init(&g);
    assert_int_equal(cdyn__symmat_build_groups(&g, &al, m, np, gp, gr), CDYN_OK);

    /* Same pattern from explicit pairs: rods sharing a particle. */
    uint32_t pairs[2 * 512];
    size_t npairs = 0;
    for (uint32_t a = 0; a < m; a++)
        for (uint32_t b = 0; b < a; b++)
            if (ends[2 * a] == ends[2 * b] || ends[2 * a] == ends[2 * b + 1] ||
                ends[2 * a + 1] == ends[2 * b] || ends[2 * a + 1] == ends[2 * b + 1]) {
                pairs[2 * npairs] = a;
                pairs[2 * npairs + 1] = b;
                npairs++;
            }
    cdyn__symmat p;
    cdyn__symmat_init(&p);
    assert_int_equal(cdyn__symmat_build(&p, &al, m, npairs, pairs), CDYN_OK);
    assert_int_equal(g.nnz, p.nnz);
    assert_memory_equal(g.colptr, p.colptr, ((size_t)m + 1) * sizeof *g.colptr);
    assert_memory_equal(g.rowind, p.rowind, (size_t)g.nnz * sizeof *g.rowind);
    cdyn__symmat_destroy(&g, &al);
    cdyn__symmat_destroy(&p, &al);
}

static void test_bad_input_changes_nothing(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__symmat m;
    cdyn__symmat_init(&m);
    uint32_t ok[] = {0, 1, 1, 2};
    assert_int_equal(cdyn__symmat_build(&m, &al, 3, 2, ok), CDYN_OK);
    uint32_t nnz = m.nnz, *colptr = m.colptr;
    uint32_t bad[] = {0, 1, 1, 3};
    assert_int_equal(cdyn__symmat_build(&m, &al, 3, 2, bad), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__symmat_build(&m, &al, 3, 2, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__symmat_build(&m, &al, CDYN__SOLVER_MAX_INDEX, 0, NULL),
                     CDYN_ERR_UNSUPPORTED);
    uint32_t gp[] = {0, 2}, gr[] = {0, 5};
    assert_int_equal(cdyn__symmat_build_groups(&m, &al, 3, 1, gp, gr),
                     CDYN_ERR_INVALID_ARGUMENT);
    uint32_t gp_single[] = {0, 1}, gr_single[] = {7};
    assert_int_equal(cdyn__symmat_build_groups(&m, &al, 3, 1, gp_single, gr_single),
                     CDYN_ERR_INVALID_ARGUMENT);
    uint32_t gp_down[] = {2, 0};
    assert_int_equal(cdyn__symmat_build_groups(&m, &al, 3, 1, gp_down, gr),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(m.nnz, nnz);
    assert_ptr_equal(m.colptr, colptr);
    cdyn__symmat_destroy(&m, &al);
    cdyn__symmat_destroy(&m, &al); /* twice is harmless */
    cdyn__symmat_destroy(NULL, &al);
}

static void test_find(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    const uint32_t n = 40;
    size_t npairs = 90;
    uint32_t *pairs = random_pairs(n, npairs);
    unsigned char *dense = dense_pattern(n, npairs, pairs);
    cdyn__symmat m;
    cdyn__symmat_init(&m);
    assert_int_equal(cdyn__symmat_build(&m, &al, n, npairs, pairs), CDYN_OK);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            uint32_t pos = UINT32_MAX, pos_t = UINT32_MAX;
            cdyn_status st = cdyn__symmat_find(&m, i, j, &pos);
            if (dense[(size_t)i * n + j]) {
                assert_int_equal(st, CDYN_OK);
                assert_int_equal(cdyn__symmat_find(&m, j, i, &pos_t), CDYN_OK);
                assert_int_equal(pos, pos_t);
                uint32_t lo = i < j ? i : j, hi = i < j ? j : i;
                assert_true(pos >= m.colptr[lo] && pos < m.colptr[lo + 1]);
                assert_int_equal(m.rowind[pos], hi);
            } else {
                assert_int_equal(st, CDYN_ERR_INVALID_ARGUMENT);
            }
        }
    uint32_t pos;
    assert_int_equal(cdyn__symmat_find(&m, n, 0, &pos), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__symmat_find(&m, 0, 0, NULL), CDYN_ERR_INVALID_ARGUMENT);
    cdyn__symmat_destroy(&m, &al);
    free(dense);
    free(pairs);
}

/* Random values; returns the dense symmetric matrix (row-major). */
static double *fill_random(cdyn__symmat *m)
{
    const uint32_t n = m->n;
    double *d = calloc((size_t)n * n, sizeof *d);
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t p = m->colptr[j]; p < m->colptr[j + 1]; p++) {
            uint32_t i = m->rowind[p];
            m->val[p] = 2.0 * next_unit() - 1.0;
            d[(size_t)i * n + j] = d[(size_t)j * n + i] = m->val[p];
        }
    return d;
}

static void test_mul_and_residual(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    const uint32_t n = 50;
    size_t npairs = 120;
    uint32_t *pairs = random_pairs(n, npairs);
    cdyn__symmat m;
    cdyn__symmat_init(&m);
    assert_int_equal(cdyn__symmat_build(&m, &al, n, npairs, pairs), CDYN_OK);
    double *dense = fill_random(&m);
    double x[50], y[50], da[50], b[50], r[50];
    for (uint32_t i = 0; i < n; i++) {
        x[i] = next_unit() - 0.5;
        da[i] = next_unit();
    }
    for (int with_add = 0; with_add < 2; with_add++) {
        const double *add = with_add ? da : NULL;
        cdyn__symmat_mul(&m, add, x, y);
        for (uint32_t i = 0; i < n; i++) {
            double s = add ? add[i] * x[i] : 0.0;
            for (uint32_t j = 0; j < n; j++)
                s += dense[(size_t)i * n + j] * x[j];
            assert_true(fabs(s - y[i]) <= 1e-13);
            b[i] = y[i];
        }
        /* x solves A x = b exactly (up to rounding): tiny residual. */
        double rel = -1.0;
        uint32_t worst = UINT32_MAX;
        cdyn__symmat_residual(&m, add, x, b, r, &rel, &worst);
        assert_true(rel >= 0.0 && rel < 1e-14);
        assert_true(worst < n);
        /* A wrong entry in b shows up as the worst row. */
        b[17] += 1.0;
        cdyn__symmat_residual(&m, add, x, b, r, &rel, &worst);
        assert_int_equal(worst, 17);
        assert_true(rel > 0.1);
        assert_true(fabs(r[17] - 1.0) < 1e-12);
        cdyn__symmat_residual(&m, add, x, b, r, NULL, NULL); /* outputs optional */
        b[3] = NAN;
        cdyn__symmat_residual(&m, add, x, b, r, &rel, &worst);
        assert_true(rel != rel);
        assert_int_equal(worst, 3);
    }
    /* All zero: relative residual 0, not NaN. */
    cdyn__symmat_zero(&m);
    memset(x, 0, sizeof x);
    memset(b, 0, sizeof b);
    double rel = -1.0;
    cdyn__symmat_residual(&m, NULL, x, b, r, &rel, NULL);
    assert_true(rel == 0.0);
    cdyn__symmat_destroy(&m, &al);
    free(dense);
    free(pairs);
}

static void test_empty(void **state)
{
    (void)state;
    cdyn_allocator al = cdyn__allocator_default();
    cdyn__symmat m;
    cdyn__symmat_init(&m);
    assert_int_equal(cdyn__symmat_build(&m, &al, 0, 0, NULL), CDYN_OK);
    assert_int_equal(m.n, 0);
    assert_int_equal(m.nnz, 0);
    double rel = -1.0;
    cdyn__symmat_residual(&m, NULL, NULL, NULL, NULL, &rel, NULL);
    assert_true(rel == 0.0);
    cdyn__symmat_mul(&m, NULL, NULL, NULL);
    cdyn__symmat_zero(&m);
    cdyn__symmat_destroy(&m, &al);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    const uint32_t n = 30;
    size_t npairs = 70;
    uint32_t *pairs = random_pairs(n, npairs);
    uint32_t gp[] = {0, 4, 7, 7, 10}, gr[] = {0, 3, 5, 9, 1, 2, 3, 4, 8, 29};
    for (int groups = 0; groups < 2; groups++) {
        int succeeded = 0;
        for (size_t fail = 1; !succeeded; fail++) {
            ts_counting_alloc ca = {0};
            ca.fail_at = fail;
            cdyn_allocator al = ts_counting_allocator(&ca);
            cdyn__symmat m;
            cdyn__symmat_init(&m);
            cdyn_status st = groups ? cdyn__symmat_build_groups(&m, &al, n, 4, gp, gr)
                                    : cdyn__symmat_build(&m, &al, n, npairs, pairs);
            if (st == CDYN_OK) {
                assert_false(ca.failed);
                succeeded = 1;
                assert_true(fail > 2);
            } else {
                assert_int_equal(st, CDYN_ERR_NO_MEMORY);
                assert_int_equal(ca.live_bytes, 0);
                assert_null(m.colptr);
            }
            cdyn__symmat_destroy(&m, &al);
            assert_int_equal(ca.live_bytes, 0);
            assert_int_equal(ca.allocs - (size_t)ca.failed, ca.frees);
        }
    }
    free(pairs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_pairs),
        cmocka_unit_test(test_build_groups_matches_pairs),
        cmocka_unit_test(test_bad_input_changes_nothing),
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_mul_and_residual),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
