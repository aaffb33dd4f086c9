/* ESRI ASCII grids (.asc): what the reader (asc_read.c) and the writer
 * (asc_write.c) share. Numbers are read and written in the C notation
 * whatever the program's locale: a '.' decimal point, never a ','. */
#ifndef CDYN__LATTICE_ASC_H
#define CDYN__LATTICE_ASC_H

#include <stdbool.h>
#include <stddef.h>

/* The longest number token read or written. */
#define CDYN__ASC_TOKEN_MAX 64

/* The NODATA_value written when no value of the field collides with it. */
#define CDYN__ASC_NODATA -9999.0

/* Parses @p tok (@p len bytes, no spaces) as a decimal number: an optional
 * sign, digits with an optional '.', an optional exponent; no "inf", "nan"
 * or hexadecimal. Correctly rounded where the C library's strtod is.
 * false when the token is not such a number or is too long. */
bool cdyn__asc_parse_double(const char *tok, size_t len, double *out);

/* Parses @p tok as a whole number in 1 .. limit. */
bool cdyn__asc_parse_count(const char *tok, size_t len, size_t limit, size_t *out);

/* Writes @p v with 17 significant digits (it reads back to the same bits)
 * into @p buf (at least CDYN__ASC_TOKEN_MAX bytes) with a '.' decimal point;
 * returns the length. */
size_t cdyn__asc_format_double(double v, char *buf);

#endif
