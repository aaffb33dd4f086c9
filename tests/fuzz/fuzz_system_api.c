/* libFuzzer target: sequences of calls on a system.
 *
 * The input's first byte chooses the dimension; the rest is a stream of
 * operations, each a byte choosing a row of the table below followed by its
 * arguments: particles, every force generator (pair kinds, lists and sets
 * included), constraints of every kind (implicit, user, curves and surfaces
 * of every kind, callbacks), drives (motions, schedules, kinematic
 * particles, moving grounds), grounds of every kind and their settings,
 * rigid bodies, applied forces, bulk state, the options of every integrator,
 * solver, projection and thermostat, the box, integrator switches, steps of
 * random dt, evaluation and residuals, queries, and the system-free shape,
 * motion and rotation functions. Handles are picked among those made in the
 * run (removed ones too), or are zero, foreign or of the wrong kind. Every
 * callback can succeed, fail, give NaN, fail after a number of calls or
 * call back into the system (fz_ctx.mode); allocations fail on demand.
 * Invariants, after every call (abort on a violation):
 *  - a call that fails records a message that names it, and changes
 *    nothing (the state hashed through public getters; for a step: rolled
 *    back bit for bit);
 *  - a query changes nothing even when it succeeds;
 *  - statuses come from the documented set: no I/O or format error, BUSY
 *    only from inside a callback, NO_MEMORY only after a failed allocation,
 *    CALLBACK only when a callback was made to fail, its own value
 *    overflowed (a state grown huge) or the RK45 watchdog stopped a step;
 *  - a step that succeeds leaves a finite state;
 *  - system-free functions that succeed give finite outputs;
 *  - a call from inside a callback that would change the system is refused
 *    with CDYN_ERR_BUSY; nothing leaks.
 * Bounded time is libFuzzer's -timeout. To add an operation, add a function
 * and a row to `ops`, and a seed that uses it in make_seeds.c. */
#include "fuzz_system.h"

/* Flags of a row. */
enum {
    Q = 1,    /* a query: nothing changes, even on success */
    STEP = 2, /* a step: success leaves a finite state */
    FREE = 4  /* needs no system: no message to check */
};

typedef cdyn_status (*op_fn)(fz_ctx *c, fuzz_in *in, const char **fn);

/* ---- picking handles and values --------------------------------------- */

static uint64_t pick(fuzz_in *in, const uint64_t *have, size_t n, uint64_t foreign,
                     uint64_t other)
{
    uint8_t k = fuzz_u8(in);
    if (n && k < 232)
        return have[k % n];
    switch (k % 4) {
    case 0:
        return 0;
    case 1:
        return foreign;
    case 2:
        return other;
    }
    return UINT64_MAX;
}

static cdyn_particle pick_p(fz_ctx *c, fuzz_in *in)
{
    return pick(in, c->p, c->np, c->fp, c->nf ? c->f[0] : 1);
}

static cdyn_force pick_f(fz_ctx *c, fuzz_in *in)
{
    return pick(in, c->f, c->nf, c->ff, c->np ? c->p[0] : 1);
}

static cdyn_constraint pick_c(fz_ctx *c, fuzz_in *in)
{
    return pick(in, c->c, c->nc, c->fc, c->ng ? c->g[0] : 1);
}

static cdyn_ground pick_g(fz_ctx *c, fuzz_in *in)
{
    return pick(in, c->g, c->ng, c->fg, c->nc ? c->c[0] : 1);
}

static cdyn_rigid pick_r(fz_ctx *c, fuzz_in *in)
{
    return pick(in, c->r, c->nr, c->fr, c->np ? c->p[0] : 1);
}

/* A vector of the system's dimension (3 values kept). */
static const double *vec(fz_ctx *c, fuzz_in *in, double *v, double a, double b, double d)
{
    (void)c;
    fz_vec3(in, v, a, b, d);
    return fuzz_u8(in) == 0 ? NULL : v;
}

static void keep(uint64_t *list, size_t *n, size_t cap, uint64_t h)
{
    if (*n < cap)
        list[(*n)++] = h;
}

static size_t live_particles(fz_ctx *c)
{
    size_t n = 0;
    cdyn_system_get_particle_count(c->sys, &n);
    return n;
}

/* ---- particles -------------------------------------------------------- */

static cdyn_status op_particle_add(fz_ctx *c, fuzz_in *in, const char **fn)
{
    double x[3], v[3];
    double m = fz_value(in, 1);
    const double *px = vec(c, in, x, 0.1 * (double)c->np, 1, 0);
    const double *pv = fuzz_u8(in) & 1 ? vec(c, in, v, 0, 0, 0) : NULL;
    if (live_particles(c) >= FZ_MAX_PARTICLES || c->np >= 2 * FZ_MAX_PARTICLES)
        return CDYN_OK;
    *fn = "cdyn_particle_add";
    cdyn_particle p;
    cdyn_status st = cdyn_particle_add(c->sys, m, px, pv, &p);
    if (st == CDYN_OK)
        keep(c->p, &c->np, 2 * FZ_MAX_PARTICLES, p);
    return st;
}

static cdyn_status op_particle_remove(fz_ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_particle_remove";
    return cdyn_particle_remove(c->sys, pick_p(c, in));
}

