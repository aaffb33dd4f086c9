/* The chain kernel's sweeps over a whole path from both ends at once
 * (chain.h; docs/rattle.md section 4; docs/performance.md, "One thread"),
 * for paths of CDYN__CHAIN_TWIST_MIN to CDYN__CHAIN_TWIST_MAX rows.
 *
 * Every sweep of the one-ended kernel is a chain of dependent divisions:
 * each pivot waits for the one before. Here lane A takes the path's rows
 * from its first row down and lane B from its last row up, a row of each
 * in the two lanes of a vector register, so that one instruction stream
 * carries two independent recurrences:
 *
 *   Newton    inwards: x* = x_p + W G0^T mu, the residuals and their test,
 *             the elimination of J delta = -g; where the lanes meet, their
 *             last rows (and for an odd row count the row left between
 *             them, the twist) are solved exactly;
 *   final     outwards: delta, x1 = x_p + D, v_h = v_p + D / h, each
 *             row's residual and the change of its g over the step;
 *   forward   inwards: the closing kick, A1 = G(x1) W G(x1)^T = L D L^T
 *             factored towards the middle (a tridiagonal matrix factors
 *             inwards without fill, so the factorization moves here from
 *             the final sweep), both right-hand sides eliminated; the
 *             middle's rows eliminated into one;
 *   backward  outwards from the middle: nu, v = v~ + W G1^T nu, the
 *             multipliers, each row's velocity test.
 *
 * Lane A reads a row's particles P_(r-1), P_r as (carried, new) inwards
 * and (new, carried) outwards, lane B the other way round. Within a sweep
 * all of a lane's vectors point the same way along it (inwards, or from
 * the particle it carries to the one it takes), so the two lanes' formulas
 * are the same: the signs cancel in every product of two such vectors, and
 * a particle's displacement w (M_r e_r - M_r' e_r') (r' the row after r in
 * the lane's direction) is the same vector either way. What a sweep leaves
 * for the next one goes in a record per pair of rows (below), read back in
 * the order the next sweep needs it.
 *
 * The pivots take the one-ended sweeps' redundancy test, the meeting too.
 * A failure sends the segment back to the one-ended sweeps for the rest of
 * the step: the Newton sweep before anything is stored, the forward sweep
 * after factoring A1 from one end (which drops the redundant rows as the
 * final sweep would have). */
#include "projection/chain.h"

#include "core/vec.h" /* CDYN__HAVE_V2D */

#if defined(CDYN__HAVE_V2D)

#include "projection/chain_lanes.h"

/* ------------------------------------------------------------------------
 * Newton, inwards
 * ------------------------------------------------------------------------ */

/* A lane's state between rows: the particle it carries (its displacement
 * from x0, u = (x_p - x0) + D: a row's vector is then e0 + (u_b - u_a),
 * which keeps the digits that x_p + D, far from the origin, would round
 * off; and w), the particle it takes next (its index and x0), the row's
 * e0 and mu, the row before's e0, coupling to this row, pivot and y. */
typedef struct nstate {
    lv uc, x0n, ec, ep;
    lanes wc, muc, jnp, pivp, yp;
    size_t na, nb;
} nstate;

