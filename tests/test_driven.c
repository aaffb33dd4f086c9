/* Driven systems through the public API: kinematic particles follow their
 * motions exactly under every integrator and act as moving anchors;
 * their setters refuse them; a failing motion rolls the step back; moving
 * and conveying grounds carry a block by friction measured against the
 * ground's velocity; motions and schedules attach, read back and stop
 * where they are; the drive work closes the energy balance. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "cdyn/cdyn.h"
#include "support.h"

#define G 9.81

static void ok(cdyn_system *sys, cdyn_status st)
{
    if (st != CDYN_OK)
        fail_msg("status %s: %s", cdyn_status_name(st), cdyn_system_last_error(sys));
}

static const cdyn_integrator ALL[] = {
    CDYN_INTEGRATOR_EXPLICIT_EULER, CDYN_INTEGRATOR_SYMPLECTIC_EULER,
    CDYN_INTEGRATOR_VELOCITY_VERLET, CDYN_INTEGRATOR_RK4, CDYN_INTEGRATOR_RK45,
    CDYN_INTEGRATOR_RATTLE, CDYN_INTEGRATOR_BACKWARD_EULER};
#define N_ALL (sizeof ALL / sizeof ALL[0])

/* A particle turned about (1, 0) at 2 rad/s, starting at (2, 0): on the
 * circle of radius 1 about (1, 0) at angle 2 t, whatever the integrator,
 * gravity and a spring to a free particle notwithstanding. */
static void test_kinematic_follows_motion(void **state)
{
    (void)state;
    for (size_t k = 0; k < N_ALL; k++) {
        cdyn_system *sys;
        ok(NULL, cdyn_system_create(2, &sys));
        ok(sys, cdyn_system_set_integrator(sys, ALL[k]));
        cdyn_particle p, q;
        ok(sys, cdyn_particle_add(sys, 2.0, (double[]){2, 0}, NULL, &p));
        ok(sys, cdyn_particle_add(sys, 1.0, (double[]){2, -1}, NULL, &q));
        cdyn_force f;
        ok(sys, cdyn_force_add_gravity(sys, (double[]){0, -G}, &f));
        ok(sys, cdyn_force_add_spring(sys, p, q, 50, 0.5, 1.0, &f));
        cdyn_motion_desc m;
        cdyn_motion_desc_init(&m, CDYN_MOTION_ROTATION);
        m.center[0] = 1;
        m.angular_velocity = 2;
        ok(sys, cdyn_particle_set_motion(sys, p, &m));
        double v[2];
        ok(sys, cdyn_particle_get_velocity(sys, p, v));
        assert_near(v[0], 0, 1e-15);
        assert_near(v[1], 2, 1e-15); /* the carried material's velocity */
        for (int i = 1; i <= 50; i++) {
            ok(sys, cdyn_system_step(sys, 0.01));
            double x[2], t = 0.01 * i;
            ok(sys, cdyn_particle_get_position(sys, p, x));
            ok(sys, cdyn_particle_get_velocity(sys, p, v));
            assert_near(x[0], 1 + cos(2 * t), 1e-13);
            assert_near(x[1], sin(2 * t), 1e-13);
            assert_near(v[0], -2 * sin(2 * t), 1e-13);
            assert_near(v[1], 2 * cos(2 * t), 1e-13);
        }
        /* it keeps its mass for the diagnostics */
        double ke;
        ok(sys, cdyn_system_get_kinetic_energy(sys, &ke));
        assert_true(ke >= 0.5 * 2.0 * 4.0 - 1e-12);
        cdyn_system_destroy(sys);
    }
}

/* A rod from a kinematic pivot and an anchor carried by the same motion
 * are the same constraint: the bobs follow the same path. */
