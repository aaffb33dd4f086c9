/* Rows of snapshot.h and the tags of force.h, constraint.h and ground.h:
 * saving, loading and cloning systems, and the tags that name callbacks in a
 * snapshot. */
#include <stdint.h>
#include <string.h>

#include "matrix.h"

/* A made system is destroyed; *out is NULL after a failure. */
static cdyn_status made(mx_ctx *c, cdyn_status st, cdyn_system **out)
{
    if (!out)
        return st;
    if (st == CDYN_OK)
        cdyn_system_destroy(*out);
    else if (*out != NULL)
        mx_broken(c, "*out is not NULL after a failure");
    return st;
}

static cdyn_system **preset(void *p)
{
    cdyn_system **out = p;
    if (out)
        *out = (cdyn_system *)(uintptr_t)8;
    return out;
}

static cdyn_status w_snapshot_options_init(mx_ctx *c, mx_val *a)
{
    cdyn_snapshot_options *o = a[0].w;
    cdyn_snapshot_options_init(o);
    if (o && o->size != sizeof *o)
        mx_broken(c, "size not set");
    return CDYN_OK;
}

/* Default options; a report of the caller's, which a failed load fills
 * (no system exists to hold a message). Arguments 2 and 3 are not varied. */
static cdyn_status w_system_load(mx_ctx *c, mx_val *a)
{
    cdyn_system **out = preset(a[4].w);
    cdyn_snapshot_report report;
    memset(&report, 0, sizeof report);
    report.size = sizeof report;
    cdyn_status st = cdyn_system_load(a[0].w, a[1].z, NULL, &report, out);
    if (st != CDYN_OK && out && report.message[0] == 0)
        mx_broken(c, "a failed load left the report's message empty");
    return made(c, st, out);
}

static cdyn_status w_system_clone(mx_ctx *c, mx_val *a)
{
    cdyn_system **out = preset(a[2].w);
    return made(c, cdyn_system_clone(a[0].w, a[1].w, out), out);
}

W(system_snapshot_size, a[0].w, a[1].w)
W(system_save, a[0].w, a[1].w, a[2].z, a[3].w)
W(force_set_tag, a[0].w, a[1].h, a[2].h)
W(force_get_tag, a[0].w, a[1].h, a[2].w)
W(constraint_set_tag, a[0].w, a[1].h, a[2].h)
W(constraint_get_tag, a[0].w, a[1].h, a[2].w)
W(ground_set_tag, a[0].w, a[1].h, a[2].h)
W(ground_get_tag, a[0].w, a[1].h, a[2].w)

#define ANY_TAG {.cls = A_ENUM_ANY, .base = 7, .skip = ~0ull}

static const mx_row rows[] = {
    ROW(snapshot_options_init, 0, {OPT}),
    ROW(system_snapshot_size, MX_Q, {SYS}, {OUT}),
    /* a short buffer may hold a partial write ("nothing useful") */
    ROW(system_save, MX_Q | MX_WRITES, {SYS}, {OUT}, {CAP(N_SYS_SNAP)}, {OPT}),
    ROW(system_load, 0, {BYTES(BYTES_SYS_SNAPSHOT)},
        {COUNT(N_SMALL_SNAP), ST(CDYN_ERR_FORMAT), SKIP(BIT(B_CAP_HUGE))}, {OPT, SKIP(~0ull)},
        {OPT, SKIP(~0ull)}, {OBJ_OUT}),
    ROW(system_clone, MX_Q, {SYS}, {ALLOC, OK(BIT(B_NULL))}, {OBJ_OUT}),
    ROW(force_set_tag, 0, {SYS}, {FORCE(F_CB), ALT(F_GRAVITY, INVALID)}, ANY_TAG),
    ROW(force_get_tag, MX_Q, {SYS}, {FORCE(F_CB), ALT(F_GRAVITY, INVALID)}, {OUT}),
    ROW(constraint_set_tag, 0, {SYS}, {CONS(C_USER), ALT(C_DIST, INVALID)}, ANY_TAG),
    ROW(constraint_get_tag, MX_Q, {SYS}, {CONS(C_USER), ALT(C_DIST, INVALID)}, {OUT}),
    ROW(ground_set_tag, 0, {SYS}, {GROUND(G_CB), ALT(G_PLANE, INVALID)}, ANY_TAG),
    ROW(ground_get_tag, MX_Q, {SYS}, {GROUND(G_CB), ALT(G_PLANE, INVALID)}, {OUT}),
};

const mx_table mx_rows_snapshot = {"snapshot.h and the tags", rows, sizeof rows / sizeof *rows};
