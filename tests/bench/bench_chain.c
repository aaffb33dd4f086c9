/* bench_chain: the standard chain (fixed pivot at
 * the origin, N unit masses at x = 0.1 i, rods of 0.1, gravity 9.81 along
 * -y, dt = 1e-3, 1000 steps) with symplectic Euler, the direct solver and
 * the default feedback gains. Prints per N: time per step, ns per
 * constraint per step, library memory (counted through the allocator),
 * bytes per constraint, peak RSS, the worst relative rod error and the
 * energy error relative to |potential energy| at t = 1 s.
 *
 * Stability: a taut chain's transverse waves reach omega = 2 sqrt(T / (m L))
 * (docs/rattle.md), and explicit integration needs h omega < 2, i.e. a
 * tension T < m L / h^2 = 1e5 N here. Every 10 steps, outside the timed
 * part, the Euler rows read the largest rod tension |lambda| |d| and the
 * errors. At N = 10^6 the tension near the pivot passes the limit around
 * t = 0.12 s; from there the chain's transverse modes grow (rod error 1e-2
 * near t = 0.45 s, hundreds of rod lengths by t = 1 s). Such a row still
 * times all 1000 steps (each does the same work whatever the state) but
 * reports the rod and energy errors of the last check before the limit, and
 * says so on the line below. The fitted exponent is the least-squares slope
 * of log(time per step) against log N over the rows with N >= 1000
 * (--full: 10^3, 10^4, 10^5, 10^6), also printed without the rows past the
 * limit.
 *
 * Each Euler row and each Newton RATTLE row also times a hand-written step
 * of the same chain (chain_reference.c: nothing but this chain's
 * equations), as a yardstick for the machine at hand, and prints the
 * library's time over it (and for RATTLE the hand-written Newton solves
 * per step).
 *
 * Then the same chain with RATTLE (docs/rattle.md): Newton projection at
 * the relative tolerance 1e-12 (positions and velocities), N = 10..10^4
 * (--full: to 10^6), with the projection iterations per step (position
 * solves, velocity solves) and factorizations per step; and the classic
 * SHAKE projection for small N (--full: to 100), whose sweeps per step grow
 * with N, with the fitted exponents of time against N.
 *
 * Last, the workers table: per N (10^3..10^5; --full adds 10^6 at
 * dt = 2.5e-4 over 200 steps, below its stability limit) the lean
 * hand-written RATTLE, and the library's RATTLE without a task system and
 * with a pool of 2 workers (examples/task_pool.c), interleaved, medians,
 * with the ratios. Each run's first step is timed apart: it carries the
 * one-time work (the library's analysis of the constraint graph and its
 * plan of the chain, both codes' first touch of their arrays), which is
 * printed in its own columns, and the per-step times are of the steps
 * after it. Then the multiplier solve's workers table: per N (10^4, 10^5;
 * --full adds 10^6; time steps below the stability limit) symplectic
 * Euler without a task system and with the pool of 2 workers, which cuts
 * the chain's solve into segments. The
 * machine (CPU model, load average) is printed at the start and the end.
 *
 * `--only twisted` (not in the default run) times, next to the hand-written
 * RATTLE and the library on one thread, a sketch of the one-thread kernel
 * still to be written (chain_twisted.c: the twisted two-lane sweeps, for
 * this chain alone), and how far its chain ends from the library's.
 *
 * Usage: bench_chain [--full] [--solver direct|cg] [--repeat R]
 *                    [--only euler|rattle|shake|workers|euler-workers|twisted]
 *                    [--sizes N1,N2,...]
 * Default sizes 10..10^4; --full adds 10^5 and 10^6; --sizes replaces the
 * Euler table's sizes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "bench_util.h"
#include "chain_reference.h"
#include "chain_twisted.h"
#include "support.h"
#include "task_pool.h"

typedef struct counter {
    size_t live, peak;
} counter;

static void *count_alloc(size_t size, void *user)
{
    counter *c = user;
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
    counter *c = user;
    if (ptr)
        c->live -= size;
    free(ptr);
}

typedef struct result {
    double seconds, rod_error, energy_error;
    size_t bytes;
    double pos_iter, vel_iter, factorizations; /* per step (RATTLE) */
    int steps;          /* steps completed (RATTLE rows go on measuring after a failure) */
    char failure[256];  /* the message of the failed step, if any */
    int unstable;       /* Euler rows: the tension passed T_LIMIT ... */
    int stable_steps;   /* ... after this many steps (the last check below it) */
    double tension;     /* the largest rod tension at that check (N) */
} result;

