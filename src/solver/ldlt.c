#include "solver/ldlt.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"

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
    cdyn_status st = cdyn__symbolic_analyze_lean(&out.sym, a, alloc, order);
    if (st != CDYN_OK)
        return st;
    size_t n = out.sym.n;
    /* A forest's factor has no updates, hence no y. */
    const int need_y = !out.sym.forest;
    out.lx = cdyn__alloc_array(alloc, out.sym.lnz, sizeof *out.lx);
    out.dinv = cdyn__alloc_array(alloc, n, sizeof *out.dinv);
    out.y = need_y ? cdyn__calloc_array(alloc, n, sizeof *out.y) : NULL;
    out.w = cdyn__alloc_array(alloc, n, sizeof *out.w);
    out.redundant = cdyn__alloc_array(alloc, n, sizeof *out.redundant);
    if ((out.sym.lnz && !out.lx) ||
        (n && (!out.dinv || (need_y && !out.y) || !out.w || !out.redundant))) {
        cdyn__ldlt_destroy(&out, alloc);
        return CDYN_ERR_NO_MEMORY;
    }
    cdyn__ldlt_destroy(f, alloc);
    *f = out;
    return CDYN_OK;
}

/* What the row loops read and write, gathered once per call. */
typedef struct rows_ctx {
    const uint32_t *restrict perm, *restrict adiag, *restrict rp, *restrict rj;
    const uint32_t *restrict rsrc, *restrict rq, *restrict lp, *restrict li;
    const double *restrict av, *restrict diag_add;
    const double *restrict x;
    double *restrict lx, *restrict dinv, *restrict y, *restrict w;
    uint32_t *restrict redundant;
    double eps_rel;
    uint32_t nred;
    int finite;
} rows_ctx;

/* Ends row k: the pivot test (a pivot <= eps_rel A_kk drops the row: 1/d_k
 * = 0) and, with a right-hand side, w_k = z_k / d_k. */
static CDYN__ALWAYS_INLINE void end_row(rows_ctx *c, uint32_t k, double dk, double akk,
                                        double zk, const int rhs)
{
    double di;
    c->finite &= fabs(dk) <= DBL_MAX;
    if (dk > c->eps_rel * akk) {
        di = 1.0 / dk;
    } else {
        di = 0.0;
        c->redundant[c->nred++] = c->perm[k];
    }
    c->dinv[k] = di;
    if (rhs)
        c->w[k] = zk * di;
}

/* Row k when L is a forest: every entry of L is an entry of A and no column
 * feeds another row, so L(k, j) = A(k, j) / d_j, d_k = A_kk - sum
 * A(k, j)^2 / d_j, and the forward solve z_k = b_k - sum A(k, j) w_j. */
static CDYN__ALWAYS_INLINE void forest_row(rows_ctx *c, uint32_t k, const int rhs)
{
    const double *restrict av = c->av;
    const double *restrict dinv = c->dinv;
    double akk = av[c->adiag[k]] + (c->diag_add ? c->diag_add[c->perm[k]] : 0.0);
    double dk = akk, zk = rhs ? c->x[c->perm[k]] : 0.0;
    for (uint32_t t = c->rp[k]; t < c->rp[k + 1]; t++) {
        uint32_t j = c->rj[t];
        double u = av[c->rsrc[t]];
        /* u * u is off the pivot recurrence, which is then only the load of
         * 1/d_j, a multiply and a subtract on top of the division. */
        dk -= (u * u) * dinv[j];
        c->lx[t] = u * dinv[j];
        if (rhs)
            zk -= u * c->w[j];
    }
    end_row(c, k, dk, akk, zk, rhs);
}

/* Row k in general: solve L(0:k-1, 0:k-1) u = A(0:k-1, k) over row k's
 * pattern, whose columns ascend (a topological order); u_j = L(k, j) d_j.
 * y[j] holds the updates entry j has received and A's value is added here,
 * so y needs no scatter and ends all zero. */
static CDYN__ALWAYS_INLINE void general_row(rows_ctx *c, uint32_t k, const int rhs)
{
    const double *restrict av = c->av;
    const double *restrict dinv = c->dinv;
    double *restrict y = c->y, *restrict lx = c->lx;
    double akk = av[c->adiag[k]] + (c->diag_add ? c->diag_add[c->perm[k]] : 0.0);
    double dk = akk, zk = rhs ? c->x[c->perm[k]] : 0.0;
    for (uint32_t t = c->rp[k]; t < c->rp[k + 1]; t++) {
        uint32_t j = c->rj[t], s = c->rsrc[t];
        double u = y[j];
        y[j] = 0.0;
        if (s != CDYN__SYMBOLIC_NONE)
            u += av[s];
        /* Column j's entries above row k are already computed. */
        const uint32_t qk = c->rq[t];
        for (uint32_t q = c->lp[j]; q < qk; q++)
            y[c->li[q]] -= lx[q] * u;
        dk -= (u * u) * dinv[j];
        lx[qk] = u * dinv[j];
        if (rhs)
            zk -= u * c->w[j];
    }
    end_row(c, k, dk, akk, zk, rhs);
}

