/* RATTLE on rod chains (docs/rattle.md section 4): every row a rod and
 * every particle that moves in at most two rows, without loops (ropes,
 * polymers, pendulum chains; the fixed particles may be shared by any
 * number of rows). Ordered along their paths, consecutive rows share a
 * particle and nothing else couples, so both matrices of a step are
 * tridiagonal:
 *
 *   positions   exact Newton on g(x_p + W G0^T mu) = 0, G0 = G(x0): the
 *               Jacobian J = G(x*) W G0^T is not symmetric, but factoring a
 *               tridiagonal matrix costs what solving with it does, and
 *               Newton converges quadratically: from the warm start (the
 *               previous closing kick's multipliers) one solve per step
 *   velocities  A1 = G(x1) W G(x1)^T, factored in the sweep that finds the
 *               positions converged, solved after the force evaluation
 *
 * Each sweep runs along the rows once and does everything a row needs:
 * corrections, residual and test, the row of the factorization; the
 * positions x* = x_p + W G0^T mu are formed on the fly from the
 * multipliers, so no displacement array is kept. A particle's correction
 * and its position are computed once and carried to the next row of its
 * path. Residuals are evaluated without rounding, as
 * (x_p,b - x_p,a) + (D_b - D_a) with D = W G0^T mu; the sweep that
 * converges stores x_p + D, rounding each coordinate once.
 *
 * Fixed particles have W = 0: they receive no correction and couple
 * nothing, so the rows through a fixed particle shared by several paths
 * need no common order. Allocates nothing. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/compiler.h"
#include "core/vec.h"
#include "constraint/constraint.h"
#include "kinematic/kinematic.h"
#include "projection/projection.h"
#include "projection/projection_pass.h"
#include "core/system.h"

#define ROW_MASK (~CDYN__CHAIN_FLIP)
/* Newton iterations without halving the largest residual before the
 * position projection gives up. */
#define STALL 8

/* ------------------------------------------------------------------------
 * The plan
 * ------------------------------------------------------------------------ */

/* Orders the rods along their paths; leaves chain unset when a moving
 * particle is in three rows or more, or rows form a loop. Scratch: xs
 * (at least 2 * count doubles) holds per particle its row count and first
 * two rows; refine marks the rows placed. */
void cdyn__projection_chain_plan(cdyn_system *sys)
{
    cdyn__projection *pr = sys->proj;
    const cdyn__constraints *k = sys->cons;
    const uint32_t np = sys->particles.count, n = k->n_rows;
    const double *w = sys->inv_mass;
    const uint32_t *e = pr->ends;
    pr->chain.usable = false;
    pr->chain.planned_particles = np;
    if (!pr->rods || n == 0)
        return;
    uint32_t *deg = (uint32_t *)(void *)pr->xs, *r1 = deg + np, *r2 = r1 + np;
    memset(deg, 0, np * sizeof *deg);
    uint32_t n_hubs = 0;
    for (uint32_t r = 0; r < n; r++)
        for (int j = 0; j < 2; j++) {
            uint32_t s = e[2 * (size_t)r + (size_t)j];
            if (deg[s] == 0)
                r1[s] = r;
            else if (deg[s] == 1)
                r2[s] = r;
            if (++deg[s] > 2 && w[s] != 0)
                return;
        }
    /* Particles in no row get their closing kick apart; fixed ones in
     * several rows must stay fixed for the plan to hold. */
    uint32_t n_free = 0;
    for (uint32_t s = 0; s < np; s++) {
        if (deg[s] == 0)
            pr->chain.free_particles[n_free++] = s;
        else if (deg[s] > 1 && w[s] == 0)
            pr->chain.fixed_hubs[n_hubs++] = s;
    }
    /* Row r continues through its particle s when s moves and is in two
     * rows; a path starts at a row with at most one such particle. */
    double *placed = pr->chain.refine_z;
    memset(placed, 0, n * sizeof *placed);
    uint32_t m = 0, n_paths = 0;
    for (uint32_t r0 = 0; r0 < n; r0++) {
        uint32_t a = e[2 * (size_t)r0], b = e[2 * (size_t)r0 + 1];
        bool la = w[a] != 0 && deg[a] == 2, lb = w[b] != 0 && deg[b] == 2;
        if (placed[r0] != 0 || (la && lb))
            continue;
        /* Start at the end that does not continue. */
        uint32_t r = r0, from = la ? b : a, to = la ? a : b;
        if (!la && !lb) {
            from = a;
            to = b;
        }
        pr->chain.path_start[n_paths++] = m;
        for (;;) {
            placed[r] = 1;
            pr->chain.row_from[m] = from;
            pr->chain.row_to[m] = to;
            pr->chain.row_of[m] = r | (from == e[2 * (size_t)r] ? 0 : CDYN__CHAIN_FLIP);
            pr->chain.row_length[m] = pr->len[r];
            m++;
            if (w[to] == 0 || deg[to] != 2)
                break;
            uint32_t next = r1[to] == r ? r2[to] : r1[to];
            if (placed[next] != 0)
                break;
            from = to;
            to = e[2 * (size_t)next] == from ? e[2 * (size_t)next + 1] : e[2 * (size_t)next];
            r = next;
        }
    }
    if (m != n)
        return; /* loops left */
    pr->chain.path_start[n_paths] = n;
    pr->chain.n_paths = n_paths;
    pr->chain.n_free = n_free;
    pr->chain.n_hubs = n_hubs;
    pr->chain.usable = true;
}

