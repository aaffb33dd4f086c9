/* newtons_cradle: five steel balls on rods with Hertz contacts (seed 004;
 * docs/cradle.md).
 *
 * Hooks on a horizontal line, one ball diameter apart; each ball hangs on
 * a rigid rod from its hook (cdyn_constraint_add_anchor: seed 004's
 * g_i = (|q_i - b_i|^2 - L^2) / 2), so that neighbours touch at rest. The
 * balls push on their neighbours through Hertz contacts (cdyn_force_add_pairs
 * with CDYN_PAIR_HERTZ: F = k delta^(3/2), k from the Young's modulus and
 * Poisson ratio of steel). The first --in balls are drawn back and released.
 *
 * A contact lasts ~70 us, a swing ~0.9 s: the program swings with a long
 * step (0.1 ms) and switches to a short one (the Hertz contact time / K,
 * K = --per-contact) whenever two balls are in contact or could touch
 * within two long steps.
 *
 * Writes into the current directory:
 *   newtons_cradle.svg            snapshots of balls and rods every eighth of
 *                                 a period, with the recent path of each ball
 *   newtons_cradle_energy.svg     energies, horizontal momentum and the
 *                                 energy error against time
 *   newtons_cradle_collision.svg  the balls' velocities through the first
 *                                 collision sequence (microseconds)
 * and prints, for every collision sequence, the share of momentum and of
 * kinetic energy that the outgoing balls carry away, and the energy error.
 *
 * Run with --help for the options.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "svg.h"

#define NB 5 /* balls */
#define PI 3.14159265358979323846

static const double RADIUS = 0.01;  /* m */
static const double ROD = 0.2;      /* m, hook to ball centre */
static const double GRAV = 9.81;    /* m/s^2 */
static const double DENSITY = 7850; /* kg/m^3, steel */
static const double YOUNG = 200e9;  /* Pa */
static const double POISSON = 0.3;
static const double DT_SWING = 1e-4; /* s */

/* ---- parameters --------------------------------------------------------- */

typedef struct params {
    int in;            /* balls released */
    double angle;      /* degrees */
    double duration;   /* s */
    double per_contact; /* short steps per contact time */
    cdyn_integrator integrator;
    const char *integrator_name;
} params;

static void usage(FILE *out, const params *d)
{
    fprintf(out,
            "usage: newtons_cradle [options]\n"
            "Five steel balls (radius %g cm) on rods of %g m with Hertz contacts; the first N\n"
            "are drawn back and released. Writes newtons_cradle.svg, newtons_cradle_energy.svg\n"
            "and newtons_cradle_collision.svg into the current directory.\n"
            "  --in N             balls released together, 1..4 (default %d)\n"
            "  --angle DEG        release angle in degrees, 1..60 (default %g)\n"
            "  --time T           simulated seconds, up to 20 (default %g: two periods)\n"
            "  --per-contact K    short steps per Hertz contact time, 4..10000 (default %g)\n"
            "  --integrator NAME  rattle | rk4 (default %s)\n"
            "  --quick            --time 0.5: the first collision sequence and the swing out\n"
            "  --help             this text\n",
            RADIUS * 100, ROD, d->in, d->angle, d->duration, d->per_contact,
            d->integrator_name);
}

static int parse_double(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !isfinite(v))
        return -1;
    *out = v;
    return 0;
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
            p->duration = 0.5;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "newtons_cradle: unknown option or missing value: %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        const char *val = argv[++i];
        double x = 0;
        int bad = 0;
        if (strcmp(a, "--in") == 0) {
            bad = parse_double(val, &x) || !(x >= 1 && x <= NB - 1) || x != floor(x);
            p->in = (int)x;
        } else if (strcmp(a, "--angle") == 0) {
            bad = parse_double(val, &p->angle) || !(p->angle >= 1 && p->angle <= 60);
        } else if (strcmp(a, "--time") == 0) {
            bad = parse_double(val, &p->duration) || !(p->duration > 0 && p->duration <= 20);
        } else if (strcmp(a, "--per-contact") == 0) {
            bad = parse_double(val, &p->per_contact) ||
                  !(p->per_contact >= 4 && p->per_contact <= 10000);
        } else if (strcmp(a, "--integrator") == 0) {
            if (strcmp(val, "rattle") == 0)
                p->integrator = CDYN_INTEGRATOR_RATTLE, p->integrator_name = "rattle";
            else if (strcmp(val, "rk4") == 0)
                p->integrator = CDYN_INTEGRATOR_RK4, p->integrator_name = "rk4";
            else
                bad = 1;
        } else {
            fprintf(stderr, "newtons_cradle: unknown option %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        if (bad) {
            fprintf(stderr, "newtons_cradle: bad value for %s: %s\n", a, val);
            return -1;
        }
    }
    return 0;
}

