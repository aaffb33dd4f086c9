/* The scenes of the snapshot suites (scenes.h). */
#include "scenes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static void check(cdyn_status st, ts_world *w, const char *what)
{
    if (st == CDYN_OK)
        return;
    fprintf(stderr, "scene fixture: %s: %s (%s)\n", what, cdyn_status_name(st),
            w->sys ? cdyn_system_last_error(w->sys) : "");
    abort();
}

#define CHECK(call) check((call), w, #call)

static cdyn_particle add(ts_world *w, double mass, const double *x, const double *v)
{
    cdyn_particle p;
    CHECK(cdyn_particle_add(w->sys, mass, x, v, &p));
    w->particles[w->n_particles++] = p;
    return p;
}

static void hold(ts_world *w, cdyn_constraint c, cdyn_particle p)
{
    w->constraints[w->n_constraints] = c;
    w->held[w->n_constraints++] = p;
}

/* The distance from particle @p a to particle @p b, or to the point @p at. */
static double distance(ts_world *w, cdyn_particle a, cdyn_particle b, const double *at)
{
    double xa[3] = {0}, xb[3] = {0}, s = 0;
    CHECK(cdyn_particle_get_position(w->sys, a, xa));
    if (at)
        memcpy(xb, at, (size_t)w->dim * sizeof *xb);
    else
        CHECK(cdyn_particle_get_position(w->sys, b, xb));
    for (int q = 0; q < w->dim; q++)
        s += (xb[q] - xa[q]) * (xb[q] - xa[q]);
    return sqrt(s);
}

static void gravity(ts_world *w)
{
    const double g[3] = {0, w->dim == 2 ? -9.81 : 0, w->dim == 3 ? -9.81 : 0};
    cdyn_force f;
    CHECK(cdyn_force_add_gravity(w->sys, g, &f));
}

/* --- callbacks and their tags ----------------------------------------------- */

static double tether_k = 3.0, central_c = 0.5;
static double ground_plane[4] = {0.1, 0.2, 1.0, -4.0}; /* tilted plane n.x = c (3-D) */
static double circle_curve[4] = {6.0, 0.0, 0.0, 0.4};  /* centre, radius */
static double sphere_orbit[4] = {0.0, 0.0, -3.0, 1.0}; /* centre, mean radius */
static double wall_speed = 0.05, shaker_amplitude = 0.1, schedule_amplitude = 0.05;

/* Tag 11: pulls particle index 0 towards the origin (no Jacobian). */
static int tether(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                  const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)n, (void)v;
    const double k = *(const double *)user;
    for (int q = 0; q < dim; q++)
        f[q] -= k * x[q];
    return 0;
}

/* Tag 12: a weak pull of every particle towards the origin, with its
 * Jacobian. */
static int central(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                   const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)v;
    const double c = *(const double *)user;
    for (size_t i = 0; i < n * (size_t)dim; i++)
        f[i] -= c * x[i];
    return 0;
}

static int central_jacobian(const cdyn_system *sys, double t, size_t n, int dim,
                            const double *x, const double *v, cdyn_jacobian *jac, void *user)
{
    (void)sys, (void)t, (void)x, (void)v;
    const double c = *(const double *)user;
    double block[9] = {0};
    for (int q = 0; q < dim; q++)
        block[q * dim + q] = -c;
    for (size_t i = 0; i < n; i++)
        if (cdyn_jacobian_add_block(jac, i, i, block, NULL))
            return 1;
    return 0;
}

/* Tag 51: a tilted plane ground. */
static int tilted(const cdyn_system *sys, double t, int dim, const double *x, double *h,
                  double *grad, double *velocity, void *user)
{
    (void)sys, (void)t, (void)velocity;
    const double *p = user;
    double len = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]), s = 0;
    for (int q = 0; q < dim; q++) {
        grad[q] = p[q] / len;
        s += grad[q] * x[q];
    }
    *h = s - p[3] / len;
    return 0;
}

