/* Exclusion lists of pair sets (pair/exclusion.h). */
#include "pair/exclusion.h"

#include <string.h>

#include "constraint/constraint.h"
#include "core/alloc.h"
#include "core/system.h"
#include "force/force.h"

#define NONE UINT32_MAX

void cdyn__exclusions_free(cdyn__exclusions *e, const cdyn_allocator *a)
{
    cdyn__free_array(a, e->given, e->given_cap, sizeof *e->given);
    cdyn__free_array(a, e->start, e->start_cap, sizeof *e->start);
    cdyn__free_array(a, e->ex, e->ex_cap, sizeof *e->ex);
    cdyn__free_array(a, e->bond_start, e->bond_start_cap, sizeof *e->bond_start);
    cdyn__free_array(a, e->bond, e->bond_cap, sizeof *e->bond);
    memset(e, 0, sizeof *e);
}

bool cdyn__exclusions_stale(const cdyn_system *sys, const cdyn__exclusions *e)
{
    return !e->valid || (e->depth > 0 && e->revision != sys->revision);
}

void cdyn__exclusions_forget_slot(cdyn__exclusions *e, uint32_t slot)
{
    size_t kept = 0;
    for (size_t i = 0; i < e->n_given; i++) {
        uint64_t g = e->given[i];
        if ((uint32_t)(g >> 32) != slot && (uint32_t)g != slot)
            e->given[kept++] = g;
    }
    e->n_given = kept;
    e->valid = false;
}

/* Grows *arr (of *cap elements of @p size) to at least @p need. */
static bool grow(const cdyn_allocator *a, void **arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t n = need + need / 2 + 8;
    void *p = cdyn__alloc_array(a, n, size);
    if (!p)
        return false;
    cdyn__free_array(a, *arr, *cap, size);
    *arr = p;
    *cap = n;
    return true;
}

static bool grow32(const cdyn_allocator *a, uint32_t **arr, uint32_t *cap, size_t need)
{
    size_t c = *cap;
    void *p = *arr;
    if (need > UINT32_MAX / 2 || !grow(a, &p, &c, need, sizeof **arr))
        return false;
    *arr = p;
    *cap = (uint32_t)c;
    return true;
}

