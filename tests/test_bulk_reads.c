/* Bulk reads over every particle index (flat arrays like positions):
 * masses and fixed flags; the total constraint force on every particle,
 * equal to the sum of cdyn_constraint_get_force over the constraints,
 * balanced for internal constraints (Newton's third law) and equal to
 * m a - m g at a pendulum's bob with the tension m v^2 / L + m g cos(theta);
 * the contact force of every ground on every particle, equal to the
 * grounds' totals and to the penalty law; refusals. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define G 9.81

static cdyn_particle add(cdyn_system *sys, double m, const double *x, const double *v)
{
    cdyn_particle p;
    assert_int_equal(cdyn_particle_add(sys, m, x, v, &p), CDYN_OK);
    return p;
}

static void assert_named(const cdyn_system *sys, const char *what)
{
    const char *m = cdyn_system_last_error(sys);
    size_t n = strlen(what);
    if (strncmp(m, what, n) != 0 || m[n] != ':')
        fail_msg("message \"%s\" does not name %s", m, what);
}

static void test_masses_and_fixed(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(3, &sys), CDYN_OK);
    cdyn_particle p[4];
    for (int i = 0; i < 4; i++)
        p[i] = add(sys, 1.0 + i, (double[]){i, 0, 0}, NULL);
    assert_int_equal(cdyn_particle_set_fixed(sys, p[3], true), CDYN_OK);
    assert_int_equal(cdyn_particle_set_mass(sys, p[0], 0.25), CDYN_OK);
    assert_int_equal(cdyn_particle_remove(sys, p[1]), CDYN_OK);
    double m[5] = {-1, -1, -1, -1, -1};
    bool fixed[5] = {true, true, true, false, true};
    assert_int_equal(cdyn_system_get_masses(sys, m, 5), CDYN_OK);
    assert_int_equal(cdyn_system_get_fixed(sys, fixed, 5), CDYN_OK);
    const double want_m[4] = {0.25, 0.0, 3.0, 4.0};
    const bool want_f[4] = {false, false, false, true};
    for (int i = 0; i < 4; i++) {
        assert_true(m[i] == want_m[i]);
        assert_true(fixed[i] == want_f[i]);
        if (i == 1)
            continue;
        double mi;
        bool fi;
        assert_int_equal(cdyn_particle_get_mass(sys, p[i], &mi), CDYN_OK);
        assert_int_equal(cdyn_particle_get_fixed(sys, p[i], &fi), CDYN_OK);
        assert_true(mi == m[i] && fi == fixed[i]);
    }
    assert_true(m[4] == -1 && fixed[4]); /* beyond the index count: untouched */
    /* Refusals: named, nothing written. */
    double m3[3] = {7, 7, 7};
    assert_int_equal(cdyn_system_get_masses(sys, m3, 3), CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "get_masses");
    assert_true(m3[0] == 7);
    bool f3[3] = {true, true, true};
    assert_int_equal(cdyn_system_get_fixed(sys, f3, 3), CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "get_fixed");
    assert_true(f3[0]);
    assert_int_equal(cdyn_system_get_masses(sys, NULL, 4), CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "get_masses");
    assert_int_equal(cdyn_system_get_fixed(NULL, fixed, 4), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_system_destroy(sys);
}

/* g = (x_b - x_a) . (x_c - x_a): a right angle at a, translation
 * invariant, so its blocks sum to zero. */
static int right_angle(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                       const double *v, size_t rows, double *g, double *jac, double *vt,
                       double *gt, void *user)
{
    (void)sys, (void)t, (void)n, (void)rows, (void)gt, (void)user;
    size_t d = (size_t)dim;
    double ab[3] = {0}, ac[3] = {0}, vab[3] = {0}, vac[3] = {0};
    g[0] = 0;
    for (size_t k = 0; k < d; k++) {
        ab[k] = x[d + k] - x[k];
        ac[k] = x[2 * d + k] - x[k];
        vab[k] = v[d + k] - v[k];
        vac[k] = v[2 * d + k] - v[k];
        g[0] += ab[k] * ac[k];
    }
    vt[0] = 0;
    for (size_t k = 0; k < d; k++) {
        jac[k] = -ab[k] - ac[k];
        jac[d + k] = ac[k];
        jac[2 * d + k] = ab[k];
        vt[0] += 2 * vab[k] * vac[k];
    }
    return 0;
}

/* For every particle, the bulk read equals the sum over the constraints
 * that hold it of cdyn_constraint_get_force. */