/* Tag 21: a vertical circle r(q) = c + R (cos q, 0, sin q). */
static int circle(const cdyn_system *sys, double t, double q, double r[3], double dr[3],
                  double ddr[3], void *user)
{
    (void)sys, (void)t;
    const double *c = user;
    double cs = cos(q), sn = sin(q);
    r[0] = c[0] + c[3] * cs, r[1] = c[1], r[2] = c[2] + c[3] * sn;
    dr[0] = -c[3] * sn, dr[1] = 0, dr[2] = c[3] * cs;
    ddr[0] = -c[3] * cs, ddr[1] = 0, ddr[2] = -c[3] * sn;
    return 0;
}

/* Tag 31: a sphere of radius R(t) = R (1 + 0.1 sin t), with its time
 * derivatives. */
static int breathing(const cdyn_system *sys, double t, int dim, const double *x, double *c,
                     double *grad, double *hess, double *c_t, double *grad_t, double *c_tt,
                     void *user)
{
    (void)sys;
    const double *o = user;
    double rad = o[3] * (1 + 0.1 * sin(t)), rd = o[3] * 0.1 * cos(t), rdd = -o[3] * 0.1 * sin(t);
    double s = 0;
    for (int q = 0; q < dim; q++) {
        double d = x[q] - o[q];
        s += d * d;
        grad[q] = 2 * d;
        for (int p = 0; p < dim; p++)
            hess[q * dim + p] = q == p ? 2.0 : 0.0;
    }
    *c = s - rad * rad;
    if (c_t) {
        *c_t = -2 * rad * rd;
        for (int q = 0; q < dim; q++)
            grad_t[q] = 0;
        *c_tt = -2 * (rd * rd + rad * rdd);
    }
    return 0;
}

/* Tag 32: the moving wall x = u t; dg/dt is left to the library. */
static int wall(const cdyn_system *sys, double t, size_t n_particles, int dim, const double *x,
                const double *v, size_t n_rows, double *g, double *jacobian,
                double *velocity_terms, double *g_t, void *user)
{
    (void)sys, (void)n_particles, (void)v, (void)n_rows, (void)g_t;
    g[0] = x[0] - *(const double *)user * t;
    for (int q = 0; q < dim; q++)
        jacobian[q] = q == 0 ? 1.0 : 0.0;
    velocity_terms[0] = 0;
    return 0;
}

/* Tag 41: a shaking translation p(t) = (a sin 2t, 0, 0). */
static int shaker(const cdyn_system *sys, double t, cdyn_motion_state *out, void *user)
{
    (void)sys;
    double a = *(const double *)user;
    out->position[0] = a * sin(2 * t);
    out->velocity[0] = 2 * a * cos(2 * t);
    out->acceleration[0] = -4 * a * sin(2 * t);
    return 0;
}

/* Tag 42: s(t) = a sin 3t. */
static int breathing_length(const cdyn_system *sys, double t, double out[3], void *user)
{
    (void)sys;
    double a = *(const double *)user;
    out[0] = a * sin(3 * t);
    out[1] = 3 * a * cos(3 * t);
    out[2] = -9 * a * sin(3 * t);
    return 0;
}

/* Tag 61: a soft repulsion U = a (rc - r)^2 / 2 inside rc. */
static double soft_pair[2] = {20.0, 0.5}; /* a, rc */

static int soft(const cdyn_system *sys, double t, size_t i, size_t j, double r, double *energy,
                double *force, double *dforce, void *user)
{
    (void)sys, (void)t, (void)i, (void)j;
    const double *c = user;
    double gap = c[1] - r;
    if (energy)
        *energy = 0.5 * c[0] * gap * gap;
    if (force)
        *force = c[0] * gap;
    if (dforce)
        *dforce = -c[0];
    return 0;
}

