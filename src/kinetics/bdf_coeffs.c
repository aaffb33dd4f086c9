/* Coefficients of the variable-step fixed-leading-coefficient BDF. */
#include "kinetics/bdf_coeffs.h"

double cdyn__kin_bdf_harmonic(int q)
{
    double s = 0.0;
    for (int j = 1; j <= q; j++)
        s += 1.0 / (double)j;
    return s;
}

/* Multiplies the polynomial p (degree d) by (1 + x r): degree d + 1. */
static void times_one_plus(double *p, int d, double r)
{
    p[d + 1] = p[d] * r;
    for (int i = d; i >= 1; i--)
        p[i] += p[i - 1] * r;
}

void cdyn__kin_bdf_lambda(int q, double h, const double *tau, double *l)
{
    l[0] = 1.0;
    double sum_inv = 0.0, hsum = h;
    int d = 0;
    for (int i = 1; i < q; i++) {
        if (i > 1)
            hsum += tau[i - 1];
        double r = h / hsum; /* 1 / xi_i */
        sum_inv += r;
        times_one_plus(l, d++, r);
    }
    times_one_plus(l, d, cdyn__kin_bdf_harmonic(q) - sum_inv);
}

double cdyn__kin_bdf_error_q(int q)
{
    return 1.0 / ((double)(q + 1) * cdyn__kin_bdf_harmonic(q) + 1.0);
}

double cdyn__kin_bdf_error_down(int q)
{
    double f = 1.0;
    for (int j = 2; j < q; j++)
        f *= (double)j;
    return f / cdyn__kin_bdf_harmonic(q - 1);
}

/* P - E for order q: 1 + 1 / ((q + 1) H_q). */
static double p_minus_e(int q)
{
    return 1.0 + 1.0 / ((double)(q + 1) * cdyn__kin_bdf_harmonic(q));
}

double cdyn__kin_bdf_error_up(int q)
{
    return 1.0 / (p_minus_e(q) * (double)(q + 2) * cdyn__kin_bdf_harmonic(q + 1));
}

double cdyn__kin_bdf_raise_factor(int q)
{
    double f = 1.0;
    for (int j = 2; j <= q + 1; j++)
        f *= (double)j;
    return 1.0 / (p_minus_e(q) * f);
}

void cdyn__kin_bdf_psi(int m, double h, const double *tau, double *psi)
{
    psi[0] = psi[1] = 0.0;
    psi[2] = 1.0;
    double hsum = 0.0;
    for (int i = 1; i <= m; i++) {
        hsum += tau[i];
        double xi = hsum / h;
        /* times (x + xi): degree 2 + i */
        psi[2 + i] = psi[1 + i];
        for (int j = 1 + i; j >= 2; j--) /* psi[1] = 0 keeps x^2 a factor */
            psi[j] = psi[j - 1] + xi * psi[j];
    }
}
