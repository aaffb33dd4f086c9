/* Out of memory with particles on curves and surfaces (issue 4).
 *
 * A scenario (a 3-D system; particles put on a circle, a helix, a spline, a
 * sphere near its pole, a torus and a height field; an implicit rod between
 * the helix's and the sphere's particles; gravity; RK4 steps; one shape
 * removed, a particle added past the pool's capacity and put on a torus in
 * the freed slot; more steps) is run once with an allocator that never
 * fails, to count its allocations, then once for every N up to that count
 * with an allocator that fails the Nth allocation. For every N:
 *  - the call that met the failure returns CDYN_ERR_NO_MEMORY, and every
 *    call that returns it met the failure;
 *  - that call changed nothing the public API shows (positions, velocities,
 *    clock, energies, which particles and constraints are valid, each
 *    constraint's kind, coordinate count and coordinates), and its message
 *    is set;
 *  - retrying the same call with allocation allowed succeeds, and the run
 *    then ends in exactly (bit for bit) the state of the unfailed run;
 *  - a step that follows a step allocates nothing;
 *  - after destroy no byte is live and allocs == frees + failed.
 * A second test: the coordinate functions refuse stale, foreign, zero and
 * wrong-kind handles (and implicit constraints) with a status and change
 * nothing. */
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

#define MAX_P 12
#define MAX_C 12
#define MAX_OPS 64

typedef enum op_kind {
    OP_CREATE,
    OP_ADD_PARTICLE, /* a: particle number */
    OP_ADD_GRAVITY,
    OP_ON_CIRCLE,    /* a: particle number (the constraint gets the same number) */
    OP_ON_HELIX,
    OP_ON_SPLINE,
    OP_ON_SPHERE,
    OP_ON_TORUS,
    OP_ON_HEIGHTFIELD,
    OP_ADD_ROD,      /* a, b: particle numbers; constraint number MAX_C - 1 */
    OP_SET_RK4,
    OP_STEP,
    OP_REMOVE_SHAPE  /* a: constraint number */
} op_kind;

typedef struct op {
    op_kind kind;
    int a, b;
} op;

typedef struct scenario {
    cdyn_system *sys;
    cdyn_particle p[MAX_P];
    cdyn_constraint c[MAX_C];
    cdyn_force gravity;
    op ops[MAX_OPS];
    int n_ops;
} scenario;

static void push(scenario *s, op_kind kind, int a, int b)
{
    assert_true(s->n_ops < MAX_OPS);
    s->ops[s->n_ops].kind = kind;
    s->ops[s->n_ops].a = a;
    s->ops[s->n_ops].b = b;
    s->n_ops++;
}

enum { ROD = MAX_C - 1 };

static void build_ops(scenario *s)
{
    s->n_ops = 0;
    push(s, OP_CREATE, 0, 0);
    for (int i = 0; i < 8; i++)
        push(s, OP_ADD_PARTICLE, i, 0);
    push(s, OP_ADD_GRAVITY, 0, 0);
    push(s, OP_ON_CIRCLE, 0, 0);
    push(s, OP_ON_HELIX, 1, 0);
    push(s, OP_ON_SPLINE, 2, 0);
    push(s, OP_ON_SPHERE, 3, 0);
    push(s, OP_ON_TORUS, 4, 0);
    push(s, OP_ON_HEIGHTFIELD, 5, 0);
    push(s, OP_ADD_ROD, 1, 3);
    push(s, OP_SET_RK4, 0, 0);
    for (int i = 0; i < 6; i++)
        push(s, OP_STEP, 0, 0);
    push(s, OP_REMOVE_SHAPE, 4, 0);
    for (int i = 0; i < 3; i++)
        push(s, OP_STEP, 0, 0);
    /* Past the particle pool's capacity (8), then a shape in the freed
     * constraint slot. */
    push(s, OP_ADD_PARTICLE, 8, 0);
    push(s, OP_ON_TORUS, 8, 0);
    for (int i = 0; i < 3; i++)
        push(s, OP_STEP, 0, 0);
}

