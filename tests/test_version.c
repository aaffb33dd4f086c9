/* Versions: the header's macros and the linked library agree, and the
 * number is made of the parts as documented. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

static void test_macros_and_library_agree(void **state)
{
    (void)state;
    assert_int_equal(CDYN_VERSION_NUMBER,
                     CDYN_VERSION_MAJOR * 10000 + CDYN_VERSION_MINOR * 100 + CDYN_VERSION_PATCH);
    assert_int_equal(cdyn_version(), CDYN_VERSION_NUMBER);
    assert_string_equal(cdyn_version_string(), CDYN_VERSION_STRING);
    char expect[32];
    snprintf(expect, sizeof expect, "%d.%d.%d", CDYN_VERSION_MAJOR, CDYN_VERSION_MINOR,
             CDYN_VERSION_PATCH);
    assert_string_equal(CDYN_VERSION_STRING, expect);
    /* The parts fit the two decimal digits the number gives them. */
    assert_true(CDYN_VERSION_MINOR >= 0 && CDYN_VERSION_MINOR < 100);
    assert_true(CDYN_VERSION_PATCH >= 0 && CDYN_VERSION_PATCH < 100);
}

static void test_string_is_static(void **state)
{
    (void)state;
    assert_ptr_equal(cdyn_version_string(), cdyn_version_string());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_macros_and_library_agree),
        cmocka_unit_test(test_string_is_static),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
