/* The rigid bodies section of a snapshot. A body's state follows from its
 * members' (rigid/rigid.h); what it fixed when it was made is saved as it
 * is, so that the loaded body moves to the same bits.
 *
 *     u8 present; then the slot pool and per live body
 *       u32 members, u8 scheme, u32 x members (particle slots),
 *       f64 x 3 members (body-frame offsets), f64 mass, f64 x 9 inertia,
 *       f64 x 9 its inverse */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/holders.h"
#include "core/system.h"
#include "rigid/rigid.h"
#include "snapshot/snapshot.h"

static void save_one(cdyn__save *S, const cdyn__rigid *r)
{
    cdyn__out_u32(&S->w, r->n);
    cdyn__out_u8(&S->w, r->scheme);
    cdyn__out_u32s(&S->w, r->member, r->n);
    cdyn__out_f64s(&S->w, r->b, 3 * (size_t)r->n);
    cdyn__out_f64(&S->w, r->mass);
    cdyn__out_f64s(&S->w, r->ib, 9);
    cdyn__out_f64s(&S->w, r->ib_inv, 9);
}

void cdyn__save_rigids(cdyn__save *S)
{
    const cdyn__rigids *k = S->sys->rigids;
    cdyn__out_u8(&S->w, k ? 1 : 0);
    if (!k)
        return;
    cdyn__save_slots(S, &k->slots);
    for (uint32_t i = 0; i < k->slots.count; i++)
        if (k->slots.alive[i])
            save_one(S, &k->r[i]);
}

/* Reads body @p i; its members join it only when it is whole. */
static bool load_one(cdyn__load *L, cdyn__rigid *r, uint32_t i)
{
    cdyn__win *r_in = &L->r;
    cdyn_system *sys = L->sys;
    const cdyn_allocator *a = &sys->alloc;
    memset(r, 0, sizeof *r);
    uint32_t n = cdyn__in_u32(r_in);
    uint8_t scheme = cdyn__in_u8(r_in);
    if (!cdyn__load_ok(L))
        return false;
    if (n < 2 || n > sys->particles.live ||
        (scheme != CDYN_RIGID_FIRST_ORDER && scheme != CDYN_RIGID_SECOND_ORDER))
        return cdyn__in_fail(r_in, "rigid body: %u members or scheme %u out of range", n, scheme);
    if (!cdyn__in_room(&L->r, n, 28, "rigid body"))
        return false;
    r->member = cdyn__alloc_array(a, n, sizeof *r->member);
    r->b = cdyn__alloc_array(a, n, 3 * sizeof *r->b);
    if (!r->member || !r->b) {
        cdyn__free_array(a, r->member, n, sizeof *r->member);
        cdyn__free_array(a, r->b, n, 3 * sizeof *r->b);
        r->member = NULL;
        r->b = NULL;
        return cdyn__load_oom(L, "rigid body");
    }
    r->n = n;
    r->scheme = scheme;
    cdyn__in_u32s(r_in, r->member, n);
    cdyn__in_finites(r_in, r->b, 3 * (size_t)n, "rigid body offsets");
    r->mass = cdyn__in_finite(r_in, "rigid body mass");
    cdyn__in_finites(r_in, r->ib, 9, "rigid body inertia");
    cdyn__in_finites(r_in, r->ib_inv, 9, "rigid body inverse inertia");
    if (cdyn__load_ok(L) && !(r->mass > 0))
        cdyn__in_fail(r_in, "rigid body: mass %g", r->mass);
    /* Members: live, movable, unconstrained, in no other body (nor twice
     * in this one: marked with this body as they are checked). */
    uint32_t marked = 0;
    for (; marked < n && cdyn__load_ok(L); marked++) {
        uint32_t s = r->member[marked];
        if (s >= sys->particles.count || !sys->particles.alive[s] || sys->fixed[s] ||
            sys->kinematic[s] || cdyn__holder_constraints(sys, s) ||
            cdyn__holder_body(sys, s)) {
            cdyn__in_fail(r_in, "rigid body: member %u (slot %u) is removed, fixed, "
                                "kinematic, constrained or in a body already", marked, s);
            break;
        }
        cdyn__holders_set_body(sys, s, i + 1);
    }
    if (!cdyn__load_ok(L)) {
        for (uint32_t j = 0; j < marked; j++)
            cdyn__holders_set_body(sys, r->member[j], 0);
        cdyn__free_array(a, r->member, n, sizeof *r->member);
        cdyn__free_array(a, r->b, n, 3 * sizeof *r->b);
        memset(r, 0, sizeof *r);
        return false;
    }
    for (uint32_t j = 0; j < n; j++)
        sys->inv_mass[r->member[j]] = 0; /* moved by the body */
    return true;
}

bool cdyn__load_rigids(cdyn__load *L)
{
    cdyn_system *sys = L->sys;
    if (!cdyn__in_flag(&L->r, "rigid bodies: present"))
        return cdyn__load_ok(L);
    if (!(sys->rigids = cdyn__calloc_array(&sys->alloc, 1, sizeof *sys->rigids)))
        return cdyn__load_oom(L, "rigid bodies");
    if (cdyn__holders_reserve(sys, 1, "rigid bodies"))
        return cdyn__load_oom(L, "rigid bodies");
    cdyn__rigids *k = sys->rigids;
    void **arrays[] = {(void **)&k->r};
    const size_t sizes[] = {sizeof(cdyn__rigid)};
    uint8_t *alive;
    if (!cdyn__load_slots(L, &k->slots, 1, arrays, sizes, 37, &alive, "rigid bodies"))
        return false;
    for (uint32_t i = 0; i < k->slots.count && cdyn__load_ok(L); i++)
        if (alive[i] && load_one(L, &k->r[i], i))
            cdyn__slots_revive(&k->slots, i);
    cdyn__load_free_alive(L, alive, k->slots.count);
    return cdyn__load_ok(L);
}
