/* A host task system on the calling thread, for the suites that check the
 * library's parallel loops without threads (support.h). */
#include "support.h"

static void *reverse_enqueue(cdyn_task_fn task, uint32_t count, uint32_t min_range,
                             void *context, void *user)
{
    (void)min_range;
    ts_reverse_host *h = user;
    h->loops++;
    for (uint32_t i = count; i-- > 0;) {
        task(i, i + 1, context);
        h->items++;
    }
    return h; /* finish has nothing left to wait for */
}

static void reverse_finish(void *handle, void *user)
{
    ts_reverse_host *h = user;
    h->bad_handles += handle != user;
}

cdyn_task_system ts_reverse_tasks(ts_reverse_host *h, uint32_t workers)
{
    cdyn_task_system ts;
    cdyn_task_system_init(&ts);
    ts.worker_count = workers;
    ts.enqueue = reverse_enqueue;
    ts.finish = reverse_finish;
    ts.user = h;
    return ts;
}

cdyn_status ts_stray_scene(cdyn_system *sys, uint32_t fast, uint64_t seed, cdyn_particle *stray)
{
    cdyn_status st = cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET);
    for (uint32_t i = 0; i < TS_STRAY_PARTICLES && !st; i++) {
        double x[2] = {50.0 + 49.0 * ts_rand_sym(&seed), 50.0 + 49.0 * ts_rand_sym(&seed)};
        double v[2] = {ts_rand_sym(&seed), ts_rand_sym(&seed)};
        if (i == fast) {
            x[0] = 99.0;
            v[0] = 700.0;
        }
        cdyn_particle p;
        st = cdyn_particle_add(sys, 1.0, x, v, &p);
        if (i == fast)
            *stray = p;
    }
    if (!st)
        st = cdyn_system_set_box(sys, (double[]){0, 0}, (double[]){100, 100},
                                 (bool[]){true, true});
    return st;
}
