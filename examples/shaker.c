/* shaker: a bed of grains on a vibrating plate.
 *
 * N discs of radius R (a Hertz pair set with Hunt-Crossley damping, so
 * that collisions lose energy) fill a box of width W: two walls and a
 * floor, all grounds with damping and friction. The floor is shaken
 * vertically, y = A sin(Omega t) (cdyn_ground_set_motion with an
 * OSCILLATION motion), after the bed has settled. The control parameter
 * is the plate's peak acceleration in units of gravity,
 *
 *     Gamma = A Omega^2 / g.
 *
 * Below Gamma = 1 the plate never pulls away faster than gravity can
 * follow: the bed rides on it as one block and its centre of mass moves
 * with the plate. Above, the plate drops away from the bed each cycle:
 * the bed takes off, lands, and the grains are thrown about (a vibrated,
 * fluidized granular bed); its centre of mass rises and the grains'
 * velocity fluctuations (granular temperature) grow.
 *
 * The plate's work (cdyn_system_get_drive_work) feeds the bed; dampers and
 * friction take it out: kinetic + potential energy - the drive's work
 * falls as the dissipated energy accumulates, never rises (up to the
 * integrator's error).
 *
 * Writes into the current directory:
 *   shaker.svg   the centre of mass's height above the plate's mean level
 *                for two accelerations, and the grains at the end of each
 *                run
 * and prints the measured heights, granular temperatures and energies.
 * Run with --help for the options.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "chart.h"
#include "cli.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

enum { COLUMNS = 10, ROWS = 12, GRAINS = COLUMNS * ROWS };
static const double RADIUS = 0.005; /* m */
static const double MASS = 1e-3;    /* kg */
static const double GRAVITY = 9.81;
static const double WIDTH = 2 * COLUMNS * 0.005 + 0.002; /* m, the box */

typedef struct params {
    double freq;             /* Hz */
    double low, high;        /* Gamma of the two runs */
    double settle, duration; /* s */
    double dt;
} params;

typedef struct run {
    double gamma;
    size_t n;
    double *t, *height;      /* centre of mass above the plate's mean level */
    double x[2 * GRAINS];    /* the grains at the end */
    double plate;            /* the plate's level at the end */
    double mean_height, temperature, dissipated, work, worst_rise;
} run;

static int usage(FILE *out, const params *d)
{
    fprintf(out,
            "usage: shaker [options]\n"
            "%d grains of radius %g m in a box on a plate shaken vertically; writes shaker.svg.\n"
            "  --freq F       the plate's frequency in Hz (default %g)\n"
            "  --low G        Gamma = A Omega^2 / g of the first run (default %g)\n"
            "  --high G       Gamma of the second run (default %g)\n"
            "  --time T       shaken seconds (default %g)\n"
            "  --dt DT        step in seconds (default %g)\n"
            "  --help         this text\n",
            GRAINS, RADIUS, d->freq, d->low, d->high, d->duration, d->dt);
    return out == stdout ? 1 : -1;
}

static int parse_args(int argc, char **argv, params *p)
{
    params d = *p;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0)
            return usage(stdout, &d);
        double *dst = strcmp(argv[i], "--freq") == 0   ? &p->freq
                      : strcmp(argv[i], "--low") == 0  ? &p->low
                      : strcmp(argv[i], "--high") == 0 ? &p->high
                      : strcmp(argv[i], "--time") == 0 ? &p->duration
                      : strcmp(argv[i], "--dt") == 0   ? &p->dt
                                                       : NULL;
        if (!dst || i + 1 >= argc || cli_parse_double(argv[++i], dst) || !(*dst > 0)) {
            fprintf(stderr, "shaker: bad option or value near %s\n", argv[i]);
            return usage(stderr, &d);
        }
    }
    return 0;
}

