/* Snapshots of a lattice: everything the next rain, drainage or statistics
 * depends on, in a byte buffer that is the same on every platform.
 *
 * Layout (format version 2), all integers and doubles little-endian
 * (doubles as their IEEE 754 bits), offsets in bytes:
 *
 *     0  magic "CDYNLAT\0"          8
 *     8  format version (2)         u32, then a reserved 0 u32
 *    16  width, height              u64 x 2
 *    32  E, D, M, S, R              f64 x 5
 *    72  walk cap                   u64
 *    80  periodic, needs_relax      u32 x 2
 *    88  generator state            u64 x 4
 *   120  counters: drops, walk steps, sites eroded, pit moves, capped
 *        walks, slides, slide rounds (u64 x 7), total eroded, total
 *        slid (f64 x 2), capped cascades (u64)
 *   200  slide rule                 u32, then a reserved 0 u32
 *   208  routing, outlet edges      u32 x 2
 *   216  cell size dx, dy           f64 x 2
 *   232  origin x, y                f64 x 2
 *   248  masks present (0 or 1)     u32, then a reserved 0 u32
 *   256  pending sites P            u64
 *   264  heights, row-major         f64 x W H
 *        masks, if present          u8 x W H: bit 0 outlet, bit 1 no-data
 *        pending sites, in order    u32 x P
 *        checksum                   u64: FNV-1a 64 of every byte before it
 *
 * The rain scratch (visit stamps, work lists) and the drainage cache are
 * not saved: they hold nothing between drops that changes a result. A
 * buffer is checked whole (size, magic, version, checksum, every value in
 * the range its setter accepts) before anything is allocated beyond the
 * lattice that its own length pays for. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "lattice/heights.h"
#include "lattice/lattice.h"
#include "lattice/params.h"
#include "lattice/snapshot_bytes.h"
#include "lattice/terrain.h"

#define MAGIC "CDYNLAT"
#define VERSION 2u
#define HEAD 264u
#define TAIL 8u

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* Bytes of a snapshot of W x H sites with P pending sites and the masks or
 * not, or 0 when that overflows size_t or P > W H. */
static size_t snapshot_bytes(uint64_t w, uint64_t h, uint64_t pending, bool masks)
{
    if (w == 0 || h == 0 || w > SIZE_MAX / h)
        return 0;
    uint64_t n = w * h;
    if (pending > n || n > (SIZE_MAX - HEAD - TAIL) / 13)
        return 0;
    return (size_t)(HEAD + TAIL + (masks ? 9 : 8) * n + 4 * pending);
}

