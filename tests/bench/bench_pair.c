/* bench_pair: cost of one all-pairs force evaluation of a pair set.
 *
 * N particles at uniformly random positions in a cube (3-D) or square (2-D)
 * whose size keeps the number density fixed, one Hertz pair set over all of
 * them (radius 0.5, so the cutoff is 1; the density gives a solid fraction
 * of 0.3 in 3-D and 0.5 in 2-D: a few contacts per particle). One
 * evaluation = cdyn_system_evaluate (forces and accelerations at the
 * committed state, what every stage of a step does). Its time minus that of
 * the same call without the pair set is the pair cost: the cell list
 * (counting sort into hashed cells, half-shell traversal) and the forces.
 *
 * Prints one row per (dimension, N): contacts per particle, the median wall
 * time of the pair part per particle, the same in CPU time, the energy query
 * (another cell-list pass) per particle, the peak resident set size of the
 * process that ran that size, the bytes the library allocated per particle
 * in total (peak, counting allocator) and for the pair set alone. Each size
 * runs in its own child process so that its peak RSS is its own. The last
 * line per dimension is the exponent b of a least-squares fit
 * time ~ N^b over the sizes: 1 means O(N) per evaluation.
 *
 * The particles are added in random order, so that neighbours in space are
 * far apart in the system's arrays: the worst case for the caches, and what
 * makes the time per particle grow with N while the work per particle (the
 * instruction count) stays constant. --ordered adds them sorted along a
 * row-major walk of unit cells instead, as a lattice built in loops would be.
 *
 * Default: N = 10^3, 10^4, 10^5 in 2-D and 3-D. --full: 10^3 .. 10^6.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cdyn/cdyn.h>

#include "bench_util.h"

#define RADIUS 0.5
#define STIFFNESS 1e4
#define PI 3.14159265358979323846

static double cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct counting {
    size_t live, peak;
} counting;

static void *count_alloc(size_t size, void *user)
{
    counting *c = user;
    void *p = malloc(size);
    if (p) {
        c->live += size;
        if (c->live > c->peak)
            c->peak = c->live;
    }
    return p;
}

static void count_free(void *ptr, size_t size, void *user)
{
    counting *c = user;
    c->live -= size;
    free(ptr);
}

static double rand01(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-53;
}

/* Row-major cell key of a position (cells of side 1): the --ordered walk. */
typedef struct keyed {
    double key;
    double x[3];
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    double ka = ((const keyed *)a)->key, kb = ((const keyed *)b)->key;
    return (ka > kb) - (ka < kb);
}

typedef struct result {
    size_t n;
    double contacts_pp;
    double ns_pair, cpu_ns_pair, ns_base, ns_energy;
    double peak_rss_mb, bytes_pp, pair_bytes_pp;
    long evals;
    int ok;
} result;

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cdyn_status st_ = (call);                                                         \
        if (st_ != CDYN_OK) {                                                             \
            fprintf(stderr, "bench_pair: %s: %s (%s)\n", #call, cdyn_status_name(st_),    \
                    cdyn_system_last_error(sys));                                         \
            goto done;                                                                    \
        }                                                                                 \
    } while (0)

/* Median wall and CPU seconds of one cdyn_system_evaluate over @p repeats
 * runs of @p evals calls each. */
static int time_evaluate(cdyn_system *sys, double *acc, size_t cap, long evals, int repeats,
                         double *wall, double *cpu)
{
    double w[64], c[64];
    for (int r = 0; r < repeats; r++) {
        double c0 = cpu_now(), t0 = bench_now();
        for (long e = 0; e < evals; e++)
            if (cdyn_system_evaluate(sys, acc, cap) != CDYN_OK)
                return 1;
        w[r] = (bench_now() - t0) / (double)evals;
        c[r] = (cpu_now() - c0) / (double)evals;
    }
    *wall = bench_median(w, (size_t)repeats);
    *cpu = bench_median(c, (size_t)repeats);
    return 0;
}

