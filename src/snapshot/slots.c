/* Slot pools in snapshots: the generation of every slot ever used, which
 * are live, and the free list in its order, so that the handles of the
 * saved system stay valid (or stale) in the loaded one and the next object
 * added takes the same slot in both.
 *
 *     u32 count, u32 live, u32 n_free
 *     u32 per slot: generation | live << 16
 *     u32 per free slot: the free list, bottom first */
#include <string.h>

#include "core/alloc.h"
#include "core/system.h"
#include "snapshot/snapshot.h"

void cdyn__save_slots(cdyn__save *S, const cdyn__slots *s)
{
    cdyn__out_u32(&S->w, s->count);
    cdyn__out_u32(&S->w, s->live);
    cdyn__out_u32(&S->w, s->n_free);
    for (uint32_t i = 0; i < s->count; i++)
        cdyn__out_u32(&S->w, (uint32_t)s->generation[i] | (uint32_t)(s->alive[i] ? 1u << 16 : 0u));
    cdyn__out_u32s(&S->w, s->free_list, s->n_free);
}

void cdyn__load_free_alive(cdyn__load *L, uint8_t *alive, uint32_t count)
{
    cdyn__free_array(&L->sys->alloc, alive, count, sizeof *alive);
}

void cdyn__slots_revive(cdyn__slots *s, uint32_t i)
{
    s->alive[i] = 1;
    s->live++;
}

bool cdyn__load_slots(cdyn__load *L, cdyn__slots *s, size_t n, void **const arrays[],
                      const size_t sizes[], size_t min_bytes, uint8_t **alive, const char *what)
{
    cdyn__win *r = &L->r;
    *alive = NULL;
    uint32_t count = cdyn__in_u32(r), live = cdyn__in_u32(r), n_free = cdyn__in_u32(r);
    if (!cdyn__load_ok(L))
        return false;
    /* The largest count a pool reaches (cdyn__grown_capacity's bound). */
    if (count > UINT32_MAX - 1u || live > count || n_free > count - live)
        return cdyn__in_fail(r, "%s: %u slots with %u live and %u free do not add up", what,
                             count, live, n_free);
    if (!cdyn__in_room(r, count, 4, what) ||
        !cdyn__in_room(r, (uint64_t)live * min_bytes + 4 * (uint64_t)n_free, 1, what))
        return false;
    if (count == 0)
        return true;
    uint8_t *flags = cdyn__calloc_array(&L->sys->alloc, count, sizeof *flags);
    if (!flags)
        return cdyn__load_oom(L, what);
    if (cdyn__slots_grow(s, &L->sys->alloc, count, n, arrays, sizes)) {
        cdyn__free_array(&L->sys->alloc, flags, count, sizeof *flags);
        return cdyn__load_oom(L, what);
    }
    s->count = count;
    uint32_t n_live = 0;
    for (uint32_t i = 0; i < count && cdyn__load_ok(L); i++) {
        uint32_t v = cdyn__in_u32(r);
        uint16_t gen = (uint16_t)(v & 0xffffu);
        if (v >> 17 || ((v >> 16) && gen == UINT16_MAX))
            cdyn__in_fail(r, "%s: slot %u: word 0x%x is not a generation and a live flag", what,
                          i, v);
        s->generation[i] = gen;
        flags[i] = (uint8_t)(v >> 16);
        n_live += flags[i];
    }
    if (cdyn__load_ok(L) && n_live != live)
        cdyn__in_fail(r, "%s: %u slots are live, the count says %u", what, n_live, live);
    /* The free list holds every removed slot that is not retired (its
     * generation exhausted), each once; marked as met on the way. */
    uint32_t n_open = 0;
    for (uint32_t i = 0; i < count; i++)
        n_open += !flags[i] && s->generation[i] != UINT16_MAX;
    if (cdyn__load_ok(L) && n_open != n_free)
        cdyn__in_fail(r, "%s: %u removed slots can be reused, the free list has %u", what,
                      n_open, n_free);
    for (uint32_t k = 0; k < n_free && cdyn__load_ok(L); k++) {
        uint32_t i = cdyn__in_u32(r);
        if (cdyn__load_ok(L) &&
            (i >= count || flags[i] || s->generation[i] == UINT16_MAX || s->alive[i])) {
            cdyn__in_fail(r, "%s: free slot %u is out of range, live, retired or twice", what, i);
            break;
        }
        s->alive[i] = 1; /* met; cleared below */
        s->free_list[k] = i;
    }
    memset(s->alive, 0, count * sizeof *s->alive);
    if (!cdyn__load_ok(L)) {
        cdyn__free_array(&L->sys->alloc, flags, count, sizeof *flags);
        return false;
    }
    s->n_free = n_free;
    *alive = flags;
    return true;
}
