/* The multiplier solve of a chain of rods in two sweeps (a chain factors
 * with no fill; docs/constraints.md). When every row is a rod's and
 * each row couples at most to the row before it (k->tridiagonal), A = G W
 * G^T is tridiagonal in row order, and the row pass, the factorization
 * A = L D L^T and the forward solve are one loop down the chain; the
 * backward solve and the constraint accelerations W G^T lambda one loop
 * back up. The general path (constraint_solve.c) does the same work in
 * four passes through index arrays; this one reads each rod's particles
 * once per sweep.
 *
 * A pivot that fails the redundancy test, or is not finite, hands the
 * whole solve back to the general path, which drops redundant rows, names
 * conflicts and reports non-finite matrices. */
#include <float.h>
#include <math.h>

#include "constraint/constraint.h"
#include "constraint/row_rhs.h"
#include "core/system.h"

/* Down the chain: rows, L (into scratch), w = D^-1 L^-1 rhs (into lambda).
 * Returns false at the first pivot that fails the test. */
static CDYN__ALWAYS_INLINE bool forward_sweep(cdyn__constraints *restrict k,
                                              const cdyn__rhs_coef *rc, const double *restrict x,
                                              const double *restrict v,
                                              const double *restrict acc,
                                              const double *restrict w, double *restrict l,
                                              size_t D)
{
    const uint32_t *restrict bp = k->blk_particle;
    double *restrict z = k->lambda;
    const cdyn__aterm *restrict t = k->terms;
    const size_t nt = k->n_terms;
    size_t ti = 0;
    double dinv_prev = 0, z_prev = 0;
    for (uint32_t r = 0; r < k->n_rows; r++) {
        uint32_t ia = bp[2 * (size_t)r], ib = bp[2 * (size_t)r + 1];
        double d2;
        double rhs = cdyn__rods_row(k, rc, x, v, acc, r, ia, ib, D, &d2);
        double akk = (w[ia] + w[ib]) * d2 + (k->any_compliance ? k->diag[r] : 0.0);
        /* The coupling with the row before, through their shared particle:
         * L(r, r - 1) = A(r, r - 1) / d_{r-1}. */
        double dk = akk, zk = rhs, lr = 0;
        if (ti < nt && t[ti].bj / 2 == r) {
            double u = cdyn__term_value(k, w, &t[ti], D);
            dk -= (u * u) * dinv_prev;
            lr = u * dinv_prev;
            zk -= u * z_prev;
            ti++;
        }
        if (!(dk > CDYN__REDUNDANT_PIVOT * akk) || !(dk <= DBL_MAX))
            return false;
        dinv_prev = 1.0 / dk;
        l[r] = lr;
        z[r] = z_prev = zk * dinv_prev;
    }
    return true;
}

/* Up the chain: lambda_r = w_r - L(r + 1, r) lambda_{r+1}, and each rod's
 * W G^T lambda added to its particles' accelerations. */
static CDYN__ALWAYS_INLINE void backward_sweep(cdyn__constraints *restrict k,
                                               const double *restrict w,
                                               const double *restrict l, double *restrict acc,
                                               size_t D)
{
    const uint32_t *restrict bp = k->blk_particle;
    const double *restrict jac = k->jac;
    double *restrict lambda = k->lambda;
    double lam_next = 0, l_next = 0;
    for (uint32_t r = k->n_rows; r-- > 0;) {
        double lam = lambda[r] - l_next * lam_next;
        lambda[r] = lam;
        uint32_t ia = bp[2 * (size_t)r], ib = bp[2 * (size_t)r + 1];
        double la = lam * w[ia], lb = lam * w[ib];
        const double *ja = jac + 2 * D * r;
        double *aa = acc + ia * D, *ab = acc + ib * D;
        for (size_t q = 0; q < D; q++) {
            aa[q] += la * ja[q];
            ab[q] += lb * ja[D + q];
        }
        lam_next = lam;
        l_next = l[r];
    }
}

bool cdyn__constraints_chain_apply(cdyn_system *sys, const double *x, const double *v,
                                   double *acc)
{
    cdyn__constraints *k = sys->cons;
    const double *w = sys->inv_mass;
    const cdyn__rhs_coef rc = cdyn__rhs_coef_of(sys);
    double *l = k->ldlt.w; /* the solves' scratch: n_rows long, free between solves */
    k->has_compliance = false;
    /* Under a task system a long chain is cut, for any number of workers
     * (constraint_chain_split.c); a cut that fails leaves it to the uncut
     * sweeps. */
    bool ok = sys->tasks.host.enqueue && cdyn__constraints_chain_split(sys, x, v, acc);
    /* Else a long chain is eliminated from both ends at once
     * (constraint_chain_twisted.c). */
    if (ok || cdyn__constraints_chain_twisted(sys, x, v, acc))
        goto done;
    ok = sys->dim == 2 ? forward_sweep(k, &rc, x, v, acc, w, l, 2)
                            : forward_sweep(k, &rc, x, v, acc, w, l, 3);
    if (!ok)
        return false;
    if (sys->dim == 2)
        backward_sweep(k, w, l, acc, 2);
    else
        backward_sweep(k, w, l, acc, 3);
done:
    k->stats.iterations = 0;
    k->stats.redundant_rows = 0;
    k->stats.factor_nonzeros = k->ldlt.sym.lnz;
    k->stats.residual = 0;
    return true;
}
