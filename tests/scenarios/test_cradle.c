/* Newton's cradle (docs/cradle.md): five steel balls hang on rods
 * (anchor constraints g_i = (|x_i - b_i|^2 - L^2) / 2) from hooks spaced
 * one diameter apart, so that neighbours touch at rest, and push on each
 * other through Hertz contacts (pair.h). The suite checks, with RATTLE:
 *
 *  - one ball released from 20 degrees: after the collision sequence the
 *    last ball carries >= 95 % of the momentum and of the kinetic energy,
 *    and the others move at less than a quarter of the impact speed;
 *  - two balls released together: the last two carry >= 95 %;
 *  - Hertz scaling: the outcome does not depend on the impact speed, and
 *    the sequence lasts as (impact speed)^(-1/5);
 *  - horizontal momentum: its change through the sequence is exactly the
 *    impulse of the rod forces (gravity is vertical, the contacts cancel in
 *    pairs), which the test computes from the rod tensions;
 *  - energy (kinetic + gravity + Hertz): the largest error through the
 *    sequence falls as dt^2 for RATTLE, and faster (but not at order 4:
 *    the Hertz force delta^(3/2) is not smooth at touch) for RK4.
 *
 * The swing towards the bottom takes 0.23 s and the contacts 0.1 ms, so the
 * test swings with a step of 0.1 ms and switches to a step of a fraction of
 * the Hertz contact time shortly before the first touch. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define NB 5 /* balls */

static const double RADIUS = 0.01;  /* m */
static const double ROD = 0.2;      /* m, hook to ball centre */
static const double GRAV = 9.81;    /* m/s^2 */
static const double DENSITY = 7850; /* kg/m^3, steel */
static const double YOUNG = 200e9;  /* Pa */
static const double POISSON = 0.3;
static const double RELEASE_DEG = 20; /* the release angle, unless stated */
static const double DT_SWING = 1e-4; /* s, step away from the contacts */

typedef struct cradle {
    cdyn_system *sys;
    cdyn_particle ball[NB];
    cdyn_force hertz;
    double m, k, hook[NB];
} cradle;

/* Speed at the bottom of a swing from @p deg degrees. */
static double impact_speed(double deg)
{
    return sqrt(2 * GRAV * ROD * (1 - cos(deg * TS_PI / 180)));
}

static double ball_mass(void)
{
    return DENSITY * 4.0 / 3.0 * TS_PI * RADIUS * RADIUS * RADIUS;
}

/* Hertz constant of two equal balls (pair.h): k = (4/3) E* sqrt(R*),
 * E* = E / (2 (1 - nu^2)), R* = R / 2. About 1.0e10 N/m^(3/2). */
static double hertz_k(void)
{
    return 4.0 / 3.0 * YOUNG / (2 * (1 - POISSON * POISSON)) * sqrt(RADIUS / 2);
}

/* Duration of a head-on Hertz collision of two free balls (reduced mass
 * mu = m / 2) at speed v: the largest overlap delta_m = (5 mu v^2 / (4 k))^(2/5)
 * and t_c = 2.94 delta_m / v (Landau and Lifshitz, Theory of Elasticity,
 * section 9). About 71 us here. Steps are chosen as fractions of it. */
static double contact_time(double deg)
{
    double v = impact_speed(deg);
    double delta = pow(5 * (ball_mass() / 2) * v * v / (4 * hertz_k()), 0.4);
    return 2.94 * delta / v;
}

/* Hooks at x = 2 R i, y = 0; the first @p pulled balls drawn back to the
 * release angle @p deg (to -x), the others hanging at rest, touching. */
