/* The system and particles sections of a snapshot.
 *
 *     system     u16 salt, u8 integrator, u8 drives, f64 time, step dt,
 *                drive power, drive work of the step, drive work, u64 revision
 *     particles  slot pool; per slot f64 mass, u8 flags (1 fixed,
 *                2 kinematic), then f64 x, v (slots x dim each, removed
 *                slots included); u8 generalized, [f64 u, u' (slots x dim
 *                each)]; u8 applied forces (1 held, 2 on, 4 next-step
 *                on), [f64 held, next-step (slots x dim each)]
 *
 * The inverse masses are not saved: they follow from the masses and the
 * flags here, and from the rigid bodies (snapshot/rigids.c). */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/system.h"
#include "generalized/generalized.h"
#include "snapshot/snapshot.h"
#include "step/integrator.h"

void cdyn__save_system(cdyn__save *S)
{
    const cdyn_system *sys = S->sys;
    cdyn__out_u16(&S->w, sys->salt);
    cdyn__out_u8(&S->w, (uint8_t)sys->integrator);
    cdyn__out_u8(&S->w, sys->drives ? 1 : 0);
    const double v[5] = {sys->time, sys->step_dt, sys->drive_power, sys->drive_step_work,
                         sys->drive_work};
    cdyn__out_f64s(&S->w, v, 5);
    /* The caches a step keeps (neighbour and exclusion lists, the box's
     * clusters, the forces kept for the next step) hold for the revision
     * they were made at: the loaded system counts on from the same one. */
    cdyn__out_u64(&S->w, sys->revision);
}

bool cdyn__load_system(cdyn__load *L)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    uint16_t salt = cdyn__in_u16(r);
    uint8_t integ = cdyn__in_u8(r);
    bool drives = cdyn__in_flag(r, "system: drives");
    double v[5];
    cdyn__in_finites(r, v, 2, "system: clock");
    /* The drive work: the last evaluation's power, the last step's work and
     * the total, diagnostics that a step does not check (a failed step's,
     * or one whose drivers' power overflowed, may not be finite): read as
     * bits. */
    cdyn__in_f64s(r, v + 2, 3);
    uint64_t revision = cdyn__in_u64(r);
    if (!cdyn__load_ok(L))
        return false;
    if (salt > 0xfffu || !cdyn__integrator_of((cdyn_integrator)integ) || !(v[1] >= 0))
        return cdyn__in_fail(r, "system: salt 0x%x, integrator %u or step %g out of range", salt,
                             integ, v[1]);
    /* The saved salt: the handles of the saved system are valid here. */
    sys->salt = salt;
    sys->integrator = (cdyn_integrator)integ;
    sys->drives = drives;
    sys->time = v[0];
    sys->step_dt = v[1];
    sys->drive_power = v[2];
    sys->drive_step_work = v[3];
    sys->drive_work = v[4];
    sys->revision = revision; /* no part of a load bumps it */
    return true;
}

enum { FIXED = 1, KINEMATIC = 2 };

void cdyn__save_particles(cdyn__save *S)
{
    const cdyn_system *sys = S->sys;
    const uint32_t n = sys->particles.count;
    const size_t len = (size_t)n * (size_t)sys->dim;
    cdyn__save_slots(S, &sys->particles);
    cdyn__out_f64s(&S->w, sys->mass, n);
    for (uint32_t i = 0; i < n; i++)
        cdyn__out_u8(&S->w, (uint8_t)((sys->fixed[i] ? FIXED : 0) |
                                      (sys->kinematic[i] ? KINEMATIC : 0)));
    cdyn__out_f64s(&S->w, sys->x, len);
    cdyn__out_f64s(&S->w, sys->v, len);
    cdyn__out_u8(&S->w, sys->param_of ? 1 : 0);
    if (sys->param_of) {
        cdyn__out_f64s(&S->w, sys->u, len);
        cdyn__out_f64s(&S->w, sys->ud, len);
    }
    cdyn__out_u8(&S->w, (uint8_t)((sys->applied_held ? 1 : 0) | (sys->applied_on ? 2 : 0) |
                                  (sys->applied_next_on ? 4 : 0)));
    if (sys->applied_held) {
        cdyn__out_f64s(&S->w, sys->applied_held, len);
        cdyn__out_f64s(&S->w, sys->applied_next, len);
    }
}

