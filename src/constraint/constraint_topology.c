/* The topology pass: when constraints are added, removed, enabled or a
 * particle's fixed flag changes, lay out rows and Jacobian blocks, build the
 * pattern of A = G W G^T (rows sharing a movable particle couple), plan the
 * assembly terms and analyse the factorization. Steps then only refill
 * values. Everything new is built aside and swapped in at the end, so a
 * failure leaves the previous topology intact (and still marked dirty). */
#include <string.h>

#include "alloc.h"
#include "constraint/constraint.h"
#include "system.h"

typedef struct topology {
    uint32_t n_active, n_rows, n_blocks;
    size_t n_terms;
    uint32_t *active, *row_owner, *blk_particle;
    double *jac, *rows; /* jac: 2 sets of blocks; rows: 8 arrays of n_rows */
    cdyn__aterm *terms;
    cdyn__symmat a;
    cdyn__ldlt ldlt;
} topology;

static void topology_free(const cdyn_allocator *al, topology *t, int dim)
{
    cdyn__free_array(al, t->active, t->n_active, sizeof *t->active);
    cdyn__free_array(al, t->row_owner, t->n_rows, sizeof *t->row_owner);
    cdyn__free_array(al, t->blk_particle, t->n_blocks, sizeof *t->blk_particle);
    cdyn__free_array(al, t->jac, 2 * (size_t)t->n_blocks * (size_t)dim, sizeof *t->jac);
    cdyn__free_array(al, t->rows, 8 * (size_t)t->n_rows, sizeof *t->rows);
    cdyn__free_array(al, t->terms, t->n_terms, sizeof *t->terms);
    cdyn__symmat_destroy(&t->a, al);
    cdyn__ldlt_destroy(&t->ldlt, al);
}

void cdyn__constraints_free_topology(cdyn_system *sys)
{
    cdyn__constraints *k = sys->cons;
    topology t = {k->n_active, k->n_rows, k->n_blocks, k->n_terms, k->active, k->row_owner,
                  k->blk_particle, k->jac, k->g, k->terms, k->a, k->ldlt};
    topology_free(&sys->alloc, &t, sys->dim);
    cdyn__cg_destroy(&k->cg, &sys->alloc);
    cdyn__free_array(&sys->alloc, k->gather, 2 * CDYN__CONSTRAINT_MAX_PARTICLES * 3,
                     sizeof *k->gather);
    k->gather = NULL;
    k->active = k->row_owner = k->blk_particle = NULL;
    k->jac = k->g = k->gdot = k->bias = k->rhs = k->lambda = k->diag = NULL;
    k->res_g = k->res_bias = k->res_jac = NULL;
    k->terms = NULL;
    k->n_active = k->n_rows = k->n_blocks = 0;
    k->n_terms = 0;
    cdyn__symmat_init(&k->a);
    cdyn__ldlt_init(&k->ldlt);
}

/* Incidence of movable particles: for particle slot s, its blocks are
 * inc[ptr[s] .. ptr[s + 1] - 1]. */
static cdyn_status incidence(cdyn_system *sys, const topology *t, uint32_t **ptr_out,
                             uint32_t **inc_out)
{
    const cdyn_allocator *al = &sys->alloc;
    uint32_t np = sys->particles.count;
    uint32_t *ptr = cdyn__calloc_array(al, (size_t)np + 1, sizeof *ptr);
    uint32_t *inc = cdyn__alloc_array(al, t->n_blocks ? t->n_blocks : 1, sizeof *inc);
    if (!ptr || !inc) {
        cdyn__free_array(al, ptr, (size_t)np + 1, sizeof *ptr);
        cdyn__free_array(al, inc, t->n_blocks ? t->n_blocks : 1, sizeof *inc);
        return CDYN_ERR_NO_MEMORY;
    }
    for (uint32_t b = 0; b < t->n_blocks; b++)
        if (sys->inv_mass[t->blk_particle[b]] != 0)
            ptr[t->blk_particle[b] + 1]++;
    for (uint32_t s = 0; s < np; s++)
        ptr[s + 1] += ptr[s];
    uint32_t *fill = cdyn__alloc_array(al, (size_t)np + 1, sizeof *fill);
    if (!fill) {
        cdyn__free_array(al, ptr, (size_t)np + 1, sizeof *ptr);
        cdyn__free_array(al, inc, t->n_blocks ? t->n_blocks : 1, sizeof *inc);
        return CDYN_ERR_NO_MEMORY;
    }
    memcpy(fill, ptr, ((size_t)np + 1) * sizeof *fill);
    for (uint32_t b = 0; b < t->n_blocks; b++)
        if (sys->inv_mass[t->blk_particle[b]] != 0)
            inc[fill[t->blk_particle[b]]++] = b;
    cdyn__free_array(al, fill, (size_t)np + 1, sizeof *fill);
    *ptr_out = ptr;
    *inc_out = inc;
    return CDYN_OK;
}