cdyn_status cdyn_lattice_snapshot_size(const cdyn_lattice *lat, size_t *out)
{
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, "cdyn_lattice_snapshot_size",
                                  "out is NULL");
    *out = snapshot_bytes(lat->w, lat->h, lat->pending, lat->cell != NULL);
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
    size_t size = snapshot_bytes(lat->w, lat->h, lat->pending, lat->cell != NULL);
    if (capacity < size)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "capacity %zu is below the snapshot's %zu bytes", capacity,
                                  size);
    cdyn__wbuf b = {buffer, 0};
    cdyn__put_bytes(&b, MAGIC, sizeof MAGIC);
    cdyn__put_u32(&b, VERSION);
    cdyn__put_u32(&b, 0);
    cdyn__put_u64(&b, lat->w);
    cdyn__put_u64(&b, lat->h);
    const double params[5] = {lat->E, lat->D, lat->M, lat->S, lat->R};
    for (int i = 0; i < 5; i++)
        cdyn__put_f64(&b, params[i]);
    cdyn__put_u64(&b, lat->walk_cap);
    cdyn__put_u32(&b, lat->periodic);
    cdyn__put_u32(&b, lat->needs_relax);
    for (int i = 0; i < 4; i++)
        cdyn__put_u64(&b, lat->rng.s[i]);
    const cdyn_lattice_counters *c = &lat->counters;
    const uint64_t counts[7] = {c->drops,         c->walk_steps, c->sites_eroded, c->pit_moves,
                                c->capped_walks, c->slides,     c->slide_rounds};
    for (int i = 0; i < 7; i++)
        cdyn__put_u64(&b, counts[i]);
    cdyn__put_f64(&b, c->total_eroded);
    cdyn__put_f64(&b, c->total_slid);
    cdyn__put_u64(&b, c->capped_cascades);
    cdyn__put_u32(&b, (uint32_t)lat->slide_rule);
    cdyn__put_u32(&b, 0);
    cdyn__put_u32(&b, (uint32_t)lat->routing);
    cdyn__put_u32(&b, lat->outlet_edges);
    cdyn__put_f64(&b, lat->dx);
    cdyn__put_f64(&b, lat->dy);
    cdyn__put_f64(&b, lat->x0);
    cdyn__put_f64(&b, lat->y0);
    cdyn__put_u32(&b, lat->cell != NULL);
    cdyn__put_u32(&b, 0);
    cdyn__put_u64(&b, lat->pending);
    for (size_t i = 0; i < lat->n; i++)
        cdyn__put_f64(&b, lat->height[i]);
    if (lat->cell)
        cdyn__put_bytes(&b, lat->cell, lat->n);
    for (size_t k = 0; k < lat->pending; k++)
        cdyn__put_u32(&b, lat->list_b[k]);
    cdyn__put_u64(&b, fnv1a(buffer, size - TAIL));
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
    if (cdyn__get_u32(p + 8) != VERSION || cdyn__get_u32(p + 12) != 0)
        return CDYN_ERR_FORMAT;
    uint32_t masks = cdyn__get_u32(p + 248);
    if (masks > 1)
        return CDYN_ERR_FORMAT;
    size_t want = snapshot_bytes(cdyn__get_u64(p + 16), cdyn__get_u64(p + 24),
                                 cdyn__get_u64(p + 256), masks != 0);
    if (want == 0 || size != want)
        return CDYN_ERR_FORMAT; /* truncated, trailing bytes or absurd sizes */
    if (cdyn__get_u64(p + size - TAIL) != fnv1a(p, size - TAIL))
        return CDYN_ERR_FORMAT;
    return CDYN_OK;
}

/* The terrain settings (routing .. masks present), checked as their
 * setters check them; allocates the masks' bytes when present (paid for
 * by the buffer's length), filled by the caller. */
static cdyn_status read_terrain(cdyn_lattice *lat, cdyn__rbuf *b)
{
    uint32_t routing = cdyn__get_u32_at(b), edges = cdyn__get_u32_at(b);
    double dx = cdyn__get_f64_at(b), dy = cdyn__get_f64_at(b);
    double x0 = cdyn__get_f64_at(b), y0 = cdyn__get_f64_at(b);
    uint32_t masks = cdyn__get_u32_at(b), reserved = cdyn__get_u32_at(b);
    if (reserved != 0 ||
        cdyn_lattice_set_routing(lat, (cdyn_lattice_routing)routing) != CDYN_OK ||
        cdyn_lattice_set_outlet_edges(lat, edges) != CDYN_OK ||
        cdyn_lattice_set_cell_size(lat, dx, dy) != CDYN_OK ||
        cdyn_lattice_set_origin(lat, x0, y0) != CDYN_OK)
        return CDYN_ERR_FORMAT;
    if (masks) {
        lat->cell = cdyn__calloc_array(&lat->alloc, lat->n, 1);
        if (!lat->cell)
            return CDYN_ERR_NO_MEMORY;
    }
    return CDYN_OK;
}

/* The values of an intact buffer into a new lattice: CDYN_ERR_FORMAT for a
 * value its setter refuses. */
