/* Out of memory: a scenario (create a system with an allocator, add
 * particles, springs, gravity, drag and a callback force, apply forces to
 * particles, step with every integrator including RK45, remove and re-add
 * particles, grow past the capacity again and step) is run once with an
 * allocator that never fails to count its allocations, then once for every
 * N up to that count with an allocator that fails the Nth allocation. For
 * every N:
 *  - the call that met the failure returns CDYN_ERR_NO_MEMORY, and every
 *    call that returns it met the failure;
 *  - that call changed nothing that the public API can see (particles,
 *    bulk state, applied forces, clock, integrator, RK45 counters,
 *    energies, which handles are valid), and its message is set;
 *  - retrying the same call with allocation allowed succeeds, and the
 *    scenario then ends in exactly (bit for bit) the state of the unfailed
 *    run;
 *  - after destroy no byte is live and allocs == frees + failed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define MAX_P 40
#define MAX_F 64
#define MAX_OPS 256

typedef enum op_kind {
    OP_CREATE,
    OP_ADD_PARTICLE,   /* a: particle number */
    OP_FIX_PARTICLE,   /* a: particle number */
    OP_ADD_SPRING,     /* a, b: particle numbers */
    OP_ADD_GRAVITY,
    OP_ADD_DRAG,
    OP_ADD_CALLBACK,
    OP_SET_INTEGRATOR, /* a: cdyn_integrator */
    OP_STEP,
    OP_REMOVE_PARTICLE, /* a: particle number */
    OP_REMOVE_FORCE,    /* a: force number */
    OP_APPLY_FORCE      /* a: particle number, b: 0 held, 1 for the next step */
} op_kind;

typedef struct op {
    op_kind kind;
    int a, b;
} op;

typedef struct scenario {
    int dim;
    cdyn_system *sys;
    cdyn_particle p[MAX_P];
    cdyn_force f[MAX_F];
    int nf;
    op ops[MAX_OPS];
    int n_ops;
    unsigned long callback_calls;
} scenario;

/* A user force: a soft nonlinear pull towards the origin plus a push that
 * grows with time, added (never overwritten) for every live index. */
static int pull_force(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                      const double *v, double *f, void *user)
{
    scenario *s = user;
    (void)v;
    s->callback_calls++;
    if (cdyn_system_get_dimension(sys) != dim)
        return 1;
    for (size_t i = 0; i < n; i++) {
        const double *xi = x + i * (size_t)dim;
        double r2 = 0;
        for (int k = 0; k < dim; k++)
            r2 += xi[k] * xi[k];
        for (int k = 0; k < dim; k++)
            f[i * (size_t)dim + (size_t)k] -= 0.01 * r2 * xi[k];
        f[i * (size_t)dim] += 0.05 * t;
    }
    return 0;
}

static void push(scenario *s, op_kind kind, int a, int b)
{
    assert_true(s->n_ops < MAX_OPS);
    s->ops[s->n_ops].kind = kind;
    s->ops[s->n_ops].a = a;
    s->ops[s->n_ops].b = b;
    s->n_ops++;
}

static void steps(scenario *s, cdyn_integrator integ, int n)
{
    push(s, OP_SET_INTEGRATOR, (int)integ, 0);
    for (int i = 0; i < n; i++)
        push(s, OP_STEP, 0, 0);
}

/* The scenario: enough particles and forces that both pools grow several
 * times, every integrator (the workspace grows with each richer one and
 * with the particle capacity), and removal with slot reuse. */
