/* Runge-Kutta integrators on the first-order system y = (x, v), y' = (v, a):
 * classical RK4 and the adaptive Dormand-Prince pair with its options. */
#include "step/runge_kutta.h"

#include <math.h>
#include <string.h>

#include "core/system.h"
#include "core/tasks.h"
#include "dynamics/drive.h"
#include "dynamics/dynamics.h"
#include "step/integrator.h"

/* RK4's passes over the state, in fixed blocks of values on the host's
 * threads when the values are many (core/tasks.h): each value is computed
 * alone, so any split gives the same bits. */
#define RK4_BLOCK 16384u
#define RK4_PARALLEL 65536.0

enum { RK4_FIRST, RK4_MIDDLE, RK4_LAST };

typedef struct rk4_pass {
    const double *x, *v, *a;
    double *xn, *vn, *xs, *vs;
    double w, c; /* this stage's weight; the next stage's offset (times dt) */
    size_t n;
    int kind;
} rk4_pass;

/* Values [i0, i1): the stage's share of the result and the next stage's
 * state (the first stage's slopes are v and a). */
static void rk4_values(const rk4_pass *j, size_t i0, size_t i1)
{
    const double *x = j->x, *v = j->v, *a = j->a;
    double *xn = j->xn, *vn = j->vn, *xs = j->xs, *vs = j->vs;
    const double w = j->w, c = j->c;
    switch (j->kind) {
    case RK4_FIRST:
        for (size_t i = i0; i < i1; i++) {
            xn[i] = x[i] + w * v[i];
            vn[i] = v[i] + w * a[i];
            xs[i] = x[i] + c * v[i];
            vs[i] = v[i] + c * a[i];
        }
        break;
    case RK4_MIDDLE:
        for (size_t i = i0; i < i1; i++) {
            xn[i] += w * vs[i];
            vn[i] += w * a[i];
            xs[i] = x[i] + c * vs[i];
            vs[i] = v[i] + c * a[i];
        }
        break;
    default:
        for (size_t i = i0; i < i1; i++) {
            xn[i] += w * vs[i];
            vn[i] += w * a[i];
        }
        break;
    }
}

static void rk4_task(uint32_t begin, uint32_t end, void *context)
{
    const rk4_pass *j = context;
    const size_t i1 = (size_t)end * RK4_BLOCK;
    rk4_values(j, (size_t)begin * RK4_BLOCK, i1 < j->n ? i1 : j->n);
}

static void rk4_run(const cdyn_system *sys, rk4_pass *j, int kind, double w, double c)
{
    j->kind = kind;
    j->w = w;
    j->c = c;
    const size_t blocks = (j->n + RK4_BLOCK - 1) / RK4_BLOCK;
    if (blocks > UINT32_MAX) {
        rk4_values(j, 0, j->n);
        return;
    }
    cdyn__tasks_run(&sys->tasks, (uint32_t)blocks, 1, (double)j->n, RK4_PARALLEL, rk4_task, j);
}

/* Classical RK4; the result is accumulated stage by stage into x_new, v_new. */
cdyn_status cdyn__step_rk4(cdyn_system *sys, double dt, bool *finite)
{
    (void)finite;
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    const double *x = sys->u, *v = sys->ud;
    double *xs = sys->ws.stage[0], *vs = sys->ws.stage[1], *a = sys->ws.f;
    rk4_pass j = {.x = x, .v = v, .a = a, .xn = sys->x_new, .vn = sys->v_new, .xs = xs,
                  .vs = vs, .n = n};
    double t = sys->time, h2 = 0.5 * dt, h3 = dt / 3.0, h6 = dt / 6.0;
    cdyn_status st;

    if ((st = cdyn__dynamics_accel(sys, t, x, v, a)))
        return st;
    cdyn__drive_accumulate(sys, h6);
    rk4_run(sys, &j, RK4_FIRST, h6, h2);
    if ((st = cdyn__dynamics_accel(sys, t + h2, xs, vs, a)))
        return st;
    cdyn__drive_accumulate(sys, h3);
    rk4_run(sys, &j, RK4_MIDDLE, h3, h2);
    if ((st = cdyn__dynamics_accel(sys, t + h2, xs, vs, a)))
        return st;
    cdyn__drive_accumulate(sys, h3);
    rk4_run(sys, &j, RK4_MIDDLE, h3, dt);
    if ((st = cdyn__dynamics_accel(sys, t + dt, xs, vs, a)))
        return st;
    cdyn__drive_accumulate(sys, h6);
    rk4_run(sys, &j, RK4_LAST, h6, 0.0);
    return CDYN_OK;
}

