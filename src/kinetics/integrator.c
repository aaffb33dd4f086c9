/* Error weights, norms, counted rate evaluations, positivity, first step,
 * outputs. */
#include "kinetics/integrator.h"

#include <math.h>

#include "kinetics/rates.h"

double cdyn__kin_atol(const cdyn__kin_run *run, size_t i)
{
    return i < run->atol_n ? run->atol_sp[i] : run->atol;
}

void cdyn__kin_weights(const cdyn__kin_run *run, const double *y, double *ewt)
{
    size_t n = run->n, m = run->atol_n < n ? run->atol_n : n;
    for (size_t i = 0; i < m; i++)
        ewt[i] = 1.0 / (run->rtol * fabs(y[i]) + run->atol_sp[i]);
    for (size_t i = m; i < n; i++)
        ewt[i] = 1.0 / (run->rtol * fabs(y[i]) + run->atol);
}

double cdyn__kin_wrms(size_t n, const double *v, const double *w)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++) {
        double x = v[i] * w[i];
        s += x * x;
    }
    return sqrt(s / (double)n);
}

cdyn_status cdyn__kin_rhs(cdyn__kin_run *run, double t, const double *y, double *f)
{
    run->kin->stats.rate_evaluations++;
    return cdyn__kin_species_rates(run->kin, run->fn, t, y, run->w->v, f);
}

bool cdyn__kin_negative(const cdyn__kin_run *run, const double *y)
{
    size_t n = run->n, m = run->atol_n < n ? run->atol_n : n;
    for (size_t i = 0; i < m; i++)
        if (y[i] < -run->atol_sp[i])
            return true;
    for (size_t i = m; i < n; i++)
        if (y[i] < -run->atol)
            return true;
    return false;
}

cdyn_status cdyn__kin_initial_step(cdyn__kin_run *run, const double *y0, const double *f0,
                                   const double *ewt, int order, double *y1, double *f1,
                                   double *h)
{
    size_t n = run->n;
    double span = run->t_end - run->t0;
    double d0 = cdyn__kin_wrms(n, y0, ewt), d1 = cdyn__kin_wrms(n, f0, ewt);
    double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 * span : 0.01 * d0 / d1;
    if (!(h0 <= span))
        h0 = span;
    for (size_t i = 0; i < n; i++)
        y1[i] = y0[i] + h0 * f0[i];
    cdyn_status st = cdyn__kin_rhs(run, run->t0 + h0, y1, f1);
    if (st)
        return st;
    for (size_t i = 0; i < n; i++)
        y1[i] = f1[i] - f0[i];
    double d2 = cdyn__kin_wrms(n, y1, ewt) / h0;
    double big = d1 > d2 ? d1 : d2;
    double h1 = big <= 1e-15 ? (1e-6 * span > h0 * 1e-3 ? 1e-6 * span : h0 * 1e-3)
                             : pow(0.01 / big, 1.0 / (double)(order + 1));
    double hh = 100.0 * h0 < h1 ? 100.0 * h0 : h1;
    if (!(hh <= span)) /* also catches NaN from non-finite rates */
        hh = span;
    if (run->h_max > 0 && hh > run->h_max)
        hh = run->h_max;
    *h = hh;
    return CDYN_OK;
}

void cdyn__kin_emit(cdyn__kin_run *run, double t_upto, cdyn__kin_interp_fn interp,
                    const void *ctx)
{
    while (run->next < run->n_times && run->times[run->next] <= t_upto) {
        interp(ctx, run->n, run->times[run->next], run->out + run->next * run->n);
        run->next++;
    }
}
