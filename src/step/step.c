/* The step: the pipeline every integrator runs in (docs/architecture.md).
 *
 *   workspace and constraint topology ready (may allocate, before anything
 *   moves) -> integrator: forces, constraints, the new state in x_new,
 *   v_new -> rigid bodies -> post-step projection -> finiteness check ->
 *   commit (a swap of arrays) and the clock.
 *
 * A step that fails at any stage returns its status and leaves the
 * committed state exactly as it was: every stage writes only the candidate
 * state and scratch. With particles on splines or height fields, fixed
 * steps end substeps on the knots (step_on_knots). */
#include <math.h>
#include <string.h>

#include "box/box.h"
#include "constraint/constraint.h"
#include "core/alloc.h"
#include "core/finite.h"
#include "core/system.h"
#include "dynamics/drive.h"
#include "dynamics/dynamics.h"
#include "force/applied.h"
#include "force/force.h"
#include "generalized/generalized.h"
#include "kinematic/kinematic.h"
#include "projection/projection.h"
#include "rigid/rigid.h"
#include "step/integrator.h"
#include "step/langevin.h"
#include "step/reuse.h"
#include "core/workspace.h"

/* Swaps the candidate state in. With particles on shapes the integrated
 * state is the generalized one, from which the Cartesian one is rebuilt
 * (which may fail: then everything is swapped back). */
static cdyn_status commit(cdyn_system *sys, double t1)
{
    double *tmp;
    if (!sys->param_of) {
        tmp = sys->x;
        sys->x = sys->x_new, sys->x_new = tmp;
        tmp = sys->v;
        sys->v = sys->v_new, sys->v_new = tmp;
        sys->u = sys->x;
        sys->ud = sys->v;
        return CDYN_OK;
    }
    tmp = sys->u;
    sys->u = sys->x_new, sys->x_new = tmp;
    tmp = sys->ud;
    sys->ud = sys->v_new, sys->v_new = tmp;
    cdyn_status st = cdyn__params_commit(sys, t1);
    if (st) {
        tmp = sys->u;
        sys->u = sys->x_new, sys->x_new = tmp;
        tmp = sys->ud;
        sys->ud = sys->v_new, sys->v_new = tmp;
    }
    return st;
}

/* One step of h from the committed state: integrate into x_new, v_new,
 * check, commit. On failure the committed state is untouched. */
static cdyn_status step_once(cdyn_system *sys, double h)
{
    const cdyn__integrator *integ = cdyn__integrator_of(sys->integrator);
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    sys->step_dt = h;
    sys->drive_step_work = 0;
    bool finite = false;
    sys->in_step = true;
    cdyn_status st = cdyn__langevin_on(sys) ? cdyn__step_langevin(sys, h, &finite)
                                   : integ->step(sys, h, &finite);
    if (!st)
        st = cdyn__rigids_step(sys, h);
    /* Kinematic particles end where their motions are at the step's end,
     * whatever the integrator made of their entries. */
    if (!st && sys->kin)
        st = cdyn__kinematics_place(sys, sys->time + h, sys->x_new, sys->v_new, NULL);
    /* The post-step projection of the integrators that do not project
     * themselves (projection.h): fails the step, state kept, when it does
     * not converge. */
    const bool project = !integ->projects && cdyn__projection_enabled(sys);
    if (!st && project)
        st = cdyn__projection_after_step(sys, sys->time + h);
    sys->in_step = false;
    if (st) {
        cdyn__reuse_after_step(sys, false);
        return st;
    }
    /* Rigid bodies, kinematic particles (a motion's position may overflow)
     * and projections may have moved the state since. */
    finite = finite && !sys->rigids && !(sys->kin && sys->kin->count) && !project;
    if (!finite && (!cdyn__all_finite(sys->x_new, n) || !cdyn__all_finite(sys->v_new, n))) {
        cdyn__reuse_after_step(sys, false);
        return cdyn__fail(sys, CDYN_ERR_DIVERGED,
                          "step: non-finite state at t = %g with dt = %g; state kept", sys->time, h);
    }
    if ((st = commit(sys, sys->time + h))) {
        cdyn__reuse_after_step(sys, false);
        return st;
    }
    sys->time += h;
    sys->drive_work += sys->drive_step_work;
    cdyn__reuse_after_step(sys, true);
    cdyn__langevin_after_step(sys);
    return CDYN_OK;
}

