/* Grounds through the public API (include/cdyn/ground.h):
 *  - H and grad H of every shape, the 2-D profile, settings and defaults;
 *  - a particle resting on a plane settles at the penetration m g / S and
 *    does not drift sideways, with every integrator and on a tilted normal;
 *  - balls dropped on a sphere and on height fields (3-D and 2-D) bounce
 *    and come to rest, and the energy (kinetic + gravity + penalty S d^2/2)
 *    never increases by more than the integrator's error in any step;
 *  - several grounds at once; a callback ground equals the built-in one;
 *  - queries (contact count, penetration, total forces, energy);
 *  - the analytic Jacobian against central differences of the force;
 *  - bad input, callbacks that fail or call back in, handles (zero, wrong
 *    kind, foreign, stale), out of memory at every allocation of adding
 *    grounds, no allocation in a step, determinism. */
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

static const cdyn_integrator ALL_INTEGRATORS[] = {
    CDYN_INTEGRATOR_EXPLICIT_EULER, CDYN_INTEGRATOR_SYMPLECTIC_EULER,
    CDYN_INTEGRATOR_VELOCITY_VERLET, CDYN_INTEGRATOR_RK4, CDYN_INTEGRATOR_RK45};

/* ---- helpers ------------------------------------------------------------- */

static cdyn_system *make_system(int dim)
{
    cdyn_system *sys = NULL;
    assert_int_equal(cdyn_system_create(dim, &sys), CDYN_OK);
    return sys;
}

static cdyn_particle add_particle(cdyn_system *sys, double m, const double *x, const double *v)
{
    cdyn_particle p = 0;
    assert_int_equal(cdyn_particle_add(sys, m, x, v, &p), CDYN_OK);
    return p;
}

static cdyn_force add_gravity(cdyn_system *sys, const double *g)
{
    cdyn_force f = 0;
    assert_int_equal(cdyn_force_add_gravity(sys, g, &f), CDYN_OK);
    return f;
}

static double total_energy(const cdyn_system *sys)
{
    double k, u;
    assert_int_equal(cdyn_system_get_kinetic_energy(sys, &k), CDYN_OK);
    assert_int_equal(cdyn_system_get_potential_energy(sys, &u), CDYN_OK);
    return k + u;
}

static double speed(const cdyn_system *sys, cdyn_particle p)
{
    double v[3] = {0, 0, 0};
    assert_int_equal(cdyn_particle_get_velocity(sys, p, v), CDYN_OK);
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

static void set_contact(cdyn_system *sys, cdyn_ground g, double S, double c, double mu)
{
    assert_int_equal(cdyn_ground_set_stiffness(sys, g, S), CDYN_OK);
    assert_int_equal(cdyn_ground_set_damping(sys, g, c), CDYN_OK);
    assert_int_equal(cdyn_ground_set_friction(sys, g, mu), CDYN_OK);
}

/* f(x, y) = 0.1 sin(x) cos(0.7 y) + 0.02 x sampled on [-3, 3]^2 with step h. */
static double hills(double x, double y)
{
    return 0.1 * sin(x) * cos(0.7 * y) + 0.02 * x;
}

static void hills_desc(cdyn_heightfield_desc *d, double *buf, size_t n, double h,
                       cdyn_heightfield_interpolation mode)
{
    cdyn_heightfield_desc_init(d);
    d->nx = d->ny = n;
    d->origin[0] = d->origin[1] = -0.5 * h * (double)(n - 1);
    d->spacing[0] = d->spacing[1] = h;
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < n; i++)
            buf[j * n + i] = hills(d->origin[0] + (double)i * h, d->origin[1] + (double)j * h);
    d->samples = buf;
    d->interpolation = mode;
}

/* A 2-D profile y = f(x) of n samples of fn over [x0, x0 + (n - 1) h]. */
static void profile_desc(cdyn_heightfield_desc *d, double *buf, size_t n, double x0, double h,
                         double (*fn)(double), cdyn_heightfield_interpolation mode)
{
    cdyn_heightfield_desc_init(d);
    d->nx = n;
    d->ny = 1;
    d->origin[0] = x0;
    d->spacing[0] = h;
    for (size_t i = 0; i < n; i++)
        buf[i] = fn(x0 + (double)i * h);
    d->samples = buf;
    d->interpolation = mode;
}

static double sine_profile(double x)
{
    return 0.1 * sin(x);
}

static double cubic_profile(double x)
{
    return 0.05 * x * x * x - 0.2 * x * x + 0.1 * x + 0.3;
}

/* ---- shapes and settings -------------------------------------------------- */

static void test_shapes_evaluate(void **state)
{
    (void)state;
    double h, g[3];
    /* 3-D plane: normal (0, 2, 0), offset 1 -> H = y - 0.5 */
    cdyn_system *sys = make_system(3);
    cdyn_ground pl, so, si, hf;
    assert_int_equal(cdyn_ground_add_plane(sys, (double[]){0, 2, 0}, 1.0, &pl), CDYN_OK);
    assert_int_equal(cdyn_ground_evaluate(sys, pl, (double[]){3, 0.25, -1}, &h, g), CDYN_OK);
    assert_near(h, -0.25, 1e-15);
    assert_near(g[0], 0, 0);
    assert_near(g[1], 1, 1e-15);
    assert_near(g[2], 0, 0);
    /* spheres: outside H = r - R, inside H = R - r */
    assert_int_equal(cdyn_ground_add_sphere(sys, (double[]){1, 1, 1}, 2.0, false, &so), CDYN_OK);
    assert_int_equal(cdyn_ground_add_sphere(sys, (double[]){1, 1, 1}, 2.0, true, &si), CDYN_OK);
    assert_int_equal(cdyn_ground_evaluate(sys, so, (double[]){1, 1, 4}, &h, g), CDYN_OK);
    assert_near(h, 1.0, 1e-15);
    assert_near(g[2], 1.0, 1e-15);
    assert_int_equal(cdyn_ground_evaluate(sys, si, (double[]){1, 1, 4}, &h, g), CDYN_OK);
    assert_near(h, -1.0, 1e-15);
    assert_near(g[2], -1.0, 1e-15);
    /* the centre: documented normal along +z */
    assert_int_equal(cdyn_ground_evaluate(sys, so, (double[]){1, 1, 1}, &h, g), CDYN_OK);
    assert_near(h, -2.0, 0);
    assert_near(g[2], 1.0, 0);
    /* 3-D height field, bicubic: close to the sampled function, grad H = (-f_x, -f_y, 1) */
    double buf[61 * 61];
    cdyn_heightfield_desc d;
    hills_desc(&d, buf, 61, 0.1, CDYN_HEIGHTFIELD_BICUBIC);
    assert_int_equal(cdyn_ground_add_heightfield(sys, &d, &hf), CDYN_OK);
    double p[3] = {0.33, -0.41, 0.5};
    assert_int_equal(cdyn_ground_evaluate(sys, hf, p, &h, g), CDYN_OK);
    assert_near(h, 0.5 - hills(0.33, -0.41), 1e-5);
    assert_near(g[0], -(0.1 * cos(0.33) * cos(0.7 * -0.41) + 0.02), 1e-4);
    assert_near(g[1], 0.1 * sin(0.33) * 0.7 * sin(0.7 * -0.41), 1e-4);
    assert_near(g[2], 1.0, 0);
    /* up_axis 1: heights along y over (x, z) */
    cdyn_ground hy;
    d.up_axis = 1;
    assert_int_equal(cdyn_ground_add_heightfield(sys, &d, &hy), CDYN_OK);
    assert_int_equal(cdyn_ground_evaluate(sys, hy, (double[]){0.33, 0.5, -0.41}, &h, g), CDYN_OK);
    assert_near(h, 0.5 - hills(0.33, -0.41), 1e-5);
    assert_near(g[1], 1.0, 0);
    cdyn_ground_kind kind;
    assert_int_equal(cdyn_ground_get_kind(sys, hy, &kind), CDYN_OK);
    assert_int_equal(kind, CDYN_GROUND_HEIGHTFIELD);
    assert_int_equal(cdyn_ground_get_kind(sys, si, &kind), CDYN_OK);
    assert_int_equal(kind, CDYN_GROUND_SPHERE);
    cdyn_system_destroy(sys);

    /* 2-D profiles: the bicubic spline reproduces a cubic exactly, with its
     * slope; the bilinear rule is the broken line; outside the grid the end
     * height with zero slope. */
    sys = make_system(2);
    double pb[9];
    cdyn_ground cu, li, up0;
    profile_desc(&d, pb, 9, -1.0, 0.5, cubic_profile, CDYN_HEIGHTFIELD_BICUBIC);
    assert_int_equal(cdyn_ground_add_heightfield(sys, &d, &cu), CDYN_OK);
    for (double x = -1.0; x <= 3.0; x += 0.137) {
        assert_int_equal(cdyn_ground_evaluate(sys, cu, (double[]){x, 0.7}, &h, g), CDYN_OK);
        assert_near(h, 0.7 - cubic_profile(x), 1e-13);
        assert_near(g[0], -(0.15 * x * x - 0.4 * x + 0.1), 1e-12);
        assert_near(g[1], 1.0, 0);
    }
    assert_int_equal(cdyn_ground_evaluate(sys, cu, (double[]){5.0, 0.0}, &h, g), CDYN_OK);
    assert_near(h, -cubic_profile(3.0), 1e-13);
    assert_near(g[0], 0.0, 0);
    d.interpolation = CDYN_HEIGHTFIELD_BILINEAR;
    assert_int_equal(cdyn_ground_add_heightfield(sys, &d, &li), CDYN_OK);
    assert_int_equal(cdyn_ground_evaluate(sys, li, (double[]){-0.75, 0.0}, &h, g), CDYN_OK);
    assert_near(h, -0.5 * (cubic_profile(-1.0) + cubic_profile(-0.5)), 1e-14);
    assert_near(g[0], -(cubic_profile(-0.5) - cubic_profile(-1.0)) / 0.5, 1e-13);
    /* up_axis 0: x = f(y) */
    d.up_axis = 0;
    d.interpolation = CDYN_HEIGHTFIELD_BICUBIC;
    assert_int_equal(cdyn_ground_add_heightfield(sys, &d, &up0), CDYN_OK);
    assert_int_equal(cdyn_ground_evaluate(sys, up0, (double[]){0.9, 0.3}, &h, g), CDYN_OK);
    assert_near(h, 0.9 - cubic_profile(0.3), 1e-13);
    assert_near(g[0], 1.0, 0);
    assert_near(g[1], -(0.15 * 0.09 - 0.4 * 0.3 + 0.1), 1e-12);
    /* 2-D sphere: a circle */
    cdyn_ground ci;
    assert_int_equal(cdyn_ground_add_sphere(sys, (double[]){0, 0}, 1.0, false, &ci), CDYN_OK);
    assert_int_equal(cdyn_ground_evaluate(sys, ci, (double[]){0.6, 0.8}, &h, g), CDYN_OK);
    assert_near(h, 0.0, 1e-15);
    assert_near(g[0], 0.6, 1e-15);
    assert_near(g[1], 0.8, 1e-15);
    cdyn_system_destroy(sys);
}

