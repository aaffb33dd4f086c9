/* Pair-potential generators: parameters, creation, per-ball radii, particle
 * removal, the contact query. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "pair/pair.h"
#include "core/system.h"
#include "force/force.h"

/* Largest count of pairs or particles of one generator. */
#define MAX_COUNT ((size_t)1 << 30)

cdyn_status cdyn_pair_params_init(cdyn_pair_params *params, cdyn_pair_kind kind)
{
    if (!params || (kind != CDYN_PAIR_HERTZ && kind != CDYN_PAIR_LJ_REPULSIVE))
        return CDYN_ERR_INVALID_ARGUMENT;
    memset(params, 0, sizeof *params);
    params->size = sizeof *params;
    params->kind = kind;
    params->stiffness = 1.0;
    params->radius = 0.5;
    params->epsilon = 1.0;
    params->sigma = 1.0;
    params->damping = 0.0;
    return CDYN_OK;
}

static cdyn_status check_params(const cdyn_system *sys, const cdyn_pair_params *pp,
                                const char *what)
{
    if (pp->size != sizeof *pp)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: params.size %zu is not sizeof(cdyn_pair_params) = %zu "
                          "(fill it with cdyn_pair_params_init)", what, pp->size, sizeof *pp);
    switch (pp->kind) {
    case CDYN_PAIR_HERTZ:
        if (!isfinite(pp->stiffness) || pp->stiffness < 0)
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: stiffness %g must be finite and >= 0", what, pp->stiffness);
        if (!isfinite(pp->radius) || !(pp->radius > 0))
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: radius %g must be finite and > 0", what, pp->radius);
        break;
    case CDYN_PAIR_LJ_REPULSIVE:
        if (!isfinite(pp->epsilon) || pp->epsilon < 0)
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: epsilon %g must be finite and >= 0", what, pp->epsilon);
        if (!isfinite(pp->sigma) || !(pp->sigma > 0))
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: sigma %g must be finite and > 0", what, pp->sigma);
        break;
    default:
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: unknown pair kind %d", what,
                          (int)pp->kind);
    }
    if (!isfinite(pp->damping) || pp->damping < 0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: damping %g must be finite and >= 0", what, pp->damping);
    return CDYN_OK;
}

/* In-place heap sort, ascending (keys are distinct, so the result is unique). */
static void sift_down(uint64_t *a, size_t root, size_t n)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && a[child + 1] > a[child])
            child++;
        if (a[root] >= a[child])
            return;
        uint64_t t = a[root];
        a[root] = a[child];
        a[child] = t;
        root = child;
    }
}

static void heap_sort(uint64_t *a, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(a, i, n);
    for (size_t end = n; end-- > 1;) {
        uint64_t t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_down(a, 0, end);
    }
}

static void index_by_slot(cdyn__pair *p)
{
    for (uint32_t i = 0; i < p->n; i++)
        p->by_slot[i] = (uint64_t)p->slot[i] << 32 | i;
    heap_sort(p->by_slot, p->n);
}

void cdyn__pair_index(cdyn__pair *p)
{
    index_by_slot(p);
}

