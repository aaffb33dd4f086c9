/* The Langevin thermostat's settings and whether it is on: read by the
 * step's scheme (step/langevin.c) and by the forces kept for the next step
 * (step/reuse.c), which must know when the dynamics changes. Internal. */
#ifndef CDYN__STEP_LANGEVIN_STATE_H
#define CDYN__STEP_LANGEVIN_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "cdyn/thermostat.h"
#include "core/system.h"

typedef struct cdyn__langevin {
    cdyn_langevin_options opt; /* as last set; on when opt.gamma > 0 */
    uint64_t count;            /* steps taken: the noise's counter */
} cdyn__langevin;

/* Whether the steps of @p sys follow Langevin dynamics. */
static inline bool cdyn__langevin_on(const cdyn_system *sys)
{
    return sys->langevin && sys->langevin->opt.gamma > 0;
}

#endif /* CDYN__STEP_LANGEVIN_STATE_H */
