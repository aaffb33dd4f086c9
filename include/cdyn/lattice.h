/* cdyn: the erosion lattice, a river-network model.
 *
 * A W x H lattice of heights, stored row-major (site index i = y * W + x);
 * row y = 0 is the outlet. Rain drops walk downhill at random, lower every
 * site they visit, and mud slides keep slopes at most M. The river network is
 * the set of sites whose steepest-descent drainage (with depressions routed to
 * their spill points) is at least R. The model, its parameters and every rule
 * that its textbook statement leaves open are described in docs/lattice.md.
 *
 * Every function that fails records a message naming itself and the problem
 * (cdyn_lattice_last_error) and changes nothing.
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

/** The largest slide divisor S (see CDYN_LATTICE_S). */
#define CDYN_LATTICE_S_MAX 1e12

/** An erosion lattice. Opaque; owned by the caller
 *  (cdyn_lattice_create / cdyn_lattice_destroy). */
typedef struct cdyn_lattice cdyn_lattice;

/** The model parameters, for cdyn_lattice_set_param. Values are pinned. */
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

/** What lies beyond the sides x = 0 and x = W - 1. Values are pinned. */
typedef enum cdyn_lattice_boundary {
    CDYN_LATTICE_WALLS = 0,   /**< no neighbour beyond the side (default) */
    CDYN_LATTICE_PERIODIC = 1 /**< x wraps around (needs W >= 3); y never wraps */
} cdyn_lattice_boundary;

/** How the drainage routes water from a site to a neighbour. Values are
 *  pinned. */
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

/** Where water leaves the lattice, for cdyn_lattice_set_outlet_edges: a
 *  set of these bits. Values are pinned. */
typedef enum cdyn_lattice_edge {
    CDYN_LATTICE_EDGE_BOTTOM = 1, /**< row y = 0 (the default, the model's outlet) */
    CDYN_LATTICE_EDGE_TOP = 2,    /**< row y = H - 1 */
    CDYN_LATTICE_EDGE_LEFT = 4,   /**< column x = 0 (not with periodic sides) */
    CDYN_LATTICE_EDGE_RIGHT = 8,  /**< column x = W - 1 (not with periodic sides) */
    /** every site next to a no-data cell (in the routing's neighbourhood):
     *  the edge of the data, as for a coast or a clipped map */
    CDYN_LATTICE_EDGE_NODATA = 16
} cdyn_lattice_edge;

/** The receiver reported for a no-data cell (cdyn_lattice_compute_receivers),
 *  and accepted by the *_from_receivers functions for a site that is not
 *  part of the forest. */
#define CDYN_LATTICE_NO_RECEIVER UINT32_MAX

/** The field an ESRI ASCII grid holds, for cdyn_lattice_write_asc. Values
 *  are pinned. */
typedef enum cdyn_lattice_grid {
    CDYN_LATTICE_GRID_HEIGHTS = 0,       /**< the heights */
    CDYN_LATTICE_GRID_DRAINAGE_AREA = 1, /**< drainage times dx dy (map units^2) */
    /** each site's receiver as its index y * W + x (landlab's node id of a
     *  raster grid read from the file: row-major from the lower-left cell);
     *  an outlet's is its own */
    CDYN_LATTICE_GRID_RECEIVERS = 2
} cdyn_lattice_grid;

/** Running totals of what rain did, for cdyn_lattice_get_counters. Set
 *  @c size to sizeof(cdyn_lattice_counters) before the call (a program
 *  built with the first layout, which ended at total_slid, passes that
 *  size and gets those fields). */
