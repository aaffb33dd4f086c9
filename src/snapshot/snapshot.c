/* Snapshots of a system: the public calls, the header, the framing of the
 * sections and the checksum (docs/snapshots.md).
 *
 *     0   magic "CDYNSYS\0"               8 bytes
 *     8   format version                   u32
 *     12  flags (0)                        u32
 *     16  total size in bytes              u64
 *     24  dimension                        u32
 *     28  section count                    u32
 *     32  sections, each: u32 id, u32 0, u64 length, payload padded with
 *         zeros to a multiple of 8 bytes
 *     end - 8  checksum                    u64 (snapshot/wire.h) of every
 *                                          byte before it
 *
 * Integers are little-endian, doubles their IEEE 754 bits. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/system.h"
#include "snapshot/snapshot.h"

#define MAGIC "CDYNSYS"
#define HEAD 32u
#define TAIL 8u

/* In the format's order; a section may read what those before it loaded. */
const cdyn__section cdyn__sections[] = {
    {1, "system", cdyn__save_system, cdyn__load_system},
    {2, "particles", cdyn__save_particles, cdyn__load_particles},
    {3, "forces", cdyn__save_forces, cdyn__load_forces},
    {4, "constraints", cdyn__save_constraints, cdyn__load_constraints},
    {5, "grounds", cdyn__save_grounds, cdyn__load_grounds},
    {6, "rigid bodies", cdyn__save_rigids, cdyn__load_rigids},
    {7, "kinematic particles", cdyn__save_kinematics, cdyn__load_kinematics},
    {8, "multipliers", cdyn__save_multipliers, cdyn__load_multipliers},
    {9, "integrators", cdyn__save_integrators, cdyn__load_integrators},
    {10, "projection", cdyn__save_projection, cdyn__load_projection},
    {11, "box", cdyn__save_box, cdyn__load_box},
    {12, "thermostat", cdyn__save_thermostat, cdyn__load_thermostat},
    {13, "kept forces", cdyn__save_kept_forces, cdyn__load_kept_forces},
};
const size_t cdyn__n_sections = sizeof cdyn__sections / sizeof cdyn__sections[0];

/* --- saving ------------------------------------------------------------------ */

/* The whole snapshot through @p S's writer (counting past its capacity). */
static void write_snapshot(cdyn__save *S)
{
    cdyn__wout *w = &S->w;
    for (size_t i = 0; i < sizeof MAGIC; i++)
        cdyn__out_u8(w, (uint8_t)MAGIC[i]);
    cdyn__out_u32(w, CDYN__SNAPSHOT_VERSION);
    cdyn__out_u32(w, 0);
    cdyn__out_u64(w, 0); /* the total, patched below */
    cdyn__out_u32(w, (uint32_t)S->sys->dim);
    cdyn__out_u32(w, (uint32_t)cdyn__n_sections);
    for (size_t i = 0; i < cdyn__n_sections; i++) {
        cdyn__out_u32(w, cdyn__sections[i].id);
        cdyn__out_u32(w, 0);
        size_t at = w->len;
        cdyn__out_u64(w, 0);
        cdyn__sections[i].save(S);
        cdyn__out_pad(w);
        cdyn__out_patch_u64(w, at, (uint64_t)(w->len - at - 8));
    }
    cdyn__out_patch_u64(w, 16, (uint64_t)(w->len + TAIL));
    uint64_t sum = w->p && w->len <= w->cap ? cdyn__checksum(w->p, w->len) : 0;
    cdyn__out_u64(w, sum);
}

cdyn_status cdyn_system_snapshot_size(const cdyn_system *sys, size_t *out)
{
    cdyn_status st = cdyn__enter_query(sys, out, "system_snapshot_size");
    if (st)
        return st;
    cdyn__save S = {{NULL, 0, 0}, sys, NULL, 0};
    write_snapshot(&S);
    *out = S.w.len;
    return CDYN_OK;
}

cdyn_status cdyn_system_save(const cdyn_system *sys, void *buffer, size_t capacity,
                             size_t *written)
{
    const char *what = "system_save";
    cdyn_status st = cdyn__enter_query(sys, buffer, what);
    if (st)
        return st;
    if (sys->in_step)
        return cdyn__fail(sys, CDYN_ERR_BUSY,
                          "%s: the system is inside a step (called from a callback)", what);
    cdyn__save S = {{buffer, capacity, 0}, sys, NULL, 0};
    write_snapshot(&S);
    if (S.w.len > capacity)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: capacity %zu < %zu bytes needed (cdyn_system_snapshot_size)", what,
                          capacity, S.w.len);
    if (written)
        *written = S.w.len;
    return CDYN_OK;
}

