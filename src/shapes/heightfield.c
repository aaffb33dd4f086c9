#include "shapes/heightfield.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "shapes/tridiag.h"

#define HF_DESC_MIN_SIZE sizeof(cdyn_heightfield_desc)

static size_t planes(cdyn_heightfield_interpolation mode)
{
    return mode == CDYN_HEIGHTFIELD_BICUBIC ? 4 : 1;
}

double cdyn__heightfield_desc_far(const cdyn_heightfield_desc *d, int axis)
{
    size_t n = axis == 0 ? d->nx : d->ny;
    return d->origin[axis] + (double)(n - 1) * d->spacing[axis];
}

cdyn_status cdyn__heightfield_check(const cdyn_heightfield_desc *d)
{
    if (!d || d->size < HF_DESC_MIN_SIZE || d->size > sizeof(cdyn_heightfield_desc))
        return CDYN_ERR_INVALID_ARGUMENT;
    if (d->nx < 2 || d->ny < 2 || d->nx > SIZE_MAX / d->ny ||
        d->nx * d->ny > SIZE_MAX / (4 * sizeof(double)))
        return CDYN_ERR_INVALID_ARGUMENT;
    if (d->interpolation != CDYN_HEIGHTFIELD_BILINEAR &&
        d->interpolation != CDYN_HEIGHTFIELD_BICUBIC)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (d->up_axis < 0 || d->up_axis > 2 || !d->samples)
        return CDYN_ERR_INVALID_ARGUMENT;
    for (int k = 0; k < 2; k++) {
        double far = cdyn__heightfield_desc_far(d, k);
        if (!isfinite(d->origin[k]) || !isfinite(d->spacing[k]) || !(d->spacing[k] > 0.0) ||
            !isfinite(far) || !(far > d->origin[k]))
            return CDYN_ERR_INVALID_ARGUMENT;
    }
    for (size_t i = 0; i < d->nx * d->ny; i++)
        if (!isfinite(d->samples[i]))
            return CDYN_ERR_INVALID_ARGUMENT;
    return CDYN_OK;
}

/* Slopes along a direction of n nodes spaced h, for ncols independent lines:
 * value of line k at node i is f[i * stride + k], its slope goes to s[i *
 * stride + k]. work: 4 n doubles. */
static void line_slopes(size_t n, double h, const double *f, double *s, size_t stride,
                        size_t ncols, double *work)
{
#define F(i) f[(i) * stride + k]
#define S(i) s[(i) * stride + k]
    if (n == 2) {
        for (size_t k = 0; k < ncols; k++)
            S(0) = S(1) = (F(1) - F(0)) / h;
        return;
    }
    if (n == 3) { /* the parabola through the three */
        for (size_t k = 0; k < ncols; k++) {
            double f0 = F(0), f1 = F(1), f2 = F(2);
            S(0) = (-3.0 * f0 + 4.0 * f1 - f2) / (2.0 * h);
            S(1) = (f2 - f0) / (2.0 * h);
            S(2) = (f0 - 4.0 * f1 + 3.0 * f2) / (2.0 * h);
        }
        return;
    }
    double *sub = work, *diag = work + n, *sup = work + 2 * n, *tmp = work + 3 * n;
    for (size_t i = 0; i < n; i++) {
        sub[i] = 1.0;
        diag[i] = 4.0;
        sup[i] = 1.0;
    }
    /* not-a-knot: s0 + 2 s1 = (-5 f0 + 4 f1 + f2) / (2h), mirrored at the far end */
    diag[0] = diag[n - 1] = 1.0;
    sup[0] = sub[n - 1] = 2.0;
    for (size_t k = 0; k < ncols; k++) {
        S(0) = (-5.0 * F(0) + 4.0 * F(1) + F(2)) / (2.0 * h);
        for (size_t i = 1; i + 1 < n; i++)
            S(i) = 3.0 * (F(i + 1) - F(i - 1)) / h;
        S(n - 1) = (5.0 * F(n - 1) - 4.0 * F(n - 2) - F(n - 3)) / (2.0 * h);
    }
    cdyn__tridiag_solve(n, sub, diag, sup, s, stride, ncols, tmp);
#undef F
#undef S
}

