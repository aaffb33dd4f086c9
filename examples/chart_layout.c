/* Where everything of a chart goes: ranges and ticks of the axes, the
 * panels' boxes and plot areas, and each legend in a corner of its plot
 * that no data covers, or beside the plot when there is none. */
#include "chart_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MARGIN = 8 }; /* pixels around the picture */

static double scaled(const axis *a, double v)
{
    return a->flags & CHART_LOG ? log10(v) : v;
}

double panel_px(const chart_panel *p, double x)
{
    return p->plot.x + (scaled(&p->x, x) - p->x.f0) / (p->x.f1 - p->x.f0) * p->plot.w;
}

double panel_py(const chart_panel *p, double y)
{
    return p->plot.y + p->plot.h - (scaled(&p->y, y) - p->y.f0) / (p->y.f1 - p->y.f0) * p->plot.h;
}

static int visible(const axis *a)
{
    return !(a->flags & CHART_HIDDEN);
}

/* ---- ranges and ticks ---------------------------------------------------- */

static void take(double v, const axis *a, double *lo, double *hi)
{
    if (isfinite(v) && !((a->flags & CHART_LOG) && !(v > 0)))
        *lo = fmin(*lo, v), *hi = fmax(*hi, v);
}

/* The extent of what panel @p p draws along x (@p along_y = 0) or y. */
static void extent(const chart_panel *p, int along_y, double *lo, double *hi)
{
    const axis *a = along_y ? &p->y : &p->x;
    *lo = INFINITY, *hi = -INFINITY;
    for (size_t k = 0; k < p->n_items; k++) {
        const item *it = &p->items[k];
        const double *xy = item_points(it);
        if ((it->kind == ITEM_HLINE && !along_y) ||
            ((it->kind == ITEM_VLINE || it->kind == ITEM_VBAND) && along_y))
            continue;
        double r = it->kind == ITEM_CIRCLE ? it->r : 0;
        for (size_t i = 0; i < it->n; i++) {
            take(xy[2 * i + (size_t)along_y] - r, a, lo, hi);
            take(xy[2 * i + (size_t)along_y] + r, a, lo, hi);
        }
    }
}

static double widest_label(const ticks *t, double size)
{
    double w = 0;
    for (int i = 0; i < t->n; i++)
        w = fmax(w, text_width(t->label[i], size));
    return w;
}

static int labelled(const ticks *t)
{
    int n = 0;
    for (int i = 0; i < t->n; i++)
        n += t->label[i][0] != '\0';
    return n;
}

/* Range and ticks of axis @p a over @p length pixels: fixed ends as given,
 * the others from the data; y ranges get a little room (log ranges whole
 * decades), x ranges are the data's. Hidden axes get room and no ticks. */
static void axis_range(const chart_panel *p, axis *a, int along_y, double length)
{
    int log = (a->flags & CHART_LOG) != 0;
    double lo, hi;
    extent(p, along_y, &lo, &hi);
    if (!(lo <= hi))
        lo = log ? 1 : 0, hi = log ? 10 : 1;
    int fixed_lo = !isnan(a->lo), fixed_hi = !isnan(a->hi);
    lo = fixed_lo ? a->lo : lo;
    hi = fixed_hi ? a->hi : hi;
    double pad = (along_y || !visible(a)) && !log ? 0.05 * (hi - lo) : 0;
    if (!visible(a))
        pad = fmax(pad, 1e-9 * fmax(fabs(lo), 1.0));
    lo -= fixed_lo ? 0 : pad;
    hi += fixed_hi ? 0 : pad;
    double gap = along_y ? 38 : 90; /* pixels between ticks */
    for (int pass = 0; pass < 2; pass++) {
        if (log)
            ticks_log(lo, hi, length / gap, along_y && !(fixed_lo && fixed_hi), &a->t);
        else
            ticks_linear(lo, hi, length / gap, 0, &a->t);
        /* x labels must not touch: widen the gap to fit the widest. */
        double need = widest_label(&a->t, 11) + 16;
        if (along_y || need * labelled(&a->t) <= length)
            break;
        gap = need * 1.2;
    }
    if (!visible(a))
        a->t.n = 0;
    a->f0 = scaled(a, a->t.lo);
    a->f1 = scaled(a, a->t.hi);
}

