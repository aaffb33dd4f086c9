/* Periodic boxes (box.h): validation; positions wrapped into the box with
 * image counters that keep the unwrapped motion continuous; the minimum
 * image for every pair potential, pair lists and springs (a pair through a
 * face feels what the same pair feels inside); rods and chains through the
 * faces kept whole (a chain longer than the box keeps its rod lengths);
 * grounds seen wrapped, walls from plane grounds; momentum conserved to
 * round-off in a periodic liquid. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define ok(call) assert_int_equal((call), CDYN_OK)

static cdyn_system *make(int dim)
{
    cdyn_system *sys;
    ok(cdyn_system_create(dim, &sys));
    return sys;
}

static cdyn_particle add(cdyn_system *sys, const double *x, const double *v)
{
    cdyn_particle p;
    ok(cdyn_particle_add(sys, 1.0, x, v, &p));
    return p;
}

static void set_box(cdyn_system *sys, double lx, double ly, double lz, bool px, bool py,
                    bool pz)
{
    double o[3] = {0, 0, 0}, l[3] = {lx, ly, lz};
    bool p[3] = {px, py, pz};
    ok(cdyn_system_set_box(sys, o, l, p));
}

static void test_set_get_clear(void **state)
{
    (void)state;
    cdyn_system *sys = make(3);
    double o[3] = {1, 2, 3}, l[3] = {4, 5, 6}, go[3], gl[3];
    bool p[3] = {true, false, true}, gp[3], has = true;
    ok(cdyn_system_get_box(sys, NULL, NULL, NULL, &has));
    assert_false(has);
    assert_int_equal(cdyn_system_get_box(sys, go, gl, gp, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_set_box(NULL, o, l, p), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_set_box(sys, NULL, l, p), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_set_box(sys, o, NULL, p), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_set_box(sys, o, l, NULL), CDYN_ERR_INVALID_ARGUMENT);
    double bad_l[3] = {4, 0, 6}, nan_o[3] = {NAN, 0, 0}, inf_l[3] = {4, INFINITY, 6};
    assert_int_equal(cdyn_system_set_box(sys, o, bad_l, p), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(sys), "system_set_box"));
    assert_int_equal(cdyn_system_set_box(sys, nan_o, l, p), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_set_box(sys, o, inf_l, p), CDYN_ERR_INVALID_ARGUMENT);
    ok(cdyn_system_get_box(sys, NULL, NULL, NULL, &has));
    assert_false(has); /* nothing changed */
    ok(cdyn_system_set_box(sys, o, l, p));
    ok(cdyn_system_get_box(sys, go, gl, gp, &has));
    assert_true(has);
    for (int k = 0; k < 3; k++) {
        assert_true(go[k] == o[k] && gl[k] == l[k]);
        assert_true(gp[k] == p[k]);
    }
    ok(cdyn_system_clear_box(sys));
    ok(cdyn_system_get_box(sys, go, gl, gp, &has));
    assert_false(has);
    ok(cdyn_system_clear_box(sys)); /* again: a no-op */
    assert_int_equal(cdyn_system_clear_box(NULL), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_system_destroy(sys);
}

/* A free particle crossing a periodic box several times: its position read
 * back stays in the box, its unwrapped position is x0 + v t, its image
 * counts the crossings. */
