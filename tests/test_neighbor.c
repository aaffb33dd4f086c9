/* Neighbour lists and exclusions of pair sets (pair.h):
 *  - the forces with a list equal those of a search of all pairs, at every
 *    step of a run, for skins from 0 to as large as the box allows, in open
 *    and periodic space, 2-D and 3-D, for every kind: to round-off (the
 *    list sums each particle's pair forces in its own order, so the last
 *    bits may differ), checked at 1e-12 of the largest force;
 *  - the list is rebuilt less often with a larger skin, and a particle
 *    moved by hand past half the skin is seen at once;
 *  - exclusions: a bonded pair (rod or spring) feels no pair force,
 *    removing or disabling the bond restores it; depth 2 reaches through a
 *    bond; explicit pairs; bad input;
 *  - a liquid's steps allocate nothing once the list has its room. */
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
#define MAXN 1024

static cdyn_system *make(int dim)
{
    cdyn_system *sys;
    ok(cdyn_system_create(dim, &sys));
    return sys;
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

static void params(int kind, cdyn_pair_params *pp)
{
    ok(cdyn_pair_params_init(pp, (cdyn_pair_kind)kind));
    pp->radius = 0.55;
    pp->stiffness = 200;
    if (kind == CDYN_PAIR_LJ)
        pp->cutoff = 1.6;
    if (kind == CDYN_PAIR_CALLBACK) {
        pp->fn = lj_cb;
        pp->cutoff = 1.5;
    }
}

/* Two copies of one liquid, one with the skin under test and one searching
 * all pairs (skin 0); the first is stepped (its list lives on), and at
 * every step the second is set to its state and both evaluated. */
static void compare_run(int dim, int kind, bool periodic, double skin, int steps)
{
    cdyn_system *a = make(dim), *b = make(dim);
    cdyn_particle pa[MAXN], pb[MAXN];
    const int side = dim == 3 ? 4 : 12;
    size_t n = ts_make_fluid(a, side, 0.7, 1.0, 0.05, 17, pa);
    assert_true(n > 0 && n == ts_make_fluid(b, side, 0.7, 1.0, 0.05, 17, pb));
    if (!periodic) {
        ok(cdyn_system_clear_box(a));
        ok(cdyn_system_clear_box(b));
    }
    cdyn_pair_params pp;
    params(kind, &pp);
    cdyn_force fa, fb;
    ok(cdyn_force_add_pair_set(a, &pp, pa, n, &fa));
    ok(cdyn_force_add_pair_set(b, &pp, pb, n, &fb));
    ok(cdyn_force_set_pair_skin(a, fa, 0.0));
    ok(cdyn_force_set_pair_skin(b, fb, skin));
    ok(cdyn_system_set_integrator(b, CDYN_INTEGRATOR_VELOCITY_VERLET));
    const size_t len = n * (size_t)dim;
    double *x = malloc(len * sizeof *x), *v = malloc(len * sizeof *v);
    double *acc_a = malloc(len * sizeof *acc_a), *acc_b = malloc(len * sizeof *acc_b);
    assert_non_null(x && v && acc_a && acc_b);
    double worst = 0;
    for (int s = 0; s <= steps; s++) {
        ok(cdyn_system_get_positions(b, x, len));
        ok(cdyn_system_get_velocities(b, v, len));
        ok(cdyn_system_set_positions(a, x, len));
        ok(cdyn_system_set_velocities(a, v, len));
        ok(cdyn_system_evaluate(a, acc_a, len));
        ok(cdyn_system_evaluate(b, acc_b, len));
        double scale = 0, diff = 0;
        for (size_t i = 0; i < len; i++) {
            scale = fmax(scale, fabs(acc_a[i]));
            diff = fmax(diff, fabs(acc_a[i] - acc_b[i]));
        }
        assert_true(scale > 0);
        worst = fmax(worst, diff / scale);
        if (!(diff <= 1e-12 * scale))
            fail_msg("kind %d, %d-D, %s, skin %g, step %d: force differs by %.3g of %.3g", kind,
                     dim, periodic ? "periodic" : "open", skin, s, diff, scale);
        if (s < steps)
            ok(cdyn_system_step(b, 0.004));
    }
    cdyn_pair_stats st = {.size = sizeof st};
    ok(cdyn_force_get_pair_stats(b, fb, &st));
    if (skin > 0) {
        assert_true(st.builds > 0);
        assert_true(st.neighbours > 0);
    } else {
        assert_true(st.builds == 0 && st.direct == st.evaluations);
    }
    print_message("kind %d %d-D %-8s skin %-5g: builds %3llu, worst relative difference %.2g\n",
                  kind, dim, periodic ? "periodic" : "open", skin,
                  (unsigned long long)st.builds, worst);
    free(x);
    free(v);
    free(acc_a);
    free(acc_b);
    cdyn_system_destroy(a);
    cdyn_system_destroy(b);
}

static void test_list_equals_all_pairs(void **state)
{
    (void)state;
    const double skins[] = {0.0, 0.05, 0.3, 1.0, 10.0}; /* 10: as much as the box allows */
    for (int dim = 2; dim <= 3; dim++)
        for (size_t i = 0; i < sizeof skins / sizeof skins[0]; i++) {
            compare_run(dim, CDYN_PAIR_LJ_REPULSIVE, true, skins[i], 150);
            compare_run(dim, CDYN_PAIR_LJ_REPULSIVE, false, skins[i], 60);
        }
    for (int kind = CDYN_PAIR_HERTZ; kind <= CDYN_PAIR_CALLBACK; kind++)
        if (kind != CDYN_PAIR_TABLE)
            for (int dim = 2; dim <= 3; dim++)
                compare_run(dim, kind, true, 0.3, 40);
}

/* Builds per step fall as the skin grows; a particle moved past half the
 * skin by hand is found at once (the forces stay exact). */
static void test_rebuilds(void **state)
{
    (void)state;
    unsigned long long builds[3];
    const double skins[3] = {0.1, 0.3, 0.6};
    for (int i = 0; i < 3; i++) {
        cdyn_system *sys = make(3);
        cdyn_particle p[MAXN];
        size_t n = ts_make_fluid(sys, 4, 0.8, 1.0, 0.05, 3, p);
        cdyn_pair_params pp;
        cdyn_force f;
        ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE));
        ok(cdyn_force_add_pair_set(sys, &pp, p, n, &f));
        ok(cdyn_force_set_pair_skin(sys, f, skins[i]));
        double got;
        ok(cdyn_force_get_pair_skin(sys, f, &got));
        assert_true(got == skins[i]);
        ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET));
        for (int s = 0; s < 400; s++)
            ok(cdyn_system_step(sys, 0.005));
        cdyn_pair_stats st = {.size = sizeof st};
        ok(cdyn_force_get_pair_stats(sys, f, &st));
        builds[i] = (unsigned long long)st.builds;
        assert_true(st.evaluations == 401); /* one per step, plus the first */
        print_message("skin %.1f: %llu builds in 400 steps\n", skins[i], builds[i]);
        cdyn_system_destroy(sys);
    }
    assert_true(builds[0] > builds[1] && builds[1] > builds[2]);

    /* Two particles 3 apart, skin 0.3: moved by hand to 1.0 they interact. */
    cdyn_system *sys = make(3);
    cdyn_particle p[2];
    ok(cdyn_particle_add(sys, 1, (double[]){0, 0, 0}, NULL, &p[0]));
    ok(cdyn_particle_add(sys, 1, (double[]){3, 0, 0}, NULL, &p[1]));
    cdyn_pair_params pp;
    cdyn_force f;
    ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE));
    ok(cdyn_force_add_pair_set(sys, &pp, p, 2, &f));
    double acc[6];
    ok(cdyn_system_evaluate(sys, acc, 6));
    assert_true(acc[3] == 0);
    ok(cdyn_particle_set_position(sys, p[1], (double[]){1.0, 0, 0}));
    ok(cdyn_system_evaluate(sys, acc, 6));
    assert_near(acc[3], 24.0, 1e-12); /* F(1) = 24 eps / sigma */
    cdyn_system_destroy(sys);
}