static CDYN__ALWAYS_INLINE bool newton_d(const ctx *c, cdyn__chain_seg *g, cdyn__pass *p,
                                         double *sum, const int mode, size_t D)
{
    const uint32_t a = g->start, b = g->end - 1, n = g->end - g->start, m = n / 2;
    nstate s;
    {
        const size_t ia = pfrom(c, a, mode), ib = pto(c, b, mode);
        const lv x0c = lv_load(c->x0, ia, ib, D);
        s.na = pto(c, a, mode);
        s.nb = pfrom(c, b, mode);
        s.x0n = lv_load(c->x0, s.na, s.nb, D);
        s.ec = lv_sub(s.x0n, x0c, D);
        s.muc = mu2(c, a, b, mode);
        s.wc = two(c->w, ia, ib);
        lv xp, vp;
        predict(c, ia, ib, x0c, &xp, &vp, mode, D);
        s.uc = lv_add(lv_sub(xp, x0c, D), lv_scale(-(s.wc * s.muc), s.ec, D), D);
        /* The path's end particles, for the final sweep. */
        double *r0 = rec(c, g, 0, D);
        wr_lv(r0, R_XP, xp, D);
        wr_lv(r0, R_VP, vp, D);
        wr(r0, R_W, s.wc);
        s.ep = lv_zero();
        s.jnp = s.yp = same(0.0);
        s.pivp = same(HUGE_VAL);
    }
    /* The warm start is not expected to pass: it is tested for any row
     * above tolerance (the driver names none from it). */
    lmask bad = {0, 0};
    lanes num_sum = same(0.0);
    lpass lp;
    lpass_init(&lp);
    for (uint32_t k = 0; k < m; k++) {
        const uint32_t ra = a + k, rb = b - k;
        const size_t na = s.na, nb = s.nb;
        s.na = pto(c, ra + 1, mode);
        s.nb = pfrom(c, rb - 1, mode);
        double *r = rec(c, g, k, D);
        prefetch_ahead(r, 1, D);
        const lv x0q = lv_load(c->x0, s.na, s.nb, D);
        const lv en = lv_sub(x0q, s.x0n, D);
        const lanes mun = mu2(c, ra + 1, rb - 1, mode), wn = two(c->w, na, nb);
        lv xp, vp;
        predict(c, na, nb, s.x0n, &xp, &vp, mode, D);
        /* For the final sweep: the rows' e0 and mu, and the new particles
         * but the middle ones (which it forms itself). */
        wr_lv(r, R_E, s.ec, D);
        wr(r, R_MU, s.muc);
        if (k + 1 < m) {
            wr_lv(r + 2 * R_SIZE, R_XP, xp, D);
            wr_lv(r + 2 * R_SIZE, R_VP, vp, D);
            wr(r + 2 * R_SIZE, R_W, wn);
        }
        const lv dn = lv_scale(wn, lv_sub(lv_scale(s.muc, s.ec, D), lv_scale(mun, en, D), D), D);
        const lv un = lv_add(lv_sub(xp, s.x0n, D), dn, D);
        const lv e = lv_add(s.ec, lv_sub(un, s.uc, D), D);
        const lanes d2 = lv_dot(e, e, D), ll = cdyn__v2d_load(c->pll + a + 2 * (size_t)k);
        const lanes gr = same(0.5) * (d2 - ll);
        if (mode & CDYN__SWEEP_TRACK) {
            lpass_check(&lp, ra, rb, gr, d2, ll, c->tol2);
        } else {
            const lanes num = gr * gr;
            bad |= ~(num <= same(c->tol2) * (d2 * ll));
            num_sum += num;
        }
        const lanes di = (s.wc + wn) * lv_dot(e, s.ec, D);
        const lanes jp = -(s.wc * lv_dot(e, s.ep, D)), jn = -(wn * lv_dot(e, en, D));
        const lanes piv = di - (jp * s.jnp) / s.pivp;
        if (!kept_rows(piv, di))
            return false;
        const lanes inv = same(1.0) / piv, cr = jn * inv, yr = (-gr - jp * s.yp) * inv;
        wr(r, R_NC, cr);
        wr(r, R_NY, yr);
        s.uc = un;
        s.x0n = x0q;
        s.wc = wn;
        s.ep = s.ec;
        s.ec = en;
        s.muc = mun;
        s.jnp = jn;
        s.pivp = piv;
        s.yp = yr;
    }
    if (mode & CDYN__SWEEP_TRACK) {
        lpass_merge(&lp, p);
    } else {
        p->n_bad += (bad[0] != 0) + (bad[1] != 0);
        *sum += num_sum[0] + num_sum[1];
    }
    /* The meeting. Lane A's relation is delta_ra = yA - cA delta_(ra+1),
     * lane B's delta_rb = yB - cB delta_(rb-1). */
    const uint32_t ra = a + m - 1, rb = b - m + 1;
    double *rl = rec(c, g, m - 1, D);
    const double cA = rl[2 * R_NC], cB = rl[2 * R_NC + 1], yA = s.yp[0], yB = s.yp[1];
    double dA, dB;
    if (rb == ra + 1) {
        /* Rows ra and rb: row ra's pivot with row rb eliminated into it is
         * pA (1 - cA cB), tested against pA (which passed against its
         * diagonal). */
        const double den = 1.0 - cA * cB;
        if (!(den > CDYN__REDUNDANT_PIVOT) || !(den <= DBL_MAX))
            return false;
        dA = (yA - cA * yB) / den;
        dB = yB - cB * dA;
    } else {
        /* Row t between them, at the lanes' carried particles P_(t-1) and
         * P_t; lane A's vectors point along the path, lane B's against. */
        const uint32_t t = ra + 1;
        lv e = lv_zero();
        for (size_t q = 0; q < D; q++)
            e.c[q] = same(s.ec.c[q][0] + (s.uc.c[q][1] - s.uc.c[q][0]));
        const lanes d2v = lv_dot(e, e, D);
        const double d2 = d2v[0], l = c->len[t], gt = 0.5 * (d2 - l * l);
        if (mode & CDYN__SWEEP_TRACK) {
            cdyn__check_exact(p, t, gt, d2, l, c->tol2);
        } else {
            p->n_bad += !(gt * gt <= c->tol2 * (d2 * (l * l)));
            *sum += gt * gt;
        }
        const lanes eec = lv_dot(e, s.ec, D), eep = lv_dot(e, s.ep, D);
        const double di = (s.wc[0] + s.wc[1]) * eec[0];
        const double jA = -(s.wc[0] * eep[0]), jB = s.wc[1] * eep[1];
        const double piv = di - jA * cA - jB * cB;
        if (!(di > 0) || !(piv > CDYN__REDUNDANT_PIVOT * di))
            return false;
        const double dt = (-gt - jA * yA - jB * yB) / piv;
        g->tw_delta = dt;
        dA = yA - cA * dt;
        dB = yB - cB * dt;
    }
    /* The last pair's delta, final (no coupling inwards left). */
    wr(rl, R_NY, (lanes){dA, dB});
    wr(rl, R_NC, same(0.0));
    return true;
}

