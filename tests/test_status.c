/* Status codes: pinned values, one name and one string each; the version. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

static void test_pinned_values(void **state)
{
    (void)state;
    assert_int_equal(CDYN_OK, 0);
    assert_int_equal(CDYN_ERR_INVALID_ARGUMENT, 1);
    assert_int_equal(CDYN_ERR_INVALID_HANDLE, 2);
    assert_int_equal(CDYN_ERR_STALE_HANDLE, 3);
    assert_int_equal(CDYN_ERR_NO_MEMORY, 4);
    assert_int_equal(CDYN_ERR_SINGULAR, 5);
    assert_int_equal(CDYN_ERR_NOT_CONVERGED, 6);
    assert_int_equal(CDYN_ERR_DIVERGED, 7);
    assert_int_equal(CDYN_ERR_UNSUPPORTED, 8);
    assert_int_equal(CDYN_ERR_CALLBACK, 9);
    assert_int_equal(CDYN_ERR_BUSY, 10);
    assert_int_equal(CDYN_ERR_IO, 11);
    assert_int_equal(CDYN_ERR_FORMAT, 12);
    assert_int_equal(CDYN_ERR_UNRESOLVED, 13);
}

static void test_names_and_strings_are_distinct(void **state)
{
    (void)state;
    for (int a = 0; a <= 13; a++) {
        const char *na = cdyn_status_name((cdyn_status)a);
        const char *sa = cdyn_status_string((cdyn_status)a);
        assert_non_null(na);
        assert_non_null(sa);
        assert_true(strncmp(na, "CDYN_", 5) == 0);
        assert_string_not_equal(na, "CDYN_UNKNOWN");
        assert_string_not_equal(sa, "unknown status");
        for (int b = 0; b < a; b++) {
            assert_string_not_equal(na, cdyn_status_name((cdyn_status)b));
            assert_string_not_equal(sa, cdyn_status_string((cdyn_status)b));
        }
    }
    assert_string_equal(cdyn_status_name(CDYN_ERR_STALE_HANDLE), "CDYN_ERR_STALE_HANDLE");
    assert_string_equal(cdyn_status_name(CDYN_OK), "CDYN_OK");
}

static void test_unknown_status(void **state)
{
    (void)state;
    assert_string_equal(cdyn_status_name((cdyn_status)14), "CDYN_UNKNOWN");
    assert_string_equal(cdyn_status_string((cdyn_status)-1), "unknown status");
}

static void test_version_matches_headers(void **state)
{
    (void)state;
    assert_int_equal(cdyn_version(), CDYN_VERSION_NUMBER);
    assert_string_equal(cdyn_version_string(), CDYN_VERSION_STRING);
    char buf[64];
    snprintf(buf, sizeof buf, "%d.%d.%d", CDYN_VERSION_MAJOR, CDYN_VERSION_MINOR,
             CDYN_VERSION_PATCH);
    assert_string_equal(buf, cdyn_version_string());
    assert_int_equal(CDYN_VERSION_NUMBER,
                     CDYN_VERSION_MAJOR * 10000 + CDYN_VERSION_MINOR * 100 + CDYN_VERSION_PATCH);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pinned_values),
        cmocka_unit_test(test_names_and_strings_are_distinct),
        cmocka_unit_test(test_unknown_status),
        cmocka_unit_test(test_version_matches_headers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
