/* The projections (docs/rattle.md): SHAKE sweeps and the Newton iteration
 * for positions, the velocity projection, and their residual tests.
 * Allocates nothing.
 *
 * Two paths. When every row is a rod (chains, cloth, polymers) the passes
 * run over the compact arrays of projection.h (two particle indices and a
 * length per row, the Jacobian blocks in row order), specialised on the
 * dimension. Otherwise over the constraints, rods and anchors inline and
 * every other kind through its evaluator. Particles on shapes are refused
 * before anything here runs, so W is the diagonal of inverse masses.
 *
 * Round-off: corrections accumulate in the displacement buffer dx (small
 * numbers, accurate) and reach the positions once, at the end. Rods and
 * anchors evaluate their residual from (x_b - x_a) + (dx_b - dx_a), which
 * is exact up to the last bits of a length, so the iteration converges to
 * the tolerance whatever the distance from the origin; storing x + dx then
 * rounds each coordinate once, by at most half an ulp. Adding a particle's
 * corrections to a far coordinate one by one instead would round each of
 * the large, nearly opposite terms and leave rod errors of a few ulps of
 * the coordinate. Other kinds evaluate at the rounded x + dx, hence the
 * round-off floor of their test (projection.h). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/compiler.h"
#include "core/vec.h"
#include "constraint/constraint.h"
#include "constraint/kind.h"
#include "projection/projection.h"
#include "projection/projection_pass.h"
#include "core/system.h"

/* In 2-D a particle's coordinates fill one 16-byte vector: with GCC and
 * Clang the rod kernels use the vector type of core/vec.h for them. */
static double length_scale(const cdyn__constraint *c)
{
    return cdyn__kind_of(c)->length_scale(c);
}

/* Largest coordinate magnitude among the particles of @p c at @p x (and its
 * fixed point, for the kinds that have one). */
static double coordinate_magnitude(const cdyn_system *sys, const cdyn__constraint *c,
                                   const double *x)
{
    size_t d = (size_t)sys->dim;
    double m = 0;
    for (uint32_t j = 0; j < c->n_particles; j++) {
        const double *xp = x + (size_t)cdyn__constraint_particle(c, j) * d;
        for (size_t q = 0; q < d; q++)
            m = cdyn__maxd(m, cdyn__absd(xp[q]));
    }
    const cdyn__constraint_kind *kind = cdyn__kind_of(c);
    const double *fixed = kind->fixed_point ? kind->fixed_point(c) : NULL;
    if (fixed)
        for (size_t q = 0; q < d; q++)
            m = cdyn__maxd(m, cdyn__absd(fixed[q]));
    return m;
}

/* Largest squared speed among the particles of @p c. */
static double speed2(const cdyn_system *sys, const cdyn__constraint *c, const double *v)
{
    size_t d = (size_t)sys->dim;
    double m = 0;
    for (uint32_t j = 0; j < c->n_particles; j++) {
        const double *vp = v + (size_t)cdyn__constraint_particle(c, j) * d;
        double s = 0;
        for (size_t q = 0; q < d; q++)
            s += vp[q] * vp[q];
        m = cdyn__maxd(m, s);
    }
    return m;
}

/* Squared largest block norm of row r of a constraint's blocks @p jac. */
static double row_block2(const double *jac, uint32_t np, uint32_t r, size_t d)
{
    double b2 = 0;
    for (uint32_t j = 0; j < np; j++) {
        const double *jb = jac + ((size_t)r * np + j) * d;
        double s = 0;
        for (size_t q = 0; q < d; q++)
            s += jb[q] * jb[q];
        b2 = cdyn__maxd(b2, s);
    }
    return b2;
}

/* Writes x + dx into the scratch positions xs for the particles of @p c, so
 * that its evaluator can read them there. */
static void materialize(const cdyn_system *sys, const cdyn__constraint *c, const double *x,
                        const double *dx, double *xs)
{
    size_t d = (size_t)sys->dim;
    for (uint32_t j = 0; j < c->n_particles; j++) {
        size_t s = (size_t)cdyn__constraint_particle(c, j) * d;
        for (size_t q = 0; q < d; q++)
            xs[s + q] = x[s + q] + dx[s + q];
    }
}

/* ------------------------------------------------------------------------
 * Jacobian and matrix at a state
 * ------------------------------------------------------------------------ */

/* Rod: blocks (-d, d), A_rr = (w_a + w_b) |d|^2, and with v: rhs = -G v. */
static CDYN__ALWAYS_INLINE void rod_jac(cdyn__constraints *k, uint32_t row, uint32_t blk,
                                        size_t ia, size_t ib, const double *x, const double *v,
                                        const double *w, const int matrix, size_t D)
{
    const double *xa = x + ia * D, *xb = x + ib * D;
    double *ja = k->jac + (size_t)blk * D;
    double d2 = 0, gv = 0;
#ifdef CDYN__HAVE_V2D
    if (D == 2) {
        cdyn__v2d dq = cdyn__v2d_load(xb) - cdyn__v2d_load(xa);
        cdyn__v2d_store(ja, -dq);
        cdyn__v2d_store(ja + 2, dq);
        d2 = cdyn__v2d_sum(dq * dq);
        if (v)
            gv = cdyn__v2d_sum(dq * (cdyn__v2d_load(v + ib * 2) - cdyn__v2d_load(v + ia * 2)));
    } else
#endif
        for (size_t q = 0; q < D; q++) {
            double dq = xb[q] - xa[q];
            ja[q] = -dq;
            ja[D + q] = dq;
            d2 += dq * dq;
            if (v)
                gv += dq * (v[ib * D + q] - v[ia * D + q]);
        }
    if (matrix)
        k->a.val[k->a.colptr[row]] = (w[ia] + w[ib]) * d2;
    if (v)
        k->rhs[row] = -gv;
}

