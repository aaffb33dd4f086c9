/* Grounds: storage, evaluation of H, the contact force and its Jacobian.
 * Internal. The public side is include/cdyn/ground.h; the model is in
 * docs/ground.md.
 *
 * Notation (per particle x, U below a ground, H(x) < 0):
 *   g = grad H, q = |g|, n = g / q, d = -H / q, v_n = n . U,
 *   N = max(0, S d - c v_n), U_t = U - v_n n, w = sqrt(|U_t|^2 + v_s^2),
 *   F = N n - mu N U_t / w.
 */
#ifndef CDYN__CONTACT_GROUND_H
#define CDYN__CONTACT_GROUND_H

#include <stdbool.h>
#include <stdint.h>

#include "cdyn/ground.h"
#include "core/handle.h"
#include "motion/motion.h"
#include "shapes/heightfield.h"

#define CDYN__GROUND_DEFAULT_STIFFNESS 1e4
#define CDYN__GROUND_DEFAULT_FRICTION_SPEED 1e-2

typedef struct cdyn__ground {
    uint8_t kind;   /* cdyn_ground_kind */
    uint8_t inside; /* sphere: particles stay inside */
    int up, ax0, ax1; /* height field: the up axis and the grid's x, y axes
                         (ax1 = -1 for a 2-D profile) */
    double p[4];    /* plane: unit normal (dim), offset in p[3];
                       sphere: centre (dim), radius in p[3] */
    double f_hi;    /* height field: an upper bound of f (quick rejection) */
    cdyn__heightfield hf; /* height field (owns its arrays) */
    cdyn_ground_fn fn;
    void *user;
    uint64_t tag; /* callback: what a snapshot holds in place of fn, user */
    double stiffness, damping, friction, friction_speed;
    /* The shape above is the ground's reference, which the carrier moves;
     * the surface velocity is the material's own velocity along the surface
     * (a conveyor belt), in that reference frame. */
    cdyn__carrier carrier;
    double surface_velocity[3];
} cdyn__ground;

typedef struct cdyn__grounds {
    cdyn__slots slots;
    cdyn__ground *g;
    uint32_t n_velocity_dependent; /* live grounds with damping or friction > 0 */
} cdyn__grounds;

/* A ground at one time: the frame of its motion and its surface velocity
 * in world axes, computed once per ground and evaluation. */
typedef struct cdyn__ground_at {
    double t;
    bool moving;         /* the frame is not the identity */
    cdyn__frame frame;
    double surface[3];   /* surface velocity, world axes */
} cdyn__ground_at;

/* Frees every ground and the store; sys->grounds becomes NULL. */
void cdyn__grounds_destroy(cdyn_system *sys);

/* Resolves a ground handle, recording the message on failure. */
cdyn_status cdyn__ground_slot(const cdyn_system *sys, cdyn_ground h, const char *what,
                              uint32_t *slot);

/* true when some live ground has damping or friction: its force depends on
 * velocities. */
bool cdyn__grounds_velocity_dependent(const cdyn_system *sys);

/* Ground @p g at time @p t. CDYN_ERR_CALLBACK from a callback motion. */
cdyn_status cdyn__ground_at_time(const cdyn_system *sys, const cdyn__ground *g, double t,
                                 cdyn__ground_at *at);

/* H, grad H (dim values) and, if @p hess is not NULL, the Hessian of H
 * (dim x dim row-major) of ground @p g at @p at and the point @p x, and if
 * @p w is not NULL the velocity of the ground's material there (dim
 * values: its motion, its surface velocity, a callback's velocity). A
 * callback's failure, non-finite output or (when @p below_needs_normal)
 * zero gradient below the ground gives CDYN_ERR_CALLBACK with the message
 * set. Never allocates. */
cdyn_status cdyn__ground_eval(const cdyn_system *sys, const cdyn__ground *g,
                              const cdyn__ground_at *at, const double *x,
                              bool below_needs_normal, double *h, double *grad, double *hess,
                              double *w);

