/* The neighbour list of pair sets (pair/neighbor.h). */
#include "pair/neighbor.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"

cdyn_status cdyn__nlist_init(cdyn__nlist *nl, const cdyn_allocator *a, int dim, uint32_t cap,
                             bool radii)
{
    memset(nl, 0, sizeof *nl);
    const size_t len = (size_t)cap * (size_t)dim;
    nl->dim = dim;
    nl->cap = cap;
    nl->order = cdyn__alloc_array(a, cap, sizeof *nl->order);
    nl->sslot = cdyn__alloc_array(a, cap, sizeof *nl->sslot);
    nl->off = cdyn__alloc_array(a, len, sizeof *nl->off);
    nl->pos = cdyn__alloc_array(a, len, sizeof *nl->pos);
    nl->pos0 = cdyn__alloc_array(a, len, sizeof *nl->pos0);
    nl->fs = cdyn__alloc_array(a, len, sizeof *nl->fs);
    nl->has_sh = cdyn__alloc_array(a, cap, sizeof *nl->has_sh);
    nl->sh_at = cdyn__alloc_array(a, cap, sizeof *nl->sh_at);
    nl->sh_count = cdyn__alloc_array(a, cap, sizeof *nl->sh_count);
    nl->srad = radii ? cdyn__alloc_array(a, cap, sizeof *nl->srad) : NULL;
    nl->start = cdyn__alloc_array(a, (size_t)cap + 1, sizeof *nl->start);
    if (!nl->order || !nl->sslot || !nl->off || !nl->pos || !nl->pos0 || !nl->fs ||
        !nl->has_sh || !nl->sh_at || !nl->sh_count ||
        (radii && !nl->srad) || !nl->start || cdyn__mul_overflows(cap, (size_t)dim)) {
        cdyn__nlist_free(nl, a);
        return CDYN_ERR_NO_MEMORY;
    }
    return CDYN_OK;
}

void cdyn__nlist_free(cdyn__nlist *nl, const cdyn_allocator *a)
{
    const size_t len = (size_t)nl->cap * (size_t)nl->dim;
    cdyn__free_array(a, nl->order, nl->cap, sizeof *nl->order);
    cdyn__free_array(a, nl->sslot, nl->cap, sizeof *nl->sslot);
    cdyn__free_array(a, nl->off, len, sizeof *nl->off);
    cdyn__free_array(a, nl->pos, len, sizeof *nl->pos);
    cdyn__free_array(a, nl->pos0, len, sizeof *nl->pos0);
    cdyn__free_array(a, nl->fs, len, sizeof *nl->fs);
    cdyn__free_array(a, nl->has_sh, nl->cap, sizeof *nl->has_sh);
    cdyn__free_array(a, nl->sh_at, nl->cap, sizeof *nl->sh_at);
    cdyn__free_array(a, nl->sh_count, nl->cap, sizeof *nl->sh_count);
    cdyn__free_array(a, nl->srad, nl->cap, sizeof *nl->srad);
    cdyn__free_array(a, nl->start, (size_t)nl->cap + 1, sizeof *nl->start);
    cdyn__free_array(a, nl->nbr, nl->nbr_cap, sizeof *nl->nbr);
    cdyn__free_array(a, nl->sh, 2 * nl->sh_cap, sizeof *nl->sh);
    cdyn__free_array(a, nl->sh_code, nl->sh_cap, sizeof *nl->sh_code);
    cdyn__free_array(a, nl->sh_end, 2 * nl->sh_cap, sizeof *nl->sh_end);
    cdyn__free_array(a, nl->sh_force, nl->sh_cap * (size_t)nl->dim, sizeof *nl->sh_force);
    memset(nl, 0, sizeof *nl);
}

