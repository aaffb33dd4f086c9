/* Rows of force.h: force generators, the Jacobian accumulator of a user
 * force (called from inside a backward Euler step), applied forces. */
#include "matrix.h"

static cdyn_status w_force_add_callback(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_force_add_callback(a[0].w, (cdyn_force_fn)a[1].fp, a[2].w, a[3].b, a[4].w);
}

static cdyn_status w_force_add_callback_with_jacobian(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_force_add_callback_with_jacobian(a[0].w, (cdyn_force_fn)a[1].fp,
                                                 (cdyn_force_jacobian_fn)a[2].fp, a[3].w, a[4].b,
                                                 a[5].w);
}

static cdyn_status add_block(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_jacobian_add_block(a[0].w, a[1].z, a[2].z, a[3].w, a[4].w);
}

/* The accumulator exists only inside a Jacobian callback: the call is made
 * there, during a backward Euler step, which a refused block must fail. A
 * NULL accumulator is refused at once, outside any step. */
static cdyn_status w_jacobian_add_block(mx_ctx *c, mx_val *a)
{
    if (!a[0].w)
        return add_block(c, a);
    cdyn_status step, st = mx_in_jacobian(c, add_block, a, &step);
    if (st != CDYN_OK && step != CDYN_ERR_CALLBACK)
        mx_broken(c, "a refused block did not fail the step with CDYN_ERR_CALLBACK");
    return st;
}

static cdyn_status w_force_is_valid(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_force_is_valid(a[0].w, a[1].h) ? CDYN_OK : CDYN_ERR_INVALID_HANDLE;
}

W(force_add_gravity, a[0].w, a[1].w, a[2].w)
W(force_add_spring, a[0].w, a[1].h, a[2].h, a[3].d, a[4].d, a[5].d, a[6].w)
W(force_add_drag, a[0].w, a[1].d, a[2].w)
W(force_remove, a[0].w, a[1].h)
W(force_get_kind, a[0].w, a[1].h, a[2].w)
W(force_get_energy, a[0].w, a[1].h, a[2].w)
W(force_get_spring_tension, a[0].w, a[1].h, a[2].w)
W(force_set_gravity, a[0].w, a[1].h, a[2].w)
W(force_get_gravity, a[0].w, a[1].h, a[2].w)
W(force_set_drag, a[0].w, a[1].h, a[2].d)
W(force_get_drag, a[0].w, a[1].h, a[2].w)
W(force_set_spring, a[0].w, a[1].h, a[2].d, a[3].d, a[4].d)
W(force_get_spring, a[0].w, a[1].h, a[2].w, a[3].w, a[4].w)

/* One output wanted: the others may be NULL, not all. */
static cdyn_status w_force_get_spring_rest(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_force_get_spring(a[0].w, a[1].h, NULL, NULL, a[2].w);
}
W(particle_apply_force, a[0].w, a[1].h, a[2].w, a[3].i)
W(particle_clear_applied_force, a[0].w, a[1].h)
W(particle_get_applied_force, a[0].w, a[1].h, a[2].w)
W(system_apply_forces, a[0].w, a[1].w, a[2].z, a[3].i)
W(system_clear_applied_forces, a[0].w)
W(system_get_applied_forces, a[0].w, a[1].w, a[2].z)

static const mx_row rows[] = {
    ROW(force_add_gravity, 0, {SYS}, {VEC(V_G)}, {OUT}),
    ROW(force_add_spring, 0, {SYS}, {PART(P_FREE)},
        {PART(P_FREE2), ALT(P_FREE, INVALID)}, {NONNEG(10)}, {NONNEG(0.1)}, {NONNEG(1)}, {OUT}),
    ROW(force_add_drag, 0, {SYS}, {NONNEG(0.1)}, {OUT}),
    ROW(force_add_callback, 0, {SYS}, {FN(FN_FORCE)}, {USER}, {FLAG(0)}, {OUT}),
    ROW(force_add_callback_with_jacobian, 0, {SYS}, {FN(FN_FORCE)}, {FN(FN_JAC)}, {USER},
        {FLAG(0)}, {OUT}),
    ROW(jacobian_add_block, MX_MSG_ANY | MX_NOBUSY | MX_FLAT, {JAC}, {INDEX(N_IDX)}, {INDEX(N_IDX)},
        {VEC_OPT(V_BLOCK)}, {VEC_OPT(V_BLOCK)}),
    ROW(force_remove, 0, {SYS}, {FORCE(F_DRAG)}),
    ROWN(force_remove, pair_set, 0, {SYS}, {FORCE(F_PAIRSET)}),
    ROW(force_is_valid, MX_Q | MX_BOOL | MX_NOMSG, {SYS}, {FORCE(F_SPRING)}),
    ROW(force_get_kind, MX_Q, {SYS}, {FORCE(F_SPRING)}, {OUT}),
    ROW(force_get_energy, MX_Q, {SYS}, {FORCE(F_SPRING)}, {OUT}),
    ROWN(force_get_energy, pairs, MX_Q, {SYS}, {FORCE(F_PAIRSET)}, {OUT}),
    ROW(force_get_spring_tension, MX_Q, {SYS}, {FORCE(F_SPRING), ALT(F_GRAVITY, INVALID)}, {OUT}),
    ROW(force_set_gravity, 0, {SYS}, {FORCE(F_GRAVITY), ALT(F_DRAG, INVALID)}, {VEC(V_G)}),
    ROW(force_get_gravity, MX_Q, {SYS}, {FORCE(F_GRAVITY), ALT(F_DRAG, INVALID)}, {OUT}),
    ROW(force_set_drag, 0, {SYS}, {FORCE(F_DRAG), ALT(F_GRAVITY, INVALID)}, {NONNEG(0.2)}),
    ROW(force_get_drag, MX_Q, {SYS}, {FORCE(F_DRAG), ALT(F_GRAVITY, INVALID)}, {OUT}),
    ROW(force_set_spring, 0, {SYS}, {FORCE(F_SPRING), ALT(F_DRAG, INVALID)}, {NONNEG(20)},
        {NONNEG(0.2)}, {NONNEG(1.5)}),
    ROW(force_get_spring, MX_Q, {SYS}, {FORCE(F_SPRING), ALT(F_DRAG, INVALID)}, {OPT}, {OPT},
        {OPT}),
    ROWV(force_get_spring, rest, MX_Q, {SYS}, {FORCE(F_SPRING)}, {OUT}),
    ROW(particle_apply_force, 0, {SYS}, {PART(P_FREE)}, {VEC(V_FORCE)}, {ENUM(1, 2)}),
    ROWN(particle_apply_force, kinematic, 0, {SYS}, {PART(P_KIN)}, {VEC(V_FORCE)}, {ENUM(1, 2)}),
    ROW(particle_clear_applied_force, 0, {SYS}, {PART(P_FREE)}),
    ROW(particle_get_applied_force, MX_Q, {SYS}, {PART(P_FREE)}, {OUT}),
    ROW(system_apply_forces, 0, {SYS}, {BULK(V_ALL_F)}, {COUNT(N_XD)}, {ENUM(1, 2)}),
    ROW(system_clear_applied_forces, 0, {SYS}),
    ROW(system_get_applied_forces, MX_Q, {SYS}, {OUT}, {CAP(N_XD)}),
};

const mx_table mx_rows_force = {"force.h", rows, sizeof rows / sizeof *rows};
