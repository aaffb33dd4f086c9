/* Determinism across the library: one short run of each kind of scene
 * (every integrator, every constraint kind, both solvers, both projection
 * methods, particles on curves and surfaces, grounds with friction, rigid
 * bodies, pair potentials, backward Euler with its Newton iteration) ends in
 * a state whose hash is pinned here. The hash covers the time, positions,
 * velocities, every constraint's multipliers and the force it exerts on
 * each of its particles, and the integrator's counters, so any change in
 * the floating-point operations the library performs, or in their order,
 * shows.
 *
 * The scenes are short (a few hundred steps) and use only +, -, *, / and
 * sqrt in their own callbacks, so the values hold on every IEEE-754
 * platform given the build's -ffp-contract=off; the library's own use of
 * libm (sin, cos, exp in shapes and the rigid rotation) is correctly
 * rounded in glibc for these arguments, but a platform whose libm rounds
 * differently may see other values: the test says which scene differs.
 *
 * PINNED HASHES change only with a deliberate change of the arithmetic;
 * such a change updates them here with a line in CHANGELOG.md. To print
 * the current values, run with CDYN_PRINT_HASHES=1 in the environment. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define MAX_C 512

/* What a scene leaves to hash besides the state. */
typedef struct scene {
    cdyn_system *sys;
    cdyn_constraint c[MAX_C];
    size_t nc;
} scene;

static void ok(cdyn_status st)
{
    if (st != CDYN_OK)
        fail_msg("status %d (%s)", (int)st, cdyn_status_string(st));
}

static void sys_ok(cdyn_system *sys, cdyn_status st)
{
    if (st != CDYN_OK)
        fail_msg("status %d: %s", (int)st, cdyn_system_last_error(sys));
}

static uint64_t hash_u64(uint64_t v, uint64_t h)
{
    double d = (double)v;
    return ts_hash_doubles(&d, 1, h);
}

static uint64_t scene_hash(scene *s)
{
    cdyn_system *sys = s->sys;
    int dim = cdyn_system_get_dimension(sys);
    size_t n;
    ok(cdyn_system_get_index_count(sys, &n));
    double *buf = malloc((n ? n : 1) * (size_t)dim * sizeof *buf);
    uint64_t h = 0xcbf29ce484222325ull;
    double t;
    ok(cdyn_system_get_time(sys, &t));
    h = ts_hash_doubles(&t, 1, h);
    ok(cdyn_system_get_positions(sys, buf, n * (size_t)dim));
    h = ts_hash_doubles(buf, n * (size_t)dim, h);
    ok(cdyn_system_get_velocities(sys, buf, n * (size_t)dim));
    h = ts_hash_doubles(buf, n * (size_t)dim, h);
    free(buf);
    for (size_t i = 0; i < s->nc; i++) {
        double lam[64] = {0};
        size_t rows;
        ok(cdyn_constraint_get_row_count(sys, s->c[i], &rows));
        ok(cdyn_constraint_get_multipliers(sys, s->c[i], lam, 64));
        h = ts_hash_doubles(lam, rows < 64 ? rows : 64, h);
    }
    cdyn_rk45_stats rs = {.size = sizeof rs};
    ok(cdyn_system_get_rk45_stats(sys, &rs));
    h = hash_u64(rs.accepted, hash_u64(rs.rejected, h));
    cdyn_projection_stats ps = {.size = sizeof ps};
    ok(cdyn_system_get_projection_stats(sys, &ps));
    h = hash_u64(ps.position_iterations_total, hash_u64(ps.velocity_iterations_total, h));
    cdyn_solver_stats ss = {.size = sizeof ss};
    ok(cdyn_system_get_solver_stats(sys, &ss));
    h = hash_u64(ss.solves, hash_u64(ss.iterations, h));
    cdyn_newton_stats ns = {.size = sizeof ns};
    ok(cdyn_system_get_newton_stats(sys, &ns));
    h = hash_u64(ns.total_iterations, h);
    return h;
}