/* true when grounds act on particle slot @p i: live, not fixed and not
 * kinematic (infinite inertia). The test is the fixed flag, not inv_mass,
 * so that particles another module moves (members of rigid bodies) still
 * feel grounds. */
bool cdyn__ground_acts_on(const cdyn_system *sys, size_t i);

/* true when the point @p x is certainly on or above @p g at @p at
 * (H >= 0), decided without evaluating H in full: a plane's or sphere's H,
 * a height field's upper bound. false means "maybe below" (always for
 * callbacks). */
bool cdyn__ground_surely_above(const cdyn__ground *g, const cdyn__ground_at *at, int dim,
                               const double *x);

/* The contact force of ground @p g at @p at on a particle at (x, u): normal
 * part into fn, friction into ff (dim values each, overwritten; zero above
 * the ground), the ground's velocity at x into w (dim values, may be
 * NULL). Friction and damping act on the velocity relative to the ground,
 * u - w. *in_contact tells whether H < 0. Returns CDYN_ERR_CALLBACK. */
cdyn_status cdyn__ground_force(const cdyn_system *sys, const cdyn__ground *g,
                               const cdyn__ground_at *at, const double *x, const double *u,
                               double *fn, double *ff, double *w, bool *in_contact);

/* The Jacobian blocks of that force: adds dF/dx into dfdx and dF/du into
 * dfdv (dim x dim row-major, entry [r * dim + c] = dF_r / d(x, u)_c; either
 * may be NULL), and if @p f is not NULL adds F into it. Nothing above the
 * ground. On a rotating ground dF/dx includes the change of the ground's
 * velocity with x; a callback's own velocity field is taken as uniform.
 * Returns CDYN_ERR_CALLBACK. */
cdyn_status cdyn__ground_jacobian(const cdyn_system *sys, const cdyn__ground *g,
                                  const cdyn__ground_at *at, const double *x, const double *u,
                                  double *f, double *dfdx, double *dfdv);

/* Adds the forces of every ground at time t and the state (x, v) into f
 * (per particle index, dim values each) for every particle they act on,
 * and into *power (may be NULL) the power sum F . w they deliver through
 * the grounds' own velocities (drive work). Returns CDYN_OK at once when
 * the system has no grounds; CDYN_ERR_CALLBACK (message set) when a
 * callback ground or motion fails. Never allocates. Called by the
 * dynamics before the constraint solve. */
cdyn_status cdyn__grounds_apply(const cdyn_system *sys, double t, const double *x,
                                const double *v, double *f, double *power);

/* For implicit integrators (backward Euler's Newton iteration): at time t
 * and the state (x, v), adds the ground forces into f (if not NULL) and
 * the Jacobian blocks of every ground into dfdx and dfdv (either may be
 * NULL). Ground forces on a particle depend on that particle's own state
 * only, so the Jacobian is block diagonal: particle index i owns the
 * dim x dim blocks at dfdx + i * dim * dim and dfdv + i * dim * dim,
 * row-major with entry [r * dim + c] = dF_r / dx_c (resp. dv_c). The
 * caller sizes the arrays for the index count and zeroes them (the
 * function adds). Particles grounds do not act on get nothing. Analytic
 * (callback grounds: central differences of grad H for the Hessian);
 * checked against central differences of the force in
 * tests/test_ground.c. Returns CDYN_OK at once without grounds,
 * CDYN_ERR_CALLBACK on a failing callback. Never allocates. */
cdyn_status cdyn__grounds_jacobian(const cdyn_system *sys, double t, const double *x,
                                   const double *v, double *f, double *dfdx, double *dfdv);

/* Penalty energy S H^2 / (2 |grad H|^2) summed over the particles below
 * ground @p g at @p at (or, for cdyn__grounds_energy, below every ground at
 * time t) at positions x. CDYN_ERR_CALLBACK on a failing callback. */
cdyn_status cdyn__ground_energy(const cdyn_system *sys, const cdyn__ground *g,
                                const cdyn__ground_at *at, const double *x, double *out);
cdyn_status cdyn__grounds_energy(const cdyn_system *sys, double t, const double *x, double *out);

#endif /* CDYN__CONTACT_GROUND_H */
