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

/* The cell of coordinate @p x along axis @p i of the last build. */
static int64_t axis_coord(const cdyn__cell_list *cl, int i, double x)
{
    if (!cl->periodic[i])
        return cell_coord(x, cl->inv_h);
    double v = (x - cl->lo[i]) * cl->inv_hk[i];
    if (!(v >= 0)) /* also NaN */
        return 0;
    int64_t c = v < (double)cl->nc[i] ? (int64_t)v : cl->nc[i] - 1;
    return c;
}

int64_t cdyn__cell_count(double len, double cutoff)
{
    double cells = floor(len / cell_side(cutoff));
    return cells >= 1e9 ? (int64_t)1000000000 : cells < 1 ? 1 : (int64_t)cells;
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

/* The members' bounding box and whether all are finite, in ranges of
 * members (on the host's threads when many): minima, maxima and an "and"
 * are the same in any order. */
#define BOUND_RANGES 64u

typedef struct bounds_job {
    const uint32_t *slot;
    const double *x;
    uint32_t n, ranges;
    size_t d;
    double lo[BOUND_RANGES][3], hi[BOUND_RANGES][3];
    int finite[BOUND_RANGES];
} bounds_job;

static void bounds_task(uint32_t begin, uint32_t end, void *context)
{
    bounds_job *j = context;
    const size_t d = j->d;
    for (uint32_t r = begin; r < end; r++) {
        const uint32_t k0 = (uint32_t)((uint64_t)r * j->n / j->ranges);
        const uint32_t k1 = (uint32_t)((uint64_t)(r + 1) * j->n / j->ranges);
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        int finite = 1;
        for (uint32_t k = k0; k < k1; k++) {
            const double *xk = j->x + (j->slot ? (size_t)j->slot[k] : (size_t)k) * d;
            for (size_t i = 0; i < d; i++) {
                double v = xk[i];
                finite &= isfinite(v) != 0;
                lo[i] = v < lo[i] ? v : lo[i];
                hi[i] = v > hi[i] ? v : hi[i];
            }
        }
        memcpy(j->lo[r], lo, sizeof lo);
        memcpy(j->hi[r], hi, sizeof hi);
        j->finite[r] = finite;
    }
}

/* Chooses between the row-major index of the bounding box (dense) and the
 * hash: dense when every member is finite and the box spans at most
 * n_buckets cells. */
static void choose_indexing(cdyn__cell_list *cl, uint32_t n, const uint32_t *slot,
                            const double *x, const cdyn__tasks *tasks)
{
    const size_t d = (size_t)cl->dim;
    bounds_job job = {.slot = slot, .x = x, .n = n, .d = d};
    const uint32_t blocks = n / CDYN__CELL_BLOCK + 1u;
    job.ranges = blocks < BOUND_RANGES ? blocks : BOUND_RANGES;
    if (tasks)
        cdyn__tasks_run(tasks, job.ranges, 1, (double)n, CDYN__CELL_PARALLEL, bounds_task, &job);
    else
        bounds_task(0, job.ranges, &job);
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    int finite = 1;
    for (uint32_t r = 0; r < job.ranges; r++) {
        finite &= job.finite[r];
        for (size_t i = 0; i < d; i++) {
            lo[i] = job.lo[r][i] < lo[i] ? job.lo[r][i] : lo[i];
            hi[i] = job.hi[r][i] > hi[i] ? job.hi[r][i] : hi[i];
        }
    }
    cl->dense = 0;
    cl->n_used = cl->n_buckets;
    if (!finite || n == 0)
        return; /* a non-finite intermediate state: the hash copes with it */
    double cells = 1;
    for (size_t i = 0; i < d; i++) {
        if (cl->periodic[i]) { /* the whole axis, positions being in the box */
            cl->cmin[i] = 0;
            cl->cmax[i] = cl->nc[i] - 1;
        } else {
            cl->cmin[i] = cell_coord(lo[i], cl->inv_h);
            cl->cmax[i] = cell_coord(hi[i], cl->inv_h);
        }
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

/* The entries of the sort's table for @p cap members: a row of slabs
 * per block. */
static size_t slab_table_len(uint32_t cap)
{
    const size_t blocks = ((size_t)cap + CDYN__CELL_BLOCK - 1) / CDYN__CELL_BLOCK;
    return (blocks > 0 ? blocks : 1) * CDYN__CELL_MAX_SLABS;
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
    const size_t slab_len = slab_table_len(cap);
    uint32_t *scratch = cdyn__alloc_array(a, cap, sizeof *scratch);
    uint32_t *slab_at = cdyn__alloc_array(a, slab_len, sizeof *slab_at);
    if (!bucket || !start || !order || !pos || (with_radii && !rad) || !scratch || !slab_at) {
        cdyn__free_array(a, bucket, cap, sizeof *bucket);
        cdyn__free_array(a, start, (size_t)nb + 1, sizeof *start);
        cdyn__free_array(a, order, cap, sizeof *order);
        cdyn__free_array(a, pos, (size_t)cap * d, sizeof *pos);
        cdyn__free_array(a, rad, cap, sizeof *rad);
        cdyn__free_array(a, scratch, cap, sizeof *scratch);
        cdyn__free_array(a, slab_at, slab_len, sizeof *slab_at);
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
    cl->scratch = scratch;
    cl->slab_at = slab_at;
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
    cdyn__free_array(a, cl->scratch, cap, sizeof *cl->scratch);
    cdyn__free_array(a, cl->slab_at, slab_table_len(cl->cap), sizeof *cl->slab_at);
    memset(cl, 0, sizeof *cl);
}


typedef struct bucket_job {
    cdyn__cell_list *cl;
    const uint32_t *slot;
    const double *x;
    uint32_t n;
} bucket_job;

/* The buckets of the members of blocks [begin, end). */
static void bucket_task(uint32_t begin, uint32_t end, void *context)
{
    const bucket_job *j = context;
    cdyn__cell_list *cl = j->cl;
    const size_t d = (size_t)cl->dim;
    const uint32_t k0 = begin * CDYN__CELL_BLOCK;
    const uint32_t k1 = (size_t)end * CDYN__CELL_BLOCK < j->n ? end * CDYN__CELL_BLOCK : j->n;
    for (uint32_t k = k0; k < k1; k++) {
        const double *xk = j->x + (j->slot ? (size_t)j->slot[k] : (size_t)k) * d;
        int64_t c[3] = {0, 0, 0};
        for (size_t i = 0; i < d; i++)
            c[i] = axis_coord(cl, (int)i, xk[i]);
        cl->bucket[k] = bucket_of(cl, c);
    }
}

void cdyn__cell_list_build(cdyn__cell_list *cl, uint32_t n, const uint32_t *slot,
                           const double *x, const double *rad, double cutoff, double extra,
                           const cdyn__box *box, const cdyn__tasks *tasks)
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
    cl->extra = extra;
    const double reach = rad ? cutoff + extra : cutoff;
    cl->h = cell_side(reach > 0 ? reach : 1.0);
    cl->inv_h = 1.0 / cl->h;
    cl->any_periodic = cl->all_pairs = false;
    for (int i = 0; i < 3; i++) {
        cl->periodic[i] = box && i < dim && box->periodic[i];
        if (!cl->periodic[i])
            continue;
        cl->any_periodic = true;
        cl->lo[i] = box->lo[i];
        cl->len[i] = box->len[i];
        cl->half[i] = box->half[i];
        cl->nc[i] = cdyn__cell_count(box->len[i], reach > 0 ? reach : 1.0);
        cl->inv_hk[i] = (double)cl->nc[i] * box->inv_len[i];
        cl->all_pairs = cl->all_pairs || cl->nc[i] < 3;
    }
    choose_indexing(cl, n, slot, x, tasks);
    const uint32_t nb = cl->n_used;

    /* Each member's bucket (in blocks on the host's threads when many),
     * then the count per bucket. */
    const bucket_job job = {cl, slot, x, n};
    const uint32_t blocks = (n + CDYN__CELL_BLOCK - 1) / CDYN__CELL_BLOCK;
    if (tasks)
        cdyn__tasks_run(tasks, blocks, 1, (double)n, CDYN__CELL_PARALLEL, bucket_task, (void *)&job);
    else
        bucket_task(0, blocks, (void *)&job);
    if (cdyn__cell_sort_parallel(cl, n, slot, x, rad, tasks))
        return;
    uint32_t *start = cl->start;
    memset(start, 0, ((size_t)nb + 1) * sizeof *start);
    for (uint32_t k = 0; k < n; k++)
        start[cl->bucket[k]]++;
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
        const double *xk = x + (slot ? (size_t)slot[k] : (size_t)k) * d;
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
    double rc = cl->rad ? rp + cl->rad[q] + cl->extra : cl->cutoff;
    if (r2 < rc * rc)
        visit(ctx, p, q, dx, r2, rc, CDYN__NO_SHIFT);
}

/* As candidate, q seen through the faces: shifted by @p sh (box lengths
 * times -1, 0, +1 per axis; code @p code). */
static void candidate_shifted(const cdyn__cell_list *cl, uint32_t p, uint32_t q,
                              const double *xp, double rp, const double *sh, int code,
                              cdyn__cell_visit_fn visit, void *ctx)
{
    const size_t d = (size_t)cl->dim;
    const double *xq = cl->pos + q * d;
    double dx[3] = {0, 0, 0}, r2 = 0;
    for (size_t i = 0; i < d; i++) {
        dx[i] = xq[i] - xp[i] + sh[i];
        r2 += dx[i] * dx[i];
    }
    double rc = cl->rad ? rp + cl->rad[q] + cl->extra : cl->cutoff;
    if (r2 < rc * rc)
        visit(ctx, p, q, dx, r2, rc, code);
}

/* A neighbour cell c + o: wraps the periodic axes (writing the shift of
 * each and its code) and returns false when an open axis leaves the box of
 * a dense build (never for a hashed one). */
static bool neighbour_cell(const cdyn__cell_list *cl, const int64_t *c, const int *o,
                           int64_t *nc, double *sh, int *code)
{
    *code = 0;
    int mult = 1;
    for (int i = 0; i < 3; i++, mult *= 3) {
        int s = 0;
        nc[i] = c[i] + (i < cl->dim ? o[i] : 0);
        sh[i] = 0;
        if (i < cl->dim && cl->periodic[i]) {
            if (nc[i] < 0) {
                nc[i] += cl->nc[i];
                s = -1;
            } else if (nc[i] >= cl->nc[i]) {
                nc[i] -= cl->nc[i];
                s = 1;
            }
            sh[i] = s * cl->len[i];
        } else if (cl->dense && i < cl->dim && (nc[i] < cl->cmin[i] || nc[i] > cl->cmax[i])) {
            return false;
        }
        *code += (s + 1) * mult;
    }
    return true;
}

/* The half shell's offsets. */
static const int *half_offset(int dim, int o)
{
    static const int zero[3] = {0, 0, 0};
    (void)zero;
    return dim == 3 ? HALF3[o] : HALF2[o];
}

/* Dense buckets: one cell each, neighbours at fixed bucket offsets. For
 * each occupied cell, the occupied cells of its half shell are gathered
 * once; then each member meets the later members of its own cell and the
 * members of those cells. Along a periodic axis the neighbours of the
 * first and last cells are found through the faces. */
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
        int codes[13];
        double shifts[13][3];
        int m = 0;
        const int edge = c[0] == 0 || c[0] == ext[0] || c[1] == 0 || c[1] == ext[1] ||
                         (dim == 3 && (c[2] == 0 || c[2] == ext[2]));
        for (int o = 0; o < n_off; o++) {
            uint32_t nbk;
            codes[m] = CDYN__NO_SHIFT;
            if (edge && cl->any_periodic) {
                int64_t at[3] = {c[0] + cl->cmin[0], c[1] + cl->cmin[1], c[2] + cl->cmin[2]};
                int64_t nc[3];
                if (!neighbour_cell(cl, at, off[o], nc, shifts[m], &codes[m]))
                    continue;
                nc[0] -= cl->cmin[0], nc[1] -= cl->cmin[1], nc[2] -= cl->cmin[2];
                nbk = (uint32_t)((uint64_t)nc[0] + (uint64_t)nc[1] * cl->stride[1] +
                                 (dim == 3 ? (uint64_t)nc[2] * cl->stride[2] : 0));
            } else {
                if (edge) { /* some neighbours fall outside the box */
                    int inside = 1;
                    for (int i = 0; i < dim; i++) {
                        int64_t ci = c[i] + off[o][i];
                        inside &= ci >= 0 && ci <= ext[i];
                    }
                    if (!inside)
                        continue;
                }
                nbk = (uint32_t)((uint64_t)b + lin[o]);
            }
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
            for (int j = 0; j < m; j++) {
                if (codes[j] == CDYN__NO_SHIFT)
                    for (uint32_t q = q0[j]; q < q1[j]; q++)
                        candidate(cl, p, q, xp, rp, visit, ctx);
                else
                    for (uint32_t q = q0[j]; q < q1[j]; q++)
                        candidate_shifted(cl, p, q, xp, rp, shifts[j], codes[j], visit, ctx);
            }
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
        c[i] = axis_coord(cl, (int)i, cl->pos[q * d + i]);
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
                int64_t nc[3];
                double sh[3];
                int code;
                neighbour_cell(cl, cp, half_offset(dim, o), nc, sh, &code);
                uint32_t nbk = bucket_of(cl, nc);
                for (uint32_t q = start[nbk], qe = start[nbk + 1]; q < qe; q++) {
                    cell_of(cl, q, cq);
                    if (!same_cell(nc, cq, dim))
                        continue;
                    if (code == CDYN__NO_SHIFT)
                        candidate(cl, p, q, xp, rp, visit, ctx);
                    else
                        candidate_shifted(cl, p, q, xp, rp, sh, code, visit, ctx);
                }
            }
        }
    }
}