static void test_wrap_and_unwrap(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        cdyn_system *sys = make(dim);
        double x0[3] = {0.5, 1.5, 2.5}, v[3] = {7.3, -2.9, 4.1};
        cdyn_particle p = add(sys, x0, v);
        double o[3] = {-1, 0, 1}, l[3] = {2, 3, 1.5};
        bool per[3] = {true, true, false};
        ok(cdyn_system_set_box(sys, o, l, per));
        ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET));
        const double dt = 0.01;
        for (int s = 1; s <= 400; s++) {
            ok(cdyn_system_step(sys, dt));
            double x[3], u[3], t = s * dt;
            int64_t img[3];
            ok(cdyn_particle_get_position(sys, p, x));
            ok(cdyn_particle_get_unwrapped_position(sys, p, u));
            ok(cdyn_particle_get_image(sys, p, img));
            for (int k = 0; k < dim; k++) {
                double want = x0[k] + v[k] * t;
                assert_near(u[k], want, 1e-12 * (1 + fabs(want)));
                if (per[k]) {
                    assert_true(x[k] >= o[k] && x[k] < o[k] + l[k]);
                    assert_near(x[k] + (double)img[k] * l[k], u[k], 1e-12 * (1 + fabs(want)));
                    assert_true(img[k] == (int64_t)floor((want - o[k]) / l[k]));
                } else {
                    assert_true(img[k] == 0);
                    assert_near(x[k], want, 1e-12 * (1 + fabs(want)));
                }
            }
        }
        /* The bulk getters agree with the particle getters. */
        double xs[3], us[3], x[3], u[3];
        ok(cdyn_system_get_positions(sys, xs, 3));
        ok(cdyn_system_get_unwrapped_positions(sys, us, 3));
        ok(cdyn_particle_get_position(sys, p, x));
        ok(cdyn_particle_get_unwrapped_position(sys, p, u));
        for (int k = 0; k < dim; k++)
            assert_true(xs[k] == x[k] && us[k] == u[k]);
        assert_int_equal(cdyn_system_get_unwrapped_positions(sys, us, 1),
                         CDYN_ERR_INVALID_ARGUMENT);
        /* Clearing the box makes the unwrapped position the position. */
        ok(cdyn_system_clear_box(sys));
        ok(cdyn_particle_get_position(sys, p, x));
        for (int k = 0; k < dim; k++)
            assert_near(x[k], u[k], 1e-12 * (1 + fabs(u[k])));
        cdyn_system_destroy(sys);
    }
}

/* A particle 10^300 m out is wrapped into the box like any other: its
 * image counter, which cannot count that many box lengths, is left as it
 * was (never overflowed), while a particle a few lengths out counts them. */
static void test_far_out_particle_wraps(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    const double far[2] = {1e300, 0.5}, near[2] = {7.5, 0.5};
    cdyn_particle p = add(sys, far, NULL), q = add(sys, near, NULL);
    set_box(sys, 3, 3, 0, true, true, false);
    ok(cdyn_system_step(sys, 1e-3));
    double x[2];
    int64_t img[2];
    ok(cdyn_particle_get_position(sys, p, x));
    assert_true(isfinite(x[0]) && isfinite(x[1]));
    ok(cdyn_particle_get_image(sys, p, img));
    assert_true(img[0] == 0 && img[1] == 0);
    ok(cdyn_particle_get_position(sys, q, x));
    assert_near(x[0], 1.5, 1e-12);
    ok(cdyn_particle_get_image(sys, q, img));
    assert_true(img[0] == 2 && img[1] == 0);
    cdyn_system_destroy(sys);
}

/* A position read (wrapped) and set back keeps the unwrapped position; a
 * small move keeps it continuous. */
static void test_set_position_keeps_unwrapped(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_particle p = add(sys, (double[]){0.5, 0.5}, (double[]){3, 0});
    set_box(sys, 1, 1, 1, true, true, true);
    ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET));
    for (int s = 0; s < 100; s++)
        ok(cdyn_system_step(sys, 0.01)); /* x = 0.5 + 3 = 3.5: three crossings */
    double x[2], u0[2], u1[2];
    ok(cdyn_particle_get_unwrapped_position(sys, p, u0));
    ok(cdyn_particle_get_position(sys, p, x));
    ok(cdyn_particle_set_position(sys, p, x));
    ok(cdyn_particle_get_unwrapped_position(sys, p, u1));
    assert_near(u1[0], u0[0], 1e-12);
    double moved[2] = {x[0] + 0.01, x[1]};
    ok(cdyn_particle_set_position(sys, p, moved));
    ok(cdyn_particle_get_unwrapped_position(sys, p, u1));
    assert_near(u1[0], u0[0] + 0.01, 1e-12);
    /* The same through the bulk setter. */
    double all[2];
    ok(cdyn_system_get_positions(sys, all, 2));
    ok(cdyn_system_set_positions(sys, all, 2));
    ok(cdyn_particle_get_unwrapped_position(sys, p, u1));
    assert_near(u1[0], u0[0] + 0.01, 1e-12);
    cdyn_system_destroy(sys);
}

