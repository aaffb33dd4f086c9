/* A small thread pool over POSIX threads that implements cdyn's task
 * callbacks (include/cdyn/tasks.h): the reference host for the examples,
 * the tests and the benchmarks, and a starting point for applications
 * without a pool of their own. Not part of the library: a program that
 * uses it compiles task_pool.c and links the threads library itself.
 *
 *   task_pool *pool;
 *   task_pool_create(4, &pool);         // the caller and 3 more threads
 *   cdyn_task_system ts;
 *   task_pool_fill(pool, &ts);
 *   cdyn_system_set_task_system(sys, &ts);
 *   ... steps ...
 *   cdyn_system_set_task_system(sys, NULL);
 *   task_pool_destroy(pool);
 *
 * One pool serves one thread that enqueues at a time (one system or lattice
 * stepping, or several used in turn from the same thread). It allocates
 * only at creation. */
#ifndef CDYN_EXAMPLE_TASK_POOL_H
#define CDYN_EXAMPLE_TASK_POOL_H

#include <cdyn/tasks.h>

typedef struct task_pool task_pool;

/* Starts @p workers - 1 threads (the thread that enqueues is the last
 * worker); @p workers in 1 .. 256. Returns 0, or -1 (nothing created). */
int task_pool_create(unsigned workers, task_pool **out);

/* Stops the threads and frees the pool; NULL is ignored. No loop may be in
 * flight. */
void task_pool_destroy(task_pool *pool);

/* Fills @p ts (cdyn_task_system_init first) with the pool's callbacks and
 * worker count. */
void task_pool_fill(task_pool *pool, cdyn_task_system *ts);

/* Loops handed over so far, and ranges run by the enqueueing thread and by
 * the pool's own threads (for the benchmarks). */
void task_pool_counts(const task_pool *pool, unsigned long long *loops,
                      unsigned long long *ranges_caller, unsigned long long *ranges_threads);

/* With @p fixed, each loop is cut into one range per thread, range i for
 * thread i (the caller last), instead of several ranges taken by whichever
 * thread is free: slower on a machine shared with other jobs (a thread
 * held back holds its range back), but then task_pool_times measures the
 * work of each thread as it would be on idle cores. Set between steps. */
void task_pool_set_fixed(task_pool *pool, int fixed);

/* CPU time spent in loops handed over so far: @p critical sums, loop by
 * loop, the largest time one thread spent in it (what the loops would take
 * with a core per thread, whatever the machine's other load), @p busy the
 * time of all threads, @p inside the enqueueing thread's time from entering
 * enqueue to leaving finish (its ranges and its waiting). The enqueueing
 * thread's CPU time over some steps, less @p inside, plus @p critical, is
 * then what those steps would take on idle cores (memory bandwidth and
 * wake-up latency aside). Read between steps. */
void task_pool_times(const task_pool *pool, double *critical, double *busy, double *inside);

#endif
