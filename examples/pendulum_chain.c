/* pendulum_chain: the standard chain released from horizontal.
 *
 * One fixed pivot at the origin and N unit masses at x = 0.1 i, y = 0
 * (i = 1..N), joined pivot-1 and (i-1)-i by rigid rods of length 0.1
 * (cdyn_constraint_add_distance: g = (|d|^2 - L^2) / 2, one Lagrange
 * multiplier per rod). Gravity 9.81 m/s^2 along -y. Released at
 * rest from the horizontal, the chain falls, folds, whips its free end round
 * and swings on. Every force evaluation solves (G W G^T) lambda = rhs for the
 * N rod tensions; for a chain that matrix is tridiagonal and its LDL^T
 * factor has no fill (N - 1 entries below the diagonal).
 *
 * Writes into the current directory:
 *   pendulum_chain.svg           the chain every 0.1 s, coloured from early
 *                                (blue) to late (red), and the path of the
 *                                free end
 *   pendulum_chain_residual.svg  the worst rod-length error and the relative
 *                                energy error against time (log scales)
 * and prints a table of time, energy error, rod errors and solver report.
 *
 * The energy error is |E(t) - E(0)| / E_ref with E_ref = sum m g 0.1 i, the
 * potential energy the chain releases by hanging straight down (E(0) = 0:
 * the chain starts at rest at y = 0).
 *
 * Run with --help for the options.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "cli.h"
#include "chart.h"

/* ---- parameters --------------------------------------------------------- */

typedef struct params {
    int links;           /* N */
    cdyn_integrator integrator;
    const char *integrator_name;
    cdyn_constraint_solver solver;
    const char *solver_name;
    double dt;           /* s */
    double duration;     /* s */
    double snap_every;   /* s */
    double ks, kd;       /* feedback gains; negative: the library's defaults */
} params;

static const double ROD = 0.1;    /* m, rod length and spacing */
static const double MASS = 1.0;   /* kg, per bead */
static const double GRAVITY = 9.81;

