/* Backward Euler's prepare pass: the sparsity pattern of the Newton matrix K,
 * its elimination order and analysis, and every array a step uses.
 *
 * Each step probes the pattern at the committed state (springs, pair lists,
 * constraint rows; pair-set contacts at x0 and at the prediction x0 + h v0;
 * user Jacobians at x0) with lookups only. When a block is missing, or the
 * slot or row count changed, the pattern is rebuilt: everything new is
 * built aside and swapped in at the end, so a failure leaves the old one.
 *
 * The elimination order is the library's fill-reducing order of the whole
 * K, then each constraint row is moved after the last velocity row it
 * couples to: with J positive definite every leading block of K is then a
 * KKT matrix, so the velocity pivots come out positive and the constraint
 * pivots negative (ldlt_signed.h). */
#include <string.h>

#include "core/alloc.h"
#include "constraint/constraint.h"
#include "force/force.h"
#include "step/backward_euler/backward_euler.h"
#include "solver/ordering.h"
#include "core/system.h"
#include "step/integrator.h"

#define NONE UINT32_MAX

static void layout_init(cdyn__be_layout *lay)
{
    memset(lay, 0, sizeof *lay);
    cdyn__symmat_init(&lay->a);
    cdyn__ldlt_signed_init(&lay->fac);
}

static void layout_free(const cdyn_allocator *al, cdyn__be_layout *lay)
{
    cdyn__free_array(al, lay->skew, lay->a.nnz, sizeof *lay->skew);
    cdyn__free_array(al, lay->sign, lay->n, sizeof *lay->sign);
    cdyn__free_array(al, lay->block, lay->n_doubles, sizeof *lay->block);
    cdyn__free_array(al, lay->fd_diag, lay->fd_len, sizeof *lay->fd_diag);
    cdyn__ldlt_signed_destroy(&lay->fac, al);
    cdyn__symmat_destroy(&lay->a, al);
    layout_init(lay);
}

void cdyn__be_init(void *state)
{
    cdyn__be *be = state;
    memset(be, 0, sizeof *be);
    layout_init(&be->lay);
    be->stats.size = sizeof be->stats;
    cdyn_newton_options_init(&be->opt);
}

void cdyn__be_free(cdyn_system *sys, void *state)
{
    cdyn__be *be = state;
    const cdyn_allocator *al = &sys->alloc;
    layout_free(al, &be->lay);
    cdyn__free_array(al, be->gdx, be->g_len, sizeof *be->gdx);
    cdyn__free_array(al, be->gdv, be->g_len, sizeof *be->gdv);
    cdyn__free_array(al, be->hist, be->hist_cap, sizeof *be->hist);
    cdyn__free_array(al, be->dyn, 2 * be->dyn_cap, sizeof *be->dyn);
}

cdyn__be *cdyn__be_of(const cdyn_system *sys)
{
    return cdyn__integrator_state(sys, CDYN_INTEGRATOR_BACKWARD_EULER);
}

static bool has_block(const cdyn__symmat *a, uint32_t d, uint32_t i, uint32_t j)
{
    uint32_t hi = i > j ? i : j, lo = i > j ? j : i;
    return i == j || cdyn__be_find(a, hi * d, lo * d) != NONE;
}

/* The static coupled pairs of the generators (springs, pair lists), seen
 * one at a time: counted, checked against a pattern, or pushed. */
typedef struct coupled {
    const cdyn__symmat *a;
    uint32_t d;
    size_t count;
    bool missing;
    uint32_t *pairs;
    size_t npairs;
} coupled;

static void count_pair(void *ctx, uint32_t i, uint32_t j)
{
    (void)i, (void)j;
    ((coupled *)ctx)->count++;
}

static void check_pair(void *ctx, uint32_t i, uint32_t j)
{
    coupled *c = ctx;
    c->missing |= !has_block(c->a, c->d, i, j);
}

static void push_pair(void *ctx, uint32_t i, uint32_t j);

static void for_coupled_pairs(const cdyn_system *sys, void (*fn)(void *, uint32_t, uint32_t),
                              coupled *c)
{
    const cdyn__force *g = sys->force;
    for (uint32_t i = 0; i < sys->forces.count; i++)
        if (sys->forces.alive[i] && g[i].ops->coupled_pairs)
            g[i].ops->coupled_pairs(&g[i], fn, c);
}

