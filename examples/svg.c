#include "svg.h"

#include <math.h>

int svg_open(svg *s, const char *path, double width, double height,
             double x0, double x1, double y0, double y1, int equal_aspect)
{
    s->f = fopen(path, "w");
    if (!s->f)
        return -1;
    s->width = width;
    s->height = height;
    s->margin = 20;
    if (equal_aspect) {
        double sx = (width - 2 * s->margin) / (x1 - x0);
        double sy = (height - 2 * s->margin) / (y1 - y0);
        double sc = sx < sy ? sx : sy;
        double cx = 0.5 * (x0 + x1), cy = 0.5 * (y0 + y1);
        double hw = 0.5 * (width - 2 * s->margin) / sc;
        double hh = 0.5 * (height - 2 * s->margin) / sc;
        x0 = cx - hw, x1 = cx + hw, y0 = cy - hh, y1 = cy + hh;
    }
    s->x0 = x0, s->x1 = x1, s->y0 = y0, s->y1 = y1;
    fprintf(s->f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
            "viewBox=\"0 0 %g %g\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            width, height, width, height);
    return 0;
}

void svg_close(svg *s)
{
    if (!s->f)
        return;
    fputs("</svg>\n", s->f);
    fclose(s->f);
    s->f = NULL;
}

double svg_px(const svg *s, double x)
{
    return s->margin + (x - s->x0) / (s->x1 - s->x0) * (s->width - 2 * s->margin);
}

double svg_py(const svg *s, double y)
{
    return s->height - s->margin - (y - s->y0) / (s->y1 - s->y0) * (s->height - 2 * s->margin);
}

void svg_line(svg *s, double xa, double ya, double xb, double yb,
              const char *color, double stroke_width)
{
    fprintf(s->f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
                  "stroke-width=\"%g\"/>\n",
            svg_px(s, xa), svg_py(s, ya), svg_px(s, xb), svg_py(s, yb), color, stroke_width);
}

void svg_polyline(svg *s, const double *xy, size_t n, size_t stride, int closed,
                  const char *color, double stroke_width, double opacity)
{
    fprintf(s->f, "<%s fill=\"none\" stroke=\"%s\" stroke-width=\"%g\" "
                  "stroke-opacity=\"%g\" stroke-linejoin=\"round\" points=\"",
            closed ? "polygon" : "polyline", color, stroke_width, opacity);
    for (size_t i = 0; i < n; i++)
        fprintf(s->f, "%.2f,%.2f ", svg_px(s, xy[i * stride]), svg_py(s, xy[i * stride + 1]));
    fputs("\"/>\n", s->f);
}

void svg_circle(svg *s, double x, double y, double r_px, const char *fill)
{
    fprintf(s->f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%g\" fill=\"%s\"/>\n",
            svg_px(s, x), svg_py(s, y), r_px, fill);
}

void svg_text(svg *s, double px, double py, double size, const char *text)
{
    fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"%g\">%s</text>\n",
            px, py, size, text);
}

void svg_ramp(double t, char out[8])
{
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double r = t < 0.5 ? 0 : 2 * t - 1;
    double g = t < 0.5 ? 2 * t : 2 - 2 * t;
    double b = t < 0.5 ? 1 - 2 * t : 0;
    snprintf(out, 8, "#%02x%02x%02x", (unsigned)(255 * r), (unsigned)(200 * g),
             (unsigned)(255 * b));
}

int svg_chart(const char *path, const char *title, const char *xlabel,
              const double *x, const double *const *ys, const char *const *labels,
              size_t nseries, size_t n, int log_y)
{
    static const char *colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"};
    double ymin = INFINITY, ymax = -INFINITY;
    for (size_t k = 0; k < nseries; k++)
        for (size_t i = 0; i < n; i++) {
            double y = ys[k][i];
            if (log_y) {
                if (!(y > 0))
                    continue;
                y = log10(y);
            }
            if (y < ymin) ymin = y;
            if (y > ymax) ymax = y;
        }
    if (!(ymax > ymin)) {
        ymin -= 1;
        ymax += 1;
    }
    double pad = 0.05 * (ymax - ymin);
    svg s;
    if (svg_open(&s, path, 800, 450, x[0], x[n - 1], ymin - pad, ymax + pad, 0))
        return -1;
    s.margin = 60;
    svg_line(&s, s.x0, s.y0, s.x1, s.y0, "black", 1);
    svg_line(&s, s.x0, s.y0, s.x0, s.y1, "black", 1);
    for (int t = 0; t <= 4; t++) {
        double yv = s.y0 + (s.y1 - s.y0) * t / 4.0;
        char buf[64];
        snprintf(buf, sizeof buf, log_y ? "1e%.1f" : "%.4g", yv);
        svg_text(&s, 2, svg_py(&s, yv) + 4, 11, buf);
        double xv = s.x0 + (s.x1 - s.x0) * t / 4.0;
        snprintf(buf, sizeof buf, "%.3g", xv);
        svg_text(&s, svg_px(&s, xv) - 10, s.height - s.margin + 16, 11, buf);
    }
    svg_text(&s, s.width / 2 - 150, 24, 16, title);
    svg_text(&s, s.width / 2 - 20, s.height - 12, 12, xlabel);
    for (size_t k = 0; k < nseries; k++) {
        const char *c = colors[k % 5];
        fprintf(s.f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", c);
        for (size_t i = 0; i < n; i++) {
            double y = ys[k][i];
            if (log_y) {
                if (!(y > 0))
                    continue;
                y = log10(y);
            }
            fprintf(s.f, "%.2f,%.2f ", svg_px(&s, x[i]), svg_py(&s, y));
        }
        fputs("\"/>\n", s.f);
        fprintf(s.f, "<text x=\"%g\" y=\"%g\" fill=\"%s\" font-family=\"sans-serif\" "
                     "font-size=\"12\">%s</text>\n",
                s.width - 230, 50.0 + 16.0 * (double)k, c, labels[k]);
    }
    svg_close(&s);
    return 0;
}