static void check(cdyn_system *sys, cdyn_status st, const char *what)
{
    if (st == CDYN_OK)
        return;
    fprintf(stderr, "shaker: %s: %s (%s)\n", what, cdyn_status_name(st),
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

/* A ground with the contact settings of the box. */
static cdyn_ground wall(cdyn_system *sys, double nx, double ny, double offset)
{
    cdyn_ground g;
    check(sys, cdyn_ground_add_plane(sys, (double[]){nx, ny}, offset, &g), "wall");
    check(sys, cdyn_ground_set_stiffness(sys, g, 1e4), "stiffness");
    check(sys, cdyn_ground_set_damping(sys, g, 1.0), "damping");
    check(sys, cdyn_ground_set_friction(sys, g, 0.3), "friction");
    return g;
}

static void simulate(const params *p, run *r)
{
    cdyn_system *sys;
    check(NULL, cdyn_system_create(2, &sys), "create");
    cdyn_particle grains[GRAINS];
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (int j = 0; j < ROWS; j++)
        for (int i = 0; i < COLUMNS; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            double jitter = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
            double x[2] = {0.001 + RADIUS * (2 * i + 1) + 0.0004 * jitter,
                           RADIUS * (2.2 * j + 1.1)};
            check(sys, cdyn_particle_add(sys, MASS, x, NULL, &grains[j * COLUMNS + i]),
                  "grain");
        }
    cdyn_force f;
    check(sys, cdyn_force_add_gravity(sys, (double[]){0, -GRAVITY}, &f), "gravity");
    cdyn_pair_params pp;
    cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ);
    pp.radius = RADIUS;
    pp.stiffness = 1e5;
    pp.damping = 0.5;
    check(sys, cdyn_force_add_pair_set(sys, &pp, grains, GRAINS, &f), "pairs");
    /* the grains touch the grounds with their rims: the planes sit R in */
    cdyn_ground floor = wall(sys, 0, 1, RADIUS);
    wall(sys, 1, 0, RADIUS);
    wall(sys, -1, 0, RADIUS - WIDTH);
    check(sys, cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_SYMPLECTIC_EULER), "integrator");
    size_t settle = (size_t)llround(p->settle / p->dt);
    for (size_t i = 0; i < settle; i++)
        check(sys, cdyn_system_step(sys, p->dt), "settle");

    double om = 2 * M_PI * p->freq, amp = r->gamma * GRAVITY / (om * om);
    cdyn_motion_desc shake;
    cdyn_motion_desc_init(&shake, CDYN_MOTION_OSCILLATION);
    shake.amplitude[1] = amp;
    shake.frequency = om;
    check(sys, cdyn_ground_set_motion(sys, floor, &shake), "shake");
    size_t steps = (size_t)llround(p->duration / p->dt), every = steps / 2000 + 1;
    r->n = 0;
    r->t = calloc(steps / every + 2, sizeof *r->t);
    r->height = calloc(steps / every + 2, sizeof *r->height);
    if (!r->t || !r->height) {
        fprintf(stderr, "shaker: out of memory\n");
        exit(1);
    }
    double e0 = energy(sys), last_balance = 0;
    double sum_h = 0, sum_t = 0;
    size_t n_avg = 0;
    for (size_t i = 0; i <= steps; i++) {
        if (i > 0)
            check(sys, cdyn_system_step(sys, p->dt), "step");
        double com[2], total, w, v[2 * GRAINS], vm[2] = {0, 0};
        cdyn_system_get_center_of_mass(sys, com, &total);
        cdyn_system_get_drive_work(sys, &w);
        double balance = energy(sys) - w - e0; /* minus what was dissipated */
        r->worst_rise = fmax(r->worst_rise, balance - last_balance);
        last_balance = balance;
        double h = com[1]; /* the plate's mean surface is y = 0 */
        if (i % every == 0) {
            r->t[r->n] = (double)i * p->dt;
            r->height[r->n++] = h;
        }
        if (i > steps / 2) {
            /* the second half: the fluctuations of the grains' velocities */
            cdyn_system_get_velocities(sys, v, 2 * GRAINS);
            for (int k = 0; k < GRAINS; k++)
                vm[0] += v[2 * k] / GRAINS, vm[1] += v[2 * k + 1] / GRAINS;
            double t2 = 0;
            for (int k = 0; k < GRAINS; k++)
                t2 += 0.5 * ((v[2 * k] - vm[0]) * (v[2 * k] - vm[0]) +
                             (v[2 * k + 1] - vm[1]) * (v[2 * k + 1] - vm[1])) / GRAINS;
            sum_t += t2;
            sum_h += h;
            n_avg++;
        }
        r->work = w;
        r->dissipated = -balance;
    }
    r->mean_height = sum_h / (double)n_avg;
    r->temperature = sum_t / (double)n_avg;
    cdyn_system_get_positions(sys, r->x, 2 * GRAINS);
    /* the plate's surface: the floor's plane holds the grains' centres R
     * above it, and H(0, 0) = -(the plane's height) */
    double h_plate, grad[2];
    cdyn_ground_evaluate(sys, floor, (double[]){0, 0}, &h_plate, grad);
    r->plate = -h_plate - RADIUS;
    cdyn_system_destroy(sys);
}