cdyn_status cdyn__heightfield_init(cdyn__heightfield *h, const cdyn_heightfield_desc *d,
                                   const cdyn_allocator *a)
{
    cdyn_status st = cdyn__heightfield_check(d);
    if (st != CDYN_OK)
        return st;
    size_t nx = d->nx, ny = d->ny, nn = nx * ny, np = planes(d->interpolation);
    double *block = cdyn__alloc_array(a, np * nn, sizeof(double));
    if (!block)
        return CDYN_ERR_NO_MEMORY;
    cdyn__heightfield hf = {
        nx, ny, d->origin[0], d->origin[1], d->spacing[0], d->spacing[1],
        cdyn__heightfield_desc_far(d, 0), cdyn__heightfield_desc_far(d, 1),
        d->interpolation, d->up_axis, block, NULL, NULL, NULL};
    memcpy(hf.f, d->samples, nn * sizeof(double));
    if (np == 4) {
        size_t nmax = nx > ny ? nx : ny;
        double *work = cdyn__alloc_array(a, 4 * nmax, sizeof(double));
        if (!work) {
            cdyn__free_array(a, block, np * nn, sizeof(double));
            return CDYN_ERR_NO_MEMORY;
        }
        hf.fx = block + nn;
        hf.fy = block + 2 * nn;
        hf.fxy = block + 3 * nn;
        for (size_t j = 0; j < ny; j++)
            line_slopes(nx, hf.dx, hf.f + j * nx, hf.fx + j * nx, 1, 1, work);
        line_slopes(ny, hf.dy, hf.f, hf.fy, nx, nx, work);
        line_slopes(ny, hf.dy, hf.fx, hf.fxy, nx, nx, work);
        cdyn__free_array(a, work, 4 * nmax, sizeof(double));
    }
    *h = hf;
    return CDYN_OK;
}

void cdyn__heightfield_free(cdyn__heightfield *h, const cdyn_allocator *a)
{
    if (h->f)
        cdyn__free_array(a, h->f, planes(h->mode) * h->nx * h->ny, sizeof(double));
    memset(h, 0, sizeof *h);
}

cdyn_status cdyn__heightfield_copy(cdyn__heightfield *dst, const cdyn__heightfield *src,
                                   const cdyn_allocator *a)
{
    size_t nn = src->nx * src->ny, count = planes(src->mode) * nn;
    double *block = cdyn__alloc_array(a, count, sizeof(double));
    if (!block)
        return CDYN_ERR_NO_MEMORY;
    memcpy(block, src->f, count * sizeof(double));
    *dst = *src;
    dst->f = block;
    if (src->fx) {
        dst->fx = block + nn;
        dst->fy = block + 2 * nn;
        dst->fxy = block + 3 * nn;
    }
    return CDYN_OK;
}

/* Cell index and local coordinate of clamped c along a direction. */
static size_t cell(double c, double c0, double step, size_t n, double *t)
{
    double s = (c - c0) / step;
    size_t i = s > 0.0 ? (size_t)s : 0;
    if (i > n - 2)
        i = n - 2;
    *t = s - (double)i;
    return i;
}

/* Cubic Hermite basis at t and its first two t-derivatives:
 * b[0..3] = h00, h01, h10, h11 (values), then first and second derivatives. */
static void hermite(double t, double b[12])
{
    double t2 = t * t, t3 = t2 * t;
    b[0] = 2.0 * t3 - 3.0 * t2 + 1.0;
    b[1] = -2.0 * t3 + 3.0 * t2;
    b[2] = t3 - 2.0 * t2 + t;
    b[3] = t3 - t2;
    b[4] = 6.0 * t2 - 6.0 * t;
    b[5] = -6.0 * t2 + 6.0 * t;
    b[6] = 3.0 * t2 - 4.0 * t + 1.0;
    b[7] = 3.0 * t2 - 2.0 * t;
    b[8] = 12.0 * t - 6.0;
    b[9] = -12.0 * t + 6.0;
    b[10] = 6.0 * t - 4.0;
    b[11] = 6.0 * t - 2.0;
}

