/* Chemical kinetics through the public API: the object, species and
 * reactions, the stoichiometric matrix, rates against their mass-action
 * formulas, options, bad input (a status, a message naming the function,
 * nothing changed), rollback of failed integrations, rate laws that fail
 * or call back into the object, and determinism. */
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

static cdyn_kinetics *make(void)
{
    cdyn_kinetics *k = NULL;
    assert_int_equal(cdyn_kinetics_create(&k), CDYN_OK);
    assert_non_null(k);
    return k;
}

static size_t species(cdyn_kinetics *k, const char *name, double c)
{
    size_t i = 99;
    assert_int_equal(cdyn_kinetics_add_species(k, name, c, &i), CDYN_OK);
    return i;
}

/* The message names the function that failed. */
static void assert_message(const cdyn_kinetics *k, const char *fn)
{
    const char *m = cdyn_kinetics_last_error(k);
    if (!strstr(m, fn))
        fail_msg("message '%s' does not name %s", m, fn);
}

/* Everything the public API shows of a network, to check that a refused
 * call changed nothing. */
typedef struct snapshot {
    size_t ns, nr, nnz;
    double c[16], t;
    size_t sp[64], rx[64];
    int co[64];
    double k[32];
} snapshot;

static void snap(const cdyn_kinetics *k, snapshot *s)
{
    memset(s, 0, sizeof *s);
    assert_int_equal(cdyn_kinetics_get_species_count(k, &s->ns), CDYN_OK);
    assert_int_equal(cdyn_kinetics_get_reaction_count(k, &s->nr), CDYN_OK);
    assert_int_equal(cdyn_kinetics_get_stoichiometry_size(k, &s->nnz), CDYN_OK);
    assert_true(s->ns <= 16 && s->nnz <= 64 && s->nr <= 32);
    assert_int_equal(cdyn_kinetics_get_concentrations(k, s->c, 16), CDYN_OK);
    assert_int_equal(cdyn_kinetics_get_time(k, &s->t), CDYN_OK);
    assert_int_equal(cdyn_kinetics_get_stoichiometry(k, s->sp, s->rx, s->co, 64), CDYN_OK);
    for (size_t j = 0; j < s->nr; j++)
        if (cdyn_kinetics_get_rate_constant(k, j, &s->k[j]) != CDYN_OK)
            s->k[j] = -1;
}

static void assert_unchanged(const cdyn_kinetics *k, const snapshot *before)
{
    snapshot now;
    snap(k, &now);
    assert_memory_equal(&now, before, sizeof now);
}

/* A, B, C with A -> B (1), 2 B -> C (0.5). */
static cdyn_kinetics *small_network(void)
{
    cdyn_kinetics *k = make();
    size_t a = species(k, "A", 1.0), b = species(k, "B", 0.25), c = species(k, "C", 0.0);
    int two[] = {2};
    assert_int_equal(cdyn_kinetics_add_reaction(k, 1, &a, NULL, 1, &b, NULL, 1.0, NULL), CDYN_OK);
    assert_int_equal(cdyn_kinetics_add_reaction(k, 1, &b, two, 1, &c, NULL, 0.5, NULL), CDYN_OK);
    return k;
}

