/* lattice_cradle: a lattice Newton's cradle.
 *
 * A grid of cols x rows steel-like balls of radius r, each on a rigid rod
 * of length L from its own hook (cdyn_constraint_add_anchor:
 * g_i = (|q_i - b_i|^2 - L^2) / 2). The hooks sit on a horizontal square
 * grid of spacing 2 r at height L, so that at rest every ball touches its
 * four grid neighbours with zero force. Balls push on each other by Hertz
 * contact (pair.h: F = k delta^(3/2) for an overlap delta), found by the
 * cell list among all pairs (or, with --contacts neighbours, on the list of
 * grid neighbours only). Gravity g along -z.
 *
 * One corner ball is pulled outwards along the grid's diagonal (or, with
 * --pull row, the whole first row outwards along -y) and released from
 * rest. It swings back, strikes its neighbours, and the pulses run along
 * the row and the column to the far edges, whose balls fly out; then the
 * swinging and striking repeat while the energy spreads over the grid.
 *
 * The contacts are short and stiff: two balls of mass m meeting at normal
 * speed v compress by at most delta_max = (5 mu v^2 / (4 k))^(2/5),
 * mu = m / 2, and stay in contact for t_c = 2.943 delta_max / v (the
 * constant is B(2/5, 1/2) 4/5), about 1 ms with the defaults; dt must
 * resolve it. The default, RATTLE with dt = 10 us (some 100 steps per
 * contact), keeps the rods exact to the projection tolerance and the energy
 * within 2e-4 of E0 inside contacts and 2e-5 between them, without drift.
 * Measured on 1 s of the default cradle (release build, CPU time):
 *
 *   integrator  dt     us/step  s CPU  worst |E - E0| / E0
 *   rattle      10 us    6.4    0.64   1.7e-4  (5 us: 4.0e-5, 2 us: 6.3e-6)
 *   rk4         10 us    9.0    0.90   5.2e-6  (5 us: 2.8e-7, 2 us: 6.5e-8)
 *   verlet      10 us    7.5    0.75   1.7e-4  (rods held by feedback: 4e-9 m)
 *
 * RK4 is the more accurate per step, RATTLE the cheaper and the one that
 * neither drifts nor needs feedback gains.
 * Which ball holds what after many collisions is chaotic: round-off breaks
 * the x <-> y mirror symmetry of a corner pull within a few swings, and
 * another integrator or dt gives another late-time pattern; how far the
 * energy has spread (the participation number) is the robust measure.
 * k defaults to 1e8 N/m^(3/2), about 140 times softer than steel balls of
 * this size (pair.h's formula gives 1.4e10), which makes contacts 7 times
 * longer and the run 7 times cheaper; --stiffness changes it.
 *
 * Writes into the current directory:
 *   lattice_cradle.svg         seen from above: the path of every ball's
 *                              centre over the run, the energy of each
 *                              ball after the first collisions and at the
 *                              end, and a strip of snapshots with the
 *                              balls coloured by kinetic energy
 *   lattice_cradle_energy.svg  energies, relative energy error, horizontal
 *                              momentum and the participation number
 *                              (how many balls share the energy) against
 *                              time
 * and prints what it measured: contact times against dt, energy error,
 * momentum across the first collisions, rod errors, how the energy spread
 * over rows and columns, and the run time.
 *
 * Axes: x along the grid's columns (index i), y along its rows (index j),
 * z up; ball (i, j) hangs from the hook at (2 r i, 2 r j, L) and rests at
 * (2 r i, 2 r j, 0). The energy of a ball is m |v|^2 / 2 + m g z, zero at
 * rest; the total adds the Hertz energy of the contacts.
 *
 * Run with --help for the options.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cdyn/cdyn.h>

#include "cli.h"
#include "chart.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const double GRAVITY = 9.81;

/* ---- parameters --------------------------------------------------------- */

typedef struct params {
    int cols, rows;     /* balls along x and along y */
    double radius;      /* m */
    double mass;        /* kg */
    double length;      /* m, rod */
    double stiffness;   /* Hertz k, N/m^(3/2) */
    double angle;       /* degrees, pull-back of the released ball(s) */
    int pull_row;       /* 0: one corner ball diagonally; 1: the first row along -y */
    int all_pairs;      /* 1: cell list over all pairs; 0: grid neighbours only */
    cdyn_integrator integrator;
    const char *integrator_name;
    double dt;          /* s */
    double duration;    /* s */
} params;

/* The integrators worth trying here (all resolve the contacts at small dt). */
static const unsigned INTEGRATORS =
    CLI_INTEGRATOR_BIT(CDYN_INTEGRATOR_RATTLE) | CLI_INTEGRATOR_BIT(CDYN_INTEGRATOR_RK4) |
    CLI_INTEGRATOR_BIT(CDYN_INTEGRATOR_VELOCITY_VERLET) | CLI_INTEGRATOR_BIT(CDYN_INTEGRATOR_RK45);

