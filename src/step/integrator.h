/* Integrators as a table of descriptors: what the step driver needs to know
 * of each, and the state (options, counters) each one owns. Adding an
 * integrator is one file with its step function, one row in
 * integrators.c and one value in cdyn_integrator. Internal. */
#ifndef CDYN__STEP_INTEGRATOR_H
#define CDYN__STEP_INTEGRATOR_H

#include <stdbool.h>
#include <stddef.h>

#include "cdyn/system.h"

typedef struct cdyn__integrator {
    cdyn_integrator id;
    const char *name; /* for messages: "step (RK4)" */
    /* Workspace arrays of the particles' length it needs besides the force
     * accumulator, x_new and v_new. */
    size_t stages;
    /* It projects onto the constraints itself (RATTLE): the post-step
     * projection of the others is not run after it. */
    bool projects;
    /* It chooses its own internal steps (RK45): a fixed step is not split
     * at spline knots for it. */
    bool adaptive;
    /* Builds the state after dt from the committed one into x_new, v_new
     * (generalized coordinates). *finite: it found that state finite on
     * its way (false: not checked, the driver checks). The committed state
     * is never touched. */
    cdyn_status (*step)(cdyn_system *sys, double dt, bool *finite);
    /* Its state: size in bytes (0: none), set up when the system is created
     * (cannot fail), freed with the system, told when the integrator is
     * selected. Any may be NULL. */
    size_t state_size;
    void (*state_init)(void *state);
    void (*state_free)(cdyn_system *sys, void *state);
    void (*on_select)(void *state);
} cdyn__integrator;

/* The descriptor of @p id, or NULL for a value outside cdyn_integrator. */
const cdyn__integrator *cdyn__integrator_of(cdyn_integrator id);

/* Bytes of all integrator states, each aligned for any scalar. */
size_t cdyn__integrator_states_size(void);

/* Points sys->integrator_state into @p block (cdyn__integrator_states_size
 * bytes, zeroed) and initialises each state. */
void cdyn__integrator_states_init(cdyn_system *sys, void *block);

/* Frees what the states own (not the block). */
void cdyn__integrator_states_free(cdyn_system *sys);

/* The state of integrator @p id (never NULL for an integrator with one). */
void *cdyn__integrator_state(const cdyn_system *sys, cdyn_integrator id);

/* The step functions, one file each. */
cdyn_status cdyn__step_explicit_euler(cdyn_system *sys, double dt, bool *finite);
cdyn_status cdyn__step_symplectic_euler(cdyn_system *sys, double dt, bool *finite);
cdyn_status cdyn__step_velocity_verlet(cdyn_system *sys, double dt, bool *finite);
cdyn_status cdyn__step_rk4(cdyn_system *sys, double dt, bool *finite);
cdyn_status cdyn__step_rk45(cdyn_system *sys, double dt, bool *finite);
cdyn_status cdyn__step_rattle(cdyn_system *sys, double dt, bool *finite);
cdyn_status cdyn__step_backward_euler(cdyn_system *sys, double dt, bool *finite);

#endif /* CDYN__STEP_INTEGRATOR_H */
