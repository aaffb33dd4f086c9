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

#include <float.h>
#include <math.h>

#include "constraint/constraint.h"
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

/* ------------------------------------------------------------------------
 * Two lanes
 * ------------------------------------------------------------------------ */

typedef cdyn__v2d lanes;

/* A point or vector per lane, coordinate by coordinate. */
typedef struct lv {
    lanes c[3];
} lv;

static CDYN__ALWAYS_INLINE lanes same(double s)
{
    return (lanes){s, s};
}

static CDYN__ALWAYS_INLINE lanes two(const double *a, size_t ia, size_t ib)
{
    return (lanes){a[ia], a[ib]};
}

static CDYN__ALWAYS_INLINE void put(double *a, size_t ia, size_t ib, lanes v)
{
    a[ia] = v[0];
    a[ib] = v[1];
}

static CDYN__ALWAYS_INLINE lv lv_load(const double *x, size_t ia, size_t ib, size_t D)
{
    lv r;
    for (size_t q = 0; q < 3; q++)
        r.c[q] = q < D ? two(x, ia * D + q, ib * D + q) : same(0.0);
    return r;
}

static CDYN__ALWAYS_INLINE void lv_store(double *x, size_t ia, size_t ib, lv v, size_t D)
{
    for (size_t q = 0; q < D; q++)
        put(x, ia * D + q, ib * D + q, v.c[q]);
}

/* The lanes' values of one particle (lane @p k). */
static CDYN__ALWAYS_INLINE cdyn__r3 lv_lane(lv v, int k, size_t D)
{
    cdyn__r3 r = {{v.c[0][k], v.c[1][k]}, D == 3 ? v.c[2][k] : 0.0};
    return r;
}

static CDYN__ALWAYS_INLINE lv lv_add(lv a, lv b, size_t D)
{
    for (size_t q = 0; q < D; q++)
        a.c[q] += b.c[q];
    return a;
}

static CDYN__ALWAYS_INLINE lv lv_sub(lv a, lv b, size_t D)
{
    for (size_t q = 0; q < D; q++)
        a.c[q] -= b.c[q];
    return a;
}

static CDYN__ALWAYS_INLINE lv lv_scale(lanes f, lv a, size_t D)
{
    for (size_t q = 0; q < D; q++)
        a.c[q] *= f;
    return a;
}

static CDYN__ALWAYS_INLINE lanes lv_dot(lv a, lv b, size_t D)
{
    lanes s = a.c[0] * b.c[0] + a.c[1] * b.c[1];
    return D == 3 ? s + a.c[2] * b.c[2] : s;
}

static CDYN__ALWAYS_INLINE lv lv_zero(void)
{
    lv r = {{same(0.0), same(0.0), same(0.0)}};
    return r;
}

/* ------------------------------------------------------------------------
 * Context
 * ------------------------------------------------------------------------ */

typedef struct ctx {
    const double *restrict x0, *restrict v0, *restrict a0, *restrict xb, *restrict vb;
    const double *restrict w, *restrict len;
    double *restrict lam;
    const uint32_t *restrict from, *restrict to, *restrict row_of;
    double *restrict pk;        /* the pairs' records */
    const double *restrict pll; /* the rods' squared lengths in lane pairs */
    double *restrict xn, *restrict vn; /* written (positions), read and written (velocities) */
    const double *restrict xr;         /* positions read by the velocity sweeps */
    const double *restrict a1;
    double h, h2, inv_h, warm, tol2, scale;
} ctx;

static ctx context(cdyn_system *sys)
{
    const cdyn__chain *ch = &sys->proj->chain;
    const ctx c = {.w = sys->inv_mass,
                   .len = ch->row_length,
                   .lam = sys->cons->lambda,
                   .from = ch->row_from,
                   .to = ch->row_to,
                   .row_of = ch->row_of,
                   .pk = ch->pk,
                   .pll = ch->af};
    return c;
}

static ctx positions_context(cdyn_system *sys, const cdyn__chain_in *in)
{
    ctx c = context(sys);
    c.x0 = in->x0;
    c.v0 = in->v0;
    c.a0 = in->a0;
    c.xb = in->xb;
    c.vb = in->vb;
    c.xn = in->xn;
    c.vn = in->vn;
    c.h = in->h;
    c.h2 = in->h2;
    c.inv_h = in->inv_h;
    c.warm = in->warm;
    c.tol2 = cdyn__tol2_of(sys->proj->opt.position_tolerance);
    return c;
}

