/* RATTLE (Andersen 1983): velocity Verlet on the constraint manifold
 * (docs/rattle.md). With F the applied forces only (no multiplier solve):
 *
 *   v_h = v0 + h/2 W F(x0) + W G(x0)^T mu / h
 *   x1  = x0 + h v_h,                      mu such that g(x1, t1) = 0   (SHAKE)
 *   v1  = v_h + h/2 W F(x1) + W G(x1)^T nu, nu such that
 *                                           G(x1) v1 + dg/dt = 0      (RATTLE)
 *
 * mu = h^2/2 lambda and nu = h/2 lambda' are the impulses of the constraint
 * forces G^T lambda over the two half steps. Kinematic particles are put
 * where their motions are at t1 before each projection. The state is built
 * in x_new, v_new; cdyn_system_step commits it only on success. */
#include <string.h>

#include "constraint/constraint.h"
#include "core/system.h"
#include "dynamics/drive.h"
#include "dynamics/dynamics.h"
#include "kinematic/kinematic.h"
#include "projection/projection.h"
#include "step/integrator.h"
#include "step/reuse.h"

/* Kinematic particles to their motions' state at @p t in (x, v). */
static cdyn_status place_kinematic(cdyn_system *sys, double t, double *x, double *v)
{
    return sys->kin ? cdyn__kinematics_place(sys, t, x, v, NULL) : CDYN_OK;
}

static cdyn_status rattle(cdyn_system *sys, double dt, bool *checked)
{
    const size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    const double *x = sys->x, *v = sys->v;
    double *a = sys->ws.f, *xn = sys->x_new, *vn = sys->v_new;
    const double h2 = 0.5 * dt, t0 = sys->time, t1 = t0 + dt;
    const bool constrained = sys->cons && sys->cons->n_rows > 0;
    cdyn_status st;

    /* The opening accelerations are the last step's closing ones when
     * nothing changed since (step/reuse.h). */
    const double *a0 = cdyn__reuse_start(sys);
    if (!a0) {
        if ((st = cdyn__dynamics_accel(sys, t0, x, v, a)))
            return st;
        cdyn__drive_accumulate(sys, h2);
        a0 = a;
    }
    const bool velocity_dependent = cdyn__dynamics_velocity_dependent(sys);
    double *a1 = velocity_dependent ? NULL : cdyn__reuse_target(sys);
    if (!a1)
        a1 = a;
    bool chain = false;
    if (constrained && !velocity_dependent && (st = cdyn__projection_chain_usable(sys, &chain)))
        return st;
    if (chain) {
        /* Rod chains: the kernel of projection_chain.c, which also makes
         * the predictor and the closing kick (no drivers: the kernel takes
         * static rods without kinematic particles only). */
        if ((st = cdyn__projection_chain_positions(sys, x, v, a0, xn, vn, dt)))
            return st;
        if (cdyn__dynamics_shows_velocity(sys))
            cdyn__projection_chain_store_vh(sys, vn);
        if ((st = cdyn__dynamics_accel_closing(sys, t1, xn, vn, a0, a1)))
            return st;
        cdyn__drive_accumulate(sys, h2);
        return cdyn__projection_chain_velocities(sys, xn, vn, a1, dt, checked);
    }
    for (size_t i = 0; i < n; i++) {
        vn[i] = v[i] + h2 * a0[i];
        xn[i] = x[i] + dt * vn[i];
    }
    if ((st = place_kinematic(sys, t1, xn, vn)))
        return st;
    /* The constraint forces' share of the drive work: the trapezoid of
     * the two half steps' multipliers, 2 mu / h^2 at the start with G(x0)
     * and the closing kick's at the end. Each is O(h) from lambda there;
     * their errors cancel in the sum as in the step's impulses. */
    const bool work = sys->drives && constrained;
    sys->proj->track_mu = work;
    if (constrained && (st = cdyn__projection_positions(sys, t0, x, t1, xn, vn, 1.0 / dt)))
        return st;
    double pc0 = 0;
    if (work) {
        double *lp = sys->proj->mu;
        for (uint32_t r = 0; r < sys->cons->n_rows; r++)
            lp[r] *= 2.0 / (dt * dt);
        if ((st = cdyn__constraints_drive_power(sys, t0, x, v, lp, &pc0)))
            return st;
    }
    if ((st = cdyn__dynamics_accel_closing(sys, t1, xn, vn, a0, a1)))
        return st;
    if (!velocity_dependent) {
        cdyn__drive_accumulate(sys, h2);
        for (size_t i = 0; i < n; i++)
            vn[i] += h2 * a1[i];
        if ((st = place_kinematic(sys, t1, xn, vn)) ||
            (constrained && (st = cdyn__projection_velocities(sys, t1, xn, vn, false, 2.0 / dt))))
            return st;
    } else {
        /* Forces depend on velocity: the closing kick needs F(x1, v1). A
         * predicted v1, projected so that it differs from v1 by O(h^2),
         * gives it to O(h^2), which keeps order 2 (as velocity Verlet's
         * corrector). */
        double *vh = sys->ws.stage[0];
        memcpy(vh, vn, n * sizeof *vh);
        for (size_t i = 0; i < n; i++)
            vn[i] += h2 * a[i];
        if ((st = place_kinematic(sys, t1, xn, vn)) ||
            (constrained && (st = cdyn__projection_velocities(sys, t1, xn, vn, false, 0.0))))
            return st;
        if ((st = cdyn__dynamics_accel(sys, t1, xn, vn, a)))
            return st;
        cdyn__drive_accumulate(sys, h2);
        for (size_t i = 0; i < n; i++)
            vn[i] = vh[i] + h2 * a[i];
        if ((st = place_kinematic(sys, t1, xn, vn)) ||
            (constrained && (st = cdyn__projection_velocities(sys, t1, xn, vn, true, 2.0 / dt))))
            return st;
    }
    if (work) {
        double pc1;
        if ((st = cdyn__constraints_drive_power(sys, t1, xn, vn, sys->cons->lambda, &pc1)))
            return st;
        cdyn__drive_add(sys, h2 * (pc0 + pc1));
    }
    return CDYN_OK;
}

cdyn_status cdyn__step_rattle(cdyn_system *sys, double dt, bool *checked)
{
    cdyn_status st = cdyn__projection_begin(sys, "step (RATTLE)");
    if (st)
        return st;
    /* The constraint forces come from the projections: evaluations give
     * the applied forces only. */
    sys->skip_constraint_solve = true;
    st = rattle(sys, dt, checked);
    sys->skip_constraint_solve = false;
    return st;
}
