/* Grounds at work: H and its derivatives for each shape, the contact force
 * (normal penalty, normal dashpot, regularized friction), its analytic
 * Jacobian, the penalty energy, and the loops over grounds x particles.
 * Notation of contact/ground.h; derivations in docs/ground.md. */
#include "ground/ground.h"

#include <math.h>
#include <string.h>

#include "core/box.h"
#include "core/callback.h"
#include "core/system.h"
#include "core/tasks.h"
#include "core/finite.h"
#include "core/vec.h"

/* Step of the central differences of a callback's gradient, relative to
 * max(1, |x_k|): cbrt(DBL_EPSILON) balances truncation and round-off. */
#define CDYN__GROUND_FD_STEP 6.0554544523933395e-06

static void plane_eval(const cdyn__ground *g, int dim, const double *x, double *h, double *grad)
{
    double s = 0;
    for (int k = 0; k < dim; k++) {
        s += g->p[k] * x[k];
        grad[k] = g->p[k];
    }
    *h = s - g->p[3];
}

/* H = s (|x - c| - R) with s = +1 outside, -1 inside; grad = s e,
 * Hessian s (I - e e^T) / r with e = (x - c) / r. */
static void sphere_eval(const cdyn__ground *g, int dim, const double *x, double *h, double *grad,
                        double *hess)
{
    double e[3] = {0, 0, 0}, sgn = g->inside ? -1.0 : 1.0;
    for (int k = 0; k < dim; k++)
        e[k] = x[k] - g->p[k];
    double r = cdyn__vec_norm(e, dim);
    *h = sgn * (r - g->p[3]);
    if (!(r > 0)) {
        grad[dim - 1] = sgn; /* the centre: a fixed, documented direction */
        return;
    }
    for (int k = 0; k < dim; k++) {
        e[k] /= r;
        grad[k] = sgn * e[k];
    }
    if (hess)
        for (int i = 0; i < dim; i++)
            for (int j = 0; j < dim; j++)
                hess[i * dim + j] = sgn * ((i == j ? 1.0 : 0.0) - e[i] * e[j]) / r;
}

/* H = x_up - f(x_ax0, x_ax1), grad H = e_up - grad f, Hessian -Hess f on
 * the grid axes. A 2-D profile is read on the grid's first row. */
static void heightfield_eval(const cdyn__ground *g, int dim, const double *x, double *h,
                             double *grad, double *hess)
{
    double f, gf[2], hf[3];
    double gy = g->ax1 >= 0 ? x[g->ax1] : g->hf.y0;
    cdyn__heightfield_eval(&g->hf, x[g->ax0], gy, &f, gf, hess ? hf : NULL);
    *h = x[g->up] - f;
    grad[g->up] = 1.0;
    grad[g->ax0] = -gf[0];
    if (g->ax1 >= 0)
        grad[g->ax1] = -gf[1];
    if (hess) {
        hess[g->ax0 * dim + g->ax0] = -hf[0];
        if (g->ax1 >= 0) {
            hess[g->ax0 * dim + g->ax1] = hess[g->ax1 * dim + g->ax0] = -hf[1];
            hess[g->ax1 * dim + g->ax1] = -hf[2];
        }
    }
}

/* One call of a callback ground with its checks, at the reference point
 * @p x: H, grad H and the velocity of the ground's material (cleared
 * first: a ground that does not move leaves it). */
static cdyn_status callback_call(const cdyn_system *sys, const cdyn__ground *g, double t,
                                 const double *x, bool below_needs_normal, double *h,
                                 double *grad, double *w)
{
    int dim = sys->dim;
    double hv = 0, wv[3] = {0, 0, 0};
    memset(grad, 0, (size_t)dim * sizeof *grad);
    cdyn__callback_enter(sys);
    int rc = g->fn(sys, t, dim, x, &hv, grad, wv, g->user);
    cdyn__callback_leave(sys);
    if (rc != 0)
        return cdyn__fail(sys, CDYN_ERR_CALLBACK, "ground callback returned %d at t = %g", rc, t);
    if (!isfinite(hv) || !cdyn__all_finite(grad, (size_t)dim) ||
        !cdyn__all_finite(wv, (size_t)dim))
        return cdyn__fail(sys, CDYN_ERR_CALLBACK,
                          "ground callback gave a non-finite H, grad H or velocity at t = %g", t);
    if (below_needs_normal && hv < 0 && !(cdyn__vec_norm(grad, dim) > 0))
        return cdyn__fail(sys, CDYN_ERR_CALLBACK,
                          "ground callback gave grad H = 0 below the ground (H = %g): the "
                          "normal is undefined", hv);
    *h = hv;
    if (w)
        memcpy(w, wv, (size_t)dim * sizeof *w);
    return CDYN_OK;
}

