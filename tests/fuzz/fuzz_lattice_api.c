/* libFuzzer target: sequences of lattice calls.
 *
 * The input's first bytes choose the lattice (size, seed); the rest is a
 * stream of operations, each a byte choosing a row of the table below
 * followed by its arguments, with values at the edges of the documented
 * ranges as likely as any (fuzz_double). An operation may also arm the
 * allocator to fail one of the next allocations. Invariants, after every
 * call:
 *  - a call that fails names itself first in cdyn_lattice_last_error and
 *    changes nothing (the lattice's snapshot bytes are the same);
 *  - every height stays in [-CDYN_LATTICE_HEIGHT_MAX, CDYN_LATTICE_HEIGHT_MAX];
 *  - a save loads and saves to the same bytes; nothing leaks.
 * To add an operation, add a function and a row to `ops`. */
#include "fuzz_util.h"

typedef struct ctx {
    cdyn_lattice *lat;
    size_t w, h, n;
    fuzz_alloc alloc;
    double *dbuf;    /* n + 1 doubles */
    uint32_t *ubuf;  /* n + 1 */
    uint8_t *bbuf;   /* n + 1 */
} ctx;

/* An operation: reads its arguments, makes one call and returns its status;
 * *fn names the public function called. */
typedef cdyn_status (*op_fn)(ctx *c, fuzz_in *in, const char **fn);

/* A capacity near the right one: n, n - 1 or 0 (refusals included). */
static size_t capacity(ctx *c, fuzz_in *in)
{
    uint8_t k = fuzz_u8(in) % 8;
    return k == 0 ? c->n - 1 : k == 1 ? 0 : c->n;
}

static cdyn_status op_set_param(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_set_param";
    int p = fuzz_u8(in) % 6; /* 5: an unknown parameter */
    return cdyn_lattice_set_param(c->lat, (cdyn_lattice_param)p, fuzz_double(in));
}

static cdyn_status op_get_param(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_get_param";
    int p = fuzz_u8(in) % 6;
    double v;
    return cdyn_lattice_get_param(c->lat, (cdyn_lattice_param)p, fuzz_u8(in) % 4 ? &v : NULL);
}

static cdyn_status op_set_walk_cap(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_set_walk_cap";
    uint8_t k = fuzz_u8(in);
    uint64_t cap = k < 200 ? k : k < 250 ? 64 * (uint64_t)c->n + (uint64_t)(k - 225) : fuzz_u64(in);
    return cdyn_lattice_set_walk_cap(c->lat, cap);
}

static cdyn_status op_set_boundary(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_set_boundary";
    return cdyn_lattice_set_boundary(c->lat, (cdyn_lattice_boundary)(fuzz_u8(in) % 3));
}

static cdyn_status op_set_slide_rule(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_set_slide_rule";
    return cdyn_lattice_set_slide_rule(c->lat, (cdyn_lattice_slide_rule)(fuzz_u8(in) % 3));
}

static cdyn_status op_init_tilted(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_init_tilted";
    double slope = fuzz_double(in);
    return cdyn_lattice_init_tilted(c->lat, slope, fuzz_double(in));
}

static cdyn_status op_set_heights(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_set_heights";
    /* A few values repeated over the lattice: short inputs, rough surfaces. */
    double v[4];
    for (int k = 0; k < 4; k++)
        v[k] = fuzz_double(in);
    for (size_t i = 0; i < c->n; i++)
        c->dbuf[i] = v[fuzz_u8(in) % 4] + (double)(i / c->w) * 0.25;
    uint8_t k = fuzz_u8(in) % 16;
    return cdyn_lattice_set_heights(c->lat, k == 0 ? NULL : c->dbuf, k == 1 ? c->n + 1 : c->n);
}

static cdyn_status op_get_heights(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_get_heights";
    return cdyn_lattice_get_heights(c->lat, fuzz_u8(in) % 8 ? c->dbuf : NULL, capacity(c, in));
}

static cdyn_status op_rain(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_rain";
    return cdyn_lattice_rain(c->lat, fuzz_u8(in) % 8);
}

static cdyn_status op_rain_at(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_rain_at";
    size_t x = fuzz_u8(in) % (c->w + 1), y = fuzz_u8(in) % (c->h + 1);
    return cdyn_lattice_rain_at(c->lat, x, y, fuzz_u8(in) % 4);
}

static cdyn_status op_set_seed(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_reseed";
    return cdyn_lattice_reseed(c->lat, fuzz_u64(in));
}

