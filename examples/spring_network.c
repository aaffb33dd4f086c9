/* spring_network: a thrown jelly.
 *
 * A disc of point masses on a triangulated mesh (a centre and rings of 6k
 * masses), each joined to its nearest and next-nearest neighbours by springs
 * with dashpots, is
 * squeezed flat by the hand that throws it and launched upwards with a spin.
 * In flight only gravity, the springs, their dashpots and a weak linear air
 * drag act: the jelly spins, wobbles between wide and tall, and the wobble
 * dies out while the rigid spin survives (a dashpot resists stretching only).
 *
 * Writes into the current directory:
 *   spring_network.svg         outlines at several instants, coloured from
 *                              early (blue) to late (red), the centre-of-mass
 *                              path, and the springs at launch and at the end
 *   spring_network_energy.svg  kinetic, potential, total energy, the energy
 *                              dissipated by dashpots and drag, and their sum
 * and prints the energies at intervals and the checks at the end:
 *   - energy balance: total + dissipated stays at its initial value;
 *   - centre of mass: with equal masses and uniform drag b per particle the
 *     centre obeys M dU/dt = M g - N b U exactly (the internal forces cancel,
 *     Newton's third law), whatever the jelly does; compared with that solution;
 *   - angular momentum about the centre decays as exp(-b t / m) (the spring
 *     forces are central and exert no net torque).
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

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---- parameters --------------------------------------------------------- */

typedef struct params {
    cdyn_integrator integrator;
    const char *integrator_name;
    double dt;        /* s */
    long steps;
    double radius;    /* m, of the disc */
    double spacing;   /* m, lattice spacing */
    double mass;      /* kg, total */
    double stiffness; /* N/m, per nearest-neighbour spring */
    double damping;   /* N s/m, per dashpot */
    double drag;      /* kg/s, per particle */
    double speed[2];  /* m/s, launch velocity of the centre */
    double spin;      /* rad/s, launch angular velocity (counter-clockwise) */
    double squeeze;   /* initial shape: x scaled by squeeze, y by 1/squeeze */
    int snapshots;
} params;

