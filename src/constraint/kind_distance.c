/* A rod between two particles: g = (|d|^2 - L^2) / 2 with d = x_b - x_a,
 * G = (-d, d), G'v = |v_b - v_a|^2. The quadratic form needs no square
 * root. The multiplier solve and the projections run rods through fused
 * kernels (path CDYN__ROWS_ROD); eval serves the rest, and rods whose
 * length follows a schedule L(t): then dg/dt = -L L' and g'' gains
 * -(L'^2 + L L''). */
#include <math.h>

#include "constraint/constraint.h"
#include "constraint/drive.h"
#include "constraint/kind.h"
#include "core/system.h"
#include "core/vec.h"

static cdyn_status eval(cdyn_system *sys, const cdyn__constraint *c, double t, const double *x,
                        const double *v, double *g, double *jac, double *bias, double *gt)
{
    double l[3];
    cdyn_status st = cdyn__drive_length(sys, c, t, l);
    if (st)
        return st;
    int dim = sys->dim;
    size_t d = (size_t)dim;
    const double *xa = x + c->u.particle[0] * d, *xb = x + c->u.particle[1] * d;
    const double *va = v + c->u.particle[0] * d, *vb = v + c->u.particle[1] * d;
    double dd[3], dv[3];
    for (int k = 0; k < dim; k++) {
        dd[k] = xb[k] - xa[k];
        dv[k] = vb[k] - va[k];
        jac[k] = -dd[k];
        jac[d + (size_t)k] = dd[k];
    }
    g[0] = 0.5 * (cdyn__vec_dot(dd, dd, dim) - l[0] * l[0]);
    bias[0] = cdyn__vec_dot(dv, dv, dim) - (l[1] * l[1] + l[0] * l[2]);
    gt[0] = -l[0] * l[1];
    return CDYN_OK;
}

/* Hess g = [[I, -I], [-I, I]]; a rod pushing (nu < 0) softens transversally. */
static cdyn_status hessian(cdyn_system *sys, const cdyn__constraint *c, double t,
                           const double *x, double hn, bool definite, cdyn__hessian_add_fn add,
                           void *ctx)
{
    (void)t, (void)x;
    if (definite && hn < 0)
        hn = 0;
    const double *eye = cdyn__identity(sys->dim);
    add(ctx, c->u.particle[0], c->u.particle[0], eye, hn);
    add(ctx, c->u.particle[1], c->u.particle[1], eye, hn);
    add(ctx, c->u.particle[0], c->u.particle[1], eye, -hn);
    add(ctx, c->u.particle[1], c->u.particle[0], eye, -hn);
    return CDYN_OK;
}

static double length_scale(const cdyn__constraint *c)
{
    return c->d.p[0];
}

static cdyn_status geometry_at(const cdyn_system *sys, const cdyn__constraint *c, double t,
                               double out[4])
{
    double l[3];
    cdyn_status st = cdyn__drive_length(sys, c, t, l);
    if (!st)
        out[0] = l[0];
    return st;
}

const cdyn__constraint_kind cdyn__kind_distance = {.kind = CDYN_CONSTRAINT_DISTANCE,
                                                   .name = "distance",
                                                   .path = CDYN__ROWS_ROD,
                                                   .pure = true,
                                                   .eval = eval,
                                                   .hessian = hessian,
                                                   .length_entry = 1,
                                                   .geometry_at = geometry_at,
                                                   .length_scale = length_scale};

cdyn_status cdyn_constraint_add_distance(cdyn_system *sys, cdyn_particle a, cdyn_particle b,
                                         double length, cdyn_constraint *out)
{
    const char *what = "constraint_add_distance";
    cdyn_status st = cdyn__constraint_add_prologue(sys, out, what);
    uint32_t s[2];
    if (st || (st = cdyn__constraint_resolve_particles(sys, (cdyn_particle[]){a, b}, 2, s, what)))
        return st;
    if (!cdyn__valid_length(length))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: length %g must be finite and > 0",
                          what, length);
    cdyn__constraint c = {.kind = CDYN_CONSTRAINT_DISTANCE, .n_particles = 2, .n_rows = 1,
                          .d.p = {length}};
    return cdyn__constraint_insert(sys, &c, s, out, what, NULL);
}
