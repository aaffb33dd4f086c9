/* For fuzz_system_api.c: the context of one input (a system and the
 * handles made in it), the callbacks every kind of object takes (each able
 * to fail, give NaN, fail after a count of calls or call back into the
 * system), the state hashed through public getters, and descriptions of
 * curves, surfaces, height fields, motions and schedules read from the
 * input. Test code. */
#ifndef CDYN_FUZZ_SYSTEM_H
#define CDYN_FUZZ_SYSTEM_H

#include "fuzz_util.h"

enum { FZ_MAX_PARTICLES = 24, FZ_MAX_OBJECTS = 16, FZ_MAX_USER = 8 };

/* What every callback does (fz_ctx.mode). */
enum { CB_OK, CB_FAIL, CB_NAN, CB_COUNTDOWN, CB_REENTER, CB_MODES };

typedef struct fz_ctx fz_ctx;

/* A user or implicit constraint's own data: the offsets that make g = 0
 * where it was put. */
typedef struct fz_record {
    fz_ctx *ctx;
    double off[64];
    double center[3];
} fz_record;

struct fz_ctx {
    cdyn_system *sys, *foreign;
    int dim;
    fuzz_alloc alloc;
    /* Handles made in this run, removed ones included (they are stale). */
    cdyn_particle p[FZ_MAX_PARTICLES * 2];
    cdyn_force f[FZ_MAX_OBJECTS];
    cdyn_constraint c[FZ_MAX_OBJECTS];
    cdyn_ground g[FZ_MAX_OBJECTS];
    cdyn_rigid r[FZ_MAX_OBJECTS];
    size_t np, nf, nc, ng, nr;
    cdyn_particle fp; /* foreign handles */
    cdyn_force ff;
    cdyn_constraint fc;
    cdyn_ground fg;
    cdyn_rigid fr;
    fz_record rec[FZ_MAX_USER];
    size_t nrec;
    int mode;       /* CB_* */
    long countdown; /* CB_COUNTDOWN: calls left before the callbacks fail */
    uint64_t dog_evals; /* evaluations the RK45 watchdog has seen (op_step) */
    bool dog_bit;       /* the watchdog stopped a step during this call */
    int in_callback;
    bool overflowed; /* a callback's own value overflowed during this call */
    double buf[4096], buf2[4096];
};

/* ---- callbacks -------------------------------------------------------- */

/* Whether this call of a callback fails, and a call back into the system
 * that must be refused while it steps. */
static inline int fz_cb_fails(fz_ctx *c)
{
    if (c->mode == CB_FAIL)
        return 1;
    if (c->mode == CB_COUNTDOWN && --c->countdown < 0)
        return 1;
    if (c->mode == CB_REENTER && !c->in_callback && c->np > 0) {
        c->in_callback = 1;
        cdyn_status st = cdyn_particle_set_mass(c->sys, c->p[0], 2.0);
        FUZZ_CHECK(st == CDYN_ERR_BUSY || st == CDYN_ERR_INVALID_HANDLE ||
                   st == CDYN_ERR_STALE_HANDLE);
        FUZZ_CHECK(cdyn_system_step(c->sys, 1e-3) == CDYN_ERR_BUSY);
        c->in_callback = 0;
    }
    return 0;
}

/* A callback's value: NaN in CB_NAN mode; a value that overflows by itself
 * (the state has grown huge) is noted, since the library then rightly
 * reports the callback's non-finite value. */
static inline double fz_cb_value(fz_ctx *c, double v)
{
    if (c && !isfinite(v))
        c->overflowed = true;
    return c && c->mode == CB_NAN ? (double)NAN : v;
}

static inline int fz_force(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                           const double *v, double *f, void *user)
{
    (void)sys, (void)t;
    fz_ctx *c = user;
    for (size_t i = 0; i < n * (size_t)dim; i++)
        f[i] += fz_cb_value(c, -0.5 * x[i] - 0.05 * v[i]);
    return fz_cb_fails(c);
}

/* The watchdog of RK45 steps (op_step): adds nothing, fails once the input
 * has had this many evaluations. */
enum { FZ_RK45_EVALS = 100000 };

