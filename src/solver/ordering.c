#include "solver/ordering.h"

#include <string.h>

#include "core/alloc.h"

/* Node kinds. A variable is an uneliminated row (its nv[] is its weight, the
 * number of rows it stands for once supervariables merge); an element is an
 * eliminated pivot whose list holds the variables it couples (a clique of
 * the filled graph); a dead node is an absorbed element or a variable merged
 * into another. */
enum { KIND_VAR = 0, KIND_ELEM = 1, KIND_DEAD = 2 };

/* Every list lives in iw: node i's at iw[pe[i] .. pe[i] + len[i] - 1]. A
 * variable's list starts with its elen[i] adjacent elements, then its
 * adjacent variables; an element's list holds variables only. */
typedef struct amd {
    int32_t n;
    int32_t iwlen, pfree;
    int32_t *iw;
    int32_t *pe, *len, *elen, *nv, *degree;
    int32_t *head, *next, *last;     /* degree buckets, doubly linked */
    int32_t *hhead, *hnext, *hkey;   /* supervariable hash buckets */
    int32_t *mnext, *mtail;          /* rows each supervariable stands for */
    unsigned char *kind;
    int64_t *w;                      /* markers, compared with wflg */
    int64_t wflg;
} amd;

static void bucket_insert(amd *s, int32_t i, int32_t d)
{
    int32_t h = s->head[d];
    s->next[i] = h;
    s->last[i] = -1;
    if (h >= 0)
        s->last[h] = i;
    s->head[d] = i;
    s->degree[i] = d;
}

static void bucket_remove(amd *s, int32_t i)
{
    int32_t nx = s->next[i], pv = s->last[i];
    if (nx >= 0)
        s->last[nx] = pv;
    if (pv >= 0)
        s->next[pv] = nx;
    else
        s->head[s->degree[i]] = nx;
}

/* Appends the rows of supervariable b to those of a. */
static void members_append(amd *s, int32_t a, int32_t b)
{
    s->mnext[s->mtail[a]] = b;
    s->mtail[a] = s->mtail[b];
}

/* Packs every live list to the front of iw, dropping the space of freed
 * lists and of list tails left by in-place shrinking. Each live list's first
 * entry is swapped for the (negative) id of its owner so that one sweep
 * finds the lists in storage order. */
static void compact(amd *s)
{
    int32_t *iw = s->iw;
    for (int32_t i = 0; i < s->n; i++)
        if (s->kind[i] != KIND_DEAD && s->len[i] > 0) {
            int32_t q = s->pe[i];
            s->pe[i] = iw[q];
            iw[q] = -i - 1;
        }
    int32_t dst = 0;
    for (int32_t src = 0; src < s->pfree;) {
        if (iw[src] >= 0) {
            src++;
            continue;
        }
        int32_t i = -iw[src] - 1, l = s->len[i];
        iw[dst] = s->pe[i];
        s->pe[i] = dst;
        for (int32_t t = 1; t < l; t++)
            iw[dst + t] = iw[src + t];
        dst += l;
        src += l;
    }
    s->pfree = dst;
}

/* Flags variable i as a member of the new element's list (negated weight),
 * takes it out of its degree bucket and returns its weight. */
static int32_t take(amd *s, int32_t i)
{
    int32_t nvi = s->nv[i];
    s->nv[i] = -nvi;
    bucket_remove(s, i);
    return nvi;
}

/* Eliminates the pivot p; returns the total weight it eliminated (p and the
 * variables mass-eliminated with it). */
