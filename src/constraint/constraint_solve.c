/* The multiplier solve of one force evaluation (docs/constraints.md):
 * evaluate g, G and G'v; assemble A = G W G^T and the right-hand side
 * -G'v - G a_free - feedback, with a_free the accelerations without
 * implicit constraints; solve; add W G^T lambda to the accelerations.
 * Allocates nothing.
 *
 * W is a particle's inverse mass, or for a particle on a curve or surface
 * the matrix r' (m r'^T r')^-1 r'^T (see parametric.h). Rods and anchors of
 * systems without such particles, the bulk of large systems, go through
 * fused kernels specialised on the dimension; everything else through the
 * constraint evaluators. */
#include <math.h>
#include <string.h>

#include "core/compiler.h"
#include "constraint/constraint.h"
#include "constraint/kind.h"
#include "generalized/generalized.h"
#include "constraint/row_rhs.h"
#include "core/system.h"
#include "core/tasks.h"

/* Rod between two particles: g = (|d|^2 - L^2)/2, G = (-d, d), G'v = |d'|^2. */
static CDYN__ALWAYS_INLINE void rod_row(cdyn__constraints *k, const cdyn__constraint *c,
                                        const cdyn__rhs_coef *rc, const double *x, const double *v,
                                        const double *acc, const double *w, size_t D)
{
    uint32_t ia = c->u.particle[0], ib = c->u.particle[1], r = c->row;
    double d2;
    k->rhs[r] = cdyn__rod_row(k, rc, x, v, acc, ia, ib, k->jac + (size_t)c->blk * D,
                              c->d.p[0] * c->d.p[0], c->compliance, r, D, &d2);
    k->a.val[k->a.colptr[r]] = (w[ia] + w[ib]) * d2;
}

/* Rod to a fixed point b: g = (|x - b|^2 - L^2)/2, G = x - b, G'v = |v|^2. */
static CDYN__ALWAYS_INLINE void anchor_row(cdyn__constraints *k, const cdyn__constraint *c,
                                           const cdyn__rhs_coef *rc, const double *x, const double *v,
                                           const double *acc, const double *w, size_t D)
{
    uint32_t ip = c->u.particle[0];
    const double *xp = x + ip * D, *vp = v + ip * D, *fp = acc + ip * D;
    double wp = w[ip];
    double *jp = k->jac + (size_t)c->blk * D;
    double d2 = 0, v2 = 0, gd = 0, gwf = 0;
    for (size_t q = 0; q < D; q++) {
        double dq = xp[q] - c->d.p[q];
        jp[q] = dq;
        d2 += dq * dq;
        v2 += vp[q] * vp[q];
        gd += dq * vp[q];
        gwf += dq * fp[q];
    }
    uint32_t r = c->row;
    double g = 0.5 * (d2 - c->d.p[3] * c->d.p[3]);
    k->a.val[k->a.colptr[r]] = wp * d2;
    k->rhs[r] = cdyn__row_rhs(k, rc, c->compliance, r, g, gd, v2, gwf);
}

/* Every row a rod's (k->all_rods): row r has blocks 2r, 2r + 1 and L^2 in
 * k->ll, so the constraints are read only for a compliance. With
 * k->terms_inline the off-diagonal terms are formed here too, each as soon
 * as its later block is: the blocks are still in cache. Same operations,
 * same order as rod_row and assemble_coupling. */
static CDYN__ALWAYS_INLINE void rods_rows(cdyn__constraints *restrict k, const cdyn__rhs_coef *rc,
                                          const double *restrict x, const double *restrict v,
                                          const double *restrict acc, const double *restrict w,
                                          size_t D, const int inline_terms)
{
    const uint32_t *restrict bp = k->blk_particle, *restrict colptr = k->a.colptr;
    double *restrict val = k->a.val, *restrict rhs = k->rhs;
    const cdyn__aterm *restrict t = k->terms;
    const size_t nt = k->n_terms;
    size_t ti = 0;
    for (uint32_t r = 0; r < k->n_rows; r++) {
        uint32_t ia = bp[2 * (size_t)r], ib = bp[2 * (size_t)r + 1];
        double d2;
        rhs[r] = cdyn__rods_row(k, rc, x, v, acc, r, ia, ib, D, &d2);
        val[colptr[r]] = (w[ia] + w[ib]) * d2;
        if (inline_terms)
            for (; ti < nt && t[ti].bj <= 2 * (size_t)r + 1; ti++)
                val[t[ti].pos] = cdyn__term_value(k, w, &t[ti], D);
    }
}