static void test_kinematic_pivot_is_moving_anchor(void **state)
{
    (void)state;
    const cdyn_integrator integ[] = {CDYN_INTEGRATOR_RK4, CDYN_INTEGRATOR_RATTLE,
                                     CDYN_INTEGRATOR_BACKWARD_EULER};
    for (size_t k = 0; k < 3; k++) {
        cdyn_system *a, *b;
        ok(NULL, cdyn_system_create(3, &a));
        ok(NULL, cdyn_system_create(3, &b));
        cdyn_motion_desc m;
        cdyn_motion_desc_init(&m, CDYN_MOTION_OSCILLATION);
        m.amplitude[1] = 0.1;
        m.frequency = 7;
        double x0[3] = {0.6, -0.8, 0};
        cdyn_particle bob_a, bob_b, pivot;
        cdyn_constraint c;
        cdyn_force f;
        for (int s = 0; s < 2; s++) {
            cdyn_system *sys = s ? b : a;
            ok(sys, cdyn_system_set_integrator(sys, integ[k]));
            ok(sys, cdyn_particle_add(sys, 1.5, x0, NULL, s ? &bob_b : &bob_a));
            ok(sys, cdyn_force_add_gravity(sys, (double[]){0, -G, 0}, &f));
        }
        ok(a, cdyn_constraint_add_anchor(a, bob_a, (double[]){0, 0, 0}, 1.0, &c));
        ok(a, cdyn_constraint_set_motion(a, c, &m));
        ok(b, cdyn_particle_add(b, 1.0, (double[]){0, 0, 0}, NULL, &pivot));
        ok(b, cdyn_particle_set_motion(b, pivot, &m));
        ok(b, cdyn_constraint_add_distance(b, pivot, bob_b, 1.0, &c));
        for (int i = 0; i < 300; i++) {
            ok(a, cdyn_system_step(a, 2e-3));
            ok(b, cdyn_system_step(b, 2e-3));
        }
        double xa[3], xb[3];
        ok(a, cdyn_particle_get_position(a, bob_a, xa));
        ok(b, cdyn_particle_get_position(b, bob_b, xb));
        for (int i = 0; i < 3; i++)
            assert_near(xa[i], xb[i], 1e-9);
        /* the pivot moved: the bob is not where a fixed pivot would leave it */
        double pa[3];
        ok(b, cdyn_particle_get_position(b, pivot, pa));
        assert_near(pa[1], 0.1 * sin(7 * 0.6), 1e-13);
        cdyn_system_destroy(a);
        cdyn_system_destroy(b);
    }
}

