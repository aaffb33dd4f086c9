/* Writes a laid-out chart as SVG: titles, then each panel (grid, data
 * clipped to its plot, frame, ticks, axis labels, title, legend), then the
 * labels, each where it covers least. */
#include "chart_internal.h"

#include <math.h>
#include <string.h>

static const char *const HALO =
    "stroke=\"white\" stroke-width=\"3\" stroke-opacity=\"0.85\" paint-order=\"stroke\"";

/* Text, marked as drawn; its size shrinks to fit @p room pixels if given. */
static void text(chart *c, FILE *f, double x, double y, double size, int anchor,
                 const char *color, int bold, const char *attrs, const char *s, double room)
{
    double w = text_width(s, size);
    if (room > 0 && w > room)
        size *= room / w, w = room;
    write_text(f, x, y, size, anchor, color, bold, attrs, s);
    double x0 = x - 0.5 * w * anchor;
    occupancy_box(&c->occ, x0, y - 0.8 * size, x0 + w, y + 0.25 * size, OCC_TEXT);
}

static void stroke(FILE *f, const style *s)
{
    fprintf(f, " stroke=\"%s\"", s->color);
    if (s->width != 1)
        fprintf(f, " stroke-width=\"%g\"", s->width);
    if (s->dash[0])
        fprintf(f, " stroke-dasharray=\"%s\"", s->dash);
    if (s->opacity < 1)
        fprintf(f, " stroke-opacity=\"%g\"", s->opacity);
}

static void fill(FILE *f, const style *s)
{
    fprintf(f, " fill=\"%s\"", s->fill);
    if (s->fill_opacity < 1 && strcmp(s->fill, "none") != 0)
        fprintf(f, " fill-opacity=\"%g\"", s->fill_opacity);
}

/* ---- lines ---------------------------------------------------------------- */

typedef struct pen {
    FILE *f;
    const style *s;
    int open;
    double last_x, last_y;
} pen;

static void pen_to(pen *q, double x, double y)
{
    if (!q->open) {
        fputs("<polyline fill=\"none\" stroke-linejoin=\"round\"", q->f);
        stroke(q->f, q->s);
        fputs(" points=\"", q->f);
        q->open = 1;
    }
    fprintf(q->f, "%.1f,%.1f ", x, y);
    q->last_x = x, q->last_y = y;
}

static void pen_up(pen *q)
{
    if (q->open)
        fputs("\"/>\n", q->f);
    q->open = 0;
}

/* A series through at most four points per pixel column (the first, the
 * lowest, the highest and the last, in their order), so that a million
 * samples draw as they look; with s.envelope through each column's largest
 * value. NaN (and values <= 0 on log axes) leave gaps. */
static void write_series(FILE *f, const chart_panel *p, const item *it)
{
    const double *xy = item_points(it);
    pen q = {f, &it->s, 0, 0, 0};
    double col = NAN, keep[4][2]; /* first, min, max, last */
    size_t order[4], first_i = 0, min_i = 0, max_i = 0;
    int have = 0;
    for (size_t i = 0; i <= it->n; i++) {
        double x = NAN, y = NAN;
        if (i < it->n)
            x = panel_px(p, xy[2 * i]), y = panel_py(p, xy[2 * i + 1]);
        int good = isfinite(x) && isfinite(y);
        if (!good && it->s.envelope && i < it->n)
            continue; /* an envelope goes over the gaps of a column */
        double c = good ? floor(x) : NAN;
        if (have && (!good || c != col)) { /* flush the column */
            if (it->s.envelope) {
                pen_to(&q, keep[1][0], keep[1][1]);
            } else {
                size_t n = 0;
                order[n++] = 0;
                if (min_i != first_i)
                    order[n++] = 1;
                if (max_i != first_i && max_i != min_i)
                    order[n++] = 2;
                if (n == 3 && max_i < min_i)
                    order[1] = 2, order[2] = 1;
                order[n++] = 3;
                for (size_t k = 0; k < n; k++)
                    pen_to(&q, keep[order[k]][0], keep[order[k]][1]);
            }
            have = 0;
        }
        if (!good || (it->s.envelope && c > col + 1))
            pen_up(&q);
        if (!good)
            continue;
        if (!have) {
            col = c, have = 1;
            first_i = min_i = max_i = i;
            keep[0][0] = keep[1][0] = keep[2][0] = x;
            keep[0][1] = keep[1][1] = keep[2][1] = y;
        }
        if (y < keep[1][1]) /* pixel y grows downwards: "min" is the largest value */
            keep[1][0] = x, keep[1][1] = y, min_i = i;
        if (y > keep[2][1])
            keep[2][0] = x, keep[2][1] = y, max_i = i;
        keep[3][0] = x, keep[3][1] = y;
    }
    pen_up(&q);
}