static cdyn_status op_particle_set(fz_ctx *c, fuzz_in *in, const char **fn)
{
    cdyn_particle p = pick_p(c, in);
    double v[3];
    switch (fuzz_u8(in) % 5) {
    case 0:
        *fn = "cdyn_particle_set_position";
        return cdyn_particle_set_position(c->sys, p, vec(c, in, v, 0.5, 1, 0));
    case 1:
        *fn = "cdyn_particle_set_velocity";
        return cdyn_particle_set_velocity(c->sys, p, vec(c, in, v, 0.1, 0, 0));
    case 2:
        *fn = "cdyn_particle_set_mass";
        return cdyn_particle_set_mass(c->sys, p, fz_value(in, 1));
    case 3:
        *fn = "cdyn_particle_set_fixed";
        return cdyn_particle_set_fixed(c->sys, p, fuzz_u8(in) & 1);
    default: {
        cdyn_motion_desc m;
        fz_motion_desc(in, c, &m);
        *fn = "cdyn_particle_set_motion";
        return cdyn_particle_set_motion(c->sys, p, fuzz_u8(in) % 8 ? &m : NULL);
    }
    }
}

/* ---- forces ----------------------------------------------------------- */

static cdyn_status keep_f(fz_ctx *c, cdyn_status st, cdyn_force f)
{
    if (st == CDYN_OK)
        keep(c->f, &c->nf, FZ_MAX_OBJECTS, f);
    return st;
}

static cdyn_status op_force_add(fz_ctx *c, fuzz_in *in, const char **fn)
{
    cdyn_force f = 0;
    double g[3];
    if (c->nf >= FZ_MAX_OBJECTS)
        return CDYN_OK;
    switch (fuzz_u8(in) % 5) {
    case 0:
        *fn = "cdyn_force_add_gravity";
        return keep_f(c, cdyn_force_add_gravity(c->sys, vec(c, in, g, 0, -9.81, 0), &f), f);
    case 1: {
        cdyn_particle a = pick_p(c, in), b = pick_p(c, in);
        double k = fz_value(in, 50), d = fz_value(in, 0.1), r = fz_value(in, 0.5);
        *fn = "cdyn_force_add_spring";
        return keep_f(c, cdyn_force_add_spring(c->sys, a, b, k, d, r, &f), f);
    }
    case 2:
        *fn = "cdyn_force_add_drag";
        return keep_f(c, cdyn_force_add_drag(c->sys, fz_value(in, 0.1), &f), f);
    case 3: {
        cdyn_force_fn fun = fuzz_u8(in) % 16 ? fz_force : NULL;
        bool vd = fuzz_u8(in) & 1;
        *fn = "cdyn_force_add_callback";
        return keep_f(c, cdyn_force_add_callback(c->sys, fun, c, vd, &f), f);
    }
    default: {
        cdyn_force_jacobian_fn jac = fuzz_u8(in) % 16 ? fz_jacobian : NULL;
        bool vd = fuzz_u8(in) & 1;
        *fn = "cdyn_force_add_callback_with_jacobian";
        return keep_f(c, cdyn_force_add_callback_with_jacobian(c->sys, fz_force, jac, c, vd, &f),
                      f);
    }
    }
}

static const double fz_table[8] = {0.25, 1, 1.0 / 9, 2.0 / 3, 1.0 / 36, 1.0 / 3, 0, 0};

static cdyn_status op_pairs(fz_ctx *c, fuzz_in *in, const char **fn)
{
    cdyn_pair_params pp;
    uint8_t k = fuzz_u8(in);
    if (cdyn_pair_params_init(&pp, (cdyn_pair_kind)(1 + k % 5)) != CDYN_OK)
        return CDYN_OK;
    uint8_t bits = fuzz_u8(in);
    if (bits & 1)
        pp.stiffness = fz_value(in, 100), pp.radius = fz_value(in, 0.3);
    if (bits & 2)
        pp.epsilon = fz_value(in, 1), pp.sigma = fz_value(in, 0.3);
    if (bits & 4)
        pp.damping = fz_value(in, 0.1);
    if (bits & 8)
        pp.cutoff = fz_value(in, 0.8), pp.shift = fuzz_u8(in) & 1;
    if (pp.kind == CDYN_PAIR_TABLE)
        pp.table = fz_table, pp.table_size = 4, pp.table_r_min = 0.5, pp.cutoff = 1;
    if (pp.kind == CDYN_PAIR_CALLBACK)
        pp.fn = fz_pair, pp.user = c, pp.cutoff = 1;
    if (bits & 16)
        pp.size = fuzz_u8(in);
    cdyn_particle ps[8];
    size_t n = 1 + fuzz_u8(in) % 6;
    for (size_t i = 0; i < n; i++)
        ps[i] = pick_p(c, in);
    cdyn_force f = 0;
    if (c->nf >= FZ_MAX_OBJECTS)
        return CDYN_OK;
    if (bits & 32) {
        *fn = "cdyn_force_add_pairs";
        return keep_f(c, cdyn_force_add_pairs(c->sys, &pp, ps, n / 2, &f), f);
    }
    *fn = "cdyn_force_add_pair_set";
    return keep_f(c, cdyn_force_add_pair_set(c->sys, &pp, ps, n, &f), f);
}

static cdyn_status op_force_set(fz_ctx *c, fuzz_in *in, const char **fn)
{
    cdyn_force f = pick_f(c, in);
    double g[3];
    switch (fuzz_u8(in) % 9) {
    case 0:
        *fn = "cdyn_force_set_gravity";
        return cdyn_force_set_gravity(c->sys, f, vec(c, in, g, 0, -9.81, 0));
    case 1:
        *fn = "cdyn_force_set_drag";
        return cdyn_force_set_drag(c->sys, f, fz_value(in, 0.2));
    case 2: {
        double k = fz_value(in, 50), d = fz_value(in, 0.1), r = fz_value(in, 0.5);
        *fn = "cdyn_force_set_spring";
        return cdyn_force_set_spring(c->sys, f, k, d, r);
    }
    case 3: {
        cdyn_particle p = pick_p(c, in);
        *fn = "cdyn_force_set_pair_radius";
        return cdyn_force_set_pair_radius(c->sys, f, p, fz_value(in, 0.3));
    }
    case 4:
        *fn = "cdyn_force_set_pair_skin";
        return cdyn_force_set_pair_skin(c->sys, f, fz_value(in, 0.1));
    case 5:
        *fn = "cdyn_force_set_pair_exclude_bonded";
        return cdyn_force_set_pair_exclude_bonded(c->sys, f, fuzz_u8(in) % 4 - 1);
    case 6: {
        cdyn_particle ps[4];
        for (int i = 0; i < 4; i++)
            ps[i] = pick_p(c, in);
        const cdyn_particle *list = fuzz_u8(in) % 8 ? ps : NULL;
        size_t n = fuzz_u8(in) % 3;
        *fn = "cdyn_force_add_pair_exclusions";
        return cdyn_force_add_pair_exclusions(c->sys, f, list, n);
    }
    case 7:
        *fn = "cdyn_force_clear_pair_exclusions";
        return cdyn_force_clear_pair_exclusions(c->sys, f);
    default:
        *fn = "cdyn_force_remove";
        return cdyn_force_remove(c->sys, f);
    }
}

