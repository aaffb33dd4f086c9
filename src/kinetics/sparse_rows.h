/* A matrix of sparse rows for exact-pattern Gaussian elimination (the
 * moieties): each row a sorted list of (column, value), and for each
 * column the rows that may hold it (appended as fill appears; entries
 * may be stale). */
#ifndef CDYN__KINETICS_SPARSE_ROWS_H
#define CDYN__KINETICS_SPARSE_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "cdyn/types.h"

typedef struct cdyn__kin_rows {
    const cdyn_allocator *a;
    size_t nrows, ncols;
    size_t **idx;               /* row r: columns, ascending */
    double **val;               /* row r: values */
    size_t *len, *cap;
    size_t **crow;              /* column c: rows that may hold it */
    size_t *clen, *ccap;
    size_t *sidx;               /* merge scratch */
    double *sval;
    size_t scap;
} cdyn__kin_rows;

/* An empty nrows x ncols matrix. false when out of memory (nothing kept). */
bool cdyn__kin_rows_init(cdyn__kin_rows *m, const cdyn_allocator *a, size_t nrows,
                         size_t ncols);
void cdyn__kin_rows_free(cdyn__kin_rows *m);

/* Appends (c, v) to row r; c must exceed the row's last column. */
bool cdyn__kin_rows_append(cdyn__kin_rows *m, size_t r, size_t c, double v);

/* The value at (r, c), 0 when absent. */
double cdyn__kin_rows_get(const cdyn__kin_rows *m, size_t r, size_t c);

/* Row r += alpha row p, dropping results of magnitude <= @p drop and the
 * entry of column @p kill (the column being eliminated; SIZE_MAX for
 * none). false when out of memory (row r then unspecified). */
bool cdyn__kin_rows_axpy(cdyn__kin_rows *m, size_t r, double alpha, size_t p, double drop,
                         size_t kill);

#endif
