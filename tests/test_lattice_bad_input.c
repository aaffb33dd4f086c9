/* Refused input on every lattice function: the status, a message that
 * names the function and the problem, and nothing changed (the lattice's
 * whole state, as its snapshot bytes, and its drainage are the same before
 * and after). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

enum { W = 9, H = 7, N = W * H };

/* Every way the tested calls can go wrong, each a function of the lattice. */
typedef struct bad_case {
    const char *fn;         /* the public function the message must name */
    const char *what;       /* a word the message must contain ("" for any) */
    cdyn_status want;
    cdyn_status (*call)(cdyn_lattice *lat);
} bad_case;

static double buf_d[N + 1];
static uint32_t buf_u[N + 1];
static uint8_t buf_b[N + 1];
static unsigned char snap[400 + 9 * N];

static cdyn_status set_param_unknown(cdyn_lattice *l) { return cdyn_lattice_set_param(l, (cdyn_lattice_param)77, 1); }
static cdyn_status set_param_nan(cdyn_lattice *l) { return cdyn_lattice_set_param(l, CDYN_LATTICE_E, NAN); }
static cdyn_status set_param_big_d(cdyn_lattice *l) { return cdyn_lattice_set_param(l, CDYN_LATTICE_D, 1e300); }
static cdyn_status set_param_big_s(cdyn_lattice *l) { return cdyn_lattice_set_param(l, CDYN_LATTICE_S, 1e300); }
static cdyn_status get_param_unknown(cdyn_lattice *l) { double v; return cdyn_lattice_get_param(l, (cdyn_lattice_param)77, &v); }
static cdyn_status get_param_null(cdyn_lattice *l) { return cdyn_lattice_get_param(l, CDYN_LATTICE_E, NULL); }
static cdyn_status set_slide_rule_unknown(cdyn_lattice *l) { return cdyn_lattice_set_slide_rule(l, (cdyn_lattice_slide_rule)2); }
static cdyn_status get_slide_rule_null(cdyn_lattice *l) { return cdyn_lattice_get_slide_rule(l, NULL); }
static cdyn_status set_walk_cap_zero(cdyn_lattice *l) { return cdyn_lattice_set_walk_cap(l, 0); }
static cdyn_status set_walk_cap_huge(cdyn_lattice *l) { return cdyn_lattice_set_walk_cap(l, UINT64_MAX); }
static cdyn_status get_walk_cap_null(cdyn_lattice *l) { return cdyn_lattice_get_walk_cap(l, NULL); }
static cdyn_status set_boundary_unknown(cdyn_lattice *l) { return cdyn_lattice_set_boundary(l, (cdyn_lattice_boundary)5); }
static cdyn_status get_boundary_null(cdyn_lattice *l) { return cdyn_lattice_get_boundary(l, NULL); }
static cdyn_status init_tilted_negative(cdyn_lattice *l) { return cdyn_lattice_init_tilted(l, -1, 0); }
static cdyn_status init_tilted_huge(cdyn_lattice *l) { return cdyn_lattice_init_tilted(l, 5e99, 0); }
static cdyn_status set_heights_null(cdyn_lattice *l) { return cdyn_lattice_set_heights(l, NULL, N); }
static cdyn_status set_heights_count(cdyn_lattice *l) { return cdyn_lattice_set_heights(l, buf_d, N + 1); }
static cdyn_status set_heights_range(cdyn_lattice *l)
{
    for (int i = 0; i < N; i++)
        buf_d[i] = i;
    buf_d[N / 2] = -1e101;
    return cdyn_lattice_set_heights(l, buf_d, N);
}
static cdyn_status get_heights_null(cdyn_lattice *l) { return cdyn_lattice_get_heights(l, NULL, N); }
static cdyn_status get_heights_short(cdyn_lattice *l) { return cdyn_lattice_get_heights(l, buf_d, N - 1); }
static cdyn_status rain_at_outside(cdyn_lattice *l) { return cdyn_lattice_rain_at(l, W, 0, 1); }
static cdyn_status get_counters_null(cdyn_lattice *l) { return cdyn_lattice_get_counters(l, NULL); }
static cdyn_status get_counters_size(cdyn_lattice *l)
{
    cdyn_lattice_counters c = {.size = offsetof(cdyn_lattice_counters, total_slid)};
    return cdyn_lattice_get_counters(l, &c);
}
static cdyn_status snapshot_size_null(cdyn_lattice *l) { return cdyn_lattice_snapshot_size(l, NULL); }
static cdyn_status save_null(cdyn_lattice *l) { return cdyn_lattice_save(l, NULL, sizeof snap, NULL); }
static cdyn_status save_short(cdyn_lattice *l) { return cdyn_lattice_save(l, snap, 100, NULL); }
static cdyn_status drainage_short(cdyn_lattice *l) { return cdyn_lattice_compute_drainage(l, buf_u, N - 1); }
static cdyn_status receivers_null(cdyn_lattice *l) { return cdyn_lattice_compute_receivers(l, NULL, N); }
static cdyn_status receivers_short(cdyn_lattice *l) { return cdyn_lattice_compute_receivers(l, buf_u, 3); }
static cdyn_status network_null(cdyn_lattice *l) { return cdyn_lattice_compute_network(l, NULL, N); }
static cdyn_status network_short(cdyn_lattice *l) { return cdyn_lattice_compute_network(l, buf_b, 0); }
static cdyn_status stats_null(cdyn_lattice *l) { return cdyn_lattice_compute_stats(l, NULL, NULL); }
static cdyn_status stats_size(cdyn_lattice *l)
{
    cdyn_lattice_stats st = {.size = 8};
    return cdyn_lattice_compute_stats(l, NULL, &st);
}
static cdyn_status stats_options(cdyn_lattice *l)
{
    cdyn_lattice_stats_options o;
    cdyn_lattice_stats_options_init(&o);
    o.points_per_decade = 0;
    cdyn_lattice_stats st = {.size = sizeof st};
    return cdyn_lattice_compute_stats(l, &o, &st);
}