cdyn_status cdyn__nlist_reserve(cdyn__nlist *nl, const cdyn_allocator *a, size_t entries,
                                size_t shifted)
{
    if (entries > nl->nbr_cap) {
        uint32_t *nbr = cdyn__alloc_array(a, entries, sizeof *nbr);
        if (!nbr)
            return CDYN_ERR_NO_MEMORY;
        if (nl->valid && nl->start[nl->n]) /* a list with no pair has no array */
            memcpy(nbr, nl->nbr, nl->start[nl->n] * sizeof *nbr);
        cdyn__free_array(a, nl->nbr, nl->nbr_cap, sizeof *nl->nbr);
        nl->nbr = nbr;
        nl->nbr_cap = entries;
    }
    if (shifted > nl->sh_cap) {
        /* (sh_end holds indices of sh as uint32_t.) */
        const bool fits = shifted <= UINT32_MAX / 2 &&
                          !cdyn__mul_overflows(shifted, (size_t)nl->dim);
        uint32_t *sh = fits ? cdyn__alloc_array(a, 2 * shifted, sizeof *sh) : NULL;
        uint32_t *ends = fits ? cdyn__alloc_array(a, 2 * shifted, sizeof *ends) : NULL;
        double *force =
            fits ? cdyn__alloc_array(a, shifted * (size_t)nl->dim, sizeof *force) : NULL;
        uint8_t *code = cdyn__alloc_array(a, shifted, sizeof *code);
        if (!sh || !ends || !force || !code) {
            cdyn__free_array(a, sh, 2 * shifted, sizeof *sh);
            cdyn__free_array(a, ends, 2 * shifted, sizeof *ends);
            cdyn__free_array(a, force, fits ? shifted * (size_t)nl->dim : 0, sizeof *force);
            cdyn__free_array(a, code, shifted, sizeof *code);
            return CDYN_ERR_NO_MEMORY;
        }
        if (nl->valid && nl->n_sh) {
            memcpy(sh, nl->sh, 2 * nl->n_sh * sizeof *sh);
            memcpy(ends, nl->sh_end, 2 * nl->n_sh * sizeof *ends);
            memcpy(code, nl->sh_code, nl->n_sh * sizeof *code);
        }
        cdyn__free_array(a, nl->sh, 2 * nl->sh_cap, sizeof *nl->sh);
        cdyn__free_array(a, nl->sh_end, 2 * nl->sh_cap, sizeof *nl->sh_end);
        cdyn__free_array(a, nl->sh_force, nl->sh_cap * (size_t)nl->dim, sizeof *nl->sh_force);
        cdyn__free_array(a, nl->sh_code, nl->sh_cap, sizeof *nl->sh_code);
        nl->sh = sh;
        nl->sh_end = ends;
        nl->sh_force = force;
        nl->sh_code = code;
        nl->sh_cap = shifted;
    }
    nl->grow = false;
    return CDYN_OK;
}

/* The gather of members [q0, q1): positions into pos, the largest squared
 * displacement since the build returned (NaN displacements are passed
 * over). */
static double gather_range(cdyn__nlist *nl, const double *x, uint32_t q0, uint32_t q1)
{
    const uint32_t *sslot = nl->sslot;
    const double *p0 = nl->pos0, *off = nl->off;
    double *pos = nl->pos;
    double worst = 0;
    if (nl->dim == 3 && !nl->periodic) {
        for (uint32_t q = q0; q < q1; q++) {
            const double *xs = x + 3 * (size_t)sslot[q];
            double a = xs[0], b = xs[1], c = xs[2];
            pos[3 * q] = a;
            pos[3 * q + 1] = b;
            pos[3 * q + 2] = c;
            a -= p0[3 * q], b -= p0[3 * q + 1], c -= p0[3 * q + 2];
            double d2 = a * a + b * b + c * c;
            worst = d2 > worst ? d2 : worst;
        }
    } else if (nl->dim == 3) {
        for (uint32_t q = q0; q < q1; q++) {
            const double *xs = x + 3 * (size_t)sslot[q];
            double a = xs[0] + off[3 * q], b = xs[1] + off[3 * q + 1], c = xs[2] + off[3 * q + 2];
            pos[3 * q] = a;
            pos[3 * q + 1] = b;
            pos[3 * q + 2] = c;
            a -= p0[3 * q], b -= p0[3 * q + 1], c -= p0[3 * q + 2];
            double d2 = a * a + b * b + c * c;
            worst = d2 > worst ? d2 : worst;
        }
    } else {
        for (uint32_t q = q0; q < q1; q++) {
            const double *xs = x + 2 * (size_t)sslot[q];
            double a = xs[0], b = xs[1];
            if (nl->periodic)
                a += off[2 * q], b += off[2 * q + 1];
            pos[2 * q] = a;
            pos[2 * q + 1] = b;
            a -= p0[2 * q], b -= p0[2 * q + 1];
            double d2 = a * a + b * b;
            worst = d2 > worst ? d2 : worst;
        }
    }
    return worst;
}