/* Hessian of a callback's H by central differences of its gradient,
 * symmetrized. */
static cdyn_status callback_hessian(const cdyn_system *sys, const cdyn__ground *g, double t,
                                    const double *x, double *hess)
{
    int dim = sys->dim;
    double xs[3], gp[3], gm[3], hdummy;
    memcpy(xs, x, (size_t)dim * sizeof *xs);
    for (int k = 0; k < dim; k++) {
        double step = CDYN__GROUND_FD_STEP * fmax(1.0, fabs(x[k]));
        double xp = x[k] + step, xm = x[k] - step;
        cdyn_status st;
        xs[k] = xp;
        if ((st = callback_call(sys, g, t, xs, false, &hdummy, gp, NULL)))
            return st;
        xs[k] = xm;
        if ((st = callback_call(sys, g, t, xs, false, &hdummy, gm, NULL)))
            return st;
        xs[k] = x[k];
        for (int i = 0; i < dim; i++)
            hess[i * dim + k] = (gp[i] - gm[i]) / (xp - xm);
    }
    for (int i = 0; i < dim; i++)
        for (int j = 0; j < i; j++) {
            double a = 0.5 * (hess[i * dim + j] + hess[j * dim + i]);
            hess[i * dim + j] = hess[j * dim + i] = a;
        }
    return CDYN_OK;
}

/* The ground's own shape at the reference point y: H, grad H, Hessian and
 * the material velocity a callback gives (in the reference frame). */
static cdyn_status eval_reference(const cdyn_system *sys, const cdyn__ground *g, double t,
                                  const double *y, bool below_needs_normal, double *h,
                                  double *grad, double *hess, double *w)
{
    int dim = sys->dim;
    memset(grad, 0, (size_t)dim * sizeof *grad);
    if (hess)
        memset(hess, 0, (size_t)(dim * dim) * sizeof *hess);
    if (w)
        memset(w, 0, (size_t)dim * sizeof *w);
    switch ((cdyn_ground_kind)g->kind) {
    case CDYN_GROUND_PLANE:
        plane_eval(g, dim, y, h, grad);
        return CDYN_OK;
    case CDYN_GROUND_SPHERE:
        sphere_eval(g, dim, y, h, grad, hess);
        return CDYN_OK;
    case CDYN_GROUND_HEIGHTFIELD:
        heightfield_eval(g, dim, y, h, grad, hess);
        return CDYN_OK;
    case CDYN_GROUND_CALLBACK: {
        cdyn_status st = callback_call(sys, g, t, y, below_needs_normal, h, grad, w);
        if (!st && hess)
            st = callback_hessian(sys, g, t, y, hess);
        return st;
    }
    }
    return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "ground: unknown kind %d", (int)g->kind);
}

/* @p x (dim values) as a 3-vector. */
static void pad3(const double *x, int dim, double out[3])
{
    out[0] = x[0];
    out[1] = x[1];
    out[2] = dim == 3 ? x[2] : 0.0;
}

cdyn_status cdyn__ground_at_time(const cdyn_system *sys, const cdyn__ground *g, double t,
                                 cdyn__ground_at *at)
{
    at->t = t;
    at->moving = cdyn__carrier_active(&g->carrier);
    cdyn_status st = CDYN_OK;
    if (at->moving)
        st = cdyn__carrier_frame(sys, &g->carrier, t, &at->frame);
    else
        cdyn__frame_identity(&at->frame);
    cdyn__frame_turn(&at->frame, g->surface_velocity, at->surface);
    return st;
}

