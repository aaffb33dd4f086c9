/* The reaction store: mass-action reactions, reversible pairs, user rate
 * laws, rate constants and the stoichiometric matrix. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kinetics/kinetics.h"

/* One side of a reaction as the caller gives it. */
typedef struct side {
    size_t n;
    const size_t *species;
    const int *coeff; /* NULL: all ones */
    const char *what; /* "reactant" or "product", for messages */
} side;

static cdyn_status check_side(cdyn_kinetics *kin, const char *fn, const side *s)
{
    if (s->n && !s->species)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn, "%zu %ss but the list is NULL",
                              s->n, s->what);
    for (size_t i = 0; i < s->n; i++) {
        if (s->species[i] >= kin->sp.n)
            return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "%s %zu is species %zu, but there are %zu species", s->what, i,
                                  s->species[i], kin->sp.n);
        int c = s->coeff ? s->coeff[i] : 1;
        if (c < 1 || c > CDYN_KINETICS_MAX_COEFFICIENT)
            return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "%s %zu (%s) has coefficient %d, not in 1..%d", s->what, i,
                                  kin->sp.name[s->species[i]], c, CDYN_KINETICS_MAX_COEFFICIENT);
    }
    return CDYN_OK;
}

/* Writes the side merged (repeated species added up) and sorted by species
 * into @p sp, @p co (room for s->n entries); returns the entry count, or
 * SIZE_MAX when a merged coefficient exceeds the maximum. */
static size_t merge_side(const side *s, size_t *sp, int *co)
{
    size_t m = 0;
    for (size_t i = 0; i < s->n; i++) {
        size_t x = s->species[i];
        int c = s->coeff ? s->coeff[i] : 1;
        size_t j = m;
        while (j > 0 && sp[j - 1] > x)
            j--;
        if (j > 0 && sp[j - 1] == x) {
            if (co[j - 1] > CDYN_KINETICS_MAX_COEFFICIENT - c)
                return SIZE_MAX;
            co[j - 1] += c;
            continue;
        }
        memmove(sp + j + 1, sp + j, (m - j) * sizeof *sp);
        memmove(co + j + 1, co + j, (m - j) * sizeof *co);
        sp[j] = x;
        co[j] = c;
        m++;
    }
    return m;
}

/* Net stoichiometry (products minus reactants, zeros left out) of two
 * sorted merged lists into @p sp, @p co; returns the entry count. */
static size_t net_of(const size_t *rs, const int *rc, size_t nr, const size_t *ps,
                     const int *pc, size_t np, size_t *sp, int *co)
{
    size_t i = 0, j = 0, m = 0;
    while (i < nr || j < np) {
        size_t x;
        int c;
        if (j == np || (i < nr && rs[i] < ps[j])) {
            x = rs[i];
            c = -rc[i++];
        } else if (i == nr || ps[j] < rs[i]) {
            x = ps[j];
            c = pc[j++];
        } else {
            x = rs[i];
            c = pc[j++] - rc[i++];
        }
        if (c != 0) {
            sp[m] = x;
            co[m++] = c;
        }
    }
    return m;
}

/* Room for @p dirs more reactions with up to @p nl + @p nr species on
 * their sides and @p nd dependencies each. */
