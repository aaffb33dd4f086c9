/* Conserved moieties: the left null space of the stoichiometric matrix,
 * its reduced row echelon form on networks whose moieties chemistry names
 * (enzyme, Robertson, A <=> 2B, open networks, no reactions), its
 * dimension against an independent rank computation on random closed
 * networks built from atoms, and the totals kept to round-off by every
 * integrator on a reaction-diffusion network. */
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
    return k;
}

static size_t species(cdyn_kinetics *k, const char *name, double c)
{
    size_t i;
    assert_int_equal(cdyn_kinetics_add_species(k, name, c, &i), CDYN_OK);
    return i;
}

/* The basis (m x n, malloc'ed) and m. */
static double *basis(cdyn_kinetics *k, size_t *m, size_t *n)
{
    assert_int_equal(cdyn_kinetics_get_species_count(k, n), CDYN_OK);
    assert_int_equal(cdyn_kinetics_get_moiety_count(k, m), CDYN_OK);
    double *l = malloc((*m * *n + 1) * sizeof *l);
    assert_int_equal(cdyn_kinetics_get_moieties(k, l, *m * *n), CDYN_OK);
    return l;
}

/* max |L S| over the basis rows and reactions, and the RREF shape: each
 * row's first nonzero is 1 in a column where the other rows are 0, and
 * those columns increase. */
static double check_basis(cdyn_kinetics *k, const double *l, size_t m, size_t n)
{
    size_t nnz, nr;
    cdyn_kinetics_get_stoichiometry_size(k, &nnz);
    cdyn_kinetics_get_reaction_count(k, &nr);
    size_t *sp = malloc((nnz + 1) * sizeof *sp), *rx = malloc((nnz + 1) * sizeof *rx);
    int *co = malloc((nnz + 1) * sizeof *co);
    assert_int_equal(cdyn_kinetics_get_stoichiometry(k, sp, rx, co, nnz), CDYN_OK);
    double worst = 0.0;
    double *ls = calloc(nr + 1, sizeof *ls);
    for (size_t r = 0; r < m; r++) {
        memset(ls, 0, (nr + 1) * sizeof *ls);
        for (size_t e = 0; e < nnz; e++)
            ls[rx[e]] += l[r * n + sp[e]] * co[e];
        for (size_t j = 0; j < nr; j++)
            worst = fabs(ls[j]) > worst ? fabs(ls[j]) : worst;
    }
    size_t prev = 0;
    for (size_t r = 0; r < m; r++) {
        size_t lead = 0;
        while (lead < n && l[r * n + lead] == 0.0)
            lead++;
        assert_true(lead < n);
        assert_true(r == 0 || lead > prev);
        assert_true(l[r * n + lead] == 1.0);
        for (size_t o = 0; o < m; o++)
            if (o != r)
                assert_true(l[o * n + lead] == 0.0);
        prev = lead;
    }
    free(sp), free(rx), free(co), free(ls);
    return worst;
}

static void test_named_networks(void **state)
{
    (void)state;
    size_t m, n;
    /* enzyme: E + S <=> ES -> E + P: E + ES, S + ES + P */
    cdyn_kinetics *k = make();
    size_t e = species(k, "E", 1), s = species(k, "S", 1), es = species(k, "ES", 0);
    size_t p = species(k, "P", 0), es2[] = {e, s}, ep[] = {e, p};
    cdyn_kinetics_add_reversible_reaction(k, 2, es2, NULL, 1, &es, NULL, 1, 1, NULL);
    cdyn_kinetics_add_reaction(k, 1, &es, NULL, 2, ep, NULL, 1, NULL);
    double *l = basis(k, &m, &n);
    assert_int_equal(m, 2);
    const double enzyme[8] = {1, 0, 1, 0, 0, 1, 1, 1};
    assert_memory_equal(l, enzyme, sizeof enzyme);
    assert_true(check_basis(k, l, m, n) == 0.0);
    free(l);
    /* A <=> 2 B: A + B / 2 */
    int two[] = {2};
    size_t b = 1;
    cdyn_kinetics_destroy(k);
    k = make();
    size_t a = species(k, "A", 1);
    b = species(k, "B", 0);
    cdyn_kinetics_add_reversible_reaction(k, 1, &a, NULL, 1, &b, two, 1, 1, NULL);
    l = basis(k, &m, &n);
    assert_int_equal(m, 1);
    assert_true(l[0] == 1.0 && l[1] == 0.5);
    free(l);
    /* open the network: B -> 0 leaves nothing conserved (the cached basis
     * follows the change) */
    cdyn_kinetics_add_reaction(k, 1, &b, NULL, 0, NULL, NULL, 1, NULL);
    assert_int_equal(cdyn_kinetics_get_moiety_count(k, &m), CDYN_OK);
    assert_int_equal(m, 0);
    double tot;
    assert_int_equal(cdyn_kinetics_get_moiety_totals(k, NULL, 0), CDYN_OK);
    assert_int_equal(cdyn_kinetics_get_moieties(k, NULL, 0), CDYN_OK);
    (void)tot;
    cdyn_kinetics_destroy(k);
    /* no reactions: every species is its own moiety */
    k = make();
    species(k, "X", 2);
    species(k, "Y", 3);
    l = basis(k, &m, &n);
    assert_int_equal(m, 2);
    const double ident[4] = {1, 0, 0, 1};
    assert_memory_equal(l, ident, sizeof ident);
    double t2[2];
    assert_int_equal(cdyn_kinetics_get_moiety_totals(k, t2, 2), CDYN_OK);
    assert_true(t2[0] == 2.0 && t2[1] == 3.0);
    /* bad input */
    assert_int_equal(cdyn_kinetics_get_moieties(k, l, 3), CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_kinetics_last_error(k), "cdyn_kinetics_get_moieties"));
    assert_int_equal(cdyn_kinetics_get_moiety_totals(k, t2, 1), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_kinetics_get_moiety_count(k, NULL), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_kinetics_get_moiety_count(NULL, &m), CDYN_ERR_INVALID_ARGUMENT);
    free(l);
    cdyn_kinetics_destroy(k);
}

