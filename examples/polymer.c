/* polymer: freely jointed chains in 3-D, integrated with RATTLE.
 *
 * N + 1 unit masses joined by N rigid bonds of length b (distance
 * constraints g = (|d|^2 - b^2) / 2, one multiplier per bond), no
 * other force: the chain tumbles and wriggles with random thermal
 * velocities. CDYN_INTEGRATOR_RATTLE with the Newton projection keeps every
 * bond at its length and every velocity tangent to the manifold.
 *
 * What the average end-to-end distance should be, and over what. A freely
 * jointed chain (bond directions independent and uniform) has
 * <R^2> = N b^2. An isolated chain conserves energy, momentum and angular
 * momentum, so a single chain's time average only samples its own shell of
 * (E, L): a chain that happens to spin fast is stretched and stays so. The
 * fair comparison is an average over an ensemble of chains drawn from the
 * equilibrium (canonical) distribution, which the dynamics leave
 * invariant; the time average along each run then only lowers the
 * variance. For rigid bonds that distribution is: bond directions uniform
 * but weighted by sqrt(det Z), Z = G M^-1 G^T (Fixman 1974; the weight is
 * even in each bond-bond cosine, so <R^2> stays N b^2), and velocities
 * Maxwellian projected onto G v = 0. This example draws such chains
 * (rejection sampling, Maxwell velocities projected by a tridiagonal
 * solve), runs each with RATTLE, and compares the ensemble mean of the
 * time-averaged R^2 / (N b^2) with 1, quoting the standard error from the
 * spread over the chains.
 *
 * Writes into the current directory:
 *   polymer.svg     chain 1 at the start and at the end, in an oblique
 *                   projection, depth cued (near bonds dark and wide, far
 *                   ones pale and thin)
 *   polymer_r2.svg  the ensemble mean of R^2 / (N b^2) against time
 * and prints the bond-length error, energy and angular-momentum errors, the
 * projection's work and <R^2> / (N b^2) with its statistical error.
 *
 * Units: b = 1, m = 1, kT = 1 (time in units of b sqrt(m / kT)).
 * Run with --help for the options.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cdyn/cdyn.h>

#include "chain_sample.h"
#include "chart.h"
#include "cli.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The units of chain_sample.c, which draws the start: b = m = kT = 1. */
static const double BOND = 1.0, MASS = 1.0, KT = 1.0;

/* ---- parameters --------------------------------------------------------- */

typedef struct params {
    int bonds;        /* N */
    int chains;       /* ensemble size */
    long steps;       /* per chain */
    int every;        /* steps between samples of R^2 */
    double dt;
    double tolerance; /* projection tolerance, relative */
    uint64_t seed;
} params;

static void usage(FILE *out, const params *d)
{
    fprintf(out,
            "usage: polymer [options]\n"
            "An ensemble of 3-D freely jointed chains of rigid bonds with thermal\n"
            "velocities, integrated with RATTLE; writes polymer.svg and polymer_r2.svg into\n"
            "the current directory. Units: bond length, bead mass and kT are 1.\n"
            "  --bonds N       bonds per chain (default %d)\n"
            "  --chains C      chains in the ensemble (default %d)\n"
            "  --steps S       RATTLE steps per chain (default %ld)\n"
            "  --dt DT         step (default %g)\n"
            "  --every K       steps between samples of R^2 (default %d)\n"
            "  --tolerance TOL projection tolerance, relative (default %g)\n"
            "  --seed S        random seed (default %llu)\n"
            "  --quick         4 chains of 500 steps (for valgrind)\n"
            "  --help          this text\n",
            d->bonds, d->chains, d->steps, d->dt, d->every, d->tolerance,
            (unsigned long long)d->seed);
}

static int parse_whole(const char *s, double lo, double hi, double *out)
{
    return cli_parse_double(s, out) || !(*out >= lo && *out <= hi) || *out != floor(*out);
}

