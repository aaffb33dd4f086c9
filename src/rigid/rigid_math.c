/* Small dense linear algebra for rigid bodies (see rigid_math.h) and the
 * public cdyn_rigid_rotation. */
#include "rigid/rigid_math.h"

#include <math.h>
#include <string.h>

#include "cdyn/rigid.h"
#include "core/system.h"
#include "core/finite.h"
#include "core/vec.h"

void cdyn__rotation(const double omega[3], double dt, double r[9])
{
    double w = cdyn__v3_norm(omega);
    double th = w * dt;
    memset(r, 0, 9 * sizeof *r);
    if (w == 0 || th == 0) {
        r[0] = r[4] = r[8] = 1;
        return;
    }
    double a[3] = {omega[0] / w, omega[1] / w, omega[2] / w};
    double s = sin(th), sh = sin(0.5 * th), h = 2 * sh * sh;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[i * 3 + j] = h * a[i] * a[j];
    /* 1 - h (1 - a_i^2) on the diagonal, as one expression so that an axis
     * component of exactly 1 gives exactly 1. */
    for (int i = 0; i < 3; i++)
        r[i * 4] = 1 - h * (1 - a[i] * a[i]);
    r[1] -= s * a[2];
    r[3] += s * a[2];
    r[2] += s * a[1];
    r[6] -= s * a[1];
    r[5] -= s * a[0];
    r[7] += s * a[0];
}

cdyn_status cdyn_rigid_rotation(const double omega[3], double dt, double out[9])
{
    if (!omega || !out || !cdyn__all_finite(omega, 3) || !isfinite(dt))
        return CDYN_ERR_INVALID_ARGUMENT;
    double r[9];
    cdyn__rotation(omega, dt, r);
    if (!cdyn__all_finite(r, 9)) /* |omega| dt overflowed */
        return CDYN_ERR_INVALID_ARGUMENT;
    memcpy(out, r, sizeof r);
    return CDYN_OK;
}

void cdyn__sym_eigen(int n, const double *a, double *w, double *v)
{
    double m[16];
    size_t nn = (size_t)n;
    memcpy(m, a, nn * nn * sizeof *m);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            v[i * n + j] = i == j ? 1.0 : 0.0;
    double scale = 0;
    for (int i = 0; i < n * n; i++)
        scale += m[i] * m[i];
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = 0;
        for (int p = 0; p < n; p++)
            for (int q = p + 1; q < n; q++)
                off += m[p * n + q] * m[p * n + q];
        if (!(off > 1e-34 * scale)) /* also stops on NaN */
            break;
        for (int p = 0; p < n; p++) {
            for (int q = p + 1; q < n; q++) {
                double apq = m[p * n + q];
                if (apq == 0)
                    continue;
                /* the rotation that zeroes m[p][q] (Golub & Van Loan 8.5.2) */
                double tau = (m[q * n + q] - m[p * n + p]) / (2 * apq);
                double t = (tau >= 0 ? 1.0 : -1.0) / (fabs(tau) + sqrt(1 + tau * tau));
                double c = 1 / sqrt(1 + t * t), s = t * c;
                for (int k = 0; k < n; k++) { /* columns p, q */
                    double mkp = m[k * n + p], mkq = m[k * n + q];
                    m[k * n + p] = c * mkp - s * mkq;
                    m[k * n + q] = s * mkp + c * mkq;
                }
                for (int k = 0; k < n; k++) { /* rows p, q */
                    double mpk = m[p * n + k], mqk = m[q * n + k];
                    m[p * n + k] = c * mpk - s * mqk;
                    m[q * n + k] = s * mpk + c * mqk;
                }
                for (int k = 0; k < n; k++) {
                    double vkp = v[k * n + p], vkq = v[k * n + q];
                    v[k * n + p] = c * vkp - s * vkq;
                    v[k * n + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    for (int i = 0; i < n; i++)
        w[i] = m[i * n + i];
    /* ascending order, eigenvectors along (insertion sort: n <= 4) */
    for (int i = 1; i < n; i++) {
        for (int j = i; j > 0 && w[j] < w[j - 1]; j--) {
            double t = w[j];
            w[j] = w[j - 1];
            w[j - 1] = t;
            for (int k = 0; k < n; k++) {
                t = v[k * n + j];
                v[k * n + j] = v[k * n + j - 1];
                v[k * n + j - 1] = t;
            }
        }
    }
}

void cdyn__fit_rotation(const double s[9], double q[9])
{
    double sxx = s[0], sxy = s[1], sxz = s[2];
    double syx = s[3], syy = s[4], syz = s[5];
    double szx = s[6], szy = s[7], szz = s[8];
    /* Horn (1987): maximize sum m y . (Q b) over unit quaternions. */
    double n[16] = {
        sxx + syy + szz, syz - szy,        szx - sxz,        sxy - syx,
        syz - szy,       sxx - syy - szz,  sxy + syx,        szx + sxz,
        szx - sxz,       sxy + syx,        -sxx + syy - szz, syz + szy,
        sxy - syx,       szx + sxz,        syz + szy,        -sxx - syy + szz,
    };
    double w[4], v[16];
    cdyn__sym_eigen(4, n, w, v);
    double qw = v[3], qx = v[7], qy = v[11], qz = v[15]; /* column of the largest */
    double len = sqrt(qw * qw + qx * qx + qy * qy + qz * qz);
    if (!(len > 0)) {
        memset(q, 0, 9 * sizeof *q);
        q[0] = q[4] = q[8] = 1;
        return;
    }
    qw /= len, qx /= len, qy /= len, qz /= len;
    q[0] = 1 - 2 * (qy * qy + qz * qz);
    q[1] = 2 * (qx * qy - qw * qz);
    q[2] = 2 * (qx * qz + qw * qy);
    q[3] = 2 * (qx * qy + qw * qz);
    q[4] = 1 - 2 * (qx * qx + qz * qz);
    q[5] = 2 * (qy * qz - qw * qx);
    q[6] = 2 * (qx * qz - qw * qy);
    q[7] = 2 * (qy * qz + qw * qx);
    q[8] = 1 - 2 * (qx * qx + qy * qy);
}