/* The pattern covers the system as it is: same slot and row counts, every
 * static block present, every dynamic block seen at x0 (and x0 + h v0). */
static cdyn_status pattern_ok(cdyn_system *sys, double h, bool *ok)
{
    cdyn__be *be = cdyn__be_of(sys);
    cdyn__be_layout *lay = &be->lay;
    const cdyn__constraints *k = sys->cons;
    const uint32_t d = (uint32_t)sys->dim, np = sys->particles.count;
    *ok = false;
    if (lay->np == 0 || lay->np != np || lay->nc != (k ? k->n_rows : 0) ||
        lay->nblk != (k ? k->n_blocks : 0) || (!lay->fd_diag && cdyn__be_has_fd(sys)))
        return CDYN_OK;
    coupled cp = {.a = &lay->a, .d = d};
    for_coupled_pairs(sys, check_pair, &cp);
    if (cp.missing)
        return CDYN_OK;
    for (uint32_t ai = 0; k && ai < k->n_active; ai++) {
        const cdyn__constraint *c = &k->c[k->active[ai]];
        for (uint32_t r = 0; r < c->n_rows; r++)
            for (uint32_t j = 0; j < c->n_particles; j++)
                if (cdyn__be_find(&lay->a, lay->nv + c->row + r,
                                  cdyn__constraint_particle(c, j) * d) == NONE)
                    return CDYN_OK;
    }
    for (uint32_t i = 0; i < lay->nv; i++)
        lay->xt[i] = sys->x[i] + h * sys->v[i];
    struct cdyn_jacobian acc = {sys, be, CDYN__ACC_PROBE, np, 0, 0, false, false, false, 0};
    cdyn_status st = cdyn__be_dynamic_blocks(sys, &acc, sys->time, sys->x, lay->xt, sys->v);
    if (!st)
        *ok = !acc.missing;
    return st;
}

/* Moves every constraint row of @p order (n rows, velocity rows < nv) after
 * the last velocity row it couples to; result in @p out. */
static void constrained_order(const cdyn__symmat *a, uint32_t nv, const uint32_t *order,
                              uint32_t *out, uint32_t *need)
{
    const uint32_t n = a->n, nc = n - nv, *cp = a->colptr, *ri = a->rowind;
    memset(need, 0, 2 * (size_t)nc * sizeof *need);
    uint32_t *waiting = need + nc;
    for (uint32_t j = 0; j < nv; j++)
        for (uint32_t p = cp[j] + 1; p < cp[j + 1]; p++)
            if (ri[p] >= nv)
                need[ri[p] - nv]++;
    uint32_t k = 0;
    for (uint32_t t = 0; t < n; t++) {
        uint32_t r = order[t];
        if (r >= nv) {
            if (need[r - nv] == 0)
                out[k++] = r;
            else
                waiting[r - nv] = 1;
            continue;
        }
        out[k++] = r;
        for (uint32_t p = cp[r] + 1; p < cp[r + 1]; p++) {
            uint32_t c = ri[p];
            if (c >= nv && --need[c - nv] == 0 && waiting[c - nv])
                out[k++] = c;
        }
    }
}

/* Scalar entries (i*d + r, j*d + c) of the block of slots i != j. */
static size_t push_block(uint32_t *pairs, size_t m, uint32_t d, uint32_t i, uint32_t j)
{
    for (uint32_t r = 0; r < d; r++)
        for (uint32_t c = 0; c < d; c++) {
            pairs[2 * m] = i * d + r;
            pairs[2 * m + 1] = j * d + c;
            m++;
        }
    return m;
}

static void push_pair(void *ctx, uint32_t i, uint32_t j)
{
    coupled *c = ctx;
    c->npairs = push_block(c->pairs, c->npairs, c->d, i, j);
}

/* The layout of the scalar pairs @p pairs (@p npairs, either triangle,
 * duplicates allowed) for @p np slots, @p nc constraint rows and @p nblk
 * Jacobian blocks, with the finite-difference blocks when @p fd: pattern,
 * order, analysis and arrays, swapped in whole (on failure nothing
 * changed). Takes over @p pairs (@p total entries), freeing it. */