static bool reserve(cdyn_kinetics *kin, size_t dirs, size_t nl, size_t nr, size_t nd)
{
    cdyn__kin_reactions *rx = &kin->rx;
    const cdyn_allocator *a = &kin->alloc;
    size_t n = rx->n + dirs, side_max = nl > nr ? nl : nr;
    /* (the start arrays are written by the first commit, not before) */
    size_t rlen = rx->n ? rx->r_start[rx->n] : 0;
    size_t plen = rx->n ? rx->p_start[rx->n] : 0;
    size_t slen = rx->n ? rx->s_start[rx->n] : 0;
    size_t dlen = rx->n ? rx->d_start[rx->n] : 0;
    size_t sides = dirs * side_max, nets = dirs * (nl + nr), deps = dirs * nd;
    return cdyn__kin_reserve(a, (void **)&rx->k, &rx->cap_k, n, sizeof *rx->k) &&
           cdyn__kin_reserve(a, (void **)&rx->law, &rx->cap_law, n, sizeof *rx->law) &&
           cdyn__kin_reserve(a, (void **)&rx->law_jac, &rx->cap_law_jac, n,
                             sizeof *rx->law_jac) &&
           cdyn__kin_reserve(a, (void **)&rx->law_user, &rx->cap_law_user, n,
                             sizeof *rx->law_user) &&
           cdyn__kin_reserve(a, (void **)&rx->r_start, &rx->cap_r_start, n + 1,
                             sizeof(size_t)) &&
           cdyn__kin_reserve(a, (void **)&rx->p_start, &rx->cap_p_start, n + 1,
                             sizeof(size_t)) &&
           cdyn__kin_reserve(a, (void **)&rx->s_start, &rx->cap_s_start, n + 1,
                             sizeof(size_t)) &&
           cdyn__kin_reserve(a, (void **)&rx->d_start, &rx->cap_d_start, n + 1,
                             sizeof(size_t)) &&
           cdyn__kin_reserve(a, (void **)&rx->r_species, &rx->cap_r_species, rlen + sides,
                             sizeof(size_t)) &&
           cdyn__kin_reserve(a, (void **)&rx->r_coeff, &rx->cap_r_coeff, rlen + sides,
                             sizeof(int)) &&
           cdyn__kin_reserve(a, (void **)&rx->p_species, &rx->cap_p_species, plen + sides,
                             sizeof(size_t)) &&
           cdyn__kin_reserve(a, (void **)&rx->p_coeff, &rx->cap_p_coeff, plen + sides,
                             sizeof(int)) &&
           cdyn__kin_reserve(a, (void **)&rx->s_species, &rx->cap_s_species, slen + nets,
                             sizeof(size_t)) &&
           cdyn__kin_reserve(a, (void **)&rx->s_coeff, &rx->cap_s_coeff, slen + nets,
                             sizeof(int)) &&
           cdyn__kin_reserve(a, (void **)&rx->d_species, &rx->cap_d_species, dlen + deps,
                             sizeof(size_t));
}

/* A user rate law of a reaction being added. */
typedef struct law {
    cdyn_kinetics_rate_fn fn;
    cdyn_kinetics_rate_jacobian_fn jac;
    void *user;
    size_t n_deps;
    const size_t *deps;
} law;

/* Adds left -> right with rate constant k[0] (or the law), and when
 * @p dirs is 2 also right -> left with k[1]. */
