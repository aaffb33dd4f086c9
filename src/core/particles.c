/* The particle slots: lookup and growth of the per-slot arrays. */
#include <string.h>

#include "core/box.h"
#include "core/lookup.h"
#include "core/system.h"

cdyn_status cdyn__particle_slot(const cdyn_system *sys, cdyn_particle p, const char *what,
                                uint32_t *slot)
{
    return cdyn__resolve(sys, &sys->particles, p, CDYN__KIND_PARTICLE, slot, what);
}

cdyn_status cdyn__particles_reserve(cdyn_system *sys)
{
    if (!cdyn__slots_full(&sys->particles))
        return CDYN_OK;
    if (sys->particles.capacity >= UINT32_MAX - 1u)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "particle_add: too many particles");
    size_t pd = (size_t)sys->dim * sizeof(double);
    void **arrays[13] = {(void **)&sys->x,        (void **)&sys->v,    (void **)&sys->x_new,
                         (void **)&sys->v_new,    (void **)&sys->mass, (void **)&sys->inv_mass,
                         (void **)&sys->fixed,    (void **)&sys->kinematic};
    size_t sizes[13] = {pd, pd, pd, pd, sizeof(double), sizeof(double), sizeof(uint8_t),
                        sizeof(uint8_t)};
    size_t n_arrays = 8;
    /* Optional per-slot arrays grow with the others once they exist. The
     * generalized state has arrays of its own only while particles are on
     * shapes; otherwise it aliases x, v. */
    if (sys->param_of) {
        arrays[n_arrays] = (void **)&sys->u, sizes[n_arrays++] = pd;
        arrays[n_arrays] = (void **)&sys->ud, sizes[n_arrays++] = pd;
        arrays[n_arrays] = (void **)&sys->param_of;
        sizes[n_arrays++] = sizeof(struct cdyn__param *);
    }
    if (sys->applied_held) {
        arrays[n_arrays] = (void **)&sys->applied_held, sizes[n_arrays++] = pd;
        arrays[n_arrays] = (void **)&sys->applied_next, sizes[n_arrays++] = pd;
    }
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
