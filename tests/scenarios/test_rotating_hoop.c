/* Beads on moving wires, every form of a time-dependent constraint
 * against the motion computed independently:
 *
 *  - a bead on a vertical hoop of radius R turning about its vertical
 *    diameter at omega: theta'' = sin(theta) (omega^2 cos(theta) - g/R),
 *    theta from the bottom, integrated here with RK4 at a step 10^-5,
 *    against the hoop as a circle carried by a rotation (parametric) and
 *    as a fixed sphere cut by a turning plane (implicit rows);
 *  - a bead on a straight wire turning in a vertical plane about a point
 *    at omega: r'' = omega^2 r - g sin(omega t), solved in closed form,
 *    against a line carried by a rotation, a turning plane (a line in
 *    2-D), time-dependent implicit and user callbacks with their time
 *    derivatives and without them (central differences), and a curve
 *    callback that moves with time. */
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

/* ---- the hoop -------------------------------------------------------- */

static const double R = 0.5, OMEGA = 6.0, THETA0 = 0.3;

static double hoop_accel(double th)
{
    return sin(th) * (OMEGA * OMEGA * cos(th) - G / R);
}

/* theta(t) by RK4 with steps of about 1e-5 (error ~1e-16). */
static double hoop_theta(double t)
{
    int n = (int)ceil(t / 1e-5);
    double h = t / n, y = THETA0, v = 0;
    for (int i = 0; i < n; i++) {
        double k1y = v, k1v = hoop_accel(y);
        double k2y = v + 0.5 * h * k1v, k2v = hoop_accel(y + 0.5 * h * k1y);
        double k3y = v + 0.5 * h * k2v, k3v = hoop_accel(y + 0.5 * h * k2y);
        double k4y = v + h * k3v, k4v = hoop_accel(y + h * k3y);
        y += h / 6 * (k1y + 2 * k2y + 2 * k3y + k4y);
        v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    }
    return y;
}

/* The hoop's system: the bead at theta0 in the plane y = 0 at t = 0,
 * moving with the hoop (velocity omega R sin(theta0) along y). */
static cdyn_system *hoop_system(int implicit, cdyn_particle *bead)
{
    cdyn_system *sys;
    ok(NULL, cdyn_system_create(3, &sys));
    double x0[3] = {R * sin(THETA0), 0, -R * cos(THETA0)};
    double v0[3] = {0, OMEGA * R * sin(THETA0), 0};
    ok(sys, cdyn_particle_add(sys, 1.0, x0, v0, bead));
    cdyn_force f;
    ok(sys, cdyn_force_add_gravity(sys, (double[]){0, 0, -G}, &f));
    cdyn_motion_desc turn;
    cdyn_motion_desc_init(&turn, CDYN_MOTION_ROTATION);
    turn.angular_velocity = OMEGA; /* about z through the origin */
    cdyn_constraint c;
    if (!implicit) {
        cdyn_curve_desc hoop;
        cdyn_curve_desc_init(&hoop, CDYN_CURVE_CIRCLE);
        hoop.radius = R;
        memcpy(hoop.axis1, (double[]){1, 0, 0}, sizeof hoop.axis1);
        memcpy(hoop.axis2, (double[]){0, 0, 1}, sizeof hoop.axis2);
        ok(sys, cdyn_constraint_add_on_curve(sys, *bead, &hoop, &c));
        ok(sys, cdyn_constraint_set_motion(sys, c, &turn));
    } else {
        ok(sys, cdyn_constraint_add_anchor(sys, *bead, (double[]){0, 0, 0}, R, &c));
        ok(sys, cdyn_constraint_add_plane(sys, *bead, (double[]){0, 1, 0}, 0, &c));
        ok(sys, cdyn_constraint_set_motion(sys, c, &turn));
    }
    double v[3];
    ok(sys, cdyn_particle_get_velocity(sys, *bead, v));
    for (int k = 0; k < 3; k++)
        assert_near(v[k], v0[k], 1e-15);
    ok(sys, cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK45));
    ok(sys, ts_set_rk45_tolerance(sys, 1e-13, 1e-13));
    return sys;
}

