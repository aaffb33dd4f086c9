/* The Newton sweep of the chain kernel (chain.h), segment by segment from
 * the last row to the first, at x* = x_p + W G0^T mu: the residuals g,
 * their test, and the elimination of J delta = -g within the segment,
 * J = G(x*) W G0^T with
 *
 *   J(r, r) = (w_a + w_b) e.e0_r,  J(r, r - 1) = lo = -w_a e.e0_(r-1),
 *   J(r, r + 1) = up = -w_b e.e0_(r+1)   (e = x*_b - x*_a of row r).
 *
 * The elimination from the segment's last row b up to its first row a
 * treats delta_next (the next segment's first unknown) as known and keeps
 * its column, the spike s:
 *
 *   p_r = J(r, r) - up lo_(r+1) / p_(r+1),   c_r = lo / p_r,
 *   y_r = (-g_r - up y_(r+1)) / p_r,   s_r = -up s_(r+1) / p_r   (s_(b+1) = -1)
 *
 * so that delta_r = y_r - c_r delta_(r-1) - s_r delta_next. Walking up, it
 * also composes these relations into delta_b = ta + tb delta_a + tc
 * delta_next, which the boundary system needs (chain_boundary.c). The
 * positions are formed on the fly from the multipliers; a particle's values
 * are carried to the next row of its path. */
#include <math.h>

#include "constraint/constraint.h"
#include "core/system.h"
#include "core/vec.h"
#include "projection/projection.h"
#include "solver/ldlt.h"

typedef struct ctx {
    const double *restrict x0, *restrict v0, *restrict a0, *restrict xb;
    const double *restrict w, *restrict lam, *restrict len;
    const uint32_t *restrict from, *restrict to, *restrict row_of;
    double *restrict nc, *restrict ny, *restrict ns;
    double h, h2, warm, tol2;
} ctx;

/* Carried from row r + 1 to row r. */
typedef struct nstate {
    cdyn__r3 x0a, xpb, db, e0k, e0n;
    double mk, wb, lonext, pnext, yn, sn, ta, tb, tc;
} nstate;

#define MU_OF(c, row, mode)                                                                     \
    (((mode) & CDYN__SWEEP_WARM)                                                                \
         ? (c)->warm * (c)->lam[(c)->row_of[row] & ~CDYN__CHAIN_FLIP]                          \
         : 0.0)

/* x_p of particle i: from x0, v0, a0, or as stored by a final sweep. */
static CDYN__ALWAYS_INLINE cdyn__r3 predict(const ctx *c, size_t i, cdyn__r3 x0i, const int mode,
                                            size_t D)
{
    if (mode & CDYN__SWEEP_REBASED)
        return cdyn__r3_load(c->xb + i * D, D);
    const cdyn__r3 vp = cdyn__r3_add(cdyn__r3_load(c->v0 + i * D, D),
                                     cdyn__r3_scale(c->h2, cdyn__r3_load(c->a0 + i * D, D), D), D);
    return cdyn__r3_add(x0i, cdyn__r3_scale(c->h, vp, D), D);
}

/* The state at row b (the segment's last row), before it is done. */
static CDYN__ALWAYS_INLINE void start(const ctx *c, nstate *s, const cdyn__chain_seg *g,
                                      const int mode, size_t D)
{
    const uint32_t b = g->end - 1;
    const size_t ib = c->to[b];
    s->wb = c->w[ib];
    const cdyn__r3 x0b = cdyn__r3_load(c->x0 + ib * D, D);
    s->x0a = cdyn__r3_load(c->x0 + (size_t)c->from[b] * D, D);
    s->xpb = predict(c, ib, x0b, mode, D);
    s->e0k = cdyn__r3_sub(x0b, s->x0a, D);
    /* Past a path's end the next row is particle b itself: e0 = 0. */
    const size_t ic = g->path_last ? ib : c->to[b + 1];
    s->e0n = cdyn__r3_sub(cdyn__r3_load(c->x0 + ic * D, D), x0b, D);
    const double mn = MU_OF(c, g->path_last ? b : b + 1, mode);
    s->mk = MU_OF(c, b, mode);
    /* (A path's last particle as the unpartitioned kernel forms it.) */
    s->db = g->path_last ? cdyn__r3_scale(s->wb * s->mk, s->e0k, D)
                         : cdyn__r3_scale(s->wb,
                                          cdyn__r3_sub(cdyn__r3_scale(s->mk, s->e0k, D),
                                                       cdyn__r3_scale(mn, s->e0n, D), D),
                                          D);
    s->lonext = s->yn = 0;
    s->pnext = HUGE_VAL;
    s->sn = -1;
    s->ta = s->tc = 0;
    s->tb = 1;
}

/* Row r; ip, rp: the previous row's first particle and row (at a path's
 * first row the row's own: e0 = 0). @p top: the segment's first row, which
 * ends the transfer. */