/* ---- the record --------------------------------------------------------- */

/* One sample per step (long or short). */
typedef struct sample {
    double t;
    double x[2 * NB], v[2 * NB];
    double ke, gravity, hertz; /* J; gravity relative to the balls at rest */
    double px;                 /* horizontal momentum, kg m/s */
} sample;

typedef struct record {
    sample *s;
    size_t n, cap;
} record;

/* One impact: the collision sequences of one meeting of the balls. */
typedef struct impact {
    double t_start, t_end; /* the step before the first touch; all gaps open again */
    int sequences;
    double p_before, p_after; /* horizontal momentum */
    double p_share, ke_share; /* of the outgoing balls, after */
    double energy_error;      /* after */
    double v[NB];             /* v_x / v0 after */
} impact;

static int record_push(record *r, const sample *s)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 4096;
        sample *p = realloc(r->s, cap * sizeof *p);
        if (!p)
            return -1;
        r->s = p, r->cap = cap;
    }
    r->s[r->n++] = *s;
    return 0;
}

static double gap(const double *x, int j)
{
    return hypot(x[2 * j + 2] - x[2 * j], x[2 * j + 3] - x[2 * j + 1]) - 2 * RADIUS;
}

static double closing_speed(const double *x, const double *v, int j)
{
    double dx = x[2 * j + 2] - x[2 * j], dy = x[2 * j + 3] - x[2 * j + 1];
    return -(dx * (v[2 * j + 2] - v[2 * j]) + dy * (v[2 * j + 3] - v[2 * j + 1])) /
           hypot(dx, dy);
}

/* True when a pair overlaps or could close within two long steps. Pairs
 * touching at rest (gap 0 up to round-off, not approaching) do not count. */
static int contact_near(const double *x, const double *v)
{
    for (int j = 0; j < NB - 1; j++) {
        double w = closing_speed(x, v, j), g = gap(x, j);
        if (g < -1e-12 || (w > 1e-6 && g < 2 * DT_SWING * w))
            return 1;
    }
    return 0;
}

/* ---- pictures ----------------------------------------------------------- */

static void ball_color(int i, char out[8])
{
    svg_ramp((double)i / (NB - 1), out);
}

/* Snapshots (indices at[k] into the record) in a grid of panels, drawn at
 * equal scale on both axes. */
static int write_strip(const char *path, const record *r, const size_t *at, int n_at,
                       double period, const params *p)
{
    const double th = p->angle * PI / 180;
    const double x0 = -ROD * sin(th) - 2 * RADIUS;
    const double x1 = 2 * RADIUS * (NB - 1) + ROD * sin(th) + 2 * RADIUS;
    const double y0 = -ROD - 2 * RADIUS, y1 = 0.01;
    const int cols = n_at < 5 ? n_at : 5, rows = (n_at + cols - 1) / cols;
    const double panel_w = 250, scale = panel_w / (x1 - x0), panel_h = (y1 - y0) * scale;
    const double top = 64, label = 22, width = panel_w * cols + 20;
    const double height = top + rows * (panel_h + label) + 12;
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
               "viewBox=\"0 0 %g %g\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            width, height, width, height);
    fprintf(f, "<text x=\"14\" y=\"24\" font-family=\"sans-serif\" font-size=\"15\">"
               "Newton's cradle: %d of %d steel balls (radius %g cm, rods of %g m) released "
               "from %g degrees; Hertz contacts (%s)</text>\n",
            p->in, NB, RADIUS * 100, ROD, p->angle, p->integrator_name);
    fprintf(f, "<text x=\"14\" y=\"44\" font-family=\"sans-serif\" font-size=\"12\">"
               "every eighth of the period T = %.3f s; grey: each ball's path over the "
               "previous T/8</text>\n", period);
    for (int k = 0; k < n_at; k++) {
        const sample *sm = &r->s[at[k]];
        const double left = 10 + panel_w * (k % cols);
        const double upper = top + (k / cols) * (panel_h + label) + label;
#define X(x) (left + ((x) - x0) * scale)
#define Y(y) (upper + (y1 - (y)) * scale)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"12\">"
                   "t = %.3f s = %d T/8</text>\n", left + 6, upper - 6, sm->t, k);
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#444\" "
                   "stroke-width=\"4\"/>\n", X(-2 * RADIUS), Y(0), X(2 * RADIUS * NB), Y(0));
        for (int i = 0; i < NB; i++) {
            fprintf(f, "<polyline fill=\"none\" stroke=\"#999\" stroke-width=\"1.5\" "
                       "points=\"");
            for (size_t q = at[k] + 1; q-- > 0 && r->s[q].t >= sm->t - period / 8;)
                fprintf(f, "%.2f,%.2f ", X(r->s[q].x[2 * i]), Y(r->s[q].x[2 * i + 1]));
            fputs("\"/>\n", f);
        }
        for (int i = 0; i < NB; i++) {
            double hx = 2 * RADIUS * i, bx = sm->x[2 * i], by = sm->x[2 * i + 1];
            char col[8];
            ball_color(i, col);
            fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#555\" "
                       "stroke-width=\"1\"/>\n", X(hx), Y(0), X(bx), Y(by));
            fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"%s\" "
                       "stroke=\"#222\" stroke-width=\"0.8\"/>\n",
                    X(bx), Y(by), RADIUS * scale, col);
        }