/* out = W_s y: the inverse mass of particle s, or its shape's matrix. */
static void weigh(const cdyn_system *sys, uint32_t s, const double *y, double *out, size_t d)
{
    const struct cdyn__param *p = cdyn__param_of(sys, s);
    if (!p) {
        for (size_t q = 0; q < d; q++)
            out[q] = sys->inv_mass[s] * y[q];
        return;
    }
    for (size_t i = 0; i < d; i++) {
        double t = 0;
        for (size_t j = 0; j < d; j++)
            t += p->w[i * d + j] * y[j];
        out[i] = t;
    }
}

/* Any kind, through its evaluator: G'v lands in the scratch buffer. */
static cdyn_status generic_rows(cdyn_system *sys, cdyn__constraint *c, const cdyn__rhs_coef *rc,
                                double t, const double *x, const double *v, const double *acc)
{
    cdyn__constraints *k = sys->cons;
    size_t d = (size_t)sys->dim;
    /* g and G'v of its rows in the scratch buffer (2 * max rows long);
     * dg/dt in k->gt when some constraint depends on time. */
    double *jac = k->jac + (size_t)c->blk * d, *bias = k->scratch, *g = bias + c->n_rows;
    double *gt = k->gt ? k->gt + c->row : NULL;
    cdyn_status st = cdyn__constraint_eval(sys, c, t, x, v, g, jac, bias, gt);
    if (st)
        return st;
    uint32_t np = c->n_particles;
    for (uint32_t r = 0; r < c->n_rows; r++) {
        double gd = gt ? gt[r] : 0.0, ga = 0, diag = 0;
        for (uint32_t j = 0; j < np; j++) {
            const double *jb = jac + ((size_t)r * np + j) * d;
            uint32_t s = cdyn__constraint_particle(c, j);
            const double *vp = v + s * d, *ap = acc + s * d;
            double wj[3];
            weigh(sys, s, jb, wj, d);
            for (size_t q = 0; q < d; q++) {
                gd += jb[q] * vp[q];
                ga += jb[q] * ap[q];
                diag += jb[q] * wj[q];
            }
        }
        uint32_t row = c->row + r;
        k->a.val[k->a.colptr[row]] = diag;
        k->rhs[row] = cdyn__row_rhs(k, rc, c->compliance, row, g[r], gd, bias[r], ga);
    }
    return CDYN_OK;
}

/* ------------------------------------------------------------------------
 * Rows on the host's threads
 *
 * Rigid rods without particles on shapes: the rows are cut into fixed
 * blocks, each writing its own right-hand sides, diagonals and Jacobian
 * blocks with rods_rows' arithmetic; then, when every entry of A off the
 * diagonal has one term (terms_inline), the terms in fixed blocks of their
 * own, each assigning its entry. The same values as the serial pass for
 * any number of workers. Compliant rows (which also set a flag shared by
 * all rows) stay on the calling thread.
 * ------------------------------------------------------------------------ */

#define BLOCK_ROWS 4096u
#define BLOCK_TERMS 8192u
/* Rows from which the pass goes to the host's threads (about ten
 * nanoseconds a row). */
#define PARALLEL_ROWS 8192.0

typedef struct rows_job {
    cdyn__constraints *k;
    cdyn__rhs_coef rc;
    const double *x, *v, *acc, *w;
    size_t dim;
} rows_job;

