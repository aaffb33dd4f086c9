/* The pairs a pair set leaves out: given explicitly, or joined by bonds
 * (distance constraints and springs; through one bond, or through two).
 * Internal.
 *
 * The set of excluded pairs is kept per member as a short sorted list of
 * member indices, rebuilt (allocating) whenever the members, the explicit
 * pairs, the depth or the system changed since the last rebuild; testing a
 * pair scans the first member's list. */
#ifndef CDYN__PAIR_EXCLUSION_H
#define CDYN__PAIR_EXCLUSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cdyn/types.h"

typedef struct cdyn__exclusions {
    int depth;          /* bonded exclusions: 0 none, 1 bonded pairs, 2 also through one particle */
    uint64_t *given;    /* explicit pairs of particle slots, both ways (s << 32 | t and
                         * t << 32 | s), ascending, unique */
    size_t n_given, given_cap;
    /* The lists, valid when valid is set: member k excludes the members
     * ex[start[k] .. start[k + 1]), ascending. */
    bool valid;
    bool active;        /* some pair is excluded */
    uint64_t revision;  /* sys->revision of the rebuild (bonds may have changed since) */
    uint32_t *start;    /* start_cap entries */
    uint32_t start_cap;
    uint32_t *ex;
    size_t ex_cap;
    size_t n_pairs;     /* excluded pairs (each once) */
    uint64_t digest;    /* a hash of the lists: a rebuild that found the same pairs leaves a
                         * neighbour list built with them valid */
    /* Scratch of the rebuild: the bonds of every particle slot. */
    uint32_t *bond_start;
    uint32_t bond_start_cap;
    uint32_t *bond;
    size_t bond_cap;
} cdyn__exclusions;

/* Whether members @p a and @p b (distinct) are excluded. */
static inline bool cdyn__excluded(const cdyn__exclusions *e, uint32_t a, uint32_t b)
{
    if (!e->active)
        return false;
    uint32_t i = e->start[a], end = e->start[a + 1];
    for (; i < end; i++)
        if (e->ex[i] == b)
            return true;
    return false;
}

/* Rebuilds the lists for the @p n members whose slots are @p slot, with
 * @p by_slot (n entries slot << 32 | member, ascending) to find members by
 * slot, when they are not valid or bonded exclusions may have changed;
 * *changed (may be NULL) tells whether the excluded pairs differ from
 * before. May allocate: CDYN_ERR_NO_MEMORY (message set, lists left
 * invalid, *changed set). */
cdyn_status cdyn__exclusions_refresh(const cdyn_system *sys, cdyn__exclusions *e, uint32_t n,
                                     const uint32_t *slot, const uint64_t *by_slot,
                                     bool *changed);

/* Whether the lists must be rebuilt before they are read. */
bool cdyn__exclusions_stale(const cdyn_system *sys, const cdyn__exclusions *e);

/* Drops the explicit pairs that contain particle slot @p slot (removal)
 * and marks the lists stale. */
void cdyn__exclusions_forget_slot(cdyn__exclusions *e, uint32_t slot);

/* Frees everything. */
void cdyn__exclusions_free(cdyn__exclusions *e, const cdyn_allocator *a);

#endif /* CDYN__PAIR_EXCLUSION_H */
