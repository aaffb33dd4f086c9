/* Curves, surfaces and height fields in snapshots: the built shape as the
 * library holds it (frames, domains, the tables of splines and height
 * fields), not its description, so that the loaded shape evaluates to the
 * same bits; a callback shape as its tag.
 *
 *     domain       f64 lo, hi, u8 periodic, u8 lo end, u8 hi end
 *     spline       u64 segments, u8 closed, f64 length,
 *                  f64 x 13 segments + 1 (coefficients, arc lengths)
 *     height field u64 nx, ny, f64 x0, y0, dx, dy, x1, y1, u8 mode,
 *                  u8 up axis, f64 x nx ny (x 4 when bicubic: f, fx, fy, fxy)
 *     curve        u8 kind, f64 x 15 (origin, e1, e2, e3, radius, rise, a),
 *                  [spline] [u64 tag, u8 time-dependent], domain
 *     surface      u8 kind, f64 x 14 (origin, e1, e2, e3, radius, minor),
 *                  [height field, u8 x 3 axes] [u64 tag, u8 time-dependent],
 *                  domain u, domain v */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/system.h"
#include "shapes/curve.h"
#include "shapes/heightfield.h"
#include "shapes/surface.h"
#include "snapshot/snapshot.h"

static void save_domain(cdyn__save *S, const cdyn__domain *d)
{
    cdyn__out_f64(&S->w, d->lo);
    cdyn__out_f64(&S->w, d->hi);
    cdyn__out_u8(&S->w, d->periodic ? 1 : 0);
    cdyn__out_u8(&S->w, (uint8_t)d->lo_end);
    cdyn__out_u8(&S->w, (uint8_t)d->hi_end);
}

/* A domain the library could have made: periodic on a finite interval, or
 * an interval whose infinite bounds are open ends. */
static bool load_domain(cdyn__load *L, cdyn__domain *d)
{
    cdyn__win *r = &L->r;
    double lo = cdyn__in_f64(r), hi = cdyn__in_f64(r);
    bool periodic = cdyn__in_flag(r, "domain");
    uint8_t le = cdyn__in_u8(r), he = cdyn__in_u8(r);
    if (!cdyn__load_ok(L))
        return false;
    bool ok = !isnan(lo) && !isnan(hi) && lo < hi && lo != INFINITY && hi != -INFINITY &&
              le <= CDYN__END_SINGULAR && he <= CDYN__END_SINGULAR &&
              (isfinite(lo) || le == CDYN__END_OPEN) && (isfinite(hi) || he == CDYN__END_OPEN);
    if (periodic)
        ok = ok && isfinite(lo) && isfinite(hi) && isfinite(hi - lo) && le == CDYN__END_OPEN &&
             he == CDYN__END_OPEN;
    if (!ok)
        return cdyn__in_fail(r, "domain [%g, %g] with ends %u, %u is not one", lo, hi, le, he);
    *d = periodic ? cdyn__domain_periodic(lo, hi)
                  : cdyn__domain_interval(lo, hi, (cdyn__end)le, (cdyn__end)he);
    return true;
}

static void save_spline(cdyn__save *S, const cdyn__spline *s)
{
    cdyn__out_u64(&S->w, s->n_seg);
    cdyn__out_u8(&S->w, s->closed ? 1 : 0);
    cdyn__out_f64(&S->w, s->length);
    cdyn__out_f64s(&S->w, s->coef, 13 * s->n_seg + 1);
}

