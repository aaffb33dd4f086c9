/** @file
 * @brief The erosion lattice, a river-network model: rain, erosion, mud
 * slides, drainage, statistics, snapshots and ESRI ASCII grids.
 *
 * A W x H lattice of heights, stored row-major (site index i = y * W + x);
 * row y = 0 is the outlet. Rain drops walk downhill at random, lower every
 * site they visit, and mud slides keep slopes at most M. The river network is
 * the set of sites whose steepest-descent drainage (with depressions routed to
 * their spill points) is at least R. The model, its parameters and every rule
 * that its textbook statement leaves open are described in docs/lattice.md.
 *
 * Every function that fails records a message naming itself and the problem
 * (cdyn_lattice_last_error()) and changes nothing.
 *
 * A lattice is used by one thread at a time; distinct lattices may be used
 * from different threads at once. Its random generator is its own (seeded,
 * the same numbers on every platform), so the same calls with the same seed
 * give bit-identical heights.
 */
#ifndef CDYN_LATTICE_H
#define CDYN_LATTICE_H

#include <stddef.h>
#include <stdint.h>

#include "export.h"
#include "status.h"
#include "tasks.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The largest magnitude of a height (height units): every height of a
 *  lattice lies in [-CDYN_LATTICE_HEIGHT_MAX, CDYN_LATTICE_HEIGHT_MAX], so
 *  that no difference or sum the model forms can overflow. Setters refuse
 *  heights outside it, and rain that would erode a site below it fails and
 *  rolls back. */
#define CDYN_LATTICE_HEIGHT_MAX 1e100

/** The largest slide divisor S (see CDYN_LATTICE_S); dimensionless. */
#define CDYN_LATTICE_S_MAX 1e12

/** An erosion lattice.
 *
 *  Opaque; owned by the caller: cdyn_lattice_create() (or
 *  cdyn_lattice_load(), cdyn_lattice_read_asc()) makes one,
 *  cdyn_lattice_destroy() frees it.
 */
typedef struct cdyn_lattice cdyn_lattice;

/** The model parameters, for cdyn_lattice_set_param().
 *
 *  The values are pinned.
 */
typedef enum cdyn_lattice_param {
    /** E, flow bias (1 / height unit): a drop moves to a neighbour lower by
     *  dh >= 0 with weight exp(E dh). Any finite value; default 2. */
    CDYN_LATTICE_E = 0,
    /** D, erosion (height units): what one drop removes from each site it
     *  visited. In [0, CDYN_LATTICE_HEIGHT_MAX]; default 0.01. */
    CDYN_LATTICE_D = 1,
    /** M, slide threshold (height units): the largest height difference
     *  between neighbours that stands. >= 0, +infinity allowed (no slides);
     *  default 2. */
    CDYN_LATTICE_M = 2,
    /** S, slide divisor (dimensionless): a slide lowers a site by dh / S.
     *  In (1, CDYN_LATTICE_S_MAX]; default 2. */
    CDYN_LATTICE_S = 3,
    /** R, network threshold (units of water): sites with drainage >= R form
     *  the river network. Finite, >= 1; default 100. */
    CDYN_LATTICE_R = 4
} cdyn_lattice_param;

/** What lies beyond the sides x = 0 and x = W - 1
 *  (cdyn_lattice_set_boundary()).
 *
 *  The values are pinned.
 */
typedef enum cdyn_lattice_boundary {
    CDYN_LATTICE_WALLS = 0,   /**< No neighbour beyond the side (the default). */
    CDYN_LATTICE_PERIODIC = 1 /**< x wraps around (needs W >= 3); y never wraps. */
} cdyn_lattice_boundary;

/** How the drainage routes water from a site to a neighbour
 *  (cdyn_lattice_set_routing()).
 *
 *  The values are pinned.
 */
typedef enum cdyn_lattice_routing {
    /** Default. Four neighbours; a site drains to its lowest neighbour on
     *  the depression-filled surface (the model's rule; the cell size plays
     *  no part). */
    CDYN_LATTICE_D4 = 0,
    /** Eight neighbours; a site drains down its steepest descent on the
     *  depression-filled surface, the level difference times 1 / distance
     *  (distances dx, dy, or sqrt(dx^2 + dy^2) diagonally). */
    CDYN_LATTICE_D8 = 1
} cdyn_lattice_routing;

/** Where water leaves the lattice, for cdyn_lattice_set_outlet_edges(): a
 *  set of these bits.
 *
 *  The values are pinned.
 */
typedef enum cdyn_lattice_edge {
    CDYN_LATTICE_EDGE_BOTTOM = 1, /**< Row y = 0 (the default, the model's outlet). */
    CDYN_LATTICE_EDGE_TOP = 2,    /**< Row y = H - 1. */
    CDYN_LATTICE_EDGE_LEFT = 4,   /**< Column x = 0 (not with periodic sides). */
    CDYN_LATTICE_EDGE_RIGHT = 8,  /**< Column x = W - 1 (not with periodic sides). */
    /** Every site next to a no-data cell (in the routing's neighbourhood):
     *  the edge of the data, as for a coast or a clipped map. */
    CDYN_LATTICE_EDGE_NODATA = 16
} cdyn_lattice_edge;

/** The receiver reported for a no-data cell
 *  (cdyn_lattice_compute_receivers()), and accepted by the
 *  *_from_receivers functions for a site that is not part of the forest. */
#define CDYN_LATTICE_NO_RECEIVER UINT32_MAX

/** The field an ESRI ASCII grid holds, for cdyn_lattice_write_asc().
 *
 *  The values are pinned.
 */
typedef enum cdyn_lattice_grid {
    CDYN_LATTICE_GRID_HEIGHTS = 0,       /**< The heights. */
    CDYN_LATTICE_GRID_DRAINAGE_AREA = 1, /**< Drainage times dx dy (map units^2). */
    /** Each site's receiver as its index y * W + x (landlab's node id of a
     *  raster grid read from the file: row-major from the lower-left cell);
     *  an outlet's is its own. */
    CDYN_LATTICE_GRID_RECEIVERS = 2
} cdyn_lattice_grid;

/** Running totals of what rain did, read with cdyn_lattice_get_counters().
 *
 *  Set @c size to sizeof(cdyn_lattice_counters) before the call (a program
 *  built with the first layout, which ended at total_slid, passes that size
 *  and gets those fields).
 */
