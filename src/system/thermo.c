/* Temperature and pressure of the committed state (include/cdyn/diagnostics.h,
 * docs/pairs.md section 5). */
#include "cdyn/diagnostics.h"

#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "core/box.h"
#include "core/holders.h"
#include "core/system.h"
#include "force/force.h"
#include "generalized/generalized.h"
#include "pair/pair.h"
#include "rigid/rigid.h"

/* N_f: the coordinates that move (d per free particle, the curve's or
 * surface's per particle on one, 3 or 6 per rigid body) less the rows of
 * the enabled implicit constraints. */
static double degrees_of_freedom(const cdyn_system *sys)
{
    const int dim = sys->dim;
    double n = 0;
    for (uint32_t i = 0; i < sys->particles.count; i++) {
        if (!sys->particles.alive[i] || sys->fixed[i] || cdyn__holder_body(sys, i))
            continue;
        const struct cdyn__param *r = sys->param_of ? sys->param_of[i] : NULL;
        n += r ? r->k : dim;
    }
    if (sys->rigids)
        n += (double)sys->rigids->slots.live * (dim == 3 ? 6.0 : 3.0);
    const cdyn__constraints *k = sys->cons;
    for (uint32_t i = 0; k && i < k->slots.count; i++) {
        const cdyn__constraint *c = &k->c[i];
        if (k->slots.alive[i] && c->enabled && !cdyn__constraint_is_shape(c))
            n -= c->n_rows;
    }
    return n;
}

/* sum m |v|^2 over the particles that move: twice the kinetic energy. */
static double twice_kinetic(const cdyn_system *sys)
{
    const size_t d = (size_t)sys->dim;
    double e = 0;
    for (size_t i = 0; i < sys->particles.count; i++) {
        if (sys->fixed[i])
            continue;
        double v2 = 0;
        for (size_t k = 0; k < d; k++)
            v2 += sys->v[i * d + k] * sys->v[i * d + k];
        e += sys->mass[i] * v2;
    }
    return e;
}

cdyn_status cdyn_system_get_degrees_of_freedom(const cdyn_system *sys, double *out)
{
    cdyn_status st = cdyn__enter_query(sys, out, "system_get_degrees_of_freedom");
    if (!st)
        *out = degrees_of_freedom(sys);
    return st;
}

cdyn_status cdyn_system_get_temperature(const cdyn_system *sys, double *out)
{
    const char *what = "system_get_temperature";
    cdyn_status st = cdyn__enter_query(sys, out, what);
    if (st)
        return st;
    double nf = degrees_of_freedom(sys);
    if (!(nf > 0))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: the system has no degree of freedom (N_f = %g)", what, nf);
    *out = twice_kinetic(sys) / nf;
    return CDYN_OK;
}

/* d . F_b of a spring (a pulls on b with -T d / l): -T l. */
static double spring_virial(const cdyn_system *sys, const cdyn__force *g)
{
    const size_t dim = (size_t)sys->dim;
    double d[3] = {0, 0, 0}, l2 = 0;
    for (size_t k = 0; k < dim; k++)
        d[k] = sys->x[g->b * dim + k] - sys->x[g->a * dim + k];
    if (sys->box && sys->box->any_periodic)
        cdyn__box_min_image(sys->box, sys->dim, d);
    for (size_t k = 0; k < dim; k++)
        l2 += d[k] * d[k];
    return -cdyn__spring_tension(sys, g, sys->x, sys->v) * sqrt(l2);
}

/* d . F_b of the rods at their last reported multipliers: the force on
 * the rod's second particle is lambda times its Jacobian block d. */
static double rod_virial(const cdyn_system *sys)
{
    const cdyn__constraints *k = sys->cons;
    if (!k || !k->evaluated || k->dirty)
        return 0;
    const size_t dim = (size_t)sys->dim;
    double w = 0;
    for (uint32_t i = 0; i < k->slots.count; i++) {
        const cdyn__constraint *c = &k->c[i];
        if (!k->slots.alive[i] || !c->enabled || c->kind != CDYN_CONSTRAINT_DISTANCE)
            continue;
        const double *xa = sys->x + c->u.particle[0] * dim, *xb = sys->x + c->u.particle[1] * dim;
        double d2 = 0;
        for (size_t q = 0; q < dim; q++)
            d2 += (xb[q] - xa[q]) * (xb[q] - xa[q]);
        w += k->lambda[c->row] * d2; /* clusters are whole: d is the rod's own */
    }
    return w;
}

cdyn_status cdyn_system_get_pressure(const cdyn_system *sys, double *out)
{
    const char *what = "system_get_pressure";
    cdyn_status st = cdyn__enter_query(sys, out, what);
    if (st)
        return st;
    const cdyn__box *b = sys->box;
    if (!b || !b->present)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: the system has no box, whose volume the pressure needs", what);
    double volume = 1, w = 0;
    for (int k = 0; k < sys->dim; k++)
        volume *= b->len[k];
    for (uint32_t i = 0; i < sys->forces.count; i++) {
        const cdyn__force *g = &sys->force[i];
        if (!sys->forces.alive[i])
            continue;
        if (g->ops == &cdyn__spring_ops) {
            w += spring_virial(sys, g);
        } else if (cdyn__force_kind(g) == CDYN_FORCE_PAIR) {
            double wp = 0;
            const uint64_t mark = cdyn__failure_mark(sys);
            if ((st = cdyn__pair_virial(sys, g->pair, sys->x, sys->v, &wp)))
                return cdyn__blame(sys, st, mark, what, NULL);
            w += wp;
        }
    }
    w += rod_virial(sys);
    *out = (twice_kinetic(sys) + w) / ((double)sys->dim * volume);
    return CDYN_OK;
}
