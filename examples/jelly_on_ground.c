/* jelly_on_ground: a spring-dashpot jelly dropped onto a curved ground
 * with penalty contact and friction.
 *
 * A disc of point masses on a triangular lattice, joined to their nearest
 * and next-nearest neighbours by springs with dashpots, falls onto a ground
 * given as a height-field profile y = f(x) (bicubic spline through samples,
 * cdyn_ground_add_heightfield in 2-D): a long slope with a bump that ends
 * in a V-shaped notch. The ground pushes every mass below it with the
 * penalty force -S H/|grad H| grad H/|grad H|, plus a normal
 * dashpot and friction against the tangential velocity
 * (include/cdyn/ground.h). The jelly lands on the slope, squashes, rolls
 * and hops down, hits the far wall of the notch and settles wedged in it
 * (a round jelly in a smooth valley would rock for a long time: rolling
 * dissipates little).
 *
 * Writes into the current directory:
 *   jelly_on_ground.svg         the ground profile and the jelly's outline
 *                               at several instants, blue (drop) to red (end),
 *                               with the path of its centre of mass and the
 *                               outline at the hardest landing (dashed)
 *   jelly_on_ground_energy.svg  kinetic, gravitational, elastic (springs) and
 *                               ground penalty energy and their total; the
 *                               ground's normal and friction forces over the
 *                               weight, and the number of masses in contact
 * and prints the energies at intervals and the checks at the end:
 *   - the total energy (kinetic + gravity + springs + ground penalty) never
 *     rises in a step by more than the integrator's error: every force is
 *     conservative or dissipative (dashpots, ground damping, friction);
 *   - impulse balance: the time integral of the ground's force on the jelly
 *     plus M g T equals the change of momentum (the springs cancel in
 *     pairs, Newton's third law), and over the last second, with the jelly
 *     nearly at rest, the ground carries its weight on average;
 *   - the friction regularization is resolved by the step:
 *     dt mu (N / m) / v_s < 1 for the masses in contact (ground.h).
 *
 * Run with --help for the options.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "cli.h"
#include "chart.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---- parameters --------------------------------------------------------- */

typedef struct params {
    double dt, t_end;       /* s */
    double radius, spacing; /* m: the disc and its lattice */
    double mass;            /* kg, total */
    double stiffness;       /* N/m, nearest-neighbour springs (next-nearest: half) */
    double damping;         /* N s/m, every dashpot */
    double ground_stiffness; /* N/m, per mass */
    double ground_damping;  /* N s/m, per mass */
    double friction;        /* mu */
    double friction_speed;  /* m/s */
    double drop_x;          /* m, abscissa of the starting centre */
    double clearance;       /* m, gap between the jelly and the ground below at the start */
    double speed[2];        /* m/s, starting velocity */
    int snapshots;
} params;

static void usage(FILE *out, const params *d)
{
    fprintf(out,
            "usage: jelly_on_ground [options]\n"
            "A 2-D spring-dashpot jelly dropped onto a curved height-field ground;\n"
            "writes jelly_on_ground.svg and jelly_on_ground_energy.svg here.\n"
            "  --dt DT           step, s (default %g; RK4)\n"
            "  --time T          simulated time, s (default %g)\n"
            "  --friction MU     ground friction coefficient (default %g)\n"
            "  --vs V            friction speed v_s, m/s (default %g)\n"
            "  --ground-S S      ground stiffness per mass, N/m (default %g)\n"
            "  --ground-c C      ground normal damping per mass, N s/m (default %g)\n"
            "  --stiffness K     jelly spring constant, N/m (default %g)\n"
            "  --damping D       jelly dashpot constant, N s/m (default %g)\n"
            "  --radius R        jelly radius, m (default %g)\n"
            "  --spacing H       jelly lattice spacing, m (default %g)\n"
            "  --x X             abscissa of the drop, m (default %g)\n"
            "  --height H        clearance between the jelly and the ground below it\n"
            "                    at the drop, m (default %g)\n"
            "  --vx VX, --vy VY  initial velocity, m/s (default %g, %g)\n"
            "  --snapshots K     outlines drawn (default %d)\n"
            "  --help            this text\n",
            d->dt, d->t_end, d->friction, d->friction_speed, d->ground_stiffness,
            d->ground_damping, d->stiffness, d->damping, d->radius, d->spacing, d->drop_x, d->clearance, d->speed[0],
            d->speed[1], d->snapshots);
}