static void test_rotating_hoop(void **state)
{
    (void)state;
    for (int implicit = 0; implicit < 2; implicit++) {
        cdyn_particle bead;
        cdyn_system *sys = hoop_system(implicit, &bead);
        double worst = 0, k0, u0;
        ok(sys, cdyn_system_get_kinetic_energy(sys, &k0));
        ok(sys, cdyn_system_get_potential_energy(sys, &u0));
        for (int i = 1; i <= 6; i++) {
            ok(sys, cdyn_system_step(sys, 0.5));
            double t = 0.5 * i, th = hoop_theta(t), x[3];
            double want[3] = {R * sin(th) * cos(OMEGA * t), R * sin(th) * sin(OMEGA * t),
                              -R * cos(th)};
            ok(sys, cdyn_particle_get_position(sys, bead, x));
            for (int k = 0; k < 3; k++)
                worst = fmax(worst, fabs(x[k] - want[k]));
        }
        double k1, u1, w;
        ok(sys, cdyn_system_get_kinetic_energy(sys, &k1));
        ok(sys, cdyn_system_get_potential_energy(sys, &u1));
        ok(sys, cdyn_system_get_drive_work(sys, &w));
        print_message("hoop (%s): largest position error %.3g m over 3 s; energy gained %.6f J, "
                      "drive work %.6f J\n", implicit ? "sphere and turning plane" : "moving circle",
                      worst, k1 + u1 - k0 - u0, w);
        assert_true(worst < 1e-10);
        assert_near(k1 + u1 - k0 - u0, w, 1e-9 * fabs(w));
        cdyn_system_destroy(sys);
    }
}

/* ---- the turning wire ----------------------------------------------- */

static const double W = 2.0, R0 = 0.5;

/* r(t) = A e^(w t) + B e^(-w t) + g/(2 w^2) sin(w t), r(0) = R0, r'(0) = 0. */
static double wire_r(double t)
{
    double c = G / (2 * W * W);
    /* A + B = R0, w (A - B) + w c = 0  =>  A - B = -c */
    double A = 0.5 * (R0 - c), B = 0.5 * (R0 + c);
    return A * exp(W * t) + B * exp(-W * t) + c * sin(W * t);
}

/* c(x, t) = -sin(w t) x + cos(w t) y: the wire's line, with its time
 * derivatives when asked (the user pointer says whether to give them). */
static int turning_line(const cdyn_system *sys, double t, int dim, const double *x, double *c,
                        double *grad, double *hess, double *c_t, double *grad_t, double *c_tt,
                        void *user)
{
    (void)sys;
    double s = sin(W * t), co = cos(W * t);
    *c = -s * x[0] + co * x[1];
    grad[0] = -s;
    grad[1] = co;
    memset(hess, 0, (size_t)(dim * dim) * sizeof *hess);
    if (c_t && *(const int *)user) {
        *c_t = -W * co * x[0] - W * s * x[1];
        grad_t[0] = -W * co;
        grad_t[1] = -W * s;
        *c_tt = W * W * (s * x[0] - co * x[1]);
    }
    return 0;
}

/* The same line as a user row. */
static int turning_row(const cdyn_system *sys, double t, size_t np, int dim, const double *x,
                       const double *v, size_t nr, double *g, double *jac, double *vt,
                       double *g_t, void *user)
{
    (void)sys, (void)np, (void)dim, (void)nr;
    double s = sin(W * t), co = cos(W * t);
    g[0] = -s * x[0] + co * x[1];
    jac[0] = -s;
    jac[1] = co;
    vt[0] = 0;
    if (g_t && *(const int *)user) {
        g_t[0] = -W * co * x[0] - W * s * x[1];
        /* 2 (dG/dt) v + d2g/dt2 */
        vt[0] = 2 * (-W * co * v[0] - W * s * v[1]) + W * W * (s * x[0] - co * x[1]);
    }
    return 0;
}

/* The wire as a curve that moves: r(q, t) = q (cos w t, sin w t). */
static int turning_curve(const cdyn_system *sys, double t, double q, double r[3], double dr[3],
                         double ddr[3], void *user)
{
    (void)sys, (void)user, (void)ddr;
    r[0] = q * cos(W * t);
    r[1] = q * sin(W * t);
    dr[0] = cos(W * t);
    dr[1] = sin(W * t);
    return 0;
}

enum wire_form { LINE_CARRIED, PLANE_CARRIED, IMPLICIT, IMPLICIT_FD, USER, USER_FD, CURVE_FD };
static const char *const FORM_NAME[] = {
    "line carried by a rotation", "turning line constraint", "implicit callback",
    "implicit callback, differences", "user row", "user row, differences",
    "curve callback, differences"};