static cdyn_status set_routing_unknown(cdyn_lattice *l) { return cdyn_lattice_set_routing(l, (cdyn_lattice_routing)2); }
static cdyn_status get_routing_null(cdyn_lattice *l) { return cdyn_lattice_get_routing(l, NULL); }
static cdyn_status set_cell_size_zero(cdyn_lattice *l) { return cdyn_lattice_set_cell_size(l, 0, 1); }
static cdyn_status set_cell_size_nan(cdyn_lattice *l) { return cdyn_lattice_set_cell_size(l, 1, NAN); }
static cdyn_status set_origin_inf(cdyn_lattice *l) { return cdyn_lattice_set_origin(l, INFINITY, 0); }
static cdyn_status set_edges_unknown(cdyn_lattice *l) { return cdyn_lattice_set_outlet_edges(l, 64); }
static cdyn_status get_edges_null(cdyn_lattice *l) { return cdyn_lattice_get_outlet_edges(l, NULL); }
static cdyn_status set_outlet_mask_count(cdyn_lattice *l) { return cdyn_lattice_set_outlet_mask(l, buf_b, N - 1); }
static cdyn_status get_outlet_mask_short(cdyn_lattice *l) { return cdyn_lattice_get_outlet_mask(l, buf_b, N - 1); }
static cdyn_status set_nodata_mask_all(cdyn_lattice *l)
{
    memset(buf_b, 1, N);
    return cdyn_lattice_set_nodata_mask(l, buf_b, N);
}
static cdyn_status get_nodata_mask_null(cdyn_lattice *l) { return cdyn_lattice_get_nodata_mask(l, NULL, N); }
static cdyn_status drainage_area_null(cdyn_lattice *l) { return cdyn_lattice_compute_drainage_area(l, NULL, N); }
static cdyn_status drainage_area_short(cdyn_lattice *l) { return cdyn_lattice_compute_drainage_area(l, buf_d, N - 1); }

