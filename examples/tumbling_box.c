/* tumbling_box: a rigid box of point masses thrown onto a plane ground with
 * friction.
 *
 * Twelve masses on a 3 x 2 x 2 grid (a brick 0.4 x 0.2 x 0.15 m) are made
 * into one rigid body (cdyn_rigid_add) and thrown with a spin about an
 * oblique axis. In flight the body tumbles torque-free (gravity pulls on its
 * centre of mass only); it lands corner first on the ground y = 0, bounces,
 * rocks and slides until friction stops it. Only the 12 masses exist: the
 * ground's penalty springs, dashpots and friction act on whichever of them
 * are below y = 0 and the body turns their forces into a force and a torque.
 *
 * Writes into the current directory:
 *   tumbling_box.svg          the box at several instants (oblique projection:
 *                             x to the right, y up, z receding at 30 degrees,
 *                             foreshortened by 1/2), coloured from early (blue)
 *                             to late (red), with the path of its centre of
 *                             mass and its shadow on the ground
 *   tumbling_box_energy.svg   kinetic energy (translational and rotational),
 *                             potential energy (gravity + ground penalty) and
 *                             their total
 * and prints a table at intervals, then: the flight phase (|L| about the
 * centre and the rotational energy should stay constant until the first
 * touch-down), the touch-down time, when and where the box comes to rest,
 * how many corners rest on the ground, the energy lost, and how well the
 * shape was kept.
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

#define NX 3
#define NY 2
#define NZ 2
#define N (NX * NY * NZ)

typedef struct params {
    cdyn_rigid_scheme scheme;
    double dt, duration;
    double mu, stiffness, damping;
    double height, speed[3], spin[3];
    int snapshots;
} params;

static void usage(FILE *out, const params *d)
{
    fprintf(out,
            "usage: tumbling_box [options]\n"
            "A rigid box of 12 masses thrown onto a plane ground with friction; writes\n"
            "tumbling_box.svg and tumbling_box_energy.svg into the current directory.\n"
            "  --scheme NAME      seed (first order) | second (default %s)\n"
            "  --dt DT            step, s (default %g)\n"
            "  --time T           simulated time, s (default %g)\n"
            "  --mu MU            friction coefficient of the ground (default %g)\n"
            "  --stiffness S      ground stiffness per mass, N/m (default %g)\n"
            "  --damping C        ground normal damping per mass, N s/m (default %g)\n"
            "  --height H         initial height of the centre of mass, m (default %g)\n"
            "  --snapshots K      boxes drawn (default %d)\n"
            "  --help             this text\n",
            d->scheme == CDYN_RIGID_SECOND_ORDER ? "second" : "seed", d->dt, d->duration, d->mu,
            d->stiffness, d->damping, d->height, d->snapshots);
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
            fprintf(stderr, "tumbling_box: unknown option or missing value: %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        const char *val = argv[++i];
        double x = 0;
        int bad = 0;
        if (strcmp(a, "--scheme") == 0) {
            if (strcmp(val, "seed") == 0)
                p->scheme = CDYN_RIGID_FIRST_ORDER;
            else if (strcmp(val, "second") == 0)
                p->scheme = CDYN_RIGID_SECOND_ORDER;
            else
                bad = 1;
        } else if (strcmp(a, "--dt") == 0) {
            bad = cli_parse_double(val, &p->dt) || !(p->dt > 0 && p->dt <= 1e-2);
        } else if (strcmp(a, "--time") == 0) {
            bad = cli_parse_double(val, &p->duration) || !(p->duration > 0 && p->duration <= 60);
        } else if (strcmp(a, "--mu") == 0) {
            bad = cli_parse_double(val, &p->mu) || !(p->mu >= 0);
        } else if (strcmp(a, "--stiffness") == 0) {
            bad = cli_parse_double(val, &p->stiffness) || !(p->stiffness > 0);
        } else if (strcmp(a, "--damping") == 0) {
            bad = cli_parse_double(val, &p->damping) || !(p->damping >= 0);
        } else if (strcmp(a, "--height") == 0) {
            bad = cli_parse_double(val, &p->height) || !(p->height >= 0.3 && p->height <= 20);
        } else if (strcmp(a, "--snapshots") == 0) {
            bad = cli_parse_double(val, &x) || !(x >= 2 && x <= 60);
            p->snapshots = (int)x;
        } else {
            fprintf(stderr, "tumbling_box: unknown option %s\n", a);
            usage(stderr, &defaults);
            return -1;
        }
        if (bad) {
            fprintf(stderr, "tumbling_box: bad value for %s: %s\n", a, val);
            return -1;
        }
    }
    return 0;
}

/* ---- drawing ------------------------------------------------------------ */

