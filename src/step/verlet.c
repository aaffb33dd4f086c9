/* Velocity Verlet: kick, drift, kick. */
#include "core/finite.h"
#include "core/system.h"
#include "core/tasks.h"
#include "dynamics/drive.h"
#include "dynamics/dynamics.h"
#include "step/integrator.h"
#include "step/reuse.h"

/* The two passes over the state on the host's threads (core/tasks.h):
 * fixed blocks of values, each writing its own; the finiteness bits are
 * or-ed, in any order the same. */
#define BLOCK_VALUES 32768u
#define PARALLEL_VALUES 131072.0

typedef struct pass_job {
    const double *u, *ud, *a;
    double *xn, *vn;
    double dt, h2;
    size_t n;
    int closing;
    uint64_t bad[1024];
} pass_job;

static void pass_task(uint32_t begin, uint32_t end, void *context)
{
    pass_job *j = context;
    for (uint32_t b = begin; b < end; b++) {
        const size_t i0 = (size_t)b * BLOCK_VALUES;
        const size_t i1 = j->n - i0 > BLOCK_VALUES ? i0 + BLOCK_VALUES : j->n;
        uint64_t bad = 0;
        if (j->closing)
            for (size_t i = i0; i < i1; i++) {
                j->vn[i] += j->h2 * j->a[i];
                bad |= cdyn__nonfinite_bit(j->vn[i]);
            }
        else
            for (size_t i = i0; i < i1; i++) {
                j->vn[i] = j->ud[i] + j->h2 * j->a[i];
                j->xn[i] = j->u[i] + j->dt * j->vn[i];
                bad |= cdyn__nonfinite_bit(j->xn[i]);
            }
        j->bad[b] = bad;
    }
}

/* Runs a pass in blocks when the system has a parallel task system and
 * enough values; returns false (nothing done) otherwise. */
static bool pass_split(const cdyn_system *sys, pass_job *j, uint64_t *bad)
{
    const uint32_t blocks = (uint32_t)((j->n + BLOCK_VALUES - 1) / BLOCK_VALUES);
    if (blocks > sizeof j->bad / sizeof j->bad[0] ||
        !cdyn__tasks_would_split(&sys->tasks, blocks, (double)j->n, PARALLEL_VALUES))
        return false;
    cdyn__tasks_run(&sys->tasks, blocks, 1, (double)j->n, 0.0, pass_task, j);
    for (uint32_t b = 0; b < blocks; b++)
        *bad |= j->bad[b];
    return true;
}

/* With velocity-dependent forces the closing kick would need a(x1, v1)
 * with v1 unknown: one predictor evaluation at v1* = vh + dt/2 a(x1, vh)
 * gives a(x1, v1) to O(dt^2), keeping order 2. Otherwise the closing
 * kick's accelerations are the next step's opening ones (step/reuse.h). */
cdyn_status cdyn__step_velocity_verlet(cdyn_system *sys, double dt, bool *finite)
{
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    double *a = sys->ws.f;
    double *xn = sys->x_new, *vn = sys->v_new;
    double h2 = 0.5 * dt, t1 = sys->time + dt;
    cdyn_status st;
    const double *a0 = cdyn__reuse_start(sys);
    if (!a0) {
        if ((st = cdyn__dynamics_accel(sys, sys->time, sys->u, sys->ud, a)))
            return st;
        cdyn__drive_accumulate(sys, h2);
        a0 = a;
    }
    /* The half-step velocity lives in vn (one array less to stream); the
     * predictor of velocity-dependent forces keeps a copy. */
    uint64_t bad = 0; /* the finiteness check made on the way (core/finite.h) */
    pass_job job = {sys->u, sys->ud, a0, xn, vn, dt, h2, n, 0, {0}};
    if (!pass_split(sys, &job, &bad))
        for (size_t i = 0; i < n; i++) {
            vn[i] = sys->ud[i] + h2 * a0[i];
            xn[i] = sys->u[i] + dt * vn[i];
            bad |= cdyn__nonfinite_bit(xn[i]);
        }
    double *a1 = cdyn__reuse_target(sys);
    if (!a1)
        a1 = a;
    if ((st = cdyn__dynamics_accel_closing(sys, t1, xn, vn, a0, a1)))
        return st;
    if (cdyn__dynamics_velocity_dependent(sys)) {
        double *vh = sys->ws.stage[0];
        for (size_t i = 0; i < n; i++) {
            vh[i] = vn[i];
            vn[i] = vh[i] + h2 * a1[i];
        }
        if ((st = cdyn__dynamics_accel(sys, t1, xn, vn, a1)))
            return st;
        for (size_t i = 0; i < n; i++)
            vn[i] = vh[i];
    }
    cdyn__drive_accumulate(sys, h2); /* the closing kick's evaluation */
    job.a = a1;
    job.closing = 1;
    if (!pass_split(sys, &job, &bad))
        for (size_t i = 0; i < n; i++) {
            vn[i] += h2 * a1[i];
            bad |= cdyn__nonfinite_bit(vn[i]);
        }
    *finite = bad == 0;
    return CDYN_OK;
}
