/* The forces kept for the next step in a snapshot (step/reuse.h): the
 * accelerations the last step ended with, when the next step would start
 * from them. A step that starts from them evaluates the forces once less,
 * which shows in the counters of pair sets; the values are the same.
 *
 *     u8 held; then f64 per particle slot and axis (their bits)
 *
 * They are held only while everything they depend on is as it was (the
 * revision, the box's epoch, the clock, the integrator, the thermostat):
 * the load restores them for the same, which it also restores. */
#include <string.h>

#include "core/alloc.h"
#include "core/box.h"
#include "core/system.h"
#include "snapshot/snapshot.h"
#include "step/langevin_state.h"
#include "step/reuse.h"

static uint64_t epoch_of(const cdyn_system *sys)
{
    return sys->box ? sys->box->epoch : 0;
}

/* Whether the next step of @p sys starts from the kept accelerations
 * (cdyn__reuse_start without counting). */
static bool held(const cdyn_system *sys)
{
    const cdyn__reuse *r = sys->reuse;
    return r && r->valid && r->revision == sys->revision && r->epoch == epoch_of(sys) &&
           r->time == sys->time && r->integrator == sys->integrator &&
           r->langevin == cdyn__langevin_on(sys) && cdyn__reuse_applies(sys) &&
           r->cap >= (size_t)sys->particles.count * (size_t)sys->dim;
}

void cdyn__save_kept_forces(cdyn__save *S)
{
    const cdyn_system *sys = S->sys;
    const bool h = held(sys);
    cdyn__out_u8(&S->w, h ? 1 : 0);
    if (h)
        cdyn__out_f64s(&S->w, sys->reuse->acc, (size_t)sys->particles.count * (size_t)sys->dim);
}

bool cdyn__load_kept_forces(cdyn__load *L)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    if (!cdyn__in_flag(r, "kept forces: held"))
        return cdyn__load_ok(L);
    const size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    if (n == 0 || !cdyn__reuse_applies(sys))
        return cdyn__in_fail(r, "kept forces: held where no step keeps them");
    if (!cdyn__in_room(r, n, 8, "kept forces"))
        return false;
    /* The room a step's preparation would give them. */
    const cdyn_allocator *a = &sys->alloc;
    const size_t cap = (size_t)sys->particles.capacity * (size_t)sys->dim;
    cdyn__reuse *k = cdyn__calloc_array(a, 1, sizeof *k);
    if (!k)
        return cdyn__load_oom(L, "kept forces");
    sys->reuse = k;
    if (!(k->acc = cdyn__alloc_array(a, cap, sizeof *k->acc)))
        return cdyn__load_oom(L, "kept forces");
    k->cap = cap;
    memset(k->acc, 0, cap * sizeof *k->acc);
    cdyn__in_f64s(r, k->acc, n);
    k->valid = true;
    k->revision = sys->revision;
    k->epoch = epoch_of(sys);
    k->time = sys->time;
    k->integrator = sys->integrator;
    k->langevin = cdyn__langevin_on(sys);
    return cdyn__load_ok(L);
}
