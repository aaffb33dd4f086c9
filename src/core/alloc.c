#include "core/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void *default_alloc(size_t size, void *user)
{
    (void)user;
    return malloc(size);
}

static void default_free(void *ptr, size_t size, void *user)
{
    (void)size;
    (void)user;
    free(ptr);
}

cdyn_allocator cdyn__allocator_default(void)
{
    cdyn_allocator a = {default_alloc, default_free, NULL};
    return a;
}

bool cdyn__allocator_init(cdyn_allocator *out, const cdyn_allocator *user)
{
    if (!user) {
        *out = cdyn__allocator_default();
        return true;
    }
    if (!user->alloc || !user->free)
        return false;
    *out = *user;
    return true;
}

bool cdyn__mul_overflows(size_t n, size_t size)
{
    return size != 0 && n > SIZE_MAX / size;
}

void *cdyn__alloc_array(const cdyn_allocator *a, size_t n, size_t size)
{
    if (n == 0 || size == 0 || cdyn__mul_overflows(n, size))
        return NULL;
    return a->alloc(n * size, a->user);
}

void *cdyn__calloc_array(const cdyn_allocator *a, size_t n, size_t size)
{
    void *p = cdyn__alloc_array(a, n, size);
    if (p)
        memset(p, 0, n * size);
    return p;
}

void cdyn__free_array(const cdyn_allocator *a, void *ptr, size_t n, size_t size)
{
    if (ptr)
        a->free(ptr, n * size, a->user);
}
