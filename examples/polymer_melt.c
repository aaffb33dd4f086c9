/* polymer_melt: a melt of bead-rod chains in a periodic box, thermostatted.
 *
 * M chains of N beads of unit mass, consecutive beads joined by rigid bonds
 * of length b (distance constraints, RATTLE), every pair of beads not
 * bonded repelling with the WCA potential (epsilon = sigma = 1: the
 * Lennard-Jones potential cut at 2^(1/6) and shifted), at bead density
 * 0.85 in a box periodic along every axis, held at kT = 1 by the Langevin
 * thermostat (BAOAB; with the rods, each drift ends on the constraints).
 *
 * The melt is made the usual way: chains laid down as random walks of
 * bond b (they overlap), a soft repulsion U = A (1 + cos(pi r / r_c))
 * (finite at r = 0: a pair potential given by a callback) ramped up to push
 * overlapping beads apart, then the WCA potential and the equilibration
 * run. What to expect of the chains' shape: a freely jointed chain has
 * <R^2(n)> = n b^2 between beads n bonds apart. In a melt the other chains
 * screen the excluded volume (Flory), so long chains stay random walks,
 * but the repulsion between beads two bonds apart opens the bond angles,
 * which stiffens the chain locally: <R^2(n)> / (n b^2) rises from 1 and
 * levels off at a constant above 1 (the characteristic ratio).
 *
 * The short distances settle within a few time units, the longer ones
 * later (a segment of n bonds relaxes in a time growing as n^2): the
 * internal distances averaged over each quarter of the run show the curve
 * rising from the random walks' 1 towards its plateau.
 *
 * Writes into the current directory:
 *   polymer_melt.svg  a few chains in the box (unwrapped, whole), the
 *                     internal distances <R^2(n)> / (n b^2) as laid down
 *                     and over each quarter of the run against the freely
 *                     jointed value 1, and the equilibration: temperature,
 *                     pressure, potential energy per bead and the
 *                     end-to-end distance against time
 * and prints the same with the time per bead per step.
 *
 * Units: sigma = 1, m = 1, epsilon = kT = 1 (time in sigma sqrt(m / eps)).
 * Run with --help for the options.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cdyn/cdyn.h>

#include "chart.h"
#include "cli.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define WCA_RC 1.122462048309373 /* 2^(1/6) */

typedef struct params {
    int chains, beads;
    double density, bond, kT, gamma, dt;
    long push, steps; /* steps of the push-off and of the run */
    int every;        /* steps between samples */
    uint64_t seed;
} params;

static void usage(FILE *out, const params *d)
{
    fprintf(out,
            "usage: polymer_melt [options]\n"
            "A melt of bead-rod chains (RATTLE) with WCA repulsion in a periodic box at\n"
            "kT = 1 (Langevin); writes polymer_melt.svg into the current directory.\n"
            "  --chains M   chains (default %d)\n"
            "  --beads N    beads per chain (default %d)\n"
            "  --density R  beads per unit volume (default %g)\n"
            "  --steps S    steps of the equilibration run (default %ld)\n"
            "  --push P     steps of the soft push-off before it (default %ld, at least\n"
            "               1000: a faster ramp leaves overlaps the rods cannot hold)\n"
            "  --dt DT      step of the run (default %g)\n"
            "  --seed S     random seed (default %llu)\n",
            d->chains, d->beads, d->density, d->steps, d->push, d->dt,
            (unsigned long long)d->seed);
}

static int parse(int argc, char **argv, params *p)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double x;
        if (!strcmp(a, "--help")) {
            usage(stdout, p);
            exit(0);
        }
        if (!v || cli_parse_double(v, &x) != 0) {
            usage(stderr, p);
            return -1;
        }
        i++;
        if (!strcmp(a, "--chains") && x >= 1 && x <= 100000)
            p->chains = (int)x;
        else if (!strcmp(a, "--beads") && x >= 2 && x <= 10000)
            p->beads = (int)x;
        else if (!strcmp(a, "--density") && x > 0 && x <= 1.2)
            p->density = x;
        else if (!strcmp(a, "--steps") && x >= 10)
            p->steps = (long)x;
        else if (!strcmp(a, "--push") && x >= 1000)
            p->push = (long)x;
        else if (!strcmp(a, "--dt") && x > 0 && x <= 0.02)
            p->dt = x;
        else if (!strcmp(a, "--seed") && x >= 0)
            p->seed = (uint64_t)x;
        else {
            fprintf(stderr, "polymer_melt: bad value for %s\n", a);
            return -1;
        }
    }
    return 0;
}

