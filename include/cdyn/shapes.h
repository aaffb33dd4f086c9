/** @file
 * @brief Descriptions of curves, surfaces and height fields, and the
 * functions that sample them without a system.
 *
 * A shape is described by a plain struct that the caller fills (after calling
 * its init function, which sets the size field and the defaults) and passes by
 * pointer. Functions that take a description read it during the call only:
 * arrays it points to (spline points, height samples) are copied, never
 * retained. Callback shapes keep the function pointer and the user pointer.
 *
 * The functions below sample a shape without a system: evaluate it, measure
 * its arc length, find its closest point. Constraints and grounds that hold a
 * shape take the same descriptions. They answer in finite numbers or not at
 * all: a result beyond the range of a double (a point far out on a
 * parabola or on an open spline's extension, an arc length that overflows,
 * the slope of a grid step near the smallest double) is refused with
 * CDYN_ERR_INVALID_ARGUMENT, outputs untouched.
 *
 * Curves, parameter q (d = 2 or 3 is the dimension of the space; unit vectors
 * e1, e2, e3 are built from the axes, see each kind):
 *
 *     kind      r(q)                                   q domain          notes
 *     LINE      origin + q e1                          (-inf, inf)       q is arc length
 *     CIRCLE    origin + R (cos q e1 + sin q e2)       [0, 2 pi) periodic
 *     PARABOLA  origin + q e1 + a q^2 e2               (-inf, inf)       q is the abscissa
 *     HELIX     origin + R (cos q e1 + sin q e2)       (-inf, inf)       3-D only
 *               + pitch q / (2 pi) e3
 *     CYCLOID   origin + R (q - sin q) e1              [0, 2 pi]         one arch; its ends are
 *               + R (1 - cos q) e2                     hard ends         the cusps (r'(q) = 0)
 *     SPLINE    C2 cubic through the points,           [0, n - 1] open,  segment i = floor(q)
 *               knot i at q = i                        [0, n) closed
 *     CALLBACK  what the callback says                 [q_min, q_max]    periodic if asked
 *
 * For CIRCLE, PARABOLA and CYCLOID, e1 = axis1 / |axis1| and e2 is axis2 made
 * orthogonal to e1 and normalized (Gram-Schmidt): axis2 only picks the plane
 * and its side. For HELIX, e3 = axis2 / |axis2| is the helix axis, e1 is
 * axis1 made orthogonal to e3, e2 = e3 x e1; a positive pitch turns
 * right-handed about e3. For LINE, e1 = axis1 / |axis1|. In 2-D only the first
 * two components of each vector are read.
 *
 * q_min and q_max restrict any curve to a piece of it whose ends are hard ends
 * (a bead stops there): a segment of a line, part of the cycloid's arch, an
 * arc of a circle. A cycloid is a single arch because a bead cannot pass a
 * cusp: the wire turns back on itself there (move the origin for another
 * arch; the formula still evaluates at any q). Left at their defaults
 * (-inf, +inf) the curve keeps its natural domain. A periodic curve given a
 * finite window (no longer than one period) becomes an open arc; a window
 * with one infinite end is refused for it.
 *
 * Surfaces (3-D only), parameters (u, v):
 *
 *     kind        r(u, v)                                      domain
 *     PLANE       origin + u axis1 + v axis2 (axes as given)   u, v in (-inf, inf)
 *     SPHERE      origin + R (sin v cos u e1 + sin v sin u e2  u in [0, 2 pi) periodic,
 *                 + cos v e3)                                  v in [0, pi], poles singular
 *     TORUS       origin + (R + b cos v)(cos u e1 + sin u e2)  u, v in [0, 2 pi) periodic
 *                 + b sin v e3,  R > b > 0
 *     HEIGHTFIELD height z = f(x, y) over the grid, u = x,     the grid's rectangle,
 *                 v = y (see cdyn_heightfield_desc.up_axis)    hard edges
 *     CALLBACK    what the callback says                       [u_min, u_max] x [v_min, v_max]
 *
 * For SPHERE and TORUS, e3 = axis2 / |axis2| is the pole (symmetry) axis, e1
 * is axis1 made orthogonal to e3 (the direction of u = 0 on the equator) and
 * e2 = e3 x e1. The sphere's poles v = 0 and v = pi are coordinate
 * singularities (r_u = 0 there): the surface goes on, the coordinates do not.
 * They are not hard ends. A particle on a whole sphere (no window) never
 * meets them: the library re-charts the sphere internally (turns its frame
 * so that a point near a pole lies on the new equator, keeping position and
 * velocity) when the particle is put on it and between steps (parametric.h).
 * With a window the chart is fixed: choose axis2 so that the poles lie away
 * from where the particle moves.
 *
 * Height fields: samples on a regular nx x ny grid, interpolated bilinearly or
 * by a C2 bicubic spline (see cdyn_heightfield_interpolation); outside the grid
 * the height is that of the nearest grid point (constant extension, flat
 * ground beyond the edge).
 */