static int32_t eliminate(amd *s, int32_t p, int32_t nel)
{
    int32_t *iw = s->iw, *nv = s->nv;
    unsigned char *kind = s->kind;
    const int32_t n = s->n;
    int32_t npiv = nv[p];
    int32_t degme = 0;
    nel += npiv;
    kind[p] = KIND_ELEM;
    nv[p] = -npiv;

    /* 1. The new element's list L_p: p's variables and the variables of the
     * elements it is adjacent to, which it absorbs. */
    int32_t lstart;
    if (s->elen[p] == 0) {
        /* No adjacent element: L_p is p's own list, pruned in place. */
        int32_t q0 = s->pe[p], dst = q0;
        for (int32_t q = q0; q < q0 + s->len[p]; q++) {
            int32_t i = iw[q];
            if (kind[i] == KIND_VAR && nv[i] > 0) {
                degme += take(s, i);
                iw[dst++] = i;
            }
        }
        lstart = q0;
        s->len[p] = dst - q0;
    } else {
        /* L_p holds distinct uneliminated rows, so n - nel entries suffice;
         * the workspace keeps at least n free after compaction. */
        if (s->iwlen - s->pfree < n - nel + 1)
            compact(s);
        int32_t q0 = s->pe[p], ne = s->elen[p], l = s->len[p];
        lstart = s->pfree;
        for (int32_t q = q0; q < q0 + l; q++) {
            int32_t e = iw[q];
            if (q < q0 + ne) {
                if (kind[e] != KIND_ELEM)
                    continue;
                for (int32_t r = s->pe[e]; r < s->pe[e] + s->len[e]; r++) {
                    int32_t i = iw[r];
                    if (kind[i] == KIND_VAR && nv[i] > 0) {
                        degme += take(s, i);
                        iw[s->pfree++] = i;
                    }
                }
                kind[e] = KIND_DEAD;
            } else if (kind[e] == KIND_VAR && nv[e] > 0) {
                degme += take(s, e);
                iw[s->pfree++] = e;
            }
        }
        s->pe[p] = lstart;
        s->len[p] = s->pfree - lstart;
    }
    s->elen[p] = 0;
    const int32_t lend = lstart + s->len[p];

    /* 2. |L_e \ L_p| (weighted) for every element e next to L_p, as
     * w[e] - wflg: start from |L_e| and subtract each member met. */
    s->wflg += (int64_t)n + 1;
    const int64_t wflg = s->wflg;
    for (int32_t q = lstart; q < lend; q++) {
        int32_t i = iw[q], nvi = -nv[i];
        for (int32_t r = s->pe[i]; r < s->pe[i] + s->elen[i]; r++) {
            int32_t e = iw[r];
            if (kind[e] != KIND_ELEM)
                continue;
            if (s->w[e] >= wflg)
                s->w[e] -= nvi;
            else
                s->w[e] = wflg + s->degree[e] - nvi;
        }
    }

    /* 3. Prune each member's list, put p in front, and bound its external
     * degree by |A_i| + sum |L_e \ L_p|. An element wholly inside L_p is
     * absorbed (aggressive absorption); a member left with no other
     * neighbour is eliminated along with p (mass elimination). */
    for (int32_t q = lstart; q < lend; q++) {
        int32_t i = iw[q], nvi = -nv[i];
        int32_t q0 = s->pe[i], ne = s->elen[i], end = q0 + s->len[i];
        int32_t dst = q0, hash = 0;
        int64_t deg = 0;
        for (int32_t r = q0; r < q0 + ne; r++) {
            int32_t e = iw[r];
            if (kind[e] != KIND_ELEM)
                continue;
            int64_t dext = s->w[e] - wflg;
            if (dext > 0) {
                deg += dext;
                iw[dst++] = e;
                hash = (int32_t)(((uint32_t)hash + (uint32_t)e) & 0x7fffffffu);
            } else {
                kind[e] = KIND_DEAD;
            }
        }
        int32_t kept_e = dst - q0;
        for (int32_t r = q0 + ne; r < end; r++) {
            int32_t j = iw[r];
            if (kind[j] == KIND_VAR && nv[j] > 0) {
                deg += nv[j];
                iw[dst++] = j;
                hash = (int32_t)(((uint32_t)hash + (uint32_t)j) & 0x7fffffffu);
            }
        }
        if (deg == 0) {
            /* i touches nothing outside L_p: eliminating it now costs no
             * fill beyond p's clique. */
            kind[i] = KIND_DEAD;
            nv[i] = 0;
            npiv += nvi;
            degme -= nvi;
            nel += nvi;
            members_append(s, p, i);
            continue;
        }
        /* p replaces at least one entry removed above (p itself from A_i, or
         * an element p absorbed), so the list does not grow. It goes at the
         * end of the elements, the first variable moving to the end. */
        if (dst < end) {
            int32_t first_var = q0 + kept_e;
            iw[dst] = iw[first_var];
            iw[first_var] = p;
            dst++;
            kept_e++;
        }
        s->elen[i] = kept_e;
        s->len[i] = dst - q0;
        if (deg < s->degree[i])
            s->degree[i] = (int32_t)deg;
        s->hkey[i] = hash;
    }

    /* 4. Supervariables: members with identical lists (same elements, same
     * variables) are indistinguishable; merge them into the first. */
    for (int32_t q = lstart; q < lend; q++) {
        int32_t i = iw[q];
        if (kind[i] != KIND_VAR)
            continue;
        int32_t b = s->hkey[i] % n;
        s->hnext[i] = s->hhead[b];
        s->hhead[b] = i;
    }
    for (int32_t q = lstart; q < lend; q++) {
        int32_t i = iw[q];
        if (kind[i] != KIND_VAR)
            continue;
        int32_t b = s->hkey[i] % n;
        int32_t x = s->hhead[b];
        if (x < 0)
            continue;
        s->hhead[b] = -1;
        for (; x >= 0; x = s->hnext[x]) {
            if (kind[x] != KIND_VAR || s->hnext[x] < 0)
                continue;
            int64_t mark = ++s->wflg;
            int32_t xs = s->pe[x], xl = s->len[x];
            for (int32_t r = xs; r < xs + xl; r++)
                s->w[iw[r]] = mark;
            int32_t prev = x;
            for (int32_t y = s->hnext[x]; y >= 0; y = s->hnext[y]) {
                int same = kind[y] == KIND_VAR && s->len[y] == xl &&
                           s->elen[y] == s->elen[x] && s->hkey[y] == s->hkey[x];
                for (int32_t r = s->pe[y]; same && r < s->pe[y] + xl; r++)
                    same = s->w[iw[r]] == mark;
                if (!same) {
                    prev = y;
                    continue;
                }
                nv[x] += nv[y]; /* both negative while in L_p */
                nv[y] = 0;
                kind[y] = KIND_DEAD;
                if (s->degree[y] < s->degree[x])
                    s->degree[x] = s->degree[y];
                members_append(s, x, y);
                s->hnext[prev] = s->hnext[y];
            }
        }
    }

    /* 5. Final approximate degrees, bucket insertion, and L_p pruned of
     * the rows merged or eliminated above. */
    int32_t dst = lstart;
    for (int32_t q = lstart; q < lend; q++) {
        int32_t i = iw[q];
        if (kind[i] != KIND_VAR)
            continue;
        int32_t nvi = -nv[i];
        nv[i] = nvi;
        int64_t d = (int64_t)s->degree[i] + degme - nvi, cap = n - nel - nvi;
        if (d > cap)
            d = cap;
        bucket_insert(s, i, (int32_t)d);
        iw[dst++] = i;
    }
    s->len[p] = dst - lstart;
    s->degree[p] = degme;
    nv[p] = npiv;
    return npiv;
}

