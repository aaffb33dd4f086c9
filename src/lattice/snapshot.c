/* Snapshots of a lattice: everything the next rain
 * depends on, in a byte buffer that is the same on every platform.
 *
 * Layout, all integers and doubles little-endian (doubles as their IEEE
 * 754 bits), offsets in bytes:
 *
 *     0  magic "CDYNLAT\0"          8
 *     8  format version (1)         u32
 *    12  reserved (0)               u32
 *    16  width, height              u64 x 2
 *    32  E, D, M, S, R              f64 x 5
 *    72  walk cap                   u64
 *    80  periodic, needs_relax      u32 x 2
 *    88  generator state            u64 x 4
 *   120  counters: drops, walk steps, sites eroded, pit moves, capped
 *        walks, slides, slide rounds (u64 x 7), total eroded, total
 *        slid (f64 x 2)
 *   192  heights, row-major         f64 x W H
 *   192 + 8 W H  checksum           u64: FNV-1a 64 of every byte before it
 *
 * The rain scratch (visit stamps, work lists) and the drainage cache are
 * not saved: they hold nothing between drops that changes a result. */
#include <math.h>
#include <string.h>

#include "lattice/heights.h"
#include "lattice/lattice.h"

#define MAGIC "CDYNLAT"
#define VERSION 1u
#define HEAD 192u
#define TAIL 8u

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put_f64(unsigned char *p, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    put_u64(p, u);
}

static uint32_t get_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static double get_f64(const unsigned char *p)
{
    uint64_t u = get_u64(p);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* Bytes of a snapshot of W x H sites, or 0 when that overflows size_t. */
static size_t snapshot_bytes(uint64_t w, uint64_t h)
{
    if (w == 0 || h == 0 || w > SIZE_MAX / h)
        return 0;
    uint64_t n = w * h;
    if (n > (SIZE_MAX - HEAD - TAIL) / 8)
        return 0;
    return (size_t)(HEAD + TAIL + 8 * n);
}

cdyn_status cdyn_lattice_snapshot_size(const cdyn_lattice *lat, size_t *out)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, "cdyn_lattice_snapshot_size",
                                  "out is NULL");
    *out = snapshot_bytes(lat->w, lat->h);
    return CDYN_OK;
}

cdyn_status cdyn_lattice_save(const cdyn_lattice *lat, void *buffer, size_t capacity,
                              size_t *written)
{
    static const char fn[] = "cdyn_lattice_save";
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!buffer)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "buffer is NULL");
    size_t size = snapshot_bytes(lat->w, lat->h);
    if (capacity < size)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "capacity %zu is below the snapshot's %zu bytes", capacity,
                                  size);
    unsigned char *p = buffer;
    memset(p, 0, HEAD);
    memcpy(p, MAGIC, sizeof MAGIC);
    put_u32(p + 8, VERSION);
    put_u64(p + 16, lat->w);
    put_u64(p + 24, lat->h);
    const double params[5] = {lat->E, lat->D, lat->M, lat->S, lat->R};
    for (int i = 0; i < 5; i++)
        put_f64(p + 32 + 8 * i, params[i]);
    put_u64(p + 72, lat->walk_cap);
    put_u32(p + 80, lat->periodic);
    put_u32(p + 84, lat->needs_relax);
    for (int i = 0; i < 4; i++)
        put_u64(p + 88 + 8 * i, lat->rng.s[i]);
    const cdyn_lattice_counters *c = &lat->counters;
    const uint64_t counts[7] = {c->drops,         c->walk_steps, c->sites_eroded, c->pit_moves,
                                c->capped_walks, c->slides,     c->slide_rounds};
    for (int i = 0; i < 7; i++)
        put_u64(p + 120 + 8 * i, counts[i]);
    put_f64(p + 176, c->total_eroded);
    put_f64(p + 184, c->total_slid);
    for (size_t i = 0; i < lat->n; i++)
        put_f64(p + HEAD + 8 * i, lat->height[i]);
    put_u64(p + size - TAIL, fnv1a(p, size - TAIL));
    if (written)
        *written = size;
    return CDYN_OK;
}

