/* The topology pass: when constraints are added, removed, enabled or a
 * particle's fixed flag changes, lay out rows and Jacobian blocks, build the
 * pattern of A = G W G^T (rows sharing a movable particle couple) and plan
 * the off-diagonal assembly terms; the factorization is analysed where it is
 * first used (cdyn__constraints_analysis). Steps then only refill values.
 * Everything new is built aside and swapped in at the end, so a failure
 * leaves the previous topology intact (and still marked dirty). */
#include <string.h>

#include "core/alloc.h"
#include "constraint/constraint.h"
#include "constraint/kind.h"
#include "core/system.h"

typedef struct topology {
    uint32_t n_active, n_rows, n_blocks, n_driven;
    size_t n_terms, n_first, scratch_len;
    bool all_rods, terms_inline;
    uint32_t *active, *blk_particle;
    double *jac, *rows, *scratch; /* rows: [g,] [gt,] rhs, lambda (see row_arrays) */
    double *diag;                 /* only once some constraint is compliant */
    double *ll;                   /* only for rods-only topologies */
    cdyn__aterm *terms;
    cdyn__symmat a;
} topology;

/* Per-row arrays in one block: rhs and lambda; g (the evaluators'
 * output, read back by the generic rows and the projection's) unless every
 * row is a rod's, which the rod kernels form in registers; dg/dt when some
 * constraint depends on time. */
static size_t row_arrays(bool all_rods, uint32_t n_driven)
{
    return 2 + (all_rods ? 0 : 1) + (n_driven ? 1 : 0);
}

static void topology_free(const cdyn_allocator *al, topology *t, int dim)
{
    cdyn__free_array(al, t->active, t->n_active, sizeof *t->active);
    cdyn__free_array(al, t->blk_particle, t->n_blocks, sizeof *t->blk_particle);
    cdyn__free_array(al, t->jac, (size_t)t->n_blocks * (size_t)dim, sizeof *t->jac);
    cdyn__free_array(al, t->rows, row_arrays(t->all_rods, t->n_driven) * (size_t)t->n_rows,
                     sizeof *t->rows);
    cdyn__free_array(al, t->diag, t->n_rows, sizeof *t->diag);
    cdyn__free_array(al, t->ll, t->n_rows, sizeof *t->ll);
    cdyn__free_array(al, t->scratch, t->scratch_len, sizeof *t->scratch);
    cdyn__free_array(al, t->terms, t->n_terms, sizeof *t->terms);
    cdyn__symmat_destroy(&t->a, al);
}

void cdyn__constraints_free_topology(cdyn_system *sys)
{
    cdyn__constraints *k = sys->cons;
    topology t = {k->n_active, k->n_rows, k->n_blocks, k->n_driven, k->n_terms, k->n_first,
                  k->scratch_len, k->all_rods, k->terms_inline, k->active, k->blk_particle,
                  k->jac, k->all_rods ? k->rhs : k->g, k->scratch, k->diag, k->ll, k->terms,
                  k->a};
    topology_free(&sys->alloc, &t, sys->dim);
    cdyn__ldlt_destroy(&k->ldlt, &sys->alloc); /* analysed for the topology that goes */
    k->active = k->blk_particle = NULL;
    k->jac = k->g = k->gt = k->rhs = k->lambda = k->diag = k->scratch = k->ll = NULL;
    k->terms = NULL;
    k->n_active = k->n_rows = k->n_blocks = k->n_driven = 0;
    k->n_terms = k->n_first = k->scratch_len = 0;
    k->all_rods = k->terms_inline = k->tridiagonal = false;
    cdyn__symmat_init(&k->a);
}

uint32_t cdyn__constraints_row_owner(const cdyn__constraints *k, uint32_t row)
{
    uint32_t lo = 0, hi = k->n_active;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (k->c[k->active[mid]].row <= row)
            lo = mid;
        else
            hi = mid;
    }
    return k->active[lo];
}

/* Incidence of movable particles: for particle slot s, its blocks are
 * inc[ptr[s] .. ptr[s + 1] - 1], in ascending block order, and
 * rows[i] is the row of block inc[i]. The blocks of the active
 * constraints follow each other in active order (blocks of a constraint
 * are row-major), so one cursor walks the constraints as the blocks go. */
