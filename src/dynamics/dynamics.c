/* One evaluation of the equations of motion (docs/concepts.md): map the
 * generalized state to Cartesian space, apply force generators and grounds,
 * turn forces into unconstrained accelerations (through the shapes' mass
 * blocks for particles on curves and surfaces), add the implicit
 * constraints' accelerations, and map back to generalized accelerations. */
#include "dynamics/dynamics.h"

#include <string.h>

#include "constraint/constraint.h"
#include "core/system.h"
#include "core/tasks.h"
#include "dynamics/drive.h"
#include "force/applied.h"
#include "force/force.h"
#include "generalized/generalized.h"
#include "ground/ground.h"
#include "kinematic/kinematic.h"

/* a = W f; a may be f. Written per dimension so that the loop vectorizes. */
static void weigh_forces(const double *w, const double *f, double *a, size_t n, size_t d)
{
    if (d == 2) {
        for (size_t i = 0; i < n; i++) {
            a[2 * i] = w[i] * f[2 * i];
            a[2 * i + 1] = w[i] * f[2 * i + 1];
        }
    } else if (d == 3) {
        for (size_t i = 0; i < n; i++) {
            a[3 * i] = w[i] * f[3 * i];
            a[3 * i + 1] = w[i] * f[3 * i + 1];
            a[3 * i + 2] = w[i] * f[3 * i + 2];
        }
    } else {
        for (size_t i = 0; i < n; i++)
            for (size_t k = 0; k < d; k++)
                a[i * d + k] = w[i] * f[i * d + k];
    }
}

/* Particles per item of the parallel loops below, and the count from which
 * they go to the host's threads: a pass over the particles costs about a
 * nanosecond each. */
#define BLOCK_PARTICLES 16384u
/* Gravity generators the gravity-only path takes. */
#define GRAVITY_FAST_MAX 4
#define PARALLEL_PARTICLES 65536.0

static uint32_t blocks_of(size_t n)
{
    return (uint32_t)((n + BLOCK_PARTICLES - 1) / BLOCK_PARTICLES);
}

typedef struct gravity_job {
    const double *m, *w;
    double *a;
    const double *g[GRAVITY_FAST_MAX];
    size_t ng, d, n;
} gravity_job;

/* a = W sum m g over the particles of blocks [begin, end). */
static void gravity_task(uint32_t begin, uint32_t end, void *context)
{
    const gravity_job *job = context;
    const double *m = job->m, *w = job->w;
    double *a = job->a;
    const size_t d = job->d, ng = job->ng;
    const size_t i0 = (size_t)begin * BLOCK_PARTICLES;
    const size_t i1 = (size_t)end * BLOCK_PARTICLES < job->n ? (size_t)end * BLOCK_PARTICLES
                                                             : job->n;
    if (d == 2 && ng == 1) {
        const double g0 = job->g[0][0], g1 = job->g[0][1];
        for (size_t i = i0; i < i1; i++) {
            a[2 * i] = w[i] * (0.0 + m[i] * g0);
            a[2 * i + 1] = w[i] * (0.0 + m[i] * g1);
        }
        return;
    }
    for (size_t i = i0; i < i1; i++)
        for (size_t k = 0; k < d; k++) {
            double f = 0.0;
            for (size_t j = 0; j < ng; j++)
                f += m[i] * job->g[j][k];
            a[i * d + k] = w[i] * f;
        }
}

/* Every force generator is gravity (at most GRAVITY_FAST_MAX of them), and
 * there are no grounds, applied forces nor particles on shapes. */
static bool only_gravity(const cdyn_system *sys)
{
    if (sys->param_of || sys->grounds || sys->kin || cdyn__applied_active(sys))
        return false;
    size_t ng = 0;
    for (uint32_t i = 0; i < sys->forces.count; i++)
        if (sys->forces.alive[i] && (sys->force[i].ops != &cdyn__gravity_ops ||
                                     ++ng > GRAVITY_FAST_MAX))
            return false;
    return true;
}

/* When every force generator is gravity and there are no grounds, applied
 * forces nor particles on shapes (the common case), f = sum m g needs no accumulator:
 * it is formed per particle and a = W f written in one pass, instead of
 * clearing f, adding to it and scaling it (three passes over the state).
 * The same operations in the same order as cdyn__forces_apply on a cleared
 * f (0 + m g_1 + m g_2 ...), so the same bits. Returns 0 (nothing written)
 * when the case does not apply. */
static int gravity_only(const cdyn_system *sys, double *a)
{
    if (!only_gravity(sys))
        return 0;
    gravity_job job = {sys->mass, sys->inv_mass, a, {NULL}, 0, (size_t)sys->dim,
                       sys->particles.count};
    for (uint32_t i = 0; i < sys->forces.count; i++)
        if (sys->forces.alive[i])
            job.g[job.ng++] = sys->force[i].p;
    cdyn__tasks_run(&sys->tasks, blocks_of(job.n), 1, (double)job.n, PARALLEL_PARTICLES,
                    gravity_task, &job);
    return 1;
}

