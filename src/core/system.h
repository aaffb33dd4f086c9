/* The system object: storage of particles and forces, the workspace of the
 * integrators, the error message. Internal to the library. */
#ifndef CDYN__SYSTEM_H
#define CDYN__SYSTEM_H

#include <stdbool.h>
#include <stdint.h>

#include "cdyn/force.h"
#include "cdyn/system.h"
#include "force/force.h"
#include "core/handle.h"

#define CDYN__ERROR_LEN 256

/* Scratch arrays of the integrators, each cap_len doubles (capacity * dim). */
typedef struct cdyn__workspace {
    double *block;
    size_t n_arrays;
    size_t cap_len;
    double *f;         /* force accumulator of the current evaluation */
    double *px, *pv;   /* Cartesian state of an evaluation when particles are on shapes */
    double *backup[4]; /* u, ud, x, v at the start of a step split at spline knots */
    double *stage[20]; /* integrator-specific */
} cdyn__workspace;

struct cdyn_system {
    cdyn_allocator alloc;
    int dim;
    uint16_t salt;
    bool in_step;

    double time;
    cdyn_integrator integrator;
    double rk45_abs_tol, rk45_rel_tol;
    double rk45_h;        /* next internal step size; 0 = choose afresh */
    uint64_t rk45_accepted, rk45_rejected;
    double newton_tol;        /* backward Euler: Newton tolerance */
    uint32_t newton_max_iter; /* backward Euler: Newton iteration cap */

    /* particles: per-slot arrays, x and v hold dim doubles per slot */
    cdyn__slots particles;
    double *x, *v;
    double *x_new, *v_new;   /* the state a step builds; swapped with x, v on success */
    /* The integrated (generalized) state. It aliases x, v until a particle is
     * put on a shape; from then on separate arrays in which a shape's slot
     * holds q, q' while x, v keep every particle's Cartesian state. */
    double *u, *ud;
    uint32_t *param_of; /* per slot: shape constraint slot + 1, or 0; NULL without shapes */
    uint32_t n_param;
    double *mass, *inv_mass; /* inv_mass is 0 for fixed and removed slots */
    uint8_t *fixed;

    /* force generators */
    cdyn__slots forces;
    cdyn__force *force;
    uint32_t n_velocity_dependent;

    cdyn__workspace ws;
    double step_dt; /* dt of the step in progress (or the last one) */

    struct cdyn__constraints *cons; /* NULL until the first constraint */
    struct cdyn__projection *proj;  /* SHAKE/RATTLE options and state; NULL until first use */
    bool skip_constraint_solve;     /* RATTLE: evaluations leave constraints to the projections */
    struct cdyn__grounds *grounds; /* NULL until the first ground */
    struct cdyn__rigids *rigids; /* NULL until the first rigid body */

    struct cdyn__be *be; /* backward Euler's Newton system; NULL until its first step */

    char error[CDYN__ERROR_LEN];
};

/* Records a formatted message as the system's last error and returns
 * @p status. Takes a const system: the message is the one mutable part of a
 * query (one thread per system, as documented). */
cdyn_status cdyn__fail(const cdyn_system *sys, cdyn_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Refuses changes from inside a step (a callback calling back in). */
cdyn_status cdyn__check_mutable(cdyn_system *sys, const char *what);

/* All values finite. */
bool cdyn__all_finite(const double *v, size_t n);

/* Resolves a particle handle, recording the error message on failure. */
cdyn_status cdyn__particle_slot(const cdyn_system *sys, cdyn_particle p, uint32_t *slot);

/* Makes room for one more particle slot. */
cdyn_status cdyn__particles_reserve(cdyn_system *sys);

/* Sizes the workspace for the current capacity and integrator. */
cdyn_status cdyn__workspace_ensure(cdyn_system *sys);
void cdyn__workspace_free(cdyn_system *sys);

#endif /* CDYN__SYSTEM_H */
