/* cdyn: prescribed motions -- rigid movements and scalar schedules that the
 * library follows in time.
 *
 * A motion is a rigid transform T(t) = (R(t), p(t)) of space: the point y
 * goes to R(t) y + p(t), with R a rotation. Attached to something (a
 * kinematic particle, an anchor, a pin, a plane, a curve, a surface, a
 * ground) at time t_s, it moves that thing by the relative transform
 *
 *     X(t) = T(t) T(t_s)^-1 X(t_s),
 *
 * so nothing jumps when the motion is attached: at t_s every point is where
 * it was, and from then on it moves as the motion prescribes. A point's
 * velocity and acceleration follow from the motion's (omega the angular
 * velocity, alpha the angular acceleration, r = X - p the arm):
 *
 *     X' = p' + omega x r,    X'' = p'' + alpha x r + omega x (omega x r).
 *
 * Kinds (t the system's time, every vector of dim values; in 2-D rotations
 * turn the plane about the point @c center, counter-clockwise for a
 * positive angular velocity):
 *   LINEAR       R = I, p = velocity t + acceleration t^2 / 2
 *   OSCILLATION  R = I, p = amplitude sin(frequency t + phase)
 *   ROTATION     R turns by the angle angular_velocity t about @c axis
 *                through @c center (3-D; 2-D: about @c center)
 *   CALLBACK     a user function gives R, p and their derivatives
 *
 * A schedule is a scalar s(t) with its first two derivatives (a rod length
 * L(t)). Attached at t_s to a quantity of value L_s, the quantity follows
 * L(t) = L_s + s(t) - s(t_s): again no jump.
 *
 * Units: the system's (metres, seconds, radians; frequencies in rad/s).
 */
#ifndef CDYN_MOTION_H
#define CDYN_MOTION_H

#include <stddef.h>

#include "export.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Kinds of motion. Values are pinned. @since 0.1 */
typedef enum cdyn_motion_kind {
    CDYN_MOTION_LINEAR = 1,      /**< translation at constant acceleration */
    CDYN_MOTION_OSCILLATION = 2, /**< sinusoidal translation */
    CDYN_MOTION_ROTATION = 3,    /**< rotation at constant angular velocity */
    CDYN_MOTION_CALLBACK = 4     /**< a user function */
} cdyn_motion_kind;

/** The state of a rigid transform at one time, filled by a motion callback
 *  (cleared first: zero translation and derivatives, identity rotation).
 *  In 2-D the third components of vectors and the third row and column of
 *  @c rotation are ignored except @c angular_velocity[2] and
 *  @c angular_acceleration[2], the plane's angular rates. */
typedef struct cdyn_motion_state {
    double position[3];             /**< p (m) */
    double velocity[3];             /**< p' (m/s) */
    double acceleration[3];         /**< p'' (m/s^2) */
    double rotation[9];             /**< R, row-major, orthonormal with det 1 */
    double angular_velocity[3];     /**< omega with R' = [omega x] R (rad/s) */
    double angular_acceleration[3]; /**< omega' (rad/s^2) */
} cdyn_motion_state;

/** A user motion: fill @p out (already cleared) with the transform at time
 *  @p t for the system @p sys (read-only; NULL when evaluated alone by
 *  cdyn_motion_evaluate). The derivatives must be those of the positions
 *  given: the library does not difference them. Return 0 on success;
 *  anything else, a non-finite value or a rotation that is not orthonormal
 *  to 1e-9 fails the calling function (a step: CDYN_ERR_CALLBACK, the
 *  system as before the step). @since 0.1 */
typedef int (*cdyn_motion_fn)(const cdyn_system *sys, double t, cdyn_motion_state *out,
                              void *user);

/** Description of a motion. Fill it with cdyn_motion_desc_init() first,
 *  then set the fields its kind reads; others are ignored. The library
 *  copies it. @since 0.1 */
