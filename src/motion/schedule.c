/* Scalar schedules s(t) and the quantities that follow them. */
#include "motion/motion.h"

#include <math.h>
#include <string.h>

#include "core/error.h"
#include "core/callback.h"

void cdyn_schedule_desc_init(cdyn_schedule_desc *desc, cdyn_schedule_kind kind)
{
    if (!desc)
        return;
    memset(desc, 0, sizeof *desc);
    desc->size = sizeof *desc;
    desc->kind = kind;
    desc->frequency = 1.0;
}

const char *cdyn__schedule_invalid(const cdyn_schedule_desc *desc)
{
    if (desc->size != sizeof *desc)
        return "size is not sizeof(cdyn_schedule_desc) (call cdyn_schedule_desc_init)";
    switch (desc->kind) {
    case CDYN_SCHEDULE_LINEAR:
        return isfinite(desc->rate) && isfinite(desc->acceleration)
                   ? NULL
                   : "rate and acceleration must be finite";
    case CDYN_SCHEDULE_OSCILLATION:
        return isfinite(desc->amplitude) && isfinite(desc->frequency) && isfinite(desc->phase)
                   ? NULL
                   : "amplitude, frequency and phase must be finite";
    case CDYN_SCHEDULE_CALLBACK:
        return desc->callback ? NULL : "a callback schedule needs a function";
    }
    return "unknown schedule kind";
}

cdyn_status cdyn__schedule_state(const cdyn_system *sys, const cdyn_schedule_desc *d, double t,
                                 double out[3])
{
    double s[3] = {0, 0, 0};
    switch (d->kind) {
    case CDYN_SCHEDULE_LINEAR:
        s[0] = d->rate * t + 0.5 * d->acceleration * t * t;
        s[1] = d->rate + d->acceleration * t;
        s[2] = d->acceleration;
        break;
    case CDYN_SCHEDULE_OSCILLATION: {
        double w = d->frequency, a = w * t + d->phase;
        s[0] = d->amplitude * sin(a);
        s[1] = d->amplitude * w * cos(a);
        s[2] = -w * w * s[0];
        break;
    }
    case CDYN_SCHEDULE_CALLBACK: {
        cdyn__callback_enter(sys);
        int rc = d->callback(sys, t, s, d->user);
        cdyn__callback_leave(sys);
        if (rc != 0)
            return cdyn__fail(sys, CDYN_ERR_CALLBACK, "schedule callback returned %d at t = %g",
                              rc, t);
        break;
    }
    }
    /* A callback's non-finite output is the callback's failure; a built-in
     * schedule's is an overflow (a huge rate or time). */
    if (!isfinite(s[0]) || !isfinite(s[1]) || !isfinite(s[2]))
        return d->kind == CDYN_SCHEDULE_CALLBACK
                   ? cdyn__fail(sys, CDYN_ERR_CALLBACK,
                                "schedule callback gave a non-finite value at t = %g", t)
                   : cdyn__fail(sys, CDYN_ERR_DIVERGED,
                                "schedule: its value overflows to a non-finite number at t = %g",
                                t);
    memcpy(out, s, sizeof s);
    return CDYN_OK;
}

cdyn_status cdyn__schedule_attach(const cdyn_system *sys, cdyn__schedule *s,
                                  const cdyn_schedule_desc *desc, double t_s, double value)
{
    double v[3] = {0, 0, 0};
    cdyn_status st = cdyn__schedule_state(sys, desc, t_s, v);
    if (st)
        return st;
    s->desc = *desc;
    s->base = value - v[0];
    return CDYN_OK;
}

cdyn_status cdyn__schedule_value(const cdyn_system *sys, const cdyn__schedule *s, double t,
                                 double out[3])
{
    cdyn_status st = cdyn__schedule_state(sys, &s->desc, t, out);
    if (!st)
        out[0] += s->base;
    return st;
}

cdyn_status cdyn_schedule_evaluate(const cdyn_schedule_desc *desc, double t, double out[3])
{
    if (!desc || !out || !isfinite(t) || cdyn__schedule_invalid(desc))
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn_status st = cdyn__schedule_state(NULL, desc, t, out);
    return st;
}
