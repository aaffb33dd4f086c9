/* roller_coaster: a cart on a closed 3-D spline track with a vertical loop
 * (the parametric form of a constraint, on a spline).
 *
 * The track is a closed C2 cubic spline (CDYN_CURVE_SPLINE,
 * CDYN_SPLINE_CLOSED) through control points 1 m apart, placed at equal
 * distances along a centre line designed in pieces that join with the same
 * tangent and, except where noted, the same curvature (x east, y north,
 * z up, metres; the cart runs anticlockwise seen from above):
 *
 *   drop      from the top at (0, 0, 20) east, z = 1 + 19 S(1 - x / 42),
 *             S(u) = 6u^5 - 15u^4 + 10u^3 (zero slope and curvature at
 *             both ends)
 *   loop      a vertical loop shaped so that riders feel a constant 3.5 g:
 *             the curvature kappa = g (G - cos theta) / v^2 (theta the climb
 *             angle, v the design speed at that height) with G ramping from
 *             1 at the entry (kappa = 0, no jump) to 3.5 within 8 m; the
 *             second half mirrors the first, the top is at z = 14.5 with a
 *             radius of 2.7 m. Meanwhile the track moves 4 m north so that
 *             the exit passes beside the entry. A tall "clothoid" loop, as
 *             real coasters have: a circle that the cart clears at this
 *             speed would give at least 6 g at its bottom
 *   camelback an 8 m hill, 56 m long, z = 8 (4u(1 - u))^3: "airtime"
 *   climb     up to z = 9.5 over 30 m (S again)
 *   turn 1    a half turn to the left, 36 m across, heading
 *             theta(u) = pi u - sin(2 pi u) / 2 so that the curvature rises
 *             from 0 and falls back to 0 (no jump in the sideways push)
 *   return    west along y = 40 with a 5 m dip
 *   turn 2    the same half turn, 40 m across, climbing from 10 m to 20 m
 *   top       8 m level at z = 20 back to the start
 *
 * The cart (500 kg) starts at the top with speed v0 = 3 m/s and rides the
 * spline in its generalized coordinate q (cdyn_constraint_add_on_curve):
 * the library integrates (q, q') with the mass m |r'|^2 and the force
 * r' . (F - m r'' q'^2), so the cart is on the track to round-off. It is
 * held bilaterally, as a real coaster's running, side and up-stop wheels
 * hold it: it cannot leave the track, and the track's force on it (the
 * normal force N, cdyn_constraint_get_force after cdyn_system_evaluate at
 * the committed state) may point either way. There is no friction, so the
 * speed at height h must be sqrt(v0^2 + 2 g (h0 - h)); the run checks that
 * and the energy at every step, and that N does no work (N . v = 0).
 *
 * What riders feel. The only forces on a rider are gravity and the seat's
 * push, so the felt acceleration ("g-force") is N / (m g), in g. Its part
 * along the rider's up is the vertical g (1 at rest on level track, 0
 * weightless, negative: lifted out of the seat against the lap bar, where a
 * real cart's up-stop wheels take the load); the part across is the
 * lateral g. The rider's up is +z made perpendicular to the track, except
 * in the loop, where it turns with the loop (towards its centre), as the
 * design prescribes. The track is not banked, so the turns show lateral g.
 *
 * RK4, dt = 1e-3 s, two laps; the library ends RK4's substeps on the
 * spline's knots, where the cubic's third derivative jumps
 * (docs/parametric.md).
 *
 * Writes into the current directory:
 *   roller_coaster.svg         the track to scale in an axonometric view,
 *                              coloured by the cart's speed, with the cart
 *                              at eight times of the first lap and where
 *                              riders feel negative g; the plan; the loop
 *                              close up with the cart every 0.25 s
 *   roller_coaster_energy.svg  kinetic, potential and total energy, the
 *                              felt g (vertical, lateral, |N| / (m g)) and
 *                              the relative energy and speed errors,
 *                              against time
 * and prints the track length (cdyn_curve_arc_length), the lap time, the
 * speed range, the largest energy and speed errors, and what riders feel on
 * each piece of the track.
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

#define PI 3.14159265358979323846

/* ---- parameters --------------------------------------------------------- */

typedef struct params {
    double v0;       /* m/s, launch speed at the top */
    double dt;       /* s */
    double laps;     /* laps to ride */
    double spacing;  /* m between control points */
    double mass;     /* kg */
    double gravity;  /* m/s^2, along -z */
} params;

static void usage(FILE *out, const params *d)
{
    fprintf(out,
            "usage: roller_coaster [options]\n"
            "A cart on a closed 3-D spline track with a vertical loop (RK4, gravity along -z,\n"
            "no friction); writes roller_coaster.svg and roller_coaster_energy.svg into the\n"
            "current directory.\n"
            "  --v0 V        launch speed at the top in m/s, >= 0.5 (default %g)\n"
            "  --dt DT       step in seconds (default %g)\n"
            "  --laps N      laps to ride, 1 to 20 (default %g)\n"
            "  --spacing S   metres between the spline's control points, 0.5 to 6 (default %g)\n"
            "  --help        this text\n",
            d->v0, d->dt, d->laps, d->spacing);
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
            fprintf(stderr, "roller_coaster: unknown option or missing value: %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        const char *val = argv[++i];
        int bad = 0;
        if (strcmp(a, "--v0") == 0)
            bad = cli_parse_double(val, &p->v0) || !(p->v0 >= 0.5 && p->v0 <= 50);
        else if (strcmp(a, "--dt") == 0)
            bad = cli_parse_double(val, &p->dt) || !(p->dt >= 1e-5 && p->dt <= 0.05);
        else if (strcmp(a, "--laps") == 0)
            bad = cli_parse_double(val, &p->laps) || !(p->laps >= 1 && p->laps <= 20);
        else if (strcmp(a, "--spacing") == 0)
            bad = cli_parse_double(val, &p->spacing) || !(p->spacing >= 0.5 && p->spacing <= 6);
        else {
            fprintf(stderr, "roller_coaster: unknown option %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        if (bad) {
            fprintf(stderr, "roller_coaster: bad value for %s: %s\n", a, val);
            return -1;
        }
    }
    return 0;
}

/* ---- the track: a centre line in pieces --------------------------------- */

/* The design: heights (m), lengths (m), and the speeds the loop is shaped
 * for (those of a cart launched at V_DESIGN from H_TOP). */
static const double H_TOP = 20.0, Z_LOW = 1.0, TOP_X = -8.0, TOP_LEN = 8.0;
static const double DROP_LEN = 42.0, RUN_LEN = 4.0, LOOP_SHIFT = 4.0;
static const double LOOP_G = 3.5, LOOP_RAMP = 8.0, V_DESIGN = 3.0, G_DESIGN = 9.81;
static const double CAMEL_LEN = 56.0, CAMEL_H = 8.0;
static const double CLIMB_LEN = 30.0, CLIMB_Z = 9.5;
static const double TURN1_WIDTH = 36.0, TURN1_Z = 10.0, DIP = 5.0;

/* 0 at u = 0, 1 at u = 1, with zero slope and curvature at both ends. */
static double smootherstep(double u)
{
    return u * u * u * (u * (6.0 * u - 15.0) + 10.0);
}

/* A hill of height 1 at u = 1/2, zero slope and curvature at both ends. */
static double bump(double u)
{
    double w = 4.0 * u * (1.0 - u);
    return w * w * w;
}

/* The densely sampled centre line, built piece after piece: points, the
 * rider's up there (before it is made perpendicular to the tangent), and
 * where each piece starts. */
enum { MAX_PIECES = 16 };

typedef struct line {
    double *x, *up; /* 3 doubles per point */
    size_t n, cap;
    size_t piece_start[MAX_PIECES + 1];
    const char *piece_name[MAX_PIECES];
    int n_pieces;
    int oom;
} line;

static void line_add(line *l, double x, double y, double z, const double up[3])
{
    if (l->oom)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8192;
        double *nx = realloc(l->x, 3 * cap * sizeof *nx);
        if (nx)
            l->x = nx;
        double *nu = nx ? realloc(l->up, 3 * cap * sizeof *nu) : NULL;
        if (!nu) {
            l->oom = 1;
            return;
        }
        l->up = nu;
        l->cap = cap;
    }
    double *p = &l->x[3 * l->n], *u = &l->up[3 * l->n];
    p[0] = x, p[1] = y, p[2] = z;
    memcpy(u, up, 3 * sizeof *u);
    l->n++;
}