int ts_scene_resolve(cdyn_callback_kind kind, uint64_t tag, cdyn_callback_binding *out,
                     void *user)
{
    (void)user;
    switch (tag) {
    case 11:
        out->force = tether, out->user = &tether_k;
        break;
    case 12:
        out->force = central, out->force_jacobian = central_jacobian, out->user = &central_c;
        break;
    case 21:
        out->curve = circle, out->user = circle_curve;
        break;
    case 31:
        out->implicit = breathing, out->user = sphere_orbit;
        break;
    case 32:
        out->constraint = wall, out->user = &wall_speed;
        break;
    case 41:
        out->motion = shaker, out->user = &shaker_amplitude;
        break;
    case 42:
        out->schedule = breathing_length, out->user = &schedule_amplitude;
        break;
    case 51:
        out->ground = tilted, out->user = ground_plane;
        break;
    case 61:
        out->pair = soft, out->user = soft_pair;
        break;
    default:
        return 1;
    }
    (void)kind;
    return 0;
}

/* --- the scenes ------------------------------------------------------------- */

/* A damped spring net under gravity and drag, two callback forces, a rod
 * to an anchor, a rod between two nodes, a disabled rod, a removed node. */
static void build_springs(ts_world *w)
{
    cdyn_particle net[12];
    if (ts_make_network(w->sys, 4, 3, 0.1, 200.0, 0.5, 0.05, 7, net) == 0)
        check(CDYN_ERR_INVALID_ARGUMENT, w, "ts_make_network");
    for (int i = 0; i < 11; i++)
        w->particles[w->n_particles++] = net[i];
    CHECK(cdyn_particle_remove(w->sys, net[11]));
    w->removed = net[11];
    const double extra[2] = {0.45, 0.3}, kick[2] = {0.2, -0.1};
    cdyn_particle p = add(w, 0.5, extra, kick); /* takes the removed node's slot */
    gravity(w);
    cdyn_force f;
    CHECK(cdyn_force_add_drag(w->sys, 0.05, &f));
    CHECK(cdyn_force_add_callback(w->sys, tether, &tether_k, false, &f));
    CHECK(cdyn_force_set_tag(w->sys, f, 11));
    CHECK(cdyn_force_add_callback_with_jacobian(w->sys, central, central_jacobian, &central_c,
                                                false, &f));
    CHECK(cdyn_force_set_tag(w->sys, f, 12));
    cdyn_constraint c;
    const double anchor[2] = {0.0, 0.25};
    CHECK(cdyn_constraint_add_anchor(w->sys, net[0], anchor, distance(w, net[0], 0, anchor),
                                     &c));
    hold(w, c, net[0]);
    CHECK(cdyn_constraint_add_distance(w->sys, net[5], p, distance(w, net[5], p, NULL), &c));
    hold(w, c, p);
    CHECK(cdyn_constraint_add_distance(w->sys, net[2], net[9], 0.3, &c));
    CHECK(cdyn_constraint_set_enabled(w->sys, c, false));
    hold(w, c, net[2]);
}

/* The standard chain of eight rods. */
static void build_chain(ts_world *w)
{
    cdyn_particle ps[9];
    cdyn_constraint rods[8];
    CHECK(ts_standard_chain(w->sys, 8, ps, rods));
    for (int i = 0; i < 9; i++)
        w->particles[w->n_particles++] = ps[i];
    for (int i = 0; i < 8; i++)
        hold(w, rods[i], ps[i + 1]);
}

/* Beads on a turning closed spline, a sphere, a callback circle, a bicubic
 * height field and a cycloid; a compliant rod from the spline's bead to a
 * free particle. */
