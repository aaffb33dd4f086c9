/* The grounds section of a snapshot.
 *
 *     u8 present; then the slot pool and per live ground
 *       u8 kind, u8 inside, i8 up, i8 x axis, i8 y axis, f64 x 4 shape,
 *       f64 upper bound (height fields), f64 stiffness, damping,
 *       friction, friction speed, f64 x 3 surface velocity, carrier,
 *       [height field] [u64 tag] */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/system.h"
#include "ground/ground.h"
#include "snapshot/snapshot.h"

static void save_one(cdyn__save *S, const cdyn__ground *g)
{
    cdyn__out_u8(&S->w, g->kind);
    cdyn__out_u8(&S->w, g->inside);
    cdyn__out_u8(&S->w, (uint8_t)(int8_t)g->up);
    cdyn__out_u8(&S->w, (uint8_t)(int8_t)g->ax0);
    cdyn__out_u8(&S->w, (uint8_t)(int8_t)g->ax1);
    cdyn__out_f64s(&S->w, g->p, 4);
    const double v[5] = {g->f_hi, g->stiffness, g->damping, g->friction, g->friction_speed};
    cdyn__out_f64s(&S->w, v, 5);
    cdyn__out_f64s(&S->w, g->surface_velocity, 3);
    cdyn__save_carrier(S, &g->carrier);
    if (g->kind == CDYN_GROUND_HEIGHTFIELD)
        cdyn__save_heightfield(S, &g->hf);
    if (g->kind == CDYN_GROUND_CALLBACK) {
        cdyn_callback_binding b = {.size = sizeof b, .ground = g->fn, .user = g->user};
        cdyn__save_callback(S, CDYN_CALLBACK_GROUND, g->tag, &b);
    }
}

void cdyn__save_grounds(cdyn__save *S)
{
    const cdyn__grounds *k = S->sys->grounds;
    cdyn__out_u8(&S->w, k ? 1 : 0);
    if (!k)
        return;
    cdyn__save_slots(S, &k->slots);
    for (uint32_t i = 0; i < k->slots.count; i++)
        if (k->slots.alive[i])
            save_one(S, &k->g[i]);
}

/* The axes of a ground: those add_heightfield gives (3-D: the two others
 * in order; 2-D: the other one), unused ones 0. */
static bool axes_fit(int dim, uint8_t kind, int up, int ax0, int ax1)
{
    if (kind != CDYN_GROUND_HEIGHTFIELD)
        return up == 0 && ax0 == 0 && ax1 == 0;
    if (dim == 3)
        return up >= 0 && up <= 2 && ax0 == (up == 0 ? 1 : 0) && ax1 == (up == 2 ? 1 : 2);
    return (up == 0 || up == 1) && ax0 == 1 - up && ax1 == -1;
}

static bool load_one(cdyn__load *L, cdyn__ground *g)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    memset(g, 0, sizeof *g);
    uint8_t kind = cdyn__in_u8(r);
    bool inside = cdyn__in_flag(r, "ground: inside");
    int up = (int8_t)cdyn__in_u8(r), ax0 = (int8_t)cdyn__in_u8(r), ax1 = (int8_t)cdyn__in_u8(r);
    double p[4], v[5];
    cdyn__in_finites(r, p, 4, "ground shape");
    cdyn__in_f64s(r, v, 5);
    if (!cdyn__load_ok(L))
        return false;
    bool ok = kind >= CDYN_GROUND_PLANE && kind <= CDYN_GROUND_CALLBACK &&
              (!inside || kind == CDYN_GROUND_SPHERE) && axes_fit(sys->dim, kind, up, ax0, ax1) &&
              (kind != CDYN_GROUND_SPHERE || p[3] > 0) &&
              (kind != CDYN_GROUND_HEIGHTFIELD || !isnan(v[0])) && isfinite(v[1]) &&
              v[1] >= 0 && isfinite(v[2]) && v[2] >= 0 && isfinite(v[3]) && v[3] >= 0 &&
              isfinite(v[4]) && v[4] > 0;
    if (!ok)
        return cdyn__in_fail(r, "ground: kind %u with these axes, shape or settings is not one",
                             kind);
    g->kind = kind;
    g->inside = inside ? 1 : 0;
    g->up = up;
    g->ax0 = ax0;
    g->ax1 = ax1;
    memcpy(g->p, p, sizeof p);
    g->f_hi = v[0];
    g->stiffness = v[1];
    g->damping = v[2];
    g->friction = v[3];
    g->friction_speed = v[4];
    cdyn__in_finites(r, g->surface_velocity, 3, "ground surface velocity");
    if (!cdyn__load_ok(L) || !cdyn__load_carrier(L, &g->carrier))
        return false;
    if (kind == CDYN_GROUND_HEIGHTFIELD && !cdyn__load_heightfield(L, &g->hf))
        return false;
    if (kind == CDYN_GROUND_CALLBACK) {
        cdyn_callback_binding b;
        if (!cdyn__load_callback(L, CDYN_CALLBACK_GROUND, false, &b, &g->tag))
            return false;
        g->fn = b.ground;
        g->user = b.user;
    }
    return true;
}

bool cdyn__load_grounds(cdyn__load *L)
{
    cdyn_system *sys = L->sys;
    if (!cdyn__in_flag(&L->r, "grounds: present"))
        return cdyn__load_ok(L);
    if (!(sys->grounds = cdyn__calloc_array(&sys->alloc, 1, sizeof *sys->grounds)))
        return cdyn__load_oom(L, "grounds");
    cdyn__grounds *k = sys->grounds;
    void **arrays[] = {(void **)&k->g};
    const size_t sizes[] = {sizeof(cdyn__ground)};
    uint8_t *alive;
    if (!cdyn__load_slots(L, &k->slots, 1, arrays, sizes, 150, &alive, "grounds"))
        return false;
    for (uint32_t i = 0; i < k->slots.count && cdyn__load_ok(L); i++) {
        cdyn__ground *g = &k->g[i];
        if (!alive[i])
            continue;
        if (!load_one(L, g)) {
            /* A height field read whole before a later failure. */
            if (g->kind == CDYN_GROUND_HEIGHTFIELD)
                cdyn__heightfield_free(&g->hf, &sys->alloc);
            memset(g, 0, sizeof *g);
            continue;
        }
        cdyn__slots_revive(&k->slots, i);
        k->n_velocity_dependent += g->damping > 0 || g->friction > 0;
    }
    cdyn__load_free_alive(L, alive, k->slots.count);
    return cdyn__load_ok(L);
}