bool cdyn__chain_twisted_newton(cdyn_system *sys, const cdyn__chain_in *in, int mode,
                                cdyn__chain_seg *g, cdyn__pass *p, double *sum)
{
    ctx c = positions_context(sys, in);
    c.num = g->num;
#define NEWTON_CASE(M)                                                                         \
    case M:                                                                                    \
        if (g->sequential)                                                                     \
            return sys->dim == 2 ? newton_d(&c, g, p, sum, M | SEQ, 2)                         \
                                 : newton_d(&c, g, p, sum, M | SEQ, 3);                        \
        return sys->dim == 2 ? newton_d(&c, g, p, sum, M, 2) : newton_d(&c, g, p, sum, M, 3);
    switch (mode) {
        CDYN__NEWTON_MODES(NEWTON_CASE)
    default:
        return false;
    }
#undef NEWTON_CASE
}

/* ------------------------------------------------------------------------
 * Final, outwards
 * ------------------------------------------------------------------------ */

/* A lane's state between pairs, outwards: the particle it carries (x_p and
 * D apart, as in the Newton sweep), and the pair's row: its e0 as the
 * Newton sweep left it (pointing inwards), M = mu + delta and delta. A
 * particle between rows r (this pair's) and r' (the next pair's, outwards)
 * moves by D = w (M' e0' - M e0) with both vectors pointing inwards. */
typedef struct fstate {
    lv xpc, dspc, ec;
    lanes mc, dc;
} fstate;

/* Pair k: each lane's new particle (x_p, v_p and w from the Newton sweep)
 * and the rows' tests. @p last: pair 0, the path's end rows, whose new
 * particles are the path's end particles (stored when the segment owns
 * them). */
