/* The lattice's random generator: xoshiro256** (Blackman and Vigna, 2018),
 * seeded through splitmix64. Integer arithmetic only, so the same seed gives
 * the same numbers on every platform. The state lives in the lattice. */
#ifndef CDYN__LATTICE_RNG_H
#define CDYN__LATTICE_RNG_H

#include <stdint.h>

typedef struct cdyn__rng {
    uint64_t s[4];
} cdyn__rng;

/* Expands @p seed into the four state words with splitmix64 (never all zero). */
void cdyn__lattice_rng_seed(cdyn__rng *r, uint64_t seed);

/* The next 64 random bits. */
uint64_t cdyn__lattice_rng_next(cdyn__rng *r);

/* Uniform in [0, 1), 53 random bits. */
double cdyn__lattice_rng_double(cdyn__rng *r);

/* Uniform in [0, n), without bias (rejection); n >= 1. */
uint64_t cdyn__lattice_rng_below(cdyn__rng *r, uint64_t n);

#endif