static double uniform(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

/* The soft push-off repulsion, amplitude in *user. */
static int soft(const cdyn_system *sys, double t, size_t i, size_t j, double r, double *energy,
                double *force, double *dforce, void *user)
{
    (void)sys, (void)t, (void)i, (void)j;
    const double A = *(const double *)user, k = M_PI / WCA_RC;
    if (energy)
        *energy = A * (1 + cos(k * r));
    if (force)
        *force = A * k * sin(k * r);
    if (dforce)
        *dforce = A * k * k * cos(k * r);
    return 0;
}

/* Per sample: time, temperature, pressure, potential energy per bead, mean
 * end-to-end R^2 / ((N - 1) b^2). */
typedef struct sample {
    double t, kT, P, u, r2;
} sample;

typedef struct melt {
    params p;
    cdyn_system *sys;
    cdyn_particle *bead;
    double L;
    double *u;          /* unwrapped positions, 3 per bead */
    double *r2_start;   /* <R^2(n)> / (n b^2) of the chains as laid down */
    double *r2_sum;     /* per quarter of the run q: sums at [q * beads + n] */
    long r2_count[4];
    sample *s;
    size_t n_s, cap_s;
} melt;

static int check(melt *m, cdyn_status st, const char *what)
{
    if (st != CDYN_OK)
        fprintf(stderr, "polymer_melt: %s: %s\n", what, cdyn_system_last_error(m->sys));
    return st != CDYN_OK;
}

/* <R^2(n)> / (n b^2) over all chains and all pairs n bonds apart. */
static void internal_distances(const melt *m, double *out)
{
    const int N = m->p.beads;
    const double b2 = m->p.bond * m->p.bond;
    for (int n = 1; n < N; n++) {
        double s = 0;
        long count = 0;
        for (int c = 0; c < m->p.chains; c++)
            for (int i = 0; i + n < N; i++) {
                const double *a = m->u + 3 * ((size_t)c * N + i), *z = a + 3 * n;
                s += (z[0] - a[0]) * (z[0] - a[0]) + (z[1] - a[1]) * (z[1] - a[1]) +
                     (z[2] - a[2]) * (z[2] - a[2]);
                count++;
            }
        out[n] = s / ((double)count * n * b2);
    }
}

static int sample_now(melt *m, cdyn_force pairs)
{
    const size_t n = (size_t)m->p.chains * (size_t)m->p.beads;
    if (check(m, cdyn_system_get_unwrapped_positions(m->sys, m->u, 3 * n), "positions"))
        return -1;
    if (m->n_s == m->cap_s) {
        size_t cap = m->cap_s ? 2 * m->cap_s : 256;
        sample *s = realloc(m->s, cap * sizeof *s);
        if (!s)
            return -1;
        m->s = s;
        m->cap_s = cap;
    }
    sample *s = &m->s[m->n_s++];
    double e;
    if (check(m, cdyn_system_get_time(m->sys, &s->t), "time") ||
        check(m, cdyn_system_get_temperature(m->sys, &s->kT), "temperature") ||
        check(m, cdyn_system_get_pressure(m->sys, &s->P), "pressure") ||
        check(m, cdyn_force_get_energy(m->sys, pairs, &e), "energy"))
        return -1;
    s->u = e / (double)n;
    double *r2 = malloc((size_t)m->p.beads * sizeof *r2);
    if (!r2)
        return -1;
    internal_distances(m, r2);
    s->r2 = r2[m->p.beads - 1];
    free(r2);
    return 0;
}

/* Chains laid down as random walks from random starts (overlapping). */
static int lay_down(melt *m)
{
    const params *p = &m->p;
    const size_t n = (size_t)p->chains * (size_t)p->beads;
    uint64_t rng = p->seed;
    for (int c = 0; c < p->chains; c++) {
        double x[3] = {m->L * uniform(&rng), m->L * uniform(&rng), m->L * uniform(&rng)};
        for (int i = 0; i < p->beads; i++) {
            if (i) {
                double cz = 2 * uniform(&rng) - 1, ph = 2 * M_PI * uniform(&rng);
                double sz = sqrt(1 - cz * cz);
                x[0] += p->bond * sz * cos(ph);
                x[1] += p->bond * sz * sin(ph);
                x[2] += p->bond * cz;
            }
            size_t k = (size_t)c * p->beads + i;
            if (check(m, cdyn_particle_add(m->sys, 1.0, x, NULL, &m->bead[k]), "add"))
                return -1;
            memcpy(m->u + 3 * k, x, sizeof x);
            cdyn_constraint rod;
            if (i && check(m, cdyn_constraint_add_distance(m->sys, m->bead[k - 1], m->bead[k],
                                                          p->bond, &rod),
                           "rod"))
                return -1;
        }
    }
    (void)n;
    return 0;
}

/* ---- the picture ----------------------------------------------------------- */

/* Oblique view: azimuth 30 degrees, elevation 20 degrees. */
static void view(const double *q, double *x, double *y)
{
    const double az = 30 * M_PI / 180, el = 20 * M_PI / 180;
    double a = cos(az) * q[0] - sin(az) * q[1];
    double b = sin(az) * q[0] + cos(az) * q[1];
    *x = a;
    *y = cos(el) * q[2] - sin(el) * b;
}

static void draw_box(chart_panel *p, double L)
{
    for (int e = 0; e < 12; e++) {
        /* edge e: two of the axes fixed at 0 or L, the third from 0 to L */
        int axis = e / 4, f1 = e % 2, f2 = (e / 2) % 2;
        double a[3], b[3];
        for (int k = 0, j = 0; k < 3; k++) {
            if (k == axis) {
                a[k] = 0;
                b[k] = L;
            } else {
                a[k] = b[k] = (j++ == 0 ? f1 : f2) * L;
            }
        }
        double ax, ay, bx, by;
        view(a, &ax, &ay);
        view(b, &bx, &by);
        chart_segment(p, ax, ay, bx, by, &(chart_style){.color = "#999", .width = 1});
    }
}

static void draw_chains(chart_panel *p, const melt *m, int shown)
{
    const int N = m->p.beads;
    double *xy = malloc((size_t)N * 2 * sizeof *xy);
    if (!xy)
        return;
    for (int c = 0; c < shown && c < m->p.chains; c++) {
        const double *u = m->u + 3 * (size_t)c * N;
        /* whole, moved by box lengths so that its centre is in the box */
        double centre[3] = {0, 0, 0}, shift[3];
        for (int i = 0; i < N; i++)
            for (int k = 0; k < 3; k++)
                centre[k] += u[3 * i + k] / N;
        for (int k = 0; k < 3; k++)
            shift[k] = -m->L * floor(centre[k] / m->L);
        for (int i = 0; i < N; i++) {
            double q[3] = {u[3 * i] + shift[0], u[3 * i + 1] + shift[1], u[3 * i + 2] + shift[2]};
            view(q, &xy[2 * i], &xy[2 * i + 1]);
        }
        const char *col = chart_color(c);
        chart_path(p, xy, (size_t)N, &(chart_style){.color = col, .width = 2.2});
        for (int i = 0; i < N; i++)
            chart_circle(p, xy[2 * i], xy[2 * i + 1], 0.18,
                         &(chart_style){.color = "none", .fill = col});
    }
    free(xy);
}

static int draw(const melt *m, double ns_per_bead)
{
    const params *p = &m->p;
    const int N = p->beads;
    chart *c = chart_create(1150, 620);
    chart_title(c, "A melt of %d bead-rod chains of %d beads, WCA repulsion, periodic box, "
                   "kT = 1 (Langevin)", p->chains, N);
    chart_caption(c, "density %.2f, bond %.2f sigma, rigid bonds (RATTLE), beads two bonds "
                     "apart repel; %.0f ns per bead per step here",
                  p->density, p->bond, ns_per_bead);

    chart_panel *box = chart_panel_at(c, 0.0, 0.0, 0.42, 1.0);
    chart_scene(box);
    chart_panel_title(box, "%d of the chains at the end, whole, in the box (side %.1f)",
                      6 < p->chains ? 6 : p->chains, m->L);
    draw_box(box, m->L);
    draw_chains(box, m, 6);

    /* <R^2(n)> / (n b^2) along the chain */
    chart_panel *r2 = chart_panel_at(c, 0.47, 0.0, 0.53, 0.5);
    chart_panel_title(r2, "internal distances along the chain, averaged over each quarter "
                          "of the run");
    chart_x(r2, "n (bonds apart)", CHART_LOG);
    chart_y(r2, "<R^{2}(n)> / (n b^{2})", 0);
    double *n = malloc((size_t)N * sizeof *n), *eq = malloc((size_t)N * sizeof *eq);
    if (n && eq) {
        for (int k = 1; k < N; k++)
            n[k] = k;
        chart_line(r2, n + 1, m->r2_start + 1, (size_t)N - 1, "as laid down (random walks)",
                   &(chart_style){.color = "#888", .dash = "5,3"});
        const double T = (double)p->steps * p->dt;
        for (int q = 0; q < 4; q++) {
            if (!m->r2_count[q])
                continue;
            for (int k = 1; k < N; k++)
                eq[k] = m->r2_sum[(size_t)q * N + k] / (double)m->r2_count[q];
            char label[64];
            snprintf(label, sizeof label, "t = %.0f to %.0f", q * T / 4, (q + 1) * T / 4);
            chart_line(r2, n + 1, eq + 1, (size_t)N - 1, label,
                       &(chart_style){.color = chart_color(q), .width = q == 3 ? 2.4 : 1.4});
        }
        chart_hline(r2, 1.0, "freely jointed chain", &(chart_style){.color = "black"});
    }
    free(n);
    free(eq);

    /* equilibration */
    chart_panel *eqp = chart_panel_at(c, 0.47, 0.56, 0.53, 0.44);
    chart_panel_title(eqp, "equilibration (the push-off ends at t = 0)");
    chart_x(eqp, "time (sigma (m / epsilon)^{1/2})", 0);
    chart_y(eqp, "value", 0);
    double *t = malloc(m->n_s * sizeof *t), *y = malloc(m->n_s * sizeof *y);
    if (t && y) {
        for (size_t i = 0; i < m->n_s; i++)
            t[i] = m->s[i].t;
        const struct {
            const char *label;
            size_t off;
        } rows[] = {{"kT", offsetof(sample, kT)},
                    {"pressure", offsetof(sample, P)},
                    {"potential energy per bead", offsetof(sample, u)},
                    {"end-to-end R^{2} / ((N-1) b^{2})", offsetof(sample, r2)}};
        for (int r = 0; r < 4; r++) {
            for (size_t i = 0; i < m->n_s; i++)
                y[i] = *(const double *)((const char *)&m->s[i] + rows[r].off);
            chart_line(eqp, t, y, m->n_s, rows[r].label, NULL);
        }
    }
    free(t);
    free(y);
    int rc = chart_save(c, "polymer_melt.svg");
    chart_free(c);
    return rc;
}

/* The Langevin thermostat at kT with friction gamma (1/time) and a seed. */
static cdyn_status thermostat(cdyn_system *sys, double kT, double gamma, uint64_t seed)
{
    cdyn_langevin_options o;
    cdyn_langevin_options_init(&o);
    o.kT = kT;
    o.gamma = gamma;
    o.seed = seed;
    return cdyn_system_set_langevin_options(sys, &o);
}

static double cpu_seconds(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

int main(int argc, char **argv)
{
    melt m = {.p = {.chains = 80, .beads = 24, .density = 0.85, .bond = 0.97, .kT = 1.0,
                    .gamma = 0.5, .dt = 0.005, .push = 4000, .steps = 40000, .every = 100,
                    .seed = 7}};
    if (parse(argc, argv, &m.p) != 0)
        return 2;
    const params *p = &m.p;
    const size_t n = (size_t)p->chains * (size_t)p->beads;
    m.L = cbrt((double)n / p->density);
    m.bead = malloc(n * sizeof *m.bead);
    m.u = malloc(3 * n * sizeof *m.u);
    m.r2_start = calloc((size_t)p->beads, sizeof *m.r2_start);
    m.r2_sum = calloc(4 * (size_t)p->beads, sizeof *m.r2_sum);
    double *r2 = malloc((size_t)p->beads * sizeof *r2);
    int rc = 1;
    if (!m.bead || !m.u || !m.r2_start || !m.r2_sum || !r2 || cdyn_system_create(3, &m.sys)) {
        fprintf(stderr, "polymer_melt: out of memory\n");
        goto done;
    }
    if (lay_down(&m))
        goto done;
    internal_distances(&m, m.r2_start);
    double origin[3] = {0, 0, 0}, len[3] = {m.L, m.L, m.L};
    bool periodic[3] = {true, true, true};
    double amplitude = 2.0;
    cdyn_pair_params pp;
    cdyn_force pairs;
    cdyn_pair_params_init(&pp, CDYN_PAIR_CALLBACK);
    pp.fn = soft;
    pp.user = &amplitude;
    pp.cutoff = WCA_RC;
    if (check(&m, cdyn_system_set_box(m.sys, origin, len, periodic), "box") ||
        check(&m, cdyn_force_add_pair_set(m.sys, &pp, m.bead, n, &pairs), "soft pairs") ||
        check(&m, cdyn_force_set_pair_exclude_bonded(m.sys, pairs, 1), "exclusions") ||
        check(&m, cdyn_system_set_integrator(m.sys, CDYN_INTEGRATOR_RATTLE), "integrator") ||
        check(&m, thermostat(m.sys, p->kT, 2.0, p->seed), "thermostat"))
        goto done;
    printf("polymer_melt: %d chains of %d beads (bond %g), density %g, box side %.3f\n",
           p->chains, p->beads, p->bond, p->density, m.L);
    printf("  as laid down: <R^2(n)> / (n b^2) = %.3f (n = 1), %.3f (n = %d)\n", m.r2_start[1],
           m.r2_start[p->beads - 1], p->beads - 1);
    /* Push-off: the soft amplitude from 2 to 100 epsilon. The callback
     * reads it from the amplitude variable, so the system is told of each
     * change (setting the clock to its own time): a step reuses the forces
     * of the last one's end only while nothing changed. */
    for (long s = 0; s < p->push; s++) {
        if (s % 100 == 0) {
            double t;
            amplitude = 2.0 * pow(50.0, (double)s / (double)(p->push > 1 ? p->push - 1 : 1));
            if (check(&m, cdyn_system_get_time(m.sys, &t), "time") ||
                check(&m, cdyn_system_set_time(m.sys, t), "time"))
                goto done;
        }
        if (check(&m, cdyn_system_step(m.sys, 0.002), "push-off step"))
            goto done;
    }
    /* The WCA potential from here on, a gentle start, then the run. */
    cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE);
    if (check(&m, cdyn_force_remove(m.sys, pairs), "remove") ||
        check(&m, cdyn_force_add_pair_set(m.sys, &pp, m.bead, n, &pairs), "WCA pairs") ||
        check(&m, cdyn_force_set_pair_exclude_bonded(m.sys, pairs, 1), "exclusions") ||
        check(&m, cdyn_system_set_time(m.sys, 0.0), "time"))
        goto done;
    for (int s = 0; s < 500; s++)
        if (check(&m, cdyn_system_step(m.sys, 0.0005), "start"))
            goto done;
    if (check(&m, thermostat(m.sys, p->kT, p->gamma, p->seed + 1), "thermostat"))
        goto done;
    double c0 = cpu_seconds();
    for (long s = 0; s < p->steps; s++) {
        if (s % p->every == 0) {
            if (sample_now(&m, pairs))
                goto done;
            int q = (int)(4 * s / p->steps);
            internal_distances(&m, r2);
            for (int k = 1; k < p->beads; k++)
                m.r2_sum[(size_t)q * p->beads + k] += r2[k];
            m.r2_count[q]++;
        }
        if (check(&m, cdyn_system_step(m.sys, p->dt), "step"))
            goto done;
    }
    double ns = 1e9 * (cpu_seconds() - c0) / ((double)p->steps * (double)n);
    if (sample_now(&m, pairs))
        goto done;
    /* averages over the second half */
    double kT = 0, P = 0, u = 0;
    size_t h = m.n_s / 2;
    for (size_t i = h; i < m.n_s; i++) {
        kT += m.s[i].kT / (double)(m.n_s - h);
        P += m.s[i].P / (double)(m.n_s - h);
        u += m.s[i].u / (double)(m.n_s - h);
    }
    double rx, rv;
    cdyn_system_compute_constraint_residuals(m.sys, &rx, &rv);
    printf("  run: %ld steps of %g (t = %g), %.0f ns per bead per step\n", p->steps, p->dt,
           (double)p->steps * p->dt, ns);
    printf("  second half: kT = %.4f, pressure = %.4f, potential energy per bead = %.4f, "
           "rod error %.1e\n", kT, P, u, rx);
    const double *last = m.r2_sum + 3 * (size_t)p->beads;
    const double cnt = (double)m.r2_count[3];
    printf("  last quarter, <R^2(n)> / (n b^2): n = 1: %.3f, n = %d: %.3f, n = %d: %.3f "
           "(freely jointed: 1)\n",
           last[1] / cnt, p->beads / 4, last[p->beads / 4] / cnt, p->beads - 1,
           last[p->beads - 1] / cnt);
    if (draw(&m, ns) != 0) {
        fprintf(stderr, "polymer_melt: cannot write polymer_melt.svg\n");
        goto done;
    }
    printf("  wrote polymer_melt.svg\n");
    rc = 0;
done:
    cdyn_system_destroy(m.sys);
    free(m.bead);
    free(m.u);
    free(m.r2_start);
    free(m.r2_sum);
    free(m.s);
    free(r2);
    return rc;
}
