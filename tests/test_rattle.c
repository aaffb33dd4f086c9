/* RATTLE and the projection options (docs/rattle.md): positions and
 * velocities stay on the tangent bundle (g = 0, G v = 0) at every step;
 * bounded energy error over 10^6 steps of a 10-link chain pendulum; time
 * reversibility; order 2; the classic SHAKE and the Newton projection give
 * the same trajectory; other constraint kinds; post-step projection of the
 * other integrators; unsatisfiable constraints and bad input change
 * nothing; no allocation in a step; out of memory.
 *
 * Usage: test_rattle [cmocka test name pattern] */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define MAXP 64

typedef struct chain {
    cdyn_system *sys;
    int dim, n;
    cdyn_particle p[MAXP + 1]; /* p[0] the pivot */
    cdyn_constraint rod[MAXP];
} chain;

static void set_options(cdyn_system *sys, cdyn_projection_method method, double tol,
                        int enabled)
{
    cdyn_projection_options o;
    cdyn_projection_options_init(&o);
    o.method = method;
    o.position_tolerance = tol;
    o.velocity_tolerance = tol;
    o.max_iterations = 100000;
    o.enabled = enabled;
    assert_int_equal(cdyn_system_set_projection_options(sys, &o), CDYN_OK);
}

/* The standard chain of n links (ts_standard_chain). In 3-D each mass also
 * gets a velocity along z (orthogonal to the rods,
 * which lie along x: on the tangent bundle), so that the motion leaves the
 * plane. */
