/* Backward Euler by Newton's method: storage, sparsity pattern,
 * Jacobian assembly and the step. Internal; the public side is
 * CDYN_INTEGRATOR_BACKWARD_EULER and cdyn_system_*_newton_* in
 * include/cdyn/system.h, cdyn_force_add_callback_with_jacobian in force.h;
 * the equations are in docs/backward_euler.md.
 *
 * Unknowns: the velocities v of every particle slot (dim each) and one
 * scaled multiplier nu per implicit constraint row; x = x0 + h v. Residual
 *     R_v = M (v - v0) - h F(x, v, t + h) + G(x)^T nu      (movable slots)
 *     R_c = g(x) / h - (alpha / h^2) nu                     (constraint rows)
 * (nu = -h lambda). Newton matrix, symmetric part assembled:
 *     K = [ J  G^T ]   J = M - h dF/dv - h^2 dF/dx + h sum_r nu_r Hess g_r
 *         [ G  -C  ]   C = diag(alpha / h^2)
 * Slots that do not move (fixed, removed, rigid-body members: inv_mass 0)
 * keep identity rows and v = v0: they move kinematically, x = x0 + h v0.
 *
 * Layout of K: row s * dim + q is component q of slot s's velocity, row
 * nv + r constraint row r (nv = np * dim). The pattern holds every slot's
 * diagonal block, the blocks of springs and pair lists whatever their ends'
 * fixed flags (so fixing a particle changes no pattern), the blocks of
 * pair-set contacts and user Jacobians seen when the pattern was built, and
 * each constraint row's entries. Values are looked up by binary search in a
 * column (never trusted from a cache), so a stale pattern can only miss a
 * block, which is then left out and counted (stats.dropped_blocks); the
 * step's prepare pass probes the pattern and rebuilds it when something is
 * missing or the slot or row count changed.
 */
#ifndef CDYN__IMPLICIT_BACKWARD_EULER_H
#define CDYN__IMPLICIT_BACKWARD_EULER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cdyn/force.h"
#include "cdyn/system.h"
#include "solver/ldlt_signed.h"
#include "solver/symmat.h"

#define CDYN__NEWTON_DEFAULT_TOLERANCE 1e-10
#define CDYN__NEWTON_DEFAULT_MAX_ITERATIONS 20
#define CDYN__NEWTON_MIN_TOLERANCE 1e-15
#define CDYN__NEWTON_MAX_TOLERANCE 1e-1
#define CDYN__NEWTON_MAX_ITERATIONS 1000
/* Krylov vectors of GMRES(m), the correction for K's skew part. */
#define CDYN__GMRES_M 8

/* Everything that depends on the pattern (slot count, row count, coupled
 * pairs): built aside and swapped in whole. */
typedef struct cdyn__be_layout {
    uint32_t np;   /* particle slots covered: particles.count at the build */
    uint32_t nv;   /* np * dim velocity rows */
    uint32_t nc;   /* constraint rows */
    uint32_t n;    /* nv + nc */
    uint32_t nblk; /* constraint Jacobian blocks */
    cdyn__symmat a;        /* lower triangle of K: symmetric part (values) */
    double *skew;          /* a.nnz: skew part, K(i, j) = a + skew, K(j, i) = a - skew */
    cdyn__ldlt_signed fac; /* factorization of K (+ shift) */
    int8_t *sign;          /* n: expected pivot signs (+1 velocity, -1 constraint) */
    size_t n_doubles;      /* length of block */
    double *block;         /* every vector below */
    double *v, *vt;        /* velocities: iterate, trial (nv) */
    double *x, *xt;        /* positions x0 + h v (nv) */
    double *frc;           /* forces (nv) */
    double *fd_z, *fd_f0, *fd_f1; /* finite differences of callbacks (nv) */
    double *fd_base;       /* sum of the differenced callbacks' forces at the iterate (nv) */
    double *fd_diag;       /* their diagonal blocks in K (np * dim * dim); NULL when the
                              system had no callback without a Jacobian at the build */
    size_t fd_len;         /* length of fd_diag */
    uint32_t n_fd;         /* callbacks differenced at the last assembly */
    double *nu, *nut;      /* scaled multipliers (nc) */
    double *gv, *gvt;      /* constraint values g (nc) */
    double *res, *rest;    /* residuals (n) */
    double *dz, *rr, *tmp; /* Newton correction, refinement residual and step (n) */
    double *diag_add;      /* shift tau M on the velocity rows (n) */
    double *wgt;           /* weights of the residual norm (n) */
    double *jac, *jact;    /* constraint Jacobian blocks (nblk * dim) */
    double *krylov[CDYN__GMRES_M + 1]; /* GMRES basis (n each) */
} cdyn__be_layout;

/* Backward Euler's state (step/integrator.h): its options, counters and
 * Newton system. */