bool cdyn__projection_chain_usable(cdyn_system *sys)
{
    cdyn__projection *pr = sys->proj;
    /* Kinematic particles move on their own: the kernel, which drifts every
     * particle itself, takes systems without them. */
    if (pr->opt.method != CDYN_PROJECTION_NEWTON || !pr->rods || (sys->kin && sys->kin->count))
        return false;
    bool replan = pr->chain.planned_particles != sys->particles.count;
    for (uint32_t i = 0; i < pr->chain.n_hubs && !replan; i++)
        replan = sys->inv_mass[pr->chain.fixed_hubs[i]] != 0;
    if (replan)
        cdyn__projection_chain_plan(sys);
    return pr->chain.usable;
}

/* ------------------------------------------------------------------------
 * Positions
 * ------------------------------------------------------------------------ */

enum {
    SWEEP_WARM = 1,    /* mu from k->lambda (scaled), else mu = 0 */
    SWEEP_REBASED = 2, /* x_p, v_p in xn, vn (else formed from x0, v0, a0) */
    SWEEP_BACK = 4,    /* the final sweep takes mu + delta, delta from elim */
    SWEEP_NAMED = 8    /* a warm Newton sweep that names its rows */
};

/* The step's start and predictor: x_p = x0 + h v_p, v_p = v0 + h/2 a0,
 * formed where they are needed (as the predictor loop of velocity Verlet
 * would, to the same bits) until a final sweep has stored them in xn, vn. */
typedef struct chain_in {
    const double *x0, *v0, *a0;
    double *xn, *vn;
    double h, h2, inv_h, warm;
} chain_in;

static CDYN__ALWAYS_INLINE void predict(const double *restrict xn, const double *restrict src_v,
                                        const double *restrict a0, double h, double h2, size_t i,
                                        cdyn__r3 x0i, cdyn__r3 *xp, cdyn__r3 *vp, const int mode, size_t D)
{
    if (mode & SWEEP_REBASED) {
        *xp = cdyn__r3_load(xn + i * D, D);
        *vp = cdyn__r3_load(src_v + i * D, D); /* vn */
    } else {
        *vp = cdyn__r3_add(cdyn__r3_load(src_v + i * D, D), cdyn__r3_scale(h2, cdyn__r3_load(a0 + i * D, D), D), D); /* v0 */
        *xp = cdyn__r3_add(x0i, cdyn__r3_scale(h, *vp, D), D);
    }
}

/* The multiplier the iteration starts from: the warm start, or 0 (a cold
 * start, or the positions stored by a final sweep as the new base). */
#define MU(r) ((mode & SWEEP_WARM) ? warm * lam[row_of[r] & ROW_MASK] : 0.0)

/* The Newton sweep, path by path from the last row to the first, at
 * x* = x_p + W G0^T mu: residuals, their test, and the elimination of
 * J delta = -g from the bottom, J(r, r) = (w_a + w_b) e.e0_r and
 * J(r, r -+ 1) = -w e.e0_(r-+1) through the shared particle (J is
 * G(x*) W G0^T): elim[2r] = c_r = J(r, r - 1) / p_r and
 * elim[2r + 1] = y_r = (-g_r - J(r, r + 1) y_(r+1)) / p_r with the pivot
 * p_r = J(r, r) - J(r, r + 1) c_(r+1). The back substitution
 * delta_r = y_r - c_r delta_(r-1) then runs upwards, inside the final
 * sweep. */