/* --- loading ------------------------------------------------------------------ */

bool cdyn__load_fail(cdyn__load *L, cdyn_status status, const char *fmt, ...)
{
    if (L->r.failed)
        return false;
    char why[sizeof L->r.why];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    L->status = status;
    return cdyn__in_fail(&L->r, "%s", why);
}

bool cdyn__load_oom(cdyn__load *L, const char *what)
{
    return cdyn__load_fail(L, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const unsigned char *p)
{
    return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

/* The frame of a snapshot: magic, a version this library reads, the size,
 * the checksum. CDYN_OK with *version and *dim, else a message in @p why. */
static cdyn_status check_frame(const unsigned char *p, size_t size, uint32_t *version,
                               int *dim, char *why, size_t why_len, size_t *where)
{
    *where = 0;
    if (size < HEAD + TAIL || memcmp(p, MAGIC, sizeof MAGIC) != 0) {
        snprintf(why, why_len, "not a system snapshot (%zu bytes, magic missing)", size);
        return CDYN_ERR_FORMAT;
    }
    *version = get_u32(p + 8);
    *where = 8;
    if (*version == 0 || *version > CDYN__SNAPSHOT_VERSION) {
        snprintf(why, why_len, "format version %u is not one this library reads (1 to %u)",
                 *version, CDYN__SNAPSHOT_VERSION);
        return CDYN_ERR_FORMAT;
    }
    uint64_t total = get_u64(p + 16);
    *where = 16;
    if (total != size || size % 8 != 0) {
        snprintf(why, why_len, "the snapshot says %llu bytes, the buffer has %zu "
                               "(truncated or trailing bytes)", (unsigned long long)total, size);
        return CDYN_ERR_FORMAT;
    }
    *where = size - TAIL;
    if (get_u64(p + size - TAIL) != cdyn__checksum(p, size - TAIL)) {
        snprintf(why, why_len, "the checksum does not match: the snapshot is damaged");
        return CDYN_ERR_FORMAT;
    }
    uint32_t flags = get_u32(p + 12), d = get_u32(p + 24), n = get_u32(p + 28);
    *where = 12;
    if (flags != 0 || (d != 2 && d != 3) || n != cdyn__n_sections) {
        snprintf(why, why_len, "flags 0x%x, dimension %u or %u sections out of range", flags, d,
                 n);
        return CDYN_ERR_FORMAT;
    }
    *dim = (int)d;
    return CDYN_OK;
}

/* Reads every section into L->sys; false at the first failure. */
static bool read_sections(cdyn__load *L, size_t size)
{
    cdyn__win *r = &L->r;
    r->pos = HEAD;
    for (size_t i = 0; i < cdyn__n_sections; i++) {
        const cdyn__section *sec = &cdyn__sections[i];
        r->end = size - TAIL;
        uint32_t id = cdyn__in_u32(r), zero = cdyn__in_u32(r);
        uint64_t len = cdyn__in_u64(r);
        if (!cdyn__load_ok(L))
            return false;
        if (id != sec->id || zero != 0 || len % 8 != 0 || len > r->end - r->pos)
            return cdyn__in_fail(r, "section %zu is not the %s section (id %u, length %llu)",
                                 i + 1, sec->name, id, (unsigned long long)len);
        r->end = r->pos + (size_t)len;
        if (!sec->load(L))
            return false;
        cdyn__in_pad(r);
        if (cdyn__load_ok(L) && r->pos != r->end)
            return cdyn__in_fail(r, "%s section: %zu bytes left over", sec->name,
                                 r->end - r->pos);
        if (!cdyn__load_ok(L))
            return false;
    }
    return true;
}

/* Copies the report's first @p report->size bytes. */
static void give_report(cdyn_snapshot_report *report, const cdyn_snapshot_report *full)
{
    if (!report || report->size < sizeof(size_t))
        return;
    size_t n = report->size < sizeof *full ? report->size : sizeof *full;
    memcpy((char *)report + sizeof(size_t), (const char *)full + sizeof(size_t),
           n - sizeof(size_t));
}

/* A load from @p buffer with the bindings of a clone (@p bind, @p n_bind)
 * or the options' resolver; the report is filled whatever happens. */
static cdyn_status load(const void *buffer, size_t size, const cdyn_allocator *allocator,
                        const cdyn_snapshot_options *options,
                        const cdyn_callback_binding *bind, size_t n_bind,
                        cdyn_snapshot_report *rep, cdyn_system **out)
{
    const unsigned char *p = buffer;
    uint32_t version;
    int dim;
    size_t where;
    cdyn_status st = check_frame(p, size, &version, &dim, rep->message, sizeof rep->message,
                                 &where);
    if (st) {
        rep->offset = where;
        return st;
    }
    cdyn__load L;
    memset(&L, 0, sizeof L);
    L.r.p = p;
    L.r.end = size - TAIL;
    L.size = size;
    L.version = version;
    L.status = CDYN_ERR_FORMAT;
    L.bind = bind;
    L.n_bind = n_bind;
    if (options) {
        L.resolve = options->resolve;
        L.resolve_user = options->resolve_user;
    }
    if ((st = cdyn_system_create_with_allocator(dim, allocator, &L.sys))) {
        snprintf(rep->message, sizeof rep->message, "%s",
                 st == CDYN_ERR_NO_MEMORY ? "out of memory for the system"
                                          : "the allocator lacks alloc or free");
        return st;
    }
    if (!read_sections(&L, size) || (bind && L.next_bind != n_bind &&
                                     cdyn__in_fail(&L.r, "callbacks left over"))) {
        cdyn_system_destroy(L.sys);
        snprintf(rep->message, sizeof rep->message, "%s", L.r.why);
        rep->offset = L.r.fail_at;
        rep->callback_kind = L.miss_kind;
        rep->callback_tag = L.miss_tag;
        return L.status;
    }
    *out = L.sys;
    return CDYN_OK;
}

cdyn_status cdyn_system_load(const void *buffer, size_t size,
                             const cdyn_snapshot_options *options, cdyn_snapshot_report *report,
                             cdyn_system **out)
{
    cdyn_snapshot_report rep;
    memset(&rep, 0, sizeof rep);
    rep.size = sizeof rep;
    cdyn_status st = CDYN_ERR_INVALID_ARGUMENT;
    if (out)
        *out = NULL;
    if (!out || !buffer)
        snprintf(rep.message, sizeof rep.message, "NULL argument");
    else if (options && options->size != sizeof *options)
        snprintf(rep.message, sizeof rep.message,
                 "options.size %zu is not sizeof(cdyn_snapshot_options) = %zu (fill it with "
                 "cdyn_snapshot_options_init)", options->size, sizeof *options);
    else
        st = load(buffer, size, options ? options->allocator : NULL, options, NULL, 0, &rep, out);
    if (st) {
        char why[sizeof rep.message];
        memcpy(why, rep.message, sizeof why);
        snprintf(rep.message, sizeof rep.message, "system_load: %.*s",
                 (int)(sizeof rep.message - sizeof "system_load: "), why);
    }
    give_report(report, &rep);
    return st;
}

cdyn_status cdyn_system_clone(const cdyn_system *sys, const cdyn_allocator *allocator,
                              cdyn_system **out)
{
    const char *what = "system_clone";
    if (out)
        *out = NULL; /* on every failure, a NULL system's included */
    cdyn_status st = cdyn__enter_query(sys, out, what);
    if (st)
        return st;
    if (sys->in_step)
        return cdyn__fail(sys, CDYN_ERR_BUSY,
                          "%s: the system is inside a step (called from a callback)", what);
    cdyn_allocator a;
    if (!cdyn__allocator_init(&a, allocator ? allocator : &sys->alloc))
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: the allocator lacks alloc or free", what);
    /* Sizing pass, then the bytes and the callbacks in the copy's memory. */
    cdyn__save S = {{NULL, 0, 0}, sys, NULL, 0};
    write_snapshot(&S);
    size_t size = S.w.len, n_bind = S.n_bind;
    unsigned char *buf = cdyn__alloc_array(&a, size, 1);
    cdyn_callback_binding *bind = n_bind ? cdyn__alloc_array(&a, n_bind, sizeof *bind) : NULL;
    if (!buf || (n_bind && !bind)) {
        cdyn__free_array(&a, buf, size, 1);
        cdyn__free_array(&a, bind, n_bind, sizeof *bind);
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory for %zu bytes", what, size);
    }
    S = (cdyn__save){{buf, size, 0}, sys, bind, 0};
    write_snapshot(&S);
    cdyn_snapshot_report rep;
    memset(&rep, 0, sizeof rep);
    st = load(buf, size, &a, NULL, bind, n_bind, &rep, out);
    cdyn__free_array(&a, buf, size, 1);
    cdyn__free_array(&a, bind, n_bind, sizeof *bind);
    if (st)
        return cdyn__fail(sys, st, "%s: %s", what, rep.message);
    return CDYN_OK;
}