static void rows_task(uint32_t begin, uint32_t end, void *context)
{
    const rows_job *j = context;
    cdyn__constraints *k = j->k;
    const uint32_t *bp = k->blk_particle, *colptr = k->a.colptr;
    const uint32_t r0 = begin * BLOCK_ROWS;
    const uint32_t r1 = (size_t)end * BLOCK_ROWS < k->n_rows ? end * BLOCK_ROWS : k->n_rows;
    for (uint32_t r = r0; r < r1; r++) {
        uint32_t ia = bp[2 * (size_t)r], ib = bp[2 * (size_t)r + 1];
        double d2;
        if (j->dim == 2)
            k->rhs[r] = cdyn__rods_row(k, &j->rc, j->x, j->v, j->acc, r, ia, ib, 2, &d2);
        else
            k->rhs[r] = cdyn__rods_row(k, &j->rc, j->x, j->v, j->acc, r, ia, ib, 3, &d2);
        k->a.val[colptr[r]] = (j->w[ia] + j->w[ib]) * d2;
    }
}

static void terms_task(uint32_t begin, uint32_t end, void *context)
{
    const rows_job *j = context;
    const cdyn__constraints *k = j->k;
    const size_t i0 = (size_t)begin * BLOCK_TERMS;
    const size_t i1 = (size_t)end * BLOCK_TERMS < k->n_terms ? (size_t)end * BLOCK_TERMS
                                                             : k->n_terms;
    for (size_t i = i0; i < i1; i++)
        k->a.val[k->terms[i].pos] = j->dim == 2 ? cdyn__term_value(k, j->w, &k->terms[i], 2)
                                                : cdyn__term_value(k, j->w, &k->terms[i], 3);
}

/* The rods' rows (and inline terms) on the host's threads when the pass
 * qualifies and is long enough; false (nothing done) otherwise. */
static bool rows_split(cdyn_system *sys, const cdyn__rhs_coef *rc, const double *x,
                       const double *v, const double *acc)
{
    cdyn__constraints *k = sys->cons;
    const uint32_t blocks = (k->n_rows + BLOCK_ROWS - 1) / BLOCK_ROWS;
    if (!k->all_rods || k->any_compliance || sys->param_of ||
        !cdyn__tasks_would_split(&sys->tasks, blocks, (double)k->n_rows, PARALLEL_ROWS))
        return false;
    rows_job j = {k, *rc, x, v, acc, sys->inv_mass, (size_t)sys->dim};
    cdyn__tasks_run(&sys->tasks, blocks, 1, (double)k->n_rows, 0.0, rows_task, &j);
    if (k->terms_inline && k->n_terms)
        cdyn__tasks_run(&sys->tasks, (uint32_t)((k->n_terms + BLOCK_TERMS - 1) / BLOCK_TERMS), 1,
                        (double)k->n_terms, 0.0, terms_task, &j);
    return true;
}

static cdyn_status rows_pass(cdyn_system *sys, double t, const double *x, const double *v,
                             const double *acc)
{
    cdyn__constraints *k = sys->cons;
    const double *w = sys->inv_mass;
    const cdyn__rhs_coef rc = cdyn__rhs_coef_of(sys);
    k->has_compliance = false;
    /* Every entry of A is assigned before it is accumulated (diagonal here,
     * the rest by the first terms), so A is not cleared. */
    const size_t D = (size_t)sys->dim;
    const bool fused = !sys->param_of;
    if (rows_split(sys, &rc, x, v, acc))
        return CDYN_OK;
    if (fused && k->all_rods) {
        if (D == 2 && k->terms_inline)
            rods_rows(k, &rc, x, v, acc, w, 2, 1);
        else if (D == 2)
            rods_rows(k, &rc, x, v, acc, w, 2, 0);
        else if (k->terms_inline)
            rods_rows(k, &rc, x, v, acc, w, 3, 1);
        else
            rods_rows(k, &rc, x, v, acc, w, 3, 0);
        return CDYN_OK;
    }
    for (uint32_t a = 0; a < k->n_active; a++) {
        const cdyn__constraint *c = &k->c[k->active[a]];
        switch (fused ? cdyn__constraint_path(c) : CDYN__ROWS_GENERIC) {
        case CDYN__ROWS_ROD:
            if (D == 2)
                rod_row(k, c, &rc, x, v, acc, w, 2);
            else
                rod_row(k, c, &rc, x, v, acc, w, 3);
            break;
        case CDYN__ROWS_ANCHOR:
            if (D == 2)
                anchor_row(k, c, &rc, x, v, acc, w, 2);
            else
                anchor_row(k, c, &rc, x, v, acc, w, 3);
            break;
        case CDYN__ROWS_GENERIC: {
            cdyn_status st = generic_rows(sys, &k->c[k->active[a]], &rc, t, x, v, acc);
            if (st)
                return st;
        }
        }
    }
    return CDYN_OK;
}

