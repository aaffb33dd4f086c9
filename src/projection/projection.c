/* Projection options, state and report; the checks before a projection and
 * the post-step projection of the integrators other than RATTLE. The
 * numerics are in projection_solve.c. */
#include "projection/projection.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "constraint/constraint.h"
#include "constraint/kind.h"
#include "core/sized.h"
#include "core/system.h"

#define DEFAULT_TOLERANCE 1e-10
#define DEFAULT_MAX_ITERATIONS 1000

void cdyn_projection_options_init(cdyn_projection_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->size = sizeof *options;
    options->enabled = 0;
    options->method = CDYN_PROJECTION_NEWTON;
    options->position_tolerance = DEFAULT_TOLERANCE;
    options->velocity_tolerance = DEFAULT_TOLERANCE;
    options->max_iterations = DEFAULT_MAX_ITERATIONS;
}

cdyn_status cdyn__projection_ensure(cdyn_system *sys, const char *what)
{
    if (sys->proj)
        return CDYN_OK;
    cdyn__projection *pr = cdyn__calloc_array(&sys->alloc, 1, sizeof *pr);
    if (!pr)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory for the projection state",
                          what);
    cdyn_projection_options_init(&pr->opt);
    pr->stats.size = sizeof pr->stats;
    sys->proj = pr;
    return CDYN_OK;
}

/* The rod-chain arrays live in two blocks: per row (seven arrays of
 * doubles, then four of indices; rows + 1 entries each, for the path
 * starts' end mark) and per particle (two index arrays); its segments in
 * a third (chain_plan.c). */
#define CHAIN_ROW_DOUBLES 7
#define CHAIN_ROW_BYTES (4 * sizeof(uint32_t) + CHAIN_ROW_DOUBLES * sizeof(double))

static void *alloc_chain_rows(const cdyn_allocator *al, size_t rows)
{
    return cdyn__calloc_array(al, rows + 1, CHAIN_ROW_BYTES);
}

static void free_chain_rows(const cdyn_allocator *al, void *block, size_t rows)
{
    if (block)
        cdyn__free_array(al, block, rows + 1, CHAIN_ROW_BYTES);
}

static void free_chain_particles(const cdyn_allocator *al, void *block, size_t np)
{
    cdyn__free_array(al, block, np, 2 * sizeof(uint32_t));
}

/* Points the chain arrays into their blocks (doubles first: aligned). */
static void set_chain_rows(cdyn__projection *pr, void *block, size_t rows)
{
    size_t m = rows + 1;
    double *d = block;
    double **arrays[CHAIN_ROW_DOUBLES] = {&pr->chain.row_length, &pr->chain.nc,
                                          &pr->chain.ny,         &pr->chain.ns,
                                          &pr->chain.pinv,       &pr->chain.lower,
                                          &pr->chain.af};
    for (size_t i = 0; i < CHAIN_ROW_DOUBLES; i++)
        *arrays[i] = d + i * m;
    pr->chain.vz = pr->chain.nc;
    pr->chain.vz2 = pr->chain.ny;
    pr->chain.dres = pr->chain.ns;
    uint32_t *u = (uint32_t *)(void *)(d + CHAIN_ROW_DOUBLES * m);
    pr->chain.row_from = u;
    pr->chain.row_to = u + m;
    pr->chain.row_of = u + 2 * m;
    pr->chain.path_start = u + 3 * m;
}

void cdyn__projection_destroy(cdyn_system *sys)
{
    cdyn__projection *pr = sys->proj;
    if (!pr)
        return;
    const cdyn_allocator *al = &sys->alloc;
    cdyn__free_array(al, pr->nu, 3 * pr->cap_rows, sizeof *pr->nu);
    cdyn__free_array(al, pr->len, pr->cap_rows, sizeof *pr->len);
    cdyn__free_array(al, pr->ends, 2 * pr->cap_rows, sizeof *pr->ends);
    if (pr->ready)
        cdyn__free_array(al, pr->ready, pr->cap_rows + 1, sizeof *pr->ready);
    cdyn__free_array(al, pr->aval, pr->cap_nnz, sizeof *pr->aval);
    cdyn__free_array(al, pr->dx, pr->cap_len, sizeof *pr->dx);
    cdyn__free_array(al, pr->xs, pr->cap_len, sizeof *pr->xs);
    cdyn__free_array(al, pr->xcopy, pr->cap_len, sizeof *pr->xcopy);
    cdyn__free_array(al, pr->wcopy, pr->cap_particles, sizeof *pr->wcopy);
    free_chain_rows(al, pr->chain.row_length, pr->cap_rows);
    free_chain_particles(al, pr->chain.free_particles, pr->cap_particles);
    cdyn__chain_free_segs(sys, &pr->chain);
    cdyn__free_array(al, pr, 1, sizeof *pr);
    sys->proj = NULL;
}

