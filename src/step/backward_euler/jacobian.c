/* Backward Euler's Newton matrix: the accumulator of Jacobian blocks (also
 * the public cdyn_jacobian), the assembly of K from every force generator,
 * ground and constraint row, finite differences of callback forces, the
 * product with K, and the registration of callbacks with a Jacobian.
 *
 * A block J_ij += B is split into the symmetric part, which goes into the
 * factorized matrix, and the skew part, kept beside it for the product with
 * the whole K (the correction of backward_euler.c): an entry a at (I, J)
 * adds a/2 to both parts of the stored (max, min) entry, with the skew sign
 * telling the triangle. Symmetric input therefore leaves skew = 0 up to
 * rounding. */
#include "step/backward_euler/backward_euler.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/callback.h"
#include "constraint/constraint.h"
#include "constraint/kind.h"
#include "ground/ground.h"
#include "force/force.h"
#include "core/system.h"
#include "step/integrator.h"
#include "core/finite.h"

#define NONE UINT32_MAX

bool cdyn__be_movable(const cdyn_system *sys, uint32_t i)
{
    return sys->inv_mass[i] > 0;
}

uint32_t cdyn__be_find(const cdyn__symmat *a, uint32_t i, uint32_t j)
{
    if (j >= a->n || i >= a->n)
        return NONE;
    uint32_t lo = a->colptr[j], hi = a->colptr[j + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint32_t r = a->rowind[mid];
        if (r == i)
            return mid;
        if (r < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NONE;
}

/* J_ij += B (dim x dim, row-major, B[r * d + c] for rows of slot i and
 * columns of slot j). Returns false when the block is outside the pattern
 * (nothing added). */
static bool add_block(cdyn__be_layout *lay, uint32_t d, uint32_t i, uint32_t j, const double *b)
{
    double *sym = lay->a.val, *skew = lay->skew;
    const uint32_t *cp = lay->a.colptr;
    if (i == j) {
        uint32_t base = i * d;
        for (uint32_t c = 0; c < d; c++)
            for (uint32_t r = 0; r < d; r++) {
                double v = b[r * d + c];
                if (r == c) {
                    sym[cp[base + c]] += v;
                } else if (r > c) {
                    uint32_t p = cp[base + c] + (r - c);
                    sym[p] += 0.5 * v;
                    skew[p] += 0.5 * v;
                } else {
                    uint32_t p = cp[base + r] + (c - r);
                    sym[p] += 0.5 * v;
                    skew[p] -= 0.5 * v;
                }
            }
        return true;
    }
    uint32_t pos[3];
    if (i > j) {
        /* Column j*d + c holds rows i*d .. i*d + d - 1 contiguously. */
        for (uint32_t c = 0; c < d; c++)
            if ((pos[c] = cdyn__be_find(&lay->a, i * d, j * d + c)) == NONE)
                return false;
        for (uint32_t c = 0; c < d; c++)
            for (uint32_t r = 0; r < d; r++) {
                double v = 0.5 * b[r * d + c];
                sym[pos[c] + r] += v;
                skew[pos[c] + r] += v;
            }
    } else {
        /* Entry (i*d + r, j*d + c) is stored at (j*d + c, i*d + r). */
        for (uint32_t r = 0; r < d; r++)
            if ((pos[r] = cdyn__be_find(&lay->a, j * d, i * d + r)) == NONE)
                return false;
        for (uint32_t r = 0; r < d; r++)
            for (uint32_t c = 0; c < d; c++) {
                double v = 0.5 * b[r * d + c];
                sym[pos[r] + c] += v;
                skew[pos[r] + c] -= v;
            }
    }
    return true;
}

/* J_ij += s B when both slots move. */
static void add_moving(struct cdyn_jacobian *acc, uint32_t i, uint32_t j, const double *b,
                       double s)
{
    const cdyn_system *sys = acc->sys;
    if (!cdyn__be_movable(sys, i) || !cdyn__be_movable(sys, j))
        return;
    uint32_t d = (uint32_t)sys->dim;
    double sb[9];
    for (uint32_t q = 0; q < d * d; q++)
        sb[q] = s * b[q];
    if (!add_block(&acc->be->lay, d, i, j, sb))
        acc->dropped++;
}

/* Room for one more collected pair. */
static bool dyn_push(struct cdyn_jacobian *acc, uint32_t i, uint32_t j)
{
    cdyn__be *be = acc->be;
    if (be->ndyn == be->dyn_cap) {
        size_t cap = be->dyn_cap ? 2 * be->dyn_cap : 64;
        if (cdyn__mul_overflows(cap, 2 * sizeof(uint32_t)))
            return false;
        uint32_t *p = cdyn__alloc_array(&acc->sys->alloc, 2 * cap, sizeof *p);
        if (!p)
            return false;
        if (be->ndyn)
            memcpy(p, be->dyn, 2 * be->ndyn * sizeof *p);
        cdyn__free_array(&acc->sys->alloc, be->dyn, 2 * be->dyn_cap, sizeof *p);
        be->dyn = p;
        be->dyn_cap = cap;
    }
    be->dyn[2 * be->ndyn] = i;
    be->dyn[2 * be->ndyn + 1] = j;
    be->ndyn++;
    return true;
}

static void acc_block(struct cdyn_jacobian *acc, uint32_t i, uint32_t j, const double *bdx,
                      const double *bdv)
{
    uint32_t d = (uint32_t)acc->sys->dim;
    switch (acc->mode) {
    case CDYN__ACC_ASSEMBLE: {
        if (!bdx && !bdv)
            return;
        double b[9];
        if (!bdx) {
            /* A velocity block alone (drag): cv dF/dv, no 0 added in front. */
            add_moving(acc, i, j, bdv, acc->cv);
            return;
        }
        for (uint32_t q = 0; q < d * d; q++)
            b[q] = acc->cx * bdx[q] + (bdv ? acc->cv * bdv[q] : 0.0);
        add_moving(acc, i, j, b, 1.0);
        return;
    }
    case CDYN__ACC_PROBE:
        if (i != j) {
            uint32_t hi = i > j ? i : j, lo = i > j ? j : i;
            if (cdyn__be_find(&acc->be->lay.a, hi * d, lo * d) == NONE)
                acc->missing = true;
        }
        return;
    case CDYN__ACC_COLLECT:
        if (i != j && !acc->oom && !dyn_push(acc, i, j))
            acc->oom = true;
        return;
    }
}

/* The accumulator interface of the constraint kinds' Hessians
 * (constraint/kind.h). */
static void hessian_acc(void *ctx, uint32_t i, uint32_t j, const double *block, double coef)
{
    add_moving(ctx, i, j, block, coef);
}

/* The accumulator interface of the force generators (force/force.h). */
static void force_acc(void *ctx, uint32_t i, uint32_t j, const double *bdx, const double *bdv)
{
    acc_block(ctx, i, j, bdx, bdv);
}

cdyn_status cdyn_jacobian_add_block(cdyn_jacobian *jac, size_t i, size_t j, const double *dfdx,
                                    const double *dfdv)
{
    if (!jac)
        return CDYN_ERR_INVALID_ARGUMENT;
    const cdyn_system *sys = jac->sys;
    size_t dd = (size_t)sys->dim * (size_t)sys->dim;
    if (i >= jac->np || j >= jac->np) {
        jac->bad = true;
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "jacobian_add_block: index (%zu, %zu) outside [0, %u)", i, j, jac->np);
    }
    if ((dfdx && !cdyn__all_finite(dfdx, dd)) || (dfdv && !cdyn__all_finite(dfdv, dd))) {
        jac->bad = true;
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "jacobian_add_block: non-finite entry in block (%zu, %zu)", i, j);
    }
    acc_block(jac, (uint32_t)i, (uint32_t)j, dfdx, dfdv);
    return CDYN_OK;
}

