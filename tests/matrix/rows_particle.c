/* Rows of particle.h: particles, their state, mass, fixed flag, motion. */
#include "matrix.h"

static cdyn_status w_particle_is_valid(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_particle_is_valid(a[0].w, a[1].h) ? CDYN_OK : CDYN_ERR_INVALID_HANDLE;
}

W(particle_add, a[0].w, a[1].d, a[2].w, a[3].w, a[4].w)
W(particle_remove, a[0].w, a[1].h)
W(particle_get_index, a[0].w, a[1].h, a[2].w)
W(particle_get_position, a[0].w, a[1].h, a[2].w)
W(particle_set_position, a[0].w, a[1].h, a[2].w)
W(particle_get_velocity, a[0].w, a[1].h, a[2].w)
W(particle_set_velocity, a[0].w, a[1].h, a[2].w)
W(particle_get_mass, a[0].w, a[1].h, a[2].w)
W(particle_set_mass, a[0].w, a[1].h, a[2].d)
W(particle_set_fixed, a[0].w, a[1].h, a[2].b)
W(particle_get_fixed, a[0].w, a[1].h, a[2].w)
W(particle_set_motion, a[0].w, a[1].h, a[2].w)
W(particle_get_motion, a[0].w, a[1].h, a[2].w, a[3].w)

/* The particles a setter must refuse: a member of a rigid body and a
 * kinematic particle. */
#define HELD ALT2(P_R0, INVALID, P_KIN, INVALID)

static const mx_row rows[] = {
    ROW(particle_add, 0, {SYS}, {POS(1)}, {VEC(V_POINT)}, {VEC_OPT(V_VEL)}, {OUT}),
    ROW(particle_remove, 0, {SYS}, {PART(P_FREE), ALT(P_R0, INVALID)}),
    ROWN(particle_remove, kinematic, 0, {SYS}, {PART(P_KIN)}),
    ROW(particle_is_valid, MX_Q | MX_BOOL | MX_NOMSG, {SYS}, {PART(P_FREE)}),
    ROW(particle_get_index, MX_Q, {SYS}, {PART(P_FREE)}, {OUT}),
    ROW(particle_get_position, MX_Q, {SYS}, {PART(P_FREE)}, {OUT}),
    ROW(particle_set_position, 0, {SYS}, {PART(P_FREE), HELD}, {VEC(V_POINT)}),
    ROWN(particle_set_position, on_curve, 0, {SYS}, {PART(P_CURVE)}, {VEC(V_POINT)}),
    ROWN(particle_set_position, on_surface, 0, {SYS}, {PART(P_SURF)}, {VEC(V_POINT)}),
    ROWN(particle_set_position, on_parabola, 0, {SYS}, {PART(P_PARAB)},
         {VEC(V_POINT), MAY(BIT(B_HUGE))}),
    ROW(particle_get_velocity, MX_Q, {SYS}, {PART(P_FREE)}, {OUT}),
    ROW(particle_set_velocity, 0, {SYS}, {PART(P_FREE), HELD}, {VEC(V_VEL)}),
    ROWN(particle_set_velocity, on_curve, 0, {SYS}, {PART(P_CURVE)}, {VEC(V_VEL)}),
    ROW(particle_get_mass, MX_Q, {SYS}, {PART(P_FREE)}, {OUT}),
    ROW(particle_set_mass, 0, {SYS}, {PART(P_FREE), HELD}, {POS(2)}),
    ROW(particle_set_fixed, 0, {SYS}, {PART(P_FREE), HELD}, {FLAG(1)}),
    ROW(particle_get_fixed, MX_Q, {SYS}, {PART(P_FIXED)}, {OUT}),
    ROW(particle_set_motion, 0, {SYS},
        {PART(P_FREE), ALT3(P_FIXED, INVALID, P_CURVE, UNSUPPORTED, P_R0, INVALID)},
        {DESC(S_MOTION_LIN), OK(BIT(B_NULL))}),
    ROWN(particle_set_motion, oscillation, 0, {SYS}, {PART(P_FREE)}, {DESC(S_MOTION_OSC), OK(BIT(B_NULL))}),
    ROWN(particle_set_motion, rotation, 0, {SYS}, {PART(P_FREE)}, {DESC(S_MOTION_ROT), OK(BIT(B_NULL))}),
    ROWN(particle_set_motion, callback, 0, {SYS}, {PART(P_FREE)}, {DESC(S_MOTION_CB), OK(BIT(B_NULL))}),
    ROWN(particle_set_motion, release, 0, {SYS}, {PART(P_KIN)}, {DESC(S_MOTION_LIN), OK(BIT(B_NULL))}),
    ROW(particle_get_motion, MX_Q, {SYS}, {PART(P_KIN)}, {OPT}, {OUT}),
};

const mx_table mx_rows_particle = {"particle.h", rows, sizeof rows / sizeof *rows};
