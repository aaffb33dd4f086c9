/* The right-hand side of the equations of motion. Internal. */
#ifndef CDYN__DYNAMICS_H
#define CDYN__DYNAMICS_H

#include <stdbool.h>

#include "cdyn/types.h"

/* Generalized accelerations u'' at the generalized state (u, u') for every
 * particle index: M^-1 (F + constraint forces) for free particles (zero for
 * fixed and removed ones), q'' for particles on shapes. Uses the workspace
 * force accumulator (a may be that very array). Returns the status of a
 * failing callback or solver. */
cdyn_status cdyn__dynamics_accel(cdyn_system *sys, double t, const double *u, const double *ud,
                                 double *a);

/* true when some force depends on velocity (dashpots, drag, callbacks that
 * say so, constraints): velocity Verlet then needs its corrector. */
int cdyn__dynamics_velocity_dependent(const cdyn_system *sys);

/* true when an evaluation hands velocities to code that may read them
 * though no force depends on them: user callbacks and grounds. */
bool cdyn__dynamics_shows_velocity(const cdyn_system *sys);

/* The accelerations at a step's end (t1, u1, ud1) into @p a1, given the
 * step's opening ones @p a0 (taken at its start with nothing changed
 * since): copied when they depend on neither time nor state, bit for bit
 * what an evaluation gives (gravity alone, no constraint forces asked for,
 * no drive work to sum), else cdyn__dynamics_accel. @p a1 may be @p a0. */
cdyn_status cdyn__dynamics_accel_closing(cdyn_system *sys, double t1, const double *u1,
                                         const double *ud1, const double *a0, double *a1);

#endif /* CDYN__DYNAMICS_H */