static CDYN__ALWAYS_INLINE void sweep_newton(cdyn_system *sys, const chain_in *in, cdyn__pass *out,
                                             const int mode, size_t D)
{
    const double *restrict x0 = in->x0, *restrict a0 = in->a0;
    const double *restrict xn = in->xn;
    const double *restrict src_v = (mode & SWEEP_REBASED) ? in->vn : in->v0;
    const double h = in->h, h2 = in->h2, warm = in->warm;
    cdyn__projection *pr = sys->proj;
    const uint32_t *restrict from = pr->chain.row_from, *restrict to = pr->chain.row_to, *restrict row_of = pr->chain.row_of;
    const uint32_t *restrict path_start = pr->chain.path_start;
    const double *restrict w = sys->inv_mass, *restrict lam = sys->cons->lambda;
    const double *restrict len = pr->chain.row_length;
    double *restrict elim = pr->chain.elimination;
    const double tol2 = cdyn__tol2_of(pr->opt.position_tolerance);
    cdyn__pass p;
    cdyn__pass_init(&p);
    double sum = 0;
    for (uint32_t q = 0; q < pr->chain.n_paths; q++) {
        const uint32_t r0 = path_start[q];
        uint32_t r = path_start[q + 1] - 1;
        /* Row r's particle b and, carried from row r + 1 (which goes on
         * through it): x0, x_p, D; e0 of rows r + 1 and r; mu_r; the
         * elimination's last entries. */
        size_t ib = to[r], ia = from[r];
        double wb = w[ib];
        cdyn__r3 x0b = cdyn__r3_load(x0 + ib * D, D), xpb, vp, x0a = cdyn__r3_load(x0 + ia * D, D);
        predict(xn, src_v, a0, h, h2, ib, x0b, &xpb, &vp, mode, D);
        cdyn__r3 e0k = cdyn__r3_sub(x0b, x0a, D), e0n = CDYN__R3_ZERO;
        double mk = MU(r), lonext = 0, pnext = HUGE_VAL, ynext = 0;
        cdyn__r3 db = cdyn__r3_scale(wb * mk, e0k, D);
        for (;;) {
            const double wa = w[ia];
            /* The previous row through particle a: its e0 and multiplier. */
            const bool prev = r > r0;
            size_t ip = 0;
            cdyn__r3 e0p = CDYN__R3_ZERO, x0p = CDYN__R3_ZERO;
            double mp = 0;
            if (prev) {
                ip = from[r - 1];
                x0p = cdyn__r3_load(x0 + ip * D, D);
                e0p = cdyn__r3_sub(x0a, x0p, D);
                mp = MU(r - 1);
            }
            cdyn__r3 xpa;
            predict(xn, src_v, a0, h, h2, ia, x0a, &xpa, &vp, mode, D);
            const cdyn__r3 da = cdyn__r3_scale(wa, cdyn__r3_sub(cdyn__r3_scale(mp, e0p, D), cdyn__r3_scale(mk, e0k, D), D), D);
            const cdyn__r3 ev = cdyn__r3_add(cdyn__r3_sub(xpb, xpa, D), cdyn__r3_sub(db, da, D), D);
            const double d2 = cdyn__r3_dot(ev, ev, D), l = len[r];
            const double g = 0.5 * (d2 - l * l);
            if ((mode & SWEEP_WARM) && !(mode & SWEEP_NAMED)) {
                /* The warm start is not expected to pass: count, and
                 * leave naming the worst row to a later sweep (see the
                 * caller). */
                const double num = g * g;
                p.n_bad += !(num <= tol2 * (d2 * (l * l)));
                sum += num;
            } else {
                cdyn__check_exact(&p, r, g, d2, l, tol2);
            }
            const double di = (wa + wb) * cdyn__r3_dot(ev, e0k, D);
            /* e0p is zero at a path's first row and e0n at its last: lo,
             * up = 0 there. */
            const double lo = -wa * cdyn__r3_dot(ev, e0p, D);
            const double up = -wb * cdyn__r3_dot(ev, e0n, D);
            /* The pivot recurrence is a division and a subtraction:
             * up * lo_(r+1) and the inverse pivot are off it. A dropped
             * pivot passes on nothing (pnext = inf). */
            const double piv = di - (up * lonext) / pnext;
            const bool keep = di > 0 && piv > CDYN__REDUNDANT_PIVOT * di;
            const double inv = keep ? 1.0 / piv : 0.0;
            ynext = (-g - up * ynext) * inv;
            elim[2 * (size_t)r] = lo * inv;
            elim[2 * (size_t)r + 1] = ynext;
            lonext = lo;
            pnext = keep ? piv : HUGE_VAL;
            if (!prev)
                break;
            /* Particle a becomes the previous row's particle b. */
            r--;
            ib = ia;
            ia = ip;
            wb = wa;
            x0b = x0a;
            x0a = x0p;
            xpb = xpa;
            db = da;
            e0n = e0k;
            e0k = e0p;
            mk = mp;
        }
    }
    if ((mode & SWEEP_WARM) && !(mode & SWEEP_NAMED))
        p.finite = sum <= DBL_MAX;
    *out = p;
}

