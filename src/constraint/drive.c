/* Driven constraints: the record, the geometry at a time, and the public
 * calls that attach motions and schedules or declare a callback
 * time-dependent (include/cdyn/constraint.h). */
#include "constraint/drive.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/lookup.h"
#include "core/system.h"

cdyn_status cdyn__drive_frame(const cdyn_system *sys, const cdyn__constraint *c, double t,
                              cdyn__frame *f)
{
    const cdyn__drive *d = c->drive;
    if (!d || !d->moving) {
        cdyn__frame_identity(f);
        return CDYN_OK;
    }
    return cdyn__motion_frame(sys, &d->motion, t, f);
}

cdyn_status cdyn__drive_length(const cdyn_system *sys, const cdyn__constraint *c, double t,
                               double out[3])
{
    const cdyn__drive *d = c->drive;
    if (!d || !d->scheduled) {
        int e = cdyn__kind_of(c)->length_entry;
        out[0] = e > 0 ? c->d.p[e - 1] : 0.0;
        out[1] = out[2] = 0.0;
        return CDYN_OK;
    }
    return cdyn__schedule_value(sys, &d->length, t, out);
}

cdyn_status cdyn__drive_point(const cdyn_system *sys, const cdyn__constraint *c, double t,
                              double b[3], double bd[3], double bdd[3])
{
    double ref[3] = {c->d.p[0], c->d.p[1], sys->dim == 3 ? c->d.p[2] : 0.0};
    const cdyn__drive *d = c->drive;
    if (!d || !d->moving) {
        memcpy(b, ref, sizeof ref);
        if (bd)
            memset(bd, 0, 3 * sizeof *bd);
        if (bdd)
            memset(bdd, 0, 3 * sizeof *bdd);
        return CDYN_OK;
    }
    cdyn__frame f;
    cdyn_status st = cdyn__motion_frame(sys, &d->motion, t, &f);
    if (!st)
        cdyn__frame_point(&f, ref, b, bd, bdd);
    return st;
}

/* The record of @p c, created empty on first use. */
static cdyn_status record(cdyn_system *sys, cdyn__constraint *c, const char *what)
{
    if (c->drive)
        return CDYN_OK;
    c->drive = cdyn__calloc_array(&sys->alloc, 1, sizeof *c->drive);
    return c->drive ? CDYN_OK : cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
}

/* Sets the driven flag from the record; frees the record once nothing in
 * it is in use. The rows change path: the topology is rebuilt. */
static void refresh(cdyn_system *sys, cdyn__constraint *c)
{
    const cdyn__drive *d = c->drive;
    c->driven = d && (d->time_dependent || d->moving || d->scheduled);
    if (d && !c->driven)
        cdyn__drive_free(sys, c);
    sys->cons->dirty = true;
}

const cdyn__motion *cdyn__drive_motion_of(const cdyn__constraint *c)
{
    return c->drive && c->drive->moving ? &c->drive->motion : NULL;
}

void cdyn__drive_free(cdyn_system *sys, cdyn__constraint *c)
{
    cdyn__free_array(&sys->alloc, c->drive, 1, sizeof *c->drive);
    c->drive = NULL;
}

/* Writes the geometry of the system's time into d.p except the length
 * entry (@p keep_length) or only it. */
static cdyn_status settle(cdyn_system *sys, cdyn__constraint *c, bool length_only)
{
    const cdyn__constraint_kind *kind = cdyn__kind_of(c);
    double now[4];
    cdyn_status st = kind->geometry_at(sys, c, sys->time, now);
    if (st)
        return st;
    int le = kind->length_entry - 1;
    for (int k = 0; k < 4; k++)
        if ((k == le) == length_only)
            c->d.p[k] = now[k];
    return CDYN_OK;
}

cdyn_status cdyn__drive_attach_motion(cdyn_system *sys, cdyn__constraint *c,
                                      const cdyn_motion_desc *motion)
{
    const char *what = "constraint_set_motion";
    cdyn__motion m;
    cdyn_status st;
    if (motion && (st = cdyn__motion_attach(sys, &m, motion, sys->dim, sys->time)))
        return st;
    if (motion && (st = record(sys, c, what)))
        return st;
    if (c->drive && c->drive->moving && (st = settle(sys, c, false)))
        return st;
    if (motion) {
        c->drive->motion = m;
        c->drive->moving = true;
    } else if (c->drive) {
        c->drive->moving = false;
    }
    refresh(sys, c);
    return CDYN_OK;
}