/* 0: run; 1: exit successfully (help); -1: bad usage. */
static int parse_args(int argc, char **argv, params *p)
{
    params defaults = *p;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout, &defaults);
            return 1;
        }
        if (strcmp(a, "--quick") == 0) {
            p->chains = 4;
            p->steps = 500;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "polymer: unknown option or missing value: %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        const char *val = argv[++i];
        double x = 0;
        int bad = 0;
        if (strcmp(a, "--bonds") == 0) {
            bad = parse_whole(val, 2, 100000, &x);
            p->bonds = (int)x;
        } else if (strcmp(a, "--chains") == 0) {
            bad = parse_whole(val, 2, 100000, &x);
            p->chains = (int)x;
        } else if (strcmp(a, "--steps") == 0) {
            bad = parse_whole(val, 1, 1e9, &x);
            p->steps = (long)x;
        } else if (strcmp(a, "--every") == 0) {
            bad = parse_whole(val, 1, 1e6, &x);
            p->every = (int)x;
        } else if (strcmp(a, "--dt") == 0) {
            bad = cli_parse_double(val, &p->dt) || !(p->dt > 0 && p->dt <= 0.5);
        } else if (strcmp(a, "--tolerance") == 0) {
            bad = cli_parse_double(val, &p->tolerance) || !(p->tolerance > 0 && p->tolerance < 1);
        } else if (strcmp(a, "--seed") == 0) {
            bad = parse_whole(val, 0, 9007199254740992.0, &x);
            p->seed = (uint64_t)x;
        } else {
            fprintf(stderr, "polymer: unknown option %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        if (bad) {
            fprintf(stderr, "polymer: bad value for %s: %s\n", a, val);
            return -1;
        }
    }
    if (p->every > p->steps)
        p->every = (int)p->steps;
    return 0;
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* ---- measurements ------------------------------------------------------- */

static double end_to_end2(const double *x, int n)
{
    double d[3] = {x[3 * n] - x[0], x[3 * n + 1] - x[1], x[3 * n + 2] - x[2]};
    return dot3(d, d);
}

/* max |len - b| / b over the bonds, from the positions. */
static double bond_error(const double *x, int n)
{
    double worst = 0;
    for (int i = 0; i < n; i++) {
        double d[3] = {x[3 * i + 3] - x[3 * i], x[3 * i + 4] - x[3 * i + 1],
                       x[3 * i + 5] - x[3 * i + 2]};
        worst = fmax(worst, fabs(sqrt(dot3(d, d)) - BOND) / BOND);
    }
    return worst;
}

/* ---- pictures ----------------------------------------------------------- */

/* Oblique view: azimuth 35 degrees, elevation 25 degrees. Screen x, screen
 * y and depth (larger: nearer the viewer) of a point. */
static void view(const double p[3], double *sx, double *sy, double *depth)
{
    const double az = 35.0 * M_PI / 180.0, el = 25.0 * M_PI / 180.0;
    const double right[3] = {-sin(az), cos(az), 0.0};
    const double up[3] = {-sin(el) * cos(az), -sin(el) * sin(az), cos(el)};
    const double toward[3] = {cos(el) * cos(az), cos(el) * sin(az), sin(el)};
    *sx = dot3(p, right);
    *sy = dot3(p, up);
    *depth = dot3(p, toward);
}

typedef struct segment {
    double depth;
    int i;
} segment;

static int by_depth(const void *a, const void *b)
{
    double da = ((const segment *)a)->depth, db = ((const segment *)b)->depth;
    return (da > db) - (da < db);
}

/* Far bonds pale, near ones dark: t = 0 far, 1 near. */
static void depth_colour(double t, char out[8])
{
    static const unsigned FAR = 0xc6d3e3u, NEAR = 0x0b2d5bu;
    unsigned c[3];
    for (int k = 0; k < 3; k++) {
        int shift = 16 - 8 * k;
        double a = (double)((FAR >> shift) & 0xffu), b = (double)((NEAR >> shift) & 0xffu);
        c[k] = (unsigned)lround(a + (b - a) * t);
    }
    snprintf(out, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

static const char *const FIRST_BEAD = "#2ca02c", *const LAST_BEAD = "#d62728";

static void centre_of(const double *x, int n, double com[3])
{
    com[0] = com[1] = com[2] = 0;
    for (int j = 0; j <= n; j++)
        for (int k = 0; k < 3; k++)
            com[k] += x[3 * j + k] / (n + 1);
}

/* Draws chain x (n bonds) about its centre into @p p: bonds painted far to
 * near, each coloured and sized by its depth (@p bond_px: a bond's length
 * in pixels, roughly); the first bead green, the last red, the end-to-end
 * vector dashed. */
static void draw_chain(chart_panel *p, const double *x, int n, double bond_px, segment *segs,
                       double *proj)
{
    double com[3], dmin = INFINITY, dmax = -INFINITY;
    centre_of(x, n, com);
    for (int j = 0; j <= n; j++) {
        double q[3] = {x[3 * j] - com[0], x[3 * j + 1] - com[1], x[3 * j + 2] - com[2]};
        view(q, &proj[3 * j], &proj[3 * j + 1], &proj[3 * j + 2]);
        dmin = fmin(dmin, proj[3 * j + 2]);
        dmax = fmax(dmax, proj[3 * j + 2]);
    }
    double span = dmax > dmin ? dmax - dmin : 1.0;
    for (int i = 0; i < n; i++) {
        segs[i].depth = 0.5 * (proj[3 * i + 2] + proj[3 * i + 5]);
        segs[i].i = i;
    }
    qsort(segs, (size_t)n, sizeof *segs, by_depth);
    for (int k = 0; k < n; k++) {
        const double *a = &proj[3 * segs[k].i];
        double t = (segs[k].depth - dmin) / span;
        char col[8];
        depth_colour(t, col);
        /* Width grows with nearness, like a tube seen in perspective. */
        chart_segment(p, a[0], a[1], a[3], a[4],
                      &(chart_style){.color = col, .width = (0.10 + 0.12 * t) * bond_px});
    }
    chart_segment(p, proj[0], proj[1], proj[3 * n], proj[3 * n + 1],
                  &(chart_style){.color = "#888", .width = 1.2, .dash = "6,4"});
    chart_circle(p, proj[0], proj[1], 0.22 * BOND, &(chart_style){.color = "none",
                                                                  .fill = FIRST_BEAD});
    chart_circle(p, proj[3 * n], proj[3 * n + 1], 0.22 * BOND,
                 &(chart_style){.color = "none", .fill = LAST_BEAD});
}

/* The largest projected distance of a bead from the chain's centre. */
static double half_extent(const double *x, int n)
{
    double com[3], half = 1.0;
    centre_of(x, n, com);
    for (int j = 0; j <= n; j++) {
        double q[3] = {x[3 * j] - com[0], x[3 * j + 1] - com[1], x[3 * j + 2] - com[2]};
        double sx, sy, d;
        view(q, &sx, &sy, &d);
        half = fmax(half, fmax(fabs(sx), fabs(sy)));
    }
    return half;
}

/* Chain 1 at the start and at the end, side by side at one scale. */
static int write_picture(const char *path, const double *x0, const double *x1, double t1,
                         const params *p)
{
    const int n = p->bonds;
    double *proj = malloc(3 * (size_t)(n + 1) * sizeof *proj);
    segment *segs = malloc((size_t)n * sizeof *segs);
    chart *c = chart_create(1100, 680);
    int bad = !proj || !segs;
    const double *xs[2] = {x0, x1};
    double half = 1.05 * fmax(half_extent(x0, n), half_extent(x1, n));
    chart_title(c, "Freely jointed chain of %d rigid bonds (RATTLE, dt = %g), chain 1 of the "
                   "ensemble", n, p->dt);
    chart_caption(c, "oblique view (azimuth 35 degrees, elevation 25 degrees), depth cued: near "
                     "bonds dark and wide, far ones pale and thin");
    for (int k = 0; k < 2 && !bad; k++) {
        chart_panel *panel = chart_panel_at(c, 0.5 * k, 0, 0.5, 0.84);
        chart_scene(panel);
        chart_x_range(panel, -half, half);
        chart_y_range(panel, -half, half);
        chart_panel_title(panel, "t = %g: R^{2} / (N b^{2}) = %.2f", k ? t1 : 0.0,
                          end_to_end2(xs[k], n) / (n * BOND * BOND));
        draw_chain(panel, xs[k], n, 510 / (2 * half), segs, proj);
    }
    chart_panel *key = chart_panel_at(c, 0, 0.84, 1, 0.16);
    chart_scene(key);
    chart_ramp_key(key, "depth: far to near", NAN, NAN, CHART_RAMP_LINEAR, depth_colour);
    chart_key(key, CHART_MARKER, "first bead", &(chart_style){.color = FIRST_BEAD, .size = 5});
    chart_key(key, CHART_MARKER, "last bead", &(chart_style){.color = LAST_BEAD, .size = 5});
    chart_key(key, CHART_LINE, "end-to-end vector R",
              &(chart_style){.color = "#888", .width = 1.2, .dash = "6,4"});
    bad = bad || chart_save(c, path) != 0;
    chart_free(c);
    free(proj);
    free(segs);
    return bad ? -1 : 0;
}

/* The ensemble mean of R^2 / (N b^2) against time, its time average and
 * the freely jointed chain's 1. */
static int write_r2_chart(const char *path, const double *t, const double *r2, size_t n,
                          double mean, double err, const params *p)
{
    chart *c = chart_create(800, 450);
    chart_title(c, "Mean square end-to-end distance of %d chains of %d bonds", p->chains,
                p->bonds);
    chart_panel *panel = chart_panel_add(c, 1);
    chart_x(panel, "time (b (m / kT)^{1/2})", 0);
    chart_y(panel, "<R^{2}> / (N b^{2})", 0);
    char label[80];
    snprintf(label, sizeof label, "time average %.3f \xc2\xb1 %.3f", mean, err);
    chart_line(panel, t, r2, n, "mean over the chains at t", NULL);
    chart_hline(panel, mean, label, NULL);
    chart_hline(panel, 1.0, "freely jointed chain: 1", NULL);
    int bad = chart_save(c, path);
    chart_free(c);
    return bad;
}

/* ---- the run ------------------------------------------------------------ */

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cdyn_status st_ = (call);                                                         \
        if (st_ != CDYN_OK) {                                                             \
            fprintf(stderr, "polymer: %s failed: %s (%s)\n", #call, cdyn_status_name(st_), \
                    cdyn_system_last_error(sys));                                         \
            goto fail;                                                                    \
        }                                                                                 \
    } while (0)

int main(int argc, char **argv)
{
    params p = {
        .bonds = 100,
        .chains = 40,
        .steps = 2000,
        .every = 10,
        .dt = 0.01,
        .tolerance = 1e-10,
        .seed = 2026,
    };
    int rc = parse_args(argc, argv, &p);
    if (rc)
        return rc > 0 ? 0 : 2;

    const int n = p.bonds, beads = n + 1;
    const size_t nx = 3 * (size_t)beads;
    const size_t samples = (size_t)(p.steps / p.every) + 1;
    const double nb2 = n * BOND * BOND;
    int exit_code = 1;
    cdyn_system *sys = NULL;
    double *u = malloc(3 * (size_t)n * sizeof *u), *x = malloc(nx * sizeof *x);
    double *v = malloc(nx * sizeof *v), *scratch = malloc(3 * (size_t)n * sizeof *scratch);
    double *first = malloc(nx * sizeof *first), *last = malloc(nx * sizeof *last);
    double *r2_sum = calloc(samples, sizeof *r2_sum), *times = malloc(samples * sizeof *times);
    double *chain_mean = malloc((size_t)p.chains * sizeof *chain_mean);
    cdyn_particle *beads_h = malloc((size_t)beads * sizeof *beads_h);
    if (!u || !x || !v || !scratch || !first || !last || !r2_sum || !times || !chain_mean ||
        !beads_h) {
        fprintf(stderr, "polymer: out of memory\n");
        goto fail;
    }

    printf("polymer: %d freely jointed chains of N = %d rigid bonds, RATTLE\n",
           p.chains, n);
    printf("  b = %g, m = %g, kT = %g; dt = %g, %ld steps per chain (t = %g), projection "
           "Newton, tolerance %g\n", BOND, MASS, KT, p.dt, p.steps, (double)p.steps * p.dt,
           p.tolerance);
    printf("  start: bond directions from the rigid-bond canonical distribution (uniform, "
           "weight sqrt(det Z)),\n  Maxwell velocities projected onto G v = 0, centre of mass "
           "at rest; seed %llu\n\n", (unsigned long long)p.seed);

    uint64_t rng = p.seed;
    double worst_bond = 0, worst_energy = 0, worst_ang = 0, worst_vres = 0;
    double sum_r2_start = 0, sum_r2_start2 = 0;
    long draws = 0;
    uint64_t pos_it = 0, vel_it = 0, projections = 0;
    clock_t cpu0 = clock();
    for (int c = 0; c < p.chains; c++) {
        draws += chain_draw_bonds(&rng, n, u);
        chain_draw_velocities(&rng, n, u, v, scratch);

        CHECK(cdyn_system_create(3, &sys));
        CHECK(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE));
        cdyn_projection_options opt;
        cdyn_projection_options_init(&opt);
        opt.method = CDYN_PROJECTION_NEWTON;
        opt.position_tolerance = p.tolerance;
        opt.velocity_tolerance = p.tolerance;
        CHECK(cdyn_system_set_projection_options(sys, &opt));
        double pos[3] = {0, 0, 0};
        for (int j = 0; j < beads; j++) {
            if (j > 0)
                for (int k = 0; k < 3; k++)
                    pos[k] += BOND * u[3 * (j - 1) + k];
            CHECK(cdyn_particle_add(sys, MASS, pos, v + 3 * j, &beads_h[j]));
            if (j > 0) {
                cdyn_constraint bond;
                CHECK(cdyn_constraint_add_distance(sys, beads_h[j - 1], beads_h[j], BOND, &bond));
            }
        }

        double e0, l0[3];
        CHECK(cdyn_system_get_kinetic_energy(sys, &e0));
        CHECK(cdyn_system_get_angular_momentum(sys, l0));
        double l0_norm = sqrt(dot3(l0, l0));
        /* Angular momentum is compared with a typical one, sqrt(N) b sqrt(m kT)
         * times the chain's size, not with its own (which may be near 0). */
        double l_scale = sqrt((double)n) * BOND * sqrt(MASS * KT) * sqrt(nb2);
        double chain_sum = 0, r2_start = 0;
        size_t s_idx = 0;
        for (long step = 0;; step++) {
            if (step % p.every == 0) {
                double e, l[3], vres;
                CHECK(cdyn_system_get_positions(sys, x, nx));
                CHECK(cdyn_system_get_kinetic_energy(sys, &e));
                CHECK(cdyn_system_get_angular_momentum(sys, l));
                CHECK(cdyn_system_compute_constraint_residuals(sys, NULL, &vres));
                double r2 = end_to_end2(x, n);
                if (step == 0) {
                    r2_start = r2;
                    sum_r2_start += r2 / nb2;
                    sum_r2_start2 += (r2 / nb2) * (r2 / nb2);
                    if (c == 0)
                        memcpy(first, x, nx * sizeof *x);
                }
                chain_sum += r2;
                r2_sum[s_idx] += r2;
                times[s_idx] = (double)step * p.dt;
                s_idx++;
                worst_bond = fmax(worst_bond, bond_error(x, n));
                worst_energy = fmax(worst_energy, fabs(e - e0) / e0);
                double dl[3] = {l[0] - l0[0], l[1] - l0[1], l[2] - l0[2]};
                worst_ang = fmax(worst_ang, sqrt(dot3(dl, dl)) / fmax(l0_norm, l_scale));
                worst_vres = fmax(worst_vres, vres);
            }
            if (step == p.steps)
                break;
            cdyn_status st = cdyn_system_step(sys, p.dt);
            if (st != CDYN_OK) {
                fprintf(stderr, "polymer: chain %d, step %ld failed: %s (%s)\n", c + 1, step,
                        cdyn_status_name(st), cdyn_system_last_error(sys));
                goto fail;
            }
        }
        if (c == 0)
            CHECK(cdyn_system_get_positions(sys, last, nx));
        chain_mean[c] = chain_sum / (double)s_idx / nb2;

        cdyn_projection_stats ps;
        memset(&ps, 0, sizeof ps);
        ps.size = sizeof ps;
        CHECK(cdyn_system_get_projection_stats(sys, &ps));
        pos_it += ps.position_iterations_total;
        vel_it += ps.velocity_iterations_total;
        projections += ps.projections;
        if (c < 8 || c == p.chains - 1)
            printf("  chain %3d: R^2 / (N b^2) at t = 0 %.3f, time average %.3f, "
                   "|L| = %.1f\n", c + 1, r2_start / nb2, chain_mean[c], l0_norm);
        cdyn_system_destroy(sys);
        sys = NULL;
    }
    double cpu = (double)(clock() - cpu0) / CLOCKS_PER_SEC;
    printf("  (a chain keeps its energy and angular momentum L, so its own time average need not "
           "be 1:\n   only the ensemble average is compared with N b^2)\n");

    double mean = 0, var = 0;
    for (int c = 0; c < p.chains; c++)
        mean += chain_mean[c];
    mean /= p.chains;
    for (int c = 0; c < p.chains; c++)
        var += (chain_mean[c] - mean) * (chain_mean[c] - mean);
    var /= p.chains - 1;
    double err = sqrt(var / p.chains);
    double start = sum_r2_start / p.chains;
    double start_err = sqrt(fmax(0.0, sum_r2_start2 - p.chains * start * start) /
                            (p.chains - 1) / p.chains);
    printf("\nresults over %d chains x %ld steps (%.3g s of CPU, %.2f us per step):\n", p.chains,
           p.steps, cpu, 1e6 * cpu / ((double)p.chains * (double)p.steps));
    printf("  bond-length error max |len - b| / b        %.2e (tolerance %g)\n", worst_bond,
           p.tolerance);
    printf("  velocity residual max |G v| / |G row|      %.2e\n", worst_vres);
    printf("  energy error max |E - E0| / E0             %.2e (all kinetic; RATTLE: O(dt^2), "
           "bounded)\n", worst_energy);
    printf("  angular momentum error, relative           %.2e\n", worst_ang);
    printf("  projection: %.2f position and %.2f velocity solves per step\n",
           (double)pos_it / (double)projections, (double)vel_it / (double)projections);
    printf("  <R^2> / (N b^2) at t = 0                   %.3f +- %.3f (the drawn ensemble)\n",
           start, start_err);
    printf("  <R^2> / (N b^2), ensemble of time averages %.3f +- %.3f (standard error over %d "
           "chains)\n", mean, err, p.chains);
    printf("  freely jointed chain expectation           1: off by %.1f standard errors\n",
           fabs(mean - 1.0) / err);
    printf("  rejection sampling: %.1f draws of N directions per chain\n",
           (double)draws / p.chains);

    for (size_t k = 0; k < samples; k++)
        r2_sum[k] /= p.chains * nb2;
    if (write_r2_chart("polymer_r2.svg", times, r2_sum, samples, mean, err, &p) ||
        write_picture("polymer.svg", first, last, (double)p.steps * p.dt, &p)) {
        fprintf(stderr, "polymer: cannot write the pictures\n");
        goto fail;
    }
    printf("  wrote polymer.svg and polymer_r2.svg\n");
    exit_code = 0;

fail:
    cdyn_system_destroy(sys);
    free(beads_h);
    free(chain_mean);
    free(times);
    free(r2_sum);
    free(last);
    free(first);
    free(scratch);
    free(v);
    free(x);
    free(u);
    return exit_code;
}
