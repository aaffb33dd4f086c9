/* The variable-order, variable-step BDF (orders 1-5) in Nordsieck form with
 * a fixed leading coefficient: prediction, the Newton corrector on the
 * kept factorization, the local error test, the choice of the next step
 * size and order. The strategy (when to renew the Jacobian and the
 * factorization, the safety factors of the step and order choice, the
 * responses to failures) follows the one CVODE documents (Hindmarsh et
 * al., ACM TOMS 31, 2005; Byrne and Hindmarsh, ACM TOMS 1, 1975); the
 * coefficients are in bdf_coeffs.h and docs/kinetics.md. */
#include <math.h>
#include <string.h>

#include "kinetics/bdf_coeffs.h"
#include "kinetics/dense_output.h"
#include "kinetics/integrator.h"

#define QMAX CDYN__KIN_BDF_QMAX

/* Safety and strategy constants (docs/kinetics.md). */
#define NEWTON_COEF 0.1     /* Newton error allowed, as a fraction of the local error test */
#define RATE_DECAY 0.3      /* how fast the estimated convergence rate may fall */
#define GAMMA_CHANGE 0.3    /* refactor when gamma moved by more than this fraction */
#define STEPS_PER_SETUP 20  /* refactor at least this often (steps) */
#define STEPS_PER_JAC 50    /* re-evaluate the Jacobian at least this often */
#define ETA_THRESHOLD 1.5   /* change h only when it would grow by this */
#define ETA_MAX 10.0        /* largest growth of h per step */
#define ETA_MAX_FIRST 1e4   /* ... after the first step */
#define ETA_MIN 0.1         /* largest cut after an error test failure */
#define ETA_CONV_FAIL 0.25  /* cut after a Newton failure */
#define ETA_NEGATIVE 0.5    /* cut after a negative concentration */
#define ETA_AFTER_2_FAILS 0.2
#define MAX_ERR_FAILS 7
#define MAX_CONV_FAILS 10

typedef struct bdf {
    cdyn__kin_run *run;
    cdyn_kinetics *kin;
    cdyn__kin_newton *nw;
    size_t n;
    double *z[QMAX + 1];            /* Nordsieck array */
    double *acor, *esave, *y, *f, *ewt, *b, *work, *scale, *cwork;
    int q, qwait, maxcor;
    double t, h, hsave, etamax;
    double tau[QMAX + 2];           /* tau[1]: the latest accepted step */
    double l[QMAX + 1];
    double tq2;                     /* error factor of the current order */
    double gamma, gamrat, crate, acnrm;
    uint64_t nst, nst_last_jac, nst_last_setup;
    bool jcur;                      /* J evaluated within this attempt */
} bdf;

static void rescale(bdf *s, double eta)
{
    double f = 1.0;
    for (int j = 1; j <= s->q; j++) {
        f *= eta;
        double *zj = s->z[j];
        for (size_t i = 0; i < s->n; i++)
            zj[i] *= f;
    }
    s->h *= eta;
}

/* z <- z times the Pascal matrix: the polynomial re-expanded at t + h. */
static void predict(bdf *s)
{
    for (int k = 1; k <= s->q; k++)
        for (int j = s->q; j >= k; j--) {
            double *a = s->z[j - 1];
            const double *c = s->z[j];
            for (size_t i = 0; i < s->n; i++)
                a[i] += c[i];
        }
}

/* The exact inverse of predict: its elementary updates undone in reverse. */
static void unpredict(bdf *s)
{
    for (int k = s->q; k >= 1; k--)
        for (int j = k; j <= s->q; j++) {
            double *a = s->z[j - 1];
            const double *c = s->z[j];
            for (size_t i = 0; i < s->n; i++)
                a[i] -= c[i];
        }
}

enum { NLS_OK, NLS_STALE_J, NLS_FAIL, NLS_SINGULAR, NLS_HARD };

/* Renews the factorization of I - gamma J (and J itself when @p new_jac or
 * it is old). */
static int setup(bdf *s, double t_new, bool new_jac, cdyn_status *st)
{
    cdyn__kin_newton *nw = s->nw;
    if (new_jac || !nw->have_jac || s->nst >= s->nst_last_jac + STEPS_PER_JAC) {
        for (size_t i = 0; i < s->n; i++)
            s->scale[i] = 1.0 / s->ewt[i];
        *st = cdyn__kin_newton_jacobian(s->kin, s->run->fn, nw, t_new, s->z[0], s->scale,
                                        s->cwork);
        if (*st)
            return NLS_HARD;
        s->jcur = true;
        s->nst_last_jac = s->nst;
    }
    *st = cdyn__kin_newton_factor(s->kin, nw, s->gamma);
    if (*st == CDYN_ERR_SINGULAR) {
        *st = CDYN_OK;
        return NLS_SINGULAR;
    }
    if (*st)
        return NLS_HARD;
    s->gamrat = 1.0;
    s->crate = 1.0;
    s->nst_last_setup = s->nst;
    return NLS_OK;
}