static inline int fz_watchdog(const cdyn_system *sys, double t, size_t n, int dim,
                              const double *x, const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)n, (void)dim, (void)x, (void)v, (void)f;
    fz_ctx *c = user;
    if (++c->dog_evals <= FZ_RK45_EVALS)
        return 0;
    c->dog_bit = true;
    return 1;
}

static inline int fz_jacobian(const cdyn_system *sys, double t, size_t n, int dim,
                              const double *x, const double *v, cdyn_jacobian *jac, void *user)
{
    (void)sys, (void)t, (void)x, (void)v;
    fz_ctx *c = user;
    double kx[9] = {0}, kv[9] = {0};
    for (int k = 0; k < dim; k++)
        kx[k * dim + k] = fz_cb_value(c, -0.5), kv[k * dim + k] = -0.05;
    for (size_t i = 0; i < n; i++)
        if (cdyn_jacobian_add_block(jac, i, i, kx, kv) != CDYN_OK)
            return 0; /* refused: the step fails by itself */
    return fz_cb_fails(c);
}

/* Row r ties coordinate r % dim of the first and last particles. */
static inline int fz_user(const cdyn_system *sys, double t, size_t np, int dim, const double *x,
                          const double *v, size_t nr, double *g, double *jac, double *vt,
                          double *g_t, void *user)
{
    (void)sys, (void)t, (void)v;
    fz_record *rec = user;
    size_t last = np - 1, d = (size_t)dim;
    memset(jac, 0, nr * np * d * sizeof *jac);
    for (size_t r = 0; r < nr; r++) {
        size_t k = r % d;
        g[r] = fz_cb_value(rec->ctx, x[k] - (last ? x[last * d + k] : 0.0) - rec->off[r]);
        jac[r * np * d + k] += 1.0;
        if (last)
            jac[(r * np + last) * d + k] -= 1.0;
        vt[r] = 0;
        if (g_t)
            g_t[r] = 0;
    }
    return fz_cb_fails(rec->ctx);
}

/* c = (|x - center|^2 - 1) / 2. */
static inline int fz_implicit(const cdyn_system *sys, double t, int dim, const double *x,
                              double *cv, double *grad, double *hess, double *c_t,
                              double *grad_t, double *c_tt, void *user)
{
    (void)sys, (void)t;
    fz_record *rec = user;
    double r2 = 0;
    for (int k = 0; k < dim; k++) {
        double e = x[k] - rec->center[k];
        r2 += e * e;
        grad[k] = e;
        if (!isfinite(e))
            rec->ctx->overflowed = true;
        for (int j = 0; j < dim; j++)
            hess[k * dim + j] = j == k;
        if (grad_t)
            grad_t[k] = 0;
    }
    *cv = fz_cb_value(rec->ctx, (r2 - 1) / 2);
    if (c_t)
        *c_t = 0;
    if (c_tt)
        *c_tt = NAN; /* left to the library's differences */
    return fz_cb_fails(rec->ctx);
}

static inline int fz_ground(const cdyn_system *sys, double t, int dim, const double *x,
                            double *h, double *grad, double *velocity, void *user)
{
    (void)sys, (void)dim;
    fz_ctx *c = user;
    *h = fz_cb_value(c, x[1] + 0.1 * sin(t));
    grad[1] = 1;
    velocity[1] = 0.1 * cos(t);
    return fz_cb_fails(c);
}

/* The unit circle about the origin, turning with t when time-dependent. */
static inline int fz_curve(const cdyn_system *sys, double t, double q, double r[3], double dr[3],
                           double ddr[3], void *user)
{
    (void)sys;
    fz_ctx *c = user;
    double a = q + 0.1 * t;
    r[0] = fz_cb_value(c, cos(a)), r[1] = sin(a);
    dr[0] = -sin(a), dr[1] = cos(a);
    ddr[0] = -cos(a), ddr[1] = -sin(a);
    return c ? fz_cb_fails(c) : 0;
}

static inline int fz_surface(const cdyn_system *sys, double t, double u, double v, double r[3],
                             double ru[3], double rv[3], double ruu[3], double ruv[3],
                             double rvv[3], void *user)
{
    (void)sys, (void)t;
    fz_ctx *c = user;
    double su = sin(u), cu = cos(u), sv = sin(v), cv = cos(v);
    r[0] = fz_cb_value(c, sv * cu), r[1] = sv * su, r[2] = cv;
    ru[0] = -sv * su, ru[1] = sv * cu;
    rv[0] = cv * cu, rv[1] = cv * su, rv[2] = -sv;
    ruu[0] = -sv * cu, ruu[1] = -sv * su;
    ruv[0] = -cv * su, ruv[1] = cv * cu;
    rvv[0] = -sv * cu, rvv[1] = -sv * su, rvv[2] = -cv;
    return c ? fz_cb_fails(c) : 0;
}