static bool load_spline(cdyn__load *L, cdyn__spline *s, const cdyn_allocator *a)
{
    cdyn__win *r = &L->r;
    memset(s, 0, sizeof *s);
    uint64_t n_seg = cdyn__in_u64(r);
    bool closed = cdyn__in_flag(r, "spline");
    double length = cdyn__in_f64(r);
    if (!cdyn__load_ok(L))
        return false;
    if (n_seg < 3 || !cdyn__in_room(r, 13 * (n_seg < SIZE_MAX / 16 ? n_seg : SIZE_MAX / 16) + 1,
                                    8, "spline"))
        return n_seg < 3 ? cdyn__in_fail(r, "spline: %llu segments, at least 3 wanted",
                                         (unsigned long long)n_seg)
                         : false;
    size_t count = 13 * (size_t)n_seg + 1;
    double *block = cdyn__alloc_array(a, count, sizeof *block);
    if (!block)
        return cdyn__load_oom(L, "spline");
    cdyn__in_finites(r, block, count, "spline table");
    const double *cum = block + 12 * n_seg;
    bool ok = cdyn__load_ok(L) && cum[0] == 0.0 && cum[n_seg] == length;
    for (size_t i = 0; ok && i < n_seg; i++)
        ok = cum[i + 1] > cum[i];
    if (!ok) {
        cdyn__free_array(a, block, count, sizeof *block);
        return cdyn__in_fail(r, "spline: the arc lengths do not rise from 0 to the length");
    }
    s->n_seg = (size_t)n_seg;
    s->closed = closed;
    s->length = length;
    s->coef = block;
    s->cum = block + 12 * n_seg;
    return true;
}

void cdyn__save_heightfield(cdyn__save *S, const cdyn__heightfield *h)
{
    cdyn__out_u64(&S->w, h->nx);
    cdyn__out_u64(&S->w, h->ny);
    const double g[8] = {h->x0, h->y0, h->dx, h->dy, h->x1, h->y1};
    cdyn__out_f64s(&S->w, g, 6);
    cdyn__out_u8(&S->w, (uint8_t)h->mode);
    cdyn__out_u8(&S->w, (uint8_t)h->up_axis);
    size_t nn = h->nx * h->ny;
    cdyn__out_f64s(&S->w, h->f, h->mode == CDYN_HEIGHTFIELD_BICUBIC ? 4 * nn : nn);
}

bool cdyn__load_heightfield(cdyn__load *L, cdyn__heightfield *h)
{
    cdyn__win *r = &L->r;
    memset(h, 0, sizeof *h);
    uint64_t nx = cdyn__in_u64(r), ny = cdyn__in_u64(r);
    double g[6];
    cdyn__in_finites(r, g, 6, "height field grid");
    uint8_t mode = cdyn__in_u8(r), up = cdyn__in_u8(r);
    if (!cdyn__load_ok(L))
        return false;
    if (nx < 2 || ny < 2 || nx > (uint64_t)SIZE_MAX / ny ||
        (mode != CDYN_HEIGHTFIELD_BILINEAR && mode != CDYN_HEIGHTFIELD_BICUBIC) || up > 2 ||
        !(g[2] > 0) || !(g[3] > 0) || !(g[4] > g[0]) || !(g[5] > g[1]))
        return cdyn__in_fail(r, "height field: a %llu x %llu grid, mode %u, axis %u, spacing "
                                "%g, %g is not one", (unsigned long long)nx,
                             (unsigned long long)ny, mode, up, g[2], g[3]);
    /* The far corner as the library computes it: the evaluation clamps to
     * it before it finds a cell. */
    cdyn_heightfield_desc desc;
    cdyn_heightfield_desc_init(&desc);
    desc.nx = (size_t)nx;
    desc.ny = (size_t)ny;
    desc.origin[0] = g[0];
    desc.origin[1] = g[1];
    desc.spacing[0] = g[2];
    desc.spacing[1] = g[3];
    if (cdyn__heightfield_desc_far(&desc, 0) != g[4] ||
        cdyn__heightfield_desc_far(&desc, 1) != g[5])
        return cdyn__in_fail(r, "height field: the far corner (%g, %g) is not the grid's", g[4],
                             g[5]);
    size_t planes = mode == CDYN_HEIGHTFIELD_BICUBIC ? 4 : 1;
    if (!cdyn__in_room(r, nx * ny, 8 * planes, "height field"))
        return false;
    size_t count = planes * (size_t)(nx * ny);
    double *block = cdyn__alloc_array(&L->sys->alloc, count, sizeof *block);
    if (!block)
        return cdyn__load_oom(L, "height field");
    cdyn__in_finites(r, block, count, "heights");
    if (!cdyn__load_ok(L)) {
        cdyn__free_array(&L->sys->alloc, block, count, sizeof *block);
        return false;
    }
    size_t nn = (size_t)(nx * ny);
    *h = (cdyn__heightfield){(size_t)nx, (size_t)ny, g[0], g[1], g[2], g[3], g[4], g[5],
                             (cdyn_heightfield_interpolation)mode, up, block,
                             planes == 4 ? block + nn : NULL, planes == 4 ? block + 2 * nn : NULL,
                             planes == 4 ? block + 3 * nn : NULL};
    return true;
}