/* The factorization, and when @p rhs the forward solve with x:
 * w = D^-1 L^-1 P x. Written once, instantiated twice by forced inlining
 * with a constant rhs, so that no loop tests it. */
static CDYN__ALWAYS_INLINE cdyn_status factor_rows(cdyn__ldlt *f, const cdyn__symmat *a,
                                                   const double *diag_add,
                                                   double eps_rel, const double *x,
                                                   const int rhs)
{
    if (!f || !a || a->n != f->sym.n || a->nnz != f->sym.annz ||
        (f->sym.n && !f->dinv) || !(eps_rel >= 0.0 && eps_rel < 1.0))
        return CDYN_ERR_INVALID_ARGUMENT;
    const uint32_t n = f->sym.n;
    rows_ctx c = {f->sym.perm, f->sym.adiag, f->sym.rp, f->sym.rj, f->sym.rsrc,
                  f->sym.rq, f->sym.lp, f->sym.li, a->val, diag_add, x,
                  f->lx, f->dinv, f->y, f->w, f->redundant, eps_rel, 0, 1};
    f->factored = 0;
    if (f->sym.forest) {
        for (uint32_t k = 0; k < n; k++)
            forest_row(&c, k, rhs);
    } else {
        for (uint32_t k = 0; k < n; k++)
            general_row(&c, k, rhs);
    }
    f->nredundant = c.nred;
    if (!c.finite) {
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

/* Row k of the forward solve: z_k = (P b)_k - sum L(k, j) z_j into w. */
static CDYN__ALWAYS_INLINE void forward_row(const cdyn__ldlt *f, const double *x, uint32_t k,
                                            const int bycol)
{
    const uint32_t *restrict rp = f->sym.rp, *restrict rj = f->sym.rj, *restrict rq = f->sym.rq;
    const double *restrict lx = f->lx;
    double *restrict w = f->w;
    double zk = x[f->sym.perm[k]];
    for (uint32_t t = rp[k]; t < rp[k + 1]; t++)
        zk -= lx[value_index(rq, t, bycol)] * w[rj[t]];
    w[k] = zk;
}

/* w = D^-1 L^-1 P x by rows: z = L^-1 P x into w, then scaled. */
static CDYN__ALWAYS_INLINE void forward(cdyn__ldlt *f, const double *x, const int bycol)
{
    const uint32_t n = f->sym.n;
    for (uint32_t k = 0; k < n; k++)
        forward_row(f, x, k, bycol);
    const double *restrict dinv = f->dinv;
    double *restrict w = f->w;
    for (uint32_t k = 0; k < n; k++)
        w[k] *= dinv[k];
}

/* Row k of the backward solve: x_k = w_k is final; scatter it into the rows
 * it couples, x_j = w_j - sum_i L(i, j) x_i. */
static CDYN__ALWAYS_INLINE void backward_row(cdyn__ldlt *f, double *x, uint32_t k,
                                             const int bycol)
{
    const uint32_t *restrict rp = f->sym.rp, *restrict rj = f->sym.rj, *restrict rq = f->sym.rq;
    const double *restrict lx = f->lx;
    double *restrict w = f->w;
    double xk = w[k];
    x[f->sym.perm[k]] = xk;
    for (uint32_t t = rp[k]; t < rp[k + 1]; t++)
        w[rj[t]] -= lx[value_index(rq, t, bycol)] * xk;
}

/* x = P^T L^-T w, consuming w. */
static CDYN__ALWAYS_INLINE void backward(cdyn__ldlt *f, double *x, const int bycol)
{
    for (uint32_t k = f->sym.n; k-- > 0;)
        backward_row(f, x, k, bycol);
}

cdyn_status cdyn__ldlt_factor(cdyn__ldlt *f, const cdyn__symmat *a,
                              const double *diag_add, double eps_rel)
{
    return factor_rows(f, a, diag_add, eps_rel, NULL, 0);
}

cdyn_status cdyn__ldlt_factor_solve(cdyn__ldlt *f, const cdyn__symmat *a,
                                    const double *diag_add, double eps_rel, double *x)
{
    return cdyn__ldlt_factor_solve_rhs(f, a, diag_add, eps_rel, x, x);
}

cdyn_status cdyn__ldlt_factor_solve_rhs(cdyn__ldlt *f, const cdyn__symmat *a,
                                        const double *diag_add, double eps_rel,
                                        const double *b, double *x)
{
    if ((!x || !b) && a && a->n)
        return CDYN_ERR_INVALID_ARGUMENT;
    /* b is read by the forward pass only, x written by the backward one. */
    cdyn_status st = factor_rows(f, a, diag_add, eps_rel, b, 1);
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
