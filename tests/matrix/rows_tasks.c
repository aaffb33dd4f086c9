/* Rows of tasks.h: the host task system of systems and lattices. */
#include "matrix.h"

static cdyn_status w_task_system_init(mx_ctx *c, mx_val *a)
{
    cdyn_task_system_init(a[0].w);
    if (a[0].w && (((cdyn_task_system *)a[0].w)->size != sizeof(cdyn_task_system) ||
                   ((cdyn_task_system *)a[0].w)->worker_count != 1))
        mx_broken(c, "size or worker_count not set");
    return CDYN_OK;
}

W(system_set_task_system, a[0].w, a[1].w)
W(system_get_task_system, a[0].w, a[1].w)
W(lattice_set_task_system, a[0].w, a[1].w)
W(lattice_get_task_system, a[0].w, a[1].w)

static const mx_row rows[] = {
    ROW(task_system_init, 0, {OPT}),
    /* NULL goes back to running on the calling thread. */
    ROW(system_set_task_system, 0, {SYS}, {SETS(S_TASKS), OK(BIT(B_NULL))}),
    ROW(system_get_task_system, MX_Q, {SYS}, {GETS(S_TASKS)}),
    ROW(lattice_set_task_system, 0, {LAT}, {SETS(S_TASKS), OK(BIT(B_NULL))}),
    ROW(lattice_get_task_system, MX_Q, {LAT}, {GETS(S_TASKS)}),
};

const mx_table mx_rows_tasks = {"tasks.h", rows, sizeof rows / sizeof *rows};
