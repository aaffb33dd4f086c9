/* Particles: add/remove and per-particle properties. */
#include <math.h>
#include <string.h>

#include "cdyn/particle.h"
#include "constraint/constraint.h"
#include "generalized/generalized.h"
#include "core/box.h"
#include "core/holders.h"
#include "core/system.h"
#include "force/applied.h"
#include "force/force.h"
#include "core/finite.h"
#include "core/lookup.h"
#include "kinematic/kinematic.h"

static bool valid_mass(double m)
{
    return isfinite(m) && m > 0;
}

cdyn_status cdyn_particle_add(cdyn_system *sys, double mass, const double *position,
                              const double *velocity, cdyn_particle *out)
{
    cdyn_status st = cdyn__check_mutable(sys, "particle_add");
    if (st)
        return st;
    size_t d = (size_t)sys->dim;
    if (!position || !out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "particle_add: NULL argument");
    if (!valid_mass(mass))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "particle_add: mass %g must be finite and > 0", mass);
    if (!cdyn__all_finite(position, d) || (velocity && !cdyn__all_finite(velocity, d)))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "particle_add: non-finite position or velocity");
    st = cdyn__particles_reserve(sys);
    if (st)
        return st;
    uint32_t i = cdyn__slots_take(&sys->particles);
    memcpy(sys->x + i * d, position, d * sizeof(double));
    if (velocity)
        memcpy(sys->v + i * d, velocity, d * sizeof(double));
    else
        memset(sys->v + i * d, 0, d * sizeof(double));
    sys->mass[i] = mass;
    sys->inv_mass[i] = 1.0 / mass;
    sys->fixed[i] = 0;
    sys->kinematic[i] = 0;
    cdyn__params_sync_slot(sys, i); /* a free particle: a copy, cannot fail */
    *out = cdyn__handle_make(CDYN__KIND_PARTICLE, sys->salt, sys->particles.generation[i], i);
    return CDYN_OK;
}

cdyn_status cdyn_particle_remove(cdyn_system *sys, cdyn_particle p)
{
    cdyn_status st = cdyn__check_mutable(sys, "particle_remove");
    if (st)
        return st;
    uint32_t i;
    if ((st = cdyn__particle_slot(sys, p, "particle_remove", &i)) ||
        (st = cdyn__holders_refuse_body(sys, i, "particle_remove")))
        return st;
    cdyn__forces_detach_particle(sys, i);
    cdyn__applied_forget(sys, i);
    cdyn__constraints_detach_particle(sys, i);
    cdyn__kinematic_forget(sys, i);
    size_t d = (size_t)sys->dim;
    memset(sys->x + i * d, 0, d * sizeof(double));
    memset(sys->v + i * d, 0, d * sizeof(double));
    sys->mass[i] = 0;
    sys->inv_mass[i] = 0;
    sys->fixed[i] = 0;
    cdyn__box_forget_slot(sys, i);
    cdyn__params_sync_slot(sys, i); /* its shape went with its constraints: a copy */
    cdyn__slots_release(&sys->particles, i);
    return CDYN_OK;
}

bool cdyn_particle_is_valid(const cdyn_system *sys, cdyn_particle p)
{
    uint32_t i;
    return sys && cdyn__slots_resolve(&sys->particles, p, CDYN__KIND_PARTICLE, sys->salt, &i) ==
                      CDYN_OK;
}

/* Common prologue of the getters: arguments present, handle live. */
static cdyn_status lookup(const cdyn_system *sys, cdyn_particle p, const void *ptr,
                          const char *what, uint32_t *slot)
{
    return cdyn__enter_object(sys, ptr, what, sys ? &sys->particles : NULL, p,
                              CDYN__KIND_PARTICLE, slot);
}

/* Prologue of the setters: also refuses changes from inside a step. */
static cdyn_status lookup_mut(cdyn_system *sys, cdyn_particle p, const void *ptr,
                              const char *what, uint32_t *slot)
{
    return cdyn__enter_object_change(sys, ptr, what, sys ? &sys->particles : NULL, p,
                                     CDYN__KIND_PARTICLE, slot);
}

cdyn_status cdyn_particle_get_index(const cdyn_system *sys, cdyn_particle p, size_t *out)
{
    uint32_t i;
    cdyn_status st = lookup(sys, p, out, "particle_get_index", &i);
    if (!st)
        *out = i;
    return st;
}

cdyn_status cdyn_particle_get_position(const cdyn_system *sys, cdyn_particle p, double *out)
{
    uint32_t i;
    cdyn_status st = lookup(sys, p, out, "particle_get_position", &i);
    if (!st) {
        memcpy(out, sys->x + (size_t)i * (size_t)sys->dim, (size_t)sys->dim * sizeof(double));
        if (sys->box) /* wrapped into a periodic box */
            cdyn__box_wrap_point(sys->box, sys->dim, out, out);
    }
    return st;
}

