/* Size-first structs: the getters' prefix copy and the setters' size check. */
#include "core/sized.h"

#include <string.h>

#include "core/error.h"

cdyn_status cdyn__sized_get(const cdyn_system *sys, void *out, const void *src, size_t n,
                            const char *what)
{
    size_t size;
    if (!out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    memcpy(&size, out, sizeof size);
    if (size < sizeof(size_t))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: size field %zu not set (at least sizeof(size_t))", what, size);
    if (size > n)
        size = n;
    memcpy((char *)out + sizeof(size_t), (const char *)src + sizeof(size_t),
           size - sizeof(size_t));
    return CDYN_OK;
}

cdyn_status cdyn__sized_check(const cdyn_system *sys, const void *in, size_t n, const char *what,
                              const char *type)
{
    size_t size;
    memcpy(&size, in, sizeof size);
    if (size == n)
        return CDYN_OK;
    return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                      "%s: size %zu != sizeof(%s) %zu (fill it with %s_init)", what, size, type,
                      n, type);
}