static cdyn_status op_drainage(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_compute_drainage";
    bool out = fuzz_u8(in) % 4 != 0;
    size_t cap = capacity(c, in);
    cdyn_status st = cdyn_lattice_compute_drainage(c->lat, out ? c->ubuf : NULL, cap);
    if (st == CDYN_OK && out) {
        /* Water is conserved: the outlets' drainage adds up to the sites
         * that hold data. */
        uint32_t *r = malloc(c->n * sizeof *r);
        FUZZ_CHECK(r && cdyn_lattice_compute_receivers(c->lat, r, c->n) == CDYN_OK);
        uint64_t sum = 0, valid = 0;
        for (size_t i = 0; i < c->n; i++) {
            valid += c->ubuf[i] > 0;
            if (c->ubuf[i] > 0 && r[i] == i)
                sum += c->ubuf[i];
        }
        FUZZ_CHECK(sum == valid);
        free(r);
    }
    return st;
}

static cdyn_status op_get_receivers(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_compute_receivers";
    return cdyn_lattice_compute_receivers(c->lat, fuzz_u8(in) % 8 ? c->ubuf : NULL, capacity(c, in));
}

static cdyn_status op_get_network(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_compute_network";
    return cdyn_lattice_compute_network(c->lat, fuzz_u8(in) % 8 ? c->bbuf : NULL, capacity(c, in));
}

static cdyn_status op_compute_stats(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_compute_stats";
    cdyn_lattice_stats_options o;
    cdyn_lattice_stats_options_init(&o);
    uint8_t k = fuzz_u8(in);
    if (k & 1) {
        o.area_min = fuzz_double(in);
        o.area_max = fuzz_double(in);
    }
    if (k & 2) {
        o.hack_min = fuzz_double(in);
        o.hack_max = fuzz_double(in);
    }
    if (k & 4)
        o.points_per_decade = fuzz_double(in);
    if (k & 8)
        o.threshold = fuzz_double(in);
    if (k & 16)
        o.size = 0;
    cdyn_lattice_stats st = {.size = k & 32 ? 8 : sizeof st};
    return cdyn_lattice_compute_stats(c->lat, k & 64 ? NULL : &o, k & 128 ? NULL : &st);
}

static cdyn_status op_get_counters(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_get_counters";
    cdyn_lattice_counters k = {.size = fuzz_u8(in) % 4 ? sizeof k : fuzz_u8(in)};
    return cdyn_lattice_get_counters(c->lat, fuzz_u8(in) % 8 ? &k : NULL);
}

/* The getters, each with its output present or NULL. */
static cdyn_status op_query(ctx *c, fuzz_in *in, const char **fn)
{
    uint8_t k = fuzz_u8(in);
    bool null = (k & 1) != 0;
    uint64_t cap;
    cdyn_lattice_boundary b;
    cdyn_lattice_slide_rule r;
    size_t size;
    switch ((k >> 1) % 4) {
    case 0:
        *fn = "cdyn_lattice_get_walk_cap";
        return cdyn_lattice_get_walk_cap(c->lat, null ? NULL : &cap);
    case 1:
        *fn = "cdyn_lattice_get_boundary";
        return cdyn_lattice_get_boundary(c->lat, null ? NULL : &b);
    case 2:
        *fn = "cdyn_lattice_get_slide_rule";
        return cdyn_lattice_get_slide_rule(c->lat, null ? NULL : &r);
    default:
        *fn = "cdyn_lattice_snapshot_size";
        return cdyn_lattice_snapshot_size(c->lat, null ? NULL : &size);
    }
}

/* Save and load: the copy saves to the same bytes and replaces the lattice
 * (through the same allocator). */
static cdyn_status op_save_load(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_save";
    size_t size;
    unsigned char *b = fuzz_snapshot(c->lat, &size);
    if (fuzz_u8(in) % 4 == 0) {
        cdyn_status st = cdyn_lattice_save(c->lat, b, size - 1, NULL);
        free(b);
        return st; /* refused: too small */
    }
    cdyn_allocator al = fuzz_allocator(&c->alloc);
    cdyn_lattice *copy = NULL;
    cdyn_status st = cdyn_lattice_load(b, size, &al, &copy);
    if (st == CDYN_ERR_NO_MEMORY) { /* an armed failure: nothing created */
        FUZZ_CHECK(copy == NULL);
        free(b);
        return CDYN_OK;
    }
    FUZZ_CHECK(st == CDYN_OK);
    size_t s2;
    unsigned char *b2 = fuzz_snapshot(copy, &s2);
    FUZZ_CHECK(s2 == size && memcmp(b, b2, size) == 0);
    free(b);
    free(b2);
    cdyn_lattice_destroy(c->lat);
    c->lat = copy;
    return CDYN_OK;
}

