/* Pictures as pixels: canvas, rectangles, text, and the file. */
#include "raster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png.h"

#ifdef CDYN_EXAMPLE_ZLIB
const char RASTER_EXT[] = "png";
#else
const char RASTER_EXT[] = "ppm";
#endif

int raster_init(raster *r, size_t w, size_t h)
{
    r->w = w, r->h = h;
    r->rgb = malloc(w * h * 3);
    if (!r->rgb)
        return -1;
    memset(r->rgb, 255, w * h * 3);
    return 0;
}

void raster_free(raster *r)
{
    free(r->rgb);
    r->rgb = NULL;
}

void raster_rect(raster *r, long x, long y, long w, long h, const unsigned char c[3])
{
    for (long j = y < 0 ? 0 : y; j < y + h && j < (long)r->h; j++)
        for (long i = x < 0 ? 0 : x; i < x + w && i < (long)r->w; i++)
            memcpy(r->rgb + 3 * ((size_t)j * r->w + (size_t)i), c, 3);
}

long raster_text_width(const char *s)
{
    return RASTER_CHAR_W * (long)strlen(s);
}

long raster_text(raster *r, long x, long y, const char *s, const unsigned char c[3], int bold)
{
    long x0 = x;
    for (; *s; s++, x += RASTER_CHAR_W) {
        int ch = *s >= ' ' && *s <= '~' ? *s - ' ' : '?' - ' ';
        for (int row = 0; row < RASTER_CHAR_H; row++)
            for (int col = 0; col < RASTER_CHAR_W; col++)
                if (RASTER_FONT[ch][row] & (0x80 >> col))
                    raster_rect(r, x + col, y + row, 1 + (bold != 0), 1, c);
    }
    return x - x0;
}

int raster_save(const raster *r, const char *stem)
{
    char path[512];
    snprintf(path, sizeof path, "%s.%s", stem, RASTER_EXT);
#ifdef CDYN_EXAMPLE_ZLIB
    return png_write(path, r->rgb, r->w, r->h);
#else
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fprintf(f, "P6\n%zu %zu\n255\n", r->w, r->h);
    fwrite(r->rgb, 3, r->w * r->h, f);
    int bad = ferror(f);
    return fclose(f) != 0 || bad ? -1 : 0;
#endif
}