/* A polyline or polygon, leaving out points within half a pixel of the last. */
static void write_shape(FILE *f, const chart_panel *p, const item *it)
{
    const double *xy = item_points(it);
    int closed = it->kind == ITEM_POLYGON;
    fprintf(f, "<%s stroke-linejoin=\"round\" stroke-linecap=\"round\"",
            closed ? "polygon" : "polyline");
    if (closed)
        fill(f, &it->s);
    else
        fputs(" fill=\"none\"", f);
    if (strcmp(it->s.color, "none") != 0)
        stroke(f, &it->s);
    fputs(" points=\"", f);
    double lx = NAN, ly = NAN;
    for (size_t i = 0; i < it->n; i++) {
        double x = panel_px(p, xy[2 * i]), y = panel_py(p, xy[2 * i + 1]);
        if (!(isfinite(x) && isfinite(y)))
            continue;
        if (i + 1 < it->n && fabs(x - lx) < 0.5 && fabs(y - ly) < 0.5)
            continue;
        fprintf(f, "%.1f,%.1f ", x, y);
        lx = x, ly = y;
    }
    fputs("\"/>\n", f);
}

static void write_item(FILE *f, const chart_panel *p, const item *it)
{
    const double *xy = item_points(it);
    double x = panel_px(p, xy[0]), y = panel_py(p, xy[1]), r;
    const box *b = &p->plot;
    switch (it->kind) {
    case ITEM_SERIES: write_series(f, p, it); break;
    case ITEM_PATH:
    case ITEM_POLYGON: write_shape(f, p, it); break;
    case ITEM_CIRCLE:
        r = it->r * p->plot.w / (p->x.f1 - p->x.f0);
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.2f\"", x, y, r);
        fill(f, &it->s);
        if (strcmp(it->s.color, "none") != 0)
            stroke(f, &it->s);
        fputs("/>\n", f);
        break;
    case ITEM_MARKER:
        r = it->s.size > 0 ? it->s.size : 3;
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%g\"", x, y, r);
        if (strcmp(it->s.fill, "none") != 0) {
            fill(f, &it->s);
            stroke(f, &it->s);
        } else {
            fprintf(f, " fill=\"%s\"", it->s.color);
        }
        fputs("/>\n", f);
        break;
    case ITEM_HLINE:
    case ITEM_VLINE:
        if (it->kind == ITEM_HLINE)
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"", b->x, y,
                    b->x + b->w, y);
        else
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"", x, b->y, x,
                    b->y + b->h);
        stroke(f, &it->s);
        fputs("/>\n", f);
        break;
    case ITEM_VBAND: {
        double x1 = panel_px(p, xy[2]);
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
                fmin(x, x1), b->y, fmax(fabs(x1 - x), 1.0), b->h, it->s.fill);
        break;
    }
    case ITEM_TEXT:
    case ITEM_LABEL: break;
    }
}

/* ---- axes ---------------------------------------------------------------- */

static void write_grid(FILE *f, const chart_panel *p)
{
    const box *b = &p->plot;
    for (int i = 0; i < p->x.t.n; i++)
        if (!p->x.t.minor[i]) {
            double x = panel_px(p, p->x.t.v[i]);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                       "stroke=\"#e6e6e6\"/>\n", x, b->y, x, b->y + b->h);
        }
    for (int i = 0; i < p->y.t.n; i++)
        if (!p->y.t.minor[i]) {
            double y = panel_py(p, p->y.t.v[i]);
            int zero = p->y.t.v[i] == 0 && !(p->y.flags & CHART_LOG);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
                    b->x, y, b->x + b->w, y, zero ? "#aaaaaa" : "#e6e6e6");
        }
}