/* A callback shape's tag and time dependence. */
static void save_shape_callback(cdyn__save *S, cdyn_callback_kind kind, uint64_t tag,
                                const cdyn_callback_binding *b, bool time_dependent)
{
    cdyn__save_callback(S, kind, tag, b);
    cdyn__out_u8(&S->w, time_dependent ? 1 : 0);
}

void cdyn__save_curve(cdyn__save *S, const cdyn__curve *c)
{
    cdyn__out_u8(&S->w, (uint8_t)c->kind);
    cdyn__out_f64s(&S->w, c->o, 3);
    cdyn__out_f64s(&S->w, c->e1, 3);
    cdyn__out_f64s(&S->w, c->e2, 3);
    cdyn__out_f64s(&S->w, c->e3, 3);
    cdyn__out_f64(&S->w, c->radius);
    cdyn__out_f64(&S->w, c->rise);
    cdyn__out_f64(&S->w, c->a);
    if (c->kind == CDYN_CURVE_SPLINE)
        save_spline(S, &c->spline);
    if (c->kind == CDYN_CURVE_CALLBACK) {
        cdyn_callback_binding b = {.size = sizeof b, .curve = c->fn, .user = c->user};
        save_shape_callback(S, CDYN_CALLBACK_CURVE, c->tag, &b, c->time_dependent);
    }
    save_domain(S, &c->dom);
}

bool cdyn__load_curve(cdyn__load *L, cdyn__curve *c)
{
    cdyn__win *r = &L->r;
    memset(c, 0, sizeof *c);
    uint8_t kind = cdyn__in_u8(r);
    double v[15];
    cdyn__in_finites(r, v, 15, "curve");
    if (!cdyn__load_ok(L))
        return false;
    if (kind < CDYN_CURVE_LINE || kind > CDYN_CURVE_CALLBACK)
        return cdyn__in_fail(r, "curve: unknown kind %u", kind);
    cdyn__curve cv;
    memset(&cv, 0, sizeof cv);
    cv.kind = (cdyn_curve_kind)kind;
    cv.dim = L->sys->dim;
    cv.alloc = L->sys->alloc;
    memcpy(cv.o, v, 3 * sizeof *v);
    memcpy(cv.e1, v + 3, 3 * sizeof *v);
    memcpy(cv.e2, v + 6, 3 * sizeof *v);
    memcpy(cv.e3, v + 9, 3 * sizeof *v);
    cv.radius = v[12];
    cv.rise = v[13];
    cv.a = v[14];
    if (cv.kind == CDYN_CURVE_SPLINE && !load_spline(L, &cv.spline, &cv.alloc))
        return false;
    if (cv.kind == CDYN_CURVE_CALLBACK) {
        cdyn_callback_binding b;
        if (!cdyn__load_callback(L, CDYN_CALLBACK_CURVE, false, &b, &cv.tag))
            return false;
        cv.fn = b.curve;
        cv.user = b.user;
        cv.time_dependent = cdyn__in_flag(r, "curve");
    }
    if (!load_domain(L, &cv.dom)) {
        cdyn__curve_free(&cv);
        return false;
    }
    *c = cv;
    return true;
}

