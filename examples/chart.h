/* chart: the examples' pictures, as SVG. Not part of the library.
 *
 * A chart is a picture of one or more panels under a title. A panel either
 * plots series against axes (linear or log, round ticks, grid, legend) or,
 * made a scene, draws shapes in world coordinates at equal scales on both
 * axes. Everything is kept until chart_save(), which lays the panels out,
 * puts each legend where it covers no data (or beside the plot), places
 * labels where they overlap nothing and writes the file. Calls copy what
 * they are given; an allocation failure is remembered and reported by
 * chart_save(), so that drawing code need not check every call.
 *
 *     chart *c = chart_create(900, 500);
 *     chart_title(c, "Pendulum released from %g degrees", angle);
 *     chart_panel *p = chart_panel_add(c, 1);
 *     chart_x(p, "time (s)", 0);
 *     chart_y(p, "energy (J)", 0);             (CHART_LOG for a log scale)
 *     chart_line(p, t, kinetic, n, "kinetic", NULL);   (colours in turn)
 *     chart_line(p, t, total, n, "total", &(chart_style){.color = "black", .width = 2});
 *     if (chart_save(c, "pendulum_energy.svg") != 0)
 *         fprintf(stderr, "cannot write pendulum_energy.svg\n");
 *     chart_free(c);
 *
 * A scene: p = chart_panel_add(c, 1); chart_scene(p); then chart_path(),
 * chart_polygon(), chart_circle(), chart_label() in world units, and keys
 * such as chart_ramp_key() and chart_scale_bar(). Text may hold "^{...}"
 * (superscript) and "_{...}" (subscript); it is escaped for XML here.
 */
#ifndef CDYN_EXAMPLE_CHART_H
#define CDYN_EXAMPLE_CHART_H

#include <stddef.h>

typedef struct chart chart;
typedef struct chart_panel chart_panel;

/* How a line, shape or text looks. Zero fields take the defaults. */
typedef struct chart_style {
    const char *color;   /* stroke or text colour (SVG syntax); NULL: the panel's next
                            palette colour for series, black otherwise */
    double width;        /* stroke width, pixels; 0: 1.5 */
    const char *dash;    /* dash array such as "6,4"; NULL: solid */
    double opacity;      /* of the stroke; 0: 1 */
    const char *fill;    /* fill colour of shapes and markers; NULL: none */
    double fill_opacity; /* 0: 1 */
    double size;         /* text: font size in pixels, 0: 11; markers: radius, 0: 3 */
    int anchor;          /* text: CHART_START, CHART_MIDDLE or CHART_END */
    int bold;            /* text */
    int envelope;        /* series with more points than pixels: draw each pixel
                            column's largest value (the envelope of an error)
                            instead of its range */
} chart_style;

enum { CHART_START = 0, CHART_MIDDLE = 1, CHART_END = 2 };

/* Axis flags. */
enum { CHART_LOG = 1, CHART_HIDDEN = 2 };

/* Legend rows (chart_key). */
enum { CHART_LINE, CHART_MARKER, CHART_BOX, CHART_TEXT };

/* Colour-key scales (chart_ramp_key). */
enum { CHART_RAMP_LINEAR = 0, CHART_RAMP_LOG = 1, CHART_RAMP_SQRT = 2 };

/* A picture of @p width x @p height pixels; NULL when out of memory (every
 * function below accepts NULL and then does nothing). */
chart *chart_create(double width, double height);
void chart_free(chart *c);

/* Lays out and writes the picture as SVG. Returns 0, or -1 when the file
 * cannot be written or an earlier call ran out of memory. */
int chart_save(chart *c, const char *path);

/* The title, and lines of smaller text under it (printf formats). */
void chart_title(chart *c, const char *fmt, ...);
void chart_caption(chart *c, const char *fmt, ...);

/* A panel stacked under the previous stacked ones, @p weight its share of
 * the height; or one in the box (x, y, w, h), fractions of the area under
 * the title, (0, 0) its top left. */
chart_panel *chart_panel_add(chart *c, double weight);
chart_panel *chart_panel_at(chart *c, double x, double y, double w, double h);

void chart_panel_title(chart_panel *p, const char *fmt, ...);
/* Axis label (with its unit; NULL: none) and flags. */
void chart_x(chart_panel *p, const char *label, unsigned flags);
void chart_y(chart_panel *p, const char *label, unsigned flags);
/* A fixed range; NAN for an end taken from the data. */
void chart_x_range(chart_panel *p, double lo, double hi);
void chart_y_range(chart_panel *p, double lo, double hi);
/* Equal scales on both axes, no axes: a drawing in world units. */
void chart_scene(chart_panel *p);
/* Equal scales on both axes, axes kept (a map). */
void chart_equal(chart_panel *p);

/* Series: n points (x[i], y[i]); NaN, and values <= 0 on log axes, leave
 * gaps. @p label names it in the legend (NULL: not listed). */
void chart_line(chart_panel *p, const double *x, const double *y, size_t n, const char *label,
                const chart_style *s);
/* Lines across the whole plot at y, or at x, and a shaded band x0..x1. */
void chart_hline(chart_panel *p, double y, const char *label, const chart_style *s);
void chart_vline(chart_panel *p, double x, const char *label, const chart_style *s);
void chart_vband(chart_panel *p, double x0, double x1, const char *color);

/* Shapes in data (world) units: a polyline or a polygon through n points
 * xy[2 i], xy[2 i + 1]; a segment; a circle of radius r (x units); a marker
 * of s->size pixels. */
void chart_path(chart_panel *p, const double *xy, size_t n, const chart_style *s);
void chart_polygon(chart_panel *p, const double *xy, size_t n, const chart_style *s);
void chart_segment(chart_panel *p, double x0, double y0, double x1, double y1,
                   const chart_style *s);
void chart_circle(chart_panel *p, double x, double y, double r, const chart_style *s);
void chart_marker(chart_panel *p, double x, double y, const chart_style *s);

/* Text at (x, y), anchored as s->anchor says; a label placed near (x, y)
 * where it covers no drawing, legend or other text (the nearest such spot). */
void chart_text(chart_panel *p, double x, double y, const chart_style *s, const char *fmt, ...);
void chart_label(chart_panel *p, double x, double y, const chart_style *s, const char *fmt,
                 ...);

/* Legend rows beside the series': a sample of style @p s (CHART_LINE,
 * CHART_MARKER, CHART_BOX) or text alone (CHART_TEXT). */
void chart_key(chart_panel *p, int kind, const char *label, const chart_style *s);
/* A colour key: the colours of @p ramp (NULL: chart_ramp) from lo to hi on
 * the given scale, with round values. */
void chart_ramp_key(chart_panel *p, const char *label, double lo, double hi, int scale,
                    void (*ramp)(double t, char out[8]));
/* A bar @p length long in the panel's x units, labelled. */
void chart_scale_bar(chart_panel *p, double length, const char *label);

/* Blue (t = 0) through green to red (t = 1), as "#rrggbb". */
void chart_ramp(double t, char out[8]);
/* The k-th colour of the series palette. */
const char *chart_color(int k);

#endif
