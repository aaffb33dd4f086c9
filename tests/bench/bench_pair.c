/* bench_pair: a WCA liquid stepped by velocity Verlet, against LAMMPS.
 *
 * The Weeks-Chandler-Andersen fluid (Lennard-Jones 12-6 cut at 2^(1/6) and
 * shifted, epsilon = sigma = m = 1) at number density 0.8 in a periodic box,
 * dt = 0.005, started from a lattice (fcc in 3-D, triangular in 2-D; the
 * particles numbered with x fastest, as loops over a lattice give them) with
 * Gaussian velocities of temperature 1 and no net momentum. The cost is
 * reported in nanoseconds per particle per step: thread CPU time of the step
 * loop (the machine is shared: CPU time is what one core spent) and wall
 * time.
 *
 * When the LAMMPS binary is found (CDYN_LMP, else /usr/bin/lmp; one process,
 * one thread), the same model runs there on the same initial data, written
 * to a data file with every digit: pair_style lj/cut with pair_modify shift,
 * neighbor skin 0.3 checked every step, fix nve. Its cost is the loop time
 * it reports times its CPU share. The two codes run interleaved (cdyn,
 * LAMMPS, cdyn, ...) and each figure is the median of the repeats. Both
 * print the energy per particle at the end: equal to many digits (the same
 * trajectory). The last lines fit time ~ N^b over the sizes.
 *
 * cdyn also runs with a pool of 2 workers (examples/task_pool.c), right
 * after its run without a task system: the wall time and the ratio of the
 * two wall times are printed (the trajectory is the same bit for bit).
 *
 * The CPU model and the load average are printed at the start and the end.
 *
 * Default: N ~ 10^3, 10^4, 10^5 in 3-D and 2-D, 3 repeats. --full: up to
 * 10^6. --dim 2|3, --repeats R, --no-lammps.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cdyn/cdyn.h>

#include "bench_util.h"
#include "task_pool.h"

#define RHO 0.8
#define DT 0.005
#define WCA_RC 1.122462048309373
#define MAX_REPS 15

static double cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng_state;
static double rand01(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-53;
}

static double gauss(void)
{
    double u = rand01() + 0x1p-60, v = rand01();
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* The initial state: n particles, positions and velocities, box lengths. */
typedef struct state {
    int dim;
    size_t n;
    double len[3];
    double *x, *v;
} state;