static void make_chain(chain *c, int dim, int n, cdyn_integrator integrator,
                       cdyn_projection_method method, double tol)
{
    assert_true(n <= MAXP);
    c->dim = dim;
    c->n = n;
    assert_int_equal(cdyn_system_create(dim, &c->sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(c->sys, integrator), CDYN_OK);
    set_options(c->sys, method, tol, 0);
    assert_int_equal(ts_standard_chain(c->sys, n, c->p, c->rod), CDYN_OK);
    for (int i = 1; i <= n && dim == 3; i++) {
        double vi[3] = {0, 0, 0.3 * sin(i)};
        assert_int_equal(cdyn_particle_set_velocity(c->sys, c->p[i], vi), CDYN_OK);
    }
}

static double energy(cdyn_system *sys)
{
    double k, u;
    assert_int_equal(cdyn_system_get_kinetic_energy(sys, &k), CDYN_OK);
    assert_int_equal(cdyn_system_get_potential_energy(sys, &u), CDYN_OK);
    return k + u;
}

static double max_speed(const cdyn_system *sys)
{
    size_t n;
    cdyn_system_get_index_count(sys, &n);
    int d = cdyn_system_get_dimension(sys);
    double v[(MAXP + 1) * 3], s = 0;
    assert_true(n <= MAXP + 1);
    cdyn_system_get_velocities(sys, v, n * (size_t)d);
    for (size_t i = 0; i < n; i++) {
        double q = 0;
        for (int k = 0; k < d; k++)
            q += v[i * (size_t)d + (size_t)k] * v[i * (size_t)d + (size_t)k];
        s = fmax(s, sqrt(q));
    }
    return s;
}

static void get_state(cdyn_system *sys, double *x, double *v)
{
    size_t n;
    cdyn_system_get_index_count(sys, &n);
    size_t m = n * (size_t)cdyn_system_get_dimension(sys);
    assert_int_equal(cdyn_system_get_positions(sys, x, m), CDYN_OK);
    if (v)
        assert_int_equal(cdyn_system_get_velocities(sys, v, m), CDYN_OK);
}

/* ---------------------------------------------------------------------- */

static void test_options(void **state)
{
    (void)state;
    cdyn_projection_options o;
    memset(&o, 0xff, sizeof o);
    cdyn_projection_options_init(&o);
    assert_int_equal(o.size, sizeof o);
    assert_int_equal(o.enabled, 0);
    assert_int_equal(o.method, CDYN_PROJECTION_NEWTON);
    assert_true(o.position_tolerance == 1e-10 && o.velocity_tolerance == 1e-10);
    assert_int_equal(o.max_iterations, 1000);
    cdyn_projection_options_init(NULL);

    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    cdyn_projection_options got = {.size = sizeof got};
    assert_int_equal(cdyn_system_get_projection_options(sys, &got), CDYN_OK);
    assert_memory_equal(&got, &o, sizeof o);
    cdyn_projection_stats st = {.size = sizeof st};
    assert_int_equal(cdyn_system_get_projection_stats(sys, &st), CDYN_OK);
    assert_int_equal(st.projections, 0);
    assert_int_equal(st.size, sizeof st);

    o.enabled = 1;
    o.method = CDYN_PROJECTION_SHAKE;
    o.position_tolerance = 1e-8;
    o.velocity_tolerance = 1e-7;
    o.max_iterations = 77;
    assert_int_equal(cdyn_system_set_projection_options(sys, &o), CDYN_OK);
    assert_int_equal(cdyn_system_get_projection_options(sys, &got), CDYN_OK);
    assert_memory_equal(&got, &o, sizeof o);

    /* Each bad field is refused and changes nothing. */
    cdyn_projection_options bad;
    const struct {
        int field;
        double value;
    } cases[] = {{0, 0},   {1, 2},         {1, -1},       {2, 0},    {2, 3},
                 {3, 0},   {3, -1e-9},     {3, 1},        {3, NAN},  {3, INFINITY},
                 {4, 0},   {4, 1.5},       {4, NAN},      {5, 0},    {5, 4294967296.0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bad = o;
        switch (cases[i].field) {
        case 0: bad.size = sizeof bad - 1; break;
        case 1: bad.enabled = (int)cases[i].value; break;
        case 2: bad.method = (cdyn_projection_method)(int)cases[i].value; break;
        case 3: bad.position_tolerance = cases[i].value; break;
        case 4: bad.velocity_tolerance = cases[i].value; break;
        case 5: bad.max_iterations = (size_t)cases[i].value; break;
        }
        if (cases[i].field == 5 && sizeof(size_t) < 8 && cases[i].value > 0)
            continue;
        assert_int_equal(cdyn_system_set_projection_options(sys, &bad), CDYN_ERR_INVALID_ARGUMENT);
        assert_true(strlen(cdyn_system_last_error(sys)) > 0);
        assert_int_equal(cdyn_system_get_projection_options(sys, &got), CDYN_OK);
        assert_memory_equal(&got, &o, sizeof o);
    }
    assert_int_equal(cdyn_system_set_projection_options(sys, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_set_projection_options(NULL, &o), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_get_projection_options(sys, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_get_projection_options(NULL, &got), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_get_projection_stats(sys, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_get_projection_stats(NULL, &st), CDYN_ERR_INVALID_ARGUMENT);
    got.size = 0;
    assert_int_equal(cdyn_system_get_projection_options(sys, &got), CDYN_ERR_INVALID_ARGUMENT);
    /* A shorter size (an older caller) gets the fields it knows. */
    struct {
        size_t size;
        int enabled;
    } small = {sizeof(size_t) + sizeof(int), 0};
    assert_int_equal(cdyn_system_get_projection_options(sys, (cdyn_projection_options *)(void *)&small),
                     CDYN_OK);
    assert_int_equal(small.enabled, 1);

    /* The integrator enum: RATTLE is 6. */
    assert_int_equal((int)CDYN_INTEGRATOR_RATTLE, 6);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE), CDYN_OK);
    cdyn_integrator in;
    assert_int_equal(cdyn_system_get_integrator(sys, &in), CDYN_OK);
    assert_int_equal(in, CDYN_INTEGRATOR_RATTLE);
    /* No particles: a step only advances time. */
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    cdyn_system_destroy(sys);
}

/* Positions and velocities on the tangent bundle at every step, both
 * methods, 2-D and 3-D: |g| / b <= tol L and |G v| / b <= tol (max speed),
 * read through cdyn_system_compute_constraint_residuals. */
static void test_on_manifold_every_step(void **state)
{
    (void)state;
    const double tol = 1e-10;
    for (int dim = 2; dim <= 3; dim++)
        for (int m = 1; m <= 2; m++) {
            chain c;
            make_chain(&c, dim, 10, CDYN_INTEGRATOR_RATTLE, (cdyn_projection_method)m, tol);
            double worst_p = 0, worst_v = 0;
            int steps = m == CDYN_PROJECTION_SHAKE ? 300 : 2000;
            for (int s = 0; s < steps; s++) {
                assert_int_equal(cdyn_system_step(c.sys, 1e-3), CDYN_OK);
                double pr, vr;
                assert_int_equal(cdyn_system_compute_constraint_residuals(c.sys, &pr, &vr),
                                 CDYN_OK);
                double vmax = max_speed(c.sys);
                worst_p = fmax(worst_p, pr / 0.1);
                worst_v = fmax(worst_v, vr / vmax);
                assert_true(pr <= tol * 0.1 * (1 + 1e-6));
                assert_true(vr <= tol * vmax);
                cdyn_projection_stats st = {.size = sizeof st};
                assert_int_equal(cdyn_system_get_projection_stats(c.sys, &st), CDYN_OK);
                assert_true(st.position_residual <= tol && st.velocity_residual <= tol);
                assert_true(cdyn_constraint_is_valid(c.sys, st.worst));
            }
            cdyn_projection_stats st = {.size = sizeof st};
            cdyn_system_get_projection_stats(c.sys, &st);
            print_message("%d-D %s: worst |g|/(b L) %.2e, |Gv|/(b |v|max) %.2e; %.2f position "
                          "and %.2f velocity iterations per step, %llu factorizations in %d "
                          "steps\n",
                          dim, m == 1 ? "SHAKE " : "Newton", worst_p, worst_v,
                          (double)st.position_iterations_total / steps,
                          (double)st.velocity_iterations_total / steps,
                          (unsigned long long)st.factorizations, steps);
            assert_int_equal(st.projections, (uint64_t)steps);
            assert_int_equal(st.not_converged, 0);
            /* The chain kernel factors the Newton matrix and, in the sweep
             * that converges, G(x1) W G(x1)^T: two per step and solve. */
            if (m == CDYN_PROJECTION_NEWTON)
                assert_true(st.factorizations <=
                            2 * ((uint64_t)steps + st.position_iterations_total));
            cdyn_system_destroy(c.sys);
        }
}

static double median5(const double *v)
{
    double s[5];
    memcpy(s, v, sizeof s);
    for (int i = 1; i < 5; i++)
        for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
            double t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
    return s[2];
}

/* Energy error of the 10-link chain pendulum over 10^6 steps (1000 s):
 * bounded, no drift. The chain is released from horizontal and moves
 * chaotically; the energy error oscillates at O(dt^2), with spikes when the
 * free end whips. Sampled every 100 steps: the largest error and the mean
 * error of each tenth of the run; no drift means the means stay within a
 * small fraction of the largest error, and the typical largest error of a
 * tenth (the median over a half) does not grow from the first half to the
 * second. */
static void test_energy_bounded(void **state)
{
    (void)state;
    chain c;
    make_chain(&c, 2, 10, CDYN_INTEGRATOR_RATTLE, CDYN_PROJECTION_NEWTON, 1e-12);
    const double e0 = energy(c.sys);
    /* Energy scale: the depth of the potential well, the chain hanging
     * straight down: sum m g 0.1 i. */
    const double scale = 9.81 * 0.1 * 55.0;
    const long steps = 1000000, every = 100, per_tenth = steps / every / 10;
    double worst[10] = {0}, mean[10] = {0};
    for (long s = 1; s <= steps; s++) {
        if (cdyn_system_step(c.sys, 1e-3) != CDYN_OK)
            fail_msg("step %ld: %s", s, cdyn_system_last_error(c.sys));
        if (s % every)
            continue;
        double e = (energy(c.sys) - e0) / scale;
        long tenth = (s / every - 1) / per_tenth;
        worst[tenth] = fmax(worst[tenth], fabs(e));
        mean[tenth] += e / (double)per_tenth;
    }
    double all = 0, spread = 0;
    for (int t = 0; t < 10; t++) {
        all = fmax(all, worst[t]);
        spread = fmax(spread, fabs(mean[t] - mean[0]));
    }
    double pr;
    cdyn_system_compute_constraint_residuals(c.sys, &pr, NULL);
    print_message("10-link chain, 10^6 steps of 1 ms: max |dE| / E_scale %.3e; per tenth of the "
                  "run: max %.2e .. %.2e, mean %.2e .. %.2e (largest change of the mean %.1e); "
                  "rod residual at the end %.1e m\n",
                  all, worst[0], worst[9], mean[0], mean[9], spread, pr);
    /* The largest error of a tenth is set by a few whips of the free end:
     * a spike of 5e-3 to 8e-3 falls in any tenth of the run (perturbing
     * the start by 1e-15 m/s moves it), so the halves are compared by
     * the median of their tenths' largest errors, which a drift would
     * raise and a single spike does not. */
    double early = median5(worst), late = median5(worst + 5);
    assert_true(all < 2e-2);
    assert_true(spread < 0.05 * all);
    assert_true(late < 2 * early);
    assert_true(pr < 1e-12 * 0.1 * 2);
    cdyn_system_destroy(c.sys);
}

/* Time reversibility: N steps, negate the velocities, N steps: back to the
 * start (positions to 1e-9 m, velocities to 1e-9 m/s). The forward run
 * must reach the same manifold points the backward run starts from; with
 * tight tolerances the round-trip error is the projections' tolerance times
 * the growth of perturbations over the run. */
static void test_time_reversible(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++)
        for (int m = 1; m <= 2; m++) {
            chain c;
            make_chain(&c, dim, m == 1 ? 4 : 10, CDYN_INTEGRATOR_RATTLE,
                       (cdyn_projection_method)m, 1e-14);
            /* Start on the tangent bundle (a RATTLE step ends there). */
            assert_int_equal(cdyn_system_step(c.sys, 1e-3), CDYN_OK);
            const int n = m == 1 ? 200 : 1000;
            double x0[(MAXP + 1) * 3], v0[(MAXP + 1) * 3], x1[(MAXP + 1) * 3],
                v1[(MAXP + 1) * 3];
            get_state(c.sys, x0, v0);
            size_t len = (size_t)(c.n + 1) * (size_t)dim;
            for (int s = 0; s < n; s++)
                assert_int_equal(cdyn_system_step(c.sys, 1e-3), CDYN_OK);
            get_state(c.sys, x1, v1);
            for (size_t i = 0; i < len; i++)
                v1[i] = -v1[i];
            assert_int_equal(cdyn_system_set_velocities(c.sys, v1, len), CDYN_OK);
            for (int s = 0; s < n; s++)
                assert_int_equal(cdyn_system_step(c.sys, 1e-3), CDYN_OK);
            get_state(c.sys, x1, v1);
            double ex = 0, ev = 0;
            for (size_t i = 0; i < len; i++) {
                ex = fmax(ex, fabs(x1[i] - x0[i]));
                ev = fmax(ev, fabs(-v1[i] - v0[i]));
            }
            print_message("%d-D %s, %d steps there and back: position error %.2e m, velocity "
                          "error %.2e m/s\n",
                          dim, m == 1 ? "SHAKE " : "Newton", n, ex, ev);
            assert_true(ex < 1e-9);
            assert_true(ev < 1e-9);
            cdyn_system_destroy(c.sys);
        }
}

/* Order 2: a bent 5-link chain released at rest about 0.5 rad below the
 * horizontal, integrated to t = 0.3 s with dt = 4, 2, 1, 0.5 ms against
 * dt = 1/64 ms; the fitted order of the position error is 2. Also with a
 * velocity-dependent force (drag), which takes the corrector path. */
static double order_error(double dt, double t_end, int drag, double *out_x, size_t len)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE), CDYN_OK);
    set_options(sys, CDYN_PROJECTION_NEWTON, 1e-14, 0);
    cdyn_particle prev, p;
    assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0, 0}, NULL, &prev), CDYN_OK);
    cdyn_particle_set_fixed(sys, prev, true);
    for (int i = 1; i <= 5; i++) {
        /* Alternate bends so the links move relative to each other. */
        double ang = -0.5 + 0.3 * (i % 2 ? 1 : -1) * (i > 1);
        double q[2];
        cdyn_particle_get_position(sys, prev, q);
        double xi[2] = {q[0] + 0.1 * cos(ang), q[1] + 0.1 * sin(ang)};
        assert_int_equal(cdyn_particle_add(sys, 1.0 + 0.2 * i, xi, NULL, &p), CDYN_OK);
        cdyn_constraint c;
        assert_int_equal(cdyn_constraint_add_distance(sys, prev, p, 0.1, &c), CDYN_OK);
        prev = p;
    }
    cdyn_force f;
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &f), CDYN_OK);
    if (drag)
        assert_int_equal(cdyn_force_add_drag(sys, 0.5, &f), CDYN_OK);
    long n = lround(t_end / dt);
    for (long s = 0; s < n; s++)
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
    assert_int_equal(cdyn_system_get_positions(sys, out_x, len), CDYN_OK);
    cdyn_system_destroy(sys);
    return 0;
}

