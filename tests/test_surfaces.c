/* Public API of surface and height-field descriptions (cdyn/shapes.h):
 * defaults, evaluation, domains, closest point, height-field queries,
 * refusals. Links the shared library only. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define PI 3.14159265358979323846
#define TWO_PI (2.0 * PI)

static double norm3(const double a[3])
{
    return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

static void test_desc_init(void **state)
{
    (void)state;
    cdyn_surface_desc d;
    memset(&d, 0x55, sizeof d);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_PLANE);
    assert_int_equal(d.size, sizeof d);
    assert_int_equal(d.kind, CDYN_SURFACE_PLANE);
    assert_true(d.axis1[0] == 1 && d.axis1[1] == 0 && d.axis1[2] == 0);
    assert_true(d.axis2[0] == 0 && d.axis2[1] == 1 && d.axis2[2] == 0);
    assert_true(d.radius == 1.0 && d.minor_radius == 0.25);
    assert_null(d.heightfield);
    assert_null(d.callback);
    assert_true(d.periodic_u == 0 && d.periodic_v == 0);
    assert_true(d.u_min == -INFINITY && d.u_max == INFINITY);
    assert_true(d.v_min == -INFINITY && d.v_max == INFINITY);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
    assert_true(d.axis2[0] == 0 && d.axis2[1] == 0 && d.axis2[2] == 1);
    cdyn_surface_desc_init(NULL, CDYN_SURFACE_SPHERE);
    cdyn_heightfield_desc h;
    memset(&h, 0x55, sizeof h);
    cdyn_heightfield_desc_init(&h);
    assert_int_equal(h.size, sizeof h);
    assert_true(h.nx == 0 && h.ny == 0 && h.samples == NULL);
    assert_true(h.origin[0] == 0 && h.origin[1] == 0 && h.spacing[0] == 1 && h.spacing[1] == 1);
    assert_int_equal(h.interpolation, CDYN_HEIGHTFIELD_BICUBIC);
    assert_int_equal(h.up_axis, 2);
    cdyn_heightfield_desc_init(NULL);
    assert_int_equal(CDYN_SURFACE_PLANE, 1);
    assert_int_equal(CDYN_SURFACE_CALLBACK, 5);
    assert_int_equal(CDYN_HEIGHTFIELD_BILINEAR, 1);
    assert_int_equal(CDYN_HEIGHTFIELD_BICUBIC, 2);
}

static void test_evaluate(void **state)
{
    (void)state;
    cdyn_surface_desc d;
    double r[3], ru[3], rv[3], ruu[3], ruv[3], rvv[3];
    /* sphere of radius 2 about (1, 0, 0): equator, pole, derivatives */
    cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
    d.origin[0] = 1.0;
    d.radius = 2.0;
    assert_int_equal(cdyn_surface_evaluate(&d, PI / 2, PI / 2, r, ru, rv, ruu, ruv, rvv), CDYN_OK);
    assert_true(fabs(r[0] - 1.0) < 1e-15 && fabs(r[1] - 2.0) < 1e-15 && fabs(r[2]) < 1e-15);
    assert_true(fabs(ru[0] + 2.0) < 1e-15 && fabs(rv[2] + 2.0) < 1e-15);
    assert_true(fabs(ruu[1] + 2.0) < 1e-15 && norm3(ruv) < 1e-15 && fabs(rvv[1] + 2.0) < 1e-15);
    assert_int_equal(cdyn_surface_evaluate(&d, 0.3, 0.0, r, ru, NULL, NULL, NULL, NULL), CDYN_OK);
    assert_true(fabs(r[2] - 2.0) < 1e-15 && norm3(ru) == 0.0); /* the pole is singular */
    /* torus: outer equator at u = 0 */
    cdyn_surface_desc_init(&d, CDYN_SURFACE_TORUS);
    d.radius = 2.0;
    d.minor_radius = 0.5;
    assert_int_equal(cdyn_surface_evaluate(&d, 0.0, 0.0, r, NULL, NULL, NULL, NULL, NULL), CDYN_OK);
    assert_true(fabs(r[0] - 2.5) < 1e-15);
    assert_int_equal(cdyn_surface_evaluate(&d, 0.0, PI, r, NULL, NULL, NULL, NULL, NULL), CDYN_OK);
    assert_true(fabs(r[0] - 1.5) < 1e-15);
    /* plane: axes as given, not normalized */
    cdyn_surface_desc_init(&d, CDYN_SURFACE_PLANE);
    d.axis1[0] = 2.0;
    d.axis2[1] = 0.0;
    d.axis2[2] = 3.0;
    assert_int_equal(cdyn_surface_evaluate(&d, 1.0, 1.0, r, ru, rv, NULL, NULL, NULL), CDYN_OK);
    assert_true(r[0] == 2.0 && r[1] == 0.0 && r[2] == 3.0 && ru[0] == 2.0 && rv[2] == 3.0);
}

