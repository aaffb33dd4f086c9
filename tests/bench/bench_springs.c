/* bench_springs: cost of a step of a spring-dashpot network.
 *
 * A hanging net: N particles on a square lattice (2-D) or a cubic lattice
 * (3-D), springs with dashpots along the lattice edges and the diagonals
 * (2-D: both diagonals of every cell; 3-D: both diagonals of every face of
 * every cell), gravity, the top row (2-D) or top layer (3-D) fixed. Integrated
 * with RK4 at a step well inside its stability limit.
 *
 * Prints one row per (dimension, N): springs, the median wall time of a step
 * over several repeats, the median CPU time of a step (the same on an idle
 * machine, smaller when other processes compete for the processors), the
 * wall time per particle and per spring, the peak
 * resident set size of the process that ran that size, and the bytes the
 * library holds for it per particle (through a counting allocator: what the
 * system holds while stepping, and the peak while it was built, when a
 * growing array and its replacement both exist).
 * Each size runs in its own child process so that its peak RSS is its own.
 *
 * Each size is timed without a task system (1 worker: the step CPU, the
 * figures per spring and the memory are of these runs) and with a pool of
 * 2 workers (examples/task_pool.c), runs interleaved, medians; the ratio of
 * the two per-particle times is printed. The machine (CPU model, load
 * average) is printed at the start and the end.
 *
 * Default: N = 10^2, 10^3, 10^4 in 2-D and 3-D. --full adds 10^5 and 10^6.
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
#include "task_pool.h"

/* Physical set-up: 1 g masses 1 cm apart, 1000 N/m springs. The stiffest mode
 * has omega^2 <= 2 * (sum of stiffnesses at a particle) / m (Gershgorin), at
 * most 2 * 18 * 1000 / 1e-3 = 3.6e7 s^-2 in 3-D (6 edge and 12 face-diagonal
 * springs), so omega dt <= 0.6 at dt = 1e-4: far inside RK4's limit of 2.8.
 * The dashpots' rate 2 * 18 * D / m = 1800 s^-1 gives 0.18 dt, also far in. */
#define SPACING 0.01
#define MASS 1e-3
#define STIFFNESS 1000.0
#define DAMPING 0.05
#define DT 1e-4

/* CPU time of this thread in seconds: unlike wall time, it does not count
 * the time the thread waited for a processor on a loaded machine. */
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

/* Lattice extents with product exactly n, as close to a square (cube) as
 * the divisors of n allow. */
static void extents(size_t n, int dim, size_t e[3])
{
    e[0] = e[1] = e[2] = 1;
    size_t rest = n;
    for (int k = 0; k < dim - 1; k++) {
        double target = pow((double)rest, 1.0 / (double)(dim - k));
        size_t best = 1;
        for (size_t d = 1; d <= rest && (double)d <= target + 1e-9; d++)
            if (rest % d == 0)
                best = d;
        e[k] = best;
        rest /= best;
    }
    e[dim - 1] = rest;
}

typedef struct result {
    size_t n, springs;
    long steps;
    double ms_per_step, cpu_ms_per_step, ns_particle, ns_spring, ns_particle2, ns_idle2;
    double peak_rss_mb, bytes_per_particle, peak_bytes_per_particle;
    int ok;
} result;

#define CHECK(call)                                                                    \
    do {                                                                               \
        cdyn_status st_ = (call);                                                      \
        if (st_ != CDYN_OK) {                                                          \
            fprintf(stderr, "bench_springs: %s: %s (%s)\n", #call, cdyn_status_name(st_), \
                    cdyn_system_last_error(sys));                                      \
            goto done;                                                                 \
        }                                                                              \
    } while (0)

/* Builds the net of @p n particles in dimension @p dim and times RK4 steps:
 * @p repeats timed runs of enough steps to last about @p seconds each. */
