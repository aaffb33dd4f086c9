/* Pair potentials as force generators: the operations of pair lists (fixed
 * pairs) and pair sets (all pairs within the cutoff, from a neighbour
 * list). */
#include <math.h>

#include "core/system.h"
#include "force/force.h"
#include "pair/pair.h"

static cdyn_status apply(const cdyn_system *sys, const cdyn__force *g, uint32_t slot, double t,
                         const double *x, const double *v, double *f)
{
    (void)slot;
    return cdyn__pair_apply(sys, g->pair, t, x, v, f);
}

static cdyn_status energy(const cdyn_system *sys, const cdyn__force *g, const double *x,
                          double *out)
{
    return cdyn__pair_energy(sys, g->pair, x, out);
}

/* A failing callback potential leaves blocks out; the force evaluation at
 * the same state fails the step. */
static void jacobian(const cdyn_system *sys, const cdyn__force *g, const double *x,
                     const double *v, bool definite, cdyn__jacobian_add_fn add, void *ctx)
{
    (void)definite;
    (void)cdyn__pair_add_jacobian(sys, g->pair, x, v, add, ctx);
}

static cdyn_status apply_accel(const cdyn_system *sys, const cdyn__force *g, double t,
                               const double *x, const double *v, double *a, bool *done)
{
    (void)v;
    return cdyn__pair_apply_accel(sys, g->pair, t, x, a, done);
}

static cdyn_status prepare(cdyn_system *sys, cdyn__force *g)
{
    return cdyn__pair_prepare(sys, g->pair);
}

/* A list's pairs couple for good: pair p is (slot[2p], slot[2p + 1]). */
static void list_pairs(const cdyn__force *g, void (*pair)(void *ctx, uint32_t i, uint32_t j),
                       void *ctx)
{
    const cdyn__pair *p = g->pair;
    for (uint32_t e = 0; e + 1 < p->n; e += 2)
        pair(ctx, p->slot[e], p->slot[e + 1]);
}

/* A removed particle leaves the generator, which stays. */
static bool detach(const cdyn_system *sys, cdyn__force *g, uint32_t slot)
{
    cdyn__pair_detach_particle(sys, g->pair, slot);
    return false;
}

static void release(const cdyn_system *sys, cdyn__force *g)
{
    cdyn__pair_free(sys, g->pair);
    g->pair = NULL;
}

const cdyn__force_ops cdyn__pair_ops = {.kind = CDYN_FORCE_PAIR,
                                        .apply = apply,
                                        .energy = energy,
                                        .jacobian = jacobian,
                                        .prepare = prepare,
                                        .coupled_pairs = list_pairs,
                                        .detach = detach,
                                        .release = release};

const cdyn__force_ops cdyn__pair_set_ops = {.kind = CDYN_FORCE_PAIR,
                                            .apply = apply,
                                            .apply_accel = apply_accel,
                                            .energy = energy,
                                            .jacobian = jacobian,
                                            .prepare = prepare,
                                            .dynamic_pattern = true,
                                            .detach = detach,
                                            .release = release};
