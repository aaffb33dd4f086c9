/* The neighbour list built row by row (pair/neighbor.h).
 *
 * In a dense cell build the cells are numbered row by row (x fastest), so
 * the three cells of a row of the half shell are one run of sorted
 * positions: a member compares itself with the rest of its own cell and
 * the next cell (one run), then with four rows of three cells (2-D: one),
 * each a run of memory in order, with no per-cell lookups and no call per
 * pair. Rows through a periodic face are split where they wrap and carry
 * the shift of that face. Cells narrower than the reach would mean fewer
 * candidates but many more, mostly empty, runs: slower here. */
#include <string.h>

#include "pair/neighbor.h"

#define REACH 1 /* cells of side >= R: a row spans -1 .. +1 */
#define MAX_RUNS 40

typedef struct run {
    uint32_t q0, q1;
    int code; /* CDYN__NO_SHIFT or a shift code */
    double sh[3];
} run;

/* A cell coordinate c + o along axis k: wrapped (shift s in box lengths)
 * for a periodic axis, or false when it leaves an open axis's range. */
static bool along(const cdyn__cell_list *cl, int k, int64_t c, int o, int64_t *out, int *s)
{
    int64_t n = cl->cmax[k] - cl->cmin[k] + 1, v = c + o;
    *s = 0;
    if (v >= 0 && v < n) {
        *out = v;
        return true;
    }
    if (!cl->periodic[k])
        return false;
    *s = v < 0 ? -1 : 1;
    *out = v < 0 ? v + n : v - n;
    return true;
}

/* Appends the runs of cells x0 .. x1 (relative to cx, clipped or wrapped
 * along x) of the row (y, z) with shifts sy, sz. */
static int add_row(const cdyn__cell_list *cl, int64_t cx, int x0, int x1, int64_t y, int64_t z,
                   int sy, int sz, run *runs, int m)
{
    const int64_t n = cl->cmax[0] - cl->cmin[0] + 1;
    const uint64_t base = (uint64_t)y * cl->stride[1] + (uint64_t)z * cl->stride[2];
    /* The pieces of [cx + x0, cx + x1]: below 0, inside, above n - 1. */
    int64_t lo = cx + x0, hi = cx + x1;
    struct {
        int64_t a, b;
        int sx;
    } piece[3] = {{lo, hi < -1 ? hi : -1, -1}, {lo > 0 ? lo : 0, hi < n - 1 ? hi : n - 1, 0},
                  {lo > n ? lo : n, hi, 1}};
    for (int i = 0; i < 3; i++) {
        int64_t a = piece[i].a, b = piece[i].b;
        if (a > b)
            continue;
        if (piece[i].sx) {
            if (!cl->periodic[0])
                continue;
            a -= piece[i].sx * n;
            b -= piece[i].sx * n;
        }
        uint32_t q0 = cl->start[base + (uint64_t)a], q1 = cl->start[base + (uint64_t)b + 1];
        if (q0 == q1)
            continue;
        run *r = &runs[m++];
        r->q0 = q0;
        r->q1 = q1;
        int sx = piece[i].sx;
        r->code = (sx + 1) + 3 * (sy + 1) + 9 * (sz + 1);
        r->sh[0] = sx * cl->len[0];
        r->sh[1] = sy * cl->len[1];
        r->sh[2] = sz * cl->len[2];
    }
    return m;
}

/* The runs cell (cx, cy, cz) looks into, its own cell excepted. */
static int cell_runs(const cdyn__cell_list *cl, int64_t cx, int64_t cy, int64_t cz, run *runs)
{
    int m = add_row(cl, cx, 1, REACH, cy, cz, 0, 0, runs, 0);
    const int dz_max = cl->dim == 3 ? REACH : 0;
    for (int dz = 0; dz <= dz_max; dz++) {
        int64_t z = 0;
        int sz = 0;
        if (cl->dim == 3 && !along(cl, 2, cz, dz, &z, &sz))
            continue;
        for (int dy = dz == 0 ? 1 : -REACH; dy <= REACH; dy++) {
            int64_t y;
            int sy;
            if (!along(cl, 1, cy, dy, &y, &sy))
                continue;
            m = add_row(cl, cx, -REACH, REACH, y, z, sy, sz, runs, m);
        }
    }
    return m;
}

bool cdyn__nlist_rows_apply(const cdyn__cell_list *cl, double reach)
{
    if (!cl->dense || cl->all_pairs || cl->rad)
        return false;
    for (int k = 0; k < cl->dim; k++) {
        if (cl->periodic[k] && cl->nc[k] < 2 * REACH + 1)
            return false;
        double side = cl->periodic[k] ? 1.0 / cl->inv_hk[k] : cl->h;
        if (!(REACH * side >= reach))
            return false;
    }
    return true;
}

/* Where the candidates found go: the list's room, and what was found. */
typedef struct sink {
    cdyn__nlist *nl;
    const cdyn__cell_list *cl;
    const cdyn__exclusions *ex; /* NULL when none is active */
    size_t len, n_sh;
} sink;

