/* Rows of motion.h: motions and schedules evaluated alone. */
#include "matrix.h"

static cdyn_status w_motion_desc_init(mx_ctx *c, mx_val *a)
{
    cdyn_motion_desc *d = a[0].w;
    cdyn_motion_desc_init(d, (cdyn_motion_kind)a[1].i);
    if (d && (d->size != sizeof *d || (int)d->kind != a[1].i))
        mx_broken(c, "size or kind not set as given");
    return CDYN_OK;
}

static cdyn_status w_schedule_desc_init(mx_ctx *c, mx_val *a)
{
    cdyn_schedule_desc *d = a[0].w;
    cdyn_schedule_desc_init(d, (cdyn_schedule_kind)a[1].i);
    if (d && (d->size != sizeof *d || (int)d->kind != a[1].i))
        mx_broken(c, "size or kind not set as given");
    return CDYN_OK;
}

static cdyn_status w_motion_evaluate(mx_ctx *c, mx_val *a)
{
    return mx_finite_out(c, cdyn_motion_evaluate(a[0].w, a[1].i, a[2].d, a[3].w), a[3].w,
                         sizeof(cdyn_motion_state) / sizeof(double));
}

static cdyn_status w_schedule_evaluate(mx_ctx *c, mx_val *a)
{
    return mx_finite_out(c, cdyn_schedule_evaluate(a[0].w, a[1].d, a[2].w), a[2].w, 3);
}

static const mx_row rows[] = {
    ROW(motion_desc_init, 0, {OPT}, {ENUM_ANY(1)}),
    ROW(motion_evaluate, 0, {DESC(S_MOTION_LIN)}, {ENUM(2, 3)}, {FINITE(0.5), MAY_ST(BIT(B_HUGE) | BIT(B_NHUGE) | BIT(B_MAX), CDYN_ERR_DIVERGED)}, {OUT}),
    ROWN(motion_evaluate, oscillation, 0, {DESC(S_MOTION_OSC)}, {ENUM(2, 3)}, {FINITE(0.5), MAY_ST(BIT(B_HUGE) | BIT(B_NHUGE) | BIT(B_MAX), CDYN_ERR_DIVERGED)},
         {OUT}),
    ROWN(motion_evaluate, rotation, 0, {DESC(S_MOTION_ROT)},
         {ENUM(3, 3), SKIP(BIT(B_E_BELOW))}, {FINITE(0.5), MAY_ST(BIT(B_HUGE) | BIT(B_NHUGE) | BIT(B_MAX), CDYN_ERR_DIVERGED)}, {OUT}),
    ROWN(motion_evaluate, callback, 0, {DESC(S_MOTION_CB)}, {ENUM(2, 3)}, {FINITE(0.5), MAY_ST(BIT(B_HUGE) | BIT(B_NHUGE) | BIT(B_MAX), CDYN_ERR_DIVERGED)}, {OUT}),
    ROW(schedule_desc_init, 0, {OPT}, {ENUM_ANY(1)}),
    ROW(schedule_evaluate, 0, {DESC(S_SCHED_LIN)}, {FINITE(0.5), MAY_ST(BIT(B_HUGE) | BIT(B_NHUGE) | BIT(B_MAX), CDYN_ERR_DIVERGED)}, {OUT}),
    ROWN(schedule_evaluate, oscillation, 0, {DESC(S_SCHED_OSC)}, {FINITE(0.5), MAY_ST(BIT(B_HUGE) | BIT(B_NHUGE) | BIT(B_MAX), CDYN_ERR_DIVERGED)}, {OUT}),
    ROWN(schedule_evaluate, callback, 0, {DESC(S_SCHED_CB)}, {FINITE(0.5), MAY_ST(BIT(B_HUGE) | BIT(B_NHUGE) | BIT(B_MAX), CDYN_ERR_DIVERGED)}, {OUT}),
};

const mx_table mx_rows_motion = {"motion.h", rows, sizeof rows / sizeof *rows};
