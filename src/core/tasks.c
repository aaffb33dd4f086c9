/* The host's task system: checks, and the one place that calls it. */
#include "core/tasks.h"

#include <string.h>

void cdyn_task_system_init(cdyn_task_system *ts)
{
    if (!ts)
        return;
    memset(ts, 0, sizeof *ts);
    ts->size = sizeof *ts;
    ts->worker_count = 1;
}

void cdyn__tasks_init(cdyn__tasks *t)
{
    cdyn_task_system_init(&t->host);
    t->parallel = false;
}

const char *cdyn__tasks_check(const cdyn_task_system *ts)
{
    if (ts->size != sizeof *ts)
        return "size is not sizeof(cdyn_task_system) (use cdyn_task_system_init)";
    if (!ts->enqueue || !ts->finish)
        return "enqueue and finish must both be set";
    if (ts->worker_count < 1 || ts->worker_count > CDYN__TASKS_MAX_WORKERS)
        return "worker_count must be in 1 .. 1024";
    return NULL;
}

void cdyn__tasks_set(cdyn__tasks *t, const cdyn_task_system *ts)
{
    if (!ts) {
        cdyn__tasks_init(t);
        return;
    }
    t->host = *ts;
    t->parallel = ts->worker_count > 1;
}

bool cdyn__tasks_would_split(const cdyn__tasks *t, uint32_t count, double work, double work_min)
{
    return t->parallel && count >= 2 && work >= work_min;
}

void cdyn__tasks_run(const cdyn__tasks *t, uint32_t count, uint32_t min_range, double work,
                     double work_min, cdyn_task_fn body, void *context)
{
    if (count == 0)
        return;
    if (!cdyn__tasks_would_split(t, count, work, work_min)) {
        body(0, count, context);
        return;
    }
    void *handle = t->host.enqueue(body, count, min_range < 1 ? 1 : min_range, context,
                                   t->host.user);
    if (handle)
        t->host.finish(handle, t->host.user);
}