typedef struct cdyn_lattice_counters {
    size_t size;              /**< set by the caller: sizeof(cdyn_lattice_counters) */
    uint64_t drops;           /**< drops rained */
    uint64_t walk_steps;      /**< moves made by all drops */
    uint64_t sites_eroded;    /**< distinct visited sites of the drops that reached row 0 */
    uint64_t pit_moves;       /**< moves out of a pit (no neighbour with dh >= 0) */
    uint64_t capped_walks;    /**< walks ended by the walk cap */
    uint64_t slides;          /**< single-site slides (a cascade's closed series counts one) */
    uint64_t slide_rounds;    /**< rounds of simultaneous slides */
    double total_eroded;      /**< height removed by erosion: sum of D per visited site */
    double total_slid;        /**< height removed by mud slides */
    /** Drops whose cascade stopped at the slide cap (16 W H slides in one
     *  drop); the sites it left slide at the next drop. */
    uint64_t capped_cascades;
    /** Sites waiting to slide at the next drop: a capped cascade's, or
     *  under CDYN_LATTICE_SLIDE_ONCE those still above M (not a total: the
     *  current number). */
    uint64_t pending_sites;
} cdyn_lattice_counters;

/** How mud slides relax the surface after a drop's erosion. Values are
 *  pinned. Both bound a drop's slides by the lattice's size, whatever S. */
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

/** Options of the network statistics. Fill with
 *  cdyn_lattice_stats_options_init, then change what you need. A bound of 0
 *  means "choose automatically" (see each field). */
typedef struct cdyn_lattice_stats_options {
    size_t size;              /**< set by the init function */
    /** Fit range of P(A >= a) in drainage area (sites). Default 0, 0:
     *  [10, max drainage / 20], the range where the model's networks scale
     *  (docs/lattice.md, "When a network is in the model's regime"). */
    double area_min, area_max;
    /** Fit range of Hack's law in drainage area (sites). Default 0, 0: the
     *  same as the area range. */
    double hack_min, hack_max;
    /** Sampling of the fits: points (area) or bins (Hack) per decade of
     *  area, 1..1000; default 10. */
    double points_per_decade;
    /** Sites with drainage >= this form the network whose Strahler orders
     *  are counted; 0 = the lattice's R (cdyn_lattice_compute_stats) or 1
     *  (cdyn_lattice_stats_from_receivers). */
    double threshold;
} cdyn_lattice_stats_options;

/** Statistics of a drainage network. Set @c size to
 *  sizeof(cdyn_lattice_stats) before the call. A fitted value is NaN when
 *  its range holds fewer than 3 usable points. */
typedef struct cdyn_lattice_stats {
    size_t size;                /**< set by the caller: sizeof(cdyn_lattice_stats) */
    uint64_t sites;             /**< sites analysed */
    uint64_t outlets;           /**< sites that are their own receiver */
    uint64_t max_drainage;      /**< largest drainage area (sites) */
    /** beta in P(A >= a) ~ a^-beta, least squares of ln P against ln a */
    double area_exponent;
    double tau;                 /**< 1 + beta: P(A = a) ~ a^-tau */
    double area_fit_min, area_fit_max; /**< the range used */
    uint64_t area_fit_points;   /**< points in the fit */
    /** h in l ~ A^h: main-stream length l (sites on the longest upstream
     *  path) against drainage area A, fitted on per-bin means of ln l, ln A */
    double hack_exponent;
    double hack_fit_min, hack_fit_max; /**< the range used */
    uint64_t hack_fit_points;   /**< bins in the fit */
    double threshold;           /**< the network threshold used */
    uint64_t network_sites;     /**< sites with drainage >= threshold */
    uint32_t max_order;         /**< highest Strahler order in the network */
    /** streams[k - 1]: number of Strahler streams of order k (k = 1 ..
     *  max_order, at most CDYN_LATTICE_MAX_ORDER) */
    uint64_t streams[CDYN_LATTICE_MAX_ORDER];
    /** exp(-slope) of ln streams[k-1] against k over k = 1 .. max_order - 1
     *  (1 .. max_order when max_order < 3); NaN when max_order < 2 */
    double bifurcation_ratio;
} cdyn_lattice_stats;

