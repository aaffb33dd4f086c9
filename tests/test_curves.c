/* Public API of curve descriptions (cdyn/shapes.h): defaults, evaluation,
 * domains, arc length and its inverse, closest point, refusals. Links the
 * shared library only. */
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

static const double track[] = {0, 0, 2, 1, 4, 0.5, 6, -1, 8, 0, 10, 2};

static cdyn_curve_desc make(cdyn_curve_kind kind)
{
    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, kind);
    if (kind == CDYN_CURVE_SPLINE) {
        d.points = track;
        d.num_points = 6;
    }
    return d;
}

static void test_desc_init(void **state)
{
    (void)state;
    cdyn_curve_desc d;
    memset(&d, 0x77, sizeof d);
    cdyn_curve_desc_init(&d, CDYN_CURVE_CIRCLE);
    assert_int_equal(d.size, sizeof d);
    assert_int_equal(d.kind, CDYN_CURVE_CIRCLE);
    assert_true(d.origin[0] == 0 && d.origin[1] == 0 && d.origin[2] == 0);
    assert_true(d.axis1[0] == 1 && d.axis1[1] == 0 && d.axis1[2] == 0);
    assert_true(d.axis2[0] == 0 && d.axis2[1] == 1 && d.axis2[2] == 0);
    assert_true(d.radius == 1.0 && d.pitch == 1.0 && d.coefficient == 1.0);
    assert_null(d.points);
    assert_int_equal(d.num_points, 0);
    assert_int_equal(d.spline_end, CDYN_SPLINE_NATURAL);
    assert_null(d.callback);
    assert_null(d.user);
    assert_int_equal(d.periodic, 0);
    assert_true(d.q_min == -INFINITY && d.q_max == INFINITY);
    cdyn_curve_desc_init(&d, CDYN_CURVE_HELIX);
    assert_true(d.axis2[0] == 0 && d.axis2[1] == 0 && d.axis2[2] == 1);
    cdyn_curve_desc_init(NULL, CDYN_CURVE_LINE); /* no-op */
    /* pinned values */
    assert_int_equal(CDYN_CURVE_LINE, 1);
    assert_int_equal(CDYN_CURVE_CALLBACK, 7);
    assert_int_equal(CDYN_SPLINE_NATURAL, 1);
    assert_int_equal(CDYN_SPLINE_CLAMPED, 2);
    assert_int_equal(CDYN_SPLINE_CLOSED, 3);
}

static void test_evaluate(void **state)
{
    (void)state;
    /* the parabola (q, -q^2 / 100) */
    cdyn_curve_desc d = make(CDYN_CURVE_PARABOLA);
    d.coefficient = -0.01;
    for (double q = -150.0; q <= 150.0; q += 12.5) {
        double r[3] = {0, 0, 99}, dr[2], ddr[2];
        assert_int_equal(cdyn_curve_evaluate(&d, 2, q, r, dr, ddr), CDYN_OK);
        assert_true(r[0] == q && fabs(r[1] + q * q / 100.0) <= 1e-15 * fmax(1.0, q * q / 100));
        assert_true(r[2] == 99); /* dim = 2: only two doubles written */
        assert_true(dr[0] == 1.0 && fabs(dr[1] + q / 50.0) <= 1e-15 * fmax(1.0, fabs(q)));
        assert_true(ddr[0] == 0.0 && fabs(ddr[1] + 0.02) < 1e-17);
    }
    /* any output may be NULL */
    double dr[3];
    assert_int_equal(cdyn_curve_evaluate(&d, 2, 3.0, NULL, dr, NULL), CDYN_OK);
    assert_int_equal(cdyn_curve_evaluate(&d, 2, 3.0, NULL, NULL, NULL), CDYN_OK);
    /* circle and helix in 3-D */
    d = make(CDYN_CURVE_CIRCLE);
    d.origin[2] = 1.0;
    d.radius = 2.0;
    double r[3];
    assert_int_equal(cdyn_curve_evaluate(&d, 3, PI / 2, r, NULL, NULL), CDYN_OK);
    assert_true(fabs(r[0]) < 1e-15 && fabs(r[1] - 2.0) < 1e-15 && r[2] == 1.0);
    /* periodic: any q */
    double r2[3];
    assert_int_equal(cdyn_curve_evaluate(&d, 3, PI / 2 + 10 * TWO_PI, r2, NULL, NULL), CDYN_OK);
    assert_true(fabs(r2[1] - r[1]) < 1e-13 && fabs(r2[0]) < 1e-13);
    d = make(CDYN_CURVE_HELIX);
    d.pitch = 2.0;
    assert_int_equal(cdyn_curve_evaluate(&d, 3, 2 * TWO_PI, r, NULL, NULL), CDYN_OK);
    assert_true(fabs(r[0] - 1.0) < 1e-14 && fabs(r[2] - 4.0) < 1e-14);
    /* the spline passes through its points */
    d = make(CDYN_CURVE_SPLINE);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(cdyn_curve_evaluate(&d, 2, (double)i, r, NULL, NULL), CDYN_OK);
        assert_true(fabs(r[0] - track[2 * i]) < 1e-14 && fabs(r[1] - track[2 * i + 1]) < 1e-14);
    }
}

