/* SHAKE/RATTLE projection onto the constraint manifold (internal; public
 * side include/cdyn/projection.h, guide docs/rattle.md).
 *
 * Positions: x* = x + W G_ref^T mu with G_ref = G(x_ref), mu such that
 * g(x*) = 0. Velocities: v* = v + W G(x)^T nu with G(x) v* = 0. Both work on
 * the rows of the current topology (sys->cons) and use its arrays: the
 * Jacobian blocks k->jac hold G_ref during a position projection and G(x)
 * after a velocity projection; the Newton method assembles G W G^T into
 * k->a and factors it with k->ldlt. The projection keeps a copy of the
 * values it last factored, so that RATTLE can reuse the factorization of
 * the end of one step (its velocity projection) for the position projection
 * of the next one, after checking that the matrix is bit for bit the same
 * and that nothing else has factored since.
 *
 * Nothing here allocates except cdyn__projection_begin, and that only when
 * the topology grew (or, with the CG multiplier solver, once per topology
 * for the analysis of the factorization). */
#ifndef CDYN__PROJECTION_H
#define CDYN__PROJECTION_H

#include <stdbool.h>
#include <stdint.h>

#include "cdyn/projection.h"
#include "cdyn/system.h"
#include "projection/chain.h"

typedef struct cdyn__projection {
    cdyn_projection_options opt;
    cdyn_projection_stats stats;
    const char *who; /* the caller named in messages (cdyn__projection_begin) */
    /* The time of the manifold g(x, t) = 0 being projected onto, and of
     * the reference Jacobian G(x_ref, t_ref) of a position projection. */
    double t, t_ref;

    /* Arrays grown on demand: per row, per value of A, per coordinate, per
     * particle. */
    size_t cap_rows, cap_nnz, cap_len, cap_particles;
    double *nu;       /* cap_rows: velocity multipliers of the projection in progress */
    double *resid;    /* cap_rows (in nu's block): g(x1) of RATTLE's committed positions,
                       * whose share the reported multipliers leave out */
    double *mu;       /* cap_rows (in nu's block): the impulses of the last position
                       * projection when track_mu is set (RATTLE with drivers: the
                       * first half step's multipliers 2 mu / h^2, dynamics/drive.h) */
    bool track_mu;
    double *len;      /* cap_rows: rod lengths (when rods is set) */
    uint32_t *ends;   /* 2 cap_rows: rod particles (when rods is set) */
    uint32_t *ready;  /* cap_rows + 1: the last row that moves a particle of this row
                       * (rods), then a sentinel */
    double *aval;     /* cap_nnz: the values of A that k->ldlt holds the factor of */
    double *dx;       /* cap_len: displacement accumulator; all zero between projections
                       * unless dv_valid: then RATTLE's last velocity correction
                       * W G(x1)^T nu, made with the step dv_h */
    double *xs;       /* cap_len: positions x + dx of the particles an evaluator reads */
    double *xcopy;    /* cap_len: positions of the factorization held (pure) */
    double *wcopy;    /* cap_particles: inverse masses of the factorization held */

    /* The topology (k->serial) the fields below were built for. rods: every
     * row is a distance constraint (chains, cloth, polymers), row r's
     * particles are ends[2r], ends[2r + 1] and its Jacobian blocks 2r, 2r+1;
     * the projection then runs on these compact arrays. pure: no user or
     * implicit constraint, so G(x) is a function of the positions alone. */
    uint64_t serial;
    bool built;
    bool rods;
    bool pure;

    /* The factorization cache: k->ldlt holds the factorization of A made
     * from the values aval (pure: at the positions xcopy with the inverse
     * masses wcopy, k->jac holding G(xcopy)) when valid is set,
     * k->stats.solves equals stamp (no multiplier solve has refactored
     * since), k->serial equals factor_serial (same topology) and
     * k->ldlt.factored. */
    bool valid;
    uint64_t stamp, factor_serial;
    bool dv_valid;
    double dv_h;

    cdyn__chain chain; /* the rod-chain kernel's plan and per-row state */
} cdyn__projection;

/* Creates sys->proj with the default options on first use; @p what names
 * the public call in the message of a failed allocation. */
cdyn_status cdyn__projection_ensure(cdyn_system *sys, const char *what);
void cdyn__projection_destroy(cdyn_system *sys);

/* Checks that the system can be projected (no particle on a shape, no
 * compliant row), creates the projection state and sizes it for the current
 * topology (prepared). @p who names the caller in messages. */
cdyn_status cdyn__projection_begin(cdyn_system *sys, const char *who);

