/* Linear drag: F = -b v on every particle. */
#include <math.h>

#include "core/system.h"
#include "force/force.h"

static cdyn_status apply(const cdyn_system *sys, const cdyn__force *g, uint32_t slot, double t,
                         const double *x, const double *v, double *f)
{
    (void)slot, (void)t, (void)x;
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    double b = g->p[0];
    for (size_t i = 0; i < n; i++)
        f[i] -= b * v[i];
    return CDYN_OK;
}

/* Dissipative: no potential. */
static cdyn_status energy(const cdyn_system *sys, const cdyn__force *g, const double *x,
                          double *out)
{
    (void)sys, (void)g, (void)x;
    *out = 0.0;
    return CDYN_OK;
}

/* dF_i/dv_i = -b I for every particle, dF/dx = 0. */
static void jacobian(const cdyn_system *sys, const cdyn__force *g, const double *x,
                     const double *v, bool definite, cdyn__jacobian_add_fn add, void *ctx)
{
    (void)x, (void)v, (void)definite;
    const int dim = sys->dim;
    double dfdv[9];
    for (int r = 0; r < dim; r++)
        for (int c = 0; c < dim; c++)
            dfdv[r * dim + c] = r == c ? -g->p[0] : 0.0;
    for (uint32_t s = 0; s < sys->particles.count; s++)
        add(ctx, s, s, NULL, dfdv);
}

const cdyn__force_ops cdyn__drag_ops = {
    .kind = CDYN_FORCE_DRAG, .apply = apply, .energy = energy, .jacobian = jacobian};

cdyn_status cdyn_force_add_drag(cdyn_system *sys, double coefficient, cdyn_force *out)
{
    cdyn_status st = cdyn__force_add_prologue(sys, out, "force_add_drag");
    if (st)
        return st;
    if (!isfinite(coefficient) || coefficient < 0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "force_add_drag: coefficient %g must be finite and >= 0", coefficient);
    cdyn__force f = {.ops = &cdyn__drag_ops, .velocity_dependent = 1, .p = {coefficient}};
    return cdyn__force_insert(sys, &f, out, "force_add_drag");
}
