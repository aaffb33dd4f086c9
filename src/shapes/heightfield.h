/* Height fields: f(x, y) from samples on a regular grid, with gradient and
 * Hessian, for height-field surfaces and height-field grounds.
 *
 * BILINEAR: in cell [x_i, x_i+1] x [y_j, y_j+1], f = (1-t)(1-w) f00 + t(1-w)
 * f10 + (1-t) w f01 + t w f11 with t, w the cell's local coordinates. The
 * Hessian holds f_xy only (f_xx = f_yy = 0); the gradient jumps across edges.
 *
 * BICUBIC: the tensor-product cubic spline interpolant. Node slopes f_x come
 * from the 1-D C2 spline along each row, f_y along each column, f_xy from the
 * column splines of f_x; every 1-D spline uses not-a-knot ends (written in
 * slope form: s0 + 2 s1 = (-5 f0 + 4 f1 + f2) / (2 h)), so the interpolant is
 * C2 and reproduces every polynomial of degree <= 3 in x and in y. A
 * direction with 3 samples uses the parabola through them, with 2 the line.
 * Each cell is then the bicubic Hermite patch of f, f_x, f_y, f_xy at its
 * corners.
 *
 * Outside the grid: the query point is clamped to the grid rectangle; the
 * height is the boundary's (constant extension) and the derivatives along a
 * clamped direction are 0.
 */
#ifndef CDYN__PARAMETRIC_HEIGHTFIELD_H
#define CDYN__PARAMETRIC_HEIGHTFIELD_H

#include <stddef.h>

#include "cdyn/shapes.h"
#include "cdyn/types.h"

typedef struct cdyn__heightfield {
    size_t nx, ny;
    double x0, y0, dx, dy; /* grid origin and spacing */
    double x1, y1;         /* far corner: x0 + (nx - 1) dx, y0 + (ny - 1) dy */
    cdyn_heightfield_interpolation mode;
    int up_axis;            /* 0, 1, 2: see cdyn_heightfield_desc */
    double *f;              /* nx * ny heights, row-major (j * nx + i); owns the block */
    double *fx, *fy, *fxy;  /* BICUBIC: node derivatives (same block); else NULL */
} cdyn__heightfield;

/* Checks a description: CDYN_OK or CDYN_ERR_INVALID_ARGUMENT (NULL, size,
 * grid below 2 x 2, overflowing size, spacing, origin, samples, interpolation,
 * up_axis). */
cdyn_status cdyn__heightfield_check(const cdyn_heightfield_desc *d);

/* The far end of the grid along axis 0 (x) or 1 (y): origin + (n - 1) spacing. */
double cdyn__heightfield_desc_far(const cdyn_heightfield_desc *d, int axis);

/* Builds the height field (copying the samples). CDYN_ERR_INVALID_ARGUMENT as
 * cdyn__heightfield_check, CDYN_ERR_NO_MEMORY. *h written only on success. */
cdyn_status cdyn__heightfield_init(cdyn__heightfield *h, const cdyn_heightfield_desc *d,
                                   const cdyn_allocator *a);

/* Frees what init or copy allocated with the same allocator; clears *h. */
void cdyn__heightfield_free(cdyn__heightfield *h, const cdyn_allocator *a);

/* Deep copy (written only on success). */
cdyn_status cdyn__heightfield_copy(cdyn__heightfield *dst, const cdyn__heightfield *src,
                                   const cdyn_allocator *a);

/* f(x, y) into *f, (f_x, f_y) into g, (f_xx, f_xy, f_yy) into hess; each
 * optional. x, y finite. Never fails, never allocates. */
void cdyn__heightfield_eval(const cdyn__heightfield *h, double x, double y, double *f,
                            double g[2], double hess[3]);

#endif /* CDYN__PARAMETRIC_HEIGHTFIELD_H */
