/* A hand-written step of the standard chain, as a yardstick for the
 * library's figures on the machine at hand. */
#ifndef CDYN_BENCH_CHAIN_REFERENCE_H
#define CDYN_BENCH_CHAIN_REFERENCE_H

/* Runs the standard chain (n rods, 1000 steps of
 * symplectic Euler with the library's default feedback ks = 100, kd = 20)
 * with a plain tridiagonal (Thomas) solve written for this chain alone.
 * Returns the time per step in seconds (-1 when out of memory) and the
 * worst relative rod error at t = 1 s in *rod_error, which must agree with
 * the library's row to the digits printed. */
double chain_reference_step_seconds(long n, double *rod_error);

/* The same chain with RATTLE (velocity Verlet; positions projected by exact
 * Newton on the tridiagonal Jacobian G(x*) W G(x0)^T from the previous
 * step's multipliers until every rod is within 1e-12 of its length,
 * velocities by one tridiagonal solve), written for this chain alone.
 * Returns the time per step in seconds over the steps run (-1 when out of
 * memory), *steps the steps completed (1000, or fewer when Newton stalls),
 * *newton the Newton solves per step and *rod_error the worst relative rod
 * error at the end. */
double chain_reference_rattle_seconds(long n, int *steps, double *newton, double *rod_error);

/* As chain_reference_rattle_seconds with time step @p dt (s) and at most
 * @p max_steps steps. With @p first_step (may be NULL), one step more is
 * taken first and timed apart into it (wall), and the time per step is of
 * the steps after it; *cpu_per_step (may be NULL): the thread's CPU time
 * per step over the same steps. */
double chain_reference_rattle_run(long n, double dt, int max_steps, int *steps, double *newton,
                                  double *rod_error, double *first_step, double *cpu_per_step);

#endif
