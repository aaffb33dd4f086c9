/* Rows of lattice.h: the erosion lattice, its parameters, heights, rain,
 * drainage, terrain, snapshots, ESRI grids and statistics. */
#include <stdint.h>
#include <string.h>

#include "matrix.h"

/* Creation and loading: *out NULL after a failure; a made lattice is
 * destroyed. */
static cdyn_status made(mx_ctx *c, cdyn_status st, cdyn_lattice **out)
{
    if (!out)
        return st;
    if (st == CDYN_OK)
        cdyn_lattice_destroy(*out);
    else if (*out != NULL)
        mx_broken(c, "*out is not NULL after a failure");
    return st;
}

static cdyn_lattice **preset(void *p)
{
    cdyn_lattice **out = p;
    if (out)
        *out = (cdyn_lattice *)(uintptr_t)8;
    return out;
}

static cdyn_status w_lattice_create(mx_ctx *c, mx_val *a)
{
    cdyn_lattice **out = preset(a[4].w);
    return made(c, cdyn_lattice_create(a[0].z, a[1].z, a[2].h, a[3].w, out), out);
}

static cdyn_status w_lattice_load(mx_ctx *c, mx_val *a)
{
    cdyn_lattice **out = preset(a[3].w);
    return made(c, cdyn_lattice_load(a[0].w, a[1].z, a[2].w, out), out);
}

/* The error text of the readers names them, like the messages. */
static void error_names(mx_ctx *c, cdyn_status st, const char *error, size_t cap)
{
    const char *fn = "cdyn_lattice_read_asc";
    if (st != CDYN_OK && error && cap > strlen(fn) + 2 && strncmp(error, fn, strlen(fn)) != 0)
        mx_broken(c, "the error text does not name the reader");
}

static cdyn_status w_lattice_read_asc(mx_ctx *c, mx_val *a)
{
    cdyn_lattice **out = preset(a[3].w);
    cdyn_status st = cdyn_lattice_read_asc(a[0].w, a[1].z, a[2].w, out, a[4].w, a[5].z);
    error_names(c, st, a[4].w, a[5].z);
    return made(c, st, out);
}

static cdyn_status w_lattice_read_asc_file(mx_ctx *c, mx_val *a)
{
    cdyn_lattice **out = preset(a[2].w);
    cdyn_status st = cdyn_lattice_read_asc_file(a[0].w, a[1].w, out, a[3].w, a[4].z);
    error_names(c, st, a[3].w, a[4].z);
    return made(c, st, out);
}

static cdyn_status w_lattice_destroy(mx_ctx *c, mx_val *a)
{
    (void)c;
    cdyn_lattice *lat = NULL;
    if (a[0].w && cdyn_lattice_create(3, 3, 1, NULL, &lat) != CDYN_OK)
        return CDYN_ERR_NO_MEMORY;
    cdyn_lattice_destroy(lat);
    return CDYN_OK;
}

static cdyn_status w_lattice_last_error(mx_ctx *c, mx_val *a)
{
    const char *m = cdyn_lattice_last_error(a[0].w);
    if (!m)
        mx_broken(c, "NULL message");
    return a[0].w ? CDYN_OK : CDYN_ERR_INVALID_ARGUMENT;
}

static cdyn_status w_lattice_stats_options_init(mx_ctx *c, mx_val *a)
{
    cdyn_lattice_stats_options_init(a[0].w);
    if (a[0].w && ((cdyn_lattice_stats_options *)a[0].w)->size !=
                      sizeof(cdyn_lattice_stats_options))
        mx_broken(c, "size not set");
    return CDYN_OK;
}

static cdyn_status w_lattice_set_outlet_edges(mx_ctx *c, mx_val *a)
{
    (void)c;
    return cdyn_lattice_set_outlet_edges(a[0].w, (uint32_t)a[1].i);
}

