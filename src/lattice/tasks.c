/* The host's task system of a lattice (include/cdyn/lattice.h). */
#include "lattice/lattice.h"

#include <string.h>

cdyn_status cdyn_lattice_set_task_system(cdyn_lattice *lat, const cdyn_task_system *tasks)
{
    const char *fn = "cdyn_lattice_set_task_system";
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (tasks) {
        const char *why = cdyn__tasks_check(tasks);
        if (why)
            return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "%s", why);
    }
    cdyn__tasks_set(&lat->tasks, tasks);
    return CDYN_OK;
}

cdyn_status cdyn_lattice_get_task_system(const cdyn_lattice *lat, cdyn_task_system *out)
{
    const char *fn = "cdyn_lattice_get_task_system";
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out || out->size < sizeof(size_t))
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  out ? "out->size is below sizeof(size_t)" : "out is NULL");
    /* The sized-struct rule: the caller's size picks the prefix written. */
    size_t n = out->size < sizeof *out ? out->size : sizeof *out;
    memcpy((char *)out + sizeof(size_t), (const char *)&lat->tasks.host + sizeof(size_t),
           n - sizeof(size_t));
    return CDYN_OK;
}
