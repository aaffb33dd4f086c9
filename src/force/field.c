/* Uniform fields acting on every particle: gravity and linear drag. */
#include "force/force.h"
#include "core/system.h"

void cdyn__gravity_apply(const cdyn_system *sys, const cdyn__force *g, double *f)
{
    size_t d = (size_t)sys->dim;
    for (size_t i = 0, n = sys->particles.count; i < n; i++) {
        double m = sys->mass[i]; /* 0 for removed slots */
        for (size_t k = 0; k < d; k++)
            f[i * d + k] += m * g->p[k];
    }
}

double cdyn__gravity_energy(const cdyn_system *sys, const cdyn__force *g, const double *x)
{
    size_t d = (size_t)sys->dim;
    double e = 0;
    for (size_t i = 0, n = sys->particles.count; i < n; i++) {
        if (sys->fixed[i])
            continue; /* fixed: infinite inertia, no energy exchange (removed: mass 0) */
        double gx = 0;
        for (size_t k = 0; k < d; k++)
            gx += g->p[k] * x[i * d + k];
        e -= sys->mass[i] * gx;
    }
    return e;
}

void cdyn__drag_apply(const cdyn_system *sys, const cdyn__force *g, const double *v, double *f)
{
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    double b = g->p[0];
    for (size_t i = 0; i < n; i++)
        f[i] -= b * v[i];
}

void cdyn__drag_jacobian(const cdyn__force *g, int dim, double *dfdv)
{
    for (int r = 0; r < dim; r++)
        for (int c = 0; c < dim; c++)
            dfdv[r * dim + c] = r == c ? -g->p[0] : 0.0;
}
