/* chart: the calls that describe a picture; chart_layout.c places it and
 * chart_svg.c writes it. */
#include "chart_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const PALETTE[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                      "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f"};
enum { PALETTE_N = sizeof PALETTE / sizeof PALETTE[0] };

const char *chart_color(int k)
{
    return PALETTE[(k % PALETTE_N + PALETTE_N) % PALETTE_N];
}

void chart_ramp(double t, char out[8])
{
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double r = t < 0.5 ? 0 : 2 * t - 1;
    double g = t < 0.5 ? 2 * t : 2 - 2 * t;
    double b = t < 0.5 ? 1 - 2 * t : 0;
    snprintf(out, 8, "#%02x%02x%02x", (unsigned)(255 * r), (unsigned)(200 * g),
             (unsigned)(255 * b));
}

/* ---- memory: failures are remembered, not returned ------------------------ */

static void *grow(chart *c, void *array, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return array;
    size_t cap2 = *cap ? 2 * *cap : 16;
    while (cap2 < need)
        cap2 *= 2;
    void *p = realloc(array, cap2 * size);
    if (!p) {
        c->failed = 1;
        return NULL;
    }
    *cap = cap2;
    return p;
}

static char *vformat(chart *c, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!s) {
        c->failed = 1;
        return NULL;
    }
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

static char *copy(chart *c, const char *text)
{
    if (!text)
        return NULL;
    char *s = malloc(strlen(text) + 1);
    if (!s)
        c->failed = 1;
    else
        strcpy(s, text);
    return s;
}

static void copy_style(style *d, const chart_style *s, const char *color)
{
    static const chart_style none = {0};
    if (!s)
        s = &none;
    snprintf(d->color, sizeof d->color, "%s", s->color ? s->color : color);
    snprintf(d->fill, sizeof d->fill, "%s", s->fill ? s->fill : "none");
    snprintf(d->dash, sizeof d->dash, "%s", s->dash ? s->dash : "");
    d->width = s->width > 0 ? s->width : 1.5;
    d->opacity = s->opacity > 0 ? s->opacity : 1;
    d->fill_opacity = s->fill_opacity > 0 ? s->fill_opacity : 1;
    d->size = s->size;
    d->anchor = s->anchor;
    d->bold = s->bold;
    d->envelope = s->envelope;
}

/* ---- the picture --------------------------------------------------------- */

chart *chart_create(double width, double height)
{
    chart *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->width = width;
    c->height = height;
    return c;
}

static void panel_free(chart_panel *p)
{
    for (size_t k = 0; k < p->n_items; k++) {
        free(p->items[k].xy);
        free(p->items[k].text);
    }
    for (size_t k = 0; k < p->n_keys; k++)
        free(p->keys[k].label);
    free(p->items);
    free(p->keys);
    free(p->title);
    free(p->x.label);
    free(p->y.label);
    free(p);
}

void chart_free(chart *c)
{
    if (!c)
        return;
    for (size_t k = 0; k < c->n_panels; k++)
        panel_free(c->panels[k]);
    for (size_t k = 0; k < c->n_captions; k++)
        free(c->captions[k]);
    free(c->panels);
    free(c->captions);
    free(c->title);
    occupancy_free(&c->occ);
    free(c);
}

int chart_save(chart *c, const char *path)
{
    if (!c || c->failed || chart_layout(c) != 0)
        return -1;
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int bad = chart_write_svg(c, f);
    bad |= ferror(f);
    return fclose(f) != 0 || bad ? -1 : 0;
}

void chart_title(chart *c, const char *fmt, ...)
{
    if (!c)
        return;
    va_list ap;
    va_start(ap, fmt);
    free(c->title);
    c->title = vformat(c, fmt, ap);
    va_end(ap);
}

void chart_caption(chart *c, const char *fmt, ...)
{
    size_t cap = c ? c->n_captions : 0;
    char **captions = c ? grow(c, c->captions, &cap, c->n_captions + 1, sizeof *captions) : NULL;
    if (!captions)
        return;
    c->captions = captions;
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(c, fmt, ap);
    va_end(ap);
    if (s)
        c->captions[c->n_captions++] = s;
}