/* Oblique (cabinet) projection: z recedes up and to the right. */
static const double OBL = 0.5, OBL_ANGLE = 30 * M_PI / 180;

static void project(const double *x, double *sx, double *sy)
{
    *sx = x[0] + OBL * cos(OBL_ANGLE) * x[2];
    *sy = x[1] + OBL * sin(OBL_ANGLE) * x[2];
}

/* The grid index of mass (i, j, k) and the box's corners and faces. */
static int idx(int i, int j, int k)
{
    return (i * NY + j) * NZ + k;
}

static const int FACES[6][4][3] = {
    {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, /* z = 0 (front) */
    {{0, 0, 1}, {0, 1, 1}, {1, 1, 1}, {1, 0, 1}}, /* z = 1 (back) */
    {{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}}, /* y = 0 */
    {{0, 1, 0}, {1, 1, 0}, {1, 1, 1}, {0, 1, 1}}, /* y = 1 */
    {{0, 0, 0}, {0, 1, 0}, {0, 1, 1}, {0, 0, 1}}, /* x = 0 */
    {{1, 0, 0}, {1, 0, 1}, {1, 1, 1}, {1, 1, 0}}, /* x = 1 */
};

/* The corner (a, b, c) in {0, 1}^3 of the grid. */
static const double *corner(const double *x, int a, int b, int c)
{
    return x + 3 * idx(a * (NX - 1), b * (NY - 1), c * (NZ - 1));
}

enum { E_TRANS, E_ROT, E_POT, E_TOTAL, E_COUNT };

/* One box: its shadow (straight down onto y = 0), then its faces, the ones
 * seen from behind first, lightly filled, and its masses. */
static void draw_box(chart_panel *p, const double *x, const char *color)
{
    /* Points along (-OBL cos, -OBL sin, 1) share a screen point; the viewer
     * is towards -z. The corner lists of FACES all turn so that
     * (c1 - c0) x (c3 - c0) points into the box: a face is seen from the
     * front when that inward normal points away from the viewer. */
    const double away[3] = {-OBL * cos(OBL_ANGLE), -OBL * sin(OBL_ANGLE), 1};
    /* the shadow: the convex hull of the 8 corners on the ground (gift wrap) */
    double pts[8][2], hull[16];
    int np = 0, nh = 0;
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            for (int c = 0; c < 2; c++) {
                const double *q = corner(x, a, b, c);
                double g[3] = {q[0], 0, q[2]};
                project(g, &pts[np][0], &pts[np][1]);
                np++;
            }
    int start = 0;
    for (int i = 1; i < np; i++)
        if (pts[i][0] < pts[start][0])
            start = i;
    int cur = start;
    for (int guard = 0; guard < np; guard++) {
        hull[2 * nh] = pts[cur][0], hull[2 * nh + 1] = pts[cur][1], nh++;
        int next = (cur + 1) % np;
        for (int i = 0; i < np; i++) {
            double cr = (pts[next][0] - pts[cur][0]) * (pts[i][1] - pts[cur][1]) -
                        (pts[next][1] - pts[cur][1]) * (pts[i][0] - pts[cur][0]);
            if (cr < 0)
                next = i;
        }
        cur = next;
        if (cur == start)
            break;
    }
    chart_polygon(p, hull, (size_t)nh,
                  &(chart_style){.color = "none", .fill = "#000000", .fill_opacity = 0.07});
    for (int pass = 0; pass < 2; pass++) {
        for (int f = 0; f < 6; f++) {
            const double *c0 = corner(x, FACES[f][0][0], FACES[f][0][1], FACES[f][0][2]);
            const double *c1 = corner(x, FACES[f][1][0], FACES[f][1][1], FACES[f][1][2]);
            const double *c3 = corner(x, FACES[f][3][0], FACES[f][3][1], FACES[f][3][2]);
            double e1[3], e2[3], nrm[3], face[8];
            for (int k = 0; k < 3; k++) {
                e1[k] = c1[k] - c0[k];
                e2[k] = c3[k] - c0[k];
            }
            nrm[0] = e1[1] * e2[2] - e1[2] * e2[1];
            nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
            nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
            int front = nrm[0] * away[0] + nrm[1] * away[1] + nrm[2] * away[2] > 0;
            if (front != pass)
                continue;
            for (int v = 0; v < 4; v++)
                project(corner(x, FACES[f][v][0], FACES[f][v][1], FACES[f][v][2]),
                        &face[2 * v], &face[2 * v + 1]);
            chart_polygon(p, face, 4,
                          &(chart_style){.color = color, .fill = color,
                                         .fill_opacity = front ? 0.18 : 0.05,
                                         .width = front ? 1.4 : 0.7,
                                         .opacity = front ? 1 : 0.45});
        }
    }
    for (int i = 0; i < N; i++) {
        double px, py;
        project(x + 3 * i, &px, &py);
        chart_marker(p, px, py, &(chart_style){.color = color, .size = 1.8});
    }
}

/* The ground: a grid of lines on y = 0 over [x0, x1] x [z0, z1], labelled
 * in metres along its front edge (@p below: a label's drop, world units). */
static void draw_ground(chart_panel *p, double x0, double x1, double z0, double z1, double below)
{
    const double cz[4][2] = {{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}};
    double poly[8];
    for (int i = 0; i < 4; i++)
        project((double[]){cz[i][0], 0, cz[i][1]}, &poly[2 * i], &poly[2 * i + 1]);
    chart_polygon(p, poly, 4, &(chart_style){.color = "none", .fill = "#e8e2d0"});
    const chart_style line = {.color = "#b8ae90", .width = 0.8};
    for (double gx = ceil(x0 * 2) / 2; gx <= x1 + 1e-9; gx += 0.5) {
        double ax, ay, bx, by;
        project((double[]){gx, 0, z0}, &ax, &ay);
        project((double[]){gx, 0, z1}, &bx, &by);
        chart_segment(p, ax, ay, bx, by, &line);
        chart_text(p, ax, ay - below, &(chart_style){.size = 10, .anchor = CHART_MIDDLE},
                   "%g m", gx);
    }
    for (double gz = ceil(z0 * 2) / 2; gz <= z1 + 1e-9; gz += 0.5) {
        double ax, ay, bx, by;
        project((double[]){x0, 0, gz}, &ax, &ay);
        project((double[]){x1, 0, gz}, &bx, &by);
        chart_segment(p, ax, ay, bx, by, &line);
    }
}

/* The box at the snapshots snap[0..n_snap), each labelled with its time,
 * over the ground and the path of the centre of mass. */
static int write_picture(const char *path, const double *frames, const double *rec_t,
                         const size_t *snap, int n_snap, const double *com_path,
                         size_t n_frames, double t_draw, const params *p)
{
    double bx0 = INFINITY, bx1 = -INFINITY, by0 = INFINITY, by1 = -INFINITY;
    double zmin = INFINITY, zmax = -INFINITY, xmin = INFINITY, xmax = -INFINITY;
    for (int k = 0; k < n_snap; k++)
        for (int i = 0; i < N; i++) {
            double px, py;
            const double *x = frames + snap[k] * 3 * N + 3 * i;
            project(x, &px, &py);
            bx0 = fmin(bx0, px), bx1 = fmax(bx1, px);
            by0 = fmin(by0, py), by1 = fmax(by1, py);
            zmin = fmin(zmin, x[2]), zmax = fmax(zmax, x[2]);
            xmin = fmin(xmin, x[0]), xmax = fmax(xmax, x[0]);
        }
    double gx0 = floor(xmin * 2) / 2 - 0.5, gx1 = ceil(xmax * 2) / 2 + 0.5;
    double gz0 = floor(zmin * 2) / 2 - 0.5, gz1 = ceil(zmax * 2) / 2 + 0.5;
    double corners[4][3] = {{gx0, 0, gz0}, {gx1, 0, gz0}, {gx1, 0, gz1}, {gx0, 0, gz1}};
    for (int i = 0; i < 4; i++) {
        double px, py;
        project(corners[i], &px, &py);
        bx0 = fmin(bx0, px), bx1 = fmax(bx1, px);
        by0 = fmin(by0, py), by1 = fmax(by1, py);
    }
    bx0 -= 0.05, bx1 += 0.05, by0 -= 0.12, by1 += 0.4;
    const double width = 1100, scale = (width - 30) / (bx1 - bx0);
    chart *c = chart_create(width, 70 + scale * (by1 - by0));
    chart_title(c, "Rigid box of %d masses thrown onto a plane ground with friction (mu = %g), "
                   "until it rests at %.2f s", N, p->mu, t_draw);
    chart_caption(c, "oblique projection: x to the right, y up, z receding at 30 degrees "
                     "(foreshortened by 1/2); shadows straight below");
    chart_panel *panel = chart_panel_add(c, 1);
    chart_scene(panel);
    chart_x_range(panel, bx0, bx1);
    chart_y_range(panel, by0, by1);
    draw_ground(panel, gx0, gx1, gz0, gz1, 14 / scale);
    const chart_style grey = {.color = "#555555", .width = 1, .opacity = 0.6};
    chart_path(panel, com_path, n_frames, &grey);
    for (int k = 0; k < n_snap; k++) {
        char col[8];
        chart_ramp((double)k / (n_snap - 1), col);
        const double *x = frames + snap[k] * 3 * N;
        draw_box(panel, x, col);
        double hx = 0, hy = -INFINITY; /* the time by the box's highest point */
        for (int i = 0; i < N; i++) {
            double px, py;
            project(x + 3 * i, &px, &py);
            if (py > hy)
                hx = px, hy = py;
        }
        chart_label(panel, hx, hy, &(chart_style){.color = col, .size = 11}, "%.2f s",
                    rec_t[snap[k]]);
    }
    chart_ramp_key(panel, "time (s)", 0, t_draw, CHART_RAMP_LINEAR, NULL);
    chart_key(panel, CHART_LINE, "path of the centre of mass", &grey);
    int bad = chart_save(c, path);
    chart_free(c);
    return bad;
}

static int write_energy_chart(const char *path, const double *t, double *const rec[E_COUNT],
                              size_t n)
{
    static const char *const LABELS[E_COUNT] = {"kinetic, translational", "kinetic, rotational",
                                                "potential (gravity + ground)",
                                                "total = the three above"};
    chart *c = chart_create(800, 450);
    chart_title(c, "Tumbling box: energies");
    chart_panel *p = chart_panel_add(c, 1);
    chart_x(p, "time (s)", 0);
    chart_y(p, "energy (J)", 0);
    for (int k = 0; k < E_COUNT; k++)
        chart_line(p, t, rec[k], n, LABELS[k], NULL);
    int bad = chart_save(c, path);
    chart_free(c);
    return bad;
}

/* ---- the run ------------------------------------------------------------ */

int main(int argc, char **argv)
{
    params p = {
        .scheme = CDYN_RIGID_SECOND_ORDER,
        .dt = 2e-4,
        .duration = 3.0,
        .mu = 0.4,
        .stiffness = 2e4,
        .damping = 150.0,
        .height = 1.0,
        .speed = {2.2, 1.5, 0.4},
        .spin = {4.0, 3.0, -6.0},
        .snapshots = 10,
    };
    int rc = parse_args(argc, argv, &p);
    if (rc)
        return rc > 0 ? 0 : 2;

    const double g = 9.81, m = 0.5; /* kg per mass: 6 kg in all */
    const double size[3] = {0.4, 0.2, 0.15};
    const long steps = lround(p.duration / p.dt);
    /* a record (energies, the positions of the masses) every 2 ms */
    const long every = lround(fmax(1.0, 2e-3 / p.dt));
    const size_t n_rec = (size_t)(steps / every) + 1;
    int exit_code = 1;
    cdyn_system *sys = NULL;
    double *rec_t = malloc(n_rec * sizeof *rec_t);
    double *path = malloc(2 * n_rec * sizeof *path);
    double *frames = malloc(n_rec * 3 * N * sizeof *frames);
    double *rec[E_COUNT];
    for (int k = 0; k < E_COUNT; k++)
        rec[k] = malloc(n_rec * sizeof *rec[k]);
    if (!rec_t || !path || !frames || !rec[0] || !rec[1] || !rec[2] || !rec[3]) {
        fprintf(stderr, "tumbling_box: out of memory\n");
        goto done;
    }

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cdyn_status st_ = (call);                                                            \
        if (st_ != CDYN_OK) {                                                                \
            fprintf(stderr, "tumbling_box: %s failed: %s (%s)\n", #call,                     \
                    cdyn_status_name(st_), cdyn_system_last_error(sys));                     \
            goto done;                                                                       \
        }                                                                                    \
    } while (0)

    CHECK(cdyn_system_create(3, &sys));
    cdyn_particle part[N];
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            for (int k = 0; k < NZ; k++) {
                double x[3] = {size[0] * (i / (NX - 1.0) - 0.5),
                               p.height + size[1] * (j / (NY - 1.0) - 0.5),
                               size[2] * (k / (NZ - 1.0) - 0.5)};
                CHECK(cdyn_particle_add(sys, m, x, NULL, &part[idx(i, j, k)]));
            }
    cdyn_rigid box;
    CHECK(cdyn_rigid_add(sys, part, N, &box));
    CHECK(cdyn_rigid_set_scheme(sys, box, p.scheme));
    CHECK(cdyn_rigid_set_velocity(sys, box, p.speed));
    CHECK(cdyn_rigid_set_angular_velocity(sys, box, p.spin));
    cdyn_force gravity;
    CHECK(cdyn_force_add_gravity(sys, (double[]){0, -g, 0}, &gravity));
    cdyn_ground ground;
    CHECK(cdyn_ground_add_plane(sys, (double[]){0, 1, 0}, 0.0, &ground));
    CHECK(cdyn_ground_set_stiffness(sys, ground, p.stiffness));
    CHECK(cdyn_ground_set_damping(sys, ground, p.damping));
    CHECK(cdyn_ground_set_friction(sys, ground, p.mu));

    double ib[9], mass;
    CHECK(cdyn_rigid_get_body_inertia(sys, box, ib));
    CHECK(cdyn_rigid_get_mass(sys, box, &mass));
    printf("tumbling_box: %d masses of %g kg on a %g x %g x %g m brick, one rigid body\n", N, m,
           size[0], size[1], size[2]);
    printf("  principal moments %.5f, %.5f, %.5f kg m^2; scheme %s, dt %g s, %ld steps\n",
           ib[0], ib[4], ib[8],
           p.scheme == CDYN_RIGID_SECOND_ORDER ? "second order" : "first order", p.dt,
           steps);
    printf("  ground y = 0: stiffness %g N/m, damping %g N s/m, friction mu %g\n", p.stiffness,
           p.damping, p.mu);
    printf("  thrown from height %g m with U = (%g, %g, %g) m/s, Omega = (%g, %g, %g) rad/s\n\n",
           p.height, p.speed[0], p.speed[1], p.speed[2], p.spin[0], p.spin[1], p.spin[2]);

    /* distances that must not change */
    double x0[3 * N];
    CHECK(cdyn_system_get_positions(sys, x0, 3 * N));

    double l_first[3], erot_first, t_touch = -1, t_rest = -1, rest_pos[3] = {0, 0, 0};
    double l_flight_err = 0, erot_flight_err = 0;
    CHECK(cdyn_rigid_get_angular_momentum(sys, box, l_first));
    CHECK(cdyn_rigid_get_kinetic_energy(sys, box, NULL, &erot_first));
    const double l_norm0 = sqrt(l_first[0] * l_first[0] + l_first[1] * l_first[1] +
                                l_first[2] * l_first[2]);
    size_t n_frames = 0;
    printf("%8s %9s %9s %9s %10s %10s %10s %9s\n", "t (s)", "X (m)", "Y (m)", "Z (m)",
           "E_tr (J)", "E_rot (J)", "E_pot (J)", "contacts");
    for (long s = 0; s <= steps; s++) {
        if (s > 0)
            CHECK(cdyn_system_step(sys, p.dt));
        double t = (double)s * p.dt, c[3], et, er, ep;
        size_t contacts;
        CHECK(cdyn_rigid_get_center_of_mass(sys, box, c));
        CHECK(cdyn_rigid_get_kinetic_energy(sys, box, &et, &er));
        CHECK(cdyn_system_get_potential_energy(sys, &ep));
        CHECK(cdyn_ground_get_contact_count(sys, ground, &contacts));
        if (s % every == 0 && n_frames < n_rec) {
            size_t r = n_frames++;
            rec_t[r] = t;
            rec[E_TRANS][r] = et;
            rec[E_ROT][r] = er;
            rec[E_POT][r] = ep;
            rec[E_TOTAL][r] = et + er + ep;
            project(c, &path[2 * r], &path[2 * r + 1]);
            CHECK(cdyn_system_get_positions(sys, frames + r * 3 * N, 3 * N));
        }
        if (contacts > 0 && t_touch < 0)
            t_touch = t;
        if (t_touch < 0) { /* flight: torque-free about the centre */
            double l[3];
            CHECK(cdyn_rigid_get_angular_momentum(sys, box, l));
            double ln = sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
            l_flight_err = fmax(l_flight_err, fabs(ln - l_norm0) / l_norm0);
            erot_flight_err = fmax(erot_flight_err, fabs(er - erot_first) / erot_first);
        }
        if (t_touch >= 0 && t_rest < 0 && et + er < 1e-6) {
            t_rest = t;
            memcpy(rest_pos, c, sizeof c);
        }
        if (s % lround(0.25 / p.dt) == 0)
            printf("%8.3f %9.4f %9.4f %9.4f %10.5f %10.5f %10.5f %9zu\n", t, c[0], c[1], c[2], et,
                   er, ep, contacts);
    }

    /* ---- the checks ---- */
    double x1[3 * N], shape_err = 0;
    CHECK(cdyn_system_get_positions(sys, x1, 3 * N));
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++) {
            double d0 = 0, d1 = 0;
            for (int k = 0; k < 3; k++) {
                d0 += (x0[3 * a + k] - x0[3 * b + k]) * (x0[3 * a + k] - x0[3 * b + k]);
                d1 += (x1[3 * a + k] - x1[3 * b + k]) * (x1[3 * a + k] - x1[3 * b + k]);
            }
            shape_err = fmax(shape_err, fabs(sqrt(d1) - sqrt(d0)));
        }
    size_t contacts;
    double q[9], normal[3], friction[3];
    CHECK(cdyn_ground_get_contact_count(sys, ground, &contacts));
    CHECK(cdyn_ground_get_total_force(sys, ground, normal, friction));
    CHECK(cdyn_rigid_get_orientation(sys, box, q));
    printf("\nflight (t < %.4f s, before the first touch-down): |L| about the centre kept to "
           "%.1e, rotational energy to %.1e (relative)\n",
           t_touch, l_flight_err, erot_flight_err);
    if (t_rest >= 0)
        printf("at rest (kinetic energy < 1 uJ) from t = %.3f s at X = (%.4f, %.4f, %.4f) m\n",
               t_rest, rest_pos[0], rest_pos[1], rest_pos[2]);
    else
        printf("still moving at t = %g s (kinetic energy %.3g J)\n", p.duration,
               rec[E_TRANS][n_frames - 1] + rec[E_ROT][n_frames - 1]);
    printf("at the end: %zu masses below the ground, normal force %.4f N (M g = %.4f N), "
           "friction %.2e N\n",
           contacts, normal[1], mass * g,
           sqrt(friction[0] * friction[0] + friction[1] * friction[1] +
                friction[2] * friction[2]));
    printf("  the brick's long axis (body x) now points along (%.3f, %.3f, %.3f)\n", q[0], q[3],
           q[6]);
    printf("energy: %.4f J at the start, %.4f J at the end (%.1f%% lost to friction and "
           "ground damping)\n",
           rec[E_TOTAL][0], rec[E_TOTAL][n_frames - 1],
           100 * (rec[E_TOTAL][0] - rec[E_TOTAL][n_frames - 1]) / rec[E_TOTAL][0]);
    printf("shape: largest change of a distance between two masses %.1e m over %ld steps\n",
           shape_err, steps);

    /* ---- pictures ---- */
    /* Snapshots evenly spread along the motion until the box comes to rest:
     * at equal steps of the accumulated largest displacement of a mass
     * between records (time steps would crowd the slow end). */
    const double t_draw = t_rest >= 0 ? t_rest : p.duration;
    size_t last = n_frames - 1;
    while (last > 0 && rec_t[last] > t_draw)
        last--;
    double *travel = malloc(n_frames * sizeof *travel);
    if (!travel) {
        fprintf(stderr, "tumbling_box: out of memory\n");
        goto done;
    }
    travel[0] = 0;
    for (size_t r = 1; r < n_frames; r++) {
        double dmax = 0;
        for (int i = 0; i < N; i++) {
            const double *a = frames + (r - 1) * 3 * N + 3 * i, *b = frames + r * 3 * N + 3 * i;
            dmax = fmax(dmax, sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                                   (a[2] - b[2]) * (a[2] - b[2])));
        }
        travel[r] = travel[r - 1] + dmax;
    }
    int n_snap = p.snapshots;
    size_t snap[60];
    for (int k = 0, r = 0; k < n_snap; k++) {
        double want = travel[last] * k / (n_snap - 1);
        while ((size_t)r < last && travel[r] < want)
            r++;
        snap[k] = (size_t)r;
    }
    free(travel);
    if (write_picture("tumbling_box.svg", frames, rec_t, snap, n_snap, path, n_frames, t_draw,
                      &p) ||
        write_energy_chart("tumbling_box_energy.svg", rec_t, rec, n_frames)) {
        fprintf(stderr, "tumbling_box: cannot write the pictures\n");
        goto done;
    }
    printf("wrote tumbling_box.svg and tumbling_box_energy.svg\n");
    exit_code = 0;

done:
    cdyn_system_destroy(sys);
    free(rec_t);
    free(path);
    free(frames);
    for (int k = 0; k < E_COUNT; k++)
        free(rec[k]);
    return exit_code;
}