cdyn_status cdyn__ground_eval(const cdyn_system *sys, const cdyn__ground *g,
                              const cdyn__ground_at *at, const double *x,
                              bool below_needs_normal, double *h, double *grad, double *hess,
                              double *w)
{
    int dim = sys->dim;
    if (!at->moving) {
        cdyn_status st = eval_reference(sys, g, at->t, x, below_needs_normal, h, grad, hess, w);
        if (!st && w)
            for (int k = 0; k < dim; k++)
                w[k] += at->surface[k];
        return st;
    }
    /* H(x, t) = H_ref(y), y = T^-1 x: gradients and Hessians turn with R. */
    double x3[3], y[3] = {0, 0, 0}, gy[3], ky[9], wy[3];
    pad3(x, dim, x3);
    cdyn__frame_to_reference(&at->frame, x3, y);
    cdyn_status st = eval_reference(sys, g, at->t, y, below_needs_normal, h, gy,
                                    hess ? ky : NULL, w ? wy : NULL);
    if (st)
        return st;
    double g3[3], gw[3];
    pad3(gy, dim, g3);
    cdyn__frame_turn(&at->frame, g3, gw);
    memcpy(grad, gw, (size_t)dim * sizeof *grad);
    if (hess) {
        /* R K R^T on the dim x dim block (R keeps the plane in 2-D). */
        const double *r = at->frame.rot;
        for (int i = 0; i < dim; i++)
            for (int j = 0; j < dim; j++) {
                double sum = 0;
                for (int a = 0; a < dim; a++)
                    for (int b = 0; b < dim; b++)
                        sum += r[i * 3 + a] * ky[a * dim + b] * r[j * 3 + b];
                hess[i * dim + j] = sum;
            }
    }
    if (w) {
        double w3[3], ww[3], fv[3];
        pad3(wy, dim, w3);
        cdyn__frame_turn(&at->frame, w3, ww);
        cdyn__frame_velocity_at(&at->frame, x3, fv);
        for (int k = 0; k < dim; k++)
            w[k] = ww[k] + fv[k] + at->surface[k];
    }
    return CDYN_OK;
}

bool cdyn__ground_acts_on(const cdyn_system *sys, size_t i)
{
    return sys->particles.alive[i] && !sys->fixed[i] && !cdyn__is_kinematic(sys, (uint32_t)i);
}

/* The test of cdyn__ground_surely_above at a reference point. */
static bool surely_above_reference(const cdyn__ground *g, int dim, const double *x)
{
    switch ((cdyn_ground_kind)g->kind) {
    case CDYN_GROUND_PLANE: {
        double s = 0;
        for (int k = 0; k < dim; k++)
            s += g->p[k] * x[k];
        return s >= g->p[3];
    }
    case CDYN_GROUND_SPHERE: {
        double r2 = 0, R2 = g->p[3] * g->p[3];
        for (int k = 0; k < dim; k++)
            r2 += (x[k] - g->p[k]) * (x[k] - g->p[k]);
        /* a relative margin keeps the decision on the safe side of round-off */
        return g->inside ? r2 < R2 * (1.0 - 1e-12) : r2 > R2 * (1.0 + 1e-12);
    }
    case CDYN_GROUND_HEIGHTFIELD:
        return x[g->up] > g->f_hi;
    case CDYN_GROUND_CALLBACK:
        break;
    }
    return false;
}

bool cdyn__ground_surely_above(const cdyn__ground *g, const cdyn__ground_at *at, int dim,
                               const double *x)
{
    if (!at->moving)
        return surely_above_reference(g, dim, x);
    if (g->kind == CDYN_GROUND_CALLBACK)
        return false;
    /* The same test on the point carried back: the full evaluation below
     * transforms it the same way, so the two agree. */
    double x3[3], y[3];
    pad3(x, dim, x3);
    cdyn__frame_to_reference(&at->frame, x3, y);
    return surely_above_reference(g, dim, y);
}

/* The contact quantities of contact/ground.h for h < 0. */
typedef struct contact {
    double n[3], q, d, vn, raw, N, ut[3], w;
} contact;