static void test_order_two(void **state)
{
    (void)state;
    for (int drag = 0; drag <= 1; drag++) {
        const size_t len = 12;
        double ref[12], x[12];
        order_error(1.5625e-5, 0.3, drag, ref, len);
        double h[4] = {4e-3, 2e-3, 1e-3, 5e-4}, err[4];
        for (int k = 0; k < 4; k++) {
            order_error(h[k], 0.3, drag, x, len);
            err[k] = 0;
            for (size_t i = 0; i < len; i++)
                err[k] = fmax(err[k], fabs(x[i] - ref[i]));
        }
        double order = ts_fit_order(h, err, 4);
        print_message("%s: errors %.2e %.2e %.2e %.2e at dt = 4, 2, 1, 0.5 ms: order %.3f\n",
                      drag ? "with drag" : "conservative", err[0], err[1], err[2], err[3], order);
        assert_true(order > 1.85 && order < 2.2);
    }
}

/* The classic and the Newton projection converge to the same RATTLE step:
 * trajectories agree to the tolerance (times the growth of differences
 * over the run). */
static void test_shake_equals_newton(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        chain a, b;
        make_chain(&a, dim, 10, CDYN_INTEGRATOR_RATTLE, CDYN_PROJECTION_SHAKE, 1e-12);
        make_chain(&b, dim, 10, CDYN_INTEGRATOR_RATTLE, CDYN_PROJECTION_NEWTON, 1e-12);
        double xa[(MAXP + 1) * 3], xb[(MAXP + 1) * 3], va[(MAXP + 1) * 3], vb[(MAXP + 1) * 3];
        double worst_x = 0, worst_v = 0;
        size_t len = 11 * (size_t)dim;
        for (int s = 0; s < 200; s++) {
            assert_int_equal(cdyn_system_step(a.sys, 1e-3), CDYN_OK);
            assert_int_equal(cdyn_system_step(b.sys, 1e-3), CDYN_OK);
            get_state(a.sys, xa, va);
            get_state(b.sys, xb, vb);
            for (size_t i = 0; i < len; i++) {
                worst_x = fmax(worst_x, fabs(xa[i] - xb[i]));
                worst_v = fmax(worst_v, fabs(va[i] - vb[i]));
            }
        }
        print_message("%d-D: SHAKE and Newton differ by at most %.2e m and %.2e m/s over 200 "
                      "steps (tolerance 1e-12)\n", dim, worst_x, worst_v);
        assert_true(worst_x < 1e-10);
        assert_true(worst_v < 1e-8);
        cdyn_system_destroy(a.sys);
        cdyn_system_destroy(b.sys);
    }
}

/* The anchor constraints g_i = (|q_i - b_i|^2 - L^2) / 2 (anchors, a
 * Newton's cradle without contacts), pins, planes, an implicit curve and a
 * user constraint, all under RATTLE with both methods. */
static int user_rod(const cdyn_system *sys, double t, size_t np, int dim, const double *x,
                    const double *v, size_t nr, double *g, double *jac, double *jdot_v, double *g_t,
                    void *user)
{
    (void)sys, (void)t, (void)g_t;
    (void)np, (void)nr;
    double l = *(const double *)user, d2 = 0, dv2 = 0;
    for (int k = 0; k < dim; k++) {
        double dk = x[dim + k] - x[k], vk = v[dim + k] - v[k];
        jac[k] = -dk;
        jac[dim + k] = dk;
        d2 += dk * dk;
        dv2 += vk * vk;
    }
    g[0] = 0.5 * (d2 - l * l);
    jdot_v[0] = dv2;
    return 0;
}

static int circle_curve(const cdyn_system *sys, double t, int dim, const double *x, double *c,
                 double *gradient, double *hessian, double *c_t, double *grad_t, double *c_tt,
                 void *user)
{
    (void)sys, (void)t, (void)c_t, (void)grad_t, (void)c_tt;
    (void)user;
    /* x^2 + (y + 1)^2 = 1 in the xy plane (z free in 3-D). */
    *c = 0.5 * (x[0] * x[0] + (x[1] + 1) * (x[1] + 1) - 1);
    memset(gradient, 0, (size_t)dim * sizeof *gradient);
    memset(hessian, 0, (size_t)(dim * dim) * sizeof *hessian);
    gradient[0] = x[0];
    gradient[1] = x[1] + 1;
    hessian[0] = 1;
    hessian[dim + 1] = 1;
    return 0;
}

static void test_other_kinds(void **state)
{
    (void)state;
    static double user_len = 0.15;
    for (int m = 1; m <= 2; m++) {
        cdyn_system *sys;
        assert_int_equal(cdyn_system_create(3, &sys), CDYN_OK);
        assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE), CDYN_OK);
        set_options(sys, (cdyn_projection_method)m, 1e-11, 0);
        cdyn_constraint c;
        /* Three pendulums hanging from hooks along x (anchors), the first
         * pulled aside. */
        cdyn_particle ball[3];
        for (int i = 0; i < 3; i++) {
            double hook[3] = {0.1 * i, 0, 0};
            double x[3] = {0.1 * i + (i == 0 ? -0.3 : 0.0), i == 0 ? -0.4 : -0.5, 0};
            double len = i == 0 ? 0.5 : 0.5;
            assert_int_equal(cdyn_particle_add(sys, 1.0, x, (double[]){0, 0, 0.2 * i}, &ball[i]),
                             CDYN_OK);
            assert_int_equal(cdyn_constraint_add_anchor(sys, ball[i], hook, len, &c), CDYN_OK);
        }
        /* A rod between two particles held on the plane z = 1; a pinned
         * particle and a user-defined rod to a free one. */
        cdyn_particle a, b, e, f;
        assert_int_equal(cdyn_particle_add(sys, 2.0, (double[]){1, 0, 1}, (double[]){0, 0.5, 0}, &a),
                         CDYN_OK);
        assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){1.2, 0, 1}, (double[]){0, -0.5, 0},
                                           &b),
                         CDYN_OK);
        assert_int_equal(cdyn_constraint_add_distance(sys, a, b, 0.2, &c), CDYN_OK);
        assert_int_equal(cdyn_constraint_add_plane(sys, a, (double[]){0, 0, 2}, 2.0, &c), CDYN_OK);
        assert_int_equal(cdyn_constraint_add_plane(sys, b, (double[]){0, 0, 1}, 1.0, &c), CDYN_OK);
        assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){2, 0, 0}, NULL, &e), CDYN_OK);
        assert_int_equal(cdyn_constraint_add_pin(sys, e, (double[]){2, 0, 0}, &c), CDYN_OK);
        assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){2.15, 0, 0}, NULL, &f), CDYN_OK);
        cdyn_particle ef[2] = {e, f};
        assert_int_equal(cdyn_constraint_add_user(sys, ef, 2, 1, user_rod, &user_len, &c),
                         CDYN_OK);
        /* A bead on an implicit circle. */
        cdyn_particle bead;
        assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){1, -1, 3}, (double[]){0, 1, 0},
                                           &bead),
                         CDYN_OK);
        assert_int_equal(cdyn_constraint_add_implicit(sys, bead, circle_curve, NULL, &c), CDYN_OK);
        cdyn_force g;
        assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -9.81, 0}, &g), CDYN_OK);
        double worst_p = 0, worst_v = 0, e0 = energy(sys), worst_e = 0;
        for (int s = 0; s < 1000; s++) {
            assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
            double pr, vr;
            assert_int_equal(cdyn_system_compute_constraint_residuals(sys, &pr, &vr), CDYN_OK);
            worst_p = fmax(worst_p, pr);
            worst_v = fmax(worst_v, vr);
            if (s > 0)
                worst_e = fmax(worst_e, fabs(energy(sys) - e0));
        }
        double pe[3];
        cdyn_particle_get_position(sys, e, pe);
        double ex = fmax(fabs(pe[0] - 2), fmax(fabs(pe[1]), fabs(pe[2])));
        print_message("%s: worst residuals %.2e m, %.2e m/s; |dE| %.2e J; pin moved %.1e m\n",
                      m == 1 ? "SHAKE " : "Newton", worst_p, worst_v, worst_e, ex);
        /* Anchors and rods: tol L; pins, planes, curve and user rod: 1e-11
         * absolute (their length scale is 1) plus round-off. */
        assert_true(worst_p < 1.1e-11);
        assert_true(worst_v < 1e-9);
        assert_true(ex < 1.1e-11);
        assert_true(worst_e < 1e-3);
        cdyn_system_destroy(sys);
    }
}