/** Creates a width x height lattice whose generator is seeded with @p seed,
 *  with the default parameters, walls on the sides, and the default initial
 *  surface: cdyn_lattice_init_tilted(lat, 0.5, 1.0).
 *  @param alloc  allocator for every allocation of this lattice, copied; NULL
 *                for malloc/free.
 *  @param out    receives the new lattice (owned by the caller, free it with
 *                cdyn_lattice_destroy); set to NULL on failure, as
 *                cdyn_system_create does.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT if @p out is NULL, width or
 *  height < 2, W * H > UINT32_MAX or W * H * sizeof(double) overflows, or
 *  @p alloc lacks alloc or free; CDYN_ERR_NO_MEMORY.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_create(size_t width, size_t height, uint64_t seed,
                                         const cdyn_allocator *alloc,
                                         cdyn_lattice **out);

/** Frees the lattice and everything it allocated. NULL is a no-op.
 *  @since 0.1 */
CDYN_API void cdyn_lattice_destroy(cdyn_lattice *lat);

/** The message of the most recent call on @p lat that failed, naming the
 *  function and what was wrong ("cdyn_lattice_set_param: S must be ...");
 *  "" when no call has failed yet. Successful calls leave it unchanged, as
 *  for systems. A string owned by the lattice, valid until the next call on
 *  it; never NULL, "" for a NULL @p lat. @since 0.1 */
CDYN_API const char *cdyn_lattice_last_error(const cdyn_lattice *lat);

