/* The library's small vector helpers (internal, header-only), in one place:
 *
 *   cdyn__v3_*   3-vectors as double[3] (2-D shapes keep z = 0)
 *   cdyn__m3_*   3 x 3 matrices as double[9], row-major
 *   cdyn__vec_*  vectors of dim = 2 or 3 doubles; cdyn__dotn long vectors
 *   cdyn__r3_*   a particle's coordinates held in registers by the hot
 *                kernels, specialised on the dimension D; with GCC and
 *                Clang x and y share one 16-byte vector (elementwise IEEE
 *                operations in the same order as scalar code: the same
 *                bits), cdyn__v2d the 2-vector itself.
 */
#ifndef CDYN__CORE_VEC_H
#define CDYN__CORE_VEC_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/compiler.h"

static inline void cdyn__v3_set(double out[3], double x, double y, double z)
{
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

static inline void cdyn__v3_copy(double out[3], const double a[3])
{
    out[0] = a[0];
    out[1] = a[1];
    out[2] = a[2];
}

static inline double cdyn__v3_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void cdyn__v3_sub(double out[3], const double a[3], const double b[3])
{
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}

static inline void cdyn__v3_cross(double out[3], const double a[3], const double b[3])
{
    double x = a[1] * b[2] - a[2] * b[1];
    double y = a[2] * b[0] - a[0] * b[2];
    double z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* out = a * s + b * t */
static inline void cdyn__v3_lin2(double out[3], const double a[3], double s, const double b[3],
                                 double t)
{
    out[0] = a[0] * s + b[0] * t;
    out[1] = a[1] * s + b[1] * t;
    out[2] = a[2] * s + b[2] * t;
}

/* out = o + a * s + b * t */
static inline void cdyn__v3_affine2(double out[3], const double o[3], const double a[3],
                                    double s, const double b[3], double t)
{
    out[0] = o[0] + a[0] * s + b[0] * t;
    out[1] = o[1] + a[1] * s + b[1] * t;
    out[2] = o[2] + a[2] * s + b[2] * t;
}

/* Euclidean norm without overflow or underflow in the squares. */
static inline double cdyn__v3_norm(const double a[3])
{
    double m = fmax(fabs(a[0]), fmax(fabs(a[1]), fabs(a[2])));
    if (m == 0.0 || !isfinite(m))
        return m;
    double x = a[0] / m, y = a[1] / m, z = a[2] / m;
    return m * sqrt(x * x + y * y + z * z);
}

static inline int cdyn__v3_isfinite(const double a[3])
{
    return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]);
}

/* y = A x and y = A^T x. */
static inline void cdyn__m3_apply(const double a[9], const double x[3], double y[3])
{
    for (int i = 0; i < 3; i++)
        y[i] = a[i * 3] * x[0] + a[i * 3 + 1] * x[1] + a[i * 3 + 2] * x[2];
}

static inline void cdyn__m3_apply_t(const double a[9], const double x[3], double y[3])
{
    for (int i = 0; i < 3; i++)
        y[i] = a[i] * x[0] + a[3 + i] * x[1] + a[6 + i] * x[2];
}

/* C = A B. */
static inline void cdyn__m3_mul(const double a[9], const double b[9], double c[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            c[i * 3 + j] = a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j];
}

/* a . b over dim components. */
static inline double cdyn__vec_dot(const double *a, const double *b, int dim)
{
    double s = 0;
    for (int k = 0; k < dim; k++)
        s += a[k] * b[k];
    return s;
}

/* a . b over @p n values, summed in index order (long vectors: Krylov
 * solvers). */