/* Calls a user Jacobian through @p acc; a refused block fails the step. */
static cdyn_status user_jacobian(cdyn_system *sys, const cdyn__force *g, uint32_t slot,
                                 struct cdyn_jacobian *acc, double t, const double *x,
                                 const double *v)
{
    acc->bad = false;
    cdyn__callback_enter(sys);
    int rc = g->jac(sys, t, acc->np, sys->dim, x, v, acc, g->user);
    cdyn__callback_leave(sys);
    if (rc != 0)
        return cdyn__fail(sys, CDYN_ERR_CALLBACK,
                          "force Jacobian callback (slot %u) returned %d at t = %g", slot, rc, t);
    if (acc->bad) {
        /* The refusal's own message, "jacobian_add_block: ...", goes on. */
        char why[CDYN__ERROR_LEN];
        memcpy(why, sys->error, sizeof why);
        return cdyn__fail(sys, CDYN_ERR_CALLBACK,
                          "force Jacobian callback (slot %u) added an invalid block at t = %g (%s)",
                          slot, t, why);
    }
    return CDYN_OK;
}

cdyn_status cdyn__be_dynamic_blocks(cdyn_system *sys, struct cdyn_jacobian *acc, double t,
                                    const double *x, const double *xp, const double *v)
{
    const cdyn__force *g = sys->force;
    for (uint32_t i = 0; i < sys->forces.count; i++) {
        if (!sys->forces.alive[i] || !g[i].ops->dynamic_pattern)
            continue;
        if (g[i].ops->jacobian) {
            g[i].ops->jacobian(sys, &g[i], x, v, false, force_acc, acc);
            if (xp)
                g[i].ops->jacobian(sys, &g[i], xp, v, false, force_acc, acc);
        } else if (g[i].jac) {
            cdyn_status st = user_jacobian(sys, &g[i], i, acc, t, x, v);
            if (st)
                return st;
        }
    }
    return CDYN_OK;
}

