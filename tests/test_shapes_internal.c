/* White-box tests of the parametric shape module (src/parametric/):
 * derivatives against finite differences for every kind, splines (interpolation,
 * C2 at knots and seam, end conditions, arc length and its inverse, convergence
 * to a circle), height fields (polynomial reproduction, smoothness, clamping),
 * closest-point search, chart changes, validation, callbacks, allocation. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "shapes/curve.h"
#include "shapes/curve_closest.h"
#include "shapes/curve_length.h"
#include "shapes/heightfield.h"
#include "shapes/spline.h"
#include "shapes/surface.h"
#include "shapes/surface_closest.h"
#include "support.h"

#define PI 3.14159265358979323846
#define TWO_PI (2.0 * PI)

/* ---- helpers ---- */

typedef struct rng {
    uint64_t s;
} rng;

static double uniform(rng *g, double lo, double hi)
{
    g->s ^= g->s << 13;
    g->s ^= g->s >> 7;
    g->s ^= g->s << 17;
    return lo + (hi - lo) * (double)(g->s >> 11) * (1.0 / 9007199254740992.0);
}

static double norm3(const double a[3])
{
    return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

static double dist3(const double a[3], const double b[3])
{
    double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return norm3(d);
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* |fd - exact| / max(|exact|, |ref|): relative error with a floor set by a
 * neighbouring derivative (so that zero second derivatives are measured
 * against the first). */
static double rel_err(const double fd[3], const double exact[3], const double ref[3])
{
    double scale = fmax(norm3(exact), norm3(ref));
    return dist3(fd, exact) / (scale > 0.0 ? scale : 1.0);
}

static cdyn__curve make_curve(const cdyn_curve_desc *d, int dim)
{
    cdyn__curve c;
    assert_int_equal(cdyn__curve_init(&c, d, dim, NULL), CDYN_OK);
    return c;
}

/* Central-difference check of r' and r'' at q with step h; returns the worst
 * relative error. */
static double curve_fd_error(const cdyn__curve *c, double q, double h)
{
    double r[3], dr[3], ddr[3], rp[3], rm[3], dp[3], dm[3], fd1[3], fd2[3];
    assert_int_equal(cdyn__curve_eval(c, q, r, dr, ddr), CDYN_OK);
    assert_int_equal(cdyn__curve_eval(c, q + h, rp, dp, NULL), CDYN_OK);
    assert_int_equal(cdyn__curve_eval(c, q - h, rm, dm, NULL), CDYN_OK);
    for (int k = 0; k < 3; k++) {
        fd1[k] = (rp[k] - rm[k]) / (2.0 * h);
        fd2[k] = (dp[k] - dm[k]) / (2.0 * h);
    }
    return fmax(rel_err(fd1, dr, ddr), rel_err(fd2, ddr, dr));
}

/* Callback curve that replays an internal curve (to cross-check the callback
 * paths against closed forms). */
static int replay_curve(const cdyn_system *sys, double t, double q, double r[3], double dr[3],
                  double ddr[3], void *user)
{
    (void)sys, (void)t;
    return cdyn__curve_eval(user, q, r, dr, ddr) == CDYN_OK ? 0 : 1;
}

static const double spline_pts3[] = {0, 0, 0, 1, 0.5, 0.2, 2, 0.1, 0.8, 3, -0.7, 1.0,
                                     4, 0.3, 0.4, 4.5, 1.5, -0.5, 3.5, 2.5, 0.0};
static const size_t spline_n3 = 7;
static const double spline_pts2[] = {0, 0, 1, 1, 2, 0.5, 3, -1, 4, 0, 5, 2};
static const size_t spline_n2 = 6;

/* A sampler of every curve kind used in several tests. */
static cdyn_curve_desc curve_desc(cdyn_curve_kind kind, int dim, cdyn_spline_end end)
{
    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, kind);
    d.origin[0] = 0.5;
    d.origin[1] = -1.0;
    d.origin[2] = dim == 3 ? 2.0 : 0.0;
    switch (kind) {
    case CDYN_CURVE_LINE:
        d.axis1[0] = 1.0;
        d.axis1[1] = 2.0;
        d.axis1[2] = dim == 3 ? -0.5 : 0.0;
        break;
    case CDYN_CURVE_CIRCLE:
    case CDYN_CURVE_CYCLOID:
    case CDYN_CURVE_PARABOLA:
        d.radius = 1.7;
        d.coefficient = -0.3;
        d.axis1[0] = 1.0;
        d.axis1[1] = 1.0;
        d.axis1[2] = dim == 3 ? 1.0 : 0.0;
        d.axis2[0] = -1.0;
        d.axis2[1] = 1.0;
        d.axis2[2] = dim == 3 ? 0.5 : 0.0;
        break;
    case CDYN_CURVE_HELIX:
        d.radius = 1.3;
        d.pitch = 0.8;
        d.axis2[0] = 0.2;
        d.axis2[1] = 0.1;
        d.axis2[2] = 1.0;
        break;
    case CDYN_CURVE_SPLINE:
        d.points = dim == 3 ? spline_pts3 : spline_pts2;
        d.num_points = dim == 3 ? spline_n3 : spline_n2;
        d.spline_end = end;
        d.start_tangent[0] = 1.0;
        d.start_tangent[1] = 2.0;
        d.end_tangent[0] = -1.0;
        d.end_tangent[1] = 0.5;
        d.end_tangent[2] = dim == 3 ? 0.3 : 0.0;
        break;
    default:
        break;
    }
    return d;
}

/* Random parameter inside the domain of c, at least 3h from spline knots. */
static double random_param(rng *g, const cdyn__curve *c, double h)
{
    double lo = isfinite(c->dom.lo) ? c->dom.lo : -12.0;
    double hi = isfinite(c->dom.hi) ? c->dom.hi : 12.0;
    for (;;) {
        double q = uniform(g, lo, hi);
        if (c->kind != CDYN_CURVE_SPLINE)
            return q;
        double frac = q - floor(q);
        if (frac > 3.0 * h && frac < 1.0 - 3.0 * h)
            return q;
    }
}

/* ---- curves: derivatives ---- */

static void test_curve_derivatives_fd(void **state)
{
    (void)state;
    rng g = {0x9e3779b97f4a7c15ULL};
    const cdyn_curve_kind kinds[] = {CDYN_CURVE_LINE,  CDYN_CURVE_CIRCLE,  CDYN_CURVE_PARABOLA,
                                     CDYN_CURVE_HELIX, CDYN_CURVE_CYCLOID, CDYN_CURVE_SPLINE};
    const cdyn_spline_end ends[] = {CDYN_SPLINE_NATURAL, CDYN_SPLINE_CLAMPED, CDYN_SPLINE_CLOSED};
    for (int dim = 2; dim <= 3; dim++) {
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            if (kinds[k] == CDYN_CURVE_HELIX && dim == 2)
                continue;
            size_t nend = kinds[k] == CDYN_CURVE_SPLINE ? 3 : 1;
            for (size_t e = 0; e < nend; e++) {
                cdyn_curve_desc d = curve_desc(kinds[k], dim, ends[e]);
                cdyn__curve c = make_curve(&d, dim);
                double worst = 0.0, h = 1e-4;
                for (int i = 0; i < 300; i++)
                    worst = fmax(worst, curve_fd_error(&c, random_param(&g, &c, h), h));
                print_message("curve kind %d end %d dim %d: worst FD relative error %.2e\n",
                              (int)kinds[k], (int)ends[e], dim, worst);
                assert_true(worst < 1e-7);
                /* 2-D curves stay in the plane z = 0 */
                if (dim == 2) {
                    double r[3], dr[3], ddr[3];
                    assert_int_equal(cdyn__curve_eval(&c, 0.37, r, dr, ddr), CDYN_OK);
                    assert_true(r[2] == 0.0 && dr[2] == 0.0 && ddr[2] == 0.0);
                }
                cdyn__curve_free(&c);
            }
        }
    }
    /* a callback curve passes its values through */
    cdyn_curve_desc hd = curve_desc(CDYN_CURVE_HELIX, 3, CDYN_SPLINE_NATURAL);
    cdyn__curve helix = make_curve(&hd, 3);
    cdyn_curve_desc cd;
    cdyn_curve_desc_init(&cd, CDYN_CURVE_CALLBACK);
    cd.callback = replay_curve;
    cd.user = &helix;
    cdyn__curve cb = make_curve(&cd, 3);
    double worst = 0.0;
    for (int i = 0; i < 100; i++)
        worst = fmax(worst, curve_fd_error(&cb, uniform(&g, -10, 10), 1e-4));
    assert_true(worst < 1e-7);
    cdyn__curve_free(&cb);
    cdyn__curve_free(&helix);
}

static void test_curve_formulas(void **state)
{
    (void)state;
    /* the parabola (q, -q^2/100) */
    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, CDYN_CURVE_PARABOLA);
    d.coefficient = -1.0 / 100.0;
    cdyn__curve c = make_curve(&d, 2);
    for (double q = -200.0; q <= 200.0; q += 0.7) {
        double r[3], dr[3], ddr[3];
        assert_int_equal(cdyn__curve_eval(&c, q, r, dr, ddr), CDYN_OK);
        assert_true(r[0] == q);
        assert_true(fabs(r[1] - (-q * q / 100.0)) <= 1e-15 * fmax(1.0, q * q / 100.0));
        assert_true(dr[0] == 1.0 && fabs(dr[1] + q / 50.0) <= 1e-15 * fmax(1.0, fabs(q)));
        assert_true(ddr[0] == 0.0 && fabs(ddr[1] + 0.02) <= 1e-17);
    }
    cdyn__curve_free(&c);

    /* line: q is arc length along the unit direction */
    cdyn_curve_desc_init(&d, CDYN_CURVE_LINE);
    d.axis1[0] = 3.0;
    d.axis1[1] = 4.0;
    c = make_curve(&d, 2);
    double r[3];
    assert_int_equal(cdyn__curve_eval(&c, 5.0, r, NULL, NULL), CDYN_OK);
    assert_true(fabs(r[0] - 3.0) < 1e-15 && fabs(r[1] - 4.0) < 1e-15);
    cdyn__curve_free(&c);

    /* circle in 3-D: axes are orthonormalized, q = 0 along axis1 */
    cdyn_curve_desc_init(&d, CDYN_CURVE_CIRCLE);
    d.radius = 2.0;
    d.axis1[0] = 0.0;
    d.axis1[2] = 5.0; /* along z */
    d.axis2[0] = 0.0;
    d.axis2[1] = 1.0;
    d.axis2[2] = 1.0; /* y after Gram-Schmidt */
    c = make_curve(&d, 3);
    assert_int_equal(cdyn__curve_eval(&c, 0.0, r, NULL, NULL), CDYN_OK);
    assert_true(fabs(r[2] - 2.0) < 1e-15 && fabs(r[1]) < 1e-15);
    assert_int_equal(cdyn__curve_eval(&c, PI / 2, r, NULL, NULL), CDYN_OK);
    assert_true(fabs(r[1] - 2.0) < 1e-15 && fabs(r[2]) < 1e-15);
    cdyn__curve_free(&c);

    /* helix: one turn rises by the pitch, right-handed about the axis */
    cdyn_curve_desc_init(&d, CDYN_CURVE_HELIX);
    d.radius = 1.0;
    d.pitch = 0.5;
    c = make_curve(&d, 3);
    double r0[3], r1[3], dr0[3];
    assert_int_equal(cdyn__curve_eval(&c, 0.0, r0, dr0, NULL), CDYN_OK);
    assert_int_equal(cdyn__curve_eval(&c, TWO_PI, r1, NULL, NULL), CDYN_OK);
    assert_true(fabs(r1[2] - r0[2] - 0.5) < 1e-15 && fabs(r1[0] - r0[0]) < 1e-15);
    assert_true(dr0[1] > 0.0); /* from +x towards +y: counter-clockwise about +z */
    cdyn__curve_free(&c);

    /* cycloid: cusps at q = 2 pi k, top of the arch at q = pi */
    cdyn_curve_desc_init(&d, CDYN_CURVE_CYCLOID);
    d.radius = 0.5;
    c = make_curve(&d, 2);
    double dr[3];
    assert_int_equal(cdyn__curve_eval(&c, TWO_PI, r, dr, NULL), CDYN_OK);
    assert_true(fabs(r[0] - PI) < 1e-15 && fabs(r[1]) < 1e-15 && norm3(dr) < 1e-15);
    assert_int_equal(cdyn__curve_eval(&c, PI, r, NULL, NULL), CDYN_OK);
    assert_true(fabs(r[1] - 1.0) < 1e-15);
    cdyn__curve_free(&c);
}

