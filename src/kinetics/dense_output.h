/* Outputs at requested times from each method's own interpolant. */
#ifndef CDYN__KINETICS_DENSE_OUTPUT_H
#define CDYN__KINETICS_DENSE_OUTPUT_H

#include <stddef.h>

/* BDF: the Nordsieck polynomial sum_j z_j x^j, x = (t - t_n) / h, of the
 * step's order q (accurate to that order over the last step). */
typedef struct cdyn__kin_nordsieck {
    double *const *z;
    int q;
    double tn, h;
} cdyn__kin_nordsieck;
void cdyn__kin_interp_nordsieck(const void *ctx, size_t n, double t, double *out);

/* Dormand-Prince: the fourth-order continuous extension of the step of
 * size h from (t0, y0) to (t1, y1) with stages k[0..6] (k[6] = f(t1, y1)).
 * At t1 itself, y1. */
typedef struct cdyn__kin_dopri {
    const double *y0, *y1;
    double *const *k;
    double t0, t1, h;
} cdyn__kin_dopri;
void cdyn__kin_interp_dopri(const void *ctx, size_t n, double t, double *out);

/* Backward Euler: the straight line from (t0, y0) to (t1, y1) (order 1);
 * at t1 itself, y1. */
typedef struct cdyn__kin_linear {
    const double *y0, *y1;
    double t0, t1;
} cdyn__kin_linear;
void cdyn__kin_interp_linear(const void *ctx, size_t n, double t, double *out);

#endif
