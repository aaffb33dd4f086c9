/* Rigid-body queries and the velocity setters. Every value is derived from
 * the committed member positions and velocities (rigid/rigid.h). */
#include <math.h>
#include <string.h>

#include "generalized/generalized.h"
#include "rigid/rigid.h"
#include "rigid/rigid_math.h"
#include "core/system.h"
#include "core/vec.h"
#include "core/finite.h"
#include "core/lookup.h"

/* Arguments present, handle live. */
static cdyn_status lookup(const cdyn_system *sys, cdyn_rigid body, const void *ptr,
                          const char *what, const cdyn__rigid **r)
{
    uint32_t i;
    cdyn_status st = cdyn__enter_object(sys, ptr, what,
                                        sys && sys->rigids ? &sys->rigids->slots : NULL, body,
                                        CDYN__KIND_RIGID, &i);
    if (!st)
        *r = &sys->rigids->r[i];
    return st;
}

cdyn_status cdyn_rigid_get_particle_count(const cdyn_system *sys, cdyn_rigid body, size_t *out)
{
    const cdyn__rigid *r = NULL;
    cdyn_status st = lookup(sys, body, out, "rigid_get_particle_count", &r);
    if (!st)
        *out = r->n;
    return st;
}

cdyn_status cdyn_rigid_get_particles(const cdyn_system *sys, cdyn_rigid body, cdyn_particle *out,
                                     size_t capacity)
{
    const cdyn__rigid *r = NULL;
    cdyn_status st = lookup(sys, body, out, "rigid_get_particles", &r);
    if (st)
        return st;
    if (capacity < r->n)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "rigid_get_particles: capacity %zu < %u particles", capacity, r->n);
    for (uint32_t j = 0; j < r->n; j++) {
        uint32_t s = r->member[j];
        out[j] = cdyn__handle_make(CDYN__KIND_PARTICLE, sys->salt,
                                   sys->particles.generation[s], s);
    }
    return CDYN_OK;
}

cdyn_status cdyn_rigid_get_scheme(const cdyn_system *sys, cdyn_rigid body,
                                  cdyn_rigid_scheme *out)
{
    const cdyn__rigid *r = NULL;
    cdyn_status st = lookup(sys, body, out, "rigid_get_scheme", &r);
    if (!st)
        *out = (cdyn_rigid_scheme)r->scheme;
    return st;
}

cdyn_status cdyn_rigid_get_mass(const cdyn_system *sys, cdyn_rigid body, double *out)
{
    const cdyn__rigid *r = NULL;
    cdyn_status st = lookup(sys, body, out, "rigid_get_mass", &r);
    if (!st)
        *out = r->mass;
    return st;
}

cdyn_status cdyn_rigid_get_center_of_mass(const cdyn_system *sys, cdyn_rigid body, double *out)
{
    const cdyn__rigid *r = NULL;
    cdyn_status st = lookup(sys, body, out, "rigid_get_center_of_mass", &r);
    if (st)
        return st;
    double x[3];
    cdyn__rigid_state(sys, r, sys->x, sys->v, x, NULL, NULL, NULL);
    memcpy(out, x, (size_t)sys->dim * sizeof *out);
    return CDYN_OK;
}

cdyn_status cdyn_rigid_get_velocity(const cdyn_system *sys, cdyn_rigid body, double *out)
{
    const cdyn__rigid *r = NULL;
    cdyn_status st = lookup(sys, body, out, "rigid_get_velocity", &r);
    if (st)
        return st;
    double u[3];
    cdyn__rigid_state(sys, r, sys->x, sys->v, NULL, u, NULL, NULL);
    memcpy(out, u, (size_t)sys->dim * sizeof *out);
    return CDYN_OK;
}

cdyn_status cdyn_rigid_get_angular_momentum(const cdyn_system *sys, cdyn_rigid body,
                                            double out[3])
{
    const cdyn__rigid *r = NULL;
    cdyn_status st = lookup(sys, body, out, "rigid_get_angular_momentum", &r);
    if (!st)
        cdyn__rigid_state(sys, r, sys->x, sys->v, NULL, NULL, out, NULL);
    return st;
}

cdyn_status cdyn_rigid_get_angular_velocity(const cdyn_system *sys, cdyn_rigid body,
                                            double out[3])
{
    const cdyn__rigid *r = NULL;
    cdyn_status st = lookup(sys, body, out, "rigid_get_angular_velocity", &r);
    if (st)
        return st;
    double l[3], q[9];
    cdyn__rigid_state(sys, r, sys->x, sys->v, NULL, NULL, l, q);
    cdyn__rigid_omega(sys->dim, r, q, l, out);
    return CDYN_OK;
}

