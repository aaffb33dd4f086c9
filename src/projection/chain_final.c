/* The final sweep of the chain kernel (chain.h), segment by segment from
 * the first row to the last, at x* = x_p + W G0^T mu (with
 * CDYN__SWEEP_BACK: mu + delta, the Newton step's back substitution
 * delta_r = y_r - c_r delta_(r-1) - s_r delta_next made on the way, from
 * the boundary values t at the segment's first row and bottom at its
 * last): the residuals and their test; x1 = x_p + D and v_h = v_p + D / h
 * stored; the change of each row's residual over the step; and the
 * factorization of A1 = G(x1) W G(x1)^T within the segment,
 *
 *   p_r = A1(r, r) - O_r^2 / p_(r-1),  O_r = A1(r, r - 1) = -w_a e1_(r-1).e1_r,
 *   L(r, r - 1) = O_r / p_(r-1),
 *
 * and D^-1 L^-1 of the unit spike e_a, f, of the coupling to the previous
 * segment, whose size o (which needs x1 beyond the segment) the boundary
 * system supplies (chain_boundary.c).
 *
 * Every particle is written by one segment: the second particle of each of
 * its rows, and the first particle of a path (fixed hubs, in several
 * paths, by the driver). A particle shared with the previous segment is
 * computed here again from the same numbers, to the same bits, for the
 * first row's residual and e1. */
#include <math.h>

#include "constraint/constraint.h"
#include "core/system.h"
#include "core/vec.h"
#include "projection/projection.h"
#include "solver/ldlt.h"

typedef struct ctx {
    const double *restrict x0, *restrict v0, *restrict a0, *restrict xb, *restrict vb;
    const double *restrict w, *restrict lam, *restrict len;
    double *restrict xn, *restrict vn;
    const uint32_t *restrict from, *restrict to, *restrict row_of;
    const double *restrict nc, *restrict ny, *ns;
    double *pinv, *lower, *af, *dres; /* dres is the Newton spike's array */
    double h, h2, inv_h, warm, tol2;
} ctx;

/* Carried from row r - 1 to row r. */
typedef struct fstate {
    cdyn__r3 x0b, xpa, da, x1a, e0k, e1p;
    double wa, mk, dk, pp, pprev, hp, fp;
} fstate;

/* Where delta of the next row comes from. */
enum { NEXT_INTERIOR, NEXT_BOTTOM, NEXT_SEGMENT };

#define MU_OF(c, row, mode)                                                                     \
    (((mode) & CDYN__SWEEP_WARM)                                                                \
         ? (c)->warm * (c)->lam[(c)->row_of[row] & ~CDYN__CHAIN_FLIP]                          \
         : 0.0)

static CDYN__ALWAYS_INLINE void predict(const ctx *c, size_t i, cdyn__r3 x0i, cdyn__r3 *xp,
                                        cdyn__r3 *vp, const int mode, size_t D)
{
    if (mode & CDYN__SWEEP_REBASED) {
        *xp = cdyn__r3_load(c->xb + i * D, D);
        *vp = cdyn__r3_load(c->vb + i * D, D);
        return;
    }
    *vp = cdyn__r3_add(cdyn__r3_load(c->v0 + i * D, D),
                       cdyn__r3_scale(c->h2, cdyn__r3_load(c->a0 + i * D, D), D), D);
    *xp = cdyn__r3_add(x0i, cdyn__r3_scale(c->h, *vp, D), D);
}

/* The state at the segment's first row: particle a (x_p, D, x1; stored
 * when the segment owns it), row a's e0 and its delta and mu. */
static CDYN__ALWAYS_INLINE void start(const ctx *c, fstate *s, const cdyn__chain_seg *g,
                                      const int mode, size_t D)
{
    const uint32_t a = g->start;
    const size_t ia = c->from[a];
    s->wa = c->w[ia];
    const cdyn__r3 x0a = cdyn__r3_load(c->x0 + ia * D, D);
    s->x0b = cdyn__r3_load(c->x0 + (size_t)c->to[a] * D, D);
    s->e0k = cdyn__r3_sub(s->x0b, x0a, D);
    cdyn__r3 vpa;
    predict(c, ia, x0a, &s->xpa, &vpa, mode, D);
    const int back = (mode & CDYN__SWEEP_BACK) != 0;
    s->dk = back ? g->t : 0.0;
    s->mk = MU_OF(c, a, mode) + s->dk;
    /* The previous row (in the previous segment), or none: e0 = 0. */
    const size_t ip = g->path_first ? ia : c->from[a - 1];
    const cdyn__r3 e0p = cdyn__r3_sub(x0a, cdyn__r3_load(c->x0 + ip * D, D), D);
    const double mp =
        g->path_first ? s->mk : MU_OF(c, a - 1, mode) + (back ? (g - 1)->bottom : 0.0);
    /* (A path's first particle as the unpartitioned kernel forms it.) */
    s->da = g->path_first ? cdyn__r3_scale(-s->wa * s->mk, s->e0k, D)
                          : cdyn__r3_scale(s->wa,
                                           cdyn__r3_sub(cdyn__r3_scale(mp, e0p, D),
                                                        cdyn__r3_scale(s->mk, s->e0k, D), D),
                                           D);
    s->x1a = cdyn__r3_add(s->xpa, s->da, D);
    if (g->own_first) {
        cdyn__r3_store(c->xn + ia * D, s->x1a, D);
        cdyn__r3_store(c->vn + ia * D, cdyn__r3_add(vpa, cdyn__r3_scale(c->inv_h, s->da, D), D),
                       D);
    }
    s->e1p = CDYN__R3_ZERO;
    s->pp = s->fp = s->hp = 0;
    s->pprev = HUGE_VAL;
}