cdyn_status cdyn__ordering_amd(const cdyn__symmat *a, const cdyn_allocator *alloc,
                               uint32_t *perm)
{
    if (!a || !alloc || (a->n && !perm))
        return CDYN_ERR_INVALID_ARGUMENT;
    const uint32_t n = a->n;
    if (n == 0)
        return CDYN_OK;
    if (n >= CDYN__SOLVER_MAX_INDEX || a->nnz >= CDYN__SOLVER_MAX_INDEX)
        return CDYN_ERR_UNSUPPORTED;
    /* Both triangles' off-diagonal entries plus elbow room: the quotient
     * graph never needs more than the original graph (Amestoy, Davis and
     * Duff), and compaction must leave n entries free for a new element. */
    size_t noff2 = 2 * ((size_t)a->nnz - n);
    size_t iwlen = noff2 + noff2 / 5 + 2 * (size_t)n + 1;
    if (iwlen >= CDYN__SOLVER_MAX_INDEX)
        return CDYN_ERR_UNSUPPORTED;

    enum { NARR = 13 };
    size_t ni = (size_t)NARR * n + iwlen;
    int32_t *block = cdyn__alloc_array(alloc, ni, sizeof *block);
    int64_t *w = cdyn__calloc_array(alloc, n, sizeof *w);
    unsigned char *kind = cdyn__calloc_array(alloc, n, 1);
    if (!block || !w || !kind) {
        cdyn__free_array(alloc, kind, n, 1);
        cdyn__free_array(alloc, w, n, sizeof *w);
        cdyn__free_array(alloc, block, ni, sizeof *block);
        return CDYN_ERR_NO_MEMORY;
    }
    amd s;
    int32_t **arrays[NARR] = {&s.pe, &s.len, &s.elen, &s.nv, &s.degree,
                              &s.head, &s.next, &s.last, &s.hhead, &s.hnext,
                              &s.hkey, &s.mnext, &s.mtail};
    for (size_t k = 0; k < NARR; k++)
        *arrays[k] = block + k * n;
    s.iw = block + (size_t)NARR * n;
    s.n = (int32_t)n;
    s.iwlen = (int32_t)iwlen;
    s.kind = kind;
    s.w = w;
    s.wflg = 1;

    /* Adjacency lists of both triangles, in ascending column order. */
    const uint32_t *cp = a->colptr, *ri = a->rowind;
    memset(s.len, 0, n * sizeof *s.len);
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t p = cp[j] + 1; p < cp[j + 1]; p++) {
            s.len[ri[p]]++;
            s.len[j]++;
        }
    int32_t pos = 0;
    for (uint32_t i = 0; i < n; i++) {
        s.pe[i] = pos;
        s.next[i] = pos; /* fill cursor for now */
        pos += s.len[i];
    }
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t p = cp[j] + 1; p < cp[j + 1]; p++) {
            uint32_t i = ri[p];
            s.iw[s.next[i]++] = (int32_t)j;
            s.iw[s.next[j]++] = (int32_t)i;
        }
    s.pfree = pos;
    for (uint32_t i = 0; i < n; i++) {
        s.elen[i] = 0;
        s.nv[i] = 1;
        s.head[i] = -1;
        s.hhead[i] = -1;
        s.mnext[i] = -1;
        s.mtail[i] = (int32_t)i;
    }
    /* Filled in ascending order, so each bucket starts with its largest
     * index: MD is sensitive to ties on regular grids, and on a cloth
     * numbered row by row this choice gives a third less fill at 300 x 300
     * than the opposite one (both are equal on shuffled labels). */
    for (uint32_t i = 0; i < n; i++)
        bucket_insert(&s, (int32_t)i, s.len[i]);

    int32_t nel = 0, mindeg = 0;
    uint32_t k = 0;
    while (nel < (int32_t)n) {
        while (s.head[mindeg] < 0)
            mindeg++;
        int32_t p = s.head[mindeg];
        bucket_remove(&s, p);
        nel += eliminate(&s, p, nel);
        for (int32_t x = p; x >= 0; x = s.mnext[x])
            perm[k++] = (uint32_t)x;
        /* Degrees of the members of L_p may have dropped below mindeg. */
        for (int32_t q = s.pe[p]; q < s.pe[p] + s.len[p]; q++)
            if (s.degree[s.iw[q]] < mindeg)
                mindeg = s.degree[s.iw[q]];
    }

    cdyn__free_array(alloc, kind, n, 1);
    cdyn__free_array(alloc, w, n, sizeof *w);
    cdyn__free_array(alloc, block, ni, sizeof *block);
    return CDYN_OK;
}