static inline int fz_motion(const cdyn_system *sys, double t, cdyn_motion_state *out, void *user)
{
    (void)sys;
    fz_ctx *c = user;
    double a = 0.5 * t;
    out->rotation[0] = fz_cb_value(c, cos(a)), out->rotation[1] = -sin(a);
    out->rotation[3] = sin(a), out->rotation[4] = cos(a);
    out->angular_velocity[2] = 0.5;
    return c ? fz_cb_fails(c) : 0;
}

static inline int fz_schedule(const cdyn_system *sys, double t, double out[3], void *user)
{
    (void)sys;
    fz_ctx *c = user;
    out[0] = fz_cb_value(c, 0.01 * sin(t)), out[1] = 0.01 * cos(t), out[2] = -0.01 * sin(t);
    return c ? fz_cb_fails(c) : 0;
}

static inline int fz_pair(const cdyn_system *sys, double t, size_t i, size_t j, double r,
                          double *u, double *force, double *dforce, void *user)
{
    (void)sys, (void)t, (void)i, (void)j;
    fz_ctx *c = user;
    if (u)
        *u = (1 - r) * (1 - r);
    if (force)
        *force = fz_cb_value(c, 2 * (1 - r));
    if (dforce)
        *dforce = -2;
    return fz_cb_fails(c);
}

/* ---- messages --------------------------------------------------------- */

/* Whether @p msg names @p fn ("cdyn_system_step") as its first word: as
 * "cdyn_system_step", "system_step" or, for the system's own calls, "step",
 * followed by ':', ' ' or '('. */
static inline bool fz_names(const char *msg, const char *fn)
{
    const char *cand[3] = {fn, fn + 5, strncmp(fn + 5, "system_", 7) == 0 ? fn + 12 : NULL};
    for (int i = 0; i < 3; i++) {
        size_t n = cand[i] ? strlen(cand[i]) : 0;
        if (n && strncmp(msg, cand[i], n) == 0 &&
            (msg[n] == ':' || msg[n] == ' ' || msg[n] == '('))
            return true;
    }
    return false;
}

/* ---- the state -------------------------------------------------------- */

typedef struct fz_hash {
    uint64_t h;
} fz_hash;

static inline void fz_bytes(fz_hash *s, const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = s->h ? s->h : 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    s->h = h;
}

static inline void fz_u64(fz_hash *s, uint64_t v)
{
    fz_bytes(s, &v, sizeof v);
}

static inline void fz_d(fz_hash *s, double v)
{
    fz_bytes(s, &v, sizeof v);
}

#define FZ_GET(call, n)                       \
    do {                                      \
        double v_[16] = {0};                  \
        fz_u64(s, (uint64_t)(call));          \
        fz_bytes(s, v_, (n) * sizeof(double)); \
    } while (0)

static inline void fz_hash_options(fz_hash *s, const cdyn_system *sys)
{
    cdyn_rk45_options r = {.size = sizeof r};
    cdyn_newton_options n = {.size = sizeof n};
    cdyn_solver_options so = {.size = sizeof so};
    cdyn_projection_options p = {.size = sizeof p};
    cdyn_langevin_options l = {.size = sizeof l};
    fz_u64(s, cdyn_system_get_rk45_options(sys, &r));
    fz_u64(s, cdyn_system_get_newton_options(sys, &n));
    fz_u64(s, cdyn_system_get_solver_options(sys, &so));
    fz_u64(s, cdyn_system_get_projection_options(sys, &p));
    fz_u64(s, cdyn_system_get_langevin_options(sys, &l));
    fz_bytes(s, &r, sizeof r), fz_bytes(s, &n, sizeof n), fz_bytes(s, &so, sizeof so);
    fz_bytes(s, &p, sizeof p), fz_bytes(s, &l, sizeof l);
    cdyn_integrator in = 0;
    fz_u64(s, cdyn_system_get_integrator(sys, &in));
    fz_u64(s, (uint64_t)in);
    double o[3] = {0}, len[3] = {0};
    bool per[3] = {0}, has = false;
    fz_u64(s, cdyn_system_get_box(sys, o, len, per, &has));
    fz_u64(s, has), fz_bytes(s, o, sizeof o), fz_bytes(s, len, sizeof len);
    fz_bytes(s, per, sizeof per);
}

