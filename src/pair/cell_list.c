/* The cell list of pair sets: counting sort into hashed cells, then a
 * half-shell traversal of neighbouring cells. */
#include "pair/cell_list.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"

/* Cell coordinates are clamped to +-CLAMP. Below 2^40 cells from the origin
 * the product x / h is computed with an absolute error under 2^-12 cells,
 * which the margin on the cell side absorbs (see cell_side). */
#define CLAMP 1099511627776.0 /* 2^40 */

/* Cells are a little larger than the cutoff, so that two points closer than
 * the cutoff always get cell coordinates that differ by at most 1 per axis,
 * despite the rounding of x * (1 / h): with |x_a - x_b| < cutoff = h / (1 + 2^-10),
 * the computed products differ by less than 1 - 2^-11 + 2^-12 < 1. */
static double cell_side(double cutoff)
{
    return cutoff * (1.0 + 0x1p-10);
}

/* Half shells: the neighbour offsets that are lexicographically positive
 * (last axis first), so that each pair of adjacent cells is seen once. */
static const int HALF3[13][3] = {
    {1, 0, 0},   {-1, 1, 0}, {0, 1, 0},  {1, 1, 0},  {-1, -1, 1}, {0, -1, 1}, {1, -1, 1},
    {-1, 0, 1},  {0, 0, 1},  {1, 0, 1},  {-1, 1, 1}, {0, 1, 1},   {1, 1, 1},
};
static const int HALF2[4][2] = {{1, 0}, {-1, 1}, {0, 1}, {1, 1}};

static uint32_t hash_cell(const int64_t *c, int dim, uint32_t mask)
{
    uint64_t h = (uint64_t)c[0] * 0x9e3779b97f4a7c15ull;
    h ^= (uint64_t)c[1] * 0xc2b2ae3d27d4eb4full;
    if (dim == 3)
        h ^= (uint64_t)c[2] * 0x165667b19e3779f9ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return (uint32_t)h & mask;
}

/* floor(x / h), clamped to +-CLAMP (NaN to -CLAMP). Within the clamp the
 * truncation below is exact, and cheaper than a call to floor(). */
static int64_t cell_coord(double x, double inv_h)
{
    double v = x * inv_h;
    if (!(v >= -CLAMP)) /* also NaN */
        v = -CLAMP;
    else if (v > CLAMP)
        v = CLAMP;
    int64_t c = (int64_t)v;
    return (double)c > v ? c - 1 : c;
}

static uint32_t bucket_of(const cdyn__cell_list *cl, const int64_t *c)
{
    if (!cl->dense)
        return hash_cell(c, cl->dim, cl->n_buckets - 1u);
    uint64_t b = (uint64_t)(c[0] - cl->cmin[0]) + (uint64_t)(c[1] - cl->cmin[1]) * cl->stride[1];
    if (cl->dim == 3)
        b += (uint64_t)(c[2] - cl->cmin[2]) * cl->stride[2];
    return (uint32_t)b;
}

/* Chooses between the row-major index of the bounding box (dense) and the
 * hash: dense when every member is finite and the box spans at most
 * n_buckets cells. */
static void choose_indexing(cdyn__cell_list *cl, uint32_t n, const uint32_t *slot,
                            const double *x)
{
    const size_t d = (size_t)cl->dim;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    int finite = 1;
    for (uint32_t k = 0; k < n; k++) {
        const double *xk = x + (size_t)slot[k] * d;
        for (size_t i = 0; i < d; i++) {
            double v = xk[i];
            finite &= isfinite(v) != 0;
            lo[i] = v < lo[i] ? v : lo[i];
            hi[i] = v > hi[i] ? v : hi[i];
        }
    }
    cl->dense = 0;
    cl->n_used = cl->n_buckets;
    if (!finite || n == 0)
        return; /* a non-finite intermediate state: the hash copes with it */
    double cells = 1;
    for (size_t i = 0; i < d; i++) {
        cl->cmin[i] = cell_coord(lo[i], cl->inv_h);
        cl->cmax[i] = cell_coord(hi[i], cl->inv_h);
        cells *= (double)(cl->cmax[i] - cl->cmin[i]) + 1.0;
    }
    if (cells > (double)cl->n_buckets)
        return;
    cl->dense = 1;
    cl->n_used = (uint32_t)cells;
    cl->stride[0] = 1;
    cl->stride[1] = (uint64_t)(cl->cmax[0] - cl->cmin[0] + 1);
    cl->stride[2] = cl->stride[1] * (uint64_t)(cl->cmax[1] - cl->cmin[1] + 1);
}

