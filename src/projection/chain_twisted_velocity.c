/* The velocity sweeps of the chain kernel's twisted sweeps (chain_twisted.c
 * has the scheme): forward inwards, factoring A1 = G(x1) W G(x1)^T =
 * L D L^T towards the middle, and backward outwards; and the one-ended
 * factorization of A1 that the forward sweep falls back on. */
#include "projection/chain.h"

#include <math.h>

#include "core/system.h"
#include "core/vec.h"
#include "projection/projection.h"
#include "solver/ldlt.h"

/* ------------------------------------------------------------------------
 * A1 factored from one end (also the fallback of the twisted one)
 * ------------------------------------------------------------------------ */

static CDYN__ALWAYS_INLINE void factor_d(cdyn_system *sys, const double *restrict xn,
                                         const cdyn__chain_seg *g, size_t D)
{
    const cdyn__chain *ch = &sys->proj->chain;
    const double *restrict w = sys->inv_mass;
    const uint32_t *restrict from = ch->row_from, *restrict to = ch->row_to;
    double *restrict pinv = ch->pinv, *restrict lower = ch->lower;
    size_t ia = from[g->start];
    double wa = w[ia], pp = 0, pprev = HUGE_VAL;
    cdyn__r3 x1a = cdyn__r3_load(xn + ia * D, D), e1p = CDYN__R3_ZERO;
    for (uint32_t r = g->start; r < g->end; r++) {
        const size_t ib = to[r];
        const double wb = w[ib];
        const cdyn__r3 x1b = cdyn__r3_load(xn + ib * D, D), e1 = cdyn__r3_sub(x1b, x1a, D);
        const double diag = (wa + wb) * cdyn__r3_dot(e1, e1, D);
        const double o = -(wa * cdyn__r3_dot(e1p, e1, D)), piv = diag - (o * o) / pprev;
        const bool keep = piv > CDYN__REDUNDANT_PIVOT * diag;
        const double inv = keep ? 1.0 / piv : 0.0;
        pinv[r] = inv;
        lower[r] = o * pp;
        wa = wb;
        x1a = x1b;
        e1p = e1;
        pp = inv;
        pprev = keep ? piv : HUGE_VAL;
    }
}

void cdyn__chain_factor_a1(cdyn_system *sys, const double *xn, const cdyn__chain_seg *g)
{
    if (sys->dim == 2)
        factor_d(sys, xn, g, 2);
    else
        factor_d(sys, xn, g, 3);
}

#if defined(CDYN__HAVE_V2D)

#include "projection/chain_lanes.h"

/* ------------------------------------------------------------------------
 * Velocities: forward, inwards
 * ------------------------------------------------------------------------ */

/* Near the path's ends the first solve starts from nu_w, the position
 * projection's multipliers over h (chain_twisted.c): with v~ = v + h/2 a1 +
 * W G1^T nu_w on the particles of the first CDYN__CHAIN_WARM_ROWS rows from
 * each end, it solves A1 dnu = -G1 v~ there, and v1 = v~ + W G1^T dnu. The
 * solution is the same. Its rounding near an end is that of dnu, which is
 * O(h^2) lambda', not that of nu: on a heavy chain the impulses of nu
 * nearly cancel on each particle, and near a fixed end, where the particles
 * barely move, their rounding alone can exceed a tight velocity tolerance
 * and cost a refinement of the whole path. Further in, the particles move
 * faster and the cold start's rounding passes. The reported multipliers
 * keep the cold right-hand side. */
_Static_assert(CDYN__CHAIN_TWIST_MIN / 2 >= CDYN__CHAIN_WARM_ROWS + 3,
               "a twisted path's ends do not meet within the warm rows");

/* A lane's state between rows, inwards: the particle it carries (x1, its
 * velocity before the correction and after the kick alone, w), the row
 * before's e1, inverse pivot, pivot and diagonal, and z of both
 * right-hand sides. */
typedef struct vstate {
    lv x1c, vc, vkc, e1p;
    lanes wc, pp, pprev, diagp, zp, z2p;
} vstate;

/* Row k of the forward sweep (record @p r) from its e1, the new particle's
 * w and the right-hand sides: A1 factored (@p kick), both forward solves.
 * False when a pivot fails the redundancy test. */
