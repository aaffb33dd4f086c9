/* Pair generators in the forces section of a snapshot: the potential, the
 * particles, the counters and, for a pair set, its skin, its exclusions
 * (the pairs given, the depth of bonded ones and the lists last made from
 * them) and its neighbour list (snapshot/neighbors.c).
 *
 *     u8 kind, u8 set, f64 k, epsilon, sigma, cutoff, damping, energy shift
 *     table      u32 n, f64 r_min, f64 x 2n (U_k, F_k)
 *     callback   u64 tag
 *     u32 n; set: u32 capacity; u32 x n particle slots; Hertz: f64 x n radii
 *     u64 evaluations, direct searches
 *     set: f64 skin, u8 depth, u64 g, u64 x g pairs given (slot << 32 | slot,
 *          both ways, ascending); the exclusion lists: u8 flags (1 made,
 *          2 some pair excluded), u64 revision, u64 digest, and when some
 *          pair is: u32 x (n + 1) starts, u32 per entry the member
 *          excluded; then the neighbour list
 *
 * A set's capacity (its count at creation) sizes the kernel's ring and is
 * restored; a list's arrays are sized to its pairs. The exclusion lists are
 * saved as they are, even when the bonds changed since they were made: the
 * next step compares the lists it makes with them (by their digest) to
 * tell whether the neighbour list still holds. The table's grid step and a
 * set's lookup by particle and cell list follow from the rest. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/system.h"
#include "force/force.h"
#include "pair/pair.h"
#include "snapshot/snapshot.h"

/* The largest count of one pair generator and the largest table
 * (pair/pair.c). */
#define PAIR_MAX ((uint32_t)1 << 30)
#define TABLE_MAX ((uint32_t)1 << 24)

enum { EX_MADE = 1, EX_ACTIVE = 2 };

static void save_exclusions(cdyn__save *S, const cdyn__pair *p)
{
    const cdyn__exclusions *e = &p->excl;
    cdyn__out_f64(&S->w, p->list.skin);
    cdyn__out_u8(&S->w, (uint8_t)e->depth);
    cdyn__out_u64(&S->w, e->n_given);
    for (size_t i = 0; i < e->n_given; i++)
        cdyn__out_u64(&S->w, e->given[i]);
    const bool active = e->valid && e->active;
    cdyn__out_u8(&S->w, (uint8_t)((e->valid ? EX_MADE : 0) | (active ? EX_ACTIVE : 0)));
    cdyn__out_u64(&S->w, e->revision);
    cdyn__out_u64(&S->w, e->digest);
    if (active) {
        cdyn__out_u32s(&S->w, e->start, (size_t)p->n + 1);
        cdyn__out_u32s(&S->w, e->ex, e->start[p->n]);
    }
}

void cdyn__save_pair(cdyn__save *S, const cdyn__force *g)
{
    const cdyn__pair *p = g->pair;
    cdyn__out_u8(&S->w, p->kind);
    cdyn__out_u8(&S->w, p->is_set);
    const double v[6] = {p->k, p->epsilon, p->sigma, p->rc, p->alpha, p->u_shift};
    cdyn__out_f64s(&S->w, v, 6);
    if (p->kind == CDYN_PAIR_TABLE) {
        cdyn__out_u32(&S->w, p->table_n);
        cdyn__out_f64(&S->w, p->table_r0);
        cdyn__out_f64s(&S->w, p->table, 2 * (size_t)p->table_n);
    } else if (p->kind == CDYN_PAIR_CALLBACK) {
        cdyn_callback_binding b = {.size = sizeof b, .pair = p->fn, .user = p->user};
        cdyn__save_callback(S, CDYN_CALLBACK_PAIR, g->tag, &b);
    }
    cdyn__out_u32(&S->w, p->n);
    if (p->is_set)
        cdyn__out_u32(&S->w, p->cap);
    cdyn__out_u32s(&S->w, p->slot, p->n);
    if (p->rad)
        cdyn__out_f64s(&S->w, p->rad, p->n);
    cdyn__out_u64(&S->w, p->evaluations);
    cdyn__out_u64(&S->w, p->direct);
    if (p->is_set) {
        save_exclusions(S, p);
        cdyn__save_neighbors(S, p);
    }
}

