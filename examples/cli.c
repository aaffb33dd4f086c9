/* Command-line helpers shared by the examples. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    cdyn_integrator value;
} INTEGRATORS[] = {
    {"euler", CDYN_INTEGRATOR_EXPLICIT_EULER},
    {"symplectic", CDYN_INTEGRATOR_SYMPLECTIC_EULER},
    {"verlet", CDYN_INTEGRATOR_VELOCITY_VERLET},
    {"rk4", CDYN_INTEGRATOR_RK4},
    {"rk45", CDYN_INTEGRATOR_RK45},
    {"rattle", CDYN_INTEGRATOR_RATTLE},
    {"backward", CDYN_INTEGRATOR_BACKWARD_EULER},
};

enum { INTEGRATOR_COUNT = sizeof INTEGRATORS / sizeof INTEGRATORS[0] };

int cli_parse_double(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int cli_parse_integrator(const char *name, unsigned allowed, cdyn_integrator *out,
                         const char **canonical)
{
    for (size_t k = 0; k < INTEGRATOR_COUNT; k++)
        if (strcmp(name, INTEGRATORS[k].name) == 0 &&
            (allowed & CLI_INTEGRATOR_BIT(INTEGRATORS[k].value))) {
            *out = INTEGRATORS[k].value;
            *canonical = INTEGRATORS[k].name;
            return 0;
        }
    return -1;
}