static CDYN__ALWAYS_INLINE bool eliminate(const ctx *c, vstate *s, double *r, lv e1, lanes wn,
                                          lanes rhs, lanes rhs2, const int kick, size_t D)
{
    lanes lk;
    if (kick) {
        const lanes o = -(s->wc * lv_dot(s->e1p, e1, D));
        const lanes diag = (s->wc + wn) * lv_dot(e1, e1, D), piv = diag - (o * o) / s->pprev;
        if (!kept_rows(piv, diag))
            return false;
        const lanes inv = same(1.0) / piv;
        lk = o * s->pp;
        wr(r, R_PINV, inv);
        wr(r, R_LOWER, lk);
        s->pp = inv;
        s->pprev = piv;
        s->diagp = diag;
    } else {
        lk = rd(r, R_LOWER);
    }
    const lanes z = rhs - lk * s->zp;
    wr(r, R_VZ, z);
    if (kick) {
        /* The reported multipliers: the right-hand side without the
         * change of the row's residual over the step. */
        const lanes z2 = (rhs2 + rd(r, R_DRES) * same(c->inv_h)) - lk * s->z2p;
        wr(r, R_VZ2, z2);
        s->z2p = z2;
    }
    s->zp = z;
    s->e1p = e1;
    return true;
}

/* @p kick: the first solve (A1 factored, the closing kick taken, the ends
 * started from nu_w); @p gather: the velocities read from vn (a
 * refinement, or v_h put there by cdyn__chain_twisted_store_vh), else from
 * the records. */