typedef struct cdyn_lattice_counters {
    size_t size;              /**< Set by the caller: sizeof(cdyn_lattice_counters). */
    uint64_t drops;           /**< Drops rained. */
    uint64_t walk_steps;      /**< Moves made by all drops. */
    uint64_t sites_eroded;    /**< Distinct visited sites of the drops that reached row 0. */
    uint64_t pit_moves;       /**< Moves out of a pit (no neighbour with dh >= 0). */
    uint64_t capped_walks;    /**< Walks ended by the walk cap. */
    uint64_t slides;          /**< Single-site slides (a cascade's closed series counts one). */
    uint64_t slide_rounds;    /**< Rounds of simultaneous slides. */
    double total_eroded;      /**< Height removed by erosion: sum of D per visited site. */
    double total_slid;        /**< Height removed by mud slides. */
    /** Drops whose cascade stopped at the slide cap (16 W H slides in one
     *  drop); the sites it left slide at the next drop. */
    uint64_t capped_cascades;
    /** Sites waiting to slide at the next drop: a capped cascade's, or
     *  under CDYN_LATTICE_SLIDE_ONCE those still above M (not a total: the
     *  current number). */
    uint64_t pending_sites;
} cdyn_lattice_counters;

/** How mud slides relax the surface after a drop's erosion
 *  (cdyn_lattice_set_slide_rule()).
 *
 *  Both bound a drop's slides by the lattice's size, whatever S. The values
 *  are pinned.
 */
typedef enum cdyn_lattice_slide_rule {
    /** Default. Slides cascade within the drop until no site stands more
     *  than M above a neighbour. Repeated slides of one site towards the
     *  same neighbour form a geometric series (each leaves 1 - 1/S of the
     *  height difference), which is closed in one step: the site moves at
     *  once to where the series ends, dh (1 - 1/S)^k <= M above the
     *  neighbour for the fewest slides k. A cascade that reaches 16 W H
     *  slides in one drop stops and goes on at the next drop
     *  (capped_cascades). */
    CDYN_LATTICE_SLIDE_CASCADE = 0,
    /** The rule as the model states it: once per drop, every site standing
     *  dh > M above its lowest neighbour is lowered by dh / S; those still
     *  above M wait for the next drop (pending_sites). */
    CDYN_LATTICE_SLIDE_ONCE = 1
} cdyn_lattice_slide_rule;

/** The largest Strahler order reported in cdyn_lattice_stats. */
#define CDYN_LATTICE_MAX_ORDER 32

/** Options of the network statistics.
 *
 *  Fill with cdyn_lattice_stats_options_init(), then change what you need.
 *  A bound of 0 means "choose automatically" (see each field); bounds are
 *  finite and >= 0, and a non-zero upper bound lies above its lower one.
 */
typedef struct cdyn_lattice_stats_options {
    size_t size;              /**< sizeof(cdyn_lattice_stats_options), set by the init function. */
    /** Lower end of the fit range of P(A >= a), in drainage area (sites).
     *  Default 0: 10. */
    double area_min;
    /** Upper end of the fit range of P(A >= a) (sites). Default 0: the
     *  largest drainage / 20, where the model's networks still scale
     *  (docs/lattice.md, "When a network is in the model's regime"). */
    double area_max;
    /** Lower end of the fit range of Hack's law, in drainage area (sites).
     *  Default 0: as the area range. */
    double hack_min;
    /** Upper end of the fit range of Hack's law (sites). Default 0: as the
     *  area range. */
    double hack_max;
    /** Sampling of the fits: points (area) or bins (Hack) per decade of
     *  area, 1..1000; default 10. */
    double points_per_decade;
    /** Sites with drainage >= this form the network whose Strahler orders
     *  are counted; 0 = the lattice's R (cdyn_lattice_compute_stats()) or 1
     *  (cdyn_lattice_stats_from_receivers()). */
    double threshold;
} cdyn_lattice_stats_options;

/** Statistics of a drainage network, filled by cdyn_lattice_compute_stats()
 *  and cdyn_lattice_stats_from_receivers().
 *
 *  Set @c size to sizeof(cdyn_lattice_stats) before the call. A fitted
 *  value is NaN when its range holds fewer than 3 usable points.
 */
typedef struct cdyn_lattice_stats {
    size_t size;                /**< Set by the caller: sizeof(cdyn_lattice_stats). */
    uint64_t sites;             /**< Sites analysed. */
    uint64_t outlets;           /**< Sites that are their own receiver. */
    uint64_t max_drainage;      /**< Largest drainage area (sites). */
    /** beta in P(A >= a) ~ a^-beta, least squares of ln P against ln a. */
    double area_exponent;
    double tau;                 /**< 1 + beta: P(A = a) ~ a^-tau. */
    double area_fit_min;        /**< Lower end of the area range used (sites). */
    double area_fit_max;        /**< Upper end of the area range used (sites). */
    uint64_t area_fit_points;   /**< Points in the fit. */
    /** h in l ~ A^h: main-stream length l (sites on the longest upstream
     *  path) against drainage area A, fitted on per-bin means of ln l,
     *  ln A. */
    double hack_exponent;
    double hack_fit_min;        /**< Lower end of Hack's range used (sites). */
    double hack_fit_max;        /**< Upper end of Hack's range used (sites). */
    uint64_t hack_fit_points;   /**< Bins in the fit. */
    double threshold;           /**< The network threshold used (units of water). */
    uint64_t network_sites;     /**< Sites with drainage >= threshold. */
    uint32_t max_order;         /**< Highest Strahler order in the network. */
    /** streams[k - 1]: the number of Strahler streams of order k, for k
     *  from 1 to max_order (at most CDYN_LATTICE_MAX_ORDER). */
    uint64_t streams[CDYN_LATTICE_MAX_ORDER];
    /** exp(-slope) of ln streams[k-1] against k over k = 1 .. max_order - 1
     *  (1 .. max_order when max_order < 3); NaN when max_order < 2. */
    double bifurcation_ratio;
} cdyn_lattice_stats;

