/* Motions: validation, the transform of each kind at a time, and the
 * public description functions. */
#include "motion/motion.h"

#include <math.h>
#include <string.h>

#include "core/error.h"
#include "core/callback.h"
#include "core/finite.h"
#include "core/vec.h"

/* A callback's rotation is accepted when R R^T is the identity to this. */
#define CDYN__ROTATION_TOLERANCE 1e-9

void cdyn_motion_desc_init(cdyn_motion_desc *desc, cdyn_motion_kind kind)
{
    if (!desc)
        return;
    memset(desc, 0, sizeof *desc);
    desc->size = sizeof *desc;
    desc->kind = kind;
    desc->frequency = 1.0;
    desc->axis[2] = 1.0;
}

const char *cdyn__motion_invalid(const cdyn_motion_desc *desc, int dim)
{
    if (dim != 2 && dim != 3)
        return "the dimension must be 2 or 3";
    if (desc->size != sizeof *desc)
        return "size is not sizeof(cdyn_motion_desc) (call cdyn_motion_desc_init)";
    switch (desc->kind) {
    case CDYN_MOTION_LINEAR:
        if (!cdyn__v3_isfinite(desc->velocity) || !cdyn__v3_isfinite(desc->acceleration))
            return "velocity and acceleration must be finite";
        return NULL;
    case CDYN_MOTION_OSCILLATION:
        if (!cdyn__v3_isfinite(desc->amplitude) || !isfinite(desc->frequency) ||
            !isfinite(desc->phase))
            return "amplitude, frequency and phase must be finite";
        return NULL;
    case CDYN_MOTION_ROTATION:
        if (!cdyn__v3_isfinite(desc->center) || !isfinite(desc->angular_velocity))
            return "center and angular velocity must be finite";
        if (dim == 3 && !(cdyn__v3_isfinite(desc->axis) && cdyn__v3_norm(desc->axis) > 0))
            return "the rotation axis must be finite and not zero";
        return NULL;
    case CDYN_MOTION_CALLBACK:
        return desc->callback ? NULL : "a callback motion needs a function";
    }
    return "unknown motion kind";
}

/* R = cos I + sin [a]x + (1 - cos) a a^T for the unit axis a. */
static void axis_rotation(const double a[3], double angle, double r[9])
{
    double c = cos(angle), s = sin(angle), k = 1.0 - c;
    r[0] = c + k * a[0] * a[0];
    r[1] = k * a[0] * a[1] - s * a[2];
    r[2] = k * a[0] * a[2] + s * a[1];
    r[3] = k * a[1] * a[0] + s * a[2];
    r[4] = c + k * a[1] * a[1];
    r[5] = k * a[1] * a[2] - s * a[0];
    r[6] = k * a[2] * a[0] - s * a[1];
    r[7] = k * a[2] * a[1] + s * a[0];
    r[8] = c + k * a[2] * a[2];
}

static void clear_state(cdyn_motion_state *s)
{
    memset(s, 0, sizeof *s);
    s->rotation[0] = s->rotation[4] = s->rotation[8] = 1.0;
}

/* A rotation by angular_velocity t about the axis through the centre c:
 * x -> R (x - c) + c, so p = c - R c and the material velocity at x is
 * omega x (x - c). */
static void rotation_state(const cdyn_motion_desc *d, int dim, double t, cdyn_motion_state *s)
{
    double axis[3] = {0, 0, 1};
    if (dim == 3) {
        double n = cdyn__v3_norm(d->axis);
        for (int k = 0; k < 3; k++)
            axis[k] = d->axis[k] / n;
    }
    axis_rotation(axis, d->angular_velocity * t, s->rotation);
    for (int k = 0; k < 3; k++)
        s->angular_velocity[k] = d->angular_velocity * axis[k];
    double c[3] = {d->center[0], d->center[1], dim == 3 ? d->center[2] : 0.0}, rc[3], wrc[3],
           wwrc[3];
    cdyn__m3_apply(s->rotation, c, rc);
    cdyn__v3_cross(wrc, s->angular_velocity, rc);
    cdyn__v3_cross(wwrc, s->angular_velocity, wrc);
    for (int k = 0; k < 3; k++) {
        s->position[k] = c[k] - rc[k];
        s->velocity[k] = -wrc[k];
        s->acceleration[k] = -wwrc[k];
    }
}

/* A callback's state: finite, R orthonormal with det 1; in 2-D the plane's
 * part only, the rest set to that of a rotation about z. */
static const char *callback_state_invalid(cdyn_motion_state *s, int dim)
{
    if (dim == 2) {
        s->position[2] = s->velocity[2] = s->acceleration[2] = 0.0;
        s->rotation[2] = s->rotation[5] = s->rotation[6] = s->rotation[7] = 0.0;
        s->rotation[8] = 1.0;
        s->angular_velocity[0] = s->angular_velocity[1] = 0.0;
        s->angular_acceleration[0] = s->angular_acceleration[1] = 0.0;
    }
    if (!cdyn__all_finite((const double *)s, sizeof *s / sizeof(double)))
        return "a non-finite value";
    const double *r = s->rotation;
    double worst = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double e = r[i * 3] * r[j * 3] + r[i * 3 + 1] * r[j * 3 + 1] +
                       r[i * 3 + 2] * r[j * 3 + 2] - (i == j ? 1.0 : 0.0);
            worst = fmax(worst, fabs(e));
        }
    double det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6]) +
                 r[2] * (r[3] * r[7] - r[4] * r[6]);
    if (!(worst <= CDYN__ROTATION_TOLERANCE) || !(det > 0))
        return "a rotation that is not orthonormal with determinant 1";
    return NULL;
}

