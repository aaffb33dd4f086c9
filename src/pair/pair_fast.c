/* The neighbour-list kernel of Lennard-Jones pair sets (WCA and LJ without
 * damping): the hot loop of a liquid. With r2 = |d|^2 and s6 = (sigma^2 /
 * r2)^3 the force on q is d times F / r = 24 eps s6 (2 s6 - 1) / r2, so no
 * square root is taken. Forces are summed in the list's sorted order into
 * list.fs, each member's own sum held in registers, and added to f once per
 * member at the end. */
#include <string.h>

#include "core/system.h"
#include "pair/pair.h"

static void kernel3(const cdyn__nlist *nl, double rc2, double s2, double c24, double *fs)
{
    const double *pos = nl->pos;
    const uint32_t *start = nl->start, *nbr = nl->nbr;
    for (uint32_t p = 0; p < nl->n; p++) {
        const double xp = pos[3 * p], yp = pos[3 * p + 1], zp = pos[3 * p + 2];
        double fx = 0, fy = 0, fz = 0;
        for (uint32_t e = start[p], end = start[p + 1]; e < end; e++) {
            const uint32_t q = nbr[e];
            const double dx = pos[3 * q] - xp, dy = pos[3 * q + 1] - yp,
                         dz = pos[3 * q + 2] - zp;
            const double r2 = dx * dx + dy * dy + dz * dz;
            if (r2 < rc2 && r2 > 0) {
                const double ir2 = 1.0 / r2, sr2 = s2 * ir2, sr6 = sr2 * sr2 * sr2;
                const double ff = c24 * sr6 * (2.0 * sr6 - 1.0) * ir2;
                const double gx = ff * dx, gy = ff * dy, gz = ff * dz;
                fs[3 * q] += gx;
                fs[3 * q + 1] += gy;
                fs[3 * q + 2] += gz;
                fx -= gx;
                fy -= gy;
                fz -= gz;
            }
        }
        fs[3 * p] += fx;
        fs[3 * p + 1] += fy;
        fs[3 * p + 2] += fz;
    }
}

static void kernel2(const cdyn__nlist *nl, double rc2, double s2, double c24, double *fs)
{
    const double *pos = nl->pos;
    const uint32_t *start = nl->start, *nbr = nl->nbr;
    for (uint32_t p = 0; p < nl->n; p++) {
        const double xp = pos[2 * p], yp = pos[2 * p + 1];
        double fx = 0, fy = 0;
        for (uint32_t e = start[p], end = start[p + 1]; e < end; e++) {
            const uint32_t q = nbr[e];
            const double dx = pos[2 * q] - xp, dy = pos[2 * q + 1] - yp;
            const double r2 = dx * dx + dy * dy;
            if (r2 < rc2 && r2 > 0) {
                const double ir2 = 1.0 / r2, sr2 = s2 * ir2, sr6 = sr2 * sr2 * sr2;
                const double ff = c24 * sr6 * (2.0 * sr6 - 1.0) * ir2;
                const double gx = ff * dx, gy = ff * dy;
                fs[2 * q] += gx;
                fs[2 * q + 1] += gy;
                fx -= gx;
                fy -= gy;
            }
        }
        fs[2 * p] += fx;
        fs[2 * p + 1] += fy;
    }
}

/* The pairs through the faces of a periodic box. */
static void shifted(const cdyn__nlist *nl, double rc2, double s2, double c24, double *fs)
{
    const size_t d = (size_t)nl->dim;
    const double *pos = nl->pos;
    for (size_t i = 0; i < nl->n_sh; i++) {
        const uint32_t p = nl->sh[2 * i], q = nl->sh[2 * i + 1];
        double sh[3], dx[3] = {0, 0, 0}, r2 = 0;
        cdyn__shift_of(nl->sh_code[i], nl->len, sh);
        for (size_t k = 0; k < d; k++) {
            dx[k] = pos[q * d + k] - pos[p * d + k] + sh[k];
            r2 += dx[k] * dx[k];
        }
        if (!(r2 < rc2 && r2 > 0))
            continue;
        const double ir2 = 1.0 / r2, sr2 = s2 * ir2, sr6 = sr2 * sr2 * sr2;
        const double ff = c24 * sr6 * (2.0 * sr6 - 1.0) * ir2;
        for (size_t k = 0; k < d; k++) {
            fs[q * d + k] += ff * dx[k];
            fs[p * d + k] -= ff * dx[k];
        }
    }
}

void cdyn__pair_fast_lj(const cdyn_system *sys, cdyn__pair *p, double *f)
{
    const cdyn__nlist *nl = &p->list;
    const size_t d = (size_t)sys->dim, n = nl->n;
    double *fs = nl->fs;
    const double rc2 = p->rc * p->rc, s2 = p->sigma * p->sigma, c24 = 24.0 * p->epsilon;
    memset(fs, 0, n * d * sizeof *fs);
    if (d == 3)
        kernel3(nl, rc2, s2, c24, fs);
    else
        kernel2(nl, rc2, s2, c24, fs);
    if (nl->n_sh)
        shifted(nl, rc2, s2, c24, fs);
    const uint32_t *sslot = nl->sslot;
    if (d == 3) {
        for (size_t q = 0; q < n; q++) {
            double *fq = f + 3 * (size_t)sslot[q];
            fq[0] += fs[3 * q];
            fq[1] += fs[3 * q + 1];
            fq[2] += fs[3 * q + 2];
        }
    } else {
        for (size_t q = 0; q < n; q++) {
            double *fq = f + 2 * (size_t)sslot[q];
            fq[0] += fs[2 * q];
            fq[1] += fs[2 * q + 1];
        }
    }
}