static cdyn_particle add(cdyn_system *sys, double m, double x, double y, double z)
{
    cdyn_particle p;
    double pos[3] = {x, y, z};
    sys_ok(sys, cdyn_particle_add(sys, m, pos, NULL, &p));
    return p;
}

static void run(scene *s, double dt, int steps)
{
    for (int i = 0; i < steps; i++)
        sys_ok(s->sys, cdyn_system_step(s->sys, dt));
}

static void keep(scene *s, cdyn_constraint c)
{
    s->c[s->nc++] = c;
}

/* ------------------------------------------------------------------------
 * Scenes
 * ------------------------------------------------------------------------ */

/* Pivot + n links of 0.1 m along x, gravity, as the standard chain. */
static void chain(scene *s, int dim, int n)
{
    memset(s, 0, sizeof *s);
    ok(cdyn_system_create(dim, &s->sys));
    cdyn_system *sys = s->sys;
    cdyn_particle prev = add(sys, 1, 0, 0, 0);
    sys_ok(sys, cdyn_particle_set_fixed(sys, prev, true));
    for (int i = 1; i <= n; i++) {
        cdyn_particle p = add(sys, 1.0 + 0.01 * i, 0.1 * i, 0, 0.01 * i * (dim == 3));
        cdyn_constraint c;
        double dx = 0.1, dz = dim == 3 ? 0.01 : 0;
        sys_ok(sys, cdyn_constraint_add_distance(sys, prev, p, sqrt(dx * dx + dz * dz), &c));
        keep(s, c);
        prev = p;
    }
    cdyn_force g;
    double gv[3] = {0, -9.81, 0};
    sys_ok(sys, cdyn_force_add_gravity(sys, gv, &g));
}

static void set_projection(cdyn_system *sys, int enabled, cdyn_projection_method method)
{
    cdyn_projection_options o;
    cdyn_projection_options_init(&o);
    o.enabled = enabled;
    o.method = method;
    sys_ok(sys, cdyn_system_set_projection_options(sys, &o));
}

static int user_row(const cdyn_system *sys, double t, size_t np, int dim, const double *x,
                    const double *v, size_t nr, double *g, double *jac, double *jdv, double *g_t,
                    void *user)
{
    (void)sys, (void)t, (void)g_t;
    (void)np;
    (void)nr;
    /* |x0 - x1|^2 + |x1 - x2|^2 = *user (one row on three particles). */
    const double *target = user;
    double s = 0, q = 0;
    for (int k = 0; k < dim; k++) {
        double a = x[k] - x[dim + k], b = x[dim + k] - x[2 * dim + k];
        double va = v[k] - v[dim + k], vb = v[dim + k] - v[2 * dim + k];
        s += a * a + b * b;
        jac[k] = 2 * a;
        jac[dim + k] = -2 * a + 2 * b;
        jac[2 * dim + k] = -2 * b;
        q += 2 * va * va + 2 * vb * vb;
    }
    g[0] = s - *target;
    jdv[0] = q;
    return 0;
}

static int ellipse(const cdyn_system *sys, double t, int dim, const double *x, double *c,
                 double *grad, double *hess, double *c_t, double *grad_t, double *c_tt,
                 void *user)
{
    (void)sys, (void)t, (void)c_t, (void)grad_t, (void)c_tt;
    (void)user;
    /* x^2 / 4 + y^2 + (z^2) = 1. */
    memset(hess, 0, (size_t)(dim * dim) * sizeof *hess);
    *c = 0.25 * x[0] * x[0] + x[1] * x[1] - 1;
    grad[0] = 0.5 * x[0];
    grad[1] = 2 * x[1];
    hess[0] = 0.5;
    hess[dim + 1] = 2;
    if (dim == 3) {
        *c += x[2] * x[2];
        grad[2] = 2 * x[2];
        hess[8] = 2;
    }
    return 0;
}