static void keep_shifted(sink *k, uint32_t p, uint32_t q, int code)
{
    cdyn__nlist *nl = k->nl;
    if (k->ex && cdyn__excluded(k->ex, k->cl->order[p], k->cl->order[q]))
        return;
    if (k->n_sh < nl->sh_cap) {
        nl->sh[2 * k->n_sh] = p;
        nl->sh[2 * k->n_sh + 1] = q;
        nl->sh_code[k->n_sh] = (uint8_t)code;
    }
    k->n_sh++;
}

/* The unshifted candidates q0 .. q1 of p (3-D, then 2-D): tight loops, the
 * rare accepted pair stored out of line. */
static void plain3(sink *k, const double *pos, uint32_t p, uint32_t q0, uint32_t q1, double r2max)
{
    const double xp = pos[3 * p], yp = pos[3 * p + 1], zp = pos[3 * p + 2];
    cdyn__nlist *nl = k->nl;
    for (uint32_t q = q0; q < q1; q++) {
        const double dx = pos[3 * q] - xp, dy = pos[3 * q + 1] - yp, dz = pos[3 * q + 2] - zp;
        if (dx * dx + dy * dy + dz * dz < r2max) {
            if (k->ex && cdyn__excluded(k->ex, k->cl->order[p], k->cl->order[q]))
                continue;
            if (k->len < nl->nbr_cap)
                nl->nbr[k->len] = q;
            k->len++;
        }
    }
}

static void plain2(sink *k, const double *pos, uint32_t p, uint32_t q0, uint32_t q1, double r2max)
{
    const double xp = pos[2 * p], yp = pos[2 * p + 1];
    cdyn__nlist *nl = k->nl;
    for (uint32_t q = q0; q < q1; q++) {
        const double dx = pos[2 * q] - xp, dy = pos[2 * q + 1] - yp;
        if (dx * dx + dy * dy < r2max) {
            if (k->ex && cdyn__excluded(k->ex, k->cl->order[p], k->cl->order[q]))
                continue;
            if (k->len < nl->nbr_cap)
                nl->nbr[k->len] = q;
            k->len++;
        }
    }
}

static void through_faces(sink *k, const double *pos, size_t d, uint32_t p, const run *r,
                          double r2max)
{
    const double *xp = pos + (size_t)p * d;
    for (uint32_t q = r->q0; q < r->q1; q++) {
        const double *xq = pos + (size_t)q * d;
        double dx = xq[0] - xp[0] + r->sh[0], dy = xq[1] - xp[1] + r->sh[1];
        double dz = d == 3 ? xq[2] - xp[2] + r->sh[2] : 0.0;
        if (dx * dx + dy * dy + dz * dz < r2max)
            keep_shifted(k, p, q, r->code);
    }
}

void cdyn__nlist_rows(cdyn__nlist *nl, const cdyn__cell_list *cl, const cdyn__exclusions *ex,
                      double reach, size_t *len_out, size_t *sh_out)
{
    const size_t d = (size_t)cl->dim;
    const double *pos = cl->pos;
    const double r2max = reach * reach;
    const int64_t nx = cl->cmax[0] - cl->cmin[0] + 1, ny = cl->cmax[1] - cl->cmin[1] + 1;
    const int64_t nz = cl->dim == 3 ? cl->cmax[2] - cl->cmin[2] + 1 : 1;
    sink k = {.nl = nl, .cl = cl, .ex = ex && ex->active ? ex : NULL};
    uint32_t next_p = 0;
    run runs[MAX_RUNS];
    uint64_t b = 0;
    for (int64_t cz = 0; cz < nz; cz++)
        for (int64_t cy = 0; cy < ny; cy++)
            for (int64_t cx = 0; cx < nx; cx++, b++) {
                const uint32_t p0 = cl->start[b], p1 = cl->start[b + 1];
                if (p0 == p1)
                    continue;
                const int m = cell_runs(cl, cx, cy, cz, runs);
                for (uint32_t p = p0; p < p1; p++) {
                    while (next_p <= p)
                        nl->start[next_p++] = (uint32_t)(k.len < UINT32_MAX ? k.len : UINT32_MAX);
                    /* the own cell's later members, then the runs */
                    if (d == 3)
                        plain3(&k, pos, p, p + 1, p1, r2max);
                    else
                        plain2(&k, pos, p, p + 1, p1, r2max);
                    for (int j = 0; j < m; j++) {
                        if (runs[j].code != CDYN__NO_SHIFT)
                            through_faces(&k, pos, d, p, &runs[j], r2max);
                        else if (d == 3)
                            plain3(&k, pos, p, runs[j].q0, runs[j].q1, r2max);
                        else
                            plain2(&k, pos, p, runs[j].q0, runs[j].q1, r2max);
                    }
                }
            }
    while (next_p <= cl->n)
        nl->start[next_p++] = (uint32_t)(k.len < UINT32_MAX ? k.len : UINT32_MAX);
    *len_out = k.len;
    *sh_out = k.n_sh;
}
