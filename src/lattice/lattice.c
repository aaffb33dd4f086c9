/* The lattice object: creation, parameters, heights, counters, errors. */
#include "lattice/lattice.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

/* Defaults (docs/lattice.md says why each one). Heights are measured in
 * units of the initial noise amplitude. */
#define DEFAULT_E 2.0
#define DEFAULT_D 0.01
#define DEFAULT_M 2.0
#define DEFAULT_S 2.0
#define DEFAULT_R 100.0
#define DEFAULT_SLOPE 0.5
#define DEFAULT_NOISE 1.0

cdyn_status cdyn__lattice_fail(cdyn_lattice *lat, cdyn_status st, const char *fmt, ...)
{
    if (lat) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(lat->err, sizeof lat->err, fmt, ap);
        va_end(ap);
    }
    return st;
}

void cdyn__lattice_ok(cdyn_lattice *lat)
{
    lat->err[0] = '\0';
}

static void fill_tilted(cdyn_lattice *lat, double slope, double noise)
{
    for (size_t y = 0, i = 0; y < lat->h; y++) {
        double base = slope * (double)y;
        for (size_t x = 0; x < lat->w; x++, i++)
            lat->height[i] = base + noise * cdyn__lattice_rng_double(&lat->rng);
    }
}

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
    lat->E = DEFAULT_E;
    lat->D = DEFAULT_D;
    lat->M = DEFAULT_M;
    lat->S = DEFAULT_S;
    lat->R = DEFAULT_R;
    /* A drop on a sloped surface needs about H moves plus a sideways
     * wander; 16 (W + H) only stops drops caught bouncing in a pit. */
    lat->walk_cap = 2 * ((uint64_t)width + (uint64_t)height);
    lat->periodic = false;
    lat->counters.size = sizeof lat->counters;
    cdyn__lattice_rng_seed(&lat->rng, seed);
    fill_tilted(lat, DEFAULT_SLOPE, DEFAULT_NOISE);
    lat->needs_relax = true;
    *out = lat;
    return CDYN_OK;
}

void cdyn_lattice_destroy(cdyn_lattice *lat)
{
    if (!lat)
        return;
    cdyn_allocator a = lat->alloc;
    cdyn__lattice_free_scratch(lat);
    cdyn__free_array(&a, lat->height, lat->n, sizeof(double));
    cdyn__free_array(&a, lat, 1, sizeof *lat);
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

cdyn_status cdyn_lattice_set_param(cdyn_lattice *lat, cdyn_lattice_param param, double value)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__lattice_ok(lat);
    switch (param) {
    case CDYN_LATTICE_E:
        if (!isfinite(value))
            return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT,
                                      "E must be finite (got %g)", value);
        lat->E = value;
        return CDYN_OK;
    case CDYN_LATTICE_D:
        if (!isfinite(value) || value < 0)
            return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT,
                                      "D must be finite and >= 0 (got %g)", value);
        lat->D = value;
        return CDYN_OK;
    case CDYN_LATTICE_M:
        if (isnan(value) || value < 0)
            return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT,
                                      "M must be >= 0 (got %g)", value);
        if (value != lat->M)
            lat->needs_relax = true;
        lat->M = value;
        return CDYN_OK;
    case CDYN_LATTICE_S:
        if (!isfinite(value) || !(value > 1))
            return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT,
                                      "S must be finite and > 1 (got %g)", value);
        if (value != lat->S)
            lat->needs_relax = true;
        lat->S = value;
        return CDYN_OK;
    case CDYN_LATTICE_R:
        if (!isfinite(value) || !(value >= 1))
            return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT,
                                      "R must be finite and >= 1 (got %g)", value);
        lat->R = value;
        return CDYN_OK;
    }
    return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, "unknown parameter %d",
                              (int)param);
}