static void build_ops(scenario *s)
{
    s->n_ops = 0;
    push(s, OP_CREATE, 0, 0);
    for (int i = 0; i < 20; i++)
        push(s, OP_ADD_PARTICLE, i, 0);
    push(s, OP_FIX_PARTICLE, 0, 0);
    push(s, OP_ADD_GRAVITY, 0, 0);
    for (int i = 0; i + 1 < 20; i++)
        push(s, OP_ADD_SPRING, i, i + 1);
    push(s, OP_ADD_DRAG, 0, 0);
    for (int i = 0; i + 3 < 20; i += 2)
        push(s, OP_ADD_SPRING, i, i + 3);
    push(s, OP_ADD_CALLBACK, 0, 0);
    /* The first applied force allocates the accumulators. */
    push(s, OP_APPLY_FORCE, 3, 0);
    push(s, OP_APPLY_FORCE, 8, 1);
    steps(s, CDYN_INTEGRATOR_EXPLICIT_EULER, 3);
    steps(s, CDYN_INTEGRATOR_SYMPLECTIC_EULER, 3);
    steps(s, CDYN_INTEGRATOR_VELOCITY_VERLET, 3);
    steps(s, CDYN_INTEGRATOR_RK4, 3);
    steps(s, CDYN_INTEGRATOR_RK45, 3);
    /* Removal (with its springs) and reuse of the freed slots. */
    push(s, OP_REMOVE_PARTICLE, 5, 0);
    push(s, OP_REMOVE_FORCE, 1, 0); /* the first spring */
    push(s, OP_ADD_PARTICLE, 20, 0);
    push(s, OP_ADD_SPRING, 4, 20);
    push(s, OP_ADD_SPRING, 20, 6);
    steps(s, CDYN_INTEGRATOR_VELOCITY_VERLET, 2);
    push(s, OP_APPLY_FORCE, 20, 1);
    /* Past the particle capacity again: the workspace and the applied
     * forces' accumulators must follow. */
    for (int i = 21; i < 34; i++) {
        push(s, OP_ADD_PARTICLE, i, 0);
        push(s, OP_ADD_SPRING, i - 1, i);
    }
    steps(s, CDYN_INTEGRATOR_RK45, 2);
    steps(s, CDYN_INTEGRATOR_RK4, 2);
    steps(s, CDYN_INTEGRATOR_EXPLICIT_EULER, 2);
}

static void initial_state(int dim, int i, double pos[3], double vel[3])
{
    double di = (double)i;
    pos[0] = 0.5 * di;
    pos[1] = 0.1 * (double)(i % 3);
    pos[2] = dim == 3 ? 0.05 * (double)(i % 5) : 0.0;
    vel[0] = 0.0;
    vel[1] = 0.01 * (double)(i % 4);
    vel[2] = dim == 3 ? -0.02 * (double)(i % 2) : 0.0;
}

static cdyn_status run_op(scenario *s, const op *o, const cdyn_allocator *alloc)
{
    double pos[3], vel[3];
    cdyn_force f;
    cdyn_status st;
    switch (o->kind) {
    case OP_CREATE:
        st = cdyn_system_create_with_allocator(s->dim, alloc, &s->sys);
        if (st)
            assert_null(s->sys);
        return st;
    case OP_ADD_PARTICLE:
        initial_state(s->dim, o->a, pos, vel);
        return cdyn_particle_add(s->sys, 1.0 + 0.01 * (double)o->a, pos, vel, &s->p[o->a]);
    case OP_FIX_PARTICLE:
        return cdyn_particle_set_fixed(s->sys, s->p[o->a], true);
    case OP_ADD_SPRING:
        st = cdyn_force_add_spring(s->sys, s->p[o->a], s->p[o->b], 40.0 + (double)o->a, 0.3,
                                   0.45, &f);
        break;
    case OP_ADD_GRAVITY: {
        const double g[3] = {0.0, -9.81, 0.5};
        st = cdyn_force_add_gravity(s->sys, g, &f);
        break;
    }
    case OP_ADD_DRAG:
        st = cdyn_force_add_drag(s->sys, 0.05, &f);
        break;
    case OP_ADD_CALLBACK:
        st = cdyn_force_add_callback(s->sys, pull_force, s, false, &f);
        break;
    case OP_SET_INTEGRATOR:
        return cdyn_system_set_integrator(s->sys, (cdyn_integrator)o->a);
    case OP_STEP:
        return cdyn_system_step(s->sys, 2e-3);
    case OP_REMOVE_PARTICLE:
        st = cdyn_particle_remove(s->sys, s->p[o->a]);
        if (!st)
            s->p[o->a] = 0;
        return st;
    case OP_REMOVE_FORCE:
        st = cdyn_force_remove(s->sys, s->f[o->a]);
        if (!st)
            s->f[o->a] = 0;
        return st;
    case OP_APPLY_FORCE: {
        const double force[3] = {0.5, -0.25 * (double)o->a, 0.125};
        return cdyn_particle_apply_force(s->sys, s->p[o->a], force,
                                         o->b ? CDYN_APPLY_NEXT_STEP : CDYN_APPLY_UNTIL_CLEARED);
    }
    default:
        fail_msg("unknown op %d", (int)o->kind);
        return CDYN_ERR_INVALID_ARGUMENT;
    }
    if (!st) {
        assert_true(s->nf < MAX_F);
        s->f[s->nf++] = f;
    }
    return st;
}

