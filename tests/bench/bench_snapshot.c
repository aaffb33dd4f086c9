/* bench_snapshot: snapshots of the standard chain (fixed pivot, N unit
 * masses on rods of 0.1 under gravity, 2-D, dt = 1e-3) after 100 steps,
 * with symplectic Euler and the direct solver, and with RATTLE (Newton
 * projection). Prints per N and integrator: the snapshot's size, its bytes
 * per particle (the particles section and the forces kept for the next
 * step, which RATTLE holds, over the N + 1 particles) and per
 * constraint (the constraints and multipliers sections over the N rods),
 * the rest (header, system, integrators, projection, ...), and the median
 * times of a save, a load and a clone next to that of one step, with the
 * processor's model and the load average before and after. The machine may
 * be shared: each round times a step, a save, a load and a clone one after
 * the other (interleaved, so that a change of load touches all four), and
 * the figures are the medians over the rounds.
 *
 * Usage: bench_snapshot [--full] [--sizes N1,N2,...] [--repeat R]
 * Default N = 10^3 and 10^4, R = 9; --full: the standard chain of 10^4
 * rods, R = 21. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "bench_util.h"
#include "support.h"

#define DT 1e-3
#define WARM_STEPS 100

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Bytes of section @p id with its 16-byte header (docs/snapshots.md). */
static size_t section_bytes(const unsigned char *p, size_t n, uint32_t id)
{
    for (size_t at = 32; at + 16 <= n - 8;) {
        size_t len = (size_t)get_u32(p + at + 8) | (size_t)get_u32(p + at + 12) << 32;
        if (get_u32(p + at) == id)
            return 16 + len;
        at += 16 + len;
    }
    return 0;
}

/* One round of the interleaved timings: a step, a save, a load of what
 * was saved and a clone, each timed once, so that a change in the
 * machine's load touches all four alike. Returns nonzero on a failure. */
enum { STEP, SAVE, LOAD, CLONE, N_OPS };

static int round_of(cdyn_system *sys, unsigned char **buf, size_t *cap, size_t *size,
                    double t[N_OPS])
{
    double t0 = bench_now();
    cdyn_status st = cdyn_system_step(sys, DT);
    t[STEP] = bench_now() - t0;
    if (st)
        return 1;
    if (cdyn_system_snapshot_size(sys, size))
        return 1;
    if (*size > *cap) {
        unsigned char *b = realloc(*buf, *size);
        if (!b)
            return 1;
        *buf = b;
        *cap = *size;
    }
    t0 = bench_now();
    st = cdyn_system_save(sys, *buf, *cap, NULL);
    t[SAVE] = bench_now() - t0;
    if (st)
        return 1;
    cdyn_system *copy = NULL;
    t0 = bench_now();
    st = cdyn_system_load(*buf, *size, NULL, NULL, &copy);
    t[LOAD] = bench_now() - t0;
    cdyn_system_destroy(copy);
    if (st)
        return 1;
    t0 = bench_now();
    st = cdyn_system_clone(sys, NULL, &copy);
    t[CLONE] = bench_now() - t0;
    cdyn_system_destroy(copy);
    return st != CDYN_OK;
}

static int row(long n, cdyn_integrator integ, const char *name, int repeat)
{
    cdyn_system *sys;
    if (cdyn_system_create(2, &sys) || cdyn_system_set_integrator(sys, integ) ||
        ts_set_solver(sys, CDYN_SOLVER_DIRECT) || ts_standard_chain(sys, (int)n, NULL, NULL))
        return 1;
    for (int i = 0; i < WARM_STEPS; i++)
        if (cdyn_system_step(sys, DT))
            return 1;
    /* Rounds of step, save, load, clone; the medians of each. */
    double times[N_OPS][64], med[N_OPS];
    unsigned char *buf = NULL;
    size_t cap = 0, size = 0;
    for (int r = 0; r < repeat; r++) {
        double t[N_OPS];
        if (round_of(sys, &buf, &cap, &size, t)) {
            free(buf);
            return 1;
        }
        for (int k = 0; k < N_OPS; k++)
            times[k][r] = t[k];
    }
    for (int k = 0; k < N_OPS; k++)
        med[k] = bench_median(times[k], (size_t)repeat);
    size_t particles = section_bytes(buf, size, 2) + section_bytes(buf, size, 13);
    size_t constraints = section_bytes(buf, size, 4) + section_bytes(buf, size, 8);
    printf("%8ld  %-17s %10zu  %8.2f  %8.2f  %7zu  %9.3f  %9.3f  %9.3f  %9.3f  %5.2f %5.2f %5.2f\n",
           n, name, size, (double)particles / (double)(n + 1),
           (double)constraints / (double)n, size - particles - constraints, 1e3 * med[STEP],
           1e3 * med[SAVE], 1e3 * med[LOAD], 1e3 * med[CLONE], med[SAVE] / med[STEP],
           med[LOAD] / med[STEP], med[CLONE] / med[STEP]);
    free(buf);
    cdyn_system_destroy(sys);
    return 0;
}

int main(int argc, char **argv)
{
    long sizes[16] = {1000, 10000};
    int n_sizes = 2, repeat = 9;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--full") == 0) {
            sizes[0] = 10000;
            n_sizes = 1;
            repeat = 21;
        } else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
            n_sizes = 0;
            for (char *s = strtok(argv[++i], ","); s && n_sizes < 16; s = strtok(NULL, ","))
                sizes[n_sizes++] = strtol(s, NULL, 10);
        } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            repeat = atoi(argv[++i]);
            repeat = repeat < 1 ? 1 : repeat > 64 ? 64 : repeat;
        } else {
            fprintf(stderr, "usage: %s [--full] [--sizes N1,N2,...] [--repeat R]\n", argv[0]);
            return 2;
        }
    }
    bench_print_machine("before");
    printf("# the standard chain after %d steps; times are medians of %d interleaved rounds "
           "(ms); the last columns are save, load and clone over one step\n",
           WARM_STEPS, repeat);
    printf("%8s  %-17s %10s  %8s  %8s  %7s  %9s  %9s  %9s  %9s  %17s\n", "N", "integrator",
           "bytes", "B/part.", "B/rod", "rest", "step", "save", "load", "clone",
           "in steps");
    for (int i = 0; i < n_sizes; i++)
        if (row(sizes[i], CDYN_INTEGRATOR_SYMPLECTIC_EULER, "symplectic Euler", repeat) ||
            row(sizes[i], CDYN_INTEGRATOR_RATTLE, "RATTLE", repeat)) {
            fprintf(stderr, "bench_snapshot: N = %ld failed\n", sizes[i]);
            return 1;
        }
    bench_print_machine("after");
    return 0;
}
