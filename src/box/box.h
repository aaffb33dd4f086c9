/* The periodic box's module: the public calls (box.c) and the clusters of
 * bonded particles, made whole and wrapped before each step
 * (box_clusters.c). The geometry every module reads is core/box.h.
 * Internal. */
#ifndef CDYN__BOX_BOX_H
#define CDYN__BOX_BOX_H

#include "cdyn/box.h"
#include "core/box.h"

/* Before a step or an evaluation, first: the allocations the box's
 * preparation needs (the clusters' bonds when the system changed since they
 * were last found). CDYN_ERR_NO_MEMORY (message set) with nothing moved.
 * No-op without a periodic box. */
cdyn_status cdyn__box_reserve(cdyn_system *sys);

/* Before a step or an evaluation, with the topology prepared and after
 * every allocation of the call (so that a failure of one leaves the
 * positions as they were): makes the clusters whole when the system changed
 * since they last were, and moves clusters back into the box when one has
 * strayed more than half a box length (both bump box->epoch). Reserves
 * itself when cdyn__box_reserve was not called (CDYN_ERR_NO_MEMORY then
 * possible, nothing moved); CDYN_ERR_UNSUPPORTED (nothing moved) when a
 * cluster closes a loop through the periodic faces. No-op without a
 * periodic box. */
cdyn_status cdyn__box_prepare(cdyn_system *sys);

/* After a step or an evaluation that called cdyn__box_prepare: undo puts
 * back the positions and image counters the preparation moved (a step
 * that failed, any evaluation: neither changes the state), keep accepts
 * them (a step that succeeded). No-op when nothing moved. */
void cdyn__box_undo(cdyn_system *sys);
void cdyn__box_keep(cdyn_system *sys);
/* The clusters of a loaded system (snapshot/) as the saved one held them
 * at the current revision: the bonds, and with @p whole the walk of clusters
 * whose positions are already whole (none is moved, the epoch stays).
 * CDYN_ERR_NO_MEMORY (no message) with the clusters left invalid. */
cdyn_status cdyn__box_restore_clusters(cdyn_system *sys, bool whole);

/* Frees the box and its clusters (system destruction, clear_box). */
void cdyn__box_destroy(cdyn_system *sys);

/* Frees the cluster arrays only (they are rebuilt on demand). */
void cdyn__box_free_clusters(cdyn_system *sys);

#endif /* CDYN__BOX_BOX_H */
