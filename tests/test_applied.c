/* Applied forces (force.h): a held force gives the constant-acceleration
 * motion x = x0 + v0 t + F t^2 / (2 m), which RK4 and velocity Verlet
 * integrate exactly and backward Euler to its first order; a force for the
 * next step is an impulse F dt, kept over a failed step; the bulk and
 * single calls agree; fixed, kinematic, rigid and parametric particles; the
 * accumulators' life (growth, removal, clearing); refusals. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

static cdyn_system *make(int dim, cdyn_integrator integrator)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(dim, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, integrator), CDYN_OK);
    return sys;
}

static cdyn_particle add(cdyn_system *sys, double m, const double *x, const double *v)
{
    cdyn_particle p;
    assert_int_equal(cdyn_particle_add(sys, m, x, v, &p), CDYN_OK);
    return p;
}

static void get_x(const cdyn_system *sys, cdyn_particle p, double *x)
{
    assert_int_equal(cdyn_particle_get_position(sys, p, x), CDYN_OK);
}

static void get_v(const cdyn_system *sys, cdyn_particle p, double *v)
{
    assert_int_equal(cdyn_particle_get_velocity(sys, p, v), CDYN_OK);
}

/* The message of the last failure starts with "what:". */
static void assert_named(const cdyn_system *sys, const char *what)
{
    const char *m = cdyn_system_last_error(sys);
    size_t n = strlen(what);
    if (strncmp(m, what, n) != 0 || m[n] != ':')
        fail_msg("message \"%s\" does not name %s", m, what);
}

/* A held force with gravity: x = x0 + v0 t + (g + F / m) t^2 / 2, exact for
 * RK4 and velocity Verlet up to round-off, in 2-D and 3-D. */
static void test_held_force_constant_acceleration(void **state)
{
    (void)state;
    const cdyn_integrator integ[] = {CDYN_INTEGRATOR_RK4, CDYN_INTEGRATOR_VELOCITY_VERLET,
                                     CDYN_INTEGRATOR_RK45};
    for (int dim = 2; dim <= 3; dim++)
        for (size_t k = 0; k < 3; k++) {
            cdyn_system *sys = make(dim, integ[k]);
            const double m = 2.5, x0[3] = {0.3, -1.2, 0.7}, v0[3] = {1.1, 0.4, -0.6};
            const double F[3] = {3.0, -1.5, 2.25}, g[3] = {0.0, -9.81, 0.0};
            cdyn_particle p = add(sys, m, x0, v0);
            cdyn_force f;
            assert_int_equal(cdyn_force_add_gravity(sys, g, &f), CDYN_OK);
            assert_int_equal(cdyn_particle_apply_force(sys, p, F, CDYN_APPLY_UNTIL_CLEARED),
                             CDYN_OK);
            const double dt = 0.01;
            for (int s = 0; s < 200; s++)
                assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
            double t, x[3], v[3];
            assert_int_equal(cdyn_system_get_time(sys, &t), CDYN_OK);
            get_x(sys, p, x);
            get_v(sys, p, v);
            for (int c = 0; c < dim; c++) {
                double a = g[c] + F[c] / m;
                assert_near(x[c], x0[c] + v0[c] * t + 0.5 * a * t * t, 1e-12);
                assert_near(v[c], v0[c] + a * t, 1e-12);
            }
            /* The force is still there and reads back. */
            double got[3];
            assert_int_equal(cdyn_particle_get_applied_force(sys, p, got), CDYN_OK);
            for (int c = 0; c < dim; c++)
                assert_true(got[c] == F[c]);
            cdyn_system_destroy(sys);
        }
}

/* A force for the next step acts during one step only: the impulse F dt.
 * After N steps x = x0 + v0 t + (F / m) dt (t - dt / 2), v = v0 + F dt / m.
 * RK45 takes several internal steps in the call: all of them feel it. */