static char text[8];
static cdyn_status asc_size_unknown(cdyn_lattice *l) { size_t z; return cdyn_lattice_asc_size(l, (cdyn_lattice_grid)9, &z); }
static cdyn_status asc_size_null(cdyn_lattice *l) { return cdyn_lattice_asc_size(l, CDYN_LATTICE_GRID_HEIGHTS, NULL); }
static cdyn_status write_asc_short(cdyn_lattice *l) { return cdyn_lattice_write_asc(l, CDYN_LATTICE_GRID_RECEIVERS, text, sizeof text, NULL); }
static cdyn_status write_asc_null(cdyn_lattice *l) { return cdyn_lattice_write_asc(l, CDYN_LATTICE_GRID_HEIGHTS, NULL, 1000, NULL); }
static cdyn_status write_asc_file_null(cdyn_lattice *l) { return cdyn_lattice_write_asc_file(l, CDYN_LATTICE_GRID_HEIGHTS, NULL); }

#define BAD CDYN_ERR_INVALID_ARGUMENT
static const bad_case cases[] = {
    {"cdyn_lattice_set_param", "unknown", BAD, set_param_unknown},
    {"cdyn_lattice_set_param", "E", BAD, set_param_nan},
    {"cdyn_lattice_set_param", "D", BAD, set_param_big_d},
    {"cdyn_lattice_set_param", "S", BAD, set_param_big_s},
    {"cdyn_lattice_get_param", "unknown", BAD, get_param_unknown},
    {"cdyn_lattice_get_param", "NULL", BAD, get_param_null},
    {"cdyn_lattice_set_slide_rule", "unknown", BAD, set_slide_rule_unknown},
    {"cdyn_lattice_get_slide_rule", "NULL", BAD, get_slide_rule_null},
    {"cdyn_lattice_set_walk_cap", "cap", BAD, set_walk_cap_zero},
    {"cdyn_lattice_set_walk_cap", "cap", BAD, set_walk_cap_huge},
    {"cdyn_lattice_get_walk_cap", "NULL", BAD, get_walk_cap_null},
    {"cdyn_lattice_set_boundary", "unknown", BAD, set_boundary_unknown},
    {"cdyn_lattice_get_boundary", "NULL", BAD, get_boundary_null},
    {"cdyn_lattice_init_tilted", "slope", BAD, init_tilted_negative},
    {"cdyn_lattice_init_tilted", "largest height", BAD, init_tilted_huge},
    {"cdyn_lattice_set_heights", "NULL", BAD, set_heights_null},
    {"cdyn_lattice_set_heights", "count", BAD, set_heights_count},
    {"cdyn_lattice_set_heights", "(x 4, y 3)", BAD, set_heights_range},
    {"cdyn_lattice_get_heights", "NULL", BAD, get_heights_null},
    {"cdyn_lattice_get_heights", "capacity", BAD, get_heights_short},
    {"cdyn_lattice_rain_at", "outside", BAD, rain_at_outside},
    {"cdyn_lattice_get_counters", "NULL", BAD, get_counters_null},
    {"cdyn_lattice_get_counters", "size", BAD, get_counters_size},
    {"cdyn_lattice_snapshot_size", "NULL", BAD, snapshot_size_null},
    {"cdyn_lattice_save", "NULL", BAD, save_null},
    {"cdyn_lattice_save", "capacity", BAD, save_short},
    {"cdyn_lattice_compute_drainage", "capacity", BAD, drainage_short},
    {"cdyn_lattice_compute_receivers", "NULL", BAD, receivers_null},
    {"cdyn_lattice_compute_receivers", "capacity", BAD, receivers_short},
    {"cdyn_lattice_compute_network", "NULL", BAD, network_null},
    {"cdyn_lattice_compute_network", "capacity", BAD, network_short},
    {"cdyn_lattice_compute_stats", "NULL", BAD, stats_null},
    {"cdyn_lattice_compute_stats", "size", BAD, stats_size},
    {"cdyn_lattice_compute_stats", "points_per_decade", BAD, stats_options},
    {"cdyn_lattice_set_routing", "unknown", BAD, set_routing_unknown},
    {"cdyn_lattice_get_routing", "NULL", BAD, get_routing_null},
    {"cdyn_lattice_set_cell_size", "dx", BAD, set_cell_size_zero},
    {"cdyn_lattice_set_cell_size", "dx", BAD, set_cell_size_nan},
    {"cdyn_lattice_set_origin", "finite", BAD, set_origin_inf},
    {"cdyn_lattice_set_outlet_edges", "unknown", BAD, set_edges_unknown},
    {"cdyn_lattice_get_outlet_edges", "NULL", BAD, get_edges_null},
    {"cdyn_lattice_set_outlet_mask", "count", BAD, set_outlet_mask_count},
    {"cdyn_lattice_get_outlet_mask", "capacity", BAD, get_outlet_mask_short},
    {"cdyn_lattice_set_nodata_mask", "every cell", BAD, set_nodata_mask_all},
    {"cdyn_lattice_get_nodata_mask", "NULL", BAD, get_nodata_mask_null},
    {"cdyn_lattice_compute_drainage_area", "NULL", BAD, drainage_area_null},
    {"cdyn_lattice_compute_drainage_area", "capacity", BAD, drainage_area_short},
    {"cdyn_lattice_asc_size", "unknown", BAD, asc_size_unknown},
    {"cdyn_lattice_asc_size", "NULL", BAD, asc_size_null},
    {"cdyn_lattice_write_asc", "capacity", BAD, write_asc_short},
    {"cdyn_lattice_write_asc", "NULL", BAD, write_asc_null},
    {"cdyn_lattice_write_asc_file", "NULL", BAD, write_asc_file_null},
};