/** Creates an erosion lattice.
 *
 *  The lattice has the default parameters, walls on the sides, outlets on row
 *  0, D4 routing, and the default initial surface of
 *  cdyn_lattice_init_tilted(lat, 0.5, 1.0), drawn from its generator seeded
 *  with @p seed.
 *
 *  @param[in]  width   W, the number of columns, at least 2.
 *  @param[in]  height  H, the number of rows, at least 2; W * H at most
 *                      UINT32_MAX and W * H * sizeof(double) representable.
 *  @param[in]  seed    The seed of the lattice's random generator.
 *  @param[in]  alloc   The allocator of every allocation of this lattice,
 *                      copied (its @c user must outlive the lattice); NULL for
 *                      malloc and free.
 *  @param[out] out     Receives the new lattice, which the caller owns and
 *                      frees with cdyn_lattice_destroy(); set to NULL on
 *                      failure.
 *  @retval CDYN_OK                    the lattice was created.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p out is NULL, @p width or @p height is
 *                                     below 2, the size overflows, or @p alloc
 *                                     lacks alloc or free.
 *  @retval CDYN_ERR_NO_MEMORY         an allocation failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_create(size_t width, size_t height, uint64_t seed,
                                         const cdyn_allocator *alloc,
                                         cdyn_lattice **out);

/** Destroys a lattice and everything it allocated.
 *
 *  @param[in] lat  The lattice; NULL is a no-op.
 *  @since 0.1
 */
CDYN_API void cdyn_lattice_destroy(cdyn_lattice *lat);

/** The message of the most recent call on a lattice that failed.
 *
 *  The message names the function and what was wrong ("cdyn_lattice_set_param():
 *  S must be ..."). Successful calls leave it unchanged, as for systems.
 *
 *  @param[in] lat  The lattice, or NULL.
 *  @return A NUL-terminated string owned by the lattice, valid until the next
 *          call on it; "" when no call has failed yet and for a NULL @p lat.
 *          Never NULL.
 *  @since 0.1
 */
CDYN_API const char *cdyn_lattice_last_error(const cdyn_lattice *lat);

