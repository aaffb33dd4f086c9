/* Rates of the reactions and of the species (mass action and user laws). */
#include "kinetics/rates.h"

#include <math.h>
#include <string.h>


double cdyn__kin_ipow(double x, int n)
{
    if (n == 1)
        return x;
    double r = 1.0;
    while (n > 0) {
        if (n & 1)
            r *= x;
        n >>= 1;
        if (n)
            x *= x;
    }
    return r;
}

cdyn_status cdyn__kin_call_law(cdyn_kinetics *kin, const char *fn, size_t j, double t,
                               const double *c, double *rate)
{
    const cdyn__kin_reactions *rx = &kin->rx;
    int rc = rx->law[j](kin, t, c, kin->sp.n, rate, rx->law_user[j]);
    if (rc != 0)
        return cdyn__kin_fail(kin, CDYN_ERR_CALLBACK, fn,
                              "the rate law of reaction %zu returned %d at t = %g", j, rc, t);
    return CDYN_OK;
}

cdyn_status cdyn__kin_reaction_rates(cdyn_kinetics *kin, const char *fn, double t,
                                     const double *c, double *v)
{
    const cdyn__kin_reactions *rx = &kin->rx;
    const size_t *start = rx->r_start, *sp = rx->r_species;
    const int *co = rx->r_coeff;
    for (size_t j = 0; j < rx->n; j++) {
        if (rx->law[j]) {
            cdyn_status st = cdyn__kin_call_law(kin, fn, j, t, c, &v[j]);
            if (st)
                return st;
            continue;
        }
        double r = rx->k[j];
        for (size_t e = start[j]; e < start[j + 1]; e++)
            r *= co[e] == 1 ? c[sp[e]] : cdyn__kin_ipow(c[sp[e]], co[e]);
        v[j] = r;
    }
    return CDYN_OK;
}

cdyn_status cdyn__kin_species_rates(cdyn_kinetics *kin, const char *fn, double t,
                                    const double *c, double *v, double *f)
{
    cdyn_status st = cdyn__kin_reaction_rates(kin, fn, t, c, v);
    if (st)
        return st;
    const cdyn__kin_reactions *rx = &kin->rx;
    const size_t *start = rx->s_start, *sp = rx->s_species;
    const int *co = rx->s_coeff;
    memset(f, 0, kin->sp.n * sizeof *f);
    for (size_t j = 0; j < rx->n; j++)
        for (size_t e = start[j]; e < start[j + 1]; e++)
            f[sp[e]] += (double)co[e] * v[j];
    return CDYN_OK;
}