/* Bonded exclusions: a pair joined by a rod (or a spring) within the WCA
 * range feels no pair force; removing (or disabling) the bond restores it. */
static void test_exclusions_bonded(void **state)
{
    (void)state;
    for (int skin = 0; skin <= 1; skin++)
        for (int spring = 0; spring <= 1; spring++) {
            cdyn_system *sys = make(3);
            cdyn_particle p[3];
            for (int i = 0; i < 3; i++)
                ok(cdyn_particle_add(sys, 1, (double[]){0.9 * i, 0.1 * i, 0}, NULL, &p[i]));
            cdyn_pair_params pp;
            cdyn_force f, sp = 0;
            cdyn_constraint rod = 0;
            ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE));
            ok(cdyn_force_add_pair_set(sys, &pp, p, 3, &f));
            ok(cdyn_force_set_pair_skin(sys, f, skin ? 0.3 : 0.0));
            double e_all, e, d01 = sqrt(0.81 + 0.01);
            ok(cdyn_force_get_energy(sys, f, &e_all));
            double s6 = pow(1 / d01, 6), e01 = 4 * s6 * (s6 - 1) + 1;
            assert_near(e_all, 2 * e01, 1e-12); /* pairs 0-1 and 1-2; 0-2 is out of range */
            if (spring)
                ok(cdyn_force_add_spring(sys, p[0], p[1], 1.0, 0.0, d01, &sp));
            else
                ok(cdyn_constraint_add_distance(sys, p[0], p[1], d01, &rod));
            ok(cdyn_force_set_pair_exclude_bonded(sys, f, 1));
            int depth;
            ok(cdyn_force_get_pair_exclude_bonded(sys, f, &depth));
            assert_int_equal(depth, 1);
            ok(cdyn_force_get_energy(sys, f, &e));
            assert_near(e, e01, 1e-12); /* 0-1 excluded */
            size_t count;
            cdyn_particle contacts[6];
            ok(cdyn_force_get_pair_contacts(sys, f, contacts, 3, &count));
            assert_int_equal(count, 1);
            cdyn_pair_stats st = {.size = sizeof st};
            ok(cdyn_force_get_pair_stats(sys, f, &st));
            assert_int_equal(st.excluded, 1);
            /* The pair force on particle 0 is 0 (the rod's force aside:
             * compare with the rod alone, no pair set acting on 0). */
            double acc[9];
            ok(cdyn_system_evaluate(sys, acc, 9));
            if (spring) /* the spring is at its rest length: no force */
                for (int k = 0; k < 3; k++)
                    assert_true(acc[k] == 0);
            if (!spring) {
                ok(cdyn_constraint_set_enabled(sys, rod, false));
                ok(cdyn_force_get_energy(sys, f, &e));
                assert_near(e, 2 * e01, 1e-12); /* disabled: restored */
                ok(cdyn_constraint_set_enabled(sys, rod, true));
                ok(cdyn_force_get_energy(sys, f, &e));
                assert_near(e, e01, 1e-12);
                ok(cdyn_constraint_remove(sys, rod));
            } else {
                ok(cdyn_force_remove(sys, sp));
            }
            ok(cdyn_force_get_energy(sys, f, &e));
            assert_near(e, 2 * e01, 1e-12); /* removed: restored */
            ok(cdyn_system_evaluate(sys, acc, 9));
            double f01 = 24 * s6 * (2 * s6 - 1) / d01;
            assert_near(acc[0], -f01 * 0.9 / d01, 1e-12 * f01);
            cdyn_system_destroy(sys);
        }
}