static CDYN__ALWAYS_INLINE bool forward_d(const ctx *c, cdyn__chain_seg *g, const int kick,
                                          const int gather, const int seq, size_t D)
{
    const uint32_t a = g->start, b = g->end - 1, m = (g->end - g->start) / 2;
    const uint32_t warm = CDYN__CHAIN_WARM_ROWS;
    vstate s;
    /* Near the ends: the next particle's x1 and the next row's e1, read
     * ahead (a particle's v~ needs the rows on both its sides). */
    lv x1n, en;
    {
        /* The end particles (their x1 and v may come from other paths),
         * moved by their rows' nu_w. */
        const size_t ia = pfrom(c, a, seq), ib = pto(c, b, seq);
        const lv v = lv_load(c->vn, ia, ib, D);
        s.x1c = lv_load(c->xr, ia, ib, D);
        s.vkc = kick ? kick_of(c, v, ia, ib, D) : v;
        s.wc = two(c->w, ia, ib);
        x1n = lv_load(c->xr, pto(c, a, seq), pfrom(c, b, seq), D);
        en = lv_sub(x1n, s.x1c, D);
        double *r0 = rec(c, g, 0, D);
        s.vc = kick ? lv_sub(s.vkc, lv_scale(s.wc, lv_scale(rd(r0, R_NW), en, D), D), D) : s.vkc;
        wr_lv(r0, R_VW, s.vc, D);
        s.e1p = lv_zero();
        s.pp = s.zp = s.z2p = s.diagp = same(0.0);
        s.pprev = same(HUGE_VAL);
    }
    /* Rows 0..warm: their particles' v~ go over x1 in the records, x1 is
     * read from xn. */
    for (uint32_t k = 0; k <= warm; k++) {
        const uint32_t ra = a + k, rb = b - k;
        const size_t na = pto(c, ra, seq), nb = pfrom(c, rb, seq);
        double *r = rec(c, g, k, D), *rn = r + 2 * R_SIZE;
        const lv x1 = x1n, e1 = en;
        x1n = lv_load(c->xr, pto(c, ra + 1, seq), pfrom(c, rb - 1, seq), D);
        en = lv_sub(x1n, x1, D);
        const lanes wn = rd(rn, R_W);
        const lv v = gather ? lv_load(c->vn, na, nb, D) : rd_lv(rn, R_VP, D);
        const lv vk = kick ? kick_of(c, v, na, nb, D) : v;
        lv vw = vk;
        if (kick && k < warm) {
            /* w (nu_w e1 of this row - nu_w e1 of the next, if warm). */
            lv imp = lv_scale(rd(r, R_NW), e1, D);
            if (k + 1 < warm)
                imp = lv_sub(imp, lv_scale(rd(rn, R_NW), en, D), D);
            vw = lv_add(vk, lv_scale(wn, imp, D), D);
        }
        const lanes rhs = -lv_dot(e1, lv_sub(vw, s.vc, D), D);
        const lanes rhs2 = kick ? -lv_dot(e1, lv_sub(vk, s.vkc, D), D) : rhs;
        if (!eliminate(c, &s, r, e1, wn, rhs, rhs2, kick, D))
            return false;
        wr_lv(rn, R_VW, vw, D);
        s.x1c = x1;
        s.vc = vw;
        s.vkc = vk;
        s.wc = wn;
    }
    for (uint32_t k = warm + 1; k < m; k++) {
        const uint32_t ra = a + k, rb = b - k;
        const size_t na = pto(c, ra, seq), nb = pfrom(c, rb, seq);
        double *r = rec(c, g, k, D);
        prefetch_ahead(r, 1, D);
        lv x1, v;
        lanes wn;
        if (k + 1 < m) {
            double *rn = r + 2 * R_SIZE;
            x1 = rd_lv(rn, R_XP, D);
            wn = rd(rn, R_W);
            if (gather) {
                v = lv_load(c->vn, na, nb, D);
                wr_lv(rn, R_VP, v, D);
            } else {
                v = rd_lv(rn, R_VP, D);
            }
        } else { /* the middle particles, which the final sweep stored */
            x1 = lv_load(c->xr, na, nb, D);
            v = lv_load(c->vn, na, nb, D);
            wn = two(c->w, na, nb);
        }
        if (kick)
            v = kick_of(c, v, na, nb, D);
        const lv e1 = lv_sub(x1, s.x1c, D);
        const lanes rhs = -lv_dot(e1, lv_sub(v, s.vc, D), D);
        if (!eliminate(c, &s, r, e1, wn, rhs, rhs, kick, D))
            return false;
        s.x1c = x1;
        s.vc = v;
        s.wc = wn;
    }
    /* The meeting: lane A's last row ra and lane B's rb, adjacent or with
     * row t between them. Lane A's e1 points along the path, lane B's
     * against it. */
    const uint32_t ra = a + m - 1, rb = b - m + 1;
    double *rl = rec(c, g, m - 1, D);
    const cdyn__r3 eA = lv_lane(s.e1p, 0, D), eB = lv_lane(s.e1p, 1, D);
    if (rb == ra + 1) {
        /* Row rb into row ra: A1(ra, rb) = -w e1_ra.e1_rb. */
        if (kick) {
            const double o = s.wc[0] * cdyn__r3_dot(eA, eB, D), lm = o * s.pp[1];
            const double piv = s.pprev[0] - o * lm;
            if (!(piv > CDYN__REDUNDANT_PIVOT * s.diagp[0]))
                return false;
            g->tw_l[0] = lm;
            g->tw_pinv = 1.0 / piv;
        }
        const double lm = g->tw_l[0];
        rl[2 * R_VZ] = s.zp[0] - lm * s.zp[1];
        if (kick)
            rl[2 * R_VZ2] = s.z2p[0] - lm * s.z2p[1];
        return true;
    }
    const cdyn__r3 et = cdyn__r3_sub(lv_lane(s.x1c, 1, D), lv_lane(s.x1c, 0, D), D);
    const double rhs =
        -cdyn__r3_dot(et, cdyn__r3_sub(lv_lane(s.vc, 1, D), lv_lane(s.vc, 0, D), D), D);
    if (kick) {
        const double oA = -(s.wc[0] * cdyn__r3_dot(eA, et, D));
        const double oB = s.wc[1] * cdyn__r3_dot(et, eB, D);
        const double lA = oA * s.pp[0], lB = oB * s.pp[1];
        const double diag = (s.wc[0] + s.wc[1]) * cdyn__r3_dot(et, et, D);
        const double piv = diag - oA * lA - oB * lB;
        if (!(piv > CDYN__REDUNDANT_PIVOT * diag))
            return false;
        g->tw_l[0] = lA;
        g->tw_l[1] = lB;
        g->tw_pinv = 1.0 / piv;
    }
    const double lA = g->tw_l[0], lB = g->tw_l[1];
    g->tw_vz[0] = rhs - lA * s.zp[0] - lB * s.zp[1];
    if (kick)
        g->tw_vz[1] = (rhs + g->tw_dres * c->inv_h) - lA * s.z2p[0] - lB * s.z2p[1];
    return true;
}

