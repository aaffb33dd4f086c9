/* The Langevin thermostat's state and its step (include/cdyn/thermostat.h).
 * Internal. */
#ifndef CDYN__STEP_LANGEVIN_H
#define CDYN__STEP_LANGEVIN_H

#include <stdbool.h>
#include <stdint.h>

#include "cdyn/thermostat.h"
#include "step/langevin_state.h"

/* One BAOAB step of @p dt from the committed state into x_new, v_new
 * (velocity Verlet or, with constraints, RATTLE's projections). */
cdyn_status cdyn__step_langevin(cdyn_system *sys, double dt, bool *finite);

/* Standard normal number @p j (particle slot times dim plus component) at
 * step @p count of @p seed: a function of those three alone. */
double cdyn__langevin_normal(uint64_t seed, uint64_t count, uint64_t j);

/* A step was committed: the noise moves on to the next numbers (a failed
 * step is taken again with the same ones). */
void cdyn__langevin_after_step(cdyn_system *sys);

void cdyn__langevin_destroy(cdyn_system *sys);

#endif /* CDYN__STEP_LANGEVIN_H */
