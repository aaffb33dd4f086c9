#include "solver/ldlt.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "alloc.h"

#if defined(__GNUC__)
#define CDYN__ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define CDYN__ALWAYS_INLINE inline
#endif

void cdyn__ldlt_init(cdyn__ldlt *f)
{
    memset(f, 0, sizeof *f);
}

void cdyn__ldlt_destroy(cdyn__ldlt *f, const cdyn_allocator *alloc)
{
    if (!f)
        return;
    size_t n = f->sym.n;
    cdyn__free_array(alloc, f->lx, f->sym.lnz, sizeof *f->lx);
    cdyn__free_array(alloc, f->dinv, n, sizeof *f->dinv);
    cdyn__free_array(alloc, f->y, n, sizeof *f->y);
    cdyn__free_array(alloc, f->w, n, sizeof *f->w);
    cdyn__free_array(alloc, f->redundant, n, sizeof *f->redundant);
    cdyn__symbolic_destroy(&f->sym, alloc);
    cdyn__ldlt_init(f);
}

cdyn_status cdyn__ldlt_analyze(cdyn__ldlt *f, const cdyn__symmat *a,
                               const cdyn_allocator *alloc, const uint32_t *order)
{
    if (!f || !a || !alloc)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__ldlt out;
    cdyn__ldlt_init(&out);
    cdyn_status st = cdyn__symbolic_analyze(&out.sym, a, alloc, order);
    if (st != CDYN_OK)
        return st;
    size_t n = out.sym.n;
    out.lx = cdyn__alloc_array(alloc, out.sym.lnz, sizeof *out.lx);
    out.dinv = cdyn__alloc_array(alloc, n, sizeof *out.dinv);
    out.y = cdyn__calloc_array(alloc, n, sizeof *out.y);
    out.w = cdyn__alloc_array(alloc, n, sizeof *out.w);
    out.redundant = cdyn__alloc_array(alloc, n, sizeof *out.redundant);
    if ((out.sym.lnz && !out.lx) ||
        (n && (!out.dinv || !out.y || !out.w || !out.redundant))) {
        cdyn__ldlt_destroy(&out, alloc);
        return CDYN_ERR_NO_MEMORY;
    }
    cdyn__ldlt_destroy(f, alloc);
    *f = out;
    return CDYN_OK;
}

/* Row k's pivot test; returns 1 / d_k or 0 for a dropped row. */
static CDYN__ALWAYS_INLINE double pivot_inverse(cdyn__ldlt *f, uint32_t k, double dk,
                                                double akk, double eps_rel,
                                                uint32_t *nred)
{
    if (dk > eps_rel * akk)
        return 1.0 / dk;
    f->redundant[(*nred)++] = f->sym.perm[k];
    return 0.0;
}

/* The factorization, and when @p rhs the forward solve with x:
 * w = D^-1 L^-1 P x. Written once, instantiated twice by forced inlining
 * with a constant rhs, so that neither loop tests it. */
static CDYN__ALWAYS_INLINE cdyn_status factor_rows(cdyn__ldlt *f, const cdyn__symmat *a,
                                                   const double *diag_add,
                                                   double eps_rel, const double *x,
                                                   const int rhs)
{
    if (!f || !a || a->n != f->sym.n || a->nnz != f->sym.annz ||
        (f->sym.n && !f->dinv))
        return CDYN_ERR_INVALID_ARGUMENT;
    const uint32_t n = f->sym.n;
    const uint32_t *restrict perm = f->sym.perm, *restrict adiag = f->sym.adiag;
    const uint32_t *restrict rp = f->sym.rp, *restrict rj = f->sym.rj;
    const uint32_t *restrict rsrc = f->sym.rsrc, *restrict rq = f->sym.rq;
    const uint32_t *restrict lp = f->sym.lp, *restrict li = f->sym.li;
    const double *restrict av = a->val;
    double *restrict lx = f->lx, *restrict dinv = f->dinv;
    double *restrict y = f->y, *restrict w = f->w;
    uint32_t nred = 0;
    int finite = 1;

    f->factored = 0;
    if (f->sym.forest) {
        /* Every entry of L is an entry of A and no column feeds another
         * row: L(k, j) = A(k, j) / d_j, d_k = A_kk - sum A(k, j)^2 / d_j,
         * and the forward solve z_k = b_k - sum A(k, j) w_j, w = D^-1 z. */
        for (uint32_t k = 0; k < n; k++) {
            double akk = av[adiag[k]] + (diag_add ? diag_add[perm[k]] : 0.0);
            double dk = akk, zk = rhs ? x[perm[k]] : 0.0;
            for (uint32_t t = rp[k]; t < rp[k + 1]; t++) {
                uint32_t j = rj[t];
                double u = av[rsrc[t]];
                /* u * u is off the pivot recurrence, which is then only
                 * the load of 1/d_j, a multiply and a subtract on top of
                 * the division. */
                dk -= (u * u) * dinv[j];
                lx[t] = u * dinv[j];
                if (rhs)
                    zk -= u * w[j];
            }
            finite &= fabs(dk) <= DBL_MAX;
            double di = pivot_inverse(f, k, dk, akk, eps_rel, &nred);
            dinv[k] = di;
            if (rhs)
                w[k] = zk * di;
        }
    } else {
        for (uint32_t k = 0; k < n; k++) {
            double akk = av[adiag[k]] + (diag_add ? diag_add[perm[k]] : 0.0);
            double dk = akk, zk = rhs ? x[perm[k]] : 0.0;
            /* Solve L(0:k-1, 0:k-1) u = A(0:k-1, k) over row k's pattern,
             * whose columns ascend (a topological order): u_j = L(k, j) d_j.
             * y[j] holds the updates entry j has received; A's value is
             * added here, so y needs no scatter and ends all zero. */
            for (uint32_t t = rp[k]; t < rp[k + 1]; t++) {
                uint32_t j = rj[t], s = rsrc[t];
                double u = y[j];
                y[j] = 0.0;
                if (s != CDYN__SYMBOLIC_NONE)
                    u += av[s];
                /* Column j's entries above row k are already computed. */
                const uint32_t qk = rq[t];
                for (uint32_t q = lp[j]; q < qk; q++)
                    y[li[q]] -= lx[q] * u;
                dk -= (u * u) * dinv[j];
                lx[qk] = u * dinv[j];
                if (rhs)
                    zk -= u * w[j];
            }
            finite &= fabs(dk) <= DBL_MAX;
            double di = pivot_inverse(f, k, dk, akk, eps_rel, &nred);
            dinv[k] = di;
            if (rhs)
                w[k] = zk * di;
        }
    }
    f->nredundant = nred;
    if (!finite) {
        f->nredundant = 0;
        return CDYN_ERR_INVALID_ARGUMENT;
    }
    f->factored = 1;
    return CDYN_OK;
}