void cdyn__save_surface(cdyn__save *S, const cdyn__surface *s)
{
    cdyn__out_u8(&S->w, (uint8_t)s->kind);
    cdyn__out_f64s(&S->w, s->o, 3);
    cdyn__out_f64s(&S->w, s->e1, 3);
    cdyn__out_f64s(&S->w, s->e2, 3);
    cdyn__out_f64s(&S->w, s->e3, 3);
    cdyn__out_f64(&S->w, s->radius);
    cdyn__out_f64(&S->w, s->minor);
    if (s->kind == CDYN_SURFACE_HEIGHTFIELD) {
        cdyn__save_heightfield(S, &s->hf);
        cdyn__out_u8(&S->w, (uint8_t)s->axis_u);
        cdyn__out_u8(&S->w, (uint8_t)s->axis_v);
        cdyn__out_u8(&S->w, (uint8_t)s->axis_up);
    }
    if (s->kind == CDYN_SURFACE_CALLBACK) {
        cdyn_callback_binding b = {.size = sizeof b, .surface = s->fn, .user = s->user};
        save_shape_callback(S, CDYN_CALLBACK_SURFACE, s->tag, &b, s->time_dependent);
    }
    save_domain(S, &s->du);
    save_domain(S, &s->dv);
}

bool cdyn__load_surface(cdyn__load *L, cdyn__surface *s)
{
    cdyn__win *r = &L->r;
    memset(s, 0, sizeof *s);
    uint8_t kind = cdyn__in_u8(r);
    double v[14];
    cdyn__in_finites(r, v, 14, "surface");
    if (!cdyn__load_ok(L))
        return false;
    if (kind < CDYN_SURFACE_PLANE || kind > CDYN_SURFACE_CALLBACK)
        return cdyn__in_fail(r, "surface: unknown kind %u", kind);
    cdyn__surface sf;
    memset(&sf, 0, sizeof sf);
    sf.kind = (cdyn_surface_kind)kind;
    sf.alloc = L->sys->alloc;
    memcpy(sf.o, v, 3 * sizeof *v);
    memcpy(sf.e1, v + 3, 3 * sizeof *v);
    memcpy(sf.e2, v + 6, 3 * sizeof *v);
    memcpy(sf.e3, v + 9, 3 * sizeof *v);
    sf.radius = v[12];
    sf.minor = v[13];
    if (sf.kind == CDYN_SURFACE_HEIGHTFIELD) {
        if (!cdyn__load_heightfield(L, &sf.hf))
            return false;
        uint8_t au = cdyn__in_u8(r), av = cdyn__in_u8(r), up = cdyn__in_u8(r);
        if (cdyn__load_ok(L) && (au > 2 || av > 2 || up > 2 || au == av || au == up ||
                                 av == up || up != sf.hf.up_axis))
            cdyn__in_fail(r, "surface: axes %u, %u, %u are not a height field's", au, av, up);
        sf.axis_u = au;
        sf.axis_v = av;
        sf.axis_up = up;
    }
    if (sf.kind == CDYN_SURFACE_CALLBACK && cdyn__load_ok(L)) {
        cdyn_callback_binding b;
        if (cdyn__load_callback(L, CDYN_CALLBACK_SURFACE, false, &b, &sf.tag)) {
            sf.fn = b.surface;
            sf.user = b.user;
            sf.time_dependent = cdyn__in_flag(r, "surface");
        }
    }
    if (!cdyn__load_ok(L) || !load_domain(L, &sf.du) || !load_domain(L, &sf.dv)) {
        cdyn__surface_free(&sf);
        return false;
    }
    *s = sf;
    return true;
}