#ifndef CDYN_SHAPES_H
#define CDYN_SHAPES_H

#include "export.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The kinds of curve (cdyn_curve_desc.kind).
 *
 *  The values are pinned.
 *  @since 0.1
 */
typedef enum cdyn_curve_kind {
    CDYN_CURVE_LINE = 1,     /**< Straight line through a point. */
    CDYN_CURVE_CIRCLE = 2,   /**< Circle about a centre, in a plane in 3-D. */
    CDYN_CURVE_PARABOLA = 3, /**< y = a x^2 in a plane. */
    CDYN_CURVE_HELIX = 4,    /**< Circular helix about an axis (3-D only). */
    CDYN_CURVE_CYCLOID = 5,  /**< Trace of a point on a rolling circle. */
    CDYN_CURVE_SPLINE = 6,   /**< C2 cubic spline through points. */
    CDYN_CURVE_CALLBACK = 7  /**< A user function gives r, r', r'' (cdyn_curve_fn). */
} cdyn_curve_kind;

/** The end conditions of a spline curve (cdyn_curve_desc.spline_end).
 *
 *  The values are pinned.
 *  @since 0.1
 */
typedef enum cdyn_spline_end {
    /** Open, r'' = 0 at both ends (natural spline). */
    CDYN_SPLINE_NATURAL = 1,
    /** Open, r' at the ends given by start_tangent and end_tangent. */
    CDYN_SPLINE_CLAMPED = 2,
    /** Closed loop: the last point joins the first, C2 across the seam.
     *  Do not repeat the first point at the end. */
    CDYN_SPLINE_CLOSED = 3
} cdyn_spline_end;

/** A curve given by a user function (CDYN_CURVE_CALLBACK).
 *
 *  At parameter @p q and time @p t the function fills r(q, t), r'(q, t) and
 *  r''(q, t), the derivatives taken with respect to q. A curve that moves with
 *  time says so in its description (time_dependent); its derivatives in t are
 *  then formed by central differences (error as for cdyn_constraint_fn).
 *
 *  @param[in]  sys   The system whose constraint holds the curve, read only
 *                    (calls that change it return CDYN_ERR_BUSY); NULL when the
 *                    curve is evaluated alone (cdyn_curve_evaluate() and the
 *                    other functions of this header).
 *  @param[in]  t     Time (s); 0 when @p sys is NULL.
 *  @param[in]  q     The parameter.
 *  @param[out] r     Receives r (m), 3 doubles cleared to zero before the call;
 *                    in 2-D the third is ignored.
 *  @param[out] dr    Receives r' (m per unit of q), 3 doubles, cleared.
 *  @param[out] ddr   Receives r'' (m per unit of q squared), 3 doubles,
 *                    cleared.
 *  @param[in]  user  The description's @c user.
 *  @return 0 on success; any other value (or a non-finite output) makes the
 *          calling function fail with CDYN_ERR_CALLBACK.
 *  @since 0.1
 */
typedef int (*cdyn_curve_fn)(const cdyn_system *sys, double t, double q, double r[3],
                             double dr[3], double ddr[3], void *user);

/** A surface given by a user function (CDYN_SURFACE_CALLBACK).
 *
 *  At (@p u, @p v) and time @p t the function fills r and its first and second
 *  derivatives with respect to u and v: arrays of 3 doubles, cleared before the
 *  call. Time dependence as for cdyn_curve_fn.
 *
 *  @param[in]  sys   The system whose constraint holds the surface, read only;
 *                    NULL when the surface is evaluated alone.
 *  @param[in]  t     Time (s); 0 when @p sys is NULL.
 *  @param[in]  u     The first parameter.
 *  @param[in]  v     The second parameter.
 *  @param[out] r     Receives r (m).
 *  @param[out] ru    Receives r_u.
 *  @param[out] rv    Receives r_v.
 *  @param[out] ruu   Receives r_uu.
 *  @param[out] ruv   Receives r_uv.
 *  @param[out] rvv   Receives r_vv.
 *  @param[in]  user  The description's @c user.
 *  @return 0 on success; any other value (or a non-finite output) makes the
 *          calling function fail with CDYN_ERR_CALLBACK.
 *  @since 0.1
 */
