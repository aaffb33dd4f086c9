/* Split evaluations: runs of pair forces of a kind that splits (springs)
 * on the host's threads (force/force.h), in one parallel loop over blocks
 * of particles. Block k lists, in slot order, every generator with an end
 * among its particles; its item measures each one's force F and adds it to
 * the ends it holds (f_a += F at the first, f_b -= F at the second). A
 * generator whose ends lie in two blocks is measured in both, each adding
 * to its own end.
 *
 * Serially a particle receives the same additions in the same order (apply
 * adds f_a += F, f_b -= F generator after generator, in slot order), so the
 * forces have apply's bits; the blocks are fixed by the particles, never by
 * the workers. The lists are built before the step (they change only with
 * the system), so a step allocates nothing. */
#include "force/force.h"

#include <string.h>

#include "core/alloc.h"
#include "core/system.h"
#include "core/tasks.h"

/* Particles per item at least, and the count of generators from which a
 * run goes to the host's threads: a spring costs a few nanoseconds, a run
 * below the threshold some ten microseconds. A block is also at least
 * SPAN_BLOCKS times the farthest reach |a - b| of a spring's slots, so
 * that the springs across its boundary (applied by both blocks) stay a
 * small part of its own: a 3-D grid numbered row by row reaches a layer. */
#define BLOCK_PARTICLES 4096u
#define SPAN_BLOCKS 4u
#define PARALLEL_GENERATORS 4096.0

/* An entry of a block's list: the slot, and which of its ends the block
 * holds. */
#define OWN_FIRST 2u
#define OWN_SECOND 1u

typedef struct split_job {
    const cdyn_system *sys;
    uint32_t first, end;
    double t;
    const double *x, *v;
    double *f;
} split_job;

/* The end of the run that starts at live slot @p first (the slots from
 * there on whose generators are dead or of its kind); *live: its live
 * generators. */
static uint32_t run_end(const cdyn_system *sys, uint32_t first, uint32_t *live)
{
    const cdyn__force_ops *ops = sys->force[first].ops;
    uint32_t end = first;
    *live = 0;
    for (; end < sys->forces.count && (!sys->forces.alive[end] || sys->force[end].ops == ops);
         end++)
        *live += sys->forces.alive[end];
    return end;
}

static void block_task(uint32_t begin, uint32_t end, void *context)
{
    const split_job *j = context;
    const cdyn_system *sys = j->sys;
    const uint32_t *start = sys->split_start;
    const cdyn__force_ops *ops = sys->force[j->first].ops;
    for (uint32_t b = begin; b < end; b++)
        ops->apply_listed(sys, sys->split_inc + start[b], start[b + 1] - start[b], j->first,
                          j->end, j->t, j->x, j->v, j->f);
}