W(lattice_get_size, a[0].w, a[1].w, a[2].w)
W(lattice_set_param, a[0].w, a[1].i, a[2].d)
W(lattice_get_param, a[0].w, a[1].i, a[2].w)
W(lattice_set_slide_rule, a[0].w, a[1].i)
W(lattice_get_slide_rule, a[0].w, a[1].w)
W(lattice_set_walk_cap, a[0].w, a[1].h)
W(lattice_get_walk_cap, a[0].w, a[1].w)
W(lattice_set_boundary, a[0].w, a[1].i)
W(lattice_get_boundary, a[0].w, a[1].w)
W(lattice_reseed, a[0].w, a[1].h)
W(lattice_init_tilted, a[0].w, a[1].d, a[2].d)
W(lattice_set_heights, a[0].w, a[1].w, a[2].z)
W(lattice_get_heights, a[0].w, a[1].w, a[2].z)
W(lattice_rain, a[0].w, a[1].h)
W(lattice_rain_at, a[0].w, a[1].z, a[2].z, a[3].h)
W(lattice_get_counters, a[0].w, a[1].w)
W(lattice_snapshot_size, a[0].w, a[1].w)
W(lattice_save, a[0].w, a[1].w, a[2].z, a[3].w)
W(lattice_compute_drainage, a[0].w, a[1].w, a[2].z)
W(lattice_compute_receivers, a[0].w, a[1].w, a[2].z)
W(lattice_compute_network, a[0].w, a[1].w, a[2].z)
W(lattice_set_routing, a[0].w, a[1].i)
W(lattice_get_routing, a[0].w, a[1].w)
W(lattice_set_cell_size, a[0].w, a[1].d, a[2].d)
W(lattice_get_cell_size, a[0].w, a[1].w, a[2].w)
W(lattice_set_origin, a[0].w, a[1].d, a[2].d)
W(lattice_get_origin, a[0].w, a[1].w, a[2].w)
W(lattice_get_outlet_edges, a[0].w, a[1].w)
W(lattice_set_outlet_mask, a[0].w, a[1].w, a[2].z)
W(lattice_get_outlet_mask, a[0].w, a[1].w, a[2].z)
W(lattice_set_nodata_mask, a[0].w, a[1].w, a[2].z)
W(lattice_get_nodata_mask, a[0].w, a[1].w, a[2].z)
W(lattice_compute_drainage_area, a[0].w, a[1].w, a[2].z)
W(lattice_asc_size, a[0].w, a[1].i, a[2].w)
W(lattice_write_asc, a[0].w, a[1].i, a[2].w, a[3].z, a[4].w)
W(lattice_write_asc_file, a[0].w, a[1].i, a[2].w)
W(lattice_compute_stats, a[0].w, a[1].w, a[2].w)
W(lattice_stats_from_receivers, a[0].z, a[1].w, a[2].w, a[3].w, a[4].w)
W(lattice_drainage_from_receivers, a[0].z, a[1].w, a[2].w, a[3].w)

#define NOTBIG (BIT(B_HUGE) | BIT(B_MAX))
#define STATS_OPTS DESC(S_LAT_STATS_OPTS), OK(BIT(B_NULL) | BIT(B_SZ_MORE) | BIT(B_SZ_HUGE))
#define STATS_OUT GETS(S_LAT_STATS), NO(BIT(B_SZ_MIN) | BIT(B_SZ_LESS))
#define SEED U64(0, N_ONE, N_ONE), SKIP(BIT(B_Z_ABOVE)), OK(BIT(B_CAP_HUGE))