/* ---- constraints ------------------------------------------------------ */

static cdyn_status keep_c(fz_ctx *c, cdyn_status st, cdyn_constraint h)
{
    if (st == CDYN_OK)
        keep(c->c, &c->nc, FZ_MAX_OBJECTS, h);
    return st;
}

/* A record for a user or implicit constraint on the particles @p ps: the
 * offsets that put g = 0 where they are. */
static fz_record *record(fz_ctx *c, const cdyn_particle *ps, size_t np, size_t rows)
{
    if (c->nrec >= FZ_MAX_USER)
        return NULL;
    fz_record *r = &c->rec[c->nrec++];
    memset(r, 0, sizeof *r);
    r->ctx = c;
    double a[3] = {0}, b[3] = {0};
    cdyn_particle_get_position(c->sys, ps[0], a);
    if (np > 1)
        cdyn_particle_get_position(c->sys, ps[np - 1], b);
    for (size_t k = 0; k < rows && k < 64; k++)
        r->off[k] = a[k % (size_t)c->dim] - b[k % (size_t)c->dim];
    for (int k = 0; k < 3; k++)
        r->center[k] = a[k] - (k == 0);
    return r;
}

static cdyn_status op_constraint_add(fz_ctx *c, fuzz_in *in, const char **fn)
{
    if (c->nc >= FZ_MAX_OBJECTS)
        return CDYN_OK;
    cdyn_constraint h = 0;
    cdyn_particle p = pick_p(c, in);
    double v[3];
    switch (fuzz_u8(in) % 6) {
    case 0: {
        cdyn_particle q = pick_p(c, in);
        *fn = "cdyn_constraint_add_distance";
        return keep_c(c, cdyn_constraint_add_distance(c->sys, p, q, fz_value(in, 0.5), &h), h);
    }
    case 1: {
        const double *a = vec(c, in, v, 0, 1, 0);
        *fn = "cdyn_constraint_add_anchor";
        return keep_c(c, cdyn_constraint_add_anchor(c->sys, p, a, fz_value(in, 0.5), &h), h);
    }
    case 2:
        *fn = "cdyn_constraint_add_pin";
        return keep_c(c, cdyn_constraint_add_pin(c->sys, p, vec(c, in, v, 0, 1, 0), &h), h);
    case 3: {
        const double *nrm = vec(c, in, v, 0, 1, 0);
        *fn = "cdyn_constraint_add_plane";
        return keep_c(c, cdyn_constraint_add_plane(c->sys, p, nrm, fz_value(in, 1), &h), h);
    }
    case 4: {
        cdyn_particle ps[4] = {p, 0, 0, 0};
        for (int i = 1; i < 4; i++)
            ps[i] = pick_p(c, in);
        size_t np = 1 + fuzz_u8(in) % 4;
        size_t rows = fuzz_u8(in) % 4;
        fz_record *r = record(c, ps, np, rows);
        if (!r)
            return CDYN_OK;
        *fn = "cdyn_constraint_add_user";
        cdyn_status st = cdyn_constraint_add_user(c->sys, ps, np, rows, fz_user, r, &h);
        return keep_c(c, st, h);
    }
    default: {
        fz_record *r = record(c, &p, 1, 0);
        if (!r)
            return CDYN_OK;
        *fn = "cdyn_constraint_add_implicit";
        return keep_c(c, cdyn_constraint_add_implicit(c->sys, p, fz_implicit, r, &h), h);
    }
    }
}

static cdyn_status op_on_shape(fz_ctx *c, fuzz_in *in, const char **fn)
{
    if (c->nc >= FZ_MAX_OBJECTS)
        return CDYN_OK;
    cdyn_constraint h = 0;
    cdyn_particle p = pick_p(c, in);
    if (fuzz_u8(in) & 1) {
        cdyn_curve_desc d;
        double pts[18];
        fz_curve_desc(in, c, &d, pts);
        if (getenv("FZ_TRACE"))
            fprintf(stderr, "curve kind %d, origin %g %g %g, axes %g %g %g / %g %g %g, radius "
                            "%g, pitch %g, a %g, window %g %g\n",
                    (int)d.kind, d.origin[0], d.origin[1], d.origin[2], d.axis1[0], d.axis1[1],
                    d.axis1[2], d.axis2[0], d.axis2[1], d.axis2[2], d.radius, d.pitch,
                    d.coefficient, d.q_min, d.q_max);
        *fn = "cdyn_constraint_add_on_curve";
        return keep_c(c, cdyn_constraint_add_on_curve(c->sys, p, &d, &h), h);
    }
    cdyn_surface_desc d;
    cdyn_heightfield_desc hf;
    fz_surface_desc(in, c, &d, &hf);
    if (getenv("FZ_TRACE"))
        fprintf(stderr, "surface kind %d, origin %g %g %g, axes %g %g %g / %g %g %g, radii %g %g\n",
                (int)d.kind, d.origin[0], d.origin[1], d.origin[2], d.axis1[0], d.axis1[1],
                d.axis1[2], d.axis2[0], d.axis2[1], d.axis2[2], d.radius, d.minor_radius);
    *fn = "cdyn_constraint_add_on_surface";
    return keep_c(c, cdyn_constraint_add_on_surface(c->sys, p, &d, &h), h);
}