static void usage(FILE *out, const params *d)
{
    fprintf(out,
            "usage: lattice_cradle [options]\n"
            "A lattice Newton's cradle: a grid of balls on rods from hooks spaced\n"
            "2 r apart, Hertz contact between balls; one corner ball (or a row) pulled out and\n"
            "released. Writes lattice_cradle.svg and lattice_cradle_energy.svg into the\n"
            "current directory.\n"
            "  --grid CxR         balls along x and along y (default %dx%d)\n"
            "  --pull corner|row  release one corner ball diagonally, or the first row along\n"
            "                     -y (default corner)\n"
            "  --angle DEG        pull-back angle of the rods (default %g)\n"
            "  --stiffness K      Hertz k in N/m^(3/2) (default %g)\n"
            "  --contacts all|neighbours  Hertz on all pairs by cell list, or on the grid\n"
            "                     neighbours only (default all)\n"
            "  --integrator NAME  rattle | rk4 | verlet | rk45 (default %s)\n"
            "  --dt DT            step in seconds (default %g)\n"
            "  --time T           simulated time in seconds (default %g)\n"
            "  --quick            a 3x3 grid for 0.45 s: through the first collision (for\n"
            "                     valgrind)\n"
            "  --help             this text\n"
            "Balls: radius %g m, mass %g kg, rods %g m, g = %g m/s^2.\n",
            d->cols, d->rows, d->angle, d->stiffness, d->integrator_name, d->dt, d->duration,
            d->radius, d->mass, d->length, GRAVITY);
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
            p->cols = p->rows = 3;
            p->duration = 0.45;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "lattice_cradle: unknown option or missing value: %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        const char *val = argv[++i];
        int bad = 0;
        if (strcmp(a, "--grid") == 0) {
            int c, r, used = 0;
            bad = sscanf(val, "%dx%d%n", &c, &r, &used) != 2 || val[used] != '\0' || c < 2 ||
                  r < 2 || c > 100 || r > 100;
            if (!bad)
                p->cols = c, p->rows = r;
        } else if (strcmp(a, "--pull") == 0) {
            if (strcmp(val, "corner") == 0)
                p->pull_row = 0;
            else if (strcmp(val, "row") == 0)
                p->pull_row = 1;
            else
                bad = 1;
        } else if (strcmp(a, "--angle") == 0) {
            bad = cli_parse_double(val, &p->angle) || !(p->angle > 0 && p->angle <= 80);
        } else if (strcmp(a, "--stiffness") == 0) {
            bad = cli_parse_double(val, &p->stiffness) || !(p->stiffness > 0);
        } else if (strcmp(a, "--contacts") == 0) {
            if (strcmp(val, "all") == 0)
                p->all_pairs = 1;
            else if (strcmp(val, "neighbours") == 0 || strcmp(val, "neighbors") == 0)
                p->all_pairs = 0;
            else
                bad = 1;
        } else if (strcmp(a, "--integrator") == 0) {
            bad = cli_parse_integrator(val, INTEGRATORS, &p->integrator, &p->integrator_name);
        } else if (strcmp(a, "--dt") == 0) {
            bad = cli_parse_double(val, &p->dt) || !(p->dt > 0 && p->dt <= 1e-3);
        } else if (strcmp(a, "--time") == 0) {
            bad = cli_parse_double(val, &p->duration) || !(p->duration > 0 && p->duration <= 1e3);
        } else {
            fprintf(stderr, "lattice_cradle: unknown option %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        if (bad) {
            fprintf(stderr, "lattice_cradle: bad value for %s: %s\n", a, val);
            return -1;
        }
    }
    return 0;
}

/* ---- small helpers ------------------------------------------------------ */

/* Complete elliptic integral of the first kind K(k) by the arithmetic-
 * geometric mean. */
static double ellipk(double k)
{
    double a = 1.0, b = sqrt(1.0 - k * k);
    for (int it = 0; it < 60 && fabs(a - b) > 1e-16 * a; it++) {
        double an = 0.5 * (a + b);
        b = sqrt(a * b);
        a = an;
    }
    return M_PI / (2.0 * a);
}

/* Energy of each ball (m |v|^2 / 2 + m g z, zero at rest) into e; returns
 * their sum. */
static double ball_energies(const double *x, const double *v, size_t n, double m, double *e)
{
    double sum = 0;
    for (size_t b = 0; b < n; b++) {
        const double *vb = v + 3 * b;
        e[b] = 0.5 * m * (vb[0] * vb[0] + vb[1] * vb[1] + vb[2] * vb[2]) +
               m * GRAVITY * x[3 * b + 2];
        sum += e[b];
    }
    return sum;
}

/* How many balls share the energy: (sum e)^2 / sum e^2, 1 when one ball
 * holds it all, n when it is spread evenly. Negative e (round-off at rest)
 * count as 0. */
static double participation(const double *e, size_t n)
{
    double s = 0, s2 = 0;
    for (size_t b = 0; b < n; b++) {
        double eb = fmax(0.0, e[b]);
        s += eb;
        s2 += eb * eb;
    }
    return s2 > 0 ? s * s / s2 : 0.0;
}

/* ---- pictures ----------------------------------------------------------- */

typedef struct snapshot {
    double t;
    double *xy; /* 2 per ball */
    double *ke; /* kinetic energy per ball */
    const char *caption;
} snapshot;

typedef struct layout {
    const params *p;
    size_t n;          /* balls */
    double e0;         /* J, initial energy */
    double lo[2], hi[2]; /* world box of every centre position over the run */
} layout;

/* Colours of a square-root scale, which shows small shares too. */
static void sqrt_ramp(double share, char out[8])
{
    chart_ramp(sqrt(fmax(share, 0.0)), out);
}

/* A panel showing the world box lo..hi at equal scales. */
static chart_panel *top_view(chart *c, double x, double y, double w, double h,
                             const double lo[2], const double hi[2])
{
    chart_panel *p = chart_panel_at(c, x, y, w, h);
    chart_scene(p);
    chart_x_range(p, lo[0], hi[0]);
    chart_y_range(p, lo[1], hi[1]);
    return p;
}

/* The balls at rest, as outlines. */
static void rest_outlines(chart_panel *p, const params *prm, const char *color)
{
    for (int j = 0; j < prm->rows; j++)
        for (int i = 0; i < prm->cols; i++)
            chart_circle(p, 2 * prm->radius * i, 2 * prm->radius * j, prm->radius,
                         &(chart_style){.color = color, .width = 0.8});
}

/* Energy-share grid: one square per ball, shaded by its share of the total
 * and labelled with it in percent, row j = 0 at the bottom as in the top
 * view; the sums of each row on the right, of each column below. Cells
 * are the panel's units. */
