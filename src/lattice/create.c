/* The lattice's life: creation with every default (parameters, terrain,
 * the initial tilted surface) and destruction. Apart from lattice.c so
 * that the object's core does not include the parts it sets up. */
#include "lattice/lattice.h"

#include "core/alloc.h"
#include "lattice/heights.h"
#include "lattice/params.h"
#include "lattice/terrain.h"

cdyn_status cdyn_lattice_create(size_t width, size_t height, uint64_t seed,
                                const cdyn_allocator *alloc, cdyn_lattice **out)
{
    cdyn_allocator a;
    if (!out)
        return CDYN_ERR_INVALID_ARGUMENT;
    *out = NULL; /* as cdyn_system_create: no dangling value on failure */
    if (width < 2 || height < 2 || cdyn__mul_overflows(width, height))
        return CDYN_ERR_INVALID_ARGUMENT;
    size_t n = width * height;
    /* Site indices are 32-bit (receivers, work lists): W * H <= UINT32_MAX. */
    if (n > UINT32_MAX || cdyn__mul_overflows(n, sizeof(double)))
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!cdyn__allocator_init(&a, alloc))
        return CDYN_ERR_INVALID_ARGUMENT;

    cdyn_lattice *lat = cdyn__calloc_array(&a, 1, sizeof *lat);
    if (!lat)
        return CDYN_ERR_NO_MEMORY;
    lat->alloc = a;
    lat->height = cdyn__alloc_array(&a, n, sizeof(double));
    if (!lat->height) {
        cdyn__free_array(&a, lat, 1, sizeof *lat);
        return CDYN_ERR_NO_MEMORY;
    }
    lat->w = width;
    lat->h = height;
    lat->n = n;
    cdyn__lattice_params_default(lat);
    cdyn__lattice_terrain_default(lat);
    /* A drop on a sloped surface needs about H moves plus a sideways
     * wander; 2 (W + H) only stops drops caught bouncing in a pit. */
    lat->walk_cap = 2 * ((uint64_t)width + (uint64_t)height);
    lat->periodic = false;
    lat->counters.size = sizeof lat->counters;
    cdyn__tasks_init(&lat->tasks);
    cdyn__lattice_rng_seed(&lat->rng, seed);
    cdyn__lattice_fill_tilted(lat, CDYN__LATTICE_DEFAULT_SLOPE, CDYN__LATTICE_DEFAULT_NOISE);
    *out = lat;
    return CDYN_OK;
}

void cdyn_lattice_destroy(cdyn_lattice *lat)
{
    if (!lat)
        return;
    cdyn_allocator a = lat->alloc;
    cdyn__lattice_free_scratch(lat);
    cdyn__free_array(&a, lat->cell, lat->n, 1);
    cdyn__free_array(&a, lat->height, lat->n, sizeof(double));
    cdyn__free_array(&a, lat, 1, sizeof *lat);
}