cdyn_status cdyn_lattice_get_param(const cdyn_lattice *lat, cdyn_lattice_param param,
                                   double *value)
{
    if (!lat || !value)
        return CDYN_ERR_INVALID_ARGUMENT;
    switch (param) {
    case CDYN_LATTICE_E: *value = lat->E; return CDYN_OK;
    case CDYN_LATTICE_D: *value = lat->D; return CDYN_OK;
    case CDYN_LATTICE_M: *value = lat->M; return CDYN_OK;
    case CDYN_LATTICE_S: *value = lat->S; return CDYN_OK;
    case CDYN_LATTICE_R: *value = lat->R; return CDYN_OK;
    }
    return CDYN_ERR_INVALID_ARGUMENT;
}

cdyn_status cdyn_lattice_set_walk_cap(cdyn_lattice *lat, uint64_t cap)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__lattice_ok(lat);
    if (cap == 0)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, "walk cap must be >= 1");
    lat->walk_cap = cap;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_get_walk_cap(const cdyn_lattice *lat, uint64_t *cap)
{
    if (!lat || !cap)
        return CDYN_ERR_INVALID_ARGUMENT;
    *cap = lat->walk_cap;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_set_boundary(cdyn_lattice *lat, cdyn_lattice_boundary boundary)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__lattice_ok(lat);
    bool periodic;
    switch (boundary) {
    case CDYN_LATTICE_WALLS: periodic = false; break;
    case CDYN_LATTICE_PERIODIC:
        /* With W = 2 the left and right neighbours would be one site. */
        if (lat->w < 3)
            return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT,
                                      "periodic sides need a width >= 3 (width %zu)", lat->w);
        periodic = true;
        break;
    default:
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, "unknown boundary %d",
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

cdyn_status cdyn_lattice_get_boundary(const cdyn_lattice *lat, cdyn_lattice_boundary *boundary)
{
    if (!lat || !boundary)
        return CDYN_ERR_INVALID_ARGUMENT;
    *boundary = lat->periodic ? CDYN_LATTICE_PERIODIC : CDYN_LATTICE_WALLS;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_set_seed(cdyn_lattice *lat, uint64_t seed)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__lattice_ok(lat);
    cdyn__lattice_rng_seed(&lat->rng, seed);
    return CDYN_OK;
}

cdyn_status cdyn_lattice_init_tilted(cdyn_lattice *lat, double slope, double noise)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__lattice_ok(lat);
    if (!isfinite(slope) || slope < 0 || !isfinite(noise) || noise < 0)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT,
                                  "slope and noise must be finite and >= 0 (got %g, %g)",
                                  slope, noise);
    /* The top row must stay finite: slope * (H - 1) + noise. */
    if (!isfinite(slope * (double)(lat->h - 1) + noise))
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT,
                                  "slope %g overflows over %zu rows", slope, lat->h);
    fill_tilted(lat, slope, noise);
    lat->needs_relax = true;
    cdyn__lattice_heights_changed(lat);
    return CDYN_OK;
}

cdyn_status cdyn_lattice_set_heights(cdyn_lattice *lat, const double *heights, size_t count)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__lattice_ok(lat);
    if (!heights)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, "heights is NULL");
    if (count != lat->n)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT,
                                  "count %zu is not W * H = %zu", count, lat->n);
    for (size_t i = 0; i < count; i++)
        if (!isfinite(heights[i]))
            return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT,
                                      "height %zu (x %zu, y %zu) is not finite", i,
                                      i % lat->w, i / lat->w);
    memcpy(lat->height, heights, count * sizeof(double));
    lat->needs_relax = true;
    cdyn__lattice_heights_changed(lat);
    return CDYN_OK;
}

cdyn_status cdyn_lattice_get_heights(const cdyn_lattice *lat, double *out, size_t capacity)
{
    if (!lat || !out || capacity < lat->n)
        return CDYN_ERR_INVALID_ARGUMENT;
    memcpy(out, lat->height, lat->n * sizeof(double));
    return CDYN_OK;
}

cdyn_status cdyn_lattice_get_counters(const cdyn_lattice *lat, cdyn_lattice_counters *out)
{
    if (!lat || !out || out->size < sizeof(cdyn_lattice_counters))
        return CDYN_ERR_INVALID_ARGUMENT;
    size_t size = out->size;
    *out = lat->counters;
    out->size = size;
    return CDYN_OK;
}
