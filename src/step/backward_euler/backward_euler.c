/* The backward Euler step: Newton's method on
 *     R_v = M (v - v0) - h F(x0 + h v, v, t + h) + G^T nu = 0,
 *     R_c = g(x0 + h v) / h - (alpha / h^2) nu = 0,
 * with a backtracking line search (options and report: options.c). The
 * linear systems use the sparse quasi-definite LDL^T of the symmetric part
 * of K (jacobian.c, pattern.c, solver/ldlt_signed.c), then GMRES on the
 * whole K preconditioned by it when K is not symmetric (dashpots,
 * friction, damped contacts) or known through finite differences
 * (callbacks without a Jacobian); see docs/backward_euler.md for the
 * equations and the choices. */
#include "step/backward_euler/backward_euler.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "core/system.h"
#include "dynamics/drive.h"
#include "force/force.h"
#include "ground/ground.h"
#include "kinematic/kinematic.h"
#include "step/integrator.h"
#include "core/vec.h"

/* Pivots below this fraction of what formed them have the wrong sign
 * (velocity rows) or mark a redundant constraint row. */
#define PIVOT_EPS 1e-10
/* The shift tau M tried first when J is not positive definite, its growth
 * per try, and the number of tries before the step fails. */
#define SHIFT_FIRST 1e-3
#define SHIFT_GROWTH 10.0
#define SHIFT_TRIES 40
/* Accuracy asked of each linear solve (relative, weighted norm; with
 * finite-difference products of callbacks), and the restarts of
 * GMRES(CDYN__GMRES_M) that may be spent on it. */
#define SOLVE_TARGET 1e-13
#define SOLVE_TARGET_FD 1e-8
#define GMRES_RESTARTS 4
/* A solve left this many times its target from its right-hand side counts
 * as inexact; with dropped rows, this far (relative) means that the
 * constraints conflict. */
#define INEXACT_SOLVE 1e3
#define CONFLICT_SOLVE 1e-6
/* Line search: Armijo constant and halvings. */
#define ARMIJO 1e-4
#define HALVINGS 10
/* Round-off floor of the scaled residual, in units of eps max|x| / h. */
#define FLOOR_ULPS 16.0

/* Residual at (v, nu): x = x0 + h v, forces, constraint values and blocks. */
static cdyn_status residual(cdyn_system *sys, double h, double t1, const double *v,
                            const double *nu, double *x, double *gv, double *jac, double *res)
{
    cdyn__be_layout *lay = &cdyn__be_of(sys)->lay;
    const uint32_t d = (uint32_t)sys->dim, np = lay->np, nv = lay->nv;
    const double *x0 = sys->x, *v0 = sys->v;
    double *f = lay->frc;
    for (uint32_t i = 0; i < nv; i++)
        x[i] = x0[i] + h * v[i];
    memset(f, 0, (size_t)nv * sizeof *f);
    cdyn_status st = cdyn__forces_apply(sys, t1, x, v, f);
    if (st || (st = cdyn__grounds_apply(sys, t1, x, v, f, NULL)))
        return st;
    for (uint32_t s = 0; s < np; s++) {
        bool moves = cdyn__be_movable(sys, s);
        double m = sys->mass[s];
        for (uint32_t q = 0; q < d; q++) {
            uint32_t i = s * d + q;
            res[i] = moves ? m * (v[i] - v0[i]) - h * f[i] : 0.0;
        }
    }
    cdyn__constraints *k = sys->cons;
    for (uint32_t ai = 0; k && lay->nc && ai < k->n_active; ai++) {
        cdyn__constraint *c = &k->c[k->active[ai]];
        double bias[CDYN__CONSTRAINT_MAX_ROWS];
        double *cj = jac + (size_t)c->blk * d;
        if ((st = cdyn__constraint_eval(sys, c, t1, x, v, gv + c->row, cj, bias, NULL)))
            return st;
        for (uint32_t r = 0; r < c->n_rows; r++) {
            uint32_t row = c->row + r;
            res[nv + row] = gv[row] / h - c->compliance * nu[row] / (h * h);
            for (uint32_t j = 0; j < c->n_particles; j++) {
                uint32_t s = cdyn__constraint_particle(c, j);
                if (!cdyn__be_movable(sys, s))
                    continue;
                const double *gb = cj + ((size_t)r * c->n_particles + j) * d;
                for (uint32_t q = 0; q < d; q++)
                    res[s * d + q] += gb[q] * nu[row];
            }
        }
    }
    return CDYN_OK;
}

