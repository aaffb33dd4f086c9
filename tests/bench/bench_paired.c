/* Paired timing of two builds of the library on the standard chain with
 * RATTLE (Newton projection, tolerance 1e-12 relative, dt = 1 ms).
 *
 * On a machine whose speed drifts with the load of its neighbours, two
 * benchmark runs made a minute apart can differ by more than the change
 * being measured. This program loads both builds into one process (each in
 * a link namespace of its own), builds the same chain in each, and times
 * them in alternating chunks of steps, so that both see the same machine;
 * it prints the medians and fastest chunks of each and the median of the
 * per-pair ratios B / A with its quartiles.
 *
 * Usage: bench_paired LIB_A LIB_B [N [PAIRS]]
 *   LIB_A, LIB_B  paths of two libcdyn.so builds
 *   N             links (default 1000); PAIRS pairs of chunks (default 40)
 * Chunks hold about 2e5 link-steps, at most 1000 / PAIRS steps, so that the
 * whole run stays within the first second of the chain's motion. Not a
 * meson benchmark (it needs two builds); see docs/rattle.md section 9. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include <cdyn/cdyn.h>

#include "bench_util.h"

#define MAX_PAIRS 400

/* The entry points the chain needs, from one build. */
typedef struct api {
    cdyn_status (*create)(int, cdyn_system **);
    void (*destroy)(cdyn_system *);
    cdyn_status (*set_integrator)(cdyn_system *, cdyn_integrator);
    void (*options_init)(cdyn_projection_options *);
    cdyn_status (*set_projection)(cdyn_system *, const cdyn_projection_options *);
    cdyn_status (*particle_add)(cdyn_system *, double, const double *, const double *,
                                cdyn_particle *);
    cdyn_status (*set_fixed)(cdyn_system *, cdyn_particle, bool);
    cdyn_status (*add_distance)(cdyn_system *, cdyn_particle, cdyn_particle, double,
                                cdyn_constraint *);
    cdyn_status (*add_gravity)(cdyn_system *, const double *, cdyn_force *);
    cdyn_status (*step)(cdyn_system *, double);
} api;

/* Looks symbol @p name up in @p lib into *slot (a function pointer). */
static int bind(void *lib, const char *name, void *slot)
{
    void *sym = dlsym(lib, name);
    if (!sym) {
        fprintf(stderr, "bench_paired: %s not found\n", name);
        return 1;
    }
    *(void **)slot = sym;
    return 0;
}

static int load(api *a, const char *path)
{
    void *lib = dlmopen(LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "bench_paired: %s\n", dlerror());
        return 1;
    }
    return bind(lib, "cdyn_system_create", &a->create) ||
           bind(lib, "cdyn_system_destroy", &a->destroy) ||
           bind(lib, "cdyn_system_set_integrator", &a->set_integrator) ||
           bind(lib, "cdyn_projection_options_init", &a->options_init) ||
           bind(lib, "cdyn_system_set_projection", &a->set_projection) ||
           bind(lib, "cdyn_particle_add", &a->particle_add) ||
           bind(lib, "cdyn_particle_set_fixed", &a->set_fixed) ||
           bind(lib, "cdyn_constraint_add_distance", &a->add_distance) ||
           bind(lib, "cdyn_force_add_gravity", &a->add_gravity) ||
           bind(lib, "cdyn_system_step", &a->step);
}

/* The standard chain of bench_chain's RATTLE rows: pivot fixed at the
 * origin, unit masses at 0.1 i, rods of 0.1, gravity 9.81 along -y. */
static cdyn_system *standard_chain(const api *a, long n)
{
    cdyn_system *sys;
    if (a->create(2, &sys))
        return NULL;
    cdyn_projection_options po;
    a->options_init(&po);
    po.method = CDYN_PROJECTION_NEWTON;
    po.position_tolerance = 1e-12;
    po.velocity_tolerance = 1e-12;
    po.max_iterations = 1000000;
    cdyn_particle prev, p;
    cdyn_constraint rod;
    cdyn_force g;
    int bad = a->set_integrator(sys, CDYN_INTEGRATOR_RATTLE) || a->set_projection(sys, &po) ||
              a->particle_add(sys, 1.0, (double[]){0, 0}, NULL, &prev) ||
              a->set_fixed(sys, prev, true);
    for (long i = 1; i <= n && !bad; i++) {
        bad = a->particle_add(sys, 1.0, (double[]){0.1 * (double)i, 0}, NULL, &p) ||
              a->add_distance(sys, prev, p, 0.1, &rod);
        prev = p;
    }
    if (bad || a->add_gravity(sys, (double[]){0, -9.81}, &g)) {
        a->destroy(sys);
        return NULL;
    }
    return sys;
}

/* Seconds per link-step of @p steps steps; negative when one fails. */
static double chunk(const api *a, cdyn_system *sys, long n, int steps)
{
    double t0 = bench_now();
    for (int s = 0; s < steps; s++)
        if (a->step(sys, 1e-3))
            return -1;
    return (bench_now() - t0) / ((double)steps * (double)n);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        printf("usage: bench_paired LIB_A LIB_B [N [PAIRS]]\n");
        return 2;
    }
    long n = argc > 3 ? atol(argv[3]) : 1000;
    int pairs = argc > 4 ? atoi(argv[4]) : 40;
    if (n < 1 || pairs < 4 || pairs > MAX_PAIRS) {
        fprintf(stderr, "bench_paired: N >= 1 and 4 <= PAIRS <= %d\n", MAX_PAIRS);
        return 2;
    }
    api a, b;
    if (load(&a, argv[1]) || load(&b, argv[2]))
        return 1;
    cdyn_system *sa = standard_chain(&a, n), *sb = standard_chain(&b, n);
    if (!sa || !sb) {
        fprintf(stderr, "bench_paired: setup failed\n");
        return 1;
    }
    int steps = (int)(2e5 / (double)n);
    if (steps > 1000 / pairs)
        steps = 1000 / pairs;
    if (steps < 1)
        steps = 1;
    static double ta[MAX_PAIRS], tb[MAX_PAIRS], ratio[MAX_PAIRS];
    for (int k = 0; k < pairs; k++) {
        ta[k] = chunk(&a, sa, n, steps);
        tb[k] = chunk(&b, sb, n, steps);
        if (ta[k] < 0 || tb[k] < 0) {
            fprintf(stderr, "bench_paired: a step failed in pair %d\n", k);
            return 1;
        }
        ratio[k] = tb[k] / ta[k];
    }
    size_t m = (size_t)pairs;
    double med_a = bench_median(ta, m) * 1e9, med_b = bench_median(tb, m) * 1e9;
    double med_r = bench_median(ratio, m); /* sorted now */
    printf("N = %ld, %d pairs of %d steps: A median %.2f ns/link (fastest %.2f), "
           "B median %.2f (fastest %.2f); B / A median %.3f (quartiles %.3f, %.3f)\n",
           n, pairs, steps, med_a, ta[0] * 1e9, med_b, tb[0] * 1e9, med_r, ratio[m / 4],
           ratio[3 * m / 4]);
    a.destroy(sa);
    b.destroy(sb);
    return 0;
}
