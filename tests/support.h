/* Helpers shared by the test suites: tolerances, fitted orders, allocators. */
#ifndef CDYN_TEST_SUPPORT_H
#define CDYN_TEST_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include <cdyn/types.h>

/* Least-squares slope of log(err) against log(h): the measured order. */
double ts_fit_order(const double *h, const double *err, size_t n);

/* Least-squares slope of y against x. */
double ts_fit_slope(const double *x, const double *y, size_t n);

/* An allocator that counts calls and bytes and fails the Nth allocation
 * (1-based; 0 = never). */
typedef struct ts_counting_alloc {
    size_t allocs, frees, live_bytes, peak_bytes;
    size_t fail_at;
    int failed;
} ts_counting_alloc;

cdyn_allocator ts_counting_allocator(ts_counting_alloc *state);

/* FNV-1a 64-bit hash of raw bytes, for pinned determinism checks. */
uint64_t ts_hash_bytes(const void *data, size_t n, uint64_t h);

#endif