/* A spline's third derivative jumps at its knots (a bicubic height field's
 * on its cell edges), so a fixed step that straddles one integrates a
 * kinked right-hand side and drops to second order. With particles on
 * splines or height fields, fixed-step integrators end substeps on the
 * predicted crossings; the whole step still fails or succeeds as one (the
 * state is backed up in the workspace). */
static cdyn_status step_on_knots(cdyn_system *sys, double dt)
{
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    double *const *bk = sys->ws.backup;
    memcpy(bk[0], sys->u, n * sizeof(double));
    memcpy(bk[1], sys->ud, n * sizeof(double));
    memcpy(bk[2], sys->x, n * sizeof(double));
    memcpy(bk[3], sys->v, n * sizeof(double));
    const double t0 = sys->time, work0 = sys->drive_work;
    double left = dt;
    cdyn_status st = CDYN_OK;
    for (int guard = 0; left > 0 && guard < 1000000; guard++) {
        double h = cdyn__params_next_knot(sys, left, NULL);
        if (h < left) {
            /* A crossing ahead: refine its time with the accelerations. */
            sys->step_dt = left;
            sys->in_step = true;
            st = cdyn__dynamics_accel(sys, sys->time, sys->u, sys->ud, sys->ws.f);
            sys->in_step = false;
            if (st)
                break;
            h = cdyn__params_next_knot(sys, left, sys->ws.f);
        }
        if (left - h <= 1e-12 * dt)
            h = left;
        if ((st = step_once(sys, h)))
            break;
        left -= h;
    }
    if (st) {
        memcpy(sys->u, bk[0], n * sizeof(double));
        memcpy(sys->ud, bk[1], n * sizeof(double));
        memcpy(sys->x, bk[2], n * sizeof(double));
        memcpy(sys->v, bk[3], n * sizeof(double));
        sys->time = t0;
        sys->drive_work = work0;
        return st;
    }
    sys->time = t0 + dt;
    return CDYN_OK;
}

static cdyn_status step(cdyn_system *sys, double dt)
{
    cdyn_status st = cdyn__check_not_busy(sys, "step");
    if (st)
        return st;
    if (!isfinite(dt) || !(dt > 0))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "step: dt %g must be finite and > 0", dt);
    if (!isfinite(sys->time + dt)) /* the clock is part of the state */
        return cdyn__fail(sys, CDYN_ERR_DIVERGED,
                          "step: the time %g + dt %g is not finite; state kept", sys->time, dt);
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    if (n == 0) {
        sys->time += dt;
        return CDYN_OK;
    }
    const cdyn__integrator *integ = cdyn__integrator_of(sys->integrator);
    /* The Langevin scheme (step/langevin.c) needs two stage arrays. */
    size_t stages = cdyn__langevin_on(sys) && integ->stages < 2 ? 2 : integ->stages;
    if ((st = cdyn__workspace_ensure(sys, stages)) ||
        (st = cdyn__constraints_prepare(sys)) || (st = cdyn__box_reserve(sys)) ||
        (st = cdyn__forces_prepare(sys)) || (st = cdyn__reuse_prepare(sys)) ||
        (st = cdyn__box_prepare(sys))) /* moves positions: after every allocation */
        return st;
    sys->drives = cdyn__drives_present(sys);
    if (sys->param_of && !integ->adaptive &&
        cdyn__params_have_knots(sys))
        return step_on_knots(sys, dt);
    return step_once(sys, dt);
}

cdyn_status cdyn_system_step(cdyn_system *sys, double dt)
{
    /* Failures deep in the pipeline (a callback, a shape) name the call. */
    const uint64_t mark = cdyn__failure_mark(sys);
    cdyn_status st = step(sys, dt);
    if (st) {
        cdyn__box_undo(sys); /* what the box's preparation moved goes back too */
        return cdyn__blame(sys, st, mark, "step", NULL);
    }
    cdyn__box_keep(sys);
    /* Forces applied for one step have acted (a failed step keeps them). */
    cdyn__applied_step_done(sys);
    return CDYN_OK;
}
