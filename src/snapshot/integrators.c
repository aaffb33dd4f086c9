/* The integrators section of a snapshot: the options and the adaptive
 * state of every integrator that has them, whichever is selected, so that
 * switching integrators after a load behaves as it would have before.
 *
 *     RK45             options: f64 abs tol, rel tol, initial step, largest
 *                      step; f64 next step size; report: u64 steps, failed
 *                      steps, accepted, rejected, f64 last step, next step
 *     backward Euler   f64 tolerance, u32 iteration cap, report (u64 x 12:
 *                      cdyn_newton_stats in order but the residual; f64
 *                      residual), u32 residual history length, f64 x that
 *                      many; u8 pattern held, [u32 slots, rows, blocks,
 *                      u8 finite differences, u32 slot pairs, u32 x 2 each,
 *                      u32 row entries, u32 x 2 each (row, slot)]
 *
 * Backward Euler's Newton pattern keeps the blocks of the contacts it saw
 * when it was built; its order of elimination, and so the rounding of the
 * next steps, depends on them. It is saved when the next step would keep
 * it (same slot count; the rows and blocks the constraints will lay out)
 * and built again from the list at the load; otherwise both systems build
 * a new one at their next step. */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "core/alloc.h"
#include "core/system.h"
#include "snapshot/snapshot.h"
#include "step/backward_euler/backward_euler.h"
#include "step/integrator.h"
#include "step/runge_kutta.h"

static void save_rk45(cdyn__save *S)
{
    const cdyn__rk45 *rk = cdyn__integrator_state(S->sys, CDYN_INTEGRATOR_RK45);
    const double opt[4] = {rk->opt.abs_tol, rk->opt.rel_tol, rk->opt.initial_step,
                           rk->opt.max_step};
    cdyn__out_f64s(&S->w, opt, 4);
    cdyn__out_f64(&S->w, rk->h);
    const cdyn_rk45_stats *s = &rk->stats;
    const uint64_t counts[4] = {s->steps, s->failed_steps, s->accepted, s->rejected};
    for (int i = 0; i < 4; i++)
        cdyn__out_u64(&S->w, counts[i]);
    cdyn__out_f64(&S->w, s->last_step);
    cdyn__out_f64(&S->w, s->next_step);
}

static bool load_rk45(cdyn__load *L)
{
    cdyn__win *r = &L->r;
    cdyn__rk45 *rk = cdyn__integrator_state(L->sys, CDYN_INTEGRATOR_RK45);
    double o[4], h;
    cdyn__in_finites(r, o, 4, "RK45 options");
    h = cdyn__in_finite(r, "RK45 step");
    cdyn_rk45_stats *s = &rk->stats;
    s->steps = cdyn__in_u64(r);
    s->failed_steps = cdyn__in_u64(r);
    s->accepted = cdyn__in_u64(r);
    s->rejected = cdyn__in_u64(r);
    s->last_step = cdyn__in_finite(r, "RK45 last step");
    s->next_step = cdyn__in_finite(r, "RK45 next step");
    if (!cdyn__load_ok(L))
        return false;
    /* The setter's rules (step/rk45_options.c); h = 0 means "choose
     * afresh". */
    if (o[0] < 0 || o[1] < 0 || (o[0] == 0 && o[1] == 0) || o[2] < 0 || o[3] < 0 || h < 0)
        return cdyn__in_fail(r, "RK45: options or step %g out of range", h);
    rk->opt.abs_tol = o[0];
    rk->opt.rel_tol = o[1];
    rk->opt.initial_step = o[2];
    rk->opt.max_step = o[3];
    rk->h = h;
    return true;
}

/* The rows and blocks the enabled constraints lay out (the next step's
 * topology, whether or not it is laid out yet). */
static void topology_size(const cdyn_system *sys, uint64_t *rows, uint64_t *blocks)
{
    const cdyn__constraints *k = sys->cons;
    *rows = *blocks = 0;
    for (uint32_t i = 0; k && i < k->slots.count; i++) {
        const cdyn__constraint *c = &k->c[i];
        if (k->slots.alive[i] && c->enabled && !cdyn__constraint_is_shape(c)) {
            *rows += c->n_rows;
            *blocks += (uint64_t)c->n_rows * c->n_particles;
        }
    }
}

/* Whether the next backward Euler step keeps the pattern held: the one
 * saved. */