/* Every implicit kind on a few particles, with springs and drag. */
static void mixed(scene *s, int dim, double compliance)
{
    memset(s, 0, sizeof *s);
    ok(cdyn_system_create(dim, &s->sys));
    cdyn_system *sys = s->sys;
    cdyn_particle p[8];
    for (int i = 0; i < 8; i++)
        p[i] = add(sys, 1.0 + 0.1 * i, 0.3 * i, 0.05 * (i % 3), 0.02 * i * (dim == 3));
    cdyn_constraint c;
    double anchor[3] = {0, 0.5, 0}, pin[3] = {0.3, 0.05, 0.02 * (dim == 3)};
    double normal[3] = {0.1, 1, 0.2};
    sys_ok(sys, cdyn_constraint_add_anchor(sys, p[0], anchor, 0.5, &c));
    keep(s, c);
    sys_ok(sys, cdyn_constraint_add_pin(sys, p[1], pin, &c));
    keep(s, c);
    sys_ok(sys, cdyn_constraint_add_distance(sys, p[0], p[2], 0.62, &c));
    keep(s, c);
    sys_ok(sys, cdyn_constraint_set_compliance(sys, c, compliance));
    sys_ok(sys, cdyn_constraint_add_distance(sys, p[2], p[3], 0.31, &c));
    keep(s, c);
    sys_ok(sys, cdyn_constraint_add_plane(sys, p[4], normal, 0.1, &c));
    keep(s, c);
    cdyn_particle trio[3] = {p[3], p[4], p[5]};
    static double target = 0.186;
    sys_ok(sys, cdyn_constraint_add_user(sys, trio, 3, 1, user_row, &target, &c));
    keep(s, c);
    double x6[3] = {2, 0, 0};
    sys_ok(sys, cdyn_particle_set_position(sys, p[6], x6));
    sys_ok(sys, cdyn_constraint_add_implicit(sys, p[6], ellipse, NULL, &c));
    keep(s, c);
    cdyn_force f;
    double g[3] = {0, -9.81, 0.5};
    sys_ok(sys, cdyn_force_add_gravity(sys, g, &f));
    sys_ok(sys, cdyn_force_add_spring(sys, p[5], p[7], 50, 0.5, 0.25, &f));
    sys_ok(sys, cdyn_force_add_spring(sys, p[6], p[7], 30, 0.2, 0.3, &f));
    sys_ok(sys, cdyn_force_add_drag(sys, 0.05, &f));
}

/* A bead on a parabola, one on a closed spline and one on a sphere, joined
 * to free particles by rods; RK4 splits steps at the spline's knots. */
static void shapes(scene *s, int dim)
{
    memset(s, 0, sizeof *s);
    ok(cdyn_system_create(dim, &s->sys));
    cdyn_system *sys = s->sys;
    cdyn_particle a = add(sys, 1, 0.5, -0.0025, 0);
    cdyn_particle b = add(sys, 1, 0.5, -0.5, 0);
    cdyn_curve_desc cd;
    cdyn_curve_desc_init(&cd, CDYN_CURVE_PARABOLA);
    cd.coefficient = -0.01;
    cdyn_constraint c;
    sys_ok(sys, cdyn_constraint_add_on_curve(sys, a, &cd, &c));
    keep(s, c);
    sys_ok(sys, cdyn_constraint_add_distance(sys, a, b, 0.5, &c));
    keep(s, c);
    double pts[6 * 3];
    for (int i = 0; i < 6; i++) {
        double th = 2 * TS_PI * i / 6.0;
        pts[i * dim] = 3 + cos(th);
        pts[i * dim + 1] = 0.7 * sin(th);
        if (dim == 3)
            pts[i * dim + 2] = 0.1 * (i % 2);
    }
    cdyn_curve_desc sd;
    cdyn_curve_desc_init(&sd, CDYN_CURVE_SPLINE);
    sd.points = pts;
    sd.num_points = 6;
    sd.spline_end = CDYN_SPLINE_CLOSED;
    cdyn_particle q = add(sys, 2, 4, 0, 0);
    double vq[3] = {0, 1.5, 0};
    sys_ok(sys, cdyn_particle_set_velocity(sys, q, vq));
    sys_ok(sys, cdyn_constraint_add_on_curve(sys, q, &sd, &c));
    keep(s, c);
    if (dim == 3) {
        cdyn_surface_desc su;
        cdyn_surface_desc_init(&su, CDYN_SURFACE_SPHERE);
        su.origin[0] = -2;
        cdyn_particle r = add(sys, 1, -2, 0.6, 0.8);
        double vr[3] = {0.3, 0, 0};
        sys_ok(sys, cdyn_particle_set_velocity(sys, r, vr));
        sys_ok(sys, cdyn_constraint_add_on_surface(sys, r, &su, &c));
        keep(s, c);
    }
    cdyn_force f;
    double g[3] = {0, -9.81, 0};
    sys_ok(sys, cdyn_force_add_gravity(sys, g, &f));
}