/* ---- splines ---- */

static void test_spline_interpolates_points(void **state)
{
    (void)state;
    const cdyn_spline_end ends[] = {CDYN_SPLINE_NATURAL, CDYN_SPLINE_CLAMPED, CDYN_SPLINE_CLOSED};
    for (int dim = 2; dim <= 3; dim++) {
        const double *pts = dim == 3 ? spline_pts3 : spline_pts2;
        size_t n = dim == 3 ? spline_n3 : spline_n2;
        for (int e = 0; e < 3; e++) {
            cdyn_curve_desc d = curve_desc(CDYN_CURVE_SPLINE, dim, ends[e]);
            cdyn__curve c = make_curve(&d, dim);
            for (size_t i = 0; i < n; i++) {
                double r[3];
                assert_int_equal(cdyn__curve_eval(&c, (double)i, r, NULL, NULL), CDYN_OK);
                for (int k = 0; k < dim; k++)
                    assert_true(fabs(r[k] - pts[i * (size_t)dim + (size_t)k]) <= 1e-14);
            }
            if (ends[e] == CDYN_SPLINE_CLOSED) { /* the seam returns to the first point */
                double r[3], r0[3];
                assert_int_equal(cdyn__curve_eval(&c, (double)n, r, NULL, NULL), CDYN_OK);
                assert_int_equal(cdyn__curve_eval(&c, 0.0, r0, NULL, NULL), CDYN_OK);
                assert_true(dist3(r, r0) == 0.0);
            }
            cdyn__curve_free(&c);
        }
    }
}

static void test_spline_c2_at_knots(void **state)
{
    (void)state;
    const cdyn_spline_end ends[] = {CDYN_SPLINE_NATURAL, CDYN_SPLINE_CLAMPED, CDYN_SPLINE_CLOSED};
    for (int e = 0; e < 3; e++) {
        cdyn_curve_desc d = curve_desc(CDYN_CURVE_SPLINE, 3, ends[e]);
        cdyn__curve c = make_curve(&d, 3);
        const cdyn__spline *s = &c.spline;
        double worst = 0.0;
        size_t knots = s->closed ? s->n_seg : s->n_seg - 1; /* inner knots (and the seam) */
        for (size_t i = 1; i <= knots; i++) {
            double L[3][3], R[3][3];
            cdyn__spline_eval_segment(s, i - 1, 1.0, L[0], L[1], L[2]);
            cdyn__spline_eval_segment(s, i % s->n_seg, 0.0, R[0], R[1], R[2]);
            for (int o = 0; o < 3; o++)
                worst = fmax(worst, dist3(L[o], R[o]) / fmax(1.0, norm3(R[o])));
        }
        print_message("spline end %d: worst jump of r, r', r'' at knots %.2e\n", (int)ends[e],
                      worst);
        assert_true(worst < 1e-13);
        /* end conditions */
        double dr[3], ddr[3];
        if (ends[e] == CDYN_SPLINE_NATURAL) {
            cdyn__spline_eval_segment(s, 0, 0.0, NULL, NULL, ddr);
            assert_true(norm3(ddr) < 1e-13);
            cdyn__spline_eval_segment(s, s->n_seg - 1, 1.0, NULL, NULL, ddr);
            assert_true(norm3(ddr) < 1e-13);
        } else if (ends[e] == CDYN_SPLINE_CLAMPED) {
            cdyn__spline_eval_segment(s, 0, 0.0, NULL, dr, NULL);
            assert_true(dist3(dr, d.start_tangent) < 1e-14);
            cdyn__spline_eval_segment(s, s->n_seg - 1, 1.0, NULL, dr, NULL);
            assert_true(dist3(dr, d.end_tangent) < 1e-13);
        }
        cdyn__curve_free(&c);
    }
}

/* Closed spline through n points on a circle of radius R: its length. */
static double circle_spline_length(size_t n, double R)
{
    double *pts = malloc(2 * n * sizeof(double));
    for (size_t i = 0; i < n; i++) {
        pts[2 * i] = R * cos(TWO_PI * (double)i / (double)n);
        pts[2 * i + 1] = R * sin(TWO_PI * (double)i / (double)n);
    }
    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, CDYN_CURVE_SPLINE);
    d.points = pts;
    d.num_points = n;
    d.spline_end = CDYN_SPLINE_CLOSED;
    cdyn__curve c = make_curve(&d, 2);
    free(pts);
    double len;
    assert_int_equal(cdyn__curve_total_length(&c, &len), CDYN_OK);
    cdyn__curve_free(&c);
    return len;
}

static void test_spline_circle_length_converges(void **state)
{
    (void)state;
    const double R = 2.0;
    double h[6], err[6];
    for (int i = 0; i < 6; i++) {
        size_t n = (size_t)8 << i;
        double len = circle_spline_length(n, R);
        h[i] = 1.0 / (double)n;
        err[i] = fabs(len - TWO_PI * R);
        print_message("closed spline, %4zu points on a circle: length error %.3e\n", n, err[i]);
    }
    double order = ts_fit_order(h, err, 6);
    print_message("arc length converges with order %.2f\n", order);
    assert_true(order > 3.7 && order < 4.3);
    assert_true(err[5] / (TWO_PI * R) < 1e-9);
}

static void test_spline_arc_length(void **state)
{
    (void)state;
    rng g = {12345};
    const cdyn_spline_end ends[] = {CDYN_SPLINE_NATURAL, CDYN_SPLINE_CLAMPED, CDYN_SPLINE_CLOSED};
    for (int e = 0; e < 3; e++) {
        cdyn_curve_desc d = curve_desc(CDYN_CURVE_SPLINE, 3, ends[e]);
        cdyn__curve c = make_curve(&d, 3);
        const cdyn__spline *s = &c.spline;
        /* the table against a brute-force composite Gauss-Legendre sum */
        double brute = 0.0;
        const double x2[2] = {-0.5773502691896257645, 0.5773502691896257645};
        for (size_t i = 0; i < s->n_seg; i++) {
            const int m = 500;
            for (int j = 0; j < m; j++) {
                for (int k = 0; k < 2; k++) {
                    double t = ((double)j + 0.5 + 0.5 * x2[k]) / m, dr[3];
                    cdyn__spline_eval_segment(s, i, t, NULL, dr, NULL);
                    brute += 0.5 * norm3(dr) / m;
                }
            }
        }
        double total;
        assert_int_equal(cdyn__curve_total_length(&c, &total), CDYN_OK);
        print_message("spline end %d: length %.15f, table vs brute force %.2e\n", (int)ends[e],
                      total, fabs(total - brute) / brute);
        assert_true(fabs(total - brute) <= 1e-11 * brute);
        /* q(s(q)) = q and s(q(s)) = s */
        double worst_q = 0.0, worst_s = 0.0;
        for (int i = 0; i < 200; i++) {
            double q = uniform(&g, c.dom.lo, c.dom.hi), s_of_q, q_back;
            assert_int_equal(cdyn__curve_arc_length(&c, 0.0, q, &s_of_q), CDYN_OK);
            assert_int_equal(cdyn__curve_param_at_length(&c, 0.0, s_of_q, &q_back), CDYN_OK);
            worst_q = fmax(worst_q, fabs(q_back - q));
            double sl = uniform(&g, 0.0, total), q_s, s_back;
            assert_int_equal(cdyn__curve_param_at_length(&c, 0.0, sl, &q_s), CDYN_OK);
            assert_int_equal(cdyn__curve_arc_length(&c, 0.0, q_s, &s_back), CDYN_OK);
            worst_s = fmax(worst_s, fabs(s_back - sl) / total);
        }
        print_message("spline end %d: |q(s(q)) - q| <= %.2e, |s(q(s)) - s| / L <= %.2e\n",
                      (int)ends[e], worst_q, worst_s);
        assert_true(worst_q < 1e-12);
        assert_true(worst_s < 1e-13);
        /* past the ends of an open spline: refused */
        double q;
        if (ends[e] != CDYN_SPLINE_CLOSED) {
            assert_int_equal(cdyn__curve_param_at_length(&c, 0.0, total * 1.001, &q),
                             CDYN_ERR_INVALID_ARGUMENT);
            assert_int_equal(cdyn__curve_param_at_length(&c, 0.0, total, &q), CDYN_OK);
            assert_true(fabs(q - c.dom.hi) < 1e-12);
        } else { /* a closed one goes round: two turns and a bit */
            assert_int_equal(cdyn__curve_param_at_length(&c, 1.0, 2.0 * total, &q), CDYN_OK);
            assert_true(fabs(q - (1.0 + 2.0 * c.dom.hi)) < 1e-11);
            double back;
            assert_int_equal(cdyn__curve_param_at_length(&c, 1.0, -total, &back), CDYN_OK);
            assert_true(fabs(back - (1.0 - c.dom.hi)) < 1e-11);
        }
        cdyn__curve_free(&c);
    }
}

/* ---- arc length of the analytic kinds ---- */

static void test_closed_form_arc_lengths(void **state)
{
    (void)state;
    cdyn_curve_desc d;
    double s;
    cdyn_curve_desc_init(&d, CDYN_CURVE_CIRCLE);
    d.radius = 1.5;
    cdyn__curve c = make_curve(&d, 3);
    assert_int_equal(cdyn__curve_total_length(&c, &s), CDYN_OK);
    assert_true(fabs(s - TWO_PI * 1.5) < 1e-14);
    cdyn__curve_free(&c);

    cdyn_curve_desc_init(&d, CDYN_CURVE_HELIX);
    d.radius = 2.0;
    d.pitch = 3.0;
    c = make_curve(&d, 3);
    assert_int_equal(cdyn__curve_arc_length(&c, 0.0, TWO_PI, &s), CDYN_OK);
    assert_true(fabs(s - hypot(TWO_PI * 2.0, 3.0)) < 1e-14);
    cdyn__curve_free(&c);

    cdyn_curve_desc_init(&d, CDYN_CURVE_CYCLOID);
    d.radius = 0.75;
    c = make_curve(&d, 2);
    assert_int_equal(cdyn__curve_arc_length(&c, 0.0, TWO_PI, &s), CDYN_OK);
    assert_true(fabs(s - 8.0 * 0.75) < 1e-14); /* one arch: 8 R */
    assert_int_equal(cdyn__curve_arc_length(&c, -TWO_PI, 3.0 * TWO_PI, &s), CDYN_OK);
    assert_true(fabs(s - 32.0 * 0.75) < 1e-13);
    assert_int_equal(cdyn__curve_arc_length(&c, 0.0, PI, &s), CDYN_OK);
    assert_true(fabs(s - 4.0 * 0.75) < 1e-14); /* half an arch */
    cdyn__curve_free(&c);

    /* parabola y = x^2 from 0 to 1: sqrt(5)/2 + asinh(2)/4 */
    cdyn_curve_desc_init(&d, CDYN_CURVE_PARABOLA);
    d.coefficient = 1.0;
    c = make_curve(&d, 2);
    assert_int_equal(cdyn__curve_arc_length(&c, 0.0, 1.0, &s), CDYN_OK);
    assert_true(fabs(s - (sqrt(5.0) / 2.0 + asinh(2.0) / 4.0)) < 1e-15);
    cdyn__curve_free(&c);

    /* every analytic kind against quadrature of the same curve as a callback,
     * and the inverse of both */
    rng g = {777};
    const cdyn_curve_kind kinds[] = {CDYN_CURVE_LINE, CDYN_CURVE_CIRCLE, CDYN_CURVE_PARABOLA,
                                     CDYN_CURVE_HELIX, CDYN_CURVE_CYCLOID};
    for (size_t k = 0; k < 5; k++) {
        cdyn_curve_desc ad = curve_desc(kinds[k], 3, CDYN_SPLINE_NATURAL);
        cdyn__curve an = make_curve(&ad, 3);
        cdyn_curve_desc cd;
        cdyn_curve_desc_init(&cd, CDYN_CURVE_CALLBACK);
        cd.callback = replay_curve;
        cd.user = &an;
        cdyn__curve cb = make_curve(&cd, 3);
        double worst = 0.0, worst_inv = 0.0;
        for (int i = 0; i < 20; i++) {
            double q0 = uniform(&g, -6, 6), q1 = uniform(&g, -6, 6), sa, sc, qa, qc;
            if (kinds[k] == CDYN_CURVE_CYCLOID) {
                /* Quadrature samples |r'| at points: a cusp's kink in |r'| between
                 * samples goes unseen, so a callback's length across a cusp is
                 * only good to ~1e-4. Compare within one arch. */
                q0 = uniform(&g, 0.05, TWO_PI - 0.05);
                q1 = uniform(&g, 0.05, TWO_PI - 0.05);
            }
            assert_int_equal(cdyn__curve_arc_length(&an, q0, q1, &sa), CDYN_OK);
            assert_int_equal(cdyn__curve_arc_length(&cb, q0, q1, &sc), CDYN_OK);
            worst = fmax(worst, fabs(sa - sc) / fmax(1.0, fabs(sa)));
            assert_int_equal(cdyn__curve_param_at_length(&an, q0, sa, &qa), CDYN_OK);
            assert_int_equal(cdyn__curve_param_at_length(&cb, q0, sa, &qc), CDYN_OK);
            worst_inv = fmax(worst_inv, fmax(fabs(qa - q1), fabs(qc - q1)) / fmax(1.0, fabs(q1)));
        }
        print_message("kind %d: closed form vs quadrature %.2e, inverse %.2e\n", (int)kinds[k],
                      worst, worst_inv);
        assert_true(worst < 1e-12);
        assert_true(worst_inv < 1e-10);
        cdyn__curve_free(&cb);
        cdyn__curve_free(&an);
    }
}