/* Newton's method for H_q e = h f(t_new, z0 + e) - z1 on the predicted z.
 * @p force: renew the factorization (and J when @p new_jac). */
static int corrector(bdf *s, double t_new, bool force, bool new_jac, cdyn_status *st)
{
    size_t n = s->n;
    cdyn__kin_newton *nw = s->nw;
    double rl1 = 1.0 / s->l[1];
    s->gamma = s->h * rl1;
    s->jcur = false;
    if (force || new_jac || !nw->factored || fabs(s->gamma / nw->gamma - 1.0) > GAMMA_CHANGE ||
        s->nst >= s->nst_last_setup + STEPS_PER_SETUP) {
        int r = setup(s, t_new, new_jac, st);
        if (r != NLS_OK)
            return r;
    } else {
        s->gamrat = s->gamma / nw->gamma;
    }
    /* A factorization for another gamma solves the system approximately;
     * scaling by 2 / (1 + gamrat) corrects its size to first order. */
    double cscale = s->gamrat == 1.0 ? 1.0 : 2.0 / (1.0 + s->gamrat);

    const double *z0 = s->z[0], *z1 = s->z[1];
    memset(s->acor, 0, n * sizeof(double));
    if ((*st = cdyn__kin_rhs(s->run, t_new, z0, s->f)))
        return NLS_HARD;
    double del_prev = 0.0;
    for (int m = 0;;) {
        for (size_t i = 0; i < n; i++)
            s->b[i] = s->gamma * s->f[i] - (rl1 * z1[i] + s->acor[i]);
        cdyn__kin_newton_solve(nw, s->b, s->work);
        if (cscale != 1.0)
            for (size_t i = 0; i < n; i++)
                s->b[i] *= cscale;
        double del = cdyn__kin_wrms(n, s->b, s->ewt);
        for (size_t i = 0; i < n; i++) {
            s->acor[i] += s->b[i];
            s->y[i] = z0[i] + s->acor[i];
        }
        s->kin->stats.newton_iterations++;
        if (!isfinite(del))
            break;
        if (m > 0) {
            double r = del / del_prev;
            s->crate = RATE_DECAY * s->crate > r ? RATE_DECAY * s->crate : r;
        }
        double dcon = del * (s->crate < 1.0 ? s->crate : 1.0) * s->tq2 / NEWTON_COEF;
        if (dcon <= 1.0) {
            s->acnrm = m == 0 ? del : cdyn__kin_wrms(n, s->acor, s->ewt);
            return NLS_OK;
        }
        m++;
        if (m == s->maxcor || (m >= 2 && del > 2.0 * del_prev))
            break;
        del_prev = del;
        if ((*st = cdyn__kin_rhs(s->run, t_new, s->y, s->f)))
            return NLS_HARD;
    }
    return s->jcur ? NLS_FAIL : NLS_STALE_J;
}

/* Raises the order to q + 1 from the correction e_n of the step just taken
 * (z scaled to that step): z_{q+1} estimates h^(q+1) y^(q+1) / (q+1)!, and
 * the lower terms are adjusted so that the past values stay. */
static void raise_order(bdf *s)
{
    int q = s->q;
    double psi[QMAX + 2], c = cdyn__kin_bdf_raise_factor(q);
    cdyn__kin_bdf_psi(q - 1, s->h, s->tau, psi);
    double *zq1 = s->z[q + 1];
    for (size_t i = 0; i < s->n; i++)
        zq1[i] = c * s->acor[i];
    for (int j = 2; j <= q; j++) {
        double *zj = s->z[j];
        for (size_t i = 0; i < s->n; i++)
            zj[i] += psi[j] * zq1[i];
    }
    s->q = q + 1;
}

/* Lowers the order to q - 1: removes z_q's part psi z_q from the lower
 * terms so that y_n, its slope and the past values stay. */
static void lower_order(bdf *s)
{
    int q = s->q;
    double psi[QMAX + 2];
    cdyn__kin_bdf_psi(q - 2, s->h, s->tau, psi);
    const double *zq = s->z[q];
    for (int j = 2; j < q; j++) {
        double *zj = s->z[j];
        for (size_t i = 0; i < s->n; i++)
            zj[i] -= psi[j] * zq[i];
    }
    s->q = q - 1;
}

