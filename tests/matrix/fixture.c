/* The matrix's fixtures: a system with an object in every role (every kind
 * of force, constraint, ground, a rigid body, kinematic and fixed
 * particles, applied forces) that has taken a step with every family of
 * integrator, another system whose handles are foreign to it, a rained
 * lattice and a reaction network; the callbacks they hold, which also make
 * the calls of the busy cases. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- callbacks ------------------------------------------------------- */

/* The call of a busy case, once per case, from inside a callback. */
static void busy_hook(mx_fix *f)
{
    mx_ctx *c = f ? f->ctx : NULL;
    if (c && c->busy && c->busy_calls == 0) {
        c->busy_calls++;
        c->busy_status = c->row->call(c, c->busy_args);
    }
}

static int cb_force(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                    const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)v;
    for (size_t i = 0; i < n * (size_t)dim; i++)
        f[i] += -0.01 * x[i];
    busy_hook(user);
    return 0;
}

static int cb_jacobian(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                       const double *v, cdyn_jacobian *jac, void *user)
{
    (void)sys, (void)t, (void)x, (void)v;
    double b[9] = {0};
    for (int k = 0; k < dim; k++)
        b[k * dim + k] = -0.01;
    for (size_t i = 0; i < n; i++)
        if (cdyn_jacobian_add_block(jac, i, i, b, NULL) != CDYN_OK)
            return 1;
    mx_fix *f = user;
    mx_ctx *c = f ? f->ctx : NULL;
    if (c && c->jac_call && c->jac_calls == 0) {
        c->jac_calls++;
        c->jac_args[0].w = jac; /* the accumulator of this call */
        c->jac_status = c->jac_call(c, c->jac_args);
    }
    return 0;
}

/* Rows r of a user constraint tie coordinate r % dim of the first and last
 * particles: the fixture's pair sits one unit apart along y. */
static int cb_user(const cdyn_system *sys, double t, size_t np, int dim, const double *x,
                   const double *v, size_t nr, double *g, double *jac, double *vt, double *g_t,
                   void *user)
{
    (void)sys, (void)t, (void)v, (void)user;
    size_t last = np - 1, d = (size_t)dim;
    memset(jac, 0, nr * np * d * sizeof *jac);
    for (size_t r = 0; r < nr; r++) {
        size_t k = r % d;
        g[r] = x[k] - (np > 1 ? x[last * d + k] - (k == 1 ? -1.0 : 0.0) : x[k]);
        jac[(r * np + 0) * d + k] += 1.0;
        if (np > 1)
            jac[(r * np + last) * d + k] -= 1.0;
        vt[r] = 0;
        if (g_t)
            g_t[r] = 0;
    }
    return 0;
}

/* c = (|x|^2 - 25) / 2: a circle or sphere of radius 5 about the origin. */
static int cb_implicit(const cdyn_system *sys, double t, int dim, const double *x, double *c,
                       double *grad, double *hess, double *c_t, double *grad_t, double *c_tt,
                       void *user)
{
    (void)sys, (void)t, (void)user;
    double r2 = 0;
    for (int k = 0; k < dim; k++) {
        r2 += x[k] * x[k];
        grad[k] = x[k];
        for (int j = 0; j < dim; j++)
            hess[k * dim + j] = j == k;
        if (grad_t)
            grad_t[k] = 0;
    }
    *c = (r2 - 25.0) / 2;
    if (c_t)
        *c_t = 0;
    if (c_tt)
        *c_tt = 0;
    return 0;
}

/* H = y + 50: a floor far below everything. */
static int cb_ground(const cdyn_system *sys, double t, int dim, const double *x, double *h,
                     double *grad, double *velocity, void *user)
{
    (void)sys, (void)t, (void)dim, (void)velocity, (void)user;
    *h = x[1] + 50;
    grad[1] = 1;
    return 0;
}