static cdyn_status add(cdyn_kinetics *kin, const char *fn, const side *left, const side *right,
                       size_t dirs, const double *k, const law *lw, size_t *index)
{
    cdyn_status st = cdyn__kin_enter(kin, fn);
    if (st)
        return st;
    for (size_t d = 0; d < dirs; d++)
        if (!lw && (!isfinite(k[d]) || !(k[d] > 0)))
            return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "rate constant %g must be finite and > 0", k[d]);
    if ((st = check_side(kin, fn, left)) || (st = check_side(kin, fn, right)))
        return st;
    if (left->n == 0 && right->n == 0)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn, "the reaction has no species");
    if (lw) {
        if (!lw->fn)
            return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn, "the rate law is NULL");
        if (lw->n_deps && !lw->deps)
            return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "%zu dependencies but the list is NULL", lw->n_deps);
        for (size_t i = 0; i < lw->n_deps; i++) {
            if (lw->deps[i] >= kin->sp.n)
                return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                                      "dependency %zu is species %zu, but there are %zu species",
                                      i, lw->deps[i], kin->sp.n);
            for (size_t j = 0; j < i; j++)
                if (lw->deps[j] == lw->deps[i])
                    return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                                          "species %zu (%s) is listed twice as a dependency",
                                          lw->deps[i], kin->sp.name[lw->deps[i]]);
        }
    }
    size_t nd = lw && lw->n_deps ? lw->n_deps : (left->n > right->n ? left->n : right->n);
    if (!reserve(kin, dirs, left->n, right->n, nd))
        return cdyn__kin_fail(kin, CDYN_ERR_NO_MEMORY, fn, "out of memory for a reaction");

    /* Merge both sides into the room past the stored lists (not yet part of
     * the network), then commit one direction after the other. */
    cdyn__kin_reactions *rx = &kin->rx;
    if (rx->n == 0)
        rx->r_start[0] = rx->p_start[0] = rx->s_start[0] = rx->d_start[0] = 0;
    size_t r0 = rx->r_start[rx->n], p0 = rx->p_start[rx->n];
    size_t ml = merge_side(left, rx->r_species + r0, rx->r_coeff + r0);
    size_t mr = merge_side(right, rx->p_species + p0, rx->p_coeff + p0);
    if (ml == SIZE_MAX || mr == SIZE_MAX)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "a species' coefficients on one side add up to more than %d",
                              CDYN_KINETICS_MAX_COEFFICIENT);
    for (size_t d = 0; d < dirs; d++) {
        size_t j = rx->n, r = rx->r_start[j], p = rx->p_start[j];
        size_t s = rx->s_start[j], q = rx->d_start[j];
        size_t nr = ml, np = mr;
        if (d == 1) { /* the reverse: the sides swapped */
            size_t fr = rx->r_start[j - 1], fp = rx->p_start[j - 1];
            memcpy(rx->r_species + r, rx->p_species + fp, mr * sizeof(size_t));
            memcpy(rx->r_coeff + r, rx->p_coeff + fp, mr * sizeof(int));
            memcpy(rx->p_species + p, rx->r_species + fr, ml * sizeof(size_t));
            memcpy(rx->p_coeff + p, rx->r_coeff + fr, ml * sizeof(int));
            nr = mr;
            np = ml;
        }
        size_t ns = net_of(rx->r_species + r, rx->r_coeff + r, nr, rx->p_species + p,
                           rx->p_coeff + p, np, rx->s_species + s, rx->s_coeff + s);
        size_t ndep;
        if (lw && lw->n_deps) {
            memcpy(rx->d_species + q, lw->deps, lw->n_deps * sizeof(size_t));
            ndep = lw->n_deps;
        } else {
            memcpy(rx->d_species + q, rx->r_species + r, nr * sizeof(size_t));
            ndep = nr;
        }
        rx->k[j] = lw ? 0.0 : k[d];
        rx->law[j] = lw ? lw->fn : NULL;
        rx->law_jac[j] = lw ? lw->jac : NULL;
        rx->law_user[j] = lw ? lw->user : NULL;
        rx->r_start[j + 1] = r + nr;
        rx->p_start[j + 1] = p + np;
        rx->s_start[j + 1] = s + ns;
        rx->d_start[j + 1] = q + ndep;
        if (ndep > rx->max_deps)
            rx->max_deps = ndep;
        if (lw)
            rx->n_laws++;
        rx->n = j + 1;
    }
    kin->serial++;
    if (index)
        *index = rx->n - dirs;
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_add_reaction(cdyn_kinetics *kin, size_t n_reactants,
                                       const size_t *reactants, const int *reactant_coefficients,
                                       size_t n_products, const size_t *products,
                                       const int *product_coefficients, double rate_constant,
                                       size_t *index)
{
    side l = {n_reactants, reactants, reactant_coefficients, "reactant"};
    side r = {n_products, products, product_coefficients, "product"};
    return add(kin, "cdyn_kinetics_add_reaction", &l, &r, 1, &rate_constant, NULL, index);
}

cdyn_status cdyn_kinetics_add_reversible_reaction(
    cdyn_kinetics *kin, size_t n_reactants, const size_t *reactants,
    const int *reactant_coefficients, size_t n_products, const size_t *products,
    const int *product_coefficients, double forward_constant, double backward_constant,
    size_t *index)
{
    side l = {n_reactants, reactants, reactant_coefficients, "reactant"};
    side r = {n_products, products, product_coefficients, "product"};
    double k[2] = {forward_constant, backward_constant};
    return add(kin, "cdyn_kinetics_add_reversible_reaction", &l, &r, 2, k, NULL, index);
}

cdyn_status cdyn_kinetics_add_rate_law(cdyn_kinetics *kin, size_t n_reactants,
                                       const size_t *reactants, const int *reactant_coefficients,
                                       size_t n_products, const size_t *products,
                                       const int *product_coefficients, size_t n_deps,
                                       const size_t *deps, cdyn_kinetics_rate_fn rate,
                                       cdyn_kinetics_rate_jacobian_fn jacobian, void *user,
                                       size_t *index)
{
    side l = {n_reactants, reactants, reactant_coefficients, "reactant"};
    side r = {n_products, products, product_coefficients, "product"};
    law lw = {rate, jacobian, user, n_deps, deps};
    double k = 0;
    return add(kin, "cdyn_kinetics_add_rate_law", &l, &r, 1, &k, &lw, index);
}

