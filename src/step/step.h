/* The step driver's workspace, shared with the evaluations outside a step
 * (cdyn_system_evaluate). Internal. */
#ifndef CDYN__STEP_STEP_H
#define CDYN__STEP_STEP_H

#include "cdyn/system.h"

/* Sizes the workspace for the current capacity and integrator. */
cdyn_status cdyn__workspace_ensure(cdyn_system *sys);
void cdyn__workspace_free(cdyn_system *sys);

#endif /* CDYN__STEP_STEP_H */
