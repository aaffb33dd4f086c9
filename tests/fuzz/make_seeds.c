/* Writes the seed corpora of the fuzz targets into DIR/<target>/:
 *   make_seeds DIR     (the committed ones: make_seeds tests/fuzz/corpus)
 * lattice_load: snapshots of small lattices in every state the format
 * holds (both slide rules, waiting sites, a capped cascade, periodic sides,
 * heights at the ends of the range). lattice_api: short call sequences in
 * the encoding of fuzz_lattice_api.c (a size, a seed, then operations by
 * their row in its table). lattice_asc: ESRI ASCII grids in the forms GIS
 * tools write. system_load: snapshots of the scenes of the snapshot suites
 * (tests/support/scenes.c) after a few steps with four integrators.
 * system_api: call sequences on a system in the encoding of
 * fuzz_system_api.c (a dimension byte, then operations by their row in its
 * table): a pendulum under every integrator, particles on every kind of
 * shape, contacts with every kind of ground, rigid bodies with pair sets in
 * a periodic box under the thermostat, failing and re-entering callbacks,
 * failed allocations, removals and stale handles, the system-free
 * functions, the options. Run it again after a change of a snapshot format
 * or of those tables. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "scenes.h"

static int write_file(const char *dir, const char *target, const char *name,
                      const void *data, size_t size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", dir, target, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size) {
        fprintf(stderr, "make_seeds: cannot write %s\n", path);
        if (f)
            fclose(f);
        return 1;
    }
    return fclose(f) != 0;
}

static int save(const char *dir, const char *name, cdyn_lattice *lat)
{
    size_t size;
    if (cdyn_lattice_snapshot_size(lat, &size) != CDYN_OK)
        return 1;
    unsigned char *b = malloc(size);
    int bad = !b || cdyn_lattice_save(lat, b, size, NULL) != CDYN_OK ||
              write_file(dir, "lattice_load", name, b, size);
    free(b);
    cdyn_lattice_destroy(lat);
    return bad;
}

static cdyn_lattice *make(size_t w, size_t h, uint64_t seed)
{
    cdyn_lattice *lat = NULL;
    if (cdyn_lattice_create(w, h, seed, NULL, &lat) != CDYN_OK) {
        fprintf(stderr, "make_seeds: cannot create a lattice\n");
        exit(1);
    }
    return lat;
}

static int load_seeds(const char *dir)
{
    int bad = 0;
    cdyn_lattice *lat = make(4, 3, 1);
    bad |= save(dir, "fresh_4x3", lat);

    lat = make(6, 5, 2);
    cdyn_lattice_rain(lat, 50);
    bad |= save(dir, "rained_6x5", lat);

    lat = make(12, 10, 3);
    cdyn_lattice_set_param(lat, CDYN_LATTICE_D, 0.05);
    cdyn_lattice_rain(lat, 600);
    bad |= save(dir, "rained_12x10", lat);

    lat = make(7, 6, 4); /* the once rule, sites waiting */
    cdyn_lattice_set_slide_rule(lat, CDYN_LATTICE_SLIDE_ONCE);
    cdyn_lattice_set_param(lat, CDYN_LATTICE_S, 1e7);
    cdyn_lattice_set_param(lat, CDYN_LATTICE_M, 0.2);
    cdyn_lattice_rain(lat, 20);
    bad |= save(dir, "once_waiting_7x6", lat);

    lat = make(5, 5, 5); /* every setting away from its default */
    cdyn_lattice_set_boundary(lat, CDYN_LATTICE_PERIODIC);
    cdyn_lattice_set_param(lat, CDYN_LATTICE_E, -1.5);
    cdyn_lattice_set_param(lat, CDYN_LATTICE_R, 3);
    cdyn_lattice_set_param(lat, CDYN_LATTICE_S, 1e12);
    cdyn_lattice_set_walk_cap(lat, 64 * 25);
    cdyn_lattice_rain(lat, 30);
    bad |= save(dir, "periodic_5x5", lat);

    lat = make(5, 4, 6); /* heights at the ends of the range */
    double h[20];
    for (int i = 0; i < 20; i++)
        h[i] = (i % 3 == 0 ? -1 : 1) * CDYN_LATTICE_HEIGHT_MAX;
    h[7] = -CDYN_LATTICE_HEIGHT_MAX + 1e98;
    cdyn_lattice_set_heights(lat, h, 20);
    cdyn_lattice_set_param(lat, CDYN_LATTICE_D, 1e99);
    cdyn_lattice_set_param(lat, CDYN_LATTICE_M, 0);
    bad |= save(dir, "range_ends_5x4", lat);

    lat = make(5, 4, 7); /* one deep pit, S large: the old endless cascade */
    double p[20] = {0};
    p[12] = -1000;
    cdyn_lattice_set_heights(lat, p, 20);
    cdyn_lattice_set_param(lat, CDYN_LATTICE_S, 1e7);
    bad |= save(dir, "pit_5x4", lat);

    lat = make(32, 32, 8); /* a bowl: the cascade stops at its cap */
    double *b = malloc(32 * 32 * sizeof *b);
    for (int i = 0; i < 32 * 32; i++)
        b[i] = -(double)((i % 32) * (i % 32) + (i / 32) * (i / 32));
    cdyn_lattice_set_heights(lat, b, 32 * 32);
    free(b);
    cdyn_lattice_set_param(lat, CDYN_LATTICE_M, 0.5);
    cdyn_lattice_rain(lat, 0);
    bad |= save(dir, "capped_cascade_32x32", lat);

    lat = make(9, 8, 9); /* terrain: D8, cells, origin, edges and masks */
    cdyn_lattice_rain(lat, 100);
    cdyn_lattice_set_routing(lat, CDYN_LATTICE_D8);
    cdyn_lattice_set_cell_size(lat, 30, 20);
    cdyn_lattice_set_origin(lat, 500000, 4100000);
    cdyn_lattice_set_outlet_edges(lat, CDYN_LATTICE_EDGE_TOP | CDYN_LATTICE_EDGE_NODATA);
    uint8_t m[72] = {0};
    m[40] = m[41] = m[49] = 1;
    cdyn_lattice_set_nodata_mask(lat, m, 72);
    memset(m, 0, sizeof m);
    m[3] = m[70] = 1;
    cdyn_lattice_set_outlet_mask(lat, m, 72);
    bad |= save(dir, "terrain_9x8", lat);
    return bad;
}