/* Rank of a dense r x c matrix (row-major, copied) by Gaussian elimination
 * with partial pivoting, entries below 1e-9 taken as zero. */
static size_t rank_of(const double *a, size_t r, size_t c)
{
    double *m = malloc((r * c + 1) * sizeof *m);
    memcpy(m, a, r * c * sizeof *m);
    size_t rank = 0;
    for (size_t col = 0; col < c && rank < r; col++) {
        size_t piv = rank;
        for (size_t i = rank; i < r; i++)
            if (fabs(m[i * c + col]) > fabs(m[piv * c + col]))
                piv = i;
        if (fabs(m[piv * c + col]) < 1e-9)
            continue;
        for (size_t j = 0; j < c; j++) {
            double t = m[piv * c + j];
            m[piv * c + j] = m[rank * c + j];
            m[rank * c + j] = t;
        }
        for (size_t i = rank + 1; i < r; i++) {
            double f = m[i * c + col] / m[rank * c + col];
            for (size_t j = col; j < c; j++)
                m[i * c + j] -= f * m[rank * c + j];
        }
        rank++;
    }
    free(m);
    return rank;
}

/* Random closed networks: species are molecules of two atoms (X_a Y_b,
 * 0 <= a, b <= 3, not both 0); reactions join two molecules into one or
 * split one into two, always conserving atoms. The atom counts are
 * moieties; the dimension must be n - rank(S). */
static void test_random_closed_networks(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    for (int trial = 0; trial < 20; trial++) {
        cdyn_kinetics *k = make();
        int comp[15][2];
        size_t n = 0;
        char name[16];
        for (int a = 0; a <= 3; a++)
            for (int b = 0; b <= 3; b++)
                if (a + b > 0 && n < 15) {
                    snprintf(name, sizeof name, "X%dY%d", a, b);
                    comp[n][0] = a;
                    comp[n][1] = b;
                    species(k, name, 1.0);
                    n++;
                }
        int nr = 5 + trial;
        for (int r = 0; r < nr; r++) {
            /* pick two molecules whose sum exists */
            for (int tries = 0; tries < 100; tries++) {
                size_t i = (size_t)((ts_rand_sym(&seed) + 1.0) * 0.5 * (double)n) % n;
                size_t j = (size_t)((ts_rand_sym(&seed) + 1.0) * 0.5 * (double)n) % n;
                int sa = comp[i][0] + comp[j][0], sb = comp[i][1] + comp[j][1];
                size_t s = n;
                for (size_t q = 0; q < n; q++)
                    if (comp[q][0] == sa && comp[q][1] == sb)
                        s = q;
                if (s == n)
                    continue;
                size_t ij[] = {i, j};
                if (ts_rand_sym(&seed) > 0)
                    cdyn_kinetics_add_reaction(k, 2, ij, NULL, 1, &s, NULL, 1.0, NULL);
                else
                    cdyn_kinetics_add_reaction(k, 1, &s, NULL, 2, ij, NULL, 1.0, NULL);
                break;
            }
        }
        size_t m, nn, nnz, nrx;
        double *l = basis(k, &m, &nn);
        assert_true(check_basis(k, l, m, nn) <= 1e-12);
        /* the rank of S from the coordinate form */
        cdyn_kinetics_get_stoichiometry_size(k, &nnz);
        cdyn_kinetics_get_reaction_count(k, &nrx);
        size_t sp[200], rx[200];
        int co[200];
        assert_true(nnz <= 200);
        cdyn_kinetics_get_stoichiometry(k, sp, rx, co, 200);
        double *s = calloc(n * nrx + 1, sizeof *s);
        for (size_t e = 0; e < nnz; e++)
            s[sp[e] * nrx + rx[e]] = co[e];
        assert_int_equal(m, n - rank_of(s, n, nrx));
        /* the atom counts lie in the span of the basis: appending them
         * does not raise its rank */
        double *aug = malloc(((m + 2) * n + 1) * sizeof *aug);
        memcpy(aug, l, m * n * sizeof *aug);
        for (size_t q = 0; q < n; q++) {
            aug[m * n + q] = comp[q][0];
            aug[(m + 1) * n + q] = comp[q][1];
        }
        assert_int_equal(rank_of(aug, m + 2, n), m);
        free(aug), free(s), free(l);
        cdyn_kinetics_destroy(k);
    }
}

