/* The table of integrators and the states they own. */
#include "step/integrator.h"

#include <stdalign.h>
#include <string.h>

#include "core/system.h"
#include "step/backward_euler/backward_euler.h"
#include "step/runge_kutta.h"

/* Indexed by cdyn_integrator value; row 0 is unused. Fixed-step integrators
 * take the whole step and are split at spline knots; only RK45 chooses its
 * own steps. Stage arrays: Verlet's half-step velocity; RK4's stage state;
 * RK45's 7 stage velocities and accelerations and its candidate state;
 * RATTLE's half-step velocity (velocity-dependent forces); backward Euler
 * keeps its own arrays. */
static const cdyn__integrator TABLE[CDYN__INTEGRATOR_SLOTS] = {
    [CDYN_INTEGRATOR_EXPLICIT_EULER] = {CDYN_INTEGRATOR_EXPLICIT_EULER, "explicit Euler", 0, false,
                                        false, cdyn__step_explicit_euler, 0, NULL, NULL, NULL},
    [CDYN_INTEGRATOR_SYMPLECTIC_EULER] = {CDYN_INTEGRATOR_SYMPLECTIC_EULER, "symplectic Euler", 0,
                                          false, false, cdyn__step_symplectic_euler, 0, NULL,
                                          NULL, NULL},
    [CDYN_INTEGRATOR_VELOCITY_VERLET] = {CDYN_INTEGRATOR_VELOCITY_VERLET, "velocity Verlet", 1,
                                         false, false, cdyn__step_velocity_verlet, 0, NULL, NULL,
                                         NULL},
    [CDYN_INTEGRATOR_RK4] = {CDYN_INTEGRATOR_RK4, "RK4", 2, false, false, cdyn__step_rk4, 0, NULL,
                             NULL, NULL},
    [CDYN_INTEGRATOR_RK45] = {CDYN_INTEGRATOR_RK45, "RK45", 16, false, true, cdyn__step_rk45,
                              sizeof(cdyn__rk45), cdyn__rk45_init, NULL, cdyn__rk45_select},
    [CDYN_INTEGRATOR_RATTLE] = {CDYN_INTEGRATOR_RATTLE, "RATTLE", 1, true, false,
                                cdyn__step_rattle, 0, NULL, NULL, NULL},
    [CDYN_INTEGRATOR_BACKWARD_EULER] = {CDYN_INTEGRATOR_BACKWARD_EULER, "backward Euler", 0,
                                        false, false, cdyn__step_backward_euler,
                                        sizeof(cdyn__be), cdyn__be_init, cdyn__be_free, NULL},
};

const cdyn__integrator *cdyn__integrator_of(cdyn_integrator id)
{
    if ((int)id <= 0 || (int)id >= CDYN__INTEGRATOR_SLOTS || !TABLE[id].step)
        return NULL;
    return &TABLE[id];
}

static size_t aligned(size_t n)
{
    const size_t a = alignof(max_align_t);
    return (n + a - 1) / a * a;
}

size_t cdyn__integrator_states_size(void)
{
    size_t n = 0;
    for (int i = 1; i < CDYN__INTEGRATOR_SLOTS; i++)
        n += aligned(TABLE[i].state_size);
    return n;
}

void cdyn__integrator_states_init(cdyn_system *sys, void *block)
{
    char *p = block;
    for (int i = 1; i < CDYN__INTEGRATOR_SLOTS; i++) {
        if (!TABLE[i].state_size)
            continue;
        sys->integrator_state[i] = p;
        if (TABLE[i].state_init)
            TABLE[i].state_init(p);
        p += aligned(TABLE[i].state_size);
    }
}

void cdyn__integrator_states_free(cdyn_system *sys)
{
    for (int i = 1; i < CDYN__INTEGRATOR_SLOTS; i++)
        if (sys->integrator_state[i] && TABLE[i].state_free)
            TABLE[i].state_free(sys, sys->integrator_state[i]);
}

void *cdyn__integrator_state(const cdyn_system *sys, cdyn_integrator id)
{
    return sys->integrator_state[id];
}
