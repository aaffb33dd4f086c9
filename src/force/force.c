/* Force generators: the pool of handles and the evaluation loop. */
#include "force/force.h"

#include <math.h>
#include <string.h>

#include "pair/pair.h"
#include "core/system.h"

static cdyn_status force_slot(const cdyn_system *sys, cdyn_force f, uint32_t *slot)
{
    cdyn_status st = cdyn__slots_resolve(&sys->forces, f, CDYN__KIND_FORCE, sys->salt, slot);
    if (st == CDYN_ERR_STALE_HANDLE)
        return cdyn__fail(sys, st, "force handle 0x%016llx refers to a removed force",
                          (unsigned long long)f);
    if (st)
        return cdyn__fail(sys, st, "force handle 0x%016llx is not a force of this system",
                          (unsigned long long)f);
    return CDYN_OK;
}

/* Stores @p g in a new slot and hands out its handle. */
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
    *out = cdyn__handle_make(CDYN__KIND_FORCE, sys->salt, sys->forces.generation[i], i);
    return CDYN_OK;
}

static void force_erase(cdyn_system *sys, uint32_t i)
{
    sys->n_velocity_dependent -= sys->force[i].velocity_dependent;
    cdyn__pair_free(sys, sys->force[i].pair);
    memset(&sys->force[i], 0, sizeof sys->force[i]);
    cdyn__slots_release(&sys->forces, i);
}

/* Common checks of every add: system present and not in a step, out given. */
static cdyn_status add_prologue(cdyn_system *sys, const void *out, const char *what)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn_status st = cdyn__check_mutable(sys, what);
    if (st)
        return st;
    if (!out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    return CDYN_OK;
}

cdyn_status cdyn_force_add_gravity(cdyn_system *sys, const double *g, cdyn_force *out)
{
    cdyn_status st = add_prologue(sys, out, "force_add_gravity");
    if (st)
        return st;
    if (!g || !cdyn__all_finite(g, (size_t)sys->dim))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "force_add_gravity: g must be %d finite values", sys->dim);
    cdyn__force f = {.kind = CDYN_FORCE_GRAVITY};
    memcpy(f.p, g, (size_t)sys->dim * sizeof(double));
    return cdyn__force_insert(sys, &f, out, "force_add_gravity");
}

cdyn_status cdyn_force_add_spring(cdyn_system *sys, cdyn_particle a, cdyn_particle b,
                                  double stiffness, double damping, double rest_length,
                                  cdyn_force *out)
{
    cdyn_status st = add_prologue(sys, out, "force_add_spring");
    if (st)
        return st;
    uint32_t ia, ib;
    if ((st = cdyn__particle_slot(sys, a, &ia)) || (st = cdyn__particle_slot(sys, b, &ib)))
        return st;
    if (ia == ib)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "force_add_spring: both ends are the same particle");
    if (!isfinite(stiffness) || stiffness < 0 || !isfinite(damping) || damping < 0 ||
        !isfinite(rest_length) || rest_length < 0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "force_add_spring: stiffness %g, damping %g and rest length %g "
                          "must be finite and >= 0", stiffness, damping, rest_length);
    cdyn__force f = {.kind = CDYN_FORCE_SPRING, .velocity_dependent = damping > 0,
                     .a = ia, .b = ib, .p = {stiffness, damping, rest_length}};
    return cdyn__force_insert(sys, &f, out, "force_add_spring");
}

cdyn_status cdyn_force_add_drag(cdyn_system *sys, double coefficient, cdyn_force *out)
{
    cdyn_status st = add_prologue(sys, out, "force_add_drag");
    if (st)
        return st;
    if (!isfinite(coefficient) || coefficient < 0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "force_add_drag: coefficient %g must be finite and >= 0", coefficient);
    cdyn__force f = {.kind = CDYN_FORCE_DRAG, .velocity_dependent = 1, .p = {coefficient}};
    return cdyn__force_insert(sys, &f, out, "force_add_drag");
}

