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

/* true when cdyn__dynamics_accel gives the same accelerations, bit for
 * bit, at any time and state of the system as it stands: gravity alone
 * (no constraint forces asked for, no drive work to sum). */
bool cdyn__dynamics_constant(const cdyn_system *sys);

#endif /* CDYN__DYNAMICS_H */
