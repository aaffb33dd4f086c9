/* Pendulums driven from outside, checked against mechanics:
 *
 *  - a rod whose length follows L(t): the work its tension does on the
 *    bob, integrated independently from the reported force and the
 *    velocity, equals the change of the bob's energy and the library's
 *    drive work; the angular momentum about the pivot changes only by the
 *    torque of gravity (the rod's force is central);
 *  - a pivot shaken along a given path: the rod's force on the bob is
 *    m a - m g, with a from the evaluation and from second differences of
 *    the trajectory;
 *  - RATTLE with a moving anchor: positions and velocities on the moving
 *    manifold to the projection tolerances at every step, order 2;
 *  - energy bookkeeping: kinetic + potential - drive work constant to each
 *    integrator's order, measured on a refinement. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define G 9.81

static void ok(cdyn_system *sys, cdyn_status st)
{
    if (st != CDYN_OK)
        fail_msg("status %s: %s", cdyn_status_name(st), cdyn_system_last_error(sys));
}

static double energy(const cdyn_system *sys)
{
    double k, u;
    ok(NULL, cdyn_system_get_kinetic_energy(sys, &k));
    ok(NULL, cdyn_system_get_potential_energy(sys, &u));
    return k + u;
}

/* ---- L(t) ------------------------------------------------------------ */

static void test_varying_length(void **state)
{
    (void)state;
    const double m = 0.8, dt = 1e-3, L0 = 1.0, amp = 0.2, om = 3.0;
    cdyn_system *sys;
    ok(NULL, cdyn_system_create(2, &sys));
    ok(sys, cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4));
    cdyn_particle bob;
    ok(sys, cdyn_particle_add(sys, m, (double[]){L0 * sin(0.5), -L0 * cos(0.5)}, NULL, &bob));
    cdyn_force f;
    ok(sys, cdyn_force_add_gravity(sys, (double[]){0, -G}, &f));
    cdyn_constraint rod;
    ok(sys, cdyn_constraint_add_anchor(sys, bob, (double[]){0, 0}, L0, &rod));
    cdyn_schedule_desc s;
    cdyn_schedule_desc_init(&s, CDYN_SCHEDULE_OSCILLATION);
    s.amplitude = amp;
    s.frequency = om;
    ok(sys, cdyn_constraint_set_length_schedule(sys, rod, &s));
    /* the bob moves with the rod's end from the start: L' = amp om */
    ok(sys, cdyn_particle_set_velocity(sys, bob,
                                       (double[]){amp * om * sin(0.5), -amp * om * cos(0.5)}));
    ok(sys, cdyn_system_evaluate(sys, NULL, 0));
    double e0 = energy(sys), x[2], v[2], fr[2], l0z, work = 0, torque_int = 0;
    ok(sys, cdyn_particle_get_position(sys, bob, x));
    ok(sys, cdyn_particle_get_velocity(sys, bob, v));
    ok(sys, cdyn_constraint_get_force(sys, rod, bob, fr));
    l0z = m * (x[0] * v[1] - x[1] * v[0]);
    double p_prev = fr[0] * v[0] + fr[1] * v[1], tau_prev = -m * G * x[0];
    double worst_len = 0, worst_w = 0, worst_l = 0, wmax = 0;
    for (int i = 1; i <= 4000; i++) {
        ok(sys, cdyn_system_step(sys, dt));
        ok(sys, cdyn_particle_get_position(sys, bob, x));
        ok(sys, cdyn_particle_get_velocity(sys, bob, v));
        /* the force of the last evaluation is at the step's end (RK4's
         * last stage is at t1 but at the predicted state): the rod's force
         * at the committed state by one evaluation */
        ok(sys, cdyn_system_evaluate(sys, NULL, 0));
        ok(sys, cdyn_constraint_get_force(sys, rod, bob, fr));
        double p = fr[0] * v[0] + fr[1] * v[1], tau = -m * G * x[0];
        work += 0.5 * dt * (p_prev + p); /* the rod's work, trapezoid */
        torque_int += 0.5 * dt * (tau_prev + tau);
        p_prev = p, tau_prev = tau;
        double t = dt * i, len;
        ok(sys, cdyn_constraint_get_length(sys, rod, &len));
        assert_near(len, L0 + amp * sin(om * t), 1e-12); /* t summed step by step */
        worst_len = fmax(worst_len, fabs(hypot(x[0], x[1]) - len));
        double w;
        ok(sys, cdyn_system_get_drive_work(sys, &w));
        wmax = fmax(wmax, fabs(w));
        worst_w = fmax(worst_w, fmax(fabs(energy(sys) - e0 - w), fabs(work - w)));
        worst_l = fmax(worst_l, fabs(m * (x[0] * v[1] - x[1] * v[0]) - l0z - torque_int));
    }
    print_message("L(t) pendulum over 4 s: |x| - L(t) <= %.3g m; |E - E0 - W|, |W_rod - W| "
                  "<= %.3g J (|W| up to %.3g J); angular momentum balance within %.3g\n",
                  worst_len, worst_w, wmax, worst_l);
    assert_true(wmax > 0.1);
    assert_true(worst_len < 1e-9);
    /* the trapezoid of the independent integral: O(dt^2) */
    assert_true(worst_w < 1e-5 * wmax);
    assert_true(worst_l < 1e-5);
    cdyn_system_destroy(sys);
}

