/* Rows of ground.h: every kind of ground, its settings, motion and queries. */
#include "matrix.h"

static cdyn_status w_ground_add_callback(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_ground_add_callback(a[0].w, (cdyn_ground_fn)a[1].fp, a[2].w, a[3].w);
}

static cdyn_status w_ground_is_valid(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_ground_is_valid(a[0].w, a[1].h) ? CDYN_OK : CDYN_ERR_INVALID_HANDLE;
}

W(ground_add_plane, a[0].w, a[1].w, a[2].d, a[3].w)
W(ground_add_sphere, a[0].w, a[1].w, a[2].d, a[3].b, a[4].w)
W(ground_add_heightfield, a[0].w, a[1].w, a[2].w)
W(ground_set_motion, a[0].w, a[1].h, a[2].w)
W(ground_get_motion, a[0].w, a[1].h, a[2].w, a[3].w)
W(ground_set_surface_velocity, a[0].w, a[1].h, a[2].w)
W(ground_get_surface_velocity, a[0].w, a[1].h, a[2].w)
W(ground_get_velocity, a[0].w, a[1].h, a[2].w, a[3].w)
W(ground_remove, a[0].w, a[1].h)
W(ground_get_kind, a[0].w, a[1].h, a[2].w)
W(ground_set_stiffness, a[0].w, a[1].h, a[2].d)
W(ground_get_stiffness, a[0].w, a[1].h, a[2].w)
W(ground_set_damping, a[0].w, a[1].h, a[2].d)
W(ground_get_damping, a[0].w, a[1].h, a[2].w)
W(ground_set_friction, a[0].w, a[1].h, a[2].d)
W(ground_get_friction, a[0].w, a[1].h, a[2].w)
W(ground_set_friction_speed, a[0].w, a[1].h, a[2].d)
W(ground_get_friction_speed, a[0].w, a[1].h, a[2].w)
W(ground_evaluate, a[0].w, a[1].h, a[2].w, a[3].w, a[4].w)
W(ground_get_contact_count, a[0].w, a[1].h, a[2].w)
W(ground_get_penetration, a[0].w, a[1].h, a[2].h, a[3].w)
W(ground_get_total_force, a[0].w, a[1].h, a[2].w, a[3].w)
W(system_get_contact_forces, a[0].w, a[1].w, a[2].z)
W(ground_get_energy, a[0].w, a[1].h, a[2].w)
W(ground_get_jacobian, a[0].w, a[1].h, a[2].h, a[3].w, a[4].w)

static const mx_row rows[] = {
    ROW(ground_add_plane, 0, {SYS}, {VEC_NZ(V_NORMAL)}, {FINITE(-1)}, {OUT}),
    ROW(ground_add_sphere, 0, {SYS}, {VEC(V_POINT)}, {POS(0.5)}, {FLAG(0)}, {OUT}),
    ROW(ground_add_heightfield, 0, {SYS}, {DESC(S_HF)}, {OUT}),
    ROWN(ground_add_heightfield, profile_2d, MX_2D, {SYS}, {DESC(S_HF2)}, {OUT}),
    ROW(ground_add_callback, 0, {SYS}, {FN(FN_GROUND)}, {USER}, {OUT}),
    ROW(ground_set_motion, 0, {SYS}, {GROUND(G_PLANE)}, {DESC(S_MOTION_OSC), OK(BIT(B_NULL))}),
    ROWN(ground_set_motion, rotation, 0, {SYS}, {GROUND(G_HF)}, {DESC(S_MOTION_ROT), OK(BIT(B_NULL))}),
    ROWN(ground_set_motion, callback, 0, {SYS}, {GROUND(G_CB)}, {DESC(S_MOTION_CB), OK(BIT(B_NULL))}),
    ROWN(ground_set_motion, linear, 0, {SYS}, {GROUND(G_SPHERE)}, {DESC(S_MOTION_LIN), OK(BIT(B_NULL))}),
    ROW(ground_get_motion, MX_Q, {SYS}, {GROUND(G_PLANE)}, {OPT}, {OUT}),
    ROW(ground_set_surface_velocity, 0, {SYS}, {GROUND(G_PLANE)}, {VEC(V_VEL)}),
    ROW(ground_get_surface_velocity, MX_Q, {SYS}, {GROUND(G_PLANE)}, {OUT}),
    ROW(ground_get_velocity, MX_Q, {SYS}, {GROUND(G_PLANE)}, {VEC(V_POINT)}, {OUT}),
    ROWN(ground_get_velocity, callback, MX_Q, {SYS}, {GROUND(G_CB)}, {VEC(V_POINT)}, {OUT}),
    ROW(ground_remove, 0, {SYS}, {GROUND(G_SPHERE)}),
    ROW(ground_is_valid, MX_Q | MX_BOOL | MX_NOMSG, {SYS}, {GROUND(G_PLANE)}),
    ROW(ground_get_kind, MX_Q, {SYS}, {GROUND(G_HF)}, {OUT}),
    ROW(ground_set_stiffness, 0, {SYS}, {GROUND(G_PLANE)}, {NONNEG(100)}),
    ROW(ground_get_stiffness, MX_Q, {SYS}, {GROUND(G_PLANE)}, {OUT}),
    ROW(ground_set_damping, 0, {SYS}, {GROUND(G_PLANE)}, {NONNEG(2)}),
    ROW(ground_get_damping, MX_Q, {SYS}, {GROUND(G_PLANE)}, {OUT}),
    ROW(ground_set_friction, 0, {SYS}, {GROUND(G_PLANE)}, {NONNEG(0.3)}),
    ROW(ground_get_friction, MX_Q, {SYS}, {GROUND(G_PLANE)}, {OUT}),
    ROW(ground_set_friction_speed, 0, {SYS}, {GROUND(G_PLANE)}, {POS(0.02)}),
    ROW(ground_get_friction_speed, MX_Q, {SYS}, {GROUND(G_PLANE)}, {OUT}),
    ROW(ground_evaluate, MX_Q, {SYS}, {GROUND(G_HF)}, {VEC(V_POINT)}, {OPT}, {OPT}),
    ROWN(ground_evaluate, sphere, MX_Q, {SYS}, {GROUND(G_SPHERE)}, {VEC(V_POINT)}, {OPT}, {OPT}),
    ROWN(ground_evaluate, callback, MX_Q, {SYS}, {GROUND(G_CB)}, {VEC(V_POINT)}, {OPT}, {OPT}),
    ROW(ground_get_contact_count, MX_Q, {SYS}, {GROUND(G_PLANE)}, {OUT}),
    ROW(ground_get_penetration, MX_Q, {SYS}, {GROUND(G_PLANE)}, {PART(P_GROUND)}, {OUT}),
    ROW(ground_get_total_force, MX_Q, {SYS}, {GROUND(G_PLANE)}, {OPT}, {OPT}),
    ROW(system_get_contact_forces, MX_Q, {SYS}, {OUT}, {CAP(N_XD)}),
    ROW(ground_get_energy, MX_Q, {SYS}, {GROUND(G_PLANE)}, {OUT}),
    ROW(ground_get_jacobian, MX_Q, {SYS}, {GROUND(G_PLANE)}, {PART(P_GROUND)}, {OPT}, {OPT}),
    ROWN(ground_get_jacobian, heightfield, MX_Q, {SYS}, {GROUND(G_HF)}, {PART(P_FREE)}, {OPT},
         {OPT}),
};

const mx_table mx_rows_ground = {"ground.h", rows, sizeof rows / sizeof *rows};
