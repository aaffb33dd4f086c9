/* Small 3-vector helpers for the shape code (internal, header-only).
 *
 * Vectors are double[3]; a 2-D shape keeps its third component 0.
 */
#ifndef CDYN__PARAMETRIC_VEC_H
#define CDYN__PARAMETRIC_VEC_H

#include <math.h>

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

#endif /* CDYN__PARAMETRIC_VEC_H */
