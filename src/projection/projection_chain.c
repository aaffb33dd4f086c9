/* RATTLE on rod chains (docs/rattle.md section 4): the drivers of the
 * partitioned kernel (chain.h). A step is four sweeps, each a parallel loop
 * over the plan's blocks, with the boundary systems between them on the
 * calling thread:
 *
 *   positions   Newton sweep (residuals at the warm start, the elimination
 *               of J delta = -g), Newton boundary, final sweep (delta, x1,
 *               v_h, residuals, the factorization of A1), A1 boundary
 *   velocities  forward sweep (the closing kick, y), velocity boundary,
 *               backward sweep (nu, v1, the multipliers, the tests)
 *
 * Newton converges quadratically: from the warm start (the previous closing
 * kick's multipliers) one solve per step. The particles in no row and the
 * fixed hubs (fixed particles in several rows) are done here, outside the
 * sweeps, so that every particle has one writer. Allocates nothing. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/system.h"
#include "core/tasks.h"
#include "core/vec.h"
#include "constraint/constraint.h"
#include "projection/chain.h"
#include "projection/projection.h"
#include "projection/projection_pass.h"

#define ROW_MASK (~CDYN__CHAIN_FLIP)
/* Newton iterations without halving the largest residual before the
 * position projection gives up. */
#define STALL 8
/* Rows below which a sweep is not worth handing to the host's threads
 * (a few tens of microseconds of work). */
#define PARALLEL_ROWS 8192.0

/* ------------------------------------------------------------------------
 * The parallel loops
 * ------------------------------------------------------------------------ */

typedef struct job {
    cdyn_system *sys;
    const cdyn__chain_in *in;
    int mode;
    /* velocities */
    const double *xn, *a1;
    double *vn;
    double h2, scale;
    int flag; /* kick (forward) or refine (backward) */
} job;

static void newton_task(uint32_t begin, uint32_t end, void *context)
{
    const job *j = context;
    cdyn__chain_newton(j->sys, j->in, j->mode, begin, end);
}

static void final_task(uint32_t begin, uint32_t end, void *context)
{
    const job *j = context;
    cdyn__chain_final(j->sys, j->in, j->mode, begin, end);
}

static void forward_task(uint32_t begin, uint32_t end, void *context)
{
    const job *j = context;
    cdyn__chain_velocity_forward(j->sys, j->xn, j->vn, j->a1, j->h2, j->flag, begin, end);
}

static void backward_task(uint32_t begin, uint32_t end, void *context)
{
    const job *j = context;
    cdyn__chain_velocity_backward(j->sys, j->xn, j->vn, j->a1, j->h2, j->scale, j->flag, begin,
                                  end);
}

/* Runs @p fn over every block, on the host's threads when worth it, and
 * merges the blocks' passes in block order into @p out (may be NULL). */
static void run(cdyn_system *sys, cdyn_task_fn fn, job *j, cdyn__pass *out)
{
    const cdyn__chain *ch = &sys->proj->chain;
    cdyn__tasks_run(&sys->tasks, ch->n_blocks, 1, (double)ch->n_rows, PARALLEL_ROWS, fn, j);
    if (!out)
        return;
    cdyn__pass p;
    cdyn__pass_init(&p);
    double sum = 0;
    for (uint32_t b = 0; b < ch->n_blocks; b++) {
        const cdyn__pass *q = &ch->block[b].pass;
        if (q->wn * p.wd > p.wn * q->wd) {
            p.wn = q->wn;
            p.wd = q->wd;
            p.worst_row = q->worst_row;
        }
        if (q->bn * p.bd > p.bn * q->bd) {
            p.bn = q->bn;
            p.bd = q->bd;
            p.bad_row = q->bad_row;
        }
        p.n_bad += q->n_bad;
        p.finite &= q->finite;
        sum += ch->block[b].sum;
    }
    p.finite &= sum <= DBL_MAX;
    *out = p;
}

static void newton(cdyn_system *sys, const cdyn__chain_in *in, int mode, cdyn__pass *p)
{
    job j = {sys, in, mode, NULL, NULL, NULL, 0, 0, 0};
    run(sys, newton_task, &j, p);
    cdyn__chain_newton_boundary(&sys->proj->chain);
    sys->proj->stats.factorizations++;
}