static void contact_setup(const cdyn__ground *g, int dim, double h, const double *grad,
                          const double *u, contact *c)
{
    c->q = cdyn__vec_norm(grad, dim);
    double inv_q = 1.0 / c->q;
    c->d = -h * inv_q;
    c->vn = 0;
    for (int k = 0; k < dim; k++) {
        c->n[k] = grad[k] * inv_q;
        c->vn += c->n[k] * u[k];
    }
    c->raw = g->stiffness * c->d - g->damping * c->vn;
    c->N = c->raw > 0 ? c->raw : 0.0;
    double t2 = 0;
    for (int k = 0; k < dim; k++) {
        c->ut[k] = u[k] - c->vn * c->n[k];
        t2 += c->ut[k] * c->ut[k];
    }
    c->w = sqrt(t2 + g->friction_speed * g->friction_speed);
}

static void contact_force(const cdyn__ground *g, int dim, const contact *c, double *fn,
                          double *ff)
{
    double a = g->friction * c->N / c->w;
    for (int k = 0; k < dim; k++) {
        fn[k] = c->N * c->n[k];
        ff[k] = -a * c->ut[k];
    }
}

cdyn_status cdyn__ground_force(const cdyn_system *sys, const cdyn__ground *g,
                               const cdyn__ground_at *at, const double *x, const double *u,
                               double *fn, double *ff, double *w, bool *in_contact)
{
    int dim = sys->dim;
    double h, grad[3], wg[3] = {0, 0, 0}, xw[3];
    x = cdyn__box_ground_point(sys->box, dim, x, xw); /* into a periodic box */
    for (int k = 0; k < dim; k++)
        fn[k] = ff[k] = 0.0;
    if (w)
        memset(w, 0, (size_t)dim * sizeof *w);
    *in_contact = false;
    if (cdyn__ground_surely_above(g, at, dim, x))
        return CDYN_OK;
    cdyn_status st = cdyn__ground_eval(sys, g, at, x, true, &h, grad, NULL, wg);
    if (st || !(h < 0))
        return st;
    double rel[3] = {0, 0, 0};
    for (int k = 0; k < dim; k++)
        rel[k] = u[k] - wg[k];
    contact c;
    contact_setup(g, dim, h, grad, rel, &c);
    contact_force(g, dim, &c, fn, ff);
    if (w)
        memcpy(w, wg, (size_t)dim * sizeof *w);
    *in_contact = true;
    return CDYN_OK;
}

/* Adds dF/dx and dF/du of one contact (see docs/ground.md):
 *   dn/dx   = P K / q,  P = I - n n^T, K = Hess H
 *   dd/dx   = -n^T - (d / q) n^T K
 *   dv_n/dx = U_t^T K / q,  dv_n/du = n^T
 *   dN/dx   = S dd/dx - c dv_n/dx,  dN/du = -c n^T   (0 where N = 0)
 *   dU_t/dx = -v_n dn/dx - n dv_n/dx,  dU_t/du = P
 *   F_n = N n:  dF_n = n dN + N dn
 *   F_f = -mu N t, t = U_t / w:  dF_f = -mu (t dN + N (I - t t^T) dU_t / w) */
