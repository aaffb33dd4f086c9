/* Paired timing of two builds of the library on one scene.
 *
 * On a machine whose speed drifts with the load of its neighbours, two
 * benchmark runs made a minute apart can differ by more than the change
 * being measured. This program loads both builds into one process (each in
 * a link namespace of its own), builds the same scene in each, and times
 * them in alternating chunks, so that both see the same machine; it prints
 * the medians and fastest chunks of each and the median of the per-pair
 * ratios B / A with its quartiles.
 *
 * Usage: bench_paired LIB_A LIB_B [SCENE [N [PAIRS]]]
 *   LIB_A, LIB_B  paths of two libcdyn.so builds
 *   SCENE         chain (default): the standard chain with RATTLE (Newton
 *                   projection, tolerance 1e-12 relative, dt = 1 ms), N links;
 *                 chain-euler: the same chain with symplectic Euler and the
 *                   direct multiplier solve;
 *                 springs: a hanging 2-D spring-dashpot net of about N
 *                   particles with RK4 (as bench_springs), dt = 1e-4 s;
 *                 pair: N particles of a WCA cluster at density 0.8 with
 *                   velocity Verlet, dt = 0.005 (as bench_pair);
 *                 lattice: rain on an N x N erosion lattice, then its
 *                   drainage (chunks of N drops plus one drainage);
 *                 cloth: an N x N cloth of rods in 3-D (grid edges of 5 cm,
 *                   10 g masses, two opposite corners fixed, gravity) with
 *                   the default integrator and solver (as bench_cloth), per
 *                   rod.
 *   N             size (default 1000; lattice 256); PAIRS pairs of chunks
 *                 (default 40)
 * Chain chunks hold about 2e5 link-steps, at most 1000 / PAIRS steps, so
 * that the whole run stays within the first second of the chain's motion.
 * Not a meson benchmark (it needs two builds); see docs/performance.md. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "bench_util.h"

#define MAX_PAIRS 400

/* The entry points the scenes need, from one build. */
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
    cdyn_status (*add_spring)(cdyn_system *, cdyn_particle, cdyn_particle, double, double,
                              double, cdyn_force *);
    cdyn_status (*pair_init)(cdyn_pair_params *, cdyn_pair_kind);
    cdyn_status (*add_pair_set)(cdyn_system *, const cdyn_pair_params *, const cdyn_particle *,
                                size_t, cdyn_force *);
    cdyn_status (*step)(cdyn_system *, double);
    cdyn_status (*lattice_create)(size_t, size_t, uint64_t, const cdyn_allocator *,
                                  cdyn_lattice **);
    void (*lattice_destroy)(cdyn_lattice *);
    cdyn_status (*rain)(cdyn_lattice *, uint64_t);
    cdyn_status (*drainage)(cdyn_lattice *, uint32_t *, size_t);
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

/* As bind, trying @p old when @p name is missing: builds from before a
 * rename (cdyn_system_set_projection became _set_projection_options) stay
 * comparable with later ones. */
static int bind_renamed(void *lib, const char *name, const char *old, void *slot)
{
    void *sym = dlsym(lib, name);
    if (!sym)
        return bind(lib, old, slot);
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
           bind_renamed(lib, "cdyn_system_set_projection_options", "cdyn_system_set_projection",
                        &a->set_projection) ||
           bind(lib, "cdyn_particle_add", &a->particle_add) ||
           bind(lib, "cdyn_particle_set_fixed", &a->set_fixed) ||
           bind(lib, "cdyn_constraint_add_distance", &a->add_distance) ||
           bind(lib, "cdyn_force_add_gravity", &a->add_gravity) ||
           bind(lib, "cdyn_force_add_spring", &a->add_spring) ||
           bind(lib, "cdyn_pair_params_init", &a->pair_init) ||
           bind(lib, "cdyn_force_add_pair_set", &a->add_pair_set) ||
           bind(lib, "cdyn_system_step", &a->step) ||
           bind(lib, "cdyn_lattice_create", &a->lattice_create) ||
           bind(lib, "cdyn_lattice_destroy", &a->lattice_destroy) ||
           bind(lib, "cdyn_lattice_rain", &a->rain) ||
           bind_renamed(lib, "cdyn_lattice_compute_drainage", "cdyn_lattice_drainage",
                        &a->drainage);
}

