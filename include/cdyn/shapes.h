/* cdyn: descriptions of curves, surfaces and height fields.
 *
 * A shape is described by a plain struct that the caller fills (after calling
 * its init function, which sets the size field and the defaults) and passes by
 * pointer. Functions that take a description read it during the call only:
 * arrays it points to (spline points, height samples) are copied, never
 * retained. Callback shapes keep the function pointer and the user pointer.
 *
 * The functions below sample a shape without a system: evaluate it, measure
 * its arc length, find its closest point. Constraints and grounds that hold a
 * shape take the same descriptions.
 *
 * Curves, parameter q (d = 2 or 3 is the dimension of the space; unit vectors
 * e1, e2, e3 are built from the axes, see each kind):
 *
 *   kind      r(q)                                   q domain          notes
 *   LINE      origin + q e1                          (-inf, inf)       q is arc length
 *   CIRCLE    origin + R (cos q e1 + sin q e2)       [0, 2 pi) periodic
 *   PARABOLA  origin + q e1 + a q^2 e2               (-inf, inf)       q is the abscissa
 *   HELIX     origin + R (cos q e1 + sin q e2)       (-inf, inf)       3-D only
 *             + pitch q / (2 pi) e3
 *   CYCLOID   origin + R (q - sin q) e1              [0, 2 pi]         one arch; its ends are
 *             + R (1 - cos q) e2                     hard ends         the cusps (r'(q) = 0)
 *   SPLINE    C2 cubic through the points,           [0, n - 1] open,  segment i = floor(q)
 *             knot i at q = i                        [0, n) closed
 *   CALLBACK  what the callback says                 [q_min, q_max]    periodic if asked
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
 * arch; the formula still evaluates at any q). Left at their defaults (-inf, +inf) the curve keeps its natural
 * domain. A periodic curve given a finite window (no longer than one period)
 * becomes an open arc; a window with one infinite end is refused for it.
 *
 * Surfaces (3-D only), parameters (u, v):
 *
 *   kind        r(u, v)                                      domain
 *   PLANE       origin + u axis1 + v axis2 (axes as given)   u, v in (-inf, inf)
 *   SPHERE      origin + R (sin v cos u e1 + sin v sin u e2  u in [0, 2 pi) periodic,
 *               + cos v e3)                                  v in [0, pi], poles singular
 *   TORUS       origin + (R + b cos v)(cos u e1 + sin u e2)  u, v in [0, 2 pi) periodic
 *               + b sin v e3,  R > b > 0
 *   HEIGHTFIELD height z = f(x, y) over the grid, u = x,     the grid's rectangle,
 *               v = y (see cdyn_heightfield_desc.up_axis)    hard edges
 *   CALLBACK    what the callback says                       [u_min, u_max] x [v_min, v_max]
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

/** The kind of a curve. Values are pinned. @since 0.1 */
typedef enum cdyn_curve_kind {
    CDYN_CURVE_LINE = 1,     /**< straight line through a point */
    CDYN_CURVE_CIRCLE = 2,   /**< circle about a centre, in a plane in 3-D */
    CDYN_CURVE_PARABOLA = 3, /**< y = a x^2 in a plane */
    CDYN_CURVE_HELIX = 4,    /**< circular helix about an axis (3-D only) */
    CDYN_CURVE_CYCLOID = 5,  /**< trace of a point on a rolling circle */
    CDYN_CURVE_SPLINE = 6,   /**< C2 cubic spline through points */
    CDYN_CURVE_CALLBACK = 7  /**< a user function gives r, r', r'' */
} cdyn_curve_kind;

/** End conditions of a spline curve. Values are pinned. @since 0.1 */
typedef enum cdyn_spline_end {
    /** Open, r'' = 0 at both ends (natural spline). */
    CDYN_SPLINE_NATURAL = 1,
    /** Open, r' at the ends given by start_tangent and end_tangent. */
    CDYN_SPLINE_CLAMPED = 2,
    /** Closed loop: the last point joins the first, C2 across the seam.
     *  Do not repeat the first point at the end. */
    CDYN_SPLINE_CLOSED = 3
} cdyn_spline_end;

