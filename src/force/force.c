/* Force generators: the pool of handles, removal, the evaluation loop. The
 * store knows no kind: each generator's ops do its work. */
#include "force/force.h"

#include <string.h>

#include "core/lookup.h"
#include "core/system.h"
#include "force/applied.h"

cdyn_status cdyn__force_slot(const cdyn_system *sys, cdyn_force f, const char *what,
                             uint32_t *slot)
{
    return cdyn__resolve(sys, &sys->forces, f, CDYN__KIND_FORCE, slot, what);
}

cdyn_status cdyn__force_insert(cdyn_system *sys, const cdyn__force *g, cdyn_force *out,
                               const char *what)
{
    if (cdyn__slots_full(&sys->forces)) {
        void **arrays[] = {(void **)&sys->force};
        size_t sizes[] = {sizeof(cdyn__force)};
        uint32_t cap = cdyn__grown_capacity(sys->forces.capacity, sys->forces.capacity + 1u);
        if (cdyn__slots_grow(&sys->forces, &sys->alloc, cap, 1, arrays, sizes))
            return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
    }
    uint32_t i = cdyn__slots_take(&sys->forces);
    sys->force[i] = *g;
    sys->n_velocity_dependent += g->velocity_dependent;
    sys->n_prepared += g->ops->prepare != NULL;
    *out = cdyn__handle_of(sys, &sys->forces, CDYN__KIND_FORCE, i);
    return CDYN_OK;
}

static void force_erase(cdyn_system *sys, uint32_t i)
{
    cdyn__force *g = &sys->force[i];
    sys->n_velocity_dependent -= g->velocity_dependent;
    sys->n_prepared -= g->ops->prepare != NULL;
    if (g->ops->release)
        g->ops->release(sys, g);
    memset(g, 0, sizeof *g);
    cdyn__slots_release(&sys->forces, i);
}

cdyn_status cdyn__force_add_prologue(cdyn_system *sys, const void *out, const char *what)
{
    return cdyn__enter_change(sys, out, what);
}

cdyn_status cdyn_force_remove(cdyn_system *sys, cdyn_force f)
{
    cdyn_status st = cdyn__check_mutable(sys, "force_remove");
    uint32_t i;
    if (st || (st = cdyn__force_slot(sys, f, "force_remove", &i)))
        return st;
    force_erase(sys, i);
    return CDYN_OK;
}

bool cdyn_force_is_valid(const cdyn_system *sys, cdyn_force f)
{
    uint32_t i;
    return sys && cdyn__slots_resolve(&sys->forces, f, CDYN__KIND_FORCE, sys->salt, &i) == CDYN_OK;
}

cdyn_status cdyn_force_get_kind(const cdyn_system *sys, cdyn_force f, cdyn_force_kind *out)
{
    uint32_t i;
    cdyn_status st = cdyn__enter_query(sys, out, "force_get_kind");
    if (!st && !(st = cdyn__force_slot(sys, f, "force_get_kind", &i)))
        *out = cdyn__force_kind(&sys->force[i]);
    return st;
}

cdyn_status cdyn_force_get_energy(const cdyn_system *sys, cdyn_force f, double *out)
{
    uint32_t i;
    cdyn_status st = cdyn__enter_query(sys, out, "force_get_energy");
    if (!st && !(st = cdyn__force_slot(sys, f, "force_get_energy", &i))) {
        const uint64_t mark = cdyn__failure_mark(sys);
        st = cdyn__blame(sys, cdyn__force_energy(sys, &sys->force[i], sys->x, out), mark,
                         "force_get_energy", NULL);
    }
    return st;
}

cdyn_status cdyn__force_energy(const cdyn_system *sys, const cdyn__force *g, const double *x,
                               double *out)
{
    return g->ops->energy(sys, g, x, out);
}

cdyn_status cdyn__forces_apply(const cdyn_system *sys, double t, const double *x,
                               const double *v, double *f)
{
    const cdyn__force *g = sys->force;
    const uint8_t *alive = sys->forces.alive;
    for (uint32_t i = 0, n = sys->forces.count; i < n; i++) {
        if (!alive[i])
            continue;
        cdyn_status st;
        if (g[i].ops->apply_run) {
            uint32_t next;
            st = sys->tasks.parallel && g[i].ops->apply_listed
                     ? cdyn__forces_apply_run(sys, i, t, x, v, f, &next)
                     : g[i].ops->apply_run(sys, i, t, x, v, f, &next);
            if (st)
                return st;
            i = next - 1;
            continue;
        }
        if ((st = g[i].ops->apply(sys, &g[i], i, t, x, v, f)))
            return st;
    }
    cdyn__applied_add(sys, f);
    return CDYN_OK;
}

cdyn_status cdyn__forces_prepare(cdyn_system *sys)
{
    /* (Most generators have nothing to prepare: a net of springs is not
     * walked at every step.) */
    for (uint32_t i = 0, n = sys->n_prepared ? sys->forces.count : 0; i < n; i++) {
        cdyn__force *g = &sys->force[i];
        cdyn_status st;
        if (sys->forces.alive[i] && g->ops->prepare && (st = g->ops->prepare(sys, g)))
            return st;
    }
    return cdyn__forces_split_reserve(sys);
}

void cdyn__forces_detach_particle(cdyn_system *sys, uint32_t slot)
{
    for (uint32_t i = 0; i < sys->forces.count; i++) {
        cdyn__force *g = &sys->force[i];
        if (sys->forces.alive[i] && g->ops->detach && g->ops->detach(sys, g, slot))
            force_erase(sys, i);
    }
}

void cdyn__forces_destroy(cdyn_system *sys)
{
    for (uint32_t i = 0; i < sys->forces.count; i++) {
        cdyn__force *g = &sys->force[i];
        if (sys->forces.alive[i] && g->ops->release)
            g->ops->release(sys, g);
    }
    void **arrays[] = {(void **)&sys->force};
    size_t sizes[] = {sizeof(cdyn__force)};
    cdyn__slots_free(&sys->forces, &sys->alloc, 1, arrays, sizes);
    cdyn__forces_split_free(sys);
}
