/* A user constraint: rows, Jacobian and velocity terms from a callback on
 * the particles' gathered positions and velocities. Declared
 * time-dependent, it also gives dg/dt, or leaves it to central differences
 * in t (constraint/drive.h). */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/drive.h"
#include "constraint/kind.h"
#include "core/callback.h"
#include "core/finite.h"
#include "core/system.h"

/* One call with its checks. */
static cdyn_status call(cdyn_system *sys, const cdyn__constraint *c, double t, const double *x,
                        const double *v, double *g, double *jac, double *bias, double *gt)
{
    size_t d = (size_t)sys->dim, np = c->n_particles, rows = c->n_rows;
    cdyn__callback_enter(sys);
    int rc = c->d.cb.fn.user(sys, t, np, sys->dim, x, v, rows, g, jac, bias, gt, c->d.cb.user);
    cdyn__callback_leave(sys);
    if (rc != 0)
        return cdyn__fail(sys, CDYN_ERR_CALLBACK, "constraint callback returned %d at t = %g", rc,
                          t);
    if (!cdyn__all_finite(g, rows) || !cdyn__all_finite(bias, rows) ||
        !cdyn__all_finite(jac, rows * np * d))
        return cdyn__fail(sys, CDYN_ERR_CALLBACK,
                          "constraint callback returned a non-finite value at t = %g", t);
    return CDYN_OK;
}

static void fill_nan(double *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = NAN;
}

static bool any_nan(const double *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isnan(a[i]))
            return true;
    return false;
}

/* dg/dt, d2g/dt2 and (dG/dt) v by central differences at t +- h: the
 * velocity terms gain 2 (dG/dt) v + d2g/dt2. */
static cdyn_status differences(cdyn_system *sys, const cdyn__constraint *c, double t,
                               const double *x, const double *v, const double *g, double *bias,
                               double *gt)
{
    cdyn__constraints *k = sys->cons;
    size_t d = (size_t)sys->dim, np = c->n_particles, rows = c->n_rows, nj = rows * np * d;
    double *gp = k->tbuf, *gm = gp + rows, *jp = gm + rows, *jm = jp + nj, *junk = jm + nj;
    double tp = t + CDYN__TIME_STEP, tm = t - CDYN__TIME_STEP;
    double hp = tp - t, hm = t - tm, h2 = hp + hm;
    cdyn_status st;
    fill_nan(junk + rows, rows);
    if ((st = call(sys, c, tp, x, v, gp, jp, junk, junk + rows)))
        return st;
    fill_nan(junk + rows, rows);
    if ((st = call(sys, c, tm, x, v, gm, jm, junk, junk + rows)))
        return st;
    for (size_t r = 0; r < rows; r++) {
        double jtv = 0;
        for (size_t j = 0; j < np * d; j++)
            jtv += (jp[r * np * d + j] - jm[r * np * d + j]) * v[j];
        gt[r] = (gp[r] - gm[r]) / h2;
        double gtt = 2.0 * ((gp[r] - g[r]) / hp - (g[r] - gm[r]) / hm) / h2;
        bias[r] += 2.0 * jtv / h2 + gtt;
    }
    return CDYN_OK;
}

static cdyn_status eval(cdyn_system *sys, const cdyn__constraint *c, double t, const double *x,
                        const double *v, double *g, double *jac, double *bias, double *gt)
{
    cdyn__constraints *k = sys->cons;
    size_t d = (size_t)sys->dim, np = c->n_particles;
    double *gx = k->gather, *gv = k->gather + CDYN__CONSTRAINT_MAX_PARTICLES * 3;
    for (size_t j = 0; j < np; j++) {
        size_t s = cdyn__constraint_particle(c, (uint32_t)j);
        memcpy(gx + j * d, x + s * d, d * sizeof *gx);
        memcpy(gv + j * d, v + s * d, d * sizeof *gv);
    }
    bool timed = c->drive && c->drive->time_dependent;
    if (timed)
        fill_nan(gt, c->n_rows);
    cdyn_status st = call(sys, c, t, gx, gv, g, jac, bias, timed ? gt : NULL);
    if (st || !timed)
        return st;
    if (any_nan(gt, c->n_rows))
        return differences(sys, c, t, gx, gv, g, bias, gt);
    if (!cdyn__all_finite(gt, c->n_rows))
        return cdyn__fail(sys, CDYN_ERR_CALLBACK,
                          "constraint callback returned a non-finite dg/dt at t = %g", t);
    return CDYN_OK;
}

/* The callback gives no Hessian: backward Euler's Newton iteration is
 * inexact for these rows (it still converges, more slowly). */
const cdyn__constraint_kind cdyn__kind_user = {.kind = CDYN_CONSTRAINT_USER,
                                               .name = "user",
                                               .eval = eval,
                                               .hessian = cdyn__hessian_none,
                                               .time_callback = true,
                                               .length_scale = cdyn__length_unit};

cdyn_status cdyn_constraint_add_user(cdyn_system *sys, const cdyn_particle *particles,
                                     size_t n_particles, size_t n_rows, cdyn_constraint_fn fn,
                                     void *user, cdyn_constraint *out)
{
    const char *what = "constraint_add_user";
    cdyn_status st = cdyn__constraint_add_prologue(sys, out, what);
    if (st)
        return st;
    if (!particles || !fn || n_particles == 0 || n_particles > CDYN__CONSTRAINT_MAX_PARTICLES ||
        n_rows == 0 || n_rows > CDYN__CONSTRAINT_MAX_ROWS)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: need a function and 1..%d particles and rows (got %zu, %zu)", what,
                          CDYN__CONSTRAINT_MAX_PARTICLES, n_particles, n_rows);
    uint32_t s[CDYN__CONSTRAINT_MAX_PARTICLES];
    if ((st = cdyn__constraint_resolve_particles(sys, particles, n_particles, s, what)))
        return st;
    cdyn__constraint c = {.kind = CDYN_CONSTRAINT_USER, .n_particles = (uint16_t)n_particles,
                          .n_rows = (uint16_t)n_rows,
                          .d.cb = {.fn.user = fn, .user = user}};
    return cdyn__constraint_insert(sys, &c, s, out, what, NULL);
}
