/* The host's task system as the library uses it (public side:
 * include/cdyn/tasks.h, guide docs/performance.md). Internal.
 *
 * A parallel loop of the library is a count of items fixed by the shape of
 * the work (segments of a chain, blocks of springs, rows of a lattice),
 * never by the number of workers; each item writes its own outputs, and
 * whatever is summed across items is summed afterwards in item order. So
 * the host may run the ranges anywhere and in any order without changing a
 * bit of the result. */
#ifndef CDYN__CORE_TASKS_H
#define CDYN__CORE_TASKS_H

#include <stdbool.h>
#include <stdint.h>

#include "cdyn/tasks.h"

/* The largest worker count a task system may announce. */
#define CDYN__TASKS_MAX_WORKERS 1024u

/* What an object holds: the host's callbacks, or none. */
typedef struct cdyn__tasks {
    cdyn_task_system host;
    bool parallel; /* callbacks set and worker_count > 1 */
} cdyn__tasks;

/* The serial default (cdyn_task_system_init's values, no callbacks). */
void cdyn__tasks_init(cdyn__tasks *t);

/* Checks @p ts as cdyn_system_set_task_system states; returns a message
 * (static text) for the first problem found, NULL when it is valid. */
const char *cdyn__tasks_check(const cdyn_task_system *ts);

/* Takes @p ts (NULL: back to serial), checked before. */
void cdyn__tasks_set(cdyn__tasks *t, const cdyn_task_system *ts);

/* Runs @p body over items 0 .. @p count - 1: inline on the calling thread
 * when there is no parallel task system, fewer than two items or less work
 * than @p work_min (in the caller's own units, compared with @p work);
 * else through the host's enqueue and finish, ranges of at least
 * @p min_range items. */
void cdyn__tasks_run(const cdyn__tasks *t, uint32_t count, uint32_t min_range, double work,
                     double work_min, cdyn_task_fn body, void *context);

/* True when cdyn__tasks_run would hand @p work to the host. */
bool cdyn__tasks_would_split(const cdyn__tasks *t, uint32_t count, double work, double work_min);

/* Ranges for a pass over @p n values whose ranges each report something
 * to combine (a flag, a maximum): one per @p min_values values, from 1 to
 * @p max_ranges, fixed by n alone. */
static inline uint32_t cdyn__tasks_ranges(size_t n, size_t min_values, uint32_t max_ranges)
{
    const size_t r = (n + min_values - 1) / min_values;
    return r < 1 ? 1u : r < max_ranges ? (uint32_t)r : max_ranges;
}

/* The first value of range @p k of @p ranges over @p n values (the end of
 * range k is the start of range k + 1). */
static inline size_t cdyn__tasks_range_start(uint32_t k, size_t n, uint32_t ranges)
{
    return (size_t)((uint64_t)k * n / ranges);
}

#endif /* CDYN__CORE_TASKS_H */
