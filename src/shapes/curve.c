#include "shapes/curve.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/callback.h"
#include "shapes/frame.h"
#include "core/vec.h"

#define CURVE_DESC_MIN_SIZE sizeof(cdyn_curve_desc)
#define TWO_PI 6.283185307179586476925287

static bool positive_finite(double x)
{
    return isfinite(x) && x > 0.0;
}

/* The kind-specific part of init for the analytic kinds: frame and scalars,
 * and the natural domain. */
static cdyn_status init_analytic(cdyn__curve *c, const cdyn_curve_desc *d)
{
    int dim = c->dim;
    double a1[3], a2[3];
    cdyn__frame_load(c->o, d->origin, dim);
    cdyn__frame_load(a1, d->axis1, dim);
    cdyn__frame_load(a2, d->axis2, dim);
    if (!cdyn__v3_isfinite(c->o))
        return CDYN_ERR_INVALID_ARGUMENT;
    switch (d->kind) {
    case CDYN_CURVE_LINE:
        if (!cdyn__frame_unit(c->e1, a1))
            return CDYN_ERR_INVALID_ARGUMENT;
        c->dom = cdyn__domain_interval(-INFINITY, INFINITY, CDYN__END_OPEN, CDYN__END_OPEN);
        return CDYN_OK;
    case CDYN_CURVE_CIRCLE:
    case CDYN_CURVE_PARABOLA:
    case CDYN_CURVE_CYCLOID:
        if (!cdyn__frame_from_axes(a1, a2, c->e1, c->e2, c->e3))
            return CDYN_ERR_INVALID_ARGUMENT;
        if (d->kind == CDYN_CURVE_PARABOLA) {
            if (!isfinite(d->coefficient))
                return CDYN_ERR_INVALID_ARGUMENT;
            c->a = d->coefficient;
        } else if (!positive_finite(d->radius)) {
            return CDYN_ERR_INVALID_ARGUMENT;
        }
        c->radius = d->radius;
        /* A cycloid is one arch: a bead cannot pass a cusp, it stops there. */
        c->dom = d->kind == CDYN_CURVE_CIRCLE    ? cdyn__domain_periodic(0.0, TWO_PI)
                 : d->kind == CDYN_CURVE_CYCLOID ? cdyn__domain_interval(0.0, TWO_PI,
                                                                         CDYN__END_HARD,
                                                                         CDYN__END_HARD)
                                                 : cdyn__domain_interval(-INFINITY, INFINITY,
                                                                         CDYN__END_OPEN,
                                                                         CDYN__END_OPEN);
        return CDYN_OK;
    case CDYN_CURVE_HELIX:
        if (dim != 3 || !positive_finite(d->radius) || !isfinite(d->pitch) || d->pitch == 0.0 ||
            !cdyn__frame_from_pole(a2, a1, c->e1, c->e2, c->e3))
            return CDYN_ERR_INVALID_ARGUMENT;
        c->radius = d->radius;
        c->rise = d->pitch / TWO_PI;
        c->dom = cdyn__domain_interval(-INFINITY, INFINITY, CDYN__END_OPEN, CDYN__END_OPEN);
        return CDYN_OK;
    default:
        return CDYN_ERR_INVALID_ARGUMENT;
    }
}

cdyn_status cdyn__curve_init(cdyn__curve *c, const cdyn_curve_desc *desc, int dim,
                             const cdyn_allocator *alloc)
{
    if (!c || !desc || desc->size < CURVE_DESC_MIN_SIZE || desc->size > sizeof(cdyn_curve_desc) ||
        (dim != 2 && dim != 3))
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__curve cv;
    memset(&cv, 0, sizeof cv);
    if (!cdyn__allocator_init(&cv.alloc, alloc))
        return CDYN_ERR_INVALID_ARGUMENT;
    cv.kind = desc->kind;
    cv.dim = dim;
    cdyn_status st;
    switch (desc->kind) {
    case CDYN_CURVE_CALLBACK:
        if (!desc->callback)
            return CDYN_ERR_INVALID_ARGUMENT;
        st = cdyn__domain_callback(&cv.dom, desc->q_min, desc->q_max, desc->periodic != 0);
        if (st != CDYN_OK)
            return st;
        cv.fn = desc->callback;
        cv.user = desc->user;
        cv.tag = desc->tag;
        cv.time_dependent = desc->time_dependent != 0;
        break;
    case CDYN_CURVE_SPLINE: {
        if (desc->num_points < 4)
            return CDYN_ERR_INVALID_ARGUMENT;
        double n_seg = (double)(desc->spline_end == CDYN_SPLINE_CLOSED ? desc->num_points
                                                                       : desc->num_points - 1);
        cv.dom = desc->spline_end == CDYN_SPLINE_CLOSED
                     ? cdyn__domain_periodic(0.0, n_seg)
                     : cdyn__domain_interval(0.0, n_seg, CDYN__END_HARD, CDYN__END_HARD);
        /* Window first: a refusal must not cost an allocation. */
        if ((st = cdyn__domain_window(&cv.dom, desc->q_min, desc->q_max)) != CDYN_OK)
            return st;
        st = cdyn__spline_init(&cv.spline, desc->points, desc->num_points, dim, desc->spline_end,
                               desc->start_tangent, desc->end_tangent, &cv.alloc);
        if (st != CDYN_OK)
            return st;
        break;
    }
    default:
        if ((st = init_analytic(&cv, desc)) != CDYN_OK)
            return st;
        if ((st = cdyn__domain_window(&cv.dom, desc->q_min, desc->q_max)) != CDYN_OK)
            return st;
        break;
    }
    *c = cv;
    return CDYN_OK;
}

