/* Gravity: a uniform field, F = m g on every particle. */
#include <string.h>

#include "core/finite.h"
#include "core/system.h"
#include "force/force.h"

static cdyn_status apply(const cdyn_system *sys, const cdyn__force *g, uint32_t slot, double t,
                         const double *x, const double *v, double *f)
{
    (void)slot, (void)t, (void)x, (void)v;
    size_t d = (size_t)sys->dim;
    for (size_t i = 0, n = sys->particles.count; i < n; i++) {
        double m = sys->mass[i]; /* 0 for removed slots */
        for (size_t k = 0; k < d; k++)
            f[i * d + k] += m * g->p[k];
    }
    return CDYN_OK;
}

/* U = -sum m g.x over the movable particles. */
static cdyn_status energy(const cdyn_system *sys, const cdyn__force *g, const double *x,
                          double *out)
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
    *out = e;
    return CDYN_OK;
}

/* Uniform: the Jacobian is zero. */
static void jacobian(const cdyn_system *sys, const cdyn__force *g, const double *x,
                     const double *v, bool definite, cdyn__jacobian_add_fn add, void *ctx)
{
    (void)sys, (void)g, (void)x, (void)v, (void)definite, (void)add, (void)ctx;
}

const cdyn__force_ops cdyn__gravity_ops = {
    .kind = CDYN_FORCE_GRAVITY, .apply = apply, .energy = energy, .jacobian = jacobian};

cdyn_status cdyn_force_add_gravity(cdyn_system *sys, const double *g, cdyn_force *out)
{
    cdyn_status st = cdyn__force_add_prologue(sys, out, "force_add_gravity");
    if (st)
        return st;
    if (!g || !cdyn__all_finite(g, (size_t)sys->dim))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "force_add_gravity: g must be %d finite values", sys->dim);
    cdyn__force f = {.ops = &cdyn__gravity_ops};
    memcpy(f.p, g, (size_t)sys->dim * sizeof(double));
    return cdyn__force_insert(sys, &f, out, "force_add_gravity");
}
