/* The right-hand side of the equations of motion. Internal. */
#ifndef CDYN__DYNAMICS_H
#define CDYN__DYNAMICS_H

#include "cdyn/types.h"

/* Accelerations a = M^-1 (F(x, v, t) + constraint forces) at the state
 * (x, v) for every particle index (zero for fixed and removed ones).
 * Uses the workspace force accumulator. Returns the status of a failing
 * callback or solver. */
cdyn_status cdyn__dynamics_accel(cdyn_system *sys, double t, const double *x, const double *v,
                                 double *a);

/* true when some force depends on velocity (dashpots, drag, callbacks that
 * say so, constraints): velocity Verlet then needs its corrector. */
int cdyn__dynamics_velocity_dependent(const cdyn_system *sys);

#endif /* CDYN__DYNAMICS_H */
