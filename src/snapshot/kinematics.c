/* The kinematic particles section of a snapshot: in the order they became
 * kinematic, each particle's motion, the position it was attached at, and
 * the applied force and acceleration of the last evaluation (which the
 * drive work of the next one starts from).
 *
 *     u8 present; then u32 count and per entry u32 particle slot, motion,
 *     f64 x 3 reference, f64 x 3 force, f64 x 3 acceleration */
#include <string.h>

#include "core/alloc.h"
#include "core/system.h"
#include "generalized/generalized.h"
#include "kinematic/kinematic.h"
#include "snapshot/snapshot.h"

void cdyn__save_kinematics(cdyn__save *S)
{
    const cdyn__kinematics *k = S->sys->kin;
    cdyn__out_u8(&S->w, k ? 1 : 0);
    if (!k)
        return;
    cdyn__out_u32(&S->w, k->count);
    for (uint32_t j = 0; j < k->count; j++) {
        cdyn__out_u32(&S->w, k->slot[j]);
        cdyn__save_motion(S, &k->motion[j]);
        cdyn__out_f64s(&S->w, k->ref + 3 * (size_t)j, 3);
        cdyn__out_f64s(&S->w, k->force + 3 * (size_t)j, 3);
        cdyn__out_f64s(&S->w, k->accel + 3 * (size_t)j, 3);
    }
}

bool cdyn__load_kinematics(cdyn__load *L)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    const cdyn_allocator *a = &sys->alloc;
    uint32_t flagged = 0;
    for (uint32_t i = 0; i < sys->particles.count; i++)
        flagged += sys->kinematic[i];
    bool present = cdyn__in_flag(r, "kinematic particles: present");
    uint32_t count = present ? cdyn__in_u32(r) : 0;
    if (!cdyn__load_ok(L))
        return false;
    if (count != flagged)
        return cdyn__in_fail(r, "kinematic particles: %u listed, %u particles flagged", count,
                             flagged);
    if (!present)
        return true;
    /* Per entry: slot, a motion (at least 157 bytes) and three vectors. */
    if (!cdyn__in_room(r, count, 4 + 157 + 72, "kinematic particles"))
        return false;
    if (!(sys->kin = cdyn__calloc_array(a, 1, sizeof *sys->kin)))
        return cdyn__load_oom(L, "kinematic particles");
    cdyn__kinematics *k = sys->kin;
    if (count) {
        k->slot = cdyn__calloc_array(a, count, sizeof *k->slot);
        k->motion = cdyn__alloc_array(a, count, sizeof *k->motion);
        k->ref = cdyn__alloc_array(a, 3 * (size_t)count, sizeof *k->ref);
        k->force = cdyn__calloc_array(a, 3 * (size_t)count, sizeof *k->force);
        k->accel = cdyn__calloc_array(a, 3 * (size_t)count, sizeof *k->accel);
        k->capacity = count; /* set first: destroy frees by it */
        if (!k->slot || !k->motion || !k->ref || !k->force || !k->accel)
            return cdyn__load_oom(L, "kinematic particles");
    }
    /* Each flagged particle once: its flag reads 2 once listed, 1 again
     * after the loop. */
    for (uint32_t j = 0; j < count && cdyn__load_ok(L); j++) {
        uint32_t s = cdyn__in_u32(r);
        bool ok = s < sys->particles.count && sys->particles.alive[s] &&
                  sys->kinematic[s] == 1 && !cdyn__param_of(sys, s);
        if (ok)
            sys->kinematic[s] = 2;
        if (!ok) {
            cdyn__in_fail(r, "kinematic particle %u: slot %u is not a free kinematic particle or "
                             "listed twice", j, s);
            break;
        }
        k->slot[j] = s;
        if (!cdyn__load_motion(L, &k->motion[j]))
            break;
        cdyn__in_finites(r, k->ref + 3 * (size_t)j, 3, "kinematic reference");
        /* The last evaluation's, finite or not: read as bits. */
        cdyn__in_f64s(r, k->force + 3 * (size_t)j, 3);
        cdyn__in_f64s(r, k->accel + 3 * (size_t)j, 3);
        k->count = j + 1;
    }
    for (uint32_t j = 0; j < count; j++)
        if (k->slot[j] < sys->particles.count && sys->kinematic[k->slot[j]] == 2)
            sys->kinematic[k->slot[j]] = 1;
    return cdyn__load_ok(L);
}
