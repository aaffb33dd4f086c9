/* Rows of pair.h: pair lists and sets, radii, contacts. */
#include "matrix.h"

static cdyn_status w_force_get_pair_contacts_count(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_force_get_pair_contacts(a[0].w, a[1].h, NULL, 0, a[2].w);
}

static cdyn_status w_force_get_pair_exclude_bonded(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_force_get_pair_exclude_bonded(a[0].w, a[1].h, a[2].w);
}

W(pair_params_init, a[0].w, a[1].i)
W(force_set_pair_skin, a[0].w, a[1].h, a[2].d)
W(force_get_pair_skin, a[0].w, a[1].h, a[2].w)
W(force_set_pair_exclude_bonded, a[0].w, a[1].h, a[2].i)
W(force_add_pair_exclusions, a[0].w, a[1].h, a[2].w, a[3].z)
W(force_clear_pair_exclusions, a[0].w, a[1].h)
W(force_get_pair_stats, a[0].w, a[1].h, a[2].w)
W(force_add_pairs, a[0].w, a[1].w, a[2].w, a[3].z, a[4].w)
W(force_add_pair_set, a[0].w, a[1].w, a[2].w, a[3].z, a[4].w)
W(force_set_pair_radius, a[0].w, a[1].h, a[2].h, a[3].d)
W(force_get_pair_radius, a[0].w, a[1].h, a[2].h, a[3].w)
W(force_get_pair_contacts, a[0].w, a[1].h, a[2].w, a[3].z, a[4].w)

static const mx_row rows[] = {
    ROW(pair_params_init, 0, {OUT}, {ENUM(1, 5)}),
    ROW(force_add_pairs, 0, {SYS}, {SETS(S_PAIR_HERTZ)}, {HLIST(L_PAIRS)},
        {RANGE(1, N_2_30, N_PAIRS)}, {OUT}),
    ROWN(force_add_pairs, wca, 0, {SYS}, {SETS(S_PAIR_WCA)}, {HLIST(L_PAIRS)},
         {RANGE(1, N_2_30, N_PAIRS)}, {OUT}),
    ROW(force_add_pair_set, 0, {SYS}, {SETS(S_PAIR_HERTZ)}, {HLIST(L_SET)},
        {RANGE(1, N_2_30, N_SET)}, {OUT}),
    ROWN(force_add_pair_set, wca, 0, {SYS}, {SETS(S_PAIR_WCA)}, {HLIST(L_SET)},
         {RANGE(1, N_2_30, N_SET)}, {OUT}),
    ROWN(force_add_pair_set, lj, 0, {SYS}, {SETS(S_PAIR_LJ)}, {HLIST(L_SET)},
         {RANGE(1, N_2_30, N_SET)}, {OUT}),
    ROWN(force_add_pair_set, table, 0, {SYS}, {SETS(S_PAIR_TABLE)}, {HLIST(L_SET)},
         {RANGE(1, N_2_30, N_SET)}, {OUT}),
    ROWN(force_add_pair_set, callback, 0, {SYS}, {SETS(S_PAIR_CB)}, {HLIST(L_SET)},
         {RANGE(1, N_2_30, N_SET)}, {OUT}),
    ROWN(force_add_pairs, table, 0, {SYS}, {SETS(S_PAIR_TABLE)}, {HLIST(L_PAIRS)},
         {RANGE(1, N_2_30, N_PAIRS)}, {OUT}),
    ROW(force_set_pair_skin, 0, {SYS}, {FORCE(F_PAIRSET), ALT(F_PAIRS, INVALID)}, {NONNEG(0.1)}),
    ROW(force_get_pair_skin, MX_Q, {SYS}, {FORCE(F_PAIRSET), ALT(F_PAIRS, INVALID)}, {OUT}),
    ROW(force_set_pair_exclude_bonded, 0, {SYS}, {FORCE(F_PAIRSET), ALT(F_PAIRS, INVALID)},
        {ENUM(0, 2)}),
    ROW(force_get_pair_exclude_bonded, MX_Q, {SYS}, {FORCE(F_PAIRSET), ALT(F_PAIRS, INVALID)},
        {OUT}),
    ROW(force_add_pair_exclusions, 0, {SYS}, {FORCE(F_PAIRSET), ALT(F_PAIRS, INVALID)},
        {HLIST(L_EXCL), ALT(P_FREE, INVALID)}, {RANGE(0, N_2_30, N_ONE)}),
    ROW(force_clear_pair_exclusions, 0, {SYS}, {FORCE(F_PAIRSET), ALT(F_PAIRS, INVALID)}),
    ROW(force_get_pair_stats, MX_Q, {SYS}, {FORCE(F_PAIRSET), ALT(F_PAIRS, INVALID)},
        {GETS(S_PAIR_STATS)}),
    ROW(force_set_pair_radius, 0, {SYS}, {FORCE(F_PAIRSET), ALT(F_GRAVITY, INVALID)},
        {PART(P_PAIR0), ALT(P_FREE, INVALID)}, {POS(0.4)}),
    ROWN(force_set_pair_radius, list, 0, {SYS}, {FORCE(F_PAIRS)}, {PART(P_PAIR1)}, {POS(0.4)}),
    ROW(force_get_pair_radius, MX_Q, {SYS}, {FORCE(F_PAIRSET), ALT(F_GRAVITY, INVALID)},
        {PART(P_PAIR0), ALT(P_FREE, INVALID)}, {OUT}),
    ROW(force_get_pair_contacts, MX_Q, {SYS}, {FORCE(F_PAIRS), ALT(F_GRAVITY, INVALID)}, {OUT},
        {CAP_ANY(N_CONTACTS)}, {OUT}),
    ROWV(force_get_pair_contacts, count, MX_Q, {SYS}, {FORCE(F_PAIRSET)}, {OUT}),
};

const mx_table mx_rows_pair = {"pair.h", rows, sizeof rows / sizeof *rows};
