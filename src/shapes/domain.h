/* Parameter domains of shapes: an interval, periodic or with ends.
 *
 * A periodic domain [lo, hi) wraps with period hi - lo. A non-periodic one is
 * [lo, hi] with each end infinite (OPEN), a hard end (HARD: a bead stops
 * there), or a coordinate singularity (SINGULAR: the sphere's poles, where
 * the shape goes on but the parametrization degenerates).
 */
#ifndef CDYN__PARAMETRIC_DOMAIN_H
#define CDYN__PARAMETRIC_DOMAIN_H

#include <stdbool.h>

#include "cdyn/status.h"

typedef enum cdyn__end {
    CDYN__END_OPEN = 0,    /* infinite, or the domain is periodic */
    CDYN__END_HARD = 1,    /* the parameter stops here */
    CDYN__END_SINGULAR = 2 /* the parametrization degenerates here */
} cdyn__end;

typedef struct cdyn__domain {
    double lo, hi;
    bool periodic;
    cdyn__end lo_end, hi_end;
} cdyn__domain;

/* A periodic domain [lo, hi), lo < hi finite. */
cdyn__domain cdyn__domain_periodic(double lo, double hi);

/* A non-periodic domain [lo, hi]; an infinite bound gets an OPEN end, a
 * finite one the given kind. */
cdyn__domain cdyn__domain_interval(double lo, double hi, cdyn__end lo_end, cdyn__end hi_end);

/* Restricts @p d to the caller's window [wlo, whi] (infinite = keep the
 * natural bound). Periodic: both infinite keeps it periodic; both finite with
 * wlo < whi <= wlo + period makes it an interval with hard ends; one infinite
 * is refused. Non-periodic: intersection, refused when empty; bounds that the
 * window moved become hard ends. NaN refused. On error *d is unchanged. */
cdyn_status cdyn__domain_window(cdyn__domain *d, double wlo, double whi);

/* The domain of a callback shape: periodic (wlo, whi finite, wlo < whi) or
 * the interval [wlo, whi] with hard finite ends. */
cdyn_status cdyn__domain_callback(cdyn__domain *out, double wlo, double whi, bool periodic);

/* Periodic: q wrapped into [lo, hi). Otherwise q unchanged. */
double cdyn__domain_wrap(const cdyn__domain *d, double q);

/* Periodic: wrapped. Otherwise q clamped to [lo, hi]. */
double cdyn__domain_clamp(const cdyn__domain *d, double q);

/* Both bounds finite. */
bool cdyn__domain_is_bounded(const cdyn__domain *d);

#endif /* CDYN__PARAMETRIC_DOMAIN_H */
