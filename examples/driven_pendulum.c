/* driven_pendulum: a pendulum whose pivot is shaken up and down, the
 * Kapitza pendulum.
 *
 * A bob of mass m on a rigid rod of length l hangs from a pivot that moves
 * as y_p = a sin(Omega t) (a motion attached to the rod's anchor,
 * cdyn_constraint_set_motion with CDYN_MOTION_OSCILLATION). In the frame
 * of the pivot the bob feels gravity plus the inertial force
 * m a Omega^2 sin(Omega t), which averages to zero but, because the bob
 * answers it, leaves a slow effective potential
 *
 *     U_eff(theta) = -m g l cos(theta) + m a^2 Omega^2 sin^2(theta) / 4
 *
 * (theta from the hanging position). The upright position theta = pi is a
 * minimum of U_eff when a^2 Omega^2 > 2 g l: the inverted pendulum stays
 * up, wobbling slowly about the vertical with angular frequency
 *
 *     omega_slow^2 = a^2 Omega^2 / (2 l^2) - g / l.
 *
 * Two runs from 10 degrees off the upright: a fast drive (above the
 * threshold) that holds the pendulum up, and a slower one (below) under
 * which it falls and swings about the bottom. The example measures the
 * slow wobble's period against 2 pi / omega_slow (a result for
 * Omega >> omega_slow) and checks the energy bookkeeping of the driven
 * system: kinetic + potential energy minus the work of the drive
 * (cdyn_system_get_drive_work) stays at its start.
 *
 * Writes into the current directory:
 *   driven_pendulum.svg   the angle from the upright against time for both
 *                         drives, and the upright pendulum drawn at a few
 *                         instants with its pivot's path
 * and prints what it measured. Run with --help for the options.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "chart.h"
#include "cli.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const double LENGTH = 0.2;  /* m */
static const double MASS = 0.1;    /* kg */
static const double GRAVITY = 9.81;
static const double AMPLITUDE = 0.01; /* m, the pivot's */
static const double START = 10.0;     /* degrees off the upright */

typedef struct params {
    double fast, slow; /* drive frequencies, Hz */
    double dt, duration;
} params;

typedef struct run {
    double freq;        /* Hz */
    size_t n;
    double *t, *angle;  /* angle from the upright, degrees */
    double *xy;         /* bob and pivot positions at the drawn instants */
    double worst_balance, work_range;
} run;

static int usage(FILE *out, const params *d)
{
    fprintf(out,
            "usage: driven_pendulum [options]\n"
            "A pendulum of %.2g m on a pivot shaken up and down by %.2g m, started %.0f degrees\n"
            "from upright, under a fast and a slow drive; writes driven_pendulum.svg.\n"
            "  --fast F   the fast drive in Hz (default %g)\n"
            "  --slow F   the slow drive in Hz (default %g)\n"
            "  --dt DT    step in seconds (default %g)\n"
            "  --time T   simulated seconds (default %g)\n"
            "  --help     this text\n",
            LENGTH, AMPLITUDE, START, d->fast, d->slow, d->dt, d->duration);
    return out == stdout ? 1 : -1;
}

static int parse_args(int argc, char **argv, params *p)
{
    params d = *p;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0)
            return usage(stdout, &d);
        double *dst = strcmp(argv[i], "--fast") == 0   ? &p->fast
                      : strcmp(argv[i], "--slow") == 0 ? &p->slow
                      : strcmp(argv[i], "--dt") == 0   ? &p->dt
                      : strcmp(argv[i], "--time") == 0 ? &p->duration
                                                       : NULL;
        if (!dst || i + 1 >= argc || cli_parse_double(argv[++i], dst) || !(*dst > 0)) {
            fprintf(stderr, "driven_pendulum: bad option or value near %s\n", argv[i]);
            return usage(stderr, &d);
        }
    }
    return 0;
}

static void check(cdyn_system *sys, cdyn_status st, const char *what)
{
    if (st == CDYN_OK)
        return;
    fprintf(stderr, "driven_pendulum: %s: %s (%s)\n", what, cdyn_status_name(st),
            cdyn_system_last_error(sys));
    exit(1);
}

static double energy(const cdyn_system *sys)
{
    double k, u;
    cdyn_system_get_kinetic_energy(sys, &k);
    cdyn_system_get_potential_energy(sys, &u);
    return k + u;
}

