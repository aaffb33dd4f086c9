/* Benchmark of the erosion lattice: rain (drops and walk steps per second)
 * and drainage (depression routing + accumulation) on surfaces with many
 * pits. No arguments: a quick sweep of small sizes. --full: the sizes of
 * issue 7 (rain on 256^2, 1024^2, 4096^2; drainage on 1024^2, 4096^2,
 * 8192^2). --runs N sets the repetitions whose median is reported. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "bench_util.h"

/* An allocator that tracks live and peak bytes, to measure what the library
 * itself holds (independent of what the benchmark allocates). */
typedef struct meter {
    size_t live, peak;
} meter;

static void *meter_alloc(size_t size, void *user)
{
    meter *m = user;
    void *p = malloc(size);
    if (p) {
        m->live += size;
        if (m->live > m->peak)
            m->peak = m->live;
    }
    return p;
}

static void meter_free(void *p, size_t size, void *user)
{
    meter *m = user;
    if (p) {
        m->live -= size;
        free(p);
    }
}

/* The benchmark's own surface generator: splitmix64 for the random values. */
static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static double unit(uint64_t key)
{
    return (double)(mix(key) >> 11) * 0x1.0p-53;
}

/* A tilted plane (0.01 per row) plus value noise of 7 octaves (periods 256
 * down to 4 sites, amplitude 8 halving each octave: smooth interpolation of
 * random lattice values) plus white noise of amplitude 0.01. The noise
 * outweighs the tilt over a few hundred rows, so the surface is full of pits
 * and flats of every size: the hard case for depression routing. */
static void make_surface(double *h, size_t w, size_t ht, uint64_t seed)
{
    for (size_t i = 0; i < w * ht; i++)
        h[i] = 0.01 * (double)(i / w) + 0.01 * unit(seed ^ (i * 0x100000001B3ULL));
    double amp = 8.0;
    for (size_t period = 256, oct = 1; period >= 4; period /= 2, oct++, amp *= 0.5) {
        size_t gw = w / period + 2;
        for (size_t y = 0; y < ht; y++) {
            size_t gy = y / period;
            double fy = (double)(y % period) / (double)period;
            fy = fy * fy * (3 - 2 * fy);
            for (size_t x = 0; x < w; x++) {
                size_t gx = x / period;
                double fx = (double)(x % period) / (double)period;
                fx = fx * fx * (3 - 2 * fx);
                uint64_t base = seed * 31 + oct * 0x9E3779B97F4A7C15ULL;
                double v00 = unit(base + gy * gw + gx), v10 = unit(base + gy * gw + gx + 1);
                double v01 = unit(base + (gy + 1) * gw + gx);
                double v11 = unit(base + (gy + 1) * gw + gx + 1);
                double a = v00 + (v10 - v00) * fx, b = v01 + (v11 - v01) * fx;
                h[y * w + x] += amp * (a + (b - a) * fy);
            }
        }
    }
}

static int check(cdyn_status st, const char *what)
{
    if (st != CDYN_OK) {
        fprintf(stderr, "bench_lattice: %s: %s\n", what, cdyn_status_string(st));
        return 1;
    }
    return 0;
}

/* Each run rains on a fresh lattice (default parameters and surface, seed =
 * run number) for at least @p seconds, so every run measures the same
 * regime: the first drops to a couple of drops per site. */
static int bench_rain(size_t size, int runs, double seconds)
{
    double dps[16], sps[16], len[16], capped[16], bytes = 0;
    for (int r = 0; r < runs; r++) {
        meter m = {0, 0};
        cdyn_allocator a = {meter_alloc, meter_free, &m};
        cdyn_lattice *lat;
        if (check(cdyn_lattice_create(size, size, (uint64_t)r + 1, &a, &lat), "create"))
            return 1;
        /* The first call allocates the scratch and relaxes the surface. */
        if (check(cdyn_lattice_rain(lat, 1), "rain"))
            return 1;
        cdyn_lattice_counters c0 = {.size = sizeof c0}, c1 = {.size = sizeof c1};
        cdyn_lattice_get_counters(lat, &c0);
        uint64_t drops = 16, done = 0;
        double t0 = bench_now(), t;
        do {
            if (check(cdyn_lattice_rain(lat, drops), "rain"))
                return 1;
            done += drops;
            t = bench_now() - t0;
            if (drops < 4096)
                drops *= 2;
        } while (t < seconds);
        cdyn_lattice_get_counters(lat, &c1);
        uint64_t steps = c1.walk_steps - c0.walk_steps;
        dps[r] = (double)done / t;
        sps[r] = (double)steps / t;
        len[r] = (double)steps / (double)done;
        capped[r] = 100.0 * (double)(c1.capped_walks - c0.capped_walks) / (double)done;
        bytes = (double)m.peak / (double)(size * size);
        cdyn_lattice_destroy(lat);
    }
    printf("%6zu^2 %12.0f %12.3e %10.1f %9.1f %12.1f\n", size, bench_median(dps, (size_t)runs),
           bench_median(sps, (size_t)runs), bench_median(len, (size_t)runs),
           bench_median(capped, (size_t)runs), bytes);
    return 0;
}