/** Reads the width and height of a lattice.
 *
 *  @param[in]  lat     The lattice.
 *  @param[out] width   Receives W (sites); may be NULL.
 *  @param[out] height  Receives H (sites); may be NULL.
 *  @retval CDYN_OK                    the size was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_get_size(const cdyn_lattice *lat, size_t *width,
                                           size_t *height);

/** Gives a lattice a host task system.
 *
 *  The lattice keeps @p tasks (tasks.h) for its drainage accumulation; in
 *  this version the accumulation still runs on the calling thread, so
 *  results and timings are those without a task system. The task system is
 *  not part of a snapshot. Nothing is allocated.
 *
 *  @param[in,out] lat    The lattice.
 *  @param[in]     tasks  The host's callbacks, copied; NULL goes back to
 *                        running everything on the calling thread. Its
 *                        @c user must stay valid while the lattice holds it.
 *  @retval CDYN_OK                    the task system was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL, or @p tasks has a size
 *                                     field other than
 *                                     sizeof(cdyn_task_system), a missing
 *                                     callback or a worker_count outside
 *                                     1 .. 1024; the lattice is unchanged.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_set_task_system(cdyn_lattice *lat,
                                                  const cdyn_task_system *tasks);

/** Copies the task system of a lattice.
 *
 *  @param[in]     lat  The lattice.
 *  @param[in,out] out  Receives the task system (the defaults of
 *                      cdyn_task_system_init() when none is set), up to the
 *                      size the caller wrote in out->size.
 *  @retval CDYN_OK                    @p out was filled.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL, or out->size
 *                                     is below sizeof(size_t).
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_get_task_system(const cdyn_lattice *lat,
                                                  cdyn_task_system *out);

/** Sets a model parameter.
 *
 *  Bounds and defaults are listed at cdyn_lattice_param. Changing M or S makes
 *  the next rain first relax the whole surface.
 *
 *  @param[in,out] lat    The lattice.
 *  @param[in]     param  Which parameter.
 *  @param[in]     value  Its value, within the parameter's bounds.
 *  @retval CDYN_OK                    the parameter was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL, @p param is unknown, or
 *                                     the value is out of bounds (NaN
 *                                     included); nothing changed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_set_param(cdyn_lattice *lat, cdyn_lattice_param param,
                                            double value);

/** Reads a model parameter.
 *
 *  @param[in]  lat    The lattice.
 *  @param[in]  param  Which parameter.
 *  @param[out] out    Receives its value.
 *  @retval CDYN_OK                    the value was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL, or @p param is
 *                                     unknown.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_get_param(const cdyn_lattice *lat,
                                            cdyn_lattice_param param, double *out);

/** Sets the slide rule.
 *
 *  A new rule makes the next rain first list every site for sliding, as a
 *  changed M does.
 *
 *  @param[in,out] lat   The lattice.
 *  @param[in]     rule  A value of cdyn_lattice_slide_rule;
 *                       CDYN_LATTICE_SLIDE_CASCADE by default.
 *  @retval CDYN_OK                    the rule was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL or @p rule is unknown.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_set_slide_rule(cdyn_lattice *lat,
                                                 cdyn_lattice_slide_rule rule);

/** Reads the slide rule.
 *
 *  @param[in]  lat  The lattice.
 *  @param[out] out  Receives the rule.
 *  @retval CDYN_OK                    the rule was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_get_slide_rule(const cdyn_lattice *lat,
                                                 cdyn_lattice_slide_rule *out);

/** Sets the walk cap, the most moves a drop makes.
 *
 *  A drop that has made @p cap moves without reaching y = 0 stops there, erodes
 *  nothing (it carried nothing to the outlet) and is counted in capped_walks.
 *
 *  @param[in,out] lat  The lattice.
 *  @param[in]     cap  The cap, 1 .. 64 W H (so that a drop's walk is bounded
 *                      by the lattice's size); default 2 (W + H).
 *  @retval CDYN_OK                    the cap was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL or @p cap is out of range.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_set_walk_cap(cdyn_lattice *lat, uint64_t cap);

/** Reads the walk cap.
 *
 *  @param[in]  lat  The lattice.
 *  @param[out] out  Receives the cap.
 *  @retval CDYN_OK                    the cap was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_get_walk_cap(const cdyn_lattice *lat, uint64_t *out);

/** Sets what lies beyond the sides x = 0 and x = W - 1.
 *
 *  A new boundary makes the next rain first relax the whole surface, and the
 *  drainage is computed anew.
 *
 *  @param[in,out] lat       The lattice.
 *  @param[in]     boundary  A value of cdyn_lattice_boundary; walls by default.
 *  @retval CDYN_OK                    the boundary was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL, @p boundary is unknown,
 *                                     or it is CDYN_LATTICE_PERIODIC while W <
 *                                     3 or while the left or right edge is an
 *                                     outlet (cdyn_lattice_set_outlet_edges()).
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_set_boundary(cdyn_lattice *lat,
                                               cdyn_lattice_boundary boundary);

/** Reads the side boundary.
 *
 *  @param[in]  lat  The lattice.
 *  @param[out] out  Receives the boundary.
 *  @retval CDYN_OK                    the boundary was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_get_boundary(const cdyn_lattice *lat,
                                               cdyn_lattice_boundary *out);

/** Re-seeds the lattice's random generator.
 *
 *  The generator is xoshiro256** seeded through splitmix64. Heights and
 *  counters are kept.
 *
 *  @param[in,out] lat   The lattice.
 *  @param[in]     seed  The new seed.
 *  @retval CDYN_OK                    the generator was seeded.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_reseed(cdyn_lattice *lat, uint64_t seed);

/** Sets a tilted, noisy initial surface: h(x, y) = slope * y + noise * u.
 *
 *  u is uniform in [0, 1), drawn from the lattice's generator in site order.
 *  Counters are kept.
 *
 *  @param[in,out] lat    The lattice.
 *  @param[in]     slope  The tilt (height units per row), finite and >= 0.
 *  @param[in]     noise  The noise's amplitude (height units), finite and >= 0;
 *                        slope (H - 1) + noise at most CDYN_LATTICE_HEIGHT_MAX.
 *  @retval CDYN_OK                    the surface was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL or a value is out of
 *                                     bounds; nothing changed (the generator
 *                                     included).
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_init_tilted(cdyn_lattice *lat, double slope,
                                              double noise);

/** Sets every height of a lattice.
 *
 *  @param[in,out] lat      The lattice.
 *  @param[in]     heights  W * H heights (height units), row-major, y = 0
 *                          first; copied, the pointer is not kept.
 *  @param[in]     count    The number of values in @p heights; must equal W *
 *                          H.
 *  @retval CDYN_OK                    the heights were set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p heights is NULL, @p count is
 *                                     wrong, or a height is outside
 *                                     [-CDYN_LATTICE_HEIGHT_MAX,
 *                                     CDYN_LATTICE_HEIGHT_MAX] (NaN and
 *                                     infinities included); nothing changed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_set_heights(cdyn_lattice *lat, const double *heights,
                                              size_t count);

/** Copies every height of a lattice.
 *
 *  @param[in]  lat       The lattice.
 *  @param[out] out       Receives W * H heights, row-major, y = 0 first.
 *  @param[in]  capacity  The number of doubles @p out holds, at least W * H.
 *  @retval CDYN_OK                    the heights were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL, or @p capacity
 *                                     is below W * H; nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_get_heights(const cdyn_lattice *lat, double *out,
                                              size_t capacity);

/** Rains drops on the lattice, each on a uniformly random site.
 *
 *  Steps 2-6 of docs/lattice.md. The erosion model's drops leave at row 0: a
 *  lattice with other outlet edges or with an outlet or no-data mask is
 *  refused. Before the first drop, a surface that may have slopes steeper than
 *  M (new heights, or a changed M, S, slide rule or boundary) is listed for
 *  sliding everywhere. A drop costs O(its path + the sites its slides touch),
 *  at most about 64 W H moves and 16 W H slides whatever the parameters'
 *  values. Only erosion lowers the lowest height, by D per drop: a rain that
 *  might take a height below -CDYN_LATTICE_HEIGHT_MAX first copies the
 *  lattice's state (8 bytes per site and the waiting sites; O(W H) time), and a
 *  drop that would do so fails the whole call with nothing changed.
 *
 *  @param[in,out] lat      The lattice.
 *  @param[in]     n_drops  The number of drops; 0 does nothing.
 *  @retval CDYN_OK                    the drops were rained.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL.
 *  @retval CDYN_ERR_UNSUPPORTED       the lattice has outlets other than row 0
 *                                     or an outlet or no-data mask; nothing
 *                                     changed.
 *  @retval CDYN_ERR_DIVERGED          a drop would erode a site below
 *                                     -CDYN_LATTICE_HEIGHT_MAX; nothing rained
 *                                     (heights, counters, generator as before
 *                                     the call).
 *  @retval CDYN_ERR_NO_MEMORY         the scratch space (about 21 bytes per
 *                                     site, allocated by the first call and
 *                                     kept) or the copy could not be allocated;
 *                                     nothing changed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_rain(cdyn_lattice *lat, uint64_t n_drops);

/** Rains drops on the lattice, every one starting at a given site.
 *
 *  As cdyn_lattice_rain().
 *
 *  @param[in,out] lat      The lattice.
 *  @param[in]     x        The site's column, below W.
 *  @param[in]     y        The site's row, below H.
 *  @param[in]     n_drops  The number of drops; 0 does nothing.
 *  @retval CDYN_OK                    the drops were rained.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL, or @p x >= W or @p y >=
 *                                     H.
 *  @retval CDYN_ERR_UNSUPPORTED       the lattice has outlets other than row 0
 *                                     or an outlet or no-data mask; nothing
 *                                     changed.
 *  @retval CDYN_ERR_DIVERGED          a drop would erode a site below
 *                                     -CDYN_LATTICE_HEIGHT_MAX; nothing rained.
 *  @retval CDYN_ERR_NO_MEMORY         the scratch space or the copy could not
 *                                     be allocated; nothing changed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_rain_at(cdyn_lattice *lat, size_t x, size_t y,
                                          uint64_t n_drops);

/** Reads the running totals of what rain did.
 *
 *  Only the first out->size bytes are written (a larger struct than this
 *  library knows keeps its tail).
 *
 *  @param[in]     lat  The lattice.
 *  @param[in,out] out  The caller's struct: its @c size field, set by the
 *                      caller, says how many bytes may be written (at least the
 *                      first layout's, up to total_slid); it is left as it is.
 *  @retval CDYN_OK                    the counters were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL, or out->size is
 *                                     below the first layout's; nothing
 *                                     written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_get_counters(const cdyn_lattice *lat,
                                               cdyn_lattice_counters *out);

/** Reads how many bytes a snapshot of the lattice takes now.
 *
 *  272 + 8 W H + 4 P, P the sites waiting to slide
 *  (cdyn_lattice_counters.pending_sites), plus W H while an outlet or no-data
 *  mask is set (see cdyn_lattice_save()).
 *
 *  @param[in]  lat  The lattice.
 *  @param[out] out  Receives the size in bytes.
 *  @retval CDYN_OK                    the size was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_snapshot_size(const cdyn_lattice *lat, size_t *out);

/** Writes a snapshot of the lattice into a buffer.
 *
 *  The snapshot holds the size, the parameters, the slide rule, the boundary,
 *  the walk cap, the random generator's state, the counters, the terrain
 *  settings (routing, cell size, origin, outlet edges, masks), the heights and
 *  the sites waiting to slide, in a versioned byte layout (format version 2)
 *  that is the same on every platform (little-endian, IEEE 754 doubles) and
 *  ends in a 64-bit FNV-1a checksum (docs/lattice.md). cdyn_lattice_load() of
 *  the snapshot gives a lattice whose rain, drainage and statistics equal this
 *  one's bit for bit. The lattice is not changed.
 *
 *  @param[in]  lat       The lattice.
 *  @param[out] buffer    Receives the snapshot; the caller's.
 *  @param[in]  capacity  The bytes @p buffer holds, at least
 *                        cdyn_lattice_snapshot_size().
 *  @param[out] written   Receives the bytes written; may be NULL.
 *  @retval CDYN_OK                    the snapshot was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p buffer is NULL, or
 *                                     @p capacity is short; nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_save(const cdyn_lattice *lat, void *buffer, size_t capacity,
                                       size_t *written);

/** Creates a lattice from a snapshot written by cdyn_lattice_save().
 *
 *  Every snapshot that cdyn_lattice_save() writes loads, and the loaded lattice
 *  saves to the same bytes. The buffer is checked before anything is allocated
 *  beyond what its length pays for (the lattice: about 8 bytes per site, the
 *  scratch for waiting sites).
 *
 *  @param[in]  buffer  The snapshot; only read.
 *  @param[in]  size    The bytes in @p buffer: the snapshot's whole size.
 *  @param[in]  alloc   As for cdyn_lattice_create() (the allocator is not part
 *                      of a snapshot).
 *  @param[out] out     Receives the new lattice, which the caller frees with
 *                      cdyn_lattice_destroy(); set to NULL on failure.
 *  @retval CDYN_OK                    the lattice was created.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p out or @p buffer is NULL, or @p alloc
 *                                     lacks alloc or free.
 *  @retval CDYN_ERR_FORMAT            @p size is not the snapshot's whole size
 *                                     (truncated or trailing bytes), the magic,
 *                                     version (only 2 is read) or checksum does
 *                                     not match, or a value is out of the
 *                                     bounds its setter enforces (a corrupt
 *                                     buffer with a matching checksum: S above
 *                                     CDYN_LATTICE_S_MAX, a height beyond
 *                                     CDYN_LATTICE_HEIGHT_MAX, a waiting site
 *                                     listed twice, ...).
 *  @retval CDYN_ERR_NO_MEMORY         an allocation failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_load(const void *buffer, size_t size,
                                       const cdyn_allocator *alloc, cdyn_lattice **out);

/** Computes the drainage of every site (step 7 of docs/lattice.md) and copies
 *  it.
 *
 *  The drainage of a site is the number of units of water that pass through it
 *  when every site holding data sends one unit to an outlet, itself included (0
 *  at a no-data cell). Each site drains to its receiver: in D4 its lowest
 *  4-neighbour on the depression-filled surface, in D8 its steepest descent
 *  there; on lakes and flats the flood's breadth-first choice towards the spill
 *  point (docs/lattice.md). Outlets are the sites on the open edges (row 0 by
 *  default), in the outlet mask, or next to no-data with
 *  CDYN_LATTICE_EDGE_NODATA. A basin that no outlet can reach (closed by walls
 *  or no-data) drains to its lowest site (ties by index), which becomes its own
 *  receiver, a sink. So every unit ends at a site that is its own receiver, and
 *  those sites' drainages add up to the sites that hold data. O(W H) time (plus
 *  a heap over the flood's frontier); the result (8 bytes per site) is kept
 *  until the heights or the terrain settings change, and the computation takes
 *  about 1.2 more bytes per site while it runs (9.2 in D8), plus 16 bytes per
 *  site of the frontier.
 *
 *  @param[in,out] lat       The lattice; only its cached drainage changes.
 *  @param[out]    out       Receives W * H counts, row-major; may be NULL to
 *                           only compute.
 *  @param[in]     capacity  The entries @p out holds, at least W * H (ignored
 *                           when @p out is NULL).
 *  @retval CDYN_OK                    the drainage was computed (and written).
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL, or @p capacity is below
 *                                     W * H.
 *  @retval CDYN_ERR_NO_MEMORY         an allocation failed; heights and
 *                                     parameters are unchanged.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_compute_drainage(cdyn_lattice *lat, uint32_t *out,
                                           size_t capacity);

/** Copies the receiver of every site, computing the drainage first if it is
 *  stale.
 *
 *  The receiver is the index y * W + x of the site a site drains to, its own
 *  index for an outlet or a sink, CDYN_LATTICE_NO_RECEIVER for a no-data cell.
 *
 *  @param[in,out] lat       The lattice; only its cached drainage changes.
 *  @param[out]    out       Receives W * H indices, row-major.
 *  @param[in]     capacity  The entries @p out holds, at least W * H.
 *  @retval CDYN_OK                    the receivers were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL, or @p capacity
 *                                     is below W * H.
 *  @retval CDYN_ERR_NO_MEMORY         the drainage could not be computed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_compute_receivers(cdyn_lattice *lat, uint32_t *out,
                                                size_t capacity);

/** Writes the river network as a mask, computing the drainage first if it is
 *  stale.
 *
 *  out[i] = 1 if the drainage of site i is >= R, else 0.
 *
 *  @param[in,out] lat       The lattice; only its cached drainage changes.
 *  @param[out]    out       Receives W * H bytes, row-major.
 *  @param[in]     capacity  The bytes @p out holds, at least W * H.
 *  @retval CDYN_OK                    the mask was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL, or @p capacity
 *                                     is below W * H.
 *  @retval CDYN_ERR_NO_MEMORY         the drainage could not be computed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_compute_network(cdyn_lattice *lat, uint8_t *out,
                                              size_t capacity);

/* ---- Terrain: routing, cell size, outlets, no-data ------------------- */

