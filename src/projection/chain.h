/* The rod-chain kernel of RATTLE (docs/rattle.md section 4), partitioned
 * (docs/performance.md): internal.
 *
 * Topologies in which every row is a rod, every particle that moves is in
 * at most two rows and no rows form a loop. Ordered along their paths,
 * consecutive rows share a particle and nothing else couples, so both
 * matrices of a step (the Newton Jacobian J = G(x*) W G0^T and
 * A1 = G(x1) W G(x1)^T) are tridiagonal. Each path is cut into segments of
 * about CDYN__CHAIN_SEGMENT rows, a count that depends on the path's
 * length only. Each segment is eliminated on its own, its coupling to the
 * next segment kept as a column ("spike") and its two ends tied by a
 * transfer relation; the few unknowns at the segment boundaries then solve
 * a small tridiagonal system exactly, and the segments finish on their own
 * again. So a sweep along a path becomes independent sweeps along its
 * segments, which run in parallel on the host's threads, in blocks of
 * CDYN__CHAIN_BLOCK_SEGS segments. The result is the exact solution of the
 * same equations; the partition changes only its rounding, and the
 * partition, not the threads, fixes every bit.
 *
 * Row arrays are in path order: path q holds rows path_start[q] ..
 * path_start[q + 1] - 1; the row at position r joins particle row_from[r]
 * (row_to[r - 1] past a path's first row) to row_to[r]. */
#ifndef CDYN__PROJECTION_CHAIN_H
#define CDYN__PROJECTION_CHAIN_H

#include <float.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cdyn/system.h"
#include "projection/projection_pass.h"

/* Rows per segment the partition aims at. Each segment but a path's last
 * carries the Newton spike and each but its first the A1 spike, some ten
 * per cent more arithmetic on a processor whose sweeps are bound by
 * arithmetic, not by the pivot recurrence (docs/performance.md): so a
 * path of fewer than 1.5 segments is one segment, with neither, and long
 * paths are cut only as fine as threads need. */
#define CDYN__CHAIN_SEGMENT 4096
/* Rows from which, and up to which, a path of one segment is swept from
 * both ends at once (chain_twisted.c). Shorter paths keep the one-ended
 * sweeps' bits; longer ones wait on memory, where the one-ended sweeps'
 * single stream through each array is the faster (docs/performance.md). */
#define CDYN__CHAIN_TWIST_MIN 256u
#define CDYN__CHAIN_TWIST_MAX 262144u
/* Rows at each end of a twisted path whose velocity solve starts from the
 * position projection's multipliers (chain_twisted_velocity.c). */
#define CDYN__CHAIN_WARM_ROWS 32u
/* Segments per block (the items of a parallel loop). */
#define CDYN__CHAIN_BLOCK_SEGS 1
/* The flag of cdyn__chain.row_of. */
#define CDYN__CHAIN_FLIP UINT32_C(0x80000000)

/* A sequential segment's numbering: row r joins particles p_base + p_step r
 * and p_base + p_step (r + 1) and is constraint row q_base + q_step r
 * (p_step, q_step = +-1). */
typedef struct cdyn__chain_numbering {
    int64_t p_base, p_step, q_base, q_step;
} cdyn__chain_numbering;

/* A segment: rows [start, end) of one path, and what its sweeps leave for
 * the boundary systems and take back from them. "delta" are the Newton
 * step's unknowns, "nu" the velocity multipliers; "first"/"last" are the
 * segment's first and last rows. */
