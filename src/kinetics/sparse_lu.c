/* Sparse LU: left-looking factorization with threshold partial pivoting,
 * refactorization on fixed pivots, triangular solves. */
#include "kinetics/sparse_lu.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"

#define NONE SIZE_MAX

void cdyn__kin_lu_free(const cdyn_allocator *a, cdyn__kin_lu *lu)
{
    size_t n = lu->n;
    cdyn__free_array(a, lu->q, n, sizeof(size_t));
    cdyn__free_array(a, lu->pinv, n, sizeof(size_t));
    cdyn__free_array(a, lu->prow, n, sizeof(size_t));
    cdyn__free_array(a, lu->lp, n + 1, sizeof(size_t));
    cdyn__free_array(a, lu->up, n + 1, sizeof(size_t));
    cdyn__free_array(a, lu->li, lu->lcap, sizeof(size_t));
    cdyn__free_array(a, lu->lx, lu->lcap, sizeof(double));
    cdyn__free_array(a, lu->ui, lu->ucap, sizeof(size_t));
    cdyn__free_array(a, lu->ux, lu->ucap, sizeof(double));
    cdyn__free_array(a, lu->ud, n, sizeof(double));
    cdyn__free_array(a, lu->x, n, sizeof(double));
    cdyn__free_array(a, lu->stack, 2 * n, sizeof(size_t));
    cdyn__free_array(a, lu->pstack, n, sizeof(size_t));
    cdyn__free_array(a, lu->mark, n, sizeof(size_t));
    memset(lu, 0, sizeof *lu);
}

/* Grows L's (or U's) index and value arrays to hold @p need entries. */
static bool grow(const cdyn_allocator *a, size_t **idx, double **val, size_t *cap, size_t need)
{
    if (need <= *cap)
        return true;
    size_t c = *cap + *cap / 2 + 16;
    if (c < need)
        c = need;
    size_t *ni = cdyn__alloc_array(a, c, sizeof *ni);
    double *nv = cdyn__alloc_array(a, c, sizeof *nv);
    if (!ni || !nv) {
        cdyn__free_array(a, ni, c, sizeof *ni);
        cdyn__free_array(a, nv, c, sizeof *nv);
        return false;
    }
    if (*cap) {
        memcpy(ni, *idx, *cap * sizeof *ni);
        memcpy(nv, *val, *cap * sizeof *nv);
    }
    cdyn__free_array(a, *idx, *cap, sizeof **idx);
    cdyn__free_array(a, *val, *cap, sizeof **val);
    *idx = ni;
    *val = nv;
    *cap = c;
    return true;
}

/* The rows reachable from column @p c of A in the graph of the columns of
 * L computed so far (row i pivotal at j leads to the rows of L(:, j),
 * stored in original row numbers during a factorization), in topological
 * order in stack[top .. n). */
static size_t reach(cdyn__kin_lu *lu, const size_t *col, const size_t *row, size_t c)
{
    size_t n = lu->n, top = n, *xs = lu->stack + n, *ps = lu->pstack;
    lu->stamp++;
    for (size_t p = col[c]; p < col[c + 1]; p++) {
        size_t start = row[p];
        if (lu->mark[start] == lu->stamp)
            continue;
        /* iterative depth-first search from start */
        size_t head = 0;
        xs[0] = start;
        while (1) {
            size_t i = xs[head];
            size_t j = lu->pinv[i];
            if (lu->mark[i] != lu->stamp) {
                lu->mark[i] = lu->stamp;
                ps[head] = j == NONE ? 0 : lu->lp[j];
            }
            size_t end = j == NONE ? 0 : lu->lp[j + 1];
            bool done = true;
            for (size_t q = ps[head]; q < end; q++) {
                size_t r = lu->li[q];
                if (lu->mark[r] == lu->stamp)
                    continue;
                ps[head] = q + 1;
                xs[++head] = r;
                done = false;
                break;
            }
            if (done) {
                lu->stack[--top] = i;
                if (head == 0)
                    break;
                head--;
            }
        }
    }
    return top;
}