void cdyn__curve_free(cdyn__curve *c)
{
    if (!c)
        return;
    if (c->kind == CDYN_CURVE_SPLINE && c->spline.coef)
        cdyn__spline_free(&c->spline, &c->alloc);
    memset(c, 0, sizeof *c);
}

cdyn_status cdyn__curve_copy(cdyn__curve *dst, const cdyn__curve *src,
                             const cdyn_allocator *alloc)
{
    cdyn__curve cv = *src;
    if (alloc && !cdyn__allocator_init(&cv.alloc, alloc))
        return CDYN_ERR_INVALID_ARGUMENT;
    if (src->kind == CDYN_CURVE_SPLINE) {
        cdyn_status st = cdyn__spline_copy(&cv.spline, &src->spline, &cv.alloc);
        if (st != CDYN_OK)
            return st;
    }
    *dst = cv;
    return CDYN_OK;
}

static cdyn_status eval_callback(const cdyn__curve *c, double q, double r[3], double dr[3],
                                 double ddr[3])
{
    double v[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    cdyn__callback_enter(c->sys);
    int rc = c->fn(c->sys, c->time, q, v[0], v[1], v[2], c->user);
    cdyn__callback_leave(c->sys);
    if (rc != 0)
        return CDYN_ERR_CALLBACK;
    for (int i = 0; i < 3; i++) {
        if (c->dim == 2)
            v[i][2] = 0.0;
        if (!cdyn__v3_isfinite(v[i]))
            return CDYN_ERR_CALLBACK;
    }
    if (r)
        cdyn__v3_copy(r, v[0]);
    if (dr)
        cdyn__v3_copy(dr, v[1]);
    if (ddr)
        cdyn__v3_copy(ddr, v[2]);
    return CDYN_OK;
}

cdyn_status cdyn__curve_eval(const cdyn__curve *c, double q, double r[3], double dr[3],
                             double ddr[3])
{
    if (!isfinite(q))
        return CDYN_ERR_INVALID_ARGUMENT;
    const double *o = c->o, *e1 = c->e1, *e2 = c->e2;
    double R = c->radius;
    switch (c->kind) {
    case CDYN_CURVE_LINE:
        if (r)
            cdyn__v3_affine2(r, o, e1, q, e1, 0.0);
        if (dr)
            cdyn__v3_copy(dr, e1);
        if (ddr)
            cdyn__v3_set(ddr, 0.0, 0.0, 0.0);
        return CDYN_OK;
    case CDYN_CURVE_CIRCLE: {
        double cq = cos(q), sq = sin(q);
        if (r)
            cdyn__v3_affine2(r, o, e1, R * cq, e2, R * sq);
        if (dr)
            cdyn__v3_lin2(dr, e1, -R * sq, e2, R * cq);
        if (ddr)
            cdyn__v3_lin2(ddr, e1, -R * cq, e2, -R * sq);
        return CDYN_OK;
    }
    case CDYN_CURVE_PARABOLA:
        if (r)
            cdyn__v3_affine2(r, o, e1, q, e2, c->a * q * q);
        if (dr)
            cdyn__v3_lin2(dr, e1, 1.0, e2, 2.0 * c->a * q);
        if (ddr)
            cdyn__v3_lin2(ddr, e1, 0.0, e2, 2.0 * c->a);
        return CDYN_OK;
    case CDYN_CURVE_HELIX: {
        double cq = cos(q), sq = sin(q), b = c->rise;
        const double *e3 = c->e3;
        for (int k = 0; k < 3; k++) {
            if (r)
                r[k] = o[k] + R * (cq * e1[k] + sq * e2[k]) + b * q * e3[k];
            if (dr)
                dr[k] = R * (-sq * e1[k] + cq * e2[k]) + b * e3[k];
            if (ddr)
                ddr[k] = -R * (cq * e1[k] + sq * e2[k]);
        }
        return CDYN_OK;
    }
    case CDYN_CURVE_CYCLOID: {
        double cq = cos(q), sq = sin(q);
        if (r)
            cdyn__v3_affine2(r, o, e1, R * (q - sq), e2, R * (1.0 - cq));
        if (dr)
            cdyn__v3_lin2(dr, e1, R * (1.0 - cq), e2, R * sq);
        if (ddr)
            cdyn__v3_lin2(ddr, e1, R * sq, e2, R * cq);
        return CDYN_OK;
    }
    case CDYN_CURVE_SPLINE:
        cdyn__spline_eval(&c->spline, q, r, dr, ddr);
        return CDYN_OK;
    case CDYN_CURVE_CALLBACK:
        return eval_callback(c, q, r, dr, ddr);
    }
    return CDYN_ERR_INVALID_ARGUMENT;
}

const cdyn__domain *cdyn__curve_domain(const cdyn__curve *c)
{
    return &c->dom;
}

double cdyn__curve_wrap(const cdyn__curve *c, double q)
{
    return cdyn__domain_wrap(&c->dom, q);
}

cdyn_status cdyn__curve_param_velocity(const cdyn__curve *c, double q, const double xdot[3],
                                       double *qdot)
{
    double dr[3];
    cdyn_status st = cdyn__curve_eval(c, q, NULL, dr, NULL);
    if (st != CDYN_OK)
        return st;
    double n2 = cdyn__v3_dot(dr, dr);
    if (!(n2 > 0.0))
        return CDYN_ERR_SINGULAR;
    *qdot = cdyn__v3_dot(dr, xdot) / n2;
    return CDYN_OK;
}

/* ---- the cycloid in arc length ---- */

double cdyn__cycloid_arc_of(const cdyn__curve *c, double q)
{
    double k = floor(q / TWO_PI), s = sin(0.25 * (q - k * TWO_PI));
    return 8.0 * c->radius * (k + s * s);
}

/* Arch index k and the half-angle sine and cosine (sin(q0/4), cos(q0/4)) of
 * the point at arc length s, q0 = q - 2 pi k in [0, 2 pi]; the arch [0, 8 R]
 * keeps both of its cusps (k = 0). */
static double cycloid_split(double R, double s, double *sh, double *ch)
{
    double arch = 8.0 * R, k = s >= 0.0 && s <= arch ? 0.0 : floor(s / arch);
    double rem = s - k * arch;
    rem = rem < 0.0 ? 0.0 : (rem > arch ? arch : rem);
    /* Both from their own end, so that each is accurate near its cusp. */
    *sh = sqrt(rem / arch);
    *ch = sqrt((arch - rem) / arch);
    return k;
}

double cdyn__cycloid_param_of(const cdyn__curve *c, double s)
{
    double sh, ch, k = cycloid_split(c->radius, s, &sh, &ch);
    return k * TWO_PI + 4.0 * atan2(sh, ch);
}

void cdyn__cycloid_eval_arc(const cdyn__curve *c, double s, double r[3], double dr[3],
                            double ddr[3])
{
    double R = c->radius, sh, ch, k = cycloid_split(R, s, &sh, &ch);
    /* phi = q0 / 2 in [0, pi]: tangent (sin phi, cos phi) in (e1, e2). */
    double sp = 2.0 * sh * ch, cp = (ch - sh) * (ch + sh);
    if (r) {
        double phi = 2.0 * atan2(sh, ch);
        cdyn__v3_affine2(r, c->o, c->e1, R * (k * TWO_PI + 2.0 * phi - 2.0 * sp * cp), c->e2,
                         2.0 * R * sp * sp);
    }
    if (dr)
        cdyn__v3_lin2(dr, c->e1, sp, c->e2, cp);
    if (ddr) {
        double kappa = sp > 0.0 ? 1.0 / (4.0 * R * sp) : 0.0;
        cdyn__v3_lin2(ddr, c->e1, kappa * cp, c->e2, -kappa * sp);
    }
}
