/* The lattice's generator: pinned outputs (xoshiro256** seeded by
 * splitmix64, values from an independent implementation of the published
 * algorithms), uniformity, and the bounded draw. White-box. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "lattice/rng.h"

static void test_seed_expansion_is_splitmix64(void **state)
{
    (void)state;
    cdyn__rng r;
    cdyn__lattice_rng_seed(&r, 0);
    /* splitmix64's first four outputs from 0 (its well-known test vector). */
    assert_true(r.s[0] == 0xe220a8397b1dcdafULL);
    assert_true(r.s[1] == 0x6e789e6aa1b965f4ULL);
    assert_true(r.s[2] == 0x06c45d188009454fULL);
    assert_true(r.s[3] == 0xf88bb8a8724c81ecULL);
}

static void test_pinned_outputs(void **state)
{
    (void)state;
    const uint64_t want0[4] = {0x99ec5f36cb75f2b4ULL, 0xbf6e1f784956452aULL,
                               0x1a5f849d4933e6e0ULL, 0x6aa594f1262d2d2cULL};
    const uint64_t want42[4] = {0x15780b2e0c2ec716ULL, 0x6104d9866d113a7eULL,
                                0xae17533239e499a1ULL, 0xecb8ad4703b360a1ULL};
    cdyn__rng a, b;
    cdyn__lattice_rng_seed(&a, 0);
    cdyn__lattice_rng_seed(&b, 42);
    for (int i = 0; i < 4; i++) {
        assert_true(cdyn__lattice_rng_next(&a) == want0[i]);
        assert_true(cdyn__lattice_rng_next(&b) == want42[i]);
    }
}

static void test_double_range_and_mean(void **state)
{
    (void)state;
    cdyn__rng r;
    cdyn__lattice_rng_seed(&r, 7);
    double sum = 0, sum2 = 0;
    const int n = 1000000;
    for (int i = 0; i < n; i++) {
        double u = cdyn__lattice_rng_double(&r);
        assert_true(u >= 0.0 && u < 1.0);
        sum += u;
        sum2 += u * u;
    }
    double mean = sum / n, var = sum2 / n - mean * mean;
    /* Standard error of the mean: sqrt(1/12 / n) = 2.9e-4; allow 5 sigma. */
    assert_true(fabs(mean - 0.5) < 1.5e-3);
    assert_true(fabs(var - 1.0 / 12) < 1e-3);
}

static void test_below_is_uniform(void **state)
{
    (void)state;
    cdyn__rng r;
    cdyn__lattice_rng_seed(&r, 11);
    enum { K = 7 };
    const int n = 700000;
    double count[K] = {0};
    for (int i = 0; i < n; i++) {
        uint64_t v = cdyn__lattice_rng_below(&r, K);
        assert_true(v < K);
        count[v]++;
    }
    double chi2 = 0, e = (double)n / K;
    for (int k = 0; k < K; k++)
        chi2 += (count[k] - e) * (count[k] - e) / e;
    /* 6 degrees of freedom: P(chi2 > 22.46) = 0.001. */
    assert_true(chi2 < 22.46);
    assert_true(cdyn__lattice_rng_below(&r, 1) == 0);
    /* The largest bound still works (rejection only below 2^64 mod n). */
    uint64_t big = UINT64_MAX - 5;
    for (int i = 0; i < 1000; i++)
        assert_true(cdyn__lattice_rng_below(&r, big) < big);
}

static void test_same_seed_same_stream(void **state)
{
    (void)state;
    cdyn__rng a, b, c;
    cdyn__lattice_rng_seed(&a, 123);
    cdyn__lattice_rng_seed(&b, 123);
    cdyn__lattice_rng_seed(&c, 124);
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = cdyn__lattice_rng_next(&a), y = cdyn__lattice_rng_next(&b);
        assert_true(x == y);
        differ += x != cdyn__lattice_rng_next(&c);
    }
    assert_true(differ > 990);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_expansion_is_splitmix64),
        cmocka_unit_test(test_pinned_outputs),
        cmocka_unit_test(test_double_range_and_mean),
        cmocka_unit_test(test_below_is_uniform),
        cmocka_unit_test(test_same_seed_same_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