/* A chain shorter than the gap between its two fixed ends cannot be
 * satisfied: the step fails with CDYN_ERR_NOT_CONVERGED naming a
 * constraint, and position, velocity and time are exactly as before. Also
 * with pins instead of fixed ends, and with each method. */
static void test_unsatisfiable(void **state)
{
    (void)state;
    for (int pins = 0; pins <= 1; pins++)
        for (int m = 1; m <= 2; m++) {
            cdyn_system *sys;
            assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
            assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE), CDYN_OK);
            cdyn_projection_options o;
            cdyn_projection_options_init(&o);
            o.method = (cdyn_projection_method)m;
            o.max_iterations = 50;
            assert_int_equal(cdyn_system_set_projection_options(sys, &o), CDYN_OK);
            cdyn_particle p[6];
            cdyn_constraint rod[5], c;
            for (int i = 0; i < 6; i++)
                assert_int_equal(cdyn_particle_add(sys, 1.0, (double[]){0.2 * i, 0.01 * (i % 2)},
                                                   NULL, &p[i]),
                                 CDYN_OK);
            if (pins) {
                assert_int_equal(cdyn_constraint_add_pin(sys, p[0], (double[]){0, 0}, &c), CDYN_OK);
                assert_int_equal(cdyn_constraint_add_pin(sys, p[5], (double[]){1, 0}, &c), CDYN_OK);
            } else {
                cdyn_particle_set_fixed(sys, p[0], true);
                cdyn_particle_set_fixed(sys, p[5], true);
            }
            /* Five rods of 0.1 between ends 1 apart. */
            for (int i = 0; i < 5; i++)
                assert_int_equal(cdyn_constraint_add_distance(sys, p[i], p[i + 1], 0.1, &rod[i]),
                                 CDYN_OK);
            cdyn_force g;
            cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g);
            double x0[12], v0[12], x1[12], v1[12], t0, t1;
            get_state(sys, x0, v0);
            cdyn_system_get_time(sys, &t0);
            assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_ERR_NOT_CONVERGED);
            const char *msg = cdyn_system_last_error(sys);
            print_message("%s, %s: %s\n", pins ? "pins" : "fixed ends",
                          m == 1 ? "SHAKE" : "Newton", msg);
            assert_non_null(strstr(msg, "constraint 0x"));
            assert_non_null(strstr(msg, "state kept"));
            if (!pins && m == CDYN_PROJECTION_NEWTON) {
                /* A chain: its exact Newton iteration stalls and gives up
                 * before the cap. */
                cdyn_projection_stats ps = {.size = sizeof ps};
                cdyn_system_get_projection_stats(sys, &ps);
                assert_true(ps.position_iterations < 50);
            }
            get_state(sys, x1, v1);
            cdyn_system_get_time(sys, &t1);
            assert_memory_equal(x0, x1, sizeof x0);
            assert_memory_equal(v0, v1, sizeof v0);
            assert_true(t0 == t1);
            cdyn_projection_stats st = {.size = sizeof st};
            cdyn_system_get_projection_stats(sys, &st);
            assert_int_equal(st.not_converged, 1);
            assert_true(cdyn_constraint_is_valid(sys, st.worst));
            /* Rods of the current distances: satisfiable, the next step
             * works. */
            for (int i = 0; i < 5; i++)
                cdyn_constraint_remove(sys, rod[i]);
            for (int i = 0; i < 5; i++) {
                double qa[2], qb[2];
                cdyn_particle_get_position(sys, p[i], qa);
                cdyn_particle_get_position(sys, p[i + 1], qb);
                assert_int_equal(cdyn_constraint_add_distance(sys, p[i], p[i + 1],
                                                              hypot(qb[0] - qa[0], qb[1] - qa[1]),
                                                              &rod[i]),
                                 CDYN_OK);
            }
            o.max_iterations = 100000;
            cdyn_system_set_projection_options(sys, &o);
            assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
            double pr;
            cdyn_system_compute_constraint_residuals(sys, &pr, NULL);
            assert_true(pr < 1e-10);
            cdyn_system_destroy(sys);
        }
}

/* Redundant but consistent constraints (two identical rods) are fine;
 * conflicting ones (two lengths between the same particles) are not. */
static void test_redundant_and_conflicting(void **state)
{
    (void)state;
    for (int conflict = 0; conflict <= 1; conflict++) {
        cdyn_system *sys;
        assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
        assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE), CDYN_OK);
        set_options(sys, CDYN_PROJECTION_NEWTON, 1e-10, 0);
        cdyn_particle a, b;
        cdyn_constraint c;
        cdyn_particle_add(sys, 1.0, (double[]){0, 0}, NULL, &a);
        cdyn_particle_add(sys, 1.0, (double[]){0.3, 0}, (double[]){0, 1}, &b);
        cdyn_particle_set_fixed(sys, a, true);
        assert_int_equal(cdyn_constraint_add_distance(sys, a, b, 0.3, &c), CDYN_OK);
        assert_int_equal(cdyn_constraint_add_distance(sys, a, b, conflict ? 0.35 : 0.3, &c),
                         CDYN_OK);
        cdyn_projection_options o = {.size = sizeof o};
        assert_int_equal(cdyn_system_get_projection_options(sys, &o), CDYN_OK);
        o.max_iterations = 100;
        cdyn_system_set_projection_options(sys, &o);
        cdyn_status st = CDYN_OK;
        for (int s = 0; s < 100 && !st; s++)
            st = cdyn_system_step(sys, 1e-3);
        assert_int_equal(st, conflict ? CDYN_ERR_NOT_CONVERGED : CDYN_OK);
        cdyn_system_destroy(sys);
    }
}

/* RATTLE refuses particles on curves and compliant constraints, with
 * messages that say why, and changes nothing. */
static void test_refusals(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE), CDYN_OK);
    cdyn_particle a, b;
    cdyn_constraint c, rod;
    cdyn_particle_add(sys, 1.0, (double[]){0, 0}, NULL, &a);
    cdyn_particle_add(sys, 1.0, (double[]){1, 0}, NULL, &b);
    cdyn_particle_set_fixed(sys, a, true);
    assert_int_equal(cdyn_constraint_add_distance(sys, a, b, 1.0, &rod), CDYN_OK);
    assert_int_equal(cdyn_constraint_set_compliance(sys, rod, 1e-3), CDYN_OK);
    double x0[6], x1[6];
    get_state(sys, x0, NULL);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_ERR_UNSUPPORTED);
    assert_non_null(strstr(cdyn_system_last_error(sys), "compliant"));
    assert_int_equal(cdyn_constraint_set_compliance(sys, rod, 0), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);

    cdyn_curve_desc d;
    cdyn_curve_desc_init(&d, CDYN_CURVE_LINE);
    d.axis1[0] = 1;
    cdyn_particle q;
    cdyn_particle_add(sys, 1.0, (double[]){2, 0}, NULL, &q);
    assert_int_equal(cdyn_constraint_add_on_curve(sys, q, &d, &c), CDYN_OK);
    get_state(sys, x0, NULL);
    double t0, t1;
    cdyn_system_get_time(sys, &t0);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_ERR_UNSUPPORTED);
    assert_non_null(strstr(cdyn_system_last_error(sys), "RK4"));
    get_state(sys, x1, NULL);
    cdyn_system_get_time(sys, &t1);
    assert_memory_equal(x0, x1, 6 * sizeof(double));
    assert_true(t0 == t1);
    /* Post-step projection with shapes: refused as well, at the step. */
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    set_options(sys, CDYN_PROJECTION_NEWTON, 1e-10, 1);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_ERR_UNSUPPORTED);
    cdyn_system_destroy(sys);
}