/* Row r of segment g. @p first: the segment's first row; @p next: where
 * delta of the next row comes from (the back substitution, the segment's
 * bottom, the next segment's t). @p tn: t of the next segment (0 past a
 * path's end). @p pf, @p pl: g starts / ends its path (fixed at compile
 * time, so that an uncut path's rows test neither). */
static CDYN__ALWAYS_INLINE void row(const ctx *c, fstate *s, cdyn__pass *p, uint32_t r,
                                    const cdyn__chain_seg *g, double tn, const int first,
                                    const int next, const int mode, size_t D, const int pf,
                                    const int pl)
{
    const int back = (mode & CDYN__SWEEP_BACK) != 0;
    const size_t ib = c->to[r];
    const double wb = c->w[ib];
    /* The next row's particle, e0 and delta (past a path's end: particle b
     * itself, e0 = 0). */
    const int more = next != NEXT_SEGMENT || !pl;
    const size_t ic = more ? c->to[r + 1] : ib;
    const cdyn__r3 x0c = cdyn__r3_load(c->x0 + ic * D, D);
    const cdyn__r3 e0n = cdyn__r3_sub(x0c, s->x0b, D);
    double dn = 0;
    if (back) {
        /* The last row's delta is the boundary system's bottom when the
         * next segment reads it too; a path's last segment has no spike and
         * no bottom, and substitutes back to its end. */
        if (next == NEXT_INTERIOR || (next == NEXT_BOTTOM && pl)) {
            dn = c->ny[r + 1] - c->nc[r + 1] * s->dk;
            if (!pl)
                dn -= c->ns[r + 1] * tn;
        } else {
            dn = next == NEXT_BOTTOM ? g->bottom : tn;
        }
    }
    const double mn = more ? MU_OF(c, r + 1, mode) + dn : s->mk;
    cdyn__r3 xpb, vpb;
    predict(c, ib, s->x0b, &xpb, &vpb, mode, D);
    const cdyn__r3 db = cdyn__r3_scale(
        wb, cdyn__r3_sub(cdyn__r3_scale(s->mk, s->e0k, D), cdyn__r3_scale(mn, e0n, D), D), D);
    const cdyn__r3 ev = cdyn__r3_add(cdyn__r3_sub(xpb, s->xpa, D), cdyn__r3_sub(db, s->da, D), D);
    const double d2 = cdyn__r3_dot(ev, ev, D), l = c->len[r];
    cdyn__check_exact(p, r, 0.5 * (d2 - l * l), d2, l, c->tol2);
    const cdyn__r3 x1b = cdyn__r3_add(xpb, db, D);
    if (next != NEXT_SEGMENT || g->own_last) {
        cdyn__r3_store(c->xn + ib * D, x1b, D);
        cdyn__r3_store(c->vn + ib * D, cdyn__r3_add(vpb, cdyn__r3_scale(c->inv_h, db, D), D), D);
    }
    const cdyn__r3 e1 = cdyn__r3_sub(x1b, s->x1a, D);
    const double e1e1 = cdyn__r3_dot(e1, e1, D), diag = (s->wa + wb) * e1e1;
    /* The change of the row's residual over the step, g(x1) - g(x0), for
     * the reported multipliers (chain_velocity.c). */
    c->dres[r] = 0.5 * (e1e1 - cdyn__r3_dot(s->e0k, s->e0k, D));
    double o = 0, piv = diag;
    if (!first) {
        /* The pivot recurrence is a division and a subtraction (o o and
         * the inverse pivots are off it). */
        o = -(s->wa * cdyn__r3_dot(s->e1p, e1, D));
        piv = diag - (o * o) / s->pprev;
    }
    const bool keep = piv > CDYN__REDUNDANT_PIVOT * diag;
    const double pinv = keep ? 1.0 / piv : 0.0;
    /* L(r, r - 1) = o_r / p_(r-1) (0 at the segment's first row: its
     * coupling to the previous segment is the spike's). */
    const double lk = o * s->pp;
    c->pinv[r] = pinv;
    c->lower[r] = lk;
    /* The unit spike e_a of that coupling: h = L^-1 e_a, f = D^-1 h (none
     * at a path's start). */
    double h = 0, f = 0;
    if (!pf) {
        h = first ? 1.0 : -(lk * s->hp);
        f = h * pinv;
        c->af[r] = f;
    }
    /* Particle b becomes the next row's particle a. */
    s->wa = wb;
    s->x0b = x0c;
    s->xpa = xpb;
    s->da = db;
    s->x1a = x1b;
    s->e0k = e0n;
    s->e1p = e1;
    s->mk = mn;
    s->dk = dn;
    s->pp = pinv;
    s->pprev = keep ? piv : HUGE_VAL;
    s->hp = h;
    s->fp = f;
}

