/* Kinematic particles: the list of their motions, their state at a time,
 * the power their motions deliver, and the public calls that make a
 * particle kinematic or release it (include/cdyn/particle.h). */
#include "kinematic/kinematic.h"

#include <string.h>

#include "cdyn/particle.h"
#include "constraint/constraint.h"
#include "core/alloc.h"
#include "core/holders.h"
#include "core/lookup.h"
#include "core/system.h"
#include "generalized/generalized.h"

cdyn_status cdyn__kinematics_place(const cdyn_system *sys, double t, double *x, double *v,
                                   double *a)
{
    const cdyn__kinematics *k = sys->kin;
    size_t d = (size_t)sys->dim;
    for (uint32_t j = 0; k && j < k->count; j++) {
        cdyn__frame f;
        cdyn_status st = cdyn__motion_frame(sys, &k->motion[j], t, &f);
        if (st)
            return st;
        double p[3], pv[3], pa[3];
        cdyn__frame_point(&f, k->ref + 3 * (size_t)j, p, pv, pa);
        size_t o = (size_t)k->slot[j] * d;
        memcpy(x + o, p, d * sizeof *x);
        memcpy(v + o, pv, d * sizeof *v);
        memcpy(k->accel + 3 * (size_t)j, pa, sizeof pa);
        if (a)
            memcpy(a + o, pa, d * sizeof *a);
    }
    return CDYN_OK;
}

void cdyn__kinematics_accelerations(const cdyn_system *sys, double *a)
{
    const cdyn__kinematics *k = sys->kin;
    size_t d = (size_t)sys->dim;
    for (uint32_t j = 0; k && j < k->count; j++)
        memcpy(a + (size_t)k->slot[j] * d, k->accel + 3 * (size_t)j, d * sizeof *a);
}

void cdyn__kinematics_save_forces(cdyn_system *sys, const double *f)
{
    cdyn__kinematics *k = sys->kin;
    size_t d = (size_t)sys->dim;
    for (uint32_t j = 0; k && j < k->count; j++) {
        double *out = k->force + 3 * (size_t)j;
        out[2] = 0.0;
        memcpy(out, f + (size_t)k->slot[j] * d, d * sizeof *out);
    }
}

double cdyn__kinematics_power(const cdyn_system *sys, const double *v)
{
    const cdyn__kinematics *k = sys->kin;
    size_t d = (size_t)sys->dim;
    double p = 0;
    for (uint32_t j = 0; k && j < k->count; j++) {
        size_t o = (size_t)k->slot[j] * d;
        double m = sys->mass[k->slot[j]];
        for (size_t q = 0; q < d; q++)
            p += (m * k->accel[3 * (size_t)j + q] - k->force[3 * (size_t)j + q]) * v[o + q];
    }
    return p;
}

/* The list's position of slot @p slot, or count. */
static uint32_t find(const cdyn__kinematics *k, uint32_t slot)
{
    uint32_t j = 0;
    while (k && j < k->count && k->slot[j] != slot)
        j++;
    return j;
}

static void free_lists(const cdyn_allocator *al, cdyn__kinematics *k)
{
    size_t c = k->capacity;
    cdyn__free_array(al, k->slot, c, sizeof *k->slot);
    cdyn__free_array(al, k->motion, c, sizeof *k->motion);
    cdyn__free_array(al, k->ref, 3 * c, sizeof *k->ref);
    cdyn__free_array(al, k->force, 3 * c, sizeof *k->force);
    cdyn__free_array(al, k->accel, 3 * c, sizeof *k->accel);
}

void cdyn__kinematics_destroy(cdyn_system *sys)
{
    cdyn__kinematics *k = sys->kin;
    if (!k)
        return;
    free_lists(&sys->alloc, k);
    cdyn__free_array(&sys->alloc, k, 1, sizeof *k);
    sys->kin = NULL;
}

/* Room for one more entry: the lists grown (copied) or created. */
static cdyn_status reserve(cdyn_system *sys, const char *what)
{
    const cdyn_allocator *al = &sys->alloc;
    if (!sys->kin && !(sys->kin = cdyn__calloc_array(al, 1, sizeof *sys->kin)))
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
    cdyn__kinematics *k = sys->kin;
    if (k->count < k->capacity)
        return CDYN_OK;
    cdyn__kinematics g = *k;
    g.capacity = cdyn__grown_capacity(k->capacity, k->capacity + 1u);
    size_t c = g.capacity;
    g.slot = cdyn__alloc_array(al, c, sizeof *g.slot);
    g.motion = cdyn__alloc_array(al, c, sizeof *g.motion);
    g.ref = cdyn__alloc_array(al, 3 * c, sizeof *g.ref);
    g.force = cdyn__calloc_array(al, 3 * c, sizeof *g.force);
    g.accel = cdyn__calloc_array(al, 3 * c, sizeof *g.accel);
    if (!g.slot || !g.motion || !g.ref || !g.force || !g.accel) {
        free_lists(al, &g);
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
    }
    if (k->count) {
        memcpy(g.slot, k->slot, k->count * sizeof *g.slot);
        memcpy(g.motion, k->motion, k->count * sizeof *g.motion);
        memcpy(g.ref, k->ref, 3 * (size_t)k->count * sizeof *g.ref);
    }
    free_lists(al, k);
    *k = g;
    return CDYN_OK;
}