/* ---- a pivot on a given path --------------------------------------- */

/* The path of the pivot: a circle of radius 0.1 at 5 rad/s, given by a
 * callback with its derivatives. */
static int pivot_path(const cdyn_system *sys, double t, cdyn_motion_state *out, void *user)
{
    (void)sys, (void)user;
    const double r = 0.1, w = 5.0;
    out->position[0] = r * cos(w * t);
    out->position[1] = r * sin(w * t);
    out->velocity[0] = -r * w * sin(w * t);
    out->velocity[1] = r * w * cos(w * t);
    out->acceleration[0] = -r * w * w * cos(w * t);
    out->acceleration[1] = -r * w * w * sin(w * t);
    return 0;
}

static void test_driven_pivot_force(void **state)
{
    (void)state;
    const double m = 1.3, dt = 1e-3;
    cdyn_system *sys;
    ok(NULL, cdyn_system_create(2, &sys));
    ok(sys, cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4));
    cdyn_particle bob;
    ok(sys, cdyn_particle_add(sys, m, (double[]){0.1, -0.9}, NULL, &bob));
    cdyn_force f;
    ok(sys, cdyn_force_add_gravity(sys, (double[]){0, -G}, &f));
    cdyn_constraint rod;
    ok(sys, cdyn_constraint_add_anchor(sys, bob, (double[]){0.1, 0}, 0.9, &rod));
    cdyn_motion_desc path;
    cdyn_motion_desc_init(&path, CDYN_MOTION_CALLBACK);
    path.callback = pivot_path;
    ok(sys, cdyn_constraint_set_motion(sys, rod, &path));
    /* positions of the last three steps, forces of the last two */
    double xs[3][2], fs[2][2], worst_eval = 0, worst_traj = 0, fmax_ = 0;
    for (int i = 0; i < 1500; i++) {
        ok(sys, cdyn_system_step(sys, dt));
        double a[2];
        memmove(xs[0], xs[1], 2 * sizeof xs[0]);
        ok(sys, cdyn_particle_get_position(sys, bob, xs[2]));
        memcpy(fs[0], fs[1], sizeof fs[0]);
        ok(sys, cdyn_system_evaluate(sys, a, 2));
        ok(sys, cdyn_constraint_get_force(sys, rod, bob, fs[1]));
        fmax_ = fmax(fmax_, hypot(fs[1][0], fs[1][1]));
        worst_eval = fmax(worst_eval, fmax(fabs(fs[1][0] - m * a[0]),
                                           fabs(fs[1][1] - (m * a[1] - m * -G))));
        if (i >= 2)
            for (int k = 0; k < 2; k++) {
                double acc = (xs[2][k] - 2 * xs[1][k] + xs[0][k]) / (dt * dt);
                worst_traj = fmax(worst_traj, fabs(fs[0][k] - m * (acc - (k ? -G : 0))));
            }
    }
    print_message("shaken pivot: rod force vs m a - m g: %.3g N from the evaluation, %.3g N "
                  "from second differences of the path (forces up to %.3g N)\n",
                  worst_eval, worst_traj, fmax_);
    assert_true(worst_eval < 1e-10 * fmax_);
    assert_true(worst_traj < 1e-4 * fmax_);
    cdyn_system_destroy(sys);
}