/* Equal scales: widen the range that is drawn larger. */
static void equalize(chart_panel *p)
{
    double sx = p->plot.w / (p->x.f1 - p->x.f0), sy = p->plot.h / (p->y.f1 - p->y.f0);
    axis *a = sx > sy ? &p->x : &p->y;
    double s = fmin(sx, sy), span = (sx > sy ? p->plot.w : p->plot.h) / s;
    double mid = 0.5 * (a->f0 + a->f1);
    a->f0 = mid - 0.5 * span, a->f1 = mid + 0.5 * span;
    if (visible(a)) {
        ticks_linear(a->f0, a->f1, (sx > sy ? p->plot.w / 90 : p->plot.h / 38), 0, &a->t);
        a->f0 = a->t.lo, a->f1 = a->t.hi;
    }
}

/* ---- boxes --------------------------------------------------------------- */

/* Room around the plot area: left, right, top, bottom. */
static void margins(const chart_panel *p, double m[4])
{
    double lw, lh;
    legend_size(p, &lw, &lh);
    m[0] = visible(&p->y) ? widest_label(&p->y.t, 11) + 12 + (p->y.label ? 20 : 0) : 4;
    m[1] = visible(&p->x) ? fmax(10, 0.5 * widest_label(&p->x.t, 11) + 2) : 4;
    m[1] += p->legend_outside ? lw + 14 : 0;
    m[2] = p->title ? 24 : visible(&p->y) && p->y.t.factor[0] ? 18 : 8;
    m[3] = visible(&p->x) ? 22 + (p->x.label || p->x.t.factor[0] ? 16 : 0) : 4;
}

static void set_plot(chart_panel *p, const double m[4])
{
    p->plot = (box){p->outer.x + m[0], p->outer.y + m[2], p->outer.w - m[0] - m[1],
                    p->outer.h - m[2] - m[3]};
    if (p->plot.w < 10)
        p->plot.w = 10;
    if (p->plot.h < 10)
        p->plot.h = 10;
}

/* Ranges, ticks and plot areas of every panel; stacked panels share their
 * left and right margins, so that their plots line up. */
static void place_all(chart *c)
{
    double left = 0, right = 0, m[4];
    for (int pass = 0; pass < 2; pass++) {
        left = right = 0;
        for (size_t k = 0; k < c->n_panels; k++) {
            chart_panel *p = c->panels[k];
            if (pass == 0)
                p->plot = p->outer; /* a first guess for the tick spacing */
            axis_range(p, &p->x, 0, p->plot.w);
            axis_range(p, &p->y, 1, p->plot.h);
            margins(p, m);
            if (p->weight > 0)
                left = fmax(left, m[0]), right = fmax(right, m[1]);
            set_plot(p, m);
        }
    }
    for (size_t k = 0; k < c->n_panels; k++) {
        chart_panel *p = c->panels[k];
        margins(p, m);
        if (p->weight > 0)
            m[0] = left, m[1] = right;
        set_plot(p, m);
        axis_range(p, &p->x, 0, p->plot.w); /* ticks for the final plot size */
        axis_range(p, &p->y, 1, p->plot.h);
        if (p->equal)
            equalize(p);
    }
}

/* ---- legends ------------------------------------------------------------- */

int item_listed(const item *it)
{
    return it->text && (it->kind == ITEM_SERIES || it->kind == ITEM_HLINE ||
                        it->kind == ITEM_VLINE);
}