/* A lattice of about @p target particles at density RHO. */
static int make_state(int dim, size_t target, state *s)
{
    memset(s, 0, sizeof *s);
    s->dim = dim;
    size_t cells[3] = {1, 1, 1}, per_cell;
    double a[3];
    if (dim == 3) { /* fcc: 4 per cubic cell */
        per_cell = 4;
        size_t c = (size_t)llround(cbrt((double)target / 4.0));
        cells[0] = cells[1] = cells[2] = c ? c : 1;
        a[0] = a[1] = a[2] = cbrt(4.0 / RHO);
    } else { /* triangular: 2 per rectangular cell a x sqrt(3) a */
        per_cell = 2;
        double side = sqrt(2.0 / (RHO * sqrt(3.0)));
        a[0] = side;
        a[1] = side * sqrt(3.0);
        size_t cy = (size_t)llround(sqrt((double)target / (2.0 * sqrt(3.0))));
        cells[1] = cy ? cy : 1;
        cells[0] = (size_t)llround((double)target / (2.0 * (double)cells[1]));
    }
    s->n = cells[0] * cells[1] * cells[2] * per_cell;
    s->x = malloc(s->n * 3 * sizeof *s->x);
    s->v = malloc(s->n * 3 * sizeof *s->v);
    if (!s->x || !s->v)
        return 1;
    static const double fcc[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
    static const double tri[2][3] = {{0.25, 0.25, 0}, {0.75, 0.75, 0}};
    size_t k = 0;
    for (size_t cz = 0; cz < cells[2]; cz++)
        for (size_t cy = 0; cy < cells[1]; cy++)
            for (size_t cx = 0; cx < cells[0]; cx++)
                for (size_t b = 0; b < per_cell; b++, k++) {
                    const double *o = dim == 3 ? fcc[b] : tri[b];
                    size_t c[3] = {cx, cy, cz};
                    for (int i = 0; i < 3; i++)
                        s->x[3 * k + (size_t)i] = i < dim ? ((double)c[i] + o[i]) * a[i] : 0.0;
                }
    for (int i = 0; i < 3; i++)
        s->len[i] = i < dim ? (double)cells[i] * a[i] : 1.0;
    /* Velocities: Gaussian, no net momentum, scaled to temperature 1 over
     * dim (n - 1) degrees of freedom. */
    rng_state = 20240519u + (uint64_t)s->n;
    double mean[3] = {0, 0, 0}, sum2 = 0;
    for (size_t i = 0; i < s->n; i++)
        for (int c = 0; c < 3; c++) {
            s->v[3 * i + (size_t)c] = c < dim ? gauss() : 0.0;
            mean[c] += s->v[3 * i + (size_t)c] / (double)s->n;
        }
    for (size_t i = 0; i < s->n; i++)
        for (int c = 0; c < dim; c++) {
            s->v[3 * i + (size_t)c] -= mean[c];
            sum2 += s->v[3 * i + (size_t)c] * s->v[3 * i + (size_t)c];
        }
    double scale = sqrt((double)dim * (double)(s->n - 1) / sum2);
    for (size_t i = 0; i < 3 * s->n; i++)
        s->v[i] *= scale;
    return 0;
}

static void free_state(state *s)
{
    free(s->x);
    free(s->v);
}

typedef struct result {
    double cpu_ns, wall_ns;  /* per particle per step */
    double idle_ns;          /* with a pool: the idle-core estimate (see main) */
    double e_per_particle;   /* total energy at the end */
    unsigned long long builds;
    int ok;
} result;

static result run_cdyn(const state *s, int steps, task_pool *pool)
{
    result r = {0};
    cdyn_system *sys = NULL;
    const int dim = s->dim;
    cdyn_particle *p = malloc(s->n * sizeof *p);
    if (!p || cdyn_system_create(dim, &sys))
        goto done;
    for (size_t i = 0; i < s->n; i++)
        if (cdyn_particle_add(sys, 1.0, s->x + 3 * i, s->v + 3 * i, &p[i]))
            goto done;
    double origin[3] = {0, 0, 0};
    bool periodic[3] = {true, true, true};
    cdyn_pair_params pp;
    cdyn_force f;
    cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE);
    if (cdyn_system_set_box(sys, origin, s->len, periodic) ||
        cdyn_force_add_pair_set(sys, &pp, p, s->n, &f) ||
        cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET) ||
        cdyn_system_evaluate(sys, NULL, 0)) /* allocations and the first list, as a setup */
        goto done;
    if (pool) {
        cdyn_task_system ts;
        cdyn_task_system_init(&ts);
        task_pool_fill(pool, &ts);
        if (cdyn_system_set_task_system(sys, &ts))
            goto done;
    }
    double crit0 = 0, busy0 = 0, in0 = 0, crit1 = 0, busy1 = 0, in1 = 0;
    if (pool)
        task_pool_times(pool, &crit0, &busy0, &in0);
    double c0 = cpu_now(), w0 = bench_now();
    for (int i = 0; i < steps; i++)
        if (cdyn_system_step(sys, DT) != CDYN_OK) {
            fprintf(stderr, "bench_pair: step: %s\n", cdyn_system_last_error(sys));
            goto done;
        }
    double per = 1e9 / ((double)steps * (double)s->n);
    r.cpu_ns = (cpu_now() - c0) * per;
    r.wall_ns = (bench_now() - w0) * per;
    if (pool) {
        task_pool_times(pool, &crit1, &busy1, &in1);
        r.idle_ns = r.cpu_ns - ((in1 - in0) - (crit1 - crit0)) * per;
    }
    double ke, pe;
    cdyn_pair_stats st = {.size = sizeof st};
    cdyn_system_get_kinetic_energy(sys, &ke);
    cdyn_system_get_potential_energy(sys, &pe);
    cdyn_force_get_pair_stats(sys, f, &st);
    r.e_per_particle = (ke + pe) / (double)s->n;
    r.builds = (unsigned long long)st.builds;
    r.ok = 1;
done:
    if (!r.ok && sys)
        fprintf(stderr, "bench_pair: %s\n", cdyn_system_last_error(sys));
    cdyn_system_destroy(sys);
    free(p);
    return r;
}

static const char *lammps_binary(void)
{
    const char *env = getenv("CDYN_LMP");
    const char *path = env && *env ? env : "/usr/bin/lmp";
    return access(path, X_OK) == 0 ? path : NULL;
}

