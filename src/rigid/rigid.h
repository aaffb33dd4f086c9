/* Rigid bodies: storage, the step hook, the checks other modules call.
 * Internal. The public side is include/cdyn/rigid.h; the model and both
 * schemes are in docs/rigid.md.
 *
 * A body's members keep their particle slots. While in a body a member has
 * sys->inv_mass = 0 (its mass kept, fixed = 0), so the integrators move it
 * only kinematically; after the integrator, cdyn__rigids_step overwrites the
 * members' x_new, v_new with the rigid update.
 *
 * The body state is not stored between steps: X_cm, U_cm, L and the
 * orientation Q are recomputed from the committed member positions and
 * velocities whenever they are needed (Q by the weighted least-squares fit
 * of the fixed body-frame offsets b_k to the offsets x_k - X_cm, exact for a
 * rigid configuration). A failed step therefore needs no rollback here.
 * Members are always written as X_cm + Q b_k with the fixed b_k, so the
 * shape is exact to round-off at every step however long the run.
 */
#ifndef CDYN__RIGID_RIGID_H
#define CDYN__RIGID_RIGID_H

#include <stdbool.h>
#include <stdint.h>

#include "cdyn/rigid.h"
#include "core/handle.h"

typedef struct cdyn__rigid {
    uint32_t n;       /* members */
    uint8_t scheme;   /* cdyn_rigid_scheme */
    uint32_t *member; /* particle slots, n (owned) */
    double *b;        /* body-frame offsets, 3 per member (owned; z = 0 in 2-D) */
    double mass;      /* M */
    double ib[9];     /* body-frame inertia about the centre of mass */
    double ib_inv[9]; /* its inverse (2-D: only [8] = 1 / I_zz is used) */

    /* the step in progress: start state, candidate, accumulators */
    double x0[3], u0[3], l0[3], q0[9];
    double x1[3], u1[3], l1[3], q1[9];
    double uh[3], lh[3];
    double f[3], tau[3];
} cdyn__rigid;

typedef struct cdyn__rigids {
    cdyn__slots slots;
    cdyn__rigid *r;
} cdyn__rigids;

/* Frees every body and the store; sys->rigids becomes NULL. Does not touch
 * the particles (system destruction). */
void cdyn__rigids_destroy(cdyn_system *sys);

/* The step hook: after the integrator has written x_new, v_new, overwrites
 * the members' entries with the rigid update of every body over @p dt.
 * Evaluates forces on its own (force generators and grounds; never the
 * constraint solve). Reads the committed state, writes only x_new, v_new,
 * the workspace force array and the bodies' step scratch. Returns CDYN_OK at
 * once without bodies; CDYN_ERR_CALLBACK when a callback fails. Never
 * allocates. */
cdyn_status cdyn__rigids_step(cdyn_system *sys, double dt);

/* The body of slot @p i, or NULL (with the message set) for a bad handle. */
cdyn_status cdyn__rigid_slot(const cdyn_system *sys, cdyn_rigid h, const char *what,
                             uint32_t *slot);

/* The state of body @p r at positions x, velocities v (every slot, dim
 * doubles each): centre of mass, its velocity, angular momentum about it
 * and the fitted orientation (each 3 or 9 values, 2-D embedded in z = 0).
 * Any output may be NULL. */
void cdyn__rigid_state(const cdyn_system *sys, const cdyn__rigid *r, const double *x,
                       const double *v, double xc[3], double uc[3], double l[3], double q[9]);

/* Omega = Q I_body^-1 Q^T L (2-D: (0, 0, L_z / I_zz)). */
void cdyn__rigid_omega(int dim, const cdyn__rigid *r, const double q[9], const double l[3],
                       double omega[3]);

#endif /* CDYN__RIGID_RIGID_H */