cdyn_status cdyn__cell_list_init(cdyn__cell_list *cl, const cdyn_allocator *a, int dim,
                                 uint32_t cap, int with_radii)
{
    memset(cl, 0, sizeof *cl);
    uint32_t nb = 2;
    while (nb < 4u * (uint64_t)cap && nb < 0x80000000u)
        nb *= 2;
    size_t d = (size_t)dim;
    uint32_t *bucket = cdyn__alloc_array(a, cap, sizeof *bucket);
    uint32_t *start = cdyn__alloc_array(a, (size_t)nb + 1, sizeof *start);
    uint32_t *order = cdyn__alloc_array(a, cap, sizeof *order);
    double *pos = cdyn__mul_overflows(cap, d) ? NULL
                                              : cdyn__alloc_array(a, (size_t)cap * d, sizeof *pos);
    double *rad = with_radii ? cdyn__alloc_array(a, cap, sizeof *rad) : NULL;
    if (!bucket || !start || !order || !pos || (with_radii && !rad)) {
        cdyn__free_array(a, bucket, cap, sizeof *bucket);
        cdyn__free_array(a, start, (size_t)nb + 1, sizeof *start);
        cdyn__free_array(a, order, cap, sizeof *order);
        cdyn__free_array(a, pos, (size_t)cap * d, sizeof *pos);
        cdyn__free_array(a, rad, cap, sizeof *rad);
        return CDYN_ERR_NO_MEMORY;
    }
    cl->dim = dim;
    cl->cap = cap;
    cl->n_buckets = nb;
    cl->bucket = bucket;
    cl->start = start;
    cl->order = order;
    cl->pos = pos;
    cl->rad = rad;
    return CDYN_OK;
}

void cdyn__cell_list_free(cdyn__cell_list *cl, const cdyn_allocator *a)
{
    size_t d = (size_t)cl->dim, cap = cl->cap;
    cdyn__free_array(a, cl->bucket, cap, sizeof *cl->bucket);
    cdyn__free_array(a, cl->start, (size_t)cl->n_buckets + 1, sizeof *cl->start);
    cdyn__free_array(a, cl->order, cap, sizeof *cl->order);
    cdyn__free_array(a, cl->pos, cap * d, sizeof *cl->pos);
    cdyn__free_array(a, cl->rad, cap, sizeof *cl->rad);
    memset(cl, 0, sizeof *cl);
}