/* One run: the pivot at the origin shaken at @p r->freq Hz. */
static void simulate(const params *p, run *r, int draws)
{
    cdyn_system *sys;
    check(NULL, cdyn_system_create(2, &sys), "create");
    check(sys, cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4), "integrator");
    double th = (180.0 - START) * M_PI / 180.0; /* from the hanging position */
    /* at rest relative to the pivot, which starts upwards at a Omega */
    double om = 2 * M_PI * r->freq;
    cdyn_particle bob;
    check(sys, cdyn_particle_add(sys, MASS, (double[]){LENGTH * sin(th), -LENGTH * cos(th)},
                                 (double[]){0, AMPLITUDE * om}, &bob),
          "bob");
    cdyn_force grav;
    check(sys, cdyn_force_add_gravity(sys, (double[]){0, -GRAVITY}, &grav), "gravity");
    cdyn_constraint rod;
    check(sys, cdyn_constraint_add_anchor(sys, bob, (double[]){0, 0}, LENGTH, &rod), "rod");
    cdyn_motion_desc shake;
    cdyn_motion_desc_init(&shake, CDYN_MOTION_OSCILLATION);
    shake.amplitude[1] = AMPLITUDE;
    shake.frequency = om;
    check(sys, cdyn_constraint_set_motion(sys, rod, &shake), "motion");
    size_t steps = (size_t)llround(p->duration / p->dt), every = steps / 3000 + 1;
    r->n = steps / every + 1;
    r->t = calloc(r->n, sizeof *r->t);
    r->angle = calloc(r->n, sizeof *r->angle);
    r->xy = calloc(4 * (size_t)draws, sizeof *r->xy);
    if (!r->t || !r->angle || !r->xy) {
        fprintf(stderr, "driven_pendulum: out of memory\n");
        exit(1);
    }
    double e0 = energy(sys), wmin = 0, wmax = 0;
    size_t k = 0;
    int drawn = 0;
    for (size_t i = 0; i <= steps; i++) {
        if (i > 0)
            check(sys, cdyn_system_step(sys, p->dt), "step");
        double x[2], b[2], w;
        cdyn_particle_get_position(sys, bob, x);
        cdyn_constraint_get_point(sys, rod, b);
        cdyn_system_get_drive_work(sys, &w);
        wmin = fmin(wmin, w), wmax = fmax(wmax, w);
        r->worst_balance = fmax(r->worst_balance, fabs(energy(sys) - w - e0));
        if (i % every == 0 && k < r->n) {
            /* the angle from the upright, unwrapped */
            double a = atan2(x[0] - b[0], x[1] - b[1]) * 180.0 / M_PI;
            if (k > 0)
                a += 360.0 * round((r->angle[k - 1] - a) / 360.0);
            r->t[k] = (double)i * p->dt;
            r->angle[k++] = a;
        }
        /* a few instants of the first half period of the wobble */
        if (drawn < draws && i % (steps / 40) == 0) {
            memcpy(r->xy + 4 * drawn, x, sizeof x);
            memcpy(r->xy + 4 * drawn + 2, b, sizeof b);
            drawn++;
        }
    }
    r->n = k;
    r->work_range = wmax - wmin;
    cdyn_system_destroy(sys);
}

/* The mean time between successive upward crossings of zero by the angle
 * averaged over one drive period (the fast jitter averages out), after
 * the first half second; 0 when there are fewer than two. */
static double wobble_period(const run *r, double drive_period)
{
    size_t win = 0;
    while (win < r->n && r->t[win] - r->t[0] < drive_period)
        win++;
    if (win < 2 || r->n < 3 * win)
        return 0;
    double prev = 0, first = -1, last = -1, sum = 0;
    int count = 0;
    for (size_t j = 0; j < win; j++)
        sum += r->angle[j];
    for (size_t i = win; i < r->n; i++) {
        sum += r->angle[i] - r->angle[i - win];
        double mean = sum / (double)win, tm = r->t[i] - 0.5 * drive_period;
        if (tm > 0.5 && prev < 0 && mean >= 0) {
            if (first < 0)
                first = tm;
            last = tm;
            count++;
        }
        prev = mean;
    }
    return count >= 2 ? (last - first) / (count - 1) : 0;
}