/* Finite-difference step for a value z of scale s: sqrt(eps) max(|z|, s),
 * rounded so that (z + step) - z is exact. */
static double fd_step(double z, double s)
{
    double a = fabs(z) > s ? fabs(z) : s;
    double del = 1.4901161193847656e-08 * (a > 0 ? a : 1.0);
    volatile double zp = z + del; /* keep the rounding of the sum */
    return zp - z;
}

/* Diagonal blocks of a callback force by forward differences, every slot
 * perturbed at once in one component (exact when each particle's force
 * depends on its own state only): 1 + dim (+ dim when velocity dependent)
 * calls of the callback. */
static cdyn_status fd_callback(cdyn_system *sys, const cdyn__force *g, uint32_t slot,
                               struct cdyn_jacobian *acc, double t1, const double *x,
                               const double *v)
{
    cdyn__be_layout *lay = &cdyn__be_of(sys)->lay;
    const uint32_t d = (uint32_t)sys->dim, np = lay->np;
    const size_t nv = lay->nv;
    double *z = lay->fd_z, *f0 = lay->fd_f0, *f1 = lay->fd_f1;
    double xs = 0, vs = 0;
    for (size_t i = 0; i < nv; i++) {
        if (fabs(x[i]) > xs)
            xs = fabs(x[i]);
        if (fabs(v[i]) > vs)
            vs = fabs(v[i]);
    }
    double h = -acc->cv;
    if (xs / h > vs)
        vs = xs / h;
    memset(f0, 0, nv * sizeof *f0);
    cdyn__callback_enter(sys);
    int rc = g->fn(sys, t1, np, sys->dim, x, v, f0, g->user);
    cdyn__callback_leave(sys);
    lay->n_fd++;
    for (size_t i = 0; rc == 0 && i < nv; i++)
        lay->fd_base[i] += f0[i];
    for (int pass = 0; rc == 0 && pass < 1 + (g->velocity_dependent != 0); pass++) {
        const double *base = pass ? v : x;
        double scale = pass ? vs : xs, coef = pass ? acc->cv : acc->cx;
        for (uint32_t c = 0; c < d && rc == 0; c++) {
            memcpy(z, base, nv * sizeof *z);
            for (uint32_t s = 0; s < np; s++)
                if (cdyn__be_movable(sys, s))
                    z[s * d + c] += fd_step(base[s * d + c], scale);
            memset(f1, 0, nv * sizeof *f1);
            cdyn__callback_enter(sys);
            rc = g->fn(sys, t1, np, sys->dim, pass ? x : z, pass ? z : v, f1, g->user);
            cdyn__callback_leave(sys);
            if (rc)
                break;
            for (uint32_t s = 0; s < np; s++) {
                if (!cdyn__be_movable(sys, s))
                    continue;
                double del = fd_step(base[s * d + c], scale), b[9] = {0};
                for (uint32_t r = 0; r < d; r++) {
                    b[r * d + c] = coef * (f1[s * d + r] - f0[s * d + r]) / del;
                    lay->fd_diag[(size_t)s * d * d + r * d + c] += b[r * d + c];
                }
                add_moving(acc, s, s, b, 1.0);
            }
        }
    }
    if (rc != 0)
        return cdyn__fail(sys, CDYN_ERR_CALLBACK,
                          "force callback (slot %u) returned %d at t = %g (finite differences)",
                          slot, rc, t1);
    return CDYN_OK;
}

