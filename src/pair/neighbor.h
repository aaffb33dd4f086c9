/* The neighbour (Verlet) list of a pair set. Internal.
 *
 * A build sorts the members into cells (cell_list.h) and keeps every pair
 * closer than its cutoff plus the skin, in the order of the cell search:
 * for each member p in cell order, the members q it meets. Members are
 * renumbered in that order ("sorted positions"), and their positions and
 * forces live in arrays of that order, so that the pair loop reads memory
 * in order. Pairs seen through a face of a periodic box are kept apart with
 * the code of their shift. The list covers a state as long as no member has
 * moved more than half the skin since the build, and the box's epoch has not
 * changed (positions moved by box lengths).
 *
 * Room for the pairs is reserved outside steps; a build that does not fit
 * says how much it needed and leaves the list invalid. Gathers and builds
 * allocate nothing. */
#ifndef CDYN__PAIR_NEIGHBOR_H
#define CDYN__PAIR_NEIGHBOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/box.h"
#include "core/tasks.h"
#include "pair/cell_list.h"
#include "pair/exclusion.h"

typedef struct cdyn__nlist {
    int dim;
    double skin;       /* the skin set (m) */
    double skin_used;  /* the skin of the current build (a periodic box may cap it) */
    bool valid;        /* a build is held */
    bool periodic;     /* the build used a periodic box: positions carry wrap offsets */
    bool ascending;    /* every unshifted entry q of member p has q > p (a dense build) */
    uint64_t epoch;    /* the box epoch of the build */
    uint32_t n, cap;   /* members at the build / per-member capacity */
    uint32_t *order;   /* sorted position -> member */
    uint32_t *sslot;   /* sorted position -> particle slot */
    double *off;       /* cap * dim: box lengths each member was moved by at the build */
    double *pos;       /* cap * dim: positions at the state of the last gather */
    double *pos0;      /* cap * dim: positions at the build */
    double *fs;        /* cap * dim: a fast kernel's accumulators; scratch otherwise */
    uint8_t *has_sh;   /* cap: the member is in a pair through a face */
    /* The ends of the pairs through faces by member, for members with
     * has_sh: sh_end[sh_at[p] .. sh_at[p] + sh_count[p]) are the indices i
     * of sh[i] == p, ascending (pair i / 2, its second member when i is
     * odd). */
    uint32_t *sh_at, *sh_count; /* cap */
    uint32_t *sh_end;           /* 2 sh_cap */
    double *sh_force;           /* sh_cap * dim: a fast kernel's force of each pair through a
                                 * face on its second member (0 beyond the cutoff) */
    uint32_t ring_mask; /* the kernel's accumulators are a ring: q & ring_mask (all ones:
                         * a full array) */
    uint32_t span;      /* the farthest reach q - p of an unshifted entry */
    bool sorted;        /* each member's unshifted entries ascend */
    double *srad;      /* radii (sorted); NULL without radii */
    double len[3];     /* the box lengths of the build's shifts */
    uint32_t *start;   /* cap + 1: member p meets nbr[start[p] .. start[p + 1]) unshifted */
    uint32_t *nbr;
    size_t nbr_cap;
    uint32_t *sh;      /* pairs through faces: sh[2i], sh[2i + 1] with code sh_code[i] */
    uint8_t *sh_code;
    size_t n_sh, sh_cap;
    size_t need, need_sh; /* what the last build needed */
    bool grow;         /* a build ran out of room: reserve before the next step */
    uint64_t builds;
} cdyn__nlist;

/* Per-member arrays for @p cap members (radii when @p radii). No pairs yet.
 * CDYN_ERR_NO_MEMORY with nothing allocated. */
cdyn_status cdyn__nlist_init(cdyn__nlist *nl, const cdyn_allocator *a, int dim, uint32_t cap,
                             bool radii);

void cdyn__nlist_free(cdyn__nlist *nl, const cdyn_allocator *a);

/* Room for @p entries unshifted and @p shifted shifted pairs (keeps the
 * held list when it fits). CDYN_ERR_NO_MEMORY with the old room kept. */
cdyn_status cdyn__nlist_reserve(cdyn__nlist *nl, const cdyn_allocator *a, size_t entries,
                                size_t shifted);

/* Gathers the members' positions at @p x into pos and returns whether the
 * list covers that state (held, same @p epoch, every member within half
 * the skin of its position at the build); in blocks on the host's threads
 * when @p tasks (may be NULL) is parallel and the list long enough. */
bool cdyn__nlist_gather(cdyn__nlist *nl, const double *x, uint64_t epoch,
                        const cdyn__tasks *tasks);

/* Builds the list of the @p n members with slots @p slot at positions @p x:
 * pairs closer than @p cutoff + skin_used (with @p rad: rad_i + rad_j +
 * skin_used), not excluded by @p ex, through the faces of @p box (may be
 * NULL). Uses @p cl for the search. Returns false when the room reserved is
 * too small (need, need_sh and grow set, list not held). Then the list
 * holds; pos equals pos0. The row-by-row search runs on @p tasks (may be
 * NULL) when worth it. */
bool cdyn__nlist_build(cdyn__nlist *nl, cdyn__cell_list *cl, const cdyn__box *box, uint32_t n,
                       const uint32_t *slot, const double *rad, const double *x, double cutoff,
                       const cdyn__exclusions *ex, uint64_t epoch, const cdyn__tasks *tasks);

/* The kernel's ring (ring_mask), the span, whether rows ascend and the
 * members in pairs through faces (has_sh, with their ends) from the held
 * pairs (n, start, nbr, n_sh, sh): the end of a build, and of a list
 * restored from a snapshot. @p span, @p sorted: as a row-by-row build found them, or
 * UINT32_MAX (and any) to find both here. */
void cdyn__nlist_index(cdyn__nlist *nl, uint32_t span, bool sorted);

/* Whether the last build of @p cl (uniform cutoff, cells of at least half
 * of @p reach, dense, at least 5 cells along each periodic axis) can be
 * searched row by row. */
bool cdyn__nlist_rows_apply(const cdyn__cell_list *cl, double reach);

/* The list from that build (neighbor_rows.c): pairs closer than @p reach
 * not excluded by @p ex, stored as far as the room goes; *len_out and
 * *sh_out receive the counts found, *span_out the farthest reach q - p of
 * an unshifted entry, *sorted_out whether each member's entries ascend. In
 * blocks on the host's threads when @p tasks (may be NULL) is parallel and
 * the members many; the same list. */
void cdyn__nlist_rows(cdyn__nlist *nl, const cdyn__cell_list *cl, const cdyn__exclusions *ex,
                      double reach, const cdyn__tasks *tasks, size_t *len_out, size_t *sh_out,
                      uint32_t *span_out, bool *sorted_out);

/* Wraps the positions of the @p n members into the box: out[k] = x[slot[k]]
 * + off[k], off[k] (may be NULL) the box lengths added. */
void cdyn__nlist_wrap(const cdyn__box *box, int dim, uint32_t n, const uint32_t *slot,
                      const double *x, double *out, double *off);

/* Visits the held pairs at the gathered positions: (p, q) sorted positions,
 * d = the separation from p to q, r2 = |d|^2 (rc and code as the cell
 * visit: 0 and the shift code). */
void cdyn__nlist_for_pairs(const cdyn__nlist *nl, cdyn__cell_visit_fn visit, void *ctx);

/* The shift of code @p code (box lengths len) into @p sh (3 values). */
void cdyn__shift_of(int code, const double *len, double *sh);

#endif /* CDYN__PAIR_NEIGHBOR_H */