static void line_piece(line *l, const char *name)
{
    l->piece_start[l->n_pieces] = l->n ? l->n - 1 : 0;
    l->piece_name[l->n_pieces++] = name;
}

static const double UP_Z[3] = {0.0, 0.0, 1.0};
enum { DENSE = 4000 };

/* Along x (direction @p dir = +1 or -1) by @p len, height z0 + dz f(u). */
static void piece_profile(line *l, const char *name, double dir, double len, double dz,
                          double (*f)(double))
{
    line_piece(l, name);
    const double *a = &l->x[3 * (l->n - 1)];
    double x0 = a[0], y0 = a[1], z0 = a[2];
    for (int i = 1; i <= DENSE; i++) {
        double u = (double)i / DENSE;
        line_add(l, x0 + dir * len * u, y0, z0 + dz * (f ? f(u) : u), UP_Z);
    }
}

static double zero(double u)
{
    (void)u;
    return 0.0;
}

static double dip(double u)
{
    return -bump(u);
}

/* The loop, heading +x, in the x-z plane: the curvature is chosen so that
 * riders feel (along the loop's inward normal, the rider's up) a vertical g
 * ramping from 1 at the entry to LOOP_G within LOOP_RAMP metres and LOOP_G
 * from there to the top: kappa = g (G - cos theta) / v^2 with v^2 = V_DESIGN^2
 * + 2 g (H_TOP - z) and theta the climb angle. The second half mirrors the
 * first. Meanwhile y moves LOOP_SHIFT to the left (smootherstep in arc
 * length) so that the exit passes beside the entry. */
static void piece_loop(line *l)
{
    line_piece(l, "loop");
    const double *a = &l->x[3 * (l->n - 1)];
    const double x0 = a[0], y0 = a[1], z0 = a[2];
    double ds = 1e-3;
    /* First half, to the top (theta = pi), with arc length. */
    size_t cap = 200000, m = 0;
    double *h = malloc(4 * cap * sizeof *h); /* x, z, theta, s */
    if (!h) {
        l->oom = 1;
        return;
    }
    double th = 0.0, x = 0.0, z = z0, s = 0.0;
    h[0] = x, h[1] = z, h[2] = th, h[3] = s;
    while (th < PI && m + 1 < cap) {
        double v2 = V_DESIGN * V_DESIGN + 2.0 * G_DESIGN * (H_TOP - z);
        double g = 1.0 + (LOOP_G - 1.0) * 0.5 * (1.0 - cos(PI * fmin(s / LOOP_RAMP, 1.0)));
        double kappa = G_DESIGN * (g - cos(th)) / v2;
        double dth = kappa * ds;
        if (th + dth > PI) { /* land on the top exactly */
            ds *= (PI - th) / dth;
            dth = PI - th;
        }
        x += cos(th + 0.5 * dth) * ds;
        z += sin(th + 0.5 * dth) * ds;
        th += dth, s += ds;
        m++;
        h[4 * m] = x, h[4 * m + 1] = z, h[4 * m + 2] = th, h[4 * m + 3] = s;
    }
    double half = s, xt = x;
    /* Both halves, every tenth sample (1 cm apart). */
    for (size_t k = 1; k <= 2 * m; k++) {
        if (k % 10 && k != m && k != 2 * m)
            continue;
        size_t i = k <= m ? k : 2 * m - k; /* mirror: x -> 2 xt - x, theta -> 2 pi - theta */
        double px = k <= m ? h[4 * i] : 2.0 * xt - h[4 * i], pz = h[4 * i + 1];
        double pth = k <= m ? h[4 * i + 2] : 2.0 * PI - h[4 * i + 2];
        double ps = k <= m ? h[4 * i + 3] : 2.0 * half - h[4 * i + 3];
        double up[3] = {-sin(pth), 0.0, cos(pth)};
        line_add(l, x0 + px, y0 + LOOP_SHIFT * smootherstep(ps / (2.0 * half)), pz, up);
    }
    free(h);
}

/* A half turn to the left, from heading +x (@p dir = 1) or -x (-1) to the
 * opposite, ending @p width to the left of its start at the same x, the
 * height going to @p z1 by smootherstep. The heading is
 * theta(u) = pi u - sin(2 pi u) / 2 (u = s / L), so the curvature
 * (2 pi / L) sin^2(pi u) rises from 0 and falls back to 0: no jump in the
 * sideways force at either end. */
static void piece_half_turn(line *l, const char *name, double dir, double width, double z1)
{
    line_piece(l, name);
    const double *a = &l->x[3 * (l->n - 1)];
    const double x0 = a[0], y0 = a[1], z0 = a[2];
    double *xy = malloc(2 * (DENSE + 1) * sizeof *xy);
    if (!xy) {
        l->oom = 1;
        return;
    }
    /* Unit length first (midpoint rule, 20 substeps a sample), then scaled
     * so that the offset is exactly width. */
    double x = 0.0, y = 0.0;
    xy[0] = xy[1] = 0.0;
    for (int i = 1; i <= DENSE; i++) {
        for (int k = 0; k < 20; k++) {
            double u = ((double)(i - 1) + (k + 0.5) / 20.0) / DENSE;
            double th = PI * u - 0.5 * sin(2.0 * PI * u);
            x += cos(th) / (20.0 * DENSE);
            y += sin(th) / (20.0 * DENSE);
        }
        xy[2 * i] = x, xy[2 * i + 1] = y;
    }
    double scale = width / y;
    for (int i = 1; i <= DENSE; i++) {
        double u = (double)i / DENSE;
        double px = i == DENSE ? 0.0 : xy[2 * i] * scale; /* ends where it started in x */
        line_add(l, x0 + dir * px, y0 + dir * xy[2 * i + 1] * scale,
                 z0 + (z1 - z0) * smootherstep(u), UP_Z);
    }
    free(xy);
}

