/* bead_on_parabola: a bead on the wire x^2 + 100 y = 0, both forms.
 *
 * A bead of mass m slides without friction on the parabola
 *
 *     c(x, y) = x^2 + 100 y = 0,
 *
 * given to the library as an implicit constraint: a few lines of user code
 * returning c, its gradient (2x, 100) and its Hessian [[2, 0], [0, 0]]
 * (parabola() below). Every force evaluation then solves
 *
 *     (grad c . grad c / m) lambda = -v^T Hess(c) v - grad c . F / m
 *                                    - ks c - kd grad c . v
 *
 * for the wire's force lambda grad c (Witkin's method).
 *
 * Which way is down. The curve is y = -x^2 / 100, which opens towards -y.
 * The classic form of this problem uses screen coordinates, y pointing DOWN, with gravity
 * m g [0, 1] along +y: there the wire is a bowl, and its parametric form
 * q'' = (-q q'^2 - 50 g q) / (2500 + q^2) is a restoring force. This example
 * keeps that equation and its convention: y points down, gravity is
 * +9.81 along y, and the height of the bead above the bottom of the bowl is
 * h = -y = x^2 / 100. (With y up and gravity along -y the same equation is a
 * hill and the bead slides off to infinity.)
 *
 * The bead starts at rest at x = 50 (h = 25) and oscillates between x = -50
 * and x = 50 (period about 18 s) with RK4, dt = 1e-3 s, twice: without drift
 * feedback (ks = kd = 0 in cdyn_solver_options), where the
 * integrator's error lets c drift away from 0 -- the drift of the implicit
 * form -- and with the library's default feedback
 * (ks = 100 /s^2, kd = 20 /s), which holds it.
 *
 * What to expect. With RK4 at dt = 1e-3 both errors are tiny (distances of
 * 1e-12 .. 1e-10 m on a 50 m bowl) but they behave differently. Without
 * feedback nothing pulls the bead back: each pass leaves it a little further
 * off the wire, on the same side, and the distance grows steadily (about as
 * t^1.8). With feedback the error is a fixed offset that follows the bead's
 * speed (the feedback terms, felt at RK4's off-wire intermediate stages, add
 * their own truncation error, larger than RK4's on this slow oscillation),
 * bounded at about 1e-11 m for ever. The unbounded drift passes the bounded
 * offset after about 55 s, so the run lasts 200 s (--time 20 shows the
 * first 20 s, where the feedback run is still the further off); a larger
 * --dt shows the same at larger sizes (both errors scale as dt^4).
 *
 * The parametric form, side by side. The same bead can be solved a second
 * way: in the generalized coordinate q of the parametrization (q, -q^2/100),
 * with Lagrange's equations. The library does that for a particle put on a
 * curve (cdyn_constraint_add_on_curve with CDYN_CURVE_PARABOLA, vertex at
 * the origin, axis1 = (1, 0), axis2 = (0, 1), coefficient a = -0.01, so
 * r(q) = (q, a q^2)): it integrates (q, q') with the generalized mass
 * m |r'|^2 = m (1 + 4 a^2 q^2) and force r' . (F - m r'' q'^2), which for
 * this wire is q'' = (-q q'^2 - 50 g q) / (2500 + q^2). Same
 * start, gravity, integrator and step. Its position is r(q) at every step,
 * so its distance from the wire is the round-off of evaluating
 * c = x^2 + 100 y at that point (about 1e-15 m here, never growing; zero
 * samples leave gaps in the log plots); its energy error is RK4's, as the
 * implicit runs'. The library's residuals cover implicit constraint rows
 * only, so for this run the example computes |c| / |grad c| and
 * |grad c . v| / |grad c| from the position and velocity itself.
 *
 * Writes into the current directory:
 *   bead_on_parabola.svg       |c|, the distance to the curve |c| / |grad c|
 *                              and the energy error against time, log
 *                              scale, all three runs
 *   bead_on_parabola_path.svg  the wire and the beads' paths, and their
 *                              signed distances from the wire against x
 * and prints the drift and energy figures of each run.
 *
 * Each way of solving is one function (run_implicit, run_parametric)
 * filling a common record, listed in METHODS.
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

/* ---- the wire: the user code the implicit constraint needs ---------------- */