/* 0: run; 1: help shown; -1: bad usage. */
static int parse_args(int argc, char **argv, params *p)
{
    const params defaults = *p;
    static const struct {
        const char *name;
        size_t offset;
        double min;
    } opts[] = {
        {"--dt", offsetof(params, dt), 1e-7},
        {"--time", offsetof(params, t_end), 1e-3},
        {"--friction", offsetof(params, friction), 0},
        {"--vs", offsetof(params, friction_speed), 1e-9},
        {"--ground-S", offsetof(params, ground_stiffness), 0},
        {"--ground-c", offsetof(params, ground_damping), 0},
        {"--stiffness", offsetof(params, stiffness), 1e-9},
        {"--damping", offsetof(params, damping), 0},
        {"--radius", offsetof(params, radius), 1e-3},
        {"--spacing", offsetof(params, spacing), 1e-3},
        {"--x", offsetof(params, drop_x), -1e9},
        {"--height", offsetof(params, clearance), 0},
        {"--vx", offsetof(params, speed), -1e9},
        {"--vy", offsetof(params, speed) + sizeof(double), -1e9},
    };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout, &defaults);
            return 1;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "jelly_on_ground: unknown option or missing value: %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        const char *val = argv[++i];
        double x;
        if (cli_parse_double(val, &x)) {
            fprintf(stderr, "jelly_on_ground: bad value for %s: %s\n", a, val);
            return -1;
        }
        if (strcmp(a, "--snapshots") == 0) {
            if (!(x >= 2 && x <= 40)) {
                fprintf(stderr, "jelly_on_ground: --snapshots takes 2..40\n");
                return -1;
            }
            p->snapshots = (int)x;
            continue;
        }
        size_t k = 0, n = sizeof opts / sizeof opts[0];
        while (k < n && strcmp(a, opts[k].name) != 0)
            k++;
        if (k == n) {
            fprintf(stderr, "jelly_on_ground: unknown option %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        if (!(x >= opts[k].min)) {
            fprintf(stderr, "jelly_on_ground: %s must be >= %g\n", a, opts[k].min);
            return -1;
        }
        memcpy((char *)p + opts[k].offset, &x, sizeof x);
    }
    return 0;
}

/* ---- the ground --------------------------------------------------------- */

#define PROFILE_N 121
#define PROFILE_X0 (-4.0)
#define PROFILE_H 0.1

/* A long slope down from the left, with a bump on it, into a V-shaped
 * notch at x = 1.2 whose walls (slopes -0.55 and +0.75) are steeper than
 * the jelly can rock in without sliding: f(x) in metres. */
static double profile(double x)
{
    double u = x - 1.2;
    double notch = 0.65 * sqrt(u * u + 0.01) + 0.1 * u;
    double bump = 0.1 * exp(-(x + 0.8) * (x + 0.8) / 0.06);
    return notch + bump + 0.02 * sin(4.0 * x);
}

/* ---- the jelly ----------------------------------------------------------- */

typedef struct spring_rec {
    size_t a, b;
    double rest;
} spring_rec;

typedef struct jelly {
    size_t n;
    double *x0; /* rest positions about the centre, 2 per mass */
    size_t n_springs, n_near;
    spring_rec *springs;
    size_t n_outline;
    size_t *outline; /* boundary masses by angle */
} jelly;

static void jelly_free(jelly *j)
{
    free(j->x0);
    free(j->springs);
    free(j->outline);
    memset(j, 0, sizeof *j);
}

typedef struct sorted_point {
    double x, y;
    size_t index;
} sorted_point;

static int by_x_then_y(const void *pa, const void *pb)
{
    const sorted_point *a = pa, *b = pb;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    return (a->y > b->y) - (a->y < b->y);
}

static double turn(const sorted_point *o, const sorted_point *a, const sorted_point *b)
{
    return (a->x - o->x) * (b->y - o->y) - (a->y - o->y) * (b->x - o->x);
}

/* The triangular lattice of spacing h clipped to the disc of radius R:
 * springs join masses at distance h (nearest) and sqrt(3) h (next-nearest,
 * which resist shear). The outline is the convex hull of the rest shape
 * (Andrew's monotone chain, keeping masses on its straight edges), counter-
 * clockwise. */