static void test_windowed_domain(void **state)
{
    (void)state;
    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, CDYN_CURVE_CIRCLE);
    d.q_min = -0.5 * PI;
    d.q_max = 0.5 * PI; /* the right half: an open arc with hard ends */
    cdyn__curve c = make_curve(&d, 2);
    assert_false(c.dom.periodic);
    assert_int_equal(c.dom.lo_end, CDYN__END_HARD);
    assert_int_equal(c.dom.hi_end, CDYN__END_HARD);
    double q, s;
    assert_int_equal(cdyn__curve_param_at_length(&c, 0.0, 0.5 * PI, &q), CDYN_OK);
    assert_true(fabs(q - 0.5 * PI) < 1e-15);
    assert_int_equal(cdyn__curve_param_at_length(&c, 0.0, 0.6 * PI, &q),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__curve_total_length(&c, &s), CDYN_OK);
    assert_true(fabs(s - PI) < 1e-15);
    /* closest point of a point to the left: the nearer end */
    double x[3] = {-1.0, 0.1, 0.0};
    assert_int_equal(cdyn__curve_closest(&c, x, NULL, &q), CDYN_OK);
    assert_true(q == 0.5 * PI);
    x[1] = -0.1;
    assert_int_equal(cdyn__curve_closest(&c, x, NULL, &q), CDYN_OK);
    assert_true(q == -0.5 * PI);
    cdyn__curve_free(&c);

    /* one infinite end on a periodic curve, a window longer than a period,
     * or an empty window: refused */
    d.q_max = INFINITY;
    assert_int_equal(cdyn__curve_init(&c, &d, 2, NULL), CDYN_ERR_INVALID_ARGUMENT);
    d.q_min = 0.0;
    d.q_max = 7.0;
    assert_int_equal(cdyn__curve_init(&c, &d, 2, NULL), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_curve_desc_init(&d, CDYN_CURVE_LINE);
    d.q_min = 1.0;
    d.q_max = 1.0;
    assert_int_equal(cdyn__curve_init(&c, &d, 2, NULL), CDYN_ERR_INVALID_ARGUMENT);
    d.q_max = 3.0; /* a segment */
    c = make_curve(&d, 2);
    assert_int_equal(cdyn__curve_total_length(&c, &s), CDYN_OK);
    assert_true(s == 2.0);
    assert_true(cdyn__curve_wrap(&c, 7.0) == 7.0); /* not periodic: unchanged */
    cdyn__curve_free(&c);

    /* a spline window inside [0, n - 1] */
    cdyn_curve_desc sd = curve_desc(CDYN_CURVE_SPLINE, 2, CDYN_SPLINE_NATURAL);
    sd.q_min = 1.5;
    c = make_curve(&sd, 2);
    assert_true(c.dom.lo == 1.5 && c.dom.hi == 5.0);
    cdyn__curve_free(&c);
}

static void test_domain_wrap(void **state)
{
    (void)state;
    cdyn__domain d = cdyn__domain_periodic(0.0, TWO_PI);
    assert_true(cdyn__domain_wrap(&d, 1.0) == 1.0);
    assert_true(fabs(cdyn__domain_wrap(&d, TWO_PI + 1.0) - 1.0) < 1e-15);
    assert_true(fabs(cdyn__domain_wrap(&d, -1.0) - (TWO_PI - 1.0)) < 1e-15);
    assert_true(cdyn__domain_wrap(&d, TWO_PI) == 0.0);
    double w = cdyn__domain_wrap(&d, -1e-300);
    assert_true(w >= 0.0 && w < TWO_PI);
    w = cdyn__domain_wrap(&d, 1e6 + 0.25);
    assert_true(w >= 0.0 && w < TWO_PI && fabs(sin(w) - sin(1e6 + 0.25)) < 1e-9);
    cdyn__domain e = cdyn__domain_interval(0.0, 3.0, CDYN__END_HARD, CDYN__END_HARD);
    assert_true(cdyn__domain_clamp(&e, -1.0) == 0.0 && cdyn__domain_clamp(&e, 4.0) == 3.0);
    /* closed spline wraps at its seam */
    cdyn_curve_desc sd = curve_desc(CDYN_CURVE_SPLINE, 2, CDYN_SPLINE_CLOSED);
    cdyn__curve c = make_curve(&sd, 2);
    assert_true(c.dom.periodic && c.dom.lo == 0.0 && c.dom.hi == 6.0);
    assert_true(fabs(cdyn__curve_wrap(&c, 6.5) - 0.5) < 1e-15);
    double a[3], b[3];
    assert_int_equal(cdyn__curve_eval(&c, -0.25, a, NULL, NULL), CDYN_OK);
    assert_int_equal(cdyn__curve_eval(&c, 5.75, b, NULL, NULL), CDYN_OK);
    assert_true(dist3(a, b) < 1e-14);
    cdyn__curve_free(&c);
}

/* ---- closest point on curves ---- */

/* Brute-force minimum of |r(q) - x|^2 over the sampled domain. */
static double brute_min(const cdyn__curve *c, const double x[3], double lo, double hi)
{
    double best = INFINITY;
    for (int i = 0; i <= 5000; i++) {
        double q = lo + (hi - lo) * i / 5000.0, r[3];
        assert_int_equal(cdyn__curve_eval(c, q, r, NULL, NULL), CDYN_OK);
        double d = dist3(r, x);
        best = fmin(best, d * d);
    }
    return best;
}

static void check_curve_closest(const cdyn__curve *c, int dim, rng *g, double *worst_on,
                                double *worst_orth)
{
    double lo = isfinite(c->dom.lo) ? c->dom.lo : -8.0;
    double hi = isfinite(c->dom.hi) ? c->dom.hi : 8.0;
    for (int i = 0; i < 40; i++) {
        /* a point on the curve: its parameter comes back */
        double q = uniform(g, lo, hi), r[3], dr[3], qf, rf[3];
        assert_int_equal(cdyn__curve_eval(c, q, r, dr, NULL), CDYN_OK);
        if (norm3(dr) < 1e-3) /* skip cycloid cusps: the foot is not unique there in q */
            continue;
        assert_int_equal(cdyn__curve_closest(c, r, NULL, &qf), CDYN_OK);
        assert_int_equal(cdyn__curve_eval(c, qf, rf, NULL, NULL), CDYN_OK);
        *worst_on = fmax(*worst_on, dist3(rf, r));
        /* a point off the curve: the foot is orthogonal and globally nearest */
        double x[3] = {r[0] + uniform(g, -2, 2), r[1] + uniform(g, -2, 2),
                       dim == 3 ? r[2] + uniform(g, -2, 2) : 0.0};
        assert_int_equal(cdyn__curve_closest(c, x, NULL, &qf), CDYN_OK);
        assert_true(c->dom.periodic ? (qf >= c->dom.lo && qf < c->dom.hi)
                                    : (qf >= c->dom.lo && qf <= c->dom.hi));
        assert_int_equal(cdyn__curve_eval(c, qf, rf, dr, NULL), CDYN_OK);
        double e[3] = {x[0] - rf[0], x[1] - rf[1], x[2] - rf[2]};
        bool at_end = (!c->dom.periodic && (qf == c->dom.lo || qf == c->dom.hi));
        if (!at_end && norm3(e) > 0.0 && norm3(dr) > 1e-3) {
            double o = fabs(dot3(dr, e)) / (norm3(dr) * norm3(e));
            *worst_orth = fmax(*worst_orth, o);
        }
        double d2 = dot3(e, e);
        double bl = isfinite(c->dom.lo) ? c->dom.lo : qf - 20.0;
        double bh = isfinite(c->dom.hi) ? c->dom.hi : qf + 20.0;
        assert_true(d2 <= brute_min(c, x, bl, bh) * (1.0 + 1e-12) + 1e-24);
    }
}

static void test_curve_closest(void **state)
{
    (void)state;
    rng g = {4242};
    const cdyn_curve_kind kinds[] = {CDYN_CURVE_LINE,  CDYN_CURVE_CIRCLE,  CDYN_CURVE_PARABOLA,
                                     CDYN_CURVE_HELIX, CDYN_CURVE_CYCLOID, CDYN_CURVE_SPLINE};
    const cdyn_spline_end ends[] = {CDYN_SPLINE_NATURAL, CDYN_SPLINE_CLOSED};
    for (int dim = 2; dim <= 3; dim++) {
        for (size_t k = 0; k < 6; k++) {
            if (kinds[k] == CDYN_CURVE_HELIX && dim == 2)
                continue;
            for (int e = 0; e < (kinds[k] == CDYN_CURVE_SPLINE ? 2 : 1); e++) {
                cdyn_curve_desc d = curve_desc(kinds[k], dim, ends[e]);
                cdyn__curve c = make_curve(&d, dim);
                double worst_on = 0.0, worst_orth = 0.0;
                check_curve_closest(&c, dim, &g, &worst_on, &worst_orth);
                print_message("closest, kind %d dim %d: on-curve error %.2e, orthogonality "
                              "%.2e\n",
                              (int)kinds[k], dim, worst_on, worst_orth);
                assert_true(worst_on < 1e-9);
                assert_true(worst_orth < 1e-9);
                cdyn__curve_free(&c);
            }
        }
    }
    /* callback curve with a bounded domain, and with the default unbounded one */
    cdyn_curve_desc pd = curve_desc(CDYN_CURVE_PARABOLA, 2, CDYN_SPLINE_NATURAL);
    cdyn__curve par = make_curve(&pd, 2);
    cdyn_curve_desc cd;
    cdyn_curve_desc_init(&cd, CDYN_CURVE_CALLBACK);
    cd.callback = replay_curve;
    cd.user = &par;
    cd.q_min = -8.0;
    cd.q_max = 8.0;
    cdyn__curve cb = make_curve(&cd, 2);
    double worst_on = 0.0, worst_orth = 0.0;
    check_curve_closest(&cb, 2, &g, &worst_on, &worst_orth);
    assert_true(worst_on < 1e-9 && worst_orth < 1e-9);
    cdyn__curve_free(&cb);
    cd.q_min = -INFINITY;
    cd.q_max = INFINITY;
    cb = make_curve(&cd, 2);
    /* unbounded: the search covers [hint - 8, hint + 8] */
    double x[3] = {30.0, 0.0, 0.0}, q, qa;
    assert_int_equal(cdyn__curve_closest(&par, x, NULL, &qa), CDYN_OK);
    double hint = qa + 5.0;
    assert_int_equal(cdyn__curve_closest(&cb, x, &hint, &q), CDYN_OK);
    assert_true(fabs(q - qa) < 1e-9);
    cdyn__curve_free(&cb);
    cdyn__curve_free(&par);

    /* a nearly flat helix: thousands of turns below and above the point */
    cdyn_curve_desc fd;
    cdyn_curve_desc_init(&fd, CDYN_CURVE_HELIX);
    fd.pitch = 1e-3;
    cdyn__curve flat = make_curve(&fd, 3);
    double px[3] = {1.2, 0.3, 0.5017}, qf;
    assert_int_equal(cdyn__curve_closest(&flat, px, NULL, &qf), CDYN_OK);
    double centre = 0.5017 / (1e-3 / TWO_PI), rf[3];
    assert_int_equal(cdyn__curve_eval(&flat, qf, rf, NULL, NULL), CDYN_OK);
    double df = dist3(rf, px);
    assert_true(df * df <= brute_min(&flat, px, centre - 10.0, centre + 10.0) * (1 + 1e-12));
    cdyn__curve_free(&flat);

    /* the parabola's symmetric tie goes to the smaller parameter */
    cdyn_curve_desc_init(&pd, CDYN_CURVE_PARABOLA);
    par = make_curve(&pd, 2);
    double above[3] = {0.0, 3.0, 0.0};
    assert_int_equal(cdyn__curve_closest(&par, above, NULL, &q), CDYN_OK);
    assert_true(fabs(q + sqrt(2.5)) < 1e-12);
    cdyn__curve_free(&par);
}