static bool pattern_kept(const cdyn_system *sys)
{
    const cdyn__be_layout *lay = &cdyn__be_of(sys)->lay;
    uint64_t rows, blocks;
    topology_size(sys, &rows, &blocks);
    return lay->np != 0 && lay->np == sys->particles.count && lay->nc == rows &&
           lay->nblk == blocks;
}

typedef struct pattern_out {
    cdyn__save *S;
    uint32_t n_slots, n_rows;
    bool write;
} pattern_out;

static void slot_pair_out(void *ctx, uint32_t i, uint32_t j)
{
    pattern_out *o = ctx;
    o->n_slots += !o->write;
    if (o->write) {
        cdyn__out_u32(&o->S->w, i);
        cdyn__out_u32(&o->S->w, j);
    }
}

static void row_entry_out(void *ctx, uint32_t r, uint32_t s)
{
    pattern_out *o = ctx;
    o->n_rows += !o->write;
    if (o->write) {
        cdyn__out_u32(&o->S->w, r);
        cdyn__out_u32(&o->S->w, s);
    }
}

/* Each list is written after its count: slot pairs in one pass, row
 * entries in another. */
static void row_entry_skip(void *ctx, uint32_t r, uint32_t s)
{
    (void)ctx, (void)r, (void)s;
}

static void slot_pair_skip(void *ctx, uint32_t i, uint32_t j)
{
    (void)ctx, (void)i, (void)j;
}

static void save_pattern(cdyn__save *S)
{
    const cdyn_system *sys = S->sys;
    bool kept = pattern_kept(sys);
    cdyn__out_u8(&S->w, kept ? 1 : 0);
    if (!kept)
        return;
    const cdyn__be_layout *lay = &cdyn__be_of(sys)->lay;
    cdyn__out_u32(&S->w, lay->np);
    cdyn__out_u32(&S->w, lay->nc);
    cdyn__out_u32(&S->w, lay->nblk);
    cdyn__out_u8(&S->w, lay->fd_diag ? 1 : 0);
    pattern_out o = {S, 0, 0, false};
    cdyn__be_pattern_blocks(sys, slot_pair_out, row_entry_out, &o);
    o.write = true;
    cdyn__out_u32(&S->w, o.n_slots);
    cdyn__be_pattern_blocks(sys, slot_pair_out, row_entry_skip, &o);
    cdyn__out_u32(&S->w, o.n_rows);
    cdyn__be_pattern_blocks(sys, slot_pair_skip, row_entry_out, &o);
}

/* Reads a list of @p what: a count, then pairs of u32 (allocated into
 * *out, NULL when empty). */
static bool load_pairs(cdyn__load *L, uint32_t **out, uint32_t *count, const char *what)
{
    *out = NULL;
    *count = cdyn__in_u32(&L->r);
    if (!cdyn__in_room(&L->r, *count, 8, what) || *count == 0)
        return cdyn__load_ok(L);
    if (!(*out = cdyn__alloc_array(&L->sys->alloc, *count, 2 * sizeof **out)))
        return cdyn__load_oom(L, what);
    cdyn__in_u32s(&L->r, *out, 2 * (size_t)*count);
    return cdyn__load_ok(L);
}

static bool load_pattern(cdyn__load *L)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    if (!cdyn__in_flag(r, "backward Euler: pattern"))
        return cdyn__load_ok(L);
    uint32_t np = cdyn__in_u32(r), nc = cdyn__in_u32(r), nblk = cdyn__in_u32(r);
    bool fd = cdyn__in_flag(r, "backward Euler: finite differences");
    uint64_t rows, blocks;
    topology_size(sys, &rows, &blocks);
    if (cdyn__load_ok(L) && (np == 0 || np != sys->particles.count || nc != rows || nblk != blocks))
        return cdyn__in_fail(r, "backward Euler: a pattern of %u slots, %u rows and %u blocks "
                                "for a system that has %u, %llu and %llu", np, nc, nblk,
                             sys->particles.count, (unsigned long long)rows,
                             (unsigned long long)blocks);
    uint32_t *slot_pairs = NULL, *row_entries = NULL, n_slots = 0, n_rows = 0;
    if (load_pairs(L, &slot_pairs, &n_slots, "backward Euler slot pairs"))
        load_pairs(L, &row_entries, &n_rows, "backward Euler row entries");
    cdyn_status st = cdyn__load_ok(L) ? cdyn__be_restore_pattern(sys, np, nc, nblk, fd,
                                                                   slot_pairs, n_slots,
                                                                   row_entries, n_rows)
                                      : CDYN_OK;
    cdyn__free_array(&sys->alloc, slot_pairs, n_slots, 2 * sizeof *slot_pairs);
    cdyn__free_array(&sys->alloc, row_entries, n_rows, 2 * sizeof *row_entries);
    if (st == CDYN_ERR_NO_MEMORY)
        return cdyn__load_oom(L, "backward Euler pattern");
    if (st)
        return cdyn__in_fail(r, "backward Euler: the pattern cannot be built again (%s)",
                             cdyn_status_string(st));
    return cdyn__load_ok(L);
}