/* Off-diagonal entries: pairs of blocks on one particle. The first term of
 * each entry assigns, the others (rods sharing two particles, rows of one
 * user constraint) add. */
static CDYN__ALWAYS_INLINE void coupling_terms(double *restrict val, const double *restrict jac,
                                               const double *restrict w,
                                               const uint32_t *restrict bp,
                                               const cdyn__aterm *restrict t, size_t n,
                                               size_t D, const int first)
{
    for (size_t i = 0; i < n; i++) {
        const double *a = jac + D * t[i].bi, *b = jac + D * t[i].bj;
        double s2 = a[0] * b[0];
        for (size_t q = 1; q < D; q++)
            s2 += a[q] * b[q];
        double v = w[bp[t[i].bi]] * s2;
        if (first)
            val[t[i].pos] = v;
        else
            val[t[i].pos] += v;
    }
}

static void assemble_coupling(cdyn_system *sys)
{
    cdyn__constraints *k = sys->cons;
    const size_t d = (size_t)sys->dim;
    const double *w = sys->inv_mass, *jac = k->jac;
    const uint32_t *bp = k->blk_particle;
    double *val = k->a.val;
    const cdyn__aterm *t = k->terms;
    size_t n = k->n_terms, nf = k->n_first;
    if (n == 0)
        return; /* no coupled rows (k->terms is NULL then) */
    if (sys->param_of) {
        for (size_t i = 0; i < n; i++) {
            double wb[3];
            weigh(sys, bp[t[i].bi], jac + d * (size_t)t[i].bj, wb, d);
            double s2 = 0;
            for (size_t q = 0; q < d; q++)
                s2 += jac[d * (size_t)t[i].bi + q] * wb[q];
            if (i < nf)
                val[t[i].pos] = 0;
            val[t[i].pos] += s2;
        }
    } else if (d == 2) {
        coupling_terms(val, jac, w, bp, t, nf, 2, 1);
        coupling_terms(val, jac, w, bp, t + nf, n - nf, 2, 0);
    } else {
        coupling_terms(val, jac, w, bp, t, nf, 3, 1);
        coupling_terms(val, jac, w, bp, t + nf, n - nf, 3, 0);
    }
}

static cdyn_status conflict(cdyn_system *sys, uint32_t row, double rel)
{
    cdyn__constraints *k = sys->cons;
    uint32_t slot = cdyn__constraints_row_owner(k, row);
    unsigned long long h = cdyn__handle_make(CDYN__KIND_CONSTRAINT, sys->salt,
                                             k->slots.generation[slot], slot);
    return cdyn__fail(sys, CDYN_ERR_SINGULAR,
                      "constraints conflict: constraint 0x%016llx (row %u) cannot be satisfied "
                      "together with the others (relative residual %.3g)", h, row, rel);
}