static ctx velocity_context(cdyn_system *sys, const double *xn, double *vn, const double *a1,
                            double h2, double scale)
{
    ctx c = context(sys);
    c.xr = xn;
    c.vn = vn;
    c.a1 = a1;
    c.h2 = h2;
    c.inv_h = 0.5 / h2;
    c.scale = scale;
    c.tol2 = cdyn__tol2_of(sys->proj->opt.velocity_tolerance);
    return c;
}

static CDYN__ALWAYS_INLINE double mu_of(const ctx *c, uint32_t r, const int mode)
{
    return (mode & CDYN__SWEEP_WARM) ? c->warm * c->lam[c->row_of[r] & ~CDYN__CHAIN_FLIP] : 0.0;
}

static CDYN__ALWAYS_INLINE lanes mu2(const ctx *c, uint32_t ra, uint32_t rb, const int mode)
{
    return (lanes){mu_of(c, ra, mode), mu_of(c, rb, mode)};
}

/* ------------------------------------------------------------------------
 * Records
 * ------------------------------------------------------------------------ */

/* Pair k of a path (rows start + k and end - 1 - k) keeps its values in a
 * record of 3 D + 4 lane pairs, the k-th from the path's place in
 * chain.pk, laid out for the sweeps that pass them on. The Newton sweep leaves the final sweep the
 * particle between pairs k - 1 and k (a path's end particles at k = 0):
 * x_p, v_p and w; and the pair's rows: e0 (pointing inwards), mu and the
 * elimination (c, y). The final sweep puts the change of the rows'
 * residuals over mu; the forward sweep the factor of A1 (inverse pivot,
 * lower) over c and y and its two forward solves over e0. */
#define R_XP 0
#define R_VP D
#define R_W (2 * D)
#define R_E (2 * D + 1)
#define R_MU (3 * D + 1)
#define R_NC (3 * D + 2)
#define R_NY (3 * D + 3)
#define R_DRES R_MU
#define R_PINV R_NC
#define R_LOWER R_NY
#define R_VZ R_E
#define R_VZ2 (R_E + 1)
#define R_SIZE (3 * D + 4)

static CDYN__ALWAYS_INLINE double *rec(const ctx *c, const cdyn__chain_seg *g, uint32_t k,
                                       size_t D)
{
    return c->pk + g->pk_base + 2 * (size_t)k * R_SIZE;
}

static CDYN__ALWAYS_INLINE lanes rd(const double *r, size_t j)
{
    return cdyn__v2d_load(r + 2 * j);
}

static CDYN__ALWAYS_INLINE void wr(double *r, size_t j, lanes v)
{
    cdyn__v2d_store(r + 2 * j, v);
}

static CDYN__ALWAYS_INLINE lv rd_lv(const double *r, size_t j, size_t D)
{
    lv v = lv_zero();
    for (size_t q = 0; q < D; q++)
        v.c[q] = rd(r, j + q);
    return v;
}

static CDYN__ALWAYS_INLINE void wr_lv(double *r, size_t j, lv v, size_t D)
{
    for (size_t q = 0; q < D; q++)
        wr(r, j + q, v.c[q]);
}

/* x_p (and v_p) of particles ia, ib: from x0, v0, a0, or as a final sweep
 * stored them. */
static CDYN__ALWAYS_INLINE void predict(const ctx *c, size_t ia, size_t ib, lv x0, lv *xp,
                                        lv *vp, const int mode, size_t D)
{
    if (mode & CDYN__SWEEP_REBASED) {
        *xp = lv_load(c->xb, ia, ib, D);
        *vp = lv_load(c->vb, ia, ib, D);
        return;
    }
    *vp = lv_add(lv_load(c->v0, ia, ib, D), lv_scale(same(c->h2), lv_load(c->a0, ia, ib, D), D), D);
    *xp = lv_add(x0, lv_scale(same(c->h), *vp, D), D);
}

/* ------------------------------------------------------------------------
 * The residual tests, a lane each (merged into the sweep's pass at its end)
 * ------------------------------------------------------------------------ */

typedef long long lmask __attribute__((vector_size(16)));