static void write_axes(chart *c, FILE *f, const chart_panel *p)
{
    const box *b = &p->plot;
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
               "stroke=\"#555\"/>\n", b->x, b->y, b->w, b->h);
    double bottom = b->y + b->h;
    for (int i = 0; i < p->x.t.n; i++) {
        double x = panel_px(p, p->x.t.v[i]), len = p->x.t.minor[i] ? 2.5 : 4.5;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\"/>\n", x,
                bottom, x, bottom + len);
        if (p->x.t.label[i][0])
            text(c, f, x, bottom + 17, 11, CHART_MIDDLE, NULL, 0, NULL, p->x.t.label[i], 0);
    }
    for (int i = 0; i < p->y.t.n; i++) {
        double y = panel_py(p, p->y.t.v[i]), len = p->y.t.minor[i] ? 2.5 : 4.5;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\"/>\n",
                b->x - len, y, b->x, y);
        if (p->y.t.label[i][0])
            text(c, f, b->x - 7, y + 4, 11, CHART_END, NULL, 0, NULL, p->y.t.label[i], 0);
    }
    if (p->x.label)
        text(c, f, b->x + 0.5 * b->w, bottom + 35, 12, CHART_MIDDLE, NULL, 0, NULL, p->x.label,
             b->w);
    if (p->x.t.factor[0])
        text(c, f, b->x + b->w, bottom + 35, 11, CHART_END, NULL, 0, NULL, p->x.t.factor, 0);
    if (p->y.t.factor[0])
        text(c, f, b->x - 7, b->y - 6, 11, CHART_END, NULL, 0, NULL, p->y.t.factor, 0);
    if (p->y.label) {
        double x = p->outer.x + 12, y = b->y + 0.5 * b->h;
        char rotate[64];
        snprintf(rotate, sizeof rotate, "transform=\"rotate(-90 %.1f %.1f)\"", x, y);
        write_text(f, x, y, 12, CHART_MIDDLE, NULL, 0, rotate, p->y.label);
    }
}

/* ---- legends ------------------------------------------------------------- */

static void write_ramp_key(FILE *f, const key *e, double x, double y, int id)
{
    fprintf(f, "<linearGradient id=\"ramp%d\">", id);
    for (int k = 0; k <= 10; k++) {
        char col[8];
        e->ramp(k / 10.0, col);
        fprintf(f, "<stop offset=\"%g\" stop-color=\"%s\"/>", k / 10.0, col);
    }
    fprintf(f, "</linearGradient>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"180\" height=\"10\" "
               "fill=\"url(#ramp%d)\"/>\n", x, y + 16, id);
    write_text(f, x, y + 11, 12, CHART_START, NULL, 0, NULL, e->label ? e->label : "");
    if (!(e->hi > e->lo))
        return; /* a key without values */
    ticks t;
    if (e->scale == CHART_RAMP_LOG) {
        ticks_log(e->lo, e->hi, 4, 0, &t);
    } else if (e->scale == CHART_RAMP_SQRT) { /* the square root spreads the low end */
        static const double AT[] = {0, 0.01, 0.05, 0.25, 0.5, 1};
        t.n = 0;
        for (size_t i = 0; i < sizeof AT / sizeof AT[0]; i++, t.n++) {
            t.v[t.n] = e->lo + AT[i] * (e->hi - e->lo);
            snprintf(t.label[t.n], sizeof t.label[0], "%g", t.v[t.n]);
        }
    } else {
        ticks_linear(e->lo, e->hi, 4, 0, &t);
    }
    for (int i = 0; i < t.n; i++) {
        double u = (t.v[i] - e->lo) / (e->hi - e->lo);
        if (e->scale == CHART_RAMP_LOG)
            u = log(t.v[i] / e->lo) / log(e->hi / e->lo);
        else if (e->scale == CHART_RAMP_SQRT)
            u = sqrt(fmax(u, 0));
        double tx = x + 180 * u;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", tx,
                y + 24, tx, y + 29);
        if (t.label[i][0])
            write_text(f, tx, y + 40, 10, CHART_MIDDLE, NULL, 0, NULL, t.label[i]);
    }
}