static void cradle_make(cradle *c, int pulled, double deg, cdyn_integrator integrator)
{
    memset(c, 0, sizeof *c);
    c->m = ball_mass();
    c->k = hertz_k();
    assert_int_equal(cdyn_system_create(2, &c->sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(c->sys, integrator), CDYN_OK);
    for (int i = 0; i < NB; i++) {
        c->hook[i] = 2 * RADIUS * i;
        double th = i < pulled ? -deg * TS_PI / 180 : 0;
        double x[2] = {c->hook[i] + ROD * sin(th), -ROD * cos(th)};
        assert_int_equal(cdyn_particle_add(c->sys, c->m, x, NULL, &c->ball[i]), CDYN_OK);
        cdyn_constraint rod;
        assert_int_equal(cdyn_constraint_add_anchor(c->sys, c->ball[i],
                                                    (double[]){c->hook[i], 0}, ROD, &rod),
                         CDYN_OK);
    }
    cdyn_pair_params pp;
    assert_int_equal(cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ), CDYN_OK);
    pp.stiffness = c->k;
    pp.radius = RADIUS;
    cdyn_particle pairs[2 * (NB - 1)];
    for (int i = 0; i < NB - 1; i++) {
        pairs[2 * i] = c->ball[i];
        pairs[2 * i + 1] = c->ball[i + 1];
    }
    assert_int_equal(cdyn_force_add_pairs(c->sys, &pp, pairs, NB - 1, &c->hertz), CDYN_OK);
    cdyn_force g;
    assert_int_equal(cdyn_force_add_gravity(c->sys, (double[]){0, -GRAV}, &g), CDYN_OK);
}

static void get_state(const cradle *c, double *x, double *v)
{
    assert_int_equal(cdyn_system_get_positions(c->sys, x, 2 * NB), CDYN_OK);
    assert_int_equal(cdyn_system_get_velocities(c->sys, v, 2 * NB), CDYN_OK);
}

/* Distance between the surfaces of balls j and j + 1 (< 0: overlap). */
static double gap(const double *x, int j)
{
    return hypot(x[2 * j + 2] - x[2 * j], x[2 * j + 3] - x[2 * j + 1]) - 2 * RADIUS;
}

/* Rate at which that gap closes. */
static double closing_speed(const double *x, const double *v, int j)
{
    double dx = x[2 * j + 2] - x[2 * j], dy = x[2 * j + 3] - x[2 * j + 1];
    return -(dx * (v[2 * j + 2] - v[2 * j]) + dy * (v[2 * j + 3] - v[2 * j + 1])) /
           hypot(dx, dy);
}

static double total_energy(const cdyn_system *sys)
{
    double k, u;
    assert_int_equal(cdyn_system_get_kinetic_energy(sys, &k), CDYN_OK);
    assert_int_equal(cdyn_system_get_potential_energy(sys, &u), CDYN_OK);
    return k + u;
}

static double momentum_x(const cdyn_system *sys)
{
    double p[2];
    assert_int_equal(cdyn_system_get_momentum(sys, p), CDYN_OK);
    return p[0];
}

/* Horizontal force of the rods on all balls, from Newton's radial equation
 * for each ball: the rod pulls towards the hook with the tension
 *     T = m |v|^2 / L + m g cos(theta) + F_c . r
 * (centripetal force, the radial parts of gravity and of the Hertz contact
 * forces F_c, which the test computes from the formula of pair.h; r the
 * unit vector from hook to ball, cos(theta) = -r_y). Also returns the share
 * of the contact forces in *contact and an upper bound of the sum of the
 * magnitudes in *bound. */
static double rod_force_x(const cradle *c, const double *x, const double *v, double *contact,
                          double *bound)
{
    double fc[2 * NB] = {0};
    for (int j = 0; j < NB - 1; j++) {
        double dx = x[2 * j + 2] - x[2 * j], dy = x[2 * j + 3] - x[2 * j + 1];
        double d = hypot(dx, dy), overlap = 2 * RADIUS - d;
        if (overlap > 0) {
            double f = c->k * pow(overlap, 1.5);
            fc[2 * j + 2] += f * dx / d, fc[2 * j + 3] += f * dy / d;
            fc[2 * j] -= f * dx / d, fc[2 * j + 1] -= f * dy / d;
        }
    }
    double fx = 0;
    *contact = *bound = 0;
    for (int i = 0; i < NB; i++) {
        double rx = (x[2 * i] - c->hook[i]) / ROD, ry = x[2 * i + 1] / ROD;
        double v2 = v[2 * i] * v[2 * i] + v[2 * i + 1] * v[2 * i + 1];
        double fcr = fc[2 * i] * rx + fc[2 * i + 1] * ry;
        fx -= (c->m * v2 / ROD - c->m * GRAV * ry + fcr) * rx;
        *contact -= fcr * rx;
        *bound += (c->m * (v2 / ROD + GRAV) + fabs(fcr)) * fabs(rx);
    }
    return fx;
}

