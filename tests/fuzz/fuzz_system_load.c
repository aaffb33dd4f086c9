/* libFuzzer target: the system snapshot loader.
 *
 * Each input is tried as it is and again made whole: its length written
 * into the header and its last 8 bytes replaced by the checksum of the rest
 * (docs/snapshots.md), so that the fuzzer reaches the checks behind the
 * frame. The resolver below gives every callback a harmless function
 * whatever its tag, except for tags whose low byte is 0xff (unknown), so
 * that both the loaded callbacks and the unresolved path are reached; the
 * seeds come from the scenes of the snapshot suites (make_seeds.c).
 * Invariants:
 *  - a refused buffer creates nothing, leaves nothing allocated and says
 *    CDYN_ERR_FORMAT, CDYN_ERR_UNRESOLVED or CDYN_ERR_NO_MEMORY;
 *  - a loaded system saves to a snapshot that loads again and saves to the
 *    same bytes, and a clone of it saves to them too;
 *  - it steps (whatever the status: a strange but valid system may fail a
 *    step, never crash), and what it then saves loads again;
 *  - the same load with its allocations failed in turn (a few of them)
 *    fails with CDYN_ERR_NO_MEMORY or succeeds, leaving nothing behind.
 * Nothing leaks (the allocator counts). */
#include "fuzz_util.h"

/* Harmless callbacks: no force, constraints that hold (g = 0 with a
 * Jacobian that is not zero), a ground far below, a circle and a plane,
 * motions and schedules that stay put. */
static int force(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                 const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)n, (void)dim, (void)x, (void)v, (void)f, (void)user;
    return 0;
}

static int force_jacobian(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                          const double *v, cdyn_jacobian *jac, void *user)
{
    (void)sys, (void)t, (void)n, (void)dim, (void)x, (void)v, (void)jac, (void)user;
    return 0;
}

static int constraint(const cdyn_system *sys, double t, size_t n_particles, int dim,
                      const double *x, const double *v, size_t n_rows, double *g,
                      double *jacobian, double *velocity_terms, double *g_t, void *user)
{
    (void)sys, (void)t, (void)x, (void)v, (void)user;
    size_t width = n_particles * (size_t)dim;
    for (size_t r = 0; r < n_rows; r++) {
        g[r] = 0;
        velocity_terms[r] = 0;
        if (g_t)
            g_t[r] = 0;
        for (size_t j = 0; j < width; j++)
            jacobian[r * width + j] = j == r % width ? 1.0 : 0.0;
    }
    return 0;
}

static int implicit(const cdyn_system *sys, double t, int dim, const double *x, double *c,
                    double *gradient, double *hessian, double *c_t, double *gradient_t,
                    double *c_tt, void *user)
{
    (void)sys, (void)t, (void)x, (void)user;
    *c = 0;
    for (int q = 0; q < dim; q++) {
        gradient[q] = q == 0 ? 1.0 : 0.0;
        for (int p = 0; p < dim; p++)
            hessian[q * dim + p] = 0;
    }
    if (c_t) {
        *c_t = *c_tt = 0;
        for (int q = 0; q < dim; q++)
            gradient_t[q] = 0;
    }
    return 0;
}

static int ground(const cdyn_system *sys, double t, int dim, const double *x, double *h,
                  double *grad, double *velocity, void *user)
{
    (void)sys, (void)t, (void)x, (void)velocity, (void)user;
    *h = 1e6;
    for (int q = 0; q < dim; q++)
        grad[q] = q == dim - 1 ? 1.0 : 0.0;
    return 0;
}

static int curve(const cdyn_system *sys, double t, double q, double r[3], double dr[3],
                 double ddr[3], void *user)
{
    (void)sys, (void)t, (void)user;
    r[0] = cos(q), r[1] = sin(q), r[2] = 0;
    dr[0] = -sin(q), dr[1] = cos(q), dr[2] = 0;
    ddr[0] = -cos(q), ddr[1] = -sin(q), ddr[2] = 0;
    return 0;
}

static int surface(const cdyn_system *sys, double t, double u, double v, double r[3],
                   double ru[3], double rv[3], double ruu[3], double ruv[3], double rvv[3],
                   void *user)
{
    (void)sys, (void)t, (void)user, (void)ruu, (void)ruv, (void)rvv;
    r[0] = u, r[1] = v, r[2] = 0;
    ru[0] = 1, rv[1] = 1;
    return 0;
}

static int motion(const cdyn_system *sys, double t, cdyn_motion_state *out, void *user)
{
    (void)sys, (void)t, (void)out, (void)user;
    return 0;
}

static int schedule(const cdyn_system *sys, double t, double out[3], void *user)
{
    (void)sys, (void)t, (void)user;
    out[0] = out[1] = out[2] = 0;
    return 0;
}

static int pair(const cdyn_system *sys, double t, size_t i, size_t j, double r, double *energy,
                double *force_out, double *dforce, void *user)
{
    (void)sys, (void)t, (void)i, (void)j, (void)r, (void)user;
    if (energy)
        *energy = 0;
    *force_out = 0;
    if (dforce)
        *dforce = 0;
    return 0;
}

static int resolve(cdyn_callback_kind kind, uint64_t tag, cdyn_callback_binding *out,
                   void *user)
{
    (void)user;
    if ((tag & 0xffu) == 0xffu)
        return 1;
    out->force = force;
    out->force_jacobian = force_jacobian;
    out->constraint = constraint;
    out->implicit = implicit;
    out->ground = ground;
    out->curve = curve;
    out->surface = surface;
    out->motion = motion;
    out->schedule = schedule;
    out->pair = pair;
    (void)kind;
    return 0;
}

