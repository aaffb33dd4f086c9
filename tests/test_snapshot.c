/* Snapshots of systems (include/cdyn/snapshot.h): a loaded or cloned
 * system steps to the same bits as the system it was saved from, for every
 * integrator, both constraint solvers and scenes with every kind of
 * object; handles keep naming the same objects; callbacks come back
 * through their tags. Refusals of damaged buffers: test_snapshot_format.c. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "scenes.h"
#include "support.h"

/* --- comparing two systems ------------------------------------------------- */

/* What the comparisons are about, for their messages. */
static char context[160];

#define expect(cond)                                                                        \
    do {                                                                                    \
        if (!(cond))                                                                        \
            fail_msg("%s: %s", context, #cond);                                             \
    } while (0)

/* The bytes of a snapshot of @p sys (malloc'ed) and their count. */
static unsigned char *save_all(const cdyn_system *sys, size_t *size)
{
    assert_int_equal(cdyn_system_snapshot_size(sys, size), CDYN_OK);
    unsigned char *buf = malloc(*size);
    assert_non_null(buf);
    size_t written = 0;
    assert_int_equal(cdyn_system_save(sys, buf, *size, &written), CDYN_OK);
    assert_int_equal(written, *size);
    return buf;
}

static void assert_same_doubles(const double *a, const double *b, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof a[i]) != 0)
            fail_msg("%s: %s[%zu]: %.17g != %.17g", context, what, i, a[i], b[i]);
}

/* Everything a caller can read that a step changes, bit for bit: time,
 * state, multipliers and constraint forces, the counters of the solver,
 * the integrators and the projection, the drive work, and at last the
 * snapshot bytes themselves. */
static void assert_same_systems(const ts_world *w, const cdyn_system *a, const cdyn_system *b)
{
    double ta, tb;
    cdyn_system_get_time(a, &ta);
    cdyn_system_get_time(b, &tb);
    assert_same_doubles(&ta, &tb, 1, "time");
    ts_state sa, sb;
    ts_state_capture(a, &sa);
    ts_state_capture(b, &sb);
    assert_int_equal(sa.len, sb.len);
    assert_same_doubles(sa.x, sb.x, sa.len, "positions");
    assert_same_doubles(sa.v, sb.v, sa.len, "velocities");
    ts_state_free(&sa);
    ts_state_free(&sb);
    for (size_t i = 0; i < w->n_constraints; i++) {
        double la[64] = {0}, lb[64] = {0}; /* a shape writes none */
        size_t rows = 0;
        assert_int_equal(cdyn_constraint_get_row_count(a, w->constraints[i], &rows), CDYN_OK);
        assert_int_equal(cdyn_constraint_get_multipliers(a, w->constraints[i], la, 64), CDYN_OK);
        assert_int_equal(cdyn_constraint_get_multipliers(b, w->constraints[i], lb, 64), CDYN_OK);
        assert_same_doubles(la, lb, rows, "multipliers");
        double fa[3], fb[3];
        assert_int_equal(cdyn_constraint_get_force(a, w->constraints[i], w->held[i], fa),
                         CDYN_OK);
        assert_int_equal(cdyn_constraint_get_force(b, w->constraints[i], w->held[i], fb),
                         CDYN_OK);
        assert_same_doubles(fa, fb, (size_t)w->dim, "constraint force");
    }
    cdyn_solver_stats qa = {.size = sizeof qa}, qb = {.size = sizeof qb};
    assert_int_equal(cdyn_system_get_solver_stats(a, &qa), CDYN_OK);
    assert_int_equal(cdyn_system_get_solver_stats(b, &qb), CDYN_OK);
    expect(qa.solves == qb.solves && qa.iterations == qb.iterations &&
                qa.cg_not_converged == qb.cg_not_converged);
    cdyn_rk45_stats ra = {.size = sizeof ra}, rb = {.size = sizeof rb};
    cdyn_system_get_rk45_stats(a, &ra);
    cdyn_system_get_rk45_stats(b, &rb);
    expect(ra.accepted == rb.accepted && ra.rejected == rb.rejected && ra.steps == rb.steps);
    assert_same_doubles(&ra.next_step, &rb.next_step, 1, "RK45 next step");
    cdyn_newton_stats na = {.size = sizeof na}, nb = {.size = sizeof nb};
    cdyn_system_get_newton_stats(a, &na);
    cdyn_system_get_newton_stats(b, &nb);
    expect(na.steps == nb.steps && na.total_iterations == nb.total_iterations &&
                na.analyses == nb.analyses);
    cdyn_projection_stats pa = {.size = sizeof pa}, pb = {.size = sizeof pb};
    cdyn_system_get_projection_stats(a, &pa);
    cdyn_system_get_projection_stats(b, &pb);
    expect(pa.projections == pb.projections && pa.factorizations == pb.factorizations &&
                pa.position_iterations_total == pb.position_iterations_total);
    double wa, wb;
    cdyn_system_get_drive_work(a, &wa);
    cdyn_system_get_drive_work(b, &wb);
    assert_same_doubles(&wa, &wb, 1, "drive work");
    size_t na_bytes, nb_bytes;
    unsigned char *ba = save_all(a, &na_bytes), *bb = save_all(b, &nb_bytes);
    assert_int_equal(na_bytes, nb_bytes);
    for (size_t i = 0; i < na_bytes; i++)
        if (ba[i] != bb[i])
            fail_msg("%s: snapshots differ at byte %zu of %zu", context, i, na_bytes);
    free(ba);
    free(bb);
}

