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

/** The degrees of freedom N_f of the committed configuration: dim per
 *  particle that moves (not fixed, in no rigid body), 1 or 2 per particle
 *  on a curve or surface, 3 (2-D) or 6 (3-D) per rigid body, less one per
 *  row of every enabled implicit constraint (a rod removes one). Written to
 *  *@p out (a whole number, as a double). CDYN_ERR_INVALID_ARGUMENT for a
 *  NULL argument. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_degrees_of_freedom(const cdyn_system *sys, double *out);

/** The instantaneous kinetic temperature as a thermal energy into @p out,
 *  kT = sum m |v|^2 / N_f (J; divide by Boltzmann's constant for kelvin),
 *  over the particles that are not fixed, N_f from
 *  cdyn_system_get_degrees_of_freedom (equipartition: each degree of freedom
 *  holds kT / 2 on average). No degree is removed for the conserved total
 *  momentum of an isolated system: multiply by N_f / (N_f - dim) for that.
 *  CDYN_ERR_INVALID_ARGUMENT for a NULL argument or N_f <= 0. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_temperature(const cdyn_system *sys, double *out);

/** The instantaneous pressure from the virial theorem,
 *      P = (sum m |v|^2 + W) / (dim V),
 *  with V the volume of the system's box (box.h; the product of its
 *  lengths, periodic or not) and W the sum over interacting pairs of
 *  d . F: the separation from one particle to the other (minimum image)
 *  dotted with the force on the other, over pair generators, springs and
 *  rods (the constraint force from the multipliers of the last step or
 *  evaluation; 0 before any). Forces from outside the pairs (gravity,
 *  grounds and walls, anchors) are not in W: they are the container's.
 *  Units: Pa in 3-D, N/m in 2-D. Fixed particles add no kinetic part.
 *  CDYN_ERR_INVALID_ARGUMENT for a NULL argument or a system without a
 *  box; CDYN_ERR_CALLBACK from a failing callback potential. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_pressure(const cdyn_system *sys, double *out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_DIAGNOSTICS_H */