/* Post-step projection for the other integrators: RK4 and symplectic
 * Euler without feedback gains drift off the manifold; with projection
 * they stay on it at every step. */
static void test_post_step_projection(void **state)
{
    (void)state;
    const cdyn_integrator ins[] = {CDYN_INTEGRATOR_RK4, CDYN_INTEGRATOR_SYMPLECTIC_EULER,
                                   CDYN_INTEGRATOR_VELOCITY_VERLET, CDYN_INTEGRATOR_RK45,
                                   CDYN_INTEGRATOR_EXPLICIT_EULER};
    for (size_t i = 0; i < sizeof ins / sizeof ins[0]; i++)
        for (int on = 0; on <= 1; on++) {
            chain c;
            make_chain(&c, 2, 10, ins[i], CDYN_PROJECTION_NEWTON, 1e-11);
            assert_int_equal(ts_set_gains(c.sys, 0, 0), CDYN_OK);
            set_options(c.sys, on % 2 ? CDYN_PROJECTION_NEWTON : CDYN_PROJECTION_SHAKE, 1e-11, on);
            double worst_p = 0, worst_v = 0;
            for (int s = 0; s < 500; s++) {
                assert_int_equal(cdyn_system_step(c.sys, 1e-3), CDYN_OK);
                double pr, vr;
                cdyn_system_compute_constraint_residuals(c.sys, &pr, &vr);
                worst_p = fmax(worst_p, pr / 0.1);
                worst_v = fmax(worst_v, vr / max_speed(c.sys));
            }
            print_message("integrator %d, projection %s: worst relative residuals %.2e, %.2e\n",
                          (int)ins[i], on ? "on " : "off", worst_p, worst_v);
            if (on) {
                assert_true(worst_p <= 1e-11 * (1 + 1e-6));
                assert_true(worst_v <= 1e-11);
            } else if (ins[i] != CDYN_INTEGRATOR_RK45) {
                assert_true(worst_p > 1e-10 || worst_v > 1e-10);
            }
            cdyn_system_destroy(c.sys);
        }
}

/* After a RATTLE step the multipliers are those of the closing half kick,
 * which approximate the constraint force at the new state: for a
 * pendulum, within O(dt) of the multiplier equation's at that state. */
static void test_multipliers(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE), CDYN_OK);
    assert_int_equal(ts_set_gains(sys, 0, 0), CDYN_OK);
    cdyn_particle p;
    cdyn_constraint rod;
    cdyn_particle_add(sys, 2.0, (double[]){0.6, -0.8}, (double[]){1.6, 1.2}, &p);
    assert_int_equal(cdyn_constraint_add_anchor(sys, p, (double[]){0, 0}, 1.0, &rod), CDYN_OK);
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g);
    for (int s = 0; s < 100; s++)
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    double lr, lw, fr[2], fw[2];
    assert_int_equal(cdyn_constraint_get_multipliers(sys, rod, &lr, 1), CDYN_OK);
    assert_int_equal(cdyn_constraint_get_force(sys, rod, p, fr), CDYN_OK);
    assert_int_equal(cdyn_system_evaluate(sys, NULL, 0), CDYN_OK);
    assert_int_equal(cdyn_constraint_get_multipliers(sys, rod, &lw, 1), CDYN_OK);
    assert_int_equal(cdyn_constraint_get_force(sys, rod, p, fw), CDYN_OK);
    print_message("pendulum: RATTLE multiplier %.6f, multiplier equation %.6f\n", lr, lw);
    assert_true(lr < 0);
    assert_near(lr, lw, 1e-2 * fabs(lw));
    assert_near(fr[0], fw[0], 1e-2 * hypot(fw[0], fw[1]));
    assert_near(fr[1], fw[1], 1e-2 * hypot(fw[0], fw[1]));
    /* The evaluation refactored: the next RATTLE step still works. */
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
    cdyn_system_destroy(sys);
}

/* A movable particle held by three rods to fixed points: a separate body
 * whose rows are no chain, so that the system goes through the general
 * projection (sparse LDL^T) instead of the chain kernel. */
static void add_star(cdyn_system *sys, int dim)
{
    cdyn_particle hub, end;
    cdyn_constraint c;
    double at[3] = {50, 50, 0};
    assert_int_equal(cdyn_particle_add(sys, 1.0, at, NULL, &hub), CDYN_OK);
    for (int j = 0; j < 3; j++) {
        double q[3] = {50 + cos(2.1 * j), 50 + sin(2.1 * j), 0};
        assert_int_equal(cdyn_particle_add(sys, 1.0, q, NULL, &end), CDYN_OK);
        assert_int_equal(cdyn_particle_set_fixed(sys, end, true), CDYN_OK);
        assert_int_equal(cdyn_constraint_add_distance(sys, hub, end, 1.0, &c), CDYN_OK);
    }
    (void)dim;
}

/* The factorization made at the end of a step serves the next one only when
 * nothing changed: moving a particle, changing a mass, evaluating, or
 * switching the solver all lead to a fresh factorization with the same
 * results as a fresh system. (The general projection: the chain kernel
 * keeps no factorization across steps.) */
/* A pendulum of 1 kg on 1 m from the horizontal: the largest error, over
 * t in [0.15, 0.3] s, of the force the rod reports on the bob against the
 * tension m (v^2 / L + g.n) at the committed state. */
static double reported_force_error(double dt, int anchor, double tol)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE), CDYN_OK);
    set_options(sys, CDYN_PROJECTION_NEWTON, tol, 0);
    cdyn_particle pivot, bob;
    cdyn_constraint rod;
    cdyn_force g;
    assert_int_equal(cdyn_particle_add(sys, 1, (double[]){0, 0}, NULL, &pivot), CDYN_OK);
    assert_int_equal(cdyn_particle_set_fixed(sys, pivot, true), CDYN_OK);
    assert_int_equal(cdyn_particle_add(sys, 1, (double[]){1, 0}, NULL, &bob), CDYN_OK);
    /* A rod to a fixed particle takes the chain kernel, an anchor the
     * general path. */
    assert_int_equal(anchor ? cdyn_constraint_add_anchor(sys, bob, (double[]){0, 0}, 1.0, &rod)
                            : cdyn_constraint_add_distance(sys, pivot, bob, 1.0, &rod),
                     CDYN_OK);
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g), CDYN_OK);
    int n = (int)(0.3 / dt + 0.5);
    double worst = 0;
    for (int i = 1; i <= n; i++) {
        assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
        if (i * dt < 0.15)
            continue;
        double x[2], v[2], f[2];
        cdyn_particle_get_position(sys, bob, x);
        cdyn_particle_get_velocity(sys, bob, v);
        assert_int_equal(cdyn_constraint_get_force(sys, rod, bob, f), CDYN_OK);
        double l = hypot(x[0], x[1]), tension = (v[0] * v[0] + v[1] * v[1]) / l - 9.81 * x[1] / l;
        worst = fmax(worst, hypot(f[0] + tension * x[0] / l, f[1] + tension * x[1] / l));
    }
    cdyn_system_destroy(sys);
    return worst;
}

/* The force a rod reports after a RATTLE step converges at order 1 as dt
 * is halved down to 7.8e-6 s, on both paths and whatever the tolerance:
 * the share of the position projection's residual, O(tol / dt^2), is left
 * out of the report (docs/rattle.md section 6). */
