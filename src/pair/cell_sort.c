/* The counting sort of a cell-list build on the host's threads
 * (cell_list.h): the same order as the serial sort, entry for entry.
 *
 * The buckets are cut into slabs of consecutive buckets, one per block of
 * members (at most CDYN__CELL_MAX_SLABS). Each block counts its members
 * per slab; the calling thread turns the counts into each (block, slab)'s
 * first place in a scratch array, slab by slab and within a slab block by
 * block; each block then writes its members there, in member order. So a
 * slab's members sit together, in ascending member order, where the sorted
 * order puts that slab (its buckets follow the previous slab's), and each
 * slab's own counting sort, a stable one, places them as the serial sort
 * does. */
#include <string.h>

#include "pair/cell_list.h"

typedef struct sort_job {
    cdyn__cell_list *cl;
    const uint32_t *slot;
    const double *x, *rad;
    uint32_t n, blocks, slabs;
    uint32_t first[CDYN__CELL_MAX_SLABS + 1]; /* each slab's first sorted position */
} sort_job;

/* Slab s holds buckets [bound(s), bound(s + 1)), bound(s) = s nb / S. */
static uint32_t bound(const sort_job *j, uint32_t s)
{
    return (uint32_t)((uint64_t)s * j->cl->n_used / j->slabs);
}

/* The slab of bucket b: the largest s with s nb / S <= b. */
static uint32_t slab_of(const sort_job *j, uint32_t b)
{
    return (uint32_t)((((uint64_t)b + 1) * j->slabs - 1) / j->cl->n_used);
}

static void members(const sort_job *j, uint32_t blk, uint32_t *k0, uint32_t *k1)
{
    *k0 = blk * CDYN__CELL_BLOCK;
    *k1 = (size_t)(blk + 1) * CDYN__CELL_BLOCK < j->n ? (blk + 1) * CDYN__CELL_BLOCK : j->n;
}

/* Each block's members per slab. */
static void count_task(uint32_t begin, uint32_t end, void *context)
{
    const sort_job *j = context;
    for (uint32_t blk = begin; blk < end; blk++) {
        uint32_t *count = j->cl->slab_at + (size_t)blk * j->slabs, k0, k1;
        memset(count, 0, j->slabs * sizeof *count);
        members(j, blk, &k0, &k1);
        for (uint32_t k = k0; k < k1; k++)
            count[slab_of(j, j->cl->bucket[k])]++;
    }
}

/* Each block's members into the scratch array, grouped by slab. */
static void scatter_task(uint32_t begin, uint32_t end, void *context)
{
    const sort_job *j = context;
    for (uint32_t blk = begin; blk < end; blk++) {
        uint32_t *at = j->cl->slab_at + (size_t)blk * j->slabs, k0, k1;
        members(j, blk, &k0, &k1);
        for (uint32_t k = k0; k < k1; k++)
            j->cl->scratch[at[slab_of(j, j->cl->bucket[k])]++] = k;
    }
}

/* Each slab's counting sort, as the serial one over its buckets. */
static void slab_task(uint32_t begin, uint32_t end, void *context)
{
    const sort_job *j = context;
    cdyn__cell_list *cl = j->cl;
    const size_t d = (size_t)cl->dim;
    uint32_t *start = cl->start;
    for (uint32_t s = begin; s < end; s++) {
        const uint32_t b0 = bound(j, s), b1 = bound(j, s + 1);
        const uint32_t q0 = j->first[s], q1 = j->first[s + 1];
        memset(start + b0, 0, (size_t)(b1 - b0) * sizeof *start);
        for (uint32_t q = q0; q < q1; q++)
            start[cl->bucket[cl->scratch[q]]]++;
        uint32_t sum = q0;
        for (uint32_t b = b0; b < b1; b++) {
            const uint32_t c = start[b];
            start[b] = sum;
            sum += c;
        }
        for (uint32_t q = q0; q < q1; q++) {
            const uint32_t k = cl->scratch[q];
            const uint32_t p = start[cl->bucket[k]]++;
            const double *xk = j->x + (j->slot ? (size_t)j->slot[k] : (size_t)k) * d;
            cl->order[p] = k;
            for (size_t i = 0; i < d; i++)
                cl->pos[p * d + i] = xk[i];
            if (j->rad)
                cl->rad[p] = j->rad[k];
        }
        /* Back from the ends of the buckets to their starts. */
        for (uint32_t b = b1; b-- > b0 + 1;)
            start[b] = start[b - 1];
        if (b1 > b0)
            start[b0] = q0;
    }
}

bool cdyn__cell_sort_parallel(cdyn__cell_list *cl, uint32_t n, const uint32_t *slot,
                              const double *x, const double *rad, const cdyn__tasks *tasks)
{
    const uint32_t blocks = (n + CDYN__CELL_BLOCK - 1) / CDYN__CELL_BLOCK;
    if (!tasks || blocks < 2 || cl->n_used < blocks ||
        !cdyn__tasks_would_split(tasks, blocks, (double)n, CDYN__CELL_PARALLEL))
        return false;
    sort_job j = {.cl = cl, .slot = slot, .x = x, .rad = rad, .n = n, .blocks = blocks};
    j.slabs = blocks < CDYN__CELL_MAX_SLABS ? blocks : CDYN__CELL_MAX_SLABS;
    cdyn__tasks_run(tasks, blocks, 1, (double)n, 0.0, count_task, &j);
    /* Slab by slab, block by block: each (block, slab)'s first place. */
    uint32_t at = 0;
    for (uint32_t s = 0; s < j.slabs; s++) {
        j.first[s] = at;
        for (uint32_t blk = 0; blk < blocks; blk++) {
            uint32_t *c = cl->slab_at + (size_t)blk * j.slabs + s;
            const uint32_t count = *c;
            *c = at;
            at += count;
        }
    }
    j.first[j.slabs] = at;
    cdyn__tasks_run(tasks, blocks, 1, (double)n, 0.0, scatter_task, &j);
    cdyn__tasks_run(tasks, j.slabs, 1, (double)n, 0.0, slab_task, &j);
    cl->start[cl->n_used] = n;
    return true;
}
