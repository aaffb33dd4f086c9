/* Per-particle holders: rigid body and constraint count. */
#include "core/holders.h"

#include <string.h>

#include "core/alloc.h"
#include "core/system.h"

uint32_t cdyn__holder_body(const cdyn_system *sys, uint32_t slot)
{
    return slot < sys->body_of_cap ? sys->body_of[slot] : 0;
}

uint32_t cdyn__holder_constraints(const cdyn_system *sys, uint32_t slot)
{
    return slot < sys->constraints_of_cap ? sys->constraints_of[slot] : 0;
}

cdyn_status cdyn__holders_refuse_body(const cdyn_system *sys, uint32_t slot, const char *what)
{
    if (!cdyn__holder_body(sys, slot))
        return CDYN_OK;
    return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                      "%s: particle index %u is part of a rigid body; dissolve the body first "
                      "(cdyn_rigid_remove) or move the body (cdyn_rigid_set_velocity, "
                      "cdyn_rigid_set_angular_velocity)",
                      what, slot);
}

cdyn_status cdyn__holders_reserve(cdyn_system *sys, int bodies, const char *what)
{
    uint32_t **arr = bodies ? &sys->body_of : &sys->constraints_of;
    uint32_t *cap = bodies ? &sys->body_of_cap : &sys->constraints_of_cap;
    uint32_t need = sys->particles.count;
    if (*cap >= need)
        return CDYN_OK;
    /* To the particles' capacity, which grows geometrically: particles and
     * constraints added in turn (a chain built link by link) then copy the
     * array O(log n) times, not once per link. */
    if (sys->particles.capacity > need)
        need = sys->particles.capacity;
    uint32_t *grown = cdyn__calloc_array(&sys->alloc, need, sizeof *grown);
    if (!grown)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
    if (*cap)
        memcpy(grown, *arr, *cap * sizeof *grown);
    cdyn__free_array(&sys->alloc, *arr, *cap, sizeof **arr);
    *arr = grown;
    *cap = need;
    return CDYN_OK;
}

void cdyn__holders_set_body(cdyn_system *sys, uint32_t slot, uint32_t body)
{
    sys->body_of[slot] = body;
}

void cdyn__holders_count_constraint(cdyn_system *sys, uint32_t slot, int delta)
{
    sys->constraints_of[slot] = (uint32_t)((int64_t)sys->constraints_of[slot] + delta);
}

void cdyn__holders_free(cdyn_system *sys)
{
    cdyn__free_array(&sys->alloc, sys->body_of, sys->body_of_cap, sizeof *sys->body_of);
    cdyn__free_array(&sys->alloc, sys->constraints_of, sys->constraints_of_cap,
                     sizeof *sys->constraints_of);
    sys->body_of = sys->constraints_of = NULL;
    sys->body_of_cap = sys->constraints_of_cap = 0;
}