static int jelly_build(jelly *j, double R, double h)
{
    memset(j, 0, sizeof *j);
    long rows = lround(R / (h * sqrt(3.0) / 2.0)), cols = lround(R / h) + 1;
    size_t cap = (size_t)(2 * rows + 1) * (size_t)(2 * cols + 1);
    j->x0 = malloc(2 * cap * sizeof *j->x0);
    if (!j->x0)
        return -1;
    for (long r = -rows; r <= rows; r++)
        for (long c = -cols; c <= cols; c++) {
            double x = ((double)c + 0.5 * (double)(labs(r) % 2)) * h;
            double y = (double)r * h * sqrt(3.0) / 2.0;
            if (x * x + y * y <= R * R * (1.0 + 1e-9)) {
                j->x0[2 * j->n] = x;
                j->x0[2 * j->n + 1] = y;
                j->n++;
            }
        }
    size_t max_springs = 6 * j->n;
    j->springs = malloc(max_springs * sizeof *j->springs);
    j->outline = malloc((j->n + 1) * sizeof *j->outline);
    sorted_point *pts = malloc(j->n * sizeof *pts), *hull = malloc(2 * j->n * sizeof *hull);
    if (!j->springs || !j->outline || !pts || !hull) {
        free(pts);
        free(hull);
        jelly_free(j);
        return -1;
    }
    for (int pass = 0; pass < 2; pass++) { /* nearest first, then next-nearest */
        double want = pass == 0 ? h : sqrt(3.0) * h;
        for (size_t a = 0; a < j->n; a++)
            for (size_t b = a + 1; b < j->n; b++) {
                double d = hypot(j->x0[2 * b] - j->x0[2 * a], j->x0[2 * b + 1] - j->x0[2 * a + 1]);
                if (fabs(d - want) < 1e-6 * h && j->n_springs < max_springs)
                    j->springs[j->n_springs++] = (spring_rec){a, b, d};
            }
        if (pass == 0)
            j->n_near = j->n_springs;
    }
    for (size_t a = 0; a < j->n; a++)
        pts[a] = (sorted_point){j->x0[2 * a], j->x0[2 * a + 1], a};
    qsort(pts, j->n, sizeof *pts, by_x_then_y);
    size_t k = 0;
    const double eps = -1e-9 * h * h; /* keep points on straight edges */
    for (size_t i = 0; i < j->n; i++) { /* lower hull */
        while (k >= 2 && turn(&hull[k - 2], &hull[k - 1], &pts[i]) < eps)
            k--;
        hull[k++] = pts[i];
    }
    for (size_t i = j->n - 1, lo = k + 1; i-- > 0;) { /* upper hull */
        while (k >= lo && turn(&hull[k - 2], &hull[k - 1], &pts[i]) < eps)
            k--;
        hull[k++] = pts[i];
    }
    for (size_t i = 0; i + 1 < k; i++) /* the last repeats the first */
        j->outline[j->n_outline++] = hull[i].index;
    free(pts);
    free(hull);
    return 0;
}

/* ---- pictures ------------------------------------------------------------ */

typedef struct snapshot {
    double t;
    double *xy; /* outline, 2 per vertex */
} snapshot;

/* The ground as the library sees it: f(x) = -H(x, 0) for H = y - f(x). */
static int ground_height(const cdyn_system *sys, cdyn_ground g, double x, double *f)
{
    double h;
    if (cdyn_ground_evaluate(sys, g, (double[]){x, 0.0}, &h, NULL) != CDYN_OK)
        return -1;
    *f = -h;
    return 0;
}