static void test_derivatives_match_differences(void **state)
{
    (void)state;
    double samples[30];
    for (int i = 0; i < 30; i++)
        samples[i] = sin(0.7 * i) * 0.3;
    cdyn_heightfield_desc h;
    cdyn_heightfield_desc_init(&h);
    h.nx = 6;
    h.ny = 5;
    h.spacing[0] = 0.5;
    h.spacing[1] = 0.4;
    h.samples = samples;
    const cdyn_surface_kind kinds[] = {CDYN_SURFACE_PLANE, CDYN_SURFACE_SPHERE, CDYN_SURFACE_TORUS,
                                       CDYN_SURFACE_HEIGHTFIELD};
    for (int k = 0; k < 4; k++) {
        cdyn_surface_desc d;
        cdyn_surface_desc_init(&d, kinds[k]);
        d.axis1[1] = 0.4;
        d.axis2[0] = 0.3;
        d.heightfield = &h;
        double worst = 0.0, e = 1e-5;
        for (int j = 0; j < 40; j++) {
            /* inside cells of the height field: (0.17 + 0.5 i, 0.13 + 0.4 j) */
            double u = 0.17 + 0.5 * (j % 5), v = 0.13 + 0.4 * (j % 4), w[6][3], p[6][3], m[6][3];
            assert_int_equal(cdyn_surface_evaluate(&d, u, v, w[0], w[1], w[2], w[3], w[4], w[5]),
                             CDYN_OK);
            for (int dir = 0; dir < 2; dir++) {
                double du = dir == 0 ? e : 0.0, dv = dir == 0 ? 0.0 : e;
                assert_int_equal(cdyn_surface_evaluate(&d, u + du, v + dv, p[0], p[1], p[2], p[3],
                                                       p[4], p[5]),
                                 CDYN_OK);
                assert_int_equal(cdyn_surface_evaluate(&d, u - du, v - dv, m[0], m[1], m[2], m[3],
                                                       m[4], m[5]),
                                 CDYN_OK);
                /* d/du: r -> ru, ru -> ruu, rv -> ruv; d/dv: r -> rv, ru -> ruv, rv -> rvv */
                const int from[3] = {0, 1, 2};
                const int to_u[3] = {1, 3, 4}, to_v[3] = {2, 4, 5};
                for (int t = 0; t < 3; t++) {
                    int target = dir == 0 ? to_u[t] : to_v[t];
                    double scale = fmax(1.0, norm3(w[target]));
                    for (int c = 0; c < 3; c++) {
                        double fd = (p[from[t]][c] - m[from[t]][c]) / (2 * e);
                        worst = fmax(worst, fabs(fd - w[target][c]) / scale);
                    }
                }
            }
        }
        print_message("surface kind %d: worst FD relative error %.2e\n", (int)kinds[k], worst);
        assert_true(worst < 1e-7);
    }
}