#undef X
#undef Y
    }
    fputs("</svg>\n", f);
    return fclose(f) == 0 ? 0 : -1;
}

typedef struct series {
    const double *y; /* one per sample, stride doubles apart */
    size_t stride;
    const char *label;
    const char *color;
    double width;
} series;

/* A linear (or log10, when log_y) panel of series against x[i * xstride]
 * at pixel box (px, py, pw, ph): each pixel column draws the range of the
 * samples that fall in it, so that spikes shorter than a pixel stay
 * visible. */
static void panel(FILE *f, double px, double py, double pw, double ph, const char *title,
                  const char *xlabel, const double *x, size_t xstride, size_t n,
                  const series *ss, size_t ns, int log_y)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < ns; k++)
        for (size_t i = 0; i < n; i++) {
            double y = ss[k].y[i * ss[k].stride];
            if (log_y && !(y > 0))
                continue;
            y = log_y ? log10(y) : y;
            lo = fmin(lo, y), hi = fmax(hi, y);
        }
    if (!(hi > lo))
        lo -= 1, hi += 1;
    if (log_y) {
        lo = floor(lo), hi = ceil(hi);
    } else {
        double pad = 0.06 * (hi - lo);
        lo -= pad, hi += pad;
    }
    double t0 = x[0], t1 = x[(n - 1) * xstride];
    if (!(t1 > t0))
        t1 = t0 + 1;