/* Particle slot @p s is a live particle. */
static bool live_particle(const cdyn_system *sys, uint32_t s)
{
    return s < sys->particles.count && sys->particles.alive[s];
}

/* The parameters as pair/pair.c checks them (the cutoff as it derives it:
 * 0 for Hertz, whose cutoff is the sum of the radii). */
static bool params_ok(uint8_t kind, const double *v)
{
    const double k = v[0], eps = v[1], sigma = v[2], rc = v[3], alpha = v[4];
    bool ok = isfinite(v[5]) && alpha >= 0;
    switch (kind) {
    case CDYN_PAIR_HERTZ:
        return ok && k >= 0 && rc == 0;
    case CDYN_PAIR_LJ_REPULSIVE:
    case CDYN_PAIR_LJ:
        return ok && eps >= 0 && sigma > 0 && rc > 0;
    case CDYN_PAIR_TABLE:
    case CDYN_PAIR_CALLBACK:
        return ok && rc > 0;
    }
    return false;
}

/* The table of a TABLE potential, its grid step as pair/pair.c makes it. */
static bool load_table(cdyn__load *L, cdyn__pair *p)
{
    cdyn__win *r = &L->r;
    const cdyn_allocator *a = &L->sys->alloc;
    uint32_t n = cdyn__in_u32(r);
    double r0 = cdyn__in_finite(r, "pair table: r_min");
    if (!cdyn__load_ok(L))
        return false;
    if (n < 2 || n > TABLE_MAX || r0 < 0 || !(r0 < p->rc))
        return cdyn__in_fail(r, "pair table: %u values from %g out of range", n, r0);
    if (!cdyn__in_room(r, n, 16, "pair table"))
        return false;
    if (!(p->table = cdyn__alloc_array(a, 2 * (size_t)n, sizeof *p->table)))
        return cdyn__load_oom(L, "pair table");
    p->table_n = n;
    p->table_r0 = r0;
    p->table_h = (p->rc - r0) / (double)(n - 1);
    p->table_inv_h = 1.0 / p->table_h;
    cdyn__in_finites(r, p->table, 2 * (size_t)n, "pair table");
    return cdyn__load_ok(L);
}

/* The given pairs: ascending, unique, both ways, between members. */
static bool load_given(cdyn__load *L, cdyn__pair *p)
{
    cdyn__win *r = &L->r;
    cdyn__exclusions *e = &p->excl;
    uint64_t g = cdyn__in_u64(r);
    if (!cdyn__in_room(r, g, 8, "pair exclusions"))
        return false;
    if (g == 0)
        return true;
    if (!(e->given = cdyn__alloc_array(&L->sys->alloc, (size_t)g, sizeof *e->given)))
        return cdyn__load_oom(L, "pair exclusions");
    e->given_cap = (size_t)g;
    for (size_t i = 0; i < g && cdyn__load_ok(L); i++) {
        uint64_t v = cdyn__in_u64(r);
        uint32_t s = (uint32_t)(v >> 32), t = (uint32_t)v;
        bool ok = s != t && (i == 0 || v > e->given[i - 1]) &&
                  cdyn__pair_member_of(p, s) != UINT32_MAX &&
                  cdyn__pair_member_of(p, t) != UINT32_MAX;
        if (!ok)
            return cdyn__in_fail(r, "pair exclusion %zu (slots %u, %u) is not a pair of members "
                                    "in order", i, s, t);
        e->given[i] = v;
        e->n_given = i + 1;
    }
    /* Both ways: the reverse of each is there too. */
    for (size_t i = 0; i < e->n_given && cdyn__load_ok(L); i++) {
        uint64_t v = e->given[i], w = v << 32 | v >> 32;
        size_t lo = 0, hi = e->n_given;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (e->given[mid] < w)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == e->n_given || e->given[lo] != w)
            return cdyn__in_fail(r, "pair exclusion %zu is given one way only", i);
    }
    return cdyn__load_ok(L);
}

/* The exclusion lists as saved: per member its excluded members,
 * ascending, none itself. */