static void test_kinematic_setters_refused(void **state)
{
    (void)state;
    cdyn_system *sys;
    ok(NULL, cdyn_system_create(2, &sys));
    cdyn_particle p, q;
    ok(sys, cdyn_particle_add(sys, 1.0, (double[]){1, 1}, (double[]){0.5, 0}, &p));
    ok(sys, cdyn_particle_add(sys, 1.0, (double[]){3, 1}, NULL, &q));
    cdyn_motion_desc m, back;
    cdyn_motion_desc_init(&m, CDYN_MOTION_LINEAR);
    m.velocity[0] = 3;
    ok(sys, cdyn_particle_set_motion(sys, p, &m));
    bool kin;
    ok(sys, cdyn_particle_get_motion(sys, p, &back, &kin));
    assert_true(kin);
    assert_int_equal(back.kind, CDYN_MOTION_LINEAR);
    assert_near(back.velocity[0], 3, 0);
    ok(sys, cdyn_particle_get_motion(sys, q, NULL, &kin));
    assert_false(kin);
    double v[2] = {1, 1}, x[2] = {0, 0};
    assert_int_equal(cdyn_particle_set_velocity(sys, p, v), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(sys), "particle_set_velocity"));
    assert_non_null(strstr(cdyn_system_last_error(sys), "prescribed motion"));
    assert_int_equal(cdyn_particle_set_mass(sys, p, 2.0), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(sys), "particle_set_mass"));
    assert_int_equal(cdyn_particle_set_position(sys, p, x), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_set_fixed(sys, p, true), CDYN_ERR_INVALID_ARGUMENT);
    double mass;
    ok(sys, cdyn_particle_get_mass(sys, p, &mass));
    assert_near(mass, 1.0, 0);
    /* the bulk setters leave it alone and set the others */
    double all[4] = {9, 9, 7, 7};
    ok(sys, cdyn_system_set_positions(sys, all, 4));
    ok(sys, cdyn_particle_get_position(sys, p, x));
    assert_near(x[0], 1, 0);
    ok(sys, cdyn_particle_get_position(sys, q, x));
    assert_near(x[0], 7, 0);
    /* a fixed particle or one on a shape cannot be made kinematic */
    ok(sys, cdyn_particle_set_fixed(sys, q, true));
    assert_int_equal(cdyn_particle_set_motion(sys, q, &m), CDYN_ERR_INVALID_ARGUMENT);
    ok(sys, cdyn_particle_set_fixed(sys, q, false));
    cdyn_curve_desc cd;
    cdyn_curve_desc_init(&cd, CDYN_CURVE_LINE);
    cdyn_constraint c;
    ok(sys, cdyn_constraint_add_on_curve(sys, q, &cd, &c));
    assert_int_equal(cdyn_particle_set_motion(sys, q, &m), CDYN_ERR_UNSUPPORTED);
    /* nor the other way round: a kinematic particle joins no shape or body */
    assert_int_equal(cdyn_constraint_add_on_curve(sys, p, &cd, &c), CDYN_ERR_UNSUPPORTED);
    assert_non_null(strstr(cdyn_system_last_error(sys), "prescribed motion"));
    cdyn_rigid body;
    assert_int_equal(cdyn_rigid_add(sys, &p, 1, &body), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(sys), "prescribed motion"));
    /* a bad description is refused with its reason */
    m.velocity[1] = NAN;
    assert_int_equal(cdyn_particle_set_motion(sys, p, &m), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(sys), "finite"));
    /* released, it keeps its velocity and falls freely */
    ok(sys, cdyn_system_step(sys, 0.1));
    ok(sys, cdyn_particle_set_motion(sys, p, NULL));
    ok(sys, cdyn_particle_get_motion(sys, p, NULL, &kin));
    assert_false(kin);
    ok(sys, cdyn_particle_get_velocity(sys, p, v));
    assert_near(v[0], 3, 1e-15);
    cdyn_force f;
    ok(sys, cdyn_force_add_gravity(sys, (double[]){0, -G}, &f));
    ok(sys, cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4));
    ok(sys, cdyn_particle_get_position(sys, p, x));
    ok(sys, cdyn_system_step(sys, 0.2));
    double x1[2];
    ok(sys, cdyn_particle_get_position(sys, p, x1));
    assert_near(x1[0], x[0] + 0.6, 1e-12);
    assert_near(x1[1], x[1] - 0.5 * G * 0.04, 1e-12);
    ok(sys, cdyn_particle_set_velocity(sys, p, v));
    cdyn_system_destroy(sys);
}

/* A motion callback that turns non-finite after t = 0.25. */
static int fails_late(const cdyn_system *sys, double t, cdyn_motion_state *out, void *user)
{
    (void)sys, (void)user;
    out->position[0] = t;
    out->velocity[0] = t > 0.25 ? NAN : 1.0;
    return 0;
}

