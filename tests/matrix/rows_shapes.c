/* Rows of shapes.h: every kind of curve and surface and the height field,
 * sampled without a system. */
#include "matrix.h"

static cdyn_status w_curve_desc_init(mx_ctx *c, mx_val *a)
{
    cdyn_curve_desc *d = a[0].w;
    cdyn_curve_desc_init(d, (cdyn_curve_kind)a[1].i);
    if (d && (d->size != sizeof *d || (int)d->kind != a[1].i))
        mx_broken(c, "size or kind not set as given");
    return CDYN_OK;
}

static cdyn_status w_surface_desc_init(mx_ctx *c, mx_val *a)
{
    cdyn_surface_desc *d = a[0].w;
    cdyn_surface_desc_init(d, (cdyn_surface_kind)a[1].i);
    if (d && (d->size != sizeof *d || (int)d->kind != a[1].i))
        mx_broken(c, "size or kind not set as given");
    return CDYN_OK;
}

static cdyn_status w_heightfield_desc_init(mx_ctx *c, mx_val *a)
{
    cdyn_heightfield_desc *d = a[0].w;
    cdyn_heightfield_desc_init(d);
    if (d && d->size != sizeof *d)
        mx_broken(c, "size not set");
    return CDYN_OK;
}

/* Shapes sampled from finite input give finite points and derivatives. */
static cdyn_status w_curve_evaluate(mx_ctx *c, mx_val *a)
{
    cdyn_status st = cdyn_curve_evaluate(a[0].w, a[1].i, a[2].d, a[3].w, a[4].w, a[5].w);
    for (int k = 3; k < 6; k++)
        mx_finite_out(c, st, a[k].w, (size_t)a[1].i);
    return st;
}

static cdyn_status w_curve_arc_length(mx_ctx *c, mx_val *a)
{
    return mx_finite_out(c, cdyn_curve_arc_length(a[0].w, a[1].i, a[2].d, a[3].d, a[4].w),
                         a[4].w, 1);
}

static cdyn_status w_curve_parameter_at_arc_length(mx_ctx *c, mx_val *a)
{
    return mx_finite_out(
        c, cdyn_curve_parameter_at_arc_length(a[0].w, a[1].i, a[2].d, a[3].d, a[4].w), a[4].w, 1);
}

static cdyn_status w_curve_closest_parameter(mx_ctx *c, mx_val *a)
{
    return mx_finite_out(c, cdyn_curve_closest_parameter(a[0].w, a[1].i, a[2].w, a[3].w),
                         a[3].w, 1);
}

static cdyn_status w_surface_evaluate(mx_ctx *c, mx_val *a)
{
    cdyn_status st = cdyn_surface_evaluate(a[0].w, a[1].d, a[2].d, a[3].w, a[4].w, a[5].w,
                                           a[6].w, a[7].w, a[8].w);
    for (int k = 3; k < 9; k++)
        mx_finite_out(c, st, a[k].w, 3);
    return st;
}

static cdyn_status w_surface_closest_parameters(mx_ctx *c, mx_val *a)
{
    cdyn_status st = cdyn_surface_closest_parameters(a[0].w, a[1].w, a[2].w, a[3].w);
    mx_finite_out(c, st, a[2].w, 1);
    return mx_finite_out(c, st, a[3].w, 1);
}

static cdyn_status w_heightfield_evaluate(mx_ctx *c, mx_val *a)
{
    cdyn_status st = cdyn_heightfield_evaluate(a[0].w, a[1].d, a[2].d, a[3].w, a[4].w, a[5].w);
    mx_finite_out(c, st, a[3].w, 1);
    mx_finite_out(c, st, a[4].w, 2);
    return mx_finite_out(c, st, a[5].w, 3);
}

W(curve_get_domain, a[0].w, a[1].i, a[2].w, a[3].w, a[4].w)
W(surface_get_domain, a[0].w, a[1].w, a[2].w, a[3].w)

