/* Rates of the reactions and of the species (mass action and user laws). */
#ifndef CDYN__KINETICS_RATES_H
#define CDYN__KINETICS_RATES_H

#include "kinetics/kinetics.h"

/* x^n for n >= 0 by repeated squaring (a fixed order of products). */
double cdyn__kin_ipow(double x, int n);

/* The rate of every reaction at (t, c) into v (reaction order). Returns
 * CDYN_OK, or CDYN_ERR_CALLBACK (message set, naming function @p fn) when a
 * rate law returns nonzero. A rate that is not finite is passed on: the
 * integrators see it in their norms and shorten the step. */
cdyn_status cdyn__kin_reaction_rates(cdyn_kinetics *kin, const char *fn, double t,
                                     const double *c, double *v);

/* f = S v at (t, c) into f (species order), with @p v as scratch for the
 * reaction rates. Statuses as cdyn__kin_reaction_rates. */
cdyn_status cdyn__kin_species_rates(cdyn_kinetics *kin, const char *fn, double t,
                                    const double *c, double *v, double *f);

/* Calls the rate law of reaction @p j at (t, c) into *rate; CDYN_ERR_CALLBACK
 * (message set) when it returns nonzero. */
cdyn_status cdyn__kin_call_law(cdyn_kinetics *kin, const char *fn, size_t j, double t,
                               const double *c, double *rate);

#endif
