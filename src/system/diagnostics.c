/* Whole-system diagnostics at the committed state. */
#include "cdyn/diagnostics.h"

#include <string.h>

#include "ground/ground.h"
#include "force/force.h"
#include "core/system.h"

static cdyn_status prologue(const cdyn_system *sys, const void *out, const char *what)
{
    return cdyn__enter_query(sys, out, what);
}

cdyn_status cdyn_system_get_kinetic_energy(const cdyn_system *sys, double *out)
{
    cdyn_status st = prologue(sys, out, "get_kinetic_energy");
    if (st)
        return st;
    size_t d = (size_t)sys->dim;
    double e = 0;
    for (size_t i = 0; i < sys->particles.count; i++) {
        if (sys->fixed[i])
            continue;
        double v2 = 0;
        for (size_t k = 0; k < d; k++)
            v2 += sys->v[i * d + k] * sys->v[i * d + k];
        e += 0.5 * sys->mass[i] * v2;
    }
    *out = e;
    return CDYN_OK;
}

cdyn_status cdyn_system_get_potential_energy(const cdyn_system *sys, double *out)
{
    cdyn_status st = prologue(sys, out, "get_potential_energy");
    if (st)
        return st;
    double e = 0, eg = 0;
    const uint64_t mark = cdyn__failure_mark(sys);
    for (uint32_t i = 0; i < sys->forces.count; i++) {
        double ei;
        if (!sys->forces.alive[i])
            continue;
        if ((st = cdyn__force_energy(sys, &sys->force[i], sys->x, &ei)))
            return cdyn__blame(sys, st, mark, "get_potential_energy", NULL);
        e += ei;
    }
    if ((st = cdyn__grounds_energy(sys, sys->time, sys->x, &eg)))
        return cdyn__blame(sys, st, mark, "get_potential_energy", NULL);
    *out = e + eg;
    return CDYN_OK;
}

cdyn_status cdyn_system_get_momentum(const cdyn_system *sys, double *out)
{
    cdyn_status st = prologue(sys, out, "get_momentum");
    if (st)
        return st;
    size_t d = (size_t)sys->dim;
    double p[3] = {0, 0, 0};
    for (size_t i = 0; i < sys->particles.count; i++)
        if (!sys->fixed[i])
            for (size_t k = 0; k < d; k++)
                p[k] += sys->mass[i] * sys->v[i * d + k];
    memcpy(out, p, d * sizeof *out);
    return CDYN_OK;
}

cdyn_status cdyn_system_get_angular_momentum(const cdyn_system *sys, double out[3])
{
    cdyn_status st = prologue(sys, out, "get_angular_momentum");
    if (st)
        return st;
    size_t d = (size_t)sys->dim;
    double l[3] = {0, 0, 0};
    for (size_t i = 0; i < sys->particles.count; i++) {
        if (sys->fixed[i])
            continue;
        const double *x = sys->x + i * d, *v = sys->v + i * d;
        double m = sys->mass[i];
        if (d == 3) {
            l[0] += m * (x[1] * v[2] - x[2] * v[1]);
            l[1] += m * (x[2] * v[0] - x[0] * v[2]);
        }
        l[2] += m * (x[0] * v[1] - x[1] * v[0]);
    }
    memcpy(out, l, sizeof l);
    return CDYN_OK;
}

cdyn_status cdyn_system_get_center_of_mass(const cdyn_system *sys, double *out, double *total_mass)
{
    cdyn_status st = prologue(sys, out, "get_center_of_mass");
    if (st)
        return st;
    size_t d = (size_t)sys->dim;
    double c[3] = {0, 0, 0}, m = 0;
    for (size_t i = 0; i < sys->particles.count; i++) {
        if (sys->fixed[i])
            continue;
        m += sys->mass[i];
        for (size_t k = 0; k < d; k++)
            c[k] += sys->mass[i] * sys->x[i * d + k];
    }
    for (size_t k = 0; k < d; k++)
        out[k] = m > 0 ? c[k] / m : 0.0;
    if (total_mass)
        *total_mass = m;
    return CDYN_OK;
}
