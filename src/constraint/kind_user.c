/* A user constraint: rows, Jacobian and G'v from a callback on the
 * particles' gathered positions and velocities. */
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/kind.h"
#include "core/finite.h"
#include "core/system.h"

static cdyn_status eval(cdyn_system *sys, const cdyn__constraint *c, const double *x,
                        const double *v, double *g, double *jac, double *bias)
{
    cdyn__constraints *k = sys->cons;
    size_t d = (size_t)sys->dim, np = c->n_particles;
    double *gx = k->gather, *gv = k->gather + CDYN__CONSTRAINT_MAX_PARTICLES * 3;
    for (size_t j = 0; j < np; j++) {
        size_t s = cdyn__constraint_particle(c, (uint32_t)j);
        memcpy(gx + j * d, x + s * d, d * sizeof *gx);
        memcpy(gv + j * d, v + s * d, d * sizeof *gv);
    }
    int rc = c->d.cb.fn.user(gx, gv, np, sys->dim, c->n_rows, g, jac, bias, c->d.cb.user);
    if (rc != 0)
        return cdyn__fail(sys, CDYN_ERR_CALLBACK, "constraint callback returned %d", rc);
    if (!cdyn__all_finite(g, c->n_rows) || !cdyn__all_finite(bias, c->n_rows) ||
        !cdyn__all_finite(jac, c->n_rows * np * d))
        return cdyn__fail(sys, CDYN_ERR_CALLBACK, "constraint callback returned a non-finite value");
    return CDYN_OK;
}

/* The callback gives no Hessian: backward Euler's Newton iteration is
 * inexact for these rows (it still converges, more slowly). */
const cdyn__constraint_kind cdyn__kind_user = {.kind = CDYN_CONSTRAINT_USER,
                                               .name = "user",
                                               .eval = eval,
                                               .hessian = cdyn__hessian_none,
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