/** A curve given by a user function. At parameter @p q and time @p t it
 *  fills r(q, t), r'(q, t) and r''(q, t) (derivatives with respect to q):
 *  arrays of 3 doubles, cleared to zero before the call; in 2-D the third
 *  entry is ignored. @p sys is the system whose constraint holds the curve
 *  (read-only: calls that change it return CDYN_ERR_BUSY), or NULL with
 *  @p t = 0 when the curve is evaluated alone (cdyn_curve_evaluate and the
 *  other functions of this header). A curve that moves with time says so
 *  in its description (time_dependent); its derivatives in t are then
 *  formed by central differences (error as for cdyn_constraint_fn). Return
 *  0 on success; any other value (or a non-finite output) makes the
 *  calling function fail with CDYN_ERR_CALLBACK. @since 0.1 */
typedef int (*cdyn_curve_fn)(const cdyn_system *sys, double t, double q, double r[3],
                             double dr[3], double ddr[3], void *user);

/** A surface given by a user function. At (u, v) and time @p t it fills r,
 *  r_u, r_v, r_uu, r_uv and r_vv: arrays of 3 doubles, cleared before the
 *  call. @p sys, @p t, the return value and the rules as for
 *  cdyn_curve_fn. @since 0.1 */
typedef int (*cdyn_surface_fn)(const cdyn_system *sys, double t, double u, double v,
                               double r[3], double ru[3], double rv[3], double ruu[3],
                               double ruv[3], double rvv[3], void *user);

/** Description of a curve. Fill it with cdyn_curve_desc_init() first, then
 *  set the fields the kind reads (table in the header comment); other fields
 *  are ignored. Lengths in the system's length unit, angles in radians.
 *  @since 0.1 */
typedef struct cdyn_curve_desc {
    size_t size;          /**< sizeof(cdyn_curve_desc), set by the init function */
    cdyn_curve_kind kind; /**< which curve */
    double origin[3];     /**< line: a point; circle, helix: centre; parabola:
                               vertex; cycloid: the cusp at q = 0 */
    double axis1[3];      /**< line: direction; others: in-plane direction of q = 0
                               (parabola's abscissa, cycloid's rolling direction) */
    double axis2[3];      /**< circle, parabola, cycloid: second in-plane direction
                               (parabola opens towards it for a > 0, cycloid arches
                               towards it); helix: the axis */
    double radius;        /**< circle and helix radius, cycloid rolling radius; > 0 */
    double pitch;         /**< helix: rise per turn along its axis; non-zero */
    double coefficient;   /**< parabola: a in y = a x^2 (0 gives a line) */
    const double *points; /**< spline: num_points points of dim doubles each,
                               copied; read during the call only */
    size_t num_points;    /**< spline: at least 4, no two consecutive equal
                               (for a closed spline, last and first neither);
                               points and tangents so large that a segment's
                               length overflows are refused */
    cdyn_spline_end spline_end; /**< spline: end conditions */
    double start_tangent[3]; /**< clamped spline: r'(0), finite, non-zero */
    double end_tangent[3];   /**< clamped spline: r'(num_points - 1) */
    cdyn_curve_fn callback; /**< callback curve: the function */
    void *user;           /**< callback curve: passed back unchanged, never freed */
    int periodic;         /**< callback curve: non-zero if r(q + (q_max - q_min))
                               = r(q); then q_min, q_max must be finite */
    double q_min;         /**< start of the domain (default -inf: natural domain) */
    double q_max;         /**< end of the domain (default +inf: natural domain) */
    int time_dependent;   /**< callback curve: non-zero if r depends on t (default 0) */
} cdyn_curve_desc;

/** Fills @p desc with the defaults for @p kind: size set, origin 0, axis1 =
 *  (1,0,0), axis2 = (0,1,0) (helix: (0,0,1)), radius 1, pitch 1, coefficient
 *  1, no points, spline_end NATURAL, tangents 0, no callback, periodic 0,
 *  q_min = -inf, q_max = +inf. @p desc NULL: does nothing. A @p kind outside
 *  the enum is stored as given and refused by the functions that read it.
 *  @since 0.1 */