/* The sample of a legend row at (x, y) (the row's middle left). */
static void write_sample(FILE *f, int kind, const style *s, double x, double y)
{
    if (kind == CHART_MARKER) {
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%g\"", x + 13, y,
                s->size > 0 ? s->size : 4);
        fprintf(f, " fill=\"%s\"", strcmp(s->fill, "none") != 0 ? s->fill : s->color);
        if (strcmp(s->fill, "none") != 0)
            stroke(f, s);
    } else if (kind == CHART_BOX) {
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"26\" height=\"10\"", x, y - 5);
        fill(f, s);
        if (strcmp(s->color, "black") != 0)
            stroke(f, s);
    } else { /* thin lines drawn thicker, to show their colour */
        style thick = *s;
        thick.width = fmax(s->width, 1.5);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"", x, y, x + 26, y);
        stroke(f, &thick);
    }
    fputs("/>\n", f);
}

static void write_legend(FILE *f, const chart_panel *p, int id)
{
    const box *b = &p->legend;
    if (b->h <= 0)
        return;
    if (!p->legend_outside)
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"white\" "
                   "fill-opacity=\"0.85\" stroke=\"#cccccc\"/>\n", b->x, b->y, b->w, b->h);
    double x = b->x + 6, y = b->y + 4;
    for (size_t k = 0; k < p->n_items; k++) {
        const item *it = &p->items[k];
        if (!item_listed(it))
            continue;
        write_sample(f, CHART_LINE, &it->s, x, y + 8);
        write_text(f, x + 32, y + 12, 12, CHART_START, NULL, 0, NULL, it->text);
        y += 17;
    }
    for (size_t k = 0; k < p->n_keys; k++) {
        const key *e = &p->keys[k];
        if (e->kind == KEY_RAMP) {
            write_ramp_key(f, e, x, y, 100 * id + (int)k);
            y += 44;
        } else if (e->kind == KEY_SCALE) {
            double len = e->lo * p->plot.w / (p->x.f1 - p->x.f0);
            fprintf(f, "<path d=\"M%.1f %.1fv5h%.1fv-5\" fill=\"none\" stroke=\"black\" "
                       "stroke-width=\"1.5\"/>\n", x, y + 17, len);
            write_text(f, x + 0.5 * len, y + 13, 12, CHART_MIDDLE, NULL, 0, NULL,
                       e->label ? e->label : "");
            y += 28;
        } else {
            double tx = x;
            if (e->kind != CHART_TEXT) {
                write_sample(f, e->kind, &e->s, x, y + 8);
                tx += 32;
            }
            write_text(f, tx, y + 12, 12, CHART_START, NULL, 0, NULL, e->label ? e->label : "");
            y += 17;
        }
    }
}

/* ---- labels -------------------------------------------------------------- */

/* Puts the label where it covers least: around its point at growing
 * distances, in eight directions, inside its panel; far ones get a leader
 * line. A label that would cover other text, or drawings with a third of
 * itself, is left out: the picture is too crowded there to say more. */