/* Fewer than 3 cells along a periodic axis: every pair, through its
 * minimum image (positions are in the box, so one shift at most). */
static void for_pairs_all(const cdyn__cell_list *cl, cdyn__cell_visit_fn visit, void *ctx)
{
    const int dim = cl->dim;
    const size_t d = (size_t)dim;
    for (uint32_t p = 0; p < cl->n; p++) {
        const double *xp = cl->pos + p * d;
        const double rp = cl->rad ? cl->rad[p] : 0.0;
        for (uint32_t q = p + 1; q < cl->n; q++) {
            const double *xq = cl->pos + q * d;
            double sh[3] = {0, 0, 0};
            int code = 0, mult = 1;
            for (int i = 0; i < 3; i++, mult *= 3) {
                int s = 0;
                if (i < dim && cl->periodic[i]) {
                    double dx = xq[i] - xp[i];
                    s = dx > cl->half[i] ? -1 : dx < -cl->half[i] ? 1 : 0;
                    sh[i] = s * cl->len[i];
                }
                code += (s + 1) * mult;
            }
            if (code == CDYN__NO_SHIFT)
                candidate(cl, p, q, xp, rp, visit, ctx);
            else
                candidate_shifted(cl, p, q, xp, rp, sh, code, visit, ctx);
        }
    }
}

void cdyn__cell_list_for_pairs(const cdyn__cell_list *cl, cdyn__cell_visit_fn visit, void *ctx)
{
    if (cl->n == 0)
        return;
    if (cl->all_pairs)
        for_pairs_all(cl, visit, ctx);
    else if (cl->dense)
        for_pairs_dense(cl, visit, ctx);
    else
        for_pairs_hashed(cl, visit, ctx);
}
