/* Implicit constraints: storage, topology, and the multiplier solve.
 * Internal. The public side is include/cdyn/constraint.h. */
#ifndef CDYN__CONSTRAINT_H
#define CDYN__CONSTRAINT_H

#include <stdbool.h>
#include <stdint.h>

#include "cdyn/constraint.h"
#include "handle.h"
#include "solver/cg.h"
#include "solver/ldlt.h"
#include "solver/symmat.h"

#define CDYN__CONSTRAINT_MAX_ROWS 64
#define CDYN__CONSTRAINT_MAX_PARTICLES 64

typedef struct cdyn__constraint {
    uint8_t kind;     /* cdyn_constraint_kind */
    uint8_t enabled;
    uint32_t n_particles;
    uint32_t n_rows;
    uint32_t particle[2]; /* slots of built-in kinds */
    uint32_t *particles;  /* slots of a user constraint (owned, n_particles) */
    double p[4];          /* distance: L; anchor: b, L; pin: point; plane: n, c */
    double compliance;
    cdyn_constraint_fn fn;
    cdyn_implicit_fn ifn;
    void *user;
    /* set by the topology pass */
    uint32_t row; /* first row */
    uint32_t blk; /* first Jacobian block: block (r, j) is blk + r * n_particles + j */
} cdyn__constraint;

/* One term of A = G W G^T: A.val[pos] += w(particle) * J[bi] . J[bj]. */
typedef struct cdyn__aterm {
    uint32_t pos, bi, bj, particle;
} cdyn__aterm;

typedef struct cdyn__constraints {
    cdyn__slots slots;
    cdyn__constraint *c;

    /* settings */
    double ks, kd;
    cdyn_constraint_solver solver;
    double cg_tol;
    uint32_t cg_max_iter;

    /* topology, rebuilt when dirty: rows of the enabled constraints */
    bool dirty;
    uint32_t n_active, cap_active;
    uint32_t *active;      /* slots of enabled constraints, ascending */
    uint32_t n_rows, cap_rows;
    uint32_t *row_owner;   /* row -> constraint slot */
    uint32_t n_blocks, cap_blocks;
    uint32_t *blk_particle; /* block -> particle slot */
    double *jac;           /* n_blocks * dim */
    size_t n_terms, cap_terms;
    cdyn__aterm *terms;
    cdyn__symmat a;
    cdyn__ldlt ldlt;
    cdyn__cg cg;
    double *g, *gdot, *bias, *rhs, *lambda, *diag; /* per row */
    double *res_g, *res_bias, *res_jac; /* residual queries, apart from the solve's */
    double *gather;        /* 2 * MAX_PARTICLES * 3: user callback x and v */
    bool has_compliance;
    bool evaluated;        /* lambda holds a solve of the current topology */

    /* report */
    cdyn_solver_stats stats;
} cdyn__constraints;

/* Creates the constraint store on first use. */
cdyn_status cdyn__constraints_ensure(cdyn_system *sys);
void cdyn__constraints_destroy(cdyn_system *sys);

/* Frees the arrays of the topology pass (rows, blocks, A, factorization). */
void cdyn__constraints_free_topology(cdyn_system *sys);

/* Removes every constraint that touches particle slot @p slot. */
void cdyn__constraints_detach_particle(cdyn_system *sys, uint32_t slot);

/* Marks the topology for rebuilding (a fixed flag changed, ...). */
void cdyn__constraints_touch(cdyn_system *sys);

/* Rebuilds rows, blocks, the pattern of A and its analysis if dirty. May
 * allocate; on failure nothing the solve uses has changed. */
cdyn_status cdyn__constraints_prepare(cdyn_system *sys);

/* Solves for the multipliers at state (x, v) with applied forces f and adds
 * the constraint forces into f. prepare must have succeeded. */
cdyn_status cdyn__constraints_apply(cdyn_system *sys, const double *x, const double *v, double *f);

/* g, J and G'v of constraint @p c at (x, v) into the row arrays g, bias
 * and the Jacobian blocks. */
cdyn_status cdyn__constraint_eval(cdyn_system *sys, cdyn__constraint *c, const double *x,
                                  const double *v, double *g, double *jac, double *bias);

/* Slot of particle j of constraint c. */
uint32_t cdyn__constraint_particle(const cdyn__constraint *c, uint32_t j);

/* Resolves a constraint handle, recording the message on failure. */
cdyn_status cdyn__constraint_slot(const cdyn_system *sys, cdyn_constraint h, uint32_t *slot);

#endif /* CDYN__CONSTRAINT_H */