static void share_grid(chart *c, double x, double w, const double *e, double total,
                       const params *p, const char *title)
{
    chart_panel *g = chart_panel_at(c, x, 0, w, 0.36);
    chart_scene(g);
    chart_x_range(g, -1.3, p->cols + 1.3);
    chart_y_range(g, -0.9, p->rows + 0.3);
    chart_panel_title(g, "%s", title);
    const chart_style middle = {.anchor = CHART_MIDDLE, .size = 12};
    const chart_style white = {.anchor = CHART_MIDDLE, .size = 12, .color = "white"};
    double col_sum[64] = {0};
    for (int j = 0; j < p->rows; j++) {
        double row = 0;
        for (int i = 0; i < p->cols; i++) {
            double share = fmax(0.0, e[j * p->cols + i]) / total;
            char col[8];
            sqrt_ramp(share, col);
            double cell[8] = {i, j, i + 1, j, i + 1, j + 1, i, j + 1};
            chart_polygon(g, cell, 4, &(chart_style){.color = "white", .width = 1, .fill = col});
            chart_text(g, i + 0.5, j + 0.38, &white, "%.0f", 100 * share);
            row += share;
            col_sum[i % 64] += share;
        }
        chart_text(g, p->cols + 0.6, j + 0.38, &middle, "%.1f", 100 * row);
    }
    for (int i = 0; i < p->cols; i++)
        chart_text(g, i + 0.5, -0.6, &middle, "%.1f", 100 * col_sum[i % 64]);
    const chart_style grey = {.color = "#555", .size = 10, .anchor = CHART_MIDDLE};
    chart_text(g, p->cols + 0.6, p->rows + 0.1, &grey, "rows");
    chart_text(g, -0.6, -0.6, &grey, "columns");
}

static int write_picture(const char *path, const layout *L, const double *paths, size_t n_rec,
                         const snapshot *snaps, int n_snaps, const double *e_burst,
                         double t_burst, const double *e_end, double t_end,
                         const double *path_share, char notes[][160], int n_notes)
{
    const params *p = L->p;
    const double r = p->radius;
    chart *c = chart_create(1500, 1040);
    chart_title(c, "Lattice Newton's cradle: %dx%d balls of radius %g m on rods of %g m, Hertz "
                   "k = %g N/m^{1.5}, %s released from %g degrees", p->cols, p->rows, r,
                p->length, p->stiffness, p->pull_row ? "the first row" : "one corner ball",
                p->angle);
    chart_caption(c, "seen from above (x right, y up); %s, dt = %g s, %g s simulated",
                  p->integrator_name, p->dt, t_end);
    chart_caption(c, "energy of each ball, m |v|^{2}/2 + m g z, in %% of the initial energy; row "
                     "j = 0 at the bottom, column i = 0 on the left, as in the top view; sums of "
                     "rows on the right, of columns below");

    /* The paths, quiet balls first so that the busy ones stay on top. */
    double lo[2] = {L->lo[0] - 1.5 * r, L->lo[1] - 1.5 * r};
    double hi[2] = {L->hi[0] + 1.5 * r, L->hi[1] + 1.5 * r};
    chart_panel *top = top_view(c, 0, 0, 0.42, 0.62, lo, hi);
    chart_panel_title(top, "path of every ball's centre over the run");
    rest_outlines(top, p, "#ccc");
    size_t stride = (n_rec + 1499) / 1500; /* at most about 1500 points per path */
    double *tmp = malloc(2 * (n_rec / stride + 1) * sizeof *tmp);
    for (int pass = 0; pass < 2 && tmp; pass++)
        for (size_t b = 0; b < L->n; b++) {
            int busy = path_share[b] > 0.05;
            if (busy != pass)
                continue;
            size_t k = 0;
            for (size_t rr = 0; rr < n_rec; rr += stride, k++) {
                tmp[2 * k] = paths[(rr * L->n + b) * 2];
                tmp[2 * k + 1] = paths[(rr * L->n + b) * 2 + 1];
            }
            char col[8];
            sqrt_ramp(path_share[b], col);
            chart_path(top, tmp, k, &(chart_style){.color = col, .width = busy ? 1.4 : 0.9,
                                                   .opacity = busy ? 0.9 : 0.7});
        }
    free(tmp);
    const chart_style released = {.color = "#d62728", .width = 1.2};
    for (size_t b = 0; b < L->n; b++) {
        size_t cols = (size_t)p->cols;
        double hx = 2 * r * (double)(b % cols), hy = 2 * r * (double)(b / cols);
        if (fabs(snaps[0].xy[2 * b] - hx) > 0.5 * r || fabs(snaps[0].xy[2 * b + 1] - hy) > 0.5 * r)
            chart_circle(top, snaps[0].xy[2 * b], snaps[0].xy[2 * b + 1], r, &released);
        chart_marker(top, hx, hy, &(chart_style){.color = "#444", .size = 1.5});
    }
    chart_ramp_key(top, "colour: the ball's largest share of the energy (%)", 0, 100,
                   CHART_RAMP_SQRT, NULL);
    chart_key(top, CHART_LINE, p->pull_row ? "released balls at the start"
                                           : "released ball at the start", &released);
    chart_key(top, CHART_LINE, "balls at rest", &(chart_style){.color = "#ccc"});
    chart_key(top, CHART_MARKER, "hooks", &(chart_style){.color = "#444", .size = 1.5});

    /* Energy shares after the first collisions and at the end; the notes. */
    char title[80];
    snprintf(title, sizeof title, "t = %.3f s: after the first collisions", t_burst);
    if (t_burst >= 0)
        share_grid(c, 0.44, 0.28, e_burst, L->e0, p, title);
    snprintf(title, sizeof title, "t = %.3f s: the end", t_end);
    share_grid(c, t_burst >= 0 ? 0.72 : 0.44, 0.28, e_end, L->e0, p, title);
    chart_panel *text = chart_panel_at(c, 0.44, 0.38, 0.56, 0.24);
    chart_scene(text);
    for (int k = 0; k < n_notes; k++)
        chart_key(text, CHART_TEXT, notes[k], NULL);

    /* Snapshots, balls coloured by their kinetic energy. */
    for (int k = 0; k < n_snaps; k++) {
        chart_panel *s = top_view(c, (double)k / n_snaps, 0.64, 1.0 / n_snaps, 0.28, lo, hi);
        chart_panel_title(s, "t = %.3f s%s%s", snaps[k].t, snaps[k].caption ? ": " : "",
                          snaps[k].caption ? snaps[k].caption : "");
        rest_outlines(s, p, "#e4e4e4");
        for (size_t b = 0; b < L->n; b++) {
            char col[8];
            sqrt_ramp(snaps[k].ke[b] / L->e0, col);
            chart_circle(s, snaps[k].xy[2 * b], snaps[k].xy[2 * b + 1], r,
                         &(chart_style){.color = "#222", .width = 0.6, .fill = col});
        }
    }
    chart_panel *strip_key = chart_panel_at(c, 0, 0.92, 1, 0.08);
    chart_scene(strip_key);
    chart_ramp_key(strip_key, "snapshots: kinetic energy of a ball (% of the initial energy)", 0,
                   100, CHART_RAMP_SQRT, NULL);
    int bad = chart_save(c, path);
    chart_free(c);
    return bad;
}