/* --- restore, then step ----------------------------------------------------- */

enum { K = 12, M = 12 };
static const double DT = 2e-3;

static const cdyn_integrator INTEGRATORS[] = {
    CDYN_INTEGRATOR_EXPLICIT_EULER, CDYN_INTEGRATOR_SYMPLECTIC_EULER,
    CDYN_INTEGRATOR_VELOCITY_VERLET, CDYN_INTEGRATOR_RK4,
    CDYN_INTEGRATOR_RK45,           CDYN_INTEGRATOR_RATTLE,
    CDYN_INTEGRATOR_BACKWARD_EULER};
static const cdyn_constraint_solver SOLVERS[] = {CDYN_SOLVER_DIRECT, CDYN_SOLVER_CG};

/* Steps @p sys n times; the first failure's status. */
static cdyn_status run(cdyn_system *sys, int n)
{
    for (int i = 0; i < n; i++) {
        cdyn_status st = cdyn_system_step(sys, DT);
        if (st)
            return st;
    }
    return CDYN_OK;
}

/* One scene with one integrator and solver: K steps, a copy (loaded from
 * a save, or cloned), then M steps of both. Returns false when the scene
 * cannot run with them (particles on shapes under RATTLE or backward
 * Euler), which both systems agree on. */
static bool restore_then_step(const ts_scene *scene, cdyn_integrator integ,
                              cdyn_constraint_solver solver, bool clone)
{
    ts_world w;
    snprintf(context, sizeof context, "%s, integrator %d, solver %d, %s", scene->name, (int)integ,
             (int)solver, clone ? "cloned" : "loaded");
    ts_scene_build(scene, &w, integ, solver);
    cdyn_status st = run(w.sys, K);
    /* A force for the next step only, pending at the save (with CG; the
     * call bumps the system's revision, so the direct solver's runs keep
     * the caches of the last step: the forces kept for the next one, the
     * clusters of a periodic box). */
    const double push[3] = {0.5, -0.25, 0.125};
    if (!st && solver == CDYN_SOLVER_CG)
        st = cdyn_particle_apply_force(w.sys, w.particles[w.n_particles - 1], push,
                                       CDYN_APPLY_NEXT_STEP);
    if (st == CDYN_ERR_UNSUPPORTED) {
        ts_scene_free(&w);
        return false;
    }
    if (st)
        fail_msg("%s with integrator %d: %s", scene->name, (int)integ,
                 cdyn_system_last_error(w.sys));
    cdyn_system *copy = NULL;
    if (clone) {
        assert_int_equal(cdyn_system_clone(w.sys, NULL, &copy), CDYN_OK);
    } else {
        size_t size;
        unsigned char *buf = save_all(w.sys, &size);
        cdyn_snapshot_options o;
        cdyn_snapshot_options_init(&o);
        o.resolve = ts_scene_resolve;
        cdyn_snapshot_report rep = {.size = sizeof rep};
        st = cdyn_system_load(buf, size, &o, &rep, &copy);
        if (st)
            fail_msg("%s: %s", scene->name, rep.message);
        free(buf);
    }
    /* The copy agrees before a step and after each one. */
    assert_same_systems(&w, w.sys, copy);
    for (int i = 0; i < M; i++) {
        cdyn_status sa = cdyn_system_step(w.sys, DT), sb = cdyn_system_step(copy, DT);
        assert_int_equal(sa, sb);
        if (sa)
            fail_msg("%s with integrator %d: %s", scene->name, (int)integ,
                     cdyn_system_last_error(w.sys));
    }
    assert_same_systems(&w, w.sys, copy);
    cdyn_system_destroy(copy);
    ts_scene_free(&w);
    return true;
}

