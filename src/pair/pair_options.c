/* Pair sets: the neighbour-list skin, exclusions, counters, and the work
 * before a step (the box check, exclusions brought up to date, room for the
 * list). */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/box.h"
#include "core/sized.h"
#include "core/system.h"
#include "pair/pair.h"

/* Resolves @p f to a pair set. */
static cdyn_status set_of(const cdyn_system *sys, cdyn_force f, const char *what,
                          cdyn__pair **out)
{
    cdyn_status st = cdyn__pair_of(sys, f, what, out);
    if (!st && !(*out)->is_set)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: force is not a pair set", what);
    return st;
}

cdyn_status cdyn_force_set_pair_skin(cdyn_system *sys, cdyn_force f, double skin)
{
    const char *what = "force_set_pair_skin";
    cdyn__pair *p;
    cdyn_status st = cdyn__check_mutable(sys, what);
    if (st || (st = set_of(sys, f, what, &p)))
        return st;
    if (!isfinite(skin) || skin < 0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: skin %g must be finite and >= 0",
                          what, skin);
    p->list.skin = skin;
    p->list.valid = false;
    return CDYN_OK;
}

cdyn_status cdyn_force_get_pair_skin(const cdyn_system *sys, cdyn_force f, double *out)
{
    const char *what = "force_get_pair_skin";
    cdyn__pair *p;
    cdyn_status st = cdyn__enter_query(sys, out, what);
    if (!st && !(st = set_of(sys, f, what, &p)))
        *out = p->list.skin;
    return st;
}

cdyn_status cdyn_force_set_pair_exclude_bonded(cdyn_system *sys, cdyn_force f, int depth)
{
    const char *what = "force_set_pair_exclude_bonded";
    cdyn__pair *p;
    cdyn_status st = cdyn__check_mutable(sys, what);
    if (st || (st = set_of(sys, f, what, &p)))
        return st;
    if (depth < 0 || depth > 2)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: depth %d must be 0, 1 or 2",
                          what, depth);
    int old = p->excl.depth;
    p->excl.depth = depth;
    p->excl.valid = false;
    p->list.valid = false;
    const uint64_t mark = cdyn__failure_mark(sys);
    if ((st = cdyn__exclusions_refresh(sys, &p->excl, p->n, p->slot, p->by_slot, NULL))) {
        p->excl.depth = old;
        p->excl.valid = false;
    }
    return cdyn__blame(sys, st, mark, what, NULL);
}

cdyn_status cdyn_force_get_pair_exclude_bonded(const cdyn_system *sys, cdyn_force f, int *out)
{
    const char *what = "force_get_pair_exclude_bonded";
    cdyn__pair *p;
    cdyn_status st = cdyn__enter_query(sys, out, what);
    if (!st && !(st = set_of(sys, f, what, &p)))
        *out = p->excl.depth;
    return st;
}

cdyn_status cdyn_force_add_pair_exclusions(cdyn_system *sys, cdyn_force f,
                                           const cdyn_particle *pairs, size_t n_pairs)
{
    const char *what = "force_add_pair_exclusions";
    cdyn__pair *p;
    cdyn_status st = cdyn__check_mutable(sys, what);
    if (st || (st = set_of(sys, f, what, &p)))
        return st;
    if (!pairs && n_pairs)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL pairs", what);
    if (n_pairs > ((size_t)1 << 30))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: %zu pairs, more than 2^30",
                          what, n_pairs);
    for (size_t i = 0; i < 2 * n_pairs; i++) {
        uint32_t s;
        if ((st = cdyn__particle_slot(sys, pairs[i], what, &s)))
            return st;
        if (cdyn__pair_member_of(p, s) == UINT32_MAX)
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: particle %zu of the pairs is not a member of the set", what,
                              i);
        if (i % 2 && pairs[i] == pairs[i - 1])
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: pair %zu has the same particle twice", what, i / 2);
    }
    cdyn__exclusions *e = &p->excl;
    size_t need = e->n_given + 2 * n_pairs;
    uint64_t *given = cdyn__alloc_array(&sys->alloc, need ? need : 1, sizeof *given);
    if (!given)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
    if (e->n_given)
        memcpy(given, e->given, e->n_given * sizeof *given);
    size_t m = e->n_given;
    for (size_t i = 0; i < n_pairs; i++) {
        uint32_t a, b;
        cdyn__particle_slot(sys, pairs[2 * i], what, &a);
        cdyn__particle_slot(sys, pairs[2 * i + 1], what, &b);
        given[m++] = (uint64_t)a << 32 | b;
        given[m++] = (uint64_t)b << 32 | a;
    }
    /* sorted, duplicates dropped */
    cdyn__pair_sort_keys(given, m);
    size_t u = 0;
    for (size_t i = 0; i < m; i++)
        if (u == 0 || given[u - 1] != given[i])
            given[u++] = given[i];
    /* The old pairs are kept until the lists are made from the new ones:
     * a failure puts them back, and the lists are made from them again
     * before the next use (the neighbour list, made with them, stands). */
    uint64_t *old = e->given;
    const size_t old_n = e->n_given, old_cap = e->given_cap;
    const bool list_valid = p->list.valid;
    e->given = given;
    e->given_cap = need ? need : 1;
    e->n_given = u;
    e->valid = false;
    p->list.valid = false;
    const uint64_t mark = cdyn__failure_mark(sys);
    if ((st = cdyn__exclusions_refresh(sys, e, p->n, p->slot, p->by_slot, NULL))) {
        cdyn__free_array(&sys->alloc, e->given, e->given_cap, sizeof *e->given);
        e->given = old;
        e->n_given = old_n;
        e->given_cap = old_cap;
        e->valid = false;
        p->list.valid = list_valid;
        return cdyn__blame(sys, st, mark, what, NULL);
    }
    cdyn__free_array(&sys->alloc, old, old_cap, sizeof *old);
    return CDYN_OK;
}

