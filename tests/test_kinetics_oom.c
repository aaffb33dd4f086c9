/* Chemical kinetics out of memory, and without allocating per step.
 *
 * A scenario (create with an allocator, add species and reactions of every
 * kind until the stores grow several times, per-species tolerances, rate
 * queries, moieties, integrations with each method, a network change and
 * integrations again) is run once with an allocator that never fails, to
 * count its allocations, then once for every N with an allocator that
 * fails the Nth. For every N:
 *  - the call that met the failure returns CDYN_ERR_NO_MEMORY with a
 *    message, and every call that returns it met the failure;
 *  - that call changed nothing the public API shows;
 *  - retried with allocation allowed it succeeds, and the scenario ends in
 *    exactly (bit for bit) the state of the unfailed run;
 *  - after destroy no byte is live and allocs == frees + failed.
 * Then: integrations after the first on an unchanged network allocate
 * nothing, however many steps they take. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define NS 24

/* A rate law: v = 0.3 c0 c1 / (1 + c2), with its derivatives. */
static int law(const cdyn_kinetics *kin, double t, const double *c, size_t n,
               double *rate, void *user)
{
    (void)kin;
    (void)t, (void)n, (void)user;
    *rate = 0.3 * c[0] * c[1] / (1.0 + c[2]);
    return 0;
}

static int law_jac(const cdyn_kinetics *kin, double t, const double *c, size_t n,
                   double *d, void *user)
{
    (void)kin;
    (void)t, (void)n, (void)user;
    double q = 1.0 + c[2];
    d[0] = 0.3 * c[1] / q;
    d[1] = 0.3 * c[0] / q;
    d[2] = -0.3 * c[0] * c[1] / (q * q);
    return 0;
}

typedef struct scene {
    cdyn_kinetics *k;
    double out[3 * (NS + 1)];
} scene;

/* What the public API shows. */
typedef struct view {
    size_t ns, nr, nnz;
    double c[NS + 1], t;
    cdyn_kinetics_options opt;
} view;

static void look(const cdyn_kinetics *k, view *v)
{
    memset(v, 0, sizeof *v);
    if (!k)
        return;
    cdyn_kinetics_get_species_count(k, &v->ns);
    cdyn_kinetics_get_reaction_count(k, &v->nr);
    cdyn_kinetics_get_stoichiometry_size(k, &v->nnz);
    cdyn_kinetics_get_concentrations(k, v->c, NS + 1);
    cdyn_kinetics_get_time(k, &v->t);
    v->opt.size = sizeof v->opt;
    cdyn_kinetics_get_options(k, &v->opt);
}

enum { N_OPS = 64 };

/* Op i of the scenario; returns its status. */
static cdyn_status run_op(scene *s, int i, const cdyn_allocator *a)
{
    cdyn_kinetics *k = s->k;
    char name[16];
    cdyn_kinetics_options o;
    cdyn_kinetics_options_init(&o);
    o.fixed_step = 0.05;
    if (i == 0) {
        cdyn_status st = cdyn_kinetics_create_with_allocator(a, &s->k);
        if (st)
            assert_null(s->k);
        return st;
    }
    if (i <= 20) { /* species 0..19 */
        snprintf(name, sizeof name, "S%d", i - 1);
        return cdyn_kinetics_add_species(k, name, 0.5 + 0.05 * i, NULL);
    }
    if (i <= 38) { /* 18 reactions of every kind */
        size_t x = (size_t)(i - 21), y = (x + 1) % 20, z = (x + 7) % 20, xy[] = {x, y};
        int c21[] = {2, 1};
        switch (i % 4) {
        case 0:
            return cdyn_kinetics_add_reaction(k, 2, xy, NULL, 1, &z, NULL, 0.8, NULL);
        case 1:
            return cdyn_kinetics_add_reversible_reaction(k, 1, &z, NULL, 2, xy, c21, 0.5, 0.2,
                                                         NULL);
        case 2: {
            size_t deps[] = {x, y, z};
            return cdyn_kinetics_add_rate_law(k, 1, &x, NULL, 1, &y, NULL, 3, deps, law,
                                              i % 8 == 2 ? law_jac : NULL, NULL, NULL);
        }
        default:
            return cdyn_kinetics_add_reaction(k, 1, &x, NULL, 1, &y, NULL, 1.1, NULL);
        }
    }
    switch (i) {
    case 39: {
        double at[20];
        for (int j = 0; j < 20; j++)
            at[j] = 1e-10 * (1 + j);
        return cdyn_kinetics_set_absolute_tolerances(k, at, 20);
    }
    case 40: {
        double f[20];
        return cdyn_kinetics_get_species_rates(k, f, 20);
    }
    case 41: {
        size_t m;
        return cdyn_kinetics_get_moiety_count(k, &m);
    }
    case 42: {
        double times[3] = {0.1, 0.2, 0.3};
        return cdyn_kinetics_integrate(k, 0.3, times, 3, s->out, 60);
    }
    case 43:
        o.method = CDYN_KINETICS_DORMAND_PRINCE;
        return cdyn_kinetics_set_options(k, &o);
    case 44:
        return cdyn_kinetics_integrate(k, 0.5, NULL, 0, NULL, 0);
    case 45:
        o.method = CDYN_KINETICS_BACKWARD_EULER;
        return cdyn_kinetics_set_options(k, &o);
    case 46:
        return cdyn_kinetics_integrate(k, 0.7, NULL, 0, NULL, 0);
    case 47:
        return cdyn_kinetics_add_species(k, "late", 0.25, NULL);
    case 48: {
        size_t x = 20, y = 3;
        return cdyn_kinetics_add_reversible_reaction(k, 1, &x, NULL, 1, &y, NULL, 1.0, 2.0,
                                                     NULL);
    }
    case 49:
        return cdyn_kinetics_set_options(k, &o); /* BDF */
    case 50: {
        double times[2] = {0.8, 1.0};
        return cdyn_kinetics_integrate(k, 1.0, times, 2, s->out, 42);
    }
    case 51: {
        double l[21 * 21];
        size_t m;
        cdyn_status st = cdyn_kinetics_get_moiety_count(k, &m);
        return st ? st : cdyn_kinetics_get_moieties(k, l, 21 * 21);
    }
    default:
        return CDYN_OK;
    }
}