/* What one collision sequence did. "Before" is the last step before the
 * first two balls overlap, "after" the first step at which every gap is
 * open again. */
typedef struct sequence {
    double p_before, p_after;   /* horizontal momentum (kg m/s) */
    double rod_impulse;         /* integral of rod_force_x from before to after */
    double rod_impulse_contact; /* the contact forces' share of it */
    double rod_impulse_bound;   /* integral of the bound */
    double e_max;  /* max |E - E_switch| / E_release over the short steps */
    double e_after; /* |E - E_switch| / E_release after the sequence */
    double ke_after;            /* total kinetic energy after (J) */
    double v[2 * NB];           /* velocities after */
    double duration;            /* first touch to all open (s) */
    double e_release;           /* potential energy of the release (J) */
    long steps;                 /* short steps taken */
} sequence;

static sequence run(int pulled, double deg, cdyn_integrator integrator, double dt)
{
    cradle c;
    cradle_make(&c, pulled, deg, integrator);
    sequence s;
    memset(&s, 0, sizeof s);
    s.e_release = pulled * c.m * GRAV * ROD * (1 - cos(deg * TS_PI / 180));
    double x[2 * NB], v[2 * NB];

    /* Swing with long steps while no pair could close within two of
     * them. Pairs at rest touching (gap 0 up to round-off) do not count. */
    for (bool near = false; !near;) {
        get_state(&c, x, v);
        for (int j = 0; j < NB - 1; j++) {
            double w = closing_speed(x, v, j);
            if ((w > 1e-6 && gap(x, j) < 2 * DT_SWING * w) || gap(x, j) < -1e-12)
                near = true;
        }
        if (!near)
            assert_int_equal(cdyn_system_step(c.sys, DT_SWING), CDYN_OK);
    }
    double t_switch, e_switch = total_energy(c.sys);
    assert_int_equal(cdyn_system_get_time(c.sys, &t_switch), CDYN_OK);
    /* The first touch is between the last pulled ball and the next. */
    const int first = pulled - 1;
    assert_true(gap(x, first) > 0);

    double contact, bound, p_prev = momentum_x(c.sys);
    double f_prev = rod_force_x(&c, x, v, &contact, &bound);
    double c_prev = contact, b_prev = bound, t_touch = 0;
    bool touched = false;
    const long cap = lround(2e-3 / dt); /* the sequence lasts ~0.3 ms */
    for (;;) {
        assert_true(s.steps < cap);
        assert_int_equal(cdyn_system_step(c.sys, dt), CDYN_OK);
        s.steps++;
        get_state(&c, x, v);
        double e = fabs(total_energy(c.sys) - e_switch) / s.e_release;
        s.e_max = fmax(s.e_max, e);
        double f = rod_force_x(&c, x, v, &contact, &bound);
        if (!touched && gap(x, first) < 0) {
            touched = true;
            s.p_before = p_prev;
            assert_int_equal(cdyn_system_get_time(c.sys, &t_touch), CDYN_OK);
        }
        if (touched) { /* trapezoid rule over the step */
            s.rod_impulse += 0.5 * dt * (f + f_prev);
            s.rod_impulse_contact += 0.5 * dt * (contact + c_prev);
            s.rod_impulse_bound += 0.5 * dt * (bound + b_prev);
            bool open = true;
            for (int j = 0; j < NB - 1; j++)
                open = open && gap(x, j) > 0;
            if (open) {
                s.p_after = momentum_x(c.sys);
                s.e_after = e;
                double t;
                assert_int_equal(cdyn_system_get_time(c.sys, &t), CDYN_OK);
                s.duration = t - t_touch;
                assert_int_equal(cdyn_system_get_kinetic_energy(c.sys, &s.ke_after), CDYN_OK);
                memcpy(s.v, v, sizeof s.v);
                break;
            }
        }
        p_prev = momentum_x(c.sys);
        f_prev = f, c_prev = contact, b_prev = bound;
    }
    cdyn_system_destroy(c.sys);
    return s;
}

/* Share of the horizontal momentum and of the kinetic energy carried by
 * balls [from, NB) after the sequence; the fastest other ball's speed. */