static inline void fz_hash_motion(fz_hash *s, cdyn_status st, const cdyn_motion_desc *m, bool on)
{
    fz_u64(s, st);
    fz_u64(s, on);
    if (on) {
        fz_u64(s, (uint64_t)m->kind);
        fz_bytes(s, m->velocity, 15 * sizeof(double)); /* velocity .. phase */
        fz_bytes(s, m->center, 7 * sizeof(double));
    }
}

static inline void fz_hash_objects(fz_hash *s, const fz_ctx *c)
{
    const cdyn_system *sys = c->sys;
    for (size_t i = 0; i < c->np; i++) {
        cdyn_motion_desc m;
        memset(&m, 0, sizeof m);
        bool on = false;
        fz_u64(s, cdyn_particle_is_valid(sys, c->p[i]));
        fz_hash_motion(s, cdyn_particle_get_motion(sys, c->p[i], &m, &on), &m, on);
        cdyn_rigid r = 0;
        fz_u64(s, cdyn_rigid_find(sys, c->p[i], &r));
        fz_u64(s, r != 0);
        int64_t img[3] = {0};
        fz_u64(s, cdyn_particle_get_image(sys, c->p[i], img));
        fz_bytes(s, img, sizeof img);
    }
    for (size_t i = 0; i < c->nf; i++) {
        cdyn_force_kind k = 0;
        fz_u64(s, cdyn_force_get_kind(sys, c->f[i], &k));
        fz_u64(s, (uint64_t)k);
        if (k == CDYN_FORCE_SPRING)
            FZ_GET(cdyn_force_get_spring(sys, c->f[i], &v_[0], &v_[1], &v_[2]), 3);
        if (k == CDYN_FORCE_GRAVITY)
            FZ_GET(cdyn_force_get_gravity(sys, c->f[i], v_), 3);
        if (k == CDYN_FORCE_DRAG)
            FZ_GET(cdyn_force_get_drag(sys, c->f[i], v_), 1);
        if (k == CDYN_FORCE_PAIR) {
            cdyn_pair_stats ps = {.size = sizeof ps};
            if (cdyn_force_get_pair_stats(sys, c->f[i], &ps) == CDYN_OK) {
                int depth = 0;
                FZ_GET(cdyn_force_get_pair_skin(sys, c->f[i], v_), 1);
                fz_u64(s, cdyn_force_get_pair_exclude_bonded(sys, c->f[i], &depth));
                fz_u64(s, (uint64_t)depth), fz_u64(s, ps.excluded);
            }
            for (size_t j = 0; j < c->np; j++)
                FZ_GET(cdyn_force_get_pair_radius(sys, c->f[i], c->p[j], v_), 1);
        }
    }
    for (size_t i = 0; i < c->nc; i++) {
        cdyn_constraint h = c->c[i];
        cdyn_constraint_kind k = 0;
        size_t n = 0;
        bool b = false;
        fz_u64(s, cdyn_constraint_get_kind(sys, h, &k));
        fz_u64(s, (uint64_t)k);
        fz_u64(s, cdyn_constraint_get_row_count(sys, h, &n));
        fz_u64(s, n);
        fz_u64(s, cdyn_constraint_get_enabled(sys, h, &b));
        fz_u64(s, b);
        FZ_GET(cdyn_constraint_get_compliance(sys, h, v_), 1);
        FZ_GET(cdyn_constraint_get_coordinates(sys, h, &v_[0], &v_[2]), 4);
        cdyn_motion_desc m;
        memset(&m, 0, sizeof m);
        bool on = false;
        fz_hash_motion(s, cdyn_constraint_get_motion(sys, h, &m, &on), &m, on);
        cdyn_schedule_desc sd;
        memset(&sd, 0, sizeof sd);
        on = false;
        fz_u64(s, cdyn_constraint_get_length_schedule(sys, h, &sd, &on));
        fz_u64(s, on);
        if (on)
            fz_bytes(s, &sd.rate, 5 * sizeof(double));
        fz_u64(s, cdyn_constraint_get_time_dependent(sys, h, &b));
        fz_u64(s, b);
    }
    for (size_t i = 0; i < c->ng; i++) {
        cdyn_ground h = c->g[i];
        cdyn_ground_kind k = 0;
        fz_u64(s, cdyn_ground_get_kind(sys, h, &k));
        fz_u64(s, (uint64_t)k);
        FZ_GET(cdyn_ground_get_stiffness(sys, h, v_), 1);
        FZ_GET(cdyn_ground_get_damping(sys, h, v_), 1);
        FZ_GET(cdyn_ground_get_friction(sys, h, v_), 1);
        FZ_GET(cdyn_ground_get_friction_speed(sys, h, v_), 1);
        FZ_GET(cdyn_ground_get_surface_velocity(sys, h, v_), 3);
        cdyn_motion_desc m;
        memset(&m, 0, sizeof m);
        bool on = false;
        fz_hash_motion(s, cdyn_ground_get_motion(sys, h, &m, &on), &m, on);
    }
    for (size_t i = 0; i < c->nr; i++) {
        cdyn_rigid h = c->r[i];
        size_t n = 0;
        cdyn_rigid_scheme sc = 0;
        fz_u64(s, cdyn_rigid_get_particle_count(sys, h, &n));
        fz_u64(s, n);
        fz_u64(s, cdyn_rigid_get_scheme(sys, h, &sc));
        fz_u64(s, (uint64_t)sc);
        FZ_GET(cdyn_rigid_get_orientation(sys, h, v_), 9);
        FZ_GET(cdyn_rigid_get_angular_velocity(sys, h, v_), 3);
    }
}

