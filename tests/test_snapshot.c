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
    assert_true(ran >= 10); /* only shapes under RATTLE and backward Euler sit out */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_springs_loaded), cmocka_unit_test(test_springs_cloned),
        cmocka_unit_test(test_chain_loaded),   cmocka_unit_test(test_chain_cloned),
        cmocka_unit_test(test_coaster_loaded), cmocka_unit_test(test_coaster_cloned),
        cmocka_unit_test(test_rigid_loaded),   cmocka_unit_test(test_rigid_cloned),
        cmocka_unit_test(test_pairs_loaded),   cmocka_unit_test(test_pairs_cloned),
        cmocka_unit_test(test_driven_loaded),  cmocka_unit_test(test_driven_cloned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
