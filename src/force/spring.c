/* The spring with a dashpot: with d = x_b - x_a, l = |d|, the tension
 * T = S (l - R0) + D (d . (v_b - v_a)) / l pulls the ends together,
 * F_a = T d / l = -F_b. */
#include <math.h>

#include "core/box.h"
#include "core/compiler.h"
#include "core/system.h"
#include "force/force.h"

/* d = x_b - x_a (its minimum image in a periodic box) and its length;
 * returns the length. @p dim is a constant where it is inlined. */
static CDYN__ALWAYS_INLINE double separation_d(const cdyn_system *sys, const cdyn__force *s,
                                              const double *x, double d[3], const int dim)
{
    const double *xa = x + (size_t)s->a * (size_t)dim, *xb = x + (size_t)s->b * (size_t)dim;
    for (int k = 0; k < dim; k++)
        d[k] = xb[k] - xa[k];
    if (sys->box && sys->box->any_periodic)
        cdyn__box_min_image(sys->box, dim, d);
    double l2 = 0;
    for (int k = 0; k < dim; k++)
        l2 += d[k] * d[k];
    return sqrt(l2);
}

static double separation(const cdyn_system *sys, const cdyn__force *s, const double *x,
                         double d[3])
{
    return sys->dim == 2 ? separation_d(sys, s, x, d, 2) : separation_d(sys, s, x, d, 3);
}

static CDYN__ALWAYS_INLINE double tension(const cdyn__force *s, int dim, const double *v,
                                          const double d[3], double l)
{
    const double *va = v + (size_t)s->a * (size_t)dim, *vb = v + (size_t)s->b * (size_t)dim;
    double rate = 0; /* d/dt |x_b - x_a| times l */
    for (int k = 0; k < dim; k++)
        rate += d[k] * (vb[k] - va[k]);
    return s->p[0] * (l - s->p[2]) + s->p[1] * rate / l;
}

/* Adds F_a to the first end (@p own & 2) and F_b to the second (& 1); the
 * loops over coordinates unrolled for @p dim (a constant). */
static CDYN__ALWAYS_INLINE void add_force_d(const cdyn_system *sys, const cdyn__force *s,
                                            const double *x, const double *v, double *f,
                                            unsigned own, const int dim)
{
    double d[3];
    double l = separation_d(sys, s, x, d, dim);
    if (!(l > 0))
        return; /* coincident ends: no direction, no force */
    double t_over_l = tension(s, dim, v, d, l) / l;
    double *fa = f + (size_t)s->a * (size_t)dim, *fb = f + (size_t)s->b * (size_t)dim;
    for (int k = 0; k < dim; k++) {
        double fk = t_over_l * d[k];
        if (own & 2u)
            fa[k] += fk;
        if (own & 1u)
            fb[k] -= fk;
    }
}

static void add_force(const cdyn_system *sys, const cdyn__force *s, const double *x,
                      const double *v, double *f, unsigned own)
{
    if (sys->dim == 2)
        add_force_d(sys, s, x, v, f, own, 2);
    else
        add_force_d(sys, s, x, v, f, own, 3);
}

static cdyn_status apply(const cdyn_system *sys, const cdyn__force *s, uint32_t slot, double t,
                         const double *x, const double *v, double *f)
{
    (void)slot, (void)t;
    add_force(sys, s, x, v, f, 3u);
    return CDYN_OK;
}

/* A block's list (force.h apply_listed) with @p dim a constant. */
static CDYN__ALWAYS_INLINE void listed_d(const cdyn_system *sys, const uint32_t *entry,
                                         uint32_t count, uint32_t first, uint32_t end,
                                         const double *x, const double *v, double *f,
                                         const int dim)
{
    for (uint32_t e = 0; e < count; e++) {
        const uint32_t s = entry[e] >> 2;
        if (s >= first && s < end)
            add_force_d(sys, &sys->force[s], x, v, f, entry[e] & 3u, dim);
    }
}

static void apply_listed(const cdyn_system *sys, const uint32_t *entry, uint32_t count,
                         uint32_t first, uint32_t end, double t, const double *x,
                         const double *v, double *f)
{
    (void)t;
    if (sys->dim == 2)
        listed_d(sys, entry, count, first, end, x, v, f, 2);
    else
        listed_d(sys, entry, count, first, end, x, v, f, 3);
}

/* The springs of a run, inline and with @p dim a constant: no call per
 * spring. */
static CDYN__ALWAYS_INLINE uint32_t run_d(const cdyn_system *sys, uint32_t first,
                                         const double *x, const double *v, double *f,
                                         const int dim)
{
    const cdyn__force *g = sys->force;
    const uint8_t *alive = sys->forces.alive;
    uint32_t s = first;
    for (; s < sys->forces.count && (!alive[s] || g[s].ops == &cdyn__spring_ops); s++)
        if (alive[s])
            add_force_d(sys, &g[s], x, v, f, 3u, dim);
    return s;
}

static cdyn_status apply_run(const cdyn_system *sys, uint32_t first, double t, const double *x,
                             const double *v, double *f, uint32_t *next)
{
    (void)t;
    *next = sys->dim == 2 ? run_d(sys, first, x, v, f, 2) : run_d(sys, first, x, v, f, 3);
    return CDYN_OK;
}

static void spring_ends(const cdyn__force *s, uint32_t ends[2])
{
    ends[0] = s->a;
    ends[1] = s->b;
}