static bool load_lists(cdyn__load *L, cdyn__pair *p)
{
    cdyn__win *r = &L->r;
    cdyn__exclusions *e = &p->excl;
    const cdyn_allocator *a = &L->sys->alloc;
    const uint32_t n = p->n;
    uint8_t flags = cdyn__in_u8(r);
    uint64_t revision = cdyn__in_u64(r), digest = cdyn__in_u64(r);
    if (!cdyn__load_ok(L))
        return false;
    if (flags > (EX_MADE | EX_ACTIVE) || flags == EX_ACTIVE)
        return cdyn__in_fail(r, "pair exclusions: flags 0x%x", flags);
    e->valid = (flags & EX_MADE) != 0;
    e->revision = revision;
    e->digest = digest;
    if (!(flags & EX_ACTIVE))
        return true;
    if (!cdyn__in_room(r, (uint64_t)n + 1, 4, "pair exclusion lists"))
        return false;
    if (!(e->start = cdyn__alloc_array(a, (size_t)n + 1, sizeof *e->start)))
        return cdyn__load_oom(L, "pair exclusion lists");
    e->start_cap = n + 1;
    cdyn__in_u32s(r, e->start, (size_t)n + 1);
    for (uint32_t k = 0; k < n && cdyn__load_ok(L); k++)
        if (e->start[k + 1] < e->start[k] || e->start[k + 1] - e->start[k] > n - 1)
            cdyn__in_fail(r, "pair exclusion lists: member %u's list is out of range", k);
    const size_t total = e->start[n];
    if (!cdyn__load_ok(L) || e->start[0] != 0 || total == 0 ||
        !cdyn__in_room(r, total, 4, "pair exclusion lists"))
        return cdyn__in_fail(r, "pair exclusion lists: bad starts");
    if (!(e->ex = cdyn__alloc_array(a, total, sizeof *e->ex)))
        return cdyn__load_oom(L, "pair exclusion lists");
    e->ex_cap = total;
    cdyn__in_u32s(r, e->ex, total);
    for (uint32_t k = 0; k < n && cdyn__load_ok(L); k++)
        for (uint32_t i = e->start[k]; i < e->start[k + 1]; i++)
            if (e->ex[i] >= n || e->ex[i] == k || (i > e->start[k] && e->ex[i] <= e->ex[i - 1]))
                return cdyn__in_fail(r, "pair exclusion lists: member %u excludes %u out of "
                                        "order or out of range", k, e->ex[i]);
    e->active = true;
    e->n_pairs = total / 2;
    return cdyn__load_ok(L);
}

static bool load_set(cdyn__load *L, cdyn__pair *p)
{
    cdyn__win *r = &L->r;
    double skin = cdyn__in_finite(r, "pair set: skin");
    uint8_t depth = cdyn__in_u8(r);
    if (!cdyn__load_ok(L))
        return false;
    if (skin < 0 || depth > 2)
        return cdyn__in_fail(r, "pair set: skin %g or bonded depth %u out of range", skin, depth);
    p->list.skin = skin;
    p->excl.depth = depth;
    return load_given(L, p) && load_lists(L, p) && cdyn__load_neighbors(L, p);
}

/* The arrays of @p p for @p cap members or endpoints, and a set's cell
 * list and neighbour list. */
static bool allocate(cdyn__load *L, cdyn__pair *p, uint32_t cap)
{
    const cdyn_system *sys = L->sys;
    const cdyn_allocator *a = &sys->alloc;
    const bool hertz = p->kind == CDYN_PAIR_HERTZ;
    p->cap = cap;
    p->slot = cdyn__alloc_array(a, cap, sizeof *p->slot);
    p->rad = hertz ? cdyn__alloc_array(a, cap, sizeof *p->rad) : NULL;
    p->by_slot = cdyn__alloc_array(a, cap, sizeof *p->by_slot);
    if (!p->slot || (hertz && !p->rad) || !p->by_slot ||
        (p->is_set && (cdyn__cell_list_init(&p->cells, a, sys->dim, cap, hertz) ||
                       cdyn__nlist_init(&p->list, a, sys->dim, cap, hertz))))
        return cdyn__load_oom(L, "pair generator");
    return true;
}

/* The particles of @p p: live, a list's pairs on two particles, a set's
 * members distinct. */
