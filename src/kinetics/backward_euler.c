/* Backward Euler with a fixed step, y1 = y0 + h f(t1, y1), solved by
 * Newton's method on (I - h J) delta = y0 + h f(t1, y) - y: the implicit
 * step the library takes for stiff spring networks (docs/backward_euler.md)
 * applied to the rate equations. The Jacobian and its factorization are kept across steps
 * while the iteration converges in a few updates (renewed when it slows
 * down); a step where the kept Jacobian fails is solved again from y0 by
 * full Newton, with J evaluated at every iterate. */
#include <math.h>
#include <string.h>

#include "kinetics/dense_output.h"
#include "kinetics/integrator.h"

#define NEWTON_TOL 0.1     /* weighted norm of the last update, times the rate */
#define SLOW_ITERATIONS 3  /* more than this: renew J for the next step */

typedef struct be {
    cdyn__kin_run *run;
    cdyn_kinetics *kin;
    cdyn__kin_newton *nw;
    size_t n;
    double *y0, *y, *f, *b, *ewt, *work, *scale, *cwork;
    int maxit;
} be;

enum { BE_OK, BE_FAIL, BE_HARD };

/* Newton's method for one step of size h ending at t1, from y = y0; with
 * @p full, J is evaluated at every iterate and factored. */
static int newton(be *s, double t1, double h, bool full, int *iterations, cdyn_status *st)
{
    size_t n = s->n;
    double del_prev = 0.0, crate = 1.0;
    memcpy(s->y, s->y0, n * sizeof(double));
    for (int m = 0; m < s->maxit; m++) {
        if (full && m > 0) {
            if ((*st = cdyn__kin_newton_jacobian(s->kin, s->run->fn, s->nw, t1, s->y, s->scale,
                                                 s->cwork)))
                return BE_HARD;
            if ((*st = cdyn__kin_newton_factor(s->kin, s->nw, h)))
                return *st == CDYN_ERR_SINGULAR ? BE_FAIL : BE_HARD;
        }
        if ((*st = cdyn__kin_rhs(s->run, t1, s->y, s->f)))
            return BE_HARD;
        for (size_t i = 0; i < n; i++)
            s->b[i] = s->y0[i] + h * s->f[i] - s->y[i];
        cdyn__kin_newton_solve(s->nw, s->b, s->work);
        double del = cdyn__kin_wrms(n, s->b, s->ewt);
        for (size_t i = 0; i < n; i++)
            s->y[i] += s->b[i];
        s->kin->stats.newton_iterations++;
        *iterations = m + 1;
        if (!isfinite(del))
            return BE_FAIL;
        if (m > 0) {
            double r = del / del_prev;
            crate = 0.3 * crate > r ? 0.3 * crate : r;
            if (!full && del > 2.0 * del_prev)
                return BE_FAIL;
        }
        if (del * (crate < 1.0 ? crate : 1.0) <= NEWTON_TOL)
            return BE_OK;
        del_prev = del;
    }
    return BE_FAIL;
}

/* Evaluates J at (t1, y0) and factors I - h J. */
static int renew(be *s, double t1, double h, bool new_jac, cdyn_status *st)
{
    if (new_jac) {
        for (size_t i = 0; i < s->n; i++)
            s->scale[i] = 1.0 / s->ewt[i];
        if ((*st = cdyn__kin_newton_jacobian(s->kin, s->run->fn, s->nw, t1, s->y0, s->scale,
                                             s->cwork)))
            return BE_HARD;
    }
    *st = cdyn__kin_newton_factor(s->kin, s->nw, h);
    if (*st == CDYN_ERR_SINGULAR)
        *st = cdyn__kin_fail(s->kin, CDYN_ERR_SINGULAR, s->run->fn,
                             "backward Euler: I - h J has no usable pivot at t = %g", t1);
    return *st ? BE_HARD : BE_OK;
}

cdyn_status cdyn__kin_backward_euler(cdyn__kin_run *run)
{
    cdyn__kin_work *w = run->w;
    be s = {run, run->kin, &w->nw, run->n, w->vec[0], w->vec[1], w->vec[2], w->vec[3],
            w->vec[4], w->vec[5], w->vec[6], w->vec[7], 0};
    s.maxit = run->max_newton > 0 ? run->max_newton : 10;
    cdyn_kinetics_stats *stats = &s.kin->stats;
    cdyn_status st = CDYN_OK;
    double t = run->t0;
    uint64_t k = 0; /* steps taken: t1 = t0 + (k + 1) h, no drift from sums */
    s.nw->factored = false;
    s.nw->have_jac = false;
    bool stale = true; /* J must be (re)evaluated before the next step */
    memcpy(s.y0, s.kin->sp.c, s.n * sizeof(double));
    while (t < run->t_end) {
        if (stats->steps >= run->max_steps)
            return cdyn__kin_fail(s.kin, CDYN_ERR_NOT_CONVERGED, run->fn,
                                  "backward Euler: max_steps (%llu) reached at t = %g",
                                  (unsigned long long)run->max_steps, t);
        /* t1 from the step count, not a running sum; h the fixed step
         * itself (one factorization serves all) but at the end */
        double h = run->fixed_step, t1 = run->t0 + (double)(k + 1) * h;
        if (t1 >= run->t_end - 1e-9 * h) { /* no sliver of a last step */
            t1 = run->t_end;
            h = t1 - t;
        }
        cdyn__kin_weights(run, s.y0, s.ewt);
        if ((stale || !s.nw->factored || s.nw->gamma != h) && renew(&s, t1, h, stale, &st))
            return st;
        stale = false;
        int iterations = 0;
        int r = newton(&s, t1, h, false, &iterations, &st);
        if (r == BE_FAIL) { /* again by full Newton, J at every iterate */
            if (renew(&s, t1, h, true, &st))
                return st;
            r = newton(&s, t1, h, true, &iterations, &st);
        }
        if (r == BE_HARD)
            return st;
        if (r == BE_FAIL) {
            stats->newton_failures++;
            stats->rejected_steps++;
            return cdyn__kin_fail(s.kin, CDYN_ERR_NOT_CONVERGED, run->fn,
                                  "backward Euler: Newton did not converge in %d iterations "
                                  "at t = %g (h = %g)",
                                  s.maxit, t1, h);
        }
        if (cdyn__kin_negative(run, s.y)) {
            stats->negative_rejections++;
            stats->rejected_steps++;
            return cdyn__kin_fail(s.kin, CDYN_ERR_NOT_CONVERGED, run->fn,
                                  "backward Euler: a concentration fell below -atol at t = %g "
                                  "(h = %g): take a smaller step",
                                  t1, h);
        }
        stale = iterations > SLOW_ITERATIONS;
        cdyn__kin_linear interp = {s.y0, s.y, t, t1};
        cdyn__kin_emit(run, t1, cdyn__kin_interp_linear, &interp);
        memcpy(s.y0, s.y, s.n * sizeof(double));
        t = t1;
        k++;
        stats->steps++;
        stats->last_order = 1;
        stats->highest_order = 1;
        stats->last_step = h;
    }
    memcpy(s.kin->sp.c, s.y0, s.n * sizeof(double));
    return CDYN_OK;
}