static result run(size_t n, int dim, int repeats, double seconds, int ordered)
{
    result r = {.n = n};
    keyed *pts = NULL;
    counting cnt = {0, 0};
    cdyn_allocator a = {count_alloc, count_free, &cnt};
    cdyn_system *sys = NULL;
    cdyn_particle *p = malloc(n * sizeof *p);
    double *acc = malloc(n * (size_t)dim * sizeof *acc);
    if (!p || !acc)
        goto done;
    /* Number density for the solid fraction phi: rho = phi / ball volume. */
    double ball = dim == 3 ? 4.0 / 3.0 * PI * pow(RADIUS, 3) : PI * RADIUS * RADIUS;
    double rho = (dim == 3 ? 0.3 : 0.5) / ball;
    double side = pow((double)n / rho, 1.0 / dim);
    uint64_t rng = 2024u + n;
    pts = malloc(n * sizeof *pts);
    if (!pts)
        goto done;
    double cells = ceil(side);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++)
            pts[i].x[k] = k < dim ? side * rand01(&rng) : 0;
        pts[i].key = floor(pts[i].x[0]) +
                     cells * (floor(pts[i].x[1]) + cells * floor(pts[i].x[2]));
    }
    if (ordered)
        qsort(pts, n, sizeof *pts, cmp_keyed);
    CHECK(cdyn_system_create_with_allocator(dim, &a, &sys));
    for (size_t i = 0; i < n; i++)
        CHECK(cdyn_particle_add(sys, 1.0, pts[i].x, NULL, &p[i]));
    cdyn_pair_params pp;
    CHECK(cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ));
    pp.stiffness = STIFFNESS;
    pp.radius = RADIUS;
    size_t before = cnt.live;
    cdyn_force f;
    CHECK(cdyn_force_add_pair_set(sys, &pp, p, n, &f));
    r.pair_bytes_pp = (double)(cnt.live - before) / (double)n;
    size_t contacts;
    CHECK(cdyn_force_get_pair_contacts(sys, f, NULL, 0, &contacts));
    r.contacts_pp = (double)contacts / (double)n;
    size_t cap = n * (size_t)dim;

    /* Warm-up (sizes the workspace), then a count of evaluations that
     * lasts about @p seconds. */
    CHECK(cdyn_system_evaluate(sys, acc, cap));
    double t0 = bench_now();
    for (int k = 0; k < 3; k++)
        CHECK(cdyn_system_evaluate(sys, acc, cap));
    double t1 = (bench_now() - t0) / 3;
    long evals = (long)ceil(seconds / fmax(t1, 1e-9));
    evals = evals < 1 ? 1 : evals > 100000 ? 100000 : evals;
    r.evals = evals;
    double wall, cpu, wall0, cpu0;
    if (time_evaluate(sys, acc, cap, evals, repeats, &wall, &cpu))
        goto done;
    double e_times[64];
    for (int rep = 0; rep < repeats; rep++) {
        double e;
        t0 = bench_now();
        for (long k = 0; k < evals; k++)
            CHECK(cdyn_system_get_potential_energy(sys, &e));
        e_times[rep] = (bench_now() - t0) / (double)evals;
    }
    r.ns_energy = 1e9 * bench_median(e_times, (size_t)repeats) / (double)n;
    r.peak_rss_mb = (double)bench_peak_rss() / (1024.0 * 1024.0);
    r.bytes_pp = (double)cnt.peak / (double)n;
    /* The same call without the pair set: the base cost of an evaluation. */
    CHECK(cdyn_force_remove(sys, f));
    if (time_evaluate(sys, acc, cap, evals, repeats, &wall0, &cpu0))
        goto done;
    r.ns_base = 1e9 * wall0 / (double)n;
    r.ns_pair = 1e9 * (wall - wall0) / (double)n;
    r.cpu_ns_pair = 1e9 * (cpu - cpu0) / (double)n;
    r.ok = isfinite(r.ns_pair) && r.ns_pair > 0;
done:
    cdyn_system_destroy(sys);
    free(pts);
    free(acc);
    free(p);
    return r;
}

static void print_row(int dim, const result *r)
{
    printf("%3d %8zu %9.2f %6ld %10.1f %10.1f %9.1f %10.1f %9.1f %9.1f %9.1f%s\n", dim, r->n,
           r->contacts_pp, r->evals, r->ns_pair, r->cpu_ns_pair, r->ns_base, r->ns_energy,
           r->peak_rss_mb, r->bytes_pp, r->pair_bytes_pp, r->ok ? "" : "  FAILED");
    fflush(stdout);
}

/* Runs one size in a child process (its own peak RSS); the result comes
 * back through a pipe. */