cdyn_status cdyn_kinetics_get_reaction_count(const cdyn_kinetics *kin, size_t *count)
{
    cdyn_status st = cdyn__kin_check_ptr(kin, "cdyn_kinetics_get_reaction_count", count, "count");
    if (st)
        return st;
    *count = kin->rx.n;
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_set_rate_constant(cdyn_kinetics *kin, size_t reaction,
                                            double rate_constant)
{
    static const char fn[] = "cdyn_kinetics_set_rate_constant";
    cdyn_status st = cdyn__kin_enter(kin, fn);
    if (st)
        return st;
    if (reaction >= kin->rx.n)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "reaction %zu does not exist (%zu reactions)", reaction, kin->rx.n);
    if (kin->rx.law[reaction])
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "reaction %zu has a user rate law, no rate constant", reaction);
    if (!isfinite(rate_constant) || !(rate_constant > 0))
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "rate constant %g must be finite and > 0", rate_constant);
    kin->rx.k[reaction] = rate_constant;
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_get_rate_constant(const cdyn_kinetics *kin, size_t reaction,
                                            double *rate_constant)
{
    static const char fn[] = "cdyn_kinetics_get_rate_constant";
    cdyn_status st = cdyn__kin_check_ptr(kin, fn, rate_constant, "rate_constant");
    if (st)
        return st;
    if (reaction >= kin->rx.n)
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "reaction %zu does not exist (%zu reactions)", reaction, kin->rx.n);
    if (kin->rx.law[reaction])
        return cdyn__kin_fail(kin, CDYN_ERR_INVALID_ARGUMENT, fn,
                              "reaction %zu has a user rate law, no rate constant", reaction);
    *rate_constant = kin->rx.k[reaction];
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_get_stoichiometry_size(const cdyn_kinetics *kin, size_t *count)
{
    cdyn_status st =
        cdyn__kin_check_ptr(kin, "cdyn_kinetics_get_stoichiometry_size", count, "count");
    if (st)
        return st;
    *count = kin->rx.n ? kin->rx.s_start[kin->rx.n] : 0;
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_get_stoichiometry(const cdyn_kinetics *kin, size_t *species,
                                            size_t *reactions, int *coefficients,
                                            size_t capacity)
{
    static const char fn[] = "cdyn_kinetics_get_stoichiometry";
    if (!kin)
        return CDYN_ERR_INVALID_ARGUMENT;
    const cdyn__kin_reactions *rx = &kin->rx;
    size_t nnz = rx->n ? rx->s_start[rx->n] : 0;
    cdyn_status st;
    if ((st = cdyn__kin_check_out(kin, fn, species, capacity, nnz)) ||
        (st = cdyn__kin_check_out(kin, fn, reactions, capacity, nnz)) ||
        (st = cdyn__kin_check_out(kin, fn, coefficients, capacity, nnz)))
        return st;
    for (size_t j = 0; j < rx->n; j++)
        for (size_t e = rx->s_start[j]; e < rx->s_start[j + 1]; e++) {
            species[e] = rx->s_species[e];
            reactions[e] = j;
            coefficients[e] = rx->s_coeff[e];
        }
    return CDYN_OK;
}

void cdyn__kin_reactions_free(cdyn_kinetics *kin)
{
    const cdyn_allocator *a = &kin->alloc;
    cdyn__kin_reactions *rx = &kin->rx;
    cdyn__free_array(a, rx->k, rx->cap_k, sizeof *rx->k);
    cdyn__free_array(a, rx->law, rx->cap_law, sizeof *rx->law);
    cdyn__free_array(a, rx->law_jac, rx->cap_law_jac, sizeof *rx->law_jac);
    cdyn__free_array(a, rx->law_user, rx->cap_law_user, sizeof *rx->law_user);
    cdyn__free_array(a, rx->r_start, rx->cap_r_start, sizeof(size_t));
    cdyn__free_array(a, rx->p_start, rx->cap_p_start, sizeof(size_t));
    cdyn__free_array(a, rx->s_start, rx->cap_s_start, sizeof(size_t));
    cdyn__free_array(a, rx->d_start, rx->cap_d_start, sizeof(size_t));
    cdyn__free_array(a, rx->r_species, rx->cap_r_species, sizeof(size_t));
    cdyn__free_array(a, rx->r_coeff, rx->cap_r_coeff, sizeof(int));
    cdyn__free_array(a, rx->p_species, rx->cap_p_species, sizeof(size_t));
    cdyn__free_array(a, rx->p_coeff, rx->cap_p_coeff, sizeof(int));
    cdyn__free_array(a, rx->s_species, rx->cap_s_species, sizeof(size_t));
    cdyn__free_array(a, rx->s_coeff, rx->cap_s_coeff, sizeof(int));
    cdyn__free_array(a, rx->d_species, rx->cap_d_species, sizeof(size_t));
    memset(rx, 0, sizeof *rx);
}
