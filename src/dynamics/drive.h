/* Drive work: the work the prescribed motions do on the system, so that
 * energy bookkeeping closes (kinetic + potential - drive work is constant
 * up to what dampers and friction dissipate). Internal; the public side is
 * cdyn_system_get_drive_work (include/cdyn/diagnostics.h), the equations
 * are in docs/driven.md.
 *
 * At each evaluation the power of the drivers is
 *
 *   P = sum over kinematic particles of (m a - F) . v        (their motions)
 *     - sum over rows of lambda (dg/dt + G_kin v_kin)         (constraint forces
 *                                                              on them and on
 *                                                              moving geometry)
 *     + sum over particles on moving shapes of N . w          (the shapes)
 *     + sum over ground contacts of F . w                     (the grounds)
 *
 * with F the applied forces, N a shape's force on its particle, w the
 * velocity of the moving material where the force acts. Each integrator
 * sums P over its evaluations with its own quadrature weights
 * (cdyn__drive_accumulate); the step adds the sum to the total when it
 * commits. */
#ifndef CDYN__DYNAMICS_DRIVE_H
#define CDYN__DYNAMICS_DRIVE_H

#include <stdbool.h>

#include "core/system.h"

/* true when the system has something that drives it: kinematic particles,
 * time-dependent constraints, moving shapes, moving or conveying grounds,
 * callback grounds (which may move). Call after the constraints' prepare. */
bool cdyn__drives_present(const cdyn_system *sys);

/* The power of the drivers at the end of an evaluation at time t with the
 * Cartesian state (x, v) and accelerations a (Cartesian for kinematic
 * particles), and the grounds' share @p ground_power, into
 * sys->drive_power. The constraint share is left out when the evaluation
 * skipped the multiplier solve (RATTLE adds its own:
 * cdyn__constraints_drive_power). */
cdyn_status cdyn__drive_power(cdyn_system *sys, double t, const double *x, const double *v,
                              const double *a, double ground_power);

/* Adds @p weight (s) times the power of the last evaluation to the work of
 * the step in progress. */
static inline void cdyn__drive_accumulate(cdyn_system *sys, double weight)
{
    if (sys->drives)
        sys->drive_step_work += weight * sys->drive_power;
}

/* Adds @p work (J) to the work of the step in progress. */
static inline void cdyn__drive_add(cdyn_system *sys, double work)
{
    if (sys->drives)
        sys->drive_step_work += work;
}

#endif /* CDYN__DYNAMICS_DRIVE_H */