/* Adjacency of both triangles as compressed lists: adj[xp[i] .. xp[i+1]-1]
 * in ascending order. xp has n + 1 entries, adj 2 (nnz - n). */
static void both_triangles(const cdyn__symmat *a, uint32_t *xp, uint32_t *adj)
{
    const uint32_t n = a->n, *cp = a->colptr, *ri = a->rowind;
    memset(xp, 0, ((size_t)n + 1) * sizeof *xp);
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t p = cp[j] + 1; p < cp[j + 1]; p++) {
            xp[ri[p] + 1]++;
            xp[j + 1]++;
        }
    for (uint32_t i = 0; i < n; i++)
        xp[i + 1] += xp[i];
    /* Row i's neighbours j < i come from the columns j (ascending), then its
     * own column gives those > i (ascending): so each list ascends. */
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t p = cp[j] + 1; p < cp[j + 1]; p++)
            adj[xp[ri[p]]++] = j;
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t p = cp[j] + 1; p < cp[j + 1]; p++)
            adj[xp[j]++] = ri[p];
    for (uint32_t i = n; i > 0; i--)
        xp[i] = xp[i - 1];
    xp[0] = 0;
}

/* Workspace of the linear-time orderings: the graph and six n-arrays. */
typedef struct graph {
    uint32_t n;
    uint32_t *xp, *adj;
    uint32_t *w[6];
    uint32_t *block;
    size_t size;
} graph;