static void build_coaster(ts_world *w)
{
    cdyn_system *sys = w->sys;
    cdyn_constraint c;
    const double pa[3] = {1.0, 0.0, 0.0}, va[3] = {0.0, 0.8, 0.1};
    cdyn_particle a = add(w, 1.0, pa, va);
    double pts[6 * 3];
    for (int i = 0; i < 6; i++) {
        double q = 2 * TS_PI * i / 6;
        pts[3 * i] = cos(q), pts[3 * i + 1] = 0.7 * sin(q), pts[3 * i + 2] = 0.2 * sin(2 * q);
    }
    cdyn_curve_desc spline;
    cdyn_curve_desc_init(&spline, CDYN_CURVE_SPLINE);
    spline.points = pts;
    spline.num_points = 6;
    spline.spline_end = CDYN_SPLINE_CLOSED;
    CHECK(cdyn_constraint_add_on_curve(sys, a, &spline, &c));
    cdyn_motion_desc turn;
    cdyn_motion_desc_init(&turn, CDYN_MOTION_ROTATION);
    turn.angular_velocity = 0.5;
    CHECK(cdyn_constraint_set_motion(sys, c, &turn));
    hold(w, c, a);

    const double pb[3] = {3.0, 0.0, 1.2}, vb[3] = {0.3, 0.5, 0.0};
    cdyn_particle b = add(w, 2.0, pb, vb);
    cdyn_surface_desc sphere;
    cdyn_surface_desc_init(&sphere, CDYN_SURFACE_SPHERE);
    sphere.origin[0] = 3.0;
    CHECK(cdyn_constraint_add_on_surface(sys, b, &sphere, &c));
    hold(w, c, b);

    const double pc[3] = {6.4, 0.0, 0.0}, vc[3] = {0.0, 0.0, 1.0};
    cdyn_particle cp = add(w, 1.0, pc, vc);
    cdyn_curve_desc cb;
    cdyn_curve_desc_init(&cb, CDYN_CURVE_CALLBACK);
    cb.callback = circle;
    cb.user = circle_curve;
    cb.periodic = 1;
    cb.q_min = 0.0;
    cb.q_max = 2 * TS_PI;
    cb.tag = 21;
    CHECK(cdyn_constraint_add_on_curve(sys, cp, &cb, &c));
    hold(w, c, cp);

    double heights[16];
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
            heights[j * 4 + i] = 0.1 * sin(i) * cos(j);
    cdyn_heightfield_desc hf;
    cdyn_heightfield_desc_init(&hf);
    hf.nx = hf.ny = 4;
    hf.origin[0] = 8.0;
    hf.origin[1] = 0.0;
    hf.spacing[0] = hf.spacing[1] = 0.5;
    hf.samples = heights;
    cdyn_surface_desc field;
    cdyn_surface_desc_init(&field, CDYN_SURFACE_HEIGHTFIELD);
    field.heightfield = &hf;
    const double pd[3] = {8.7, 0.6, 0.5}, vd[3] = {0.2, 0.1, 0.0};
    cdyn_particle d = add(w, 1.0, pd, vd);
    CHECK(cdyn_constraint_add_on_surface(sys, d, &field, &c));
    hold(w, c, d);

    cdyn_curve_desc cyc;
    cdyn_curve_desc_init(&cyc, CDYN_CURVE_CYCLOID);
    cyc.origin[0] = 12.0;
    cyc.radius = 0.5;
    cyc.axis2[1] = 0.0, cyc.axis2[2] = -1.0;
    const double pe[3] = {12.4, 0.0, -0.6}, ve[3] = {0.5, 0.0, 0.0};
    cdyn_particle e = add(w, 1.0, pe, ve);
    CHECK(cdyn_constraint_add_on_curve(sys, e, &cyc, &c));
    hold(w, c, e);

    const double pf[3] = {1.0, 0.0, -0.5};
    cdyn_particle f = add(w, 0.5, pf, NULL);
    CHECK(cdyn_constraint_add_distance(sys, a, f, 0.5, &c));
    CHECK(cdyn_constraint_set_compliance(sys, c, 1e-4));
    hold(w, c, f);
    gravity(w);
}

/* A spinning tetrahedron sliding on a plane with friction; a bicubic
 * height field under the floor, a particle on a solid sphere and one on a
 * tilted callback ground;
 * a spring to the body, a rod to an anchor; a body made and dissolved. */