static CDYN__ALWAYS_INLINE void anchor_jac(cdyn__constraints *k, const cdyn__constraint *c,
                                           const double *x, const double *v, const double *w,
                                           const int matrix, size_t D)
{
    size_t ip = c->u.particle[0];
    const double *xp = x + ip * D;
    double *jp = k->jac + (size_t)c->blk * D;
    double d2 = 0, gv = 0;
    for (size_t q = 0; q < D; q++) {
        double dq = xp[q] - c->d.p[q];
        jp[q] = dq;
        d2 += dq * dq;
        if (v)
            gv += dq * v[ip * D + q];
    }
    if (matrix)
        k->a.val[k->a.colptr[c->row]] = w[ip] * d2;
    if (v)
        k->rhs[c->row] = -gv;
}

static cdyn_status generic_jac(cdyn_system *sys, cdyn__constraint *c, double t, const double *x,
                               const double *v, const int matrix)
{
    cdyn__constraints *k = sys->cons;
    size_t d = (size_t)sys->dim;
    double *jac = k->jac + (size_t)c->blk * d;
    double *gt = k->gt ? k->gt + c->row : NULL;
    cdyn_status st = cdyn__constraint_eval(sys, c, t, x, v ? v : sys->v, k->g + c->row, jac,
                                           k->scratch, gt);
    if (st)
        return st;
    uint32_t np = c->n_particles;
    for (uint32_t r = 0; r < c->n_rows; r++) {
        double diag = 0, gv = gt ? gt[r] : 0.0;
        for (uint32_t j = 0; j < np; j++) {
            const double *jb = jac + ((size_t)r * np + j) * d;
            size_t s = cdyn__constraint_particle(c, j);
            double b2 = 0;
            for (size_t q = 0; q < d; q++) {
                b2 += jb[q] * jb[q];
                if (v)
                    gv += jb[q] * v[s * d + q];
            }
            diag += sys->inv_mass[s] * b2;
        }
        if (matrix)
            k->a.val[k->a.colptr[c->row + r]] = diag;
        if (v)
            k->rhs[c->row + r] = -gv;
    }
    return CDYN_OK;
}

static CDYN__ALWAYS_INLINE cdyn_status assemble_rows(cdyn_system *sys, double t,
                                                     const double *x, const double *v,
                                                     const int matrix, size_t D)
{
    cdyn__constraints *k = sys->cons;
    const cdyn__projection *pr = sys->proj;
    const double *w = sys->inv_mass;
    if (pr->rods) {
        const uint32_t *e = pr->ends;
        for (uint32_t r = 0; r < k->n_rows; r++)
            rod_jac(k, r, 2 * r, e[2 * (size_t)r], e[2 * (size_t)r + 1], x, v, w, matrix, D);
        return CDYN_OK;
    }
    for (uint32_t a = 0; a < k->n_active; a++) {
        cdyn__constraint *c = &k->c[k->active[a]];
        const cdyn__row_path path = cdyn__constraint_path(c);
        if (path == CDYN__ROWS_ROD) {
            rod_jac(k, c->row, c->blk, c->u.particle[0], c->u.particle[1], x, v, w, matrix, D);
        } else if (path == CDYN__ROWS_ANCHOR) {
            anchor_jac(k, c, x, v, w, matrix, D);
        } else {
            cdyn_status st = generic_jac(sys, c, t, x, v, matrix);
            if (st)
                return st;
        }
    }
    return CDYN_OK;
}

static CDYN__ALWAYS_INLINE void assemble_terms(cdyn_system *sys, size_t D)
{
    cdyn__constraints *k = sys->cons;
    const double *w = sys->inv_mass, *jac = k->jac;
    const uint32_t *bp = k->blk_particle;
    double *val = k->a.val;
    const cdyn__aterm *t = k->terms;
    for (size_t i = 0; i < k->n_terms; i++) {
        const double *p = jac + D * t[i].bi, *q = jac + D * t[i].bj;
        double s = 0;
        for (size_t e = 0; e < D; e++)
            s += p[e] * q[e];
        val[t[i].pos] += w[bp[t[i].bi]] * s;
    }
}

/* k->jac = G(x, t); with @p matrix the values of A = G W G^T; with @p v
 * the right-hand side -(G v + dg/dt) of the velocity projection. */
static cdyn_status assemble(cdyn_system *sys, double t, const double *x, const double *v,
                            const int matrix)
{
    cdyn__constraints *k = sys->cons;
    sys->proj->valid = false; /* k->jac (and k->a.val) change */
    if (matrix)
        memset(k->a.val, 0, (size_t)k->a.nnz * sizeof *k->a.val);
    cdyn_status st = sys->dim == 2 ? assemble_rows(sys, t, x, v, matrix, 2)
                                   : assemble_rows(sys, t, x, v, matrix, 3);
    if (st || !matrix)
        return st;
    if (sys->dim == 2)
        assemble_terms(sys, 2);
    else
        assemble_terms(sys, 3);
    return CDYN_OK;
}

/* Factors k->a (values assembled) into k->ldlt; with @p rhs also solves
 * for it in place. Remembers what it factored, for a later reuse. */
static cdyn_status factor(cdyn_system *sys, const double *x, double *rhs, const char *who)
{
    cdyn__constraints *k = sys->cons;
    cdyn__projection *pr = sys->proj;
    cdyn_status st = cdyn__constraints_analysis(sys, who);
    if (st)
        return st;
    st = rhs ? cdyn__ldlt_factor_solve(&k->ldlt, &k->a, NULL, CDYN__REDUNDANT_PIVOT, rhs)
             : cdyn__ldlt_factor(&k->ldlt, &k->a, NULL, CDYN__REDUNDANT_PIVOT);
    pr->stats.factorizations++;
    if (st)
        return cdyn__fail(sys, CDYN_ERR_DIVERGED, "%s: non-finite constraint matrix", who);
    if (pr->pure) {
        memcpy(pr->xcopy, x, (size_t)sys->particles.count * (size_t)sys->dim * sizeof *x);
        memcpy(pr->wcopy, sys->inv_mass, sys->particles.count * sizeof *pr->wcopy);
    } else {
        memcpy(pr->aval, k->a.val, (size_t)k->a.nnz * sizeof *pr->aval);
    }
    pr->valid = true;
    pr->stamp = k->stats.solves;
    pr->factor_serial = k->serial;
    return CDYN_OK;
}

