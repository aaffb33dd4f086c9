/* Shared by the libFuzzer targets: reading the input as a stream of values,
 * an allocator that fails on demand and checks what is still held, and the
 * check that stops the run on a broken invariant. Test code: it may abort. */
#ifndef CDYN_FUZZ_UTIL_H
#define CDYN_FUZZ_UTIL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

/* A broken invariant: say which and where, then abort (libFuzzer saves the
 * input that did it). */
#define FUZZ_CHECK(cond)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

/* The input, read front to back; past its end every read gives zeros. */
typedef struct fuzz_in {
    const uint8_t *p;
    size_t n, at;
} fuzz_in;

static inline bool fuzz_more(const fuzz_in *in)
{
    return in->at < in->n;
}

static inline uint8_t fuzz_u8(fuzz_in *in)
{
    return in->at < in->n ? in->p[in->at++] : 0;
}

static inline uint64_t fuzz_u64(fuzz_in *in)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)fuzz_u8(in) << (8 * i);
    return v;
}

/* A double: mostly from a table of values at the edges of the library's
 * ranges (so that the fuzzer meets them without guessing 64 bits), else
 * raw bits (NaNs and subnormals included). */
static inline double fuzz_double(fuzz_in *in)
{
    static const double edge[] = {
        0.0,    -0.0,    1.0,    -1.0,    0.5,     2.0,     3.0,      0.01,  -0.01,
        100.0,  1e-300,  5e-324, 1e100,   -1e100,  1.0000001e100, -1.0000001e100,
        1e300,  -1e300,  1.7976931348623157e308, 1e12, 1.0000001e12, 1e7,  1.0000001,
        1e-9,   7.0,     -7.0,   1.5,     64.0,    1e15,    -3.5,     1e99,  -1e99,
    };
    uint8_t k = fuzz_u8(in);
    if (k < 3 * (sizeof edge / sizeof *edge))
        return edge[k % (sizeof edge / sizeof *edge)];
    if (k == 255) {
        uint8_t s = fuzz_u8(in);
        return s == 0 ? (double)INFINITY : s == 1 ? -(double)INFINITY : (double)NAN;
    }
    uint64_t u = fuzz_u64(in);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* An allocator that counts what it holds and fails the allocation numbered
 * fail_at (1-based, counted from when it was armed; 0 = never). */
typedef struct fuzz_alloc {
    size_t live, calls, fail_at;
    bool failed;
} fuzz_alloc;

static inline void *fuzz_alloc_fn(size_t size, void *user)
{
    fuzz_alloc *a = user;
    a->calls++;
    if (a->fail_at != 0 && a->calls == a->fail_at) {
        a->failed = true;
        return NULL;
    }
    void *p = malloc(size);
    if (p)
        a->live += size;
    return p;
}

static inline void fuzz_free_fn(void *p, size_t size, void *user)
{
    fuzz_alloc *a = user;
    if (p) {
        a->live -= size;
        free(p);
    }
}

static inline cdyn_allocator fuzz_allocator(fuzz_alloc *a)
{
    cdyn_allocator al = {fuzz_alloc_fn, fuzz_free_fn, a};
    return al;
}

/* Arms the allocator to fail the @p k-th allocation from now (0: never). */
static inline void fuzz_alloc_arm(fuzz_alloc *a, size_t k)
{
    a->calls = 0;
    a->fail_at = k;
    a->failed = false;
}

/* The lattice's snapshot, malloc'd (NULL if it cannot be had). */
static inline unsigned char *fuzz_snapshot(const cdyn_lattice *lat, size_t *size)
{
    FUZZ_CHECK(cdyn_lattice_snapshot_size(lat, size) == CDYN_OK);
    unsigned char *b = malloc(*size);
    FUZZ_CHECK(b != NULL);
    FUZZ_CHECK(cdyn_lattice_save(lat, b, *size, NULL) == CDYN_OK);
    return b;
}

#endif