#define DT 1e-3
#define LINK 0.1
/* Explicit integration of the unit-mass chain is stable for h omega < 2 with
 * omega = 2 sqrt(T / (m L)): tensions below m L / h^2. */
#define T_LIMIT (1.0 * LINK / (DT * DT))
/* Steps between two checks in the Euler rows. */
#define CHECK_EVERY 10

/* The largest rod tension |lambda| |d| (N) of the last evaluation (x: room
 * for 2 (n + 1) doubles). */
static double max_tension(const cdyn_system *sys, const cdyn_constraint *rods, long n,
                          double *x)
{
    cdyn_system_get_positions(sys, x, (size_t)(n + 1) * 2);
    double worst = 0;
    for (long i = 1; i <= n; i++) {
        double lambda;
        cdyn_constraint_get_multipliers(sys, rods[i - 1], &lambda, 1);
        double len = hypot(x[2 * i] - x[2 * i - 2], x[2 * i + 1] - x[2 * i - 1]);
        worst = fmax(worst, fabs(lambda) * len);
    }
    return worst;
}

/* Worst relative rod error and energy error of the chain (x: room for
 * 2 (n + 1) doubles). */
static void chain_errors(const cdyn_system *sys, long n, double e0, double *x, double *rod,
                         double *energy)
{
    size_t m = (size_t)(n + 1) * 2;
    cdyn_system_get_positions(sys, x, m);
    double worst = 0;
    for (long i = 1; i <= n; i++) {
        double len = hypot(x[2 * i] - x[2 * i - 2], x[2 * i + 1] - x[2 * i - 1]);
        worst = fmax(worst, fabs(len - 0.1) / 0.1);
    }
    double k, u;
    cdyn_system_get_kinetic_energy(sys, &k);
    cdyn_system_get_potential_energy(sys, &u);
    *rod = worst;
    *energy = (k + u - e0) / fabs(u);
}

/* Projection of the RATTLE rows: 0 = none (symplectic Euler table). */
static cdyn_projection_method g_method = 0;

/* RATTLE's projection by @p method at the hand-written code's relative
 * tolerance, 1e-12, with no cap on its iterations. */
static void set_tight_projection(cdyn_system *sys, cdyn_projection_method method)
{
    cdyn_projection_options po;
    cdyn_projection_options_init(&po);
    po.method = method;
    po.position_tolerance = 1e-12;
    po.velocity_tolerance = 1e-12;
    po.max_iterations = 1000000;
    cdyn_system_set_projection_options(sys, &po);
}

static int run(long n, cdyn_constraint_solver solver, cdyn_integrator integrator, result *out)
{
    counter cnt = {0, 0};
    cdyn_allocator al = {count_alloc, count_free, &cnt};
    cdyn_system *sys;
    if (cdyn_system_create_with_allocator(2, &al, &sys))
        return 1;
    cdyn_system_set_integrator(sys, integrator);
    ts_set_solver(sys, solver);
    if (g_method)
        set_tight_projection(sys, g_method);
    cdyn_constraint *rods = malloc((size_t)n * sizeof *rods);
    if (ts_standard_chain(sys, (int)n, NULL, rods)) {
        fprintf(stderr, "setup failed: %s\n", cdyn_system_last_error(sys));
        return 1;
    }
    double e0, k, u;
    cdyn_system_get_kinetic_energy(sys, &k);
    cdyn_system_get_potential_energy(sys, &u);
    e0 = k + u;
    size_t m = (size_t)(n + 1) * 2;
    double *x = malloc(m * sizeof *x);
    out->steps = 0;
    out->failure[0] = 0;
    out->unstable = 0;
    out->stable_steps = 0;
    out->tension = 0;
    out->seconds = 0;
    out->rod_error = out->energy_error = 0;
    /* Euler rows: timed in stretches of CHECK_EVERY steps, checked between. */
    const int stretch = g_method ? 1000 : CHECK_EVERY;
    while (out->steps < 1000 && !out->failure[0]) {
        double t0 = bench_now();
        for (int s = 0; s < stretch && out->steps < 1000; s++, out->steps++)
            if (cdyn_system_step(sys, DT)) {
                if (!g_method) {
                    fprintf(stderr, "step failed: %s\n", cdyn_system_last_error(sys));
                    return 1;
                }
                /* RATTLE rows: report the failure, measure what ran. */
                snprintf(out->failure, sizeof out->failure, "%s",
                         cdyn_system_last_error(sys));
                break;
            }
        out->seconds += bench_now() - t0;
        if (!g_method && !out->unstable) {
            double t_max = max_tension(sys, rods, n, x);
            if (t_max >= T_LIMIT) {
                out->unstable = 1;
                out->tension = t_max;
            } else {
                chain_errors(sys, n, e0, x, &out->rod_error, &out->energy_error);
                out->stable_steps = out->steps;
            }
        }
    }
    cdyn_projection_stats ps = {.size = sizeof ps};
    cdyn_system_get_projection_stats(sys, &ps);
    double done = out->steps > 0 ? (double)out->steps : 1.0;
    out->pos_iter = (double)ps.position_iterations_total / done;
    out->vel_iter = (double)ps.velocity_iterations_total / done;
    out->factorizations = (double)ps.factorizations / done;
    if (g_method)
        chain_errors(sys, n, e0, x, &out->rod_error, &out->energy_error);
    free(x);
    free(rods);
    out->bytes = cnt.peak;
    cdyn_system_destroy(sys);
    return 0;
}