static void test_settings(void **state)
{
    (void)state;
    cdyn_system *sys = make_system(2);
    cdyn_ground g;
    assert_int_equal(cdyn_ground_add_plane(sys, (double[]){0, 1}, 0.0, &g), CDYN_OK);
    assert_true(cdyn_ground_is_valid(sys, g));
    double v;
    assert_int_equal(cdyn_ground_get_stiffness(sys, g, &v), CDYN_OK);
    assert_near(v, 1e4, 0);
    assert_int_equal(cdyn_ground_get_damping(sys, g, &v), CDYN_OK);
    assert_near(v, 0, 0);
    assert_int_equal(cdyn_ground_get_friction(sys, g, &v), CDYN_OK);
    assert_near(v, 0, 0);
    assert_int_equal(cdyn_ground_get_friction_speed(sys, g, &v), CDYN_OK);
    assert_near(v, 0.01, 0);
    set_contact(sys, g, 123.0, 4.5, 0.6);
    assert_int_equal(cdyn_ground_set_friction_speed(sys, g, 0.002), CDYN_OK);
    assert_int_equal(cdyn_ground_get_stiffness(sys, g, &v), CDYN_OK);
    assert_near(v, 123.0, 0);
    assert_int_equal(cdyn_ground_get_damping(sys, g, &v), CDYN_OK);
    assert_near(v, 4.5, 0);
    assert_int_equal(cdyn_ground_get_friction(sys, g, &v), CDYN_OK);
    assert_near(v, 0.6, 0);
    assert_int_equal(cdyn_ground_get_friction_speed(sys, g, &v), CDYN_OK);
    assert_near(v, 0.002, 0);
    /* zero stiffness, damping and friction are allowed */
    set_contact(sys, g, 0.0, 0.0, 0.0);
    assert_int_equal(cdyn_ground_remove(sys, g), CDYN_OK);
    assert_false(cdyn_ground_is_valid(sys, g));
    cdyn_system_destroy(sys);
}

/* ---- resting -------------------------------------------------------------- */

/* A particle of mass m dropped from a little height onto a plane whose
 * normal n need not be vertical, with gravity -G n: it settles at the depth
 * m G / S, and its motion along the plane stays zero. */
static void rest_on_plane(int dim, const double *normal, cdyn_integrator integ, double dt,
                          double steps)
{
    cdyn_system *sys = make_system(dim);
    double len = 0, n[3] = {0, 0, 0};
    for (int k = 0; k < dim; k++)
        len += normal[k] * normal[k];
    len = sqrt(len);
    for (int k = 0; k < dim; k++)
        n[k] = normal[k] / len;
    const double m = 0.7, S = 2e4, offset = 0.3; /* plane n.x = offset (normalized) */
    double gvec[3], x0[3];
    for (int k = 0; k < dim; k++) {
        gvec[k] = -G * n[k];
        x0[k] = (offset + 0.02) * n[k] + (k == 0 ? 0.4 : -0.25); /* off the axis */
    }
    /* remove the normal part of the shift so x0 is 0.02 above the plane */
    double s = 0;
    for (int k = 0; k < dim; k++)
        s += n[k] * (x0[k] - (offset + 0.02) * n[k]);
    for (int k = 0; k < dim; k++)
        x0[k] -= s * n[k];
    cdyn_particle p = add_particle(sys, m, x0, NULL);
    add_gravity(sys, gvec);
    cdyn_ground g;
    assert_int_equal(cdyn_ground_add_plane(sys, normal, offset * len, &g), CDYN_OK);
    set_contact(sys, g, S, 2.0 * sqrt(S * m), 0.0); /* critical damping */
    assert_int_equal(cdyn_system_set_integrator(sys, integ), CDYN_OK);
    for (long i = 0; i < (long)steps; i++)
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
    double depth, x[3] = {0, 0, 0};
    assert_int_equal(cdyn_ground_get_penetration(sys, g, p, &depth), CDYN_OK);
    assert_near(depth, m * G / S, 1e-9 * m * G / S + 1e-13);
    assert_true(speed(sys, p) < 1e-9);
    assert_int_equal(cdyn_particle_get_position(sys, p, x), CDYN_OK);
    /* no sideways drift: the tangential part of x - x0 */
    double dn = 0, drift = 0;
    for (int k = 0; k < dim; k++)
        dn += n[k] * (x[k] - x0[k]);
    for (int k = 0; k < dim; k++) {
        double t = x[k] - x0[k] - dn * n[k];
        drift += t * t;
    }
    assert_true(sqrt(drift) < 1e-12);
    size_t count;
    assert_int_equal(cdyn_ground_get_contact_count(sys, g, &count), CDYN_OK);
    assert_int_equal(count, 1);
    double fn[3], ff[3];
    assert_int_equal(cdyn_ground_get_total_force(sys, g, fn, ff), CDYN_OK);
    for (int k = 0; k < dim; k++) {
        assert_near(fn[k], m * G * n[k], 1e-8);
        assert_near(ff[k], 0.0, 0);
    }
    assert_near(fn[2] * (dim == 2), 0.0, 0);
    /* the penalty energy S d^2 / 2 */
    double e;
    assert_int_equal(cdyn_ground_get_energy(sys, g, &e), CDYN_OK);
    assert_near(e, 0.5 * S * depth * depth, 1e-15);
    cdyn_system_destroy(sys);
}

static void test_rest_on_plane(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof ALL_INTEGRATORS / sizeof ALL_INTEGRATORS[0]; i++) {
        rest_on_plane(2, (double[]){0, 1}, ALL_INTEGRATORS[i], 1e-3, 3000);
        rest_on_plane(3, (double[]){0, 0, 1}, ALL_INTEGRATORS[i], 1e-3, 3000);
    }
}

static void test_rest_on_tilted_plane(void **state)
{
    (void)state;
    rest_on_plane(2, (double[]){0.6, 1.3}, CDYN_INTEGRATOR_SYMPLECTIC_EULER, 1e-3, 3000);
    rest_on_plane(3, (double[]){0.3, -0.8, 0.5}, CDYN_INTEGRATOR_SYMPLECTIC_EULER, 1e-3, 3000);
    rest_on_plane(3, (double[]){-2, 1, 3}, CDYN_INTEGRATOR_RK4, 1e-3, 3000);
    rest_on_plane(3, (double[]){1, 1, 1}, CDYN_INTEGRATOR_VELOCITY_VERLET, 1e-3, 3000);
}

/* ---- bouncing: energy never increases --------------------------------------- */

typedef struct bounce_report {
    double e0, e_end, worst_rise, speed_end;
    long contacts;
} bounce_report;

/* Runs a dropped particle for `steps` steps and checks the energy at every
 * step: E(n+1) <= E(n) + tol. */
static bounce_report run_bounce(cdyn_system *sys, cdyn_particle p, cdyn_ground g, double dt,
                                long steps, double tol)
{
    bounce_report r = {0};
    r.e0 = total_energy(sys);
    double e = r.e0;
    bool was_in = false;
    for (long i = 0; i < steps; i++) {
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        double e1 = total_energy(sys);
        r.worst_rise = fmax(r.worst_rise, e1 - e);
        if (!(e1 <= e + tol))
            fail_msg("step %ld: energy rose from %.17g to %.17g (by %.3g > %.3g)", i, e, e1,
                     e1 - e, tol);
        e = e1;
        size_t c;
        assert_int_equal(cdyn_ground_get_contact_count(sys, g, &c), CDYN_OK);
        if (c && !was_in)
            r.contacts++;
        was_in = c > 0;
    }
    r.e_end = e;
    r.speed_end = speed(sys, p);
    return r;
}