/* First entry of by_slot whose slot is >= @p slot. */
static uint32_t lower_bound(const cdyn__pair *p, uint32_t slot)
{
    uint64_t key = (uint64_t)slot << 32;
    uint32_t lo = 0, hi = p->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->by_slot[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int entry_has_slot(const cdyn__pair *p, uint32_t e, uint32_t slot)
{
    return e < p->n && (uint32_t)(p->by_slot[e] >> 32) == slot;
}

void cdyn__pair_free(const cdyn_system *sys, cdyn__pair *p)
{
    if (!p)
        return;
    const cdyn_allocator *a = &sys->alloc;
    cdyn__free_array(a, p->slot, p->cap, sizeof *p->slot);
    cdyn__free_array(a, p->rad, p->cap, sizeof *p->rad);
    cdyn__free_array(a, p->by_slot, p->cap, sizeof *p->by_slot);
    cdyn__cell_list_free(&p->cells, a);
    a->free(p, sizeof *p, a->user);
}

void cdyn__pair_detach_particle(const cdyn_system *sys, cdyn__pair *p, uint32_t slot)
{
    (void)sys;
    if (!p || !entry_has_slot(p, lower_bound(p, slot), slot))
        return;
    uint32_t kept = 0;
    if (p->is_set) {
        for (uint32_t i = 0; i < p->n; i++) {
            if (p->slot[i] == slot)
                continue;
            p->slot[kept] = p->slot[i];
            if (p->rad)
                p->rad[kept] = p->rad[i];
            kept++;
        }
    } else {
        for (uint32_t e = 0; e + 1 < p->n; e += 2) {
            if (p->slot[e] == slot || p->slot[e + 1] == slot)
                continue;
            for (uint32_t j = 0; j < 2; j++) {
                p->slot[kept + j] = p->slot[e + j];
                if (p->rad)
                    p->rad[kept + j] = p->rad[e + j];
            }
            kept += 2;
        }
    }
    p->n = kept;
    index_by_slot(p);
}

/* Stores the generator in a new force slot. */
static cdyn_status insert_force(cdyn_system *sys, cdyn__pair *p, cdyn_force *out,
                                const char *what)
{
    cdyn__force g = {.ops = p->is_set ? &cdyn__pair_set_ops : &cdyn__pair_ops,
                     .velocity_dependent = p->alpha > 0, .pair = p};
    return cdyn__force_insert(sys, &g, out, what);
}

/* Creates a list (is_set 0: handles are 2 n_pairs pair ends) or a set. */
static cdyn_status create(cdyn_system *sys, const cdyn_pair_params *pp,
                          const cdyn_particle *handles, size_t count, int is_set,
                          cdyn_force *out, const char *what)
{
    cdyn_status st = cdyn__check_mutable(sys, what);
    if (st)
        return st;
    if (!pp || !handles || !out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    if (count == 0 || count > MAX_COUNT)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: count %zu must be in 1..%zu",
                          what, count, MAX_COUNT);
    if ((st = check_params(sys, pp, what)))
        return st;
    const size_t n = is_set ? count : 2 * count;
    for (size_t i = 0; i < n; i++) {
        uint32_t s;
        if ((st = cdyn__particle_slot(sys, handles[i], &s)))
            return st;
    }
    if (!is_set)
        for (size_t i = 0; i < n; i += 2)
            if (handles[i] == handles[i + 1])
                return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                                  "%s: pair %zu has the same particle at both ends", what, i / 2);

    const cdyn_allocator *a = &sys->alloc;
    const int hertz = pp->kind == CDYN_PAIR_HERTZ;
    cdyn__pair *p = a->alloc(sizeof *p, a->user);
    if (!p)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
    memset(p, 0, sizeof *p);
    p->kind = (uint8_t)pp->kind;
    p->is_set = (uint8_t)is_set;
    p->k = pp->stiffness;
    p->epsilon = pp->epsilon;
    p->sigma = pp->sigma;
    p->rc = hertz ? 0.0 : pp->sigma * 1.122462048309373; /* 2^(1/6) */
    p->alpha = pp->damping;
    p->cap = (uint32_t)n;
    p->slot = cdyn__alloc_array(a, n, sizeof *p->slot);
    p->rad = hertz ? cdyn__alloc_array(a, n, sizeof *p->rad) : NULL;
    p->by_slot = cdyn__alloc_array(a, n, sizeof *p->by_slot);
    if (!p->slot || (hertz && !p->rad) || !p->by_slot ||
        (is_set && cdyn__cell_list_init(&p->cells, a, sys->dim, p->cap, hertz))) {
        cdyn__pair_free(sys, p);
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory for %zu particles", what,
                          n);
    }
    for (uint32_t i = 0; i < p->cap; i++) {
        cdyn__slots_resolve(&sys->particles, handles[i], CDYN__KIND_PARTICLE, sys->salt,
                            &p->slot[i]);
        if (hertz)
            p->rad[i] = pp->radius;
    }
    p->n = p->cap;
    index_by_slot(p);
    if (is_set)
        for (uint32_t i = 1; i < p->n; i++)
            if (p->by_slot[i] >> 32 == p->by_slot[i - 1] >> 32) {
                uint32_t first = (uint32_t)p->by_slot[i - 1], second = (uint32_t)p->by_slot[i];
                cdyn__pair_free(sys, p);
                return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                                  "%s: particles %u and %u of the set are the same particle",
                                  what, first, second);
            }
    if ((st = insert_force(sys, p, out, what)))
        cdyn__pair_free(sys, p);
    return st;
}

