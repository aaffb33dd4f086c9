/* The accelerations one step leaves for the next (step/reuse.h). */
#include "step/reuse.h"

#include <string.h>

#include "core/alloc.h"
#include "core/box.h"
#include "core/system.h"
#include "constraint/constraint.h"
#include "ground/ground.h"
#include "projection/projection.h"
#include "step/langevin_state.h"

bool cdyn__reuse_applies(const cdyn_system *sys)
{
    const bool rattle = sys->integrator == CDYN_INTEGRATOR_RATTLE;
    if (sys->integrator != CDYN_INTEGRATOR_VELOCITY_VERLET && !rattle)
        return false;
    const bool rows = sys->cons && sys->cons->n_rows > 0;
    /* The drive work sums each evaluation's power: those systems evaluate
     * at every start (so do systems with kinematic particles, which drive
     * them). */
    return sys->n_velocity_dependent == 0 && !cdyn__grounds_velocity_dependent(sys) &&
           !sys->param_of && !sys->rigids && !sys->drives && !sys->kin && (rattle || !rows) &&
           !(!rattle && cdyn__projection_enabled(sys));
}

cdyn_status cdyn__reuse_prepare(cdyn_system *sys)
{
    if (!cdyn__reuse_applies(sys))
        return CDYN_OK;
    size_t need = (size_t)sys->particles.capacity * (size_t)sys->dim;
    cdyn__reuse *r = sys->reuse;
    if (r && r->cap >= need)
        return CDYN_OK;
    const cdyn_allocator *a = &sys->alloc;
    if (!r) {
        r = a->alloc(sizeof *r, a->user);
        if (!r)
            return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "step: out of memory");
        memset(r, 0, sizeof *r);
        sys->reuse = r;
    }
    double *acc = cdyn__alloc_array(a, need, sizeof *acc);
    if (!acc)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "step: out of memory for %zu accelerations",
                          need);
    cdyn__free_array(a, r->acc, r->cap, sizeof *r->acc);
    r->acc = acc;
    r->cap = need;
    r->valid = false;
    return CDYN_OK;
}

static uint64_t epoch_of(const cdyn_system *sys)
{
    return sys->box ? sys->box->epoch : 0;
}

const double *cdyn__reuse_start(cdyn_system *sys)
{
    cdyn__reuse *r = sys->reuse;
    if (!r || !r->valid || r->revision != sys->revision || r->epoch != epoch_of(sys) ||
        r->time != sys->time || r->integrator != sys->integrator ||
        r->langevin != cdyn__langevin_on(sys) || !cdyn__reuse_applies(sys))
        return NULL;
    r->reused++;
    return r->acc;
}

double *cdyn__reuse_target(cdyn_system *sys)
{
    cdyn__reuse *r = sys->reuse;
    size_t need = (size_t)sys->particles.count * (size_t)sys->dim;
    if (!r || r->cap < need || !cdyn__reuse_applies(sys))
        return NULL;
    r->filled = true;
    return r->acc;
}

void cdyn__reuse_after_step(cdyn_system *sys, bool committed)
{
    cdyn__reuse *r = sys->reuse;
    if (!r)
        return;
    /* A force applied for this step alone is gone from the next one. */
    r->valid = committed && r->filled && !sys->applied_next_on;
    r->filled = false;
    r->revision = sys->revision;
    r->epoch = epoch_of(sys);
    r->time = sys->time;
    r->integrator = sys->integrator;
    r->langevin = cdyn__langevin_on(sys);
}

void cdyn__reuse_destroy(cdyn_system *sys)
{
    cdyn__reuse *r = sys->reuse;
    if (!r)
        return;
    cdyn__free_array(&sys->alloc, r->acc, r->cap, sizeof *r->acc);
    sys->alloc.free(r, sizeof *r, sys->alloc.user);
    sys->reuse = NULL;
}
