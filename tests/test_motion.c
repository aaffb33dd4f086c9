/* Prescribed motions and schedules (include/cdyn/motion.h) evaluated
 * alone: each kind against its closed form, the derivatives against
 * central differences of what they differentiate, rotations orthonormal,
 * and the refusals of bad descriptions and callbacks. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "cdyn/cdyn.h"
#include "support.h"

static cdyn_motion_state at(const cdyn_motion_desc *d, int dim, double t)
{
    cdyn_motion_state s;
    assert_int_equal(cdyn_motion_evaluate(d, dim, t, &s), CDYN_OK);
    return s;
}

/* p' and p'' against central differences of p and p'; R' = [omega]x R
 * and omega' against differences of R and omega. h = 1e-6: truncation
 * (omega h)^2 / 6 < 1e-9 relative for the rates used here, round-off
 * about 1e-10. */
static void check_derivatives(const cdyn_motion_desc *d, int dim, double t)
{
    const double h = 1e-6;
    cdyn_motion_state s = at(d, dim, t), p = at(d, dim, t + h), m = at(d, dim, t - h);
    for (int k = 0; k < 3; k++) {
        assert_near(s.velocity[k], (p.position[k] - m.position[k]) / (2 * h), 1e-8);
        assert_near(s.acceleration[k], (p.velocity[k] - m.velocity[k]) / (2 * h), 1e-8);
        assert_near(s.angular_acceleration[k],
                    (p.angular_velocity[k] - m.angular_velocity[k]) / (2 * h), 1e-8);
    }
    /* R' R^T is the cross-product matrix of omega. */
    double rd[9], w[9];
    for (int i = 0; i < 9; i++)
        rd[i] = (p.rotation[i] - m.rotation[i]) / (2 * h);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double sum = 0;
            for (int k = 0; k < 3; k++)
                sum += rd[i * 3 + k] * s.rotation[j * 3 + k];
            w[i * 3 + j] = sum;
        }
    assert_near(w[7], s.angular_velocity[0], 1e-8);
    assert_near(w[2], s.angular_velocity[1], 1e-8);
    assert_near(w[3], s.angular_velocity[2], 1e-8);
    assert_near(w[5], -s.angular_velocity[0], 1e-8);
    /* orthonormal */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double dot = 0;
            for (int k = 0; k < 3; k++)
                dot += s.rotation[i * 3 + k] * s.rotation[j * 3 + k];
            assert_near(dot, i == j ? 1.0 : 0.0, 1e-15);
        }
}

static void test_linear_and_oscillation(void **state)
{
    (void)state;
    cdyn_motion_desc d;
    cdyn_motion_desc_init(&d, CDYN_MOTION_LINEAR);
    double v[3] = {1, -2, 0.5}, a[3] = {0.3, 0, -9.81};
    memcpy(d.velocity, v, sizeof v);
    memcpy(d.acceleration, a, sizeof a);
    cdyn_motion_state s = at(&d, 3, 1.5);
    for (int k = 0; k < 3; k++)
        assert_near(s.position[k], v[k] * 1.5 + 0.5 * a[k] * 2.25, 4e-15);
    check_derivatives(&d, 3, 0.7);

    cdyn_motion_desc_init(&d, CDYN_MOTION_OSCILLATION);
    d.amplitude[1] = 0.02;
    d.frequency = 50.0;
    d.phase = 0.3;
    s = at(&d, 2, 0.11);
    assert_near(s.position[1], 0.02 * sin(50 * 0.11 + 0.3), 1e-17);
    assert_near(s.acceleration[1], -2500 * s.position[1], 1e-13);
    assert_near(s.position[2], 0.0, 0.0);
    check_derivatives(&d, 2, 0.05);
}

/* A rotation about an axis through c: every point of the axis stays put,
 * a point off it keeps its distance and turns by omega t. */
