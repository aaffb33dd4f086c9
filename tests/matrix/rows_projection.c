/* Rows of projection.h: the SHAKE/RATTLE projection's options and report. */
#include "matrix.h"

static cdyn_status w_projection_options_init(mx_ctx *c, mx_val *a)
{
    cdyn_projection_options_init(a[0].w);
    if (a[0].w && ((cdyn_projection_options *)a[0].w)->size != sizeof(cdyn_projection_options))
        mx_broken(c, "size not set");
    return CDYN_OK;
}

W(system_set_projection_options, a[0].w, a[1].w)
W(system_get_projection_options, a[0].w, a[1].w)
W(system_get_projection_stats, a[0].w, a[1].w)

static const mx_row rows[] = {
    ROW(projection_options_init, 0, {OPT}),
    ROW(system_set_projection_options, 0, {SYS}, {SETS(S_PROJ)}),
    ROW(system_get_projection_options, MX_Q, {SYS}, {GETS(S_PROJ)}),
    ROW(system_get_projection_stats, MX_Q, {SYS}, {GETS(S_PROJ_STATS)}),
};

const mx_table mx_rows_projection = {"projection.h", rows, sizeof rows / sizeof *rows};