/* The lattice's state as bytes: its snapshot. */
static size_t state_of(const cdyn_lattice *lat, unsigned char *out, size_t cap)
{
    size_t size = 0;
    assert_int_equal(cdyn_lattice_snapshot_size(lat, &size), CDYN_OK);
    assert_true(size <= cap);
    assert_int_equal(cdyn_lattice_save(lat, out, cap, NULL), CDYN_OK);
    return size;
}

static void test_every_refusal_names_its_function_and_changes_nothing(void **state)
{
    (void)state;
    cdyn_lattice *lat;
    assert_int_equal(cdyn_lattice_create(W, H, 3, NULL, &lat), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain(lat, 40), CDYN_OK);
    static unsigned char before[sizeof snap], after[sizeof snap];
    uint32_t d0[N], d1[N];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const bad_case *c = &cases[k];
        /* Prime the message with another function's failure, so that a
         * call that records nothing is caught. */
        if (strcmp(c->fn, "cdyn_lattice_rain_at") != 0)
            assert_int_equal(cdyn_lattice_rain_at(lat, 0, H, 1), CDYN_ERR_INVALID_ARGUMENT);
        else
            assert_int_equal(cdyn_lattice_set_walk_cap(lat, 0), CDYN_ERR_INVALID_ARGUMENT);
        size_t n0 = state_of(lat, before, sizeof before);
        assert_int_equal(cdyn_lattice_compute_drainage(lat, d0, N), CDYN_OK);

        cdyn_status got = c->call(lat);
        const char *msg = cdyn_lattice_last_error(lat);
        if (got != c->want || strncmp(msg, c->fn, strlen(c->fn)) != 0 ||
            msg[strlen(c->fn)] != ':' || !strstr(msg, c->what))
            fail_msg("case %zu (%s): status %d, message \"%s\"", k, c->fn, (int)got, msg);

        size_t n1 = state_of(lat, after, sizeof after);
        assert_int_equal(n0, n1);
        assert_memory_equal(before, after, n0);
        assert_int_equal(cdyn_lattice_compute_drainage(lat, d1, N), CDYN_OK);
        assert_memory_equal(d0, d1, sizeof d0);
    }
    cdyn_lattice_destroy(lat);
}

/* Calls with a NULL lattice are refused with a status (there is nowhere to
 * put a message) and the message of NULL is "". */
