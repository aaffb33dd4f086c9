/* Pair-potential force generators: storage, evaluation, Jacobian. Internal.
 * The public side is include/cdyn/pair.h. */
#ifndef CDYN__PAIR_H
#define CDYN__PAIR_H

#include <stdbool.h>
#include <stdint.h>

#include "cdyn/pair.h"
#include "force/force.h"
#include "pair/cell_list.h"
#include "pair/exclusion.h"
#include "pair/neighbor.h"

/* One generator. A pair list holds n = 2 n_pairs endpoints, pair p being
 * (slot[2p], slot[2p+1]); a pair set holds n members. */
typedef struct cdyn__pair {
    uint8_t kind;    /* cdyn_pair_kind */
    uint8_t is_set;  /* all pairs within the cutoff among the members */
    uint8_t lj_fast; /* WCA or LJ without damping: the list's own kernel (pair_fast.c) */
    double k;        /* Hertz stiffness */
    double epsilon;  /* WCA, LJ */
    double sigma;
    double rc;       /* cutoff of every kind but Hertz (whose cutoff is R_i + R_j) */
    double u_shift;  /* LJ kinds: the energy added inside the cutoff (WCA: epsilon) */
    double alpha;    /* Hunt-Crossley damping (s/m) */
    double *table;   /* TABLE: 2 table_n values (U_k, F_k), owned */
    uint32_t table_n;
    double table_r0, table_h, table_inv_h;
    cdyn_pair_fn fn; /* CALLBACK */
    void *user;
    uint32_t n, cap; /* endpoints or members in use / allocated */
    uint32_t *slot;  /* particle slot of each endpoint or member */
    double *rad;     /* Hertz radius of each endpoint or member; NULL for other kinds */
    uint64_t *by_slot; /* slot << 32 | index, ascending: lookup by particle */
    cdyn__cell_list cells;   /* pair sets only: the search behind builds and direct sweeps */
    cdyn__nlist list;        /* pair sets only: the neighbour list */
    cdyn__exclusions excl;   /* pair sets only */
    uint64_t evaluations, direct;
} cdyn__pair;

/* The force operations of pair lists and of pair sets (pair_force.c). */
extern const cdyn__force_ops cdyn__pair_ops, cdyn__pair_set_ops;

/* The largest cutoff of any pair of @p p (Hertz: twice the largest radius). */
double cdyn__pair_max_cutoff(const cdyn__pair *p);

/* The scalar law of a pair at distance r (0 < r < rc; rc the pair's
 * cutoff): F(r) (> 0 pushes apart) into *force, and when not NULL U(r)
 * into *energy and dF/dr into *dforce. @p a, @p b: the particle slots
 * (callbacks receive their indices), @p t the time. CDYN_ERR_CALLBACK
 * (message set) when a callback fails. */
cdyn_status cdyn__pair_law(const cdyn_system *sys, const cdyn__pair *p, double t, uint32_t a,
                           uint32_t b, double r, double rc, double *force, double *energy,
                           double *dforce);

/* Adds the forces of @p p at state (t, x, v) into f. Allocates nothing.
 * CDYN_ERR_CALLBACK from a failing callback potential. */
cdyn_status cdyn__pair_apply(const cdyn_system *sys, cdyn__pair *p, double t, const double *x,
                             const double *v, double *f);

/* Potential energy of @p p at state x (the conservative part) into *out. */
cdyn_status cdyn__pair_energy(const cdyn_system *sys, cdyn__pair *p, const double *x,
                              double *out);

/* The virial sum over pairs of d . F_b (J: the separation from a to b dot
 * the force on b, minimum images in a periodic box) at state (x, v), for
 * the pressure. */
cdyn_status cdyn__pair_virial(const cdyn_system *sys, cdyn__pair *p, const double *x,
                              const double *v, double *out);

/* Rebuilds @p p's lookup by particle (by_slot) from its slots. */
void cdyn__pair_index(cdyn__pair *p);

/* Frees @p p and everything it owns; NULL is a no-op. */
void cdyn__pair_free(const cdyn_system *sys, cdyn__pair *p);

/* Forgets particle slot @p slot: a set drops the member, a list every pair
 * that contains it. Allocates nothing. */
void cdyn__pair_detach_particle(const cdyn_system *sys, cdyn__pair *p, uint32_t slot);

/* Adds the Jacobian of the forces of @p p at state (x, v): for every pair
 * (a, b) in contact, the blocks (a, a), (a, b), (b, a), (b, b), in the
 * deterministic order of the force summation. Where the damped force is
 * clamped at 0 the blocks are 0 (and are skipped). Allocates nothing.
 * CDYN_ERR_CALLBACK from a failing callback potential. */
cdyn_status cdyn__pair_add_jacobian(const cdyn_system *sys, cdyn__pair *p, const double *x,
                                    const double *v, cdyn__jacobian_add_fn add_block,
                                    void *ctx);

/* Pairs within the cutoff at x, in the order of the force summation: writes
 * the first @p capacity of them into out as two particle handles each and
 * their number into *count. */
cdyn_status cdyn__pair_contacts(const cdyn_system *sys, cdyn__pair *p, const double *x,
                                cdyn_particle *out, size_t capacity, size_t *count);

/* Before a step or evaluation (may allocate): the box check, bonded
 * exclusions brought up to date, the neighbour list's room. */
cdyn_status cdyn__pair_prepare(cdyn_system *sys, cdyn__pair *p);

/* Resolves @p f to its pair generator, recording the message (naming
 * @p what) on failure. */
cdyn_status cdyn__pair_of(const cdyn_system *sys, cdyn_force f, const char *what,
                          cdyn__pair **out);

/* Sorts @p n distinct keys ascending, in place. */
void cdyn__pair_sort_keys(uint64_t *a, size_t n);

/* The member index of particle slot @p slot, or UINT32_MAX. */
uint32_t cdyn__pair_member_of(const cdyn__pair *p, uint32_t slot);

/* The neighbour-list force kernel of WCA and undamped LJ sets (pair_fast.c):
 * adds the forces at positions nl->pos (gathered) into f. */
void cdyn__pair_fast_lj(const cdyn_system *sys, cdyn__pair *p, double *f);

/* As cdyn__pair_fast_lj for a set that covers every particle index, alone
 * on the system: writes the accelerations a = W F (pair_fast.c). */
void cdyn__pair_fast_lj_accel(const cdyn_system *sys, cdyn__pair *p, double *a);

/* The force operation apply_accel of pair sets (force/force.h): the fast
 * kernel writing accelerations when the set covers every index. */
cdyn_status cdyn__pair_apply_accel(const cdyn_system *sys, cdyn__pair *p, double t,
                                   const double *x, double *a, bool *done);

#endif /* CDYN__PAIR_H */
