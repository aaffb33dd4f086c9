/* The byte level of snapshots: little-endian integers and doubles (IEEE
 * 754 bits) written into a caller's buffer or read back with bounds
 * checks, and the checksum. Internal.
 *
 * A writer counts what it would write past its capacity instead of
 * writing it, so that one pass over a system both sizes and writes its
 * snapshot. A reader fails once, at the first read past the end of the
 * section it is in or at the first value a loader refuses, keeping the
 * offset and a message; every read after that returns zeros. */
#ifndef CDYN__SNAPSHOT_WIRE_H
#define CDYN__SNAPSHOT_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cdyn__wout {
    unsigned char *p; /* NULL: count only */
    size_t cap;       /* bytes writable at p */
    size_t len;       /* bytes written or counted */
} cdyn__wout;

void cdyn__out_u8(cdyn__wout *w, uint8_t v);
void cdyn__out_u16(cdyn__wout *w, uint16_t v);
void cdyn__out_u32(cdyn__wout *w, uint32_t v);
void cdyn__out_u64(cdyn__wout *w, uint64_t v);
void cdyn__out_f64(cdyn__wout *w, double v);
void cdyn__out_f64s(cdyn__wout *w, const double *v, size_t n);
void cdyn__out_u32s(cdyn__wout *w, const uint32_t *v, size_t n);
/* Zero bytes up to the next multiple of 8 of the length. */
void cdyn__out_pad(cdyn__wout *w);
/* Writes @p v at offset @p at, already counted (a length known later). */
void cdyn__out_patch_u64(cdyn__wout *w, size_t at, uint64_t v);

typedef struct cdyn__win {
    const unsigned char *p;
    size_t pos, end; /* reads stay below end (the current section's) */
    bool failed;
    size_t fail_at;  /* offset of the first failure */
    char why[224];   /* its message */
} cdyn__win;

/* Records the first failure at the current offset and stops every later
 * read. Returns false, for use in conditions. */
bool cdyn__in_fail(cdyn__win *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

uint8_t cdyn__in_u8(cdyn__win *r);
uint16_t cdyn__in_u16(cdyn__win *r);
uint32_t cdyn__in_u32(cdyn__win *r);
uint64_t cdyn__in_u64(cdyn__win *r);
double cdyn__in_f64(cdyn__win *r);
/* n doubles into out (zeros after a failure). */
void cdyn__in_f64s(cdyn__win *r, double *out, size_t n);
void cdyn__in_u32s(cdyn__win *r, uint32_t *out, size_t n);

/* A flag: 0 or 1, anything else refused (naming @p what). */
bool cdyn__in_flag(cdyn__win *r, const char *what);
/* A double that must be finite (naming @p what); 0 on failure. */
double cdyn__in_finite(cdyn__win *r, const char *what);
/* n doubles that must all be finite. */
void cdyn__in_finites(cdyn__win *r, double *out, size_t n, const char *what);

/* Whether @p count items of at least @p each bytes can still be read: the
 * check before an allocation sized by a count read from the buffer, so
 * that no count makes the loader allocate more than the bytes behind it
 * justify. Fails the reader when not. */
bool cdyn__in_room(cdyn__win *r, uint64_t count, size_t each, const char *what);

/* Skips the zero padding up to the next multiple of 8 (non-zero refused). */
void cdyn__in_pad(cdyn__win *r);

/* The checksum of @p n bytes (a multiple of 8): FNV-1a over 64-bit
 * little-endian words, h = (h ^ w) * 0x100000001b3 from
 * 0xcbf29ce484222325. Each step is a bijection of h, so any change
 * confined to one word changes the result. */
uint64_t cdyn__checksum(const unsigned char *p, size_t n);

#endif /* CDYN__SNAPSHOT_WIRE_H */
