/* Running the matrix's rows. Test code. */
#ifndef CDYN_MATRIX_RUNNER_H
#define CDYN_MATRIX_RUNNER_H

#include <stddef.h>

#include "matrix.h"

typedef struct mx_report {
    size_t cases;    /* calls made: baselines, bad cases, calls from callbacks */
    size_t failures; /* checks that failed */
} mx_report;

mx_ctx *mx_ctx_new(void);
void mx_ctx_free(mx_ctx *c);

/* Runs every case of @p row, adding to @p r and printing each failure. */
void mx_run_row(mx_ctx *c, const mx_row *row, mx_report *r);

#endif /* CDYN_MATRIX_RUNNER_H */