static double fit_slope(const double *lx, const double *ly, int nfit)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < nfit; i++)
        sx += lx[i], sy += ly[i], sxx += lx[i] * lx[i], sxy += lx[i] * ly[i];
    return (nfit * sxy - sx * sy) / (nfit * sxx - sx * sx);
}

/* RATTLE rows: Newton (sizes 10..10^4, --full to 10^6) or classic SHAKE. */
static int rattle_table(cdyn_projection_method method, int full, int repeat,
                        cdyn_constraint_solver solver)
{
    const long newton_sizes[] = {10, 100, 1000, 10000, 100000, 1000000};
    const long shake_sizes[] = {10, 20, 30, 50, 100};
    const long *sizes = method == CDYN_PROJECTION_NEWTON ? newton_sizes : shake_sizes;
    int n_sizes = method == CDYN_PROJECTION_NEWTON ? (full ? 6 : 4) : (full ? 5 : 3);
    g_method = method;
    printf("\nstandard chain, RATTLE, %s projection, tolerance 1e-12 relative, dt = 1e-3, "
           "1000 steps (median of %d runs)\n",
           method == CDYN_PROJECTION_NEWTON ? "Newton" : "classic SHAKE", repeat);
    const int newton = method == CDYN_PROJECTION_NEWTON;
    printf("%9s %12s %11s %9s %9s %8s %10s %9s %11s %11s", "N", "ms/step", "ns/link",
           "pos it", "vel it", "fact", "lib MB", "B/link", "rod err", "dE/|U|");
    printf(newton ? " %9s %8s %7s\n" : "\n", "hand ns", "hand it", "ratio");
    double lx[8], ly[8];
    int nfit = 0;
    for (int s = 0; s < n_sizes; s++) {
        long n = sizes[s];
        double times[16];
        result r = {0};
        int reps = n >= 100000 || (method == CDYN_PROJECTION_SHAKE && n >= 50) ? 1 : repeat;
        for (int k = 0; k < reps && k < 16; k++) {
            if (run(n, solver, CDYN_INTEGRATOR_RATTLE, &r))
                return 1;
            times[k] = r.seconds;
        }
        double t = bench_median(times, (size_t)(reps < 16 ? reps : 16));
        double per_step = t / (r.steps > 0 ? r.steps : 1);
        printf("%9ld %12.4f %11.2f %9.3f %9.3f %8.3f %10.2f %9.1f %11.3e %11.3e", n,
               per_step * 1e3, per_step / (double)n * 1e9, r.pos_iter, r.vel_iter,
               r.factorizations, (double)r.bytes / 1048576.0, (double)r.bytes / (double)n,
               r.rod_error, r.energy_error);
        if (newton) {
            /* The hand-written RATTLE over the same steps (it fails where
             * the library does, at the same step). */
            double hand[16], hand_it = 0, hand_err;
            int hand_steps = 0;
            for (int k = 0; k < reps && k < 16; k++)
                hand[k] = chain_reference_rattle_seconds(n, &hand_steps, &hand_it, &hand_err);
            double hand_step = bench_median(hand, (size_t)(reps < 16 ? reps : 16));
            printf(" %9.2f %8.3f %7.2f", hand_step / (double)n * 1e9, hand_it,
                   per_step / hand_step);
        }
        printf("\n");
        if (r.failure[0])
            printf("          step %d (t = %.3f s) failed; the row shows the steps before it: %s\n",
                   r.steps + 1, 1e-3 * (r.steps + 1), r.failure);
        fflush(stdout);
        if (method == CDYN_PROJECTION_SHAKE || n >= 1000) {
            lx[nfit] = log((double)n);
            ly[nfit++] = log(per_step);
        }
    }
    if (nfit >= 2)
        printf("fitted time exponent (%s): %.3f\n",
               method == CDYN_PROJECTION_NEWTON ? "N >= 1000" : "all N", fit_slope(lx, ly, nfit));
    g_method = 0;
    return 0;
}

