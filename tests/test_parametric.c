/* Particles on curves and surfaces in generalized coordinates (issue 4):
 * the bead on x^2 + 100 y = 0 both ways, its closed-form equation of motion, the bead on
 * a circle against the rigid pendulum, the spherical pendulum's invariants,
 * a pendulum hanging from a bead on a wire against its Lagrangian equations,
 * ends, release, setters and bad input. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

static const double G = 9.81;

static cdyn_system *make(int dim, cdyn_integrator integrator)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(dim, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, integrator), CDYN_OK);
    return sys;
}

/* The wire y = -x^2 / 100 as a parametric curve (q, -q^2/100). */
static void seed_parabola(cdyn_curve_desc *d)
{
    cdyn_curve_desc_init(d, CDYN_CURVE_PARABOLA);
    d->axis1[0] = 1, d->axis1[1] = 0;
    d->axis2[0] = 0, d->axis2[1] = 1;
    d->coefficient = -0.01;
}

static int parabola_c(const cdyn_system *sys, double t, int dim, const double *x, double *c,
                 double *grad, double *hess, double *c_t, double *grad_t, double *c_tt,
                 void *user)
{
    (void)sys, (void)t, (void)c_t, (void)grad_t, (void)c_tt;
    (void)dim, (void)user;
    *c = x[0] * x[0] + 100.0 * x[1];
    grad[0] = 2.0 * x[0], grad[1] = 100.0;
    hess[0] = 2.0, hess[1] = hess[2] = hess[3] = 0.0;
    return 0;
}

/* Gravity along +y (screen coordinates), so the wire is a bowl. */
static cdyn_system *bead(bool parametric, cdyn_particle *p, cdyn_constraint *c)
{
    cdyn_system *sys = make(2, CDYN_INTEGRATOR_RK4);
    cdyn_particle_add(sys, 1.0, (double[]){50.0, -25.0}, NULL, p);
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, G}, &g);
    if (parametric) {
        cdyn_curve_desc d;
        seed_parabola(&d);
        assert_int_equal(cdyn_constraint_add_on_curve(sys, *p, &d, c), CDYN_OK);
    } else {
        ts_set_gains(sys, 0, 0);
        assert_int_equal(cdyn_constraint_add_implicit(sys, *p, parabola_c, NULL, c), CDYN_OK);
    }
    return sys;
}

static void test_bead_on_parabola_both_ways(void **state)
{
    (void)state;
    cdyn_particle pp, pi;
    cdyn_constraint cp, ci;
    cdyn_system *par = bead(true, &pp, &cp), *imp = bead(false, &pi, &ci);
    double worst_diff = 0, worst_on_curve = 0, c_first = 0, c_last = 0;
    const int steps = 5000;
    for (int i = 1; i <= steps; i++) {
        assert_int_equal(cdyn_system_step(par, 1e-3), CDYN_OK);
        assert_int_equal(cdyn_system_step(imp, 1e-3), CDYN_OK);
        double a[2], b[2];
        cdyn_particle_get_position(par, pp, a);
        cdyn_particle_get_position(imp, pi, b);
        worst_diff = fmax(worst_diff, hypot(a[0] - b[0], a[1] - b[1]));
        /* On the curve to round-off: |y + x^2/100| relative to |y|. */
        worst_on_curve = fmax(worst_on_curve, fabs(a[1] + a[0] * a[0] / 100.0) / (1.0 + fabs(a[1])));
        double c = fabs(b[0] * b[0] + 100 * b[1]);
        if (i == 100)
            c_first = c;
        c_last = c;
    }
    double q, qd;
    assert_int_equal(cdyn_constraint_get_coordinates(par, cp, &q, &qd), CDYN_OK);
    double x[2];
    cdyn_particle_get_position(par, pp, x);
    assert_true(q == x[0]);
    print_message("bead on the parabola over 5 s: parametric vs implicit %.3e; parametric off the curve %.3e; "
                  "implicit |c| %.3e at 0.1 s, %.3e at 5 s\n",
                  worst_diff, worst_on_curve, c_first, c_last);
    assert_true(worst_diff < 1e-8);
    assert_true(worst_on_curve < 1e-15);
    assert_true(c_last > c_first); /* the implicit form drifts without feedback */
    cdyn_system_destroy(par);
    cdyn_system_destroy(imp);
}

/* q'' = (-q q'^2 - 50 g q) / (2500 + q^2) for gravity along +y. */
static void test_bead_on_parabola_equation_of_motion(void **state)
{
    (void)state;
    cdyn_particle p;
    cdyn_constraint c;
    cdyn_system *sys = bead(true, &p, &c);
    uint64_t seed = 17;
    for (int i = 0; i < 50; i++) {
        double q = 80 * ts_rand_sym(&seed), qd = 30 * ts_rand_sym(&seed);
        assert_int_equal(cdyn_constraint_set_coordinates(sys, c, &q, &qd), CDYN_OK);
        double a[2], v[2];
        assert_int_equal(cdyn_system_evaluate(sys, a, 2), CDYN_OK);
        cdyn_particle_get_velocity(sys, p, v);
        assert_near(v[0], qd, 1e-13 * (1 + fabs(qd)));
        double want = (-q * qd * qd - 50 * G * q) / (2500 + q * q);
        assert_near(a[0], want, 1e-12 * (1 + fabs(want)));
        /* y = -x^2/100: y'' = -(x x'' + x'^2) / 50. */
        assert_near(a[1], -(q * want + qd * qd) / 50, 1e-12 * (1 + fabs(a[1])));
    }
    cdyn_system_destroy(sys);
}

/* A bead on a vertical circle of radius L is the rigid pendulum. */
static void test_circle_is_pendulum(void **state)
{
    (void)state;
    const double L = 1.2, th = 1.1;
    cdyn_system *a = make(2, CDYN_INTEGRATOR_RK4), *b = make(2, CDYN_INTEGRATOR_RK4);
    cdyn_particle pa, pb;
    double x0[2] = {L * sin(th), -L * cos(th)};
    cdyn_particle_add(a, 0.8, x0, NULL, &pa);
    cdyn_particle_add(b, 0.8, x0, NULL, &pb);
    cdyn_force g;
    cdyn_force_add_gravity(a, (double[]){0, -G}, &g);
    cdyn_force_add_gravity(b, (double[]){0, -G}, &g);
    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, CDYN_CURVE_CIRCLE);
    d.radius = L;
    d.axis1[0] = 0, d.axis1[1] = -1; /* q = 0 hangs down, q = angle from the vertical */
    d.axis2[0] = 1, d.axis2[1] = 0;
    cdyn_constraint c;
    assert_int_equal(cdyn_constraint_add_on_curve(a, pa, &d, &c), CDYN_OK);
    double q;
    cdyn_constraint_get_coordinates(a, c, &q, NULL);
    assert_near(q, th, 1e-14);
    cdyn_constraint rod;
    cdyn_constraint_add_anchor(b, pb, (double[]){0, 0}, L, &rod);
    double worst = 0;
    for (int i = 0; i < 3000; i++) {
        assert_int_equal(cdyn_system_step(a, 1e-3), CDYN_OK);
        assert_int_equal(cdyn_system_step(b, 1e-3), CDYN_OK);
        double xa[2], xb[2];
        cdyn_particle_get_position(a, pa, xa);
        cdyn_particle_get_position(b, pb, xb);
        worst = fmax(worst, hypot(xa[0] - xb[0], xa[1] - xb[1]));
    }
    /* The normal force is the rod's tension: compare at the end. */
    cdyn_system_evaluate(a, NULL, 0);
    cdyn_system_evaluate(b, NULL, 0);
    double fa[2], fb[2];
    cdyn_constraint_get_force(a, c, pa, fa);
    cdyn_constraint_get_force(b, rod, pb, fb);
    print_message("circle vs anchored rod over 3 s: %.3e; normal force %.9f vs %.9f\n", worst,
                  hypot(fa[0], fa[1]), hypot(fb[0], fb[1]));
    assert_true(worst < 1e-9);
    assert_near(fa[0], fb[0], 1e-8);
    assert_near(fa[1], fb[1], 1e-8);
    cdyn_system_destroy(a);
    cdyn_system_destroy(b);
}

