/* bench_cloth: an N x N cloth of rods (grid edges, two opposite corners
 * fixed, gravity), stepped with symplectic Euler and the default feedback,
 * once with the direct solver and once with CG (tolerance 1e-10). Prints per
 * N and solver: time per step, ns per rod per step, CG iterations per
 * solve, entries of L per rod (fill), library memory per rod, and the worst
 * relative rod error after the run.
 *
 * Usage: bench_cloth [--full] [--steps S]
 * Default N = 10, 30, 100; --full adds 300. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "bench_util.h"
#include "support.h"

typedef struct counter {
    size_t live, peak;
} counter;

static void *count_alloc(size_t size, void *user)
{
    counter *c = user;
    void *p = malloc(size);
    if (p && (c->live += size) > c->peak)
        c->peak = c->live;
    return p;
}

static void count_free(void *ptr, size_t size, void *user)
{
    counter *c = user;
    if (ptr)
        c->live -= size;
    free(ptr);
}

static int run(int n, cdyn_constraint_solver solver, int steps)
{
    const double h = 0.05;
    counter cnt = {0, 0};
    cdyn_allocator al = {count_alloc, count_free, &cnt};
    cdyn_system *sys;
    if (cdyn_system_create_with_allocator(3, &al, &sys))
        return 1;
    ts_set_solver(sys, solver);
    ts_set_cg(sys, 1e-10, 100000);
    cdyn_particle *p = malloc((size_t)n * (size_t)n * sizeof *p);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            cdyn_particle_add(sys, 0.01, (double[]){h * i, 0, -h * j}, NULL, &p[j * n + i]);
    cdyn_particle_set_fixed(sys, p[0], true);
    cdyn_particle_set_fixed(sys, p[n * n - 1], true);
    size_t rods = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            cdyn_constraint c;
            if (i + 1 < n && !cdyn_constraint_add_distance(sys, p[j * n + i], p[j * n + i + 1], h, &c))
                rods++;
            if (j + 1 < n && !cdyn_constraint_add_distance(sys, p[j * n + i], p[(j + 1) * n + i], h, &c))
                rods++;
        }
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, 0, -9.81}, &g);
    /* One step outside the timing: the topology pass and factor analysis. */
    if (cdyn_system_step(sys, 1e-3)) {
        fprintf(stderr, "step failed: %s\n", cdyn_system_last_error(sys));
        return 1;
    }
    size_t iters = 0;
    double t0 = bench_now();
    for (int s = 0; s < steps; s++) {
        if (cdyn_system_step(sys, 1e-3)) {
            fprintf(stderr, "step failed: %s\n", cdyn_system_last_error(sys));
            return 1;
        }
        cdyn_solver_stats st = {.size = sizeof st};
        cdyn_system_get_solver_stats(sys, &st);
        iters += st.iterations;
    }
    double per_step = (bench_now() - t0) / steps;
    cdyn_solver_stats st = {.size = sizeof st};
    cdyn_system_get_solver_stats(sys, &st);
    size_t np = (size_t)n * (size_t)n;
    double *x = malloc(3 * np * sizeof *x), worst = 0;
    cdyn_system_get_positions(sys, x, 3 * np);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const double *a = x + 3 * (size_t)(j * n + i);
            for (int e = 0; e < 2; e++) {
                int i2 = i + (e == 0), j2 = j + (e == 1);
                if (i2 >= n || j2 >= n)
                    continue;
                const double *b = x + 3 * (size_t)(j2 * n + i2);
                double l = sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
                                (b[2] - a[2]) * (b[2] - a[2]));
                worst = fmax(worst, fabs(l - h) / h);
            }
        }
    printf("%6d %8zu %7s %12.4f %12.1f %10.1f %10.2f %10.0f %12.3e\n", n, rods,
           solver == CDYN_SOLVER_CG ? "cg" : "direct", per_step * 1e3,
           per_step / (double)rods * 1e9, (double)iters / steps,
           (double)st.factor_nonzeros / (double)rods, (double)cnt.peak / (double)rods, worst);
    fflush(stdout);
    free(x);
    free(p);
    cdyn_system_destroy(sys);
    return 0;
}

int main(int argc, char **argv)
{
    int full = 0, steps = 100;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--full"))
            full = 1;
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc)
            steps = atoi(argv[++i]);
        else {
            printf("usage: bench_cloth [--full] [--steps S]\n");
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    const int sizes[] = {10, 30, 100, 300};
    printf("N x N cloth of rods, symplectic Euler, dt = 1e-3, %d timed steps\n", steps);
    printf("%6s %8s %7s %12s %12s %10s %10s %10s %12s\n", "N", "rods", "solver", "ms/step",
           "ns/rod", "CG it", "L nnz/rod", "B/rod", "rod err");
    for (int s = 0; s < (full ? 4 : 3); s++)
        if (run(sizes[s], CDYN_SOLVER_DIRECT, steps) || run(sizes[s], CDYN_SOLVER_CG, steps))
            return 1;
    return 0;
}
