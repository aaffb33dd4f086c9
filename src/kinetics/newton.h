/* The Newton systems of the implicit methods: (I - gamma J) delta = b with
 * the rate Jacobian J kept between evaluations and the sparse LU of
 * I - gamma J kept between factorizations, both reused across steps while
 * the iteration converges (the methods decide when to renew them). */
#ifndef CDYN__KINETICS_NEWTON_H
#define CDYN__KINETICS_NEWTON_H

#include <stdbool.h>

#include "kinetics/jacobian.h"
#include "kinetics/kinetics.h"
#include "kinetics/sparse_lu.h"

typedef struct cdyn__kin_newton {
    cdyn__kin_jac jac;
    cdyn__kin_lu lu;
    double *m;       /* values of I - gamma J on the pattern of jac */
    double gamma;    /* gamma of the factored matrix */
    bool have_jac;   /* jac.val holds a Jacobian */
    bool factored;   /* lu holds the factors of I - gamma J */
} cdyn__kin_newton;

/* Builds the Jacobian's pattern, its fill-reducing order and the LU's
 * storage. CDYN_OK or CDYN_ERR_NO_MEMORY (nothing kept). */
cdyn_status cdyn__kin_newton_init(const cdyn_kinetics *kin, cdyn__kin_newton *nw);

void cdyn__kin_newton_free(const cdyn_allocator *a, cdyn__kin_newton *nw);

/* Evaluates J at (t, y) (counted in kin->stats); @p scale and @p cwork as
 * cdyn__kin_jac_eval. Statuses as cdyn__kin_jac_eval. */
cdyn_status cdyn__kin_newton_jacobian(cdyn_kinetics *kin, const char *fn, cdyn__kin_newton *nw,
                                      double t, const double *y, const double *scale,
                                      double *cwork);

/* Forms I - gamma J from the kept J and factors it, reusing the pivots of
 * the last factorization when they still serve (counted in kin->stats).
 * CDYN_OK, CDYN_ERR_SINGULAR, CDYN_ERR_NO_MEMORY (storage outgrown). */
cdyn_status cdyn__kin_newton_factor(cdyn_kinetics *kin, cdyn__kin_newton *nw, double gamma);

/* Solves (I - gamma J) x = b in place with the kept factors. */
void cdyn__kin_newton_solve(const cdyn__kin_newton *nw, double *b, double *work);

#endif