static CDYN__ALWAYS_INLINE void set3(double *out, cdyn__r3 v, size_t D)
{
    cdyn__r3_store(out, v, D);
    if (D == 2)
        out[2] = 0.0;
}

static CDYN__ALWAYS_INLINE void segment_as(const ctx *c, cdyn__chain_seg *g, cdyn__pass *p,
                                           const int mode, size_t D, const int pf, const int pl)
{
    fstate s;
    start(c, &s, g, mode, D);
    g->w_first = s.wa;
    const double tn = pl ? 0.0 : (g + 1)->t;
    const uint32_t a = g->start, n = g->end - a;
    if (n == 1) {
        row(c, &s, p, a, g, tn, 1, NEXT_SEGMENT, mode, D, pf, pl);
    } else if (n == 2) {
        row(c, &s, p, a, g, tn, 1, NEXT_BOTTOM, mode, D, pf, pl);
        set3(g->e1_first, s.e1p, D);
        row(c, &s, p, a + 1, g, tn, 0, NEXT_SEGMENT, mode, D, pf, pl);
    } else {
        row(c, &s, p, a, g, tn, 1, NEXT_INTERIOR, mode, D, pf, pl);
        set3(g->e1_first, s.e1p, D);
        const uint32_t b = g->end - 1;
        for (uint32_t r = a + 1; r + 1 < b; r++)
            row(c, &s, p, r, g, tn, 0, NEXT_INTERIOR, mode, D, pf, pl);
        row(c, &s, p, b - 1, g, tn, 0, NEXT_BOTTOM, mode, D, pf, pl);
        row(c, &s, p, b, g, tn, 0, NEXT_SEGMENT, mode, D, pf, pl);
    }
    if (n == 1)
        set3(g->e1_first, s.e1p, D);
    set3(g->e1_last, s.e1p, D);
    g->pinv_last = s.pp;
    g->f_last = s.fp;
}

static CDYN__ALWAYS_INLINE void segment(const ctx *c, cdyn__chain_seg *g, cdyn__pass *p,
                                        const int mode, size_t D)
{
    if (g->path_first && g->path_last)
        segment_as(c, g, p, mode, D, 1, 1);
    else if (g->path_first)
        segment_as(c, g, p, mode, D, 1, 0);
    else if (g->path_last)
        segment_as(c, g, p, mode, D, 0, 1);
    else
        segment_as(c, g, p, mode, D, 0, 0);
}

static CDYN__ALWAYS_INLINE void blocks(cdyn_system *sys, const cdyn__chain_in *in,
                                       uint32_t begin, uint32_t end, const int mode, size_t D)
{
    cdyn__projection *pr = sys->proj;
    cdyn__chain *ch = &pr->chain;
    const ctx c = {.x0 = in->x0,
                   .v0 = in->v0,
                   .a0 = in->a0,
                   .xb = in->xb,
                   .vb = in->vb,
                   .w = sys->inv_mass,
                   .lam = sys->cons->lambda,
                   .len = ch->row_length,
                   .xn = in->xn,
                   .vn = in->vn,
                   .from = ch->row_from,
                   .to = ch->row_to,
                   .row_of = ch->row_of,
                   .nc = ch->nc,
                   .ny = ch->ny,
                   .ns = ch->ns,
                   .pinv = ch->pinv,
                   .lower = ch->lower,
                   .af = ch->af,
                   .dres = ch->dres,
                   .h = in->h,
                   .h2 = in->h2,
                   .inv_h = in->inv_h,
                   .warm = in->warm,
                   .tol2 = cdyn__tol2_of(pr->opt.position_tolerance)};
    for (uint32_t b = begin; b < end; b++) {
        cdyn__chain_block *blk = &ch->block[b];
        cdyn__chain_block_init(blk);
        uint32_t k, k1;
        cdyn__chain_block_segs(ch, b, &k, &k1);
        for (; k < k1; k++) {
            cdyn__chain_seg *g = &ch->seg[k];
            if (g->twisted) /* the Newton sweep's choice */
                cdyn__chain_twisted_final(sys, in, mode, g, &blk->pass);
            else
                segment(&c, g, &blk->pass, mode, D);
        }
    }
}

void cdyn__chain_final(cdyn_system *sys, const cdyn__chain_in *in, int mode, uint32_t begin,
                       uint32_t end)
{
#define FINAL_CASE(M)                                                                          \
    case M:                                                                                    \
        if (sys->dim == 2)                                                                     \
            blocks(sys, in, begin, end, M, 2);                                                 \
        else                                                                                   \
            blocks(sys, in, begin, end, M, 3);                                                 \
        return;
    switch (mode) {
        CDYN__FINAL_MODES(FINAL_CASE)
    default:
        return;
    }
#undef FINAL_CASE
}
