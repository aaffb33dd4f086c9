/* Time-dependent (rheonomic) constraints g(x, t) = 0: the record a driven
 * constraint owns and the helpers its kind's evaluator reads. Internal;
 * the public side is the "driven constraints" part of
 * include/cdyn/constraint.h, the equations are in docs/driven.md.
 *
 * While a motion carries a constraint, its d.p holds the geometry at the
 * time the motion was attached (the reference); the geometry at time t is
 * the reference carried by the motion's frame. A scheduled length follows
 * L(t) = base + s(t) from the value in d.p at attach time. Stopping either
 * writes the geometry of the system's current time back into d.p. */
#ifndef CDYN__CONSTRAINT_DRIVE_H
#define CDYN__CONSTRAINT_DRIVE_H

#include <stdbool.h>

#include "constraint/constraint.h"
#include "motion/motion.h"

typedef struct cdyn__drive {
    bool time_dependent; /* user and implicit kinds: the callback depends on t */
    bool moving;         /* a motion carries the geometry */
    bool scheduled;      /* a schedule drives the length */
    cdyn__motion motion;
    cdyn__schedule length;
} cdyn__drive;

/* Step of the central differences in t of callbacks without time
 * derivatives: 2^-13 (s), exact in binary. */
#define CDYN__TIME_STEP 1.220703125e-4

/* true when @p c depends on time (then it takes the general row path). */
static inline bool cdyn__constraint_driven(const cdyn__constraint *c)
{
    return c->driven != 0;
}

/* The frame that carries @p c's geometry at time t (the identity when
 * no motion does). Statuses of a motion callback. */
cdyn_status cdyn__drive_frame(const cdyn_system *sys, const cdyn__constraint *c, double t,
                              cdyn__frame *f);

/* L, L', L'' of the length of @p c at time t (its kind's length entry;
 * constant when no schedule drives it). */
cdyn_status cdyn__drive_length(const cdyn_system *sys, const cdyn__constraint *c, double t,
                               double out[3]);

/* The point of an anchor or pin at time t with its velocity and
 * acceleration (3 values each, z = 0 in 2-D). */
cdyn_status cdyn__drive_point(const cdyn_system *sys, const cdyn__constraint *c, double t,
                              double b[3], double bd[3], double bdd[3]);

/* The motion of an anchor, pin or plane (kind operation attach_motion). */
cdyn_status cdyn__drive_attach_motion(cdyn_system *sys, cdyn__constraint *c,
                                      const cdyn_motion_desc *motion);

/* Room for the central differences in t of @p c's callback (g and G at
 * t +- h and two rows of spare outputs) in the store's buffer, which only
 * grows. CDYN_ERR_NO_MEMORY (message naming @p what). */
cdyn_status cdyn__drive_reserve_differences(cdyn_system *sys, const cdyn__constraint *c,
                                            const char *what);

/* The motion of an anchor, pin or plane, or NULL (kind operation
 * motion_of). */
const cdyn__motion *cdyn__drive_motion_of(const cdyn__constraint *c);


#endif /* CDYN__CONSTRAINT_DRIVE_H */
