/* Applied forces: the accumulators, their public calls and their share of
 * every force evaluation. */
#include "force/applied.h"

#include <string.h>

#include "core/alloc.h"
#include "core/finite.h"
#include "core/lookup.h"

/* Allocates both accumulators (zeroed) for the particle capacity on first
 * use; later growth is cdyn__particles_reserve's. Nothing changes on
 * failure. */
static cdyn_status ensure(cdyn_system *sys, const char *what)
{
    if (sys->applied_held)
        return CDYN_OK;
    const cdyn_allocator *a = &sys->alloc;
    size_t len = (size_t)sys->particles.capacity * (size_t)sys->dim;
    double *held = cdyn__calloc_array(a, len, sizeof *held);
    double *next = cdyn__calloc_array(a, len, sizeof *next);
    if (!held || !next) {
        cdyn__free_array(a, held, len, sizeof *held);
        cdyn__free_array(a, next, len, sizeof *next);
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory for the applied forces",
                          what);
    }
    sys->applied_held = held;
    sys->applied_next = next;
    return CDYN_OK;
}

static cdyn_status check_mode(const cdyn_system *sys, cdyn_apply_mode mode, const char *what)
{
    if (mode == CDYN_APPLY_UNTIL_CLEARED || mode == CDYN_APPLY_NEXT_STEP)
        return CDYN_OK;
    return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: unknown mode %d", what, (int)mode);
}

/* The accumulator of @p mode, flagged as holding a force. */
static double *accumulator(cdyn_system *sys, cdyn_apply_mode mode)
{
    if (mode == CDYN_APPLY_NEXT_STEP) {
        sys->applied_next_on = true;
        return sys->applied_next;
    }
    sys->applied_on = true;
    return sys->applied_held;
}

cdyn_status cdyn_particle_apply_force(cdyn_system *sys, cdyn_particle p, const double *force,
                                      cdyn_apply_mode mode)
{
    const char *what = "particle_apply_force";
    uint32_t i;
    cdyn_status st = cdyn__enter_object_change(sys, force, what, sys ? &sys->particles : NULL, p,
                                               CDYN__KIND_PARTICLE, &i);
    if (st || (st = check_mode(sys, mode, what)))
        return st;
    size_t d = (size_t)sys->dim;
    if (!cdyn__all_finite(force, d))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: force must be %d finite values",
                          what, sys->dim);
    if ((st = ensure(sys, what)))
        return st;
    double *acc = accumulator(sys, mode) + (size_t)i * d;
    for (size_t k = 0; k < d; k++)
        acc[k] += force[k];
    return CDYN_OK;
}

cdyn_status cdyn_particle_clear_applied_force(cdyn_system *sys, cdyn_particle p)
{
    uint32_t i;
    cdyn_status st = cdyn__enter_object_change(sys, sys, "particle_clear_applied_force",
                                               sys ? &sys->particles : NULL, p,
                                               CDYN__KIND_PARTICLE, &i);
    if (!st)
        cdyn__applied_forget(sys, i);
    return st;
}

cdyn_status cdyn_particle_get_applied_force(const cdyn_system *sys, cdyn_particle p,
                                            double *out)
{
    uint32_t i;
    cdyn_status st = cdyn__enter_object(sys, out, "particle_get_applied_force",
                                        sys ? &sys->particles : NULL, p, CDYN__KIND_PARTICLE,
                                        &i);
    if (st)
        return st;
    size_t d = (size_t)sys->dim, o = (size_t)i * d;
    for (size_t k = 0; k < d; k++)
        out[k] = sys->applied_held ? sys->applied_held[o + k] + sys->applied_next[o + k] : 0.0;
    return CDYN_OK;
}

cdyn_status cdyn_system_apply_forces(cdyn_system *sys, const double *forces, size_t count,
                                     cdyn_apply_mode mode)
{
    const char *what = "apply_forces";
    cdyn_status st = cdyn__enter_change(sys, forces, what);
    if (st || (st = check_mode(sys, mode, what)))
        return st;
    size_t d = (size_t)sys->dim, n = sys->particles.count;
    if (count != n * d)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: count %zu != %zu expected", what,
                          count, n * d);
    for (size_t i = 0; i < n; i++)
        if (sys->particles.alive[i] && !cdyn__all_finite(forces + i * d, d))
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: non-finite value at index %zu", what, i);
    if (n == 0)
        return CDYN_OK;
    if ((st = ensure(sys, what)))
        return st;
    double *acc = accumulator(sys, mode);
    for (size_t i = 0; i < n; i++)
        if (sys->particles.alive[i])
            for (size_t k = 0; k < d; k++)
                acc[i * d + k] += forces[i * d + k];
    return CDYN_OK;
}

cdyn_status cdyn_system_clear_applied_forces(cdyn_system *sys)
{
    cdyn_status st = cdyn__check_mutable(sys, "clear_applied_forces");
    if (st)
        return st;
    if (sys->applied_held) {
        size_t len = (size_t)sys->particles.count * (size_t)sys->dim;
        memset(sys->applied_held, 0, len * sizeof *sys->applied_held);
        memset(sys->applied_next, 0, len * sizeof *sys->applied_next);
    }
    sys->applied_on = sys->applied_next_on = false;
    return CDYN_OK;
}

cdyn_status cdyn_system_get_applied_forces(const cdyn_system *sys, double *out, size_t capacity)
{
    const char *what = "get_applied_forces";
    cdyn_status st = cdyn__enter_query(sys, out, what);
    if (st)
        return st;
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    if (capacity < n)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: capacity %zu < %zu doubles needed", what, capacity, n);
    for (size_t i = 0; i < n; i++)
        out[i] = sys->applied_held ? sys->applied_held[i] + sys->applied_next[i] : 0.0;
    return CDYN_OK;
}

void cdyn__applied_add(const cdyn_system *sys, double *f)
{
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    if (sys->applied_on) {
        const double *h = sys->applied_held;
        for (size_t i = 0; i < n; i++)
            f[i] += h[i];
    }
    if (sys->applied_next_on) {
        const double *h = sys->applied_next;
        for (size_t i = 0; i < n; i++)
            f[i] += h[i];
    }
}

void cdyn__applied_step_done(cdyn_system *sys)
{
    if (!sys->applied_next_on)
        return;
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    memset(sys->applied_next, 0, n * sizeof *sys->applied_next);
    sys->applied_next_on = false;
}

void cdyn__applied_forget(cdyn_system *sys, uint32_t slot)
{
    if (!sys->applied_held)
        return;
    size_t d = (size_t)sys->dim;
    memset(sys->applied_held + slot * d, 0, d * sizeof *sys->applied_held);
    memset(sys->applied_next + slot * d, 0, d * sizeof *sys->applied_next);
}

void cdyn__applied_free(cdyn_system *sys)
{
    const cdyn_allocator *a = &sys->alloc;
    size_t len = (size_t)sys->particles.capacity * (size_t)sys->dim;
    cdyn__free_array(a, sys->applied_held, len, sizeof *sys->applied_held);
    cdyn__free_array(a, sys->applied_next, len, sizeof *sys->applied_next);
    sys->applied_held = sys->applied_next = NULL;
    sys->applied_on = sys->applied_next_on = false;
}
