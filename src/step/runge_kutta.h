/* The state of the adaptive Dormand-Prince integrator: its options, the
 * step size its controller chose last and its report. Internal. */
#ifndef CDYN__STEP_RUNGE_KUTTA_H
#define CDYN__STEP_RUNGE_KUTTA_H

#include "cdyn/system.h"

typedef struct cdyn__rk45 {
    cdyn_rk45_options opt;
    double h; /* next internal step size; 0 = choose afresh */
    cdyn_rk45_stats stats;
} cdyn__rk45;

void cdyn__rk45_init(void *state);
/* Selecting the integrator makes the controller choose its step afresh. */
void cdyn__rk45_select(void *state);

#endif /* CDYN__STEP_RUNGE_KUTTA_H */