typedef struct cdyn_motion_desc {
    size_t size;               /**< sizeof(cdyn_motion_desc), set by the init function */
    cdyn_motion_kind kind;     /**< which motion */
    double velocity[3];        /**< LINEAR: p' at t = 0 (m/s) */
    double acceleration[3];    /**< LINEAR: p'' (m/s^2) */
    double amplitude[3];       /**< OSCILLATION: the displacement's amplitude (m) */
    double frequency;          /**< OSCILLATION: angular frequency (rad/s), finite */
    double phase;              /**< OSCILLATION: phase at t = 0 (rad) */
    double center[3];          /**< ROTATION: a point of the axis (m) */
    double axis[3];            /**< ROTATION, 3-D: the axis direction (normalized;
                                    not zero) */
    double angular_velocity;   /**< ROTATION: rad/s about @c axis (right-handed) */
    cdyn_motion_fn callback;   /**< CALLBACK: the function */
    void *user;                /**< CALLBACK: passed back, never dereferenced */
    uint64_t tag;              /**< CALLBACK: what a snapshot holds in place of the
                                    function and user pointer (snapshot.h); 0 by default */
} cdyn_motion_desc;

/** Fills @p desc with the defaults of @p kind: size set, every vector 0,
 *  frequency 1, phase 0, axis (0, 0, 1), angular velocity 0, no callback, tag 0.
 *  NULL: does nothing. A @p kind outside the enum is kept and refused by
 *  the functions that read it. @since 0.1 */
CDYN_API void cdyn_motion_desc_init(cdyn_motion_desc *desc, cdyn_motion_kind kind);

/** The transform of motion @p desc at time @p t (s) in a space of
 *  dimension @p dim (2 or 3), into @p out (callbacks receive a NULL
 *  system).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL pointers, a bad
 *  size, kind or @p dim, non-finite fields or @p t, a zero rotation axis, a
 *  callback kind without a function; CDYN_ERR_CALLBACK when the callback
 *  fails or gives a non-finite or non-orthonormal state. @p out is written
 *  only on success. @since 0.1 */
CDYN_API cdyn_status cdyn_motion_evaluate(const cdyn_motion_desc *desc, int dim, double t,
                                          cdyn_motion_state *out);

/** Kinds of schedule. Values are pinned. @since 0.1 */
typedef enum cdyn_schedule_kind {
    CDYN_SCHEDULE_LINEAR = 1,      /**< s = rate t + acceleration t^2 / 2 */
    CDYN_SCHEDULE_OSCILLATION = 2, /**< s = amplitude sin(frequency t + phase) */
    CDYN_SCHEDULE_CALLBACK = 3     /**< a user function */
} cdyn_schedule_kind;

/** A user schedule: write s(t), s'(t) and s''(t) into @p out[0..2] at time
 *  @p t for the system @p sys (read-only; NULL when evaluated alone).
 *  Return 0 on success; anything else or a non-finite value fails the
 *  calling function with CDYN_ERR_CALLBACK. @since 0.1 */
typedef int (*cdyn_schedule_fn)(const cdyn_system *sys, double t, double out[3], void *user);

/** Description of a schedule. Fill it with cdyn_schedule_desc_init() first.
 *  @since 0.1 */
typedef struct cdyn_schedule_desc {
    size_t size;                /**< sizeof(cdyn_schedule_desc), set by the init function */
    cdyn_schedule_kind kind;    /**< which schedule */
    double rate;                /**< LINEAR: s' at t = 0 (units of s per second) */
    double acceleration;        /**< LINEAR: s'' */
    double amplitude;           /**< OSCILLATION */
    double frequency;           /**< OSCILLATION: rad/s */
    double phase;               /**< OSCILLATION: rad */
    cdyn_schedule_fn callback;  /**< CALLBACK: the function */
    void *user;                 /**< CALLBACK: passed back, never dereferenced */
    uint64_t tag;               /**< CALLBACK: what a snapshot holds in place of the
                                     function and user pointer (snapshot.h); 0 by default */
} cdyn_schedule_desc;

/** Fills @p desc with the defaults of @p kind: size set, rate,
 *  acceleration, amplitude and phase 0, frequency 1, no callback, tag 0. NULL:
 *  does nothing. @since 0.1 */
CDYN_API void cdyn_schedule_desc_init(cdyn_schedule_desc *desc, cdyn_schedule_kind kind);

/** s, s' and s'' of schedule @p desc at time @p t into @p out[0..2].
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for NULL pointers, a bad
 *  size or kind, non-finite fields or @p t, a callback kind without a
 *  function; CDYN_ERR_CALLBACK when the callback fails or gives a
 *  non-finite value. @since 0.1 */
CDYN_API cdyn_status cdyn_schedule_evaluate(const cdyn_schedule_desc *desc, double t,
                                            double out[3]);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_MOTION_H */
