/* The model parameters: defaults, bounds and their setter and getter. */
#include "lattice/params.h"

#include <math.h>

/* Defaults (docs/lattice.md says why each one). Heights are measured in
 * units of the initial noise amplitude. */
#define DEFAULT_E 2.0
#define DEFAULT_D 0.01
#define DEFAULT_M 2.0
#define DEFAULT_S 2.0
#define DEFAULT_R 100.0

void cdyn__lattice_params_default(cdyn_lattice *lat)
{
    lat->E = DEFAULT_E;
    lat->D = DEFAULT_D;
    lat->M = DEFAULT_M;
    lat->S = DEFAULT_S;
    lat->slide_r = 1.0 - 1.0 / DEFAULT_S;
    lat->R = DEFAULT_R;
    lat->slide_rule = CDYN_LATTICE_SLIDE_CASCADE;
}

cdyn_status cdyn__lattice_param_check(const cdyn_lattice *lat, const char *fn,
                                      cdyn_lattice_param param, double value)
{
    const cdyn_status bad = CDYN_ERR_INVALID_ARGUMENT;
    switch (param) {
    case CDYN_LATTICE_E:
        if (!isfinite(value))
            return cdyn__lattice_fail(lat, bad, fn, "E must be finite (got %g)", value);
        return CDYN_OK;
    case CDYN_LATTICE_D:
        /* Bounded like the heights, so that h - D never overflows. */
        if (!(value >= 0 && value <= CDYN_LATTICE_HEIGHT_MAX))
            return cdyn__lattice_fail(lat, bad, fn, "D must be in [0, %g] (got %g)",
                                      CDYN_LATTICE_HEIGHT_MAX, value);
        return CDYN_OK;
    case CDYN_LATTICE_M:
        if (!(value >= 0))
            return cdyn__lattice_fail(lat, bad, fn, "M must be >= 0 (got %g)", value);
        return CDYN_OK;
    case CDYN_LATTICE_S:
        if (!(value > 1 && value <= CDYN_LATTICE_S_MAX))
            return cdyn__lattice_fail(lat, bad, fn, "S must be in (1, %g] (got %g)",
                                      CDYN_LATTICE_S_MAX, value);
        return CDYN_OK;
    case CDYN_LATTICE_R:
        if (!isfinite(value) || !(value >= 1))
            return cdyn__lattice_fail(lat, bad, fn, "R must be finite and >= 1 (got %g)",
                                      value);
        return CDYN_OK;
    }
    return cdyn__lattice_fail(lat, bad, fn, "unknown parameter %d", (int)param);
}

cdyn_status cdyn_lattice_set_param(cdyn_lattice *lat, cdyn_lattice_param param, double value)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn_status st = cdyn__lattice_param_check(lat, "cdyn_lattice_set_param", param, value);
    if (st != CDYN_OK)
        return st;
    switch (param) {
    case CDYN_LATTICE_E: lat->E = value; break;
    case CDYN_LATTICE_D: lat->D = value; break;
    case CDYN_LATTICE_M:
    case CDYN_LATTICE_S: {
        /* A new threshold or divisor: slopes may stand that no longer
         * should, so the next rain relaxes the whole surface first. */
        double *p = param == CDYN_LATTICE_M ? &lat->M : &lat->S;
        if (value != *p)
            lat->needs_relax = true;
        *p = value;
        lat->slide_r = 1.0 - 1.0 / lat->S;
        break;
    }
    case CDYN_LATTICE_R: lat->R = value; break;
    }
    return CDYN_OK;
}

cdyn_status cdyn_lattice_get_param(const cdyn_lattice *lat, cdyn_lattice_param param,
                                   double *out)
{
    static const char fn[] = "cdyn_lattice_get_param";
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "out is NULL");
    switch (param) {
    case CDYN_LATTICE_E: *out = lat->E; return CDYN_OK;
    case CDYN_LATTICE_D: *out = lat->D; return CDYN_OK;
    case CDYN_LATTICE_M: *out = lat->M; return CDYN_OK;
    case CDYN_LATTICE_S: *out = lat->S; return CDYN_OK;
    case CDYN_LATTICE_R: *out = lat->R; return CDYN_OK;
    }
    return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "unknown parameter %d",
                              (int)param);
}

cdyn_status cdyn_lattice_set_slide_rule(cdyn_lattice *lat, cdyn_lattice_slide_rule rule)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    switch (rule) {
    case CDYN_LATTICE_SLIDE_CASCADE:
    case CDYN_LATTICE_SLIDE_ONCE:
        /* Under the new rule every slope above M should be waiting: list
         * them all again before the next drop. */
        if (rule != lat->slide_rule)
            lat->needs_relax = true;
        lat->slide_rule = rule;
        return CDYN_OK;
    }
    return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, "cdyn_lattice_set_slide_rule",
                              "unknown slide rule %d", (int)rule);
}

cdyn_status cdyn_lattice_get_slide_rule(const cdyn_lattice *lat, cdyn_lattice_slide_rule *out)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, "cdyn_lattice_get_slide_rule",
                                  "out is NULL");
    *out = lat->slide_rule;
    return CDYN_OK;
}