/* The control points, their design up vectors, and where each piece starts
 * (in q). */
typedef struct track {
    double *pts;           /* n points, 3 doubles each, equally spaced along the centre line */
    double *up;            /* n rider-up vectors (design), 3 doubles each */
    size_t n;
    double design_length;  /* m, of the densely sampled centre line */
    int n_pieces;
    const char *piece_name[MAX_PIECES];
    double piece_q[MAX_PIECES + 1]; /* q at the start of each piece (q = s / spacing) */
} track;

/* Builds the centre line, then places n points at equal distances along it
 * (linear interpolation between dense samples, at most about 3 cm apart).
 * Returns 0 on success. */
static int build_track(double spacing, track *tr)
{
    line l;
    memset(&l, 0, sizeof l);
    double *cum = NULL;
    int rc = -1;
    line_add(&l, 0.0, 0.0, H_TOP, UP_Z);
    piece_profile(&l, "drop", 1.0, DROP_LEN, Z_LOW - H_TOP, smootherstep);
    piece_profile(&l, "run-in", 1.0, RUN_LEN, 0.0, zero);
    piece_loop(&l);
    piece_profile(&l, "run-out", 1.0, RUN_LEN, 0.0, zero);
    piece_profile(&l, "camelback hill", 1.0, CAMEL_LEN, CAMEL_H, bump);
    piece_profile(&l, "valley", 1.0, RUN_LEN, 0.0, zero);
    piece_profile(&l, "climb", 1.0, CLIMB_LEN, CLIMB_Z - Z_LOW, smootherstep);
    piece_half_turn(&l, "turn 1", 1.0, TURN1_WIDTH, TURN1_Z);
    if (l.oom)
        goto out;
    /* Back to x = TOP_X, then a climbing half turn onto the top at y = 0. */
    double xr = l.x[3 * (l.n - 1)], yr = l.x[3 * (l.n - 1) + 1];
    piece_profile(&l, "return (dip)", -1.0, xr - TOP_X, DIP, dip);
    piece_half_turn(&l, "turn 2 (climbing)", -1.0, yr, H_TOP);
    piece_profile(&l, "top", 1.0, TOP_LEN, 0.0, zero);
    if (l.oom)
        goto out;
    l.piece_start[l.n_pieces] = l.n - 1;
    cum = malloc(l.n * sizeof *cum);
    if (!cum)
        goto out;
    cum[0] = 0.0;
    for (size_t k = 1; k < l.n; k++) {
        double dx = l.x[3 * k] - l.x[3 * k - 3], dy = l.x[3 * k + 1] - l.x[3 * k - 2];
        double dz = l.x[3 * k + 2] - l.x[3 * k - 1];
        cum[k] = cum[k - 1] + sqrt(dx * dx + dy * dy + dz * dz);
    }
    double len = cum[l.n - 1];
    size_t n = (size_t)lround(len / spacing);
    double step = len / (double)n;
    tr->pts = malloc(3 * n * sizeof *tr->pts);
    tr->up = malloc(3 * n * sizeof *tr->up);
    if (!tr->pts || !tr->up)
        goto out;
    /* Point j at arc length j * step (the last dense point is the first
     * again: the closed spline joins point n - 1 to point 0). */
    size_t seg = 0;
    for (size_t j = 0; j < n; j++) {
        double s = (double)j * step;
        while (seg + 2 < l.n && cum[seg + 1] < s)
            seg++;
        double w = (s - cum[seg]) / (cum[seg + 1] - cum[seg]);
        for (size_t c = 0; c < 3; c++) {
            tr->pts[3 * j + c] = (1.0 - w) * l.x[3 * seg + c] + w * l.x[3 * (seg + 1) + c];
            tr->up[3 * j + c] = (1.0 - w) * l.up[3 * seg + c] + w * l.up[3 * (seg + 1) + c];
        }
    }
    tr->n = n;
    tr->design_length = len;
    tr->n_pieces = l.n_pieces;
    for (int pc = 0; pc <= l.n_pieces; pc++) {
        tr->piece_q[pc] = cum[l.piece_start[pc]] / step;
        if (pc < l.n_pieces)
            tr->piece_name[pc] = l.piece_name[pc];
    }
    rc = 0;
out:
    free(l.x);
    free(l.up);
    free(cum);
    return rc;
}

/* ---- sampling the spline, and the rider's frame ------------------------- */

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static void unit3(double *a)
{
    double n = sqrt(dot3(a, a));
    a[0] /= n, a[1] /= n, a[2] /= n;
}

enum { SAMPLES_PER_SEG = 16 };

/* The spline at q = j / SAMPLES_PER_SEG, j = 0 .. m (the last equals the
 * first): points and unit tangents, for drawing. */
typedef struct samples {
    size_t m;
    double *r, *t; /* 3 doubles per sample */
} samples;

static void samples_free(samples *s)
{
    free(s->r);
    free(s->t);
    memset(s, 0, sizeof *s);
}

static int sample_spline(const cdyn_curve_desc *d, size_t n_pts, samples *s)
{
    memset(s, 0, sizeof *s);
    size_t m = n_pts * SAMPLES_PER_SEG;
    s->m = m;
    s->r = malloc(3 * (m + 1) * sizeof *s->r);
    s->t = malloc(3 * (m + 1) * sizeof *s->t);
    if (!s->r || !s->t)
        return -1;
    for (size_t j = 0; j <= m; j++) {
        /* Allocates for the spline each time: fine for a few thousand
         * samples (a constraint holds its spline instead). */
        cdyn_status st = cdyn_curve_evaluate(d, 3, (double)j / SAMPLES_PER_SEG, &s->r[3 * j],
                                             &s->t[3 * j], NULL);
        if (st != CDYN_OK) {
            fprintf(stderr, "roller_coaster: cdyn_curve_evaluate failed: %s\n",
                    cdyn_status_name(st));
            return -1;
        }
        unit3(&s->t[3 * j]);
    }
    return 0;
}

/* The rider's up at q (in [0, n)) for a cart moving along @p tangent: the
 * design's up interpolated between the control points around q, made
 * perpendicular to the tangent. */
static void up_at(const track *tr, double q, const double *tangent, double *up)
{
    double fl = floor(q);
    size_t j = (size_t)fl % tr->n, j1 = (j + 1) % tr->n;
    double w = q - fl;
    for (size_t i = 0; i < 3; i++)
        up[i] = (1.0 - w) * tr->up[3 * j + i] + w * tr->up[3 * j1 + i];
    double t[3] = {tangent[0], tangent[1], tangent[2]};
    unit3(t);
    double d = dot3(up, t);
    for (size_t i = 0; i < 3; i++)
        up[i] -= d * t[i];
    unit3(up);
}