/* The final sweep, path by path from the first row to the last, at
 * x* = x_p + W G0^T mu (with SWEEP_BACK: mu + delta, the back substitution
 * of the Newton step done on the way): residuals and their test; x_p + D
 * and v_p + D / h stored in xn, vn; and the factorization A1 = L D L^T at
 * them, with A1(r, r) = (w_a + w_b) |e1_r|^2 and
 * A1(r, r - 1) = -w e1_(r-1).e1_r: pivot_inv[r] the inverse pivot,
 * lower[r] = L(r, r - 1). */
static CDYN__ALWAYS_INLINE void sweep_final(cdyn_system *sys, const chain_in *in, cdyn__pass *out,
                                            const int mode, size_t D)
{
    const double *restrict x0 = in->x0, *restrict a0 = in->a0;
    double *restrict xn = in->xn, *restrict vn = in->vn;
    const double *restrict src_v = (mode & SWEEP_REBASED) ? vn : in->v0;
    const double inv_h = in->inv_h, h = in->h, h2 = in->h2;
    cdyn__projection *pr = sys->proj;
    const uint32_t *restrict from = pr->chain.row_from, *restrict to = pr->chain.row_to, *restrict path_start = pr->chain.path_start;
    const uint32_t *restrict row_of = pr->chain.row_of;
    const double *restrict w = sys->inv_mass, *restrict len = pr->chain.row_length, *restrict elim = pr->chain.elimination;
    const double *restrict lam = sys->cons->lambda;
    const double warm = in->warm;
    double *restrict pivot_inv = pr->chain.a1_pivot_inv, *restrict lower = pr->chain.a1_lower;
    double *restrict dres = pr->chain.refine_z;
    const double tol2 = cdyn__tol2_of(pr->opt.position_tolerance);
    cdyn__pass p;
    cdyn__pass_init(&p);
    for (uint32_t q = 0; q < pr->chain.n_paths; q++) {
        uint32_t r = path_start[q];
        const uint32_t r1 = path_start[q + 1];
        /* Row r's particle a and, carried from row r - 1: x_p, D, x1;
         * x0 of particle b and e0 of row r, e1 of row r - 1; mu_r + delta_r
         * and delta_r; the factor's last pivot. */
        size_t ia = from[r], ib = to[r];
        double wa = w[ia], wb = w[ib];
        const cdyn__r3 x0a = cdyn__r3_load(x0 + ia * D, D);
        cdyn__r3 xpa, vpa, x0b = cdyn__r3_load(x0 + ib * D, D);
        predict(xn, src_v, a0, h, h2, ia, x0a, &xpa, &vpa, mode, D);
        cdyn__r3 e0k = cdyn__r3_sub(x0b, x0a, D), e1p = CDYN__R3_ZERO;
        /* The first row of a path has c_r = 0. */
        double dk = (mode & SWEEP_BACK) ? elim[2 * (size_t)r + 1] : 0.0;
        double mk = MU(r) + dk, dprev = 0, pprev = HUGE_VAL;
        cdyn__r3 da = cdyn__r3_scale(-wa * mk, e0k, D);
        cdyn__r3 x1a = cdyn__r3_add(xpa, da, D);
        cdyn__r3_store(xn + ia * D, x1a, D);
        cdyn__r3_store(vn + ia * D, cdyn__r3_add(vpa, cdyn__r3_scale(inv_h, da, D), D), D);
        for (;;) {
            /* The next row through particle b: its e0 and multiplier. */
            const bool next = r + 1 < r1;
            size_t ic = 0;
            cdyn__r3 e0n = CDYN__R3_ZERO, x0n = CDYN__R3_ZERO;
            double mn = 0, dn = 0;
            if (next) {
                ic = to[r + 1];
                x0n = cdyn__r3_load(x0 + ic * D, D);
                e0n = cdyn__r3_sub(x0n, x0b, D);
                if (mode & SWEEP_BACK)
                    dn = elim[2 * (size_t)r + 3] - elim[2 * (size_t)r + 2] * dk;
                mn = MU(r + 1) + dn;
            }
            cdyn__r3 xpb, vpb;
            predict(xn, src_v, a0, h, h2, ib, x0b, &xpb, &vpb, mode, D);
            const cdyn__r3 db = cdyn__r3_scale(wb, cdyn__r3_sub(cdyn__r3_scale(mk, e0k, D), cdyn__r3_scale(mn, e0n, D), D), D);
            const cdyn__r3 ev = cdyn__r3_add(cdyn__r3_sub(xpb, xpa, D), cdyn__r3_sub(db, da, D), D);
            const double d2 = cdyn__r3_dot(ev, ev, D), l = len[r];
            cdyn__check_exact(&p, r, 0.5 * (d2 - l * l), d2, l, tol2);
            const cdyn__r3 x1b = cdyn__r3_add(xpb, db, D);
            cdyn__r3_store(xn + ib * D, x1b, D);
            cdyn__r3_store(vn + ib * D, cdyn__r3_add(vpb, cdyn__r3_scale(inv_h, db, D), D), D);
            const cdyn__r3 e1 = cdyn__r3_sub(x1b, x1a, D);
            const double e1e1 = cdyn__r3_dot(e1, e1, D), diag = (wa + wb) * e1e1;
            /* The change of the row's residual over the step,
             * g(x1) - g(x0), for the reported multipliers (velocity_forward). */
            dres[r] = 0.5 * (e1e1 - cdyn__r3_dot(e0k, e0k, D));
            /* e1p is zero at a path's first row: off = 0 there. */
            const double off = -wa * cdyn__r3_dot(e1p, e1, D);
            /* The pivot recurrence is a division and a subtraction
             * (off * off and the inverse pivot are off it). */
            const double lk = off * dprev;
            const double piv = diag - (off * off) / pprev;
            const bool keep = piv > CDYN__REDUNDANT_PIVOT * diag;
            dprev = keep ? 1.0 / piv : 0.0;
            pprev = keep ? piv : HUGE_VAL;
            pivot_inv[r] = dprev;
            lower[r] = lk;
            if (!next)
                break;
            /* Particle b becomes the next row's particle a. */
            r++;
            ib = ic;
            wa = wb;
            wb = w[ib];
            e1p = e1;
            x1a = x1b;
            e0k = e0n;
            x0b = x0n;
            xpa = xpb;
            da = db;
            mk = mn;
            dk = dn;
        }
    }
    *out = p;
}