static void test_rotation(void **state)
{
    (void)state;
    cdyn_motion_desc d;
    cdyn_motion_desc_init(&d, CDYN_MOTION_ROTATION);
    double c[3] = {1, 2, 3}, axis[3] = {0, 0, 2};
    memcpy(d.center, c, sizeof c);
    memcpy(d.axis, axis, sizeof axis);
    d.angular_velocity = 0.8;
    double t = 1.3;
    cdyn_motion_state s = at(&d, 3, t);
    /* x -> R x + p: the centre maps to itself */
    double img[3];
    for (int i = 0; i < 3; i++)
        img[i] = s.rotation[i * 3] * c[0] + s.rotation[i * 3 + 1] * c[1] +
                 s.rotation[i * 3 + 2] * c[2] + s.position[i];
    for (int i = 0; i < 3; i++)
        assert_near(img[i], c[i], 1e-14);
    /* a point one unit away along x turns by 0.8 t about z */
    double y[3] = {2, 2, 3};
    for (int i = 0; i < 3; i++)
        img[i] = s.rotation[i * 3] * y[0] + s.rotation[i * 3 + 1] * y[1] +
                 s.rotation[i * 3 + 2] * y[2] + s.position[i];
    assert_near(img[0], 1 + cos(0.8 * t), 1e-14);
    assert_near(img[1], 2 + sin(0.8 * t), 1e-14);
    assert_near(img[2], 3, 1e-14);
    assert_near(s.angular_velocity[2], 0.8, 1e-15);
    check_derivatives(&d, 3, t);
    check_derivatives(&d, 2, t);
}

static int wobble(const cdyn_system *sys, double t, cdyn_motion_state *out, void *user)
{
    (void)user;
    assert_null(sys); /* evaluated alone */
    double a = 0.3 * sin(2 * t), ad = 0.6 * cos(2 * t), add = -1.2 * sin(2 * t);
    out->rotation[0] = out->rotation[4] = cos(a);
    out->rotation[1] = -sin(a);
    out->rotation[3] = sin(a);
    out->angular_velocity[2] = ad;
    out->angular_acceleration[2] = add;
    out->position[0] = t * t;
    out->velocity[0] = 2 * t;
    out->acceleration[0] = 2;
    return 0;
}

static int skewed(const cdyn_system *sys, double t, cdyn_motion_state *out, void *user)
{
    (void)sys, (void)t, (void)user;
    out->rotation[0] = 1.001; /* not orthonormal */
    return 0;
}

static int non_finite(const cdyn_system *sys, double t, cdyn_motion_state *out, void *user)
{
    (void)sys, (void)t, (void)user;
    out->position[1] = NAN;
    return 0;
}

static int failing(const cdyn_system *sys, double t, cdyn_motion_state *out, void *user)
{
    (void)sys, (void)t, (void)out, (void)user;
    return 7;
}

static void test_callback(void **state)
{
    (void)state;
    cdyn_motion_desc d;
    cdyn_motion_desc_init(&d, CDYN_MOTION_CALLBACK);
    d.callback = wobble;
    check_derivatives(&d, 3, 0.4);
    check_derivatives(&d, 2, 0.4);
    cdyn_motion_state s;
    d.callback = skewed;
    assert_int_equal(cdyn_motion_evaluate(&d, 3, 0, &s), CDYN_ERR_CALLBACK);
    d.callback = non_finite;
    assert_int_equal(cdyn_motion_evaluate(&d, 3, 0, &s), CDYN_ERR_CALLBACK);
    d.callback = failing;
    assert_int_equal(cdyn_motion_evaluate(&d, 3, 0, &s), CDYN_ERR_CALLBACK);
}