/* c(x, y) = x^2 + 100 y, its gradient and its Hessian (row-major). */
static int parabola(const cdyn_system *sys, double t, int dim, const double *x, double *c,
                 double *gradient, double *hessian, double *c_t, double *grad_t, double *c_tt,
                 void *user)
{
    (void)sys, (void)t, (void)c_t, (void)grad_t, (void)c_tt;
    (void)dim; /* the system is 2-D */
    (void)user;
    *c = x[0] * x[0] + 100.0 * x[1];
    gradient[0] = 2.0 * x[0];
    gradient[1] = 100.0;
    hessian[0] = 2.0, hessian[1] = 0.0;
    hessian[2] = 0.0, hessian[3] = 0.0;
    return 0;
}

/* ---- parameters --------------------------------------------------------- */

typedef struct params {
    double dt;       /* s */
    double duration; /* s */
    double x0;       /* m, start (at rest, on the wire) */
    double mass;     /* kg */
    double gravity;  /* m/s^2, along +y (down) */
    cdyn_integrator integrator;
    const char *integrator_name;
} params;

static void usage(FILE *out, const params *d)
{
    fprintf(out,
            "usage: bead_on_parabola [options]\n"
            "A bead on the wire x^2 + 100 y = 0 (y down, gravity along +y) as an\n"
            "implicit constraint, without and with drift feedback, and in the parametric form\n"
            "(q, -q^2/100); writes bead_on_parabola.svg and bead_on_parabola_path.svg into the\n"
            "current directory.\n"
            "  --dt DT            step in seconds (default %g)\n"
            "  --time T           simulated time in seconds (default %g)\n"
            "  --x0 X             starting x (not 0), at rest on the wire (default %g)\n"
            "  --integrator NAME  rk4 | symplectic | verlet | rk45 | euler (default %s)\n"
            "  --help             this text\n",
            d->dt, d->duration, d->x0, d->integrator_name);
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
            fprintf(stderr, "bead_on_parabola: unknown option or missing value: %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        const char *val = argv[++i];
        int bad = 0;
        if (strcmp(a, "--dt") == 0) {
            bad = cli_parse_double(val, &p->dt) || !(p->dt > 0 && p->dt <= 1);
        } else if (strcmp(a, "--time") == 0) {
            bad = cli_parse_double(val, &p->duration) || !(p->duration > 0 && p->duration <= 1e4);
        } else if (strcmp(a, "--x0") == 0) {
            bad = cli_parse_double(val, &p->x0) || !(fabs(p->x0) <= 1000) || p->x0 == 0;
        } else if (strcmp(a, "--integrator") == 0) {
            bad = cli_parse_integrator(val, CLI_EXPLICIT_INTEGRATORS, &p->integrator,
                                      &p->integrator_name);
        } else {
            fprintf(stderr, "bead_on_parabola: unknown option %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        if (bad) {
            fprintf(stderr, "bead_on_parabola: bad value for %s: %s\n", a, val);
            return -1;
        }
    }
    if (p->dt * 10 > p->duration) {
        fprintf(stderr, "bead_on_parabola: --time must cover at least 10 steps\n");
        return -1;
    }
    return 0;
}

/* ---- what every method records ------------------------------------------ */

typedef struct record {
    size_t n;        /* samples, one per step and the start */
    double *t;       /* s */
    double *c;       /* |c(x)|, m^2 */
    double *dist;    /* distance to the wire, |c| / |grad c| (m) */
    double *speed;   /* speed across the wire, |grad c . v| / |grad c| (m/s) */
    double *energy;  /* |E(t) - E(0)| / E(0) */
    double *xy;      /* path, 2 per sample */
} record;

static void record_free(record *r)
{
    free(r->t);
    free(r->c);
    free(r->dist);
    free(r->speed);
    free(r->energy);
    free(r->xy);
    memset(r, 0, sizeof *r);
}

static int record_alloc(record *r, size_t n)
{
    memset(r, 0, sizeof *r);
    r->n = n;
    r->t = malloc(n * sizeof *r->t);
    r->c = malloc(n * sizeof *r->c);
    r->dist = malloc(n * sizeof *r->dist);
    r->speed = malloc(n * sizeof *r->speed);
    r->energy = malloc(n * sizeof *r->energy);
    r->xy = malloc(2 * n * sizeof *r->xy);
    if (!r->t || !r->c || !r->dist || !r->speed || !r->energy || !r->xy) {
        record_free(r);
        return -1;
    }
    return 0;
}

/* Energy with y down: kinetic + m g h, h = -y the height above the bottom. */
static double bead_energy(const params *p, const double *x, const double *v)
{
    return 0.5 * p->mass * (v[0] * v[0] + v[1] * v[1]) - p->mass * p->gravity * x[1];
}

/* ---- method 1: the implicit constraint (cdyn_constraint_add_implicit) ---- */

/* A method fills @p rec (allocated for the run's samples) and returns 0, or
 * prints why it failed and returns -1. */
typedef int (*method_fn)(const params *p, const void *arg, record *rec);

typedef struct implicit_arg {
    int feedback; /* 0: gains (0, 0); 1: the library's defaults */
} implicit_arg;

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cdyn_status st_ = (call);                                                         \
        if (st_ != CDYN_OK) {                                                             \
            fprintf(stderr, "bead_on_parabola: %s failed: %s (%s)\n", #call,              \
                    cdyn_status_name(st_), cdyn_system_last_error(sys));                  \
            goto fail;                                                                    \
        }                                                                                 \
    } while (0)