cdyn_status cdyn__forces_apply_run(const cdyn_system *sys, uint32_t first, double t,
                                   const double *x, const double *v, double *f, uint32_t *next)
{
    const cdyn__force_ops *ops = sys->force[first].ops;
    const bool ready = sys->split_valid && sys->split_revision == sys->revision &&
                       sys->split_particles == sys->particles.count;
    /* With the lists: the run's end and live count (kept with the lists for
     * their first run, else counted) and the blocks. */
    uint32_t end = first, live = 0, blocks = 0;
    if (ready) {
        if (first == sys->split_run[0]) {
            end = sys->split_run[1];
            live = sys->split_run[2];
        } else {
            end = run_end(sys, first, &live);
        }
        blocks = (uint32_t)(((size_t)sys->split_particles + sys->split_block - 1) /
                            sys->split_block);
    }
    /* Without lists (too few generators) or too little work: the calling
     * thread's loop. */
    if (!cdyn__tasks_would_split(&sys->tasks, blocks, (double)live, PARALLEL_GENERATORS))
        return ops->apply_run(sys, first, t, x, v, f, next);
    *next = end;
    split_job job = {sys, first, end, t, x, v, f};
    cdyn__tasks_run(&sys->tasks, blocks, 1, (double)live, 0.0, block_task, &job);
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

/* The ends of live generator @p i of a kind that splits, or false. */
static bool split_ends(const cdyn_system *sys, uint32_t i, uint32_t e[2])
{
    const cdyn__force *g = &sys->force[i];
    if (!sys->forces.alive[i] || !g->ops->apply_listed)
        return false;
    g->ops->ends(g, e);
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
        splits += sys->forces.alive[i] && sys->force[i].ops->apply_listed;
    if ((double)splits < PARALLEL_GENERATORS || nf > UINT32_MAX / 4)
        return CDYN_OK;
    uint32_t e[2], span = 0;
    for (uint32_t i = 0; i < nf; i++)
        if (split_ends(sys, i, e)) {
            const uint32_t reach = e[0] > e[1] ? e[0] - e[1] : e[1] - e[0];
            span = reach > span ? reach : span;
        }
    /* Blocks of equal size, each at least the least size (a remainder
     * block would leave a thread idle while another finishes a whole one). */
    const uint32_t least = span > BLOCK_PARTICLES / SPAN_BLOCKS
                               ? (span < UINT32_MAX / SPAN_BLOCKS ? SPAN_BLOCKS * span
                                                                   : UINT32_MAX)
                               : BLOCK_PARTICLES;
    const uint32_t blocks = np / least > 1 ? np / least : 1;
    const uint32_t block = np > 0 ? (uint32_t)(((size_t)np + blocks - 1) / blocks) : 1;
    if (!grow(sys, (void **)&sys->split_inc, &sys->split_inc_cap, 2 * (size_t)splits,
              sizeof(uint32_t)) ||
        !grow(sys, (void **)&sys->split_start, &sys->split_start_cap, (size_t)blocks + 1,
              sizeof(uint32_t)))
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "step: out of memory");
    /* Counts per block, starts, then the entries in slot order. */
    uint32_t *start = sys->split_start, *entry = sys->split_inc;
    memset(start, 0, ((size_t)blocks + 1) * sizeof *start);
    for (uint32_t i = 0; i < nf; i++)
        if (split_ends(sys, i, e)) {
            const uint32_t ba = e[0] / block, bb = e[1] / block;
            start[ba + 1]++;
            if (bb != ba)
                start[bb + 1]++;
        }
    for (uint32_t b = 0; b < blocks; b++)
        start[b + 1] += start[b];
    for (uint32_t i = 0; i < nf; i++)
        if (split_ends(sys, i, e)) {
            const uint32_t ba = e[0] / block, bb = e[1] / block;
            if (bb == ba) {
                entry[start[ba]++] = i << 2 | OWN_FIRST | OWN_SECOND;
            } else {
                entry[start[ba]++] = i << 2 | OWN_FIRST;
                entry[start[bb]++] = i << 2 | OWN_SECOND;
            }
        }
    /* The fill moved each start to the next block's: shift back. */
    for (uint32_t b = blocks; b > 0; b--)
        start[b] = start[b - 1];
    start[0] = 0;
    /* The first run of a kind that splits (cdyn__forces_apply_run). */
    uint32_t first = 0;
    while (first < nf && !split_ends(sys, first, e))
        first++;
    uint32_t live = 0;
    const uint32_t end = first < nf ? run_end(sys, first, &live) : first;
    sys->split_run[0] = first;
    sys->split_run[1] = end;
    sys->split_run[2] = live;
    sys->split_block = block;
    sys->split_particles = np;
    sys->split_revision = sys->revision;
    sys->split_valid = true;
    return CDYN_OK;
}

void cdyn__forces_split_free(cdyn_system *sys)
{
    cdyn__free_array(&sys->alloc, sys->split_inc, sys->split_inc_cap, sizeof(uint32_t));
    cdyn__free_array(&sys->alloc, sys->split_start, sys->split_start_cap, sizeof(uint32_t));
    sys->split_inc = sys->split_start = NULL;
    sys->split_inc_cap = sys->split_start_cap = 0;
    sys->split_valid = false;
}