/* Depth 2 excludes the ends of a chain a-b-c; explicit pairs; a chain in a
 * periodic box stepped with its exclusions conserves energy. */
static void test_exclusions_depth_and_explicit(void **state)
{
    (void)state;
    cdyn_system *sys = make(2);
    cdyn_particle p[4];
    for (int i = 0; i < 4; i++)
        ok(cdyn_particle_add(sys, 1, (double[]){0.5 * i, 0}, NULL, &p[i]));
    cdyn_constraint c;
    ok(cdyn_constraint_add_distance(sys, p[0], p[1], 0.5, &c));
    ok(cdyn_constraint_add_distance(sys, p[1], p[2], 0.5, &c));
    cdyn_pair_params pp;
    cdyn_force f;
    ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ));
    pp.cutoff = 1.6; /* reaches 0-1, 0-2, 0-3 (1.5) ... */
    ok(cdyn_force_add_pair_set(sys, &pp, p, 4, &f));
    size_t count;
    ok(cdyn_force_get_pair_contacts(sys, f, NULL, 0, &count));
    assert_int_equal(count, 6);
    ok(cdyn_force_set_pair_exclude_bonded(sys, f, 1));
    ok(cdyn_force_get_pair_contacts(sys, f, NULL, 0, &count));
    assert_int_equal(count, 4); /* 0-1, 1-2 out */
    ok(cdyn_force_set_pair_exclude_bonded(sys, f, 2));
    ok(cdyn_force_get_pair_contacts(sys, f, NULL, 0, &count));
    assert_int_equal(count, 3); /* 0-2 out too */
    ok(cdyn_force_add_pair_exclusions(sys, f, (cdyn_particle[]){p[3], p[0], p[0], p[3]}, 2));
    ok(cdyn_force_get_pair_contacts(sys, f, NULL, 0, &count));
    assert_int_equal(count, 2); /* 0-3 given (twice: once) */
    ok(cdyn_force_clear_pair_exclusions(sys, f));
    ok(cdyn_force_get_pair_contacts(sys, f, NULL, 0, &count));
    assert_int_equal(count, 3);
    /* Bad input, nothing changed. */
    assert_int_equal(cdyn_force_set_pair_exclude_bonded(sys, f, 3), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pair_exclusions(sys, f, NULL, 1), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_add_pair_exclusions(sys, f, (cdyn_particle[]){p[1], p[1]}, 1),
                     CDYN_ERR_INVALID_ARGUMENT);
    cdyn_particle outsider;
    ok(cdyn_particle_add(sys, 1, (double[]){9, 9}, NULL, &outsider));
    assert_int_equal(cdyn_force_add_pair_exclusions(sys, f, (cdyn_particle[]){p[1], outsider}, 1),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(sys), "not a member"));
    assert_int_equal(cdyn_force_set_pair_skin(sys, f, -1), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_set_pair_skin(sys, f, NAN), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_force list;
    ok(cdyn_force_add_pairs(sys, &pp, (cdyn_particle[]){p[0], p[3]}, 1, &list));
    assert_int_equal(cdyn_force_set_pair_skin(sys, list, 0.3), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_system_last_error(sys), "not a pair set"));
    ok(cdyn_force_get_pair_contacts(sys, f, NULL, 0, &count));
    assert_int_equal(count, 3);
    /* Removing a particle drops its explicit exclusions. */
    ok(cdyn_force_add_pair_exclusions(sys, f, (cdyn_particle[]){p[3], p[1]}, 1));
    ok(cdyn_particle_remove(sys, p[3]));
    ok(cdyn_force_get_pair_contacts(sys, f, NULL, 0, &count));
    assert_int_equal(count, 0); /* 0-1, 1-2, 0-2 are bonded */
    cdyn_system_destroy(sys);
}