cdyn_status cdyn__motion_state(const cdyn_system *sys, const cdyn_motion_desc *d, int dim,
                               double t, cdyn_motion_state *out)
{
    cdyn_motion_state s;
    clear_state(&s);
    switch (d->kind) {
    case CDYN_MOTION_LINEAR:
        for (int k = 0; k < dim; k++) {
            s.position[k] = d->velocity[k] * t + 0.5 * d->acceleration[k] * t * t;
            s.velocity[k] = d->velocity[k] + d->acceleration[k] * t;
            s.acceleration[k] = d->acceleration[k];
        }
        break;
    case CDYN_MOTION_OSCILLATION: {
        double w = d->frequency, a = w * t + d->phase, sn = sin(a), cs = cos(a);
        for (int k = 0; k < dim; k++) {
            s.position[k] = d->amplitude[k] * sn;
            s.velocity[k] = d->amplitude[k] * w * cs;
            s.acceleration[k] = -d->amplitude[k] * w * w * sn;
        }
        break;
    }
    case CDYN_MOTION_ROTATION:
        rotation_state(d, dim, t, &s);
        break;
    case CDYN_MOTION_CALLBACK: {
        cdyn__callback_enter(sys);
        int rc = d->callback(sys, t, &s, d->user);
        cdyn__callback_leave(sys);
        if (rc != 0)
            return cdyn__fail(sys, CDYN_ERR_CALLBACK, "motion callback returned %d at t = %g",
                              rc, t);
        const char *why = callback_state_invalid(&s, dim);
        if (why)
            return cdyn__fail(sys, CDYN_ERR_CALLBACK, "motion callback gave %s at t = %g", why,
                              t);
        break;
    }
    }
    /* Only a built-in kind gets here with a non-finite state (a callback's
     * was checked above): its numbers overflow at this time. No callback
     * failed, so not CDYN_ERR_CALLBACK. */
    if (!cdyn__all_finite((const double *)&s, sizeof s / sizeof(double)))
        return cdyn__fail(sys, CDYN_ERR_DIVERGED,
                          "motion: its state overflows to a non-finite value at t = %g", t);
    *out = s;
    return CDYN_OK;
}

cdyn_status cdyn__motion_attach(const cdyn_system *sys, cdyn__motion *m,
                                const cdyn_motion_desc *desc, int dim, double t_s)
{
    cdyn_motion_state s;
    cdyn_status st = cdyn__motion_state(sys, desc, dim, t_s, &s);
    if (st)
        return st;
    m->desc = *desc;
    m->dim = dim;
    memcpy(m->ref_rot, s.rotation, sizeof m->ref_rot);
    memcpy(m->ref_pos, s.position, sizeof m->ref_pos);
    return CDYN_OK;
}

cdyn_status cdyn__motion_frame(const cdyn_system *sys, const cdyn__motion *m, double t,
                               cdyn__frame *f)
{
    cdyn_motion_state s;
    cdyn_status st = cdyn__motion_state(sys, &m->desc, m->dim, t, &s);
    if (st)
        return st;
    /* rot = R R_s^T; shift = p - rot p_s. */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            f->rot[i * 3 + j] = s.rotation[i * 3] * m->ref_rot[j * 3] +
                                s.rotation[i * 3 + 1] * m->ref_rot[j * 3 + 1] +
                                s.rotation[i * 3 + 2] * m->ref_rot[j * 3 + 2];
    double rp[3];
    cdyn__m3_apply(f->rot, m->ref_pos, rp);
    cdyn__v3_sub(f->shift, s.position, rp);
    cdyn__v3_copy(f->origin, s.position);
    cdyn__v3_copy(f->vel, s.velocity);
    cdyn__v3_copy(f->acc, s.acceleration);
    cdyn__v3_copy(f->omega, s.angular_velocity);
    cdyn__v3_copy(f->alpha, s.angular_acceleration);
    bool identity = true;
    for (int k = 0; k < 9; k++)
        identity = identity && f->rot[k] == (k % 4 == 0 ? 1.0 : 0.0);
    f->rotates = !identity || f->omega[0] != 0 || f->omega[1] != 0 || f->omega[2] != 0 ||
                 f->alpha[0] != 0 || f->alpha[1] != 0 || f->alpha[2] != 0;
    return CDYN_OK;
}

cdyn_status cdyn_motion_evaluate(const cdyn_motion_desc *desc, int dim, double t,
                                 cdyn_motion_state *out)
{
    if (!desc || !out || !isfinite(t))
        return CDYN_ERR_INVALID_ARGUMENT;
    if (cdyn__motion_invalid(desc, dim))
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn_status st = cdyn__motion_state(NULL, desc, dim, t, out);
    return st;
}
