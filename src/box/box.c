/* Periodic boxes: the public calls of include/cdyn/box.h. */
#include "box/box.h"

#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "core/alloc.h"
#include "core/lookup.h"
#include "core/system.h"

/* Folds every image counter into the stored position (stored := unwrapped)
 * and zeroes the counters; particles on shapes keep their positions. */
static void fold_images(cdyn_system *sys)
{
    cdyn__box *b = sys->box;
    if (!b || !b->image_cap)
        return;
    const size_t d = (size_t)sys->dim;
    cdyn__constraints_materialize_jac(sys);
    for (uint32_t i = 0; i < sys->particles.count && i < b->image_cap; i++) {
        int64_t *img = b->image + i * d;
        bool on_shape = sys->param_of && sys->param_of[i];
        for (size_t k = 0; k < d; k++) {
            if (img[k] && !on_shape) {
                double shift = (double)img[k] * b->len[k];
                sys->x[i * d + k] += shift;
                if (sys->u != sys->x)
                    sys->u[i * d + k] += shift;
            }
            img[k] = 0;
        }
    }
}

void cdyn__box_destroy(cdyn_system *sys)
{
    cdyn__box *b = sys->box;
    if (!b)
        return;
    cdyn__box_free_clusters(sys);
    cdyn__free_array(&sys->alloc, b->image, (size_t)b->image_cap * (size_t)sys->dim,
                     sizeof *b->image);
    sys->alloc.free(b, sizeof *b, sys->alloc.user);
    sys->box = NULL;
}

cdyn_status cdyn_system_set_box(cdyn_system *sys, const double *origin, const double *lengths,
                                const bool *periodic)
{
    const char *what = "system_set_box";
    cdyn_status st = cdyn__check_mutable(sys, what);
    if (st)
        return st;
    if (!origin || !lengths || !periodic)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    const int dim = sys->dim;
    for (int k = 0; k < dim; k++) {
        const char *why = cdyn__box_axis_problem(origin[k], lengths[k]);
        if (why)
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: axis %d (origin %g, length %g): %s", what, k, origin[k],
                              lengths[k], why);
    }
    cdyn__box *b = sys->box;
    bool fresh = !b;
    if (fresh) {
        b = sys->alloc.alloc(sizeof *b, sys->alloc.user);
        if (!b)
            return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
        memset(b, 0, sizeof *b);
        b->dim = dim;
        sys->box = b;
        if (cdyn__box_reserve_images(sys, sys->particles.capacity)) {
            cdyn__box_destroy(sys);
            return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory for %u image counters",
                              what, sys->particles.capacity);
        }
    } else {
        fold_images(sys);
    }
    b->present = true;
    b->any_periodic = false;
    for (int k = 0; k < 3; k++) {
        bool in = k < dim;
        b->periodic[k] = in && periodic[k];
        b->lo[k] = in ? origin[k] : 0.0;
        b->len[k] = in ? lengths[k] : 1.0;
        b->inv_len[k] = 1.0 / b->len[k];
        b->half[k] = 0.5 * b->len[k];
        b->any_periodic = b->any_periodic || b->periodic[k];
    }
    b->whole_valid = false;
    b->epoch++;
    return CDYN_OK;
}

cdyn_status cdyn_system_clear_box(cdyn_system *sys)
{
    cdyn_status st = cdyn__check_mutable(sys, "system_clear_box");
    if (st)
        return st;
    cdyn__box *b = sys->box;
    if (!b || !b->present)
        return CDYN_OK;
    fold_images(sys);
    cdyn__box_free_clusters(sys);
    b->present = b->any_periodic = false;
    b->periodic[0] = b->periodic[1] = b->periodic[2] = false;
    b->epoch++; /* the store stays, so that epochs never repeat */
    return CDYN_OK;
}

cdyn_status cdyn_system_get_box(const cdyn_system *sys, double *origin, double *lengths,
                                bool *periodic, bool *has_box)
{
    cdyn_status st = cdyn__enter_query(sys, has_box, "system_get_box");
    if (st)
        return st;
    const cdyn__box *b = sys->box && sys->box->present ? sys->box : NULL;
    *has_box = b != NULL;
    for (int k = 0; b && k < sys->dim; k++) {
        if (origin)
            origin[k] = b->lo[k];
        if (lengths)
            lengths[k] = b->len[k];
        if (periodic)
            periodic[k] = b->periodic[k];
    }
    return CDYN_OK;
}

/* The unwrapped position of slot @p i into @p out (dim values). */
static void unwrapped(const cdyn_system *sys, uint32_t i, double *out)
{
    const cdyn__box *b = sys->box;
    const size_t d = (size_t)sys->dim;
    for (size_t k = 0; k < d; k++) {
        double x = sys->x[i * d + k];
        int64_t n = cdyn__box_image(b, i, (int)k);
        out[k] = n ? x + (double)n * b->len[k] : x;
    }
}

cdyn_status cdyn_system_get_unwrapped_positions(const cdyn_system *sys, double *out,
                                                size_t capacity)
{
    const char *what = "system_get_unwrapped_positions";
    cdyn_status st = cdyn__enter_query(sys, out, what);
    if (st)
        return st;
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    if (capacity < n)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: capacity %zu < %zu doubles needed",
                          what, capacity, n);
    for (uint32_t i = 0; i < sys->particles.count; i++)
        unwrapped(sys, i, out + (size_t)i * (size_t)sys->dim);
    return CDYN_OK;
}

cdyn_status cdyn_particle_get_unwrapped_position(const cdyn_system *sys, cdyn_particle p,
                                                 double *out)
{
    uint32_t i;
    cdyn_status st = cdyn__enter_object(sys, out, "particle_get_unwrapped_position",
                                        sys ? &sys->particles : NULL, p, CDYN__KIND_PARTICLE,
                                        &i);
    if (!st)
        unwrapped(sys, i, out);
    return st;
}

cdyn_status cdyn_particle_get_image(const cdyn_system *sys, cdyn_particle p, int64_t *out)
{
    uint32_t i;
    cdyn_status st = cdyn__enter_object(sys, out, "particle_get_image",
                                        sys ? &sys->particles : NULL, p, CDYN__KIND_PARTICLE,
                                        &i);
    if (st)
        return st;
    const cdyn__box *b = sys->box;
    for (int k = 0; k < sys->dim; k++) {
        out[k] = 0;
        if (!b || !b->periodic[k])
            continue;
        /* Counted from the wrapped position the getters report. */
        double x = sys->x[(size_t)i * (size_t)sys->dim + (size_t)k];
        double cells = isfinite(x) ? cdyn__box_cells(b, k, x) : 0.0;
        double w = x - cells * b->len[k];
        if (cells != 0 && w >= b->lo[k] + b->len[k])
            cells += 1; /* as cdyn__box_wrap_point's rounding at the upper face */
        int64_t img = cdyn__box_image(b, i, k);
        cdyn__box_count_images(&img, cells);
        out[k] = img;
    }
    return CDYN_OK;
}
