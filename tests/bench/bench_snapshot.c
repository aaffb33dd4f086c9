/* bench_snapshot: snapshots of the standard chain (fixed pivot, N unit
 * masses on rods of 0.1 under gravity, 2-D, dt = 1e-3) after 100 steps,
 * with symplectic Euler and the direct solver, and with RATTLE (Newton
 * projection). Prints per N and integrator: the snapshot's size, its bytes
 * per particle (the particles section and the forces kept for the next
 * step, which RATTLE holds, over the N + 1 particles) and per
 * constraint (the constraints and multipliers sections over the N rods),
 * the rest (header, system, integrators, projection, ...), and the median
 * times of a save, a load and a clone next to that of one step, with the
 * processor's model and the load average before and after (the machine may
 * be shared: the times are medians of several runs).
 *
 * Usage: bench_snapshot [--sizes N1,N2,...] [--repeat R]
 * Default N = 10^4, R = 9. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "bench_util.h"
#include "support.h"

#define DT 1e-3
#define WARM_STEPS 100

static void print_machine(const char *when)
{
    char model[128] = "unknown", line[256];
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0) {
            const char *colon = strchr(line, ':');
            snprintf(model, sizeof model, "%.127s", colon ? colon + 2 : line);
            model[strcspn(model, "\n")] = 0;
            break;
        }
    if (f)
        fclose(f);
    double load[3] = {0, 0, 0};
    f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
            load[0] = load[1] = load[2] = 0;
        fclose(f);
    }
    printf("# %s: %s, load average %.2f %.2f %.2f\n", when, model, load[0], load[1], load[2]);
}

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

/* The median of @p repeat timings of @p what on @p sys. */
enum { SAVE, LOAD, CLONE };

static double time_op(int what, cdyn_system *sys, unsigned char *buf, size_t n, int repeat)
{
    double t[64];
    for (int r = 0; r < repeat; r++) {
        cdyn_system *copy = NULL;
        double t0 = bench_now();
        cdyn_status st = what == SAVE   ? cdyn_system_save(sys, buf, n, NULL)
                         : what == LOAD ? cdyn_system_load(buf, n, NULL, NULL, &copy)
                                        : cdyn_system_clone(sys, NULL, &copy);
        t[r] = bench_now() - t0;
        if (st) {
            fprintf(stderr, "snapshot call %d failed: %s\n", what, cdyn_status_name(st));
            exit(1);
        }
        cdyn_system_destroy(copy);
    }
    return bench_median(t, (size_t)repeat);
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
    /* One step: the median of steps timed one by one. */
    double steps[64];
    for (int r = 0; r < repeat; r++) {
        double t0 = bench_now();
        if (cdyn_system_step(sys, DT))
            return 1;
        steps[r] = bench_now() - t0;
    }
    double step = bench_median(steps, (size_t)repeat);
    size_t size;
    cdyn_system_snapshot_size(sys, &size);
    unsigned char *buf = malloc(size);
    if (!buf)
        return 1;
    double save = time_op(SAVE, sys, buf, size, repeat);
    double load = time_op(LOAD, sys, buf, size, repeat);
    double clone = time_op(CLONE, sys, buf, size, repeat);
    size_t particles = section_bytes(buf, size, 2) + section_bytes(buf, size, 13);
    size_t constraints = section_bytes(buf, size, 4) + section_bytes(buf, size, 8);
    printf("%8ld  %-17s %10zu  %8.2f  %8.2f  %7zu  %9.3f  %9.3f  %9.3f  %9.3f  %5.2f %5.2f %5.2f\n",
           n, name, size, (double)particles / (double)(n + 1),
           (double)constraints / (double)n, size - particles - constraints, 1e3 * step,
           1e3 * save, 1e3 * load, 1e3 * clone, save / step, load / step, clone / step);
    free(buf);
    cdyn_system_destroy(sys);
    return 0;
}

int main(int argc, char **argv)
{
    long sizes[16] = {10000};
    int n_sizes = 1, repeat = 9;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
            n_sizes = 0;
            for (char *s = strtok(argv[++i], ","); s && n_sizes < 16; s = strtok(NULL, ","))
                sizes[n_sizes++] = strtol(s, NULL, 10);
        } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            repeat = atoi(argv[++i]);
            repeat = repeat < 1 ? 1 : repeat > 64 ? 64 : repeat;
        } else {
            fprintf(stderr, "usage: %s [--sizes N1,N2,...] [--repeat R]\n", argv[0]);
            return 2;
        }
    }
    print_machine("before");
    printf("# the standard chain after %d steps; times are medians of %d (ms); the last columns "
           "are save, load and clone over one step\n", WARM_STEPS, repeat);
    printf("%8s  %-17s %10s  %8s  %8s  %7s  %9s  %9s  %9s  %9s  %17s\n", "N", "integrator",
           "bytes", "B/part.", "B/rod", "rest", "step", "save", "load", "clone",
           "in steps");
    for (int i = 0; i < n_sizes; i++)
        if (row(sizes[i], CDYN_INTEGRATOR_SYMPLECTIC_EULER, "symplectic Euler", repeat) ||
            row(sizes[i], CDYN_INTEGRATOR_RATTLE, "RATTLE", repeat)) {
            fprintf(stderr, "bench_snapshot: N = %ld failed\n", sizes[i]);
            return 1;
        }
    print_machine("after");
    return 0;
}
