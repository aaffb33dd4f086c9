/* Rows of status.h and version.h: strings for any status, the version. */
#include <string.h>

#include "matrix.h"

/* An unknown status gets the documented fallback, reported as a refusal. */
static cdyn_status w_status_string(mx_ctx *c, mx_val *a)
{
    const char *s = cdyn_status_string((cdyn_status)a[0].i);
    if (!s || !*s)
        mx_broken(c, "no string");
    return s && strcmp(s, "unknown status") == 0 ? CDYN_ERR_INVALID_ARGUMENT : CDYN_OK;
}

static cdyn_status w_status_name(mx_ctx *c, mx_val *a)
{
    const char *s = cdyn_status_name((cdyn_status)a[0].i);
    if (!s || strncmp(s, "CDYN_", 5) != 0)
        mx_broken(c, "no name");
    return s && strcmp(s, "CDYN_UNKNOWN") == 0 ? CDYN_ERR_INVALID_ARGUMENT : CDYN_OK;
}

static cdyn_status w_version(mx_ctx *c, mx_val *a)
{
    (void)a;
    if (cdyn_version() != CDYN_VERSION_NUMBER)
        mx_broken(c, "cdyn_version() != CDYN_VERSION_NUMBER");
    return CDYN_OK;
}

static cdyn_status w_version_string(mx_ctx *c, mx_val *a)
{
    (void)a;
    if (strcmp(cdyn_version_string(), CDYN_VERSION_STRING) != 0)
        mx_broken(c, "cdyn_version_string() != CDYN_VERSION_STRING");
    return CDYN_OK;
}

static const mx_row rows[] = {
    ROW(status_string, MX_Q, {ENUM(0, 13)}),
    ROW(status_name, MX_Q, {ENUM(0, 13)}),
    ROW(version, MX_Q, {0}),
    ROW(version_string, MX_Q, {0}),
};

const mx_table mx_rows_core = {"status.h, version.h", rows, sizeof rows / sizeof *rows};