/* Largest weighted component max |w_i r_i| and the sum of squares;
 * non-finite residuals give +inf. */
static double scaled_norm(const cdyn__be_layout *lay, const double *r, double *sum_sq)
{
    double e = 0, s = 0;
    for (uint32_t i = 0; i < lay->n; i++) {
        if (lay->wgt[i] == 0)
            continue;
        double y = fabs(lay->wgt[i] * r[i]);
        if (!(y <= DBL_MAX)) {
            e = s = HUGE_VAL;
            break;
        }
        e = y > e ? y : e;
        s += y * y;
    }
    if (sum_sq)
        *sum_sq = s;
    return e;
}

/* Weights of the residual norm, from K at the start of the step: velocity
 * rows 1 / max(J_ii, m_i) (the residual then reads as a velocity
 * correction), constraint rows 1 / |G_r| over moving particles (g / |G| is
 * the distance to g = 0; the residual g / h is then a velocity); rows that
 * cannot change get 0. */
static void set_weights(cdyn_system *sys)
{
    cdyn__be_layout *lay = &cdyn__be_of(sys)->lay;
    const uint32_t d = (uint32_t)sys->dim, nv = lay->nv;
    for (uint32_t s = 0; s < lay->np; s++)
        for (uint32_t q = 0; q < d; q++) {
            uint32_t i = s * d + q;
            double jd = lay->a.val[lay->a.colptr[i]], m = sys->mass[s];
            lay->wgt[i] = cdyn__be_movable(sys, s) ? 1.0 / (jd > m ? jd : m) : 0.0;
        }
    for (uint32_t r = 0; r < lay->nc; r++)
        lay->wgt[nv + r] = 0;
    cdyn__constraints *k = sys->cons;
    for (uint32_t ai = 0; k && lay->nc && ai < k->n_active; ai++) {
        const cdyn__constraint *c = &k->c[k->active[ai]];
        for (uint32_t r = 0; r < c->n_rows; r++) {
            double g2 = 0;
            for (uint32_t j = 0; j < c->n_particles; j++) {
                if (!cdyn__be_movable(sys, cdyn__constraint_particle(c, j)))
                    continue;
                const double *gb = lay->jac + ((size_t)c->blk + (size_t)r * c->n_particles + j) * d;
                for (uint32_t q = 0; q < d; q++)
                    g2 += gb[q] * gb[q];
            }
            lay->wgt[nv + c->row + r] = g2 > 0 ? 1.0 / sqrt(g2) : 0.0;
        }
    }
}

/* Factorizes K. When J is not positive definite at this iterate, K is
 * assembled again without the terms that compression makes negative
 * (springs' transverse stiffness, pushing rods), and if that is not enough
 * shifted by tau M on the moving velocity rows. */
static cdyn_status factor(cdyn_system *sys, double h, double t1)
{
    cdyn__be *be = cdyn__be_of(sys);
    cdyn__be_layout *lay = &be->lay;
    const uint32_t d = (uint32_t)sys->dim;
    double tau = 0;
    bool definite = false;
    memset(lay->diag_add, 0, (size_t)lay->n * sizeof *lay->diag_add);
    for (int tries = 0;; tries++) {
        cdyn_status st = cdyn__ldlt_signed_factor(&lay->fac, &lay->a, lay->diag_add, lay->sign,
                                                  PIVOT_EPS);
        if (st == CDYN_OK)
            return CDYN_OK;
        if (st != CDYN_ERR_SINGULAR)
            return cdyn__fail(sys, CDYN_ERR_DIVERGED,
                              "backward Euler: non-finite Newton matrix at t = %g; state kept",
                              sys->time);
        if (tries == SHIFT_TRIES)
            return cdyn__fail(sys, CDYN_ERR_SINGULAR,
                              "backward Euler: the Newton matrix stays singular with a shift of "
                              "%g M (row %u); state kept", tau, lay->fac.bad_row);
        if (tries == 0)
            be->stats.regularized++;
        if (!definite) {
            definite = true;
            cdyn_status sa = cdyn__be_assemble(sys, h, t1, lay->x, lay->v, lay->nu, lay->jac,
                                               true);
            if (sa)
                return sa;
            continue;
        }
        /* Jump to a shift that lifts the failed pivot, at least x10. */
        uint32_t row = lay->fac.bad_row;
        double next = tau > 0 ? SHIFT_GROWTH * tau : SHIFT_FIRST;
        if (row < lay->nv) {
            double lift = 2.0 * fabs(lay->fac.bad_pivot) / sys->mass[row / d];
            next = lift > next ? lift : next;
        }
        tau = next;
        for (uint32_t i = 0; i < lay->nv; i++)
            lay->diag_add[i] = cdyn__be_movable(sys, i / d) ? tau * sys->mass[i / d] : 0.0;
    }
}

