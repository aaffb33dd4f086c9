/* The step: workspace, dispatch to an integrator, checks, commit; and the
 * one-evaluation integrators (Euler variants, velocity Verlet). */
#include "step/integrators.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "constraint/constraint.h"
#include "parametric/parametric.h"
#include "projection/projection.h"
#include "dynamics/dynamics.h"
#include "step/backward_euler/backward_euler.h"
#include "rigid/rigid.h"
#include "core/system.h"

size_t cdyn__integrator_stage_count(cdyn_integrator integrator)
{
    /* Accelerations may be computed in place of the force accumulator. */
    switch (integrator) {
    case CDYN_INTEGRATOR_EXPLICIT_EULER:
    case CDYN_INTEGRATOR_SYMPLECTIC_EULER:
        return 0;
    case CDYN_INTEGRATOR_VELOCITY_VERLET:
        return 1; /* half-step velocity */
    case CDYN_INTEGRATOR_RK4:
        return 2; /* stage x, stage v */
    case CDYN_INTEGRATOR_RK45:
        return 16; /* 7 stage velocities, 7 accelerations, candidate state */
    case CDYN_INTEGRATOR_RATTLE:
        return 1; /* half-step velocity (velocity-dependent forces) */
    case CDYN_INTEGRATOR_BACKWARD_EULER:
        return 0; /* keeps its own arrays (src/implicit) */
    }
    return 0;
}

void cdyn__workspace_free(cdyn_system *sys)
{
    cdyn__workspace *ws = &sys->ws;
    cdyn__free_array(&sys->alloc, ws->block, ws->n_arrays * ws->cap_len, sizeof(double));
    memset(ws, 0, sizeof *ws);
}

cdyn_status cdyn__workspace_ensure(cdyn_system *sys)
{
    cdyn__workspace *ws = &sys->ws;
    size_t len = (size_t)sys->particles.capacity * (size_t)sys->dim;
    /* With particles on shapes: their Cartesian scratch (2) and a backup of
     * the state (4) for steps split at spline knots. */
    size_t n_arrays = 1 + cdyn__integrator_stage_count(sys->integrator) + (sys->param_of ? 6 : 0);
    if (ws->block && ws->cap_len >= len && ws->n_arrays >= n_arrays)
        return CDYN_OK;
    if (len == 0)
        return CDYN_OK;
    if (n_arrays < ws->n_arrays)
        n_arrays = ws->n_arrays; /* keep what a previous integrator needed */
    if (cdyn__mul_overflows(n_arrays, len))
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "step: workspace size overflows");
    double *block = cdyn__calloc_array(&sys->alloc, n_arrays * len, sizeof(double));
    if (!block)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY,
                          "step: out of memory for the integrator workspace (%zu doubles)",
                          n_arrays * len);
    cdyn__workspace_free(sys);
    ws->block = block;
    ws->n_arrays = n_arrays;
    ws->cap_len = len;
    ws->f = block;
    /* The arrays of shapes come last. */
    ws->px = block + (n_arrays - 6) * len;
    ws->pv = block + (n_arrays - 5) * len;
    for (size_t i = 0; i < 4; i++)
        ws->backup[i] = block + (n_arrays - 4 + i) * len;
    for (size_t i = 0; i + 1 < n_arrays && i < sizeof ws->stage / sizeof ws->stage[0]; i++)
        ws->stage[i] = block + (1 + i) * len;
    return CDYN_OK;
}

/* Non-zero when the double's 11 exponent bits are all set (inf or NaN), as
 * in cdyn__all_finite: integer operations OR-ed together, no early exit,
 * so the loops that use it still vectorize. */
static inline uint64_t nonfinite_bit(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return (((bits >> 52) & 0x7ffu) + 1u) >> 11;
}

/* The Euler steps check the new state as they write it (*finite), which
 * spares step_once a pass over it. */
static cdyn_status explicit_euler(cdyn_system *sys, double dt, bool *finite)
{
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    double *a = sys->ws.f, *xn = sys->x_new, *vn = sys->v_new;
    cdyn_status st = cdyn__dynamics_accel(sys, sys->time, sys->u, sys->ud, a);
    if (st)
        return st;
    const double *u = sys->u, *ud = sys->ud;
    uint64_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        xn[i] = u[i] + dt * ud[i];
        vn[i] = ud[i] + dt * a[i];
        bad |= nonfinite_bit(xn[i]) | nonfinite_bit(vn[i]);
    }
    *finite = bad == 0;
    return CDYN_OK;
}

static cdyn_status symplectic_euler(cdyn_system *sys, double dt, bool *finite)
{
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    double *a = sys->ws.f, *xn = sys->x_new, *vn = sys->v_new;
    cdyn_status st = cdyn__dynamics_accel(sys, sys->time, sys->u, sys->ud, a);
    if (st)
        return st;
    const double *u = sys->u, *ud = sys->ud;
    uint64_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        double vi = ud[i] + dt * a[i];
        double xi = u[i] + dt * vi;
        vn[i] = vi;
        xn[i] = xi;
        bad |= nonfinite_bit(xi) | nonfinite_bit(vi);
    }
    *finite = bad == 0;
    return CDYN_OK;
}

cdyn_status cdyn__step_explicit_euler(cdyn_system *sys, double dt)
{
    bool finite;
    return explicit_euler(sys, dt, &finite);
}

cdyn_status cdyn__step_symplectic_euler(cdyn_system *sys, double dt)
{
    bool finite;
    return symplectic_euler(sys, dt, &finite);
}