static void build_rigid(ts_world *w)
{
    cdyn_system *sys = w->sys;
    const double tet[4][3] = {{0, 0, 0.3}, {0.2, 0, 0.3}, {0, 0.2, 0.3}, {0, 0, 0.5}};
    cdyn_particle body[4];
    for (int i = 0; i < 4; i++)
        body[i] = add(w, 1.0 + 0.1 * i, tet[i], NULL);
    cdyn_rigid r;
    CHECK(cdyn_rigid_add(sys, body, 3, &r));
    CHECK(cdyn_rigid_remove(sys, r));
    w->removed_body = r;
    CHECK(cdyn_rigid_add(sys, body, 4, &r));
    const double spin[3] = {0.0, 1.0, 3.0}, slide[3] = {0.5, 0.2, -0.1};
    CHECK(cdyn_rigid_set_angular_velocity(sys, r, spin));
    CHECK(cdyn_rigid_set_velocity(sys, r, slide));
    cdyn_ground g;
    const double up[3] = {0, 0, 1};
    CHECK(cdyn_ground_add_plane(sys, up, 0.0, &g));
    CHECK(cdyn_ground_set_friction(sys, g, 0.6));
    CHECK(cdyn_ground_set_damping(sys, g, 5.0));

    double heights[16];
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
            heights[j * 4 + i] = 0.05 * (i - 1.5) * (j - 1.5) - 0.2; /* under the floor */
    cdyn_heightfield_desc hf;
    cdyn_heightfield_desc_init(&hf);
    hf.nx = hf.ny = 4;
    hf.origin[0] = 5.0;
    hf.origin[1] = 5.0;
    hf.spacing[0] = hf.spacing[1] = 0.5;
    hf.samples = heights;
    CHECK(cdyn_ground_add_heightfield(sys, &hf, &g));
    CHECK(cdyn_ground_set_friction(sys, g, 0.3));
    const double ph[3] = {5.6, 5.7, 0.01}, vh[3] = {0.3, 0.0, 0.0};
    add(w, 1.0, ph, vh);

    const double centre[3] = {-5, -5, -0.9}, ps[3] = {-5.2, -5.0, 0.12}, vs[3] = {1.0, 0.5, 0};
    CHECK(cdyn_ground_add_sphere(sys, centre, 1.0, false, &g));
    CHECK(cdyn_ground_set_damping(sys, g, 2.0));
    add(w, 1.0, ps, vs);

    CHECK(cdyn_ground_add_callback(sys, tilted, ground_plane, &g));
    CHECK(cdyn_ground_set_tag(sys, g, 51));
    CHECK(cdyn_ground_set_friction(sys, g, 0.4));
    const double pt[3] = {0.0, 20.0, 0.05}, vt[3] = {0.0, -0.2, 0.0};
    add(w, 1.0, pt, vt);

    const double pq[3] = {0.5, 0.5, 1.0}, anchor[3] = {0.5, 0.5, 1.5};
    cdyn_particle q = add(w, 0.7, pq, NULL);
    cdyn_force f;
    CHECK(cdyn_force_add_spring(sys, q, body[3], 50.0, 0.2, 0.4, &f));
    cdyn_constraint c;
    CHECK(cdyn_constraint_add_anchor(sys, q, anchor, 0.5, &c));
    hold(w, c, q);
    gravity(w);
}

/* Hertz balls in a damped heap between walls, with one radius of their
 * own; a repulsive pair list; a rod between two balls. */