cdyn_status cdyn_particle_get_velocity(const cdyn_system *sys, cdyn_particle p, double *out)
{
    uint32_t i;
    cdyn_status st = lookup(sys, p, out, "particle_get_velocity", &i);
    if (!st)
        memcpy(out, sys->v + (size_t)i * (size_t)sys->dim, (size_t)sys->dim * sizeof(double));
    return st;
}

/* A kinematic particle's state and mass belong to its motion. */
static cdyn_status refuse_kinematic(const cdyn_system *sys, uint32_t slot, const char *what)
{
    if (!cdyn__is_kinematic(sys, slot))
        return CDYN_OK;
    return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                      "%s: the particle follows a prescribed motion, which sets its position "
                      "and velocity; release it first (cdyn_particle_set_motion with NULL)",
                      what);
}

static cdyn_status set_vector(cdyn_system *sys, cdyn_particle p, const double *in, double *dst,
                              const char *what)
{
    const uint64_t mark = cdyn__failure_mark(sys);
    uint32_t i;
    cdyn_status st = lookup_mut(sys, p, in, what, &i);
    if (st || (st = cdyn__holders_refuse_body(sys, i, what)) ||
        (st = refuse_kinematic(sys, i, what)))
        return st;
    size_t d = (size_t)sys->dim;
    if (!cdyn__all_finite(in, d))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: non-finite value", what);
    /* Positions may move (a particle on a shape is placed anew even when
     * only its velocity is set): lazily stored Jacobians are written first. */
    cdyn__constraints_materialize_jac(sys);
    double old[3];
    memcpy(old, dst + (size_t)i * d, d * sizeof(double));
    memcpy(dst + (size_t)i * d, in, d * sizeof(double));
    /* A particle on a shape is projected onto it; a failure (a callback
     * shape) puts the old value back. */
    if ((st = cdyn__params_sync_slot(sys, i)))
        memcpy(dst + (size_t)i * d, old, d * sizeof(double));
    else if (dst == sys->x) /* a periodic box's image counter follows */
        cdyn__box_position_set(sys, i, old, in);
    return cdyn__blame(sys, st, mark, what, NULL);
}

cdyn_status cdyn_particle_set_position(cdyn_system *sys, cdyn_particle p, const double *position)
{
    return set_vector(sys, p, position, sys ? sys->x : NULL, "particle_set_position");
}

cdyn_status cdyn_particle_set_velocity(cdyn_system *sys, cdyn_particle p, const double *velocity)
{
    return set_vector(sys, p, velocity, sys ? sys->v : NULL, "particle_set_velocity");
}

cdyn_status cdyn_particle_get_mass(const cdyn_system *sys, cdyn_particle p, double *out)
{
    uint32_t i;
    cdyn_status st = lookup(sys, p, out, "particle_get_mass", &i);
    if (!st)
        *out = sys->mass[i];
    return st;
}

cdyn_status cdyn_particle_set_mass(cdyn_system *sys, cdyn_particle p, double mass)
{
    uint32_t i;
    cdyn_status st = lookup_mut(sys, p, &mass, "particle_set_mass", &i);
    if (st || (st = cdyn__holders_refuse_body(sys, i, "particle_set_mass")) ||
        (st = refuse_kinematic(sys, i, "particle_set_mass")))
        return st;
    if (!valid_mass(mass))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "particle_set_mass: mass %g must be finite and > 0", mass);
    sys->mass[i] = mass;
    sys->inv_mass[i] = sys->fixed[i] ? 0.0 : 1.0 / mass;
    return CDYN_OK;
}

cdyn_status cdyn_particle_set_fixed(cdyn_system *sys, cdyn_particle p, bool fixed)
{
    uint32_t i;
    cdyn_status st = lookup_mut(sys, p, &fixed, "particle_set_fixed", &i);
    if (st || (st = cdyn__holders_refuse_body(sys, i, "particle_set_fixed")) ||
        (st = refuse_kinematic(sys, i, "particle_set_fixed")))
        return st;
    if (sys->fixed[i] != (uint8_t)fixed)
        cdyn__constraints_touch(sys); /* fixed particles couple no rows */
    sys->fixed[i] = fixed ? 1 : 0;
    sys->inv_mass[i] = fixed ? 0.0 : 1.0 / sys->mass[i];
    return CDYN_OK;
}

cdyn_status cdyn_particle_get_fixed(const cdyn_system *sys, cdyn_particle p, bool *out)
{
    uint32_t i;
    cdyn_status st = lookup(sys, p, out, "particle_get_fixed", &i);
    if (!st)
        *out = sys->fixed[i] != 0;
    return st;
}
