/* The system's struct: the base every module of the physics core includes.
 *
 * It holds the particles (per-slot arrays), the clock, the workspace of the
 * step and a pointer to each module's store. The stores' types are
 * incomplete here: a module that reads another store includes that store's
 * header, so the base depends on no module. The system's lifetime and bulk
 * API (src/system/) sit above every module. Internal. */
#ifndef CDYN__CORE_SYSTEM_H
#define CDYN__CORE_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cdyn/system.h"
#include "core/error.h"
#include "core/handle.h"
#include "core/tasks.h"

/* One state block per integrator, indexed by its cdyn_integrator value
 * (step/integrator.h): its options and counters. */
#define CDYN__INTEGRATOR_SLOTS 8

/* Scratch arrays of the step, each cap_len doubles (capacity * dim). */
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
    size_t alloc_size; /* bytes of this struct and the integrator states after it */
    int dim;
    uint16_t salt;
    bool in_step;
    /* User callbacks running now (core/callback.h): while any runs, calls
     * that would change the system are refused, whatever called it. */
    uint32_t in_callback;

    double time;
    cdyn_integrator integrator;
    void *integrator_state[CDYN__INTEGRATOR_SLOTS];

    /* particles: per-slot arrays, x and v hold dim doubles per slot */
    cdyn__slots particles;
    double *x, *v;
    double *x_new, *v_new;   /* the state a step builds; swapped with x, v on success */
    /* The integrated (generalized) state. It aliases x, v until a particle is
     * put on a shape; from then on separate arrays in which a shape's slot
     * holds q, q' while x, v keep every particle's Cartesian state. */
    double *u, *ud;
    struct cdyn__param **param_of; /* per slot: its record on a shape, or NULL; the array is
                                    * NULL without shapes (generalized/generalized.h) */
    uint32_t n_param;
    double *mass, *inv_mass; /* inv_mass is 0 for fixed, kinematic and removed slots */
    uint8_t *fixed;
    uint8_t *kinematic; /* 1: the particle follows a prescribed motion (kinematic/) */
    /* What holds a particle besides forces (core/holders.h): per slot, its
     * rigid body (body slot + 1, or 0) and the number of constraints on it.
     * Each array covers the slots below its cap; slots beyond are held by
     * nothing. */
    uint32_t *body_of, body_of_cap;
    uint32_t *constraints_of, constraints_of_cap;

    /* force generators (force/force.h) */
    cdyn__slots forces;
    struct cdyn__force *force;
    uint32_t n_velocity_dependent;
    uint32_t n_prepared; /* live generators with a prepare op (pair sets) */
    /* Split evaluations on the host's threads (force/force_split.c): per
     * block of split_block particle slots below split_particles, the generators
     * that split and act on it, split_inc[split_start[b] ..
     * split_start[b + 1]) as slot << 2 | (2: it holds the first end) |
     * (1: the second), in slot order; valid while the system's revision is
     * split_revision. The caps count elements. */
    uint32_t *split_start, *split_inc;
    uint32_t split_run[3]; /* the first run of such generators: first, end, live */
    uint32_t split_block;  /* particles per block */
    uint32_t split_particles, split_inc_cap, split_start_cap;
    uint64_t split_revision;
    bool split_valid;
    /* Applied forces (force/applied.h): per slot, dim doubles each, held
     * until cleared and for the next step. NULL until the first force is
     * applied; from then on grown with the particle arrays. The flags say
     * that an accumulator may hold a nonzero force. */
    double *applied_held, *applied_next;
    bool applied_on, applied_next_on;

    cdyn__workspace ws;
    double step_dt; /* dt of the step in progress (or the last one) */
    /* The host's task system (core/tasks.h): the heavy loops of a step go
     * through it; serial until cdyn_system_set_task_system. */
    cdyn__tasks tasks;

    struct cdyn__constraints *cons; /* NULL until the first constraint */
    struct cdyn__projection *proj;  /* SHAKE/RATTLE options and state; NULL until first use */
    bool skip_constraint_solve;     /* RATTLE: evaluations leave constraints to the projections */
    struct cdyn__grounds *grounds; /* NULL until the first ground */
    struct cdyn__rigids *rigids; /* NULL until the first rigid body */
    struct cdyn__kinematics *kin; /* kinematic particles' motions; NULL until the first */

    /* Drive work (dynamics/drive.h): the power the drivers delivered at
     * the last evaluation, the work of the step in progress and the work
     * since the system was created. */
    bool drives;         /* some driver exists (refreshed at each step) */
    uint32_t n_moving_shapes; /* curves and surfaces a motion carries (generalized/) */
    double drive_power, drive_step_work, drive_work;

    /* Bumped by every call that changes the system (cdyn__check_mutable):
     * what a step keeps from one step to the next (reused forces, the
     * clusters of a periodic box) is valid only while it stays the same. */
    uint64_t revision;
    struct cdyn__box *box;           /* periodic box (core/box.h); NULL without one */
    struct cdyn__reuse *reuse;       /* forces kept for the next step (step/reuse.h) */
    struct cdyn__langevin *langevin; /* Langevin thermostat (step/langevin.h); NULL: none */

    char error[CDYN__ERROR_LEN];
    uint64_t n_failures; /* messages recorded (core/error.h: cdyn__blame) */
};

/* Resolves a particle handle, recording the error message, which starts
 * with @p what (the public call), on failure. */
cdyn_status cdyn__particle_slot(const cdyn_system *sys, cdyn_particle p, const char *what,
                                uint32_t *slot);

/* Makes room for one more particle slot. */
cdyn_status cdyn__particles_reserve(cdyn_system *sys);

/* true when particle slot @p slot follows a prescribed motion. */
static inline bool cdyn__is_kinematic(const cdyn_system *sys, uint32_t slot)
{
    return sys->kinematic[slot] != 0;
}

#endif /* CDYN__CORE_SYSTEM_H */
