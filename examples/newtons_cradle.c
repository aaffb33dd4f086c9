/* newtons_cradle: five steel balls on rods with Hertz contacts
 * (docs/cradle.md).
 *
 * Hooks on a horizontal line, one ball diameter apart; each ball hangs on
 * a rigid rod from its hook (cdyn_constraint_add_anchor:
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

#include "chart.h"

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
    chart_ramp((double)i / (NB - 1), out);
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
    const double panel_w = 250, panel_h = (y1 - y0) * panel_w / (x1 - x0) + 24;
    chart *c = chart_create(panel_w * cols + 16, 70 + rows * panel_h);
    chart_title(c, "Newton's cradle: %d of %d steel balls (radius %g cm, rods of %g m) released "
                   "from %g degrees; Hertz contacts (%s)", p->in, NB, RADIUS * 100, ROD, p->angle,
                p->integrator_name);
    chart_caption(c, "every eighth of the period T = %.3f s; grey: each ball's path over the "
                     "previous T/8", period);
    double *trail = malloc(2 * r->n * sizeof *trail);
    for (int k = 0; k < n_at && trail; k++) {
        const sample *sm = &r->s[at[k]];
        chart_panel *panel = chart_panel_at(c, (double)(k % cols) / cols,
                                            (double)(k / cols) / rows, 1.0 / cols, 1.0 / rows);
        chart_scene(panel);
        chart_x_range(panel, x0, x1);
        chart_y_range(panel, y0, y1);
        chart_panel_title(panel, "t = %.3f s = %d T/8", sm->t, k);
        chart_segment(panel, -2 * RADIUS, 0, 2 * RADIUS * NB, 0,
                      &(chart_style){.color = "#444", .width = 4});
        for (int i = 0; i < NB; i++) {
            size_t m = 0;
            for (size_t q = at[k] + 1; q-- > 0 && r->s[q].t >= sm->t - period / 8; m++)
                trail[2 * m] = r->s[q].x[2 * i], trail[2 * m + 1] = r->s[q].x[2 * i + 1];
            chart_path(panel, trail, m, &(chart_style){.color = "#999"});
        }
        for (int i = 0; i < NB; i++) {
            double bx = sm->x[2 * i], by = sm->x[2 * i + 1];
            char col[8];
            ball_color(i, col);
            chart_segment(panel, 2 * RADIUS * i, 0, bx, by,
                          &(chart_style){.color = "#555", .width = 1});
            chart_circle(panel, bx, by, RADIUS,
                         &(chart_style){.color = "#222", .width = 0.8, .fill = col});
        }
    }
    int bad = !trail || chart_save(c, path) != 0;
    chart_free(c);
    free(trail);
    return bad ? -1 : 0;
}

static int write_energy_chart(const char *path, const record *r, const double *energy_error,
                              double e_release, double p0, const params *p)
{
    size_t n = r->n;
    double *y = malloc(6 * n * sizeof *y);
    if (!y)
        return -1;
    double *t = y + 5 * n;
    for (size_t i = 0; i < n; i++) {
        const sample *s = &r->s[i];
        t[i] = s->t;
        y[i] = s->ke / e_release;
        y[n + i] = s->gravity / e_release;
        y[2 * n + i] = s->hertz / e_release;
        y[3 * n + i] = (s->ke + s->gravity + s->hertz) / e_release;
        y[4 * n + i] = s->px / p0;
    }
    chart *c = chart_create(1150, 900);
    chart_title(c, "Newton's cradle, %d in from %g degrees (%s, dt = t_{c} / %g in contact): "
                   "energies, momentum and energy error", p->in, p->angle, p->integrator_name,
                p->per_contact);
    chart_panel *top = chart_panel_add(c, 1.1), *mid = chart_panel_add(c, 0.9);
    chart_panel *bottom = chart_panel_add(c, 1);
    chart_panel_title(top, "energy / release energy");
    chart_line(top, t, y, n, "kinetic", NULL);
    chart_line(top, t, y + n, n, "gravity (above rest)", &(chart_style){.color = "#2ca02c"});
    chart_line(top, t, y + 2 * n, n, "Hertz (spikes: contacts)",
               &(chart_style){.color = "#d62728", .width = 1.2});
    chart_line(top, t, y + 3 * n, n, "total = the sum of the three",
               &(chart_style){.color = "black"});
    chart_panel_title(mid, "horizontal momentum / momentum at first impact (continuous through "
                           "the contacts)");
    chart_line(mid, t, y + 4 * n, n, "P_{x} / P_{0}", &(chart_style){.color = "#9467bd"});
    chart_panel_title(bottom, "relative energy error");
    chart_x(bottom, "time (s)", 0);
    chart_y(bottom, NULL, CHART_LOG);
    chart_line(bottom, t, energy_error, n, "|E - E_{0}| / E_{release}",
               &(chart_style){.color = "#d62728", .width = 1.2});
    int bad = chart_save(c, path);
    chart_free(c);
    free(y);
    return bad;
}

/* Velocities v_x / v0 of every ball over the first collision sequence. */
static int write_collision_chart(const char *path, const record *r, size_t from, size_t to,
                                 double v0, const params *p)
{
    size_t n = to - from + 1;
    double *y = malloc((NB + 1) * n * sizeof *y);
    if (!y)
        return -1;
    double *t = y + NB * n;
    for (size_t i = 0; i < n; i++) {
        t[i] = (r->s[from + i].t - r->s[from].t) * 1e6;
        for (int b = 0; b < NB; b++)
            y[(size_t)b * n + i] = r->s[from + i].v[2 * b] / v0;
    }
    chart *c = chart_create(1000, 480);
    chart_title(c, "The first collision sequence (%d in, %s, dt = t_{c} / %g): horizontal velocity "
                   "of each ball", p->in, p->integrator_name, p->per_contact);
    chart_panel *panel = chart_panel_add(c, 1);
    chart_x(panel, "time from the step before the first touch (\xc2\xb5s)", 0);
    chart_y(panel, "v_{x} / v_{0} (impact speed)", 0);
    for (int b = 0; b < NB; b++) {
        char label[16], col[8];
        snprintf(label, sizeof label, "ball %d", b + 1);
        ball_color(b, col);
        chart_line(panel, t, y + (size_t)b * n, n, label, &(chart_style){.color = col,
                                                                         .width = 2});
    }
    int bad = chart_save(c, path);
    chart_free(c);
    free(y);
    return bad;
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
