/* A small PNG encoder: chunks, CRCs and row filters here, deflate from zlib. */
#include "png.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

uint32_t png_crc(uint32_t crc, const unsigned char *p, size_t n)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* Length, type, data, CRC of type and data. */
static void chunk(FILE *f, const char *type, const unsigned char *data, size_t n)
{
    unsigned char head[8], tail[4];
    put32(head, (uint32_t)n);
    memcpy(head + 4, type, 4);
    put32(tail, png_crc(png_crc(0, head + 4, 4), data, n));
    fwrite(head, 1, 8, f);
    if (n)
        fwrite(data, 1, n, f);
    fwrite(tail, 1, 4, f);
}

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Row @p y filtered with each of the five filters; keeps the one whose
 * bytes, read as signed, add up to the least (the usual heuristic). */
static void filter_row(const unsigned char *rgb, size_t w, size_t y, unsigned char *out,
                       unsigned char *trial)
{
    const size_t n = 3 * w;
    const unsigned char *row = rgb + y * n, *up = y ? row - n : NULL;
    unsigned long best = (unsigned long)-1;
    for (int type = 0; type < 5; type++) {
        unsigned long sum = 0;
        trial[0] = (unsigned char)type;
        for (size_t i = 0; i < n; i++) {
            int a = i >= 3 ? row[i - 3] : 0, b = up ? up[i] : 0, c = i >= 3 && up ? up[i - 3] : 0;
            int pred = type == 1 ? a : type == 2 ? b : type == 3 ? (a + b) / 2
                     : type == 4 ? paeth(a, b, c) : 0;
            unsigned char v = (unsigned char)(row[i] - pred);
            trial[1 + i] = v;
            sum += v < 128 ? v : 256u - v;
        }
        if (sum < best) {
            best = sum;
            memcpy(out, trial, n + 1);
        }
    }
}

int png_write(const char *path, const unsigned char *rgb, size_t w, size_t h)
{
    size_t row = 3 * w + 1, raw_n = row * h;
    uLongf z_n = compressBound((uLong)raw_n);
    unsigned char *raw = malloc(raw_n), *z = malloc(z_n), *trial = malloc(row);
    FILE *f = NULL;
    int bad = !raw || !z || !trial;
    for (size_t y = 0; !bad && y < h; y++)
        filter_row(rgb, w, y, raw + y * row, trial);
    bad = bad || compress2(z, &z_n, raw, (uLong)raw_n, 9) != Z_OK;
    if (!bad && (f = fopen(path, "wb")) != NULL) {
        static const unsigned char SIGNATURE[8] = {137, 'P', 'N', 'G', 13, 10, 26, 10};
        unsigned char ihdr[13];
        put32(ihdr, (uint32_t)w);
        put32(ihdr + 4, (uint32_t)h);
        ihdr[8] = 8;  /* bits per sample */
        ihdr[9] = 2;  /* RGB */
        ihdr[10] = ihdr[11] = ihdr[12] = 0; /* deflate, adaptive filters, no interlace */
        fwrite(SIGNATURE, 1, 8, f);
        chunk(f, "IHDR", ihdr, 13);
        chunk(f, "IDAT", z, z_n);
        chunk(f, "IEND", NULL, 0);
        bad = ferror(f);
        bad |= fclose(f) != 0;
    } else {
        bad = 1;
    }
    free(raw);
    free(z);
    free(trial);
    return bad ? -1 : 0;
}