static void test_nonfinite_motion_rolls_back(void **state)
{
    (void)state;
    for (size_t k = 0; k < N_ALL; k++) {
        cdyn_system *sys;
        ok(NULL, cdyn_system_create(2, &sys));
        ok(sys, cdyn_system_set_integrator(sys, ALL[k]));
        cdyn_particle p, q;
        ok(sys, cdyn_particle_add(sys, 1.0, (double[]){0, 0}, NULL, &p));
        ok(sys, cdyn_particle_add(sys, 1.0, (double[]){0, -1}, NULL, &q));
        cdyn_constraint c;
        ok(sys, cdyn_constraint_add_distance(sys, p, q, 1.0, &c));
        cdyn_force f;
        ok(sys, cdyn_force_add_gravity(sys, (double[]){0, -G}, &f));
        cdyn_motion_desc m;
        cdyn_motion_desc_init(&m, CDYN_MOTION_CALLBACK);
        m.callback = fails_late;
        ok(sys, cdyn_particle_set_motion(sys, p, &m));
        cdyn_status st = CDYN_OK;
        int steps = 0;
        ts_state before, after;
        double w0 = 0, w1;
        ts_state_capture(sys, &before);
        while (steps < 100 && (st = cdyn_system_step(sys, 0.1)) == CDYN_OK) {
            ts_state_free(&before);
            ts_state_capture(sys, &before);
            ok(sys, cdyn_system_get_drive_work(sys, &w0));
            steps++;
        }
        assert_int_equal(st, CDYN_ERR_CALLBACK);
        assert_int_equal(steps, 2); /* the step from 0.2 reaches past 0.25 */
        assert_non_null(strstr(cdyn_system_last_error(sys), "motion"));
        ts_state_capture(sys, &after);
        assert_true(ts_state_max_diff(&before, &after, NULL) == 0.0);
        assert_true(before.time == after.time);
        ok(sys, cdyn_system_get_drive_work(sys, &w1));
        assert_true(w0 == w1);
        ts_state_free(&before);
        ts_state_free(&after);
        cdyn_system_destroy(sys);
    }
}

/* A block (mass m) resting on a plane ground y = 0 that accelerates along
 * x at a from rest: with friction mu it is carried along (acceleration a)
 * while a < mu g, and slides at mu g when a > mu g; the friction force on
 * it is m times its acceleration, against its velocity relative to the
 * ground. */
static double block_on_ground(double a, double *friction, double *slip)
{
    const double mu = 0.4, m = 2.0;
    cdyn_system *sys;
    ok(NULL, cdyn_system_create(2, &sys));
    ok(sys, cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4));
    cdyn_particle p;
    double rest = -m * G / 1e6; /* the penalty's equilibrium depth */
    ok(sys, cdyn_particle_add(sys, m, (double[]){0, rest}, NULL, &p));
    cdyn_force f;
    ok(sys, cdyn_force_add_gravity(sys, (double[]){0, -G}, &f));
    cdyn_ground g;
    ok(sys, cdyn_ground_add_plane(sys, (double[]){0, 1}, 0, &g));
    ok(sys, cdyn_ground_set_stiffness(sys, g, 1e6));
    ok(sys, cdyn_ground_set_damping(sys, g, 2 * sqrt(1e6 * m)));
    ok(sys, cdyn_ground_set_friction(sys, g, mu));
    ok(sys, cdyn_ground_set_friction_speed(sys, g, 1e-3));
    cdyn_motion_desc mo;
    cdyn_motion_desc_init(&mo, CDYN_MOTION_LINEAR);
    mo.acceleration[0] = a;
    ok(sys, cdyn_ground_set_motion(sys, g, &mo));
    double v0[2], v1[2], x[2], w[2];
    const double dt = 2e-4;
    for (int i = 0; i < 2500; i++)
        ok(sys, cdyn_system_step(sys, dt));
    ok(sys, cdyn_particle_get_velocity(sys, p, v0));
    for (int i = 0; i < 2500; i++)
        ok(sys, cdyn_system_step(sys, dt));
    ok(sys, cdyn_particle_get_velocity(sys, p, v1));
    ok(sys, cdyn_particle_get_position(sys, p, x));
    ok(sys, cdyn_ground_get_velocity(sys, g, x, w));
    double fn[3], ff[3];
    ok(sys, cdyn_ground_get_total_force(sys, g, fn, ff));
    *friction = ff[0];
    *slip = v1[0] - w[0];
    assert_near(w[0], a * 1.0, 1e-12); /* the ground's material at t = 1 */
    cdyn_system_destroy(sys);
    return (v1[0] - v0[0]) / (2500 * dt);
}

