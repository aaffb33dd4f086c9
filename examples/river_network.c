/* River networks carved by rain (the erosion model of docs/lattice.md).
 *
 * Erodes a 512 x 512 lattice, then writes into the current directory:
 *   river_heights.png        the eroded surface (shaded relief, coloured by height)
 *   river_network_R<r>.png   the river network (drainage >= R) for several R
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

#include "svg.h"

/* --- A small PNG writer: RGB, 8 bits, zlib "stored" blocks (no
 *     compression, so no dependency). --------------------------------- */

static uint32_t crc_table[256];

static void crc_init(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

static uint32_t crc(uint32_t c, const unsigned char *p, size_t n)
{
    c ^= 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++)
        c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static void chunk(FILE *f, const char *type, const unsigned char *data, size_t n)
{
    unsigned char head[8];
    put32(head, (uint32_t)n);
    memcpy(head + 4, type, 4);
    fwrite(head, 1, 8, f);
    if (n)
        fwrite(data, 1, n, f);
    uint32_t c = crc(crc(0, head + 4, 4), data, n);
    unsigned char tail[4];
    put32(tail, c);
    fwrite(tail, 1, 4, f);
}

/* Writes @p rgb (w * h * 3 bytes, top row first). Returns 0 on success. */
static int write_png(const char *path, const unsigned char *rgb, size_t w, size_t h)
{
    size_t row = 3 * w + 1, raw_n = row * h;
    size_t blocks = (raw_n + 65534) / 65535;
    size_t z_n = 2 + raw_n + 5 * blocks + 4;
    unsigned char *raw = malloc(raw_n), *z = malloc(z_n);
    FILE *f = fopen(path, "wb");
    if (!raw || !z || !f) {
        free(raw);
        free(z);
        if (f)
            fclose(f);
        return -1;
    }
    for (size_t y = 0; y < h; y++) {
        raw[y * row] = 0; /* filter: none */
        memcpy(raw + y * row + 1, rgb + y * 3 * w, 3 * w);
    }
    size_t k = 0;
    z[k++] = 0x78;
    z[k++] = 0x01;
    uint32_t a = 1, b = 0;
    for (size_t off = 0; off < raw_n; off += 65535) {
        size_t len = raw_n - off < 65535 ? raw_n - off : 65535;
        z[k++] = off + len == raw_n; /* BFINAL on the last, BTYPE = stored */
        z[k++] = (unsigned char)len;
        z[k++] = (unsigned char)(len >> 8);
        z[k++] = (unsigned char)~len;
        z[k++] = (unsigned char)(~len >> 8);
        memcpy(z + k, raw + off, len);
        k += len;
        for (size_t i = 0; i < len; i++) {
            a = (a + raw[off + i]) % 65521;
            b = (b + a) % 65521;
        }
    }
    put32(z + k, (b << 16) | a);
    k += 4;
    static const unsigned char sig[8] = {137, 'P', 'N', 'G', 13, 10, 26, 10};
    unsigned char ihdr[13];
    put32(ihdr, (uint32_t)w);
    put32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8;  /* bits per sample */
    ihdr[9] = 2;  /* RGB */
    ihdr[10] = ihdr[11] = ihdr[12] = 0;
    fwrite(sig, 1, 8, f);
    chunk(f, "IHDR", ihdr, 13);
    chunk(f, "IDAT", z, k);
    chunk(f, "IEND", NULL, 0);
    int bad = ferror(f);
    fclose(f);
    free(raw);
    free(z);
    return bad ? -1 : 0;
}

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

static int picture_heights(const char *path, const double *h, size_t w, size_t ht)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < w * ht; i++) {
        lo = h[i] < lo ? h[i] : lo;
        hi = h[i] > hi ? h[i] : hi;
    }
    unsigned char *rgb = malloc(w * ht * 3);
    if (!rgb)
        return -1;
    double tilt, g0;
    relief_scale(h, w, ht, &tilt, &g0);
    for (size_t y = 0; y < ht; y++)
        for (size_t x = 0; x < w; x++) {
            size_t i = y * w + x, row = ht - 1 - y; /* outlet row at the bottom */
            double t = (h[i] - lo) / (hi - lo + 1e-300);
            terrain(t, hillshade(h, w, ht, x, y, tilt, g0), rgb + 3 * (row * w + x));
        }
    int r = write_png(path, rgb, w, ht);
    free(rgb);
    return r;
}

static int picture_network(const char *path, const double *h, const uint32_t *d, size_t w,
                           size_t ht, double R)
{
    unsigned char *rgb = malloc(w * ht * 3);
    if (!rgb)
        return -1;
    double dmax = 1, tilt, g0;
    for (size_t i = 0; i < w * ht; i++)
        dmax = d[i] > dmax ? d[i] : dmax;
    relief_scale(h, w, ht, &tilt, &g0);
    for (size_t y = 0; y < ht; y++)
        for (size_t x = 0; x < w; x++) {
            size_t i = y * w + x, row = ht - 1 - y;
            unsigned char *px = rgb + 3 * (row * w + x);
            if ((double)d[i] >= R) {
                /* Darker blue for larger rivers. */
                double t = log((double)d[i] / R) / log(dmax / R + 1e-300 + 1);
                t = t < 0 ? 0 : t > 1 ? 1 : t;
                px[0] = (unsigned char)(90 - 80 * t);
                px[1] = (unsigned char)(150 - 110 * t);
                px[2] = (unsigned char)(240 - 110 * t);
            } else {
                double s = hillshade(h, w, ht, x, y, tilt, g0);
                double v = 225 + 60 * (s - 1);
                unsigned char g = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
                px[0] = px[1] = px[2] = g;
            }
        }
    int r = write_png(path, rgb, w, ht);
    free(rgb);
    return r;
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
    if (!x || !p || !fit || !count) {
        free(x), free(p), free(fit), free(count);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        count[d[i]]++;
    for (size_t a = amax; a-- > 0;)
        count[a] += count[a + 1]; /* count[a] = sites with A >= a */
    for (size_t j = 0; j < m; j++) {
        double a = pow(10.0, (double)j / 10);
        x[j] = log10(a);
        p[j] = (double)count[(size_t)ceil(a)] / (double)n;
        fit[j] = pow(a, -1.0 / 3); /* the Scheidegger slope, for the eye */
    }
    const double *ys[2] = {p, fit};
    const char *labels[2] = {"P(A >= a)", "a^(-1/3)"};
    int r = svg_chart(path, "Drainage areas", "log10 a (sites)", x, ys, labels, 2, m, 1);
    free(x), free(p), free(fit), free(count);
    return r;
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
    crc_init();

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
    if ((st = cdyn_lattice_drainage(lat, d, n)) != CDYN_OK)
        return fail(lat, st, "drainage");
    if (picture_heights("river_heights.png", h, size, size) != 0)
        fprintf(stderr, "river_network: cannot write river_heights.png\n");
    const double thresholds[3] = {10, 100, 1000};
    for (int k = 0; k < 3; k++) {
        char path[64];
        snprintf(path, sizeof path, "river_network_R%g.png", thresholds[k]);
        if (picture_network(path, h, d, size, size, thresholds[k]) != 0)
            fprintf(stderr, "river_network: cannot write %s\n", path);
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
    printf("wrote river_heights.png, river_network_R10.png, river_network_R100.png, "
           "river_network_R1000.png, river_areas.svg\n");
    free(h);
    free(d);
    cdyn_lattice_destroy(lat);
    return 0;
}
