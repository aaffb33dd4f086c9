/* Force generators: the store, and the operations every kind provides.
 * Internal; the public side is include/cdyn/force.h (pair potentials:
 * include/cdyn/pair.h).
 *
 * A generator carries a pointer to the operations of its kind (one
 * cdyn__force_ops per kind, defined in the kind's own file: gravity.c,
 * drag.c, spring.c, callback.c; pair potentials in pair/pair_force.c). The
 * store never names a kind: adding one is its file with its ops and add
 * function, its value in cdyn_force_kind, and a line in the list of kinds
 * that tests/test_force_kind.c walks. */
#ifndef CDYN__FORCE_H
#define CDYN__FORCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cdyn/force.h"

typedef struct cdyn__force cdyn__force;

/* Receives Jacobian blocks: for particle slots i, j the dim x dim blocks
 * (row-major, entry [r * dim + c]) dF_i[r]/dx_j[c] and dF_i[r]/dv_j[c] to
 * be added; either may be NULL (zero). The same (i, j) may come several
 * times; the receiver sums. */
typedef void (*cdyn__jacobian_add_fn)(void *ctx, uint32_t i, uint32_t j, const double *block_dx,
                                      const double *block_dv);

typedef struct cdyn__force_ops {
    cdyn_force_kind kind;
    /* Adds the generator's force at the state (t, x, v) into f (per
     * particle slot, dim values each). CDYN_ERR_CALLBACK (message set) when
     * a user function fails. Allocates nothing. */
    cdyn_status (*apply)(const cdyn_system *sys, const cdyn__force *g, uint32_t slot, double t,
                         const double *x, const double *v, double *f);
    /* When the generator is the only force on the system (no grounds, no
     * particle on a shape): may write the accelerations a = W F of every
     * index itself, saving the force accumulator's passes, and set *done;
     * or decline, writing nothing. The values must be those of the general
     * path (a = W (0 + F)) bit for bit. NULL: never. */
    cdyn_status (*apply_accel)(const cdyn_system *sys, const cdyn__force *g, double t,
                               const double *x, const double *v, double *a, bool *done);
    /* Potential energy at positions x into *out (0 for dissipative and user
     * forces); fails only when a callback potential does (message set). */
    cdyn_status (*energy)(const cdyn_system *sys, const cdyn__force *g, const double *x,
                          double *out);
    /* The Jacobian of the force at (x, v) through @p add. With
     * @p definite, terms that make an implicit integrator's matrix
     * indefinite under compression are left out. NULL: the kind has no
     * Jacobian of its own (user callbacks: the integrator asks the user's
     * Jacobian or differentiates apply). */
    void (*jacobian)(const cdyn_system *sys, const cdyn__force *g, const double *x,
                     const double *v, bool definite, cdyn__jacobian_add_fn add, void *ctx);
    /* Before a step or an evaluation, outside it (may allocate): whatever
     * the generator needs ready (a pair set's neighbour-list room and
     * exclusions). NULL: nothing. CDYN_ERR_NO_MEMORY and the like, message
     * set. */
    cdyn_status (*prepare)(cdyn_system *sys, cdyn__force *g);
    /* Whether the pairs of slots the Jacobian couples change with the state
     * (pair sets find their contacts anew): implicit integrators then probe
     * them at every step instead of once. */
    bool dynamic_pattern;
    /* Calls @p pair for every pair of slots whose forces always depend on
     * each other's state (a spring's ends, a pair list's pairs). NULL:
     * none. */
    void (*coupled_pairs)(const cdyn__force *g, void (*pair)(void *ctx, uint32_t i, uint32_t j),
                          void *ctx);
    /* Forgets particle slot @p slot (being removed): returns true when the
     * generator must go with it (a spring on it). NULL: it names no
     * particle. */
    bool (*detach)(const cdyn_system *sys, cdyn__force *g, uint32_t slot);
    /* Frees what the generator owns. NULL: nothing. */
    void (*release)(const cdyn_system *sys, cdyn__force *g);
    /* apply for the host's threads (core/tasks.h), for pair forces of
     * which a system may hold thousands (springs): for each of the @p count
     * entries (slot << 2 | own) whose slot lies in [first, end), adds to the
     * generator's first end (own & 2) and to its second (own & 1) what
     * apply adds to them, with apply's arithmetic, in entry order, and
     * writes nothing else, so that lists may be applied on any threads at
     * once to ends no other thread writes; ends names the two particle
     * slots. Both NULL: the kind is applied whole; both set: apply_run is
     * too (for runs too small to split). */
    void (*apply_listed)(const cdyn_system *sys, const uint32_t *entry, uint32_t count,
                         uint32_t first, uint32_t end, double t, const double *x,
                         const double *v, double *f);
    void (*ends)(const cdyn__force *g, uint32_t ends[2]);
    /* apply for a run of generators on the calling thread: every live
     * generator from slot @p first (live, of this kind) on, up to the first
     * live one of another kind, whose slot goes to *next; each with apply's
     * arithmetic, in slot order. Fails as apply does. NULL: apply one by
     * one. */
    cdyn_status (*apply_run)(const cdyn_system *sys, uint32_t first, double t, const double *x,
                             const double *v, double *f, uint32_t *next);
} cdyn__force_ops;