/* When the one force generator can write the accelerations itself (a pair
 * set of a liquid): the force accumulator is neither cleared, filled nor
 * read back, three passes over the state less. *done tells whether it did. */
static cdyn_status sole_generator(const cdyn_system *sys, double t, const double *x,
                                  const double *v, double *a, bool *done)
{
    *done = false;
    if (sys->param_of || sys->grounds || sys->kin || sys->forces.live != 1 ||
        cdyn__applied_active(sys))
        return CDYN_OK;
    for (uint32_t i = 0; i < sys->forces.count; i++) {
        const cdyn__force *g = &sys->force[i];
        if (sys->forces.alive[i])
            return g->ops->apply_accel ? g->ops->apply_accel(sys, g, t, x, v, a, done)
                                       : CDYN_OK;
    }
    return CDYN_OK;
}

cdyn_status cdyn__dynamics_accel(cdyn_system *sys, double t, const double *u, const double *ud,
                                 double *a)
{
    size_t d = (size_t)sys->dim, n = sys->particles.count;
    const double *x = u, *v = ud;
    cdyn_status st = CDYN_OK;
    if (sys->param_of) {
        if ((st = cdyn__params_to_cartesian(sys, t, u, ud, sys->ws.px, sys->ws.pv)))
            return st;
        x = sys->ws.px;
        v = sys->ws.pv;
    }
    if (sys->kin && sys->kin->count) {
        /* Kinematic particles are where their motions put them. */
        if (!sys->param_of) {
            memcpy(sys->ws.px, u, n * d * sizeof *u);
            memcpy(sys->ws.pv, ud, n * d * sizeof *ud);
        }
        if ((st = cdyn__kinematics_place(sys, t, sys->ws.px, sys->ws.pv, NULL)))
            return st;
        x = sys->ws.px;
        v = sys->ws.pv;
    }
    double ground_power = 0;
    bool done = false;
    if (gravity_only(sys, a) || (st = sole_generator(sys, t, x, v, a, &done)) || done) {
        if (st || (!sys->skip_constraint_solve && (st = cdyn__constraints_apply(sys, t, x, v, a))))
            return st;
    } else {
        double *f = sys->ws.f;
        memset(f, 0, n * d * sizeof *f);
        if ((st = cdyn__forces_apply(sys, t, x, v, f)) ||
            (st = cdyn__grounds_apply(sys, t, x, v, f, &ground_power)))
            return st;
        if (sys->param_of)
            cdyn__params_save_forces(sys, f);
        if (sys->kin)
            cdyn__kinematics_save_forces(sys, f);
        weigh_forces(sys->inv_mass, f, a, n, d);
        if (sys->param_of)
            cdyn__params_free_accel(sys, a);
        if (sys->kin)
            cdyn__kinematics_accelerations(sys, a);
        if (!sys->skip_constraint_solve && (st = cdyn__constraints_apply(sys, t, x, v, a)))
            return st;
    }
    if (sys->param_of)
        cdyn__params_generalized_accel(sys, a);
    /* Kinematic particles are on no shape: their entries of a are still
     * Cartesian. */
    if (sys->drives && (st = cdyn__drive_power(sys, t, x, v, a, ground_power)))
        return st;
    return CDYN_OK;
}

int cdyn__dynamics_velocity_dependent(const cdyn_system *sys)
{
    return sys->n_velocity_dependent > 0 ||
           (sys->cons && sys->cons->n_rows > 0 && !sys->skip_constraint_solve) ||
           sys->param_of != NULL || cdyn__grounds_velocity_dependent(sys);
}

bool cdyn__dynamics_shows_velocity(const cdyn_system *sys)
{
    if (sys->grounds)
        return true;
    for (uint32_t i = 0; i < sys->forces.count; i++)
        if (sys->forces.alive[i] && sys->force[i].ops == &cdyn__callback_ops)
            return true;
    return false;
}

cdyn_status cdyn__dynamics_accel_closing(cdyn_system *sys, double t1, const double *u1,
                                         const double *ud1, const double *a0, double *a1)
{
    const bool rows = sys->cons && sys->cons->n_rows > 0;
    if (!only_gravity(sys) || sys->drives || (rows && !sys->skip_constraint_solve))
        return cdyn__dynamics_accel(sys, t1, u1, ud1, a1);
    if (a1 != a0)
        memcpy(a1, a0, (size_t)sys->particles.count * (size_t)sys->dim * sizeof *a1);
    return CDYN_OK;
}