/** Sets how the drainage and the statistics route water.
 *
 *  Rain is unaffected (drops walk to 4-neighbours).
 *
 *  @param[in,out] lat      The lattice.
 *  @param[in]     routing  A value of cdyn_lattice_routing; CDYN_LATTICE_D4 by
 *                          default.
 *  @retval CDYN_OK                    the routing was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL or @p routing is unknown.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_set_routing(cdyn_lattice *lat, cdyn_lattice_routing routing);

/** Reads the routing.
 *
 *  @param[in]  lat  The lattice.
 *  @param[out] out  Receives the routing.
 *  @retval CDYN_OK                    the routing was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_get_routing(const cdyn_lattice *lat,
                                              cdyn_lattice_routing *out);

/** Sets the size of a cell in map units.
 *
 *  Used by D8's slopes and by cdyn_lattice_compute_drainage_area(); the model's
 *  heights and D4 do not use it.
 *
 *  @param[in,out] lat  The lattice.
 *  @param[in]     dx   The cell's size along x (map units), in [1e-100, 1e100];
 *                      default 1.
 *  @param[in]     dy   The cell's size along y (map units), in [1e-100, 1e100];
 *                      default 1.
 *  @retval CDYN_OK                    the size was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL or a size is out of range.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_set_cell_size(cdyn_lattice *lat, double dx, double dy);

/** Reads the cell size.
 *
 *  @param[in]  lat  The lattice.
 *  @param[out] dx   Receives the size along x (map units); may be NULL.
 *  @param[out] dy   Receives the size along y (map units); may be NULL.
 *  @retval CDYN_OK                    the size was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_get_cell_size(const cdyn_lattice *lat, double *dx, double *dy);

/** Sets the map coordinates of the lower-left corner of site (0, 0)'s cell.
 *
 *  The xllcorner and yllcorner of an ESRI ASCII grid. Only kept and written;
 *  nothing is computed from it.
 *
 *  @param[in,out] lat  The lattice.
 *  @param[in]     x    The corner's x (map units), finite; default 0.
 *  @param[in]     y    The corner's y (map units), finite; default 0.
 *  @retval CDYN_OK                    the origin was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL or a value is not finite.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_set_origin(cdyn_lattice *lat, double x, double y);

/** Reads the origin.
 *
 *  @param[in]  lat  The lattice.
 *  @param[out] x    Receives the corner's x (map units); may be NULL.
 *  @param[out] y    Receives the corner's y (map units); may be NULL.
 *  @retval CDYN_OK                    the origin was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_get_origin(const cdyn_lattice *lat, double *x, double *y);

/** Sets which edges are outlets.
 *
 *  Every site on an open edge is an outlet: its own receiver, where water
 *  leaves. 0 closes every edge (then only the outlet mask drains, and basins
 *  with no outlet end in a sink, see cdyn_lattice_compute_drainage()).
 *
 *  @param[in,out] lat    The lattice.
 *  @param[in]     edges  A set of cdyn_lattice_edge bits; default
 *                        CDYN_LATTICE_EDGE_BOTTOM.
 *  @retval CDYN_OK                    the edges were set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL, a bit is unknown, or the
 *                                     left or right edge is asked for with
 *                                     periodic sides.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_set_outlet_edges(cdyn_lattice *lat, uint32_t edges);

/** Reads the outlet edges.
 *
 *  @param[in]  lat  The lattice.
 *  @param[out] out  Receives the set of cdyn_lattice_edge bits.
 *  @retval CDYN_OK                    the edges were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_get_outlet_edges(const cdyn_lattice *lat, uint32_t *out);

/** Makes sites outlets anywhere on the lattice, or clears that mask.
 *
 *  Every site i with mask[i] != 0 becomes an outlet (a sea, a lake, a gauge),
 *  besides the open edges. A no-data cell is never an outlet. Takes 1 byte per
 *  site while a mask is set.
 *
 *  @param[in,out] lat    The lattice.
 *  @param[in]     mask   W * H bytes, copied, not kept; NULL clears the mask.
 *  @param[in]     count  The entries in @p mask: W * H (ignored for NULL).
 *  @retval CDYN_OK                    the mask was set or cleared.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL or @p count is wrong;
 *                                     nothing changed.
 *  @retval CDYN_ERR_NO_MEMORY         the mask could not be allocated; nothing
 *                                     changed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_set_outlet_mask(cdyn_lattice *lat, const uint8_t *mask,
                                                  size_t count);

/** Writes the outlet mask as 0/1 bytes.
 *
 *  All 0 when none is set.
 *
 *  @param[in]  lat       The lattice.
 *  @param[out] out       Receives W * H bytes, row-major.
 *  @param[in]  capacity  The bytes @p out holds, at least W * H.
 *  @retval CDYN_OK                    the mask was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL, or @p capacity
 *                                     is below W * H.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_get_outlet_mask(const cdyn_lattice *lat, uint8_t *out,
                                                  size_t capacity);

/** Marks sites as no-data, or clears that mask.
 *
 *  A no-data cell drains nothing and receives nothing: drainage 0, receiver
 *  CDYN_LATTICE_NO_RECEIVER, never an outlet, left out of the statistics; with
 *  CDYN_LATTICE_EDGE_NODATA its neighbours are outlets. Its height is kept but
 *  never read by the drainage.
 *
 *  @param[in,out] lat    The lattice.
 *  @param[in]     mask   W * H bytes, non-zero for no-data; copied, not kept;
 *                        NULL clears the mask.
 *  @param[in]     count  The entries in @p mask: W * H (ignored for NULL).
 *  @retval CDYN_OK                    the mask was set or cleared.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat is NULL, @p count is wrong, or the
 *                                     mask covers every site; nothing changed.
 *  @retval CDYN_ERR_NO_MEMORY         the mask could not be allocated; nothing
 *                                     changed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_set_nodata_mask(cdyn_lattice *lat, const uint8_t *mask,
                                                  size_t count);

/** Writes the no-data mask as 0/1 bytes.
 *
 *  All 0 when none is set.
 *
 *  @param[in]  lat       The lattice.
 *  @param[out] out       Receives W * H bytes, row-major.
 *  @param[in]  capacity  The bytes @p out holds, at least W * H.
 *  @retval CDYN_OK                    the mask was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL, or @p capacity
 *                                     is below W * H.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_get_nodata_mask(const cdyn_lattice *lat, uint8_t *out,
                                                  size_t capacity);

/** Writes the drainage area of every site in map units, computing the drainage
 *  first if it is stale.
 *
 *  Its drainage (cdyn_lattice_compute_drainage()) times dx dy; 0 at no-data
 *  cells.
 *
 *  @param[in,out] lat       The lattice; only its cached drainage changes.
 *  @param[out]    out       Receives W * H areas (map units squared),
 *                           row-major.
 *  @param[in]     capacity  The entries @p out holds, at least W * H.
 *  @retval CDYN_OK                    the areas were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL, or @p capacity
 *                                     is below W * H.
 *  @retval CDYN_ERR_NO_MEMORY         the drainage could not be computed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_compute_drainage_area(cdyn_lattice *lat, double *out,
                                                    size_t capacity);

/* ---- ESRI ASCII grids (.asc) ------------------------------------------ */