/* Everything the public API shows of a system. */
typedef struct view {
    size_t count, index_count;
    double x[3 * MAX_P], v[3 * MAX_P], applied[3 * MAX_P];
    double time, pe, ke;
    cdyn_integrator integrator;
    uint64_t accepted, rejected;
    bool p_valid[MAX_P], f_valid[MAX_F];
    size_t p_index[MAX_P];
} view;

static void look(const scenario *s, view *w)
{
    memset(w, 0, sizeof *w);
    const cdyn_system *sys = s->sys;
    assert_int_equal(cdyn_system_get_particle_count(sys, &w->count), CDYN_OK);
    assert_int_equal(cdyn_system_get_index_count(sys, &w->index_count), CDYN_OK);
    assert_true(w->index_count <= MAX_P);
    assert_int_equal(cdyn_system_get_positions(sys, w->x, 3 * MAX_P), CDYN_OK);
    assert_int_equal(cdyn_system_get_velocities(sys, w->v, 3 * MAX_P), CDYN_OK);
    assert_int_equal(cdyn_system_get_applied_forces(sys, w->applied, 3 * MAX_P), CDYN_OK);
    assert_int_equal(cdyn_system_get_time(sys, &w->time), CDYN_OK);
    assert_int_equal(cdyn_system_get_potential_energy(sys, &w->pe), CDYN_OK);
    assert_int_equal(cdyn_system_get_kinetic_energy(sys, &w->ke), CDYN_OK);
    assert_int_equal(cdyn_system_get_integrator(sys, &w->integrator), CDYN_OK);
    cdyn_rk45_stats rs = {.size = sizeof rs};
    assert_int_equal(cdyn_system_get_rk45_stats(sys, &rs), CDYN_OK);
    w->accepted = rs.accepted;
    w->rejected = rs.rejected;
    for (int i = 0; i < MAX_P; i++) {
        w->p_valid[i] = cdyn_particle_is_valid(sys, s->p[i]);
        if (w->p_valid[i])
            assert_int_equal(cdyn_particle_get_index(sys, s->p[i], &w->p_index[i]), CDYN_OK);
    }
    for (int i = 0; i < MAX_F; i++)
        w->f_valid[i] = cdyn_force_is_valid(sys, s->f[i]);
}

static void assert_same_view(const view *a, const view *b)
{
    assert_int_equal(a->count, b->count);
    assert_int_equal(a->index_count, b->index_count);
    assert_memory_equal(a->x, b->x, sizeof a->x);
    assert_memory_equal(a->v, b->v, sizeof a->v);
    assert_memory_equal(a->applied, b->applied, sizeof a->applied);
    assert_memory_equal(&a->time, &b->time, sizeof a->time);
    assert_memory_equal(&a->pe, &b->pe, sizeof a->pe);
    assert_memory_equal(&a->ke, &b->ke, sizeof a->ke);
    assert_int_equal(a->integrator, b->integrator);
    assert_int_equal(a->accepted, b->accepted);
    assert_int_equal(a->rejected, b->rejected);
    assert_memory_equal(a->p_valid, b->p_valid, sizeof a->p_valid);
    assert_memory_equal(a->f_valid, b->f_valid, sizeof a->f_valid);
    assert_memory_equal(a->p_index, b->p_index, sizeof a->p_index);
}

typedef struct outcome {
    view final;
    size_t allocs;         /* allocations the run made */
    int failed_op;         /* index of the op that met the failure, or -1 */
    unsigned long callback_calls;
} outcome;

/* Runs the scenario with the Nth allocation failing (0: none), checking
 * every property listed at the top; fills *out with the final state. */