static inline double cdyn__dotn(const double *a, const double *b, uint32_t n)
{
    double s = 0.0;
    for (uint32_t i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

/* |v| for dim <= 3 values: the plain root of the squares, rescaled only
 * when they would overflow or underflow. */
static inline double cdyn__vec_norm(const double *v, int dim)
{
    double s2 = 0;
    for (int k = 0; k < dim; k++)
        s2 += v[k] * v[k];
    if (s2 > 1e-290 && s2 < 1e290)
        return sqrt(s2);
    double m = 0;
    for (int k = 0; k < dim; k++)
        m = fmax(m, fabs(v[k]));
    if (!(m > 0) || !isfinite(m))
        return m;
    double s = 0;
    for (int k = 0; k < dim; k++)
        s += (v[k] / m) * (v[k] / m);
    return m * sqrt(s);
}

/* --- coordinates in registers ------------------------------------------- */

#if defined(__GNUC__)
#define CDYN__HAVE_V2D 1
typedef double cdyn__v2d __attribute__((vector_size(16)));

static CDYN__ALWAYS_INLINE cdyn__v2d cdyn__v2d_load(const double *p)
{
    cdyn__v2d r;
    memcpy(&r, p, sizeof r);
    return r;
}

static CDYN__ALWAYS_INLINE void cdyn__v2d_store(double *p, cdyn__v2d v)
{
    memcpy(p, &v, sizeof v);
}

static CDYN__ALWAYS_INLINE double cdyn__v2d_sum(cdyn__v2d v)
{
    return v[0] + v[1];
}

typedef struct cdyn__r3 {
    cdyn__v2d xy;
    double z;
} cdyn__r3;

static CDYN__ALWAYS_INLINE cdyn__r3 cdyn__r3_load(const double *p, size_t D)
{
    cdyn__r3 r;
    memcpy(&r.xy, p, sizeof r.xy);
    r.z = D == 3 ? p[2] : 0.0;
    return r;
}

static CDYN__ALWAYS_INLINE void cdyn__r3_store(double *p, cdyn__r3 a, size_t D)
{
    memcpy(p, &a.xy, sizeof a.xy);
    if (D == 3)
        p[2] = a.z;
}

static CDYN__ALWAYS_INLINE cdyn__r3 cdyn__r3_add(cdyn__r3 a, cdyn__r3 b, size_t D)
{
    cdyn__r3 r = {a.xy + b.xy, D == 3 ? a.z + b.z : 0.0};
    return r;
}

static CDYN__ALWAYS_INLINE cdyn__r3 cdyn__r3_sub(cdyn__r3 a, cdyn__r3 b, size_t D)
{
    cdyn__r3 r = {a.xy - b.xy, D == 3 ? a.z - b.z : 0.0};
    return r;
}

static CDYN__ALWAYS_INLINE cdyn__r3 cdyn__r3_scale(double f, cdyn__r3 a, size_t D)
{
    cdyn__r3 r = {f * a.xy, D == 3 ? f * a.z : 0.0};
    return r;
}

static CDYN__ALWAYS_INLINE double cdyn__r3_dot(cdyn__r3 a, cdyn__r3 b, size_t D)
{
    cdyn__v2d t = a.xy * b.xy;
    double s = t[0] + t[1];
    return D == 3 ? s + a.z * b.z : s;
}

#define CDYN__R3_ZERO ((cdyn__r3){{0, 0}, 0})
#else
typedef struct cdyn__r3 {
    double x, y, z;
} cdyn__r3;

static CDYN__ALWAYS_INLINE cdyn__r3 cdyn__r3_load(const double *p, size_t D)
{
    cdyn__r3 r = {p[0], p[1], D == 3 ? p[2] : 0.0};
    return r;
}

static CDYN__ALWAYS_INLINE void cdyn__r3_store(double *p, cdyn__r3 a, size_t D)
{
    p[0] = a.x;
    p[1] = a.y;
    if (D == 3)
        p[2] = a.z;
}

static CDYN__ALWAYS_INLINE cdyn__r3 cdyn__r3_add(cdyn__r3 a, cdyn__r3 b, size_t D)
{
    cdyn__r3 r = {a.x + b.x, a.y + b.y, D == 3 ? a.z + b.z : 0.0};
    return r;
}

static CDYN__ALWAYS_INLINE cdyn__r3 cdyn__r3_sub(cdyn__r3 a, cdyn__r3 b, size_t D)
{
    cdyn__r3 r = {a.x - b.x, a.y - b.y, D == 3 ? a.z - b.z : 0.0};
    return r;
}

static CDYN__ALWAYS_INLINE cdyn__r3 cdyn__r3_scale(double f, cdyn__r3 a, size_t D)
{
    cdyn__r3 r = {f * a.x, f * a.y, D == 3 ? f * a.z : 0.0};
    return r;
}

static CDYN__ALWAYS_INLINE double cdyn__r3_dot(cdyn__r3 a, cdyn__r3 b, size_t D)
{
    double s = a.x * b.x + a.y * b.y;
    return D == 3 ? s + a.z * b.z : s;
}

#define CDYN__R3_ZERO ((cdyn__r3){0, 0, 0})
#endif

#endif /* CDYN__CORE_VEC_H */