static cdyn_status op_set_routing(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_set_routing";
    return cdyn_lattice_set_routing(c->lat, (cdyn_lattice_routing)(fuzz_u8(in) % 3));
}

static cdyn_status op_set_cell_size(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_set_cell_size";
    double dx = fuzz_double(in);
    return cdyn_lattice_set_cell_size(c->lat, dx, fuzz_double(in));
}

static cdyn_status op_set_origin(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_set_origin";
    double x = fuzz_double(in);
    return cdyn_lattice_set_origin(c->lat, x, fuzz_double(in));
}

static cdyn_status op_set_outlet_edges(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_set_outlet_edges";
    return cdyn_lattice_set_outlet_edges(c->lat, fuzz_u8(in) % 40);
}

/* A mask from the input: each byte gives 8 sites, sparse or dense. */
static void read_mask(ctx *c, fuzz_in *in)
{
    uint8_t density = fuzz_u8(in);
    for (size_t i = 0; i < c->n; i += 8) {
        uint8_t b = fuzz_u8(in) & density;
        for (size_t j = 0; j < 8 && i + j < c->n; j++)
            c->bbuf[i + j] = (uint8_t)((b >> j) & 1);
    }
}

static cdyn_status op_set_mask(ctx *c, fuzz_in *in, const char **fn)
{
    uint8_t k = fuzz_u8(in);
    bool nodata = k & 1, clear = (k & 6) == 0;
    *fn = nodata ? "cdyn_lattice_set_nodata_mask" : "cdyn_lattice_set_outlet_mask";
    read_mask(c, in);
    size_t count = (k & 24) == 0 ? c->n - 1 : c->n;
    const uint8_t *m = clear ? NULL : c->bbuf;
    return nodata ? cdyn_lattice_set_nodata_mask(c->lat, m, count)
                  : cdyn_lattice_set_outlet_mask(c->lat, m, count);
}

static cdyn_status op_get_mask(ctx *c, fuzz_in *in, const char **fn)
{
    uint8_t k = fuzz_u8(in);
    *fn = k & 1 ? "cdyn_lattice_get_nodata_mask" : "cdyn_lattice_get_outlet_mask";
    uint8_t *out = k & 2 ? NULL : c->bbuf;
    size_t cap = capacity(c, in);
    return k & 1 ? cdyn_lattice_get_nodata_mask(c->lat, out, cap)
                 : cdyn_lattice_get_outlet_mask(c->lat, out, cap);
}

static cdyn_status op_drainage_area(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "cdyn_lattice_compute_drainage_area";
    cdyn_status st = cdyn_lattice_compute_drainage_area(c->lat, fuzz_u8(in) % 8 ? c->dbuf : NULL,
                                                    capacity(c, in));
    if (st == CDYN_OK)
        for (size_t i = 0; i < c->n; i++)
            FUZZ_CHECK(c->dbuf[i] >= 0 && isfinite(c->dbuf[i]));
    return st;
}

/* A grid field as text, into a buffer of the right size or one too small;
 * the heights read back to the same bits. */
static cdyn_status op_write_asc(ctx *c, fuzz_in *in, const char **fn)
{
    uint8_t k = fuzz_u8(in);
    cdyn_lattice_grid field = (cdyn_lattice_grid)(k % 4); /* 3: unknown */
    size_t size = 0;
    *fn = "cdyn_lattice_asc_size";
    cdyn_status st = cdyn_lattice_asc_size(c->lat, field, &size);
    if (st != CDYN_OK)
        return st;
    char *text = malloc(size);
    FUZZ_CHECK(text != NULL);
    *fn = "cdyn_lattice_write_asc";
    st = cdyn_lattice_write_asc(c->lat, field, text, k & 4 ? size - 1 : size, NULL);
    if (st == CDYN_OK && field == CDYN_LATTICE_GRID_HEIGHTS) {
        cdyn_lattice *back = NULL;
        FUZZ_CHECK(cdyn_lattice_read_asc(text, size - 1, NULL, &back, NULL, 0) == CDYN_OK);
        double *z = malloc(c->n * sizeof *z);
        uint8_t *m = malloc(c->n);
        FUZZ_CHECK(z && m && cdyn_lattice_get_heights(back, z, c->n) == CDYN_OK);
        FUZZ_CHECK(cdyn_lattice_get_heights(c->lat, c->dbuf, c->n) == CDYN_OK);
        FUZZ_CHECK(cdyn_lattice_get_nodata_mask(back, m, c->n) == CDYN_OK);
        for (size_t i = 0; i < c->n; i++)
            FUZZ_CHECK(m[i] || memcmp(&z[i], &c->dbuf[i], sizeof z[i]) == 0);
        free(z);
        free(m);
        cdyn_lattice_destroy(back);
    }
    free(text);
    return st;
}