double cdyn__spring_tension(const cdyn_system *sys, const cdyn__force *s, const double *x,
                            const double *v)
{
    double d[3];
    double l = separation(sys, s, x, d);
    return l > 0 ? tension(s, sys->dim, v, d, l) : s->p[0] * (0.0 - s->p[2]);
}

static cdyn_status energy(const cdyn_system *sys, const cdyn__force *s, const double *x,
                          double *out)
{
    double d[3];
    double stretch = separation(sys, s, x, d) - s->p[2];
    *out = 0.5 * s->p[0] * stretch * stretch;
    return CDYN_OK;
}

int cdyn__spring_jacobian(const cdyn_system *sys, const cdyn__force *s, const double *x,
                          const double *v, int definite, double *k, double *c)
{
    const int dim = sys->dim;
    double d[3], n[3], g[3];
    double l = separation(sys, s, x, d);
    int dd = dim * dim;
    for (int i = 0; i < dd; i++)
        k[i] = c[i] = 0.0;
    if (!(l > 0))
        return 0;
    const double *va = v + (size_t)s->a * (size_t)dim, *vb = v + (size_t)s->b * (size_t)dim;
    double rate = 0; /* n.w */
    for (int q = 0; q < dim; q++) {
        n[q] = d[q] / l;
        rate += n[q] * (vb[q] - va[q]);
    }
    for (int q = 0; q < dim; q++)
        g[q] = (vb[q] - va[q] - rate * n[q]) / l;
    double stiff = s->p[0], damp = s->p[1];
    double t_over_l = (stiff * (l - s->p[2]) + damp * rate) / l;
    if (definite && t_over_l < 0)
        t_over_l = 0;
    for (int r = 0; r < dim; r++)
        for (int q = 0; q < dim; q++) {
            double nn = n[r] * n[q];
            k[r * dim + q] = stiff * nn + damp * n[r] * g[q] + t_over_l * ((r == q) - nn);
            c[r * dim + q] = damp * nn;
        }
    return 1;
}

/* J_aa = J_bb from -K, -C and J_ab = J_ba from K, C (force.h). */
static void jacobian(const cdyn_system *sys, const cdyn__force *s, const double *x,
                     const double *v, bool definite, cdyn__jacobian_add_fn add, void *ctx)
{
    double kb[9], cb[9], nk[9], nc[9];
    const int dd = sys->dim * sys->dim;
    if (!cdyn__spring_jacobian(sys, s, x, v, definite, kb, cb))
        return;
    for (int q = 0; q < dd; q++) {
        nk[q] = -kb[q];
        nc[q] = -cb[q];
    }
    add(ctx, s->a, s->a, nk, nc);
    add(ctx, s->b, s->b, nk, nc);
    add(ctx, s->a, s->b, kb, cb);
    add(ctx, s->b, s->a, kb, cb);
}

static void coupled_pairs(const cdyn__force *s, void (*pair)(void *ctx, uint32_t i, uint32_t j),
                          void *ctx)
{
    pair(ctx, s->a, s->b);
}

/* A spring goes with either end. */
static bool detach(const cdyn_system *sys, cdyn__force *s, uint32_t slot)
{
    (void)sys;
    return s->a == slot || s->b == slot;
}

const cdyn__force_ops cdyn__spring_ops = {.kind = CDYN_FORCE_SPRING,
                                          .apply = apply,
                                          .energy = energy,
                                          .jacobian = jacobian,
                                          .coupled_pairs = coupled_pairs,
                                          .detach = detach,
                                          .apply_listed = apply_listed,
                                          .ends = spring_ends,
                                          .apply_run = apply_run};

cdyn_status cdyn_force_add_spring(cdyn_system *sys, cdyn_particle a, cdyn_particle b,
                                  double stiffness, double damping, double rest_length,
                                  cdyn_force *out)
{
    cdyn_status st = cdyn__force_add_prologue(sys, out, "force_add_spring");
    if (st)
        return st;
    uint32_t ia, ib;
    if ((st = cdyn__particle_slot(sys, a, "force_add_spring", &ia)) ||
        (st = cdyn__particle_slot(sys, b, "force_add_spring", &ib)))
        return st;
    if (ia == ib)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "force_add_spring: both ends are the same particle");
    if (!isfinite(stiffness) || stiffness < 0 || !isfinite(damping) || damping < 0 ||
        !isfinite(rest_length) || rest_length < 0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "force_add_spring: stiffness %g, damping %g and rest length %g "
                          "must be finite and >= 0", stiffness, damping, rest_length);
    cdyn__force f = {.ops = &cdyn__spring_ops, .velocity_dependent = damping > 0,
                     .a = ia, .b = ib, .p = {stiffness, damping, rest_length}};
    return cdyn__force_insert(sys, &f, out, "force_add_spring");
}

cdyn_status cdyn_force_get_spring_tension(const cdyn_system *sys, cdyn_force f, double *out)
{
    uint32_t i;
    cdyn_status st = cdyn__enter_query(sys, out, "force_get_spring_tension");
    if (st || (st = cdyn__force_slot(sys, f, "force_get_spring_tension", &i)))
        return st;
    if (sys->force[i].ops != &cdyn__spring_ops)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "force_get_spring_tension: force is not a spring");
    *out = cdyn__spring_tension(sys, &sys->force[i], sys->x, sys->v);
    return CDYN_OK;
}
