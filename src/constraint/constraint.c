/* Constraint handles: adding, removing, enabling, per-constraint settings. */
#include "constraint/constraint.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "generalized/generalized.h"
#include "constraint/kind.h"
#include "core/holders.h"
#include "core/lookup.h"
#include "core/system.h"
#include "core/finite.h"

cdyn_status cdyn__constraints_ensure(cdyn_system *sys, const char *what)
{
    if (sys->cons)
        return CDYN_OK;
    cdyn__constraints *k = cdyn__calloc_array(&sys->alloc, 1, sizeof *k);
    if (!k)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory for the constraint store",
                          what);
    cdyn_solver_options_init(&k->opt);
    k->dirty = true;
    cdyn__symmat_init(&k->a);
    cdyn__ldlt_init(&k->ldlt);
    cdyn__cg_init(&k->cg);
    sys->cons = k;
    return CDYN_OK;
}

cdyn_status cdyn__constraint_slot(const cdyn_system *sys, cdyn_constraint h, const char *what,
                                  uint32_t *slot)
{
    return cdyn__resolve(sys, sys->cons ? &sys->cons->slots : NULL, h, CDYN__KIND_CONSTRAINT,
                         slot, what);
}

void cdyn__constraints_touch(cdyn_system *sys)
{
    if (sys->cons)
        sys->cons->dirty = true;
}

/* Frees what @p c owns without touching the state (system destruction). */
static void free_one(cdyn_system *sys, cdyn__constraint *c)
{
    cdyn__drive_free(sys, c);
    if (cdyn__constraint_is_shape(c))
        cdyn__param_free(sys, c->d.param);
    else if (c->n_particles > 2)
        cdyn__free_array(&sys->alloc, c->u.particles, c->n_particles, sizeof *c->u.particles);
    memset(c, 0, sizeof *c);
}

void cdyn__constraints_destroy(cdyn_system *sys)
{
    cdyn__constraints *k = sys->cons;
    if (!k)
        return;
    for (uint32_t i = 0; i < k->slots.count; i++)
        if (k->slots.alive[i])
            free_one(sys, &k->c[i]);
    cdyn__constraints_free_topology(sys);
    cdyn__constraints_chain_split_free(sys);
    cdyn__cg_destroy(&k->cg, &sys->alloc);
    cdyn__free_array(&sys->alloc, k->gather, 2 * CDYN__CONSTRAINT_MAX_PARTICLES * 3,
                     sizeof *k->gather);
    cdyn__free_array(&sys->alloc, k->tbuf, k->tbuf_len, sizeof *k->tbuf);
    void **arrays[] = {(void **)&k->c};
    size_t sizes[] = {sizeof(cdyn__constraint)};
    cdyn__slots_free(&k->slots, &sys->alloc, 1, arrays, sizes);
    cdyn__free_array(&sys->alloc, k, 1, sizeof *k);
    sys->cons = NULL;
}

cdyn_status cdyn__constraint_resolve_particles(cdyn_system *sys, const cdyn_particle *ps, size_t n,
                                               uint32_t *slots, const char *what)
{
    for (size_t j = 0; j < n; j++) {
        cdyn_status st = cdyn__particle_slot(sys, ps[j], what, &slots[j]);
        if (st || (st = cdyn__holders_refuse_body(sys, slots[j], what)))
            return st;
        for (size_t i = 0; i < j; i++)
            if (slots[i] == slots[j])
                return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                                  "%s: particle %zu appears twice in one constraint", what, j);
    }
    return CDYN_OK;
}

