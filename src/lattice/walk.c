#include "lattice/walk.h"

#include <math.h>
#include <string.h>

/* 2^(j/64), j = 0..63, correctly rounded (from 60-digit decimal arithmetic). */
static const double exp2_table[64] = {
    0x1.0000000000000p+0, 0x1.02c9a3e778061p+0, 0x1.059b0d3158574p+0,
    0x1.0874518759bc8p+0, 0x1.0b5586cf9890fp+0, 0x1.0e3ec32d3d1a2p+0,
    0x1.11301d0125b51p+0, 0x1.1429aaea92de0p+0, 0x1.172b83c7d517bp+0,
    0x1.1a35beb6fcb75p+0, 0x1.1d4873168b9aap+0, 0x1.2063b88628cd6p+0,
    0x1.2387a6e756238p+0, 0x1.26b4565e27cddp+0, 0x1.29e9df51fdee1p+0,
    0x1.2d285a6e4030bp+0, 0x1.306fe0a31b715p+0, 0x1.33c08b26416ffp+0,
    0x1.371a7373aa9cbp+0, 0x1.3a7db34e59ff7p+0, 0x1.3dea64c123422p+0,
    0x1.4160a21f72e2ap+0, 0x1.44e086061892dp+0, 0x1.486a2b5c13cd0p+0,
    0x1.4bfdad5362a27p+0, 0x1.4f9b2769d2ca7p+0, 0x1.5342b569d4f82p+0,
    0x1.56f4736b527dap+0, 0x1.5ab07dd485429p+0, 0x1.5e76f15ad2148p+0,
    0x1.6247eb03a5585p+0, 0x1.6623882552225p+0, 0x1.6a09e667f3bcdp+0,
    0x1.6dfb23c651a2fp+0, 0x1.71f75e8ec5f74p+0, 0x1.75feb564267c9p+0,
    0x1.7a11473eb0187p+0, 0x1.7e2f336cf4e62p+0, 0x1.82589994cce13p+0,
    0x1.868d99b4492edp+0, 0x1.8ace5422aa0dbp+0, 0x1.8f1ae99157736p+0,
    0x1.93737b0cdc5e5p+0, 0x1.97d829fde4e50p+0, 0x1.9c49182a3f090p+0,
    0x1.a0c667b5de565p+0, 0x1.a5503b23e255dp+0, 0x1.a9e6b5579fdbfp+0,
    0x1.ae89f995ad3adp+0, 0x1.b33a2b84f15fbp+0, 0x1.b7f76f2fb5e47p+0,
    0x1.bcc1e904bc1d2p+0, 0x1.c199bdd85529cp+0, 0x1.c67f12e57d14bp+0,
    0x1.cb720dcef9069p+0, 0x1.d072d4a07897cp+0, 0x1.d5818dcfba487p+0,
    0x1.da9e603db3285p+0, 0x1.dfc97337b9b5fp+0, 0x1.e502ee78b3ff6p+0,
    0x1.ea4afa2a490dap+0, 0x1.efa1bee615a27p+0, 0x1.f50765b6e4540p+0,
    0x1.fa7c1819e90d8p+0,
};

double cdyn__lattice_exp(double x)
{
    if (!(x > -745.0))
        return 0.0; /* underflow, or NaN */
    /* x = (64 m + j) ln2/64 + r with |r| <= ln2/128; ln2/64 is split in a
     * 31-bit head (k * head is exact) and a tail (Cody and Waite). */
    const double inv = 0x1.71547652b82fep+6; /* 64 / ln 2 */
    const double head = 0x1.62e42fec00000p-7, tail = 0x1.d1cf79abc9e3bp-38;
    double k = floor(x * inv + 0.5);
    double m = floor(k * 0.015625);
    int j = (int)(k - 64.0 * m);
    double r = (x - k * head) - k * tail;
    /* Taylor to r^5: the next term is below 4e-17 relative. */
    double p = 1.0 + r * (1.0 + r * (0.5 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120)))));
    double v = exp2_table[j] * p;
    int e = (int)m; /* -1075 .. 0 */
    if (e < -1000) {
        v *= 0x1.0p-200;
        e += 200;
    }
    uint64_t bits = (uint64_t)(e + 1023) << 52;
    double scale;
    memcpy(&scale, &bits, sizeof scale);
    return v * scale;
}

uint32_t cdyn__lattice_walk_choose(const cdyn_lattice *lat, cdyn__rng *rng, uint32_t cur,
                                   uint32_t prev, bool *pit)
{
    const double *h = lat->height;
    uint32_t nb[4], cand[4];
    double dh[4];
    int k = lat->flags ? cdyn__lattice_neighbours_fast(lat, cur, lat->flags[cur], nb)
                       : cdyn__lattice_neighbours(lat, cur, nb);
    int nc = 0;
    bool prev_ok = false;
    double hc = h[cur];
    for (int i = 0; i < k; i++) {
        double d = hc - h[nb[i]];
        if (d >= 0) {
            if (nb[i] == prev) {
                prev_ok = true;
            } else {
                cand[nc] = nb[i];
                dh[nc] = d;
                nc++;
            }
        }
    }
    *pit = false;
    if (nc == 1)
        return cand[0];
    if (nc == 0) {
        if (prev_ok)
            return prev; /* the only move with a nonzero chance */
        /* A pit: climb out over the lowest neighbour this drop has not
         * visited yet (so that a drop caught in a depression explores its
         * rim instead of bouncing between two sites), else the lowest one
         * other than the site it came from. */
        *pit = true;
        const uint32_t *stamp = lat->stamp;
        uint32_t now = lat->stamp_now;
        uint32_t fresh = CDYN__LATTICE_UNSET, any = CDYN__LATTICE_UNSET;
        for (int i = 0; i < k; i++) {
            uint32_t m = nb[i];
            if (m == prev)
                continue;
            if (any == CDYN__LATTICE_UNSET || h[m] < h[any])
                any = m;
            if ((!stamp || stamp[m] != now) &&
                (fresh == CDYN__LATTICE_UNSET || h[m] < h[fresh]))
                fresh = m;
        }
        if (fresh != CDYN__LATTICE_UNSET)
            return fresh;
        return any != CDYN__LATTICE_UNSET ? any : prev;
    }
    /* Weights exp(E dh) relative to the largest one, exp(E (dh_i - dh_ref))
     * <= 1: no overflow, and the reference weighs exactly 1. */
    int ref = 0;
    double E = lat->E;
    for (int i = 1; i < nc; i++)
        if (E >= 0 ? dh[i] > dh[ref] : dh[i] < dh[ref])
            ref = i;
    double w[4], sum = 0;
    for (int i = 0; i < nc; i++) {
        w[i] = i == ref ? 1.0 : cdyn__lattice_exp(E * (dh[i] - dh[ref]));
        sum += w[i];
    }
    double u = cdyn__lattice_rng_double(rng) * sum;
    for (int i = 0; i < nc - 1; i++) {
        if (u < w[i])
            return cand[i];
        u -= w[i];
    }
    return cand[nc - 1];
}