static void test_bounce_on_sphere(void **state)
{
    (void)state;
    const cdyn_integrator integ[] = {CDYN_INTEGRATOR_VELOCITY_VERLET, CDYN_INTEGRATOR_RK4,
                                     CDYN_INTEGRATOR_SYMPLECTIC_EULER};
    for (int dim = 2; dim <= 3; dim++)
        for (size_t k = 0; k < 3; k++) {
            cdyn_system *sys = make_system(dim);
            const double m = 0.5, S = 5e3, R = 1.0;
            /* dropped from 0.5 above the top of a ball centred at the origin */
            double x0[3] = {0, 0, 0}, gv[3] = {0, 0, 0};
            x0[dim - 1] = R + 0.5;
            gv[dim - 1] = -G;
            cdyn_particle p = add_particle(sys, m, x0, NULL);
            add_gravity(sys, gv);
            cdyn_ground g;
            assert_int_equal(cdyn_ground_add_sphere(sys, (double[]){0, 0, 0}, R, false, &g),
                             CDYN_OK);
            set_contact(sys, g, S, 0.3 * 2.0 * sqrt(S * m), 0.4);
            assert_int_equal(cdyn_system_set_integrator(sys, integ[k]), CDYN_OK);
            /* The energy error of one step: O(dt^3) for Verlet and symplectic Euler's
             * one-step change of its shadow energy, O(dt^5) for RK4. */
            double tol = integ[k] == CDYN_INTEGRATOR_RK4 ? 1e-9 : 2e-4;
            bounce_report r = run_bounce(sys, p, g, 2e-4, 20000, tol);
            static const char *const names[] = {"verlet", "rk4", "symplectic"};
            print_message("  %d-D sphere (%s): %ld touch-downs, energy %.6f -> %.6f J, largest "
                          "rise in a step %.1e J (tolerance %.0e)\n", dim, names[k], r.contacts,
                          r.e0, r.e_end, r.worst_rise, tol);
            assert_true(r.contacts >= 2); /* it bounced */
            assert_true(r.speed_end < 1e-6);
            assert_true(r.e_end < r.e0);
            double depth;
            assert_int_equal(cdyn_ground_get_penetration(sys, g, p, &depth), CDYN_OK);
            assert_near(depth, m * G / S, 1e-9);
            cdyn_system_destroy(sys);
        }
}

/* At rest up to creep: held by friction mu on a slope tan(theta) = |grad f|
 * (grad H = (-grad f, 1)), a particle creeps at most at v_s r / sqrt(1 -
 * r^2), r = tan / mu (ground.h); the creep slows as the slope flattens. */
static void check_creep(const cdyn_system *sys, cdyn_particle p, cdyn_ground g, double mu,
                        double speed_end)
{
    double x[3] = {0, 0, 0}, hv, gr[3] = {0, 0, 0}, vs;
    int dim = cdyn_system_get_dimension(sys);
    assert_int_equal(cdyn_particle_get_position(sys, p, x), CDYN_OK);
    assert_int_equal(cdyn_ground_evaluate(sys, g, x, &hv, gr), CDYN_OK);
    assert_int_equal(cdyn_ground_get_friction_speed(sys, g, &vs), CDYN_OK);
    double slope = dim == 3 ? hypot(gr[0], gr[1]) : fabs(gr[0]);
    double rr = slope / mu, creep = vs * rr / sqrt(1.0 - rr * rr);
    print_message("  rests at x = %.3f, slope %.4f: speed %.2e m/s, creep bound %.2e m/s\n",
                  x[0], slope, speed_end, creep);
    assert_true(speed_end <= 1.05 * creep);
}

static void test_bounce_on_heightfield(void **state)
{
    (void)state;
    /* 3-D: hills, dropped off a summit; friction makes it come to rest */
    static double buf[61 * 61];
    cdyn_heightfield_desc d;
    const cdyn_heightfield_interpolation modes[] = {CDYN_HEIGHTFIELD_BICUBIC,
                                                    CDYN_HEIGHTFIELD_BILINEAR};
    for (int mi = 0; mi < 2; mi++) {
        hills_desc(&d, buf, 61, 0.1, modes[mi]);
        cdyn_system *sys = make_system(3);
        const double m = 0.2, S = 4e3;
        /* dropped onto the side of the pit at (-1.77, 0) (cos x = -0.2, y = 0) */
        cdyn_particle p = add_particle(sys, m, (double[]){-1.4, 0.3, 0.4}, (double[]){0.2, 0, 0});
        add_gravity(sys, (double[]){0, 0, -G});
        cdyn_ground g;
        assert_int_equal(cdyn_ground_add_heightfield(sys, &d, &g), CDYN_OK);
        set_contact(sys, g, S, 0.2 * 2.0 * sqrt(S * m), 0.8);
        assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4), CDYN_OK);
        bounce_report r = run_bounce(sys, p, g, 2e-4, 25000, 1e-9);
        print_message("  hills (%s): %ld touch-downs, energy %.6f -> %.6f J, largest rise "
                      "in a step %.1e J, final speed %.1e m/s\n",
                      mi == 0 ? "bicubic" : "bilinear", r.contacts, r.e0, r.e_end, r.worst_rise,
                      r.speed_end);
        assert_true(r.contacts >= 2);
        assert_true(r.e_end < r.e0);
        check_creep(sys, p, g, 0.8, r.speed_end);
        cdyn_system_destroy(sys);
    }
    /* 2-D: a profile y = 0.1 sin x */
    double pb[101];
    profile_desc(&d, pb, 101, -5.0, 0.1, sine_profile, CDYN_HEIGHTFIELD_BICUBIC);
    cdyn_system *sys = make_system(2);
    const double m = 0.2, S = 4e3;
    cdyn_particle p = add_particle(sys, m, (double[]){-1.2, 0.5}, NULL);
    add_gravity(sys, (double[]){0, -G});
    cdyn_ground g;
    assert_int_equal(cdyn_ground_add_heightfield(sys, &d, &g), CDYN_OK);
    set_contact(sys, g, S, 0.2 * 2.0 * sqrt(S * m), 0.8);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET), CDYN_OK);
    bounce_report r = run_bounce(sys, p, g, 2e-4, 25000, 2e-4);
    print_message("  profile: %ld touch-downs, energy %.6f -> %.6f J, largest rise in a step "
                  "%.1e J\n", r.contacts, r.e0, r.e_end, r.worst_rise);
    assert_true(r.contacts >= 2);
    assert_true(r.e_end < r.e0);
    check_creep(sys, p, g, 0.8, r.speed_end);
    cdyn_system_destroy(sys);
}

/* ---- several grounds, callbacks -------------------------------------------- */

static void test_several_grounds(void **state)
{
    (void)state;
    /* A V-shaped valley of two planes at +-45 degrees (2-D), a particle
     * dropped off-centre settles in the vertex touching both; each plane
     * carries half the weight along its normal. A floor far below and a
     * sphere elsewhere do nothing. */
    cdyn_system *sys = make_system(2);
    const double m = 1.0, S = 1e4;
    cdyn_particle p = add_particle(sys, m, (double[]){0.1, 0.5}, NULL);
    add_gravity(sys, (double[]){0, -G});
    cdyn_ground a, b, floor, ball;
    assert_int_equal(cdyn_ground_add_plane(sys, (double[]){1, 1}, 0.0, &a), CDYN_OK);
    assert_int_equal(cdyn_ground_add_plane(sys, (double[]){-1, 1}, 0.0, &b), CDYN_OK);
    assert_int_equal(cdyn_ground_add_plane(sys, (double[]){0, 1}, -10.0, &floor), CDYN_OK);
    assert_int_equal(cdyn_ground_add_sphere(sys, (double[]){5, 5}, 1.0, false, &ball), CDYN_OK);
    set_contact(sys, a, S, 2 * sqrt(S * m), 0.0);
    set_contact(sys, b, S, 2 * sqrt(S * m), 0.0);
    for (int i = 0; i < 5000; i++)
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    double x[2], fa[3], fb[3], fl[3];
    assert_int_equal(cdyn_particle_get_position(sys, p, x), CDYN_OK);
    assert_near(x[0], 0.0, 1e-9);
    /* each plane: S d n with S d = m g / sqrt(2); depth d = y / sqrt(2) below both */
    double d = m * G / sqrt(2.0) / S;
    assert_near(x[1], -d * sqrt(2.0), 1e-9);
    assert_int_equal(cdyn_ground_get_total_force(sys, a, fa, NULL), CDYN_OK);
    assert_int_equal(cdyn_ground_get_total_force(sys, b, fb, NULL), CDYN_OK);
    assert_int_equal(cdyn_ground_get_total_force(sys, floor, fl, NULL), CDYN_OK);
    assert_near(fa[0] + fb[0], 0.0, 1e-8);
    assert_near(fa[1] + fb[1], m * G, 1e-8);
    assert_near(fa[1], 0.5 * m * G, 1e-8);
    assert_near(fl[1], 0.0, 0);
    size_t c;
    assert_int_equal(cdyn_ground_get_contact_count(sys, ball, &c), CDYN_OK);
    assert_int_equal(c, 0);
    /* potential energy: gravity + both penalties */
    double pe, ea, eb;
    assert_int_equal(cdyn_system_get_potential_energy(sys, &pe), CDYN_OK);
    assert_int_equal(cdyn_ground_get_energy(sys, a, &ea), CDYN_OK);
    assert_int_equal(cdyn_ground_get_energy(sys, b, &eb), CDYN_OK);
    assert_near(ea, 0.5 * S * d * d, 1e-12);
    assert_near(pe, m * G * x[1] + ea + eb, 1e-12);
    /* removing one plane: the particle slides down the other's side */
    assert_int_equal(cdyn_ground_remove(sys, b), CDYN_OK);
    for (int i = 0; i < 300; i++)
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    assert_int_equal(cdyn_particle_get_position(sys, p, x), CDYN_OK);
    assert_true(x[0] > 0.05);
    cdyn_system_destroy(sys);
}

typedef struct sine_user {
    int calls;
    int fail_at; /* misbehave from this call on (0 = never) */
    int mode;    /* bad_ground: 1 NaN, 2 zero gradient */
} sine_user;

/* H = y - 0.1 sin x in 2-D; H = z - 0.1 sin x in 3-D. @p user may be NULL;
 * otherwise calls are counted and from call fail_at on the function
 * returns 7. */
static int sine_ground(const cdyn_system *sys, double t, int dim, const double *x, double *h,
                 double *grad, double *velocity, void *user)
{
    (void)sys, (void)t, (void)velocity;
    sine_user *u = user;
    if (u && (++u->calls, u->fail_at && u->calls >= u->fail_at))
        return 7;
    *h = x[dim - 1] - 0.1 * sin(x[0]);
    grad[0] = -0.1 * cos(x[0]);
    grad[dim - 1] = 1.0;
    return 0;
}

