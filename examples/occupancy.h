/* Which parts of a picture are already drawn on, in cells of a few pixels:
 * what chart.c asks before it puts a legend or a label somewhere. Not part
 * of the library. */
#ifndef CDYN_EXAMPLE_OCCUPANCY_H
#define CDYN_EXAMPLE_OCCUPANCY_H

#include <stddef.h>

typedef struct occupancy {
    long w, h;        /* cells */
    double cell;      /* pixels per cell */
    unsigned char *c; /* w * h sets of the flags below */
} occupancy;

/* What covers a cell. */
enum { OCC_DRAWING = 1, OCC_TEXT = 2 };

/* A grid over width x height pixels. Returns 0, or -1 when out of memory. */
int occupancy_init(occupancy *o, double width, double height, double cell);
void occupancy_free(occupancy *o);
void occupancy_clear(occupancy *o);

/* Marks the box [x0, x1] x [y0, y1] with @p what (OCC_TEXT or OCC_DRAWING);
 * a segment of the given width or the inside of a polygon (xy interleaved,
 * pixels) as drawing. */
void occupancy_box(occupancy *o, double x0, double y0, double x1, double y1, int what);
void occupancy_segment(occupancy *o, double xa, double ya, double xb, double yb, double width);
void occupancy_polygon(occupancy *o, const double *xy, size_t n);

/* Cells in the box marked with any of @p what; cells outside the grid count
 * as marked. */
long occupancy_count(const occupancy *o, double x0, double y0, double x1, double y1, int what);

#endif
