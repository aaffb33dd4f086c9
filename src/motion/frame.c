/* Kinematics of points and directions carried by a motion's frame:
 * X = rot X_s + shift, X' = p' + omega x r, X'' = p'' + alpha x r +
 * omega x (omega x r), with the arm r = X - p. */
#include "motion/motion.h"

#include <string.h>

#include "core/vec.h"

void cdyn__frame_identity(cdyn__frame *f)
{
    memset(f, 0, sizeof *f);
    f->rot[0] = f->rot[4] = f->rot[8] = 1.0;
}

void cdyn__frame_velocity_at(const cdyn__frame *f, const double x[3], double w[3])
{
    double r[3], wr[3];
    cdyn__v3_sub(r, x, f->origin);
    cdyn__v3_cross(wr, f->omega, r);
    for (int k = 0; k < 3; k++)
        w[k] = f->vel[k] + wr[k];
}

void cdyn__frame_acceleration_at(const cdyn__frame *f, const double x[3], double a[3])
{
    double r[3], ar[3], wr[3], wwr[3];
    cdyn__v3_sub(r, x, f->origin);
    cdyn__v3_cross(ar, f->alpha, r);
    cdyn__v3_cross(wr, f->omega, r);
    cdyn__v3_cross(wwr, f->omega, wr);
    for (int k = 0; k < 3; k++)
        a[k] = f->acc[k] + ar[k] + wwr[k];
}

void cdyn__frame_point(const cdyn__frame *f, const double xs[3], double x[3], double v[3],
                       double a[3])
{
    double p[3];
    cdyn__m3_apply(f->rot, xs, p);
    for (int k = 0; k < 3; k++)
        p[k] += f->shift[k];
    if (v)
        cdyn__frame_velocity_at(f, p, v);
    if (a)
        cdyn__frame_acceleration_at(f, p, a);
    if (x)
        cdyn__v3_copy(x, p);
}

void cdyn__frame_turn(const cdyn__frame *f, const double n[3], double out[3])
{
    cdyn__m3_apply(f->rot, n, out);
}

void cdyn__frame_unturn(const cdyn__frame *f, const double n[3], double out[3])
{
    cdyn__m3_apply_t(f->rot, n, out);
}

void cdyn__frame_to_reference(const cdyn__frame *f, const double x[3], double xs[3])
{
    double d[3];
    cdyn__v3_sub(d, x, f->shift);
    cdyn__m3_apply_t(f->rot, d, xs);
}
