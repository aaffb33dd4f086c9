/* The forces section of a snapshot: the generators' pool and each live
 * generator by its kind.
 *
 *     slot pool, then per live generator u8 kind and
 *       gravity    f64 x 3 g (z = 0 in 2-D)
 *       spring     u32 a, b (particle slots), f64 stiffness, damping, rest length
 *       drag       f64 coefficient
 *       callback   u8 flags (1 Jacobian, 2 velocity dependent), u64 tag
 *       pair       snapshot/pairs.c */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/system.h"
#include "force/force.h"
#include "pair/pair.h"
#include "snapshot/snapshot.h"

static void save_one(cdyn__save *S, const cdyn__force *g)
{
    cdyn_force_kind kind = cdyn__force_kind(g);
    cdyn__out_u8(&S->w, (uint8_t)kind);
    switch (kind) {
    case CDYN_FORCE_GRAVITY:
        cdyn__out_f64s(&S->w, g->p, 3);
        break;
    case CDYN_FORCE_SPRING:
        cdyn__out_u32(&S->w, g->a);
        cdyn__out_u32(&S->w, g->b);
        cdyn__out_f64s(&S->w, g->p, 3);
        break;
    case CDYN_FORCE_DRAG:
        cdyn__out_f64(&S->w, g->p[0]);
        break;
    case CDYN_FORCE_CALLBACK: {
        cdyn__out_u8(&S->w, (uint8_t)((g->jac ? 1u : 0u) | (g->velocity_dependent ? 2u : 0u)));
        cdyn_callback_binding b = {.size = sizeof b, .force = g->fn, .force_jacobian = g->jac,
                                   .user = g->user};
        cdyn__save_callback(S, CDYN_CALLBACK_FORCE, g->tag, &b);
        break;
    }
    case CDYN_FORCE_PAIR:
        cdyn__save_pair(S, g);
        break;
    }
}

void cdyn__save_forces(cdyn__save *S)
{
    const cdyn_system *sys = S->sys;
    cdyn__save_slots(S, &sys->forces);
    for (uint32_t i = 0; i < sys->forces.count; i++)
        if (sys->forces.alive[i])
            save_one(S, &sys->force[i]);
}

/* Particle slot @p s is a live particle. */
static bool live_particle(const cdyn_system *sys, uint32_t s)
{
    return s < sys->particles.count && sys->particles.alive[s];
}

/* Reads one generator into @p g (left zeroed on failure). */
static bool load_one(cdyn__load *L, cdyn__force *g)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    uint8_t kind = cdyn__in_u8(r);
    memset(g, 0, sizeof *g);
    switch (kind) {
    case CDYN_FORCE_GRAVITY:
        cdyn__in_finites(r, g->p, 3, "gravity");
        if (sys->dim == 2 && g->p[2] != 0)
            cdyn__in_fail(r, "gravity: a third component in 2-D");
        g->ops = &cdyn__gravity_ops;
        break;
    case CDYN_FORCE_SPRING:
        g->a = cdyn__in_u32(r);
        g->b = cdyn__in_u32(r);
        cdyn__in_finites(r, g->p, 3, "spring");
        if (cdyn__load_ok(L) && (!live_particle(sys, g->a) || !live_particle(sys, g->b) ||
                                 g->a == g->b || g->p[0] < 0 || g->p[1] < 0 || g->p[2] < 0))
            cdyn__in_fail(r, "spring: ends %u, %u or parameters out of range", g->a, g->b);
        g->ops = &cdyn__spring_ops;
        g->velocity_dependent = g->p[1] > 0;
        break;
    case CDYN_FORCE_DRAG:
        g->p[0] = cdyn__in_finite(r, "drag");
        if (g->p[0] < 0)
            cdyn__in_fail(r, "drag: coefficient %g < 0", g->p[0]);
        g->ops = &cdyn__drag_ops;
        g->velocity_dependent = 1;
        break;
    case CDYN_FORCE_CALLBACK: {
        uint8_t flags = cdyn__in_u8(r);
        if (flags > 3) {
            cdyn__in_fail(r, "callback force: flags 0x%x", flags);
            break;
        }
        cdyn_callback_binding b;
        if (!cdyn__load_callback(L, CDYN_CALLBACK_FORCE, flags & 1u, &b, &g->tag))
            break;
        g->ops = &cdyn__callback_ops;
        g->user_fn = 1;
        g->fn = b.force;
        g->jac = b.force_jacobian;
        g->user = b.user;
        g->velocity_dependent = (flags & 2u) != 0;
        break;
    }
    case CDYN_FORCE_PAIR:
        cdyn__load_pair(L, g);
        break;
    default:
        cdyn__in_fail(r, "force: unknown kind %u", kind);
    }
    if (!cdyn__load_ok(L)) {
        memset(g, 0, sizeof *g);
        return false;
    }
    return true;
}

bool cdyn__load_forces(cdyn__load *L)
{
    cdyn_system *sys = L->sys;
    void **arrays[] = {(void **)&sys->force};
    const size_t sizes[] = {sizeof(cdyn__force)};
    uint8_t *alive;
    if (!cdyn__load_slots(L, &sys->forces, 1, arrays, sizes, 9, &alive, "forces"))
        return false;
    for (uint32_t i = 0; i < sys->forces.count && cdyn__load_ok(L); i++) {
        if (!alive[i] || !load_one(L, &sys->force[i]))
            continue;
        cdyn__slots_revive(&sys->forces, i);
        sys->n_velocity_dependent += sys->force[i].velocity_dependent;
        sys->n_prepared += sys->force[i].ops->prepare != NULL;
    }
    cdyn__load_free_alive(L, alive, sys->forces.count);
    return cdyn__load_ok(L);
}
