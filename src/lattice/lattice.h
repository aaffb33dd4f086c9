/* The lattice object: its state, its scratch space and the helpers every
 * lattice source file shares. Never installed. */
#ifndef CDYN__LATTICE_LATTICE_H
#define CDYN__LATTICE_LATTICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cdyn/lattice.h"
#include "core/tasks.h"
#include "lattice/rng.h"

/* Bits of lat->flags. */
#define CDYN__LATTICE_QUEUED 1u
#define CDYN__LATTICE_LEFT 2u  /* x = 0 */
#define CDYN__LATTICE_RIGHT 4u /* x = W - 1 */

/* Receiver of a site not reached yet by the flood. Site indices are below it
 * because W * H <= UINT32_MAX. */
#define CDYN__LATTICE_UNSET UINT32_MAX

/* The walk cap is at most this many moves per site (the header's bound). */
#define CDYN__LATTICE_WALK_CAP_PER_SITE 64

struct cdyn_lattice {
    cdyn_allocator alloc;
    size_t w, h, n;          /* width, height, sites */
    double *height;          /* n heights, row-major, y = 0 first */

    double E, D, M, S, R;    /* model parameters (cdyn_lattice_param) */
    cdyn_lattice_slide_rule slide_rule;
    double slide_r;          /* 1 - 1 / S: what one slide leaves of dh */
    uint64_t walk_cap;
    bool periodic;
    cdyn__rng rng;

    /* Terrain (terrain.c): routing, cell size and origin (map units),
     * which edges are outlets, and per-site bits CDYN__LATTICE_CELL_* of
     * the outlet and no-data masks (NULL while neither has a site). */
    cdyn_lattice_routing routing;
    double dx, dy, x0, y0;
    uint32_t outlet_edges;
    uint8_t *cell;

    cdyn_lattice_counters counters;
    /* The surface may have slopes above M (new heights, changed M or S): the
     * next rain relaxes every site before its first drop. */
    bool needs_relax;
    /* A lower bound of every height: exact when the heights are set, less
     * D per eroding drop (slides never go below a neighbour). Rain keeps a
     * copy to roll back to only when this bound cannot rule out a height
     * leaving the valid range (rain.c). Not saved: derived. */
    double hmin_bound;

    /* Rain scratch, allocated by the first rain and kept (see rain.c). */
    uint32_t *stamp;         /* drop number that last visited each site */
    uint32_t stamp_now;
    uint32_t *list_a;        /* visited path, then the next slide round */
    uint32_t *list_b;        /* the current slide round */
    /* The first @c pending sites of list_b (marked QUEUED) wait to slide
     * at the next drop: under the once rule, or after a capped cascade.
     * Part of the state (saved in snapshots); 0 while list_b is NULL. */
    size_t pending;
    double *newh;            /* heights computed during a slide round */
    /* Per-site bits: CDYN__LATTICE_QUEUED (in the next slide round) and
     * the side a site lies on, so the hot loops find neighbours without a
     * division. */
    uint8_t *flags;

    /* Drainage result, kept while the heights are unchanged (drainage.c). */
    uint32_t *recv;          /* receiver per site, own index at an outlet */
    uint32_t *drain;         /* drainage per site */
    bool drainage_valid;

    /* The host's task system (core/tasks.h), for the drainage. Not part
     * of a snapshot. */
    cdyn__tasks tasks;

    char err[256];
};

/* Records "fn: message" (printf format) as the lattice's last error and
 * returns @p st. Takes a const lattice: the message is the one part of a
 * query that may change (one thread per lattice, as documented). NULL
 * @p lat records nothing. */
cdyn_status cdyn__lattice_fail(const cdyn_lattice *lat, cdyn_status st, const char *fn,
                               const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The 4-neighbours of site @p i, in the fixed order down (y - 1), left
 * (x - 1), right (x + 1), up (y + 1), skipping those beyond a wall or the top
 * and bottom rows. Returns how many were written to @p nb. */
static inline int cdyn__lattice_neighbours(const cdyn_lattice *lat, size_t i,
                                           uint32_t nb[4])
{
    /* 32-bit division: sites and widths are below 2^32, and it is the
     * costly part of this function on common CPUs. */
    size_t w = lat->w, x = (uint32_t)i % (uint32_t)w;
    int k = 0;
    if (i >= w)
        nb[k++] = (uint32_t)(i - w);
    if (x > 0)
        nb[k++] = (uint32_t)(i - 1);
    else if (lat->periodic)
        nb[k++] = (uint32_t)(i + w - 1);
    if (x + 1 < w)
        nb[k++] = (uint32_t)(i + 1);
    else if (lat->periodic)
        nb[k++] = (uint32_t)(i + 1 - w);
    if (i + w < lat->n)
        nb[k++] = (uint32_t)(i + w);
    return k;
}

/* As cdyn__lattice_neighbours, with the side bits of lat->flags[i] given
 * instead of a division (rain scratch must exist). */
static inline int cdyn__lattice_neighbours_fast(const cdyn_lattice *lat, size_t i,
                                                unsigned side, uint32_t nb[4])
{
    size_t w = lat->w;
    int k = 0;
    if (i >= w)
        nb[k++] = (uint32_t)(i - w);
    if (!(side & CDYN__LATTICE_LEFT))
        nb[k++] = (uint32_t)(i - 1);
    else if (lat->periodic)
        nb[k++] = (uint32_t)(i + w - 1);
    if (!(side & CDYN__LATTICE_RIGHT))
        nb[k++] = (uint32_t)(i + 1);
    else if (lat->periodic)
        nb[k++] = (uint32_t)(i + 1 - w);
    if (i + w < lat->n)
        nb[k++] = (uint32_t)(i + w);
    return k;
}

/* Puts site @p s in a slide list unless it is there already. */
static inline size_t cdyn__lattice_enqueue(cdyn_lattice *lat, uint32_t *list, size_t n,
                                           uint32_t s)
{
    if (!(lat->flags[s] & CDYN__LATTICE_QUEUED)) {
        lat->flags[s] |= CDYN__LATTICE_QUEUED;
        list[n++] = s;
    }
    return n;
}

/* Marks the cached drainage stale; called whenever the heights change. */
static inline void cdyn__lattice_heights_changed(cdyn_lattice *lat)
{
    lat->drainage_valid = false;
}

/* The largest walk cap: CDYN__LATTICE_WALK_CAP_PER_SITE W H. */
uint64_t cdyn__lattice_walk_cap_max(const cdyn_lattice *lat);

/* Allocates the rain scratch if it is missing: false on failure, with
 * nothing allocated. */
bool cdyn__lattice_rain_scratch(cdyn_lattice *lat);

/* Frees the rain scratch and the drainage result. */
void cdyn__lattice_free_scratch(cdyn_lattice *lat);

/* Computes lat->recv and lat->drain if they are stale; a failure is
 * recorded under the public function @p fn. */
cdyn_status cdyn__lattice_update_drainage(cdyn_lattice *lat, const char *fn);

#endif