enum { S_TOTAL, S_KIN, S_CONTACT, S_ERR, S_PX, S_PY, S_PART, S_COUNT };

static int write_chart(const char *path, const double *t, size_t n, double *const rec[S_COUNT],
                       const params *p, double e0)
{
    double *gravity = malloc(n * sizeof *gravity); /* what the total holds besides */
    if (!gravity)
        return -1;
    for (size_t i = 0; i < n; i++)
        gravity[i] = rec[S_TOTAL][i] - rec[S_KIN][i] - rec[S_CONTACT][i];
    chart *c = chart_create(1100, 1000);
    chart_title(c, "Lattice cradle %dx%d (%s, dt = %g s): energy, momentum and spread, sampled "
                   "every ms", p->cols, p->rows, p->integrator_name, p->dt);
    chart_panel *en = chart_panel_add(c, 1.2), *err = chart_panel_add(c, 0.9);
    chart_panel *mom = chart_panel_add(c, 1), *part = chart_panel_add(c, 1);
    chart_panel_title(en, "energy (J); E_{0} = %.4g J", e0);
    chart_line(en, t, rec[S_KIN], n, "kinetic", &(chart_style){.width = 1.2});
    chart_line(en, t, gravity, n, "gravity (m g z, 0 at rest)",
               &(chart_style){.color = "#2ca02c", .width = 1.2});
    chart_line(en, t, rec[S_CONTACT], n, "Hertz (contacts)",
               &(chart_style){.color = "#d62728", .width = 1.2});
    chart_line(en, t, rec[S_TOTAL], n, "total = the sum of the three",
               &(chart_style){.color = "black", .width = 1.2});
    chart_panel_title(err, "relative energy error (sampled: peaks inside contacts may be "
                           "missed; the run's maximum is printed)");
    chart_line(err, t, rec[S_ERR], n, "(E - E_{0}) / E_{0}",
               &(chart_style){.color = "#9467bd", .width = 1.2});
    chart_panel_title(mom, "horizontal momentum (kg m/s): the contacts cancel in the sum; the "
                           "rods swing it like one pendulum");
    /* p_x wide and p_y dashed on top: a corner pull makes them equal. */
    chart_line(mom, t, rec[S_PX], n, "p_{x}", &(chart_style){.width = 3});
    chart_line(mom, t, rec[S_PY], n, "p_{y}",
               &(chart_style){.color = "#ff7f0e", .width = 1.4, .dash = "6,4"});
    chart_panel_title(part, "participation number: how many of the %d balls share the energy "
                            "(e: energy of a ball)", p->cols * p->rows);
    chart_x(part, "time (s)", 0);
    chart_line(part, t, rec[S_PART], n, "(sum e)^{2} / sum e^{2}",
               &(chart_style){.color = "#2ca02c", .width = 1.2});
    int bad = chart_save(c, path);
    chart_free(c);
    free(gravity);
    return bad;
}

/* ---- the run ------------------------------------------------------------ */

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cdyn_status st_ = (call);                                                         \
        if (st_ != CDYN_OK) {                                                             \
            fprintf(stderr, "lattice_cradle: %s failed: %s (%s)\n", #call,                \
                    cdyn_status_name(st_), cdyn_system_last_error(sys));                  \
            goto fail;                                                                    \
        }                                                                                 \
    } while (0)