cdyn_status cdyn__constraint_insert(cdyn_system *sys, const cdyn__constraint *proto,
                                    const uint32_t *slots, cdyn_constraint *out,
                                    const char *what, uint32_t *slot_out)
{
    cdyn_status st = cdyn__constraints_ensure(sys, what);
    if (st || (st = cdyn__holders_reserve(sys, 0, what)))
        return st;
    cdyn__constraints *k = sys->cons;
    uint32_t *owned = NULL;
    if (proto->n_particles > 2) {
        owned = cdyn__alloc_array(&sys->alloc, proto->n_particles, sizeof *owned);
        if (!owned)
            return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
        memcpy(owned, slots, proto->n_particles * sizeof *owned);
    }
    if (cdyn__slots_full(&k->slots)) {
        void **arrays[] = {(void **)&k->c};
        size_t sizes[] = {sizeof(cdyn__constraint)};
        uint32_t cap = cdyn__grown_capacity(k->slots.capacity, k->slots.capacity + 1u);
        if (cdyn__slots_grow(&k->slots, &sys->alloc, cap, 1, arrays, sizes)) {
            cdyn__free_array(&sys->alloc, owned, proto->n_particles, sizeof *owned);
            return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
        }
    }
    uint32_t i = cdyn__slots_take(&k->slots);
    k->c[i] = *proto;
    k->c[i].enabled = 1;
    if (owned)
        k->c[i].u.particles = owned;
    else
        for (uint32_t j = 0; j < proto->n_particles; j++)
            k->c[i].u.particle[j] = slots[j];
    for (uint32_t j = 0; j < proto->n_particles; j++)
        cdyn__holders_count_constraint(sys, slots[j], +1);
    k->dirty = true;
    *out = cdyn__handle_make(CDYN__KIND_CONSTRAINT, sys->salt, k->slots.generation[i], i);
    if (slot_out)
        *slot_out = i;
    return CDYN_OK;
}

cdyn_status cdyn__constraint_add_prologue(cdyn_system *sys, const void *out, const char *what)
{
    return cdyn__enter_change(sys, out, what);
}

static void erase(cdyn_system *sys, uint32_t i)
{
    cdyn__constraint *c = &sys->cons->c[i];
    for (uint32_t j = 0; j < c->n_particles; j++)
        cdyn__holders_count_constraint(sys, cdyn__constraint_particle(c, j), -1);
    const cdyn__constraint_kind *kind = cdyn__kind_of(c);
    if (kind->release)
        kind->release(sys, c);
    free_one(sys, c);
    cdyn__slots_release(&sys->cons->slots, i);
    sys->cons->dirty = true;
}

cdyn_status cdyn_constraint_remove(cdyn_system *sys, cdyn_constraint h)
{
    cdyn_status st = cdyn__check_mutable(sys, "constraint_remove");
    uint32_t i;
    if (st || (st = cdyn__constraint_slot(sys, h, "constraint_remove", &i)))
        return st;
    erase(sys, i);
    return CDYN_OK;
}

void cdyn__constraints_detach_particle(cdyn_system *sys, uint32_t slot)
{
    cdyn__constraints *k = sys->cons;
    if (!k)
        return;
    for (uint32_t i = 0; i < k->slots.count; i++) {
        if (!k->slots.alive[i])
            continue;
        for (uint32_t j = 0; j < k->c[i].n_particles; j++)
            if (cdyn__constraint_particle(&k->c[i], j) == slot) {
                erase(sys, i);
                break;
            }
    }
}

bool cdyn_constraint_is_valid(const cdyn_system *sys, cdyn_constraint h)
{
    uint32_t i;
    return sys && sys->cons &&
           cdyn__slots_resolve(&sys->cons->slots, h, CDYN__KIND_CONSTRAINT, sys->salt, &i) == CDYN_OK;
}

/* Common prologue of the per-constraint getters. */
static cdyn_status lookup(const cdyn_system *sys, cdyn_constraint h, const void *out,
                          const char *what, uint32_t *slot)
{
    return cdyn__enter_object(sys, out, what, sys && sys->cons ? &sys->cons->slots : NULL, h,
                              CDYN__KIND_CONSTRAINT, slot);
}

cdyn_status cdyn_constraint_get_kind(const cdyn_system *sys, cdyn_constraint h,
                                     cdyn_constraint_kind *out)
{
    uint32_t i;
    cdyn_status st = lookup(sys, h, out, "constraint_get_kind", &i);
    if (!st)
        *out = (cdyn_constraint_kind)sys->cons->c[i].kind;
    return st;
}

