#include "solver/symmat.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"

void cdyn__symmat_init(cdyn__symmat *m)
{
    memset(m, 0, sizeof *m);
}

void cdyn__symmat_destroy(cdyn__symmat *m, const cdyn_allocator *alloc)
{
    if (!m)
        return;
    if (m->colptr) {
        cdyn__free_array(alloc, m->colptr, (size_t)m->n + 1, sizeof *m->colptr);
        cdyn__free_array(alloc, m->rowind, m->nnz, sizeof *m->rowind);
        cdyn__free_array(alloc, m->val, m->nnz, sizeof *m->val);
    }
    cdyn__symmat_init(m);
}

/* Counting sort twice (by row, then by column) so that each column comes out
 * with ascending rows and duplicates adjacent, in O(n + npairs) and without
 * comparisons. */
cdyn_status cdyn__symmat_build(cdyn__symmat *m, const cdyn_allocator *alloc,
                               uint32_t n, size_t npairs, const uint32_t *pairs)
{
    if (!m || !alloc || (npairs && !pairs))
        return CDYN_ERR_INVALID_ARGUMENT;
    if (n >= CDYN__SOLVER_MAX_INDEX)
        return CDYN_ERR_UNSUPPORTED;
    size_t noff = 0;
    for (size_t t = 0; t < npairs; t++) {
        uint32_t a = pairs[2 * t], b = pairs[2 * t + 1];
        if (a >= n || b >= n)
            return CDYN_ERR_INVALID_ARGUMENT;
        noff += a != b;
    }
    if (noff >= CDYN__SOLVER_MAX_INDEX - (size_t)n)
        return CDYN_ERR_UNSUPPORTED;

    cdyn_status st = CDYN_ERR_NO_MEMORY;
    size_t n1 = (size_t)n + 1;
    uint32_t *rstart = cdyn__calloc_array(alloc, n1 + 1, sizeof *rstart);
    uint32_t *cstart = cdyn__calloc_array(alloc, n1 + 1, sizeof *cstart);
    uint32_t *byrow = noff ? cdyn__alloc_array(alloc, noff, sizeof *byrow) : NULL;
    uint32_t *bycol = noff ? cdyn__alloc_array(alloc, noff, sizeof *bycol) : NULL;
    cdyn__symmat out;
    cdyn__symmat_init(&out);
    if (!rstart || !cstart || (noff && (!byrow || !bycol)))
        goto done;

    /* Bucket the lower index of each pair by its upper index (its row). */
    for (size_t t = 0; t < npairs; t++) {
        uint32_t a = pairs[2 * t], b = pairs[2 * t + 1];
        if (a != b)
            rstart[(a > b ? a : b) + 2]++;
    }
    for (size_t i = 2; i <= n1; i++)
        rstart[i] += rstart[i - 1];
    for (size_t t = 0; t < npairs; t++) {
        uint32_t a = pairs[2 * t], b = pairs[2 * t + 1];
        if (a != b)
            byrow[rstart[(a > b ? a : b) + 1]++] = a < b ? a : b;
    }
    /* Rows ascending now: bucket them by column, keeping that order. */
    for (size_t q = 0; q < noff; q++)
        cstart[byrow[q] + 2]++;
    for (size_t i = 2; i <= n1; i++)
        cstart[i] += cstart[i - 1];
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t q = rstart[i]; q < rstart[i + 1]; q++)
            bycol[cstart[byrow[q] + 1]++] = i;

    /* Count distinct rows per column, plus the diagonal. */
    out.n = n;
    out.colptr = cdyn__alloc_array(alloc, n1, sizeof *out.colptr);
    if (!out.colptr)
        goto done;
    uint32_t nnz = 0;
    for (uint32_t j = 0; j < n; j++) {
        out.colptr[j] = nnz;
        nnz++;
        for (uint32_t q = cstart[j]; q < cstart[j + 1]; q++)
            nnz += q == cstart[j] || bycol[q] != bycol[q - 1];
    }
    out.colptr[n] = nnz;
    out.nnz = nnz;
    if (nnz) {
        out.rowind = cdyn__alloc_array(alloc, nnz, sizeof *out.rowind);
        out.val = cdyn__calloc_array(alloc, nnz, sizeof *out.val);
        if (!out.rowind || !out.val)
            goto done;
    }
    for (uint32_t j = 0; j < n; j++) {
        uint32_t p = out.colptr[j];
        out.rowind[p++] = j;
        for (uint32_t q = cstart[j]; q < cstart[j + 1]; q++)
            if (q == cstart[j] || bycol[q] != bycol[q - 1])
                out.rowind[p++] = bycol[q];
    }
    cdyn__symmat_destroy(m, alloc);
    *m = out;
    cdyn__symmat_init(&out);
    st = CDYN_OK;
done:
    cdyn__symmat_destroy(&out, alloc);
    cdyn__free_array(alloc, bycol, noff, sizeof *bycol);
    cdyn__free_array(alloc, byrow, noff, sizeof *byrow);
    cdyn__free_array(alloc, cstart, n1 + 1, sizeof *cstart);
    cdyn__free_array(alloc, rstart, n1 + 1, sizeof *rstart);
    return st;
}