static void test_get_domain(void **state)
{
    (void)state;
    cdyn_surface_desc d;
    double ur[2], vr[2];
    int per[2];
    cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
    assert_int_equal(cdyn_surface_get_domain(&d, ur, vr, per), CDYN_OK);
    assert_true(ur[0] == 0.0 && fabs(ur[1] - TWO_PI) < 1e-15 && per[0] == 1);
    assert_true(vr[0] == 0.0 && fabs(vr[1] - PI) < 1e-15 && per[1] == 0);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_TORUS);
    assert_int_equal(cdyn_surface_get_domain(&d, NULL, NULL, per), CDYN_OK);
    assert_true(per[0] == 1 && per[1] == 1);
    double samples[6] = {0};
    cdyn_heightfield_desc h;
    cdyn_heightfield_desc_init(&h);
    h.nx = 3;
    h.ny = 2;
    h.origin[0] = -1.0;
    h.spacing[0] = 0.5;
    h.spacing[1] = 2.0;
    h.samples = samples;
    cdyn_surface_desc_init(&d, CDYN_SURFACE_HEIGHTFIELD);
    d.heightfield = &h;
    assert_int_equal(cdyn_surface_get_domain(&d, ur, vr, per), CDYN_OK);
    assert_true(ur[0] == -1.0 && ur[1] == 0.0 && vr[0] == 0.0 && vr[1] == 2.0);
    assert_true(per[0] == 0 && per[1] == 0);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_PLANE);
    d.u_min = 0.0;
    d.u_max = 2.0;
    assert_int_equal(cdyn_surface_get_domain(&d, ur, vr, NULL), CDYN_OK);
    assert_true(ur[0] == 0.0 && ur[1] == 2.0 && vr[0] == -INFINITY && vr[1] == INFINITY);
}

static void test_closest(void **state)
{
    (void)state;
    cdyn_surface_desc d;
    double u, v;
    cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
    d.radius = 2.0;
    double x[3] = {0.0, 5.0, 5.0}; /* 45 degrees from the pole, longitude 90 degrees */
    assert_int_equal(cdyn_surface_closest_parameters(&d, x, &u, &v), CDYN_OK);
    assert_true(fabs(u - PI / 2) < 1e-15 && fabs(v - PI / 4) < 1e-15);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_TORUS);
    d.radius = 3.0;
    d.minor_radius = 1.0;
    double y[3] = {-5.0, 0.0, 0.0}; /* outside the tube at u = pi, on its equator */
    assert_int_equal(cdyn_surface_closest_parameters(&d, y, &u, &v), CDYN_OK);
    assert_true(fabs(u - PI) < 1e-15 && fabs(v) < 1e-15);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_PLANE);
    d.axis1[1] = 1.0; /* not orthogonal to axis2 */
    double z[3] = {1.0, 3.0, -4.0};
    assert_int_equal(cdyn_surface_closest_parameters(&d, z, &u, &v), CDYN_OK);
    assert_true(fabs(u - 1.0) < 1e-15 && fabs(v - 2.0) < 1e-15);
    /* a height field: a point straight above a grid node of a gentle slope */
    double samples[16];
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
            samples[4 * j + i] = 0.1 * i;
    cdyn_heightfield_desc h;
    cdyn_heightfield_desc_init(&h);
    h.nx = h.ny = 4;
    h.samples = samples;
    cdyn_surface_desc_init(&d, CDYN_SURFACE_HEIGHTFIELD);
    d.heightfield = &h;
    double p[3] = {1.5, 1.5, 1.15}; /* 1 above the plane z = 0.1 x, along its normal from (1.4, 1.5) */
    double n = sqrt(1.01);
    p[0] = 1.5 - 0.1 / n;
    p[2] = 0.15 + 1.0 / n;
    assert_int_equal(cdyn_surface_closest_parameters(&d, p, &u, &v), CDYN_OK);
    assert_true(fabs(u - 1.5) < 1e-12 && fabs(v - 1.5) < 1e-12);
}

