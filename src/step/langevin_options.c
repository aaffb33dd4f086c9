/* The options of the Langevin thermostat (thermostat.h), kept in its state
 * (step/langevin.h). */
#include <math.h>
#include <string.h>

#include "core/sized.h"
#include "core/system.h"
#include "step/langevin.h"

void cdyn_langevin_options_init(cdyn_langevin_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->size = sizeof *options;
}

static cdyn_status check(const cdyn_system *sys, const cdyn_langevin_options *o)
{
    const char *what = "set_langevin_options";
    cdyn_status st = cdyn__sized_check(sys, o, sizeof *o, what, "cdyn_langevin_options");
    if (st)
        return st;
    if (!isfinite(o->kT) || o->kT < 0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: kT %g must be finite and >= 0",
                          what, o->kT);
    if (!isfinite(o->gamma) || o->gamma < 0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: gamma %g must be finite and >= 0",
                          what, o->gamma);
    return CDYN_OK;
}

cdyn_status cdyn_system_set_langevin_options(cdyn_system *sys,
                                             const cdyn_langevin_options *options)
{
    const char *what = "set_langevin_options";
    cdyn_status st = cdyn__enter_change(sys, options, what);
    if (st || (st = check(sys, options)))
        return st;
    cdyn__langevin *l = sys->langevin;
    if (!l) {
        /* Turning it off needs no state: the defaults stand for it. */
        if (options->gamma == 0 && options->kT == 0 && options->seed == 0)
            return CDYN_OK;
        l = sys->alloc.alloc(sizeof *l, sys->alloc.user);
        if (!l)
            return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
        sys->langevin = l;
    }
    l->opt = *options;
    l->count = 0;
    return CDYN_OK;
}

cdyn_status cdyn_system_get_langevin_options(const cdyn_system *sys, cdyn_langevin_options *out)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn_langevin_options o;
    if (sys->langevin)
        o = sys->langevin->opt;
    else
        cdyn_langevin_options_init(&o);
    return cdyn__sized_get(sys, out, &o, sizeof o, "get_langevin_options");
}