static void test_next_step_is_one_impulse(void **state)
{
    (void)state;
    const cdyn_integrator integ[] = {CDYN_INTEGRATOR_RK4, CDYN_INTEGRATOR_VELOCITY_VERLET,
                                     CDYN_INTEGRATOR_RK45, CDYN_INTEGRATOR_RATTLE};
    for (size_t k = 0; k < sizeof integ / sizeof integ[0]; k++) {
        cdyn_system *sys = make(2, integ[k]);
        const double m = 0.5, x0[2] = {1.0, 2.0}, v0[2] = {-0.5, 0.25}, F[2] = {4.0, -2.0};
        cdyn_particle p = add(sys, m, x0, v0);
        if (integ[k] == CDYN_INTEGRATOR_RK45)
            assert_int_equal(ts_set_rk45_tolerance(sys, 1e-12, 1e-12), CDYN_OK);
        assert_int_equal(cdyn_particle_apply_force(sys, p, F, CDYN_APPLY_NEXT_STEP), CDYN_OK);
        const double dt = 0.05;
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        double got[2] = {1, 1};
        assert_int_equal(cdyn_particle_get_applied_force(sys, p, got), CDYN_OK);
        assert_true(got[0] == 0 && got[1] == 0);
        for (int s = 1; s < 10; s++)
            assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        double t = 10 * dt, x[2], v[2];
        get_x(sys, p, x);
        get_v(sys, p, v);
        for (int c = 0; c < 2; c++) {
            assert_near(v[c], v0[c] + F[c] * dt / m, 1e-13);
            assert_near(x[c], x0[c] + v0[c] * t + F[c] / m * dt * (t - 0.5 * dt), 1e-13);
        }
        cdyn_system_destroy(sys);
    }
}

static int failing(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                   const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)n, (void)dim, (void)x, (void)v, (void)f;
    return *(const int *)user;
}

/* A failed step changes nothing: the force for the next step stays pending
 * and acts in the step that succeeds, once. */
static void test_failed_step_keeps_next_step_force(void **state)
{
    (void)state;
    cdyn_system *sys = make(3, CDYN_INTEGRATOR_VELOCITY_VERLET);
    int fail = 1;
    cdyn_force f;
    assert_int_equal(cdyn_force_add_callback(sys, failing, &fail, false, &f), CDYN_OK);
    const double m = 2.0, F[3] = {1.0, 2.0, -3.0}, x0[3] = {0, 0, 0};
    cdyn_particle p = add(sys, m, x0, NULL);
    assert_int_equal(cdyn_particle_apply_force(sys, p, F, CDYN_APPLY_NEXT_STEP), CDYN_OK);
    const double dt = 0.1;
    assert_int_equal(cdyn_system_step(sys, dt), CDYN_ERR_CALLBACK);
    double got[3], v[3];
    assert_int_equal(cdyn_particle_get_applied_force(sys, p, got), CDYN_OK);
    for (int c = 0; c < 3; c++)
        assert_true(got[c] == F[c]);
    fail = 0;
    assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
    get_v(sys, p, v);
    for (int c = 0; c < 3; c++)
        assert_near(v[c], F[c] * dt / m, 1e-15);
    cdyn_system_destroy(sys);
}

/* The bulk call adds exactly what the single calls add: same trajectories
 * bit for bit, same reads. Entries of a removed index are ignored, even
 * non-finite ones. */