cdyn_status cdyn__constraints_analysis(cdyn_system *sys, const char *who)
{
    cdyn__constraints *k = sys->cons;
    /* A rebuild destroys the analysis; one made since has its scratch. */
    if (k->ldlt.w || k->a.n == 0)
        return CDYN_OK;
    cdyn_status st = cdyn__ldlt_analyze(&k->ldlt, &k->a, &sys->alloc, NULL);
    if (st)
        return cdyn__fail(sys, st, "%s: %s while analysing the constraint matrix", who,
                          st == CDYN_ERR_NO_MEMORY ? "out of memory" : cdyn_status_string(st));
    return CDYN_OK;
}

static cdyn_status solve_direct(cdyn_system *sys)
{
    cdyn__constraints *k = sys->cons;
    const double *diag = k->has_compliance ? k->diag : NULL;
    /* One pass: the forward solve runs inside the factorization, the rhs
     * is kept for the residual. */
    if (cdyn__ldlt_factor_solve_rhs(&k->ldlt, &k->a, diag, CDYN__REDUNDANT_PIVOT, k->rhs, k->lambda) !=
        CDYN_OK)
        return cdyn__fail(sys, CDYN_ERR_DIVERGED, "constraints: non-finite constraint matrix");
    k->stats.iterations = 0;
    k->stats.redundant_rows = k->ldlt.nredundant;
    k->stats.factor_nonzeros = k->ldlt.sym.lnz;
    k->stats.residual = 0;
    if (!k->ldlt.nredundant)
        return CDYN_OK;
    double rel;
    uint32_t worst;
    /* The solves' scratch is free once lambda is out: r goes there. */
    cdyn__symmat_residual(&k->a, diag, k->lambda, k->rhs, k->ldlt.w, &rel, &worst);
    k->stats.residual = rel;
    k->stats.redundant_solves++;
    uint32_t slot = cdyn__constraints_row_owner(k, k->ldlt.redundant[0]);
    k->stats.last_redundant =
        cdyn__handle_make(CDYN__KIND_CONSTRAINT, sys->salt, k->slots.generation[slot], slot);
    return rel <= CDYN__CONFLICT_RESIDUAL ? CDYN_OK : conflict(sys, worst, rel);
}

static cdyn_status solve_cg(cdyn_system *sys)
{
    cdyn__constraints *k = sys->cons;
    const double *diag = k->has_compliance ? k->diag : NULL;
    if (!k->evaluated)
        memset(k->lambda, 0, k->n_rows * sizeof *k->lambda);
    cdyn__cg_report rep = {0, 0};
    cdyn_status st = cdyn__cg_solve(&k->cg, &k->a, diag, k->rhs, k->lambda, k->opt.cg_tolerance,
                                    (uint32_t)k->opt.cg_max_iterations, &rep);
    k->stats.iterations = rep.iterations;
    k->stats.residual = rep.relres;
    k->stats.redundant_rows = 0;
    k->stats.factor_nonzeros = 0;
    if (st == CDYN_ERR_NOT_CONVERGED) {
        k->stats.cg_not_converged++;
        return CDYN_OK;
    }
    if (st)
        return cdyn__fail(sys, CDYN_ERR_DIVERGED, "constraints: non-finite constraint system");
    return CDYN_OK;
}

/* acc += W lambda J for a rod: J = (-d, d). */
static CDYN__ALWAYS_INLINE void rod_accel(const cdyn__constraints *k, const cdyn__constraint *c,
                                          const double *w, double *acc, size_t D)
{
    const double *jac = k->jac + (size_t)c->blk * D;
    uint32_t ia = c->u.particle[0], ib = c->u.particle[1];
    double la = k->lambda[c->row] * w[ia], lb = k->lambda[c->row] * w[ib];
    double *aa = acc + ia * D, *ab = acc + ib * D;
    for (size_t q = 0; q < D; q++) {
        aa[q] += la * jac[q];
        ab[q] += lb * jac[D + q];
    }
}