/* Weighted 2-norm of a residual of the linear system. */
static double wnorm(const cdyn__be_layout *lay, const double *r)
{
    double s = 0;
    for (uint32_t i = 0; i < lay->n; i++)
        if (lay->wgt[i] != 0) {
            double y = lay->wgt[i] * r[i];
            s += y * y;
        }
    return sqrt(s);
}

/* The scaling of GMRES: the norm weights, 1 where a row is not measured. */
static double gscale(const cdyn__be_layout *lay, uint32_t i)
{
    return lay->wgt[i] != 0 ? lay->wgt[i] : 1.0;
}

/* y = W K S^-1 W^-1 v: the operator of GMRES, similar to K S^-1 (whose
 * eigenvalues cluster at 1 when S is close to K), in the weighted norm of
 * the residual. tmp is scratch. */
static cdyn_status gmres_apply(cdyn_system *sys, double h, double t1, const double *v, double *y,
                               double *tmp)
{
    cdyn__be_layout *lay = &cdyn__be_of(sys)->lay;
    const uint32_t n = lay->n;
    for (uint32_t i = 0; i < n; i++)
        tmp[i] = v[i] / gscale(lay, i);
    cdyn__ldlt_signed_solve(&lay->fac, tmp);
    cdyn_status st = cdyn__be_apply(sys, h, t1, tmp, y);
    for (uint32_t i = 0; i < n; i++)
        y[i] *= gscale(lay, i);
    return st;
}

/* rr = -res - K dz (the residual of the linear system) and its W-norm. */
static cdyn_status linear_residual(cdyn_system *sys, double h, double t1, double *nr)
{
    cdyn__be_layout *lay = &cdyn__be_of(sys)->lay;
    cdyn_status st = cdyn__be_apply(sys, h, t1, lay->dz, lay->rr);
    for (uint32_t i = 0; i < lay->n; i++)
        lay->rr[i] = -lay->res[i] - lay->rr[i];
    *nr = wnorm(lay, lay->rr);
    return st;
}

/* GMRES(m) on K dz = -res, right-preconditioned by the factor S of the
 * symmetric part, from the current dz with residual rr; stops when
 * ||rr||_W <= target. *nr: the final ||rr||_W. */
