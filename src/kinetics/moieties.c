/* Conserved moieties: a basis of the left null space of the stoichiometric
 * matrix S (vectors l with l^T S = 0), in reduced row echelon form.
 *
 * Gaussian elimination on the rows of S (one per species), each carrying
 * the combination of species it stands for: a reaction's column is
 * eliminated with the row that holds it with the largest value (among
 * those within a factor 10 of it, the shortest), so that the rows left
 * without a pivot have an all-zero S part and their combinations span the
 * left null space. Their Gauss-Jordan reduction over the species columns
 * makes the basis unique. Sparse throughout: a chain or a tree of
 * reactions costs about its size. Entries below 1e-10 (S part; the
 * coefficients are integers) or 1e-12 (combinations) are round-off and
 * dropped. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kinetics/kinetics.h"
#include "kinetics/sparse_rows.h"

#define DROP_S 1e-10
#define DROP_L 1e-12

void cdyn__kin_moieties_free(cdyn_kinetics *kin)
{
    cdyn__kin_moieties *mo = &kin->moi;
    const cdyn_allocator *a = &kin->alloc;
    cdyn__free_array(a, mo->start, mo->m + 1, sizeof(size_t));
    cdyn__free_array(a, mo->species, mo->nnz ? mo->nnz : 1, sizeof(size_t));
    cdyn__free_array(a, mo->coeff, mo->nnz ? mo->nnz : 1, sizeof(double));
    memset(mo, 0, sizeof *mo);
}

/* Rows of @p cols in column c that are still candidates: listed, not
 * excluded (nonzero), holding a value above @p drop. Writes them to @p out (deduped
 * with @p stamp); returns the count. */
static size_t candidates(const cdyn__kin_rows *cols, size_t c, const unsigned char *excluded,
                         size_t *stamp, size_t now, double drop, size_t *out)
{
    size_t k = 0;
    for (size_t t = 0; t < cols->clen[c]; t++) {
        size_t r = cols->crow[c][t];
        if (excluded[r] || stamp[r] == now)
            continue;
        stamp[r] = now;
        if (fabs(cdyn__kin_rows_get(cols, r, c)) > drop)
            out[k++] = r;
    }
    return k;
}

/* Computes the basis into kin->moi. CDYN_OK or CDYN_ERR_NO_MEMORY. */
static cdyn_status compute(cdyn_kinetics *kin)
{
    const cdyn_allocator *a = &kin->alloc;
    const cdyn__kin_reactions *rx = &kin->rx;
    size_t ns = kin->sp.n, nr = rx->n;
    cdyn__kin_rows S, L;
    bool okS = cdyn__kin_rows_init(&S, a, ns, nr);
    bool okL = cdyn__kin_rows_init(&L, a, ns, ns);
    size_t *cand = cdyn__alloc_array(a, ns ? ns : 1, sizeof *cand);
    size_t *stamp = cdyn__calloc_array(a, ns ? ns : 1, sizeof *stamp);
    /* 1: a pivot of the reaction columns; 2: a reduced moiety row */
    unsigned char *used = cdyn__calloc_array(a, ns ? ns : 1, 1);
    size_t *order = cdyn__alloc_array(a, ns ? ns : 1, sizeof *order);
    cdyn__kin_moieties res = {0};
    bool ok = okS && okL && cand && stamp && used && order;
    size_t now = 0;

    for (size_t j = 0; ok && j < nr; j++)
        for (size_t e = rx->s_start[j]; ok && e < rx->s_start[j + 1]; e++)
            ok = cdyn__kin_rows_append(&S, rx->s_species[e], j, (double)rx->s_coeff[e]);
    for (size_t i = 0; ok && i < ns; i++)
        ok = cdyn__kin_rows_append(&L, i, i, 1.0);

    /* Eliminate every reaction column. */
    for (size_t j = 0; ok && j < nr; j++) {
        size_t k = candidates(&S, j, used, stamp, ++now, DROP_S, cand);
        if (k == 0)
            continue;
        double big = 0.0;
        for (size_t t = 0; t < k; t++) {
            double v = fabs(cdyn__kin_rows_get(&S, cand[t], j));
            big = v > big ? v : big;
        }
        size_t p = SIZE_MAX;
        for (size_t t = 0; t < k; t++) {
            size_t r = cand[t];
            if (fabs(cdyn__kin_rows_get(&S, r, j)) < 0.1 * big)
                continue;
            if (p == SIZE_MAX || S.len[r] + L.len[r] < S.len[p] + L.len[p] ||
                (S.len[r] + L.len[r] == S.len[p] + L.len[p] && r < p))
                p = r;
        }
        double vp = cdyn__kin_rows_get(&S, p, j);
        used[p] = 1;
        for (size_t t = 0; ok && t < k; t++) {
            size_t r = cand[t];
            if (r == p)
                continue;
            double alpha = -cdyn__kin_rows_get(&S, r, j) / vp;
            ok = cdyn__kin_rows_axpy(&S, r, alpha, p, DROP_S, j) &&
                 cdyn__kin_rows_axpy(&L, r, alpha, p, DROP_L, SIZE_MAX);
        }
    }

    /* Gauss-Jordan on the combinations of the rows left (used 0): pivots by
     * species column, each normalized to 1 and cleared from every other
     * row left, reduced already (used 2) or not. */
    size_t m = 0;
    for (size_t c = 0; ok && c < ns; c++) {
        size_t k = candidates(&L, c, used, stamp, ++now, DROP_L, cand);
        if (k == 0)
            continue;
        size_t p = cand[0];
        double vp = cdyn__kin_rows_get(&L, p, c);
        for (size_t t = 1; t < k; t++) {
            double v = cdyn__kin_rows_get(&L, cand[t], c);
            if (fabs(v) > fabs(vp) || (fabs(v) == fabs(vp) && cand[t] < p)) {
                p = cand[t];
                vp = v;
            }
        }
        for (size_t t = 0; t < L.len[p]; t++)
            L.val[p][t] = L.idx[p][t] == c ? 1.0 : L.val[p][t] / vp;
        used[p] = 2;
        order[m++] = p;
        for (size_t t = 0; ok && t < L.clen[c]; t++) {
            size_t r = L.crow[c][t];
            if (r == p || used[r] == 1)
                continue;
            double v = cdyn__kin_rows_get(&L, r, c);
            if (v != 0.0)
                ok = cdyn__kin_rows_axpy(&L, r, -v, p, DROP_L, c);
        }
    }

    /* Keep the reduced rows, in the order of their pivot columns. */
    if (ok) {
        size_t nnz = 0;
        for (size_t t = 0; t < m; t++)
            nnz += L.len[order[t]];
        res.m = m;
        res.nnz = nnz;
        res.start = cdyn__alloc_array(a, m + 1, sizeof(size_t));
        res.species = cdyn__alloc_array(a, nnz ? nnz : 1, sizeof(size_t));
        res.coeff = cdyn__alloc_array(a, nnz ? nnz : 1, sizeof(double));
        ok = res.start && res.species && res.coeff;
        if (ok) {
            size_t e = 0;
            res.start[0] = 0;
            for (size_t t = 0; t < m; t++) {
                size_t r = order[t];
                memcpy(res.species + e, L.idx[r], L.len[r] * sizeof(size_t));
                memcpy(res.coeff + e, L.val[r], L.len[r] * sizeof(double));
                e += L.len[r];
                res.start[t + 1] = e;
            }
        } else {
            cdyn__free_array(a, res.start, m + 1, sizeof(size_t));
            cdyn__free_array(a, res.species, nnz ? nnz : 1, sizeof(size_t));
            cdyn__free_array(a, res.coeff, nnz ? nnz : 1, sizeof(double));
        }
    }
    if (okS)
        cdyn__kin_rows_free(&S);
    if (okL)
        cdyn__kin_rows_free(&L);
    cdyn__free_array(a, cand, ns ? ns : 1, sizeof *cand);
    cdyn__free_array(a, stamp, ns ? ns : 1, sizeof *stamp);
    cdyn__free_array(a, used, ns ? ns : 1, 1);
    cdyn__free_array(a, order, ns ? ns : 1, sizeof *order);
    if (!ok)
        return CDYN_ERR_NO_MEMORY;
    cdyn__kin_moieties_free(kin);
    kin->moi = res;
    kin->moi.valid = true;
    kin->moi.serial = kin->serial;
    return CDYN_OK;
}