void cdyn__cell_list_build(cdyn__cell_list *cl, uint32_t n, const uint32_t *slot,
                           const double *x, const double *rad, double cutoff)
{
    const int dim = cl->dim;
    const size_t d = (size_t)dim;
    if (rad) {
        double rmax = 0;
        for (uint32_t k = 0; k < n; k++)
            rmax = rad[k] > rmax ? rad[k] : rmax;
        cutoff = 2.0 * rmax;
    }
    cl->n = n;
    cl->cutoff = cutoff;
    cl->h = cell_side(cutoff > 0 ? cutoff : 1.0);
    cl->inv_h = 1.0 / cl->h;
    const double inv_h = cl->inv_h;
    choose_indexing(cl, n, slot, x);
    const uint32_t nb = cl->n_used;

    /* Count members per bucket. */
    uint32_t *start = cl->start;
    memset(start, 0, ((size_t)nb + 1) * sizeof *start);
    for (uint32_t k = 0; k < n; k++) {
        const double *xk = x + (size_t)slot[k] * d;
        int64_t c[3] = {0, 0, 0};
        for (size_t i = 0; i < d; i++)
            c[i] = cell_coord(xk[i], inv_h);
        uint32_t b = bucket_of(cl, c);
        cl->bucket[k] = b;
        start[b]++;
    }
    /* Exclusive prefix sums: start[b] = first sorted position of bucket b. */
    uint32_t sum = 0;
    for (uint32_t b = 0; b <= nb; b++) {
        uint32_t c = start[b];
        start[b] = sum;
        sum += c;
    }
    /* Stable placement; start[b] advances to the end of bucket b. */
    for (uint32_t k = 0; k < n; k++) {
        uint32_t q = start[cl->bucket[k]]++;
        const double *xk = x + (size_t)slot[k] * d;
        cl->order[q] = k;
        for (size_t i = 0; i < d; i++)
            cl->pos[q * d + i] = xk[i];
        if (rad)
            cl->rad[q] = rad[k];
    }
    /* Shift back: start[b] = end of bucket b - 1 = start of bucket b. */
    for (uint32_t b = nb; b > 0; b--)
        start[b] = start[b - 1];
    start[0] = 0;
}

/* Visits (p, q) when within the cutoff; xp, rp: position and radius of p. */
static inline void candidate(const cdyn__cell_list *cl, uint32_t p, uint32_t q, const double *xp,
                      double rp, cdyn__cell_visit_fn visit, void *ctx)
{
    const size_t d = (size_t)cl->dim;
    const double *xq = cl->pos + q * d;
    double dx[3] = {xq[0] - xp[0], xq[1] - xp[1], 0.0};
    double r2 = dx[0] * dx[0] + dx[1] * dx[1];
    if (d == 3) {
        dx[2] = xq[2] - xp[2];
        r2 += dx[2] * dx[2];
    }
    double rc = cl->rad ? rp + cl->rad[q] : cl->cutoff;
    if (r2 < rc * rc)
        visit(ctx, p, q, dx, r2, rc);
}

/* Dense buckets: one cell each, neighbours at fixed bucket offsets. For
 * each occupied cell, the occupied cells of its half shell are gathered
 * once; then each member meets the later members of its own cell and the
 * members of those cells. */
static void for_pairs_dense(const cdyn__cell_list *cl, cdyn__cell_visit_fn visit, void *ctx)
{
    const int dim = cl->dim;
    const size_t d = (size_t)dim;
    const uint32_t *start = cl->start;
    const int n_off = dim == 3 ? 13 : 4;
    const int64_t ext[3] = {cl->cmax[0] - cl->cmin[0], cl->cmax[1] - cl->cmin[1],
                            dim == 3 ? cl->cmax[2] - cl->cmin[2] : 0};
    int off[13][3];
    uint64_t lin[13];
    for (int o = 0; o < n_off; o++) {
        for (int i = 0; i < 3; i++)
            off[o][i] = dim == 3 ? HALF3[o][i] : i < 2 ? HALF2[o][i] : 0;
        lin[o] = (uint64_t)(int64_t)off[o][0] + (uint64_t)(int64_t)off[o][1] * cl->stride[1] +
                 (uint64_t)(int64_t)off[o][2] * (dim == 3 ? cl->stride[2] : 0);
    }
    int64_t c[3] = {0, 0, 0}; /* coordinates of bucket b in the box, row-major */
    for (uint32_t b = 0; b < cl->n_used && start[b] < cl->n; b++) {
        if (b > 0 && ++c[0] > ext[0]) {
            c[0] = 0;
            if (++c[1] > ext[1]) {
                c[1] = 0;
                c[2]++;
            }
        }
        const uint32_t p0 = start[b], p1 = start[b + 1];
        if (p0 == p1)
            continue;
        uint32_t q0[13], q1[13];
        int m = 0;
        const int edge = c[0] == 0 || c[0] == ext[0] || c[1] == 0 || c[1] == ext[1] ||
                         (dim == 3 && (c[2] == 0 || c[2] == ext[2]));
        for (int o = 0; o < n_off; o++) {
            if (edge) { /* some neighbours fall outside the box */
                int inside = 1;
                for (int i = 0; i < dim; i++) {
                    int64_t ci = c[i] + off[o][i];
                    inside &= ci >= 0 && ci <= ext[i];
                }
                if (!inside)
                    continue;
            }
            uint32_t nbk = (uint32_t)((uint64_t)b + lin[o]);
            if (start[nbk] < start[nbk + 1]) {
                q0[m] = start[nbk];
                q1[m] = start[nbk + 1];
                m++;
            }
        }
        for (uint32_t p = p0; p < p1; p++) {
            const double *xp = cl->pos + p * d;
            const double rp = cl->rad ? cl->rad[p] : 0.0;
            for (uint32_t q = p + 1; q < p1; q++)
                candidate(cl, p, q, xp, rp, visit, ctx);
            for (int j = 0; j < m; j++)
                for (uint32_t q = q0[j]; q < q1[j]; q++)
                    candidate(cl, p, q, xp, rp, visit, ctx);
        }
    }
}