/* A spring-dashpot jelly dropped on a tilted plane with friction and a
 * sphere; a height field in 3-D. */
static void jelly(scene *s, int dim)
{
    memset(s, 0, sizeof *s);
    ok(cdyn_system_create(dim, &s->sys));
    cdyn_system *sys = s->sys;
    cdyn_particle p[16];
    ts_make_network(sys, 4, 4, 0.1, 400, 1.0, 0.05, 7, p);
    double v0[3] = {0.8, -0.5, 0.1};
    for (int i = 0; i < 16; i++)
        sys_ok(sys, cdyn_particle_set_velocity(sys, p[i], v0));
    cdyn_ground gr;
    double n[3] = {0.1, 1, 0};
    sys_ok(sys, cdyn_ground_add_plane(sys, n, -0.05, &gr));
    sys_ok(sys, cdyn_ground_set_friction(sys, gr, 0.6));
    sys_ok(sys, cdyn_ground_set_damping(sys, gr, 5));
    double cs[3] = {0.6, -0.3, 0};
    sys_ok(sys, cdyn_ground_add_sphere(sys, cs, 0.3, false, &gr));
    sys_ok(sys, cdyn_ground_set_friction(sys, gr, 0.3));
    if (dim == 3) {
        double z[16];
        for (int i = 0; i < 16; i++)
            z[i] = 0.02 * (i % 4) - 0.01 * (i / 4);
        cdyn_heightfield_desc hd;
        cdyn_heightfield_desc_init(&hd);
        hd.nx = hd.ny = 4;
        hd.origin[0] = -0.5;
        hd.origin[1] = -0.5;
        hd.spacing[0] = hd.spacing[1] = 0.5;
        hd.samples = z;
        hd.up_axis = 1;
        sys_ok(sys, cdyn_ground_add_heightfield(sys, &hd, &gr));
        sys_ok(sys, cdyn_ground_set_friction(sys, gr, 0.4));
    }
    cdyn_force f;
    double g[3] = {0, -9.81, 0};
    sys_ok(sys, cdyn_force_add_gravity(sys, g, &f));
}