static void build_pairs(ts_world *w)
{
    cdyn_system *sys = w->sys;
    cdyn_particle balls[10];
    for (int i = 0; i < 10; i++) {
        const double x[2] = {-0.4 + 0.09 * i, 0.05 + 0.06 * (i % 3)}, v[2] = {0.1 * (i % 2), 0};
        balls[i] = add(w, 1.0, x, v);
    }
    cdyn_pair_params pp;
    CHECK(cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ));
    pp.stiffness = 5e4;
    pp.radius = 0.05;
    pp.damping = 0.2;
    cdyn_force set;
    CHECK(cdyn_force_add_pair_set(sys, &pp, balls, 10, &set));
    CHECK(cdyn_force_set_pair_radius(sys, set, balls[4], 0.06));
    cdyn_particle lj[2];
    const double l0[2] = {2.0, 1.0}, l1[2] = {2.1, 1.0};
    lj[0] = add(w, 1.0, l0, NULL);
    lj[1] = add(w, 1.0, l1, NULL);
    CHECK(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE));
    pp.sigma = 0.11;
    cdyn_force list;
    CHECK(cdyn_force_add_pairs(sys, &pp, lj, 1, &list));
    cdyn_ground g;
    const double floor_n[2] = {0, 1}, left[2] = {1, 0}, right[2] = {-1, 0};
    CHECK(cdyn_ground_add_plane(sys, floor_n, 0.0, &g));
    CHECK(cdyn_ground_set_friction(sys, g, 0.5));
    CHECK(cdyn_ground_add_plane(sys, left, -0.5, &g));
    CHECK(cdyn_ground_add_plane(sys, right, -0.5, &g));
    cdyn_constraint c;
    CHECK(cdyn_constraint_add_distance(sys, balls[0], balls[1], 0.1, &c));
    hold(w, c, balls[1]);
    gravity(w);
}

/* A pendulum from a shaken kinematic particle, one from a turning anchor,
 * a rod with a scheduled length and one with a callback schedule, a pin
 * carried by a callback motion, a bead on a breathing sphere, one against a
 * moving wall, and a block on a rising conveyor. */
static void build_driven(ts_world *w)
{
    cdyn_system *sys = w->sys;
    cdyn_constraint c;
    const double pk[3] = {0, 0, 2}, p1[3] = {0.3, 0, 1.6};
    cdyn_particle k = add(w, 1.0, pk, NULL), b1 = add(w, 1.0, p1, NULL);
    cdyn_motion_desc shake;
    cdyn_motion_desc_init(&shake, CDYN_MOTION_OSCILLATION);
    shake.amplitude[0] = 0.05;
    shake.frequency = 20.0;
    CHECK(cdyn_particle_set_motion(sys, k, &shake));
    CHECK(cdyn_constraint_add_distance(sys, k, b1, 0.5, &c));
    hold(w, c, b1);

    const double p2[3] = {2.4, 0, 0}, anchor[3] = {2, 0, 0};
    cdyn_particle b2 = add(w, 1.0, p2, NULL);
    CHECK(cdyn_constraint_add_anchor(sys, b2, anchor, 0.4, &c));
    cdyn_motion_desc turn;
    cdyn_motion_desc_init(&turn, CDYN_MOTION_ROTATION);
    turn.center[0] = 1.8;
    turn.angular_velocity = 2.0;
    CHECK(cdyn_constraint_set_motion(sys, c, &turn));
    hold(w, c, b2);

    const double p3[3] = {2.4, 0, -0.5}, p4[3] = {2.4, 0.4, -0.5};
    cdyn_particle b3 = add(w, 1.0, p3, NULL), b4 = add(w, 0.5, p4, NULL);
    CHECK(cdyn_constraint_add_distance(sys, b2, b3, 0.5, &c));
    cdyn_schedule_desc grow;
    cdyn_schedule_desc_init(&grow, CDYN_SCHEDULE_OSCILLATION);
    grow.amplitude = 0.05;
    grow.frequency = 4.0;
    CHECK(cdyn_constraint_set_length_schedule(sys, c, &grow));
    hold(w, c, b3);
    CHECK(cdyn_constraint_add_distance(sys, b3, b4, 0.4, &c));
    cdyn_schedule_desc breathe;
    cdyn_schedule_desc_init(&breathe, CDYN_SCHEDULE_CALLBACK);
    breathe.callback = breathing_length;
    breathe.user = &schedule_amplitude;
    breathe.tag = 42;
    CHECK(cdyn_constraint_set_length_schedule(sys, c, &breathe));
    hold(w, c, b4);

    const double p5[3] = {-2, 0, 0};
    cdyn_particle b5 = add(w, 1.0, p5, NULL);
    CHECK(cdyn_constraint_add_pin(sys, b5, p5, &c));
    cdyn_motion_desc shaken;
    cdyn_motion_desc_init(&shaken, CDYN_MOTION_CALLBACK);
    shaken.callback = shaker;
    shaken.user = &shaker_amplitude;
    shaken.tag = 41;
    CHECK(cdyn_constraint_set_motion(sys, c, &shaken));
    hold(w, c, b5);

    const double p6[3] = {1.0, 0, -3.0}, v6[3] = {0, 0.5, 0};
    cdyn_particle b6 = add(w, 1.0, p6, v6);
    CHECK(cdyn_constraint_add_implicit(sys, b6, breathing, sphere_orbit, &c));
    CHECK(cdyn_constraint_set_tag(sys, c, 31));
    CHECK(cdyn_constraint_set_time_dependent(sys, c, true));
    hold(w, c, b6);

    const double p7[3] = {0.0, 3.0, 0.0}, v7[3] = {0, 0.3, 0};
    cdyn_particle b7 = add(w, 1.0, p7, v7);
    CHECK(cdyn_constraint_add_user(sys, &b7, 1, 1, wall, &wall_speed, &c));
    CHECK(cdyn_constraint_set_tag(sys, c, 32));
    CHECK(cdyn_constraint_set_time_dependent(sys, c, true));
    hold(w, c, b7);

    cdyn_ground g;
    const double up[3] = {0, 0, 1}, belt[3] = {0.5, 0, 0};
    CHECK(cdyn_ground_add_plane(sys, up, -5.0, &g));
    CHECK(cdyn_ground_set_friction(sys, g, 0.5));
    CHECK(cdyn_ground_set_surface_velocity(sys, g, belt));
    cdyn_motion_desc lift;
    cdyn_motion_desc_init(&lift, CDYN_MOTION_LINEAR);
    lift.velocity[2] = 0.1;
    CHECK(cdyn_ground_set_motion(sys, g, &lift));
    const double p8[3] = {4.0, 0, -4.99};
    add(w, 1.0, p8, NULL);
    gravity(w);
}

