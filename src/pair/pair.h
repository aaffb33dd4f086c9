/* Pair-potential force generators: storage, evaluation, Jacobian. Internal.
 * The public side is include/cdyn/pair.h. */
#ifndef CDYN__PAIR_H
#define CDYN__PAIR_H

#include <stdint.h>

#include "cdyn/pair.h"
#include "force/force.h"
#include "pair/cell_list.h"

/* One generator. A pair list holds n = 2 n_pairs endpoints, pair p being
 * (slot[2p], slot[2p+1]); a pair set holds n members. */
typedef struct cdyn__pair {
    uint8_t kind;    /* cdyn_pair_kind */
    uint8_t is_set;  /* all pairs within the cutoff among the members */
    double k;        /* Hertz stiffness */
    double epsilon;  /* WCA */
    double sigma;
    double rc;       /* WCA cutoff 2^(1/6) sigma */
    double alpha;    /* Hunt-Crossley damping (s/m) */
    uint32_t n, cap; /* endpoints or members in use / allocated */
    uint32_t *slot;  /* particle slot of each endpoint or member */
    double *rad;     /* Hertz radius of each endpoint or member; NULL for WCA */
    uint64_t *by_slot; /* slot << 32 | index, ascending: lookup by particle */
    cdyn__cell_list cells; /* pair sets only */
} cdyn__pair;

/* The force operations of pair lists and of pair sets (pair_force.c). */
extern const cdyn__force_ops cdyn__pair_ops, cdyn__pair_set_ops;

/* Adds the forces of @p p at state (x, v) into f. Allocates nothing. */
void cdyn__pair_apply(const cdyn_system *sys, cdyn__pair *p, const double *x, const double *v,
                      double *f);

/* Potential energy of @p p at state x (the conservative part). */
double cdyn__pair_energy(const cdyn_system *sys, cdyn__pair *p, const double *x);

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
 * clamped at 0 the blocks are 0 (and are skipped). Allocates nothing. */
void cdyn__pair_add_jacobian(const cdyn_system *sys, cdyn__pair *p, const double *x,
                             const double *v, cdyn__jacobian_add_fn add_block, void *ctx);

/* Pairs within the cutoff at x, in the order of the force summation: writes
 * the first @p capacity of them into out as two particle handles each and
 * returns their number. Allocates nothing. */
size_t cdyn__pair_contacts(const cdyn_system *sys, cdyn__pair *p, const double *x,
                           cdyn_particle *out, size_t capacity);

#endif /* CDYN__PAIR_H */
