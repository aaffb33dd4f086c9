/* The velocity solve of the chain kernel (chain.h): A1 nu = -G(x1) v~,
 * with the factor A1 = L D L^T the final sweep made, segment by segment.
 *
 * Forward, from each segment's first row: v~ = v + h/2 a1 (the closing
 * kick, first solve only; formed again where needed rather than stored:
 * the same bits, one store and its load fewer); rhs_r = -e1_r.(v~_b -
 * v~_a); z = L^-1 rhs, z_r = rhs_r - L(r, r - 1) z_(r-1); and the transfer
 * nu_a = alpha + beta nu_b + gamma o nu_prev that the boundary system
 * needs (chain_boundary.c). The first solve also solves, beside it, for the
 * reported multipliers, whose right-hand side leaves out the change of the
 * row's residual over the step (dres, from the final sweep;
 * cdyn__projection_velocities in projection_solve.c says why).
 *
 * Backward, from each segment's last row, with the boundary values s (nu
 * at the last row) and top (nu at the first row): nu_r = z_r / p_r -
 * L(r + 1, r) nu_(r+1) - f_r o s_prev, v = v~ + W G1^T nu written to vn, the
 * multipliers, and each row's velocity test once both its particles are
 * final. The particle a segment shares with the previous one is written by
 * that segment meanwhile: its v~ comes from the forward sweep, kept in the
 * segment. */
#include <float.h>
#include <math.h>

#include "constraint/constraint.h"
#include "core/system.h"
#include "core/vec.h"
#include "projection/projection.h"

typedef struct ctx {
    const double *restrict xn, *restrict a1, *restrict w;
    const double *vin; /* the backward sweep reads vn before it writes it */
    double *vn, *restrict lam;
    const uint32_t *restrict from, *restrict to, *restrict row_of;
    const double *restrict pinv, *restrict lower, *restrict af, *dres;
    double *vz, *vz2; /* vz2 and dres share the Newton arrays (chain.h) */
    double h2, inv_h, scale, tol2;
} ctx;

/* ------------------------------------------------------------------------
 * Forward
 * ------------------------------------------------------------------------ */

/* Particle i's velocity before its correction: v + h/2 a1 with @p kick. */
static CDYN__ALWAYS_INLINE cdyn__r3 kicked(const ctx *c, size_t i, const int kick, size_t D)
{
    const cdyn__r3 v = cdyn__r3_load(c->vin + i * D, D);
    return kick ? cdyn__r3_add(v, cdyn__r3_scale(c->h2, cdyn__r3_load(c->a1 + i * D, D), D), D)
                : v;
}

/* @p pf: g starts its path (fixed at compile time, so that an uncut
 * path's rows test nothing). */
static CDYN__ALWAYS_INLINE void forward_as(const ctx *c, cdyn__chain_seg *g, const int kick,
                                           size_t D, const int pf)
{
    const size_t ia = c->from[g->start];
    cdyn__r3 x1a = cdyn__r3_load(c->xn + ia * D, D), va = kicked(c, ia, kick, D);
    cdyn__r3_store(g->vt_first, va, D);
    double z = 0, z2 = 0, y = 0, y2 = 0, alpha = 0, alpha2 = 0, beta = 1, gamma = 0;
    const uint32_t a = g->start, b = g->end - 1;
    for (uint32_t r = a;; r++) {
        const size_t ib = c->to[r];
        const cdyn__r3 x1b = cdyn__r3_load(c->xn + ib * D, D), vb = kicked(c, ib, kick, D);
        const cdyn__r3 e1 = cdyn__r3_sub(x1b, x1a, D);
        const double rhs = -cdyn__r3_dot(e1, cdyn__r3_sub(vb, va, D), D);
        const double lk = c->lower[r];
        /* Row r - 1 into the transfer, now that cp = L(r, r - 1) is known:
         * nu_(r-1) = y - cp nu_r - f o nu_prev, y = z / p (a path's first
         * segment needs no transfer). */
        if (r > a && !pf) {
            alpha += beta * y;
            if (kick)
                alpha2 += beta * y2;
            gamma -= beta * c->af[r - 1];
            beta *= -lk;
        }
        z = rhs - lk * z;
        c->vz[r] = z;
        if (kick) {
            /* The reported multipliers: the right-hand side without the
             * change of the row's residual over the step. */
            z2 = (rhs + c->dres[r] * c->inv_h) - lk * z2;
            c->vz2[r] = z2;
        }
        if (!pf || r == b) {
            y = z * c->pinv[r];
            y2 = z2 * c->pinv[r];
        }
        if (r == b)
            break;
        x1a = x1b;
        va = vb;
    }
    g->alpha[0] = alpha;
    g->alpha[1] = alpha2;
    g->y_last[0] = y;
    g->y_last[1] = y2;
    g->beta = beta;
    g->gamma = gamma;
}