/* The unit circle about (0, 12). */
static int cb_curve(const cdyn_system *sys, double t, double q, double r[3], double dr[3],
                    double ddr[3], void *user)
{
    (void)sys, (void)t, (void)user;
    r[0] = cos(q), r[1] = 12 + sin(q);
    dr[0] = -sin(q), dr[1] = cos(q);
    ddr[0] = -cos(q), ddr[1] = -sin(q);
    return 0;
}

/* The unit sphere about (0, 15, 0). */
static int cb_surface(const cdyn_system *sys, double t, double u, double v, double r[3],
                      double ru[3], double rv[3], double ruu[3], double ruv[3], double rvv[3],
                      void *user)
{
    (void)sys, (void)t, (void)user;
    double su = sin(u), cu = cos(u), sv = sin(v), cv = cos(v);
    r[0] = sv * cu, r[1] = 15 + sv * su, r[2] = cv;
    ru[0] = -sv * su, ru[1] = sv * cu;
    rv[0] = cv * cu, rv[1] = cv * su, rv[2] = -sv;
    ruu[0] = -sv * cu, ruu[1] = -sv * su;
    ruv[0] = -cv * su, ruv[1] = cv * cu;
    rvv[0] = -sv * cu, rvv[1] = -sv * su, rvv[2] = -cv;
    return 0;
}

/* A turn about z at 0.5 rad/s. */
static int cb_motion(const cdyn_system *sys, double t, cdyn_motion_state *out, void *user)
{
    (void)sys, (void)user;
    double a = 0.5 * t;
    out->rotation[0] = cos(a), out->rotation[1] = -sin(a);
    out->rotation[3] = sin(a), out->rotation[4] = cos(a);
    out->angular_velocity[2] = 0.5;
    return 0;
}

static int cb_schedule(const cdyn_system *sys, double t, double out[3], void *user)
{
    (void)sys, (void)user;
    out[0] = 0.01 * sin(t), out[1] = 0.01 * cos(t), out[2] = -0.01 * sin(t);
    return 0;
}

/* A soft repulsion U = (1 - r)^2 inside r = 1. */
static int cb_pair(const cdyn_system *sys, double t, size_t i, size_t j, double r, double *u,
                   double *force, double *dforce, void *user)
{
    (void)sys, (void)t, (void)i, (void)j, (void)user;
    if (u)
        *u = (1 - r) * (1 - r);
    if (force)
        *force = 2 * (1 - r);
    if (dforce)
        *dforce = -2;
    return 0;
}

/* C -> A at rate 0.3 c_C. */
static int cb_rate(const cdyn_kinetics *kin, double t, const double *c, size_t n, double *rate,
                   void *user)
{
    (void)kin, (void)t, (void)n;
    *rate = 0.3 * c[2];
    busy_hook(user);
    return 0;
}

static int cb_rate_jacobian(const cdyn_kinetics *kin, double t, const double *c, size_t n,
                            double *drate, void *user)
{
    (void)kin, (void)t, (void)c, (void)n, (void)user;
    drate[0] = 0.3;
    return 0;
}

void (*mx_callback(int fn))(void)
{
    switch (fn) {
    case FN_FORCE:
        return (void (*)(void))cb_force;
    case FN_JAC:
        return (void (*)(void))cb_jacobian;
    case FN_USER:
        return (void (*)(void))cb_user;
    case FN_IMPLICIT:
        return (void (*)(void))cb_implicit;
    case FN_GROUND:
        return (void (*)(void))cb_ground;
    case FN_RATE:
        return (void (*)(void))cb_rate;
    case FN_RATE_JAC:
        return (void (*)(void))cb_rate_jacobian;
    case FN_CURVE:
        return (void (*)(void))cb_curve;
    case FN_SURFACE:
        return (void (*)(void))cb_surface;
    case FN_MOTION:
        return (void (*)(void))cb_motion;
    case FN_SCHEDULE:
        return (void (*)(void))cb_schedule;
    case FN_PAIR:
        return (void (*)(void))cb_pair;
    }
    return NULL;
}

/* ---- the system ------------------------------------------------------ */