static CDYN__ALWAYS_INLINE void row(const ctx *c, nstate *s, cdyn__pass *p, double *sum,
                                    uint32_t r, size_t ip, uint32_t rp, const int top,
                                    const int spike, const int mode, size_t D)
{
    const size_t ia = c->from[r];
    const double wa = c->w[ia];
    const cdyn__r3 x0p = cdyn__r3_load(c->x0 + ip * D, D);
    const cdyn__r3 e0p = cdyn__r3_sub(s->x0a, x0p, D);
    const double mp = MU_OF(c, rp, mode);
    const cdyn__r3 xpa = predict(c, ia, s->x0a, mode, D);
    const cdyn__r3 da = cdyn__r3_scale(
        wa, cdyn__r3_sub(cdyn__r3_scale(mp, e0p, D), cdyn__r3_scale(s->mk, s->e0k, D), D), D);
    const cdyn__r3 ev = cdyn__r3_add(cdyn__r3_sub(s->xpb, xpa, D), cdyn__r3_sub(s->db, da, D), D);
    const double d2 = cdyn__r3_dot(ev, ev, D), l = c->len[r];
    const double g = 0.5 * (d2 - l * l);
    if (mode & CDYN__SWEEP_TRACK) {
        cdyn__check_exact(p, r, g, d2, l, c->tol2);
    } else {
        /* The warm start is not expected to pass: count, name nothing. */
        const double num = g * g;
        p->n_bad += !(num <= c->tol2 * (d2 * (l * l)));
        *sum += num;
    }
    const double di = (wa + s->wb) * cdyn__r3_dot(ev, s->e0k, D);
    const double lo = -(wa * cdyn__r3_dot(ev, e0p, D));
    const double up = -(s->wb * cdyn__r3_dot(ev, s->e0n, D));
    /* The pivot recurrence is a division and a subtraction: up lo_(r+1)
     * and the inverse pivot are off it (c_(r+1) = lo_(r+1) / p_(r+1)). A
     * pivot at or below CDYN__REDUNDANT_PIVOT of its diagonal drops the row:
     * it passes nothing on (p = inf). */
    const double piv = di - (up * s->lonext) / s->pnext;
    const bool keep = di > 0 && piv > CDYN__REDUNDANT_PIVOT * di;
    const double inv = keep ? 1.0 / piv : 0.0;
    const double cr = lo * inv, yr = (-g - up * s->yn) * inv;
    c->nc[r] = cr;
    c->ny[r] = yr;
    if (spike) {
        const double sr = -(up * s->sn) * inv;
        c->ns[r] = sr;
        s->sn = sr;
        if (!top) {
            s->ta += s->tb * yr;
            s->tc -= s->tb * sr;
            s->tb *= -cr;
        }
    }
    s->lonext = lo;
    s->pnext = keep ? piv : HUGE_VAL;
    s->yn = yr;
    /* Particle a becomes the previous row's particle b. */
    s->wb = wa;
    s->x0a = x0p;
    s->xpb = xpa;
    s->db = da;
    s->e0n = s->e0k;
    s->e0k = e0p;
    s->mk = mp;
}

/* @p spike: the segment does not end its path, so the next segment's
 * first unknown enters here (else the spike and the transfer are not
 * needed: nothing follows). */
static CDYN__ALWAYS_INLINE void rows(const ctx *c, cdyn__chain_seg *g, cdyn__pass *p,
                                     double *sum, const int spike, const int mode, size_t D)
{
    nstate s;
    start(c, &s, g, mode, D);
    const uint32_t a = g->start;
    for (uint32_t r = g->end - 1; r > a; r--)
        row(c, &s, p, sum, r, c->from[r - 1], r - 1, 0, spike, mode, D);
    /* The first row: its previous row is in the previous segment, or there
     * is none. */
    row(c, &s, p, sum, a, g->path_first ? c->from[a] : c->from[a - 1],
        g->path_first ? a : a - 1, 1, spike, mode, D);
    g->ta = s.ta;
    g->tb = s.tb;
    g->tc = s.tc;
}

static CDYN__ALWAYS_INLINE void segment(const ctx *c, cdyn__chain_seg *g, cdyn__pass *p,
                                        double *sum, const int mode, size_t D)
{
    if (g->path_last)
        rows(c, g, p, sum, 0, mode, D);
    else
        rows(c, g, p, sum, 1, mode, D);
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
                   .w = sys->inv_mass,
                   .lam = sys->cons->lambda,
                   .len = ch->row_length,
                   .from = ch->row_from,
                   .to = ch->row_to,
                   .row_of = ch->row_of,
                   .nc = ch->nc,
                   .ny = ch->ny,
                   .ns = ch->ns,
                   .h = in->h,
                   .h2 = in->h2,
                   .warm = in->warm,
                   .tol2 = cdyn__tol2_of(pr->opt.position_tolerance)};
    /* Each segment is swept from its last row down, so the blocks are
     * taken from the last down too: the arrays are walked down without a
     * jump, where the hardware's prefetcher would start again. */
    for (uint32_t b = end; b-- > begin;) {
        cdyn__chain_block *blk = &ch->block[b];
        cdyn__chain_block_init(blk);
        uint32_t k, k1;
        cdyn__chain_block_segs(ch, b, &k, &k1);
        for (; k < k1; k++) {
            cdyn__chain_seg *g = &ch->seg[k];
            if (g->twistable) {
                /* Both ends at once, unless a pivot sends it back here:
                 * then its tests start again. */
                const cdyn__pass pass = blk->pass;
                const double sum = blk->sum;
                g->twisted = cdyn__chain_twisted_newton(sys, in, mode, g, &blk->pass, &blk->sum);
                if (g->twisted)
                    continue;
                blk->pass = pass;
                blk->sum = sum;
            }
            segment(&c, g, &blk->pass, &blk->sum, mode, D);
        }
    }
}

void cdyn__chain_newton(cdyn_system *sys, const cdyn__chain_in *in, int mode, uint32_t begin,
                        uint32_t end)
{
#define NEWTON_CASE(M)                                                                         \
    case M:                                                                                    \
        if (sys->dim == 2)                                                                     \
            blocks(sys, in, begin, end, M, 2);                                                 \
        else                                                                                   \
            blocks(sys, in, begin, end, M, 3);                                                 \
        return;
    switch (mode) {
        CDYN__NEWTON_MODES(NEWTON_CASE)
    default:
        return;
    }
#undef NEWTON_CASE
}