static void final(cdyn_system *sys, const cdyn__chain_in *in, int mode, cdyn__pass *p)
{
    job j = {sys, in, mode, NULL, NULL, NULL, 0, 0, 0};
    run(sys, final_task, &j, p);
    sys->proj->chain.vh_in_records = true;
    sys->proj->stats.factorizations++;
}

void cdyn__projection_chain_store_vh(cdyn_system *sys, double *vn)
{
    cdyn__chain *ch = &sys->proj->chain;
    if (!ch->vh_in_records)
        return;
    ch->vh_in_records = false;
    for (uint32_t k = 0; k < ch->n_segs; k++)
        if (ch->seg[k].twisted)
            cdyn__chain_twisted_store_vh(sys, vn, &ch->seg[k]);
}

/* ------------------------------------------------------------------------
 * Positions
 * ------------------------------------------------------------------------ */

static void note_stats(cdyn_system *sys, const cdyn__pass *p, bool failed)
{
    cdyn__projection *pr = sys->proj;
    uint32_t row = failed ? p->bad_row : p->worst_row;
    pr->stats.position_residual = cdyn__pass_worst(p);
    pr->stats.worst = cdyn__projection_row_handle(sys, pr->chain.row_of[row] & ROW_MASK);
}

/* The pass with rows renumbered from path order to constraint rows. */
static cdyn__pass to_rows(const cdyn__projection *pr, cdyn__pass p)
{
    p.worst_row = pr->chain.row_of[p.worst_row] & ROW_MASK;
    p.bad_row = pr->chain.row_of[p.bad_row] & ROW_MASK;
    return p;
}

/* The particles in no row and the fixed hubs: the predictor alone. */
static void drift_unplanned(cdyn_system *sys, const cdyn__chain_in *in)
{
    const cdyn__chain *ch = &sys->proj->chain;
    const size_t d = (size_t)sys->dim;
    for (int list = 0; list < 2; list++) {
        const uint32_t *ids = list ? ch->fixed_hubs : ch->free_particles;
        const uint32_t count = list ? ch->n_hubs : ch->n_free;
        for (uint32_t i = 0; i < count; i++) {
            size_t s = (size_t)ids[i] * d;
            for (size_t q = 0; q < d; q++) {
                in->vn[s + q] = in->v0[s + q] + in->h2 * in->a0[s + q];
                in->xn[s + q] = in->x0[s + q] + in->h * in->vn[s + q];
            }
        }
    }
}