static cdyn_status gmres(cdyn_system *sys, double h, double t1, double target, double *nr)
{
    cdyn__be_layout *lay = &cdyn__be_of(sys)->lay;
    const uint32_t n = lay->n, m = CDYN__GMRES_M;
    double *dz = lay->dz, *rr = lay->rr, *tmp = lay->tmp, *const *v = lay->krylov;
    double hm[CDYN__GMRES_M + 1][CDYN__GMRES_M], g[CDYN__GMRES_M + 1];
    double cs[CDYN__GMRES_M], sn[CDYN__GMRES_M], y[CDYN__GMRES_M];
    cdyn_status st = CDYN_OK;
    for (int restart = 0; restart < GMRES_RESTARTS && *nr > target; restart++) {
        for (uint32_t i = 0; i < n; i++)
            v[0][i] = rr[i] * gscale(lay, i);
        double beta = sqrt(cdyn__dotn(v[0], v[0], n));
        if (!(beta > 0))
            break;
        for (uint32_t i = 0; i < n; i++)
            v[0][i] /= beta;
        memset(g, 0, sizeof g);
        g[0] = beta;
        uint32_t k = 0;
        while (k < m) {
            double *w = v[k + 1];
            if ((st = gmres_apply(sys, h, t1, v[k], w, tmp)))
                return st;
            for (uint32_t i = 0; i <= k; i++) { /* modified Gram-Schmidt */
                hm[i][k] = cdyn__dotn(w, v[i], n);
                for (uint32_t q = 0; q < n; q++)
                    w[q] -= hm[i][k] * v[i][q];
            }
            hm[k + 1][k] = sqrt(cdyn__dotn(w, w, n));
            if (hm[k + 1][k] > 0)
                for (uint32_t q = 0; q < n; q++)
                    w[q] /= hm[k + 1][k];
            for (uint32_t i = 0; i < k; i++) { /* earlier rotations */
                double a = hm[i][k], b = hm[i + 1][k];
                hm[i][k] = cs[i] * a + sn[i] * b;
                hm[i + 1][k] = -sn[i] * a + cs[i] * b;
            }
            double a = hm[k][k], b = hm[k + 1][k], r = hypot(a, b);
            cs[k] = r > 0 ? a / r : 1.0;
            sn[k] = r > 0 ? b / r : 0.0;
            hm[k][k] = r;
            hm[k + 1][k] = 0;
            g[k + 1] = -sn[k] * g[k];
            g[k] = cs[k] * g[k];
            k++;
            if (fabs(g[k]) <= 0.5 * target || !(r > 0))
                break;
        }
        /* dz += S^-1 W^-1 V y, with H y = g. */
        for (uint32_t i = k; i-- > 0;) {
            double t = g[i];
            for (uint32_t j = i + 1; j < k; j++)
                t -= hm[i][j] * y[j];
            y[i] = hm[i][i] != 0 ? t / hm[i][i] : 0.0;
        }
        memset(tmp, 0, (size_t)n * sizeof *tmp);
        for (uint32_t j = 0; j < k; j++)
            for (uint32_t q = 0; q < n; q++)
                tmp[q] += y[j] * v[j][q];
        for (uint32_t q = 0; q < n; q++)
            tmp[q] /= gscale(lay, q);
        cdyn__ldlt_signed_solve(&lay->fac, tmp);
        for (uint32_t q = 0; q < n; q++)
            dz[q] += tmp[q];
        if ((st = linear_residual(sys, h, t1, nr)))
            return st;
    }
    return CDYN_OK;
}

/* dz = -K^-1 res: the factor of the symmetric part S, then, when that
 * leaves a residual (K's skew part from dashpots, friction or damped
 * contacts; callbacks known only through finite differences; dropped
 * rows), GMRES on K preconditioned by S. */
static cdyn_status solve(cdyn_system *sys, double h, double t1)
{
    cdyn__be *be = cdyn__be_of(sys);
    cdyn__be_layout *lay = &be->lay;
    const uint32_t n = lay->n;
    double *dz = lay->dz;
    for (uint32_t i = 0; i < n; i++)
        dz[i] = -lay->res[i];
    double nb = wnorm(lay, dz), nr;
    cdyn__ldlt_signed_solve(&lay->fac, dz);
    cdyn_status st = linear_residual(sys, h, t1, &nr);
    /* Products through finite differences are good to about sqrt(eps). */
    const double target = (lay->n_fd ? SOLVE_TARGET_FD : SOLVE_TARGET) * nb;
    if (!st && nr > target)
        st = gmres(sys, h, t1, target, &nr);
    if (st)
        return st;
    if (!(nr <= INEXACT_SOLVE * target)) {
        if (lay->fac.nredundant && !(nr <= CONFLICT_SOLVE * nb))
            return cdyn__fail(sys, CDYN_ERR_SINGULAR,
                              "backward Euler: constraints conflict (%u redundant rows, relative "
                              "residual %.3g of the Newton system); state kept",
                              lay->fac.nredundant, nb > 0 ? nr / nb : nr);
        be->stats.inexact_solves++;
    }
    return CDYN_OK;
}

/* Swaps two pointers to double. */
static void swap(double **a, double **b)
{
    double *t = *a;
    *a = *b;
    *b = t;
}

/* Backtracking line search along dz from (v, nu): accepts the first step
 * length with sufficient decrease of the weighted sum of squares (Armijo),
 * else the shortest tried; the accepted point becomes the iterate. */