static const double place[P_COUNT][3] = {
    [P_FREE] = {0.3, 2.0, 0.1},   [P_FREE2] = {1.7, 2.2, -0.3}, [P_SA] = {-1, 3, 0},
    [P_SB] = {-1, 4, 0},          [P_DA] = {2, 3, 0},           [P_DB] = {2, 4, 0},
    [P_ANCHOR] = {3, 3, 0},       [P_PIN] = {4, 3, 0},          [P_PLANE] = {5, 3, 0},
    [P_USER0] = {6, 3, 0},        [P_USER1] = {6, 4, 0},        [P_IMPL] = {3, 4, 0},
    [P_CURVE] = {1, 6, 0},        [P_SURF] = {1, 9, 0},         [P_R0] = {-3, 3, 0},
    [P_R1] = {-2, 3, 0},          [P_R2] = {-3, 4, 0},          [P_R3] = {-2.5, 3.5, 1},
    [P_PAIR0] = {7, 3, 0},        [P_PAIR1] = {7.9, 3, 0},      [P_PAIR2] = {8.8, 3, 0},
    [P_FIXED] = {9, 3, 0},        [P_KIN] = {10, 3, 0},         [P_GROUND] = {11, -0.01, 0},
    [P_NEW0] = {12, 3, 0},        [P_NEW1] = {13, 3, 0},        [P_NEW2] = {12, 4, 0},
    [P_NEW3] = {12.5, 3.5, 1},    [P_PARAB] = {1, 20.5, 0},
};

/* Stops the matrix: a fixture that cannot be built is a broken test. */
static void need_ok(cdyn_status st, const cdyn_system *sys, const char *what)
{
    if (st != CDYN_OK) {
        fprintf(stderr, "matrix fixture: %s: %s (%s)\n", what, cdyn_status_name(st),
                sys ? cdyn_system_last_error(sys) : "");
        abort();
    }
}

static const double hf_samples[20] = {-5.0, -4.9, -4.8, -4.7, -4.6, -5.1, -5.0, -4.9, -4.8, -4.7,
                                      -5.2, -5.1, -5.0, -4.9, -4.8, -5.3, -5.2, -5.1, -5.0, -4.9};

/* The other system: one object of each kind, at the low slots that are live
 * in the main system too, so that only the salt tells them apart. */
static void build_foreign(mx_sys *s, int dim)
{
    cdyn_system *sys;
    need_ok(cdyn_system_create(dim, &sys), NULL, "create");
    s->sys = sys;
    s->dim = dim;
    for (int i = 0; i < P_COUNT; i++)
        need_ok(cdyn_particle_add(sys, 1, place[i], NULL, &s->p[i]), sys, "foreign particle");
    need_ok(cdyn_force_add_drag(sys, 0.1, &s->f[0]), sys, "foreign force");
    for (int i = 1; i < F_COUNT; i++)
        s->f[i] = s->f[0];
    need_ok(cdyn_constraint_add_pin(sys, s->p[0], place[0], &s->c[0]), sys, "foreign pin");
    for (int i = 1; i < C_COUNT; i++)
        s->c[i] = s->c[0];
    need_ok(cdyn_ground_add_plane(sys, (double[]){0, 1, 0}, -10, &s->g[0]), sys, "foreign ground");
    for (int i = 1; i < G_COUNT; i++)
        s->g[i] = s->g[0];
    need_ok(cdyn_rigid_add(sys, &s->p[P_R0], 4, &s->r[0]), sys, "foreign rigid");
}

static bool foreign_to(const mx_sys *a, const mx_sys *b)
{
    return !cdyn_particle_is_valid(a->sys, b->p[0]) && !cdyn_force_is_valid(a->sys, b->f[0]) &&
           !cdyn_constraint_is_valid(a->sys, b->c[0]) && !cdyn_ground_is_valid(a->sys, b->g[0]) &&
           !cdyn_rigid_is_valid(a->sys, b->r[0]);
}

static void step_with(cdyn_system *sys, cdyn_integrator in)
{
    need_ok(cdyn_system_set_integrator(sys, in), sys, "set_integrator");
    need_ok(cdyn_system_step(sys, 1e-3), sys, "fixture step");
}