static int run_implicit(const params *p, const void *varg, record *rec)
{
    const implicit_arg *arg = varg;
    int rc = -1;
    cdyn_system *sys = NULL;
    CHECK(cdyn_system_create(2, &sys));
    CHECK(cdyn_system_set_integrator(sys, p->integrator));
    if (!arg->feedback) {
        cdyn_solver_options so;
        cdyn_solver_options_init(&so);
        so.ks = so.kd = 0.0;
        CHECK(cdyn_system_set_solver_options(sys, &so));
    }
    /* On the wire, at rest. */
    const double start[2] = {p->x0, -p->x0 * p->x0 / 100.0};
    cdyn_particle bead;
    cdyn_constraint wire;
    cdyn_force gravity;
    CHECK(cdyn_particle_add(sys, p->mass, start, NULL, &bead));
    CHECK(cdyn_constraint_add_implicit(sys, bead, parabola, NULL, &wire));
    CHECK(cdyn_force_add_gravity(sys, (double[]){0.0, p->gravity}, &gravity));

    double e0 = 0;
    for (size_t i = 0;; i++) {
        double x[2], v[2], c, grad[2], hess[4];
        CHECK(cdyn_particle_get_position(sys, bead, x));
        CHECK(cdyn_particle_get_velocity(sys, bead, v));
        CHECK(cdyn_system_get_time(sys, &rec->t[i]));
        parabola(NULL, 0.0, 2, x, &c, grad, hess, NULL, NULL, NULL, NULL);
        /* The library's residuals: |c| / |grad c| and |grad c . v| / |grad c|. */
        CHECK(cdyn_system_compute_constraint_residuals(sys, &rec->dist[i], &rec->speed[i]));
        double e = bead_energy(p, x, v);
        if (i == 0)
            e0 = e;
        rec->c[i] = fabs(c);
        rec->energy[i] = fabs(e - e0) / fabs(e0);
        rec->xy[2 * i] = x[0];
        rec->xy[2 * i + 1] = x[1];
        if (i + 1 == rec->n)
            break;
        cdyn_status st = cdyn_system_step(sys, p->dt);
        if (st != CDYN_OK) {
            fprintf(stderr, "bead_on_parabola: step %zu at t = %g failed: %s (%s)\n", i,
                    rec->t[i], cdyn_status_name(st), cdyn_system_last_error(sys));
            goto fail;
        }
    }
    rc = 0;
fail:
    cdyn_system_destroy(sys);
    return rc;
}