/* ---- the ride ----------------------------------------------------------- */

/* One sample per step (and the start). */
typedef struct ride {
    size_t n, cap;
    double *t, *q, *x, *speed, *ke, *pe, *gv, *gl, *e_rel, *v_rel;
} ride;

enum { RIDE_ARRAYS = 10 };

static double **ride_array(ride *r, int k)
{
    double **a[RIDE_ARRAYS] = {&r->t, &r->q, &r->x, &r->speed, &r->ke, &r->pe,
                               &r->gv, &r->gl, &r->e_rel, &r->v_rel};
    return a[k];
}

static void ride_free(ride *r)
{
    for (int k = 0; k < RIDE_ARRAYS; k++)
        free(*ride_array(r, k));
    memset(r, 0, sizeof *r);
}

static int ride_reserve(ride *r, size_t need)
{
    if (need <= r->cap)
        return 0;
    size_t cap = r->cap ? 2 * r->cap : 65536;
    while (cap < need)
        cap *= 2;
    for (int k = 0; k < RIDE_ARRAYS; k++) {
        double **a = ride_array(r, k);
        double *p = realloc(*a, (k == 2 ? 3 : 1) * cap * sizeof *p);
        if (!p)
            return -1;
        *a = p;
    }
    r->cap = cap;
    return 0;
}

typedef struct summary {
    double lap_time[21];   /* s, time at which lap k + 1 was completed */
    int laps_done;
    double e0, h0;         /* J, m */
    double normal_along;   /* largest |N . t| / |N| */
    double max_speed_abs;  /* largest |v - sqrt(v0^2 + 2 g (h0 - h))| (m/s) */
} summary;

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cdyn_status st_ = (call);                                                         \
        if (st_ != CDYN_OK) {                                                             \
            fprintf(stderr, "roller_coaster: %s failed: %s (%s)\n", #call,                \
                    cdyn_status_name(st_), cdyn_system_last_error(sys));                  \
            goto fail;                                                                    \
        }                                                                                 \
    } while (0)

static int run(const params *p, const cdyn_curve_desc *d, const track *tr, ride *rd,
               summary *sm)
{
    int rc = -1;
    cdyn_system *sys = NULL;
    memset(sm, 0, sizeof *sm);
    CHECK(cdyn_system_create(3, &sys));
    CHECK(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4));
    cdyn_particle cart;
    cdyn_force gravity;
    cdyn_constraint on_track;
    CHECK(cdyn_particle_add(sys, p->mass, d->points, NULL, &cart));
    CHECK(cdyn_force_add_gravity(sys, (double[]){0.0, 0.0, -p->gravity}, &gravity));
    CHECK(cdyn_constraint_add_on_curve(sys, cart, d, &on_track));
    /* Launch along the track at v0: q' = v0 / |r'(0)|. */
    double r0[3], dr0[3];
    CHECK(cdyn_curve_evaluate(d, 3, 0.0, r0, dr0, NULL));
    const double q0 = 0.0, qd0 = p->v0 / sqrt(dot3(dr0, dr0));
    CHECK(cdyn_constraint_set_coordinates(sys, on_track, &q0, &qd0));

    const double n_seg = (double)tr->n;
    double q_prev = 0.0, unwrapped = 0.0;
    for (size_t i = 0;; i++) {
        if (ride_reserve(rd, i + 1)) {
            fprintf(stderr, "roller_coaster: out of memory\n");
            goto fail;
        }
        double x[3], v[3], nf[3], q, ke, pe, t;
        CHECK(cdyn_system_get_time(sys, &t));
        CHECK(cdyn_particle_get_position(sys, cart, x));
        CHECK(cdyn_particle_get_velocity(sys, cart, v));
        CHECK(cdyn_constraint_get_coordinates(sys, on_track, &q, NULL));
        CHECK(cdyn_system_get_kinetic_energy(sys, &ke));
        CHECK(cdyn_system_get_potential_energy(sys, &pe));
        /* The track's force at this state (the last step's evaluations were
         * at RK4's stages, not here). */
        CHECK(cdyn_system_evaluate(sys, NULL, 0));
        CHECK(cdyn_constraint_get_force(sys, on_track, cart, nf));
        if (i > 0) {
            double dq = q - q_prev;
            if (dq < -0.5 * n_seg)
                dq += n_seg; /* past the seam */
            if (!(dq > 0)) {
                fprintf(stderr, "roller_coaster: the cart stopped or turned back at t = %g\n", t);
                goto fail;
            }
            double before = unwrapped;
            unwrapped += dq;
            if (floor(unwrapped / n_seg) > floor(before / n_seg) && sm->laps_done < 20) {
                /* Lap completed inside this step: interpolate in q. */
                double target = n_seg * floor(unwrapped / n_seg);
                sm->lap_time[sm->laps_done++] = rd->t[i - 1] + (t - rd->t[i - 1]) *
                                                                   (target - before) / dq;
            }
        }
        q_prev = q;
        double speed = sqrt(dot3(v, v)), up[3], side[3];
        up_at(tr, q, v, up);
        cross3(v, up, side);
        unit3(side);
        double mg = p->mass * p->gravity, nn = sqrt(dot3(nf, nf));
        if (i == 0) {
            sm->e0 = ke + pe;
            sm->h0 = x[2];
        }
        double want = sqrt(fmax(p->v0 * p->v0 + 2.0 * p->gravity * (sm->h0 - x[2]), 0.0));
        if (nn > 0)
            sm->normal_along = fmax(sm->normal_along, fabs(dot3(nf, v)) / (speed * nn));
        sm->max_speed_abs = fmax(sm->max_speed_abs, fabs(speed - want));
        rd->t[i] = t;
        rd->q[i] = unwrapped;
        memcpy(&rd->x[3 * i], x, sizeof x);
        rd->speed[i] = speed;
        rd->ke[i] = ke;
        rd->pe[i] = pe;
        rd->gv[i] = dot3(nf, up) / mg;
        rd->gl[i] = dot3(nf, side) / mg; /* > 0: pushed to the left */
        rd->e_rel[i] = fabs(ke + pe - sm->e0) / sm->e0;
        rd->v_rel[i] = fabs(speed - want) / want;
        rd->n = i + 1;
        if (unwrapped >= p->laps * n_seg)
            break;
        if (t > 600.0 * p->laps) {
            fprintf(stderr, "roller_coaster: no lap after %g s\n", t);
            goto fail;
        }
        cdyn_status st = cdyn_system_step(sys, p->dt);
        if (st != CDYN_OK) {
            fprintf(stderr, "roller_coaster: step at t = %g failed: %s (%s)\n", t,
                    cdyn_status_name(st), cdyn_system_last_error(sys));
            goto fail;
        }
    }
    rc = 0;
