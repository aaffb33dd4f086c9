/* Rates of the reactions and of the species (mass action and user laws),
 * and the public queries of both at the current state. */
#include "kinetics/rates.h"

#include <math.h>
#include <string.h>

#include "kinetics/workspace.h"

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
    int rc = rx->law[j](t, c, kin->sp.n, rate, rx->law_user[j]);
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

/* The public queries: rates at the current state, with the workspace's
 * reaction-rate scratch (allocated by the first call after a change). */
static cdyn_status query(cdyn_kinetics *kin, const char *fn, double *out, size_t capacity,
                         bool species)
{
    cdyn_status st = cdyn__kin_enter(kin, fn);
    if (st)
        return st;
    size_t need = species ? kin->sp.n : kin->rx.n;
    if (!out)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn, "out is NULL");
    if (capacity < need)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "capacity %zu is below the %zu values", capacity, need);
    if ((st = cdyn__kin_work_prepare(kin, fn, false)))
        return st;
    double *v = kin->work->v;
    kin->busy = true;
    st = species ? cdyn__kin_species_rates(kin, fn, kin->t, kin->sp.c, v, out)
                 : cdyn__kin_reaction_rates(kin, fn, kin->t, kin->sp.c, out);
    kin->busy = false;
    if (st)
        return st;
    for (size_t i = 0; i < need; i++)
        if (!isfinite(out[i]))
            return cdyn__kin_fail(kin, CDYN_ERR_DIVERGED, fn, "the rate of %s %zu is %g",
                                  species ? "species" : "reaction", i, out[i]);
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_get_reaction_rates(cdyn_kinetics *kin, double *out, size_t capacity)
{
    return query(kin, "cdyn_kinetics_get_reaction_rates", out, capacity, false);
}

cdyn_status cdyn_kinetics_get_species_rates(cdyn_kinetics *kin, double *out, size_t capacity)
{
    return query(kin, "cdyn_kinetics_get_species_rates", out, capacity, true);
}
