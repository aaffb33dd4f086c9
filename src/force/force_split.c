/* Split evaluations: runs of pair forces of a kind that splits (springs)
 * on the host's threads (force/force.h). Two parallel loops:
 *
 *   measure  blocks of generator slots: each generator's force F on its
 *            first end, into a scratch slot of its own;
 *   gather   blocks of particles: each particle adds +F or -F of each of
 *            its generators, in slot order.
 *
 * Serially a particle receives the same additions in the same order (apply
 * adds f_a += F, f_b -= F generator after generator), so the forces have
 * apply's bits; the blocks are fixed by the slots and the particles, never
 * by the workers. The incidence lists are built before the step (they
 * change only with the system), so a step allocates nothing. */
#include "force/force.h"

#include <string.h>

#include "core/alloc.h"
#include "core/system.h"
#include "core/tasks.h"

/* Generators per item of the measuring loop, particles per item of the
 * gathering loop, and the count of generators from which a run goes to the
 * host's threads: a spring costs about ten nanoseconds, a run below the
 * threshold tens of microseconds. */
#define BLOCK_GENERATORS 2048u
#define BLOCK_PARTICLES 2048u
#define PARALLEL_GENERATORS 4096.0

typedef struct split_job {
    const cdyn_system *sys;
    uint32_t first, end;
    double t;
    const double *x, *v;
    double *f;
} split_job;

static void measure_task(uint32_t begin, uint32_t end, void *context)
{
    const split_job *j = context;
    const cdyn_system *sys = j->sys;
    const uint8_t *alive = sys->forces.alive;
    const cdyn__force_ops *ops = sys->force[j->first].ops;
    uint32_t s0 = j->first + begin * BLOCK_GENERATORS;
    uint32_t s1 = (size_t)end * BLOCK_GENERATORS < (size_t)(j->end - j->first)
                      ? j->first + end * BLOCK_GENERATORS
                      : j->end;
    for (uint32_t s = s0; s < s1; s++)
        if (alive[s])
            ops->measure(sys, &sys->force[s], j->t, j->x, j->v,
                         sys->force_split + (size_t)s * CDYN__FORCE_SPLIT);
}

static void gather_task(uint32_t begin, uint32_t end, void *context)
{
    const split_job *j = context;
    const cdyn_system *sys = j->sys;
    const size_t d = (size_t)sys->dim;
    const uint32_t *start = sys->split_start, *inc = sys->split_inc;
    const double *scratch = sys->force_split;
    uint32_t p0 = begin * BLOCK_PARTICLES;
    uint32_t p1 = (size_t)end * BLOCK_PARTICLES < sys->split_particles ? end * BLOCK_PARTICLES
                                                                        : sys->split_particles;
    for (uint32_t p = p0; p < p1; p++) {
        double *fp = j->f + (size_t)p * d;
        for (uint32_t e = start[p]; e < start[p + 1]; e++) {
            const uint32_t s = inc[e] >> 1;
            if (s < j->first || s >= j->end)
                continue;
            const double *out = scratch + (size_t)s * CDYN__FORCE_SPLIT;
            if (out[CDYN__FORCE_SPLIT - 1] == 0)
                continue;
            if (inc[e] & 1u)
                for (size_t k = 0; k < d; k++)
                    fp[k] -= out[k];
            else
                for (size_t k = 0; k < d; k++)
                    fp[k] += out[k];
        }
    }
}

cdyn_status cdyn__forces_apply_run(const cdyn_system *sys, uint32_t first, double t,
                                   const double *x, const double *v, double *f, uint32_t *next)
{
    const cdyn__force *g = sys->force;
    const uint8_t *alive = sys->forces.alive;
    const cdyn__force_ops *ops = g[first].ops;
    const uint32_t n = sys->forces.count;
    uint32_t end = first, live = 0;
    for (; end < n && (!alive[end] || g[end].ops == ops); end++)
        live += alive[end];
    *next = end;
    const bool ready = sys->split_valid && sys->split_revision == sys->revision &&
                       (size_t)end * CDYN__FORCE_SPLIT <= sys->force_split_cap &&
                       sys->split_particles == sys->particles.count;
    if (!ready || !cdyn__tasks_would_split(&sys->tasks, 2, (double)live, PARALLEL_GENERATORS)) {
        for (uint32_t s = first; s < end; s++) {
            cdyn_status st;
            if (alive[s] && (st = ops->apply(sys, &g[s], s, t, x, v, f)))
                return st;
        }
        return CDYN_OK;
    }
    split_job job = {sys, first, end, t, x, v, f};
    uint32_t blocks = (end - first + BLOCK_GENERATORS - 1) / BLOCK_GENERATORS;
    cdyn__tasks_run(&sys->tasks, blocks, 1, (double)live, 0.0, measure_task, &job);
    blocks = (sys->split_particles + BLOCK_PARTICLES - 1) / BLOCK_PARTICLES;
    cdyn__tasks_run(&sys->tasks, blocks, 1, (double)live, 0.0, gather_task, &job);
    return CDYN_OK;
}