static void test_bulk_and_single_agree(void **state)
{
    (void)state;
    cdyn_system *a = make(3, CDYN_INTEGRATOR_RK4), *b = make(3, CDYN_INTEGRATOR_RK4);
    cdyn_particle pa[4], pb[4];
    for (int i = 0; i < 4; i++) {
        double x[3] = {0.5 * i, 1.0 - 0.25 * i, 0.1 * i * i}, v[3] = {0.1, -0.2 * i, 0.3};
        pa[i] = add(a, 1.0 + i, x, v);
        pb[i] = add(b, 1.0 + i, x, v);
    }
    cdyn_force sa, sb;
    assert_int_equal(cdyn_force_add_spring(a, pa[0], pa[3], 20, 0.5, 0.8, &sa), CDYN_OK);
    assert_int_equal(cdyn_force_add_spring(b, pb[0], pb[3], 20, 0.5, 0.8, &sb), CDYN_OK);
    assert_int_equal(cdyn_particle_remove(a, pa[2]), CDYN_OK);
    assert_int_equal(cdyn_particle_remove(b, pb[2]), CDYN_OK);
    double held[12], once[12];
    for (int i = 0; i < 12; i++) {
        held[i] = 0.3 * i - 1.0;
        once[i] = 1.0 / (1 + i);
    }
    held[6] = NAN; /* index 2, removed */
    once[7] = INFINITY;
    assert_int_equal(cdyn_system_apply_forces(a, held, 12, CDYN_APPLY_UNTIL_CLEARED), CDYN_OK);
    assert_int_equal(cdyn_system_apply_forces(a, once, 12, CDYN_APPLY_NEXT_STEP), CDYN_OK);
    for (int i = 0; i < 4; i++) {
        if (i == 2)
            continue;
        assert_int_equal(cdyn_particle_apply_force(b, pb[i], held + 3 * i,
                                                   CDYN_APPLY_UNTIL_CLEARED), CDYN_OK);
        assert_int_equal(cdyn_particle_apply_force(b, pb[i], once + 3 * i, CDYN_APPLY_NEXT_STEP),
                         CDYN_OK);
    }
    double fa[12], fb[12];
    assert_int_equal(cdyn_system_get_applied_forces(a, fa, 12), CDYN_OK);
    assert_int_equal(cdyn_system_get_applied_forces(b, fb, 12), CDYN_OK);
    for (int i = 0; i < 12; i++) {
        double want = i / 3 == 2 ? 0.0 : held[i] + once[i];
        assert_true(fa[i] == want && fb[i] == want);
    }
    for (int s = 0; s < 50; s++) {
        assert_int_equal(cdyn_system_step(a, 0.01), CDYN_OK);
        assert_int_equal(cdyn_system_step(b, 0.01), CDYN_OK);
    }
    ts_state sta, stb;
    ts_state_capture(a, &sta);
    ts_state_capture(b, &stb);
    assert_true(ts_state_max_diff(&sta, &stb, NULL) == 0.0);
    ts_state_free(&sta);
    ts_state_free(&stb);
    cdyn_system_destroy(a);
    cdyn_system_destroy(b);
}

/* Forces add up in each accumulator; clearing one particle returns it to
 * free flight while the others keep theirs; clearing all clears both
 * accumulators. */
static void test_accumulate_and_clear(void **state)
{
    (void)state;
    cdyn_system *sys = make(2, CDYN_INTEGRATOR_VELOCITY_VERLET);
    const double x0[2] = {0, 0};
    cdyn_particle p = add(sys, 1.0, x0, NULL), q = add(sys, 1.0, x0, NULL);
    assert_int_equal(cdyn_particle_apply_force(sys, p, (double[]){1, 2}, CDYN_APPLY_UNTIL_CLEARED),
                     CDYN_OK);
    assert_int_equal(cdyn_particle_apply_force(sys, p, (double[]){0.5, -1}, CDYN_APPLY_UNTIL_CLEARED),
                     CDYN_OK);
    assert_int_equal(cdyn_particle_apply_force(sys, p, (double[]){0.25, 0}, CDYN_APPLY_NEXT_STEP),
                     CDYN_OK);
    assert_int_equal(cdyn_particle_apply_force(sys, q, (double[]){-1, 0}, CDYN_APPLY_UNTIL_CLEARED),
                     CDYN_OK);
    double f[2];
    assert_int_equal(cdyn_particle_get_applied_force(sys, p, f), CDYN_OK);
    assert_true(f[0] == 1.75 && f[1] == 1.0);
    assert_int_equal(cdyn_particle_clear_applied_force(sys, p), CDYN_OK);
    assert_int_equal(cdyn_particle_get_applied_force(sys, p, f), CDYN_OK);
    assert_true(f[0] == 0 && f[1] == 0);
    assert_int_equal(cdyn_system_step(sys, 0.1), CDYN_OK);
    double vp[2], vq[2];
    get_v(sys, p, vp);
    get_v(sys, q, vq);
    assert_true(vp[0] == 0 && vp[1] == 0);
    assert_near(vq[0], -0.1, 1e-16);
    assert_int_equal(cdyn_particle_apply_force(sys, p, (double[]){3, 3}, CDYN_APPLY_NEXT_STEP),
                     CDYN_OK);
    assert_int_equal(cdyn_system_clear_applied_forces(sys), CDYN_OK);
    double all[4] = {9, 9, 9, 9};
    assert_int_equal(cdyn_system_get_applied_forces(sys, all, 4), CDYN_OK);
    for (int i = 0; i < 4; i++)
        assert_true(all[i] == 0);
    assert_int_equal(cdyn_system_step(sys, 0.1), CDYN_OK);
    get_v(sys, p, vp);
    get_v(sys, q, vq);
    assert_true(vp[0] == 0 && vp[1] == 0);
    assert_near(vq[0], -0.1, 1e-16); /* unchanged: no force any more */
    cdyn_system_destroy(sys);
}