static result run(size_t n, int dim, int repeats, double seconds)
{
    result r = {.n = n};
    counting cnt = {0, 0};
    cdyn_allocator a = {count_alloc, count_free, &cnt};
    cdyn_system *sys = NULL;
    size_t e[3];
    extents(n, dim, e);
    const size_t nx = e[0], ny = e[1], nz = e[2];
    /* The "up" axis is the last lattice axis: y in 2-D, z in 3-D; gravity
     * acts along it. Index (i, j, k) -> i + nx (j + ny k). */
    const size_t top = dim == 2 ? ny - 1 : nz - 1;
    cdyn_particle *p = malloc(n * sizeof *p);
    double *times = malloc((size_t)repeats * sizeof *times);
    double *cpu = malloc((size_t)repeats * sizeof *cpu);
    double *times2 = malloc((size_t)repeats * sizeof *times2);
    double *idle2 = malloc((size_t)repeats * sizeof *idle2);
    task_pool *pool = NULL;
    if (!p || !times || !cpu || !times2 || !idle2 || task_pool_create(2, &pool))
        goto done;
    CHECK(cdyn_system_create_with_allocator(dim, &a, &sys));
    CHECK(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4));
    for (size_t k = 0; k < nz; k++)
        for (size_t j = 0; j < ny; j++)
            for (size_t i = 0; i < nx; i++) {
                double x[3] = {SPACING * (double)i, SPACING * (double)j, SPACING * (double)k};
                size_t id = i + nx * (j + ny * k);
                CHECK(cdyn_particle_add(sys, MASS, x, NULL, &p[id]));
                if ((dim == 2 ? j : k) == top)
                    CHECK(cdyn_particle_set_fixed(sys, p[id], true));
            }
    /* Springs to the neighbours with a larger index along each offset: the
     * edges (one axis), and the two diagonals of each face (two axes). */
    static const int OFF3[9][3] = {{1, 0, 0},  {0, 1, 0}, {0, 0, 1},  {1, 1, 0}, {1, -1, 0},
                                   {1, 0, 1},  {1, 0, -1}, {0, 1, 1}, {0, 1, -1}};
    static const int OFF2[4][3] = {{1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, -1, 0}};
    const int (*off)[3] = dim == 2 ? OFF2 : OFF3;
    int n_off = dim == 2 ? 4 : 9;
    for (size_t k = 0; k < nz; k++)
        for (size_t j = 0; j < ny; j++)
            for (size_t i = 0; i < nx; i++)
                for (int o = 0; o < n_off; o++) {
                    long i2 = (long)i + off[o][0], j2 = (long)j + off[o][1],
                         k2 = (long)k + off[o][2];
                    if (i2 < 0 || j2 < 0 || k2 < 0 || i2 >= (long)nx || j2 >= (long)ny ||
                        k2 >= (long)nz)
                        continue;
                    double len = SPACING * sqrt((double)(off[o][0] * off[o][0] +
                                                         off[o][1] * off[o][1] +
                                                         off[o][2] * off[o][2]));
                    cdyn_force f;
                    CHECK(cdyn_force_add_spring(sys, p[i + nx * (j + ny * k)],
                                                p[(size_t)i2 + nx * ((size_t)j2 + ny * (size_t)k2)],
                                                STIFFNESS, DAMPING, len, &f));
                    r.springs++;
                }
    double g[3] = {0, 0, 0};
    g[dim - 1] = -9.81;
    cdyn_force grav;
    CHECK(cdyn_force_add_gravity(sys, g, &grav));

    /* Warm-up: the first step sizes the workspace. Then pick a step count. */
    double t0 = bench_now();
    CHECK(cdyn_system_step(sys, DT));
    double t1 = bench_now() - t0;
    t0 = bench_now();
    CHECK(cdyn_system_step(sys, DT));
    t1 = fmin(t1, bench_now() - t0);
    long steps = (long)ceil(seconds / fmax(t1, 1e-9));
    steps = steps < 2 ? 2 : steps > 100000 ? 100000 : steps;
    /* Interleaved: a run without a task system, a run with the 2-worker
     * pool, and so on. */
    const size_t held = cnt.live, peak = cnt.peak; /* before the 2-worker runs' scratch */
    cdyn_task_system ts;
    cdyn_task_system_init(&ts);
    if (pool)
        task_pool_fill(pool, &ts);
    for (int rep = 0; rep < repeats; rep++) {
        CHECK(cdyn_system_set_task_system(sys, NULL));
        double c0 = cpu_now();
        t0 = bench_now();
        for (long s = 0; s < steps; s++)
            CHECK(cdyn_system_step(sys, DT));
        times[rep] = (bench_now() - t0) / (double)steps;
        cpu[rep] = (cpu_now() - c0) / (double)steps;
        if (!pool)
            continue;
        CHECK(cdyn_system_set_task_system(sys, &ts));
        t0 = bench_now();
        for (long s = 0; s < steps; s++)
            CHECK(cdyn_system_step(sys, DT));
        times2[rep] = (bench_now() - t0) / (double)steps;
        /* The idle-core estimate: one range per thread, CPU times. */
        double crit0, busy0, in0, crit1, busy1, in1;
        task_pool_set_fixed(pool, 1);
        task_pool_times(pool, &crit0, &busy0, &in0);
        c0 = cpu_now();
        for (long s = 0; s < steps; s++)
            CHECK(cdyn_system_step(sys, DT));
        double c1 = cpu_now();
        task_pool_times(pool, &crit1, &busy1, &in1);
        task_pool_set_fixed(pool, 0);
        idle2[rep] = (c1 - c0 - (in1 - in0) + (crit1 - crit0)) / (double)steps;
    }
    CHECK(cdyn_system_set_task_system(sys, NULL));
    if (pool) {
        r.ns_particle2 = 1e9 * bench_median(times2, (size_t)repeats) / (double)n;
        r.ns_idle2 = 1e9 * bench_median(idle2, (size_t)repeats) / (double)n;
    }
    double per_step = bench_median(times, (size_t)repeats);
    r.cpu_ms_per_step = 1e3 * bench_median(cpu, (size_t)repeats);
    r.steps = steps;
    r.ms_per_step = 1e3 * per_step;
    r.ns_particle = 1e9 * per_step / (double)n;
    r.ns_spring = 1e9 * per_step / (double)r.springs;
    r.peak_rss_mb = (double)bench_peak_rss() / (1024.0 * 1024.0);
    r.bytes_per_particle = (double)held / (double)n;
    r.peak_bytes_per_particle = (double)peak / (double)n;
    /* The net must still be a sane net: finite energy. */
    double ke;
    CHECK(cdyn_system_get_kinetic_energy(sys, &ke));
    r.ok = isfinite(ke);