/* ---- panels -------------------------------------------------------------- */

static chart_panel *panel_new(chart *c)
{
    if (!c)
        return NULL;
    size_t cap = c->n_panels;
    chart_panel **panels = grow(c, c->panels, &cap, c->n_panels + 1, sizeof *panels);
    chart_panel *p = panels ? calloc(1, sizeof *p) : NULL;
    if (!p) {
        c->failed = 1;
        return NULL;
    }
    c->panels = panels;
    c->panels[c->n_panels++] = p;
    p->c = c;
    p->x.lo = p->x.hi = p->y.lo = p->y.hi = NAN;
    return p;
}

chart_panel *chart_panel_add(chart *c, double weight)
{
    chart_panel *p = panel_new(c);
    if (p)
        p->weight = weight > 0 ? weight : 1;
    return p;
}

chart_panel *chart_panel_at(chart *c, double x, double y, double w, double h)
{
    chart_panel *p = panel_new(c);
    if (p)
        p->frac = (box){x, y, w, h};
    return p;
}

void chart_panel_title(chart_panel *p, const char *fmt, ...)
{
    if (!p)
        return;
    va_list ap;
    va_start(ap, fmt);
    free(p->title);
    p->title = vformat(p->c, fmt, ap);
    va_end(ap);
}

static void set_axis(chart *c, axis *a, const char *label, unsigned flags)
{
    free(a->label);
    a->label = copy(c, label);
    a->flags = flags;
}

void chart_x(chart_panel *p, const char *label, unsigned flags)
{
    if (p)
        set_axis(p->c, &p->x, label, flags);
}

void chart_y(chart_panel *p, const char *label, unsigned flags)
{
    if (p)
        set_axis(p->c, &p->y, label, flags);
}

void chart_x_range(chart_panel *p, double lo, double hi)
{
    if (p)
        p->x.lo = lo, p->x.hi = hi;
}

void chart_y_range(chart_panel *p, double lo, double hi)
{
    if (p)
        p->y.lo = lo, p->y.hi = hi;
}

void chart_scene(chart_panel *p)
{
    if (!p)
        return;
    p->scene = p->equal = 1;
    p->x.flags = p->y.flags = CHART_HIDDEN;
}

void chart_equal(chart_panel *p)
{
    if (p)
        p->equal = 1;
}

/* ---- what panels show ---------------------------------------------------- */

const double *item_points(const item *it)
{
    return it->n <= 2 ? it->pt : it->xy;
}

/* A new item of @p n points (to be filled through item_points), or NULL. */
static item *item_new(chart_panel *p, item_kind kind, size_t n, const chart_style *s,
                      const char *color)
{
    if (!p)
        return NULL;
    item *items = grow(p->c, p->items, &p->cap_items, p->n_items + 1, sizeof *items);
    if (!items)
        return NULL;
    p->items = items;
    item *it = &items[p->n_items];
    memset(it, 0, sizeof *it);
    if (n > 2 && !(it->xy = malloc(2 * n * sizeof *it->xy))) {
        p->c->failed = 1;
        return NULL;
    }
    it->kind = kind;
    it->n = n;
    copy_style(&it->s, s, color);
    p->n_items++;
    return it;
}

static double *points(item *it)
{
    return it->n <= 2 ? it->pt : it->xy;
}

/* The series colour: the given one, else the next of the palette. */
static const char *series_color(chart_panel *p, const chart_style *s)
{
    return s && s->color ? s->color : chart_color(p ? p->next_color++ : 0);
}

void chart_line(chart_panel *p, const double *x, const double *y, size_t n, const char *label,
                const chart_style *s)
{
    item *it = p ? item_new(p, ITEM_SERIES, n, s, series_color(p, s)) : NULL;
    if (!it)
        return;
    double *xy = points(it);
    for (size_t i = 0; i < n; i++)
        xy[2 * i] = x[i], xy[2 * i + 1] = y[i];
    it->text = copy(p->c, label);
}