static cdyn_status build_layout(cdyn_system *sys, uint32_t *pairs, size_t total, size_t npairs,
                                uint32_t np, uint32_t nc, uint32_t nblk, bool fd)
{
    cdyn__be *be = cdyn__be_of(sys);
    const cdyn_allocator *al = &sys->alloc;
    const uint32_t d = (uint32_t)sys->dim, nv = np * d, n = nv + nc;
    cdyn__be_layout lay;
    layout_init(&lay);
    uint32_t *order = NULL, *work = NULL;
    size_t n_work = 0;
    cdyn_status st = cdyn__symmat_build(&lay.a, al, n, npairs, pairs);
    cdyn__free_array(al, pairs, 2 * total, sizeof *pairs);
    if (st)
        goto done;

    /* Order: fill-reducing, then constraint rows after their velocities. */
    st = CDYN_ERR_NO_MEMORY;
    n_work = (size_t)n + 2 * (size_t)nc;
    order = cdyn__alloc_array(al, n, sizeof *order);
    work = cdyn__alloc_array(al, n_work, sizeof *work);
    if (!order || !work)
        goto done;
    if ((st = cdyn__ordering_compute(&lay.a, al, work, NULL)))
        goto done;
    constrained_order(&lay.a, nv, work, order, work + n);
    if ((st = cdyn__ldlt_signed_analyze(&lay.fac, &lay.a, al, order)))
        goto done;

    /* Values and vectors. */
    st = CDYN_ERR_NO_MEMORY;
    lay.np = np;
    lay.nv = nv;
    lay.nc = nc;
    lay.n = n;
    lay.nblk = nblk;
    lay.n_doubles = 9 * (size_t)nv + 4 * (size_t)nc + (8 + CDYN__GMRES_M) * (size_t)n +
                    2 * (size_t)nblk * d;
    lay.skew = cdyn__alloc_array(al, lay.a.nnz, sizeof *lay.skew);
    lay.sign = cdyn__alloc_array(al, n, sizeof *lay.sign);
    lay.block = cdyn__calloc_array(al, lay.n_doubles, sizeof *lay.block);
    if (fd) {
        lay.fd_len = (size_t)nv * d;
        lay.fd_diag = cdyn__calloc_array(al, lay.fd_len, sizeof *lay.fd_diag);
    }
    if (!lay.skew || !lay.sign || !lay.block || (fd && !lay.fd_diag))
        goto done;
    for (uint32_t i = 0; i < n; i++)
        lay.sign[i] = i < nv ? 1 : -1;
    double *p = lay.block;
    double **vecs_nv[] = {&lay.v,    &lay.vt,    &lay.x,     &lay.xt,     &lay.frc,
                          &lay.fd_z, &lay.fd_f0, &lay.fd_f1, &lay.fd_base};
    for (size_t i = 0; i < sizeof vecs_nv / sizeof vecs_nv[0]; i++, p += nv)
        *vecs_nv[i] = p;
    double **vecs_nc[] = {&lay.nu, &lay.nut, &lay.gv, &lay.gvt};
    for (size_t i = 0; i < sizeof vecs_nc / sizeof vecs_nc[0]; i++, p += nc)
        *vecs_nc[i] = p;
    double **vecs_n[] = {&lay.res, &lay.rest, &lay.dz, &lay.rr, &lay.tmp, &lay.diag_add,
                         &lay.wgt};
    for (size_t i = 0; i < sizeof vecs_n / sizeof vecs_n[0]; i++, p += n)
        *vecs_n[i] = p;
    for (size_t i = 0; i <= CDYN__GMRES_M; i++, p += n)
        lay.krylov[i] = p;
    lay.jac = p;
    lay.jact = p + (size_t)nblk * d;

    layout_free(al, &be->lay);
    be->lay = lay;
    layout_init(&lay);
    st = CDYN_OK;
done:
    cdyn__free_array(al, order, n, sizeof *order);
    cdyn__free_array(al, work, n_work, sizeof *work);
    layout_free(al, &lay);
    return st;
}

/* Room for @p total scalar pairs with the diagonal blocks of @p np slots
 * written first; NULL on failure or overflow. */
static uint32_t *pairs_with_diagonal(const cdyn_allocator *al, uint32_t np, uint32_t d,
                                     size_t total, size_t *npairs)
{
    if (cdyn__mul_overflows(total, 2 * sizeof(uint32_t)))
        return NULL;
    uint32_t *pairs = cdyn__alloc_array(al, 2 * total, sizeof *pairs);
    if (total && !pairs)
        return NULL;
    size_t m = 0;
    for (uint32_t s = 0; s < np; s++)
        for (uint32_t r = 1; r < d; r++)
            for (uint32_t c = 0; c < r; c++) {
                pairs[2 * m] = s * d + r;
                pairs[2 * m + 1] = s * d + c;
                m++;
            }
    *npairs = m;
    return pairs;
}