/* Like sine_ground but turns bad after fail_at calls: NaN (mode 1) or a zero
 * gradient (mode 2). */
static int bad_ground(const cdyn_system *sys, double t, int dim, const double *x, double *h,
                 double *grad, double *velocity, void *user)
{
    (void)sys, (void)t, (void)velocity;
    sine_user *u = user;
    u->calls++;
    *h = x[dim - 1] - 0.1 * sin(x[0]);
    grad[0] = -0.1 * cos(x[0]);
    grad[dim - 1] = 1.0;
    if (u->fail_at && u->calls >= u->fail_at) {
        if (u->mode == 1)
            *h = NAN;
        else
            grad[0] = grad[dim - 1] = 0.0;
    }
    return 0;
}

/* The same plane through a callback. */
static int plane_ground(const cdyn_system *sys, double t, int dim, const double *x, double *h,
                 double *grad, double *velocity, void *user)
{
    (void)sys, (void)t, (void)velocity;
    const double *n = user; /* unit normal, then the offset */
    double s = 0;
    for (int k = 0; k < dim; k++) {
        s += n[k] * x[k];
        grad[k] = n[k];
    }
    *h = s - n[3];
    return 0;
}

/* Runs a sliding, bouncing particle on ground g and returns its final state. */
static void slide_run(cdyn_system *sys, cdyn_ground g, double *x_out, double *v_out)
{
    set_contact(sys, g, 5e3, 20.0, 0.3);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4), CDYN_OK);
    for (int i = 0; i < 4000; i++)
        assert_int_equal(cdyn_system_step(sys, 5e-4), CDYN_OK);
    assert_int_equal(cdyn_system_get_positions(sys, x_out, 3), CDYN_OK);
    assert_int_equal(cdyn_system_get_velocities(sys, v_out, 3), CDYN_OK);
}

static void test_callback_equals_builtin(void **state)
{
    (void)state;
    /* A callback plane and the built-in plane: the same numbers. */
    const double nrm[4] = {0.6, 0.8, 0.0, 0.1};
    double xa[3], va[3], xb[3], vb[3];
    for (int variant = 0; variant < 2; variant++) {
        cdyn_system *sys = make_system(2);
        add_particle(sys, 1.0, (double[]){-0.5, 0.5}, (double[]){1.5, 0.0});
        add_gravity(sys, (double[]){0, -G});
        cdyn_ground g;
        if (variant == 0)
            assert_int_equal(cdyn_ground_add_plane(sys, nrm, nrm[3], &g), CDYN_OK);
        else
            assert_int_equal(cdyn_ground_add_callback(sys, plane_ground, (void *)nrm, &g),
                             CDYN_OK);
        slide_run(sys, g, variant ? xb : xa, variant ? vb : va);
        cdyn_system_destroy(sys);
    }
    for (int k = 0; k < 2; k++) {
        assert_near(xa[k], xb[k], 1e-13);
        assert_near(va[k], vb[k], 1e-12);
    }
    /* H = y - 0.1 sin x: callback against the bicubic profile sampled from
     * it at 0.01 (interpolation error ~ h^4 f''''/384 ~ 3e-11). */
    double pb[1001];
    cdyn_heightfield_desc d;
    profile_desc(&d, pb, 1001, -5.0, 0.01, sine_profile, CDYN_HEIGHTFIELD_BICUBIC);
    sine_user u = {0};
    for (int variant = 0; variant < 2; variant++) {
        cdyn_system *sys = make_system(2);
        add_particle(sys, 1.0, (double[]){-0.5, 0.3}, (double[]){1.5, 0.0});
        add_gravity(sys, (double[]){0, -G});
        cdyn_ground g;
        if (variant == 0)
            assert_int_equal(cdyn_ground_add_heightfield(sys, &d, &g), CDYN_OK);
        else
            assert_int_equal(cdyn_ground_add_callback(sys, sine_ground, &u, &g), CDYN_OK);
        slide_run(sys, g, variant ? xb : xa, variant ? vb : va);
        cdyn_system_destroy(sys);
    }
    assert_true(u.calls > 0);
    assert_true(xa[0] > -0.3); /* it did slide */
    for (int k = 0; k < 2; k++) {
        assert_near(xa[k], xb[k], 1e-7);
        assert_near(va[k], vb[k], 1e-6);
    }
    /* 3-D: H = z - 0.1 sin x against a 3-D bicubic height field */
    static double grid[601 * 3];
    cdyn_heightfield_desc_init(&d);
    d.nx = 601;
    d.ny = 3;
    d.origin[0] = -3.0;
    d.origin[1] = -10.0;
    d.spacing[0] = 0.01;
    d.spacing[1] = 10.0;
    for (size_t j = 0; j < 3; j++)
        for (size_t i = 0; i < 601; i++)
            grid[j * 601 + i] = sine_profile(-3.0 + 0.01 * (double)i);
    d.samples = grid;
    double x3a[3], v3a[3], x3b[3], v3b[3];
    for (int variant = 0; variant < 2; variant++) {
        cdyn_system *sys = make_system(3);
        add_particle(sys, 1.0, (double[]){-0.5, 0.2, 0.3}, (double[]){1.0, 0.5, 0.0});
        add_gravity(sys, (double[]){0, 0, -G});
        cdyn_ground g;
        if (variant == 0)
            assert_int_equal(cdyn_ground_add_heightfield(sys, &d, &g), CDYN_OK);
        else
            assert_int_equal(cdyn_ground_add_callback(sys, sine_ground, &u, &g), CDYN_OK);
        set_contact(sys, g, 5e3, 20.0, 0.3);
        assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4), CDYN_OK);
        for (int i = 0; i < 4000; i++)
            assert_int_equal(cdyn_system_step(sys, 5e-4), CDYN_OK);
        assert_int_equal(cdyn_system_get_positions(sys, variant ? x3b : x3a, 3), CDYN_OK);
        assert_int_equal(cdyn_system_get_velocities(sys, variant ? v3b : v3a, 3), CDYN_OK);
        cdyn_system_destroy(sys);
    }
    for (int k = 0; k < 3; k++) {
        assert_near(x3a[k], x3b[k], 1e-7);
        assert_near(v3a[k], v3b[k], 1e-6);
    }
}

/* A callback that fails, gives NaN or a zero gradient below: the step
 * returns CDYN_ERR_CALLBACK and the state is as before. */
static void test_callback_errors(void **state)
{
    (void)state;
    for (int mode = 0; mode < 3; mode++) {
        cdyn_system *sys = make_system(2);
        cdyn_particle p = add_particle(sys, 1.0, (double[]){0.3, -0.01}, (double[]){0.1, 0});
        sine_user u = {0, 0, mode == 0 ? 0 : mode};
        cdyn_ground g;
        assert_int_equal(cdyn_ground_add_callback(sys, mode == 0 ? sine_ground : bad_ground, &u,
                                                  &g),
                         CDYN_OK);
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
        double x0[2], v0[2], t0, x1[2], v1[2], t1;
        assert_int_equal(cdyn_system_get_positions(sys, x0, 2), CDYN_OK);
        assert_int_equal(cdyn_system_get_velocities(sys, v0, 2), CDYN_OK);
        assert_int_equal(cdyn_system_get_time(sys, &t0), CDYN_OK);
        u.fail_at = u.calls + 1;
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_ERR_CALLBACK);
        assert_true(strlen(cdyn_system_last_error(sys)) > 0);
        assert_int_equal(cdyn_system_get_positions(sys, x1, 2), CDYN_OK);
        assert_int_equal(cdyn_system_get_velocities(sys, v1, 2), CDYN_OK);
        assert_int_equal(cdyn_system_get_time(sys, &t1), CDYN_OK);
        assert_memory_equal(x0, x1, sizeof x0);
        assert_memory_equal(v0, v1, sizeof v0);
        assert_true(t0 == t1);
        /* the queries report it too, each naming itself first */
        double e, depth, fn[3], jx[4], jv[4];
        size_t c;
#define NAMED(call, name)                                                      \
    do {                                                                       \
        assert_int_equal((call), CDYN_ERR_CALLBACK);                           \
        assert_int_equal(strncmp(cdyn_system_last_error(sys), name ":",        \
                                 strlen(name) + 1), 0);                        \
    } while (0)
        NAMED(cdyn_system_get_potential_energy(sys, &e), "get_potential_energy");
        NAMED(cdyn_ground_get_contact_count(sys, g, &c), "ground_get_contact_count");
        NAMED(cdyn_ground_get_penetration(sys, g, p, &depth), "ground_get_penetration");
        NAMED(cdyn_ground_get_total_force(sys, g, fn, NULL), "ground_get_total_force");
        NAMED(cdyn_ground_get_energy(sys, g, &e), "ground_get_energy");
        NAMED(cdyn_ground_get_jacobian(sys, g, p, jx, jv), "ground_get_jacobian");
#undef NAMED
        /* a fixed particle is not evaluated by the step */
        assert_int_equal(cdyn_particle_set_fixed(sys, p, true), CDYN_OK);
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
        cdyn_system_destroy(sys);
    }
}

/* A callback that tries to change the system during a step gets BUSY. */
typedef struct reentry {
    cdyn_system *sys;
    cdyn_ground self;
    cdyn_status got_set, got_add, got_remove;
} reentry;

static int reentrant_ground(const cdyn_system *sys, double t, int dim, const double *x, double *h,
                 double *grad, double *velocity, void *user)
{
    (void)sys, (void)t, (void)velocity;
    reentry *r = user;
    cdyn_ground g2;
    r->got_set = cdyn_ground_set_stiffness(r->sys, r->self, 1.0);
    r->got_add = cdyn_ground_add_plane(r->sys, (double[]){0, 1, 0}, 0.0, &g2);
    r->got_remove = cdyn_ground_remove(r->sys, r->self);
    *h = x[dim - 1];
    grad[dim - 1] = 1.0;
    return 0;
}

