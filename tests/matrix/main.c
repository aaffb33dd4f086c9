/* The bad-input matrix (matrix.h): every row of every header's table, and a
 * check that every function of src/cdyn.map has a row, so that a function
 * added later fails this test until it gets its cases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runner.h"

static const mx_table *const tables[] = {
    &mx_rows_core,       &mx_rows_system,     &mx_rows_particle, &mx_rows_force,
    &mx_rows_pair,       &mx_rows_constraint, &mx_rows_parametric, &mx_rows_projection,
    &mx_rows_motion,     &mx_rows_shapes,     &mx_rows_ground,   &mx_rows_rigid,
    &mx_rows_lattice,    &mx_rows_kinetics,   &mx_rows_box,      &mx_rows_snapshot,
    &mx_rows_tasks,
};
enum { N_TABLES = sizeof tables / sizeof *tables };

static mx_report totals;

/* The exported names of the linker map: the identifiers ending in ';'
 * between "global:" and "local:". */
static size_t read_map(char names[][64], size_t cap)
{
    FILE *f = fopen(MX_MAP_PATH, "r");
    if (!f)
        return 0;
    size_t n = 0;
    bool global = false, comment = false;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        if (comment) {
            char *e = strstr(p, "*/");
            if (!e)
                continue;
            p = e + 2, comment = false;
        }
        char *o = strstr(p, "/*");
        if (o) {
            char *e = strstr(o, "*/");
            if (e)
                memset(o, ' ', (size_t)(e + 2 - o));
            else
                *o = 0, comment = true;
        }
        if (strstr(p, "global:"))
            global = true;
        if (strstr(p, "local:"))
            global = false;
        char id[64];
        if (global && sscanf(p, " %63[a-z0-9_];", id) == 1 && strncmp(id, "cdyn_", 5) == 0 &&
            n < cap)
            snprintf(names[n++], 64, "%s", id);
    }
    fclose(f);
    return n;
}

static void test_every_export_has_rows(void **state)
{
    (void)state;
    static char names[1024][64];
    size_t n = read_map(names, 1024), missing = 0;
    if (n == 0)
        fail_msg("cannot read the exports of %s", MX_MAP_PATH);
    for (size_t i = 0; i < n; i++) {
        size_t rows = 0;
        for (size_t t = 0; t < N_TABLES; t++)
            for (size_t r = 0; r < tables[t]->n; r++)
                rows += strcmp(tables[t]->rows[r].name, names[i]) == 0;
        if (rows == 0) {
            fprintf(stderr, "no row in the bad-input matrix for %s (tests/matrix/rows_*.c)\n",
                    names[i]);
            missing++;
        }
    }
    /* Every row names an export (no typo, no row of a removed function). */
    for (size_t t = 0; t < N_TABLES; t++)
        for (size_t r = 0; r < tables[t]->n; r++) {
            bool found = false;
            for (size_t i = 0; i < n && !found; i++)
                found = strcmp(tables[t]->rows[r].name, names[i]) == 0;
            if (!found) {
                fprintf(stderr, "row %s (%s) is not an export\n", tables[t]->rows[r].name,
                        tables[t]->header);
                missing++;
            }
        }
    assert_int_equal(missing, 0);
}

static void run_table(void **state)
{
    const mx_table *t = *state;
    mx_ctx *c = mx_ctx_new();
    mx_report r = {0, 0};
    const char *only = getenv("MX_ONLY"); /* one function's rows, when debugging */
    for (size_t i = 0; i < t->n; i++)
        if (!only || strcmp(only, t->rows[i].name) == 0)
            mx_run_row(c, &t->rows[i], &r);
    mx_ctx_free(c);
    printf("%s: %zu rows, %zu cases, %zu failed checks\n", t->header, t->n, r.cases,
           r.failures);
    totals.cases += r.cases;
    totals.failures += r.failures;
    if (r.failures)
        fail_msg("%zu failed checks in the rows of %s", r.failures, t->header);
}

int main(void)
{
    struct CMUnitTest tests[N_TABLES + 1];
    tests[0] = (struct CMUnitTest)cmocka_unit_test(test_every_export_has_rows);
    for (size_t i = 0; i < N_TABLES; i++) {
        tests[i + 1] = (struct CMUnitTest)cmocka_unit_test_prestate(run_table, (void *)tables[i]);
        tests[i + 1].name = tables[i]->header;
    }
    int rc = _cmocka_run_group_tests("bad_input_matrix", tests, N_TABLES + 1, NULL, NULL);
    size_t rows = 0;
    for (size_t t = 0; t < N_TABLES; t++)
        rows += tables[t]->n;
    printf("bad-input matrix: %zu cases in %zu rows, %zu failed checks\n", totals.cases, rows,
           totals.failures);
    return rc;
}