/* Dormand-Prince 5(4) tableau (Dormand & Prince 1980). */
static const double DP_C[7] = {0.0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0};
static const double DP_A[7][6] = {
    {0},
    {1.0 / 5},
    {3.0 / 40, 9.0 / 40},
    {44.0 / 45, -56.0 / 15, 32.0 / 9},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
    {35.0 / 384, 0.0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84},
};
/* Fifth-order weights minus the embedded fourth-order ones. */
static const double DP_E[7] = {71.0 / 57600,  0.0,         -71.0 / 16695, 71.0 / 1920,
                               -17253.0 / 339200, 22.0 / 525, -1.0 / 40};

#define RK45_MAX_SUBSTEPS 1000000u

/* RK45's passes over the state in up to RK45_RANGES ranges of values, on
 * the host's threads when the values are many: each value is computed
 * alone and the ranges' errors are combined by their maximum, so any split
 * gives the same result. */
#define RK45_RANGES 64u
#define RK45_RANGE_MIN 16384u
#define RK45_PARALLEL 65536.0

enum { RK45_STAGE, RK45_ERROR, RK45_ACCEPT };

typedef struct rk45_pass {
    double **kx, **kv; /* the stages' slopes (the caller swaps them) */
    double *xc, *vc, *xw, *vw;
    double h, atol, rtol;
    size_t n;
    uint32_t ranges;
    int kind, k; /* the pass; the stage it forms */
    double err[RK45_RANGES];
} rk45_pass;

/* Values [i0, i1) of the pass; returns the error norm of a RK45_ERROR
 * pass over them (a NaN counts as infinite). */
static double rk45_values(const rk45_pass *j, size_t i0, size_t i1)
{
    double *const *kx = j->kx, *const *kv = j->kv;
    double *xc = j->xc, *vc = j->vc, *xw = j->xw, *vw = j->vw;
    const double h = j->h;
    double err = 0;
    switch (j->kind) {
    case RK45_STAGE: {
        const int k = j->k;
        for (size_t i = i0; i < i1; i++) {
            double dx = 0, dv = 0;
            for (int q = 0; q < k; q++) {
                dx += DP_A[k][q] * kx[q][i];
                dv += DP_A[k][q] * kv[q][i];
            }
            xc[i] = xw[i] + h * dx;
            vc[i] = vw[i] + h * dv;
            kx[k][i] = vc[i];
        }
        break;
    }
    case RK45_ERROR:
        for (size_t i = i0; i < i1; i++) {
            double ex = 0, ev = 0;
            for (int q = 0; q < 7; q++) {
                ex += DP_E[q] * kx[q][i];
                ev += DP_E[q] * kv[q][i];
            }
            double sx = j->atol + j->rtol * fmax(fabs(xw[i]), fabs(xc[i]));
            double sv = j->atol + j->rtol * fmax(fabs(vw[i]), fabs(vc[i]));
            double e = fmax(fabs(h * ex) / sx, fabs(h * ev) / sv);
            if (!(e <= err))
                err = isnan(e) ? INFINITY : e;
        }
        break;
    default:
        memcpy(xw + i0, xc + i0, (i1 - i0) * sizeof *xw);
        memcpy(vw + i0, vc + i0, (i1 - i0) * sizeof *vw);
        break;
    }
    return err;
}

static void rk45_task(uint32_t begin, uint32_t end, void *context)
{
    rk45_pass *j = context;
    for (uint32_t r = begin; r < end; r++)
        j->err[r] = rk45_values(j, cdyn__tasks_range_start(r, j->n, j->ranges),
                                cdyn__tasks_range_start(r + 1, j->n, j->ranges));
}

/* Runs pass @p kind (forming stage @p k) over every value; returns the
 * error norm of a RK45_ERROR pass. */
static double rk45_run(const cdyn_system *sys, rk45_pass *j, int kind, int k)
{
    j->kind = kind;
    j->k = k;
    cdyn__tasks_run(&sys->tasks, j->ranges, 1, (double)j->n, RK45_PARALLEL, rk45_task, j);
    double err = 0;
    for (uint32_t r = 0; kind == RK45_ERROR && r < j->ranges; r++)
        if (!(j->err[r] <= err))
            err = j->err[r];
    return err;
}

/* Error-controlled substeps covering dt. The accepted state is carried in
 * x_new, v_new; stage k's velocity and acceleration are kx[k], kv[k]. The
 * last stage is evaluated at the accepted state (first same as last). */