static void every_integrator_and_solver(const ts_scene *scene, bool clone)
{
    int ran = 0;
    for (size_t i = 0; i < sizeof INTEGRATORS / sizeof INTEGRATORS[0]; i++)
        for (size_t s = 0; s < 2; s++)
            ran += restore_then_step(scene, INTEGRATORS[i], SOLVERS[s], clone);
    /* Only shapes under RATTLE and backward Euler sit out, and the
     * thermostat, which runs constraints under RATTLE alone. */
    assert_true(ran >= (scene == &ts_scene_langevin ? 2 : 10));
}

#define SCENE_TESTS(name)                                                                   \
    static void test_##name##_loaded(void **state)                                          \
    {                                                                                       \
        (void)state;                                                                        \
        every_integrator_and_solver(&ts_scene_##name, false);                                     \
    }                                                                                       \
    static void test_##name##_cloned(void **state)                                          \
    {                                                                                       \
        (void)state;                                                                        \
        every_integrator_and_solver(&ts_scene_##name, true);                                      \
    }

SCENE_TESTS(springs)
SCENE_TESTS(chain)
SCENE_TESTS(coaster)
SCENE_TESTS(rigid)
SCENE_TESTS(pairs)
SCENE_TESTS(driven)
SCENE_TESTS(fluid)
SCENE_TESTS(langevin)

/* --- handles ------------------------------------------------------------------ */

/* A callback force that adds nothing. */
static int ts_test_force(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                         const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)n, (void)dim, (void)x, (void)v, (void)f, (void)user;
    return 0;
}

/* A loaded system from a save of @p sys (resolver of the scenes). */
static cdyn_system *reload(const cdyn_system *sys)
{
    size_t size;
    unsigned char *buf = save_all(sys, &size);
    cdyn_snapshot_options o;
    cdyn_snapshot_options_init(&o);
    o.resolve = ts_scene_resolve;
    cdyn_system *copy = NULL;
    assert_int_equal(cdyn_system_load(buf, size, &o, NULL, &copy), CDYN_OK);
    free(buf);
    return copy;
}

/* Handles taken before the save name the same objects in the copy, the
 * stale ones stay stale, and both systems hand out the same handles
 * afterwards (the free slots and their order come along). */
static void test_handles_survive(void **state)
{
    (void)state;
    ts_world w;
    ts_scene_build(&ts_scene_springs, &w, CDYN_INTEGRATOR_RK4, CDYN_SOLVER_DIRECT);
    assert_int_equal(run(w.sys, 3), CDYN_OK);
    cdyn_particle gone = w.particles[3];
    assert_int_equal(cdyn_particle_remove(w.sys, gone), CDYN_OK); /* its rod goes too */
    cdyn_system *copy = reload(w.sys);
    for (size_t i = 0; i < w.n_particles; i++) {
        cdyn_particle p = w.particles[i];
        assert_int_equal(cdyn_particle_is_valid(copy, p), cdyn_particle_is_valid(w.sys, p));
        if (!cdyn_particle_is_valid(w.sys, p))
            continue;
        double xa[2], xb[2], ma, mb;
        assert_int_equal(cdyn_particle_get_position(copy, p, xb), CDYN_OK);
        cdyn_particle_get_position(w.sys, p, xa);
        cdyn_particle_get_mass(w.sys, p, &ma);
        cdyn_particle_get_mass(copy, p, &mb);
        assert_same_doubles(xa, xb, 2, "position by handle");
        assert_true(ma == mb);
    }
    double x[2];
    assert_int_equal(cdyn_particle_get_position(copy, gone, x), CDYN_ERR_STALE_HANDLE);
    assert_int_equal(cdyn_particle_get_position(copy, w.removed, x), CDYN_ERR_STALE_HANDLE);
    assert_false(cdyn_particle_is_valid(copy, w.removed));
    for (size_t i = 0; i < w.n_constraints; i++) {
        cdyn_constraint_kind ka = 0, kb = 0;
        cdyn_status sa = cdyn_constraint_get_kind(w.sys, w.constraints[i], &ka);
        assert_int_equal(cdyn_constraint_get_kind(copy, w.constraints[i], &kb), sa);
        assert_int_equal(ka, kb);
    }
    /* The next particles and constraints take the same slots in both. */
    const double at[2] = {1.0, 1.0};
    for (int round = 0; round < 3; round++) {
        cdyn_particle pa, pb;
        cdyn_constraint ca, cb;
        assert_int_equal(cdyn_particle_add(w.sys, 1.0, at, NULL, &pa), CDYN_OK);
        assert_int_equal(cdyn_particle_add(copy, 1.0, at, NULL, &pb), CDYN_OK);
        assert_true(pa == pb);
        assert_int_equal(cdyn_constraint_add_anchor(w.sys, pa, x, 1.0, &ca), CDYN_OK);
        assert_int_equal(cdyn_constraint_add_anchor(copy, pb, x, 1.0, &cb), CDYN_OK);
        assert_true(ca == cb);
    }
    cdyn_system_destroy(copy);
    ts_scene_free(&w);
}

/* Rigid bodies and grounds by handle; a dissolved body stays stale. */
static void test_bodies_and_grounds_by_handle(void **state)
{
    (void)state;
    ts_world w;
    ts_scene_build(&ts_scene_rigid, &w, CDYN_INTEGRATOR_SYMPLECTIC_EULER, CDYN_SOLVER_DIRECT);
    assert_int_equal(run(w.sys, 5), CDYN_OK);
    cdyn_system *copy = reload(w.sys);
    cdyn_rigid ra, rb;
    assert_int_equal(cdyn_rigid_find(w.sys, w.particles[0], &ra), CDYN_OK);
    assert_int_equal(cdyn_rigid_find(copy, w.particles[0], &rb), CDYN_OK);
    assert_true(ra != 0 && ra == rb);
    double la[3], lb[3];
    assert_int_equal(cdyn_rigid_get_angular_momentum(w.sys, ra, la), CDYN_OK);
    assert_int_equal(cdyn_rigid_get_angular_momentum(copy, rb, lb), CDYN_OK);
    assert_same_doubles(la, lb, 3, "angular momentum");
    double m;
    assert_int_equal(cdyn_rigid_get_mass(copy, w.removed_body, &m), CDYN_ERR_STALE_HANDLE);
    assert_false(cdyn_rigid_is_valid(copy, w.removed_body));
    cdyn_system_destroy(copy);
    ts_scene_free(&w);
}

/* --- after failed steps --------------------------------------------------------- */

static int failing;

/* Fails while `failing` is set (after it has added its share). */
static int sometimes_fails(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                           const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)n, (void)dim, (void)x, (void)v, (void)f, (void)user;
    return failing;
}