/* The spherical pendulum: energy and L_z are conserved; RK4's errors fall
 * with dt^4. */
static void spherical_errors(double dt, double *de, double *dl)
{
    const double R = 1.0, m = 1.3;
    cdyn_system *sys = make(3, CDYN_INTEGRATOR_RK4);
    cdyn_particle p;
    double x0[3] = {R * sin(1.0), 0, -R * cos(1.0)}, v0[3] = {0, 1.7, 0};
    cdyn_particle_add(sys, m, x0, v0, &p);
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, 0, -G}, &g);
    cdyn_surface_desc d;
    cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
    d.radius = R;
    cdyn_constraint c;
    assert_int_equal(cdyn_constraint_add_on_surface(sys, p, &d, &c), CDYN_OK);
    double e0, l0[3], k, u;
    cdyn_system_get_kinetic_energy(sys, &k);
    cdyn_system_get_potential_energy(sys, &u);
    e0 = k + u;
    cdyn_system_get_angular_momentum(sys, l0);
    *de = *dl = 0;
    int steps = (int)lround(4.0 / dt);
    for (int i = 0; i < steps; i++) {
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        double l[3], x[3];
        cdyn_system_get_kinetic_energy(sys, &k);
        cdyn_system_get_potential_energy(sys, &u);
        cdyn_system_get_angular_momentum(sys, l);
        cdyn_particle_get_position(sys, p, x);
        assert_near(sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]), R, 1e-14);
        *de = fmax(*de, fabs(k + u - e0));
        *dl = fmax(*dl, fabs(l[2] - l0[2]));
    }
    cdyn_system_destroy(sys);
}

static void test_spherical_pendulum(void **state)
{
    (void)state;
    double h[3] = {0.02, 0.01, 0.005}, de[3], dl[3];
    for (int i = 0; i < 3; i++) {
        spherical_errors(h[i], &de[i], &dl[i]);
        print_message("spherical pendulum dt %.3f: |dE| %.3e |dLz| %.3e\n", h[i], de[i], dl[i]);
    }
    double oe = ts_fit_order(h, de, 3), ol = ts_fit_order(h, dl, 3);
    print_message("orders: energy %.2f, L_z %.2f\n", oe, ol);
    assert_near(oe, 4.0, 0.3);
    assert_near(ol, 4.0, 0.3);
}

/* A pendulum (bob m, rod L) hanging from a bead (mass M) on a horizontal
 * wire: Lagrange's equations in (X, theta),
 *   (M + m) X'' + m L (theta'' cos - theta'^2 sin) = 0,
 *   X'' cos + L theta'' + g sin = 0,
 * integrated here with RK4, against the library's bead + rod. */
typedef struct cart {
    double M, m, L;
} cart;

static void cart_rhs(const cart *c, const double y[4], double dy[4])
{
    double th = y[1], w = y[3], s = sin(th), co = cos(th);
    /* [M+m, m L co; co, L] [X''; th''] = [m L w^2 s; -g s] */
    double a11 = c->M + c->m, a12 = c->m * c->L * co, a21 = co, a22 = c->L;
    double b1 = c->m * c->L * w * w * s, b2 = -G * s, det = a11 * a22 - a12 * a21;
    dy[0] = y[2];
    dy[1] = y[3];
    dy[2] = (b1 * a22 - a12 * b2) / det;
    dy[3] = (a11 * b2 - a21 * b1) / det;
}

static void cart_rk4(const cart *c, double y[4], double h)
{
    double k1[4], k2[4], k3[4], k4[4], t[4];
    cart_rhs(c, y, k1);
    for (int i = 0; i < 4; i++)
        t[i] = y[i] + 0.5 * h * k1[i];
    cart_rhs(c, t, k2);
    for (int i = 0; i < 4; i++)
        t[i] = y[i] + 0.5 * h * k2[i];
    cart_rhs(c, t, k3);
    for (int i = 0; i < 4; i++)
        t[i] = y[i] + h * k3[i];
    cart_rhs(c, t, k4);
    for (int i = 0; i < 4; i++)
        y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
}

static void test_pendulum_on_bead(void **state)
{
    (void)state;
    const cart c = {2.0, 0.7, 0.9};
    const double th0 = 0.9, X0 = 0.3;
    double y[4] = {X0, th0, 0.4, 0.0};
    cdyn_system *sys = make(2, CDYN_INTEGRATOR_RK4);
    cdyn_particle b, bob;
    cdyn_particle_add(sys, c.M, (double[]){X0, 0}, (double[]){0.4, 0}, &b);
    cdyn_particle_add(sys, c.m, (double[]){X0 + c.L * sin(th0), -c.L * cos(th0)},
                      (double[]){0.4, 0}, &bob);
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, -G}, &g);
    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, CDYN_CURVE_LINE);
    d.axis1[0] = 1, d.axis1[1] = 0;
    cdyn_constraint wire, rod;
    assert_int_equal(cdyn_constraint_add_on_curve(sys, b, &d, &wire), CDYN_OK);
    assert_int_equal(cdyn_constraint_add_distance(sys, b, bob, c.L, &rod), CDYN_OK);
    double worst = 0;
    for (int i = 0; i < 4000; i++) {
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
        cart_rk4(&c, y, 1e-3);
        double xb[2], xo[2];
        cdyn_particle_get_position(sys, b, xb);
        cdyn_particle_get_position(sys, bob, xo);
        assert_true(xb[1] == 0.0);
        worst = fmax(worst, fabs(xb[0] - y[0]));
        worst = fmax(worst, hypot(xo[0] - (y[0] + c.L * sin(y[1])), xo[1] + c.L * cos(y[1])));
    }
    print_message("pendulum on a bead, 4 s: largest difference from Lagrange's equations %.3e\n",
                  worst);
    assert_true(worst < 1e-8);
    cdyn_system_destroy(sys);
}

