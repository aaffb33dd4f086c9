/* Curves x = r(q) for parametric constraints: kinds, evaluation, domain.
 *
 * A cdyn__curve is built from a public cdyn_curve_desc (see cdyn/shapes.h for
 * the parametrization of every kind), owns its arrays (spline tables) through
 * the allocator it was built with, and evaluates r, r', r'' without
 * allocating. Arc length: curve_length.h; closest point: curve_closest.h.
 */
#ifndef CDYN__PARAMETRIC_CURVE_H
#define CDYN__PARAMETRIC_CURVE_H

#include <stdbool.h>

#include "cdyn/shapes.h"
#include "cdyn/types.h"

#include "shapes/domain.h"
#include "shapes/spline.h"

typedef struct cdyn__curve {
    cdyn_curve_kind kind;
    int dim;                          /* 2 or 3; in 2-D every vector has z = 0 */
    double o[3], e1[3], e2[3], e3[3]; /* origin and orthonormal frame (kind-specific) */
    double radius;                    /* circle, helix, cycloid */
    double rise;                      /* helix: pitch / (2 pi), along e3 */
    double a;                         /* parabola coefficient */
    cdyn__spline spline;              /* spline kind: owned tables */
    cdyn_curve_fn fn;                 /* callback kind */
    void *user;
    uint64_t tag;                     /* what a snapshot holds in place of fn, user */
    bool time_dependent;              /* callback kind: r depends on t */
    /* What a callback receives: the system that holds the curve (NULL when
     * evaluated alone) and the time, set by the holder before it
     * evaluates. */
    const cdyn_system *sys;
    double time;
    cdyn__domain dom;
    cdyn_allocator alloc; /* what the owned arrays came from */
} cdyn__curve;

/* Builds *c from @p desc in a @p dim-dimensional space (2 or 3), allocating
 * with @p alloc (NULL: malloc/free). CDYN_ERR_INVALID_ARGUMENT for a bad
 * description (every rule of cdyn/shapes.h), CDYN_ERR_NO_MEMORY. *c is
 * written only on success. */
cdyn_status cdyn__curve_init(cdyn__curve *c, const cdyn_curve_desc *desc, int dim,
                             const cdyn_allocator *alloc);

/* Frees what *c owns and clears it; a cleared curve is a no-op. */
void cdyn__curve_free(cdyn__curve *c);

/* Deep copy into *dst with @p alloc (NULL: src's allocator); written only on
 * success. The callback's user pointer is shared, not copied. */
cdyn_status cdyn__curve_copy(cdyn__curve *dst, const cdyn__curve *src,
                             const cdyn_allocator *alloc);

/* r(q), r'(q), r''(q) (derivatives in q), each optional, 3 doubles. q must be
 * finite (CDYN_ERR_INVALID_ARGUMENT); periodic kinds accept any q; an open
 * spline extends its end cubics. A callback that fails or returns non-finite
 * values gives CDYN_ERR_CALLBACK and leaves the outputs unchanged. Never
 * allocates. */
cdyn_status cdyn__curve_eval(const cdyn__curve *c, double q, double r[3], double dr[3],
                             double ddr[3]);

/* The parameter domain (interval, periodicity, kind of each end). */
const cdyn__domain *cdyn__curve_domain(const cdyn__curve *c);

/* q wrapped into the domain when it is periodic, else unchanged. */
double cdyn__curve_wrap(const cdyn__curve *c, double q);

/* The parameter velocity q' that best matches a Cartesian velocity @p xdot at
 * q (least squares: q' = r'.xdot / |r'|^2). CDYN_ERR_SINGULAR where r' = 0
 * (cycloid cusps); CDYN_ERR_CALLBACK. */
cdyn_status cdyn__curve_param_velocity(const cdyn__curve *c, double q, const double xdot[3],
                                       double *qdot);

/* A cycloid in its arc length s, measured from the cusp at q = 0 (8 R per
 * arch): parametric constraints integrate s instead of q because q' is
 * infinite where a moving bead meets a cusp, whereas in s the bead has unit
 * parameter speed everywhere (generalized mass m) and, with gravity along
 * the cycloid's axis, s'' is linear in s (the tautochrone).
 * cdyn__cycloid_arc_of: s(q) (s' = 2 R |sin(q/2)| q'); cdyn__cycloid_param_of
 * its inverse; both accurate to rounding at the cusps. */
double cdyn__cycloid_arc_of(const cdyn__curve *c, double q);
double cdyn__cycloid_param_of(const cdyn__curve *c, double s);

/* r, dr/ds (the unit tangent) and d2r/ds2 (the curvature vector) of a
 * cycloid at arc length @p s, each optional. s in [0, 8 R] is the arch
 * [0, 2 pi] including both cusps, where the tangent is the one-sided limit
 * from inside the arch and d2r/ds2 (infinite there) is reported as 0: a
 * bead at a cusp is at rest there (a hard end), and its normal
 * acceleration v^2 kappa tends to 0 as it leaves. Outside [0, 8 R] the
 * neighbouring arches. @p s finite. */
void cdyn__cycloid_eval_arc(const cdyn__curve *c, double s, double r[3], double dr[3],
                            double ddr[3]);

#endif /* CDYN__PARAMETRIC_CURVE_H */
