/* The standard chain stepped by code that knows it is a chain: 2-D
 * positions x_0..x_n (x_0 the fixed pivot), rods g_i = (|d_i|^2 - L^2) / 2
 * with d_i = x_i - x_{i-1}, unit masses, gravity. Each step forms the
 * tridiagonal A = G W G^T and rhs = -G'v - G W F - ks g - kd g' in one pass,
 * solves A lambda = rhs by Thomas elimination, adds G^T lambda and takes a
 * symplectic Euler step: the same equations as the library, without its
 * generality (any topology, any forces, status checks). */
#include "chain_reference.h"

#include <math.h>
#include <stdlib.h>

#include "bench_util.h"

#define LINK 0.1
#define DT 1e-3
#define KS 100.0
#define KD 20.0
#define GY (-9.81)

typedef struct chain {
    long n;
    double *x, *v; /* (n + 1) * 2 */
    double *w;     /* inverse masses, n + 1 (w[0] = 0: the pivot) */
    double *d;     /* rod vectors, (n + 1) * 2 (row i at 2 i) */
    double *piv;   /* pivots of the elimination, n + 1 */
    double *off;   /* A_{i,i+1}, n + 1 */
    double *y;     /* the eliminated rhs, then lambda, n + 2 */
} chain;

static void step(chain *c)
{
    const long n = c->n;
    double *restrict x = c->x, *restrict v = c->v, *restrict d = c->d;
    double *restrict piv = c->piv, *restrict off = c->off, *restrict y = c->y;
    const double *restrict w = c->w;
    /* Rows and forward elimination in one pass (row i needs d_{i+1} for
     * its coupling entry, so d runs one row ahead). */
    d[2] = x[2] - x[0], d[3] = x[3] - x[1];
    double prev_piv = 1, prev_off = 0, prev_y = 0;
    for (long i = 1; i <= n; i++) {
        double dx = d[2 * i], dy = d[2 * i + 1];
        if (i < n)
            d[2 * i + 2] = x[2 * i + 2] - x[2 * i], d[2 * i + 3] = x[2 * i + 3] - x[2 * i + 1];
        double ux = v[2 * i] - v[2 * i - 2], uy = v[2 * i + 1] - v[2 * i - 1];
        double dd = dx * dx + dy * dy;
        /* G W F: W F is gravity for a moving particle, 0 for the pivot. */
        double wf = dy * GY * ((w[i] > 0) - (w[i - 1] > 0));
        double rhs = -(ux * ux + uy * uy) - wf - KS * 0.5 * (dd - LINK * LINK) -
                     KD * (dx * ux + dy * uy);
        double diag = (w[i - 1] + w[i]) * dd;
        off[i] = i < n ? -w[i] * (dx * d[2 * i + 2] + dy * d[2 * i + 3]) : 0;
        double f = prev_off / prev_piv;
        piv[i] = diag - f * prev_off;
        y[i] = rhs - f * prev_y;
        prev_piv = piv[i], prev_off = off[i], prev_y = y[i];
    }
    /* Back substitution, forces G^T lambda and the step, from the free end. */
    y[n + 1] = 0;
    double lam_next = 0, nx = 0, ny = 0;
    for (long i = n; i >= 1; i--) {
        double lam = (y[i] - off[i] * lam_next) / piv[i];
        double dx = d[2 * i], dy = d[2 * i + 1];
        double fx = lam * dx - lam_next * nx, fy = lam * dy - lam_next * ny;
        v[2 * i] += DT * w[i] * fx;
        v[2 * i + 1] += DT * (w[i] * fy + (w[i] > 0) * GY);
        x[2 * i] += DT * v[2 * i];
        x[2 * i + 1] += DT * v[2 * i + 1];
        lam_next = lam, nx = dx, ny = dy;
    }
}

double chain_reference_step_seconds(long n, double *rod_error)
{
    chain c = {.n = n};
    size_t m = (size_t)n + 2;
    c.x = calloc(2 * m, sizeof *c.x);
    c.v = calloc(2 * m, sizeof *c.v);
    c.w = calloc(m, sizeof *c.w);
    c.d = calloc(2 * m, sizeof *c.d);
    c.piv = calloc(m, sizeof *c.piv);
    c.off = calloc(m, sizeof *c.off);
    c.y = calloc(m, sizeof *c.y);
    double seconds = -1;
    if (c.x && c.v && c.w && c.d && c.piv && c.off && c.y) {
        for (long i = 1; i <= n; i++)
            c.x[2 * i] = LINK * (double)i, c.w[i] = 1.0;
        double t0 = bench_now();
        for (int s = 0; s < 1000; s++)
            step(&c);
        seconds = (bench_now() - t0) / 1000.0;
        double worst = 0;
        for (long i = 1; i <= n; i++) {
            double len = hypot(c.x[2 * i] - c.x[2 * i - 2], c.x[2 * i + 1] - c.x[2 * i - 1]);
            worst = fmax(worst, fabs(len - LINK) / LINK);
        }
        *rod_error = worst;
    }
    free(c.x), free(c.v), free(c.w), free(c.d), free(c.piv), free(c.off), free(c.y);
    return seconds;
}