/* Every integrator runs the bead; the low-order ones converge with their order. */
static void test_all_integrators(void **state)
{
    (void)state;
    const cdyn_integrator its[] = {CDYN_INTEGRATOR_EXPLICIT_EULER, CDYN_INTEGRATOR_SYMPLECTIC_EULER,
                                   CDYN_INTEGRATOR_VELOCITY_VERLET, CDYN_INTEGRATOR_RK45};
    const double want[] = {1, 1, 2, 0};
    double ref;
    {
        cdyn_particle p;
        cdyn_constraint c;
        cdyn_system *sys = bead(true, &p, &c);
        for (int i = 0; i < 20000; i++)
            cdyn_system_step(sys, 1e-4);
        cdyn_constraint_get_coordinates(sys, c, &ref, NULL);
        cdyn_system_destroy(sys);
    }
    for (int k = 0; k < 4; k++) {
        double h[3], err[3];
        for (int r = 0; r < 3; r++) {
            cdyn_particle p;
            cdyn_constraint c;
            cdyn_system *sys = bead(true, &p, &c);
            cdyn_system_set_integrator(sys, its[k]);
            int n = 400 << r;
            for (int i = 0; i < n; i++)
                assert_int_equal(cdyn_system_step(sys, 2.0 / n), CDYN_OK);
            double q;
            cdyn_constraint_get_coordinates(sys, c, &q, NULL);
            h[r] = 2.0 / n;
            err[r] = fabs(q - ref);
            cdyn_system_destroy(sys);
        }
        if (want[k] > 0) {
            double o = ts_fit_order(h, err, 3);
            print_message("integrator %d on the bead: order %.2f\n", (int)its[k], o);
            assert_near(o, want[k], 0.15);
        } else {
            assert_true(err[2] < 1e-6);
        }
    }
}

static void test_release_setters_and_ends(void **state)
{
    (void)state;
    cdyn_system *sys = make(2, CDYN_INTEGRATOR_RK4);
    cdyn_particle p;
    cdyn_particle_add(sys, 1.0, (double[]){0.3, 0.5}, (double[]){1.0, 1.0}, &p);
    /* A segment of the x axis from 0 to 1: projected onto it. */
    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, CDYN_CURVE_LINE);
    d.axis1[0] = 1, d.axis1[1] = 0;
    d.q_min = 0, d.q_max = 1;
    cdyn_constraint c;
    assert_int_equal(cdyn_constraint_add_on_curve(sys, p, &d, &c), CDYN_OK);
    double x[2], v[2];
    cdyn_particle_get_position(sys, p, x);
    cdyn_particle_get_velocity(sys, p, v);
    assert_true(x[0] == 0.3 && x[1] == 0.0 && v[0] == 1.0 && v[1] == 0.0);
    size_t k, rows;
    cdyn_constraint_get_coordinate_count(sys, c, &k);
    cdyn_constraint_get_row_count(sys, c, &rows);
    assert_int_equal(k, 1);
    assert_int_equal(rows, 1);
    /* Moving at 1 m/s it reaches the hard end at q = 1 and stops there. */
    for (int i = 0; i < 1000; i++)
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    double q, qd;
    cdyn_constraint_get_coordinates(sys, c, &q, &qd);
    assert_true(q == 1.0 && qd == 0.0);
    /* Setters project: a position off the line lands on it. */
    assert_int_equal(cdyn_particle_set_position(sys, p, (double[]){0.5, 2.0}), CDYN_OK);
    cdyn_particle_get_position(sys, p, x);
    assert_true(x[0] == 0.5 && x[1] == 0.0);
    assert_int_equal(cdyn_particle_set_velocity(sys, p, (double[]){-0.2, 3.0}), CDYN_OK);
    cdyn_particle_get_velocity(sys, p, v);
    assert_true(v[0] == -0.2 && v[1] == 0.0);
    /* Released, it keeps position and velocity and falls freely. */
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, -G}, &g);
    assert_int_equal(cdyn_constraint_remove(sys, c), CDYN_OK);
    cdyn_particle_get_position(sys, p, x);
    cdyn_particle_get_velocity(sys, p, v);
    assert_true(x[0] == 0.5 && x[1] == 0.0 && v[0] == -0.2 && v[1] == 0.0);
    assert_int_equal(cdyn_system_step(sys, 0.1), CDYN_OK);
    cdyn_particle_get_position(sys, p, x);
    assert_near(x[0], 0.5 - 0.02, 1e-14);
    assert_near(x[1], -0.5 * G * 0.01, 1e-14);
    cdyn_system_destroy(sys);
}

/* ---- the cycloid: tautochrone and cusps ---- */

/* A cycloid bowl of rolling radius R: cusps at (0, 0) and (2 pi R, 0), the
 * bottom at (pi R, -2R), gravity -y. */
static cdyn_system *cycloid_bead(double R, double q0, double v0, cdyn_particle *p,
                                 cdyn_constraint *c)
{
    cdyn_system *sys = make(2, CDYN_INTEGRATOR_RK4);
    double x0[2] = {R * (q0 - sin(q0)), -R * (1 - cos(q0))};
    cdyn_particle_add(sys, 0.3, x0, (double[]){v0, 0}, p);
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, -G}, &g);
    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, CDYN_CURVE_CYCLOID);
    d.radius = R;
    d.axis2[0] = 0, d.axis2[1] = -1; /* the arch hangs down */
    assert_int_equal(cdyn_constraint_add_on_curve(sys, *p, &d, c), CDYN_OK);
    return sys;
}

/* Time within a step of h at which x(t) (cubic Hermite through x0, v0 and
 * x1, v1) passes xc; bisection. */
static double hermite_cross(double x0, double v0, double x1, double v1, double h, double xc)
{
    double lo = 0, hi = 1;
    for (int i = 0; i < 100; i++) {
        double t = 0.5 * (lo + hi), t2 = t * t, t3 = t2 * t;
        double x = (2 * t3 - 3 * t2 + 1) * x0 + (t3 - 2 * t2 + t) * h * v0 +
                   (-2 * t3 + 3 * t2) * x1 + (t3 - t2) * h * v1;
        if ((x - xc) * (x1 - x0) < 0)
            lo = t;
        else
            hi = t;
    }
    return 0.5 * (lo + hi) * h;
}

/* Steps until the bead passes x = xc, from time t; returns the crossing time. */
static double time_to_cross(cdyn_system *sys, cdyn_particle p, double dt, double xc, double t)
{
    double x[2], v[2];
    cdyn_particle_get_position(sys, p, x);
    cdyn_particle_get_velocity(sys, p, v);
    for (int i = 0; i < 1000000; i++) {
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        double xn[2], vn[2];
        cdyn_particle_get_position(sys, p, xn);
        cdyn_particle_get_velocity(sys, p, vn);
        if ((x[0] - xc) * (xn[0] - xc) <= 0 && xn[0] != x[0])
            return t + hermite_cross(x[0], v[0], xn[0], vn[0], dt, xc);
        t += dt;
        x[0] = xn[0], v[0] = vn[0];
    }
    fail();
    return 0;
}

/* Released from rest anywhere on the arch, the cusp included, the bead
 * reaches the bottom after pi sqrt(R / g). */