/** Creates a lattice from the text of an ESRI ASCII grid.
 *
 *  The text is a header of "key value" lines (ncols, nrows, xllcorner or
 *  xllcenter, yllcorner or yllcenter, cellsize or dx and dy, optionally
 *  NODATA_value; keys in any case and order, each once), then nrows lines of
 *  ncols numbers, the northernmost row first (it becomes y = nrows - 1).
 *  Numbers use a '.' decimal point whatever the locale. Cells equal to
 *  NODATA_value become no-data; the other values must be heights within
 *  CDYN_LATTICE_HEIGHT_MAX. The lattice gets the cell size and origin (a centre
 *  is moved half a cell down and left to the corner), outlets on every edge and
 *  next to no-data (the four CDYN_LATTICE_EDGE_* bits and
 *  CDYN_LATTICE_EDGE_NODATA: water leaves a map where it ends), D4 routing, the
 *  default parameters and a generator seeded with 0. Parsing is strict and the
 *  declared size is checked against the text's length before anything is
 *  allocated.
 *
 *  @param[in]  text            The file's bytes (need not end in NUL); read
 *                              only.
 *  @param[in]  length          The bytes in @p text.
 *  @param[in]  alloc           As for cdyn_lattice_create().
 *  @param[out] out             Receives the new lattice, which the caller frees
 *                              with cdyn_lattice_destroy(); NULL on failure.
 *  @param[out] error           Receives a NUL-terminated message on failure,
 *                              naming the function, the line and the field
 *                              ("cdyn_lattice_read_asc(): line 9: row 3 has 4
 *                              values, ncols is 5"); "" on success; may be
 *                              NULL.
 *  @param[in]  error_capacity  The bytes @p error holds (messages are cut to
 *                              it).
 *  @retval CDYN_OK                    the lattice was created.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p out or @p text is NULL, or @p alloc
 *                                     lacks alloc or free.
 *  @retval CDYN_ERR_FORMAT            the grid is malformed: a header key
 *                                     unknown, repeated, missing or without a
 *                                     value; a value that is not a number; a
 *                                     short or long row; too few or too many
 *                                     rows; fewer than 2 x 2 cells or more than
 *                                     2^32 - 1; more values declared than the
 *                                     text can hold; a cell size or origin out
 *                                     of range; a height out of range; every
 *                                     cell NODATA_value.
 *  @retval CDYN_ERR_NO_MEMORY         an allocation failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_read_asc(const char *text, size_t length,
                                           const cdyn_allocator *alloc, cdyn_lattice **out,
                                           char *error, size_t error_capacity);

/** Creates a lattice from an ESRI ASCII grid file.
 *
 *  As cdyn_lattice_read_asc(), from the file at @p path, read whole through
 *  @p alloc.
 *
 *  @param[in]  path            The file's path, NUL-terminated.
 *  @param[in]  alloc           As for cdyn_lattice_create().
 *  @param[out] out             Receives the new lattice; NULL on failure.
 *  @param[out] error           Receives a message on failure (as for
 *                              cdyn_lattice_read_asc()); may be NULL.
 *  @param[in]  error_capacity  The bytes @p error holds.
 *  @retval CDYN_OK                    the lattice was created.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p out or @p path is NULL, or @p alloc
 *                                     lacks alloc or free.
 *  @retval CDYN_ERR_IO                the file could not be opened or read.
 *  @retval CDYN_ERR_FORMAT            the grid is malformed (as for
 *                                     cdyn_lattice_read_asc()).
 *  @retval CDYN_ERR_NO_MEMORY         an allocation failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_read_asc_file(const char *path, const cdyn_allocator *alloc,
                                                cdyn_lattice **out, char *error,
                                                size_t error_capacity);

/** Reads how many bytes cdyn_lattice_write_asc() needs for a field, its
 *  terminating NUL included.
 *
 *  The text is formatted once to count them: O(W H). Computes the drainage
 *  first for the drainage and receiver fields if it is stale.
 *
 *  @param[in,out] lat    The lattice; only its cached drainage changes.
 *  @param[in]     field  The field to write.
 *  @param[out]    size   Receives the bytes.
 *  @retval CDYN_OK                    the size was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p size is NULL, or @p field is
 *                                     unknown.
 *  @retval CDYN_ERR_NO_MEMORY         the drainage could not be computed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_asc_size(cdyn_lattice *lat, cdyn_lattice_grid field,
                                           size_t *size);

/** Writes a field as the text of an ESRI ASCII grid, NUL-terminated.
 *
 *  The text holds ncols, nrows, xllcorner, yllcorner, cellsize (or dx and dy
 *  when they differ, as GDAL writes them), NODATA_value, then the rows, the
 *  northernmost first, values separated by one space. Heights and areas are
 *  written with 17 significant digits and a '.' decimal point, so that reading
 *  the text back gives the same bits; receivers as integers. No-data cells
 *  carry NODATA_value: -9999, or -1e300 when a height is exactly -9999. GIS
 *  tools (GDAL, QGIS, ArcGIS) and landlab (read_esri_ascii) read the result.
 *
 *  @param[in,out] lat       The lattice; only its cached drainage changes.
 *  @param[in]     field     The field to write.
 *  @param[out]    buffer    Receives the text.
 *  @param[in]     capacity  The bytes @p buffer holds, at least what
 *                           cdyn_lattice_asc_size() gives.
 *  @param[out]    written   Receives the text's length without the NUL; may be
 *                           NULL.
 *  @retval CDYN_OK                    the text was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p buffer is NULL, @p field is
 *                                     unknown, or @p capacity is too small;
 *                                     nothing written.
 *  @retval CDYN_ERR_NO_MEMORY         the drainage could not be computed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_write_asc(cdyn_lattice *lat, cdyn_lattice_grid field,
                                            char *buffer, size_t capacity, size_t *written);

/** Writes a field as an ESRI ASCII grid file.
 *
 *  As cdyn_lattice_write_asc(), to the file at @p path (created or truncated;
 *  written as it is formatted, no buffer of the whole text).
 *
 *  @param[in,out] lat    The lattice; only its cached drainage changes.
 *  @param[in]     field  The field to write.
 *  @param[in]     path   The file's path, NUL-terminated.
 *  @retval CDYN_OK                    the file was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p path is NULL, or @p field is
 *                                     unknown.
 *  @retval CDYN_ERR_NO_MEMORY         the drainage could not be computed.
 *  @retval CDYN_ERR_IO                the file could not be opened or written
 *                                     (it may then be partly written).
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_write_asc_file(cdyn_lattice *lat, cdyn_lattice_grid field,
                                                 const char *path);

/** Fills the options of the network statistics with the defaults.
 *
 *  Every bound automatic (0), threshold automatic (0), 10 points per decade;
 *  size set.
 *
 *  @param[out] opts  The struct to fill; NULL is a no-op.
 *  @since 0.1
 */