static CDYN__ALWAYS_INLINE void store_vh_d(const ctx *c, const cdyn__chain_seg *g, size_t D)
{
    const uint32_t a = g->start, b = g->end - 1, m = (g->end - g->start) / 2;
    for (uint32_t k = 1; k < m; k++)
        lv_store(c->vn, c->from[a + k], c->to[b - k], rd_lv(rec(c, g, k, D), R_VP, D), D);
}

void cdyn__chain_twisted_store_vh(cdyn_system *sys, double *vn, const cdyn__chain_seg *g)
{
    const ctx c = velocity_context(sys, NULL, vn, NULL, 0.0, 0.0);
    if (sys->dim == 2)
        store_vh_d(&c, g, 2);
    else
        store_vh_d(&c, g, 3);
}

bool cdyn__chain_twisted_forward(cdyn_system *sys, const double *xn, double *vn,
                                 const double *a1, double h2, int kick, cdyn__chain_seg *g)
{
    ctx c = velocity_context(sys, xn, vn, a1, h2, 0.0);
    c.num = g->num;
    /* The first solve reads v_h where the final sweep left it. */
    const bool records = kick && sys->proj->chain.vh_in_records;
    bool ok;
#define FORWARD(SEQ_, D_)                                                                      \
    (!kick ? forward_d(&c, g, 0, 1, SEQ_, D_)                                                  \
           : records ? forward_d(&c, g, 1, 0, SEQ_, D_) : forward_d(&c, g, 1, 1, SEQ_, D_))
    if (g->sequential)
        ok = sys->dim == 2 ? FORWARD(SEQ, 2) : FORWARD(SEQ, 3);
    else
        ok = sys->dim == 2 ? FORWARD(0, 2) : FORWARD(0, 3);
#undef FORWARD
    if (!ok) {
        /* The one-ended sweeps: v_h in vn (from the records, which this
         * sweep leaves as they were there), A1 factored from one end, the
         * residuals' changes in row order. */
        if (records)
            cdyn__chain_twisted_store_vh(sys, vn, g);
        cdyn__chain_factor_a1(sys, xn, g);
        double *dres = sys->proj->chain.dres;
        const size_t D = (size_t)sys->dim;
        const uint32_t a = g->start, b = g->end - 1, m = (g->end - g->start) / 2;
        for (uint32_t k = 0; k < m; k++) {
            const double *r = rec(&c, g, k, D);
            dres[a + k] = r[2 * R_DRES];
            dres[b - k] = r[2 * R_DRES + 1];
        }
        if (2 * m < g->end - a)
            dres[a + m] = g->tw_dres;
    }
    return ok;
}

/* ------------------------------------------------------------------------
 * Velocities: backward, outwards
 * ------------------------------------------------------------------------ */

/* A lane's state between rows, outwards: the particle it carries (final v
 * and its squared speed), x1 of the one it takes next, the row's e1 (from
 * the carried particle to that one), and the row's nu for both right-hand
 * sides. */
typedef struct bstate {
    lv x1n, ec, vc;
    lanes sc, nuc, nu2c;
} bstate;

static CDYN__ALWAYS_INLINE void set_lam(const ctx *c, uint32_t r, double nu, double nu2,
                                        const int refine, const int seq)
{
    const uint32_t q = qrow(c, r, seq);
    c->lam[q] = refine ? c->lam[q] + c->scale * nu : c->scale * nu2;
}

/* The velocity tests of both lanes' rows. */
static CDYN__ALWAYS_INLINE void vtest2(lvtest *t, lv e1, lv va, lv vb, lanes sa, lanes sb,
                                       double tol2, size_t D)
{
    const lanes gv = lv_dot(e1, lv_sub(vb, va, D), D), e1e1 = lv_dot(e1, e1, D);
    lvtest_row(t, gv, e1e1, pick_if(sa > sb, sa, sb), tol2);
}

/* Pair k: nu of the next pair outwards, each lane's new particle, the
 * rows' tests. @p last: pair 0, as in the final sweep. Near the ends
 * (forward_d): @p started, the new particles' velocity before the
 * correction is in the record; @p x1_state, the next ones' x1 is read from
 * xn. */
