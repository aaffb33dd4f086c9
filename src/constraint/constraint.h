/* Implicit constraints: storage, topology, and the multiplier solve.
 * Internal. The public side is include/cdyn/constraint.h. */
#ifndef CDYN__CONSTRAINT_H
#define CDYN__CONSTRAINT_H

#include <stdbool.h>
#include <stdint.h>

#include "cdyn/constraint.h"
#include "constraint/kind.h"
#include "core/handle.h"
#include "solver/cg.h"
#include "solver/ldlt.h"
#include "solver/symmat.h"

#define CDYN__CONSTRAINT_MAX_ROWS 64
#define CDYN__CONSTRAINT_MAX_PARTICLES 64

typedef struct cdyn__constraint {
    uint8_t kind;    /* cdyn_constraint_kind */
    uint8_t enabled;
    uint8_t driven;  /* depends on time (constraint/drive.h): takes the general path */
    uint16_t n_particles;
    uint16_t n_rows;
    union {
        uint32_t particle[2]; /* slots of built-in kinds */
        uint32_t *particles;  /* slots of a user constraint (owned, n_particles > 2) */
    } u;
    double compliance;
    struct cdyn__drive *drive; /* time dependence (constraint/drive.h); NULL: none */
    union {
        double p[4]; /* distance: L; anchor: b, L; pin: point; plane: n, c */
        struct {     /* user and implicit kinds */
            union {
                cdyn_constraint_fn user;
                cdyn_implicit_fn implicit;
            } fn;
            void *user;
            uint64_t tag; /* what a snapshot holds in place of fn, user */
        } cb;
        struct cdyn__param *param; /* curve and surface kinds: owned */
    } d;
    /* set by the topology pass */
    uint32_t row; /* first row */
    uint32_t blk; /* first Jacobian block: block (r, j) is blk + r * n_particles + j */
} cdyn__constraint;

/* An off-diagonal term of A = G W G^T, for two blocks on one particle:
 * A.val[pos] += w(particle of bi) * J[bi] . J[bj]. Diagonal entries are
 * formed row by row. */
typedef struct cdyn__aterm {
    uint32_t pos, bi, bj;
} cdyn__aterm;

typedef struct cdyn__constraints {
    cdyn__slots slots;
    cdyn__constraint *c;

    /* settings (cdyn_system_set_solver_options) */
    cdyn_solver_options opt;

    /* topology, rebuilt when dirty: rows of the enabled constraints */
    bool dirty;
    uint32_t n_active;
    uint32_t *active;      /* slots of enabled constraints, ascending */
    uint32_t n_rows;
    uint32_t n_blocks;
    uint32_t *blk_particle; /* block -> particle slot */
    double *jac;           /* n_blocks * dim */
    size_t n_terms;
    size_t n_first;        /* terms[0 .. n_first - 1]: the first term of each entry */
    cdyn__aterm *terms;    /* (see plan() in constraint_topology.c) */
    bool all_rods;         /* every enabled row is a distance constraint's */
    bool terms_inline;     /* all_rods, one term per entry, terms by ascending bj:
                            * formed in the row pass as soon as both blocks are */
    bool tridiagonal;      /* terms_inline and each term couples row r - 1 to row r:
                            * A is tridiagonal in row order (constraint_chain.c) */
    double *ll;            /* all_rods: L^2 of row r's rod (the row pass then
                            * leaves the constraints unread) */
    cdyn__symmat a;
    cdyn__ldlt ldlt;
    cdyn__cg cg;
    double *g;             /* per row, for evaluators; NULL when all_rods */
    double *rhs, *lambda;  /* per row */
    double *diag;          /* per row; allocated once any_compliance is set */
    size_t scratch_len;
    double *scratch;       /* one constraint's g, G'v and blocks, for residuals and callbacks */
    double *gather;        /* 2 * MAX_PARTICLES * 3: user callback x and v */
    double *gt;            /* per row: dg/dt of the last general row pass (n_driven > 0) */
    uint32_t n_driven;     /* enabled constraints that depend on time */
    double *tbuf;          /* time differences of user callbacks (constraint/drive.h) */
    size_t tbuf_len;
    bool has_compliance; /* some row of the current solve is compliant */
    bool any_compliance; /* some constraint was ever given a compliance */
    bool evaluated;        /* lambda holds a solve of the current topology */
    /* With evaluated: lambda was solved without storing the Jacobian
     * blocks. Every row is then a rod, whose blocks are -+(x_b - x_a) at
     * the committed positions: they are formed when asked for, and written
     * out by cdyn__constraints_materialize_jac before anything moves the
     * positions. A solve that stores the blocks clears it. */
    bool blocks_unstored;
    uint64_t serial;       /* bumped at every topology rebuild (caches key on it) */
    /* The segments of the cut chain solve (constraint_chain_split.c),
     * sized on its first use. */
    struct cdyn__rows_seg *segs;
    uint32_t segs_cap;

    /* report */
    cdyn_solver_stats stats;
} cdyn__constraints;

