/* chain_sample: chains of rigid bonds drawn from the canonical ensemble at
 * temperature kT, the start of an equilibrium run with RATTLE, with the
 * examples' own random numbers (polymer.c's header explains the
 * distribution); used by polymer and ensemble_polymer, not part of the
 * library.
 *
 * Units: bond length, bead mass and kT are 1. */
#ifndef CDYN_EXAMPLE_CHAIN_SAMPLE_H
#define CDYN_EXAMPLE_CHAIN_SAMPLE_H

#include <stdint.h>

/* Uniform in [0, 1) (53 bits) from a splitmix64 stream whose state is
 * *state. */
double chain_uniform(uint64_t *state);

/* Fills u (3 n values) with the n bond directions of a chain of equal
 * masses and rigid bonds drawn from the canonical distribution: uniform
 * directions weighted by sqrt(det Z), Z = G M^-1 G^T (Fixman), by exact
 * rejection. Returns the number of tries. */
long chain_draw_bonds(uint64_t *state, int n, double *u);

/* Maxwell velocities of the n + 1 beads (3 (n + 1) values) at kT = 1,
 * projected onto the bonds' tangent space G v = 0, centre of mass at rest.
 * @p scratch holds 3 n doubles. */
void chain_draw_velocities(uint64_t *state, int n, const double *u, double *v,
                           double *scratch);

#endif
