/* Ground friction through the public API: F_f = -mu N U_t / sqrt(|U_t|^2 +
 * v_s^2) (include/cdyn/ground.h, docs/ground.md).
 *  - a particle sliding on a level plane with speed v0 stops after
 *    v0^2 / (2 mu g) (within 2%), in a straight line, with every integrator;
 *  - on an incline steeper than atan(mu) it slides with acceleration
 *    g (sin - mu cos) (within 2%); shallower it sticks, creeping at exactly
 *    the documented bound v_s r / sqrt(1 - r^2), r = tan / mu;
 *  - a resting particle nudged sideways slows down without chatter (its
 *    tangential velocity never changes sign);
 *  - the friction force of a sliding particle: magnitude and direction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define G 9.81

typedef struct slide {
    cdyn_system *sys;
    cdyn_particle p;
    cdyn_ground g;
} slide;

/* A particle of mass m resting at its equilibrium depth on the plane
 * through the origin with normal n (unit, dim values), gravity (0, -G) or
 * (0, 0, -G), with velocity v. Stiff ground, critically damped normal. */
static slide make_slide(int dim, const double *n, double m, double S, double mu, double vs,
                        const double *v, cdyn_integrator integ)
{
    slide s;
    assert_int_equal(cdyn_system_create(dim, &s.sys), CDYN_OK);
    double gv[3] = {0, 0, 0}, x[3] = {0, 0, 0};
    gv[dim - 1] = -G;
    double gn = -G * n[dim - 1]; /* g . n */
    double depth = m * -gn / S;
    for (int k = 0; k < dim; k++)
        x[k] = -depth * n[k];
    assert_int_equal(cdyn_particle_add(s.sys, m, x, v, &s.p), CDYN_OK);
    cdyn_force f;
    assert_int_equal(cdyn_force_add_gravity(s.sys, gv, &f), CDYN_OK);
    assert_int_equal(cdyn_ground_add_plane(s.sys, n, 0.0, &s.g), CDYN_OK);
    assert_int_equal(cdyn_ground_set_stiffness(s.sys, s.g, S), CDYN_OK);
    assert_int_equal(cdyn_ground_set_damping(s.sys, s.g, 2.0 * sqrt(S * m)), CDYN_OK);
    assert_int_equal(cdyn_ground_set_friction(s.sys, s.g, mu), CDYN_OK);
    if (vs > 0)
        assert_int_equal(cdyn_ground_set_friction_speed(s.sys, s.g, vs), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(s.sys, integ), CDYN_OK);
    return s;
}

static void get_xv(const slide *s, double *x, double *v)
{
    assert_int_equal(cdyn_particle_get_position(s->sys, s->p, x), CDYN_OK);
    assert_int_equal(cdyn_particle_get_velocity(s->sys, s->p, v), CDYN_OK);
}

/* Slides from rest position 0 with speed v0 along the unit direction dir of
 * a level plane (y up in 2-D, z up in 3-D) until the speed falls below
 * 1e-4 v0; returns the distance travelled, the largest sideways offset and
 * the time at which the speed fell below the friction speed. */
static double stop_distance(int dim, const double *dir, double v0, double mu,
                            cdyn_integrator integ, double dt, double *sideways, double *t_stop)
{
    double n[3] = {0, 0, 0}, v[3] = {0, 0, 0};
    n[dim - 1] = 1.0;
    for (int k = 0; k < dim; k++)
        v[k] = v0 * dir[k];
    slide s = make_slide(dim, n, 1.0, 1e6, mu, 0, v, integ);
    double x[3] = {0, 0, 0}, u[3] = {0, 0, 0}, x0[3];
    get_xv(&s, x0, u);
    long max_steps = (long)(3.0 * v0 / (mu * G) / dt);
    *sideways = 0;
    *t_stop = -1;
    for (long i = 0; i < max_steps; i++) {
        assert_int_equal(cdyn_system_step(s.sys, dt), CDYN_OK);
        get_xv(&s, x, u);
        double along = 0, sp = 0;
        for (int k = 0; k < dim - 1; k++) {
            along += (x[k] - x0[k]) * dir[k];
            sp += u[k] * u[k];
        }
        for (int k = 0; k < dim - 1; k++)
            *sideways = fmax(*sideways, fabs(x[k] - x0[k] - along * dir[k]));
        /* the stop: Coulomb friction ends where the regularization begins,
         * at the default friction speed 0.01 (below, the speed decays
         * exponentially, at the rate mu g / v_s) */
        if (*t_stop < 0 && sqrt(sp) < 0.01)
            *t_stop = (double)(i + 1) * dt;
        if (sqrt(sp) < 1e-4 * v0)
            break;
    }
    double dist = 0;
    for (int k = 0; k < dim - 1; k++)
        dist += (x[k] - x0[k]) * dir[k];
    cdyn_system_destroy(s.sys);
    return dist;
}

