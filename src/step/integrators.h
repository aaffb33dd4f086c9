/* The integrators. Each reads the committed state (sys->x, sys->v, time)
 * and writes the state after dt into the workspace (ws.x_new, ws.v_new);
 * cdyn_system_step commits it only if everything succeeded. Internal. */
#ifndef CDYN__INTEGRATE_H
#define CDYN__INTEGRATE_H

#include "cdyn/system.h"

/* Workspace arrays an integrator needs besides f, x_new and v_new. */
size_t cdyn__integrator_stage_count(cdyn_integrator integrator);

cdyn_status cdyn__step_explicit_euler(cdyn_system *sys, double dt);
cdyn_status cdyn__step_symplectic_euler(cdyn_system *sys, double dt);
cdyn_status cdyn__step_velocity_verlet(cdyn_system *sys, double dt);
cdyn_status cdyn__step_rk4(cdyn_system *sys, double dt);
cdyn_status cdyn__step_rk45(cdyn_system *sys, double dt);
/* *checked: the step found x_new, v_new finite on its way (the rod-chain
 * kernel's residual tests), which spares the caller a pass over them. */
cdyn_status cdyn__step_rattle(cdyn_system *sys, double dt, bool *checked);

#endif /* CDYN__INTEGRATE_H */
