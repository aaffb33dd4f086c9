/* A rod to a point b: g = (|x - b|^2 - L^2) / 2, G = x - b, G'v = |v|^2.
 * Fused kernels take it in the multiplier solve and the projections (path
 * CDYN__ROWS_ANCHOR). A motion may carry b and a schedule drive L: with
 * e = x - b, dg/dt = -e.b' - L L' and the velocity terms of g'' become
 * |v - b'|^2 - e.b'' - (L'^2 + L L''). */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/drive.h"
#include "constraint/kind.h"
#include "core/finite.h"
#include "core/system.h"
#include "core/vec.h"

static cdyn_status eval(cdyn_system *sys, const cdyn__constraint *c, double t, const double *x,
                        const double *v, double *g, double *jac, double *bias, double *gt)
{
    double b[3], bd[3], bdd[3], l[3];
    cdyn_status st = cdyn__drive_point(sys, c, t, b, bd, bdd);
    if (st || (st = cdyn__drive_length(sys, c, t, l)))
        return st;
    int dim = sys->dim;
    size_t d = (size_t)dim;
    const double *xp = x + c->u.particle[0] * d, *vp = v + c->u.particle[0] * d;
    double e2 = 0, u2 = 0, eb = 0, ebb = 0;
    for (int k = 0; k < dim; k++) {
        double e = xp[k] - b[k], u = vp[k] - bd[k];
        jac[k] = e;
        e2 += e * e;
        u2 += u * u;
        eb += e * bd[k];
        ebb += e * bdd[k];
    }
    g[0] = 0.5 * (e2 - l[0] * l[0]);
    bias[0] = u2 - ebb - (l[1] * l[1] + l[0] * l[2]);
    gt[0] = -eb - l[0] * l[1];
    return CDYN_OK;
}

/* Hess g = I; pushing (nu < 0) is left out of a definite matrix. */
static cdyn_status hessian(cdyn_system *sys, const cdyn__constraint *c, double t,
                           const double *x, double hn, bool definite, cdyn__hessian_add_fn add,
                           void *ctx)
{
    (void)t, (void)x;
    if (definite && hn < 0)
        hn = 0;
    add(ctx, c->u.particle[0], c->u.particle[0], cdyn__identity(sys->dim), hn);
    return CDYN_OK;
}

static double length_scale(const cdyn__constraint *c)
{
    return c->d.p[3];
}

static const double *fixed_point(const cdyn__constraint *c)
{
    return c->d.p;
}

static cdyn_status geometry_at(const cdyn_system *sys, const cdyn__constraint *c, double t,
                               double out[4])
{
    double b[3], l[3];
    cdyn_status st = cdyn__drive_point(sys, c, t, b, NULL, NULL);
    if (st || (st = cdyn__drive_length(sys, c, t, l)))
        return st;
    out[0] = b[0];
    out[1] = b[1];
    out[2] = b[2];
    out[3] = l[0];
    return CDYN_OK;
}

const cdyn__constraint_kind cdyn__kind_anchor = {.kind = CDYN_CONSTRAINT_ANCHOR,
                                                 .name = "anchor",
                                                 .path = CDYN__ROWS_ANCHOR,
                                                 .pure = true,
                                                 .eval = eval,
                                                 .hessian = hessian,
                                                 .attach_motion = cdyn__drive_attach_motion,
                                                 .motion_of = cdyn__drive_motion_of,
                                                 .length_entry = 4,
                                                 .geometry_at = geometry_at,
                                                 .length_scale = length_scale,
                                                 .fixed_point = fixed_point};

cdyn_status cdyn_constraint_add_anchor(cdyn_system *sys, cdyn_particle p, const double *anchor,
                                       double length, cdyn_constraint *out)
{
    const char *what = "constraint_add_anchor";
    cdyn_status st = cdyn__constraint_add_prologue(sys, out, what);
    uint32_t s[1];
    if (st || (st = cdyn__constraint_resolve_particles(sys, &p, 1, s, what)))
        return st;
    if (!anchor || !cdyn__all_finite(anchor, (size_t)sys->dim))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: anchor must be %d finite values",
                          what, sys->dim);
    if (!cdyn__valid_length(length))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: length %g must be finite and > 0",
                          what, length);
    cdyn__constraint c = {.kind = CDYN_CONSTRAINT_ANCHOR, .n_particles = 1, .n_rows = 1};
    memcpy(c.d.p, anchor, (size_t)sys->dim * sizeof(double));
    c.d.p[3] = length;
    return cdyn__constraint_insert(sys, &c, s, out, what, NULL);
}