typedef enum scene_kind { CHAIN, CHAIN_EULER, SPRINGS, PAIR, LATTICE, CLOTH } scene_kind;

/* One build's instance of the scene. */
typedef struct scene {
    scene_kind kind;
    const api *a;
    cdyn_system *sys;
    cdyn_lattice *lat;
    uint32_t *drain;
    long n;      /* the size N */
    double units; /* what one chunk's time is divided by (link- or particle-steps, drops) */
} scene;

/* The standard chain: pivot fixed at the origin, unit masses at 0.1 i,
 * rods of 0.1, gravity 9.81 along -y. */
static int build_chain(scene *s, cdyn_integrator integ)
{
    const api *a = s->a;
    cdyn_projection_options po;
    a->options_init(&po);
    po.method = CDYN_PROJECTION_NEWTON;
    po.position_tolerance = 1e-12;
    po.velocity_tolerance = 1e-12;
    po.max_iterations = 1000000;
    cdyn_particle prev, p;
    cdyn_constraint rod;
    cdyn_force g;
    int bad = a->set_integrator(s->sys, integ) || a->set_projection(s->sys, &po) ||
              a->particle_add(s->sys, 1.0, (double[]){0, 0}, NULL, &prev) ||
              a->set_fixed(s->sys, prev, true);
    for (long i = 1; i <= s->n && !bad; i++) {
        bad = a->particle_add(s->sys, 1.0, (double[]){0.1 * (double)i, 0}, NULL, &p) ||
              a->add_distance(s->sys, prev, p, 0.1, &rod);
        prev = p;
    }
    return bad || a->add_gravity(s->sys, (double[]){0, -9.81}, &g);
}

/* A square net of side ~sqrt(N) at spacing 0.01 m, top row fixed, springs
 * along edges and both diagonals (S = 1000 N/m, D = 0.05 N s/m), gravity. */
static int build_springs(scene *s)
{
    const api *a = s->a;
    long side = (long)sqrt((double)s->n);
    if (side < 2)
        side = 2;
    cdyn_particle *p = malloc((size_t)(side * side) * sizeof *p);
    int bad = !p || a->set_integrator(s->sys, CDYN_INTEGRATOR_RK4);
    for (long j = 0; j < side && !bad; j++)
        for (long i = 0; i < side && !bad; i++) {
            long id = j * side + i;
            bad = a->particle_add(s->sys, 1e-3, (double[]){0.01 * (double)i, -0.01 * (double)j},
                                  NULL, &p[id]) ||
                  (j == 0 && a->set_fixed(s->sys, p[id], true));
        }
    cdyn_force f;
    for (long j = 0; j < side && !bad; j++)
        for (long i = 0; i < side && !bad; i++) {
            long id = j * side + i;
            if (i + 1 < side)
                bad |= a->add_spring(s->sys, p[id], p[id + 1], 1000, 0.05, 0.01, &f);
            if (j + 1 < side)
                bad |= a->add_spring(s->sys, p[id], p[id + side], 1000, 0.05, 0.01, &f);
            if (i + 1 < side && j + 1 < side) {
                bad |= a->add_spring(s->sys, p[id], p[id + side + 1], 1000, 0.05, 0.01 * sqrt(2),
                                     &f);
                bad |= a->add_spring(s->sys, p[id + 1], p[id + side], 1000, 0.05, 0.01 * sqrt(2),
                                     &f);
            }
        }
    s->n = side * side;
    free(p);
    return bad || a->add_gravity(s->sys, (double[]){0, -9.81}, &f);
}

