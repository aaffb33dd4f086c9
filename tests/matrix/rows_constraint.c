/* Rows of constraint.h: implicit constraints, their settings, drives and
 * queries, the solver's options and report, evaluation and residuals. */
#include "matrix.h"

static cdyn_status w_constraint_add_user(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_constraint_add_user(a[0].w, a[1].w, a[2].z, a[3].z, (cdyn_constraint_fn)a[4].fp,
                                    a[5].w, a[6].w);
}

static cdyn_status w_constraint_add_implicit(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_constraint_add_implicit(a[0].w, a[1].h, (cdyn_implicit_fn)a[2].fp, a[3].w,
                                        a[4].w);
}

static cdyn_status w_constraint_is_valid(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_constraint_is_valid(a[0].w, a[1].h) ? CDYN_OK : CDYN_ERR_INVALID_HANDLE;
}

/* A curve or surface constraint has no multipliers: nothing to write. */
static cdyn_status w_constraint_get_multipliers_none(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_constraint_get_multipliers(a[0].w, a[1].h, NULL, 0);
}

static cdyn_status w_solver_options_init(mx_ctx *c, mx_val *a)
{
    cdyn_solver_options_init(a[0].w);
    if (a[0].w && ((cdyn_solver_options *)a[0].w)->size != sizeof(cdyn_solver_options))
        mx_broken(c, "size not set");
    return CDYN_OK;
}

W(constraint_add_distance, a[0].w, a[1].h, a[2].h, a[3].d, a[4].w)
W(constraint_add_anchor, a[0].w, a[1].h, a[2].w, a[3].d, a[4].w)
W(constraint_add_pin, a[0].w, a[1].h, a[2].w, a[3].w)
W(constraint_add_plane, a[0].w, a[1].h, a[2].w, a[3].d, a[4].w)
W(constraint_remove, a[0].w, a[1].h)
W(constraint_get_kind, a[0].w, a[1].h, a[2].w)
W(constraint_get_row_count, a[0].w, a[1].h, a[2].w)
W(constraint_set_enabled, a[0].w, a[1].h, a[2].b)
W(constraint_get_enabled, a[0].w, a[1].h, a[2].w)
W(constraint_set_compliance, a[0].w, a[1].h, a[2].d)
W(constraint_get_compliance, a[0].w, a[1].h, a[2].w)
W(constraint_get_multipliers, a[0].w, a[1].h, a[2].w, a[3].z)
W(constraint_get_force, a[0].w, a[1].h, a[2].h, a[3].w)
W(system_get_constraint_forces, a[0].w, a[1].w, a[2].z)
W(constraint_set_motion, a[0].w, a[1].h, a[2].w)
W(constraint_get_motion, a[0].w, a[1].h, a[2].w, a[3].w)
W(constraint_set_length_schedule, a[0].w, a[1].h, a[2].w)
W(constraint_get_length_schedule, a[0].w, a[1].h, a[2].w, a[3].w)
W(constraint_set_time_dependent, a[0].w, a[1].h, a[2].b)
W(constraint_get_time_dependent, a[0].w, a[1].h, a[2].w)
W(constraint_get_point, a[0].w, a[1].h, a[2].w)
W(constraint_get_length, a[0].w, a[1].h, a[2].w)
W(system_set_solver_options, a[0].w, a[1].w)
W(system_get_solver_options, a[0].w, a[1].w)
W(system_evaluate, a[0].w, a[1].w, a[2].z)
W(system_compute_constraint_residuals, a[0].w, a[1].w, a[2].w)
W(system_get_solver_stats, a[0].w, a[1].w)

/* Particles a new constraint must refuse: a member of a rigid body. */
#define IN_BODY ALT(P_R0, INVALID)