/* Index of row entry t's value in lx: rows for a forest, columns otherwise. */
static CDYN__ALWAYS_INLINE uint32_t value_index(const uint32_t *rq, uint32_t t,
                                                const int bycol)
{
    return bycol ? rq[t] : t;
}

/* w = D^-1 L^-1 P x by rows: z = L^-1 P x into w, then scaled. */
static CDYN__ALWAYS_INLINE void forward(cdyn__ldlt *f, const double *x, const int bycol)
{
    const uint32_t n = f->sym.n;
    const uint32_t *restrict perm = f->sym.perm, *restrict rp = f->sym.rp;
    const uint32_t *restrict rj = f->sym.rj, *restrict rq = f->sym.rq;
    const double *restrict lx = f->lx, *restrict dinv = f->dinv;
    double *restrict w = f->w;
    for (uint32_t k = 0; k < n; k++) {
        double zk = x[perm[k]];
        for (uint32_t t = rp[k]; t < rp[k + 1]; t++)
            zk -= lx[value_index(rq, t, bycol)] * w[rj[t]];
        w[k] = zk;
    }
    for (uint32_t k = 0; k < n; k++)
        w[k] *= dinv[k];
}

/* x = P^T L^-T w, consuming w: row k scatters x_k into the rows it couples,
 * x_j = w_j - sum_i L(i, j) x_i. */
static CDYN__ALWAYS_INLINE void backward(cdyn__ldlt *f, double *x, const int bycol)
{
    const uint32_t n = f->sym.n;
    const uint32_t *restrict perm = f->sym.perm, *restrict rp = f->sym.rp;
    const uint32_t *restrict rj = f->sym.rj, *restrict rq = f->sym.rq;
    const double *restrict lx = f->lx;
    double *restrict w = f->w;
    for (uint32_t k = n; k-- > 0;) {
        double xk = w[k];
        x[perm[k]] = xk;
        for (uint32_t t = rp[k]; t < rp[k + 1]; t++)
            w[rj[t]] -= lx[value_index(rq, t, bycol)] * xk;
    }
}

cdyn_status cdyn__ldlt_factor(cdyn__ldlt *f, const cdyn__symmat *a,
                              const double *diag_add, double eps_rel)
{
    return factor_rows(f, a, diag_add, eps_rel, NULL, 0);
}

cdyn_status cdyn__ldlt_factor_solve(cdyn__ldlt *f, const cdyn__symmat *a,
                                    const double *diag_add, double eps_rel, double *x)
{
    if (!x && a && a->n)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn_status st = factor_rows(f, a, diag_add, eps_rel, x, 1);
    if (st != CDYN_OK)
        return st;
    if (f->sym.forest)
        backward(f, x, 0);
    else
        backward(f, x, 1);
    return CDYN_OK;
}

cdyn_status cdyn__ldlt_solve(cdyn__ldlt *f, double *x)
{
    if (!f || !f->factored || (f->sym.n && !x))
        return CDYN_ERR_INVALID_ARGUMENT;
    if (f->sym.forest) {
        forward(f, x, 0);
        backward(f, x, 0);
    } else {
        forward(f, x, 1);
        backward(f, x, 1);
    }
    return CDYN_OK;
}