static void write_label(chart *c, FILE *f, const chart_panel *p, const item *it)
{
    static const double DIR[8][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0},
                                     {1, -1}, {1, 1}, {-1, 1}, {-1, -1}};
    static const double RADIUS[] = {3, 8, 14, 22, 32, 46};
    double ax = panel_px(p, it->pt[0]), ay = panel_py(p, it->pt[1]);
    double h = it->s.size, w = text_width(it->text, h), best = INFINITY, bx = ax, by = ay, br = 0;
    const box *o = &p->outer;
    for (size_t r = 0; r < sizeof RADIUS / sizeof RADIUS[0]; r++)
        for (int d = 0; d < 8; d++) {
            double dx = DIR[d][0] * RADIUS[r], dy = DIR[d][1] * RADIUS[r];
            double x = ax + dx - (DIR[d][0] < 0 ? w : DIR[d][0] > 0 ? 0 : 0.5 * w);
            double y = ay + dy - (DIR[d][1] < 0 ? h : DIR[d][1] > 0 ? 0 : 0.5 * h);
            double cost = 1000.0 * (double)occupancy_count(&c->occ, x, y, x + w, y + h,
                                                           OCC_DRAWING) +
                          1e6 * (double)occupancy_count(&c->occ, x, y, x + w, y + h, OCC_TEXT) +
                          RADIUS[r] + 0.1 * d;
            if (x < o->x || y < o->y || x + w > o->x + o->w || y + h > o->y + o->h)
                cost += 1e9;
            if (cost < best)
                best = cost, bx = x, by = y, br = RADIUS[r];
        }
    double cells = (w / c->occ.cell + 1) * (h / c->occ.cell + 1);
    if (best >= 1e6 || best > 1000 * 0.3 * cells)
        return;
    if (br > 14) { /* from the point to the nearest point of the label's box */
        double lx = fmin(fmax(ax, bx), bx + w), ly = fmin(fmax(ay, by), by + h);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                   "stroke-width=\"0.7\"/>\n", ax, ay, lx, ly, it->s.color);
        occupancy_segment(&c->occ, ax, ay, lx, ly, 1);
    }
    occupancy_box(&c->occ, bx, by, bx + w, by + h, OCC_TEXT);
    write_text(f, bx, by + 0.8 * h, h, CHART_START, it->s.color, it->s.bold, HALO, it->text);
}

/* ---- the picture --------------------------------------------------------- */

static void write_panel(chart *c, FILE *f, const chart_panel *p, int id)
{
    int axes = !p->scene && (!(p->x.flags & CHART_HIDDEN) || !(p->y.flags & CHART_HIDDEN));
    if (axes)
        write_grid(f, p);
    for (size_t k = 0; k < p->n_items; k++)
        if (p->items[k].kind == ITEM_VBAND)
            write_item(f, p, &p->items[k]);
    /* Data stay in the plot; scenes may use their margins but not the title's room. */
    box room = {p->outer.x, p->plot.y, p->outer.w, p->outer.y + p->outer.h - p->plot.y};
    const box *clip = axes ? &p->plot : &room;
    fprintf(f, "<clipPath id=\"clip%d\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
               "height=\"%.1f\"/></clipPath>\n<g clip-path=\"url(#clip%d)\">\n",
            id, clip->x, clip->y, clip->w, clip->h, id);
    for (size_t k = 0; k < p->n_items; k++)
        if (p->items[k].kind != ITEM_VBAND)
            write_item(f, p, &p->items[k]);
    fputs("</g>\n", f);
    if (axes)
        write_axes(c, f, p);
    for (size_t k = 0; k < p->n_items; k++) {
        const item *it = &p->items[k];
        if (it->kind == ITEM_TEXT)
            write_text(f, panel_px(p, it->pt[0]), panel_py(p, it->pt[1]), it->s.size,
                       it->s.anchor, it->s.color, it->s.bold, NULL, it->text);
    }
    if (p->title)
        text(c, f, axes ? p->plot.x : p->outer.x + 2, axes ? p->plot.y - 8 : p->outer.y + 14, 13,
             CHART_START, NULL, 0, NULL, p->title, p->outer.x + p->outer.w - p->plot.x);
    write_legend(f, p, id);
}

int chart_write_svg(chart *c, FILE *f)
{
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
               "viewBox=\"0 0 %g %g\">\n<style>text{font-family:'DejaVu Sans',sans-serif}"
               "</style>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            c->width, c->height, c->width, c->height);
    double y = 8, room = c->width - 20;
    if (c->title) {
        y += 20;
        text(c, f, 10, y, 16, CHART_START, NULL, 0, NULL, c->title, room);
        y += 4;
    }
    for (size_t k = 0; k < c->n_captions; k++) {
        y += 17;
        text(c, f, 10, y - 3, 12, CHART_START, "#333333", 0, NULL, c->captions[k], room);
    }
    for (size_t k = 0; k < c->n_panels; k++)
        write_panel(c, f, c->panels[k], (int)k);
    for (size_t k = 0; k < c->n_panels; k++)
        for (size_t i = 0; i < c->panels[k]->n_items; i++)
            if (c->panels[k]->items[i].kind == ITEM_LABEL)
                write_label(c, f, c->panels[k], &c->panels[k]->items[i]);
    fputs("</svg>\n", f);
    return 0;
}