fail:
    cdyn_system_destroy(sys);
    return rc;
}

/* ---- pictures ----------------------------------------------------------- */

/* Axonometric view: camera at azimuth AZ (from +x, towards +y) and
 * elevation EL, looking at the origin; screen right, screen up, depth. */
static const double AZ = -62.0 * PI / 180.0, EL = 24.0 * PI / 180.0;

static void view(const double *p, double *sx, double *sy, double *depth)
{
    double ca = cos(AZ), sa = sin(AZ), ce = cos(EL), se = sin(EL);
    *sx = -sa * p[0] + ca * p[1];
    *sy = -se * ca * p[0] - se * sa * p[1] + ce * p[2];
    *depth = ce * ca * p[0] + ce * sa * p[1] + se * p[2]; /* larger: nearer the camera */
}

typedef struct seg {
    double depth;
    double a[3], b[3];
    int kind;   /* 0: track, 1: pillar, 2: negative-g underlay */
    double val; /* track: speed */
} seg;

static int cmp_seg(const void *pa, const void *pb)
{
    const seg *a = pa, *b = pb;
    return a->depth < b->depth ? -1 : a->depth > b->depth ? 1 : (a->kind - b->kind);
}

/* Speed (and felt vertical g) of the first lap at track parameter q, by
 * looking up the sample with the nearest unwrapped q (samples are dense). */
static size_t sample_at(const ride *rd, double q)
{
    size_t lo = 0, hi = rd->n - 1;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (rd->q[mid] <= q)
            lo = mid;
        else
            hi = mid;
    }
    return fabs(rd->q[hi] - q) < fabs(rd->q[lo] - q) ? hi : lo;
}

/* z component of the rider's up at q on a track running along @p tangent. */
static double upz(const track *tr, double q, const double *tangent)
{
    double up[3];
    up_at(tr, q, tangent, up);
    return up[2];
}

/* A marker: the cart at ride sample @p i, labelled with its time when
 * @p label. */
typedef struct mark {
    size_t i;
    int label;
} mark;

/* What the pictures of the track share. */
typedef struct scene {
    const samples *sp;
    const track *tr;
    const ride *rd;
    double vmin, vmax; /* speed colour scale */
} scene;

static const char *const NEGATIVE_G = "#e040e0", *const PILLAR = "#c4c4c4";

static void speed_colour(const scene *s, double v, char out[8])
{
    chart_ramp((v - s->vmin) / (s->vmax - s->vmin), out);
}

/* Draws the track in the axonometric view into @p p, a panel of about
 * @p w x @p h pixels, fitted to the spline samples with q in [q0, q1] (and
 * their shadows) drawing every @p stride-th sample: ground grid, shadow,
 * then pillars, negative-g underlays and track segments from far to near,
 * then the markers. */
static int draw_view(chart_panel *p, double w, double h, const scene *sc, double q0, double q1,
                     size_t stride, const mark *marks, size_t n_marks)
{
    const samples *sp = sc->sp;
    double lo_x = INFINITY, hi_x = -INFINITY, lo_y = INFINITY, hi_y = -INFINITY;
    double wx0 = INFINITY, wx1 = -INFINITY, wy0 = INFINITY, wy1 = -INFINITY;
    for (size_t j = 0; j <= sp->m; j++) {
        double q = (double)j / SAMPLES_PER_SEG;
        if (q < q0 || q > q1)
            continue;
        const double *r = &sp->r[3 * j];
        double g[3] = {r[0], r[1], 0.0}, sx, sy, dp;
        for (int k = 0; k < 2; k++) {
            view(k ? g : r, &sx, &sy, &dp);
            lo_x = fmin(lo_x, sx), hi_x = fmax(hi_x, sx);
            lo_y = fmin(lo_y, sy), hi_y = fmax(hi_y, sy);
        }
        wx0 = fmin(wx0, r[0]), wx1 = fmax(wx1, r[0]);
        wy0 = fmin(wy0, r[1]), wy1 = fmax(wy1, r[1]);
    }
    chart_x_range(p, lo_x, hi_x);
    chart_y_range(p, lo_y, hi_y);
    double scale = fmin(w / (hi_x - lo_x), h / (hi_y - lo_y)); /* pixels per metre, roughly */
    /* Ground grid every 10 m over the fitted part (and a little more). */
    double gx0 = 10 * floor(wx0 / 10 - 1), gx1 = 10 * ceil(wx1 / 10 + 1);
    double gy0 = 10 * floor(wy0 / 10 - 1), gy1 = 10 * ceil(wy1 / 10 + 1);
    const chart_style grid = {.color = "#eee", .width = 1};
    for (double gx = gx0; gx <= gx1 + 0.5; gx += 10)
        for (double gy = gy0; gy <= gy1 + 0.5; gy += 10) {
            double a[3] = {gx, gy, 0}, c[3] = {gx + 10, gy, 0}, e[3] = {gx, gy + 10, 0};
            double ax, ay, cx, cy, ex, ey, dp;
            view(a, &ax, &ay, &dp);
            view(c, &cx, &cy, &dp);
            view(e, &ex, &ey, &dp);
            if (gx + 10 <= gx1 + 0.5)
                chart_segment(p, ax, ay, cx, cy, &grid);
            if (gy + 10 <= gy1 + 0.5)
                chart_segment(p, ax, ay, ex, ey, &grid);
        }
    /* Shadow. */
    double *shadow = malloc(2 * (sp->m / stride + 2) * sizeof *shadow);
    seg *ss = malloc(3 * (sp->m / stride + 1) * sizeof *ss);
    if (!shadow || !ss) {
        free(shadow);
        free(ss);
        return -1;
    }
    size_t k = 0;
    for (size_t j = 0; j <= sp->m; j += stride, k++) {
        double g[3] = {sp->r[3 * j], sp->r[3 * j + 1], 0.0}, dp;
        view(g, &shadow[2 * k], &shadow[2 * k + 1], &dp);
    }
    chart_polygon(p, shadow, k, &(chart_style){.color = "#d4d4d4",
                                               .width = fmin(fmax(0.35 * scale, 2.0), 8.0)});
    free(shadow);
    /* Track segments, pillars every 3 m where the track is right way up,
     * negative-g underlays; far to near. */
    size_t ns = 0, every = (size_t)lround(3.0 * SAMPLES_PER_SEG / (sc->tr->design_length /
                                                                    (double)sc->tr->n));
    every = every < stride ? stride : every - every % stride;
    double w_track = fmin(fmax(0.45 * scale, 3.0), 9.0);
    for (size_t j = 0; j + stride <= sp->m; j += stride) {
        double q = ((double)j + 0.5 * (double)stride) / SAMPLES_PER_SEG, sx, sy, dpa, dpb;
        size_t i = sample_at(sc->rd, q);
        seg *s = &ss[ns++];
        memcpy(s->a, &sp->r[3 * j], sizeof s->a);
        memcpy(s->b, &sp->r[3 * (j + stride)], sizeof s->b);
        view(s->a, &sx, &sy, &dpa);
        view(s->b, &sx, &sy, &dpb);
        s->depth = 0.5 * (dpa + dpb);
        s->kind = 0;
        s->val = sc->rd->speed[i];
        if (sc->rd->gv[i] < 0) {
            seg *u = &ss[ns++];
            *u = *s;
            u->kind = 2;
            u->depth -= 1e-6;
        }
        if (j % every == 0 && sp->r[3 * j + 2] > 0.5 &&
            upz(sc->tr, (double)j / SAMPLES_PER_SEG, &sp->t[3 * j]) > 0.3) {
            seg *pl = &ss[ns++];
            memcpy(pl->a, &sp->r[3 * j], sizeof pl->a);
            memcpy(pl->b, pl->a, sizeof pl->b);
            pl->b[2] = 0.0;
            view(pl->a, &sx, &sy, &dpa);
            pl->depth = dpa - 0.3;
            pl->kind = 1;
        }
    }
    qsort(ss, ns, sizeof *ss, cmp_seg);
    double mx = fmax(hi_x - lo_x, hi_y - lo_y), my = mx; /* room for equal scales */
    for (k = 0; k < ns; k++) {
        const seg *s = &ss[k];
        double ax, ay, bx, by, dp;
        view(s->a, &ax, &ay, &dp);
        view(s->b, &bx, &by, &dp);
        if (fmax(ax, bx) < lo_x - mx || fmin(ax, bx) > hi_x + mx || fmax(ay, by) < lo_y - my ||
            fmin(ay, by) > hi_y + my)
            continue; /* outside the picture */
        char col[8];
        chart_style st = {.color = col, .width = w_track};
        if (s->kind == 0)
            speed_colour(sc, s->val, col);
        else if (s->kind == 1)
            st.color = PILLAR, st.width = 1.0;
        else
            st.color = NEGATIVE_G, st.width = 2.6 * w_track;
        chart_segment(p, ax, ay, bx, by, &st);
    }
    free(ss);
    for (k = 0; k < n_marks; k++) {
        size_t i = marks[k].i;
        double sx, sy, dp;
        view(&sc->rd->x[3 * i], &sx, &sy, &dp);
        chart_marker(p, sx, sy, &(chart_style){.color = "white", .width = 1.5, .fill = "black",
                                               .size = 5.5});
        if (marks[k].label)
            chart_label(p, sx, sy, &(chart_style){.size = 12, .bold = 1}, "%.1f s",
                        sc->rd->t[i]);
    }
    return 0;
}

