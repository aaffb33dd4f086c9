/* Ground handles: the store created on first use, adding each shape,
 * removing, per-ground settings. */
#include "ground/ground.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/system.h"
#include "core/finite.h"
#include "core/lookup.h"
#include "core/vec.h"

cdyn_status cdyn__ground_slot(const cdyn_system *sys, cdyn_ground h, const char *what,
                              uint32_t *slot)
{
    return cdyn__resolve(sys, sys->grounds ? &sys->grounds->slots : NULL, h, CDYN__KIND_GROUND,
                         slot, what);
}

static bool velocity_dependent(const cdyn__ground *g)
{
    return g->damping > 0 || g->friction > 0;
}

bool cdyn__grounds_velocity_dependent(const cdyn_system *sys)
{
    return sys->grounds && sys->grounds->n_velocity_dependent > 0;
}

static void free_one(cdyn_system *sys, cdyn__ground *g)
{
    if (g->kind == CDYN_GROUND_HEIGHTFIELD)
        cdyn__heightfield_free(&g->hf, &sys->alloc);
    memset(g, 0, sizeof *g);
}

void cdyn__grounds_destroy(cdyn_system *sys)
{
    cdyn__grounds *k = sys->grounds;
    if (!k)
        return;
    for (uint32_t i = 0; i < k->slots.count; i++)
        if (k->slots.alive[i])
            free_one(sys, &k->g[i]);
    void **arrays[] = {(void **)&k->g};
    size_t sizes[] = {sizeof(cdyn__ground)};
    cdyn__slots_free(&k->slots, &sys->alloc, 1, arrays, sizes);
    cdyn__free_array(&sys->alloc, k, 1, sizeof *k);
    sys->grounds = NULL;
}

/* Stores @p proto (whose height field, if any, it takes over) and hands out
 * the handle. The store is created on first use; on failure everything this
 * call allocated is freed, the store included if it was created here, and
 * @p proto's height field is freed too: nothing changed. */
static cdyn_status insert(cdyn_system *sys, cdyn__ground *proto, cdyn_ground *out,
                          const char *what)
{
    bool created = false;
    if (!sys->grounds) {
        sys->grounds = cdyn__calloc_array(&sys->alloc, 1, sizeof *sys->grounds);
        if (!sys->grounds)
            goto oom;
        created = true;
    }
    cdyn__grounds *k = sys->grounds;
    if (cdyn__slots_full(&k->slots)) {
        void **arrays[] = {(void **)&k->g};
        size_t sizes[] = {sizeof(cdyn__ground)};
        uint32_t cap = cdyn__grown_capacity(k->slots.capacity, k->slots.capacity + 1u);
        if (cdyn__slots_grow(&k->slots, &sys->alloc, cap, 1, arrays, sizes)) {
            if (created)
                cdyn__grounds_destroy(sys);
            goto oom;
        }
    }
    cdyn__carrier_init(&proto->carrier);
    memset(proto->surface_velocity, 0, sizeof proto->surface_velocity);
    proto->stiffness = CDYN__GROUND_DEFAULT_STIFFNESS;
    proto->damping = 0.0;
    proto->friction = 0.0;
    proto->friction_speed = CDYN__GROUND_DEFAULT_FRICTION_SPEED;
    uint32_t i = cdyn__slots_take(&k->slots);
    k->g[i] = *proto;
    *out = cdyn__handle_make(CDYN__KIND_GROUND, sys->salt, k->slots.generation[i], i);
    return CDYN_OK;
oom:
    if (proto->kind == CDYN_GROUND_HEIGHTFIELD)
        cdyn__heightfield_free(&proto->hf, &sys->alloc);
    return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
}

static cdyn_status prologue(cdyn_system *sys, const void *out, const char *what)
{
    return cdyn__enter_change(sys, out, what);
}

