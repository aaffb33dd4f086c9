#include "solver/cg.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/vec.h"

void cdyn__cg_init(cdyn__cg *cg)
{
    memset(cg, 0, sizeof *cg);
}

void cdyn__cg_destroy(cdyn__cg *cg, const cdyn_allocator *alloc)
{
    if (!cg)
        return;
    size_t c = cg->capacity;
    cdyn__free_array(alloc, cg->r, c, sizeof(double));
    cdyn__free_array(alloc, cg->z, c, sizeof(double));
    cdyn__free_array(alloc, cg->p, c, sizeof(double));
    cdyn__free_array(alloc, cg->q, c, sizeof(double));
    cdyn__free_array(alloc, cg->minv, c, sizeof(double));
    cdyn__cg_init(cg);
}

cdyn_status cdyn__cg_reserve(cdyn__cg *cg, const cdyn_allocator *alloc, uint32_t n)
{
    if (!cg || !alloc)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (n <= cg->capacity)
        return CDYN_OK;
    cdyn__cg out;
    out.capacity = n;
    out.r = cdyn__alloc_array(alloc, n, sizeof(double));
    out.z = cdyn__alloc_array(alloc, n, sizeof(double));
    out.p = cdyn__alloc_array(alloc, n, sizeof(double));
    out.q = cdyn__alloc_array(alloc, n, sizeof(double));
    out.minv = cdyn__alloc_array(alloc, n, sizeof(double));
    if (!out.r || !out.z || !out.p || !out.q || !out.minv) {
        cdyn__cg_destroy(&out, alloc);
        return CDYN_ERR_NO_MEMORY;
    }
    cdyn__cg_destroy(cg, alloc);
    *cg = out;
    return CDYN_OK;
}

/* q = (A + D) p, returning p . q: q_j is final once column j is done (later
 * columns only reach rows below them), so the dot product rides along. */
static double mul_dot(const cdyn__symmat *a, const double *diag_add, const double *p,
                      double *q)
{
    const uint32_t n = a->n, *restrict cp = a->colptr, *restrict ri = a->rowind;
    const double *restrict v = a->val;
    double pq = 0.0;
    for (uint32_t j = 0; j < n; j++)
        q[j] = diag_add ? diag_add[j] * p[j] : 0.0;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t k = cp[j], end = cp[j + 1];
        double pj = p[j], acc = q[j] + v[k] * pj;
        for (k++; k < end; k++) {
            uint32_t i = ri[k];
            q[i] += v[k] * pj;
            acc += v[k] * p[i];
        }
        q[j] = acc;
        pq += pj * acc;
    }
    return pq;
}

/* r = b - (A + D) x; returns ||r||_2^2. */
static double residual(const cdyn__symmat *a, const double *diag_add,
                       const double *b, const double *x, double *r)
{
    cdyn__symmat_mul(a, diag_add, x, r);
    double s = 0.0;
    for (uint32_t i = 0; i < a->n; i++) {
        r[i] = b[i] - r[i];
        s += r[i] * r[i];
    }
    return s;
}

/* z = M^-1 r and p = z; returns r . z. */
static double precondition_restart(const double *minv, const double *r, double *z,
                                   double *p, uint32_t n)
{
    double rz = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        z[i] = minv[i] * r[i];
        p[i] = z[i];
        rz += r[i] * z[i];
    }
    return rz;
}

cdyn_status cdyn__cg_solve(cdyn__cg *cg, const cdyn__symmat *a, const double *diag_add,
                           const double *b, double *x, double tol, uint32_t max_iter,
                           cdyn__cg_report *report)
{
    if (!cg || !a || (a->n && (!b || !x)) || a->n > cg->capacity || !(tol > 0.0))
        return CDYN_ERR_INVALID_ARGUMENT;
    const uint32_t n = a->n;
    double *restrict r = cg->r, *restrict z = cg->z, *restrict p = cg->p,
                     *restrict q = cg->q, *restrict minv = cg->minv;
    cdyn__cg_report rep = {0, 0.0};

    double bb = cdyn__dotn(b, b, n);
    double rr = residual(a, diag_add, b, x, r);
    /* Any non-finite entry of A, diag_add, b or x reaches rr or bb (0 * inf
     * is NaN), so this one test guards the whole input. */
    if (!(rr + bb <= DBL_MAX))
        return CDYN_ERR_INVALID_ARGUMENT;
    if (bb == 0.0) {
        if (n)
            memset(x, 0, n * sizeof *x);
        if (report)
            *report = rep;
        return CDYN_OK;
    }
    for (uint32_t i = 0; i < n; i++) {
        double dii = a->val[a->colptr[i]] + (diag_add ? diag_add[i] : 0.0);
        minv[i] = dii > 0.0 ? 1.0 / dii : 0.0;
    }
    const double goal = tol * tol * bb;
    cdyn_status st = CDYN_OK;
    double rz = precondition_restart(minv, r, z, p, n);
    while (rr > goal) {
        if (rep.iterations >= max_iter) {
            st = CDYN_ERR_NOT_CONVERGED;
            break;
        }
        double pq = mul_dot(a, diag_add, p, q);
        rep.iterations++;
        if (!(pq > 0.0) || !(rz > 0.0)) {
            st = CDYN_ERR_NOT_CONVERGED;
            break;
        }
        double alpha = rz / pq;
        rr = 0.0;
        for (uint32_t i = 0; i < n; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
            rr += r[i] * r[i];
        }
        if (rr <= goal) {
            /* Confirm with the true residual; recursion drift can fake
             * convergence near the attainable accuracy. */
            rr = residual(a, diag_add, b, x, r);
            if (rr > goal)
                rz = precondition_restart(minv, r, z, p, n);
            continue;
        }
        double rz_new = 0.0;
        for (uint32_t i = 0; i < n; i++) {
            z[i] = minv[i] * r[i];
            rz_new += r[i] * z[i];
        }
        double beta = rz_new / rz;
        rz = rz_new;
        for (uint32_t i = 0; i < n; i++)
            p[i] = z[i] + beta * p[i];
    }
    if (st != CDYN_OK)
        rr = residual(a, diag_add, b, x, r);
    rep.relres = sqrt(rr / bb);
    if (report)
        *report = rep;
    return st;
}
