/* White-box tests of RATTLE's chain kernel: the twisted velocity solve's
 * fallback, which no rod chain reaches from a step (its A1 is singular only
 * where the Newton sweep's Jacobian already was, and that sends the whole
 * step to the one-ended sweeps), driven here by hand; that long hanging
 * chains take the twisted sweeps; that paths numbered in steps of one
 * along them are marked so; that the velocity solve started near the
 * ends spares a heavy chain its refinements; and that a plan whose
 * allocation failed is made again. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "constraint/constraint.h"
#include "core/system.h"
#include "core/vec.h"
#include "projection/chain.h"
#include "projection/projection.h"
#include "support.h"

enum { RODS = 300 };

/* An empty 2-D system under RATTLE, tolerances 1e-12. */
static cdyn_system *rattle_system(void)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE), CDYN_OK);
    cdyn_projection_options o;
    cdyn_projection_options_init(&o);
    o.position_tolerance = o.velocity_tolerance = 1e-12;
    assert_int_equal(cdyn_system_set_projection_options(sys, &o), CDYN_OK);
    return sys;
}

/* A taut straight chain of RODS rods between two fixed particles, at rest:
 * its rows are redundant (RODS rods fix RODS - 1 coordinates along the
 * line). A step plans the kernel (one twistable path) and leaves it at
 * rest. */
static cdyn_system *taut_chain(cdyn_constraint *rods)
{
    cdyn_system *sys = rattle_system();
    cdyn_particle prev = 0, p;
    for (int i = 0; i <= RODS; i++) {
        assert_int_equal(cdyn_particle_add(sys, 1.0 + 0.5 * (i % 2), (double[]){0.1 * i, 0},
                                           NULL, &p),
                         CDYN_OK);
        if (i == 0 || i == RODS)
            assert_int_equal(cdyn_particle_set_fixed(sys, p, true), CDYN_OK);
        if (i > 0)
            assert_int_equal(cdyn_constraint_add_distance(sys, prev, p, 0.1, &rods[i - 1]),
                             CDYN_OK);
        prev = p;
    }
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    return sys;
}

/* The velocity projection of the taut chain with its segment marked as
 * swept from both ends: the forward sweep meets a pivot that fails the
 * redundancy test, factors A1 from one end (dropping the redundant row)
 * and hands the solve to the one-ended sweeps. The projection is then the
 * exact one: every velocity along the line is zero (the rods and the
 * fixed ends allow none), every velocity across it unchanged (G^T nu lies
 * along the line), and the multipliers reported are finite: the changes of
 * the rows' residuals, which the twisted final sweep keeps in its records,
 * are laid out in row order for the one-ended sweep (all zero here: the
 * rods hold exactly). The velocities come from vn, or from the records,
 * which the fallback must then put in vn. */
/* As a final sweep leaves a twisted segment's inner particles (2-D): x1,
 * v_h and w in the records (chain_lanes.h: pair k's record, 3 D + 4 lane
 * pairs, holds x1, v and w of the particles from[start + k] and
 * to[end - 1 - k], lane A and lane B, at lane pairs 0, D and 2 D), and
 * their velocities in @p v poisoned, so that only the records hold them. */
static void keep_in_records(cdyn_system *sys, double *v)
{
    cdyn__chain *ch = &sys->proj->chain;
    const cdyn__chain_seg *g = &ch->seg[0];
    const size_t D = 2, size = 3 * D + 4;
    for (uint32_t k = 1; k < (g->end - g->start) / 2; k++) {
        double *r = ch->pk + g->pk_base + 2 * k * size;
        const uint32_t ends[2] = {ch->row_from[g->start + k], ch->row_to[g->end - 1 - k]};
        for (int lane = 0; lane < 2; lane++) {
            const size_t i = ends[lane];
            for (size_t q = 0; q < D; q++) {
                r[2 * q + (size_t)lane] = sys->x[D * i + q];
                r[2 * (D + q) + (size_t)lane] = v[D * i + q];
                v[D * i + q] = NAN;
            }
            r[2 * (2 * D) + (size_t)lane] = sys->inv_mass[i];
        }
    }
    ch->vh_in_records = true;
}