static void test_reported_force_converges(void **state)
{
    (void)state;
    enum { K = 8 }; /* down to 7.8e-6 s */
    for (int anchor = 0; anchor < 2; anchor++)
        for (int t = 0; t < 2; t++) {
            const double tol = t ? 1e-12 : 1e-10;
            double h[K], err[K];
            for (int k = 0; k < K; k++) {
                h[k] = 1e-3 / (double)(1 << k);
                err[k] = reported_force_error(h[k], anchor, tol);
            }
            double order = ts_fit_order(h, err, K);
            print_message("%s, tolerance %.0e: error %.2e N at dt = 1e-3, %.2e at %.2e; order %.3f\n",
                          anchor ? "anchor" : "rod", tol, err[0], err[K - 1], h[K - 1], order);
            assert_true(order > 0.95 && order < 1.1);
            for (int k = 1; k < K; k++)
                assert_true(err[k] < 0.6 * err[k - 1]);
            assert_true(err[K - 1] < 1e-3);
        }
}

/* The position iterations of the first RATTLE step after
 * cdyn_system_evaluate, which warm-starts from the evaluation's multipliers
 * with the impulse mu = h^2/2 lambda: at small steps the warm start alone
 * meets the tolerance (its residual is O(h^3)). A warm start of the wrong
 * scale still converges, so only the iteration counts show it: doubled, it
 * costs a Newton iteration at dt = 1e-5 and 20 SHAKE sweeps. */
static size_t first_step_iterations(int anchor, cdyn_projection_method method, double dt)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE), CDYN_OK);
    set_options(sys, method, 1e-10, 0);
    cdyn_particle prev, p;
    cdyn_constraint c;
    cdyn_force g;
    assert_int_equal(cdyn_particle_add(sys, 1, (double[]){0, 0}, NULL, &prev), CDYN_OK);
    assert_int_equal(cdyn_particle_set_fixed(sys, prev, true), CDYN_OK);
    for (int i = 1; i <= 5; i++) {
        assert_int_equal(cdyn_particle_add(sys, 1, (double[]){0.1 * i, 0}, (double[]){0, 0.3 * i},
                                           &p),
                         CDYN_OK);
        /* With the anchor, the general path; without, the chain kernel. */
        assert_int_equal(i == 1 && anchor
                             ? cdyn_constraint_add_anchor(sys, p, (double[]){0, 0}, 0.1, &c)
                             : cdyn_constraint_add_distance(sys, prev, p, 0.1, &c),
                         CDYN_OK);
        prev = p;
    }
    assert_int_equal(cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g), CDYN_OK);
    assert_int_equal(cdyn_system_evaluate(sys, NULL, 0), CDYN_OK);
    assert_int_equal(cdyn_system_step(sys, dt), CDYN_OK);
    cdyn_projection_stats ps = {.size = sizeof ps};
    assert_int_equal(cdyn_system_get_projection_stats(sys, &ps), CDYN_OK);
    cdyn_system_destroy(sys);
    return ps.position_iterations;
}

static void test_warm_start_after_evaluate(void **state)
{
    (void)state;
    for (int anchor = 0; anchor < 2; anchor++) {
        assert_int_equal(first_step_iterations(anchor, CDYN_PROJECTION_NEWTON, 1e-5), 0);
        assert_int_equal(first_step_iterations(anchor, CDYN_PROJECTION_SHAKE, 1e-5), 0);
        assert_true(first_step_iterations(anchor, CDYN_PROJECTION_SHAKE, 1e-4) <= 1);
    }
}

static void test_factorization_reuse(void **state)
{
    (void)state;
    for (int solver = 1; solver <= 2; solver++) {
        chain a, b;
        make_chain(&a, 2, 10, CDYN_INTEGRATOR_RATTLE, CDYN_PROJECTION_NEWTON, 1e-12);
        make_chain(&b, 2, 10, CDYN_INTEGRATOR_RATTLE, CDYN_PROJECTION_NEWTON, 1e-12);
        add_star(a.sys, 2);
        add_star(b.sys, 2);
        ts_set_solver(a.sys, (cdyn_constraint_solver)solver);
        ts_set_solver(b.sys, (cdyn_constraint_solver)solver);
        for (int s = 0; s < 50; s++) {
            assert_int_equal(cdyn_system_step(a.sys, 1e-3), CDYN_OK);
            assert_int_equal(cdyn_system_step(b.sys, 1e-3), CDYN_OK);
        }
        cdyn_projection_stats st = {.size = sizeof st};
        cdyn_system_get_projection_stats(a.sys, &st);
        assert_int_equal(st.factorizations, 51);
        /* Change a mass in a (and back): the values differ, so a refactors
         * (twice: the change, then the change back). */
        assert_int_equal(cdyn_particle_set_mass(a.sys, a.p[3], 2.0), CDYN_OK);
        assert_int_equal(cdyn_system_step(a.sys, 1e-3), CDYN_OK);
        assert_int_equal(cdyn_particle_set_mass(b.sys, b.p[3], 2.0), CDYN_OK);
        assert_int_equal(cdyn_system_step(b.sys, 1e-3), CDYN_OK);
        cdyn_system_get_projection_stats(a.sys, &st);
        assert_int_equal(st.factorizations, 53);
        /* Set a position to itself: same values, reuse. An evaluation:
         * the multiplier solve refactored, so a factors afresh. */
        double q[2];
        cdyn_particle_get_position(a.sys, a.p[5], q);
        cdyn_particle_set_position(a.sys, a.p[5], q);
        assert_int_equal(cdyn_system_step(a.sys, 1e-3), CDYN_OK);
        assert_int_equal(cdyn_system_step(b.sys, 1e-3), CDYN_OK);
        cdyn_system_get_projection_stats(a.sys, &st);
        assert_int_equal(st.factorizations, 54);
        assert_int_equal(cdyn_system_evaluate(a.sys, NULL, 0), CDYN_OK);
        assert_int_equal(cdyn_system_step(a.sys, 1e-3), CDYN_OK);
        assert_int_equal(cdyn_system_step(b.sys, 1e-3), CDYN_OK);
        cdyn_system_get_projection_stats(a.sys, &st);
        assert_int_equal(st.factorizations, 56);
        double xa[2 * 15], xb[2 * 15];
        get_state(a.sys, xa, NULL);
        get_state(b.sys, xb, NULL);
        /* The evaluation replaced the warm start by the multiplier
         * equation's multipliers: same step to the tolerance. */
        for (int i = 0; i < 22; i++)
            assert_near(xa[i], xb[i], 1e-12);
        cdyn_system_destroy(a.sys);
        cdyn_system_destroy(b.sys);
    }
}

/* The chain kernel (rods whose moving particles are in at most two rods)
 * and the general projection give the same trajectory to the tolerance:
 * two chains hanging from one fixed pivot, rods given in both directions
 * and out of order, a free particle in no rod (added again mid-run), in 2-D
 * and 3-D; the same system with a separate three-rod star goes through the
 * general projection. Multipliers and constraint forces agree too. */