/* Backward Euler with a constant force: v_n = v0 + a t exactly and
 * x_n = x0 + v0 t + a t^2 / 2 + a h t / 2, an error of first order in h. */
static void test_backward_euler_constant_acceleration(void **state)
{
    (void)state;
    for (int halving = 0; halving < 3; halving++) {
        cdyn_system *sys = make(3, CDYN_INTEGRATOR_BACKWARD_EULER);
        const double m = 3.0, x0[3] = {1, 0, -1}, v0[3] = {1.0, 0.5, 0.0}, F[3] = {4.5, -3.0, 1.5};
        cdyn_particle p = add(sys, m, x0, v0);
        assert_int_equal(cdyn_particle_apply_force(sys, p, F, CDYN_APPLY_UNTIL_CLEARED), CDYN_OK);
        const double h = 0.02 / (1 << halving);
        const int n = 50 << halving;
        for (int s = 0; s < n; s++)
            assert_int_equal(cdyn_system_step(sys, h), CDYN_OK);
        double t = n * h, x[3], v[3];
        get_x(sys, p, x);
        get_v(sys, p, v);
        for (int c = 0; c < 3; c++) {
            double a = F[c] / m;
            assert_near(v[c], v0[c] + a * t, 1e-12);
            assert_near(x[c], x0[c] + v0[c] * t + 0.5 * a * t * t + 0.5 * a * h * t, 1e-12);
        }
        cdyn_system_destroy(sys);
    }
}

/* A fixed particle keeps its applied force without moving, and accelerates
 * by it once released. */
static void test_fixed_particle(void **state)
{
    (void)state;
    cdyn_system *sys = make(2, CDYN_INTEGRATOR_RK4);
    const double x0[2] = {0.5, 0.5}, F[2] = {2, -4};
    cdyn_particle p = add(sys, 2.0, x0, NULL);
    assert_int_equal(cdyn_particle_set_fixed(sys, p, true), CDYN_OK);
    assert_int_equal(cdyn_particle_apply_force(sys, p, F, CDYN_APPLY_UNTIL_CLEARED), CDYN_OK);
    for (int s = 0; s < 10; s++)
        assert_int_equal(cdyn_system_step(sys, 0.1), CDYN_OK);
    double x[2], v[2];
    get_x(sys, p, x);
    assert_true(x[0] == x0[0] && x[1] == x0[1]);
    assert_int_equal(cdyn_particle_set_fixed(sys, p, false), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 0.1), CDYN_OK);
    get_v(sys, p, v);
    assert_near(v[0], 0.1, 1e-15);
    assert_near(v[1], -0.2, 1e-15);
    cdyn_system_destroy(sys);
}

/* A kinematic particle follows its motion whatever the force, and its
 * motion does the work against the force: the drive work of a particle at
 * constant velocity u under a held force F is -F . u t. */
