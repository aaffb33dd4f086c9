/* Applied forces (include/cdyn/force.h): two accumulators per particle
 * slot, held until cleared and for the next step, added to every force
 * evaluation by cdyn__forces_apply. Internal. */
#ifndef CDYN__FORCE_APPLIED_H
#define CDYN__FORCE_APPLIED_H

#include <stdbool.h>
#include <stdint.h>

#include "cdyn/force.h"
#include "core/system.h"

/* true when some accumulator may hold a nonzero force: evaluations then
 * add them (and take no shortcut that would skip them). */
static inline bool cdyn__applied_active(const cdyn_system *sys)
{
    return sys->applied_on || sys->applied_next_on;
}

/* Adds the applied forces of every slot into f (dim doubles per slot).
 * Nothing is added when none is active, so that evaluations without
 * applied forces keep their arithmetic bit for bit. */
void cdyn__applied_add(const cdyn_system *sys, double *f);

/* A step succeeded: the next-step accumulator is cleared. */
void cdyn__applied_step_done(cdyn_system *sys);

/* Particle slot @p slot is being removed: its applied force goes. */
void cdyn__applied_forget(cdyn_system *sys, uint32_t slot);

/* Frees the accumulators (system destruction, before the particle pool). */
void cdyn__applied_free(cdyn_system *sys);

#endif /* CDYN__FORCE_APPLIED_H */
