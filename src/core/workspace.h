/* The scratch arrays of evaluations and steps (cdyn__workspace in
 * core/system.h). Internal. */
#ifndef CDYN__CORE_WORKSPACE_H
#define CDYN__CORE_WORKSPACE_H

#include <stddef.h>

#include "cdyn/system.h"

/* Sizes the workspace for the current particle capacity with @p stages
 * integrator arrays besides the force accumulator (and the arrays of
 * particles on shapes when there are any); keeps what a previous caller
 * needed. CDYN_ERR_NO_MEMORY (message set) with the old workspace kept. */
cdyn_status cdyn__workspace_ensure(cdyn_system *sys, size_t stages);
void cdyn__workspace_free(cdyn_system *sys);

#endif /* CDYN__CORE_WORKSPACE_H */