static void generic_accel(const cdyn_system *sys, const cdyn__constraint *c, double *acc,
                          size_t d)
{
    const cdyn__constraints *k = sys->cons;
    const double *jac = k->jac + (size_t)c->blk * d;
    uint32_t np = c->n_particles;
    for (uint32_t r = 0; r < c->n_rows; r++) {
        double lam = k->lambda[c->row + r];
        for (uint32_t j = 0; j < np; j++) {
            const double *jb = jac + ((size_t)r * np + j) * d;
            uint32_t s = cdyn__constraint_particle(c, j);
            double fc[3], dv[3];
            for (size_t q = 0; q < d; q++)
                fc[q] = lam * jb[q];
            struct cdyn__param *p = cdyn__param_of(sys, s);
            if (p)
                for (size_t q = 0; q < d; q++)
                    p->fc[q] += fc[q];
            weigh(sys, s, fc, dv, d);
            for (size_t q = 0; q < d; q++)
                acc[s * d + q] += dv[q];
        }
    }
}

/* acc += W lambda J when every row is a rod's: row r has blocks 2r, 2r + 1,
 * so the constraints themselves are not read again, and J = (-d, d) is
 * formed again from x (16 bytes per particle read instead of 32 per rod;
 * the same values as the row pass stored). */
static CDYN__ALWAYS_INLINE void rods_accel(const cdyn__constraints *restrict k,
                                          const double *restrict x, const double *restrict w,
                                          double *restrict acc, size_t D)
{
    const double *restrict lambda = k->lambda;
    const uint32_t *restrict bp = k->blk_particle;
    for (uint32_t r = 0; r < k->n_rows; r++) {
        uint32_t ia = bp[2 * (size_t)r], ib = bp[2 * (size_t)r + 1];
        double la = lambda[r] * w[ia], lb = lambda[r] * w[ib];
        const double *xa = x + ia * D, *xb = x + ib * D;
        double *aa = acc + ia * D, *ab = acc + ib * D;
        for (size_t q = 0; q < D; q++) {
            double dq = xb[q] - xa[q];
            aa[q] += la * -dq;
            ab[q] += lb * dq;
        }
    }
}

static void add_accel(cdyn_system *sys, const double *x, double *acc)
{
    cdyn__constraints *k = sys->cons;
    const size_t d = (size_t)sys->dim;
    const double *w = sys->inv_mass;
    const bool fused = !sys->param_of;
    if (fused && k->all_rods) {
        if (d == 2)
            rods_accel(k, x, w, acc, 2);
        else
            rods_accel(k, x, w, acc, 3);
        return;
    }
    for (uint32_t a = 0; a < k->n_active; a++) {
        const cdyn__constraint *c = &k->c[k->active[a]];
        if (!fused || cdyn__constraint_path(c) != CDYN__ROWS_ROD)
            generic_accel(sys, c, acc, d);
        else if (d == 2)
            rod_accel(k, c, w, acc, 2);
        else
            rod_accel(k, c, w, acc, 3);
    }
}

cdyn_status cdyn__constraints_apply(cdyn_system *sys, double t, const double *x, const double *v,
                                    double *acc)
{
    cdyn__constraints *k = sys->cons;
    if (!k || k->n_rows == 0)
        return CDYN_OK;
    const bool direct = k->opt.solver == CDYN_SOLVER_DIRECT;
    cdyn_status st;
    if (direct && (st = cdyn__constraints_analysis(sys, "constraints")))
        return st;
    if (k->tridiagonal && direct && !sys->param_of && cdyn__constraints_chain_apply(sys, x, v, acc)) {
        k->stats.rows = k->n_rows;
        k->stats.solves++;
        k->evaluated = true;
        k->blocks_unstored = false;
        return CDYN_OK;
    }
    st = rows_pass(sys, t, x, v, acc);
    if (st)
        return st;
    if (sys->param_of || !k->terms_inline)
        assemble_coupling(sys);
    st = direct ? solve_direct(sys) : solve_cg(sys);
    k->stats.rows = k->n_rows;
    k->stats.solves++;
    if (st)
        return st;
    k->evaluated = true;
    k->blocks_unstored = false;
    add_accel(sys, x, acc);
    return CDYN_OK;
}
