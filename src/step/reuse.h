/* One force evaluation per step: velocity Verlet, RATTLE and the Langevin
 * scheme end a step with the accelerations at its final positions, which
 * are the accelerations the next step starts from as long as nothing
 * changed in between and no force depends on velocity (a force applied for
 * one step only is gone from the next). They are kept here
 * and handed to the next step instead of evaluating again: the same
 * numbers, so the results are the same bit for bit. Internal.
 *
 * The cache is valid only for the system's revision (every call that
 * changes the system bumps it: particles, forces, constraints, grounds,
 * parameters, time, state set from outside), the box's epoch (positions
 * moved by box lengths), the clock and the integrator of the step that
 * filled it. */
#ifndef CDYN__STEP_REUSE_H
#define CDYN__STEP_REUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cdyn/system.h"

typedef struct cdyn__reuse {
    double *acc;         /* cap doubles: the accelerations at the end of the last step */
    size_t cap;
    bool filled;         /* the step in progress wrote acc */
    bool valid;
    uint64_t revision, epoch;
    double time;
    cdyn_integrator integrator;
    bool langevin;
    uint64_t reused;     /* start-of-step evaluations saved (tests, benchmarks) */
} cdyn__reuse;

/* Before a step (may allocate): room for the accelerations when the
 * integrator can reuse them. CDYN_ERR_NO_MEMORY (message set) with nothing
 * changed. */
cdyn_status cdyn__reuse_prepare(cdyn_system *sys);

/* The accelerations at the committed state when the last step left them
 * and they still hold, else NULL. */
const double *cdyn__reuse_start(cdyn_system *sys);

/* The array the step's final force evaluation should write its
 * accelerations into (kept for the next step), or NULL when they cannot be
 * reused (the step then uses its scratch). */
double *cdyn__reuse_target(cdyn_system *sys);

/* After a step: @p committed tells whether it succeeded and was committed
 * (the clock advanced); the cache holds only then. */
void cdyn__reuse_after_step(cdyn_system *sys, bool committed);

/* Whether forces at a state depend on the state alone (positions and
 * time) for the selected integrator: no velocity-dependent force, ground
 * or constraint solve, no particle on a shape, no rigid body, no post-step
 * projection. */
bool cdyn__reuse_applies(const cdyn_system *sys);

void cdyn__reuse_destroy(cdyn_system *sys);

#endif /* CDYN__STEP_REUSE_H */
