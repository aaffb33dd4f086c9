/* The host's task system of a system (include/cdyn/tasks.h). */
#include "cdyn/tasks.h"

#include "core/error.h"
#include "core/sized.h"
#include "core/system.h"
#include "core/tasks.h"

cdyn_status cdyn_system_set_task_system(cdyn_system *sys, const cdyn_task_system *tasks)
{
    cdyn_status st = cdyn__check_mutable(sys, "set_task_system");
    if (st)
        return st;
    if (tasks) {
        const char *why = cdyn__tasks_check(tasks);
        if (why)
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "set_task_system: %s", why);
    }
    cdyn__tasks_set(&sys->tasks, tasks);
    return CDYN_OK;
}

cdyn_status cdyn_system_get_task_system(const cdyn_system *sys, cdyn_task_system *out)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    return cdyn__sized_get(sys, out, &sys->tasks.host, sizeof sys->tasks.host,
                           "get_task_system");
}
