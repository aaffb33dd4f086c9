/* The statistics of an ensemble's results (ensemble_stats.h). */
#include "ensemble_stats.h"

#include <math.h>

void ensemble_mean(const double *x, size_t n, size_t stride, double *mean, double *sd,
                   double *se, size_t *used)
{
    double sum = 0, m = NAN, ss = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(x[i * stride])) {
            sum += x[i * stride];
            k++;
        }
    if (k > 0)
        m = sum / (double)k;
    /* Two passes: the squares of deviations, not of the values. */
    for (size_t i = 0; i < n; i++)
        if (!isnan(x[i * stride]))
            ss += (x[i * stride] - m) * (x[i * stride] - m);
    double s = k >= 2 ? sqrt(ss / (double)(k - 1)) : NAN;
    if (mean)
        *mean = m;
    if (sd)
        *sd = s;
    if (se)
        *se = k >= 2 ? s / sqrt((double)k) : NAN;
    if (used)
        *used = k;
}

double ensemble_t95(size_t dof)
{
    /* Tabled up to 30 degrees of freedom; above, the Cornish-Fisher
     * expansion in 1 / dof about the normal quantile, good to 1e-4 there. */
    static const double table[31] = {
        NAN,   12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
        2.074, 2.069,  2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (dof <= 30)
        return table[dof];
    const double z = 1.959963984540054, z2 = z * z, v = (double)dof;
    double g1 = (z2 + 1) * z / 4;
    double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
    double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
    return z + g1 / v + g2 / (v * v) + g3 / (v * v * v);
}

void ensemble_fit_line(const double *x, const double *y, size_t n, double *slope,
                       double *intercept)
{
    double mx = 0, my = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= (double)n;
    my /= (double)n;
    for (size_t i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    double b = n >= 2 && sxx > 0 ? sxy / sxx : NAN;
    *slope = b;
    *intercept = my - b * mx;
}

double ensemble_chi2(const double *cov, const double *d, size_t k, double *work)
{
    double *l = work, *y = work + k * k; /* C = L L^T; L y = d; chi2 = |y|^2 */
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j <= i; j++) {
            double s = cov[i * k + j];
            for (size_t m = 0; m < j; m++)
                s -= l[i * k + m] * l[j * k + m];
            if (i == j) {
                if (!(s > 0))
                    return NAN;
                l[i * k + i] = sqrt(s);
            } else {
                l[i * k + j] = s / l[j * k + j];
            }
        }
    double chi2 = 0;
    for (size_t i = 0; i < k; i++) {
        double s = d[i];
        for (size_t m = 0; m < i; m++)
            s -= l[i * k + m] * y[m];
        y[i] = s / l[i * k + i];
        chi2 += y[i] * y[i];
    }
    return chi2;
}

uint64_t ensemble_hash(uint64_t hash, const void *data, size_t size)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < size; i++) {
        hash ^= p[i];
        hash *= 0x100000001b3u;
    }
    return hash;
}
