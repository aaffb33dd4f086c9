/* Options and reports through size-first structs: the options of RK45,
 * backward Euler's Newton iteration, the multiplier solve and the
 * projections (init fills the defaults, set copies, get returns what was
 * set), and the reports of RK45, Newton, the solver and the projections
 * (all zero before use). One rule for every size field: a getter writes up
 * to the caller's size and keeps the size field (a smaller size reads a
 * prefix), a size below sizeof(size_t) is refused, a setter takes exactly
 * its struct's size. Every refusal names its function and changes
 * nothing. What the RK45 step options do: max_step resolves a short force
 * pulse that a whole-dt step misses, initial_step starts the controller
 * small. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

static cdyn_system *make(int dim)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(dim, &sys), CDYN_OK);
    return sys;
}

static void assert_named(const cdyn_system *sys, const char *what)
{
    const char *m = cdyn_system_last_error(sys);
    size_t n = strlen(what);
    if (strncmp(m, what, n) != 0 || m[n] != ':')
        fail_msg("message \"%s\" does not name %s", m, what);
}

/* ---- the getters, seen alike --------------------------------------- */

typedef cdyn_status (*getter)(const cdyn_system *sys, void *out);

static cdyn_status get_rk45_options(const cdyn_system *s, void *o)
{
    return cdyn_system_get_rk45_options(s, o);
}
static cdyn_status get_rk45_stats(const cdyn_system *s, void *o)
{
    return cdyn_system_get_rk45_stats(s, o);
}
static cdyn_status get_newton_options(const cdyn_system *s, void *o)
{
    return cdyn_system_get_newton_options(s, o);
}
static cdyn_status get_newton_stats(const cdyn_system *s, void *o)
{
    return cdyn_system_get_newton_stats(s, o);
}
static cdyn_status get_solver_options(const cdyn_system *s, void *o)
{
    return cdyn_system_get_solver_options(s, o);
}
static cdyn_status get_solver_stats(const cdyn_system *s, void *o)
{
    return cdyn_system_get_solver_stats(s, o);
}
static cdyn_status get_projection_options(const cdyn_system *s, void *o)
{
    return cdyn_system_get_projection_options(s, o);
}
static cdyn_status get_projection_stats(const cdyn_system *s, void *o)
{
    return cdyn_system_get_projection_stats(s, o);
}

static const struct {
    const char *name;
    getter get;
    size_t size;
    bool stats; /* a report: all zero before use */
} GETTERS[] = {
    {"get_rk45_options", get_rk45_options, sizeof(cdyn_rk45_options), false},
    {"get_rk45_stats", get_rk45_stats, sizeof(cdyn_rk45_stats), true},
    {"get_newton_options", get_newton_options, sizeof(cdyn_newton_options), false},
    {"get_newton_stats", get_newton_stats, sizeof(cdyn_newton_stats), true},
    {"get_solver_options", get_solver_options, sizeof(cdyn_solver_options), false},
    {"get_solver_stats", get_solver_stats, sizeof(cdyn_solver_stats), true},
    {"get_projection_options", get_projection_options, sizeof(cdyn_projection_options), false},
    {"get_projection_stats", get_projection_stats, sizeof(cdyn_projection_stats), true},
};
#define N_GETTERS (sizeof GETTERS / sizeof GETTERS[0])
#define CANARY 0xab
#define MAX_STRUCT 512

static void set_size(unsigned char *buf, size_t size)
{
    memcpy(buf, &size, sizeof size);
}

static size_t size_of(const unsigned char *buf)
{
    size_t s;
    memcpy(&s, buf, sizeof s);
    return s;
}

/* The size rules of every getter, on a system that has used none of them
 * (reports all zero) and then on one that has. */