/* The matrix of the position projection at x_ref, factored: reused when
 * the factorization held is of this very matrix (RATTLE: the one made at
 * the end of the previous step). With built-in kinds only, G W G^T follows
 * from the positions and inverse masses, which are compared with those of
 * the factorization (k->jac then holds G(x_ref) already); user and implicit
 * callbacks may answer differently for the same positions, so with them the
 * matrix is assembled and its values compared. */
static cdyn_status position_matrix(cdyn_system *sys, const double *x_ref, const char *who,
                                   bool *same)
{
    cdyn__constraints *k = sys->cons;
    cdyn__projection *pr = sys->proj;
    bool held = pr->valid && k->ldlt.factored && k->stats.solves == pr->stamp &&
                k->serial == pr->factor_serial;
    *same = false;
    if (held && pr->pure &&
        memcmp(pr->xcopy, x_ref,
               (size_t)sys->particles.count * (size_t)sys->dim * sizeof *x_ref) == 0 &&
        memcmp(pr->wcopy, sys->inv_mass, sys->particles.count * sizeof *pr->wcopy) == 0) {
        *same = true; /* and k->jac holds G(x_ref) */
        return CDYN_OK;
    }
    cdyn_status st = assemble(sys, pr->t_ref, x_ref, NULL, 1);
    if (st)
        return st;
    if (held && !pr->pure &&
        memcmp(k->a.val, pr->aval, (size_t)k->a.nnz * sizeof *pr->aval) == 0) {
        pr->valid = true;
        return CDYN_OK;
    }
    return factor(sys, x_ref, NULL, who);
}

/* ------------------------------------------------------------------------
 * Messages
 * ------------------------------------------------------------------------ */

static unsigned long long row_handle(const cdyn_system *sys, uint32_t row)
{
    const cdyn__constraints *k = sys->cons;
    uint32_t slot = cdyn__constraints_row_owner(k, row);
    return cdyn__handle_make(CDYN__KIND_CONSTRAINT, sys->salt, k->slots.generation[slot], slot);
}

/* @p p is the last pass with finite residuals; @p diverged: the next one
 * was not finite. */
static cdyn_status not_converged(cdyn_system *sys, const cdyn__pass *p, const char *who,
                                 const char *what, size_t iterations, double tol, bool diverged)
{
    cdyn__projection *pr = sys->proj;
    pr->stats.not_converged++;
    unsigned long long h = row_handle(sys, p->bad_row);
    return cdyn__fail(sys, CDYN_ERR_NOT_CONVERGED,
                      "%s: %s projection %s in %zu iterations: constraint "
                      "0x%016llx (row %u) has relative residual %.3g > tolerance %.3g "
                      "(%u rows above); state kept",
                      who, what, diverged ? "diverged" : "not converged", iterations, h,
                      p->bad_row, cdyn__pass_bad(p), tol, p->n_bad);
}

static cdyn_status non_finite(cdyn_system *sys, const char *who, const char *what)
{
    return cdyn__fail(sys, CDYN_ERR_DIVERGED,
                      "%s: non-finite state in the %s projection; state kept", who, what);
}

static const char *who_of(const cdyn_system *sys)
{
    return sys->proj->who;
}

cdyn_status cdyn__projection_not_converged(cdyn_system *sys, const cdyn__pass *p, const char *what,
                                           size_t iterations, double tol, bool diverged)
{
    return not_converged(sys, p, who_of(sys), what, iterations, tol, diverged);
}

cdyn_status cdyn__projection_non_finite(cdyn_system *sys, const char *what)
{
    return non_finite(sys, who_of(sys), what);
}

cdyn_constraint cdyn__projection_row_handle(const cdyn_system *sys, uint32_t row)
{
    return (cdyn_constraint)row_handle(sys, row);
}

/* ------------------------------------------------------------------------
 * Positions
 * ------------------------------------------------------------------------ */

/* g of every row at time t and the positions @p x (no displacement, no
 * test) into @p out. */
static cdyn_status rows_g(cdyn_system *sys, double t, const double *x, double *out)
{
    cdyn__constraints *k = sys->cons;
    const size_t d = (size_t)sys->dim;
    for (uint32_t a = 0; a < k->n_active; a++) {
        const cdyn__constraint *c = &k->c[k->active[a]];
        const cdyn__row_path path = cdyn__constraint_path(c);
        if (path != CDYN__ROWS_GENERIC) {
            /* g = (|e|^2 - L^2) / 2, e = x_b - x_a or x - anchor. */
            const bool rod = path == CDYN__ROWS_ROD;
            const double *xa = x + (size_t)c->u.particle[0] * d;
            const double *xb = rod ? x + (size_t)c->u.particle[1] * d : c->d.p;
            double e2 = 0;
            for (size_t q = 0; q < d; q++) {
                double e = rod ? xb[q] - xa[q] : xa[q] - xb[q];
                e2 += e * e;
            }
            double l = cdyn__kind_of(c)->length_scale(c);
            out[c->row] = 0.5 * (e2 - l * l);
            continue;
        }
        double *g = k->scratch, *bias = g + c->n_rows, *jac = bias + c->n_rows;
        cdyn_status st = cdyn__constraint_eval(sys, c, t, x, sys->v, g, jac, bias, NULL);
        if (st)
            return st;
        memcpy(out + c->row, g, c->n_rows * sizeof *g);
    }
    return CDYN_OK;
}

