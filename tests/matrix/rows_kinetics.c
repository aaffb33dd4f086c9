/* Rows of kinetics.h: reaction networks, their species, reactions, state,
 * rates, moieties, options and integration. */
#include <stdint.h>
#include <string.h>

#include "matrix.h"

static cdyn_status created(mx_ctx *c, cdyn_status st, cdyn_kinetics **out)
{
    if (!out)
        return st;
    if (st == CDYN_OK)
        cdyn_kinetics_destroy(*out);
    else if (*out != NULL)
        mx_broken(c, "*out is not NULL after a failure");
    return st;
}

static cdyn_status w_kinetics_create(mx_ctx *c, mx_val *a)
{
    cdyn_kinetics **out = a[0].w;
    if (out)
        *out = (cdyn_kinetics *)(uintptr_t)8;
    return created(c, cdyn_kinetics_create(out), out);
}

static cdyn_status w_kinetics_create_with_allocator(mx_ctx *c, mx_val *a)
{
    cdyn_kinetics **out = a[1].w;
    if (out)
        *out = (cdyn_kinetics *)(uintptr_t)8;
    return created(c, cdyn_kinetics_create_with_allocator(a[0].w, out), out);
}

static cdyn_status w_kinetics_destroy(mx_ctx *c, mx_val *a)
{
    (void)c;
    cdyn_kinetics *k = NULL;
    if (a[0].w && cdyn_kinetics_create(&k) != CDYN_OK)
        return CDYN_ERR_NO_MEMORY;
    cdyn_kinetics_destroy(k);
    return CDYN_OK;
}

static cdyn_status w_kinetics_last_error(mx_ctx *c, mx_val *a)
{
    const char *m = cdyn_kinetics_last_error(a[0].w);
    if (!m)
        mx_broken(c, "NULL message");
    return a[0].w ? CDYN_OK : CDYN_ERR_INVALID_ARGUMENT;
}

static cdyn_status w_kinetics_add_rate_law(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_kinetics_add_rate_law(a[0].w, a[1].z, a[2].w, a[3].w, a[4].z, a[5].w, a[6].w,
                                      a[7].z, a[8].w, (cdyn_kinetics_rate_fn)a[9].fp,
                                      (cdyn_kinetics_rate_jacobian_fn)a[10].fp, a[11].w, a[12].w);
}

static cdyn_status w_kinetics_options_init(mx_ctx *c, mx_val *a)
{
    cdyn_kinetics_options_init(a[0].w);
    if (a[0].w && ((cdyn_kinetics_options *)a[0].w)->size != sizeof(cdyn_kinetics_options))
        mx_broken(c, "size not set");
    return CDYN_OK;
}

W(kinetics_add_species, a[0].w, a[1].w, a[2].d, a[3].w)
W(kinetics_find_species, a[0].w, a[1].w, a[2].w)
W(kinetics_get_species_name, a[0].w, a[1].z, a[2].w)
W(kinetics_get_species_count, a[0].w, a[1].w)
W(kinetics_add_reaction, a[0].w, a[1].z, a[2].w, a[3].w, a[4].z, a[5].w, a[6].w, a[7].d, a[8].w)
W(kinetics_add_reversible_reaction, a[0].w, a[1].z, a[2].w, a[3].w, a[4].z, a[5].w, a[6].w,
  a[7].d, a[8].d, a[9].w)
W(kinetics_get_reaction_count, a[0].w, a[1].w)
W(kinetics_set_rate_constant, a[0].w, a[1].z, a[2].d)
W(kinetics_get_rate_constant, a[0].w, a[1].z, a[2].w)
W(kinetics_get_stoichiometry_size, a[0].w, a[1].w)
W(kinetics_get_stoichiometry, a[0].w, a[1].w, a[2].w, a[3].w, a[4].z)
W(kinetics_get_concentrations, a[0].w, a[1].w, a[2].z)
W(kinetics_set_concentrations, a[0].w, a[1].w, a[2].z)
W(kinetics_get_time, a[0].w, a[1].w)
W(kinetics_set_time, a[0].w, a[1].d)
W(kinetics_get_reaction_rates, a[0].w, a[1].w, a[2].z)
W(kinetics_get_species_rates, a[0].w, a[1].w, a[2].z)
W(kinetics_get_moiety_count, a[0].w, a[1].w)
W(kinetics_get_moieties, a[0].w, a[1].w, a[2].z)
W(kinetics_get_moiety_totals, a[0].w, a[1].w, a[2].z)
W(kinetics_set_options, a[0].w, a[1].w)
W(kinetics_get_options, a[0].w, a[1].w)
W(kinetics_set_absolute_tolerances, a[0].w, a[1].w, a[2].z)
W(kinetics_integrate, a[0].w, a[1].d, a[2].w, a[3].z, a[4].w, a[5].z)
W(kinetics_get_stats, a[0].w, a[1].w)