/* Bead-rod chains with WCA between beads not bonded, in a periodic box:
 * energy stays bounded (RATTLE), every rod holds, and no bonded pair is in
 * the contacts. */
static void test_bead_rod_melt(void **state)
{
    (void)state;
    cdyn_system *sys = make(3);
    enum { CHAINS = 8, BEADS = 12 };
    cdyn_particle p[CHAINS * BEADS];
    cdyn_constraint c;
    const double L = 12.0, b = 0.97;
    for (int ch = 0; ch < CHAINS; ch++)
        for (int i = 0; i < BEADS; i++) {
            /* straight chains along x (through the face x = L), spaced in y
             * and z, wrapped into the box */
            double x[3] = {fmod(6.0 + b * i, L), 0.75 + 1.5 * (ch % 4), 1.5 + 3.0 * (ch / 4)};
            double v[3] = {0.3 * sin(ch + i), 0.2 * cos(2.0 * i + ch), 0.1 * sin(3.0 * i)};
            ok(cdyn_particle_add(sys, 1, x, v, &p[ch * BEADS + i]));
            if (i)
                ok(cdyn_constraint_add_distance(sys, p[ch * BEADS + i - 1], p[ch * BEADS + i], b,
                                                &c));
        }
    ok(cdyn_system_set_box(sys, (double[]){0, 0, 0}, (double[]){L, L, L},
                           (bool[]){true, true, true}));
    cdyn_pair_params pp;
    cdyn_force f;
    ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE));
    ok(cdyn_force_add_pair_set(sys, &pp, p, CHAINS * BEADS, &f));
    ok(cdyn_force_set_pair_exclude_bonded(sys, f, 1));
    ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE));
    double e0, e, ke, pe;
    ok(cdyn_system_step(sys, 0.002)); /* velocities onto the rods' tangent space first */
    ok(cdyn_system_get_kinetic_energy(sys, &ke));
    ok(cdyn_system_get_potential_energy(sys, &pe));
    e0 = ke + pe;
    for (int s = 0; s < 1000; s++)
        if (cdyn_system_step(sys, 0.002) != CDYN_OK)
            fail_msg("step %d: %s", s, cdyn_system_last_error(sys));
    ok(cdyn_system_get_kinetic_energy(sys, &ke));
    ok(cdyn_system_get_potential_energy(sys, &pe));
    e = ke + pe;
    print_message("bead-rod chains: E %.12g -> %.12g\n", e0, e);
    assert_near(e, e0, 1e-3 * e0);
    double rx, rv;
    ok(cdyn_system_compute_constraint_residuals(sys, &rx, &rv));
    assert_true(rx < 1e-9 && rv < 1e-8);
    /* Bonded beads sit at 0.97 < 2^(1/6): they would be in contact. */
    static cdyn_particle contacts[2 * 4096];
    size_t count;
    ok(cdyn_force_get_pair_contacts(sys, f, contacts, 4096, &count));
    for (size_t i = 0; i < count && i < 4096; i++) {
        size_t ia, ib;
        ok(cdyn_particle_get_index(sys, contacts[2 * i], &ia));
        ok(cdyn_particle_get_index(sys, contacts[2 * i + 1], &ib));
        bool bonded = (ia / BEADS == ib / BEADS) && (ia + 1 == ib || ib + 1 == ia);
        assert_false(bonded);
    }
    cdyn_system_destroy(sys);
}