cdyn_status cdyn__projection_chain_positions(cdyn_system *sys, const double *x0,
                                             const double *v0, const double *a0, double *xn,
                                             double *vn, double h)
{
    cdyn__constraints *k = sys->cons;
    cdyn__projection *pr = sys->proj;
    const size_t cap = pr->opt.max_iterations, d = (size_t)sys->dim;
    const size_t len = (size_t)sys->particles.count * d;
    /* The base of a rebased iteration (x_p, v_p as a final sweep stored
     * them) is copied to xs and xcopy, free here. */
    const cdyn__chain_in in = {x0, v0, a0, xn, vn, pr->xs, pr->xcopy,
                               h,  0.5 * h, 1.0 / h, 0.5 * h * h};
    pr->stats.projections++;
    pr->stats.position_iterations = 0;
    pr->stats.velocity_iterations = 0;
    /* The general path's caches: k->jac and the displacements change here. */
    pr->valid = false;
    if (pr->dv_valid) {
        memset(pr->dx, 0, len * sizeof *pr->dx);
        pr->dv_valid = false;
    }
    drift_unplanned(sys, &in);
    /* Warm start: the impulse of the multipliers at x0 (the previous
     * closing kick's), mu = h^2/2 lambda; an O(h^3) residual is left. The
     * pass of a warm sweep counts and tests, but names no row. */
    int mode = k->evaluated ? CDYN__SWEEP_WARM : CDYN__SWEEP_TRACK;
    bool warm_now = mode == CDYN__SWEEP_WARM, warm_last = false;
    cdyn__pass p, last;
    newton(sys, &in, mode, &p);
    size_t it = 0, since = 0;
    double best = HUGE_VAL;
    bool final_pass = false; /* p is of a final sweep */
    cdyn_status st = CDYN_OK;
    mode &= ~CDYN__SWEEP_TRACK;
    for (;;) {
        if (!p.finite) {
            /* From finite positions, an iteration that leaves them has
             * diverged: the constraints cannot be met from here. */
            if (it == 0) {
                st = cdyn__projection_non_finite(sys, "position");
            } else {
                if (warm_last) /* the same residuals, rows named */
                    newton(sys, &in, CDYN__SWEEP_WARM | CDYN__SWEEP_TRACK, &last);
                cdyn__pass q = to_rows(pr, last);
                st = cdyn__projection_not_converged(sys, &q, "position", it,
                                                    pr->opt.position_tolerance, true);
                note_stats(sys, &last, true);
            }
            break;
        }
        last = p;
        warm_last = warm_now;
        warm_now = false;
        if (p.n_bad == 0) {
            if (!final_pass) /* converged without a sweep that stored the result */
                final(sys, &in, mode, &p);
            note_stats(sys, &p, false);
            break;
        }
        /* Newton converges fast or not at all: a largest residual that
         * has not halved in STALL iterations will not meet the tolerance
         * (no positions near the predicted ones satisfy the rods). */
        bool stalled = false;
        if (final_pass) {
            const double worst = cdyn__pass_worst(&p);
            if (worst < 0.5 * best) {
                best = worst;
                since = 0;
            } else {
                stalled = ++since >= STALL;
            }
        }
        if (it >= cap || stalled) {
            cdyn__pass q = to_rows(pr, p);
            st = cdyn__projection_not_converged(sys, &q, "position", it,
                                                pr->opt.position_tolerance, false);
            note_stats(sys, &p, true);
            break;
        }
        if (final_pass) {
            /* xn, vn hold x_p + D, v_p + D / h: the new base, from which the
             * multipliers start again at 0. */
            cdyn__projection_chain_store_vh(sys, vn);
            memcpy(pr->xs, xn, len * sizeof *xn);
            memcpy(pr->xcopy, vn, len * sizeof *vn);
            mode = CDYN__SWEEP_REBASED;
            newton(sys, &in, mode | CDYN__SWEEP_TRACK, &p);
            final_pass = false;
            continue;
        }
        it++;
        final(sys, &in, mode | CDYN__SWEEP_BACK, &p);
        final_pass = true;
    }
    pr->stats.position_iterations = it;
    pr->stats.position_iterations_total += it;
    return st;
}

/* ------------------------------------------------------------------------
 * Velocities
 * ------------------------------------------------------------------------ */

/* The velocity tests of every row with rows named (check_velocity). */
static CDYN__ALWAYS_INLINE void velocity_test_d(cdyn_system *sys, const double *restrict xn,
                                                const double *restrict vn, cdyn__pass *out,
                                                size_t D)
{
    const cdyn__projection *pr = sys->proj;
    const uint32_t *restrict from = pr->chain.row_from, *restrict to = pr->chain.row_to;
    const uint32_t *restrict path_start = pr->chain.path_start;
    const double tol2 = cdyn__tol2_of(pr->opt.velocity_tolerance);
    cdyn__pass p;
    cdyn__pass_init(&p);
    for (uint32_t q = 0; q < pr->chain.n_paths; q++) {
        size_t ia = from[path_start[q]];
        for (uint32_t r = path_start[q]; r < path_start[q + 1]; r++) {
            const size_t ib = to[r];
            const cdyn__r3 e1 = cdyn__r3_sub(cdyn__r3_load(xn + ib * D, D),
                                             cdyn__r3_load(xn + ia * D, D), D);
            const cdyn__r3 va = cdyn__r3_load(vn + ia * D, D), vb = cdyn__r3_load(vn + ib * D, D);
            cdyn__check_velocity(&p, r, cdyn__r3_dot(e1, cdyn__r3_sub(vb, va, D), D),
                                 cdyn__r3_dot(e1, e1, D),
                                 cdyn__maxd(cdyn__r3_dot(va, va, D), cdyn__r3_dot(vb, vb, D)),
                                 tol2);
            ia = ib;
        }
    }
    *out = p;
}