CDYN_API void cdyn_curve_desc_init(cdyn_curve_desc *desc, cdyn_curve_kind kind);

/** Interpolation of a height field. Values are pinned. @since 0.1 */
typedef enum cdyn_heightfield_interpolation {
    /** Bilinear in each cell: continuous, gradient jumps across cell edges,
     *  exact for data of the form a + b x + c y + d x y. Fine for a height-
     *  field ground (ground.h); refused for a particle's surface
     *  (cdyn_constraint_add_on_surface: CDYN_ERR_UNSUPPORTED), where the
     *  jumping slope would make the speed jump at every edge. */
    CDYN_HEIGHTFIELD_BILINEAR = 1,
    /** Tensor-product cubic spline with not-a-knot ends: C2 (height, gradient
     *  and Hessian continuous), exact for every polynomial of degree at most 3
     *  in x and in y. Along a direction with 3 samples it is the parabola
     *  through them, with 2 samples the line. */
    CDYN_HEIGHTFIELD_BICUBIC = 2
} cdyn_heightfield_interpolation;

/** Description of a height field: heights z = f(x, y) sampled on a regular
 *  grid. Fill it with cdyn_heightfield_desc_init() first. Shared by height-
 *  field surfaces and height-field grounds. @since 0.1 */
typedef struct cdyn_heightfield_desc {
    size_t size;          /**< sizeof(cdyn_heightfield_desc), set by the init function */
    size_t nx;            /**< samples along x, at least 2 */
    size_t ny;            /**< samples along y, at least 2 */
    double origin[2];     /**< (x, y) of sample (0, 0), finite */
    double spacing[2];    /**< grid steps (dx, dy), finite, > 0 */
    const double *samples; /**< nx * ny finite heights, row by row:
                                samples[j * nx + i] = f(origin[0] + i dx,
                                origin[1] + j dy); copied, read during the call */
    cdyn_heightfield_interpolation interpolation; /**< default BICUBIC */
    int up_axis;          /**< in space, the axis heights are measured along
                               (0 = x, 1 = y, 2 = z, default 2); the grid's x and
                               y are the other two axes in increasing order, so
                               up_axis = 1 maps (x, y, f) to (x, f, y) */
} cdyn_heightfield_desc;

/** Fills @p desc with the defaults: size set, nx = ny = 0 (must be set),
 *  origin 0, spacing (1, 1), no samples, BICUBIC, up_axis 2. NULL: does
 *  nothing. @since 0.1 */
CDYN_API void cdyn_heightfield_desc_init(cdyn_heightfield_desc *desc);

/** The kind of a surface. Values are pinned. @since 0.1 */
typedef enum cdyn_surface_kind {
    CDYN_SURFACE_PLANE = 1,       /**< plane through a point, spanned by two axes */
    CDYN_SURFACE_SPHERE = 2,      /**< sphere, longitude u and polar angle v */
    CDYN_SURFACE_TORUS = 3,       /**< ring torus */
    CDYN_SURFACE_HEIGHTFIELD = 4, /**< (x, y, f(x, y)) over a sampled grid */
    CDYN_SURFACE_CALLBACK = 5     /**< a user function gives r and its derivatives */
} cdyn_surface_kind;

/** Description of a surface in 3-D. Fill it with cdyn_surface_desc_init()
 *  first, then set the fields its kind reads; others are ignored.
 *  @since 0.1 */
typedef struct cdyn_surface_desc {
    size_t size;            /**< sizeof(cdyn_surface_desc), set by the init function */
    cdyn_surface_kind kind; /**< which surface */
    double origin[3];       /**< plane: a point; sphere, torus: centre */
    double axis1[3];        /**< plane: r_u (need not be unit); sphere, torus:
                                 direction of u = 0 on the equator */
    double axis2[3];        /**< plane: r_v, not parallel to axis1; sphere, torus:
                                 the pole (symmetry) axis */
    double radius;          /**< sphere radius, torus major radius; > 0 */
    double minor_radius;    /**< torus tube radius, 0 < minor_radius < radius */
    const cdyn_heightfield_desc *heightfield; /**< height field: its description,
                                 copied with its samples during the call */
    cdyn_surface_fn callback; /**< callback surface: the function */
    void *user;             /**< callback surface: passed back, never freed */
    int periodic_u;         /**< callback surface: u periodic with period
                                 u_max - u_min (both finite) */
    int periodic_v;         /**< callback surface: likewise for v */
    double u_min;           /**< domain window, default -inf (natural domain) */
    double u_max;           /**< default +inf */
    double v_min;           /**< default -inf */
    double v_max;           /**< default +inf */
    int time_dependent;     /**< callback surface: non-zero if r depends on t (default 0) */
} cdyn_surface_desc;