/* Rows of the operation table of fuzz_lattice_api.c. */
enum { SET_PARAM, GET_PARAM, SET_WALK_CAP, SET_BOUNDARY, SET_SLIDE_RULE, INIT_TILTED,
       SET_HEIGHTS, GET_HEIGHTS, RAIN, RAIN2, RAIN_AT, SET_SEED, DRAINAGE, GET_RECEIVERS,
       GET_NETWORK, COMPUTE_STATS, GET_COUNTERS, SAVE_LOAD, ARM_ALLOC, QUERY, SET_ROUTING,
       SET_CELL_SIZE, SET_ORIGIN, SET_OUTLET_EDGES, SET_MASK, GET_MASK, DRAINAGE_AREA,
       WRITE_ASC };

static int api_seeds(const char *dir)
{
    /* Bytes: width - 2, height - 2, seed, then operations and arguments
     * (fuzz_double's first byte < 96 picks a value from its table: 12 =
     * 1e100, 17 = 1e12 ... see fuzz_util.h). */
    static const unsigned char rain_and_drain[] = {
        4, 3, 1, RAIN, 7, RAIN, 7, DRAINAGE, 1, 2, COMPUTE_STATS, 0, SAVE_LOAD, 1, RAIN, 5,
        GET_RECEIVERS, 1, 2, GET_NETWORK, 1, 2};
    static const unsigned char params_and_rules[] = {
        6, 5, 2, SET_PARAM, 3, 19, SET_SLIDE_RULE, 1, RAIN, 7, SET_PARAM, 1, 12, RAIN, 7,
        SET_BOUNDARY, 1, SET_WALK_CAP, 3, RAIN_AT, 2, 3, 3, SAVE_LOAD, 2};
    static const unsigned char heights_at_the_edges[] = {
        3, 2, 3, SET_HEIGHTS, 12, 13, 0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3,
        0, 1, 2, 3, 0, 1, 2, 3, 5, SET_PARAM, 1, 12, RAIN, 7, RAIN_AT, 0, 0, 3, DRAINAGE, 1, 2};
    static const unsigned char out_of_memory[] = {
        5, 5, 4, ARM_ALLOC, 1, RAIN, 3, ARM_ALLOC, 2, DRAINAGE, 1, 2, ARM_ALLOC, 3,
        COMPUTE_STATS, 0, ARM_ALLOC, 0, SAVE_LOAD, 1, RAIN, 4};
    static const unsigned char refusals[] = {
        2, 2, 5, SET_PARAM, 5, 0, GET_PARAM, 1, 0, SET_WALK_CAP, 0, SET_BOUNDARY, 2,
        INIT_TILTED, 3, 0, GET_HEIGHTS, 0, 1, GET_COUNTERS, 0, 3, 0, COMPUTE_STATS, 4, 0,
        SAVE_LOAD, 0};
    static const unsigned char terrain[] = {
        9, 7, 6, SET_ROUTING, 1, SET_CELL_SIZE, 4, 24, SET_OUTLET_EDGES, 18, SET_MASK, 3, 0x11,
        0x80, 0x01, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, SET_MASK, 2, 0x03, 1, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, DRAINAGE, 1, 2, DRAINAGE_AREA, 1, 2,
        COMPUTE_STATS, 0, SAVE_LOAD, 1, GET_MASK, 0, 2, SET_OUTLET_EDGES, 0, DRAINAGE, 1, 2};
    int bad = 0;
    bad |= write_file(dir, "lattice_api", "terrain", terrain, sizeof terrain);
    bad |= write_file(dir, "lattice_api", "rain_and_drain", rain_and_drain, sizeof rain_and_drain);
    bad |= write_file(dir, "lattice_api", "params_and_rules", params_and_rules,
                      sizeof params_and_rules);
    bad |= write_file(dir, "lattice_api", "heights_at_the_edges", heights_at_the_edges,
                      sizeof heights_at_the_edges);
    bad |= write_file(dir, "lattice_api", "out_of_memory", out_of_memory, sizeof out_of_memory);
    bad |= write_file(dir, "lattice_api", "refusals", refusals, sizeof refusals);
    return bad;
}