/* The two sides of a new reaction, A + D -> C. */
#define SIDES {CONST_Z(N_TWO)}, {KLIST(K_REACTANTS)}, {KCOEF}, {CONST_Z(N_ONE)}, \
              {KLIST(K_PRODUCTS)}, {KCOEF}

static const mx_row rows[] = {
    ROW(kinetics_create, 0, {OBJ_OUT}),
    ROW(kinetics_create_with_allocator, 0, {ALLOC}, {OBJ_OUT}),
    ROW(kinetics_destroy, 0, {USER}),
    ROW(kinetics_last_error, MX_Q | MX_NOMSG, {KIN}),
    ROW(kinetics_add_species, 0, {KIN}, {STR(STR_NEW)}, {NONNEG(0.5)}, {OPT}),
    ROW(kinetics_find_species, MX_Q, {KIN}, {STR(STR_KNOWN)}, {OUT}),
    ROW(kinetics_get_species_name, MX_Q, {KIN}, {INDEX(N_SPECIES)}, {OUT}),
    ROW(kinetics_get_species_count, MX_Q, {KIN}, {OUT}),
    ROW(kinetics_add_reaction, 0, {KIN}, SIDES, {POS(1)}, {OPT}),
    ROW(kinetics_add_reversible_reaction, 0, {KIN}, SIDES, {POS(1)}, {POS(2)}, {OPT}),
    ROW(kinetics_add_rate_law, 0, {KIN}, SIDES, {CONST_Z(N_ONE)}, {KLIST(K_DEPS)},
        {FN(FN_RATE)}, {FN_OPT(FN_RATE_JAC)}, {USER}, {OPT}),
    ROW(kinetics_get_reaction_count, MX_Q, {KIN}, {OUT}),
    ROW(kinetics_set_rate_constant, 0, {KIN}, {INDEX(N_REACTIONS), ALT(3, INVALID)}, {POS(1.5)}),
    ROW(kinetics_get_rate_constant, MX_Q, {KIN}, {INDEX(N_REACTIONS), ALT(3, INVALID)}, {OUT}),
    ROW(kinetics_get_stoichiometry_size, MX_Q, {KIN}, {OUT}),
    ROW(kinetics_get_stoichiometry, MX_Q, {KIN}, {OUT}, {OUT}, {OUT}, {CAP(N_STOICH)}),
    ROW(kinetics_get_concentrations, MX_Q, {KIN}, {OUT}, {CAP(N_SPECIES)}),
    ROW(kinetics_set_concentrations, 0, {KIN}, {BULK(V_CONC), NO(BIT(B_NEG))},
        {COUNT(N_SPECIES)}),
    ROW(kinetics_get_time, MX_Q, {KIN}, {OUT}),
    ROW(kinetics_set_time, 0, {KIN}, {FINITE(0.5)}),
    ROW(kinetics_get_reaction_rates, MX_KEEPS, {KIN}, {OUT}, {CAP(N_REACTIONS)}),
    ROW(kinetics_get_species_rates, MX_KEEPS, {KIN}, {OUT}, {CAP(N_SPECIES)}),
    ROW(kinetics_get_moiety_count, MX_KEEPS, {KIN}, {OUT}),
    ROW(kinetics_get_moieties, MX_KEEPS, {KIN}, {OUT}, {CAP(N_MOIETY_VALUES)}),
    ROW(kinetics_get_moiety_totals, MX_KEEPS, {KIN}, {OUT}, {CAP(N_MOIETIES)}),
    ROW(kinetics_options_init, 0, {OPT}),
    ROW(kinetics_set_options, 0, {KIN}, {SETS(S_KIN_OPTS)}),
    ROW(kinetics_get_options, MX_Q, {KIN}, {GETS(S_KIN_OPTS)}),
    ROW(kinetics_set_absolute_tolerances, 0, {KIN}, {BULK(V_ATOL), NO(BIT(B_NEG))},
        {COUNT(N_SPECIES)}),
    ROW(kinetics_integrate, MX_WRITES, {KIN},
        {FINITE(0.15), NO(BIT(B_ZERO) | BIT(B_NEG) | BIT(B_NHUGE)), SKIP(BIT(B_HUGE) | BIT(B_MAX))},
        {BULK(V_TIMES), NO(BIT(B_NEG) | BIT(B_HUGE))}, {CONST_Z(N_TWO)}, {OUT},
        {CAP(N_TIMES_OUT)}),
    ROW(kinetics_get_stats, MX_Q, {KIN}, {GETS(S_KIN_STATS)}),
};

const mx_table mx_rows_kinetics = {"kinetics.h", rows, sizeof rows / sizeof *rows};