static CDYN__ALWAYS_INLINE void backward_pair(const ctx *c, bstate *s, lvtest *t,
                                              const cdyn__chain_seg *g, uint32_t k, const int last,
                                              const int started, const int x1_state,
                                              const int refine, const int seq, size_t D)
{
    const uint32_t ra = g->start + k, rb = g->end - 1 - k;
    const size_t na = pfrom(c, ra, seq), nb = pto(c, rb, seq);
    const double *r = rec(c, g, k, D);
    prefetch_ahead(r, 0, D);
    lv en = lv_zero(), x1q = s->x1n;
    lanes nun = same(0.0), nu2n = same(0.0);
    if (!last) {
        const double *rn = r - 2 * R_SIZE;
        x1q = x1_state ? lv_load(c->xr, pfrom(c, ra - 1, seq), pto(c, rb + 1, seq), D)
                       : rd_lv(rn, R_XP, D);
        en = lv_sub(x1q, s->x1n, D);
        const lanes pv = rd(rn, R_PINV), lk = rd(r, R_LOWER);
        nun = rd(rn, R_VZ) * pv - lk * s->nuc;
        if (!refine)
            nu2n = rd(rn, R_VZ2) * pv - lk * s->nu2c;
        set_lam(c, ra - 1, nun[0], nu2n[0], refine, seq);
        set_lam(c, rb + 1, nun[1], nu2n[1], refine, seq);
    }
    const lv vr = rd_lv(r, started ? R_VW : R_VP, D);
    const lv vk = refine || started ? vr : kick_of(c, vr, na, nb, D);
    const lv v = lv_add(
        vk, lv_scale(rd(r, R_W), lv_sub(lv_scale(s->nuc, s->ec, D), lv_scale(nun, en, D), D), D),
        D);
    const lanes sv = lv_dot(v, v, D);
    if (!last) {
        lv_store(c->vn, na, nb, v, D);
    } else {
        if (g->own_first)
            cdyn__r3_store(c->vn + na * D, lv_lane(v, 0, D), D);
        if (g->own_last)
            cdyn__r3_store(c->vn + nb * D, lv_lane(v, 1, D), D);
    }
    vtest2(t, s->ec, s->vc, v, s->sc, sv, c->tol2, D);
    s->x1n = x1q;
    s->ec = en;
    s->vc = v;
    s->sc = sv;
    s->nuc = nun;
    s->nu2c = nu2n;
}