static int tilted_sine(const cdyn_system *sys, double t, double q, double r[3], double dr[3],
                  double ddr[3], void *user)
{
    (void)sys, (void)t;
    double k = *(const double *)user;
    r[0] = q;
    r[1] = sin(k * q);
    r[2] = 0.5 * q;
    dr[0] = 1.0;
    dr[1] = k * cos(k * q);
    dr[2] = 0.5;
    ddr[1] = -k * k * sin(k * q);
    return 0;
}

static void test_derivatives_match_differences(void **state)
{
    (void)state;
    double k = 1.3;
    const cdyn_curve_kind kinds[] = {CDYN_CURVE_LINE,  CDYN_CURVE_CIRCLE,  CDYN_CURVE_PARABOLA,
                                     CDYN_CURVE_HELIX, CDYN_CURVE_CYCLOID, CDYN_CURVE_SPLINE,
                                     CDYN_CURVE_CALLBACK};
    for (int i = 0; i < 7; i++) {
        cdyn_curve_desc d = make(kinds[i]);
        d.callback = tilted_sine;
        d.user = &k;
        d.axis2[0] = 0.3; /* not orthogonal: Gram-Schmidt'ed */
        int dim = kinds[i] == CDYN_CURVE_SPLINE ? 2 : 3;
        double worst = 0.0, h = 1e-5;
        for (int j = 0; j < 50; j++) {
            double q = 0.1 + 0.0937 * j, r[3], dr[3], ddr[3], rp[3], rm[3], dp[3], dm[3];
            assert_int_equal(cdyn_curve_evaluate(&d, dim, q, r, dr, ddr), CDYN_OK);
            assert_int_equal(cdyn_curve_evaluate(&d, dim, q + h, rp, dp, NULL), CDYN_OK);
            assert_int_equal(cdyn_curve_evaluate(&d, dim, q - h, rm, dm, NULL), CDYN_OK);
            double n1 = 0, n2 = 0, e1 = 0, e2 = 0;
            for (int c = 0; c < dim; c++) {
                n1 += dr[c] * dr[c];
                n2 += ddr[c] * ddr[c];
                e1 = fmax(e1, fabs((rp[c] - rm[c]) / (2 * h) - dr[c]));
                e2 = fmax(e2, fabs((dp[c] - dm[c]) / (2 * h) - ddr[c]));
            }
            double s = fmax(sqrt(n1), sqrt(n2));
            worst = fmax(worst, fmax(e1, e2) / s);
        }
        print_message("kind %d: worst FD relative error %.2e\n", (int)kinds[i], worst);
        assert_true(worst < 1e-7);
    }
}