static void test_heightfield_evaluate(void **state)
{
    (void)state;
    /* f = 1 + x - 2y + x y^2 - x^3 y^3 / 10 reproduced exactly by BICUBIC (degree 3 x 3) */
    enum { NX = 6, NY = 5 };
    double samples[NX * NY];
    cdyn_heightfield_desc h;
    cdyn_heightfield_desc_init(&h);
    h.nx = NX;
    h.ny = NY;
    h.origin[0] = -1.0;
    h.origin[1] = -0.5;
    h.spacing[0] = 0.4;
    h.spacing[1] = 0.3;
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            double x = -1.0 + 0.4 * i, y = -0.5 + 0.3 * j;
            samples[j * NX + i] = 1 + x - 2 * y + x * y * y - x * x * x * y * y * y / 10;
        }
    h.samples = samples;
    double worst = 0.0;
    for (int k = 0; k < 50; k++) {
        double x = -1.0 + 2.0 * (k % 10) / 10.0 + 0.013, y = -0.5 + 1.2 * (k % 7) / 7.0 + 0.01;
        double f, g[2], H[3];
        assert_int_equal(cdyn_heightfield_evaluate(&h, x, y, &f, g, H), CDYN_OK);
        double ef = 1 + x - 2 * y + x * y * y - x * x * x * y * y * y / 10;
        double gx = 1 + y * y - 3 * x * x * y * y * y / 10, gy = -2 + 2 * x * y - 3 * x * x * x * y * y / 10;
        double hxx = -6 * x * y * y * y / 10, hxy = 2 * y - 9 * x * x * y * y / 10,
               hyy = 2 * x - 6 * x * x * x * y / 10;
        worst = fmax(worst, fmax(fabs(f - ef), fmax(fabs(g[0] - gx), fabs(g[1] - gy))));
        worst = fmax(worst, fmax(fabs(H[0] - hxx), fmax(fabs(H[1] - hxy), fabs(H[2] - hyy))));
    }
    print_message("bicubic on a degree 3 x 3 polynomial: error %.2e\n", worst);
    assert_true(worst < 1e-12);
    /* outputs optional; outside the grid: clamped, flat across the edge */
    double f_edge, g_edge[2], f_out, g_out[2];
    assert_int_equal(cdyn_heightfield_evaluate(&h, 1.0, 0.2, &f_edge, g_edge, NULL), CDYN_OK);
    assert_int_equal(cdyn_heightfield_evaluate(&h, 3.0, 0.2, &f_out, g_out, NULL), CDYN_OK);
    assert_true(f_out == f_edge && g_out[0] == 0.0 && g_out[1] == g_edge[1]);
    assert_int_equal(cdyn_heightfield_evaluate(&h, 3.0, 0.2, NULL, NULL, NULL), CDYN_OK);
    /* bilinear: exact on bilinear data, Hessian only f_xy */
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            double x = -1.0 + 0.4 * i, y = -0.5 + 0.3 * j;
            samples[j * NX + i] = 2 - x + 3 * y + 0.5 * x * y;
        }
    h.interpolation = CDYN_HEIGHTFIELD_BILINEAR;
    double f, g[2], H[3];
    assert_int_equal(cdyn_heightfield_evaluate(&h, 0.33, 0.21, &f, g, H), CDYN_OK);
    assert_true(fabs(f - (2 - 0.33 + 3 * 0.21 + 0.5 * 0.33 * 0.21)) < 1e-15);
    assert_true(fabs(g[0] - (-1 + 0.5 * 0.21)) < 1e-14 && fabs(g[1] - (3 + 0.5 * 0.33)) < 1e-14);
    assert_true(H[0] == 0.0 && fabs(H[1] - 0.5) < 1e-14 && H[2] == 0.0);
}