/* Rows of the constraints: G (lower triangle, symmetric), -alpha / h^2 on
 * the diagonal, and h nu_r Hess g_r into J for the kinds whose Hessian is
 * known (rods, anchors, implicit curves; pins and planes have none; user
 * constraints give none, which makes Newton inexact for them). */
static cdyn_status assemble_constraints(cdyn_system *sys, struct cdyn_jacobian *acc, double h,
                                        double t1, const double *x, const double *nu, const double *jac,
                                        bool definite)
{
    cdyn__constraints *k = sys->cons;
    cdyn__be_layout *lay = &cdyn__be_of(sys)->lay;
    const uint32_t d = (uint32_t)sys->dim, nv = lay->nv;
    double *sym = lay->a.val;
    for (uint32_t ai = 0; ai < k->n_active; ai++) {
        cdyn__constraint *c = &k->c[k->active[ai]];
        uint32_t npc = c->n_particles;
        for (uint32_t r = 0; r < c->n_rows; r++) {
            uint32_t row = nv + c->row + r;
            sym[lay->a.colptr[row]] = -c->compliance / (h * h);
            for (uint32_t j = 0; j < npc; j++) {
                uint32_t s = cdyn__constraint_particle(c, j);
                if (!cdyn__be_movable(sys, s))
                    continue;
                const double *gb = jac + ((size_t)c->blk + (size_t)r * npc + j) * d;
                for (uint32_t q = 0; q < d; q++) {
                    uint32_t p = cdyn__be_find(&lay->a, row, s * d + q);
                    if (p == NONE) {
                        acc->dropped++;
                        break;
                    }
                    sym[p] += gb[q];
                }
            }
        }
        /* h nu Hess g of the kinds whose Hessian is known. */
        cdyn_status st = cdyn__kind_of(c)->hessian(sys, c, t1, x, h * nu[c->row], definite,
                                                hessian_acc, acc);
        if (st)
            return st;
    }
    return CDYN_OK;
}

cdyn_status cdyn__be_assemble(cdyn_system *sys, double h, double t1, const double *x,
                              const double *v, const double *nu, const double *jac,
                              bool definite)
{
    cdyn__be *be = cdyn__be_of(sys);
    cdyn__be_layout *lay = &be->lay;
    const uint32_t d = (uint32_t)sys->dim, np = lay->np, dd = d * d;
    memset(lay->a.val, 0, (size_t)lay->a.nnz * sizeof *lay->a.val);
    memset(lay->skew, 0, (size_t)lay->a.nnz * sizeof *lay->skew);
    lay->n_fd = 0;
    if (lay->fd_diag) {
        memset(lay->fd_diag, 0, (size_t)np * dd * sizeof *lay->fd_diag);
        memset(lay->fd_base, 0, (size_t)lay->nv * sizeof *lay->fd_base);
    }
    for (uint32_t s = 0; s < np; s++) {
        double m = cdyn__be_movable(sys, s) ? sys->mass[s] : 1.0;
        for (uint32_t q = 0; q < d; q++)
            lay->a.val[lay->a.colptr[s * d + q]] = m;
    }
    struct cdyn_jacobian acc = {sys, be, CDYN__ACC_ASSEMBLE, np, -h * h, -h, false, false,
                                false, 0};
    cdyn_status st = CDYN_OK;
    /* J = M - h dF/dv - h^2 dF/dx: each generator's blocks with
     * cx = -h^2, cv = -h; callbacks through the user's Jacobian or
     * differences. */
    const cdyn__force *g = sys->force;
    for (uint32_t i = 0; i < sys->forces.count && !st; i++) {
        if (!sys->forces.alive[i])
            continue;
        if (g[i].ops->jacobian)
            g[i].ops->jacobian(sys, &g[i], x, v, definite, force_acc, &acc);
        else
            st = g[i].jac ? user_jacobian(sys, &g[i], i, &acc, t1, x, v)
                          : fd_callback(sys, &g[i], i, &acc, t1, x, v);
    }
    if (!st && sys->grounds) {
        memset(be->gdx, 0, (size_t)np * dd * sizeof *be->gdx);
        memset(be->gdv, 0, (size_t)np * dd * sizeof *be->gdv);
        st = cdyn__grounds_jacobian(sys, t1, x, v, NULL, be->gdx, be->gdv);
        for (uint32_t s = 0; s < np && !st; s++) {
            double b[9];
            for (uint32_t q = 0; q < dd; q++)
                b[q] = -h * h * be->gdx[s * dd + q] - h * be->gdv[s * dd + q];
            add_moving(&acc, s, s, b, 1.0);
        }
    }
    if (!st && sys->cons && lay->nc)
        st = assemble_constraints(sys, &acc, h, t1, x, nu, jac, definite);
    be->stats.dropped_blocks += acc.dropped;
    return st;
}

