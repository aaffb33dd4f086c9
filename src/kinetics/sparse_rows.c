/* Sparse rows with column lists, for the moieties' elimination. */
#include "kinetics/sparse_rows.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"

static bool grow_sz(const cdyn_allocator *a, size_t **p, size_t *cap, size_t need)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? 2 * *cap : 4;
    while (c < need)
        c *= 2;
    size_t *q = cdyn__alloc_array(a, c, sizeof *q);
    if (!q)
        return false;
    if (*cap)
        memcpy(q, *p, *cap * sizeof *q);
    cdyn__free_array(a, *p, *cap, sizeof *q);
    *p = q;
    *cap = c;
    return true;
}

/* Grows row r's two arrays together to hold @p need entries. */
static bool grow_row(cdyn__kin_rows *m, size_t r, size_t need)
{
    if (need <= m->cap[r])
        return true;
    size_t c = m->cap[r] ? 2 * m->cap[r] : 4;
    while (c < need)
        c *= 2;
    size_t *i = cdyn__alloc_array(m->a, c, sizeof *i);
    double *v = cdyn__alloc_array(m->a, c, sizeof *v);
    if (!i || !v) {
        cdyn__free_array(m->a, i, c, sizeof *i);
        cdyn__free_array(m->a, v, c, sizeof *v);
        return false;
    }
    if (m->len[r]) {
        memcpy(i, m->idx[r], m->len[r] * sizeof *i);
        memcpy(v, m->val[r], m->len[r] * sizeof *v);
    }
    cdyn__free_array(m->a, m->idx[r], m->cap[r], sizeof *i);
    cdyn__free_array(m->a, m->val[r], m->cap[r], sizeof *v);
    m->idx[r] = i;
    m->val[r] = v;
    m->cap[r] = c;
    return true;
}

bool cdyn__kin_rows_init(cdyn__kin_rows *m, const cdyn_allocator *a, size_t nrows, size_t ncols)
{
    memset(m, 0, sizeof *m);
    m->a = a;
    m->nrows = nrows;
    m->ncols = ncols;
    size_t nr = nrows ? nrows : 1, nc = ncols ? ncols : 1;
    m->idx = cdyn__calloc_array(a, nr, sizeof *m->idx);
    m->val = cdyn__calloc_array(a, nr, sizeof *m->val);
    m->len = cdyn__calloc_array(a, nr, sizeof *m->len);
    m->cap = cdyn__calloc_array(a, nr, sizeof *m->cap);
    m->crow = cdyn__calloc_array(a, nc, sizeof *m->crow);
    m->clen = cdyn__calloc_array(a, nc, sizeof *m->clen);
    m->ccap = cdyn__calloc_array(a, nc, sizeof *m->ccap);
    if (m->idx && m->val && m->len && m->cap && m->crow && m->clen && m->ccap)
        return true;
    cdyn__kin_rows_free(m);
    return false;
}

void cdyn__kin_rows_free(cdyn__kin_rows *m)
{
    const cdyn_allocator *a = m->a;
    size_t nr = m->nrows ? m->nrows : 1, nc = m->ncols ? m->ncols : 1;
    for (size_t r = 0; m->idx && m->val && m->cap && r < m->nrows; r++) {
        cdyn__free_array(a, m->idx[r], m->cap[r], sizeof(size_t));
        cdyn__free_array(a, m->val[r], m->cap[r], sizeof(double));
    }
    for (size_t c = 0; m->crow && m->ccap && c < m->ncols; c++)
        cdyn__free_array(a, m->crow[c], m->ccap[c], sizeof(size_t));
    cdyn__free_array(a, m->idx, nr, sizeof *m->idx);
    cdyn__free_array(a, m->val, nr, sizeof *m->val);
    cdyn__free_array(a, m->len, nr, sizeof *m->len);
    cdyn__free_array(a, m->cap, nr, sizeof *m->cap);
    cdyn__free_array(a, m->crow, nc, sizeof *m->crow);
    cdyn__free_array(a, m->clen, nc, sizeof *m->clen);
    cdyn__free_array(a, m->ccap, nc, sizeof *m->ccap);
    cdyn__free_array(a, m->sidx, m->scap, sizeof *m->sidx);
    cdyn__free_array(a, m->sval, m->scap, sizeof *m->sval);
    memset(m, 0, sizeof *m);
}

static bool note_column(cdyn__kin_rows *m, size_t c, size_t r)
{
    if (!grow_sz(m->a, &m->crow[c], &m->ccap[c], m->clen[c] + 1))
        return false;
    m->crow[c][m->clen[c]++] = r;
    return true;
}

bool cdyn__kin_rows_append(cdyn__kin_rows *m, size_t r, size_t c, double v)
{
    if (!grow_row(m, r, m->len[r] + 1) || !note_column(m, c, r))
        return false;
    m->idx[r][m->len[r]] = c;
    m->val[r][m->len[r]++] = v;
    return true;
}

double cdyn__kin_rows_get(const cdyn__kin_rows *m, size_t r, size_t c)
{
    size_t lo = 0, hi = m->len[r];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->idx[r][mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->len[r] && m->idx[r][lo] == c ? m->val[r][lo] : 0.0;
}

bool cdyn__kin_rows_axpy(cdyn__kin_rows *m, size_t r, double alpha, size_t p, double drop,
                         size_t kill)
{
    size_t nr = m->len[r], np = m->len[p], need = nr + np;
    if (need > m->scap) {
        size_t c = need < 2 * m->scap ? 2 * m->scap : need;
        size_t *i = cdyn__alloc_array(m->a, c, sizeof *i);
        double *v = cdyn__alloc_array(m->a, c, sizeof *v);
        if (!i || !v) {
            cdyn__free_array(m->a, i, c, sizeof *i);
            cdyn__free_array(m->a, v, c, sizeof *v);
            return false;
        }
        cdyn__free_array(m->a, m->sidx, m->scap, sizeof *i);
        cdyn__free_array(m->a, m->sval, m->scap, sizeof *v);
        m->sidx = i;
        m->sval = v;
        m->scap = c;
    }
    const size_t *ri = m->idx[r], *pi = m->idx[p];
    const double *rv = m->val[r], *pv = m->val[p];
    size_t a = 0, b = 0, k = 0;
    while (a < nr || b < np) {
        size_t c;
        double x;
        bool fresh = false;
        if (b == np || (a < nr && ri[a] < pi[b])) {
            c = ri[a];
            x = rv[a++];
        } else if (a == nr || pi[b] < ri[a]) {
            c = pi[b];
            x = alpha * pv[b++];
            fresh = true;
        } else {
            c = ri[a];
            x = rv[a++] + alpha * pv[b++];
        }
        if (c == kill || !(fabs(x) > drop))
            continue;
        if (fresh && !note_column(m, c, r))
            return false;
        m->sidx[k] = c;
        m->sval[k++] = x;
    }
    if (k && !grow_row(m, r, k))
        return false;
    if (k) {
        memcpy(m->idx[r], m->sidx, k * sizeof(size_t));
        memcpy(m->val[r], m->sval, k * sizeof(double));
    }
    m->len[r] = k;
    return true;
}