/* A failed step keeps the state but may leave the last evaluation's
 * values (multipliers, flags, caches) as it went: a snapshot keeps them,
 * loads back to the same bytes, and both systems step on alike. */
static void test_snapshot_after_failed_steps(void **state)
{
    (void)state;
    for (int kind = 0; kind < 2; kind++) {
        ts_world w;
        ts_scene_build(kind ? &ts_scene_springs : &ts_scene_chain, &w,
                       kind ? CDYN_INTEGRATOR_RK4 : CDYN_INTEGRATOR_RATTLE, CDYN_SOLVER_CG);
        assert_int_equal(run(w.sys, 3), CDYN_OK);
        cdyn_force f;
        if (kind == 0) {
            /* A step far too long for the projections: they give up. */
            cdyn_status st = cdyn_system_step(w.sys, 50.0);
            assert_true(st == CDYN_ERR_NOT_CONVERGED || st == CDYN_ERR_DIVERGED);
        } else {
            assert_int_equal(cdyn_force_add_callback(w.sys, sometimes_fails, NULL, false, &f),
                             CDYN_OK);
            failing = 1;
            assert_int_equal(cdyn_system_step(w.sys, DT), CDYN_ERR_CALLBACK);
        }
        cdyn_system *copy;
        assert_int_equal(cdyn_system_clone(w.sys, NULL, &copy), CDYN_OK);
        snprintf(context, sizeof context, "after a failed step (%s)", kind ? "callback" : "RATTLE");
        assert_same_systems(&w, w.sys, copy);
        failing = 0;
        for (int i = 0; i < M; i++)
            assert_int_equal(cdyn_system_step(w.sys, DT), cdyn_system_step(copy, DT));
        assert_same_systems(&w, w.sys, copy);
        cdyn_system_destroy(copy);
        ts_scene_free(&w);
    }
}