/* Rod residual at x + dx into rhs = -g, tested. */
static CDYN__ALWAYS_INLINE void rod_g(double *rhs, uint32_t row, size_t ia, size_t ib, double l,
                                      const double *restrict x, const double *restrict dx,
                                      cdyn__pass *p, double tol2, size_t D)
{
    ia *= D;
    ib *= D;
    double d2 = 0;
#ifdef CDYN__HAVE_V2D
    if (D == 2) {
        cdyn__v2d dq = (cdyn__v2d_load(x + ib) - cdyn__v2d_load(x + ia)) + (cdyn__v2d_load(dx + ib) - cdyn__v2d_load(dx + ia));
        d2 = cdyn__v2d_sum(dq * dq);
    } else
#endif
        for (size_t q = 0; q < D; q++) {
            double dq = (x[ib + q] - x[ia + q]) + (dx[ib + q] - dx[ia + q]);
            d2 += dq * dq;
        }
    double g = 0.5 * (d2 - l * l);
    rhs[row] = -g;
    cdyn__check_exact(p, row, g, d2, l, tol2);
}

static CDYN__ALWAYS_INLINE void anchor_g(cdyn__constraints *k, const cdyn__constraint *c,
                                         const double *x, const double *dx, cdyn__pass *p,
                                         double tol2, size_t D)
{
    size_t ip = c->u.particle[0] * D;
    double d2 = 0;
    for (size_t q = 0; q < D; q++) {
        double dq = (x[ip + q] - c->d.p[q]) + dx[ip + q];
        d2 += dq * dq;
    }
    double l = c->d.p[3], g = 0.5 * (d2 - l * l);
    k->rhs[c->row] = -g;
    cdyn__check_exact(p, c->row, g, d2, l, tol2);
}

/* Residuals of constraint c at x + dx (its Jacobian there into scratch). */
static cdyn_status generic_g(cdyn_system *sys, cdyn__constraint *c, const double *x,
                             const double *dx, cdyn__pass *p, double tol2)
{
    cdyn__constraints *k = sys->cons;
    size_t d = (size_t)sys->dim;
    double *g = k->scratch, *bias = g + c->n_rows, *jac = bias + c->n_rows;
    double *xs = sys->proj->xs;
    materialize(sys, c, x, dx, xs);
    cdyn_status st = cdyn__constraint_eval(sys, c, sys->proj->t, xs, sys->v, g, jac, bias, NULL);
    if (st)
        return st;
    double s = length_scale(c), m = coordinate_magnitude(sys, c, xs);
    for (uint32_t r = 0; r < c->n_rows; r++) {
        k->rhs[c->row + r] = -g[r];
        cdyn__check_rounded(p, c->row + r, g[r], row_block2(jac, c->n_particles, r, d), s, m, tol2);
    }
    return CDYN_OK;
}

/* rhs = -g(x + dx) for every row, tested against the position tolerance. */
static CDYN__ALWAYS_INLINE cdyn_status position_pass_d(cdyn_system *sys, const double *x,
                                                       const double *dx, cdyn__pass *p, size_t D)
{
    cdyn__constraints *k = sys->cons;
    const cdyn__projection *pr = sys->proj;
    const double tol = pr->opt.position_tolerance, tol2 = cdyn__tol2_of(tol);
    cdyn__pass_init(p);
    if (pr->rods) {
        /* A local copy, so that its fields stay in registers. */
        cdyn__pass q = *p;
        const uint32_t *restrict e = pr->ends;
        const double *restrict len = pr->len;
        double *restrict rhs = k->rhs;
        const uint32_t n = k->n_rows;
        for (uint32_t r = 0; r < n; r++)
            rod_g(rhs, r, e[2 * (size_t)r], e[2 * (size_t)r + 1], len[r], x, dx, &q, tol2, D);
        *p = q;
        return CDYN_OK;
    }
    for (uint32_t a = 0; a < k->n_active; a++) {
        cdyn__constraint *c = &k->c[k->active[a]];
        const cdyn__row_path path = cdyn__constraint_path(c);
        if (path == CDYN__ROWS_ROD) {
            rod_g(k->rhs, c->row, c->u.particle[0], c->u.particle[1], c->d.p[0], x, dx, p, tol2,
                  D);
        } else if (path == CDYN__ROWS_ANCHOR) {
            anchor_g(k, c, x, dx, p, tol2, D);
        } else {
            cdyn_status st = generic_g(sys, c, x, dx, p, tol * tol);
            if (st)
                return st;
        }
    }
    return CDYN_OK;
}

static cdyn_status position_pass(cdyn_system *sys, const double *x, const double *dx, cdyn__pass *p)
{
    return sys->dim == 2 ? position_pass_d(sys, x, dx, p, 2) : position_pass_d(sys, x, dx, p, 3);
}

/* y += scale W G^T z over every row (G in k->jac). */
static CDYN__ALWAYS_INLINE void scatter_d(cdyn_system *sys, const double *z, double scale,
                                          double *y, size_t D)
{
    cdyn__constraints *k = sys->cons;
    const cdyn__projection *pr = sys->proj;
    const double *w = sys->inv_mass;
    if (pr->rods) {
        const uint32_t *restrict e = pr->ends;
        const double *restrict jac = k->jac, *restrict zz = z, *restrict ww = w;
        double *restrict yy = y;
        const uint32_t n = k->n_rows;
        for (uint32_t r = 0; r < n; r++) {
            size_t ia = e[2 * (size_t)r], ib = e[2 * (size_t)r + 1];
            const double *jb = jac + (2 * (size_t)r + 1) * D;
            double zr = scale * zz[r], za = zr * ww[ia], zb = zr * ww[ib];
#ifdef CDYN__HAVE_V2D
            if (D == 2) {
                cdyn__v2d j = cdyn__v2d_load(jb);
                cdyn__v2d_store(yy + ia * 2, cdyn__v2d_load(yy + ia * 2) - za * j);
                cdyn__v2d_store(yy + ib * 2, cdyn__v2d_load(yy + ib * 2) + zb * j);
                continue;
            }
#endif
            for (size_t q = 0; q < D; q++) {
                yy[ia * D + q] -= za * jb[q];
                yy[ib * D + q] += zb * jb[q];
            }
        }
        return;
    }
    for (uint32_t a = 0; a < k->n_active; a++) {
        const cdyn__constraint *c = &k->c[k->active[a]];
        const double *jac = k->jac + (size_t)c->blk * D;
        uint32_t np = c->n_particles;
        for (uint32_t r = 0; r < c->n_rows; r++) {
            double zr = scale * z[c->row + r];
            for (uint32_t j = 0; j < np; j++) {
                const double *jb = jac + ((size_t)r * np + j) * D;
                size_t s = cdyn__constraint_particle(c, j);
                double f = zr * w[s];
                for (size_t q = 0; q < D; q++)
                    y[s * D + q] += f * jb[q];
            }
        }
    }
}

