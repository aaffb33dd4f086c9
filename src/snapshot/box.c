/* The periodic box section of a snapshot.
 *
 *     u8 store (a box was ever set); then u8 flags (1 present, 2 4 8
 *     periodic along x y z, 16 clusters linked and 32 made whole at the
 *     system's revision), f64 x 3 origin, f64 x 3 lengths (0 and 1 past
 *     the dimension), u64 epoch, u64 checks since the clusters were made
 *     whole, i64 per particle slot and axis the image counter
 *
 * A cleared box keeps its store and epoch (epochs never repeat). The
 * clusters are not saved: the saved flags say whether they were current,
 * and a load finds them again from the bonds, which have not changed
 * since (the revision is the same), without moving a particle. */
#include <math.h>
#include <string.h>

#include "box/box.h"
#include "core/alloc.h"
#include "core/system.h"
#include "snapshot/snapshot.h"

enum { PRESENT = 1, PERIODIC_X = 2, LINKED = 16, WHOLE = 32 };

void cdyn__save_box(cdyn__save *S)
{
    const cdyn_system *sys = S->sys;
    const cdyn__box *b = sys->box;
    cdyn__out_u8(&S->w, b ? 1 : 0);
    if (!b)
        return;
    unsigned flags = b->present ? PRESENT : 0;
    for (int k = 0; k < 3; k++)
        flags |= b->periodic[k] ? (unsigned)PERIODIC_X << k : 0;
    const bool whole = b->any_periodic && b->whole_valid && b->made_whole == sys->revision;
    if (whole || (b->any_periodic && b->links_valid && b->linked == sys->revision))
        flags |= LINKED;
    if (whole)
        flags |= WHOLE;
    cdyn__out_u8(&S->w, (uint8_t)flags);
    cdyn__out_f64s(&S->w, b->lo, 3);
    cdyn__out_f64s(&S->w, b->len, 3);
    cdyn__out_u64(&S->w, b->epoch);
    cdyn__out_u64(&S->w, b->checks);
    const size_t d = (size_t)sys->dim;
    for (uint32_t s = 0; s < sys->particles.count; s++)
        for (size_t k = 0; k < d; k++)
            cdyn__out_u64(&S->w, (uint64_t)cdyn__box_image(b, s, (int)k));
}

/* The geometry as cdyn_system_set_box accepts it; past the dimension, the
 * values it stores there. */
static bool geometry_ok(const cdyn__box *b, int dim, unsigned flags)
{
    for (int k = 0; k < 3; k++) {
        const double lo = b->lo[k], len = b->len[k];
        if (k >= dim) {
            if (lo != 0 || len != 1 || (flags & (unsigned)PERIODIC_X << k))
                return false;
        } else if (cdyn__box_axis_problem(lo, len)) {
            return false;
        }
    }
    return true;
}

bool cdyn__load_box(cdyn__load *L)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    if (!cdyn__in_flag(r, "box: store"))
        return cdyn__load_ok(L);
    uint8_t flags = cdyn__in_u8(r);
    cdyn__box box;
    memset(&box, 0, sizeof box);
    cdyn__in_f64s(r, box.lo, 3);
    cdyn__in_f64s(r, box.len, 3);
    box.epoch = cdyn__in_u64(r);
    box.checks = cdyn__in_u64(r);
    if (!cdyn__load_ok(L))
        return false;
    const bool periodic = (flags & (PERIODIC_X | PERIODIC_X << 1 | PERIODIC_X << 2)) != 0;
    if (flags > 63 || !geometry_ok(&box, sys->dim, flags) || (!(flags & PRESENT) && periodic) ||
        ((flags & LINKED) && !periodic) || ((flags & WHOLE) && !(flags & LINKED)))
        return cdyn__in_fail(r, "box: flags 0x%x or geometry out of range", flags);
    const size_t d = (size_t)sys->dim, n = (size_t)sys->particles.count * d;
    if (!cdyn__in_room(r, n, 8, "box: image counters"))
        return false;
    cdyn__box *b = sys->alloc.alloc(sizeof *b, sys->alloc.user);
    if (!b)
        return cdyn__load_oom(L, "box");
    *b = box;
    b->dim = sys->dim;
    b->present = (flags & PRESENT) != 0;
    for (int k = 0; k < 3; k++) {
        b->periodic[k] = (flags & (unsigned)PERIODIC_X << k) != 0;
        b->any_periodic = b->any_periodic || b->periodic[k];
        b->inv_len[k] = 1.0 / b->len[k];
        b->half[k] = 0.5 * b->len[k];
    }
    sys->box = b;
    if (cdyn__box_reserve_images(sys, sys->particles.capacity))
        return cdyn__load_oom(L, "box: image counters");
    for (size_t i = 0; i < n; i++)
        b->image[i] = (int64_t)cdyn__in_u64(r);
    for (uint32_t s = 0; s < sys->particles.count && cdyn__load_ok(L); s++)
        for (size_t k = 0; k < d; k++)
            if (cdyn__box_image(b, s, (int)k) != 0 &&
                (!sys->particles.alive[s] || !b->periodic[k]))
                return cdyn__in_fail(r, "box: particle slot %u has an image counter along an "
                                        "axis that is not periodic, or is removed", s);
    if (cdyn__load_ok(L) && (flags & LINKED) &&
        cdyn__box_restore_clusters(sys, (flags & WHOLE) != 0))
        return cdyn__load_oom(L, "box: clusters");
    return cdyn__load_ok(L);
}