cdyn_status cdyn_ground_add_plane(cdyn_system *sys, const double *normal, double offset,
                                  cdyn_ground *out)
{
    const char *what = "ground_add_plane";
    cdyn_status st = prologue(sys, out, what);
    if (st)
        return st;
    /* The rescaled norm: any finite normal has one (1e300 included). */
    double len = normal && cdyn__all_finite(normal, (size_t)sys->dim)
                     ? cdyn__vec_norm(normal, sys->dim)
                     : 0.0;
    if (!(len > 0) || !isfinite(len) || !isfinite(offset) || !isfinite(offset / len))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: the normal must be %d finite values, not all zero, and the "
                          "offset finite", what, sys->dim);
    cdyn__ground g = {.kind = CDYN_GROUND_PLANE};
    for (int k = 0; k < sys->dim; k++)
        g.p[k] = normal[k] / len;
    g.p[3] = offset / len;
    return insert(sys, &g, out, what);
}

cdyn_status cdyn_ground_add_sphere(cdyn_system *sys, const double *center, double radius,
                                   bool inside, cdyn_ground *out)
{
    const char *what = "ground_add_sphere";
    cdyn_status st = prologue(sys, out, what);
    if (st)
        return st;
    if (!center || !cdyn__all_finite(center, (size_t)sys->dim))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: the centre must be %d finite values",
                          what, sys->dim);
    if (!isfinite(radius) || !(radius > 0))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: radius %g must be finite and > 0",
                          what, radius);
    cdyn__ground g = {.kind = CDYN_GROUND_SPHERE, .inside = inside ? 1 : 0};
    memcpy(g.p, center, (size_t)sys->dim * sizeof(double));
    g.p[3] = radius;
    return insert(sys, &g, out, what);
}

/* An upper bound of the interpolant over the whole plane, from the node
 * values and slopes: a cubic Hermite piece on a cell of width h lies within
 * h/4 (max |slope|) of the convex combination of its end values
 * (|h10| + |h11| = t (1 - t) <= 1/4), applied along x and then along y.
 * Outside the grid the height is a boundary value. */
static double heightfield_upper_bound(const cdyn__heightfield *hf)
{
    size_t nn = hf->nx * hf->ny;
    double top = -INFINITY, sx = 0, sy = 0, sxy = 0;
    for (size_t i = 0; i < nn; i++) {
        top = fmax(top, hf->f[i]);
        if (hf->fx) {
            sx = fmax(sx, fabs(hf->fx[i]));
            sy = fmax(sy, fabs(hf->fy[i]));
            sxy = fmax(sxy, fabs(hf->fxy[i]));
        }
    }
    double bound = top + 0.25 * hf->dx * sx + 0.25 * hf->dy * (sy + 0.25 * hf->dx * sxy);
    /* Round-off of the evaluation: a relative margin. */
    return bound + 1e-12 * (fabs(bound) + 1.0);
}

cdyn_status cdyn_ground_add_heightfield(cdyn_system *sys, const cdyn_heightfield_desc *desc,
                                        cdyn_ground *out)
{
    const char *what = "ground_add_heightfield";
    cdyn_status st = prologue(sys, out, what);
    if (st)
        return st;
    if (!desc || desc->size != sizeof(cdyn_heightfield_desc))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: NULL description or a size field that is not "
                          "sizeof(cdyn_heightfield_desc) (call cdyn_heightfield_desc_init)",
                          what);
    if (desc->up_axis < 0 || desc->up_axis > 2)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: up_axis %d is not 0, 1 or 2", what,
                          desc->up_axis);
    cdyn__ground g = {.kind = CDYN_GROUND_HEIGHTFIELD};
    if (sys->dim == 3) {
        st = cdyn__heightfield_init(&g.hf, desc, &sys->alloc);
        g.up = desc->up_axis;
        g.ax0 = g.up == 0 ? 1 : 0;
        g.ax1 = g.up == 2 ? 1 : 2;
    } else {
        /* A profile: the samples become two equal rows of a 2-row grid, on
         * which the bicubic rule is the 1-D not-a-knot spline along x with
         * f_y = f_xy = 0, and the bilinear rule the broken line. */
        /* nx bounded before the samples are read: a count whose grid
         * cannot be held is refused, not read past the caller's array. */
        if (desc->ny != 1 || desc->nx < 2 || desc->nx > SIZE_MAX / (8 * sizeof(double)) ||
            !desc->samples || !cdyn__all_finite(desc->samples, desc->nx))
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: in 2-D a height field is a profile: need ny = 1, nx >= 2 and "
                              "nx finite samples (got nx = %zu, ny = %zu)",
                              what, desc->nx, desc->ny);
        double *rows = cdyn__alloc_array(&sys->alloc, desc->nx, 2 * sizeof(double));
        if (!rows)
            return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
        memcpy(rows, desc->samples, desc->nx * sizeof(double));
        memcpy(rows + desc->nx, desc->samples, desc->nx * sizeof(double));
        cdyn_heightfield_desc grid = *desc;
        grid.ny = 2;
        grid.origin[1] = 0.0;
        grid.spacing[1] = 1.0;
        grid.samples = rows;
        grid.up_axis = 2;
        st = cdyn__heightfield_init(&g.hf, &grid, &sys->alloc);
        cdyn__free_array(&sys->alloc, rows, desc->nx, 2 * sizeof(double));
        g.up = desc->up_axis == 0 ? 0 : 1;
        g.ax0 = 1 - g.up;
        g.ax1 = -1;
    }
    if (st == CDYN_ERR_NO_MEMORY)
        return cdyn__fail(sys, st, "%s: out of memory", what);
    if (st)
        return cdyn__fail(sys, st,
                          "%s: bad description (grid below 2 x 2, NULL or non-finite samples, "
                          "bad origin, spacing or interpolation)", what);
    g.f_hi = heightfield_upper_bound(&g.hf);
    return insert(sys, &g, out, what);
}