static void build_system(mx_sys *s, mx_fix *fix, int dim, bool flat)
{
    cdyn_system *sys;
    need_ok(cdyn_system_create(dim, &sys), NULL, "create");
    memset(s, 0, sizeof *s);
    s->sys = sys;
    s->dim = dim;
    for (int i = 0; i < P_COUNT; i++) {
        double x[3] = {place[i][0], place[i][1], place[i][2]};
        if (dim == 2 && (i == P_R3 || i == P_NEW3))
            x[0] += 0.5, x[1] += 0.5; /* out of the line of the others, in the plane */
        const double v[3] = {0.1, 0, 0.2};
        need_ok(cdyn_particle_add(sys, 1.0 + 0.01 * i, x, i == P_FREE ? v : NULL, &s->p[i]), sys,
                "particle_add");
    }
    need_ok(cdyn_particle_add(sys, 1, (double[]){20, 20, 0}, NULL, &s->stale_p), sys, "add");
    need_ok(cdyn_particle_get_index(sys, s->stale_p, &s->hole), sys, "get_index");
    need_ok(cdyn_particle_remove(sys, s->stale_p), sys, "remove");

    cdyn_particle *p = s->p;
    need_ok(cdyn_force_add_gravity(sys, (double[]){0, -9.81, 0}, &s->f[F_GRAVITY]), sys, "gravity");
    need_ok(cdyn_force_add_spring(sys, p[P_SA], p[P_SB], 10, 0.1, 1, &s->f[F_SPRING]), sys, "spring");
    need_ok(cdyn_force_add_drag(sys, 0.1, &s->f[F_DRAG]), sys, "drag");
    need_ok(cdyn_force_add_callback(sys, cb_force, fix, false, &s->f[F_CB]), sys, "callback");
    need_ok(cdyn_force_add_callback_with_jacobian(sys, cb_force, cb_jacobian, fix, false,
                                                  &s->f[F_JAC]),
            sys, "callback_with_jacobian");
    cdyn_pair_params pp;
    need_ok(cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ), sys, "pair_params_init");
    pp.stiffness = 1000;
    const cdyn_particle pairs[4] = {p[P_PAIR0], p[P_PAIR1], p[P_PAIR1], p[P_PAIR2]};
    need_ok(cdyn_force_add_pairs(sys, &pp, pairs, 2, &s->f[F_PAIRS]), sys, "pairs");
    need_ok(cdyn_force_add_pair_set(sys, &pp, &p[P_PAIR0], 3, &s->f[F_PAIRSET]), sys, "pair set");
    need_ok(cdyn_force_add_drag(sys, 0.2, &s->stale_f), sys, "drag");
    need_ok(cdyn_force_remove(sys, s->stale_f), sys, "force_remove");

    need_ok(cdyn_constraint_add_distance(sys, p[P_DA], p[P_DB], 1, &s->c[C_DIST]), sys, "distance");
    need_ok(cdyn_constraint_add_anchor(sys, p[P_ANCHOR], (double[]){3, 4, 0}, 1, &s->c[C_ANCHOR]),
            sys, "anchor");
    need_ok(cdyn_constraint_add_pin(sys, p[P_PIN], place[P_PIN], &s->c[C_PIN]), sys, "pin");
    need_ok(cdyn_constraint_add_plane(sys, p[P_PLANE], (double[]){0, 1, 0}, 3, &s->c[C_PLANE]),
            sys, "plane");
    need_ok(cdyn_constraint_add_user(sys, &p[P_USER0], 2, 2, cb_user, fix, &s->c[C_USER]), sys,
            "user");
    need_ok(cdyn_constraint_add_implicit(sys, p[P_IMPL], cb_implicit, fix, &s->c[C_IMPL]), sys,
            "implicit");
    need_ok(cdyn_constraint_add_pin(sys, p[P_FREE2], place[P_FREE2], &s->stale_c), sys, "pin");
    need_ok(cdyn_constraint_remove(sys, s->stale_c), sys, "constraint_remove");

    need_ok(cdyn_ground_add_plane(sys, (double[]){0, 1, 0}, 0, &s->g[G_PLANE]), sys, "ground plane");
    need_ok(cdyn_ground_add_sphere(sys, (double[]){0, -100, 0}, 1, false, &s->g[G_SPHERE]), sys,
            "ground sphere");
    cdyn_heightfield_desc hf;
    cdyn_heightfield_desc_init(&hf);
    hf.nx = 5, hf.ny = dim == 3 ? 4 : 1;
    hf.origin[0] = 20, hf.origin[1] = 20;
    hf.samples = hf_samples;
    need_ok(cdyn_ground_add_heightfield(sys, &hf, &s->g[G_HF]), sys, "ground heightfield");
    need_ok(cdyn_ground_add_callback(sys, cb_ground, fix, &s->g[G_CB]), sys, "ground callback");
    need_ok(cdyn_ground_set_friction(sys, s->g[G_PLANE], 0.5), sys, "friction");
    need_ok(cdyn_ground_add_plane(sys, (double[]){1, 0, 0}, -50, &s->stale_g), sys, "ground");
    need_ok(cdyn_ground_remove(sys, s->stale_g), sys, "ground_remove");

    need_ok(cdyn_rigid_add(sys, &p[P_R0], 4, &s->r[R_BODY]), sys, "rigid_add");
    need_ok(cdyn_rigid_add(sys, &p[P_NEW0], 4, &s->stale_r), sys, "rigid_add");
    need_ok(cdyn_rigid_remove(sys, s->stale_r), sys, "rigid_remove");

    need_ok(cdyn_particle_set_fixed(sys, p[P_FIXED], true), sys, "set_fixed");
    cdyn_motion_desc m;
    cdyn_motion_desc_init(&m, CDYN_MOTION_LINEAR);
    m.velocity[0] = 0.1;
    need_ok(cdyn_particle_set_motion(sys, p[P_KIN], &m), sys, "set_motion");
    need_ok(cdyn_particle_apply_force(sys, p[P_FREE], (double[]){0, 1, 0},
                                      CDYN_APPLY_UNTIL_CLEARED),
            sys, "apply_force");

    /* A step of each family while nothing is on a shape (backward Euler and
     * RATTLE refuse those), so that every report has something in it. */
    step_with(sys, CDYN_INTEGRATOR_BACKWARD_EULER);
    step_with(sys, CDYN_INTEGRATOR_RATTLE);
    step_with(sys, CDYN_INTEGRATOR_RK45);

    cdyn_curve_desc cd;
    cdyn_curve_desc_init(&cd, CDYN_CURVE_CIRCLE);
    cd.origin[1] = 6;
    if (!flat)
        need_ok(cdyn_constraint_add_on_curve(sys, p[P_CURVE], &cd, &s->c[C_CURVE]), sys,
                "on_curve");
    /* y = 20 + x^2 / 2: far from it the nearest point is out of range. */
    cdyn_curve_desc_init(&cd, CDYN_CURVE_PARABOLA);
    cd.origin[1] = 20;
    cd.coefficient = 0.5;
    if (!flat)
        need_ok(cdyn_constraint_add_on_curve(sys, p[P_PARAB], &cd, &s->c[C_PARAB]), sys,
                "on_curve");
    if (dim == 3 && !flat) {
        cdyn_surface_desc sd;
        cdyn_surface_desc_init(&sd, CDYN_SURFACE_SPHERE);
        sd.origin[1] = 9;
        need_ok(cdyn_constraint_add_on_surface(sys, p[P_SURF], &sd, &s->c[C_SURF]), sys,
                "on_surface");
    }
    step_with(sys, CDYN_INTEGRATOR_SYMPLECTIC_EULER);
    /* A box that encloses everything and wraps nothing: the volume of the
     * pressure, the image counters. */
    const double corner[3] = {-100, -100, -100}, edge[3] = {200, 200, 200};
    const bool open[3] = {false, false, false};
    need_ok(cdyn_system_set_box(sys, corner, edge, open), sys, "set_box");
}