/* A 3-D WCA cluster (sigma = epsilon = 1) on a jittered cubic lattice at
 * density 0.8, deterministic velocities of temperature ~1. */
static int build_pair(scene *s)
{
    const api *a = s->a;
    long side = (long)ceil(cbrt((double)s->n));
    double h = cbrt(1.0 / 0.8);
    cdyn_particle *p = malloc((size_t)s->n * sizeof *p);
    uint64_t r = 88172645463325252ull;
    int bad = !p || a->set_integrator(s->sys, CDYN_INTEGRATOR_VELOCITY_VERLET);
    for (long id = 0; id < s->n && !bad; id++) {
        double x[3], v[3];
        long c[3] = {id % side, (id / side) % side, id / (side * side)};
        for (int k = 0; k < 3; k++) {
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            x[k] = h * ((double)c[k] + 0.05 * ((double)(r >> 11) * 0x1p-53 - 0.5));
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            v[k] = 1.7 * ((double)(r >> 11) * 0x1p-53 - 0.5);
        }
        bad = a->particle_add(s->sys, 1.0, x, v, &p[id]);
    }
    cdyn_pair_params pp;
    cdyn_force f;
    bad = bad || a->pair_init(&pp, CDYN_PAIR_LJ_REPULSIVE) ||
          a->add_pair_set(s->sys, &pp, p, (size_t)s->n, &f);
    free(p);
    return bad;
}

/* The cloth of bench_cloth: N x N masses of 10 g 5 cm apart, rods along the
 * grid edges, corners (0, 0) and (N - 1, N - 1) fixed, gravity along -z;
 * s->n becomes the rod count. */
static int build_cloth(scene *s)
{
    const api *a = s->a;
    const long n = s->n;
    const double h = 0.05;
    cdyn_particle *p = malloc((size_t)(n * n) * sizeof *p);
    int bad = !p;
    for (long j = 0; j < n && !bad; j++)
        for (long i = 0; i < n && !bad; i++)
            bad = a->particle_add(s->sys, 0.01, (double[]){h * (double)i, 0, -h * (double)j},
                                  NULL, &p[j * n + i]);
    bad = bad || a->set_fixed(s->sys, p[0], true) || a->set_fixed(s->sys, p[n * n - 1], true);
    long rods = 0;
    for (long j = 0; j < n && !bad; j++)
        for (long i = 0; i < n && !bad; i++) {
            cdyn_constraint c;
            if (i + 1 < n)
                bad |= a->add_distance(s->sys, p[j * n + i], p[j * n + i + 1], h, &c), rods++;
            if (j + 1 < n)
                bad |= a->add_distance(s->sys, p[j * n + i], p[(j + 1) * n + i], h, &c), rods++;
        }
    cdyn_force g;
    free(p);
    s->n = rods;
    return bad || a->add_gravity(s->sys, (double[]){0, 0, -9.81}, &g);
}

static int build(scene *s, const api *a, scene_kind kind, long n)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->a = a;
    s->n = n;
    if (kind == LATTICE) {
        s->drain = malloc((size_t)(n * n) * sizeof *s->drain);
        s->units = (double)n; /* drops per chunk */
        return !s->drain || a->lattice_create((size_t)n, (size_t)n, 1, NULL, &s->lat);
    }
    if (a->create(kind == PAIR || kind == CLOTH ? 3 : 2, &s->sys))
        return 1;
    int bad = kind == CHAIN         ? build_chain(s, CDYN_INTEGRATOR_RATTLE)
              : kind == CHAIN_EULER ? build_chain(s, CDYN_INTEGRATOR_SYMPLECTIC_EULER)
              : kind == SPRINGS     ? build_springs(s)
              : kind == CLOTH       ? build_cloth(s)
                                    : build_pair(s);
    return bad;
}