#define PX(tv) (px + ((tv) - t0) / (t1 - t0) * pw)
#define PY(yv) (py + ph - ((yv) - lo) / (hi - lo) * ph)
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
               "stroke=\"black\"/>\n", px, py, pw, ph);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"14\">%s"
               "</text>\n", px, py - 8, title);
    /* y grid: decades, or about five round values */
    double step = 1;
    if (!log_y) {
        double raw = (hi - lo) / 5, p10 = pow(10, floor(log10(raw))), q = raw / p10;
        step = (q < 1.5 ? 1 : q < 3.5 ? 2 : q < 7.5 ? 5 : 10) * p10;
    } else if (hi - lo > 8) {
        step = 2;
    }
    for (double yv = ceil(lo / step) * step; yv <= hi + 1e-9 * step; yv += step) {
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                px, PY(yv), px + pw, PY(yv));
        char buf[32];
        if (log_y)
            snprintf(buf, sizeof buf, "1e%d", (int)lround(yv));
        else
            snprintf(buf, sizeof buf, "%g", fabs(yv) < 1e-9 * step ? 0.0 : yv);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"11\" "
                   "text-anchor=\"end\">%s</text>\n", px - 5, PY(yv) + 4, buf);
    }
    double ts = (t1 - t0) / 6, p10 = pow(10, floor(log10(ts))), q = ts / p10;
    ts = (q < 1.5 ? 1 : q < 3.5 ? 2 : q < 7.5 ? 5 : 10) * p10;
    for (double tv = ceil(t0 / ts) * ts; tv <= t1 + 1e-9 * ts; tv += ts)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"11\" "
                   "text-anchor=\"middle\">%g</text>\n", PX(tv), py + ph + 15,
                fabs(tv) < 1e-9 * ts ? 0.0 : tv);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"12\" "
               "text-anchor=\"middle\">%s</text>\n", px + pw / 2, py + ph + 32, xlabel);
    for (size_t k = 0; k < ns; k++) {
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%g\" "
                   "stroke-linejoin=\"round\" points=\"", ss[k].color, ss[k].width);
        long col = -1;
        double cmin = 0, cmax = 0, clast = 0;
        for (size_t i = 0; i <= n; i++) {
            long c = -2;
            double y = 0;
            if (i < n) {
                y = ss[k].y[i * ss[k].stride];
                if (log_y && !(y > 0))
                    continue;
                y = log_y ? log10(y) : y;
                c = lround(PX(x[i * xstride]) - px);
            }
            if (c != col) {
                if (col >= 0) { /* flush: first, min, max, last of the column */
                    fprintf(f, "%.1f,%.2f %.1f,%.2f ", px + (double)col, PY(cmin),
                            px + (double)col, PY(cmax));
                    fprintf(f, "%.1f,%.2f ", px + (double)col, PY(clast));
                }
                col = c, cmin = cmax = y;
            }
            cmin = fmin(cmin, y), cmax = fmax(cmax, y), clast = y;
        }
        fputs("\"/>\n", f);
        double ly = py + 14 + 18 * (double)k;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                   "stroke-width=\"2\"/>\n", px + pw + 15, ly - 4, px + pw + 40, ly - 4,
                ss[k].color);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"12\">%s"
                   "</text>\n", px + pw + 46, ly, ss[k].label);
    }
#undef PX
#undef PY
}

static FILE *chart_open(const char *path, double w, double h, const char *title)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
               "viewBox=\"0 0 %g %g\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            w, h, w, h);
    fprintf(f, "<text x=\"70\" y=\"26\" font-family=\"sans-serif\" font-size=\"15\">%s</text>\n",
            title);
    return f;
}

