/** @file
 * @brief The Langevin thermostat: velocity Verlet and RATTLE steps that
 * sample the canonical distribution.
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

#include <stddef.h>
#include <stdint.h>

#include "export.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Options of the Langevin thermostat.
 *
 *  Fill with cdyn_langevin_options_init(), change what you need, then pass
 *  to cdyn_system_set_langevin_options(). The size field lets the struct
 *  grow.
 */
typedef struct cdyn_langevin_options {
    size_t size; /**< sizeof(cdyn_langevin_options), set by the init function. */
    /** Thermal energy kT = k_B T (J), finite, >= 0; default 0. */
    double kT;
    /** Friction gamma (1/s), finite, >= 0; 0 (the default) turns the
     *  thermostat off. */
    double gamma;
    /** Seed of the noise, any value; default 0. The same seed gives the
     *  same noise. */
    uint64_t seed;
} cdyn_langevin_options;

/** Fills the thermostat's options with the defaults.
 *
 *  The defaults: size = sizeof(cdyn_langevin_options), kT = 0, gamma = 0 (off),
 *  seed = 0.
 *
 *  @param[out] options  The struct to fill; NULL is a no-op.
 *  @since 0.1
 */
CDYN_API void cdyn_langevin_options_init(cdyn_langevin_options *options);

/** Sets the options of the Langevin thermostat, turning it on or off.
 *
 *  gamma > 0 turns the thermostat on (or changes it), gamma = 0 turns it off.
 *  The noise's step count restarts at 0. The thermostat acts on the steps of
 *  CDYN_INTEGRATOR_VELOCITY_VERLET and CDYN_INTEGRATOR_RATTLE; with another
 *  integrator selected, a step returns CDYN_ERR_UNSUPPORTED.
 *
 *  @param[in,out] sys      The system.
 *  @param[in]     options  The options, filled by cdyn_langevin_options_init()
 *                          and then changed; copied, the pointer is not kept.
 *  @retval CDYN_OK                    the options were set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  nothing changed (the message names the
 *                                     field): @p sys or @p options is NULL, its
 *                                     size is not
 *                                     sizeof(cdyn_langevin_options), or kT or
 *                                     gamma is not finite and >= 0.
 *  @retval CDYN_ERR_NO_MEMORY         the thermostat's state (allocated by the
 *                                     first options other than the defaults)
 *                                     could not be allocated; nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_set_langevin_options(cdyn_system *sys,
                                                      const cdyn_langevin_options *options);

/** Reads the options of the Langevin thermostat.
 *
 *  Before any cdyn_system_set_langevin_options() they are the defaults of
 *  cdyn_langevin_options_init(); the thermostat is on when gamma > 0.
 *
 *  @param[in]     sys  The system.
 *  @param[in,out] out  The caller's struct: its @c size field, set by the
 *                      caller to at least sizeof(size_t), says how many bytes
 *                      may be written; it is left as it is.
 *  @retval CDYN_OK                    the options were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or out->size is
 *                                     below sizeof(size_t); nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_langevin_options(const cdyn_system *sys,
                                                      cdyn_langevin_options *out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_THERMOSTAT_H */
