/* A roller coaster on a closed C2 spline loop in 3-D: no friction, so the
 * speed at every point is sqrt(v0^2 + 2 g (h0 - h)); RK4's energy error
 * falls as dt^4. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define NPTS 24
static const double G = 9.81;

/* A closed track: an oval in plan with humps and dips (z up), highest at
 * the start so that a cart launched there at v0 goes round. */
static void track(double *pts)
{
    for (int i = 0; i < NPTS; i++) {
        double th = 2 * TS_PI * i / NPTS;
        pts[3 * i] = 20 * cos(th);
        pts[3 * i + 1] = 8 * sin(th);
        pts[3 * i + 2] = 4 + 3 * cos(th) + 1.2 * sin(3 * th) * 0.5 * (1 - cos(th));
    }
}

typedef struct ride {
    double worst_speed_rel, worst_energy_rel, laps;
} ride;

static ride run(double dt, double duration)
{
    double pts[3 * NPTS];
    track(pts);
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(3, &sys), CDYN_OK);
    cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4);
    const double v0 = 3.0, m = 500.0;
    cdyn_particle cart;
    cdyn_particle_add(sys, m, &pts[0], NULL, &cart);
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, 0, -G}, &g);
    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, CDYN_CURVE_SPLINE);
    d.points = pts;
    d.num_points = NPTS;
    d.spline_end = CDYN_SPLINE_CLOSED;
    cdyn_constraint c;
    assert_int_equal(cdyn_constraint_add_on_curve(sys, cart, &d, &c), CDYN_OK);
    /* Launch along the track at v0: q' = v0 / |r'(0)|. */
    double r[3], dr[3];
    assert_int_equal(cdyn_curve_evaluate(&d, 3, 0.0, r, dr, NULL), CDYN_OK);
    double qd = v0 / sqrt(dr[0] * dr[0] + dr[1] * dr[1] + dr[2] * dr[2]);
    assert_int_equal(cdyn_constraint_set_coordinates(sys, c, NULL, &qd), CDYN_OK);
    double x0[3], e0, k, u;
    cdyn_particle_get_position(sys, cart, x0);
    cdyn_system_get_kinetic_energy(sys, &k);
    cdyn_system_get_potential_energy(sys, &u);
    e0 = k + u;
    ride out = {0, 0, 0};
    double q_prev = 0, unwrapped = 0;
    int steps = (int)lround(duration / dt);
    for (int i = 0; i < steps; i++) {
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        double x[3], v[3], q;
        cdyn_particle_get_position(sys, cart, x);
        cdyn_particle_get_velocity(sys, cart, v);
        cdyn_constraint_get_coordinates(sys, c, &q, NULL);
        double dq = q - q_prev;
        if (dq < -NPTS / 2.0)
            dq += NPTS; /* wrapped past the seam */
        assert_true(dq > 0); /* it never stops or turns back */
        unwrapped += dq;
        q_prev = q;
        double speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        double want = sqrt(v0 * v0 + 2 * G * (x0[2] - x[2]));
        out.worst_speed_rel = fmax(out.worst_speed_rel, fabs(speed - want) / want);
        cdyn_system_get_kinetic_energy(sys, &k);
        cdyn_system_get_potential_energy(sys, &u);
        out.worst_energy_rel = fmax(out.worst_energy_rel, fabs(k + u - e0) / e0);
    }
    out.laps = unwrapped / NPTS;
    cdyn_system_destroy(sys);
    return out;
}

static void test_speed_follows_height(void **state)
{
    (void)state;
    ride r = run(1e-3, 30.0);
    print_message("roller coaster, 30 s (%.2f laps): worst speed error %.3e, energy %.3e\n",
                  r.laps, r.worst_speed_rel, r.worst_energy_rel);
    assert_true(r.laps > 1.0);
    assert_true(r.worst_speed_rel < 1e-8);
}

static void test_energy_error_order(void **state)
{
    (void)state;
    double h[3] = {0.02, 0.01, 0.005}, e[3];
    for (int i = 0; i < 3; i++) {
        ride r = run(h[i], 20.0);
        e[i] = r.worst_energy_rel;
        print_message("dt %.3f: energy error %.3e\n", h[i], e[i]);
    }
    double order = ts_fit_order(h, e, 3);
    print_message("measured order %.2f\n", order);
    assert_near(order, 4.0, 0.3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_speed_follows_height),
        cmocka_unit_test(test_energy_error_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