/* Creates the constraint store on first use; @p what names the public call
 * in the message of a failed allocation. */
cdyn_status cdyn__constraints_ensure(cdyn_system *sys, const char *what);
void cdyn__constraints_destroy(cdyn_system *sys);

/* Frees the arrays of the topology pass (rows, blocks, A, factorization). */
void cdyn__constraints_free_topology(cdyn_system *sys);

/* Removes every constraint that touches particle slot @p slot. */
void cdyn__constraints_detach_particle(cdyn_system *sys, uint32_t slot);

/* Marks the topology for rebuilding (a fixed flag changed, ...). */
void cdyn__constraints_touch(cdyn_system *sys);

/* Rebuilds rows, blocks and the pattern of A if dirty. May allocate; on
 * failure nothing the solve uses has changed. */
cdyn_status cdyn__constraints_prepare(cdyn_system *sys);

/* The direct solver's analysis of A (k->ldlt: its ordering, the pattern of
 * L, the solves' scratch), made at its first use after each rebuild: the
 * rod-chain kernels of RATTLE never need it. CDYN_ERR_NO_MEMORY (message
 * naming @p who): k->ldlt is as it was, and the next use tries again. */
cdyn_status cdyn__constraints_analysis(cdyn_system *sys, const char *who);

/* Solves for the multipliers at time t and the Cartesian state (x, v),
 * given in @p a the accelerations every particle would have without the
 * implicit constraints (prescribed ones for kinematic particles), and adds
 * the constraint accelerations W G^T lambda into @p a. prepare must have
 * succeeded. */
cdyn_status cdyn__constraints_apply(cdyn_system *sys, double t, const double *x, const double *v,
                                    double *a);

/* The multiplier solve and W G^T lambda added to @p acc for a tridiagonal
 * topology (k->tridiagonal, direct solver, no particle on a shape) in two
 * sweeps. Returns false, leaving lambda, the rows and @p acc to be redone,
 * when a pivot fails the redundancy test or is not finite: the general path
 * then handles the step. Allocates nothing. */
bool cdyn__constraints_chain_apply(cdyn_system *sys, const double *x, const double *v,
                                   double *acc);

/* cdyn__constraints_chain_apply on one thread with the chain eliminated
 * from both of its ends at once, a row of each end in the two lanes of a
 * vector register. Returns false as that function does, and also for
 * chains too short, compliant rows, or a compiler without vector
 * extensions: the one-ended sweeps then handle the step.
 * Allocates nothing. */
bool cdyn__constraints_chain_twisted(cdyn_system *sys, const double *x, const double *v,
                                     double *acc);

/* The segments the cut chain solve makes of @p n_rows rows (fewer than 2:
 * it does not cut). The count depends on the rows alone. */
uint32_t cdyn__constraints_chain_segments(uint32_t n_rows);

/* cdyn__constraints_chain_apply with the rows cut into segments whose
 * sweeps are the items of the host's parallel loops (any number of
 * workers, the same bits). Returns false as that function does, and also
 * when the rows are too few to cut, a row is compliant or the scratch was
 * not reserved: the uncut sweeps or the general path then handle the
 * step. Allocates nothing. */