/* Starting points, each near the shape its particle goes on (6, 7 stay
 * free), and velocities. */
static void initial_state(int i, double pos[3], double vel[3])
{
    static const double P[9][3] = {
        {1.1, 0.1, 0.05},   /* circle of radius 1 about the origin in the x-y plane */
        {3.45, 0.05, 0.1},  /* helix about x = 3 */
        {-1.0, -2.1, 0.3},  /* spline */
        {0.1, 3.0, 0.85},   /* sphere about (0, 3, 0), near its north pole */
        {4.2, 3.0, 0.1},    /* torus about (3, 3, 0) */
        {0.2, -0.1, 2.0},   /* height field over [-1, 1] x [-1, 0.5] */
        {-3.0, 0.0, 1.0},   /* free */
        {-3.0, 1.0, 1.0},   /* free */
        {3.1, 4.25, 0.05},  /* torus again, later */
    };
    for (int k = 0; k < 3; k++) {
        pos[k] = P[i][k];
        vel[k] = 0.3 * sin(1.7 * (double)i + (double)k);
    }
}

static cdyn_status add_shape(scenario *s, int i, const cdyn_curve_desc *cd,
                             const cdyn_surface_desc *sd)
{
    return cd ? cdyn_constraint_add_on_curve(s->sys, s->p[i], cd, &s->c[i])
              : cdyn_constraint_add_on_surface(s->sys, s->p[i], sd, &s->c[i]);
}

static cdyn_status run_op(scenario *s, const op *o, const cdyn_allocator *alloc)
{
    double pos[3], vel[3];
    cdyn_curve_desc cd;
    cdyn_surface_desc sd;
    cdyn_status st;
    switch (o->kind) {
    case OP_CREATE:
        st = cdyn_system_create_with_allocator(3, alloc, &s->sys);
        if (st)
            assert_null(s->sys);
        return st;
    case OP_ADD_PARTICLE:
        initial_state(o->a, pos, vel);
        return cdyn_particle_add(s->sys, 1.0 + 0.1 * (double)o->a, pos, vel, &s->p[o->a]);
    case OP_ADD_GRAVITY: {
        const double g[3] = {0.0, 0.0, -9.81};
        return cdyn_force_add_gravity(s->sys, g, &s->gravity);
    }
    case OP_ON_CIRCLE:
        cdyn_curve_desc_init(&cd, CDYN_CURVE_CIRCLE);
        cd.radius = 1.0;
        return add_shape(s, o->a, &cd, NULL);
    case OP_ON_HELIX:
        cdyn_curve_desc_init(&cd, CDYN_CURVE_HELIX);
        cd.origin[0] = 3.0;
        cd.radius = 0.5;
        cd.pitch = 0.3;
        return add_shape(s, o->a, &cd, NULL);
    case OP_ON_SPLINE: {
        static const double pts[] = {-2.0, -2.0, 0.0, -1.0, -2.2, 0.4, 0.0, -1.8, 0.2,
                                     1.0, -2.3, 0.6, 2.0, -2.0, 0.1, 3.0, -1.7, 0.5};
        cdyn_curve_desc_init(&cd, CDYN_CURVE_SPLINE);
        cd.points = pts;
        cd.num_points = 6;
        return add_shape(s, o->a, &cd, NULL);
    }
    case OP_ON_SPHERE:
        cdyn_surface_desc_init(&sd, CDYN_SURFACE_SPHERE);
        sd.origin[1] = 3.0;
        sd.radius = 0.8;
        return add_shape(s, o->a, NULL, &sd);
    case OP_ON_TORUS:
        cdyn_surface_desc_init(&sd, CDYN_SURFACE_TORUS);
        sd.origin[0] = 3.0, sd.origin[1] = 3.0;
        sd.radius = 1.0;
        sd.minor_radius = 0.3;
        return add_shape(s, o->a, NULL, &sd);
    case OP_ON_HEIGHTFIELD: {
        double h[5 * 4];
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 5; i++)
                h[j * 5 + i] = 0.2 * sin(1.3 * i) * cos(0.9 * j) + 0.05 * (double)(i * j);
        cdyn_heightfield_desc hf;
        cdyn_heightfield_desc_init(&hf);
        hf.nx = 5, hf.ny = 4;
        hf.origin[0] = -1.0, hf.origin[1] = -1.0;
        hf.spacing[0] = 0.5, hf.spacing[1] = 0.5;
        hf.samples = h;
        cdyn_surface_desc_init(&sd, CDYN_SURFACE_HEIGHTFIELD);
        sd.heightfield = &hf;
        return add_shape(s, o->a, NULL, &sd);
    }
    case OP_ADD_ROD: {
        double a[3], b[3];
        assert_int_equal(cdyn_particle_get_position(s->sys, s->p[o->a], a), CDYN_OK);
        assert_int_equal(cdyn_particle_get_position(s->sys, s->p[o->b], b), CDYN_OK);
        double len = sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                          (a[2] - b[2]) * (a[2] - b[2]));
        return cdyn_constraint_add_distance(s->sys, s->p[o->a], s->p[o->b], len, &s->c[ROD]);
    }
    case OP_SET_RK4:
        return cdyn_system_set_integrator(s->sys, CDYN_INTEGRATOR_RK4);
    case OP_STEP:
        return cdyn_system_step(s->sys, 2e-3);
    case OP_REMOVE_SHAPE:
        st = cdyn_constraint_remove(s->sys, s->c[o->a]);
        return st;
    }
    fail_msg("unknown op %d", (int)o->kind);
    return CDYN_ERR_INVALID_ARGUMENT;
}