/* The cycloid in arc length (what a bead on it integrates): the same
 * points, a unit tangent, the curvature vector by differences, and s(q),
 * q(s) inverse to rounding at the cusps too. */
static void test_cycloid_arc_length_form(void **state)
{
    (void)state;
    cdyn_curve_desc d = curve_desc(CDYN_CURVE_CYCLOID, 3, CDYN_SPLINE_NATURAL);
    cdyn__curve c = make_curve(&d, 3);
    const double R = d.radius, arch = 8.0 * R, h = 1e-6;
    double worst = 0.0, worst_fd = 0.0, worst_inv = 0.0;
    for (int i = 0; i <= 400; i++) {
        double s = arch * (-0.25 + 1.5 * i / 400.0), q = cdyn__cycloid_param_of(&c, s);
        double r[3], dr[3], ddr[3], rq[3], drq[3], dp[3], dm[3];
        cdyn__cycloid_eval_arc(&c, s, r, dr, ddr);
        assert_int_equal(cdyn__curve_eval(&c, q, rq, drq, NULL), CDYN_OK);
        worst = fmax(worst, dist3(r, rq) / R);
        assert_true(fabs(norm3(dr) - 1.0) < 1e-15);
        if (norm3(drq) > 1e-6) /* the tangent is r'(q) / |r'(q)| */
            for (int k = 0; k < 3; k++)
                worst = fmax(worst, fabs(dr[k] - drq[k] / norm3(drq)));
        worst_inv = fmax(worst_inv, fabs(cdyn__cycloid_arc_of(&c, q) - s) / arch);
        double frac = fmod(s + arch, arch) / arch;
        if (frac > 0.01 && frac < 0.99) { /* the curvature is infinite at a cusp */
            cdyn__cycloid_eval_arc(&c, s + h, NULL, dp, NULL);
            cdyn__cycloid_eval_arc(&c, s - h, NULL, dm, NULL);
            for (int k = 0; k < 3; k++)
                worst_fd = fmax(worst_fd, fabs((dp[k] - dm[k]) / (2 * h) - ddr[k]) * R);
        }
    }
    /* at the cusps: one-sided tangents from inside the arch, q exact */
    double t0[3], t1[3], e2[3];
    cdyn__cycloid_eval_arc(&c, 0.0, NULL, t0, NULL);
    cdyn__cycloid_eval_arc(&c, arch, NULL, t1, NULL);
    for (int k = 0; k < 3; k++)
        e2[k] = c.e2[k];
    assert_true(dist3(t0, e2) < 1e-15);
    assert_true(fabs(dot3(t1, e2) + 1.0) < 1e-15);
    assert_true(cdyn__cycloid_param_of(&c, 0.0) == 0.0);
    assert_true(fabs(cdyn__cycloid_param_of(&c, arch) - TWO_PI) < 1e-15);
    assert_true(fabs(cdyn__cycloid_param_of(&c, 1e-20) - 4.0 * sqrt(1e-20 / arch)) < 1e-25);
    print_message("cycloid in arc length: against q form %.2e, curvature by differences %.2e, "
                  "s(q(s)) %.2e\n",
                  worst, worst_fd, worst_inv);
    assert_true(worst < 1e-14);
    assert_true(worst_fd < 1e-7);
    assert_true(worst_inv < 1e-15);
    /* the natural domain is one arch with hard ends at the cusps */
    assert_true(c.dom.lo == 0.0 && c.dom.hi == TWO_PI && !c.dom.periodic);
    assert_int_equal(c.dom.lo_end, CDYN__END_HARD);
    assert_int_equal(c.dom.hi_end, CDYN__END_HARD);
    cdyn__curve_free(&c);
}

static void test_param_velocity(void **state)
{
    (void)state;
    cdyn_curve_desc d = curve_desc(CDYN_CURVE_HELIX, 3, CDYN_SPLINE_NATURAL);
    cdyn__curve c = make_curve(&d, 3);
    double dr[3], qdot;
    assert_int_equal(cdyn__curve_eval(&c, 0.7, NULL, dr, NULL), CDYN_OK);
    double xdot[3] = {2.5 * dr[0], 2.5 * dr[1], 2.5 * dr[2]};
    assert_int_equal(cdyn__curve_param_velocity(&c, 0.7, xdot, &qdot), CDYN_OK);
    assert_true(fabs(qdot - 2.5) < 1e-14);
    cdyn__curve_free(&c);
    cdyn_curve_desc_init(&d, CDYN_CURVE_CYCLOID);
    c = make_curve(&d, 2);
    assert_int_equal(cdyn__curve_param_velocity(&c, 0.0, xdot, &qdot), CDYN_ERR_SINGULAR);
    cdyn__curve_free(&c);
}

/* ---- height fields ---- */

/* A polynomial of degree 3 in x and 3 in y, with its derivatives. */
static void poly33(double x, double y, double out[6])
{
    double px[4] = {1.0, x, x * x, x * x * x}, py[4] = {1.0, y, y * y, y * y * y};
    double dx[4] = {0.0, 1.0, 2.0 * x, 3.0 * x * x}, dy[4] = {0.0, 1.0, 2.0 * y, 3.0 * y * y};
    double ddx[4] = {0.0, 0.0, 2.0, 6.0 * x}, ddy[4] = {0.0, 0.0, 2.0, 6.0 * y};
    static const double c[4][4] = {{0.3, -1.0, 0.5, 0.1},
                                   {0.7, 0.2, -0.3, 0.05},
                                   {-0.4, 0.1, 0.2, -0.02},
                                   {0.08, -0.03, 0.01, 0.004}};
    memset(out, 0, 6 * sizeof(double));
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            out[0] += c[i][j] * px[i] * py[j];
            out[1] += c[i][j] * dx[i] * py[j];
            out[2] += c[i][j] * px[i] * dy[j];
            out[3] += c[i][j] * ddx[i] * py[j];
            out[4] += c[i][j] * dx[i] * dy[j];
            out[5] += c[i][j] * px[i] * ddy[j];
        }
}

/* A height-field description of nx x ny samples of f (value in out[0]) on a
 * fixed grid; the caller frees the returned samples. */
typedef void (*field_fn)(double x, double y, double out[6]);

static double *sample_grid(cdyn_heightfield_desc *d, size_t nx, size_t ny, field_fn f,
                           cdyn_heightfield_interpolation mode)
{
    cdyn_heightfield_desc_init(d);
    d->nx = nx;
    d->ny = ny;
    d->origin[0] = -1.3;
    d->origin[1] = 0.4;
    d->spacing[0] = 0.45;
    d->spacing[1] = 0.3;
    d->interpolation = mode;
    double *s = malloc(nx * ny * sizeof(double));
    for (size_t j = 0; j < ny; j++)
        for (size_t i = 0; i < nx; i++) {
            double v[6];
            f(d->origin[0] + (double)i * d->spacing[0], d->origin[1] + (double)j * d->spacing[1], v);
            s[j * nx + i] = v[0];
        }
    d->samples = s;
    return s;
}

static void poly22(double x, double y, double out[6])
{
    /* degree 2 in each variable */
    out[0] = 0.5 + x - 0.7 * y + 0.3 * x * x + 0.2 * x * y - 0.4 * y * y + 0.1 * x * x * y * y;
    out[1] = 1.0 + 0.6 * x + 0.2 * y + 0.2 * x * y * y;
    out[2] = -0.7 + 0.2 * x - 0.8 * y + 0.2 * x * x * y;
    out[3] = 0.6 + 0.2 * y * y;
    out[4] = 0.2 + 0.4 * x * y;
    out[5] = -0.8 + 0.2 * x * x;
}

static void poly11(double x, double y, double out[6])
{
    out[0] = 0.25 - 1.5 * x + 0.75 * y + 0.5 * x * y;
    out[1] = -1.5 + 0.5 * y;
    out[2] = 0.75 + 0.5 * x;
    out[3] = 0.0;
    out[4] = 0.5;
    out[5] = 0.0;
}

/* Largest error of value, gradient and Hessian at random points inside. */
static double field_error(const cdyn__heightfield *h, field_fn f, rng *g, bool hessian)
{
    double worst = 0.0;
    for (int i = 0; i < 500; i++) {
        double x = uniform(g, h->x0, h->x1), y = uniform(g, h->y0, h->y1), v[6], fv, gr[2], hs[3];
        f(x, y, v);
        cdyn__heightfield_eval(h, x, y, &fv, gr, hs);
        worst = fmax(worst, fabs(fv - v[0]));
        worst = fmax(worst, fmax(fabs(gr[0] - v[1]), fabs(gr[1] - v[2])));
        if (hessian)
            for (int k = 0; k < 3; k++)
                worst = fmax(worst, fabs(hs[k] - v[3 + k]));
        else
            worst = fmax(worst, fabs(hs[1] - v[4]));
    }
    return worst;
}

static void test_heightfield_reproduction(void **state)
{
    (void)state;
    rng g = {99};
    cdyn_allocator a = cdyn__allocator_default();
    cdyn_heightfield_desc d;
    cdyn__heightfield h;
    /* bicubic with >= 4 samples per direction: degree 3 x 3 exactly */
    const size_t sizes[][2] = {{4, 4}, {7, 5}, {12, 9}};
    for (int s = 0; s < 3; s++) {
        double *smp = sample_grid(&d, sizes[s][0], sizes[s][1], poly33, CDYN_HEIGHTFIELD_BICUBIC);
        assert_int_equal(cdyn__heightfield_init(&h, &d, &a), CDYN_OK);
        double err = field_error(&h, poly33, &g, true);
        print_message("bicubic %zux%zu on a cubic x cubic polynomial: error %.2e\n",
                      sizes[s][0], sizes[s][1], err);
        assert_true(err < 1e-11);
        cdyn__heightfield_free(&h, &a);
        free(smp);
    }
    /* 3 samples per direction: degree 2 x 2 exactly */
    double *smp = sample_grid(&d, 3, 3, poly22, CDYN_HEIGHTFIELD_BICUBIC);
    assert_int_equal(cdyn__heightfield_init(&h, &d, &a), CDYN_OK);
    double err = field_error(&h, poly22, &g, true);
    print_message("bicubic 3x3 on a quadratic x quadratic polynomial: error %.2e\n", err);
    assert_true(err < 1e-12);
    cdyn__heightfield_free(&h, &a);
    free(smp);
    /* 2 samples per direction, and bilinear at any size: bilinear data exactly */
    const size_t bl[][3] = {{2, 2, CDYN_HEIGHTFIELD_BICUBIC}, {2, 5, CDYN_HEIGHTFIELD_BICUBIC},
                            {2, 2, CDYN_HEIGHTFIELD_BILINEAR}, {6, 4, CDYN_HEIGHTFIELD_BILINEAR}};
    for (int s = 0; s < 4; s++) {
        smp = sample_grid(&d, bl[s][0], bl[s][1], poly11, (cdyn_heightfield_interpolation)bl[s][2]);
        assert_int_equal(cdyn__heightfield_init(&h, &d, &a), CDYN_OK);
        err = field_error(&h, poly11, &g, bl[s][2] == CDYN_HEIGHTFIELD_BICUBIC);
        print_message("mode %d %zux%zu on bilinear data: error %.2e\n", (int)bl[s][2], bl[s][0],
                      bl[s][1], err);
        assert_true(err < 1e-13);
        cdyn__heightfield_free(&h, &a);
        free(smp);
    }
    /* a smooth non-polynomial field: the error falls like h^4 */
    double hs[4], errs[4];
    for (int lvl = 0; lvl < 4; lvl++) {
        size_t n = (size_t)6 << lvl;
        cdyn_heightfield_desc_init(&d);
        d.nx = d.ny = n;
        d.spacing[0] = d.spacing[1] = 2.0 / (double)(n - 1);
        double *samples = malloc(n * n * sizeof(double));
        for (size_t j = 0; j < n; j++)
            for (size_t i = 0; i < n; i++)
                samples[j * n + i] = sin((double)i * d.spacing[0] * 2.0) *
                                     cos((double)j * d.spacing[1] * 1.5);
        d.samples = samples;
        assert_int_equal(cdyn__heightfield_init(&h, &d, &a), CDYN_OK);
        double e = 0.0;
        for (int i = 0; i < 2000; i++) {
            double x = uniform(&g, 0.0, 2.0), y = uniform(&g, 0.0, 2.0), f;
            cdyn__heightfield_eval(&h, x, y, &f, NULL, NULL);
            e = fmax(e, fabs(f - sin(2.0 * x) * cos(1.5 * y)));
        }
        hs[lvl] = d.spacing[0];
        errs[lvl] = e;
        cdyn__heightfield_free(&h, &a);
        free(samples);
    }
    double order = ts_fit_order(hs, errs, 4);
    print_message("bicubic on sin(2x)cos(1.5y): errors %.2e .. %.2e, order %.2f\n", errs[0],
                  errs[3], order);
    assert_true(order > 3.5);
}