/* Kick-drift-kick. With velocity-dependent forces the closing kick would
 * need a(x1, v1) with v1 unknown: one predictor evaluation at
 * v1* = vh + dt/2 a(x1, vh) gives a(x1, v1) to O(dt^2), keeping order 2. */
cdyn_status cdyn__step_velocity_verlet(cdyn_system *sys, double dt)
{
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    double *a = sys->ws.f, *vh = sys->ws.stage[0];
    double *xn = sys->x_new, *vn = sys->v_new;
    double h2 = 0.5 * dt, t1 = sys->time + dt;
    cdyn_status st = cdyn__dynamics_accel(sys, sys->time, sys->u, sys->ud, a);
    if (st)
        return st;
    for (size_t i = 0; i < n; i++) {
        vh[i] = sys->ud[i] + h2 * a[i];
        xn[i] = sys->u[i] + dt * vh[i];
    }
    if ((st = cdyn__dynamics_accel(sys, t1, xn, vh, a)))
        return st;
    if (cdyn__dynamics_velocity_dependent(sys)) {
        for (size_t i = 0; i < n; i++)
            vn[i] = vh[i] + h2 * a[i];
        if ((st = cdyn__dynamics_accel(sys, t1, xn, vn, a)))
            return st;
    }
    for (size_t i = 0; i < n; i++)
        vn[i] = vh[i] + h2 * a[i];
    return CDYN_OK;
}

/* *checked: the integrator found x_new, v_new finite (false: not checked,
 * or not finite). */
static cdyn_status dispatch(cdyn_system *sys, double dt, bool *checked)
{
    *checked = false;
    switch (sys->integrator) {
    case CDYN_INTEGRATOR_EXPLICIT_EULER:
        return explicit_euler(sys, dt, checked);
    case CDYN_INTEGRATOR_SYMPLECTIC_EULER:
        return symplectic_euler(sys, dt, checked);
    case CDYN_INTEGRATOR_VELOCITY_VERLET:
        return cdyn__step_velocity_verlet(sys, dt);
    case CDYN_INTEGRATOR_RK4:
        return cdyn__step_rk4(sys, dt);
    case CDYN_INTEGRATOR_RK45:
        return cdyn__step_rk45(sys, dt);
    case CDYN_INTEGRATOR_RATTLE:
        return cdyn__step_rattle(sys, dt, checked);
    case CDYN_INTEGRATOR_BACKWARD_EULER:
        return cdyn__step_backward_euler(sys, dt);
    }
    return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "step: unknown integrator");
}

/* One step of h from the committed state: integrate into x_new, v_new,
 * check, commit. On failure the committed state is untouched. */
static cdyn_status step_once(cdyn_system *sys, double h)
{
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    sys->step_dt = h;
    sys->in_step = true;
    bool checked;
    cdyn_status st = dispatch(sys, h, &checked);
    sys->in_step = false;
    if (st)
        return st;
    sys->in_step = true;
    st = cdyn__rigids_step(sys, h);
    sys->in_step = false;
    if (st)
        return st;
    /* Post-step projection of the other integrators (projection.h): fails
     * the step, state kept, when it does not converge. */
    sys->in_step = true;
    st = cdyn__projection_after_step(sys);
    sys->in_step = false;
    if (st)
        return st;
    /* Rigid bodies and projections may have moved the state since. */
    checked = checked && !sys->rigids && !cdyn__projection_runs_after_step(sys);
    if (!checked && (!cdyn__all_finite(sys->x_new, n) || !cdyn__all_finite(sys->v_new, n)))
        return cdyn__fail(sys, CDYN_ERR_DIVERGED,
                          "step: non-finite state at t = %g with dt = %g; state kept", sys->time, h);
    double *tmp;
    if (!sys->param_of) {
        /* The integrated state is the Cartesian one: swap it in. */
        tmp = sys->x;
        sys->x = sys->x_new, sys->x_new = tmp;
        tmp = sys->v;
        sys->v = sys->v_new, sys->v_new = tmp;
        sys->u = sys->x;
        sys->ud = sys->v;
    } else {
        tmp = sys->u;
        sys->u = sys->x_new, sys->x_new = tmp;
        tmp = sys->ud;
        sys->ud = sys->v_new, sys->v_new = tmp;
        if ((st = cdyn__params_commit(sys))) {
            tmp = sys->u;
            sys->u = sys->x_new, sys->x_new = tmp;
            tmp = sys->ud;
            sys->ud = sys->v_new, sys->v_new = tmp;
            return st;
        }
    }
    sys->time += h;
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
    const double t0 = sys->time;
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
        return st;
    }
    sys->time = t0 + dt;
    return CDYN_OK;
}

cdyn_status cdyn_system_step(cdyn_system *sys, double dt)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn_status st = cdyn__check_mutable(sys, "step");
    if (st)
        return st;
    if (!isfinite(dt) || !(dt > 0))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "step: dt %g must be finite and > 0", dt);
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    if (n == 0) {
        sys->time += dt;
        return CDYN_OK;
    }
    if ((st = cdyn__workspace_ensure(sys)) || (st = cdyn__constraints_prepare(sys)))
        return st;
    if (sys->param_of && sys->integrator != CDYN_INTEGRATOR_RK45 && cdyn__params_have_knots(sys))
        return step_on_knots(sys, dt);
    return step_once(sys, dt);
}
