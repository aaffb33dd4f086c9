/* The Euler family: explicit (forward) Euler and symplectic Euler, one
 * evaluation each. Each checks the new state as it writes it (*finite),
 * which spares the step driver a pass over it. */
#include "core/finite.h"
#include "core/system.h"
#include "core/tasks.h"
#include "dynamics/drive.h"
#include "dynamics/dynamics.h"
#include "step/integrator.h"

/* The update of the state in up to EULER_RANGES ranges of values, on the
 * host's threads when the values are many (core/tasks.h): each value is
 * computed alone and the ranges' non-finite bits are or-ed, so any split
 * gives the same result. */
#define EULER_RANGES 64u
#define EULER_RANGE_MIN 16384u
#define EULER_PARALLEL 65536.0

typedef struct euler_pass {
    const double *u, *ud, *a;
    double *xn, *vn;
    double dt;
    size_t n;
    uint32_t ranges;
    bool symplectic;
    uint64_t bad[EULER_RANGES];
} euler_pass;

/* Values [i0, i1); returns their non-finite bits. */
static uint64_t euler_values(const euler_pass *j, size_t i0, size_t i1)
{
    const double *u = j->u, *ud = j->ud, *a = j->a, dt = j->dt;
    double *xn = j->xn, *vn = j->vn;
    uint64_t bad = 0;
    if (j->symplectic) {
        for (size_t i = i0; i < i1; i++) {
            double vi = ud[i] + dt * a[i];
            double xi = u[i] + dt * vi;
            vn[i] = vi;
            xn[i] = xi;
            bad |= cdyn__nonfinite_bit(xi) | cdyn__nonfinite_bit(vi);
        }
    } else {
        for (size_t i = i0; i < i1; i++) {
            xn[i] = u[i] + dt * ud[i];
            vn[i] = ud[i] + dt * a[i];
            bad |= cdyn__nonfinite_bit(xn[i]) | cdyn__nonfinite_bit(vn[i]);
        }
    }
    return bad;
}

static void euler_task(uint32_t begin, uint32_t end, void *context)
{
    euler_pass *j = context;
    for (uint32_t k = begin; k < end; k++)
        j->bad[k] = euler_values(j, cdyn__tasks_range_start(k, j->n, j->ranges),
                                 cdyn__tasks_range_start(k + 1, j->n, j->ranges));
}

/* The step of @p sys from its accelerations in ws.f; *finite: the new
 * state is. */
static void euler_run(cdyn_system *sys, double dt, bool symplectic, bool *finite)
{
    euler_pass j = {.u = sys->u,
                    .ud = sys->ud,
                    .a = sys->ws.f,
                    .xn = sys->x_new,
                    .vn = sys->v_new,
                    .dt = dt,
                    .n = (size_t)sys->particles.count * (size_t)sys->dim,
                    .symplectic = symplectic};
    j.ranges = cdyn__tasks_ranges(j.n, EULER_RANGE_MIN, EULER_RANGES);
    cdyn__tasks_run(&sys->tasks, j.ranges, 1, (double)j.n, EULER_PARALLEL, euler_task, &j);
    uint64_t bad = 0;
    for (uint32_t k = 0; k < j.ranges; k++)
        bad |= j.bad[k];
    *finite = bad == 0;
}

/* x1 = x0 + h v0, v1 = v0 + h a(x0, v0). */
cdyn_status cdyn__step_explicit_euler(cdyn_system *sys, double dt, bool *finite)
{
    cdyn_status st = cdyn__dynamics_accel(sys, sys->time, sys->u, sys->ud, sys->ws.f);
    if (st)
        return st;
    cdyn__drive_accumulate(sys, dt);
    euler_run(sys, dt, false, finite);
    return CDYN_OK;
}

/* Velocity first, then position with the new velocity:
 * v1 = v0 + h a(x0, v0), x1 = x0 + h v1. */
cdyn_status cdyn__step_symplectic_euler(cdyn_system *sys, double dt, bool *finite)
{
    cdyn_status st = cdyn__dynamics_accel(sys, sys->time, sys->u, sys->ud, sys->ws.f);
    if (st)
        return st;
    cdyn__drive_accumulate(sys, dt);
    euler_run(sys, dt, true, finite);
    return CDYN_OK;
}
