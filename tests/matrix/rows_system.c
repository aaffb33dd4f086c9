/* Rows of system.h and diagnostics.h: creation, the clock, integrators and
 * their options and reports, the step, bulk state, diagnostics. */
#include <stdint.h>
#include <string.h>

#include "matrix.h"

#define ALSO_STEP ((1u << CDYN_ERR_DIVERGED) | (1u << CDYN_ERR_NOT_CONVERGED) | \
                   (1u << CDYN_ERR_SINGULAR))

/* Creation: *out is NULL after a failure; a created system is destroyed. */
static cdyn_status created(mx_ctx *c, cdyn_status st, cdyn_system **out)
{
    if (!out)
        return st;
    if (st == CDYN_OK)
        cdyn_system_destroy(*out);
    else if (*out != NULL)
        mx_broken(c, "*out is not NULL after a failure");
    return st;
}

static cdyn_status w_system_create(mx_ctx *c, mx_val *a)
{
    cdyn_system **out = a[1].w;
    if (out)
        *out = (cdyn_system *)(uintptr_t)8;
    return created(c, cdyn_system_create(a[0].i, out), out);
}

static cdyn_status w_system_create_with_allocator(mx_ctx *c, mx_val *a)
{
    cdyn_system **out = a[2].w;
    if (out)
        *out = (cdyn_system *)(uintptr_t)8;
    return created(c, cdyn_system_create_with_allocator(a[0].i, a[1].w, out), out);
}

/* A system made here and destroyed, or NULL (a no-op). */
static cdyn_status w_system_destroy(mx_ctx *c, mx_val *a)
{
    (void)c;
    cdyn_system *sys = NULL;
    if (a[0].w && cdyn_system_create(3, &sys) != CDYN_OK)
        return CDYN_ERR_NO_MEMORY;
    cdyn_system_destroy(sys);
    return CDYN_OK;
}

static cdyn_status w_system_get_dimension(mx_ctx *c, mx_val *a)
{
    int d = cdyn_system_get_dimension(a[0].w);
    if (d != 0 && d != 3)
        mx_broken(c, "a dimension other than the system's");
    return d ? CDYN_OK : CDYN_ERR_INVALID_ARGUMENT;
}

static cdyn_status w_system_last_error(mx_ctx *c, mx_val *a)
{
    const char *m = cdyn_system_last_error(a[0].w);
    if (!m)
        mx_broken(c, "NULL message");
    else if (!a[0].w)
        return strcmp(m, "no system (NULL)") == 0 ? CDYN_ERR_INVALID_ARGUMENT : CDYN_OK;
    return CDYN_OK;
}

static cdyn_status w_rk45_options_init(mx_ctx *c, mx_val *a)
{
    cdyn_rk45_options_init(a[0].w);
    if (a[0].w && ((cdyn_rk45_options *)a[0].w)->size != sizeof(cdyn_rk45_options))
        mx_broken(c, "size not set");
    return CDYN_OK;
}

static cdyn_status w_newton_options_init(mx_ctx *c, mx_val *a)
{
    cdyn_newton_options_init(a[0].w);
    if (a[0].w && ((cdyn_newton_options *)a[0].w)->size != sizeof(cdyn_newton_options))
        mx_broken(c, "size not set");
    return CDYN_OK;
}

static cdyn_status w_system_get_newton_residuals_count(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_system_get_newton_residuals(a[0].w, NULL, 0, a[1].w);
}

W(system_get_time, a[0].w, a[1].w)
W(system_set_time, a[0].w, a[1].d)
W(system_set_integrator, a[0].w, a[1].i)
W(system_get_integrator, a[0].w, a[1].w)
W(system_set_rk45_options, a[0].w, a[1].w)
W(system_get_rk45_options, a[0].w, a[1].w)
W(system_get_rk45_stats, a[0].w, a[1].w)
W(system_set_newton_options, a[0].w, a[1].w)
W(system_get_newton_options, a[0].w, a[1].w)
W(system_get_newton_stats, a[0].w, a[1].w)
W(system_get_newton_residuals, a[0].w, a[1].w, a[2].z, a[3].w)
W(system_step, a[0].w, a[1].d)
W(system_get_particle_count, a[0].w, a[1].w)
W(system_get_index_count, a[0].w, a[1].w)
W(system_get_positions, a[0].w, a[1].w, a[2].z)
W(system_get_velocities, a[0].w, a[1].w, a[2].z)
W(system_set_positions, a[0].w, a[1].w, a[2].z)
W(system_set_velocities, a[0].w, a[1].w, a[2].z)
W(system_get_masses, a[0].w, a[1].w, a[2].z)
W(system_get_fixed, a[0].w, a[1].w, a[2].z)
W(system_get_kinetic_energy, a[0].w, a[1].w)
W(system_get_potential_energy, a[0].w, a[1].w)
W(system_get_momentum, a[0].w, a[1].w)
W(system_get_angular_momentum, a[0].w, a[1].w)
W(system_get_drive_work, a[0].w, a[1].w)
W(system_get_center_of_mass, a[0].w, a[1].w, a[2].w)
W(system_get_degrees_of_freedom, a[0].w, a[1].w)
W(system_get_temperature, a[0].w, a[1].w)
W(system_get_pressure, a[0].w, a[1].w)