void legend_size(const chart_panel *p, double *w, double *h)
{
    *w = *h = 0;
    for (size_t k = 0; k < p->n_items; k++)
        if (item_listed(&p->items[k])) {
            *w = fmax(*w, 34 + text_width(p->items[k].text, 12));
            *h += 17;
        }
    for (size_t k = 0; k < p->n_keys; k++) {
        const key *e = &p->keys[k];
        double tw = e->label ? text_width(e->label, 12) : 0;
        switch (e->kind) {
        case KEY_RAMP: *w = fmax(*w, fmax(tw, 200)), *h += 44; break;
        case KEY_SCALE:
            *w = fmax(*w, fmax(tw, e->lo * p->plot.w / (p->x.f1 - p->x.f0)));
            *h += 28;
            break;
        case CHART_TEXT: *w = fmax(*w, tw), *h += 17; break;
        default: *w = fmax(*w, 34 + tw), *h += 17; break;
        }
    }
    if (*h > 0)
        *w += 12, *h += 8;
}

/* Puts the legend in the first corner (or edge middle) of the plot that
 * nothing covers; returns 0, or -1 when every one is covered. */
static int find_corner(chart_panel *p, const occupancy *occ)
{
    double w, h, in = 6;
    legend_size(p, &w, &h);
    const box *b = &p->plot;
    double xs[3] = {b->x + b->w - w - in, b->x + in, b->x + 0.5 * (b->w - w)};
    double ys[3] = {b->y + in, b->y + b->h - h - in, b->y + 0.5 * (b->h - h)};
    static const int ORDER[8][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1},
                                    {2, 0}, {2, 1}, {0, 2}, {1, 2}};
    for (int k = p->n_items ? 0 : 1; k < 8; k++) { /* a legend alone: top left */
        double x = xs[ORDER[k][0]], y = ys[ORDER[k][1]];
        if (w + 2 * in <= b->w && h + 2 * in <= b->h &&
            occupancy_count(occ, x, y, x + w, y + h, OCC_DRAWING | OCC_TEXT) == 0) {
            p->legend = (box){x, y, w, h};
            return 0;
        }
    }
    return -1;
}

static int has_legend(const chart_panel *p)
{
    double w, h;
    legend_size(p, &w, &h);
    return h > 0;
}

int chart_layout(chart *c)
{
    if (!c->occ.c && occupancy_init(&c->occ, c->width, c->height, 3) != 0)
        return -1;
    double top = MARGIN + (c->title ? 24 : 0) + 17.0 * (double)c->n_captions + 6;
    box body = {MARGIN, top, c->width - 2 * MARGIN, c->height - top - MARGIN};
    double weights = 0, y = body.y;
    for (size_t k = 0; k < c->n_panels; k++)
        weights += c->panels[k]->weight;
    for (size_t k = 0; k < c->n_panels; k++) {
        chart_panel *p = c->panels[k];
        if (p->weight > 0) {
            p->outer = (box){body.x, y, body.w, body.h * p->weight / weights};
            y += p->outer.h;
        } else {
            p->outer = (box){body.x + p->frac.x * body.w, body.y + p->frac.y * body.h,
                             p->frac.w * body.w, p->frac.h * body.h};
        }
        p->legend_outside = 0;
    }
    /* Legends inside where they fit; stacked panels all outside if one is. */
    for (int pass = 0; pass < 2; pass++) {
        place_all(c);
        occupancy_clear(&c->occ);
        for (size_t k = 0; k < c->n_panels; k++)
            mark_items(c->panels[k]);
        int moved = 0, stacked_out = 0;
        for (size_t k = 0; k < c->n_panels; k++) {
            chart_panel *p = c->panels[k];
            if (!has_legend(p) || p->legend_outside || find_corner(p, &c->occ) == 0)
                continue;
            if (pass == 1) { /* the last resort: the top right corner, over data */
                double w, h;
                legend_size(p, &w, &h);
                p->legend = (box){p->plot.x + p->plot.w - w - 6, p->plot.y + 6, w, h};
                continue;
            }
            moved = 1;
            p->legend_outside = 1;
            stacked_out |= p->weight > 0;
        }
        for (size_t k = 0; stacked_out && k < c->n_panels; k++)
            if (c->panels[k]->weight > 0 && has_legend(c->panels[k]))
                c->panels[k]->legend_outside = 1;
        if (!moved)
            break;
    }
    for (size_t k = 0; k < c->n_panels; k++) {
        chart_panel *p = c->panels[k];
        double w, h;
        legend_size(p, &w, &h);
        if (p->legend_outside)
            p->legend = (box){p->plot.x + p->plot.w + 14, p->plot.y, w, h};
        if (h > 0)
            occupancy_box(&c->occ, p->legend.x, p->legend.y, p->legend.x + w, p->legend.y + h,
                          OCC_TEXT);
    }
    return 0;
}