static void test_stopping_distance(void **state)
{
    (void)state;
    const struct {
        int dim;
        double dir[3];
        double v0, mu;
        cdyn_integrator integ;
    } cases[] = {
        {2, {1, 0, 0}, 2.0, 0.4, CDYN_INTEGRATOR_SYMPLECTIC_EULER},
        {2, {-1, 0, 0}, 1.0, 0.8, CDYN_INTEGRATOR_VELOCITY_VERLET},
        {2, {1, 0, 0}, 3.0, 0.25, CDYN_INTEGRATOR_RK4},
        {2, {1, 0, 0}, 2.0, 0.4, CDYN_INTEGRATOR_EXPLICIT_EULER},
        {3, {0.6, 0.8, 0}, 2.0, 0.4, CDYN_INTEGRATOR_SYMPLECTIC_EULER},
        {3, {-0.8, 0.6, 0}, 1.5, 0.5, CDYN_INTEGRATOR_RK4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double side, t_stop;
        double d = stop_distance(cases[i].dim, cases[i].dir, cases[i].v0, cases[i].mu,
                                 cases[i].integ, 1e-4, &side, &t_stop);
        double want = cases[i].v0 * cases[i].v0 / (2.0 * cases[i].mu * G);
        double t_want = cases[i].v0 / (cases[i].mu * G);
        print_message("  slide %zu (%d-D, v0 %g, mu %g): %.6f m, v0^2/(2 mu g) = %.6f m, "
                      "error %+.3f%%; stopped at %.4f s (v0/(mu g) = %.4f s); sideways %.1e\n",
                      i, cases[i].dim, cases[i].v0, cases[i].mu, d, want,
                      100.0 * (d - want) / want, t_stop, t_want, side);
        assert_true(fabs(d - want) <= 0.02 * want);
        assert_true(fabs(t_stop - t_want) <= 0.02 * t_want);
        assert_true(side < 1e-12);
    }
}

/* On an incline of angle theta (the plane's normal (-sin, cos) in the x-y
 * plane of a 2-D or 3-D system), starting at rest. Returns the mean
 * acceleration down the slope between t1 and t2. */
static double incline_accel(int dim, double theta, double mu, double vs, double t1, double t2,
                            double dt, cdyn_integrator integ, double *v_end)
{
    double n[3] = {0, 0, 0};
    n[0] = -sin(theta);
    n[dim - 1] = cos(theta);
    /* in 3-D the slope descends along x, with gravity along -z */
    slide s = make_slide(dim, n, 2.0, 1e6, mu, vs, NULL, integ);
    double down[3] = {0, 0, 0};
    down[0] = -cos(theta);
    down[dim - 1] = -sin(theta);
    double x[3], v[3], va = 0, vb = 0;
    long n1 = lround(t1 / dt), n2 = lround(t2 / dt);
    for (long i = 1; i <= n2; i++) {
        assert_int_equal(cdyn_system_step(s.sys, dt), CDYN_OK);
        if (i == n1 || i == n2) {
            get_xv(&s, x, v);
            double along = 0;
            for (int k = 0; k < dim; k++)
                along += v[k] * down[k];
            if (i == n1)
                va = along;
            else
                vb = along;
        }
    }
    *v_end = vb;
    cdyn_system_destroy(s.sys);
    return (vb - va) / (t2 - t1);
}

static void test_incline(void **state)
{
    (void)state;
    const double mu = 0.3;
    /* steeper than atan(0.3) = 16.7 degrees: slides */
    const double slides[] = {25.0, 35.0, 50.0};
    for (int dim = 2; dim <= 3; dim++)
        for (size_t i = 0; i < 3; i++) {
            double th = slides[i] * TS_PI / 180.0, v_end;
            double a = incline_accel(dim, th, mu, 0, 0.2, 1.0, 1e-4,
                                     CDYN_INTEGRATOR_SYMPLECTIC_EULER, &v_end);
            double want = G * (sin(th) - mu * cos(th));
            print_message("  %d-D incline %.0f deg, mu %g: a = %.5f m/s^2, g (sin - mu cos) = "
                          "%.5f, error %+.3f%%\n", dim, slides[i], mu, a, want,
                          100.0 * (a - want) / want);
            assert_true(fabs(a - want) <= 0.02 * want);
        }
    /* shallower: sticks; it creeps at the steady speed where the
     * regularized friction balances the slope, v_s r / sqrt(1 - r^2) */
    const double sticks[] = {5.0, 10.0, 15.0};
    const double speeds[] = {0.01, 0.002};
    for (size_t j = 0; j < 2; j++)
        for (size_t i = 0; i < 3; i++) {
            double th = sticks[i] * TS_PI / 180.0, v_end;
            double vs = speeds[j], dt = 1e-4;
            double a = incline_accel(2, th, mu, vs, 0.5, 1.0, dt, CDYN_INTEGRATOR_SYMPLECTIC_EULER,
                                     &v_end);
            double r = tan(th) / mu, bound = vs * r / sqrt(1.0 - r * r);
            print_message("  incline %.0f deg, mu %g, v_s %g: sticks, creep %.6f m/s, bound "
                          "v_s r / sqrt(1 - r^2) = %.6f m/s (ratio %.4f), a = %.1e\n",
                          sticks[i], mu, vs, v_end, bound, v_end / bound, a);
            assert_true(v_end <= bound * (1.0 + 1e-3));
            assert_true(v_end >= bound * 0.99); /* and it is the steady speed */
            assert_true(fabs(a) < 1e-3);
        }
}

/* A particle resting on level ground, nudged sideways by half the friction
 * speed: with dt mu g / v_s < 1 its tangential speed decays without ever
 * changing sign, for every explicit integrator. */
static void test_no_chatter(void **state)
{
    (void)state;
    const cdyn_integrator integ[] = {CDYN_INTEGRATOR_EXPLICIT_EULER,
                                     CDYN_INTEGRATOR_SYMPLECTIC_EULER,
                                     CDYN_INTEGRATOR_VELOCITY_VERLET, CDYN_INTEGRATOR_RK4};
    for (size_t k = 0; k < 4; k++) {
        const double mu = 0.9, vs = 0.01, dt = 1e-3; /* dt mu g / v_s = 0.88 */
        slide s = make_slide(2, (double[]){0, 1}, 1.0, 1e4, mu, vs, (double[]){0.5 * vs, 0},
                             integ[k]);
        double x[2], v[2], prev = 0.5 * vs;
        for (int i = 0; i < 2000; i++) {
            assert_int_equal(cdyn_system_step(s.sys, dt), CDYN_OK);
            get_xv(&s, x, v);
            assert_true(v[0] >= 0.0);
            assert_true(v[0] <= prev * (1.0 + 1e-12));
            prev = v[0];
        }
        assert_true(v[0] < 1e-12);
        cdyn_system_destroy(s.sys);
    }
}

static void test_friction_force(void **state)
{
    (void)state;
    /* 3-D, level ground, a particle sliding at U = (0.3, -0.4, 0) while at
     * depth d sinking at 0.1: N = S d + c 0.1; friction -mu N U / sqrt(|U|^2
     * + v_s^2), opposite to U. */
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(3, &sys), CDYN_OK);
    cdyn_ground g;
    assert_int_equal(cdyn_ground_add_plane(sys, (double[]){0, 0, 1}, 0.0, &g), CDYN_OK);
    assert_int_equal(cdyn_ground_set_stiffness(sys, g, 500.0), CDYN_OK);
    assert_int_equal(cdyn_ground_set_damping(sys, g, 20.0), CDYN_OK);
    assert_int_equal(cdyn_ground_set_friction(sys, g, 0.7), CDYN_OK);
    assert_int_equal(cdyn_ground_set_friction_speed(sys, g, 0.05), CDYN_OK);
    cdyn_particle p;
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){1, 2, -0.02},
                                       (double[]){0.3, -0.4, -0.1}, &p),
                     CDYN_OK);
    double fn[3], ff[3];
    assert_int_equal(cdyn_ground_get_total_force(sys, g, fn, ff), CDYN_OK);
    double N = 500.0 * 0.02 + 20.0 * 0.1, w = sqrt(0.25 + 0.0025);
    assert_near(fn[2], N, 1e-12);
    assert_near(ff[0], -0.7 * N * 0.3 / w, 1e-12);
    assert_near(ff[1], 0.7 * N * 0.4 / w, 1e-12);
    assert_near(ff[2], 0.0, 0);
    /* a fast slide: Coulomb's mu N within (v_s / |U|)^2 / 2 */
    assert_int_equal(cdyn_particle_set_velocity(sys, p, (double[]){5, 0, 0}), CDYN_OK);
    assert_int_equal(cdyn_ground_get_total_force(sys, g, fn, ff), CDYN_OK);
    assert_near(-ff[0], 0.7 * fn[2], 0.7 * fn[2] * 0.5 * (0.05 / 5) * (0.05 / 5) * 1.0001);
    /* at rest: none */
    assert_int_equal(cdyn_particle_set_velocity(sys, p, (double[]){0, 0, 0}), CDYN_OK);
    assert_int_equal(cdyn_ground_get_total_force(sys, g, fn, ff), CDYN_OK);
    assert_true(ff[0] == 0 && ff[1] == 0 && ff[2] == 0);
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stopping_distance),
        cmocka_unit_test(test_incline),
        cmocka_unit_test(test_no_chatter),
        cmocka_unit_test(test_friction_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