void cdyn__be_multiply(const cdyn__be_layout *lay, const double *z, double *y)
{
    const uint32_t n = lay->a.n, *cp = lay->a.colptr, *ri = lay->a.rowind;
    const double *sym = lay->a.val, *skew = lay->skew, *da = lay->diag_add;
    memset(y, 0, (size_t)n * sizeof *y);
    for (uint32_t j = 0; j < n; j++) {
        uint32_t p = cp[j];
        double yj = (sym[p] + da[j]) * z[j];
        for (p++; p < cp[j + 1]; p++) {
            uint32_t i = ri[p];
            y[i] += (sym[p] + skew[p]) * z[j];
            yj += (sym[p] - skew[p]) * z[i];
        }
        y[j] += yj;
    }
}

bool cdyn__be_has_fd(const cdyn_system *sys)
{
    for (uint32_t i = 0; i < sys->forces.count; i++)
        if (sys->forces.alive[i] && !sys->force[i].ops->jacobian && !sys->force[i].jac)
            return true;
    return false;
}

cdyn_status cdyn__be_apply(cdyn_system *sys, double h, double t1, const double *z, double *y)
{
    cdyn__be_layout *lay = &cdyn__be_of(sys)->lay;
    cdyn__be_multiply(lay, z, y);
    if (!lay->n_fd)
        return CDYN_OK;
    const uint32_t d = (uint32_t)sys->dim, np = lay->np, nv = lay->nv;
    const double *x = lay->x, *v = lay->v;
    double zmax = 0, xs = 0, vs = 0;
    for (uint32_t i = 0; i < nv; i++) {
        if (cdyn__be_movable(sys, i / d) && fabs(z[i]) > zmax)
            zmax = fabs(z[i]);
        xs = fabs(x[i]) > xs ? fabs(x[i]) : xs;
        vs = fabs(v[i]) > vs ? fabs(v[i]) : vs;
    }
    if (zmax == 0)
        return CDYN_OK; /* no velocity part: the callbacks add nothing */
    /* Perturb positions by sqrt(eps) of their scale (and velocities by that
     * over h): -h dF/dv - h^2 dF/dx applied to z is -h d/de F(x + e h z, v + e z). */
    double s = xs > h * vs ? xs : h * vs;
    s = s > h * zmax ? s : h * zmax;
    const double e = 1.4901161193847656e-08 * s / (h * zmax);
    double *xp = lay->fd_z, *vp = lay->fd_f0, *f1 = lay->fd_f1;
    for (uint32_t i = 0; i < nv; i++) {
        bool moves = cdyn__be_movable(sys, i / d);
        xp[i] = moves ? x[i] + e * h * z[i] : x[i];
        vp[i] = moves ? v[i] + e * z[i] : v[i];
    }
    memset(f1, 0, (size_t)nv * sizeof *f1);
    const cdyn__force *g = sys->force;
    for (uint32_t i = 0; i < sys->forces.count; i++) {
        if (!sys->forces.alive[i] || g[i].ops->jacobian || g[i].jac)
            continue;
        cdyn__callback_enter(sys);
        int rc = g[i].fn(sys, t1, np, sys->dim, xp, vp, f1, g[i].user);
        cdyn__callback_leave(sys);
        if (rc != 0)
            return cdyn__fail(sys, CDYN_ERR_CALLBACK,
                              "force callback (slot %u) returned %d at t = %g (Jacobian product)",
                              i, rc, t1);
    }
    for (uint32_t s2 = 0; s2 < np; s2++) {
        if (!cdyn__be_movable(sys, s2))
            continue;
        const double *blk = lay->fd_diag + (size_t)s2 * d * d;
        for (uint32_t r = 0; r < d; r++) {
            uint32_t i = s2 * d + r;
            double t = -h * (f1[i] - lay->fd_base[i]) / e;
            for (uint32_t c = 0; c < d; c++)
                t -= blk[r * d + c] * z[s2 * d + c];
            y[i] += t;
        }
    }
    return CDYN_OK;
}