static CDYN__ALWAYS_INLINE void forward_segment(const ctx *c, cdyn__chain_seg *g, const int kick,
                                                size_t D)
{
    if (g->path_first)
        forward_as(c, g, kick, D, 1);
    else
        forward_as(c, g, kick, D, 0);
}

/* ------------------------------------------------------------------------
 * Backward
 * ------------------------------------------------------------------------ */

/* The velocity test of a row: e1 its block of particle b, va, vb the final
 * velocities and sa, sb their squared speeds. */
static CDYN__ALWAYS_INLINE void check_row(cdyn__chain_vtest *t, cdyn__r3 e1, cdyn__r3 va,
                                          cdyn__r3 vb, double sa, double sb, double tol2,
                                          size_t D)
{
    cdyn__chain_vtest_row(t, cdyn__r3_dot(e1, cdyn__r3_sub(vb, va, D), D),
                          cdyn__r3_dot(e1, e1, D), cdyn__maxd(sa, sb), tol2);
}

/* Rows of a segment by where they lie: the last, one between, the first,
 * the only one. */
enum { ROW_LAST, ROW_INTERIOR, ROW_FIRST, ROW_ONLY };

typedef struct bstate {
    cdyn__r3 x1b, e1n, vbn;
    double nun, nun2, sbn, lnext; /* lnext: L(r + 1, r) */
} bstate;

static CDYN__ALWAYS_INLINE void brow(const ctx *c, bstate *s, cdyn__chain_vtest *t, uint32_t r,
                                     const cdyn__chain_seg *g, double os, double os2,
                                     const int kind, const int refine, size_t D, const int pf)
{
    const int kick = !refine;
    double nu, nu2 = s->nun2;
    if (kind == ROW_LAST || kind == ROW_ONLY) {
        nu = g->s[0];
        nu2 = g->s[1];
    } else if (kind == ROW_FIRST && !pf) {
        /* The boundary system's top, which the previous segment reads too
         * (a path's first segment has no transfer: it substitutes back to
         * its first row). */
        nu = g->top[0];
        nu2 = g->top[1];
    } else {
        const double pinv = c->pinv[r];
        nu = c->vz[r] * pinv - s->lnext * s->nun;
        if (!refine)
            nu2 = c->vz2[r] * pinv - s->lnext * s->nun2;
        if (!pf) {
            const double f = c->af[r];
            nu -= f * os;
            if (!refine)
                nu2 -= f * os2;
        }
    }
    const size_t ia = c->from[r], ib = c->to[r];
    const cdyn__r3 x1a = cdyn__r3_load(c->xn + ia * D, D);
    const cdyn__r3 e1 = cdyn__r3_sub(s->x1b, x1a, D);
    const cdyn__r3 corr = cdyn__r3_sub(cdyn__r3_scale(nu, e1, D), cdyn__r3_scale(s->nun, s->e1n, D), D);
    const cdyn__r3 vb = cdyn__r3_add(kicked(c, ib, kick, D), cdyn__r3_scale(c->w[ib], corr, D), D);
    const double sb = cdyn__r3_dot(vb, vb, D);
    if ((kind != ROW_LAST && kind != ROW_ONLY) || g->own_last)
        cdyn__r3_store(c->vn + ib * D, vb, D);
    if (kind == ROW_INTERIOR || kind == ROW_FIRST)
        check_row(t, s->e1n, vb, s->vbn, sb, s->sbn, c->tol2, D);
    const uint32_t q = c->row_of[r] & ~CDYN__CHAIN_FLIP;
    c->lam[q] = refine ? c->lam[q] + c->scale * nu : c->scale * nu2;
    if (kind == ROW_FIRST || kind == ROW_ONLY) {
        /* The first particle: final here (the previous segment writes it,
         * from the same numbers, unless this one starts a path), and the
         * segment's first row tested. */
        const cdyn__r3 vta = cdyn__r3_load(g->vt_first, D);
        cdyn__r3 va;
        if (pf) {
            va = cdyn__r3_sub(vta, cdyn__r3_scale(c->w[ia] * nu, e1, D), D);
        } else {
            const cdyn__r3 e1p =
                cdyn__r3_sub(x1a, cdyn__r3_load(c->xn + (size_t)c->from[r - 1] * D, D), D);
            const cdyn__r3 corr_a = cdyn__r3_sub(cdyn__r3_scale((g - 1)->s[0], e1p, D),
                                                 cdyn__r3_scale(nu, e1, D), D);
            va = cdyn__r3_add(vta, cdyn__r3_scale(c->w[ia], corr_a, D), D);
        }
        if (g->own_first)
            cdyn__r3_store(c->vn + ia * D, va, D);
        check_row(t, e1, va, vb, cdyn__r3_dot(va, va, D), sb, c->tol2, D);
    }
    s->x1b = x1a;
    s->e1n = e1;
    s->nun = nu;
    s->nun2 = nu2;
    s->vbn = vb;
    s->sbn = sb;
    s->lnext = c->lower[r];
}

