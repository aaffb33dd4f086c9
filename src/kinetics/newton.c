/* The Newton systems of the implicit methods. */
#include "kinetics/newton.h"

#include "core/alloc.h"
#include "kinetics/min_degree.h"

/* Pivot threshold: the diagonal of I - gamma J is kept unless it is below
 * a thousandth of its column (as common practice for circuit and kinetics
 * matrices, which are close to diagonally dominant). */
#define PIVOT_TOL 1e-3

cdyn_status cdyn__kin_newton_init(const cdyn_kinetics *kin, cdyn__kin_newton *nw)
{
    const cdyn_allocator *a = &kin->alloc;
    *nw = (cdyn__kin_newton){0};
    cdyn_status st = cdyn__kin_jac_build(kin, &nw->jac);
    if (st)
        return st;
    size_t n = nw->jac.n;
    size_t *perm = cdyn__alloc_array(a, n, sizeof *perm);
    nw->m = cdyn__alloc_array(a, nw->jac.nnz, sizeof(double));
    if (!perm || !nw->m)
        st = CDYN_ERR_NO_MEMORY;
    if (!st)
        st = cdyn__kin_min_degree(a, n, nw->jac.col, nw->jac.row, perm);
    if (!st)
        st = cdyn__kin_lu_init(a, &nw->lu, n, perm, PIVOT_TOL, nw->jac.col, nw->jac.row);
    cdyn__free_array(a, perm, n, sizeof *perm);
    if (st) {
        cdyn__free_array(a, nw->m, nw->jac.nnz, sizeof(double));
        cdyn__kin_jac_free(a, &nw->jac);
        *nw = (cdyn__kin_newton){0};
    }
    return st;
}

void cdyn__kin_newton_free(const cdyn_allocator *a, cdyn__kin_newton *nw)
{
    cdyn__free_array(a, nw->m, nw->jac.nnz, sizeof(double));
    cdyn__kin_lu_free(a, &nw->lu);
    cdyn__kin_jac_free(a, &nw->jac);
    *nw = (cdyn__kin_newton){0};
}

cdyn_status cdyn__kin_newton_jacobian(cdyn_kinetics *kin, const char *fn, cdyn__kin_newton *nw,
                                      double t, const double *y, const double *scale,
                                      double *cwork)
{
    kin->stats.jacobian_evaluations++;
    cdyn_status st = cdyn__kin_jac_eval(kin, fn, &nw->jac, t, y, scale, cwork);
    nw->have_jac = st == CDYN_OK;
    return st;
}

cdyn_status cdyn__kin_newton_factor(cdyn_kinetics *kin, cdyn__kin_newton *nw, double gamma)
{
    const cdyn__kin_jac *jac = &nw->jac;
    double *m = nw->m;
    for (size_t p = 0; p < jac->nnz; p++)
        m[p] = -gamma * jac->val[p];
    for (size_t k = 0; k < jac->n; k++)
        m[jac->diag[k]] += 1.0;
    kin->stats.factorizations++;
    nw->factored = false;
    if (!cdyn__kin_lu_refactor(&nw->lu, jac->col, jac->row, m)) {
        kin->stats.pivot_searches++;
        cdyn_status st = cdyn__kin_lu_factor(&kin->alloc, &nw->lu, jac->col, jac->row, m);
        if (st)
            return st;
    }
    nw->factored = true;
    nw->gamma = gamma;
    kin->stats.factor_nonzeros = cdyn__kin_lu_nonzeros(&nw->lu);
    return CDYN_OK;
}

void cdyn__kin_newton_solve(const cdyn__kin_newton *nw, double *b, double *work)
{
    cdyn__kin_lu_solve(&nw->lu, b, work);
}
