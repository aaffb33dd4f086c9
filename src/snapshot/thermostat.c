/* The thermostat section of a snapshot: the Langevin options as last set
 * and the noise's counter (the steps taken since), which together say the
 * random numbers of the next step.
 *
 *     u8 present; then f64 kT, f64 gamma, u64 seed, u64 count */
#include <math.h>
#include <string.h>

#include "core/system.h"
#include "snapshot/snapshot.h"
#include "step/langevin_state.h"

void cdyn__save_thermostat(cdyn__save *S)
{
    const cdyn__langevin *l = S->sys->langevin;
    cdyn__out_u8(&S->w, l ? 1 : 0);
    if (!l)
        return;
    cdyn__out_f64(&S->w, l->opt.kT);
    cdyn__out_f64(&S->w, l->opt.gamma);
    cdyn__out_u64(&S->w, l->opt.seed);
    cdyn__out_u64(&S->w, l->count);
}

bool cdyn__load_thermostat(cdyn__load *L)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    if (!cdyn__in_flag(r, "thermostat: present"))
        return cdyn__load_ok(L);
    cdyn_langevin_options o;
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    o.kT = cdyn__in_finite(r, "thermostat: kT");
    o.gamma = cdyn__in_finite(r, "thermostat: gamma");
    o.seed = cdyn__in_u64(r);
    uint64_t count = cdyn__in_u64(r);
    if (!cdyn__load_ok(L))
        return false;
    if (o.kT < 0 || o.gamma < 0)
        return cdyn__in_fail(r, "thermostat: kT %g or gamma %g < 0", o.kT, o.gamma);
    cdyn__langevin *l = sys->alloc.alloc(sizeof *l, sys->alloc.user);
    if (!l)
        return cdyn__load_oom(L, "thermostat");
    l->opt = o;
    l->count = count;
    sys->langevin = l;
    return true;
}
