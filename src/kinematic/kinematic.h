/* Kinematic (prescribed-motion) particles: each follows a motion
 * (motion/motion.h) from the time it was attached, X(t) = T(t) T(t_s)^-1
 * X(t_s), at every stage of every integrator. Internal; the public side is
 * cdyn_particle_set_motion (include/cdyn/particle.h).
 *
 * For the dynamics such a particle has infinite inertia (inv_mass 0, like
 * a fixed one) and a known acceleration: the evaluation overwrites its
 * position and velocity with the motion's and puts the motion's
 * acceleration where the dynamics would put its own, so that the
 * constraint solve treats it as a moving anchor (its acceleration enters
 * the right-hand side through G a). The step writes the motion's state at
 * the end of the step into x_new, v_new: the integrators' own update of
 * these entries is discarded. Its mass is kept: it counts in the kinetic
 * energy, the momentum and gravity's potential, and the force the motion
 * needs, m a - F, gives the work it does (dynamics/drive.h). */
#ifndef CDYN__KINEMATIC_H
#define CDYN__KINEMATIC_H

#include <stdint.h>

#include "cdyn/types.h"
#include "motion/motion.h"

typedef struct cdyn__kinematics {
    uint32_t count, capacity;
    uint32_t *slot;        /* the kinematic particles, in the order they became so */
    cdyn__motion *motion;  /* their motions */
    double *ref;           /* their positions when the motion was attached (3 each) */
    double *force;         /* the applied force on each at the last evaluation (3 each) */
    double *accel;         /* the motion's acceleration at the last placement (3 each) */
} cdyn__kinematics;

/* Overwrites the entries of every kinematic particle in x, v (index count
 * * dim values each) and, when @p a is not NULL, a with its motion's state
 * at time t; keeps the accelerations for cdyn__kinematics_accelerations.
 * Statuses of a callback motion (CDYN_ERR_CALLBACK, message set). Nothing
 * to do without kinematic particles. */
cdyn_status cdyn__kinematics_place(const cdyn_system *sys, double t, double *x, double *v,
                                   double *a);

/* Writes the accelerations of the last placement into @p a. */
void cdyn__kinematics_accelerations(const cdyn_system *sys, double *a);

/* Keeps the applied force of every kinematic particle from @p f (before the
 * force array is turned into accelerations in place). */
void cdyn__kinematics_save_forces(cdyn_system *sys, const double *f);

/* The power the motions deliver beyond the constraint forces on their
 * particles: sum of (m a - F) . v over the kinematic particles, with a the
 * accelerations of the last placement, F the saved applied forces and v
 * the velocities (index layout). */
double cdyn__kinematics_power(const cdyn_system *sys, const double *v);

/* Forgets particle slot @p slot's motion (the particle is removed). */
void cdyn__kinematic_forget(cdyn_system *sys, uint32_t slot);

void cdyn__kinematics_destroy(cdyn_system *sys);

#endif /* CDYN__KINEMATIC_H */