/* Points and arc lengths beyond the range of a double are refused (as an
 * open spline's far beyond its ends), so are lengths beyond a finite end. */
#define BIG (BIT(B_HUGE) | BIT(B_NHUGE) | BIT(B_MAX))

/* One set of rows per kind of curve: the dimensions it lives in first. */
#define CURVE_ROWS(v, s, dims)                                                             \
    ROWN(curve_evaluate, v, 0, {DESC(s)}, {dims}, {FINITE(0.3), MAY(BIG)}, {OPT}, {OPT},    \
         {OPT}),                                                                            \
    ROWN(curve_get_domain, v, 0, {DESC(s)}, {dims}, {OPT}, {OPT}, {OPT}),                   \
    ROWN(curve_arc_length, v, 0, {DESC(s)}, {dims}, {FINITE(0), MAY(BIG)},                 \
         {FINITE(1), MAY(BIG)}, {OUT}),                                                     \
    {.name = "cdyn_curve_parameter_at_arc_length", .call = w_curve_parameter_at_arc_length, \
     .also = 1u << CDYN_ERR_NOT_CONVERGED, .note = #v,                                      \
     .args = {{DESC(s)}, {dims}, {FINITE(0), MAY(BIG | BIT(B_NEG))},                        \
              {FINITE(0.5), MAY(BIG | BIT(B_NEG))}, {OUT}}},                                \
    ROWN(curve_closest_parameter, v, 0, {DESC(s)}, {dims}, {VEC(V3_POINT)}, {OUT})

#define SURFACE_ROWS(v, s)                                                                 \
    ROWN(surface_evaluate, v, 0, {DESC(s)}, {FINITE(0.5)}, {FINITE(1.2)}, {OPT}, {OPT},     \
         {OPT}, {OPT}, {OPT}, {OPT}),                                                       \
    ROWN(surface_get_domain, v, 0, {DESC(s)}, {OPT}, {OPT}, {OPT}),                         \
    ROWN(surface_closest_parameters, v, 0, {DESC(s)}, {VEC(V3_POINT)}, {OUT}, {OUT})

static const mx_row rows[] = {
    ROW(curve_desc_init, 0, {OPT}, {ENUM_ANY(1)}),
    ROW(surface_desc_init, 0, {OPT}, {ENUM_ANY(1)}),
    ROW(heightfield_desc_init, 0, {OPT}),
    CURVE_ROWS(line, S_CURVE_LINE, ENUM(2, 3)),
    CURVE_ROWS(circle, S_CURVE_CIRCLE, ENUM(2, 3)),
    CURVE_ROWS(parabola, S_CURVE_PARABOLA, ENUM(2, 3)),
    CURVE_ROWS(helix, S_CURVE_HELIX, ENUM(3, 3)),
    CURVE_ROWS(cycloid, S_CURVE_CYCLOID, ENUM(2, 3)),
    CURVE_ROWS(natural_spline, S_CURVE_NATURAL, ENUM(2, 3)),
    CURVE_ROWS(clamped_spline, S_CURVE_CLAMPED, ENUM(2, 3)),
    CURVE_ROWS(closed_spline, S_CURVE_CLOSED, ENUM(2, 3)),
    CURVE_ROWS(callback, S_CURVE_CB, ENUM(2, 3)),
    SURFACE_ROWS(plane, S_SURF_PLANE),
    SURFACE_ROWS(sphere, S_SURF_SPHERE),
    SURFACE_ROWS(torus, S_SURF_TORUS),
    SURFACE_ROWS(heightfield, S_SURF_HF),
    SURFACE_ROWS(callback, S_SURF_CB),
    ROW(heightfield_evaluate, 0, {DESC(S_HF)}, {FINITE(0.5)}, {FINITE(1.5)}, {OPT}, {OPT},
        {OPT}),
};

const mx_table mx_rows_shapes = {"shapes.h", rows, sizeof rows / sizeof *rows};