/* --- tags and the resolver ---------------------------------------------------- */

static void test_tags(void **state)
{
    (void)state;
    ts_world w;
    ts_scene_build(&ts_scene_driven, &w, CDYN_INTEGRATOR_RK4, CDYN_SOLVER_DIRECT);
    cdyn_system *sys = w.sys;
    uint64_t tag = 0;
    /* The implicit and the user constraint were tagged after they were
     * made; a distance has no callback to tag. */
    assert_int_equal(cdyn_constraint_get_tag(sys, w.constraints[5], &tag), CDYN_OK);
    assert_int_equal(tag, 31);
    assert_int_equal(cdyn_constraint_get_tag(sys, w.constraints[6], &tag), CDYN_OK);
    assert_int_equal(tag, 32);
    assert_int_equal(cdyn_constraint_set_tag(sys, w.constraints[0], 5),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(sys), "constraint_set_tag"));
    assert_int_equal(cdyn_constraint_get_tag(sys, w.constraints[6], NULL),
                     CDYN_ERR_INVALID_ARGUMENT);
    /* A motion's and a schedule's tag come with their descriptions. */
    cdyn_motion_desc md;
    bool moving;
    assert_int_equal(cdyn_constraint_get_motion(sys, w.constraints[4], &md, &moving), CDYN_OK);
    assert_true(moving && md.kind == CDYN_MOTION_CALLBACK && md.tag == 41);
    cdyn_schedule_desc sd;
    bool scheduled;
    assert_int_equal(cdyn_constraint_get_length_schedule(sys, w.constraints[3], &sd, &scheduled),
                     CDYN_OK);
    assert_true(scheduled && sd.tag == 42);
    ts_scene_free(&w);

    /* Forces and grounds: only callbacks have a tag. */
    ts_scene_build(&ts_scene_rigid, &w, CDYN_INTEGRATOR_RK4, CDYN_SOLVER_DIRECT);
    const double g[3] = {0, 0, -1};
    cdyn_force f, cbf;
    assert_int_equal(cdyn_force_add_gravity(w.sys, g, &f), CDYN_OK);
    assert_int_equal(cdyn_force_set_tag(w.sys, f, 3), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(w.sys), "force_set_tag"));
    assert_int_equal(cdyn_force_add_callback(w.sys, ts_test_force, NULL, false, &cbf), CDYN_OK);
    assert_int_equal(cdyn_force_get_tag(w.sys, cbf, &tag), CDYN_OK);
    assert_int_equal(tag, 0);
    assert_int_equal(cdyn_force_set_tag(w.sys, cbf, UINT64_MAX), CDYN_OK);
    assert_int_equal(cdyn_force_get_tag(w.sys, cbf, &tag), CDYN_OK);
    assert_true(tag == UINT64_MAX);
    assert_int_equal(cdyn_force_remove(w.sys, cbf), CDYN_OK);
    assert_int_equal(cdyn_force_get_tag(w.sys, cbf, &tag), CDYN_ERR_STALE_HANDLE);
    const double up[3] = {0, 0, 1};
    cdyn_ground plane;
    assert_int_equal(cdyn_ground_add_plane(w.sys, up, -10.0, &plane), CDYN_OK);
    assert_int_equal(cdyn_ground_set_tag(w.sys, plane, 1), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_ground_get_tag(w.sys, plane, &tag), CDYN_ERR_INVALID_ARGUMENT);
    ts_scene_free(&w);
}

