/* Writing a field of a lattice as an ESRI ASCII grid: heights (17
 * significant digits, so that they read back to the same bits), drainage
 * areas in map units, or receivers as site indices (landlab's node ids:
 * row-major from the lower-left cell). The northernmost row comes first;
 * no-data cells carry NODATA_value. */
#include <stdio.h>
#include <string.h>

#include "lattice/asc.h"
#include "lattice/lattice.h"
#include "lattice/terrain.h"

/* Where the text goes: counted only, into a buffer, or to a file. */
typedef struct sink {
    char *buf;
    size_t cap, len;
    FILE *f;
    bool failed;
} sink;

static void put(sink *s, const char *text, size_t n)
{
    if (s->f) {
        if (!s->failed && fwrite(text, 1, n, s->f) != n)
            s->failed = true;
    } else if (s->buf && s->len + n <= s->cap) {
        memcpy(s->buf + s->len, text, n);
    }
    s->len += n;
}

static void put_str(sink *s, const char *text)
{
    put(s, text, strlen(text));
}

static void put_double(sink *s, double v)
{
    char t[CDYN__ASC_TOKEN_MAX];
    put(s, t, cdyn__asc_format_double(v, t));
}

static bool is_hole(const cdyn_lattice *lat, size_t i)
{
    return lat->cell && (lat->cell[i] & CDYN__LATTICE_CELL_NODATA);
}

/* The NODATA_value: -9999, unless a height that holds data is exactly
 * that; then one beyond the range of heights. */
static double nodata_value(const cdyn_lattice *lat, cdyn_lattice_grid field)
{
    if (field == CDYN_LATTICE_GRID_HEIGHTS)
        for (size_t i = 0; i < lat->n; i++)
            if (!is_hole(lat, i) && lat->height[i] == CDYN__ASC_NODATA)
                return -1e300;
    return CDYN__ASC_NODATA;
}

static void emit(const cdyn_lattice *lat, cdyn_lattice_grid field, sink *s)
{
    char t[CDYN__ASC_TOKEN_MAX];
    snprintf(t, sizeof t, "ncols %zu\nnrows %zu\n", lat->w, lat->h);
    put_str(s, t);
    put_str(s, "xllcorner ");
    put_double(s, lat->x0);
    put_str(s, "\nyllcorner ");
    put_double(s, lat->y0);
    if (lat->dx == lat->dy) {
        put_str(s, "\ncellsize ");
        put_double(s, lat->dx);
    } else { /* GDAL's form for rectangular cells */
        put_str(s, "\ndx ");
        put_double(s, lat->dx);
        put_str(s, "\ndy ");
        put_double(s, lat->dy);
    }
    double nodata = nodata_value(lat, field);
    put_str(s, "\nNODATA_value ");
    put_double(s, nodata);
    put_str(s, "\n");
    double cell = lat->dx * lat->dy;
    for (size_t row = 0; row < lat->h; row++) {
        size_t y = lat->h - 1 - row;
        for (size_t x = 0; x < lat->w; x++) {
            size_t i = y * lat->w + x;
            if (x > 0)
                put(s, " ", 1);
            if (is_hole(lat, i)) {
                put_double(s, nodata);
            } else if (field == CDYN_LATTICE_GRID_HEIGHTS) {
                put_double(s, lat->height[i]);
            } else if (field == CDYN_LATTICE_GRID_DRAINAGE_AREA) {
                put_double(s, (double)lat->drain[i] * cell);
            } else {
                int k = snprintf(t, sizeof t, "%u", (unsigned)lat->recv[i]);
                put(s, t, (size_t)k);
            }
        }
        put(s, "\n", 1);
    }
}

/* The checks every writer makes; computes the drainage when the field
 * needs it. */
static cdyn_status prepare(cdyn_lattice *lat, const char *fn, cdyn_lattice_grid field)
{
    switch (field) {
    case CDYN_LATTICE_GRID_HEIGHTS:
        return CDYN_OK;
    case CDYN_LATTICE_GRID_DRAINAGE_AREA:
    case CDYN_LATTICE_GRID_RECEIVERS:
        return cdyn__lattice_update_drainage(lat, fn);
    }
    return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "unknown grid field %d",
                              (int)field);
}

cdyn_status cdyn_lattice_asc_size(cdyn_lattice *lat, cdyn_lattice_grid field, size_t *size)
{
    static const char fn[] = "cdyn_lattice_asc_size";
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!size)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "size is NULL");
    cdyn_status st = prepare(lat, fn, field);
    if (st)
        return st;
    sink s = {NULL, 0, 0, NULL, false};
    emit(lat, field, &s);
    *size = s.len + 1; /* and a terminating NUL */
    return CDYN_OK;
}

cdyn_status cdyn_lattice_write_asc(cdyn_lattice *lat, cdyn_lattice_grid field, char *buffer,
                                   size_t capacity, size_t *written)
{
    static const char fn[] = "cdyn_lattice_write_asc";
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!buffer)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "buffer is NULL");
    cdyn_status st = prepare(lat, fn, field);
    if (st)
        return st;
    sink count = {NULL, 0, 0, NULL, false};
    emit(lat, field, &count);
    if (capacity < count.len + 1)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "capacity %zu is below the grid's %zu bytes", capacity,
                                  count.len + 1);
    sink s = {buffer, capacity, 0, NULL, false};
    emit(lat, field, &s);
    buffer[s.len] = '\0';
    if (written)
        *written = s.len;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_write_asc_file(cdyn_lattice *lat, cdyn_lattice_grid field,
                                        const char *path)
{
    static const char fn[] = "cdyn_lattice_write_asc_file";
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!path)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "path is NULL");
    cdyn_status st = prepare(lat, fn, field);
    if (st)
        return st;
    FILE *f = fopen(path, "wb");
    if (!f)
        return cdyn__lattice_fail(lat, CDYN_ERR_IO, fn, "cannot open '%s' for writing", path);
    sink s = {NULL, 0, 0, f, false};
    emit(lat, field, &s);
    bool bad = s.failed || ferror(f) != 0;
    if (fclose(f) != 0)
        bad = true;
    if (bad)
        return cdyn__lattice_fail(lat, CDYN_ERR_IO, fn, "cannot write '%s'", path);
    return CDYN_OK;
}