static int asc_seeds(const char *dir)
{
    static const char *const grids[][2] = {
        {"corner_3x2", "ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n"
                       "1 2 3\n4 5 6\n"},
        {"center_nodata_crlf", "NCOLS 4\r\nNROWS 3\r\nXLLCENTER 500000\r\nYLLCENTER 4100000\r\n"
                               "CELLSIZE 30\r\nNODATA_value -9999\r\n"
                               "10 -9999 12.5 13\r\n9 8.25 -9999 11\r\n7 6 5 4\r\n"},
        {"rectangular_cells", "ncols 2\nnrows 2\nxllcorner -1.5\nyllcorner 2e3\ndx 0.5\n"
                              "dy 2\nNODATA_value -1e300\n1e100 -1e100\n-0 5e-324\n"},
        {"pit_5x4", "ncols 5\nnrows 4\nxllcorner 0\nyllcorner 0\ncellsize 1\n"
                    "9 9 9 9 9\n9 1 1 1 9\n9 1 -3 1 9\n9 9 9 9 9\n"},
    };
    int bad = 0;
    for (size_t k = 0; k < sizeof grids / sizeof grids[0]; k++)
        bad |= write_file(dir, "lattice_asc", grids[k][0], grids[k][1], strlen(grids[k][1]));
    /* A grid the library writes, with every digit in use. */
    cdyn_lattice *lat = make(6, 5, 10);
    cdyn_lattice_rain(lat, 60);
    uint8_t m[30] = {0};
    m[8] = 1;
    cdyn_lattice_set_nodata_mask(lat, m, 30);
    size_t size;
    if (cdyn_lattice_asc_size(lat, CDYN_LATTICE_GRID_HEIGHTS, &size) == CDYN_OK) {
        char *t = malloc(size);
        if (t && cdyn_lattice_write_asc(lat, CDYN_LATTICE_GRID_HEIGHTS, t, size, NULL) == CDYN_OK)
            bad |= write_file(dir, "lattice_asc", "written_6x5", t, size - 1);
        else
            bad = 1;
        free(t);
    }
    cdyn_lattice_destroy(lat);
    return bad;
}