/* Cell coordinates of sorted position q (recomputed from its position:
 * the same values the build hashed). */
static void cell_of(const cdyn__cell_list *cl, uint32_t q, int64_t c[3])
{
    const size_t d = (size_t)cl->dim;
    c[2] = 0;
    for (size_t i = 0; i < d; i++)
        c[i] = cell_coord(cl->pos[q * d + i], cl->inv_h);
}

static int same_cell(const int64_t *a, const int64_t *b, int dim)
{
    return a[0] == b[0] && a[1] == b[1] && (dim == 2 || a[2] == b[2]);
}

/* Hashed buckets: a bucket may hold several cells, so each member looks up
 * its own neighbour cells and compares coordinates. */
static void for_pairs_hashed(const cdyn__cell_list *cl, cdyn__cell_visit_fn visit, void *ctx)
{
    const int dim = cl->dim;
    const size_t d = (size_t)dim;
    const uint32_t *start = cl->start;
    const int n_off = dim == 3 ? 13 : 4;
    for (uint32_t b = 0; b < cl->n_buckets; b++) {
        for (uint32_t p = start[b], end = start[b + 1]; p < end; p++) {
            int64_t cp[3], cq[3];
            cell_of(cl, p, cp);
            const double *xp = cl->pos + p * d;
            const double rp = cl->rad ? cl->rad[p] : 0.0;
            /* The own cell: later members of the same bucket. */
            for (uint32_t q = p + 1; q < end; q++) {
                cell_of(cl, q, cq);
                if (same_cell(cp, cq, dim))
                    candidate(cl, p, q, xp, rp, visit, ctx);
            }
            /* The half shell of neighbour cells. */
            for (int o = 0; o < n_off; o++) {
                int64_t nc[3] = {cp[0], cp[1], cp[2]};
                for (int i = 0; i < dim; i++)
                    nc[i] += dim == 3 ? HALF3[o][i] : HALF2[o][i];
                uint32_t nbk = bucket_of(cl, nc);
                for (uint32_t q = start[nbk], qe = start[nbk + 1]; q < qe; q++) {
                    cell_of(cl, q, cq);
                    if (same_cell(nc, cq, dim))
                        candidate(cl, p, q, xp, rp, visit, ctx);
                }
            }
        }
    }
}

void cdyn__cell_list_for_pairs(const cdyn__cell_list *cl, cdyn__cell_visit_fn visit, void *ctx)
{
    if (cl->n == 0)
        return;
    if (cl->dense)
        for_pairs_dense(cl, visit, ctx);
    else
        for_pairs_hashed(cl, visit, ctx);
}
