/* Pictures as pixels (the river maps): an RGB canvas with rectangles and
 * text in a 7 x 13 pixel font, saved as PNG (zlib) or, without zlib, PPM.
 * Not part of the library. */
#ifndef CDYN_EXAMPLE_RASTER_H
#define CDYN_EXAMPLE_RASTER_H

#include <stddef.h>

typedef struct raster {
    size_t w, h;
    unsigned char *rgb; /* w * h * 3 bytes, top row first */
} raster;

enum { RASTER_CHAR_W = 7, RASTER_CHAR_H = 13 };

/* The file name extension raster_save() writes: "png", or "ppm" without zlib. */
extern const char RASTER_EXT[];

/* A white canvas; returns 0, or -1 when out of memory. */
int raster_init(raster *r, size_t w, size_t h);
void raster_free(raster *r);

/* Fills the rectangle (clipped to the canvas) with colour c. */
void raster_rect(raster *r, long x, long y, long w, long h, const unsigned char c[3]);

/* Writes printable ASCII with its top left at (x, y), bold by doubling;
 * returns the width in pixels. */
long raster_text(raster *r, long x, long y, const char *s, const unsigned char c[3], int bold);
long raster_text_width(const char *s);

/* Writes @p stem "." RASTER_EXT. Returns 0, or -1 on failure. */
int raster_save(const raster *r, const char *stem);

/* The font's rows, from ' ' to '~' (raster_font.c). */
extern const unsigned char RASTER_FONT[95][13];

#endif
