/* Terrain settings: routing, cell size, origin, outlet edges, the outlet
 * and no-data masks. */
#include "lattice/terrain.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"

/* Cell sizes and their products stay finite and nonzero within this. */
#define CELL_MIN 1e-100
#define CELL_MAX 1e100

void cdyn__lattice_terrain_default(cdyn_lattice *lat)
{
    lat->routing = CDYN_LATTICE_D4;
    lat->dx = lat->dy = 1.0;
    lat->x0 = lat->y0 = 0.0;
    lat->outlet_edges = CDYN_LATTICE_EDGE_BOTTOM;
    lat->cell = NULL;
}

bool cdyn__lattice_terrain_is_plain(const cdyn_lattice *lat)
{
    return lat->outlet_edges == CDYN_LATTICE_EDGE_BOTTOM && !lat->cell;
}

cdyn_status cdyn_lattice_set_routing(cdyn_lattice *lat, cdyn_lattice_routing routing)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (routing != CDYN_LATTICE_D4 && routing != CDYN_LATTICE_D8)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, "cdyn_lattice_set_routing",
                                  "unknown routing %d", (int)routing);
    if (routing != lat->routing)
        cdyn__lattice_heights_changed(lat); /* new receivers */
    lat->routing = routing;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_get_routing(const cdyn_lattice *lat, cdyn_lattice_routing *out)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, "cdyn_lattice_get_routing",
                                  "out is NULL");
    *out = lat->routing;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_set_cell_size(cdyn_lattice *lat, double dx, double dy)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!(dx >= CELL_MIN && dx <= CELL_MAX && dy >= CELL_MIN && dy <= CELL_MAX))
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, "cdyn_lattice_set_cell_size",
                                  "dx and dy must be in [%g, %g] (got %g, %g)", CELL_MIN,
                                  CELL_MAX, dx, dy);
    if (dx != lat->dx || dy != lat->dy)
        cdyn__lattice_heights_changed(lat); /* new D8 slopes */
    lat->dx = dx;
    lat->dy = dy;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_get_cell_size(const cdyn_lattice *lat, double *dx, double *dy)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (dx)
        *dx = lat->dx;
    if (dy)
        *dy = lat->dy;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_set_origin(cdyn_lattice *lat, double x, double y)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!isfinite(x) || !isfinite(y))
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, "cdyn_lattice_set_origin",
                                  "x and y must be finite (got %g, %g)", x, y);
    lat->x0 = x;
    lat->y0 = y;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_get_origin(const cdyn_lattice *lat, double *x, double *y)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (x)
        *x = lat->x0;
    if (y)
        *y = lat->y0;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_set_outlet_edges(cdyn_lattice *lat, uint32_t edges)
{
    static const char fn[] = "cdyn_lattice_set_outlet_edges";
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (edges & ~(uint32_t)CDYN__LATTICE_EDGES_ALL)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "unknown edge bits 0x%x",
                                  (unsigned)(edges & ~CDYN__LATTICE_EDGES_ALL));
    if (lat->periodic && (edges & (CDYN_LATTICE_EDGE_LEFT | CDYN_LATTICE_EDGE_RIGHT)))
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "periodic sides have no left or right edge");
    if (edges != lat->outlet_edges)
        cdyn__lattice_heights_changed(lat); /* new outlets */
    lat->outlet_edges = edges;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_get_outlet_edges(const cdyn_lattice *lat, uint32_t *out)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT,
                                  "cdyn_lattice_get_outlet_edges", "out is NULL");
    *out = lat->outlet_edges;
    return CDYN_OK;
}

/* Sets bit @p bit of every site from @p mask (NULL: clears it), allocating
 * the per-site bits on first use and freeing them when no bit is left. */
static cdyn_status set_mask(cdyn_lattice *lat, const char *fn, unsigned bit,
                            const uint8_t *mask, size_t count)
{
    size_t n = lat->n;
    if (mask && count != n)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "count %zu is not W * H = %zu", count, n);
    if (mask && bit == CDYN__LATTICE_CELL_NODATA) {
        size_t holes = 0;
        for (size_t i = 0; i < n; i++)
            holes += mask[i] != 0;
        if (holes == n)
            return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                      "every cell is no-data: at least one must hold data");
    }
    uint8_t *cell = lat->cell;
    if (!cell) {
        if (!mask)
            return CDYN_OK;
        cell = cdyn__calloc_array(&lat->alloc, n, 1);
        if (!cell)
            return cdyn__lattice_fail(lat, CDYN_ERR_NO_MEMORY, fn,
                                      "no memory for the mask (%zu sites)", n);
    }
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        unsigned v = cell[i] & ~bit;
        if (mask && mask[i])
            v |= bit;
        cell[i] = (uint8_t)v;
        any |= v != 0;
    }
    if (!any) {
        cdyn__free_array(&lat->alloc, cell, n, 1);
        cell = NULL;
    }
    lat->cell = cell;
    cdyn__lattice_heights_changed(lat); /* new outlets or holes */
    return CDYN_OK;
}

/* Writes bit @p bit of every site into @p out as 0 or 1. */
static cdyn_status get_mask(const cdyn_lattice *lat, const char *fn, unsigned bit,
                            uint8_t *out, size_t capacity)
{
    if (!out)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "out is NULL");
    if (capacity < lat->n)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "capacity %zu is below W * H = %zu", capacity, lat->n);
    for (size_t i = 0; i < lat->n; i++)
        out[i] = lat->cell && (lat->cell[i] & bit) ? 1 : 0;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_set_outlet_mask(cdyn_lattice *lat, const uint8_t *mask, size_t count)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    return set_mask(lat, "cdyn_lattice_set_outlet_mask", CDYN__LATTICE_CELL_OUTLET, mask, count);
}

cdyn_status cdyn_lattice_get_outlet_mask(const cdyn_lattice *lat, uint8_t *out, size_t capacity)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    return get_mask(lat, "cdyn_lattice_get_outlet_mask", CDYN__LATTICE_CELL_OUTLET, out,
                    capacity);
}

cdyn_status cdyn_lattice_set_nodata_mask(cdyn_lattice *lat, const uint8_t *mask, size_t count)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    return set_mask(lat, "cdyn_lattice_set_nodata_mask", CDYN__LATTICE_CELL_NODATA, mask, count);
}

cdyn_status cdyn_lattice_get_nodata_mask(const cdyn_lattice *lat, uint8_t *out, size_t capacity)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    return get_mask(lat, "cdyn_lattice_get_nodata_mask", CDYN__LATTICE_CELL_NODATA, out,
                    capacity);
}