/* ------------------------------------------------------------------------
 * Workers: the library's RATTLE on the host's threads next to the lean
 * hand-written RATTLE
 * ------------------------------------------------------------------------ */

/* One library run of the standard chain with @p integrator (RATTLE:
 * Newton, tolerance 1e-12 as the hand-written code; symplectic Euler: the
 * multiplier solve) over @p steps steps of @p dt, its loops
 * handed to @p pool (NULL: no task system). Returns seconds per step over
 * the steps completed after the first (-1 on a setup failure, or when the
 * first step fails); *steps, *rod_error, and *first_step (may be NULL) the
 * first step's seconds. */
/* The standard chain of @p n links in a new 2-D system under
 * @p integrator (RATTLE: Newton at 1e-12); NULL on a setup failure. */
static cdyn_system *standard_chain(long n, cdyn_integrator integrator)
{
    cdyn_system *sys;
    if (cdyn_system_create(2, &sys))
        return NULL;
    cdyn_system_set_integrator(sys, integrator);
    if (integrator == CDYN_INTEGRATOR_RATTLE)
        set_tight_projection(sys, CDYN_PROJECTION_NEWTON);
    if (ts_standard_chain(sys, (int)n, NULL, NULL)) {
        cdyn_system_destroy(sys);
        return NULL;
    }
    return sys;
}

static double run_workers(long n, cdyn_integrator integrator, double dt, int steps,
                          task_pool *pool, int *done, double *rod_error, double *idle_estimate,
                          double *cpu_per_step, double *first_step)
{
    cdyn_system *sys = standard_chain(n, integrator);
    if (!sys)
        return -1;
    if (pool) {
        cdyn_task_system ts;
        cdyn_task_system_init(&ts);
        task_pool_fill(pool, &ts);
        cdyn_system_set_task_system(sys, &ts);
    }
    *done = 0;
    const double f0 = bench_now();
    if (cdyn_system_step(sys, dt) != CDYN_OK) {
        cdyn_system_set_task_system(sys, NULL);
        cdyn_system_destroy(sys);
        return -1;
    }
    if (first_step)
        *first_step = bench_now() - f0;
    double crit0 = 0, busy0 = 0, in0 = 0, crit1 = 0, busy1 = 0, in1 = 0;
    if (pool)
        task_pool_times(pool, &crit0, &busy0, &in0);
    double c0 = bench_thread_cpu(), t0 = bench_now();
    while (*done < steps && cdyn_system_step(sys, dt) == CDYN_OK)
        ++*done;
    double seconds = (bench_now() - t0) / (*done > 0 ? *done : 1);
    double cpu = bench_thread_cpu() - c0;
    if (pool)
        task_pool_times(pool, &crit1, &busy1, &in1);
    if (idle_estimate)
        *idle_estimate = (cpu - (in1 - in0) + (crit1 - crit0)) / (*done > 0 ? *done : 1);
    if (cpu_per_step)
        *cpu_per_step = cpu / (*done > 0 ? *done : 1);
    size_t m = (size_t)(n + 1) * 2;
    double *x = malloc(m * sizeof *x), energy;
    if (x)
        chain_errors(sys, n, 0.0, x, rod_error, &energy);
    free(x);
    cdyn_system_set_task_system(sys, NULL);
    cdyn_system_destroy(sys);
    return seconds;
}

