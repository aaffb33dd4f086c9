/* A pair set's neighbour list in a snapshot: the pairs it holds are the
 * order in which the next forces are summed, so a list is saved as it is
 * rather than built again (a build at other positions would find the
 * pairs in another order).
 *
 *     u8 flags (1 held, 2 periodic, 4 ascending, 8 to grow), f64 skin of
 *     the build, u64 box epoch of the build, builds, pairs the last build
 *     that did not fit needed (unshifted, through faces), room (unshifted,
 *     through faces); when held, with n the set's members:
 *       u32 x n members in sorted order, f64 x n dim positions at the
 *       build, periodic: f64 x n dim box lengths added at the build and
 *       f64 x 3 box lengths, u32 x (n + 1) starts, u32 per entry the
 *       sorted position met, u64 s and per pair through faces u32 x 2
 *       sorted positions, u8 x s shift codes
 *
 * The positions are the build's bits, finite or not (a build may see a
 * trial state). A list not held keeps only its counters and room: its
 * flags, skin and epoch are written as zeros. The slots and radii in
 * sorted order, the kernel's ring and the members with pairs through
 * faces follow from the rest.
 *
 * The room decides whether a later build fits (one that does not makes
 * that evaluation search the cells, in another order), so it is restored
 * as it was, up to 16 bytes of room per byte of snapshot: a list needs
 * more only when it once held several times the pairs of every member
 * saved, and a load refuses it. */
#include <string.h>

#include "core/alloc.h"
#include "core/system.h"
#include "pair/cell_list.h"
#include "pair/pair.h"
#include "snapshot/snapshot.h"

enum { HELD = 1, PERIODIC = 2, ASCENDING = 4, GROW = 8 };

void cdyn__save_neighbors(cdyn__save *S, const cdyn__pair *p)
{
    const cdyn__nlist *nl = &p->list;
    const bool held = nl->valid && nl->n == p->n; /* a build covers every member */
    const size_t nd = (size_t)nl->n * (size_t)nl->dim;
    cdyn__out_u8(&S->w, (uint8_t)((held ? HELD : 0) | (held && nl->periodic ? PERIODIC : 0) |
                                  (held && nl->ascending ? ASCENDING : 0) |
                                  (nl->grow ? GROW : 0)));
    cdyn__out_f64(&S->w, held ? nl->skin_used : 0.0);
    cdyn__out_u64(&S->w, held ? nl->epoch : 0);
    const uint64_t counts[5] = {nl->builds, nl->need, nl->need_sh, nl->nbr_cap, nl->sh_cap};
    for (int i = 0; i < 5; i++)
        cdyn__out_u64(&S->w, counts[i]);
    if (!held)
        return;
    cdyn__out_u32s(&S->w, nl->order, nl->n);
    cdyn__out_f64s(&S->w, nl->pos0, nd);
    if (nl->periodic) {
        cdyn__out_f64s(&S->w, nl->off, nd);
        cdyn__out_f64s(&S->w, nl->len, 3);
    }
    cdyn__out_u32s(&S->w, nl->start, (size_t)nl->n + 1);
    cdyn__out_u32s(&S->w, nl->nbr, nl->start[nl->n]);
    cdyn__out_u64(&S->w, nl->n_sh);
    cdyn__out_u32s(&S->w, nl->sh, 2 * nl->n_sh);
    for (size_t i = 0; i < nl->n_sh; i++)
        cdyn__out_u8(&S->w, nl->sh_code[i]);
}

/* The members in sorted order: a permutation (has_sh serves as the marks,
 * cdyn__nlist_index sets it after). */
static bool load_order(cdyn__load *L, cdyn__nlist *nl, const cdyn__pair *p)
{
    cdyn__win *r = &L->r;
    const uint32_t n = p->n;
    cdyn__in_u32s(r, nl->order, n);
    memset(nl->has_sh, 0, n * sizeof *nl->has_sh);
    for (uint32_t q = 0; q < n && cdyn__load_ok(L); q++) {
        uint32_t k = nl->order[q];
        if (k >= n || nl->has_sh[k])
            return cdyn__in_fail(r, "neighbour list: sorted position %u holds member %u twice "
                                    "or out of range", q, k);
        nl->has_sh[k] = 1;
        nl->sslot[q] = p->slot[k];
        if (p->rad)
            nl->srad[q] = p->rad[k];
    }
    return cdyn__load_ok(L);
}

/* The unshifted pairs: start[p] .. start[p + 1] in order, partners other
 * than p (after p in an ascending list), within the room. */
