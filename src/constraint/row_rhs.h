/* The right-hand side of one row of the multiplier equation, shared by the
 * general row pass (constraint_solve.c) and the chain kernel
 * (constraint_chain.c). */
#ifndef CDYN__CONSTRAINT_ROW_RHS_H
#define CDYN__CONSTRAINT_ROW_RHS_H

#include "compiler.h"
#include "constraint/constraint.h"

/* A redundant row whose residual stays above this (relative, see
 * cdyn__symmat_residual) means the constraints conflict. */
#define CDYN__CONFLICT_RESIDUAL 1e-8
/* Pivots below this fraction of their diagonal mark a row as redundant. */
#define CDYN__REDUNDANT_PIVOT 1e-10

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

#endif
