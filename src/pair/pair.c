/* Pair-potential generators: parameters, creation, per-ball radii, particle
 * removal, the contact query. Neighbour-list options and exclusions are in
 * pair_options.c. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "core/alloc.h"
#include "core/system.h"
#include "force/force.h"
#include "pair/pair.h"

/* Largest count of pairs or particles of one generator. */
#define MAX_COUNT ((size_t)1 << 30)

/* Largest table. */
#define MAX_TABLE ((size_t)1 << 24)

/* The size of cdyn_pair_params before the fields of the LJ, table and
 * callback kinds were added: callers built against it get their defaults. */
#define PARAMS_SIZE_0 (offsetof(cdyn_pair_params, damping) + sizeof(double))

static bool known_kind(cdyn_pair_kind kind)
{
    return kind >= CDYN_PAIR_HERTZ && kind <= CDYN_PAIR_CALLBACK;
}

cdyn_status cdyn_pair_params_init(cdyn_pair_params *params, cdyn_pair_kind kind)
{
    if (!params || !known_kind(kind))
        return CDYN_ERR_INVALID_ARGUMENT;
    memset(params, 0, sizeof *params);
    params->size = sizeof *params;
    params->kind = kind;
    params->stiffness = 1.0;
    params->radius = 0.5;
    params->epsilon = 1.0;
    params->sigma = 1.0;
    params->damping = 0.0;
    params->cutoff = 0.0;
    params->shift = 1;
    return CDYN_OK;
}

/* The parameters with the fields a short (older) struct lacks defaulted. */
static cdyn_status read_params(const cdyn_system *sys, const cdyn_pair_params *in,
                               cdyn_pair_params *pp, const char *what)
{
    if (in->size != sizeof *in && in->size != PARAMS_SIZE_0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: params.size %zu is not sizeof(cdyn_pair_params) = %zu "
                          "(fill it with cdyn_pair_params_init)", what, in->size, sizeof *in);
    if (!known_kind(in->kind))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: unknown pair kind %d", what,
                          (int)in->kind);
    cdyn_pair_params_init(pp, in->kind);
    memcpy(pp, in, in->size);
    pp->size = sizeof *pp;
    return CDYN_OK;
}

static cdyn_status bad(const cdyn_system *sys, const char *what, const char *field, double v,
                       const char *rule)
{
    return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: %s %g must be %s", what, field, v,
                      rule);
}

static cdyn_status check_params(const cdyn_system *sys, const cdyn_pair_params *pp,
                                const char *what)
{
    switch (pp->kind) {
    case CDYN_PAIR_HERTZ:
        if (!isfinite(pp->stiffness) || pp->stiffness < 0)
            return bad(sys, what, "stiffness", pp->stiffness, "finite and >= 0");
        if (!isfinite(pp->radius) || !(pp->radius > 0))
            return bad(sys, what, "radius", pp->radius, "finite and > 0");
        break;
    case CDYN_PAIR_LJ_REPULSIVE:
    case CDYN_PAIR_LJ:
        if (!isfinite(pp->epsilon) || pp->epsilon < 0)
            return bad(sys, what, "epsilon", pp->epsilon, "finite and >= 0");
        if (!isfinite(pp->sigma) || !(pp->sigma > 0))
            return bad(sys, what, "sigma", pp->sigma, "finite and > 0");
        if (pp->kind == CDYN_PAIR_LJ && (!isfinite(pp->cutoff) || pp->cutoff < 0))
            return bad(sys, what, "cutoff", pp->cutoff, "finite and > 0 (or 0: 2.5 sigma)");
        break;
    case CDYN_PAIR_TABLE:
        if (!isfinite(pp->cutoff) || !(pp->cutoff > 0))
            return bad(sys, what, "cutoff", pp->cutoff, "finite and > 0");
        if (!pp->table)
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL table", what);
        if (pp->table_size < 2 || pp->table_size > MAX_TABLE)
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: table_size %zu must be in 2..%zu", what, pp->table_size,
                              MAX_TABLE);
        if (!isfinite(pp->table_r_min) || pp->table_r_min < 0 ||
            !(pp->table_r_min < pp->cutoff))
            return bad(sys, what, "table_r_min", pp->table_r_min, ">= 0 and below the cutoff");
        for (size_t i = 0; i < 2 * pp->table_size; i++)
            if (!isfinite(pp->table[i]))
                return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                                  "%s: table value %zu is not finite", what, i);
        break;
    case CDYN_PAIR_CALLBACK:
        if (!isfinite(pp->cutoff) || !(pp->cutoff > 0))
            return bad(sys, what, "cutoff", pp->cutoff, "finite and > 0");
        if (!pp->fn)
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL fn", what);
        break;
    }
    if (!isfinite(pp->damping) || pp->damping < 0)
        return bad(sys, what, "damping", pp->damping, "finite and >= 0");
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

