/* Ground queries at the committed state: H itself, contacts, penetration,
 * total forces, the contact force on every particle, energy, the Jacobian
 * of one contact. */
#include "ground/ground.h"

#include <math.h>
#include <string.h>

#include "core/system.h"
#include "core/finite.h"
#include "core/lookup.h"

/* System, handle, output present; the ground's slot. */
static cdyn_status prologue(const cdyn_system *sys, cdyn_ground ground, bool out_present,
                            const char *what, uint32_t *slot)
{
    return cdyn__enter_object(sys, out_present ? sys : NULL, what,
                              sys && sys->grounds ? &sys->grounds->slots : NULL, ground,
                              CDYN__KIND_GROUND, slot);
}

cdyn_status cdyn_ground_evaluate(const cdyn_system *sys, cdyn_ground ground, const double *x,
                                 double *h, double *grad)
{
    const char *what = "ground_evaluate";
    uint32_t i;
    cdyn_status st = prologue(sys, ground, x != NULL, what, &i);
    if (st)
        return st;
    if (!cdyn__all_finite(x, (size_t)sys->dim))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: x must be %d finite values", what,
                          sys->dim);
    double hv, gv[3];
    cdyn__ground_at at;
    const cdyn__ground *g = &sys->grounds->g[i];
    const uint64_t mark = cdyn__failure_mark(sys);
    if ((st = cdyn__ground_at_time(sys, g, sys->time, &at)) ||
        (st = cdyn__ground_eval(sys, g, &at, x, false, &hv, gv, NULL, NULL)))
        return cdyn__blame(sys, st, mark, what, NULL);
    if (h)
        *h = hv;
    if (grad)
        memcpy(grad, gv, (size_t)sys->dim * sizeof *grad);
    return CDYN_OK;
}

cdyn_status cdyn_ground_get_contact_count(const cdyn_system *sys, cdyn_ground ground,
                                          size_t *out)
{
    const char *what = "ground_get_contact_count";
    uint32_t gi;
    cdyn_status st = prologue(sys, ground, out != NULL, what, &gi);
    if (st)
        return st;
    const cdyn__ground *g = &sys->grounds->g[gi];
    size_t d = (size_t)sys->dim, count = 0;
    cdyn__ground_at at;
    const uint64_t mark = cdyn__failure_mark(sys);
    if ((st = cdyn__ground_at_time(sys, g, sys->time, &at)))
        return cdyn__blame(sys, st, mark, what, NULL);
    for (size_t i = 0; i < sys->particles.count; i++) {
        if (!cdyn__ground_acts_on(sys, i) ||
            cdyn__ground_surely_above(g, &at, sys->dim, sys->x + i * d))
            continue;
        double h, grad[3];
        if ((st = cdyn__ground_eval(sys, g, &at, sys->x + i * d, true, &h, grad, NULL, NULL)))
            return cdyn__blame(sys, st, mark, what, NULL);
        count += h < 0;
    }
    *out = count;
    return CDYN_OK;
}

cdyn_status cdyn_ground_get_penetration(const cdyn_system *sys, cdyn_ground ground,
                                        cdyn_particle particle, double *out)
{
    const char *what = "ground_get_penetration";
    uint32_t gi, pi;
    cdyn_status st = prologue(sys, ground, out != NULL, what, &gi);
    if (st || (st = cdyn__particle_slot(sys, particle, what, &pi)))
        return st;
    double h, grad[3];
    const double *x = sys->x + (size_t)pi * (size_t)sys->dim;
    const cdyn__ground *g = &sys->grounds->g[gi];
    cdyn__ground_at at;
    const uint64_t mark = cdyn__failure_mark(sys);
    if ((st = cdyn__ground_at_time(sys, g, sys->time, &at)) ||
        (st = cdyn__ground_eval(sys, g, &at, x, true, &h, grad, NULL, NULL)))
        return cdyn__blame(sys, st, mark, what, NULL);
    double q = 0;
    for (int k = 0; k < sys->dim; k++)
        q = hypot(q, grad[k]);
    *out = h < 0 ? -h / q : 0.0;
    return CDYN_OK;
}