cdyn_status cdyn__kin_lu_factor(const cdyn_allocator *a, cdyn__kin_lu *lu, const size_t *col,
                                const size_t *row, const double *val)
{
    size_t n = lu->n, lnz = 0, unz = 0;
    double *x = lu->x;
    lu->factored = false;
    for (size_t i = 0; i < n; i++)
        lu->pinv[i] = NONE;
    for (size_t k = 0; k < n; k++) {
        size_t c = lu->q[k];
        lu->lp[k] = lnz;
        lu->up[k] = unz;
        size_t top = reach(lu, col, row, c);
        if (!grow(a, &lu->li, &lu->lx, &lu->lcap, lnz + (n - top)) ||
            !grow(a, &lu->ui, &lu->ux, &lu->ucap, unz + (n - top)))
            goto fail_mem;
        for (size_t p = col[c]; p < col[c + 1]; p++)
            x[row[p]] = val[p];
        for (size_t t = top; t < n; t++) { /* the triangular solve */
            size_t i = lu->stack[t], j = lu->pinv[i];
            if (j == NONE)
                continue;
            double u = x[i];
            lu->ui[unz] = j;
            lu->ux[unz++] = u;
            x[i] = 0.0;
            for (size_t q = lu->lp[j]; q < lu->lp[j + 1]; q++)
                x[lu->li[q]] -= lu->lx[q] * u;
        }
        size_t best = NONE; /* then the largest candidate, all updates done */
        double amax = -1.0;
        for (size_t t = top; t < n; t++) {
            size_t i = lu->stack[t];
            if (lu->pinv[i] == NONE && fabs(x[i]) > amax) {
                amax = fabs(x[i]);
                best = i;
            }
        }
        /* The diagonal when it is large enough: keeps the predicted fill. */
        if (lu->pinv[c] == NONE && lu->mark[c] == lu->stamp && fabs(x[c]) >= lu->tol * amax)
            best = c;
        if (best == NONE || !(amax > 0) || !isfinite(amax) || !isfinite(x[best])) {
            for (size_t t = top; t < n; t++)
                x[lu->stack[t]] = 0.0;
            return CDYN_ERR_SINGULAR;
        }
        double d = x[best];
        lu->ud[k] = d;
        lu->pinv[best] = k;
        lu->prow[k] = best;
        x[best] = 0.0;
        for (size_t t = top; t < n; t++) {
            size_t i = lu->stack[t];
            if (lu->pinv[i] == NONE) {
                lu->li[lnz] = i;
                lu->lx[lnz++] = x[i] / d;
                x[i] = 0.0;
            }
        }
    }
    lu->lp[n] = lnz;
    lu->up[n] = unz;
    /* L's rows in pivot numbering; U's columns in ascending pivot order,
     * which is a topological order for the refactorization. */
    for (size_t p = 0; p < lnz; p++)
        lu->li[p] = lu->pinv[lu->li[p]];
    for (size_t k = 0; k < n; k++)
        for (size_t p = lu->up[k] + 1; p < lu->up[k + 1]; p++) {
            size_t i = lu->ui[p];
            double v = lu->ux[p];
            size_t q = p;
            while (q > lu->up[k] && lu->ui[q - 1] > i) {
                lu->ui[q] = lu->ui[q - 1];
                lu->ux[q] = lu->ux[q - 1];
                q--;
            }
            lu->ui[q] = i;
            lu->ux[q] = v;
        }
    lu->factored = true;
    return CDYN_OK;
fail_mem:
    return CDYN_ERR_NO_MEMORY;
}