/* Members per item of the parallel gather, and the count from which it
 * goes to the host's threads. */
#define GATHER_BLOCK 16384u
#define PARALLEL_GATHER 65536.0
#define GATHER_MAX_BLOCKS 1024u

typedef struct gather_job {
    cdyn__nlist *nl;
    const double *x;
    double worst[GATHER_MAX_BLOCKS];
} gather_job;

static void gather_task(uint32_t begin, uint32_t end, void *context)
{
    gather_job *j = context;
    for (uint32_t b = begin; b < end; b++) {
        uint32_t q0 = b * GATHER_BLOCK;
        uint32_t q1 = j->nl->n - q0 > GATHER_BLOCK ? q0 + GATHER_BLOCK : j->nl->n;
        j->worst[b] = gather_range(j->nl, j->x, q0, q1);
    }
}

bool cdyn__nlist_gather(cdyn__nlist *nl, const double *x, uint64_t epoch,
                        const cdyn__tasks *tasks)
{
    if (!nl->valid || nl->epoch != epoch)
        return false;
    const uint32_t n = nl->n;
    const double half = 0.5 * nl->skin_used, thr = half * half;
    const uint32_t blocks = (n + GATHER_BLOCK - 1) / GATHER_BLOCK;
    double worst = 0;
    if (tasks && blocks <= GATHER_MAX_BLOCKS &&
        cdyn__tasks_would_split(tasks, blocks, (double)n, PARALLEL_GATHER)) {
        /* The largest of the blocks' largest: a maximum, the same in any
         * order. */
        gather_job job;
        job.nl = nl;
        job.x = x;
        cdyn__tasks_run(tasks, blocks, 1, (double)n, 0.0, gather_task, &job);
        for (uint32_t b = 0; b < blocks; b++)
            worst = job.worst[b] > worst ? job.worst[b] : worst;
    } else {
        worst = gather_range(nl, x, 0, n);
    }
    /* NaN positions compare false here: the state is then caught as
     * non-finite by the step. */
    return worst <= thr;
}

/* The positions of members [k0, k1) wrapped into the box: out[k] = x[slot[k]]
 * + off[k], off[k] (may be NULL) the box lengths added. */
static void wrap_range(const cdyn__box *box, int dim, uint32_t k0, uint32_t k1,
                       const uint32_t *slot, const double *x, double *out, double *off)
{
    const size_t d = (size_t)dim;
    for (uint32_t k = k0; k < k1; k++) {
        const double *xk = x + (size_t)slot[k] * d;
        for (size_t i = 0; i < d; i++) {
            double o = 0;
            if (box->periodic[i] && isfinite(xk[i])) {
                double cells = cdyn__box_cells(box, (int)i, xk[i]);
                o = -(cells * box->len[i]);
                /* rounding at the upper face: one more length down */
                if (xk[i] + o >= box->lo[i] + box->len[i])
                    o -= box->len[i];
            }
            out[k * d + i] = xk[i] + o;
            if (off)
                off[k * d + i] = o;
        }
    }
}

void cdyn__shift_of(int code, const double *len, double *sh)
{
    for (int i = 0; i < 3; i++, code /= 3)
        sh[i] = (double)(code % 3 - 1) * len[i];
}

void cdyn__nlist_index(cdyn__nlist *nl, uint32_t span, bool sorted)
{
    const uint32_t n = nl->n;
    /* The ring of the fast kernel (pair_fast.c): longer than the farthest
     * reach of an unshifted entry past its member. */
    if (span == UINT32_MAX) {
        span = 0;
        sorted = true;
        for (uint32_t p = 0; p < n; p++) {
            uint32_t last = p;
            for (uint32_t e = nl->start[p]; e < nl->start[p + 1]; e++) {
                const uint32_t q = nl->nbr[e];
                span = q - p > span ? q - p : span;
                sorted &= q > last;
                last = q;
            }
        }
    }
    nl->sorted = sorted;
    uint32_t ring = 64;
    while (ring <= span && ring < (UINT32_C(1) << 31))
        ring *= 2;
    nl->ring_mask = ring <= nl->cap ? ring - 1 : UINT32_MAX;
    nl->span = span;
    /* Each member's ends of the pairs through faces, in pair order: the
     * order in which the kernels add their forces. */
    memset(nl->has_sh, 0, n * sizeof *nl->has_sh);
    for (size_t i = 0; i < 2 * nl->n_sh; i++) {
        const uint32_t m = nl->sh[i];
        if (!nl->has_sh[m]) {
            nl->has_sh[m] = 1;
            nl->sh_count[m] = 0;
            nl->sh_at[m] = UINT32_MAX;
        }
        nl->sh_count[m]++;
    }
    uint32_t at = 0;
    for (size_t i = 0; i < 2 * nl->n_sh; i++) {
        const uint32_t m = nl->sh[i];
        if (nl->sh_at[m] == UINT32_MAX) {
            nl->sh_at[m] = at;
            at += nl->sh_count[m];
            nl->sh_count[m] = 0;
        }
        nl->sh_end[nl->sh_at[m] + nl->sh_count[m]++] = (uint32_t)i;
    }
}