static void check_getter_rules(cdyn_system *sys, bool fresh)
{
    for (size_t g = 0; g < N_GETTERS; g++) {
        const size_t n = GETTERS[g].size;
        assert_true(n + 16 <= MAX_STRUCT);
        unsigned char full[MAX_STRUCT], part[MAX_STRUCT];
        /* Full size: every byte of the struct written, the size kept. */
        memset(full, CANARY, sizeof full);
        set_size(full, n);
        assert_int_equal(GETTERS[g].get(sys, full), CDYN_OK);
        assert_int_equal(size_of(full), n);
        if (fresh && GETTERS[g].stats)
            for (size_t i = sizeof(size_t); i < n; i++)
                if (full[i] != 0)
                    fail_msg("%s: byte %zu is %d before use", GETTERS[g].name, i, full[i]);
        /* A prefix: the first field after the size only. */
        memset(part, CANARY, sizeof part);
        set_size(part, 2 * sizeof(size_t));
        assert_int_equal(GETTERS[g].get(sys, part), CDYN_OK);
        assert_int_equal(size_of(part), 2 * sizeof(size_t));
        assert_memory_equal(part + sizeof(size_t), full + sizeof(size_t), sizeof(size_t));
        for (size_t i = 2 * sizeof(size_t); i < n + 16; i++)
            assert_int_equal(part[i], CANARY);
        /* Larger than the struct (a newer caller): the bytes beyond stay. */
        memset(part, CANARY, sizeof part);
        set_size(part, n + 16);
        assert_int_equal(GETTERS[g].get(sys, part), CDYN_OK);
        assert_int_equal(size_of(part), n + 16);
        assert_memory_equal(part + sizeof(size_t), full + sizeof(size_t), n - sizeof(size_t));
        for (size_t i = n; i < n + 16; i++)
            assert_int_equal(part[i], CANARY);
        /* Refused: an unset size, NULL; nothing written. */
        for (size_t bad = 0; bad < sizeof(size_t); bad += 4) {
            memset(part, CANARY, sizeof part);
            set_size(part, bad);
            assert_int_equal(GETTERS[g].get(sys, part), CDYN_ERR_INVALID_ARGUMENT);
            assert_named(sys, GETTERS[g].name);
            for (size_t i = sizeof(size_t); i < n; i++)
                assert_int_equal(part[i], CANARY);
        }
        assert_int_equal(GETTERS[g].get(sys, NULL), CDYN_ERR_INVALID_ARGUMENT);
        assert_named(sys, GETTERS[g].name);
        assert_int_equal(GETTERS[g].get(NULL, full), CDYN_ERR_INVALID_ARGUMENT);
    }
}

static void test_getter_size_rules(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    check_getter_rules(sys, true);
    /* After use of everything: a chain under every integrator, projected. */
    cdyn_particle p[4];
    assert_int_equal(ts_standard_chain(sys, 3, p, NULL), CDYN_OK);
    cdyn_projection_options po;
    cdyn_projection_options_init(&po);
    po.enabled = 1;
    assert_int_equal(cdyn_system_set_projection_options(sys, &po), CDYN_OK);
    const cdyn_integrator integ[] = {CDYN_INTEGRATOR_RK45, CDYN_INTEGRATOR_BACKWARD_EULER,
                                     CDYN_INTEGRATOR_RATTLE};
    for (size_t k = 0; k < 3; k++) {
        assert_int_equal(cdyn_system_set_integrator(sys, integ[k]), CDYN_OK);
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    }
    check_getter_rules(sys, false);
    cdyn_rk45_stats rs = {.size = sizeof rs};
    cdyn_newton_stats ns = {.size = sizeof ns};
    cdyn_solver_stats ss = {.size = sizeof ss};
    cdyn_projection_stats ps = {.size = sizeof ps};
    assert_int_equal(cdyn_system_get_rk45_stats(sys, &rs), CDYN_OK);
    assert_int_equal(cdyn_system_get_newton_stats(sys, &ns), CDYN_OK);
    assert_int_equal(cdyn_system_get_solver_stats(sys, &ss), CDYN_OK);
    assert_int_equal(cdyn_system_get_projection_stats(sys, &ps), CDYN_OK);
    assert_true(rs.steps == 1 && rs.accepted >= 1 && ns.steps == 1 && ss.solves > 0 &&
                ps.projections > 0);
    cdyn_system_destroy(sys);
}

