/* The public shape functions of cdyn/shapes.h: description defaults and
 * system-free queries, each on a temporary internal shape (which allocates,
 * with malloc, only for splines and height fields). */
#include "cdyn/shapes.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"
#include "shapes/curve.h"
#include "shapes/curve_closest.h"
#include "shapes/curve_length.h"
#include "shapes/heightfield.h"
#include "shapes/surface.h"
#include "shapes/surface_closest.h"

CDYN_API void cdyn_curve_desc_init(cdyn_curve_desc *desc, cdyn_curve_kind kind)
{
    if (!desc)
        return;
    memset(desc, 0, sizeof *desc);
    desc->size = sizeof *desc;
    desc->kind = kind;
    desc->axis1[0] = 1.0;
    if (kind == CDYN_CURVE_HELIX)
        desc->axis2[2] = 1.0;
    else
        desc->axis2[1] = 1.0;
    desc->radius = 1.0;
    desc->pitch = 1.0;
    desc->coefficient = 1.0;
    desc->spline_end = CDYN_SPLINE_NATURAL;
    desc->q_min = -INFINITY;
    desc->q_max = INFINITY;
}

CDYN_API void cdyn_heightfield_desc_init(cdyn_heightfield_desc *desc)
{
    if (!desc)
        return;
    memset(desc, 0, sizeof *desc);
    desc->size = sizeof *desc;
    desc->spacing[0] = desc->spacing[1] = 1.0;
    desc->interpolation = CDYN_HEIGHTFIELD_BICUBIC;
    desc->up_axis = 2;
}

CDYN_API void cdyn_surface_desc_init(cdyn_surface_desc *desc, cdyn_surface_kind kind)
{
    if (!desc)
        return;
    memset(desc, 0, sizeof *desc);
    desc->size = sizeof *desc;
    desc->kind = kind;
    desc->axis1[0] = 1.0;
    if (kind == CDYN_SURFACE_PLANE)
        desc->axis2[1] = 1.0;
    else
        desc->axis2[2] = 1.0;
    desc->radius = 1.0;
    desc->minor_radius = 0.25;
    desc->u_min = desc->v_min = -INFINITY;
    desc->u_max = desc->v_max = INFINITY;
}

static void store(double *out, const double v[3], int n)
{
    if (out)
        for (int k = 0; k < n; k++)
            out[k] = v[k];
}

static bool finite_n(const double *x, int n)
{
    for (int k = 0; k < n; k++)
        if (!isfinite(x[k]))
            return false;
    return true;
}

/* A result out of the range of a double (a point far out on a parabola or
 * a spline's extension, the speed of a degenerate shape) is no answer: the
 * call is refused rather than return CDYN_OK with infinities. */
static cdyn_status finite_result(cdyn_status st, const double *v, int n)
{
    return st == CDYN_OK && !finite_n(v, n) ? CDYN_ERR_INVALID_ARGUMENT : st;
}

CDYN_API cdyn_status cdyn_curve_evaluate(const cdyn_curve_desc *desc, int dim, double q,
                                         double *r, double *dr, double *ddr)
{
    if (!isfinite(q))
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__curve c;
    cdyn_status st = cdyn__curve_init(&c, desc, dim, NULL);
    if (st != CDYN_OK)
        return st;
    double v[3][3] = {{0}};
    st = cdyn__curve_eval(&c, q, v[0], v[1], v[2]);
    cdyn__curve_free(&c);
    st = finite_result(st, &v[0][0], 9);
    if (st == CDYN_OK) {
        store(r, v[0], dim);
        store(dr, v[1], dim);
        store(ddr, v[2], dim);
    }
    return st;
}

CDYN_API cdyn_status cdyn_curve_get_domain(const cdyn_curve_desc *desc, int dim, double *q_min,
                                           double *q_max, int *periodic)
{
    cdyn__curve c;
    cdyn_status st = cdyn__curve_init(&c, desc, dim, NULL);
    if (st != CDYN_OK)
        return st;
    if (q_min)
        *q_min = c.dom.lo;
    if (q_max)
        *q_max = c.dom.hi;
    if (periodic)
        *periodic = c.dom.periodic ? 1 : 0;
    cdyn__curve_free(&c);
    return CDYN_OK;
}

CDYN_API cdyn_status cdyn_curve_arc_length(const cdyn_curve_desc *desc, int dim, double q_from,
                                           double q_to, double *out)
{
    if (!out || !isfinite(q_from) || !isfinite(q_to))
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__curve c;
    cdyn_status st = cdyn__curve_init(&c, desc, dim, NULL);
    if (st != CDYN_OK)
        return st;
    double s;
    st = cdyn__curve_arc_length(&c, q_from, q_to, &s);
    cdyn__curve_free(&c);
    st = finite_result(st, &s, 1);
    if (st == CDYN_OK)
        *out = s;
    return st;
}