/* ---- method 2: the parametric form (cdyn_constraint_add_on_curve) ------- */

static int run_parametric(const params *p, const void *varg, record *rec)
{
    (void)varg;
    int rc = -1;
    cdyn_system *sys = NULL;
    CHECK(cdyn_system_create(2, &sys));
    CHECK(cdyn_system_set_integrator(sys, p->integrator));
    /* The wire's parametrization (q, -q^2/100): vertex at the origin, q along
     * x, the parabola y = a q^2 with a = -0.01. */
    cdyn_curve_desc wire_desc;
    cdyn_curve_desc_init(&wire_desc, CDYN_CURVE_PARABOLA);
    wire_desc.axis1[0] = 1.0, wire_desc.axis1[1] = 0.0;
    wire_desc.axis2[0] = 0.0, wire_desc.axis2[1] = 1.0;
    wire_desc.coefficient = -0.01;
    const double start[2] = {p->x0, -p->x0 * p->x0 / 100.0};
    cdyn_particle bead;
    cdyn_constraint wire;
    cdyn_force gravity;
    CHECK(cdyn_particle_add(sys, p->mass, start, NULL, &bead));
    CHECK(cdyn_constraint_add_on_curve(sys, bead, &wire_desc, &wire));
    CHECK(cdyn_force_add_gravity(sys, (double[]){0.0, p->gravity}, &gravity));

    double e0 = 0;
    for (size_t i = 0;; i++) {
        double x[2], v[2], c, grad[2], hess[4];
        CHECK(cdyn_particle_get_position(sys, bead, x));
        CHECK(cdyn_particle_get_velocity(sys, bead, v));
        CHECK(cdyn_system_get_time(sys, &rec->t[i]));
        parabola(NULL, 0.0, 2, x, &c, grad, hess, NULL, NULL, NULL, NULL);
        /* No implicit rows to report: the same measures, from x and v. */
        double gn = hypot(grad[0], grad[1]);
        rec->dist[i] = fabs(c) / gn;
        rec->speed[i] = fabs(grad[0] * v[0] + grad[1] * v[1]) / gn;
        double e = bead_energy(p, x, v);
        if (i == 0)
            e0 = e;
        rec->c[i] = fabs(c);
        rec->energy[i] = fabs(e - e0) / fabs(e0);
        rec->xy[2 * i] = x[0];
        rec->xy[2 * i + 1] = x[1];
        if (i + 1 == rec->n)
            break;
        cdyn_status st = cdyn_system_step(sys, p->dt);
        if (st != CDYN_OK) {
            fprintf(stderr, "bead_on_parabola: step %zu at t = %g failed: %s (%s)\n", i,
                    rec->t[i], cdyn_status_name(st), cdyn_system_last_error(sys));
            goto fail;
        }
    }
    rc = 0;
fail:
    cdyn_system_destroy(sys);
    return rc;
}

/* The methods, run in this order; label, short label (table columns),
 * function, argument, colour, dash. */
static const implicit_arg NO_FEEDBACK = {0}, FEEDBACK = {1};

static const struct method {
    const char *label;
    const char *short_label;
    method_fn run;
    const void *arg;
    const char *color;
    const char *dash;
} METHODS[] = {
    {"implicit, no feedback (ks = kd = 0)", "no fb", run_implicit, &NO_FEEDBACK, "#d62728",
     NULL},
    {"implicit, default feedback (ks = 100, kd = 20)", "fb", run_implicit, &FEEDBACK, "#1f77b4",
     NULL},
    {"parametric (q, -q^2/100), cdyn_constraint_add_on_curve", "param", run_parametric, NULL,
     "#2ca02c", NULL},
};
/* The implicit runs the drift analysis compares: without and with feedback. */
enum { M_NO_FEEDBACK = 0, M_FEEDBACK = 1, M_PARAMETRIC = 2 };
enum { N_METHODS = sizeof METHODS / sizeof METHODS[0] };