static void scatter(cdyn_system *sys, const double *z, double scale, double *y)
{
    if (sys->dim == 2)
        scatter_d(sys, z, scale, y, 2);
    else
        scatter_d(sys, z, scale, y, 3);
}

/* Rod path, fused: dx += scale W G^T z row by row (G in k->jac), and
 * rhs = -g(x + dx) for each row s, tested, as soon as its particles have
 * received all their corrections (after row ready[s]): one pass over the
 * rows per Newton iteration instead of two. Row s's z is consumed (at row
 * s <= ready[s]) before its residual overwrites it when z is rhs. */
static CDYN__ALWAYS_INLINE void rod_fused_d(cdyn_system *sys, const double *z, double scale,
                                            const double *restrict x, double *restrict dx,
                                            cdyn__pass *p, size_t D)
{
    cdyn__constraints *k = sys->cons;
    const cdyn__projection *pr = sys->proj;
    const uint32_t *restrict e = pr->ends, *restrict ready = pr->ready;
    const double *restrict len = pr->len, *restrict jac = k->jac, *restrict w = sys->inv_mass;
    double *rhs = k->rhs;
    const double tol2 = cdyn__tol2_of(pr->opt.position_tolerance);
    const uint32_t n = k->n_rows;
    cdyn__pass q;
    cdyn__pass_init(&q);
    uint32_t s = 0;
    for (uint32_t r = 0; r < n; r++) {
        size_t ia = e[2 * (size_t)r], ib = e[2 * (size_t)r + 1];
        const double *jb = jac + (2 * (size_t)r + 1) * D;
        double zr = scale * z[r], za = zr * w[ia], zb = zr * w[ib];
#ifdef CDYN__HAVE_V2D
        if (D == 2) {
            cdyn__v2d j = cdyn__v2d_load(jb);
            cdyn__v2d_store(dx + ia * 2, cdyn__v2d_load(dx + ia * 2) - za * j);
            cdyn__v2d_store(dx + ib * 2, cdyn__v2d_load(dx + ib * 2) + zb * j);
        } else
#endif
            for (size_t c = 0; c < D; c++) {
                dx[ia * D + c] -= za * jb[c];
                dx[ib * D + c] += zb * jb[c];
            }
        /* ready[n] is a sentinel above every row; ready[s] >= s. */
        for (; ready[s] <= r; s++)
            rod_g(rhs, s, e[2 * (size_t)s], e[2 * (size_t)s + 1], len[s], x, dx, &q, tol2, D);
    }
    for (; s < n; s++)
        rod_g(rhs, s, e[2 * (size_t)s], e[2 * (size_t)s + 1], len[s], x, dx, &q, tol2, D);
    *p = q;
}

static void rod_fused(cdyn_system *sys, const double *z, double scale, const double *x,
                      double *dx, cdyn__pass *p)
{
    if (sys->dim == 2)
        rod_fused_d(sys, z, scale, x, dx, p, 2);
    else
        rod_fused_d(sys, z, scale, x, dx, p, 3);
}

/* One SHAKE correction of row r of constraint c (residual g at x + dx, its
 * Jacobian there in jx, G_ref in k->jac): along W G_ref^T, to first order.
 * A row whose correction has no component along its own gradient (both
 * particles fixed, or G turned by 90 degrees) is left alone. */
static void shake_row(cdyn_system *sys, const cdyn__constraint *c, uint32_t r, double g,
                      const double *jx, double *dx)
{
    cdyn__constraints *k = sys->cons;
    size_t d = (size_t)sys->dim;
    uint32_t np = c->n_particles;
    const double *jr = k->jac + ((size_t)c->blk + (size_t)r * np) * d;
    double den = 0;
    for (uint32_t j = 0; j < np; j++) {
        size_t s = cdyn__constraint_particle(c, j);
        double dot = 0;
        for (size_t q = 0; q < d; q++)
            dot += jx[(size_t)j * d + q] * jr[(size_t)j * d + q];
        den += sys->inv_mass[s] * dot;
    }
    if (!(den > 0))
        return;
    double dl = -g / den;
    if (sys->proj->track_mu)
        sys->proj->mu[c->row + r] += dl;
    for (uint32_t j = 0; j < np; j++) {
        size_t s = cdyn__constraint_particle(c, j);
        double f = dl * sys->inv_mass[s];
        for (size_t q = 0; q < d; q++)
            dx[s * d + q] += f * jr[(size_t)j * d + q];
    }
}

/* One SHAKE sweep over the rows in order; corrects each row above its
 * threshold alone, so that the next rows see the correction. */