/* Row of block b, from the owner's layout. */
static uint32_t block_row(const cdyn__constraints *k, const topology *t, uint32_t b)
{
    /* Blocks of a constraint are row-major: (r, j) at blk + r * np + j. A
     * binary search over the active list finds the owner. */
    uint32_t lo = 0, hi = t->n_active;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (k->c[t->active[mid]].blk <= b)
            lo = mid;
        else
            hi = mid;
    }
    const cdyn__constraint *c = &k->c[t->active[lo]];
    return c->row + (b - c->blk) / c->n_particles;
}

static cdyn_status plan(cdyn_system *sys, topology *t)
{
    cdyn__constraints *k = sys->cons;
    const cdyn_allocator *al = &sys->alloc;
    uint32_t *ptr, *inc;
    cdyn_status st = incidence(sys, t, &ptr, &inc);
    if (st)
        return st;
    uint32_t np = sys->particles.count, n_inc = ptr[np];
    /* Groups of rows per particle give the pattern of A. */
    size_t n_terms = 0;
    for (uint32_t s = 0; s < np; s++) {
        size_t m = ptr[s + 1] - ptr[s];
        n_terms += m * (m + 1) / 2;
    }
    uint32_t *group_rows = n_inc ? cdyn__alloc_array(al, n_inc, sizeof *group_rows) : NULL;
    if ((n_inc && !group_rows) || cdyn__mul_overflows(n_terms, sizeof(cdyn__aterm))) {
        st = CDYN_ERR_NO_MEMORY;
        goto done;
    }
    if (n_terms) {
        t->terms = cdyn__alloc_array(al, n_terms, sizeof *t->terms);
        if (!t->terms) {
            st = CDYN_ERR_NO_MEMORY;
            goto done;
        }
        t->n_terms = n_terms;
    }
    for (uint32_t i = 0; i < n_inc; i++)
        group_rows[i] = block_row(k, t, inc[i]);
    if ((st = cdyn__symmat_build_groups(&t->a, al, t->n_rows, np, ptr, group_rows)))
        goto done;
    size_t n = 0;
    for (uint32_t s = 0; s < np && n_terms; s++)
        for (uint32_t i = ptr[s]; i < ptr[s + 1]; i++)
            for (uint32_t j = i; j < ptr[s + 1]; j++) {
                cdyn__aterm *term = &t->terms[n++];
                term->bi = inc[i];
                term->bj = inc[j];
                term->particle = s;
                if ((st = cdyn__symmat_find(&t->a, group_rows[i], group_rows[j], &term->pos)))
                    goto done;
            }
    if (k->solver == CDYN_SOLVER_DIRECT && t->n_rows > 0)
        st = cdyn__ldlt_analyze(&t->ldlt, &t->a, al, NULL);
done:
    cdyn__free_array(al, group_rows, n_inc, sizeof *group_rows);
    cdyn__free_array(al, ptr, (size_t)np + 1, sizeof *ptr);
    cdyn__free_array(al, inc, t->n_blocks ? t->n_blocks : 1, sizeof *inc);
    return st;
}