static void test_bad_descriptions(void **state)
{
    (void)state;
    cdyn_motion_desc d;
    cdyn_motion_state s;
    cdyn_motion_desc_init(&d, CDYN_MOTION_ROTATION);
    memset(d.axis, 0, sizeof d.axis);
    assert_int_equal(cdyn_motion_evaluate(&d, 3, 0, &s), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_motion_evaluate(&d, 2, 0, &s), CDYN_OK); /* 2-D ignores the axis */
    cdyn_motion_desc_init(&d, CDYN_MOTION_OSCILLATION);
    d.frequency = INFINITY;
    assert_int_equal(cdyn_motion_evaluate(&d, 3, 0, &s), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_motion_desc_init(&d, (cdyn_motion_kind)99);
    assert_int_equal(cdyn_motion_evaluate(&d, 3, 0, &s), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_motion_desc_init(&d, CDYN_MOTION_LINEAR);
    d.size = 8;
    assert_int_equal(cdyn_motion_evaluate(&d, 3, 0, &s), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_motion_desc_init(&d, CDYN_MOTION_LINEAR);
    assert_int_equal(cdyn_motion_evaluate(&d, 4, 0, &s), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_motion_evaluate(&d, 3, NAN, &s), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_motion_evaluate(NULL, 3, 0, &s), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_motion_evaluate(&d, 3, 0, NULL), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_motion_desc_init(&d, CDYN_MOTION_CALLBACK);
    assert_int_equal(cdyn_motion_evaluate(&d, 3, 0, &s), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_motion_desc_init(NULL, CDYN_MOTION_LINEAR); /* a no-op */
    /* finite fields whose motion overflows: a divergence, not a callback's */
    cdyn_motion_desc_init(&d, CDYN_MOTION_LINEAR);
    d.acceleration[0] = 1e300;
    assert_int_equal(cdyn_motion_evaluate(&d, 3, 1e10, &s), CDYN_ERR_DIVERGED);
    assert_int_equal(cdyn_motion_evaluate(&d, 3, 1.0, &s), CDYN_OK);
}

static int schedule_cb(const cdyn_system *sys, double t, double out[3], void *user)
{
    (void)sys;
    double k = *(const double *)user;
    out[0] = exp(k * t);
    out[1] = k * out[0];
    out[2] = k * out[1];
    return 0;
}

static void test_schedules(void **state)
{
    (void)state;
    cdyn_schedule_desc d;
    double s[3], p[3], m[3], h = 1e-5;
    cdyn_schedule_desc_init(&d, CDYN_SCHEDULE_LINEAR);
    d.rate = -0.2;
    d.acceleration = 0.05;
    assert_int_equal(cdyn_schedule_evaluate(&d, 2.0, s), CDYN_OK);
    assert_near(s[0], -0.4 + 0.1, 1e-15);
    assert_near(s[1], -0.1, 1e-15);
    assert_near(s[2], 0.05, 0);
    cdyn_schedule_desc_init(&d, CDYN_SCHEDULE_OSCILLATION);
    d.amplitude = 0.1;
    d.frequency = 3.0;
    d.phase = 1.0;
    double k = -0.7;
    for (int kind = 0; kind < 2; kind++) {
        if (kind == 1) {
            cdyn_schedule_desc_init(&d, CDYN_SCHEDULE_CALLBACK);
            d.callback = schedule_cb;
            d.user = &k;
        }
        assert_int_equal(cdyn_schedule_evaluate(&d, 0.3, s), CDYN_OK);
        assert_int_equal(cdyn_schedule_evaluate(&d, 0.3 + h, p), CDYN_OK);
        assert_int_equal(cdyn_schedule_evaluate(&d, 0.3 - h, m), CDYN_OK);
        assert_near(s[1], (p[0] - m[0]) / (2 * h), 1e-9);
        assert_near(s[2], (p[1] - m[1]) / (2 * h), 1e-9);
    }
    cdyn_schedule_desc_init(&d, CDYN_SCHEDULE_CALLBACK);
    assert_int_equal(cdyn_schedule_evaluate(&d, 0, s), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_schedule_desc_init(&d, CDYN_SCHEDULE_LINEAR);
    d.rate = NAN;
    assert_int_equal(cdyn_schedule_evaluate(&d, 0, s), CDYN_ERR_INVALID_ARGUMENT);
    d.rate = 1e300;
    assert_int_equal(cdyn_schedule_evaluate(&d, 1e10, s), CDYN_ERR_DIVERGED);
    /* a callback's overflow is the callback's failure */
    cdyn_schedule_desc_init(&d, CDYN_SCHEDULE_CALLBACK);
    d.callback = schedule_cb;
    k = 1.0;
    d.user = &k;
    assert_int_equal(cdyn_schedule_evaluate(&d, 1e4, s), CDYN_ERR_CALLBACK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_and_oscillation),
        cmocka_unit_test(test_rotation),
        cmocka_unit_test(test_callback),
        cmocka_unit_test(test_bad_descriptions),
        cmocka_unit_test(test_schedules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