/* Makes the arrays hold the current topology and particle capacity; on
 * failure nothing changed. New arrays start zeroed (dx must). */
static cdyn_status reserve(cdyn_system *sys, const char *who)
{
    cdyn__projection *pr = sys->proj;
    const cdyn__constraints *k = sys->cons;
    const cdyn_allocator *al = &sys->alloc;
    size_t rows = k->n_rows, nnz = k->a.nnz, np = sys->particles.capacity;
    size_t len = np * (size_t)sys->dim;
    if (rows <= pr->cap_rows && nnz <= pr->cap_nnz && len <= pr->cap_len &&
        np <= pr->cap_particles)
        return CDYN_OK;
    double *nu = pr->nu, *lens = pr->len, *aval = pr->aval, *dx = pr->dx, *xs = pr->xs;
    double *wcopy = pr->wcopy, *xcopy = pr->xcopy;
    uint32_t *ends = pr->ends, *ready = pr->ready, *cpart = pr->chain.free_particles;
    void *crows = pr->chain.row_length;
    bool grow_rows = rows > pr->cap_rows, grow_nnz = nnz > pr->cap_nnz;
    bool grow_len = len > pr->cap_len, grow_np = np > pr->cap_particles;
    if (grow_rows) {
        nu = cdyn__calloc_array(al, 3 * rows, sizeof *nu); /* nu, resid, mu */
        lens = cdyn__calloc_array(al, rows, sizeof *lens);
        ends = cdyn__calloc_array(al, 2 * rows, sizeof *ends);
        ready = cdyn__calloc_array(al, rows + 1, sizeof *ready);
        crows = alloc_chain_rows(al, rows);
    }
    if (grow_nnz)
        aval = cdyn__calloc_array(al, nnz, sizeof *aval);
    if (grow_len) {
        dx = cdyn__calloc_array(al, len, sizeof *dx);
        xs = cdyn__calloc_array(al, len, sizeof *xs);
        xcopy = cdyn__calloc_array(al, len, sizeof *xcopy);
    }
    if (grow_np) {
        wcopy = cdyn__calloc_array(al, np, sizeof *wcopy);
        cpart = cdyn__calloc_array(al, np, 2 * sizeof *cpart);
    }
    if (!nu || !lens || !ends || !ready || !aval || !dx || !xs || !xcopy || !wcopy || !crows ||
        !cpart) {
        if (grow_rows) {
            cdyn__free_array(al, nu, 3 * rows, sizeof *nu);
            cdyn__free_array(al, lens, rows, sizeof *lens);
            cdyn__free_array(al, ends, 2 * rows, sizeof *ends);
            cdyn__free_array(al, ready, rows + 1, sizeof *ready);
            free_chain_rows(al, crows, rows);
        }
        if (grow_nnz)
            cdyn__free_array(al, aval, nnz, sizeof *aval);
        if (grow_len) {
            cdyn__free_array(al, dx, len, sizeof *dx);
            cdyn__free_array(al, xs, len, sizeof *xs);
            cdyn__free_array(al, xcopy, len, sizeof *xcopy);
        }
        if (grow_np) {
            cdyn__free_array(al, wcopy, np, sizeof *wcopy);
            free_chain_particles(al, cpart, np);
        }
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY,
                          "%s: out of memory for the projection of %zu rows", who, rows);
    }
    if (grow_rows) {
        cdyn__free_array(al, pr->nu, 3 * pr->cap_rows, sizeof *pr->nu);
        cdyn__free_array(al, pr->len, pr->cap_rows, sizeof *pr->len);
        cdyn__free_array(al, pr->ends, 2 * pr->cap_rows, sizeof *pr->ends);
        cdyn__free_array(al, pr->ready, pr->cap_rows + 1, sizeof *pr->ready);
        pr->nu = nu;
        pr->resid = nu + rows;
        pr->mu = nu + 2 * rows;
        pr->len = lens;
        pr->ends = ends;
        pr->ready = ready;
        free_chain_rows(al, pr->chain.row_length, pr->cap_rows);
        set_chain_rows(pr, crows, rows);
        pr->cap_rows = rows;
        pr->built = false;
    }
    if (grow_nnz) {
        cdyn__free_array(al, pr->aval, pr->cap_nnz, sizeof *pr->aval);
        pr->aval = aval;
        pr->cap_nnz = nnz;
        pr->valid = false;
    }
    if (grow_len) {
        cdyn__free_array(al, pr->dx, pr->cap_len, sizeof *pr->dx);
        cdyn__free_array(al, pr->xs, pr->cap_len, sizeof *pr->xs);
        cdyn__free_array(al, pr->xcopy, pr->cap_len, sizeof *pr->xcopy);
        pr->dx = dx;
        pr->xs = xs;
        pr->xcopy = xcopy;
        pr->cap_len = len;
        pr->valid = false;
        pr->dv_valid = false;
    }
    if (grow_np) {
        cdyn__free_array(al, pr->wcopy, pr->cap_particles, sizeof *pr->wcopy);
        pr->wcopy = wcopy;
        free_chain_particles(al, pr->chain.free_particles, pr->cap_particles);
        pr->chain.free_particles = cpart;
        pr->chain.fixed_hubs = cpart + np;
        pr->cap_particles = np;
        pr->built = false;
        pr->valid = false;
    }
    return CDYN_OK;
}