static void assert_matches_per_constraint(const cdyn_system *sys, const cdyn_particle *p,
                                          size_t np, const cdyn_constraint *c, size_t nc)
{
    int d = cdyn_system_get_dimension(sys);
    size_t n;
    assert_int_equal(cdyn_system_get_index_count(sys, &n), CDYN_OK);
    double bulk[3 * 64];
    assert_true(n <= 64);
    assert_int_equal(cdyn_system_get_constraint_forces(sys, bulk, 3 * 64), CDYN_OK);
    double scale = 0;
    for (size_t i = 0; i < n * (size_t)d; i++)
        scale = fmax(scale, fabs(bulk[i]));
    assert_true(scale > 0);
    for (size_t i = 0; i < np; i++) {
        double sum[3] = {0, 0, 0}, f[3];
        for (size_t j = 0; j < nc; j++)
            if (cdyn_constraint_get_force(sys, c[j], p[i], f) == CDYN_OK)
                for (int k = 0; k < d; k++)
                    sum[k] += f[k];
        size_t idx;
        assert_int_equal(cdyn_particle_get_index(sys, p[i], &idx), CDYN_OK);
        for (int k = 0; k < d; k++)
            assert_near(bulk[idx * (size_t)d + (size_t)k], sum[k], 1e-13 * scale);
    }
}

/* A system with every kind of row: rods (one to a fixed particle), an
 * anchor, a pin, a plane, a user constraint, a disabled rod, and a bead on
 * a circle (its shape's force). */
static void test_constraint_forces_match_per_constraint(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(3, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4), CDYN_OK);
    cdyn_particle p[9];
    const double xs[9][3] = {{0, 0, 0},   {0.5, 0, 0}, {1, 0.2, 0}, {2, 0, 0},  {3, 1, 0},
                             {4, 0, 0.3}, {5, 0, 0},   {5, 1, 0},   {1, 0, 2}};
    for (int i = 0; i < 9; i++)
        p[i] = add(sys, 1.0 + 0.1 * i, xs[i], (double[]){0.1 * i, -0.05 * i, 0.02});
    assert_int_equal(cdyn_particle_set_fixed(sys, p[0], true), CDYN_OK);
    cdyn_constraint c[8];
    assert_int_equal(cdyn_constraint_add_distance(sys, p[0], p[1], 0.5, &c[0]), CDYN_OK);
    assert_int_equal(cdyn_constraint_add_distance(sys, p[1], p[2], 0.55, &c[1]), CDYN_OK);
    assert_int_equal(cdyn_constraint_add_anchor(sys, p[3], (double[]){2, 1, 0}, 1.0, &c[2]),
                     CDYN_OK);
    assert_int_equal(cdyn_constraint_add_pin(sys, p[4], xs[4], &c[3]), CDYN_OK);
    assert_int_equal(cdyn_constraint_add_plane(sys, p[5], (double[]){0, 0, 1}, 0.3, &c[4]),
                     CDYN_OK);
    assert_int_equal(cdyn_constraint_add_user(sys, (cdyn_particle[]){p[6], p[5], p[7]}, 3, 1,
                                              right_angle, NULL, &c[5]), CDYN_OK);
    assert_int_equal(cdyn_constraint_add_distance(sys, p[2], p[3], 1.0, &c[6]), CDYN_OK);
    assert_int_equal(cdyn_constraint_set_enabled(sys, c[6], false), CDYN_OK);
    cdyn_curve_desc cd;
    cdyn_curve_desc_init(&cd, CDYN_CURVE_CIRCLE);
    cd.origin[0] = 1.0;
    cd.origin[2] = 1.0;
    cd.radius = 1.0;
    cd.axis1[2] = 1.0;
    cd.axis2[0] = 1.0;
    assert_int_equal(cdyn_constraint_add_on_curve(sys, p[8], &cd, &c[7]), CDYN_OK);
    cdyn_force f;
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -G, 0}, &f), CDYN_OK);
    assert_int_equal(cdyn_force_add_spring(sys, p[2], p[6], 5.0, 0.1, 1.0, &f), CDYN_OK);

    /* Before any evaluation every force reads zero. */
    double bulk[27];
    assert_int_equal(cdyn_system_get_constraint_forces(sys, bulk, 27), CDYN_OK);
    for (int i = 0; i < 27; i++)
        assert_true(bulk[i] == 0);
    for (int s = 0; s < 20; s++)
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    assert_matches_per_constraint(sys, p, 9, c, 8);
    /* The disabled rod adds nothing: p[2] and p[3] get only their others. */
    double f63[3];
    assert_int_equal(cdyn_constraint_get_force(sys, c[6], p[3], f63), CDYN_OK);
    assert_true(f63[0] == 0 && f63[1] == 0 && f63[2] == 0);
    /* A removed particle's index reads zero (its constraints went too). */
    assert_int_equal(cdyn_particle_remove(sys, p[4]), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    assert_int_equal(cdyn_system_get_constraint_forces(sys, bulk, 27), CDYN_OK);
    assert_true(bulk[12] == 0 && bulk[13] == 0 && bulk[14] == 0);
    cdyn_system_destroy(sys);
}