cdyn_status cdyn__symmat_build_groups(cdyn__symmat *m, const cdyn_allocator *alloc,
                                      uint32_t n, uint32_t ngroups,
                                      const uint32_t *group_ptr,
                                      const uint32_t *group_rows)
{
    if (!m || !alloc || (ngroups && (!group_ptr || !group_rows)))
        return CDYN_ERR_INVALID_ARGUMENT;
    size_t npairs = 0;
    for (uint32_t g = 0; g < ngroups; g++) {
        if (group_ptr[g + 1] < group_ptr[g])
            return CDYN_ERR_INVALID_ARGUMENT;
        size_t k = (size_t)(group_ptr[g + 1] - group_ptr[g]);
        size_t add = k * (k - (k > 0)) / 2;
        if (add >= CDYN__SOLVER_MAX_INDEX || npairs + add >= CDYN__SOLVER_MAX_INDEX)
            return CDYN_ERR_UNSUPPORTED;
        npairs += add;
    }
    uint32_t *pairs = npairs ? cdyn__alloc_array(alloc, 2 * npairs, sizeof *pairs) : NULL;
    if (npairs && !pairs)
        return CDYN_ERR_NO_MEMORY;
    size_t t = 0;
    for (uint32_t g = 0; g < ngroups; g++)
        for (uint32_t a = group_ptr[g]; a < group_ptr[g + 1]; a++)
            for (uint32_t b = group_ptr[g]; b < a; b++) {
                pairs[t++] = group_rows[a];
                pairs[t++] = group_rows[b];
            }
    /* A group of one still names a row: check its range here, since it
     * yields no pair for cdyn__symmat_build to check. */
    cdyn_status st = CDYN_OK;
    for (uint32_t g = 0; g < ngroups && st == CDYN_OK; g++)
        for (uint32_t a = group_ptr[g]; a < group_ptr[g + 1]; a++)
            if (group_rows[a] >= n)
                st = CDYN_ERR_INVALID_ARGUMENT;
    if (st == CDYN_OK)
        st = cdyn__symmat_build(m, alloc, n, npairs, pairs);
    cdyn__free_array(alloc, pairs, 2 * npairs, sizeof *pairs);
    return st;
}

cdyn_status cdyn__symmat_find(const cdyn__symmat *m, uint32_t i, uint32_t j,
                              uint32_t *pos)
{
    if (!m || !pos || i >= m->n || j >= m->n)
        return CDYN_ERR_INVALID_ARGUMENT;
    uint32_t col = i < j ? i : j, row = i < j ? j : i;
    uint32_t lo = m->colptr[col], hi = m->colptr[col + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->rowind[mid] < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == m->colptr[col + 1] || m->rowind[lo] != row)
        return CDYN_ERR_INVALID_ARGUMENT;
    *pos = lo;
    return CDYN_OK;
}

void cdyn__symmat_zero(cdyn__symmat *m)
{
    if (m->nnz)
        memset(m->val, 0, (size_t)m->nnz * sizeof *m->val);
}

void cdyn__symmat_mul(const cdyn__symmat *m, const double *diag_add,
                      const double *x, double *y)
{
    const uint32_t n = m->n, *cp = m->colptr, *ri = m->rowind;
    const double *v = m->val;
    for (uint32_t j = 0; j < n; j++)
        y[j] = diag_add ? diag_add[j] * x[j] : 0.0;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t p = cp[j], end = cp[j + 1];
        double xj = x[j], acc = y[j] + v[p] * xj;
        for (p++; p < end; p++) {
            uint32_t i = ri[p];
            y[i] += v[p] * xj;
            acc += v[p] * x[i];
        }
        y[j] = acc;
    }
}

void cdyn__symmat_residual(const cdyn__symmat *m, const double *diag_add,
                           const double *x, const double *b, double *r,
                           double *rel, uint32_t *worst)
{
    const uint32_t n = m->n, *cp = m->colptr, *ri = m->rowind;
    const double *v = m->val;
    double dmax = 0.0, xmax = 0.0, bmax = 0.0, rmax = 0.0;
    uint32_t wrow = 0;
    for (uint32_t j = 0; j < n; j++)
        r[j] = b[j];
    for (uint32_t j = 0; j < n; j++) {
        uint32_t p = cp[j], end = cp[j + 1];
        double xj = x[j], djj = v[p] + (diag_add ? diag_add[j] : 0.0);
        double acc = r[j] - djj * xj;
        for (p++; p < end; p++) {
            uint32_t i = ri[p];
            r[i] -= v[p] * xj;
            acc -= v[p] * x[i];
        }
        r[j] = acc;
        /* Non-finite values must reach *rel, so no fmax (it drops NaN). */
        double ad = fabs(djj), ax = fabs(xj), ab = fabs(b[j]);
        dmax = ad > dmax || ad != ad ? ad : dmax;
        xmax = ax > xmax || ax != ax ? ax : xmax;
        bmax = ab > bmax || ab != ab ? ab : bmax;
    }
    for (uint32_t j = 0; j < n; j++) {
        double ar = fabs(r[j]);
        if (ar > rmax || (ar != ar && rmax == rmax)) {
            rmax = ar;
            wrow = j;
        }
    }
    double den = dmax * xmax + bmax;
    if (rel)
        *rel = rmax == 0.0 ? 0.0 : rmax / den;
    if (worst)
        *worst = wrow;
}