static void shares(const sequence *s, int from, double *p_share, double *e_share,
                   double *others)
{
    double m = ball_mass(), p = 0, e = 0;
    *others = 0;
    for (int i = 0; i < NB; i++) {
        double vx = s->v[2 * i], vy = s->v[2 * i + 1];
        if (i >= from) {
            p += m * vx;
            e += 0.5 * m * (vx * vx + vy * vy);
        } else {
            *others = fmax(*others, hypot(vx, vy));
        }
    }
    *p_share = p / s->p_after;
    *e_share = e / s->ke_after;
}

static void print_sequence(const char *what, const sequence *s, double v0)
{
    print_message("%s: sequence %.1f us (%ld steps), v/v0 after:", what, s->duration * 1e6,
                  s->steps);
    for (int i = 0; i < NB; i++)
        print_message(" %+.4f", s->v[2 * i] / v0);
    print_message("\n");
}

/* One ball in, one ball out. */
static void test_one_ball(void **state)
{
    (void)state;
    const double tc = contact_time(RELEASE_DEG), v0 = impact_speed(RELEASE_DEG);
    sequence s = run(1, RELEASE_DEG, CDYN_INTEGRATOR_RATTLE, tc / 64);
    print_sequence("one ball in", &s, v0);
    double p_share, e_share, others;
    shares(&s, NB - 1, &p_share, &e_share, &others);
    print_message("  last ball: %.4f of the momentum, %.4f of the kinetic energy; fastest "
                  "other ball %.3f v0; KE after / release energy %.6f\n",
                  p_share, e_share, others / v0, s.ke_after / s.e_release);
    assert_true(p_share >= 0.95);
    assert_true(e_share >= 0.95);
    /* Nearly at rest: each other ball below v0 / 4, i.e. with less than
     * 1/16 of the kinetic energy the released ball had. */
    assert_true(others <= 0.25 * v0);
    /* Nothing lost or made: the kinetic energy after is the release
     * energy to the energy error of the integrator. */
    assert_near(s.ke_after / s.e_release, 1, 1e-3);
}

/* Two balls in, two balls out. */
static void test_two_balls(void **state)
{
    (void)state;
    const double tc = contact_time(RELEASE_DEG), v0 = impact_speed(RELEASE_DEG);
    sequence s = run(2, RELEASE_DEG, CDYN_INTEGRATOR_RATTLE, tc / 64);
    print_sequence("two balls in", &s, v0);
    double p_share, e_share, others;
    shares(&s, NB - 2, &p_share, &e_share, &others);
    print_message("  last two balls: %.4f of the momentum, %.4f of the kinetic energy; "
                  "fastest other ball %.3f v0\n", p_share, e_share, others / v0);
    assert_true(p_share >= 0.95);
    assert_true(e_share >= 0.95);
    assert_true(others <= 0.25 * v0);
    assert_near(s.ke_after / s.e_release, 1, 1e-3);
}

/* Hertz scaling: with F = k delta^(3/2) the equations of the touching
 * chain are unchanged when velocities scale by s, times by s^(-1/5) and
 * overlaps by s^(4/5) (gravity and the rods act over far longer times).
 * So the velocities after the sequence, over the impact speed, do not
 * depend on the release angle, and the sequence lasts as v0^(-1/5). From
 * 5 and 60 degrees (v0 differ 11.5 times): velocities agree to 1e-3 v0;
 * the durations, counted in steps of t_c / 64 (t_c scales too), agree
 * with the law to 3 % (two steps in the ~160 of a sequence). */
static void test_hertz_scaling(void **state)
{
    (void)state;
    const double deg[2] = {5, 60};
    sequence s[2];
    for (int k = 0; k < 2; k++) {
        s[k] = run(1, deg[k], CDYN_INTEGRATOR_RATTLE, contact_time(deg[k]) / 64);
        char what[32];
        snprintf(what, sizeof what, "from %g degrees", deg[k]);
        print_sequence(what, &s[k], impact_speed(deg[k]));
    }
    for (int i = 0; i < NB; i++)
        assert_near(s[0].v[2 * i] / impact_speed(deg[0]), s[1].v[2 * i] / impact_speed(deg[1]),
                    1e-3);
    double want = pow(impact_speed(deg[1]) / impact_speed(deg[0]), 0.2);
    print_message("duration ratio %.4f, v0 ratio^(1/5) %.4f\n", s[0].duration / s[1].duration,
                  want);
    assert_near(s[0].duration / s[1].duration / want, 1, 0.03);
}