cdyn_status cdyn_ground_add_callback(cdyn_system *sys, cdyn_ground_fn fn, void *user,
                                     cdyn_ground *out)
{
    const char *what = "ground_add_callback";
    cdyn_status st = prologue(sys, out, what);
    if (st)
        return st;
    if (!fn)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL function", what);
    cdyn__ground g = {.kind = CDYN_GROUND_CALLBACK, .fn = fn, .user = user};
    return insert(sys, &g, out, what);
}

cdyn_status cdyn_ground_remove(cdyn_system *sys, cdyn_ground ground)
{
    cdyn_status st = cdyn__check_mutable(sys, "ground_remove");
    uint32_t i;
    if (st || (st = cdyn__ground_slot(sys, ground, "ground_remove", &i)))
        return st;
    cdyn__grounds *k = sys->grounds;
    k->n_velocity_dependent -= velocity_dependent(&k->g[i]);
    free_one(sys, &k->g[i]);
    cdyn__slots_release(&k->slots, i);
    return CDYN_OK;
}

bool cdyn_ground_is_valid(const cdyn_system *sys, cdyn_ground ground)
{
    uint32_t i;
    return sys && sys->grounds &&
           cdyn__slots_resolve(&sys->grounds->slots, ground, CDYN__KIND_GROUND, sys->salt, &i) ==
               CDYN_OK;
}

/* Prologue of the getters: system, output pointer, handle. */
static cdyn_status lookup(const cdyn_system *sys, cdyn_ground h, const void *out,
                          const char *what, uint32_t *slot)
{
    return cdyn__enter_object(sys, out, what, sys && sys->grounds ? &sys->grounds->slots : NULL,
                              h, CDYN__KIND_GROUND, slot);
}

cdyn_status cdyn_ground_get_kind(const cdyn_system *sys, cdyn_ground ground,
                                 cdyn_ground_kind *out)
{
    uint32_t i;
    cdyn_status st = lookup(sys, ground, out, "ground_get_kind", &i);
    if (!st)
        *out = (cdyn_ground_kind)sys->grounds->g[i].kind;
    return st;
}

enum setting { SET_STIFFNESS, SET_DAMPING, SET_FRICTION, SET_FRICTION_SPEED };

static double *setting_field(cdyn__ground *g, enum setting which)
{
    switch (which) {
    case SET_STIFFNESS:
        return &g->stiffness;
    case SET_DAMPING:
        return &g->damping;
    case SET_FRICTION:
        return &g->friction;
    case SET_FRICTION_SPEED:
        break;
    }
    return &g->friction_speed;
}