/** Width and height in sites. Either pointer may be NULL.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT if @p lat is NULL.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_get_size(const cdyn_lattice *lat, size_t *width,
                                           size_t *height);

/** Hands the drainage accumulation of @p lat (cdyn_lattice_compute_drainage
 *  and the calls that need the drainage) to the host task system @p tasks
 *  (tasks.h), copied; NULL goes back to running it on the calling thread.
 *  The result is the same with any number of workers. Not part of a
 *  snapshot. Nothing is allocated.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat, a size
 *  field other than sizeof(cdyn_task_system), a missing callback or a
 *  worker_count outside 1 .. 1024 (lattice unchanged). @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_set_task_system(cdyn_lattice *lat,
                                                  const cdyn_task_system *tasks);

/** Copies the task system of @p lat into @p out (the defaults of
 *  cdyn_task_system_init when none is set), up to the size the caller wrote
 *  in out->size.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL arguments or a size
 *  below sizeof(size_t). @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_get_task_system(const cdyn_lattice *lat,
                                                  cdyn_task_system *out);

/** Sets a model parameter; bounds and defaults at cdyn_lattice_param.
 *  Changing M or S makes the next rain first relax the whole surface.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat, an unknown
 *  @p param, or a value out of bounds (NaN included): nothing changed.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_set_param(cdyn_lattice *lat, cdyn_lattice_param param,
                                            double value);

/** Reads a model parameter into *@p out.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer or an
 *  unknown @p param. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_get_param(const cdyn_lattice *lat,
                                            cdyn_lattice_param param, double *out);

/** Sets the slide rule (CDYN_LATTICE_SLIDE_CASCADE by default). A new rule
 *  makes the next rain first list every site for sliding, as a changed M.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat or an
 *  unknown @p rule. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_set_slide_rule(cdyn_lattice *lat,
                                                 cdyn_lattice_slide_rule rule);

/** Reads the slide rule into *@p out.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_get_slide_rule(const cdyn_lattice *lat,
                                                 cdyn_lattice_slide_rule *out);

/** Sets the walk cap: a drop that has made @p cap moves without reaching
 *  y = 0 stops there, erodes nothing (it carried nothing to the outlet) and
 *  is counted in capped_walks. Default 2 * (W + H); 1 <= @p cap <= 64 W H,
 *  so that a drop's walk is bounded by the lattice's size.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat or a cap
 *  out of range. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_set_walk_cap(cdyn_lattice *lat, uint64_t cap);

/** Reads the walk cap into *@p out.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_get_walk_cap(const cdyn_lattice *lat, uint64_t *out);

/** Sets the side boundary (walls by default).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat, an unknown
 *  value, or CDYN_LATTICE_PERIODIC with W < 3. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_set_boundary(cdyn_lattice *lat,
                                               cdyn_lattice_boundary boundary);

/** Reads the side boundary into *@p out.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_get_boundary(const cdyn_lattice *lat,
                                               cdyn_lattice_boundary *out);

/** Re-seeds the lattice's generator (xoshiro256** seeded through
 *  splitmix64). Heights and counters are kept.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_reseed(cdyn_lattice *lat, uint64_t seed);

/** Sets the initial surface: h(x, y) = slope * y + noise * u with u uniform
 *  in [0, 1), drawn from the lattice's generator in site order. Heights are
 *  in height units, @p slope per row. Counters are kept.
 *  @param slope  finite, >= 0
 *  @param noise  finite, >= 0; slope (H - 1) + noise at most
 *                CDYN_LATTICE_HEIGHT_MAX
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat or a value
 *  out of bounds: nothing changed (the generator included). @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_init_tilted(cdyn_lattice *lat, double slope,
                                              double noise);

/** Copies W * H heights from @p heights (row-major, y = 0 first) into the
 *  lattice. The pointer is not kept.
 *  @param count  number of values in @p heights; must equal W * H
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer, a wrong
 *  @p count or a height outside [-CDYN_LATTICE_HEIGHT_MAX,
 *  CDYN_LATTICE_HEIGHT_MAX] (NaN and infinities included): nothing changed.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_set_heights(cdyn_lattice *lat, const double *heights,
                                              size_t count);

/** Copies the W * H heights into @p out (row-major, y = 0 first).
 *  @param capacity  number of doubles @p out can hold; at least W * H
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer or a
 *  capacity below W * H. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_get_heights(const cdyn_lattice *lat, double *out,
                                              size_t capacity);

/** Rains @p n_drops drops (steps 2-6 of docs/lattice.md), each on a
 *  uniformly random site. The erosion model's drops leave at row 0: a
 *  lattice with other outlet edges or with an outlet or no-data mask is
 *  refused. Before the first drop, a surface that may have
 *  slopes steeper than M (new heights, or a changed M, S, slide rule or
 *  boundary) is listed for sliding everywhere. A drop costs O(its path +
 *  the sites its slides touch), at most about 64 W H moves and 16 W H
 *  slides whatever the parameters' values.
 *  Only erosion lowers the lowest height, by D per drop: a rain that might
 *  take a height below -CDYN_LATTICE_HEIGHT_MAX first copies the lattice's
 *  state (8 bytes per site and the waiting sites; O(W H) time), and a drop
 *  that would do so fails the whole call with nothing changed.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat;
 *  CDYN_ERR_UNSUPPORTED for terrain outlets or masks (nothing changed);
 *  CDYN_ERR_DIVERGED if a drop would erode a site below
 *  -CDYN_LATTICE_HEIGHT_MAX (nothing rained: heights, counters, generator
 *  as before the call); CDYN_ERR_NO_MEMORY if the scratch space (about 21
 *  bytes per site, allocated by the first call and kept) or that copy
 *  cannot be had: nothing changed. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_rain(cdyn_lattice *lat, uint64_t n_drops);

/** As cdyn_lattice_rain, with every drop starting at site (x, y).
 *  @return as cdyn_lattice_rain; CDYN_ERR_INVALID_ARGUMENT also for x >= W
 *  or y >= H. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_rain_at(cdyn_lattice *lat, size_t x, size_t y,
                                          uint64_t n_drops);

/** Copies the running totals into @p out; @p out->size must be set. Only
 *  the first @p out->size bytes are written (a larger struct than this
 *  library knows keeps its tail).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer or an
 *  @p out->size below the first layout's (up to total_slid). @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_get_counters(const cdyn_lattice *lat,
                                               cdyn_lattice_counters *out);

/** Bytes a snapshot of @p lat takes now: 272 + 8 W H + 4 P, P the sites
 *  waiting to slide (cdyn_lattice_counters.pending_sites), plus W H while
 *  an outlet or no-data mask is set (see cdyn_lattice_save).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_snapshot_size(const cdyn_lattice *lat, size_t *out);

/** Writes a snapshot of @p lat into @p buffer: the size, the parameters,
 *  the slide rule, the boundary, the walk cap, the random generator's
 *  state, the counters, the terrain settings (routing, cell size, origin,
 *  outlet edges, masks), the heights and the sites waiting to slide, in a
 *  versioned byte layout (format version 2) that is the same on every
 *  platform (little-endian, IEEE 754 doubles) and ends in a 64-bit FNV-1a
 *  checksum (docs/lattice.md). cdyn_lattice_load of the snapshot gives a
 *  lattice whose rain, drainage and statistics equal this one's bit for
 *  bit. The lattice is not changed; the buffer belongs to the caller.
 *  @param written  receives the bytes written (may be NULL)
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat or
 *  @p buffer, or a @p capacity below cdyn_lattice_snapshot_size (nothing
 *  written). @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_save(const cdyn_lattice *lat, void *buffer, size_t capacity,
                                       size_t *written);

/** Creates a lattice from a snapshot written by cdyn_lattice_save. The
 *  buffer is only read; @p alloc as for cdyn_lattice_create (the allocator
 *  is not part of a snapshot). Every snapshot that cdyn_lattice_save writes
 *  loads, and the loaded lattice saves to the same bytes. The buffer is
 *  checked before anything is allocated beyond what its length pays for
 *  (the lattice: about 8 bytes per site, the scratch for waiting sites).
 *  @param out  receives the new lattice (free it with cdyn_lattice_destroy);
 *              set to NULL on failure
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p out or
 *  @p buffer, or an @p alloc lacking alloc or free; CDYN_ERR_FORMAT when
 *  @p size is not the snapshot's whole size (truncated or trailing bytes),
 *  the magic, version (only 2 is read) or checksum does not match, or a
 *  value is out of the bounds its setter enforces (a corrupt buffer with a
 *  matching checksum: S above CDYN_LATTICE_S_MAX, a height beyond
 *  CDYN_LATTICE_HEIGHT_MAX, a waiting site listed twice, ...);
 *  CDYN_ERR_NO_MEMORY. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_load(const void *buffer, size_t size,
                                       const cdyn_allocator *alloc, cdyn_lattice **out);

/** Computes the drainage of every site (step 7) and copies it into @p out:
 *  the number of units of water that pass through the site when every site
 *  holding data sends one unit to an outlet, itself included (0 at a
 *  no-data cell). Each site drains to its receiver: in D4 its lowest
 *  4-neighbour on the depression-filled surface, in D8 its steepest
 *  descent there; on lakes and flats the flood's breadth-first choice
 *  towards the spill point (docs/lattice.md). Outlets are the sites on the
 *  open edges (row 0 by default), in the outlet mask, or next to no-data
 *  with CDYN_LATTICE_EDGE_NODATA. A basin that no outlet can reach (closed
 *  by walls or no-data) drains to its lowest site (ties by index), which
 *  becomes its own receiver, a sink. So every unit ends at a site that is
 *  its own receiver, and those sites' drainages add up to the sites that
 *  hold data. O(W H) time (plus a heap over the flood's frontier); the
 *  result (8 bytes per site) is kept until the heights or the terrain
 *  settings change, and the computation takes about 1.2 more bytes per
 *  site while it runs (9.2 in D8), plus 16 bytes per site of the frontier.
 *  @param out       W * H counts, row-major; may be NULL to only compute
 *  @param capacity  entries @p out can hold (ignored when @p out is NULL)
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat or a
 *  capacity below W * H; CDYN_ERR_NO_MEMORY (heights and parameters
 *  unchanged). @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_compute_drainage(cdyn_lattice *lat, uint32_t *out,
                                           size_t capacity);

/** Copies the receiver of every site into @p out (computing the drainage
 *  first if the heights changed): the index y * W + x of the site it drains
 *  to, its own index for an outlet or a sink, CDYN_LATTICE_NO_RECEIVER for
 *  a no-data cell.
 *  @return as cdyn_lattice_compute_drainage, with @p out required. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_compute_receivers(cdyn_lattice *lat, uint32_t *out,
                                                size_t capacity);

/** Writes the river network as a mask: out[i] = 1 if the drainage of site i
 *  is >= R, else 0 (computing the drainage first if the heights changed).
 *  @return as cdyn_lattice_compute_drainage, with @p out required. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_compute_network(cdyn_lattice *lat, uint8_t *out,
                                              size_t capacity);

/* ---- Terrain: routing, cell size, outlets, no-data ------------------- */

