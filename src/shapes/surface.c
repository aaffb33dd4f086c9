#include "shapes/surface.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/callback.h"
#include "shapes/frame.h"
#include "core/vec.h"

#define SURFACE_DESC_MIN_SIZE sizeof(cdyn_surface_desc)
#define PI 3.141592653589793238462643
#define TWO_PI 6.283185307179586476925287

static bool positive_finite(double x)
{
    return isfinite(x) && x > 0.0;
}

/* Kind-specific checks, frame and natural domains; no allocation. */
static cdyn_status init_shape(cdyn__surface *s, const cdyn_surface_desc *d)
{
    cdyn__v3_copy(s->o, d->origin);
    if (!cdyn__v3_isfinite(s->o))
        return CDYN_ERR_INVALID_ARGUMENT;
    const cdyn__domain whole = cdyn__domain_interval(-INFINITY, INFINITY, CDYN__END_OPEN,
                                                     CDYN__END_OPEN);
    switch (d->kind) {
    case CDYN_SURFACE_PLANE: {
        double n[3];
        cdyn__v3_copy(s->e1, d->axis1);
        cdyn__v3_copy(s->e2, d->axis2);
        cdyn__v3_cross(n, s->e1, s->e2);
        double n1 = cdyn__v3_norm(s->e1), n2 = cdyn__v3_norm(s->e2);
        if (!positive_finite(n1) || !positive_finite(n2) ||
            !(cdyn__v3_norm(n) > 1e-12 * n1 * n2))
            return CDYN_ERR_INVALID_ARGUMENT;
        s->du = s->dv = whole;
        return CDYN_OK;
    }
    case CDYN_SURFACE_SPHERE:
    case CDYN_SURFACE_TORUS:
        if (!positive_finite(d->radius) ||
            !cdyn__frame_from_pole(d->axis2, d->axis1, s->e1, s->e2, s->e3))
            return CDYN_ERR_INVALID_ARGUMENT;
        s->radius = d->radius;
        s->du = cdyn__domain_periodic(0.0, TWO_PI);
        if (d->kind == CDYN_SURFACE_SPHERE) {
            s->dv = cdyn__domain_interval(0.0, PI, CDYN__END_SINGULAR, CDYN__END_SINGULAR);
        } else {
            if (!positive_finite(d->minor_radius) || !(d->minor_radius < d->radius))
                return CDYN_ERR_INVALID_ARGUMENT;
            s->minor = d->minor_radius;
            s->dv = cdyn__domain_periodic(0.0, TWO_PI);
        }
        return CDYN_OK;
    case CDYN_SURFACE_HEIGHTFIELD: {
        const cdyn_heightfield_desc *h = d->heightfield;
        cdyn_status st = cdyn__heightfield_check(h);
        if (st != CDYN_OK)
            return st;
        s->axis_up = h->up_axis;
        s->axis_u = h->up_axis == 0 ? 1 : 0;
        s->axis_v = h->up_axis == 2 ? 1 : 2;
        s->du = cdyn__domain_interval(h->origin[0], cdyn__heightfield_desc_far(h, 0),
                                      CDYN__END_HARD, CDYN__END_HARD);
        s->dv = cdyn__domain_interval(h->origin[1], cdyn__heightfield_desc_far(h, 1),
                                      CDYN__END_HARD, CDYN__END_HARD);
        return CDYN_OK;
    }
    default:
        return CDYN_ERR_INVALID_ARGUMENT;
    }
}

cdyn_status cdyn__surface_init(cdyn__surface *s, const cdyn_surface_desc *desc,
                               const cdyn_allocator *alloc)
{
    if (!s || !desc || desc->size < SURFACE_DESC_MIN_SIZE ||
        desc->size > sizeof(cdyn_surface_desc))
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__surface sf;
    memset(&sf, 0, sizeof sf);
    if (!cdyn__allocator_init(&sf.alloc, alloc))
        return CDYN_ERR_INVALID_ARGUMENT;
    sf.kind = desc->kind;
    cdyn_status st;
    if (desc->kind == CDYN_SURFACE_CALLBACK) {
        if (!desc->callback)
            return CDYN_ERR_INVALID_ARGUMENT;
        if ((st = cdyn__domain_callback(&sf.du, desc->u_min, desc->u_max,
                                        desc->periodic_u != 0)) != CDYN_OK ||
            (st = cdyn__domain_callback(&sf.dv, desc->v_min, desc->v_max,
                                        desc->periodic_v != 0)) != CDYN_OK)
            return st;
        sf.fn = desc->callback;
        sf.user = desc->user;
        sf.tag = desc->tag;
        sf.time_dependent = desc->time_dependent != 0;
    } else {
        if ((st = init_shape(&sf, desc)) != CDYN_OK ||
            (st = cdyn__domain_window(&sf.du, desc->u_min, desc->u_max)) != CDYN_OK ||
            (st = cdyn__domain_window(&sf.dv, desc->v_min, desc->v_max)) != CDYN_OK)
            return st;
        if (desc->kind == CDYN_SURFACE_HEIGHTFIELD &&
            (st = cdyn__heightfield_init(&sf.hf, desc->heightfield, &sf.alloc)) != CDYN_OK)
            return st;
    }
    *s = sf;
    return CDYN_OK;
}