static void test_kinematic_particle_works_against_force(void **state)
{
    (void)state;
    cdyn_system *sys = make(3, CDYN_INTEGRATOR_RK4);
    const double x0[3] = {0, 1, 0}, F[3] = {1.5, -2.0, 0.5};
    cdyn_particle p = add(sys, 1.5, x0, NULL);
    cdyn_motion_desc md;
    cdyn_motion_desc_init(&md, CDYN_MOTION_LINEAR);
    md.velocity[0] = 0.4;
    md.velocity[1] = 0.3;
    assert_int_equal(cdyn_particle_set_motion(sys, p, &md), CDYN_OK);
    assert_int_equal(cdyn_particle_apply_force(sys, p, F, CDYN_APPLY_UNTIL_CLEARED), CDYN_OK);
    for (int s = 0; s < 100; s++)
        assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    double t = 1.0, x[3], w;
    get_x(sys, p, x);
    assert_near(x[0], 0.4 * t, 1e-13);
    assert_near(x[1], 1.0 + 0.3 * t, 1e-13);
    assert_near(x[2], 0.0, 1e-13);
    assert_int_equal(cdyn_system_get_drive_work(sys, &w), CDYN_OK);
    assert_near(w, -(F[0] * 0.4 + F[1] * 0.3) * t, 1e-12);
    cdyn_system_destroy(sys);
}

/* A rigid body under a force applied to one member: its centre of mass
 * moves as a point of the total mass under the constant total force,
 * X = X0 + F t^2 / (2 M) from rest (kick-drift-kick is exact there). */
static void test_rigid_body_center_of_mass(void **state)
{
    (void)state;
    cdyn_system *sys = make(2, CDYN_INTEGRATOR_VELOCITY_VERLET);
    const double pts[3][2] = {{0, 0}, {1, 0}, {0, 0.5}}, ms[3] = {1.0, 2.0, 1.5};
    cdyn_particle p[3];
    double M = 0, X0[2] = {0, 0};
    for (int i = 0; i < 3; i++) {
        p[i] = add(sys, ms[i], pts[i], NULL);
        M += ms[i];
        X0[0] += ms[i] * pts[i][0];
        X0[1] += ms[i] * pts[i][1];
    }
    X0[0] /= M;
    X0[1] /= M;
    cdyn_rigid body;
    assert_int_equal(cdyn_rigid_add(sys, p, 3, &body), CDYN_OK);
    const double F[2] = {0.9, 0.45};
    assert_int_equal(cdyn_particle_apply_force(sys, p[1], F, CDYN_APPLY_UNTIL_CLEARED), CDYN_OK);
    for (int s = 0; s < 100; s++)
        assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    double X[2], w[3];
    assert_int_equal(cdyn_rigid_get_center_of_mass(sys, body, X), CDYN_OK);
    for (int c = 0; c < 2; c++)
        assert_near(X[c], X0[c] + 0.5 * F[c] / M, 1e-12);
    /* Applied off the centre, the force also turned the body. */
    assert_int_equal(cdyn_rigid_get_angular_velocity(sys, body, w), CDYN_OK);
    assert_true(fabs(w[2]) > 1e-3);
    cdyn_system_destroy(sys);
}

/* A bead on a straight wire: the force's part along the wire accelerates
 * it, the wire takes the rest (its force on the bead is minus the normal
 * part, read through cdyn_system_get_constraint_forces). */
static void test_bead_on_wire(void **state)
{
    (void)state;
    cdyn_system *sys = make(2, CDYN_INTEGRATOR_RK4);
    const double m = 0.8, F[2] = {1.2, -5.0};
    cdyn_particle p = add(sys, m, (double[]){0.25, 0}, NULL);
    cdyn_curve_desc cd;
    cdyn_curve_desc_init(&cd, CDYN_CURVE_LINE);
    cd.axis1[0] = 1.0;
    cdyn_constraint c;
    assert_int_equal(cdyn_constraint_add_on_curve(sys, p, &cd, &c), CDYN_OK);
    assert_int_equal(cdyn_particle_apply_force(sys, p, F, CDYN_APPLY_UNTIL_CLEARED), CDYN_OK);
    for (int s = 0; s < 100; s++)
        assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    double x[2], fc[2];
    get_x(sys, p, x);
    assert_near(x[0], 0.25 + 0.5 * F[0] / m, 1e-12);
    assert_near(x[1], 0.0, 1e-15);
    assert_int_equal(cdyn_system_get_constraint_forces(sys, fc, 2), CDYN_OK);
    assert_near(fc[0], 0.0, 1e-12);
    assert_near(fc[1], -F[1], 1e-12);
    cdyn_system_destroy(sys);
}

/* The accumulators follow the particles: they grow when particles are
 * added after the first force, and a removed particle's force goes with
 * it (the index's next owner starts without one). */