static void run_scenario(int dim, size_t fail_at, outcome *out)
{
    static scenario s; /* large: keep it off the stack */
    memset(&s, 0, sizeof s);
    s.dim = dim;
    build_ops(&s);

    ts_counting_alloc ca;
    memset(&ca, 0, sizeof ca);
    ca.fail_at = fail_at;
    cdyn_allocator alloc = ts_counting_allocator(&ca);
    out->failed_op = -1;

    static view before, after;
    for (int k = 0; k < s.n_ops; k++) {
        const op *o = &s.ops[k];
        bool have_sys = s.sys != NULL;
        if (have_sys)
            look(&s, &before);
        int failed_before = ca.failed;
        cdyn_status st = run_op(&s, o, &alloc);
        bool met_failure = ca.failed && !failed_before;
        if (met_failure || st == CDYN_ERR_NO_MEMORY) {
            if (!met_failure || st != CDYN_ERR_NO_MEMORY)
                fail_msg("dim %d, fail_at %zu: op %d (kind %d) returned %s, met failure: %d",
                         dim, fail_at, k, (int)o->kind, cdyn_status_name(st), (int)met_failure);
            out->failed_op = k;
            if (have_sys) {
                look(&s, &after);
                assert_same_view(&before, &after);
                assert_true(strlen(cdyn_system_last_error(s.sys)) > 0);
            } else {
                assert_null(s.sys);
                assert_int_equal(ca.live_bytes, 0);
            }
            /* Retry with allocation allowed. */
            ca.fail_at = 0;
            st = run_op(&s, o, &alloc);
        }
        if (st != CDYN_OK)
            fail_msg("dim %d, fail_at %zu: op %d (kind %d) returned %s: %s", dim, fail_at, k,
                     (int)o->kind, cdyn_status_name(st), cdyn_system_last_error(s.sys));
    }
    look(&s, &out->final);
    out->allocs = ca.allocs;
    out->callback_calls = s.callback_calls;

    cdyn_system_destroy(s.sys);
    assert_int_equal(ca.live_bytes, 0);
    assert_int_equal(ca.allocs, ca.frees + (size_t)ca.failed);
}

static void check_every_n(int dim)
{
    static outcome ref, run;
    run_scenario(dim, 0, &ref);
    assert_int_equal(ref.failed_op, -1);
    /* The scenario is meant to allocate on many different calls. */
    assert_true(ref.allocs > 40);
    print_message("dim %d: %zu allocations, %lu callback calls per run\n", dim, ref.allocs,
                  ref.callback_calls);
    for (size_t n = 1; n <= ref.allocs; n++) {
        run_scenario(dim, n, &run);
        /* The first n - 1 allocations are the unfailed run's, so the nth
         * exists and fails. */
        assert_true(run.failed_op >= 0);
        assert_same_view(&ref.final, &run.final);
    }
    /* One past the last allocation: nothing fails. */
    run_scenario(dim, ref.allocs + 1, &run);
    assert_int_equal(run.failed_op, -1);
    assert_same_view(&ref.final, &run.final);
}

static void test_every_allocation_2d(void **state)
{
    (void)state;
    check_every_n(2);
}

static void test_every_allocation_3d(void **state)
{
    (void)state;
    check_every_n(3);
}

/* The first allocation is the system itself. */
static void test_create_fails_cleanly(void **state)
{
    (void)state;
    ts_counting_alloc ca;
    memset(&ca, 0, sizeof ca);
    ca.fail_at = 1;
    cdyn_allocator alloc = ts_counting_allocator(&ca);
    cdyn_system *sys = (cdyn_system *)&ca; /* any non-NULL value */
    assert_int_equal(cdyn_system_create_with_allocator(3, &alloc, &sys), CDYN_ERR_NO_MEMORY);
    assert_null(sys);
    assert_int_equal(ca.allocs, 1);
    assert_int_equal(ca.live_bytes, 0);
    assert_int_equal(ca.frees, 0);
}

/* The failing call also fails when the allocator keeps failing: nothing is
 * retried inside the library, and the system keeps working afterwards. */
static void test_allocator_always_failing_after_create(void **state)
{
    (void)state;
    ts_counting_alloc ca;
    memset(&ca, 0, sizeof ca);
    cdyn_allocator alloc = ts_counting_allocator(&ca);
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create_with_allocator(2, &alloc, &sys), CDYN_OK);
    const double pos[2] = {1, 2};
    cdyn_particle p;
    for (int attempt = 0; attempt < 3; attempt++) {
        ca.fail_at = ca.allocs + 1;
        assert_int_equal(cdyn_particle_add(sys, 1.0, pos, NULL, &p), CDYN_ERR_NO_MEMORY);
        ca.failed = 0;
    }
    size_t n;
    assert_int_equal(cdyn_system_get_particle_count(sys, &n), CDYN_OK);
    assert_int_equal(n, 0);
    ca.fail_at = 0;
    assert_int_equal(cdyn_particle_add(sys, 1.0, pos, NULL, &p), CDYN_OK);
    assert_true(cdyn_particle_is_valid(sys, p));
    /* The step's workspace fails the same way and the clock stays put. */
    ca.fail_at = ca.allocs + 1;
    assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_ERR_NO_MEMORY);
    double t;
    assert_int_equal(cdyn_system_get_time(sys, &t), CDYN_OK);
    assert_true(t == 0.0);
    ca.fail_at = 0;
    assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    assert_int_equal(cdyn_system_get_time(sys, &t), CDYN_OK);
    assert_true(t == 0.01);
    cdyn_system_destroy(sys);
    assert_int_equal(ca.live_bytes, 0);
    assert_int_equal(ca.allocs, ca.frees + 4);
}