/* The cubic Hermite interpolant along x of values v[0], v[1] with x-slopes
 * s[0], s[1] at two nodes dx apart: out = value, d/dx, d2/dx2 at the point
 * whose basis is bt. */
static void hermite_row(const double bt[12], double dx, const double *v, const double *s,
                        double out[3])
{
    out[0] = bt[0] * v[0] + bt[1] * v[1] + dx * (bt[2] * s[0] + bt[3] * s[1]);
    out[1] = (bt[4] * v[0] + bt[5] * v[1]) / dx + bt[6] * s[0] + bt[7] * s[1];
    out[2] = (bt[8] * v[0] + bt[9] * v[1]) / (dx * dx) + (bt[10] * s[0] + bt[11] * s[1]) / dx;
}

void cdyn__heightfield_eval(const cdyn__heightfield *h, double x, double y, double *f,
                            double g[2], double hess[3])
{
    int out_x = x < h->x0 || x > h->x1, out_y = y < h->y0 || y > h->y1;
    double cx = x < h->x0 ? h->x0 : (x > h->x1 ? h->x1 : x);
    double cy = y < h->y0 ? h->y0 : (y > h->y1 ? h->y1 : y);
    double t, w;
    size_t i = cell(cx, h->x0, h->dx, h->nx, &t);
    size_t j = cell(cy, h->y0, h->dy, h->ny, &w);
    size_t k00 = j * h->nx + i, k01 = k00 + h->nx;
    double val, gx, gy, hxx, hxy, hyy;
    if (h->mode == CDYN_HEIGHTFIELD_BILINEAR) {
        double f00 = h->f[k00], f10 = h->f[k00 + 1], f01 = h->f[k01], f11 = h->f[k01 + 1];
        double F0 = f00 + t * (f10 - f00), F1 = f01 + t * (f11 - f01);
        double D0 = (f10 - f00) / h->dx, D1 = (f11 - f01) / h->dx;
        val = F0 + w * (F1 - F0);
        gx = D0 + w * (D1 - D0);
        gy = (F1 - F0) / h->dy;
        hxx = hyy = 0.0;
        hxy = (D1 - D0) / h->dy;
    } else {
        double bt[12], bw[12], F[2][3], G[2][3];
        hermite(t, bt);
        hermite(w, bw);
        /* Along x on the two rows: heights F and y-slopes G, with x-derivatives. */
        hermite_row(bt, h->dx, h->f + k00, h->fx + k00, F[0]);
        hermite_row(bt, h->dx, h->f + k01, h->fx + k01, F[1]);
        hermite_row(bt, h->dx, h->fy + k00, h->fxy + k00, G[0]);
        hermite_row(bt, h->dx, h->fy + k01, h->fxy + k01, G[1]);
        /* Then along y; index d of F and G is the order of the x-derivative. */
        double v[3];
        for (int d = 0; d < 3; d++)
            v[d] = bw[0] * F[0][d] + bw[1] * F[1][d] + h->dy * (bw[2] * G[0][d] + bw[3] * G[1][d]);
        val = v[0];
        gx = v[1];
        hxx = v[2];
        gy = (bw[4] * F[0][0] + bw[5] * F[1][0]) / h->dy + bw[6] * G[0][0] + bw[7] * G[1][0];
        hxy = (bw[4] * F[0][1] + bw[5] * F[1][1]) / h->dy + bw[6] * G[0][1] + bw[7] * G[1][1];
        hyy = (bw[8] * F[0][0] + bw[9] * F[1][0]) / (h->dy * h->dy) +
              (bw[10] * G[0][0] + bw[11] * G[1][0]) / h->dy;
    }
    if (out_x) {
        gx = 0.0;
        hxx = hxy = 0.0;
    }
    if (out_y) {
        gy = 0.0;
        hxy = hyy = 0.0;
    }
    if (f)
        *f = val;
    if (g) {
        g[0] = gx;
        g[1] = gy;
    }
    if (hess) {
        hess[0] = hxx;
        hess[1] = hxy;
        hess[2] = hyy;
    }
}
