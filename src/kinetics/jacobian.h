/* The rate Jacobian J = d(S v)/dc: its sparsity pattern (with the diagonal,
 * as the Newton matrix I - gamma J needs it) in compressed columns, and its
 * values from the analytic derivatives of the mass-action rates (user laws:
 * their own derivatives, or forward differences). */
#ifndef CDYN__KINETICS_JACOBIAN_H
#define CDYN__KINETICS_JACOBIAN_H

#include "kinetics/kinetics.h"

typedef struct cdyn__kin_jac {
    size_t n, nnz;
    size_t *col;   /* n + 1: column starts */
    size_t *row;   /* nnz: row indices, ascending in each column */
    size_t *diag;  /* n: position of entry (k, k) */
    double *val;   /* nnz values */
    /* For every (reaction j, dependency d, net species e) in that loop
     * order, the position of J[e][d] in val: assembly is one scatter. */
    size_t *map;
    size_t map_len;
    double *dv;    /* max_deps + 1: derivatives of one rate */
    double *pre;   /* max_deps + 1: prefix products of one rate */
} cdyn__kin_jac;

/* Builds the pattern and the assembly map of the network's Jacobian
 * (values unset). CDYN_OK or CDYN_ERR_NO_MEMORY (nothing kept). */
cdyn_status cdyn__kin_jac_build(const cdyn_kinetics *kin, cdyn__kin_jac *jac);

void cdyn__kin_jac_free(const cdyn_allocator *a, cdyn__kin_jac *jac);

/* Evaluates J at (t, c) into jac->val. @p scale (species) is the
 * tolerance scale rtol |c| + atol that sizes the difference increments of
 * user laws without a Jacobian; @p cwork is a scratch copy of c (species).
 * CDYN_OK or CDYN_ERR_CALLBACK (message set, naming @p fn). */
cdyn_status cdyn__kin_jac_eval(cdyn_kinetics *kin, const char *fn, cdyn__kin_jac *jac, double t,
                               const double *c, const double *scale, double *cwork);

#endif
