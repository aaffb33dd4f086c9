/* Motions, schedules and carriers in snapshots: the description as the
 * caller gave it (a callback as its tag) and what the attachment fixed
 * (the reference transform, a schedule's base, a carrier's held
 * transform), so that the loaded motion continues exactly.
 *
 *     motion    u8 kind, f64 x 18 (velocity, acceleration, amplitude,
 *               frequency, phase, center, axis, angular velocity),
 *               u64 tag, f64 x 9 reference rotation, f64 x 3 position
 *     schedule  u8 kind, f64 x 5 (rate, acceleration, amplitude,
 *               frequency, phase), u64 tag, f64 base
 *
 * The tag is kept whatever the kind, as the description's getters give it
 * back; only a callback's is resolved.
 *     carrier   u8 flags (1 moving, 2 held), f64 x 12 held rotation and
 *               shift, [motion] */
#include <math.h>
#include <string.h>

#include "core/system.h"
#include "motion/motion.h"
#include "snapshot/snapshot.h"

void cdyn__save_motion(cdyn__save *S, const cdyn__motion *m)
{
    const cdyn_motion_desc *d = &m->desc;
    cdyn__out_u8(&S->w, (uint8_t)d->kind);
    cdyn__out_f64s(&S->w, d->velocity, 3);
    cdyn__out_f64s(&S->w, d->acceleration, 3);
    cdyn__out_f64s(&S->w, d->amplitude, 3);
    cdyn__out_f64(&S->w, d->frequency);
    cdyn__out_f64(&S->w, d->phase);
    cdyn__out_f64s(&S->w, d->center, 3);
    cdyn__out_f64s(&S->w, d->axis, 3);
    cdyn__out_f64(&S->w, d->angular_velocity);
    if (d->kind == CDYN_MOTION_CALLBACK) {
        cdyn_callback_binding b = {.size = sizeof b, .motion = d->callback, .user = d->user};
        cdyn__save_callback(S, CDYN_CALLBACK_MOTION, d->tag, &b);
    } else {
        cdyn__out_u64(&S->w, d->tag);
    }
    cdyn__out_f64s(&S->w, m->ref_rot, 9);
    cdyn__out_f64s(&S->w, m->ref_pos, 3);
}

/* Rotation @p r orthonormal with determinant 1, to a loose tolerance: a
 * transform the library made, not garbage. */
static bool is_rotation(const double r[9])
{
    double worst = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double e = r[i * 3] * r[j * 3] + r[i * 3 + 1] * r[j * 3 + 1] +
                       r[i * 3 + 2] * r[j * 3 + 2] - (i == j ? 1.0 : 0.0);
            worst = fmax(worst, fabs(e));
        }
    double det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6]) +
                 r[2] * (r[3] * r[7] - r[4] * r[6]);
    return worst <= 1e-6 && det > 0;
}

bool cdyn__load_motion(cdyn__load *L, cdyn__motion *m)
{
    cdyn__win *r = &L->r;
    cdyn_motion_desc d;
    cdyn_motion_desc_init(&d, (cdyn_motion_kind)cdyn__in_u8(r));
    cdyn__in_f64s(r, d.velocity, 3);
    cdyn__in_f64s(r, d.acceleration, 3);
    cdyn__in_f64s(r, d.amplitude, 3);
    d.frequency = cdyn__in_f64(r);
    d.phase = cdyn__in_f64(r);
    cdyn__in_f64s(r, d.center, 3);
    cdyn__in_f64s(r, d.axis, 3);
    d.angular_velocity = cdyn__in_f64(r);
    if (!cdyn__load_ok(L))
        return false;
    if (d.kind == CDYN_MOTION_CALLBACK) {
        cdyn_callback_binding b;
        if (!cdyn__load_callback(L, CDYN_CALLBACK_MOTION, false, &b, &d.tag))
            return false;
        d.callback = b.motion;
        d.user = b.user;
    } else {
        d.tag = cdyn__in_u64(r);
    }
    const char *why = cdyn__motion_invalid(&d, L->sys->dim);
    if (why)
        return cdyn__in_fail(r, "motion: %s", why);
    m->desc = d;
    m->dim = L->sys->dim;
    cdyn__in_finites(r, m->ref_rot, 9, "motion reference rotation");
    cdyn__in_finites(r, m->ref_pos, 3, "motion reference position");
    if (cdyn__load_ok(L) && !is_rotation(m->ref_rot))
        return cdyn__in_fail(r, "motion: the reference rotation is not a rotation");
    return cdyn__load_ok(L);
}