/* The checksum of the format: FNV-1a over little-endian 64-bit words. */
static uint64_t checksum(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint64_t w = 0;
        for (int k = 7; k >= 0; k--)
            w = (w << 8) | p[i + (size_t)k];
        h = (h ^ w) * 0x100000001b3ULL;
    }
    return h;
}

static unsigned char *snapshot_of(const cdyn_system *sys, size_t *size)
{
    FUZZ_CHECK(cdyn_system_snapshot_size(sys, size) == CDYN_OK);
    unsigned char *b = malloc(*size);
    FUZZ_CHECK(b != NULL);
    FUZZ_CHECK(cdyn_system_save(sys, b, *size, NULL) == CDYN_OK);
    return b;
}

static cdyn_status load(const uint8_t *buf, size_t size, fuzz_alloc *a, cdyn_system **out)
{
    cdyn_allocator al = fuzz_allocator(a);
    cdyn_snapshot_options o;
    cdyn_snapshot_options_init(&o);
    o.allocator = &al;
    o.resolve = resolve;
    *out = (cdyn_system *)a; /* must be set to NULL on failure */
    cdyn_status st = cdyn_system_load(buf, size, &o, NULL, out);
    if (st != CDYN_OK) {
        FUZZ_CHECK(st == CDYN_ERR_FORMAT || st == CDYN_ERR_UNRESOLVED ||
                   st == CDYN_ERR_NO_MEMORY);
        FUZZ_CHECK(st != CDYN_ERR_NO_MEMORY || a->failed);
        FUZZ_CHECK(*out == NULL && a->live == 0);
    }
    return st;
}

/* The snapshot of @p sys loads, and that system saves to the same bytes;
 * so does a clone. */
static void check_round_trip(const cdyn_system *sys)
{
    size_t s1, s2, s3;
    unsigned char *b1 = snapshot_of(sys, &s1);
    cdyn_snapshot_options o;
    cdyn_snapshot_options_init(&o);
    o.resolve = resolve;
    cdyn_system *again = NULL;
    FUZZ_CHECK(cdyn_system_load(b1, s1, &o, NULL, &again) == CDYN_OK);
    unsigned char *b2 = snapshot_of(again, &s2);
    FUZZ_CHECK(s1 == s2 && memcmp(b1, b2, s1) == 0);
    cdyn_system *twin = NULL;
    FUZZ_CHECK(cdyn_system_clone(again, NULL, &twin) == CDYN_OK);
    unsigned char *b3 = snapshot_of(twin, &s3);
    FUZZ_CHECK(s1 == s3 && memcmp(b1, b3, s1) == 0);
    free(b1);
    free(b2);
    free(b3);
    cdyn_system_destroy(again);
    cdyn_system_destroy(twin);
}

/* Bounds on the work a step may do, so that one input stays fast: the
 * iteration caps a snapshot may hold are legitimate but can be huge. */
static void bound_work(cdyn_system *sys)
{
    cdyn_projection_options po = {.size = sizeof po};
    if (cdyn_system_get_projection_options(sys, &po) == CDYN_OK && po.max_iterations > 50) {
        po.max_iterations = 50;
        FUZZ_CHECK(cdyn_system_set_projection_options(sys, &po) == CDYN_OK);
    }
    cdyn_solver_options so = {.size = sizeof so};
    if (cdyn_system_get_solver_options(sys, &so) == CDYN_OK && so.cg_max_iterations > 50) {
        so.cg_max_iterations = 50;
        FUZZ_CHECK(cdyn_system_set_solver_options(sys, &so) == CDYN_OK);
    }
    cdyn_rk45_options ro = {.size = sizeof ro};
    if (cdyn_system_get_rk45_options(sys, &ro) == CDYN_OK &&
        (ro.abs_tol < 1e-6 || ro.rel_tol < 1e-6 || (ro.max_step > 0 && ro.max_step < 1e-8))) {
        ro.abs_tol = ro.rel_tol = 1e-6;
        ro.max_step = 0;
        FUZZ_CHECK(cdyn_system_set_rk45_options(sys, &ro) == CDYN_OK);
    }
}

static void check_load(const uint8_t *buf, size_t size)
{
    fuzz_alloc a = {0};
    cdyn_system *sys;
    if (load(buf, size, &a, &sys) != CDYN_OK)
        return;
    check_round_trip(sys);
    bound_work(sys);
    /* A very short step: a stiff system makes RK45 take as many internal
     * steps as the step is long, and below 1e-14 s it gives up. */
    (void)cdyn_system_step(sys, 1e-12);
    check_round_trip(sys);
    cdyn_system_destroy(sys);
    FUZZ_CHECK(a.live == 0);
    /* The first allocations of the same load failed in turn. */
    for (size_t k = 1; k <= 8; k++) {
        fuzz_alloc_arm(&a, k);
        if (load(buf, size, &a, &sys) == CDYN_OK) {
            cdyn_system_destroy(sys);
            FUZZ_CHECK(a.live == 0);
            break;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_load(data, size);
    /* Whole: the length in the header, a multiple of 8, and the checksum. */
    if (size >= 40) {
        size_t n = size - size % 8;
        uint8_t *whole = malloc(n);
        FUZZ_CHECK(whole != NULL);
        memcpy(whole, data, n);
        for (int i = 0; i < 8; i++)
            whole[16 + i] = (uint8_t)((uint64_t)n >> (8 * i));
        uint64_t sum = checksum(whole, n - 8);
        for (int i = 0; i < 8; i++)
            whole[n - 8 + (size_t)i] = (uint8_t)(sum >> (8 * i));
        check_load(whole, n);
        free(whole);
    }
    return 0;
}