static int write_energy_chart(const char *path, const record *r, const double *energy_error,
                              double e_release, double p0, const params *p)
{
    char title[200];
    snprintf(title, sizeof title, "Newton's cradle, %d in from %g degrees (%s, dt = t_c / %g "
             "in contact): energies, momentum and energy error", p->in, p->angle,
             p->integrator_name, p->per_contact);
    FILE *f = chart_open(path, 1150, 900, title);
    if (!f)
        return -1;
    size_t n = r->n, st = sizeof(sample) / sizeof(double);
    double *scaled = malloc(4 * n * sizeof *scaled);
    if (!scaled) {
        fclose(f);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        scaled[i] = r->s[i].ke / e_release;
        scaled[n + i] = r->s[i].gravity / e_release;
        scaled[2 * n + i] = (r->s[i].ke + r->s[i].gravity + r->s[i].hertz) / e_release;
        scaled[3 * n + i] = r->s[i].px / p0;
    }
    double *hz = malloc(n * sizeof *hz);
    if (!hz) {
        free(scaled);
        fclose(f);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        hz[i] = r->s[i].hertz / e_release;
    const series top[] = {
        {scaled, 1, "kinetic", "#1f77b4", 1.5},
        {scaled + n, 1, "gravity (above rest)", "#2ca02c", 1.5},
        {hz, 1, "Hertz (spikes: contacts)", "#d62728", 1.2},
        {scaled + 2 * n, 1, "total", "black", 1.5},
    };
    const series mid[] = {{scaled + 3 * n, 1, "P_x / P_0", "#9467bd", 1.5}};
    const series bot[] = {{energy_error, 1, "|E - E_0| / E_release", "#d62728", 1.2}};
    const double *t = &r->s[0].t;
    panel(f, 80, 70, 800, 230, "energy / release energy", "time (s)", t, st, n, top, 4, 0);
    panel(f, 80, 370, 800, 180,
          "horizontal momentum / momentum at first impact (continuous through the contacts)",
          "time (s)", t, st, n, mid, 1, 0);
    panel(f, 80, 620, 800, 220, "relative energy error (log scale)", "time (s)", t, st, n, bot,
          1, 1);
    fputs("</svg>\n", f);
    free(hz);
    free(scaled);
    return fclose(f) == 0 ? 0 : -1;
}

/* Velocities v_x / v0 of every ball over the first collision sequence. */
static int write_collision_chart(const char *path, const record *r, size_t from, size_t to,
                                 double v0, const params *p)
{
    char title[200];
    snprintf(title, sizeof title, "The first collision sequence (%d in, %s, dt = t_c / %g): "
             "horizontal velocity of each ball / impact speed", p->in, p->integrator_name,
             p->per_contact);
    FILE *f = chart_open(path, 1150, 480, title);
    if (!f)
        return -1;
    size_t n = to - from + 1;
    double *y = malloc((NB + 1) * n * sizeof *y);
    if (!y) {
        fclose(f);
        return -1;
    }
    double *t = y + NB * n;
    for (size_t i = 0; i < n; i++) {
        t[i] = (r->s[from + i].t - r->s[from].t) * 1e6;
        for (int b = 0; b < NB; b++)
            y[(size_t)b * n + i] = r->s[from + i].v[2 * b] / v0;
    }
    series ss[NB];
    char labels[NB][16], colors[NB][8];
    for (int b = 0; b < NB; b++) {
        snprintf(labels[b], sizeof labels[b], "ball %d", b + 1);
        ball_color(b, colors[b]);
        ss[b] = (series){y + (size_t)b * n, 1, labels[b], colors[b], 2};
    }
    panel(f, 80, 70, 800, 340, "v_x / v_0", "time from the step before the first touch (us)",
          t, 1, n, ss, NB, 0);
    fputs("</svg>\n", f);
    free(y);
    return fclose(f) == 0 ? 0 : -1;
}

/* ---- the run ------------------------------------------------------------ */

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cdyn_status st_ = (call);                                                         \
        if (st_ != CDYN_OK) {                                                             \
            fprintf(stderr, "newtons_cradle: %s failed: %s (%s)\n", #call,                \
                    cdyn_status_name(st_), cdyn_system_last_error(sys));                  \
            goto fail;                                                                    \
        }                                                                                 \
    } while (0)