static void test_get_domain(void **state)
{
    (void)state;
    double lo, hi;
    int per;
    cdyn_curve_desc d = make(CDYN_CURVE_CIRCLE);
    assert_int_equal(cdyn_curve_get_domain(&d, 2, &lo, &hi, &per), CDYN_OK);
    assert_true(lo == 0.0 && fabs(hi - TWO_PI) < 1e-15 && per == 1);
    d.q_min = 0.0;
    d.q_max = PI; /* a half circle with hard ends */
    assert_int_equal(cdyn_curve_get_domain(&d, 2, &lo, &hi, &per), CDYN_OK);
    assert_true(lo == 0.0 && hi == PI && per == 0);
    d = make(CDYN_CURVE_CYCLOID); /* one arch, its cusps hard ends */
    assert_int_equal(cdyn_curve_get_domain(&d, 2, &lo, &hi, &per), CDYN_OK);
    assert_true(lo == 0.0 && fabs(hi - TWO_PI) < 1e-15 && per == 0);
    d = make(CDYN_CURVE_LINE);
    assert_int_equal(cdyn_curve_get_domain(&d, 3, &lo, &hi, &per), CDYN_OK);
    assert_true(lo == -INFINITY && hi == INFINITY && per == 0);
    d = make(CDYN_CURVE_SPLINE);
    assert_int_equal(cdyn_curve_get_domain(&d, 2, &lo, &hi, NULL), CDYN_OK);
    assert_true(lo == 0.0 && hi == 5.0);
    d.spline_end = CDYN_SPLINE_CLOSED;
    assert_int_equal(cdyn_curve_get_domain(&d, 2, NULL, &hi, &per), CDYN_OK);
    assert_true(hi == 6.0 && per == 1);
    d = make(CDYN_CURVE_CALLBACK);
    d.callback = tilted_sine;
    d.periodic = 1;
    d.q_min = -1.0;
    d.q_max = 3.0;
    assert_int_equal(cdyn_curve_get_domain(&d, 2, &lo, &hi, &per), CDYN_OK);
    assert_true(lo == -1.0 && hi == 3.0 && per == 1);
}

