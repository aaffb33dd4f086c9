/* Minimum degree on the explicit elimination graph of A + A^T. */
#include "kinetics/min_degree.h"

#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"

#define NONE SIZE_MAX

typedef struct graph {
    const cdyn_allocator *a;
    size_t n;
    size_t **adj;          /* neighbours of each node (live ones only, unordered) */
    size_t *len, *cap;
    size_t *mark;          /* stamps, for unions */
    size_t stamp;
    /* degree buckets: doubly linked lists */
    size_t *head, *next, *prev, *deg;
    size_t mindeg;
} graph;

static bool push(graph *g, size_t u, size_t v)
{
    if (g->len[u] == g->cap[u]) {
        size_t c = g->cap[u] ? 2 * g->cap[u] : 4;
        size_t *p = cdyn__alloc_array(g->a, c, sizeof *p);
        if (!p)
            return false;
        if (g->adj[u]) {
            memcpy(p, g->adj[u], g->len[u] * sizeof *p);
            cdyn__free_array(g->a, g->adj[u], g->cap[u], sizeof *p);
        }
        g->adj[u] = p;
        g->cap[u] = c;
    }
    g->adj[u][g->len[u]++] = v;
    return true;
}

static void bucket_insert(graph *g, size_t u)
{
    size_t d = g->deg[u];
    g->prev[u] = NONE;
    g->next[u] = g->head[d];
    if (g->head[d] != NONE)
        g->prev[g->head[d]] = u;
    g->head[d] = u;
    if (d < g->mindeg)
        g->mindeg = d;
}

static void bucket_remove(graph *g, size_t u)
{
    size_t d = g->deg[u];
    if (g->prev[u] != NONE)
        g->next[g->prev[u]] = g->next[u];
    else
        g->head[d] = g->next[u];
    if (g->next[u] != NONE)
        g->prev[g->next[u]] = g->prev[u];
}

static void free_graph(graph *g)
{
    const cdyn_allocator *a = g->a;
    size_t n = g->n;
    if (g->adj && g->cap)
        for (size_t u = 0; u < n; u++)
            cdyn__free_array(a, g->adj[u], g->cap[u], sizeof(size_t));
    cdyn__free_array(a, g->adj, n, sizeof *g->adj);
    cdyn__free_array(a, g->len, n, sizeof(size_t));
    cdyn__free_array(a, g->cap, n, sizeof(size_t));
    cdyn__free_array(a, g->mark, n, sizeof(size_t));
    cdyn__free_array(a, g->head, n, sizeof(size_t));
    cdyn__free_array(a, g->next, n, sizeof(size_t));
    cdyn__free_array(a, g->prev, n, sizeof(size_t));
    cdyn__free_array(a, g->deg, n, sizeof(size_t));
}

/* Joins the neighbours of @p v into a clique and drops v from their lists. */
static bool eliminate(graph *g, size_t v)
{
    size_t nv = g->len[v];
    const size_t *nb = g->adj[v];
    for (size_t t = 0; t < nv; t++) {
        size_t u = nb[t];
        g->stamp++;
        /* keep u's neighbours except v, marking them */
        size_t m = 0;
        for (size_t s = 0; s < g->len[u]; s++) {
            size_t w = g->adj[u][s];
            if (w != v) {
                g->adj[u][m++] = w;
                g->mark[w] = g->stamp;
            }
        }
        g->len[u] = m;
        g->mark[u] = g->stamp;
        for (size_t s = 0; s < nv; s++) {
            size_t w = nb[s];
            if (g->mark[w] != g->stamp) {
                g->mark[w] = g->stamp;
                if (!push(g, u, w))
                    return false;
            }
        }
        bucket_remove(g, u);
        g->deg[u] = g->len[u];
        bucket_insert(g, u);
    }
    return true;
}

cdyn_status cdyn__kin_min_degree(const cdyn_allocator *a, size_t n, const size_t *col,
                                 const size_t *row, size_t *perm)
{
    graph g = {0};
    g.a = a;
    g.n = n;
    if (n == 0)
        return CDYN_OK;
    g.adj = cdyn__calloc_array(a, n, sizeof *g.adj);
    g.len = cdyn__calloc_array(a, n, sizeof(size_t));
    g.cap = cdyn__calloc_array(a, n, sizeof(size_t));
    g.mark = cdyn__calloc_array(a, n, sizeof(size_t));
    g.head = cdyn__alloc_array(a, n, sizeof(size_t));
    g.next = cdyn__alloc_array(a, n, sizeof(size_t));
    g.prev = cdyn__alloc_array(a, n, sizeof(size_t));
    g.deg = cdyn__alloc_array(a, n, sizeof(size_t));
    if (!g.adj || !g.len || !g.cap || !g.mark || !g.head || !g.next || !g.prev || !g.deg)
        goto oom;
    /* The graph of A + A^T without the diagonal, each edge once per end. */
    for (size_t k = 0; k < n; k++) {
        g.stamp++;
        g.mark[k] = g.stamp;
        for (size_t s = 0; s < g.len[k]; s++)
            g.mark[g.adj[k][s]] = g.stamp;
        for (size_t p = col[k]; p < col[k + 1]; p++) {
            size_t i = row[p];
            if (g.mark[i] == g.stamp)
                continue;
            g.mark[i] = g.stamp;
            /* edge (i, k), new at both ends: had column i listed k, k
             * would list i already (marked above) */
            if (!push(&g, k, i) || !push(&g, i, k))
                goto oom;
        }
    }
    for (size_t d = 0; d < n; d++)
        g.head[d] = NONE;
    g.mindeg = n;
    for (size_t u = n; u-- > 0;) {
        g.deg[u] = g.len[u];
        bucket_insert(&g, u);
    }
    for (size_t k = 0; k < n; k++) {
        while (g.head[g.mindeg] == NONE)
            g.mindeg++;
        size_t v = g.head[g.mindeg];
        bucket_remove(&g, v);
        perm[k] = v;
        if (!eliminate(&g, v))
            goto oom;
    }
    free_graph(&g);
    return CDYN_OK;
oom:
    free_graph(&g);
    return CDYN_ERR_NO_MEMORY;
}