/* Per N: the hand-written RATTLE and the library with 1 and 2 workers,
 * interleaved (hand, 1, 2, hand, 1, 2, ...) @p repeat times, medians. */
static int workers_table(int full, int repeat)
{
    const long sizes[] = {1000, 10000, 100000, 1000000};
    const int n_sizes = full ? 4 : 3;
    task_pool *pool2;
    if (task_pool_create(2, &pool2)) {
        fprintf(stderr, "bench_chain: no threads\n");
        return 1;
    }
    printf("\nstandard chain, RATTLE (Newton, 1e-12), the library with 1 and 2 workers "
           "(examples/task_pool.c) next to the lean hand-written RATTLE (chain_reference.c), "
           "interleaved, medians of %d; N = 10^6 at dt = 2.5e-4 over 200 steps, the others "
           "at dt = 1e-3 over 1000\n", repeat);
    printf("wall times (hand, lib1, lib2) per step after each run's first; hand cpu, lib1 "
           "cpu: CPU times of the stepping thread over the same steps; idle 2w: "
           "the 2-worker step as it would be on two idle cores, from CPU times (the stepping "
           "thread's outside the loops plus, per loop, the longer of the two threads' ranges, "
           "one range each); cpu/idle: the speed-up that estimates; 1st ms: the library's "
           "first step (1 and 2 workers: the analysis of the constraint graph, the chain's "
           "plan, the arrays' first touch), wall\n");
    printf("%9s %10s %10s %10s %8s %8s %9s %10s %10s %8s %10s %8s %11s %11s %9s %9s\n", "N",
           "hand ns", "lib1 ns", "lib2 ns", "lib1/h", "lib2/h", "lib1/lib2", "hand cpu",
           "lib1 cpu", "cpu 1/h", "idle 2w ns", "cpu/idle", "rod err 1", "rod err 2",
           "1st1 ms", "1st2 ms");
    for (int si = 0; si < n_sizes; si++) {
        const long n = sizes[si];
        const double dt = n >= 1000000 ? 2.5e-4 : 1e-3;
        const int steps = n >= 1000000 ? 200 : 1000;
        double hand[16], lib1[16], lib2[16], est[16], cpu1[16], hcpu[16], first1[16],
            first2[16], err1 = 0, err2 = 0, err3 = 0;
        int reps = repeat < 16 ? repeat : 16, short_run = 0;
        for (int k = 0; k < reps; k++) {
            int hs, d1, d2, d3;
            double hit, herr, hfirst;
            hand[k] =
                chain_reference_rattle_run(n, dt, steps, &hs, &hit, &herr, &hfirst, &hcpu[k]);
            lib1[k] = run_workers(n, CDYN_INTEGRATOR_RATTLE, dt, steps, NULL, &d1, &err1, NULL, &cpu1[k], &first1[k]);
            lib2[k] = run_workers(n, CDYN_INTEGRATOR_RATTLE, dt, steps, pool2, &d2, &err2, NULL, NULL, &first2[k]);
            /* One range per thread, so that each thread's CPU time in a
             * loop is its share: the idle-core estimate. */
            task_pool_set_fixed(pool2, 1);
            double fixed = run_workers(n, CDYN_INTEGRATOR_RATTLE, dt, steps, pool2, &d3, &err3, &est[k], NULL, NULL);
            task_pool_set_fixed(pool2, 0);
            if (hand[k] < 0 || lib1[k] < 0 || lib2[k] < 0 || fixed < 0) {
                task_pool_destroy(pool2);
                return 1;
            }
            short_run |= hs < steps || d1 < steps || d2 < steps || d3 < steps;
        }
        const double h = bench_median(hand, (size_t)reps), a = bench_median(lib1, (size_t)reps),
                     b = bench_median(lib2, (size_t)reps), e = bench_median(est, (size_t)reps),
                     c = bench_median(cpu1, (size_t)reps), hc = bench_median(hcpu, (size_t)reps),
                     f1 = bench_median(first1, (size_t)reps),
                     f2 = bench_median(first2, (size_t)reps), per = 1e9 / (double)n;
        printf("%9ld %10.2f %10.2f %10.2f %8.2f %8.2f %9.2f %10.2f %10.2f %8.2f %10.2f %8.2f "
               "%11.3e %11.3e %9.2f %9.2f\n",
               n, h * per, a * per, b * per, a / h, b / h, a / b, hc * per, c * per, c / hc,
               e * per, c / e, err1, err2, 1e3 * f1, 1e3 * f2);
        if (short_run)
            printf("          a run stopped before its last step (Newton did not converge): "
                   "times over the steps run\n");
        fflush(stdout);
    }
    unsigned long long loops, caller, threads;
    task_pool_counts(pool2, &loops, &caller, &threads);
    printf("2-worker pool: %llu loops, ranges run by the stepping thread %llu, by the other "
           "%llu\n", loops, caller, threads);
    task_pool_destroy(pool2);
    return 0;
}