static cdyn_status op_constraint_set(fz_ctx *c, fuzz_in *in, const char **fn)
{
    cdyn_constraint h = pick_c(c, in);
    switch (fuzz_u8(in) % 7) {
    case 0:
        *fn = "cdyn_constraint_set_enabled";
        return cdyn_constraint_set_enabled(c->sys, h, fuzz_u8(in) & 1);
    case 1:
        *fn = "cdyn_constraint_set_compliance";
        return cdyn_constraint_set_compliance(c->sys, h, fz_value(in, 1e-4));
    case 2:
        *fn = "cdyn_constraint_set_time_dependent";
        return cdyn_constraint_set_time_dependent(c->sys, h, fuzz_u8(in) & 1);
    case 3: {
        double q[2], qd[2] = {0, 0};
        q[0] = fz_value(in, 0.3);
        q[1] = fz_value(in, 1);
        qd[0] = fz_value(in, 0.1);
        uint8_t k = fuzz_u8(in);
        *fn = "cdyn_constraint_set_coordinates";
        return cdyn_constraint_set_coordinates(c->sys, h, k & 1 ? q : NULL, k & 2 ? qd : NULL);
    }
    case 4: {
        cdyn_motion_desc m;
        fz_motion_desc(in, c, &m);
        *fn = "cdyn_constraint_set_motion";
        return cdyn_constraint_set_motion(c->sys, h, fuzz_u8(in) % 8 ? &m : NULL);
    }
    case 5: {
        cdyn_schedule_desc s;
        fz_schedule_desc(in, c, &s);
        *fn = "cdyn_constraint_set_length_schedule";
        return cdyn_constraint_set_length_schedule(c->sys, h, fuzz_u8(in) % 8 ? &s : NULL);
    }
    default:
        *fn = "cdyn_constraint_remove";
        return cdyn_constraint_remove(c->sys, h);
    }
}

/* ---- grounds and rigid bodies ----------------------------------------- */

static cdyn_status keep_g(fz_ctx *c, cdyn_status st, cdyn_ground h)
{
    if (st == CDYN_OK)
        keep(c->g, &c->ng, FZ_MAX_OBJECTS, h);
    return st;
}

static cdyn_status op_ground_add(fz_ctx *c, fuzz_in *in, const char **fn)
{
    if (c->ng >= FZ_MAX_OBJECTS)
        return CDYN_OK;
    cdyn_ground h = 0;
    double v[3];
    switch (fuzz_u8(in) % 4) {
    case 0: {
        const double *nrm = vec(c, in, v, 0, 1, 0);
        *fn = "cdyn_ground_add_plane";
        return keep_g(c, cdyn_ground_add_plane(c->sys, nrm, fz_value(in, -0.5), &h), h);
    }
    case 1: {
        const double *ctr = vec(c, in, v, 0, -5, 0);
        double r = fz_value(in, 4);
        *fn = "cdyn_ground_add_sphere";
        return keep_g(c, cdyn_ground_add_sphere(c->sys, ctr, r, fuzz_u8(in) & 1, &h), h);
    }
    case 2: {
        cdyn_heightfield_desc hf;
        fz_heightfield_desc(in, &hf, c->dim);
        *fn = "cdyn_ground_add_heightfield";
        return keep_g(c, cdyn_ground_add_heightfield(c->sys, &hf, &h), h);
    }
    default:
        *fn = "cdyn_ground_add_callback";
        return keep_g(c, cdyn_ground_add_callback(c->sys, fz_ground, c, &h), h);
    }
}

static cdyn_status op_ground_set(fz_ctx *c, fuzz_in *in, const char **fn)
{
    cdyn_ground h = pick_g(c, in);
    double v[3];
    switch (fuzz_u8(in) % 7) {
    case 0:
        *fn = "cdyn_ground_set_stiffness";
        return cdyn_ground_set_stiffness(c->sys, h, fz_value(in, 1e4));
    case 1:
        *fn = "cdyn_ground_set_damping";
        return cdyn_ground_set_damping(c->sys, h, fz_value(in, 10));
    case 2:
        *fn = "cdyn_ground_set_friction";
        return cdyn_ground_set_friction(c->sys, h, fz_value(in, 0.5));
    case 3:
        *fn = "cdyn_ground_set_friction_speed";
        return cdyn_ground_set_friction_speed(c->sys, h, fz_value(in, 0.01));
    case 4:
        *fn = "cdyn_ground_set_surface_velocity";
        return cdyn_ground_set_surface_velocity(c->sys, h, vec(c, in, v, 0.1, 0, 0));
    case 5: {
        cdyn_motion_desc m;
        fz_motion_desc(in, c, &m);
        *fn = "cdyn_ground_set_motion";
        return cdyn_ground_set_motion(c->sys, h, fuzz_u8(in) % 8 ? &m : NULL);
    }
    default:
        *fn = "cdyn_ground_remove";
        return cdyn_ground_remove(c->sys, h);
    }
}