static void test_moving_ground_stick_slip(void **state)
{
    (void)state;
    const double mu = 0.4, m = 2.0;
    double friction, slip;
    /* sticks: the block's acceleration is the ground's, friction m a */
    double acc = block_on_ground(0.5 * mu * G, &friction, &slip);
    assert_near(acc, 0.5 * mu * G, 1e-3 * mu * G);
    assert_near(friction, m * 0.5 * mu * G, 1e-2);
    /* the creep of the regularized friction, v_s r / sqrt(1 - r^2) at
     * r = 0.5, against the ground's motion */
    assert_near(slip, -1e-3 * 0.5 / sqrt(0.75), 1e-5);
    /* slips: mu g, friction mu m g against the relative velocity */
    acc = block_on_ground(2.0 * mu * G, &friction, &slip);
    assert_near(acc, mu * G, 1e-3 * mu * G);
    assert_near(friction, m * mu * G, 1e-2);
    assert_near(slip, -(2.0 * mu * G - mu * G) * 1.0, 0.02); /* lags by (a - mu g) t */
}

/* A conveyor: a static plane whose surface moves at u along x brings a
 * block dropped on it up to u (within the creep of the regularized
 * friction); the belt's work equals the block's kinetic energy plus what
 * friction dissipated while slipping (m u^2 / 2 each, for a block starting
 * at rest). */
static void test_conveyor(void **state)
{
    (void)state;
    const double mu = 0.5, m = 1.0, u = 2.0;
    cdyn_system *sys;
    ok(NULL, cdyn_system_create(2, &sys));
    ok(sys, cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4));
    cdyn_particle p;
    ok(sys, cdyn_particle_add(sys, m, (double[]){0, -m * G / 1e6}, NULL, &p));
    cdyn_force f;
    ok(sys, cdyn_force_add_gravity(sys, (double[]){0, -G}, &f));
    cdyn_ground g;
    ok(sys, cdyn_ground_add_plane(sys, (double[]){0, 1}, 0, &g));
    ok(sys, cdyn_ground_set_stiffness(sys, g, 1e6));
    ok(sys, cdyn_ground_set_damping(sys, g, 2e3));
    ok(sys, cdyn_ground_set_friction(sys, g, mu));
    ok(sys, cdyn_ground_set_friction_speed(sys, g, 1e-3));
    ok(sys, cdyn_ground_set_surface_velocity(sys, g, (double[]){u, 0}));
    double back[2];
    ok(sys, cdyn_ground_get_surface_velocity(sys, g, back));
    assert_near(back[0], u, 0);
    for (int i = 0; i < 1250; i++) /* 0.25 s: still slipping, a = mu g */
        ok(sys, cdyn_system_step(sys, 2e-4));
    double v[2];
    ok(sys, cdyn_particle_get_velocity(sys, p, v));
    assert_near(v[0], mu * G * 0.25, 1e-3);
    for (int i = 0; i < 5000; i++)
        ok(sys, cdyn_system_step(sys, 2e-4));
    ok(sys, cdyn_particle_get_velocity(sys, p, v));
    assert_near(v[0], u, 1e-3);
    double w;
    ok(sys, cdyn_system_get_drive_work(sys, &w));
    assert_near(w, m * u * u, 2e-2);
    cdyn_system_destroy(sys);
}

/* Energy bookkeeping with a kinematic particle: a mass on a spring whose
 * other end is shaken; E - W stays at its start to RK4's accuracy. */
static void test_drive_work_closes(void **state)
{
    (void)state;
    cdyn_system *sys;
    ok(NULL, cdyn_system_create(2, &sys));
    ok(sys, cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4));
    cdyn_particle top, bob;
    ok(sys, cdyn_particle_add(sys, 0.3, (double[]){0, 0}, NULL, &top));
    ok(sys, cdyn_particle_add(sys, 1.0, (double[]){0.1, -1}, NULL, &bob));
    cdyn_force f;
    ok(sys, cdyn_force_add_gravity(sys, (double[]){0, -G}, &f));
    ok(sys, cdyn_force_add_spring(sys, top, bob, 80, 0, 0.8, &f));
    cdyn_motion_desc m;
    cdyn_motion_desc_init(&m, CDYN_MOTION_OSCILLATION);
    m.amplitude[0] = 0.2;
    m.amplitude[1] = 0.05;
    m.frequency = 9;
    ok(sys, cdyn_particle_set_motion(sys, top, &m));
    double k0, u0, worst = 0, wmax = 0;
    ok(sys, cdyn_system_get_kinetic_energy(sys, &k0));
    ok(sys, cdyn_system_get_potential_energy(sys, &u0));
    for (int i = 0; i < 2000; i++) {
        ok(sys, cdyn_system_step(sys, 1e-3));
        double k, u, w;
        ok(sys, cdyn_system_get_kinetic_energy(sys, &k));
        ok(sys, cdyn_system_get_potential_energy(sys, &u));
        ok(sys, cdyn_system_get_drive_work(sys, &w));
        worst = fmax(worst, fabs(k + u - w - k0 - u0));
        wmax = fmax(wmax, fabs(w));
    }
    print_message("shaken spring: |E - W - E0| <= %.3g J over 2 s (|W| up to %.3g J)\n", worst,
                  wmax);
    assert_true(wmax > 1.0);
    assert_true(worst < 1e-9 * wmax);
    cdyn_system_destroy(sys);
}