static CDYN__ALWAYS_INLINE void final_pair(const ctx *c, fstate *s, lpass *p,
                                           const cdyn__chain_seg *g, uint32_t k, const int last,
                                           const int warm, const int mode, size_t D)
{
    const int back = (mode & CDYN__SWEEP_BACK) != 0;
    const uint32_t ra = g->start + k, rb = g->end - 1 - k;
    double *r = rec(c, g, k, D);
    prefetch_ahead(r, 0, D);
    lv en = lv_zero();
    lanes mn = same(0.0), dn = same(0.0);
    if (!last) {
        const double *rn = r - 2 * R_SIZE;
        en = rd_lv(rn, R_E, D);
        if (back)
            dn = rd(rn, R_NY) - rd(rn, R_NC) * s->dc;
        mn = rd(rn, R_MU) + dn;
    }
    const lv xp = rd_lv(r, R_XP, D), vp = rd_lv(r, R_VP, D);
    const lanes wn = rd(r, R_W);
    const lv dsp = lv_scale(wn, lv_sub(lv_scale(mn, en, D), lv_scale(s->mc, s->ec, D), D), D);
    const lv x1 = lv_add(xp, dsp, D), vh = lv_add(vp, lv_scale(same(c->inv_h), dsp, D), D);
    const size_t na = pfrom(c, ra, mode), nb = pto(c, rb, mode);
    if (!last) {
        /* v_h stays in the record, where the forward sweep reads it
         * (cdyn__chain_twisted_store_vh puts it in vn for other readers). */
        lv_store(c->xn, na, nb, x1, D);
        wr_lv(r, R_XP, x1, D);
        wr_lv(r, R_VP, vh, D);
    } else {
        if (g->own_first) {
            cdyn__r3_store(c->xn + na * D, lv_lane(x1, 0, D), D);
            cdyn__r3_store(c->vn + na * D, lv_lane(vh, 0, D), D);
        }
        if (g->own_last) {
            cdyn__r3_store(c->xn + nb * D, lv_lane(x1, 1, D), D);
            cdyn__r3_store(c->vn + nb * D, lv_lane(vh, 1, D), D);
        }
    }
    const lv ev = lv_add(lv_sub(xp, s->xpc, D), lv_sub(dsp, s->dspc, D), D);
    const lanes d2 = lv_dot(ev, ev, D), ll = cdyn__v2d_load(c->pll + g->start + 2 * (size_t)k);
    lpass_check(p, ra, rb, same(0.5) * (d2 - ll), d2, ll, c->tol2);
    /* The change of the row's residual over the step (chain_velocity.c),
     * over this pair's mu, which is read; and near the ends (@p warm) the
     * velocity solve's start (chain_twisted_velocity.c). A rebased
     * iteration's multipliers are a correction only: it starts from zero. */
    wr(r, R_DRES, same(0.5) * (d2 - lv_dot(s->ec, s->ec, D)));
    if (warm)
        wr(r, R_NW, (mode & CDYN__SWEEP_REBASED) ? same(0.0) : s->mc * same(c->inv_h));
    s->xpc = xp;
    s->dspc = dsp;
    s->ec = en;
    s->mc = mn;
    s->dc = dn;
}