static void test_growth_and_removal(void **state)
{
    (void)state;
    cdyn_system *sys = make(3, CDYN_INTEGRATOR_RK4);
    const double x0[3] = {0, 0, 0}, F[3] = {0, 0, 6};
    cdyn_particle first = add(sys, 2.0, x0, NULL);
    assert_int_equal(cdyn_particle_apply_force(sys, first, F, CDYN_APPLY_UNTIL_CLEARED), CDYN_OK);
    cdyn_particle more[100];
    for (int i = 0; i < 100; i++)
        more[i] = add(sys, 1.0, (double[]){1.0 + i, 0, 0}, NULL);
    assert_int_equal(cdyn_particle_apply_force(sys, more[99], F, CDYN_APPLY_NEXT_STEP), CDYN_OK);
    double f[3];
    assert_int_equal(cdyn_particle_get_applied_force(sys, more[50], f), CDYN_OK);
    assert_true(f[0] == 0 && f[1] == 0 && f[2] == 0);
    assert_int_equal(cdyn_system_step(sys, 0.5), CDYN_OK);
    double x[3];
    get_x(sys, first, x);
    assert_near(x[2], 0.5 * 3.0 * 0.25, 1e-15);
    get_x(sys, more[99], x);
    assert_near(x[2], 0.5 * 6.0 * 0.25, 1e-15);

    size_t idx;
    assert_int_equal(cdyn_particle_get_index(sys, first, &idx), CDYN_OK);
    assert_int_equal(cdyn_particle_remove(sys, first), CDYN_OK);
    double all[3 * 101];
    assert_int_equal(cdyn_system_get_applied_forces(sys, all, 3 * 101), CDYN_OK);
    for (int c = 0; c < 3; c++)
        assert_true(all[3 * idx + (size_t)c] == 0);
    cdyn_particle again = add(sys, 1.0, x0, NULL);
    size_t idx2;
    assert_int_equal(cdyn_particle_get_index(sys, again, &idx2), CDYN_OK);
    assert_int_equal(idx2, idx);
    assert_int_equal(cdyn_particle_get_applied_force(sys, again, f), CDYN_OK);
    assert_true(f[0] == 0 && f[1] == 0 && f[2] == 0);
    assert_int_equal(cdyn_system_step(sys, 0.5), CDYN_OK);
    get_v(sys, again, f);
    assert_true(f[0] == 0 && f[1] == 0 && f[2] == 0);
    cdyn_system_destroy(sys);
}

/* Every refusal names its function and changes nothing. */
static void check_unchanged(const cdyn_system *sys, const double *before, size_t n)
{
    double now[64];
    assert_int_equal(cdyn_system_get_applied_forces(sys, now, 64), CDYN_OK);
    for (size_t i = 0; i < n; i++)
        assert_true(now[i] == before[i]);
}

static int meddle(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                  const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)n, (void)dim, (void)x, (void)v, (void)f;
    cdyn_system *mut = user;
    const double F[2] = {1, 1}, all[4] = {1, 1, 1, 1};
    cdyn_particle p = 0;
    cdyn_system_get_particle_count(mut, &n); /* reading is allowed */
    int busy = cdyn_system_apply_forces(mut, all, 4, CDYN_APPLY_UNTIL_CLEARED) == CDYN_ERR_BUSY &&
               cdyn_system_clear_applied_forces(mut) == CDYN_ERR_BUSY &&
               cdyn_particle_apply_force(mut, p, F, CDYN_APPLY_NEXT_STEP) == CDYN_ERR_BUSY &&
               cdyn_particle_clear_applied_force(mut, p) == CDYN_ERR_BUSY;
    return busy ? 0 : 1;
}

