/* Pair potentials: forces, energies, contacts, the virial and the Jacobian,
 * for pair lists (a loop over the pairs) and pair sets (the neighbour list
 * when it covers the state, else the cell list searched directly). */
#include <math.h>
#include <string.h>

#include "core/box.h"
#include "core/system.h"
#include "pair/pair.h"

typedef enum pair_task {
    TASK_FORCE,
    TASK_ENERGY,
    TASK_JACOBIAN,
    TASK_CONTACTS,
    TASK_VIRIAL
} pair_task;

typedef struct pair_ctx {
    const cdyn_system *sys;
    const cdyn__pair *p;
    pair_task task;
    int dim;
    double t;
    const double *x, *v;
    double *f;                 /* TASK_FORCE */
    double sum;                /* TASK_ENERGY, TASK_VIRIAL */
    cdyn__jacobian_add_fn add; /* TASK_JACOBIAN */
    void *add_ctx;
    cdyn_particle *out;        /* TASK_CONTACTS */
    size_t capacity, count;
    cdyn_status status;        /* the first failure of a callback potential */
    const uint32_t *order;     /* sorted position -> member, of the traversal in use */
    const double *srad;        /* the list's radii (sorted), when it is traversed */
} pair_ctx;

/* The pair force along d (from a to b): F (> 0 pushes apart), with
 * Hunt-Crossley damping; returns false when there is none (coincident
 * centres, a clamped damped force, a failed callback). */
static bool pair_scalar(pair_ctx *c, uint32_t a, uint32_t b, const double *d, double r,
                        double rc, double *phi)
{
    const cdyn__pair *p = c->p;
    if (!(r > 0) || c->status)
        return false; /* coincident centres: no direction */
    double f;
    cdyn_status st = cdyn__pair_law(c->sys, p, c->t, a, b, r, rc, &f, NULL, NULL);
    if (st) {
        c->status = st;
        return false;
    }
    if (p->alpha > 0) {
        const size_t dim = (size_t)c->dim;
        const double *va = c->v + a * dim, *vb = c->v + b * dim;
        double rdot = 0;
        for (size_t k = 0; k < dim; k++)
            rdot += d[k] * (vb[k] - va[k]);
        rdot /= r;
        f *= 1.0 - 1.5 * p->alpha * rdot;
        if (!(f > 0))
            return false; /* separating fast: the contact does not pull */
    }
    *phi = f;
    return true;
}