static void test_callback_busy(void **state)
{
    (void)state;
    cdyn_system *sys = make_system(2);
    add_particle(sys, 1.0, (double[]){0, -0.001}, NULL);
    reentry r = {sys, 0, CDYN_OK, CDYN_OK, CDYN_OK};
    assert_int_equal(cdyn_ground_add_callback(sys, reentrant_ground, &r, &r.self), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    assert_int_equal(r.got_set, CDYN_ERR_BUSY);
    assert_int_equal(r.got_add, CDYN_ERR_BUSY);
    assert_int_equal(r.got_remove, CDYN_ERR_BUSY);
    double s;
    assert_int_equal(cdyn_ground_get_stiffness(sys, r.self, &s), CDYN_OK);
    assert_near(s, 1e4, 0);
    assert_true(cdyn_ground_is_valid(sys, r.self));
    cdyn_system_destroy(sys);
}

/* ---- queries ------------------------------------------------------------------ */

static void test_queries(void **state)
{
    (void)state;
    cdyn_system *sys = make_system(3);
    const double S = 1e3;
    cdyn_ground g;
    assert_int_equal(cdyn_ground_add_plane(sys, (double[]){0, 0, 1}, 0.0, &g), CDYN_OK);
    set_contact(sys, g, S, 10.0, 0.5);
    cdyn_particle a = add_particle(sys, 1.0, (double[]){0, 0, -0.01}, (double[]){1, 0, -0.2});
    cdyn_particle b = add_particle(sys, 2.0, (double[]){1, 0, -0.02}, NULL);
    cdyn_particle c = add_particle(sys, 1.0, (double[]){2, 0, 0.5}, NULL);
    cdyn_particle f = add_particle(sys, 1.0, (double[]){3, 0, -0.3}, NULL);
    assert_int_equal(cdyn_particle_set_fixed(sys, f, true), CDYN_OK);
    size_t n;
    assert_int_equal(cdyn_ground_get_contact_count(sys, g, &n), CDYN_OK);
    assert_int_equal(n, 2); /* a and b; c above, f fixed */
    double d;
    assert_int_equal(cdyn_ground_get_penetration(sys, g, a, &d), CDYN_OK);
    assert_near(d, 0.01, 1e-15);
    assert_int_equal(cdyn_ground_get_penetration(sys, g, c, &d), CDYN_OK);
    assert_near(d, 0.0, 0);
    assert_int_equal(cdyn_ground_get_penetration(sys, g, f, &d), CDYN_OK);
    assert_near(d, 0.3, 1e-15); /* geometric: fixed particles too */
    /* a: N = S 0.01 + 10 * 0.2 = 12; U_t = (1, 0, 0): friction -0.5 * 12 / sqrt(1 + 1e-4)
     * b: N = S 0.02 = 20, at rest: no friction */
    double fn[3], ff[3];
    assert_int_equal(cdyn_ground_get_total_force(sys, g, fn, ff), CDYN_OK);
    assert_near(fn[0], 0, 0);
    assert_near(fn[2], 32.0, 1e-12);
    assert_near(ff[0], -6.0 / sqrt(1.0 + 1e-4), 1e-12);
    assert_near(ff[1], 0, 0);
    assert_near(ff[2], 0, 0);
    assert_int_equal(cdyn_ground_get_total_force(sys, g, NULL, NULL), CDYN_OK);
    double e, pe;
    assert_int_equal(cdyn_ground_get_energy(sys, g, &e), CDYN_OK);
    assert_near(e, 0.5 * S * (1e-4 + 4e-4), 1e-15);
    assert_int_equal(cdyn_system_get_potential_energy(sys, &pe), CDYN_OK);
    assert_near(pe, e, 1e-15);
    /* damping that outruns the spring: the ground never pulls */
    assert_int_equal(cdyn_particle_set_velocity(sys, a, (double[]){0, 0, 5.0}), CDYN_OK);
    assert_int_equal(cdyn_particle_set_position(sys, b, (double[]){1, 0, 1.0}), CDYN_OK);
    assert_int_equal(cdyn_ground_get_total_force(sys, g, fn, ff), CDYN_OK);
    assert_near(fn[2], 0.0, 0);
    assert_int_equal(cdyn_ground_get_contact_count(sys, g, &n), CDYN_OK);
    assert_int_equal(n, 1);
    /* evaluate: NULL outputs allowed */
    assert_int_equal(cdyn_ground_evaluate(sys, g, (double[]){0, 0, 1}, NULL, NULL), CDYN_OK);
    cdyn_system_destroy(sys);
}

/* ---- Jacobian against central differences ---------------------------------- */

static void force_of(cdyn_system *sys, cdyn_ground g, double *F)
{
    double fn[3], ff[3];
    assert_int_equal(cdyn_ground_get_total_force(sys, g, fn, ff), CDYN_OK);
    for (int k = 0; k < 3; k++)
        F[k] = fn[k] + ff[k];
}

/* Central differences of the total force of g (one particle p) against
 * cdyn_ground_get_jacobian, relative to the largest entry. Returns the
 * largest relative deviation. */
static double jacobian_check(cdyn_system *sys, cdyn_ground g, cdyn_particle p, double tol)
{
    int dim = cdyn_system_get_dimension(sys);
    double jx[9], jv[9], x[3], v[3];
    assert_int_equal(cdyn_ground_get_jacobian(sys, g, p, jx, jv), CDYN_OK);
    assert_int_equal(cdyn_particle_get_position(sys, p, x), CDYN_OK);
    assert_int_equal(cdyn_particle_get_velocity(sys, p, v), CDYN_OK);
    double scale_x = 0, scale_v = 0, worst = 0;
    for (int i = 0; i < dim * dim; i++) {
        scale_x = fmax(scale_x, fabs(jx[i]));
        scale_v = fmax(scale_v, fabs(jv[i]));
    }
    assert_true(scale_x > 0);
    for (int which = 0; which < 2; which++) {
        double *base = which ? v : x, *J = which ? jv : jx, scale = which ? scale_v : scale_x;
        if (scale == 0)
            continue;
        for (int c = 0; c < dim; c++) {
            double step = 1e-6 * fmax(1.0, fabs(base[c])), saved = base[c], Fp[3], Fm[3];
            base[c] = saved + step;
            assert_int_equal(which ? cdyn_particle_set_velocity(sys, p, v)
                                   : cdyn_particle_set_position(sys, p, x),
                             CDYN_OK);
            force_of(sys, g, Fp);
            base[c] = saved - step;
            assert_int_equal(which ? cdyn_particle_set_velocity(sys, p, v)
                                   : cdyn_particle_set_position(sys, p, x),
                             CDYN_OK);
            force_of(sys, g, Fm);
            base[c] = saved;
            assert_int_equal(which ? cdyn_particle_set_velocity(sys, p, v)
                                   : cdyn_particle_set_position(sys, p, x),
                             CDYN_OK);
            for (int r = 0; r < dim; r++) {
                double fd = (Fp[r] - Fm[r]) / (2.0 * step);
                double dev = fabs(fd - J[r * dim + c]) / scale;
                worst = fmax(worst, dev);
                if (!(dev <= tol))
                    fail_msg("d%s: entry (%d, %d) analytic %.12g, differences %.12g (rel %.3g)",
                             which ? "F/dv" : "F/dx", r, c, J[r * dim + c], fd, dev);
            }
        }
    }
    return worst;
}

static void test_jacobian(void **state)
{
    (void)state;
    static double buf[61 * 61];
    double pb[101];
    cdyn_heightfield_desc d;
    sine_user u = {0};
    /* (dim, shape) cases; each with damping and friction, a particle below
     * with normal and tangential velocity. */
    for (int dim = 2; dim <= 3; dim++)
        for (int shape = 0; shape < 7; shape++) {
            cdyn_system *sys = make_system(dim);
            cdyn_ground g = 0;
            double x[3] = {0.31, -0.22, 0.17}, v[3] = {0.4, -0.15, 0.25};
            switch (shape) {
            case 0: /* tilted plane */
                assert_int_equal(cdyn_ground_add_plane(sys, (double[]){0.3, 1.0, 0.6}, 0.1, &g),
                                 CDYN_OK);
                break;
            case 1: /* outside sphere: x is just inside the ball */
                assert_int_equal(cdyn_ground_add_sphere(sys, (double[]){0.0, -0.8, 0.1}, 0.7,
                                                        false, &g),
                                 CDYN_OK);
                break;
            case 2: /* inside sphere: x is just outside the bowl */
                assert_int_equal(cdyn_ground_add_sphere(sys, (double[]){0.0, 0.1, 0.0}, 0.3,
                                                        true, &g),
                                 CDYN_OK);
                break;
            case 3: /* bicubic height field (3-D) / profile (2-D), H = x_up - f */
            case 4: /* bilinear */
                if (dim == 3) {
                    hills_desc(&d, buf, 61, 0.1,
                               shape == 3 ? CDYN_HEIGHTFIELD_BICUBIC : CDYN_HEIGHTFIELD_BILINEAR);
                    x[2] = hills(x[0], x[1]) - 0.012;
                } else {
                    profile_desc(&d, pb, 101, -5.0, 0.1, sine_profile,
                                 shape == 3 ? CDYN_HEIGHTFIELD_BICUBIC
                                            : CDYN_HEIGHTFIELD_BILINEAR);
                    x[1] = sine_profile(x[0]) - 0.012;
                }
                assert_int_equal(cdyn_ground_add_heightfield(sys, &d, &g), CDYN_OK);
                break;
            case 5: /* callback H = x_last - 0.1 sin x0 */
                x[dim - 1] = 0.1 * sin(x[0]) - 0.012;
                assert_int_equal(cdyn_ground_add_callback(sys, sine_ground, &u, &g), CDYN_OK);
                break;
            case 6: /* height field, up_axis 0 (x = f(...)) */
                if (dim == 3) {
                    hills_desc(&d, buf, 61, 0.1, CDYN_HEIGHTFIELD_BICUBIC);
                    d.up_axis = 0;
                    x[0] = hills(x[1], x[2]) - 0.012;
                } else {
                    profile_desc(&d, pb, 101, -5.0, 0.1, sine_profile, CDYN_HEIGHTFIELD_BICUBIC);
                    d.up_axis = 0;
                    x[0] = sine_profile(x[1]) - 0.012;
                }
                assert_int_equal(cdyn_ground_add_heightfield(sys, &d, &g), CDYN_OK);
                break;
            }
            cdyn_particle p = add_particle(sys, 1.0, x, v);
            set_contact(sys, g, 2e3, 7.0, 0.6);
            assert_int_equal(cdyn_ground_set_friction_speed(sys, g, 0.05), CDYN_OK);
            size_t c;
            assert_int_equal(cdyn_ground_get_contact_count(sys, g, &c), CDYN_OK);
            if (c != 1)
                fail_msg("%d-D shape %d: the particle is not below the ground", dim, shape);
            double tol = shape == 5 ? 1e-5 : 1e-6;
            jacobian_check(sys, g, p, tol);
            /* slow tangential motion (inside the regularization) */
            double vs[3] = {0.01, -0.004, 0.003};
            assert_int_equal(cdyn_particle_set_velocity(sys, p, vs), CDYN_OK);
            jacobian_check(sys, g, p, tol);
            /* a turning ground with a moving surface: friction and damping
             * on the velocity relative to the material, whose velocity
             * changes with x (omega x (x - c)) */
            cdyn_motion_desc turn;
            cdyn_motion_desc_init(&turn, CDYN_MOTION_ROTATION);
            turn.angular_velocity = 1.7;
            memcpy(turn.center, (double[]){0.1, 0.0, -0.2}, sizeof turn.center);
            memcpy(turn.axis, (double[]){0.3, 0.5, 1.0}, sizeof turn.axis);
            assert_int_equal(cdyn_ground_set_motion(sys, g, &turn), CDYN_OK);
            assert_int_equal(cdyn_ground_set_surface_velocity(sys, g, (double[]){0.2, 0.1, -0.05}),
                             CDYN_OK);
            jacobian_check(sys, g, p, tol);
            assert_int_equal(cdyn_ground_set_motion(sys, g, NULL), CDYN_OK);
            assert_int_equal(cdyn_ground_set_surface_velocity(sys, g, (double[]){0, 0, 0}),
                             CDYN_OK);
            /* no friction, no damping: the penalty force alone */
            set_contact(sys, g, 2e3, 0.0, 0.0);
            jacobian_check(sys, g, p, tol);
            /* above the ground, fixed, or damping outrunning the spring: zero */
            double jx[9], jv[9];
            set_contact(sys, g, 2e3, 7.0, 0.6);
            assert_int_equal(cdyn_particle_set_fixed(sys, p, true), CDYN_OK);
            assert_int_equal(cdyn_ground_get_jacobian(sys, g, p, jx, jv), CDYN_OK);
            for (int i = 0; i < dim * dim; i++)
                assert_true(jx[i] == 0 && jv[i] == 0);
            cdyn_system_destroy(sys);
        }
    /* damping saturated: N = 0, zero Jacobian and zero force around */
    cdyn_system *sys = make_system(2);
    cdyn_ground g;
    assert_int_equal(cdyn_ground_add_plane(sys, (double[]){0, 1}, 0.0, &g), CDYN_OK);
    set_contact(sys, g, 1e3, 100.0, 0.5);
    cdyn_particle p = add_particle(sys, 1.0, (double[]){0, -0.01}, (double[]){0.3, 1.0});
    double jx[4], jv[4];
    assert_int_equal(cdyn_ground_get_jacobian(sys, g, p, jx, NULL), CDYN_OK);
    assert_int_equal(cdyn_ground_get_jacobian(sys, g, p, NULL, jv), CDYN_OK);
    for (int i = 0; i < 4; i++)
        assert_true(jx[i] == 0 && jv[i] == 0);
    cdyn_system_destroy(sys);
}

/* ---- bad input ---------------------------------------------------------------- */

/* What the public API shows of a system with grounds g[0..n). */
typedef struct digest {
    bool valid[8];
    double settings[8][4];
    double x[6], v[6], t;
} digest;

static void take_digest(cdyn_system *sys, const cdyn_ground *g, int n, digest *dg)
{
    memset(dg, 0, sizeof *dg);
    for (int i = 0; i < n; i++) {
        dg->valid[i] = cdyn_ground_is_valid(sys, g[i]);
        if (!dg->valid[i])
            continue;
        assert_int_equal(cdyn_ground_get_stiffness(sys, g[i], &dg->settings[i][0]), CDYN_OK);
        assert_int_equal(cdyn_ground_get_damping(sys, g[i], &dg->settings[i][1]), CDYN_OK);
        assert_int_equal(cdyn_ground_get_friction(sys, g[i], &dg->settings[i][2]), CDYN_OK);
        assert_int_equal(cdyn_ground_get_friction_speed(sys, g[i], &dg->settings[i][3]),
                         CDYN_OK);
    }
    size_t count;
    assert_int_equal(cdyn_system_get_index_count(sys, &count), CDYN_OK);
    size_t len = count * (size_t)cdyn_system_get_dimension(sys);
    assert_true(len <= 6);
    assert_int_equal(cdyn_system_get_positions(sys, dg->x, 6), CDYN_OK);
    assert_int_equal(cdyn_system_get_velocities(sys, dg->v, 6), CDYN_OK);
    assert_int_equal(cdyn_system_get_time(sys, &dg->t), CDYN_OK);
}

#define EXPECT(call, status)                                                       \
    do {                                                                           \
        cdyn_status st_ = (call);                                                  \
        if (st_ != (status))                                                       \
            fail_msg("%s returned %s, want %s", #call, cdyn_status_name(st_),      \
                     cdyn_status_name(status));                                    \
        if (sys && st_ != CDYN_OK)                                                 \
            assert_true(strlen(cdyn_system_last_error(sys)) > 0);                  \
    } while (0)

static void test_bad_input(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        cdyn_system *sys = make_system(dim);
        cdyn_particle p = add_particle(sys, 1.0, (double[]){0.1, -0.01, 0.2}, NULL);
        cdyn_ground g[2], out = 0;
        assert_int_equal(cdyn_ground_add_plane(sys, (double[]){0, 1, 0}, 0.0, &g[0]), CDYN_OK);
        assert_int_equal(cdyn_ground_add_sphere(sys, (double[]){0, 0, 0}, 1.0, false, &g[1]),
                         CDYN_OK);
        digest before, after;
        take_digest(sys, g, 2, &before);
        const double nan = NAN, inf = INFINITY;
        /* planes */
        EXPECT(cdyn_ground_add_plane(sys, (double[]){0, 0, 0}, 0.0, &out),
               CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_add_plane(sys, (double[]){nan, 1, 0}, 0.0, &out),
               CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_add_plane(sys, (double[]){0, inf, 0}, 0.0, &out),
               CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_add_plane(sys, (double[]){0, 1, 0}, nan, &out),
               CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_add_plane(sys, (double[]){0, 1e-300, 0}, 1e300, &out),
               CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_add_plane(sys, NULL, 0.0, &out), CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_add_plane(sys, (double[]){0, 1, 0}, 0.0, NULL),
               CDYN_ERR_INVALID_ARGUMENT);
        assert_int_equal(cdyn_ground_add_plane(NULL, (double[]){0, 1, 0}, 0.0, &out),
                         CDYN_ERR_INVALID_ARGUMENT);
        /* spheres */
        EXPECT(cdyn_ground_add_sphere(sys, (double[]){0, 0, 0}, 0.0, false, &out),
               CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_add_sphere(sys, (double[]){0, 0, 0}, -1.0, true, &out),
               CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_add_sphere(sys, (double[]){0, 0, 0}, nan, false, &out),
               CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_add_sphere(sys, (double[]){0, 0, 0}, inf, false, &out),
               CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_add_sphere(sys, (double[]){nan, 0, 0}, 1.0, false, &out),
               CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_add_sphere(sys, NULL, 1.0, false, &out), CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_add_sphere(sys, (double[]){0, 0, 0}, 1.0, false, NULL),
               CDYN_ERR_INVALID_ARGUMENT);
        /* height fields */
        double samples[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
        cdyn_heightfield_desc d;
        cdyn_heightfield_desc_init(&d);
        d.nx = 4;
        d.ny = dim == 3 ? 4 : 1;
        d.samples = samples;
        cdyn_ground tmp;
        assert_int_equal(cdyn_ground_add_heightfield(sys, &d, &tmp), CDYN_OK); /* good */
        assert_int_equal(cdyn_ground_remove(sys, tmp), CDYN_OK);
        cdyn_heightfield_desc bad = d;
        bad.nx = 1;
        EXPECT(cdyn_ground_add_heightfield(sys, &bad, &out), CDYN_ERR_INVALID_ARGUMENT);
        bad = d;
        bad.ny = dim == 3 ? 1 : 2; /* 3-D: grid below 2 x 2; 2-D: not a profile */
        EXPECT(cdyn_ground_add_heightfield(sys, &bad, &out), CDYN_ERR_INVALID_ARGUMENT);
        bad = d;
        bad.ny = 0;
        EXPECT(cdyn_ground_add_heightfield(sys, &bad, &out), CDYN_ERR_INVALID_ARGUMENT);
        double nan_samples[16];
        memcpy(nan_samples, samples, sizeof samples);
        nan_samples[dim == 3 ? 9 : 2] = nan;
        bad = d;
        bad.samples = nan_samples;
        EXPECT(cdyn_ground_add_heightfield(sys, &bad, &out), CDYN_ERR_INVALID_ARGUMENT);
        bad = d;
        bad.samples = NULL;
        EXPECT(cdyn_ground_add_heightfield(sys, &bad, &out), CDYN_ERR_INVALID_ARGUMENT);
        bad = d;
        bad.spacing[0] = 0.0;
        EXPECT(cdyn_ground_add_heightfield(sys, &bad, &out), CDYN_ERR_INVALID_ARGUMENT);
        bad = d;
        bad.spacing[0] = -1.0;
        EXPECT(cdyn_ground_add_heightfield(sys, &bad, &out), CDYN_ERR_INVALID_ARGUMENT);
        bad = d;
        bad.origin[0] = inf;
        EXPECT(cdyn_ground_add_heightfield(sys, &bad, &out), CDYN_ERR_INVALID_ARGUMENT);
        bad = d;
        bad.interpolation = (cdyn_heightfield_interpolation)7;
        EXPECT(cdyn_ground_add_heightfield(sys, &bad, &out), CDYN_ERR_INVALID_ARGUMENT);
        bad = d;
        bad.up_axis = 3;
        EXPECT(cdyn_ground_add_heightfield(sys, &bad, &out), CDYN_ERR_INVALID_ARGUMENT);
        bad = d;
        bad.up_axis = -1;
        EXPECT(cdyn_ground_add_heightfield(sys, &bad, &out), CDYN_ERR_INVALID_ARGUMENT);
        bad = d;
        bad.size = 8;
        EXPECT(cdyn_ground_add_heightfield(sys, &bad, &out), CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_add_heightfield(sys, NULL, &out), CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_add_heightfield(sys, &d, NULL), CDYN_ERR_INVALID_ARGUMENT);
        /* callbacks */
        EXPECT(cdyn_ground_add_callback(sys, NULL, NULL, &out), CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_add_callback(sys, sine_ground, NULL, NULL),
               CDYN_ERR_INVALID_ARGUMENT);
        /* settings */
        const double bad_values[] = {-1.0, -1e-300, nan, inf, -inf};
        for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++) {
            double b = bad_values[i];
            EXPECT(cdyn_ground_set_stiffness(sys, g[0], b), CDYN_ERR_INVALID_ARGUMENT);
            EXPECT(cdyn_ground_set_damping(sys, g[0], b), CDYN_ERR_INVALID_ARGUMENT);
            EXPECT(cdyn_ground_set_friction(sys, g[0], b), CDYN_ERR_INVALID_ARGUMENT);
            EXPECT(cdyn_ground_set_friction_speed(sys, g[0], b), CDYN_ERR_INVALID_ARGUMENT);
        }
        EXPECT(cdyn_ground_set_friction_speed(sys, g[0], 0.0), CDYN_ERR_INVALID_ARGUMENT);
        assert_int_equal(cdyn_ground_set_stiffness(NULL, g[0], 1.0), CDYN_ERR_INVALID_ARGUMENT);
        /* getters and queries with NULL outputs, bad points */
        EXPECT(cdyn_ground_get_stiffness(sys, g[0], NULL), CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_get_kind(sys, g[0], NULL), CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_get_contact_count(sys, g[0], NULL), CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_get_penetration(sys, g[0], p, NULL), CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_get_energy(sys, g[0], NULL), CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_evaluate(sys, g[0], NULL, NULL, NULL), CDYN_ERR_INVALID_ARGUMENT);
        EXPECT(cdyn_ground_evaluate(sys, g[0], (double[]){0, nan, 0}, NULL, NULL),
               CDYN_ERR_INVALID_ARGUMENT);
        assert_int_equal(cdyn_ground_get_total_force(NULL, g[0], NULL, NULL),
                         CDYN_ERR_INVALID_ARGUMENT);
        assert_int_equal(cdyn_ground_get_jacobian(NULL, g[0], p, NULL, NULL),
                         CDYN_ERR_INVALID_ARGUMENT);
        assert_false(cdyn_ground_is_valid(NULL, g[0]));
        assert_int_equal(out, 0); /* never written by a failed add */
        take_digest(sys, g, 2, &after);
        assert_memory_equal(&before, &after, sizeof before);
        /* a failed add takes no slot: the next ground reuses slot 2 (freed
         * by the removal above; the low 32 bits of a handle are slot + 1,
         * docs/concepts.md) */
        cdyn_ground next;
        assert_int_equal(cdyn_ground_add_plane(sys, (double[]){0, 1, 0}, -5.0, &next), CDYN_OK);
        assert_int_equal(next & 0xffffffffu, 3);
        assert_true(next != tmp); /* a new generation */
        cdyn_system_destroy(sys);
    }
}

