/* A hand-written step of the standard chain, as a yardstick for the
 * library's figures on the machine at hand. */
#ifndef CDYN_BENCH_CHAIN_REFERENCE_H
#define CDYN_BENCH_CHAIN_REFERENCE_H

/* Runs the standard chain of design.md section 11 (n rods, 1000 steps of
 * symplectic Euler with the library's default feedback ks = 100, kd = 20)
 * with a plain tridiagonal (Thomas) solve written for this chain alone.
 * Returns the time per step in seconds (-1 when out of memory) and the
 * worst relative rod error at t = 1 s in *rod_error, which must agree with
 * the library's row to the digits printed. */
double chain_reference_step_seconds(long n, double *rod_error);

#endif