/* The basis for the current network, computed if needed. */
static cdyn_status ensure(cdyn_kinetics *kin, const char *fn)
{
    cdyn_status st = cdyn__kin_enter(kin, fn);
    if (st)
        return st;
    if (kin->moi.valid && kin->moi.serial == kin->serial)
        return CDYN_OK;
    if (compute(kin))
        return cdyn__kin_fail(kin, CDYN_ERR_NO_MEMORY, fn,
                              "out of memory for the moieties of %zu species", kin->sp.n);
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_get_moiety_count(cdyn_kinetics *kin, size_t *count)
{
    static const char fn[] = "cdyn_kinetics_get_moiety_count";
    if (kin && !count)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn, "count is NULL");
    cdyn_status st = ensure(kin, fn);
    if (st)
        return st;
    *count = kin->moi.m;
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_get_moieties(cdyn_kinetics *kin, double *out, size_t capacity)
{
    static const char fn[] = "cdyn_kinetics_get_moieties";
    cdyn_status st = ensure(kin, fn);
    if (st)
        return st;
    const cdyn__kin_moieties *mo = &kin->moi;
    size_t ns = kin->sp.n;
    if (mo->m && ns > SIZE_MAX / mo->m)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "%zu moieties x %zu species overflows", mo->m, ns);
    if ((st = cdyn__kin_check_out(kin, fn, out, capacity, mo->m * ns)))
        return st;
    if (mo->m && ns)
        memset(out, 0, mo->m * ns * sizeof(double));
    for (size_t r = 0; r < mo->m; r++)
        for (size_t e = mo->start[r]; e < mo->start[r + 1]; e++)
            out[r * ns + mo->species[e]] = mo->coeff[e];
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_get_moiety_totals(cdyn_kinetics *kin, double *out, size_t capacity)
{
    static const char fn[] = "cdyn_kinetics_get_moiety_totals";
    cdyn_status st = ensure(kin, fn);
    if (st)
        return st;
    const cdyn__kin_moieties *mo = &kin->moi;
    if ((st = cdyn__kin_check_out(kin, fn, out, capacity, mo->m)))
        return st;
    for (size_t r = 0; r < mo->m; r++) {
        double s = 0.0;
        for (size_t e = mo->start[r]; e < mo->start[r + 1]; e++)
            s += mo->coeff[e] * kin->sp.c[mo->species[e]];
        out[r] = s;
    }
    return CDYN_OK;
}