/* ---- handles ------------------------------------------------------------------ */

static void test_handles(void **state)
{
    (void)state;
    cdyn_system *sys = make_system(3), *other = make_system(3);
    cdyn_particle p = add_particle(sys, 1.0, (double[]){0, 0, 0}, NULL);
    cdyn_force grav = add_gravity(sys, (double[]){0, 0, -G});
    double v, d, fn[3];
    size_t n;
    cdyn_ground_kind kind;
    /* no ground yet: every handle is refused */
    assert_int_equal(cdyn_ground_get_stiffness(sys, 0, &v), CDYN_ERR_INVALID_HANDLE);
    assert_int_equal(cdyn_ground_remove(sys, p), CDYN_ERR_INVALID_HANDLE);
    cdyn_ground g, og;
    assert_int_equal(cdyn_ground_add_plane(sys, (double[]){0, 0, 1}, 0.0, &g), CDYN_OK);
    assert_int_equal(cdyn_ground_add_plane(other, (double[]){0, 0, 1}, 0.0, &og), CDYN_OK);
    assert_true(g != 0);
    const cdyn_ground bad[] = {0, (cdyn_ground)p, (cdyn_ground)grav, og, g + 1};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cdyn_ground b = bad[i];
        if (b == og && og == g)
            continue; /* salts collide with probability 1/4096: nothing to test */
        assert_false(cdyn_ground_is_valid(sys, b));
        assert_int_equal(cdyn_ground_remove(sys, b), CDYN_ERR_INVALID_HANDLE);
        assert_int_equal(cdyn_ground_get_kind(sys, b, &kind), CDYN_ERR_INVALID_HANDLE);
        assert_int_equal(cdyn_ground_set_stiffness(sys, b, 1.0), CDYN_ERR_INVALID_HANDLE);
        assert_int_equal(cdyn_ground_get_damping(sys, b, &v), CDYN_ERR_INVALID_HANDLE);
        assert_int_equal(cdyn_ground_set_friction(sys, b, 0.1), CDYN_ERR_INVALID_HANDLE);
        assert_int_equal(cdyn_ground_get_friction_speed(sys, b, &v), CDYN_ERR_INVALID_HANDLE);
        assert_int_equal(cdyn_ground_get_contact_count(sys, b, &n), CDYN_ERR_INVALID_HANDLE);
        assert_int_equal(cdyn_ground_get_penetration(sys, b, p, &d), CDYN_ERR_INVALID_HANDLE);
        assert_int_equal(cdyn_ground_get_total_force(sys, b, fn, NULL), CDYN_ERR_INVALID_HANDLE);
        assert_int_equal(cdyn_ground_get_energy(sys, b, &v), CDYN_ERR_INVALID_HANDLE);
        assert_int_equal(cdyn_ground_get_jacobian(sys, b, p, NULL, NULL),
                         CDYN_ERR_INVALID_HANDLE);
        assert_int_equal(cdyn_ground_evaluate(sys, b, (double[]){0, 0, 0}, &v, NULL),
                         CDYN_ERR_INVALID_HANDLE);
    }
    /* a particle handle that is a ground, or stale */
    assert_int_equal(cdyn_ground_get_penetration(sys, g, (cdyn_particle)g, &d),
                     CDYN_ERR_INVALID_HANDLE);
    cdyn_particle q = add_particle(sys, 1.0, (double[]){0, 0, 1}, NULL);
    assert_int_equal(cdyn_particle_remove(sys, q), CDYN_OK);
    assert_int_equal(cdyn_ground_get_penetration(sys, g, q, &d), CDYN_ERR_STALE_HANDLE);
    assert_int_equal(cdyn_ground_get_jacobian(sys, g, q, NULL, NULL), CDYN_ERR_STALE_HANDLE);
    /* stale: removed; the slot is reused with a new generation */
    assert_int_equal(cdyn_ground_remove(sys, g), CDYN_OK);
    assert_int_equal(cdyn_ground_remove(sys, g), CDYN_ERR_STALE_HANDLE);
    assert_int_equal(cdyn_ground_get_stiffness(sys, g, &v), CDYN_ERR_STALE_HANDLE);
    assert_int_equal(cdyn_ground_get_total_force(sys, g, fn, NULL), CDYN_ERR_STALE_HANDLE);
    cdyn_ground g2;
    assert_int_equal(cdyn_ground_add_sphere(sys, (double[]){0, 0, 0}, 1.0, true, &g2), CDYN_OK);
    assert_true(g2 != g);
    assert_false(cdyn_ground_is_valid(sys, g));
    assert_true(cdyn_ground_is_valid(sys, g2));
    assert_int_equal(cdyn_ground_get_kind(sys, g2, &kind), CDYN_OK);
    assert_int_equal(kind, CDYN_GROUND_SPHERE);
    assert_int_equal(cdyn_ground_set_stiffness(sys, g, 1.0), CDYN_ERR_STALE_HANDLE);
    cdyn_system_destroy(sys);
    cdyn_system_destroy(other);
}

