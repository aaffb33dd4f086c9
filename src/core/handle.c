#include "core/handle.h"

#include <string.h>

#include "core/alloc.h"

#define SLOT_BITS 32
#define GEN_SHIFT 32
#define SALT_SHIFT 48
#define KIND_SHIFT 60

uint64_t cdyn__handle_make(cdyn__kind kind, uint16_t salt, uint16_t generation, uint32_t slot)
{
    return ((uint64_t)kind << KIND_SHIFT) | ((uint64_t)(salt & 0xfffu) << SALT_SHIFT) |
           ((uint64_t)generation << GEN_SHIFT) | ((uint64_t)slot + 1u);
}

cdyn_status cdyn__slots_resolve(const cdyn__slots *s, uint64_t handle, cdyn__kind kind,
                                uint16_t salt, uint32_t *slot)
{
    uint64_t index1 = handle & ((1ull << SLOT_BITS) - 1u);
    if (handle == 0 || (handle >> KIND_SHIFT) != (uint64_t)kind ||
        ((handle >> SALT_SHIFT) & 0xfffu) != (uint64_t)(salt & 0xfffu) || index1 == 0 ||
        index1 > s->count)
        return CDYN_ERR_INVALID_HANDLE;
    uint32_t i = (uint32_t)(index1 - 1u);
    uint16_t gen = (uint16_t)((handle >> GEN_SHIFT) & 0xffffu);
    if (!s->alive[i] || s->generation[i] != gen)
        return CDYN_ERR_STALE_HANDLE;
    *slot = i;
    return CDYN_OK;
}

bool cdyn__slots_full(const cdyn__slots *s)
{
    return s->n_free == 0 && s->count == s->capacity;
}

uint32_t cdyn__slots_take(cdyn__slots *s)
{
    uint32_t i = s->n_free ? s->free_list[--s->n_free] : s->count++;
    s->alive[i] = 1;
    s->live++;
    return i;
}

void cdyn__slots_release(cdyn__slots *s, uint32_t slot)
{
    s->alive[slot] = 0;
    s->live--;
    /* A slot whose generation would wrap is retired for good, so that no
     * handle of it can ever become valid again. */
    if (++s->generation[slot] == UINT16_MAX)
        return;
    s->free_list[s->n_free++] = slot;
}

uint32_t cdyn__grown_capacity(uint32_t have, uint32_t need)
{
    uint64_t cap = have < 8 ? 8 : have;
    while (cap < need)
        cap += cap / 2;
    return cap > UINT32_MAX - 1u ? UINT32_MAX - 1u : (uint32_t)cap;
}

cdyn_status cdyn__slots_grow(cdyn__slots *s, const cdyn_allocator *a, uint32_t new_capacity,
                             size_t n, void **const arrays[], const size_t sizes[])
{
    enum { MAX_ARRAYS = 32 };
    void *fresh[MAX_ARRAYS + 3];
    void **targets[MAX_ARRAYS + 3];
    size_t esize[MAX_ARRAYS + 3];
    if (n > MAX_ARRAYS || new_capacity <= s->capacity)
        return CDYN_ERR_INVALID_ARGUMENT;
    size_t total = 0;
    targets[total] = (void **)&s->generation, esize[total++] = sizeof *s->generation;
    targets[total] = (void **)&s->alive, esize[total++] = sizeof *s->alive;
    targets[total] = (void **)&s->free_list, esize[total++] = sizeof *s->free_list;
    for (size_t i = 0; i < n; i++)
        targets[total] = arrays[i], esize[total++] = sizes[i];

    for (size_t i = 0; i < total; i++) {
        fresh[i] = cdyn__calloc_array(a, new_capacity, esize[i]);
        if (!fresh[i]) {
            for (size_t j = 0; j < i; j++)
                cdyn__free_array(a, fresh[j], new_capacity, esize[j]);
            return CDYN_ERR_NO_MEMORY;
        }
    }
    for (size_t i = 0; i < total; i++) {
        if (*targets[i]) {
            memcpy(fresh[i], *targets[i], (size_t)s->capacity * esize[i]);
            cdyn__free_array(a, *targets[i], s->capacity, esize[i]);
        }
        *targets[i] = fresh[i];
    }
    s->capacity = new_capacity;
    return CDYN_OK;
}

void cdyn__slots_free(cdyn__slots *s, const cdyn_allocator *a, size_t n,
                      void **const arrays[], const size_t sizes[])
{
    cdyn__free_array(a, s->generation, s->capacity, sizeof *s->generation);
    cdyn__free_array(a, s->alive, s->capacity, sizeof *s->alive);
    cdyn__free_array(a, s->free_list, s->capacity, sizeof *s->free_list);
    for (size_t i = 0; i < n; i++) {
        cdyn__free_array(a, *arrays[i], s->capacity, sizes[i]);
        *arrays[i] = NULL;
    }
    memset(s, 0, sizeof *s);
}
