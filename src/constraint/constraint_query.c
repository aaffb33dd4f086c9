/* Queries of the constraint store: multipliers, forces, residuals, and the
 * Jacobian blocks the rod kernels leave unstored. */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "generalized/generalized.h"
#include "core/system.h"

cdyn_status cdyn_constraint_get_multipliers(const cdyn_system *sys, cdyn_constraint h,
                                            double *out, size_t capacity)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    uint32_t i;
    cdyn_status st = cdyn__constraint_slot(sys, h, "constraint_get_multipliers", &i);
    if (st)
        return st;
    const cdyn__constraints *k = sys->cons;
    const cdyn__constraint *c = &k->c[i];
    if (cdyn__constraint_is_shape(c))
        return CDYN_OK; /* its particle has no rows in the solve: nothing to write */
    if (!out || capacity < c->n_rows)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "constraint_get_multipliers: need room for %u values", c->n_rows);
    bool live = k->evaluated && !k->dirty && c->enabled;
    for (uint32_t r = 0; r < c->n_rows; r++)
        out[r] = live ? k->lambda[c->row + r] : 0.0;
    return CDYN_OK;
}

/* Block @p j (0 or 1) of rod @p c at the positions @p x: -d for its first
 * particle, d for its second, d = x_b - x_a. */
static void rod_block(const cdyn_system *sys, const cdyn__constraint *c, uint32_t j,
                      const double *x, double *out)
{
    const size_t d = (size_t)sys->dim;
    const double *xa = x + (size_t)c->u.particle[0] * d, *xb = x + (size_t)c->u.particle[1] * d;
    for (size_t q = 0; q < d; q++)
        out[q] = j == 0 ? xa[q] - xb[q] : xb[q] - xa[q];
}

cdyn_status cdyn_constraint_get_force(const cdyn_system *sys, cdyn_constraint h, cdyn_particle p,
                                      double *out)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    uint32_t i, s;
    cdyn_status st = cdyn__constraint_slot(sys, h, "constraint_get_force", &i);
    if (st || (st = cdyn__particle_slot(sys, p, "constraint_get_force", &s)))
        return st;
    if (!out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "constraint_get_force: NULL argument");
    const cdyn__constraints *k = sys->cons;
    const cdyn__constraint *c = &k->c[i];
    size_t d = (size_t)sys->dim;
    uint32_t j = 0;
    while (j < c->n_particles && cdyn__constraint_particle(c, j) != s)
        j++;
    if (j == c->n_particles)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "constraint_get_force: the particle is not held by this constraint");
    memset(out, 0, d * sizeof *out);
    if (cdyn__constraint_is_shape(c)) {
        memcpy(out, c->d.param->normal, d * sizeof *out);
        return CDYN_OK;
    }
    if (!k->evaluated || k->dirty || !c->enabled)
        return CDYN_OK;
    for (uint32_t r = 0; r < c->n_rows; r++) {
        const double *jb = k->jac + ((size_t)c->blk + (size_t)r * c->n_particles + j) * d;
        double formed[3];
        if (k->blocks_unstored) { /* a rod, whose blocks follow from the positions */
            rod_block(sys, c, j, sys->x, formed);
            jb = formed;
        }
        for (size_t q = 0; q < d; q++)
            out[q] += k->lambda[c->row + r] * jb[q];
    }
    return CDYN_OK;
}