static cdyn_status shake_position_sweep(cdyn_system *sys, const double *x, double *dx, cdyn__pass *p)
{
    cdyn__constraints *k = sys->cons;
    size_t d = (size_t)sys->dim;
    const double tol = sys->proj->opt.position_tolerance, tol2 = cdyn__tol2_of(tol);
    const double *w = sys->inv_mass;
    double *xs = sys->proj->xs;
    cdyn__pass_init(p);
    for (uint32_t a = 0; a < k->n_active; a++) {
        cdyn__constraint *c = &k->c[k->active[a]];
        double s = length_scale(c);
        const cdyn__row_path path = cdyn__constraint_path(c);
        if (path != CDYN__ROWS_GENERIC) {
            /* g = (|e|^2 - L^2) / 2 with e = x_b - x_a (or x - anchor);
             * correction along W G_ref^T, G_ref = (-e0, e0) (or e0). */
            bool rod = path == CDYN__ROWS_ROD;
            size_t ia = (size_t)c->u.particle[0] * d, ib = rod ? (size_t)c->u.particle[1] * d : 0;
            const double *e0 = k->jac + ((size_t)c->blk + (rod ? 1 : 0)) * d;
            double e[3], d2 = 0, dot = 0;
            for (size_t q = 0; q < d; q++) {
                double xa = x[ia + q], xb = rod ? x[ib + q] : c->d.p[q];
                e[q] = rod ? (xb - xa) + (dx[ib + q] - dx[ia + q]) : (xa - xb) + dx[ia + q];
                d2 += e[q] * e[q];
                dot += e[q] * e0[q];
            }
            double g = 0.5 * (d2 - s * s);
            double wa = w[c->u.particle[0]], wb = rod ? w[c->u.particle[1]] : 0;
            double den = (wa + wb) * dot;
            if (cdyn__check_exact(p, c->row, g, d2, s, tol2) || !(den > 0))
                continue;
            double dl = -g / den;
            if (sys->proj->track_mu)
                sys->proj->mu[c->row] += dl;
            for (size_t q = 0; q < d; q++) {
                if (rod) {
                    dx[ia + q] -= wa * dl * e0[q];
                    dx[ib + q] += wb * dl * e0[q];
                } else {
                    dx[ia + q] += wa * dl * e0[q];
                }
            }
            continue;
        }
        for (uint32_t r = 0; r < c->n_rows; r++) {
            /* Evaluated afresh for each row: the previous row moved x. */
            double *g = k->scratch, *bias = g + c->n_rows, *jac = bias + c->n_rows;
            materialize(sys, c, x, dx, xs);
            cdyn_status st =
                cdyn__constraint_eval(sys, c, sys->proj->t, xs, sys->v, g, jac, bias, NULL);
            if (st)
                return st;
            double m = coordinate_magnitude(sys, c, xs);
            if (cdyn__check_rounded(p, c->row + r, g[r], row_block2(jac, c->n_particles, r, d), s, m,
                              tol * tol))
                continue;
            shake_row(sys, c, r, g[r], jac + (size_t)r * c->n_particles * d, dx);
        }
    }
    return CDYN_OK;
}

/* x += dx (once: one rounding per coordinate), v += dx * inv_h, dx = 0. */
static void finish_positions(cdyn_system *sys, double *x, double *v, double inv_h)
{
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    double *dx = sys->proj->dx;
    if (v) {
        for (size_t i = 0; i < n; i++) {
            x[i] += dx[i];
            v[i] += dx[i] * inv_h;
            dx[i] = 0;
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            x[i] += dx[i];
            dx[i] = 0;
        }
    }
}

cdyn_status cdyn__projection_positions(cdyn_system *sys, double t_ref, const double *x_ref,
                                       double t, double *x, double *v, double inv_h)
{
    cdyn__constraints *k = sys->cons;
    cdyn__projection *pr = sys->proj;
    pr->t_ref = t_ref;
    pr->t = t;
    const char *who = who_of(sys);
    const size_t cap = pr->opt.max_iterations;
    const bool newton = pr->opt.method == CDYN_PROJECTION_NEWTON;
    /* The fused rod pass consumes the corrections as it goes: impulses
     * that must be kept take the plain passes. */
    const bool track = pr->track_mu && v;
    const bool fused = newton && pr->rods && !track;
    double *dx = pr->dx;
    const size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    pr->stats.projections++;
    pr->stats.position_iterations = 0;
    pr->stats.velocity_iterations = 0;
    /* RATTLE: the residual of the step's start, g(x0), to leave the change
     * of the residual over the step out of the reported multipliers
     * (cdyn__projection_velocities). */
    cdyn_status st = v && newton ? rows_g(sys, t_ref, x_ref, pr->resid) : CDYN_OK;
    if (st)
        return st;
    bool same = false;
    st = newton ? position_matrix(sys, x_ref, who, &same) : assemble(sys, t_ref, x_ref, NULL, 0);
    /* RATTLE starts from the constraint impulse of the multipliers at x_ref
     * (those of the previous step's closing kick), mu = h^2/2 lambda, which
     * leaves an O(h^3) residual instead of O(h^2). When the previous step's
     * velocity correction dv = W G(x_ref)^T nu is still in dx (same
     * positions), that impulse is dx = (h^2 / h_prev) dv: a pass over the
     * coordinates instead of one over the rows. */
    if (track)
        memset(pr->mu, 0, k->n_rows * sizeof *pr->mu);
    if (!st && v && same && pr->dv_valid) {
        double f = 1.0 / (inv_h * inv_h * pr->dv_h);
        for (size_t i = 0; i < n; i++)
            dx[i] *= f;
        for (uint32_t r = 0; track && r < k->n_rows; r++)
            pr->mu[r] = f * pr->nu[r];
    } else {
        if (pr->dv_valid)
            memset(dx, 0, n * sizeof *dx);
        if (!st && v && k->evaluated) {
            scatter(sys, k->lambda, 0.5 / (inv_h * inv_h), dx);
            for (uint32_t r = 0; track && r < k->n_rows; r++)
                pr->mu[r] = k->lambda[r] * (0.5 / (inv_h * inv_h));
        }
    }
    pr->dv_valid = false;
    size_t it = 0;
    cdyn__pass p;
    cdyn__pass_init(&p);
    if (!st)
        st = newton ? position_pass(sys, x, dx, &p) : shake_position_sweep(sys, x, dx, &p);
    cdyn__pass last = p; /* the last pass with finite residuals */
    while (!st) {
        if (!p.finite) {
            /* From finite positions, an iteration that leaves them has
             * diverged: the constraints cannot be met from here. */
            st = it ? not_converged(sys, &last, who, "position", it, pr->opt.position_tolerance,
                                    true)
                    : non_finite(sys, who, "position");
            if (it)
                p = last;
            break;
        }
        last = p;
        if (p.n_bad == 0)
            break;
        if (it >= cap) {
            st = not_converged(sys, &p, who, "position", it, pr->opt.position_tolerance, false);
            break;
        }
        it++;
        if (!newton) {
            st = shake_position_sweep(sys, x, dx, &p);
            continue;
        }
        cdyn__ldlt_solve(&k->ldlt, k->rhs);
        for (uint32_t r = 0; track && r < k->n_rows; r++)
            pr->mu[r] += k->rhs[r];
        if (fused) {
            rod_fused(sys, k->rhs, 1.0, x, dx, &p);
        } else {
            scatter(sys, k->rhs, 1.0, dx);
            st = position_pass(sys, x, dx, &p);
        }
    }
    pr->stats.position_iterations = it;
    pr->stats.position_iterations_total += it;
    if (st == CDYN_OK || st == CDYN_ERR_NOT_CONVERGED) {
        pr->stats.position_residual = cdyn__pass_worst(&p);
        pr->stats.worst = row_handle(sys, st ? p.bad_row : p.worst_row);
    }
    if (st) {
        memset(dx, 0, n * sizeof *dx);
        return st;
    }
    finish_positions(sys, x, v, inv_h);
    if (v && newton) {
        /* resid = g(x1) - g(x0), the change of the residual over the step. */
        double *g1 = k->rhs;
        if ((st = rows_g(sys, t, x, g1)))
            return st;
        for (uint32_t r = 0; r < k->n_rows; r++)
            pr->resid[r] = g1[r] - pr->resid[r];
    }
    return CDYN_OK;
}

