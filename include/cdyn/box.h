/** @file
 * @brief Periodic boundaries: a system's box, wrapped and unwrapped
 * positions.
 *
 * A system may have an orthorhombic box: an origin o and edge lengths L_k
 * along the axes, each axis periodic or not. Along a periodic axis the
 * system repeats with period L_k: a particle that leaves through one face
 * comes back through the opposite one, and every interaction between two
 * particles uses the minimum image of their separation,
 *
 *     d_k  ->  d_k - L_k round(d_k / L_k),
 *
 * the nearest of the periodic copies. What follows from it:
 *
 *  - Pair generators (pair.h) and springs act through the faces with the
 *    minimum image. Their cutoff (and a spring's length) must stay below
 *    L_k / 2 for the minimum image to be the only copy in reach.
 *
 *  - Particles joined by distance constraints or by rigid bodies form
 *    clusters (a polymer, a rigid molecule). A cluster is kept whole: before
 *    each step its members are placed at the minimum image of their bonded
 *    neighbours, so that a rod that crosses a face is seen at its length, and
 *    the cluster moves by whole box lengths only as a unit. A cluster that
 *    contains a particle held in space (anchors, pins, planes, implicit and
 *    user constraints, particles on curves or surfaces, kinematic particles)
 *    is never moved. A cluster that closes a loop through the periodic faces
 *    (a network bonded to its own images) cannot be made whole: use springs
 *    for such bonds.
 *
 *  - Positions read through cdyn_particle_get_position() and
 *    cdyn_system_get_positions() are wrapped into the box:
 *    o_k <= x_k < o_k + L_k along each periodic axis. Each particle keeps an
 *    image counter n_k (cdyn_particle_get_image()) such that its unwrapped
 *    position x_k + n_k L_k moves continuously in time (for diffusion and
 *    for end-to-end vectors of chains: within a cluster unwrapped positions
 *    are whole). A position set from outside keeps the image counter that
 *    moves the unwrapped position least (a position read, wrapped and set
 *    back keeps its unwrapped value). A particle more than 2^52 box
 *    lengths out is still read inside the box (by the exact remainder),
 *    but its image counter no longer counts those lengths.
 *
 *  - Inside a step the library stores positions in whatever periodic copy
 *    is convenient: each cluster is moved back into the box only when its
 *    first particle is more than half a box length out. Force, constraint
 *    and ground callbacks therefore see positions that may lie up to about
 *    L_k / 2 (plus a cluster's size) outside the box; grounds see every
 *    particle wrapped into the box.
 *
 *  - Along an axis that is not periodic nothing of the above applies; L_k
 *    is still the box's extent, used for its volume (the pressure of
 *    diagnostics.h). A container's walls along such an axis are grounds: a
 *    plane ground at each face (ground.h, docs/pairs.md).
 */
#ifndef CDYN_BOX_H
#define CDYN_BOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Gives a system an orthorhombic box, periodic or not along each axis.
 *
 *  Replaces a box set before. Positions are not moved or scaled: the unwrapped
 *  positions of the old box become the stored positions and every image counter
 *  starts at 0. Along a periodic axis the length must exceed twice the cutoff
 *  of every pair generator (checked at each step; see pair.h). Allocates the
 *  image counters (8 dim bytes per particle) with the first box and, at the
 *  next step, the clusters (about 20 bytes per particle).
 *
 *  @param[in,out] sys       The system.
 *  @param[in]     origin    The corner o (m), dim finite values, copied.
 *  @param[in]     lengths   The edge lengths L_k (m), dim finite values > 0,
 *                           copied; o + L and 1 / L must be finite too,
 *                           and L_k >= 2^-32 |o_k| (a box that short
 *                           against its distance from 0 holds too few
 *                           distinct coordinates to wrap into).
 *  @param[in]     periodic  dim flags, copied: true makes axis k periodic.
 *  @retval CDYN_OK                    the box was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys, @p origin, @p lengths or
 *                                     @p periodic is NULL, or a value is out of
 *                                     range; nothing changed.
 *  @retval CDYN_ERR_NO_MEMORY         the first box or its image counters could
 *                                     not be allocated; nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_set_box(cdyn_system *sys, const double *origin,
                                         const double *lengths, const bool *periodic);

/** Removes the box of a system.
 *
 *  The system is unbounded again and each particle's stored position becomes
 *  its unwrapped one. A system without a box is left as it is.
 *
 *  @param[in,out] sys  The system.
 *  @retval CDYN_OK                    the system has no box.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_clear_box(cdyn_system *sys);

/** Reads the box of a system, if it has one.
 *
 *  @param[in]  sys       The system.
 *  @param[out] origin    Receives the corner (m), dim values; may be NULL. Left
 *                        alone without a box.
 *  @param[out] lengths   Receives the edge lengths (m), dim values; may be
 *                        NULL. Left alone without a box.
 *  @param[out] periodic  Receives the dim periodic flags; may be NULL. Left
 *                        alone without a box.
 *  @param[out] has_box   Receives whether the system has a box.
 *  @retval CDYN_OK                    the box was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p has_box is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_box(const cdyn_system *sys, double *origin, double *lengths,
                                         bool *periodic, bool *has_box);

/** Copies the unwrapped positions of every particle index into a flat array.
 *
 *  x_k + n_k L_k with n_k the particle's image counter, in the layout of
 *  cdyn_system_get_positions(); without a box these are the positions.
 *  Allocates nothing.
 *
 *  @param[in]  sys       The system.
 *  @param[out] out       Receives the positions (m).
 *  @param[in]  capacity  The length of @p out in doubles, at least the index
 *                        count times dim.
 *  @retval CDYN_OK                    the positions were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p capacity
 *                                     is short; nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_unwrapped_positions(const cdyn_system *sys, double *out,
                                                         size_t capacity);

/** Reads the unwrapped position of a particle.
 *
 *  x_k + n_k L_k with n_k its image counter; without a box, its position.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  p    The particle.
 *  @param[out] out  Receives dim values (m).
 *  @retval CDYN_OK                    the position was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_get_unwrapped_position(const cdyn_system *sys,
                                                          cdyn_particle p, double *out);

/** Reads the image counters of a particle.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  p    The particle.
 *  @param[out] out  Receives the dim counters n_k: how many box lengths the
 *                   unwrapped position lies from the stored one along each
 *                   axis; 0 without a box and along axes that are not periodic.
 *  @retval CDYN_OK                    the counters were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p p is 0, not a particle, or of another
 *                                     system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p p was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_particle_get_image(const cdyn_system *sys, cdyn_particle p,
                                             int64_t *out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_BOX_H */