/* A <=> B binding in 30 cells (A + B <=> C) with diffusion of all three:
 * two moieties (all A, free or bound; all B), kept to round-off by each
 * method; their totals match the sums computed by hand. */
static void test_conservation_by_every_method(void **state)
{
    (void)state;
    enum { CELLS = 30 };
    for (int meth = 1; meth <= 3; meth++) {
        cdyn_kinetics *k = make();
        char name[16];
        for (int i = 0; i < CELLS; i++) {
            snprintf(name, sizeof name, "A%d", i);
            species(k, name, 1.0 + 0.5 * sin(0.3 * i));
            snprintf(name, sizeof name, "B%d", i);
            species(k, name, 0.7 + 0.2 * cos(0.5 * i));
            snprintf(name, sizeof name, "C%d", i);
            species(k, name, 0.0);
        }
        for (size_t i = 0; i < CELLS; i++) {
            size_t ab[] = {3 * i, 3 * i + 1}, c = 3 * i + 2;
            cdyn_kinetics_add_reversible_reaction(k, 2, ab, NULL, 1, &c, NULL, 5.0, 0.5, NULL);
            for (size_t s = 0; s < 3 && i + 1 < CELLS; s++) {
                size_t x = 3 * i + s, y = 3 * (i + 1) + s;
                cdyn_kinetics_add_reversible_reaction(k, 1, &x, NULL, 1, &y, NULL, 2.0, 2.0,
                                                      NULL);
            }
        }
        size_t m, n;
        double *l = basis(k, &m, &n);
        assert_int_equal(m, 2);
        assert_true(check_basis(k, l, m, n) == 0.0);
        double c0[3 * CELLS], want[2] = {0, 0}, before[2], after[2];
        cdyn_kinetics_get_concentrations(k, c0, 3 * CELLS);
        for (int i = 0; i < CELLS; i++) {
            want[0] += c0[3 * i] + c0[3 * i + 2];
            want[1] += c0[3 * i + 1] + c0[3 * i + 2];
        }
        assert_int_equal(cdyn_kinetics_get_moiety_totals(k, before, 2), CDYN_OK);
        /* the RREF rows (pivots A0, B0): all A free or bound, all B */
        assert_near(before[0], want[0], 1e-13);
        assert_near(before[1], want[1], 1e-13);
        cdyn_kinetics_options o;
        cdyn_kinetics_options_init(&o);
        o.method = (cdyn_kinetics_method)meth;
        o.fixed_step = 0.01;
        o.rtol = 1e-6;
        o.atol = 1e-10;
        assert_int_equal(cdyn_kinetics_set_options(k, &o), CDYN_OK);
        assert_int_equal(cdyn_kinetics_integrate(k, 2.0, NULL, 0, NULL, 0), CDYN_OK);
        assert_int_equal(cdyn_kinetics_get_moiety_totals(k, after, 2), CDYN_OK);
        double drift = fmax(fabs(after[0] - before[0]), fabs(after[1] - before[1]));
        cdyn_kinetics_stats st = {.size = sizeof st};
        cdyn_kinetics_get_stats(k, &st);
        print_message("method %d: %llu steps, moiety drift %.2e (totals %.3f, %.3f)\n", meth,
                      (unsigned long long)st.steps, drift, before[0], before[1]);
        assert_true(drift <= 1e-13);
        /* something happened: binding moved A into C */
        double c1[3 * CELLS];
        cdyn_kinetics_get_concentrations(k, c1, 3 * CELLS);
        assert_true(c1[2] > 0.1);
        free(l);
        cdyn_kinetics_destroy(k);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_named_networks),
        cmocka_unit_test(test_random_closed_networks),
        cmocka_unit_test(test_conservation_by_every_method),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