struct cdyn__force {
    const cdyn__force_ops *ops;
    uint8_t velocity_dependent;
    uint8_t user_fn; /* made with a user function (callback forces, callback pair
                      * potentials): it carries a tag */
    uint64_t tag;    /* what a snapshot holds in place of the user's functions */
    union { /* the kind's parameters */
        struct {
            uint32_t a, b; /* spring: particle slots */
            double p[3];   /* gravity: g; spring: S, D, R0; drag: b */
        };
        struct {
            cdyn_force_fn fn;
            cdyn_force_jacobian_fn jac; /* user Jacobian, or NULL */
            void *user;
        };
        struct cdyn__pair *pair; /* pair potentials: owned */
    };
};

/* The kinds of this folder (pair potentials: pair/pair.h), for the tests
 * that check every kind is complete. */
extern const cdyn__force_ops cdyn__gravity_ops, cdyn__drag_ops, cdyn__spring_ops,
    cdyn__callback_ops;

/* Adds the force of every live generator at state (x, v), then the applied
 * forces (force/applied.h), into f (zeroed by the caller). Returns
 * CDYN_ERR_CALLBACK (message set) if a callback fails. */
cdyn_status cdyn__forces_apply(const cdyn_system *sys, double t, const double *x,
                               const double *v, double *f);

/* Runs every live generator's prepare op (before a step or evaluation),
 * and sizes the scratch of split evaluations when the system has a
 * parallel task system (force/force_split.c). */
cdyn_status cdyn__forces_prepare(cdyn_system *sys);

/* Applies the run of generators that starts at live slot @p first: the
 * slots from there on whose generators are dead or of the same kind, up to
 * *next. For a kind that splits (ops apply_listed and ends), with a
 * parallel task system, generators enough and the block lists of
 * cdyn__forces_split_reserve current, the generators are applied on the
 * host's threads in blocks of particles, each block to its own particles
 * in slot order; else by the kind's apply_run. Either way
 * apply's bits. Fails as apply does. */
cdyn_status cdyn__forces_apply_run(const cdyn_system *sys, uint32_t first, double t,
                                   const double *x, const double *v, double *f, uint32_t *next);

/* With a parallel task system and enough generators that split:
 * (re)builds, when the system changed since, each block of particles'
 * list of them in slot order (force_split.c). Nothing is allocated while
 * the system keeps its shape. CDYN_ERR_NO_MEMORY (message set): nothing
 * else changed, the lists are rebuilt at the next call. */
cdyn_status cdyn__forces_split_reserve(cdyn_system *sys);
/* Frees the block lists (system destruction). */
void cdyn__forces_split_free(cdyn_system *sys);

/* Potential energy of one generator at state x into *out; CDYN_ERR_CALLBACK
 * or CDYN_ERR_NO_MEMORY from a pair set's callback potential or exclusion
 * lists. */
cdyn_status cdyn__force_energy(const cdyn_system *sys, const cdyn__force *g, const double *x,
                               double *out);

/* The kind of a generator. */
static inline cdyn_force_kind cdyn__force_kind(const cdyn__force *g)
{
    return g->ops->kind;
}

/* Stores generator @p g in a new slot (the pool grows before anything is
 * taken, so CDYN_ERR_NO_MEMORY changes nothing) and hands out its handle. */
cdyn_status cdyn__force_insert(cdyn_system *sys, const cdyn__force *g, cdyn_force *out,
                               const char *what);

/* Resolves a force handle into its slot, recording the message on failure. */
cdyn_status cdyn__force_slot(const cdyn_system *sys, cdyn_force f, const char *what,
                             uint32_t *slot);

/* The first checks of an add: system present and not in a step, out given. */
cdyn_status cdyn__force_add_prologue(cdyn_system *sys, const void *out, const char *what);

/* Forgets particle slot @p slot in every generator, removing those that
 * must go with it. */
void cdyn__forces_detach_particle(cdyn_system *sys, uint32_t slot);

/* Frees every generator and the store (system destruction). */
void cdyn__forces_destroy(cdyn_system *sys);

/* Spring internals used by the tests and the tension query (spring.c). */
double cdyn__spring_tension(const cdyn_system *sys, const cdyn__force *s, const double *x,
                            const double *v);

/* Spring Jacobian at state (x, v): writes K = dF_a/dx_b and C = dF_a/dv_b
 * (dim x dim row-major, entry [r * dim + c]). The other blocks follow from
 * F_b = -F_a and d = x_b - x_a: dF_a/dx_a = dF_b/dx_b = -K, dF_b/dx_a = K,
 * and likewise for C. With n = d / l, w = v_b - v_a, T the tension:
 *     K = n (S n + D g)^T + (T / l) (I - n n^T),  g = (I - n n^T) w / l,
 *     C = D n n^T.
 * K is not symmetric when D w has a component across the spring. With
 * @p definite, a negative T / l (a compressed spring's transverse
 * stiffness, which can make the Newton matrix indefinite) is replaced by 0.
 * In a periodic box d is the minimum image. Returns 0 (blocks zero) when
 * the ends coincide, 1 otherwise. */
int cdyn__spring_jacobian(const cdyn_system *sys, const cdyn__force *s, const double *x,
                          const double *v, int definite, double *k, double *c);

#endif /* CDYN__FORCE_H */