static int write_picture(const char *path, const cdyn_system *sys, cdyn_ground g,
                         const jelly *j, const snapshot *snaps, int n_snaps,
                         const snapshot *squash,
                         const double *path_xy, size_t n_path, const double *x_last,
                         const params *p)
{
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (int k = 0; k < n_snaps; k++)
        for (size_t i = 0; i < j->n_outline; i++) {
            x0 = fmin(x0, snaps[k].xy[2 * i]), x1 = fmax(x1, snaps[k].xy[2 * i]);
            y1 = fmax(y1, snaps[k].xy[2 * i + 1]);
        }
    for (size_t i = 0; i < n_path; i++)
        x0 = fmin(x0, path_xy[2 * i]), x1 = fmax(x1, path_xy[2 * i]);
    x0 -= 0.4, x1 += 0.4;
    /* The ground, filled below its profile, a little wider than the window. */
    enum { GROUND_N = 400 };
    double ground[2 * (GROUND_N + 3)];
    for (int i = 0; i <= GROUND_N; i++) {
        double x = x0 - 0.1 + (x1 - x0 + 0.2) * i / GROUND_N;
        ground[2 * i] = x;
        if (ground_height(sys, g, x, &ground[2 * i + 1]))
            return -1;
        if (x >= x0 && x <= x1)
            y0 = fmin(y0, ground[2 * i + 1]);
    }
    y0 -= 0.3, y1 += 0.3;
    ground[2 * GROUND_N + 2] = x1 + 0.1, ground[2 * GROUND_N + 3] = y0 - 1;
    ground[2 * GROUND_N + 4] = x0 - 0.1, ground[2 * GROUND_N + 5] = y0 - 1;
    chart *c = chart_create(1100, 90 + 1084 * (y1 - y0) / (x1 - x0));
    chart_title(c, "Spring-dashpot jelly (%zu masses, %zu springs) dropped on a height-field "
                   "ground", j->n, j->n_springs);
    chart_caption(c, "ground: bicubic spline through %d samples (dots), S = %g N/m, c = %g N s/m, "
                     "mu = %g, v_s = %g m/s per mass; outlines at equal time steps",
                  PROFILE_N, p->ground_stiffness, p->ground_damping, p->friction,
                  p->friction_speed);
    chart_panel *panel = chart_panel_add(c, 1);
    chart_scene(panel);
    chart_x_range(panel, x0, x1);
    chart_y_range(panel, y0, y1);
    chart_polygon(panel, ground, GROUND_N + 3,
                  &(chart_style){.color = "#6b5533", .width = 2, .fill = "#d9c7a7"});
    for (int i = 0; i < PROFILE_N; i++) {
        double x = PROFILE_X0 + PROFILE_H * i;
        if (x >= x0 && x <= x1)
            chart_marker(panel, x, profile(x), &(chart_style){.color = "#3d2e18", .size = 2});
    }
    const chart_style path_style = {.color = "#555", .width = 1.2, .dash = "5,4"};
    const chart_style squash_style = {.color = "black", .width = 1.3, .dash = "4,3"};
    const chart_style spring_style = {.color = "#d89a9a", .width = 0.5};
    chart_path(panel, path_xy, n_path, &path_style);
    for (size_t k = 0; k < j->n_springs; k++) {
        const spring_rec *r = &j->springs[k];
        chart_segment(panel, x_last[2 * r->a], x_last[2 * r->a + 1], x_last[2 * r->b],
                      x_last[2 * r->b + 1], &spring_style);
    }
    for (int k = 0; k < n_snaps; k++) {
        char col[8];
        chart_ramp(n_snaps > 1 ? (double)k / (double)(n_snaps - 1) : 0.0, col);
        chart_polygon(panel, snaps[k].xy, j->n_outline,
                      &(chart_style){.color = col, .width = 1.8, .fill = col,
                                     .fill_opacity = 0.10});
    }
    chart_polygon(panel, squash->xy, j->n_outline, &squash_style);
    /* Time labels by the tops of the outlines, the last first (the jelly at
     * rest), then in time order as long as there is room. */
    for (int q = -1; q < n_snaps - 1; q++) {
        int k = q < 0 ? n_snaps - 1 : q;
        double top = -INFINITY, cx = 0;
        char col[8];
        chart_ramp(n_snaps > 1 ? (double)k / (double)(n_snaps - 1) : 0.0, col);
        for (size_t i = 0; i < j->n_outline; i++)
            if (snaps[k].xy[2 * i + 1] > top)
                top = snaps[k].xy[2 * i + 1], cx = snaps[k].xy[2 * i];
        chart_label(panel, cx, top, &(chart_style){.color = col}, "%.2f s", snaps[k].t);
    }
    double left = INFINITY, cy = 0;
    for (size_t i = 0; i < j->n_outline; i++)
        if (squash->xy[2 * i] < left)
            left = squash->xy[2 * i], cy = squash->xy[2 * i + 1];
    chart_label(panel, left, cy, NULL, "hardest landing, %.3f s", squash->t);
    chart_ramp_key(panel, "time (s)", 0, snaps[n_snaps - 1].t, CHART_RAMP_LINEAR, NULL);
    chart_key(panel, CHART_LINE, "outline at the largest spring energy", &squash_style);
    chart_key(panel, CHART_LINE, "path of the centre of mass", &path_style);
    chart_key(panel, CHART_LINE, "springs at the end", &spring_style);
    chart_scale_bar(panel, 0.5, "0.5 m");
    int bad = chart_save(c, path);
    chart_free(c);
    return bad;
}

enum { R_KIN, R_GRAV, R_ELASTIC, R_GROUND, R_TOTAL, R_NORMAL, R_FRICTION, R_CONTACTS, R_COUNT };

/* Energies (gravity and the total counted from the final height, so that
 * the total is the sum of the four curves drawn) and the contact forces. */