cdyn_status cdyn_system_get_constraint_forces(const cdyn_system *sys, double *out,
                                              size_t capacity)
{
    const char *what = "get_constraint_forces";
    cdyn_status st = cdyn__enter_query(sys, out, what);
    if (st)
        return st;
    const size_t d = (size_t)sys->dim, n = (size_t)sys->particles.count * d;
    if (capacity < n)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: capacity %zu < %zu doubles needed", what, capacity, n);
    memset(out, 0, n * sizeof *out);
    const cdyn__constraints *k = sys->cons;
    if (!k)
        return CDYN_OK;
    /* The same terms as cdyn_constraint_get_force, summed per particle. */
    const bool live = k->evaluated && !k->dirty;
    for (uint32_t i = 0; i < k->slots.count; i++) {
        const cdyn__constraint *c = &k->c[i];
        if (!k->slots.alive[i])
            continue;
        if (cdyn__constraint_is_shape(c)) {
            double *o = out + (size_t)cdyn__constraint_particle(c, 0) * d;
            for (size_t q = 0; q < d; q++)
                o[q] += c->d.param->normal[q];
            continue;
        }
        if (!live || !c->enabled)
            continue;
        for (uint32_t r = 0; r < c->n_rows; r++) {
            const double lam = k->lambda[c->row + r];
            for (uint32_t j = 0; j < c->n_particles; j++) {
                const double *jb = k->jac + ((size_t)c->blk + (size_t)r * c->n_particles + j) * d;
                double formed[3];
                if (k->blocks_unstored) {
                    rod_block(sys, c, j, sys->x, formed);
                    jb = formed;
                }
                double *o = out + (size_t)cdyn__constraint_particle(c, j) * d;
                for (size_t q = 0; q < d; q++)
                    o[q] += lam * jb[q];
            }
        }
    }
    return CDYN_OK;
}

static cdyn_status residuals(cdyn_system *sys, double *position, double *velocity)
{
    cdyn_status st = cdyn__check_mutable(sys, "compute_constraint_residuals");
    if (st || (st = cdyn__constraints_prepare(sys)))
        return st;
    double worst_p = 0, worst_v = 0;
    cdyn__constraints *k = sys->cons;
    size_t d = (size_t)sys->dim;
    for (uint32_t a = 0; k && a < k->n_active; a++) {
        cdyn__constraint *c = &k->c[k->active[a]];
        /* Evaluated into scratch: the solve's arrays keep the last evaluation. */
        double *g = k->scratch, *bias = g + c->n_rows, *jac = bias + c->n_rows;
        double *gt = jac + (size_t)c->n_rows * c->n_particles * d;
        sys->in_step = true;
        st = cdyn__constraint_eval(sys, c, sys->time, sys->x, sys->v, g, jac, bias, gt);
        sys->in_step = false;
        if (st)
            return st;
        for (uint32_t r = 0; r < c->n_rows; r++) {
            /* Scaled by the largest block of the row, so that a rod's
             * residual is its length error whether or not an end is fixed. */
            double block2 = 0, gd = gt[r];
            for (uint32_t j = 0; j < c->n_particles; j++) {
                const double *jb = jac + ((size_t)r * c->n_particles + j) * d;
                const double *vp = sys->v + cdyn__constraint_particle(c, j) * d;
                double b2 = 0;
                for (size_t q = 0; q < d; q++) {
                    b2 += jb[q] * jb[q];
                    gd += jb[q] * vp[q];
                }
                block2 = fmax(block2, b2);
            }
            double scale = block2 > 0 ? 1.0 / sqrt(block2) : 1.0;
            worst_p = fmax(worst_p, fabs(g[r]) * scale);
            worst_v = fmax(worst_v, fabs(gd) * scale);
        }
    }
    if (position)
        *position = worst_p;
    if (velocity)
        *velocity = worst_v;
    return CDYN_OK;
}

cdyn_status cdyn_system_compute_constraint_residuals(cdyn_system *sys, double *position,
                                                     double *velocity)
{
    const uint64_t mark = cdyn__failure_mark(sys);
    return cdyn__blame(sys, residuals(sys, position, velocity), mark,
                       "compute_constraint_residuals", NULL);
}

void cdyn__constraints_materialize_jac(cdyn_system *sys)
{
    cdyn__constraints *k = sys->cons;
    if (!k || !k->blocks_unstored)
        return;
    /* A topology changed since (dirty) reads no multiplier or block of the
     * old one, and its constraints may be gone: nothing to write. */
    if (k->dirty || !k->evaluated) {
        k->blocks_unstored = false;
        return;
    }
    const size_t d = (size_t)sys->dim;
    for (uint32_t i = 0; i < k->n_active; i++) {
        const cdyn__constraint *c = &k->c[k->active[i]];
        for (uint32_t j = 0; j < 2; j++)
            rod_block(sys, c, j, sys->x, k->jac + ((size_t)c->blk + j) * d);
    }
    k->blocks_unstored = false;
}