static void test_refusals(void **state)
{
    (void)state;
    double samples[4] = {0, 1, 2, 3}, f = 9, x[3] = {0, 0, 0}, u = 9, v = 9, r[3] = {9, 9, 9};
    cdyn_heightfield_desc h;
    cdyn_heightfield_desc_init(&h);
    h.nx = h.ny = 2;
    h.samples = samples;
    assert_int_equal(cdyn_heightfield_evaluate(&h, 0.5, 0.5, &f, NULL, NULL), CDYN_OK);
    f = 9;
    assert_int_equal(cdyn_heightfield_evaluate(NULL, 0, 0, &f, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_heightfield_evaluate(&h, NAN, 0, &f, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    h.ny = 1; /* below 2 x 2 */
    assert_int_equal(cdyn_heightfield_evaluate(&h, 0, 0, &f, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    h.ny = 2;
    samples[2] = INFINITY;
    assert_int_equal(cdyn_heightfield_evaluate(&h, 0, 0, &f, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    samples[2] = 2;
    h.spacing[0] = -1.0;
    assert_int_equal(cdyn_heightfield_evaluate(&h, 0, 0, &f, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    h.spacing[0] = 1.0;
    h.interpolation = (cdyn_heightfield_interpolation)0;
    assert_int_equal(cdyn_heightfield_evaluate(&h, 0, 0, &f, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    h.interpolation = CDYN_HEIGHTFIELD_BICUBIC;
    h.size = 1;
    assert_int_equal(cdyn_heightfield_evaluate(&h, 0, 0, &f, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_true(f == 9);
    h.size = sizeof h;

    cdyn_surface_desc d;
    cdyn_surface_desc_init(&d, CDYN_SURFACE_TORUS);
    d.minor_radius = 2.0; /* not a ring torus */
    assert_int_equal(cdyn_surface_evaluate(&d, 0, 0, r, NULL, NULL, NULL, NULL, NULL),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_true(r[0] == 9);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
    d.radius = 0.0;
    assert_int_equal(cdyn_surface_get_domain(&d, NULL, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
    assert_int_equal(cdyn_surface_evaluate(&d, INFINITY, 0, r, NULL, NULL, NULL, NULL, NULL),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_surface_closest_parameters(&d, NULL, &u, &v), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_surface_closest_parameters(&d, x, NULL, &v), CDYN_ERR_INVALID_ARGUMENT);
    x[2] = NAN;
    assert_int_equal(cdyn_surface_closest_parameters(&d, x, &u, &v), CDYN_ERR_INVALID_ARGUMENT);
    assert_true(u == 9 && v == 9);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_HEIGHTFIELD); /* no height field given */
    assert_int_equal(cdyn_surface_get_domain(&d, NULL, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_surface_desc_init(&d, (cdyn_surface_kind)6);
    assert_int_equal(cdyn_surface_get_domain(&d, NULL, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_surface_get_domain(NULL, NULL, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
}

static int saddle(const cdyn_system *sys, double t, double u, double v, double r[3],
                  double ru[3], double rv[3], double ruu[3], double ruv[3], double rvv[3],
                  void *user)
{
    (void)sys, (void)t;
    int *fail = user;
    if (*fail == 1)
        return -1;
    r[0] = u;
    r[1] = v;
    r[2] = u * v;
    ru[0] = 1.0;
    ru[2] = v;
    rv[1] = 1.0;
    rv[2] = u;
    ruv[2] = *fail == 2 ? NAN : 1.0;
    (void)ruu;
    (void)rvv;
    return 0;
}

static void test_callback(void **state)
{
    (void)state;
    int fail = 0;
    cdyn_surface_desc d;
    cdyn_surface_desc_init(&d, CDYN_SURFACE_CALLBACK);
    d.callback = saddle;
    d.user = &fail;
    double r[3], ruv[3], u, v;
    assert_int_equal(cdyn_surface_evaluate(&d, 2.0, 3.0, r, NULL, NULL, NULL, ruv, NULL), CDYN_OK);
    assert_true(r[2] == 6.0 && ruv[2] == 1.0);
    double x[3] = {0.5, -0.25, -0.125}; /* on the saddle */
    assert_int_equal(cdyn_surface_closest_parameters(&d, x, &u, &v), CDYN_OK);
    assert_true(fabs(u - 0.5) < 1e-12 && fabs(v + 0.25) < 1e-12);
    fail = 1;
    assert_int_equal(cdyn_surface_evaluate(&d, 2.0, 3.0, r, NULL, NULL, NULL, NULL, NULL),
                     CDYN_ERR_CALLBACK);
    assert_int_equal(cdyn_surface_closest_parameters(&d, x, &u, &v), CDYN_ERR_CALLBACK);
    fail = 2;
    assert_int_equal(cdyn_surface_evaluate(&d, 2.0, 3.0, r, NULL, NULL, NULL, NULL, NULL),
                     CDYN_ERR_CALLBACK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_desc_init),
        cmocka_unit_test(test_evaluate),
        cmocka_unit_test(test_derivatives_match_differences),
        cmocka_unit_test(test_get_domain),
        cmocka_unit_test(test_closest),
        cmocka_unit_test(test_heightfield_evaluate),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_callback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