static void build_kinetics(mx_fix *f)
{
    cdyn_kinetics *k;
    if (cdyn_kinetics_create(&k) != CDYN_OK)
        abort();
    static const char *const names[] = {"A", "B", "C", "D"};
    static const double c0[] = {1.0, 0.5, 0.1, 0.0};
    for (int i = 0; i < 4; i++)
        if (cdyn_kinetics_add_species(k, names[i], c0[i], NULL) != CDYN_OK)
            abort();
    size_t a = 0, b = 1, cc = 2;
    cdyn_status st = cdyn_kinetics_add_reaction(k, 1, &a, NULL, 1, &b, NULL, 1.0, NULL);
    if (!st)
        st = cdyn_kinetics_add_reversible_reaction(k, 1, &b, NULL, 1, &cc, NULL, 2.0, 1.0, NULL);
    if (!st)
        st = cdyn_kinetics_add_rate_law(k, 1, &cc, NULL, 1, &a, NULL, 0, NULL, cb_rate,
                                        cb_rate_jacobian, f, NULL);
    if (!st)
        st = cdyn_kinetics_integrate(k, 0.1, NULL, 0, NULL, 0);
    if (st) {
        fprintf(stderr, "matrix fixture: kinetics: %s\n", cdyn_kinetics_last_error(k));
        abort();
    }
    f->kin = k;
}