/* The plan view (x right, y up, equal scales), with axes in metres. */
static void draw_plan(chart_panel *p, const scene *sc)
{
    const samples *sp = sc->sp;
    chart_panel_title(p, "plan: the cart runs anticlockwise");
    chart_equal(p);
    chart_x(p, "x (m)", 0);
    chart_y(p, "y (m)", 0);
    for (int pass = 0; pass < 2; pass++)
        for (size_t j = 0; j + 4 <= sp->m; j += 4) {
            size_t i = sample_at(sc->rd, ((double)j + 2) / SAMPLES_PER_SEG);
            char col[8];
            chart_style st = {.color = NEGATIVE_G, .width = 9};
            if (pass == 0 && !(sc->rd->gv[i] < 0))
                continue;
            if (pass == 1)
                speed_colour(sc, sc->rd->speed[i], col), st.color = col, st.width = 3;
            chart_segment(p, sp->r[3 * j], sp->r[3 * j + 1], sp->r[3 * j + 12],
                          sp->r[3 * j + 13], &st);
        }
    chart_marker(p, 0, 0, &(chart_style){.color = "black", .width = 2, .fill = "white",
                                         .size = 5});
    chart_label(p, 0, 0, NULL, "start, heading east");
}

static int write_track_picture(const char *path, const samples *sp, const track *tr,
                               const ride *rd, const summary *sm, const params *p, double vmin,
                               double vmax, const char *const *notes, size_t n_notes)
{
    const scene sc = {sp, tr, rd, vmin, vmax};
    chart *c = chart_create(1400, 1200);
    chart_title(c, "Roller coaster: a %g kg cart on a closed C2 spline (%zu points %g m apart), "
                   "launched at %g m/s from the top (RK4, dt = %g s)", p->mass, tr->n,
                p->spacing, p->v0, p->dt);
    chart_caption(c, "drawn to scale, seen from the south-south-east 24 degrees up; the track "
                     "coloured by the cart's speed; the ground grid 10 m");
    mark marks[40];
    size_t nm = 0;
    for (int k = 0; k < 8; k++) {
        size_t i = (size_t)lround(sm->lap_time[0] * k / 8.0 / p->dt);
        marks[nm].i = i < rd->n ? i : rd->n - 1;
        marks[nm++].label = 1;
    }
    chart_panel *full = chart_panel_at(c, 0, 0, 1, 0.53);
    chart_scene(full);
    int bad = draw_view(full, 1380, 520, &sc, 0.0, (double)tr->n, 4, marks, nm);
    chart_ramp_key(full, "speed (m/s)", vmin, vmax, CHART_RAMP_LINEAR, NULL);
    chart_key(full, CHART_LINE, "riders feel negative vertical g",
              &(chart_style){.color = NEGATIVE_G, .width = 8});
    chart_key(full, CHART_LINE, "pillars, shadow on the ground",
              &(chart_style){.color = PILLAR, .width = 2});
    chart_key(full, CHART_MARKER, "the cart at eight equal times of the first lap",
              &(chart_style){.color = "white", .width = 1.5, .fill = "black", .size = 5.5});
    draw_plan(chart_panel_at(c, 0, 0.55, 0.62, 0.3), &sc);
    chart_panel *text = chart_panel_at(c, 0, 0.86, 0.62, 0.14);
    chart_scene(text);
    for (size_t k = 0; k < n_notes; k++)
        chart_key(text, CHART_TEXT, notes[k], NULL);

    /* The loop close up, the cart every 0.25 s through it. */
    int lp = -1;
    for (int k = 0; k < tr->n_pieces; k++)
        if (strcmp(tr->piece_name[k], "loop") == 0)
            lp = k;
    if (lp >= 0) {
        double q0 = tr->piece_q[lp] - 3, q1 = tr->piece_q[lp + 1] + 3;
        nm = 0;
        for (size_t i = 0; i < rd->n && nm < 40; i += (size_t)lround(0.25 / p->dt)) {
            if (rd->q[i] < q0 || rd->q[i] > q1)
                continue;
            marks[nm].i = i;
            marks[nm].label = nm % 2 == 0;
            nm++;
        }
        chart_panel *loop = chart_panel_at(c, 0.64, 0.55, 0.36, 0.45);
        chart_scene(loop);
        chart_panel_title(loop, "the loop close up (same view): the cart every 0.25 s");
        bad |= draw_view(loop, 490, 440, &sc, q0, q1, 1, marks, nm);
    }
    bad = bad || chart_save(c, path) != 0;
    chart_free(c);
    return bad ? -1 : 0;
}

