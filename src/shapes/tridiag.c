#include "shapes/tridiag.h"

void cdyn__tridiag_solve(size_t n, const double *sub, const double *diag, const double *sup,
                         double *x, size_t stride, size_t ncols, double *work)
{
    /* Forward elimination: work[i] = modified super-diagonal / pivot. */
    double piv = diag[0];
    work[0] = n > 1 ? sup[0] / piv : 0.0;
    for (size_t k = 0; k < ncols; k++)
        x[k] /= piv;
    for (size_t i = 1; i < n; i++) {
        piv = diag[i] - sub[i] * work[i - 1];
        work[i] = i + 1 < n ? sup[i] / piv : 0.0;
        double *row = x + i * stride, *prev = x + (i - 1) * stride;
        for (size_t k = 0; k < ncols; k++)
            row[k] = (row[k] - sub[i] * prev[k]) / piv;
    }
    /* Back substitution. */
    for (size_t i = n - 1; i-- > 0;) {
        double *row = x + i * stride, *next = x + (i + 1) * stride;
        for (size_t k = 0; k < ncols; k++)
            row[k] -= work[i] * next[k];
    }
}
