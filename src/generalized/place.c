/* Putting a particle on its shape: the closest point and the parameter
 * velocity from a Cartesian state, and the writes of both representations. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/finite.h"
#include "core/system.h"
#include "generalized/generalized.h"
#include "shapes/curve_closest.h"
#include "shapes/surface_closest.h"

/* Coordinates of the point of @p p's shape nearest to x, and the parameter
 * velocity best matching v. On a whole sphere, a point within 45 degrees of
 * a pole is given in a turned chart (as the step would re-chart it), so
 * that the poles themselves are accepted: then *turned is set and *chart
 * holds the surface with the new frame, for the caller to adopt; the record
 * is not changed. */
/* The part dr/dt of the velocity at q (the shape's own change; shapes of
 * callbacks declared time-dependent), by central differences in t, so that
 * q' answers the rest. */
static cdyn_status own_rate(const cdyn_system *sys, cdyn__param *p, double t, const double *q,
                            double rt[3])
{
    double x[3], v[3], zero[2] = {0, 0};
    cdyn__param trial = *p;
    cdyn__carrier_init(&trial.carrier);
    cdyn_status st = cdyn__param_eval(sys, &trial, t, q, zero, x, v);
    if (!st)
        for (int i = 0; i < 3; i++)
            rt[i] = i < sys->dim ? v[i] : 0.0;
    return st;
}

cdyn_status cdyn__param_project(const cdyn_system *sys, cdyn__param *p, double t,
                                const double *x, const double *v, const double *hint, double *q,
                                double *qd, cdyn__surface *chart, bool *turned)
{
    double x3[3] = {0, 0, 0}, v3[3] = {0, 0, 0};
    memcpy(x3, x, (size_t)sys->dim * sizeof *x3);
    memcpy(v3, v, (size_t)sys->dim * sizeof *v3);
    cdyn_status st;
    if (cdyn__carrier_active(&p->carrier)) {
        /* Into the shape's own frame: the point carried back, the velocity
         * relative to the frame's material there. */
        cdyn__frame f;
        double w[3], y[3], rel[3];
        if ((st = cdyn__carrier_frame(sys, &p->carrier, t, &f)))
            return st;
        cdyn__frame_velocity_at(&f, x3, w);
        cdyn__frame_to_reference(&f, x3, y);
        for (int i = 0; i < 3; i++)
            rel[i] = v3[i] - w[i];
        cdyn__frame_unturn(&f, rel, v3);
        memcpy(x3, y, sizeof x3);
    }
    if (p->k == 1) {
        p->curve.sys = sys;
        p->curve.time = t;
    } else {
        p->surface.sys = sys;
        p->surface.time = t;
    }
    if (p->arc) {
        /* Closest in q, then in arc length; the velocity along the unit
         * tangent, which exists at the cusps too. */
        double qh = hint ? cdyn__cycloid_param_of(&p->curve, hint[0]) : 0.0, tg[3];
        if ((st = cdyn__curve_closest(&p->curve, x3, hint ? &qh : NULL, &q[0])))
            return cdyn__param_failed(sys, st, "place the point on the shape", NAN);
        q[0] = cdyn__domain_clamp(&p->arc_dom, cdyn__cycloid_arc_of(&p->curve, q[0]));
        cdyn__cycloid_eval_arc(&p->curve, q[0], NULL, tg, NULL);
        qd[0] = tg[0] * v3[0] + tg[1] * v3[1] + tg[2] * v3[2];
        return CDYN_OK;
    }
    bool changes = p->k == 1 ? p->curve.time_dependent : p->surface.time_dependent;
    double rt[3];
    if (p->k == 1) {
        if ((st = cdyn__curve_closest(&p->curve, x3, hint, &q[0])))
            return cdyn__param_failed(sys, st, "place the point on the shape", NAN);
        if (changes && (st = own_rate(sys, p, t, q, rt)))
            return st;
        for (int i = 0; changes && i < 3; i++)
            v3[i] -= rt[i];
        st = cdyn__curve_param_velocity(&p->curve, q[0], v3, &qd[0]);
    } else {
        *chart = p->surface;
        *turned = cdyn__surface_rechart_point(chart, x3);
        if ((st = cdyn__surface_closest(chart, x3, *turned ? NULL : hint, &q[0], &q[1])))
            return cdyn__param_failed(sys, st, "place the point on the shape", NAN);
        if (changes && (st = own_rate(sys, p, t, q, rt)))
            return st;
        for (int i = 0; changes && i < 3; i++)
            v3[i] -= rt[i];
        st = cdyn__surface_param_velocity(chart, q[0], q[1], v3, &qd[0], &qd[1]);
    }
    if (st == CDYN_ERR_SINGULAR)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "shape: the parametrization degenerates at the particle's point");
    return st ? cdyn__param_failed(sys, st, "place the point on the shape", q[0]) : CDYN_OK;
}

cdyn_status cdyn__param_place(cdyn_system *sys, cdyn__param *p, const double *q, const double *qd)
{
    size_t d = (size_t)sys->dim, s = p->slot;
    double x[3], v[3];
    cdyn_status st = cdyn__param_eval(sys, p, sys->time, q, qd, x, v);
    if (st)
        return st;
    memset(sys->u + s * d, 0, d * sizeof(double));
    memset(sys->ud + s * d, 0, d * sizeof(double));
    for (int a = 0; a < p->k; a++) {
        sys->u[s * d + (size_t)a] = q[a];
        sys->ud[s * d + (size_t)a] = qd[a];
    }
    memcpy(sys->x + s * d, x, d * sizeof *x);
    memcpy(sys->v + s * d, v, d * sizeof *v);
    return CDYN_OK;
}

cdyn_status cdyn__params_check_projection(cdyn_system *sys, uint32_t slot, const double *x,
                                          const double *v)
{
    cdyn__param *p = cdyn__param_of(sys, slot);
    if (!p)
        return CDYN_OK;
    size_t d = (size_t)sys->dim;
    double q[2], qd[2], xs[3], vs[3];
    cdyn__surface chart;
    bool turned = false;
    cdyn_status st = cdyn__param_project(sys, p, sys->time, x ? x : sys->x + slot * d,
                                         v ? v : sys->v + slot * d, sys->u + slot * d, q, qd,
                                         &chart, &turned);
    if (st)
        return st;
    /* On a copy of the record: nothing may change here. */
    cdyn__param trial = *p;
    if (turned)
        trial.surface = chart;
    return cdyn__param_eval(sys, &trial, sys->time, q, qd, xs, vs);
}

cdyn_status cdyn__params_sync_slot(cdyn_system *sys, uint32_t slot)
{
    if (!sys->param_of)
        return CDYN_OK;
    size_t d = (size_t)sys->dim;
    cdyn__param *p = cdyn__param_of(sys, slot);
    if (!p) {
        memcpy(sys->u + slot * d, sys->x + slot * d, d * sizeof(double));
        memcpy(sys->ud + slot * d, sys->v + slot * d, d * sizeof(double));
        return CDYN_OK;
    }
    double q[2], qd[2];
    cdyn__surface chart, old = p->surface;
    bool turned = false;
    cdyn_status st = cdyn__param_project(sys, p, sys->time, sys->x + slot * d, sys->v + slot * d,
                                         sys->u + slot * d, q, qd, &chart, &turned);
    if (st)
        return st;
    if (turned)
        p->surface = chart;
    if ((st = cdyn__param_place(sys, p, q, qd)) && turned)
        p->surface = old;
    return st;
}