typedef struct cdyn__chain_seg {
    uint32_t start, end;
    bool path_first, path_last; /* the segment starts / ends its path */
    /* The segment writes the first row's first particle (it starts a path
     * at a particle that is not a fixed hub) / the last row's second
     * particle (not a fixed hub). Fixed hubs, in several paths, are
     * written once by the driver: each particle has one writer. */
    bool own_first, own_last;
    /* The segment is a whole path of CDYN__CHAIN_TWIST_MIN to
     * CDYN__CHAIN_TWIST_MAX rows, on a compiler with vector extensions
     * (fixed by the plan); this
     * step's sweeps run from both ends (set by the Newton sweep, cleared
     * where a pivot sends the segment back to the one-ended sweeps). */
    bool twistable, twisted;
    size_t pk_base; /* where its records start in chain.pk (twistable) */
    /* A twistable segment whose particles and constraint rows are numbered
     * in steps of one along it (a chain built in order), so that its sweeps
     * compute the indices instead of loading them (set by the plan). */
    bool sequential;
    cdyn__chain_numbering num;
    /* The twisted sweeps' meeting: the multipliers of the lanes' last rows
     * in terms of the middle one (even row count: lane B's last row in
     * terms of lane A's), and the middle row's inverse pivot; for an odd
     * row count, the row between the lanes' delta, change of residual and
     * forward solves. */
    double tw_l[2], tw_pinv, tw_delta, tw_dres, tw_vz[2];
    /* Newton: delta_last = ta + tb delta_first + tc delta_next (delta_next
     * the next segment's first unknown); the boundary solution t (delta at
     * the first row) and bottom (delta at the last row). */
    double ta, tb, tc, t, bottom;
    /* A1: e1 of the first and the last row, the inverse mass of the first
     * row's first particle, the last row's inverse pivot and unit spike,
     * the transfer nu_first = alpha + beta nu_last + gamma o nu_prev, the
     * coupling o = A1(first, first - 1), and the boundary system's
     * elimination (sub, inverse pivot). */
    double e1_first[3], e1_last[3], w_first, pinv_last, f_last, beta, gamma, o;
    double cp_last; /* A1(b + 1, b) / p_b, with the next segment's o */
    /* A boundary system's row: the elimination's multiplier, the inverse
     * pivot, the coupling to the next unknown, the eliminated right-hand
     * sides. */
    double red_c, red_pinv, red_u, red_z[2];
    /* Velocities, two right-hand sides (the solve and the reported
     * multipliers): the transfer's alpha, y at the last row, the boundary
     * solution s (nu at the last row) and top (nu at the first row). */
    double alpha[2], y_last[2], s[2], top[2];
    /* The first row's first particle's velocity before its correction
     * (the previous segment writes that particle's new one meanwhile). */
    double vt_first[3];
} cdyn__chain_seg;

/* What the sweeps of one block found, merged in block order. */
typedef struct cdyn__chain_block {
    cdyn__pass pass;
    double sum; /* the sum of the squared residuals (finite when they all are) */
} cdyn__chain_block;

typedef struct cdyn__chain {
    bool usable;                /* the current topology has the shape above */
    uint32_t planned_particles; /* the particle count the plan was made for */
    bool planned_split;         /* whether it was made for a task system (paths cut) */
    uint32_t n_free, n_hubs, n_paths, n_rows;
    uint32_t *row_from, *row_to;
    uint32_t *row_of;         /* its constraint row, CDYN__CHAIN_FLIP set when row_from is
                               * the row's second particle */
    uint32_t *path_start;     /* n_paths + 1 entries */
    uint32_t *free_particles; /* the particles in no row (n_free) */
    uint32_t *fixed_hubs;     /* fixed particles in several rows (n_hubs): the plan holds
                               * while they stay fixed */
    double *row_length;       /* the rod's length */
    /* Per row: the Newton elimination (c, y and the spike s); the factor
     * A1 = L D L^T within the segment (inverse pivot, L(r, r - 1), and
     * D^-1 L^-1 of the unit spike, f); the velocity solves' forward solve
     * z = L^-1 rhs (two right-hand sides); and the change of the row's
     * residual over the step. The last three take the places of the Newton
     * elimination, which the final sweep is the last to read (it reads row
     * r + 1's spike before it writes row r's dres). */
    double *nc, *ny, *ns;
    double *pinv, *lower, *af;
    double *vz, *vz2, *dres;
    /* The twisted sweeps' records (chain_twisted.c), cap_pk doubles; a
     * twistable path's rods' squared lengths are kept in lane pairs (pair k, rows
     * start + k and end - 1 - k, at start + 2k) in af, which only paths cut
     * into segments use otherwise. */
    double *pk;
    size_t cap_pk;
    /* Set by a final sweep: the twisted segments' inner particles have
     * their v_h in the records, not in vn (cdyn__projection_chain_store_vh). */
    bool vh_in_records;

    /* The partition: segments in path order, in blocks. */
    uint32_t n_segs, n_blocks;
    cdyn__chain_seg *seg;
    cdyn__chain_block *block;
    size_t cap_segs; /* segments (and blocks) the two arrays hold */
} cdyn__chain;