static void build_lattice(mx_fix *f)
{
    if (cdyn_lattice_create(MX_LAT_W, MX_LAT_H, 1, NULL, &f->lat) != CDYN_OK ||
        cdyn_lattice_rain(f->lat, 30) != CDYN_OK)
        abort();
}

void mx_fix_build(mx_fix *f, mx_ctx *c, int obj, int dim, bool flat)
{
    memset(f, 0, sizeof *f);
    f->obj = obj;
    f->ctx = c;
    c->fix = f;
    if (obj == OBJ_SYS) {
        build_system(&f->s, f, dim, flat);
        /* Another salt: a system made at a new address, until every handle
         * of it is refused here (1 in 4096 salts collide). */
        mx_sys tries[4];
        int n = 0;
        do
            build_foreign(&tries[n++], dim);
        while (!foreign_to(&f->s, &tries[n - 1]) && n < 4);
        f->foreign = tries[n - 1];
        for (int i = 0; i < n - 1; i++)
            cdyn_system_destroy(tries[i].sys);
    } else if (obj == OBJ_LAT || obj == OBJ_NONE) {
        build_lattice(f); /* also the source of the loaders' snapshots */
    } else if (obj == OBJ_KIN) {
        build_kinetics(f);
    }
}

void mx_fix_free(mx_fix *f)
{
    cdyn_system_destroy(f->s.sys);
    cdyn_system_destroy(f->foreign.sys);
    cdyn_lattice_destroy(f->lat);
    cdyn_kinetics_destroy(f->kin);
    memset(f, 0, sizeof *f);
}

/* ---- roles ----------------------------------------------------------- */

uint64_t mx_handle(const mx_sys *s, int cls, int role)
{
    switch (cls) {
    case A_PART:
        return role < P_COUNT ? s->p[role] : 0;
    case A_FORCE:
        return role < F_COUNT ? s->f[role] : 0;
    case A_CONS:
        return role < C_COUNT ? s->c[role] : 0;
    case A_GROUND:
        return role < G_COUNT ? s->g[role] : 0;
    case A_RIGID:
        return role < R_COUNT ? s->r[role] : 0;
    }
    return 0;
}

uint64_t mx_wrong_kind(const mx_sys *s, int cls)
{
    switch (cls) {
    case A_PART:
        return s->f[F_GRAVITY];
    case A_FORCE:
        return s->p[P_FREE];
    case A_CONS:
        return s->g[G_PLANE];
    case A_GROUND:
        return s->c[C_PIN];
    case A_RIGID:
        return s->p[P_R0];
    }
    return 0;
}

