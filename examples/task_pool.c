/* A POSIX-threads pool for cdyn's task callbacks (task_pool.h).
 *
 * One loop at a time: enqueue publishes it under a new generation number
 * and wakes the threads; everyone, the enqueueing thread included (in
 * finish), claims ranges from an atomic counter until none is left; the
 * last range to finish tells finish. The loop is cut into up to four
 * ranges per worker (at least min_range items each, of equal size when a
 * count of two to four per worker divides the items) so that a thread the
 * machine's other jobs hold back leaves its share to the others. Idle
 * threads spin briefly before they sleep on a condition variable: the
 * library hands over loops of tens of microseconds, which a sleep and a
 * wake-up would cost again. */
#define _POSIX_C_SOURCE 200809L
#include "task_pool.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#define MAX_WORKERS 256u
#define RANGES_PER_WORKER 4u
#define SPINS 20000

struct task_pool {
    unsigned workers;
    pthread_t threads[MAX_WORKERS];
    struct worker_arg_s {
        struct task_pool *pool;
        unsigned id;
    } args[MAX_WORKERS];
    unsigned started;

    pthread_mutex_t lock;
    pthread_cond_t wake; /* a new loop, or stop */
    pthread_cond_t done; /* the last range of a loop has finished */

    /* The loop in flight. Its fields are written by enqueue before it
     * publishes the loop's generation (release) and read after a claim of
     * that generation (acquire); atomics (relaxed) only because a thread
     * late from the previous loop may read them while they change, and
     * then fails its claim. */
    _Atomic(cdyn_task_fn) task;
    _Atomic(void *) context;
    atomic_uint count, n_ranges;
    atomic_uint generation;
    /* generation << 32 | ranges << 16 | the next range to claim: a thread
     * claims a range of the loop it woke for while one is left, or nothing
     * (so a claim never reads the fields of a later loop). */
    atomic_ullong claim;
    atomic_uint finished; /* ranges of the loop in flight finished */
    atomic_bool stop;

    atomic_ullong loops, ranges_caller, ranges_threads;
    /* CPU time each thread spent in ranges of the loop in flight (the
     * caller's slot last), and over all loops the sum of the largest
     * (what the loops would take on idle cores) and the sum of all. */
    double busy_now[MAX_WORKERS];
    double critical, busy;
    /* The enqueueing thread's CPU time from entering enqueue to leaving
     * finish (its ranges and its waits), summed, and when it last entered. */
    double inside, entered;
    bool fixed; /* task_pool_set_fixed; read by the enqueueing thread only */
};

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs ranges of loop @p gen until none is left, as thread @p id; returns
 * how many. */
static unsigned run_ranges(task_pool *p, unsigned gen, unsigned id)
{
    unsigned ran = 0;
    double t0 = thread_cpu();
    for (;;) {
        unsigned long long word = atomic_load_explicit(&p->claim, memory_order_acquire);
        if ((unsigned)(word >> 32) != gen)
            break;
        /* The word: generation, the loop's mode (bit 31), its range count
         * and the count of ranges claimed. A claim is a compare-exchange of
         * the whole word, so a thread late for a loop that has finished
         * (a new generation, or every range claimed) never runs it. */
        unsigned k = (unsigned)word & 0xffffu, n = (unsigned)(word >> 16) & 0x7fffu;
        const bool fixed = (word >> 31) & 1u;
        if (k >= n || (fixed && (ran || id >= n)))
            break;
        if (!atomic_compare_exchange_weak_explicit(&p->claim, &word, word + 1,
                                                   memory_order_acq_rel, memory_order_relaxed))
            continue;
        if (fixed)
            k = id; /* in a fixed loop range id is thread id's, whenever it comes */
        /* Range k of n: the items spread evenly, so that no range holds
         * the remainder of the division alone. */
        const uint64_t count = atomic_load_explicit(&p->count, memory_order_relaxed);
        const uint32_t begin = (uint32_t)(count * k / n), end = (uint32_t)(count * (k + 1) / n);
        cdyn_task_fn task = atomic_load_explicit(&p->task, memory_order_relaxed);
        task(begin, end, atomic_load_explicit(&p->context, memory_order_relaxed));
        ran++;
        /* Counted before the range is reported finished: finish reads it
         * after the last report. */
        double t1 = thread_cpu();
        p->busy_now[id] += t1 - t0;
        t0 = t1;
        if (atomic_fetch_add_explicit(&p->finished, 1, memory_order_acq_rel) + 1 == n) {
            pthread_mutex_lock(&p->lock);
            pthread_cond_broadcast(&p->done);
            pthread_mutex_unlock(&p->lock);
        }
    }
    return ran;
}

typedef struct worker_arg_s worker_arg;

static void *worker_main(void *arg)
{
    const worker_arg *wa = arg;
    task_pool *p = wa->pool;
    const unsigned id = wa->id;
    unsigned seen = 0;
    for (;;) {
        /* Wait for a generation after the one last seen: spin, then sleep. */
        unsigned g = 0;
        for (int s = 0; s < SPINS; s++) {
            g = atomic_load_explicit(&p->generation, memory_order_acquire);
            if (g != seen || atomic_load_explicit(&p->stop, memory_order_acquire))
                break;
            if (s % 64 == 63)
                sched_yield();
        }
        if (g == seen && !atomic_load_explicit(&p->stop, memory_order_acquire)) {
            pthread_mutex_lock(&p->lock);
            while ((g = atomic_load_explicit(&p->generation, memory_order_acquire)) == seen &&
                   !atomic_load_explicit(&p->stop, memory_order_acquire))
                pthread_cond_wait(&p->wake, &p->lock);
            pthread_mutex_unlock(&p->lock);
        }
        if (atomic_load_explicit(&p->stop, memory_order_acquire))
            return NULL;
        seen = g;
        unsigned ran = run_ranges(p, g, id);
        atomic_fetch_add_explicit(&p->ranges_threads, ran, memory_order_relaxed);
    }
}

