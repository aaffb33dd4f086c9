/* Velocity Verlet: kick, drift, kick. */
#include "core/finite.h"
#include "core/system.h"
#include "dynamics/drive.h"
#include "dynamics/dynamics.h"
#include "step/integrator.h"
#include "step/reuse.h"

/* With velocity-dependent forces the closing kick would need a(x1, v1)
 * with v1 unknown: one predictor evaluation at v1* = vh + dt/2 a(x1, vh)
 * gives a(x1, v1) to O(dt^2), keeping order 2. Otherwise the closing
 * kick's accelerations are the next step's opening ones (step/reuse.h). */
cdyn_status cdyn__step_velocity_verlet(cdyn_system *sys, double dt, bool *finite)
{
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    double *a = sys->ws.f;
    double *xn = sys->x_new, *vn = sys->v_new;
    double h2 = 0.5 * dt, t1 = sys->time + dt;
    cdyn_status st;
    const double *a0 = cdyn__reuse_start(sys);
    if (!a0) {
        if ((st = cdyn__dynamics_accel(sys, sys->time, sys->u, sys->ud, a)))
            return st;
        cdyn__drive_accumulate(sys, h2);
        a0 = a;
    }
    /* The half-step velocity lives in vn (one array less to stream); the
     * predictor of velocity-dependent forces keeps a copy. */
    uint64_t bad = 0; /* the finiteness check made on the way (core/finite.h) */
    for (size_t i = 0; i < n; i++) {
        vn[i] = sys->ud[i] + h2 * a0[i];
        xn[i] = sys->u[i] + dt * vn[i];
        bad |= cdyn__nonfinite_bit(xn[i]);
    }
    double *a1 = cdyn__reuse_target(sys);
    if (!a1)
        a1 = a;
    if ((st = cdyn__dynamics_accel(sys, t1, xn, vn, a1)))
        return st;
    if (cdyn__dynamics_velocity_dependent(sys)) {
        double *vh = sys->ws.stage[0];
        for (size_t i = 0; i < n; i++) {
            vh[i] = vn[i];
            vn[i] = vh[i] + h2 * a1[i];
        }
        if ((st = cdyn__dynamics_accel(sys, t1, xn, vn, a1)))
            return st;
        for (size_t i = 0; i < n; i++)
            vn[i] = vh[i];
    }
    cdyn__drive_accumulate(sys, h2); /* the closing kick's evaluation */
    for (size_t i = 0; i < n; i++) {
        vn[i] += h2 * a1[i];
        bad |= cdyn__nonfinite_bit(vn[i]);
    }
    *finite = bad == 0;
    return CDYN_OK;
}