/* What the projection needs to know of a new topology: whether every row
 * is a rod, whether every kind is built in, and for rods the compact arrays
 * and the schedule of the fused pass (projection_solve.c): ready[s] is the
 * last row that moves a particle of row s, after which row s's residual is
 * final. The scratch positions xs hold, for each particle, the last row
 * touching it (exact in a double). */
static cdyn_status build(cdyn_system *sys)
{
    cdyn__projection *pr = sys->proj;
    const cdyn__constraints *k = sys->cons;
    bool rods = k->n_rows == k->n_active, pure = true;
    for (uint32_t a = 0; a < k->n_active; a++) {
        const cdyn__constraint *c = &k->c[k->active[a]];
        rods = rods && cdyn__constraint_path(c) == CDYN__ROWS_ROD;
        pure = pure && cdyn__constraint_pure(c);
    }
    if (rods) {
        double *last = pr->xs;
        for (uint32_t a = 0; a < k->n_active; a++) {
            const cdyn__constraint *c = &k->c[k->active[a]];
            pr->ends[2 * (size_t)c->row] = c->u.particle[0];
            pr->ends[2 * (size_t)c->row + 1] = c->u.particle[1];
            pr->len[c->row] = c->d.p[0];
            last[c->u.particle[0]] = last[c->u.particle[1]] = (double)c->row;
        }
        for (uint32_t r = 0; r < k->n_rows; r++) {
            double a = last[pr->ends[2 * (size_t)r]], b = last[pr->ends[2 * (size_t)r + 1]];
            pr->ready[r] = (uint32_t)(a > b ? a : b);
        }
        pr->ready[k->n_rows] = UINT32_MAX;
    }
    pr->rods = rods;
    pr->pure = pure;
    pr->serial = k->serial;
    pr->valid = false;
    cdyn_status st = cdyn__projection_chain_plan(sys);
    pr->built = st == CDYN_OK; /* a plan out of memory is made again next time */
    return st;
}

