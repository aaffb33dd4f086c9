/* The projection section of a snapshot: the options and report of the
 * SHAKE/RATTLE projections and, when RATTLE holds the factorization of the
 * matrix at the committed positions for its next step, that matrix and the
 * last velocity correction, from which the loaded system holds the same
 * factorization (projection/projection_hold.c). The rest of the
 * projection's state (its plans and scratch) is rebuilt by its first use.
 *
 *     u8 present; then u8 enabled, u8 method, f64 position and velocity
 *     tolerances, u64 cap; report: u64 position and velocity iterations,
 *     f64 position and velocity residuals, u64 worst (handle),
 *     projections, iteration totals (2), factorizations, caps hit;
 *     u8 held, [f64 x values of A (its entries), u8 correction, [f64 step,
 *     f64 x slots x dim correction]] */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "core/alloc.h"
#include "core/system.h"
#include "projection/projection.h"
#include "snapshot/snapshot.h"

void cdyn__save_projection(cdyn__save *S)
{
    const cdyn_system *sys = S->sys;
    const cdyn__projection *pr = sys->proj;
    cdyn__out_u8(&S->w, pr ? 1 : 0);
    if (!pr)
        return;
    const cdyn_projection_options *o = &pr->opt;
    cdyn__out_u8(&S->w, (uint8_t)o->enabled);
    cdyn__out_u8(&S->w, (uint8_t)o->method);
    cdyn__out_f64(&S->w, o->position_tolerance);
    cdyn__out_f64(&S->w, o->velocity_tolerance);
    cdyn__out_u64(&S->w, o->max_iterations);
    const cdyn_projection_stats *s = &pr->stats;
    cdyn__out_u64(&S->w, s->position_iterations);
    cdyn__out_u64(&S->w, s->velocity_iterations);
    cdyn__out_f64(&S->w, s->position_residual);
    cdyn__out_f64(&S->w, s->velocity_residual);
    const uint64_t counts[6] = {s->worst,
                                s->projections,
                                s->position_iterations_total,
                                s->velocity_iterations_total,
                                s->factorizations,
                                s->not_converged};
    for (int i = 0; i < 6; i++)
        cdyn__out_u64(&S->w, counts[i]);
    const double *held = cdyn__projection_held(sys);
    cdyn__out_u8(&S->w, held ? 1 : 0);
    if (!held)
        return;
    cdyn__out_f64s(&S->w, held, sys->cons->a.nnz);
    bool dv = pr->pure && pr->dv_valid;
    cdyn__out_u8(&S->w, dv ? 1 : 0);
    if (dv) {
        cdyn__out_f64(&S->w, pr->dv_h);
        cdyn__out_f64s(&S->w, pr->dx, (size_t)sys->particles.count * (size_t)sys->dim);
    }
}

/* The held factorization: the values of A into the laid-out matrix, the
 * correction aside until the projection's arrays exist. */
static bool load_held(cdyn__load *L)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    cdyn__constraints *k = sys->cons;
    if (!k || k->dirty || k->n_rows == 0)
        return cdyn__in_fail(r, "projection: a held factorization without the constraint "
                                "topology it was made from");
    if (!cdyn__in_room(r, k->a.nnz, 8, "projection matrix"))
        return false;
    double *values = cdyn__alloc_array(&sys->alloc, k->a.nnz, sizeof *values);
    if (!values)
        return cdyn__load_oom(L, "projection matrix");
    cdyn__in_finites(r, values, k->a.nnz, "projection matrix");
    bool corrected = cdyn__in_flag(r, "projection: correction");
    double h = corrected ? cdyn__in_finite(r, "projection: correction step") : 0.0;
    size_t len = (size_t)sys->particles.count * (size_t)sys->dim;
    double *dv = NULL;
    if (cdyn__load_ok(L) && corrected && !(h > 0))
        cdyn__in_fail(r, "projection: correction step %g", h);
    if (cdyn__load_ok(L) && corrected && cdyn__in_room(r, len, 8, "projection correction")) {
        if (!(dv = cdyn__alloc_array(&sys->alloc, len, sizeof *dv)))
            cdyn__load_oom(L, "projection correction");
        else
            cdyn__in_finites(r, dv, len, "projection correction");
    }
    cdyn_status st = cdyn__load_ok(L) ? cdyn__projection_hold(sys, values, dv, h) : CDYN_OK;
    /* With built-in constraints the held matrix goes with G: the saved one. */
    if (!st && cdyn__load_ok(L) && sys->proj->pure && !L->jacobian)
        cdyn__in_fail(r, "projection: a held factorization without its Jacobian");
    cdyn__free_array(&sys->alloc, dv, len, sizeof *dv);
    cdyn__free_array(&sys->alloc, values, k->a.nnz, sizeof *values);
    if (st == CDYN_ERR_NO_MEMORY)
        return cdyn__load_fail(L, st, "projection: %s", sys->error);
    if (st)
        return cdyn__in_fail(r, "projection: the held factorization cannot be made again (%s)",
                             cdyn_status_string(st));
    return cdyn__load_ok(L);
}

bool cdyn__load_projection(cdyn__load *L)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    if (!cdyn__in_flag(r, "projection: present"))
        return cdyn__load_ok(L);
    cdyn_projection_options o;
    cdyn_projection_options_init(&o);
    uint8_t enabled = cdyn__in_u8(r), method = cdyn__in_u8(r);
    o.position_tolerance = cdyn__in_f64(r);
    o.velocity_tolerance = cdyn__in_f64(r);
    uint64_t cap = cdyn__in_u64(r);
    if (!cdyn__load_ok(L))
        return false;
    /* The setter's rules (projection/projection.c). */
    if (enabled > 1 || (method != CDYN_PROJECTION_SHAKE && method != CDYN_PROJECTION_NEWTON) ||
        !(o.position_tolerance > 0 && o.position_tolerance < 1) ||
        !(o.velocity_tolerance > 0 && o.velocity_tolerance < 1) || cap < 1 || cap > UINT32_MAX)
        return cdyn__in_fail(r, "projection: options out of range");
    o.enabled = enabled;
    o.method = (cdyn_projection_method)method;
    o.max_iterations = (size_t)cap;
    cdyn_projection_stats s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    uint64_t pi = cdyn__in_u64(r), vi = cdyn__in_u64(r);
    s.position_residual = cdyn__in_f64(r);
    s.velocity_residual = cdyn__in_f64(r);
    s.worst = cdyn__in_u64(r);
    s.projections = cdyn__in_u64(r);
    s.position_iterations_total = cdyn__in_u64(r);
    s.velocity_iterations_total = cdyn__in_u64(r);
    s.factorizations = cdyn__in_u64(r);
    s.not_converged = cdyn__in_u64(r);
    bool held = cdyn__in_flag(r, "projection: held");
    if (!cdyn__load_ok(L))
        return false;
    if (pi > UINT32_MAX || vi > UINT32_MAX)
        return cdyn__in_fail(r, "projection: report out of range");
    s.position_iterations = (size_t)pi;
    s.velocity_iterations = (size_t)vi;
    if (cdyn__projection_ensure(sys, "system_load"))
        return cdyn__load_oom(L, "projection");
    sys->proj->opt = o;
    if (held && !load_held(L))
        return false;
    sys->proj->stats = s;
    return true;
}