static void test_refusals(void **state)
{
    (void)state;
    cdyn_system *sys = make(2, CDYN_INTEGRATOR_RK4);
    const double x0[2] = {0, 0}, F[2] = {1, -1}, bad[2] = {1, NAN};
    cdyn_particle p = add(sys, 1.0, x0, NULL), q = add(sys, 1.0, x0, NULL);
    /* Reads before any force: zeros, nothing allocated to answer. */
    double f[4] = {5, 5, 5, 5};
    assert_int_equal(cdyn_system_get_applied_forces(sys, f, 4), CDYN_OK);
    assert_true(f[0] == 0 && f[3] == 0);
    assert_int_equal(cdyn_particle_apply_force(sys, p, F, CDYN_APPLY_UNTIL_CLEARED), CDYN_OK);
    double before[4];
    assert_int_equal(cdyn_system_get_applied_forces(sys, before, 4), CDYN_OK);

    assert_int_equal(cdyn_particle_apply_force(sys, p, NULL, CDYN_APPLY_NEXT_STEP),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "particle_apply_force");
    assert_int_equal(cdyn_particle_apply_force(sys, p, bad, CDYN_APPLY_NEXT_STEP),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "particle_apply_force");
    assert_int_equal(cdyn_particle_apply_force(sys, p, F, (cdyn_apply_mode)0),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "particle_apply_force");
    assert_int_equal(cdyn_particle_apply_force(sys, p, F, (cdyn_apply_mode)3),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_apply_force(sys, 0, F, CDYN_APPLY_NEXT_STEP),
                     CDYN_ERR_INVALID_HANDLE);
    assert_named(sys, "particle_apply_force");
    assert_int_equal(cdyn_particle_apply_force(NULL, p, F, CDYN_APPLY_NEXT_STEP),
                     CDYN_ERR_INVALID_ARGUMENT);
    check_unchanged(sys, before, 4);

    const double four[4] = {1, 2, 3, 4}, nan4[4] = {1, 2, NAN, 4};
    assert_int_equal(cdyn_system_apply_forces(sys, four, 3, CDYN_APPLY_NEXT_STEP),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "apply_forces");
    assert_int_equal(cdyn_system_apply_forces(sys, nan4, 4, CDYN_APPLY_NEXT_STEP),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "apply_forces");
    assert_int_equal(cdyn_system_apply_forces(sys, four, 4, (cdyn_apply_mode)9),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "apply_forces");
    assert_int_equal(cdyn_system_apply_forces(sys, NULL, 4, CDYN_APPLY_NEXT_STEP),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "apply_forces");
    check_unchanged(sys, before, 4);

    double small[3] = {7, 7, 7};
    assert_int_equal(cdyn_system_get_applied_forces(sys, small, 3), CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "get_applied_forces");
    assert_true(small[0] == 7 && small[2] == 7);
    assert_int_equal(cdyn_system_get_applied_forces(sys, NULL, 4), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_get_applied_force(sys, p, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "particle_get_applied_force");

    assert_int_equal(cdyn_particle_remove(sys, q), CDYN_OK);
    assert_int_equal(cdyn_particle_clear_applied_force(sys, q), CDYN_ERR_STALE_HANDLE);
    assert_named(sys, "particle_clear_applied_force");
    assert_int_equal(cdyn_particle_get_applied_force(sys, q, f), CDYN_ERR_STALE_HANDLE);
    assert_named(sys, "particle_get_applied_force");
    assert_int_equal(cdyn_particle_clear_applied_force(NULL, p), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_clear_applied_forces(NULL), CDYN_ERR_INVALID_ARGUMENT);
    check_unchanged(sys, before, 4);

    /* From a callback inside a step: refused with CDYN_ERR_BUSY. */
    cdyn_force meddler;
    assert_int_equal(cdyn_force_add_callback(sys, meddle, sys, false, &meddler), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_OK);
    check_unchanged(sys, before, 4);
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_held_force_constant_acceleration),
        cmocka_unit_test(test_next_step_is_one_impulse),
        cmocka_unit_test(test_failed_step_keeps_next_step_force),
        cmocka_unit_test(test_bulk_and_single_agree),
        cmocka_unit_test(test_accumulate_and_clear),
        cmocka_unit_test(test_backward_euler_constant_acceleration),
        cmocka_unit_test(test_fixed_particle),
        cmocka_unit_test(test_kinematic_particle_works_against_force),
        cmocka_unit_test(test_rigid_body_center_of_mass),
        cmocka_unit_test(test_bead_on_wire),
        cmocka_unit_test(test_growth_and_removal),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