int main(int argc, char **argv)
{
    params p = {
        .in = 1,
        .angle = 20,
        .duration = 1.85,
        .per_contact = 64,
        .integrator = CDYN_INTEGRATOR_RATTLE,
        .integrator_name = "rattle",
    };
    int rc = parse_args(argc, argv, &p);
    if (rc)
        return rc > 0 ? 0 : 2;

    const double th = p.angle * PI / 180;
    const double m = DENSITY * 4.0 / 3.0 * PI * RADIUS * RADIUS * RADIUS;
    /* Hertz constant of two equal balls (pair.h): k = (4/3) E* sqrt(R / 2). */
    const double k = 4.0 / 3.0 * YOUNG / (2 * (1 - POISSON * POISSON)) * sqrt(RADIUS / 2);
    const double v0 = sqrt(2 * GRAV * ROD * (1 - cos(th)));
    /* Contact time of two free balls at v0 (reduced mass m / 2). */
    const double overlap = pow(5 * (m / 2) * v0 * v0 / (4 * k), 0.4);
    const double tc = 2.94 * overlap / v0;
    const double dt_short = tc / p.per_contact;
    /* Period of a pendulum of amplitude th (two terms of the series). */
    const double period = 2 * PI * sqrt(ROD / GRAV) * (1 + th * th / 16);
    const double e_release = p.in * m * GRAV * ROD * (1 - cos(th));
    const double p0 = p.in * m * v0;

    int exit_code = 1;
    cdyn_system *sys = NULL;
    record rec = {0};
    double *energy_error = NULL;
    cdyn_particle ball[NB];
    cdyn_force hertz, gravity;

    CHECK(cdyn_system_create(2, &sys));
    CHECK(cdyn_system_set_integrator(sys, p.integrator));
    for (int i = 0; i < NB; i++) {
        double a = i < p.in ? -th : 0, hook[2] = {2 * RADIUS * i, 0};
        double x[2] = {hook[0] + ROD * sin(a), -ROD * cos(a)};
        cdyn_constraint rod;
        CHECK(cdyn_particle_add(sys, m, x, NULL, &ball[i]));
        CHECK(cdyn_constraint_add_anchor(sys, ball[i], hook, ROD, &rod));
    }
    cdyn_pair_params pp;
    CHECK(cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ));
    pp.stiffness = k;
    pp.radius = RADIUS;
    cdyn_particle pairs[2 * (NB - 1)];
    for (int i = 0; i < NB - 1; i++)
        pairs[2 * i] = ball[i], pairs[2 * i + 1] = ball[i + 1];
    CHECK(cdyn_force_add_pairs(sys, &pp, pairs, NB - 1, &hertz));
    CHECK(cdyn_force_add_gravity(sys, (double[]){0, -GRAV}, &gravity));

    printf("newtons_cradle: %d steel balls, radius %g m, mass %.4g kg, on rods of %g m; "
           "hooks %g m apart\n", NB, RADIUS, m, ROD, 2 * RADIUS);
    printf("  Hertz k = %.4g N/m^1.5 (E = %g GPa, nu = %g); %d ball%s released from %g "
           "degrees: impact speed %.4g m/s\n", k, YOUNG / 1e9, POISSON, p.in,
           p.in > 1 ? "s" : "", p.angle, v0);
    printf("  contact time of two balls at that speed t_c = %.3g us (largest overlap %.3g um); "
           "pendulum period %.4f s\n", tc * 1e6, overlap * 1e6, period);
    printf("  %s: long step %g s, short step t_c / %g = %.3g s near contacts; %g s simulated\n\n",
           p.integrator_name, DT_SWING, p.per_contact, dt_short, p.duration);

    const double rest = -NB * m * GRAV * ROD; /* gravity energy hanging at rest */
    double e0 = 0, worst = 0;
    long long_steps = 0, short_steps = 0;
    /* A collision sequence runs from the first overlap to the step at which
     * every gap is open again; an impact groups the sequences less than
     * T/20 apart (after the first impact the balls no longer quite touch,
     * and the next one breaks up into a train of two-ball collisions). */
    enum { MAX_IMPACTS = 256 };
    impact imp[MAX_IMPACTS];
    int n_imp = 0, in_sequence = 0, n_seq = 0;
    size_t first_from = 0, first_to = 0;
    for (;;) {
        sample sm;
        memset(&sm, 0, sizeof sm);
        CHECK(cdyn_system_get_time(sys, &sm.t));
        CHECK(cdyn_system_get_positions(sys, sm.x, 2 * NB));
        CHECK(cdyn_system_get_velocities(sys, sm.v, 2 * NB));
        CHECK(cdyn_system_get_kinetic_energy(sys, &sm.ke));
        double u;
        CHECK(cdyn_system_get_potential_energy(sys, &u));
        CHECK(cdyn_force_get_energy(sys, hertz, &sm.hertz));
        sm.gravity = u - sm.hertz - rest;
        double pm[2];
        CHECK(cdyn_system_get_momentum(sys, pm));
        sm.px = pm[0];
        double e = sm.ke + u;
        if (rec.n == 0)
            e0 = e;
        worst = fmax(worst, fabs(e - e0) / e_release);
        if (record_push(&rec, &sm)) {
            fprintf(stderr, "newtons_cradle: out of memory\n");
            goto fail;
        }
        int overlap_now = 0;
        for (int j = 0; j < NB - 1; j++)
            overlap_now |= gap(sm.x, j) < -1e-12; /* not the round-off of balls at rest */
        if (!in_sequence && overlap_now && rec.n >= 2) {
            in_sequence = 1;
            const sample *before = &rec.s[rec.n - 2];
            if (n_imp == 0 || before->t - imp[n_imp - 1].t_end > period / 20) {
                if (n_imp == MAX_IMPACTS) {
                    fprintf(stderr, "newtons_cradle: more than %d impacts; use a shorter "
                                    "--time\n", MAX_IMPACTS);
                    goto fail;
                }
                impact *q = &imp[n_imp++];
                memset(q, 0, sizeof *q);
                q->t_start = before->t;
                q->p_before = before->px;
                if (n_imp == 1)
                    first_from = rec.n - 2;
            }
        } else if (in_sequence && !overlap_now) {
            in_sequence = 0;
            n_seq++;
            impact *q = &imp[n_imp - 1];
            q->sequences++;
            q->t_end = sm.t;
            q->p_after = sm.px;
            q->energy_error = fabs(e - e0) / e_release;
            /* The outgoing balls: the last p.in when moving to +x, else the first. */
            int from = q->p_before > 0 ? NB - p.in : 0, to = q->p_before > 0 ? NB : p.in;
            double pg = 0, kg = 0;
            for (int i = from; i < to; i++) {
                pg += m * sm.v[2 * i];
                kg += 0.5 * m * (sm.v[2 * i] * sm.v[2 * i] + sm.v[2 * i + 1] * sm.v[2 * i + 1]);
            }
            q->p_share = pg / sm.px;
            q->ke_share = kg / sm.ke;
            for (int i = 0; i < NB; i++)
                q->v[i] = sm.v[2 * i] / v0;
            if (n_imp == 1)
                first_to = rec.n - 1;
        }
        if (sm.t >= p.duration - 1e-12)
            break;
        int near = contact_near(sm.x, sm.v);
        double h = near ? dt_short : DT_SWING;
        h = fmin(h, p.duration - sm.t);
        cdyn_status st = cdyn_system_step(sys, h);
        if (st != CDYN_OK) {
            fprintf(stderr, "newtons_cradle: step at t = %g failed: %s (%s)\n", sm.t,
                    cdyn_status_name(st), cdyn_system_last_error(sys));
            goto fail;
        }
        if (near)
            short_steps++;
        else
            long_steps++;
    }

    printf("impacts (P share, KE share: the part of the horizontal momentum and of the kinetic "
           "energy\nthat the %d outgoing ball%s away; dP: change of the momentum across "
           "the impact\n(the rods' impulse) / P_0; E error: |E - E_0| / E_release after it):\n",
           p.in, p.in > 1 ? "s carry" : " carries");
    printf("%3s %8s %9s %4s %8s %8s %9s %9s  %s\n", "#", "t (s)", "dur (us)", "seq", "P share",
           "KE share", "dP / P_0", "E error", "v_x / v0 after (balls 1..5)");
    for (int i = 0; i < n_imp; i++) {
        const impact *q = &imp[i];
        printf("%3d %8.4f %9.1f %4d %8.4f %8.4f %+9.2e %9.2e ", i + 1, q->t_start,
               (q->t_end - q->t_start) * 1e6, q->sequences, q->p_share, q->ke_share,
               (q->p_after - q->p_before) / p0, q->energy_error);
        for (int b = 0; b < NB; b++)
            printf(" %+.3f", q->v[b]);
        printf("\n");
    }
    printf("\n%ld long and %ld short steps; %d collision sequence%s in %d impact%s\n",
           long_steps, short_steps, n_seq, n_seq == 1 ? "" : "s", n_imp, n_imp == 1 ? "" : "s");
    printf("  largest energy error |E - E_0| / E_release = %.3g (inside a contact); at the end "
           "%.3g\n", worst, fabs(rec.s[rec.n - 1].ke + rec.s[rec.n - 1].gravity +
                                 rec.s[rec.n - 1].hertz + rest - e0) / e_release);

    energy_error = malloc(rec.n * sizeof *energy_error);
    if (!energy_error) {
        fprintf(stderr, "newtons_cradle: out of memory\n");
        goto fail;
    }
    for (size_t i = 0; i < rec.n; i++)
        energy_error[i] = fabs(rec.s[i].ke + rec.s[i].gravity + rec.s[i].hertz + rest - e0) /
                          e_release;
    size_t at[10];
    int n_at = 0;
    for (size_t i = 0; i < rec.n && n_at < 10; i++)
        if (rec.s[i].t >= n_at * period / 8 - 1e-9)
            at[n_at++] = i;
    if (write_strip("newtons_cradle.svg", &rec, at, n_at, period, &p) ||
        write_energy_chart("newtons_cradle_energy.svg", &rec, energy_error, e_release, p0, &p) ||
        (n_imp > 0 &&
         write_collision_chart("newtons_cradle_collision.svg", &rec, first_from, first_to, v0,
                               &p))) {
        fprintf(stderr, "newtons_cradle: cannot write the pictures\n");
        goto fail;
    }
    printf("  wrote newtons_cradle.svg, newtons_cradle_energy.svg%s\n",
           n_imp > 0 ? " and newtons_cradle_collision.svg" : "");
    exit_code = 0;

fail:
    free(energy_error);
    free(rec.s);
    cdyn_system_destroy(sys);
    return exit_code;
}