void cdyn__surface_free(cdyn__surface *s)
{
    if (!s)
        return;
    if (s->kind == CDYN_SURFACE_HEIGHTFIELD && s->hf.f)
        cdyn__heightfield_free(&s->hf, &s->alloc);
    memset(s, 0, sizeof *s);
}

cdyn_status cdyn__surface_copy(cdyn__surface *dst, const cdyn__surface *src,
                               const cdyn_allocator *alloc)
{
    cdyn__surface sf = *src;
    if (alloc && !cdyn__allocator_init(&sf.alloc, alloc))
        return CDYN_ERR_INVALID_ARGUMENT;
    if (src->kind == CDYN_SURFACE_HEIGHTFIELD) {
        cdyn_status st = cdyn__heightfield_copy(&sf.hf, &src->hf, &sf.alloc);
        if (st != CDYN_OK)
            return st;
    }
    *dst = sf;
    return CDYN_OK;
}

static void put(double *out, const double v[3])
{
    if (out)
        cdyn__v3_copy(out, v);
}

cdyn_status cdyn__surface_eval(const cdyn__surface *s, double u, double v, double r[3],
                               double ru[3], double rv[3], double ruu[3], double ruv[3],
                               double rvv[3])
{
    if (!isfinite(u) || !isfinite(v))
        return CDYN_ERR_INVALID_ARGUMENT;
    double w[6][3]; /* r, ru, rv, ruu, ruv, rvv */
    memset(w, 0, sizeof w);
    const double *o = s->o, *e1 = s->e1, *e2 = s->e2, *e3 = s->e3;
    switch (s->kind) {
    case CDYN_SURFACE_PLANE:
        cdyn__v3_affine2(w[0], o, e1, u, e2, v);
        cdyn__v3_copy(w[1], e1);
        cdyn__v3_copy(w[2], e2);
        break;
    case CDYN_SURFACE_SPHERE: {
        double R = s->radius, cu = cos(u), su = sin(u), cv = cos(v), sv = sin(v);
        for (int k = 0; k < 3; k++) {
            double radial = cu * e1[k] + su * e2[k]; /* d radial / du = tangent */
            double tangent = -su * e1[k] + cu * e2[k];
            w[0][k] = o[k] + R * (sv * radial + cv * e3[k]);
            w[1][k] = R * sv * tangent;
            w[2][k] = R * (cv * radial - sv * e3[k]);
            w[3][k] = -R * sv * radial;
            w[4][k] = R * cv * tangent;
            w[5][k] = -R * (sv * radial + cv * e3[k]);
        }
        break;
    }
    case CDYN_SURFACE_TORUS: {
        double A = s->radius, B = s->minor;
        double cu = cos(u), su = sin(u), cv = cos(v), sv = sin(v), ring = A + B * cv;
        for (int k = 0; k < 3; k++) {
            double radial = cu * e1[k] + su * e2[k];
            double tangent = -su * e1[k] + cu * e2[k];
            w[0][k] = o[k] + ring * radial + B * sv * e3[k];
            w[1][k] = ring * tangent;
            w[2][k] = -B * sv * radial + B * cv * e3[k];
            w[3][k] = -ring * radial;
            w[4][k] = -B * sv * tangent;
            w[5][k] = -B * cv * radial - B * sv * e3[k];
        }
        break;
    }
    case CDYN_SURFACE_HEIGHTFIELD: {
        double f, g[2], h[3];
        cdyn__heightfield_eval(&s->hf, u, v, &f, g, h);
        int a = s->axis_u, b = s->axis_v, z = s->axis_up;
        w[0][a] = u;
        w[0][b] = v;
        w[0][z] = f;
        w[1][a] = 1.0;
        w[1][z] = g[0];
        w[2][b] = 1.0;
        w[2][z] = g[1];
        w[3][z] = h[0];
        w[4][z] = h[1];
        w[5][z] = h[2];
        break;
    }
    case CDYN_SURFACE_CALLBACK: {
        cdyn__callback_enter(s->sys);
        int rc = s->fn(s->sys, s->time, u, v, w[0], w[1], w[2], w[3], w[4], w[5], s->user);
        cdyn__callback_leave(s->sys);
        if (rc != 0)
            return CDYN_ERR_CALLBACK;
        for (int i = 0; i < 6; i++)
            if (!cdyn__v3_isfinite(w[i]))
                return CDYN_ERR_CALLBACK;
        break;
    }
    default:
        return CDYN_ERR_INVALID_ARGUMENT;
    }
    put(r, w[0]);
    put(ru, w[1]);
    put(rv, w[2]);
    put(ruu, w[3]);
    put(ruv, w[4]);
    put(rvv, w[5]);
    return CDYN_OK;
}