/* Two rigid bodies (one per scheme) falling onto a plane with friction. */
static void bodies(scene *s, int dim)
{
    memset(s, 0, sizeof *s);
    ok(cdyn_system_create(dim, &s->sys));
    cdyn_system *sys = s->sys;
    for (int b = 0; b < 2; b++) {
        cdyn_particle p[4];
        p[0] = add(sys, 1, b * 1.0, 0.2, 0);
        p[1] = add(sys, 2, b * 1.0 + 0.3, 0.25, 0);
        p[2] = add(sys, 1, b * 1.0 + 0.1, 0.5, 0.1 * (dim == 3));
        p[3] = add(sys, 1.5, b * 1.0 - 0.1, 0.35, -0.2 * (dim == 3));
        cdyn_rigid r;
        sys_ok(sys, cdyn_rigid_add(sys, p, 4, &r));
        sys_ok(sys, cdyn_rigid_set_scheme(sys, r, b ? CDYN_RIGID_SECOND_ORDER
                                                    : CDYN_RIGID_FIRST_ORDER));
        double w[3] = {0.5, 1.0, 3.0 - b};
        if (dim == 2)
            w[0] = w[1] = 0;
        sys_ok(sys, cdyn_rigid_set_angular_velocity(sys, r, w));
    }
    cdyn_ground gr;
    double n[3] = {0, 1, 0};
    sys_ok(sys, cdyn_ground_add_plane(sys, n, 0, &gr));
    sys_ok(sys, cdyn_ground_set_friction(sys, gr, 0.5));
    sys_ok(sys, cdyn_ground_set_damping(sys, gr, 20));
    cdyn_force f;
    double g[3] = {0, -9.81, 0};
    sys_ok(sys, cdyn_force_add_gravity(sys, g, &f));
}

/* Pair sets keep a neighbour list with the default skin; with skin 0 they
 * search the cell list at every evaluation, the arithmetic (and order of
 * summation) the pair scenes were first pinned with: the *_skin0 rows keep
 * those hashes, so that the neighbour list is shown to change only the
 * order in which each particle's pair forces are summed. */
static double pair_skin = -1; /* < 0: the default */

static void set_skin(cdyn_system *sys, cdyn_force f)
{
    if (pair_skin >= 0)
        sys_ok(sys, cdyn_force_set_pair_skin(sys, f, pair_skin));
}

/* WCA pair set and a damped Hertz pair list. */
static void pairs(scene *s, int dim)
{
    memset(s, 0, sizeof *s);
    ok(cdyn_system_create(dim, &s->sys));
    cdyn_system *sys = s->sys;
    enum { N = 27 };
    cdyn_particle p[N];
    uint64_t seed = 11;
    for (int i = 0; i < N; i++) {
        double x = 1.1 * (i % 3), y = 1.1 * ((i / 3) % 3), z = dim == 3 ? 1.1 * (i / 9) : 0;
        if (dim == 2)
            x += 3.3 * (i / 9);
        /* One draw per statement: the order of calls within one expression
         * is unspecified in C, and compilers differ. */
        double jx = ts_rand_sym(&seed);
        double jy = ts_rand_sym(&seed);
        p[i] = add(sys, 1, x + 0.05 * jx, y + 0.05 * jy, z);
        double v[3];
        for (int k = 0; k < 3; k++)
            v[k] = ts_rand_sym(&seed);
        sys_ok(sys, cdyn_particle_set_velocity(sys, p[i], v));
    }
    cdyn_pair_params pp;
    ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE));
    pp.sigma = 1.0;
    cdyn_force f;
    sys_ok(sys, cdyn_force_add_pair_set(sys, &pp, p, N, &f));
    set_skin(sys, f);
    ok(cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ));
    pp.stiffness = 50;
    pp.radius = 0.6;
    pp.damping = 0.1;
    cdyn_particle list[6] = {p[0], p[1], p[1], p[2], p[3], p[4]};
    sys_ok(sys, cdyn_force_add_pairs(sys, &pp, list, 3, &f));
}

static int swirl(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                 const double *v, double *f, void *user)
{
    (void)sys;
    (void)user;
    for (size_t i = 0; i < n; i++) {
        const double *xi = x + i * (size_t)dim, *vi = v + i * (size_t)dim;
        double *fi = f + i * (size_t)dim;
        fi[0] += -0.3 * xi[1] + 0.01 * t - 0.02 * vi[0];
        fi[1] += 0.3 * xi[0];
    }
    return 0;
}