static CDYN__ALWAYS_INLINE void backward_as(const ctx *c, const cdyn__chain_seg *g, cdyn__chain_vtest *t,
                                            const int refine, size_t D, const int pf)
{
    const uint32_t a = g->start, b = g->end - 1;
    const size_t ib = c->to[b];
    bstate s;
    s.x1b = cdyn__r3_load(c->xn + ib * D, D);
    /* The next row, in the next segment (its nu is that segment's top), or
     * none (e1 = 0). */
    const size_t ic = g->path_last ? ib : c->to[b + 1];
    s.e1n = cdyn__r3_sub(cdyn__r3_load(c->xn + ic * D, D), s.x1b, D);
    s.nun = g->path_last ? 0.0 : (g + 1)->top[0];
    s.nun2 = g->path_last ? 0.0 : (g + 1)->top[1];
    s.vbn = CDYN__R3_ZERO;
    s.sbn = 0;
    s.lnext = 0;
    /* The spike's term o s_prev. */
    const double os = g->path_first ? 0.0 : g->o * (g - 1)->s[0];
    const double os2 = g->path_first ? 0.0 : g->o * (g - 1)->s[1];
    if (a == b) {
        brow(c, &s, t, a, g, os, os2, ROW_ONLY, refine, D, pf);
        return;
    }
    brow(c, &s, t, b, g, os, os2, ROW_LAST, refine, D, pf);
    for (uint32_t r = b - 1; r > a; r--)
        brow(c, &s, t, r, g, os, os2, ROW_INTERIOR, refine, D, pf);
    brow(c, &s, t, a, g, os, os2, ROW_FIRST, refine, D, pf);
}

static CDYN__ALWAYS_INLINE void backward_segment(const ctx *c, const cdyn__chain_seg *g, cdyn__chain_vtest *t,
                                                 const int refine, size_t D)
{
    if (g->path_first)
        backward_as(c, g, t, refine, D, 1);
    else
        backward_as(c, g, t, refine, D, 0);
}

/* ------------------------------------------------------------------------
 * Blocks
 * ------------------------------------------------------------------------ */