/* ---- pictures ----------------------------------------------------------- */

/* One log-scale panel: one quantity (offset @p field in record) of every
 * run, through each pixel column's largest value (the envelope of a noisy
 * error). At most nine decades: the rare tiny values (the bead passing
 * x = 0) would squeeze the rest. */
static void log_panel(chart *c, const char *title, const record *recs, size_t field)
{
    chart_panel *p = chart_panel_add(c, 1);
    chart_panel_title(p, "%s", title);
    chart_y(p, NULL, CHART_LOG);
    double lo = INFINITY, hi = 0;
    for (int k = 0; k < N_METHODS; k++) {
        const double *y = *(double *const *)((const char *)&recs[k] + field);
        for (size_t i = 0; i < recs[k].n; i++)
            hi = fmax(hi, y[i]), lo = y[i] > 0 ? fmin(lo, y[i]) : lo;
        chart_line(p, recs[k].t, y, recs[k].n, NULL,
                   &(chart_style){.color = METHODS[k].color, .envelope = 1});
    }
    if (hi > 0 && lo < pow(10.0, ceil(log10(hi)) - 9))
        chart_y_range(p, pow(10.0, ceil(log10(hi)) - 9), NAN);
    if (field == offsetof(record, energy))
        chart_x(p, "time (s)", 0);
}

/* A strip above the panels that names the methods. */
static void methods_key(chart *c, double weight, const char *extra[N_METHODS])
{
    chart_panel *p = chart_panel_add(c, weight);
    chart_scene(p);
    for (int k = 0; k < N_METHODS; k++) {
        char label[200];
        snprintf(label, sizeof label, "%s%s", METHODS[k].label, extra ? extra[k] : "");
        chart_key(p, CHART_LINE, label, &(chart_style){.color = METHODS[k].color});
    }
}

static int write_drift_chart(const char *path, const record *recs, const params *p)
{
    chart *c = chart_create(1000, 1000);
    chart_title(c, "Bead on the parabola x^{2} + 100 y = 0, implicit and parametric forms (%s, "
                   "dt = %g s): drift", p->integrator_name, p->dt);
    methods_key(c, 0.3, NULL);
    log_panel(c, "|c(x)| = |x^{2} + 100 y| (m^{2})", recs, offsetof(record, c));
    log_panel(c, "distance to the wire |c| / |grad c| (m; implicit runs: "
                 "cdyn_system_compute_constraint_residuals)", recs, offsetof(record, dist));
    log_panel(c, "relative energy error |E(t) - E(0)| / E(0)", recs, offsetof(record, energy));
    int bad = chart_save(c, path);
    chart_free(c);
    return bad;
}

/* Signed distance of (x, y) from the wire, c / |grad c| (m), positive on
 * the side c > 0 (below the wire, y down). */
static double offset(const double *xy)
{
    double c, grad[2], hess[4];
    parabola(NULL, 0.0, 2, xy, &c, grad, hess, NULL, NULL, NULL, NULL);
    return c / hypot(grad[0], grad[1]);
}

/* Top: the wire and the beads' paths drawn to scale with the height
 * h = -y upwards (y points down). Bottom, on the same x axis: each path's
 * signed distance from the wire against x, the only way to see it leave
 * the wire. */
