/* An implicit curve (2-D) or surface (3-D) c(x, t) = 0 for one particle
 * from a callback giving c, its gradient and its Hessian: G = grad c,
 * velocity terms v^T Hess(c) v. Declared time-dependent, the callback also
 * gives c_t, (grad c)_t and c_tt, or leaves them to central differences in
 * t; then dg/dt = c_t and the velocity terms gain 2 (grad c)_t . v + c_tt. */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/drive.h"
#include "constraint/kind.h"
#include "core/callback.h"
#include "core/finite.h"
#include "core/system.h"

/* What one call gives. */
typedef struct implicit_values {
    double c, grad[3], hess[9];
    double c_t, grad_t[3], c_tt; /* NaN unless the callback wrote them */
} implicit_values;

static cdyn_status call(cdyn_system *sys, const cdyn__constraint *c, double t, const double *x,
                        bool timed, implicit_values *iv)
{
    int dim = sys->dim;
    memset(iv, 0, sizeof *iv);
    iv->c_t = iv->c_tt = NAN;
    iv->grad_t[0] = iv->grad_t[1] = iv->grad_t[2] = NAN;
    cdyn__callback_enter(sys);
    int rc = c->d.cb.fn.implicit(sys, t, dim, x, &iv->c, iv->grad, iv->hess,
                                 timed ? &iv->c_t : NULL, timed ? iv->grad_t : NULL,
                                 timed ? &iv->c_tt : NULL, c->d.cb.user);
    cdyn__callback_leave(sys);
    if (rc != 0)
        return cdyn__fail(sys, CDYN_ERR_CALLBACK,
                          "implicit constraint callback returned %d at t = %g", rc, t);
    if (!isfinite(iv->c) || !cdyn__all_finite(iv->grad, (size_t)dim) ||
        !cdyn__all_finite(iv->hess, (size_t)(dim * dim)))
        return cdyn__fail(sys, CDYN_ERR_CALLBACK,
                          "implicit constraint callback returned a non-finite value at t = %g",
                          t);
    return CDYN_OK;
}

/* c_t, (grad c)_t and c_tt: the callback's, or central differences. */
static cdyn_status time_terms(cdyn_system *sys, const cdyn__constraint *c, double t,
                              const double *x, implicit_values *iv)
{
    int dim = sys->dim;
    bool given = !isnan(iv->c_t) && !isnan(iv->c_tt);
    for (int k = 0; k < dim; k++)
        given = given && !isnan(iv->grad_t[k]);
    if (given) {
        if (!isfinite(iv->c_t) || !isfinite(iv->c_tt) ||
            !cdyn__all_finite(iv->grad_t, (size_t)dim))
            return cdyn__fail(sys, CDYN_ERR_CALLBACK,
                              "implicit constraint callback returned non-finite time "
                              "derivatives at t = %g", t);
        return CDYN_OK;
    }
    implicit_values p, m;
    double tp = t + CDYN__TIME_STEP, tm = t - CDYN__TIME_STEP;
    double hp = tp - t, hm = t - tm, h2 = hp + hm;
    cdyn_status st;
    if ((st = call(sys, c, tp, x, true, &p)) || (st = call(sys, c, tm, x, true, &m)))
        return st;
    iv->c_t = (p.c - m.c) / h2;
    iv->c_tt = 2.0 * ((p.c - iv->c) / hp - (iv->c - m.c) / hm) / h2;
    for (int k = 0; k < dim; k++)
        iv->grad_t[k] = (p.grad[k] - m.grad[k]) / h2;
    return CDYN_OK;
}

static cdyn_status eval(cdyn_system *sys, const cdyn__constraint *c, double t, const double *x,
                        const double *v, double *g, double *jac, double *bias, double *gt)
{
    int dim = sys->dim;
    const double *xp = x + (size_t)c->u.particle[0] * (size_t)dim;
    const double *vp = v + (size_t)c->u.particle[0] * (size_t)dim;
    bool timed = c->drive && c->drive->time_dependent;
    implicit_values iv;
    cdyn_status st = call(sys, c, t, xp, timed, &iv);
    if (st || (timed && (st = time_terms(sys, c, t, xp, &iv))))
        return st;
    double q = 0;
    for (int a = 0; a < dim; a++) {
        jac[a] = iv.grad[a];
        for (int b = 0; b < dim; b++)
            q += vp[a] * iv.hess[a * dim + b] * vp[b];
    }
    if (timed) {
        for (int a = 0; a < dim; a++)
            q += 2.0 * iv.grad_t[a] * vp[a];
        q += iv.c_tt;
        gt[0] = iv.c_t;
    }
    g[0] = iv.c;
    bias[0] = q;
    /* Every value of the callback was checked finite (call, time_terms): a
     * term that is not is the velocity's size overflowing, not a failure of
     * the callback. */
    if (!isfinite(q))
        return cdyn__fail(sys, CDYN_ERR_DIVERGED,
                          "implicit constraint: the velocity term v^T Hess(c) v overflows at "
                          "t = %g (|v| too large)",
                          t);
    return CDYN_OK;
}

/* The callback's Hessian, whatever the sign of the multiplier: a curved
 * shape's geometric stiffness has either sign by nature. */
static cdyn_status hessian(cdyn_system *sys, const cdyn__constraint *c, double t,
                           const double *x, double hn, bool definite, cdyn__hessian_add_fn add,
                           void *ctx)
{
    (void)definite;
    uint32_t s = c->u.particle[0];
    implicit_values iv;
    cdyn_status st = call(sys, c, t, x + (size_t)s * (size_t)sys->dim,
                          c->drive && c->drive->time_dependent, &iv);
    if (st)
        return st;
    add(ctx, s, s, iv.hess, hn);
    return CDYN_OK;
}

const cdyn__constraint_kind cdyn__kind_implicit = {.kind = CDYN_CONSTRAINT_IMPLICIT,
                                                   .name = "implicit",
                                                   .eval = eval,
                                                   .hessian = hessian,
                                                   .time_callback = true,
                                                   .length_scale = cdyn__length_unit};

cdyn_status cdyn_constraint_add_implicit(cdyn_system *sys, cdyn_particle p, cdyn_implicit_fn fn,
                                         void *user, cdyn_constraint *out)
{
    const char *what = "constraint_add_implicit";
    cdyn_status st = cdyn__constraint_add_prologue(sys, out, what);
    uint32_t s[1];
    if (st || (st = cdyn__constraint_resolve_particles(sys, &p, 1, s, what)))
        return st;
    if (!fn)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL function", what);
    cdyn__constraint c = {.kind = CDYN_CONSTRAINT_IMPLICIT, .n_particles = 1, .n_rows = 1,
                          .d.cb = {.fn.implicit = fn, .user = user}};
    return cdyn__constraint_insert(sys, &c, s, out, what, NULL);
}