/* Zero heights, for grids whose samples the caller then fills itself. */
static void zero_field(double x, double y, double out[6])
{
    (void)x;
    (void)y;
    memset(out, 0, 6 * sizeof(double));
}

static void test_heightfield_smoothness(void **state)
{
    (void)state;
    rng g = {2024};
    cdyn_allocator a = cdyn__allocator_default();
    cdyn_heightfield_desc d;
    for (int mode = 1; mode <= 2; mode++) {
        double *smp = sample_grid(&d, 8, 7, zero_field, (cdyn_heightfield_interpolation)mode);
        for (size_t i = 0; i < 56; i++)
            smp[i] = uniform(&g, -1.0, 1.0);
        cdyn__heightfield h;
        assert_int_equal(cdyn__heightfield_init(&h, &d, &a), CDYN_OK);
        double jump_f = 0.0, jump_g = 0.0, jump_h = 0.0, eps = 1e-9;
        for (int dir = 0; dir < 2; dir++) {
            size_t n = dir == 0 ? h.nx : h.ny;
            for (size_t i = 1; i + 1 < n; i++) {
                for (int s = 0; s < 20; s++) {
                    double edge = dir == 0 ? h.x0 + (double)i * h.dx : h.y0 + (double)i * h.dy;
                    double other = dir == 0 ? uniform(&g, h.y0, h.y1) : uniform(&g, h.x0, h.x1);
                    double p[2][2], f[2], gr[2][2], hs[2][3];
                    for (int side = 0; side < 2; side++) {
                        double c = edge + (side ? eps : -eps);
                        p[side][0] = dir == 0 ? c : other;
                        p[side][1] = dir == 0 ? other : c;
                        cdyn__heightfield_eval(&h, p[side][0], p[side][1], &f[side], gr[side],
                                               hs[side]);
                    }
                    jump_f = fmax(jump_f, fabs(f[1] - f[0]));
                    jump_g = fmax(jump_g, fmax(fabs(gr[1][0] - gr[0][0]), fabs(gr[1][1] - gr[0][1])));
                    for (int k = 0; k < 3; k++)
                        jump_h = fmax(jump_h, fabs(hs[1][k] - hs[0][k]));
                }
            }
        }
        print_message("mode %d: jumps across cell edges (2e-9 apart): f %.1e, grad %.1e, "
                      "Hessian %.1e\n",
                      mode, jump_f, jump_g, jump_h);
        assert_true(jump_f < 1e-7);
        if (mode == CDYN_HEIGHTFIELD_BICUBIC) {
            assert_true(jump_g < 1e-6); /* C1 */
            assert_true(jump_h < 1e-5); /* C2 */
        } else {
            assert_true(jump_g > 1e-2); /* the bilinear gradient does jump */
        }
        /* derivatives against finite differences inside cells */
        double worst = 0.0, hstep = 1e-6;
        for (int s = 0; s < 300; s++) {
            double x = h.x0 + h.dx * ((double)(s % 7) + uniform(&g, 0.01, 0.99));
            double y = h.y0 + h.dy * ((double)(s % 6) + uniform(&g, 0.01, 0.99));
            double f, gr[2], hs[3], fp, fm, gp[2], gm[2];
            cdyn__heightfield_eval(&h, x, y, &f, gr, hs);
            cdyn__heightfield_eval(&h, x + hstep, y, &fp, gp, NULL);
            cdyn__heightfield_eval(&h, x - hstep, y, &fm, gm, NULL);
            double scale = fmax(1.0, fabs(gr[0]) + fabs(gr[1]) + fabs(hs[0]) + fabs(hs[1]) + fabs(hs[2]));
            worst = fmax(worst, fabs((fp - fm) / (2 * hstep) - gr[0]) / scale);
            worst = fmax(worst, fabs((gp[0] - gm[0]) / (2 * hstep) - hs[0]) / scale);
            worst = fmax(worst, fabs((gp[1] - gm[1]) / (2 * hstep) - hs[1]) / scale);
            cdyn__heightfield_eval(&h, x, y + hstep, &fp, gp, NULL);
            cdyn__heightfield_eval(&h, x, y - hstep, &fm, gm, NULL);
            worst = fmax(worst, fabs((fp - fm) / (2 * hstep) - gr[1]) / scale);
            worst = fmax(worst, fabs((gp[1] - gm[1]) / (2 * hstep) - hs[2]) / scale);
            worst = fmax(worst, fabs((gp[0] - gm[0]) / (2 * hstep) - hs[1]) / scale);
        }
        print_message("mode %d: worst FD relative error of gradient and Hessian %.2e\n", mode,
                      worst);
        assert_true(worst < 1e-7);
        cdyn__heightfield_free(&h, &a);
        free(smp);
    }
}

static void test_heightfield_outside(void **state)
{
    (void)state;
    cdyn_allocator a = cdyn__allocator_default();
    cdyn_heightfield_desc d;
    for (int mode = 1; mode <= 2; mode++) {
        double *smp = sample_grid(&d, 5, 4, poly33, (cdyn_heightfield_interpolation)mode);
        cdyn__heightfield h;
        assert_int_equal(cdyn__heightfield_init(&h, &d, &a), CDYN_OK);
        /* beyond the x edge: the height of the edge, no slope across, the slope along */
        double y = h.y0 + 0.37 * (h.y1 - h.y0), fe, ge[2], fo, go[2], ho[3];
        cdyn__heightfield_eval(&h, h.x1, y, &fe, ge, NULL);
        cdyn__heightfield_eval(&h, h.x1 + 5.0, y, &fo, go, ho);
        assert_true(fo == fe && go[0] == 0.0 && go[1] == ge[1]);
        assert_true(ho[0] == 0.0 && ho[1] == 0.0);
        /* beyond a corner: the corner's height, flat */
        cdyn__heightfield_eval(&h, h.x0 - 1.0, h.y0 - 2.0, &fo, go, ho);
        assert_true(fo == h.f[0] && go[0] == 0.0 && go[1] == 0.0);
        assert_true(ho[0] == 0.0 && ho[1] == 0.0 && ho[2] == 0.0);
        /* at grid nodes the samples come back */
        for (size_t j = 0; j < h.ny; j++)
            for (size_t i = 0; i < h.nx; i++) {
                double f;
                cdyn__heightfield_eval(&h, h.x0 + (double)i * h.dx, h.y0 + (double)j * h.dy, &f,
                                       NULL, NULL);
                assert_true(fabs(f - smp[j * h.nx + i]) < 1e-14);
            }
        cdyn__heightfield_free(&h, &a);
        free(smp);
    }
}

/* ---- surfaces ---- */

static int replay_surface(const cdyn_system *sys, double t, double u, double v, double r[3],
                  double ru[3], double rv[3], double ruu[3], double ruv[3], double rvv[3],
                  void *user)
{
    (void)sys, (void)t;
    return cdyn__surface_eval(user, u, v, r, ru, rv, ruu, ruv, rvv) == CDYN_OK ? 0 : 1;
}

static double *g_hf_samples;

static cdyn_surface_desc surface_desc(cdyn_surface_kind kind, cdyn_heightfield_desc *hd)
{
    cdyn_surface_desc d;
    cdyn_surface_desc_init(&d, kind);
    d.origin[0] = 0.3;
    d.origin[1] = -0.2;
    d.origin[2] = 1.0;
    switch (kind) {
    case CDYN_SURFACE_PLANE:
        d.axis1[1] = 0.5;
        d.axis2[0] = 0.3;
        d.axis2[2] = 2.0;
        break;
    case CDYN_SURFACE_SPHERE:
    case CDYN_SURFACE_TORUS:
        d.radius = 2.0;
        d.minor_radius = 0.6;
        d.axis1[1] = 0.3;
        d.axis2[0] = 0.2;
        break;
    case CDYN_SURFACE_HEIGHTFIELD: {
        free(g_hf_samples);
        g_hf_samples = sample_grid(hd, 9, 8, zero_field, CDYN_HEIGHTFIELD_BICUBIC);
        rng g = {31337};
        for (size_t i = 0; i < 72; i++)
            g_hf_samples[i] = uniform(&g, -0.5, 0.5);
        d.heightfield = hd;
        break;
    }
    default:
        break;
    }
    return d;
}

static double surface_fd_error(const cdyn__surface *s, double u, double v, double h)
{
    double w[6][3], up[6][3], um[6][3], vp[6][3], vm[6][3];
    assert_int_equal(cdyn__surface_eval(s, u, v, w[0], w[1], w[2], w[3], w[4], w[5]), CDYN_OK);
    assert_int_equal(cdyn__surface_eval(s, u + h, v, up[0], up[1], up[2], up[3], up[4], up[5]),
                     CDYN_OK);
    assert_int_equal(cdyn__surface_eval(s, u - h, v, um[0], um[1], um[2], um[3], um[4], um[5]),
                     CDYN_OK);
    assert_int_equal(cdyn__surface_eval(s, u, v + h, vp[0], vp[1], vp[2], vp[3], vp[4], vp[5]),
                     CDYN_OK);
    assert_int_equal(cdyn__surface_eval(s, u, v - h, vm[0], vm[1], vm[2], vm[3], vm[4], vm[5]),
                     CDYN_OK);
    double fd[6][3];
    for (int k = 0; k < 3; k++) {
        fd[0][k] = (up[0][k] - um[0][k]) / (2 * h); /* r_u */
        fd[1][k] = (vp[0][k] - vm[0][k]) / (2 * h); /* r_v */
        fd[2][k] = (up[1][k] - um[1][k]) / (2 * h); /* r_uu */
        fd[3][k] = (vp[1][k] - vm[1][k]) / (2 * h); /* r_uv from r_u */
        fd[4][k] = (up[2][k] - um[2][k]) / (2 * h); /* r_uv from r_v */
        fd[5][k] = (vp[2][k] - vm[2][k]) / (2 * h); /* r_vv */
    }
    double e = rel_err(fd[0], w[1], w[3]);
    e = fmax(e, rel_err(fd[1], w[2], w[5]));
    e = fmax(e, rel_err(fd[2], w[3], w[1]));
    e = fmax(e, rel_err(fd[3], w[4], w[1]));
    e = fmax(e, rel_err(fd[4], w[4], w[2]));
    e = fmax(e, rel_err(fd[5], w[5], w[2]));
    return e;
}