static void test_tautochrone(void **state)
{
    (void)state;
    const double R = 0.5, T = TS_PI * sqrt(R / G), dt = 1e-3;
    const double starts[] = {0.0, 0.4, 1.2, 2.0, 2.8, 3.1};
    double worst = 0;
    for (int i = 0; i < 6; i++) {
        cdyn_particle p;
        cdyn_constraint c;
        cdyn_system *sys = cycloid_bead(R, starts[i], 0.0, &p, &c);
        double q;
        cdyn_constraint_get_coordinates(sys, c, &q, NULL);
        assert_near(q, starts[i], 1e-7);
        double t = time_to_cross(sys, p, dt, TS_PI * R, 0.0);
        print_message("tautochrone from q0 = %.1f: %.15f s (pi sqrt(R/g) = %.15f), error %.2e\n",
                      starts[i], t, T, t - T);
        worst = fmax(worst, fabs(t - T));
        cdyn_system_destroy(sys);
    }
    assert_true(worst < 1e-10);
}

/* A bead with more than enough energy to climb to a cusp stops there: no
 * SINGULAR, no jump, q = 2 pi and q' = 0 at the cusp; from there it slides
 * back, reaching the bottom a tautochrone time later. */
static void test_cycloid_cusp_stop(void **state)
{
    (void)state;
    const double R = 0.5, T = TS_PI * sqrt(R / G), dt = 1e-3, m = 0.3;
    const double v0 = 1.2 * sqrt(4 * G * R);
    cdyn_particle p;
    cdyn_constraint c;
    cdyn_system *sys = cycloid_bead(R, TS_PI, v0, &p, &c);
    double x[2], q, qd, t = 0;
    cdyn_particle_get_position(sys, p, x);
    int stopped = 0;
    for (int i = 0; i < 2000 && !stopped; i++) {
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        t += dt;
        double xn[2];
        cdyn_particle_get_position(sys, p, xn);
        cdyn_constraint_get_coordinates(sys, c, &q, &qd);
        assert_true(q >= 0 && q <= 2 * TS_PI);
        assert_true(hypot(xn[0] - x[0], xn[1] - x[1]) <= 1.001 * v0 * dt); /* never jumps */
        x[0] = xn[0], x[1] = xn[1];
        stopped = q == 2 * TS_PI;
    }
    assert_true(stopped);
    assert_true(qd == 0.0);
    double v[2], k, u;
    cdyn_particle_get_velocity(sys, p, v);
    assert_true(v[0] == 0.0 && v[1] == 0.0);
    assert_near(x[0], 2 * TS_PI * R, 1e-14);
    assert_near(x[1], 0.0, 1e-14);
    double t_stop = t;
    double t_bottom = time_to_cross(sys, p, dt, TS_PI * R, t);
    /* Its energy is now that of rest at the cusp (U = 0 there). */
    cdyn_system_get_kinetic_energy(sys, &k);
    cdyn_system_get_potential_energy(sys, &u);
    print_message("cusp reached at t = %.3f s; back at the bottom %.15f s later (T %.15f); "
                  "energy after the stop %.2e J\n",
                  t_stop, t_bottom - t_stop, T, k + u);
    assert_near(t_bottom - t_stop, T, 1e-10);
    assert_true(fabs(k + u) < 1e-12 * m * G * 2 * R);
    /* It then oscillates between the two cusps without losing more. */
    for (int i = 0; i < 3000; i++) {
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        cdyn_constraint_get_coordinates(sys, c, &q, &qd);
        assert_true(q >= 0 && q <= 2 * TS_PI);
    }
    cdyn_system_get_kinetic_energy(sys, &k);
    cdyn_system_get_potential_energy(sys, &u);
    print_message("energy 3 s later %.2e J\n", k + u);
    assert_true(fabs(k + u) < 1e-9 * m * G * 2 * R);
    cdyn_system_destroy(sys);
}

/* ---- height fields ---- */

/* A bowl with ripples, sampled on a 41 x 41 grid over [-4, 4]^2. */
static void bowl_samples(double *f)
{
    for (int j = 0; j < 41; j++)
        for (int i = 0; i < 41; i++) {
            double x = -4 + 0.2 * i, y = -4 + 0.2 * j;
            f[j * 41 + i] = 0.1 * (x * x + y * y) + 0.05 * sin(1.7 * x) * cos(1.3 * y);
        }
}

static void bowl_desc(cdyn_heightfield_desc *h, const double *f,
                      cdyn_heightfield_interpolation mode)
{
    cdyn_heightfield_desc_init(h);
    h->nx = h->ny = 41;
    h->origin[0] = h->origin[1] = -4;
    h->spacing[0] = h->spacing[1] = 0.2;
    h->samples = f;
    h->interpolation = mode;
}

/* Worst relative energy error of a particle sliding over the bowl for 10 s
 * (it crosses about 150 cell edges), RK4. */
static double bowl_energy_error(double dt)
{
    static double f[41 * 41];
    bowl_samples(f);
    cdyn_heightfield_desc h;
    bowl_desc(&h, f, CDYN_HEIGHTFIELD_BICUBIC);
    cdyn_system *sys = make(3, CDYN_INTEGRATOR_RK4);
    cdyn_particle p;
    cdyn_particle_add(sys, 0.7, (double[]){-2.0, 0.5, 1.0}, (double[]){0.4, 1.1, 0}, &p);
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, 0, -G}, &g);
    cdyn_surface_desc d;
    cdyn_surface_desc_init(&d, CDYN_SURFACE_HEIGHTFIELD);
    d.heightfield = &h;
    cdyn_constraint c;
    assert_int_equal(cdyn_constraint_add_on_surface(sys, p, &d, &c), CDYN_OK);
    double k, u, e0, worst = 0;
    cdyn_system_get_kinetic_energy(sys, &k);
    cdyn_system_get_potential_energy(sys, &u);
    e0 = k + u;
    int steps = (int)lround(10.0 / dt);
    for (int i = 0; i < steps; i++) {
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        cdyn_system_get_kinetic_energy(sys, &k);
        cdyn_system_get_potential_energy(sys, &u);
        worst = fmax(worst, fabs(k + u - e0) / fabs(e0));
    }
    double q[2];
    cdyn_constraint_get_coordinates(sys, c, q, NULL);
    assert_true(fabs(q[0]) < 3.5 && fabs(q[1]) < 3.5); /* never at the grid's edge */
    cdyn_system_destroy(sys);
    return worst;
}

/* The bicubic patches' third derivatives jump on cell edges, as a spline's
 * at its knots: with steps ended on the edges, RK4 keeps its fourth order. */
static void test_heightfield_energy_order(void **state)
{
    (void)state;
    double h[3] = {0.02, 0.01, 0.005}, e[3];
    for (int i = 0; i < 3; i++) {
        e[i] = bowl_energy_error(h[i]);
        print_message("height field, RK4 dt %.3f: energy error %.3e\n", h[i], e[i]);
    }
    double order = ts_fit_order(h, e, 3);
    print_message("measured order %.2f\n", order);
    assert_near(order, 4.0, 0.3);
}

/* A bilinear height field is refused for a particle (its slope jumps at
 * cell edges), with a message naming the alternative; nothing changes. */