/* The force of a pair generator on the second particle of a pair at
 * positions a, b (unit masses: accelerations). */
static void pair_force(int dim, const cdyn_pair_params *pp, bool set, bool periodic,
                       const double *a, const double *b, double *f)
{
    cdyn_system *sys = make(dim);
    cdyn_particle p[2] = {add(sys, a, NULL), add(sys, b, NULL)};
    if (periodic)
        set_box(sys, 6, 7, 8, true, true, true);
    cdyn_force g;
    if (set)
        ok(cdyn_force_add_pair_set(sys, pp, p, 2, &g));
    else
        ok(cdyn_force_add_pairs(sys, pp, p, 1, &g));
    double acc[6];
    ok(cdyn_system_evaluate(sys, acc, 6));
    memcpy(f, acc + dim, (size_t)dim * sizeof *f);
    cdyn_system_destroy(sys);
}

static double lj_energy_fn(double r)
{
    double s6 = pow(1.0 / r, 6);
    return 4 * s6 * (s6 - 1);
}

static int lj_cb(const cdyn_system *sys, double t, size_t i, size_t j, double r, double *energy,
                 double *force, double *dforce, void *user)
{
    (void)sys, (void)t, (void)i, (void)j, (void)user;
    double s6 = pow(1.0 / r, 6);
    if (energy)
        *energy = 4 * s6 * (s6 - 1);
    if (force)
        *force = 24 * s6 * (2 * s6 - 1) / r;
    if (dforce)
        *dforce = 24 * s6 * (7 - 26 * s6) / (r * r);
    return 0;
}

/* Every kind, as a list and as a set, in 2-D and 3-D, along each axis: a
 * pair through a face feels what the same pair feels inside. */
static void test_minimum_image_pairs(void **state)
{
    (void)state;
    static double table[2 * 64];
    for (int k = 0; k < 64; k++) {
        double r = 0.8 + k * (2.0 - 0.8) / 63;
        table[2 * k] = lj_energy_fn(r) - lj_energy_fn(2.0);
        double s6 = pow(1.0 / r, 6);
        table[2 * k + 1] = 24 * s6 * (2 * s6 - 1) / r;
    }
    for (int kind = CDYN_PAIR_HERTZ; kind <= CDYN_PAIR_CALLBACK; kind++) {
        cdyn_pair_params pp;
        ok(cdyn_pair_params_init(&pp, (cdyn_pair_kind)kind));
        pp.radius = 0.6;
        pp.stiffness = 100;
        if (kind == CDYN_PAIR_TABLE) {
            pp.table = table;
            pp.table_size = 64;
            pp.table_r_min = 0.8;
            pp.cutoff = 2.0;
        } else if (kind == CDYN_PAIR_CALLBACK) {
            pp.fn = lj_cb;
            pp.cutoff = 2.0;
        }
        for (int dim = 2; dim <= 3; dim++)
            for (int axis = 0; axis < dim; axis++)
                for (int set = 0; set <= 1; set++) {
                    const double len[3] = {6, 7, 8};
                    double in_a[3] = {3, 3.5, 4}, in_b[3] = {3, 3.5, 4};
                    double d[3] = {0.31, -0.22, 0.17};
                    for (int k = 0; k < dim; k++)
                        in_b[k] = in_a[k] + d[k];
                    /* the same pair with a at 0.05 from the face and b through it */
                    double out_a[3], out_b[3];
                    memcpy(out_a, in_a, sizeof out_a);
                    out_a[axis] = 0.05;
                    for (int k = 0; k < dim; k++)
                        out_b[k] = out_a[k] + d[k];
                    out_b[axis] = out_a[axis] - fabs(d[axis]) + len[axis];
                    in_b[axis] = in_a[axis] - fabs(d[axis]);
                    double f_in[3], f_out[3];
                    pair_force(dim, &pp, set, true, in_a, in_b, f_in);
                    pair_force(dim, &pp, set, true, out_a, out_b, f_out);
                    double scale = 0;
                    for (int k = 0; k < dim; k++)
                        scale = fmax(scale, fabs(f_in[k]));
                    assert_true(scale > 0);
                    for (int k = 0; k < dim; k++)
                        assert_near(f_out[k], f_in[k], 1e-12 * scale);
                }
    }
}