/* One chart panel against time: series of n samples each; long series are
 * drawn through each pixel column's range (the chart module's way). */
typedef struct series {
    const double *y;
    double scale; /* multiply values by this */
    const char *label, *color;
    double width;
} series;

static void panel(chart_panel *cp, const char *title, const double *t, size_t n,
                  const series *ss, size_t ns, double *scratch, const summary *sm)
{
    chart_panel_title(cp, "%s", title);
    for (size_t k = 0; k < ns; k++) {
        for (size_t i = 0; i < n; i++)
            scratch[i] = ss[k].y[i] * ss[k].scale;
        chart_line(cp, t, scratch, n, ss[k].label,
                   &(chart_style){.color = ss[k].color, .width = ss[k].width});
    }
    for (int k = 0; k < sm->laps_done; k++)
        chart_vline(cp, sm->lap_time[k], k == 0 ? "end of a lap" : NULL,
                    &(chart_style){.color = "#999", .width = 1, .dash = "4,3"});
}

static int write_energy_chart(const char *path, const ride *rd, const summary *sm,
                              const params *p)
{
    double *tot = malloc(rd->n * sizeof *tot), *mag = malloc(rd->n * sizeof *mag);
    double *scratch = malloc(rd->n * sizeof *scratch);
    if (!tot || !mag || !scratch) {
        free(tot), free(mag), free(scratch);
        return -1;
    }
    for (size_t i = 0; i < rd->n; i++) {
        tot[i] = rd->ke[i] + rd->pe[i];
        mag[i] = hypot(rd->gv[i], rd->gl[i]);
    }
    chart *c = chart_create(1200, 1000);
    chart_title(c, "Roller coaster (%g kg, v0 = %g m/s, RK4, dt = %g s): energy and felt g "
                   "against time", p->mass, p->v0, p->dt);
    const series en[] = {
        {rd->ke, 1e-3, "kinetic", "#d62728", 1.8},
        {rd->pe, 1e-3, "potential (m g z)", "#1f77b4", 1.8},
        {tot, 1e-3, "total = kinetic + potential", "#000000", 2.2},
    };
    const series gs[] = {
        {mag, 1.0, "|N| / (m g)", "#cdb5e8", 4.0},
        {rd->gv, 1.0, "vertical (along the rider's up)", "#2ca02c", 1.6},
        {rd->gl, 1.0, "lateral (+: to the left)", "#ff7f0e", 1.4},
    };
    const series er[] = {
        {rd->e_rel, 1.0, "|E - E_{0}| / E_{0}", "#000000", 1.2},
        {rd->v_rel, 1.0, "|v - (v_{0}^{2} + 2 g (h_{0} - h))^{1/2}| / that", "#d62728", 1.0},
    };
    chart_panel *top = chart_panel_add(c, 1), *mid = chart_panel_add(c, 1.2);
    chart_panel *bottom = chart_panel_add(c, 0.9);
    panel(top, "energy (kJ)", rd->t, rd->n, en, 3, scratch, sm);
    panel(mid, "felt acceleration N / (m g) (g)", rd->t, rd->n, gs, 3, scratch, sm);
    for (size_t i = 0; i < rd->n;) { /* shade where riders feel negative vertical g */
        size_t j = i;
        while (j < rd->n && rd->gv[j] < 0)
            j++;
        if (j > i)
            chart_vband(mid, rd->t[i], rd->t[j - 1], "#f7c6f7");
        i = j + 1;
    }
    chart_key(mid, CHART_BOX, "negative vertical g", &(chart_style){.fill = "#f7c6f7"});
    panel(bottom, "relative energy and speed errors", rd->t, rd->n, er, 2, scratch, sm);
    chart_y(bottom, NULL, CHART_LOG);
    chart_x(bottom, "time (s)", 0);
    int bad = chart_save(c, path);
    chart_free(c);
    free(tot);
    free(mag);
    free(scratch);
    return bad;
}

/* The name of the piece of the track at unwrapped q. */
static const char *piece_name_at(const track *tr, double q)
{
    q = fmod(q, (double)tr->n);
    for (int k = 0; k < tr->n_pieces; k++)
        if (q >= tr->piece_q[k] && q < tr->piece_q[k + 1])
            return tr->piece_name[k];
    return "track";
}

/* ---- main --------------------------------------------------------------- */

