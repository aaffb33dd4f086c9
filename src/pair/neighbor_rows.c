/* The neighbour list built row by row (pair/neighbor.h).
 *
 * In a dense cell build the cells are numbered row by row (x fastest), so
 * the three cells of a row of the half shell are one run of sorted
 * positions: a member compares itself with the rest of its own cell and
 * the next cell (one run), then with four rows of three cells (2-D: one),
 * each a run of memory in order, with no per-cell lookups and no call per
 * pair. Rows through a periodic face are split where they wrap and carry
 * the shift of that face. Cells narrower than the reach would mean fewer
 * candidates but many more, mostly empty, runs: slower here.
 *
 * On the host's threads the cells are cut into blocks of consecutive
 * cells. Each block writes its members' rows into its own region of the
 * list's room (a share of the room in proportion to its members), then the
 * calling thread closes the gaps in block order. One more item finds the
 * pairs through the faces meanwhile, in a pass of its own over the cells at
 * the faces. The list is the serial build's, entry for entry, whatever the
 * blocks. */
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

/* Where the candidates found go: the room (a region of the list's, from
 * nbr, cap entries), and what was found. */
typedef struct sink {
    cdyn__nlist *nl;
    const cdyn__cell_list *cl;
    const cdyn__exclusions *ex; /* NULL when none is active */
    uint32_t *nbr;
    size_t cap, base; /* the region: cap entries from base */
    size_t len, n_sh;
    uint32_t span; /* the farthest reach q - p of an entry kept */
    uint32_t last; /* the last entry of the member in hand (the member itself at first) */
    bool unsorted; /* some member's entries are not in ascending order */
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

/* Keeps the unshifted pair (p, q) unless excluded: stored as far as the
 * room goes, counted, its reach and order noted. */
static void keep(sink *k, uint32_t p, uint32_t q)
{
    if (k->ex && cdyn__excluded(k->ex, k->cl->order[p], k->cl->order[q]))
        return;
    if (k->len < k->cap)
        k->nbr[k->len] = q;
    k->len++;
    k->span = q - p > k->span ? q - p : k->span;
    k->unsorted |= q <= k->last;
    k->last = q;
}

/* The unshifted candidates q0 .. q1 of p (3-D, then 2-D): tight loops, the
 * rare accepted pair stored out of line. */
static void plain3(sink *k, const double *pos, uint32_t p, uint32_t q0, uint32_t q1, double r2max)
{
    const double xp = pos[3 * p], yp = pos[3 * p + 1], zp = pos[3 * p + 2];
    for (uint32_t q = q0; q < q1; q++) {
        const double dx = pos[3 * q] - xp, dy = pos[3 * q + 1] - yp, dz = pos[3 * q + 2] - zp;
        if (dx * dx + dy * dy + dz * dz < r2max) {
            keep(k, p, q);
        }
    }
}

static void plain2(sink *k, const double *pos, uint32_t p, uint32_t q0, uint32_t q1, double r2max)
{
    const double xp = pos[2 * p], yp = pos[2 * p + 1];
    for (uint32_t q = q0; q < q1; q++) {
        const double dx = pos[2 * q] - xp, dy = pos[2 * q + 1] - yp;
        if (dx * dx + dy * dy < r2max) {
            keep(k, p, q);
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

/* Which runs a pass takes: all, those inside the box, those through its
 * faces. */
enum { RUNS_ALL, RUNS_INSIDE, RUNS_FACES };

typedef struct grid {
    int64_t nx, ny, nz;
    double r2max;
} grid;

static grid grid_of(const cdyn__cell_list *cl, double reach)
{
    grid g = {cl->cmax[0] - cl->cmin[0] + 1, cl->cmax[1] - cl->cmin[1] + 1,
              cl->dim == 3 ? cl->cmax[2] - cl->cmin[2] + 1 : 1, reach * reach};
    return g;
}

/* Whether cell (cx, cy, cz) has a neighbour through a periodic face. */
static bool at_face(const cdyn__cell_list *cl, const grid *g, int64_t cx, int64_t cy, int64_t cz)
{
    const int64_t c[3] = {cx, cy, cz}, n[3] = {g->nx, g->ny, g->nz};
    for (int k = 0; k < cl->dim; k++)
        if (cl->periodic[k] && (c[k] < REACH || c[k] >= n[k] - REACH))
            return true;
    return false;
}

/* The rows of the members of cells [b0, b1), the runs @p which takes;
 * with RUNS_FACES nothing but the pairs through faces is written, else
 * start[] of those members too (offsets from the sink's base). */
static void cell_rows(sink *k, const grid *g, uint64_t b0, uint64_t b1, int which)
{
    const cdyn__cell_list *cl = k->cl;
    const size_t d = (size_t)cl->dim;
    const double *pos = cl->pos, r2max = g->r2max;
    uint32_t *start = k->nl->start;
    uint32_t next_p = cl->start[b0];
    run runs[MAX_RUNS];
    int64_t cx = (int64_t)(b0 % (uint64_t)g->nx), cy = (int64_t)(b0 / (uint64_t)g->nx % (uint64_t)g->ny),
            cz = (int64_t)(b0 / ((uint64_t)g->nx * (uint64_t)g->ny));
    for (uint64_t b = b0; b < b1; b++) {
        const uint32_t p0 = cl->start[b], p1 = cl->start[b + 1];
        if (p0 != p1 && (which != RUNS_FACES || at_face(cl, g, cx, cy, cz))) {
            const int m = cell_runs(cl, cx, cy, cz, runs);
            for (uint32_t p = p0; p < p1; p++) {
                if (which != RUNS_FACES) {
                    k->last = p;
                    while (next_p <= p) {
                        const size_t at = k->base + k->len;
                        start[next_p++] = (uint32_t)(at < UINT32_MAX ? at : UINT32_MAX);
                    }
                    /* the own cell's later members */
                    if (d == 3)
                        plain3(k, pos, p, p + 1, p1, r2max);
                    else
                        plain2(k, pos, p, p + 1, p1, r2max);
                }
                for (int j = 0; j < m; j++) {
                    if (runs[j].code != CDYN__NO_SHIFT) {
                        if (which != RUNS_INSIDE)
                            through_faces(k, pos, d, p, &runs[j], r2max);
                    } else if (which == RUNS_FACES) {
                        continue;
                    } else if (d == 3) {
                        plain3(k, pos, p, runs[j].q0, runs[j].q1, r2max);
                    } else {
                        plain2(k, pos, p, runs[j].q0, runs[j].q1, r2max);
                    }
                }
            }
        }
        if (++cx == g->nx) {
            cx = 0;
            if (++cy == g->ny) {
                cy = 0;
                cz++;
            }
        }
    }
}

/* ------------------------------------------------------------------------
 * Blocks of cells on the host's threads
 * ------------------------------------------------------------------------ */

/* Members per block at least, blocks at most, and the members from which
 * a build goes to the host's threads. */
#define ROWS_BLOCK 8192u
#define ROWS_MAX_BLOCKS 64u
#define PARALLEL_ROWS 32768.0

typedef struct rows_job {
    cdyn__nlist *nl;
    const cdyn__cell_list *cl;
    const cdyn__exclusions *ex;
    grid g;
    uint64_t cell[ROWS_MAX_BLOCKS + 1]; /* block b: cells [cell[b], cell[b + 1]) */
    size_t base[ROWS_MAX_BLOCKS + 1];   /* and its region of the room */
    size_t len[ROWS_MAX_BLOCKS];        /* the entries it found */
    uint32_t span[ROWS_MAX_BLOCKS];     /* their farthest reach */
    bool unsorted[ROWS_MAX_BLOCKS];     /* a member's entries out of ascending order */
    uint32_t blocks;                    /* item blocks: the pairs through faces */
    size_t n_sh;
} rows_job;

static void rows_task(uint32_t begin, uint32_t end, void *context)
{
    rows_job *j = context;
    for (uint32_t b = begin; b < end; b++) {
        sink k = {.nl = j->nl, .cl = j->cl, .ex = j->ex};
        if (b == j->blocks) {
            /* The last item: the pairs through the faces, in cell order. */
            cell_rows(&k, &j->g, 0, j->cell[j->blocks], RUNS_FACES);
            j->n_sh = k.n_sh;
            continue;
        }
        k.nbr = j->nl->nbr + j->base[b];
        k.cap = j->base[b + 1] - j->base[b];
        k.base = j->base[b];
        cell_rows(&k, &j->g, j->cell[b], j->cell[b + 1], RUNS_INSIDE);
        j->len[b] = k.len;
        j->span[b] = k.span;
        j->unsorted[b] = k.unsorted;
    }
}

/* The first cell whose members start at or after member @p m. */
static uint64_t cell_from(const cdyn__cell_list *cl, uint64_t cells, uint32_t m)
{
    uint64_t lo = 0, hi = cells;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (cl->start[mid] < m)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The build in blocks; false (the list unfinished) when a block's region
 * was too small for its rows. */
static bool rows_blocks(rows_job *j, const cdyn__tasks *tasks, uint32_t blocks, size_t *len_out,
                        size_t *sh_out, uint32_t *span_out, bool *sorted_out)
{
    cdyn__nlist *nl = j->nl;
    const cdyn__cell_list *cl = j->cl;
    const uint32_t n = cl->n;
    const uint64_t cells = (uint64_t)(j->g.nx * j->g.ny * j->g.nz);
    /* A block's share of the room: the share of the entries its members'
     * sorted positions held in the last build (cell order changes little
     * between builds), else its share of the members. */
    const bool last = nl->n == n && nl->start[n] > 0 && nl->start[n] != UINT32_MAX;
    for (uint32_t b = 0; b <= blocks; b++) {
        const uint32_t m = (uint32_t)((uint64_t)n * b / blocks);
        j->cell[b] = b == blocks ? cells : cell_from(cl, cells, m);
        const uint32_t first = cl->start[j->cell[b]];
        const double share = last ? (double)nl->start[first] / (double)nl->start[n]
                                  : (double)first / (double)n;
        j->base[b] = (size_t)((double)nl->nbr_cap * share);
    }
    j->base[blocks] = nl->nbr_cap;
    j->blocks = blocks;
    cdyn__tasks_run(tasks, blocks + 1, 1, (double)n, 0.0, rows_task, j);
    for (uint32_t b = 0; b < blocks; b++)
        if (j->len[b] > j->base[b + 1] - j->base[b])
            return false;
    /* Close the gaps, in block order (a block's entries only move down). */
    size_t at = 0;
    uint32_t span = 0;
    bool unsorted = false;
    for (uint32_t b = 0; b < blocks; b++) {
        const size_t from = j->base[b];
        if (at != from && j->len[b])
            memmove(nl->nbr + at, nl->nbr + from, j->len[b] * sizeof *nl->nbr);
        for (uint32_t p = cl->start[j->cell[b]], p1 = cl->start[j->cell[b + 1]]; p < p1; p++)
            nl->start[p] -= (uint32_t)(from - at);
        at += j->len[b];
        span = j->span[b] > span ? j->span[b] : span;
        unsorted |= j->unsorted[b];
    }
    nl->start[n] = (uint32_t)at;
    *len_out = at;
    *sh_out = j->n_sh;
    *span_out = span;
    *sorted_out = !unsorted;
    return true;
}

void cdyn__nlist_rows(cdyn__nlist *nl, const cdyn__cell_list *cl, const cdyn__exclusions *ex,
                      double reach, const cdyn__tasks *tasks, size_t *len_out, size_t *sh_out,
                      uint32_t *span_out, bool *sorted_out)
{
    const cdyn__exclusions *active = ex && ex->active ? ex : NULL;
    const grid g = grid_of(cl, reach);
    const uint32_t n = cl->n;
    uint32_t blocks = n / ROWS_BLOCK;
    blocks = blocks < ROWS_MAX_BLOCKS ? blocks : ROWS_MAX_BLOCKS;
    if (tasks && nl->nbr_cap > 0 && nl->nbr_cap < UINT32_MAX &&
        cdyn__tasks_would_split(tasks, blocks, (double)n, PARALLEL_ROWS)) {
        rows_job j = {.nl = nl, .cl = cl, .ex = active, .g = g};
        if (rows_blocks(&j, tasks, blocks, len_out, sh_out, span_out, sorted_out))
            return;
        /* A region was too small (members crowded into some blocks): the
         * calling thread builds it again, whole. */
    }
    sink k = {.nl = nl, .cl = cl, .ex = active, .nbr = nl->nbr, .cap = nl->nbr_cap};
    cell_rows(&k, &g, 0, (uint64_t)(g.nx * g.ny * g.nz), RUNS_ALL);
    for (uint32_t p = cl->start[g.nx * g.ny * g.nz]; p <= n; p++)
        nl->start[p] = (uint32_t)(k.len < UINT32_MAX ? k.len : UINT32_MAX);
    *len_out = k.len;
    *sh_out = k.n_sh;
    *span_out = k.span;
    *sorted_out = !k.unsorted;
}