/* Everything the public API shows of the system; reading it allocates
 * nothing. */
typedef struct view {
    size_t count, index_count;
    double x[3 * MAX_P], v[3 * MAX_P];
    double time, pe, ke;
    bool p_valid[MAX_P], c_valid[MAX_C];
    cdyn_constraint_kind kind[MAX_C];
    size_t ncoord[MAX_C];
    double q[MAX_C][2], qd[MAX_C][2];
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
    assert_int_equal(cdyn_system_get_time(sys, &w->time), CDYN_OK);
    assert_int_equal(cdyn_system_get_potential_energy(sys, &w->pe), CDYN_OK);
    assert_int_equal(cdyn_system_get_kinetic_energy(sys, &w->ke), CDYN_OK);
    for (int i = 0; i < MAX_P; i++)
        w->p_valid[i] = cdyn_particle_is_valid(sys, s->p[i]);
    for (int i = 0; i < MAX_C; i++) {
        w->c_valid[i] = cdyn_constraint_is_valid(sys, s->c[i]);
        if (!w->c_valid[i])
            continue;
        assert_int_equal(cdyn_constraint_get_kind(sys, s->c[i], &w->kind[i]), CDYN_OK);
        assert_int_equal(cdyn_constraint_get_coordinate_count(sys, s->c[i], &w->ncoord[i]),
                         CDYN_OK);
        if (w->ncoord[i] > 0)
            assert_int_equal(cdyn_constraint_get_coordinates(sys, s->c[i], w->q[i], w->qd[i]),
                             CDYN_OK);
    }
}

static void assert_same_view(const view *a, const view *b)
{
    assert_int_equal(a->count, b->count);
    assert_int_equal(a->index_count, b->index_count);
    assert_memory_equal(a->x, b->x, sizeof a->x);
    assert_memory_equal(a->v, b->v, sizeof a->v);
    assert_memory_equal(&a->time, &b->time, sizeof a->time);
    assert_memory_equal(&a->pe, &b->pe, sizeof a->pe);
    assert_memory_equal(&a->ke, &b->ke, sizeof a->ke);
    assert_memory_equal(a->p_valid, b->p_valid, sizeof a->p_valid);
    assert_memory_equal(a->c_valid, b->c_valid, sizeof a->c_valid);
    assert_memory_equal(a->kind, b->kind, sizeof a->kind);
    assert_memory_equal(a->ncoord, b->ncoord, sizeof a->ncoord);
    assert_memory_equal(a->q, b->q, sizeof a->q);
    assert_memory_equal(a->qd, b->qd, sizeof a->qd);
}