void cdyn__pair_sort_keys(uint64_t *a, size_t n)
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
    cdyn__pair_sort_keys(p->by_slot, p->n);
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

uint32_t cdyn__pair_member_of(const cdyn__pair *p, uint32_t slot)
{
    uint32_t e = lower_bound(p, slot);
    return entry_has_slot(p, e, slot) ? (uint32_t)p->by_slot[e] : UINT32_MAX;
}

void cdyn__pair_free(const cdyn_system *sys, cdyn__pair *p)
{
    if (!p)
        return;
    const cdyn_allocator *a = &sys->alloc;
    cdyn__free_array(a, p->slot, p->cap, sizeof *p->slot);
    cdyn__free_array(a, p->rad, p->cap, sizeof *p->rad);
    cdyn__free_array(a, p->by_slot, p->cap, sizeof *p->by_slot);
    cdyn__free_array(a, p->table, 2 * (size_t)p->table_n, sizeof *p->table);
    cdyn__cell_list_free(&p->cells, a);
    cdyn__nlist_free(&p->list, a);
    cdyn__exclusions_free(&p->excl, a);
    a->free(p, sizeof *p, a->user);
}

void cdyn__pair_detach_particle(const cdyn_system *sys, cdyn__pair *p, uint32_t slot)
{
    (void)sys;
    if (!p)
        return;
    if (p->is_set)
        cdyn__exclusions_forget_slot(&p->excl, slot);
    if (!entry_has_slot(p, lower_bound(p, slot), slot))
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
    p->list.valid = false;
    index_by_slot(p);
}

/* Stores the generator in a new force slot. */
static cdyn_status insert_force(cdyn_system *sys, cdyn__pair *p, cdyn_force *out,
                                const char *what)
{
    cdyn__force g = {.ops = p->is_set ? &cdyn__pair_set_ops : &cdyn__pair_ops,
                     .velocity_dependent = p->alpha > 0,
                     .user_fn = p->kind == CDYN_PAIR_CALLBACK, .pair = p};
    return cdyn__force_insert(sys, &g, out, what);
}

/* The potential's constants from validated parameters. */
static void set_potential(cdyn__pair *p, const cdyn_pair_params *pp)
{
    p->kind = (uint8_t)pp->kind;
    p->k = pp->stiffness;
    p->epsilon = pp->epsilon;
    p->sigma = pp->sigma;
    p->alpha = pp->damping;
    switch (pp->kind) {
    case CDYN_PAIR_HERTZ:
        p->rc = 0.0;
        break;
    case CDYN_PAIR_LJ_REPULSIVE:
        p->rc = pp->sigma * 1.122462048309373; /* 2^(1/6) */
        p->u_shift = pp->epsilon;
        break;
    case CDYN_PAIR_LJ: {
        p->rc = pp->cutoff > 0 ? pp->cutoff : 2.5 * pp->sigma;
        double s2 = pp->sigma * pp->sigma / (p->rc * p->rc), s6 = s2 * s2 * s2;
        p->u_shift = pp->shift ? -4.0 * pp->epsilon * s6 * (s6 - 1.0) : 0.0;
        break;
    }
    case CDYN_PAIR_TABLE:
        p->rc = pp->cutoff;
        p->table_n = (uint32_t)pp->table_size;
        p->table_r0 = pp->table_r_min;
        p->table_h = (pp->cutoff - pp->table_r_min) / (double)(pp->table_size - 1);
        p->table_inv_h = 1.0 / p->table_h;
        break;
    case CDYN_PAIR_CALLBACK:
        p->rc = pp->cutoff;
        p->fn = pp->fn;
        p->user = pp->user;
        break;
    }
    p->lj_fast = (pp->kind == CDYN_PAIR_LJ_REPULSIVE || pp->kind == CDYN_PAIR_LJ) &&
                 p->alpha == 0 && p->epsilon > 0;
}

