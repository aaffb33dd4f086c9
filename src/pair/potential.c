/* The scalar law of each pair potential: F(r), U(r) and dF/dr at one
 * distance (include/cdyn/pair.h gives the formulas). */
#include <math.h>

#include "core/system.h"
#include "core/callback.h"
#include "pair/pair.h"

/* WCA and LJ: with s6 = (sigma / r)^6, F = (24 eps / r) s6 (2 s6 - 1),
 * dF/dr = (24 eps / r^2) s6 (7 - 26 s6), written so that an overflow of s6
 * gives +-inf, never NaN; U = 4 eps s6 (s6 - 1) + u_shift. */
static void lennard_jones(const cdyn__pair *p, double r, double *force, double *energy,
                          double *dforce)
{
    if (p->epsilon == 0) { /* no force at all; avoids 0 * inf at tiny r */
        *force = 0;
        if (dforce)
            *dforce = 0;
        if (energy)
            *energy = 0;
        return;
    }
    double ir = 1.0 / r, s2 = p->sigma * p->sigma * ir * ir, s6 = s2 * s2 * s2;
    double c = 24.0 * p->epsilon * ir;
    if (dforce)
        *dforce = c * ir * s6 * (7.0 - 26.0 * s6);
    *force = c * s6 * (2.0 * s6 - 1.0);
    if (energy) {
        if (!(r > 0)) {
            *energy = HUGE_VAL;
        } else {
            double e2 = p->sigma * p->sigma / (r * r), e6 = e2 * e2 * e2;
            *energy = 4.0 * p->epsilon * e6 * (e6 - 1.0) + p->u_shift;
        }
    }
}

/* Cubic Hermite interpolation of (U_k, -F_k) on the table's grid. */
static void table(const cdyn__pair *p, double r, double *force, double *energy, double *dforce)
{
    const double h = p->table_h, inv_h = p->table_inv_h;
    double at = (r - p->table_r0) * inv_h;
    double cell = floor(at);
    uint32_t i = cell < 0 ? 0
                 : cell > (double)(p->table_n - 2) ? p->table_n - 2
                                                   : (uint32_t)cell;
    double u = at - (double)i;
    const double *t = p->table + 2 * (size_t)i;
    double y0 = t[0], y1 = t[2], m0 = -t[1] * h, m1 = -t[3] * h; /* dU/du = -F h */
    double u2 = u * u, u3 = u2 * u;
    double du = (6 * u2 - 6 * u) * (y0 - y1) + (3 * u2 - 4 * u + 1) * m0 + (3 * u2 - 2 * u) * m1;
    *force = -du * inv_h;
    if (energy)
        *energy = (2 * u3 - 3 * u2 + 1) * y0 + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * y1 +
                  (u3 - u2) * m1;
    if (dforce) {
        double ddu = (12 * u - 6) * (y0 - y1) + (6 * u - 4) * m0 + (6 * u - 2) * m1;
        *dforce = -ddu * inv_h * inv_h;
    }
}

cdyn_status cdyn__pair_law(const cdyn_system *sys, const cdyn__pair *p, double t, uint32_t a,
                           uint32_t b, double r, double rc, double *force, double *energy,
                           double *dforce)
{
    switch ((cdyn_pair_kind)p->kind) {
    case CDYN_PAIR_HERTZ: {
        double delta = rc - r, s = sqrt(delta);
        if (dforce)
            *dforce = -1.5 * p->k * s;
        *force = p->k * delta * s;
        if (energy)
            *energy = 0.4 * p->k * delta * delta * s;
        return CDYN_OK;
    }
    case CDYN_PAIR_LJ_REPULSIVE:
    case CDYN_PAIR_LJ:
        lennard_jones(p, r, force, energy, dforce);
        return CDYN_OK;
    case CDYN_PAIR_TABLE:
        table(p, r, force, energy, dforce);
        return CDYN_OK;
    case CDYN_PAIR_CALLBACK: {
        double f = 0;
        cdyn__callback_enter(sys);
        int rc_user = p->fn(sys, t, a, b, r, energy, &f, dforce, p->user);
        cdyn__callback_leave(sys);
        if (rc_user)
            return cdyn__fail(sys, CDYN_ERR_CALLBACK,
                              "pair potential callback returned %d at r = %g (indices %u, %u)",
                              rc_user, r, a, b);
        *force = f;
        return CDYN_OK;
    }
    }
    *force = 0;
    return CDYN_OK;
}

double cdyn__pair_max_cutoff(const cdyn__pair *p)
{
    if (p->kind != CDYN_PAIR_HERTZ)
        return p->rc;
    double rmax = 0;
    for (uint32_t i = 0; i < p->n; i++)
        rmax = p->rad[i] > rmax ? p->rad[i] : rmax;
    return 2.0 * rmax;
}
