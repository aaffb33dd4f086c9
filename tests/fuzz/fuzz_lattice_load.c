/* libFuzzer target: the lattice snapshot loader.
 *
 * Each input is tried as it is and again with its last 8 bytes replaced by
 * the FNV-1a checksum of the rest, so that the fuzzer reaches the value
 * checks behind the checksum. Invariants:
 *  - a refused buffer creates nothing and says CDYN_ERR_FORMAT (or
 *    CDYN_ERR_NO_MEMORY);
 *  - a loaded lattice saves to the same bytes;
 *  - rain on it does bounded work per drop (moves <= the walk cap <= 64 W H,
 *    slides <= 17 W H: the cascade's cap plus its last round), keeps every
 *    height in range, and fails only as documented (erosion below the
 *    range, no memory, terrain outlets), with nothing changed;
 *  - what it then saves loads again and saves to the same bytes;
 *  - drainage and statistics succeed, and the outlets' drainage adds up to
 *    the sites (conservation of water).
 * Nothing leaks (the allocator counts). */
#include "fuzz_util.h"

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static void check_rain(cdyn_lattice *lat, size_t n)
{
    cdyn_lattice_counters c0 = {.size = sizeof c0}, c1 = {.size = sizeof c1};
    FUZZ_CHECK(cdyn_lattice_get_counters(lat, &c0) == CDYN_OK);
    uint64_t cap = 0;
    FUZZ_CHECK(cdyn_lattice_get_walk_cap(lat, &cap) == CDYN_OK);
    FUZZ_CHECK(cap >= 1 && cap <= 64 * (uint64_t)n);
    size_t s0, s1;
    unsigned char *before = fuzz_snapshot(lat, &s0);
    const uint64_t drops = 3;
    cdyn_status st = cdyn_lattice_rain(lat, drops);
    FUZZ_CHECK(cdyn_lattice_get_counters(lat, &c1) == CDYN_OK);
    if (st == CDYN_OK) {
        FUZZ_CHECK(c1.drops == c0.drops + drops);
        FUZZ_CHECK(c1.walk_steps - c0.walk_steps <= drops * cap);
        /* One relaxation of the whole surface, then the drops. */
        FUZZ_CHECK(c1.slides - c0.slides <= (drops + 1) * 17 * (uint64_t)n);
    } else {
        /* Erosion below the range, no memory, or terrain outlets the
         * erosion model does not have: nothing changed. */
        FUZZ_CHECK(st == CDYN_ERR_DIVERGED || st == CDYN_ERR_NO_MEMORY ||
                   st == CDYN_ERR_UNSUPPORTED);
        FUZZ_CHECK(strncmp(cdyn_lattice_last_error(lat), "cdyn_lattice_rain: ", 19) == 0);
        unsigned char *after = fuzz_snapshot(lat, &s1);
        FUZZ_CHECK(s0 == s1 && memcmp(before, after, s0) == 0);
        free(after);
    }
    free(before);
    double *h = malloc(n * sizeof *h);
    FUZZ_CHECK(h && cdyn_lattice_get_heights(lat, h, n) == CDYN_OK);
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK(h[i] >= -CDYN_LATTICE_HEIGHT_MAX && h[i] <= CDYN_LATTICE_HEIGHT_MAX);
    free(h);
}

static void check_drainage(cdyn_lattice *lat, size_t n)
{
    uint32_t *d = malloc(n * sizeof *d), *r = malloc(n * sizeof *r);
    FUZZ_CHECK(d && r);
    FUZZ_CHECK(cdyn_lattice_compute_drainage(lat, d, n) == CDYN_OK);
    FUZZ_CHECK(cdyn_lattice_compute_receivers(lat, r, n) == CDYN_OK);
    uint64_t out = 0, valid = 0;
    for (size_t i = 0; i < n; i++) {
        if (d[i] == 0)
            continue; /* a no-data cell: drains nothing */
        valid++;
        FUZZ_CHECK(r[i] < n);
        if (r[i] == i)
            out += d[i];
    }
    FUZZ_CHECK(out == valid);
    cdyn_lattice_stats st = {.size = sizeof st};
    FUZZ_CHECK(cdyn_lattice_compute_stats(lat, NULL, &st) == CDYN_OK);
    free(d);
    free(r);
}

static void check_load(const uint8_t *buf, size_t size)
{
    fuzz_alloc a = {0};
    cdyn_allocator al = fuzz_allocator(&a);
    cdyn_lattice *lat = (cdyn_lattice *)&a; /* must be set to NULL on failure */
    cdyn_status st = cdyn_lattice_load(buf, size, &al, &lat);
    if (st != CDYN_OK) {
        FUZZ_CHECK(st == CDYN_ERR_FORMAT || st == CDYN_ERR_NO_MEMORY);
        FUZZ_CHECK(lat == NULL && a.live == 0);
        return;
    }
    /* Loaded: it saves to the same bytes. */
    size_t s1;
    unsigned char *again = fuzz_snapshot(lat, &s1);
    FUZZ_CHECK(s1 == size && memcmp(again, buf, size) == 0);
    free(again);

    size_t w, h;
    FUZZ_CHECK(cdyn_lattice_get_size(lat, &w, &h) == CDYN_OK);
    check_rain(lat, w * h);

    /* What it saves now loads, and saves to the same bytes. */
    size_t s2, s3;
    unsigned char *b2 = fuzz_snapshot(lat, &s2);
    cdyn_lattice *copy = NULL;
    FUZZ_CHECK(cdyn_lattice_load(b2, s2, NULL, &copy) == CDYN_OK);
    unsigned char *b3 = fuzz_snapshot(copy, &s3);
    FUZZ_CHECK(s2 == s3 && memcmp(b2, b3, s2) == 0);
    free(b2);
    free(b3);
    cdyn_lattice_destroy(copy);

    check_drainage(lat, w * h);
    cdyn_lattice_destroy(lat);
    FUZZ_CHECK(a.live == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_load(data, size);
    if (size >= 8) {
        uint8_t *sealed = malloc(size);
        FUZZ_CHECK(sealed != NULL);
        memcpy(sealed, data, size);
        uint64_t sum = fnv1a(sealed, size - 8);
        for (int i = 0; i < 8; i++)
            sealed[size - 8 + (size_t)i] = (uint8_t)(sum >> (8 * i));
        check_load(sealed, size);
        free(sealed);
    }
    return 0;
}