static int swirl_jacobian(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                          const double *v, cdyn_jacobian *jac, void *user)
{
    (void)sys;
    (void)t;
    (void)x;
    (void)v;
    (void)user;
    double dx[9] = {0}, dv[9] = {0};
    dx[1] = -0.3;
    dx[dim] = 0.3;
    dv[0] = -0.02;
    for (size_t i = 0; i < n; i++)
        if (cdyn_jacobian_add_block(jac, i, i, dx, dv) != CDYN_OK)
            return 1;
    return 0;
}

/* Stiff springs, a rod, a ground, a pair set and two callbacks (one with
 * its Jacobian, one differenced): backward Euler's Newton iteration. */
static void stiff(scene *s, int dim)
{
    memset(s, 0, sizeof *s);
    ok(cdyn_system_create(dim, &s->sys));
    cdyn_system *sys = s->sys;
    cdyn_particle p[9];
    ts_make_network(sys, 3, 3, 0.2, 2e4, 5, 0.1, 3, p);
    sys_ok(sys, cdyn_particle_set_fixed(sys, p[0], true));
    cdyn_constraint c;
    sys_ok(sys, cdyn_constraint_add_distance(sys, p[0], p[8], 0.6, &c));
    keep(s, c);
    cdyn_ground gr;
    double n[3] = {0, 1, 0};
    sys_ok(sys, cdyn_ground_add_plane(sys, n, -0.3, &gr));
    sys_ok(sys, cdyn_ground_set_friction(sys, gr, 0.4));
    cdyn_force f;
    double g[3] = {0, -9.81, 0};
    sys_ok(sys, cdyn_force_add_gravity(sys, g, &f));
    sys_ok(sys, cdyn_force_add_drag(sys, 0.1, &f));
    sys_ok(sys, cdyn_force_add_callback_with_jacobian(sys, swirl, swirl_jacobian, NULL, true, &f));
    sys_ok(sys, cdyn_force_add_callback(sys, swirl, NULL, true, &f));
    cdyn_pair_params pp;
    ok(cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ));
    pp.radius = 0.12;
    pp.stiffness = 1e3;
    sys_ok(sys, cdyn_force_add_pair_set(sys, &pp, p, 9, &f));
    set_skin(sys, f);
}

/* ------------------------------------------------------------------------
 * The table
 * ------------------------------------------------------------------------ */

typedef struct entry {
    const char *name;
    uint64_t pinned;
} entry;

static const entry PINNED[] = {
#include "scene_hashes.inc"
};

static int print_mode(void)
{
    const char *e = getenv("CDYN_PRINT_HASHES");
    return e && *e && *e != '0';
}

static void check(const char *name, scene *s)
{
    uint64_t h = scene_hash(s);
    cdyn_system_destroy(s->sys);
    memset(s, 0, sizeof *s);
    if (print_mode()) {
        printf("    {\"%s\", UINT64_C(0x%016llx)},\n", name, (unsigned long long)h);
        return;
    }
    for (size_t i = 0; i < sizeof PINNED / sizeof PINNED[0]; i++)
        if (strcmp(PINNED[i].name, name) == 0) {
            if (PINNED[i].pinned != h)
                fail_msg("scene %s: hash 0x%016llx, pinned 0x%016llx", name,
                         (unsigned long long)h, (unsigned long long)PINNED[i].pinned);
            return;
        }
    fail_msg("scene %s has no pinned hash", name);
}

static scene S;