static void test_bilinear_refused(void **state)
{
    (void)state;
    static double f[41 * 41];
    bowl_samples(f);
    cdyn_heightfield_desc h;
    bowl_desc(&h, f, CDYN_HEIGHTFIELD_BILINEAR);
    cdyn_system *sys = make(3, CDYN_INTEGRATOR_RK4);
    cdyn_particle p;
    const double x0[3] = {-2.0, 0.5, 1.0}, v0[3] = {0.4, 1.1, 0.3};
    cdyn_particle_add(sys, 0.7, x0, v0, &p);
    cdyn_surface_desc d;
    cdyn_surface_desc_init(&d, CDYN_SURFACE_HEIGHTFIELD);
    d.heightfield = &h;
    cdyn_constraint c = 0;
    assert_int_equal(cdyn_constraint_add_on_surface(sys, p, &d, &c), CDYN_ERR_UNSUPPORTED);
    const char *msg = cdyn_system_last_error(sys);
    print_message("bilinear: %s\n", msg);
    assert_non_null(strstr(msg, "BICUBIC"));
    assert_true(c == 0);
    double x[3], v[3];
    cdyn_particle_get_position(sys, p, x);
    cdyn_particle_get_velocity(sys, p, v);
    assert_memory_equal(x, x0, sizeof x);
    assert_memory_equal(v, v0, sizeof v);
    /* the same samples, bicubic: accepted (so the particle was on no shape),
     * the particle on the surface */
    h.interpolation = CDYN_HEIGHTFIELD_BICUBIC;
    assert_int_equal(cdyn_constraint_add_on_surface(sys, p, &d, &c), CDYN_OK);
    double z;
    cdyn_particle_get_position(sys, p, x);
    assert_int_equal(cdyn_heightfield_evaluate(&h, x[0], x[1], &z, NULL, NULL), CDYN_OK);
    assert_near(x[2], z, 1e-14);
    cdyn_system_destroy(sys);
}

/* A particle put exactly on a pole of a whole sphere is accepted (its chart
 * turned at once), and moves over both poles on a great circle, a vertical
 * circle here: the rigid pendulum. The setter may put it on a pole too. */
static void test_sphere_pole_start(void **state)
{
    (void)state;
    const double R = 0.8, m = 1.1;
    for (int pole = 0; pole < 2; pole++) {
        cdyn_system *sys = make(3, CDYN_INTEGRATOR_RK4);
        cdyn_particle p;
        /* enough to go over the top from either pole */
        const double x0[3] = {0, 0, pole ? -R : R}, v0[3] = {pole ? 6.5 : 0.7, 0, 0};
        cdyn_particle_add(sys, m, x0, v0, &p);
        cdyn_force g;
        cdyn_force_add_gravity(sys, (double[]){0, 0, -G}, &g);
        cdyn_surface_desc d;
        cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
        d.radius = R;
        cdyn_constraint c;
        assert_int_equal(cdyn_constraint_add_on_surface(sys, p, &d, &c), CDYN_OK);
        double x[3], v[3], q[2];
        cdyn_particle_get_position(sys, p, x);
        cdyn_particle_get_velocity(sys, p, v);
        for (int k = 0; k < 3; k++) {
            assert_near(x[k], x0[k], 1e-15);
            assert_near(v[k], v0[k], 1e-15);
        }
        cdyn_constraint_get_coordinates(sys, c, q, NULL);
        assert_near(q[1], TS_PI / 2, 1e-15); /* on the equator of the new chart */
        double k0, u0, e, k1, u1, worst = 0, off = 0;
        cdyn_system_get_kinetic_energy(sys, &k0);
        cdyn_system_get_potential_energy(sys, &u0);
        e = k0 + u0;
        int over_top = 0, over_bottom = 0;
        for (int i = 0; i < 4000; i++) {
            assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
            cdyn_particle_get_position(sys, p, x);
            cdyn_system_get_kinetic_energy(sys, &k1);
            cdyn_system_get_potential_energy(sys, &u1);
            worst = fmax(worst, fabs(k1 + u1 - e) / (m * G * R));
            off = fmax(off, fmax(fabs(x[1]), fabs(sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) - R)));
            over_top |= x[2] > 0.999 * R && i > 100;
            over_bottom |= x[2] < -0.999 * R;
        }
        print_message("started on the %s pole: energy error %.2e, off the great circle %.2e\n",
                      pole ? "south" : "north", worst, off);
        assert_true(over_top && over_bottom); /* round and round, over both poles */
        assert_true(worst < 1e-9);
        assert_true(off < 1e-13);
        /* set_position onto the other pole */
        const double xp[3] = {0, 0, pole ? R : -R};
        assert_int_equal(cdyn_particle_set_position(sys, p, xp), CDYN_OK);
        cdyn_particle_get_position(sys, p, x);
        for (int k = 0; k < 3; k++)
            assert_near(x[k], xp[k], 1e-15);
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
        /* and set_coordinates onto a pole of the current chart */
        double qp[2] = {0.3, pole ? TS_PI : 0.0}, qdp[2] = {0.0, 1.5}, e3[3];
        assert_int_equal(cdyn_constraint_get_coordinates(sys, c, q, NULL), CDYN_OK);
        assert_int_equal(cdyn_constraint_set_coordinates(sys, c, qp, qdp), CDYN_OK);
        cdyn_particle_get_position(sys, p, x);
        cdyn_particle_get_velocity(sys, p, v);
        assert_near(sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]), R, 1e-15);
        assert_near(sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), 1.5 * R, 1e-14);
        for (int k = 0; k < 3; k++)
            e3[k] = x[k] / R;
        assert_near(e3[0] * v[0] + e3[1] * v[1] + e3[2] * v[2], 0.0, 1e-14);
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
        cdyn_system_destroy(sys);
    }
    /* A sphere with a window keeps its chart: its pole stays singular. */
    cdyn_system *sys = make(3, CDYN_INTEGRATOR_RK4);
    cdyn_particle p;
    cdyn_particle_add(sys, m, (double[]){0, 0, R}, NULL, &p);
    cdyn_surface_desc d;
    cdyn_surface_desc_init(&d, CDYN_SURFACE_SPHERE);
    d.radius = R;
    d.v_max = 2.0;
    cdyn_constraint c;
    assert_int_equal(cdyn_constraint_add_on_surface(sys, p, &d, &c), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_set_position(sys, p, (double[]){R, 0, 0}), CDYN_OK);
    assert_int_equal(cdyn_constraint_add_on_surface(sys, p, &d, &c), CDYN_OK);
    double q[2] = {0.0, 0.0}, before[2], after[2];
    cdyn_constraint_get_coordinates(sys, c, before, NULL);
    assert_int_equal(cdyn_constraint_set_coordinates(sys, c, q, NULL), CDYN_ERR_SINGULAR);
    cdyn_constraint_get_coordinates(sys, c, after, NULL);
    assert_memory_equal(before, after, sizeof before);
    cdyn_system_destroy(sys);
}

/* What the generic per-constraint queries and setters answer for a shape
 * constraint, and that the refused ones change nothing. */
