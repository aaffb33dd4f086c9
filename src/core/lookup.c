/* Handle lookup and its messages. */
#include "core/lookup.h"

#include "core/system.h"

static const char *kind_name(cdyn__kind kind)
{
    switch (kind) {
    case CDYN__KIND_PARTICLE:
        return "particle";
    case CDYN__KIND_FORCE:
        return "force";
    case CDYN__KIND_CONSTRAINT:
        return "constraint";
    case CDYN__KIND_GROUND:
        return "ground";
    case CDYN__KIND_RIGID:
        return "rigid body";
    }
    return "object";
}

cdyn_status cdyn__resolve(const cdyn_system *sys, const cdyn__slots *slots, uint64_t handle,
                          cdyn__kind kind, uint32_t *slot, const char *what)
{
    cdyn_status st = slots ? cdyn__slots_resolve(slots, handle, kind, sys->salt, slot)
                           : CDYN_ERR_INVALID_HANDLE;
    const char *name = kind_name(kind);
    if (st == CDYN_ERR_STALE_HANDLE)
        return cdyn__fail(sys, st, "%s: %s handle 0x%016llx refers to a %s %s", what, name,
                          (unsigned long long)handle,
                          kind == CDYN__KIND_RIGID ? "dissolved" : "removed", name);
    if (st)
        return cdyn__fail(sys, st, "%s: %s handle 0x%016llx is not a %s of this system", what,
                          name, (unsigned long long)handle, name);
    return CDYN_OK;
}

cdyn_status cdyn__enter_object(const cdyn_system *sys, const void *ptr, const char *what,
                               const cdyn__slots *slots, uint64_t handle, cdyn__kind kind,
                               uint32_t *slot)
{
    cdyn_status st = cdyn__enter_query(sys, ptr, what);
    return st ? st : cdyn__resolve(sys, slots, handle, kind, slot, what);
}

cdyn_status cdyn__enter_object_change(cdyn_system *sys, const void *ptr, const char *what,
                                      const cdyn__slots *slots, uint64_t handle,
                                      cdyn__kind kind, uint32_t *slot)
{
    cdyn_status st = cdyn__enter_change(sys, ptr, what);
    return st ? st : cdyn__resolve(sys, slots, handle, kind, slot, what);
}

uint64_t cdyn__handle_of(const cdyn_system *sys, const cdyn__slots *slots, cdyn__kind kind,
                         uint32_t slot)
{
    return cdyn__handle_make(kind, sys->salt, slots->generation[slot], slot);
}