/* Projects the positions @p x (index count * dim values, in place) onto
 * g(x, t) = 0 along W G(x_ref, t_ref)^T; @p x_ref may be @p x itself (then
 * G is taken before anything moves). With @p v not NULL, also adds
 * W G(x_ref)^T mu * inv_h to it (RATTLE's half-step velocity). Fails with
 * CDYN_ERR_NOT_CONVERGED (the message names the worst constraint),
 * CDYN_ERR_DIVERGED (non-finite), CDYN_ERR_CALLBACK; @p x is then partly
 * projected (the caller's candidate state, never committed). */
cdyn_status cdyn__projection_positions(cdyn_system *sys, double t_ref, const double *x_ref,
                                       double t, double *x, double *v, double inv_h);

/* Projects the velocities @p v (in place) onto G(x, t) v + dg/dt = 0.
 * @p same_x: the previous call was at this very @p x and t, so its
 * Jacobian and factorization still hold. With @p lambda_scale > 0, k->lambda receives
 * lambda_scale * nu (RATTLE: 2 / h, the multipliers of the closing half
 * kick, read by cdyn_constraint_get_multipliers). Statuses as
 * cdyn__projection_positions. */
cdyn_status cdyn__projection_velocities(cdyn_system *sys, double t, const double *x, double *v,
                                        bool same_x, double lambda_scale);

/* Plans the rod-chain kernel for the current topology (sets chain; may
 * allocate its segments: CDYN_ERR_NO_MEMORY). */
cdyn_status cdyn__projection_chain_plan(cdyn_system *sys);

/* RATTLE's step for rod chains with the Newton method (the caller checks
 * that no force depends on velocity): *usable when it applies, which needs
 * static rods and no kinematic particle (replans when particles were added
 * or a shared fixed particle was freed, which may allocate). */
cdyn_status cdyn__projection_chain_usable(cdyn_system *sys, bool *usable);

/* Positions of a RATTLE step on a chain from (@p x0, @p v0) with the
 * accelerations @p a0: @p xn and @p vn receive x1 and the half-step
 * velocity, x1 = x_p + W G(x0)^T mu with x_p = x0 + h v_p,
 * v_p = v0 + h/2 a0, by exact Newton on g(x1) = 0 (every particle: those
 * in no row get x_p, v_p). The half-step velocities of the particles
 * inside paths swept from both ends stay with the kernel, which the
 * velocity projection reads them from: a caller that reads or changes
 * @p vn before it calls cdyn__projection_chain_store_vh first. Statuses
 * as cdyn__projection_positions. */
cdyn_status cdyn__projection_chain_positions(cdyn_system *sys, const double *x0,
                                             const double *v0, const double *a0, double *xn,
                                             double *vn, double h);

/* Completes @p vn, the half-step velocities of the last
 * cdyn__projection_chain_positions (a pass over the particles the kernel
 * kept them for; nothing when none). */
void cdyn__projection_chain_store_vh(cdyn_system *sys, double *vn);

/* Velocities of a RATTLE step on a chain: the closing kick
 * vn += h/2 @p a1 (every particle) and the projection onto G(x1) v = 0,
 * with the factorization made by cdyn__projection_chain_positions; sets
 * the multipliers (2 nu / h), and k->blocks_unstored for G(x1). *finite: on success,
 * every coordinate of @p xn and @p vn was found finite on the way. */
cdyn_status cdyn__projection_chain_velocities(cdyn_system *sys, const double *xn, double *vn,
                                              const double *a1, double h, bool *finite);

/* When the next position projection would reuse the factorization held
 * (k->ldlt), the values of the matrix it factors: with built-in
 * constraints (pure) k->a.val, held at the committed positions with
 * k->jac = G there and, when dv_valid, the warm start in dx; with
 * callbacks aval, reused when the matrix assembled then has these values.
 * NULL otherwise. For snapshots (projection_hold.c). */
const double *cdyn__projection_held(const cdyn_system *sys);

/* In a system made from a snapshot, with the topology laid out (and k->jac
 * as saved when pure): factors the matrix of @p values (k->a.nnz) and
 * holds it as cdyn__projection_held found it, with the velocity
 * correction @p dv (NULL: none; pure only) made with the step @p dv_h.
 * CDYN_ERR_INVALID_ARGUMENT when that cannot be (a non-finite factor, a
 * correction without a pure topology); the statuses of
 * cdyn__projection_begin. */
cdyn_status cdyn__projection_hold(cdyn_system *sys, const double *values, const double *dv,
                                  double dv_h);

/* Whether the post-step projection is enabled and the system has
 * constraint rows to project onto. */
bool cdyn__projection_enabled(const cdyn_system *sys);

/* The post-step projection of the integrators that do not project
 * themselves (the step driver asks cdyn__projection_enabled first):
 * projects sys->x_new and sys->v_new onto the manifold of time @p t1. */
cdyn_status cdyn__projection_after_step(cdyn_system *sys, double t1);

#endif /* CDYN__PROJECTION_H */
