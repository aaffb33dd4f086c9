/* The public rate queries at the current state, with the work space's
 * reaction-rate scratch. */
#include <math.h>

#include "kinetics/kinetics.h"
#include "kinetics/rates.h"
#include "kinetics/workspace.h"

/* The public queries: rates at the current state, with the workspace's
 * reaction-rate scratch (allocated by the first call after a change). */
static cdyn_status query(cdyn_kinetics *kin, const char *fn, double *out, size_t capacity,
                         bool species)
{
    cdyn_status st = cdyn__kin_enter(kin, fn);
    if (st)
        return st;
    size_t need = species ? kin->sp.n : kin->rx.n;
    if (!out)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn, "out is NULL");
    if (capacity < need)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "capacity %zu is below the %zu values", capacity, need);
    if ((st = cdyn__kin_work_prepare(kin, fn, false)))
        return st;
    double *v = kin->work->v;
    kin->busy = true;
    st = species ? cdyn__kin_species_rates(kin, fn, kin->t, kin->sp.c, v, out)
                 : cdyn__kin_reaction_rates(kin, fn, kin->t, kin->sp.c, out);
    kin->busy = false;
    if (st)
        return st;
    for (size_t i = 0; i < need; i++)
        if (!isfinite(out[i]))
            return cdyn__kin_fail(kin, CDYN_ERR_DIVERGED, fn, "the rate of %s %zu is %g",
                                  species ? "species" : "reaction", i, out[i]);
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_get_reaction_rates(cdyn_kinetics *kin, double *out, size_t capacity)
{
    return query(kin, "cdyn_kinetics_get_reaction_rates", out, capacity, false);
}

cdyn_status cdyn_kinetics_get_species_rates(cdyn_kinetics *kin, double *out, size_t capacity)
{
    return query(kin, "cdyn_kinetics_get_species_rates", out, capacity, true);
}