/* RATTLE on a rod chain leaves the rods' blocks unstored: the bulk read
 * forms them, and gives the same forces, bit for bit, after positions
 * move (the blocks are written out first). */
static void test_constraint_forces_of_unstored_rods(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE), CDYN_OK);
    cdyn_particle p[11];
    cdyn_constraint rods[10];
    assert_int_equal(ts_standard_chain(sys, 10, p, rods), CDYN_OK);
    for (int s = 0; s < 50; s++)
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    assert_matches_per_constraint(sys, p, 11, rods, 10);
    double before[22], after[22], x[22];
    assert_int_equal(cdyn_system_get_constraint_forces(sys, before, 22), CDYN_OK);
    assert_int_equal(cdyn_system_get_positions(sys, x, 22), CDYN_OK);
    x[20] += 0.01;
    assert_int_equal(cdyn_system_set_positions(sys, x, 22), CDYN_OK);
    assert_int_equal(cdyn_system_get_constraint_forces(sys, after, 22), CDYN_OK);
    for (int i = 0; i < 22; i++)
        assert_true(before[i] == after[i]);
    /* The pivot (fixed) takes the reaction: the forces balance. */
    double sum[2] = {0, 0}, scale = 0;
    for (int i = 0; i < 11; i++)
        for (int k = 0; k < 2; k++) {
            sum[k] += before[2 * i + k];
            scale = fmax(scale, fabs(before[2 * i + k]));
        }
    assert_near(sum[0], 0, 1e-13 * scale);
    assert_near(sum[1], 0, 1e-13 * scale);
    cdyn_system_destroy(sys);
}

/* Internal constraints exert no net force: on a free system (no fixed
 * particle, no external constraint) the constraint forces sum to zero, with
 * every integrator, and so their momentum change is that of gravity. */
static void test_internal_constraints_balance(void **state)
{
    (void)state;
    const cdyn_integrator integ[] = {CDYN_INTEGRATOR_SYMPLECTIC_EULER, CDYN_INTEGRATOR_RK4,
                                     CDYN_INTEGRATOR_RATTLE, CDYN_INTEGRATOR_BACKWARD_EULER};
    for (size_t k = 0; k < sizeof integ / sizeof integ[0]; k++) {
        cdyn_system *sys;
        assert_int_equal(cdyn_system_create(3, &sys), CDYN_OK);
        assert_int_equal(cdyn_system_set_integrator(sys, integ[k]), CDYN_OK);
        cdyn_particle p[5];
        const double xs[5][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0.5}, {0.5, 0.5, 1}};
        for (int i = 0; i < 5; i++)
            p[i] = add(sys, 1.0 + 0.3 * i, xs[i], (double[]){0.2 * i, 1.0 - 0.4 * i, 0.1 * i});
        cdyn_constraint c;
        assert_int_equal(cdyn_constraint_add_distance(sys, p[0], p[1], 1.0, &c), CDYN_OK);
        assert_int_equal(cdyn_constraint_add_distance(sys, p[0], p[2], 1.0, &c), CDYN_OK);
        assert_int_equal(cdyn_constraint_add_distance(sys, p[1], p[3], sqrt(1.25), &c), CDYN_OK);
        assert_int_equal(cdyn_constraint_add_distance(sys, p[3], p[4], sqrt(0.75), &c), CDYN_OK);
        assert_int_equal(cdyn_constraint_add_user(sys, (cdyn_particle[]){p[0], p[1], p[2]}, 3, 1,
                                                  right_angle, NULL, &c), CDYN_OK);
        cdyn_force f;
        assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -G, 0}, &f), CDYN_OK);
        for (int s = 0; s < 30; s++)
            assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
        double fc[15], sum[3] = {0, 0, 0}, scale = 0;
        assert_int_equal(cdyn_system_get_constraint_forces(sys, fc, 15), CDYN_OK);
        for (int i = 0; i < 5; i++)
            for (int q = 0; q < 3; q++) {
                sum[q] += fc[3 * i + q];
                scale = fmax(scale, fabs(fc[3 * i + q]));
            }
        assert_true(scale > 0.1);
        for (int q = 0; q < 3; q++)
            assert_near(sum[q], 0, 1e-12 * scale);
        cdyn_system_destroy(sys);
    }
}