static void test_surface_derivatives_fd(void **state)
{
    (void)state;
    rng g = {555};
    cdyn_heightfield_desc hd;
    const cdyn_surface_kind kinds[] = {CDYN_SURFACE_PLANE, CDYN_SURFACE_SPHERE, CDYN_SURFACE_TORUS,
                                       CDYN_SURFACE_HEIGHTFIELD, CDYN_SURFACE_HEIGHTFIELD};
    for (int k = 0; k < 5; k++) {
        cdyn_surface_desc d = surface_desc(kinds[k], &hd);
        if (k == 4)
            hd.interpolation = CDYN_HEIGHTFIELD_BILINEAR;
        cdyn__surface s;
        assert_int_equal(cdyn__surface_init(&s, &d, NULL), CDYN_OK);
        double worst = 0.0, h = 1e-5;
        for (int i = 0; i < 300; i++) {
            double u, v;
            if (kinds[k] == CDYN_SURFACE_HEIGHTFIELD) { /* inside cells, away from edges */
                u = s.hf.x0 + s.hf.dx * (double)(i % 8) + s.hf.dx * uniform(&g, 0.01, 0.99);
                v = s.hf.y0 + s.hf.dy * (double)(i % 7) + s.hf.dy * uniform(&g, 0.01, 0.99);
            } else {
                u = uniform(&g, -4, 4);
                v = kinds[k] == CDYN_SURFACE_SPHERE ? uniform(&g, 0.1, PI - 0.1) : uniform(&g, -4, 4);
            }
            worst = fmax(worst, surface_fd_error(&s, u, v, h));
        }
        print_message("surface kind %d: worst FD relative error %.2e\n", (int)kinds[k], worst);
        assert_true(worst < 1e-7);
        /* and as a callback replaying it */
        cdyn_surface_desc cd;
        cdyn_surface_desc_init(&cd, CDYN_SURFACE_CALLBACK);
        cd.callback = replay_surface;
        cd.user = &s;
        cdyn__surface cb;
        assert_int_equal(cdyn__surface_init(&cb, &cd, NULL), CDYN_OK);
        double w1[3], w2[3];
        assert_int_equal(cdyn__surface_eval(&cb, 0.3, 0.7, w1, NULL, NULL, NULL, NULL, NULL), CDYN_OK);
        assert_int_equal(cdyn__surface_eval(&s, 0.3, 0.7, w2, NULL, NULL, NULL, NULL, NULL), CDYN_OK);
        assert_true(dist3(w1, w2) == 0.0);
        cdyn__surface_free(&cb);
        cdyn__surface_free(&s);
    }
    /* the up axis permutes the coordinates: y up puts the height in r[1] */
    cdyn_surface_desc d = surface_desc(CDYN_SURFACE_HEIGHTFIELD, &hd);
    hd.up_axis = 1;
    cdyn__surface s;
    assert_int_equal(cdyn__surface_init(&s, &d, NULL), CDYN_OK);
    double r[3], f;
    assert_int_equal(cdyn__surface_eval(&s, 0.1, 0.9, r, NULL, NULL, NULL, NULL, NULL), CDYN_OK);
    cdyn__heightfield_eval(&s.hf, 0.1, 0.9, &f, NULL, NULL);
    assert_true(r[0] == 0.1 && r[2] == 0.9 && r[1] == f);
    cdyn__surface_free(&s);
}

static void test_surface_formulas(void **state)
{
    (void)state;
    cdyn_surface_desc d;
    cdyn__surface s;
    double r[3], ru[3], rv[3];
    cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
    d.radius = 2.0;
    assert_int_equal(cdyn__surface_init(&s, &d, NULL), CDYN_OK);
    assert_true(s.du.periodic && !s.dv.periodic && s.dv.lo == 0.0 && s.dv.hi == PI);
    assert_int_equal(s.dv.lo_end, CDYN__END_SINGULAR);
    assert_int_equal(cdyn__surface_eval(&s, 1.0, 0.0, r, ru, rv, NULL, NULL, NULL), CDYN_OK);
    assert_true(fabs(r[2] - 2.0) < 1e-15 && norm3(ru) == 0.0); /* the pole: r_u vanishes */
    assert_int_equal(cdyn__surface_eval(&s, 0.0, PI / 2, r, NULL, NULL, NULL, NULL, NULL), CDYN_OK);
    assert_true(fabs(r[0] - 2.0) < 1e-15);
    cdyn__surface_free(&s);

    cdyn_surface_desc_init(&d, CDYN_SURFACE_TORUS);
    d.radius = 3.0;
    d.minor_radius = 1.0;
    assert_int_equal(cdyn__surface_init(&s, &d, NULL), CDYN_OK);
    assert_int_equal(cdyn__surface_eval(&s, 0.0, 0.0, r, NULL, NULL, NULL, NULL, NULL), CDYN_OK);
    assert_true(fabs(r[0] - 4.0) < 1e-15);
    assert_int_equal(cdyn__surface_eval(&s, PI / 2, PI / 2, r, NULL, NULL, NULL, NULL, NULL), CDYN_OK);
    assert_true(fabs(r[1] - 3.0) < 1e-15 && fabs(r[2] - 1.0) < 1e-15);
    cdyn__surface_free(&s);
}

static void test_surface_closest(void **state)
{
    (void)state;
    rng g = {8080};
    cdyn_heightfield_desc hd;
    const cdyn_surface_kind kinds[] = {CDYN_SURFACE_PLANE, CDYN_SURFACE_SPHERE, CDYN_SURFACE_TORUS,
                                       CDYN_SURFACE_HEIGHTFIELD, CDYN_SURFACE_CALLBACK};
    cdyn_surface_desc td = surface_desc(CDYN_SURFACE_TORUS, &hd);
    cdyn__surface torus;
    assert_int_equal(cdyn__surface_init(&torus, &td, NULL), CDYN_OK);
    for (int k = 0; k < 5; k++) {
        cdyn_surface_desc d = surface_desc(kinds[k], &hd);
        if (kinds[k] == CDYN_SURFACE_CALLBACK) { /* the torus through a callback */
            d.callback = replay_surface;
            d.user = &torus;
            d.periodic_u = d.periodic_v = 1;
            d.u_min = d.v_min = 0.0;
            d.u_max = d.v_max = TWO_PI;
        }
        cdyn__surface s;
        assert_int_equal(cdyn__surface_init(&s, &d, NULL), CDYN_OK);
        double worst_on = 0.0, worst_orth = 0.0, worst_global = 0.0;
        for (int i = 0; i < 40; i++) {
            double u = isfinite(s.du.lo) ? uniform(&g, s.du.lo, s.du.hi) : uniform(&g, -3, 3);
            double v = isfinite(s.dv.lo) ? uniform(&g, s.dv.lo, s.dv.hi) : uniform(&g, -3, 3);
            if (kinds[k] == CDYN_SURFACE_SPHERE)
                v = uniform(&g, 0.2, PI - 0.2);
            double r[3], uf, vf, rf[3], ru[3], rv[3];
            assert_int_equal(cdyn__surface_eval(&s, u, v, r, NULL, NULL, NULL, NULL, NULL), CDYN_OK);
            assert_int_equal(cdyn__surface_closest(&s, r, NULL, &uf, &vf), CDYN_OK);
            assert_int_equal(cdyn__surface_eval(&s, uf, vf, rf, NULL, NULL, NULL, NULL, NULL), CDYN_OK);
            worst_on = fmax(worst_on, dist3(r, rf));
            /* off the surface */
            double x[3] = {r[0] + uniform(&g, -0.5, 0.5), r[1] + uniform(&g, -0.5, 0.5),
                           r[2] + uniform(&g, -0.5, 0.5)};
            assert_int_equal(cdyn__surface_closest(&s, x, NULL, &uf, &vf), CDYN_OK);
            assert_int_equal(cdyn__surface_eval(&s, uf, vf, rf, ru, rv, NULL, NULL, NULL), CDYN_OK);
            double e[3] = {x[0] - rf[0], x[1] - rf[1], x[2] - rf[2]}, ne = norm3(e);
            bool edge = !s.du.periodic && (uf == s.du.lo || uf == s.du.hi);
            edge = edge || (!s.dv.periodic && (vf == s.dv.lo || vf == s.dv.hi));
            if (ne > 0.0 && !edge)
                worst_orth = fmax(worst_orth, fmax(fabs(dot3(ru, e)) / norm3(ru),
                                                   fabs(dot3(rv, e)) / norm3(rv)) / ne);
            /* no sample of a fine grid is nearer */
            double ulo = isfinite(s.du.lo) ? s.du.lo : uf - 3, uhi = isfinite(s.du.hi) ? s.du.hi : uf + 3;
            double vlo = isfinite(s.dv.lo) ? s.dv.lo : vf - 3, vhi = isfinite(s.dv.hi) ? s.dv.hi : vf + 3;
            for (int a = 0; a <= 80; a++)
                for (int b = 0; b <= 80; b++) {
                    double rs[3];
                    assert_int_equal(cdyn__surface_eval(&s, ulo + (uhi - ulo) * a / 80.0,
                                                        vlo + (vhi - vlo) * b / 80.0, rs, NULL,
                                                        NULL, NULL, NULL, NULL),
                                     CDYN_OK);
                    worst_global = fmax(worst_global, ne - dist3(rs, x));
                }
        }
        print_message("surface closest kind %d: on-surface %.2e, orthogonality %.2e, "
                      "worst grid sample nearer by %.2e\n",
                      (int)kinds[k], worst_on, worst_orth, worst_global);
        assert_true(worst_on < 1e-9);
        assert_true(worst_orth < 1e-9);
        assert_true(worst_global <= 1e-12);
        cdyn__surface_free(&s);
    }
    cdyn__surface_free(&torus);
    free(g_hf_samples);
    g_hf_samples = NULL;

    /* the sphere's centre: every point ties; documented answer (0, pi/2) */
    cdyn_surface_desc d;
    cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
    cdyn__surface s;
    assert_int_equal(cdyn__surface_init(&s, &d, NULL), CDYN_OK);
    double o[3] = {0, 0, 0}, u, v;
    assert_int_equal(cdyn__surface_closest(&s, o, NULL, &u, &v), CDYN_OK);
    assert_true(u == 0.0 && v == 0.5 * PI);
    cdyn__surface_free(&s);
    /* a windowed plane (a parallelogram): the foot of a point beyond a corner */
    cdyn_surface_desc_init(&d, CDYN_SURFACE_PLANE);
    d.u_min = d.v_min = 0.0;
    d.u_max = d.v_max = 1.0;
    assert_int_equal(cdyn__surface_init(&s, &d, NULL), CDYN_OK);
    double far[3] = {2.0, 3.0, 1.0};
    assert_int_equal(cdyn__surface_closest(&s, far, NULL, &u, &v), CDYN_OK);
    assert_true(u == 1.0 && v == 1.0);
    double side[3] = {0.25, -2.0, 1.0};
    assert_int_equal(cdyn__surface_closest(&s, side, NULL, &u, &v), CDYN_OK);
    assert_true(fabs(u - 0.25) < 1e-15 && v == 0.0);
    cdyn__surface_free(&s);
}

/* Re-charting for a point about to be put on a whole sphere: a point on or
 * near a pole ends on the new equator, other points, a windowed sphere, the
 * centre and a torus change nothing. */
static void test_sphere_rechart_point(void **state)
{
    (void)state;
    cdyn_surface_desc d;
    cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
    d.origin[0] = 1.0;
    d.radius = 1.5;
    cdyn__surface s, before;
    assert_int_equal(cdyn__surface_init(&s, &d, NULL), CDYN_OK);
    before = s;
    const double far[3] = {2.5, 0.3, 0.2}, centre[3] = {1.0, 0.0, 0.0};
    assert_false(cdyn__surface_rechart_point(&s, far));
    assert_false(cdyn__surface_rechart_point(&s, centre));
    assert_memory_equal(s.e3, before.e3, sizeof s.e3);
    const double pts[3][3] = {{1.0, 0.0, 1.5}, {1.0, 0.0, -4.0}, {1.3, -0.2, 0.9}};
    for (int i = 0; i < 3; i++) {
        s = before;
        assert_true(cdyn__surface_rechart_point(&s, pts[i]));
        double u, v, rel[3] = {pts[i][0] - 1.0, pts[i][1], pts[i][2]};
        assert_int_equal(cdyn__surface_closest(&s, pts[i], NULL, &u, &v), CDYN_OK);
        assert_true(fabs(v - 0.5 * PI) < 1e-15 && fabs(u - PI) < 1e-15);
        assert_true(fabs(dot3(s.e3, rel)) < 1e-15 * norm3(rel));
        double ru[3], rv[3], n[3];
        assert_int_equal(cdyn__surface_eval(&s, u, v, NULL, ru, rv, NULL, NULL, NULL), CDYN_OK);
        n[0] = ru[1] * rv[2] - ru[2] * rv[1];
        n[1] = ru[2] * rv[0] - ru[0] * rv[2];
        n[2] = ru[0] * rv[1] - ru[1] * rv[0];
        assert_true(norm3(n) > 0.99 * 1.5 * 1.5); /* a regular point of the chart */
    }
    cdyn__surface_free(&s);
    d.v_max = 2.0; /* a window fixes the chart */
    assert_int_equal(cdyn__surface_init(&s, &d, NULL), CDYN_OK);
    assert_false(cdyn__surface_rechart_point(&s, pts[0]));
    cdyn__surface_free(&s);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_TORUS);
    assert_int_equal(cdyn__surface_init(&s, &d, NULL), CDYN_OK);
    assert_false(cdyn__surface_rechart_point(&s, (double[]){0.0, 0.0, 1.0}));
    cdyn__surface_free(&s);
}