typedef struct build_ctx {
    cdyn__nlist *nl;
    const cdyn__cell_list *cl;
    const cdyn__exclusions *ex;
    size_t len, n_sh;
    uint32_t next_p; /* start[] is written for sorted positions below it */
} build_ctx;

static void record(void *vctx, uint32_t p, uint32_t q, const double *d, double r2, double rc,
                   int code)
{
    (void)d, (void)r2, (void)rc;
    build_ctx *c = vctx;
    cdyn__nlist *nl = c->nl;
    if (c->ex->active && cdyn__excluded(c->ex, c->cl->order[p], c->cl->order[q]))
        return;
    if (code != CDYN__NO_SHIFT) {
        if (c->n_sh < nl->sh_cap) {
            nl->sh[2 * c->n_sh] = p;
            nl->sh[2 * c->n_sh + 1] = q;
            nl->sh_code[c->n_sh] = (uint8_t)code;
        }
        c->n_sh++;
        return;
    }
    while (c->next_p <= p) /* the search runs by ascending p */
        nl->start[c->next_p++] = (uint32_t)(c->len < UINT32_MAX ? c->len : UINT32_MAX);
    if (c->len < nl->nbr_cap)
        nl->nbr[c->len] = q;
    c->len++;
}

void cdyn__nlist_wrap(const cdyn__box *box, int dim, uint32_t n, const uint32_t *slot,
                      const double *x, double *out, double *off)
{
    wrap_range(box, dim, 0, n, slot, x, out, off);
}

/* The per-member passes of a build, in blocks of GATHER_BLOCK members on
 * the host's threads when the members are many: the wrap into the box
 * before the cell sort, and the sorted arrays after the search. Each
 * member's values are written by its own block. */
typedef struct build_job {
    cdyn__nlist *nl;
    const cdyn__cell_list *cl;
    const cdyn__box *box;
    const uint32_t *slot;
    const double *x, *rad;
    uint32_t n;
    bool settle; /* the sorted arrays (else the wrap) */
} build_job;

/* Sorted positions [q0, q1): order, slot, radius, the box lengths moved by
 * (wrapped at fs, by member) and the positions at the build. */
static void settle_range(const build_job *j, uint32_t q0, uint32_t q1)
{
    cdyn__nlist *nl = j->nl;
    const cdyn__cell_list *cl = j->cl;
    const size_t d = (size_t)nl->dim;
    for (uint32_t q = q0; q < q1; q++) {
        uint32_t k = cl->order[q];
        nl->order[q] = k;
        nl->sslot[q] = j->slot[k];
        if (j->rad)
            nl->srad[q] = cl->rad[q];
        if (nl->periodic)
            for (size_t i = 0; i < d; i++)
                nl->off[q * d + i] = nl->fs[(size_t)k * d + i];
    }
    const size_t a = (size_t)q0 * d, len = (size_t)(q1 - q0) * d * sizeof *nl->pos0;
    memcpy(nl->pos0 + a, cl->pos + a, len);
    memcpy(nl->pos + a, cl->pos + a, len);
}

static void build_task(uint32_t begin, uint32_t end, void *context)
{
    const build_job *j = context;
    for (uint32_t b = begin; b < end; b++) {
        const uint32_t q0 = b * GATHER_BLOCK;
        const uint32_t q1 = j->n - q0 > GATHER_BLOCK ? q0 + GATHER_BLOCK : j->n;
        if (j->settle)
            settle_range(j, q0, q1);
        else /* pos and fs serve as the members' wrapped positions and offsets */
            wrap_range(j->box, j->nl->dim, q0, q1, j->slot, j->x, j->nl->pos, j->nl->fs);
    }
}