cdyn_status cdyn_rigid_get_inertia(const cdyn_system *sys, cdyn_rigid body, double out[9])
{
    const cdyn__rigid *r = NULL;
    cdyn_status st = lookup(sys, body, out, "rigid_get_inertia", &r);
    if (st)
        return st;
    size_t d = (size_t)sys->dim;
    double X[3], I[9] = {0};
    cdyn__rigid_state(sys, r, sys->x, sys->v, X, NULL, NULL, NULL);
    for (uint32_t k = 0; k < r->n; k++) {
        size_t i = r->member[k];
        double m = sys->mass[i], e[3] = {0, 0, 0};
        for (size_t c = 0; c < d; c++)
            e[c] = sys->x[i * d + c] - X[c];
        double ee = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++)
                I[a * 3 + c] += m * ((a == c ? ee : 0.0) - e[a] * e[c]);
    }
    memcpy(out, I, sizeof I);
    return CDYN_OK;
}

cdyn_status cdyn_rigid_get_body_inertia(const cdyn_system *sys, cdyn_rigid body, double out[9])
{
    const cdyn__rigid *r = NULL;
    cdyn_status st = lookup(sys, body, out, "rigid_get_body_inertia", &r);
    if (!st)
        memcpy(out, r->ib, sizeof r->ib);
    return st;
}

cdyn_status cdyn_rigid_get_orientation(const cdyn_system *sys, cdyn_rigid body, double out[9])
{
    const cdyn__rigid *r = NULL;
    cdyn_status st = lookup(sys, body, out, "rigid_get_orientation", &r);
    if (!st)
        cdyn__rigid_state(sys, r, sys->x, sys->v, NULL, NULL, NULL, out);
    return st;
}

cdyn_status cdyn_rigid_get_kinetic_energy(const cdyn_system *sys, cdyn_rigid body,
                                          double *translational, double *rotational)
{
    const cdyn__rigid *r = NULL;
    const void *any = translational ? (const void *)translational : (const void *)rotational;
    cdyn_status st = lookup(sys, body, any, "rigid_get_kinetic_energy", &r);
    if (st)
        return st;
    double u[3], l[3], q[9], w[3];
    cdyn__rigid_state(sys, r, sys->x, sys->v, NULL, u, l, q);
    cdyn__rigid_omega(sys->dim, r, q, l, w);
    if (translational)
        *translational = 0.5 * r->mass * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (rotational)
        *rotational = 0.5 * (l[0] * w[0] + l[1] * w[1] + l[2] * w[2]);
    return CDYN_OK;
}

/* Writes v = U + Omega x (x - X) into every member's committed velocity. */
static void write_velocities(cdyn_system *sys, const cdyn__rigid *r, const double X[3],
                             const double U[3], const double w[3])
{
    size_t d = (size_t)sys->dim;
    for (uint32_t k = 0; k < r->n; k++) {
        size_t i = r->member[k];
        double rel[3] = {0, 0, 0}, wr[3];
        for (size_t c = 0; c < d; c++)
            rel[c] = sys->x[i * d + c] - X[c];
        cdyn__v3_cross(wr, w, rel);
        for (size_t c = 0; c < d; c++)
            sys->v[i * d + c] = U[c] + wr[c];
        (void)cdyn__params_sync_slot(sys, (uint32_t)i); /* a free particle: a copy */
    }
}

/* Prologue of the setters: not in a step, input present and finite. */
static cdyn_status lookup_set(cdyn_system *sys, cdyn_rigid body, const double *in, size_t n_in,
                              const char *what, const cdyn__rigid **r)
{
    cdyn_status st = cdyn__check_mutable(sys, what);
    if (st || (st = lookup(sys, body, in, what, r)))
        return st;
    if (!cdyn__all_finite(in, n_in))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: non-finite value", what);
    return CDYN_OK;
}

cdyn_status cdyn_rigid_set_velocity(cdyn_system *sys, cdyn_rigid body, const double *velocity)
{
    const char *what = "rigid_set_velocity";
    const cdyn__rigid *r = NULL;
    cdyn_status st = lookup_set(sys, body, velocity, sys ? (size_t)sys->dim : 0, what, &r);
    if (st)
        return st;
    double X[3], l[3], q[9], w[3], U[3] = {0, 0, 0};
    cdyn__rigid_state(sys, r, sys->x, sys->v, X, NULL, l, q);
    cdyn__rigid_omega(sys->dim, r, q, l, w);
    memcpy(U, velocity, (size_t)sys->dim * sizeof *U);
    write_velocities(sys, r, X, U, w);
    return CDYN_OK;
}

cdyn_status cdyn_rigid_set_angular_velocity(cdyn_system *sys, cdyn_rigid body,
                                            const double omega[3])
{
    const char *what = "rigid_set_angular_velocity";
    const cdyn__rigid *r = NULL;
    cdyn_status st = lookup_set(sys, body, omega, 3, what, &r);
    if (st)
        return st;
    if (sys->dim == 2 && (omega[0] != 0 || omega[1] != 0))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: in 2-D the angular velocity is (0, 0, w); got in-plane parts "
                          "%g, %g",
                          what, omega[0], omega[1]);
    double X[3], U[3];
    cdyn__rigid_state(sys, r, sys->x, sys->v, X, U, NULL, NULL);
    write_velocities(sys, r, X, U, omega);
    return CDYN_OK;
}