/* A spring through a face pulls as the same spring inside. */
static void test_spring_minimum_image(void **state)
{
    (void)state;
    double f[2][3];
    for (int through = 0; through <= 1; through++) {
        cdyn_system *sys = make(3);
        double a[3] = {through ? 0.1 : 2.1, 1, 1}, b[3] = {through ? 3.7 : 1.7, 1.2, 0.9};
        cdyn_particle p[2] = {add(sys, a, NULL), add(sys, b, NULL)};
        set_box(sys, 4, 4, 4, true, true, true);
        cdyn_force g;
        ok(cdyn_force_add_spring(sys, p[0], p[1], 10, 0, 0.3, &g));
        double acc[6], e;
        ok(cdyn_system_evaluate(sys, acc, 6));
        memcpy(f[through], acc, sizeof f[through]);
        ok(cdyn_force_get_energy(sys, g, &e));
        assert_near(e, 0.5 * 10 * pow(sqrt(0.4 * 0.4 + 0.2 * 0.2 + 0.1 * 0.1) - 0.3, 2), 1e-12);
        cdyn_system_destroy(sys);
    }
    for (int k = 0; k < 3; k++)
        assert_near(f[1][k], f[0][k], 1e-12);
}

/* A chain of rods longer than the box, placed with its beads wrapped into
 * the box: the chain is made whole, its rods hold their lengths, and its
 * unwrapped positions are a continuous chain. */
static void test_chain_through_faces(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        cdyn_system *sys = make(dim);
        enum { N = 40 };
        const double bond = 0.5, L = 3.0;
        cdyn_particle p[N];
        cdyn_constraint rod[N - 1];
        for (int i = 0; i < N; i++) {
            double x[3] = {0.2 + bond * i * 0.8, 1.0 + bond * i * 0.6, 1.0};
            for (int k = 0; k < dim; k++)
                x[k] = fmod(x[k], L); /* wrapped: the chain crosses faces */
            p[i] = add(sys, x, (double[]){0.3 * sin(i), 0.2 * cos(3 * i), 0.1});
            if (i)
                ok(cdyn_constraint_add_distance(sys, p[i - 1], p[i], bond, &rod[i - 1]));
        }
        set_box(sys, L, L, L, true, true, true);
        ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE));
        for (int s = 0; s < 200; s++)
            ok(cdyn_system_step(sys, 0.01));
        double res_x, res_v;
        ok(cdyn_system_compute_constraint_residuals(sys, &res_x, &res_v));
        assert_true(res_x < 1e-9 && res_v < 1e-9);
        double u[3 * N], x[3 * N];
        ok(cdyn_system_get_unwrapped_positions(sys, u, (size_t)(dim * N)));
        ok(cdyn_system_get_positions(sys, x, (size_t)(dim * N)));
        for (int i = 1; i < N; i++) {
            double l2 = 0;
            for (int k = 0; k < dim; k++) {
                double dk = u[dim * i + k] - u[dim * (i - 1) + k];
                l2 += dk * dk;
                assert_true(x[dim * i + k] >= 0 && x[dim * i + k] < L);
            }
            assert_near(sqrt(l2), bond, 1e-9);
        }
        cdyn_system_destroy(sys);
    }
}

static int refuse(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                  const double *v, double *f, void *user)
{
    (void)sys, (void)t, (void)n, (void)dim, (void)x, (void)v, (void)f, (void)user;
    return 1;
}

