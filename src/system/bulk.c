/* Bulk state of every particle index at once, in flat arrays (system.h):
 * positions, velocities, masses and fixed flags. */
#include <string.h>

#include "constraint/constraint.h"
#include "core/box.h"
#include "core/finite.h"
#include "core/system.h"
#include "generalized/generalized.h"

static cdyn_status bulk_get(const cdyn_system *sys, const double *src, double *out,
                            size_t capacity, const char *what)
{
    if (!sys || !out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    if (capacity < n)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: capacity %zu < %zu doubles needed", what, capacity, n);
    if (n)
        memcpy(out, src, n * sizeof *out);
    return CDYN_OK;
}

static cdyn_status bulk_set(cdyn_system *sys, double *dst, const double *in, size_t count,
                            const char *what)
{
    if (!sys || !in)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    cdyn_status st = cdyn__check_mutable(sys, what);
    if (st)
        return st;
    size_t d = (size_t)sys->dim, n = (size_t)sys->particles.count * d;
    if (count != n)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: count %zu != %zu expected", what,
                          count, n);
    for (size_t i = 0; i < sys->particles.count; i++)
        if (sys->particles.alive[i] && !cdyn__all_finite(in + i * d, d))
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: non-finite value at index %zu", what, i);
    /* Particles on shapes are projected onto them; try every projection
     * first so that a failing one (a callback shape) changes nothing. */
    const uint64_t mark = cdyn__failure_mark(sys);
    for (uint32_t i = 0; sys->param_of && i < sys->particles.count; i++) {
        const double *row = in + (size_t)i * d;
        if (sys->param_of[i] &&
            (st = cdyn__params_check_projection(sys, i, dst == sys->x ? row : NULL,
                                                dst == sys->v ? row : NULL)))
            return cdyn__blame(sys, st, mark, what, NULL);
    }
    /* Positions may move (particles on shapes are placed anew): lazily
     * stored Jacobians are written first. */
    cdyn__constraints_materialize_jac(sys);
    /* Kinematic particles keep the state their motions give them. */
    for (size_t i = 0; i < sys->particles.count; i++)
        if (sys->particles.alive[i] && !cdyn__is_kinematic(sys, (uint32_t)i)) {
            if (dst == sys->x) /* a periodic box's image counters follow */
                cdyn__box_position_set(sys, (uint32_t)i, dst + i * d, in + i * d);
            memcpy(dst + i * d, in + i * d, d * sizeof *dst);
        }
    for (uint32_t i = 0; sys->param_of && i < sys->particles.count; i++)
        if (sys->particles.alive[i])
            cdyn__params_sync_slot(sys, i);
    return CDYN_OK;
}

cdyn_status cdyn_system_get_positions(const cdyn_system *sys, double *out, size_t capacity)
{
    cdyn_status st = bulk_get(sys, sys ? sys->x : NULL, out, capacity, "get_positions");
    if (!st)
        cdyn__box_wrap_positions(sys, out, sys->particles.count); /* into a periodic box */
    return st;
}

cdyn_status cdyn_system_get_velocities(const cdyn_system *sys, double *out, size_t capacity)
{
    return bulk_get(sys, sys ? sys->v : NULL, out, capacity, "get_velocities");
}

cdyn_status cdyn_system_set_positions(cdyn_system *sys, const double *in, size_t count)
{
    return bulk_set(sys, sys ? sys->x : NULL, in, count, "set_positions");
}

cdyn_status cdyn_system_set_velocities(cdyn_system *sys, const double *in, size_t count)
{
    return bulk_set(sys, sys ? sys->v : NULL, in, count, "set_velocities");
}

/* The first checks of a bulk read of @p per values per index: arguments
 * present, @p capacity large enough. */
static cdyn_status bulk_read(const cdyn_system *sys, const void *out, size_t capacity,
                             size_t per, const char *what)
{
    cdyn_status st = cdyn__enter_query(sys, out, what);
    if (st)
        return st;
    size_t n = (size_t)sys->particles.count * per;
    if (capacity < n)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: capacity %zu < %zu values needed",
                          what, capacity, n);
    return CDYN_OK;
}

cdyn_status cdyn_system_get_masses(const cdyn_system *sys, double *out, size_t capacity)
{
    cdyn_status st = bulk_read(sys, out, capacity, 1, "get_masses");
    if (!st && sys->particles.count) /* removed slots hold mass 0 */
        memcpy(out, sys->mass, sys->particles.count * sizeof *out);
    return st;
}

cdyn_status cdyn_system_get_fixed(const cdyn_system *sys, bool *out, size_t capacity)
{
    cdyn_status st = bulk_read(sys, out, capacity, 1, "get_fixed");
    for (uint32_t i = 0; !st && i < sys->particles.count; i++)
        out[i] = sys->particles.alive[i] && sys->fixed[i];
    return st;
}