cdyn_status cdyn_constraint_get_row_count(const cdyn_system *sys, cdyn_constraint h, size_t *out)
{
    uint32_t i;
    cdyn_status st = lookup(sys, h, out, "constraint_get_row_count", &i);
    if (st)
        return st;
    const cdyn__constraint *c = &sys->cons->c[i];
    /* A shape removes dim - k degrees of freedom without rows of its own. */
    const cdyn__constraint_kind *kind = cdyn__kind_of(c);
    *out = kind->shape ? (size_t)(sys->dim - kind->coordinates) : c->n_rows;
    return CDYN_OK;
}

cdyn_status cdyn_constraint_set_enabled(cdyn_system *sys, cdyn_constraint h, bool enabled)
{
    cdyn_status st = cdyn__check_mutable(sys, "constraint_set_enabled");
    uint32_t i;
    if (st || (st = cdyn__constraint_slot(sys, h, "constraint_set_enabled", &i)))
        return st;
    if (cdyn__constraint_is_shape(&sys->cons->c[i]))
        return enabled ? CDYN_OK /* it is always enabled */
                       : cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                                    "constraint_set_enabled: a curve or surface constraint cannot "
                                    "be disabled; remove it to release the particle");
    if (sys->cons->c[i].enabled != (uint8_t)enabled) {
        sys->cons->c[i].enabled = enabled ? 1 : 0;
        sys->cons->dirty = true;
    }
    return CDYN_OK;
}

cdyn_status cdyn_constraint_get_enabled(const cdyn_system *sys, cdyn_constraint h, bool *out)
{
    uint32_t i;
    cdyn_status st = lookup(sys, h, out, "constraint_get_enabled", &i);
    if (!st)
        *out = sys->cons->c[i].enabled != 0;
    return st;
}

cdyn_status cdyn_constraint_set_compliance(cdyn_system *sys, cdyn_constraint h, double compliance)
{
    cdyn_status st = cdyn__check_mutable(sys, "constraint_set_compliance");
    uint32_t i;
    if (st || (st = cdyn__constraint_slot(sys, h, "constraint_set_compliance", &i)))
        return st;
    if (!isfinite(compliance) || compliance < 0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "constraint_set_compliance: %g must be finite and >= 0", compliance);
    if (cdyn__constraint_is_shape(&sys->cons->c[i]))
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "constraint_set_compliance: a curve or surface constraint holds its "
                          "particle exactly by construction and has no compliance");
    cdyn__constraints *k = sys->cons;
    if (compliance > 0 && !k->any_compliance) {
        /* The per-row compliance array exists only once it is needed; the
         * next rebuild allocates it if there is no topology yet. */
        if (k->n_rows && !k->diag &&
            !(k->diag = cdyn__calloc_array(&sys->alloc, k->n_rows, sizeof *k->diag)))
            return cdyn__fail(sys, CDYN_ERR_NO_MEMORY,
                              "constraint_set_compliance: out of memory for %u rows", k->n_rows);
        k->any_compliance = true;
    }
    k->c[i].compliance = compliance;
    return CDYN_OK;
}

cdyn_status cdyn_constraint_get_compliance(const cdyn_system *sys, cdyn_constraint h, double *out)
{
    uint32_t i;
    cdyn_status st = lookup(sys, h, out, "constraint_get_compliance", &i);
    if (!st)
        *out = sys->cons->c[i].compliance;
    return st;
}

int cdyn__constraint_is_shape(const cdyn__constraint *c)
{
    return cdyn__kind_of(c)->shape;
}

cdyn_status cdyn__constraint_eval(cdyn_system *sys, const cdyn__constraint *c, double t,
                                  const double *x, const double *v, double *g, double *jac,
                                  double *bias, double *gt)
{
    double spare[CDYN__CONSTRAINT_MAX_ROWS];
    if (!gt)
        gt = spare;
    memset(gt, 0, c->n_rows * sizeof *gt);
    return cdyn__kind_of(c)->eval(sys, c, t, x, v, g, jac, bias, gt);
}
