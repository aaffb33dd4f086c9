/* A sketch of the one-thread RATTLE chain kernel that is still to be
 * written (docs/performance.md): the standard chain's four sweeps with
 * twisted eliminations, a row from each end of the chain in the two lanes
 * of a vector register. Written for this chain alone, like
 * chain_reference.c, to measure what the method can reach. */
#ifndef CDYN_BENCH_CHAIN_TWISTED_H
#define CDYN_BENCH_CHAIN_TWISTED_H

/* Runs the standard chain (pivot and n unit masses, n even, rods of 0.1 m,
 * gravity) with RATTLE at time step @p dt: one warm-started Newton solve a
 * step, one velocity solve. Takes one step, timed into *first_step, then
 * @p steps more. Returns the seconds per step over those (-1 when out of
 * memory, n odd or below 4, or built without vector extensions);
 * *rod_error: the worst relative rod error at the end; @p positions (may
 * be NULL): 2 (n + 1) doubles, the final positions. */
double chain_twisted_run(long n, double dt, int steps, double *rod_error, double *first_step,
                         double *positions);

#endif