static cdyn_status set_value(cdyn_system *sys, cdyn_ground ground, enum setting which,
                             double value, const char *what)
{
    cdyn_status st = cdyn__check_mutable(sys, what);
    uint32_t i;
    if (st || (st = cdyn__ground_slot(sys, ground, what, &i)))
        return st;
    bool positive = which == SET_FRICTION_SPEED;
    if (!isfinite(value) || value < 0 || (positive && value == 0))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: %g must be finite and %s", what,
                          value, positive ? "> 0" : ">= 0");
    cdyn__grounds *k = sys->grounds;
    cdyn__ground *g = &k->g[i];
    k->n_velocity_dependent -= velocity_dependent(g);
    *setting_field(g, which) = value;
    k->n_velocity_dependent += velocity_dependent(g);
    return CDYN_OK;
}

static cdyn_status get_value(const cdyn_system *sys, cdyn_ground ground, enum setting which,
                             double *out, const char *what)
{
    uint32_t i;
    cdyn_status st = lookup(sys, ground, out, what, &i);
    if (!st)
        *out = *setting_field(&sys->grounds->g[i], which);
    return st;
}

cdyn_status cdyn_ground_set_stiffness(cdyn_system *sys, cdyn_ground ground, double stiffness)
{
    return set_value(sys, ground, SET_STIFFNESS, stiffness, "ground_set_stiffness");
}

cdyn_status cdyn_ground_get_stiffness(const cdyn_system *sys, cdyn_ground ground, double *out)
{
    return get_value(sys, ground, SET_STIFFNESS, out, "ground_get_stiffness");
}

cdyn_status cdyn_ground_set_damping(cdyn_system *sys, cdyn_ground ground, double damping)
{
    return set_value(sys, ground, SET_DAMPING, damping, "ground_set_damping");
}

cdyn_status cdyn_ground_get_damping(const cdyn_system *sys, cdyn_ground ground, double *out)
{
    return get_value(sys, ground, SET_DAMPING, out, "ground_get_damping");
}

cdyn_status cdyn_ground_set_friction(cdyn_system *sys, cdyn_ground ground, double mu)
{
    return set_value(sys, ground, SET_FRICTION, mu, "ground_set_friction");
}

cdyn_status cdyn_ground_get_friction(const cdyn_system *sys, cdyn_ground ground, double *out)
{
    return get_value(sys, ground, SET_FRICTION, out, "ground_get_friction");
}

cdyn_status cdyn_ground_set_friction_speed(cdyn_system *sys, cdyn_ground ground, double speed)
{
    return set_value(sys, ground, SET_FRICTION_SPEED, speed, "ground_set_friction_speed");
}

cdyn_status cdyn_ground_get_friction_speed(const cdyn_system *sys, cdyn_ground ground,
                                           double *out)
{
    return get_value(sys, ground, SET_FRICTION_SPEED, out, "ground_get_friction_speed");
}

/* The tag calls' check that slot @p i holds a callback ground. */
static cdyn_status require_callback(const cdyn_system *sys, uint32_t i, const char *what)
{
    if (sys->grounds->g[i].kind == CDYN_GROUND_CALLBACK)
        return CDYN_OK;
    return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: the ground is not a callback ground",
                      what);
}

cdyn_status cdyn_ground_set_tag(cdyn_system *sys, cdyn_ground ground, uint64_t tag)
{
    const char *what = "ground_set_tag";
    uint32_t i;
    cdyn_status st = cdyn__enter_object_change(sys, sys, what,
                                               sys && sys->grounds ? &sys->grounds->slots : NULL,
                                               ground, CDYN__KIND_GROUND, &i);
    if (!st && !(st = require_callback(sys, i, what)))
        sys->grounds->g[i].tag = tag;
    return st;
}

cdyn_status cdyn_ground_get_tag(const cdyn_system *sys, cdyn_ground ground, uint64_t *out)
{
    const char *what = "ground_get_tag";
    uint32_t i;
    cdyn_status st = lookup(sys, ground, out, what, &i);
    if (!st && !(st = require_callback(sys, i, what)))
        *out = sys->grounds->g[i].tag;
    return st;
}