static cdyn_status read_values(cdyn_lattice *lat, cdyn__rbuf *b)
{
    cdyn_status st = CDYN_OK;
    b->at += 32; /* magic, version, sizes: checked */
    /* The setters' own checks, without their side effects. */
    const cdyn_lattice_param which[5] = {CDYN_LATTICE_E, CDYN_LATTICE_D, CDYN_LATTICE_M,
                                         CDYN_LATTICE_S, CDYN_LATTICE_R};
    double v[5];
    for (int i = 0; i < 5; i++) {
        v[i] = cdyn__get_f64_at(b);
        if (cdyn__lattice_param_check(NULL, "", which[i], v[i]) != CDYN_OK)
            st = CDYN_ERR_FORMAT;
    }
    uint64_t cap = cdyn__get_u64_at(b);
    uint32_t periodic = cdyn__get_u32_at(b), relax = cdyn__get_u32_at(b);
    if (st || cap == 0 || cap > cdyn__lattice_walk_cap_max(lat) || periodic > 1 || relax > 1 ||
        (periodic && lat->w < 3))
        return CDYN_ERR_FORMAT;
    lat->E = v[0], lat->D = v[1], lat->M = v[2], lat->S = v[3], lat->R = v[4];
    lat->slide_r = 1.0 - 1.0 / lat->S;
    lat->walk_cap = cap;
    lat->periodic = periodic != 0;
    for (int i = 0; i < 4; i++)
        lat->rng.s[i] = cdyn__get_u64_at(b);
    if (!(lat->rng.s[0] | lat->rng.s[1] | lat->rng.s[2] | lat->rng.s[3]))
        return CDYN_ERR_FORMAT; /* xoshiro's one forbidden state */
    cdyn_lattice_counters *c = &lat->counters;
    uint64_t *counts[7] = {&c->drops,         &c->walk_steps, &c->sites_eroded, &c->pit_moves,
                           &c->capped_walks, &c->slides,     &c->slide_rounds};
    for (int i = 0; i < 7; i++)
        *counts[i] = cdyn__get_u64_at(b);
    c->total_eroded = cdyn__get_f64_at(b);
    c->total_slid = cdyn__get_f64_at(b);
    c->capped_cascades = cdyn__get_u64_at(b);
    /* Sums of non-negative amounts (each far below an ulp of DBL_MAX, so
     * they never overflow from a finite start). */
    if (!(c->total_eroded >= 0 && isfinite(c->total_eroded)) ||
        !(c->total_slid >= 0 && isfinite(c->total_slid)))
        return CDYN_ERR_FORMAT;
    uint32_t rule = cdyn__get_u32_at(b);
    if (rule > CDYN_LATTICE_SLIDE_ONCE || cdyn__get_u32_at(b) != 0)
        return CDYN_ERR_FORMAT;
    lat->slide_rule = (cdyn_lattice_slide_rule)rule;
    if ((st = read_terrain(lat, b)))
        return st;
    uint64_t pending = cdyn__get_u64_at(b);
    for (size_t i = 0; i < lat->n; i++)
        if (!cdyn__lattice_height_ok(lat->height[i] = cdyn__get_f64_at(b)))
            return CDYN_ERR_FORMAT;
    cdyn__lattice_heights_replaced(lat);
    lat->needs_relax = relax != 0;
    if (lat->cell) {
        /* Each byte a set of the two bits, some bit set, some site with
         * data: what the mask setters can leave. */
        size_t holes = 0, any = 0;
        for (size_t i = 0; i < lat->n; i++) {
            uint8_t bits = b->p[b->at + i];
            if (bits > (CDYN__LATTICE_CELL_OUTLET | CDYN__LATTICE_CELL_NODATA))
                return CDYN_ERR_FORMAT;
            lat->cell[i] = bits;
            holes += (bits & CDYN__LATTICE_CELL_NODATA) != 0;
            any += bits != 0;
        }
        b->at += lat->n;
        if (any == 0 || holes == lat->n)
            return CDYN_ERR_FORMAT;
    }
    if (pending > 0) {
        /* The pending sites live in the rain scratch, marked: each a site,
         * none twice. The buffer held 4 bytes per site already. */
        if (!cdyn__lattice_rain_scratch(lat))
            return CDYN_ERR_NO_MEMORY;
        for (size_t k = 0; k < pending; k++) {
            uint32_t s = cdyn__get_u32_at(b);
            if (s >= lat->n || (lat->flags[s] & CDYN__LATTICE_QUEUED))
                return CDYN_ERR_FORMAT;
            lat->flags[s] |= CDYN__LATTICE_QUEUED;
            lat->list_b[k] = s;
        }
        lat->pending = (size_t)pending;
    }
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
    uint64_t w = cdyn__get_u64(p + 16), h = cdyn__get_u64(p + 24);
    if (w < 2 || h < 2 || w * h > UINT32_MAX) /* w * h fits: snapshot_bytes checked */
        return CDYN_ERR_FORMAT;
    cdyn_lattice *lat;
    if ((st = cdyn_lattice_create((size_t)w, (size_t)h, 1, alloc, &lat)))
        return st;
    cdyn__rbuf b = {p, 0};
    if ((st = read_values(lat, &b))) {
        cdyn_lattice_destroy(lat);
        return st;
    }
    *out = lat;
    return CDYN_OK;
}
