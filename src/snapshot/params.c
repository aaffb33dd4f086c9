/* Particles on curves and surfaces in snapshots: the record that holds a
 * particle on its shape (generalized/generalized.h), written with the
 * constraint that owns it (snapshot/constraints.c).
 *
 *     u8 arc, [arc-length domain: f64 lo, hi, u8 lo end, u8 hi end],
 *     f64 x 34 caches of the last evaluation (r' columns, (m r'^T r')^-1,
 *     c, W, f, f_c, N, dr/dt), carrier, curve or surface
 *
 * The record's particle and coordinate count come from its constraint. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/system.h"
#include "generalized/generalized.h"
#include "snapshot/snapshot.h"

/* The caches of a record, in the order written. */
#define N_CACHES 34

static void caches_out(const cdyn__param *p, double v[N_CACHES])
{
    memcpy(v, p->rq, 6 * sizeof *v);
    memcpy(v + 6, p->minv, 4 * sizeof *v);
    memcpy(v + 10, p->c, 3 * sizeof *v);
    memcpy(v + 13, p->w, 9 * sizeof *v);
    memcpy(v + 22, p->f, 3 * sizeof *v);
    memcpy(v + 25, p->fc, 3 * sizeof *v);
    memcpy(v + 28, p->normal, 3 * sizeof *v);
    memcpy(v + 31, p->wt, 3 * sizeof *v);
}

static void caches_in(cdyn__param *p, const double v[N_CACHES])
{
    memcpy(p->rq, v, 6 * sizeof *v);
    memcpy(p->minv, v + 6, 4 * sizeof *v);
    memcpy(p->c, v + 10, 3 * sizeof *v);
    memcpy(p->w, v + 13, 9 * sizeof *v);
    memcpy(p->f, v + 22, 3 * sizeof *v);
    memcpy(p->fc, v + 25, 3 * sizeof *v);
    memcpy(p->normal, v + 28, 3 * sizeof *v);
    memcpy(p->wt, v + 31, 3 * sizeof *v);
}

static void save_domain_of(cdyn__save *S, const cdyn__domain *d)
{
    cdyn__out_f64(&S->w, d->lo);
    cdyn__out_f64(&S->w, d->hi);
    cdyn__out_u8(&S->w, (uint8_t)d->lo_end);
    cdyn__out_u8(&S->w, (uint8_t)d->hi_end);
}

void cdyn__save_param(cdyn__save *S, const cdyn__param *p)
{
    cdyn__out_u8(&S->w, p->arc ? 1 : 0);
    if (p->arc)
        save_domain_of(S, &p->arc_dom);
    double v[N_CACHES];
    caches_out(p, v);
    cdyn__out_f64s(&S->w, v, N_CACHES);
    cdyn__save_carrier(S, &p->carrier);
    if (p->k == 1)
        cdyn__save_curve(S, &p->curve);
    else
        cdyn__save_surface(S, &p->surface);
}

cdyn__param *cdyn__load_param(cdyn__load *L, int k, uint32_t slot)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    cdyn__param *p = cdyn__calloc_array(&sys->alloc, 1, sizeof *p);
    if (!p) {
        cdyn__load_oom(L, "shape record");
        return NULL;
    }
    p->k = k;
    p->slot = slot;
    p->arc = cdyn__in_flag(r, "shape record");
    if (p->arc) {
        /* A cycloid's arc-length interval with its (hard) ends. */
        double lo = cdyn__in_f64(r), hi = cdyn__in_f64(r);
        uint8_t le = cdyn__in_u8(r), he = cdyn__in_u8(r);
        if (cdyn__load_ok(L) && (!isfinite(lo) || !isfinite(hi) || !(lo < hi) ||
                                 le > CDYN__END_SINGULAR || he > CDYN__END_SINGULAR))
            cdyn__in_fail(r, "shape record: arc-length domain [%g, %g] is not one", lo, hi);
        p->arc_dom = cdyn__domain_interval(lo, hi, (cdyn__end)le, (cdyn__end)he);
    }
    /* The last evaluation's, finite or not (it may have been a failed
     * step's): read as bits. */
    double v[N_CACHES];
    cdyn__in_f64s(r, v, N_CACHES);
    caches_in(p, v);
    bool shape_ok = false;
    if (cdyn__load_ok(L) && cdyn__load_carrier(L, &p->carrier))
        shape_ok = k == 1 ? cdyn__load_curve(L, &p->curve) : cdyn__load_surface(L, &p->surface);
    if (shape_ok && (k == 2 ? sys->dim != 3 : (p->arc != (p->curve.kind == CDYN_CURVE_CYCLOID))))
        cdyn__in_fail(r, "shape record: a surface in 2-D or a cycloid without arc length");
    if (!cdyn__load_ok(L)) {
        if (shape_ok)
            cdyn__param_free(sys, p);
        else
            cdyn__free_array(&sys->alloc, p, 1, sizeof *p);
        return NULL;
    }
    return p;
}