static cdyn_status op_rigid(fz_ctx *c, fuzz_in *in, const char **fn)
{
    double v[3];
    switch (fuzz_u8(in) % 5) {
    case 0: {
        if (c->nr >= FZ_MAX_OBJECTS)
            return CDYN_OK;
        cdyn_particle ps[4];
        for (int i = 0; i < 4; i++)
            ps[i] = pick_p(c, in);
        size_t n = 1 + fuzz_u8(in) % 4;
        cdyn_rigid r = 0;
        *fn = "cdyn_rigid_add";
        cdyn_status st = cdyn_rigid_add(c->sys, ps, n, &r);
        if (st == CDYN_OK)
            keep(c->r, &c->nr, FZ_MAX_OBJECTS, r);
        return st;
    }
    case 1:
        *fn = "cdyn_rigid_remove";
        return cdyn_rigid_remove(c->sys, pick_r(c, in));
    case 2: {
        cdyn_rigid r = pick_r(c, in);
        *fn = "cdyn_rigid_set_scheme";
        return cdyn_rigid_set_scheme(c->sys, r, (cdyn_rigid_scheme)(fuzz_u8(in) % 4));
    }
    case 3: {
        cdyn_rigid r = pick_r(c, in);
        *fn = "cdyn_rigid_set_velocity";
        return cdyn_rigid_set_velocity(c->sys, r, vec(c, in, v, 0.1, 0, 0));
    }
    default: {
        cdyn_rigid r = pick_r(c, in);
        *fn = "cdyn_rigid_set_angular_velocity";
        return cdyn_rigid_set_angular_velocity(c->sys, r, vec(c, in, v, 0, 0, 1));
    }
    }
}

/* ---- applied forces, bulk state, options, time ----------------------- */

static size_t state_len(fz_ctx *c)
{
    size_t n = 0;
    cdyn_system_get_index_count(c->sys, &n);
    return n * (size_t)c->dim;
}

static cdyn_status op_apply(fz_ctx *c, fuzz_in *in, const char **fn)
{
    double v[3];
    cdyn_apply_mode mode = (cdyn_apply_mode)(fuzz_u8(in) % 4);
    switch (fuzz_u8(in) % 4) {
    case 0: {
        cdyn_particle p = pick_p(c, in);
        *fn = "cdyn_particle_apply_force";
        return cdyn_particle_apply_force(c->sys, p, vec(c, in, v, 1, 0, 0), mode);
    }
    case 1:
        *fn = "cdyn_particle_clear_applied_force";
        return cdyn_particle_clear_applied_force(c->sys, pick_p(c, in));
    case 2: {
        size_t n = state_len(c);
        for (size_t i = 0; i < n; i++)
            c->buf[i] = 0.5;
        if (n) {
            size_t at = fuzz_u8(in) % n;
            c->buf[at] = fuzz_double(in);
        }
        size_t count = n + (fuzz_u8(in) % 16 == 0);
        *fn = "cdyn_system_apply_forces";
        return cdyn_system_apply_forces(c->sys, c->buf, count, mode);
    }
    default:
        *fn = "cdyn_system_clear_applied_forces";
        return cdyn_system_clear_applied_forces(c->sys);
    }
}

static cdyn_status op_bulk_set(fz_ctx *c, fuzz_in *in, const char **fn)
{
    size_t n = state_len(c);
    bool pos = fuzz_u8(in) & 1;
    (pos ? cdyn_system_get_positions : cdyn_system_get_velocities)(c->sys, c->buf, n);
    if (n) {
        size_t at = fuzz_u8(in) % n;
        c->buf[at] = fuzz_double(in);
    }
    size_t count = fuzz_u8(in) % 16 == 0 ? n + 1 : n;
    *fn = pos ? "cdyn_system_set_positions" : "cdyn_system_set_velocities";
    return (pos ? cdyn_system_set_positions : cdyn_system_set_velocities)(c->sys, c->buf, count);
}

static cdyn_status op_options(fz_ctx *c, fuzz_in *in, const char **fn)
{
    switch (fuzz_u8(in) % 5) {
    case 0: {
        cdyn_rk45_options o;
        cdyn_rk45_options_init(&o);
        o.abs_tol = fz_value(in, 1e-8), o.rel_tol = fz_value(in, 1e-8);
        o.initial_step = fz_value(in, 0), o.max_step = fz_value(in, 0);
        *fn = "cdyn_system_set_rk45_options";
        return cdyn_system_set_rk45_options(c->sys, &o);
    }
    case 1: {
        cdyn_newton_options o;
        cdyn_newton_options_init(&o);
        o.tolerance = fz_value(in, 1e-10), o.max_iterations = fuzz_u8(in) % 64;
        *fn = "cdyn_system_set_newton_options";
        return cdyn_system_set_newton_options(c->sys, &o);
    }
    case 2: {
        cdyn_solver_options o;
        cdyn_solver_options_init(&o);
        o.solver = (cdyn_constraint_solver)(fuzz_u8(in) % 3);
        o.ks = fz_value(in, 100), o.kd = fz_value(in, 20);
        o.cg_tolerance = fz_value(in, 1e-10), o.cg_max_iterations = fuzz_u8(in) % 100;
        *fn = "cdyn_system_set_solver_options";
        return cdyn_system_set_solver_options(c->sys, &o);
    }
    case 3: {
        cdyn_projection_options o;
        cdyn_projection_options_init(&o);
        o.enabled = fuzz_u8(in) % 3, o.method = (cdyn_projection_method)(fuzz_u8(in) % 3);
        o.position_tolerance = fz_value(in, 1e-10), o.velocity_tolerance = fz_value(in, 1e-10);
        o.max_iterations = fuzz_u8(in);
        *fn = "cdyn_system_set_projection_options";
        return cdyn_system_set_projection_options(c->sys, &o);
    }
    default: {
        cdyn_langevin_options o;
        cdyn_langevin_options_init(&o);
        o.kT = fz_value(in, 0.5), o.gamma = fz_value(in, 1), o.seed = fuzz_u8(in);
        *fn = "cdyn_system_set_langevin_options";
        return cdyn_system_set_langevin_options(c->sys, &o);
    }
    }
}

