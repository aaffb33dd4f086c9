/* Prescribed motions (include/cdyn/motion.h) as the library holds them: a
 * validated copy of the description and the transform at the time it was
 * attached, so that what it carries moves by T(t) T(t_s)^-1. Internal.
 *
 * Vectors are held with three components in 2-D too (z = 0; rotations
 * about z), so that one set of formulas serves both dimensions. */
#ifndef CDYN__MOTION_H
#define CDYN__MOTION_H

#include <stdbool.h>

#include "cdyn/motion.h"

typedef struct cdyn__motion {
    cdyn_motion_desc desc; /* validated; a rotation's axis normalized */
    int dim;
    double ref_rot[9];     /* R(t_s) */
    double ref_pos[3];     /* p(t_s) */
} cdyn__motion;

/* The relative transform T(t) T(t_s)^-1 at one time t and the rates of
 * the motion there: a point X_s attached at t_s is at rot X_s + shift. */
typedef struct cdyn__frame {
    double rot[9];        /* R(t) R(t_s)^T */
    double shift[3];      /* p(t) - rot p(t_s) */
    double origin[3];     /* p(t) */
    double vel[3], acc[3];     /* p', p'' */
    double omega[3], alpha[3]; /* angular velocity and acceleration */
    bool rotates;         /* omega or alpha not zero, or rot not the identity */
} cdyn__frame;

/* Checks @p desc for a space of dimension @p dim; NULL when it is valid,
 * else what is wrong (a static string). */
const char *cdyn__motion_invalid(const cdyn_motion_desc *desc, int dim);

/* The absolute transform of a valid @p desc at time @p t (callbacks get
 * @p sys). CDYN_ERR_CALLBACK (message set on @p sys, which may be NULL)
 * when a callback fails or gives a non-finite or non-orthonormal state;
 * CDYN_ERR_DIVERGED when a built-in kind's state overflows at @p t. */
cdyn_status cdyn__motion_state(const cdyn_system *sys, const cdyn_motion_desc *desc, int dim,
                               double t, cdyn_motion_state *out);

/* Attaches a valid @p desc at time @p t_s: @p m receives the copy and the
 * reference transform. Statuses of cdyn__motion_state. */
cdyn_status cdyn__motion_attach(const cdyn_system *sys, cdyn__motion *m,
                                const cdyn_motion_desc *desc, int dim, double t_s);

/* The relative transform of @p m at time @p t. Statuses of
 * cdyn__motion_state. */
cdyn_status cdyn__motion_frame(const cdyn_system *sys, const cdyn__motion *m, double t,
                               cdyn__frame *f);

/* The identity frame: nothing moves. */
void cdyn__frame_identity(cdyn__frame *f);

/* Where the point attached at @p xs is at the frame's time, with its
 * velocity and acceleration (3 values each; any output may be NULL). */
void cdyn__frame_point(const cdyn__frame *f, const double xs[3], double x[3], double v[3],
                       double a[3]);

/* The velocity and acceleration of the carried material at the world
 * point @p x (either output may be NULL). */
void cdyn__frame_velocity_at(const cdyn__frame *f, const double x[3], double w[3]);
void cdyn__frame_acceleration_at(const cdyn__frame *f, const double x[3], double a[3]);

/* rot n and rot^T n: directions carried and brought back. */
void cdyn__frame_turn(const cdyn__frame *f, const double n[3], double out[3]);
void cdyn__frame_unturn(const cdyn__frame *f, const double n[3], double out[3]);

/* The attached coordinates of the world point @p x: rot^T (x - shift). */
void cdyn__frame_to_reference(const cdyn__frame *f, const double x[3], double xs[3]);

/* What carries a shape or a ground whose own description cannot absorb a
 * transform: a held transform (where stopped motions left it) and, on top
 * of it, the motion in progress. The frame at time t is the motion's
 * relative transform after the held one; its rates are the motion's. */
typedef struct cdyn__carrier {
    bool moving;          /* a motion acts on top of the held transform */
    bool held;            /* the held transform is not the identity */
    cdyn__motion motion;
    double rot[9], shift[3]; /* the held transform */
} cdyn__carrier;

/* The identity, not moving. */
void cdyn__carrier_init(cdyn__carrier *c);

/* true when the carrier moves or holds its load away from the reference. */
static inline bool cdyn__carrier_active(const cdyn__carrier *c)
{
    return c->moving || c->held;
}

/* The frame of @p c at time @p t. Statuses of cdyn__motion_frame. */
cdyn_status cdyn__carrier_frame(const cdyn_system *sys, const cdyn__carrier *c, double t,
                                cdyn__frame *f);

/* Attaches a valid @p desc at time @p t_now on top of where the carrier is
 * then (NULL: stops the motion there). On failure (a callback) nothing
 * changed. */
cdyn_status cdyn__carrier_attach(const cdyn_system *sys, cdyn__carrier *c,
                                 const cdyn_motion_desc *desc, int dim, double t_now);

/* A scalar schedule attached at t_s to a quantity of value L_s: it then
 * follows L(t) = base + s(t) with base = L_s - s(t_s). */
typedef struct cdyn__schedule {
    cdyn_schedule_desc desc;
    double base;
} cdyn__schedule;

/* NULL when @p desc is valid, else what is wrong. */
const char *cdyn__schedule_invalid(const cdyn_schedule_desc *desc);

/* s, s', s'' of a valid @p desc at @p t. CDYN_ERR_CALLBACK (message set on
 * @p sys, which may be NULL) when a callback fails or gives a non-finite
 * value; CDYN_ERR_DIVERGED when a built-in kind's value overflows. */
cdyn_status cdyn__schedule_state(const cdyn_system *sys, const cdyn_schedule_desc *desc,
                                 double t, double out[3]);

/* Attaches a valid @p desc at @p t_s to a quantity whose value is @p value.
 * Statuses of cdyn__schedule_state. */
cdyn_status cdyn__schedule_attach(const cdyn_system *sys, cdyn__schedule *s,
                                  const cdyn_schedule_desc *desc, double t_s, double value);

/* L, L', L'' at @p t. */
cdyn_status cdyn__schedule_value(const cdyn_system *sys, const cdyn__schedule *s, double t,
                                 double out[3]);

#endif /* CDYN__MOTION_H */