/* ---- memory --------------------------------------------------------------------- */

/* Adds one ground of each kind, then enough planes to grow the pool, each
 * add retried after a failure. Returns the number of adds done. */
typedef struct oom_run {
    cdyn_ground g[16];
    int n;
} oom_run;

static cdyn_status add_nth(cdyn_system *sys, int i, cdyn_ground *out)
{
    static double grid[5 * 4];
    static double prof[6];
    for (int k = 0; k < 20; k++)
        grid[k] = 0.1 * (double)(k % 5) - 0.05 * (double)(k / 5);
    for (int k = 0; k < 6; k++)
        prof[k] = 0.1 * (double)k * (double)k;
    int dim = cdyn_system_get_dimension(sys);
    cdyn_heightfield_desc d;
    cdyn_heightfield_desc_init(&d);
    d.nx = dim == 3 ? 5 : 6;
    d.ny = dim == 3 ? 4 : 1;
    d.samples = dim == 3 ? grid : prof;
    switch (i) {
    case 0:
        return cdyn_ground_add_heightfield(sys, &d, out); /* the very first: store creation */
    case 1:
        return cdyn_ground_add_sphere(sys, (double[]){0, 0, 0}, 2.0, true, out);
    case 2:
        d.interpolation = CDYN_HEIGHTFIELD_BILINEAR;
        return cdyn_ground_add_heightfield(sys, &d, out);
    case 3:
        return cdyn_ground_add_callback(sys, sine_ground, NULL, out);
    default:
        return cdyn_ground_add_plane(sys, (double[]){0, 1, 0}, -0.1 * (double)i, out);
    }
}