/* The whole state as public getters read it. Getters on removed objects
 * fail and record their messages: the caller primes the message after. */
/* The parts of the state, hashed apart so that a broken invariant can say
 * which changed: 0 time and counts, 1-4 positions, velocities, applied
 * forces, unwrapped positions, 5 masses and fixed flags, 6 options, 7 the
 * objects, 8 drive work. */
enum { FZ_PARTS = 9 };

static inline uint64_t fz_state(fz_ctx *c, uint64_t part[FZ_PARTS])
{
    fz_hash hs[FZ_PARTS] = {{0}}, *s = &hs[0];
    const cdyn_system *sys = c->sys;
    size_t n = 0, live = 0;
    double t = 0;
    fz_u64(s, cdyn_system_get_index_count(sys, &n));
    fz_u64(s, cdyn_system_get_particle_count(sys, &live));
    fz_u64(s, cdyn_system_get_time(sys, &t));
    fz_u64(s, n), fz_u64(s, live), fz_d(s, t);
    size_t nd = n * (size_t)c->dim;
    FUZZ_CHECK(nd <= 4096);
    cdyn_status (*const reads[])(const cdyn_system *, double *, size_t) = {
        cdyn_system_get_positions, cdyn_system_get_velocities, cdyn_system_get_applied_forces,
        cdyn_system_get_unwrapped_positions};
    for (size_t r = 0; r < sizeof reads / sizeof *reads; r++) {
        s = &hs[1 + r];
        memset(c->buf2, 0, nd * sizeof(double));
        fz_u64(s, reads[r](sys, c->buf2, nd));
        fz_bytes(s, c->buf2, nd * sizeof(double));
    }
    s = &hs[5];
    fz_u64(s, cdyn_system_get_masses(sys, c->buf2, n));
    fz_bytes(s, c->buf2, n * sizeof(double));
    bool fixed[64] = {0};
    fz_u64(s, cdyn_system_get_fixed(sys, fixed, 64));
    fz_bytes(s, fixed, sizeof fixed);
    fz_hash_options(&hs[6], sys);
    fz_hash_objects(&hs[7], c);
    s = &hs[8];
    FZ_GET(cdyn_system_get_drive_work(sys, v_), 1);
    fz_hash all = {0};
    for (int i = 0; i < FZ_PARTS; i++) {
        part[i] = hs[i].h;
        fz_u64(&all, hs[i].h);
    }
    return all.h;
}