static void sweep(cdyn_system *sys, const chain_in *in, cdyn__pass *p, int final, int mode)
{
    /* The modes used, instantiated with constants. */
#define SWEEP_CASE(F, M)                                                               \
    case (F) * 16 + (M):                                                               \
        if (sys->dim == 2)                                                             \
            F ? sweep_final(sys, in, p, M, 2) : sweep_newton(sys, in, p, M, 2);        \
        else                                                                           \
            F ? sweep_final(sys, in, p, M, 3) : sweep_newton(sys, in, p, M, 3);        \
        return;
    switch (final * 16 + mode) {
        SWEEP_CASE(0, SWEEP_WARM)
        SWEEP_CASE(0, SWEEP_WARM | SWEEP_NAMED)
        SWEEP_CASE(0, 0)
        SWEEP_CASE(0, SWEEP_REBASED)
        SWEEP_CASE(1, SWEEP_WARM)
        SWEEP_CASE(1, SWEEP_WARM | SWEEP_BACK)
        SWEEP_CASE(1, 0)
        SWEEP_CASE(1, SWEEP_BACK)
        SWEEP_CASE(1, SWEEP_REBASED)
        SWEEP_CASE(1, SWEEP_BACK | SWEEP_REBASED)
    default:
        return;
    }
#undef SWEEP_CASE
}

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

