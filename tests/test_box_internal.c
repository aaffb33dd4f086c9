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

/* The stored x of slot @p fast of ts_stray_scene after 9 steps, serially
 * or through a host (with @p threads). */
static double stray_x_after_nine(uint32_t fast, bool threads)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    cdyn_particle stray;
    assert_int_equal(ts_stray_scene(sys, fast, 3, &stray), CDYN_OK);
    ts_reverse_host host = {0, 0, 0};
    const cdyn_task_system ts = ts_reverse_tasks(&host, 2);
    if (threads)
        assert_int_equal(cdyn_system_set_task_system(sys, &ts), CDYN_OK);
    for (int s = 0; s < 9; s++)
        assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    if (threads)
        assert_true(host.loops > 0);
    const double x = sys->x[2 * (size_t)fast];
    cdyn_system_destroy(sys);
    return x;
}

static void test_stray_moved_back_in_every_range(void **state)
{
    (void)state;
    const uint32_t slots[4] = {0, 4095, 35001, TS_STRAY_PARTICLES - 1};
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