static int bench_drainage(size_t size, int runs)
{
    size_t n = size * size;
    double t0 = bench_now();
    double *h = malloc(n * sizeof *h);
    uint32_t *recv = malloc(n * sizeof *recv);
    uint32_t *acc = malloc(n * sizeof *acc);
    if (!h || !recv || !acc) {
        fprintf(stderr, "bench_lattice: no memory for %zu^2\n", size);
        return 1;
    }
    make_surface(h, size, size, 42);
    double tgen = bench_now() - t0;

    meter m = {0, 0};
    cdyn_allocator a = {meter_alloc, meter_free, &m};
    cdyn_lattice *lat;
    if (check(cdyn_lattice_create(size, size, 1, &a, &lat), "create"))
        return 1;
    size_t base = m.live; /* the lattice and its heights */
    double td[16], ta[16];
    for (int r = 0; r < runs; r++) {
        /* Setting the heights makes the cached drainage stale. */
        if (check(cdyn_lattice_set_heights(lat, h, n), "set_heights"))
            return 1;
        double t1 = bench_now();
        if (check(cdyn_lattice_drainage(lat, NULL, 0), "drainage"))
            return 1;
        td[r] = bench_now() - t1;
    }
    size_t peak = m.peak - base;
    if (check(cdyn_lattice_get_receivers(lat, recv, n), "receivers"))
        return 1;
    for (int r = 0; r < runs; r++) {
        double t1 = bench_now();
        if (check(cdyn_lattice_drainage_from_receivers(n, recv, NULL, acc), "accumulate"))
            return 1;
        ta[r] = bench_now() - t1;
    }
    /* Pits: sites with no lower neighbour, outside the outlet row. */
    size_t pits = 0;
    for (size_t y = 1; y < size; y++)
        for (size_t x = 0; x < size; x++) {
            size_t i = y * size + x;
            double v = h[i];
            if (h[i - size] >= v && (x == 0 || h[i - 1] >= v) &&
                (x + 1 == size || h[i + 1] >= v) && (y + 1 == size || h[i + size] >= v))
                pits++;
        }
    printf("%6zu^2 %9zu %9.3f %12.4f %12.4f %12.1f %10.0f\n", size, pits, tgen,
           bench_median(td, (size_t)runs), bench_median(ta, (size_t)runs),
           (double)peak / (double)n, (double)bench_peak_rss() / 1048576.0);
    cdyn_lattice_destroy(lat);
    free(h);
    free(recv);
    free(acc);
    return 0;
}

int main(int argc, char **argv)
{
    int full = 0, runs = 5;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--full") == 0) {
            full = 1;
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
            if (runs < 1 || runs > 16)
                runs = 5;
        } else {
            printf("usage: bench_lattice [--full] [--runs N (1..16)]\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    const size_t rain_quick[] = {64, 256}, rain_full[] = {256, 1024, 4096};
    const size_t dr_quick[] = {256, 512, 1024}, dr_full[] = {1024, 4096, 8192};
    const size_t *rs = full ? rain_full : rain_quick, *ds = full ? dr_full : dr_quick;
    size_t nr = full ? 3 : 2, nd = 3;
    double seconds = full ? 2.0 : 0.3;
    if (!full && runs > 3)
        runs = 3;

    printf("rain (fresh lattice, default parameters and surface; median of %d runs of >= %.1f s)\n",
           runs, seconds);
    printf("%8s %12s %12s %10s %9s %12s\n", "size", "drops/s", "steps/s", "steps/drop",
           "capped %", "lib B/site");
    for (size_t k = 0; k < nr; k++)
        if (bench_rain(rs[k], runs, seconds))
            return 1;
    printf("\ndrainage (tilted plane + 7-octave value noise + white noise; median of %d runs)\n",
           runs);
    printf("%8s %9s %9s %12s %12s %12s %10s\n", "size", "pits", "gen s", "drainage s",
           "accum s", "extra B/site", "peakRSS MB");
    for (size_t k = 0; k < nd; k++)
        if (bench_drainage(ds[k], runs))
            return 1;
    return 0;
}