void cdyn__surface_wrap(const cdyn__surface *s, double *u, double *v)
{
    *u = cdyn__domain_wrap(&s->du, *u);
    *v = cdyn__domain_wrap(&s->dv, *v);
}

/* Least squares [ru rv] (a, b) = x. */
static cdyn_status tangent_coords(const double ru[3], const double rv[3], const double x[3],
                                  double *a, double *b)
{
    double g11 = cdyn__v3_dot(ru, ru), g12 = cdyn__v3_dot(ru, rv), g22 = cdyn__v3_dot(rv, rv);
    double det = g11 * g22 - g12 * g12;
    if (!(det > 1e-14 * g11 * g22) || !isfinite(det))
        return CDYN_ERR_SINGULAR;
    double p = cdyn__v3_dot(ru, x), q = cdyn__v3_dot(rv, x);
    *a = (g22 * p - g12 * q) / det;
    *b = (g11 * q - g12 * p) / det;
    return CDYN_OK;
}

cdyn_status cdyn__surface_param_velocity(const cdyn__surface *s, double u, double v,
                                         const double xdot[3], double *du, double *dv)
{
    double ru[3], rv[3];
    cdyn_status st = cdyn__surface_eval(s, u, v, NULL, ru, rv, NULL, NULL, NULL);
    if (st != CDYN_OK)
        return st;
    return tangent_coords(ru, rv, xdot, du, dv);
}

/* A whole sphere, whose chart may be turned. */
static bool rechartable(const cdyn__surface *s)
{
    return s->kind == CDYN_SURFACE_SPHERE && s->du.periodic &&
           s->dv.lo_end == CDYN__END_SINGULAR && s->dv.hi_end == CDYN__END_SINGULAR;
}

/* The frame in which the unit direction @p n from the centre lies on the
 * equator at u = pi: the old frame axis least aligned with n, made
 * orthogonal to it, is the new pole; u = 0 is opposite the point. */
static bool turned_frame(const cdyn__surface *s, const double n[3], cdyn__surface *out)
{
    const double *axes[3] = {s->e1, s->e2, s->e3};
    int pick = 0;
    for (int k = 1; k < 3; k++)
        if (fabs(cdyn__v3_dot(axes[k], n)) < fabs(cdyn__v3_dot(axes[pick], n)))
            pick = k;
    double e1[3] = {-n[0], -n[1], -n[2]}, e2[3], e3[3];
    if (!cdyn__frame_orthogonal(e3, n, axes[pick]))
        return false;
    cdyn__v3_cross(e2, e3, e1);
    *out = *s;
    cdyn__v3_copy(out->e1, e1);
    cdyn__v3_copy(out->e2, e2);
    cdyn__v3_copy(out->e3, e3);
    return true;
}

bool cdyn__surface_rechart(cdyn__surface *s, double *u, double *v, double *du, double *dv)
{
    if (!rechartable(s) || !isfinite(*u) || !isfinite(*v) ||
        !(fabs(cos(*v)) > 0.70710678118654752))
        return false;
    double r[3], ru[3], rv[3], xdot[3], n[3], rel[3];
    if (cdyn__surface_eval(s, *u, *v, r, ru, rv, NULL, NULL, NULL) != CDYN_OK)
        return false;
    cdyn__v3_lin2(xdot, ru, *du, rv, *dv);
    cdyn__v3_sub(rel, r, s->o);
    if (!cdyn__frame_unit(n, rel))
        return false;
    double nu = PI, nv = 0.5 * PI, a, b;
    cdyn__surface trial;
    if (!turned_frame(s, n, &trial) ||
        cdyn__surface_param_velocity(&trial, nu, nv, xdot, &a, &b) != CDYN_OK)
        return false;
    cdyn__v3_copy(s->e1, trial.e1);
    cdyn__v3_copy(s->e2, trial.e2);
    cdyn__v3_copy(s->e3, trial.e3);
    *u = nu;
    *v = nv;
    *du = a;
    *dv = b;
    return true;
}

bool cdyn__surface_rechart_point(cdyn__surface *s, const double x[3])
{
    double rel[3], n[3];
    if (!rechartable(s) || !cdyn__v3_isfinite(x))
        return false;
    cdyn__v3_sub(rel, x, s->o);
    /* At the centre every point ties and the closest point is on the
     * equator already. */
    if (!cdyn__frame_unit(n, rel) || !(fabs(cdyn__v3_dot(n, s->e3)) > 0.70710678118654752))
        return false;
    cdyn__surface turned;
    if (!turned_frame(s, n, &turned))
        return false;
    cdyn__v3_copy(s->e1, turned.e1);
    cdyn__v3_copy(s->e2, turned.e2);
    cdyn__v3_copy(s->e3, turned.e3);
    return true;
}
