/* The multiplier solve of one force evaluation (design.md sections 3-4):
 * evaluate g, G and G'v; assemble A = G W G^T and the right-hand side;
 * solve; add G^T lambda to the forces. Allocates nothing. */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "system.h"

/* A redundant row whose residual stays above this (relative, see
 * cdyn__symmat_residual) means the constraints conflict. */
#define CONFLICT_RESIDUAL 1e-8
/* Pivots below this fraction of their diagonal mark a row as redundant. */
#define REDUNDANT_PIVOT 1e-10

static double dot(const double *a, const double *b, size_t d)
{
    double s = 0;
    for (size_t k = 0; k < d; k++)
        s += a[k] * b[k];
    return s;
}

/* Evaluates every active constraint and forms g', the right-hand side and
 * the compliance diagonal, row by row. */
static cdyn_status rows_and_rhs(cdyn_system *sys, const double *x, const double *v,
                                const double *f)
{
    cdyn__constraints *k = sys->cons;
    size_t d = (size_t)sys->dim;
    const double *w = sys->inv_mass;
    double h = sys->step_dt > 0 ? sys->step_dt : 1e-3;
    double soft_g = 1.0 / (h * h), soft_gd = 1.0 / h;
    k->has_compliance = false;
    for (uint32_t a = 0; a < k->n_active; a++) {
        cdyn__constraint *c = &k->c[k->active[a]];
        double *jac = k->jac + (size_t)c->blk * d;
        cdyn_status st = cdyn__constraint_eval(sys, c, x, v, k->g + c->row, jac, k->bias + c->row);
        if (st)
            return st;
        uint32_t np = c->n_particles;
        double alpha = c->compliance;
        if (alpha > 0)
            k->has_compliance = true;
        for (uint32_t r = 0; r < c->n_rows; r++) {
            double gd = 0, gwf = 0;
            for (uint32_t j = 0; j < np; j++) {
                const double *jb = jac + ((size_t)r * np + j) * d;
                size_t s = cdyn__constraint_particle(c, j) * d;
                gd += dot(jb, v + s, d);
                gwf += w[s / d] * dot(jb, f + s, d);
            }
            uint32_t row = c->row + r;
            k->gdot[row] = gd;
            if (alpha > 0) {
                k->rhs[row] = -k->bias[row] - gwf - soft_g * k->g[row] - soft_gd * gd;
                k->diag[row] = alpha * soft_g;
            } else {
                k->rhs[row] = -k->bias[row] - gwf - k->ks * k->g[row] - k->kd * gd;
                k->diag[row] = 0;
            }
        }
    }
    return CDYN_OK;
}

static void assemble(cdyn_system *sys)
{
    cdyn__constraints *k = sys->cons;
    size_t d = (size_t)sys->dim;
    const double *w = sys->inv_mass, *jac = k->jac;
    double *val = k->a.val;
    memset(val, 0, (size_t)k->a.nnz * sizeof *val);
    const cdyn__aterm *t = k->terms;
    for (size_t i = 0, n = k->n_terms; i < n; i++)
        val[t[i].pos] += w[t[i].particle] * dot(jac + (size_t)t[i].bi * d, jac + (size_t)t[i].bj * d, d);
}

static cdyn_status conflict(cdyn_system *sys, uint32_t row, double rel)
{
    cdyn__constraints *k = sys->cons;
    uint32_t slot = k->row_owner[row];
    unsigned long long h = cdyn__handle_make(CDYN__KIND_CONSTRAINT, sys->salt,
                                             k->slots.generation[slot], slot);
    return cdyn__fail(sys, CDYN_ERR_SINGULAR,
                      "constraints conflict: constraint 0x%016llx (row %u) cannot be satisfied "
                      "together with the others (relative residual %.3g)", h, row, rel);
}

static cdyn_status solve_direct(cdyn_system *sys)
{
    cdyn__constraints *k = sys->cons;
    const double *diag = k->has_compliance ? k->diag : NULL;
    if (cdyn__ldlt_factor(&k->ldlt, &k->a, diag, REDUNDANT_PIVOT) != CDYN_OK)
        return cdyn__fail(sys, CDYN_ERR_DIVERGED, "constraints: non-finite constraint matrix");
    memcpy(k->lambda, k->rhs, k->n_rows * sizeof *k->lambda);
    cdyn__ldlt_solve(&k->ldlt, k->lambda);
    k->stats.iterations = 0;
    k->stats.redundant_rows = k->ldlt.nredundant;
    k->stats.factor_nonzeros = k->ldlt.sym.lnz;
    if (k->ldlt.nredundant) {
        double rel;
        uint32_t worst;
        /* bias is free once the right-hand side is formed: use it as r. */
        cdyn__symmat_residual(&k->a, diag, k->lambda, k->rhs, k->bias, &rel, &worst);
        k->stats.residual = rel;
        k->stats.redundant_solves++;
        uint32_t slot = k->row_owner[k->ldlt.redundant[0]];
        k->stats.last_redundant =
            cdyn__handle_make(CDYN__KIND_CONSTRAINT, sys->salt, k->slots.generation[slot], slot);
        if (!(rel <= CONFLICT_RESIDUAL))
            return conflict(sys, worst, rel);
    } else {
        k->stats.residual = 0;
    }
    return CDYN_OK;
}

static cdyn_status solve_cg(cdyn_system *sys)
{
    cdyn__constraints *k = sys->cons;
    const double *diag = k->has_compliance ? k->diag : NULL;
    if (!k->evaluated)
        memset(k->lambda, 0, k->n_rows * sizeof *k->lambda);
    cdyn__cg_report rep = {0, 0};
    cdyn_status st = cdyn__cg_solve(&k->cg, &k->a, diag, k->rhs, k->lambda, k->cg_tol,
                                    k->cg_max_iter, &rep);
    k->stats.iterations = rep.iterations;
    k->stats.residual = rep.relres;
    k->stats.redundant_rows = 0;
    if (st == CDYN_ERR_NOT_CONVERGED) {
        k->stats.cg_not_converged++;
        return CDYN_OK;
    }
    if (st)
        return cdyn__fail(sys, CDYN_ERR_DIVERGED, "constraints: non-finite constraint system");
    return CDYN_OK;
}

static void add_forces(cdyn_system *sys, double *f)
{
    cdyn__constraints *k = sys->cons;
    size_t d = (size_t)sys->dim;
    for (uint32_t a = 0; a < k->n_active; a++) {
        const cdyn__constraint *c = &k->c[k->active[a]];
        const double *jac = k->jac + (size_t)c->blk * d;
        uint32_t np = c->n_particles;
        for (uint32_t r = 0; r < c->n_rows; r++) {
            double lam = k->lambda[c->row + r];
            for (uint32_t j = 0; j < np; j++) {
                const double *jb = jac + ((size_t)r * np + j) * d;
                double *fp = f + cdyn__constraint_particle(c, j) * d;
                for (size_t q = 0; q < d; q++)
                    fp[q] += lam * jb[q];
            }
        }
    }
}

cdyn_status cdyn__constraints_apply(cdyn_system *sys, const double *x, const double *v, double *f)
{
    cdyn__constraints *k = sys->cons;
    if (!k || k->n_rows == 0)
        return CDYN_OK;
    cdyn_status st = rows_and_rhs(sys, x, v, f);
    if (st)
        return st;
    assemble(sys);
    st = k->solver == CDYN_SOLVER_CG ? solve_cg(sys) : solve_direct(sys);
    k->stats.rows = k->n_rows;
    k->stats.solves++;
    if (st)
        return st;
    k->evaluated = true;
    add_forces(sys, f);
    return CDYN_OK;
}
