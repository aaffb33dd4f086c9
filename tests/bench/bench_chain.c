/* bench_chain: the standard chain of design.md section 11 (fixed pivot at
 * the origin, N unit masses at x = 0.1 i, rods of 0.1, gravity 9.81 along
 * -y, dt = 1e-3, 1000 steps) with symplectic Euler, the direct solver and
 * the default feedback gains. Prints per N: time per step, ns per
 * constraint per step, library memory (counted through the allocator),
 * bytes per constraint, peak RSS, the worst relative rod error and the
 * energy error relative to |potential energy| at t = 1 s.
 *
 * Usage: bench_chain [--full] [--solver direct|cg] [--repeat R]
 * Default sizes 10..10^4; --full adds 10^5 and 10^6. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "bench_util.h"

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
} result;

static int run(long n, cdyn_constraint_solver solver, cdyn_integrator integrator, result *out)
{
    counter cnt = {0, 0};
    cdyn_allocator al = {count_alloc, count_free, &cnt};
    cdyn_system *sys;
    if (cdyn_system_create_with_allocator(2, &al, &sys))
        return 1;
    cdyn_system_set_integrator(sys, integrator);
    cdyn_system_set_constraint_solver(sys, solver);
    cdyn_particle prev, p;
    cdyn_particle_add(sys, 1.0, (double[]){0, 0}, NULL, &prev);
    cdyn_particle_set_fixed(sys, prev, true);
    for (long i = 1; i <= n; i++) {
        cdyn_constraint c;
        if (cdyn_particle_add(sys, 1.0, (double[]){0.1 * (double)i, 0}, NULL, &p) ||
            cdyn_constraint_add_distance(sys, prev, p, 0.1, &c)) {
            fprintf(stderr, "setup failed: %s\n", cdyn_system_last_error(sys));
            return 1;
        }
        prev = p;
    }
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g);
    double e0, k, u;
    cdyn_system_get_kinetic_energy(sys, &k);
    cdyn_system_get_potential_energy(sys, &u);
    e0 = k + u;
    double t0 = bench_now();
    for (int s = 0; s < 1000; s++)
        if (cdyn_system_step(sys, 1e-3)) {
            fprintf(stderr, "step failed: %s\n", cdyn_system_last_error(sys));
            return 1;
        }
    out->seconds = bench_now() - t0;
    size_t m = (size_t)(n + 1) * 2;
    double *x = malloc(m * sizeof *x);
    cdyn_system_get_positions(sys, x, m);
    double worst = 0;
    for (long i = 1; i <= n; i++) {
        double len = hypot(x[2 * i] - x[2 * i - 2], x[2 * i + 1] - x[2 * i - 1]);
        worst = fmax(worst, fabs(len - 0.1) / 0.1);
    }
    free(x);
    cdyn_system_get_kinetic_energy(sys, &k);
    cdyn_system_get_potential_energy(sys, &u);
    out->rod_error = worst;
    out->energy_error = (k + u - e0) / fabs(u);
    out->bytes = cnt.peak;
    cdyn_system_destroy(sys);
    return 0;
}

int main(int argc, char **argv)
{
    int full = 0, repeat = 3;
    cdyn_constraint_solver solver = CDYN_SOLVER_DIRECT;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--full"))
            full = 1;
        else if (!strcmp(argv[i], "--solver") && i + 1 < argc)
            solver = !strcmp(argv[++i], "cg") ? CDYN_SOLVER_CG : CDYN_SOLVER_DIRECT;
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else {
            printf("usage: bench_chain [--full] [--solver direct|cg] [--repeat R]\n");
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    const long sizes[] = {10, 100, 1000, 10000, 100000, 1000000};
    int n_sizes = full ? 6 : 4;
    printf("standard chain, symplectic Euler, %s solver, dt = 1e-3, 1000 steps "
           "(median of %d runs)\n", solver == CDYN_SOLVER_CG ? "CG" : "direct", repeat);
    printf("%9s %14s %12s %12s %10s %12s %12s %12s\n", "N", "ms/step", "ns/constr", "lib MB",
           "B/constr", "peak RSS MB", "rod err", "dE/|U|");
    double lx[8], ly[8];
    int nfit = 0;
    for (int s = 0; s < n_sizes; s++) {
        long n = sizes[s];
        double times[16];
        result r = {0};
        int reps = n >= 100000 ? 1 : repeat;
        for (int k = 0; k < reps && k < 16; k++) {
            if (run(n, solver, CDYN_INTEGRATOR_SYMPLECTIC_EULER, &r))
                return 1;
            times[k] = r.seconds;
        }
        double t = bench_median(times, (size_t)(reps < 16 ? reps : 16));
        double per_step = t / 1000.0;
        printf("%9ld %14.4f %12.2f %12.2f %10.1f %12.1f %12.3e %12.3e\n", n, per_step * 1e3,
               per_step / (double)n * 1e9, (double)r.bytes / 1048576.0,
               (double)r.bytes / (double)n, (double)bench_peak_rss() / 1048576.0, r.rod_error,
               r.energy_error);
        fflush(stdout);
        if (n >= 1000) {
            lx[nfit] = log((double)n);
            ly[nfit++] = log(t);
        }
    }
    if (nfit >= 2) {
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (int i = 0; i < nfit; i++)
            sx += lx[i], sy += ly[i], sxx += lx[i] * lx[i], sxy += lx[i] * ly[i];
        printf("fitted time exponent (N >= 1000): %.3f\n",
               (nfit * sxy - sx * sy) / (nfit * sxx - sx * sx));
    }
    return 0;
}