typedef struct outcome {
    view final;
    size_t allocs;   /* allocations the run made */
    int failed_op;   /* index of the op that met the failure, or -1 */
    size_t step_allocs_after_first; /* allocations by steps that follow a step */
} outcome;

/* Runs the scenario with the Nth allocation failing (0: none), checking
 * every property listed at the top; fills *out. */
static void run_scenario(size_t fail_at, outcome *out)
{
    static scenario s;
    memset(&s, 0, sizeof s);
    build_ops(&s);
    ts_counting_alloc ca;
    memset(&ca, 0, sizeof ca);
    ca.fail_at = fail_at;
    cdyn_allocator alloc = ts_counting_allocator(&ca);
    out->failed_op = -1;
    out->step_allocs_after_first = 0;

    static view before, after;
    for (int k = 0; k < s.n_ops; k++) {
        const op *o = &s.ops[k];
        bool have_sys = s.sys != NULL;
        if (have_sys)
            look(&s, &before);
        int failed_before = ca.failed;
        size_t allocs_before = ca.allocs;
        cdyn_status st = run_op(&s, o, &alloc);
        bool met_failure = ca.failed && !failed_before;
        if (met_failure || st == CDYN_ERR_NO_MEMORY) {
            if (!met_failure || st != CDYN_ERR_NO_MEMORY)
                fail_msg("fail_at %zu: op %d (kind %d) returned %s, met failure: %d", fail_at, k,
                         (int)o->kind, cdyn_status_name(st), (int)met_failure);
            out->failed_op = k;
            if (have_sys) {
                look(&s, &after);
                assert_same_view(&before, &after);
                assert_true(strlen(cdyn_system_last_error(s.sys)) > 0);
            } else {
                assert_null(s.sys);
                assert_int_equal(ca.live_bytes, 0);
            }
            ca.fail_at = 0;
            allocs_before = ca.allocs;
            st = run_op(&s, o, &alloc);
        }
        if (st != CDYN_OK)
            fail_msg("fail_at %zu: op %d (kind %d) returned %s: %s", fail_at, k, (int)o->kind,
                     cdyn_status_name(st), s.sys ? cdyn_system_last_error(s.sys) : "");
        if (o->kind == OP_STEP && k > 0 && s.ops[k - 1].kind == OP_STEP)
            out->step_allocs_after_first += ca.allocs - allocs_before;
    }
    look(&s, &out->final);
    out->allocs = ca.allocs;
    cdyn_system_destroy(s.sys);
    assert_int_equal(ca.live_bytes, 0);
    assert_int_equal(ca.allocs, ca.frees + (size_t)ca.failed);
}

static void test_every_allocation(void **state)
{
    (void)state;
    static outcome ref, run;
    run_scenario(0, &ref);
    assert_int_equal(ref.failed_op, -1);
    assert_int_equal(ref.step_allocs_after_first, 0);
    /* Every shape allocates its record, the spline and the height field
     * their tables, and the first one the generalized state. */
    assert_true(ref.allocs > 20);
    /* The run moved: the particles on shapes are off their starting points
     * and the clock advanced 12 steps. */
    assert_true(ref.final.time > 0.0239 && ref.final.time < 0.0241);
    print_message("parametric scenario: %zu allocations per run, each failed in turn\n",
                  ref.allocs);
    for (size_t n = 1; n <= ref.allocs; n++) {
        run_scenario(n, &run);
        assert_true(run.failed_op >= 0);
        assert_int_equal(run.step_allocs_after_first, 0);
        assert_same_view(&ref.final, &run.final);
    }
    run_scenario(ref.allocs + 1, &run);
    assert_int_equal(run.failed_op, -1);
    assert_same_view(&ref.final, &run.final);
}

