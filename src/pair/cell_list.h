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
 * Coordinates are clamped to +-2^60, a monotone map: two points closer than a
 * cell side stay in equal or adjacent cells, so clamping (of points beyond
 * 2^60 cells, or of non-finite intermediate states) never loses a pair.
 * Everything is allocated by init for a fixed capacity; build and traversal
 * allocate nothing.
 */
#ifndef CDYN__PAIR_CELL_LIST_H
#define CDYN__PAIR_CELL_LIST_H

#include <stdint.h>

#include "cdyn/types.h"

typedef struct cdyn__cell_list {
    int dim;
    uint32_t cap;       /* capacity of the per-member arrays */
    uint32_t n;         /* members sorted by the last build */
    uint32_t n_buckets; /* a power of two >= 4 cap */
    uint32_t n_used;    /* buckets the last build used (dense: the box's cells) */
    double h, inv_h;    /* cell side of the last build */
    double cutoff;      /* uniform cutoff of the last build (no radii) */
    int dense;          /* the last build indexed cells by their place in the box */
    int64_t cmin[3], cmax[3]; /* dense: the box in cell coordinates */
    uint64_t stride[3]; /* dense: row-major strides */
    uint32_t *bucket;   /* cap: bucket of member k */
    uint32_t *start;    /* n_used + 1 valid: bucket b holds sorted positions [start[b], start[b+1]) */
    uint32_t *order;    /* cap: member at sorted position q */
    double *pos;        /* cap * dim: position at sorted position q */
    double *rad;        /* cap: radius at sorted position q; NULL without radii */
} cdyn__cell_list;

/* Allocates a list for up to @p cap members (cap >= 1) of dimension @p dim,
 * with radii when @p with_radii. CDYN_ERR_NO_MEMORY (nothing allocated) on
 * failure. */
cdyn_status cdyn__cell_list_init(cdyn__cell_list *cl, const cdyn_allocator *a, int dim,
                                 uint32_t cap, int with_radii);

/* Frees what init allocated; a zeroed list is a no-op. */
void cdyn__cell_list_free(cdyn__cell_list *cl, const cdyn_allocator *a);

/* Sorts members 0..n-1 (n <= cap) into cells. Member k sits at
 * x[slot[k] * dim]. With radii (@p rad not NULL, rad[k] > 0) the cell side
 * is twice the largest radius and a pair is within the cutoff when
 * r < rad_i + rad_j; without, the side and the cutoff are @p cutoff (> 0). */
void cdyn__cell_list_build(cdyn__cell_list *cl, uint32_t n, const uint32_t *slot,
                           const double *x, const double *rad, double cutoff);

/* Called once per unordered pair within the cutoff, with the sorted
 * positions p and q of its members (cl->order maps them to members),
 * d = pos_q - pos_p, r2 = |d|^2 and the pair's cutoff rc. */
typedef void (*cdyn__cell_visit_fn)(void *ctx, uint32_t p, uint32_t q, const double *d,
                                    double r2, double rc);

/* Visits every pair of the last build within its cutoff, in a fixed order:
 * by sorted position p, then the own cell, then the neighbour cells of a
 * half shell in a fixed order, each by sorted position. */
void cdyn__cell_list_for_pairs(const cdyn__cell_list *cl, cdyn__cell_visit_fn visit, void *ctx);

#endif /* CDYN__PAIR_CELL_LIST_H */