static void usage(FILE *out, const params *d)
{
    fprintf(out,
            "usage: spring_network [options]\n"
            "A 2-D spring-dashpot jelly thrown upwards with a spin; writes\n"
            "spring_network.svg and spring_network_energy.svg into the current directory.\n"
            "  --integrator NAME  euler | symplectic | verlet | rk4 | rk45 | backward\n"
            "                     (default %s; backward Euler damps numerically, which the\n"
            "                     energy balance then shows)\n"
            "  --dt DT            step in seconds (default %g; rk45 subdivides it itself)\n"
            "  --steps N          number of steps (default %ld, i.e. %.3g s)\n"
            "  --stiffness S      nearest-neighbour spring constant, N/m (default %g;\n"
            "                     next-nearest springs get S/3)\n"
            "  --damping D        dashpot constant, N s/m (default %g)\n"
            "  --drag B           linear air drag per particle, kg/s (default %g)\n"
            "  --spin W           launch angular velocity, rad/s (default %g)\n"
            "  --squeeze Q        initial squash: x times Q, y divided by Q (default %g)\n"
            "  --radius R         disc radius, m (default %g)\n"
            "  --spacing H        ring spacing of the mesh, m (default %g; R / H rings)\n"
            "  --vx VX, --vy VY   launch velocity of the centre, m/s (default %g, %g)\n"
            "  --snapshots K      outlines drawn (default %d)\n"
            "  --help             this text\n",
            d->integrator_name, d->dt, d->steps, d->dt * (double)d->steps, d->stiffness,
            d->damping, d->drag, d->spin, d->squeeze, d->radius, d->spacing, d->speed[0],
            d->speed[1], d->snapshots);
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
            fprintf(stderr, "spring_network: unknown option or missing value: %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        const char *val = argv[++i];
        double x = 0;
        int bad = 0;
        if (strcmp(a, "--integrator") == 0) {
            unsigned allowed =
                CLI_EXPLICIT_INTEGRATORS | CLI_INTEGRATOR_BIT(CDYN_INTEGRATOR_BACKWARD_EULER);
            bad = cli_parse_integrator(val, allowed, &p->integrator, &p->integrator_name);
        } else if (strcmp(a, "--dt") == 0) {
            bad = cli_parse_double(val, &p->dt) || !(p->dt > 0);
        } else if (strcmp(a, "--steps") == 0) {
            bad = cli_parse_double(val, &x) || !(x >= 1 && x <= 1e9);
            p->steps = (long)x;
        } else if (strcmp(a, "--stiffness") == 0) {
            bad = cli_parse_double(val, &p->stiffness) || !(p->stiffness > 0);
        } else if (strcmp(a, "--damping") == 0) {
            bad = cli_parse_double(val, &p->damping) || !(p->damping >= 0);
        } else if (strcmp(a, "--drag") == 0) {
            bad = cli_parse_double(val, &p->drag) || !(p->drag >= 0);
        } else if (strcmp(a, "--spin") == 0) {
            bad = cli_parse_double(val, &p->spin);
        } else if (strcmp(a, "--squeeze") == 0) {
            bad = cli_parse_double(val, &p->squeeze) || !(p->squeeze >= 0.5 && p->squeeze <= 2);
        } else if (strcmp(a, "--radius") == 0) {
            bad = cli_parse_double(val, &p->radius) || !(p->radius > 0);
        } else if (strcmp(a, "--spacing") == 0) {
            bad = cli_parse_double(val, &p->spacing) || !(p->spacing > 0);
        } else if (strcmp(a, "--vx") == 0) {
            bad = cli_parse_double(val, &p->speed[0]);
        } else if (strcmp(a, "--vy") == 0) {
            bad = cli_parse_double(val, &p->speed[1]);
        } else if (strcmp(a, "--snapshots") == 0) {
            bad = cli_parse_double(val, &x) || !(x >= 2 && x <= 50);
            p->snapshots = (int)x;
        } else {
            fprintf(stderr, "spring_network: unknown option %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        if (bad) {
            fprintf(stderr, "spring_network: bad value for %s: %s\n", a, val);
            return -1;
        }
    }
    return 0;
}

/* ---- the mesh ----------------------------------------------------------- */

typedef struct spring_info {
    size_t a, b;      /* indices into the particle arrays */
    double damping;   /* D, for the dissipated power */
} spring_info;

typedef struct jelly {
    size_t n;             /* particles */
    double *x0;           /* rest positions, 2 per particle */
    size_t n_springs;
    size_t n_near;        /* springs[0, n_near) are nearest-neighbour ones */
    spring_info *springs;
    size_t n_outline;
    size_t *outline;      /* boundary particles in counter-clockwise order */
} jelly;

static void jelly_free(jelly *j)
{
    free(j->x0);
    free(j->springs);
    free(j->outline);
    memset(j, 0, sizeof *j);
}

typedef struct edge_rec {
    size_t lo, hi;   /* vertices of a triangle edge, lo < hi */
    size_t opposite; /* the triangle's third vertex */
} edge_rec;

static int edge_cmp(const void *pa, const void *pb)
{
    const edge_rec *a = pa, *b = pb;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    return (a->opposite > b->opposite) - (a->opposite < b->opposite);
}

static int pair_cmp(const void *pa, const void *pb)
{
    const spring_info *a = pa, *b = pb;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

static void add_triangle(edge_rec *e, size_t *n, size_t p, size_t q, size_t r)
{
    const size_t v[3] = {p, q, r};
    for (int k = 0; k < 3; k++) {
        size_t a = v[k], b = v[(k + 1) % 3];
        e[*n].lo = a < b ? a : b;
        e[*n].hi = a < b ? b : a;
        e[*n].opposite = v[(k + 2) % 3];
        (*n)++;
    }
}

/* A triangulated disc: a centre and K = radius / h rings, ring k of radius
 * k h holding 6k masses (the hexagonal lattice bent round), neighbouring
 * rings zipped together into triangles. Springs: every triangle edge
 * (nearest neighbours, length about h) and, for every edge shared by two
 * triangles, the pair of opposite vertices (next-nearest neighbours, about
 * sqrt(3) h, which resist shear). The outline is the outer ring. */
static int jelly_build(jelly *j, double radius, double h)
{
    memset(j, 0, sizeof *j);
    long rings = lround(radius / h);
    if (rings < 2 || rings > 60)
        return -1;
    size_t K = (size_t)rings;
    j->n = 1 + 3 * K * (K + 1);
    size_t n_tri = 6 * K * K; /* 6 (2k - 1) triangles between rings k - 1 and k */
    edge_rec *e = malloc(3 * n_tri * sizeof *e);
    size_t *first = malloc((K + 1) * sizeof *first); /* index of ring k's first mass */
    j->x0 = malloc(2 * j->n * sizeof *j->x0);
    if (!e || !first || !j->x0)
        goto fail;
    j->x0[0] = j->x0[1] = 0.0;
    first[0] = 0;
    size_t n = 1;
    for (size_t k = 1; k <= K; k++) {
        first[k] = n;
        for (size_t i = 0; i < 6 * k; i++, n++) {
            double phi = 2.0 * M_PI * (double)i / (double)(6 * k);
            j->x0[2 * n] = (double)k * h * cos(phi);
            j->x0[2 * n + 1] = (double)k * h * sin(phi);
        }
    }
    size_t ne = 0;
    for (size_t k = 1; k <= K; k++) {
        size_t n_in = k == 1 ? 1 : 6 * (k - 1), n_out = 6 * k, i = 0, o = 0;
        while (i < (k == 1 ? 0 : n_in) || o < n_out) {
            /* Advance along the ring whose next mass comes first in angle. */
            double a_in = (double)(i + 1) / (double)n_in, a_out = (double)(o + 1) / (double)n_out;
            size_t in_i = first[k - 1] + (k == 1 ? 0 : i % n_in);
            size_t out_o = first[k] + o % n_out;
            if (k > 1 && i < n_in && (o == n_out || a_in < a_out)) {
                add_triangle(e, &ne, in_i, first[k - 1] + (i + 1) % n_in, out_o);
                i++;
            } else {
                add_triangle(e, &ne, in_i, out_o, first[k] + (o + 1) % n_out);
                o++;
            }
        }
    }
    if (ne != 3 * n_tri)
        goto fail;
    /* Edges: equal (lo, hi) records are one edge seen from its two triangles. */
    qsort(e, ne, sizeof *e, edge_cmp);
    j->springs = malloc(ne * sizeof *j->springs);
    if (!j->springs)
        goto fail;
    size_t n_near = 0;
    for (size_t k = 0; k < ne;) {
        size_t m = (k + 1 < ne && e[k + 1].lo == e[k].lo && e[k + 1].hi == e[k].hi) ? 2 : 1;
        j->springs[n_near].a = e[k].lo;
        j->springs[n_near].b = e[k].hi;
        n_near++;
        k += m;
    }
    size_t n_all = n_near;
    for (size_t k = 0; k < ne;) {
        if (k + 1 < ne && e[k + 1].lo == e[k].lo && e[k + 1].hi == e[k].hi) {
            size_t p = e[k].opposite, q = e[k + 1].opposite;
            j->springs[n_all].a = p < q ? p : q;
            j->springs[n_all].b = p < q ? q : p;
            n_all++;
            k += 2;
        } else {
            k++;
        }
    }
    /* A pair may be opposite across two edges only in a degenerate mesh;
     * sort the next-nearest pairs and drop repeats to be safe. */
    qsort(j->springs + n_near, n_all - n_near, sizeof *j->springs, pair_cmp);
    size_t w = n_near;
    for (size_t k = n_near; k < n_all; k++)
        if (w == n_near || pair_cmp(&j->springs[w - 1], &j->springs[k]) != 0)
            j->springs[w++] = j->springs[k];
    j->n_springs = w;
    j->n_near = n_near;
    j->n_outline = 6 * K;
    j->outline = malloc(j->n_outline * sizeof *j->outline);
    if (!j->outline)
        goto fail;
    for (size_t i = 0; i < j->n_outline; i++)
        j->outline[i] = first[K] + i;
    free(e);
    free(first);
    return 0;
fail:
    free(e);
    free(first);
    jelly_free(j);
    return -1;
}

/* ---- measurements ------------------------------------------------------- */

/* Power dissipated (W) at the state (x, v): by the dashpots,
 * sum D (n . (v_b - v_a))^2, and by the drag, sum b |v|^2. */
static void dissipated_power(const jelly *j, double drag, const double *x, const double *v,
                             double *dashpots, double *air)
{
    double pd = 0, pa = 0;
    for (size_t k = 0; k < j->n_springs; k++) {
        const spring_info *s = &j->springs[k];
        double dx = x[2 * s->b] - x[2 * s->a], dy = x[2 * s->b + 1] - x[2 * s->a + 1];
        double l = sqrt(dx * dx + dy * dy);
        if (!(l > 0))
            continue;
        double rate =
            (dx * (v[2 * s->b] - v[2 * s->a]) + dy * (v[2 * s->b + 1] - v[2 * s->a + 1])) / l;
        pd += s->damping * rate * rate;
    }
    for (size_t i = 0; i < j->n; i++)
        pa += drag * (v[2 * i] * v[2 * i] + v[2 * i + 1] * v[2 * i + 1]);
    *dashpots = pd;
    *air = pa;
}

typedef struct energies {
    double kinetic, gravity, elastic, total;
} energies;

static cdyn_status measure(const cdyn_system *sys, cdyn_force gravity, energies *e)
{
    cdyn_status st;
    double pot;
    if ((st = cdyn_system_get_kinetic_energy(sys, &e->kinetic)) ||
        (st = cdyn_system_get_potential_energy(sys, &pot)) ||
        (st = cdyn_force_get_energy(sys, gravity, &e->gravity)))
        return st;
    e->elastic = pot - e->gravity;
    e->total = e->kinetic + pot;
    return CDYN_OK;
}

/* Angular momentum (z) about the centre of mass: L_origin - X x P. */
static cdyn_status spin_about_centre(const cdyn_system *sys, double *out)
{
    double l[3], c[2], p[2];
    cdyn_status st;
    if ((st = cdyn_system_get_angular_momentum(sys, l)) ||
        (st = cdyn_system_get_center_of_mass(sys, c, NULL)) ||
        (st = cdyn_system_get_momentum(sys, p)))
        return st;
    *out = l[2] - (c[0] * p[1] - c[1] * p[0]);
    return CDYN_OK;
}

/* ---- pictures ----------------------------------------------------------- */

typedef struct snapshot {
    double t;
    double *xy;          /* outline, 2 per vertex */
    double marker[2][2]; /* centre of mass and the painted rim mass */
} snapshot;

static void draw_mesh(chart_panel *p, const jelly *j, const double *x, const char *color)
{
    for (size_t k = 0; k < j->n_springs; k++) {
        const spring_info *sp = &j->springs[k];
        chart_segment(p, x[2 * sp->a], x[2 * sp->a + 1], x[2 * sp->b], x[2 * sp->b + 1],
                      &(chart_style){.color = color, .width = 0.3});
    }
}

static int write_picture(const char *path, const jelly *j, const snapshot *snaps, int n_snaps,
                         const double *path_xy, size_t n_path, const double *x_first,
                         const double *x_last, const params *p)
{
    chart *c = chart_create(1000, 700);
    chart_title(c, "Spring-dashpot jelly: %zu masses, %zu springs, thrown with a spin of %.3g "
                   "rad/s (%s, dt = %g s)", j->n, j->n_springs, p->spin, p->integrator_name,
                p->dt);
    chart_caption(c, "outlines at equal time intervals; dot and line: the centre and a painted "
                     "rim mass (they show the spin)");
    chart_panel *panel = chart_panel_add(c, 1);
    chart_scene(panel);
    draw_mesh(panel, j, x_first, "#8fa6d0");
    draw_mesh(panel, j, x_last, "#d89a9a");
    const chart_style dashed = {.color = "#444", .width = 1.2, .dash = "6,4"};
    chart_path(panel, path_xy, n_path, &dashed);
    for (int k = 0; k < n_snaps; k++) {
        char col[8];
        chart_ramp(n_snaps > 1 ? (double)k / (double)(n_snaps - 1) : 0.0, col);
        const double(*m)[2] = snaps[k].marker;
        chart_polygon(panel, snaps[k].xy, j->n_outline,
                      &(chart_style){.color = col, .width = 2, .fill = col,
                                     .fill_opacity = 0.12});
        chart_segment(panel, m[0][0], m[0][1], m[1][0], m[1][1],
                      &(chart_style){.color = col, .width = 1.5});
        chart_marker(panel, m[0][0], m[0][1], &(chart_style){.color = col, .size = 3});
        chart_marker(panel, m[1][0], m[1][1], &(chart_style){.color = col, .size = 3.5});
        double top = -INFINITY, tx = m[0][0];
        for (size_t i = 0; i < j->n_outline; i++)
            if (snaps[k].xy[2 * i + 1] > top)
                top = snaps[k].xy[2 * i + 1], tx = snaps[k].xy[2 * i];
        chart_label(panel, tx, top, &(chart_style){.color = col}, "%.2f s", snaps[k].t);
    }
    chart_ramp_key(panel, "time (s)", 0, snaps[n_snaps - 1].t, CHART_RAMP_LINEAR, NULL);
    chart_key(panel, CHART_LINE, "path of the centre of mass", &dashed);
    chart_key(panel, CHART_LINE, "springs at launch", &(chart_style){.color = "#8fa6d0"});
    chart_key(panel, CHART_LINE, "springs at the end", &(chart_style){.color = "#d89a9a"});
    chart_scale_bar(panel, 1.0, "1 m");
    int bad = chart_save(c, path);
    chart_free(c);
    return bad;
}

enum { R_KIN, R_POT, R_ELASTIC, R_TOTAL, R_SUM, R_LOST, R_DASH, R_AIR, R_DISS, R_COUNT };

static int write_energy_chart(const char *path, const double *t, size_t n,
                              double *const rec[R_COUNT])
{
    chart *c = chart_create(1000, 760);
    chart_title(c, "Thrown jelly: where the energy goes");
    chart_panel *top = chart_panel_add(c, 1), *bottom = chart_panel_add(c, 1);
    chart_panel_title(top, "energies");
    chart_y(top, "energy (J)", 0);
    chart_line(top, t, rec[R_KIN], n, "kinetic", NULL);
    chart_line(top, t, rec[R_POT], n, "potential (gravity + elastic)", NULL);
    chart_line(top, t, rec[R_TOTAL], n, "total = kinetic + potential",
               &(chart_style){.width = 2});
    chart_line(top, t, rec[R_SUM], n, "total + dissipated (constant)",
               &(chart_style){.color = "black", .dash = "6,4"});
    chart_panel_title(bottom, "loss of total energy = dissipated energy");
    chart_x(bottom, "time (s)", 0);
    chart_y(bottom, "energy (J)", 0);
    chart_line(bottom, t, rec[R_LOST], n, "loss of total energy",
               &(chart_style){.color = "#ff7f0e", .width = 5});
    chart_line(bottom, t, rec[R_DISS], n, "dissipated (dashpots + drag)",
               &(chart_style){.color = "black", .dash = "6,4"});
    chart_line(bottom, t, rec[R_DASH], n, "dissipated by dashpots",
               &(chart_style){.color = "#9467bd"});
    chart_line(bottom, t, rec[R_AIR], n, "dissipated by drag", &(chart_style){.color = "#8c564b"});
    chart_line(bottom, t, rec[R_ELASTIC], n, "elastic energy of the springs",
               &(chart_style){.color = "#17becf"});
    int bad = chart_save(c, path);
    chart_free(c);
    return bad;
}

/* ---- the run ------------------------------------------------------------ */

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cdyn_status st_ = (call);                                                         \
        if (st_ != CDYN_OK) {                                                             \
            fprintf(stderr, "spring_network: %s failed: %s (%s)\n", #call,                \
                    cdyn_status_name(st_), cdyn_system_last_error(sys));                  \
            goto fail;                                                                    \
        }                                                                                 \
    } while (0)

int main(int argc, char **argv)
{
    params p = {
        .integrator = CDYN_INTEGRATOR_RK4,
        .integrator_name = "rk4",
        .dt = 5e-4,
        .steps = 2500,
        .radius = 0.4,
        .spacing = 0.05,
        .mass = 1.0,
        .stiffness = 30.0,
        .damping = 0.02,
        .drag = 5e-5,
        .speed = {4.0, 6.0},
        .spin = 5.0,
        .squeeze = 1.2,
        .snapshots = 8,
    };
    int rc = parse_args(argc, argv, &p);
    if (rc)
        return rc > 0 ? 0 : 2;

    jelly j;
    if (jelly_build(&j, p.radius, p.spacing)) {
        fprintf(stderr, "spring_network: could not build the disc (radius / spacing must be "
                        "between 2 and 60)\n");
        return 1;
    }
    const double g[2] = {0.0, -9.81};
    const double m = p.mass / (double)j.n;
    int exit_code = 1;
    cdyn_system *sys = NULL;
    size_t n_rec = (size_t)p.steps + 1;
    cdyn_particle *handles = malloc(j.n * sizeof *handles);
    size_t *index = malloc(j.n * sizeof *index);
    double *x = malloc(2 * j.n * sizeof *x), *v = malloc(2 * j.n * sizeof *v);
    double *x_first = malloc(2 * j.n * sizeof *x_first);
    double *rec_t = malloc(n_rec * sizeof *rec_t);
    double *path_xy = malloc(2 * n_rec * sizeof *path_xy);
    snapshot *snaps = calloc((size_t)p.snapshots, sizeof *snaps);
    double *rec[R_COUNT] = {0};
    int oom = !handles || !index || !x || !v || !x_first || !rec_t || !path_xy || !snaps;
    for (int k = 0; k < R_COUNT; k++)
        oom |= !(rec[k] = malloc(n_rec * sizeof *rec[k]));
    for (int k = 0; !oom && k < p.snapshots; k++)
        oom |= !(snaps[k].xy = malloc(2 * j.n_outline * sizeof *snaps[k].xy));
    if (oom) {
        fprintf(stderr, "spring_network: out of memory\n");
        goto fail;
    }

    CHECK(cdyn_system_create(2, &sys));
    CHECK(cdyn_system_set_integrator(sys, p.integrator));

    /* Squeezed, spinning and moving: v = U + w e_z x (x - X). The rest shape
     * is centred on the origin, so the centre of mass starts there. */
    for (size_t i = 0; i < j.n; i++) {
        double rx = j.x0[2 * i] * p.squeeze, ry = j.x0[2 * i + 1] / p.squeeze;
        double pos[2] = {rx, ry};
        double vel[2] = {p.speed[0] - p.spin * ry, p.speed[1] + p.spin * rx};
        CHECK(cdyn_particle_add(sys, m, pos, vel, &handles[i]));
    }
    /* Nearest-neighbour springs get S; next-nearest ones (across two
     * triangles) get S/3, adding shear stiffness without dominating. Every
     * spring has a dashpot and is at rest in the unsqueezed disc. */
    for (size_t k = 0; k < j.n_springs; k++) {
        spring_info *s = &j.springs[k];
        double dx = j.x0[2 * s->b] - j.x0[2 * s->a], dy = j.x0[2 * s->b + 1] - j.x0[2 * s->a + 1];
        double stiff = k < j.n_near ? p.stiffness : p.stiffness / 3.0;
        s->damping = p.damping;
        cdyn_force f;
        CHECK(cdyn_force_add_spring(sys, handles[s->a], handles[s->b], stiff, p.damping,
                                    sqrt(dx * dx + dy * dy), &f));
    }
    /* From here on the springs and the outline refer to particles by their
     * library index, the position of their entries in bulk arrays. */
    size_t n_index;
    CHECK(cdyn_system_get_index_count(sys, &n_index));
    if (n_index != j.n) {
        fprintf(stderr, "spring_network: %zu indices for %zu particles\n", n_index, j.n);
        goto fail;
    }
    for (size_t i = 0; i < j.n; i++)
        CHECK(cdyn_particle_get_index(sys, handles[i], &index[i]));
    for (size_t k = 0; k < j.n_springs; k++) {
        j.springs[k].a = index[j.springs[k].a];
        j.springs[k].b = index[j.springs[k].b];
    }
    for (size_t i = 0; i < j.n_outline; i++)
        j.outline[i] = index[j.outline[i]];

    cdyn_force gravity, drag;
    CHECK(cdyn_force_add_gravity(sys, g, &gravity));
    CHECK(cdyn_force_add_drag(sys, p.drag, &drag));

    /* The painted rim mass: the outline's first, at angle 0 (+x) at rest. */
    size_t painted = j.outline[0];

    printf("spring_network: a spring-dashpot jelly thrown with a spin\n");
    printf("  %zu masses of %.4g kg on a disc of radius %g m, %zu springs "
           "(%zu nearest-neighbour, %zu next-nearest)\n",
           j.n, m, p.radius, j.n_springs, j.n_near, j.n_springs - j.n_near);
    printf("  S = %g N/m (next-nearest S/3), D = %g N s/m, drag b = %g kg/s per mass, "
           "g = %g m/s^2\n", p.stiffness, p.damping, p.drag, g[1]);
    printf("  launch: centre velocity (%g, %g) m/s, spin %g rad/s, squeezed: x * %g, y / %g\n",
           p.speed[0], p.speed[1], p.spin, p.squeeze, p.squeeze);
    printf("  integrator %s, dt = %g s, %ld steps (%.4g s)\n\n", p.integrator_name, p.dt,
           p.steps, p.dt * (double)p.steps);

    energies e0, e;
    double c0[2], u0[2], mass_total, spin0;
    CHECK(measure(sys, gravity, &e0));
    CHECK(cdyn_system_get_center_of_mass(sys, c0, &mass_total));
    CHECK(cdyn_system_get_momentum(sys, u0));
    u0[0] /= mass_total, u0[1] /= mass_total;
    CHECK(spin_about_centre(sys, &spin0));
    CHECK(cdyn_system_get_positions(sys, x, 2 * j.n));
    CHECK(cdyn_system_get_velocities(sys, v, 2 * j.n));
    memcpy(x_first, x, 2 * j.n * sizeof *x);

    double diss_dash = 0, diss_air = 0, pow_dash, pow_air;
    dissipated_power(&j, p.drag, x, v, &pow_dash, &pow_air);
    long print_every = lround(0.1 / p.dt);
    if (print_every < 1)
        print_every = 1;
    printf("%7s %9s %9s %9s %9s %9s %9s %10s %9s\n", "t", "kinetic", "gravity", "elastic",
           "total", "dashpots", "drag", "balance", "spin");
    printf("%7s %9s %9s %9s %9s %9s %9s %10s %9s\n", "(s)", "(J)", "(J)", "(J)", "(J)",
           "(J)", "(J)", "(J)", "(J s)");

    int next_snap = 0;
    double max_balance = 0;
    for (long step = 0;; step++) {
        double t = (double)step * p.dt, c[2], spin;
        CHECK(measure(sys, gravity, &e));
        CHECK(cdyn_system_get_center_of_mass(sys, c, NULL));
        CHECK(spin_about_centre(sys, &spin));
        double diss = diss_dash + diss_air, balance = e.total + diss - e0.total;
        max_balance = fmax(max_balance, fabs(balance));
        size_t r = (size_t)step;
        rec_t[r] = t;
        rec[R_KIN][r] = e.kinetic;
        rec[R_POT][r] = e.gravity + e.elastic;
        rec[R_ELASTIC][r] = e.elastic;
        rec[R_TOTAL][r] = e.total;
        rec[R_SUM][r] = e.total + diss;
        rec[R_LOST][r] = e0.total - e.total;
        rec[R_DASH][r] = diss_dash;
        rec[R_AIR][r] = diss_air;
        rec[R_DISS][r] = diss;
        path_xy[2 * r] = c[0], path_xy[2 * r + 1] = c[1];
        if (step % print_every == 0 || step == p.steps) {
            double row[7] = {e.kinetic, e.gravity, e.elastic, e.total, diss_dash, diss_air, spin};
            printf("%7.3f", t);
            for (int k = 0; k < 7; k++) {
                printf(fabs(row[k]) < 1e5 ? " %9.5f" : " %9.2e", row[k]);
                if (k == 5)
                    printf(" %10.2e", balance);
            }
            printf("\n");
        }
        /* An unstable integrator pumps energy in: stop before it overflows. */
        if (!(fabs(balance) < 0.5 * fabs(e0.total) + 1.0)) {
            fprintf(stderr, "spring_network: at t = %g the energy balance is off by %.3g J: the "
                            "jelly exploded (%s is unstable at dt = %g); try a smaller --dt or "
                            "another --integrator\n", t, balance, p.integrator_name, p.dt);
            goto fail;
        }
        /* Snapshots at evenly spaced steps, the first at launch, the last at the end. */
        long snap_step = lround((double)next_snap * (double)p.steps / (double)(p.snapshots - 1));
        if (next_snap < p.snapshots && step == snap_step) {
            snapshot *sn = &snaps[next_snap++];
            sn->t = t;
            for (size_t i = 0; i < j.n_outline; i++) {
                sn->xy[2 * i] = x[2 * j.outline[i]];
                sn->xy[2 * i + 1] = x[2 * j.outline[i] + 1];
            }
            sn->marker[0][0] = c[0], sn->marker[0][1] = c[1];
            sn->marker[1][0] = x[2 * painted], sn->marker[1][1] = x[2 * painted + 1];
        }
        if (step == p.steps)
            break;
        cdyn_status st = cdyn_system_step(sys, p.dt);
        if (st != CDYN_OK) {
            fprintf(stderr, "spring_network: step %ld at t = %g failed: %s (%s)\n"
                            "  try a smaller --dt or another --integrator\n",
                    step, t, cdyn_status_name(st), cdyn_system_last_error(sys));
            goto fail;
        }
        CHECK(cdyn_system_get_positions(sys, x, 2 * j.n));
        CHECK(cdyn_system_get_velocities(sys, v, 2 * j.n));
        /* Dissipated energy: the trapezoidal rule on the dissipated power. */
        double pd, pa;
        dissipated_power(&j, p.drag, x, v, &pd, &pa);
        diss_dash += 0.5 * p.dt * (pow_dash + pd);
        diss_air += 0.5 * p.dt * (pow_air + pa);
        pow_dash = pd, pow_air = pa;
    }

    /* Checks against what the physics says, whatever the springs do. */
    double t_end, c[2], u[2], spin;
    CHECK(cdyn_system_get_time(sys, &t_end));
    CHECK(cdyn_system_get_center_of_mass(sys, c, NULL));
    CHECK(cdyn_system_get_momentum(sys, u));
    u[0] /= mass_total, u[1] /= mass_total;
    CHECK(spin_about_centre(sys, &spin));
    double gamma = p.drag / m; /* the centre's drag rate N b / M */
    double decay = exp(-gamma * t_end);
    /* (1 - e^{-gamma t}) / gamma and its time integral (limits t, t^2/2 at gamma = 0). */
    double f1 = gamma > 0 ? -expm1(-gamma * t_end) / gamma : t_end;
    double f2 = gamma > 0 ? (t_end - f1) / gamma : 0.5 * t_end * t_end;
    double c_exact[2], u_exact[2];
    for (int k = 0; k < 2; k++) {
        u_exact[k] = u0[k] * decay + g[k] * f1;
        c_exact[k] = c0[k] + u0[k] * f1 + g[k] * f2;
    }
    double diss = diss_dash + diss_air;
    cdyn_rk45_stats rs = {.size = sizeof rs};
    CHECK(cdyn_system_get_rk45_stats(sys, &rs));
    uint64_t acc = rs.accepted, rej = rs.rejected;

    printf("\nafter %ld steps, t = %.6g s:\n", p.steps, t_end);
    printf("  energy: initial %.6f J, final %.6f J, lost %.6f J; dissipated %.6f J "
           "(dashpots %.6f J, drag %.6f J)\n",
           e0.total, e.total, e0.total - e.total, diss, diss_dash, diss_air);
    printf("  balance |total + dissipated - initial|: final %.2e J, largest %.2e J "
           "(%.1e of the loss)\n",
           fabs(e.total + diss - e0.total), max_balance,
           max_balance / fmax(fabs(e0.total - e.total), 1e-300));
    printf("  elastic energy: %.5f J at launch, %.5f J at the end\n", e0.elastic, e.elastic);
    printf("  centre of mass (%.6f, %.6f) m; exact (%.6f, %.6f) m; error %.1e m\n", c[0], c[1],
           c_exact[0], c_exact[1], hypot(c[0] - c_exact[0], c[1] - c_exact[1]));
    printf("  centre velocity (%.6f, %.6f) m/s; exact (%.6f, %.6f) m/s; error %.1e m/s\n", u[0],
           u[1], u_exact[0], u_exact[1], hypot(u[0] - u_exact[0], u[1] - u_exact[1]));
    printf("  spin about the centre %.6f J s; L0 exp(-b t / m) = %.6f J s; relative error %.1e\n",
           spin, spin0 * decay, fabs(spin - spin0 * decay) / fabs(spin0 * decay));
    if (p.integrator == CDYN_INTEGRATOR_RK45)
        printf("  RK45 internal steps: %llu accepted, %llu rejected\n", (unsigned long long)acc,
               (unsigned long long)rej);

    if (write_picture("spring_network.svg", &j, snaps, next_snap, path_xy, n_rec, x_first, x,
                      &p) ||
        write_energy_chart("spring_network_energy.svg", rec_t, n_rec, rec)) {
        fprintf(stderr, "spring_network: cannot write the pictures\n");
        goto fail;
    }
    printf("  wrote spring_network.svg and spring_network_energy.svg\n");
    exit_code = 0;

fail:
    cdyn_system_destroy(sys);
    if (snaps)
        for (int k = 0; k < p.snapshots; k++)
            free(snaps[k].xy);
    free(snaps);
    free(path_xy);
    for (int k = 0; k < R_COUNT; k++)
        free(rec[k]);
    free(rec_t);
    free(x_first);
    free(v);
    free(x);
    free(index);
    free(handles);
    jelly_free(&j);
    return exit_code;
}