cdyn_status cdyn_force_add_pairs(cdyn_system *sys, const cdyn_pair_params *params,
                                 const cdyn_particle *pairs, size_t n_pairs, cdyn_force *out)
{
    return create(sys, params, pairs, n_pairs, 0, out, "force_add_pairs");
}

cdyn_status cdyn_force_add_pair_set(cdyn_system *sys, const cdyn_pair_params *params,
                                    const cdyn_particle *particles, size_t n, cdyn_force *out)
{
    return create(sys, params, particles, n, 1, out, "force_add_pair_set");
}

/* Resolves @p f to its pair generator, recording the message on failure. */
static cdyn_status pair_of(const cdyn_system *sys, cdyn_force f, const char *what,
                           cdyn__pair **out)
{
    uint32_t i;
    cdyn_status st = cdyn__force_slot(sys, f, &i);
    if (st)
        return st;
    if (cdyn__force_kind(&sys->force[i]) != CDYN_FORCE_PAIR)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: force is not a pair generator",
                          what);
    *out = sys->force[i].pair;
    return CDYN_OK;
}

/* Resolves (f, particle) to the generator, the particle's slot and its
 * first entry in by_slot, requiring a Hertz generator that holds it. */
static cdyn_status radius_lookup(const cdyn_system *sys, cdyn_force f, cdyn_particle particle,
                                 const char *what, cdyn__pair **out, uint32_t *slot,
                                 uint32_t *entry)
{
    cdyn_status st = pair_of(sys, f, what, out);
    if (st || (st = cdyn__particle_slot(sys, particle, slot)))
        return st;
    if ((*out)->kind != CDYN_PAIR_HERTZ)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: radii belong to Hertz generators only", what);
    *entry = lower_bound(*out, *slot);
    if (!entry_has_slot(*out, *entry, *slot))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: the particle is not one of the generator's", what);
    return CDYN_OK;
}

cdyn_status cdyn_force_set_pair_radius(cdyn_system *sys, cdyn_force f, cdyn_particle particle,
                                       double radius)
{
    const char *what = "force_set_pair_radius";
    cdyn_status st = cdyn__check_mutable(sys, what);
    cdyn__pair *p = NULL;
    uint32_t slot = 0, e = 0;
    if (st || (st = radius_lookup(sys, f, particle, what, &p, &slot, &e)))
        return st;
    if (!isfinite(radius) || !(radius > 0))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: radius %g must be finite and > 0",
                          what, radius);
    for (; entry_has_slot(p, e, slot); e++)
        p->rad[(uint32_t)p->by_slot[e]] = radius;
    return CDYN_OK;
}

cdyn_status cdyn_force_get_pair_radius(const cdyn_system *sys, cdyn_force f,
                                       cdyn_particle particle, double *out)
{
    const char *what = "force_get_pair_radius";
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    cdyn__pair *p = NULL;
    uint32_t slot = 0, e = 0;
    cdyn_status st = radius_lookup(sys, f, particle, what, &p, &slot, &e);
    if (!st)
        *out = p->rad[(uint32_t)p->by_slot[e]];
    return st;
}

cdyn_status cdyn_force_get_pair_contacts(const cdyn_system *sys, cdyn_force f,
                                         cdyn_particle *out, size_t capacity, size_t *count)
{
    const char *what = "force_get_pair_contacts";
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!count || (!out && capacity))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    cdyn__pair *p = NULL;
    cdyn_status st = pair_of(sys, f, what, &p);
    if (!st)
        *count = cdyn__pair_contacts(sys, p, sys->x, out, capacity);
    return st;
}