/* The calls that first allocate the constraint store, the projection's
 * workspace or a pair set's exclusion lists say which call ran out of
 * memory: each failure of each of their allocations gives a message that
 * starts with the call's name, and a retry succeeds. */
typedef enum { M_SOLVER, M_PROJECTION, M_DISTANCE, M_BONDED, M_EXCLUSIONS, M_COUNT } msg_call;

static cdyn_status call_one(cdyn_system *sys, msg_call which, const cdyn_particle *p,
                            cdyn_force pairs)
{
    switch (which) {
    case M_SOLVER: {
        cdyn_solver_options o;
        cdyn_solver_options_init(&o);
        return cdyn_system_set_solver_options(sys, &o);
    }
    case M_PROJECTION: {
        cdyn_projection_options o;
        cdyn_projection_options_init(&o);
        o.enabled = true;
        return cdyn_system_set_projection_options(sys, &o);
    }
    case M_DISTANCE: {
        cdyn_constraint c;
        return cdyn_constraint_add_distance(sys, p[0], p[1], 1.0, &c);
    }
    case M_BONDED:
        return cdyn_force_set_pair_exclude_bonded(sys, pairs, 1);
    default:
        return cdyn_force_add_pair_exclusions(sys, pairs, p + 1, 1);
    }
}

static void test_out_of_memory_names_the_call(void **state)
{
    (void)state;
    static const char *const names[M_COUNT] = {
        "set_solver_options", "set_projection_options", "constraint_add_distance",
        "force_set_pair_exclude_bonded", "force_add_pair_exclusions"};
    for (int which = 0; which < M_COUNT; which++) {
        for (size_t n = 1;; n++) {
            ts_counting_alloc ca;
            memset(&ca, 0, sizeof ca);
            cdyn_allocator alloc = ts_counting_allocator(&ca);
            cdyn_system *sys;
            assert_int_equal(cdyn_system_create_with_allocator(2, &alloc, &sys), CDYN_OK);
            cdyn_particle p[3];
            for (int i = 0; i < 3; i++)
                assert_int_equal(cdyn_particle_add(sys, 1, (double[]){i, 0}, NULL, &p[i]),
                                 CDYN_OK);
            cdyn_pair_params pp;
            assert_int_equal(cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ), CDYN_OK);
            cdyn_force pairs;
            assert_int_equal(cdyn_force_add_pair_set(sys, &pp, p, 3, &pairs), CDYN_OK);
            cdyn_force spring;
            assert_int_equal(cdyn_force_add_spring(sys, p[0], p[1], 1, 0, 1, &spring), CDYN_OK);
            ca.fail_at = ca.allocs + n;
            cdyn_status st = call_one(sys, (msg_call)which, p, pairs);
            if (st == CDYN_OK && !ca.failed) {
                cdyn_system_destroy(sys);
                break; /* past the call's last allocation */
            }
            assert_int_equal(st, CDYN_ERR_NO_MEMORY);
            const char *msg = cdyn_system_last_error(sys);
            if (strncmp(msg, names[which], strlen(names[which])) != 0)
                fail_msg("allocation %zu of %s failed with the message \"%s\"", n,
                         names[which], msg);
            ca.fail_at = 0;
            assert_int_equal(call_one(sys, (msg_call)which, p, pairs), CDYN_OK);
            cdyn_system_destroy(sys);
            assert_int_equal(ca.live_bytes, 0);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_fails_cleanly),
        cmocka_unit_test(test_out_of_memory_names_the_call),
        cmocka_unit_test(test_allocator_always_failing_after_create),
        cmocka_unit_test(test_every_allocation_2d),
        cmocka_unit_test(test_every_allocation_3d),
    };
    return cmocka_run_group_tests_name("oom", tests, NULL, NULL);
}
