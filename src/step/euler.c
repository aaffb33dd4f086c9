/* The Euler family: explicit (forward) Euler and symplectic Euler, one
 * evaluation each. Each checks the new state as it writes it (*finite),
 * which spares the step driver a pass over it. */
#include "core/finite.h"
#include "core/system.h"
#include "dynamics/drive.h"
#include "dynamics/dynamics.h"
#include "step/integrator.h"

/* x1 = x0 + h v0, v1 = v0 + h a(x0, v0). */
cdyn_status cdyn__step_explicit_euler(cdyn_system *sys, double dt, bool *finite)
{
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    double *a = sys->ws.f, *xn = sys->x_new, *vn = sys->v_new;
    cdyn_status st = cdyn__dynamics_accel(sys, sys->time, sys->u, sys->ud, a);
    if (st)
        return st;
    cdyn__drive_accumulate(sys, dt);
    const double *u = sys->u, *ud = sys->ud;
    uint64_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        xn[i] = u[i] + dt * ud[i];
        vn[i] = ud[i] + dt * a[i];
        bad |= cdyn__nonfinite_bit(xn[i]) | cdyn__nonfinite_bit(vn[i]);
    }
    *finite = bad == 0;
    return CDYN_OK;
}

/* Velocity first, then position with the new velocity:
 * v1 = v0 + h a(x0, v0), x1 = x0 + h v1. */
cdyn_status cdyn__step_symplectic_euler(cdyn_system *sys, double dt, bool *finite)
{
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    double *a = sys->ws.f, *xn = sys->x_new, *vn = sys->v_new;
    cdyn_status st = cdyn__dynamics_accel(sys, sys->time, sys->u, sys->ud, a);
    if (st)
        return st;
    cdyn__drive_accumulate(sys, dt);
    const double *u = sys->u, *ud = sys->ud;
    uint64_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        double vi = ud[i] + dt * a[i];
        double xi = u[i] + dt * vi;
        vn[i] = vi;
        xn[i] = xi;
        bad |= cdyn__nonfinite_bit(xi) | cdyn__nonfinite_bit(vi);
    }
    *finite = bad == 0;
    return CDYN_OK;
}