static void save_be(cdyn__save *S)
{
    const cdyn__be *be = cdyn__be_of(S->sys);
    const cdyn_newton_stats *s = &be->stats;
    cdyn__out_f64(&S->w, be->opt.tolerance);
    cdyn__out_u32(&S->w, (uint32_t)be->opt.max_iterations);
    const uint64_t counts[12] = {s->iterations,     s->unknowns,       s->factor_nonzeros,
                                 s->redundant_rows, s->steps,          s->total_iterations,
                                 s->failed_steps,   s->regularized,    s->line_search_cuts,
                                 s->inexact_solves, s->dropped_blocks, s->analyses};
    for (int i = 0; i < 12; i++)
        cdyn__out_u64(&S->w, counts[i]);
    cdyn__out_f64(&S->w, s->residual);
    cdyn__out_u32(&S->w, (uint32_t)be->hist_len);
    cdyn__out_f64s(&S->w, be->hist, be->hist_len);
    save_pattern(S);
}

static bool load_be(cdyn__load *L)
{
    cdyn__win *r = &L->r;
    cdyn__be *be = cdyn__be_of(L->sys);
    double tol = cdyn__in_f64(r);
    uint32_t cap = cdyn__in_u32(r);
    uint64_t c[12];
    for (int i = 0; i < 12; i++)
        c[i] = cdyn__in_u64(r);
    double residual = cdyn__in_f64(r); /* a failed step's may not be finite */
    uint32_t n_hist = cdyn__in_u32(r);
    if (!cdyn__load_ok(L))
        return false;
    if (!(tol >= CDYN__NEWTON_MIN_TOLERANCE && tol <= CDYN__NEWTON_MAX_TOLERANCE) || cap < 1 ||
        cap > CDYN__NEWTON_MAX_ITERATIONS || n_hist > CDYN__NEWTON_MAX_ITERATIONS + 1u ||
        c[0] > CDYN__NEWTON_MAX_ITERATIONS)
        return cdyn__in_fail(r, "backward Euler: tolerance %g, cap %u or history %u out of range",
                             tol, cap, n_hist);
    be->opt.tolerance = tol;
    be->opt.max_iterations = cap;
    cdyn_newton_stats *s = &be->stats;
    size_t *sizes[4] = {&s->iterations, &s->unknowns, &s->factor_nonzeros, &s->redundant_rows};
    for (int i = 0; i < 4; i++) {
        if (c[i] > SIZE_MAX)
            return cdyn__in_fail(r, "backward Euler: count %llu too large",
                                 (unsigned long long)c[i]);
        *sizes[i] = (size_t)c[i];
    }
    uint64_t *counts[8] = {&s->steps,          &s->total_iterations, &s->failed_steps,
                           &s->regularized,    &s->line_search_cuts, &s->inexact_solves,
                           &s->dropped_blocks, &s->analyses};
    for (int i = 0; i < 8; i++)
        *counts[i] = c[4 + i];
    s->residual = residual;
    if (n_hist) {
        /* The history's room as the step makes it (backward_euler/pattern.c). */
        size_t need = (size_t)CDYN__NEWTON_MAX_ITERATIONS + 1;
        if (!(be->hist = cdyn__alloc_array(&L->sys->alloc, need, sizeof *be->hist)))
            return cdyn__load_oom(L, "backward Euler history");
        be->hist_cap = need;
        cdyn__in_f64s(r, be->hist, n_hist);
        be->hist_len = n_hist;
    }
    return cdyn__load_ok(L) && load_pattern(L);
}

void cdyn__save_integrators(cdyn__save *S)
{
    save_rk45(S);
    save_be(S);
}

bool cdyn__load_integrators(cdyn__load *L)
{
    return load_rk45(L) && load_be(L);
}
