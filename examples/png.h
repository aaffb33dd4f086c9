/* A small PNG encoder: 8-bit RGB, each row filtered as the PNG
 * specification suggests, deflated by zlib. Not part of the library. */
#ifndef CDYN_EXAMPLE_PNG_H
#define CDYN_EXAMPLE_PNG_H

#include <stddef.h>
#include <stdint.h>

/* Writes @p rgb (w * h * 3 bytes, top row first) to @p path. Returns 0, or
 * -1 when out of memory or the file cannot be written. Needs zlib: only
 * built when meson finds it (CDYN_EXAMPLE_ZLIB). */
int png_write(const char *path, const unsigned char *rgb, size_t w, size_t h);

/* The CRC-32 of PNG chunks (ISO 3309, reflected, polynomial 0xedb88320),
 * continued from @p crc (0 to start). */
uint32_t png_crc(uint32_t crc, const unsigned char *p, size_t n);

#endif
