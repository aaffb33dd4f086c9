/* Little-endian bytes for snapshots: integers byte by byte and doubles as
 * their IEEE 754 bits, so that a buffer reads the same on every platform. */
#ifndef CDYN__LATTICE_SNAPSHOT_BYTES_H
#define CDYN__LATTICE_SNAPSHOT_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A cursor writing into a buffer the caller has sized. */
typedef struct cdyn__wbuf {
    unsigned char *p;
    size_t at;
} cdyn__wbuf;

/* A cursor reading from a buffer whose size was checked beforehand. */
typedef struct cdyn__rbuf {
    const unsigned char *p;
    size_t at;
} cdyn__rbuf;

static inline void cdyn__put_bytes(cdyn__wbuf *b, const void *v, size_t n)
{
    memcpy(b->p + b->at, v, n);
    b->at += n;
}

static inline void cdyn__put_u32(cdyn__wbuf *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b->p[b->at++] = (unsigned char)(v >> (8 * i));
}

static inline void cdyn__put_u64(cdyn__wbuf *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b->p[b->at++] = (unsigned char)(v >> (8 * i));
}

static inline void cdyn__put_f64(cdyn__wbuf *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    cdyn__put_u64(b, u);
}

static inline uint32_t cdyn__get_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static inline uint64_t cdyn__get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static inline uint32_t cdyn__get_u32_at(cdyn__rbuf *b)
{
    b->at += 4;
    return cdyn__get_u32(b->p + b->at - 4);
}

static inline uint64_t cdyn__get_u64_at(cdyn__rbuf *b)
{
    b->at += 8;
    return cdyn__get_u64(b->p + b->at - 8);
}

static inline double cdyn__get_f64_at(cdyn__rbuf *b)
{
    uint64_t u = cdyn__get_u64_at(b);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

#endif