static CDYN__ALWAYS_INLINE lanes pick_if(lmask m, lanes a, lanes b)
{
    return (lanes)(((lmask)a & m) | ((lmask)b & ~m));
}

/* cdyn__pass per lane; rows as doubles (exact below 2^53). */
typedef struct lpass {
    lanes wn, wd, wrow, bn, bd, brow, n_bad;
    lmask infinite;
} lpass;

static CDYN__ALWAYS_INLINE void lpass_init(lpass *t)
{
    t->wn = t->n_bad = t->wrow = t->brow = same(0.0);
    t->wd = t->bd = same(1.0);
    t->bn = same(-1.0);
    t->infinite = (lmask){0, 0};
}

/* lpass_check's rare part (a row worse than any before it in its lane, or
 * above tolerance), out of line: the sweeps' loops keep their registers. */
static __attribute__((noinline)) void lpass_note(lpass *t, uint32_t ra, uint32_t rb, lanes num,
                                                 lanes d2, lanes ll, double tol2)
{
    const lanes rows = {(double)ra, (double)rb};
    const lanes den = pick_if(d2 > same(0.0), d2, same(1.0)) * ll;
    const lmask worse = num * t->wd > t->wn * den;
    t->wn = pick_if(worse, num, t->wn);
    t->wd = pick_if(worse, den, t->wd);
    t->wrow = pick_if(worse, rows, t->wrow);
    const lmask bad = ~(num <= same(tol2) * den);
    if (bad[0] | bad[1]) {
        t->n_bad += pick_if(bad, same(1.0), same(0.0));
        t->infinite |= bad & ~(num <= same(DBL_MAX));
        const lmask bworse = bad & (num * t->bd > t->bn * den);
        t->bn = pick_if(bworse, num, t->bn);
        t->bd = pick_if(bworse, den, t->bd);
        t->brow = pick_if(bworse, rows, t->brow);
    }
}

/* cdyn__check_exact of both lanes' rows, from g, |e|^2 and the squared
 * lengths. Without a floor on |e|^2 a zero one takes the rare part (where
 * the floor is), or passes with a zero residual as it would with it. */
static CDYN__ALWAYS_INLINE void lpass_check(lpass *t, uint32_t ra, uint32_t rb, lanes g,
                                            lanes d2, lanes ll, double tol2)
{
    const lanes num = g * g, den = d2 * ll;
    const lmask hit = (num * t->wd > t->wn * den) | ~(num <= same(tol2) * den);
    if (hit[0] | hit[1]) /* rarely taken once a few rows are in */
        lpass_note(t, ra, rb, num, d2, ll, tol2);
}

static CDYN__ALWAYS_INLINE void lpass_merge(const lpass *t, cdyn__pass *p)
{
    for (int k = 0; k < 2; k++) {
        if (t->wn[k] * p->wd > p->wn * t->wd[k]) {
            p->wn = t->wn[k];
            p->wd = t->wd[k];
            p->worst_row = (uint32_t)t->wrow[k];
        }
        if (t->n_bad[k] > 0) {
            p->n_bad += (uint32_t)t->n_bad[k];
            p->finite &= !t->infinite[k];
            if (t->bn[k] * p->bd > p->bn * t->bd[k]) {
                p->bn = t->bn[k];
                p->bd = t->bd[k];
                p->bad_row = (uint32_t)t->brow[k];
            }
        }
    }
}

/* cdyn__chain_vtest per lane, but for the rows above tolerance, of which
 * it keeps whether there are any (the driver's scalar pass counts and names
 * them when a step fails). The denominator's floor is added rather than
 * taken as a maximum: one instruction, and the same test but for
 * denominators within a few DBL_MIN of zero. */
typedef struct lvtest {
    lanes wn, wd, sum;
    lmask bad;
} lvtest;

static CDYN__ALWAYS_INLINE void lvtest_row(lvtest *t, lanes gv, lanes e1e1, lanes s2, double tol2)
{
    const lanes num = gv * gv, den = e1e1 * s2 + same(DBL_MIN);
    t->bad |= ~(num <= same(tol2) * den);
    const lmask worse = num * t->wd > t->wn * den;
    if (worse[0] | worse[1]) {
        t->wn = pick_if(worse, num, t->wn);
        t->wd = pick_if(worse, den, t->wd);
    }
    t->sum += num;
}