/* Motions and schedules read back, stop where they are, and are refused
 * by kinds that cannot take them. */
static void test_attach_and_stop(void **state)
{
    (void)state;
    cdyn_system *sys;
    ok(NULL, cdyn_system_create(3, &sys));
    cdyn_particle a, b;
    ok(sys, cdyn_particle_add(sys, 1, (double[]){1, 0, 0}, NULL, &a));
    ok(sys, cdyn_particle_add(sys, 1, (double[]){2, 0, 0}, NULL, &b));
    cdyn_constraint anchor, rod, pin;
    ok(sys, cdyn_constraint_add_anchor(sys, a, (double[]){0, 0, 0}, 1.0, &anchor));
    ok(sys, cdyn_constraint_add_distance(sys, a, b, 1.0, &rod));
    cdyn_motion_desc m, back;
    cdyn_motion_desc_init(&m, CDYN_MOTION_LINEAR);
    m.velocity[2] = 0.5;
    assert_int_equal(cdyn_constraint_set_motion(sys, rod, &m), CDYN_ERR_UNSUPPORTED);
    assert_non_null(strstr(cdyn_system_last_error(sys), "constraint_set_motion"));
    ok(sys, cdyn_constraint_set_motion(sys, anchor, &m));
    bool moving;
    ok(sys, cdyn_constraint_get_motion(sys, anchor, &back, &moving));
    assert_true(moving);
    assert_near(back.velocity[2], 0.5, 0);
    ok(sys, cdyn_constraint_get_motion(sys, rod, &back, &moving));
    assert_false(moving);
    cdyn_schedule_desc s, sb;
    cdyn_schedule_desc_init(&s, CDYN_SCHEDULE_LINEAR);
    s.rate = 0.1;
    ok(sys, cdyn_constraint_set_length_schedule(sys, rod, &s));
    bool scheduled;
    ok(sys, cdyn_constraint_get_length_schedule(sys, rod, &sb, &scheduled));
    assert_true(scheduled);
    assert_near(sb.rate, 0.1, 0);
    ok(sys, cdyn_system_set_time(sys, 2.0)); /* the clock moves the geometry */
    double pt[3], len;
    ok(sys, cdyn_constraint_get_point(sys, anchor, pt));
    assert_near(pt[2], 1.0, 1e-15);
    ok(sys, cdyn_constraint_get_length(sys, rod, &len));
    assert_near(len, 1.2, 1e-15);
    /* stopped, the geometry stays where the clock had it */
    ok(sys, cdyn_constraint_set_motion(sys, anchor, NULL));
    ok(sys, cdyn_constraint_set_length_schedule(sys, rod, NULL));
    ok(sys, cdyn_system_set_time(sys, 5.0));
    ok(sys, cdyn_constraint_get_point(sys, anchor, pt));
    assert_near(pt[2], 1.0, 1e-15);
    ok(sys, cdyn_constraint_get_length(sys, rod, &len));
    assert_near(len, 1.2, 1e-15);
    ok(sys, cdyn_constraint_get_motion(sys, anchor, NULL, &moving));
    assert_false(moving);
    /* kinds that cannot take them */
    ok(sys, cdyn_constraint_add_pin(sys, b, (double[]){2, 0, 0}, &pin));
    assert_int_equal(cdyn_constraint_set_length_schedule(sys, pin, &s), CDYN_ERR_UNSUPPORTED);
    assert_int_equal(cdyn_constraint_get_length(sys, pin, &len), CDYN_ERR_UNSUPPORTED);
    assert_int_equal(cdyn_constraint_get_point(sys, rod, pt), CDYN_ERR_UNSUPPORTED);
    assert_int_equal(cdyn_constraint_set_time_dependent(sys, anchor, true),
                     CDYN_ERR_UNSUPPORTED);
    bool td = true;
    ok(sys, cdyn_constraint_get_time_dependent(sys, anchor, &td));
    assert_false(td);
    s.kind = (cdyn_schedule_kind)42;
    assert_int_equal(cdyn_constraint_set_length_schedule(sys, rod, &s),
                     CDYN_ERR_INVALID_ARGUMENT);
    /* grounds */
    cdyn_ground g;
    ok(sys, cdyn_ground_add_plane(sys, (double[]){0, 0, 1}, 0, &g));
    ok(sys, cdyn_ground_get_motion(sys, g, NULL, &moving));
    assert_false(moving);
    cdyn_motion_desc_init(&m, CDYN_MOTION_ROTATION);
    m.angular_velocity = 1;
    m.axis[0] = 1, m.axis[2] = 0;
    ok(sys, cdyn_ground_set_motion(sys, g, &m));
    ok(sys, cdyn_ground_get_motion(sys, g, &back, &moving));
    assert_true(moving);
    assert_int_equal(back.kind, CDYN_MOTION_ROTATION);
    /* the plane z = 0 turns about x: at t - 5 = pi/2 it is the plane y = 0 */
    ok(sys, cdyn_system_set_time(sys, 5.0 + TS_PI / 2));
    double h, grad[3];
    ok(sys, cdyn_ground_evaluate(sys, g, (double[]){0.3, -0.25, 0.7}, &h, grad));
    assert_near(h, 0.25, 1e-15);
    cdyn_system_destroy(sys);
}

