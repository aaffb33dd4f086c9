/* Benchmark of the erosion lattice: rain (drops and walk steps per second),
 * the work of a drop's slides under each slide rule and S, and drainage
 * (depression routing + accumulation) on surfaces with many pits. No
 * arguments: a quick sweep of small sizes. --full: rain on 256^2, 1024^2,
 * 4096^2; slides on 256^2; drainage in D4 and D8 on 1024^2 and 4096^2, D4
 * on 8192^2; the statistics against drops on 128^2 to 512^2 (3 seeds) and
 * by slide rule on 256^2. --runs N sets the repetitions whose median is reported;
 * --only TABLE runs one table. The machine's CPU model and load are printed
 * first and last. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cdyn/cdyn.h>

#include "bench_util.h"

/* Seconds of CPU time this thread has used: on a machine shared with
 * other jobs, waiting for a core does not count (the wall clock where the
 * thread clock is missing). Timings below use it, and say so. */
static double cpu_now(void)
{
#if defined(CLOCK_THREAD_CPUTIME_ID)
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
    return bench_now();
}

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
        double t0 = cpu_now(), t;
        do {
            if (check(cdyn_lattice_rain(lat, drops), "rain"))
                return 1;
            done += drops;
            t = cpu_now() - t0;
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

/* The work of a drop's slides: a lattice eroded by W H drops under the
 * defaults (channels deep enough to slide), then @p drops more under the
 * slide rule and S given. Per drop: slides, slide rounds, sites whose
 * height changed (slides and erosion), time; and the largest slides in one
 * drop. The first drop after S changes relaxes the whole surface and is
 * counted. */
static int bench_slides(size_t size, uint64_t drops)
{
    const double S[3] = {2, 1e3, 1e7};
    size_t n = size * size;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    if (!a || !b) {
        free(a), free(b);
        return 1;
    }
    for (int rule = 0; rule < 2; rule++) {
        for (int k = 0; k < 3; k++) {
            cdyn_lattice *lat;
            if (check(cdyn_lattice_create(size, size, 7, NULL, &lat), "create") ||
                check(cdyn_lattice_rain(lat, n), "rain") ||
                check(cdyn_lattice_set_slide_rule(lat, (cdyn_lattice_slide_rule)rule), "rule") ||
                check(cdyn_lattice_set_param(lat, CDYN_LATTICE_S, S[k]), "S"))
                return 1;
            cdyn_lattice_counters c0 = {.size = sizeof c0}, c1 = {.size = sizeof c1};
            cdyn_lattice_get_counters(lat, &c0);
            double changed = 0, most = 0, t = 0;
            for (uint64_t d = 0; d < drops; d++) {
                cdyn_lattice_counters p = {.size = sizeof p}, q = {.size = sizeof q};
                cdyn_lattice_get_counters(lat, &p);
                cdyn_lattice_get_heights(lat, a, n);
                double t0 = cpu_now();
                if (check(cdyn_lattice_rain(lat, 1), "rain"))
                    return 1;
                t += cpu_now() - t0;
                cdyn_lattice_get_heights(lat, b, n);
                cdyn_lattice_get_counters(lat, &q);
                for (size_t i = 0; i < n; i++)
                    changed += a[i] != b[i];
                double sl = (double)(q.slides - p.slides);
                most = sl > most ? sl : most;
            }
            cdyn_lattice_get_counters(lat, &c1);
            double dn = (double)drops;
            printf("%6zu^2 %8s %6.0e %12.1f %12.2f %12.1f %11.0f %9llu %10.2f\n", size,
                   rule ? "once" : "cascade", S[k], (double)(c1.slides - c0.slides) / dn,
                   (double)(c1.slide_rounds - c0.slide_rounds) / dn, changed / dn, most,
                   (unsigned long long)c1.pending_sites, 1e6 * t / dn);
            cdyn_lattice_destroy(lat);
        }
    }
    free(a);
    free(b);
    return 0;
}

/* Drainage of one surface: D4 and D8 timed alternately (so that both meet
 * the same machine load), then the accumulation alone. @p d8 false skips
 * D8 (the largest size: its level array would not fit beside D4's). */
static int bench_drainage(size_t size, int runs, int d8)
{
    size_t n = size * size;
    double t0 = cpu_now();
    double *h = malloc(n * sizeof *h);
    uint32_t *recv = malloc(n * sizeof *recv);
    uint32_t *acc = malloc(n * sizeof *acc);
    if (!h || !recv || !acc) {
        fprintf(stderr, "bench_lattice: no memory for %zu^2\n", size);
        return 1;
    }
    make_surface(h, size, size, 42);
    double tgen = cpu_now() - t0;

    meter m = {0, 0};
    cdyn_allocator a = {meter_alloc, meter_free, &m};
    cdyn_lattice *lat;
    if (check(cdyn_lattice_create(size, size, 1, &a, &lat), "create"))
        return 1;
    size_t base = m.live; /* the lattice and its heights */
    double t[2][16], ta[16];
    size_t peak[2] = {0, 0};
    for (int r = 0; r < runs; r++) {
        for (int k = 0; k < 1 + d8; k++) {
            /* Setting the heights makes the cached drainage stale. */
            if (check(cdyn_lattice_set_routing(lat, k ? CDYN_LATTICE_D8 : CDYN_LATTICE_D4),
                      "routing") ||
                check(cdyn_lattice_set_heights(lat, h, n), "set_heights"))
                return 1;
            m.peak = m.live;
            double t1 = cpu_now();
            if (check(cdyn_lattice_compute_drainage(lat, NULL, 0), "drainage"))
                return 1;
            t[k][r] = cpu_now() - t1;
            peak[k] = m.peak - base;
        }
    }
    if (check(cdyn_lattice_set_routing(lat, CDYN_LATTICE_D4), "routing") ||
        check(cdyn_lattice_compute_receivers(lat, recv, n), "receivers"))
        return 1;
    for (int r = 0; r < runs; r++) {
        double t1 = cpu_now();
        if (check(cdyn_lattice_drainage_from_receivers(n, recv, NULL, acc), "accumulate"))
            return 1;
        ta[r] = cpu_now() - t1;
    }
    /* Pits: sites with no lower 4-neighbour, outside the outlet row. */
    size_t pits = 0;
    for (size_t y = 1; y < size; y++)
        for (size_t x = 0; x < size; x++) {
            size_t i = y * size + x;
            double v = h[i];
            if (h[i - size] >= v && (x == 0 || h[i - 1] >= v) &&
                (x + 1 == size || h[i + 1] >= v) && (y + 1 == size || h[i + size] >= v))
                pits++;
        }
    char d8s[32] = "         -", d8b[32] = "      -";
    if (d8) {
        snprintf(d8s, sizeof d8s, "%10.4f", bench_median(t[1], (size_t)runs));
        snprintf(d8b, sizeof d8b, "%7.1f", (double)peak[1] / (double)n);
    }
    printf("%6zu^2 %9zu %7.3f %10.4f %s %10.4f %7.1f %s %10.0f\n", size, pits, tgen,
           bench_median(t[0], (size_t)runs), d8s, bench_median(ta, (size_t)runs),
           (double)peak[0] / (double)n, d8b, (double)bench_peak_rss() / 1048576.0);
    cdyn_lattice_destroy(lat);
    free(h);
    free(recv);
    free(acc);
    return 0;
}

/* The network's statistics with the default options and with the fixed
 * range 10 .. 1000, and the largest drainage over H^(3/2) (about 1.5 for a
 * network of comparable basins draining the lattice's height; far more once
 * the largest valleys have captured their neighbours). */
static int print_stats(cdyn_lattice *lat, size_t size, const char *label)
{
    cdyn_lattice_stats d = {.size = sizeof d}, f = {.size = sizeof f};
    cdyn_lattice_stats_options o;
    cdyn_lattice_stats_options_init(&o);
    o.area_min = o.hack_min = 10;
    o.area_max = o.hack_max = 1000;
    if (check(cdyn_lattice_compute_stats(lat, NULL, &d), "stats") ||
        check(cdyn_lattice_compute_stats(lat, &o, &f), "stats"))
        return 1;
    printf("%s %7.3f %8.0f %6.3f %6.2f %9.3f %9.1f\n", label, d.tau, d.area_fit_max,
           d.hack_exponent, d.bifurcation_ratio, f.tau,
           (double)d.max_drainage / pow((double)size, 1.5));
    return 0;
}

/* How the statistics evolve with the number of drops (default model). */
static int bench_evolution(size_t size, uint64_t seed)
{
    const double marks[] = {1.0 / 16, 1.0 / 8, 1.0 / 4, 1.0 / 2, 1, 2, 4};
    cdyn_lattice *lat;
    if (check(cdyn_lattice_create(size, size, seed, NULL, &lat), "create"))
        return 1;
    double n = (double)size * (double)size, done = 0;
    for (size_t k = 0; k < sizeof marks / sizeof *marks; k++) {
        double target = marks[k] * n;
        if (check(cdyn_lattice_rain(lat, (uint64_t)(target - done)), "rain"))
            return 1;
        done = (double)(uint64_t)target;
        char label[64];
        snprintf(label, sizeof label, "%6zu^2 %4llu %8.4g", size, (unsigned long long)seed,
                 marks[k]);
        if (print_stats(lat, size, label))
            return 1;
    }
    cdyn_lattice_destroy(lat);
    return 0;
}

/* The statistics under each slide rule and S, after W H / 4 and W H drops. */
static int bench_rule_stats(size_t size)
{
    const double S[3] = {2, 1e3, 1e7};
    for (int rule = 0; rule < 2; rule++)
        for (int k = 0; k < 3; k++) {
            cdyn_lattice *lat;
            if (check(cdyn_lattice_create(size, size, 1, NULL, &lat), "create") ||
                check(cdyn_lattice_set_slide_rule(lat, (cdyn_lattice_slide_rule)rule), "rule") ||
                check(cdyn_lattice_set_param(lat, CDYN_LATTICE_S, S[k]), "S"))
                return 1;
            uint64_t n = (uint64_t)size * size, done = 0;
            const uint64_t marks[2] = {n / 4, n};
            for (int m = 0; m < 2; m++) {
                if (check(cdyn_lattice_rain(lat, marks[m] - done), "rain"))
                    return 1;
                done = marks[m];
                char label[64];
                snprintf(label, sizeof label, "%6zu^2 %8s %6.0e %5s", size,
                         rule ? "once" : "cascade", S[k], m ? "1" : "1/4");
                if (print_stats(lat, size, label))
                    return 1;
            }
            cdyn_lattice_destroy(lat);
        }
    return 0;
}

/* Each table: its name for --only, and a function running it quick or full. */
typedef struct table {
    const char *name;
    int (*run)(int full, int runs);
} table;

static int table_rain(int full, int runs)
{
    const size_t quick[] = {64, 256}, big[] = {256, 1024, 4096};
    double seconds = full ? 2.0 : 0.3;
    printf("rain (fresh lattice, default parameters and surface; median of %d runs of >= %.1f "
           "CPU s)\n",
           runs, seconds);
    printf("%8s %12s %12s %10s %9s %12s\n", "size", "drops/s", "steps/s", "steps/drop",
           "capped %", "lib B/site");
    for (size_t k = 0; k < (full ? 3u : 2u); k++)
        if (bench_rain(full ? big[k] : quick[k], runs, seconds))
            return 1;
    return 0;
}

static int table_slides(int full, int runs)
{
    (void)runs;
    uint64_t drops = full ? 4096 : 512;
    printf("slides per drop (lattice eroded by W H drops with the defaults, then %llu drops "
           "under each rule and S)\n",
           (unsigned long long)drops);
    printf("%8s %8s %6s %12s %12s %12s %11s %9s %10s\n", "size", "rule", "S", "slides/drop",
           "rounds/drop", "changed/drop", "max slides", "pending", "CPU us/drop");
    return bench_slides(full ? 256 : 64, drops);
}

static int table_drainage(int full, int runs)
{
    const size_t quick[] = {256, 512, 1024}, big[] = {1024, 4096, 8192};
    printf("drainage (tilted plane + 7-octave value noise + white noise; routing + "
           "accumulation in CPU s, D4 and D8 alternately, median of %d runs;\n"
           "B: bytes per site the library holds beyond the heights at its peak)\n",
           runs);
    printf("%8s %9s %7s %10s %10s %10s %7s %7s %10s\n", "size", "pits", "gen s", "D4 s",
           "D8 s", "accum s", "D4 B", "D8 B", "peakRSS MB");
    for (size_t k = 0; k < 3; k++)
        if (bench_drainage(full ? big[k] : quick[k], runs, !full || k < 2))
            return 1;
    return 0;
}

static int table_evolution(int full, int runs)
{
    (void)runs;
    printf("statistics against drops per site (default model and options; tau and h over "
           "[10, max drainage / 20], tau also over [10, 1000])\n");
    printf("%8s %4s %8s %7s %8s %6s %6s %9s %9s\n", "size", "seed", "drops/WH", "tau",
           "fit max", "h", "R_B", "tau 1e3", "maxA/H^1.5");
    const size_t quick[] = {64, 128}, big[] = {128, 256, 512};
    for (size_t k = 0; k < (full ? 3u : 2u); k++)
        for (uint64_t seed = 1; seed <= (full ? 3u : 1u); seed++)
            if (bench_evolution(full ? big[k] : quick[k], seed))
                return 1;
    return 0;
}

static int table_rule_stats(int full, int runs)
{
    (void)runs;
    printf("statistics by slide rule and S (seed 1), after W H / 4 and W H drops\n");
    printf("%8s %8s %6s %5s %7s %8s %6s %6s %9s %9s\n", "size", "rule", "S", "drops", "tau",
           "fit max", "h", "R_B", "tau 1e3", "maxA/H^1.5");
    return bench_rule_stats(full ? 256 : 64);
}

static const table tables[] = {
    {"rain", table_rain},
    {"slides", table_slides},
    {"drainage", table_drainage},
    {"evolution", table_evolution},
    {"rules", table_rule_stats},
};

int main(int argc, char **argv)
{
    int full = 0, runs = 5;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--full") == 0) {
            full = 1;
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
            if (runs < 1 || runs > 16)
                runs = 5;
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else {
            printf("usage: bench_lattice [--full] [--runs N (1..16)] [--only TABLE]\n"
                   "tables:");
            for (size_t k = 0; k < sizeof tables / sizeof *tables; k++)
                printf(" %s", tables[k].name);
            printf("\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    if (!full && runs > 3)
        runs = 3;
    bench_print_machine("start");
    for (size_t k = 0; k < sizeof tables / sizeof *tables; k++) {
        if (only && strcmp(only, tables[k].name) != 0)
            continue;
        printf("\n");
        if (tables[k].run(full, runs))
            return 1;
    }
    printf("\n");
    bench_print_machine("end");
    return 0;
}
