/* cdyn: periodic boundaries.
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
 *  - Positions read through cdyn_particle_get_position and
 *    cdyn_system_get_positions are wrapped into the box:
 *    o_k <= x_k < o_k + L_k along each periodic axis. Each particle keeps an
 *    image counter n_k (cdyn_particle_get_image) such that its unwrapped
 *    position x_k + n_k L_k moves continuously in time (for diffusion and
 *    for end-to-end vectors of chains: within a cluster unwrapped positions
 *    are whole). A position set from outside keeps the image counter that
 *    moves the unwrapped position least (a position read, wrapped and set
 *    back keeps its unwrapped value).
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

/** Gives @p sys the box with corner @p origin (dim finite values, m) and
 *  edge @p lengths (dim finite values > 0, m), periodic along axis k when
 *  @p periodic[k] is true (@p periodic: dim values). Replaces a box set
 *  before. Positions are not moved or scaled: the unwrapped positions of
 *  the old box become the stored positions and every image counter starts
 *  at 0. Along a periodic axis the length must exceed twice the cutoff of
 *  every pair generator (checked at each step; see pair.h). Allocates the
 *  image counters (8 dim bytes per particle) and, at the next step, the
 *  clusters (about 20 bytes per particle).
 *  CDYN_ERR_INVALID_ARGUMENT for NULL arguments or invalid values (nothing
 *  changed); CDYN_ERR_NO_MEMORY (nothing changed); CDYN_ERR_BUSY from
 *  inside a step. @since 0.1 */
CDYN_API cdyn_status cdyn_system_set_box(cdyn_system *sys, const double *origin,
                                         const double *lengths, const bool *periodic);

/** Removes the box: the system is unbounded again and each particle's
 *  stored position becomes its unwrapped one. No-op without a box.
 *  CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys, CDYN_ERR_BUSY from inside
 *  a step. @since 0.1 */
CDYN_API cdyn_status cdyn_system_clear_box(cdyn_system *sys);

/** The box: writes dim values to each of @p origin, @p lengths and
 *  @p periodic (each may be NULL to skip it) and sets *@p has_box (not
 *  NULL) to whether the system has a box (the arrays are left alone when
 *  it has none). CDYN_ERR_INVALID_ARGUMENT for a NULL @p sys or
 *  @p has_box. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_box(const cdyn_system *sys, double *origin, double *lengths,
                                         bool *periodic, bool *has_box);

/** Unwrapped positions x_k + n_k L_k (m) of every particle index, dim
 *  values each, into @p out (@p capacity doubles, at least index count
 *  times dim; see cdyn_system_get_positions). Without a box these are the
 *  positions. Allocates nothing. CDYN_ERR_INVALID_ARGUMENT for NULL
 *  arguments or a short @p capacity. @since 0.1 */
CDYN_API cdyn_status cdyn_system_get_unwrapped_positions(const cdyn_system *sys, double *out,
                                                         size_t capacity);

/** The unwrapped position of @p p (dim values, m) into @p out.
 *  CDYN_ERR_INVALID_ARGUMENT for a NULL argument, handle errors for @p p.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_particle_get_unwrapped_position(const cdyn_system *sys,
                                                          cdyn_particle p, double *out);

/** The image counters n_k of @p p (dim values into @p out; 0 without a box
 *  and along axes that are not periodic). Statuses as
 *  cdyn_particle_get_unwrapped_position. @since 0.1 */
CDYN_API cdyn_status cdyn_particle_get_image(const cdyn_system *sys, cdyn_particle p,
                                             int64_t *out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_BOX_H */
