/* bench_melt: a bead-rod polymer melt, ns per bead per step.
 *
 * Chains of 100 beads of unit mass joined by rigid bonds (distance
 * constraints, RATTLE), WCA repulsion (epsilon = sigma = 1) between every
 * pair of beads not bonded (exclusions of depth 1), bead density 0.85 in a
 * periodic box, Langevin thermostat kT = 1, gamma = 0.5, dt = 0.005. The
 * chains start as one serpentine path through a simple cubic lattice of
 * spacing (1 / 0.85)^(1/3) (the bond length), cut every 100 beads; the
 * timing starts after a short run that melts the lattice. For comparison
 * the same melt is timed without the thermostat (RATTLE alone, constant
 * energy). The figure is thread CPU time per bead per step, the median of
 * the repeats, with the wall time beside it; the CPU model and the load
 * average are printed at the start and the end.
 *
 * Default: 10^4 beads (100 chains), 3 repeats. --full: 10^4 and 10^5.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cdyn/cdyn.h>

#include "bench_util.h"

#define BEADS 100
#define RHO 0.85
#define DT 0.005
#define MAX_REPS 15

static double cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct result {
    double cpu_ns, wall_ns, kT, rod_residual;
    unsigned long long builds;
    int ok;
} result;

/* The Langevin thermostat at kT with friction gamma and a seed. */
static cdyn_status thermostat(cdyn_system *sys, double kT, double gamma, uint64_t seed)
{
    cdyn_langevin_options o;
    cdyn_langevin_options_init(&o);
    o.kT = kT;
    o.gamma = gamma;
    o.seed = seed;
    return cdyn_system_set_langevin_options(sys, &o);
}

static result run(int chains, int langevin, int steps)
{
    result r = {0};
    const int n = chains * BEADS;
    const double a = cbrt(1.0 / RHO);
    const int side = (int)ceil(cbrt((double)n));
    const double L = side * a;
    cdyn_system *sys = NULL;
    cdyn_particle *p = malloc((size_t)n * sizeof *p);
    if (!p || cdyn_system_create(3, &sys))
        goto done;
    /* one path through the lattice, each row and plane walked back and forth */
    int k = 0;
    for (int z = 0; z < side && k < n; z++)
        for (int yy = 0; yy < side && k < n; yy++)
            for (int xx = 0; xx < side && k < n; xx++, k++) {
                int y = z % 2 ? side - 1 - yy : yy;
                int x = (yy + z * side) % 2 ? side - 1 - xx : xx;
                double pos[3] = {x * a, y * a, z * a};
                double v[3] = {0.5 * sin(1.3 * k), 0.5 * cos(0.7 * k), 0.5 * sin(2.1 * k)};
                if (cdyn_particle_add(sys, 1.0, pos, v, &p[k]))
                    goto done;
            }
    for (int c = 0; c < chains; c++)
        for (int i = 1; i < BEADS; i++) {
            cdyn_constraint rod;
            if (cdyn_constraint_add_distance(sys, p[c * BEADS + i - 1], p[c * BEADS + i], a, &rod))
                goto done;
        }
    double origin[3] = {0, 0, 0}, len[3] = {L, L, L};
    bool periodic[3] = {true, true, true};
    cdyn_pair_params pp;
    cdyn_force f;
    cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE);
    if (cdyn_system_set_box(sys, origin, len, periodic) ||
        cdyn_force_add_pair_set(sys, &pp, p, (size_t)n, &f) ||
        cdyn_force_set_pair_exclude_bonded(sys, f, 1) ||
        cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE) ||
        (langevin && thermostat(sys, 1.0, 0.5, 2024)))
        goto done;
    for (int s = 0; s < 50; s++) /* melt the lattice a little first */
        if (cdyn_system_step(sys, DT))
            goto done;
    cdyn_pair_stats st0 = {.size = sizeof st0}, st1 = {.size = sizeof st1};
    cdyn_force_get_pair_stats(sys, f, &st0);
    double c0 = cpu_now(), w0 = bench_now();
    for (int s = 0; s < steps; s++)
        if (cdyn_system_step(sys, DT))
            goto done;
    double per = 1e9 / ((double)steps * (double)n);
    r.cpu_ns = (cpu_now() - c0) * per;
    r.wall_ns = (bench_now() - w0) * per;
    cdyn_force_get_pair_stats(sys, f, &st1);
    r.builds = (unsigned long long)(st1.builds - st0.builds);
    double rv;
    cdyn_system_get_temperature(sys, &r.kT);
    cdyn_system_compute_constraint_residuals(sys, &r.rod_residual, &rv);
    r.ok = 1;
done:
    if (!r.ok)
        fprintf(stderr, "bench_melt: %s\n", sys ? cdyn_system_last_error(sys) : "out of memory");
    cdyn_system_destroy(sys);
    free(p);
    return r;
}

int main(int argc, char **argv)
{
    int full = 0, reps = 3;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--full") == 0) {
            full = 1;
        } else if (strcmp(argv[i], "--repeats") == 0 && i + 1 < argc) {
            reps = atoi(argv[++i]);
            reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
        } else {
            fprintf(stderr, "usage: %s [--full] [--repeats R]\n", argv[0]);
            return 2;
        }
    }
    bench_print_machine("start");
    printf("# bead-rod melt: chains of %d beads, rigid bonds (RATTLE), WCA between beads not "
           "bonded, density %.2f, periodic, dt %g; medians of %d runs\n",
           BEADS, RHO, DT, reps);
    printf("# %8s %7s %10s | %12s %10s | %7s %6s %9s\n", "beads", "steps", "thermostat",
           "cpu ns/bead", "wall ns", "builds", "kT", "rod err");
    const int chains[2] = {100, 1000};
    for (int ci = 0; ci < (full ? 2 : 1); ci++)
        for (int lang = 1; lang >= 0; lang--) {
            const int n = chains[ci] * BEADS, steps = n > 50000 ? 100 : 400;
            double cpu[MAX_REPS], wall[MAX_REPS];
            result r = {0};
            for (int i = 0; i < reps; i++) {
                r = run(chains[ci], lang, steps);
                if (!r.ok)
                    return 1;
                cpu[i] = r.cpu_ns;
                wall[i] = r.wall_ns;
            }
            printf("  %8d %7d %10s | %12.1f %10.1f | %7llu %6.3f %9.1e\n", n, steps,
                   lang ? "Langevin" : "none", bench_median(cpu, (size_t)reps),
                   bench_median(wall, (size_t)reps), r.builds, r.kT, r.rod_residual);
            fflush(stdout);
        }
    bench_print_machine("end");
    return 0;
}
