/* pendulum_chain: the standard chain released from horizontal (design.md
 * section 11; seeds 003 and 004).
 *
 * One fixed pivot at the origin and N unit masses at x = 0.1 i, y = 0
 * (i = 1..N), joined pivot-1 and (i-1)-i by rigid rods of length 0.1
 * (cdyn_constraint_add_distance: g = (|d|^2 - L^2) / 2, one Lagrange
 * multiplier per rod, seed 003). Gravity 9.81 m/s^2 along -y. Released at
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
#include "svg.h"

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

/* One panel of a log-scale time chart at pixel box (px, py, pw, ph): decade
 * grid lines, values <= 0 leave a gap, long series are drawn through the
 * largest value of each of about 1000 bins (the envelope of the error). */
typedef struct series {
    const double *y;
    const char *label;
    const char *color;
    double width;
    const char *dash; /* NULL: solid */
} series;

static void log_panel(FILE *f, double px, double py, double pw, double ph, const char *title,
                      const double *t, size_t n, const series *ss, size_t ns)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < ns; k++)
        for (size_t i = 0; i < n; i++)
            if (ss[k].y[i] > 0)
                lo = fmin(lo, ss[k].y[i]), hi = fmax(hi, ss[k].y[i]);
    if (!(hi >= lo))
        lo = 1e-16, hi = 1;
    double dlo = floor(log10(lo)), dhi = ceil(log10(hi));
    if (dhi <= dlo)
        dhi = dlo + 1;
    double t0 = t[0], t1 = t[n - 1] > t0 ? t[n - 1] : t0 + 1;
#define PX(tv) (px + ((tv) - t0) / (t1 - t0) * pw)
#define PY(yv) (py + ph - (log10(yv) - dlo) / (dhi - dlo) * ph)
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
               "stroke=\"black\"/>\n", px, py, pw, ph);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"14\">%s</text>\n",
            px, py - 8, title);
    int every_dec = dhi - dlo > 12 ? 2 : 1;
    for (double e = dlo; e <= dhi + 0.5; e += 1) {
        double yy = PY(pow(10, e));
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", px,
                yy, px + pw, yy);
        if (((long)(e - dlo)) % every_dec == 0)
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"11\" "
                       "text-anchor=\"end\">1e%d</text>\n", px - 6, yy + 4, (int)e);
    }
    double ts = (t1 - t0) / 5, p10 = pow(10, floor(log10(ts))), r = ts / p10;
    ts = (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * p10;
    for (double tv = ceil(t0 / ts) * ts; tv <= t1 + 1e-9 * ts; tv += ts)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"11\" "
                   "text-anchor=\"middle\">%g</text>\n", PX(tv), py + ph + 15, tv);
    size_t bin = n > 1000 ? n / 1000 : 1;
    for (size_t k = 0; k < ns; k++) {
        const char *dash = ss[k].dash;
        int open = 0;
        for (size_t i = 0; i < n; i += bin) {
            double y = 0, tv = t[i];
            for (size_t j = i; j < i + bin && j < n; j++)
                if (ss[k].y[j] > y)
                    y = ss[k].y[j], tv = t[j];
            if (!(y > 0)) {
                if (open)
                    fputs("\"/>\n", f);
                open = 0;
                continue;
            }
            if (!open)
                fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%g\"%s%s%s "
                           "points=\"", ss[k].color, ss[k].width,
                        dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
            open = 1;
            fprintf(f, "%.2f,%.2f ", PX(tv), PY(y));
        }
        if (open)
            fputs("\"/>\n", f);
        double ly = py + 14 + 18 * (double)k;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                   "stroke-width=\"%g\"%s%s%s/>\n", px + pw + 15, ly - 4, px + pw + 45, ly - 4,
                ss[k].color, ss[k].width, dash ? " stroke-dasharray=\"" : "", dash ? dash : "",
                dash ? "\"" : "");
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"12\">%s</text>\n",
                px + pw + 52, ly, ss[k].label);
    }
#undef PX
#undef PY
}

enum { R_RESID, R_ROD, R_VEL, R_ENERGY, R_COUNT };