/** Sets the routing of the drainage and statistics (CDYN_LATTICE_D4 by
 *  default). Rain is unaffected (drops walk to 4-neighbours).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat or an
 *  unknown @p routing. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_set_routing(cdyn_lattice *lat, cdyn_lattice_routing routing);

/** Reads the routing into *@p out.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_get_routing(const cdyn_lattice *lat,
                                              cdyn_lattice_routing *out);

/** Sets the size of a cell in map units: @p dx along x, @p dy along y
 *  (default 1, 1). Used by D8's slopes and by
 *  cdyn_lattice_compute_drainage_area; the model's heights and D4 do not use
 *  it.
 *  @param dx, dy  in [1e-100, 1e100]
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat or a size
 *  out of range. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_set_cell_size(cdyn_lattice *lat, double dx, double dy);

/** Reads the cell size; either pointer may be NULL.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_get_cell_size(const cdyn_lattice *lat, double *dx, double *dy);

/** Sets the map coordinates of the lower-left corner of site (0, 0)'s cell
 *  (default 0, 0): the xllcorner and yllcorner of an ESRI ASCII grid. Only
 *  kept and written; nothing is computed from it.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat or a
 *  non-finite value. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_set_origin(cdyn_lattice *lat, double x, double y);

/** Reads the origin; either pointer may be NULL.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_get_origin(const cdyn_lattice *lat, double *x, double *y);

/** Sets which edges are outlets, a set of cdyn_lattice_edge bits (default
 *  CDYN_LATTICE_EDGE_BOTTOM). Every site on an open edge is an outlet: its
 *  own receiver, where water leaves. 0 closes every edge (then only the
 *  outlet mask drains, and basins with no outlet end in a sink, see
 *  cdyn_lattice_compute_drainage).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat, an
 *  unknown bit, or the left or right edge with periodic sides.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_set_outlet_edges(cdyn_lattice *lat, uint32_t edges);

/** Reads the outlet edges into *@p out.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_get_outlet_edges(const cdyn_lattice *lat, uint32_t *out);

/** Makes every site i with mask[i] != 0 an outlet, anywhere on the
 *  lattice (a sea, a lake, a gauge), besides the open edges; NULL clears
 *  the mask. Copied, not kept. A no-data cell is never an outlet. Takes
 *  1 byte per site while a mask is set.
 *  @param count  entries in @p mask: W * H (ignored for NULL)
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat or a wrong
 *  @p count; CDYN_ERR_NO_MEMORY: nothing changed. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_set_outlet_mask(cdyn_lattice *lat, const uint8_t *mask,
                                                  size_t count);

/** Writes the outlet mask as 0/1 bytes (all 0 when none is set).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer or a
 *  capacity below W * H. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_get_outlet_mask(const cdyn_lattice *lat, uint8_t *out,
                                                  size_t capacity);

/** Marks every site i with mask[i] != 0 as no-data; NULL clears the mask.
 *  A no-data cell drains nothing and receives nothing: drainage 0,
 *  receiver CDYN_LATTICE_NO_RECEIVER, never an outlet, left out of the
 *  statistics; with CDYN_LATTICE_EDGE_NODATA its neighbours are outlets.
 *  Its height is kept but never read by the drainage. Copied, not kept.
 *  @param count  entries in @p mask: W * H (ignored for NULL)
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat, a wrong
 *  @p count or a mask covering every site; CDYN_ERR_NO_MEMORY: nothing
 *  changed. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_set_nodata_mask(cdyn_lattice *lat, const uint8_t *mask,
                                                  size_t count);

/** Writes the no-data mask as 0/1 bytes (all 0 when none is set).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer or a
 *  capacity below W * H. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_get_nodata_mask(const cdyn_lattice *lat, uint8_t *out,
                                                  size_t capacity);

/** Writes the drainage area of every site in map units: its drainage
 *  (cdyn_lattice_compute_drainage) times dx dy; 0 at no-data cells. Computes the
 *  drainage first if it is stale.
 *  @return as cdyn_lattice_compute_receivers. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_compute_drainage_area(cdyn_lattice *lat, double *out,
                                                    size_t capacity);

/* ---- ESRI ASCII grids (.asc) ------------------------------------------ */