/* Per N: the multiplier solve (symplectic Euler, direct solver) without a
 * task system and with 2 workers, interleaved @p repeat times, medians. */
static int euler_workers_table(int full, int repeat)
{
    const long sizes[] = {10000, 100000, 1000000};
    const int n_sizes = full ? 3 : 2;
    task_pool *pool2;
    if (task_pool_create(2, &pool2)) {
        fprintf(stderr, "bench_chain: no threads\n");
        return 1;
    }
    printf("\nstandard chain, symplectic Euler (direct multiplier solve), the library without "
           "a task system and with 2 workers (examples/task_pool.c), interleaved, medians of "
           "%d; N = 10^4 at dt = 1e-3 over 1000 steps, 10^5 at 2.5e-4 and 10^6 at 1e-4 over "
           "200 (below the stability limit, where the rod tension reaches m L / h^2); wall "
           "times per step after each run's first; lib1 cpu: CPU time of the stepping "
           "thread\n", repeat);
    printf("%9s %10s %10s %10s %9s %11s %11s %9s %9s\n", "N", "lib1 ns", "lib2 ns", "lib1 cpu",
           "lib1/lib2", "rod err 1", "rod err 2", "1st1 ms", "1st2 ms");
    for (int si = 0; si < n_sizes; si++) {
        const long n = sizes[si];
        const int steps = n >= 100000 ? 200 : 1000;
        const double dt = n >= 1000000 ? 1e-4 : n >= 100000 ? 2.5e-4 : 1e-3;
        double lib1[16], lib2[16], cpu1[16], first1[16], first2[16], err1 = 0, err2 = 0;
        int reps = repeat < 16 ? repeat : 16, short_run = 0;
        for (int k = 0; k < reps; k++) {
            int d1, d2;
            lib1[k] = run_workers(n, CDYN_INTEGRATOR_SYMPLECTIC_EULER, dt, steps, NULL, &d1,
                                  &err1, NULL, &cpu1[k], &first1[k]);
            lib2[k] = run_workers(n, CDYN_INTEGRATOR_SYMPLECTIC_EULER, dt, steps, pool2, &d2,
                                  &err2, NULL, NULL, &first2[k]);
            if (lib1[k] < 0 || lib2[k] < 0) {
                task_pool_destroy(pool2);
                return 1;
            }
            short_run |= d1 < steps || d2 < steps;
        }
        const double a = bench_median(lib1, (size_t)reps), b = bench_median(lib2, (size_t)reps),
                     c = bench_median(cpu1, (size_t)reps),
                     f1 = bench_median(first1, (size_t)reps),
                     f2 = bench_median(first2, (size_t)reps), per = 1e9 / (double)n;
        printf("%9ld %10.2f %10.2f %10.2f %9.2f %11.3e %11.3e %9.2f %9.2f\n", n, a * per,
               b * per, c * per, a / b, err1, err2, 1e3 * f1, 1e3 * f2);
        if (short_run)
            printf("          a run stopped before its last step: times over the steps run\n");
        fflush(stdout);
    }
    task_pool_destroy(pool2);
    return 0;
}

/* The library's positions of the standard chain after @p steps RATTLE
 * steps of @p dt (2 (n + 1) doubles into @p x); 0 on success. */
static int library_positions(long n, double dt, int steps, double *x)
{
    cdyn_system *sys = standard_chain(n, CDYN_INTEGRATOR_RATTLE);
    if (!sys)
        return 1;
    int bad = 0;
    for (int k = 0; k < steps && !bad; k++)
        bad = cdyn_system_step(sys, dt) != CDYN_OK;
    bad = bad || cdyn_system_get_positions(sys, x, 2 * (size_t)(n + 1)) != CDYN_OK;
    cdyn_system_destroy(sys);
    return bad;
}

