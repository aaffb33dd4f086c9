/* System lifetime, clock and integrator choice: the code that calls into
 * every module, above them all (bulk state: bulk.c). */
#include "core/system.h"

#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <string.h>

#include "box/box.h"
#include "constraint/constraint.h"
#include "core/alloc.h"
#include "core/finite.h"
#include "core/holders.h"
#include "force/applied.h"
#include "force/force.h"
#include "ground/ground.h"
#include "generalized/generalized.h"
#include "kinematic/kinematic.h"
#include "projection/projection.h"
#include "rigid/rigid.h"
#include "step/integrator.h"
#include "step/langevin.h"
#include "step/reuse.h"
#include "core/workspace.h"

/* A per-system salt so that handles of one system are refused by another.
 * Derived from the object's address: no global counter is needed, and two
 * live systems never share an address. */
static uint16_t salt_for(const void *p)
{
    uint64_t z = (uint64_t)(uintptr_t)p + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (uint16_t)(z & 0xfffu);
}

cdyn_status cdyn_system_create_with_allocator(int dim, const cdyn_allocator *allocator,
                                              cdyn_system **out)
{
    if (!out)
        return CDYN_ERR_INVALID_ARGUMENT;
    *out = NULL;
    cdyn_allocator a;
    if (dim != 2 && dim != 3)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!cdyn__allocator_init(&a, allocator))
        return CDYN_ERR_INVALID_ARGUMENT;
    /* The integrators' states follow the struct in the same block. */
    size_t head = (sizeof(cdyn_system) + alignof(max_align_t) - 1) / alignof(max_align_t) *
                  alignof(max_align_t);
    size_t total = head + cdyn__integrator_states_size();
    cdyn_system *sys = a.alloc(total, a.user);
    if (!sys)
        return CDYN_ERR_NO_MEMORY;
    memset(sys, 0, total);
    sys->alloc = a;
    sys->alloc_size = total;
    sys->dim = dim;
    sys->salt = salt_for(sys);
    sys->integrator = CDYN_INTEGRATOR_SYMPLECTIC_EULER;
    cdyn__tasks_init(&sys->tasks);
    cdyn__integrator_states_init(sys, (char *)sys + head);
    *out = sys;
    return CDYN_OK;
}

cdyn_status cdyn_system_create(int dim, cdyn_system **out)
{
    return cdyn_system_create_with_allocator(dim, NULL, out);
}

void cdyn_system_destroy(cdyn_system *sys)
{
    if (!sys)
        return;
    const cdyn_allocator a = sys->alloc;
    size_t pd = (size_t)sys->dim * sizeof(double);
    cdyn__params_leave_mode(sys);
    cdyn__forces_destroy(sys);
    cdyn__applied_free(sys);
    void **parrays[] = {(void **)&sys->x,        (void **)&sys->v,    (void **)&sys->x_new,
                        (void **)&sys->v_new,    (void **)&sys->mass, (void **)&sys->inv_mass,
                        (void **)&sys->fixed,    (void **)&sys->kinematic};
    size_t psizes[] = {pd,           pd,           pd,           pd, sizeof(double),
                       sizeof(double), sizeof(uint8_t), sizeof(uint8_t)};
    cdyn__slots_free(&sys->particles, &a, 8, parrays, psizes);
    cdyn__kinematics_destroy(sys);
    cdyn__workspace_free(sys);
    cdyn__constraints_destroy(sys);
    cdyn__projection_destroy(sys);
    cdyn__integrator_states_free(sys);
    cdyn__grounds_destroy(sys);
    cdyn__rigids_destroy(sys);
    cdyn__box_destroy(sys);
    cdyn__reuse_destroy(sys);
    cdyn__langevin_destroy(sys);
    cdyn__holders_free(sys);
    a.free(sys, sys->alloc_size, a.user);
}

int cdyn_system_get_dimension(const cdyn_system *sys)
{
    return sys ? sys->dim : 0;
}

const char *cdyn_system_last_error(const cdyn_system *sys)
{
    return sys ? sys->error : "no system (NULL)";
}

cdyn_status cdyn_system_get_time(const cdyn_system *sys, double *out)
{
    if (!sys || !out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "get_time: NULL argument");
    *out = sys->time;
    return CDYN_OK;
}

cdyn_status cdyn_system_set_time(cdyn_system *sys, double t)
{
    cdyn_status st = cdyn__check_mutable(sys, "set_time");
    if (st)
        return st;
    if (!isfinite(t))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "set_time: time %g is not finite", t);
    sys->time = t;
    return CDYN_OK;
}

cdyn_status cdyn_system_set_integrator(cdyn_system *sys, cdyn_integrator integrator)
{
    cdyn_status st = cdyn__check_mutable(sys, "set_integrator");
    if (st)
        return st;
    const cdyn__integrator *integ = cdyn__integrator_of(integrator);
    if (!integ)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "set_integrator: unknown integrator %d",
                          (int)integrator);
    sys->integrator = integrator;
    if (integ->on_select)
        integ->on_select(sys->integrator_state[integrator]);
    return CDYN_OK;
}

cdyn_status cdyn_system_get_integrator(const cdyn_system *sys, cdyn_integrator *out)
{
    if (!sys || !out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "get_integrator: NULL argument");
    *out = sys->integrator;
    return CDYN_OK;
}

cdyn_status cdyn_system_get_particle_count(const cdyn_system *sys, size_t *out)
{
    if (!sys || !out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "get_particle_count: NULL argument");
    *out = sys->particles.live;
    return CDYN_OK;
}

cdyn_status cdyn_system_get_index_count(const cdyn_system *sys, size_t *out)
{
    if (!sys || !out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "get_index_count: NULL argument");
    *out = sys->particles.count;
    return CDYN_OK;
}
