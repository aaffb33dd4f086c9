/* Force generators: storage and evaluation. Internal. */
#ifndef CDYN__FORCE_H
#define CDYN__FORCE_H

#include <stddef.h>
#include <stdint.h>

#include "cdyn/force.h"

typedef struct cdyn__force {
    uint8_t kind;               /* cdyn_force_kind */
    uint8_t velocity_dependent;
    uint32_t a, b;              /* particle slots (springs) */
    double p[3];                /* gravity: g; spring: S, D, R0; drag: b */
    cdyn_force_fn fn;
    cdyn_force_jacobian_fn jac; /* callbacks: user Jacobian, or NULL */
    void *user;
    struct cdyn__pair *pair; /* pair potentials: owned */
} cdyn__force;

/* Adds the force of every live generator at state (x, v) into f (zeroed by
 * the caller). Returns CDYN_ERR_CALLBACK (message set) if a callback fails. */
cdyn_status cdyn__forces_apply(const cdyn_system *sys, double t, const double *x,
                               const double *v, double *f);

/* Potential energy of one generator at state x. */
double cdyn__force_energy(const cdyn_system *sys, const cdyn__force *g, const double *x);

/* Spring: adds its force on a and b into f. */
void cdyn__spring_apply(const cdyn__force *s, int dim, const double *x, const double *v,
                        double *f);
/* Spring tension T at state (x, v). */
double cdyn__spring_tension(const cdyn__force *s, int dim, const double *x, const double *v);
double cdyn__spring_energy(const cdyn__force *s, int dim, const double *x);

/* Spring Jacobian at state (x, v) for implicit integrators: writes
 * K = dF_a/dx_b and C = dF_a/dv_b (dim x dim row-major, entry [r * dim + c]).
 * The other blocks follow from F_b = -F_a and d = x_b - x_a:
 * dF_a/dx_a = dF_b/dx_b = -K, dF_b/dx_a = K, and likewise for C. With
 * n = d / l, w = v_b - v_a, T the tension:
 *     K = n (S n + D g)^T + (T / l) (I - n n^T),  g = (I - n n^T) w / l,
 *     C = D n n^T.
 * K is not symmetric when D w has a component across the spring. With
 * @p definite, a negative T / l (a compressed spring's transverse
 * stiffness, which can make the Newton matrix indefinite) is replaced by 0.
 * Returns 0 (blocks zero) when the ends coincide, 1 otherwise. */
int cdyn__spring_jacobian(const cdyn__force *s, int dim, const double *x, const double *v,
                          int definite, double *k, double *c);

/* Uniform fields on all particles. */
void cdyn__gravity_apply(const cdyn_system *sys, const cdyn__force *g, double *f);
double cdyn__gravity_energy(const cdyn_system *sys, const cdyn__force *g, const double *x);
void cdyn__drag_apply(const cdyn_system *sys, const cdyn__force *g, const double *v, double *f);
/* Drag Jacobian: dF_i/dv_i = -b I for every particle (written into the
 * dim x dim block @p dfdv), dF/dx = 0; gravity's Jacobian is zero. */
void cdyn__drag_jacobian(const cdyn__force *g, int dim, double *dfdv);

/* Stores generator @p g in a new slot (the pool grows before anything is
 * taken, so CDYN_ERR_NO_MEMORY changes nothing) and hands out its handle. */
cdyn_status cdyn__force_insert(cdyn_system *sys, const cdyn__force *g, cdyn_force *out,
                               const char *what);

/* Removes every spring attached to particle slot @p slot. */
void cdyn__forces_detach_particle(cdyn_system *sys, uint32_t slot);

#endif /* CDYN__FORCE_H */
