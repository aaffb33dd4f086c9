/** @file
 *  @brief Whole-system diagnostics: energies, momenta, centre of mass,
 *  degrees of freedom, temperature, pressure, the work of the drivers.
 *
 *  Fixed particles (infinite inertia) are excluded from mass-weighted sums:
 *  kinetic energy, momentum, angular momentum, centre of mass; particles of
 *  rigid bodies and kinematic particles (which move, with their masses) are
 *  included. Values are at the committed state.
 */
#ifndef CDYN_DIAGNOSTICS_H
#define CDYN_DIAGNOSTICS_H

#include "export.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Reads the kinetic energy of the system, the sum of m |v|^2 / 2.
 *
 *  Over the particles that are not fixed (kinematic particles and those of
 *  rigid bodies included), at the committed state.
 *
 *  @param[in]  sys  The system.
 *  @param[out] out  Receives the energy (J).
 *  @retval CDYN_OK                    the energy was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_kinetic_energy(const cdyn_system *sys, double *out);

/** Reads the potential energy of all conservative force generators and grounds.
 *
 *  The sum of cdyn_force_get_energy() over the generators (0 for drag and
 *  callbacks) and of the grounds' contact energies, at the committed positions.
 *  A pair generator whose callback potential fails (or whose exclusion lists
 *  cannot be rebuilt) adds NaN, so the sum is NaN.
 *
 *  @param[in]  sys  The system.
 *  @param[out] out  Receives the energy (J).
 *  @retval CDYN_OK                    the energy was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_CALLBACK          a callback ground, or the motion of a
 *                                     moving ground, failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_potential_energy(const cdyn_system *sys, double *out);

/** Reads the total momentum of the system, the sum of m v.
 *
 *  Over the particles that are not fixed.
 *
 *  @param[in]  sys  The system.
 *  @param[out] out  Receives dim values (kg m/s).
 *  @retval CDYN_OK                    the momentum was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_momentum(const cdyn_system *sys, double *out);

/** Reads the angular momentum of the system about the origin, the sum of m x
 *  cross v.
 *
 *  Over the particles that are not fixed. Always three components: in 2-D they
 *  are (0, 0, L_z) with L_z = sum m (x v_y - y v_x).
 *
 *  @param[in]  sys  The system.
 *  @param[out] out  Receives 3 values (kg m^2/s).
 *  @retval CDYN_OK                    the angular momentum was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_angular_momentum(const cdyn_system *sys, double out[3]);

/** Reads the work the prescribed motions have done on the system since it was
 *  created.
 *
 *  The drivers are kinematic particles (particle.h), time-dependent constraints
 *  (constraint.h: moving anchors, pins, planes, curves and surfaces, scheduled
 *  lengths, time-dependent callbacks), moving grounds and conveyor surfaces
 *  (ground.h). Energy bookkeeping then closes: kinetic + potential energy -
 *  drive work stays constant up to what dampers, drag and friction dissipate,
 *  and up to the integrator's error, for the work is the power of the drivers
 *  summed with the integrator's own quadrature weights over its evaluations
 *  (docs/driven.md). Callback grounds count with the velocity their function
 *  gives. Only successful steps count.
 *
 *  @param[in]  sys  The system.
 *  @param[out] out  Receives the work (J).
 *  @retval CDYN_OK                    the work was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_drive_work(const cdyn_system *sys, double *out);

/** Reads the centre of mass of the system and its total mass.
 *
 *  Over the particles that are not fixed. With no such particle the centre is
 *  the origin and the mass 0.
 *
 *  @param[in]  sys         The system.
 *  @param[out] out         Receives dim values (m).
 *  @param[out] total_mass  Receives the total mass (kg); may be NULL.
 *  @retval CDYN_OK                    the centre was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_center_of_mass(const cdyn_system *sys, double *out,
                                                    double *total_mass);

/** Reads the degrees of freedom N_f of the committed configuration.
 *
 *  dim per particle that moves (not fixed, in no rigid body), 1 or 2 per
 *  particle on a curve or surface, 3 (2-D) or 6 (3-D) per rigid body, less one
 *  per row of every enabled implicit constraint (a rod removes one).
 *
 *  @param[in]  sys  The system.
 *  @param[out] out  Receives N_f, a whole number as a double.
 *  @retval CDYN_OK                    the count was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_degrees_of_freedom(const cdyn_system *sys, double *out);

/** Reads the instantaneous kinetic temperature as a thermal energy, kT = sum m
 *  |v|^2 / N_f.
 *
 *  Over the particles that are not fixed, N_f from
 *  cdyn_system_get_degrees_of_freedom() (equipartition: each degree of freedom
 *  holds kT / 2 on average). No degree is removed for the conserved total
 *  momentum of an isolated system: multiply by N_f / (N_f - dim) for that.
 *
 *  @param[in]  sys  The system.
 *  @param[out] out  Receives kT (J; divide by Boltzmann's constant for kelvin).
 *  @retval CDYN_OK                    the temperature was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or N_f <= 0.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_temperature(const cdyn_system *sys, double *out);

/** Reads the instantaneous pressure from the virial theorem.
 *
 *      P = (sum m |v|^2 + W) / (dim V),
 *
 *  with V the volume of the system's box (box.h; the product of its lengths,
 *  periodic or not) and W the sum over interacting pairs of d . F: the
 *  separation from one particle to the other (minimum image) dotted with the
 *  force on the other, over pair generators, springs and rods (the constraint
 *  force from the multipliers of the last step or evaluation; 0 before any).
 *  Forces from outside the pairs (gravity, grounds and walls, anchors) are not
 *  in W: they are the container's. Fixed particles add no kinetic part.
 *
 *  @param[in]  sys  The system.
 *  @param[out] out  Receives P (Pa in 3-D, N/m in 2-D).
 *  @retval CDYN_OK                    the pressure was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or the system
 *                                     has no box.
 *  @retval CDYN_ERR_CALLBACK          a callback pair potential failed.
 *  @retval CDYN_ERR_NO_MEMORY         a pair set's exclusion lists could not be
 *                                     rebuilt (bonds changed since they were
 *                                     built).
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_pressure(const cdyn_system *sys, double *out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_DIAGNOSTICS_H */