/* A time-dependent user row: the particle on the line y = 0.1 sin(3 t). */
static int rising_line(const cdyn_system *sys, double t, size_t np, int dim, const double *x,
                       const double *v, size_t nr, double *g, double *jac, double *vt,
                       double *g_t, void *user)
{
    (void)sys, (void)np, (void)nr, (void)v, (void)user, (void)g_t;
    g[0] = x[1] - 0.1 * sin(3 * t);
    memset(jac, 0, (size_t)dim * sizeof *jac);
    jac[1] = 1;
    vt[0] = 0; /* spatial part; the time terms by differences */
    return 0;
}

/* Once a driven system's shape is set, its steps allocate nothing: every
 * kind of driver at once, under every integrator that takes it. */
static void test_no_allocation(void **state)
{
    (void)state;
    for (size_t k = 0; k < N_ALL; k++) {
        bool shapes = ALL[k] != CDYN_INTEGRATOR_RATTLE &&
                      ALL[k] != CDYN_INTEGRATOR_BACKWARD_EULER;
        ts_counting_alloc ca = {0};
        cdyn_allocator al = ts_counting_allocator(&ca);
        cdyn_system *sys;
        ok(NULL, cdyn_system_create_with_allocator(3, &al, &sys));
        ok(sys, cdyn_system_set_integrator(sys, ALL[k]));
        cdyn_particle p[5];
        for (int i = 0; i < 5; i++)
            ok(sys, cdyn_particle_add(sys, 1.0, (double[]){i, 0.5, 0.1 * i}, NULL, &p[i]));
        cdyn_force f;
        ok(sys, cdyn_force_add_gravity(sys, (double[]){0, -G, 0}, &f));
        cdyn_motion_desc m;
        cdyn_motion_desc_init(&m, CDYN_MOTION_OSCILLATION);
        m.amplitude[1] = 0.05;
        m.frequency = 4;
        ok(sys, cdyn_particle_set_motion(sys, p[0], &m));
        cdyn_constraint c;
        ok(sys, cdyn_constraint_add_distance(sys, p[0], p[1], 1.0, &c));
        cdyn_schedule_desc sch;
        cdyn_schedule_desc_init(&sch, CDYN_SCHEDULE_OSCILLATION);
        sch.amplitude = 0.05;
        ok(sys, cdyn_constraint_set_length_schedule(sys, c, &sch));
        ok(sys, cdyn_constraint_add_anchor(sys, p[2], (double[]){2, 1.5, 0.2}, 1.0, &c));
        ok(sys, cdyn_constraint_set_motion(sys, c, &m));
        ok(sys, cdyn_constraint_add_user(sys, &p[3], 1, 1, rising_line, NULL, &c));
        ok(sys, cdyn_constraint_set_time_dependent(sys, c, true));
        if (shapes) {
            cdyn_curve_desc cd;
            cdyn_curve_desc_init(&cd, CDYN_CURVE_CIRCLE);
            memcpy(cd.origin, (double[]){4, 0, 0.4}, sizeof cd.origin);
            ok(sys, cdyn_constraint_add_on_curve(sys, p[4], &cd, &c));
            cdyn_motion_desc turn;
            cdyn_motion_desc_init(&turn, CDYN_MOTION_ROTATION);
            turn.angular_velocity = 1;
            ok(sys, cdyn_constraint_set_motion(sys, c, &turn));
        }
        cdyn_ground g;
        ok(sys, cdyn_ground_add_plane(sys, (double[]){0, 1, 0}, -3, &g));
        ok(sys, cdyn_ground_set_friction(sys, g, 0.3));
        ok(sys, cdyn_ground_set_motion(sys, g, &m));
        ok(sys, cdyn_system_step(sys, 1e-3));
        size_t allocs = ca.allocs;
        for (int i = 0; i < 20; i++)
            ok(sys, cdyn_system_step(sys, 1e-3));
        if (ca.allocs != allocs)
            fail_msg("integrator %d: %zu allocations in 20 steps", (int)ALL[k],
                     ca.allocs - allocs);
        cdyn_system_destroy(sys);
        assert_int_equal(ca.allocs, ca.frees);
    }
}