/* Every scene with symplectic Euler, RK45 and CG, RATTLE, backward Euler
 * and CG, after three steps (those that cannot step with one still save). */
static int system_seeds(const char *dir)
{
    static const cdyn_integrator with[] = {CDYN_INTEGRATOR_SYMPLECTIC_EULER,
                                           CDYN_INTEGRATOR_RK45, CDYN_INTEGRATOR_RATTLE,
                                           CDYN_INTEGRATOR_BACKWARD_EULER};
    int bad = 0;
    for (size_t k = 0; k < TS_N_SCENES; k++)
        for (size_t i = 0; i < 4; i++) {
            ts_world w;
            ts_scene_build(ts_scenes[k], &w, with[i], i % 2 ? CDYN_SOLVER_CG : CDYN_SOLVER_DIRECT);
            for (int s = 0; s < 3; s++)
                (void)cdyn_system_step(w.sys, 1e-3);
            size_t size;
            unsigned char *b = NULL;
            bad |= cdyn_system_snapshot_size(w.sys, &size) != CDYN_OK || !(b = malloc(size)) ||
                   cdyn_system_save(w.sys, b, size, NULL) != CDYN_OK;
            char name[64];
            snprintf(name, sizeof name, "%s_%d", ts_scenes[k]->name, (int)with[i]);
            if (b && !bad)
                bad |= write_file(dir, "system_load", name, b, size);
            free(b);
            ts_scene_free(&w);
        }
    return bad;
}

/* Rows of the operation table of fuzz_system_api.c. */
enum { P_ADD, P_ADD2, P_REMOVE, P_SET, F_ADD, PAIRS, F_SET, C_ADD, ON_SHAPE, C_SET, G_ADD,
       G_SET, RIGID, APPLY, BULK_SET, OPTIONS, INTEGRATOR, TIME_BOX, STEP, STEP2, STEP3,
       EVALUATE, MODE, ARM_ALLOC_S, QUERY_S, SHAPES, MOTIONS };

/* Arguments in that encoding: a value byte below 160 is the operation's
 * usual value (0: exactly it); a vector is three values and a byte (0:
 * NULL); a handle byte below 232 picks one made in the run. */
#define V0 0, 0, 0, 1               /* the usual vector */
#define PADD P_ADD, 0, V0, 0        /* a particle of mass 1, no velocity */
#define PADDY(k) P_ADD, 0, 0, (k), 0, 1, 0 /* one at height 1 + k / 16 */
#define STEP_MS STEP, 1             /* a step of 1 ms */