static double wire_error(enum wire_form form)
{
    static const int given = 1, differenced = 0;
    cdyn_system *sys;
    ok(NULL, cdyn_system_create(2, &sys));
    cdyn_particle bead;
    bool shape = form == LINE_CARRIED || form == CURVE_FD;
    /* on the wire at t = 0, turning with it */
    double v0[2] = {0, shape ? 0 : W * R0};
    ok(sys, cdyn_particle_add(sys, 1.0, (double[]){R0, 0}, v0, &bead));
    cdyn_force f;
    ok(sys, cdyn_force_add_gravity(sys, (double[]){0, -G}, &f));
    cdyn_motion_desc turn;
    cdyn_motion_desc_init(&turn, CDYN_MOTION_ROTATION);
    turn.angular_velocity = W;
    cdyn_constraint c;
    cdyn_curve_desc cd;
    switch (form) {
    case LINE_CARRIED:
        cdyn_curve_desc_init(&cd, CDYN_CURVE_LINE);
        ok(sys, cdyn_constraint_add_on_curve(sys, bead, &cd, &c));
        ok(sys, cdyn_constraint_set_motion(sys, c, &turn));
        break;
    case PLANE_CARRIED:
        ok(sys, cdyn_constraint_add_plane(sys, bead, (double[]){0, 1}, 0, &c));
        ok(sys, cdyn_constraint_set_motion(sys, c, &turn));
        break;
    case IMPLICIT:
    case IMPLICIT_FD:
        ok(sys, cdyn_constraint_add_implicit(sys, bead, turning_line,
                                             (void *)(form == IMPLICIT ? &given : &differenced),
                                             &c));
        ok(sys, cdyn_constraint_set_time_dependent(sys, c, true));
        break;
    case USER:
    case USER_FD:
        ok(sys, cdyn_constraint_add_user(sys, &bead, 1, 1, turning_row,
                                         (void *)(form == USER ? &given : &differenced), &c));
        ok(sys, cdyn_constraint_set_time_dependent(sys, c, true));
        break;
    case CURVE_FD:
        cdyn_curve_desc_init(&cd, CDYN_CURVE_CALLBACK);
        cd.callback = turning_curve;
        cd.time_dependent = 1;
        ok(sys, cdyn_constraint_add_on_curve(sys, bead, &cd, &c));
        break;
    }
    double v[2];
    ok(sys, cdyn_particle_get_velocity(sys, bead, v));
    assert_near(v[1], W * R0, 1e-8);
    ok(sys, cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK45));
    ok(sys, ts_set_rk45_tolerance(sys, 1e-13, 1e-13));
    double worst = 0;
    for (int i = 1; i <= 6; i++) {
        ok(sys, cdyn_system_step(sys, 0.25));
        double t = 0.25 * i, r = wire_r(t), x[2];
        ok(sys, cdyn_particle_get_position(sys, bead, x));
        worst = fmax(worst, fmax(fabs(x[0] - r * cos(W * t)), fabs(x[1] - r * sin(W * t))));
    }
    double k, u, w;
    ok(sys, cdyn_system_get_kinetic_energy(sys, &k));
    ok(sys, cdyn_system_get_potential_energy(sys, &u));
    ok(sys, cdyn_system_get_drive_work(sys, &w));
    double e0 = 0.5 * (W * R0) * (W * R0);
    print_message("turning wire, %s: largest position error %.3g m over 1.5 s, "
                  "E - E0 - W = %.3g J (W = %.4f J)\n",
                  FORM_NAME[form], worst, k + u - e0 - w, w);
    assert_near(k + u - e0, w, form == IMPLICIT_FD || form == USER_FD || form == CURVE_FD
                                   ? 1e-6 * fabs(w)
                                   : 1e-9 * fabs(w));
    cdyn_system_destroy(sys);
    return worst;
}

static void test_turning_wire(void **state)
{
    (void)state;
    assert_true(wire_error(LINE_CARRIED) < 1e-10);
    assert_true(wire_error(PLANE_CARRIED) < 1e-10);
    assert_true(wire_error(IMPLICIT) < 1e-10);
    assert_true(wire_error(USER) < 1e-10);
    /* Differences in t with h = 2^-13 s: relative errors about
     * (w h)^2 / 6 ~ 1e-8 in the time terms. */
    assert_true(wire_error(IMPLICIT_FD) < 1e-6);
    assert_true(wire_error(USER_FD) < 1e-6);
    assert_true(wire_error(CURVE_FD) < 1e-6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rotating_hoop),
        cmocka_unit_test(test_turning_wire),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
