/* The state of the adaptive Dormand-Prince integrator: its tolerances, the
 * step size its controller chose last and its counters. Internal. */
#ifndef CDYN__STEP_RUNGE_KUTTA_H
#define CDYN__STEP_RUNGE_KUTTA_H

#include <stdint.h>

typedef struct cdyn__rk45 {
    double abs_tol, rel_tol;
    double h; /* next internal step size; 0 = choose afresh */
    uint64_t accepted, rejected;
} cdyn__rk45;

void cdyn__rk45_init(void *state);
/* Selecting the integrator makes the controller choose its step afresh. */
void cdyn__rk45_select(void *state);

#endif /* CDYN__STEP_RUNGE_KUTTA_H */