/* The applied forces' accumulators (force/applied.h), allocated for the
 * particle capacity as the first applied force does. */
static bool load_applied(cdyn__load *L)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    uint8_t flags = cdyn__in_u8(r);
    if (!cdyn__load_ok(L))
        return false;
    if (flags > 7 || (flags > 1 && !(flags & 1)) || (flags && sys->particles.count == 0))
        return cdyn__in_fail(r, "applied forces: flags 0x%x", flags);
    if (!(flags & 1))
        return true;
    size_t len = (size_t)sys->particles.count * (size_t)sys->dim;
    if (!cdyn__in_room(r, len, 16, "applied forces"))
        return false;
    sys->applied_held = cdyn__calloc_array(&sys->alloc, len, sizeof *sys->applied_held);
    sys->applied_next = cdyn__calloc_array(&sys->alloc, len, sizeof *sys->applied_next);
    if (!sys->applied_held || !sys->applied_next) {
        cdyn__free_array(&sys->alloc, sys->applied_held, len, sizeof *sys->applied_held);
        cdyn__free_array(&sys->alloc, sys->applied_next, len, sizeof *sys->applied_next);
        sys->applied_held = sys->applied_next = NULL;
        return cdyn__load_oom(L, "applied forces");
    }
    cdyn__in_finites(r, sys->applied_held, len, "applied forces");
    cdyn__in_finites(r, sys->applied_next, len, "next-step applied forces");
    sys->applied_on = (flags & 2) != 0;
    sys->applied_next_on = (flags & 4) != 0;
    return cdyn__load_ok(L);
}

bool cdyn__load_particles(cdyn__load *L)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    const size_t d = (size_t)sys->dim, pd = d * sizeof(double);
    void **arrays[] = {(void **)&sys->x,        (void **)&sys->v,    (void **)&sys->x_new,
                       (void **)&sys->v_new,    (void **)&sys->mass, (void **)&sys->inv_mass,
                       (void **)&sys->fixed,    (void **)&sys->kinematic};
    const size_t sizes[] = {pd, pd, pd, pd, sizeof(double), sizeof(double), 1, 1};
    uint8_t *alive;
    /* Per slot: mass, flags, position and velocity. */
    if (!cdyn__load_slots(L, &sys->particles, 8, arrays, sizes, 9 + 16 * d, &alive,
                          "particles"))
        return false;
    const uint32_t n = sys->particles.count;
    sys->u = sys->x;
    sys->ud = sys->v;
    cdyn__in_f64s(r, sys->mass, n);
    for (uint32_t i = 0; i < n && cdyn__load_ok(L); i++) {
        uint8_t f = cdyn__in_u8(r);
        double m = sys->mass[i];
        bool ok = alive[i] ? isfinite(m) && m > 0 && f <= (FIXED | KINEMATIC) && f != 3
                           : m == 0 && f == 0;
        if (!ok)
            cdyn__in_fail(r, "particle slot %u: mass %g, flags %u (%s)", i, m, f,
                          alive[i] ? "live" : "removed");
        sys->fixed[i] = f & FIXED ? 1 : 0;
        sys->kinematic[i] = f & KINEMATIC ? 1 : 0;
        sys->inv_mass[i] = alive[i] && !f ? 1.0 / m : 0.0;
    }
    cdyn__in_finites(r, sys->x, n * d, "positions");
    cdyn__in_finites(r, sys->v, n * d, "velocities");
    L->generalized = cdyn__in_flag(r, "particles: generalized");
    if (L->generalized && cdyn__load_ok(L)) {
        if (n == 0)
            cdyn__in_fail(r, "particles: generalized coordinates without particles");
        else if (cdyn__params_enter_mode(sys))
            cdyn__load_oom(L, "generalized coordinates");
        else {
            cdyn__in_finites(r, sys->u, n * d, "generalized coordinates");
            cdyn__in_finites(r, sys->ud, n * d, "generalized velocities");
        }
    }
    for (uint32_t i = 0; i < n && cdyn__load_ok(L); i++)
        if (alive[i])
            cdyn__slots_revive(&sys->particles, i);
    cdyn__load_free_alive(L, alive, n);
    return cdyn__load_ok(L) && load_applied(L);
}