uint64_t mx_stale(const mx_sys *s, int cls)
{
    switch (cls) {
    case A_PART:
        return s->stale_p;
    case A_FORCE:
        return s->stale_f;
    case A_CONS:
        return s->stale_c;
    case A_GROUND:
        return s->stale_g;
    case A_RIGID:
        return s->stale_r;
    }
    return 0;
}

size_t mx_hlist(const mx_sys *s, int l, cdyn_particle *out)
{
    switch (l) {
    case L_PAIRS:
        out[0] = s->p[P_FREE], out[1] = s->p[P_FREE2];
        out[2] = s->p[P_FREE2], out[3] = s->p[P_NEW0];
        return 4;
    case L_SET:
        out[0] = s->p[P_FREE], out[1] = s->p[P_FREE2], out[2] = s->p[P_NEW0];
        return 3;
    case L_USER:
        out[0] = s->p[P_FREE], out[1] = s->p[P_FREE2];
        return 2;
    case L_RIGID:
        for (int i = 0; i < 4; i++)
            out[i] = s->p[P_NEW0 + i];
        return 4;
    case L_EXCL:
        out[0] = s->p[P_PAIR0], out[1] = s->p[P_PAIR2];
        return 2;
    }
    return 0;
}

size_t mx_klist(int k, size_t *out)
{
    switch (k) {
    case K_REACTANTS:
        out[0] = 0; /* A + D -> */
        out[1] = 3;
        return 2;
    case K_PRODUCTS:
        out[0] = 2; /* -> C */
        return 1;
    case K_DEPS:
        out[0] = 0;
        return 1;
    }
    return 0;
}

static size_t count_of(cdyn_status (*fn)(const cdyn_system *, size_t *), const cdyn_system *sys)
{
    size_t n = 0;
    fn(sys, &n);
    return n;
}

size_t mx_need(mx_ctx *c, int need)
{
    mx_fix *f = c->fix;
    cdyn_system *sys = f->s.sys;
    size_t n = 0;
    switch (need) {
    case N_XD:
        return sys ? count_of(cdyn_system_get_index_count, sys) * (size_t)f->s.dim : 0;
    case N_IDX:
        return sys ? count_of(cdyn_system_get_index_count, sys) : 0;
    case N_ROWS_USER:
        return 2;
    case N_RIGID:
        return 4;
    case N_NEWTON:
        cdyn_system_get_newton_residuals(sys, NULL, 0, &n);
        return n;
    case N_CONTACTS:
        cdyn_force_get_pair_contacts(sys, f->s.f[F_PAIRS], NULL, 0, &n);
        return n;
    case N_LAT:
    case N_SITES:
        return MX_LAT_W * MX_LAT_H;
    case N_WALK:
        return 64 * MX_LAT_W * MX_LAT_H;
    case N_LAT_W:
        return MX_LAT_W;
    case N_LAT_H:
        return MX_LAT_H;
    case N_SPECIES:
        return f->kin ? 4 : 0;
    case N_REACTIONS:
        return 4;
    case N_STOICH:
        cdyn_kinetics_get_stoichiometry_size(f->kin, &n);
        return n;
    case N_MOIETIES:
        cdyn_kinetics_get_moiety_count(f->kin, &n);
        return n;
    case N_MOIETY_VALUES:
        cdyn_kinetics_get_moiety_count(f->kin, &n);
        return n * 4;
    case N_SNAP:
        cdyn_lattice_snapshot_size(f->lat, &n);
        return n;
    case N_SYS_SNAP:
        cdyn_system_snapshot_size(f->s.sys, &n);
        return n;
    case N_SMALL_SNAP:
        mx_small_snapshot(NULL, &n);
        return n;
    case N_ASC:
        cdyn_lattice_asc_size(f->lat, CDYN_LATTICE_GRID_HEIGHTS, &n);
        return n;
    case N_TEXT:
        return strlen("ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3\n4 5 6");
    case N_TIMES_OUT:
        return 2 * 4;
    case N_PAIRS:
        return 2;
    case N_SET:
        return 3;
    case N_USER:
        return 2;
    case N_USER_ROWS:
        return 2;
    case N_RIGID_NEW:
        return 4;
    case N_ERRBUF:
        return 256;
    case N_ONE:
        return 1;
    case N_TWO:
        return 2;
    case N_64:
        return 64;
    case N_2_30:
        return (size_t)1 << 30;
    case N_U32MAX:
        return UINT32_MAX;
    }
    return 0;
}