/* Every position and velocity finite. */
static inline bool fz_finite_state(fz_ctx *c)
{
    size_t n = 0;
    cdyn_system_get_index_count(c->sys, &n);
    size_t nd = n * (size_t)c->dim;
    if (cdyn_system_get_positions(c->sys, c->buf2, nd) != CDYN_OK ||
        cdyn_system_get_velocities(c->sys, c->buf2 + nd, nd) != CDYN_OK)
        return false;
    for (size_t i = 0; i < 2 * nd; i++)
        if (!isfinite(c->buf2[i])) {
            fprintf(stderr, "%s %zu of index %zu is %g\n", i < nd ? "position" : "velocity",
                    i % nd % (size_t)c->dim, i % nd / (size_t)c->dim, c->buf2[i]);
            return false;
        }
    double t;
    if (cdyn_system_get_time(c->sys, &t) != CDYN_OK || !isfinite(t)) {
        fprintf(stderr, "the time is %g\n", t);
        return false;
    }
    return true;
}

/* ---- descriptions read from the input -------------------------------- */

/* A value: mostly an ordinary one near @p usual, sometimes an edge value. */
static inline double fz_value(fuzz_in *in, double usual)
{
    uint8_t k = fuzz_u8(in);
    if (k < 160)
        return usual * (1.0 + (k % 16) / 16.0);
    return fuzz_double(in);
}

static inline void fz_vec3(fuzz_in *in, double v[3], double a, double b, double c)
{
    v[0] = fz_value(in, a);
    v[1] = fz_value(in, b);
    v[2] = fz_value(in, c);
}

static const double fz_spline_pts[18] = {0, 0, 0, 1, 1, 0, 2, 0, 0.5, 3, 1, 0,
                                         4, 0, 1,   5, 0.5, 0};
static const double fz_hf_samples[20] = {0,   0.1, 0.2, 0.1, 0,   0.1, 0.3, 0.4, 0.3, 0.1,
                                         0.1, 0.3, 0.5, 0.3, 0.1, 0,   0.1, 0.2, 0.1, 0};

/* A curve of any kind (an unknown one now and then); its spline points in
 * @p pts (room for 18 doubles). */
static inline void fz_curve_desc(fuzz_in *in, fz_ctx *c, cdyn_curve_desc *d, double *pts)
{
    uint8_t k = fuzz_u8(in);
    cdyn_curve_desc_init(d, (cdyn_curve_kind)(1 + k % 8)); /* 8: unknown */
    uint8_t bits = fuzz_u8(in);
    if (bits & 1)
        fz_vec3(in, d->origin, 0.1, 0.2, 0.1);
    if (bits & 2)
        fz_vec3(in, d->axis1, 1, 0.1, 0.1);
    if (bits & 4)
        fz_vec3(in, d->axis2, 0.1, 1, 0.1);
    if (bits & 8)
        d->radius = fz_value(in, 1), d->pitch = fz_value(in, 0.5);
    if (bits & 16)
        d->coefficient = fz_value(in, 0.5);
    if (bits & 32) {
        d->q_min = fz_value(in, -1);
        d->q_max = fz_value(in, 2);
    }
    if (d->kind == CDYN_CURVE_SPLINE) {
        memcpy(pts, fz_spline_pts, sizeof fz_spline_pts);
        if (bits & 64)
            pts[fuzz_u8(in) % 18] = fuzz_double(in);
        d->points = pts;
        d->num_points = 4 + fuzz_u8(in) % 3; /* fits 3-D: 6 points of 3 */
        d->spline_end = (cdyn_spline_end)(1 + fuzz_u8(in) % 3);
        fz_vec3(in, d->start_tangent, 1, 0.2, 0);
        fz_vec3(in, d->end_tangent, 1, -0.2, 0);
    }
    if (d->kind == CDYN_CURVE_CALLBACK) {
        d->callback = fz_curve;
        d->user = c;
        d->periodic = bits & 128 ? 1 : 0;
        d->q_min = 0, d->q_max = 6.283185307179586;
        d->time_dependent = (k >> 4) & 1;
    }
    if (bits & 128 && d->kind != CDYN_CURVE_CALLBACK)
        d->size = fuzz_u8(in) % 4 ? d->size : sizeof(size_t);
}