/** Fills @p desc with the defaults for @p kind: size set, origin 0, axis1 =
 *  (1,0,0), axis2 = (0,1,0) for a plane and (0,0,1) otherwise, radius 1,
 *  minor_radius 0.25, no height field, no callback, not periodic, windows
 *  (-inf, +inf). NULL: does nothing. @since 0.1 */
CDYN_API void cdyn_surface_desc_init(cdyn_surface_desc *desc, cdyn_surface_kind kind);

/** Evaluates a curve of a @p dim-dimensional space (2 or 3) at parameter
 *  @p q: the point @p r, r'(q) in @p dr and r''(q) in @p ddr, each an array of
 *  @p dim doubles, each optional (NULL: not wanted). Any finite q is accepted;
 *  outside the domain a periodic curve wraps, an open spline extends its end
 *  cubics and the other kinds follow their formula.
 *  Allocates (with malloc, freed before returning) for a spline only: for
 *  repeated queries of a spline, hold it in a constraint.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p desc, a bad size,
 *  kind, @p dim or field (see the struct), a non-finite @p q;
 *  CDYN_ERR_CALLBACK when the callback fails or returns a non-finite value;
 *  CDYN_ERR_NO_MEMORY. Outputs are written only on success. @since 0.1 */
CDYN_API cdyn_status cdyn_curve_evaluate(const cdyn_curve_desc *desc, int dim, double q,
                                         double *r, double *dr, double *ddr);

/** The parameter domain of a curve: [*q_min, *q_max] (bounds may be
 *  infinite), and in *periodic 1 if q wraps with period q_max - q_min (then
 *  the domain is [q_min, q_max)), 0 if finite ends are hard ends. Each output
 *  optional. Allocates for a spline as cdyn_curve_evaluate does.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (bad description or @p dim);
 *  CDYN_ERR_NO_MEMORY. @since 0.1 */
CDYN_API cdyn_status cdyn_curve_get_domain(const cdyn_curve_desc *desc, int dim,
                                           double *q_min, double *q_max, int *periodic);

/** Arc length along a curve from parameter @p q_from to @p q_to, into
 *  *@p out (negative when q_to < q_from), in length units. Closed forms for
 *  the analytic kinds; a spline uses its arc-length table (Gauss-Legendre,
 *  relative accuracy about 1e-12), a callback curve adaptive Gauss-Legendre
 *  quadrature of |r'|, whose work is bounded (at most 4096 bisections)
 *  whatever the curve. Periodic curves are not wrapped: q_to - q_from may
 *  span several turns. Allocates for a spline.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (bad description, @p dim,
 *  non-finite q, NULL @p out, or a length beyond the range of a double:
 *  an open spline's extrapolation far beyond its ends); CDYN_ERR_CALLBACK
 *  (the callback failed or returned a non-finite value); CDYN_ERR_DIVERGED
 *  (a callback curve's speed overflows); CDYN_ERR_NOT_CONVERGED (a callback
 *  curve too irregular for the quadrature's tolerance within its bound);
 *  CDYN_ERR_NO_MEMORY. @since 0.1 */
CDYN_API cdyn_status cdyn_curve_arc_length(const cdyn_curve_desc *desc, int dim,
                                           double q_from, double q_to, double *out);