static double now_wall(void)
{
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
        return 0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void print_shares(const char *what, const double *e, double total, const params *p)
{
    printf("  %s (%% of E0; row j = %d at the top, as seen from above):\n", what, p->rows - 1);
    for (int j = p->rows - 1; j >= 0; j--) {
        double row = 0;
        printf("    j = %-2d", j);
        for (int i = 0; i < p->cols; i++) {
            /* e >= 0 up to round-off (z >= 0 on the rod). */
            double s = 100 * fmax(0.0, e[j * p->cols + i]) / total;
            row += s;
            printf(" %5.1f", s);
        }
        printf("   | row %5.1f\n", row);
    }
    printf("    column");
    for (int i = 0; i < p->cols; i++) {
        double col = 0;
        for (int j = 0; j < p->rows; j++)
            col += 100 * fmax(0.0, e[j * p->cols + i]) / total;
        printf(" %5.1f", col);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    params p = {
        .cols = 5,
        .rows = 5,
        .radius = 0.02,
        .mass = 0.26,
        .length = 0.3,
        .stiffness = 1e8,
        .angle = 30,
        .pull_row = 0,
        .all_pairs = 1,
        .integrator = CDYN_INTEGRATOR_RATTLE,
        .integrator_name = "rattle",
        .dt = 1e-5,
        .duration = 5.0,
    };
    int rc = parse_args(argc, argv, &p);
    if (rc)
        return rc > 0 ? 0 : 2;

    const size_t n = (size_t)p.cols * (size_t)p.rows;
    const double r = p.radius, m = p.mass;
    const long steps = lround(p.duration / p.dt);
    const long rec_every = lround(1e-3 / p.dt) > 0 ? lround(1e-3 / p.dt) : 1;
    const size_t n_rec = (size_t)(steps / rec_every) + 1;
    const long check_every = 10;

    int exit_code = 1;
    cdyn_system *sys = NULL;
    cdyn_particle *balls = malloc(n * sizeof *balls);
    size_t *pairs = malloc(2 * (2 * n) * sizeof *pairs); /* grid neighbours, as ball numbers */
    cdyn_particle *pair_h = malloc(2 * (2 * n) * sizeof *pair_h);
    cdyn_particle *contacts = malloc(2 * (4 * n) * sizeof *contacts);
    double *x = malloc(3 * n * sizeof *x), *v = malloc(3 * n * sizeof *v);
    double *e = malloc(n * sizeof *e), *e_burst = calloc(n, sizeof *e_burst);
    double *e_end = calloc(n, sizeof *e_end), *share_max = calloc(n, sizeof *share_max);
    double *paths = malloc(2 * n * n_rec * sizeof *paths);
    double *rec_t = malloc(n_rec * sizeof *rec_t);
    unsigned char *seen = calloc(n * n, 1); /* non-neighbour pairs seen in contact */
    double *rec[S_COUNT] = {0};
    enum { N_SNAPS = 6 };
    snapshot snaps[N_SNAPS];
    memset(snaps, 0, sizeof snaps);
    int oom = !balls || !pairs || !pair_h || !contacts || !x || !v || !e || !e_burst || !e_end ||
              !share_max || !paths || !rec_t || !seen;
    for (int k = 0; k < S_COUNT; k++)
        oom |= !(rec[k] = malloc(n_rec * sizeof *rec[k]));
    for (int k = 0; k < N_SNAPS; k++) {
        oom |= !(snaps[k].xy = malloc(2 * n * sizeof *snaps[k].xy));
        oom |= !(snaps[k].ke = malloc(n * sizeof *snaps[k].ke));
    }
    if (oom) {
        fprintf(stderr, "lattice_cradle: out of memory\n");
        goto fail;
    }

    /* ---- the cradle ---- */
    CHECK(cdyn_system_create(3, &sys));
    CHECK(cdyn_system_set_integrator(sys, p.integrator));
    const double th = p.angle * M_PI / 180.0;
    /* Pull direction (horizontal unit vector) of the released balls. */
    const double pull[2] = {p.pull_row ? 0.0 : -sqrt(0.5), p.pull_row ? -1.0 : -sqrt(0.5)};
    int released = 0;
    for (int j = 0; j < p.rows; j++)
        for (int i = 0; i < p.cols; i++) {
            size_t b = (size_t)j * (size_t)p.cols + (size_t)i;
            double hook[3] = {2 * r * i, 2 * r * j, p.length};
            double pos[3] = {hook[0], hook[1], 0.0};
            int pulled = p.pull_row ? j == 0 : (i == 0 && j == 0);
            if (pulled) {
                pos[0] += p.length * sin(th) * pull[0];
                pos[1] += p.length * sin(th) * pull[1];
                pos[2] = p.length * (1 - cos(th));
                released++;
            }
            CHECK(cdyn_particle_add(sys, m, pos, NULL, &balls[b]));
            size_t idx;
            CHECK(cdyn_particle_get_index(sys, balls[b], &idx));
            if (idx != b) {
                fprintf(stderr, "lattice_cradle: unexpected particle index\n");
                goto fail;
            }
            cdyn_constraint rod;
            CHECK(cdyn_constraint_add_anchor(sys, balls[b], hook, p.length, &rod));
        }
    size_t n_pairs = 0;
    for (int j = 0; j < p.rows; j++)
        for (int i = 0; i < p.cols; i++) {
            size_t b = (size_t)j * (size_t)p.cols + (size_t)i;
            if (i + 1 < p.cols)
                pairs[2 * n_pairs] = b, pairs[2 * n_pairs + 1] = b + 1, n_pairs++;
            if (j + 1 < p.rows)
                pairs[2 * n_pairs] = b, pairs[2 * n_pairs + 1] = b + (size_t)p.cols, n_pairs++;
        }
    for (size_t k = 0; k < 2 * n_pairs; k++)
        pair_h[k] = balls[pairs[k]];
    cdyn_pair_params pp;
    CHECK(cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ));
    pp.stiffness = p.stiffness;
    pp.radius = r;
    cdyn_force hertz, gravity;
    if (p.all_pairs)
        CHECK(cdyn_force_add_pair_set(sys, &pp, balls, n, &hertz));
    else
        CHECK(cdyn_force_add_pairs(sys, &pp, pair_h, n_pairs, &hertz));
    CHECK(cdyn_force_add_gravity(sys, (double[]){0.0, 0.0, -GRAVITY}, &gravity));

    /* The released ball reaches the bottom, where it touches its
     * neighbours, after a quarter of the exact pendulum period. */
    const double t_quarter = sqrt(p.length / GRAVITY) * ellipk(sin(0.5 * th));
    const double v_impact = sqrt(2 * GRAVITY * p.length * (1 - cos(th)));
    /* Normal speed at the first contacts: a diagonal strike meets each of
     * its two neighbours at v / sqrt(2). */
    const double v_normal = p.pull_row ? v_impact : v_impact * sqrt(0.5);
    const double mu = 0.5 * m;
    const double overlap_est = pow(1.25 * mu * v_normal * v_normal / p.stiffness, 0.4);
    const double t_contact = 2.943 * overlap_est / v_normal;
    /* A pulse needs roughly one contact time per ball it passes. */
    const double t_contact_path = t_contact * (double)(p.pull_row ? p.rows : p.cols);

    printf("lattice_cradle: a lattice Newton's cradle, %dx%d balls\n", p.cols, p.rows);
    printf("  balls: radius %g m, mass %g kg, rods %g m from hooks spaced %g m (touching at "
           "rest); g = %g m/s^2\n", r, m, p.length, 2 * r, GRAVITY);
    printf("  Hertz k = %g N/m^1.5 on %s; %s pulled back %g degrees and released\n",
           p.stiffness, p.all_pairs ? "all pairs (cell list)" : "the grid neighbours",
           p.pull_row ? "the first row (j = 0) along -y" : "corner ball (0,0) diagonally",
           p.angle);
    printf("  integrator %s, dt = %g s, %ld steps (%g s); a small-swing period is %.3f s\n",
           p.integrator_name, p.dt, steps, (double)steps * p.dt,
           2 * M_PI * sqrt(p.length / GRAVITY));
    printf("  first impact expected at t = %.4f s (a quarter of the exact period) at %.3f m/s; "
           "normal speed %.3f m/s\n", t_quarter, v_impact, v_normal);
    printf("  two-ball Hertz contact at that speed: t_c = %.3g ms = %.0f steps, largest "
           "overlap %.3g mm (%.2g r)\n\n", 1e3 * t_contact, t_contact / p.dt, 1e3 * overlap_est,
           overlap_est / r);

    /* Snapshots: the start, the fall, the first collisions, the flight of
     * the struck balls, and later swings. */
    const double t_end = (double)steps * p.dt;
    const double snap_t[N_SNAPS] = {
        0.0,
        0.6 * t_quarter,
        t_quarter + 0.4 * t_contact_path,
        fmin(t_end, 1.5 * t_quarter),
        fmin(t_end, 0.5 * (2.0 * t_quarter + t_end)),
        t_end,
    };
    static const char *captions[N_SNAPS] = {"released", "falling", "pulse running",
                                            "struck balls fly out", "later", "the end"};
    long snap_step[N_SNAPS];
    for (int k = 0; k < N_SNAPS; k++) {
        snap_step[k] = lround(snap_t[k] / p.dt);
        if (snap_step[k] > steps)
            snap_step[k] = steps;
        snaps[k].caption = captions[k];
    }

    double e0 = 0;
    {
        CHECK(cdyn_system_get_positions(sys, x, 3 * n));
        CHECK(cdyn_system_get_velocities(sys, v, 3 * n));
        double pe;
        CHECK(cdyn_system_get_potential_energy(sys, &pe));
        e0 = pe; /* at rest: all gravitational, the Hertz energy is zero */
    }
    layout lay = {.p = &p, .n = n, .e0 = e0, .lo = {INFINITY, INFINITY},
                  .hi = {-INFINITY, -INFINITY}};

    double worst_err = 0, worst_rod = 0, worst_vel = 0, max_overlap = 0, max_contact_e = 0;
    /* The released ball (0) and the neighbour it strikes along the pull. */
    const size_t struck = p.pull_row ? (size_t)p.cols : 1;
    double t_pair_on = -1, t_pair_off = -1;
    double t_first = -1, t_first_end = -1, t_last_contact = -1, t_burst = -1, t_burst_last = -1;
    double p_before[3] = {0, 0, 0}, p_after[3] = {0, 0, 0}, max_ph = 0;
    double e_err_end = 0;
    int in_contact = 0, burst_done = 0, max_contacts = 0, next_snap = 0;
    long non_neighbour = 0, distinct_non_neighbour = 0;
    size_t rec_i = 0;
    double cpu0 = (double)clock() / CLOCKS_PER_SEC, wall0 = now_wall();
    for (long step = 0;; step++) {
        double t = (double)step * p.dt;
        CHECK(cdyn_system_get_positions(sys, x, 3 * n));
        /* Overlaps of grid neighbours, from the positions. */
        double overlap = 0;
        int touching = 0;
        for (size_t k = 0; k < n_pairs; k++) {
            const double *a = x + 3 * pairs[2 * k], *b = x + 3 * pairs[2 * k + 1];
            double d = sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
                            (b[2] - a[2]) * (b[2] - a[2]));
            double o = 2 * r - d;
            /* Balls at rest touch at 0 overlap up to round-off; count a
             * contact from 1e-9 r on. */
            if (o > 1e-9 * r)
                touching = 1;
            overlap = fmax(overlap, o);
        }
        max_overlap = fmax(max_overlap, overlap);
        if (t_pair_off < 0) {
            const double *a = x, *b = x + 3 * struck;
            double d = sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
                            (b[2] - a[2]) * (b[2] - a[2]));
            if (2 * r - d > 1e-9 * r && t_pair_on < 0)
                t_pair_on = t;
            else if (2 * r - d <= 1e-9 * r && t_pair_on >= 0)
                t_pair_off = t;
        }
        if (touching && t_first < 0) {
            t_first = t;
            double pm[3];
            CHECK(cdyn_system_get_momentum(sys, pm));
            memcpy(p_before, pm, sizeof pm);
        }
        if (!touching && in_contact) {
            t_last_contact = t;
            if (t_first_end < 0) {
                t_first_end = t;
                CHECK(cdyn_system_get_momentum(sys, p_after));
            }
        }
        in_contact = touching;
        /* The first burst of collisions is over once no grid neighbours
         * have touched for 20 ms. */
        if (!burst_done && t_last_contact >= 0 && !touching && t - t_last_contact > 0.02) {
            burst_done = 1;
            t_burst = t;
            t_burst_last = t_last_contact;
            CHECK(cdyn_system_get_velocities(sys, v, 3 * n));
            ball_energies(x, v, n, m, e_burst);
        }
        if (step % check_every == 0 || step == steps) {
            double ke, pe, ch;
            CHECK(cdyn_system_get_kinetic_energy(sys, &ke));
            CHECK(cdyn_system_get_potential_energy(sys, &pe));
            CHECK(cdyn_force_get_energy(sys, hertz, &ch));
            worst_err = fmax(worst_err, fabs(ke + pe - e0) / e0);
            max_contact_e = fmax(max_contact_e, ch);
            e_err_end = (ke + pe - e0) / e0;
            if (p.all_pairs) {
                size_t nc;
                CHECK(cdyn_force_get_pair_contacts(sys, hertz, contacts, 4 * n, &nc));
                max_contacts = nc > (size_t)max_contacts ? (int)nc : max_contacts;
                for (size_t c = 0; c < nc && c < 4 * n; c++) {
                    size_t ia, ib;
                    CHECK(cdyn_particle_get_index(sys, contacts[2 * c], &ia));
                    CHECK(cdyn_particle_get_index(sys, contacts[2 * c + 1], &ib));
                    size_t lo_i = ia < ib ? ia : ib, hi_i = ia < ib ? ib : ia;
                    int neighbour = (hi_i - lo_i == (size_t)p.cols) ||
                                    (hi_i - lo_i == 1 && hi_i % (size_t)p.cols != 0);
                    non_neighbour += !neighbour;
                    if (!neighbour && !seen[lo_i * n + hi_i]) {
                        seen[lo_i * n + hi_i] = 1;
                        distinct_non_neighbour++;
                    }
                }
            }
        }
        if (step % rec_every == 0 || step == steps) {
            if (rec_i >= n_rec)
                rec_i = n_rec - 1; /* the last step may fall beyond the last record */
            double ke, pe, ch, pm[3], res_p, res_v;
            CHECK(cdyn_system_get_velocities(sys, v, 3 * n));
            CHECK(cdyn_system_get_kinetic_energy(sys, &ke));
            CHECK(cdyn_system_get_potential_energy(sys, &pe));
            CHECK(cdyn_force_get_energy(sys, hertz, &ch));
            CHECK(cdyn_system_get_momentum(sys, pm));
            CHECK(cdyn_system_compute_constraint_residuals(sys, &res_p, &res_v));
            worst_rod = fmax(worst_rod, res_p);
            worst_vel = fmax(worst_vel, res_v);
            double sum = ball_energies(x, v, n, m, e);
            (void)sum;
            rec_t[rec_i] = t;
            rec[S_TOTAL][rec_i] = ke + pe;
            rec[S_KIN][rec_i] = ke;
            rec[S_CONTACT][rec_i] = ch;
            rec[S_ERR][rec_i] = (ke + pe - e0) / e0;
            rec[S_PX][rec_i] = pm[0];
            rec[S_PY][rec_i] = pm[1];
            rec[S_PART][rec_i] = participation(e, n);
            max_ph = fmax(max_ph, hypot(pm[0], pm[1]));
            for (size_t b = 0; b < n; b++) {
                paths[(rec_i * n + b) * 2] = x[3 * b];
                paths[(rec_i * n + b) * 2 + 1] = x[3 * b + 1];
                for (int k = 0; k < 2; k++) {
                    lay.lo[k] = fmin(lay.lo[k], x[3 * b + k]);
                    lay.hi[k] = fmax(lay.hi[k], x[3 * b + k]);
                }
                share_max[b] = fmax(share_max[b], e[b] / e0);
            }
            rec_i++;
        }
        while (next_snap < N_SNAPS && snap_step[next_snap] == step) {
            CHECK(cdyn_system_get_velocities(sys, v, 3 * n));
            snaps[next_snap].t = t;
            for (size_t b = 0; b < n; b++) {
                snaps[next_snap].xy[2 * b] = x[3 * b];
                snaps[next_snap].xy[2 * b + 1] = x[3 * b + 1];
                const double *vb = v + 3 * b;
                snaps[next_snap].ke[b] = 0.5 * m * (vb[0] * vb[0] + vb[1] * vb[1] + vb[2] * vb[2]);
            }
            next_snap++;
        }
        if (step == steps) {
            CHECK(cdyn_system_get_velocities(sys, v, 3 * n));
            ball_energies(x, v, n, m, e_end);
            break;
        }
        cdyn_status st = cdyn_system_step(sys, p.dt);
        if (st != CDYN_OK) {
            fprintf(stderr, "lattice_cradle: step %ld at t = %g failed: %s (%s)\n"
                            "  try a smaller --dt\n",
                    step, t, cdyn_status_name(st), cdyn_system_last_error(sys));
            goto fail;
        }
    }
    double cpu = (double)clock() / CLOCKS_PER_SEC - cpu0, wall = now_wall() - wall0;

    /* ---- report ---- */
    printf("collisions:\n");
    if (t_first >= 0) {
        printf("  first contact at t = %.4f s (expected %.4f s)\n", t_first, t_quarter);
        if (t_pair_off >= 0)
            printf("  the released ball touched ball %zu for %.3g ms = %.0f steps (two-ball "
                   "estimate %.3g ms)\n", struck, 1e3 * (t_pair_off - t_pair_on),
                   (t_pair_off - t_pair_on) / p.dt, 1e3 * t_contact);
        if (t_first_end >= 0)
            printf("  the pulses took %.3g ms to leave the grid (from the first contact until "
                   "no grid neighbours touched)\n", 1e3 * (t_first_end - t_first));
        printf("  largest overlap of grid neighbours %.3g mm (%.2g r); largest Hertz energy "
               "%.3g of E0\n", 1e3 * max_overlap, max_overlap / r, max_contact_e / e0);
    } else {
        printf("  no contact in %g s\n", t_end);
    }
    if (p.all_pairs)
        printf("  cell list: up to %d pairs in contact at once; %ld pairs that are not grid "
               "neighbours touched (seen at %ld checks, one every %ld steps)%s\n",
               max_contacts, distinct_non_neighbour, non_neighbour, check_every,
               distinct_non_neighbour ? ":\n    the neighbour list alone would let them pass "
                                        "through each other" : "");
    if (burst_done) {
        printf("  first burst of collisions over at t = %.4f s (no contact since %.4f s)\n",
               t_burst, t_burst_last);
    }
    if (t_first_end >= 0) {
        printf("  horizontal momentum (kg m/s) across the first contacts (t = %.4f .. %.4f s):\n"
               "    before (%.5f, %.5f), after (%.5f, %.5f): |change| %.2g of |p|\n", t_first,
               t_first_end, p_before[0], p_before[1], p_after[0], p_after[1],
               hypot(p_after[0] - p_before[0], p_after[1] - p_before[1]) /
                   hypot(p_before[0], p_before[1]));
        printf("    (the rods pull sideways only on balls off their rest positions: a short "
               "collision passes it on unchanged)\n");
    }
    printf("\nenergy (E0 = %.5g J, %d ball%s lifted %.4g m):\n", e0, released,
           released > 1 ? "s" : "", p.length * (1 - cos(th)));
    printf("  worst |E - E0| / E0 = %.2e (checked every %ld steps); at the end %+.2e\n",
           worst_err, check_every, e_err_end);
    /* Contacts cancel in the total force; the rods pull each ball back by
     * about m g (x - hook) / L, so the total horizontal momentum swings like
     * one pendulum of length L whatever the collisions do. Its peaks in the
     * first and in the last period show that. */
    double period = 2 * M_PI * sqrt(p.length / GRAVITY), peak_first = 0, peak_last = 0;
    for (size_t k = 0; k < rec_i; k++) {
        double ph = hypot(rec[S_PX][k], rec[S_PY][k]);
        if (rec_t[k] <= period)
            peak_first = fmax(peak_first, ph);
        if (rec_t[k] >= t_end - period)
            peak_last = fmax(peak_last, ph);
    }
    printf("  horizontal momentum: largest %.4g kg m/s (the released ball%s alone at the bottom: "
           "%.4g);\n    peak in the first period %.4g, in the last %.4g: the contacts cancel in "
           "the sum, so\n    the centre of mass swings like one pendulum while the energy "
           "spreads\n", max_ph, released > 1 ? "s" : "", m * v_impact * released, peak_first,
           peak_last);
    printf("  rods: worst length residual %.2e m, rate residual %.2e m/s\n", worst_rod,
           worst_vel);
    if (burst_done)
        print_shares("energy per ball after the first collisions", e_burst, e0, &p);
    print_shares("energy per ball at the end", e_end, e0, &p);
    double part_burst = burst_done ? participation(e_burst, n) : 0;
    if (burst_done)
        printf("  participation number (sum e)^2 / sum e^2: %.2f at the start, %.2f after the "
               "first collisions, %.2f at the end (of %zu balls)\n", rec[S_PART][0], part_burst,
               participation(e_end, n), n);
    else
        printf("  participation number (sum e)^2 / sum e^2: %.2f at the start, %.2f at the end "
               "(of %zu balls)\n", rec[S_PART][0], participation(e_end, n), n);
    printf("\nrun time: %.2f s CPU, %.2f s wall for %ld steps (%.2f us per step)\n", cpu, wall,
           steps, 1e6 * cpu / (double)steps);

    char notes[6][160];
    int n_notes = 0;
    if (t_pair_off >= 0)
        snprintf(notes[n_notes++], sizeof notes[0], "first contact at t = %.4f s; the released "
                 "ball's lasted %.2g ms = %.0f steps of %g s", t_first,
                 1e3 * (t_pair_off - t_pair_on), (t_pair_off - t_pair_on) / p.dt, p.dt);
    else
        snprintf(notes[n_notes++], sizeof notes[0], "%s", t_first >= 0 ? "the first contact "
                 "had not ended" : "no contact yet");
    snprintf(notes[n_notes++], sizeof notes[0], "largest overlap %.2g r; worst energy error "
             "%.1e of E0, %+.1e at the end", max_overlap / r, worst_err, e_err_end);
    if (t_first_end >= 0)
        snprintf(notes[n_notes++], sizeof notes[0], "horizontal momentum across the first "
                 "contacts changed by %.1e of |p|",
                 hypot(p_after[0] - p_before[0], p_after[1] - p_before[1]) /
                     hypot(p_before[0], p_before[1]));
    if (burst_done)
        snprintf(notes[n_notes++], sizeof notes[0], "balls sharing the energy, (sum e)^2 / "
                 "sum e^2: %.1f after the first collisions, %.1f at the end", part_burst,
                 participation(e_end, n));
    else
        snprintf(notes[n_notes++], sizeof notes[0], "balls sharing the energy, (sum e)^2 / "
                 "sum e^2: %.1f at the end", participation(e_end, n));
    if (p.all_pairs)
        snprintf(notes[n_notes++], sizeof notes[0], "pairs other than grid neighbours that "
                 "touched: %ld", distinct_non_neighbour);
    if (write_picture("lattice_cradle.svg", &lay, paths, rec_i, snaps, next_snap, e_burst,
                      t_burst, e_end, t_end, share_max, notes, n_notes) ||
        write_chart("lattice_cradle_energy.svg", rec_t, rec_i, rec, &p, e0)) {
        fprintf(stderr, "lattice_cradle: cannot write the pictures\n");
        goto fail;
    }
    printf("wrote lattice_cradle.svg and lattice_cradle_energy.svg\n");
    exit_code = 0;

fail:
    cdyn_system_destroy(sys);
    for (int k = 0; k < N_SNAPS; k++) {
        free(snaps[k].xy);
        free(snaps[k].ke);
    }
    for (int k = 0; k < S_COUNT; k++)
        free(rec[k]);
    free(seen);
    free(rec_t);
    free(paths);
    free(share_max);
    free(e_end);
    free(e_burst);
    free(e);
    free(v);
    free(x);
    free(contacts);
    free(pair_h);
    free(pairs);
    free(balls);
    return exit_code;
}