static void test_shape_constraint_queries(void **state)
{
    (void)state;
    cdyn_system *sys = make(3, CDYN_INTEGRATOR_RK4);
    cdyn_particle p;
    cdyn_particle_add(sys, 2.0, (double[]){1.0, 0.0, 0.2}, (double[]){0.0, 0.5, 0.0}, &p);
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, 0, -G}, &g);
    cdyn_curve_desc cd;
    cdyn_curve_desc_init(&cd, CDYN_CURVE_CIRCLE); /* horizontal, in the xy plane */
    cdyn_constraint c;
    assert_int_equal(cdyn_constraint_add_on_curve(sys, p, &cd, &c), CDYN_OK);
    cdyn_constraint_kind kind;
    size_t rows;
    bool enabled;
    assert_int_equal(cdyn_constraint_get_kind(sys, c, &kind), CDYN_OK);
    assert_int_equal(kind, CDYN_CONSTRAINT_CURVE);
    assert_int_equal(cdyn_constraint_get_row_count(sys, c, &rows), CDYN_OK);
    assert_int_equal(rows, 2);
    assert_int_equal(cdyn_constraint_set_enabled(sys, c, false), CDYN_ERR_UNSUPPORTED);
    assert_int_equal(cdyn_constraint_get_enabled(sys, c, &enabled), CDYN_OK);
    assert_true(enabled);
    double m[2] = {7, 7};
    assert_int_equal(cdyn_constraint_get_multipliers(sys, c, m, 2), CDYN_OK);
    assert_true(m[0] == 7 && m[1] == 7); /* none */
    assert_int_equal(cdyn_constraint_get_multipliers(sys, c, NULL, 0), CDYN_OK);
    assert_int_equal(cdyn_constraint_set_enabled(sys, c, true), CDYN_OK); /* already */
    /* Exact by construction: no compliance to set, and the refusal says why. */
    assert_int_equal(cdyn_constraint_set_compliance(sys, c, 1e-3), CDYN_ERR_UNSUPPORTED);
    assert_non_null(strstr(cdyn_system_last_error(sys), "compliance"));
    double alpha = -1;
    assert_int_equal(cdyn_constraint_get_compliance(sys, c, &alpha), CDYN_OK);
    assert_true(alpha == 0.0);
    /* The normal force: it holds the bead up (m g) and turns it (m v^2 / R). */
    assert_int_equal(cdyn_system_evaluate(sys, NULL, 0), CDYN_OK);
    double n[3];
    assert_int_equal(cdyn_constraint_get_force(sys, c, p, n), CDYN_OK);
    assert_near(n[0], -2.0 * 0.25 / 1.0, 1e-14);
    assert_near(n[1], 0.0, 1e-14);
    assert_near(n[2], 2.0 * G, 1e-13);
    cdyn_system_destroy(sys);
}

static int bad_surface(const cdyn_system *sys, double t, double u, double v, double r[3],
                  double ru[3], double rv[3], double ruu[3], double ruv[3], double rvv[3],
                  void *user)
{
    (void)sys, (void)t;
    (void)user;
    /* A plane whose r_v vanishes: zero area everywhere. */
    r[0] = u, r[1] = 0 * v, r[2] = 0;
    ru[0] = 1, ru[1] = 0, ru[2] = 0;
    rv[0] = rv[1] = rv[2] = 0;
    for (int i = 0; i < 3; i++)
        ruu[i] = ruv[i] = rvv[i] = 0;
    return 0;
}