static CDYN__ALWAYS_INLINE void final_d(const ctx *c, cdyn__chain_seg *g, cdyn__pass *p,
                                        const int mode, size_t D)
{
    const int back = (mode & CDYN__SWEEP_BACK) != 0;
    const uint32_t a = g->start, m = (g->end - g->start) / 2, ra = a + m - 1;
    const double *rl = rec(c, g, m - 1, D);
    fstate s;
    s.ec = rd_lv(rl, R_E, D);
    s.dc = back ? rd(rl, R_NY) : same(0.0);
    s.mc = rd(rl, R_MU) + s.dc;
    if (2 * m == g->end - a) {
        /* The particle both lanes start from, between the last pair's
         * rows. */
        const size_t ip = pto(c, ra, mode);
        const lv x0c = lv_load(c->x0, ip, ip, D);
        lv xp, vp;
        predict(c, ip, ip, x0c, &xp, &vp, mode, D);
        const cdyn__r3 dsp = cdyn__r3_scale(
            c->w[ip],
            cdyn__r3_add(cdyn__r3_scale(s.mc[0], lv_lane(s.ec, 0, D), D),
                         cdyn__r3_scale(s.mc[1], lv_lane(s.ec, 1, D), D), D),
            D);
        cdyn__r3_store(c->xn + ip * D, cdyn__r3_add(lv_lane(xp, 0, D), dsp, D), D);
        cdyn__r3_store(c->vn + ip * D,
                       cdyn__r3_add(lv_lane(vp, 0, D), cdyn__r3_scale(c->inv_h, dsp, D), D), D);
        s.xpc = xp;
        s.dspc = lv_both(dsp, D);
    } else {
        /* Row t between the lanes, and its particles, which they start
         * from; et points from each to the other. */
        const uint32_t t = ra + 1;
        const size_t ia = pfrom(c, t, mode), ib = pto(c, t, mode);
        const lv x0c = lv_load(c->x0, ia, ib, D), et = lv_across(x0c, D);
        const double mt = mu_of(c, t, mode) + (back ? g->tw_delta : 0.0);
        lv xp, vp;
        predict(c, ia, ib, x0c, &xp, &vp, mode, D);
        const lv dsp = lv_scale(two(c->w, ia, ib),
                                lv_sub(lv_scale(s.mc, s.ec, D), lv_scale(same(mt), et, D), D), D);
        s.xpc = xp;
        s.dspc = dsp;
        lv_store(c->xn, ia, ib, lv_add(xp, dsp, D), D);
        lv_store(c->vn, ia, ib, lv_add(vp, lv_scale(same(c->inv_h), dsp, D), D), D);
        const lv ev = lv_add(lv_across(xp, D), lv_across(dsp, D), D);
        const lanes d2 = lv_dot(ev, ev, D), e0e0 = lv_dot(et, et, D);
        const double l = c->len[t];
        cdyn__check_exact(p, t, 0.5 * (d2[0] - l * l), d2[0], l, c->tol2);
        g->tw_dres = 0.5 * (d2[0] - e0e0[0]);
    }
    lpass lp;
    lpass_init(&lp);
    uint32_t k = m - 1;
    for (; k >= CDYN__CHAIN_WARM_ROWS; k--)
        final_pair(c, &s, &lp, g, k, 0, 0, mode, D);
    for (; k > 0; k--)
        final_pair(c, &s, &lp, g, k, 0, 1, mode, D);
    final_pair(c, &s, &lp, g, 0, 1, 1, mode, D);
    lpass_merge(&lp, p);
}

void cdyn__chain_twisted_final(cdyn_system *sys, const cdyn__chain_in *in, int mode,
                               cdyn__chain_seg *g, cdyn__pass *p)
{
    ctx c = positions_context(sys, in);
    c.num = g->num;
#define FINAL_CASE(M)                                                                          \
    case M:                                                                                    \
        if (g->sequential) {                                                                   \
            if (sys->dim == 2)                                                                 \
                final_d(&c, g, p, M | SEQ, 2);                                                 \
            else                                                                               \
                final_d(&c, g, p, M | SEQ, 3);                                                 \
        } else if (sys->dim == 2) {                                                            \
            final_d(&c, g, p, M, 2);                                                           \
        } else {                                                                               \
            final_d(&c, g, p, M, 3);                                                           \
        }                                                                                      \
        return;
    switch (mode) {
        CDYN__FINAL_MODES(FINAL_CASE)
    default:
        return;
    }
#undef FINAL_CASE
}

#else

bool cdyn__chain_twisted_newton(cdyn_system *sys, const cdyn__chain_in *in, int mode,
                                cdyn__chain_seg *g, cdyn__pass *p, double *sum)
{
    (void)sys, (void)in, (void)mode, (void)g, (void)p, (void)sum;
    return false;
}

void cdyn__chain_twisted_final(cdyn_system *sys, const cdyn__chain_in *in, int mode,
                               cdyn__chain_seg *g, cdyn__pass *p)
{
    (void)sys, (void)in, (void)mode, (void)g, (void)p;
}

#endif
