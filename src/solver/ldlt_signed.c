/* LDL^T of a symmetric quasi-definite matrix with expected pivot signs: the
 * up-looking row algorithm over the patterns of cdyn__symbolic (as in
 * ldlt.c), L stored by columns, and a pivot test per row against the sign
 * the caller expects (see ldlt_signed.h). */
#include "solver/ldlt_signed.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"

void cdyn__ldlt_signed_init(cdyn__ldlt_signed *f)
{
    memset(f, 0, sizeof *f);
    f->bad_row = CDYN__LDLT_SIGNED_NONE;
}

void cdyn__ldlt_signed_destroy(cdyn__ldlt_signed *f, const cdyn_allocator *alloc)
{
    if (!f)
        return;
    size_t n = f->sym.n;
    cdyn__free_array(alloc, f->lx, f->sym.lnz, sizeof *f->lx);
    cdyn__free_array(alloc, f->dinv, n, sizeof *f->dinv);
    cdyn__free_array(alloc, f->y, n, sizeof *f->y);
    cdyn__free_array(alloc, f->w, n, sizeof *f->w);
    cdyn__symbolic_destroy(&f->sym, alloc);
    cdyn__ldlt_signed_init(f);
}

cdyn_status cdyn__ldlt_signed_analyze(cdyn__ldlt_signed *f, const cdyn__symmat *a,
                                      const cdyn_allocator *alloc, const uint32_t *order)
{
    if (!f || !a || !alloc || (!order && a->n))
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__ldlt_signed out;
    cdyn__ldlt_signed_init(&out);
    cdyn_status st = cdyn__symbolic_analyze(&out.sym, a, alloc, order);
    if (st != CDYN_OK)
        return st;
    size_t n = out.sym.n;
    out.lx = cdyn__alloc_array(alloc, out.sym.lnz, sizeof *out.lx);
    out.dinv = cdyn__alloc_array(alloc, n, sizeof *out.dinv);
    out.y = cdyn__calloc_array(alloc, n, sizeof *out.y);
    out.w = cdyn__alloc_array(alloc, n, sizeof *out.w);
    if ((out.sym.lnz && !out.lx) || (n && (!out.dinv || !out.y || !out.w))) {
        cdyn__ldlt_signed_destroy(&out, alloc);
        return CDYN_ERR_NO_MEMORY;
    }
    cdyn__ldlt_signed_destroy(f, alloc);
    *f = out;
    return CDYN_OK;
}

cdyn_status cdyn__ldlt_signed_factor(cdyn__ldlt_signed *f, const cdyn__symmat *a,
                                     const double *diag_add, const int8_t *sign,
                                     double eps_rel)
{
    if (!f || !a || !sign || a->n != f->sym.n || a->nnz != f->sym.annz ||
        (f->sym.n && !f->dinv))
        return CDYN_ERR_INVALID_ARGUMENT;
    const uint32_t n = f->sym.n;
    const uint32_t *restrict perm = f->sym.perm, *restrict adiag = f->sym.adiag;
    const uint32_t *restrict rp = f->sym.rp, *restrict rj = f->sym.rj;
    const uint32_t *restrict rsrc = f->sym.rsrc, *restrict rq = f->sym.rq;
    const uint32_t *restrict lp = f->sym.lp, *restrict li = f->sym.li;
    const double *restrict av = a->val;
    double *restrict lx = f->lx, *restrict dinv = f->dinv, *restrict y = f->y;
    f->factored = 0;
    f->nredundant = 0;
    f->bad_row = CDYN__LDLT_SIGNED_NONE;
    uint32_t nred = 0;
    for (uint32_t k = 0; k < n; k++) {
        const uint32_t row = perm[k];
        double akk = av[adiag[k]] + (diag_add ? diag_add[row] : 0.0);
        double dk = akk, sk = fabs(akk);
        for (uint32_t t = rp[k]; t < rp[k + 1]; t++) {
            uint32_t j = rj[t], s = rsrc[t];
            double u = y[j];
            y[j] = 0.0;
            if (s != CDYN__SYMBOLIC_NONE)
                u += av[s];
            /* Column j's entries between rows j and k are already final. */
            const uint32_t qk = rq[t];
            for (uint32_t q = lp[j]; q < qk; q++)
                y[li[q]] -= lx[q] * u;
            double l = u * dinv[j];
            double term = u * l;
            dk -= term;
            sk += fabs(term);
            lx[qk] = l;
        }
        /* y is all zero again: every entry touched belongs to row k. */
        if (!(fabs(dk) <= DBL_MAX) || !(sk <= DBL_MAX))
            return CDYN_ERR_INVALID_ARGUMENT;
        double tiny = eps_rel * sk;
        if (sign[row] > 0) {
            if (!(dk > tiny)) {
                f->bad_row = row;
                f->bad_pivot = dk;
                return CDYN_ERR_SINGULAR;
            }
            dinv[k] = 1.0 / dk;
        } else if (dk < -tiny) {
            dinv[k] = 1.0 / dk;
        } else if (dk <= tiny) {
            dinv[k] = 0.0; /* redundant row: dropped */
            nred++;
        } else {
            f->bad_row = row;
            f->bad_pivot = dk;
            return CDYN_ERR_SINGULAR;
        }
    }
    f->nredundant = nred;
    f->factored = 1;
    return CDYN_OK;
}

cdyn_status cdyn__ldlt_signed_solve(cdyn__ldlt_signed *f, double *x)
{
    if (!f || !f->factored || (f->sym.n && !x))
        return CDYN_ERR_INVALID_ARGUMENT;
    const uint32_t n = f->sym.n;
    const uint32_t *restrict perm = f->sym.perm, *restrict rp = f->sym.rp;
    const uint32_t *restrict rj = f->sym.rj, *restrict rq = f->sym.rq;
    const double *restrict lx = f->lx, *restrict dinv = f->dinv;
    double *restrict w = f->w;
    /* w = D^-1 L^-1 P b, by rows. */
    for (uint32_t k = 0; k < n; k++) {
        double zk = x[perm[k]];
        for (uint32_t t = rp[k]; t < rp[k + 1]; t++)
            zk -= lx[rq[t]] * w[rj[t]];
        w[k] = zk;
    }
    for (uint32_t k = 0; k < n; k++)
        w[k] *= dinv[k];
    /* x = P^T L^-T w, rows from the last, scattering each final value. */
    for (uint32_t k = n; k-- > 0;) {
        double xk = w[k];
        x[perm[k]] = xk;
        for (uint32_t t = rp[k]; t < rp[k + 1]; t++)
            w[rj[t]] -= lx[rq[t]] * xk;
    }
    return CDYN_OK;
}
