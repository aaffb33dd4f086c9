/* The multiplier solve of a chain of rods on one thread, eliminated from
 * both ends at once (constraint_chain.c has the one-ended sweeps it
 * replaces for long chains).
 *
 * A one-ended sweep is a chain of dependent divisions: each pivot waits
 * for the one before. A twisted ("burn at both ends") factorization of the
 * tridiagonal A = G W G^T eliminates rows 0..m-1 downwards (lane A) and
 * rows n-1..m upwards (lane B), two independent recurrences that share
 * every vector instruction, a row of each in the two lanes of a register:
 *
 *   lane A:  d_r = A_rr - u_r^2 / d_(r-1),  L_r = u_r / d_(r-1)
 *   lane B:  d_s = A_ss - u_(s+1)^2 / d_(s+1),  L'_s = u_(s+1) / d_(s+1)
 *
 * (u_r = A(r, r - 1)), each with its forward solve y = D^-1 L^-1 rhs (lane
 * B stops at row n - m: for an odd row count row m is left between the
 * lanes). The lanes' last rows then meet in a 2 x 2 system, or through row
 * m (the twist), and the back substitutions run outwards, adding each
 * rod's W G^T lambda to its particles. Lane
 * A's arithmetic is the one-ended sweep's, row for row; lane B's is its
 * mirror. The pivots take the same redundancy test, the meeting system
 * too: a failure hands the solve back (the one-ended sweeps, then the
 * general path, which drops redundant rows and reports). */
#include <float.h>
#include <math.h>

#include "constraint/constraint.h"
#include "constraint/row_rhs.h"
#include "core/system.h"

#if defined(__GNUC__)

/* Rows from which the twisted sweeps are used (shorter chains: the
 * one-ended sweeps, whose bits the pinned scenes hold). */
#define TWISTED_MIN_ROWS 256u
#define NO_TERM SIZE_MAX

typedef double lanes __attribute__((vector_size(16)));

static inline lanes pick(const double *a, size_t ia, size_t ib)
{
    return (lanes){a[ia], a[ib]};
}

/* The coupling u of a term (0 for none). */
static CDYN__ALWAYS_INLINE double coupling(const cdyn__constraints *k, const double *w, size_t ti,
                                           size_t D)
{
    return ti == NO_TERM ? 0.0 : cdyn__term_value(k, w, &k->terms[ti], D);
}

/* Rows r (lane A) and s (lane B) as cdyn__rods_row forms them, value for
 * value: their Jacobian blocks written, *rhs and *akk returned. */
static CDYN__ALWAYS_INLINE void two_rows(cdyn__constraints *restrict k, const cdyn__rhs_coef *rc,
                                         const double *restrict x, const double *restrict v,
                                         const double *restrict acc, const double *restrict w,
                                         uint32_t r, uint32_t s, lanes *rhs, lanes *akk, size_t D)
{
    const uint32_t *restrict bp = k->blk_particle;
    const size_t pa0 = bp[2 * (size_t)r], pb0 = bp[2 * (size_t)r + 1];
    const size_t pa1 = bp[2 * (size_t)s], pb1 = bp[2 * (size_t)s + 1];
    const size_t a0 = pa0 * D, b0 = pb0 * D, a1 = pa1 * D, b1 = pb1 * D;
    double *restrict jr = k->jac + 2 * D * r, *restrict js = k->jac + 2 * D * s;
    lanes dd = {0, 0}, dv2 = {0, 0}, gd = {0, 0}, gwf = {0, 0};
    for (size_t q = 0; q < D; q++) {
        const lanes dq = pick(x, b0 + q, b1 + q) - pick(x, a0 + q, a1 + q);
        const lanes vq = pick(v, b0 + q, b1 + q) - pick(v, a0 + q, a1 + q);
        const lanes fq = pick(acc, b0 + q, b1 + q) - pick(acc, a0 + q, a1 + q);
        jr[q] = -dq[0];
        jr[D + q] = dq[0];
        js[q] = -dq[1];
        js[D + q] = dq[1];
        dd += dq * dq;
        dv2 += vq * vq;
        gd += dq * vq;
        gwf += dq * fq;
    }
    const lanes g = (lanes){0.5, 0.5} * (dd - pick(k->ll, r, s));
    const lanes ks = {rc->ks, rc->ks}, kd = {rc->kd, rc->kd};
    *rhs = -dv2 - gwf - ks * g - kd * gd;
    *akk = (pick(w, pa0, pa1) + pick(w, pb0, pb1)) * dd;
}

/* Row r's W G^T lambda into its particles' accelerations. */
static CDYN__ALWAYS_INLINE void add_row(const cdyn__constraints *restrict k,
                                        const double *restrict w, double *restrict acc,
                                        uint32_t r, double lam, size_t D)
{
    const uint32_t ia = k->blk_particle[2 * (size_t)r], ib = k->blk_particle[2 * (size_t)r + 1];
    const double la = lam * w[ia], lb = lam * w[ib];
    const double *ja = k->jac + 2 * D * r;
    double *aa = acc + (size_t)ia * D, *ab = acc + (size_t)ib * D;
    for (size_t q = 0; q < D; q++) {
        aa[q] += la * ja[q];
        ab[q] += lb * ja[D + q];
    }
}

