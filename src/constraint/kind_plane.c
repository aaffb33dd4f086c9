/* A plane (3-D) or line (2-D): g = n.x - c with n a unit normal, G = n,
 * G'v = 0. A motion may carry the plane: with X0 = c n its point nearest
 * the origin at attach time, carried to X0(t), and n(t) turned,
 * g = n.(x - X0), dg/dt = n'.(x - X0) - n.X0', and the velocity terms of
 * g'' are n''.(x - X0) + 2 n'.(v - X0') - n.X0'' with n' = omega x n,
 * n'' = alpha x n + omega x (omega x n). */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/drive.h"
#include "constraint/kind.h"
#include "core/finite.h"
#include "core/system.h"
#include "core/vec.h"

/* n, n', n'' and the point X0 with X0', X0'' at time t. */
static cdyn_status carried(const cdyn_system *sys, const cdyn__constraint *c, double t, double n[3],
                           double nd[3], double ndd[3], double x0[3], double x0d[3],
                           double x0dd[3])
{
    cdyn__frame f;
    cdyn_status st = cdyn__drive_frame(sys, c, t, &f);
    if (st)
        return st;
    double ns[3] = {c->d.p[0], c->d.p[1], sys->dim == 3 ? c->d.p[2] : 0.0}, ps[3], wn[3];
    for (int k = 0; k < 3; k++)
        ps[k] = c->d.p[3] * ns[k];
    cdyn__frame_turn(&f, ns, n);
    cdyn__frame_point(&f, ps, x0, x0d, x0dd);
    cdyn__v3_cross(nd, f.omega, n);
    cdyn__v3_cross(ndd, f.alpha, n);
    cdyn__v3_cross(wn, f.omega, nd);
    for (int k = 0; k < 3; k++)
        ndd[k] += wn[k];
    return CDYN_OK;
}

static cdyn_status eval(cdyn_system *sys, const cdyn__constraint *c, double t, const double *x,
                        const double *v, double *g, double *jac, double *bias, double *gt)
{
    size_t d = (size_t)sys->dim;
    const double *xp = x + c->u.particle[0] * d;
    if (!cdyn__constraint_driven(c)) {
        memcpy(jac, c->d.p, d * sizeof *jac);
        g[0] = cdyn__vec_dot(c->d.p, xp, sys->dim) - c->d.p[3];
        bias[0] = 0;
        return CDYN_OK;
    }
    double n[3], nd[3], ndd[3], x0[3], x0d[3], x0dd[3];
    cdyn_status st = carried(sys, c, t, n, nd, ndd, x0, x0d, x0dd);
    if (st)
        return st;
    const double *vp = v + c->u.particle[0] * d;
    double gv = 0, gtv = 0, b = 0;
    for (size_t k = 0; k < d; k++) {
        double e = xp[k] - x0[k];
        jac[k] = n[k];
        gv += n[k] * e;
        gtv += nd[k] * e - n[k] * x0d[k];
        b += ndd[k] * e + 2.0 * nd[k] * (vp[k] - x0d[k]) - n[k] * x0dd[k];
    }
    g[0] = gv;
    gt[0] = gtv;
    bias[0] = b;
    return CDYN_OK;
}

static cdyn_status geometry_at(const cdyn_system *sys, const cdyn__constraint *c, double t,
                               double out[4])
{
    double n[3], nd[3], ndd[3], x0[3], x0d[3], x0dd[3];
    cdyn_status st = carried(sys, c, t, n, nd, ndd, x0, x0d, x0dd);
    if (!st) {
        out[0] = n[0];
        out[1] = n[1];
        out[2] = n[2];
        out[3] = cdyn__v3_dot(n, x0);
    }
    return st;
}

const cdyn__constraint_kind cdyn__kind_plane = {.kind = CDYN_CONSTRAINT_PLANE,
                                                .name = "plane",
                                                .pure = true,
                                                .eval = eval,
                                                .hessian = cdyn__hessian_none,
                                                .attach_motion = cdyn__drive_attach_motion,
                                                .motion_of = cdyn__drive_motion_of,
                                                .geometry_at = geometry_at,
                                                .length_scale = cdyn__length_unit};

cdyn_status cdyn_constraint_add_plane(cdyn_system *sys, cdyn_particle p, const double *normal,
                                      double offset, cdyn_constraint *out)
{
    const char *what = "constraint_add_plane";
    cdyn_status st = cdyn__constraint_add_prologue(sys, out, what);
    uint32_t s[1];
    if (st || (st = cdyn__constraint_resolve_particles(sys, &p, 1, s, what)))
        return st;
    /* The rescaled norm: any finite normal has one (1e300 included). */
    double len = normal && cdyn__all_finite(normal, (size_t)sys->dim)
                     ? cdyn__vec_norm(normal, sys->dim)
                     : 0.0;
    if (!(len > 0) || !isfinite(len) || !isfinite(offset) || !isfinite(offset / len))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: normal must be %d finite values, not all zero, and the offset "
                          "finite", what, sys->dim);
    cdyn__constraint c = {.kind = CDYN_CONSTRAINT_PLANE, .n_particles = 1, .n_rows = 1};
    for (int k = 0; k < sys->dim; k++)
        c.d.p[k] = normal[k] / len;
    c.d.p[3] = offset / len;
    return cdyn__constraint_insert(sys, &c, s, out, what, NULL);
}