typedef int (*cdyn_surface_fn)(const cdyn_system *sys, double t, double u, double v,
                               double r[3], double ru[3], double rv[3], double ruu[3],
                               double ruv[3], double rvv[3], void *user);

/** The description of a curve.
 *
 *  Fill it with cdyn_curve_desc_init() first, then set the fields the kind
 *  reads (table at the top of this header); other fields are ignored.
 *  Lengths in the system's length unit (m), angles in radians. Functions
 *  that take a description read it during the call and copy what they keep.
 *  @since 0.1
 */
typedef struct cdyn_curve_desc {
    size_t size;          /**< sizeof(cdyn_curve_desc), set by the init function. */
    cdyn_curve_kind kind; /**< Which curve. */
    /** Line: a point; circle, helix: the centre; parabola: the vertex;
     *  cycloid: the cusp at q = 0. */
    double origin[3];
    /** Line: the direction; the others: the in-plane direction of q = 0
     *  (the parabola's abscissa, the cycloid's rolling direction). */
    double axis1[3];
    /** Circle, parabola, cycloid: the second in-plane direction (the
     *  parabola opens towards it for a > 0, the cycloid arches towards it);
     *  helix: the axis. */
    double axis2[3];
    double radius;        /**< Circle and helix radius, cycloid rolling radius (m); > 0. */
    double pitch;         /**< Helix: rise per turn along its axis (m); non-zero. */
    double coefficient;   /**< Parabola: a in y = a x^2 (1/m; 0 gives a line). */
    /** Spline: num_points points of dim doubles each (m), copied; read
     *  during the call only. */
    const double *points;
    /** Spline: at least 4, no two consecutive equal (for a closed spline,
     *  last and first neither); points and tangents so large that a
     *  segment's length overflows are refused. */
    size_t num_points;
    cdyn_spline_end spline_end; /**< Spline: the end conditions; default NATURAL. */
    double start_tangent[3]; /**< Clamped spline: r'(0), finite, non-zero. */
    double end_tangent[3];   /**< Clamped spline: r'(num_points - 1), finite, non-zero. */
    cdyn_curve_fn callback; /**< Callback curve: the function; not NULL. */
    /** Callback curve: passed back unchanged; kept while the curve is held,
     *  never dereferenced or freed by the library. */
    void *user;
    /** Callback curve: non-zero if r(q + (q_max - q_min)) = r(q); then
     *  q_min and q_max must be finite. */
    int periodic;
    double q_min;         /**< Start of the domain (default -inf: the natural domain). */
    double q_max;         /**< End of the domain (default +inf: the natural domain). */
    int time_dependent;   /**< Callback curve: non-zero if r depends on t (default 0). */
    /** Callback curve: what a snapshot holds in place of the function and the
     *  user pointer (snapshot.h); default 0. */
    uint64_t tag;
} cdyn_curve_desc;

/** Fills a curve's description with the defaults of a kind.
 *
 *  The defaults: size set, origin 0, axis1 = (1,0,0), axis2 = (0,1,0) (helix:
 *  (0,0,1)), radius 1, pitch 1, coefficient 1, no points, spline_end NATURAL,
 *  tangents 0, no callback, periodic 0, q_min = -inf, q_max = +inf,
 *  time_dependent 0. A @p kind outside the enum is stored as given and refused
 *  by the functions that read it.
 *
 *  @param[out] desc  The struct to fill; NULL is a no-op.
 *  @param[in]  kind  The kind of curve.
 *  @since 0.1
 */
CDYN_API void cdyn_curve_desc_init(cdyn_curve_desc *desc, cdyn_curve_kind kind);

/** The interpolation of a height field
 *  (cdyn_heightfield_desc.interpolation).
 *
 *  The values are pinned.
 *  @since 0.1
 */