static void test_bad_input(void **state)
{
    (void)state;
    cdyn_system *sys = make(2, CDYN_INTEGRATOR_RK4);
    cdyn_particle p;
    cdyn_particle_add(sys, 1.0, (double[]){1, 0}, NULL, &p);
    cdyn_curve_desc d;
    cdyn_constraint c = 0;
    cdyn_curve_desc_init(&d, CDYN_CURVE_CIRCLE);
    d.radius = 0;
    assert_int_equal(cdyn_constraint_add_on_curve(sys, p, &d, &c), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_curve_desc_init(&d, CDYN_CURVE_SPLINE);
    double pts[6] = {0, 0, 1, 0, 2, 1};
    d.points = pts;
    d.num_points = 3;
    assert_int_equal(cdyn_constraint_add_on_curve(sys, p, &d, &c), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_surface_desc sd;
    cdyn_surface_desc_init(&sd, CDYN_SURFACE_SPHERE);
    sd.radius = 1;
    assert_int_equal(cdyn_constraint_add_on_surface(sys, p, &sd, &c), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_add_on_curve(sys, p, NULL, &c), CDYN_ERR_INVALID_ARGUMENT);
    assert_true(c == 0);
    double x[2];
    cdyn_particle_get_position(sys, p, x);
    assert_true(x[0] == 1 && x[1] == 0);
    /* On a curve: a second shape, NaN coordinates, coordinates outside. */
    cdyn_curve_desc_init(&d, CDYN_CURVE_LINE);
    d.axis1[0] = 1;
    d.q_min = -1, d.q_max = 2;
    assert_int_equal(cdyn_constraint_add_on_curve(sys, p, &d, &c), CDYN_OK);
    cdyn_constraint c2;
    assert_int_equal(cdyn_constraint_add_on_curve(sys, p, &d, &c2), CDYN_ERR_INVALID_ARGUMENT);
    double q = NAN, far = 5;
    assert_int_equal(cdyn_constraint_set_coordinates(sys, c, &q, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_constraint_set_coordinates(sys, c, &far, NULL), CDYN_ERR_INVALID_ARGUMENT);
    double got;
    cdyn_constraint_get_coordinates(sys, c, &got, NULL);
    assert_true(got == 1.0);
    assert_int_equal(cdyn_constraint_set_enabled(sys, c, false), CDYN_ERR_UNSUPPORTED);
    /* Coordinates of an implicit constraint are refused. */
    cdyn_particle o;
    cdyn_particle_add(sys, 1.0, (double[]){0, 3}, NULL, &o);
    cdyn_constraint rod;
    cdyn_constraint_add_distance(sys, p, o, 3.0, &rod);
    assert_int_equal(cdyn_constraint_get_coordinates(sys, rod, &got, NULL), CDYN_ERR_INVALID_ARGUMENT);
    /* Removing the particle removes its shape. */
    assert_int_equal(cdyn_particle_remove(sys, p), CDYN_OK);
    assert_false(cdyn_constraint_is_valid(sys, c));
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    cdyn_system_destroy(sys);

    /* A surface whose parametrization has zero area at the start point. */
    sys = make(3, CDYN_INTEGRATOR_RK4);
    cdyn_particle_add(sys, 1.0, (double[]){0.5, 0, 0}, NULL, &p);
    cdyn_surface_desc_init(&sd, CDYN_SURFACE_CALLBACK);
    sd.callback = bad_surface;
    sd.u_min = -1, sd.u_max = 1, sd.v_min = -1, sd.v_max = 1;
    assert_int_equal(cdyn_constraint_add_on_surface(sys, p, &sd, &c), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_system_destroy(sys);
}

/* Callbacks that fail after a given number of calls (counted in *user). */
typedef struct failing {
    int calls, fail_after;
} failing;

static int nan_curve(const cdyn_system *sys, double t, double q, double r[3], double dr[3],
                  double ddr[3], void *user)
{
    (void)sys, (void)t;
    (void)q, (void)user;
    r[0] = NAN;
    r[1] = r[2] = 0;
    dr[0] = 1;
    dr[1] = dr[2] = 0;
    ddr[0] = ddr[1] = ddr[2] = 0;
    return 0;
}

static int bowl(const cdyn_system *sys, double t, double u, double v, double r[3],
                  double ru[3], double rv[3], double ruu[3], double ruv[3], double rvv[3],
                  void *user)
{
    (void)sys, (void)t;
    failing *f = user;
    if (++f->calls > f->fail_after)
        return 1;
    r[0] = u, r[1] = v, r[2] = 0.1 * (u * u + v * v);
    ru[0] = 1, ru[1] = 0, ru[2] = 0.2 * u;
    rv[0] = 0, rv[1] = 1, rv[2] = 0.2 * v;
    ruu[0] = ruu[1] = 0, ruu[2] = 0.2;
    ruv[0] = ruv[1] = ruv[2] = 0;
    rvv[0] = rvv[1] = 0, rvv[2] = 0.2;
    return 0;
}

/* The message of the last failure names the call and says something. */
static void assert_message(const cdyn_system *sys, const char *call)
{
    const char *m = cdyn_system_last_error(sys);
    size_t n = strlen(call);
    if (strncmp(m, call, n) != 0 || m[n] != ':' || strlen(m) < n + 10)
        fail_msg("message \"%s\" does not name %s and the problem", m, call);
}

/* Every failure in the parametric path (a shape's status passed up from a
 * far point, a NaN from a callback curve, a degenerate plane, a callback
 * surface failing inside a step, an evaluation or a setter) leaves a
 * message naming the call; the state is kept. */
static void test_failures_name_the_call(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    cdyn_particle p, q;
    cdyn_constraint c;
    assert_int_equal(cdyn_particle_add(sys, 1, (double[]){0.5, -0.01}, NULL, &p), CDYN_OK);
    cdyn_curve_desc parabola;
    cdyn_curve_desc_init(&parabola, CDYN_CURVE_PARABOLA);
    parabola.coefficient = -0.01;
    assert_int_equal(cdyn_constraint_add_on_curve(sys, p, &parabola, &c), CDYN_OK);
    double x0[2];
    assert_int_equal(cdyn_particle_get_position(sys, p, x0), CDYN_OK);
    assert_int_equal(cdyn_particle_set_position(sys, p, (double[]){1e300, 0}),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_message(sys, "particle_set_position");
    assert_int_equal(cdyn_system_set_positions(sys, (double[]){1e300, 0}, 2),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_message(sys, "set_positions");
    double x1[2];
    assert_int_equal(cdyn_particle_get_position(sys, p, x1), CDYN_OK);
    assert_memory_equal(x0, x1, sizeof x0);
    cdyn_curve_desc nan;
    cdyn_curve_desc_init(&nan, CDYN_CURVE_CALLBACK);
    nan.callback = nan_curve;
    assert_int_equal(cdyn_particle_add(sys, 1, (double[]){0, 0}, NULL, &q), CDYN_OK);
    assert_int_equal(cdyn_constraint_add_on_curve(sys, q, &nan, &c), CDYN_ERR_CALLBACK);
    assert_message(sys, "constraint_add_on_curve");
    cdyn_system_destroy(sys);

    assert_int_equal(cdyn_system_create(3, &sys), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1, (double[]){0.1, 0.2, 0}, NULL, &p), CDYN_OK);
    cdyn_surface_desc plane;
    cdyn_surface_desc_init(&plane, CDYN_SURFACE_PLANE);
    plane.axis1[0] = 1e300;
    assert_int_equal(cdyn_constraint_add_on_surface(sys, p, &plane, &c),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_message(sys, "constraint_add_on_surface");
    failing f = {0, 1 << 30};
    cdyn_surface_desc cs;
    cdyn_surface_desc_init(&cs, CDYN_SURFACE_CALLBACK);
    cs.callback = bowl;
    cs.user = &f;
    assert_int_equal(cdyn_constraint_add_on_surface(sys, p, &cs, &c), CDYN_OK);
    f.fail_after = f.calls; /* from now on every call fails */
    double t0;
    assert_int_equal(cdyn_system_get_time(sys, &t0), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_ERR_CALLBACK);
    assert_message(sys, "step");
    assert_int_equal(cdyn_system_evaluate(sys, NULL, 0), CDYN_ERR_CALLBACK);
    assert_message(sys, "evaluate");
    assert_int_equal(cdyn_particle_set_velocity(sys, p, (double[]){1, 0, 0}), CDYN_ERR_CALLBACK);
    assert_message(sys, "particle_set_velocity");
    assert_int_equal(cdyn_particle_set_position(sys, p, (double[]){0.3, 0, 0}),
                     CDYN_ERR_CALLBACK);
    assert_message(sys, "particle_set_position");
    assert_int_equal(cdyn_constraint_set_coordinates(sys, c, (double[]){0.2, 0.1}, NULL),
                     CDYN_ERR_CALLBACK);
    assert_message(sys, "constraint_set_coordinates");
    double t1;
    assert_int_equal(cdyn_system_get_time(sys, &t1), CDYN_OK);
    assert_true(t0 == t1);
    cdyn_system_destroy(sys);
}

/* A force that fails once the bead has passed x = fail_x (until disarmed). */
typedef struct tripwire {
    double fail_x;
    int armed, tripped;
} tripwire;

static int trip_force(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                      const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)v, (void)f;
    tripwire *w = user;
    for (size_t i = 0; i < n; i++)
        if (w->armed && x[i * (size_t)dim] > w->fail_x) {
            w->tripped = 1;
            return 1;
        }
    return 0;
}

/* A bead on a spline (knots at x = 0, 1, 2, ...) crossing several knots in
 * one step of RK4, which splits the step at each knot; a force that fails
 * after the first crossing fails the whole step, which must leave the
 * state, including the generalized coordinates and their rates, as before:
 * the retried step equals that of a twin that never failed, bit for bit. */
static cdyn_system *bead_on_spline(tripwire *w, cdyn_constraint *c, cdyn_particle *p)
{
    static const double pts[] = {0, 0, 1, 0.3, 2, 0.1, 3, 0.5, 4, 0.2, 5, 0.4};
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1, (double[]){0.2, 0.05}, (double[]){3, 0.5}, p),
                     CDYN_OK);
    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, CDYN_CURVE_SPLINE);
    d.points = pts;
    d.num_points = 6;
    d.spline_end = CDYN_SPLINE_NATURAL;
    assert_int_equal(cdyn_constraint_add_on_curve(sys, *p, &d, c), CDYN_OK);
    cdyn_force f;
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &f), CDYN_OK);
    assert_int_equal(cdyn_force_add_callback(sys, trip_force, w, false, &f), CDYN_OK);
    return sys;
}

