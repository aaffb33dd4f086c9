/* The factorization RATTLE carries from one step to the next, seen from
 * outside a step: whether the next position projection would reuse the
 * one held, and holding it again in a system made from a snapshot
 * (snapshot/), so that the next step reuses it as the saved system's would
 * (the same bits either way, but not the same count of factorizations,
 * and with built-in constraints a warm start that only the reuse takes). */
#include <string.h>

#include "constraint/constraint.h"
#include "core/system.h"
#include "projection/projection.h"
#include "solver/ldlt.h"

const double *cdyn__projection_held(const cdyn_system *sys)
{
    const cdyn__projection *pr = sys->proj;
    const cdyn__constraints *k = sys->cons;
    if (!pr || !k || k->dirty || k->n_rows == 0 || !pr->valid || !pr->built ||
        pr->serial != k->serial || pr->factor_serial != k->serial ||
        pr->stamp != k->stats.solves || !k->ldlt.factored ||
        pr->opt.method != CDYN_PROJECTION_NEWTON)
        return NULL;
    if (!pr->pure)
        return pr->aval; /* compared with the matrix assembled then */
    /* Built-in kinds: reused at the same positions and masses, with
     * k->jac holding G there. */
    size_t n = sys->particles.count, len = n * (size_t)sys->dim;
    if (k->blocks_unstored || memcmp(pr->xcopy, sys->x, len * sizeof *sys->x) != 0 ||
        memcmp(pr->wcopy, sys->inv_mass, n * sizeof *sys->inv_mass) != 0)
        return NULL;
    return k->a.val;
}

cdyn_status cdyn__projection_hold(cdyn_system *sys, const double *values, const double *dv,
                                  double dv_h)
{
    cdyn__constraints *k = sys->cons;
    cdyn_status st = cdyn__projection_begin(sys, "system_load");
    if (st)
        return st;
    cdyn__projection *pr = sys->proj;
    if (pr->opt.method != CDYN_PROJECTION_NEWTON || !k || k->n_rows == 0 || (dv && !pr->pure))
        return CDYN_ERR_INVALID_ARGUMENT;
    if ((st = cdyn__constraints_analysis(sys, "system_load")))
        return st;
    memcpy(k->a.val, values, (size_t)k->a.nnz * sizeof *values);
    if (cdyn__ldlt_factor(&k->ldlt, &k->a, NULL, CDYN__REDUNDANT_PIVOT))
        return CDYN_ERR_INVALID_ARGUMENT;
    size_t n = sys->particles.count, len = n * (size_t)sys->dim;
    if (pr->pure) {
        memcpy(pr->xcopy, sys->x, len * sizeof *sys->x);
        memcpy(pr->wcopy, sys->inv_mass, n * sizeof *sys->inv_mass);
    } else {
        memcpy(pr->aval, values, (size_t)k->a.nnz * sizeof *values);
    }
    pr->valid = true;
    pr->stamp = k->stats.solves;
    pr->factor_serial = k->serial;
    if (dv) {
        memcpy(pr->dx, dv, len * sizeof *dv);
        pr->dv_valid = true;
        pr->dv_h = dv_h;
    }
    return CDYN_OK;
}