static void test_null_lattice(void **state)
{
    (void)state;
    double v;
    uint64_t cap;
    size_t size;
    cdyn_lattice_boundary b;
    cdyn_lattice_counters c = {.size = sizeof c};
    cdyn_lattice_stats st = {.size = sizeof st};
    assert_int_equal(cdyn_lattice_get_size(NULL, NULL, NULL), BAD);
    assert_int_equal(cdyn_lattice_set_param(NULL, CDYN_LATTICE_E, 1), BAD);
    assert_int_equal(cdyn_lattice_get_param(NULL, CDYN_LATTICE_E, &v), BAD);
    cdyn_lattice_slide_rule rule;
    assert_int_equal(cdyn_lattice_set_slide_rule(NULL, CDYN_LATTICE_SLIDE_ONCE), BAD);
    assert_int_equal(cdyn_lattice_get_slide_rule(NULL, &rule), BAD);
    assert_int_equal(cdyn_lattice_set_walk_cap(NULL, 4), BAD);
    assert_int_equal(cdyn_lattice_get_walk_cap(NULL, &cap), BAD);
    assert_int_equal(cdyn_lattice_set_boundary(NULL, CDYN_LATTICE_WALLS), BAD);
    assert_int_equal(cdyn_lattice_get_boundary(NULL, &b), BAD);
    assert_int_equal(cdyn_lattice_reseed(NULL, 1), BAD);
    assert_int_equal(cdyn_lattice_init_tilted(NULL, 1, 1), BAD);
    assert_int_equal(cdyn_lattice_set_heights(NULL, buf_d, N), BAD);
    assert_int_equal(cdyn_lattice_get_heights(NULL, buf_d, N), BAD);
    assert_int_equal(cdyn_lattice_rain(NULL, 1), BAD);
    assert_int_equal(cdyn_lattice_rain_at(NULL, 0, 0, 1), BAD);
    assert_int_equal(cdyn_lattice_get_counters(NULL, &c), BAD);
    assert_int_equal(cdyn_lattice_snapshot_size(NULL, &size), BAD);
    assert_int_equal(cdyn_lattice_save(NULL, snap, sizeof snap, NULL), BAD);
    assert_int_equal(cdyn_lattice_compute_drainage(NULL, buf_u, N), BAD);
    assert_int_equal(cdyn_lattice_compute_receivers(NULL, buf_u, N), BAD);
    assert_int_equal(cdyn_lattice_compute_network(NULL, buf_b, N), BAD);
    assert_int_equal(cdyn_lattice_compute_stats(NULL, NULL, &st), BAD);
    cdyn_lattice_routing ro;
    uint32_t e;
    assert_int_equal(cdyn_lattice_set_routing(NULL, CDYN_LATTICE_D8), BAD);
    assert_int_equal(cdyn_lattice_get_routing(NULL, &ro), BAD);
    assert_int_equal(cdyn_lattice_set_cell_size(NULL, 1, 1), BAD);
    assert_int_equal(cdyn_lattice_get_cell_size(NULL, NULL, NULL), BAD);
    assert_int_equal(cdyn_lattice_set_origin(NULL, 1, 1), BAD);
    assert_int_equal(cdyn_lattice_get_origin(NULL, NULL, NULL), BAD);
    assert_int_equal(cdyn_lattice_set_outlet_edges(NULL, 1), BAD);
    assert_int_equal(cdyn_lattice_get_outlet_edges(NULL, &e), BAD);
    assert_int_equal(cdyn_lattice_set_outlet_mask(NULL, NULL, 0), BAD);
    assert_int_equal(cdyn_lattice_get_outlet_mask(NULL, buf_b, N), BAD);
    assert_int_equal(cdyn_lattice_set_nodata_mask(NULL, NULL, 0), BAD);
    assert_int_equal(cdyn_lattice_get_nodata_mask(NULL, buf_b, N), BAD);
    assert_int_equal(cdyn_lattice_compute_drainage_area(NULL, buf_d, N), BAD);
    assert_int_equal(cdyn_lattice_asc_size(NULL, CDYN_LATTICE_GRID_HEIGHTS, &size), BAD);
    assert_int_equal(cdyn_lattice_write_asc(NULL, CDYN_LATTICE_GRID_HEIGHTS, text, 8, NULL), BAD);
    assert_int_equal(cdyn_lattice_write_asc_file(NULL, CDYN_LATTICE_GRID_HEIGHTS, "x"), BAD);
    assert_string_equal(cdyn_lattice_last_error(NULL), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_refusal_names_its_function_and_changes_nothing),
        cmocka_unit_test(test_null_lattice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
