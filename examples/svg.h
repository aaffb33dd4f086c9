/* A small SVG writer shared by the examples: world coordinates in, pixels out,
 * plus a line-chart helper for time series. Not part of the library. */
#ifndef CDYN_EXAMPLE_SVG_H
#define CDYN_EXAMPLE_SVG_H

#include <stddef.h>
#include <stdio.h>

typedef struct svg {
    FILE *f;
    double width, height;          /* pixels */
    double x0, x1, y0, y1;         /* world window; y grows upwards */
    double margin;                 /* pixels around the plotting area */
} svg;

/* Opens @p path; world window [x0,x1] x [y0,y1] maps onto the picture with
 * equal scale on both axes when @p equal_aspect. Returns 0 on success. */
int svg_open(svg *s, const char *path, double width, double height,
             double x0, double x1, double y0, double y1, int equal_aspect);
void svg_close(svg *s);

double svg_px(const svg *s, double x);
double svg_py(const svg *s, double y);

void svg_line(svg *s, double xa, double ya, double xb, double yb,
              const char *color, double stroke_width);
void svg_polyline(svg *s, const double *xy, size_t n, size_t stride, int closed,
                  const char *color, double stroke_width, double opacity);
void svg_circle(svg *s, double x, double y, double r_px, const char *fill);
void svg_text(svg *s, double px, double py, double size, const char *text);

/* A colour from blue (t = 0) through green to red (t = 1), as "#rrggbb". */
void svg_ramp(double t, char out[8]);

/* Writes a line chart of @p nseries series sharing x values to @p path.
 * ys[k] points to n values; labels[k] names series k. Returns 0 on success. */
int svg_chart(const char *path, const char *title, const char *xlabel,
              const double *x, const double *const *ys, const char *const *labels,
              size_t nseries, size_t n, int log_y);

#endif