/* A pendulum bob on the circle at angle theta from the downward vertical,
 * speed s along the circle: the rod's force on it is m a - m g (a from the
 * same evaluation), of magnitude T = m s^2 / L + m g cos(theta), towards
 * the pivot; the fixed pivot takes -T. */
static void test_pendulum_constraint_force(void **state)
{
    (void)state;
    const double L = 1.3, m = 0.7, th = 0.6, s = 1.7;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    cdyn_particle pivot = add(sys, 1.0, (double[]){0, 0}, NULL);
    assert_int_equal(cdyn_particle_set_fixed(sys, pivot, true), CDYN_OK);
    const double x[2] = {L * sin(th), -L * cos(th)}, v[2] = {s * cos(th), s * sin(th)};
    cdyn_particle bob = add(sys, m, x, v);
    cdyn_constraint rod;
    assert_int_equal(cdyn_constraint_add_distance(sys, pivot, bob, L, &rod), CDYN_OK);
    cdyn_force f;
    const double g[2] = {0, -G};
    assert_int_equal(cdyn_force_add_gravity(sys, g, &f), CDYN_OK);
    double a[4], fc[4];
    assert_int_equal(cdyn_system_evaluate(sys, a, 4), CDYN_OK);
    assert_int_equal(cdyn_system_get_constraint_forces(sys, fc, 4), CDYN_OK);
    const double T = m * s * s / L + m * G * cos(th);
    for (int k = 0; k < 2; k++) {
        assert_near(fc[2 + k], m * a[2 + k] - m * g[k], 1e-12);
        assert_near(fc[2 + k], -T * x[k] / L, 1e-12);
        assert_near(fc[k], T * x[k] / L, 1e-12);
    }
    cdyn_system_destroy(sys);
}