static cdyn_status incidence(cdyn_system *sys, const topology *t, uint32_t **ptr_out,
                             uint32_t **inc_out, uint32_t **rows_out)
{
    const cdyn__constraints *k = sys->cons;
    const cdyn_allocator *al = &sys->alloc;
    size_t np1 = (size_t)sys->particles.count + 1;
    uint32_t *ptr = cdyn__calloc_array(al, np1, sizeof *ptr);
    uint32_t *fill = cdyn__alloc_array(al, np1, sizeof *fill);
    uint32_t *inc = cdyn__alloc_array(al, t->n_blocks, sizeof *inc);
    uint32_t *rows = NULL, n_inc = 0;
    if (ptr && fill && inc) {
        for (uint32_t b = 0; b < t->n_blocks; b++)
            if (sys->inv_mass[t->blk_particle[b]] != 0)
                ptr[t->blk_particle[b] + 1]++;
        for (size_t s = 1; s < np1; s++)
            ptr[s] += ptr[s - 1];
        n_inc = ptr[np1 - 1];
        rows = n_inc ? cdyn__alloc_array(al, n_inc, sizeof *rows) : NULL;
    }
    if (!ptr || !fill || !inc || (n_inc && !rows)) {
        cdyn__free_array(al, ptr, np1, sizeof *ptr);
        cdyn__free_array(al, fill, np1, sizeof *fill);
        cdyn__free_array(al, inc, t->n_blocks, sizeof *inc);
        cdyn__free_array(al, rows, n_inc, sizeof *rows);
        return CDYN_ERR_NO_MEMORY;
    }
    memcpy(fill, ptr, np1 * sizeof *fill);
    uint32_t a = 0; /* the active constraint holding block b */
    for (uint32_t b = 0; b < t->n_blocks; b++) {
        while (a + 1 < t->n_active && k->c[t->active[a + 1]].blk <= b)
            a++;
        if (sys->inv_mass[t->blk_particle[b]] == 0)
            continue;
        const cdyn__constraint *c = &k->c[t->active[a]];
        const uint32_t i = fill[t->blk_particle[b]]++;
        inc[i] = b;
        rows[i] = c->row + (b - c->blk) / c->n_particles;
    }
    cdyn__free_array(al, fill, np1, sizeof *fill);
    *ptr_out = ptr;
    *inc_out = inc;
    *rows_out = rows;
    return CDYN_OK;
}

/* Orders the terms so that the first term of each entry of A comes first,
 * in terms[0 .. n_first - 1]: the assembly assigns those and accumulates
 * the rest, so A needs no clearing per step. The partition is stable, so
 * every entry still sums its terms in the original order (the same bits
 * as clearing and accumulating). a->val (all zero) marks the entries seen
 * and is zero again on return. Usually every entry has one term (rods
 * share at most one particle) and nothing is allocated. */
static cdyn_status partition_terms(const cdyn_allocator *al, topology *t)
{
    double *seen = t->a.val;
    size_t n_rest = 0;
    for (size_t i = 0; i < t->n_terms; i++) {
        n_rest += seen[t->terms[i].pos] != 0;
        seen[t->terms[i].pos] = 1;
    }
    t->n_first = t->n_terms - n_rest;
    cdyn__aterm *rest = n_rest ? cdyn__alloc_array(al, n_rest, sizeof *rest) : NULL;
    if (n_rest && !rest)
        return CDYN_ERR_NO_MEMORY;
    size_t nf = 0, nr = 0;
    for (size_t i = 0; i < t->n_terms; i++) {
        cdyn__aterm term = t->terms[i];
        if (seen[term.pos] != 0) {
            seen[term.pos] = 0;
            t->terms[nf++] = term; /* nf <= i: never overwrites an unread term */
        } else {
            rest[nr++] = term;
        }
    }
    if (n_rest)
        memcpy(t->terms + nf, rest, n_rest * sizeof *rest);
    cdyn__free_array(al, rest, n_rest, sizeof *rest);
    return CDYN_OK;
}

/* Pattern of A from groups of rows per movable particle; one off-diagonal
 * term per pair of blocks on one particle. The direct solver's symbolic
 * analysis is made at its first use (cdyn__constraints_analysis). */