static CDYN__ALWAYS_INLINE void lvtest_merge(const lvtest *l, cdyn__chain_vtest *t)
{
    for (int k = 0; k < 2; k++) {
        if (l->wn[k] * t->wd > t->wn * l->wd[k]) {
            t->wn = l->wn[k];
            t->wd = l->wd[k];
        }
        t->n_bad += l->bad[k] != 0;
        t->sum += l->sum[k];
    }
}

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

/* Both lanes' rows pass the redundancy test (a NaN fails it). */
static CDYN__ALWAYS_INLINE bool kept_rows(lanes piv, lanes diag)
{
    const lmask ok = (diag > same(0.0)) & (piv > same(CDYN__REDUNDANT_PIVOT) * diag);
    return (ok[0] & ok[1]) != 0;
}

static CDYN__ALWAYS_INLINE bool newton_d(const ctx *c, cdyn__chain_seg *g, cdyn__pass *p,
                                         double *sum, const int mode, size_t D)
{
    const uint32_t a = g->start, b = g->end - 1, n = g->end - g->start, m = n / 2;
    const uint32_t *from = c->from, *to = c->to;
    nstate s;
    {
        const size_t ia = from[a], ib = to[b];
        const lv x0c = lv_load(c->x0, ia, ib, D);
        s.na = to[a];
        s.nb = from[b];
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
        s.na = to[ra + 1];
        s.nb = from[rb - 1];
        double *r = rec(c, g, k, D);
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
    const ctx c = positions_context(sys, in);
#define NEWTON_CASE(M)                                                                         \
    case M:                                                                                    \
        return sys->dim == 2 ? newton_d(&c, g, p, sum, M, 2) : newton_d(&c, g, p, sum, M, 3);
    switch (mode) {
        NEWTON_CASE(CDYN__SWEEP_WARM)
        NEWTON_CASE(CDYN__SWEEP_WARM | CDYN__SWEEP_TRACK)
        NEWTON_CASE(CDYN__SWEEP_TRACK)
        NEWTON_CASE(CDYN__SWEEP_REBASED | CDYN__SWEEP_TRACK)
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
                                           const int mode, size_t D)
{
    const int back = (mode & CDYN__SWEEP_BACK) != 0;
    const uint32_t ra = g->start + k, rb = g->end - 1 - k;
    double *r = rec(c, g, k, D);
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
    const size_t na = c->from[ra], nb = c->to[rb];
    if (!last) {
        lv_store(c->xn, na, nb, x1, D);
        lv_store(c->vn, na, nb, vh, D);
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
     * over this pair's mu, which is read. */
    wr(r, R_DRES, same(0.5) * (d2 - lv_dot(s->ec, s->ec, D)));
    s->xpc = xp;
    s->dspc = dsp;
    s->ec = en;
    s->mc = mn;
    s->dc = dn;
}

/* Both lanes' values of one particle. */
static CDYN__ALWAYS_INLINE lv lv_both(cdyn__r3 v, size_t D)
{
    lv r = lv_zero();
    r.c[0] = same(v.xy[0]);
    r.c[1] = same(v.xy[1]);
    if (D == 3)
        r.c[2] = same(v.z);
    return r;
}

/* Each lane's vector to the other lane's particle. */
static CDYN__ALWAYS_INLINE lv lv_across(lv x, size_t D)
{
    lv r = lv_zero();
    for (size_t q = 0; q < D; q++)
        r.c[q] = (lanes){x.c[q][1] - x.c[q][0], x.c[q][0] - x.c[q][1]};
    return r;
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
        const size_t ip = c->to[ra];
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
        const size_t ia = c->from[t], ib = c->to[t];
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
    for (uint32_t k = m - 1; k > 0; k--)
        final_pair(c, &s, &lp, g, k, 0, mode, D);
    final_pair(c, &s, &lp, g, 0, 1, mode, D);
    lpass_merge(&lp, p);
}

void cdyn__chain_twisted_final(cdyn_system *sys, const cdyn__chain_in *in, int mode,
                               cdyn__chain_seg *g, cdyn__pass *p)
{
    const ctx c = positions_context(sys, in);
#define FINAL_CASE(M)                                                                          \
    case M:                                                                                    \
        if (sys->dim == 2)                                                                     \
            final_d(&c, g, p, M, 2);                                                           \
        else                                                                                   \
            final_d(&c, g, p, M, 3);                                                           \
        return;
    switch (mode) {
        FINAL_CASE(CDYN__SWEEP_WARM)
        FINAL_CASE(CDYN__SWEEP_WARM | CDYN__SWEEP_BACK)
        FINAL_CASE(0)
        FINAL_CASE(CDYN__SWEEP_BACK)
        FINAL_CASE(CDYN__SWEEP_REBASED)
        FINAL_CASE(CDYN__SWEEP_BACK | CDYN__SWEEP_REBASED)
    default:
        return;
    }
#undef FINAL_CASE
}

/* ------------------------------------------------------------------------
 * Velocities: forward, inwards
 * ------------------------------------------------------------------------ */

/* Particles' velocities before their correction: v + h/2 a1 with @p kick. */
static CDYN__ALWAYS_INLINE lv kicked(const ctx *c, size_t ia, size_t ib, const int kick, size_t D)
{
    const lv v = lv_load(c->vn, ia, ib, D);
    return kick ? lv_add(v, lv_scale(same(c->h2), lv_load(c->a1, ia, ib, D), D), D) : v;
}

/* A lane's state between rows, inwards: the particle it carries (x1, v~,
 * w), the row before's e1, inverse pivot, pivot and diagonal, and z of
 * both right-hand sides. */
typedef struct vstate {
    lv x1c, vc, e1p;
    lanes wc, pp, pprev, diagp, zp, z2p;
} vstate;

static CDYN__ALWAYS_INLINE bool forward_d(const ctx *c, cdyn__chain_seg *g, const int kick,
                                          size_t D)
{
    const uint32_t a = g->start, b = g->end - 1, m = (g->end - g->start) / 2;
    const uint32_t *from = c->from, *to = c->to;
    vstate s;
    {
        const size_t ia = from[a], ib = to[b];
        s.x1c = lv_load(c->xr, ia, ib, D);
        s.vc = kicked(c, ia, ib, kick, D);
        s.wc = two(c->w, ia, ib);
        /* Each particle's x1 and velocity before its correction, for the
         * backward sweep (but the middle ones, which it reads itself). */
        double *r0 = rec(c, g, 0, D);
        wr_lv(r0, R_XP, s.x1c, D);
        wr_lv(r0, R_VP, s.vc, D);
        s.e1p = lv_zero();
        s.pp = s.zp = s.z2p = s.diagp = same(0.0);
        s.pprev = same(HUGE_VAL);
    }
    for (uint32_t k = 0; k < m; k++) {
        const uint32_t ra = a + k, rb = b - k;
        const size_t na = to[ra], nb = from[rb];
        double *r = rec(c, g, k, D);
        const lv x1 = lv_load(c->xr, na, nb, D), v = kicked(c, na, nb, kick, D);
        const lanes wn = two(c->w, na, nb);
        if (k + 1 < m) {
            wr_lv(r + 2 * R_SIZE, R_XP, x1, D);
            wr_lv(r + 2 * R_SIZE, R_VP, v, D);
        }
        const lv e1 = lv_sub(x1, s.x1c, D);
        const lanes rhs = -lv_dot(e1, lv_sub(v, s.vc, D), D);
        lanes lk;
        if (kick) {
            const lanes o = -(s.wc * lv_dot(s.e1p, e1, D));
            const lanes diag = (s.wc + wn) * lv_dot(e1, e1, D), piv = diag - (o * o) / s.pprev;
            if (!kept_rows(piv, diag))
                return false;
            const lanes inv = same(1.0) / piv;
            lk = o * s.pp;
            wr(r, R_PINV, inv);
            wr(r, R_LOWER, lk);
            s.pp = inv;
            s.pprev = piv;
            s.diagp = diag;
        } else {
            lk = rd(r, R_LOWER);
        }
        const lanes z = rhs - lk * s.zp;
        wr(r, R_VZ, z);
        if (kick) {
            /* The reported multipliers: the right-hand side without the
             * change of the row's residual over the step. */
            const lanes z2 = (rhs + rd(r, R_DRES) * same(c->inv_h)) - lk * s.z2p;
            wr(r, R_VZ2, z2);
            s.z2p = z2;
        }
        s.x1c = x1;
        s.vc = v;
        s.wc = wn;
        s.e1p = e1;
        s.zp = z;
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

bool cdyn__chain_twisted_forward(cdyn_system *sys, const double *xn, const double *vn,
                                 const double *a1, double h2, int kick, cdyn__chain_seg *g)
{
    /* (The forward sweep reads vn only.) */
    const ctx c = velocity_context(sys, xn, (double *)(uintptr_t)vn, a1, h2, 0.0);
    bool ok;
    if (sys->dim == 2)
        ok = kick ? forward_d(&c, g, 1, 2) : forward_d(&c, g, 0, 2);
    else
        ok = kick ? forward_d(&c, g, 1, 3) : forward_d(&c, g, 0, 3);
    if (!ok) {
        /* The one-ended sweeps: A1 factored from one end, the residuals'
         * changes in row order. */
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
                                        const int refine)
{
    const uint32_t q = c->row_of[r] & ~CDYN__CHAIN_FLIP;
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
 * rows' tests. @p last: pair 0, as in the final sweep. */
static CDYN__ALWAYS_INLINE void backward_pair(const ctx *c, bstate *s, lvtest *t,
                                              const cdyn__chain_seg *g, uint32_t k, const int last,
                                              const int refine, size_t D)
{
    const uint32_t ra = g->start + k, rb = g->end - 1 - k;
    const size_t na = c->from[ra], nb = c->to[rb];
    const double *r = rec(c, g, k, D);
    lv en = lv_zero(), x1q = s->x1n;
    lanes nun = same(0.0), nu2n = same(0.0);
    if (!last) {
        const double *rn = r - 2 * R_SIZE;
        x1q = rd_lv(rn, R_XP, D);
        en = lv_sub(x1q, s->x1n, D);
        const lanes pv = rd(rn, R_PINV), lk = rd(r, R_LOWER);
        nun = rd(rn, R_VZ) * pv - lk * s->nuc;
        if (!refine)
            nu2n = rd(rn, R_VZ2) * pv - lk * s->nu2c;
        set_lam(c, ra - 1, nun[0], nu2n[0], refine);
        set_lam(c, rb + 1, nun[1], nu2n[1], refine);
    }
    const lv v = lv_add(
        rd_lv(r, R_VP, D),
        lv_scale(rd(r, R_W),
                 lv_sub(lv_scale(s->nuc, s->ec, D), lv_scale(nun, en, D), D), D),
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
                                           cdyn__chain_vtest *t, const int refine, size_t D)
{
    const uint32_t a = g->start, b = g->end - 1, m = (g->end - g->start) / 2;
    const uint32_t ra = a + m - 1, rb = b - m + 1;
    const uint32_t *from = c->from, *to = c->to;
    /* The last pair's record: its lanes (rows ra, rb). */
    const double *rl = rec(c, g, m - 1, D);
    const double *pinv = rl + 2 * R_PINV, *vz = rl + 2 * R_VZ, *vz2 = rl + 2 * R_VZ2;
    bstate s;
    s.x1n = lv_load(c->xr, from[ra], to[rb], D);
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
        const size_t ip = to[ra];
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
        set_lam(c, tr, nt, n2t, refine);
        const size_t ia = from[tr], ib = to[tr];
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
    set_lam(c, ra, nA, n2A, refine);
    set_lam(c, rb, nB, n2B, refine);
    s.nuc = (lanes){nA, nB};
    s.nu2c = (lanes){n2A, n2B};
    lvtest lt = {same(0.0), same(1.0), same(0.0), {0, 0}};
    for (uint32_t k = m - 1; k > 0; k--)
        backward_pair(c, &s, &lt, g, k, 0, refine, D);
    backward_pair(c, &s, &lt, g, 0, 1, refine, D);
    lvtest_merge(&lt, t);
}

void cdyn__chain_twisted_backward(cdyn_system *sys, const double *xn, double *vn,
                                  const double *a1, double h2, double scale, int refine,
                                  const cdyn__chain_seg *g, cdyn__chain_vtest *t)
{
    const ctx c = velocity_context(sys, xn, vn, a1, h2, scale);
    if (sys->dim == 2) {
        if (refine)
            backward_d(&c, g, t, 1, 2);
        else
            backward_d(&c, g, t, 0, 2);
    } else {
        if (refine)
            backward_d(&c, g, t, 1, 3);
        else
            backward_d(&c, g, t, 0, 3);
    }
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

bool cdyn__chain_twisted_forward(cdyn_system *sys, const double *xn, const double *vn,
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