static cdyn_status op_integrator(fz_ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_system_set_integrator";
    return cdyn_system_set_integrator(c->sys, (cdyn_integrator)(fuzz_u8(in) % 9));
}

static cdyn_status op_time_box(fz_ctx *c, fuzz_in *in, const char **fn)
{
    switch (fuzz_u8(in) % 3) {
    case 0:
        *fn = "cdyn_system_set_time";
        return cdyn_system_set_time(c->sys, fz_value(in, 1));
    case 1: {
        double o[3], l[3];
        bool per[3];
        for (int i = 0; i < 3; i++)
            per[i] = fuzz_u8(in) & 1;
        const double *po = vec(c, in, o, -5, -5, -5);
        const double *pl = vec(c, in, l, 10, 10, 10);
        *fn = "cdyn_system_set_box";
        return cdyn_system_set_box(c->sys, po, pl, per);
    }
    default:
        *fn = "cdyn_system_clear_box";
        return cdyn_system_clear_box(c->sys);
    }
}

static cdyn_status op_step(fz_ctx *c, fuzz_in *in, const char **fn)
{
    static const double dts[] = {1e-4, 1e-3, 1e-3, 5e-3, 1e-2, 0.05};
    uint8_t k = fuzz_u8(in);
    double dt = k < 240 ? dts[k % 6] : fuzz_double(in);
    if (getenv("FZ_TRACE"))
        fprintf(stderr, "dt %g\n", dt);
    /* RK45 may take up to 10^6 internal steps in one step (documented): with
     * many particles and grounds, minutes under the sanitizers. Its steps
     * run with a watchdog, a force callback that adds nothing and fails once
     * the input has had FZ_RK45_EVALS evaluations; a step it stops fails
     * with CDYN_ERR_CALLBACK and is rolled back like any other. */
    cdyn_integrator in_use = 0;
    cdyn_system_get_integrator(c->sys, &in_use);
    cdyn_force dog = 0;
    if (in_use == CDYN_INTEGRATOR_RK45 &&
        cdyn_force_add_callback(c->sys, fz_watchdog, c, false, &dog) != CDYN_OK)
        return CDYN_OK; /* (an armed allocation failure): no step */
    *fn = "cdyn_system_step";
    cdyn_status st = cdyn_system_step(c->sys, dt);
    if (dog) {
        bool failed = c->alloc.failed;
        fuzz_alloc_arm(&c->alloc, 0); /* the removal must not fail */
        c->alloc.failed = failed;
        FUZZ_CHECK(cdyn_force_remove(c->sys, dog) == CDYN_OK);
    }
    return st;
}

static cdyn_status op_evaluate(fz_ctx *c, fuzz_in *in, const char **fn)
{
    double pr, vr;
    size_t n = state_len(c);
    if (fuzz_u8(in) & 1) {
        *fn = "cdyn_system_evaluate";
        return cdyn_system_evaluate(c->sys, fuzz_u8(in) & 1 ? c->buf : NULL, n);
    }
    *fn = "cdyn_system_compute_constraint_residuals";
    return cdyn_system_compute_constraint_residuals(c->sys, &pr, &vr);
}

/* Makes the callbacks fail (now, after some calls, with NaN) or call back
 * in, or behave again. */
static cdyn_status op_mode(fz_ctx *c, fuzz_in *in, const char **fn)
{
    (void)fn;
    c->mode = fuzz_u8(in) % CB_MODES;
    c->countdown = fuzz_u8(in);
    return CDYN_OK;
}

static cdyn_status op_arm_alloc(fz_ctx *c, fuzz_in *in, const char **fn)
{
    (void)fn;
    fuzz_alloc_arm(&c->alloc, 1 + fuzz_u8(in) % 8);
    return CDYN_OK;
}

/* ---- queries ---------------------------------------------------------- */

