/* Which parts of a picture are already drawn on. */
#include "occupancy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int occupancy_init(occupancy *o, double width, double height, double cell)
{
    o->cell = cell;
    o->w = (long)ceil(width / cell);
    o->h = (long)ceil(height / cell);
    o->c = calloc((size_t)(o->w * o->h), 1);
    return o->c ? 0 : -1;
}

void occupancy_free(occupancy *o)
{
    free(o->c);
    o->c = NULL;
}

void occupancy_clear(occupancy *o)
{
    memset(o->c, 0, (size_t)(o->w * o->h));
}

/* The cell range covering [a, b] pixels, clamped to [0, n - 1]; empty when
 * *lo > *hi. */
static void cells(const occupancy *o, double a, double b, long n, long *lo, long *hi)
{
    double l = floor(fmin(a, b) / o->cell), h = floor(fmax(a, b) / o->cell);
    *lo = l < 0 ? 0 : l > (double)n ? n : (long)l;
    *hi = h < -1 ? -1 : h > (double)(n - 1) ? n - 1 : (long)h;
}

void occupancy_box(occupancy *o, double x0, double y0, double x1, double y1, int what)
{
    if (!(isfinite(x0) && isfinite(y0) && isfinite(x1) && isfinite(y1)))
        return;
    long i0, i1, j0, j1;
    cells(o, x0, x1, o->w, &i0, &i1);
    cells(o, y0, y1, o->h, &j0, &j1);
    for (long j = j0; j <= j1; j++)
        for (long i = i0; i <= i1; i++)
            o->c[j * o->w + i] |= (unsigned char)what;
}

void occupancy_segment(occupancy *o, double xa, double ya, double xb, double yb, double width)
{
    double len = hypot(xb - xa, yb - ya), r = 0.5 * width;
    if (!isfinite(len))
        return;
    long steps = (long)ceil(len / (0.5 * o->cell));
    if (steps > 100000) /* far outside the picture */
        steps = 100000;
    for (long k = 0; k <= steps; k++) {
        double t = steps ? (double)k / (double)steps : 0, x = xa + t * (xb - xa);
        double y = ya + t * (yb - ya);
        occupancy_box(o, x - r, y - r, x + r, y + r, OCC_DRAWING);
    }
}

/* Scan lines through the cells' centres: the even-odd rule fills between
 * pairs of crossings. */
void occupancy_polygon(occupancy *o, const double *xy, size_t n)
{
    if (n < 3)
        return;
    double y0 = INFINITY, y1 = -INFINITY;
    for (size_t k = 0; k < n; k++)
        y0 = fmin(y0, xy[2 * k + 1]), y1 = fmax(y1, xy[2 * k + 1]);
    double *cross = malloc(n * sizeof *cross);
    if (!cross)
        return;
    long j0, j1;
    cells(o, y0, y1, o->h, &j0, &j1);
    for (long j = j0; j <= j1; j++) {
        double y = ((double)j + 0.5) * o->cell;
        size_t m = 0;
        for (size_t a = 0, b = n - 1; a < n; b = a++) {
            double ya = xy[2 * a + 1], yb = xy[2 * b + 1];
            if ((ya > y) != (yb > y))
                cross[m++] = xy[2 * a] + (y - ya) * (xy[2 * b] - xy[2 * a]) / (yb - ya);
        }
        for (size_t a = 1; a < m; a++) /* insertion sort: few crossings */
            for (size_t b = a; b > 0 && cross[b - 1] > cross[b]; b--) {
                double t = cross[b];
                cross[b] = cross[b - 1], cross[b - 1] = t;
            }
        for (size_t a = 0; a + 1 < m; a += 2) {
            long i0, i1;
            cells(o, cross[a] + 0.5 * o->cell, cross[a + 1] - 0.5 * o->cell, o->w, &i0, &i1);
            for (long i = i0; i <= i1; i++)
                o->c[j * o->w + i] |= OCC_DRAWING;
        }
    }
    free(cross);
}

long occupancy_count(const occupancy *o, double x0, double y0, double x1, double y1, int what)
{
    long i0 = (long)floor(fmin(x0, x1) / o->cell), i1 = (long)floor(fmax(x0, x1) / o->cell);
    long j0 = (long)floor(fmin(y0, y1) / o->cell), j1 = (long)floor(fmax(y0, y1) / o->cell);
    long marked = 0;
    for (long j = j0; j <= j1; j++)
        for (long i = i0; i <= i1; i++)
            marked += i < 0 || j < 0 || i >= o->w || j >= o->h || (o->c[j * o->w + i] & what);
    return marked;
}