cdyn_status cdyn__drive_reserve_differences(cdyn_system *sys, const cdyn__constraint *c,
                                            const char *what)
{
    cdyn__constraints *k = sys->cons;
    size_t need = 4 * (size_t)c->n_rows +
                  2 * (size_t)c->n_rows * c->n_particles * (size_t)sys->dim;
    if (k->tbuf_len >= need)
        return CDYN_OK;
    double *b = cdyn__alloc_array(&sys->alloc, need, sizeof *b);
    if (!b)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
    cdyn__free_array(&sys->alloc, k->tbuf, k->tbuf_len, sizeof *k->tbuf);
    k->tbuf = b;
    k->tbuf_len = need;
    return CDYN_OK;
}

/* Common start of the calls on one constraint: the slot of a live handle. */
static cdyn_status change_slot(cdyn_system *sys, cdyn_constraint h, const char *what,
                               uint32_t *slot)
{
    cdyn_status st = cdyn__check_mutable(sys, what);
    return st ? st : cdyn__constraint_slot(sys, h, what, slot);
}

static cdyn_status query_slot(const cdyn_system *sys, cdyn_constraint h, const void *out,
                              const char *what, uint32_t *slot)
{
    return cdyn__enter_object(sys, out, what, sys && sys->cons ? &sys->cons->slots : NULL, h,
                              CDYN__KIND_CONSTRAINT, slot);
}

cdyn_status cdyn_constraint_set_motion(cdyn_system *sys, cdyn_constraint h,
                                       const cdyn_motion_desc *motion)
{
    const char *what = "constraint_set_motion";
    uint32_t i;
    cdyn_status st = change_slot(sys, h, what, &i);
    if (st)
        return st;
    cdyn__constraint *c = &sys->cons->c[i];
    const cdyn__constraint_kind *kind = cdyn__kind_of(c);
    if (!kind->attach_motion)
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "%s: a %s constraint has no geometry of its own to move (anchors, "
                          "pins, planes, curves and surfaces have)", what, kind->name);
    const char *why = motion ? cdyn__motion_invalid(motion, sys->dim) : NULL;
    if (why)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: %s", what, why);
    uint64_t mark = cdyn__failure_mark(sys);
    st = kind->attach_motion(sys, c, motion);
    return cdyn__blame(sys, st, mark, what, NULL);
}

cdyn_status cdyn_constraint_get_motion(const cdyn_system *sys, cdyn_constraint h,
                                       cdyn_motion_desc *out, bool *moving)
{
    uint32_t i;
    cdyn_status st = query_slot(sys, h, moving, "constraint_get_motion", &i);
    if (st)
        return st;
    const cdyn__constraint *c = &sys->cons->c[i];
    const cdyn__motion *m = cdyn__kind_of(c)->motion_of ? cdyn__kind_of(c)->motion_of(c) : NULL;
    *moving = m != NULL;
    if (m && out)
        *out = m->desc;
    return CDYN_OK;
}

cdyn_status cdyn_constraint_set_length_schedule(cdyn_system *sys, cdyn_constraint h,
                                                const cdyn_schedule_desc *schedule)
{
    const char *what = "constraint_set_length_schedule";
    uint32_t i;
    cdyn_status st = change_slot(sys, h, what, &i);
    if (st)
        return st;
    cdyn__constraint *c = &sys->cons->c[i];
    const cdyn__constraint_kind *kind = cdyn__kind_of(c);
    if (kind->length_entry == 0)
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "%s: a %s constraint has no length (distances and anchors have)",
                          what, kind->name);
    const char *why = schedule ? cdyn__schedule_invalid(schedule) : NULL;
    if (why)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: %s", what, why);
    uint64_t mark = cdyn__failure_mark(sys);
    double l[3];
    cdyn__schedule s;
    if ((st = cdyn__drive_length(sys, c, sys->time, l)) ||
        (schedule && (st = cdyn__schedule_attach(sys, &s, schedule, sys->time, l[0]))) ||
        (schedule && (st = record(sys, c, what))))
        return cdyn__blame(sys, st, mark, what, NULL);
    c->d.p[kind->length_entry - 1] = l[0];
    if (schedule) {
        c->drive->length = s;
        c->drive->scheduled = true;
    } else if (c->drive) {
        c->drive->scheduled = false;
    }
    refresh(sys, c);
    return CDYN_OK;
}

cdyn_status cdyn_constraint_get_length_schedule(const cdyn_system *sys, cdyn_constraint h,
                                                cdyn_schedule_desc *out, bool *scheduled)
{
    uint32_t i;
    cdyn_status st = query_slot(sys, h, scheduled, "constraint_get_length_schedule", &i);
    if (st)
        return st;
    const cdyn__drive *d = sys->cons->c[i].drive;
    *scheduled = d && d->scheduled;
    if (*scheduled && out)
        *out = d->length.desc;
    return CDYN_OK;
}