static const mx_row rows[] = {
    ROW(constraint_add_distance, 0, {SYS}, {PART(P_FREE), IN_BODY},
        {PART(P_FREE2), ALT(P_FREE, INVALID)}, {POS(1)}, {OUT}),
    ROW(constraint_add_anchor, 0, {SYS}, {PART(P_FREE), IN_BODY}, {VEC(V_POINT)}, {POS(1)}, {OUT}),
    ROW(constraint_add_pin, 0, {SYS}, {PART(P_FREE), IN_BODY}, {VEC(V_POINT)}, {OUT}),
    ROW(constraint_add_plane, 0, {SYS}, {PART(P_FREE), IN_BODY}, {VEC_NZ(V_NORMAL)}, {FINITE(1)},
        {OUT}),
    ROW(constraint_add_user, 0, {SYS}, {HLIST(L_USER), ALT(P_R0, INVALID)},
        {RANGE(1, N_64, N_USER), SKIP(BIT(B_Z_ABOVE) | BIT(B_CAP_HUGE))},
        {RANGE(1, N_64, N_USER_ROWS)}, {FN(FN_USER)}, {USER}, {OUT}),
    ROW(constraint_add_implicit, 0, {SYS}, {PART(P_FREE), IN_BODY}, {FN(FN_IMPLICIT)}, {USER},
        {OUT}),
    ROW(constraint_remove, 0, {SYS}, {CONS(C_PIN)}),
    ROWN(constraint_remove, curve, 0, {SYS}, {CONS(C_CURVE)}),
    ROWN(constraint_remove, surface, 0, {SYS}, {CONS(C_SURF)}),
    ROW(constraint_is_valid, MX_Q | MX_BOOL | MX_NOMSG, {SYS}, {CONS(C_PIN)}),
    ROW(constraint_get_kind, MX_Q, {SYS}, {CONS(C_PIN)}, {OUT}),
    ROW(constraint_get_row_count, MX_Q, {SYS}, {CONS(C_USER)}, {OUT}),
    ROW(constraint_set_enabled, 0, {SYS}, {CONS(C_PIN), ALT(C_CURVE, UNSUPPORTED)}, {FLAG(0)}),
    ROW(constraint_get_enabled, MX_Q, {SYS}, {CONS(C_PIN)}, {OUT}),
    ROW(constraint_set_compliance, 0, {SYS}, {CONS(C_DIST), ALT(C_CURVE, UNSUPPORTED)},
        {NONNEG(1e-6)}),
    ROW(constraint_get_compliance, MX_Q, {SYS}, {CONS(C_DIST)}, {OUT}),
    ROW(constraint_get_multipliers, MX_Q, {SYS}, {CONS(C_USER)}, {OUT}, {CAP(N_ROWS_USER)}),
    ROWV(constraint_get_multipliers, none, MX_Q, {SYS}, {CONS(C_CURVE)}),
    ROW(constraint_get_force, MX_Q, {SYS}, {CONS(C_DIST)}, {PART(P_DA), ALT(P_FREE, INVALID)},
        {OUT}),
    ROWN(constraint_get_force, curve, MX_Q, {SYS}, {CONS(C_CURVE)},
         {PART(P_CURVE), ALT(P_FREE, INVALID)}, {OUT}),
    ROW(system_get_constraint_forces, MX_Q, {SYS}, {OUT}, {CAP(N_XD)}),
    ROW(constraint_set_motion, 0, {SYS},
        {CONS(C_ANCHOR), ALT3(C_DIST, UNSUPPORTED, C_USER, UNSUPPORTED, C_IMPL, UNSUPPORTED)},
        {DESC(S_MOTION_LIN), OK(BIT(B_NULL))}),
    ROWN(constraint_set_motion, pin, 0, {SYS}, {CONS(C_PIN)}, {DESC(S_MOTION_OSC), OK(BIT(B_NULL))}),
    ROWN(constraint_set_motion, plane, 0, {SYS}, {CONS(C_PLANE)}, {DESC(S_MOTION_ROT), OK(BIT(B_NULL))}),
    ROWN(constraint_set_motion, curve, 0, {SYS}, {CONS(C_CURVE)}, {DESC(S_MOTION_CB), OK(BIT(B_NULL))}),
    ROWN(constraint_set_motion, surface, 0, {SYS}, {CONS(C_SURF)}, {DESC(S_MOTION_ROT), OK(BIT(B_NULL))}),
    ROW(constraint_get_motion, MX_Q, {SYS}, {CONS(C_ANCHOR)}, {OPT}, {OUT}),
    ROW(constraint_set_length_schedule, 0, {SYS}, {CONS(C_DIST), ALT(C_PIN, UNSUPPORTED)},
        {DESC(S_SCHED_LIN), OK(BIT(B_NULL))}),
    ROWN(constraint_set_length_schedule, oscillation, 0, {SYS}, {CONS(C_ANCHOR)},
         {DESC(S_SCHED_OSC), OK(BIT(B_NULL))}),
    ROWN(constraint_set_length_schedule, callback, 0, {SYS}, {CONS(C_DIST)}, {DESC(S_SCHED_CB), OK(BIT(B_NULL))}),
    ROW(constraint_get_length_schedule, MX_Q, {SYS}, {CONS(C_DIST)}, {OPT}, {OUT}),
    ROW(constraint_set_time_dependent, 0, {SYS}, {CONS(C_USER), ALT(C_DIST, UNSUPPORTED)},
        {FLAG(1)}),
    ROWN(constraint_set_time_dependent, implicit, 0, {SYS}, {CONS(C_IMPL)}, {FLAG(1)}),
    ROW(constraint_get_time_dependent, MX_Q, {SYS}, {CONS(C_USER)}, {OUT}),
    ROW(constraint_get_point, MX_Q, {SYS}, {CONS(C_ANCHOR), ALT(C_DIST, UNSUPPORTED)}, {OUT}),
    ROW(constraint_get_length, MX_Q, {SYS}, {CONS(C_DIST), ALT(C_PIN, UNSUPPORTED)}, {OUT}),
    ROW(solver_options_init, 0, {OPT}),
    ROW(system_set_solver_options, 0, {SYS}, {SETS(S_SOLVER)}),
    ROW(system_get_solver_options, MX_Q, {SYS}, {GETS(S_SOLVER)}),
    ROW(system_get_solver_stats, MX_Q, {SYS}, {GETS(S_SOLVER_STATS)}),
    ROW(system_evaluate, MX_KEEPS, {SYS}, {OPT}, {CAP(N_XD)}),
    ROW(system_compute_constraint_residuals, MX_KEEPS, {SYS}, {OPT}, {OPT}),
};

const mx_table mx_rows_constraint = {"constraint.h", rows, sizeof rows / sizeof *rows};