cdyn_status cdyn__projection_begin(cdyn_system *sys, const char *who)
{
    if (sys->param_of)
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "%s: projection (and RATTLE) cannot treat particles on curves or "
                          "surfaces, whose mass depends on their position; use RK4 or "
                          "symplectic Euler for such systems", who);
    cdyn_status st = cdyn__projection_ensure(sys, who);
    if (st)
        return st;
    sys->proj->who = who;
    cdyn__constraints *k = sys->cons;
    if (!k || k->n_rows == 0)
        return CDYN_OK;
    for (uint32_t a = 0; k->any_compliance && a < k->n_active; a++) {
        const cdyn__constraint *c = &k->c[k->active[a]];
        if (c->compliance > 0) {
            uint32_t slot = k->active[a];
            unsigned long long h = cdyn__handle_make(CDYN__KIND_CONSTRAINT, sys->salt,
                                                     k->slots.generation[slot], slot);
            return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                              "%s: constraint 0x%016llx is compliant (%g); projection needs "
                              "rigid constraints (set its compliance to 0, or model it as a "
                              "spring force)", who, h, c->compliance);
        }
    }
    if ((st = reserve(sys, who)))
        return st;
    cdyn__projection *pr = sys->proj;
    if (!pr->built || pr->serial != k->serial)
        return build(sys);
    return CDYN_OK;
}

bool cdyn__projection_enabled(const cdyn_system *sys)
{
    const cdyn__projection *pr = sys->proj;
    return pr && pr->opt.enabled && sys->cons && sys->cons->n_rows > 0;
}

cdyn_status cdyn__projection_after_step(cdyn_system *sys, double t1)
{
    cdyn_status st = cdyn__projection_begin(sys, "step (projection)");
    if (st)
        return st;
    /* G at the unprojected end point: the projection is then the closest
     * point in the mass metric, to first order. */
    if ((st = cdyn__projection_positions(sys, t1, sys->x_new, t1, sys->x_new, NULL, 0.0)))
        return st;
    return cdyn__projection_velocities(sys, t1, sys->x_new, sys->v_new, false, 0.0);
}

/* ------------------------------------------------------------------------
 * Public functions
 * ------------------------------------------------------------------------ */

static cdyn_status check_options(const cdyn_system *sys, const cdyn_projection_options *o)
{
    const char *what = "set_projection_options";
    cdyn_status st = cdyn__sized_check(sys, o, sizeof *o, what, "cdyn_projection_options");
    if (st)
        return st;
    if (o->enabled != 0 && o->enabled != 1)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: enabled %d must be 0 or 1", what,
                          o->enabled);
    if (o->method != CDYN_PROJECTION_SHAKE && o->method != CDYN_PROJECTION_NEWTON)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: unknown method %d", what,
                          (int)o->method);
    if (!isfinite(o->position_tolerance) || !(o->position_tolerance > 0) ||
        !(o->position_tolerance < 1) || !isfinite(o->velocity_tolerance) ||
        !(o->velocity_tolerance > 0) || !(o->velocity_tolerance < 1))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: tolerances %g, %g must be finite, > 0 and < 1", what,
                          o->position_tolerance, o->velocity_tolerance);
    if (o->max_iterations < 1 || o->max_iterations > UINT32_MAX)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: max_iterations %zu must be in 1 .. 2^32 - 1", what,
                          o->max_iterations);
    return CDYN_OK;
}

cdyn_status cdyn_system_set_projection_options(cdyn_system *sys,
                                               const cdyn_projection_options *options)
{
    const char *what = "set_projection_options";
    cdyn_status st = cdyn__enter_change(sys, options, what);
    if (st || (st = check_options(sys, options)) || (st = cdyn__projection_ensure(sys, what)))
        return st;
    if (options->method != sys->proj->opt.method)
        sys->proj->valid = false;
    sys->proj->opt = *options;
    return CDYN_OK;
}

cdyn_status cdyn_system_get_projection_options(const cdyn_system *sys,
                                               cdyn_projection_options *out)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn_projection_options o;
    if (sys->proj)
        o = sys->proj->opt;
    else
        cdyn_projection_options_init(&o);
    return cdyn__sized_get(sys, out, &o, sizeof o, "get_projection_options");
}

cdyn_status cdyn_system_get_projection_stats(const cdyn_system *sys, cdyn_projection_stats *out)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn_projection_stats s;
    memset(&s, 0, sizeof s);
    if (sys->proj)
        s = sys->proj->stats;
    return cdyn__sized_get(sys, out, &s, sizeof s, "get_projection_stats");
}