static void pair_force(pair_ctx *c, uint32_t a, uint32_t b, const double *d, double r2,
                       double rc)
{
    const size_t dim = (size_t)c->dim;
    double r = sqrt(r2), phi;
    if (!pair_scalar(c, a, b, d, r, rc, &phi))
        return;
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
    if (!(r > 0) || c->status)
        return;
    double n[3] = {0, 0, 0}, w[3] = {0, 0, 0}, g[3] = {0, 0, 0};
    for (int k = 0; k < dim; k++)
        n[k] = d[k] / r;
    double dphi_c, phi_c;
    cdyn_status st = cdyn__pair_law(c->sys, p, c->t, a, b, r, rc, &phi_c, NULL, &dphi_c);
    if (st) {
        c->status = st;
        return;
    }
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

/* One pair within its cutoff: d = x_b - x_a (minimum image), r2 = |d|^2 < rc^2. */
static void on_pair(pair_ctx *c, uint32_t a, uint32_t b, const double *d, double r2, double rc)
{
    switch (c->task) {
    case TASK_FORCE:
        pair_force(c, a, b, d, r2, rc);
        break;
    case TASK_ENERGY: {
        double r = sqrt(r2), f, u = 0;
        if (c->status)
            break;
        cdyn_status st = cdyn__pair_law(c->sys, c->p, c->t, a, b, r, rc, &f, &u, NULL);
        if (st)
            c->status = st;
        else
            c->sum += u;
        break;
    }
    case TASK_VIRIAL: {
        double r = sqrt(r2), phi;
        if (pair_scalar(c, a, b, d, r, rc, &phi))
            c->sum += phi * r; /* d . F_b = phi d.d / r */
        break;
    }
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

/* A pair of the direct search (sorted positions of the cell list). */
static void visit_cells(void *vctx, uint32_t p, uint32_t q, const double *d, double r2,
                        double rc, int code)
{
    (void)code;
    pair_ctx *c = vctx;
    const cdyn__pair *pr = c->p;
    uint32_t kp = c->order[p], kq = c->order[q];
    if (pr->excl.active && cdyn__excluded(&pr->excl, kp, kq))
        return;
    on_pair(c, pr->slot[kp], pr->slot[kq], d, r2, rc);
}

/* A pair of the neighbour list: its own cutoff decides. */
static void visit_list(void *vctx, uint32_t p, uint32_t q, const double *d, double r2,
                       double rc, int code)
{
    (void)rc, (void)code;
    pair_ctx *c = vctx;
    const cdyn__pair *pr = c->p;
    double cut = c->srad ? c->srad[p] + c->srad[q] : pr->rc;
    if (r2 < cut * cut)
        on_pair(c, pr->list.sslot[p], pr->list.sslot[q], d, r2, cut);
}

static uint64_t box_epoch(const cdyn_system *sys)
{
    return sys->box ? sys->box->epoch : 0;
}

static const cdyn__box *periodic_box(const cdyn_system *sys)
{
    return sys->box && sys->box->any_periodic ? sys->box : NULL;
}

/* The skin a build may use: the one set, less in a periodic box whose
 * half length leaves less room beyond the cutoff. */
static double usable_skin(const cdyn_system *sys, const cdyn__pair *p)
{
    double skin = p->list.skin;
    const cdyn__box *b = periodic_box(sys);
    if (!b || skin <= 0)
        return skin;
    double rc = cdyn__pair_max_cutoff(p);
    for (int k = 0; k < sys->dim; k++)
        if (b->periodic[k]) {
            double room = (b->half[k] - rc) * (1.0 - 1e-9);
            skin = room < skin ? room : skin;
        }
    return skin > 0 ? skin : 0;
}

/* Whether the neighbour list covers state @p x (gathered into list.pos),
 * building it when @p may_build and there is room. */
static bool list_covers(const cdyn_system *sys, cdyn__pair *p, const double *x, bool may_build)
{
    cdyn__nlist *nl = &p->list;
    if (!p->is_set || nl->skin <= 0 || !nl->nbr_cap || !p->excl.valid)
        return false;
    uint64_t epoch = box_epoch(sys);
    if (cdyn__nlist_gather(nl, x, epoch, &sys->tasks))
        return true;
    if (!may_build || nl->grow)
        return false;
    nl->skin_used = usable_skin(sys, p);
    if (!(nl->skin_used > 0))
        return false;
    return cdyn__nlist_build(nl, &p->cells, periodic_box(sys), p->n, p->slot, p->rad, x, p->rc,
                             &p->excl, epoch, &sys->tasks);
}

/* Calls on_pair for every pair within its cutoff at c->x; returns whether
 * a pair set used its neighbour list (false: it searched the cells). */
static bool for_each_pair(pair_ctx *c, cdyn__pair *p, bool may_build)
{
    const cdyn_system *sys = c->sys;
    const size_t dim = (size_t)c->dim;
    const cdyn__box *box = periodic_box(sys);
    if (p->is_set) {
        if (list_covers(sys, p, c->x, may_build)) {
            c->srad = p->rad ? p->list.srad : NULL;
            cdyn__nlist_for_pairs(&p->list, visit_list, c);
            return true;
        }
        if (box) {
            /* positions wrapped into the box, in member order */
            cdyn__nlist_wrap(box, c->dim, p->n, p->slot, c->x, p->list.pos, NULL);
            cdyn__cell_list_build(&p->cells, p->n, NULL, p->list.pos, p->rad, p->rc, 0.0, box,
                                  &c->sys->tasks);
        } else {
            cdyn__cell_list_build(&p->cells, p->n, p->slot, c->x, p->rad, p->rc, 0.0, NULL,
                                  &c->sys->tasks);
        }
        c->order = p->cells.order;
        cdyn__cell_list_for_pairs(&p->cells, visit_cells, c);
        return false;
    }
    for (uint32_t e = 0; e + 1 < p->n; e += 2) {
        uint32_t a = p->slot[e], b = p->slot[e + 1];
        const double *xa = c->x + a * dim, *xb = c->x + b * dim;
        double d[3] = {0, 0, 0}, r2 = 0;
        for (size_t k = 0; k < dim; k++)
            d[k] = xb[k] - xa[k];
        if (box)
            cdyn__box_min_image(box, c->dim, d);
        for (size_t k = 0; k < dim; k++)
            r2 += d[k] * d[k];
        double rc = p->rad ? p->rad[e] + p->rad[e + 1] : p->rc;
        if (r2 < rc * rc)
            on_pair(c, a, b, d, r2, rc);
    }
    return false;
}

cdyn_status cdyn__pair_apply(const cdyn_system *sys, cdyn__pair *p, double t, const double *x,
                             const double *v, double *f)
{
    pair_ctx c = {.sys = sys, .p = p, .task = TASK_FORCE, .dim = sys->dim, .t = t, .x = x,
                  .v = v, .f = f};
    if (p->is_set) {
        p->evaluations++;
        if (p->lj_fast && list_covers(sys, p, x, true)) {
            cdyn__pair_fast_lj(sys, p, f);
            return CDYN_OK;
        }
    }
    if (!for_each_pair(&c, p, true) && p->is_set)
        p->direct++;
    return c.status;
}

cdyn_status cdyn__pair_apply_accel(const cdyn_system *sys, cdyn__pair *p, double t,
                                   const double *x, double *a, bool *done)
{
    (void)t;
    *done = false;
    if (!p->is_set || !p->lj_fast || p->n != sys->particles.count ||
        sys->particles.live != sys->particles.count)
        return CDYN_OK;
    if (!list_covers(sys, p, x, true))
        return CDYN_OK;
    p->evaluations++;
    cdyn__pair_fast_lj_accel(sys, p, a);
    *done = true;
    return CDYN_OK;
}

cdyn_status cdyn__pair_query_ready(const cdyn_system *sys, cdyn__pair *p)
{
    if (!p->is_set || !cdyn__exclusions_stale(sys, &p->excl))
        return CDYN_OK;
    bool changed;
    cdyn_status st = cdyn__exclusions_refresh(sys, &p->excl, p->n, p->slot, p->by_slot, &changed);
    if (changed)
        p->list.valid = false;
    return st;
}

cdyn_status cdyn__pair_energy(const cdyn_system *sys, cdyn__pair *p, const double *x,
                              double *out)
{
    pair_ctx c = {.sys = sys, .p = p, .task = TASK_ENERGY, .dim = sys->dim, .t = sys->time,
                  .x = x};
    cdyn_status st = cdyn__pair_query_ready(sys, p);
    if (st)
        return st;
    for_each_pair(&c, p, false);
    if (!c.status)
        *out = c.sum;
    return c.status;
}

cdyn_status cdyn__pair_virial(const cdyn_system *sys, cdyn__pair *p, const double *x,
                              const double *v, double *out)
{
    pair_ctx c = {.sys = sys, .p = p, .task = TASK_VIRIAL, .dim = sys->dim, .t = sys->time,
                  .x = x, .v = v};
    cdyn_status st = cdyn__pair_query_ready(sys, p);
    if (st)
        return st;
    for_each_pair(&c, p, false);
    *out = c.sum;
    return c.status;
}

cdyn_status cdyn__pair_add_jacobian(const cdyn_system *sys, cdyn__pair *p, const double *x,
                                    const double *v, cdyn__jacobian_add_fn add_block,
                                    void *ctx)
{
    pair_ctx c = {.sys = sys, .p = p, .task = TASK_JACOBIAN, .dim = sys->dim, .t = sys->time,
                  .x = x, .v = v, .add = add_block, .add_ctx = ctx};
    cdyn_status st = cdyn__pair_query_ready(sys, p);
    if (st)
        return st;
    for_each_pair(&c, p, false);
    return c.status;
}

cdyn_status cdyn__pair_contacts(const cdyn_system *sys, cdyn__pair *p, const double *x,
                                cdyn_particle *out, size_t capacity, size_t *count)
{
    pair_ctx c = {.sys = sys, .p = p, .task = TASK_CONTACTS, .dim = sys->dim, .t = sys->time,
                  .x = x, .out = out, .capacity = capacity};
    cdyn_status st = cdyn__pair_query_ready(sys, p);
    if (st)
        return st;
    for_each_pair(&c, p, false);
    *count = c.count;
    return c.status;
}