/* Grows *arr from *cap to at least @p need elements of @p size bytes
 * (contents not kept). */
static bool grow(cdyn_system *sys, void **arr, uint32_t *cap, size_t need, size_t size)
{
    if (*cap >= need)
        return true;
    if (need > UINT32_MAX)
        return false;
    void *p = cdyn__alloc_array(&sys->alloc, need, size);
    if (!p)
        return false;
    cdyn__free_array(&sys->alloc, *arr, *cap, size);
    *arr = p;
    *cap = (uint32_t)need;
    return true;
}

cdyn_status cdyn__forces_split_reserve(cdyn_system *sys)
{
    if (!sys->tasks.parallel)
        return CDYN_OK;
    if (sys->split_valid && sys->split_revision == sys->revision)
        return CDYN_OK;
    sys->split_valid = false;
    const uint32_t nf = sys->forces.count, np = sys->particles.count;
    uint32_t splits = 0;
    for (uint32_t i = 0; i < nf; i++)
        splits += sys->forces.alive[i] && sys->force[i].ops->measure;
    if ((double)splits < PARALLEL_GENERATORS || nf > UINT32_MAX / 2)
        return CDYN_OK;
    if (!grow(sys, (void **)&sys->force_split, &sys->force_split_cap,
              (size_t)sys->forces.capacity * CDYN__FORCE_SPLIT, sizeof(double)) ||
        !grow(sys, (void **)&sys->split_inc, &sys->split_inc_cap, 2 * (size_t)splits,
              sizeof(uint32_t)) ||
        !grow(sys, (void **)&sys->split_start, &sys->split_start_cap,
              (size_t)sys->particles.capacity + 1, sizeof(uint32_t)))
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "step: out of memory");
    /* Counts, starts, then the entries in slot order. */
    uint32_t *start = sys->split_start, *inc = sys->split_inc;
    memset(start, 0, ((size_t)np + 1) * sizeof *start);
    for (uint32_t i = 0; i < nf; i++) {
        const cdyn__force *g = &sys->force[i];
        if (!sys->forces.alive[i] || !g->ops->measure)
            continue;
        uint32_t e[2];
        g->ops->ends(g, e);
        start[e[0] + 1]++;
        start[e[1] + 1]++;
    }
    for (uint32_t p = 0; p < np; p++)
        start[p + 1] += start[p];
    for (uint32_t i = 0; i < nf; i++) {
        const cdyn__force *g = &sys->force[i];
        if (!sys->forces.alive[i] || !g->ops->measure)
            continue;
        uint32_t e[2];
        g->ops->ends(g, e);
        inc[start[e[0]]++] = i << 1;
        inc[start[e[1]]++] = i << 1 | 1u;
    }
    /* The fill moved each start to the next particle's: shift back. */
    for (uint32_t p = np; p > 0; p--)
        start[p] = start[p - 1];
    start[0] = 0;
    sys->split_particles = np;
    sys->split_revision = sys->revision;
    sys->split_valid = true;
    return CDYN_OK;
}

void cdyn__forces_split_free(cdyn_system *sys)
{
    cdyn__free_array(&sys->alloc, sys->force_split, sys->force_split_cap, sizeof(double));
    cdyn__free_array(&sys->alloc, sys->split_inc, sys->split_inc_cap, sizeof(uint32_t));
    cdyn__free_array(&sys->alloc, sys->split_start, sys->split_start_cap, sizeof(uint32_t));
    sys->force_split = NULL;
    sys->split_inc = sys->split_start = NULL;
    sys->force_split_cap = sys->split_inc_cap = sys->split_start_cap = 0;
    sys->split_valid = false;
}