/* ------------------------------------------------------------------------
 * Velocities
 * ------------------------------------------------------------------------ */

/* Rod velocity residual: rhs = -G v with G = (-d, d) from the blocks. */
static CDYN__ALWAYS_INLINE void rod_gv(const double *restrict jac, double *restrict rhs,
                                       uint32_t row, uint32_t blk, size_t ia, size_t ib,
                                       const double *restrict v, cdyn__pass *p, double tol2, size_t D)
{
    const double *jb = jac + ((size_t)blk + 1) * D;
    const double *va = v + ia * D, *vb = v + ib * D;
    double gv = 0, b2 = 0, sa = 0, sb = 0;
#ifdef CDYN__HAVE_V2D
    if (D == 2) {
        cdyn__v2d j = cdyn__v2d_load(jb), a = cdyn__v2d_load(va), b = cdyn__v2d_load(vb);
        gv = cdyn__v2d_sum(j * (b - a));
        b2 = cdyn__v2d_sum(j * j);
        sa = cdyn__v2d_sum(a * a);
        sb = cdyn__v2d_sum(b * b);
    } else
#endif
        for (size_t q = 0; q < D; q++) {
            gv += jb[q] * (vb[q] - va[q]);
            b2 += jb[q] * jb[q];
            sa += va[q] * va[q];
            sb += vb[q] * vb[q];
        }
    rhs[row] = -gv;
    cdyn__check_velocity(p, row, gv, b2, cdyn__maxd(sa, sb), tol2);
}

/* rhs = -G v for every row (G in k->jac), tested against the velocity
 * tolerance. */
static CDYN__ALWAYS_INLINE void velocity_pass_d(cdyn_system *sys, const double *v, cdyn__pass *p,
                                                size_t D)
{
    cdyn__constraints *k = sys->cons;
    const cdyn__projection *pr = sys->proj;
    const double tol2 = cdyn__tol2_of(pr->opt.velocity_tolerance);
    cdyn__pass_init(p);
    if (pr->rods) {
        cdyn__pass q = *p;
        const uint32_t *restrict e = pr->ends;
        const uint32_t n = k->n_rows;
        for (uint32_t r = 0; r < n; r++)
            rod_gv(k->jac, k->rhs, r, 2 * r, e[2 * (size_t)r], e[2 * (size_t)r + 1], v, &q, tol2,
                   D);
        *p = q;
        return;
    }
    for (uint32_t a = 0; a < k->n_active; a++) {
        const cdyn__constraint *c = &k->c[k->active[a]];
        if (cdyn__constraint_path(c) == CDYN__ROWS_ROD) {
            rod_gv(k->jac, k->rhs, c->row, c->blk, c->u.particle[0], c->u.particle[1], v, p, tol2,
                   D);
            continue;
        }
        const double *jac = k->jac + (size_t)c->blk * D;
        uint32_t np = c->n_particles;
        double s2 = speed2(sys, c, v);
        for (uint32_t r = 0; r < c->n_rows; r++) {
            double gv = k->gt ? k->gt[c->row + r] : 0.0;
            for (uint32_t j = 0; j < np; j++) {
                const double *jb = jac + ((size_t)r * np + j) * D;
                const double *vp = v + (size_t)cdyn__constraint_particle(c, j) * D;
                for (size_t q = 0; q < D; q++)
                    gv += jb[q] * vp[q];
            }
            k->rhs[c->row + r] = -gv;
            cdyn__check_velocity(p, c->row + r, gv, row_block2(jac, np, r, D), s2, tol2);
        }
    }
}

static void velocity_pass(cdyn_system *sys, const double *v, cdyn__pass *p)
{
    if (sys->dim == 2)
        velocity_pass_d(sys, v, p, 2);
    else
        velocity_pass_d(sys, v, p, 3);
}

/* One SHAKE (RATTLE) velocity sweep: each row above its threshold is
 * corrected alone, v += W G_r^T dl with dl = -G_r v / (G_r W G_r^T). */