static void forward_fallback(bool records)
{
    cdyn_constraint rods[RODS];
    cdyn_system *sys = taut_chain(rods);
    cdyn__chain *ch = &sys->proj->chain;
    assert_true(ch->usable);
    assert_int_equal(ch->n_segs, 1);
    assert_true(ch->seg[0].twistable);
    const size_t m = 2 * (RODS + 1);
    double *v = calloc(m, sizeof *v), *a1 = calloc(m, sizeof *a1);
    assert_non_null(v);
    assert_non_null(a1);
    for (int i = 1; i < RODS; i++) {
        v[2 * i] = 0.3 * sin(i);
        v[2 * i + 1] = 0.2 * cos(i);
    }
    /* What the one-ended sweeps of the first step left is not to be used. */
    for (uint32_t r = 0; r < RODS; r++)
        ch->pinv[r] = ch->lower[r] = ch->dres[r] = NAN;
    ch->seg[0].twisted = true;
    if (records)
        keep_in_records(sys, v);
    bool finite = false;
    assert_int_equal(cdyn__projection_chain_velocities(sys, sys->x, v, a1, 1e-3, &finite),
                     CDYN_OK);
    assert_true(finite);
    assert_false(ch->seg[0].twisted); /* sent back to the one-ended sweeps */
    int dropped = 0;
    for (uint32_t r = 0; r < RODS; r++)
        dropped += ch->pinv[r] == 0.0;
    double along = 0, across = 0;
    for (int i = 0; i <= RODS; i++) {
        along = fmax(along, fabs(v[2 * i]));
        const double was = i == 0 || i == RODS ? 0.0 : 0.2 * cos(i);
        across = fmax(across, fabs(v[2 * i + 1] - was));
    }
    print_message("fallback (v_h %s): %d row dropped; velocities along the line up to "
                  "%.1e m/s, across it changed by %.1e m/s\n",
                  records ? "in the records" : "in vn", dropped, along, across);
    assert_int_equal(dropped, 1);
    for (int i = 0; i < RODS; i++) {
        double lambda;
        assert_int_equal(cdyn_constraint_get_multipliers(sys, rods[i], &lambda, 1), CDYN_OK);
        assert_true(isfinite(lambda));
    }
    assert_true(along < 1e-13);
    assert_true(across == 0.0);
    free(v);
    free(a1);
    cdyn_system_destroy(sys);
}

static void test_forward_fallback(void **state)
{
    (void)state;
    forward_fallback(false);
    forward_fallback(true);
}

/* A hanging chain of RODS rods (not straight: no redundant row) steps with
 * the twisted sweeps where the compiler has vector extensions, and keeps
 * them through the velocity solve. The direct solver's analysis, which
 * the kernel does not use, is not made; the multiplier solve of the next
 * integrator makes it. */
static void test_twisted_taken(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE), CDYN_OK);
    assert_int_equal(ts_standard_chain(sys, RODS, NULL, NULL), CDYN_OK);
    for (int k = 0; k < 3; k++)
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    const cdyn__chain *ch = &sys->proj->chain;
    assert_true(ch->usable);
    assert_int_equal(ch->n_segs, 1);
#if defined(CDYN__HAVE_V2D)
    assert_true(ch->seg[0].twistable);
    assert_true(ch->seg[0].twisted);
    assert_true(ch->seg[0].sequential);
#else
    assert_false(ch->seg[0].twistable);
#endif
    assert_null(sys->cons->ldlt.w);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_SYMPLECTIC_EULER), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1e-4), CDYN_OK);
    assert_non_null(sys->cons->ldlt.w);
    assert_int_equal(sys->cons->ldlt.sym.n, RODS);
    cdyn_system_destroy(sys);
}

/* The plan of a hanging chain of RODS rods: particle @p gap_at of the
 * numbering is a particle in no rod (none when negative), and the rods
 * are added from the free end up when @p reversed. */
static const cdyn__chain_seg *plan_of(cdyn_system **sys, int gap_at, int reversed)
{
    *sys = rattle_system();
    cdyn_particle p[RODS + 1], spare;
    for (int i = 0; i <= RODS; i++) {
        if (i == gap_at)
            assert_int_equal(cdyn_particle_add(*sys, 1.0, (double[]){0, 1}, NULL, &spare),
                             CDYN_OK);
        assert_int_equal(cdyn_particle_add(*sys, 1.0, (double[]){0.1 * i, 0}, NULL, &p[i]),
                         CDYN_OK);
    }
    assert_int_equal(cdyn_particle_set_fixed(*sys, p[0], true), CDYN_OK);
    for (int k = 0; k < RODS; k++) {
        const int i = reversed ? RODS - 1 - k : k;
        cdyn_constraint c;
        assert_int_equal(cdyn_constraint_add_distance(*sys, p[i], p[i + 1], 0.1, &c), CDYN_OK);
    }
    cdyn_force g;
    assert_int_equal(cdyn_force_add_gravity(*sys, (double[]){0, -9.81}, &g), CDYN_OK);
    assert_int_equal(cdyn_system_step(*sys, 1e-3), CDYN_OK);
    const cdyn__chain *ch = &(*sys)->proj->chain;
    assert_true(ch->usable);
    assert_int_equal(ch->n_segs, 1);
    return &ch->seg[0];
}

/* A path numbered in steps of one along it, either way, is marked
 * sequential with its numbering; a gap in the numbering keeps the loaded
 * indices. */