/* Sweep modes, fixed at compile time per instance. */
enum {
    CDYN__SWEEP_WARM = 1,    /* mu from the warm start (k->lambda scaled), else mu = 0 */
    CDYN__SWEEP_REBASED = 2, /* x_p, v_p in xn, vn (else formed from x0, v0, a0) */
    CDYN__SWEEP_BACK = 4,    /* the final sweep takes mu + delta */
    CDYN__SWEEP_TRACK = 8    /* the Newton sweep names its worst rows (else it counts) */
};

/* The modes each sweep is compiled for, one X(mode) each: the drivers
 * (projection_chain.c) call the Newton sweep and the final sweep in these
 * alone, so the one-ended and the twisted sweeps dispatch on one list. */
#define CDYN__NEWTON_MODES(X)                                                                   \
    X(CDYN__SWEEP_WARM)                                                                        \
    X(CDYN__SWEEP_WARM | CDYN__SWEEP_TRACK)                                                    \
    X(CDYN__SWEEP_TRACK)                                                                       \
    X(CDYN__SWEEP_REBASED | CDYN__SWEEP_TRACK)
#define CDYN__FINAL_MODES(X)                                                                    \
    X(CDYN__SWEEP_WARM)                                                                        \
    X(CDYN__SWEEP_WARM | CDYN__SWEEP_BACK)                                                     \
    X(0)                                                                                       \
    X(CDYN__SWEEP_BACK)                                                                        \
    X(CDYN__SWEEP_REBASED)                                                                     \
    X(CDYN__SWEEP_BACK | CDYN__SWEEP_REBASED)

/* The step's start and predictor: x_p = x0 + h v_p, v_p = v0 + h/2 a0,
 * formed where they are needed; after a final sweep that did not converge,
 * the positions and velocities it stored, copied to xb, vb (the next
 * final sweep writes xn, vn while other segments read the base). */
typedef struct cdyn__chain_in {
    const double *x0, *v0, *a0;
    double *xn, *vn;
    const double *xb, *vb;
    double h, h2, inv_h, warm;
} cdyn__chain_in;

/* The segments of block @p b: [*first, *end). */
static inline void cdyn__chain_block_segs(const cdyn__chain *c, uint32_t b, uint32_t *first,
                                          uint32_t *end)
{
    *first = b * CDYN__CHAIN_BLOCK_SEGS;
    *end = *first + CDYN__CHAIN_BLOCK_SEGS < c->n_segs ? *first + CDYN__CHAIN_BLOCK_SEGS
                                                        : c->n_segs;
}

/* A block before its sweep: nothing found yet. */
static inline void cdyn__chain_block_init(cdyn__chain_block *b)
{
    cdyn__pass_init(&b->pass);
    b->sum = 0;
}

/* The sweeps, over blocks [begin, end) (the body of a parallel loop); each
 * writes its block's cdyn__chain_block. @p mode as above. */
void cdyn__chain_newton(cdyn_system *sys, const cdyn__chain_in *in, int mode, uint32_t begin,
                        uint32_t end);
void cdyn__chain_final(cdyn_system *sys, const cdyn__chain_in *in, int mode, uint32_t begin,
                       uint32_t end);
/* The velocity solve's forward sweep: with @p kick (the first solve) at
 * v + h/2 a1 and with the reported multipliers' right-hand side; else the
 * refinement's, at v. */