static cdyn_status graph_build(graph *g, const cdyn__symmat *a, const cdyn_allocator *alloc)
{
    const uint32_t n = a->n;
    if (n >= CDYN__SOLVER_MAX_INDEX || a->nnz >= CDYN__SOLVER_MAX_INDEX)
        return CDYN_ERR_UNSUPPORTED;
    const size_t nadj = 2 * ((size_t)a->nnz - n);
    if (nadj >= CDYN__SOLVER_MAX_INDEX)
        return CDYN_ERR_UNSUPPORTED;
    g->n = n;
    g->size = 7 * (size_t)n + 1 + nadj;
    g->block = cdyn__alloc_array(alloc, g->size, sizeof *g->block);
    if (!g->block)
        return CDYN_ERR_NO_MEMORY;
    for (size_t k = 0; k < 6; k++)
        g->w[k] = g->block + k * n;
    g->xp = g->block + 6 * (size_t)n;
    g->adj = g->xp + (size_t)n + 1;
    both_triangles(a, g->xp, g->adj);
    return CDYN_OK;
}

/* When every component is a path (no degree above 2, no cycle), orders each
 * from both ends alternately: still zero fill (each pivot is an end), and
 * consecutive pivots belong to two independent recurrences, which halves the
 * latency-bound cost of factorizing and solving a chain. Returns 0 and
 * leaves perm unspecified otherwise. */
static int path_order(const graph *g, uint32_t *perm)
{
    const uint32_t n = g->n, *xp = g->xp, *adj = g->adj;
    uint32_t *seen = g->w[0], *list = g->w[1];
    for (uint32_t i = 0; i < n; i++) {
        if (xp[i + 1] - xp[i] > 2)
            return 0;
        seen[i] = 0;
    }
    uint32_t k = 0;
    for (uint32_t s = 0; s < n; s++) {
        if (seen[s] || xp[s + 1] - xp[s] > 1)
            continue;
        /* s is an end (or alone): walk the path from it. */
        uint32_t len = 0, prev = UINT32_MAX, v = s;
        for (;;) {
            seen[v] = 1;
            list[len++] = v;
            uint32_t nx = UINT32_MAX;
            for (uint32_t p = xp[v]; p < xp[v + 1]; p++)
                if (adj[p] != prev)
                    nx = adj[p];
            if (nx == UINT32_MAX)
                break;
            prev = v;
            v = nx;
        }
        for (uint32_t lo = 0, hi = len; lo < hi;) {
            perm[k++] = list[lo++];
            if (lo < hi)
                perm[k++] = list[--hi];
        }
    }
    return k == n; /* a node left unseen lies on a cycle */
}

/* Maximum cardinality search into perm (reversed: perm[k] is eliminated
 * k-th); returns whether that order is perfect (no fill). */