/* Makes one of the next few allocations fail (once). */
static cdyn_status op_arm_alloc(ctx *c, fuzz_in *in, const char **fn)
{
    *fn = "";
    fuzz_alloc_arm(&c->alloc, 1 + fuzz_u8(in) % 8);
    return CDYN_OK;
}

static const struct {
    op_fn call;
    bool changes; /* may change the lattice when it succeeds */
} ops[] = {
    {op_set_param, true},     {op_get_param, false},    {op_set_walk_cap, true},
    {op_set_boundary, true},  {op_set_slide_rule, true}, {op_init_tilted, true},
    {op_set_heights, true},   {op_get_heights, false},  {op_rain, true},
    {op_rain, true},          {op_rain_at, true},       {op_set_seed, true},
    {op_drainage, false},     {op_get_receivers, false}, {op_get_network, false},
    {op_compute_stats, false}, {op_get_counters, false}, {op_save_load, true},
    {op_arm_alloc, false},    {op_query, false},        {op_set_routing, true},
    {op_set_cell_size, true}, {op_set_origin, true},    {op_set_outlet_edges, true},
    {op_set_mask, true},      {op_get_mask, false},     {op_drainage_area, false},
    {op_write_asc, false},
};

static void check_heights(ctx *c)
{
    FUZZ_CHECK(cdyn_lattice_get_heights(c->lat, c->dbuf, c->n) == CDYN_OK);
    for (size_t i = 0; i < c->n; i++)
        FUZZ_CHECK(c->dbuf[i] >= -CDYN_LATTICE_HEIGHT_MAX && c->dbuf[i] <= CDYN_LATTICE_HEIGHT_MAX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size, 0};
    ctx c;
    memset(&c, 0, sizeof c);
    c.w = 2 + fuzz_u8(&in) % 15;
    c.h = 2 + fuzz_u8(&in) % 15;
    c.n = c.w * c.h;
    uint64_t seed = fuzz_u8(&in);
    cdyn_allocator al = fuzz_allocator(&c.alloc);
    FUZZ_CHECK(cdyn_lattice_create(c.w, c.h, seed, &al, &c.lat) == CDYN_OK);
    c.dbuf = malloc((c.n + 1) * sizeof *c.dbuf);
    c.ubuf = malloc((c.n + 1) * sizeof *c.ubuf);
    c.bbuf = malloc(c.n + 1);
    FUZZ_CHECK(c.dbuf && c.ubuf && c.bbuf);

    for (int k = 0; k < 64 && fuzz_more(&in); k++) {
        size_t which = fuzz_u8(&in) % (sizeof ops / sizeof *ops);
        /* Prime the message with another function's failure, so that a
         * failing call that records nothing is caught. */
        bool prime_rain = ops[which].call != op_rain_at;
        FUZZ_CHECK((prime_rain ? cdyn_lattice_rain_at(c.lat, c.w, 0, 1)
                               : cdyn_lattice_set_walk_cap(c.lat, 0)) == CDYN_ERR_INVALID_ARGUMENT);
        size_t s0, s1;
        unsigned char *before = fuzz_snapshot(c.lat, &s0);
        const char *fn = "";
        cdyn_status st = ops[which].call(&c, &in, &fn);
        if (st != CDYN_OK) {
            const char *msg = cdyn_lattice_last_error(c.lat);
            size_t len = strlen(fn);
            bool names_itself = strncmp(msg, fn, len) == 0 && msg[len] == ':';
            if (!names_itself)
                fprintf(stderr, "%s failed (%s) with the message \"%s\"\n", fn,
                        cdyn_status_name(st), msg);
            FUZZ_CHECK(names_itself);
            unsigned char *after = fuzz_snapshot(c.lat, &s1);
            FUZZ_CHECK(s0 == s1 && memcmp(before, after, s0) == 0);
            free(after);
        } else if (!ops[which].changes) {
            unsigned char *after = fuzz_snapshot(c.lat, &s1);
            FUZZ_CHECK(s0 == s1 && memcmp(before, after, s0) == 0);
            free(after);
        }
        free(before);
        check_heights(&c);
    }
    fuzz_alloc_arm(&c.alloc, 0);
    cdyn_lattice_destroy(c.lat);
    FUZZ_CHECK(c.alloc.live == 0);
    free(c.dbuf);
    free(c.ubuf);
    free(c.bbuf);
    return 0;
}