/* The member of slot @p s, or NONE. */
static uint32_t member_of(uint32_t n, const uint64_t *by_slot, uint32_t s)
{
    uint64_t key = (uint64_t)s << 32;
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (by_slot[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && (uint32_t)(by_slot[lo] >> 32) == s ? (uint32_t)by_slot[lo] : NONE;
}

/* Calls @p bond(ctx, s, t) for every bond: enabled distance constraints
 * and springs. */
static void for_bonds(const cdyn_system *sys, void (*bond)(cdyn__exclusions *, uint32_t, uint32_t),
                      cdyn__exclusions *e)
{
    const cdyn__constraints *k = sys->cons;
    for (uint32_t i = 0; k && i < k->slots.count; i++) {
        const cdyn__constraint *c = &k->c[i];
        if (k->slots.alive[i] && c->enabled && c->kind == CDYN_CONSTRAINT_DISTANCE &&
            c->n_particles == 2)
            bond(e, c->u.particle[0], c->u.particle[1]);
    }
    for (uint32_t i = 0; i < sys->forces.count; i++) {
        const cdyn__force *g = &sys->force[i];
        if (sys->forces.alive[i] && g->ops == &cdyn__spring_ops)
            bond(e, g->a, g->b);
    }
}

static void count_bond(cdyn__exclusions *e, uint32_t s, uint32_t t)
{
    e->bond_start[s + 1]++;
    e->bond_start[t + 1]++;
}

static void fill_bond(cdyn__exclusions *e, uint32_t s, uint32_t t)
{
    e->bond[e->bond_start[s]++] = t;
    e->bond[e->bond_start[t]++] = s;
}

/* The bonds of every slot as adjacency lists. */
static bool build_bonds(const cdyn_system *sys, cdyn__exclusions *e, const cdyn_allocator *a)
{
    const uint32_t np = sys->particles.count;
    if (!grow32(a, &e->bond_start, &e->bond_start_cap, (size_t)np + 1))
        return false;
    memset(e->bond_start, 0, ((size_t)np + 1) * sizeof *e->bond_start);
    for_bonds(sys, count_bond, e);
    for (uint32_t s = 0; s < np; s++)
        e->bond_start[s + 1] += e->bond_start[s];
    void *b = e->bond;
    if (!grow(a, &b, &e->bond_cap, e->bond_start[np], sizeof *e->bond))
        return false;
    e->bond = b;
    for_bonds(sys, fill_bond, e);
    for (uint32_t s = np; s > 0; s--)
        e->bond_start[s] = e->bond_start[s - 1];
    e->bond_start[0] = 0;
    return true;
}

/* Visits the members excluded with member k (slot s), duplicates and k
 * itself included: @p out NULL counts, else writes. Returns the count. */
static size_t partners(const cdyn__exclusions *e, uint32_t n, const uint64_t *by_slot,
                       uint32_t k, uint32_t s, uint32_t *out)
{
    size_t c = 0;
#define PUT(m)                                                                                   \
    do {                                                                                         \
        uint32_t m_ = (m);                                                                       \
        if (m_ != NONE && m_ != k) {                                                             \
            if (out)                                                                             \
                out[c] = m_;                                                                     \
            c++;                                                                                 \
        }                                                                                        \
    } while (0)
    if (e->depth > 0) {
        for (uint32_t i = e->bond_start[s]; i < e->bond_start[s + 1]; i++) {
            uint32_t t = e->bond[i];
            PUT(member_of(n, by_slot, t));
            if (e->depth > 1)
                for (uint32_t j = e->bond_start[t]; j < e->bond_start[t + 1]; j++)
                    PUT(member_of(n, by_slot, e->bond[j]));
        }
    }
    /* Explicit pairs with s: both orientations are stored, sorted. */
    uint64_t key = (uint64_t)s << 32;
    size_t lo = 0, hi = e->n_given;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e->given[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < e->n_given && (uint32_t)(e->given[lo] >> 32) == s; lo++)
        PUT(member_of(n, by_slot, (uint32_t)e->given[lo]));
#undef PUT
    return c;
}

static void sort_unique(uint32_t *v, uint32_t *len)
{
    /* insertion sort: the lists hold a handful of entries */
    for (uint32_t i = 1; i < *len; i++) {
        uint32_t x = v[i], j = i;
        while (j > 0 && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
    uint32_t m = 0;
    for (uint32_t i = 0; i < *len; i++)
        if (m == 0 || v[m - 1] != v[i])
            v[m++] = v[i];
    *len = m;
}

/* FNV-1a over the member count and the lists. */
static uint64_t digest_of(const cdyn__exclusions *e, uint32_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
#define MIX(v)                                                                                   \
    do {                                                                                         \
        h ^= (uint64_t)(v);                                                                      \
        h *= 0x100000001b3ull;                                                                   \
    } while (0)
    MIX(n);
    MIX(e->active);
    for (uint32_t k = 0; e->active && k <= n; k++)
        MIX(e->start[k]);
    for (uint32_t i = 0; e->active && i < e->start[n]; i++)
        MIX(e->ex[i]);
#undef MIX
    return h;
}

static cdyn_status rebuild(const cdyn_system *sys, cdyn__exclusions *e, uint32_t n,
                           const uint32_t *slot, const uint64_t *by_slot)
{
    const cdyn_allocator *a = &sys->alloc;
    e->valid = e->active = false;
    e->n_pairs = 0;
    if (e->depth == 0 && e->n_given == 0) {
        e->valid = true;
        e->revision = sys->revision;
        return CDYN_OK;
    }
    if ((e->depth > 0 && !build_bonds(sys, e, a)) ||
        !grow32(a, &e->start, &e->start_cap, (size_t)n + 1))
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "pair set: out of memory for exclusions");
    size_t total = 0;
    for (uint32_t k = 0; k < n; k++) {
        e->start[k] = (uint32_t)total;
        total += partners(e, n, by_slot, k, slot[k], NULL);
    }
    e->start[n] = (uint32_t)total;
    void *ex = e->ex;
    if (total > UINT32_MAX || !grow(a, &ex, &e->ex_cap, total ? total : 1, sizeof *e->ex))
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "pair set: out of memory for exclusions");
    e->ex = ex;
    /* Fill, sort, drop duplicates, compact in place. */
    uint32_t w = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t at = e->start[k];
        uint32_t len = (uint32_t)partners(e, n, by_slot, k, slot[k], e->ex + at);
        sort_unique(e->ex + at, &len);
        memmove(e->ex + w, e->ex + at, len * sizeof *e->ex);
        e->start[k] = w;
        w += len;
    }
    e->start[n] = w;
    e->n_pairs = w / 2;
    e->active = w > 0;
    e->valid = true;
    e->revision = sys->revision;
    return CDYN_OK;
}

cdyn_status cdyn__exclusions_refresh(const cdyn_system *sys, cdyn__exclusions *e, uint32_t n,
                                     const uint32_t *slot, const uint64_t *by_slot,
                                     bool *changed)
{
    if (changed)
        *changed = false;
    if (!cdyn__exclusions_stale(sys, e))
        return CDYN_OK;
    const uint64_t before = e->digest;
    const bool had = e->valid;
    cdyn_status st = rebuild(sys, e, n, slot, by_slot);
    e->digest = e->valid ? digest_of(e, n) : 0;
    if (changed)
        *changed = st || !had || e->digest != before;
    return st;
}
