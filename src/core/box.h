/* The periodic box as every module sees it: its geometry, the minimum
 * image of a separation, points wrapped into the box, and each particle's
 * image counter. The box module (box/) owns the store: it sets it up, keeps
 * the clusters of bonded particles whole and wraps them. Internal; the
 * public side is include/cdyn/box.h.
 *
 * Stored positions are not wrapped at every step: a cluster is moved by a
 * box length only when its first particle is more than half a box length
 * outside the box (box/box_wrap.c). Between those moves every stored
 * position is continuous in time, which is what lets a pair set keep the
 * periodic shifts of its neighbour list until its next rebuild. The public
 * getters wrap on the way out. */
#ifndef CDYN__CORE_BOX_H
#define CDYN__CORE_BOX_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "cdyn/types.h"

typedef struct cdyn__box {
    int dim;
    bool present;    /* cleared boxes keep the store (and its epoch) until destruction */
    bool periodic[3];
    bool any_periodic;
    double lo[3], len[3], inv_len[3], half[3];
    /* Bumped whenever stored positions move by box lengths (a wrap or
     * making clusters whole) and when the box is set or cleared: pair sets
     * rebuild their lists then. Never reset while the system lives. */
    uint64_t epoch;
    /* Per particle slot, dim each: unwrapped = stored + image * len. Slots
     * at or beyond image_cap have image 0. */
    int64_t *image;
    uint32_t image_cap;
    /* The clusters (box/box_clusters.c): particles joined by distance
     * constraints or rigid bodies, kept whole and moved together. */
    uint32_t cap;          /* slots the arrays below cover */
    uint32_t *parent;      /* a slot's parent in its cluster's tree; a root is its own */
    uint32_t *walk;        /* the slots of all clusters, each cluster's root first and
                            * every parent before its children */
    uint32_t n_walk;
    uint32_t *roots;       /* the clusters' roots (their lowest slot), ascending */
    uint32_t n_roots;
    uint8_t *pinned;       /* per slot, then per root: held in space, never moved */
    uint32_t *adj_start;   /* cap + 1: the bonds of slot s are adj[adj_start[s] ..] */
    uint32_t *adj;
    size_t adj_cap;
    double *shift;         /* cap * dim: box lengths a member moves by to be whole */
    /* The stored positions (cap * dim, then u's when it is separate) and
     * image counters (cap * dim) as they were before the first move of
     * the preparation in progress, so that a step that fails, and every
     * evaluation, can put them back (cdyn__box_undo). */
    double *saved_x;
    int64_t *saved_image;
    bool saved;
    uint64_t linked;       /* sys->revision at which adj and pinned were built */
    bool links_valid;
    uint64_t made_whole;   /* sys->revision at which the clusters were last made whole */
    uint64_t checks;       /* prepares since the clusters were found: strays are looked
                            * for at every eighth */
    bool whole_valid;
} cdyn__box;

/* d := its minimum image along the periodic axes (|d_k| <= len_k / 2).
 * Loops rather than rounds: callers pass separations of stored positions,
 * within a few box lengths. */
static inline void cdyn__box_min_image(const cdyn__box *b, int dim, double *d)
{
    for (int k = 0; k < dim; k++) {
        /* Not finite: no image is nearer (and inf - len is inf, forever). */
        if (!b->periodic[k] || !isfinite(d[k]))
            continue;
        if (!(fabs(d[k]) <= 64.0 * b->len[k])) {
            d[k] -= b->len[k] * floor(d[k] * b->inv_len[k] + 0.5);
            continue;
        }
        while (d[k] > b->half[k])
            d[k] -= b->len[k];
        while (d[k] < -b->half[k])
            d[k] += b->len[k];
    }
}

/* What is wrong with a box's corner @p lo and edge @p len along one axis,
 * NULL when nothing: both finite, len > 0, lo + len and 1 / len finite, and
 * len >= 2^-32 |lo| (a box that short against its distance from 0 holds
 * too few distinct coordinates to wrap into; none once lo + len == lo).
 * cdyn_system_set_box and the snapshot loader accept the same boxes. */
static inline const char *cdyn__box_axis_problem(double lo, double len)
{
    if (!isfinite(lo))
        return "the origin is not finite";
    if (!isfinite(len) || !(len > 0))
        return "the length must be finite and > 0";
    if (!isfinite(lo + len) || !isfinite(1.0 / len) || !(1.0 / len > 0))
        return "the box is out of the range of doubles";
    if (!(len >= 0x1p-32 * fabs(lo)))
        return "the length is below 2^-32 of the origin's magnitude";
    return NULL;
}