/* ---- each options struct: defaults, round trip, refusals ------------ */

static void test_rk45_options(void **state)
{
    (void)state;
    cdyn_system *sys = make(3);
    cdyn_rk45_options d, o, got = {.size = sizeof got};
    cdyn_rk45_options_init(&d);
    cdyn_rk45_options_init(NULL); /* a no-op */
    assert_int_equal(d.size, sizeof d);
    assert_true(d.abs_tol == 1e-9 && d.rel_tol == 1e-9 && d.initial_step == 0 &&
                d.max_step == 0);
    assert_int_equal(cdyn_system_get_rk45_options(sys, &got), CDYN_OK);
    assert_true(got.abs_tol == d.abs_tol && got.rel_tol == d.rel_tol &&
                got.initial_step == d.initial_step && got.max_step == d.max_step);
    o = d;
    o.abs_tol = 2e-8;
    o.rel_tol = 0;
    o.initial_step = 1e-4;
    o.max_step = 0.5;
    assert_int_equal(cdyn_system_set_rk45_options(sys, &o), CDYN_OK);
    assert_int_equal(cdyn_system_get_rk45_options(sys, &got), CDYN_OK);
    assert_true(got.abs_tol == 2e-8 && got.rel_tol == 0 && got.initial_step == 1e-4 &&
                got.max_step == 0.5);
    /* Refusals: named, nothing changed. */
    cdyn_rk45_options bad[8];
    for (int i = 0; i < 8; i++)
        bad[i] = d;
    bad[0].abs_tol = -1;
    bad[1].rel_tol = NAN;
    bad[2].abs_tol = 0, bad[2].rel_tol = 0;
    bad[3].initial_step = -1e-3;
    bad[4].initial_step = INFINITY;
    bad[5].max_step = NAN;
    bad[6].size = sizeof d - 8;
    bad[7].size = sizeof d + 8;
    for (int i = 0; i < 8; i++) {
        assert_int_equal(cdyn_system_set_rk45_options(sys, &bad[i]), CDYN_ERR_INVALID_ARGUMENT);
        assert_named(sys, "set_rk45_options");
        assert_int_equal(cdyn_system_get_rk45_options(sys, &got), CDYN_OK);
        assert_true(got.abs_tol == 2e-8 && got.initial_step == 1e-4 && got.max_step == 0.5);
    }
    assert_int_equal(cdyn_system_set_rk45_options(sys, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "set_rk45_options");
    assert_int_equal(cdyn_system_set_rk45_options(NULL, &o), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_system_destroy(sys);
}

static void test_newton_options(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_newton_options d, o, got = {.size = sizeof got};
    cdyn_newton_options_init(&d);
    cdyn_newton_options_init(NULL);
    assert_int_equal(d.size, sizeof d);
    assert_true(d.tolerance == 1e-10 && d.max_iterations == 20);
    assert_int_equal(cdyn_system_get_newton_options(sys, &got), CDYN_OK);
    assert_true(got.tolerance == 1e-10 && got.max_iterations == 20);
    o = d;
    o.tolerance = 1e-12;
    o.max_iterations = 7;
    assert_int_equal(cdyn_system_set_newton_options(sys, &o), CDYN_OK);
    assert_int_equal(cdyn_system_get_newton_options(sys, &got), CDYN_OK);
    assert_true(got.tolerance == 1e-12 && got.max_iterations == 7);
    cdyn_newton_options bad[6];
    for (int i = 0; i < 6; i++)
        bad[i] = d;
    bad[0].tolerance = 1e-16;
    bad[1].tolerance = 0.2;
    bad[2].max_iterations = 0;
    bad[3].max_iterations = 1001;
    bad[4].size = 0;
    bad[5].size = sizeof d + 1;
    for (int i = 0; i < 6; i++) {
        assert_int_equal(cdyn_system_set_newton_options(sys, &bad[i]),
                         CDYN_ERR_INVALID_ARGUMENT);
        assert_named(sys, "set_newton_options");
        assert_int_equal(cdyn_system_get_newton_options(sys, &got), CDYN_OK);
        assert_true(got.tolerance == 1e-12 && got.max_iterations == 7);
    }
    assert_int_equal(cdyn_system_set_newton_options(sys, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "set_newton_options");
    cdyn_system_destroy(sys);
}

static void test_solver_options(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_solver_options d, o, got = {.size = sizeof got};
    cdyn_solver_options_init(&d);
    cdyn_solver_options_init(NULL);
    assert_int_equal(d.size, sizeof d);
    assert_true(d.solver == CDYN_SOLVER_DIRECT && d.ks == 100 && d.kd == 20 &&
                d.cg_tolerance == 1e-10 && d.cg_max_iterations == 1000);
    /* Before any constraint: the defaults, and nothing allocated to say so. */
    assert_int_equal(cdyn_system_get_solver_options(sys, &got), CDYN_OK);
    assert_true(got.solver == d.solver && got.ks == d.ks && got.kd == d.kd &&
                got.cg_tolerance == d.cg_tolerance &&
                got.cg_max_iterations == d.cg_max_iterations);
    o = d;
    o.solver = CDYN_SOLVER_CG;
    o.ks = 0;
    o.kd = 4.5;
    o.cg_tolerance = 1e-13;
    o.cg_max_iterations = 77;
    assert_int_equal(cdyn_system_set_solver_options(sys, &o), CDYN_OK);
    assert_int_equal(cdyn_system_get_solver_options(sys, &got), CDYN_OK);
    assert_true(got.solver == CDYN_SOLVER_CG && got.ks == 0 && got.kd == 4.5 &&
                got.cg_tolerance == 1e-13 && got.cg_max_iterations == 77);
    cdyn_solver_options bad[8];
    for (int i = 0; i < 8; i++)
        bad[i] = d;
    bad[0].solver = (cdyn_constraint_solver)3;
    bad[1].ks = -1;
    bad[2].kd = INFINITY;
    bad[3].cg_tolerance = 0;
    bad[4].cg_tolerance = NAN;
    bad[5].cg_max_iterations = 0;
    bad[6].size = sizeof d - 1;
    bad[7].size = 0;
    for (int i = 0; i < 8; i++) {
        assert_int_equal(cdyn_system_set_solver_options(sys, &bad[i]),
                         CDYN_ERR_INVALID_ARGUMENT);
        assert_named(sys, "set_solver_options");
        assert_int_equal(cdyn_system_get_solver_options(sys, &got), CDYN_OK);
        assert_true(got.solver == CDYN_SOLVER_CG && got.kd == 4.5 && got.cg_max_iterations == 77);
    }
    /* The solver chosen is the one that solves: CG reports iterations
     * (from the second step on: the chain starts level at rest, where the
     * multipliers are zero). */
    cdyn_particle p[4];
    assert_int_equal(ts_standard_chain(sys, 3, p, NULL), CDYN_OK);
    for (int s = 0; s < 5; s++)
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    cdyn_solver_stats ss = {.size = sizeof ss};
    assert_int_equal(cdyn_system_get_solver_stats(sys, &ss), CDYN_OK);
    assert_true(ss.iterations > 0);
    o.solver = CDYN_SOLVER_DIRECT;
    assert_int_equal(cdyn_system_set_solver_options(sys, &o), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    assert_int_equal(cdyn_system_get_solver_stats(sys, &ss), CDYN_OK);
    assert_true(ss.iterations == 0 && ss.factor_nonzeros > 0);
    assert_int_equal(cdyn_system_set_solver_options(sys, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "set_solver_options");
    cdyn_system_destroy(sys);
}

static void test_projection_options(void **state)
{
    (void)state;
    cdyn_system *sys = make(3);
    cdyn_projection_options d, got = {.size = sizeof got};
    cdyn_projection_options_init(&d);
    assert_int_equal(cdyn_system_get_projection_options(sys, &got), CDYN_OK);
    assert_true(got.enabled == 0 && got.method == CDYN_PROJECTION_NEWTON &&
                got.position_tolerance == 1e-10 && got.max_iterations == 1000);
    cdyn_projection_options bad = d;
    bad.size = sizeof d + 8;
    assert_int_equal(cdyn_system_set_projection_options(sys, &bad), CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "set_projection_options");
    bad = d;
    bad.velocity_tolerance = 1.0;
    assert_int_equal(cdyn_system_set_projection_options(sys, &bad), CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "set_projection_options");
    assert_int_equal(cdyn_system_get_projection_options(sys, &got), CDYN_OK);
    assert_true(got.velocity_tolerance == 1e-10);
    cdyn_system_destroy(sys);
}

/* ---- setters from a callback ----------------------------------------- */

static int meddle(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                  const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)n, (void)dim, (void)x, (void)v, (void)f;
    cdyn_system *mut = user;
    cdyn_rk45_options ro;
    cdyn_newton_options no;
    cdyn_solver_options so;
    cdyn_projection_options po;
    cdyn_rk45_options_init(&ro);
    cdyn_newton_options_init(&no);
    cdyn_solver_options_init(&so);
    cdyn_projection_options_init(&po);
    bool busy = cdyn_system_set_rk45_options(mut, &ro) == CDYN_ERR_BUSY &&
                cdyn_system_set_newton_options(mut, &no) == CDYN_ERR_BUSY &&
                cdyn_system_set_solver_options(mut, &so) == CDYN_ERR_BUSY &&
                cdyn_system_set_projection_options(mut, &po) == CDYN_ERR_BUSY;
    /* Reading them is allowed. */
    ro.size = sizeof ro;
    busy = busy && cdyn_system_get_rk45_options(mut, &ro) == CDYN_OK;
    return busy ? 0 : 1;
}

static void test_setters_busy_in_step(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_particle p;
    cdyn_force f;
    assert_int_equal(cdyn_particle_add(sys, 1, (double[]){0, 0}, NULL, &p), CDYN_OK);
    assert_int_equal(cdyn_force_add_callback(sys, meddle, sys, false, &f), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    cdyn_system_destroy(sys);
}

/* ---- what the RK45 options do ---------------------------------------- */

typedef struct pulse {
    double t0, width, force;
} pulse;

/* A force on index 0 along x during [t0, t0 + width) only. */
static int pulse_fn(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                    const double *v, double *f, void *user)
{
    (void)sys, (void)n, (void)dim, (void)x, (void)v;
    const pulse *p = user;
    if (t >= p->t0 && t < p->t0 + p->width)
        f[0] += p->force;
    return 0;
}

/* Velocity after one call of dt = 1 over a pulse of impulse F w = 0.02. */
static double pulse_velocity(double max_step, cdyn_rk45_stats *stats)
{
    cdyn_system *sys = make(2);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK45), CDYN_OK);
    static pulse pl = {0.5, 0.01, 2.0};
    cdyn_particle p;
    cdyn_force f;
    assert_int_equal(cdyn_particle_add(sys, 1, (double[]){0, 0}, NULL, &p), CDYN_OK);
    assert_int_equal(cdyn_force_add_callback(sys, pulse_fn, &pl, false, &f), CDYN_OK);
    cdyn_rk45_options o;
    cdyn_rk45_options_init(&o);
    o.max_step = max_step;
    assert_int_equal(cdyn_system_set_rk45_options(sys, &o), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1.0), CDYN_OK);
    double v[2];
    assert_int_equal(cdyn_particle_get_velocity(sys, p, v), CDYN_OK);
    stats->size = sizeof *stats;
    assert_int_equal(cdyn_system_get_rk45_stats(sys, stats), CDYN_OK);
    cdyn_system_destroy(sys);
    return v[0];
}

/* With no bound the controller takes dt = 1 at once, none of its stages
 * falls inside the pulse, and the impulse is lost; with max_step = 1e-3
 * every step is at most that long and the impulse F w arrives to within
 * the pulse's edges (one step each). */
static void test_rk45_max_step_resolves_a_pulse(void **state)
{
    (void)state;
    cdyn_rk45_stats s;
    double v = pulse_velocity(0, &s);
    assert_true(v == 0.0);
    assert_true(s.accepted == 1 && s.last_step == 1.0);
    v = pulse_velocity(1e-3, &s);
    assert_near(v, 0.02, 2.0 * 2.0 * 1e-3);
    assert_true(s.accepted >= 1000);
    assert_true(s.last_step <= 1e-3);
    assert_true(s.next_step > 0 && s.steps == 1 && s.failed_steps == 0);
}

/* initial_step starts the controller small after every set and every
 * selection of RK45; on a problem with no error it then grows fivefold per
 * step (0.01, 0.05, 0.25, then the rest of dt = 1: four steps). */
static void test_rk45_initial_step(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_particle p;
    assert_int_equal(cdyn_particle_add(sys, 1, (double[]){0, 0}, (double[]){1, 0}, &p), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK45), CDYN_OK);
    cdyn_rk45_options o;
    cdyn_rk45_options_init(&o);
    o.initial_step = 0.01;
    assert_int_equal(cdyn_system_set_rk45_options(sys, &o), CDYN_OK);
    cdyn_rk45_stats s = {.size = sizeof s};
    assert_int_equal(cdyn_system_get_rk45_stats(sys, &s), CDYN_OK);
    assert_true(s.next_step == 0); /* afresh */
    assert_int_equal(cdyn_system_step(sys, 1.0), CDYN_OK);
    assert_int_equal(cdyn_system_get_rk45_stats(sys, &s), CDYN_OK);
    assert_int_equal(s.accepted, 4);
    assert_near(s.last_step, 1.0 - 0.31, 1e-12);
    /* The controller keeps its step across calls ... */
    assert_int_equal(cdyn_system_step(sys, 1.0), CDYN_OK);
    assert_int_equal(cdyn_system_get_rk45_stats(sys, &s), CDYN_OK);
    assert_int_equal(s.accepted, 5);
    /* ... and starts afresh when RK45 is selected again. */
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK45), CDYN_OK);
    assert_int_equal(cdyn_system_get_rk45_stats(sys, &s), CDYN_OK);
    assert_true(s.next_step == 0);
    assert_int_equal(cdyn_system_step(sys, 1.0), CDYN_OK);
    assert_int_equal(cdyn_system_get_rk45_stats(sys, &s), CDYN_OK);
    assert_int_equal(s.accepted, 9);
    assert_int_equal(s.steps, 3);
    double x[2];
    assert_int_equal(cdyn_particle_get_position(sys, p, x), CDYN_OK);
    assert_near(x[0], 3.0, 1e-14);
    cdyn_system_destroy(sys);
}