static ctx context(cdyn_system *sys, const double *xn, const double *vin, double *vn,
                   const double *a1, double h2, double scale)
{
    cdyn__projection *pr = sys->proj;
    cdyn__chain *ch = &pr->chain;
    const ctx c = {.xn = xn,
                   .a1 = a1,
                   .w = sys->inv_mass,
                   .vin = vin,
                   .vn = vn,
                   .lam = sys->cons->lambda,
                   .from = ch->row_from,
                   .to = ch->row_to,
                   .row_of = ch->row_of,
                   .pinv = ch->pinv,
                   .lower = ch->lower,
                   .af = ch->af,
                   .dres = ch->dres,
                   .vz = ch->vz,
                   .vz2 = ch->vz2,
                   .h2 = h2,
                   .inv_h = 0.5 / h2,
                   .scale = scale,
                   .tol2 = cdyn__tol2_of(pr->opt.velocity_tolerance)};
    return c;
}

static CDYN__ALWAYS_INLINE void forward_blocks(cdyn_system *sys, const ctx *c, cdyn__chain *ch,
                                               uint32_t begin, uint32_t end, const int kick,
                                               size_t D)
{
    uint32_t k, k1;
    cdyn__chain_block_segs(ch, begin, &k, &k1);
    if (end > begin + 1) {
        uint32_t unused;
        cdyn__chain_block_segs(ch, end - 1, &unused, &k1);
    }
    for (; k < k1; k++) {
        cdyn__chain_seg *g = &ch->seg[k];
        /* A twisted segment whose A1 has a redundant row is factored from
         * one end instead, and solved so from here on. */
        if (g->twisted && cdyn__chain_twisted_forward(sys, c->xn, c->vn, c->a1, c->h2, kick, g))
            continue;
        g->twisted = false;
        forward_segment(c, g, kick, D);
    }
}

void cdyn__chain_velocity_forward(cdyn_system *sys, const double *xn, double *vn,
                                  const double *a1, double h2, int kick, uint32_t begin,
                                  uint32_t end)
{
    if (begin >= end)
        return;
    const ctx c = context(sys, xn, vn, vn, a1, h2, 0.0);
    cdyn__chain *ch = &sys->proj->chain;
    if (sys->dim == 2) {
        if (kick)
            forward_blocks(sys, &c, ch, begin, end, 1, 2);
        else
            forward_blocks(sys, &c, ch, begin, end, 0, 2);
    } else {
        if (kick)
            forward_blocks(sys, &c, ch, begin, end, 1, 3);
        else
            forward_blocks(sys, &c, ch, begin, end, 0, 3);
    }
}

static CDYN__ALWAYS_INLINE void backward_blocks(cdyn_system *sys, const ctx *c, cdyn__chain *ch,
                                                uint32_t begin, uint32_t end, const int refine,
                                                size_t D)
{
    /* From the last block down, as the segments run (chain_newton.c). */
    for (uint32_t b = end; b-- > begin;) {
        cdyn__chain_block *blk = &ch->block[b];
        cdyn__chain_block_init(blk);
        cdyn__chain_vtest t = {0, 1, 0, 0};
        uint32_t k, k1;
        cdyn__chain_block_segs(ch, b, &k, &k1);
        for (; k < k1; k++) {
            const cdyn__chain_seg *g = &ch->seg[k];
            if (g->twisted)
                cdyn__chain_twisted_backward(sys, c->xn, c->vn, c->a1, c->h2, c->scale, refine,
                                             g, &t);
            else
                backward_segment(c, g, &t, refine, D);
        }
        blk->pass.wn = t.wn;
        blk->pass.wd = t.wd;
        blk->pass.n_bad = t.n_bad;
        blk->sum = t.sum;
    }
}

void cdyn__chain_velocity_backward(cdyn_system *sys, const double *xn, double *vn,
                                   const double *a1, double h2, double scale, int refine,
                                   uint32_t begin, uint32_t end)
{
    const ctx c = context(sys, xn, vn, vn, a1, h2, scale);
    cdyn__chain *ch = &sys->proj->chain;
    if (sys->dim == 2) {
        if (refine)
            backward_blocks(sys, &c, ch, begin, end, 1, 2);
        else
            backward_blocks(sys, &c, ch, begin, end, 0, 2);
    } else {
        if (refine)
            backward_blocks(sys, &c, ch, begin, end, 1, 3);
        else
            backward_blocks(sys, &c, ch, begin, end, 0, 3);
    }
}
