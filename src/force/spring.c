/* The spring-dashpot of seed 001, eq. (6). */
#include <math.h>

#include "force/force.h"

/* d = x_b - x_a and its length; returns the length. */
static double separation(const cdyn__force *s, int dim, const double *x, double d[3])
{
    const double *xa = x + (size_t)s->a * (size_t)dim, *xb = x + (size_t)s->b * (size_t)dim;
    double l2 = 0;
    for (int k = 0; k < dim; k++) {
        d[k] = xb[k] - xa[k];
        l2 += d[k] * d[k];
    }
    return sqrt(l2);
}

static double tension(const cdyn__force *s, int dim, const double *v, const double d[3], double l)
{
    const double *va = v + (size_t)s->a * (size_t)dim, *vb = v + (size_t)s->b * (size_t)dim;
    double rate = 0; /* d/dt |x_b - x_a| times l */
    for (int k = 0; k < dim; k++)
        rate += d[k] * (vb[k] - va[k]);
    return s->p[0] * (l - s->p[2]) + s->p[1] * rate / l;
}

void cdyn__spring_apply(const cdyn__force *s, int dim, const double *x, const double *v,
                        double *f)
{
    double d[3];
    double l = separation(s, dim, x, d);
    if (!(l > 0))
        return; /* coincident ends: no direction, no force */
    double t_over_l = tension(s, dim, v, d, l) / l;
    double *fa = f + (size_t)s->a * (size_t)dim, *fb = f + (size_t)s->b * (size_t)dim;
    for (int k = 0; k < dim; k++) {
        double fk = t_over_l * d[k];
        fa[k] += fk;
        fb[k] -= fk;
    }
}

double cdyn__spring_tension(const cdyn__force *s, int dim, const double *x, const double *v)
{
    double d[3];
    double l = separation(s, dim, x, d);
    return l > 0 ? tension(s, dim, v, d, l) : s->p[0] * (0.0 - s->p[2]);
}

double cdyn__spring_energy(const cdyn__force *s, int dim, const double *x)
{
    double d[3];
    double stretch = separation(s, dim, x, d) - s->p[2];
    return 0.5 * s->p[0] * stretch * stretch;
}

int cdyn__spring_jacobian(const cdyn__force *s, int dim, const double *x, const double *v,
                          int definite, double *k, double *c)
{
    double d[3], n[3], g[3];
    double l = separation(s, dim, x, d);
    int dd = dim * dim;
    for (int i = 0; i < dd; i++)
        k[i] = c[i] = 0.0;
    if (!(l > 0))
        return 0;
    const double *va = v + (size_t)s->a * (size_t)dim, *vb = v + (size_t)s->b * (size_t)dim;
    double rate = 0; /* n.w */
    for (int q = 0; q < dim; q++) {
        n[q] = d[q] / l;
        rate += n[q] * (vb[q] - va[q]);
    }
    for (int q = 0; q < dim; q++)
        g[q] = (vb[q] - va[q] - rate * n[q]) / l;
    double stiff = s->p[0], damp = s->p[1];
    double t_over_l = (stiff * (l - s->p[2]) + damp * rate) / l;
    if (definite && t_over_l < 0)
        t_over_l = 0;
    for (int r = 0; r < dim; r++)
        for (int q = 0; q < dim; q++) {
            double nn = n[r] * n[q];
            k[r * dim + q] = stiff * nn + damp * n[r] * g[q] + t_over_l * ((r == q) - nn);
            c[r * dim + q] = damp * nn;
        }
    return 1;
}