/* ---- what the items cover ------------------------------------------------ */

static void mark_polyline(occupancy *o, const chart_panel *p, const double *xy, size_t n,
                          double width, int closed)
{
    for (size_t i = 0; i + 1 < n + (closed && n > 2); i++) {
        size_t j = (i + 1) % n;
        occupancy_segment(o, panel_px(p, xy[2 * i]), panel_py(p, xy[2 * i + 1]),
                          panel_px(p, xy[2 * j]), panel_py(p, xy[2 * j + 1]), width);
    }
}

static void fill_polygon(occupancy *o, const chart_panel *p, const double *xy, size_t n)
{
    double *px = malloc(2 * n * sizeof *px);
    if (!px)
        return; /* only a label may then cover it */
    for (size_t i = 0; i < n; i++)
        px[2 * i] = panel_px(p, xy[2 * i]), px[2 * i + 1] = panel_py(p, xy[2 * i + 1]);
    occupancy_polygon(o, px, n);
    free(px);
}

void mark_items(chart_panel *p)
{
    occupancy *o = &p->c->occ;
    for (size_t k = 0; k < p->n_items; k++) {
        const item *it = &p->items[k];
        const double *xy = item_points(it);
        double x = panel_px(p, xy[0]), y = panel_py(p, xy[1]), w = it->s.width + 2, r;
        switch (it->kind) {
        case ITEM_SERIES:
        case ITEM_PATH: mark_polyline(o, p, xy, it->n, w, 0); break;
        case ITEM_POLYGON:
            if (strcmp(it->s.fill, "none") != 0 && it->s.fill_opacity > 0.05 && it->n > 2)
                fill_polygon(o, p, xy, it->n);
            mark_polyline(o, p, xy, it->n, w, 1);
            break;
        case ITEM_CIRCLE:
            r = it->r * p->plot.w / (p->x.f1 - p->x.f0) + 1;
            occupancy_box(o, x - r, y - r, x + r, y + r, OCC_DRAWING);
            break;
        case ITEM_MARKER:
            r = (it->s.size > 0 ? it->s.size : 3) + 1;
            occupancy_box(o, x - r, y - r, x + r, y + r, OCC_DRAWING);
            break;
        case ITEM_HLINE: occupancy_segment(o, p->plot.x, y, p->plot.x + p->plot.w, y, w); break;
        case ITEM_VLINE: occupancy_segment(o, x, p->plot.y, x, p->plot.y + p->plot.h, w); break;
        case ITEM_TEXT: {
            double tw = text_width(it->text, it->s.size);
            double x0 = x - tw * 0.5 * it->s.anchor;
            occupancy_box(o, x0, y - it->s.size, x0 + tw, y + 0.25 * it->s.size, OCC_TEXT);
            break;
        }
        case ITEM_LABEL: occupancy_box(o, x - 2, y - 2, x + 2, y + 2, OCC_DRAWING); break;
        case ITEM_VBAND: break;
        }
    }
}
