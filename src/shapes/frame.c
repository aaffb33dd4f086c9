#include "shapes/frame.h"

#include "core/vec.h"

void cdyn__frame_load(double out[3], const double *src, int dim)
{
    out[0] = src[0];
    out[1] = src[1];
    out[2] = dim == 3 ? src[2] : 0.0;
}

bool cdyn__frame_unit(double out[3], const double a[3])
{
    if (!cdyn__v3_isfinite(a))
        return false;
    double n = cdyn__v3_norm(a);
    if (!(n > 0.0) || !isfinite(n))
        return false;
    cdyn__v3_set(out, a[0] / n, a[1] / n, a[2] / n);
    return true;
}

bool cdyn__frame_orthogonal(double out[3], const double e[3], const double b[3])
{
    double nb = cdyn__v3_norm(b);
    if (!cdyn__v3_isfinite(b) || !(nb > 0.0) || !isfinite(nb))
        return false;
    double bu[3] = {b[0] / nb, b[1] / nb, b[2] / nb};
    double d = cdyn__v3_dot(bu, e);
    double p[3];
    cdyn__v3_lin2(p, bu, 1.0, e, -d);
    if (cdyn__v3_norm(p) <= 1e-12)
        return false;
    return cdyn__frame_unit(out, p);
}

bool cdyn__frame_from_axes(const double a1[3], const double a2[3], double e1[3], double e2[3],
                           double e3[3])
{
    double f1[3], f2[3];
    if (!cdyn__frame_unit(f1, a1) || !cdyn__frame_orthogonal(f2, f1, a2))
        return false;
    cdyn__v3_copy(e1, f1);
    cdyn__v3_copy(e2, f2);
    cdyn__v3_cross(e3, f1, f2);
    return true;
}

bool cdyn__frame_from_pole(const double pole[3], const double ref[3], double e1[3],
                           double e2[3], double e3[3])
{
    double f1[3], f3[3];
    if (!cdyn__frame_unit(f3, pole) || !cdyn__frame_orthogonal(f1, f3, ref))
        return false;
    cdyn__v3_copy(e3, f3);
    cdyn__v3_copy(e1, f1);
    cdyn__v3_cross(e2, f3, f1);
    return true;
}
