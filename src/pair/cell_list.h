/* A uniform grid of cells hashed into a fixed table: the neighbour search of
 * pair sets. Internal.
 *
 * Each build sorts the members into buckets with a counting sort (stable, so
 * members of one bucket keep their order) and gathers their positions and
 * radii into arrays in that sorted order. When the
 * bounding box of the members spans at most n_buckets cells, bucket = the
 * row-major index of the cell in the box (no collisions, and neighbouring
 * cells sit close in memory); otherwise (a set spread thinly over a large
 * region) bucket = a mixing hash of the cell coordinates mod n_buckets, and
 * distinct cells may share a bucket, so the traversal compares cell
 * coordinates exactly.
 * Coordinates are clamped to +-2^40, a monotone map: two points closer than a
 * cell side stay in equal or adjacent cells, so clamping (of points far out,
 * or of non-finite intermediate states) never loses a pair.
 *
 * Along a periodic axis of a box the positions given must lie in the box
 * (wrapped by the caller); the axis is cut into nc >= 3 equal cells of at
 * least the cutoff, and a neighbour cell past the last one is the first one,
 * seen one box length further: the pairs visited through a face carry that
 * shift (a code, see cdyn__cell_shift_code). With fewer than 3 cells along a
 * periodic axis every pair is compared through its minimum image (a box
 * that holds few particles).
 * Everything is allocated by init for a fixed capacity; build and traversal
 * allocate nothing.
 */
#ifndef CDYN__PAIR_CELL_LIST_H
#define CDYN__PAIR_CELL_LIST_H

#include <stdbool.h>
#include <stdint.h>

#include "cdyn/types.h"
#include "core/box.h"
#include "core/tasks.h"

typedef struct cdyn__cell_list {
    int dim;
    uint32_t cap;       /* capacity of the per-member arrays */
    uint32_t n;         /* members sorted by the last build */
    uint32_t n_buckets; /* a power of two >= 4 cap */
    uint32_t n_used;    /* buckets the last build used (dense: the box's cells) */
    double h, inv_h;    /* cell side of the last build (open axes) */
    double cutoff;      /* uniform cutoff of the last build (no radii) */
    double extra;       /* added to every pair's cutoff by the last build (a list's skin) */
    int dense;          /* the last build indexed cells by their place in the box */
    int64_t cmin[3], cmax[3]; /* dense: the box in cell coordinates */
    uint64_t stride[3]; /* dense: row-major strides */
    /* Periodic axes of the last build: */
    bool periodic[3];
    bool any_periodic;
    bool all_pairs;     /* some periodic axis has fewer than 3 cells */
    double lo[3], len[3], half[3];
    double inv_hk[3];   /* periodic axes: cells per unit length */
    int64_t nc[3];      /* periodic axes: cells along the axis */
    uint32_t *bucket;   /* cap: bucket of member k */
    uint32_t *start;    /* n_used + 1 valid: bucket b holds the sorted positions
                         * [start[b], start[b+1]) */
    uint32_t *order;    /* cap: member at sorted position q */
    double *pos;        /* cap * dim: position at sorted position q */
    double *rad;        /* cap: radius at sorted position q; NULL without radii */
    /* The sort on the host's threads (cell_sort.c): the members grouped by
     * slab (cap), and per block of members its counts, then its first
     * places, per slab (blocks x CDYN__CELL_MAX_SLABS). */
    uint32_t *scratch, *slab_at;
} cdyn__cell_list;

/* Members per item of a build's parallel loops, the members from which
 * they go to the host's threads, and the most slabs of the sort. */
#define CDYN__CELL_BLOCK 16384u
#define CDYN__CELL_PARALLEL 65536.0
#define CDYN__CELL_MAX_SLABS 64u

/* The code of a shift by s_k in {-1, 0, +1} box lengths per axis (the
 * separation of a pair seen through faces is pos_q - pos_p + s len):
 * (s0 + 1) + 3 (s1 + 1) + 9 (s2 + 1); CDYN__NO_SHIFT is no shift. */
#define CDYN__NO_SHIFT 13

/* Allocates a list for up to @p cap members (cap >= 1) of dimension @p dim,
 * with radii when @p with_radii. CDYN_ERR_NO_MEMORY (nothing allocated) on
 * failure. */
cdyn_status cdyn__cell_list_init(cdyn__cell_list *cl, const cdyn_allocator *a, int dim,
                                 uint32_t cap, int with_radii);

/* Frees what init allocated; a zeroed list is a no-op. */
void cdyn__cell_list_free(cdyn__cell_list *cl, const cdyn_allocator *a);

/* Sorts members 0..n-1 (n <= cap) into cells. Member k sits at
 * x[slot[k] * dim] (x[k * dim] when @p slot is NULL). With radii (@p rad
 * not NULL, rad[k] > 0) the cell side is twice the largest radius plus
 * @p extra and a pair is a candidate when r < rad_i + rad_j + extra;
 * without, the side is @p cutoff (> 0) and a pair a candidate when
 * r < cutoff. @p box (may be NULL): its periodic axes, along which every
 * position must be in the box. The members' cells are found on @p tasks
 * (may be NULL) when worth it. */
void cdyn__cell_list_build(cdyn__cell_list *cl, uint32_t n, const uint32_t *slot,
                           const double *x, const double *rad, double cutoff, double extra,
                           const cdyn__box *box, const cdyn__tasks *tasks);

/* The counting sort of a build (buckets found) on @p tasks: order, pos,
 * rad and start as the serial sort writes them. Returns false, having done
 * nothing, when @p tasks (may be NULL) would not split the members. */
bool cdyn__cell_sort_parallel(cdyn__cell_list *cl, uint32_t n, const uint32_t *slot,
                              const double *x, const double *rad, const cdyn__tasks *tasks);

/* Called once per unordered candidate pair, with the sorted positions p
 * and q of its members (cl->order maps them to members), d = the
 * separation from p to q (through the faces for @p code other than
 * CDYN__NO_SHIFT), r2 = |d|^2 and the pair's cutoff rc (extra included). */
typedef void (*cdyn__cell_visit_fn)(void *ctx, uint32_t p, uint32_t q, const double *d,
                                    double r2, double rc, int code);

/* Visits every candidate pair of the last build, in a fixed order: by
 * sorted position p, then the own cell, then the neighbour cells of a half
 * shell in a fixed order, each by sorted position (with all_pairs: every
 * later q). */
void cdyn__cell_list_for_pairs(const cdyn__cell_list *cl, cdyn__cell_visit_fn visit, void *ctx);

/* The cells a periodic axis of length @p len is cut into for a cutoff
 * @p cutoff (with the rounding margin of the open axes). */
int64_t cdyn__cell_count(double len, double cutoff);

#endif /* CDYN__PAIR_CELL_LIST_H */