static void chain_scenes(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        cdyn_integrator integ;
        int dim;
        cdyn_projection_method method;
        int project;
        cdyn_constraint_solver solver;
    } rows[] = {
        {"chain_rattle_newton_2d", CDYN_INTEGRATOR_RATTLE, 2, CDYN_PROJECTION_NEWTON, 0,
         CDYN_SOLVER_DIRECT},
        {"chain_rattle_newton_3d", CDYN_INTEGRATOR_RATTLE, 3, CDYN_PROJECTION_NEWTON, 0,
         CDYN_SOLVER_DIRECT},
        {"chain_rattle_shake_2d", CDYN_INTEGRATOR_RATTLE, 2, CDYN_PROJECTION_SHAKE, 0,
         CDYN_SOLVER_DIRECT},
        {"chain_symplectic_direct_2d", CDYN_INTEGRATOR_SYMPLECTIC_EULER, 2,
         CDYN_PROJECTION_NEWTON, 0, CDYN_SOLVER_DIRECT},
        {"chain_symplectic_cg_3d", CDYN_INTEGRATOR_SYMPLECTIC_EULER, 3, CDYN_PROJECTION_NEWTON,
         0, CDYN_SOLVER_CG},
        {"chain_rk4_projected_3d", CDYN_INTEGRATOR_RK4, 3, CDYN_PROJECTION_NEWTON, 1,
         CDYN_SOLVER_DIRECT},
        {"chain_verlet_shake_2d", CDYN_INTEGRATOR_VELOCITY_VERLET, 2, CDYN_PROJECTION_SHAKE, 1,
         CDYN_SOLVER_DIRECT},
        {"chain_rk45_2d", CDYN_INTEGRATOR_RK45, 2, CDYN_PROJECTION_NEWTON, 0,
         CDYN_SOLVER_DIRECT},
        {"chain_backward_euler_2d", CDYN_INTEGRATOR_BACKWARD_EULER, 2, CDYN_PROJECTION_NEWTON,
         0, CDYN_SOLVER_DIRECT},
        {"chain_explicit_euler_3d", CDYN_INTEGRATOR_EXPLICIT_EULER, 3, CDYN_PROJECTION_NEWTON,
         0, CDYN_SOLVER_DIRECT},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        /* SHAKE's velocity sweeps converge slowly on long chains. */
        chain(&S, rows[i].dim, rows[i].method == CDYN_PROJECTION_SHAKE ? 8 : 40);
        sys_ok(S.sys, cdyn_system_set_integrator(S.sys, rows[i].integ));
        sys_ok(S.sys, ts_set_solver(S.sys, rows[i].solver));
        set_projection(S.sys, rows[i].project, rows[i].method);
        run(&S, 1e-3, 300);
        check(rows[i].name, &S);
    }
}

static void mixed_scenes(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        cdyn_integrator integ;
        int dim;
        double compliance;
        cdyn_constraint_solver solver;
    } rows[] = {
        {"mixed_rk4_2d", CDYN_INTEGRATOR_RK4, 2, 0, CDYN_SOLVER_DIRECT},
        {"mixed_rk4_3d", CDYN_INTEGRATOR_RK4, 3, 1e-4, CDYN_SOLVER_DIRECT},
        {"mixed_verlet_cg_3d", CDYN_INTEGRATOR_VELOCITY_VERLET, 3, 0, CDYN_SOLVER_CG},
        {"mixed_rk45_3d", CDYN_INTEGRATOR_RK45, 3, 0, CDYN_SOLVER_DIRECT},
        {"mixed_symplectic_2d", CDYN_INTEGRATOR_SYMPLECTIC_EULER, 2, 1e-3, CDYN_SOLVER_DIRECT},
        {"mixed_rattle_3d", CDYN_INTEGRATOR_RATTLE, 3, 0, CDYN_SOLVER_DIRECT},
        {"mixed_backward_euler_3d", CDYN_INTEGRATOR_BACKWARD_EULER, 3, 0, CDYN_SOLVER_DIRECT},
        {"mixed_backward_euler_2d", CDYN_INTEGRATOR_BACKWARD_EULER, 2, 1e-4,
         CDYN_SOLVER_DIRECT},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        mixed(&S, rows[i].dim, rows[i].compliance);
        sys_ok(S.sys, cdyn_system_set_integrator(S.sys, rows[i].integ));
        sys_ok(S.sys, ts_set_solver(S.sys, rows[i].solver));
        /* The scene starts off its constraints: Newton needs more room. */
        sys_ok(S.sys, ts_set_newton(S.sys, 1e-9, 200));
        run(&S, 1e-3, 200);
        check(rows[i].name, &S);
    }
}

