/* The rate Jacobian: pattern, assembly map and values. */
#include "kinetics/jacobian.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kinetics/rates.h"

void cdyn__kin_jac_free(const cdyn_allocator *a, cdyn__kin_jac *jac)
{
    cdyn__free_array(a, jac->col, jac->n + 1, sizeof(size_t));
    cdyn__free_array(a, jac->row, jac->nnz, sizeof(size_t));
    cdyn__free_array(a, jac->diag, jac->n, sizeof(size_t));
    cdyn__free_array(a, jac->val, jac->nnz, sizeof(double));
    cdyn__free_array(a, jac->map, jac->map_len + 1, sizeof(size_t));
    cdyn__free_array(a, jac->dv, jac->n + 1, sizeof(double));
    cdyn__free_array(a, jac->pre, jac->n + 1, sizeof(double));
    memset(jac, 0, sizeof *jac);
}

/* Position of row @p i in column @p k (present by construction). */
static size_t find(const cdyn__kin_jac *jac, size_t i, size_t k)
{
    size_t lo = jac->col[k], hi = jac->col[k + 1];
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (jac->row[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

cdyn_status cdyn__kin_jac_build(const cdyn_kinetics *kin, cdyn__kin_jac *jac)
{
    const cdyn_allocator *a = &kin->alloc;
    const cdyn__kin_reactions *rx = &kin->rx;
    size_t n = kin->sp.n;
    memset(jac, 0, sizeof *jac);
    jac->n = n;

    /* Raw entries (duplicates included): one per (reaction, dependency,
     * net species), and the diagonal. */
    size_t map_len = 0;
    for (size_t j = 0; j < rx->n; j++) {
        size_t nd = rx->d_start[j + 1] - rx->d_start[j];
        size_t ns = rx->s_start[j + 1] - rx->s_start[j];
        if (ns && nd > (SIZE_MAX - map_len) / ns)
            return CDYN_ERR_NO_MEMORY;
        map_len += nd * ns;
    }
    if (map_len > SIZE_MAX - n)
        return CDYN_ERR_NO_MEMORY;
    size_t total = map_len + n;
    size_t *seg = cdyn__calloc_array(a, n + 1, sizeof *seg);  /* raw column starts */
    size_t *fill = cdyn__alloc_array(a, n, sizeof *fill);      /* fill pointers, then lengths */
    size_t *rows = cdyn__alloc_array(a, total, sizeof *rows);
    jac->col = cdyn__calloc_array(a, n + 1, sizeof(size_t));
    jac->diag = cdyn__alloc_array(a, n, sizeof(size_t));
    jac->map = cdyn__alloc_array(a, map_len + 1, sizeof(size_t));
    jac->map_len = map_len;
    jac->dv = cdyn__alloc_array(a, n + 1, sizeof(double));
    jac->pre = cdyn__alloc_array(a, n + 1, sizeof(double));
    if (!seg || !fill || !rows || !jac->col || !jac->diag || !jac->map || !jac->dv || !jac->pre)
        goto oom;
    for (size_t k = 0; k < n; k++)
        seg[k + 1] = 1;
    for (size_t j = 0; j < rx->n; j++)
        for (size_t d = rx->d_start[j]; d < rx->d_start[j + 1]; d++)
            seg[rx->d_species[d] + 1] += rx->s_start[j + 1] - rx->s_start[j];
    for (size_t k = 0; k < n; k++)
        seg[k + 1] += seg[k];
    for (size_t k = 0; k < n; k++) {
        rows[seg[k]] = k;
        fill[k] = seg[k] + 1;
    }
    for (size_t j = 0; j < rx->n; j++)
        for (size_t d = rx->d_start[j]; d < rx->d_start[j + 1]; d++)
            for (size_t e = rx->s_start[j]; e < rx->s_start[j + 1]; e++)
                rows[fill[rx->d_species[d]]++] = rx->s_species[e];
    /* Each column: drop repeated rows (marked in fill[], reused: fill[i]
     * holds the last column that saw row i) and sort. */
    for (size_t k = 0; k < n; k++)
        fill[k] = SIZE_MAX;
    size_t nnz = 0;
    for (size_t k = 0; k < n; k++) {
        size_t b = seg[k], m = b;
        for (size_t p = b; p < seg[k + 1]; p++)
            if (fill[rows[p]] != k) {
                fill[rows[p]] = k;
                rows[m++] = rows[p];
            }
        for (size_t p = b + 1; p < m; p++) { /* columns are short: insertion sort */
            size_t x = rows[p], q = p;
            while (q > b && rows[q - 1] > x) {
                rows[q] = rows[q - 1];
                q--;
            }
            rows[q] = x;
        }
        nnz += m - b;
        jac->col[k + 1] = nnz;
    }
    jac->nnz = nnz; /* before the allocations: the sizes jac_free passes */
    jac->row = cdyn__alloc_array(a, nnz, sizeof(size_t));
    jac->val = cdyn__alloc_array(a, nnz, sizeof(double));
    if (!jac->row || !jac->val)
        goto oom;
    for (size_t k = 0; k < n; k++)
        memcpy(jac->row + jac->col[k], rows + seg[k],
               (jac->col[k + 1] - jac->col[k]) * sizeof(size_t));
    cdyn__free_array(a, seg, n + 1, sizeof *seg);
    cdyn__free_array(a, fill, n, sizeof *fill);
    cdyn__free_array(a, rows, total, sizeof *rows);
    for (size_t k = 0; k < n; k++)
        jac->diag[k] = find(jac, k, k);
    size_t m = 0;
    for (size_t j = 0; j < rx->n; j++)
        for (size_t d = rx->d_start[j]; d < rx->d_start[j + 1]; d++)
            for (size_t e = rx->s_start[j]; e < rx->s_start[j + 1]; e++)
                jac->map[m++] = find(jac, rx->s_species[e], rx->d_species[d]);
    return CDYN_OK;
oom:
    cdyn__free_array(a, seg, n + 1, sizeof *seg);
    cdyn__free_array(a, fill, n, sizeof *fill);
    cdyn__free_array(a, rows, total, sizeof *rows);
    cdyn__kin_jac_free(a, jac);
    return CDYN_ERR_NO_MEMORY;
}

/* Derivatives of the mass-action rate of reaction @p j with respect to its
 * reactants (its dependencies) into dv: d v / d c_i = k a_i c_i^(a_i - 1)
 * times the other factors, formed from prefix and suffix products so that
 * a zero concentration needs no division. */
static void mass_action_derivatives(const cdyn__kin_reactions *rx, size_t j, const double *c,
                                    double *dv, double *pre)
{
    size_t b = rx->r_start[j], m = rx->r_start[j + 1] - b;
    const size_t *sp = rx->r_species + b;
    const int *co = rx->r_coeff + b;
    pre[0] = rx->k[j];
    for (size_t i = 0; i < m; i++)
        pre[i + 1] = pre[i] * (co[i] == 1 ? c[sp[i]] : cdyn__kin_ipow(c[sp[i]], co[i]));
    double suf = 1.0;
    for (size_t i = m; i-- > 0;) {
        double x = c[sp[i]];
        double d = co[i] == 1 ? 1.0 : (double)co[i] * cdyn__kin_ipow(x, co[i] - 1);
        dv[i] = pre[i] * d * suf;
        suf *= co[i] == 1 ? x : cdyn__kin_ipow(x, co[i]);
    }
}

/* Forward differences of the rate law of reaction @p j with respect to its
 * dependencies. */
static cdyn_status law_differences(cdyn_kinetics *kin, const char *fn, size_t j, double t,
                                   const double *c, const double *scale, double *cwork,
                                   double *dv)
{
    const cdyn__kin_reactions *rx = &kin->rx;
    double base;
    cdyn_status st = cdyn__kin_call_law(kin, fn, j, t, c, &base);
    if (st)
        return st;
    const double root_eps = 1.4901161193847656e-08; /* sqrt(DBL_EPSILON) */
    for (size_t d = rx->d_start[j], i = 0; d < rx->d_start[j + 1]; d++, i++) {
        size_t s = rx->d_species[d];
        double x = c[s], h = root_eps * (fabs(x) > scale[s] ? fabs(x) : scale[s]);
        volatile double xh = x + h; /* the increment actually taken */
        double rate;
        cwork[s] = xh;
        st = cdyn__kin_call_law(kin, fn, j, t, cwork, &rate);
        cwork[s] = x;
        if (st)
            return st;
        dv[i] = (rate - base) / (xh - x);
    }
    return CDYN_OK;
}

cdyn_status cdyn__kin_jac_eval(cdyn_kinetics *kin, const char *fn, cdyn__kin_jac *jac, double t,
                               const double *c, const double *scale, double *cwork)
{
    const cdyn__kin_reactions *rx = &kin->rx;
    memset(jac->val, 0, jac->nnz * sizeof(double));
    if (rx->n_laws)
        memcpy(cwork, c, jac->n * sizeof(double));
    size_t m = 0;
    for (size_t j = 0; j < rx->n; j++) {
        double *dv = jac->dv;
        if (!rx->law[j]) {
            mass_action_derivatives(rx, j, c, dv, jac->pre);
        } else if (rx->law_jac[j]) {
            int rc = rx->law_jac[j](kin, t, c, jac->n, dv, rx->law_user[j]);
            if (rc != 0)
                return cdyn__kin_fail(kin, CDYN_ERR_CALLBACK, fn,
                                      "the rate-law Jacobian of reaction %zu returned %d at "
                                      "t = %g",
                                      j, rc, t);
        } else {
            cdyn_status st = law_differences(kin, fn, j, t, c, scale, cwork, dv);
            if (st)
                return st;
        }
        size_t s0 = rx->s_start[j], s1 = rx->s_start[j + 1];
        for (size_t d = rx->d_start[j], i = 0; d < rx->d_start[j + 1]; d++, i++)
            for (size_t e = s0; e < s1; e++)
                jac->val[jac->map[m++]] += (double)rx->s_coeff[e] * dv[i];
    }
    return CDYN_OK;
}
