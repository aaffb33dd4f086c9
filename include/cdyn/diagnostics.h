/* cdyn: whole-system diagnostics. Fixed particles (infinite inertia) are
 * excluded from mass-weighted sums: kinetic energy, momentum, angular
 * momentum, centre of mass; particles of rigid bodies and kinematic
 * particles (which move, with their masses) are included. Values are at
 * the committed state. */
#ifndef CDYN_DIAGNOSTICS_H
#define CDYN_DIAGNOSTICS_H

#include "export.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Kinetic energy sum m |v|^2 / 2 (J). @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_kinetic_energy(const cdyn_system *sys, double *out);

/** Potential energy of all conservative force generators (J). @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_potential_energy(const cdyn_system *sys, double *out);

/** Total momentum sum m v (kg m/s): dim values written. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_momentum(const cdyn_system *sys, double *out);

/** Angular momentum about the origin, sum m x cross v: 3 values written
 *  (in 2-D: 0, 0 and the z part). @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_angular_momentum(const cdyn_system *sys, double out[3]);

/** The work (J) the prescribed motions have done on the system since it
 *  was created: kinematic particles (particle.h), time-dependent
 *  constraints (constraint.h: moving anchors, pins, planes, curves and
 *  surfaces, scheduled lengths, time-dependent callbacks), moving grounds
 *  and conveyor surfaces (ground.h). Energy bookkeeping then closes:
 *  kinetic + potential energy - drive work stays constant up to what
 *  dampers, drag and friction dissipate, and up to the integrator's error,
 *  for the work is the power of the drivers summed with the integrator's
 *  own quadrature weights over its evaluations (docs/driven.md). Callback
 *  grounds count with the velocity their function gives. Only successful
 *  steps count.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL arguments.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_drive_work(const cdyn_system *sys, double *out);

/** Centre of mass (dim values) and, if @p total_mass is not NULL, the total
 *  mass. With no movable particle the centre is the origin and the mass 0.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_center_of_mass(const cdyn_system *sys, double *out,
                                                    double *total_mass);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_DIAGNOSTICS_H */