typedef enum cdyn_heightfield_interpolation {
    /** Bilinear in each cell: continuous, gradient jumps across cell edges,
     *  exact for data of the form a + b x + c y + d x y. Fine for a height-
     *  field ground (ground.h); refused for a particle's surface
     *  (cdyn_constraint_add_on_surface(): CDYN_ERR_UNSUPPORTED), where the
     *  jumping slope would make the speed jump at every edge. */
    CDYN_HEIGHTFIELD_BILINEAR = 1,
    /** Tensor-product cubic spline with not-a-knot ends: C2 (height, gradient
     *  and Hessian continuous), exact for every polynomial of degree at most 3
     *  in x and in y. Along a direction with 3 samples it is the parabola
     *  through them, with 2 samples the line. */
    CDYN_HEIGHTFIELD_BICUBIC = 2
} cdyn_heightfield_interpolation;

/** The description of a height field: heights z = f(x, y) sampled on a
 *  regular grid.
 *
 *  Fill it with cdyn_heightfield_desc_init() first. Shared by height-field
 *  surfaces and height-field grounds.
 *  @since 0.1
 */
typedef struct cdyn_heightfield_desc {
    size_t size;          /**< sizeof(cdyn_heightfield_desc), set by the init function. */
    size_t nx;            /**< Samples along x, at least 2. */
    size_t ny;            /**< Samples along y, at least 2 (1 for a 2-D ground's profile). */
    double origin[2];     /**< (x, y) of sample (0, 0) (m), finite. */
    /** Grid steps (dx, dy) (m), finite, > 0, such that the far edge
     *  origin + (n - 1) spacing is finite and above the origin (the grid's
     *  points are distinct doubles). */
    double spacing[2];
    /** nx * ny finite heights (m), row by row: samples[j * nx + i] =
     *  f(origin[0] + i dx, origin[1] + j dy); copied, read during the call
     *  only. */
    const double *samples;
    cdyn_heightfield_interpolation interpolation; /**< Default BICUBIC. */
    /** In space, the axis heights are measured along (0 = x, 1 = y, 2 = z,
     *  default 2); the grid's x and y are the other two axes in increasing
     *  order, so up_axis = 1 maps (x, y, f) to (x, f, y). */
    int up_axis;
} cdyn_heightfield_desc;

/** Fills a height field's description with the defaults.
 *
 *  The defaults: size set, nx = ny = 0 (must be set), origin 0, spacing (1, 1),
 *  no samples, BICUBIC, up_axis 2.
 *
 *  @param[out] desc  The struct to fill; NULL is a no-op.
 *  @since 0.1
 */
CDYN_API void cdyn_heightfield_desc_init(cdyn_heightfield_desc *desc);

/** The kinds of surface (cdyn_surface_desc().kind).
 *
 *  The values are pinned.
 *  @since 0.1
 */
typedef enum cdyn_surface_kind {
    CDYN_SURFACE_PLANE = 1,       /**< Plane through a point, spanned by two axes. */
    CDYN_SURFACE_SPHERE = 2,      /**< Sphere, longitude u and polar angle v. */
    CDYN_SURFACE_TORUS = 3,       /**< Ring torus. */
    CDYN_SURFACE_HEIGHTFIELD = 4, /**< (x, y, f(x, y)) over a sampled grid. */
    CDYN_SURFACE_CALLBACK = 5     /**< A user function gives r and its derivatives. */
} cdyn_surface_kind;

/** The description of a surface in 3-D.
 *
 *  Fill it with cdyn_surface_desc_init() first, then set the fields its
 *  kind reads; others are ignored. Functions that take a description read
 *  it during the call and copy what they keep.
 *  @since 0.1
 */
typedef struct cdyn_surface_desc {
    size_t size;            /**< sizeof(cdyn_surface_desc()), set by the init function. */
    cdyn_surface_kind kind; /**< Which surface. */
    double origin[3];       /**< Plane: a point; sphere, torus: the centre (m). */
    /** Plane: r_u (need not be unit); sphere, torus: the direction of u = 0
     *  on the equator. */
    double axis1[3];
    /** Plane: r_v, not parallel to axis1; sphere, torus: the pole
     *  (symmetry) axis. */
    double axis2[3];
    double radius;          /**< Sphere radius, torus major radius (m); > 0. */
    double minor_radius;    /**< Torus tube radius (m), 0 < minor_radius < radius. */
    /** Height field: its description, copied with its samples during the
     *  call. */
    const cdyn_heightfield_desc *heightfield;
    cdyn_surface_fn callback; /**< Callback surface: the function; not NULL. */
    /** Callback surface: passed back unchanged; kept while the surface is
     *  held, never dereferenced or freed by the library. */
    void *user;
    /** Callback surface: non-zero if u is periodic with period u_max -
     *  u_min (both finite). */
    int periodic_u;
    int periodic_v;         /**< Callback surface: likewise for v. */
    double u_min;           /**< Start of the u window, default -inf (the natural domain). */
    double u_max;           /**< End of the u window, default +inf. */
    double v_min;           /**< Start of the v window, default -inf. */
    double v_max;           /**< End of the v window, default +inf. */
    int time_dependent;     /**< Callback surface: non-zero if r depends on t (default 0). */
    /** Callback surface: what a snapshot holds in place of the function and the
     *  user pointer (snapshot.h); default 0. */
    uint64_t tag;
} cdyn_surface_desc;