static bool load_members(cdyn__load *L, cdyn__pair *p)
{
    cdyn__win *r = &L->r;
    const uint32_t n = p->n;
    cdyn__in_u32s(r, p->slot, n);
    if (p->rad)
        cdyn__in_finites(r, p->rad, n, "pair radii");
    for (uint32_t i = 0; i < n && cdyn__load_ok(L); i++)
        if (!live_particle(L->sys, p->slot[i]) || (p->rad && !(p->rad[i] > 0)) ||
            (!p->is_set && i % 2 == 1 && p->slot[i] == p->slot[i - 1]))
            return cdyn__in_fail(r, "pair generator: entry %u (particle slot %u) is not a live "
                                    "particle, has a bad radius or closes a pair on itself", i,
                                 p->slot[i]);
    if (!cdyn__load_ok(L))
        return false;
    cdyn__pair_index(p);
    for (uint32_t i = 1; p->is_set && i < n; i++)
        if (p->by_slot[i] >> 32 == p->by_slot[i - 1] >> 32)
            return cdyn__in_fail(r, "pair set: particle slot %u twice",
                                 (unsigned)(p->by_slot[i] >> 32));
    return true;
}

/* Reads the generator's fields after its kind and set flag. */
static bool load_body(cdyn__load *L, cdyn__pair *p, uint64_t *tag)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    double v[6];
    cdyn__in_finites(r, v, 6, "pair parameters");
    if (!cdyn__load_ok(L))
        return false;
    if (!params_ok(p->kind, v))
        return cdyn__in_fail(r, "pair generator: kind %u or its parameters out of range",
                             p->kind);
    p->k = v[0];
    p->epsilon = v[1];
    p->sigma = v[2];
    p->rc = v[3];
    p->alpha = v[4];
    p->u_shift = v[5];
    p->lj_fast = (p->kind == CDYN_PAIR_LJ_REPULSIVE || p->kind == CDYN_PAIR_LJ) &&
                 p->alpha == 0 && p->epsilon > 0;
    if (p->kind == CDYN_PAIR_TABLE && !load_table(L, p))
        return false;
    if (p->kind == CDYN_PAIR_CALLBACK) {
        cdyn_callback_binding b;
        if (!cdyn__load_callback(L, CDYN_CALLBACK_PAIR, false, &b, tag))
            return false;
        p->fn = b.pair;
        p->user = b.user;
    }
    uint32_t n = cdyn__in_u32(r);
    uint32_t cap = p->is_set ? cdyn__in_u32(r) : (n ? n : 1);
    if (!cdyn__load_ok(L))
        return false;
    /* A set's members were distinct particles when it was made. */
    bool ok = n <= PAIR_MAX && (p->is_set || n % 2 == 0) && n <= cap &&
              (!p->is_set || (cap >= 1 && cap <= sys->particles.count));
    if (!ok)
        return cdyn__in_fail(r, "pair generator: %u particles of %u out of range", n, cap);
    if (!cdyn__in_room(r, n, p->kind == CDYN_PAIR_HERTZ ? 12 : 4, "pair generator") ||
        !allocate(L, p, cap))
        return false;
    p->n = n;
    if (!load_members(L, p))
        return false;
    p->evaluations = cdyn__in_u64(r);
    p->direct = cdyn__in_u64(r);
    return cdyn__load_ok(L) && (!p->is_set || load_set(L, p));
}

bool cdyn__load_pair(cdyn__load *L, cdyn__force *g)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    uint8_t kind = cdyn__in_u8(r);
    bool is_set = cdyn__in_flag(r, "pair generator");
    if (!cdyn__load_ok(L))
        return false;
    if (kind < CDYN_PAIR_HERTZ || kind > CDYN_PAIR_CALLBACK)
        return cdyn__in_fail(r, "pair generator: unknown kind %u", kind);
    cdyn__pair *p = cdyn__calloc_array(&sys->alloc, 1, sizeof *p);
    if (!p)
        return cdyn__load_oom(L, "pair generator");
    p->kind = kind;
    p->is_set = is_set ? 1 : 0;
    uint64_t tag = 0;
    if (!load_body(L, p, &tag) || !cdyn__load_ok(L)) {
        cdyn__pair_free(sys, p);
        return false;
    }
    g->ops = is_set ? &cdyn__pair_set_ops : &cdyn__pair_ops;
    g->velocity_dependent = p->alpha > 0;
    g->user_fn = kind == CDYN_PAIR_CALLBACK;
    g->tag = tag;
    g->pair = p;
    return true;
}