/** Creates a lattice from the text of an ESRI ASCII grid: a header of
 *  "key value" lines (ncols, nrows, xllcorner or xllcenter, yllcorner or
 *  yllcenter, cellsize or dx and dy, optionally NODATA_value; keys in any
 *  case and order, each once), then nrows lines of ncols numbers, the
 *  northernmost row first (it becomes y = nrows - 1). Numbers use a '.'
 *  decimal point whatever the locale. Cells equal to NODATA_value become
 *  no-data; the other values must be heights within
 *  CDYN_LATTICE_HEIGHT_MAX. The lattice gets the cell size and origin
 *  (a centre is moved half a cell down and left to the corner), outlets on
 *  every edge and next to no-data (the four CDYN_LATTICE_EDGE_* bits and
 *  CDYN_LATTICE_EDGE_NODATA: water leaves a map where it ends), D4
 *  routing, the default parameters and a generator seeded with 0.
 *  Parsing is strict and the declared size is checked against the text's
 *  length before anything is allocated.
 *  @param text    the file's bytes (need not end in NUL); read only
 *  @param length  bytes in @p text
 *  @param alloc   as for cdyn_lattice_create
 *  @param out     receives the new lattice; NULL on failure
 *  @param error   receives a message on failure, naming the function, the
 *                 line and the field ("cdyn_lattice_read_asc: line 9: row 3
 *                 has 4 values, ncols is 5"); "" on success; may be NULL
 *  @param error_capacity  bytes @p error can hold (messages are cut to it)
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p out or
 *  @p text, or an @p alloc lacking alloc or free; CDYN_ERR_FORMAT for a
 *  malformed grid (a header key unknown, repeated, missing or without a
 *  value; a value that is not a number; a short or long row; too few or too
 *  many rows; fewer than 2 x 2 cells; more values declared than the text
 *  can hold; a height out of range; every cell NODATA_value);
 *  CDYN_ERR_NO_MEMORY. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_read_asc(const char *text, size_t length,
                                           const cdyn_allocator *alloc, cdyn_lattice **out,
                                           char *error, size_t error_capacity);

/** As cdyn_lattice_read_asc, from the file at @p path (read whole, through
 *  @p alloc).
 *  @return as cdyn_lattice_read_asc; CDYN_ERR_INVALID_ARGUMENT also for a
 *  NULL @p path; CDYN_ERR_IO when the file cannot be opened or read.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_read_asc_file(const char *path, const cdyn_allocator *alloc,
                                                cdyn_lattice **out, char *error,
                                                size_t error_capacity);

/** Bytes cdyn_lattice_write_asc needs for @p field, its terminating NUL
 *  included (the text is formatted once to count them: O(W H)). Computes
 *  the drainage first for the drainage and receiver fields if it is stale.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer or an
 *  unknown @p field; CDYN_ERR_NO_MEMORY (for the drainage). @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_asc_size(cdyn_lattice *lat, cdyn_lattice_grid field,
                                           size_t *size);

/** Writes @p field as the text of an ESRI ASCII grid into @p buffer,
 *  NUL-terminated: ncols, nrows, xllcorner, yllcorner, cellsize (or dx and
 *  dy when they differ, as GDAL writes them), NODATA_value, then the rows,
 *  the northernmost first, values separated by one space. Heights and
 *  areas are written with 17 significant digits and a '.' decimal point, so
 *  that reading the text back gives the same bits; receivers as integers.
 *  No-data cells carry NODATA_value: -9999, or -1e300 when a height is
 *  exactly -9999. GIS tools (GDAL, QGIS, ArcGIS) and landlab
 *  (read_esri_ascii) read the result.
 *  @param capacity  bytes @p buffer can hold; at least what
 *                   cdyn_lattice_asc_size gives
 *  @param written   receives the text's length without the NUL (may be
 *                   NULL)
 *  @return as cdyn_lattice_asc_size; CDYN_ERR_INVALID_ARGUMENT also for a
 *  NULL @p buffer or too small a @p capacity (nothing written).
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_write_asc(cdyn_lattice *lat, cdyn_lattice_grid field,
                                            char *buffer, size_t capacity, size_t *written);

/** As cdyn_lattice_write_asc, to the file at @p path (created or
 *  truncated; written as it is formatted, no buffer of the whole text).
 *  @return as cdyn_lattice_asc_size; CDYN_ERR_INVALID_ARGUMENT also for a
 *  NULL @p path; CDYN_ERR_IO when the file cannot be opened or written
 *  (it may then be partly written). @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_write_asc_file(cdyn_lattice *lat, cdyn_lattice_grid field,
                                                 const char *path);

/** Fills @p opts with the defaults (all automatic, 10 points per decade).
 *  NULL is a no-op. @since 0.1 */