/** Fills a surface's description with the defaults of a kind.
 *
 *  The defaults: size set, origin 0, axis1 = (1,0,0), axis2 = (0,1,0) for a
 *  plane and (0,0,1) otherwise, radius 1, minor_radius 0.25, no height field,
 *  no callback, not periodic, windows (-inf, +inf), time_dependent 0.
 *
 *  @param[out] desc  The struct to fill; NULL is a no-op.
 *  @param[in]  kind  The kind of surface.
 *  @since 0.1
 */
CDYN_API void cdyn_surface_desc_init(cdyn_surface_desc *desc, cdyn_surface_kind kind);

/** Evaluates a curve and its first two derivatives at a parameter.
 *
 *  Any finite q is accepted; outside the domain a periodic curve wraps, an open
 *  spline extends its end cubics and the other kinds follow their formula.
 *  Allocates (through malloc, freed before returning) for a spline only: for
 *  repeated queries of a spline, hold it in a constraint. Outputs are written
 *  only on success.
 *
 *  @param[in]  desc  The curve's description, read during the call.
 *  @param[in]  dim   The dimension of space, 2 or 3.
 *  @param[in]  q     The parameter, finite.
 *  @param[out] r     Receives r(q), @p dim values (m); may be NULL.
 *  @param[out] dr    Receives r'(q), @p dim values; may be NULL.
 *  @param[out] ddr   Receives r''(q), @p dim values; may be NULL.
 *  @retval CDYN_OK                    the values were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p desc is NULL, its size, kind or a
 *                                     field is bad (see cdyn_curve_desc),
 *                                     @p dim is not 2 or 3, @p q is not
 *                                     finite, or the point or one of its
 *                                     derivatives at @p q is beyond the range
 *                                     of a double.
 *  @retval CDYN_ERR_CALLBACK          the callback failed or returned a
 *                                     non-finite value.
 *  @retval CDYN_ERR_NO_MEMORY         a spline's tables could not be allocated.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_curve_evaluate(const cdyn_curve_desc *desc, int dim, double q,
                                         double *r, double *dr, double *ddr);

/** Reads the parameter domain of a curve.
 *
 *  Allocates for a spline as cdyn_curve_evaluate() does.
 *
 *  @param[in]  desc      The curve's description.
 *  @param[in]  dim       The dimension of space, 2 or 3.
 *  @param[out] q_min     Receives the domain's start (may be -inf); may be
 *                        NULL.
 *  @param[out] q_max     Receives the domain's end (may be +inf); may be NULL.
 *  @param[out] periodic  Receives 1 if q wraps with period q_max - q_min (the
 *                        domain is then [q_min, q_max)), 0 if finite ends are
 *                        hard ends; may be NULL.
 *  @retval CDYN_OK                    the domain was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  the description or @p dim is bad.
 *  @retval CDYN_ERR_NO_MEMORY         a spline's tables could not be allocated.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_curve_get_domain(const cdyn_curve_desc *desc, int dim,
                                           double *q_min, double *q_max, int *periodic);

/** Measures the arc length along a curve between two parameters.
 *
 *  Closed forms for the analytic kinds; a spline uses its arc-length table
 *  (Gauss-Legendre, relative accuracy about 1e-12), a callback curve adaptive
 *  Gauss-Legendre quadrature of |r'|, whose work is bounded (at most 4096
 *  bisections) whatever the curve. Periodic curves are not wrapped: q_to -
 *  q_from may span several turns. Allocates for a spline.
 *
 *  @param[in]  desc    The curve's description.
 *  @param[in]  dim     The dimension of space, 2 or 3.
 *  @param[in]  q_from  The starting parameter, finite.
 *  @param[in]  q_to    The end parameter, finite.
 *  @param[out] out     Receives the length (m), negative when q_to < q_from.
 *  @retval CDYN_OK                    the length was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  the description or @p dim is bad, a
 *                                     parameter is not finite, @p out is NULL,
 *                                     or the length is beyond the range of a
 *                                     double (an open spline's extrapolation
 *                                     far beyond its ends).
 *  @retval CDYN_ERR_CALLBACK          the callback failed or returned a
 *                                     non-finite value.
 *  @retval CDYN_ERR_DIVERGED          a callback curve's speed overflows.
 *  @retval CDYN_ERR_NOT_CONVERGED     a callback curve is too irregular for the
 *                                     quadrature's tolerance within its bound.
 *  @retval CDYN_ERR_NO_MEMORY         a spline's tables could not be allocated.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_curve_arc_length(const cdyn_curve_desc *desc, int dim,
                                           double q_from, double q_to, double *out);

/** Finds the parameter at a given arc length from a starting parameter: the
 *  inverse of cdyn_curve_arc_length().
 *
 *  Solved by safeguarded Newton iteration on the arc length (closed form where
 *  there is one) to about 1e-12 relative. Allocates for a spline.
 *
 *  @param[in]  desc    The curve's description.
 *  @param[in]  dim     The dimension of space, 2 or 3.
 *  @param[in]  q_from  The starting parameter, finite.
 *  @param[in]  length  The arc length (m), finite; negative goes backwards.
 *  @param[out] out     Receives the parameter.
 *  @retval CDYN_OK                    the parameter was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  the description or @p dim is bad, an
 *                                     input is not finite, @p out is NULL, or
 *                                     @p length reaches beyond a finite end of
 *                                     the domain, or the parameter is beyond
 *                                     the range of a double.
 *  @retval CDYN_ERR_NOT_CONVERGED     the iteration (or a callback curve's
 *                                     quadrature) did not converge.
 *  @retval CDYN_ERR_DIVERGED          a callback curve's speed overflows.
 *  @retval CDYN_ERR_CALLBACK          the callback failed or returned a
 *                                     non-finite value.
 *  @retval CDYN_ERR_NO_MEMORY         a spline's tables could not be allocated.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_curve_parameter_at_arc_length(const cdyn_curve_desc *desc, int dim,
                                                        double q_from, double length,
                                                        double *out);

/** Finds the parameter of the point of a curve nearest to a point.
 *
 *  Within the domain (a periodic curve's q is wrapped into it). Global search:
 *  exact for line, circle and parabola; sampling of the relevant window then
 *  Newton iteration for the others. For a callback curve with an unbounded
 *  domain the search covers [-8, 8] around its finite end or 0, and is local
 *  beyond. Ties go to the smaller parameter.
 *
 *  @param[in]  desc  The curve's description.
 *  @param[in]  dim   The dimension of space, 2 or 3.
 *  @param[in]  x     The point (m), @p dim finite values.
 *  @param[out] out   Receives the parameter.
 *  @retval CDYN_OK                    the parameter was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  the description or @p dim is bad, @p x is
 *                                     NULL or not finite, @p out is NULL, or
 *                                     the nearest point is beyond the range of
 *                                     a double.
 *  @retval CDYN_ERR_CALLBACK          the callback failed or returned a
 *                                     non-finite value.
 *  @retval CDYN_ERR_NO_MEMORY         a spline's tables could not be allocated.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_curve_closest_parameter(const cdyn_curve_desc *desc, int dim,
                                                  const double *x, double *out);

/** Evaluates a surface and its first and second derivatives at a pair of
 *  parameters.
 *
 *  Allocates (through malloc, freed before returning) for a height field (its
 *  interpolation tables), not otherwise. Outputs are written only on success.
 *
 *  @param[in]  desc  The surface's description, read during the call.
 *  @param[in]  u     The first parameter, finite.
 *  @param[in]  v     The second parameter, finite.
 *  @param[out] r     Receives r(u, v), 3 values (m); may be NULL.
 *  @param[out] ru    Receives r_u, 3 values; may be NULL.
 *  @param[out] rv    Receives r_v, 3 values; may be NULL.
 *  @param[out] ruu   Receives r_uu, 3 values; may be NULL.
 *  @param[out] ruv   Receives r_uv, 3 values; may be NULL.
 *  @param[out] rvv   Receives r_vv, 3 values; may be NULL.
 *  @retval CDYN_OK                    the values were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  the description is bad (see
 *                                     cdyn_surface_desc()), @p u or @p v is
 *                                     not finite, or a value there is beyond
 *                                     the range of a double.
 *  @retval CDYN_ERR_CALLBACK          the callback failed or returned a
 *                                     non-finite value.
 *  @retval CDYN_ERR_NO_MEMORY         a height field's tables could not be
 *                                     allocated.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_surface_evaluate(const cdyn_surface_desc *desc, double u, double v,
                                           double *r, double *ru, double *rv, double *ruu,
                                           double *ruv, double *rvv);

/** Reads the parameter domain of a surface.
 *
 *  @param[in]  desc      The surface's description.
 *  @param[out] u_range   Receives [min, max] of u (bounds may be infinite), 2
 *                        values; may be NULL.
 *  @param[out] v_range   Receives [min, max] of v, 2 values; may be NULL.
 *  @param[out] periodic  Receives 2 ints (u, v), 1 when that parameter wraps;
 *                        may be NULL.
 *  @retval CDYN_OK                    the domain was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  the description is bad.
 *  @retval CDYN_ERR_NO_MEMORY         a height field's tables could not be
 *                                     allocated.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_surface_get_domain(const cdyn_surface_desc *desc, double *u_range,
                                             double *v_range, int *periodic);

/** Finds the parameters of the point of a surface nearest to a point.
 *
 *  Within the domain. Closed form for plane, sphere and torus (at the centre of
 *  a sphere, or on a torus' axis, where every point ties, u = 0 and for the
 *  sphere v = pi / 2); sampling then projected Newton iteration for height
 *  fields (samples at the grid nodes) and callback surfaces (a 32 x 32 grid
 *  over the domain, or over [-8, 8] for an unbounded direction).
 *
 *  @param[in]  desc  The surface's description.
 *  @param[in]  x     The point (m), 3 finite values.
 *  @param[out] u     Receives the first parameter.
 *  @param[out] v     Receives the second parameter.
 *  @retval CDYN_OK                    the parameters were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  the description is bad, @p x is NULL or
 *                                     not finite, @p u or @p v is NULL, or the
 *                                     nearest point is beyond the range of a
 *                                     double.
 *  @retval CDYN_ERR_CALLBACK          the callback failed or returned a
 *                                     non-finite value.
 *  @retval CDYN_ERR_NO_MEMORY         a height field's tables could not be
 *                                     allocated.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_surface_closest_parameters(const cdyn_surface_desc *desc,
                                                     const double *x, double *u, double *v);

/** Evaluates a height field, its gradient and its Hessian at grid coordinates.
 *
 *  Outside the grid the point is clamped to it: the height is that of the
 *  nearest grid point and the derivatives across the edge are 0. On a cell edge
 *  the cell above (larger index) is used, which matters only for the bilinear
 *  gradient. Allocates (through malloc, freed before returning) a copy of the
 *  samples and, for BICUBIC, its interpolation tables, in O(nx ny) time, on
 *  every call: a height-field ground or surface builds them once.
 *
 *  @param[in]  desc      The height field's description, read during the call.
 *  @param[in]  x         The grid x coordinate, finite.
 *  @param[in]  y         The grid y coordinate, finite.
 *  @param[out] height    Receives f(x, y); may be NULL.
 *  @param[out] gradient  Receives (df/dx, df/dy), 2 values; may be NULL.
 *  @param[out] hessian   Receives (f_xx, f_xy, f_yy), 3 values; may be NULL.
 *  @retval CDYN_OK                    the values were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p desc is NULL or bad (a size field
 *                                     other than sizeof(cdyn_heightfield_desc),
 *                                     a grid below 2 x 2, nx * ny overflowing,
 *                                     non-finite or non-positive spacing, a far
 *                                     edge that is not finite or not above the
 *                                     origin, NULL or non-finite samples, a
 *                                     bad interpolation or up_axis), @p x or
 *                                     @p y is not finite, or the height or a
 *                                     derivative there is beyond the range of
 *                                     a double.
 *  @retval CDYN_ERR_NO_MEMORY         the copy or the tables could not be
 *                                     allocated.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_heightfield_evaluate(const cdyn_heightfield_desc *desc, double x,
                                               double y, double *height, double *gradient,
                                               double *hessian);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_SHAPES_H */