static void test_sphere_rechart(void **state)
{
    (void)state;
    cdyn_surface_desc d;
    cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
    d.origin[0] = 1.0;
    d.radius = 1.5;
    cdyn__surface s;
    assert_int_equal(cdyn__surface_init(&s, &d, NULL), CDYN_OK);
    /* far from the poles: nothing changes */
    double u = 0.4, v = 1.2, du = 0.3, dv = -0.2;
    assert_false(cdyn__surface_rechart(&s, &u, &v, &du, &dv));
    assert_true(u == 0.4 && v == 1.2 && du == 0.3 && dv == -0.2);
    /* near the north pole: position and velocity kept, the point on the new equator */
    u = 2.0;
    v = 0.05;
    du = 1.3;
    dv = 0.7;
    double r0[3], ru[3], rv[3], x0dot[3];
    assert_int_equal(cdyn__surface_eval(&s, u, v, r0, ru, rv, NULL, NULL, NULL), CDYN_OK);
    for (int k = 0; k < 3; k++)
        x0dot[k] = ru[k] * du + rv[k] * dv;
    assert_true(cdyn__surface_rechart(&s, &u, &v, &du, &dv));
    assert_true(fabs(v - 0.5 * PI) < 1e-15);
    double r1[3], x1dot[3];
    assert_int_equal(cdyn__surface_eval(&s, u, v, r1, ru, rv, NULL, NULL, NULL), CDYN_OK);
    for (int k = 0; k < 3; k++)
        x1dot[k] = ru[k] * du + rv[k] * dv;
    print_message("re-chart: position moved %.2e, velocity changed %.2e\n", dist3(r0, r1),
                  dist3(x0dot, x1dot));
    assert_true(dist3(r0, r1) < 1e-14);
    assert_true(dist3(x0dot, x1dot) < 1e-14);
    /* the new frame is orthonormal and right-handed */
    double c[3];
    c[0] = s.e1[1] * s.e2[2] - s.e1[2] * s.e2[1];
    c[1] = s.e1[2] * s.e2[0] - s.e1[0] * s.e2[2];
    c[2] = s.e1[0] * s.e2[1] - s.e1[1] * s.e2[0];
    assert_true(dist3(c, s.e3) < 1e-15 && fabs(dot3(s.e1, s.e2)) < 1e-15);
    /* at the pole itself too (r_u = 0 there, the velocity comes from r_v) */
    u = 0.0;
    v = PI;
    du = 0.0;
    dv = 0.5;
    assert_true(cdyn__surface_rechart(&s, &u, &v, &du, &dv));
    assert_true(fabs(v - 0.5 * PI) < 1e-15);
    cdyn__surface_free(&s);
    /* a torus is never re-charted */
    cdyn_surface_desc_init(&d, CDYN_SURFACE_TORUS);
    assert_int_equal(cdyn__surface_init(&s, &d, NULL), CDYN_OK);
    u = 0.0;
    v = 0.0;
    assert_false(cdyn__surface_rechart(&s, &u, &v, &du, &dv));
    /* parameter velocities from a Cartesian velocity */
    double a, b;
    assert_int_equal(cdyn__surface_eval(&s, 0.3, 0.9, NULL, ru, rv, NULL, NULL, NULL), CDYN_OK);
    double xd[3] = {2 * ru[0] - rv[0], 2 * ru[1] - rv[1], 2 * ru[2] - rv[2]};
    assert_int_equal(cdyn__surface_param_velocity(&s, 0.3, 0.9, xd, &a, &b), CDYN_OK);
    assert_true(fabs(a - 2.0) < 1e-14 && fabs(b + 1.0) < 1e-14);
    cdyn__surface_free(&s);
}

/* ---- validation, callbacks, memory ---- */

