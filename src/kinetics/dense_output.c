/* The interpolants of the three methods. */
#include "kinetics/dense_output.h"

void cdyn__kin_interp_nordsieck(const void *ctx, size_t n, double t, double *out)
{
    const cdyn__kin_nordsieck *d = ctx;
    double x = (t - d->tn) / d->h;
    for (size_t i = 0; i < n; i++) {
        double s = d->z[d->q][i];
        for (int j = d->q - 1; j >= 0; j--)
            s = s * x + d->z[j][i];
        out[i] = s;
    }
}

/* Coefficients of the continuous extension of Dormand and Prince's 5(4)
 * pair (Hairer, Norsett and Wanner, Solving ODEs I, section II.6): with
 * r1 = y0, r2 = y1 - y0, r3 = h k1 - r2, r4 = r2 - h k7 - r3 and
 * r5 = h sum_i d_i k_i, y(t0 + theta h) = r1 + theta (r2 + (1 - theta)
 * (r3 + theta (r4 + (1 - theta) r5))). */
static const double DP_D[7] = {
    -12715105075.0 / 11282082432.0, 0.0,
    87487479700.0 / 32700410799.0,  -10690763975.0 / 1880347072.0,
    701980252875.0 / 199316789632.0, -1453857185.0 / 822651844.0,
    69997945.0 / 29380423.0,
};

void cdyn__kin_interp_dopri(const void *ctx, size_t n, double t, double *out)
{
    const cdyn__kin_dopri *d = ctx;
    if (t == d->t1) {
        for (size_t i = 0; i < n; i++)
            out[i] = d->y1[i];
        return;
    }
    double th = (t - d->t0) / d->h, th1 = 1.0 - th, h = d->h;
    for (size_t i = 0; i < n; i++) {
        double r2 = d->y1[i] - d->y0[i];
        double r3 = h * d->k[0][i] - r2;
        double r4 = r2 - h * d->k[6][i] - r3;
        double s = 0.0;
        for (int j = 0; j < 7; j++)
            s += DP_D[j] * d->k[j][i];
        double r5 = h * s;
        out[i] = d->y0[i] + th * (r2 + th1 * (r3 + th * (r4 + th1 * r5)));
    }
}

void cdyn__kin_interp_linear(const void *ctx, size_t n, double t, double *out)
{
    const cdyn__kin_linear *d = ctx;
    if (t == d->t1) {
        for (size_t i = 0; i < n; i++)
            out[i] = d->y1[i];
        return;
    }
    double th = (t - d->t0) / (d->t1 - d->t0);
    for (size_t i = 0; i < n; i++)
        out[i] = d->y0[i] + th * (d->y1[i] - d->y0[i]);
}