/* ---- handles to the coordinate functions ---------------------------------- */

typedef struct coords {
    double q[2], qd[2];
    double x[3], v[3];
} coords;

static void read_coords(cdyn_system *sys, cdyn_constraint c, cdyn_particle p, coords *out)
{
    memset(out, 0, sizeof *out);
    assert_int_equal(cdyn_constraint_get_coordinates(sys, c, out->q, out->qd), CDYN_OK);
    assert_int_equal(cdyn_particle_get_position(sys, p, out->x), CDYN_OK);
    assert_int_equal(cdyn_particle_get_velocity(sys, p, out->v), CDYN_OK);
}

/* Every coordinate function refuses @p h with @p want, sets a message, and
 * leaves the shape @p live of particle @p p (of @p sys) as it was. */
static void refuses(cdyn_system *sys, cdyn_constraint h, cdyn_status want, cdyn_constraint live,
                    cdyn_particle p)
{
    coords before, after;
    read_coords(sys, live, p, &before);
    double q[2] = {-7, -7}, qd[2] = {-7, -7}, set_q[2] = {0.5, 0.5}, set_qd[2] = {1, 1};
    size_t k = 77;
    assert_int_equal(cdyn_constraint_get_coordinates(sys, h, q, qd), want);
    assert_true(q[0] == -7 && q[1] == -7 && qd[0] == -7 && qd[1] == -7);
    assert_true(strlen(cdyn_system_last_error(sys)) > 0);
    assert_int_equal(cdyn_constraint_get_coordinate_count(sys, h, &k), want);
    assert_int_equal(k, 77);
    assert_int_equal(cdyn_constraint_set_coordinates(sys, h, set_q, set_qd), want);
    assert_int_equal(cdyn_constraint_set_coordinates(sys, h, NULL, set_qd), want);
    read_coords(sys, live, p, &after);
    assert_memory_equal(&before, &after, sizeof before);
}

static cdyn_system *shape_system(cdyn_particle *p, cdyn_constraint *circle,
                                 cdyn_constraint *sphere, cdyn_constraint *rod,
                                 cdyn_particle *q)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(3, &sys), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){1.0, 0.0, 0.0}, NULL, p), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0.1, 3.1, 0.7}, NULL, q), CDYN_OK);
    cdyn_curve_desc cd;
    cdyn_curve_desc_init(&cd, CDYN_CURVE_CIRCLE);
    assert_int_equal(cdyn_constraint_add_on_curve(sys, *p, &cd, circle), CDYN_OK);
    cdyn_surface_desc sd;
    cdyn_surface_desc_init(&sd, CDYN_SURFACE_SPHERE);
    sd.origin[1] = 3.0;
    sd.radius = 0.8;
    assert_int_equal(cdyn_constraint_add_on_surface(sys, *q, &sd, sphere), CDYN_OK);
    assert_int_equal(cdyn_constraint_add_distance(sys, *p, *q, 3.1, rod), CDYN_OK);
    return sys;
}