static int run_isolated(size_t n, int dim, int repeats, double seconds, int ordered,
                        result *out)
{
    int fd[2];
    fflush(stdout);
    if (pipe(fd) != 0) {
        *out = run(n, dim, repeats, seconds, ordered);
        print_row(dim, out);
        return out->ok ? 0 : 1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        result r = run(n, dim, repeats, seconds, ordered);
        print_row(dim, &r);
        ssize_t w = write(fd[1], &r, sizeof r);
        close(fd[1]);
        _exit(r.ok && w == (ssize_t)sizeof r ? 0 : 1);
    }
    close(fd[1]);
    if (pid < 0) {
        close(fd[0]);
        *out = run(n, dim, repeats, seconds, ordered);
        print_row(dim, out);
        return out->ok ? 0 : 1;
    }
    ssize_t got = read(fd[0], out, sizeof *out);
    close(fd[0]);
    int status = 0;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        got != (ssize_t)sizeof *out) {
        printf("%3d %8zu  failed (child status %d)\n", dim, n, status);
        out->ok = 0;
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int full = 0, repeats = 5, dims = 0, ordered = 0;
    size_t only = 0;
    double seconds = 0.2;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--full") == 0) {
            full = 1;
        } else if (strcmp(argv[i], "--ordered") == 0) {
            ordered = 1;
        } else if (strcmp(argv[i], "--repeats") == 0 && i + 1 < argc) {
            repeats = atoi(argv[++i]);
            if (repeats < 1 || repeats > 64) {
                fprintf(stderr, "bench_pair: --repeats wants 1..64\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
            seconds = atof(argv[++i]);
            if (!(seconds > 0 && seconds < 100)) {
                fprintf(stderr, "bench_pair: --seconds wants (0, 100)\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            double v = atof(argv[++i]);
            if (!(v >= 2 && v <= 1e8)) {
                fprintf(stderr, "bench_pair: --size wants 2..1e8\n");
                return 2;
            }
            only = (size_t)v;
        } else if (strcmp(argv[i], "--dim") == 0 && i + 1 < argc) {
            dims = atoi(argv[++i]);
            if (dims != 2 && dims != 3) {
                fprintf(stderr, "bench_pair: --dim wants 2 or 3\n");
                return 2;
            }
        } else {
            printf("usage: bench_pair [--full] [--ordered] [--size N] [--dim 2|3] [--repeats R] "
                   "[--seconds S]\n"
                   "Times one all-pairs force evaluation of a Hertz pair set over N random\n"
                   "particles at a fixed density (cell list), per particle.\n"
                   "  --full       N = 10^3 .. 10^6 (default 10^3 .. 10^5)\n"
                   "  --ordered    add the particles in spatial (row-major cell) order\n"
                   "  --size N     only N particles\n"
                   "  --dim D      only dimension D (default both)\n"
                   "  --repeats R  timed runs per size, median reported (default 5)\n"
                   "  --seconds S  target duration of one timed run (default 0.2)\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    size_t sizes[] = {1000, 10000, 100000, 1000000};
    size_t n_sizes = full ? 4 : 3;
    if (only) {
        sizes[0] = only;
        n_sizes = 1;
    }
    printf("bench_pair: Hertz pair set, R = %g, solid fraction 0.3 (3-D) / 0.5 (2-D), "
           "uniform random positions added in %s order, median of %d runs of ~%g s\n", RADIUS,
           ordered ? "spatial" : "random", repeats, seconds);
    printf("%3s %8s %9s %6s %10s %10s %9s %10s %9s %9s %9s\n", "dim", "N", "contacts", "evals",
           "pair", "pair CPU", "base", "energy", "peak RSS", "bytes/", "pair B/");
    printf("%3s %8s %9s %6s %10s %10s %9s %10s %9s %9s %9s\n", "", "", "/particle", "/run",
           "ns/part.", "ns/part.", "ns/part.", "ns/part.", "(MB)", "particle", "particle");
    int failed = 0;
    for (int dim = 2; dim <= 3; dim++) {
        if (dims && dim != dims)
            continue;
        double lx[8], ly[8];
        size_t m = 0;
        for (size_t s = 0; s < n_sizes; s++) {
            result r;
            failed |= run_isolated(sizes[s], dim, repeats, seconds, ordered, &r);
            if (r.ok) {
                lx[m] = log((double)r.n);
                ly[m] = log(r.ns_pair * (double)r.n);
                m++;
            }
        }
        if (m >= 2) {
            double sx = 0, sy = 0, sxx = 0, sxy = 0;
            for (size_t i = 0; i < m; i++) {
                sx += lx[i];
                sy += ly[i];
                sxx += lx[i] * lx[i];
                sxy += lx[i] * ly[i];
            }
            double b = ((double)m * sxy - sx * sy) / ((double)m * sxx - sx * sx);
            printf("%3d fitted exponent of the pair time per evaluation: N^%.3f\n", dim, b);
        }
    }
    return failed;
}