static cdyn_status plan(cdyn_system *sys, topology *t)
{
    const cdyn_allocator *al = &sys->alloc;
    uint32_t *ptr, *inc, *group_rows;
    cdyn_status st = incidence(sys, t, &ptr, &inc, &group_rows);
    if (st)
        return st;
    uint32_t np = sys->particles.count, n_inc = ptr[np];
    size_t n_terms = 0;
    for (uint32_t s = 0; s < np; s++) {
        size_t m = ptr[s + 1] - ptr[s];
        n_terms += m * (m - (m > 0)) / 2;
    }
    if (cdyn__mul_overflows(n_terms, sizeof(cdyn__aterm))) {
        st = CDYN_ERR_NO_MEMORY;
        goto done;
    }
    if (n_terms) {
        if (!(t->terms = cdyn__alloc_array(al, n_terms, sizeof *t->terms))) {
            st = CDYN_ERR_NO_MEMORY;
            goto done;
        }
        t->n_terms = n_terms;
    }
    if ((st = cdyn__symmat_build_groups(&t->a, al, t->n_rows, np, ptr, group_rows)))
        goto done;
    size_t n = 0;
    for (uint32_t s = 0; s < np && n_terms; s++)
        for (uint32_t i = ptr[s]; i < ptr[s + 1]; i++)
            for (uint32_t j = i + 1; j < ptr[s + 1]; j++) {
                cdyn__aterm *term = &t->terms[n++];
                term->bi = inc[i];
                term->bj = inc[j];
                if ((st = cdyn__symmat_find(&t->a, group_rows[i], group_rows[j], &term->pos)))
                    goto done;
            }
    if (!(st = partition_terms(al, t))) {
        t->terms_inline = t->all_rods && t->n_first == t->n_terms;
        for (size_t i = 1; i < t->n_terms && t->terms_inline; i++)
            t->terms_inline = t->terms[i - 1].bj <= t->terms[i].bj;
    }
done:
    cdyn__free_array(al, group_rows, n_inc, sizeof *group_rows);
    cdyn__free_array(al, ptr, (size_t)np + 1, sizeof *ptr);
    cdyn__free_array(al, inc, t->n_blocks, sizeof *inc);
    return st; /* the direct solver's analysis waits for its first use */
}

/* Lays out rows and blocks of the enabled constraints into @p t. The
 * row/blk fields of the constraints are written here; restore_layout puts
 * back those of the current topology. */
static cdyn_status layout(cdyn_system *sys, topology *t)
{
    cdyn__constraints *k = sys->cons;
    const cdyn_allocator *al = &sys->alloc;
    size_t d = (size_t)sys->dim, max_blocks = 0, max_rows = 0;
    t->all_rods = true;
    for (uint32_t i = 0; i < k->slots.count; i++)
        if (k->slots.alive[i] && k->c[i].enabled && !cdyn__constraint_is_shape(&k->c[i])) {
            const cdyn__constraint *c = &k->c[i];
            t->all_rods &= cdyn__constraint_path(c) == CDYN__ROWS_ROD;
            t->n_driven += c->driven;
            t->n_active++;
            t->n_rows += c->n_rows;
            t->n_blocks += (uint32_t)c->n_rows * c->n_particles;
            if ((size_t)c->n_rows * c->n_particles > max_blocks)
                max_blocks = (size_t)c->n_rows * c->n_particles;
            if (c->n_rows > max_rows)
                max_rows = c->n_rows;
        }
    t->scratch_len = max_blocks * d + 3 * max_rows;
    t->active = cdyn__alloc_array(al, t->n_active, sizeof *t->active);
    t->blk_particle = cdyn__alloc_array(al, t->n_blocks, sizeof *t->blk_particle);
    t->jac = cdyn__calloc_array(al, (size_t)t->n_blocks * d, sizeof *t->jac);
    t->rows = cdyn__calloc_array(al, row_arrays(t->all_rods, t->n_driven) * (size_t)t->n_rows,
                                 sizeof *t->rows);
    t->scratch = cdyn__calloc_array(al, t->scratch_len, sizeof *t->scratch);
    if (k->any_compliance)
        t->diag = cdyn__calloc_array(al, t->n_rows, sizeof *t->diag);
    if (t->all_rods)
        t->ll = cdyn__alloc_array(al, t->n_rows, sizeof *t->ll);
    if (!t->active || !t->blk_particle || !t->jac || !t->rows || !t->scratch ||
        (k->any_compliance && !t->diag) || (t->all_rods && !t->ll))
        return CDYN_ERR_NO_MEMORY;
    uint32_t a = 0, row = 0, blk = 0;
    for (uint32_t i = 0; i < k->slots.count; i++) {
        if (!k->slots.alive[i] || !k->c[i].enabled || cdyn__constraint_is_shape(&k->c[i]))
            continue;
        cdyn__constraint *c = &k->c[i];
        t->active[a++] = i;
        c->row = row;
        c->blk = blk;
        if (t->all_rods)
            t->ll[row] = c->d.p[0] * c->d.p[0];
        row += c->n_rows;
        for (uint32_t r = 0; r < c->n_rows; r++)
            for (uint32_t j = 0; j < c->n_particles; j++)
                t->blk_particle[blk++] = cdyn__constraint_particle(c, j);
    }
    return CDYN_OK;
}