/* The number of box lengths to subtract from coordinate @p x along axis
 * @p k so that it lands in [lo, lo + len). Beyond 2^52 box lengths a count
 * no longer says which image a point is in (nor does n len say where the
 * box is): 0 there, and cdyn__box_wrap_point takes the exact remainder. */
static inline double cdyn__box_cells(const cdyn__box *b, int k, double x)
{
    double n = floor((x - b->lo[k]) * b->inv_len[k]);
    return fabs(n) < 0x1p52 ? n : 0.0;
}

/* @p x moved into [lo, lo + len) along axis @p k by the remainder of a
 * division by len, which fmod gives exactly whatever the distance: the wrap
 * of points that x - n len cannot place in the box (far out, or rounded
 * across a face). */
static inline double cdyn__box_remainder(const cdyn__box *b, int k, double x)
{
    const double len = b->len[k], lo = b->lo[k];
    double r = fmod(x, len) - fmod(lo, len); /* in (-2 len, 2 len) */
    if (r < 0)
        r += len;
    if (r < 0)
        r += len;
    if (r >= len)
        r -= len;
    double v = lo + r;
    return v >= lo && v < lo + len ? v : lo;
}

/* @p x wrapped into the box along the periodic axes, in @p out (may be
 * @p x). Non-finite coordinates are left as they are. */
static inline void cdyn__box_wrap_point(const cdyn__box *b, int dim, const double *x,
                                        double *out)
{
    for (int k = 0; k < dim; k++) {
        double v = x[k];
        if (b->periodic[k] && isfinite(v)) {
            double n = cdyn__box_cells(b, k, v);
            if (n != 0) {
                v -= n * b->len[k];
                if (v >= b->lo[k] + b->len[k]) /* rounding at the upper face */
                    v = b->lo[k];
            }
            if (!(v >= b->lo[k] && v < b->lo[k] + b->len[k]))
                v = cdyn__box_remainder(b, k, x[k]);
        }
        out[k] = v;
    }
}

/* The point the grounds see: @p x itself without a periodic box, else its
 * wrapped copy in @p tmp. */
static inline const double *cdyn__box_ground_point(const cdyn__box *b, int dim,
                                                   const double *x, double *tmp)
{
    if (!b || !b->any_periodic)
        return x;
    cdyn__box_wrap_point(b, dim, x, tmp);
    return tmp;
}

/* Adds @p n box lengths to the image counter @p img. Counts beyond the
 * range of int64_t are dropped (a position 10^19 box lengths out has no
 * image worth counting), never overflowed. */
static inline void cdyn__box_count_images(int64_t *img, double n)
{
    if (!(fabs(n) < 9.0e18))
        return;
    int64_t k = (int64_t)n;
    if ((k > 0 && *img > INT64_MAX - k) || (k < 0 && *img < INT64_MIN - k))
        return;
    *img += k;
}

/* Makes the image counters cover @p cap slots (new ones 0); called where
 * the particle arrays grow. CDYN_ERR_NO_MEMORY (no message) with nothing
 * changed. No-op without a box. */
cdyn_status cdyn__box_reserve_images(cdyn_system *sys, uint32_t cap);

/* Wraps the positions @p x of index slots [0, @p count) in place (the
 * public getters). No-op without a periodic box. */
void cdyn__box_wrap_positions(const cdyn_system *sys, double *x, uint32_t count);

/* A position of slot @p slot was set from outside from @p old to @p now:
 * its image counter is chosen so that the unwrapped position moves as
 * little as possible (a position read, wrapped, and set back keeps its
 * unwrapped value). No-op without a periodic box. */
void cdyn__box_position_set(cdyn_system *sys, uint32_t slot, const double *old,
                            const double *now);

/* Slot @p slot is freed (particle removal): its image counter returns to 0. */
void cdyn__box_forget_slot(cdyn_system *sys, uint32_t slot);

/* The image counter of slot @p slot along axis @p k. */
static inline int64_t cdyn__box_image(const cdyn__box *b, uint32_t slot, int k)
{
    return b && slot < b->image_cap ? b->image[(size_t)slot * (size_t)b->dim + (size_t)k] : 0;
}

#endif /* CDYN__CORE_BOX_H */