/* Scalar entries of constraint row @p row (after nv velocity rows) with
 * slot @p s. */
static size_t push_row(uint32_t *pairs, size_t m, uint32_t d, uint32_t nv, uint32_t row,
                       uint32_t s)
{
    for (uint32_t q = 0; q < d; q++) {
        pairs[2 * m] = nv + row;
        pairs[2 * m + 1] = s * d + q;
        m++;
    }
    return m;
}

static cdyn_status build_failed(cdyn_system *sys, cdyn_status st, uint32_t n)
{
    if (st == CDYN_ERR_NO_MEMORY)
        return cdyn__fail(sys, st, "backward Euler: out of memory for the Newton system "
                                   "(%u unknowns)", n);
    if (st && st != CDYN_ERR_CALLBACK)
        return cdyn__fail(sys, st, "backward Euler: cannot analyse the Newton system: %s",
                          cdyn_status_string(st));
    return st;
}

/* Builds the pattern, order, analysis and arrays of the system as it is
 * into a new layout and swaps it in. */
static cdyn_status build(cdyn_system *sys, double h)
{
    cdyn__be *be = cdyn__be_of(sys);
    const cdyn_allocator *al = &sys->alloc;
    const cdyn__constraints *k = sys->cons;
    const uint32_t d = (uint32_t)sys->dim, np = sys->particles.count;
    const uint32_t nc = k ? k->n_rows : 0, nblk = k ? k->n_blocks : 0;
    if ((uint64_t)np * d + nc >= CDYN__SOLVER_MAX_INDEX)
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "backward Euler: %u slots and %u constraint rows exceed the solver's "
                          "index range", np, nc);
    const uint32_t nv = np * d;
    cdyn_status st = CDYN_ERR_NO_MEMORY;
    double *xp = cdyn__alloc_array(al, nv, sizeof *xp);
    if (!xp)
        return build_failed(sys, st, nv + nc);

    /* Dynamic blocks: pair-set contacts at x0 and x0 + h v0, user Jacobians. */
    for (uint32_t i = 0; i < nv; i++)
        xp[i] = sys->x[i] + h * sys->v[i];
    be->ndyn = 0;
    struct cdyn_jacobian acc = {sys, be, CDYN__ACC_COLLECT, np, 0, 0, false, false, false, 0};
    st = cdyn__be_dynamic_blocks(sys, &acc, sys->time, sys->x, xp, sys->v);
    cdyn__free_array(al, xp, nv, sizeof *xp);
    if (st || acc.oom)
        return build_failed(sys, st ? st : CDYN_ERR_NO_MEMORY, nv + nc);

    /* Scalar pairs: diagonal blocks, coupled slots, constraint rows. */
    coupled cp = {.d = d};
    for_coupled_pairs(sys, count_pair, &cp);
    size_t nb = be->ndyn + cp.count, npairs;
    size_t total = (size_t)np * d * (d - 1) / 2 + nb * d * d + (size_t)nblk * d;
    uint32_t *pairs = pairs_with_diagonal(al, np, d, total, &npairs);
    if (total && !pairs)
        return build_failed(sys, CDYN_ERR_NO_MEMORY, nv + nc);
    cp.pairs = pairs;
    cp.npairs = npairs;
    for_coupled_pairs(sys, push_pair, &cp);
    npairs = cp.npairs;
    for (size_t q = 0; q < be->ndyn; q++)
        npairs = push_block(pairs, npairs, d, be->dyn[2 * q], be->dyn[2 * q + 1]);
    for (uint32_t ai = 0; k && ai < k->n_active; ai++) {
        const cdyn__constraint *c = &k->c[k->active[ai]];
        for (uint32_t r = 0; r < c->n_rows; r++)
            for (uint32_t j = 0; j < c->n_particles; j++)
                npairs = push_row(pairs, npairs, d, nv, c->row + r,
                                  cdyn__constraint_particle(c, j));
    }
    st = build_layout(sys, pairs, total, npairs, np, nc, nblk, cdyn__be_has_fd(sys));
    if (!st)
        be->stats.analyses++;
    return build_failed(sys, st, nv + nc);
}

