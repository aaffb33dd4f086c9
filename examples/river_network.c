/* River networks carved by rain (the erosion model of docs/lattice.md).
 *
 * Erodes a 512 x 512 lattice, then writes into the current directory:
 *   river_heights.png        the eroded surface (shaded relief, coloured by height)
 *   river_network_R<r>.png   the river network (drainage >= R) for several R
 *                            (PPM instead of PNG when built without zlib)
 *   river_areas.svg          P(A >= a), the drainage-area distribution
 * and prints the fitted exponents: tau of P(A = a) ~ a^-tau, Hack's h of
 * l ~ A^h, the Strahler orders and the bifurcation ratio.
 * Options: --size N, --drops K, --seed S, --periodic, --help. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "chart.h"
#include "raster.h"
#include "ticks.h"

/* --- Pictures ----------------------------------------------------------- */

/* Terrain colours from low (green) through brown to high (white). */
static void terrain(double t, double shade, unsigned char *px)
{
    static const double stops[5][3] = {
        {40, 110, 60}, {120, 160, 80}, {170, 140, 90}, {140, 110, 90}, {245, 245, 240}};
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double s = t * 4;
    int i = s >= 4 ? 3 : (int)s;
    double f = s - i;
    for (int c = 0; c < 3; c++) {
        double v = (stops[i][c] + (stops[i + 1][c] - stops[i][c]) * f) * shade;
        px[c] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

/* Rivers: darker blue for larger ones (t = 0 at the threshold, 1 at the
 * largest drainage area). */
static void river_blue(double t, unsigned char *px)
{
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    px[0] = (unsigned char)(90 - 80 * t);
    px[1] = (unsigned char)(150 - 110 * t);
    px[2] = (unsigned char)(240 - 110 * t);
}

/* Shaded relief: the light comes from the upper left of the picture and
 * grazes the surface, so valleys and ridges show; the mean tilt towards
 * row 0 is taken out first (it would only darken the whole picture) and
 * gradients are scaled by their typical size @p g0. Returns about 1 on a
 * flat, more on slopes that face the light. */
static double hillshade(const double *h, size_t w, size_t ht, size_t x, size_t y, double tilt,
                        double g0)
{
    size_t i = y * w + x;
    double gx = 0.5 * ((x + 1 < w ? h[i + 1] : h[i]) - (x > 0 ? h[i - 1] : h[i]));
    double gy = 0.5 * ((y + 1 < ht ? h[i + w] : h[i]) - (y > 0 ? h[i - w] : h[i])) - tilt;
    gx /= g0;
    gy /= g0;
    /* Up in the picture is +y: the light's direction is (-1, +1) in (x, y). */
    double s = 1.0 + 0.45 * (gx - gy) / sqrt(1.0 + gx * gx + gy * gy);
    return s < 0.2 ? 0.2 : s;
}

/* The mean slope towards row 0 and the typical size of the gradient left. */
static void relief_scale(const double *h, size_t w, size_t ht, double *tilt, double *g0)
{
    double sum = 0, sum2 = 0;
    size_t m = 0;
    for (size_t y = 1; y + 1 < ht; y++)
        for (size_t x = 1; x + 1 < w; x++) {
            size_t i = y * w + x;
            sum += 0.5 * (h[i + w] - h[i - w]);
            m++;
        }
    *tilt = m ? sum / (double)m : 0;
    for (size_t y = 1; y + 1 < ht; y++)
        for (size_t x = 1; x + 1 < w; x++) {
            size_t i = y * w + x;
            double gx = 0.5 * (h[i + 1] - h[i - 1]), gy = 0.5 * (h[i + w] - h[i - w]) - *tilt;
            sum2 += gx * gx + gy * gy;
        }
    *g0 = m && sum2 > 0 ? sqrt(sum2 / (double)m) : 1;
}

/* A map of w x ht sites, one pixel each, framed: a title above; below, a
 * colour bar with round values and a length scale in lattice units. */
enum { MARGIN = 14, TITLE_H = 30, KEY_H = 62, BAR_W = 256 };

typedef struct map {
    raster r;
    size_t w, ht; /* sites */
} map;

static const unsigned char INK[3] = {0, 0, 0};

static int map_open(map *m, size_t w, size_t ht, const char *title)
{
    m->w = w, m->ht = ht;
    size_t width = w + 2 * MARGIN < 560 ? 560 : w + 2 * MARGIN;
    if (raster_init(&m->r, width, ht + TITLE_H + KEY_H))
        return -1;
    raster_text(&m->r, MARGIN, 9, title, INK, 1);
    return 0;
}

/* The pixel of site (x, y), the outlet row (y = 0) at the bottom. */
static unsigned char *map_px(map *m, size_t x, size_t y)
{
    size_t row = TITLE_H + (m->ht - 1 - y);
    return m->r.rgb + 3 * (row * m->r.w + MARGIN + x);
}

/* The colour bar: colour(t) for t in [0, 1], ticks at values[k] placed at
 * t_of[k], a label after the bar; and the scale bar on the right. */
static void map_keys(map *m, void (*colour)(double t, unsigned char *px), const double *values,
                     const double *t_of, int n, const char *label)
{
    long y = TITLE_H + (long)m->ht + 12;
    for (long i = 0; i < BAR_W; i++) {
        unsigned char c[3];
        colour((double)i / (BAR_W - 1), c);
        raster_rect(&m->r, MARGIN + i, y, 1, 12, c);
    }
    for (int k = 0; k < n; k++) {
        long x = MARGIN + lround(t_of[k] * (BAR_W - 1));
        char text[32];
        snprintf(text, sizeof text, "%g", values[k] == 0 ? 0.0 : values[k]); /* not "-0" */
        raster_rect(&m->r, x, y + 12, 1, 4, INK);
        long tx = x - raster_text_width(text) / 2;
        raster_text(&m->r, tx < 2 ? 2 : tx, y + 17, text, INK, 0);
    }
    raster_text(&m->r, MARGIN, y + 33, label, INK, 0);
    /* A round length (1, 2 or 5 x 10^k) up to a fifth of the map's width. */
    double fifth = (double)m->w / 5, p10 = pow(10.0, floor(log10(fifth))), q = fifth / p10;
    double len = (q >= 5 ? 5 : q >= 2 ? 2 : 1) * p10;
    char text[48];
    snprintf(text, sizeof text, "%g lattice spacings", len);
    long right = (long)m->r.w - MARGIN, x0 = right - lround(len);
    raster_rect(&m->r, x0, y + 6, lround(len), 2, INK);
    raster_rect(&m->r, x0, y + 2, 2, 10, INK);
    raster_rect(&m->r, right - 2, y + 2, 2, 10, INK);
    raster_text(&m->r, right - raster_text_width(text), y + 17, text, INK, 0);
}

static int map_close(map *m, const char *stem)
{
    int r = raster_save(&m->r, stem);
    raster_free(&m->r);
    return r;
}

static void terrain_flat(double t, unsigned char *px)
{
    terrain(t, 1.0, px);
}

static int picture_heights(const char *stem, const double *h, size_t w, size_t ht)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < w * ht; i++) {
        lo = h[i] < lo ? h[i] : lo;
        hi = h[i] > hi ? h[i] : hi;
    }
    map m;
    char title[96];
    snprintf(title, sizeof title, "Eroded surface of the %zu x %zu lattice (shaded relief)", w,
             ht);
    if (map_open(&m, w, ht, title))
        return -1;
    double tilt, g0;
    relief_scale(h, w, ht, &tilt, &g0);
    for (size_t y = 0; y < ht; y++)
        for (size_t x = 0; x < w; x++) {
            double t = (h[y * w + x] - lo) / (hi - lo + 1e-300);
            terrain(t, hillshade(h, w, ht, x, y, tilt, g0), map_px(&m, x, y));
        }
    ticks t;
    ticks_linear(lo, hi, 5, 0, &t);
    double at[TICKS_MAX];
    for (int k = 0; k < t.n; k++)
        at[k] = (t.v[k] - lo) / (hi - lo + 1e-300);
    map_keys(&m, terrain_flat, t.v, at, t.n, "height (lattice units); outlet row at the bottom");
    return map_close(&m, stem);
}