static cdyn_status line_search(cdyn_system *sys, double h, double t1, double phi0)
{
    cdyn__be *be = cdyn__be_of(sys);
    cdyn__be_layout *lay = &be->lay;
    const uint32_t nv = lay->nv, nc = lay->nc;
    double alpha = 1.0, phi = HUGE_VAL;
    for (int cut = 0; cut <= HALVINGS; cut++) {
        for (uint32_t i = 0; i < nv; i++)
            lay->vt[i] = lay->v[i] + alpha * lay->dz[i];
        for (uint32_t r = 0; r < nc; r++)
            lay->nut[r] = lay->nu[r] + alpha * lay->dz[nv + r];
        cdyn_status st = residual(sys, h, t1, lay->vt, lay->nut, lay->xt, lay->gvt, lay->jact,
                                  lay->rest);
        if (st)
            return st;
        scaled_norm(lay, lay->rest, &phi);
        if (phi <= (1.0 - 2.0 * ARMIJO * alpha) * phi0)
            break;
        if (cut < HALVINGS)
            alpha *= 0.5;
    }
    if (!(phi <= DBL_MAX))
        return cdyn__fail(sys, CDYN_ERR_DIVERGED,
                          "backward Euler: non-finite forces along the Newton step at t = %g; "
                          "state kept", t1);
    if (alpha < 1.0)
        be->stats.line_search_cuts++;
    swap(&lay->v, &lay->vt);
    swap(&lay->nu, &lay->nut);
    swap(&lay->x, &lay->xt);
    swap(&lay->gv, &lay->gvt);
    swap(&lay->jac, &lay->jact);
    swap(&lay->res, &lay->rest);
    return CDYN_OK;
}

/* Hands the constraint forces of the step to the constraint module's
 * queries: lambda = -nu / h with G at x1. */
static void publish_multipliers(cdyn_system *sys, double h)
{
    cdyn__constraints *k = sys->cons;
    const cdyn__be_layout *lay = &cdyn__be_of(sys)->lay;
    if (!k || !lay->nc || k->n_rows != lay->nc || k->n_blocks != lay->nblk)
        return;
    memcpy(k->jac, lay->jac, (size_t)lay->nblk * (size_t)sys->dim * sizeof *k->jac);
    for (uint32_t r = 0; r < lay->nc; r++)
        k->lambda[r] = -lay->nu[r] / h;
    k->evaluated = true;
    k->blocks_unstored = false;
}

/* Kinematic particles do not move in the Newton iteration (they are not
 * movable): their velocity in it is the one that takes them to where
 * their motions are at t1, x1 = x0 + h v. Their motions' state at t1 goes
 * through x_new, v_new, which the step overwrites at its end anyway. */
static cdyn_status kinematic_velocities(cdyn_system *sys, double h, double t1)
{
    const cdyn__kinematics *k = sys->kin;
    if (!k || !k->count)
        return CDYN_OK;
    cdyn_status st = cdyn__kinematics_place(sys, t1, sys->x_new, sys->v_new, NULL);
    size_t d = (size_t)sys->dim;
    double *v = cdyn__be_of(sys)->lay.v;
    for (uint32_t j = 0; !st && j < k->count; j++)
        for (size_t q = 0, o = (size_t)k->slot[j] * d; q < d; q++)
            v[o + q] = (sys->x_new[o + q] - sys->x[o + q]) / h;
    return st;
}

/* The drivers' work over the step, h times their power at the end (the
 * rule of the method itself), with the step's own multipliers. */
static cdyn_status drive_work(cdyn_system *sys, double h, double t1)
{
    const cdyn__be_layout *lay = &cdyn__be_of(sys)->lay;
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    double pg = 0, pc = 0;
    double *f = sys->ws.f;
    memset(f, 0, n * sizeof *f);
    cdyn_status st = sys->kin ? cdyn__kinematics_place(sys, t1, sys->x_new, sys->v_new, NULL)
                              : CDYN_OK;
    if (!st)
        st = cdyn__grounds_apply(sys, t1, sys->x_new, sys->v_new, f, &pg);
    if (!st && sys->cons && sys->cons->n_rows)
        st = cdyn__constraints_drive_power(sys, t1, sys->x_new, sys->v_new, sys->cons->lambda, &pc);
    if (st)
        return st;
    if (sys->kin)
        cdyn__kinematics_save_forces(sys, lay->frc);
    cdyn__drive_add(sys, h * (pg + pc + cdyn__kinematics_power(sys, sys->v_new)));
    return CDYN_OK;
}