bool cdyn__constraints_chain_split(cdyn_system *sys, const double *x, const double *v,
                                   double *acc);

/* Sizes the cut chain solve's scratch for the current rows when a task
 * system would cut them (prepare calls it). Returns CDYN_ERR_NO_MEMORY, the
 * scratch as it was, when it cannot. */
cdyn_status cdyn__constraints_chain_split_reserve(cdyn_system *sys);

/* Frees the cut chain solve's scratch. */
void cdyn__constraints_chain_split_free(cdyn_system *sys);


/* Frees what @p c owns for its time dependence (constraint/drive.h). */
void cdyn__drive_free(cdyn_system *sys, cdyn__constraint *c);

/* The power of the constraint forces on the drivers' side at time t and
 * (x, v) for the multipliers @p lambda (per row of the current topology):
 * -sum_r lambda_r (dg_r/dt + sum_j G_rj . v_j) over the rows of
 * constraints that depend on time or touch kinematic particles, j running
 * over their kinematic particles (dynamics/drive.h). Evaluates those
 * constraints again (callbacks included). */
cdyn_status cdyn__constraints_drive_power(cdyn_system *sys, double t, const double *x,
                                          const double *v, const double *lambda, double *out);

/* Writes the Jacobian blocks that blocks_unstored leaves out, from the
 * committed positions, and clears it: called before anything moves them. */
void cdyn__constraints_materialize_jac(cdyn_system *sys);

/* Slot of particle j of constraint c. */
static inline uint32_t cdyn__constraint_particle(const cdyn__constraint *c, uint32_t j)
{
    return c->n_particles > 2 ? c->u.particles[j] : c->u.particle[j];
}

/* The row of @p c's kind in the table of kinds. */
static inline const cdyn__constraint_kind *cdyn__kind_of(const cdyn__constraint *c)
{
    return cdyn__constraint_kind_of(c->kind);
}

/* How the solve and the projections treat @p c's rows: its kind's fused
 * kernel, or the evaluator when it depends on time. */
static inline cdyn__row_path cdyn__constraint_path(const cdyn__constraint *c)
{
    return c->driven ? CDYN__ROWS_GENERIC : cdyn__kind_of(c)->path;
}

/* G is a function of the positions alone: built-in and not driven. */
static inline bool cdyn__constraint_pure(const cdyn__constraint *c)
{
    return !c->driven && cdyn__kind_of(c)->pure;
}

/* The constraint slot that owns @p row of the current topology. */
uint32_t cdyn__constraints_row_owner(const cdyn__constraints *k, uint32_t row);

/* Validates the particle handles of a new constraint into slots: live and
 * distinct. */
cdyn_status cdyn__constraint_resolve_particles(cdyn_system *sys, const cdyn_particle *ps, size_t n,
                                               uint32_t *slots, const char *what);

/* Stores a new constraint built from @p proto (with its particle slots) and
 * hands out its handle; *slot_out (may be NULL) receives its slot. */
cdyn_status cdyn__constraint_insert(cdyn_system *sys, const cdyn__constraint *proto,
                                    const uint32_t *slots, cdyn_constraint *out,
                                    const char *what, uint32_t *slot_out);

/* Curves and surfaces: held in generalized coordinates, no rows in the
 * solve (a fact of the kind's row, constraint/kind.h). */
int cdyn__constraint_is_shape(const cdyn__constraint *c);

/* g, J, the velocity terms of g'' and dg/dt of constraint @p c at time t
 * and (x, v) into the row arrays g, bias, gt and the Jacobian blocks, by
 * its kind's evaluator. @p gt may be NULL (not wanted); it is zero for
 * constraints that do not depend on time. */
cdyn_status cdyn__constraint_eval(cdyn_system *sys, const cdyn__constraint *c, double t,
                                  const double *x, const double *v, double *g, double *jac,
                                  double *bias, double *gt);

/* Resolves a constraint handle, recording the message on failure. */
cdyn_status cdyn__constraint_slot(const cdyn_system *sys, cdyn_constraint h, const char *what,
                                  uint32_t *slot);

#endif /* CDYN__CONSTRAINT_H */