static void velocity_test(cdyn_system *sys, const double *xn, const double *vn, cdyn__pass *p)
{
    if (sys->dim == 2)
        velocity_test_d(sys, xn, vn, p, 2);
    else
        velocity_test_d(sys, xn, vn, p, 3);
}

/* One solve: forward sweep, boundary system, backward sweep. The first
 * takes the closing kick and sets the reported multipliers; a refinement
 * solves again with the same factor and adds to them. */
static void velocity_solve(cdyn_system *sys, const double *xn, double *vn, const double *a1,
                           double h, bool first, cdyn__pass *p)
{
    job j = {sys, NULL, 0, xn, a1, vn, 0.5 * h, 2.0 / h, first ? 1 : 0};
    run(sys, forward_task, &j, NULL);
    if (first) /* the forward sweep has composed the transfers */
        cdyn__chain_a1_boundary(&sys->proj->chain, (size_t)sys->dim);
    cdyn__chain_velocity_boundary(&sys->proj->chain, first ? 2 : 1);
    j.flag = first ? 0 : 1;
    run(sys, backward_task, &j, p);
}

cdyn_status cdyn__projection_chain_velocities(cdyn_system *sys, const double *xn, double *vn,
                                              const double *a1, double h, bool *finite)
{
    cdyn__constraints *k = sys->cons;
    cdyn__projection *pr = sys->proj;
    const cdyn__chain *ch = &pr->chain;
    const size_t cap = pr->opt.max_iterations;
    const size_t d = (size_t)sys->dim;
    /* The particles in no row take their closing kick here, and are
     * checked here: the residual tests see only those in rows. The fixed
     * hubs too (a1 = 0 there: the sweeps, which kick what they read, kick
     * them again by nothing). */
    bool free_finite = true;
    for (uint32_t i = 0; i < ch->n_free; i++) {
        size_t s = (size_t)ch->free_particles[i] * d;
        for (size_t q = 0; q < d; q++) {
            vn[s + q] += 0.5 * h * a1[s + q];
            free_finite &= isfinite(xn[s + q]) && isfinite(vn[s + q]);
        }
    }
    for (uint32_t i = 0; i < ch->n_hubs; i++) {
        size_t s = (size_t)ch->fixed_hubs[i] * d;
        for (size_t q = 0; q < d; q++)
            vn[s + q] += 0.5 * h * a1[s + q];
    }
    cdyn__pass p, last;
    size_t it = 1;
    velocity_solve(sys, xn, vn, a1, h, true, &p);
    /* The multipliers now describe the candidate state, and G(x1) follows
     * from its positions. */
    k->evaluated = true;
    k->blocks_unstored = true;
    cdyn_status st = CDYN_OK;
    last = p;
    for (;;) {
        if (!p.finite) {
            /* A refinement from finite velocities to non-finite ones
             * (practically unreachable): the rows named are those of the
             * state it left. */
            if (it > 1)
                velocity_test(sys, xn, vn, &last);
            cdyn__pass q = to_rows(pr, last);
            st = it > 1 ? cdyn__projection_not_converged(sys, &q, "velocity", it,
                                                         pr->opt.velocity_tolerance, true)
                        : cdyn__projection_non_finite(sys, "velocity");
            p = last;
            break;
        }
        last = p;
        if (p.n_bad == 0)
            break;
        if (it >= cap) {
            velocity_test(sys, xn, vn, &p); /* name the rows */
            cdyn__pass q = to_rows(pr, p);
            st = cdyn__projection_not_converged(sys, &q, "velocity", it,
                                                pr->opt.velocity_tolerance, false);
            break;
        }
        /* Refinement with the same factor (an ill-conditioned A1). */
        it++;
        velocity_solve(sys, xn, vn, a1, h, false, &p);
    }
    pr->stats.velocity_iterations += it;
    pr->stats.velocity_iterations_total += it;
    pr->stats.velocity_residual = cdyn__pass_worst(&p);
    sys->proj->chain.vh_in_records = false; /* vn is whole: the backward sweep wrote it */
    if (st)
        k->evaluated = false; /* the multipliers are of a step not taken */
    /* Every coordinate of a particle in a row enters its row's residuals,
     * which a converged pass found finite (a NaN or infinite coordinate
     * makes them NaN or infinite, also against a zero component). */
    *finite = !st && free_finite;
    return st;
}