/* The contacts exchange momentum exactly: through the sequence the total
 * horizontal momentum changes by the impulse of the rods alone. That
 * impulse (~1e-6 of the momentum, mostly gravity and centripetal tension
 * of the balls slightly off the vertical) is integrated by the trapezoid
 * rule from the states at the ends of the steps; its contact part (the
 * rods taking up the radial component of the contact forces, ~1e-8 of the
 * momentum) varies over the contact time t_c, so with t_c / dt = 64 the
 * quadrature is good to ~(dt / t_c)^2 ~ 2.4e-4 of it: the budget must close
 * to 1e-3 of the contact part (plus round-off). */
static void check_momentum(int pulled)
{
    sequence s = run(pulled, RELEASE_DEG, CDYN_INTEGRATOR_RATTLE, contact_time(RELEASE_DEG) / 64);
    double dp = s.p_after - s.p_before;
    double tol = 1e-3 * fabs(s.rod_impulse_contact) + 1e-13 * fabs(s.p_before);
    print_message("%d in: P before %.9g, dP/P %.3g, rod impulse/P %.3g (contact part %.3g, "
                  "bound %.3g), budget error/P %.3g (tolerance %.3g)\n", pulled, s.p_before,
                  dp / s.p_before, s.rod_impulse / s.p_before,
                  s.rod_impulse_contact / s.p_before, s.rod_impulse_bound / s.p_before,
                  (dp - s.rod_impulse) / s.p_before, tol / s.p_before);
    assert_true(fabs(dp) <= s.rod_impulse_bound);
    assert_true(fabs(dp - s.rod_impulse) <= tol);
    /* The budget is sharp enough to see the contact part. */
    assert_true(fabs(s.rod_impulse_contact) > 10 * tol);
}

static void test_momentum(void **state)
{
    (void)state;
    check_momentum(1);
    check_momentum(2);
}

/* Energy error through the collision sequence (measured from the switch to
 * short steps: the swing before is the same in every run) at steps of
 * t_c / 32, / 64, / 128. RATTLE: a symplectic method of order 2, whose
 * energy error stays bounded and falls as dt^2: by 4 per halving; allowed
 * 2^1.6 .. 2^2.4. RK4: order 4 for smooth forces, but the Hertz force
 * k delta^(3/2) has an unbounded second derivative at touch and release,
 * and a step across such an instant makes an error O(dt^(5/2)) whose size
 * depends on where in the step the instant falls; the fitted order over
 * t_c / 16 .. t_c / 128 is allowed 2 .. 4.5. */
static void test_energy_order(void **state)
{
    (void)state;
    const double tc = contact_time(RELEASE_DEG);
    double h[4], rattle[4], rk4[4];
    for (int i = 0; i < 4; i++) {
        h[i] = tc / (16 << i);
        rk4[i] = run(1, RELEASE_DEG, CDYN_INTEGRATOR_RK4, h[i]).e_max;
        sequence s = run(1, RELEASE_DEG, CDYN_INTEGRATOR_RATTLE, h[i]);
        rattle[i] = s.e_max;
        print_message("dt = t_c / %3d = %.3g s: max energy error RATTLE %.3g (after the "
                      "sequence %.3g), RK4 %.3g\n", 16 << i, h[i], rattle[i], s.e_after,
                      rk4[i]);
    }
    for (int i = 1; i < 3; i++) {
        double ratio = rattle[i] / rattle[i + 1];
        print_message("RATTLE: error ratio t_c/%d -> t_c/%d: %.3f\n", 16 << i, 32 << i, ratio);
        assert_true(ratio >= pow(2, 1.6) && ratio <= pow(2, 2.4));
    }
    double order = ts_fit_order(h, rk4, 4);
    print_message("RK4: fitted order %.2f\n", order);
    assert_true(order >= 2 && order <= 4.5);
    /* At every step RK4 is the more accurate: order > 2 from a smaller
     * constant. */
    for (int i = 0; i < 4; i++)
        assert_true(rk4[i] < rattle[i]);
    /* A meaningful step: the error is small at t_c / 64. */
    assert_true(rattle[2] < 1e-3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_ball),
        cmocka_unit_test(test_two_balls),
        cmocka_unit_test(test_hertz_scaling),
        cmocka_unit_test(test_momentum),
        cmocka_unit_test(test_energy_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