/* After an accepted step with local error dsm: the next order and step. */
static void choose_next(bdf *s, double dsm)
{
    cdyn__kin_run *run = s->run;
    int q = s->q;
    double eta;
    if (s->etamax == 1.0) { /* a failure in this step: no growth yet */
        if (s->qwait < 2)
            s->qwait = 2;
        s->etamax = ETA_MAX;
        return;
    }
    double etaq = 1.0 / (pow(6.0 * dsm, 1.0 / (double)(q + 1)) + 1e-6);
    int qnew = q;
    eta = etaq;
    if (s->qwait == 0) {
        s->qwait = 2;
        double etadown = 0.0, etaup = 0.0;
        if (q > 1) {
            double d = cdyn__kin_wrms(s->n, s->z[q], s->ewt) * cdyn__kin_bdf_error_down(q);
            etadown = 1.0 / (pow(6.0 * d, 1.0 / (double)q) + 1e-5);
        }
        if (q < run->max_order) {
            double c = pow(s->h / s->hsave, (double)(q + 1));
            for (size_t i = 0; i < s->n; i++)
                s->b[i] = s->acor[i] - c * s->esave[i];
            double d = cdyn__kin_wrms(s->n, s->b, s->ewt) * cdyn__kin_bdf_error_up(q);
            etaup = 1.0 / (pow(10.0 * d, 1.0 / (double)(q + 2)) + 1.4e-6);
        }
        /* ties keep the order, then prefer the lower one */
        if (etadown > eta) {
            eta = etadown;
            qnew = q - 1;
        }
        if (etaup > eta) {
            eta = etaup;
            qnew = q + 1;
        }
    }
    if (!(eta >= ETA_THRESHOLD)) { /* not worth a new factorization */
        s->etamax = ETA_MAX;
        return;
    }
    if (qnew > q)
        raise_order(s);
    else if (qnew < q)
        lower_order(s);
    if (qnew != q)
        s->qwait = qnew + 1;
    if (eta > s->etamax)
        eta = s->etamax;
    if (run->h_max > 0 && s->h * eta > run->h_max)
        eta = run->h_max / s->h;
    rescale(s, eta);
    s->etamax = ETA_MAX;
}