/** The parameter *@p out at which the arc length measured from @p q_from is
 *  @p length (negative: backwards): the inverse of cdyn_curve_arc_length.
 *  Solved by safeguarded Newton iteration on the arc length (closed form where
 *  there is one) to about 1e-12 relative. Allocates for a spline.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (bad description, @p dim,
 *  non-finite input, NULL @p out, or @p length beyond a finite end of the
 *  domain); CDYN_ERR_NOT_CONVERGED; CDYN_ERR_CALLBACK; CDYN_ERR_NO_MEMORY.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_curve_parameter_at_arc_length(const cdyn_curve_desc *desc, int dim,
                                                        double q_from, double length,
                                                        double *out);

/** The parameter *@p out of the point of the curve nearest to @p x (@p dim
 *  doubles), within the domain (a periodic curve's q is wrapped into it).
 *  Global search: exact for line, circle and parabola; sampling of the
 *  relevant window then Newton iteration for the others. For a callback curve
 *  with an unbounded domain the search covers [-8, 8] around its finite end
 *  or 0, and is local beyond. Ties go to the smaller parameter.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (bad description, @p dim, NULL
 *  or non-finite @p x, NULL @p out); CDYN_ERR_CALLBACK; CDYN_ERR_NO_MEMORY.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_curve_closest_parameter(const cdyn_curve_desc *desc, int dim,
                                                  const double *x, double *out);

/** Evaluates a surface at (@p u, @p v): the point @p r and the derivatives
 *  r_u, r_v, r_uu, r_uv, r_vv, each an array of 3 doubles, each optional.
 *  Allocates for a height field (its interpolation tables), not otherwise.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (bad description, non-finite
 *  u or v); CDYN_ERR_CALLBACK; CDYN_ERR_NO_MEMORY. Outputs are written only
 *  on success. @since 0.1 */
CDYN_API cdyn_status cdyn_surface_evaluate(const cdyn_surface_desc *desc, double u, double v,
                                           double *r, double *ru, double *rv, double *ruu,
                                           double *ruv, double *rvv);

/** The parameter domain of a surface: @p u_range and @p v_range receive
 *  [min, max] (2 doubles each, bounds may be infinite), @p periodic receives
 *  2 ints (u, v), 1 when that parameter wraps. Each output optional.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT; CDYN_ERR_NO_MEMORY.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_surface_get_domain(const cdyn_surface_desc *desc, double *u_range,
                                             double *v_range, int *periodic);

/** The parameters (*@p u, *@p v) of the point of the surface nearest to @p x
 *  (3 doubles), within the domain. Closed form for plane, sphere and torus
 *  (at the centre of a sphere, or on a torus' axis, where every point ties,
 *  u = 0 and for the sphere v = pi / 2); sampling then projected Newton
 *  iteration for height fields (samples at the grid nodes) and callback
 *  surfaces (a 32 x 32 grid over the domain, or over [-8, 8] for an unbounded
 *  direction).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (bad description, NULL or
 *  non-finite @p x, NULL @p u or @p v); CDYN_ERR_CALLBACK;
 *  CDYN_ERR_NO_MEMORY. @since 0.1 */
CDYN_API cdyn_status cdyn_surface_closest_parameters(const cdyn_surface_desc *desc,
                                                     const double *x, double *u, double *v);

/** Evaluates a height field at grid coordinates (@p x, @p y): *@p height,
 *  the gradient (df/dx, df/dy) into @p gradient (2 doubles) and the Hessian
 *  (f_xx, f_xy, f_yy) into @p hessian (3 doubles), each optional. Outside
 *  the grid the point is clamped to it: the height is that of the nearest
 *  grid point and the derivatives across the edge are 0. On a cell edge the
 *  cell above (larger index) is used, which matters only for the bilinear
 *  gradient. Allocates (with malloc, freed before returning) a copy of the
 *  samples and, for BICUBIC, its interpolation tables, in O(nx ny) time, on
 *  every call: a height-field ground or surface builds them once.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT (NULL or bad @p desc: a size
 *  below 2 x 2, nx * ny overflowing, non-finite or non-positive spacing,
 *  NULL or non-finite samples, bad interpolation or up_axis; non-finite x or
 *  y); CDYN_ERR_NO_MEMORY. @since 0.1 */
CDYN_API cdyn_status cdyn_heightfield_evaluate(const cdyn_heightfield_desc *desc, double x,
                                               double y, double *height, double *gradient,
                                               double *hessian);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_SHAPES_H */