bool cdyn__kin_lu_refactor(cdyn__kin_lu *lu, const size_t *col, const size_t *row,
                           const double *val)
{
    if (!lu->factored)
        return false;
    size_t n = lu->n;
    double *x = lu->x;
    for (size_t k = 0; k < n; k++) {
        size_t c = lu->q[k];
        for (size_t p = col[c]; p < col[c + 1]; p++)
            x[lu->pinv[row[p]]] = val[p];
        for (size_t p = lu->up[k]; p < lu->up[k + 1]; p++) {
            size_t j = lu->ui[p];
            double u = x[j];
            lu->ux[p] = u;
            x[j] = 0.0;
            for (size_t q = lu->lp[j]; q < lu->lp[j + 1]; q++)
                x[lu->li[q]] -= lu->lx[q] * u;
        }
        double d = x[k], amax = fabs(d);
        x[k] = 0.0;
        for (size_t p = lu->lp[k]; p < lu->lp[k + 1]; p++) {
            double v = fabs(x[lu->li[p]]);
            if (v > amax)
                amax = v;
        }
        bool ok = fabs(d) > 0 && isfinite(amax) && fabs(d) >= lu->tol * amax;
        for (size_t p = lu->lp[k]; p < lu->lp[k + 1]; p++) {
            size_t i = lu->li[p];
            lu->lx[p] = x[i] / d;
            x[i] = 0.0;
        }
        if (!ok) { /* x is all zero again: L(:, k) and U(:, k) were cleared */
            lu->factored = false;
            return false;
        }
        lu->ud[k] = d;
    }
    return true;
}

void cdyn__kin_lu_solve(const cdyn__kin_lu *lu, double *b, double *work)
{
    size_t n = lu->n;
    for (size_t k = 0; k < n; k++)
        work[k] = b[lu->prow[k]];
    for (size_t k = 0; k < n; k++) {
        double y = work[k];
        if (y != 0.0)
            for (size_t p = lu->lp[k]; p < lu->lp[k + 1]; p++)
                work[lu->li[p]] -= lu->lx[p] * y;
    }
    for (size_t k = n; k-- > 0;) {
        double y = work[k] / lu->ud[k];
        work[k] = y;
        if (y != 0.0)
            for (size_t p = lu->up[k]; p < lu->up[k + 1]; p++)
                work[lu->ui[p]] -= lu->ux[p] * y;
    }
    for (size_t k = 0; k < n; k++)
        b[lu->q[k]] = work[k];
}

size_t cdyn__kin_lu_nonzeros(const cdyn__kin_lu *lu)
{
    return lu->factored ? lu->lp[lu->n] + lu->up[lu->n] + lu->n : 0;
}

cdyn_status cdyn__kin_lu_init(const cdyn_allocator *a, cdyn__kin_lu *lu, size_t n,
                              const size_t *q, double tol, const size_t *col,
                              const size_t *row)
{
    memset(lu, 0, sizeof *lu);
    lu->n = n;
    lu->tol = tol;
    lu->q = cdyn__alloc_array(a, n, sizeof(size_t));
    lu->pinv = cdyn__alloc_array(a, n, sizeof(size_t));
    lu->prow = cdyn__alloc_array(a, n, sizeof(size_t));
    lu->lp = cdyn__alloc_array(a, n + 1, sizeof(size_t));
    lu->up = cdyn__alloc_array(a, n + 1, sizeof(size_t));
    lu->ud = cdyn__alloc_array(a, n, sizeof(double));
    lu->x = cdyn__calloc_array(a, n, sizeof(double));
    lu->stack = cdyn__alloc_array(a, 2 * n, sizeof(size_t));
    lu->pstack = cdyn__alloc_array(a, n, sizeof(size_t));
    lu->mark = cdyn__calloc_array(a, n, sizeof(size_t));
    /* the diagonal-pivot fill of a diagonally dominant matrix on the
     * pattern sizes L and U */
    size_t nnz = col[n];
    double *dom = cdyn__alloc_array(a, nnz, sizeof(double));
    cdyn_status st = CDYN_ERR_NO_MEMORY;
    if (lu->q && lu->pinv && lu->prow && lu->lp && lu->up && lu->ud && lu->x && lu->stack &&
        lu->pstack && lu->mark && dom) {
        memcpy(lu->q, q, n * sizeof(size_t));
        for (size_t k = 0; k < n; k++)
            for (size_t p = col[k]; p < col[k + 1]; p++)
                dom[p] = row[p] == k ? 2.0 * (double)n + 2.0 : -1.0;
        st = cdyn__kin_lu_factor(a, lu, col, row, dom);
        lu->factored = false;
    }
    cdyn__free_array(a, dom, nnz, sizeof(double));
    if (st != CDYN_OK) {
        cdyn__kin_lu_free(a, lu);
        return CDYN_ERR_NO_MEMORY;
    }
    return CDYN_OK;
}
