#include "lattice/rng.h"

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void cdyn__lattice_rng_seed(cdyn__rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
    /* splitmix64 is a bijection of its counter, so four consecutive outputs
     * cannot all be zero; keep the guard anyway, it costs nothing. */
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
        r->s[0] = 1;
}

uint64_t cdyn__lattice_rng_next(cdyn__rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double cdyn__lattice_rng_double(cdyn__rng *r)
{
    /* The top 53 bits scaled by 2^-53: exact, so identical everywhere. */
    return (double)(cdyn__lattice_rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t cdyn__lattice_rng_below(cdyn__rng *r, uint64_t n)
{
    /* Reject the lowest (2^64 mod n) values so that every residue is equally
     * likely; fewer than one draw in two is rejected whatever n is. */
    uint64_t threshold = (0 - n) % n;
    for (;;) {
        uint64_t x = cdyn__lattice_rng_next(r);
        if (x >= threshold)
            return x % n;
    }
}