static void test_chain_kernel(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        cdyn_system *sys[2];
        cdyn_constraint rods[2][16];
        cdyn_particle ps[2][18];
        for (int k = 0; k < 2; k++) {
            cdyn_system *s = NULL;
            assert_int_equal(cdyn_system_create(dim, &s), CDYN_OK);
            sys[k] = s;
            cdyn_system_set_integrator(s, CDYN_INTEGRATOR_RATTLE);
            set_options(s, CDYN_PROJECTION_NEWTON, 1e-12, 0);
            cdyn_particle *p = ps[k];
            assert_int_equal(cdyn_particle_add(s, 1.0, (double[]){0, 0, 0}, NULL, &p[0]), CDYN_OK);
            cdyn_particle_set_fixed(s, p[0], true);
            /* Chain 1: p1..p10 along x; chain 2: p11..p15 along -x, heavier. */
            for (int i = 1; i <= 15; i++) {
                double x = i <= 10 ? 0.1 * i : -0.15 * (i - 10);
                double v[3] = {0, 0, dim == 3 ? 0.2 * cos(i) : 0};
                assert_int_equal(cdyn_particle_add(s, i <= 10 ? 1.0 : 2.5, (double[]){x, 0, 0}, v,
                                                   &p[i]),
                                 CDYN_OK);
            }
            assert_int_equal(cdyn_particle_add(s, 1.0, (double[]){1, 1, 0}, (double[]){1, 0, 0},
                                               &p[16]),
                             CDYN_OK);
            /* Rods of chain 1 in the order 5, 0, 9, 1, 8, 2, 7, 3, 6, 4; odd
             * ones from their far end. */
            const int order[10] = {5, 0, 9, 1, 8, 2, 7, 3, 6, 4};
            for (int j = 0; j < 10; j++) {
                int i = order[j];
                cdyn_particle a = p[i], b = p[i + 1];
                assert_int_equal(cdyn_constraint_add_distance(s, i % 2 ? b : a, i % 2 ? a : b, 0.1,
                                                              &rods[k][i]),
                                 CDYN_OK);
            }
            for (int i = 0; i < 5; i++)
                assert_int_equal(cdyn_constraint_add_distance(s, i ? p[10 + i] : p[0], p[11 + i],
                                                              0.15, &rods[k][10 + i]),
                                 CDYN_OK);
            cdyn_force g;
            cdyn_force_add_gravity(s, (double[]){0, -9.81, 0}, &g);
            if (k == 1)
                add_star(s, dim);
        }
        for (int step = 0; step < 300; step++) {
            if (step == 100)
                for (int k = 0; k < 2; k++)
                    assert_int_equal(cdyn_particle_add(sys[k], 1.0, (double[]){2, 2, 0},
                                                       (double[]){0, 1, 0}, &ps[k][17]),
                                     CDYN_OK);
            for (int k = 0; k < 2; k++)
                assert_int_equal(cdyn_system_step(sys[k], 1e-3), CDYN_OK);
        }
        double dx = 0, dv = 0, dl = 0, df = 0, lmax = 0;
        for (int i = 0; i < 18; i++) {
            double xa[3], xb[3], va[3], vb[3];
            cdyn_particle_get_position(sys[0], ps[0][i], xa);
            cdyn_particle_get_position(sys[1], ps[1][i], xb);
            cdyn_particle_get_velocity(sys[0], ps[0][i], va);
            cdyn_particle_get_velocity(sys[1], ps[1][i], vb);
            for (int q = 0; q < dim; q++) {
                dx = fmax(dx, fabs(xa[q] - xb[q]));
                dv = fmax(dv, fabs(va[q] - vb[q]));
            }
        }
        for (int i = 0; i < 15; i++) {
            double la, lb, fa[3], fb[3];
            assert_int_equal(cdyn_constraint_get_multipliers(sys[0], rods[0][i], &la, 1), CDYN_OK);
            assert_int_equal(cdyn_constraint_get_multipliers(sys[1], rods[1][i], &lb, 1), CDYN_OK);
            cdyn_particle at = i < 10 ? ps[0][i + 1] : ps[0][i + 1];
            cdyn_particle bt = i < 10 ? ps[1][i + 1] : ps[1][i + 1];
            assert_int_equal(cdyn_constraint_get_force(sys[0], rods[0][i], at, fa), CDYN_OK);
            assert_int_equal(cdyn_constraint_get_force(sys[1], rods[1][i], bt, fb), CDYN_OK);
            dl = fmax(dl, fabs(la - lb));
            lmax = fmax(lmax, fabs(lb));
            for (int q = 0; q < dim; q++)
                df = fmax(df, fabs(fa[q] - fb[q]));
        }
        cdyn_projection_stats sa = {.size = sizeof sa}, sb = {.size = sizeof sb};
        cdyn_system_get_projection_stats(sys[0], &sa);
        cdyn_system_get_projection_stats(sys[1], &sb);
        print_message("%d-D: chain kernel and general projection differ by %.2e m, %.2e m/s; "
                      "multipliers by %.2e of %.2e, forces by %.2e N; %.2f and %.2f position "
                      "iterations per step\n",
                      dim, dx, dv, dl, lmax, df, (double)sa.position_iterations_total / 300,
                      (double)sb.position_iterations_total / 300);
        assert_true(dx < 1e-10 && dv < 1e-8);
        assert_true(dl < 1e-6 * lmax && df < 1e-6 * lmax);
        assert_int_equal(sa.not_converged, 0);
        assert_true(sa.position_residual <= 1e-12 && sa.velocity_residual <= 1e-12);
        assert_true(cdyn_constraint_is_valid(sys[0], sa.worst));
        double pr, vr;
        cdyn_system_compute_constraint_residuals(sys[0], &pr, &vr);
        assert_true(pr < 1e-12 * 0.15 * 2);
        cdyn_system_destroy(sys[0]);
        cdyn_system_destroy(sys[1]);
    }
}

/* The chain kernel leaves G(x1) to be formed from the positions when asked
 * for: the force of rod i on particle j is lambda_i (x_j - x_other), the
 * two ends' forces cancel, and moving particles after the step does not
 * change the forces of that step. */
static void test_chain_kernel_forces(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        chain c;
        make_chain(&c, dim, 8, CDYN_INTEGRATOR_RATTLE, CDYN_PROJECTION_NEWTON, 1e-12);
        for (int s = 0; s < 50; s++)
            assert_int_equal(cdyn_system_step(c.sys, 1e-3), CDYN_OK);
        double f0[MAXP][2][3], x[(MAXP + 1) * 3];
        assert_int_equal(cdyn_system_get_positions(c.sys, x, (size_t)(c.n + 1) * (size_t)dim),
                         CDYN_OK);
        for (int i = 0; i < c.n; i++) {
            double lambda;
            assert_int_equal(cdyn_constraint_get_multipliers(c.sys, c.rod[i], &lambda, 1),
                             CDYN_OK);
            assert_true(lambda < 0); /* rods in tension */
            for (int e = 0; e < 2; e++) {
                assert_int_equal(cdyn_constraint_get_force(c.sys, c.rod[i], c.p[i + e], f0[i][e]),
                                 CDYN_OK);
                const double *xa = x + i * dim, *xb = x + (i + 1) * dim;
                for (int q = 0; q < dim; q++) {
                    double expect = lambda * (e ? xb[q] - xa[q] : xa[q] - xb[q]);
                    assert_true(f0[i][e][q] == expect);
                }
            }
            for (int q = 0; q < dim; q++)
                assert_true(f0[i][0][q] == -f0[i][1][q]);
        }
        /* Move particle 3, then every particle: the forces stay those of
         * the step. */
        double moved[3] = {5, 5, 5};
        assert_int_equal(cdyn_particle_set_position(c.sys, c.p[3], moved), CDYN_OK);
        for (int i = 0; i < (c.n + 1) * dim; i++)
            x[i] += 1.0;
        assert_int_equal(cdyn_system_set_positions(c.sys, x, (size_t)(c.n + 1) * (size_t)dim),
                         CDYN_OK);
        for (int i = 0; i < c.n; i++)
            for (int e = 0; e < 2; e++) {
                double f[3];
                assert_int_equal(cdyn_constraint_get_force(c.sys, c.rod[i], c.p[i + e], f),
                                 CDYN_OK);
                for (int q = 0; q < dim; q++)
                    assert_true(f[q] == f0[i][e][q]);
            }
        cdyn_system_destroy(c.sys);
        /* A rod removed (its slot gone) and one disabled before a position
         * is set: nothing of the old topology is written, no force is
         * reported until the next step, and that step runs. */
        make_chain(&c, dim, 8, CDYN_INTEGRATOR_RATTLE, CDYN_PROJECTION_NEWTON, 1e-12);
        for (int s = 0; s < 50; s++)
            assert_int_equal(cdyn_system_step(c.sys, 1e-3), CDYN_OK);
        assert_int_equal(cdyn_constraint_remove(c.sys, c.rod[c.n - 1]), CDYN_OK);
        assert_int_equal(cdyn_constraint_set_enabled(c.sys, c.rod[2], false), CDYN_OK);
        double here[3], f[3] = {1, 1, 1};
        cdyn_particle_get_position(c.sys, c.p[5], here);
        assert_int_equal(cdyn_particle_set_position(c.sys, c.p[5], here), CDYN_OK);
        assert_int_equal(cdyn_constraint_get_force(c.sys, c.rod[1], c.p[1], f), CDYN_OK);
        assert_true(f[0] == 0 && f[1] == 0);
        assert_int_equal(cdyn_system_step(c.sys, 1e-3), CDYN_OK);
        assert_int_equal(cdyn_constraint_get_force(c.sys, c.rod[1], c.p[1], f), CDYN_OK);
        assert_true(f[0] != 0 || f[1] != 0);
        cdyn_system_destroy(c.sys);
    }
}