static void expect_curve_refused(const cdyn_curve_desc *d, int dim)
{
    cdyn__curve c;
    memset(&c, 0xAB, sizeof c);
    cdyn__curve before = c;
    assert_int_equal(cdyn__curve_init(&c, d, dim, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_memory_equal(&c, &before, sizeof c);
}

static void test_curve_bad_input(void **state)
{
    (void)state;
    cdyn_curve_desc d;
    expect_curve_refused(NULL, 2);
    cdyn_curve_desc_init(&d, CDYN_CURVE_LINE);
    expect_curve_refused(&d, 1);
    expect_curve_refused(&d, 4);
    d.size = sizeof d - 1;
    expect_curve_refused(&d, 2);
    cdyn_curve_desc_init(&d, (cdyn_curve_kind)99);
    expect_curve_refused(&d, 2);
    cdyn_curve_desc_init(&d, (cdyn_curve_kind)0);
    expect_curve_refused(&d, 2);
    /* zero or non-finite direction, non-finite origin */
    cdyn_curve_desc_init(&d, CDYN_CURVE_LINE);
    d.axis1[0] = 0.0;
    expect_curve_refused(&d, 3);
    d.axis1[0] = NAN;
    expect_curve_refused(&d, 3);
    cdyn_curve_desc_init(&d, CDYN_CURVE_LINE);
    d.origin[1] = INFINITY;
    expect_curve_refused(&d, 3);
    /* in 2-D the z of the direction is ignored, so (0, 0, 1) is zero there */
    cdyn_curve_desc_init(&d, CDYN_CURVE_LINE);
    d.axis1[0] = 0.0;
    d.axis1[2] = 1.0;
    expect_curve_refused(&d, 2);
    /* radius zero, negative, NaN, infinite */
    const cdyn_curve_kind round[] = {CDYN_CURVE_CIRCLE, CDYN_CURVE_HELIX, CDYN_CURVE_CYCLOID};
    const double bad_r[] = {0.0, -1.0, NAN, INFINITY};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 4; i++) {
            cdyn_curve_desc_init(&d, round[k]);
            d.radius = bad_r[i];
            expect_curve_refused(&d, 3);
        }
    /* parallel axes; a helix in 2-D, with zero pitch, with its axis along axis1 */
    cdyn_curve_desc_init(&d, CDYN_CURVE_CIRCLE);
    d.axis2[0] = 2.0;
    d.axis2[1] = 0.0;
    expect_curve_refused(&d, 3);
    cdyn_curve_desc_init(&d, CDYN_CURVE_HELIX);
    expect_curve_refused(&d, 2);
    d.pitch = 0.0;
    expect_curve_refused(&d, 3);
    cdyn_curve_desc_init(&d, CDYN_CURVE_HELIX);
    d.axis2[0] = 1.0;
    d.axis2[2] = 0.0;
    expect_curve_refused(&d, 3);
    cdyn_curve_desc_init(&d, CDYN_CURVE_PARABOLA);
    d.coefficient = NAN;
    expect_curve_refused(&d, 2);
    /* splines: too few points, NULL, duplicates, NaN, zero clamped tangent, bad end */
    cdyn_curve_desc s = curve_desc(CDYN_CURVE_SPLINE, 2, CDYN_SPLINE_NATURAL);
    s.num_points = 3;
    expect_curve_refused(&s, 2);
    s = curve_desc(CDYN_CURVE_SPLINE, 2, CDYN_SPLINE_NATURAL);
    s.points = NULL;
    expect_curve_refused(&s, 2);
    double dup[] = {0, 0, 1, 1, 1, 1, 2, 0, 3, 1};
    s.points = dup;
    s.num_points = 5;
    expect_curve_refused(&s, 2);
    double loop[] = {0, 0, 1, 1, 2, 0, 3, 1, 0, 0}; /* last repeats first */
    s.points = loop;
    s.spline_end = CDYN_SPLINE_CLOSED;
    expect_curve_refused(&s, 2);
    s.spline_end = CDYN_SPLINE_NATURAL; /* fine when open */
    cdyn__curve ok = make_curve(&s, 2);
    cdyn__curve_free(&ok);
    double nan_pts[] = {0, 0, 1, NAN, 2, 0, 3, 1};
    s.points = nan_pts;
    s.num_points = 4;
    expect_curve_refused(&s, 2);
    s = curve_desc(CDYN_CURVE_SPLINE, 2, CDYN_SPLINE_CLAMPED);
    s.start_tangent[0] = s.start_tangent[1] = 0.0;
    expect_curve_refused(&s, 2);
    s = curve_desc(CDYN_CURVE_SPLINE, 2, (cdyn_spline_end)0);
    expect_curve_refused(&s, 2);
    /* callbacks: no function, bad domain */
    cdyn_curve_desc_init(&d, CDYN_CURVE_CALLBACK);
    expect_curve_refused(&d, 2);
    d.callback = replay_curve;
    d.periodic = 1; /* periodic needs a finite domain */
    expect_curve_refused(&d, 2);
    d.q_min = 1.0;
    d.q_max = 1.0;
    expect_curve_refused(&d, 2);
    d.q_min = NAN;
    expect_curve_refused(&d, 2);
    /* NaN window */
    cdyn_curve_desc_init(&d, CDYN_CURVE_LINE);
    d.q_max = NAN;
    expect_curve_refused(&d, 2);
    /* a NULL curve pointer and a half-filled allocator */
    cdyn_curve_desc_init(&d, CDYN_CURVE_LINE);
    assert_int_equal(cdyn__curve_init(NULL, &d, 2, NULL), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_allocator half = {NULL, NULL, NULL};
    cdyn__curve c;
    assert_int_equal(cdyn__curve_init(&c, &d, 2, &half), CDYN_ERR_INVALID_ARGUMENT);
    /* non-finite q at evaluation */
    c = make_curve(&d, 2);
    double r[3] = {7, 7, 7};
    assert_int_equal(cdyn__curve_eval(&c, NAN, r, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__curve_eval(&c, INFINITY, r, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_true(r[0] == 7 && r[1] == 7 && r[2] == 7);
    double x[3] = {NAN, 0, 0}, q;
    assert_int_equal(cdyn__curve_closest(&c, x, NULL, &q), CDYN_ERR_INVALID_ARGUMENT);
    cdyn__curve_free(&c);
}

static void expect_surface_refused(const cdyn_surface_desc *d)
{
    cdyn__surface s;
    memset(&s, 0xCD, sizeof s);
    cdyn__surface before = s;
    assert_int_equal(cdyn__surface_init(&s, d, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_memory_equal(&s, &before, sizeof s);
}

static void test_surface_bad_input(void **state)
{
    (void)state;
    cdyn_surface_desc d;
    expect_surface_refused(NULL);
    cdyn_surface_desc_init(&d, (cdyn_surface_kind)42);
    expect_surface_refused(&d);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_PLANE);
    d.size = 8;
    expect_surface_refused(&d);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_PLANE);
    d.axis2[0] = -3.0;
    d.axis2[1] = 0.0; /* parallel to axis1 */
    expect_surface_refused(&d);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_PLANE);
    d.axis1[0] = 0.0; /* zero */
    expect_surface_refused(&d);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
    d.radius = -1.0;
    expect_surface_refused(&d);
    d.radius = 1.0;
    d.origin[2] = NAN;
    expect_surface_refused(&d);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
    d.axis1[0] = 0.0;
    d.axis1[2] = 2.0; /* along the pole */
    expect_surface_refused(&d);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
    d.v_min = 0.2;
    d.v_max = 0.1;
    expect_surface_refused(&d);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_TORUS);
    d.minor_radius = 1.0; /* not a ring torus */
    expect_surface_refused(&d);
    d.minor_radius = 0.0;
    expect_surface_refused(&d);
    cdyn_surface_desc_init(&d, CDYN_SURFACE_CALLBACK);
    expect_surface_refused(&d);
    d.callback = replay_surface;
    d.periodic_v = 1;
    expect_surface_refused(&d);
    /* height fields */
    cdyn_surface_desc_init(&d, CDYN_SURFACE_HEIGHTFIELD);
    expect_surface_refused(&d); /* no height field */
    double smp[12] = {0};
    cdyn_heightfield_desc h;
    cdyn_heightfield_desc_init(&h);
    h.nx = 4;
    h.ny = 3;
    h.samples = smp;
    d.heightfield = &h;
    cdyn__surface ok;
    assert_int_equal(cdyn__surface_init(&ok, &d, NULL), CDYN_OK);
    cdyn__surface_free(&ok);
    h.nx = 1;
    h.ny = 12;
    expect_surface_refused(&d);
    h.nx = 4;
    h.ny = 3;
    smp[5] = NAN;
    expect_surface_refused(&d);
    smp[5] = 0.0;
    h.spacing[1] = 0.0;
    expect_surface_refused(&d);
    h.spacing[1] = 1.0;
    h.origin[0] = INFINITY;
    expect_surface_refused(&d);
    h.origin[0] = 0.0;
    h.interpolation = (cdyn_heightfield_interpolation)3;
    expect_surface_refused(&d);
    h.interpolation = CDYN_HEIGHTFIELD_BILINEAR;
    h.up_axis = 3;
    expect_surface_refused(&d);
    h.up_axis = 2;
    h.samples = NULL;
    expect_surface_refused(&d);
    h.samples = smp;
    h.nx = SIZE_MAX / 2;
    h.ny = 4; /* overflowing size */
    expect_surface_refused(&d);
    h.nx = 4;
    h.ny = 3;
    h.size = 0;
    expect_surface_refused(&d);
    h.size = sizeof h;
    d.u_min = 10.0; /* window outside the grid */
    expect_surface_refused(&d);
}

static int failing_curve(const cdyn_system *sys, double t, double q, double r[3], double dr[3],
                  double ddr[3], void *user)
{
    (void)sys, (void)t;
    (void)r;
    (void)dr;
    (void)ddr;
    int *mode = user;
    if (*mode == 1)
        return -3;
    if (*mode == 2 && q > 0.5)
        dr[1] = NAN;
    r[0] = q;
    dr[0] = 1.0;
    return 0;
}

static int failing_surface(const cdyn_system *sys, double t, double u, double v, double r[3],
                  double ru[3], double rv[3], double ruu[3], double ruv[3], double rvv[3],
                  void *user)
{
    (void)sys, (void)t;
    (void)ruu;
    (void)ruv;
    int *mode = user;
    if (*mode == 1)
        return 1;
    r[0] = u;
    r[1] = v;
    ru[0] = 1.0;
    rv[1] = 1.0;
    if (*mode == 2)
        rvv[2] = INFINITY;
    return 0;
}

static void test_callback_errors(void **state)
{
    (void)state;
    int mode = 0;
    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, CDYN_CURVE_CALLBACK);
    d.callback = failing_curve;
    d.user = &mode;
    d.q_min = 0.0;
    d.q_max = 1.0;
    cdyn__curve c = make_curve(&d, 3);
    double r[3] = {5, 5, 5}, s, q;
    assert_int_equal(cdyn__curve_eval(&c, 0.25, r, NULL, NULL), CDYN_OK);
    assert_true(r[0] == 0.25 && r[1] == 0.0);
    assert_int_equal(cdyn__curve_arc_length(&c, 0.0, 1.0, &s), CDYN_OK);
    assert_true(fabs(s - 1.0) < 1e-14);
    mode = 1; /* reports an error */
    r[0] = 5;
    assert_int_equal(cdyn__curve_eval(&c, 0.25, r, NULL, NULL), CDYN_ERR_CALLBACK);
    assert_true(r[0] == 5);
    assert_int_equal(cdyn__curve_arc_length(&c, 0.0, 1.0, &s), CDYN_ERR_CALLBACK);
    assert_int_equal(cdyn__curve_param_at_length(&c, 0.0, 0.5, &q), CDYN_ERR_CALLBACK);
    double x[3] = {0.5, 1, 0};
    assert_int_equal(cdyn__curve_closest(&c, x, NULL, &q), CDYN_ERR_CALLBACK);
    assert_int_equal(cdyn__curve_param_velocity(&c, 0.2, x, &q), CDYN_ERR_CALLBACK);
    mode = 2; /* NaN beyond q = 0.5 */
    assert_int_equal(cdyn__curve_eval(&c, 0.25, r, NULL, NULL), CDYN_OK);
    assert_int_equal(cdyn__curve_eval(&c, 0.75, r, NULL, NULL), CDYN_ERR_CALLBACK);
    assert_int_equal(cdyn__curve_arc_length(&c, 0.0, 1.0, &s), CDYN_ERR_CALLBACK);
    assert_int_equal(cdyn__curve_closest(&c, x, NULL, &q), CDYN_ERR_CALLBACK);
    mode = 0; /* the length past the end of a bounded callback curve is refused */
    assert_int_equal(cdyn__curve_param_at_length(&c, 0.0, 2.0, &q), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn__curve_param_at_length(&c, 0.0, 0.75, &q), CDYN_OK);
    assert_true(fabs(q - 0.75) < 1e-14);
    cdyn__curve_free(&c);

    cdyn_surface_desc sd;
    cdyn_surface_desc_init(&sd, CDYN_SURFACE_CALLBACK);
    sd.callback = failing_surface;
    sd.user = &mode;
    cdyn__surface s2;
    assert_int_equal(cdyn__surface_init(&s2, &sd, NULL), CDYN_OK);
    double u, v, rr[3] = {1, 2, 3};
    assert_int_equal(cdyn__surface_eval(&s2, 0.1, 0.2, rr, NULL, NULL, NULL, NULL, NULL), CDYN_OK);
    mode = 1;
    assert_int_equal(cdyn__surface_eval(&s2, 0.1, 0.2, rr, NULL, NULL, NULL, NULL, NULL),
                     CDYN_ERR_CALLBACK);
    assert_int_equal(cdyn__surface_closest(&s2, x, NULL, &u, &v), CDYN_ERR_CALLBACK);
    mode = 2;
    assert_int_equal(cdyn__surface_eval(&s2, 0.1, 0.2, rr, NULL, NULL, NULL, NULL, NULL),
                     CDYN_ERR_CALLBACK);
    assert_int_equal(cdyn__surface_param_velocity(&s2, 0.1, 0.2, x, &u, &v), CDYN_ERR_CALLBACK);
    mode = 0;
    assert_int_equal(cdyn__surface_closest(&s2, x, NULL, &u, &v), CDYN_OK);
    assert_true(fabs(u - 0.5) < 1e-12 && fabs(v - 1.0) < 1e-12);
    cdyn__surface_free(&s2);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    cdyn_curve_desc cd = curve_desc(CDYN_CURVE_SPLINE, 3, CDYN_SPLINE_CLOSED);
    cdyn_heightfield_desc hd;
    cdyn_surface_desc sd = surface_desc(CDYN_SURFACE_HEIGHTFIELD, &hd);
    for (int which = 0; which < 2; which++) {
        size_t fails = 0;
        for (size_t n = 1;; n++) {
            ts_counting_alloc st = {0};
            st.fail_at = n;
            cdyn_allocator a = ts_counting_allocator(&st);
            cdyn__curve c;
            cdyn__surface s;
            memset(&c, 0x5A, sizeof c);
            memset(&s, 0x5A, sizeof s);
            cdyn__curve c_before = c;
            cdyn__surface s_before = s;
            cdyn_status rc = which == 0 ? cdyn__curve_init(&c, &cd, 3, &a)
                                        : cdyn__surface_init(&s, &sd, &a);
            if (rc == CDYN_ERR_NO_MEMORY) {
                assert_true(st.failed);
                assert_int_equal(st.live_bytes, 0);
                assert_memory_equal(&c, &c_before, sizeof c);
                assert_memory_equal(&s, &s_before, sizeof s);
                fails++;
                continue;
            }
            assert_int_equal(rc, CDYN_OK);
            assert_false(st.failed);
            /* a deep copy, failing too */
            ts_counting_alloc st2 = {0};
            st2.fail_at = 1;
            cdyn_allocator a2 = ts_counting_allocator(&st2);
            cdyn__curve c2;
            cdyn__surface s2;
            rc = which == 0 ? cdyn__curve_copy(&c2, &c, &a2) : cdyn__surface_copy(&s2, &s, &a2);
            assert_int_equal(rc, CDYN_ERR_NO_MEMORY);
            assert_int_equal(st2.live_bytes, 0);
            st2.fail_at = 0;
            rc = which == 0 ? cdyn__curve_copy(&c2, &c, &a2) : cdyn__surface_copy(&s2, &s, &a2);
            assert_int_equal(rc, CDYN_OK);
            /* the copy lives on after the original is gone */
            double r1[3], r2[3];
            if (which == 0) {
                assert_int_equal(cdyn__curve_eval(&c, 2.3, r1, NULL, NULL), CDYN_OK);
                cdyn__curve_free(&c);
                assert_int_equal(cdyn__curve_eval(&c2, 2.3, r2, NULL, NULL), CDYN_OK);
                cdyn__curve_free(&c2);
                cdyn__curve_free(&c2); /* a cleared curve frees as a no-op */
            } else {
                assert_int_equal(cdyn__surface_eval(&s, 0.1, 0.9, r1, NULL, NULL, NULL, NULL, NULL), CDYN_OK);
                cdyn__surface_free(&s);
                assert_int_equal(cdyn__surface_eval(&s2, 0.1, 0.9, r2, NULL, NULL, NULL, NULL, NULL), CDYN_OK);
                cdyn__surface_free(&s2);
                cdyn__surface_free(&s2);
            }
            assert_true(dist3(r1, r2) == 0.0);
            assert_int_equal(st.live_bytes, 0);
            assert_int_equal(st2.live_bytes, 0);
            assert_int_equal(st.allocs, st.frees);
            print_message("%s: %zu allocation(s) in init, each failure refused cleanly\n",
                          which == 0 ? "spline" : "height field", fails);
            assert_true(fails >= 1);
            break;
        }
    }
    free(g_hf_samples);
    g_hf_samples = NULL;
}

static void test_queries_do_not_allocate(void **state)
{
    (void)state;
    ts_counting_alloc st = {0};
    cdyn_allocator a = ts_counting_allocator(&st);
    cdyn_curve_desc cd = curve_desc(CDYN_CURVE_SPLINE, 3, CDYN_SPLINE_NATURAL);
    cdyn__curve c;
    assert_int_equal(cdyn__curve_init(&c, &cd, 3, &a), CDYN_OK);
    cdyn_heightfield_desc hd;
    cdyn_surface_desc sd = surface_desc(CDYN_SURFACE_HEIGHTFIELD, &hd);
    cdyn__surface s;
    assert_int_equal(cdyn__surface_init(&s, &sd, &a), CDYN_OK);
    size_t allocs = st.allocs;
    double r[3], x[3] = {1, 2, 0.5}, q, s_len, u, v;
    for (int i = 0; i < 100; i++) {
        assert_int_equal(cdyn__curve_eval(&c, 0.05 * i, r, r, r), CDYN_OK);
        assert_int_equal(cdyn__surface_eval(&s, 0.01 * i, 0.5, r, r, r, r, r, r), CDYN_OK);
    }
    assert_int_equal(cdyn__curve_closest(&c, x, NULL, &q), CDYN_OK);
    assert_int_equal(cdyn__curve_arc_length(&c, 0.0, 3.3, &s_len), CDYN_OK);
    assert_int_equal(cdyn__curve_param_at_length(&c, 0.0, 1.0, &q), CDYN_OK);
    assert_int_equal(cdyn__surface_closest(&s, x, NULL, &u, &v), CDYN_OK);
    assert_int_equal(st.allocs, allocs);
    cdyn__curve_free(&c);
    cdyn__surface_free(&s);
    assert_int_equal(st.live_bytes, 0);
    free(g_hf_samples);
    g_hf_samples = NULL;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_curve_derivatives_fd),
        cmocka_unit_test(test_curve_formulas),
        cmocka_unit_test(test_spline_interpolates_points),
        cmocka_unit_test(test_spline_c2_at_knots),
        cmocka_unit_test(test_spline_circle_length_converges),
        cmocka_unit_test(test_spline_arc_length),
        cmocka_unit_test(test_closed_form_arc_lengths),
        cmocka_unit_test(test_windowed_domain),
        cmocka_unit_test(test_domain_wrap),
        cmocka_unit_test(test_curve_closest),
        cmocka_unit_test(test_param_velocity),
        cmocka_unit_test(test_cycloid_arc_length_form),
        cmocka_unit_test(test_heightfield_reproduction),
        cmocka_unit_test(test_heightfield_smoothness),
        cmocka_unit_test(test_heightfield_outside),
        cmocka_unit_test(test_surface_derivatives_fd),
        cmocka_unit_test(test_surface_formulas),
        cmocka_unit_test(test_surface_closest),
        cmocka_unit_test(test_sphere_rechart),
        cmocka_unit_test(test_sphere_rechart_point),
        cmocka_unit_test(test_curve_bad_input),
        cmocka_unit_test(test_surface_bad_input),
        cmocka_unit_test(test_callback_errors),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_queries_do_not_allocate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