static const mx_row rows[] = {
    ROW(system_create, 0, {ENUM(2, 3)}, {OBJ_OUT}),
    ROW(system_create_with_allocator, 0, {ENUM(2, 3)}, {ALLOC}, {OBJ_OUT}),
    ROW(system_destroy, 0, {USER}),
    ROW(system_get_dimension, MX_Q, {SYS}),
    ROW(system_last_error, MX_Q | MX_NOMSG, {SYS}),
    ROW(system_get_time, MX_Q, {SYS}, {OUT}),
    ROW(system_set_time, 0, {SYS}, {FINITE(0.5)}),
    ROW(system_set_integrator, 0, {SYS}, {ENUM(1, 7)}),
    ROW(system_get_integrator, MX_Q, {SYS}, {OUT}),
    ROW(rk45_options_init, 0, {OPT}),
    ROW(system_set_rk45_options, 0, {SYS}, {SETS(S_RK45)}),
    ROW(system_get_rk45_options, MX_Q, {SYS}, {GETS(S_RK45)}),
    ROW(system_get_rk45_stats, MX_Q, {SYS}, {GETS(S_RK45_STATS)}),
    ROW(newton_options_init, 0, {OPT}),
    ROW(system_set_newton_options, 0, {SYS}, {SETS(S_NEWTON)}),
    ROW(system_get_newton_options, MX_Q, {SYS}, {GETS(S_NEWTON)}),
    ROW(system_get_newton_stats, MX_Q, {SYS}, {GETS(S_NEWTON_STATS)}),
    ROW(system_get_newton_residuals, MX_Q, {SYS}, {OUT}, {CAP_ANY(N_NEWTON)}, {OUT}),
    ROWV(system_get_newton_residuals, count, MX_Q, {SYS}, {OUT}),
    {.name = "cdyn_system_step", .call = w_system_step, .also = ALSO_STEP, .note = "",
     .args = {{SYS}, {POS(1e-3)}}},
    ROW(system_get_particle_count, MX_Q, {SYS}, {OUT}),
    ROW(system_get_index_count, MX_Q, {SYS}, {OUT}),
    ROW(system_get_positions, MX_Q, {SYS}, {OUT}, {CAP(N_XD)}),
    ROW(system_get_velocities, MX_Q, {SYS}, {OUT}, {CAP(N_XD)}),
    ROW(system_set_positions, 0, {SYS}, {BULK(V_ALL_X), MAY(BIT(B_HUGE))}, {COUNT(N_XD)}),
    ROW(system_set_velocities, 0, {SYS}, {BULK(V_ALL_V)}, {COUNT(N_XD)}),
    ROW(system_get_masses, MX_Q, {SYS}, {OUT}, {CAP(N_IDX)}),
    ROW(system_get_fixed, MX_Q, {SYS}, {OUT}, {CAP(N_IDX)}),
    ROW(system_get_kinetic_energy, MX_Q, {SYS}, {OUT}),
    ROW(system_get_potential_energy, MX_Q, {SYS}, {OUT}),
    ROW(system_get_momentum, MX_Q, {SYS}, {OUT}),
    ROW(system_get_angular_momentum, MX_Q, {SYS}, {OUT}),
    ROW(system_get_drive_work, MX_Q, {SYS}, {OUT}),
    ROW(system_get_center_of_mass, MX_Q, {SYS}, {OUT}, {OPT}),
    ROW(system_get_degrees_of_freedom, MX_Q, {SYS}, {OUT}),
    ROW(system_get_temperature, MX_Q, {SYS}, {OUT}),
    ROW(system_get_pressure, MX_Q, {SYS}, {OUT}),
};

const mx_table mx_rows_system = {"system.h, diagnostics.h", rows, sizeof rows / sizeof *rows};