static void shape_scenes(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        cdyn_integrator integ;
        int dim;
    } rows[] = {
        {"shapes_rk4_2d", CDYN_INTEGRATOR_RK4, 2},
        {"shapes_rk4_3d", CDYN_INTEGRATOR_RK4, 3},
        {"shapes_rk45_3d", CDYN_INTEGRATOR_RK45, 3},
        {"shapes_symplectic_3d", CDYN_INTEGRATOR_SYMPLECTIC_EULER, 3},
        {"shapes_verlet_2d", CDYN_INTEGRATOR_VELOCITY_VERLET, 2},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        shapes(&S, rows[i].dim);
        sys_ok(S.sys, cdyn_system_set_integrator(S.sys, rows[i].integ));
        run(&S, 2e-3, 250);
        check(rows[i].name, &S);
    }
}

static void contact_scenes(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int which; /* 0 jelly, 1 bodies, 2 pairs, 3 stiff */
        cdyn_integrator integ;
        int dim;
        double dt;
    } rows[] = {
        {"jelly_rk4_2d", 0, CDYN_INTEGRATOR_RK4, 2, 1e-3},
        {"jelly_symplectic_3d", 0, CDYN_INTEGRATOR_SYMPLECTIC_EULER, 3, 5e-4},
        {"jelly_backward_euler_3d", 0, CDYN_INTEGRATOR_BACKWARD_EULER, 3, 2e-3},
        {"bodies_rk4_3d", 1, CDYN_INTEGRATOR_RK4, 3, 1e-3},
        {"bodies_symplectic_2d", 1, CDYN_INTEGRATOR_SYMPLECTIC_EULER, 2, 1e-3},
        {"pairs_verlet_3d", 2, CDYN_INTEGRATOR_VELOCITY_VERLET, 3, 2e-3},
        {"pairs_rattle_2d", 2, CDYN_INTEGRATOR_RATTLE, 2, 2e-3},
        {"pairs_backward_euler_2d", 2, CDYN_INTEGRATOR_BACKWARD_EULER, 2, 2e-3},
        {"stiff_backward_euler_2d", 3, CDYN_INTEGRATOR_BACKWARD_EULER, 2, 5e-3},
        {"stiff_backward_euler_3d", 3, CDYN_INTEGRATOR_BACKWARD_EULER, 3, 5e-3},
        {"stiff_rk4_3d", 3, CDYN_INTEGRATOR_RK4, 3, 2e-4},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        switch (rows[i].which) {
        case 0:
            jelly(&S, rows[i].dim);
            break;
        case 1:
            bodies(&S, rows[i].dim);
            break;
        case 2:
            pairs(&S, rows[i].dim);
            break;
        default:
            stiff(&S, rows[i].dim);
            break;
        }
        sys_ok(S.sys, cdyn_system_set_integrator(S.sys, rows[i].integ));
        run(&S, rows[i].dt, 300);
        check(rows[i].name, &S);
    }
    /* The scenes with pair sets once more, searching all pairs anew. */
    pair_skin = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (rows[i].which < 2)
            continue;
        char name[64];
        snprintf(name, sizeof name, "%s_skin0", rows[i].name);
        if (rows[i].which == 2)
            pairs(&S, rows[i].dim);
        else
            stiff(&S, rows[i].dim);
        sys_ok(S.sys, cdyn_system_set_integrator(S.sys, rows[i].integ));
        run(&S, rows[i].dt, 300);
        check(name, &S);
    }
    pair_skin = -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chain_scenes),
        cmocka_unit_test(mixed_scenes),
        cmocka_unit_test(shape_scenes),
        cmocka_unit_test(contact_scenes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