int main(int argc, char **argv)
{
    params p = {
        .v0 = 3.0,
        .dt = 1e-3,
        .laps = 2.0,
        .spacing = 1.0,
        .mass = 500.0,
        .gravity = 9.81,
    };
    int rc = parse_args(argc, argv, &p);
    if (rc)
        return rc > 0 ? 0 : 2;

    int exit_code = 1;
    track tr = {0};
    samples fr = {0};
    ride rd = {0};
    summary sm;
    if (build_track(p.spacing, &tr)) {
        fprintf(stderr, "roller_coaster: out of memory\n");
        goto done;
    }
    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, CDYN_CURVE_SPLINE);
    d.points = tr.pts;
    d.num_points = tr.n;
    d.spline_end = CDYN_SPLINE_CLOSED;
    double length, q_lo, q_hi;
    int periodic;
    cdyn_status st;
    if ((st = cdyn_curve_arc_length(&d, 3, 0.0, (double)tr.n, &length)) != CDYN_OK ||
        (st = cdyn_curve_get_domain(&d, 3, &q_lo, &q_hi, &periodic)) != CDYN_OK) {
        fprintf(stderr, "roller_coaster: track description refused: %s\n", cdyn_status_name(st));
        goto done;
    }
    if (sample_spline(&d, tr.n, &fr)) {
        fprintf(stderr, "roller_coaster: cannot sample the track\n");
        goto done;
    }
    double zmin = INFINITY, zmax = -INFINITY;
    for (size_t j = 0; j < fr.m; j++)
        zmin = fmin(zmin, fr.r[3 * j + 2]), zmax = fmax(zmax, fr.r[3 * j + 2]);

    printf("roller_coaster: a %g kg cart on a closed C2 spline track, RK4, dt = %g s, gravity "
           "%g m/s^2 along -z, no friction\n", p.mass, p.dt, p.gravity);
    printf("  track: %zu control points %.3g m apart, q in [%g, %g)%s\n", tr.n,
           tr.design_length / (double)tr.n, q_lo, q_hi, periodic ? " periodic" : "");
    printf("  track length (cdyn_curve_arc_length) %.4f m; designed centre line %.4f m\n",
           length, tr.design_length);
    printf("  heights on the spline %.4f .. %.4f m; the start, on the level top, at z = %.4f m\n",
           zmin, zmax, tr.pts[2]);
    printf("\n");

    if (run(&p, &d, &tr, &rd, &sm))
        goto done;
    if (sm.laps_done < 1) {
        fprintf(stderr, "roller_coaster: no lap completed\n");
        goto done;
    }
    size_t n = rd.n;
    double vmin = INFINITY, vmax = 0, e_worst = 0, v_worst = 0, hmin_v = 0, hmax_v = 0;
    for (size_t i = 0; i < n; i++) {
        if (rd.speed[i] < vmin)
            vmin = rd.speed[i], hmin_v = rd.x[3 * i + 2];
        if (rd.speed[i] > vmax)
            vmax = rd.speed[i], hmax_v = rd.x[3 * i + 2];
        e_worst = fmax(e_worst, rd.e_rel[i]);
        v_worst = fmax(v_worst, rd.v_rel[i]);
    }
    printf("ride: launched at %g m/s from z = %g m, %.0f laps, %zu steps (%.2f s)\n", p.v0, sm.h0,
           p.laps, n - 1, rd.t[n - 1]);
    printf("  lap time %.4f s", sm.lap_time[0]);
    for (int k = 1; k < sm.laps_done; k++)
        printf(", lap %d %.4f s", k + 1, sm.lap_time[k] - sm.lap_time[k - 1]);
    printf("\n  speed %.4f m/s (at z = %.3f m) .. %.4f m/s (at z = %.3f m)\n", vmin, hmin_v, vmax,
           hmax_v);
    printf("  largest relative energy error |E - E0| / E0: %.3e (E0 = %.6g J, potential from "
           "z = 0)\n", e_worst, sm.e0);
    printf("  speed against sqrt(v0^2 + 2 g (h0 - h)): largest error %.3e m/s, relative %.3e\n",
           sm.max_speed_abs, v_worst);
    printf("  normal force along the track: largest |N . t| / |N| = %.2e (it does no work)\n\n",
           sm.normal_along);

    /* Felt g per piece of the track, over the first lap. */
    size_t lap_end = n - 1;
    for (size_t i = 0; i < n; i++)
        if (rd.t[i] >= sm.lap_time[0]) {
            lap_end = i;
            break;
        }
    printf("what riders feel on the first lap (N / (m g); vertical along the rider's up, "
           "lateral + to the left):\n");
    printf("  %-18s %7s %7s %9s %9s %9s %9s %9s\n", "piece", "from s", "to s", "v min", "v max",
           "vert min", "vert max", "|lat|max");
    for (int pc = 0; pc < tr.n_pieces; pc++) {
        double vlo = INFINITY, vhi = 0, glo = INFINITY, ghi = -INFINITY, lat = 0, t0 = -1, t1 = 0;
        for (size_t i = 0; i <= lap_end; i++) {
            double q = rd.q[i];
            if (q < tr.piece_q[pc] || q >= tr.piece_q[pc + 1])
                continue;
            if (t0 < 0)
                t0 = rd.t[i];
            t1 = rd.t[i];
            vlo = fmin(vlo, rd.speed[i]), vhi = fmax(vhi, rd.speed[i]);
            glo = fmin(glo, rd.gv[i]), ghi = fmax(ghi, rd.gv[i]);
            lat = fmax(lat, fabs(rd.gl[i]));
        }
        if (t0 < 0)
            continue;
        printf("  %-18s %7.2f %7.2f %9.3f %9.3f %9.3f %9.3f %9.3f\n", tr.piece_name[pc], t0, t1,
               vlo, vhi, glo, ghi, lat);
    }
    printf("negative vertical g (riders lifted against the lap bar), first lap:\n");
    char note_buf[6][220];
    const char *notes[6];
    size_t n_notes = 0;
    char spots[160] = "";
    int any = 0;
    for (size_t i = 0; i <= lap_end; i++) {
        if (!(rd.gv[i] < 0))
            continue;
        size_t j = i, worst = i;
        while (j + 1 <= lap_end && rd.gv[j + 1] < 0) {
            j++;
            if (rd.gv[j] < rd.gv[worst])
                worst = j;
        }
        printf("  t %.2f .. %.2f s, x = %.1f .. %.1f m: down to %.3f g at (%.1f, %.1f, %.2f) m, "
               "%.2f m/s\n", rd.t[i], rd.t[j], rd.x[3 * i], rd.x[3 * j], rd.gv[worst],
               rd.x[3 * worst], rd.x[3 * worst + 1], rd.x[3 * worst + 2], rd.speed[worst]);
        if (any < 3) {
            size_t len = strlen(spots);
            snprintf(spots + len, sizeof spots - len, "%s%.2f g on the %s (x = %.0f m)",
                     any ? ", " : "", rd.gv[worst], piece_name_at(&tr, rd.q[worst]),
                     rd.x[3 * worst]);
        }
        any++;
        i = j;
    }
    if (!any)
        printf("  none\n");
    {
        double glo = INFINITY, ghi = -INFINITY, lat = 0;
        size_t ihi = 0, ilat = 0;
        for (size_t i = 0; i <= lap_end; i++) {
            glo = fmin(glo, rd.gv[i]);
            if (rd.gv[i] > ghi)
                ghi = rd.gv[i], ihi = i;
            if (fabs(rd.gl[i]) > lat)
                lat = fabs(rd.gl[i]), ilat = i;
        }
        snprintf(note_buf[0], sizeof note_buf[0],
                 "track length %.1f m (cdyn_curve_arc_length); lap time %.2f s; speed %.2f .. "
                 "%.2f m/s", length, sm.lap_time[0], vmin, vmax);
        snprintf(note_buf[1], sizeof note_buf[1],
                 "largest relative errors over %.0f laps: energy %.1e, speed against sqrt(v0^2 + "
                 "2 g (h0 - h)) %.1e", p.laps, e_worst, v_worst);
        snprintf(note_buf[2], sizeof note_buf[2],
                 "felt vertical g %.2f .. %.2f (largest: %s); lateral up to %.2f g (%s; the "
                 "track is not banked)", glo, ghi, piece_name_at(&tr, rd.q[ihi]), lat,
                 piece_name_at(&tr, rd.q[ilat]));
        snprintf(note_buf[3], sizeof note_buf[3], "negative g: %s", any ? spots : "none");
        for (size_t k = 0; k < 4; k++)
            notes[n_notes++] = note_buf[k];
    }

    if (write_track_picture("roller_coaster.svg", &fr, &tr, &rd, &sm, &p, vmin, vmax, notes,
                            n_notes) ||
        write_energy_chart("roller_coaster_energy.svg", &rd, &sm, &p)) {
        fprintf(stderr, "roller_coaster: cannot write the pictures\n");
        goto done;
    }
    printf("wrote roller_coaster.svg and roller_coaster_energy.svg\n");
    exit_code = 0;
done:
    ride_free(&rd);
    samples_free(&fr);
    free(tr.pts);
    free(tr.up);
    return exit_code;
}
