/* Rows of rigid.h: rigid bodies, their state and the rotation helper. */
#include "matrix.h"

static cdyn_status w_rigid_is_valid(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_rigid_is_valid(a[0].w, a[1].h) ? CDYN_OK : CDYN_ERR_INVALID_HANDLE;
}

/* Only the rotational part wanted: the other output may be NULL, not both. */
static cdyn_status w_rigid_get_kinetic_energy_rotational(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_rigid_get_kinetic_energy(a[0].w, a[1].h, NULL, a[2].w);
}

W(rigid_add, a[0].w, a[1].w, a[2].z, a[3].w)
W(rigid_remove, a[0].w, a[1].h)
W(rigid_find, a[0].w, a[1].h, a[2].w)
W(rigid_get_particle_count, a[0].w, a[1].h, a[2].w)
W(rigid_get_particles, a[0].w, a[1].h, a[2].w, a[3].z)
W(rigid_set_scheme, a[0].w, a[1].h, a[2].i)
W(rigid_get_scheme, a[0].w, a[1].h, a[2].w)
W(rigid_get_mass, a[0].w, a[1].h, a[2].w)
W(rigid_get_center_of_mass, a[0].w, a[1].h, a[2].w)
W(rigid_get_velocity, a[0].w, a[1].h, a[2].w)
W(rigid_set_velocity, a[0].w, a[1].h, a[2].w)
W(rigid_get_angular_momentum, a[0].w, a[1].h, a[2].w)
W(rigid_get_angular_velocity, a[0].w, a[1].h, a[2].w)
W(rigid_set_angular_velocity, a[0].w, a[1].h, a[2].w)
W(rigid_get_inertia, a[0].w, a[1].h, a[2].w)
W(rigid_get_body_inertia, a[0].w, a[1].h, a[2].w)
W(rigid_get_orientation, a[0].w, a[1].h, a[2].w)
W(rigid_get_kinetic_energy, a[0].w, a[1].h, a[2].w, a[3].w)
static cdyn_status w_rigid_rotation(mx_ctx *c, mx_val *a)
{
    return mx_finite_out(c, cdyn_rigid_rotation(a[0].w, a[1].d, a[2].w), a[2].w, 9);
}

#define BODY(q) ROW(rigid_get_##q, MX_Q, {SYS}, {RIGID(R_BODY)}, {OUT})

static const mx_row rows[] = {
    ROW(rigid_add, 0, {SYS},
        {HLIST(L_RIGID), ALT3(P_FIXED, INVALID, P_PIN, INVALID, P_R0, INVALID)},
        {RANGE(1, N_RIGID_NEW, N_RIGID_NEW), SKIP(BIT(B_Z_ABOVE) | BIT(B_CAP_HUGE)),
         ALT(1, CDYN_ERR_SINGULAR)},
        {OUT}),
    ROWN(rigid_add, on_curve, 0, {SYS}, {HLIST(L_RIGID), ALT(P_CURVE, INVALID)},
         {CONST_Z(N_RIGID_NEW)}, {OUT}),
    ROW(rigid_remove, 0, {SYS}, {RIGID(R_BODY)}),
    ROW(rigid_is_valid, MX_Q | MX_BOOL | MX_NOMSG, {SYS}, {RIGID(R_BODY)}),
    ROW(rigid_find, MX_Q, {SYS}, {PART(P_R0)}, {OUT}),
    ROWN(rigid_find, free, MX_Q, {SYS}, {PART(P_FREE)}, {OUT}),
    BODY(particle_count),
    ROW(rigid_get_particles, MX_Q, {SYS}, {RIGID(R_BODY)}, {OUT}, {CAP(N_RIGID)}),
    ROW(rigid_set_scheme, 0, {SYS}, {RIGID(R_BODY)}, {ENUM(1, 2)}),
    BODY(scheme),
    BODY(mass),
    BODY(center_of_mass),
    BODY(velocity),
    ROW(rigid_set_velocity, 0, {SYS}, {RIGID(R_BODY)}, {VEC(V_VEL)}),
    BODY(angular_momentum),
    BODY(angular_velocity),
    ROW(rigid_set_angular_velocity, 0, {SYS}, {RIGID(R_BODY)}, {VEC(V3_OMEGA)}),
    ROWN(rigid_set_angular_velocity, plane, MX_2D, {SYS}, {RIGID(R_BODY)},
         {VEC(V3_OMEGA), NO(BIT(B_HUGE))}),
    BODY(inertia),
    BODY(body_inertia),
    BODY(orientation),
    ROW(rigid_get_kinetic_energy, MX_Q, {SYS}, {RIGID(R_BODY)}, {OPT}, {OPT}),
    ROWV(rigid_get_kinetic_energy, rotational, MX_Q, {SYS}, {RIGID(R_BODY)}, {OUT}),
    ROW(rigid_rotation, 0, {VEC(V3_OMEGA)}, {FINITE(0.01)}, {OUT}),
};

const mx_table mx_rows_rigid = {"rigid.h", rows, sizeof rows / sizeof *rows};
