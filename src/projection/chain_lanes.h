/* The two lanes of the chain kernel's twisted sweeps (chain_twisted.c,
 * chain_twisted_velocity.c): internal, for compilers with vector
 * extensions (CDYN__HAVE_V2D). A lane pair holds a value of lane A (the
 * path's rows from its first down) and one of lane B (from its last up);
 * points and vectors are a lane pair per coordinate. Here too: the sweeps'
 * context, the records they pass on, and their residual tests, a lane
 * each. */
#ifndef CDYN__PROJECTION_CHAIN_LANES_H
#define CDYN__PROJECTION_CHAIN_LANES_H

#include <float.h>
#include <math.h>

#include "constraint/constraint.h"
#include "core/system.h"
#include "core/vec.h"
#include "projection/chain.h"
#include "projection/projection.h"
#include "solver/ldlt.h"

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
    cdyn__chain_numbering num; /* a sequential segment's (chain.h) */
} ctx;

/* A sweep's mode bit (with the positions' CDYN__SWEEP_* bits): the
 * segment is sequential, its indices computed rather than loaded. */
#define SEQ 0x100

/* Row r's first and second particle and its constraint row. */
static CDYN__ALWAYS_INLINE size_t pfrom(const ctx *c, uint32_t r, const int mode)
{
    return (mode & SEQ) ? (size_t)(c->num.p_base + c->num.p_step * (int64_t)r) : c->from[r];
}

static CDYN__ALWAYS_INLINE size_t pto(const ctx *c, uint32_t r, const int mode)
{
    return (mode & SEQ) ? (size_t)(c->num.p_base + c->num.p_step * ((int64_t)r + 1))
                        : c->to[r];
}

static CDYN__ALWAYS_INLINE uint32_t qrow(const ctx *c, uint32_t r, const int mode)
{
    return (mode & SEQ) ? (uint32_t)(c->num.q_base + c->num.q_step * (int64_t)r)
                        : c->row_of[r] & ~CDYN__CHAIN_FLIP;
}

static inline ctx context(cdyn_system *sys)
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

static inline ctx positions_context(cdyn_system *sys, const cdyn__chain_in *in)
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

static inline ctx velocity_context(cdyn_system *sys, const double *xn, double *vn, const double *a1,
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
    return (mode & CDYN__SWEEP_WARM) ? c->warm * c->lam[qrow(c, r, mode)] : 0.0;
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
 * chain.pk, laid out for the sweeps that pass them on.
 *   Newton: the particle between pairs k - 1 and k (a path's end
 *     particles at k = 0): x_p, v_p and w; and the pair's rows: e0
 *     (pointing inwards), mu and the elimination (c, y).
 *   final: that particle's x1 and v_h over x_p and v_p (but at k = 0),
 *     the change of the rows' residuals over mu, and in the pairs k <
 *     CDYN__CHAIN_WARM_ROWS the rows' multipliers over h (nu_w, where the
 *     velocity solve starts near the ends) over c.
 *   forward: the factor of A1 (inverse pivot, lower) over nu_w and y and
 *     its two forward solves over e0; in a refinement every particle's
 *     velocity, as vn holds it; and near the path's ends (k <=
 *     CDYN__CHAIN_WARM_ROWS + 1, the end particles included) the
 *     particle's velocity before its correction over x1, which xn holds.
 * The backward sweep reads them all and kicks what it reads in the first
 * solve, but near the ends. */
#define R_XP 0
#define R_VP D
#define R_W (2 * D)
#define R_E (2 * D + 1)
#define R_MU (3 * D + 1)
#define R_NC (3 * D + 2)
#define R_NY (3 * D + 3)
#define R_DRES R_MU
#define R_NW R_NC
#define R_VW R_XP
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

/* A sweep along a path long enough to leave the caches waits on its
 * records' lines: at each pair it asks for those of the record
 * PREFETCH_PAIRS pairs ahead (2.5 to 3.3 kB), whose last line is the next
 * record's first. The address is formed as an integer: near the path's
 * end it lies past the records, which a prefetch may (it never faults),
 * and a pointer may not. */
#define PREFETCH_PAIRS 16

static CDYN__ALWAYS_INLINE void prefetch_ahead(const double *r, const int inwards, size_t D)
{
    const uintptr_t step = PREFETCH_PAIRS * 2 * R_SIZE * sizeof(double);
    const uintptr_t p = inwards ? (uintptr_t)r + step : (uintptr_t)r - step;
    for (uintptr_t off = 0; off < 2 * R_SIZE * sizeof(double); off += 64)
        __builtin_prefetch((const void *)(p + off));
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
static __attribute__((noinline, unused)) void lpass_note(lpass *t, uint32_t ra, uint32_t rb, lanes num,
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

/* Both lanes' rows pass the redundancy test (a NaN fails it). */
static CDYN__ALWAYS_INLINE bool kept_rows(lanes piv, lanes diag)
{
    const lmask ok = (diag > same(0.0)) & (piv > same(CDYN__REDUNDANT_PIVOT) * diag);
    return (ok[0] & ok[1]) != 0;
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

/* @p v after the closing kick of particles ia, ib: v + h/2 a1. */
static CDYN__ALWAYS_INLINE lv kick_of(const ctx *c, lv v, size_t ia, size_t ib, size_t D)
{
    return lv_add(v, lv_scale(same(c->h2), lv_load(c->a1, ia, ib, D), D), D);
}

/* Particles' velocities before their correction: v + h/2 a1 with @p kick. */
static CDYN__ALWAYS_INLINE lv kicked(const ctx *c, size_t ia, size_t ib, const int kick, size_t D)
{
    const lv v = lv_load(c->vn, ia, ib, D);
    return kick ? kick_of(c, v, ia, ib, D) : v;
}

#endif /* CDYN__PROJECTION_CHAIN_LANES_H */