static cdyn_status rk45(cdyn_system *sys, cdyn__rk45 *rk, double dt)
{
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    double **s = sys->ws.stage;
    double *kx[7], *kv[7];
    for (int k = 0; k < 7; k++) {
        kx[k] = s[k];
        kv[k] = s[7 + k];
    }
    double *xc = s[14], *vc = s[15];
    double *xw = sys->x_new, *vw = sys->v_new;
    memcpy(xw, sys->u, n * sizeof *xw);
    memcpy(vw, sys->ud, n * sizeof *vw);

    double t = sys->time, t_end = sys->time + dt;
    double h0 = rk->h > 0 ? rk->h : rk->opt.initial_step;
    double h = h0 > 0 && h0 < dt ? h0 : dt;
    const double h_max = rk->opt.max_step; /* 0: no bound */
    double power[7]; /* the drivers' power at each stage (dynamics/drive.h) */
    double atol = rk->opt.abs_tol, rtol = rk->opt.rel_tol;
    cdyn_status st;
    uint64_t accepted = 0, rejected = 0;

    rk45_pass pass = {.kx = kx, .kv = kv, .xc = xc, .vc = vc, .xw = xw, .vw = vw,
                      .atol = atol, .rtol = rtol, .n = n};
    pass.ranges = cdyn__tasks_ranges(n, RK45_RANGE_MIN, RK45_RANGES);

    memcpy(kx[0], vw, n * sizeof *vw);
    if ((st = cdyn__dynamics_accel(sys, t, xw, vw, kv[0])))
        return st;
    power[0] = sys->drive_power;
    for (unsigned iter = 0;; iter++) {
        if (iter >= RK45_MAX_SUBSTEPS)
            return cdyn__fail(sys, CDYN_ERR_NOT_CONVERGED,
                              "step (RK45): more than %u internal steps for dt = %g",
                              RK45_MAX_SUBSTEPS, dt);
        if (h_max > 0 && h > h_max)
            h = h_max;
        bool last = t + h >= t_end;
        if (last)
            h = t_end - t;
        pass.h = h;
        for (int k = 1; k < 7; k++) {
            rk45_run(sys, &pass, RK45_STAGE, k);
            if ((st = cdyn__dynamics_accel(sys, t + DP_C[k] * h, xc, vc, kv[k])))
                return st;
            power[k] = sys->drive_power;
        }
        /* Stage 7 was evaluated at the fifth-order solution (xc, vc). */
        const double err = rk45_run(sys, &pass, RK45_ERROR, 0);
        double factor = err > 0 ? 0.9 * pow(err, -0.2) : 5.0;
        factor = fmin(5.0, fmax(0.2, factor));
        if (err <= 1.0) {
            accepted++;
            /* The work over the substep with the fifth-order weights (the
             * last stage has weight 0: it starts the next substep). */
            double work = 0;
            for (int q = 0; q < 6; q++)
                work += DP_A[6][q] * power[q];
            cdyn__drive_add(sys, h * work);
            power[0] = power[6];
            t = last ? t_end : t + h;
            rk45_run(sys, &pass, RK45_ACCEPT, 0);
            double *tmp = kx[0];
            kx[0] = kx[6], kx[6] = tmp;
            tmp = kv[0], kv[0] = kv[6], kv[6] = tmp;
            if (last) {
                /* Remember the step the controller wanted, not the clipped one. */
                rk->stats.last_step = h;
                rk->h = h * factor;
                break;
            }
            h *= factor;
        } else {
            rejected++;
            h *= factor;
            if (!(h > 1e-14 * fmax(1.0, fabs(t))))
                return cdyn__fail(sys, isfinite(err) ? CDYN_ERR_NOT_CONVERGED : CDYN_ERR_DIVERGED,
                                  "step (RK45): step size underflow at t = %g (error %g)", t, err);
        }
    }
    rk->stats.accepted += accepted;
    rk->stats.rejected += rejected;
    return CDYN_OK;
}

cdyn_status cdyn__step_rk45(cdyn_system *sys, double dt, bool *finite)
{
    (void)finite;
    cdyn__rk45 *rk = cdyn__integrator_state(sys, CDYN_INTEGRATOR_RK45);
    rk->stats.steps++;
    cdyn_status st = rk45(sys, rk, dt);
    if (st)
        rk->stats.failed_steps++;
    return st;
}

void cdyn__rk45_init(void *state)
{
    cdyn__rk45 *rk = state;
    cdyn_rk45_options_init(&rk->opt);
    rk->stats.size = sizeof rk->stats;
}

void cdyn__rk45_select(void *state)
{
    ((cdyn__rk45 *)state)->h = 0;
}
