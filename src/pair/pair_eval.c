/* Pair potentials: forces, energies, contacts and the Jacobian, for pair
 * lists (a loop over the pairs) and pair sets (the cell list). */
#include <math.h>

#include "pair/pair.h"
#include "core/system.h"

typedef enum pair_task { TASK_FORCE, TASK_ENERGY, TASK_JACOBIAN, TASK_CONTACTS } pair_task;

typedef struct pair_ctx {
    const cdyn_system *sys;
    const cdyn__pair *p;
    pair_task task;
    int dim;
    const double *x, *v;
    double *f;                 /* TASK_FORCE */
    double energy;             /* TASK_ENERGY */
    cdyn__jacobian_add_fn add; /* TASK_JACOBIAN */
    void *add_ctx;
    cdyn_particle *out;        /* TASK_CONTACTS */
    size_t capacity, count;
} pair_ctx;

/* The conservative repulsion F(r) (> 0 pushes apart) of a pair in contact
 * (0 < r < rc), and dF/dr into *dphi when dphi is not NULL. */
static double repulsion(const cdyn__pair *p, double r, double rc, double *dphi)
{
    if (p->kind == CDYN_PAIR_HERTZ) {
        double delta = rc - r, s = sqrt(delta);
        if (dphi)
            *dphi = -1.5 * p->k * s;
        return p->k * delta * s;
    }
    if (p->epsilon == 0) { /* no WCA force at all; avoids 0 * inf at tiny r */
        if (dphi)
            *dphi = 0;
        return 0;
    }
    /* WCA: with s6 = (sigma / r)^6, F = (24 eps / r) s6 (2 s6 - 1) and
     * dF/dr = (24 eps / r^2) s6 (7 - 26 s6), written so that an overflow of
     * s6 gives +-inf, never NaN. */
    double ir = 1.0 / r, s2 = p->sigma * p->sigma * ir * ir, s6 = s2 * s2 * s2;
    double c = 24.0 * p->epsilon * ir;
    if (dphi)
        *dphi = c * ir * s6 * (7.0 - 26.0 * s6);
    return c * s6 * (2.0 * s6 - 1.0);
}

/* Potential energy of a pair at distance r < rc. */
static double pair_energy(const cdyn__pair *p, double r, double rc)
{
    if (p->kind == CDYN_PAIR_HERTZ) {
        double delta = rc - r;
        return 0.4 * p->k * delta * delta * sqrt(delta);
    }
    if (p->epsilon == 0)
        return 0;
    if (!(r > 0))
        return HUGE_VAL;
    double s2 = p->sigma * p->sigma / (r * r), s6 = s2 * s2 * s2;
    return 4.0 * p->epsilon * s6 * (s6 - 1.0) + p->epsilon;
}

static void pair_force(pair_ctx *c, uint32_t a, uint32_t b, const double *d, double r2,
                       double rc)
{
    const cdyn__pair *p = c->p;
    const size_t dim = (size_t)c->dim;
    double r = sqrt(r2);
    if (!(r > 0))
        return; /* coincident centres: no direction */
    double phi = repulsion(p, r, rc, NULL);
    if (p->alpha > 0) {
        const double *va = c->v + a * dim, *vb = c->v + b * dim;
        double rdot = 0;
        for (size_t k = 0; k < dim; k++)
            rdot += d[k] * (vb[k] - va[k]);
        rdot /= r;
        phi *= 1.0 - 1.5 * p->alpha * rdot;
        if (!(phi > 0))
            return; /* separating fast: the contact does not pull */
    }
    double s = phi / r;
    double *fa = c->f + a * dim, *fb = c->f + b * dim;
    for (size_t k = 0; k < dim; k++) {
        double fk = s * d[k];
        fb[k] += fk;
        fa[k] -= fk;
    }
}

/* Blocks of F_b = phi(r, r') n with n = d / r, r' = n.(v_b - v_a):
 *   K = dF_b/dx_b = n (phi_r n + phi_r' g)^T + (phi / r) (I - n n^T),
 *       g = dr'/dx_b = (w - (n.w) n) / r, w = v_b - v_a,
 *   C = dF_b/dv_b = phi_r' n n^T,
 * and dF_b/dx_a = dF_a/dx_b = -K, dF_a/dx_a = K (likewise C). */