static CDYN__ALWAYS_INLINE bool twisted_d(cdyn_system *sys, const double *x, const double *v,
                                          double *acc, size_t D)
{
    cdyn__constraints *restrict k = sys->cons;
    const double *restrict w = sys->inv_mass;
    const cdyn__rhs_coef rc = cdyn__rhs_coef_of(sys);
    const cdyn__aterm *restrict t = k->terms;
    double *restrict y = k->lambda, *restrict l = k->ldlt.w;
    const uint32_t n = k->n_rows, m = n / 2;
    const size_t nt = k->n_terms;
    /* Lane A's next term is the first whose row is its row; lane B's the
     * last whose row is the row below its row. */
    size_t ta = 0, tb = nt;
    lanes dinvp = {0, 0}, yp = {0, 0};
    for (uint32_t i = 0; i < m; i++) {
        const uint32_t r = i, s = n - 1 - i;
        lanes rhs, akk;
        two_rows(k, &rc, x, v, acc, w, r, s, &rhs, &akk, D);
        size_t ua = NO_TERM, ub = NO_TERM;
        if (ta < nt && t[ta].bj / 2 == r)
            ua = ta++;
        if (tb > 0 && t[tb - 1].bj / 2 == s + 1)
            ub = --tb;
        const lanes u = {coupling(k, w, ua, D), coupling(k, w, ub, D)};
        const lanes d = akk - (u * u) * dinvp;
        const lanes lw = u * dinvp;
        const lanes z = rhs - u * yp;
        const lanes lim = (lanes){CDYN__REDUNDANT_PIVOT, CDYN__REDUNDANT_PIVOT} * akk;
        if (!(d[0] > lim[0]) || !(d[1] > lim[1]) || !(d[0] <= DBL_MAX) || !(d[1] <= DBL_MAX))
            return false;
        dinvp = (lanes){1.0, 1.0} / d;
        yp = z * dinvp;
        l[r] = lw[0];
        l[s] = lw[1];
        y[r] = yp[0];
        y[s] = yp[1];
    }
    /* The lanes end at rows m - 1 and b = n - m: adjacent for an even row
     * count, else with row m between them. */
    const uint32_t b = n - m;
    const size_t um = ta < nt && t[ta].bj / 2 == m ? ta : NO_TERM;
    double lam_a, lam_b;
    if (b == m) {
        const double u = coupling(k, w, um, D);
        /* lambda_(m-1) = y_(m-1) - ca lambda_m, lambda_m = y_m - cb lambda_(m-1) */
        const double ca = u * dinvp[0], cb = u * dinvp[1], den = 1.0 - ca * cb;
        if (!(den > CDYN__REDUNDANT_PIVOT) || !(den <= DBL_MAX))
            return false;
        lam_a = (y[m - 1] - ca * y[m]) / den;
        lam_b = y[m] - cb * lam_a;
        add_row(k, w, acc, m, lam_b, D);
    } else {
        /* Row m, the twist: A_mm lambda_m + u_m lambda_(m-1) + u_(m+1)
         * lambda_(m+1) = rhs_m with lambda_(m-1) = y_(m-1) - u_m dA
         * lambda_m and lambda_(m+1) = y_(m+1) - u_(m+1) dB lambda_m. */
        const uint32_t *bp = k->blk_particle;
        const uint32_t ia = bp[2 * (size_t)m], ib = bp[2 * (size_t)m + 1];
        double d2;
        const double rhs = cdyn__rods_row(k, &rc, x, v, acc, m, ia, ib, D, &d2);
        const double akk = (w[ia] + w[ib]) * d2;
        /* (Both couplings read row m's blocks, written just now.) */
        const size_t ub = tb > 0 && t[tb - 1].bj / 2 == b ? tb - 1 : NO_TERM;
        const double u = coupling(k, w, um, D), u2 = coupling(k, w, ub, D);
        const double piv = akk - (u * u) * dinvp[0] - (u2 * u2) * dinvp[1];
        if (!(piv > CDYN__REDUNDANT_PIVOT * akk) || !(piv <= DBL_MAX))
            return false;
        const double lam_m = (rhs - u * y[m - 1] - u2 * y[b]) / piv;
        lam_a = y[m - 1] - u * dinvp[0] * lam_m;
        lam_b = y[b] - u2 * dinvp[1] * lam_m;
        y[m] = lam_m;
        add_row(k, w, acc, b, lam_b, D);
        add_row(k, w, acc, m, lam_m, D);
    }
    y[m - 1] = lam_a;
    y[b] = lam_b;
    /* Outwards: the meeting rows above in the one-ended sweep's order
     * (neighbours share a particle), then a row of each side at a time. */
    add_row(k, w, acc, m - 1, lam_a, D);
    lanes lam_next = {lam_a, lam_b};
    for (uint32_t i = 1; i < m; i++) {
        const uint32_t r = m - 1 - i, s = b + i;
        const lanes lam = pick(y, r, s) - pick(l, r + 1, s - 1) * lam_next;
        y[r] = lam[0];
        y[s] = lam[1];
        add_row(k, w, acc, s, lam[1], D);
        add_row(k, w, acc, r, lam[0], D);
        lam_next = lam;
    }
    return true;
}

bool cdyn__constraints_chain_twisted(cdyn_system *sys, const double *x, const double *v,
                                     double *acc)
{
    const cdyn__constraints *k = sys->cons;
    if (k->n_rows < TWISTED_MIN_ROWS || k->any_compliance)
        return false;
    return sys->dim == 2 ? twisted_d(sys, x, v, acc, 2) : twisted_d(sys, x, v, acc, 3);
}

#else

bool cdyn__constraints_chain_twisted(cdyn_system *sys, const double *x, const double *v,
                                     double *acc)
{
    (void)sys, (void)x, (void)v, (void)acc;
    return false;
}

#endif
