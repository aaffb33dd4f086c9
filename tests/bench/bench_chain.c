/* bench_chain: the standard chain of design.md section 11 (fixed pivot at
 * the origin, N unit masses at x = 0.1 i, rods of 0.1, gravity 9.81 along
 * -y, dt = 1e-3, 1000 steps) with symplectic Euler, the direct solver and
 * the default feedback gains. Prints per N: time per step, ns per
 * constraint per step, library memory (counted through the allocator),
 * bytes per constraint, peak RSS, the worst relative rod error and the
 * energy error relative to |potential energy| at t = 1 s.
 *
 * Then the same chain with RATTLE (docs/rattle.md): Newton projection at
 * the relative tolerance 1e-12 (positions and velocities), N = 10..10^4
 * (--full: to 10^6), with the projection iterations per step (position
 * solves, velocity solves) and factorizations per step; and the classic
 * SHAKE projection for small N (--full: to 100), whose sweeps per step grow
 * with N, with the fitted exponents of time against N.
 *
 * Usage: bench_chain [--full] [--solver direct|cg] [--repeat R]
 *                    [--only euler|rattle|shake]
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
    double pos_iter, vel_iter, factorizations; /* per step (RATTLE) */
    int steps;          /* steps completed (RATTLE rows go on measuring after a failure) */
    char failure[256];  /* the message of the failed step, if any */
} result;

/* Projection of the RATTLE rows: 0 = none (symplectic Euler table). */
static cdyn_projection_method g_method = 0;

static int run(long n, cdyn_constraint_solver solver, cdyn_integrator integrator, result *out)
{
    counter cnt = {0, 0};
    cdyn_allocator al = {count_alloc, count_free, &cnt};
    cdyn_system *sys;
    if (cdyn_system_create_with_allocator(2, &al, &sys))
        return 1;
    cdyn_system_set_integrator(sys, integrator);
    cdyn_system_set_constraint_solver(sys, solver);
    if (g_method) {
        cdyn_projection_options po;
        cdyn_projection_options_init(&po);
        po.method = g_method;
        po.position_tolerance = 1e-12;
        po.velocity_tolerance = 1e-12;
        po.max_iterations = 1000000;
        cdyn_system_set_projection(sys, &po);
    }
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
    out->steps = 0;
    out->failure[0] = 0;
    for (int s = 0; s < 1000; s++, out->steps++)
        if (cdyn_system_step(sys, 1e-3)) {
            if (!g_method) {
                fprintf(stderr, "step failed: %s\n", cdyn_system_last_error(sys));
                return 1;
            }
            /* RATTLE rows: report the failure, measure what ran. */
            snprintf(out->failure, sizeof out->failure, "%s", cdyn_system_last_error(sys));
            break;
        }
    out->seconds = bench_now() - t0;
    cdyn_projection_stats ps = {.size = sizeof ps};
    cdyn_system_get_projection_stats(sys, &ps);
    double done = out->steps > 0 ? (double)out->steps : 1.0;
    out->pos_iter = (double)ps.position_iterations_total / done;
    out->vel_iter = (double)ps.velocity_iterations_total / done;
    out->factorizations = (double)ps.factorizations / done;
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
    printf("%9s %12s %11s %9s %9s %8s %10s %9s %11s %11s\n", "N", "ms/step", "ns/link",
           "pos it", "vel it", "fact", "lib MB", "B/link", "rod err", "dE/|U|");
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
        printf("%9ld %12.4f %11.2f %9.3f %9.3f %8.3f %10.2f %9.1f %11.3e %11.3e\n", n,
               per_step * 1e3, per_step / (double)n * 1e9, r.pos_iter, r.vel_iter,
               r.factorizations, (double)r.bytes / 1048576.0, (double)r.bytes / (double)n,
               r.rod_error, r.energy_error);
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

int main(int argc, char **argv)
{
    int full = 0, repeat = 3;
    const char *only = NULL;
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
        else {
            printf("usage: bench_chain [--full] [--solver direct|cg] [--repeat R] "
                   "[--only euler|rattle|shake]\n");
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    if (repeat < 1)
        repeat = 1;
    if (only && !strcmp(only, "rattle"))
        return rattle_table(CDYN_PROJECTION_NEWTON, full, repeat, solver);
    if (only && !strcmp(only, "shake"))
        return rattle_table(CDYN_PROJECTION_SHAKE, full, repeat, solver);
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
    if (nfit >= 2)
        printf("fitted time exponent (N >= 1000): %.3f\n", fit_slope(lx, ly, nfit));
    if (only && !strcmp(only, "euler"))
        return 0;
    return rattle_table(CDYN_PROJECTION_NEWTON, full, repeat, solver) ||
           rattle_table(CDYN_PROJECTION_SHAKE, full, repeat, solver);
}
