#include "solver/symbolic.h"

#include <string.h>

#include "core/alloc.h"

void cdyn__symbolic_init(cdyn__symbolic *s)
{
    memset(s, 0, sizeof *s);
}

void cdyn__symbolic_destroy(cdyn__symbolic *s, const cdyn_allocator *alloc)
{
    if (!s)
        return;
    size_t n = s->n, n1 = n + 1, l = s->lnz;
    cdyn__free_array(alloc, s->perm, n, sizeof *s->perm);
    cdyn__free_array(alloc, s->parent, n, sizeof *s->parent);
    cdyn__free_array(alloc, s->adiag, n, sizeof *s->adiag);
    cdyn__free_array(alloc, s->rp, n1, sizeof *s->rp);
    cdyn__free_array(alloc, s->rj, l, sizeof *s->rj);
    cdyn__free_array(alloc, s->rsrc, l, sizeof *s->rsrc);
    cdyn__free_array(alloc, s->rq, l, sizeof *s->rq);
    cdyn__free_array(alloc, s->lp, n1, sizeof *s->lp);
    cdyn__free_array(alloc, s->li, l, sizeof *s->li);
    cdyn__symbolic_init(s);
}

/* Rows of the strictly lower part of P A P^T (iperm is P's inverse): row k
 * holds columns acol[ap[k] .. ap[k + 1] - 1] with the positions asrc[] of
 * their values in a->val. ap has n + 1 entries, acol and asrc nnz - n. */
static void permuted_rows(const cdyn__symmat *a, const uint32_t *iperm,
                          uint32_t *ap, uint32_t *acol, uint32_t *asrc)
{
    const uint32_t n = a->n, *cp = a->colptr, *ri = a->rowind;
    memset(ap, 0, ((size_t)n + 1) * sizeof *ap);
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t p = cp[j] + 1; p < cp[j + 1]; p++) {
            uint32_t x = iperm[ri[p]], y = iperm[j];
            ap[(x > y ? x : y) + 1]++;
        }
    for (uint32_t k = 0; k < n; k++)
        ap[k + 1] += ap[k];
    /* ap[k] serves as row k's fill cursor, then is shifted back. */
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t p = cp[j] + 1; p < cp[j + 1]; p++) {
            uint32_t x = iperm[ri[p]], y = iperm[j];
            uint32_t q = ap[x > y ? x : y]++;
            acol[q] = x > y ? y : x;
            asrc[q] = p;
        }
    for (uint32_t k = n; k > 0; k--)
        ap[k] = ap[k - 1];
    ap[0] = 0;
}

/* Elimination tree of the rows given by permuted_rows (Liu's algorithm with
 * path compression through anc[], n scratch entries). */
static void etree(uint32_t n, const uint32_t *ap, const uint32_t *acol,
                  uint32_t *parent, uint32_t *anc)
{
    for (uint32_t k = 0; k < n; k++) {
        parent[k] = CDYN__SYMBOLIC_NONE;
        anc[k] = CDYN__SYMBOLIC_NONE;
        for (uint32_t q = ap[k]; q < ap[k + 1]; q++) {
            uint32_t r = acol[q];
            while (anc[r] != CDYN__SYMBOLIC_NONE && anc[r] != k) {
                uint32_t up = anc[r];
                anc[r] = k;
                r = up;
            }
            if (anc[r] == CDYN__SYMBOLIC_NONE) {
                anc[r] = k;
                parent[r] = k;
            }
        }
    }
}

/* post[i] = the node numbered i in a depth-first postorder of the forest,
 * children taken in ascending order. Uses head, next, stack (n each). */
static void postorder(uint32_t n, const uint32_t *parent, uint32_t *post,
                      uint32_t *head, uint32_t *next, uint32_t *stack)
{
    const uint32_t none = CDYN__SYMBOLIC_NONE;
    for (uint32_t j = 0; j < n; j++)
        head[j] = none;
    for (uint32_t j = n; j-- > 0;)
        if (parent[j] != none) {
            next[j] = head[parent[j]];
            head[parent[j]] = j;
        }
    uint32_t k = 0;
    for (uint32_t root = 0; root < n; root++) {
        if (parent[root] != none)
            continue;
        uint32_t top = 0;
        stack[top++] = root;
        while (top > 0) {
            uint32_t v = stack[top - 1], c = head[v];
            if (c == none) {
                top--;
                post[k++] = v;
            } else {
                head[v] = next[c]; /* child c is now being visited */
                stack[top++] = c;
            }
        }
    }
}