cdyn_status cdyn__projection_chain_positions(cdyn_system *sys, const double *x0,
                                             const double *v0, const double *a0, double *xn,
                                             double *vn, double h)
{
    cdyn__constraints *k = sys->cons;
    cdyn__projection *pr = sys->proj;
    const size_t cap = pr->opt.max_iterations, d = (size_t)sys->dim;
    const chain_in in = {x0, v0, a0, xn, vn, h, 0.5 * h, 1.0 / h, 0.5 * h * h};
    pr->stats.projections++;
    pr->stats.position_iterations = 0;
    pr->stats.velocity_iterations = 0;
    /* The general path's caches: k->jac and the displacements change here. */
    pr->valid = false;
    if (pr->dv_valid) {
        memset(pr->dx, 0, (size_t)sys->particles.count * d * sizeof *pr->dx);
        pr->dv_valid = false;
    }
    /* The particles in no row: the predictor alone. */
    for (uint32_t i = 0; i < pr->chain.n_free; i++) {
        size_t s = (size_t)pr->chain.free_particles[i] * d;
        for (size_t q = 0; q < d; q++) {
            vn[s + q] = v0[s + q] + in.h2 * a0[s + q];
            xn[s + q] = x0[s + q] + h * vn[s + q];
        }
    }
    /* Warm start: the impulse of the multipliers at x0 (the previous
     * closing kick's), mu = h^2/2 lambda; an O(h^3) residual is left. */
    int mode = k->evaluated ? SWEEP_WARM : 0;
    /* The pass of a warm sweep counts and tests, but names no row. */
    bool warm_now = mode == SWEEP_WARM, warm_last = false;
    cdyn__pass p, last;
    sweep(sys, &in, &p, 0, mode);
    pr->stats.factorizations++;
    size_t it = 0, since = 0;
    double best = HUGE_VAL;
    bool final = false; /* p is of a final sweep */
    cdyn_status st = CDYN_OK;
    for (;;) {
        if (!p.finite) {
            /* From finite positions, an iteration that leaves them has
             * diverged: the constraints cannot be met from here. */
            if (it == 0) {
                st = cdyn__projection_non_finite(sys, "position");
            } else {
                if (warm_last) /* the same residuals, rows named */
                    sweep(sys, &in, &last, 0, SWEEP_WARM | SWEEP_NAMED);
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
            if (!final) {
                /* Converged without a sweep that stored the result. */
                sweep(sys, &in, &p, 1, mode);
                pr->stats.factorizations++;
            }
            note_stats(sys, &p, false);
            break;
        }
        /* Newton converges fast or not at all: a largest residual that
         * has not halved in STALL iterations will not meet the tolerance
         * (no positions near the predicted ones satisfy the rods). */
        bool stalled = false;
        if (final) {
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
        if (final) {
            /* xn, vn hold x_p + D, v_p + D / h: the new base, from which the
             * multipliers start again at 0. */
            mode = SWEEP_REBASED;
            sweep(sys, &in, &p, 0, mode);
            pr->stats.factorizations++;
            final = false;
            continue;
        }
        it++;
        sweep(sys, &in, &p, 1, mode | SWEEP_BACK);
        pr->stats.factorizations++;
        final = true;
    }
    pr->stats.position_iterations = it;
    pr->stats.position_iterations_total += it;
    return st;
}

/* ------------------------------------------------------------------------
 * Velocities
 * ------------------------------------------------------------------------ */

/* Particle i's velocity before its correction: with @p kick (the first
 * solve) v + h/2 a1, formed in both velocity sweeps rather than stored by
 * the first (the same bits, one store and its load fewer). A fixed
 * particle starting several paths has a1 = 0: kicking it in each changes
 * nothing. */
static CDYN__ALWAYS_INLINE cdyn__r3 kicked(const double *restrict vn, const double *restrict a1,
                                     double h2, size_t i, const int kick, size_t D)
{
    const cdyn__r3 v = cdyn__r3_load(vn + i * D, D);
    return kick ? cdyn__r3_add(v, cdyn__r3_scale(h2, cdyn__r3_load(a1 + i * D, D), D), D) : v;
}

/* Forward, path by path: rhs_r = -e1_r.(v_b - v_a), with @p kick at
 * v + h/2 a1, and the forward solve z = L^-1 rhs, into the multipliers
 * (first solve) or refine (refinement). */
static CDYN__ALWAYS_INLINE void velocity_forward(cdyn_system *sys, const double *restrict xn,
                                                 const double *restrict vn,
                                                 const double *restrict a1, double h2,
                                                 const int kick, size_t D)
{
    const double inv_h = 0.5 / h2;
    cdyn__projection *pr = sys->proj;
    const uint32_t *restrict from = pr->chain.row_from, *restrict to = pr->chain.row_to, *restrict path_start = pr->chain.path_start;
    const uint32_t *restrict row_of = pr->chain.row_of;
    const double *restrict lower = pr->chain.a1_lower;
    double *restrict refine = pr->chain.refine_z, *restrict lam = sys->cons->lambda;
    for (uint32_t q = 0; q < pr->chain.n_paths; q++) {
        const uint32_t r1 = path_start[q + 1];
        const size_t ia = from[path_start[q]];
        cdyn__r3 x1a = cdyn__r3_load(xn + ia * D, D), va = kicked(vn, a1, h2, ia, kick, D);
        double z = 0, zr = 0; /* L(r, r - 1) = 0 at a path's first row */
        for (uint32_t r = path_start[q]; r < r1; r++) {
            const size_t ib = to[r];
            const cdyn__r3 x1b = cdyn__r3_load(xn + ib * D, D);
            const cdyn__r3 vb = kicked(vn, a1, h2, ib, kick, D);
            const cdyn__r3 e1 = cdyn__r3_sub(x1b, x1a, D);
            const double rhs = -cdyn__r3_dot(e1, cdyn__r3_sub(vb, va, D), D);
            z = rhs - lower[r] * z;
            if (kick) {
                /* The first solve keeps z where its multiplier will go, and
                 * solves beside it for the reported multipliers, whose
                 * right-hand side leaves out the change of the row's
                 * residual over the step, dr = g(x1) - g(x0), left in
                 * refine by the final position sweep
                 * (cdyn__projection_velocities in projection_solve.c says
                 * why). */
                zr = (rhs + refine[r] * inv_h) - lower[r] * zr;
                lam[row_of[r] & ROW_MASK] = z;
                refine[r] = zr;
            } else {
                refine[r] = z; /* a refinement adds to the multipliers */
            }
            x1a = x1b;
            va = vb;
        }
    }
}

/* What the velocity sweep's tests found: the largest ratio wn / wd (kept
 * as a fraction: no division per row), the rows above tolerance and the
 * sum of the numerators (finite when they all are). The rows are named,
 * when needed, by velocity_test. */
typedef struct vtest {
    double wn, wd, sum;
    uint32_t n_bad;
} vtest;

/* The velocity test of a row (as check_velocity, without naming rows): e1
 * its G(x1) block of particle b, va, vb the final velocities and sa, sb
 * their squared speeds. A row at rest (or of zero length) has G v = 0. */
static CDYN__ALWAYS_INLINE void check_row(vtest *t, cdyn__r3 e1, cdyn__r3 va, cdyn__r3 vb, double sa, double sb,
                                          double tol2, size_t D)
{
    const double gv = cdyn__r3_dot(e1, cdyn__r3_sub(vb, va, D), D), num = gv * gv;
    const double den = cdyn__maxd(cdyn__r3_dot(e1, e1, D) * cdyn__maxd(sa, sb), DBL_MIN);
    t->n_bad += !(num <= tol2 * den);
    if (num * t->wd > t->wn * den) { /* rarely taken once a few rows are in */
        t->wn = num;
        t->wd = den;
    }
    t->sum += num;
}

/* The velocity tests of every row with rows named (check_velocity). */
static CDYN__ALWAYS_INLINE void velocity_test_d(cdyn_system *sys, const double *restrict xn,
                                                const double *restrict vn, cdyn__pass *out, size_t D)
{
    const cdyn__projection *pr = sys->proj;
    const uint32_t *restrict from = pr->chain.row_from, *restrict to = pr->chain.row_to, *restrict path_start = pr->chain.path_start;
    const double tol2 = cdyn__tol2_of(pr->opt.velocity_tolerance);
    cdyn__pass p;
    cdyn__pass_init(&p);
    for (uint32_t q = 0; q < pr->chain.n_paths; q++) {
        size_t ia = from[path_start[q]];
        for (uint32_t r = path_start[q]; r < path_start[q + 1]; r++) {
            const size_t ib = to[r];
            const cdyn__r3 e1 = cdyn__r3_sub(cdyn__r3_load(xn + ib * D, D), cdyn__r3_load(xn + ia * D, D), D);
            const cdyn__r3 va = cdyn__r3_load(vn + ia * D, D), vb = cdyn__r3_load(vn + ib * D, D);
            cdyn__check_velocity(&p, r, cdyn__r3_dot(e1, cdyn__r3_sub(vb, va, D), D), cdyn__r3_dot(e1, e1, D),
                           cdyn__maxd(cdyn__r3_dot(va, va, D), cdyn__r3_dot(vb, vb, D)), tol2);
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

/* Backward, path by path: nu = L^-T D^-1 z, v += W G1^T nu, the
 * multipliers (lambda = scale nu, added with @p add) and the velocity test
 * of each row once both its particles are final. G(x1) is not stored
 * (k->blocks_unstored): it follows from x1 when asked for. */
static CDYN__ALWAYS_INLINE void velocity_backward(cdyn_system *sys, const double *restrict xn,
                                                  double *restrict vn, const double *restrict a1,
                                                  double h2, double scale_l, const int add_l,
                                                  cdyn__pass *out, size_t D)
{
    cdyn__projection *pr = sys->proj;
    cdyn__constraints *k = sys->cons;
    const uint32_t *restrict from = pr->chain.row_from, *restrict to = pr->chain.row_to, *restrict row_of = pr->chain.row_of;
    const uint32_t *restrict path_start = pr->chain.path_start;
    const double *restrict pivot_inv = pr->chain.a1_pivot_inv, *restrict lower = pr->chain.a1_lower, *restrict refine = pr->chain.refine_z;
    const double *restrict w = sys->inv_mass;
    double *restrict lam = k->lambda;
    const double tol2 = cdyn__tol2_of(pr->opt.velocity_tolerance);
    vtest t = {0, 1, 0, 0};
    for (uint32_t q = 0; q < pr->chain.n_paths; q++) {
        const uint32_t r0 = path_start[q];
        uint32_t r = path_start[q + 1] - 1;
        /* Row r's particle b; from row r + 1, done: its multiplier and
         * L(r + 1, r), e1, the final velocity of its particle b and its
         * squared speed. */
        size_t ib = to[r];
        double wb = w[ib], nun = 0, nurn = 0, lnext = 0, sbn = 0;
        cdyn__r3 x1b = cdyn__r3_load(xn + ib * D, D), e1n = CDYN__R3_ZERO, vbn = CDYN__R3_ZERO;
        for (;;) {
            const size_t ia = from[r];
            const double wa = w[ia];
            const uint32_t row = row_of[r] & ROW_MASK;
            const double nu = (add_l ? refine[r] : lam[row]) * pivot_inv[r] - lnext * nun;
            /* The first solve's reported multiplier (see velocity_forward). */
            const double nur = add_l ? nu : refine[r] * pivot_inv[r] - lnext * nurn;
            const cdyn__r3 x1a = cdyn__r3_load(xn + ia * D, D);
            const cdyn__r3 e1 = cdyn__r3_sub(x1b, x1a, D);
            cdyn__r3 corr = cdyn__r3_scale(nu, e1, D);
            /* At a path's last row e1n, nun and vbn are zero: nothing is
             * taken off and the test of that zero row passes. */
            corr = cdyn__r3_sub(corr, cdyn__r3_scale(nun, e1n, D), D);
            const cdyn__r3 vb = cdyn__r3_add(kicked(vn, a1, h2, ib, !add_l, D), cdyn__r3_scale(wb, corr, D), D);
            const double sb = cdyn__r3_dot(vb, vb, D);
            cdyn__r3_store(vn + ib * D, vb, D);
            check_row(&t, e1n, vb, vbn, sb, sbn, tol2, D);
            lam[row] = add_l ? lam[row] + scale_l * nu : scale_l * nur;
            if (r == r0) {
                const cdyn__r3 va = cdyn__r3_sub(kicked(vn, a1, h2, ia, !add_l, D), cdyn__r3_scale(wa * nu, e1, D), D);
                cdyn__r3_store(vn + ia * D, va, D);
                check_row(&t, e1, va, vb, cdyn__r3_dot(va, va, D), sb, tol2, D);
                break;
            }
            /* Particle a becomes the previous row's particle b. */
            nun = nu;
            nurn = nur;
            lnext = lower[r];
            e1n = e1;
            vbn = vb;
            sbn = sb;
            x1b = x1a;
            ib = ia;
            wb = wa;
            r--;
        }
    }
    cdyn__pass_init(out);
    out->wn = t.wn;
    out->wd = t.wd;
    out->n_bad = t.n_bad;
    out->finite = t.sum <= DBL_MAX;
}

static void velocity_solve(cdyn_system *sys, const double *xn, double *vn, const double *a1,
                           double h, bool first, cdyn__pass *p)
{
    const double scale = 2.0 / h;
    if (sys->dim == 2) {
        if (first)
            velocity_forward(sys, xn, vn, a1, 0.5 * h, 1, 2);
        else
            velocity_forward(sys, xn, vn, a1, 0.5 * h, 0, 2);
        velocity_backward(sys, xn, vn, a1, 0.5 * h, scale, !first, p, 2);
    } else {
        if (first)
            velocity_forward(sys, xn, vn, a1, 0.5 * h, 1, 3);
        else
            velocity_forward(sys, xn, vn, a1, 0.5 * h, 0, 3);
        velocity_backward(sys, xn, vn, a1, 0.5 * h, scale, !first, p, 3);
    }
}

cdyn_status cdyn__projection_chain_velocities(cdyn_system *sys, const double *xn, double *vn,
                                              const double *a1, double h, bool *finite)
{
    cdyn__constraints *k = sys->cons;
    cdyn__projection *pr = sys->proj;
    const size_t cap = pr->opt.max_iterations;
    const size_t d = (size_t)sys->dim;
    /* The particles in no row take their closing kick here, and are
     * checked here: the residual tests see only those in rows. */
    bool free_finite = true;
    for (uint32_t i = 0; i < pr->chain.n_free; i++) {
        size_t s = (size_t)pr->chain.free_particles[i] * d;
        for (size_t q = 0; q < d; q++) {
            vn[s + q] += 0.5 * h * a1[s + q];
            free_finite &= isfinite(xn[s + q]) && isfinite(vn[s + q]);
        }
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
    if (st)
        k->evaluated = false; /* the multipliers are of a step not taken */
    /* Every coordinate of a particle in a row enters its row's residuals,
     * which a converged pass found finite (a NaN or infinite coordinate
     * makes them NaN or infinite, also against a zero component). */
    *finite = !st && free_finite;
    return st;
}
