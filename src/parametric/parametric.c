/* Particles on curves and surfaces (include/cdyn/parametric.h): the
 * constraints that hold them, and their generalized coordinates read and
 * set through the constraint's handle. The records and the generalized
 * state are in generalized/. */
#include <math.h>
#include <string.h>

#include "cdyn/parametric.h"
#include "constraint/constraint.h"
#include "constraint/kind.h"
#include "core/alloc.h"
#include "core/finite.h"
#include "core/system.h"
#include "generalized/generalized.h"

/* Builds a record for particle @p slot on the shape described by @p curve or
 * @p surface, projected from the particle's current state; then the
 * constraint. Everything fallible happens before anything is changed. */
static cdyn_status place_on_shape(cdyn_system *sys, cdyn_particle particle,
                                  const cdyn_curve_desc *curve, const cdyn_surface_desc *surface,
                                  cdyn_constraint *out, const char *what)
{
    cdyn_status st = cdyn__check_mutable(sys, what);
    if (st)
        return st;
    if (!out || (!curve && !surface))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    uint32_t slot;
    if ((st = cdyn__constraint_resolve_particles(sys, &particle, 1, &slot, what)))
        return st;
    if (cdyn__param_of(sys, slot))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: the particle is already on a shape; remove that constraint first",
                          what);
    if (cdyn__is_kinematic(sys, slot))
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "%s: the particle moves by a prescribed motion; release it "
                          "(cdyn_particle_set_motion with NULL) or move the shape instead",
                          what);
    if (surface && sys->dim != 3)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: surfaces need a 3-D system", what);
    cdyn__param *p = cdyn__calloc_array(&sys->alloc, 1, sizeof *p);
    if (!p)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
    p->k = curve ? 1 : 2;
    p->slot = slot;
    st = curve ? cdyn__curve_init(&p->curve, curve, sys->dim, &sys->alloc)
               : cdyn__surface_init(&p->surface, surface, &sys->alloc);
    if (st) {
        cdyn__free_array(&sys->alloc, p, 1, sizeof *p);
        return cdyn__fail(sys, st, "%s: %s", what,
                          st == CDYN_ERR_NO_MEMORY ? "out of memory"
                                                   : "invalid or degenerate shape description");
    }
    if (surface && p->surface.kind == CDYN_SURFACE_HEIGHTFIELD &&
        p->surface.hf.mode == CDYN_HEIGHTFIELD_BILINEAR) {
        /* Its normal jumps on every cell edge while (u', v') pass unchanged:
         * the speed jumps there and energy is not conserved. */
        cdyn__param_free(sys, p);
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "%s: a particle cannot ride a BILINEAR height field (its slope jumps "
                          "at cell edges); use CDYN_HEIGHTFIELD_BICUBIC",
                          what);
    }
    if (curve && p->curve.kind == CDYN_CURVE_CYCLOID) {
        const cdyn__domain *dom = cdyn__curve_domain(&p->curve);
        p->arc = true;
        p->arc_dom = cdyn__domain_interval(cdyn__cycloid_arc_of(&p->curve, dom->lo),
                                           cdyn__cycloid_arc_of(&p->curve, dom->hi), dom->lo_end,
                                           dom->hi_end);
    }
    size_t d = (size_t)sys->dim;
    double q[2] = {0, 0}, qd[2] = {0, 0}, x[3], v[3];
    cdyn__surface chart;
    bool turned = false;
    cdyn__carrier_init(&p->carrier);
    st = cdyn__param_project(sys, p, sys->time, sys->x + slot * d, sys->v + slot * d, NULL, q, qd,
                             &chart, &turned);
    if (!st && turned)
        p->surface = chart; /* a shallow copy: a sphere owns no arrays */
    if (st || (st = cdyn__param_eval(sys, p, sys->time, q, qd, x, v))) {
        cdyn__param_free(sys, p);
        return st == CDYN_ERR_SINGULAR
                   ? cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                                "%s: the shape's parametrization degenerates at the start point",
                                what)
                   : st;
    }
    bool entered = !sys->param_of;
    if ((st = cdyn__params_enter_mode(sys))) {
        cdyn__param_free(sys, p);
        return cdyn__fail(sys, st, "%s: out of memory", what);
    }
    cdyn__constraint proto = {.kind = (uint8_t)(curve ? CDYN_CONSTRAINT_CURVE : CDYN_CONSTRAINT_SURFACE),
                              .n_particles = 1, .n_rows = 0, .d.param = p};
    if ((st = cdyn__constraint_insert(sys, &proto, &slot, out, what, NULL))) {
        if (entered)
            cdyn__params_leave_mode(sys);
        cdyn__param_free(sys, p);
        return st;
    }
    sys->param_of[slot] = p;
    sys->n_param++;
    if (cdyn__param_moves(p))
        sys->n_moving_shapes++;
    cdyn__constraints_materialize_jac(sys);
    return cdyn__param_place(sys, p, q, qd);
}

