/** @file
 * @brief Prescribed motions: rigid movements and scalar schedules that the
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
 *
 *     LINEAR       R = I, p = velocity t + acceleration t^2 / 2
 *     OSCILLATION  R = I, p = amplitude sin(frequency t + phase)
 *     ROTATION     R turns by the angle angular_velocity t about axis
 *                  through center (3-D; 2-D: about center)
 *     CALLBACK     a user function gives R, p and their derivatives
 *
 * A schedule is a scalar s(t) with its first two derivatives (a rod length
 * L(t)). Attached at t_s to a quantity of value L_s, the quantity follows
 * L(t) = L_s + s(t) - s(t_s): again no jump.
 *
 * Units: the system's (metres, seconds, radians; frequencies in rad/s).
 *
 * Numbers that overflow: a built-in motion or schedule whose state is not
 * finite at a time (a frequency so large that the acceleration overflows,
 * an acceleration reached after a long time) gives CDYN_ERR_DIVERGED
 * wherever it is evaluated at that time: alone, when attached (nothing
 * attached), or in a step or query (a step's state as before it).
 * CDYN_ERR_CALLBACK is for callbacks only.
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

/** The kinds of motion (cdyn_motion_desc.kind).
 *
 *  The values are pinned.
 *  @since 0.1
 */
typedef enum cdyn_motion_kind {
    CDYN_MOTION_LINEAR = 1,      /**< Translation at constant acceleration. */
    CDYN_MOTION_OSCILLATION = 2, /**< Sinusoidal translation. */
    CDYN_MOTION_ROTATION = 3,    /**< Rotation at constant angular velocity. */
    CDYN_MOTION_CALLBACK = 4     /**< A user function (cdyn_motion_fn). */
} cdyn_motion_kind;

/** The state of a rigid transform at one time.
 *
 *  Filled by cdyn_motion_evaluate() and by a motion callback (cleared
 *  first: zero translation and derivatives, identity rotation). In 2-D the
 *  third components of vectors and the third row and column of @c rotation
 *  are ignored except @c angular_velocity[2] and
 *  @c angular_acceleration[2], the plane's angular rates.
 *  @since 0.1
 */
typedef struct cdyn_motion_state {
    double position[3];             /**< p (m). */
    double velocity[3];             /**< p' (m/s). */
    double acceleration[3];         /**< p'' (m/s^2). */
    double rotation[9];             /**< R, row-major, orthonormal with det 1. */
    double angular_velocity[3];     /**< omega with R' = [omega x] R (rad/s). */
    double angular_acceleration[3]; /**< omega' (rad/s^2). */
} cdyn_motion_state;

/** A user motion (CDYN_MOTION_CALLBACK).
 *
 *  The function fills @p out with the transform at time @p t. The derivatives
 *  must be those of the positions given: the library does not difference them.
 *
 *  @param[in]  sys   The system that evaluates the motion, read only (calls
 *                    that change it return CDYN_ERR_BUSY); NULL when the motion
 *                    is evaluated alone by cdyn_motion_evaluate().
 *  @param[in]  t     Time (s).
 *  @param[out] out   The state to fill, cleared first (zero translation and
 *                    derivatives, identity rotation).
 *  @param[in]  user  The @c user of the motion's description.
 *  @return 0 on success; anything else, a non-finite value or a rotation that
 *          is not orthonormal to 1e-9 fails the calling function with
 *          CDYN_ERR_CALLBACK (a step: the system as before the step).
 *  @since 0.1
 */
typedef int (*cdyn_motion_fn)(const cdyn_system *sys, double t, cdyn_motion_state *out,
                              void *user);

/** The description of a motion.
 *
 *  Fill it with cdyn_motion_desc_init() first, then set the fields its kind
 *  reads; the others are ignored. Every field its kind reads must be
 *  finite. The library copies it wherever it is given.
 *  @since 0.1
 */
typedef struct cdyn_motion_desc {
    size_t size;               /**< sizeof(cdyn_motion_desc), set by the init function. */
    cdyn_motion_kind kind;     /**< Which motion. */
    double velocity[3];        /**< LINEAR: p' at t = 0 (m/s). */
    double acceleration[3];    /**< LINEAR: p'' (m/s^2). */
    double amplitude[3];       /**< OSCILLATION: the displacement's amplitude (m). */
    double frequency;          /**< OSCILLATION: angular frequency (rad/s); default 1. */
    double phase;              /**< OSCILLATION: phase at t = 0 (rad). */
    double center[3];          /**< ROTATION: a point of the axis (m). */
    /** ROTATION, 3-D: the axis direction, not zero (normalized by the
     *  library); default (0, 0, 1). Ignored in 2-D. */
    double axis[3];
    double angular_velocity;   /**< ROTATION: rad/s about @c axis (right-handed). */
    cdyn_motion_fn callback;   /**< CALLBACK: the function; not NULL. */
    /** CALLBACK: passed back to the function; kept as long as the motion
     *  is attached, never dereferenced by the library. */
    void *user;
    /** CALLBACK: what a snapshot holds in place of the function and the
     *  user pointer (snapshot.h); default 0. */
    uint64_t tag;
} cdyn_motion_desc;

/** Fills a motion's description with the defaults of a kind.
 *
 *  The defaults: size = sizeof(cdyn_motion_desc), every vector 0, frequency 1,
 *  phase 0, axis (0, 0, 1), angular velocity 0, no callback, tag 0. A @p kind outside
 *  the enum is kept and refused by the functions that read it.
 *
 *  @param[out] desc  The struct to fill; NULL is a no-op.
 *  @param[in]  kind  The kind of motion.
 *  @since 0.1
 */
