/* Rows of parametric.h: particles put on every kind of curve and surface,
 * their coordinates. */
#include "matrix.h"

/* A surface in a 2-D system: refused, which this variant expects. */
static cdyn_status w_constraint_add_on_surface_2d(mx_ctx *c, mx_val *a)
{
    cdyn_status st = cdyn_constraint_add_on_surface(a[0].w, a[1].h, a[2].w, a[3].w);
    if (st != CDYN_ERR_INVALID_ARGUMENT)
        mx_broken(c, "a surface in a 2-D system was not refused with INVALID_ARGUMENT");
    return CDYN_OK;
}

W(constraint_add_on_curve, a[0].w, a[1].h, a[2].w, a[3].w)
W(constraint_add_on_surface, a[0].w, a[1].h, a[2].w, a[3].w)
W(constraint_get_coordinate_count, a[0].w, a[1].h, a[2].w)
W(constraint_get_coordinates, a[0].w, a[1].h, a[2].w, a[3].w)
W(constraint_set_coordinates, a[0].w, a[1].h, a[2].w, a[3].w)

/* Particles a shape must refuse: one on a shape already, a rigid body's. */
#define ON_CURVE(s) {SYS}, {PART(P_FREE), ALT2(P_CURVE, INVALID, P_R0, INVALID)}, {DESC(s)}, {OUT}
#define ON_SURF(s) {SYS}, {PART(P_FREE), ALT2(P_SURF, INVALID, P_R0, INVALID)}, {DESC(s)}, {OUT}

static const mx_row rows[] = {
    ROW(constraint_add_on_curve, 0, ON_CURVE(S_CURVE_CIRCLE)),
    ROWN(constraint_add_on_curve, line, 0, ON_CURVE(S_CURVE_LINE)),
    ROWN(constraint_add_on_curve, parabola, 0, ON_CURVE(S_CURVE_PARABOLA)),
    ROWN(constraint_add_on_curve, helix, 0, ON_CURVE(S_CURVE_HELIX)),
    ROWN(constraint_add_on_curve, cycloid, 0, ON_CURVE(S_CURVE_CYCLOID)),
    ROWN(constraint_add_on_curve, natural_spline, 0, ON_CURVE(S_CURVE_NATURAL)),
    ROWN(constraint_add_on_curve, clamped_spline, 0, ON_CURVE(S_CURVE_CLAMPED)),
    ROWN(constraint_add_on_curve, closed_spline, 0, ON_CURVE(S_CURVE_CLOSED)),
    ROWN(constraint_add_on_curve, callback, 0, ON_CURVE(S_CURVE_CB)),
    ROWN(constraint_add_on_curve, circle_2d, MX_2D, ON_CURVE(S_CURVE_CIRCLE)),
    ROWN(constraint_add_on_curve, spline_2d, MX_2D, ON_CURVE(S_CURVE_NATURAL)),
    ROW(constraint_add_on_surface, 0, ON_SURF(S_SURF_SPHERE)),
    ROWN(constraint_add_on_surface, plane, 0, ON_SURF(S_SURF_PLANE)),
    ROWN(constraint_add_on_surface, torus, 0, ON_SURF(S_SURF_TORUS)),
    ROWN(constraint_add_on_surface, heightfield, 0, ON_SURF(S_SURF_HF)),
    ROWN(constraint_add_on_surface, callback, 0, ON_SURF(S_SURF_CB)),
    ROWV(constraint_add_on_surface, 2d, MX_2D | MX_NOBUSY, {SYS, SKIP(~0ull)},
         {PART(P_FREE), SKIP(~0ull)}, {DESC(S_SURF_SPHERE), SKIP(~0ull)}, {OUT, SKIP(~0ull)}),
    ROW(constraint_get_coordinate_count, MX_Q, {SYS}, {CONS(C_CURVE)}, {OUT}),
    ROW(constraint_get_coordinates, MX_Q, {SYS}, {CONS(C_CURVE), ALT(C_DIST, INVALID)}, {OPT},
        {OPT}),
    ROW(constraint_set_coordinates, 0, {SYS}, {CONS(C_CURVE), ALT(C_DIST, INVALID)},
        {VEC_OPT(V_Q1)}, {VEC_OPT(V_Q1)}),
    ROWN(constraint_set_coordinates, parabola, 0, {SYS}, {CONS(C_PARAB)},
         {VEC_OPT(V_Q1), MAY(BIT(B_HUGE))}, {VEC_OPT(V_Q1), MAY(BIT(B_HUGE))}),
    ROWN(constraint_set_coordinates, surface, 0, {SYS}, {CONS(C_SURF)},
         {VEC_OPT(V_Q2), NO(BIT(B_HUGE))}, {VEC_OPT(V_Q2)}),
};

const mx_table mx_rows_parametric = {"parametric.h", rows, sizeof rows / sizeof *rows};
