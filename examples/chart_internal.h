/* What a chart keeps until it is saved: shared by chart.c (the calls that
 * fill it), chart_layout.c (where things go) and chart_svg.c (writing). */
#ifndef CDYN_EXAMPLE_CHART_INTERNAL_H
#define CDYN_EXAMPLE_CHART_INTERNAL_H

#include <stdio.h>

#include "chart.h"
#include "occupancy.h"
#include "ticks.h"

/* A chart_style with its strings copied. */
typedef struct style {
    char color[24], fill[24], dash[24];
    double width, opacity, fill_opacity, size;
    int anchor, bold, envelope;
} style;

typedef enum item_kind {
    ITEM_SERIES,  /* chart_line */
    ITEM_PATH,    /* chart_path, chart_segment */
    ITEM_POLYGON, /* chart_polygon */
    ITEM_CIRCLE,  /* chart_circle: r in x units */
    ITEM_MARKER,  /* chart_marker */
    ITEM_HLINE,
    ITEM_VLINE,
    ITEM_VBAND,
    ITEM_TEXT,
    ITEM_LABEL,
} item_kind;

typedef struct item {
    item_kind kind;
    style s;
    size_t n;       /* points */
    double pt[4];   /* the points when n <= 2 */
    double *xy;     /* the points when n > 2, interleaved (x, y) */
    double r;       /* ITEM_CIRCLE */
    char *text;     /* ITEM_TEXT, ITEM_LABEL; the legend label of the others */
} item;

enum { KEY_RAMP = 100, KEY_SCALE };

typedef struct key {
    int kind; /* CHART_LINE, CHART_MARKER, CHART_BOX, CHART_TEXT, KEY_RAMP, KEY_SCALE */
    style s;
    char *label;
    double lo, hi; /* KEY_RAMP: values; KEY_SCALE: lo is the length */
    int scale;     /* KEY_RAMP */
    void (*ramp)(double t, char out[8]);
} key;

typedef struct axis {
    char *label;
    unsigned flags;
    double lo, hi;   /* fixed ends, or NAN */
    ticks t;         /* ticks and the range in use */
    double f0, f1;   /* the range in use on the axis's scale (log10 for log axes) */
} axis;

typedef struct box {
    double x, y, w, h; /* pixels, (x, y) the top left */
} box;

struct chart_panel {
    chart *c;
    double weight;  /* stacked: share of the height; 0: in the fractions of frac */
    box frac;
    char *title;
    axis x, y;
    int equal, scene;
    item *items;
    size_t n_items, cap_items;
    key *keys;
    size_t n_keys, cap_keys;
    int next_color;
    /* layout */
    box outer, plot, legend;
    int legend_outside;
};

struct chart {
    double width, height;
    char *title;
    char **captions;
    size_t n_captions;
    chart_panel **panels;
    size_t n_panels;
    int failed; /* out of memory somewhere */
    occupancy occ;
};

/* chart.c */
const double *item_points(const item *it);

/* chart_layout.c: ranges, ticks, boxes, legends. Returns 0 or -1. */
int chart_layout(chart *c);
/* Pixel coordinates of data (x, y) in panel @p p. */
double panel_px(const chart_panel *p, double x);
double panel_py(const chart_panel *p, double y);
/* Whether a legend row names @p it. */
int item_listed(const item *it);
/* The size of the legend of @p p (0 x 0 when it has none). */
void legend_size(const chart_panel *p, double *w, double *h);
/* Marks the drawn parts of @p p's items in c->occ. */
void mark_items(chart_panel *p);

/* chart_text.c: text with ^{} and _{} markup. */
double text_width(const char *text, double size);
void write_text(FILE *f, double x, double y, double size, int anchor, const char *color,
                int bold, const char *attrs, const char *text);

/* chart_svg.c */
int chart_write_svg(chart *c, FILE *f);

#endif