cdyn_status cdyn_constraint_set_time_dependent(cdyn_system *sys, cdyn_constraint h,
                                               bool time_dependent)
{
    const char *what = "constraint_set_time_dependent";
    uint32_t i;
    cdyn_status st = change_slot(sys, h, what, &i);
    if (st)
        return st;
    cdyn__constraint *c = &sys->cons->c[i];
    const cdyn__constraint_kind *kind = cdyn__kind_of(c);
    if (!kind->time_callback)
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "%s: a %s constraint has no callback (user and implicit ones have; "
                          "built-in geometry moves with cdyn_constraint_set_motion)",
                          what, kind->name);
    if (time_dependent && ((st = cdyn__drive_reserve_differences(sys, c, what)) ||
                           (st = record(sys, c, what))))
        return st;
    if (c->drive)
        c->drive->time_dependent = time_dependent;
    refresh(sys, c);
    return CDYN_OK;
}

cdyn_status cdyn_constraint_get_time_dependent(const cdyn_system *sys, cdyn_constraint h,
                                               bool *out)
{
    uint32_t i;
    cdyn_status st = query_slot(sys, h, out, "constraint_get_time_dependent", &i);
    if (!st)
        *out = sys->cons->c[i].drive && sys->cons->c[i].drive->time_dependent;
    return st;
}

/* The geometry of the system's time through the kind's geometry_at. */
static cdyn_status geometry_now(const cdyn_system *sys, cdyn_constraint h, const void *out,
                                const char *what, uint32_t *slot, double now[4])
{
    cdyn_status st = query_slot(sys, h, out, what, slot);
    if (st)
        return st;
    const cdyn__constraint *c = &sys->cons->c[*slot];
    const cdyn__constraint_kind *kind = cdyn__kind_of(c);
    if (!kind->geometry_at)
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED, "%s: a %s constraint has no such geometry",
                          what, kind->name);
    uint64_t mark = cdyn__failure_mark(sys);
    st = kind->geometry_at(sys, c, sys->time, now);
    return cdyn__blame(sys, st, mark, what, NULL);
}

cdyn_status cdyn_constraint_get_point(const cdyn_system *sys, cdyn_constraint h, double *out)
{
    const char *what = "constraint_get_point";
    uint32_t i;
    double now[4];
    cdyn_status st = geometry_now(sys, h, out, what, &i, now);
    if (st)
        return st;
    if (cdyn__kind_of(&sys->cons->c[i])->fixed_point == NULL)
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED, "%s: only anchors and pins have a point",
                          what);
    memcpy(out, now, (size_t)sys->dim * sizeof *out);
    return CDYN_OK;
}

cdyn_status cdyn_constraint_get_length(const cdyn_system *sys, cdyn_constraint h, double *out)
{
    const char *what = "constraint_get_length";
    uint32_t i;
    double now[4];
    cdyn_status st = geometry_now(sys, h, out, what, &i, now);
    if (st)
        return st;
    int e = cdyn__kind_of(&sys->cons->c[i])->length_entry;
    if (e == 0)
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "%s: only distances and anchors have a length", what);
    *out = now[e - 1];
    return CDYN_OK;
}

/* Whether @p c touches a kinematic particle. */
static bool touches_kinematic(const cdyn_system *sys, const cdyn__constraint *c)
{
    for (uint32_t j = 0; j < c->n_particles; j++)
        if (cdyn__is_kinematic(sys, cdyn__constraint_particle(c, j)))
            return true;
    return false;
}

cdyn_status cdyn__constraints_drive_power(cdyn_system *sys, double t, const double *x,
                                          const double *v, const double *lambda, double *out)
{
    cdyn__constraints *k = sys->cons;
    size_t d = (size_t)sys->dim;
    double p = 0;
    for (uint32_t a = 0; k && a < k->n_active; a++) {
        const cdyn__constraint *c = &k->c[k->active[a]];
        if (!c->driven && !touches_kinematic(sys, c))
            continue;
        uint32_t np = c->n_particles, rows = c->n_rows;
        double *bias = k->scratch, *g = bias + rows, *gt = g + rows, *jac = gt + rows;
        cdyn_status st = cdyn__constraint_eval(sys, c, t, x, v, g, jac, bias, gt);
        if (st)
            return st;
        for (uint32_t r = 0; r < rows; r++) {
            double rate = gt[r];
            for (uint32_t j = 0; j < np; j++) {
                uint32_t s = cdyn__constraint_particle(c, j);
                if (!cdyn__is_kinematic(sys, s))
                    continue;
                const double *jb = jac + ((size_t)r * np + j) * d;
                for (size_t q = 0; q < d; q++)
                    rate += jb[q] * v[s * d + q];
            }
            p -= lambda[c->row + r] * rate;
        }
    }
    *out = p;
    return CDYN_OK;
}