/* After a failed rebuild: the row/blk fields of the constraints of the
 * current topology, recomputed as layout() assigned them (in the order of
 * k->active), rather than saved beforehand (8 bytes per constraint at the
 * peak of the rebuild). Others are read only after a successful rebuild. */
static void restore_layout(cdyn__constraints *k)
{
    uint32_t row = 0, blk = 0;
    for (uint32_t a = 0; a < k->n_active; a++) {
        cdyn__constraint *c = &k->c[k->active[a]];
        c->row = row;
        c->blk = blk;
        row += c->n_rows;
        blk += (uint32_t)c->n_rows * c->n_particles;
    }
}

/* The topology of cdyn__constraints_prepare. */
static cdyn_status rebuild(cdyn_system *sys)
{
    cdyn__constraints *k = sys->cons;
    if (!k || !k->dirty)
        return CDYN_OK;
    const cdyn_allocator *al = &sys->alloc;
    bool any = false;
    for (uint32_t i = 0; i < k->slots.count && !any; i++)
        any = k->slots.alive[i] && k->c[i].enabled && !cdyn__constraint_is_shape(&k->c[i]);
    if (!any) {
        cdyn__constraints_free_topology(sys);
        k->dirty = false;
        k->evaluated = false;
        k->serial++;
        return CDYN_OK;
    }
    topology t;
    memset(&t, 0, sizeof t);
    cdyn__symmat_init(&t.a);
    cdyn_status st = CDYN_ERR_NO_MEMORY;
    bool laid_out = false;
    double *gather = k->gather ? k->gather
                               : cdyn__alloc_array(al, 2 * CDYN__CONSTRAINT_MAX_PARTICLES * 3,
                                                   sizeof *gather);
    if (!gather)
        goto fail;
    k->gather = gather;
    laid_out = true;
    if ((st = layout(sys, &t)) || (st = plan(sys, &t)))
        goto fail;
    if (k->opt.solver == CDYN_SOLVER_CG && (st = cdyn__cg_reserve(&k->cg, al, t.n_rows)))
        goto fail;

    /* Swap in, keeping the CG workspace and the gather buffer. */
    cdyn__cg keep_cg = k->cg;
    double *keep_gather = k->gather;
    cdyn__cg_init(&k->cg);
    k->gather = NULL;
    cdyn__constraints_free_topology(sys);
    k->cg = keep_cg;
    k->gather = keep_gather;
    k->n_active = t.n_active;
    k->n_rows = t.n_rows;
    k->n_blocks = t.n_blocks;
    k->n_terms = t.n_terms;
    k->n_first = t.n_first;
    k->all_rods = t.all_rods;
    k->terms_inline = t.terms_inline;
    k->tridiagonal = t.terms_inline;
    for (size_t i = 0; i < t.n_terms && k->tridiagonal; i++)
        k->tridiagonal = t.terms[i].bj / 2 == t.terms[i].bi / 2 + 1;
    k->ll = t.ll;
    k->scratch_len = t.scratch_len;
    k->active = t.active;
    k->blk_particle = t.blk_particle;
    k->jac = t.jac;
    k->n_driven = t.n_driven;
    k->g = t.all_rods ? NULL : t.rows;
    k->gt = t.n_driven ? t.rows + (t.all_rods ? 0 : (size_t)t.n_rows) : NULL;
    k->rhs = t.rows + (row_arrays(t.all_rods, t.n_driven) - 2) * (size_t)t.n_rows;
    k->lambda = k->rhs + t.n_rows;
    k->diag = t.diag;
    k->scratch = t.scratch;
    k->terms = t.terms;
    k->a = t.a;
    k->dirty = false;
    k->evaluated = false;
    k->serial++;
    return CDYN_OK;

fail:
    if (laid_out)
        restore_layout(k);
    if (!k->gather)
        cdyn__free_array(al, gather, 2 * CDYN__CONSTRAINT_MAX_PARTICLES * 3, sizeof *gather);
    uint32_t rows = t.n_rows;
    topology_free(al, &t, sys->dim);
    return cdyn__fail(sys, st, "constraints: %s while laying out %u rows",
                      st == CDYN_ERR_NO_MEMORY ? "out of memory" : cdyn_status_string(st), rows);
}

cdyn_status cdyn__constraints_prepare(cdyn_system *sys)
{
    cdyn_status st = rebuild(sys);
    return st ? st : cdyn__constraints_chain_split_reserve(sys);
}