static const mx_row rows[] = {
    ROW(lattice_create, 0, {RANGE(2, N_U32MAX, N_LAT_W), SKIP(BIT(B_Z_ABOVE))},
        {RANGE(2, N_U32MAX, N_LAT_H), SKIP(BIT(B_Z_ABOVE))}, {SEED}, {ALLOC}, {OBJ_OUT}),
    ROW(lattice_destroy, 0, {USER}),
    ROW(lattice_last_error, MX_Q | MX_NOMSG, {LAT}),
    ROW(lattice_get_size, MX_Q, {LAT}, {OPT}, {OPT}),
    ROW(lattice_set_param, 0, {LAT}, {ENUM(0, 4)}, {FINITE(1.5)}),
    ROWN(lattice_set_param, D, 0, {LAT}, {CONST_I(1)}, {NONNEG(0.02), NO(NOTBIG)}),
    ROWN(lattice_set_param, M, 0, {LAT}, {CONST_I(2)}, {NONNEG(1), OK(BIT(B_INF))}),
    ROWN(lattice_set_param, S, 0, {LAT}, {CONST_I(3)}, {POS(3), NO(BIT(B_TINY) | NOTBIG)}),
    ROWN(lattice_set_param, R, 0, {LAT}, {CONST_I(4)}, {POS(50), NO(BIT(B_TINY))}),
    ROW(lattice_get_param, MX_Q, {LAT}, {ENUM(0, 4)}, {OUT}),
    ROW(lattice_set_slide_rule, 0, {LAT}, {ENUM(0, 1)}),
    ROW(lattice_get_slide_rule, MX_Q, {LAT}, {OUT}),
    ROW(lattice_set_walk_cap, 0, {LAT}, {U64(1, N_WALK, N_64)}),
    ROW(lattice_get_walk_cap, MX_Q, {LAT}, {OUT}),
    ROW(lattice_set_boundary, 0, {LAT}, {ENUM(0, 1)}),
    ROW(lattice_get_boundary, MX_Q, {LAT}, {OUT}),
    ROW(lattice_reseed, 0, {LAT}, {SEED}),
    ROW(lattice_init_tilted, 0, {LAT}, {NONNEG(0.5), NO(NOTBIG)}, {NONNEG(1), NO(NOTBIG)}),
    ROW(lattice_set_heights, 0, {LAT}, {BULK(V_HEIGHTS), NO(BIT(B_HUGE))}, {COUNT(N_LAT)}),
    ROW(lattice_get_heights, MX_Q, {LAT}, {OUT}, {CAP(N_LAT)}),
    ROW(lattice_rain, 0, {LAT}, {U64(0, N_TWO, N_TWO), SKIP(~0ull)}),
    ROW(lattice_rain_at, 0, {LAT}, {INDEX(N_LAT_W), .base = 4}, {INDEX(N_LAT_H), .base = 3},
        {U64(0, N_TWO, N_TWO), SKIP(~0ull)}),
    ROW(lattice_get_counters, MX_Q, {LAT}, {GETS(S_LAT_COUNTERS), NO(BIT(B_SZ_MIN))}),
    ROW(lattice_snapshot_size, MX_Q, {LAT}, {OUT}),
    ROW(lattice_save, MX_Q, {LAT}, {OUT}, {CAP(N_SNAP)}, {OPT}),
    ROW(lattice_load, 0, {BYTES(BYTES_SNAPSHOT)},
        {COUNT(N_SNAP), ST(CDYN_ERR_FORMAT), SKIP(BIT(B_CAP_HUGE))}, {ALLOC}, {OBJ_OUT}),
    ROW(lattice_compute_drainage, MX_KEEPS, {LAT}, {OPT}, {CAP(N_LAT)}),
    ROW(lattice_compute_receivers, MX_KEEPS, {LAT}, {OUT}, {CAP(N_LAT)}),
    ROW(lattice_compute_network, MX_KEEPS, {LAT}, {OUT}, {CAP(N_LAT)}),
    ROW(lattice_set_routing, 0, {LAT}, {ENUM(0, 1)}),
    ROW(lattice_get_routing, MX_Q, {LAT}, {OUT}),
    ROW(lattice_set_cell_size, 0, {LAT}, {POS(2), NO(BIT(B_TINY) | NOTBIG)},
        {POS(3), NO(BIT(B_TINY) | NOTBIG)}),
    ROW(lattice_get_cell_size, MX_Q, {LAT}, {OPT}, {OPT}),
    ROW(lattice_set_origin, 0, {LAT}, {FINITE(1)}, {FINITE(2)}),
    ROW(lattice_get_origin, MX_Q, {LAT}, {OPT}, {OPT}),
    ROW(lattice_set_outlet_edges, 0, {LAT}, {ENUM(0, 31)}),
    ROW(lattice_get_outlet_edges, MX_Q, {LAT}, {OUT}),
    ROW(lattice_set_outlet_mask, 0, {LAT}, {BYTES(BYTES_MASK), OK(BIT(B_NULL) | BIT(B_GARBAGE))},
        {COUNT(N_LAT)}),
    ROW(lattice_get_outlet_mask, MX_Q, {LAT}, {OUT}, {CAP(N_LAT)}),
    ROW(lattice_set_nodata_mask, 0, {LAT}, {BYTES(BYTES_MASK), OK(BIT(B_NULL)), ST(INVALID)}, {COUNT(N_LAT)}),
    ROW(lattice_get_nodata_mask, MX_Q, {LAT}, {OUT}, {CAP(N_LAT)}),
    ROW(lattice_compute_drainage_area, MX_KEEPS, {LAT}, {OUT}, {CAP(N_LAT)}),
    ROW(lattice_read_asc, MX_WRITES, {BYTES(BYTES_ASC)},
        {COUNT(N_TEXT), ST(CDYN_ERR_FORMAT), SKIP(BIT(B_CNT_MORE) | BIT(B_CAP_HUGE))}, {ALLOC},
        {OBJ_OUT}, {OPT}, {CAP_ANY(N_ERRBUF)}),
    ROW(lattice_read_asc_file, MX_WRITES, {PATH(PATH_READ)}, {ALLOC}, {OBJ_OUT}, {OPT},
        {CAP_ANY(N_ERRBUF)}),
    ROW(lattice_asc_size, MX_KEEPS, {LAT}, {ENUM(0, 2)}, {OUT}),
    ROW(lattice_write_asc, MX_KEEPS, {LAT}, {ENUM(0, 2)}, {OUT}, {CAP(N_ASC)}, {OPT}),
    ROW(lattice_write_asc_file, MX_KEEPS, {LAT}, {ENUM(0, 2)}, {PATH(PATH_WRITE)}),
    ROW(lattice_stats_options_init, 0, {OPT}),
    ROW(lattice_compute_stats, MX_KEEPS, {LAT}, {STATS_OPTS}, {STATS_OUT}),
    ROW(lattice_stats_from_receivers, 0,
        {RANGE(1, N_U32MAX, N_SITES), SKIP(BIT(B_Z_ABOVE))}, {BYTES(BYTES_RECEIVERS), ST(INVALID)}, {ALLOC},
        {STATS_OPTS}, {STATS_OUT}),
    ROW(lattice_drainage_from_receivers, MX_WRITES,
        {RANGE(1, N_U32MAX, N_SITES), SKIP(BIT(B_Z_ABOVE))}, {BYTES(BYTES_RECEIVERS), ST(INVALID)}, {ALLOC},
        {OUT}),
};

const mx_table mx_rows_lattice = {"lattice.h", rows, sizeof rows / sizeof *rows};