/* Per N: the lean hand-written RATTLE, the library on one thread and the
 * first sketch of its twisted two-lane sweeps (chain_twisted.c), interleaved
 * @p repeat times, medians; and how far the sketch's chain ends from the
 * library's. */
static int twisted_table(int repeat)
{
    const long sizes[] = {1000, 10000, 100000};
    printf("\nstandard chain, RATTLE at dt = 1e-3 over 1000 steps after a first: the lean "
           "hand-written code (chain_reference.c), the library on one thread (its twisted "
           "sweeps, for paths of 256 to 262144 rods), and the first sketch of them "
           "(chain_twisted.c: written for this chain alone), interleaved, medians of %d\n",
           repeat);
    printf("%9s %10s %10s %10s %9s %9s %11s %11s %11s %12s\n", "N", "hand ns", "lib ns",
           "sketch ns", "lib/hand", "sk/hand", "rod hand", "rod lib", "rod sketch",
           "|x_sk-x_lib|");
    for (int si = 0; si < 3; si++) {
        const long n = sizes[si];
        double hand[16], lib[16], sk[16], herr = 0, lerr = 0, serr = 0;
        const int reps = repeat < 16 ? repeat : 16;
        for (int k = 0; k < reps; k++) {
            int hs, d1;
            double hit, hfirst, sfirst;
            hand[k] = chain_reference_rattle_run(n, 1e-3, 1000, &hs, &hit, &herr, &hfirst, NULL);
            lib[k] = run_workers(n, CDYN_INTEGRATOR_RATTLE, 1e-3, 1000, NULL, &d1, &lerr, NULL,
                                 NULL, NULL);
            sk[k] = chain_twisted_run(n, 1e-3, 1000, &serr, &sfirst, NULL);
            if (hand[k] < 0 || lib[k] < 0 || sk[k] < 0)
                return 1;
        }
        const size_t len = 2 * (size_t)(n + 1);
        double *xl = malloc(len * sizeof *xl), *xs = malloc(len * sizeof *xs), dev = -1, first;
        if (xl && xs && !library_positions(n, 1e-3, 1001, xl) &&
            chain_twisted_run(n, 1e-3, 1000, &serr, &first, xs) >= 0) {
            dev = 0;
            for (size_t i = 0; i < len; i++)
                dev = fmax(dev, fabs(xl[i] - xs[i]));
        }
        free(xl);
        free(xs);
        const double h = bench_median(hand, (size_t)reps), a = bench_median(lib, (size_t)reps),
                     b = bench_median(sk, (size_t)reps), per = 1e9 / (double)n;
        printf("%9ld %10.2f %10.2f %10.2f %9.2f %9.2f %11.3e %11.3e %11.3e %12.3e\n", n,
               h * per, a * per, b * per, a / h, b / h, herr, lerr, serr, dev);
        fflush(stdout);
    }
    return 0;
}

/* Parses "N1,N2,..." into sizes (at most 16); returns the count, 0 on error. */
static int parse_sizes(const char *arg, long *sizes)
{
    int n = 0;
    while (*arg && n < 16) {
        char *end;
        long v = strtol(arg, &end, 10);
        if (end == arg || v < 1)
            return 0;
        sizes[n++] = v;
        arg = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return 0;
    }
    return n;
}

static int run_tables(const char *only, int full, int repeat, cdyn_constraint_solver solver,
                      const long *sizes, int n_sizes);

int main(int argc, char **argv)
{
    int full = 0, repeat = 3;
    const char *only = NULL;
    long sizes[16] = {10, 100, 1000, 10000, 100000, 1000000};
    int n_sizes = 0;
    cdyn_constraint_solver solver = CDYN_SOLVER_DIRECT;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--full"))
            full = 1;
        else if (!strcmp(argv[i], "--solver") && i + 1 < argc)
            solver = !strcmp(argv[++i], "cg") ? CDYN_SOLVER_CG : CDYN_SOLVER_DIRECT;
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--sizes") && i + 1 < argc &&
                 (n_sizes = parse_sizes(argv[++i], sizes)) > 0)
            continue;
        else {
            printf("usage: bench_chain [--full] [--solver direct|cg] [--repeat R] "
                   "[--only euler|rattle|shake|workers|euler-workers|twisted] [--sizes N1,N2,...]\n");
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    if (repeat < 1)
        repeat = 1;
    bench_print_machine("start");
    int rc = run_tables(only, full, repeat, solver, sizes, n_sizes);
    bench_print_machine("end");
    return rc;
}