/* ---- RATTLE with a moving anchor ------------------------------------ */

/* A spherical pendulum whose anchor oscillates vertically; RATTLE from
 * the same start at dt, returns the bob's position at T = 1 s; checks the
 * manifold at every step. */
static void rattle_run(double dt, double out[3], double *worst_g, double *worst_v)
{
    cdyn_system *sys;
    ok(NULL, cdyn_system_create(3, &sys));
    ok(sys, cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE));
    cdyn_projection_options po;
    cdyn_projection_options_init(&po);
    po.position_tolerance = 1e-12;
    po.velocity_tolerance = 1e-12;
    ok(sys, cdyn_system_set_projection_options(sys, &po));
    cdyn_particle bob;
    ok(sys, cdyn_particle_add(sys, 1.0, (double[]){0.6, 0, -0.8}, (double[]){0, 1.0, 0}, &bob));
    cdyn_force f;
    ok(sys, cdyn_force_add_gravity(sys, (double[]){0, 0, -G}, &f));
    cdyn_constraint rod;
    ok(sys, cdyn_constraint_add_anchor(sys, bob, (double[]){0, 0, 0}, 1.0, &rod));
    cdyn_motion_desc shake;
    cdyn_motion_desc_init(&shake, CDYN_MOTION_OSCILLATION);
    shake.amplitude[2] = 0.05;
    shake.frequency = 12;
    ok(sys, cdyn_constraint_set_motion(sys, rod, &shake));
    int n = (int)lround(1.0 / dt);
    *worst_g = *worst_v = 0;
    for (int i = 0; i < n; i++) {
        ok(sys, cdyn_system_step(sys, dt));
        double gp, gv;
        ok(sys, cdyn_system_compute_constraint_residuals(sys, &gp, &gv));
        *worst_g = fmax(*worst_g, gp);
        *worst_v = fmax(*worst_v, gv);
    }
    ok(sys, cdyn_particle_get_position(sys, bob, out));
    cdyn_system_destroy(sys);
}

static void test_rattle_moving_anchor(void **state)
{
    (void)state;
    double ref[3], x[3], wg, wv, h[4], err[4];
    rattle_run(1.25e-4, ref, &wg, &wv);
    for (int k = 0; k < 4; k++) {
        h[k] = 4e-3 / (1 << k);
        rattle_run(h[k], x, &wg, &wv);
        err[k] = fmax(fabs(x[0] - ref[0]), fmax(fabs(x[1] - ref[1]), fabs(x[2] - ref[2])));
        print_message("RATTLE, moving anchor, dt = %.2e: error %.3e m, |g| <= %.2e m, "
                      "|g'| <= %.2e m/s\n", h[k], err[k], wg, wv);
        /* on the manifold of the moment: residuals of a length 1 within
         * the tolerances (relative to the length and the speed) */
        assert_true(wg < 1e-11);
        assert_true(wv < 1e-10);
    }
    double order = ts_fit_order(h, err, 4);
    print_message("RATTLE with a moving anchor: order %.3f\n", order);
    assert_true(order > 1.9 && order < 2.1);
}

/* ---- energy bookkeeping, order by order ---------------------------- */

/* A mass on a spring from a shaken kinematic particle, and a second mass
 * on a rod to an anchor turning about a vertical axis (no drift feedback
 * needed for its length with projections; the others keep it with the
 * default gains). Returns max |E - W - E0| over T = 1 s. */