void cdyn__save_schedule(cdyn__save *S, const cdyn__schedule *s)
{
    const cdyn_schedule_desc *d = &s->desc;
    cdyn__out_u8(&S->w, (uint8_t)d->kind);
    cdyn__out_f64(&S->w, d->rate);
    cdyn__out_f64(&S->w, d->acceleration);
    cdyn__out_f64(&S->w, d->amplitude);
    cdyn__out_f64(&S->w, d->frequency);
    cdyn__out_f64(&S->w, d->phase);
    if (d->kind == CDYN_SCHEDULE_CALLBACK) {
        cdyn_callback_binding b = {.size = sizeof b, .schedule = d->callback, .user = d->user};
        cdyn__save_callback(S, CDYN_CALLBACK_SCHEDULE, d->tag, &b);
    } else {
        cdyn__out_u64(&S->w, d->tag);
    }
    cdyn__out_f64(&S->w, s->base);
}

bool cdyn__load_schedule(cdyn__load *L, cdyn__schedule *s)
{
    cdyn__win *r = &L->r;
    cdyn_schedule_desc d;
    cdyn_schedule_desc_init(&d, (cdyn_schedule_kind)cdyn__in_u8(r));
    d.rate = cdyn__in_f64(r);
    d.acceleration = cdyn__in_f64(r);
    d.amplitude = cdyn__in_f64(r);
    d.frequency = cdyn__in_f64(r);
    d.phase = cdyn__in_f64(r);
    if (!cdyn__load_ok(L))
        return false;
    if (d.kind == CDYN_SCHEDULE_CALLBACK) {
        cdyn_callback_binding b;
        if (!cdyn__load_callback(L, CDYN_CALLBACK_SCHEDULE, false, &b, &d.tag))
            return false;
        d.callback = b.schedule;
        d.user = b.user;
    } else {
        d.tag = cdyn__in_u64(r);
    }
    const char *why = cdyn__schedule_invalid(&d);
    if (why)
        return cdyn__in_fail(r, "schedule: %s", why);
    s->desc = d;
    s->base = cdyn__in_finite(r, "schedule base");
    return cdyn__load_ok(L);
}

void cdyn__save_carrier(cdyn__save *S, const cdyn__carrier *c)
{
    cdyn__out_u8(&S->w, (uint8_t)((c->moving ? 1u : 0u) | (c->held ? 2u : 0u)));
    cdyn__out_f64s(&S->w, c->rot, 9);
    cdyn__out_f64s(&S->w, c->shift, 3);
    if (c->moving)
        cdyn__save_motion(S, &c->motion);
}

bool cdyn__load_carrier(cdyn__load *L, cdyn__carrier *c)
{
    cdyn__win *r = &L->r;
    cdyn__carrier_init(c);
    uint8_t flags = cdyn__in_u8(r);
    if (flags > 3)
        return cdyn__in_fail(r, "carrier: flags 0x%x", flags);
    c->moving = flags & 1u;
    c->held = (flags & 2u) != 0;
    cdyn__in_finites(r, c->rot, 9, "carrier rotation");
    cdyn__in_finites(r, c->shift, 3, "carrier shift");
    if (cdyn__load_ok(L) && !is_rotation(c->rot))
        return cdyn__in_fail(r, "carrier: the held rotation is not a rotation");
    return cdyn__load_ok(L) && (!c->moving || cdyn__load_motion(L, &c->motion));
}