static int write_path_picture(const char *path, const record *recs, const params *p)
{
    double xmax = 1.25 * fabs(p->x0) + 1e-9, hmax = xmax * xmax / 100.0;
    double *dist = malloc(recs[0].n * sizeof *dist), *x = malloc(recs[0].n * sizeof *x);
    chart *c = chart_create(1000, 1040);
    chart_title(c, "Bead on the wire x^{2} + 100 y = 0 with y pointing down: gravity %g m/s^{2} "
                   "along +y (%s, dt = %g s, %g s)", p->gravity, p->integrator_name, p->dt,
                recs[0].t[recs[0].n - 1]);
    char extra[N_METHODS][64];
    const char *extras[N_METHODS];
    for (int m = 0; m < N_METHODS; m++) {
        double most = 0;
        for (size_t i = 0; i < recs[m].n; i++)
            most = fmax(most, fabs(offset(&recs[m].xy[2 * i])));
        snprintf(extra[m], sizeof extra[m], ": largest |distance| %.2g m", most);
        extras[m] = extra[m];
    }
    methods_key(c, 0.22, extras);
    chart_panel *top = chart_panel_add(c, 1.4), *bottom = chart_panel_add(c, 1);
    chart_panel_title(top, "the wire and the paths, to scale (dots: the bead at 41 equal "
                           "intervals)");
    chart_equal(top);
    chart_x(top, "x (m)", 0);
    chart_y(top, "height h = -y (m)", 0);
    chart_x_range(top, -xmax, xmax);
    chart_y_range(top, -0.05 * hmax, 1.25 * hmax);
    double wire[2 * 201];
    for (int i = 0; i <= 200; i++) {
        double wx = -xmax + 2 * xmax * i / 200.0;
        wire[2 * i] = wx, wire[2 * i + 1] = wx * wx / 100.0;
    }
    const chart_style wire_style = {.color = "#bbb", .width = 7};
    chart_path(top, wire, 201, &wire_style);
    chart_key(top, CHART_LINE, "the wire", &wire_style);
    chart_panel_title(bottom, "signed distance of the paths from the wire (> 0: below the wire, "
                              "outside the bowl)");
    chart_x(bottom, "x (m)", 0);
    chart_y(bottom, "c / |grad c| (m)", 0);
    chart_x_range(bottom, -xmax, xmax);
    for (int m = 0; m < N_METHODS && dist && x; m++) {
        const record *r = &recs[m];
        size_t stride = r->n > 4000 ? r->n / 4000 : 1, k = 0;
        for (size_t i = 0; i < r->n; i += stride, k++) /* the heights, drawn first */
            x[k] = r->xy[2 * i], dist[k] = -r->xy[2 * i + 1];
        chart_line(top, x, dist, k, NULL, &(chart_style){.color = METHODS[m].color, .width = 1});
        for (size_t i = 0; i < r->n; i++)
            x[i] = r->xy[2 * i], dist[i] = offset(&r->xy[2 * i]);
        chart_line(bottom, x, dist, r->n, NULL,
                   &(chart_style){.color = METHODS[m].color, .width = 0.6, .opacity = 0.8});
    }
    const record *r0 = &recs[0];
    for (int j = 0; j <= 40; j++) {
        size_t i = (size_t)lround((double)(r0->n - 1) * j / 40.0);
        char col[8];
        chart_ramp(j / 40.0, col);
        chart_marker(top, r0->xy[2 * i], -r0->xy[2 * i + 1], &(chart_style){.color = col,
                                                                            .size = 5});
    }
    chart_ramp_key(top, "time (s)", 0, r0->t[r0->n - 1], CHART_RAMP_LINEAR, NULL);
    double ax = -0.85 * xmax, ay = 1.05 * hmax, al = 0.25 * hmax;
    const chart_style arrow = {.width = 2};
    chart_segment(top, ax, ay, ax, ay - al, &arrow);
    chart_segment(top, ax, ay - al, ax - 0.015 * xmax, ay - 0.8 * al, &arrow);
    chart_segment(top, ax, ay - al, ax + 0.015 * xmax, ay - 0.8 * al, &arrow);
    chart_label(top, ax, ay - 0.5 * al, NULL, "g (along +y)");
    int bad = !dist || !x || chart_save(c, path) != 0;
    chart_free(c);
    free(dist);
    free(x);
    return bad ? -1 : 0;
}

/* ---- main --------------------------------------------------------------- */

