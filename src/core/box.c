/* The periodic box's image counters and the wrap of positions read from
 * outside (core/box.h). */
#include "core/box.h"

#include <string.h>

#include "core/alloc.h"
#include "core/system.h"

cdyn_status cdyn__box_reserve_images(cdyn_system *sys, uint32_t cap)
{
    cdyn__box *b = sys->box;
    if (!b || cap <= b->image_cap)
        return CDYN_OK;
    size_t d = (size_t)sys->dim;
    int64_t *img = cdyn__mul_overflows(cap, d) ? NULL
                                               : cdyn__calloc_array(&sys->alloc, (size_t)cap * d,
                                                                    sizeof *img);
    if (!img)
        return CDYN_ERR_NO_MEMORY;
    if (b->image_cap)
        memcpy(img, b->image, (size_t)b->image_cap * d * sizeof *img);
    cdyn__free_array(&sys->alloc, b->image, (size_t)b->image_cap * d, sizeof *img);
    b->image = img;
    b->image_cap = cap;
    return CDYN_OK;
}

void cdyn__box_wrap_positions(const cdyn_system *sys, double *x, uint32_t count)
{
    const cdyn__box *b = sys->box;
    if (!b || !b->any_periodic)
        return;
    const size_t d = (size_t)sys->dim;
    for (uint32_t i = 0; i < count; i++)
        cdyn__box_wrap_point(b, sys->dim, x + i * d, x + i * d);
}

void cdyn__box_position_set(cdyn_system *sys, uint32_t slot, const double *old,
                            const double *now)
{
    cdyn__box *b = sys->box;
    if (!b || !b->any_periodic || slot >= b->image_cap)
        return;
    int64_t *img = b->image + (size_t)slot * (size_t)sys->dim;
    for (int k = 0; k < sys->dim; k++) {
        if (!b->periodic[k])
            continue;
        /* unwrapped before: old + img len; after: now + (img + n) len,
         * nearest when n = round((old - now) / len). */
        cdyn__box_count_images(&img[k], floor((old[k] - now[k]) * b->inv_len[k] + 0.5));
    }
}

void cdyn__box_forget_slot(cdyn_system *sys, uint32_t slot)
{
    cdyn__box *b = sys->box;
    if (b && slot < b->image_cap)
        memset(b->image + (size_t)slot * (size_t)sys->dim, 0,
               (size_t)sys->dim * sizeof *b->image);
}