/* A Lennard-Jones fluid in a periodic box with a neighbour list fast
 * enough to rebuild it within a few steps: a dimer on a rod (a cluster,
 * made whole at the first step) that starts outside the box and is
 * wrapped back while the runs go on, bonded and explicit exclusions, a
 * spring; a tabulated and a callback pair between four more particles. */
static void build_fluid(ts_world *w)
{
    cdyn_system *sys = w->sys;
    const double origin[2] = {0, 0}, lengths[2] = {3.0, 3.0};
    const bool periodic[2] = {true, true};
    CHECK(cdyn_system_set_box(sys, origin, lengths, periodic));
    cdyn_particle members[18];
    uint64_t seed = 11;
    for (int i = 0; i < 16; i++) {
        const double x[2] = {0.2 + 0.75 * (i % 4) + 0.05 * ts_rand_sym(&seed),
                             0.2 + 0.75 * (i / 4) + 0.05 * ts_rand_sym(&seed)};
        const double v[2] = {2.5 * ts_rand_sym(&seed), 2.5 * ts_rand_sym(&seed)};
        members[i] = add(w, 1.0, x, v);
    }
    /* The dimer's first particle more than half a box length past the
     * face, the second given at its image inside. */
    const double d0[2] = {4.45, 0.575}, d1[2] = {1.25, 0.575}, dv[2] = {3.0, 0.1};
    members[16] = add(w, 1.0, d0, dv);
    members[17] = add(w, 1.0, d1, dv);
    cdyn_constraint c;
    CHECK(cdyn_constraint_add_distance(sys, members[16], members[17], 0.2, &c));
    hold(w, c, members[17]);
    cdyn_pair_params pp;
    CHECK(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ));
    pp.sigma = 0.3;
    pp.epsilon = 0.5;
    cdyn_force set, f;
    CHECK(cdyn_force_add_pair_set(sys, &pp, members, 18, &set));
    CHECK(cdyn_force_set_pair_skin(sys, set, 0.12));
    CHECK(cdyn_force_set_pair_exclude_bonded(sys, set, 1));
    const cdyn_particle excluded[2] = {members[0], members[1]};
    CHECK(cdyn_force_add_pair_exclusions(sys, set, excluded, 1));
    CHECK(cdyn_force_add_spring(sys, members[2], members[6], 10.0, 0.0, 0.7, &f));

    const double t0[2] = {1.0, 2.6}, t1[2] = {1.3, 2.6}, c0[2] = {2.0, 2.6}, c1[2] = {2.3, 2.6};
    cdyn_particle tab[2] = {add(w, 1.0, t0, NULL), add(w, 1.0, t1, NULL)};
    cdyn_particle cb[2] = {add(w, 1.0, c0, NULL), add(w, 1.0, c1, NULL)};
    double table[2 * 6];
    for (int k = 0; k < 6; k++) { /* U = (0.5 - r)^2, F = 2 (0.5 - r) on r in [0, 0.5] */
        double r = 0.1 * k;
        table[2 * k] = (0.5 - r) * (0.5 - r);
        table[2 * k + 1] = 2 * (0.5 - r);
    }
    CHECK(cdyn_pair_params_init(&pp, CDYN_PAIR_TABLE));
    pp.cutoff = 0.5;
    pp.table = table;
    pp.table_size = 6;
    CHECK(cdyn_force_add_pairs(sys, &pp, tab, 1, &f));
    CHECK(cdyn_pair_params_init(&pp, CDYN_PAIR_CALLBACK));
    pp.cutoff = soft_pair[1];
    pp.fn = soft;
    pp.user = soft_pair;
    CHECK(cdyn_force_add_pairs(sys, &pp, cb, 1, &f));
    CHECK(cdyn_force_set_tag(sys, f, 61));
}