static inline void fz_heightfield_desc(fuzz_in *in, cdyn_heightfield_desc *h, int dim)
{
    cdyn_heightfield_desc_init(h);
    h->nx = 5, h->ny = dim == 3 ? 4 : 1;
    h->samples = fz_hf_samples;
    h->origin[0] = -2, h->origin[1] = -1;
    uint8_t bits = fuzz_u8(in);
    if (bits & 1)
        h->spacing[0] = fz_value(in, 1), h->spacing[1] = fz_value(in, 1);
    if (bits & 2)
        h->origin[0] = fz_value(in, -2), h->origin[1] = fz_value(in, -1);
    if (bits & 4)
        h->interpolation = (cdyn_heightfield_interpolation)(1 + fuzz_u8(in) % 3);
    if (bits & 8)
        h->up_axis = fuzz_u8(in) % 4;
    if (bits & 16)
        h->nx = 2 + fuzz_u8(in) % 4;
    if (bits & 32)
        h->ny = dim == 3 ? 2 + fuzz_u8(in) % 3 : fuzz_u8(in) % 2;
}

static inline void fz_surface_desc(fuzz_in *in, fz_ctx *c, cdyn_surface_desc *d,
                                   cdyn_heightfield_desc *hf)
{
    uint8_t k = fuzz_u8(in);
    cdyn_surface_desc_init(d, (cdyn_surface_kind)(1 + k % 6)); /* 6: unknown */
    uint8_t bits = fuzz_u8(in);
    if (bits & 1)
        fz_vec3(in, d->origin, 0.1, 0.2, 0.1);
    if (bits & 2)
        fz_vec3(in, d->axis1, 1, 0.1, 0.1);
    if (bits & 4)
        fz_vec3(in, d->axis2, 0.1, 0.1, 1);
    if (bits & 8)
        d->radius = fz_value(in, 1), d->minor_radius = fz_value(in, 0.25);
    if (bits & 16) {
        d->u_min = fz_value(in, 0), d->u_max = fz_value(in, 1);
        d->v_min = fz_value(in, 0.5), d->v_max = fz_value(in, 2);
    }
    if (d->kind == CDYN_SURFACE_HEIGHTFIELD) {
        fz_heightfield_desc(in, hf, 3);
        d->heightfield = hf;
    }
    if (d->kind == CDYN_SURFACE_CALLBACK) {
        d->callback = fz_surface;
        d->user = c;
        d->periodic_u = 1;
        d->u_min = 0, d->u_max = 6.283185307179586;
        d->v_min = 0.2, d->v_max = 2.9;
        d->time_dependent = (k >> 4) & 1;
    }
}

static inline void fz_motion_desc(fuzz_in *in, fz_ctx *c, cdyn_motion_desc *m)
{
    uint8_t k = fuzz_u8(in);
    cdyn_motion_desc_init(m, (cdyn_motion_kind)(1 + k % 5)); /* 5: unknown */
    uint8_t bits = fuzz_u8(in);
    if (bits & 1)
        fz_vec3(in, m->velocity, 0.1, 0, 0);
    if (bits & 2)
        fz_vec3(in, m->acceleration, 0, 0.1, 0);
    if (bits & 4)
        fz_vec3(in, m->amplitude, 0, 0.05, 0), m->frequency = fz_value(in, 3);
    if (bits & 8)
        fz_vec3(in, m->center, 0, 0, 0), fz_vec3(in, m->axis, 0, 0, 1);
    if (bits & 16)
        m->angular_velocity = fz_value(in, 0.5), m->phase = fz_value(in, 0.1);
    if (m->kind == CDYN_MOTION_CALLBACK) {
        m->callback = fz_motion;
        m->user = c;
    }
}

static inline void fz_schedule_desc(fuzz_in *in, fz_ctx *c, cdyn_schedule_desc *s)
{
    uint8_t k = fuzz_u8(in);
    cdyn_schedule_desc_init(s, (cdyn_schedule_kind)(1 + k % 4)); /* 4: unknown */
    uint8_t bits = fuzz_u8(in);
    if (bits & 1)
        s->rate = fz_value(in, 0.01), s->acceleration = fz_value(in, 0.001);
    if (bits & 2)
        s->amplitude = fz_value(in, 0.01), s->frequency = fz_value(in, 2);
    if (s->kind == CDYN_SCHEDULE_CALLBACK) {
        s->callback = fz_schedule;
        s->user = c;
    }
}

#endif /* CDYN_FUZZ_SYSTEM_H */
