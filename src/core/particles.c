/* The particle slots: lookup and growth of the per-slot arrays. */
#include <string.h>

#include "core/box.h"
#include "core/lookup.h"
#include "core/system.h"

cdyn_status cdyn__particle_slot(const cdyn_system *sys, cdyn_particle p, uint32_t *slot)
{
    return cdyn__resolve(sys, &sys->particles, p, CDYN__KIND_PARTICLE, slot);
}

cdyn_status cdyn__particles_reserve(cdyn_system *sys)
{
    if (!cdyn__slots_full(&sys->particles))
        return CDYN_OK;
    if (sys->particles.capacity >= UINT32_MAX - 1u)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "particle_add: too many particles");
    size_t pd = (size_t)sys->dim * sizeof(double);
    void **arrays[] = {(void **)&sys->x,        (void **)&sys->v,    (void **)&sys->x_new,
                       (void **)&sys->v_new,    (void **)&sys->mass, (void **)&sys->inv_mass,
                       (void **)&sys->fixed,    (void **)&sys->kinematic,
                       (void **)&sys->u,        (void **)&sys->ud,   (void **)&sys->param_of};
    size_t sizes[] = {pd, pd, pd, pd, sizeof(double), sizeof(double), sizeof(uint8_t),
                      sizeof(uint8_t), pd, pd, sizeof(struct cdyn__param *)};
    /* The generalized state has arrays of its own only while particles are
     * on shapes; otherwise it aliases x, v. */
    size_t n_arrays = sys->param_of ? 11 : 8;
    uint32_t cap = cdyn__grown_capacity(sys->particles.capacity, sys->particles.capacity + 1u);
    /* A periodic box's image counters first: grown alone they are harmless. */
    if (cdyn__box_reserve_images(sys, cap))
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY,
                          "particle_add: out of memory growing to %u particles", cap);
    cdyn_status st = cdyn__slots_grow(&sys->particles, &sys->alloc, cap, n_arrays, arrays, sizes);
    if (st)
        return cdyn__fail(sys, st, "particle_add: out of memory growing to %u particles", cap);
    if (!sys->param_of) {
        sys->u = sys->x;
        sys->ud = sys->v;
    }
    return CDYN_OK;
}
