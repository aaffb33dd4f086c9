/* Split evaluations: runs of generators of a kind that splits (springs)
 * measured on the host's threads, then added on the calling thread in slot
 * order (force/force.h). The blocks are fixed by the slots (never by the
 * workers), and each generator is added exactly as apply would add it, so
 * the forces have apply's bits for any number of workers. */
#include "force/force.h"

#include "core/alloc.h"
#include "core/system.h"
#include "core/tasks.h"

/* Generators per item of the parallel loop, and the count of generators
 * from which a run goes to the host's threads: a spring costs about ten
 * nanoseconds, a run below the threshold tens of microseconds. */
#define BLOCK_GENERATORS 2048u
#define PARALLEL_GENERATORS 4096.0

typedef struct split_job {
    const cdyn_system *sys;
    uint32_t first, end;
    double t;
    const double *x, *v;
} split_job;

static void measure_task(uint32_t begin, uint32_t end, void *context)
{
    const split_job *j = context;
    const cdyn_system *sys = j->sys;
    const uint8_t *alive = sys->forces.alive;
    uint32_t s0 = j->first + begin * BLOCK_GENERATORS;
    uint32_t s1 = end * BLOCK_GENERATORS < j->end - j->first ? j->first + end * BLOCK_GENERATORS
                                                             : j->end;
    for (uint32_t s = s0; s < s1; s++) {
        const cdyn__force *g = &sys->force[s];
        if (alive[s])
            g->ops->measure(sys, g, j->t, j->x, j->v,
                            sys->force_split + (size_t)s * CDYN__FORCE_SPLIT);
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
    if (end > sys->force_split_cap ||
        !cdyn__tasks_would_split(&sys->tasks, 2, (double)live, PARALLEL_GENERATORS)) {
        for (uint32_t s = first; s < end; s++) {
            cdyn_status st;
            if (alive[s] && (st = ops->apply(sys, &g[s], s, t, x, v, f)))
                return st;
        }
        return CDYN_OK;
    }
    split_job job = {sys, first, end, t, x, v};
    uint32_t blocks = (end - first + BLOCK_GENERATORS - 1) / BLOCK_GENERATORS;
    cdyn__tasks_run(&sys->tasks, blocks, 1, (double)live, PARALLEL_GENERATORS, measure_task,
                    &job);
    for (uint32_t s = first; s < end; s++)
        if (alive[s])
            ops->add(sys, &g[s], sys->force_split + (size_t)s * CDYN__FORCE_SPLIT, f);
    return CDYN_OK;
}

cdyn_status cdyn__forces_split_reserve(cdyn_system *sys)
{
    if (!sys->tasks.parallel || sys->force_split_cap >= sys->forces.count)
        return CDYN_OK;
    uint32_t splits = 0;
    for (uint32_t i = 0; i < sys->forces.count; i++)
        splits += sys->forces.alive[i] && sys->force[i].ops->measure;
    if ((double)splits < PARALLEL_GENERATORS)
        return CDYN_OK;
    const uint32_t cap = sys->forces.capacity;
    double *p = cdyn__alloc_array(&sys->alloc, (size_t)cap * CDYN__FORCE_SPLIT, sizeof *p);
    if (!p)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "step: out of memory");
    cdyn__forces_split_free(sys);
    sys->force_split = p;
    sys->force_split_cap = cap;
    return CDYN_OK;
}

void cdyn__forces_split_free(cdyn_system *sys)
{
    cdyn__free_array(&sys->alloc, sys->force_split,
                     (size_t)sys->force_split_cap * CDYN__FORCE_SPLIT, sizeof(double));
    sys->force_split = NULL;
    sys->force_split_cap = 0;
}
