/* cdyn: the Langevin thermostat.
 *
 * With the thermostat on, velocity Verlet and RATTLE steps integrate
 * Langevin dynamics,
 *
 *     dx = v dt,   m dv = F(x) dt - gamma m v dt + sqrt(2 gamma m kT) dW,
 *
 * which samples the canonical distribution at temperature T (kT = k_B T)
 * for every friction gamma > 0. A step of h is split as
 *
 *     B: v += h/2 a(x)          A: x += h/2 v
 *     O: v = c v + sqrt((1 - c^2) kT / m) R,  c = exp(-gamma h)
 *     A: x += h/2 v             B: v += h/2 a(x)
 *
 * (the BAOAB splitting of Leimkuhler and Matthews, 2013), R a vector of
 * independent standard normal numbers: the O part is the exact solution of
 * the friction and noise over h, and configurational averages come out with
 * small errors of order h^2. With constraints (RATTLE) the dynamics stays on
 * the constraint manifold: each A ends with a SHAKE projection of the
 * positions, the O part's velocities are projected onto the manifold's
 * tangent space (the noise then acts on the unconstrained degrees of freedom
 * only) and so are the final velocities. One force evaluation per step, as
 * for velocity Verlet (docs/pairs.md).
 *
 * The noise is a function of the seed, the thermostat's step count and the
 * particle's index alone (a counter-based generator): runs are reproducible
 * bit for bit and do not depend on the order in which particles are
 * visited. A step that fails uses the same numbers when it is taken again.
 * Fixed particles get no friction or noise. Particles on curves or
 * surfaces, rigid bodies and driven systems (kinematic particles, moving
 * constraints and grounds: motion.h) are not supported with the thermostat
 * (CDYN_ERR_UNSUPPORTED from the step), nor are constraints with velocity
 * Verlet (use RATTLE).
 */
#ifndef CDYN_THERMOSTAT_H
#define CDYN_THERMOSTAT_H

#include <stdbool.h>
#include <stdint.h>

#include "export.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Turns the Langevin thermostat on (or changes it) with thermal energy
 *  @p kT = k_B T (J, finite, >= 0), friction @p gamma (1/s, finite, >= 0)
 *  and the noise's @p seed; the step count of the noise restarts at 0.
 *  @p gamma = 0 turns the thermostat off. It acts on the steps of
 *  CDYN_INTEGRATOR_VELOCITY_VERLET and CDYN_INTEGRATOR_RATTLE; with another
 *  integrator selected a step returns CDYN_ERR_UNSUPPORTED.
 *  CDYN_ERR_INVALID_ARGUMENT for invalid values (nothing changed),
 *  CDYN_ERR_NO_MEMORY, CDYN_ERR_BUSY from inside a step. @since 0.1 */
CDYN_API cdyn_status cdyn_system_set_langevin(cdyn_system *sys, double kT, double gamma,
                                              uint64_t seed);

/** The thermostat's settings: *@p on (not NULL) whether it is on, and when
 *  it is, its kT (J) and gamma (1/s) into the pointers not NULL.
 *  CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or @p on. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_langevin(const cdyn_system *sys, double *kT, double *gamma,
                                              bool *on);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_THERMOSTAT_H */
