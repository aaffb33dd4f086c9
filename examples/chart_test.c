/* chart_test: checks of the examples' picture code that a look at the
 * pictures would miss: round ticks and their labels, a chart written whole,
 * and (with zlib) a PNG that decodes to the pixels it was given. Prints
 * "N passed, N failed" and exits non-zero on a failure. Not part of the
 * library. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "ticks.h"
#ifdef CDYN_EXAMPLE_ZLIB
#include <zlib.h>

#include "png.h"
#endif

static int passed, failed;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (cond) {                                                                        \
            passed++;                                                                      \
        } else {                                                                           \
            failed++;                                                                      \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond);             \
        }                                                                                  \
    } while (0)

/* Every tick a whole multiple of the step between the first two. */
static int round_ticks(const ticks *t)
{
    if (t->n < 2)
        return 0;
    double step = t->v[1] - t->v[0];
    for (int i = 0; i < t->n; i++) {
        double k = t->v[i] / step;
        if (fabs(k - round(k)) > 1e-6)
            return 0;
    }
    double m = step / pow(10.0, floor(log10(step) + 1e-9));
    return fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9;
}

static void test_ticks(void)
{
    ticks t;
    ticks_linear(0.9885, 1.242, 5, 0, &t); /* polymer's old 0.9885 and 1.242 */
    CHECK(round_ticks(&t) && strcmp(t.label[0], "1.0") == 0);
    ticks_linear(-4.31, 90.5, 5, 0, &t);
    CHECK(round_ticks(&t) && strcmp(t.label[0], "0") == 0 && strcmp(t.label[1], "20") == 0);
    ticks_linear(-6e-5, 6e-5, 6, 0, &t);
    CHECK(round_ticks(&t) && strstr(t.factor, "10^{") && !strchr(t.label[0], 'e'));
    ticks_linear(0, 5, 8, 1, &t);
    CHECK(t.lo == 0 && t.hi == 5 && t.n >= 6);
    ticks_log(1e-16, 2e-4, 10, 1, &t); /* decades, never "1e-0.8" */
    CHECK(t.lo == 1e-16 && fabs(t.hi / 1e-3 - 1) < 1e-12);
    int labels = 0, bad = 0;
    for (int i = 0; i < t.n; i++) {
        labels += t.label[i][0] != '\0';
        bad |= strchr(t.label[i], 'e') != NULL || strchr(t.label[i], '.') != NULL;
        bad |= t.label[i][0] && strncmp(t.label[i], "10^{", 4) != 0;
    }
    CHECK(!bad && labels >= 4);
    ticks_log(1, 4e4, 8, 0, &t);
    CHECK(t.n > 0 && strcmp(t.label[0], "10^{0}") == 0);
    ticks_log(1.05, 1.24, 5, 1, &t); /* under a decade: round plain values */
    CHECK(round_ticks(&t) && t.lo > 0);
}

static void test_chart(void)
{
    const char *path = "chart_test.svg";
    double x[100], y[100];
    for (int i = 0; i < 100; i++)
        x[i] = i, y[i] = exp(-0.1 * i);
    chart *c = chart_create(600, 400);
    chart_title(c, "decay & <growth>");
    chart_panel *p = chart_panel_add(c, 1);
    chart_x(p, "time (s)", 0);
    chart_y(p, "amount", CHART_LOG);
    chart_line(p, x, y, 100, "e^{-t/10}", NULL);
    chart_label(p, 50, exp(-5.0), NULL, "t = 50 s");
    CHECK(chart_save(c, path) == 0);
    chart_free(c);
    FILE *f = fopen(path, "r");
    char text[65536];
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    CHECK(strstr(text, "<svg") && strstr(text, "</svg>"));
    CHECK(strstr(text, "decay &amp; &lt;growth&gt;") != NULL);
    CHECK(strstr(text, "<polyline") && strstr(text, "baseline-shift=\"super\""));
    CHECK(strstr(text, "1e") == NULL);
    remove(path);
    CHECK(chart_save(NULL, path) == -1);
}

#ifdef CDYN_EXAMPLE_ZLIB
static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Writes a picture, reads the file back: chunk CRCs, then inflates and
 * undoes the row filters and compares the pixels. */
static void test_png(void)
{
    enum { W = 37, H = 23 };
    static unsigned char rgb[W * H * 3], file[65536], raw[H * (3 * W + 1)];
    for (int i = 0; i < W * H * 3; i++)
        rgb[i] = (unsigned char)((i * 7) ^ (i / 5));
    const char *path = "chart_test.png";
    CHECK(png_write(path, rgb, W, H) == 0);
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(file, 1, sizeof file, f) : 0;
    if (f)
        fclose(f);
    remove(path);
    CHECK(n > 8 && memcmp(file, "\x89PNG\r\n\x1a\n", 8) == 0);
    size_t at = 8, idat_at = 0, idat_n = 0;
    int crcs_ok = 1;
    while (at + 12 <= n) {
        size_t len = get32(file + at);
        crcs_ok &= png_crc(0, file + at + 4, len + 4) == get32(file + at + 8 + len);
        if (memcmp(file + at + 4, "IDAT", 4) == 0)
            idat_at = at + 8, idat_n = len;
        at += len + 12;
    }
    CHECK(crcs_ok && at == n && idat_n > 0);
    uLongf raw_n = sizeof raw;
    CHECK(uncompress(raw, &raw_n, file + idat_at, (uLong)idat_n) == Z_OK &&
          raw_n == sizeof raw);
    static unsigned char out[W * H * 3];
    for (int y = 0; y < H; y++) {
        const unsigned char *in = raw + y * (3 * W + 1) + 1;
        unsigned char *row = out + y * 3 * W, *up = y ? row - 3 * W : NULL;
        for (int i = 0; i < 3 * W; i++) {
            int a = i >= 3 ? row[i - 3] : 0, b = up ? up[i] : 0, c = i >= 3 && up ? up[i - 3] : 0;
            int type = raw[y * (3 * W + 1)];
            int pred = type == 1 ? a : type == 2 ? b : type == 3 ? (a + b) / 2
                     : type == 4 ? paeth(a, b, c) : 0;
            row[i] = (unsigned char)(in[i] + pred);
        }
    }
    CHECK(memcmp(out, rgb, sizeof rgb) == 0);
}
#endif

int main(void)
{
    test_ticks();
    test_chart();
#ifdef CDYN_EXAMPLE_ZLIB
    test_png();
#endif
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