/* Knows every tag of the scenes but those listed in @p user (0-ended). */
static int forgetful(cdyn_callback_kind kind, uint64_t tag, cdyn_callback_binding *out,
                     void *user)
{
    for (const uint64_t *t = user; *t; t++)
        if (*t == tag)
            return 1;
    return ts_scene_resolve(kind, tag, out, NULL);
}

/* Gives tag 12's force without its Jacobian. */
static int no_jacobian(cdyn_callback_kind kind, uint64_t tag, cdyn_callback_binding *out,
                       void *user)
{
    (void)user;
    int rc = ts_scene_resolve(kind, tag, out, NULL);
    out->force_jacobian = NULL;
    return rc;
}

/* A load whose resolver leaves a callback out: CDYN_ERR_UNRESOLVED with
 * the kind and tag of the first one, no system, nothing left allocated. */
static void expect_unresolved(const ts_scene *scene, cdyn_callback_resolve_fn resolve,
                              void *user, cdyn_callback_kind kind, uint64_t tag)
{
    ts_world w;
    ts_scene_build(scene, &w, CDYN_INTEGRATOR_RK4, CDYN_SOLVER_DIRECT);
    size_t size;
    unsigned char *buf = save_all(w.sys, &size);
    ts_counting_alloc count = {0};
    cdyn_allocator a = ts_counting_allocator(&count);
    cdyn_snapshot_options o;
    cdyn_snapshot_options_init(&o);
    o.allocator = &a;
    o.resolve = resolve;
    o.resolve_user = user;
    cdyn_snapshot_report rep = {.size = sizeof rep};
    cdyn_system *copy = (cdyn_system *)&count; /* overwritten */
    assert_int_equal(cdyn_system_load(buf, size, &o, &rep, &copy), CDYN_ERR_UNRESOLVED);
    assert_null(copy);
    assert_int_equal(rep.callback_kind, kind);
    assert_true(rep.callback_tag == tag);
    char want[32];
    snprintf(want, sizeof want, "tag %llu", (unsigned long long)tag);
    assert_non_null(strstr(rep.message, want));
    assert_true(strncmp(rep.message, "system_load: ", 13) == 0);
    assert_int_equal(count.live_bytes, 0);
    assert_int_equal(count.allocs, count.frees);
    free(buf);
    ts_scene_free(&w);
}