int main(int argc, char **argv)
{
    params p = {.freq = 15, .low = 0.6, .high = 4.0, .settle = 0.5, .duration = 3, .dt = 5e-5};
    int a = parse_args(argc, argv, &p);
    if (a)
        return a > 0 ? 0 : 2;
    static run runs[2];
    runs[0].gamma = p.low;
    runs[1].gamma = p.high;
    printf("shaker: %d grains of radius %g m on a plate shaken at %g Hz\n", GRAINS, RADIUS,
           p.freq);
    for (int i = 0; i < 2; i++) {
        run *r = &runs[i];
        simulate(&p, r);
        double om = 2 * M_PI * p.freq;
        printf("Gamma = %.2f (amplitude %.3g mm): centre of mass %.2f mm above the plate's "
               "mean level, granular temperature %.3g m^2/s^2\n",
               r->gamma, 1e3 * r->gamma * GRAVITY / (om * om), 1e3 * r->mean_height,
               r->temperature);
        printf("  the plate did %.4f J of work, dampers and friction took %.4f J; "
               "E - W - E0 never rose by more than %.2g J in a step\n",
               r->work, r->dissipated, r->worst_rise);
    }

    chart *c = chart_create(1000, 520);
    chart_title(c, "%d grains on a plate shaken at %g Hz", GRAINS, p.freq);
    chart_caption(c, "Hertz contacts with damping, grain radius %g mm; Gamma = A Omega^2 / g",
                  1e3 * RADIUS);
    chart_panel *ph = chart_panel_at(c, 0.0, 0.0, 0.56, 1.0);
    chart_x(ph, "time since the shaking started (s)", 0);
    chart_y(ph, "centre of mass above the plate's mean level (mm)", 0);
    const char *colors[2] = {"#1f77b4", "#d62728"};
    for (int i = 0; i < 2; i++) {
        run *r = &runs[i];
        for (size_t k = 0; k < r->n; k++)
            r->height[k] *= 1e3;
        char label[48];
        snprintf(label, sizeof label, "Gamma = %.1f", r->gamma);
        chart_line(ph, r->t, r->height, r->n, label, &(chart_style){.color = colors[i]});
    }
    for (int i = 0; i < 2; i++) {
        const run *r = &runs[i];
        chart_panel *ps = chart_panel_at(c, 0.58 + 0.21 * i, 0.0, 0.21, 1.0);
        chart_panel_title(ps, "Gamma = %.1f, at the end", r->gamma);
        chart_scene(ps);
        double box[8] = {0, 0.17, 0, r->plate, WIDTH, r->plate, WIDTH, 0.17};
        chart_path(ps, box, 4, &(chart_style){.color = "black", .width = 2});
        for (int k = 0; k < GRAINS; k++)
            chart_circle(ps, r->x[2 * k], r->x[2 * k + 1], RADIUS,
                         &(chart_style){.color = colors[i], .fill = colors[i],
                                        .fill_opacity = 0.5});
        if (i == 1)
            chart_scale_bar(ps, 0.02, "2 cm");
    }
    int rc = chart_save(c, "shaker.svg");
    chart_free(c);
    for (int i = 0; i < 2; i++)
        free(runs[i].t), free(runs[i].height);
    if (rc != 0) {
        fprintf(stderr, "shaker: cannot write shaker.svg\n");
        return 1;
    }
    printf("wrote shaker.svg\n");
    return 0;
}