/* The skin a new set starts with (include/cdyn/pair.h). */
static double default_skin(const cdyn_pair_params *pp, double rc)
{
    if (pp->kind == CDYN_PAIR_LJ_REPULSIVE || pp->kind == CDYN_PAIR_LJ)
        return 0.3 * pp->sigma;
    return 0.1 * (pp->kind == CDYN_PAIR_HERTZ ? 2.0 * pp->radius : rc);
}

/* Creates a list (is_set 0: handles are 2 n_pairs pair ends) or a set. */
static cdyn_status create(cdyn_system *sys, const cdyn_pair_params *in,
                          const cdyn_particle *handles, size_t count, int is_set,
                          cdyn_force *out, const char *what)
{
    cdyn_status st = cdyn__check_mutable(sys, what);
    if (st)
        return st;
    if (!in || !handles || !out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    if (count == 0 || count > MAX_COUNT)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: count %zu must be in 1..%zu",
                          what, count, MAX_COUNT);
    cdyn_pair_params pp;
    if ((st = read_params(sys, in, &pp, what)) || (st = check_params(sys, &pp, what)))
        return st;
    const size_t n = is_set ? count : 2 * count;
    for (size_t i = 0; i < n; i++) {
        uint32_t s;
        if ((st = cdyn__particle_slot(sys, handles[i], what, &s)))
            return st;
    }
    if (!is_set)
        for (size_t i = 0; i < n; i += 2)
            if (handles[i] == handles[i + 1])
                return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                                  "%s: pair %zu has the same particle at both ends", what, i / 2);

    const cdyn_allocator *a = &sys->alloc;
    const int hertz = pp.kind == CDYN_PAIR_HERTZ;
    cdyn__pair *p = a->alloc(sizeof *p, a->user);
    if (!p)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
    memset(p, 0, sizeof *p);
    p->is_set = (uint8_t)is_set;
    set_potential(p, &pp);
    p->cap = (uint32_t)n;
    p->slot = cdyn__alloc_array(a, n, sizeof *p->slot);
    p->rad = hertz ? cdyn__alloc_array(a, n, sizeof *p->rad) : NULL;
    p->by_slot = cdyn__alloc_array(a, n, sizeof *p->by_slot);
    if (pp.kind == CDYN_PAIR_TABLE) {
        p->table = cdyn__alloc_array(a, 2 * pp.table_size, sizeof *p->table);
        if (p->table)
            memcpy(p->table, pp.table, 2 * pp.table_size * sizeof *p->table);
    }
    if (!p->slot || (hertz && !p->rad) || !p->by_slot ||
        (pp.kind == CDYN_PAIR_TABLE && !p->table) ||
        (is_set && (cdyn__cell_list_init(&p->cells, a, sys->dim, p->cap, hertz) ||
                    cdyn__nlist_init(&p->list, a, sys->dim, p->cap, hertz)))) {
        cdyn__pair_free(sys, p);
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory for %zu particles", what,
                          n);
    }
    for (uint32_t i = 0; i < p->cap; i++) {
        cdyn__slots_resolve(&sys->particles, handles[i], CDYN__KIND_PARTICLE, sys->salt,
                            &p->slot[i]);
        if (hertz)
            p->rad[i] = pp.radius;
    }
    p->n = p->cap;
    p->list.skin = is_set ? default_skin(&pp, p->rc) : 0.0;
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

cdyn_status cdyn__pair_of(const cdyn_system *sys, cdyn_force f, const char *what,
                          cdyn__pair **out)
{
    uint32_t i;
    cdyn_status st = cdyn__force_slot(sys, f, what, &i);
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
    cdyn_status st = cdyn__pair_of(sys, f, what, out);
    if (st || (st = cdyn__particle_slot(sys, particle, what, slot)))
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
    p->list.valid = false;
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
    cdyn_status st = cdyn__pair_of(sys, f, what, &p);
    if (!st)
        st = cdyn__pair_contacts(sys, p, sys->x, out, capacity, count);
    return st;
}