/* Removes entry @p j, keeping the order of the others. */
static void drop(cdyn_system *sys, uint32_t j)
{
    cdyn__kinematics *k = sys->kin;
    uint32_t slot = k->slot[j], tail = k->count - j - 1;
    memmove(k->slot + j, k->slot + j + 1, tail * sizeof *k->slot);
    memmove(k->motion + j, k->motion + j + 1, tail * sizeof *k->motion);
    memmove(k->ref + 3 * (size_t)j, k->ref + 3 * (size_t)(j + 1), 3 * (size_t)tail * sizeof *k->ref);
    memmove(k->force + 3 * (size_t)j, k->force + 3 * (size_t)(j + 1),
            3 * (size_t)tail * sizeof *k->force);
    memmove(k->accel + 3 * (size_t)j, k->accel + 3 * (size_t)(j + 1),
            3 * (size_t)tail * sizeof *k->accel);
    k->count--;
    sys->kinematic[slot] = 0;
}

void cdyn__kinematic_forget(cdyn_system *sys, uint32_t slot)
{
    uint32_t j = find(sys->kin, slot);
    if (sys->kin && j < sys->kin->count)
        drop(sys, j);
}

/* Whether @p slot may follow a motion: not fixed, not in a rigid body, not
 * on a curve or surface. */
static cdyn_status refuse_holders(cdyn_system *sys, uint32_t slot, const char *what)
{
    cdyn_status st = cdyn__holders_refuse_body(sys, slot, what);
    if (st)
        return st;
    if (sys->fixed[slot])
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: the particle is fixed; release it (cdyn_particle_set_fixed) "
                          "before giving it a motion", what);
    if (cdyn__param_of(sys, slot))
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "%s: the particle is held on a curve or surface, which moves it; "
                          "move the shape instead (cdyn_constraint_set_motion)", what);
    return CDYN_OK;
}

cdyn_status cdyn_particle_set_motion(cdyn_system *sys, cdyn_particle p,
                                     const cdyn_motion_desc *motion)
{
    const char *what = "particle_set_motion";
    uint32_t slot;
    cdyn_status st = cdyn__enter_object_change(sys, sys, what, sys ? &sys->particles : NULL, p,
                                               CDYN__KIND_PARTICLE, &slot);
    if (st)
        return st;
    uint32_t j = find(sys->kin, slot);
    size_t d = (size_t)sys->dim;
    if (!motion) {
        if (!cdyn__is_kinematic(sys, slot))
            return CDYN_OK;
        drop(sys, j);
        sys->inv_mass[slot] = 1.0 / sys->mass[slot];
        cdyn__constraints_touch(sys); /* the particle couples rows again */
        return CDYN_OK;
    }
    if ((st = refuse_holders(sys, slot, what)))
        return st;
    const char *why = cdyn__motion_invalid(motion, sys->dim);
    if (why)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: %s", what, why);
    const uint64_t mark = cdyn__failure_mark(sys);
    cdyn__motion m;
    if ((st = cdyn__motion_attach(sys, &m, motion, sys->dim, sys->time)))
        return cdyn__blame(sys, st, mark, what, NULL);
    cdyn__frame f;
    if ((st = cdyn__motion_frame(sys, &m, sys->time, &f)))
        return cdyn__blame(sys, st, mark, what, NULL);
    if (!cdyn__is_kinematic(sys, slot) && (st = reserve(sys, what)))
        return st;
    cdyn__kinematics *k = sys->kin;
    if (!cdyn__is_kinematic(sys, slot)) {
        j = k->count++;
        k->slot[j] = slot;
    }
    double *ref = k->ref + 3 * (size_t)j, *x = sys->x + slot * d, w[3];
    ref[2] = 0.0;
    memcpy(ref, x, d * sizeof *ref);
    memset(k->force + 3 * (size_t)j, 0, 3 * sizeof *k->force);
    k->motion[j] = m;
    /* From now on the particle moves as the motion: it takes the velocity
     * of the carried material where it is. */
    cdyn__frame_velocity_at(&f, ref, w);
    cdyn__constraints_materialize_jac(sys);
    memcpy(sys->v + slot * d, w, d * sizeof *w);
    sys->kinematic[slot] = 1;
    sys->inv_mass[slot] = 0.0;
    cdyn__constraints_touch(sys); /* like a fixed particle, it couples no rows */
    cdyn__params_sync_slot(sys, slot); /* a free particle: a copy, cannot fail */
    return CDYN_OK;
}

cdyn_status cdyn_particle_get_motion(const cdyn_system *sys, cdyn_particle p,
                                     cdyn_motion_desc *out, bool *kinematic)
{
    uint32_t slot;
    cdyn_status st = cdyn__enter_object(sys, kinematic, "particle_get_motion",
                                        sys ? &sys->particles : NULL, p, CDYN__KIND_PARTICLE,
                                        &slot);
    if (st)
        return st;
    *kinematic = cdyn__is_kinematic(sys, slot);
    if (*kinematic && out)
        *out = sys->kin->motion[find(sys->kin, slot)].desc;
    return CDYN_OK;
}