static void test_sequential_marked(void **state)
{
    (void)state;
#if defined(CDYN__HAVE_V2D)
    cdyn_system *sys;
    const cdyn__chain_seg *g = plan_of(&sys, -1, 0);
    assert_true(g->twisted && g->sequential);
    assert_int_equal(g->num.p_step, 1);
    assert_int_equal(g->num.q_step, 1);
    for (uint32_t r = g->start; r < g->end; r++) {
        const cdyn__chain *ch = &sys->proj->chain;
        assert_int_equal(ch->row_from[r], g->num.p_base + g->num.p_step * (int64_t)r);
        assert_int_equal(ch->row_of[r] & ~CDYN__CHAIN_FLIP, g->num.q_base + g->num.q_step * (int64_t)r);
    }
    cdyn_system_destroy(sys);
    g = plan_of(&sys, -1, 1); /* the path runs from the free end */
    assert_true(g->twisted && g->sequential);
    assert_int_equal(g->num.p_step, -1);
    assert_int_equal(g->num.p_base, RODS);
    cdyn_system_destroy(sys);
    g = plan_of(&sys, RODS / 2, 0);
    assert_true(g->twisted);
    assert_false(g->sequential);
    cdyn_system_destroy(sys);
#endif
}

/* A chain of RODS rods under a bob of 10^4 times a link's mass, swinging:
 * every rod carries about the bob's weight, so on each particle the
 * velocity solve's impulses nearly cancel, and near the pivot, where the
 * particles barely move, their rounding from a cold start exceeds the
 * tolerance of 1e-12 in about two steps of three, each then refined. From
 * the position projection's multipliers near the path's ends (the warm
 * rows) the solve meets it at once nearly always. */
static void test_velocity_start_near_ends(void **state)
{
    (void)state;
#if defined(CDYN__HAVE_V2D)
    enum { STEPS = 200 };
    cdyn_system *sys = rattle_system();
    cdyn_particle prev, p;
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0, 0}, NULL, &prev), CDYN_OK);
    assert_int_equal(cdyn_particle_set_fixed(sys, prev, true), CDYN_OK);
    for (int i = 1; i <= RODS; i++) {
        const double x[2] = {0.1 * i * sin(0.5), -0.1 * i * cos(0.5)};
        assert_int_equal(cdyn_particle_add(sys, i == RODS ? 1e4 : 1.0, x, NULL, &p), CDYN_OK);
        cdyn_constraint c;
        assert_int_equal(cdyn_constraint_add_distance(sys, prev, p, 0.1, &c), CDYN_OK);
        prev = p;
    }
    cdyn_force g;
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g), CDYN_OK);
    for (int k = 0; k < STEPS; k++)
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    assert_true(sys->proj->chain.seg[0].twisted);
    cdyn_projection_stats ps = {.size = sizeof ps};
    assert_int_equal(cdyn_system_get_projection_stats(sys, &ps), CDYN_OK);
    const double solves = (double)ps.velocity_iterations_total / STEPS;
    double pr, vr;
    assert_int_equal(cdyn_system_compute_constraint_residuals(sys, &pr, &vr), CDYN_OK);
    print_message("heavy bob: %.3f velocity solves a step, residuals %.1e, %.1e\n", solves, pr,
                  vr);
    assert_true(solves < 1.1);
    assert_true(ps.velocity_residual <= 1e-12);
    cdyn_system_destroy(sys);
#endif
}

/* A failed allocation while the plan is remade (the records of a path no
 * longer cut, once the task system is taken back) fails that step, state
 * kept; the next one, with the memory back, plans again and sweeps the
 * path from both ends. */
static void test_plan_again_after_failure(void **state)
{
    (void)state;
    enum { LONG = 8000 }; /* cut in two for a task system */
    ts_counting_alloc ca = {0};
    const cdyn_allocator al = ts_counting_allocator(&ca);
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create_with_allocator(2, &al, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE), CDYN_OK);
    assert_int_equal(ts_standard_chain(sys, LONG, NULL, NULL), CDYN_OK);
    ts_reverse_host host = {0, 0, 0};
    const cdyn_task_system ts = ts_reverse_tasks(&host, 2);
    assert_int_equal(cdyn_system_set_task_system(sys, &ts), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    const cdyn__chain *ch = &sys->proj->chain;
    assert_true(ch->usable);
    assert_int_equal(ch->n_segs, 2);
    assert_int_equal(cdyn_system_set_task_system(sys, NULL), CDYN_OK);
    static double x0[2 * (LONG + 1)], x1[2 * (LONG + 1)];
    assert_int_equal(cdyn_system_get_positions(sys, x0, 2 * (LONG + 1)), CDYN_OK);
    ca.fail_at = ca.allocs + 1;
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_ERR_NO_MEMORY);
    assert_int_equal(cdyn_system_get_positions(sys, x1, 2 * (LONG + 1)), CDYN_OK);
    assert_memory_equal(x0, x1, sizeof x0);
    ca.fail_at = 0;
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    assert_true(ch->usable);
    assert_int_equal(ch->n_segs, 1);
#if defined(CDYN__HAVE_V2D)
    assert_true(ch->seg[0].twisted);
#endif
    cdyn_system_destroy(sys);
    assert_int_equal(ca.live_bytes, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_twisted_taken),
        cmocka_unit_test(test_forward_fallback),
        cmocka_unit_test(test_plan_again_after_failure),
        cmocka_unit_test(test_sequential_marked),
        cmocka_unit_test(test_velocity_start_near_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