static int mcs_order(const graph *g, uint32_t *perm)
{
    const uint32_t n = g->n, *xp = g->xp, *adj = g->adj, none = UINT32_MAX;
    uint32_t *weight = g->w[0], *head = g->w[1], *next = g->w[2], *last = g->w[3],
             *pos = g->w[4], *follow = g->w[5];

    /* Buckets of unnumbered vertices by their count of numbered neighbours,
     * LIFO; filled ascending so the largest index is numbered first (and so
     * eliminated last). */
    for (uint32_t i = 0; i < n; i++) {
        head[i] = none;
        weight[i] = 0;
        pos[i] = none;
    }
    for (uint32_t i = 0; i < n; i++) {
        next[i] = head[0];
        last[i] = none;
        if (head[0] != none)
            last[head[0]] = i;
        head[0] = i;
    }
    uint32_t maxw = 0;
    for (uint32_t k = n; k-- > 0;) {
        while (head[maxw] == none)
            maxw--;
        uint32_t v = head[maxw];
        head[maxw] = next[v];
        if (next[v] != none)
            last[next[v]] = none;
        pos[v] = k;
        perm[k] = v;
        for (uint32_t p = xp[v]; p < xp[v + 1]; p++) {
            uint32_t u = adj[p];
            if (pos[u] != none)
                continue;
            uint32_t wu = weight[u];
            if (last[u] != none)
                next[last[u]] = next[u];
            else
                head[wu] = next[u];
            if (next[u] != none)
                last[next[u]] = last[u];
            weight[u] = ++wu;
            next[u] = head[wu];
            last[u] = none;
            if (head[wu] != none)
                last[head[wu]] = u;
            head[wu] = u;
            if (wu > maxw)
                maxw = wu;
        }
    }

    /* Zero-fill test: for every vertex v, each later neighbour w must be
     * adjacent to v's first later neighbour follow[v] (or be it). Scanning
     * the order, mark (in weight[], reused) the earlier neighbours of w and w
     * itself with w's position, then check their followers are marked. */
    for (uint32_t i = 0; i < n; i++)
        weight[i] = none;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t w = perm[k];
        follow[w] = w;
        weight[w] = k;
        for (uint32_t p = xp[w]; p < xp[w + 1]; p++) {
            uint32_t v = adj[p];
            if (pos[v] < k) {
                weight[v] = k;
                if (follow[v] == v)
                    follow[v] = w;
            }
        }
        for (uint32_t p = xp[w]; p < xp[w + 1]; p++) {
            uint32_t v = adj[p];
            if (pos[v] < k && weight[follow[v]] != k)
                return 0;
        }
    }
    return 1;
}

cdyn_status cdyn__ordering_mcs(const cdyn__symmat *a, const cdyn_allocator *alloc,
                               uint32_t *perm, int *perfect)
{
    if (!a || !alloc || (a->n && !perm) || !perfect)
        return CDYN_ERR_INVALID_ARGUMENT;
    *perfect = 1;
    if (a->n == 0)
        return CDYN_OK;
    graph g;
    cdyn_status st = graph_build(&g, a, alloc);
    if (st != CDYN_OK)
        return st;
    *perfect = mcs_order(&g, perm);
    cdyn__free_array(alloc, g.block, g.size, sizeof *g.block);
    return CDYN_OK;
}

cdyn_status cdyn__ordering_compute(const cdyn__symmat *a, const cdyn_allocator *alloc,
                                   uint32_t *perm, cdyn__ordering_kind *kind)
{
    if (!a || !alloc || (a->n && !perm))
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__ordering_kind used = CDYN__ORDERING_PATHS;
    if (a->n > 0) {
        graph g;
        cdyn_status st = graph_build(&g, a, alloc);
        if (st != CDYN_OK)
            return st;
        if (!path_order(&g, perm))
            used = mcs_order(&g, perm) ? CDYN__ORDERING_PERFECT : CDYN__ORDERING_AMD;
        cdyn__free_array(alloc, g.block, g.size, sizeof *g.block);
        if (used == CDYN__ORDERING_AMD) {
            st = cdyn__ordering_amd(a, alloc, perm);
            if (st != CDYN_OK)
                return st;
        }
    }
    if (kind)
        *kind = used;
    return CDYN_OK;
}