static cdyn_status op_query(fz_ctx *c, fuzz_in *in, const char **fn)
{
    cdyn_particle p = pick_p(c, in);
    cdyn_constraint h = pick_c(c, in);
    cdyn_ground g = pick_g(c, in);
    cdyn_force f = pick_f(c, in);
    cdyn_rigid r = pick_r(c, in);
    double *o = c->buf, *o2 = c->buf + 2048;
    size_t n = state_len(c), z;
    switch (fuzz_u8(in) % 22) {
    case 0:
        *fn = "cdyn_particle_get_position";
        return cdyn_particle_get_position(c->sys, p, o);
    case 1:
        *fn = "cdyn_particle_get_applied_force";
        return cdyn_particle_get_applied_force(c->sys, p, o);
    case 2:
        *fn = "cdyn_force_get_energy";
        return cdyn_force_get_energy(c->sys, f, o);
    case 3:
        *fn = "cdyn_force_get_spring_tension";
        return cdyn_force_get_spring_tension(c->sys, f, o);
    case 4: {
        cdyn_particle out[64];
        *fn = "cdyn_force_get_pair_contacts";
        return cdyn_force_get_pair_contacts(c->sys, f, out, fuzz_u8(in) % 32, &z);
    }
    case 5:
        *fn = "cdyn_constraint_get_multipliers";
        return cdyn_constraint_get_multipliers(c->sys, h, o, fuzz_u8(in) % 8);
    case 6:
        *fn = "cdyn_constraint_get_force";
        return cdyn_constraint_get_force(c->sys, h, p, o);
    case 7:
        *fn = "cdyn_constraint_get_point";
        return cdyn_constraint_get_point(c->sys, h, o);
    case 8:
        *fn = "cdyn_constraint_get_length";
        return cdyn_constraint_get_length(c->sys, h, o);
    case 9:
        *fn = "cdyn_system_get_constraint_forces";
        return cdyn_system_get_constraint_forces(c->sys, o, n);
    case 10: {
        double x[3] = {0.1, 0, 0};
        x[1] = fz_value(in, 0.1);
        *fn = "cdyn_ground_evaluate";
        return cdyn_ground_evaluate(c->sys, g, x, o, o2);
    }
    case 11:
        *fn = "cdyn_ground_get_velocity";
        return cdyn_ground_get_velocity(c->sys, g, (double[]){0.1, 0, 0}, o);
    case 12:
        *fn = "cdyn_ground_get_penetration";
        return cdyn_ground_get_penetration(c->sys, g, p, o);
    case 13:
        *fn = "cdyn_ground_get_total_force";
        return cdyn_ground_get_total_force(c->sys, g, o, o2);
    case 14:
        *fn = "cdyn_ground_get_jacobian";
        return cdyn_ground_get_jacobian(c->sys, g, p, o, o2);
    case 15:
        *fn = "cdyn_ground_get_energy";
        return cdyn_ground_get_energy(c->sys, g, o);
    case 16:
        *fn = "cdyn_system_get_contact_forces";
        return cdyn_system_get_contact_forces(c->sys, o, n);
    case 17:
        *fn = "cdyn_system_get_potential_energy";
        return cdyn_system_get_potential_energy(c->sys, o);
    case 18:
        *fn = "cdyn_rigid_get_kinetic_energy";
        return cdyn_rigid_get_kinetic_energy(c->sys, r, o, o2);
    case 19:
        *fn = "cdyn_system_get_temperature";
        return cdyn_system_get_temperature(c->sys, o);
    case 20:
        *fn = "cdyn_system_get_pressure";
        return cdyn_system_get_pressure(c->sys, o);
    default:
        *fn = "cdyn_ground_get_contact_count";
        return cdyn_ground_get_contact_count(c->sys, g, &z);
    }
}

/* ---- system-free functions -------------------------------------------- */