cdyn_status cdyn__constraints_prepare(cdyn_system *sys)
{
    cdyn__constraints *k = sys->cons;
    if (!k || !k->dirty)
        return CDYN_OK;
    const cdyn_allocator *al = &sys->alloc;
    size_t d = (size_t)sys->dim;
    topology t = {0};
    cdyn__symmat_init(&t.a);
    cdyn__ldlt_init(&t.ldlt);
    for (uint32_t i = 0; i < k->slots.count; i++)
        if (k->slots.alive[i] && k->c[i].enabled) {
            t.n_active++;
            t.n_rows += k->c[i].n_rows;
            t.n_blocks += k->c[i].n_rows * k->c[i].n_particles;
        }
    /* The saved layout (row, blk) is written into the constraints only on
     * success; keep the old values to restore on failure. */
    cdyn_status st = CDYN_OK;
    uint32_t *old_row = NULL;
    if (t.n_active == 0) {
        cdyn__constraints_free_topology(sys);
        k->dirty = false;
        k->evaluated = false;
        return CDYN_OK;
    }
    t.active = cdyn__alloc_array(al, t.n_active, sizeof *t.active);
    t.row_owner = cdyn__alloc_array(al, t.n_rows, sizeof *t.row_owner);
    t.blk_particle = cdyn__alloc_array(al, t.n_blocks, sizeof *t.blk_particle);
    t.jac = cdyn__calloc_array(al, 2 * (size_t)t.n_blocks * d, sizeof *t.jac);
    t.rows = cdyn__calloc_array(al, 8 * (size_t)t.n_rows, sizeof *t.rows);
    old_row = cdyn__alloc_array(al, 2 * (size_t)k->slots.count, sizeof *old_row);
    double *gather = k->gather ? k->gather
                               : cdyn__alloc_array(al, 2 * CDYN__CONSTRAINT_MAX_PARTICLES * 3,
                                                   sizeof *gather);
    if (!t.active || !t.row_owner || !t.blk_particle || !t.jac || !t.rows || !old_row || !gather) {
        st = CDYN_ERR_NO_MEMORY;
        goto fail;
    }
    k->gather = gather;
    uint32_t a = 0, row = 0, blk = 0;
    for (uint32_t i = 0; i < k->slots.count; i++) {
        old_row[2 * i] = k->c[i].row;
        old_row[2 * i + 1] = k->c[i].blk;
        if (!k->slots.alive[i] || !k->c[i].enabled)
            continue;
        cdyn__constraint *c = &k->c[i];
        t.active[a++] = i;
        c->row = row;
        c->blk = blk;
        for (uint32_t r = 0; r < c->n_rows; r++) {
            t.row_owner[row++] = i;
            for (uint32_t j = 0; j < c->n_particles; j++)
                t.blk_particle[blk++] = cdyn__constraint_particle(c, j);
        }
    }
    if ((st = plan(sys, &t)))
        goto fail;
    if (k->solver == CDYN_SOLVER_CG && (st = cdyn__cg_reserve(&k->cg, al, t.n_rows)))
        goto fail;
    cdyn__free_array(al, old_row, 2 * (size_t)k->slots.count, sizeof *old_row);

    /* Swap in. */
    cdyn__cg tmp_cg = k->cg;
    cdyn__cg_init(&k->cg); /* keep the reserved CG workspace across the free */
    double *keep_gather = k->gather;
    k->gather = NULL;
    cdyn__constraints_free_topology(sys);
    k->cg = tmp_cg;
    k->gather = keep_gather;
    k->n_active = t.n_active;
    k->n_rows = t.n_rows;
    k->n_blocks = t.n_blocks;
    k->n_terms = t.n_terms;
    k->active = t.active;
    k->row_owner = t.row_owner;
    k->blk_particle = t.blk_particle;
    k->jac = t.jac;
    k->g = t.rows;
    k->gdot = t.rows + t.n_rows;
    k->bias = t.rows + 2 * (size_t)t.n_rows;
    k->rhs = t.rows + 3 * (size_t)t.n_rows;
    k->lambda = t.rows + 4 * (size_t)t.n_rows;
    k->diag = t.rows + 5 * (size_t)t.n_rows;
    k->res_g = t.rows + 6 * (size_t)t.n_rows;
    k->res_bias = t.rows + 7 * (size_t)t.n_rows;
    k->res_jac = t.jac + (size_t)t.n_blocks * d;
    k->terms = t.terms;
    k->a = t.a;
    k->ldlt = t.ldlt;
    k->dirty = false;
    k->evaluated = false;
    return CDYN_OK;

fail:
    if (old_row)
        for (uint32_t i = 0; i < k->slots.count; i++) {
            k->c[i].row = old_row[2 * i];
            k->c[i].blk = old_row[2 * i + 1];
        }
    cdyn__free_array(al, old_row, 2 * (size_t)k->slots.count, sizeof *old_row);
    if (!k->gather)
        cdyn__free_array(al, gather, 2 * CDYN__CONSTRAINT_MAX_PARTICLES * 3, sizeof *gather);
    topology_free(al, &t, sys->dim);
    return cdyn__fail(sys, st, "constraints: %s while laying out %u rows",
                      st == CDYN_ERR_NO_MEMORY ? "out of memory" : cdyn_status_string(st),
                      t.n_rows);
}