static int system_api_seeds(const char *dir)
{
    static const unsigned char pendulum[] = {
        1, PADD, PADD, PADD, F_ADD, 0, V0, C_ADD, 0, 1, 0, 8, 0, 1, 0, C_ADD, 1, 0, 2, 0,
        STEP_MS, STEP_MS, INTEGRATOR, 3, STEP_MS, INTEGRATOR, 4, STEP_MS, INTEGRATOR, 5,
        STEP_MS, INTEGRATOR, 6, STEP_MS, INTEGRATOR, 7, STEP_MS, INTEGRATOR, 1, STEP_MS,
        QUERY_S, 0, 0, 0, 0, 0, 6, QUERY_S, 0, 0, 0, 0, 0, 5, 4, QUERY_S, 0, 0, 0, 0, 0, 9,
        EVALUATE, 1, 1, EVALUATE, 0, C_SET, 0, 1, 0, STEP_MS, C_SET, 0, 6};
    static const unsigned char shapes[] = {
        1, PADD, PADD, PADD, PADD, PADD, PADD, PADD, PADD, PADD, PADD, PADD, F_ADD, 0, V0,
        ON_SHAPE, 0, 1, 0, 0, ON_SHAPE, 1, 1, 1, 0, ON_SHAPE, 2, 1, 2, 0,
        ON_SHAPE, 3, 1, 3, 0, ON_SHAPE, 4, 1, 4, 0, ON_SHAPE, 5, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0,
        0, ON_SHAPE, 6, 1, 6, 0, STEP_MS, STEP_MS, ON_SHAPE, 7, 0, 0, 0, ON_SHAPE, 8, 0, 1, 0,
        ON_SHAPE, 9, 0, 2, 0, ON_SHAPE, 10, 0, 3, 0, 0, STEP_MS, STEP, 4,
        C_SET, 1, 3, 0, 0, 0, 3, STEP_MS, P_SET, 2, 0, V0, STEP_MS, P_SET, 8, 1, V0, STEP_MS};
    static const unsigned char contacts[] = {
        1, PADD, PADD, PADD, F_ADD, 0, V0, G_ADD, 0, V0, 0, G_ADD, 1, V0, 0, 1,
        G_ADD, 2, 0, G_ADD, 3, G_SET, 0, 2, 0, G_SET, 1, 5, 1, 0, 1, G_SET, 2, 4, V0,
        STEP_MS, STEP_MS, STEP, 4, QUERY_S, 0, 0, 0, 0, 0, 12, QUERY_S, 0, 0, 0, 0, 0, 13,
        QUERY_S, 0, 0, 0, 0, 0, 14, QUERY_S, 0, 0, 0, 0, 0, 21, QUERY_S, 0, 0, 0, 0, 0, 16,
        QUERY_S, 0, 0, 0, 0, 0, 17, G_SET, 0, 6, STEP_MS, QUERY_S, 0, 0, 0, 0, 0, 15};
    static const unsigned char bodies_pairs_box[] = {
        0, PADDY(0), PADDY(4), PADDY(8), PADDY(2), PADDY(6), PADDY(10), RIGID, 0, 0, 1, 2, 3,
        2, RIGID, 2, 0, 1, RIGID, 4, 0, V0, PAIRS, 0, 0, 5, 3, 4, 5, 0, 1, 2,
        PAIRS, 2, 32, 3, 4, 5, 0, 1, TIME_BOX, 1, 1, 1, 0, V0, V0, OPTIONS, 4, 0, 0, 7, INTEGRATOR, 3,
        STEP_MS, STEP_MS, F_SET, 0, 4, 0, F_SET, 0, 5, 2, F_SET, 0, 6, 1, 2, 0, 0, 1, 2,
        STEP_MS, QUERY_S, 0, 0, 0, 0, 0, 19, QUERY_S, 0, 0, 0, 0, 0, 20,
        QUERY_S, 0, 0, 0, 0, 0, 18, QUERY_S, 0, 0, 1, 0, 0, 4, 8, TIME_BOX, 2, RIGID, 1, 0,
        STEP_MS};
    static const unsigned char failing_callbacks[] = {
        0, PADD, PADD, PADD, F_ADD, 3, 1, 0, F_ADD, 4, 1, 1, C_ADD, 0, 4, 1, 2, 0, 2, 1,
        C_ADD, 1, 5, G_ADD, 3, STEP_MS, MODE, 1, 0, STEP_MS, EVALUATE, 1, 0, MODE, 3, 5,
        STEP_MS, STEP_MS, MODE, 2, 0, STEP_MS, MODE, 4, 0, STEP_MS, INTEGRATOR, 7, STEP_MS,
        INTEGRATOR, 5, STEP_MS, MODE, 0, 0, STEP_MS, QUERY_S, 0, 0, 0, 0, 0, 17};
    static const unsigned char out_of_memory[] = {
        1, ARM_ALLOC_S, 0, PADD, PADD, PADD, ARM_ALLOC_S, 1, C_ADD, 0, 0, 1, 0, ARM_ALLOC_S, 2,
        PAIRS, 0, 0, 2, 0, 1, 2, ARM_ALLOC_S, 0, STEP_MS, ARM_ALLOC_S, 3, INTEGRATOR, 6,
        STEP_MS, ARM_ALLOC_S, 1, G_ADD, 2, 0, ARM_ALLOC_S, 2, RIGID, 0, 0, 1, 0, 0, 1};
    static const unsigned char removals[] = {
        0, PADD, PADD, PADD, F_ADD, 1, 0, 1, 0, 0, 0, C_ADD, 0, 0, 2, 0, G_ADD, 0, V0, 0,
        RIGID, 0, 1, 2, 0, 0, 1, P_REMOVE, 0, STEP_MS, F_SET, 0, 8, C_SET, 0, 6, G_SET, 0, 6,
        RIGID, 1, 0, P_REMOVE, 0, P_SET, 0, 2, 0, QUERY_S, 0, 0, 0, 0, 0, 0, PADD, STEP_MS,
        QUERY_S, 240, 241, 242, 243, 244, 8, BULK_SET, 1, 0, 0, 1, BULK_SET, 0, 1, 0, 1,
        STEP_MS, APPLY, 0, 0, 0, V0, APPLY, 1, 2, 0, 0, 1, STEP_MS, TIME_BOX, 0, 0};
    /* Curves of kinds 1-7 through every query, the height field, surfaces
     * of kinds 1-5, motions and schedules of every kind, a rotation. */
    static const unsigned char free_functions[] = {
        1, SHAPES, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, SHAPES, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1,
        SHAPES, 0, 0, 0, 0, 0, 0, 1, 2, 0, 2, SHAPES, 0, 0, 0, 0, 0, 1, 1, 3, 0, 3,
        SHAPES, 0, 0, 0, 0, 0, 1, 1, 4, 0, 4, SHAPES, 0, 0, 0, 0, 0, 1, 1, 5, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 1, SHAPES, 0, 0, 0, 0, 0, 1, 1, 6, 0, 3, SHAPES, 0, 0, 0, 0, 0, 1, 0,
        1, 0, SHAPES, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, SHAPES, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0,
        1, SHAPES, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1, SHAPES, 0, 0, 0, 0, 0, 1, 0, 0, 3, 0, 0,
        0, SHAPES, 0, 0, 0, 0, 0, 1, 0, 0, 4, 0, 1, MOTIONS, 0, 0, 0, 0, 1, MOTIONS, 0, 0,
        1, 0, 1, MOTIONS, 0, 0, 2, 0, 1, MOTIONS, 0, 0, 3, 0, 0, MOTIONS, 0, 1, 0, 0,
        MOTIONS, 0, 1, 1, 0, MOTIONS, 0, 1, 2, 0, MOTIONS, 0, 2, 0, 0, 0};
    static const unsigned char options[] = {
        1, PADD, PADD, C_ADD, 0, 0, 1, 0, OPTIONS, 0, 0, 0, 0, 0, INTEGRATOR, 5, STEP, 4,
        OPTIONS, 1, 0, 8, INTEGRATOR, 7, STEP_MS, OPTIONS, 2, 1, 0, 0, 0, 20, STEP_MS,
        OPTIONS, 3, 1, 1, 0, 0, 10, INTEGRATOR, 6, STEP_MS, OPTIONS, 2, 2, 0, 0, 0, 20,
        STEP_MS, TIME_BOX, 0, 0, STEP, 5};
    static const struct {
        const char *name;
        const unsigned char *data;
        size_t size;
    } seeds[] = {
#define SEED(x) {#x, x, sizeof x}
        SEED(pendulum), SEED(shapes), SEED(contacts), SEED(bodies_pairs_box),
        SEED(failing_callbacks), SEED(out_of_memory), SEED(removals), SEED(free_functions),
        SEED(options),
#undef SEED
    };
    int bad = 0;
    for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++)
        bad |= write_file(dir, "system_api", seeds[k].name, seeds[k].data, seeds[k].size);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_seeds DIR (writes DIR/lattice_load/, DIR/lattice_api/, "
                        "DIR/lattice_asc/, DIR/system_load/, DIR/system_api/; the directories "
                        "must exist)\n");
        return 2;
    }
    int bad = load_seeds(argv[1]) | api_seeds(argv[1]) | asc_seeds(argv[1]) |
              system_seeds(argv[1]) | system_api_seeds(argv[1]);
    if (!bad)
        printf("make_seeds: wrote the seed corpora under %s\n", argv[1]);
    return bad;
}