cdyn_status cdyn_force_add_callback(cdyn_system *sys, cdyn_force_fn fn, void *user,
                                    bool velocity_dependent, cdyn_force *out)
{
    cdyn_status st = add_prologue(sys, out, "force_add_callback");
    if (st)
        return st;
    if (!fn)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "force_add_callback: NULL function");
    cdyn__force f = {.kind = CDYN_FORCE_CALLBACK, .velocity_dependent = velocity_dependent,
                     .fn = fn, .user = user};
    return cdyn__force_insert(sys, &f, out, "force_add_callback");
}

cdyn_status cdyn_force_remove(cdyn_system *sys, cdyn_force f)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn_status st = cdyn__check_mutable(sys, "force_remove");
    uint32_t i;
    if (st || (st = force_slot(sys, f, &i)))
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
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "force_get_kind: NULL argument");
    cdyn_status st = force_slot(sys, f, &i);
    if (!st)
        *out = (cdyn_force_kind)sys->force[i].kind;
    return st;
}

cdyn_status cdyn_force_get_energy(const cdyn_system *sys, cdyn_force f, double *out)
{
    uint32_t i;
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "force_get_energy: NULL argument");
    cdyn_status st = force_slot(sys, f, &i);
    if (!st)
        *out = cdyn__force_energy(sys, &sys->force[i], sys->x);
    return st;
}

cdyn_status cdyn_force_get_spring_tension(const cdyn_system *sys, cdyn_force f, double *out)
{
    uint32_t i;
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "force_get_spring_tension: NULL argument");
    cdyn_status st = force_slot(sys, f, &i);
    if (st)
        return st;
    if (sys->force[i].kind != CDYN_FORCE_SPRING)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "force_get_spring_tension: force is not a spring");
    *out = cdyn__spring_tension(&sys->force[i], sys->dim, sys->x, sys->v);
    return CDYN_OK;
}

double cdyn__force_energy(const cdyn_system *sys, const cdyn__force *g, const double *x)
{
    switch ((cdyn_force_kind)g->kind) {
    case CDYN_FORCE_GRAVITY:
        return cdyn__gravity_energy(sys, g, x);
    case CDYN_FORCE_SPRING:
        return cdyn__spring_energy(g, sys->dim, x);
    case CDYN_FORCE_PAIR:
        return cdyn__pair_energy(sys, g->pair, x);
    case CDYN_FORCE_DRAG:
    case CDYN_FORCE_CALLBACK:
        break;
    }
    return 0.0;
}

cdyn_status cdyn__forces_apply(const cdyn_system *sys, double t, const double *x,
                               const double *v, double *f)
{
    const cdyn__force *g = sys->force;
    const uint8_t *alive = sys->forces.alive;
    for (uint32_t i = 0, n = sys->forces.count; i < n; i++) {
        if (!alive[i])
            continue;
        switch ((cdyn_force_kind)g[i].kind) {
        case CDYN_FORCE_SPRING:
            cdyn__spring_apply(&g[i], sys->dim, x, v, f);
            break;
        case CDYN_FORCE_GRAVITY:
            cdyn__gravity_apply(sys, &g[i], f);
            break;
        case CDYN_FORCE_DRAG:
            cdyn__drag_apply(sys, &g[i], v, f);
            break;
        case CDYN_FORCE_PAIR:
            cdyn__pair_apply(sys, g[i].pair, x, v, f);
            break;
        case CDYN_FORCE_CALLBACK: {
            int rc = g[i].fn(sys, t, sys->particles.count, sys->dim, x, v, f, g[i].user);
            if (rc != 0)
                return cdyn__fail(sys, CDYN_ERR_CALLBACK,
                                  "force callback (slot %u) returned %d at t = %g", i, rc, t);
            break;
        }
        }
    }
    return CDYN_OK;
}

void cdyn__forces_detach_particle(cdyn_system *sys, uint32_t slot)
{
    for (uint32_t i = 0; i < sys->forces.count; i++) {
        if (sys->forces.alive[i] && sys->force[i].kind == CDYN_FORCE_SPRING &&
            (sys->force[i].a == slot || sys->force[i].b == slot))
            force_erase(sys, i);
        else if (sys->forces.alive[i] && sys->force[i].kind == CDYN_FORCE_PAIR)
            cdyn__pair_detach_particle(sys, sys->force[i].pair, slot);
    }
}