typedef struct cdyn__be {
    cdyn_newton_options opt; /* cdyn_system_set_newton_options */
    cdyn__be_layout lay;
    double *gdx, *gdv;     /* ground Jacobian blocks, np * dim * dim each */
    size_t g_len;          /* their length */
    double *hist;          /* scaled residual per Newton iterate of the last step */
    size_t hist_cap, hist_len;
    uint32_t *dyn;         /* slot pairs of dynamic blocks, collected for a build */
    size_t ndyn, dyn_cap;  /* pairs held, pairs of room */
    cdyn_newton_stats stats;
} cdyn__be;

/* The accumulator behind the public cdyn_jacobian (force.h). */
enum { CDYN__ACC_ASSEMBLE = 0, CDYN__ACC_PROBE = 1, CDYN__ACC_COLLECT = 2 };
struct cdyn_jacobian {
    cdyn_system *sys;
    cdyn__be *be;
    int mode;
    uint32_t np;     /* indices accepted: [0, np) */
    double cx, cv;   /* assemble: J_ij += cx dF_i/dx_j + cv dF_i/dv_j */
    bool bad;        /* an add_block call was refused */
    bool missing;    /* probe: a block outside the pattern */
    bool oom;        /* collect: out of memory */
    uint64_t dropped; /* assemble: blocks outside the pattern */
};

/* The state in the system's integrator block: set up (cannot fail), freed
 * (what it owns), found. */
void cdyn__be_init(void *state);
void cdyn__be_free(cdyn_system *sys, void *state);
cdyn__be *cdyn__be_of(const cdyn_system *sys);

/* jacobian.c */
/* true when slot i moves in the Newton iteration. */
bool cdyn__be_movable(const cdyn_system *sys, uint32_t i);
/* Position of entry (i, j), i >= j, of the pattern, or UINT32_MAX. */
uint32_t cdyn__be_find(const cdyn__symmat *a, uint32_t i, uint32_t j);
/* Assembles K at (x, v, nu), with the constraint blocks @p jac evaluated
 * at x, into lay.a (symmetric part) and lay.skew. With @p definite, the
 * terms that make J indefinite under compression are left out: negative
 * transverse stiffness of springs, Hessian terms of rods pushing. */
cdyn_status cdyn__be_assemble(cdyn_system *sys, double h, double t1, const double *x,
                              const double *v, const double *nu, const double *jac,
                              bool definite);
/* y = (K + diag(diag_add)) z with the assembled values (both triangles). */
void cdyn__be_multiply(const cdyn__be_layout *lay, const double *z, double *y);
/* y = (K_true + diag(diag_add)) z: as cdyn__be_multiply, with the
 * finite-difference diagonal blocks of callbacks without a Jacobian
 * replaced by their directional derivative (one call of each such
 * callback). CDYN_ERR_CALLBACK when one fails. */
cdyn_status cdyn__be_apply(cdyn_system *sys, double h, double t1, const double *z, double *y);
/* true when some live callback force has no Jacobian of its own. */
bool cdyn__be_has_fd(const cdyn_system *sys);
/* Runs the dynamic sources of blocks (pair sets at x and at xp, user
 * Jacobians at x) through accumulator @p acc. */
cdyn_status cdyn__be_dynamic_blocks(cdyn_system *sys, struct cdyn_jacobian *acc, double t,
                                    const double *x, const double *xp, const double *v);

/* pattern.c */
/* Makes the Newton system's pattern match the system at the committed
 * state (probing it, rebuilding it when needed), sizes the ground arrays
 * and the residual history. May allocate; on failure nothing the step
 * relies on changed. */
cdyn_status cdyn__be_prepare(cdyn_system *sys, double h);

/* The blocks of the pattern held, for a snapshot: @p slots(ctx, i, j) for
 * each pair of slots i > j coupled, @p rows(ctx, r, s) for each
 * constraint row r coupled to slot s. Nothing without a layout. */
void cdyn__be_pattern_blocks(const cdyn_system *sys, void (*slots)(void *, uint32_t, uint32_t),
                             void (*rows)(void *, uint32_t, uint32_t), void *ctx);

/* Holds again the layout of a pattern listed that way (@p n_slot_pairs
 * pairs (i, j), @p n_row_entries entries (r, s)) for @p np slots, @p nc
 * rows and @p nblk Jacobian blocks, with the finite-difference blocks when
 * @p fd; a build counts no analysis. CDYN_ERR_INVALID_ARGUMENT for entries
 * out of range (nothing changed); CDYN_ERR_NO_MEMORY; the statuses of the
 * analysis. */
cdyn_status cdyn__be_restore_pattern(cdyn_system *sys, uint32_t np, uint32_t nc, uint32_t nblk,
                                     bool fd, const uint32_t *slot_pairs, size_t n_slot_pairs,
                                     const uint32_t *row_entries, size_t n_row_entries);

#endif /* CDYN__IMPLICIT_BACKWARD_EULER_H */