static void *enqueue(cdyn_task_fn task, uint32_t count, uint32_t min_range, void *context,
                     void *user)
{
    task_pool *p = user;
    p->entered = thread_cpu();
    uint32_t n = p->workers * (p->fixed ? 1 : RANGES_PER_WORKER);
    if (min_range < 1)
        min_range = 1;
    if (n > count / min_range)
        n = count / min_range;
    if (n < 1)
        n = 1;
    /* Rather ranges of equal size: the most ranges, down to two per worker,
     * that divide the items evenly. */
    for (uint32_t m = n; m >= 2 * p->workers && m > 1; m--)
        if (count % m == 0) {
            n = m;
            break;
        }
    atomic_store_explicit(&p->task, task, memory_order_relaxed);
    atomic_store_explicit(&p->context, context, memory_order_relaxed);
    atomic_store_explicit(&p->count, count, memory_order_relaxed);
    atomic_store_explicit(&p->n_ranges, n, memory_order_relaxed);
    atomic_store_explicit(&p->finished, 0, memory_order_relaxed);
    atomic_fetch_add_explicit(&p->loops, 1, memory_order_relaxed);
    for (unsigned i = 0; i < p->workers; i++)
        p->busy_now[i] = 0;
    /* Publish: the fields above happen before a claim of the new
     * generation. */
    unsigned gen = atomic_load_explicit(&p->generation, memory_order_relaxed) + 1;
    atomic_store_explicit(&p->claim,
                          (unsigned long long)gen << 32 | (unsigned long long)p->fixed << 31 |
                              (unsigned long long)n << 16,
                          memory_order_release);
    pthread_mutex_lock(&p->lock);
    atomic_store_explicit(&p->generation, gen, memory_order_release);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    return p;
}

static void finish(void *handle, void *user)
{
    task_pool *p = user;
    (void)handle;
    unsigned n = atomic_load_explicit(&p->n_ranges, memory_order_relaxed);
    unsigned ran = run_ranges(p, (unsigned)(atomic_load_explicit(&p->claim,
                                                                 memory_order_relaxed) >> 32),
                              p->workers - 1);
    atomic_fetch_add_explicit(&p->ranges_caller, ran, memory_order_relaxed);
    bool done = false;
    for (int s = 0; s < SPINS && !done; s++) {
        done = atomic_load_explicit(&p->finished, memory_order_acquire) == n;
        if (!done && s % 64 == 63)
            sched_yield();
    }
    if (!done) {
        pthread_mutex_lock(&p->lock);
        while (atomic_load_explicit(&p->finished, memory_order_acquire) != n)
            pthread_cond_wait(&p->done, &p->lock);
        pthread_mutex_unlock(&p->lock);
    }
    double most = 0;
    for (unsigned i = 0; i < p->workers; i++) {
        most = p->busy_now[i] > most ? p->busy_now[i] : most;
        p->busy += p->busy_now[i];
    }
    p->critical += most;
    p->inside += thread_cpu() - p->entered;
}

int task_pool_create(unsigned workers, task_pool **out)
{
    *out = NULL;
    if (workers < 1 || workers > MAX_WORKERS)
        return -1;
    task_pool *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    p->workers = workers;
    atomic_init(&p->task, NULL);
    atomic_init(&p->context, NULL);
    atomic_init(&p->count, 0);
    atomic_init(&p->n_ranges, 0);
    atomic_init(&p->generation, 0);
    atomic_init(&p->claim, 0);
    atomic_init(&p->finished, 0);
    atomic_init(&p->stop, false);
    atomic_init(&p->loops, 0);
    atomic_init(&p->ranges_caller, 0);
    atomic_init(&p->ranges_threads, 0);
    if (pthread_mutex_init(&p->lock, NULL)) {
        free(p);
        return -1;
    }
    if (pthread_cond_init(&p->wake, NULL) || pthread_cond_init(&p->done, NULL)) {
        pthread_mutex_destroy(&p->lock);
        free(p);
        return -1;
    }
    for (unsigned i = 0; i + 1 < workers; i++) {
        p->args[i].pool = p;
        p->args[i].id = i;
        if (pthread_create(&p->threads[i], NULL, worker_main, &p->args[i])) {
            task_pool_destroy(p);
            return -1;
        }
        p->started++;
    }
    *out = p;
    return 0;
}

void task_pool_destroy(task_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    atomic_store_explicit(&p->stop, true, memory_order_release);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->started; i++)
        pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

void task_pool_fill(task_pool *pool, cdyn_task_system *ts)
{
    ts->worker_count = pool->workers;
    ts->enqueue = enqueue;
    ts->finish = finish;
    ts->user = pool;
}

void task_pool_set_fixed(task_pool *pool, int fixed)
{
    pool->fixed = fixed != 0;
}

void task_pool_times(const task_pool *pool, double *critical, double *busy, double *inside)
{
    *critical = pool->critical;
    *busy = pool->busy;
    *inside = pool->inside;
}

void task_pool_counts(const task_pool *pool, unsigned long long *loops,
                      unsigned long long *ranges_caller, unsigned long long *ranges_threads)
{
    task_pool *p = (task_pool *)pool;
    *loops = atomic_load(&p->loops);
    *ranges_caller = atomic_load(&p->ranges_caller);
    *ranges_threads = atomic_load(&p->ranges_threads);
}