CDYN_API void cdyn_lattice_stats_options_init(cdyn_lattice_stats_options *opts);

/** Computes the statistics of the lattice's river network, computing the
 *  drainage first if it is stale.
 *
 *  P(A >= a) with its fitted exponent, Hack's law, Strahler orders and the
 *  bifurcation ratio. Nothing in the lattice but its cached drainage changes.
 *
 *  @param[in,out] lat   The lattice.
 *  @param[in]     opts  The options, or NULL for the defaults; not kept.
 *  @param[in,out] out   Receives the statistics; its @c size field, set by the
 *                       caller, must be at least sizeof(cdyn_lattice_stats).
 *  @retval CDYN_OK                    the statistics were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p lat or @p out is NULL, out->size is
 *                                     too small, or an option is out of range.
 *  @retval CDYN_ERR_NO_MEMORY         the drainage or the statistics' scratch
 *                                     could not be allocated.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_compute_stats(cdyn_lattice *lat,
                                                const cdyn_lattice_stats_options *opts,
                                                cdyn_lattice_stats *out);

/** Computes the same statistics for any drainage forest given by its receivers.
 *
 *  receivers[i] is the site that site i drains to, i itself for an outlet, or
 *  CDYN_LATTICE_NO_RECEIVER for a site outside the forest (no-data: left out of
 *  every count). Used to analyse networks built elsewhere (such as the
 *  Scheidegger model) with the lattice's code. @p out is written only on
 *  success.
 *
 *  @param[in]     n_sites    The number of sites, 1 .. UINT32_MAX.
 *  @param[in]     receivers  @p n_sites indices; read only, not kept.
 *  @param[in]     alloc      The allocator of the scratch space (about 15 bytes
 *                            per site, freed before return); NULL for malloc
 *                            and free.
 *  @param[in]     opts       The options, or NULL for the defaults (threshold 0
 *                            means 1 here); not kept.
 *  @param[in,out] out        Receives the statistics; its @c size field, set by
 *                            the caller, must be at least
 *                            sizeof(cdyn_lattice_stats).
 *  @retval CDYN_OK                    the statistics were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p receivers or @p out is NULL, out->size
 *                                     is too small, @p n_sites is out of range,
 *                                     an index is >= @p n_sites (other than
 *                                     CDYN_LATTICE_NO_RECEIVER), a site drains
 *                                     into a site outside the forest, the
 *                                     receivers form a cycle, no site is in the
 *                                     forest, an option is out of range, or
 *                                     @p alloc lacks alloc or free.
 *  @retval CDYN_ERR_NO_MEMORY         the scratch could not be allocated.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_stats_from_receivers(
    size_t n_sites, const uint32_t *receivers, const cdyn_allocator *alloc,
    const cdyn_lattice_stats_options *opts, cdyn_lattice_stats *out);

/** Computes the drainage of any forest given by its receivers.
 *
 *  Receivers as for cdyn_lattice_stats_from_receivers(): out[i] = 1 + the
 *  drainage of every site whose receiver is i, 0 for a site outside the forest.
 *  O(n) time, 1 to 4 bytes per site of scratch.
 *
 *  @param[in]  n_sites    The number of sites, 1 .. UINT32_MAX.
 *  @param[in]  receivers  @p n_sites indices; read only, not kept.
 *  @param[in]  alloc      The allocator of the scratch space; NULL for malloc
 *                         and free.
 *  @param[out] out        Receives @p n_sites counts; unspecified after a
 *                         failure.
 *  @retval CDYN_OK                    the drainage was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p receivers or @p out is NULL,
 *                                     @p n_sites is out of range, an index is
 *                                     >= @p n_sites (other than
 *                                     CDYN_LATTICE_NO_RECEIVER), a site drains
 *                                     into a site outside the forest, the
 *                                     receivers form a cycle, or @p alloc lacks
 *                                     alloc or free.
 *  @retval CDYN_ERR_NO_MEMORY         the scratch could not be allocated.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_lattice_drainage_from_receivers(size_t n_sites,
                                                          const uint32_t *receivers,
                                                          const cdyn_allocator *alloc,
                                                          uint32_t *out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_LATTICE_H */