static CDYN__ALWAYS_INLINE void backward_d(const ctx *c, const cdyn__chain_seg *g,
                                           cdyn__chain_vtest *t, const int refine, const int seq,
                                           size_t D)
{
    const uint32_t a = g->start, b = g->end - 1, m = (g->end - g->start) / 2;
    const uint32_t ra = a + m - 1, rb = b - m + 1;
    /* The last pair's record: its lanes (rows ra, rb). */
    const double *rl = rec(c, g, m - 1, D);
    const double *pinv = rl + 2 * R_PINV, *vz = rl + 2 * R_VZ, *vz2 = rl + 2 * R_VZ2;
    bstate s;
    s.x1n = lv_load(c->xr, pfrom(c, ra, seq), pto(c, rb, seq), D);
    double nA, nB, n2A = 0, n2B = 0;
    if (rb == ra + 1) {
        /* nu at rows ra and rb, and the particle between them. */
        const double lm = g->tw_l[0];
        nA = vz[0] * g->tw_pinv;
        nB = vz[1] * pinv[1] - lm * nA;
        if (!refine) {
            n2A = vz2[0] * g->tw_pinv;
            n2B = vz2[1] * pinv[1] - lm * n2A;
        }
        const size_t ip = pto(c, ra, seq);
        const lv x1c = lv_load(c->xr, ip, ip, D);
        s.ec = lv_sub(s.x1n, x1c, D);
        const cdyn__r3 corr = cdyn__r3_add(cdyn__r3_scale(nA, lv_lane(s.ec, 0, D), D),
                                           cdyn__r3_scale(nB, lv_lane(s.ec, 1, D), D), D);
        const cdyn__r3 v = cdyn__r3_sub(lv_lane(kicked(c, ip, ip, !refine, D), 0, D),
                                        cdyn__r3_scale(c->w[ip], corr, D), D);
        cdyn__r3_store(c->vn + ip * D, v, D);
        s.vc = lv_both(v, D);
        s.sc = same(cdyn__r3_dot(v, v, D));
    } else {
        /* nu at row t and the rows beside it; t's particles. */
        const uint32_t tr = ra + 1;
        const double lA = g->tw_l[0], lB = g->tw_l[1];
        const double nt = g->tw_vz[0] * g->tw_pinv;
        nA = vz[0] * pinv[0] - lA * nt;
        nB = vz[1] * pinv[1] - lB * nt;
        double n2t = 0;
        if (!refine) {
            n2t = g->tw_vz[1] * g->tw_pinv;
            n2A = vz2[0] * pinv[0] - lA * n2t;
            n2B = vz2[1] * pinv[1] - lB * n2t;
        }
        set_lam(c, tr, nt, n2t, refine, seq);
        const size_t ia = pfrom(c, tr, seq), ib = pto(c, tr, seq);
        const lv x1c = lv_load(c->xr, ia, ib, D), et = lv_across(x1c, D);
        s.ec = lv_sub(s.x1n, x1c, D);
        const lanes nu = {nA, nB};
        s.vc = lv_sub(kicked(c, ia, ib, !refine, D),
                      lv_scale(two(c->w, ia, ib),
                               lv_add(lv_scale(nu, s.ec, D), lv_scale(same(nt), et, D), D), D),
                      D);
        lv_store(c->vn, ia, ib, s.vc, D);
        s.sc = lv_dot(s.vc, s.vc, D);
        const lanes gv = lv_dot(et, lv_across(s.vc, D), D), e1e1 = lv_dot(et, et, D);
        cdyn__chain_vtest_row(t, gv[0], e1e1[0], cdyn__maxd(s.sc[0], s.sc[1]), c->tol2);
    }
    set_lam(c, ra, nA, n2A, refine, seq);
    set_lam(c, rb, nB, n2B, refine, seq);
    s.nuc = (lanes){nA, nB};
    s.nu2c = (lanes){n2A, n2B};
    lvtest lt = {same(0.0), same(1.0), same(0.0), {0, 0}};
    const uint32_t warm = CDYN__CHAIN_WARM_ROWS;
    for (uint32_t k = m - 1; k > warm + 2; k--)
        backward_pair(c, &s, &lt, g, k, 0, 0, 0, refine, seq, D);
    backward_pair(c, &s, &lt, g, warm + 2, 0, 0, 1, refine, seq, D);
    for (uint32_t k = warm + 1; k > 0; k--)
        backward_pair(c, &s, &lt, g, k, 0, 1, 1, refine, seq, D);
    backward_pair(c, &s, &lt, g, 0, 1, 1, 1, refine, seq, D);
    lvtest_merge(&lt, t);
}

void cdyn__chain_twisted_backward(cdyn_system *sys, const double *xn, double *vn,
                                  const double *a1, double h2, double scale, int refine,
                                  const cdyn__chain_seg *g, cdyn__chain_vtest *t)
{
    ctx c = velocity_context(sys, xn, vn, a1, h2, scale);
    c.num = g->num;
#define BACKWARD(SEQ_, D_)                                                                     \
    (refine ? backward_d(&c, g, t, 1, SEQ_, D_) : backward_d(&c, g, t, 0, SEQ_, D_))
    if (g->sequential) {
        if (sys->dim == 2)
            BACKWARD(SEQ, 2);
        else
            BACKWARD(SEQ, 3);
    } else if (sys->dim == 2) {
        BACKWARD(0, 2);
    } else {
        BACKWARD(0, 3);
    }
#undef BACKWARD
}

#else

void cdyn__chain_twisted_store_vh(cdyn_system *sys, double *vn, const cdyn__chain_seg *g)
{
    (void)sys, (void)vn, (void)g; /* no segment is twisted without the lanes */
}

bool cdyn__chain_twisted_forward(cdyn_system *sys, const double *xn, double *vn,
                                 const double *a1, double h2, int kick, cdyn__chain_seg *g)
{
    (void)vn, (void)a1, (void)h2, (void)kick;
    cdyn__chain_factor_a1(sys, xn, g);
    return false;
}

void cdyn__chain_twisted_backward(cdyn_system *sys, const double *xn, double *vn,
                                  const double *a1, double h2, double scale, int refine,
                                  const cdyn__chain_seg *g, cdyn__chain_vtest *t)
{
    (void)sys, (void)xn, (void)vn, (void)a1, (void)h2, (void)scale, (void)refine, (void)g,
        (void)t;
}

#endif