CDYN_API cdyn_status cdyn_curve_parameter_at_arc_length(const cdyn_curve_desc *desc, int dim,
                                                        double q_from, double length,
                                                        double *out)
{
    if (!out || !isfinite(q_from) || !isfinite(length))
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__curve c;
    cdyn_status st = cdyn__curve_init(&c, desc, dim, NULL);
    if (st != CDYN_OK)
        return st;
    double q;
    st = cdyn__curve_param_at_length(&c, q_from, length, &q);
    cdyn__curve_free(&c);
    st = finite_result(st, &q, 1);
    if (st == CDYN_OK)
        *out = q;
    return st;
}

CDYN_API cdyn_status cdyn_curve_closest_parameter(const cdyn_curve_desc *desc, int dim,
                                                  const double *x, double *out)
{
    if (!x || !out || (dim != 2 && dim != 3) || !finite_n(x, dim))
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__curve c;
    cdyn_status st = cdyn__curve_init(&c, desc, dim, NULL);
    if (st != CDYN_OK)
        return st;
    double p[3] = {x[0], x[1], dim == 3 ? x[2] : 0.0}, q;
    st = cdyn__curve_closest(&c, p, NULL, &q);
    cdyn__curve_free(&c);
    st = finite_result(st, &q, 1);
    if (st == CDYN_OK)
        *out = q;
    return st;
}

CDYN_API cdyn_status cdyn_surface_evaluate(const cdyn_surface_desc *desc, double u, double v,
                                           double *r, double *ru, double *rv, double *ruu,
                                           double *ruv, double *rvv)
{
    if (!isfinite(u) || !isfinite(v))
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__surface s;
    cdyn_status st = cdyn__surface_init(&s, desc, NULL);
    if (st != CDYN_OK)
        return st;
    double w[6][3] = {{0}};
    st = cdyn__surface_eval(&s, u, v, w[0], w[1], w[2], w[3], w[4], w[5]);
    cdyn__surface_free(&s);
    st = finite_result(st, &w[0][0], 18);
    if (st == CDYN_OK) {
        store(r, w[0], 3);
        store(ru, w[1], 3);
        store(rv, w[2], 3);
        store(ruu, w[3], 3);
        store(ruv, w[4], 3);
        store(rvv, w[5], 3);
    }
    return st;
}

CDYN_API cdyn_status cdyn_surface_get_domain(const cdyn_surface_desc *desc, double *u_range,
                                             double *v_range, int *periodic)
{
    cdyn__surface s;
    cdyn_status st = cdyn__surface_init(&s, desc, NULL);
    if (st != CDYN_OK)
        return st;
    if (u_range) {
        u_range[0] = s.du.lo;
        u_range[1] = s.du.hi;
    }
    if (v_range) {
        v_range[0] = s.dv.lo;
        v_range[1] = s.dv.hi;
    }
    if (periodic) {
        periodic[0] = s.du.periodic ? 1 : 0;
        periodic[1] = s.dv.periodic ? 1 : 0;
    }
    cdyn__surface_free(&s);
    return CDYN_OK;
}

CDYN_API cdyn_status cdyn_surface_closest_parameters(const cdyn_surface_desc *desc,
                                                     const double *x, double *u, double *v)
{
    if (!x || !u || !v || !finite_n(x, 3))
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__surface s;
    cdyn_status st = cdyn__surface_init(&s, desc, NULL);
    if (st != CDYN_OK)
        return st;
    double p[3] = {x[0], x[1], x[2]}, ab[2] = {0, 0};
    st = cdyn__surface_closest(&s, p, NULL, &ab[0], &ab[1]);
    cdyn__surface_free(&s);
    st = finite_result(st, ab, 2);
    if (st == CDYN_OK) {
        *u = ab[0];
        *v = ab[1];
    }
    return st;
}

CDYN_API cdyn_status cdyn_heightfield_evaluate(const cdyn_heightfield_desc *desc, double x,
                                               double y, double *height, double *gradient,
                                               double *hessian)
{
    if (!isfinite(x) || !isfinite(y))
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn_allocator a = cdyn__allocator_default();
    cdyn__heightfield h;
    cdyn_status st = cdyn__heightfield_init(&h, desc, &a);
    if (st != CDYN_OK)
        return st;
    double fgh[6];
    cdyn__heightfield_eval(&h, x, y, &fgh[0], &fgh[1], &fgh[3]);
    cdyn__heightfield_free(&h, &a);
    /* Slopes of a grid step near the smallest double overflow: no answer. */
    if (!finite_n(fgh, 6))
        return CDYN_ERR_INVALID_ARGUMENT;
    double f = fgh[0], g[2] = {fgh[1], fgh[2]}, hs[3] = {fgh[3], fgh[4], fgh[5]};
    if (height)
        *height = f;
    if (gradient) {
        gradient[0] = g[0];
        gradient[1] = g[1];
    }
    if (hessian) {
        hessian[0] = hs[0];
        hessian[1] = hs[1];
        hessian[2] = hs[2];
    }
    return CDYN_OK;
}