static void contact_jacobian(const cdyn__ground *g, int dim, const contact *c, const double *K,
                             double *dfdx, double *dfdv)
{
    double S = g->stiffness, cd = g->damping, mu = g->friction;
    double nK[3] = {0, 0, 0}, utK[3] = {0, 0, 0}, Dn[9], dNdx[3] = {0, 0, 0},
           dNdu[3] = {0, 0, 0};
    for (int j = 0; j < dim; j++)
        for (int i = 0; i < dim; i++) {
            nK[j] += c->n[i] * K[i * dim + j];
            utK[j] += c->ut[i] * K[i * dim + j];
        }
    for (int i = 0; i < dim; i++)
        for (int j = 0; j < dim; j++)
            Dn[i * dim + j] = (K[i * dim + j] - c->n[i] * nK[j]) / c->q;
    if (c->raw > 0)
        for (int j = 0; j < dim; j++) {
            dNdx[j] = S * (-c->n[j] - (c->d / c->q) * nK[j]) - cd * utK[j] / c->q;
            dNdu[j] = -cd * c->n[j];
        }
    for (int i = 0; i < dim; i++)
        for (int j = 0; j < dim; j++) {
            if (dfdx)
                dfdx[i * dim + j] += c->n[i] * dNdx[j] + c->N * Dn[i * dim + j];
            if (dfdv)
                dfdv[i * dim + j] += c->n[i] * dNdu[j];
        }
    if (!(mu > 0) || !(c->N > 0))
        return;
    double t[3], dUx[9], P[9];
    for (int i = 0; i < dim; i++) {
        t[i] = c->ut[i] / c->w;
        for (int j = 0; j < dim; j++) {
            dUx[i * dim + j] = -c->vn * Dn[i * dim + j] - c->n[i] * utK[j] / c->q;
            P[i * dim + j] = (i == j ? 1.0 : 0.0) - c->n[i] * c->n[j];
        }
    }
    for (int i = 0; i < dim; i++)
        for (int j = 0; j < dim; j++) {
            double qx = 0, qu = 0;
            for (int k = 0; k < dim; k++) {
                double Q = ((i == k ? 1.0 : 0.0) - t[i] * t[k]) / c->w;
                qx += Q * dUx[k * dim + j];
                qu += Q * P[k * dim + j];
            }
            if (dfdx)
                dfdx[i * dim + j] -= mu * (t[i] * dNdx[j] + c->N * qx);
            if (dfdv)
                dfdv[i * dim + j] -= mu * (t[i] * dNdu[j] + c->N * qu);
        }
}

cdyn_status cdyn__ground_jacobian(const cdyn_system *sys, const cdyn__ground *g,
                                  const cdyn__ground_at *at, const double *x, const double *u,
                                  double *f, double *dfdx, double *dfdv)
{
    int dim = sys->dim;
    double h, grad[3], K[9], wg[3] = {0, 0, 0}, xw[3];
    x = cdyn__box_ground_point(sys->box, dim, x, xw); /* into a periodic box */
    if (cdyn__ground_surely_above(g, at, dim, x))
        return CDYN_OK;
    cdyn_status st = cdyn__ground_eval(sys, g, at, x, true, &h, grad, K, wg);
    if (st || !(h < 0))
        return st;
    double rel[3] = {0, 0, 0};
    for (int k = 0; k < dim; k++)
        rel[k] = u[k] - wg[k];
    contact c;
    contact_setup(g, dim, h, grad, rel, &c);
    if (f) {
        double fn[3], ff[3];
        contact_force(g, dim, &c, fn, ff);
        for (int k = 0; k < dim; k++)
            f[k] += fn[k] + ff[k];
    }
    if (!at->moving || !at->frame.rotates || !dfdx) {
        contact_jacobian(g, dim, &c, K, dfdx, dfdv);
        return CDYN_OK;
    }
    /* The relative velocity u - w(x) with w = p' + omega x (x - p):
     * dF/dx gains dF/du (-[omega]x). */
    double jv[9] = {0}, wx[9] = {0};
    const double *om = at->frame.omega;
    contact_jacobian(g, dim, &c, K, dfdx, jv);
    if (dim == 2) {
        wx[1] = -om[2];
        wx[2] = om[2];
    } else {
        wx[1] = -om[2], wx[2] = om[1];
        wx[3] = om[2], wx[5] = -om[0];
        wx[6] = -om[1], wx[7] = om[0];
    }
    for (int i = 0; i < dim; i++)
        for (int j = 0; j < dim; j++) {
            double s2 = 0;
            for (int k = 0; k < dim; k++)
                s2 += jv[i * dim + k] * wx[k * dim + j];
            dfdx[i * dim + j] -= s2;
            if (dfdv)
                dfdv[i * dim + j] += jv[i * dim + j];
        }
    return CDYN_OK;
}

/* ------------------------------------------------------------------------
 * Contacts on the host's threads
 *
 * When every ground is a plane, sphere or height field at rest with no
 * surface velocity, a contact cannot fail and the power its force delivers
 * is zero: the particles are cut into fixed blocks, each particle receiving
 * the grounds' forces in ground order as in the serial loop (the same
 * bits), and the blocks' powers (zeros, or NaN from a non-finite force, as
 * the serial sum) summed in block order.
 * ------------------------------------------------------------------------ */