/* A motion whose position overflows where the integrator's own update of
 * the particle (explicit Euler: x + h v, v = 0 at the start) does not: the
 * step fails with CDYN_ERR_DIVERGED and the state stays, as for any
 * non-finite state. */
static void test_overflowing_motion_fails_the_step(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_EXPLICIT_EULER), CDYN_OK);
    const double far[2] = {1.5e308, 0}, near[2] = {0, 0};
    cdyn_particle p, q;
    assert_int_equal(cdyn_particle_add(sys, 1.0, far, NULL, &p), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1.0, near, NULL, &q), CDYN_OK);
    cdyn_motion_desc m;
    cdyn_motion_desc_init(&m, CDYN_MOTION_LINEAR);
    m.acceleration[0] = 1e308;
    assert_int_equal(cdyn_particle_set_motion(sys, p, &m), CDYN_OK);
    double x0[4], x1[4];
    assert_int_equal(cdyn_system_get_positions(sys, x0, 4), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1.0), CDYN_ERR_DIVERGED);
    assert_int_equal(cdyn_system_get_positions(sys, x1, 4), CDYN_OK);
    assert_memory_equal(x0, x1, sizeof x0);
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinematic_follows_motion),
        cmocka_unit_test(test_kinematic_pivot_is_moving_anchor),
        cmocka_unit_test(test_kinematic_setters_refused),
        cmocka_unit_test(test_nonfinite_motion_rolls_back),
        cmocka_unit_test(test_moving_ground_stick_slip),
        cmocka_unit_test(test_conveyor),
        cmocka_unit_test(test_drive_work_closes),
        cmocka_unit_test(test_attach_and_stop),
        cmocka_unit_test(test_no_allocation),
        cmocka_unit_test(test_overflowing_motion_fails_the_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