/* One accepted step, retried with smaller steps as needed. */
static cdyn_status step(bdf *s)
{
    cdyn__kin_run *run = s->run;
    cdyn_kinetics_stats *stats = &s->kin->stats;
    int nef = 0, ncf = 0;
    bool force = false, new_jac = false, singular = false;
    cdyn_status st = CDYN_OK;
    cdyn__kin_weights(run, s->z[0], s->ewt);
    for (;;) {
        if (stats->steps + stats->rejected_steps >= run->max_steps)
            return cdyn__kin_fail(s->kin, CDYN_ERR_NOT_CONVERGED, run->fn,
                                  "BDF: max_steps (%llu) reached at t = %g",
                                  (unsigned long long)run->max_steps, s->t);
        /* End exactly on t_end. */
        bool last = s->t + s->h >= run->t_end;
        if (last && s->t + s->h != run->t_end)
            rescale(s, (run->t_end - s->t) / s->h);
        double t_new = last ? run->t_end : s->t + s->h;
        if (!(t_new > s->t))
            return cdyn__kin_fail(s->kin, CDYN_ERR_NOT_CONVERGED, run->fn,
                                  "BDF: the step size underflowed (h = %g at t = %g)", s->h,
                                  s->t);
        predict(s);
        cdyn__kin_bdf_lambda(s->q, s->h, s->tau, s->l);
        s->tq2 = cdyn__kin_bdf_error_q(s->q);
        int r = corrector(s, t_new, force, new_jac, &st);
        if (r == NLS_STALE_J) /* once more with a fresh Jacobian, same step */
            r = corrector(s, t_new, true, true, &st);
        if (r == NLS_HARD) {
            unpredict(s);
            return st;
        }
        force = new_jac = false;
        if (r != NLS_OK) {
            unpredict(s);
            stats->newton_failures++;
            stats->rejected_steps++;
            singular = r == NLS_SINGULAR;
            if (++ncf >= MAX_CONV_FAILS)
                return cdyn__kin_fail(
                    s->kin, singular ? CDYN_ERR_SINGULAR : CDYN_ERR_NOT_CONVERGED, run->fn,
                    "BDF: %s %d times at t = %g (h = %g)",
                    singular ? "the Newton matrix was singular" : "Newton did not converge",
                    ncf, s->t, s->h);
            s->etamax = 1.0;
            rescale(s, ETA_CONV_FAIL);
            force = new_jac = true;
            continue;
        }
        double dsm = s->acnrm * s->tq2;
        if (!(dsm <= 1.0)) {
            unpredict(s);
            stats->error_test_failures++;
            stats->rejected_steps++;
            s->etamax = 1.0;
            if (++nef >= MAX_ERR_FAILS)
                return cdyn__kin_fail(s->kin, CDYN_ERR_NOT_CONVERGED, run->fn,
                                      "BDF: the error test failed %d times at t = %g (h = %g)",
                                      nef, s->t, s->h);
            if (nef >= 3) { /* restart at order 1 from y_n and its slope */
                rescale(s, ETA_MIN);
                s->q = 1;
                s->qwait = 10;
                if ((st = cdyn__kin_rhs(run, s->t, s->z[0], s->f)))
                    return st;
                for (size_t i = 0; i < s->n; i++)
                    s->z[1][i] = s->h * s->f[i];
                continue;
            }
            double eta = 1.0 / (pow(6.0 * dsm, 1.0 / (double)(s->q + 1)) + 1e-6);
            if (!(eta >= ETA_MIN))
                eta = ETA_MIN;
            if (nef >= 2 && eta > ETA_AFTER_2_FAILS)
                eta = ETA_AFTER_2_FAILS;
            rescale(s, eta);
            continue;
        }
        if (cdyn__kin_negative(run, s->y)) {
            unpredict(s);
            stats->negative_rejections++;
            stats->rejected_steps++;
            s->etamax = 1.0;
            rescale(s, ETA_NEGATIVE);
            continue;
        }
        /* Accepted: complete the Nordsieck array. */
        for (int i = QMAX + 1; i >= 2; i--)
            s->tau[i] = s->tau[i - 1];
        s->tau[1] = s->h;
        for (int j = 0; j <= s->q; j++) {
            double lj = s->l[j], *zj = s->z[j];
            for (size_t i = 0; i < s->n; i++)
                zj[i] += lj * s->acor[i];
        }
        s->t = t_new;
        s->nst++;
        stats->steps++;
        stats->last_order = s->q;
        if (s->q > stats->highest_order)
            stats->highest_order = s->q;
        stats->last_step = s->h;
        s->qwait--;
        if (s->qwait == 1 && s->q < run->max_order) {
            memcpy(s->esave, s->acor, s->n * sizeof(double));
            s->hsave = s->h;
        }
        cdyn__kin_nordsieck interp = {s->z, s->q, s->t, s->h};
        cdyn__kin_emit(run, s->t, cdyn__kin_interp_nordsieck, &interp);
        if (s->t < run->t_end)
            choose_next(s, dsm);
        return CDYN_OK;
    }
}

cdyn_status cdyn__kin_bdf(cdyn__kin_run *run)
{
    cdyn__kin_work *w = run->w;
    bdf s = {0};
    s.run = run;
    s.kin = run->kin;
    s.nw = &w->nw;
    s.n = run->n;
    for (int j = 0; j <= QMAX; j++)
        s.z[j] = w->vec[j];
    s.acor = w->vec[6];
    s.esave = w->vec[7];
    s.y = w->vec[8];
    s.f = w->vec[9];
    s.ewt = w->vec[10];
    s.b = w->vec[11];
    s.work = w->vec[12];
    s.scale = w->vec[13];
    s.cwork = w->vec[14];
    s.maxcor = run->max_newton > 0 ? run->max_newton : 3;
    s.t = run->t0;
    /* A new integration: the kept factorization belongs to another start. */
    s.nw->factored = false;
    s.nw->have_jac = false;

    memcpy(s.z[0], s.kin->sp.c, s.n * sizeof(double));
    cdyn__kin_weights(run, s.z[0], s.ewt);
    cdyn_status st = cdyn__kin_rhs(run, s.t, s.z[0], s.f);
    if (st)
        return st;
    double h = run->h_init;
    if (h <= 0 && (st = cdyn__kin_initial_step(run, s.z[0], s.f, s.ewt, 1, s.y, s.b, &h)))
        return st;
    if (run->h_max > 0 && h > run->h_max)
        h = run->h_max;
    if (h > run->t_end - run->t0)
        h = run->t_end - run->t0;
    s.h = h;
    for (size_t i = 0; i < s.n; i++)
        s.z[1][i] = h * s.f[i];
    for (int i = 0; i <= QMAX + 1; i++)
        s.tau[i] = h;
    s.q = 1;
    s.qwait = 2;
    s.hsave = h;
    s.etamax = ETA_MAX_FIRST;
    while (s.t < run->t_end)
        if ((st = step(&s)))
            return st;
    memcpy(s.kin->sp.c, s.z[0], s.n * sizeof(double));
    return CDYN_OK;
}