static int fail_fn(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                   const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)n, (void)dim, (void)x, (void)v, (void)f, (void)user;
    return 1;
}

/* A failed RK45 step counts as failed, its internal steps do not count. */
static void test_rk45_failed_steps(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_particle p;
    cdyn_force f;
    assert_int_equal(cdyn_particle_add(sys, 1, (double[]){0, 0}, NULL, &p), CDYN_OK);
    assert_int_equal(cdyn_force_add_callback(sys, fail_fn, NULL, false, &f), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK45), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 0.1), CDYN_ERR_CALLBACK);
    cdyn_rk45_stats s = {.size = sizeof s};
    assert_int_equal(cdyn_system_get_rk45_stats(sys, &s), CDYN_OK);
    assert_true(s.steps == 1 && s.failed_steps == 1 && s.accepted == 0 && s.rejected == 0);
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_getter_size_rules),
        cmocka_unit_test(test_rk45_options),
        cmocka_unit_test(test_newton_options),
        cmocka_unit_test(test_solver_options),
        cmocka_unit_test(test_projection_options),
        cmocka_unit_test(test_setters_busy_in_step),
        cmocka_unit_test(test_rk45_max_step_resolves_a_pulse),
        cmocka_unit_test(test_rk45_initial_step),
        cmocka_unit_test(test_rk45_failed_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