static bool finite_n(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

static cdyn_status op_shapes(fz_ctx *c, fuzz_in *in, const char **fn)
{
    (void)c;
    double out[18] = {0}, q = fz_value(in, 0.4), q2 = fz_value(in, 1.5), x[3];
    fz_vec3(in, x, 0.3, 1.2, 0.1);
    int dim = 2 + (fuzz_u8(in) & 1);
    cdyn_status st;
    *fn = "";
    if (fuzz_u8(in) & 1) {
        cdyn_curve_desc d;
        double pts[18];
        fz_curve_desc(in, NULL, &d, pts);
        d.user = NULL; /* evaluated alone: the callbacks see no context */
        switch (fuzz_u8(in) % 5) {
        case 0:
            st = cdyn_curve_evaluate(&d, dim, q, out, out + 3, out + 6);
            FUZZ_CHECK(st != CDYN_OK || finite_n(out, 9));
            break;
        case 1:
            st = cdyn_curve_arc_length(&d, dim, q, q2, out);
            FUZZ_CHECK(st != CDYN_OK || isfinite(out[0]));
            break;
        case 2:
            st = cdyn_curve_parameter_at_arc_length(&d, dim, q, q2, out);
            FUZZ_CHECK(st != CDYN_OK || isfinite(out[0]));
            break;
        case 3:
            st = cdyn_curve_closest_parameter(&d, dim, x, out);
            FUZZ_CHECK(st != CDYN_OK || isfinite(out[0]));
            break;
        default:
            st = cdyn_curve_get_domain(&d, dim, out, out + 1, NULL);
        }
        return st;
    }
    if (fuzz_u8(in) & 1) {
        cdyn_heightfield_desc hf;
        fz_heightfield_desc(in, &hf, 3);
        st = cdyn_heightfield_evaluate(&hf, q, q2, out, out + 1, out + 3);
        FUZZ_CHECK(st != CDYN_OK || finite_n(out, 6));
        return st;
    }
    cdyn_surface_desc d;
    cdyn_heightfield_desc hf;
    fz_surface_desc(in, NULL, &d, &hf);
    d.user = NULL;
    switch (fuzz_u8(in) % 3) {
    case 0:
        st = cdyn_surface_evaluate(&d, q, q2, out, out + 3, out + 6, out + 9, out + 12, out + 15);
        FUZZ_CHECK(st != CDYN_OK || finite_n(out, 18));
        break;
    case 1:
        st = cdyn_surface_closest_parameters(&d, x, out, out + 1);
        FUZZ_CHECK(st != CDYN_OK || finite_n(out, 2));
        break;
    default:
        st = cdyn_surface_get_domain(&d, out, out + 2, NULL);
    }
    return st;
}

static cdyn_status op_motions(fz_ctx *c, fuzz_in *in, const char **fn)
{
    double t = fz_value(in, 0.5), out[24] = {0};
    *fn = "";
    cdyn_status st;
    switch (fuzz_u8(in) % 3) {
    case 0: {
        cdyn_motion_desc m;
        fz_motion_desc(in, NULL, &m);
        cdyn_motion_state s;
        st = cdyn_motion_evaluate(&m, 2 + (fuzz_u8(in) & 1), t, &s);
        FUZZ_CHECK(st != CDYN_OK || finite_n((const double *)&s, sizeof s / sizeof(double)));
        return st;
    }
    case 1: {
        cdyn_schedule_desc s;
        fz_schedule_desc(in, NULL, &s);
        st = cdyn_schedule_evaluate(&s, t, out);
        FUZZ_CHECK(st != CDYN_OK || finite_n(out, 3));
        return st;
    }
    default: {
        double w[3];
        fz_vec3(in, w, 0, 0, 1);
        st = cdyn_rigid_rotation(w, t, out);
        FUZZ_CHECK(st != CDYN_OK || finite_n(out, 9));
        (void)c;
        return st;
    }
    }
}

/* ---- the table -------------------------------------------------------- */

static const struct {
    op_fn call;
    unsigned flags;
} ops[] = {
    {op_particle_add, 0},   {op_particle_add, 0},    {op_particle_remove, 0},
    {op_particle_set, 0},   {op_force_add, 0},       {op_pairs, 0},
    {op_force_set, 0},      {op_constraint_add, 0},  {op_on_shape, 0},
    {op_constraint_set, 0}, {op_ground_add, 0},      {op_ground_set, 0},
    {op_rigid, 0},          {op_apply, 0},           {op_bulk_set, 0},
    {op_options, 0},        {op_integrator, 0},      {op_time_box, 0},
    {op_step, STEP},        {op_step, STEP},         {op_step, STEP},
    {op_evaluate, Q},       {op_mode, 0},            {op_arm_alloc, 0},
    {op_query, Q},          {op_shapes, FREE},       {op_motions, FREE},
};

/* A failure of another call, so that a failing call that records nothing
 * is caught. */
static void prime(fz_ctx *c, bool integrator)
{
    if (!integrator)
        cdyn_system_set_integrator(c->sys, (cdyn_integrator)99);
    else
        cdyn_system_set_time(c->sys, NAN);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size, 0};
    fz_ctx *c = calloc(1, sizeof *c);
    FUZZ_CHECK(c != NULL);
    c->dim = 2 + (fuzz_u8(&in) & 1);
    cdyn_allocator al = fuzz_allocator(&c->alloc);
    FUZZ_CHECK(cdyn_system_create_with_allocator(c->dim, &al, &c->sys) == CDYN_OK);
    /* One object of each kind in another system: foreign handles. */
    FUZZ_CHECK(cdyn_system_create(c->dim, &c->foreign) == CDYN_OK);
    cdyn_particle fq[4];
    for (int i = 0; i < 4; i++)
        FUZZ_CHECK(cdyn_particle_add(c->foreign, 1, (double[]){i, i * i, 0.5 * i}, NULL,
                                     &fq[i]) == CDYN_OK);
    c->fp = fq[0];
    FUZZ_CHECK(cdyn_force_add_drag(c->foreign, 0.1, &c->ff) == CDYN_OK);
    FUZZ_CHECK(cdyn_constraint_add_pin(c->foreign, fq[3], (double[]){3, 9, 1.5}, &c->fc) ==
               CDYN_OK);
    FUZZ_CHECK(cdyn_ground_add_plane(c->foreign, (double[]){0, 1, 0}, -1, &c->fg) == CDYN_OK);
    FUZZ_CHECK(cdyn_rigid_add(c->foreign, fq, 3, &c->fr) == CDYN_OK);

    for (int k = 0; k < 64 && fuzz_more(&in); k++) {
        size_t which = fuzz_u8(&in) % (sizeof ops / sizeof *ops);
        uint64_t parts[FZ_PARTS], parts2[FZ_PARTS];
        uint64_t before = fz_state(c, parts);
        const char *fn = "";
        prime(c, ops[which].call == op_integrator);
        c->overflowed = c->dog_bit = false;
        cdyn_status st = ops[which].call(c, &in, &fn);
        if (getenv("FZ_TRACE")) /* reproducing a finding: every call and its status */
            fprintf(stderr, "op %zu %s: %s %s\n", which, fn[0] ? fn : "-", cdyn_status_name(st),
                    st ? cdyn_system_last_error(c->sys) : "");
        if (!fn[0])
            continue; /* no call made, or a system-free one checked inside */
        /* Statuses from the documented set: no I/O or format errors outside
         * files, BUSY only from inside a callback, NO_MEMORY only when an
         * allocation failed, CALLBACK only when a callback was made to. */
        if (st > CDYN_ERR_BUSY || st == CDYN_ERR_BUSY ||
            (st == CDYN_ERR_NO_MEMORY && !c->alloc.failed) ||
            (st == CDYN_ERR_CALLBACK && c->mode == CB_OK && !c->overflowed && !c->dog_bit))
            fprintf(stderr, "%s returned %s (%s)\n", fn, cdyn_status_name(st),
                    cdyn_system_last_error(c->sys));
        FUZZ_CHECK(st <= CDYN_ERR_BUSY && st != CDYN_ERR_BUSY);
        FUZZ_CHECK(st != CDYN_ERR_NO_MEMORY || c->alloc.failed);
        FUZZ_CHECK(st != CDYN_ERR_CALLBACK || c->mode != CB_OK || c->overflowed || c->dog_bit);
        if (st != CDYN_OK && !(ops[which].flags & FREE)) {
            const char *msg = cdyn_system_last_error(c->sys);
            if (!fz_names(msg, fn))
                fprintf(stderr, "%s failed (%s) with the message \"%s\"\n", fn,
                        cdyn_status_name(st), msg);
            FUZZ_CHECK(fz_names(msg, fn));
        }
        if (st != CDYN_OK || (ops[which].flags & Q)) {
            uint64_t after = fz_state(c, parts2);
            if (after != before)
                for (int i = 0; i < FZ_PARTS; i++)
                    if (parts[i] != parts2[i])
                        fprintf(stderr, "%s (%s) changed the state, part %d\n", fn,
                                cdyn_status_name(st), i);
            FUZZ_CHECK(after == before);
        }
        if (st == CDYN_OK && (ops[which].flags & STEP))
            FUZZ_CHECK(fz_finite_state(c));
    }
    fuzz_alloc_arm(&c->alloc, 0);
    cdyn_system_destroy(c->sys);
    cdyn_system_destroy(c->foreign);
    FUZZ_CHECK(c->alloc.live == 0);
    free(c);
    return 0;
}