/* Every failure, also a shape's status passed up, names the call. */
static cdyn_status add_shape(cdyn_system *sys, cdyn_particle particle,
                             const cdyn_curve_desc *curve, const cdyn_surface_desc *surface,
                             cdyn_constraint *out, const char *what)
{
    const uint64_t mark = cdyn__failure_mark(sys);
    cdyn_status st = place_on_shape(sys, particle, curve, surface, out, what);
    return cdyn__blame(sys, st, mark, what, NULL);
}

cdyn_status cdyn_constraint_add_on_curve(cdyn_system *sys, cdyn_particle p,
                                         const cdyn_curve_desc *curve, cdyn_constraint *out)
{
    return add_shape(sys, p, curve, NULL, out, "constraint_add_on_curve");
}

cdyn_status cdyn_constraint_add_on_surface(cdyn_system *sys, cdyn_particle p,
                                           const cdyn_surface_desc *surface, cdyn_constraint *out)
{
    return add_shape(sys, p, NULL, surface, out, "constraint_add_on_surface");
}

/* Arc length and its rate to the public q, q' of a cycloid. q' is infinite
 * where a moving bead sits on a cusp (only if it was put there moving). */
static void arc_to_param(const cdyn__param *p, double *q, double *qd)
{
    double s = q[0], sd = qd[0];
    q[0] = cdyn__cycloid_param_of(&p->curve, s);
    if (sd != 0.0) {
        double dr[3] = {0, 0, 0};
        (void)cdyn__curve_eval(&p->curve, q[0], NULL, dr, NULL);
        double speed = sqrt(dr[0] * dr[0] + dr[1] * dr[1] + dr[2] * dr[2]);
        qd[0] = speed > 0.0 ? sd / speed : copysign(HUGE_VAL, sd);
    }
}

/* The record of a shape constraint handle. */
static cdyn_status shape_of(const cdyn_system *sys, cdyn_constraint h, const char *what,
                            cdyn__param **out)
{
    uint32_t i;
    cdyn_status st = cdyn__constraint_slot(sys, h, what, &i);
    if (st)
        return st;
    const cdyn__constraint *c = &sys->cons->c[i];
    if (!cdyn__constraint_is_shape(c))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: the constraint does not hold a particle on a curve or surface",
                          what);
    *out = c->d.param;
    return CDYN_OK;
}

cdyn_status cdyn_constraint_get_coordinates(const cdyn_system *sys, cdyn_constraint h, double *q,
                                            double *qdot)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn__param *p = NULL;
    cdyn_status st = shape_of(sys, h, "constraint_get_coordinates", &p);
    if (st)
        return st;
    size_t d = (size_t)sys->dim;
    double nq[2], nqd[2];
    for (int a = 0; a < p->k; a++) {
        nq[a] = sys->u[p->slot * d + (size_t)a];
        nqd[a] = sys->ud[p->slot * d + (size_t)a];
    }
    if (p->arc)
        arc_to_param(p, nq, nqd);
    for (int a = 0; a < p->k; a++) {
        if (q)
            q[a] = nq[a];
        if (qdot)
            qdot[a] = nqd[a];
    }
    return CDYN_OK;
}