const double *mx_vector(mx_ctx *c, int v, size_t *len, double *tmp)
{
    mx_fix *f = c->fix;
    size_t d = (size_t)(f->s.dim ? f->s.dim : 3);
    static const double point[3] = {0.2, 1.5, -0.3}, vel[3] = {0.1, 0, 0.2},
                        g[3] = {0, -9.81, 0}, normal[3] = {0, 1, 0}, force[3] = {1, 2, 3},
                        omega[3] = {0, 0, 0.5}, q1[1] = {0.3}, q2[2] = {0.5, 1.2},
                        conc[4] = {0.9, 0.4, 0.2, 0.1}, atol[4] = {1e-10, 1e-10, 1e-9, 1e-9},
                        box_origin[3] = {-50, -50, -50}, box_lengths[3] = {150, 150, 150};
    switch (v) {
    case V_POINT:
        *len = d;
        return point;
    case V_VEL:
        *len = d;
        return vel;
    case V_G:
        *len = d;
        return g;
    case V_NORMAL:
        *len = d;
        return normal;
    case V_FORCE:
        *len = d;
        return force;
    case V_BOX_ORIGIN:
        *len = d;
        return box_origin;
    case V_BOX_LENGTHS:
        *len = d;
        return box_lengths;
    case V3_OMEGA:
        *len = 3;
        return omega;
    case V3_POINT:
        *len = 3;
        return point;
    case V_Q1:
        *len = 1;
        return q1;
    case V_Q2:
        *len = 2;
        return q2;
    case V_BLOCK:
        *len = d * d;
        memset(tmp, 0, d * d * sizeof *tmp);
        for (size_t k = 0; k < d; k++)
            tmp[k * d + k] = -0.01;
        return tmp;
    case V_ALL_X:
    case V_ALL_V:
        *len = mx_need(c, N_XD);
        (v == V_ALL_X ? cdyn_system_get_positions : cdyn_system_get_velocities)(f->s.sys, tmp,
                                                                                 *len);
        return tmp;
    case V_ALL_F:
        *len = mx_need(c, N_XD);
        for (size_t i = 0; i < *len; i++)
            tmp[i] = 0.5;
        return tmp;
    case V_HEIGHTS:
        *len = MX_LAT_W * MX_LAT_H;
        cdyn_lattice_get_heights(f->lat, tmp, *len);
        return tmp;
    case V_CONC:
        *len = 4;
        return conc;
    case V_ATOL:
        *len = 4;
        return atol;
    case V_TIMES: {
        double t = 0;
        cdyn_kinetics_get_time(f->kin, &t);
        tmp[0] = t + 0.01, tmp[1] = t + 0.02;
        *len = 2;
        return tmp;
    }
    }
    *len = 0;
    return NULL;
}

void mx_small_snapshot(unsigned char *buf, size_t *n)
{
    cdyn_system *sys;
    cdyn_particle p[2];
    cdyn_force spring;
    if (cdyn_system_create(2, &sys) != CDYN_OK ||
        cdyn_particle_add(sys, 1, (double[]){0, 0}, (double[]){0.5, 0}, &p[0]) != CDYN_OK ||
        cdyn_particle_add(sys, 2, (double[]){1, 0}, NULL, &p[1]) != CDYN_OK ||
        cdyn_force_add_spring(sys, p[0], p[1], 10, 0.1, 1, &spring) != CDYN_OK ||
        cdyn_system_step(sys, 1e-3) != CDYN_OK || cdyn_system_snapshot_size(sys, n) != CDYN_OK ||
        (buf && cdyn_system_save(sys, buf, *n, NULL) != CDYN_OK))
        abort();
    cdyn_system_destroy(sys);
}