static void build_pass(build_job *j, const cdyn__tasks *tasks, bool settle)
{
    j->settle = settle;
    const uint32_t blocks = (j->n + GATHER_BLOCK - 1) / GATHER_BLOCK;
    if (tasks)
        cdyn__tasks_run(tasks, blocks, 1, (double)j->n, PARALLEL_GATHER, build_task, j);
    else
        build_task(0, blocks, j);
}

bool cdyn__nlist_build(cdyn__nlist *nl, cdyn__cell_list *cl, const cdyn__box *box, uint32_t n,
                       const uint32_t *slot, const double *rad, const double *x, double cutoff,
                       const cdyn__exclusions *ex, uint64_t epoch, const cdyn__tasks *tasks)
{
    nl->valid = false;
    nl->periodic = box && box->any_periodic;
    build_job job = {nl, cl, box, slot, x, rad, n, false};
    const uint32_t *from = slot;
    const double *at = x;
    if (nl->periodic) {
        build_pass(&job, tasks, false);
        from = NULL;
        at = nl->pos;
        for (int i = 0; i < 3; i++)
            nl->len[i] = box->len[i];
    }
    const cdyn__box *pbox = nl->periodic ? box : NULL;
    build_ctx c = {.nl = nl, .cl = cl, .ex = ex};
    const double reach = cutoff + nl->skin_used;
    cdyn__cell_list_build(cl, n, from, at, rad, rad ? cutoff : reach, nl->skin_used, pbox,
                          tasks);
    uint32_t span = UINT32_MAX;
    bool sorted = false;
    if (cdyn__nlist_rows_apply(cl, reach)) { /* searched row by row (neighbor_rows.c) */
        cdyn__nlist_rows(nl, cl, ex, reach, tasks, &c.len, &c.n_sh, &span, &sorted);
    } else {
        cdyn__cell_list_for_pairs(cl, record, &c);
        while (c.next_p <= n)
            nl->start[c.next_p++] = (uint32_t)(c.len < UINT32_MAX ? c.len : UINT32_MAX);
    }
    if (c.len > nl->nbr_cap || c.n_sh > nl->sh_cap || c.len >= UINT32_MAX) {
        nl->need = c.len;
        nl->need_sh = c.n_sh;
        nl->grow = true;
        return false;
    }
    nl->n = n;
    nl->n_sh = c.n_sh;
    nl->ascending = cl->dense || cl->all_pairs;
    cdyn__nlist_index(nl, span, sorted);
    build_pass(&job, tasks, true);
    nl->epoch = epoch;
    nl->valid = true;
    nl->builds++;
    return true;
}

void cdyn__nlist_for_pairs(const cdyn__nlist *nl, cdyn__cell_visit_fn visit, void *ctx)
{
    const size_t d = (size_t)nl->dim;
    const double *pos = nl->pos;
    for (uint32_t p = 0; p < nl->n; p++) {
        const double *xp = pos + p * d;
        for (uint32_t e = nl->start[p]; e < nl->start[p + 1]; e++) {
            uint32_t q = nl->nbr[e];
            const double *xq = pos + (size_t)q * d;
            double dx[3] = {xq[0] - xp[0], xq[1] - xp[1], 0.0};
            double r2 = dx[0] * dx[0] + dx[1] * dx[1];
            if (d == 3) {
                dx[2] = xq[2] - xp[2];
                r2 += dx[2] * dx[2];
            }
            visit(ctx, p, q, dx, r2, 0.0, CDYN__NO_SHIFT);
        }
    }
    for (size_t i = 0; i < nl->n_sh; i++) {
        uint32_t p = nl->sh[2 * i], q = nl->sh[2 * i + 1];
        double sh[3], dx[3] = {0, 0, 0}, r2 = 0;
        cdyn__shift_of(nl->sh_code[i], nl->len, sh);
        for (size_t k = 0; k < d; k++) {
            dx[k] = pos[(size_t)q * d + k] - pos[(size_t)p * d + k] + sh[k];
            r2 += dx[k] * dx[k];
        }
        visit(ctx, p, q, dx, r2, 0.0, nl->sh_code[i]);
    }
}