/* Particles per block, and the count from which the contacts go to the
 * host's threads (a few nanoseconds per particle and ground). */
#define BLOCK_PARTICLES 4096u
#define PARALLEL_CONTACTS 16384.0
/* Blocks whose powers a parallel pass keeps (more particles: serial). */
#define MAX_BLOCKS 1024u

typedef struct contact_job {
    const cdyn_system *sys;
    double t;
    const double *x, *v;
    double *f;
    double power[MAX_BLOCKS];
} contact_job;

static void contact_task(uint32_t begin, uint32_t end, void *context)
{
    contact_job *j = context;
    const cdyn_system *sys = j->sys;
    const cdyn__grounds *k = sys->grounds;
    const size_t d = (size_t)sys->dim, n = sys->particles.count;
    for (uint32_t b = begin; b < end; b++) {
        const size_t i0 = (size_t)b * BLOCK_PARTICLES;
        const size_t i1 = n - i0 > BLOCK_PARTICLES ? i0 + BLOCK_PARTICLES : n;
        double p = 0;
        for (size_t i = i0; i < i1; i++) {
            if (!cdyn__ground_acts_on(sys, i))
                continue;
            for (uint32_t gi = 0; gi < k->slots.count; gi++) {
                if (!k->slots.alive[gi])
                    continue;
                const cdyn__ground *g = &k->g[gi];
                cdyn__ground_at at;
                (void)cdyn__ground_at_time(sys, g, j->t, &at); /* at rest: cannot fail */
                double xw[3];
                const double *xi = cdyn__box_ground_point(sys->box, sys->dim, j->x + i * d, xw);
                if (cdyn__ground_surely_above(g, &at, sys->dim, xi))
                    continue;
                double fn[3], ff[3], w[3];
                bool in;
                (void)cdyn__ground_force(sys, g, &at, j->x + i * d, j->v + i * d, fn, ff, w,
                                         &in); /* no callback: cannot fail */
                if (in)
                    for (size_t c = 0; c < d; c++) {
                        j->f[i * d + c] += fn[c] + ff[c];
                        p += (fn[c] + ff[c]) * w[c];
                    }
            }
        }
        j->power[b] = p;
    }
}

/* Whether the contacts may go to the host's threads; *blocks receives the
 * count of blocks. */
static bool contacts_split(const cdyn_system *sys, uint32_t *blocks)
{
    const cdyn__grounds *k = sys->grounds;
    const size_t n = sys->particles.count;
    if (!sys->tasks.parallel || n > (size_t)MAX_BLOCKS * BLOCK_PARTICLES)
        return false;
    uint32_t live = 0;
    for (uint32_t gi = 0; gi < k->slots.count; gi++) {
        if (!k->slots.alive[gi])
            continue;
        const cdyn__ground *g = &k->g[gi];
        if (g->kind == CDYN_GROUND_CALLBACK || cdyn__carrier_active(&g->carrier) ||
            g->surface_velocity[0] != 0 || g->surface_velocity[1] != 0 ||
            g->surface_velocity[2] != 0)
            return false;
        live++;
    }
    *blocks = (uint32_t)((n + BLOCK_PARTICLES - 1) / BLOCK_PARTICLES);
    return live > 0 && cdyn__tasks_would_split(&sys->tasks, *blocks, (double)(n * live),
                                               PARALLEL_CONTACTS);
}