/* The fluid under the Langevin thermostat. */
static void build_langevin(ts_world *w)
{
    build_fluid(w);
    cdyn_langevin_options lo;
    cdyn_langevin_options_init(&lo);
    lo.kT = 0.5;
    lo.gamma = 2.0;
    lo.seed = 12345;
    CHECK(cdyn_system_set_langevin_options(w->sys, &lo));
}

const ts_scene ts_scene_springs = {"springs", 2, build_springs};
const ts_scene ts_scene_chain = {"chain", 2, build_chain};
const ts_scene ts_scene_coaster = {"coaster", 3, build_coaster};
const ts_scene ts_scene_rigid = {"rigid", 3, build_rigid};
const ts_scene ts_scene_pairs = {"pairs", 2, build_pairs};
const ts_scene ts_scene_driven = {"driven", 3, build_driven};
const ts_scene ts_scene_fluid = {"fluid", 2, build_fluid};
const ts_scene ts_scene_langevin = {"langevin", 2, build_langevin};

const ts_scene *const ts_scenes[TS_N_SCENES] = {
    &ts_scene_springs, &ts_scene_chain, &ts_scene_coaster, &ts_scene_rigid,
    &ts_scene_pairs,   &ts_scene_driven, &ts_scene_fluid,  &ts_scene_langevin};

void ts_scene_build_with(const ts_scene *scene, ts_world *w, cdyn_integrator integrator,
                         cdyn_constraint_solver solver, const cdyn_allocator *alloc)
{
    memset(w, 0, sizeof *w);
    w->dim = scene->dim;
    CHECK(cdyn_system_create_with_allocator(scene->dim, alloc, &w->sys));
    CHECK(cdyn_system_set_integrator(w->sys, integrator));
    cdyn_solver_options so;
    cdyn_solver_options_init(&so);
    so.solver = solver;
    CHECK(cdyn_system_set_solver_options(w->sys, &so));
    scene->build(w);
}

void ts_scene_build(const ts_scene *scene, ts_world *w, cdyn_integrator integrator,
                    cdyn_constraint_solver solver)
{
    ts_scene_build_with(scene, w, integrator, solver, NULL);
}

void ts_scene_free(ts_world *w)
{
    cdyn_system_destroy(w->sys);
    memset(w, 0, sizeof *w);
}
