/* White-box tests of the periodic box: the check that moves free clusters
 * back into the box runs in ranges of roots (on the host's threads when
 * the roots are many), and a root more than half a box out in any range,
 * the first, a middle one or the last, must be seen. The positions the
 * getters report are wrapped whatever the stored ones are, so only the
 * stored positions show whether the check ran. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "core/system.h"
#include "support.h"

#define N 70000u
#define LEN 100.0

/* A host that runs the items one at a time, last first. */
static void *reverse_enqueue(cdyn_task_fn task, uint32_t count, uint32_t min_range,
                             void *context, void *user)
{
    (void)min_range;
    ++*(unsigned *)user;
    for (uint32_t i = count; i-- > 0;)
        task(i, i + 1, context);
    return NULL;
}

static void reverse_finish(void *handle, void *user)
{
    (void)handle, (void)user;
}

/* N free unit masses in a periodic LEN x LEN box, slot @p fast at the
 * upper x face moving out at 7 box widths per 100 steps: after 8 steps of
 * 0.01 s it is 55 out, more than half the box, and the check before the
 * ninth step must move it back. Returns its stored x after 9 steps. */
static double stray_x_after_nine(uint32_t fast, bool threads)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET), CDYN_OK);
    uint64_t seed = 3;
    for (uint32_t i = 0; i < N; i++) {
        double x[2] = {50.0 + 49.0 * ts_rand_sym(&seed), 50.0 + 49.0 * ts_rand_sym(&seed)};
        double v[2] = {ts_rand_sym(&seed), ts_rand_sym(&seed)};
        if (i == fast) {
            x[0] = 99.0;
            v[0] = 700.0;
        }
        cdyn_particle p;
        assert_int_equal(cdyn_particle_add(sys, 1.0, x, v, &p), CDYN_OK);
    }
    assert_int_equal(cdyn_system_set_box(sys, (double[]){0, 0}, (double[]){LEN, LEN},
                                         (bool[]){true, true}),
                     CDYN_OK);
    unsigned loops = 0;
    cdyn_task_system ts;
    cdyn_task_system_init(&ts);
    ts.worker_count = 2;
    ts.enqueue = reverse_enqueue;
    ts.finish = reverse_finish;
    ts.user = &loops;
    if (threads)
        assert_int_equal(cdyn_system_set_task_system(sys, &ts), CDYN_OK);
    for (int s = 0; s < 9; s++)
        assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    if (threads)
        assert_true(loops > 0);
    const double x = sys->x[2 * (size_t)fast];
    cdyn_system_destroy(sys);
    return x;
}

static void test_stray_moved_back_in_every_range(void **state)
{
    (void)state;
    const uint32_t slots[4] = {0, 4095, 35001, N - 1};
    for (int k = 0; k < 4; k++)
        for (int threads = 0; threads <= 1; threads++) {
            /* 99 + 9 x 7 = 162 if it stayed out; one box length less if
             * moved back. */
            const double x = stray_x_after_nine(slots[k], threads);
            if (!(x > 61.9 && x < 62.1))
                fail_msg("slot %u (%s): stored x %.6g, not moved back into the box", slots[k],
                         threads ? "threads" : "serial", x);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stray_moved_back_in_every_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