static void test_knot_split_step_rolls_back(void **state)
{
    (void)state;
    tripwire wa = {1.2, 1, 0}, wb = {1.2, 0, 0};
    cdyn_constraint ca, cb;
    cdyn_particle pa, pb;
    cdyn_system *a = bead_on_spline(&wa, &ca, &pa), *b = bead_on_spline(&wb, &cb, &pb);
    double q0[2], qd0[2], q1[2], qd1[2];
    ts_state before, after;
    ts_state_capture(a, &before);
    assert_int_equal(cdyn_constraint_get_coordinates(a, ca, q0, qd0), CDYN_OK);
    /* 0.6 s at about 3 m/s: knots at x = 1, 2 and 3 inside the step. */
    assert_int_equal(cdyn_system_step(a, 0.6), CDYN_ERR_CALLBACK);
    assert_true(wa.tripped);
    ts_state_capture(a, &after);
    assert_int_equal(cdyn_constraint_get_coordinates(a, ca, q1, qd1), CDYN_OK);
    assert_true(ts_state_max_diff(&before, &after, NULL) == 0);
    assert_true(before.time == after.time);
    assert_memory_equal(before.v, after.v, before.len * sizeof *before.v);
    assert_memory_equal(q0, q1, sizeof q0[0]);
    assert_memory_equal(qd0, qd1, sizeof qd0[0]);
    ts_state_free(&after);
    /* Retried without the wire, against the twin. */
    wa.armed = 0;
    assert_int_equal(cdyn_system_step(a, 0.6), CDYN_OK);
    assert_int_equal(cdyn_system_step(b, 0.6), CDYN_OK);
    ts_state sa, sb;
    ts_state_capture(a, &sa);
    ts_state_capture(b, &sb);
    assert_true(sa.x[0] > 1.5); /* it did cross knots */
    assert_int_equal(ts_state_hash(&sa, 0), ts_state_hash(&sb, 0));
    assert_int_equal(cdyn_constraint_get_coordinates(a, ca, q0, qd0), CDYN_OK);
    assert_int_equal(cdyn_constraint_get_coordinates(b, cb, q1, qd1), CDYN_OK);
    assert_memory_equal(q0, q1, sizeof q0[0]);
    assert_memory_equal(qd0, qd1, sizeof qd0[0]);
    ts_state_free(&before);
    ts_state_free(&sa);
    ts_state_free(&sb);
    cdyn_system_destroy(a);
    cdyn_system_destroy(b);
}

static int unit_circle(const cdyn_system *sys, double t, double q, double r[3], double dr[3],
                       double ddr[3], void *user)
{
    (void)sys, (void)t, (void)user;
    r[0] = cos(q), r[1] = sin(q);
    dr[0] = -sin(q), dr[1] = cos(q);
    ddr[0] = -cos(q), ddr[1] = -sin(q);
    return 0;
}

/* Huge steps: a clock that would overflow, and a bead whose finite
 * coordinates give no finite Cartesian velocity, are diverged steps with
 * the state kept (both used to succeed, leaving an infinite time or a NaN
 * velocity). */
static void test_overflowing_steps_diverge(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        cdyn_system *sys;
        assert_int_equal(cdyn_system_create(dim, &sys), CDYN_OK);
        assert_int_equal(cdyn_system_set_time(sys, 1e308), CDYN_OK);
        assert_int_equal(cdyn_system_step(sys, 1e308), CDYN_ERR_DIVERGED);
        double t;
        cdyn_system_get_time(sys, &t);
        assert_true(t == 1e308);
        assert_int_equal(cdyn_system_set_time(sys, 0), CDYN_OK);
        cdyn_particle p;
        cdyn_particle_add(sys, 1, (double[]){0, 1, 0}, (double[]){1, 0, 0}, &p);
        cdyn_curve_desc d;
        cdyn_curve_desc_init(&d, CDYN_CURVE_CALLBACK);
        d.callback = unit_circle, d.periodic = 1, d.q_min = 0, d.q_max = 2 * TS_PI;
        cdyn_constraint c;
        assert_int_equal(cdyn_constraint_add_on_curve(sys, p, &d, &c), CDYN_OK);
        double x0[3], v0[3], x1[3], v1[3];
        cdyn_particle_get_position(sys, p, x0);
        cdyn_particle_get_velocity(sys, p, v0);
        for (double dt = 1e30; dt < 1e300; dt *= 1e30) {
            cdyn_status st = cdyn_system_step(sys, dt);
            cdyn_particle_get_position(sys, p, x1);
            cdyn_particle_get_velocity(sys, p, v1);
            for (int k = 0; k < dim; k++)
                assert_true(isfinite(x1[k]) && isfinite(v1[k]));
            if (st != CDYN_OK) {
                assert_int_equal(st, CDYN_ERR_DIVERGED);
                assert_memory_equal(x0, x1, (size_t)dim * sizeof *x0);
                assert_memory_equal(v0, v1, (size_t)dim * sizeof *v0);
            }
            memcpy(x0, x1, sizeof x0);
            memcpy(v0, v1, sizeof v0);
        }
        cdyn_system_destroy(sys);
    }
}

/* A bead whose coordinate stays finite while its point on the shape
 * overflows: the step fails with CDYN_ERR_DIVERGED and the state stays. */
static void test_overflowing_shape_fails_the_step(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    const double x[2] = {1.5e308, 0}, v[2] = {1e308, 0};
    cdyn_particle p;
    assert_int_equal(cdyn_particle_add(sys, 1.0, x, v, &p), CDYN_OK);
    cdyn_curve_desc line;
    cdyn_curve_desc_init(&line, CDYN_CURVE_LINE);
    line.origin[0] = 1e308;
    cdyn_constraint c;
    assert_int_equal(cdyn_constraint_add_on_curve(sys, p, &line, &c), CDYN_OK);
    double q0, q1, x0[2], x1[2];
    assert_int_equal(cdyn_constraint_get_coordinates(sys, c, &q0, NULL), CDYN_OK);
    assert_int_equal(cdyn_system_get_positions(sys, x0, 2), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1.0), CDYN_ERR_DIVERGED);
    assert_non_null(strstr(cdyn_system_last_error(sys), "non-finite"));
    assert_int_equal(cdyn_constraint_get_coordinates(sys, c, &q1, NULL), CDYN_OK);
    assert_int_equal(cdyn_system_get_positions(sys, x1, 2), CDYN_OK);
    assert_true(q0 == q1 && x0[0] == x1[0] && x0[1] == x1[1]);
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bead_on_parabola_both_ways),
        cmocka_unit_test(test_bead_on_parabola_equation_of_motion),
        cmocka_unit_test(test_circle_is_pendulum),
        cmocka_unit_test(test_spherical_pendulum),
        cmocka_unit_test(test_pendulum_on_bead),
        cmocka_unit_test(test_all_integrators),
        cmocka_unit_test(test_release_setters_and_ends),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_tautochrone),
        cmocka_unit_test(test_cycloid_cusp_stop),
        cmocka_unit_test(test_heightfield_energy_order),
        cmocka_unit_test(test_bilinear_refused),
        cmocka_unit_test(test_sphere_pole_start),
        cmocka_unit_test(test_shape_constraint_queries),
        cmocka_unit_test(test_failures_name_the_call),
        cmocka_unit_test(test_knot_split_step_rolls_back),
        cmocka_unit_test(test_overflowing_steps_diverge),
        cmocka_unit_test(test_overflowing_shape_fails_the_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