int main(int argc, char **argv)
{
    params p = {.fast = 50, .slow = 20, .dt = 1e-4, .duration = 4};
    int a = parse_args(argc, argv, &p);
    if (a)
        return a > 0 ? 0 : 2;
    enum { DRAWS = 9 };
    run fast = {.freq = p.fast}, slow = {.freq = p.slow};
    simulate(&p, &fast, DRAWS);
    simulate(&p, &slow, 0);

    double l = LENGTH, g = GRAVITY;
    printf("Kapitza pendulum: l = %g m, pivot amplitude a = %g m, started %g degrees off the "
           "upright\n", l, AMPLITUDE, START);
    printf("the upright is stable when a Omega > sqrt(2 g l) = %.3f m/s\n", sqrt(2 * g * l));
    const run *runs[2] = {&fast, &slow};
    for (int i = 0; i < 2; i++) {
        const run *r = runs[i];
        double om = 2 * M_PI * r->freq, aom = AMPLITUDE * om;
        double worst = 0;
        for (size_t k = 0; k < r->n; k++)
            worst = fmax(worst, fabs(r->angle[k]));
        printf("drive %g Hz: a Omega = %.3f m/s -> %s; largest angle from the upright %.1f "
               "degrees\n", r->freq, aom, aom * aom > 2 * g * l ? "stable" : "unstable", worst);
        if (aom * aom > 2 * g * l) {
            double w2 = aom * aom / (2 * l * l) - g / l;
            double measured = wobble_period(r, 1.0 / r->freq);
            printf("  slow wobble: period %.3f s measured, %.3f s from omega_slow^2 = "
                   "a^2 Omega^2 / (2 l^2) - g / l\n", measured, 2 * M_PI / sqrt(w2));
        }
        printf("  energy bookkeeping: |E - W - E0| <= %.2e J while the drive's work ranged "
               "over %.3f J\n", r->worst_balance, r->work_range);
    }

    chart *c = chart_create(1000, 560);
    chart_title(c, "A pendulum on a vertically shaken pivot (Kapitza pendulum)");
    chart_caption(c, "l = %.2g m, pivot amplitude %.2g m, started %.0f degrees from upright "
                  "at rest relative to the pivot", l, AMPLITUDE, START);
    const run *panels[2] = {&fast, &slow};
    const char *colors[2] = {"#1f77b4", "#d62728"};
    for (int i = 0; i < 2; i++) {
        const run *r = panels[i];
        chart_panel *pa = chart_panel_at(c, 0.0, 0.5 * i, 0.62, 0.5);
        double aom = AMPLITUDE * 2 * M_PI * r->freq;
        chart_panel_title(pa, "%g Hz: a Omega = %.2f m/s %s sqrt(2 g l) = %.2f m/s, %s",
                          r->freq, aom, aom * aom > 2 * g * l ? ">" : "<", sqrt(2 * g * l),
                          aom * aom > 2 * g * l ? "held upright" : "falls and whirls");
        chart_x(pa, "time (s)", 0);
        chart_y(pa, "angle from upright (deg)", 0);
        chart_hline(pa, 0, NULL, &(chart_style){.color = "#999999", .dash = "4,3", .width = 1});
        chart_line(pa, r->t, r->angle, r->n, NULL, &(chart_style){.color = colors[i]});
    }
    chart_panel *ps = chart_panel_at(c, 0.65, 0.0, 0.35, 1.0);
    chart_panel_title(ps, "%g Hz: the bob every %.2g s", fast.freq, p.duration / 40);
    chart_scene(ps);
    for (int k = 0; k < DRAWS; k++) {
        const double *q = fast.xy + 4 * k;
        char col[8];
        chart_ramp((double)k / (DRAWS - 1), col);
        chart_segment(ps, q[2], q[3], q[0], q[1], &(chart_style){.color = col, .width = 1.5});
        chart_circle(ps, q[0], q[1], 0.007, &(chart_style){.color = col, .fill = col});
    }
    chart_segment(ps, 0, -AMPLITUDE, 0, AMPLITUDE,
                  &(chart_style){.color = "black", .width = 3});
    chart_label(ps, 0.01, -AMPLITUDE, NULL, "the pivot's travel");
    chart_scale_bar(ps, 0.05, "5 cm");
    int rc = chart_save(c, "driven_pendulum.svg");
    chart_free(c);
    if (rc != 0) {
        fprintf(stderr, "driven_pendulum: cannot write driven_pendulum.svg\n");
        return 1;
    }
    printf("wrote driven_pendulum.svg\n");
    free(fast.t), free(fast.angle), free(fast.xy);
    free(slow.t), free(slow.angle), free(slow.xy);
    return 0;
}
