/* The heights: the initial surface, setting and reading them. */
#include "lattice/heights.h"

#include <math.h>
#include <string.h>

void cdyn__lattice_fill_tilted(cdyn_lattice *lat, double slope, double noise)
{
    for (size_t y = 0, i = 0; y < lat->h; y++) {
        double base = slope * (double)y;
        for (size_t x = 0; x < lat->w; x++, i++)
            lat->height[i] = base + noise * cdyn__lattice_rng_double(&lat->rng);
    }
    cdyn__lattice_heights_replaced(lat);
}

size_t cdyn__lattice_first_bad_height(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!cdyn__lattice_height_ok(v[i]))
            return i;
    return n;
}

void cdyn__lattice_heights_replaced(cdyn_lattice *lat)
{
    double lo = lat->height[0];
    for (size_t i = 1; i < lat->n; i++)
        lo = lat->height[i] < lo ? lat->height[i] : lo;
    lat->hmin_bound = lo;
    lat->needs_relax = true;
    cdyn__lattice_heights_changed(lat);
}

cdyn_status cdyn_lattice_init_tilted(cdyn_lattice *lat, double slope, double noise)
{
    static const char fn[] = "cdyn_lattice_init_tilted";
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!isfinite(slope) || slope < 0 || !isfinite(noise) || noise < 0)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "slope and noise must be finite and >= 0 (got %g, %g)",
                                  slope, noise);
    /* The top row's largest height, slope * (H - 1) + noise, must be valid
     * (noise is added to every row, so it is bounded too). */
    double top = slope * (double)(lat->h - 1) + noise;
    if (!cdyn__lattice_height_ok(top))
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "slope %g over %zu rows plus noise %g exceeds the largest "
                                  "height %g",
                                  slope, lat->h, noise, CDYN_LATTICE_HEIGHT_MAX);
    cdyn__lattice_fill_tilted(lat, slope, noise);
    return CDYN_OK;
}

cdyn_status cdyn_lattice_set_heights(cdyn_lattice *lat, const double *heights, size_t count)
{
    static const char fn[] = "cdyn_lattice_set_heights";
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!heights)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "heights is NULL");
    if (count != lat->n)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "count %zu is not W * H = %zu", count, lat->n);
    size_t i = cdyn__lattice_first_bad_height(heights, count);
    if (i < count)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "height %zu (x %zu, y %zu) is %g, outside [-%g, %g]", i,
                                  i % lat->w, i / lat->w, heights[i], CDYN_LATTICE_HEIGHT_MAX,
                                  CDYN_LATTICE_HEIGHT_MAX);
    memcpy(lat->height, heights, count * sizeof(double));
    cdyn__lattice_heights_replaced(lat);
    return CDYN_OK;
}

cdyn_status cdyn_lattice_get_heights(const cdyn_lattice *lat, double *out, size_t capacity)
{
    static const char fn[] = "cdyn_lattice_get_heights";
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "out is NULL");
    if (capacity < lat->n)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "capacity %zu is below W * H = %zu", capacity, lat->n);
    memcpy(out, lat->height, lat->n * sizeof(double));
    return CDYN_OK;
}