cdyn_status cdyn_ground_get_total_force(const cdyn_system *sys, cdyn_ground ground,
                                        double normal[3], double friction[3])
{
    const char *what = "ground_get_total_force";
    uint32_t gi;
    cdyn_status st = prologue(sys, ground, true, what, &gi);
    if (st)
        return st;
    const cdyn__ground *g = &sys->grounds->g[gi];
    size_t d = (size_t)sys->dim;
    double sn[3] = {0, 0, 0}, sf[3] = {0, 0, 0};
    cdyn__ground_at at;
    const uint64_t mark = cdyn__failure_mark(sys);
    if ((st = cdyn__ground_at_time(sys, g, sys->time, &at)))
        return cdyn__blame(sys, st, mark, what, NULL);
    for (size_t i = 0; i < sys->particles.count; i++) {
        if (!cdyn__ground_acts_on(sys, i))
            continue;
        double fn[3], ff[3];
        bool in;
        if ((st = cdyn__ground_force(sys, g, &at, sys->x + i * d, sys->v + i * d, fn, ff, NULL,
                                     &in)))
            return cdyn__blame(sys, st, mark, what, NULL);
        for (size_t k = 0; in && k < d; k++) {
            sn[k] += fn[k];
            sf[k] += ff[k];
        }
    }
    if (normal)
        memcpy(normal, sn, sizeof sn);
    if (friction)
        memcpy(friction, sf, sizeof sf);
    return CDYN_OK;
}

cdyn_status cdyn_system_get_contact_forces(const cdyn_system *sys, double *out, size_t capacity)
{
    const char *what = "get_contact_forces";
    cdyn_status st = cdyn__enter_query(sys, out, what);
    if (st)
        return st;
    const size_t d = (size_t)sys->dim, n = (size_t)sys->particles.count * d;
    if (capacity < n)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: capacity %zu < %zu doubles needed", what, capacity, n);
    memset(out, 0, n * sizeof *out);
    const cdyn__grounds *gs = sys->grounds;
    const uint64_t mark = cdyn__failure_mark(sys);
    /* Ground by ground, as cdyn_ground_get_total_force sums them. */
    for (uint32_t gi = 0; gs && gi < gs->slots.count; gi++) {
        if (!gs->slots.alive[gi])
            continue;
        const cdyn__ground *g = &gs->g[gi];
        cdyn__ground_at at;
        if ((st = cdyn__ground_at_time(sys, g, sys->time, &at)))
            return cdyn__blame(sys, st, mark, what, NULL);
        for (size_t i = 0; i < sys->particles.count; i++) {
            if (!cdyn__ground_acts_on(sys, i))
                continue;
            double fn[3], ff[3];
            bool in;
            if ((st = cdyn__ground_force(sys, g, &at, sys->x + i * d, sys->v + i * d, fn, ff,
                                         NULL, &in)))
                return cdyn__blame(sys, st, mark, what, NULL);
            for (size_t k = 0; in && k < d; k++)
                out[i * d + k] += fn[k] + ff[k];
        }
    }
    return CDYN_OK;
}

cdyn_status cdyn_ground_get_energy(const cdyn_system *sys, cdyn_ground ground, double *out)
{
    const char *what = "ground_get_energy";
    uint32_t gi;
    cdyn_status st = prologue(sys, ground, out != NULL, what, &gi);
    if (st)
        return st;
    cdyn__ground_at at;
    const cdyn__ground *g = &sys->grounds->g[gi];
    const uint64_t mark = cdyn__failure_mark(sys);
    if (!(st = cdyn__ground_at_time(sys, g, sys->time, &at)))
        st = cdyn__ground_energy(sys, g, &at, sys->x, out);
    return cdyn__blame(sys, st, mark, what, NULL);
}

cdyn_status cdyn_ground_get_jacobian(const cdyn_system *sys, cdyn_ground ground,
                                     cdyn_particle particle, double *dfdx, double *dfdv)
{
    const char *what = "ground_get_jacobian";
    uint32_t gi, pi;
    cdyn_status st = prologue(sys, ground, true, what, &gi);
    if (st || (st = cdyn__particle_slot(sys, particle, what, &pi)))
        return st;
    size_t d = (size_t)sys->dim, off = (size_t)pi * d;
    double jx[9] = {0}, jv[9] = {0};
    const cdyn__ground *g = &sys->grounds->g[gi];
    cdyn__ground_at at;
    const uint64_t mark = cdyn__failure_mark(sys);
    if ((st = cdyn__ground_at_time(sys, g, sys->time, &at)))
        return cdyn__blame(sys, st, mark, what, NULL);
    if (cdyn__ground_acts_on(sys, pi) &&
        (st = cdyn__ground_jacobian(sys, g, &at, sys->x + off, sys->v + off, NULL, jx, jv)))
        return cdyn__blame(sys, st, mark, what, NULL);
    if (dfdx)
        memcpy(dfdx, jx, d * d * sizeof *dfdx);
    if (dfdv)
        memcpy(dfdv, jv, d * d * sizeof *dfdv);
    return CDYN_OK;
}