static double bookkeeping_error(cdyn_integrator integ, double dt, int with_rod)
{
    cdyn_system *sys;
    ok(NULL, cdyn_system_create(3, &sys));
    ok(sys, cdyn_system_set_integrator(sys, integ));
    cdyn_particle top, bob, b2;
    ok(sys, cdyn_particle_add(sys, 0.5, (double[]){0, 0, 0}, NULL, &top));
    ok(sys, cdyn_particle_add(sys, 1.0, (double[]){0.1, 0, -1}, NULL, &bob));
    cdyn_force f;
    ok(sys, cdyn_force_add_gravity(sys, (double[]){0, 0, -G}, &f));
    ok(sys, cdyn_force_add_spring(sys, top, bob, 60, 0, 0.8, &f));
    cdyn_motion_desc shake;
    cdyn_motion_desc_init(&shake, CDYN_MOTION_OSCILLATION);
    shake.amplitude[0] = 0.1;
    shake.amplitude[2] = 0.05;
    shake.frequency = 6;
    ok(sys, cdyn_particle_set_motion(sys, top, &shake));
    if (with_rod) {
        cdyn_constraint rod;
        ok(sys, cdyn_particle_add(sys, 0.7, (double[]){2.5, 0, -0.5}, NULL, &b2));
        ok(sys, cdyn_constraint_add_anchor(sys, b2, (double[]){2, 0, 0}, sqrt(0.5), &rod));
        cdyn_motion_desc turn;
        cdyn_motion_desc_init(&turn, CDYN_MOTION_ROTATION);
        turn.center[0] = 1.8; /* the anchor circles about x = 1.8 */
        turn.angular_velocity = 2;
        ok(sys, cdyn_constraint_set_motion(sys, rod, &turn));
        ok(sys, cdyn_particle_set_velocity(sys, b2, (double[]){0, 0.4, 0}));
    }
    double e0 = energy(sys), worst = 0;
    int n = (int)lround(1.0 / dt);
    for (int i = 0; i < n; i++) {
        ok(sys, cdyn_system_step(sys, dt));
        double w;
        ok(sys, cdyn_system_get_drive_work(sys, &w));
        worst = fmax(worst, fabs(energy(sys) - w - e0));
    }
    cdyn_system_destroy(sys);
    return worst;
}

static void test_energy_bookkeeping_orders(void **state)
{
    (void)state;
    const struct {
        cdyn_integrator integ;
        const char *name;
        double order, base;
        int rod;
    } cases[] = {
        {CDYN_INTEGRATOR_SYMPLECTIC_EULER, "symplectic Euler", 1, 2e-3, 0},
        {CDYN_INTEGRATOR_EXPLICIT_EULER, "explicit Euler", 1, 1e-3, 0},
        {CDYN_INTEGRATOR_VELOCITY_VERLET, "velocity Verlet", 2, 4e-3, 0},
        {CDYN_INTEGRATOR_RK4, "RK4", 4, 5e-3, 0},
        {CDYN_INTEGRATOR_BACKWARD_EULER, "backward Euler", 1, 2e-3, 0},
        {CDYN_INTEGRATOR_RATTLE, "RATTLE", 2, 4e-3, 1},
        {CDYN_INTEGRATOR_RK4, "RK4 with a moving anchor", 4, 5e-3, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        double h[3], e[3];
        for (int k = 0; k < 3; k++) {
            h[k] = cases[c].base / (1 << k);
            e[k] = bookkeeping_error(cases[c].integ, h[k], cases[c].rod);
        }
        double order = ts_fit_order(h, e, 3);
        print_message("%s: max |E - W - E0| %.3g, %.3g, %.3g J at dt = %.3g...: order %.2f\n",
                      cases[c].name, e[0], e[1], e[2], h[0], order);
        assert_true(order > cases[c].order - 0.25 && order < cases[c].order + 0.6);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_varying_length),
        cmocka_unit_test(test_driven_pivot_force),
        cmocka_unit_test(test_rattle_moving_anchor),
        cmocka_unit_test(test_energy_bookkeeping_orders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