/* Steps of a liquid allocate nothing once its list has room. */
static void test_no_allocation(void **state)
{
    (void)state;
    ts_counting_alloc counter = {0};
    cdyn_allocator a = ts_counting_allocator(&counter);
    cdyn_system *sys;
    ok(cdyn_system_create_with_allocator(3, &a, &sys));
    cdyn_particle p[MAXN];
    size_t n = ts_make_fluid(sys, 5, 0.8, 1.0, 0.05, 9, p);
    cdyn_pair_params pp;
    cdyn_force f;
    ok(cdyn_pair_params_init(&pp, CDYN_PAIR_LJ_REPULSIVE));
    ok(cdyn_force_add_pair_set(sys, &pp, p, n, &f));
    ok(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_VELOCITY_VERLET));
    ok(cdyn_system_step(sys, 0.005));
    size_t before = counter.allocs;
    for (int s = 0; s < 2000; s++)
        ok(cdyn_system_step(sys, 0.005));
    assert_int_equal(counter.allocs, before);
    cdyn_system_destroy(sys);
    assert_int_equal(counter.live_bytes, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_equals_all_pairs),
        cmocka_unit_test(test_rebuilds),
        cmocka_unit_test(test_exclusions_bonded),
        cmocka_unit_test(test_exclusions_depth_and_explicit),
        cmocka_unit_test(test_bead_rod_melt),
        cmocka_unit_test(test_no_allocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