static int picture_network(const char *stem, const double *h, const uint32_t *d, size_t w,
                           size_t ht, double R)
{
    double dmax = 1, tilt, g0;
    for (size_t i = 0; i < w * ht; i++)
        dmax = d[i] > dmax ? d[i] : dmax;
    double top = log(dmax / R + 1e-300 + 1); /* the colour scale: log(A / R) / top */
    map m;
    char title[96];
    snprintf(title, sizeof title, "River network: drainage area A >= %g sites (%zu x %zu)", R,
             w, ht);
    if (map_open(&m, w, ht, title))
        return -1;
    relief_scale(h, w, ht, &tilt, &g0);
    for (size_t y = 0; y < ht; y++)
        for (size_t x = 0; x < w; x++) {
            size_t i = y * w + x;
            unsigned char *px = map_px(&m, x, y);
            if ((double)d[i] >= R) {
                river_blue(log((double)d[i] / R) / top, px);
            } else {
                double v = 225 + 60 * (hillshade(h, w, ht, x, y, tilt, g0) - 1);
                px[0] = px[1] = px[2] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
    /* Ticks at R and the powers of ten above it. */
    double values[12], at[12];
    int n = 0;
    for (double v = R; v <= dmax && n < 12; v = pow(10.0, floor(log10(v) + 1e-9) + 1), n++) {
        values[n] = v;
        at[n] = log(v / R) / top;
    }
    map_keys(&m, river_blue, values, at, n, "drainage area A (sites); grey: the relief");
    return map_close(&m, stem);
}

static int chart_areas(const char *path, const uint32_t *d, size_t n)
{
    /* P(A >= a) at 10 points per decade. */
    uint32_t amax = 0;
    for (size_t i = 0; i < n; i++)
        amax = d[i] > amax ? d[i] : amax;
    size_t m = (size_t)(10 * log10((double)amax)) + 1;
    double *x = malloc(m * sizeof *x), *p = malloc(m * sizeof *p), *fit = malloc(m * sizeof *fit);
    uint64_t *count = calloc(amax + 2, sizeof *count);
    chart *c = chart_create(800, 500);
    int bad = !x || !p || !fit || !count;
    for (size_t i = 0; !bad && i < n; i++)
        count[d[i]]++;
    for (size_t a = amax; !bad && a-- > 0;)
        count[a] += count[a + 1]; /* count[a] = sites with A >= a */
    for (size_t j = 0; !bad && j < m; j++) {
        x[j] = pow(10.0, (double)j / 10);
        p[j] = (double)count[(size_t)ceil(x[j])] / (double)n;
        fit[j] = pow(x[j], -1.0 / 3); /* the Scheidegger slope, for the eye */
    }
    chart_title(c, "Drainage areas of the eroded lattice: P(A >= a)");
    chart_panel *panel = chart_panel_add(c, 1);
    chart_x(panel, "drainage area a (sites)", CHART_LOG);
    chart_y(panel, "P(A >= a)", CHART_LOG);
    if (!bad) {
        chart_line(panel, x, p, m, "P(A >= a), fraction of the sites", NULL);
        chart_line(panel, x, fit, m, "a^{-1/3} (the Scheidegger model's slope, for the eye)",
                   &(chart_style){.dash = "6,4"});
    }
    bad = bad || chart_save(c, path) != 0;
    chart_free(c);
    free(x), free(p), free(fit), free(count);
    return bad ? -1 : 0;
}

static int fail(cdyn_lattice *lat, cdyn_status st, const char *what)
{
    fprintf(stderr, "river_network: %s: %s (%s)\n", what, cdyn_status_string(st),
            cdyn_lattice_last_error(lat));
    cdyn_lattice_destroy(lat);
    return 1;
}

int main(int argc, char **argv)
{
    size_t size = 512;
    uint64_t drops = 0, seed = 2024;
    int periodic = 0;
    double set[4] = {NAN, NAN, NAN, NAN}; /* E, D, M, S; NaN = library default */
    double slope = NAN, noise = NAN;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--size") == 0 && i + 1 < argc)
            size = (size_t)strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--drops") == 0 && i + 1 < argc)
            drops = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--periodic") == 0)
            periodic = 1;
        else if (strlen(argv[i]) == 3 && argv[i][0] == '-' && argv[i][1] == '-' &&
                 strchr("EDMS", argv[i][2]) && i + 1 < argc) {
            long k = strchr("EDMS", argv[i][2]) - "EDMS";
            set[k] = atof(argv[i + 1]);
            i++;
        }
        else if (strcmp(argv[i], "--slope") == 0 && i + 1 < argc)
            slope = atof(argv[++i]);
        else if (strcmp(argv[i], "--noise") == 0 && i + 1 < argc)
            noise = atof(argv[++i]);
        else {
            printf("usage: river_network [--size N (512)] [--drops K (N^2 / 4)] [--seed S] "
                   "[--periodic]\n"
                   "       [--E e] [--D d] [--M m] [--S s] [--slope a --noise b]\n"
                   "(model parameters and initial surface; the library's defaults otherwise)\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    if (size < 16 || size > 8192) {
        fprintf(stderr, "river_network: size must be 16..8192\n");
        return 2;
    }
    if (drops == 0)
        drops = (uint64_t)size * size / 4;

    cdyn_lattice *lat = NULL;
    cdyn_status st = cdyn_lattice_create(size, size, seed, NULL, &lat);
    if (st != CDYN_OK)
        return fail(NULL, st, "create");
    if (periodic && (st = cdyn_lattice_set_boundary(lat, CDYN_LATTICE_PERIODIC)) != CDYN_OK)
        return fail(lat, st, "boundary");
    const cdyn_lattice_param which[4] = {CDYN_LATTICE_E, CDYN_LATTICE_D, CDYN_LATTICE_M,
                                         CDYN_LATTICE_S};
    for (int k = 0; k < 4; k++)
        if (!isnan(set[k]) && (st = cdyn_lattice_set_param(lat, which[k], set[k])) != CDYN_OK)
            return fail(lat, st, "parameter");
    if (!isnan(slope) && (st = cdyn_lattice_init_tilted(lat, slope, noise)) != CDYN_OK)
        return fail(lat, st, "initial surface");
    double E, D, M, S;
    cdyn_lattice_get_param(lat, CDYN_LATTICE_E, &E);
    cdyn_lattice_get_param(lat, CDYN_LATTICE_D, &D);
    cdyn_lattice_get_param(lat, CDYN_LATTICE_M, &M);
    cdyn_lattice_get_param(lat, CDYN_LATTICE_S, &S);
    printf("river_network: %zu x %zu lattice, seed %llu, E = %g, D = %g, M = %g, S = %g\n",
           size, size, (unsigned long long)seed, E, D, M, S);
    printf("raining %llu drops", (unsigned long long)drops);
    fflush(stdout);
    for (int k = 0; k < 10; k++) {
        uint64_t part = drops / 10 + (k < (int)(drops % 10));
        if ((st = cdyn_lattice_rain(lat, part)) != CDYN_OK)
            return fail(lat, st, "rain");
        putchar('.');
        fflush(stdout);
    }
    cdyn_lattice_counters c = {.size = sizeof c};
    cdyn_lattice_get_counters(lat, &c);
    printf("\n  %.1f moves per drop, %llu capped walks, %llu slides; removed %.4g by erosion, "
           "%.4g by slides\n",
           (double)c.walk_steps / (double)c.drops, (unsigned long long)c.capped_walks,
           (unsigned long long)c.slides, c.total_eroded, c.total_slid);

    size_t n = size * size;
    double *h = malloc(n * sizeof *h);
    uint32_t *d = malloc(n * sizeof *d);
    if (!h || !d) {
        fprintf(stderr, "river_network: out of memory\n");
        return 1;
    }
    cdyn_lattice_get_heights(lat, h, n);
    if ((st = cdyn_lattice_compute_drainage(lat, d, n)) != CDYN_OK)
        return fail(lat, st, "drainage");
    if (picture_heights("river_heights", h, size, size) != 0)
        fprintf(stderr, "river_network: cannot write river_heights.%s\n", RASTER_EXT);
    const double thresholds[3] = {10, 100, 1000};
    for (int k = 0; k < 3; k++) {
        char stem[64];
        snprintf(stem, sizeof stem, "river_network_R%g", thresholds[k]);
        if (picture_network(stem, h, d, size, size, thresholds[k]) != 0)
            fprintf(stderr, "river_network: cannot write %s.%s\n", stem, RASTER_EXT);
    }
    if (chart_areas("river_areas.svg", d, n) != 0)
        fprintf(stderr, "river_network: cannot write river_areas.svg\n");

    cdyn_lattice_set_param(lat, CDYN_LATTICE_R, 100);
    /* The library's default fit ranges: [10, max drainage / 20]. */
    cdyn_lattice_stats s = {.size = sizeof s};
    if ((st = cdyn_lattice_compute_stats(lat, NULL, &s)) != CDYN_OK)
        return fail(lat, st, "stats");
    printf("drainage areas: P(A >= a) ~ a^-%.3f over a = %g..%g (%llu points): tau = %.3f\n",
           s.area_exponent, s.area_fit_min, s.area_fit_max,
           (unsigned long long)s.area_fit_points, s.tau);
    printf("Hack's law: main-stream length ~ A^%.3f over A = %g..%g\n", s.hack_exponent,
           s.hack_fit_min, s.hack_fit_max);
    printf("Strahler orders of the network (drainage >= %g, %llu sites): max order %u, "
           "streams",
           s.threshold, (unsigned long long)s.network_sites, s.max_order);
    for (uint32_t k = 0; k < s.max_order; k++)
        printf(" %llu", (unsigned long long)s.streams[k]);
    printf(", bifurcation ratio %.2f\n", s.bifurcation_ratio);
    printf("(real river networks: tau ~ 1.43, h ~ 0.57, bifurcation ratio 3..5; the "
           "Scheidegger model: 4/3, 2/3)\n");
    printf("wrote river_heights.%s, river_network_R10.%s, river_network_R100.%s, "
           "river_network_R1000.%s, river_areas.svg\n", RASTER_EXT, RASTER_EXT, RASTER_EXT,
           RASTER_EXT);
    free(h);
    free(d);
    cdyn_lattice_destroy(lat);
    return 0;
}