static void usage(FILE *out, const params *d)
{
    fprintf(out,
            "usage: pendulum_chain [options]\n"
            "The standard chain (a fixed pivot, N unit masses on rods of 0.1 m) released from\n"
            "horizontal; writes pendulum_chain.svg and pendulum_chain_residual.svg into the\n"
            "current directory.\n"
            "  --links N          number of masses and rods (default %d)\n"
            "  --integrator NAME  symplectic | rk4 | verlet | rk45 | euler | rattle | backward\n"
            "                     (default %s)\n"
            "  --dt DT            step in seconds (default %g)\n"
            "  --time T           simulated time in seconds (default %g)\n"
            "  --snapshot S       seconds between drawn chains (default %g)\n"
            "  --solver NAME      direct | cg (default %s)\n"
            "  --ks KS, --kd KD   drift-feedback gains (default: the library's, 100 and 20)\n"
            "  --help             this text\n",
            d->links, d->integrator_name, d->dt, d->duration, d->snap_every, d->solver_name);
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
        if (i + 1 >= argc) {
            fprintf(stderr, "pendulum_chain: unknown option or missing value: %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        const char *val = argv[++i];
        double x = 0;
        int bad = 0;
        if (strcmp(a, "--links") == 0) {
            bad = cli_parse_double(val, &x) || !(x >= 1 && x <= 100000) || x != floor(x);
            p->links = (int)x;
        } else if (strcmp(a, "--integrator") == 0) {
            bad = cli_parse_integrator(val, CLI_ALL_INTEGRATORS, &p->integrator,
                                      &p->integrator_name);
        } else if (strcmp(a, "--dt") == 0) {
            bad = cli_parse_double(val, &p->dt) || !(p->dt > 0 && p->dt <= 0.1);
        } else if (strcmp(a, "--time") == 0) {
            bad = cli_parse_double(val, &p->duration) || !(p->duration > 0 && p->duration <= 1e4);
        } else if (strcmp(a, "--snapshot") == 0) {
            bad = cli_parse_double(val, &p->snap_every) || !(p->snap_every > 0);
        } else if (strcmp(a, "--solver") == 0) {
            if (strcmp(val, "direct") == 0)
                p->solver = CDYN_SOLVER_DIRECT, p->solver_name = "direct";
            else if (strcmp(val, "cg") == 0)
                p->solver = CDYN_SOLVER_CG, p->solver_name = "cg";
            else
                bad = 1;
        } else if (strcmp(a, "--ks") == 0) {
            bad = cli_parse_double(val, &p->ks) || !(p->ks >= 0);
        } else if (strcmp(a, "--kd") == 0) {
            bad = cli_parse_double(val, &p->kd) || !(p->kd >= 0);
        } else {
            fprintf(stderr, "pendulum_chain: unknown option %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        if (bad) {
            fprintf(stderr, "pendulum_chain: bad value for %s: %s\n", a, val);
            return -1;
        }
    }
    if ((p->ks < 0) != (p->kd < 0)) {
        fprintf(stderr, "pendulum_chain: give both --ks and --kd, or neither\n");
        return -1;
    }
    return 0;
}

/* ---- measurements ------------------------------------------------------- */

/* Largest | |x_i - x_{i-1}| - L | over the rods, from the positions (index 0
 * is the pivot, index i the i-th mass). */
static double worst_rod_error(const double *x, int links)
{
    double worst = 0;
    for (int i = 1; i <= links; i++) {
        double dx = x[2 * i] - x[2 * i - 2], dy = x[2 * i + 1] - x[2 * i - 1];
        worst = fmax(worst, fabs(sqrt(dx * dx + dy * dy) - ROD));
    }
    return worst;
}

/* ---- pictures ----------------------------------------------------------- */

enum { R_RESID, R_ROD, R_VEL, R_ENERGY, R_COUNT };

/* The rod-length error and the energy error against time, log scales;
 * errors are drawn through each pixel column's largest value. */
static int write_residual_chart(const char *path, const double *t, size_t n,
                                double *const rec[R_COUNT], const params *p)
{
    chart *c = chart_create(1100, 760);
    chart_title(c, "Pendulum chain of %d links (%s, dt = %g s): constraint drift and energy "
                   "error", p->links, p->integrator_name, p->dt);
    chart_panel *top = chart_panel_add(c, 1), *bottom = chart_panel_add(c, 1);
    chart_panel_title(top, "rod-length error (worst rod)");
    chart_y(top, "error", CHART_LOG);
    chart_line(top, t, rec[R_ROD], n, "worst | |d| - L | (m), measured",
               &(chart_style){.width = 2.5, .envelope = 1});
    chart_line(top, t, rec[R_RESID], n, "library residual |g| / |G_{row}| (m)",
               &(chart_style){.width = 1.2, .dash = "5,3", .envelope = 1});
    chart_line(top, t, rec[R_VEL], n, "velocity residual |G v| / |G_{row}| (m/s)",
               &(chart_style){.width = 1.2, .envelope = 1});
    chart_panel_title(bottom, "relative energy error");
    chart_x(bottom, "time (s)", 0);
    chart_y(bottom, "|E(t) - E(0)| / E_{ref}", CHART_LOG);
    chart_line(bottom, t, rec[R_ENERGY], n, "|E(t) - E(0)| / E_{ref}",
               &(chart_style){.color = chart_color(3), .envelope = 1});
    int bad = chart_save(c, path);
    chart_free(c);
    return bad;
}

typedef struct snapshot {
    double t;
    double *xy; /* pivot and masses, 2 per point */
} snapshot;

static int write_picture(const char *path, const snapshot *snaps, int n_snaps, size_t n_pts,
                         const double *tip, size_t n_tip, const params *p)
{
    double reach = ROD * (double)p->links;
    chart *c = chart_create(1000, 680);
    chart_title(c, "Pendulum chain: %d unit masses on rods of %g m released from the "
                   "horizontal (%s, dt = %g s)", p->links, ROD, p->integrator_name, p->dt);
    chart_caption(c, "the chain every %g s from 0 to %g s, coloured by time", p->snap_every,
                  snaps[n_snaps - 1].t);
    chart_panel *panel = chart_panel_add(c, 1);
    chart_scene(panel);
    chart_x_range(panel, -1.08 * reach, 1.08 * reach);
    chart_y_range(panel, -1.1 * reach, 0.1 * reach);
    const chart_style grey = {.color = "#888", .width = 0.8, .opacity = 0.8};
    chart_path(panel, tip, n_tip, &grey);
    for (int k = 0; k < n_snaps; k++) {
        char col[8];
        chart_ramp(n_snaps > 1 ? (double)k / (double)(n_snaps - 1) : 0.0, col);
        chart_path(panel, snaps[k].xy, n_pts, &(chart_style){.color = col, .width = 1.6,
                                                              .opacity = 0.85});
        chart_marker(panel, snaps[k].xy[2 * (n_pts - 1)], snaps[k].xy[2 * (n_pts - 1) + 1],
                     &(chart_style){.color = col, .size = 2.5});
    }
    /* The pivot and its support. */
    chart_segment(panel, -0.06 * reach, 0.02 * reach, 0.06 * reach, 0.02 * reach,
                  &(chart_style){.width = 3});
    chart_marker(panel, 0, 0, &(chart_style){.size = 4});
    chart_ramp_key(panel, "time (s)", 0, snaps[n_snaps - 1].t, CHART_RAMP_LINEAR, NULL);
    chart_key(panel, CHART_LINE, "path of the free end", &grey);
    chart_scale_bar(panel, 0.5, "0.5 m");
    int bad = chart_save(c, path);
    chart_free(c);
    return bad;
}

/* ---- the run ------------------------------------------------------------ */

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cdyn_status st_ = (call);                                                         \
        if (st_ != CDYN_OK) {                                                             \
            fprintf(stderr, "pendulum_chain: %s failed: %s (%s)\n", #call,                \
                    cdyn_status_name(st_), cdyn_system_last_error(sys));                  \
            goto fail;                                                                    \
        }                                                                                 \
    } while (0)

int main(int argc, char **argv)
{
    params p = {
        .links = 20,
        .integrator = CDYN_INTEGRATOR_RK4,
        .integrator_name = "rk4",
        .solver = CDYN_SOLVER_DIRECT,
        .solver_name = "direct",
        .dt = 1e-3,
        .duration = 3.0,
        .snap_every = 0.1,
        .ks = -1,
        .kd = -1,
    };
    int rc = parse_args(argc, argv, &p);
    if (rc)
        return rc > 0 ? 0 : 2;

    const size_t n = (size_t)p.links + 1; /* pivot + masses */
    const long steps = lround(p.duration / p.dt);
    const long snap_steps = lround(p.snap_every / p.dt) > 0 ? lround(p.snap_every / p.dt) : 1;
    const int n_snaps = (int)(steps / snap_steps) + 1;
    const size_t n_rec = (size_t)steps + 1;
    int exit_code = 1;
    cdyn_system *sys = NULL;
    double *x = malloc(2 * n * sizeof *x), *v = malloc(2 * n * sizeof *v);
    double *rec_t = malloc(n_rec * sizeof *rec_t);
    double *tip = malloc(2 * n_rec * sizeof *tip);
    snapshot *snaps = calloc((size_t)n_snaps, sizeof *snaps);
    double *rec[R_COUNT] = {0};
    int oom = !x || !v || !rec_t || !tip || !snaps;
    for (int k = 0; k < R_COUNT; k++)
        oom |= !(rec[k] = malloc(n_rec * sizeof *rec[k]));
    for (int k = 0; !oom && k < n_snaps; k++)
        oom |= !(snaps[k].xy = malloc(2 * n * sizeof *snaps[k].xy));
    if (oom) {
        fprintf(stderr, "pendulum_chain: out of memory\n");
        goto fail;
    }

    /* The standard chain. */
    CHECK(cdyn_system_create(2, &sys));
    CHECK(cdyn_system_set_integrator(sys, p.integrator));
    cdyn_solver_options so;
    cdyn_solver_options_init(&so);
    so.solver = p.solver;
    if (p.ks >= 0) {
        so.ks = p.ks;
        so.kd = p.kd;
    }
    CHECK(cdyn_system_set_solver_options(sys, &so));
    double ks = so.ks, kd = so.kd;
    cdyn_particle prev;
    CHECK(cdyn_particle_add(sys, MASS, (double[]){0.0, 0.0}, NULL, &prev));
    CHECK(cdyn_particle_set_fixed(sys, prev, true));
    for (int i = 1; i <= p.links; i++) {
        cdyn_particle bead;
        cdyn_constraint rod;
        CHECK(cdyn_particle_add(sys, MASS, (double[]){ROD * i, 0.0}, NULL, &bead));
        CHECK(cdyn_constraint_add_distance(sys, prev, bead, ROD, &rod));
        prev = bead;
    }
    cdyn_force gravity;
    CHECK(cdyn_force_add_gravity(sys, (double[]){0.0, -GRAVITY}, &gravity));

    const double e_ref = MASS * GRAVITY * ROD * 0.5 * (double)p.links * (double)(p.links + 1);
    printf("pendulum_chain: the standard chain released from horizontal\n");
    printf("  fixed pivot at the origin, %d masses of %g kg, %d rods of %g m, g = %g m/s^2 "
           "along -y\n", p.links, MASS, p.links, ROD, GRAVITY);
    printf("  integrator %s, dt = %g s, %ld steps (%g s); solver %s; feedback ks = %g /s^2, "
           "kd = %g /s\n", p.integrator_name, p.dt, steps, (double)steps * p.dt, p.solver_name,
           ks, kd);
    printf("  energy error = |E(t) - E(0)| / E_ref, E_ref = %.4g J (potential energy released "
           "hanging straight down)\n", e_ref);
    printf("  rod error: measured max | |d| - L | over the rods; residual: "
           "cdyn_system_compute_constraint_residuals\n\n");
    printf("%6s %10s %10s %10s %10s %5s %7s %6s %8s\n", "t", "energy", "rod error", "residual",
           "vel. res.", "rows", "L nnz", "redund", p.solver == CDYN_SOLVER_CG ? "CG iter" : "solves");
    printf("%6s %10s %10s %10s %10s %5s %7s %6s %8s\n", "(s)", "(rel.)", "(m)", "(m)", "(m/s)",
           "", "", "", "");

    /* One evaluation at the start, so that the first row already shows the
     * solver's shape (the multipliers are all zero at release: gravity is
     * perpendicular to every rod and nothing moves yet). */
    CHECK(cdyn_system_evaluate(sys, NULL, 0));
    double e0 = 0;
    int next_snap = 0;
    double worst_rod = 0, worst_energy = 0, fastest = 0, t_fastest = 0, y_fastest = 0;
    cdyn_solver_stats stats;
    memset(&stats, 0, sizeof stats);
    stats.size = sizeof stats;
    for (long step = 0;; step++) {
        double t = (double)step * p.dt, ke, pe, res_p, res_v;
        CHECK(cdyn_system_get_positions(sys, x, 2 * n));
        CHECK(cdyn_system_get_velocities(sys, v, 2 * n));
        CHECK(cdyn_system_get_kinetic_energy(sys, &ke));
        CHECK(cdyn_system_get_potential_energy(sys, &pe));
        CHECK(cdyn_system_compute_constraint_residuals(sys, &res_p, &res_v));
        if (step == 0)
            e0 = ke + pe;
        size_t r = (size_t)step;
        rec_t[r] = t;
        rec[R_ROD][r] = worst_rod_error(x, p.links);
        rec[R_RESID][r] = res_p;
        rec[R_VEL][r] = res_v;
        rec[R_ENERGY][r] = fabs(ke + pe - e0) / e_ref;
        worst_rod = fmax(worst_rod, rec[R_ROD][r]);
        worst_energy = fmax(worst_energy, rec[R_ENERGY][r]);
        double speed = hypot(v[2 * (n - 1)], v[2 * (n - 1) + 1]);
        if (speed > fastest)
            fastest = speed, t_fastest = t, y_fastest = x[2 * (n - 1) + 1];
        tip[2 * r] = x[2 * (n - 1)];
        tip[2 * r + 1] = x[2 * (n - 1) + 1];
        if (step % snap_steps == 0 && next_snap < n_snaps) {
            snaps[next_snap].t = t;
            memcpy(snaps[next_snap].xy, x, 2 * n * sizeof *x);
            next_snap++;
        }
        if (step % snap_steps == 0 || step == steps) {
            CHECK(cdyn_system_get_solver_stats(sys, &stats));
            printf("%6.2f %10.2e %10.2e %10.2e %10.2e %5zu %7zu %6zu %8llu\n", t,
                   rec[R_ENERGY][r], rec[R_ROD][r], res_p, res_v, stats.rows,
                   stats.factor_nonzeros, stats.redundant_rows,
                   p.solver == CDYN_SOLVER_CG ? (unsigned long long)stats.iterations
                                              : (unsigned long long)stats.solves);
        }
        if (step == steps)
            break;
        cdyn_status st = cdyn_system_step(sys, p.dt);
        if (st != CDYN_OK) {
            fprintf(stderr, "pendulum_chain: step %ld at t = %g failed: %s (%s)\n"
                            "  try a smaller --dt or another --integrator\n",
                    step, t, cdyn_status_name(st), cdyn_system_last_error(sys));
            goto fail;
        }
    }

    CHECK(cdyn_system_get_solver_stats(sys, &stats));
    printf("\nafter %ld steps:\n", steps);
    printf("  worst rod-length error %.2e m (%.2e of L); worst energy error %.2e of E_ref\n",
           worst_rod, worst_rod / ROD, worst_energy);
    printf("  the free end was fastest at t = %.3f s, %.3g m below the pivot: %.3g m/s (the "
           "whip; falling freely through that height gives %.3g m/s)\n", t_fastest, -y_fastest,
           fastest, sqrt(2 * GRAVITY * fabs(y_fastest)));
    printf("  solver: %zu rows, %zu entries of L below the diagonal (%s), %llu solves, "
           "%llu with redundant rows, %llu CG solves at the iteration cap\n",
           stats.rows, stats.factor_nonzeros,
           p.solver == CDYN_SOLVER_CG ? "CG: no factor"
           : stats.factor_nonzeros + 1 == stats.rows ? "rows - 1: a chain factors with no fill"
                                                      : "fill-in",
           (unsigned long long)stats.solves, (unsigned long long)stats.redundant_solves,
           (unsigned long long)stats.cg_not_converged);

    if (write_picture("pendulum_chain.svg", snaps, next_snap, n, tip, n_rec, &p) ||
        write_residual_chart("pendulum_chain_residual.svg", rec_t, n_rec, rec, &p)) {
        fprintf(stderr, "pendulum_chain: cannot write the pictures\n");
        goto fail;
    }
    printf("  wrote pendulum_chain.svg and pendulum_chain_residual.svg\n");
    exit_code = 0;

fail:
    cdyn_system_destroy(sys);
    if (snaps)
        for (int k = 0; k < n_snaps; k++)
            free(snaps[k].xy);
    free(snaps);
    for (int k = 0; k < R_COUNT; k++)
        free(rec[k]);
    free(tip);
    free(rec_t);
    free(v);
    free(x);
    return exit_code;
}