void cdyn__chain_velocity_forward(cdyn_system *sys, const double *xn, double *vn,
                                  const double *a1, double h2, int kick, uint32_t begin,
                                  uint32_t end);
/* The backward sweep: nu, v += W G1^T nu, the multipliers (lambda = scale
 * nu, added in a refinement) and each row's velocity test. */
void cdyn__chain_velocity_backward(cdyn_system *sys, const double *xn, double *vn,
                                   const double *a1, double h2, double scale, int refine,
                                   uint32_t begin, uint32_t end);

/* What the velocity tests of a sweep found: the largest ratio wn / wd
 * (kept as a fraction: no division per row), the rows above tolerance and
 * the sum of the numerators (finite when they all are). The rows are
 * named, when needed, by the driver's scalar pass. */
typedef struct cdyn__chain_vtest {
    double wn, wd, sum;
    uint32_t n_bad;
} cdyn__chain_vtest;

/* The velocity test of a row from its gv = e1.(vb - va), e1.e1 and the
 * larger squared speed of its particles. A row at rest (or of zero length)
 * has G v = 0 and passes. */
static CDYN__ALWAYS_INLINE void cdyn__chain_vtest_row(cdyn__chain_vtest *t, double gv, double e1e1,
                                                      double s2, double tol2)
{
    const double num = gv * gv, den = cdyn__maxd(e1e1 * s2, DBL_MIN);
    t->n_bad += !(num <= tol2 * den);
    if (num * t->wd > t->wn * den) { /* rarely taken once a few rows are in */
        t->wn = num;
        t->wd = den;
    }
    t->sum += num;
}

/* The sweeps of a whole path from both ends (chain_twisted.c), called by
 * the one-ended sweeps' drivers for segments marked twistable. The Newton
 * sweep and the first forward velocity sweep return false when a pivot
 * fails the redundancy test: nothing is owed then but the one-ended sweep
 * (the Newton sweep leaves p and sum for the caller to restore; the
 * forward sweep has factored A1 one-ended, cdyn__chain_factor_a1). */
bool cdyn__chain_twisted_newton(cdyn_system *sys, const cdyn__chain_in *in, int mode,
                                cdyn__chain_seg *g, cdyn__pass *p, double *sum);
void cdyn__chain_twisted_final(cdyn_system *sys, const cdyn__chain_in *in, int mode,
                               cdyn__chain_seg *g, cdyn__pass *p);
bool cdyn__chain_twisted_forward(cdyn_system *sys, const double *xn, double *vn,
                                 const double *a1, double h2, int kick, cdyn__chain_seg *g);
void cdyn__chain_twisted_backward(cdyn_system *sys, const double *xn, double *vn,
                                  const double *a1, double h2, double scale, int refine,
                                  const cdyn__chain_seg *g, cdyn__chain_vtest *t);
/* vn of twisted segment @p g's inner particles from its records, where the
 * final sweep left their v_h. */
void cdyn__chain_twisted_store_vh(cdyn_system *sys, double *vn, const cdyn__chain_seg *g);
/* A1 = L D L^T of segment @p g (a whole path) from its first row, as the
 * one-ended final sweep factors it. */
void cdyn__chain_factor_a1(cdyn_system *sys, const double *xn, const cdyn__chain_seg *g);

/* The boundary systems (chain_boundary.c), serial, in segment order. */
void cdyn__chain_newton_boundary(cdyn__chain *c);
void cdyn__chain_a1_boundary(cdyn__chain *c, size_t D);
void cdyn__chain_velocity_boundary(cdyn__chain *c, int n_rhs);

/* Makes room for @p n_segs segments (NO_MEMORY: nothing changed). */
cdyn_status cdyn__chain_reserve_segs(cdyn_system *sys, cdyn__chain *c, uint32_t n_segs);

/* Frees the segment arrays and the twisted sweeps' records. */
void cdyn__chain_free_segs(cdyn_system *sys, cdyn__chain *c);

#endif /* CDYN__PROJECTION_CHAIN_H */