enum { LAST_OP = 51 };

static void run_scenario(size_t fail_at, ts_counting_alloc *ca, view *end, int *met)
{
    scene s;
    memset(&s, 0, sizeof s);
    memset(ca, 0, sizeof *ca);
    ca->fail_at = fail_at;
    cdyn_allocator a = ts_counting_allocator(ca);
    *met = 0;
    for (int i = 0; i <= LAST_OP; i++) {
        view before, after;
        look(s.k, &before);
        int failed_before = ca->failed;
        cdyn_status st = run_op(&s, i, &a);
        if (st == CDYN_ERR_NO_MEMORY) {
            assert_true(ca->failed && !failed_before);
            *met = 1;
            look(s.k, &after);
            assert_memory_equal(&before, &after, sizeof before);
            if (s.k)
                assert_true(strlen(cdyn_kinetics_last_error(s.k)) > 0);
            ca->fail_at = 0;
            st = run_op(&s, i, &a);
        }
        if (st != CDYN_OK)
            fail_msg("op %d: status %d (%s) with fail_at %zu", i, (int)st,
                     s.k ? cdyn_kinetics_last_error(s.k) : "", fail_at);
    }
    look(s.k, end);
    cdyn_kinetics_destroy(s.k);
    if (ca->live_bytes)
        fail_msg("%zu bytes live after destroy with fail_at %zu", ca->live_bytes, fail_at);
    assert_int_equal(ca->allocs, ca->frees + (size_t)ca->failed);
}

static void test_out_of_memory_everywhere(void **state)
{
    (void)state;
    ts_counting_alloc ca;
    view ref, got;
    int met;
    run_scenario(0, &ca, &ref, &met);
    size_t total = ca.allocs;
    assert_true(total > 50);
    for (size_t n = 1; n <= total; n++) {
        run_scenario(n, &ca, &got, &met);
        assert_true(met);
        assert_memory_equal(&ref, &got, sizeof ref);
    }
    print_message("failed each of %zu allocations in turn\n", total);
}

/* After the first integration of a network with a method, more
 * integrations (long or short, with outputs) allocate nothing. */
static void test_no_allocation_per_step(void **state)
{
    (void)state;
    ts_counting_alloc ca;
    memset(&ca, 0, sizeof ca);
    cdyn_allocator a = ts_counting_allocator(&ca);
    cdyn_kinetics *k;
    assert_int_equal(cdyn_kinetics_create_with_allocator(&a, &k), CDYN_OK);
    size_t x, y, xy[2];
    cdyn_kinetics_add_species(k, "X", 1.01, &x);
    cdyn_kinetics_add_species(k, "Y", 3.0, &y);
    xy[0] = x;
    xy[1] = y;
    int c21[] = {2, 1}, c3[] = {3};
    /* the Brusselator above its threshold: steps never settle */
    cdyn_kinetics_add_reaction(k, 0, NULL, NULL, 1, &x, NULL, 1.0, NULL);
    cdyn_kinetics_add_reaction(k, 2, xy, c21, 1, &x, c3, 1.0, NULL);
    cdyn_kinetics_add_reaction(k, 1, &x, NULL, 1, &y, NULL, 3.0, NULL);
    cdyn_kinetics_add_reaction(k, 1, &x, NULL, 0, NULL, NULL, 1.0, NULL);
    for (int m = 1; m <= 3; m++) {
        cdyn_kinetics_options o;
        cdyn_kinetics_options_init(&o);
        o.method = (cdyn_kinetics_method)m;
        o.fixed_step = 0.01;
        assert_int_equal(cdyn_kinetics_set_options(k, &o), CDYN_OK);
        double t0;
        cdyn_kinetics_get_time(k, &t0);
        assert_int_equal(cdyn_kinetics_integrate(k, t0 + 0.1, NULL, 0, NULL, 0), CDYN_OK);
        size_t before = ca.allocs;
        double times[50], out[100];
        for (int i = 0; i < 50; i++)
            times[i] = t0 + 0.1 + 0.6 * (i + 1);
        assert_int_equal(cdyn_kinetics_integrate(k, t0 + 30.1, times, 50, out, 100), CDYN_OK);
        cdyn_kinetics_stats st = {.size = sizeof st};
        cdyn_kinetics_get_stats(k, &st);
        print_message("method %d: %llu steps, %zu allocations\n", m,
                      (unsigned long long)st.steps, ca.allocs - before);
        assert_true(st.steps > 50);
        assert_int_equal(ca.allocs, before);
        double r[4];
        assert_int_equal(cdyn_kinetics_get_reaction_rates(k, r, 4), CDYN_OK);
        assert_int_equal(ca.allocs, before);
    }
    cdyn_kinetics_destroy(k);
    assert_int_equal(ca.live_bytes, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_out_of_memory_everywhere),
        cmocka_unit_test(test_no_allocation_per_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