CDYN_API void cdyn_lattice_stats_options_init(cdyn_lattice_stats_options *opts);

/** Statistics of the lattice's river network (computing the drainage first
 *  if the heights changed): P(A >= a) with its fitted exponent, Hack's law,
 *  Strahler orders and the bifurcation ratio.
 *  @param opts  options, or NULL for the defaults; not kept
 *  @param out   results; @p out->size must be set
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p lat or @p out,
 *  a wrong size field, or an option out of range; CDYN_ERR_NO_MEMORY.
 *  Nothing in the lattice but its cached drainage changes. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_compute_stats(cdyn_lattice *lat,
                                                const cdyn_lattice_stats_options *opts,
                                                cdyn_lattice_stats *out);

/** The same statistics for any drainage forest given by its receivers:
 *  receivers[i] is the site that site i drains to, i itself for an outlet,
 *  or CDYN_LATTICE_NO_RECEIVER for a site outside the forest (no-data:
 *  left out of every count). Used to analyse networks built elsewhere
 *  (such as the Scheidegger model) with the lattice's code.
 *  @param n_sites    number of sites, 1 .. UINT32_MAX
 *  @param receivers  n_sites indices; read only, not kept
 *  @param alloc      allocator for the scratch space (about 15 bytes per
 *                    site, freed before return); NULL for malloc/free
 *  @param opts       options, or NULL for the defaults; not kept
 *  @param out        results; @p out->size must be set
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer, a bad
 *  size, an index >= n_sites (other than CDYN_LATTICE_NO_RECEIVER), a site
 *  draining into a site outside the forest, a cycle, no site in the forest,
 *  or an option out of range; CDYN_ERR_NO_MEMORY. @p out is written only
 *  on success. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_stats_from_receivers(
    size_t n_sites, const uint32_t *receivers, const cdyn_allocator *alloc,
    const cdyn_lattice_stats_options *opts, cdyn_lattice_stats *out);

/** Drainage of any forest given by its receivers (as in
 *  cdyn_lattice_stats_from_receivers): out[i] = 1 + the drainage of every
 *  site whose receiver is i, 0 for a site outside the forest. O(n) time,
 *  1 to 4 bytes per site of scratch.
 *  @param out  n_sites counts; unspecified after a failure
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer, a bad
 *  size, an index >= n_sites (other than CDYN_LATTICE_NO_RECEIVER), a site
 *  draining into a site outside the forest, or a cycle;
 *  CDYN_ERR_NO_MEMORY. @since 0.1 */
CDYN_API cdyn_status cdyn_lattice_drainage_from_receivers(size_t n_sites,
                                                          const uint32_t *receivers,
                                                          const cdyn_allocator *alloc,
                                                          uint32_t *out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_LATTICE_H */