int main(int argc, char **argv)
{
    params p = {
        .dt = 1e-3,
        .duration = 200.0,
        .x0 = 50.0,
        .mass = 1.0,
        .gravity = 9.81,
        .integrator = CDYN_INTEGRATOR_RK4,
        .integrator_name = "rk4",
    };
    int rc = parse_args(argc, argv, &p);
    if (rc)
        return rc > 0 ? 0 : 2;
    long steps = lround(p.duration / p.dt);
    size_t n = (size_t)steps + 1;

    printf("bead_on_parabola: a bead on the wire c(x, y) = x^2 + 100 y = 0, implicit "
           "and parametric forms\n");
    printf("  y points down (screen coordinates): gravity %g m/s^2 along +y, the "
           "wire is a bowl y = -x^2 / 100\n", p.gravity);
    printf("  bead of %g kg released at rest at (%g, %g); %s, dt = %g s, %ld steps (%g s)\n",
           p.mass, p.x0, -p.x0 * p.x0 / 100.0, p.integrator_name, p.dt, steps,
           (double)steps * p.dt);
    printf("  |c| in m^2; distance = |c| / |grad c| (m) and speed across the wire "
           "|grad c . v| / |grad c| (m/s)\n  from cdyn_system_compute_constraint_residuals "
           "(implicit runs; the parametric run has no implicit rows:\n  computed from its x "
           "and v); energy error relative to E(0) = m g h(0)\n");
    printf("  parametric: cdyn_constraint_add_on_curve, CDYN_CURVE_PARABOLA r(q) = (q, a q^2), "
           "a = -0.01\n\n");

    int exit_code = 1;
    record recs[N_METHODS];
    memset(recs, 0, sizeof recs);
    for (int k = 0; k < N_METHODS; k++)
        if (record_alloc(&recs[k], n)) {
            fprintf(stderr, "bead_on_parabola: out of memory\n");
            goto done;
        }
    for (int k = 0; k < N_METHODS; k++)
        if (METHODS[k].run(&p, METHODS[k].arg, &recs[k]))
            goto done;

    /* The table: ten intervals, each run's largest |c| and distance in the
     * interval ending at t (the instantaneous values wobble with the bead). */
    printf("largest |c| (m^2) and distance (m) over each interval ending at t; x at t:\n");
    printf("%8s %9s", "t (s)", "x (m)");
    for (int k = 0; k < N_METHODS; k++) {
        char hc[32], hd[32];
        snprintf(hc, sizeof hc, "|c| %s", METHODS[k].short_label);
        snprintf(hd, sizeof hd, "dist %s", METHODS[k].short_label);
        printf("   %-10s %-10s", hc, hd);
    }
    printf("\n");
    size_t from = 0;
    for (int row = 0; row <= 10; row++) {
        size_t to = (size_t)lround((double)(n - 1) * row / 10.0);
        printf("%8.2f %9.4f", recs[0].t[to], recs[0].xy[2 * to]);
        for (int k = 0; k < N_METHODS; k++) {
            double wc = 0, wd = 0;
            for (size_t i = from; i <= to; i++)
                wc = fmax(wc, recs[k].c[i]), wd = fmax(wd, recs[k].dist[i]);
            printf("   %10.2e %10.2e", wc, wd);
        }
        printf("\n");
        from = to;
    }
    printf("\nafter %g s:\n", recs[0].t[n - 1]);
    for (int k = 0; k < N_METHODS; k++) {
        const record *r = &recs[k];
        double worst_c = 0, worst_d = 0, worst_v = 0, worst_e = 0;
        for (size_t i = 0; i < n; i++) {
            worst_c = fmax(worst_c, r->c[i]);
            worst_d = fmax(worst_d, r->dist[i]);
            worst_v = fmax(worst_v, r->speed[i]);
            worst_e = fmax(worst_e, r->energy[i]);
        }
        printf("  %s:\n", METHODS[k].label);
        printf("    final |c| %.3e m^2, distance %.3e m, speed across %.3e m/s, energy error "
               "%.3e\n", r->c[n - 1], r->dist[n - 1], r->speed[n - 1], r->energy[n - 1]);
        printf("    worst |c| %.3e m^2, distance %.3e m, speed across %.3e m/s, energy error "
               "%.3e\n", worst_c, worst_d, worst_v, worst_e);
    }
    /* How the drift without feedback grows: the exponent p of t^p between
     * the largest distances of the second and the fourth quarter of the run,
     * and when it first exceeds the largest distance with feedback. */
    {
        double q2 = 0, q4 = 0, worst_fb = 0, t_cross = -1;
        for (size_t i = 0; i < n; i++) {
            if (4 * i >= n && 4 * i < 2 * n)
                q2 = fmax(q2, recs[M_NO_FEEDBACK].dist[i]);
            if (4 * i >= 3 * n)
                q4 = fmax(q4, recs[M_NO_FEEDBACK].dist[i]);
            worst_fb = fmax(worst_fb, recs[M_FEEDBACK].dist[i]);
        }
        for (size_t i = 0; i < n && t_cross < 0; i++)
            if (recs[M_NO_FEEDBACK].dist[i] > worst_fb)
                t_cross = recs[M_NO_FEEDBACK].t[i];
        printf("  without feedback the distance keeps growing, about as t^%.2g (largest in the "
               "second and in the last quarter of the run)\n", log(q4 / q2) / log(2.0));
        if (t_cross >= 0)
            printf("  it first exceeds the largest distance with feedback (%.3g m) at t = %.4g "
                   "s\n", worst_fb, t_cross);
        else
            printf("  it stays below the largest distance with feedback (%.3g m) in this "
                   "run: run longer (--time)\n", worst_fb);
        printf("  final distance without / with feedback: %.3g times\n",
               recs[M_NO_FEEDBACK].dist[n - 1] / fmax(recs[M_FEEDBACK].dist[n - 1], 1e-300));
    }
    /* The parametric form: on the wire to round-off, for ever; and the
     * same motion as the implicit one. */
    {
        const record *rp = &recs[M_PARAMETRIC];
        double first = 0, last = 0, worst = 0, worst_nf = 0, worst_fb = 0, apart = 0;
        for (size_t i = 0; i < n; i++) {
            if (4 * i < n)
                first = fmax(first, rp->dist[i]);
            if (4 * i >= 3 * n)
                last = fmax(last, rp->dist[i]);
            worst = fmax(worst, rp->dist[i]);
            worst_nf = fmax(worst_nf, recs[M_NO_FEEDBACK].dist[i]);
            worst_fb = fmax(worst_fb, recs[M_FEEDBACK].dist[i]);
            apart = fmax(apart, hypot(rp->xy[2 * i] - recs[M_NO_FEEDBACK].xy[2 * i],
                                      rp->xy[2 * i + 1] - recs[M_NO_FEEDBACK].xy[2 * i + 1]));
        }
        printf("  parametric form: largest distance from the wire %.3g m (round-off of c at "
               "|y| <= %g m), %.3g in the first and %.3g in the last quarter: it does not grow\n",
               worst, p.x0 * p.x0 / 100.0, first, last);
        printf("  largest distance implicit without feedback / parametric: %.3g times; with "
               "feedback / parametric: %.3g times\n", worst_nf / fmax(worst, 1e-300),
               worst_fb / fmax(worst, 1e-300));
        printf("  the parametric and the implicit (no feedback) bead are at most %.3g m apart "
               "(one motion solved two ways:\n  the difference is the integrator's error)\n",
               apart);
    }

    if (write_drift_chart("bead_on_parabola.svg", recs, &p) ||
        write_path_picture("bead_on_parabola_path.svg", recs, &p)) {
        fprintf(stderr, "bead_on_parabola: cannot write the pictures\n");
        goto done;
    }
    printf("  wrote bead_on_parabola.svg and bead_on_parabola_path.svg\n");
    exit_code = 0;
done:
    for (int k = 0; k < N_METHODS; k++)
        record_free(&recs[k]);
    return exit_code;
}