static void destroy(scene *s)
{
    if (s->sys)
        s->a->destroy(s->sys);
    if (s->lat)
        s->a->lattice_destroy(s->lat);
    free(s->drain);
}

static double dt_of(scene_kind kind)
{
    return kind == SPRINGS ? 1e-4 : kind == PAIR ? 0.005 : 1e-3;
}

/* Seconds per unit of a chunk of @p steps steps; negative when one fails. */
static double chunk(scene *s, int steps)
{
    double t0 = bench_now();
    if (s->kind == LATTICE) {
        if (s->a->rain(s->lat, (uint64_t)s->n) ||
            s->a->drainage(s->lat, s->drain, (size_t)(s->n * s->n)))
            return -1;
        return (bench_now() - t0) / s->units;
    }
    for (int k = 0; k < steps; k++)
        if (s->a->step(s->sys, dt_of(s->kind)))
            return -1;
    return (bench_now() - t0) / ((double)steps * (double)s->n);
}

static int parse_scene(const char *name, scene_kind *out)
{
    static const char *names[] = {"chain", "chain-euler", "springs", "pair", "lattice", "cloth"};
    for (int k = 0; k < 6; k++)
        if (strcmp(name, names[k]) == 0) {
            *out = (scene_kind)k;
            return 0;
        }
    return 1;
}

int main(int argc, char **argv)
{
    scene_kind kind = CHAIN;
    if (argc < 3 || (argc > 3 && parse_scene(argv[3], &kind))) {
        printf("usage: bench_paired LIB_A LIB_B [chain|chain-euler|springs|pair|lattice|cloth "
               "[N [PAIRS]]]\n");
        return 2;
    }
    long n = argc > 4 ? atol(argv[4]) : kind == LATTICE ? 256 : 1000;
    int pairs = argc > 5 ? atoi(argv[5]) : 40;
    if (n < 2 || pairs < 4 || pairs > MAX_PAIRS) {
        fprintf(stderr, "bench_paired: N >= 2 and 4 <= PAIRS <= %d\n", MAX_PAIRS);
        return 2;
    }
    api a, b;
    if (load(&a, argv[1]) || load(&b, argv[2]))
        return 1;
    scene sa, sb;
    if (build(&sa, &a, kind, n) || build(&sb, &b, kind, n)) {
        fprintf(stderr, "bench_paired: setup failed\n");
        return 1;
    }
    /* About 2e5 unit-steps per chunk; a chain stays within its first
     * second. */
    int steps = (int)(2e5 / (double)sa.n);
    if ((kind == CHAIN || kind == CHAIN_EULER) && steps > 1000 / pairs)
        steps = 1000 / pairs;
    if (steps < 1)
        steps = 1;
    static double ta[MAX_PAIRS], tb[MAX_PAIRS], ratio[MAX_PAIRS];
    for (int k = 0; k < pairs; k++) {
        ta[k] = chunk(&sa, steps);
        tb[k] = chunk(&sb, steps);
        if (ta[k] < 0 || tb[k] < 0) {
            fprintf(stderr, "bench_paired: a step failed in pair %d\n", k);
            return 1;
        }
        ratio[k] = tb[k] / ta[k];
    }
    size_t m = (size_t)pairs;
    double med_a = bench_median(ta, m) * 1e9, med_b = bench_median(tb, m) * 1e9;
    double med_r = bench_median(ratio, m); /* sorted now */
    printf("%s N = %ld, %d pairs of %d steps: A median %.2f ns/unit (fastest %.2f), "
           "B median %.2f (fastest %.2f); B / A median %.3f (quartiles %.3f, %.3f)\n",
           argc > 3 ? argv[3] : "chain", sa.n, pairs, kind == LATTICE ? 1 : steps, med_a,
           ta[0] * 1e9, med_b, tb[0] * 1e9, med_r, ratio[m / 4], ratio[3 * m / 4]);
    destroy(&sa);
    destroy(&sb);
    return 0;
}