static void test_arc_length(void **state)
{
    (void)state;
    double s, q;
    cdyn_curve_desc d = make(CDYN_CURVE_CIRCLE);
    d.radius = 3.0;
    assert_int_equal(cdyn_curve_arc_length(&d, 2, 0.0, TWO_PI, &s), CDYN_OK);
    assert_true(fabs(s - 6.0 * PI) < 1e-14);
    assert_int_equal(cdyn_curve_arc_length(&d, 2, 1.0, 0.0, &s), CDYN_OK);
    assert_true(fabs(s + 3.0) < 1e-15); /* backwards: negative */
    d = make(CDYN_CURVE_HELIX);
    d.radius = 1.0;
    d.pitch = TWO_PI;
    assert_int_equal(cdyn_curve_arc_length(&d, 3, 0.0, 1.0, &s), CDYN_OK);
    assert_true(fabs(s - sqrt(2.0)) < 1e-15);
    d = make(CDYN_CURVE_CYCLOID);
    d.radius = 2.0;
    assert_int_equal(cdyn_curve_arc_length(&d, 2, 0.0, TWO_PI, &s), CDYN_OK);
    assert_true(fabs(s - 16.0) < 1e-14); /* 8 R */
    d = make(CDYN_CURVE_PARABOLA);
    d.coefficient = -0.01; /* from the vertex to x = 100 */
    assert_int_equal(cdyn_curve_arc_length(&d, 2, 0.0, 100.0, &s), CDYN_OK);
    double exact = 50.0 * sqrt(5.0) + 25.0 * asinh(2.0);
    assert_true(fabs(s - exact) < 1e-12 * exact);
    /* and back: the parameter at that length */
    assert_int_equal(cdyn_curve_parameter_at_arc_length(&d, 2, 0.0, exact, &q), CDYN_OK);
    assert_true(fabs(q - 100.0) < 1e-12);
    assert_int_equal(cdyn_curve_parameter_at_arc_length(&d, 2, 100.0, -exact, &q), CDYN_OK);
    assert_true(fabs(q) < 1e-12);

    /* a roller-coaster loop: a closed spline through points on a circle
     * approaches 2 pi R, error falling like n^-4 */
    double h[4], err[4];
    for (int lvl = 0; lvl < 4; lvl++) {
        size_t n = (size_t)12 << lvl;
        double *pts = malloc(3 * n * sizeof(double));
        for (size_t i = 0; i < n; i++) {
            double t = TWO_PI * (double)i / (double)n;
            pts[3 * i] = 5.0 * cos(t);
            pts[3 * i + 1] = 0.0;
            pts[3 * i + 2] = 5.0 * sin(t);
        }
        d = make(CDYN_CURVE_SPLINE);
        d.points = pts;
        d.num_points = n;
        d.spline_end = CDYN_SPLINE_CLOSED;
        assert_int_equal(cdyn_curve_arc_length(&d, 3, 0.0, (double)n, &s), CDYN_OK);
        free(pts);
        h[lvl] = 1.0 / (double)n;
        err[lvl] = fabs(s - 10.0 * PI);
        print_message("%3zu points: loop length error %.3e\n", n, err[lvl]);
    }
    double order = ts_fit_order(h, err, 4);
    print_message("order %.2f\n", order);
    assert_true(order > 3.7);

    /* spline: s(q) and q(s) are inverse */
    d = make(CDYN_CURVE_SPLINE);
    for (double qq = 0.0; qq <= 5.0; qq += 0.3) {
        assert_int_equal(cdyn_curve_arc_length(&d, 2, 0.0, qq, &s), CDYN_OK);
        assert_int_equal(cdyn_curve_parameter_at_arc_length(&d, 2, 0.0, s, &q), CDYN_OK);
        assert_true(fabs(q - qq) < 1e-12);
    }
    /* beyond the end of an open spline: refused, q untouched */
    double total;
    assert_int_equal(cdyn_curve_arc_length(&d, 2, 0.0, 5.0, &total), CDYN_OK);
    q = 42.0;
    assert_int_equal(cdyn_curve_parameter_at_arc_length(&d, 2, 0.0, total + 0.1, &q),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_true(q == 42.0);
    assert_int_equal(cdyn_curve_parameter_at_arc_length(&d, 2, 0.0, -0.1, &q),
                     CDYN_ERR_INVALID_ARGUMENT);

    /* callback: by quadrature */
    double k = 0.0; /* the straight line (q, 0, q/2) */
    d = make(CDYN_CURVE_CALLBACK);
    d.callback = tilted_sine;
    d.user = &k;
    assert_int_equal(cdyn_curve_arc_length(&d, 3, -1.0, 3.0, &s), CDYN_OK);
    assert_true(fabs(s - 4.0 * sqrt(1.25)) < 1e-13);
    assert_int_equal(cdyn_curve_parameter_at_arc_length(&d, 3, -1.0, s, &q), CDYN_OK);
    assert_true(fabs(q - 3.0) < 1e-12);
}

static void test_closest_parameter(void **state)
{
    (void)state;
    double q;
    /* the parabola y = -x^2/100: a point on it, and a point below its vertex */
    cdyn_curve_desc d = make(CDYN_CURVE_PARABOLA);
    d.coefficient = -0.01;
    double on[2] = {40.0, -16.0};
    assert_int_equal(cdyn_curve_closest_parameter(&d, 2, on, &q), CDYN_OK);
    assert_true(fabs(q - 40.0) < 1e-12);
    double below[2] = {0.0, -80.0}; /* beyond the centre of curvature: two feet, the smaller wins */
    assert_int_equal(cdyn_curve_closest_parameter(&d, 2, below, &q), CDYN_OK);
    double r[2], dr[2];
    assert_int_equal(cdyn_curve_evaluate(&d, 2, q, r, dr, NULL), CDYN_OK);
    assert_true(q < 0.0);
    assert_true(fabs(dr[0] * (below[0] - r[0]) + dr[1] * (below[1] - r[1])) < 1e-9);
    /* a circle: the angle of the point */
    d = make(CDYN_CURVE_CIRCLE);
    double x[3] = {0.0, -3.0, 7.0};
    assert_int_equal(cdyn_curve_closest_parameter(&d, 3, x, &q), CDYN_OK);
    assert_true(fabs(q - 1.5 * PI) < 1e-15);
    /* a spline track: points on it come back */
    d = make(CDYN_CURVE_SPLINE);
    d.spline_end = CDYN_SPLINE_CLOSED;
    for (double qq = 0.05; qq < 6.0; qq += 0.45) {
        double p[2];
        assert_int_equal(cdyn_curve_evaluate(&d, 2, qq, p, NULL, NULL), CDYN_OK);
        assert_int_equal(cdyn_curve_closest_parameter(&d, 2, p, &q), CDYN_OK);
        assert_true(fabs(q - qq) < 1e-9);
    }
}

static void test_refusals(void **state)
{
    (void)state;
    double r[3] = {5, 5, 5}, s = 5, q = 5, lo = 5, x[3] = {0, 0, 0};
    cdyn_curve_desc d = make(CDYN_CURVE_LINE);
    /* NULL description, wrong size, kind, dimension */
    assert_int_equal(cdyn_curve_evaluate(NULL, 2, 0.0, r, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    d.size = 0;
    assert_int_equal(cdyn_curve_evaluate(&d, 2, 0.0, r, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    d.size = sizeof d + 8;
    assert_int_equal(cdyn_curve_evaluate(&d, 2, 0.0, r, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    d = make((cdyn_curve_kind)8);
    assert_int_equal(cdyn_curve_evaluate(&d, 2, 0.0, r, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    d = make(CDYN_CURVE_LINE);
    assert_int_equal(cdyn_curve_evaluate(&d, 1, 0.0, r, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_curve_evaluate(&d, 4, 0.0, r, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_curve_evaluate(&d, 2, NAN, r, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_curve_evaluate(&d, 2, -INFINITY, r, NULL, NULL),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_true(r[0] == 5 && r[1] == 5 && r[2] == 5);
    /* degenerate shapes */
    d.axis1[0] = 0.0;
    assert_int_equal(cdyn_curve_evaluate(&d, 2, 0.0, r, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    d = make(CDYN_CURVE_CIRCLE);
    d.radius = 0.0;
    assert_int_equal(cdyn_curve_get_domain(&d, 2, &lo, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_true(lo == 5);
    d.radius = -2.0;
    assert_int_equal(cdyn_curve_arc_length(&d, 2, 0, 1, &s), CDYN_ERR_INVALID_ARGUMENT);
    d = make(CDYN_CURVE_HELIX);
    assert_int_equal(cdyn_curve_evaluate(&d, 2, 0.0, r, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    d = make(CDYN_CURVE_SPLINE);
    d.num_points = 3;
    assert_int_equal(cdyn_curve_evaluate(&d, 2, 0.0, r, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    double dup[] = {0, 0, 1, 0, 1, 0, 2, 1};
    d.points = dup;
    d.num_points = 4;
    assert_int_equal(cdyn_curve_evaluate(&d, 2, 0.0, r, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    d = make(CDYN_CURVE_CALLBACK); /* no function */
    assert_int_equal(cdyn_curve_evaluate(&d, 2, 0.0, r, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    /* NULL or non-finite arguments of the queries */
    d = make(CDYN_CURVE_LINE);
    assert_int_equal(cdyn_curve_arc_length(&d, 2, 0, 1, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_curve_arc_length(&d, 2, 0, NAN, &s), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_curve_parameter_at_arc_length(&d, 2, 0, 1, NULL),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_curve_parameter_at_arc_length(&d, 2, 0, INFINITY, &q),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_curve_closest_parameter(&d, 2, NULL, &q), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_curve_closest_parameter(&d, 2, x, NULL), CDYN_ERR_INVALID_ARGUMENT);
    x[1] = NAN;
    assert_int_equal(cdyn_curve_closest_parameter(&d, 2, x, &q), CDYN_ERR_INVALID_ARGUMENT);
    x[1] = 0.0;
    x[2] = NAN; /* ignored in 2-D */
    assert_int_equal(cdyn_curve_closest_parameter(&d, 2, x, &q), CDYN_OK);
    assert_true(s == 5);
}

static int broken(const cdyn_system *sys, double t, double q, double r[3], double dr[3],
                  double ddr[3], void *user)
{
    (void)sys, (void)t;
    (void)r;
    (void)ddr;
    int mode = *(int *)user;
    if (mode == 0)
        return 7;
    dr[0] = q > 0.0 ? NAN : 1.0;
    return 0;
}

static void test_callback_errors(void **state)
{
    (void)state;
    int mode = 0;
    cdyn_curve_desc d = make(CDYN_CURVE_CALLBACK);
    d.callback = broken;
    d.user = &mode;
    d.q_min = -1.0;
    d.q_max = 1.0;
    double r[3] = {3, 3, 3}, s, q, x[3] = {0, 1, 0};
    assert_int_equal(cdyn_curve_evaluate(&d, 3, 0.5, r, NULL, NULL), CDYN_ERR_CALLBACK);
    assert_true(r[0] == 3);
    assert_int_equal(cdyn_curve_arc_length(&d, 3, -1, 1, &s), CDYN_ERR_CALLBACK);
    assert_int_equal(cdyn_curve_parameter_at_arc_length(&d, 3, -1, 0.5, &q), CDYN_ERR_CALLBACK);
    assert_int_equal(cdyn_curve_closest_parameter(&d, 3, x, &q), CDYN_ERR_CALLBACK);
    mode = 1; /* NaN for q > 0 */
    assert_int_equal(cdyn_curve_evaluate(&d, 3, -0.5, r, NULL, NULL), CDYN_OK);
    assert_int_equal(cdyn_curve_evaluate(&d, 3, 0.5, r, NULL, NULL), CDYN_ERR_CALLBACK);
    assert_int_equal(cdyn_curve_arc_length(&d, 3, -1, 1, &s), CDYN_ERR_CALLBACK);
}

/* A helix-like callback whose speed oscillates too fast for the quadrature
 * to meet its tolerance: |r'| = 1 + 0.5 sin(1e9 q). */
static int wiggly(const cdyn_system *sys, double t, double q, double r[3], double dr[3],
                  double ddr[3], void *user)
{
    (void)sys, (void)t;
    (void)user;
    double w = 1e9, sp = 1.0 + 0.5 * sin(w * q);
    r[0] = q;
    r[1] = r[2] = 0;
    dr[0] = sp;
    dr[1] = dr[2] = 0;
    ddr[0] = 0.5 * w * cos(w * q);
    ddr[1] = ddr[2] = 0;
    return 0;
}

/* Inputs whose magnitude overflows a length: every call returns a status,
 * and quickly (the quadrature's work is bounded whatever the integrand). */
static void test_overflowing_lengths_return(void **state)
{
    (void)state;
    const double pts[8] = {0, 0, 1, 1, 2, 0, 3, 1};
    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, CDYN_CURVE_SPLINE);
    d.points = pts;
    d.num_points = 4;
    d.spline_end = CDYN_SPLINE_NATURAL;
    double len = -1, r[3], dr[3], ddr[3];
    /* Far beyond the ends the extrapolated cubic's length overflows. */
    assert_int_equal(cdyn_curve_arc_length(&d, 2, 2, 1e200, &len), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_curve_arc_length(&d, 2, 2, 1e150, &len), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_curve_arc_length(&d, 2, 0, 3, &len), CDYN_OK);
    assert_true(len > 3 && len < 6);
    /* A huge but finite end tangent: finite speeds, a finite length. */
    d.spline_end = CDYN_SPLINE_CLAMPED;
    d.start_tangent[0] = 1;
    d.end_tangent[0] = 1e200;
    assert_int_equal(cdyn_curve_evaluate(&d, 2, 1.5, r, dr, ddr), CDYN_OK);
    assert_true(isfinite(r[0]) && isfinite(dr[0]) && isfinite(ddr[0]));
    /* One whose segment lengths overflow is refused. */
    d.end_tangent[0] = 1.7e308;
    d.start_tangent[0] = -1.7e308;
    assert_int_equal(cdyn_curve_evaluate(&d, 2, 1.5, r, dr, ddr), CDYN_ERR_INVALID_ARGUMENT);
    /* An integrand the tolerance cannot be met for: bounded work. */
    cdyn_curve_desc c;
    cdyn_curve_desc_init(&c, CDYN_CURVE_CALLBACK);
    c.callback = wiggly;
    cdyn_status st = cdyn_curve_arc_length(&c, 3, 0, 1, &len);
    assert_true(st == CDYN_OK || st == CDYN_ERR_NOT_CONVERGED);
    if (st == CDYN_OK)
        assert_true(fabs(len - 1.0) < 1e-6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_desc_init),
        cmocka_unit_test(test_evaluate),
        cmocka_unit_test(test_derivatives_match_differences),
        cmocka_unit_test(test_get_domain),
        cmocka_unit_test(test_arc_length),
        cmocka_unit_test(test_closest_parameter),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_callback_errors),
        cmocka_unit_test(test_overflowing_lengths_return),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