/* Writes the LAMMPS data and input files for @p s into @p dir. */
static int write_lammps(const state *s, int steps, const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/wca.data", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fprintf(f, "WCA liquid written by cdyn's bench_pair\n\n%zu atoms\n1 atom types\n\n", s->n);
    const char *ax[3] = {"x", "y", "z"};
    for (int i = 0; i < 3; i++) {
        double lo = i < s->dim ? 0.0 : -0.5, hi = i < s->dim ? s->len[i] : 0.5;
        fprintf(f, "%.17g %.17g %slo %shi\n", lo, hi, ax[i], ax[i]);
    }
    fprintf(f, "\nMasses\n\n1 1.0\n\nAtoms # atomic\n\n");
    for (size_t i = 0; i < s->n; i++)
        fprintf(f, "%zu 1 %.17g %.17g %.17g\n", i + 1, s->x[3 * i], s->x[3 * i + 1],
                s->x[3 * i + 2]);
    fprintf(f, "\nVelocities\n\n");
    for (size_t i = 0; i < s->n; i++)
        fprintf(f, "%zu %.17g %.17g %.17g\n", i + 1, s->v[3 * i], s->v[3 * i + 1],
                s->v[3 * i + 2]);
    fclose(f);
    snprintf(path, sizeof path, "%s/wca.in", dir);
    if (!(f = fopen(path, "w")))
        return 1;
    fprintf(f,
            "units lj\ndimension %d\nboundary p p p\natom_style atomic\n"
            "read_data %s/wca.data\n"
            "pair_style lj/cut %.16g\npair_coeff 1 1 1.0 1.0 %.16g\npair_modify shift yes\n"
            "neighbor 0.3 bin\nneigh_modify every 1 delay 0 check yes\n"
            "fix 1 all nve\n%s"
            "timestep %g\nthermo_style custom step pe ke etotal\n"
            "thermo_modify norm yes format float %%.15g\nthermo %d\nrun %d\n",
            s->dim, dir, WCA_RC, WCA_RC, s->dim == 2 ? "fix 2 all enforce2d\n" : "", DT,
            steps, steps);
    fclose(f);
    return 0;
}