cdyn_status cdyn__grounds_apply(const cdyn_system *sys, double t, const double *x,
                                const double *v, double *f, double *power)
{
    const cdyn__grounds *k = sys->grounds;
    if (!k)
        return CDYN_OK;
    uint32_t blocks;
    if (contacts_split(sys, &blocks)) {
        contact_job job;
        job.sys = sys;
        job.t = t;
        job.x = x;
        job.v = v;
        job.f = f;
        cdyn__tasks_run(&sys->tasks, blocks, 1, (double)sys->particles.count, 0.0,
                        contact_task, &job);
        double p = 0;
        for (uint32_t b = 0; b < blocks; b++)
            p += job.power[b];
        if (power)
            *power += p;
        return CDYN_OK;
    }
    size_t d = (size_t)sys->dim, n = sys->particles.count;
    double p = 0;
    for (uint32_t gi = 0; gi < k->slots.count; gi++) {
        if (!k->slots.alive[gi])
            continue;
        const cdyn__ground *g = &k->g[gi];
        cdyn__ground_at at;
        cdyn_status st = cdyn__ground_at_time(sys, g, t, &at);
        if (st)
            return st;
        for (size_t i = 0; i < n; i++) {
            double xw[3];
            const double *xi = cdyn__box_ground_point(sys->box, sys->dim, x + i * d, xw);
            if (!cdyn__ground_acts_on(sys, i) || cdyn__ground_surely_above(g, &at, sys->dim, xi))
                continue;
            double fn[3], ff[3], w[3];
            bool in;
            if ((st = cdyn__ground_force(sys, g, &at, x + i * d, v + i * d, fn, ff, w, &in)))
                return st;
            if (in)
                for (size_t c = 0; c < d; c++) {
                    f[i * d + c] += fn[c] + ff[c];
                    p += (fn[c] + ff[c]) * w[c];
                }
        }
    }
    if (power)
        *power += p;
    return CDYN_OK;
}

cdyn_status cdyn__grounds_jacobian(const cdyn_system *sys, double t, const double *x,
                                   const double *v, double *f, double *dfdx, double *dfdv)
{
    const cdyn__grounds *k = sys->grounds;
    if (!k)
        return CDYN_OK;
    size_t d = (size_t)sys->dim, dd = d * d, n = sys->particles.count;
    for (uint32_t gi = 0; gi < k->slots.count; gi++) {
        if (!k->slots.alive[gi])
            continue;
        cdyn__ground_at at;
        cdyn_status st = cdyn__ground_at_time(sys, &k->g[gi], t, &at);
        if (st)
            return st;
        for (size_t i = 0; i < n; i++) {
            if (!cdyn__ground_acts_on(sys, i))
                continue;
            st = cdyn__ground_jacobian(sys, &k->g[gi], &at, x + i * d, v + i * d,
                                       f ? f + i * d : NULL, dfdx ? dfdx + i * dd : NULL,
                                       dfdv ? dfdv + i * dd : NULL);
            if (st)
                return st;
        }
    }
    return CDYN_OK;
}

cdyn_status cdyn__ground_energy(const cdyn_system *sys, const cdyn__ground *g,
                                const cdyn__ground_at *at, const double *x, double *out)
{
    size_t d = (size_t)sys->dim;
    double e = 0;
    for (size_t i = 0, n = sys->particles.count; i < n; i++) {
        double xw[3];
        const double *xi = cdyn__box_ground_point(sys->box, sys->dim, x + i * d, xw);
        if (!cdyn__ground_acts_on(sys, i) || cdyn__ground_surely_above(g, at, sys->dim, xi))
            continue;
        double h, grad[3];
        cdyn_status st = cdyn__ground_eval(sys, g, at, xi, true, &h, grad, NULL, NULL);
        if (st)
            return st;
        if (h < 0) {
            double depth = -h / cdyn__vec_norm(grad, sys->dim);
            e += 0.5 * g->stiffness * depth * depth;
        }
    }
    *out = e;
    return CDYN_OK;
}

cdyn_status cdyn__grounds_energy(const cdyn_system *sys, double t, const double *x, double *out)
{
    const cdyn__grounds *k = sys->grounds;
    double e = 0;
    for (uint32_t gi = 0; k && gi < k->slots.count; gi++) {
        if (!k->slots.alive[gi])
            continue;
        cdyn__ground_at at;
        double eg;
        cdyn_status st = cdyn__ground_at_time(sys, &k->g[gi], t, &at);
        if (st || (st = cdyn__ground_energy(sys, &k->g[gi], &at, x, &eg)))
            return st;
        e += eg;
    }
    *out = e;
    return CDYN_OK;
}
