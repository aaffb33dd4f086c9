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

void cdyn__nlist_rows(cdyn__nlist *nl, const cdyn__cell_list *cl, const cdyn__exclusions *ex,
                      double reach, size_t *len_out, size_t *sh_out)
{
    const size_t d = (size_t)cl->dim;
    const double *pos = cl->pos;
    const double r2max = reach * reach;
    const int64_t nx = cl->cmax[0] - cl->cmin[0] + 1, ny = cl->cmax[1] - cl->cmin[1] + 1;
    const int64_t nz = cl->dim == 3 ? cl->cmax[2] - cl->cmin[2] + 1 : 1;
    const bool excl = ex && ex->active;
    size_t len = 0, n_sh = 0;
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
                        nl->start[next_p++] = (uint32_t)(len < UINT32_MAX ? len : UINT32_MAX);
                    const double *xp = pos + p * d;
                    /* the own cell's later members, then the runs */
                    for (int j = -1; j < m; j++) {
                        uint32_t q0 = j < 0 ? p + 1 : runs[j].q0, q1 = j < 0 ? p1 : runs[j].q1;
                        const bool plain = j < 0 || runs[j].code == CDYN__NO_SHIFT;
                        const double *sh = j < 0 ? NULL : runs[j].sh;
                        for (uint32_t q = q0; q < q1; q++) {
                            const double *xq = pos + (size_t)q * d;
                            double dx = xq[0] - xp[0], dy = xq[1] - xp[1];
                            double dz = d == 3 ? xq[2] - xp[2] : 0.0;
                            if (!plain)
                                dx += sh[0], dy += sh[1], dz += sh[2];
                            if (!(dx * dx + dy * dy + dz * dz < r2max))
                                continue;
                            if (excl && cdyn__excluded(ex, cl->order[p], cl->order[q]))
                                continue;
                            if (plain) {
                                if (len < nl->nbr_cap)
                                    nl->nbr[len] = q;
                                len++;
                            } else {
                                if (n_sh < nl->sh_cap) {
                                    nl->sh[2 * n_sh] = p;
                                    nl->sh[2 * n_sh + 1] = q;
                                    nl->sh_code[n_sh] = (uint8_t)runs[j].code;
                                }
                                n_sh++;
                            }
                        }
                    }
                }
            }
    while (next_p <= cl->n)
        nl->start[next_p++] = (uint32_t)(len < UINT32_MAX ? len : UINT32_MAX);
    *len_out = len;
    *sh_out = n_sh;
}