void cdyn__be_pattern_blocks(const cdyn_system *sys, void (*slots)(void *, uint32_t, uint32_t),
                             void (*rows)(void *, uint32_t, uint32_t), void *ctx)
{
    const cdyn__be_layout *lay = &cdyn__be_of(sys)->lay;
    const uint32_t d = (uint32_t)sys->dim;
    for (uint32_t s = 0; s < lay->np; s++) {
        const uint32_t j = s * d;
        for (uint32_t p = lay->a.colptr[j] + 1; p < lay->a.colptr[j + 1]; p++) {
            uint32_t i = lay->a.rowind[p];
            if (i >= lay->nv)
                rows(ctx, i - lay->nv, s);
            else if (i / d != s && i % d == 0)
                slots(ctx, i / d, s);
        }
    }
}

cdyn_status cdyn__be_restore_pattern(cdyn_system *sys, uint32_t np, uint32_t nc, uint32_t nblk,
                                     bool fd, const uint32_t *slot_pairs, size_t n_slot_pairs,
                                     const uint32_t *row_entries, size_t n_row_entries)
{
    const uint32_t d = (uint32_t)sys->dim, nv = np * d;
    if ((uint64_t)np * d + nc >= CDYN__SOLVER_MAX_INDEX)
        return CDYN_ERR_INVALID_ARGUMENT;
    for (size_t q = 0; q < n_slot_pairs; q++)
        if (slot_pairs[2 * q] >= np || slot_pairs[2 * q + 1] >= slot_pairs[2 * q])
            return CDYN_ERR_INVALID_ARGUMENT;
    for (size_t q = 0; q < n_row_entries; q++)
        if (row_entries[2 * q] >= nc || row_entries[2 * q + 1] >= np)
            return CDYN_ERR_INVALID_ARGUMENT;
    size_t total = (size_t)np * d * (d - 1) / 2 + n_slot_pairs * d * d + n_row_entries * d;
    size_t npairs;
    uint32_t *pairs = pairs_with_diagonal(&sys->alloc, np, d, total, &npairs);
    if (total && !pairs)
        return CDYN_ERR_NO_MEMORY;
    for (size_t q = 0; q < n_slot_pairs; q++)
        npairs = push_block(pairs, npairs, d, slot_pairs[2 * q], slot_pairs[2 * q + 1]);
    for (size_t q = 0; q < n_row_entries; q++)
        npairs = push_row(pairs, npairs, d, nv, row_entries[2 * q], row_entries[2 * q + 1]);
    return build_layout(sys, pairs, total, npairs, np, nc, nblk, fd);
}

cdyn_status cdyn__be_prepare(cdyn_system *sys, double h)
{
    const cdyn_allocator *al = &sys->alloc;
    cdyn__be *be = cdyn__be_of(sys);
    /* Room for the largest cap once (8 KB), so that changing the options
     * never allocates. */
    size_t need = (size_t)CDYN__NEWTON_MAX_ITERATIONS + 1;
    if (be->hist_cap < need) {
        double *hist = cdyn__alloc_array(al, need, sizeof *hist);
        if (!hist)
            return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "backward Euler: out of memory");
        cdyn__free_array(al, be->hist, be->hist_cap, sizeof *be->hist);
        be->hist = hist;
        be->hist_cap = need;
        be->hist_len = 0;
    }
    size_t g_len = (size_t)sys->particles.count * (size_t)sys->dim * (size_t)sys->dim;
    if (sys->grounds && be->g_len < g_len) {
        double *gdx = cdyn__alloc_array(al, g_len, sizeof *gdx);
        double *gdv = cdyn__alloc_array(al, g_len, sizeof *gdv);
        if (!gdx || !gdv) {
            cdyn__free_array(al, gdx, g_len, sizeof *gdx);
            cdyn__free_array(al, gdv, g_len, sizeof *gdv);
            return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "backward Euler: out of memory");
        }
        cdyn__free_array(al, be->gdx, be->g_len, sizeof *be->gdx);
        cdyn__free_array(al, be->gdv, be->g_len, sizeof *be->gdv);
        be->gdx = gdx;
        be->gdv = gdv;
        be->g_len = g_len;
    }
    bool ok;
    cdyn_status st = pattern_ok(sys, h, &ok);
    if (st || ok)
        return st;
    return build(sys, h);
}