/* Making a rod whole across a face and wrapping a stray particle move
 * stored positions before a step: an evaluation, which changes nothing,
 * and a step that fails put them back bit for bit, image counters and
 * unwrapped positions included (they used to stay moved). */
static void test_failed_step_and_evaluate_move_nothing(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_particle a = add(sys, (double[]){0.1, 1}, NULL), b = add(sys, (double[]){2.9, 1}, NULL);
    add(sys, (double[]){7.5, -4.2}, NULL); /* far out: wrapped at the first preparation */
    cdyn_constraint rod;
    ok(cdyn_constraint_add_distance(sys, a, b, 0.2, &rod));
    set_box(sys, 3, 3, 3, true, true, false);
    double x0[6], u0[6], x1[6], u1[6];
    int64_t i0[2], i1[2];
    ok(cdyn_system_get_positions(sys, x0, 6));
    ok(cdyn_system_get_unwrapped_positions(sys, u0, 6));
    ok(cdyn_particle_get_image(sys, b, i0));
    cdyn_force f = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0) {
            ok(cdyn_system_evaluate(sys, NULL, 0));
        } else {
            ok(cdyn_force_add_callback(sys, refuse, NULL, false, &f));
            assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_ERR_CALLBACK);
        }
        ok(cdyn_system_get_positions(sys, x1, 6));
        ok(cdyn_system_get_unwrapped_positions(sys, u1, 6));
        ok(cdyn_particle_get_image(sys, b, i1));
        assert_memory_equal(x0, x1, sizeof x0);
        assert_memory_equal(u0, u1, sizeof u0);
        assert_memory_equal(i0, i1, sizeof i0);
    }
    /* A step that succeeds keeps what the preparation did. */
    ok(cdyn_force_remove(sys, f));
    ok(cdyn_system_step(sys, 1e-3));
    ok(cdyn_system_get_positions(sys, x1, 6));
    assert_true(x1[4] >= 0 && x1[4] < 3 && x1[5] >= 0 && x1[5] < 3);
    cdyn_system_destroy(sys);
}

/* A ring of rods that winds around the box cannot be made whole: the step
 * is refused and nothing moves. */
static void test_loop_through_faces_refused(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    enum { N = 6 };
    cdyn_particle p[N];
    cdyn_constraint c;
    for (int i = 0; i < N; i++)
        p[i] = add(sys, (double[]){0.5 * i + 0.25, 1}, NULL);
    for (int i = 0; i < N; i++)
        ok(cdyn_constraint_add_distance(sys, p[i], p[(i + 1) % N], 0.5, &c));
    set_box(sys, 3, 3, 1, true, true, false);
    ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE));
    double before[2 * N], after[2 * N], ub[2 * N], ua[2 * N];
    ok(cdyn_system_get_positions(sys, before, 2 * N));
    ok(cdyn_system_get_unwrapped_positions(sys, ub, 2 * N));
    assert_int_equal(cdyn_system_step(sys, 0.01), CDYN_ERR_UNSUPPORTED);
    assert_non_null(strstr(cdyn_system_last_error(sys), "winds around the box"));
    /* refused with nothing moved */
    ok(cdyn_system_get_positions(sys, after, 2 * N));
    ok(cdyn_system_get_unwrapped_positions(sys, ua, 2 * N));
    assert_memory_equal(before, after, sizeof before);
    assert_memory_equal(ub, ua, sizeof ub);
    cdyn_system_destroy(sys);
}

/* Walls along the open axis are plane grounds; along the periodic axis the
 * grounds see particles wrapped: a particle that has crossed many boxes
 * still bounces on the floor. */