static void run_oom(int dim, size_t fail_at, oom_run *run, size_t *n_allocs, double *energy)
{
    ts_counting_alloc ca = {0};
    cdyn_allocator a = ts_counting_allocator(&ca);
    cdyn_system *sys = NULL;
    assert_int_equal(cdyn_system_create_with_allocator(dim, &a, &sys), CDYN_OK);
    cdyn_particle p = 0;
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0.2, -0.05, 0.1}, NULL, &p),
                     CDYN_OK);
    size_t base = ca.allocs;
    if (fail_at)
        ca.fail_at = base + fail_at;
    run->n = 0;
    int failures = 0;
    for (int i = 0; i < 12; i++) {
        cdyn_ground out = 0;
        size_t live = ca.live_bytes;
        double e0, e1;
        assert_int_equal(cdyn_system_get_potential_energy(sys, &e0), CDYN_OK);
        cdyn_status st = add_nth(sys, i, &out);
        if (st == CDYN_ERR_NO_MEMORY) {
            failures++;
            assert_true(ca.failed);
            assert_int_equal(out, 0);
            assert_true(strlen(cdyn_system_last_error(sys)) > 0);
            /* nothing changed: no memory kept, earlier grounds intact, the
             * energy the same */
            assert_int_equal(ca.live_bytes, live);
            for (int k = 0; k < run->n; k++)
                assert_true(cdyn_ground_is_valid(sys, run->g[k]));
            assert_int_equal(cdyn_system_get_potential_energy(sys, &e1), CDYN_OK);
            assert_true(e0 == e1);
            ca.fail_at = 0;
            st = add_nth(sys, i, &out);
        }
        assert_int_equal(st, CDYN_OK);
        run->g[run->n++] = out;
    }
    *n_allocs = ca.allocs - base - (size_t)failures;
    ca.fail_at = 0;
    assert_int_equal(failures, fail_at ? 1 : 0);
    for (int i = 0; i < 50; i++)
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    assert_int_equal(cdyn_system_get_potential_energy(sys, energy), CDYN_OK);
    assert_int_equal(cdyn_ground_remove(sys, run->g[0]), CDYN_OK);
    cdyn_system_destroy(sys);
    assert_int_equal(ca.live_bytes, 0);
    assert_int_equal(ca.allocs, ca.frees + (size_t)ca.failed);
}

static void test_oom(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        oom_run ref, run;
        size_t total, n;
        double e_ref, e;
        run_oom(dim, 0, &ref, &total, &e_ref);
        assert_true(total >= 6); /* store, pool, tables, growth */
        for (size_t k = 1; k <= total; k++) {
            run_oom(dim, k, &run, &n, &e);
            assert_int_equal(run.n, ref.n);
            /* the same slots and generations (bits 0..47; the salt above
             * differs between systems) */
            for (int i = 0; i < ref.n; i++)
                assert_int_equal(run.g[i] & 0xffffffffffffu, ref.g[i] & 0xffffffffffffu);
            assert_true(e == e_ref);
        }
    }
}

/* No allocation in a step, whatever the grounds do; deterministic. */
static void test_no_alloc_and_determinism(void **state)
{
    (void)state;
    double first[6] = {0};
    for (int run = 0; run < 2; run++) {
        ts_counting_alloc ca = {0};
        cdyn_allocator a = ts_counting_allocator(&ca);
        cdyn_system *sys = NULL;
        assert_int_equal(cdyn_system_create_with_allocator(3, &a, &sys), CDYN_OK);
        add_particle(sys, 1.0, (double[]){0, 0, 0.3}, (double[]){1, 0.5, 0});
        add_particle(sys, 2.0, (double[]){0.5, 0.1, 0.6}, (double[]){-1, 0.2, 0});
        add_gravity(sys, (double[]){0, 0, -G});
        static double buf[61 * 61];
        cdyn_heightfield_desc d;
        hills_desc(&d, buf, 61, 0.1, CDYN_HEIGHTFIELD_BICUBIC);
        cdyn_ground g[3];
        sine_user u = {0};
        assert_int_equal(cdyn_ground_add_heightfield(sys, &d, &g[0]), CDYN_OK);
        assert_int_equal(cdyn_ground_add_sphere(sys, (double[]){0, 0, 0}, 3.0, true, &g[1]),
                         CDYN_OK);
        assert_int_equal(cdyn_ground_add_callback(sys, sine_ground, &u, &g[2]), CDYN_OK);
        for (int i = 0; i < 3; i++)
            set_contact(sys, g[i], 3e3, 10.0, 0.4);
        assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4), CDYN_OK);
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK); /* sizes the workspace */
        size_t before = ca.allocs;
        for (int i = 0; i < 1000; i++)
            assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
        assert_int_equal(ca.allocs, before);
        double x[6];
        assert_int_equal(cdyn_system_get_positions(sys, x, 6), CDYN_OK);
        if (run == 0)
            memcpy(first, x, sizeof x);
        else
            assert_memory_equal(first, x, sizeof x);
        cdyn_system_destroy(sys);
        assert_int_equal(ca.live_bytes, 0);
    }
}

/* The coefficient of restitution of the ground's law: a particle meeting a
 * plane at speed v leaves it at e v with
 *   e = exp(-zeta (pi - 2 asin zeta) / sqrt(1 - zeta^2))   (zeta < 1),
 *   e = exp(-2 zeta acosh zeta / sqrt(zeta^2 - 1))          (zeta > 1),
 * zeta = c / (2 sqrt(m S)): the clamp N >= 0 lets it go before the
 * penetration is back to zero, when S d + c d' = 0 (docs/ground.md
 * section 2), not the textbook exp(-pi zeta / sqrt(1 - zeta^2)) of a
 * dashpot that also pulls. No gravity, no friction, RK4 with 3000 steps
 * per contact time. */
static double restitution_of(double zeta)
{
    return zeta < 1 ? exp(-zeta * (TS_PI - 2 * asin(zeta)) / sqrt(1 - zeta * zeta))
                    : exp(-2 * zeta * acosh(zeta) / sqrt(zeta * zeta - 1));
}

static void test_restitution(void **state)
{
    (void)state;
    const double zetas[] = {0.02, 0.1, 0.3, 0.6, 0.9, 1.5};
    const double m = 2.0, S = 2e4, v_in = 0.7;
    for (size_t k = 0; k < sizeof zetas / sizeof zetas[0]; k++) {
        cdyn_system *sys;
        assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
        assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4), CDYN_OK);
        cdyn_particle p;
        assert_int_equal(cdyn_particle_add(sys, m, (double[]){0, 0.002}, (double[]){0.1, -v_in}, &p),
                         CDYN_OK);
        cdyn_ground g;
        assert_int_equal(cdyn_ground_add_plane(sys, (double[]){0, 1}, 0, &g), CDYN_OK);
        assert_int_equal(cdyn_ground_set_stiffness(sys, g, S), CDYN_OK);
        assert_int_equal(cdyn_ground_set_damping(sys, g, 2 * zetas[k] * sqrt(m * S)), CDYN_OK);
        const double dt = (TS_PI / sqrt(S / m)) / 3000;
        double x[2] = {0, 0}, v[2] = {0, 0};
        int below = 0;
        for (int i = 0; i < 100000; i++) {
            assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
            cdyn_particle_get_position(sys, p, x);
            cdyn_particle_get_velocity(sys, p, v);
            below |= x[1] < 0;
            if (below && x[1] > 0.001)
                break;
        }
        double e = v[1] / v_in, want = restitution_of(zetas[k]);
        print_message("zeta %.2f: e = %.6f, formula %.6f, textbook %.6f\n", zetas[k], e, want,
                      zetas[k] < 1 ? exp(-TS_PI * zetas[k] / sqrt(1 - zetas[k] * zetas[k])) : 0.0);
        assert_near(e, want, 2e-4);
        assert_near(v[0], 0.1, 1e-12); /* no friction: the tangential speed stays */
        cdyn_system_destroy(sys);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes_evaluate),
        cmocka_unit_test(test_settings),
        cmocka_unit_test(test_rest_on_plane),
        cmocka_unit_test(test_rest_on_tilted_plane),
        cmocka_unit_test(test_bounce_on_sphere),
        cmocka_unit_test(test_bounce_on_heightfield),
        cmocka_unit_test(test_several_grounds),
        cmocka_unit_test(test_callback_equals_builtin),
        cmocka_unit_test(test_callback_errors),
        cmocka_unit_test(test_callback_busy),
        cmocka_unit_test(test_queries),
        cmocka_unit_test(test_jacobian),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_handles),
        cmocka_unit_test(test_oom),
        cmocka_unit_test(test_no_alloc_and_determinism),
        cmocka_unit_test(test_restitution),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
