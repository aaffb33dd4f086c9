/* The freely jointed chain's end-to-end distance (fjc_exact.h). */
#include "fjc_exact.h"

#include <math.h>
#include <stdlib.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* v[j] = M_k(x - j) for j = 0 .. count - 1: from the indicators of order 1
 * by M_m(t) = (t M_{m-1}(t) + (m - t) M_{m-1}(t - 1)) / (m - 1). Returns 0,
 * or -1 when out of memory. */
static int bsplines(int k, double x, size_t count, double *out)
{
    size_t len = count + (size_t)k - 1;
    double *v = malloc(len * sizeof *v);
    if (!v)
        return -1;
    for (size_t j = 0; j < len; j++) {
        double t = x - (double)j;
        v[j] = t >= 0 && t < 1 ? 1.0 : 0.0;
    }
    for (int m = 2; m <= k; m++)
        for (size_t j = 0; j + (size_t)m <= len; j++) {
            double t = x - (double)j;
            v[j] = (t * v[j] + (m - t) * v[j + 1]) / (m - 1);
        }
    for (size_t j = 0; j < count; j++)
        out[j] = v[j];
    free(v);
    return 0;
}

double fjc_density(int n, double r)
{
    if (n < 2)
        return NAN;
    if (!(r > 0 && r < n))
        return 0;
    double m[2], x = 0.5 * (r + n);
    if (bsplines(n - 1, x, 2, m) != 0)
        return NAN;
    return -0.5 * r * (m[0] - m[1]);
}

/* P(R <= r) = 2 P(Z <= r) - 1 - 2 r f_Z(r) (integrating f = -2 r f_Z' by
 * parts), P(Z <= r) = sum_j M_{n+1}(x - j) and f_Z(r) = M_n(x) / 2. */
double fjc_cdf(int n, double r)
{
    if (n < 2)
        return NAN;
    if (r <= 0)
        return 0;
    if (r >= n)
        return 1;
    double x = 0.5 * (r + n), mn;
    size_t count = (size_t)floor(x) + 1;
    double *m = malloc(count * sizeof *m);
    if (!m || bsplines(n + 1, x, count, m) != 0 || bsplines(n, x, 1, &mn) != 0) {
        free(m);
        return NAN;
    }
    double below = 0;
    for (size_t j = count; j-- > 0;) /* small terms first */
        below += m[j];
    free(m);
    double p = 2 * below - 1 - r * mn;
    return p < 0 ? 0 : p > 1 ? 1 : p;
}

double fjc_gaussian_cdf(int n, double r)
{
    double a = sqrt(1.5 / n) * r;
    return erf(a) - 2 / sqrt(M_PI) * a * exp(-a * a);
}

double fjc_gaussian_density(int n, double r)
{
    double q = 1.5 / n;
    return 4 * M_PI * r * r * pow(q / M_PI, 1.5) * exp(-q * r * r);
}
