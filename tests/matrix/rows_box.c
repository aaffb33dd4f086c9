/* Rows of box.h and thermostat.h: the periodic box, unwrapped positions
 * and image counters, the Langevin thermostat's options. */
#include "matrix.h"

static cdyn_status w_langevin_options_init(mx_ctx *c, mx_val *a)
{
    cdyn_langevin_options_init(a[0].w);
    if (a[0].w && ((cdyn_langevin_options *)a[0].w)->size != sizeof(cdyn_langevin_options))
        mx_broken(c, "size not set");
    return CDYN_OK;
}

W(system_set_box, a[0].w, a[1].w, a[2].w, a[3].w)
W(system_clear_box, a[0].w)
W(system_get_box, a[0].w, a[1].w, a[2].w, a[3].w, a[4].w)
W(system_get_unwrapped_positions, a[0].w, a[1].w, a[2].z)
W(particle_get_unwrapped_position, a[0].w, a[1].h, a[2].w)
W(particle_get_image, a[0].w, a[1].h, a[2].w)
W(system_set_langevin_options, a[0].w, a[1].w)
W(system_get_langevin_options, a[0].w, a[1].w)

static const mx_row rows[] = {
    ROW(system_set_box, 0, {SYS}, {VEC(V_BOX_ORIGIN), MAY(BIT(B_HUGE))},
        {VEC_NZ(V_BOX_LENGTHS), MAY(BIT(B_HUGE))},
        {BYTES(BYTES_PERIODIC)}),
    ROW(system_clear_box, 0, {SYS}),
    ROW(system_get_box, MX_Q, {SYS}, {OPT}, {OPT}, {OPT}, {OUT}),
    ROW(system_get_unwrapped_positions, MX_Q, {SYS}, {OUT}, {CAP(N_XD)}),
    ROW(particle_get_unwrapped_position, MX_Q, {SYS}, {PART(P_FREE)}, {OUT}),
    ROW(particle_get_image, MX_Q, {SYS}, {PART(P_FREE)}, {OUT}),
    ROW(langevin_options_init, 0, {OPT}),
    ROW(system_set_langevin_options, 0, {SYS}, {SETS(S_LANGEVIN)}),
    ROW(system_get_langevin_options, MX_Q, {SYS}, {GETS(S_LANGEVIN)}),
};

const mx_table mx_rows_box = {"box.h, thermostat.h", rows, sizeof rows / sizeof *rows};