static int write_energy_chart(const char *path, const double *t, size_t n, double *const rec[])
{
    chart *c = chart_create(1000, 760);
    chart_title(c, "Jelly on a curved ground: energy and contact against time");
    chart_panel *top = chart_panel_add(c, 1), *bottom = chart_panel_add(c, 1);
    chart_panel_title(top, "energies (the total never rises: every force is conservative or "
                           "dissipative)");
    chart_y(top, "energy (J)", 0);
    chart_line(top, t, rec[R_KIN], n, "kinetic", NULL);
    chart_line(top, t, rec[R_GRAV], n, "gravity (0 at the final height)", NULL);
    chart_line(top, t, rec[R_ELASTIC], n, "springs", NULL);
    chart_line(top, t, rec[R_GROUND], n, "ground penalty S d^{2}/2", NULL);
    chart_line(top, t, rec[R_TOTAL], n, "total: the sum of the four",
               &(chart_style){.color = "black", .width = 2.2});
    chart_panel_title(bottom, "contact");
    chart_x(bottom, "time (s)", 0);
    chart_y(bottom, "ratio", 0);
    chart_line(bottom, t, rec[R_NORMAL], n, "ground normal force / weight",
               &(chart_style){.color = "#d62728", .width = 1.4});
    chart_line(bottom, t, rec[R_FRICTION], n, "friction force / weight",
               &(chart_style){.color = "#ff7f0e", .width = 1.4});
    chart_line(bottom, t, rec[R_CONTACTS], n, "masses in contact / 10",
               &(chart_style){.color = "#7f7f7f", .width = 1.2});
    int bad = chart_save(c, path);
    chart_free(c);
    return bad;
}

/* ---- the run ------------------------------------------------------------- */

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cdyn_status st_ = (call);                                                        \
        if (st_ != CDYN_OK) {                                                            \
            fprintf(stderr, "jelly_on_ground: %s failed: %s (%s)\n", #call,              \
                    cdyn_status_name(st_), cdyn_system_last_error(sys));                 \
            goto fail;                                                                   \
        }                                                                                \
    } while (0)

typedef struct measures {
    double kinetic, gravity, elastic, ground, total;
    double normal[3], friction[3];
    size_t contacts;
} measures;

static cdyn_status measure(const cdyn_system *sys, cdyn_force gravity, cdyn_ground g,
                           measures *m)
{
    cdyn_status st;
    double pot;
    if ((st = cdyn_system_get_kinetic_energy(sys, &m->kinetic)) ||
        (st = cdyn_system_get_potential_energy(sys, &pot)) ||
        (st = cdyn_force_get_energy(sys, gravity, &m->gravity)) ||
        (st = cdyn_ground_get_energy(sys, g, &m->ground)) ||
        (st = cdyn_ground_get_total_force(sys, g, m->normal, m->friction)) ||
        (st = cdyn_ground_get_contact_count(sys, g, &m->contacts)))
        return st;
    m->elastic = pot - m->gravity - m->ground;
    m->total = m->kinetic + pot;
    return CDYN_OK;
}

