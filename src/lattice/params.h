/* The model parameters E, D, M, S, R: defaults, bounds, setters' checks. */
#ifndef CDYN__LATTICE_PARAMS_H
#define CDYN__LATTICE_PARAMS_H

#include "lattice/lattice.h"

/* Sets E, D, M, S, R and the slide rule to their defaults (docs/lattice.md
 * says why each one). */
void cdyn__lattice_params_default(cdyn_lattice *lat);

/* The bounds check of cdyn_lattice_set_param, without changing anything:
 * CDYN_OK, or CDYN_ERR_INVALID_ARGUMENT with the message recorded under
 * @p fn. */
cdyn_status cdyn__lattice_param_check(const cdyn_lattice *lat, const char *fn,
                                      cdyn_lattice_param param, double value);

#endif