static void test_walls_and_wrapped_grounds(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_particle p = add(sys, (double[]){0.5, 0.5}, (double[]){13.0, -1.0});
    set_box(sys, 1, 1, 1, true, false, false);
    cdyn_ground floor_g, ceil_g;
    ok(cdyn_ground_add_plane(sys, (double[]){0, 1}, 0.0, &floor_g));
    ok(cdyn_ground_add_plane(sys, (double[]){0, -1}, -1.0, &ceil_g));
    ok(cdyn_ground_set_stiffness(sys, floor_g, 1e5));
    ok(cdyn_ground_set_stiffness(sys, ceil_g, 1e5));
    ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET));
    double ymin = 1, ymax = 0, ke0, ke;
    ok(cdyn_system_get_kinetic_energy(sys, &ke0));
    for (int s = 0; s < 20000; s++) {
        ok(cdyn_system_step(sys, 1e-4));
        double x[2];
        ok(cdyn_particle_get_position(sys, p, x));
        ymin = fmin(ymin, x[1]);
        ymax = fmax(ymax, x[1]);
    }
    /* Bounced between the walls (v_y = 1: two crossings of the gap), never
     * more than the penetration depth sqrt(m v^2 / S) ~ 3e-3 beyond. */
    assert_true(ymin > -4e-3 && ymin < 0.01);
    assert_true(ymax < 1.004 && ymax > 0.99);
    ok(cdyn_system_get_kinetic_energy(sys, &ke));
    assert_near(ke, ke0, 1e-3 * ke0);
    int64_t img[2];
    ok(cdyn_particle_get_image(sys, p, img));
    assert_true(img[0] == 26); /* 0.5 + 13 * 2 */
    cdyn_system_destroy(sys);
}

/* A periodic WCA liquid conserves momentum to round-off. */
static void test_momentum_round_off(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        cdyn_system *sys = make(dim);
        cdyn_particle p[500];
        size_t n = ts_make_fluid(sys, dim == 3 ? 4 : 12, 0.8, 1.0, 0.1, 5, p);
        assert_true(n > 0);
        cdyn_pair_params pp;
        cdyn_force g;
        ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE));
        ok(cdyn_force_add_pair_set(sys, &pp, p, n, &g));
        ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET));
        double p0[3], p1[3], sum_abs = 0;
        ok(cdyn_system_get_momentum(sys, p0));
        for (int s = 0; s < 2000; s++)
            ok(cdyn_system_step(sys, 0.005));
        ok(cdyn_system_get_momentum(sys, p1));
        double v[3 * 500];
        ok(cdyn_system_get_velocities(sys, v, (size_t)dim * n));
        for (size_t i = 0; i < (size_t)dim * n; i++)
            sum_abs += fabs(v[i]);
        for (int k = 0; k < dim; k++) {
            print_message("%d-D momentum[%d]: %.3g -> %.3g (sum |m v| %.3g)\n", dim, k, p0[k],
                          p1[k], sum_abs);
            assert_true(fabs(p1[k] - p0[k]) < 1e-13 * sum_abs);
        }
        cdyn_system_destroy(sys);
    }
}

/* A particle flung far beyond any count of box lengths an int64_t holds:
 * its image counter stays as it was instead of overflowing (which is
 * undefined), and the steps go on; an ordinary flight still counts. */
static void test_image_counters_never_overflow(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_particle p = add(sys, (double[]){0.5, 0.5}, (double[]){1e303, 0});
    cdyn_particle q = add(sys, (double[]){0.6, 0.5}, (double[]){1e303, 0});
    cdyn_force spring;
    ok(cdyn_force_add_spring(sys, p, q, 1, 0, 0.1, &spring)); /* a cluster of two */
    ok(cdyn_system_set_box(sys, (double[]){0, 0}, (double[]){1, 1}, (bool[]){true, true}));
    ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET));
    int64_t img[3] = {0};
    for (int s = 0; s < 3; s++) {
        cdyn_status st = cdyn_system_step(sys, 1e-2); /* 1e301 box lengths a step */
        assert_true(st == CDYN_OK || st == CDYN_ERR_DIVERGED);
        for (int i = 0; i < 2; i++) {
            ok(cdyn_particle_get_image(sys, i ? q : p, img));
            assert_true(img[0] == 0 && img[1] == 0);
        }
    }
    /* setting a position 1e301 lengths out keeps the counter too */
    ok(cdyn_particle_set_velocity(sys, p, (double[]){0, 0}));
    ok(cdyn_particle_set_position(sys, p, (double[]){1e301, 0.5}));
    ok(cdyn_particle_get_image(sys, p, img));
    assert_true(img[0] == 0 && img[1] == 0);
    ok(cdyn_particle_set_position(sys, p, (double[]){5.25, 0.5}));
    ok(cdyn_particle_get_image(sys, p, img));
    assert_true(img[0] == 5 && img[1] == 0);
    cdyn_system_destroy(sys);
}