/* The chain kernel checks the new state on its way (the rows through their
 * residuals, the particles in no row apart): a free particle that overflows
 * still fails the step with the state kept. */
static void test_chain_kernel_non_finite(void **state)
{
    (void)state;
    chain c;
    make_chain(&c, 2, 4, CDYN_INTEGRATOR_RATTLE, CDYN_PROJECTION_NEWTON, 1e-12);
    cdyn_particle lone;
    assert_int_equal(cdyn_particle_add(c.sys, 1.0, (double[]){0, 1.797e308},
                                       (double[]){0, 1e308}, &lone),
                     CDYN_OK);
    assert_int_equal(cdyn_system_step(c.sys, 1e-9), CDYN_OK);
    double x[2], v[2];
    cdyn_particle_get_position(c.sys, lone, x);
    cdyn_particle_get_velocity(c.sys, lone, v);
    assert_int_equal(cdyn_system_step(c.sys, 1e-3), CDYN_ERR_DIVERGED);
    double x1[2], v1[2];
    cdyn_particle_get_position(c.sys, lone, x1);
    cdyn_particle_get_velocity(c.sys, lone, v1);
    assert_true(x1[1] == x[1] && v1[1] == v[1] && isfinite(x1[1]));
    cdyn_system_destroy(c.sys);
}

/* Same inputs, same bits. */
static void test_deterministic(void **state)
{
    (void)state;
    uint64_t h[2];
    for (int k = 0; k < 2; k++) {
        chain c;
        make_chain(&c, 3, 12, CDYN_INTEGRATOR_RATTLE, CDYN_PROJECTION_NEWTON, 1e-12);
        for (int s = 0; s < 300; s++)
            assert_int_equal(cdyn_system_step(c.sys, 1e-3), CDYN_OK);
        double x[39], v[39];
        get_state(c.sys, x, v);
        h[k] = ts_hash_bytes(v, sizeof v, ts_hash_bytes(x, sizeof x, 0));
        cdyn_system_destroy(c.sys);
    }
    assert_true(h[0] == h[1]);
}

/* Once the shape is set, RATTLE and post-step projections allocate
 * nothing (k = 4: a bare chain, which takes the chain kernel). */
static void test_no_allocation(void **state)
{
    (void)state;
    for (int k = 0; k < 5; k++) {
        ts_counting_alloc ca = {0};
        cdyn_allocator al = ts_counting_allocator(&ca);
        cdyn_system *sys;
        assert_int_equal(cdyn_system_create_with_allocator(3, &al, &sys), CDYN_OK);
        cdyn_system_set_integrator(sys, k < 2 || k == 4 ? CDYN_INTEGRATOR_RATTLE
                                                        : CDYN_INTEGRATOR_RK4);
        if (k == 3)
            ts_set_solver(sys, CDYN_SOLVER_CG);
        set_options(sys, k == 1 ? CDYN_PROJECTION_SHAKE : CDYN_PROJECTION_NEWTON, 1e-10,
                    k == 2 || k == 3);
        cdyn_particle prev, p;
        cdyn_constraint c;
        cdyn_particle_add(sys, 1.0, (double[]){0, 0, 0}, NULL, &prev);
        cdyn_particle_set_fixed(sys, prev, true);
        for (int i = 1; i <= 8; i++) {
            cdyn_particle_add(sys, 1.0, (double[]){0.1 * i, 0, 0}, NULL, &p);
            cdyn_constraint_add_distance(sys, prev, p, 0.1, &c);
            prev = p;
        }
        cdyn_force g;
        cdyn_force_add_gravity(sys, (double[]){0, -9.81, 0}, &g);
        if (k != 4) {
            cdyn_constraint_add_plane(sys, p, (double[]){0, 0, 1}, 0, &c);
            cdyn_force_add_drag(sys, 0.1, &g);
        }
        assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
        size_t before = ca.allocs;
        for (int s = 0; s < 50; s++)
            assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
        assert_int_equal(ca.allocs, before);
        cdyn_system_destroy(sys);
        assert_int_equal(ca.live_bytes, 0);
    }
}

/* Out of memory at every allocation of building and first stepping a
 * RATTLE chain of @p links rods with projection @p method: every failure
 * is reported, nothing leaks, and a failed step changed nothing. */
static void out_of_memory(int method, int links)
{
    static double x0[2 * 301], x1[2 * 301];
    assert_true(links <= 300);
    for (size_t n = 1;; n++) {
        ts_counting_alloc ca = {0};
        ca.fail_at = n;
        cdyn_allocator al = ts_counting_allocator(&ca);
        cdyn_system *sys;
        if (cdyn_system_create_with_allocator(2, &al, &sys) != CDYN_OK) {
            assert_int_equal(ca.live_bytes, 0);
            continue;
        }
        cdyn_status st = cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE);
        cdyn_projection_options o;
        cdyn_projection_options_init(&o);
        o.method = (cdyn_projection_method)method;
        if (!st)
            st = cdyn_system_set_projection_options(sys, &o);
        cdyn_particle prev = 0, p;
        cdyn_constraint c;
        if (!st)
            st = cdyn_particle_add(sys, 1.0, (double[]){0, 0}, NULL, &prev);
        for (int i = 1; i <= links && !st; i++) {
            st = cdyn_particle_add(sys, 1.0, (double[]){0.1 * i, 0}, NULL, &p);
            if (!st)
                st = cdyn_constraint_add_distance(sys, prev, p, 0.1, &c);
            prev = p;
        }
        cdyn_force g;
        if (!st)
            st = cdyn_force_add_gravity(sys, (double[]){0, -9.81}, &g);
        if (!st) {
            const size_t bytes = 2 * (size_t)(links + 1) * sizeof *x0;
            get_state(sys, x0, NULL);
            st = cdyn_system_step(sys, 1e-3);
            if (st) {
                get_state(sys, x1, NULL);
                assert_memory_equal(x0, x1, bytes);
                /* It works once memory is back. */
                ca.fail_at = 0;
                assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);
            }
        }
        if (st)
            assert_int_equal(st, CDYN_ERR_NO_MEMORY);
        cdyn_system_destroy(sys);
        assert_int_equal(ca.live_bytes, 0);
        if (!ca.failed)
            break;
    }
}

/* Both projections on a short chain; Newton on a chain of 300 rods, whose
 * plan takes the twisted sweeps' records. */
static void test_out_of_memory(void **state)
{
    (void)state;
    out_of_memory(CDYN_PROJECTION_NEWTON, 5);
    out_of_memory(CDYN_PROJECTION_SHAKE, 5);
    out_of_memory(CDYN_PROJECTION_NEWTON, 300);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_on_manifold_every_step),
        cmocka_unit_test(test_time_reversible),
        cmocka_unit_test(test_order_two),
        cmocka_unit_test(test_shake_equals_newton),
        cmocka_unit_test(test_other_kinds),
        cmocka_unit_test(test_unsatisfiable),
        cmocka_unit_test(test_redundant_and_conflicting),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_post_step_projection),
        cmocka_unit_test(test_multipliers),
        cmocka_unit_test(test_reported_force_converges),
        cmocka_unit_test(test_warm_start_after_evaluate),
        cmocka_unit_test(test_factorization_reuse),
        cmocka_unit_test(test_chain_kernel),
        cmocka_unit_test(test_chain_kernel_forces),
        cmocka_unit_test(test_chain_kernel_non_finite),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_no_allocation),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_energy_bounded),
    };
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