cdyn_status cdyn_force_clear_pair_exclusions(cdyn_system *sys, cdyn_force f)
{
    const char *what = "force_clear_pair_exclusions";
    cdyn__pair *p;
    cdyn_status st = cdyn__check_mutable(sys, what);
    if (st || (st = set_of(sys, f, what, &p)))
        return st;
    p->excl.n_given = 0;
    p->excl.valid = false;
    p->list.valid = false;
    return CDYN_OK;
}

cdyn_status cdyn_force_get_pair_stats(const cdyn_system *sys, cdyn_force f,
                                      cdyn_pair_stats *out)
{
    const char *what = "force_get_pair_stats";
    cdyn__pair *p;
    cdyn_status st = cdyn__enter_query(sys, out, what);
    if (st || (st = set_of(sys, f, what, &p)))
        return st;
    const uint64_t mark = cdyn__failure_mark(sys);
    if ((st = cdyn__pair_query_ready(sys, p)))
        return cdyn__blame(sys, st, mark, what, NULL);
    cdyn_pair_stats s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    s.evaluations = p->evaluations;
    s.builds = p->list.builds;
    s.direct = p->direct;
    s.neighbours = p->list.valid ? p->list.start[p->list.n] + p->list.n_sh : 0;
    s.excluded = p->excl.valid ? p->excl.n_pairs : 0;
    s.skin = p->list.valid ? p->list.skin_used : p->list.skin;
    return cdyn__sized_get(sys, out, &s, sizeof s, what);
}

/* The cutoff against the periodic box: the minimum image must be the only
 * copy in reach. */
static cdyn_status check_box(const cdyn_system *sys, const cdyn__pair *p)
{
    const cdyn__box *b = sys->box;
    if (!b || !b->any_periodic)
        return CDYN_OK;
    double rc = cdyn__pair_max_cutoff(p);
    for (int k = 0; k < sys->dim; k++)
        if (b->periodic[k] && !(2.0 * rc < b->len[k]))
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "pair %s: cutoff %g is not below half the box length %g along "
                              "axis %d",
                              p->is_set ? "set" : "list", rc, b->len[k], k);
    return CDYN_OK;
}

cdyn_status cdyn__pair_prepare(cdyn_system *sys, cdyn__pair *p)
{
    cdyn_status st = check_box(sys, p);
    if (st || !p->is_set)
        return st;
    bool changed;
    if ((st = cdyn__exclusions_refresh(sys, &p->excl, p->n, p->slot, p->by_slot, &changed)))
        return st;
    if (changed)
        p->list.valid = false;
    cdyn__nlist *nl = &p->list;
    if (!(nl->skin > 0) || (nl->nbr_cap && !nl->grow))
        return CDYN_OK;
    /* Room for the list at the committed state, with a margin for the
     * pairs that come and go: a search that counts (it stores nothing in
     * no room), then one that fits. */
    const cdyn_allocator *a = &sys->alloc;
    if (!nl->grow) {
        nl->skin_used = nl->skin;
        const cdyn__box *b = sys->box && sys->box->any_periodic ? sys->box : NULL;
        double rc = cdyn__pair_max_cutoff(p);
        for (int k = 0; b && k < sys->dim; k++)
            if (b->periodic[k] && (b->half[k] - rc) * (1.0 - 1e-9) < nl->skin_used)
                nl->skin_used = (b->half[k] - rc) * (1.0 - 1e-9);
        if (!(nl->skin_used > 0))
            return CDYN_OK;
        cdyn__nlist_build(nl, &p->cells, b, p->n, p->slot, p->rad, sys->x, p->rc, &p->excl,
                          b ? b->epoch : 0, &sys->tasks);
    }
    size_t entries = nl->need + nl->need / 4 + (size_t)p->n / 8 + 64;
    size_t shifted = nl->need_sh + nl->need_sh / 4 + 64;
    if (cdyn__nlist_reserve(nl, a, entries, shifted))
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY,
                          "pair set: out of memory for a neighbour list of %zu pairs", entries);
    nl->valid = false;
    return CDYN_OK;
}