static void shake_velocity_sweep(cdyn_system *sys, double *v, cdyn__pass *p)
{
    cdyn__constraints *k = sys->cons;
    const size_t d = (size_t)sys->dim;
    const double tol2 = cdyn__tol2_of(sys->proj->opt.velocity_tolerance);
    double *nu = sys->proj->nu;
    cdyn__pass_init(p);
    for (uint32_t a = 0; a < k->n_active; a++) {
        const cdyn__constraint *c = &k->c[k->active[a]];
        const double *jac = k->jac + (size_t)c->blk * d;
        uint32_t np = c->n_particles;
        for (uint32_t r = 0; r < c->n_rows; r++) {
            double gv = k->gt ? k->gt[c->row + r] : 0.0, den = 0;
            for (uint32_t j = 0; j < np; j++) {
                const double *jb = jac + ((size_t)r * np + j) * d;
                size_t s = cdyn__constraint_particle(c, j);
                double b2 = 0;
                for (size_t q = 0; q < d; q++) {
                    gv += jb[q] * v[s * d + q];
                    b2 += jb[q] * jb[q];
                }
                den += sys->inv_mass[s] * b2;
            }
            if (cdyn__check_velocity(p, c->row + r, gv, row_block2(jac, np, r, d), speed2(sys, c, v),
                               tol2) ||
                !(den > 0))
                continue;
            double dl = -gv / den;
            nu[c->row + r] += dl;
            for (uint32_t j = 0; j < np; j++) {
                const double *jb = jac + ((size_t)r * np + j) * d;
                size_t s = cdyn__constraint_particle(c, j);
                double f = dl * sys->inv_mass[s];
                for (size_t q = 0; q < d; q++)
                    v[s * d + q] += f * jb[q];
            }
        }
    }
}

/* v += W G^T rhs, nu += rhs; then rhs = -G v, tested. The first
 * correction of a projection goes through dx (zero before), which keeps it
 * (dv of cdyn__projection_positions); later ones, rare refinements, are
 * added to v and dx alike. */
static void velocity_apply(cdyn_system *sys, double *v, bool first, cdyn__pass *p)
{
    cdyn__constraints *k = sys->cons;
    cdyn__projection *pr = sys->proj;
    const size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    double *restrict dx = pr->dx;
    if (first) {
        scatter(sys, k->rhs, 1.0, dx);
        for (size_t i = 0; i < n; i++)
            v[i] += dx[i];
    } else {
        scatter(sys, k->rhs, 1.0, v);
        scatter(sys, k->rhs, 1.0, dx);
    }
    for (uint32_t r = 0; r < k->n_rows; r++)
        pr->nu[r] += k->rhs[r];
    velocity_pass(sys, v, p);
}

cdyn_status cdyn__projection_velocities(cdyn_system *sys, double t, const double *x, double *v,
                                        bool same_x, double lambda_scale)
{
    cdyn__constraints *k = sys->cons;
    cdyn__projection *pr = sys->proj;
    pr->t = t;
    const char *who = who_of(sys);
    const size_t cap = pr->opt.max_iterations;
    const bool newton = pr->opt.method == CDYN_PROJECTION_NEWTON;
    const size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    size_t it = 0;
    cdyn__pass p, last;
    cdyn_status st = CDYN_OK;
    memset(pr->nu, 0, k->n_rows * sizeof *pr->nu);
    if (pr->dv_valid)
        memset(pr->dx, 0, n * sizeof *pr->dx);
    pr->dv_valid = false;
    if (!same_x) {
        /* Newton: Jacobian, matrix and -G v at x, factored and solved at
         * once. SHAKE: the Jacobian. */
        if ((st = assemble(sys, t, x, newton ? v : NULL, newton)) ||
            (newton && (st = factor(sys, x, k->rhs, who))))
            return st;
    }
    if (newton && !same_x) {
        it = 1;
        velocity_apply(sys, v, true, &p);
    } else if (newton) {
        velocity_pass(sys, v, &p);
    } else {
        shake_velocity_sweep(sys, v, &p);
    }
    last = p;
    for (;;) {
        if (!p.finite) {
            st = it > 1 ? not_converged(sys, &last, who, "velocity", it,
                                        pr->opt.velocity_tolerance, true)
                        : non_finite(sys, who, "velocity");
            p = last;
            break;
        }
        last = p;
        if (p.n_bad == 0)
            break;
        if (it >= cap) {
            st = not_converged(sys, &p, who, "velocity", it, pr->opt.velocity_tolerance, false);
            break;
        }
        it++;
        if (newton) {
            cdyn__ldlt_solve(&k->ldlt, k->rhs);
            velocity_apply(sys, v, it == 1, &p);
        } else {
            shake_velocity_sweep(sys, v, &p);
        }
    }
    pr->stats.velocity_iterations += it;
    pr->stats.velocity_iterations_total += it;
    pr->stats.velocity_residual = cdyn__pass_worst(&p);
    if (!st && newton && lambda_scale > 0) {
        /* dx keeps dv = W G(x)^T nu for the next step's start. */
        pr->dv_valid = true;
        pr->dv_h = 2.0 / lambda_scale;
    } else {
        memset(pr->dx, 0, n * sizeof *pr->dx);
    }
    if (st)
        return st;
    if (lambda_scale > 0) {
        /* The multipliers of the closing half kick, lambda = 2 nu / h,
         * without the share of the position projection's tolerance: the
         * residual changed by dr = g(x1) - g(x0) over the step, which exact
         * projections would not have left, and the half-step velocity
         * carries dr / h along the rows; nu answers it with -A1^-1 dr / h.
         * Left in, that share is O(tol / h^2) and grows as the step
         * shrinks (docs/rattle.md section 7). */
        const double *corr = NULL;
        if (newton) {
            for (uint32_t r = 0; r < k->n_rows; r++)
                k->rhs[r] = pr->resid[r] * (0.5 * lambda_scale);
            cdyn__ldlt_solve(&k->ldlt, k->rhs);
            corr = k->rhs;
        }
        for (uint32_t r = 0; r < k->n_rows; r++)
            k->lambda[r] = lambda_scale * (corr ? pr->nu[r] + corr[r] : pr->nu[r]);
        k->evaluated = true;
        k->blocks_unstored = false;
    }
    return CDYN_OK;
}