static void test_unresolved_tags(void **state)
{
    (void)state;
    static const uint64_t miss_31[] = {31, 0}, miss_51[] = {51, 0}, miss_21[] = {21, 0},
                          miss_32[] = {32, 0}, miss_41[] = {41, 0}, miss_42[] = {42, 0},
                          miss_61[] = {61, 0};
    expect_unresolved(&ts_scene_springs, NULL, NULL, CDYN_CALLBACK_FORCE, 11);
    expect_unresolved(&ts_scene_springs, no_jacobian, NULL, CDYN_CALLBACK_FORCE, 12);
    expect_unresolved(&ts_scene_driven, forgetful, (void *)miss_31, CDYN_CALLBACK_IMPLICIT,
                      31);
    expect_unresolved(&ts_scene_driven, forgetful, (void *)miss_32, CDYN_CALLBACK_CONSTRAINT,
                      32);
    expect_unresolved(&ts_scene_driven, forgetful, (void *)miss_41, CDYN_CALLBACK_MOTION, 41);
    expect_unresolved(&ts_scene_driven, forgetful, (void *)miss_42, CDYN_CALLBACK_SCHEDULE,
                      42);
    expect_unresolved(&ts_scene_rigid, forgetful, (void *)miss_51, CDYN_CALLBACK_GROUND, 51);
    expect_unresolved(&ts_scene_coaster, forgetful, (void *)miss_21, CDYN_CALLBACK_CURVE, 21);
    expect_unresolved(&ts_scene_fluid, forgetful, (void *)miss_61, CDYN_CALLBACK_PAIR, 61);
}

/* --- a callback surface ------------------------------------------------------ */

/* A bowl z = c (u^2 + v^2) whose curvature c is behind the user pointer,
 * so that a copy steps alike only with the pointer it was given. */
static int bowl(const cdyn_system *sys, double t, double u, double v, double r[3], double ru[3],
                double rv[3], double ruu[3], double ruv[3], double rvv[3], void *user)
{
    (void)sys, (void)t;
    const double c = *(const double *)user;
    r[0] = u, r[1] = v, r[2] = c * (u * u + v * v);
    ru[0] = 1, ru[1] = 0, ru[2] = 2 * c * u;
    rv[0] = 0, rv[1] = 1, rv[2] = 2 * c * v;
    ruu[0] = ruu[1] = 0, ruu[2] = 2 * c;
    ruv[0] = ruv[1] = ruv[2] = 0;
    rvv[0] = rvv[1] = 0, rvv[2] = 2 * c;
    return 0;
}

static double bowl_curvature = 0.4;

/* Gives the bowl for tag 71 when @p user is non-NULL, nothing otherwise. */
static int bowl_resolver(cdyn_callback_kind kind, uint64_t tag, cdyn_callback_binding *out,
                         void *user)
{
    if (!user || kind != CDYN_CALLBACK_SURFACE || tag != 71)
        return 1;
    out->surface = bowl;
    out->user = &bowl_curvature;
    return 0;
}

/* A particle sliding in a callback bowl under gravity: a copy loaded with
 * the bowl's tag resolved, and a clone, step to the same bits; a resolver
 * that does not know the tag gets CDYN_ERR_UNRESOLVED naming the surface,
 * and nothing is created or left allocated. */