CDYN_API void cdyn_motion_desc_init(cdyn_motion_desc *desc, cdyn_motion_kind kind);

/** Evaluates a motion's transform at one time, without a system.
 *
 *  Callbacks receive a NULL system. @p out is written only on success.
 *
 *  @param[in]  desc  The motion's description.
 *  @param[in]  dim   The dimension of space, 2 or 3.
 *  @param[in]  t     Time (s), finite.
 *  @param[out] out   Receives the transform and its derivatives.
 *  @retval CDYN_OK                    the state was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p desc or @p out is NULL, @p t is not
 *                                     finite, @p dim is not 2 or 3, or the
 *                                     description is bad: a size other than
 *                                     sizeof(cdyn_motion_desc), an unknown
 *                                     kind, a non-finite field, a zero or
 *                                     non-finite rotation axis in 3-D, a
 *                                     callback kind without a function.
 *  @retval CDYN_ERR_CALLBACK          the callback failed or gave a non-finite
 *                                     or non-orthonormal state.
 *  @retval CDYN_ERR_DIVERGED          a built-in motion's state overflows to
 *                                     a non-finite value at @p t.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_motion_evaluate(const cdyn_motion_desc *desc, int dim, double t,
                                          cdyn_motion_state *out);

/** The kinds of schedule (cdyn_schedule_desc.kind).
 *
 *  The values are pinned.
 *  @since 0.1
 */
typedef enum cdyn_schedule_kind {
    CDYN_SCHEDULE_LINEAR = 1,      /**< s = rate t + acceleration t^2 / 2. */
    CDYN_SCHEDULE_OSCILLATION = 2, /**< s = amplitude sin(frequency t + phase). */
    CDYN_SCHEDULE_CALLBACK = 3     /**< A user function (cdyn_schedule_fn). */
} cdyn_schedule_kind;

/** A user schedule (CDYN_SCHEDULE_CALLBACK).
 *
 *  @param[in]  sys   The system that evaluates the schedule, read only (calls
 *                    that change it return CDYN_ERR_BUSY); NULL when the
 *                    schedule is evaluated alone by cdyn_schedule_evaluate().
 *  @param[in]  t     Time (s).
 *  @param[out] out   Receives s(t), s'(t) and s''(t) (units of the driven
 *                    quantity, per second, per second squared).
 *  @param[in]  user  The @c user of the schedule's description.
 *  @return 0 on success; anything else or a non-finite value fails the calling
 *          function with CDYN_ERR_CALLBACK.
 *  @since 0.1
 */
typedef int (*cdyn_schedule_fn)(const cdyn_system *sys, double t, double out[3], void *user);

/** The description of a schedule.
 *
 *  Fill it with cdyn_schedule_desc_init() first, then set the fields its
 *  kind reads; the others are ignored. Every field its kind reads must be
 *  finite. The library copies it wherever it is given.
 *  @since 0.1
 */
typedef struct cdyn_schedule_desc {
    size_t size;                /**< sizeof(cdyn_schedule_desc), set by the init function. */
    cdyn_schedule_kind kind;    /**< Which schedule. */
    double rate;                /**< LINEAR: s' at t = 0 (units of s per second). */
    double acceleration;        /**< LINEAR: s'' (units of s per second squared). */
    double amplitude;           /**< OSCILLATION: the amplitude (units of s). */
    double frequency;           /**< OSCILLATION: angular frequency (rad/s); default 1. */
    double phase;               /**< OSCILLATION: phase at t = 0 (rad). */
    cdyn_schedule_fn callback;  /**< CALLBACK: the function; not NULL. */
    /** CALLBACK: passed back to the function; kept as long as the schedule
     *  is attached, never dereferenced by the library. */
    void *user;
    /** CALLBACK: what a snapshot holds in place of the function and the
     *  user pointer (snapshot.h); default 0. */
    uint64_t tag;
} cdyn_schedule_desc;

/** Fills a schedule's description with the defaults of a kind.
 *
 *  The defaults: size = sizeof(cdyn_schedule_desc), rate, acceleration,
 *  amplitude and phase 0, frequency 1, no callback, tag 0. A @p kind outside the enum
 *  is kept and refused by the functions that read it.
 *
 *  @param[out] desc  The struct to fill; NULL is a no-op.
 *  @param[in]  kind  The kind of schedule.
 *  @since 0.1
 */
CDYN_API void cdyn_schedule_desc_init(cdyn_schedule_desc *desc, cdyn_schedule_kind kind);

/** Evaluates a schedule at one time, without a system.
 *
 *  Callbacks receive a NULL system. @p out is written only on success.
 *
 *  @param[in]  desc  The schedule's description.
 *  @param[in]  t     Time (s), finite.
 *  @param[out] out   Receives s, s' and s''.
 *  @retval CDYN_OK                    the values were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p desc or @p out is NULL, @p t is not
 *                                     finite, or the description is bad: a size
 *                                     other than sizeof(cdyn_schedule_desc), an
 *                                     unknown kind, a non-finite field, a
 *                                     callback kind without a function.
 *  @retval CDYN_ERR_CALLBACK          the callback failed or gave a non-finite
 *                                     value.
 *  @retval CDYN_ERR_DIVERGED          a built-in schedule's value overflows to
 *                                     a non-finite number at @p t.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_schedule_evaluate(const cdyn_schedule_desc *desc, double t,
                                            double out[3]);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_MOTION_H */