static void reference_line(chart_panel *p, item_kind kind, double v, const char *label,
                           const chart_style *s)
{
    item *it = p ? item_new(p, kind, 1, s, series_color(p, s)) : NULL;
    if (!it)
        return;
    it->pt[0] = it->pt[1] = v;
    it->text = copy(p->c, label);
}

void chart_hline(chart_panel *p, double y, const char *label, const chart_style *s)
{
    reference_line(p, ITEM_HLINE, y, label, s);
}

void chart_vline(chart_panel *p, double x, const char *label, const chart_style *s)
{
    reference_line(p, ITEM_VLINE, x, label, s);
}

void chart_vband(chart_panel *p, double x0, double x1, const char *color)
{
    item *it = item_new(p, ITEM_VBAND, 2, &(chart_style){.fill = color}, "none");
    if (it)
        it->pt[0] = x0, it->pt[2] = x1, it->pt[1] = it->pt[3] = NAN;
}

static void shape(chart_panel *p, item_kind kind, const double *xy, size_t n,
                  const chart_style *s)
{
    item *it = item_new(p, kind, n, s, "black");
    if (it)
        memcpy(points(it), xy, 2 * n * sizeof *xy);
}

void chart_path(chart_panel *p, const double *xy, size_t n, const chart_style *s)
{
    shape(p, ITEM_PATH, xy, n, s);
}

void chart_polygon(chart_panel *p, const double *xy, size_t n, const chart_style *s)
{
    shape(p, ITEM_POLYGON, xy, n, s);
}

void chart_segment(chart_panel *p, double x0, double y0, double x1, double y1,
                   const chart_style *s)
{
    shape(p, ITEM_PATH, (const double[]){x0, y0, x1, y1}, 2, s);
}

void chart_circle(chart_panel *p, double x, double y, double r, const chart_style *s)
{
    item *it = item_new(p, ITEM_CIRCLE, 1, s, "black");
    if (it)
        it->pt[0] = x, it->pt[1] = y, it->r = r;
}

void chart_marker(chart_panel *p, double x, double y, const chart_style *s)
{
    item *it = item_new(p, ITEM_MARKER, 1, s, "black");
    if (it)
        it->pt[0] = x, it->pt[1] = y;
}

static void text_item(chart_panel *p, item_kind kind, double x, double y, const chart_style *s,
                      const char *fmt, va_list ap)
{
    item *it = item_new(p, kind, 1, s, "black");
    if (!it)
        return;
    it->pt[0] = x, it->pt[1] = y;
    if (it->s.size <= 0)
        it->s.size = 11;
    it->text = vformat(p->c, fmt, ap);
}

void chart_text(chart_panel *p, double x, double y, const chart_style *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_item(p, ITEM_TEXT, x, y, s, fmt, ap);
    va_end(ap);
}

void chart_label(chart_panel *p, double x, double y, const chart_style *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_item(p, ITEM_LABEL, x, y, s, fmt, ap);
    va_end(ap);
}

/* ---- legend rows --------------------------------------------------------- */

static key *key_new(chart_panel *p, int kind, const char *label, const chart_style *s)
{
    if (!p)
        return NULL;
    key *keys = grow(p->c, p->keys, &p->cap_keys, p->n_keys + 1, sizeof *keys);
    if (!keys)
        return NULL;
    p->keys = keys;
    key *k = &keys[p->n_keys++];
    memset(k, 0, sizeof *k);
    k->kind = kind;
    k->label = copy(p->c, label);
    copy_style(&k->s, s, "black");
    return k;
}

void chart_key(chart_panel *p, int kind, const char *label, const chart_style *s)
{
    key_new(p, kind, label, s);
}

void chart_ramp_key(chart_panel *p, const char *label, double lo, double hi, int scale,
                    void (*ramp)(double t, char out[8]))
{
    key *k = key_new(p, KEY_RAMP, label, NULL);
    if (!k)
        return;
    k->lo = lo, k->hi = hi;
    k->scale = scale;
    k->ramp = ramp ? ramp : chart_ramp;
}

void chart_scale_bar(chart_panel *p, double length, const char *label)
{
    key *k = key_new(p, KEY_SCALE, label, NULL);
    if (k)
        k->lo = length;
}