/* The header's sizes and the checksum: CDYN_OK when the buffer is a whole,
 * intact snapshot of this format. */
static cdyn_status check_buffer(const unsigned char *p, size_t size)
{
    if (size < HEAD + TAIL || memcmp(p, MAGIC, sizeof MAGIC) != 0)
        return CDYN_ERR_FORMAT;
    if (get_u32(p + 8) != VERSION || get_u32(p + 12) != 0)
        return CDYN_ERR_FORMAT;
    size_t want = snapshot_bytes(get_u64(p + 16), get_u64(p + 24));
    if (want == 0 || size != want)
        return CDYN_ERR_FORMAT; /* truncated, trailing bytes or absurd sizes */
    if (get_u64(p + size - TAIL) != fnv1a(p, size - TAIL))
        return CDYN_ERR_FORMAT;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_load(const void *buffer, size_t size, const cdyn_allocator *alloc,
                              cdyn_lattice **out)
{
    if (!out)
        return CDYN_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!buffer)
        return CDYN_ERR_INVALID_ARGUMENT;
    const unsigned char *p = buffer;
    cdyn_status st = check_buffer(p, size);
    if (st)
        return st;
    /* The sizes cdyn_lattice_create accepts, so that its refusal can only be
     * about the allocator. */
    uint64_t w = get_u64(p + 16), h = get_u64(p + 24);
    if (w < 2 || h < 2 || w * h > UINT32_MAX) /* w * h fits: snapshot_bytes checked */
        return CDYN_ERR_FORMAT;
    cdyn_lattice *lat;
    if ((st = cdyn_lattice_create((size_t)w, (size_t)h, 1, alloc, &lat)))
        return st;
    /* The setters check every value as they would from a caller. */
    const cdyn_lattice_param which[5] = {CDYN_LATTICE_E, CDYN_LATTICE_D, CDYN_LATTICE_M,
                                         CDYN_LATTICE_S, CDYN_LATTICE_R};
    for (int i = 0; i < 5 && !st; i++)
        st = cdyn_lattice_set_param(lat, which[i], get_f64(p + 32 + 8 * i));
    uint32_t periodic = get_u32(p + 80), relax = get_u32(p + 84);
    if (!st)
        st = cdyn_lattice_set_walk_cap(lat, get_u64(p + 72));
    if (!st)
        st = periodic > 1 || relax > 1
                 ? CDYN_ERR_FORMAT
                 : cdyn_lattice_set_boundary(lat, periodic ? CDYN_LATTICE_PERIODIC
                                                           : CDYN_LATTICE_WALLS);
    for (int i = 0; i < 4 && !st; i++)
        lat->rng.s[i] = get_u64(p + 88 + 8 * i);
    if (!st && !(lat->rng.s[0] | lat->rng.s[1] | lat->rng.s[2] | lat->rng.s[3]))
        st = CDYN_ERR_FORMAT; /* xoshiro's one forbidden state */
    for (size_t i = 0; i < lat->n && !st; i++)
        if (!cdyn__lattice_height_ok(lat->height[i] = get_f64(p + HEAD + 8 * i)))
            st = CDYN_ERR_FORMAT;
    if (st) {
        cdyn_lattice_destroy(lat);
        return st == CDYN_ERR_INVALID_ARGUMENT ? CDYN_ERR_FORMAT : st;
    }
    cdyn_lattice_counters *c = &lat->counters;
    uint64_t *counts[7] = {&c->drops,         &c->walk_steps, &c->sites_eroded, &c->pit_moves,
                           &c->capped_walks, &c->slides,     &c->slide_rounds};
    for (int i = 0; i < 7; i++)
        *counts[i] = get_u64(p + 120 + 8 * i);
    c->total_eroded = get_f64(p + 176);
    c->total_slid = get_f64(p + 184);
    cdyn__lattice_heights_replaced(lat);
    lat->needs_relax = relax != 0;
    *out = lat;
    return CDYN_OK;
}
