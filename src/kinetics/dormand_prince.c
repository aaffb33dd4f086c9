/* The explicit Dormand-Prince 5(4) pair (Dormand and Prince, J. Comput.
 * Appl. Math. 6, 1980) with local extrapolation, first-same-as-last
 * stages, error control in the weighted RMS norm and the fourth-order
 * continuous extension for outputs: for networks that are not stiff. */
#include <math.h>
#include <string.h>

#include "kinetics/dense_output.h"
#include "kinetics/integrator.h"

static const double C[7] = {0.0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0};
static const double A[7][6] = {
    {0},
    {1.0 / 5},
    {3.0 / 40, 9.0 / 40},
    {44.0 / 45, -56.0 / 15, 32.0 / 9},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
    {35.0 / 384, 0.0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84},
};
/* Fifth-order weights minus the embedded fourth-order ones. */
static const double E[7] = {71.0 / 57600, 0.0, -71.0 / 16695, 71.0 / 1920, -17253.0 / 339200,
                            22.0 / 525, -1.0 / 40};

#define SAFETY 0.9
#define FAC_MIN 0.2
#define FAC_MAX 10.0

cdyn_status cdyn__kin_dormand_prince(cdyn__kin_run *run)
{
    cdyn__kin_work *w = run->w;
    cdyn_kinetics *kin = run->kin;
    cdyn_kinetics_stats *stats = &kin->stats;
    size_t n = run->n;
    double *k[7], *y0 = w->vec[7], *y1 = w->vec[8], *ys = w->vec[9], *err = w->vec[10];
    double *ewt = w->vec[11];
    for (int s = 0; s < 7; s++)
        k[s] = w->vec[s];
    memcpy(y0, kin->sp.c, n * sizeof(double));
    double t = run->t0;
    cdyn_status st = cdyn__kin_rhs(run, t, y0, k[0]);
    if (st)
        return st;
    cdyn__kin_weights(run, y0, ewt);
    double h = run->h_init;
    if (h <= 0 && (st = cdyn__kin_initial_step(run, y0, k[0], ewt, 4, y1, k[1], &h)))
        return st;
    bool rejected = false;
    while (t < run->t_end) {
        if (stats->steps + stats->rejected_steps >= run->max_steps)
            return cdyn__kin_fail(kin, CDYN_ERR_NOT_CONVERGED, run->fn,
                                  "Dormand-Prince: max_steps (%llu) reached at t = %g",
                                  (unsigned long long)run->max_steps, t);
        if (run->h_max > 0 && h > run->h_max)
            h = run->h_max;
        bool last = t + h >= run->t_end;
        if (last)
            h = run->t_end - t;
        double t1 = last ? run->t_end : t + h;
        if (!(t1 > t))
            return cdyn__kin_fail(kin, CDYN_ERR_NOT_CONVERGED, run->fn,
                                  "Dormand-Prince: the step size underflowed (h = %g at t = %g)",
                                  h, t);
        for (int s = 1; s < 7; s++) {
            double *dst = s == 6 ? y1 : ys;
            for (size_t i = 0; i < n; i++) {
                double sum = 0.0;
                for (int j = 0; j < s; j++)
                    sum += A[s][j] * k[j][i];
                dst[i] = y0[i] + h * sum;
            }
            if ((st = cdyn__kin_rhs(run, s == 6 ? t1 : t + C[s] * h, dst, k[s])))
                return st;
        }
        for (size_t i = 0; i < n; i++) {
            double e = 0.0;
            for (int j = 0; j < 7; j++)
                e += E[j] * k[j][i];
            err[i] = h * e;
            /* scale by the larger of the old and new values */
            double big = fabs(y0[i]) > fabs(y1[i]) ? fabs(y0[i]) : fabs(y1[i]);
            ewt[i] = 1.0 / (run->rtol * big + cdyn__kin_atol(run, i));
        }
        double enorm = cdyn__kin_wrms(n, err, ewt);
        double fac = enorm > 0 ? SAFETY * pow(enorm, -0.2) : FAC_MAX;
        if (!(fac >= FAC_MIN)) /* NaN included */
            fac = FAC_MIN;
        if (fac > FAC_MAX)
            fac = FAC_MAX;
        if (!(enorm <= 1.0)) {
            stats->error_test_failures++;
            stats->rejected_steps++;
            rejected = true;
            h *= fac < 1.0 ? fac : 1.0;
            continue;
        }
        if (cdyn__kin_negative(run, y1)) {
            stats->negative_rejections++;
            stats->rejected_steps++;
            rejected = true;
            h *= 0.5;
            continue;
        }
        cdyn__kin_dopri interp = {y0, y1, k, t, t1, h};
        cdyn__kin_emit(run, t1, cdyn__kin_interp_dopri, &interp);
        stats->steps++;
        stats->last_order = 5;
        stats->highest_order = 5;
        stats->last_step = h;
        t = t1;
        memcpy(y0, y1, n * sizeof(double));
        double *tmp = k[0]; /* first same as last */
        k[0] = k[6];
        k[6] = tmp;
        if (rejected && fac > 1.0)
            fac = 1.0; /* no growth right after a rejection */
        rejected = false;
        h *= fac;
    }
    memcpy(kin->sp.c, y0, n * sizeof(double));
    return CDYN_OK;
}
