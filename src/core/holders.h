/* What holds a particle: the one place that answers "is this particle in a
 * rigid body, is it in constraints". The rigid-body store and the
 * constraint store keep these counts up to date as they add and remove;
 * everyone else asks here instead of reading another store's arrays.
 * Forces that name particles (springs, pair lists) do not hold them: they
 * are removed with the particle. Internal. */
#ifndef CDYN__CORE_HOLDERS_H
#define CDYN__CORE_HOLDERS_H

#include <stdint.h>

#include "cdyn/status.h"
#include "cdyn/types.h"

/* The rigid body holding particle slot @p slot: its slot + 1, or 0. */
uint32_t cdyn__holder_body(const cdyn_system *sys, uint32_t slot);

/* The number of constraints (implicit rows or a shape) on slot @p slot. */
uint32_t cdyn__holder_constraints(const cdyn_system *sys, uint32_t slot);

/* CDYN_ERR_INVALID_ARGUMENT, with a message naming @p what and saying to
 * dissolve the body first, when slot @p slot is in a rigid body. */
cdyn_status cdyn__holders_refuse_body(const cdyn_system *sys, uint32_t slot, const char *what);

/* Makes the body (@p bodies true) or constraint counts cover every
 * particle slot in use: CDYN_ERR_NO_MEMORY (message naming @p what) with
 * nothing changed on failure. Call before adding a holder. */
cdyn_status cdyn__holders_reserve(cdyn_system *sys, int bodies, const char *what);

/* Sets slot @p slot's body (body slot + 1, or 0); the counts must cover it. */
void cdyn__holders_set_body(cdyn_system *sys, uint32_t slot, uint32_t body);

/* Adds @p delta (+1 or -1) to slot @p slot's constraint count. */
void cdyn__holders_count_constraint(cdyn_system *sys, uint32_t slot, int delta);

void cdyn__holders_free(cdyn_system *sys);

#endif /* CDYN__CORE_HOLDERS_H */