/* Positions are read inside the box however far out a particle is, and a
 * box too short to hold distinct coordinates is refused. */
static void test_far_points_read_inside_the_box(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    /* o + L == o: no coordinate to wrap into */
    assert_int_equal(cdyn_system_set_box(sys, (double[]){-1e300, 0}, (double[]){1e-300, 1},
                                         (bool[]){true, true}),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_system_set_box(sys, (double[]){1e6, 0}, (double[]){1e-6, 1},
                                         (bool[]){true, true}),
                     CDYN_ERR_INVALID_ARGUMENT);
    /* 1e6 + 1e-3: 2^-30 of the origin, accepted */
    ok(cdyn_system_set_box(sys, (double[]){1e6, 0}, (double[]){1e-3, 1}, (bool[]){true, true}));
    /* A tiny box and points 10^300 and 10^20 lengths out: (x - o) / L
     * overflows or n L has lost the box; the reads are the exact remainders. */
    ok(cdyn_system_set_box(sys, (double[]){0, 0}, (double[]){1e-3, 1}, (bool[]){true, true}));
    const double far[3] = {1e300, -1e300, 0.75e17};
    for (int i = 0; i < 3; i++) {
        cdyn_particle p = add(sys, (double[]){far[i], 0.5}, (double[]){0, 0});
        double x[2];
        ok(cdyn_particle_get_position(sys, p, x));
        assert_true(x[0] >= 0 && x[0] < 1e-3);
        assert_true(fabs(x[0] - (fmod(far[i], 1e-3) + (far[i] < 0 ? 1e-3 : 0))) < 1e-18);
        assert_true(x[1] == 0.5);
    }
    cdyn_system_destroy(sys);
}

/* A box as long as the doubles reach and two bonded particles whose
 * separation overflows to infinity: no image is nearer, and finding that
 * must not loop (inf - L is inf). The step reports the divergence. */
static void test_infinite_separation(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_particle p = add(sys, (double[]){1.7e308, 0.5}, NULL);
    cdyn_particle q = add(sys, (double[]){-1.7e308, 0.5}, NULL);
    cdyn_force g;
    ok(cdyn_force_add_spring(sys, p, q, 1e-300, 0, 0.1, &g));
    ok(cdyn_system_set_box(sys, (double[]){-0x1p1023, 0}, (double[]){DBL_MAX, 1},
                           (bool[]){true, true}));
    double acc[4];
    ok(cdyn_system_evaluate(sys, acc, 4));
    assert_true(isnan(acc[0]) && isnan(acc[2]));
    double x[2];
    ok(cdyn_particle_get_position(sys, p, x));
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_ERR_DIVERGED);
    double y[2];
    ok(cdyn_particle_get_position(sys, p, y));
    assert_true(y[0] == x[0] && y[1] == x[1]);
    cdyn_system_destroy(sys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_get_clear),
        cmocka_unit_test(test_wrap_and_unwrap),
        cmocka_unit_test(test_far_out_particle_wraps),
        cmocka_unit_test(test_set_position_keeps_unwrapped),
        cmocka_unit_test(test_minimum_image_pairs),
        cmocka_unit_test(test_spring_minimum_image),
        cmocka_unit_test(test_chain_through_faces),
        cmocka_unit_test(test_loop_through_faces_refused),
        cmocka_unit_test(test_failed_step_and_evaluate_move_nothing),
        cmocka_unit_test(test_walls_and_wrapped_grounds),
        cmocka_unit_test(test_momentum_round_off),
        cmocka_unit_test(test_image_counters_never_overflow),
        cmocka_unit_test(test_far_points_read_inside_the_box),
        cmocka_unit_test(test_infinite_separation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