static cdyn_status set_coordinates(cdyn_system *sys, cdyn_constraint h, const double *q,
                                   const double *qdot)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    const char *what = "constraint_set_coordinates";
    cdyn_status st = cdyn__check_mutable(sys, what);
    cdyn__param *p = NULL;
    if (st || (st = shape_of(sys, h, what, &p)))
        return st;
    size_t d = (size_t)sys->dim;
    double nq[2] = {0, 0}, nqd[2] = {0, 0};
    for (int a = 0; a < p->k; a++) {
        nq[a] = sys->u[p->slot * d + (size_t)a];
        nqd[a] = sys->ud[p->slot * d + (size_t)a];
    }
    if (p->arc)
        arc_to_param(p, nq, nqd);
    for (int a = 0; a < p->k; a++) {
        nq[a] = q ? q[a] : nq[a];
        nqd[a] = qdot ? qdot[a] : nqd[a];
    }
    if (!cdyn__all_finite(nq, 2) || !cdyn__all_finite(nqd, 2))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: non-finite coordinate", what);
    const cdyn__domain *du = p->k == 1 ? cdyn__curve_domain(&p->curve) : &p->surface.du;
    const cdyn__domain *dv = p->k == 1 ? NULL : &p->surface.dv;
    if ((!du->periodic && (nq[0] < du->lo || nq[0] > du->hi)) ||
        (dv && !dv->periodic && (nq[1] < dv->lo || nq[1] > dv->hi)))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: coordinate outside the shape's domain",
                          what);
    nq[0] = cdyn__domain_wrap(du, nq[0]);
    if (dv)
        nq[1] = cdyn__domain_wrap(dv, nq[1]);
    if (p->arc) {
        /* s' = |r'(q)| q', dr/dq pointing along increasing s inside the arch */
        double dr[3];
        if ((st = cdyn__curve_eval(&p->curve, nq[0], NULL, dr, NULL)))
            return st;
        nqd[0] *= sqrt(dr[0] * dr[0] + dr[1] * dr[1] + dr[2] * dr[2]);
        nq[0] = cdyn__domain_clamp(&p->arc_dom, cdyn__cycloid_arc_of(&p->curve, nq[0]));
    }
    /* Placing evaluates before writing: a failure leaves the state as it was. */
    cdyn__constraints_materialize_jac(sys);
    st = cdyn__param_place(sys, p, nq, nqd);
    if (st != CDYN_ERR_SINGULAR || p->k != 2)
        return st;
    /* On a pole of a whole sphere's chart: the point in a turned chart, as a
     * step would re-chart it (u' is lost there: r_u = 0). */
    cdyn__surface old = p->surface, chart = p->surface;
    if (cdyn__surface_rechart(&chart, &nq[0], &nq[1], &nqd[0], &nqd[1])) {
        p->surface = chart;
        if ((st = cdyn__param_place(sys, p, nq, nqd)))
            p->surface = old;
    }
    return st;
}

cdyn_status cdyn_constraint_set_coordinates(cdyn_system *sys, cdyn_constraint h, const double *q,
                                            const double *qdot)
{
    const uint64_t mark = cdyn__failure_mark(sys);
    cdyn_status st = set_coordinates(sys, h, q, qdot);
    return cdyn__blame(sys, st, mark, "constraint_set_coordinates", NULL);
}

cdyn_status cdyn_constraint_get_coordinate_count(const cdyn_system *sys, cdyn_constraint h,
                                                 size_t *out)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "constraint_get_coordinate_count: NULL");
    uint32_t i;
    cdyn_status st = cdyn__constraint_slot(sys, h, "constraint_get_coordinate_count", &i);
    if (st)
        return st;
    const cdyn__constraint *c = &sys->cons->c[i];
    *out = (size_t)cdyn__kind_of(c)->coordinates;
    return CDYN_OK;
}