static void test_coordinate_handles(void **state)
{
    (void)state;
    cdyn_particle p, q;
    cdyn_constraint circle, sphere, rod;
    cdyn_system *sys = shape_system(&p, &circle, &sphere, &rod, &q);
    size_t k;
    assert_int_equal(cdyn_constraint_get_coordinate_count(sys, circle, &k), CDYN_OK);
    assert_int_equal(k, 1);
    assert_int_equal(cdyn_constraint_get_coordinate_count(sys, sphere, &k), CDYN_OK);
    assert_int_equal(k, 2);
    assert_int_equal(cdyn_constraint_get_coordinate_count(sys, rod, &k), CDYN_OK);
    assert_int_equal(k, 0);

    /* Zero, and handles of other kinds: a particle, a force. */
    cdyn_force g;
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, 0, -9.81}, &g), CDYN_OK);
    refuses(sys, 0, CDYN_ERR_INVALID_HANDLE, circle, p);
    refuses(sys, (cdyn_constraint)p, CDYN_ERR_INVALID_HANDLE, circle, p);
    refuses(sys, (cdyn_constraint)g, CDYN_ERR_INVALID_HANDLE, circle, p);

    /* A constraint of the right handle kind but without coordinates: the
     * coordinate count answers 0, the others refuse. */
    {
        coords before, after;
        read_coords(sys, circle, p, &before);
        double qq[2] = {-7, -7};
        assert_int_equal(cdyn_constraint_get_coordinates(sys, rod, qq, NULL),
                         CDYN_ERR_INVALID_ARGUMENT);
        assert_true(qq[0] == -7);
        assert_int_equal(cdyn_constraint_set_coordinates(sys, rod, (double[]){0.1, 0.1}, NULL),
                         CDYN_ERR_INVALID_ARGUMENT);
        read_coords(sys, circle, p, &after);
        assert_memory_equal(&before, &after, sizeof before);
    }

    /* Foreign: the same handles from another system (a different salt; a
     * second system at another address picks one until they differ). */
    cdyn_system *others[8] = {0};
    cdyn_particle other_p, other_q;
    cdyn_constraint ocircle = 0, osphere = 0, orod = 0;
    int n_others = 0;
    while (n_others < 8) {
        others[n_others] = shape_system(&other_p, &ocircle, &osphere, &orod, &other_q);
        n_others++;
        if (ocircle != circle && osphere != sphere)
            break;
    }
    assert_true(ocircle != circle && osphere != sphere);
    refuses(sys, ocircle, CDYN_ERR_INVALID_HANDLE, circle, p);
    refuses(sys, osphere, CDYN_ERR_INVALID_HANDLE, circle, p);
    refuses(others[n_others - 1], circle, CDYN_ERR_INVALID_HANDLE, ocircle, other_p);
    for (int i = 0; i < n_others; i++)
        cdyn_system_destroy(others[i]);

    /* Stale: a removed shape, and a shape removed with its particle; then
     * a new shape in the freed slot does not bring the old handle back. */
    assert_int_equal(cdyn_constraint_remove(sys, sphere), CDYN_OK);
    refuses(sys, sphere, CDYN_ERR_STALE_HANDLE, circle, p);
    cdyn_particle r;
    cdyn_constraint line;
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0.0, -2.0, 0.0}, NULL, &r), CDYN_OK);
    cdyn_curve_desc cd;
    cdyn_curve_desc_init(&cd, CDYN_CURVE_LINE);
    assert_int_equal(cdyn_constraint_add_on_curve(sys, r, &cd, &line), CDYN_OK);
    assert_true(line != sphere);
    refuses(sys, sphere, CDYN_ERR_STALE_HANDLE, circle, p);
    assert_int_equal(cdyn_constraint_get_coordinate_count(sys, line, &k), CDYN_OK);
    assert_int_equal(k, 1);
    assert_int_equal(cdyn_particle_remove(sys, r), CDYN_OK);
    assert_false(cdyn_constraint_is_valid(sys, line));
    refuses(sys, line, CDYN_ERR_STALE_HANDLE, circle, p);

    /* NULL system: refused without a message to write. */
    double qq[2];
    assert_int_equal(cdyn_constraint_get_coordinates(NULL, circle, qq, NULL),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_set_coordinates(NULL, circle, qq, NULL),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_get_coordinate_count(NULL, circle, &k),
                     CDYN_ERR_INVALID_ARGUMENT);
    /* The live shape still works. */
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    double qc;
    assert_int_equal(cdyn_constraint_get_coordinates(sys, circle, &qc, NULL), CDYN_OK);
    assert_true(isfinite(qc));
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_allocation),
        cmocka_unit_test(test_coordinate_handles),
    };
    return cmocka_run_group_tests_name("parametric_oom", tests, NULL, NULL);
}
