/* Rows of pair.h: pair lists and sets, radii, contacts. */
#include "matrix.h"

static cdyn_status w_force_get_pair_contacts_count(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_force_get_pair_contacts(a[0].w, a[1].h, NULL, 0, a[2].w);
}

W(pair_params_init, a[0].w, a[1].i)
W(force_add_pairs, a[0].w, a[1].w, a[2].w, a[3].z, a[4].w)
W(force_add_pair_set, a[0].w, a[1].w, a[2].w, a[3].z, a[4].w)
W(force_set_pair_radius, a[0].w, a[1].h, a[2].h, a[3].d)
W(force_get_pair_radius, a[0].w, a[1].h, a[2].h, a[3].w)
W(force_get_pair_contacts, a[0].w, a[1].h, a[2].w, a[3].z, a[4].w)

static const mx_row rows[] = {
    ROW(pair_params_init, 0, {OUT}, {ENUM(1, 2)}),
    ROW(force_add_pairs, 0, {SYS}, {SETS(S_PAIR_HERTZ)}, {HLIST(L_PAIRS)},
        {RANGE(1, N_2_30, N_PAIRS)}, {OUT}),
    ROWN(force_add_pairs, wca, 0, {SYS}, {SETS(S_PAIR_WCA)}, {HLIST(L_PAIRS)},
         {RANGE(1, N_2_30, N_PAIRS)}, {OUT}),
    ROW(force_add_pair_set, 0, {SYS}, {SETS(S_PAIR_HERTZ)}, {HLIST(L_SET)},
        {RANGE(1, N_2_30, N_SET)}, {OUT}),
    ROWN(force_add_pair_set, wca, 0, {SYS}, {SETS(S_PAIR_WCA)}, {HLIST(L_SET)},
         {RANGE(1, N_2_30, N_SET)}, {OUT}),
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
