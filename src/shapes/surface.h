/* Surfaces x = r(u, v) in 3-D for parametric constraints: kinds, evaluation,
 * domains, and the sphere's change of chart near its poles.
 *
 * Built from a public cdyn_surface_desc (parametrizations in cdyn/shapes.h);
 * a height-field surface owns its interpolation tables through the allocator
 * it was built with. Evaluation never allocates. Closest point:
 * surface_closest.h.
 */
#ifndef CDYN__PARAMETRIC_SURFACE_H
#define CDYN__PARAMETRIC_SURFACE_H

#include <stdbool.h>

#include "cdyn/shapes.h"
#include "cdyn/types.h"

#include "shapes/domain.h"
#include "shapes/heightfield.h"

typedef struct cdyn__surface {
    cdyn_surface_kind kind;
    double o[3];            /* plane point, sphere or torus centre */
    double e1[3], e2[3];    /* plane: the axes as given; sphere, torus: frame */
    double e3[3];           /* sphere, torus: the pole axis */
    double radius, minor;   /* sphere radius; torus radii */
    cdyn__heightfield hf;   /* height field: owned tables */
    int axis_u, axis_v, axis_up; /* height field: space axes of u, v and height */
    cdyn_surface_fn fn;
    void *user;
    uint64_t tag;           /* what a snapshot holds in place of fn, user */
    bool time_dependent;    /* callback kind: r depends on t */
    /* What a callback receives (as for curves, shapes/curve.h). */
    const cdyn_system *sys;
    double time;
    cdyn__domain du, dv;
    cdyn_allocator alloc;
} cdyn__surface;

/* Builds *s from @p desc, allocating with @p alloc (NULL: malloc/free).
 * CDYN_ERR_INVALID_ARGUMENT for a bad description, CDYN_ERR_NO_MEMORY; *s is
 * written only on success. */
cdyn_status cdyn__surface_init(cdyn__surface *s, const cdyn_surface_desc *desc,
                               const cdyn_allocator *alloc);

/* Frees what *s owns and clears it; a cleared surface is a no-op. */
void cdyn__surface_free(cdyn__surface *s);

/* Deep copy with @p alloc (NULL: src's allocator); written only on success. */
cdyn_status cdyn__surface_copy(cdyn__surface *dst, const cdyn__surface *src,
                               const cdyn_allocator *alloc);

/* r and its first and second derivatives at (u, v), each optional (3
 * doubles). u, v finite, else CDYN_ERR_INVALID_ARGUMENT; CDYN_ERR_CALLBACK
 * (outputs unchanged). Never allocates. */
cdyn_status cdyn__surface_eval(const cdyn__surface *s, double u, double v, double r[3],
                               double ru[3], double rv[3], double ruu[3], double ruv[3],
                               double rvv[3]);

/* Wraps u and v into their domains where periodic. */
void cdyn__surface_wrap(const cdyn__surface *s, double *u, double *v);

/* Parameter velocities (u', v') that best match the Cartesian velocity
 * @p xdot at (u, v): least squares on [r_u r_v] (u', v') = xdot.
 * CDYN_ERR_SINGULAR where r_u, r_v are dependent (a sphere's pole). */
cdyn_status cdyn__surface_param_velocity(const cdyn__surface *s, double u, double v,
                                         const double xdot[3], double *du, double *dv);

/* Sphere pole handling. For a whole sphere (no window) whose point (u, v) is
 * within 45 degrees of a pole (|cos v| > cos 45), turns the sphere's frame so
 * that the point lies on the new equator at (u, v) = (pi, pi/2), and maps the
 * parameter velocities (*du, *dv) so that the Cartesian position and
 * velocity are unchanged (to rounding). The new pole axis is the old frame
 * axis least aligned with the point, made orthogonal to it. Returns true if
 * the chart changed; false (nothing changed) otherwise and for other kinds,
 * which have no singular points inside their domains. Deterministic. */
bool cdyn__surface_rechart(cdyn__surface *s, double *u, double *v, double *du, double *dv);

/* The same for a point @p x in space about to be put on a whole sphere
 * (its nearest point on the sphere is what matters): when that point lies
 * within 45 degrees of a pole, the pole included, turns the frame so that
 * it lies on the new equator at (pi, pi/2). Returns true if the chart
 * changed; false (nothing changed) otherwise, for other kinds, for a sphere
 * with a window and for x at the centre. */
bool cdyn__surface_rechart_point(cdyn__surface *s, const double x[3]);

#endif /* CDYN__PARAMETRIC_SURFACE_H */