static cdyn_status newton(cdyn_system *sys, double h)
{
    cdyn_status st0;
    cdyn__be *be = cdyn__be_of(sys);
    cdyn__be_layout *lay = &be->lay;
    const uint32_t nv = lay->nv;
    const double t1 = sys->time + h, tol = be->opt.tolerance;
    const uint32_t cap = (uint32_t)be->opt.max_iterations;
    double xmax = 0, vmax = 0;
    for (uint32_t i = 0; i < nv; i++) {
        double ax = fabs(sys->x[i]);
        xmax = ax > xmax ? ax : xmax;
        if (cdyn__be_movable(sys, i / (uint32_t)sys->dim) && fabs(sys->v[i]) > vmax)
            vmax = fabs(sys->v[i]);
    }
    const double floor_e = FLOOR_ULPS * DBL_EPSILON * xmax / h;

    memcpy(lay->v, sys->v, (size_t)nv * sizeof *lay->v);
    if ((st0 = kinematic_velocities(sys, h, t1)))
        return st0;
    memset(lay->nu, 0, (size_t)lay->nc * sizeof *lay->nu);
    cdyn_status st = residual(sys, h, t1, lay->v, lay->nu, lay->x, lay->gv, lay->jac, lay->res);
    if (st || (st = cdyn__be_assemble(sys, h, t1, lay->x, lay->v, lay->nu, lay->jac, false)))
        return st;
    set_weights(sys);
    double phi, e = scaled_norm(lay, lay->res, &phi);
    if (!(e <= DBL_MAX))
        return cdyn__fail(sys, CDYN_ERR_DIVERGED,
                          "backward Euler: non-finite forces at t = %g; state kept", t1);
    const double scale = e > vmax ? e : vmax;
    const double thr = tol * scale > floor_e ? tol * scale : floor_e;
    uint32_t it = 0;
    be->hist[0] = scale > 0 ? e / scale : 0.0;
    be->hist_len = 1;
    be->stats.residual = be->hist[0];
    while (e > thr) {
        if (it == cap)
            return cdyn__fail(sys, CDYN_ERR_NOT_CONVERGED,
                              "backward Euler: Newton did not converge at t = %g: scaled "
                              "residual %.3g > tolerance %.3g after the cap of %u iterations; "
                              "state kept", sys->time, e / scale, tol, cap);
        if ((st = factor(sys, h, t1)) || (st = solve(sys, h, t1)) ||
            (st = line_search(sys, h, t1, phi)))
            return st;
        be->stats.factor_nonzeros = lay->fac.sym.lnz;
        be->stats.redundant_rows = lay->fac.nredundant;
        it++;
        be->stats.iterations = it;
        be->stats.total_iterations++;
        e = scaled_norm(lay, lay->res, &phi);
        be->hist[be->hist_len++] = e / scale;
        be->stats.residual = e / scale;
        if (e > thr &&
            (st = cdyn__be_assemble(sys, h, t1, lay->x, lay->v, lay->nu, lay->jac, false)))
            return st;
    }
    memcpy(sys->x_new, lay->x, (size_t)nv * sizeof *lay->x);
    memcpy(sys->v_new, lay->v, (size_t)nv * sizeof *lay->v);
    publish_multipliers(sys, h);
    return sys->drives ? drive_work(sys, h, t1) : CDYN_OK;
}

cdyn_status cdyn__step_backward_euler(cdyn_system *sys, double h, bool *finite)
{
    (void)finite;
    if (sys->param_of)
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "backward Euler does not support particles on curves or surfaces "
                          "(their mass depends on position); use RK4 or symplectic Euler");
    cdyn_status st = cdyn__be_prepare(sys, h);
    cdyn__be *be = cdyn__be_of(sys);
    be->stats.steps++;
    be->stats.iterations = 0;
    be->stats.residual = 0;
    be->stats.unknowns = be->lay.n;
    be->hist_len = 0;
    if (!st)
        st = newton(sys, h);
    if (st)
        be->stats.failed_steps++;
    return st;
}
