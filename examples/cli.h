/* Command-line helpers shared by the examples: numbers and integrator names.
 * Not part of the library. */
#ifndef CDYN_EXAMPLE_CLI_H
#define CDYN_EXAMPLE_CLI_H

#include <cdyn/cdyn.h>

/* Bit of integrator @p i in the @p allowed masks below. */
#define CLI_INTEGRATOR_BIT(i) (1u << (unsigned)(i))
/* Every integrator of the library. */
#define CLI_ALL_INTEGRATORS 0xffffffffu
/* The explicit ones, which need no solver beyond the multiplier solve. */
#define CLI_EXPLICIT_INTEGRATORS                                                                   \
    (CLI_INTEGRATOR_BIT(CDYN_INTEGRATOR_EXPLICIT_EULER) |                                          \
     CLI_INTEGRATOR_BIT(CDYN_INTEGRATOR_SYMPLECTIC_EULER) |                                        \
     CLI_INTEGRATOR_BIT(CDYN_INTEGRATOR_VELOCITY_VERLET) |                                         \
     CLI_INTEGRATOR_BIT(CDYN_INTEGRATOR_RK4) | CLI_INTEGRATOR_BIT(CDYN_INTEGRATOR_RK45))

/* Parses the whole of @p s as a finite double. Returns 0, or -1 (and leaves
 * *out alone) for anything else. */
int cli_parse_double(const char *s, double *out);

/* Looks @p name up among euler, symplectic, verlet, rk4, rk45, rattle and
 * backward, keeping only those whose bit is set in @p allowed. On success
 * sets *out and *canonical (a string literal) and returns 0; -1 otherwise. */
int cli_parse_integrator(const char *name, unsigned allowed, cdyn_integrator *out,
                         const char **canonical);

#endif