/* Rows of L when it is a forest: column j's one entry (if any) is in row
 * parent[j], so row k lists the children of k, ascending. rp holds the
 * row starts; cur (n) is scratch. */
static void forest_rows(uint32_t n, const uint32_t *parent, const uint32_t *rp, uint32_t *rj,
                        uint32_t *cur)
{
    memcpy(cur, rp, n * sizeof *cur);
    for (uint32_t j = 0; j < n; j++)
        if (parent[j] != CDYN__SYMBOLIC_NONE)
            rj[cur[parent[j]]++] = j;
}

/* The analysis; @p lean keeps only what cdyn__ldlt reads (see
 * cdyn__symbolic_analyze_lean). Allocations are ordered for a low peak: the
 * ordering's workspace comes and goes before the scratch of the rest, the
 * postorder's own scratch before the pattern of L. */
static cdyn_status analyze(cdyn__symbolic *s, const cdyn__symmat *a,
                           const cdyn_allocator *alloc, const uint32_t *order, int lean)
{
    if (!s || !a || !alloc)
        return CDYN_ERR_INVALID_ARGUMENT;
    const uint32_t n = a->n;
    if (n >= CDYN__SOLVER_MAX_INDEX || a->nnz >= CDYN__SOLVER_MAX_INDEX)
        return CDYN_ERR_UNSUPPORTED;
    const size_t n1 = (size_t)n + 1, anz = n ? (size_t)a->nnz - n : 0;
    /* w0, w1, parent, ap, acol, asrc; the postorder adds w2, w3. */
    const size_t nscratch = 4 * (size_t)n + 1 + 2 * anz, npost = 2 * (size_t)n;

    cdyn_status st = CDYN_ERR_NO_MEMORY;
    cdyn__symbolic out;
    cdyn__symbolic_init(&out);
    out.n = n;
    out.annz = a->nnz;
    out.ordering = CDYN__ORDERING_GIVEN;
    uint32_t *scratch = NULL, *post = NULL;
    out.perm = cdyn__alloc_array(alloc, n, sizeof *out.perm);
    if (n && !out.perm)
        goto done;

    /* 1. The starting order: computed first, while little else is held. */
    if (!order) {
        st = cdyn__ordering_compute(a, alloc, out.perm, &out.ordering);
        if (st != CDYN_OK)
            goto done;
        st = CDYN_ERR_NO_MEMORY;
    }
    scratch = cdyn__alloc_array(alloc, nscratch, sizeof *scratch);
    out.adiag = cdyn__alloc_array(alloc, n, sizeof *out.adiag);
    out.rp = cdyn__alloc_array(alloc, n1, sizeof *out.rp);
    out.lp = cdyn__alloc_array(alloc, n1, sizeof *out.lp);
    if (!scratch || (n && !out.adiag) || !out.rp || !out.lp)
        goto done;
    uint32_t *w0 = scratch, *w1 = w0 + n, *parent = w1 + n;
    uint32_t *ap = parent + n, *acol = ap + n1, *asrc = acol + anz;
    if (order) {
        memset(w0, 0, n * sizeof *w0);
        for (uint32_t k = 0; k < n; k++) {
            if (order[k] >= n || w0[order[k]]) {
                st = CDYN_ERR_INVALID_ARGUMENT;
                goto done;
            }
            w0[order[k]] = 1;
        }
        if (n)
            memcpy(out.perm, order, n * sizeof *out.perm);
    }

    /* 2. Postorder its elimination tree and compose: same fill, subtrees
     * contiguous. Paths keep their two-ended order, whose point is to
     * interleave two subtrees. */
    if (out.ordering != CDYN__ORDERING_PATHS) {
        if (!(post = cdyn__alloc_array(alloc, npost ? npost : 1, sizeof *post)))
            goto done;
        for (uint32_t k = 0; k < n; k++)
            w0[out.perm[k]] = k;
        permuted_rows(a, w0, ap, acol, asrc);
        etree(n, ap, acol, parent, w1);
        postorder(n, parent, w0, w1, post, post + n);
        for (uint32_t k = 0; k < n; k++)
            w1[k] = out.perm[w0[k]];
        if (n)
            memcpy(out.perm, w1, n * sizeof *out.perm);
        cdyn__free_array(alloc, post, npost ? npost : 1, sizeof *post);
        post = NULL;
    }
    for (uint32_t k = 0; k < n; k++) {
        w0[out.perm[k]] = k;
        out.adiag[k] = a->colptr[out.perm[k]];
    }
    permuted_rows(a, w0, ap, acol, asrc);
    etree(n, ap, acol, parent, w1);

    /* 3. Pattern of L: row k's entries are the tree paths from each column of
     * A's row k up to k (the row subtree). Count first; w0 marks visits. */
    memset(out.lp, 0, n1 * sizeof *out.lp);
    memset(out.rp, 0, n1 * sizeof *out.rp);
    uint64_t lnz = 0;
    for (uint32_t k = 0; k < n; k++) {
        w0[k] = k;
        for (uint32_t q = ap[k]; q < ap[k + 1]; q++)
            for (uint32_t j = acol[q]; w0[j] != k; j = parent[j]) {
                w0[j] = k;
                out.lp[j + 1]++;
                out.rp[k + 1]++;
                lnz++;
            }
    }
    if (lnz >= CDYN__SOLVER_MAX_INDEX) {
        st = CDYN_ERR_UNSUPPORTED;
        goto done;
    }
    out.lnz = (uint32_t)lnz;
    out.forest = 1;
    for (uint32_t k = 0; k < n; k++) {
        out.forest &= out.lp[k + 1] <= 1;
        out.lp[k + 1] += out.lp[k];
        out.rp[k + 1] += out.rp[k];
    }
    /* A lean forest needs no column lists: its factor has no updates. */
    const int columns = !(lean && out.forest);
    if (!columns) {
        cdyn__free_array(alloc, out.lp, n1, sizeof *out.lp);
        out.lp = NULL;
    }
    if (lnz) {
        out.rj = cdyn__alloc_array(alloc, lnz, sizeof *out.rj);
        out.rsrc = cdyn__alloc_array(alloc, lnz, sizeof *out.rsrc);
        if (!out.rj || !out.rsrc)
            goto done;
        if (columns) {
            out.rq = cdyn__alloc_array(alloc, lnz, sizeof *out.rq);
            out.li = cdyn__alloc_array(alloc, lnz, sizeof *out.li);
            if (!out.rq || !out.li)
                goto done;
        }
    }
    if (columns) {
        /* Columns first: they fill in ascending row order as k ascends (w1
         * is the cursor); rows then by transposition, so their columns
         * ascend. */
        for (uint32_t k = 0; k < n; k++)
            w1[k] = out.lp[k];
        for (uint32_t k = 0; k < n; k++) {
            w0[k] = k;
            for (uint32_t q = ap[k]; q < ap[k + 1]; q++)
                for (uint32_t j = acol[q]; w0[j] != k; j = parent[j]) {
                    w0[j] = k;
                    out.li[w1[j]++] = k;
                }
        }
        for (uint32_t k = 0; k < n; k++)
            w1[k] = out.rp[k];
        for (uint32_t j = 0; j < n; j++)
            for (uint32_t q = out.lp[j]; q < out.lp[j + 1]; q++) {
                uint32_t t = w1[out.li[q]]++;
                out.rj[t] = j;
                out.rq[t] = q;
            }
    } else {
        forest_rows(n, parent, out.rp, out.rj, w1);
    }
    /* Where each entry's value comes from: w0[j] = t for row k's entries. */
    for (uint32_t k = 0; k < n; k++) {
        for (uint32_t t = out.rp[k]; t < out.rp[k + 1]; t++) {
            out.rsrc[t] = CDYN__SYMBOLIC_NONE;
            w0[out.rj[t]] = t;
        }
        for (uint32_t q = ap[k]; q < ap[k + 1]; q++)
            out.rsrc[w0[acol[q]]] = asrc[q];
    }
    if (!lean) {
        if (!(out.parent = cdyn__alloc_array(alloc, n, sizeof *out.parent)) && n)
            goto done;
        if (n)
            memcpy(out.parent, parent, n * sizeof *out.parent);
    }

    cdyn__symbolic_destroy(s, alloc);
    *s = out;
    cdyn__symbolic_init(&out);
    st = CDYN_OK;
done:
    cdyn__free_array(alloc, post, npost ? npost : 1, sizeof *post);
    cdyn__free_array(alloc, scratch, nscratch, sizeof *scratch);
    cdyn__symbolic_destroy(&out, alloc);
    return st;
}

cdyn_status cdyn__symbolic_analyze(cdyn__symbolic *s, const cdyn__symmat *a,
                                   const cdyn_allocator *alloc, const uint32_t *order)
{
    return analyze(s, a, alloc, order, 0);
}

cdyn_status cdyn__symbolic_analyze_lean(cdyn__symbolic *s, const cdyn__symmat *a,
                                        const cdyn_allocator *alloc, const uint32_t *order)
{
    return analyze(s, a, alloc, order, 1);
}