static result run_lammps(const char *lmp, const char *dir, int steps, size_t n)
{
    result r = {0};
    char cmd[1024], path[512];
    snprintf(cmd, sizeof cmd, "OMP_NUM_THREADS=1 %s -in %s/wca.in -log none -nocite > %s/wca.out 2>&1",
             lmp, dir, dir);
    if (system(cmd) != 0)
        return r;
    snprintf(path, sizeof path, "%s/wca.out", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return r;
    char line[512];
    double loop = -1, share = -1, etot = NAN;
    int thermo = 0;
    while (fgets(line, sizeof line, f)) {
        double a;
        int step;
        if (sscanf(line, "Loop time of %lf", &a) == 1)
            loop = a, thermo = 0;
        else if (strstr(line, "% CPU use") && sscanf(line, "%lf", &a) == 1)
            share = a / 100.0;
        else if (sscanf(line, "Neighbor list builds = %llu", &r.builds) == 1)
            ;
        else if (strncmp(line, "   Step", 7) == 0 || strncmp(line, "Step", 4) == 0)
            thermo = 1;
        else if (thermo && sscanf(line, "%d %*g %*g %lf", &step, &a) == 2 && step == steps)
            etot = a;
    }
    fclose(f);
    if (loop < 0 || share < 0)
        return r;
    double per = 1e9 / ((double)steps * (double)n);
    r.wall_ns = loop * per;
    r.cpu_ns = loop * share * per;
    r.e_per_particle = etot;
    r.ok = 1;
    return r;
}

/* Least-squares slope of log(total time per step) on log N. */
static double fit_exponent(const double *n, const double *ns_pp, int k)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < k; i++) {
        double x = log(n[i]), y = log(ns_pp[i] * n[i]);
        sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

int main(int argc, char **argv)
{
    int full = 0, reps = 3, dims[2] = {3, 2}, n_dims = 2, use_lammps = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--full") == 0) {
            full = 1;
        } else if (strcmp(argv[i], "--repeats") == 0 && i + 1 < argc) {
            reps = atoi(argv[++i]);
            reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
        } else if (strcmp(argv[i], "--dim") == 0 && i + 1 < argc) {
            dims[0] = atoi(argv[++i]) == 2 ? 2 : 3;
            n_dims = 1;
        } else if (strcmp(argv[i], "--no-lammps") == 0) {
            use_lammps = 0;
        } else {
            fprintf(stderr, "usage: %s [--full] [--dim 2|3] [--repeats R] [--no-lammps]\n",
                    argv[0]);
            return 2;
        }
    }
    const char *lmp = use_lammps ? lammps_binary() : NULL;
    char dir[] = "/tmp/cdyn_bench_pair_XXXXXX";
    if (lmp && !mkdtemp(dir))
        lmp = NULL;
    bench_print_machine("start");
    printf("# WCA liquid, density %.2f, T 1, velocity Verlet dt %g, periodic box; "
           "ns per particle per step, medians of %d interleaved runs; LAMMPS: %s\n",
           RHO, DT, reps, lmp ? lmp : "not found");
    task_pool *pool2;
    if (task_pool_create(2, &pool2)) {
        fprintf(stderr, "bench_pair: no threads\n");
        return 1;
    }
    printf("# cdyn runs three times per repeat: without a task system (1 worker; CPU and wall), "
           "with a 2-worker pool (examples/task_pool.c; wall), and with the pool giving one range "
           "to each thread for the idle-core estimate of the 2-worker step (2w idle: the stepping "
           "thread's CPU time outside the loops plus, per loop, the longer of the two threads' "
           "ranges); the same trajectory each time\n");
    printf("# %2s %9s %6s | %9s %9s %7s | %9s %7s %9s %7s | %9s %9s %7s | %9s %9s | %18s %18s\n",
           "d", "N", "steps", "cdyn cpu", "wall", "builds", "2w wall", "1w/2w", "2w idle",
           "cpu/idle", "lmp cpu", "wall", "builds", "cpu ratio", "wall ratio", "cdyn E/N",
           "lmp E/N");
    const size_t sizes[] = {1000, 10000, 100000, 1000000};
    const int n_sizes = full ? 4 : 3;
    for (int di = 0; di < n_dims; di++) {
        const int dim = dims[di];
        double ns[4], cd[4], lm[4];
        int k = 0, lk = 0;
        for (int si = 0; si < n_sizes; si++) {
            state s;
            if (make_state(dim, sizes[si], &s)) {
                fprintf(stderr, "bench_pair: out of memory\n");
                return 1;
            }
            double work = 5e7 / (double)s.n;
            int steps = work < 50 ? 50 : work > 2000 ? 2000 : (int)work;
            if (lmp && write_lammps(&s, steps, dir))
                lmp = NULL;
            double c_cpu[MAX_REPS], c_wall[MAX_REPS], l_cpu[MAX_REPS], l_wall[MAX_REPS];
            double c2_wall[MAX_REPS], c2_idle[MAX_REPS];
            result rc = {0}, rl = {0};
            int lok = lmp != NULL;
            for (int r = 0; r < reps; r++) {
                /* alternate which code goes first */
                for (int w = 0; w < 2; w++) {
                    if ((w == 0) == (r % 2 == 0)) {
                        rc = run_cdyn(&s, steps, NULL);
                        result r2 = run_cdyn(&s, steps, pool2);
                        task_pool_set_fixed(pool2, 1);
                        result r3 = run_cdyn(&s, steps, pool2);
                        task_pool_set_fixed(pool2, 0);
                        if (!rc.ok || !r2.ok || !r3.ok)
                            return 1;
                        c_cpu[r] = rc.cpu_ns, c_wall[r] = rc.wall_ns;
                        c2_wall[r] = r2.wall_ns;
                        c2_idle[r] = r3.idle_ns;
                    } else if (lok) {
                        rl = run_lammps(lmp, dir, steps, s.n);
                        lok = rl.ok;
                        l_cpu[r] = rl.cpu_ns, l_wall[r] = rl.wall_ns;
                    }
                }
            }
            double cc = bench_median(c_cpu, (size_t)reps), cw = bench_median(c_wall, (size_t)reps);
            double cw2 = bench_median(c2_wall, (size_t)reps);
            double ci2 = bench_median(c2_idle, (size_t)reps);
            ns[k] = (double)s.n;
            cd[k++] = cc;
            if (lok) {
                double lc = bench_median(l_cpu, (size_t)reps), lw = bench_median(l_wall, (size_t)reps);
                lm[lk++] = lc;
                printf("  %2d %9zu %6d | %9.1f %9.1f %7llu | %9.1f %7.2f %9.1f %7.2f | %9.1f "
                       "%9.1f %7llu | %9.3f %9.3f | %18.15f %18.15f\n",
                       dim, s.n, steps, cc, cw, rc.builds, cw2, cw / cw2, ci2, cc / ci2, lc, lw,
                       rl.builds, cc / lc, cw / lw, rc.e_per_particle, rl.e_per_particle);
            } else {
                printf("  %2d %9zu %6d | %9.1f %9.1f %7llu | %9.1f %7.2f %9.1f %7.2f | %9s %9s "
                       "%7s | %9s %9s | %18.15f\n",
                       dim, s.n, steps, cc, cw, rc.builds, cw2, cw / cw2, ci2, cc / ci2, "-", "-",
                       "-", "-", "-", rc.e_per_particle);
            }
            fflush(stdout);
            free_state(&s);
        }
        printf("# %d-D fitted exponent (time per step ~ N^b, CPU): cdyn b = %.3f", dim,
               fit_exponent(ns, cd, k));
        if (k > 2)
            printf(" (N >= 10^4: %.3f)", fit_exponent(ns + 1, cd + 1, k - 1));
        if (lk == k)
            printf(", LAMMPS b = %.3f (N >= 10^4: %.3f)", fit_exponent(ns, lm, lk),
                   fit_exponent(ns + 1, lm + 1, lk - 1));
        printf("\n");
    }
    task_pool_destroy(pool2);
    bench_print_machine("end");
    if (lmp && !getenv("CDYN_BENCH_KEEP")) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "bench_pair: could not remove %s\n", dir);
    }
    return 0;
}