static int write_residual_chart(const char *path, const double *t, size_t n,
                                double *const rec[R_COUNT], const params *p)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1100\" height=\"760\" "
               "viewBox=\"0 0 1100 760\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"70\" y=\"28\" font-family=\"sans-serif\" font-size=\"16\">"
               "Pendulum chain, %d links (%s, dt = %g s): constraint drift and energy error "
               "against time (s)</text>\n", p->links, p->integrator_name, p->dt);
    const series top[] = {
        {rec[R_ROD], "worst | |d| - L | (m), measured", "#1f77b4", 2.5, NULL},
        {rec[R_RESID], "library residual |g| / |G_row| (m)", "#d62728", 1.2, "5,3"},
        {rec[R_VEL], "velocity residual |G v| / |G_row| (m/s)", "#2ca02c", 1.2, NULL},
    };
    const series bottom[] = {
        {rec[R_ENERGY], "|E(t) - E(0)| / E_ref", "#9467bd", 1.5, NULL},
    };
    log_panel(f, 70, 60, 640, 300, "rod-length error (worst rod)", t, n, top,
              sizeof top / sizeof top[0]);
    log_panel(f, 70, 420, 640, 300, "relative energy error", t, n, bottom,
              sizeof bottom / sizeof bottom[0]);
    fprintf(f, "<text x=\"390\" y=\"752\" font-family=\"sans-serif\" font-size=\"12\" "
               "text-anchor=\"middle\">time (s)</text>\n</svg>\n");
    return fclose(f) == 0 ? 0 : -1;
}

typedef struct snapshot {
    double t;
    double *xy; /* pivot and masses, 2 per point */
} snapshot;

static int write_picture(const char *path, const snapshot *snaps, int n_snaps, size_t n_pts,
                         const double *tip, size_t n_tip, const params *p)
{
    double reach = ROD * (double)p->links;
    svg s;
    if (svg_open(&s, path, 1000, 640, -1.08 * reach, 1.08 * reach, -1.1 * reach,
                 0.22 * reach, 1))
        return -1;
    char buf[256];
    snprintf(buf, sizeof buf,
             "pendulum chain: %d unit masses on rods of %g m, released from horizontal "
             "(%s, dt = %g s)", p->links, ROD, p->integrator_name, p->dt);
    svg_text(&s, 20, 28, 15, buf);
    snprintf(buf, sizeof buf,
             "the chain every %g s from 0 (blue) to %g s (red); grey: the path of the free end",
             p->snap_every, snaps[n_snaps - 1].t);
    svg_text(&s, 20, 48, 12, buf);

    svg_polyline(&s, tip, n_tip, 2, 0, "#888", 0.8, 0.8);
    for (int k = 0; k < n_snaps; k++) {
        char col[8];
        svg_ramp(n_snaps > 1 ? (double)k / (double)(n_snaps - 1) : 0.0, col);
        svg_polyline(&s, snaps[k].xy, n_pts, 2, 0, col, 1.6, 0.85);
        svg_circle(&s, snaps[k].xy[2 * (n_pts - 1)], snaps[k].xy[2 * (n_pts - 1) + 1], 2.5, col);
    }
    /* The pivot and its support. */
    svg_line(&s, -0.06 * reach, 0.02 * reach, 0.06 * reach, 0.02 * reach, "black", 3);
    svg_circle(&s, 0, 0, 4, "black");
    /* Colour key: a few times along a ramp. */
    for (int k = 0; k <= 4; k++) {
        char col[8];
        svg_ramp(k / 4.0, col);
        double tk = snaps[n_snaps - 1].t * k / 4.0;
        double x = s.width - 230 + 40.0 * k;
        fprintf(s.f, "<rect x=\"%.1f\" y=\"62\" width=\"36\" height=\"8\" fill=\"%s\"/>\n", x,
                col);
        snprintf(buf, sizeof buf, "%.2g s", tk);
        svg_text(&s, x + 4, 84, 10, buf);
    }
    svg_close(&s);
    return 0;
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
    CHECK(cdyn_system_set_constraint_solver(sys, p.solver));
    if (p.ks >= 0)
        CHECK(cdyn_system_set_constraint_gains(sys, p.ks, p.kd));
    double ks, kd;
    CHECK(cdyn_system_get_constraint_gains(sys, &ks, &kd));
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
    printf("pendulum_chain: the standard chain released from horizontal (seeds 003, 004)\n");
    printf("  fixed pivot at the origin, %d masses of %g kg, %d rods of %g m, g = %g m/s^2 "
           "along -y\n", p.links, MASS, p.links, ROD, GRAVITY);
    printf("  integrator %s, dt = %g s, %ld steps (%g s); solver %s; feedback ks = %g /s^2, "
           "kd = %g /s\n", p.integrator_name, p.dt, steps, (double)steps * p.dt, p.solver_name,
           ks, kd);
    printf("  energy error = |E(t) - E(0)| / E_ref, E_ref = %.4g J (potential energy released "
           "hanging straight down)\n", e_ref);
    printf("  rod error: measured max | |d| - L | over the rods; residual: "
           "cdyn_system_get_constraint_residuals\n\n");
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
        CHECK(cdyn_system_get_constraint_residuals(sys, &res_p, &res_v));
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
