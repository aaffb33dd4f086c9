/* Finiteness tests that vectorize. Internal. */
#ifndef CDYN__CORE_FINITE_H
#define CDYN__CORE_FINITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Non-zero when the double's 11 exponent bits are all set (inf or NaN),
 * i.e. when exponent + 1 carries into bit 11. Integer operations OR-ed
 * together with no early exit, so the loops that use it still vectorize. */
static inline uint64_t cdyn__nonfinite_bit(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return (((bits >> 52) & 0x7ffu) + 1u) >> 11;
}

/* All @p n values finite: about one pass over them. */
bool cdyn__all_finite(const double *v, size_t n);

#endif /* CDYN__CORE_FINITE_H */
