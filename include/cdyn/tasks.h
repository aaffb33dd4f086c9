/* cdyn: running a step's work on the host application's threads.
 *
 * The library starts no thread of its own. An application that has a
 * thread pool (or OpenMP, TBB, Grand Central Dispatch, a job system) may
 * hand it to a system or a lattice as two callbacks: "run this loop over
 * @c count items in parallel" (enqueue) and "wait until it is done"
 * (finish). The library then cuts the heavy loops of a step into items
 * and hands them over: gravity, springs and Lennard-Jones pair lists (user
 * callbacks stay on the calling thread), the rows of rigid rods in the
 * multiplier solve, contacts with grounds at rest, the partitioned chain
 * kernels (RATTLE's, and the multiplier solve's on rod chains), the passes
 * over the state of velocity Verlet, RK4, RK45 and the two explicit Euler
 * methods, and the neighbour lists' gathers. Everything else runs on the
 * calling thread, and
 * without a task system everything does, as it always has. A lattice
 * holds a task system too; its drainage accumulation does not use it yet.
 *
 * Results do not depend on the threads: how the work is cut into items
 * depends only on the system's shape (never on worker_count or on which
 * thread runs which range), and every sum across items is taken in item
 * order, so a step gives the same bits with 1, 2 or 64 workers
 * (tests/test_tasks.c). Without a task system it gives those bits too, but
 * for the chain kernels: long rod chains are cut into segments only for a
 * task system (on one thread the uncut kernels are faster), and the two
 * agree to round-off, not bit for bit. The guide is docs/performance.md,
 * which also shows a complete pool over POSIX threads
 * (examples/task_pool.c).
 *
 * The shape of these hooks follows the task callbacks of Box2D v3
 * (b2EnqueueTaskCallback / b2FinishTaskCallback).
 */
#ifndef CDYN_TASKS_H
#define CDYN_TASKS_H

#include <stddef.h>
#include <stdint.h>

#include "export.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A loop body of the library.
 *
 *  Does items @p begin .. @p end - 1 of the loop it was enqueued with. A task
 *  function never fails, never calls back into the application and may run
 *  on any thread; different ranges of one loop touch different memory, so
 *  they may run at the same time.
 *
 *  @param[in]     begin    The first item of the range.
 *  @param[in]     end      One past the last item of the range.
 *  @param[in,out] context  The library's, passed back unchanged.
 */
typedef void (*cdyn_task_fn)(uint32_t begin, uint32_t end, void *context);

/** The host's "parallel for".
 *
 *  Arranges for @p task to be called on ranges that together cover items
 *  0 .. @p count - 1 exactly once, each range at least @p min_range items
 *  long (except perhaps the last), on any threads and in any order, the
 *  calling thread included. It may return before the ranges have run.
 *
 *  @param[in]     task       The loop body.
 *  @param[in]     count      The number of items, at least 2.
 *  @param[in]     min_range  The fewest items worth a range of their own, at
 *                            least 1.
 *  @param[in,out] context    Passed to every call of @p task.
 *  @param[in,out] user       cdyn_task_system.user.
 *  @return A handle that the library passes to the finish callback next,
 *          before it reads any result; or NULL when every range has already
 *          run (a host that ran the loop itself), and finish is then not
 *          called.
 */
typedef void *(*cdyn_task_enqueue_fn)(cdyn_task_fn task, uint32_t count, uint32_t min_range,
                                      void *context, void *user);

/** The host's "wait".
 *
 *  Returns once every range of the loop whose handle enqueue returned has
 *  run (the calling thread may run ranges meanwhile). Called exactly once per
 *  non-NULL handle, on the thread that called enqueue.
 *
 *  @param[in,out] handle  What enqueue returned.
 *  @param[in,out] user    cdyn_task_system.user.
 */
typedef void (*cdyn_task_finish_fn)(void *handle, void *user);

/** A host task system.
 *
 *  Fill with cdyn_task_system_init(), then set both callbacks; the size field
 *  lets the struct grow. The library copies the struct: @c user must stay
 *  valid, and the callbacks usable, for as long as the object holds it.
 */
typedef struct cdyn_task_system {
    size_t size; /**< sizeof(cdyn_task_system), set by the init function */
    /** The number of threads that may run ranges at once, the calling thread
     *  included, 1 .. 1024; default 1. Only a hint: with 1 the library
     *  does not call enqueue at all (the loops run inline); with more it
     *  hands over every loop worth the overhead (roughly 50 microseconds of
     *  work or more). Results do not depend on it. */
    uint32_t worker_count;
    /** Required: the parallel for (cdyn_task_enqueue_fn). */
    cdyn_task_enqueue_fn enqueue;
    /** Required: the wait (cdyn_task_finish_fn). */
    cdyn_task_finish_fn finish;
    /** Passed back as the last argument of both callbacks. */
    void *user;
} cdyn_task_system;

/** Fills a task system with the defaults.
 *
 *  The defaults are a serial task system: size set, worker_count 1, no
 *  callbacks (everything on the calling thread).
 *
 *  @param[out] ts  The struct to fill; NULL is ignored.
 *  @since 0.1
 */
CDYN_API void cdyn_task_system_init(cdyn_task_system *ts);

/** Hands the heavy loops of a system's steps to a host task system.
 *
 *  The steps of @p sys (and cdyn_system_evaluate()) then cut their heavy
 *  loops into items fixed by the system's shape and hand them to @p tasks;
 *  the state after a step is the same, bit for bit, with any number of
 *  workers, and without a task system but for long rod chains under RATTLE
 *  or the direct multiplier solve (which are cut into segments for a task
 *  system only, and then agree with the serial run to round-off). Allowed between steps at any time; the
 *  next step uses it, and a loaded or cloned system has none. Nothing is allocated here; the first step after it
 *  may size a scratch array, as after a change of shape.
 *
 *  @param[in,out] sys    The system.
 *  @param[in]     tasks  The host's callbacks, copied; NULL goes back to
 *                        running everything on the calling thread. Its
 *                        @c user must stay valid while the system holds it.
 *  @retval CDYN_OK                    the task system was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, or @p tasks has a size
 *                                     field other than
 *                                     sizeof(cdyn_task_system) (use the init
 *                                     function), a missing callback or a
 *                                     worker_count outside 1 .. 1024; the
 *                                     system is unchanged.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_set_task_system(cdyn_system *sys, const cdyn_task_system *tasks);

/** Copies the task system of a system.
 *
 *  @param[in]     sys  The system.
 *  @param[in,out] out  Receives the task system (the defaults of
 *                      cdyn_task_system_init() when none is set), up to the
 *                      size the caller wrote in out->size.
 *  @retval CDYN_OK                    @p out was filled.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or out->size
 *                                     is below sizeof(size_t).
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_system_get_task_system(const cdyn_system *sys, cdyn_task_system *out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_TASKS_H */