static bool load_pairs(cdyn__load *L, cdyn__nlist *nl, uint32_t n)
{
    cdyn__win *r = &L->r;
    if (!cdyn__in_room(r, (uint64_t)n + 1, 4, "neighbour list"))
        return false;
    cdyn__in_u32s(r, nl->start, (size_t)n + 1);
    for (uint32_t q = 0; q < n && cdyn__load_ok(L); q++)
        if (nl->start[q + 1] < nl->start[q])
            return cdyn__in_fail(r, "neighbour list: starts decrease at %u", q);
    const size_t total = nl->start[n];
    if (!cdyn__load_ok(L) || nl->start[0] != 0 || total > nl->nbr_cap || total == UINT32_MAX ||
        !cdyn__in_room(r, total, 4, "neighbour list"))
        return cdyn__in_fail(r, "neighbour list: %zu pairs do not fit its room %zu", total,
                             nl->nbr_cap);
    if (total)
        cdyn__in_u32s(r, nl->nbr, total);
    for (uint32_t q = 0; q < n && cdyn__load_ok(L); q++)
        for (uint32_t e = nl->start[q]; e < nl->start[q + 1]; e++) {
            uint32_t m = nl->nbr[e];
            if (m >= n || m == q || (nl->ascending && m < q))
                return cdyn__in_fail(r, "neighbour list: member %u meets %u", q, m);
        }
    return cdyn__load_ok(L);
}

/* The pairs through faces: positions in range, a shift that is one. */
static bool load_shifted(cdyn__load *L, cdyn__nlist *nl, uint32_t n)
{
    cdyn__win *r = &L->r;
    uint64_t s = cdyn__in_u64(r);
    if (!cdyn__load_ok(L))
        return false;
    if (s > nl->sh_cap || (s && !nl->periodic))
        return cdyn__in_fail(r, "neighbour list: %llu pairs through faces, room %zu",
                             (unsigned long long)s, nl->sh_cap);
    if (!cdyn__in_room(r, s, 9, "neighbour list"))
        return false;
    nl->n_sh = (size_t)s;
    cdyn__in_u32s(r, nl->sh, 2 * nl->n_sh);
    for (size_t i = 0; i < nl->n_sh && cdyn__load_ok(L); i++) {
        uint8_t code = cdyn__in_u8(r);
        uint32_t a = nl->sh[2 * i], b = nl->sh[2 * i + 1];
        if (a >= n || b >= n || code >= 27 || code == CDYN__NO_SHIFT)
            return cdyn__in_fail(r, "neighbour list: pair %zu through faces (%u, %u, shift %u)",
                                 i, a, b, code);
        nl->sh_code[i] = code;
    }
    return cdyn__load_ok(L);
}

bool cdyn__load_neighbors(cdyn__load *L, cdyn__pair *p)
{
    cdyn__win *r = &L->r;
    cdyn__nlist *nl = &p->list;
    const size_t nd = (size_t)p->n * (size_t)nl->dim;
    uint8_t flags = cdyn__in_u8(r);
    double skin = cdyn__in_finite(r, "neighbour list: skin");
    uint64_t epoch = cdyn__in_u64(r), counts[5];
    for (int i = 0; i < 5; i++)
        counts[i] = cdyn__in_u64(r);
    if (!cdyn__load_ok(L))
        return false;
    const bool held = flags & HELD;
    if (flags > 15 || skin < 0 ||
        (!held && ((flags & (PERIODIC | ASCENDING)) || skin != 0 || epoch != 0)))
        return cdyn__in_fail(r, "neighbour list: flags 0x%x, skin %g", flags, skin);
    /* The room: 4 bytes per unshifted entry, 9 per pair through faces. */
    const uint64_t room = L->size * 16;
    if (counts[3] > room / 4 || counts[4] > room / 9 ||
        4 * counts[3] + 9 * counts[4] > room)
        return cdyn__in_fail(r, "neighbour list: room for %llu + %llu pairs is more than a "
                                "snapshot of %zu bytes restores",
                             (unsigned long long)counts[3], (unsigned long long)counts[4],
                             L->size);
    if (cdyn__nlist_reserve(nl, &L->sys->alloc, (size_t)counts[3], (size_t)counts[4]))
        return cdyn__load_oom(L, "neighbour list");
    nl->builds = counts[0];
    nl->need = (size_t)counts[1];
    nl->need_sh = (size_t)counts[2];
    nl->grow = (flags & GROW) != 0;
    if (!held)
        return true;
    nl->skin_used = skin;
    nl->epoch = epoch;
    nl->periodic = (flags & PERIODIC) != 0;
    nl->ascending = (flags & ASCENDING) != 0;
    if (!cdyn__in_room(r, p->n, 4 + 8 * (size_t)nl->dim, "neighbour list") ||
        !load_order(L, nl, p))
        return false;
    cdyn__in_f64s(r, nl->pos0, nd);
    memcpy(nl->pos, nl->pos0, nd * sizeof *nl->pos);
    if (nl->periodic) {
        cdyn__in_f64s(r, nl->off, nd);
        cdyn__in_finites(r, nl->len, 3, "neighbour list: box lengths");
    }
    if (!load_pairs(L, nl, p->n) || !load_shifted(L, nl, p->n))
        return false;
    nl->n = p->n;
    cdyn__nlist_index(nl, UINT32_MAX, false);
    nl->valid = true;
    return true;
}