static void test_create_destroy(void **state)
{
    (void)state;
    cdyn_kinetics *k = (cdyn_kinetics *)1;
    assert_int_equal(cdyn_kinetics_create(NULL), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_allocator bad = {NULL, NULL, NULL};
    assert_int_equal(cdyn_kinetics_create_with_allocator(&bad, &k), CDYN_ERR_INVALID_ARGUMENT);
    assert_null(k);
    assert_int_equal(cdyn_kinetics_create_with_allocator(NULL, &k), CDYN_OK);
    assert_string_equal(cdyn_kinetics_last_error(k), "");
    double t = -1;
    size_t n = 9;
    assert_int_equal(cdyn_kinetics_get_time(k, &t), CDYN_OK);
    assert_true(t == 0.0);
    assert_int_equal(cdyn_kinetics_get_species_count(k, &n), CDYN_OK);
    assert_int_equal(n, 0);
    cdyn_kinetics_destroy(k);
    cdyn_kinetics_destroy(NULL);
    assert_string_equal(cdyn_kinetics_last_error(NULL), "");
}

static void test_species(void **state)
{
    (void)state;
    cdyn_kinetics *k = make();
    assert_int_equal(species(k, "H2O", 55.5), 0);
    assert_int_equal(species(k, "H+", 1e-7), 1);
    size_t i = 9;
    assert_int_equal(cdyn_kinetics_add_species(k, "OH-", 1e-7, NULL), CDYN_OK);
    assert_int_equal(cdyn_kinetics_find_species(k, "H+", &i), CDYN_OK);
    assert_int_equal(i, 1);
    assert_int_equal(cdyn_kinetics_find_species(k, "OH-", &i), CDYN_OK);
    assert_int_equal(i, 2);
    assert_int_equal(cdyn_kinetics_find_species(k, "Na+", &i), CDYN_ERR_INVALID_ARGUMENT);
    const char *name = NULL;
    assert_int_equal(cdyn_kinetics_get_species_name(k, 0, &name), CDYN_OK);
    assert_string_equal(name, "H2O");
    /* names stay valid while species are added (the store grows) */
    char buf[16];
    for (int s = 0; s < 100; s++) {
        snprintf(buf, sizeof buf, "X%d", s);
        assert_int_equal(species(k, buf, (double)s), (size_t)s + 3);
    }
    assert_string_equal(name, "H2O");
    assert_int_equal(cdyn_kinetics_find_species(k, "X57", &i), CDYN_OK);
    assert_int_equal(i, 60);
    double c[103];
    assert_int_equal(cdyn_kinetics_get_concentrations(k, c, 103), CDYN_OK);
    assert_true(c[0] == 55.5 && c[60] == 57.0);
    assert_int_equal(cdyn_kinetics_get_concentrations(k, c, 102), CDYN_ERR_INVALID_ARGUMENT);
    cdyn_kinetics_destroy(k);
}

static void test_species_bad_input(void **state)
{
    (void)state;
    static const char fn[] = "cdyn_kinetics_add_species";
    cdyn_kinetics *k = small_network();
    snapshot before;
    snap(k, &before);
    char long_name[300];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    assert_int_equal(cdyn_kinetics_add_species(NULL, "D", 1, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_kinetics_add_species(k, NULL, 1, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_message(k, fn);
    assert_int_equal(cdyn_kinetics_add_species(k, "", 1, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_kinetics_add_species(k, long_name, 1, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_kinetics_add_species(k, "A", 1, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_kinetics_last_error(k), "'A'"));
    assert_int_equal(cdyn_kinetics_add_species(k, "D", -1e-300, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_kinetics_add_species(k, "D", NAN, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_kinetics_add_species(k, "D", INFINITY, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_message(k, fn);
    assert_unchanged(k, &before);
    /* queries refuse with a message too */
    const char *name;
    size_t i;
    double c[3];
    cdyn_kinetics_stats st;
    assert_int_equal(cdyn_kinetics_get_species_name(k, 3, &name), CDYN_ERR_INVALID_ARGUMENT);
    assert_message(k, "cdyn_kinetics_get_species_name");
    assert_int_equal(cdyn_kinetics_get_species_name(k, 0, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_kinetics_find_species(k, NULL, &i), CDYN_ERR_INVALID_ARGUMENT);
    assert_message(k, "cdyn_kinetics_find_species");
    assert_int_equal(cdyn_kinetics_find_species(k, "Z", &i), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_kinetics_last_error(k), "'Z'"));
    assert_int_equal(cdyn_kinetics_find_species(k, long_name, &i), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_kinetics_get_species_count(NULL, &i), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_kinetics_get_species_count(k, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_message(k, "cdyn_kinetics_get_species_count");
    assert_int_equal(cdyn_kinetics_get_reaction_count(k, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_message(k, "cdyn_kinetics_get_reaction_count");
    assert_int_equal(cdyn_kinetics_get_concentrations(k, c, 2), CDYN_ERR_INVALID_ARGUMENT);
    assert_message(k, "cdyn_kinetics_get_concentrations");
    assert_int_equal(cdyn_kinetics_get_time(k, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_message(k, "cdyn_kinetics_get_time");
    assert_int_equal(cdyn_kinetics_get_stoichiometry_size(k, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_message(k, "cdyn_kinetics_get_stoichiometry_size");
    st.size = 0;
    assert_int_equal(cdyn_kinetics_get_stats(k, &st), CDYN_ERR_INVALID_ARGUMENT);
    assert_message(k, "cdyn_kinetics_get_stats");
    cdyn_kinetics_destroy(k);
}

static void test_stoichiometry(void **state)
{
    (void)state;
    cdyn_kinetics *k = make();
    size_t a = species(k, "A", 1), b = species(k, "B", 1), c = species(k, "C", 1);
    size_t e = species(k, "E", 1);
    /* A + A + E -> 3 B + E (E a catalyst, A listed twice) */
    size_t r[] = {a, e, a}, p[] = {b, e};
    int pc[] = {3, 1};
    size_t j = 9;
    assert_int_equal(cdyn_kinetics_add_reaction(k, 3, r, NULL, 2, p, pc, 2.0, &j), CDYN_OK);
    assert_int_equal(j, 0);
    /* C <=> 2 A, then a source 0 -> C and a sink B -> 0 */
    int two[] = {2};
    assert_int_equal(cdyn_kinetics_add_reversible_reaction(k, 1, &c, NULL, 1, &a, two, 1.0,
                                                           0.5, &j),
                     CDYN_OK);
    assert_int_equal(j, 1);
    assert_int_equal(cdyn_kinetics_add_reaction(k, 0, NULL, NULL, 1, &c, NULL, 0.1, &j), CDYN_OK);
    assert_int_equal(j, 3);
    assert_int_equal(cdyn_kinetics_add_reaction(k, 1, &b, NULL, 0, NULL, NULL, 0.2, &j), CDYN_OK);
    size_t n;
    assert_int_equal(cdyn_kinetics_get_reaction_count(k, &n), CDYN_OK);
    assert_int_equal(n, 5);
    double kf;
    assert_int_equal(cdyn_kinetics_get_rate_constant(k, 2, &kf), CDYN_OK);
    assert_true(kf == 0.5);
    /* S: r0: A -2, B +3; r1: A +2, C -1; r2: A -2, C +1; r3: C +1; r4: B -1 */
    size_t nnz;
    assert_int_equal(cdyn_kinetics_get_stoichiometry_size(k, &nnz), CDYN_OK);
    assert_int_equal(nnz, 8);
    size_t sp[8], rx[8];
    int co[8];
    assert_int_equal(cdyn_kinetics_get_stoichiometry(k, sp, rx, co, 7), CDYN_ERR_INVALID_ARGUMENT);
    assert_message(k, "cdyn_kinetics_get_stoichiometry");
    assert_int_equal(cdyn_kinetics_get_stoichiometry(k, sp, NULL, co, 8), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_kinetics_get_stoichiometry(k, sp, rx, co, 8), CDYN_OK);
    const size_t wsp[8] = {a, b, a, c, a, c, c, b}, wrx[8] = {0, 0, 1, 1, 2, 2, 3, 4};
    const int wco[8] = {-2, 3, 2, -1, -2, 1, 1, -1};
    for (int i = 0; i < 8; i++) {
        assert_int_equal(sp[i], wsp[i]);
        assert_int_equal(rx[i], wrx[i]);
        assert_int_equal(co[i], wco[i]);
    }
    /* Rates at c = (A 1.5, B 0.5, C 2, E 0.25): mass action with the
     * catalyst in the law */
    double c0[4] = {1.5, 0.5, 2.0, 0.25};
    assert_int_equal(cdyn_kinetics_set_concentrations(k, c0, 4), CDYN_OK);
    double v[5], f[4];
    assert_int_equal(cdyn_kinetics_get_reaction_rates(k, v, 5), CDYN_OK);
    assert_near(v[0], 2.0 * 1.5 * 1.5 * 0.25, 1e-15);
    assert_near(v[1], 1.0 * 2.0, 1e-15);
    assert_near(v[2], 0.5 * 1.5 * 1.5, 1e-15);
    assert_near(v[3], 0.1, 1e-15);
    assert_near(v[4], 0.2 * 0.5, 1e-15);
    assert_int_equal(cdyn_kinetics_get_species_rates(k, f, 4), CDYN_OK);
    assert_near(f[0], -2 * v[0] + 2 * v[1] - 2 * v[2], 1e-14);
    assert_near(f[1], 3 * v[0] - v[4], 1e-14);
    assert_near(f[2], -v[1] + v[2] + v[3], 1e-14);
    assert_near(f[3], 0.0, 0.0);
    assert_int_equal(cdyn_kinetics_get_species_rates(k, f, 3), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_kinetics_get_reaction_rates(k, NULL, 5), CDYN_ERR_INVALID_ARGUMENT);
    assert_message(k, "cdyn_kinetics_get_reaction_rates");
    cdyn_kinetics_destroy(k);
}

static void test_reaction_bad_input(void **state)
{
    (void)state;
    static const char fn[] = "cdyn_kinetics_add_reaction";
    cdyn_kinetics *k = small_network();
    snapshot before;
    snap(k, &before);
    size_t a = 0, b = 1, bad = 3, ab[] = {0, 1}, aa[] = {0, 0};
    int zero[] = {0}, neg[] = {-1}, big[] = {CDYN_KINETICS_MAX_COEFFICIENT + 1};
    int half[] = {CDYN_KINETICS_MAX_COEFFICIENT / 2 + 1, CDYN_KINETICS_MAX_COEFFICIENT / 2};
    cdyn_status e = CDYN_ERR_INVALID_ARGUMENT;
    assert_int_equal(cdyn_kinetics_add_reaction(NULL, 1, &a, NULL, 1, &b, NULL, 1, NULL), e);
    /* unknown species on either side */
    assert_int_equal(cdyn_kinetics_add_reaction(k, 1, &bad, NULL, 1, &b, NULL, 1, NULL), e);
    assert_message(k, fn);
    assert_non_null(strstr(cdyn_kinetics_last_error(k), "species 3"));
    assert_int_equal(cdyn_kinetics_add_reaction(k, 1, &a, NULL, 1, &bad, NULL, 1, NULL), e);
    /* NULL lists, an empty reaction */
    assert_int_equal(cdyn_kinetics_add_reaction(k, 1, NULL, NULL, 1, &b, NULL, 1, NULL), e);
    assert_int_equal(cdyn_kinetics_add_reaction(k, 1, &a, NULL, 2, NULL, NULL, 1, NULL), e);
    assert_int_equal(cdyn_kinetics_add_reaction(k, 0, NULL, NULL, 0, NULL, NULL, 1, NULL), e);
    /* coefficients: zero, negative, too big, too big once merged */
    assert_int_equal(cdyn_kinetics_add_reaction(k, 1, &a, zero, 1, &b, NULL, 1, NULL), e);
    assert_int_equal(cdyn_kinetics_add_reaction(k, 1, &a, NULL, 1, &b, neg, 1, NULL), e);
    assert_int_equal(cdyn_kinetics_add_reaction(k, 1, &a, big, 1, &b, NULL, 1, NULL), e);
    assert_int_equal(cdyn_kinetics_add_reaction(k, 2, aa, half, 1, &b, NULL, 1, NULL), e);
    assert_message(k, fn);
    /* rate constants: zero, negative, NaN, infinite */
    const double ks[] = {0.0, -1.0, NAN, INFINITY, -0.0};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(cdyn_kinetics_add_reaction(k, 2, ab, NULL, 1, &b, NULL, ks[i], NULL), e);
        assert_message(k, fn);
        assert_int_equal(cdyn_kinetics_add_reversible_reaction(k, 1, &a, NULL, 1, &b, NULL, 1.0,
                                                               ks[i], NULL),
                         e);
        assert_message(k, "cdyn_kinetics_add_reversible_reaction");
    }
    /* rate constants of existing reactions */
    assert_int_equal(cdyn_kinetics_set_rate_constant(k, 2, 1.0), e);
    assert_message(k, "cdyn_kinetics_set_rate_constant");
    assert_int_equal(cdyn_kinetics_set_rate_constant(k, 0, 0.0), e);
    assert_int_equal(cdyn_kinetics_set_rate_constant(k, 0, NAN), e);
    double kk;
    assert_int_equal(cdyn_kinetics_get_rate_constant(k, 2, &kk), e);
    assert_message(k, "cdyn_kinetics_get_rate_constant");
    assert_int_equal(cdyn_kinetics_get_rate_constant(k, 0, NULL), e);
    /* concentrations and time */
    double c3[3] = {1, -1, 0}, c2[2] = {1, 1}, cn[3] = {1, NAN, 0};
    assert_int_equal(cdyn_kinetics_set_concentrations(k, c3, 3), e);
    assert_message(k, "cdyn_kinetics_set_concentrations");
    assert_int_equal(cdyn_kinetics_set_concentrations(k, c2, 2), e);
    assert_int_equal(cdyn_kinetics_set_concentrations(k, cn, 3), e);
    assert_int_equal(cdyn_kinetics_set_concentrations(k, NULL, 3), e);
    assert_int_equal(cdyn_kinetics_set_time(k, NAN), e);
    assert_message(k, "cdyn_kinetics_set_time");
    assert_int_equal(cdyn_kinetics_set_time(k, -INFINITY), e);
    assert_unchanged(k, &before);
    /* a valid change goes through */
    assert_int_equal(cdyn_kinetics_set_rate_constant(k, 0, 4.0), CDYN_OK);
    assert_int_equal(cdyn_kinetics_get_rate_constant(k, 0, &kk), CDYN_OK);
    assert_true(kk == 4.0);
    cdyn_kinetics_destroy(k);
}

/* A Hill-type rate law v = vmax S^2 / (K^2 + S^2) with its derivative,
 * which can be told to fail. */
typedef struct hill {
    double vmax, K;
    size_t s;
    int fail_after; /* calls before returning an error; < 0 never */
    int calls;
} hill;

static int hill_rate(const cdyn_kinetics *kin, double t, const double *c, size_t n,
                     double *rate, void *user)
{
    (void)kin;
    (void)t;
    hill *h = user;
    assert_true(h->s < n);
    if (h->fail_after >= 0 && h->calls++ >= h->fail_after)
        return 7;
    double s2 = c[h->s] * c[h->s];
    *rate = h->vmax * s2 / (h->K * h->K + s2);
    return 0;
}

static int hill_jac(const cdyn_kinetics *kin, double t, const double *c, size_t n,
                    double *d, void *user)
{
    (void)kin;
    (void)t;
    (void)n;
    hill *h = user;
    double s = c[h->s], k2 = h->K * h->K, q = k2 + s * s;
    d[0] = h->vmax * 2.0 * s * k2 / (q * q);
    return 0;
}

static void test_rate_law(void **state)
{
    (void)state;
    for (int with_jac = 0; with_jac < 2; with_jac++) {
        cdyn_kinetics *k = make();
        size_t s = species(k, "S", 2.0), p = species(k, "P", 0.0);
        hill h = {1.5, 0.5, s, -1, 0};
        size_t j;
        assert_int_equal(cdyn_kinetics_add_rate_law(k, 1, &s, NULL, 1, &p, NULL, 0, NULL,
                                                    hill_rate, with_jac ? hill_jac : NULL, &h,
                                                    &j),
                         CDYN_OK);
        double v;
        assert_int_equal(cdyn_kinetics_get_reaction_rates(k, &v, 1), CDYN_OK);
        assert_near(v, 1.5 * 4.0 / 4.25, 1e-15);
        assert_int_equal(cdyn_kinetics_get_rate_constant(k, j, &v), CDYN_ERR_INVALID_ARGUMENT);
        /* S + P is conserved; with S >> K the law is near zeroth order:
         * integrate and compare with the implicit closed form
         * S - S0 - K^2 (1/S - 1/S0) = -vmax t. */
        cdyn_kinetics_options o;
        cdyn_kinetics_options_init(&o);
        o.rtol = 1e-10;
        o.atol = 1e-14;
        assert_int_equal(cdyn_kinetics_set_options(k, &o), CDYN_OK);
        assert_int_equal(cdyn_kinetics_integrate(k, 1.0, NULL, 0, NULL, 0), CDYN_OK);
        double c[2];
        cdyn_kinetics_get_concentrations(k, c, 2);
        assert_near(c[0] + c[1], 2.0, 1e-13);
        double lhs = c[0] - 2.0 - 0.25 * (1.0 / c[0] - 0.5);
        assert_near(lhs, -1.5, 2e-8);
        cdyn_kinetics_destroy(k);
    }
}

static void test_rate_law_bad_input(void **state)
{
    (void)state;
    static const char fn[] = "cdyn_kinetics_add_rate_law";
    cdyn_kinetics *k = small_network();
    snapshot before;
    snap(k, &before);
    hill h = {1, 1, 0, -1, 0};
    size_t a = 0, b = 1, deps_bad[] = {0, 7}, deps_twice[] = {1, 1};
    cdyn_status e = CDYN_ERR_INVALID_ARGUMENT;
    assert_int_equal(cdyn_kinetics_add_rate_law(k, 1, &a, NULL, 1, &b, NULL, 0, NULL, NULL,
                                                NULL, &h, NULL),
                     e);
    assert_message(k, fn);
    assert_int_equal(cdyn_kinetics_add_rate_law(k, 1, &a, NULL, 1, &b, NULL, 2, deps_bad,
                                                hill_rate, NULL, &h, NULL),
                     e);
    assert_int_equal(cdyn_kinetics_add_rate_law(k, 1, &a, NULL, 1, &b, NULL, 2, deps_twice,
                                                hill_rate, NULL, &h, NULL),
                     e);
    assert_int_equal(cdyn_kinetics_add_rate_law(k, 1, &a, NULL, 1, &b, NULL, 2, NULL, hill_rate,
                                                NULL, &h, NULL),
                     e);
    assert_unchanged(k, &before);
    cdyn_kinetics_destroy(k);
}

/* A rate law that fails on its 6th call: the query and the integration
 * report CDYN_ERR_CALLBACK, the integration rolls back to its start. */
static void test_callback_error_rolls_back(void **state)
{
    (void)state;
    for (int m = 1; m <= 3; m++) {
        cdyn_kinetics *k = small_network();
        size_t b = 1, c = 2;
        hill h = {0.3, 1.0, b, 5, 0};
        assert_int_equal(cdyn_kinetics_add_rate_law(k, 1, &b, NULL, 1, &c, NULL, 0, NULL,
                                                    hill_rate, NULL, &h, NULL),
                         CDYN_OK);
        cdyn_kinetics_options o;
        cdyn_kinetics_options_init(&o);
        o.method = (cdyn_kinetics_method)m;
        o.fixed_step = 0.01;
        assert_int_equal(cdyn_kinetics_set_options(k, &o), CDYN_OK);
        assert_int_equal(cdyn_kinetics_set_time(k, 2.0), CDYN_OK);
        snapshot before;
        snap(k, &before);
        double out[3 * 4], times[4] = {2.0, 2.5, 3.0, 4.0};
        assert_int_equal(cdyn_kinetics_integrate(k, 5.0, times, 4, out, 12), CDYN_ERR_CALLBACK);
        assert_message(k, "cdyn_kinetics_integrate");
        assert_non_null(strstr(cdyn_kinetics_last_error(k), "returned 7"));
        assert_unchanged(k, &before);
        cdyn_kinetics_stats st = {.size = sizeof st};
        assert_int_equal(cdyn_kinetics_get_stats(k, &st), CDYN_OK);
        assert_true(st.rate_evaluations >= 1);
        /* a query fails the same way, changing nothing */
        double v[3];
        h.calls = 0;
        h.fail_after = 0;
        assert_int_equal(cdyn_kinetics_get_reaction_rates(k, v, 3), CDYN_ERR_CALLBACK);
        assert_unchanged(k, &before);
        cdyn_kinetics_destroy(k);
    }
}

static int constant_rate(const cdyn_kinetics *kin, double t, const double *c, size_t n,
                         double *rate, void *user)
{
    (void)kin;
    (void)t, (void)c, (void)n, (void)user;
    *rate = 1.0;
    return 0;
}

/* Failed integrations roll back: max_steps reached (Dormand-Prince on a
 * stiff network), a concentration pushed below zero. */
static void test_failures_roll_back(void **state)
{
    (void)state;
    cdyn_kinetics *k = make();
    size_t a = species(k, "A", 1), b = species(k, "B", 0);
    assert_int_equal(cdyn_kinetics_add_reversible_reaction(k, 1, &a, NULL, 1, &b, NULL, 1e6, 1e6,
                                                           NULL),
                     CDYN_OK);
    cdyn_kinetics_options o;
    cdyn_kinetics_options_init(&o);
    o.method = CDYN_KINETICS_DORMAND_PRINCE;
    o.max_steps = 500;
    assert_int_equal(cdyn_kinetics_set_options(k, &o), CDYN_OK);
    snapshot before;
    snap(k, &before);
    assert_int_equal(cdyn_kinetics_integrate(k, 1.0, NULL, 0, NULL, 0), CDYN_ERR_NOT_CONVERGED);
    assert_non_null(strstr(cdyn_kinetics_last_error(k), "max_steps"));
    assert_unchanged(k, &before);
    cdyn_kinetics_stats st = {.size = sizeof st};
    cdyn_kinetics_get_stats(k, &st);
    assert_int_equal(st.steps + st.rejected_steps, 500);
    /* BDF gets there */
    o.method = CDYN_KINETICS_BDF;
    assert_int_equal(cdyn_kinetics_set_options(k, &o), CDYN_OK);
    assert_int_equal(cdyn_kinetics_integrate(k, 1.0, NULL, 0, NULL, 0), CDYN_OK);
    cdyn_kinetics_destroy(k);

    /* A consumed at a constant rate 1 (a zeroth-order rate law) from A = 1:
     * the exact solution reaches zero at t = 1 and goes on below it. Every
     * method integrates to 0.9; none goes past 1, each fails, rolls back
     * and counts the negative attempts. */
    for (int m = 1; m <= 3; m++) {
        k = make();
        a = species(k, "A", 1);
        assert_int_equal(cdyn_kinetics_add_rate_law(k, 1, &a, NULL, 0, NULL, NULL, 0, NULL,
                                                    constant_rate, NULL, NULL, NULL),
                         CDYN_OK);
        cdyn_kinetics_options_init(&o);
        o.method = (cdyn_kinetics_method)m;
        o.fixed_step = 0.3;
        o.atol = 1e-9;
        assert_int_equal(cdyn_kinetics_set_options(k, &o), CDYN_OK);
        assert_int_equal(cdyn_kinetics_integrate(k, 0.9, NULL, 0, NULL, 0), CDYN_OK);
        double c;
        cdyn_kinetics_get_concentrations(k, &c, 1);
        assert_near(c, 0.1, 1e-9);
        snap(k, &before);
        assert_int_equal(cdyn_kinetics_integrate(k, 2.0, NULL, 0, NULL, 0),
                         CDYN_ERR_NOT_CONVERGED);
        assert_unchanged(k, &before);
        cdyn_kinetics_get_stats(k, &st);
        assert_true(st.negative_rejections >= 1);
        cdyn_kinetics_destroy(k);
    }
}

/* Rates that overflow: the queries say so, integrations fail and roll back
 * (the step shrinks until it underflows). */
static void test_non_finite_rates(void **state)
{
    (void)state;
    cdyn_kinetics *k = make();
    size_t a = species(k, "A", 1e200), b = species(k, "B", 0.0);
    int two[] = {2};
    assert_int_equal(cdyn_kinetics_add_reaction(k, 1, &a, two, 1, &b, NULL, 1.0, NULL), CDYN_OK);
    double v, f[2];
    assert_int_equal(cdyn_kinetics_get_reaction_rates(k, &v, 1), CDYN_ERR_DIVERGED);
    assert_message(k, "cdyn_kinetics_get_reaction_rates");
    assert_true(isinf(v));
    assert_int_equal(cdyn_kinetics_get_species_rates(k, f, 2), CDYN_ERR_DIVERGED);
    for (int m = 1; m <= 3; m++) {
        cdyn_kinetics_options o;
        cdyn_kinetics_options_init(&o);
        o.method = (cdyn_kinetics_method)m;
        o.fixed_step = 0.1;
        assert_int_equal(cdyn_kinetics_set_options(k, &o), CDYN_OK);
        snapshot before;
        snap(k, &before);
        cdyn_status st = cdyn_kinetics_integrate(k, 1.0, NULL, 0, NULL, 0);
        assert_true(st == CDYN_ERR_NOT_CONVERGED || st == CDYN_ERR_SINGULAR);
        assert_message(k, "cdyn_kinetics_integrate");
        assert_unchanged(k, &before);
    }
    cdyn_kinetics_destroy(k);
}

static void test_integrate_bad_input(void **state)
{
    (void)state;
    static const char fn[] = "cdyn_kinetics_integrate";
    cdyn_kinetics *k = make();
    cdyn_status e = CDYN_ERR_INVALID_ARGUMENT;
    assert_int_equal(cdyn_kinetics_integrate(k, 1.0, NULL, 0, NULL, 0), e); /* no species */
    assert_message(k, fn);
    cdyn_kinetics_destroy(k);
    k = small_network();
    assert_int_equal(cdyn_kinetics_set_time(k, 1.0), CDYN_OK);
    snapshot before;
    snap(k, &before);
    double out[9], t_ok[3] = {1.0, 1.5, 2.0}, t_back[3] = {1.0, 1.7, 1.5};
    double t_out[2] = {0.5, 1.5}, t_nan[2] = {1.2, NAN};
    assert_int_equal(cdyn_kinetics_integrate(NULL, 2.0, NULL, 0, NULL, 0), e);
    assert_int_equal(cdyn_kinetics_integrate(k, 0.5, NULL, 0, NULL, 0), e); /* backwards */
    assert_message(k, fn);
    assert_int_equal(cdyn_kinetics_integrate(k, NAN, NULL, 0, NULL, 0), e);
    assert_int_equal(cdyn_kinetics_integrate(k, INFINITY, NULL, 0, NULL, 0), e);
    assert_int_equal(cdyn_kinetics_integrate(k, 2.0, NULL, 3, out, 9), e);
    assert_int_equal(cdyn_kinetics_integrate(k, 2.0, t_back, 3, out, 9), e);
    assert_int_equal(cdyn_kinetics_integrate(k, 2.0, t_out, 2, out, 9), e);
    assert_int_equal(cdyn_kinetics_integrate(k, 2.0, t_nan, 2, out, 9), e);
    assert_int_equal(cdyn_kinetics_integrate(k, 1.9, t_ok, 3, out, 9), e); /* 2.0 > t_end */
    assert_int_equal(cdyn_kinetics_integrate(k, 2.0, t_ok, 3, out, 8), e);
    assert_int_equal(cdyn_kinetics_integrate(k, 2.0, t_ok, 3, NULL, 9), e);
    assert_int_equal(cdyn_kinetics_integrate(k, 2.0, t_ok, SIZE_MAX / 2, out, 9), e);
    assert_message(k, fn);
    assert_unchanged(k, &before);
    /* t_end = t0 is nothing to do, outputs at t0 are the state */
    assert_int_equal(cdyn_kinetics_integrate(k, 1.0, t_ok, 1, out, 3), CDYN_OK);
    assert_memory_equal(out, before.c, 3 * sizeof(double));
    assert_unchanged(k, &before);
    cdyn_kinetics_destroy(k);
}

static void test_options(void **state)
{
    (void)state;
    static const char fn[] = "cdyn_kinetics_set_options";
    cdyn_kinetics *k = small_network();
    cdyn_kinetics_options o, got, def;
    cdyn_kinetics_options_init(&def);
    cdyn_kinetics_options_init(NULL);
    assert_int_equal(def.size, sizeof def);
    assert_int_equal(def.method, CDYN_KINETICS_BDF);
    assert_true(def.rtol == 1e-6 && def.atol == 1e-12 && def.max_order == 5);
    got.size = sizeof got;
    assert_int_equal(cdyn_kinetics_get_options(k, &got), CDYN_OK);
    assert_memory_equal(&got, &def, sizeof got);
    cdyn_status e = CDYN_ERR_INVALID_ARGUMENT;
#define BAD(field, value)                                                                      \
    do {                                                                                       \
        cdyn_kinetics_options_init(&o);                                                        \
        o.field = value;                                                                       \
        assert_int_equal(cdyn_kinetics_set_options(k, &o), e);                                 \
        assert_message(k, fn);                                                                 \
    } while (0)
    BAD(size, sizeof o - 1);
    BAD(method, (cdyn_kinetics_method)0);
    BAD(method, (cdyn_kinetics_method)4);
    BAD(method, CDYN_KINETICS_BACKWARD_EULER); /* without a fixed step */
    BAD(rtol, 0.0);
    BAD(rtol, 1e-15);
    BAD(rtol, 1.0);
    BAD(rtol, NAN);
    BAD(atol, 0.0);
    BAD(atol, -1e-12);
    BAD(atol, INFINITY);
    BAD(max_steps, 0);
    BAD(initial_step, -1.0);
    BAD(initial_step, NAN);
    BAD(max_step, INFINITY);
    BAD(fixed_step, -0.1);
    BAD(max_order, 0);
    BAD(max_order, 6);
    BAD(max_newton_iterations, -1);
    BAD(max_newton_iterations, 101);
#undef BAD
    assert_int_equal(cdyn_kinetics_set_options(k, NULL), e);
    assert_int_equal(cdyn_kinetics_get_options(k, &got), CDYN_OK);
    assert_memory_equal(&got, &def, sizeof got);
    got.size = 0;
    assert_int_equal(cdyn_kinetics_get_options(k, &got), e);
    assert_message(k, "cdyn_kinetics_get_options");
    /* a short size gets only its first fields */
    cdyn_kinetics_options_init(&o);
    o.method = CDYN_KINETICS_DORMAND_PRINCE;
    o.rtol = 1e-3;
    assert_int_equal(cdyn_kinetics_set_options(k, &o), CDYN_OK);
    memset(&got, 0xff, sizeof got);
    got.size = offsetof(cdyn_kinetics_options, rtol);
    assert_int_equal(cdyn_kinetics_get_options(k, &got), CDYN_OK);
    assert_int_equal(got.method, CDYN_KINETICS_DORMAND_PRINCE);
    assert_true(isnan(got.rtol)); /* 0xff bytes, untouched */
    /* per-species tolerances */
    double at[3] = {1e-9, 1e-10, 1e-11}, bad_at[3] = {1e-9, 0.0, 1e-11};
    assert_int_equal(cdyn_kinetics_set_absolute_tolerances(k, at, 3), CDYN_OK);
    assert_int_equal(cdyn_kinetics_set_absolute_tolerances(k, at, 2), e);
    assert_message(k, "cdyn_kinetics_set_absolute_tolerances");
    assert_int_equal(cdyn_kinetics_set_absolute_tolerances(k, bad_at, 3), e);
    assert_int_equal(cdyn_kinetics_set_absolute_tolerances(k, NULL, 3), e);
    assert_int_equal(cdyn_kinetics_set_absolute_tolerances(k, NULL, 0), CDYN_OK);
    /* stats */
    cdyn_kinetics_stats st;
    st.size = 0;
    assert_int_equal(cdyn_kinetics_get_stats(k, &st), e);
    assert_int_equal(cdyn_kinetics_get_stats(NULL, &st), e);
    st.size = sizeof st;
    assert_int_equal(cdyn_kinetics_get_stats(k, &st), CDYN_OK);
    assert_int_equal(st.steps, 0);
    cdyn_kinetics_destroy(k);
}

/* A rate law that tries to change the object from inside an integration. */
typedef struct meddler {
    cdyn_kinetics *k;
    int tried;
    cdyn_status got[6];
} meddler;

static int meddle(const cdyn_kinetics *kin, double t, const double *c, size_t n,
                  double *rate, void *user)
{
    (void)kin;
    (void)t;
    (void)n;
    meddler *m = user;
    *rate = 0.1 * c[0];
    if (!m->tried) {
        m->tried = 1;
        size_t a = 0;
        double one = 1.0;
        cdyn_kinetics_options o;
        cdyn_kinetics_options_init(&o);
        m->got[0] = cdyn_kinetics_add_species(m->k, "Z", 1.0, NULL);
        m->got[1] = cdyn_kinetics_add_reaction(m->k, 1, &a, NULL, 0, NULL, NULL, 1.0, NULL);
        m->got[2] = cdyn_kinetics_set_concentrations(m->k, &one, 1);
        m->got[3] = cdyn_kinetics_integrate(m->k, 10.0, NULL, 0, NULL, 0);
        m->got[4] = cdyn_kinetics_set_options(m->k, &o);
        size_t cnt;
        m->got[5] = cdyn_kinetics_get_species_count(m->k, &cnt); /* reading is fine */
    }
    return 0;
}

static void test_busy(void **state)
{
    (void)state;
    cdyn_kinetics *k = make();
    size_t a = species(k, "A", 1.0);
    meddler m = {k, 0, {0}};
    assert_int_equal(cdyn_kinetics_add_rate_law(k, 1, &a, NULL, 0, NULL, NULL, 0, NULL, meddle,
                                                NULL, &m, NULL),
                     CDYN_OK);
    assert_int_equal(cdyn_kinetics_integrate(k, 1.0, NULL, 0, NULL, 0), CDYN_OK);
    for (int i = 0; i < 5; i++)
        assert_int_equal(m.got[i], CDYN_ERR_BUSY);
    assert_int_equal(m.got[5], CDYN_OK);
    size_t n;
    cdyn_kinetics_get_species_count(k, &n);
    assert_int_equal(n, 1);
    double c;
    cdyn_kinetics_get_concentrations(k, &c, 1);
    assert_near(c, exp(-0.1), 1e-5);
    cdyn_kinetics_destroy(k);
}

/* Two objects built and integrated the same way give the same bits, with
 * every method, outputs included. */
static void run_once(cdyn_kinetics_method m, double *out, size_t cap)
{
    cdyn_kinetics *k = make();
    size_t a = species(k, "A", 1.0), b = species(k, "B", 0.1), c = species(k, "C", 0.0);
    size_t ab[] = {a, b};
    int two[] = {2};
    cdyn_kinetics_add_reaction(k, 2, ab, NULL, 1, &c, NULL, 2.0, NULL);
    cdyn_kinetics_add_reversible_reaction(k, 1, &c, NULL, 1, &b, two, 0.7, 0.3, NULL);
    cdyn_kinetics_add_reaction(k, 1, &a, NULL, 1, &b, NULL, 0.05, NULL);
    cdyn_kinetics_options o;
    cdyn_kinetics_options_init(&o);
    o.method = m;
    o.fixed_step = 0.01;
    cdyn_kinetics_set_options(k, &o);
    double times[5] = {0.1, 0.7, 1.3, 2.9, 5.0};
    assert_int_equal(cdyn_kinetics_integrate(k, 5.0, times, 5, out, cap), CDYN_OK);
    cdyn_kinetics_destroy(k);
}

static void test_determinism(void **state)
{
    (void)state;
    for (int m = 1; m <= 3; m++) {
        double x[15], y[15];
        run_once((cdyn_kinetics_method)m, x, 15);
        run_once((cdyn_kinetics_method)m, y, 15);
        assert_memory_equal(x, y, sizeof x);
    }
}

/* Repeated integrations continue the state: integrating to 1 then to 2
 * (each call a fresh start) lands near one integration to 2. */
static void test_continuation(void **state)
{
    (void)state;
    cdyn_kinetics *k1 = small_network(), *k2 = small_network();
    cdyn_kinetics_options o;
    cdyn_kinetics_options_init(&o);
    o.rtol = 1e-10;
    o.atol = 1e-14;
    cdyn_kinetics_set_options(k1, &o);
    cdyn_kinetics_set_options(k2, &o);
    assert_int_equal(cdyn_kinetics_integrate(k1, 1.0, NULL, 0, NULL, 0), CDYN_OK);
    assert_int_equal(cdyn_kinetics_integrate(k1, 2.0, NULL, 0, NULL, 0), CDYN_OK);
    assert_int_equal(cdyn_kinetics_integrate(k2, 2.0, NULL, 0, NULL, 0), CDYN_OK);
    double t, c1[3], c2[3];
    cdyn_kinetics_get_time(k1, &t);
    assert_true(t == 2.0);
    cdyn_kinetics_get_concentrations(k1, c1, 3);
    cdyn_kinetics_get_concentrations(k2, c2, 3);
    for (int i = 0; i < 3; i++)
        assert_near(c1[i], c2[i], 1e-8);
    /* A: exp(-2) */
    assert_near(c1[0], exp(-2.0), 1e-9);
    cdyn_kinetics_destroy(k1);
    cdyn_kinetics_destroy(k2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_destroy),
        cmocka_unit_test(test_species),
        cmocka_unit_test(test_species_bad_input),
        cmocka_unit_test(test_stoichiometry),
        cmocka_unit_test(test_reaction_bad_input),
        cmocka_unit_test(test_rate_law),
        cmocka_unit_test(test_rate_law_bad_input),
        cmocka_unit_test(test_callback_error_rolls_back),
        cmocka_unit_test(test_failures_roll_back),
        cmocka_unit_test(test_non_finite_rates),
        cmocka_unit_test(test_integrate_bad_input),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_busy),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_continuation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
