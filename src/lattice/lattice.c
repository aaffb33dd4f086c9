/* The lattice object: errors, size, walk cap, boundary, seed and counters.
 * Creation is in create.c, parameters in params.c, heights in heights.c. */
#include "lattice/lattice.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

cdyn_status cdyn__lattice_fail(const cdyn_lattice *lat, cdyn_status st, const char *fn,
                               const char *fmt, ...)
{
    if (lat) {
        /* The message buffer is the one field a const query may write. */
        char *buf = ((cdyn_lattice *)(uintptr_t)lat)->err;
        int k = snprintf(buf, sizeof lat->err, "%s: ", fn);
        if (k > 0 && (size_t)k < sizeof lat->err) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(buf + k, sizeof lat->err - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return st;
}

const char *cdyn_lattice_last_error(const cdyn_lattice *lat)
{
    return lat ? lat->err : "";
}

cdyn_status cdyn_lattice_get_size(const cdyn_lattice *lat, size_t *width, size_t *height)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (width)
        *width = lat->w;
    if (height)
        *height = lat->h;
    return CDYN_OK;
}

uint64_t cdyn__lattice_walk_cap_max(const cdyn_lattice *lat)
{
    return CDYN__LATTICE_WALK_CAP_PER_SITE * (uint64_t)lat->n;
}

cdyn_status cdyn_lattice_set_walk_cap(cdyn_lattice *lat, uint64_t cap)
{
    static const char fn[] = "cdyn_lattice_set_walk_cap";
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    uint64_t most = cdyn__lattice_walk_cap_max(lat);
    if (cap == 0 || cap > most)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "the walk cap must be in 1 .. %d W H = %llu (got %llu)",
                                  CDYN__LATTICE_WALK_CAP_PER_SITE, (unsigned long long)most,
                                  (unsigned long long)cap);
    lat->walk_cap = cap;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_get_walk_cap(const cdyn_lattice *lat, uint64_t *out)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, "cdyn_lattice_get_walk_cap",
                                  "out is NULL");
    *out = lat->walk_cap;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_set_boundary(cdyn_lattice *lat, cdyn_lattice_boundary boundary)
{
    static const char fn[] = "cdyn_lattice_set_boundary";
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    bool periodic;
    switch (boundary) {
    case CDYN_LATTICE_WALLS: periodic = false; break;
    case CDYN_LATTICE_PERIODIC:
        /* With W = 2 the left and right neighbours would be one site. */
        if (lat->w < 3)
            return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                      "periodic sides need a width >= 3 (width %zu)", lat->w);
        if (lat->outlet_edges & (CDYN_LATTICE_EDGE_LEFT | CDYN_LATTICE_EDGE_RIGHT))
            return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                      "the left or right edge is an outlet: periodic sides "
                                      "would remove it");
        periodic = true;
        break;
    default:
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "unknown boundary %d",
                                  (int)boundary);
    }
    if (periodic != lat->periodic) {
        lat->periodic = periodic;
        /* New neighbours: new slopes to relax, a new drainage. */
        lat->needs_relax = true;
        cdyn__lattice_heights_changed(lat);
    }
    return CDYN_OK;
}

cdyn_status cdyn_lattice_get_boundary(const cdyn_lattice *lat, cdyn_lattice_boundary *out)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, "cdyn_lattice_get_boundary",
                                  "out is NULL");
    *out = lat->periodic ? CDYN_LATTICE_PERIODIC : CDYN_LATTICE_WALLS;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_reseed(cdyn_lattice *lat, uint64_t seed)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__lattice_rng_seed(&lat->rng, seed);
    return CDYN_OK;
}

cdyn_status cdyn_lattice_get_counters(const cdyn_lattice *lat, cdyn_lattice_counters *out)
{
    static const char fn[] = "cdyn_lattice_get_counters";
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "out is NULL");
    /* Callers built against the first layout (up to total_slid) get that
     * much; larger structs than this library knows keep their tail. */
    const size_t first = offsetof(cdyn_lattice_counters, capped_cascades);
    if (out->size < first)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "out->size %zu is below the %zu bytes of the smallest "
                                  "cdyn_lattice_counters (not set?)",
                                  out->size, first);
    cdyn_lattice_counters c = lat->counters;
    c.size = out->size;
    c.pending_sites = lat->pending;
    memcpy(out, &c, out->size < sizeof c ? out->size : sizeof c);
    return CDYN_OK;
}