static void pair_jacobian(pair_ctx *c, uint32_t a, uint32_t b, const double *d, double r2,
                          double rc)
{
    const cdyn__pair *p = c->p;
    const int dim = c->dim;
    const size_t ud = (size_t)dim;
    double r = sqrt(r2);
    if (!(r > 0))
        return;
    double n[3] = {0, 0, 0}, w[3] = {0, 0, 0}, g[3] = {0, 0, 0};
    for (int k = 0; k < dim; k++)
        n[k] = d[k] / r;
    double dphi_c, phi_c = repulsion(p, r, rc, &dphi_c);
    double phi = phi_c, phi_r = dphi_c, phi_rdot = 0;
    if (p->alpha > 0) {
        const double *va = c->v + a * ud, *vb = c->v + b * ud;
        double rdot = 0;
        for (int k = 0; k < dim; k++) {
            w[k] = vb[k] - va[k];
            rdot += n[k] * w[k];
        }
        double factor = 1.0 - 1.5 * p->alpha * rdot;
        phi = phi_c * factor;
        if (!(phi > 0))
            return; /* clamped: the force and its derivatives are 0 */
        phi_r = dphi_c * factor;
        phi_rdot = -1.5 * p->alpha * phi_c;
        for (int k = 0; k < dim; k++)
            g[k] = (w[k] - rdot * n[k]) / r;
    }
    double K[9], Kn[9], C[9], Cn[9];
    for (int i = 0; i < dim; i++)
        for (int j = 0; j < dim; j++) {
            double nn = n[i] * n[j];
            double kij = n[i] * (phi_r * n[j] + phi_rdot * g[j]) + phi / r * ((i == j) - nn);
            K[i * dim + j] = kij;
            Kn[i * dim + j] = -kij;
            C[i * dim + j] = phi_rdot * nn;
            Cn[i * dim + j] = -phi_rdot * nn;
        }
    const double *cp = p->alpha > 0 ? C : NULL, *cn = p->alpha > 0 ? Cn : NULL;
    c->add(c->add_ctx, a, a, K, cp);
    c->add(c->add_ctx, a, b, Kn, cn);
    c->add(c->add_ctx, b, a, Kn, cn);
    c->add(c->add_ctx, b, b, K, cp);
}

/* One pair within its cutoff: d = x_b - x_a, r2 = |d|^2 < rc^2. */
static void on_pair(pair_ctx *c, uint32_t a, uint32_t b, const double *d, double r2, double rc)
{
    switch (c->task) {
    case TASK_FORCE:
        pair_force(c, a, b, d, r2, rc);
        break;
    case TASK_ENERGY:
        c->energy += pair_energy(c->p, sqrt(r2), rc);
        break;
    case TASK_JACOBIAN:
        pair_jacobian(c, a, b, d, r2, rc);
        break;
    case TASK_CONTACTS:
        if (c->count < c->capacity) {
            const cdyn_system *sys = c->sys;
            c->out[2 * c->count] = cdyn__handle_make(CDYN__KIND_PARTICLE, sys->salt,
                                                     sys->particles.generation[a], a);
            c->out[2 * c->count + 1] = cdyn__handle_make(CDYN__KIND_PARTICLE, sys->salt,
                                                         sys->particles.generation[b], b);
        }
        c->count++;
        break;
    }
}

static void visit_sorted(void *vctx, uint32_t p, uint32_t q, const double *d, double r2,
                         double rc)
{
    pair_ctx *c = vctx;
    const cdyn__pair *pr = c->p;
    const uint32_t *order = pr->cells.order;
    on_pair(c, pr->slot[order[p]], pr->slot[order[q]], d, r2, rc);
}

/* Calls on_pair for every pair within its cutoff at c->x. */
static void for_each_pair(pair_ctx *c, cdyn__pair *p)
{
    const size_t dim = (size_t)c->dim;
    if (p->is_set) {
        cdyn__cell_list_build(&p->cells, p->n, p->slot, c->x, p->rad, p->rc);
        cdyn__cell_list_for_pairs(&p->cells, visit_sorted, c);
        return;
    }
    for (uint32_t e = 0; e + 1 < p->n; e += 2) {
        uint32_t a = p->slot[e], b = p->slot[e + 1];
        const double *xa = c->x + a * dim, *xb = c->x + b * dim;
        double d[3] = {0, 0, 0}, r2 = 0;
        for (size_t k = 0; k < dim; k++) {
            d[k] = xb[k] - xa[k];
            r2 += d[k] * d[k];
        }
        double rc = p->rad ? p->rad[e] + p->rad[e + 1] : p->rc;
        if (r2 < rc * rc)
            on_pair(c, a, b, d, r2, rc);
    }
}

void cdyn__pair_apply(const cdyn_system *sys, cdyn__pair *p, const double *x, const double *v,
                      double *f)
{
    pair_ctx c = {.sys = sys, .p = p, .task = TASK_FORCE, .dim = sys->dim, .x = x, .v = v,
                  .f = f};
    for_each_pair(&c, p);
}

double cdyn__pair_energy(const cdyn_system *sys, cdyn__pair *p, const double *x)
{
    pair_ctx c = {.sys = sys, .p = p, .task = TASK_ENERGY, .dim = sys->dim, .x = x};
    for_each_pair(&c, p);
    return c.energy;
}

void cdyn__pair_add_jacobian(const cdyn_system *sys, cdyn__pair *p, const double *x,
                             const double *v, cdyn__jacobian_add_fn add_block, void *ctx)
{
    pair_ctx c = {.sys = sys, .p = p, .task = TASK_JACOBIAN, .dim = sys->dim, .x = x, .v = v,
                  .add = add_block, .add_ctx = ctx};
    for_each_pair(&c, p);
}

size_t cdyn__pair_contacts(const cdyn_system *sys, cdyn__pair *p, const double *x,
                           cdyn_particle *out, size_t capacity)
{
    pair_ctx c = {.sys = sys, .p = p, .task = TASK_CONTACTS, .dim = sys->dim, .x = x,
                  .out = out, .capacity = capacity};
    for_each_pair(&c, p);
    return c.count;
}
