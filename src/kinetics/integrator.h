/* What the integration methods share: one integration's settings and
 * outputs (cdyn__kin_run), error weights and norms, counted rate
 * evaluations, the positivity test and the first step size. Each method is
 * a row of the table in integrate.c. */
#ifndef CDYN__KINETICS_INTEGRATOR_H
#define CDYN__KINETICS_INTEGRATOR_H

#include <stdbool.h>

#include "kinetics/kinetics.h"
#include "kinetics/workspace.h"

typedef struct cdyn__kin_run {
    cdyn_kinetics *kin;
    const char *fn;            /* the public function, for messages */
    cdyn__kin_work *w;
    size_t n;                  /* species */
    double t0, t_end;
    double rtol, atol;         /* atol: for species without their own */
    const double *atol_sp;     /* per-species, or NULL */
    size_t atol_n;             /* species that have their own */
    uint64_t max_steps;
    double h_init, h_max;      /* 0: automatic / none */
    int max_order, max_newton;
    double fixed_step;
    /* outputs */
    const double *times;
    size_t n_times, next;
    double *out;
} cdyn__kin_run;

/* Signature of a method: integrate kin's state from run->t0 to run->t_end,
 * leaving the final concentrations in kin->sp.c and writing every output
 * time it passes. On failure the caller rolls back. */
typedef cdyn_status (*cdyn__kin_method_fn)(cdyn__kin_run *run);

cdyn_status cdyn__kin_bdf(cdyn__kin_run *run);
cdyn_status cdyn__kin_backward_euler(cdyn__kin_run *run);
cdyn_status cdyn__kin_dormand_prince(cdyn__kin_run *run);

/* A row of the method table (integrate.c): how to run a method. */
typedef struct cdyn__kin_method_desc {
    cdyn_kinetics_method method;
    const char *name;
    bool implicit;              /* needs the Newton systems */
    cdyn__kin_method_fn run;
} cdyn__kin_method_desc;

/* The row of @p method, or NULL for an unknown value. */
const cdyn__kin_method_desc *cdyn__kin_method_find(cdyn_kinetics_method method);

/* The work vector that keeps the state at the start of an integration for
 * its rollback; no method uses it. */
#define CDYN__KIN_VEC_ROLLBACK (CDYN__KIN_NVEC - 1)

/* Absolute tolerance of species i. */
double cdyn__kin_atol(const cdyn__kin_run *run, size_t i);

/* ewt_i = 1 / (rtol |y_i| + atol_i), the weights of the error norm. */
void cdyn__kin_weights(const cdyn__kin_run *run, const double *y, double *ewt);

/* The weighted root-mean-square norm sqrt(sum (v_i w_i)^2 / n). */
double cdyn__kin_wrms(size_t n, const double *v, const double *w);

/* dc/dt at (t, y) into f, counted. Statuses of cdyn__kin_species_rates. */
cdyn_status cdyn__kin_rhs(cdyn__kin_run *run, double t, const double *y, double *f);

/* Whether some y_i < -atol_i: a step that made a concentration negative
 * beyond the tolerance. */
bool cdyn__kin_negative(const cdyn__kin_run *run, const double *y);

/* A first step for a method of order @p order from (t0, y0) with slope
 * @p f0 and weights @p ewt: the Euler step that changes y by a hundredth
 * of its weighted size, corrected by an estimate of y'' so that the local
 * error of the first step is about a hundredth of the tolerance (Hairer,
 * Norsett and Wanner, Solving ODEs I, section II.4). Uses @p y1, @p f1 as
 * scratch and one evaluation of the rates. The result is in *h. */
cdyn_status cdyn__kin_initial_step(cdyn__kin_run *run, const double *y0, const double *f0,
                                   const double *ewt, int order, double *y1, double *f1,
                                   double *h);

/* Writes every pending output time t_out <= @p t_upto with @p interp. */
typedef void (*cdyn__kin_interp_fn)(const void *ctx, size_t n, double t, double *out);
void cdyn__kin_emit(cdyn__kin_run *run, double t_upto, cdyn__kin_interp_fn interp,
                    const void *ctx);

#endif