done:
    cdyn_system_destroy(sys);
    task_pool_destroy(pool);
    free(idle2);
    free(times2);
    free(cpu);
    free(times);
    free(p);
    return r;
}

static void print_row(int dim, const result *r)
{
    const double ns_cpu = 1e6 * r->cpu_ms_per_step / (double)r->n;
    printf("%3d %8zu %8zu %7ld %10.4f %10.4f %11.1f %11.1f %7.2f %9.1f %7.2f %9.2f %9.1f %9.0f "
           "%9.0f%s\n",
           dim, r->n, r->springs, r->steps, r->ms_per_step, r->cpu_ms_per_step, r->ns_particle,
           r->ns_particle2, r->ns_particle / r->ns_particle2, r->ns_idle2, ns_cpu / r->ns_idle2,
           r->ns_spring, r->peak_rss_mb, r->bytes_per_particle, r->peak_bytes_per_particle,
           r->ok ? "" : "  FAILED");
    fflush(stdout);
}

/* Runs one size in a child process, so that its peak RSS is its own. */
static int run_isolated(size_t n, int dim, int repeats, double seconds)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        result r = run(n, dim, repeats, seconds);
        print_row(dim, &r);
        _exit(r.ok ? 0 : 1);
    }
    if (pid < 0) { /* no fork: run here (peak RSS is then the process's so far) */
        result r = run(n, dim, repeats, seconds);
        print_row(dim, &r);
        return r.ok ? 0 : 1;
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        printf("%3d %8zu  failed (child status %d)\n", dim, n, status);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int full = 0, repeats = 5, dims = 0; /* dims 0: both */
    size_t only = 0;                       /* --size N: that size only */
    double seconds = 0.2;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--full") == 0) {
            full = 1;
        } else if (strcmp(argv[i], "--repeats") == 0 && i + 1 < argc) {
            repeats = atoi(argv[++i]);
            if (repeats < 1 || repeats > 100) {
                fprintf(stderr, "bench_springs: --repeats wants 1..100\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
            seconds = atof(argv[++i]);
            if (!(seconds > 0 && seconds < 100)) {
                fprintf(stderr, "bench_springs: --seconds wants (0, 100)\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            double v = atof(argv[++i]);
            if (!(v >= 4 && v <= 1e8)) {
                fprintf(stderr, "bench_springs: --size wants 4..1e8\n");
                return 2;
            }
            only = (size_t)v;
        } else if (strcmp(argv[i], "--dim") == 0 && i + 1 < argc) {
            dims = atoi(argv[++i]);
            if (dims != 2 && dims != 3) {
                fprintf(stderr, "bench_springs: --dim wants 2 or 3\n");
                return 2;
            }
        } else {
            printf("usage: bench_springs [--full] [--size N] [--dim 2|3] [--repeats R] "
                   "[--seconds S]\n"
                   "Times RK4 steps of a hanging spring-dashpot net (square lattice in 2-D,\n"
                   "cubic in 3-D, edge and diagonal springs, top row fixed, gravity).\n"
                   "  --full       N = 10^2 .. 10^6 (default 10^2 .. 10^4)\n"
                   "  --size N     only N particles\n"
                   "  --dim D      only dimension D (default both)\n"
                   "  --repeats R  timed runs per size, median reported (default 5)\n"
                   "  --seconds S  target duration of one timed run (default 0.2)\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    size_t sizes[] = {100, 1000, 10000, 100000, 1000000};
    size_t n_sizes = full ? 5 : 3;
    if (only) {
        sizes[0] = only;
        n_sizes = 1;
    }
    printf("bench_springs: RK4, dt = %g s, m = %g kg, S = %g N/m, D = %g N s/m, "
           "median of %d runs of ~%g s\n", DT, MASS, STIFFNESS, DAMPING, repeats, seconds);
    bench_print_machine("start");
    printf("# 2w idle: the 2-worker step as it would be on two idle cores, from CPU times (the "
           "stepping thread's outside the loops plus, per loop, the longer of the two threads' "
           "ranges, one range each); cpu/idle: the 1-worker CPU time over it\n");
    printf("%3s %8s %8s %7s %10s %10s %11s %11s %7s %9s %7s %9s %9s %9s %9s\n", "dim", "N",
           "springs", "steps", "step", "step CPU", "ns/particle", "ns/particle", "1w/2w",
           "2w idle", "cpu/", "ns/spring", "peak RSS", "bytes/", "bytes/");
    printf("%3s %8s %8s %7s %10s %10s %11s %11s %7s %9s %7s %9s %9s %9s %9s\n", "", "", "",
           "per run", "(ms)", "(ms)", "per step", "per step", "", "ns/part.", "idle",
           "per step", "(MB)", "particle", "particle");
    printf("%3s %8s %8s %7s %10s %10s %11s %11s %7s %9s %7s %9s %9s %9s %9s\n", "", "", "", "",
           "median", "median", "1 worker", "2 workers", "", "", "", "1 worker", "", "held",
           "peak");
    int failed = 0;
    for (int dim = 2; dim <= 3; dim++) {
        if (dims && dim != dims)
            continue;
        for (size_t s = 0; s < n_sizes; s++)
            failed |= run_isolated(sizes[s], dim, repeats, seconds);
    }
    bench_print_machine("end");
    return failed;
}