static int run_tables(const char *only, int full, int repeat, cdyn_constraint_solver solver,
                      const long *sizes, int n_sizes)
{
    if (only && !strcmp(only, "workers"))
        return workers_table(full, repeat);
    if (only && !strcmp(only, "euler-workers"))
        return euler_workers_table(full, repeat);
    if (only && !strcmp(only, "twisted"))
        return twisted_table(repeat);
    if (only && !strcmp(only, "rattle"))
        return rattle_table(CDYN_PROJECTION_NEWTON, full, repeat, solver);
    if (only && !strcmp(only, "shake"))
        return rattle_table(CDYN_PROJECTION_SHAKE, full, repeat, solver);
    if (!n_sizes)
        n_sizes = full ? 6 : 4;
    printf("standard chain, symplectic Euler, %s solver, dt = 1e-3, 1000 steps "
           "(median of %d runs)\n", solver == CDYN_SOLVER_CG ? "CG" : "direct", repeat);
    printf("%9s %14s %12s %12s %10s %12s %12s %12s %9s %7s\n", "N", "ms/step", "ns/constr",
           "lib MB", "B/constr", "peak RSS MB", "rod err", "dE/|U|", "hand ns", "ratio");
    double lx[16], ly[16];
    int nfit = 0, nfit_intact = 0; /* nfit_intact: the rows before the first unstable one */
    for (int s = 0; s < n_sizes; s++) {
        long n = sizes[s];
        double times[16];
        result r = {0};
        int reps = n >= 100000 ? 1 : repeat;
        for (int k = 0; k < reps && k < 16; k++) {
            if (run(n, solver, CDYN_INTEGRATOR_SYMPLECTIC_EULER, &r))
                return 1;
            times[k] = r.seconds / 1000.0;
        }
        double per_step = bench_median(times, (size_t)(reps < 16 ? reps : 16));
        double hand[16], hand_err;
        for (int k = 0; k < reps && k < 16; k++)
            hand[k] = chain_reference_step_seconds(n, &hand_err);
        double hand_step = bench_median(hand, (size_t)(reps < 16 ? reps : 16));
        printf("%9ld %14.4f %12.2f %12.2f %10.1f %12.1f %12.3e %12.3e %9.2f %7.2f\n", n,
               per_step * 1e3, per_step / (double)n * 1e9, (double)r.bytes / 1048576.0,
               (double)r.bytes / (double)n, (double)bench_peak_rss() / 1048576.0, r.rod_error,
               r.energy_error, hand_step / (double)n * 1e9, per_step / hand_step);
        if (r.unstable)
            printf("          unstable: a rod tension passed m L / h^2 = %g N (h omega = 2) "
                   "between t = %.2f and %.2f s (%.4g N): the chain then breaks up; time over "
                   "all 1000 steps, errors at t = %.2f s\n",
                   T_LIMIT, DT * r.stable_steps, DT * (r.stable_steps + CHECK_EVERY), r.tension,
                   DT * r.stable_steps);
        fflush(stdout);
        if (n >= 1000) {
            lx[nfit] = log((double)n);
            ly[nfit++] = log(per_step);
            if (!r.unstable && nfit_intact == nfit - 1)
                nfit_intact = nfit;
        }
    }
    if (nfit >= 2)
        printf("fitted time exponent (time per step, N >= 1000, %d sizes): %.3f\n", nfit,
               fit_slope(lx, ly, nfit));
    if (nfit_intact >= 2 && nfit_intact < nfit)
        printf("fitted time exponent without the unstable rows (%d sizes): %.3f\n", nfit_intact,
               fit_slope(lx, ly, nfit_intact));
    if (only && !strcmp(only, "euler"))
        return 0;
    return rattle_table(CDYN_PROJECTION_NEWTON, full, repeat, solver) ||
           rattle_table(CDYN_PROJECTION_SHAKE, full, repeat, solver) ||
           workers_table(full, repeat) || euler_workers_table(full, repeat);
}