int main(int argc, char **argv)
{
    /* The friction speed: the masses that carry the resting jelly press on
     * the ground with N / m of a few hundred m/s^2 (the weight of 151 masses
     * on a handful), so friction's brake rate mu (N / m) / v_s needs
     * v_s = 0.05 m/s for dt = 1e-4 s (the run prints the figure). */
    params p = {
        .dt = 1e-4,
        .t_end = 6.0,
        .radius = 0.3,
        .spacing = 0.046,
        .mass = 1.0,
        .stiffness = 150.0,
        .damping = 2.0,
        .ground_stiffness = 3000.0,
        .ground_damping = 10.0,
        .friction = 0.6,
        .friction_speed = 0.05,
        .drop_x = -2.4,
        .clearance = 0.4,
        .speed = {0.8, 0.0},
        .snapshots = 12,
    };
    int rc = parse_args(argc, argv, &p);
    if (rc)
        return rc > 0 ? 0 : 2;
    if (p.radius < 2.0 * p.spacing || p.radius > 60.0 * p.spacing) {
        fprintf(stderr, "jelly_on_ground: --radius / --spacing must be between 2 and 60\n");
        return 2;
    }

    jelly j;
    if (jelly_build(&j, p.radius, p.spacing)) {
        fprintf(stderr, "jelly_on_ground: out of memory building the jelly\n");
        return 1;
    }
    const double g_acc = 9.81, m = p.mass / (double)j.n;
    long steps = lround(p.t_end / p.dt);
    size_t n_rec = (size_t)steps + 1;
    int exit_code = 1;
    cdyn_system *sys = NULL;
    cdyn_particle *handles = malloc(j.n * sizeof *handles);
    double *x = malloc(2 * j.n * sizeof *x);
    double *rec_t = malloc(n_rec * sizeof *rec_t), *path_xy = malloc(2 * n_rec * sizeof *path_xy);
    snapshot *snaps = calloc((size_t)p.snapshots, sizeof *snaps), squash = {0};
    double *rec[R_COUNT] = {0};
    int oom = !handles || !x || !rec_t || !path_xy || !snaps;
    for (int k = 0; k < R_COUNT; k++)
        oom |= !(rec[k] = malloc(n_rec * sizeof *rec[k]));
    for (int k = 0; !oom && k < p.snapshots; k++)
        oom |= !(snaps[k].xy = malloc(2 * j.n_outline * sizeof *snaps[k].xy));
    oom |= !(squash.xy = malloc(2 * j.n_outline * sizeof *squash.xy));
    if (oom) {
        fprintf(stderr, "jelly_on_ground: out of memory\n");
        goto fail;
    }

    CHECK(cdyn_system_create(2, &sys));
    CHECK(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4));
    /* The drop height: the clearance above the highest ground under the disc. */
    double drop[2] = {p.drop_x, -INFINITY};
    for (int i = 0; i <= 50; i++) {
        double xs = p.drop_x + p.radius * (2.0 * i / 50.0 - 1.0), f = profile(xs);
        double dy = sqrt(fmax(0.0, p.radius * p.radius - (xs - p.drop_x) * (xs - p.drop_x)));
        drop[1] = fmax(drop[1], f + dy + p.clearance);
    }
    for (size_t i = 0; i < j.n; i++) {
        double pos[2] = {drop[0] + j.x0[2 * i], drop[1] + j.x0[2 * i + 1]};
        CHECK(cdyn_particle_add(sys, m, pos, p.speed, &handles[i]));
    }
    for (size_t k = 0; k < j.n_springs; k++) {
        const spring_rec *r = &j.springs[k];
        double stiff = k < j.n_near ? p.stiffness : 0.5 * p.stiffness;
        cdyn_force f;
        CHECK(cdyn_force_add_spring(sys, handles[r->a], handles[r->b], stiff, p.damping, r->rest,
                                    &f));
    }
    cdyn_force gravity;
    CHECK(cdyn_force_add_gravity(sys, (double[]){0.0, -g_acc}, &gravity));

    /* The ground: a 2-D height field is a profile y = f(x), ny = 1. */
    double samples[PROFILE_N];
    for (int i = 0; i < PROFILE_N; i++)
        samples[i] = profile(PROFILE_X0 + PROFILE_H * i);
    cdyn_heightfield_desc desc;
    cdyn_heightfield_desc_init(&desc);
    desc.nx = PROFILE_N;
    desc.ny = 1;
    desc.origin[0] = PROFILE_X0;
    desc.spacing[0] = PROFILE_H;
    desc.samples = samples;
    desc.interpolation = CDYN_HEIGHTFIELD_BICUBIC;
    cdyn_ground ground;
    CHECK(cdyn_ground_add_heightfield(sys, &desc, &ground));
    CHECK(cdyn_ground_set_stiffness(sys, ground, p.ground_stiffness));
    CHECK(cdyn_ground_set_damping(sys, ground, p.ground_damping));
    CHECK(cdyn_ground_set_friction(sys, ground, p.friction));
    CHECK(cdyn_ground_set_friction_speed(sys, ground, p.friction_speed));

    printf("jelly_on_ground: a spring-dashpot jelly dropped on a curved ground\n");
    printf("  %zu masses of %.4g kg on a disc of radius %g m, %zu springs (%zu nearest, S = %g "
           "N/m; %zu next-nearest, S/2), dashpots D = %g N s/m\n",
           j.n, m, p.radius, j.n_springs, j.n_near, p.stiffness, j.n_springs - j.n_near,
           p.damping);
    printf("  ground: y = f(x), bicubic spline through %d samples on [%g, %g]; per mass S = %g "
           "N/m, c = %g N s/m, mu = %g, v_s = %g m/s\n",
           PROFILE_N, PROFILE_X0, PROFILE_X0 + PROFILE_H * (PROFILE_N - 1), p.ground_stiffness,
           p.ground_damping, p.friction, p.friction_speed);
    printf("  dropped with its centre at (%g, %g) m, velocity (%g, %g) m/s; RK4, dt = %g s, "
           "%.3g s\n\n", drop[0], drop[1], p.speed[0], p.speed[1], p.dt, p.t_end);

    /* The gravitational energy is shown relative to its final value later;
     * the run records its absolute value. */
    measures e0, e;
    CHECK(measure(sys, gravity, ground, &e0));
    const double weight = p.mass * g_acc;
    double worst_rise = 0, worst_rise_t = 0, prev_total = e0.total, max_elastic = -1;
    /* impulse of the ground (trapezoidal rule) over the run and over the
     * last second; momenta at the start of each */
    double impulse[2] = {0, 0}, impulse_last[2] = {0, 0}, f_prev[2] = {0, 0};
    double p_start[2], p_last[2] = {0, 0}, t_last = fmax(0.0, p.t_end - 1.0);
    CHECK(cdyn_system_get_momentum(sys, p_start));
    long print_every = lround(0.5 / p.dt);
    int next_snap = 0;
    printf("%6s %9s %9s %9s %9s %9s %8s %8s %8s\n", "t", "kinetic", "gravity", "springs",
           "ground", "total", "contacts", "N/Mg", "F_f/Mg");
    printf("%6s %9s %9s %9s %9s %9s %8s %8s %8s\n", "(s)", "(J)", "(J)", "(J)", "(J)", "(J)",
           "", "", "");
    for (long step = 0;; step++) {
        double t = (double)step * p.dt, c[2];
        CHECK(measure(sys, gravity, ground, &e));
        CHECK(cdyn_system_get_center_of_mass(sys, c, NULL));
        if (step > 0 && e.total - prev_total > worst_rise) {
            worst_rise = e.total - prev_total;
            worst_rise_t = t;
        }
        prev_total = e.total;
        size_t r = (size_t)step;
        rec_t[r] = t;
        rec[R_KIN][r] = e.kinetic;
        rec[R_GRAV][r] = e.gravity;
        rec[R_ELASTIC][r] = e.elastic;
        rec[R_GROUND][r] = e.ground;
        rec[R_TOTAL][r] = e.total;
        rec[R_NORMAL][r] = hypot(e.normal[0], e.normal[1]) / weight;
        rec[R_FRICTION][r] = hypot(e.friction[0], e.friction[1]) / weight;
        rec[R_CONTACTS][r] = (double)e.contacts / 10.0;
        path_xy[2 * r] = c[0], path_xy[2 * r + 1] = c[1];
        double fg[2] = {e.normal[0] + e.friction[0], e.normal[1] + e.friction[1]};
        for (int k = 0; k < 2 && step > 0; k++) {
            impulse[k] += 0.5 * p.dt * (f_prev[k] + fg[k]);
            if (t > t_last + 0.5 * p.dt)
                impulse_last[k] += 0.5 * p.dt * (f_prev[k] + fg[k]);
        }
        f_prev[0] = fg[0], f_prev[1] = fg[1];
        if (step == lround(t_last / p.dt))
            CHECK(cdyn_system_get_momentum(sys, p_last));
        if (e.elastic > max_elastic) { /* the hardest landing so far */
            max_elastic = e.elastic;
            CHECK(cdyn_system_get_positions(sys, x, 2 * j.n));
            squash.t = t;
            for (size_t i = 0; i < j.n_outline; i++) {
                squash.xy[2 * i] = x[2 * j.outline[i]];
                squash.xy[2 * i + 1] = x[2 * j.outline[i] + 1];
            }
        }
        if (step % print_every == 0 || step == steps)
            printf("%6.2f %9.5f %9.5f %9.5f %9.5f %9.5f %8zu %8.4f %8.4f\n", t, e.kinetic,
                   e.gravity, e.elastic, e.ground, e.total, e.contacts, rec[R_NORMAL][r],
                   rec[R_FRICTION][r]);
        long snap_step = lround((double)next_snap * (double)steps / (double)(p.snapshots - 1));
        if (next_snap < p.snapshots && step == snap_step) {
            CHECK(cdyn_system_get_positions(sys, x, 2 * j.n));
            snapshot *sn = &snaps[next_snap++];
            sn->t = t;
            for (size_t i = 0; i < j.n_outline; i++) {
                sn->xy[2 * i] = x[2 * j.outline[i]];
                sn->xy[2 * i + 1] = x[2 * j.outline[i] + 1];
            }
        }
        if (step == steps)
            break;
        cdyn_status st = cdyn_system_step(sys, p.dt);
        if (st != CDYN_OK) {
            fprintf(stderr, "jelly_on_ground: step %ld at t = %g failed: %s (%s); try a smaller "
                            "--dt\n", step, t, cdyn_status_name(st), cdyn_system_last_error(sys));
            goto fail;
        }
    }
    /* gravity, and so the total, relative to the end, so the curves share a scale */
    for (size_t r = 0; r < n_rec; r++) {
        rec[R_GRAV][r] -= e.gravity;
        rec[R_TOTAL][r] -= e.gravity;
    }

    /* The checks of the header comment. */
    double c[2], u[2], max_depth = 0, ke;
    CHECK(cdyn_system_get_center_of_mass(sys, c, NULL));
    CHECK(cdyn_system_get_momentum(sys, u));
    CHECK(cdyn_system_get_kinetic_energy(sys, &ke));
    for (size_t i = 0; i < j.n; i++) {
        double d;
        CHECK(cdyn_ground_get_penetration(sys, ground, handles[i], &d));
        max_depth = fmax(max_depth, d);
    }
    double released = e0.total - e.gravity; /* energy above the final height */
    printf("\nafter %.3g s:\n", p.t_end);
    printf("  energy: %.6f J at the drop, %.6f J at the end: %.2f%% of the %.4f J the fall "
           "released was dissipated (dashpots, ground damping, friction); kinetic %.2e J left\n",
           e0.total, e.total, 100.0 * (e0.total - e.total) / released, released, ke);
    printf("  largest rise of the total energy in one step: %.2e J at t = %.4f s, %.1e of the "
           "released energy (%s)\n",
           worst_rise, worst_rise_t, worst_rise / released,
           worst_rise <= 1e-6 * released ? "integrator error only: OK" : "TOO LARGE");
    double T = p.t_end, t_win = p.t_end - t_last;
    double bal[2] = {impulse[0] - (u[0] - p_start[0]), impulse[1] - weight * T - (u[1] - p_start[1])};
    printf("  impulse balance over the run: ground impulse (%.5f, %.5f) N s + M g T (0, %.5f) "
           "N s = (%.5f, %.5f) N s against the momentum change (%.5f, %.5f) N s: off by "
           "%.1e N s, %.1e of the ground impulse (the trapezoidal rule on the force sampled "
           "once per step, across the impacts; it shrinks with dt)\n",
           impulse[0], impulse[1], -weight * T, impulse[0], impulse[1] - weight * T,
           u[0] - p_start[0], u[1] - p_start[1], hypot(bal[0], bal[1]),
           hypot(bal[0], bal[1]) / hypot(impulse[0], impulse[1]));
    printf("  over the last %.3g s the ground pushed on average (%.5f, %.5f) N against the "
           "weight %.5f N (momentum change (%.2e, %.2e) N s)\n",
           t_win, impulse_last[0] / t_win, impulse_last[1] / t_win, weight, u[0] - p_last[0],
           u[1] - p_last[1]);
    double n_mag = hypot(e.normal[0], e.normal[1]);
    double per_mass = e.contacts ? n_mag / (double)e.contacts / m : 0.0;
    printf("  at the end: centre of mass (%.4f, %.4f) m, %zu masses in contact, deepest %.2f mm "
           "(a lone mass: m g / S = %.3f mm)\n",
           c[0], c[1], e.contacts, 1e3 * max_depth, 1e3 * m * g_acc / p.ground_stiffness);
    printf("  friction regularization: N / m = %.0f m/s^2 on the average contact, "
           "dt mu (N / m) / v_s = %.2f (%s 1: %s)\n",
           per_mass, p.dt * p.friction * per_mass / p.friction_speed,
           p.dt * p.friction * per_mass / p.friction_speed < 1 ? "below" : "above",
           p.dt * p.friction * per_mass / p.friction_speed < 1 ? "resolved by the step"
                                                              : "raise --vs or lower --dt");

    CHECK(cdyn_system_get_positions(sys, x, 2 * j.n));
    if (write_picture("jelly_on_ground.svg", sys, ground, &j, snaps, next_snap, &squash,
                      path_xy, n_rec, x, &p) ||
        write_energy_chart("jelly_on_ground_energy.svg", rec_t, n_rec, rec)) {
        fprintf(stderr, "jelly_on_ground: cannot write the pictures\n");
        goto fail;
    }
    printf("  wrote jelly_on_ground.svg and jelly_on_ground_energy.svg\n");
    exit_code = 0;

fail:
    cdyn_system_destroy(sys);
    if (snaps)
        for (int k = 0; k < p.snapshots; k++)
            free(snaps[k].xy);
    free(snaps);
    free(squash.xy);
    for (int k = 0; k < R_COUNT; k++)
        free(rec[k]);
    free(path_xy);
    free(rec_t);
    free(x);
    free(handles);
    jelly_free(&j);
    return exit_code;
}