static void test_callback_surface(void **state)
{
    (void)state;
    ts_world w;
    memset(&w, 0, sizeof w);
    w.dim = 3;
    assert_int_equal(cdyn_system_create(3, &w.sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(w.sys, CDYN_INTEGRATOR_RK4), CDYN_OK);
    const double x0[3] = {0.3, -0.2, 0.4 * (0.09 + 0.04)}, v0[3] = {0.1, 0.25, 0};
    const double g[3] = {0, 0, -9.81};
    cdyn_particle p;
    cdyn_force f;
    assert_int_equal(cdyn_particle_add(w.sys, 1.5, x0, v0, &p), CDYN_OK);
    assert_int_equal(cdyn_force_add_gravity(w.sys, g, &f), CDYN_OK);
    cdyn_surface_desc sd;
    cdyn_surface_desc_init(&sd, CDYN_SURFACE_CALLBACK);
    sd.callback = bowl;
    sd.user = &bowl_curvature;
    sd.tag = 71;
    sd.u_min = -2, sd.u_max = 2, sd.v_min = -2, sd.v_max = 2;
    cdyn_constraint c;
    assert_int_equal(cdyn_constraint_add_on_surface(w.sys, p, &sd, &c), CDYN_OK);
    w.particles[w.n_particles++] = p;
    w.held[w.n_constraints] = p;
    w.constraints[w.n_constraints++] = c;
    snprintf(context, sizeof context, "callback surface");
    assert_int_equal(run(w.sys, K), CDYN_OK);

    size_t size;
    unsigned char *buf = save_all(w.sys, &size);
    cdyn_snapshot_options o;
    cdyn_snapshot_options_init(&o);
    o.resolve = bowl_resolver;
    o.resolve_user = &bowl_curvature;
    cdyn_system *loaded = NULL, *cloned = NULL;
    assert_int_equal(cdyn_system_load(buf, size, &o, NULL, &loaded), CDYN_OK);
    assert_int_equal(cdyn_system_clone(w.sys, NULL, &cloned), CDYN_OK);
    for (int i = 0; i < M; i++) {
        assert_int_equal(cdyn_system_step(w.sys, DT), CDYN_OK);
        assert_int_equal(cdyn_system_step(loaded, DT), CDYN_OK);
        assert_int_equal(cdyn_system_step(cloned, DT), CDYN_OK);
    }
    assert_same_systems(&w, w.sys, loaded);
    assert_same_systems(&w, w.sys, cloned);
    cdyn_system_destroy(loaded);
    cdyn_system_destroy(cloned);

    /* The resolver does not know the bowl. */
    ts_counting_alloc count = {0};
    cdyn_allocator a = ts_counting_allocator(&count);
    o.allocator = &a;
    o.resolve_user = NULL;
    cdyn_snapshot_report rep = {.size = sizeof rep};
    loaded = (cdyn_system *)&count; /* overwritten */
    assert_int_equal(cdyn_system_load(buf, size, &o, &rep, &loaded), CDYN_ERR_UNRESOLVED);
    assert_null(loaded);
    assert_int_equal(rep.callback_kind, CDYN_CALLBACK_SURFACE);
    assert_true(rep.callback_tag == 71);
    assert_non_null(strstr(rep.message, "tag 71"));
    assert_int_equal(count.live_bytes, 0);
    assert_int_equal(count.allocs, count.frees);
    free(buf);
    cdyn_system_destroy(w.sys);
}

/* A system without callbacks needs no resolver; a clone keeps the
 * callbacks' functions and user pointers. */
static void test_no_resolver_needed(void **state)
{
    (void)state;
    ts_world w;
    ts_scene_build(&ts_scene_chain, &w, CDYN_INTEGRATOR_RATTLE, CDYN_SOLVER_DIRECT);
    size_t size;
    unsigned char *buf = save_all(w.sys, &size);
    cdyn_system *copy;
    assert_int_equal(cdyn_system_load(buf, size, NULL, NULL, &copy), CDYN_OK);
    cdyn_system_destroy(copy);
    free(buf);
    ts_scene_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_springs_loaded), cmocka_unit_test(test_springs_cloned),
        cmocka_unit_test(test_chain_loaded),   cmocka_unit_test(test_chain_cloned),
        cmocka_unit_test(test_coaster_loaded), cmocka_unit_test(test_coaster_cloned),
        cmocka_unit_test(test_rigid_loaded),   cmocka_unit_test(test_rigid_cloned),
        cmocka_unit_test(test_pairs_loaded),   cmocka_unit_test(test_pairs_cloned),
        cmocka_unit_test(test_driven_loaded),  cmocka_unit_test(test_driven_cloned),
        cmocka_unit_test(test_fluid_loaded),   cmocka_unit_test(test_fluid_cloned),
        cmocka_unit_test(test_langevin_loaded), cmocka_unit_test(test_langevin_cloned),
        cmocka_unit_test(test_handles_survive), cmocka_unit_test(test_bodies_and_grounds_by_handle),
        cmocka_unit_test(test_tags),           cmocka_unit_test(test_unresolved_tags),
        cmocka_unit_test(test_no_resolver_needed),
        cmocka_unit_test(test_snapshot_after_failed_steps),
        cmocka_unit_test(test_callback_surface),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
