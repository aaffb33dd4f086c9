/* Rows of the multiplier equation shared by the general row pass
 * (constraint_solve.c) and the chain kernel (constraint_chain.c): the
 * right-hand side of a row, the row of a rod in an all-rods topology and
 * the coupling term between two Jacobian blocks. */
#ifndef CDYN__CONSTRAINT_ROW_RHS_H
#define CDYN__CONSTRAINT_ROW_RHS_H

#include "core/compiler.h"
#include "constraint/constraint.h"
#include "core/system.h"

/* A redundant row whose residual stays above this (relative, see
 * cdyn__symmat_residual) means the constraints conflict. */
#define CDYN__CONFLICT_RESIDUAL 1e-8

/* Coefficients of a row's right-hand side, rigid (feedback) or compliant
 * (implicit spring over the step). */
typedef struct cdyn__rhs_coef {
    double ks, kd;          /* rigid rows */
    double soft_g, soft_gd; /* compliant rows: 1/dt^2, 1/dt */
} cdyn__rhs_coef;

/* -G'v - G W F - ks g - kd g' for a rigid row; for a compliant one
 * (alpha > 0) -G'v - G W F - g / dt^2 - g' / dt, with alpha / dt^2 put in
 * k->diag[row]. */
static CDYN__ALWAYS_INLINE double cdyn__row_rhs(cdyn__constraints *k, const cdyn__rhs_coef *rc,
                                                double alpha, uint32_t row, double g, double gd,
                                                double bias, double gwf)
{
    if (alpha > 0) {
        k->diag[row] = alpha * rc->soft_g;
        k->has_compliance = true;
        return -bias - gwf - rc->soft_g * g - rc->soft_gd * gd;
    }
    if (k->any_compliance)
        k->diag[row] = 0; /* read only when some row is compliant */
    return -bias - gwf - rc->ks * g - rc->kd * gd;
}

/* The coefficients of the step in progress (cdyn_system_evaluate uses the
 * last step's dt, or 1e-3 s before the first step). */
static inline cdyn__rhs_coef cdyn__rhs_coef_of(const cdyn_system *sys)
{
    const cdyn__constraints *k = sys->cons;
    double h = sys->step_dt > 0 ? sys->step_dt : 1e-3;
    return (cdyn__rhs_coef){k->opt.ks, k->opt.kd, 1.0 / (h * h), 1.0 / h};
}

/* The row of a rod between particles ia and ib (row @p row, blocks at ja,
 * L^2 = @p ll, compliance @p alpha): writes its Jacobian blocks (-d, d),
 * d = x_b - x_a, stores |d|^2 in *d2 and returns its right-hand side
 * (g = (|d|^2 - L^2) / 2, G'v = |v_b - v_a|^2, G W F from the
 * accelerations @p acc). */
static CDYN__ALWAYS_INLINE double cdyn__rod_row(cdyn__constraints *restrict k,
                                                const cdyn__rhs_coef *rc,
                                                const double *restrict x,
                                                const double *restrict v,
                                                const double *restrict acc, uint32_t ia,
                                                uint32_t ib, double *restrict ja, double ll,
                                                double alpha, uint32_t row, size_t D, double *d2)
{
    const double *xa = x + ia * D, *xb = x + ib * D, *va = v + ia * D, *vb = v + ib * D;
    const double *fa = acc + ia * D, *fb = acc + ib * D;
    double dd = 0, dv2 = 0, gd = 0, gwf = 0;
    for (size_t q = 0; q < D; q++) {
        double dq = xb[q] - xa[q], vq = vb[q] - va[q];
        ja[q] = -dq;
        ja[D + q] = dq;
        dd += dq * dq;
        dv2 += vq * vq;
        gd += dq * vq;
        gwf += dq * (fb[q] - fa[q]);
    }
    *d2 = dd;
    return cdyn__row_rhs(k, rc, alpha, row, 0.5 * (dd - ll), gd, dv2, gwf);
}

/* Row r of an all-rods topology: blocks 2r, 2r + 1 on particles ia, ib,
 * L^2 in k->ll (the constraint is read only for a compliance). */
static CDYN__ALWAYS_INLINE double cdyn__rods_row(cdyn__constraints *restrict k,
                                                 const cdyn__rhs_coef *rc,
                                                 const double *restrict x,
                                                 const double *restrict v,
                                                 const double *restrict acc, uint32_t r,
                                                 uint32_t ia, uint32_t ib, size_t D, double *d2)
{
    double alpha = k->any_compliance ? k->c[k->active[r]].compliance : 0.0;
    return cdyn__rod_row(k, rc, x, v, acc, ia, ib, k->jac + 2 * D * r, k->ll[r], alpha, r, D,
                         d2);
}

/* The value of assembly term @p t: w (particle of bi) J[bi] . J[bj]. */
static CDYN__ALWAYS_INLINE double cdyn__term_value(const cdyn__constraints *k, const double *w,
                                                   const cdyn__aterm *t, size_t D)
{
    const double *a = k->jac + D * t->bi, *b = k->jac + D * t->bj;
    double s2 = a[0] * b[0];
    for (size_t q = 1; q < D; q++)
        s2 += a[q] * b[q];
    return w[k->blk_particle[t->bi]] * s2;
}

#endif
