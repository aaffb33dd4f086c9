#include "shapes/domain.h"

#include <math.h>

cdyn__domain cdyn__domain_periodic(double lo, double hi)
{
    cdyn__domain d = {lo, hi, true, CDYN__END_OPEN, CDYN__END_OPEN};
    return d;
}

cdyn__domain cdyn__domain_interval(double lo, double hi, cdyn__end lo_end, cdyn__end hi_end)
{
    cdyn__domain d = {lo, hi, false, isfinite(lo) ? lo_end : CDYN__END_OPEN,
                      isfinite(hi) ? hi_end : CDYN__END_OPEN};
    return d;
}

cdyn_status cdyn__domain_window(cdyn__domain *d, double wlo, double whi)
{
    if (isnan(wlo) || isnan(whi) || wlo == INFINITY || whi == -INFINITY)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (d->periodic) {
        if (isinf(wlo) && isinf(whi))
            return CDYN_OK;
        if (isinf(wlo) || isinf(whi) || !(wlo < whi) || whi - wlo > d->hi - d->lo)
            return CDYN_ERR_INVALID_ARGUMENT;
        *d = cdyn__domain_interval(wlo, whi, CDYN__END_HARD, CDYN__END_HARD);
        return CDYN_OK;
    }
    cdyn__domain w = *d;
    if (wlo > w.lo) {
        w.lo = wlo;
        w.lo_end = CDYN__END_HARD;
    }
    if (whi < w.hi) {
        w.hi = whi;
        w.hi_end = CDYN__END_HARD;
    }
    if (!(w.lo < w.hi))
        return CDYN_ERR_INVALID_ARGUMENT;
    *d = w;
    return CDYN_OK;
}

cdyn_status cdyn__domain_callback(cdyn__domain *out, double wlo, double whi, bool periodic)
{
    if (isnan(wlo) || isnan(whi) || !(wlo < whi) || wlo == INFINITY || whi == -INFINITY)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (periodic) {
        if (!isfinite(wlo) || !isfinite(whi) || !isfinite(whi - wlo))
            return CDYN_ERR_INVALID_ARGUMENT;
        *out = cdyn__domain_periodic(wlo, whi);
    } else {
        *out = cdyn__domain_interval(wlo, whi, CDYN__END_HARD, CDYN__END_HARD);
    }
    return CDYN_OK;
}

double cdyn__domain_wrap(const cdyn__domain *d, double q)
{
    if (!d->periodic || (q >= d->lo && q < d->hi))
        return q;
    double period = d->hi - d->lo;
    double t = fmod(q - d->lo, period);
    if (t < 0.0)
        t += period;
    double w = d->lo + t;
    return w < d->hi ? w : d->lo;
}

double cdyn__domain_clamp(const cdyn__domain *d, double q)
{
    if (d->periodic)
        return cdyn__domain_wrap(d, q);
    return q < d->lo ? d->lo : (q > d->hi ? d->hi : q);
}

bool cdyn__domain_is_bounded(const cdyn__domain *d)
{
    return isfinite(d->lo) && isfinite(d->hi);
}