static void test_constraint_forces_refusals(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    add(sys, 1.0, (double[]){0, 0}, NULL);
    double out[2] = {3, 3}, short1[1] = {3};
    assert_int_equal(cdyn_system_get_constraint_forces(sys, out, 2), CDYN_OK);
    assert_true(out[0] == 0 && out[1] == 0); /* no constraints: zeros */
    assert_int_equal(cdyn_system_get_constraint_forces(sys, short1, 1),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "get_constraint_forces");
    assert_true(short1[0] == 3);
    assert_int_equal(cdyn_system_get_constraint_forces(sys, NULL, 2), CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "get_constraint_forces");
    assert_int_equal(cdyn_system_get_constraint_forces(NULL, out, 2), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_system_destroy(sys);
}

/* A ground function: the plane x . (0, 1, 0) = -0.5 given as a callback. */
static int low_plane(const cdyn_system *sys, double t, int dim, const double *x, double *h,
                     double *grad, double *velocity, void *user)
{
    (void)sys, (void)t, (void)velocity, (void)user;
    *h = x[1] + 0.5;
    for (int k = 0; k < dim; k++)
        grad[k] = k == 1;
    return 0;
}

/* Contact forces: a particle at rest below a plane gets S d n exactly; a
 * sliding one also its friction -mu N U_t / sqrt(|U_t|^2 + v_s^2) with
 * N = S d - c v_n; fixed, kinematic, removed and airborne particles get
 * zero; summed over particles, the reads equal the grounds' totals. */
static void test_contact_forces(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(3, &sys), CDYN_OK);
    const double S = 2000, c = 3.0, mu = 0.4, vs = 0.05;
    cdyn_ground plane, ball, cb;
    assert_int_equal(cdyn_ground_add_plane(sys, (double[]){0, 1, 0}, 0.0, &plane), CDYN_OK);
    assert_int_equal(cdyn_ground_set_stiffness(sys, plane, S), CDYN_OK);
    assert_int_equal(cdyn_ground_set_damping(sys, plane, c), CDYN_OK);
    assert_int_equal(cdyn_ground_set_friction(sys, plane, mu), CDYN_OK);
    assert_int_equal(cdyn_ground_set_friction_speed(sys, plane, vs), CDYN_OK);
    assert_int_equal(cdyn_ground_add_sphere(sys, (double[]){3, 0, 0}, 1.0, false, &ball),
                     CDYN_OK);
    assert_int_equal(cdyn_ground_add_callback(sys, low_plane, NULL, &cb), CDYN_OK);
    cdyn_particle rest = add(sys, 1, (double[]){0, -0.01, 0}, NULL);
    const double U[3] = {0.3, -0.02, 0.4};
    cdyn_particle slide = add(sys, 1, (double[]){1, -0.02, 0}, U);
    cdyn_particle both = add(sys, 1, (double[]){3.2, -0.005, 0.9}, (double[]){0.1, 0, 0});
    cdyn_particle air = add(sys, 1, (double[]){0, 1, 0}, NULL);
    cdyn_particle fixed = add(sys, 1, (double[]){0, -0.1, 0}, NULL);
    cdyn_particle kin = add(sys, 1, (double[]){0, -0.1, 1}, NULL);
    cdyn_particle gone = add(sys, 1, (double[]){0, -0.1, 2}, NULL);
    cdyn_particle deep = add(sys, 1, (double[]){5, -0.6, 0}, NULL);
    assert_int_equal(cdyn_particle_set_fixed(sys, fixed, true), CDYN_OK);
    cdyn_motion_desc md;
    cdyn_motion_desc_init(&md, CDYN_MOTION_LINEAR);
    assert_int_equal(cdyn_particle_set_motion(sys, kin, &md), CDYN_OK);
    assert_int_equal(cdyn_particle_remove(sys, gone), CDYN_OK);

    double f[24];
    assert_int_equal(cdyn_system_get_contact_forces(sys, f, 24), CDYN_OK);
    /* At rest 0.01 below the plane, above the others. */
    assert_near(f[0], 0, 0);
    assert_near(f[1], S * 0.01, 1e-12);
    assert_near(f[2], 0, 0);
    /* Sliding: normal with damping, friction against U_t. */
    double N = S * 0.02 - c * U[1], ut = hypot(U[0], U[2]);
    double k = mu * N / sqrt(ut * ut + vs * vs);
    assert_near(f[3], -k * U[0], 1e-12);
    assert_near(f[4], N, 1e-12);
    assert_near(f[5], -k * U[2], 1e-12);
    /* Zeros: airborne (index 3), fixed (4), kinematic (5), removed (6). */
    for (int i = 9; i < 21; i++)
        assert_true(f[i] == 0);
    /* Sums over particles equal the sums over grounds. */
    double tot[3] = {0, 0, 0};
    const cdyn_ground gs[3] = {plane, ball, cb};
    for (int j = 0; j < 3; j++) {
        double n3[3], f3[3];
        assert_int_equal(cdyn_ground_get_total_force(sys, gs[j], n3, f3), CDYN_OK);
        for (int q = 0; q < 3; q++)
            tot[q] += n3[q] + f3[q];
    }
    for (int q = 0; q < 3; q++) {
        double sum = 0;
        for (int i = 0; i < 8; i++)
            sum += f[3 * i + q];
        assert_near(sum, tot[q], 1e-12 * (fabs(tot[q]) + 1));
    }
    /* The particle below two grounds (plane and ball) gets both; the deep
     * one both planes. */
    assert_true(f[3 * 2 + 0] > 0 && f[3 * 2 + 1] > 0);
    assert_near(f[3 * 7 + 1], S * 0.6 + 1e4 * 0.1, 1e-9);

    double short23[23];
    short23[0] = 5;
    assert_int_equal(cdyn_system_get_contact_forces(sys, short23, 23), CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "get_contact_forces");
    assert_true(short23[0] == 5);
    assert_int_equal(cdyn_system_get_contact_forces(sys, NULL, 24), CDYN_ERR_INVALID_ARGUMENT);
    assert_named(sys, "get_contact_forces");
    (void)rest, (void)slide, (void)both, (void)air, (void)deep;
    cdyn_system_destroy(sys);
}

static int failing_ground(const cdyn_system *sys, double t, int dim, const double *x, double *h,
                          double *grad, double *velocity, void *user)
{
    (void)sys, (void)t, (void)dim, (void)x, (void)h, (void)grad, (void)velocity, (void)user;
    return 1;
}

static void test_contact_forces_callback_failure(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    add(sys, 1, (double[]){0, 0}, NULL);
    cdyn_ground g;
    assert_int_equal(cdyn_ground_add_callback(sys, failing_ground, NULL, &g), CDYN_OK);
    double f[2];
    assert_int_equal(cdyn_system_get_contact_forces(sys, f, 2), CDYN_ERR_CALLBACK);
    assert_named(sys, "get_contact_forces");
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_masses_and_fixed),
        cmocka_unit_test(test_constraint_forces_match_per_constraint),
        cmocka_unit_test(test_constraint_forces_of_unstored_rods),
        cmocka_unit_test(test_internal_constraints_balance),
        cmocka_unit_test(test_pendulum_constraint_force),
        cmocka_unit_test(test_constraint_forces_refusals),
        cmocka_unit_test(test_contact_forces),
        cmocka_unit_test(test_contact_forces_callback_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
