/* Reading an ESRI ASCII grid into a new lattice.
 *
 * The format: a header of "key value" lines (ncols, nrows, xllcorner or
 * xllcenter, yllcorner or yllcenter, cellsize or dx and dy, optionally
 * NODATA_value; keys in any case and order, each once), then nrows lines of
 * ncols numbers each, the northernmost row (y = nrows - 1) first. Parsing is
 * strict: every malformed line is an error naming its line and field, and
 * the declared size is checked against the text's length before anything
 * is allocated. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "lattice/asc.h"
#include "lattice/heights.h"
#include "lattice/lattice.h"
#include "lattice/terrain.h"

typedef struct reader {
    const char *p, *end;
    size_t line;      /* 1-based line of p */
    const char *fn;   /* the public function, for messages */
    char *err;
    size_t cap;
} reader;

/* Records "fn: line L: message" (or without the line when 0) and returns
 * @p st. */
static cdyn_status fail(reader *r, cdyn_status st, size_t line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static cdyn_status fail(reader *r, cdyn_status st, size_t line, const char *fmt, ...)
{
    if (r->err && r->cap > 0) {
        int k = line ? snprintf(r->err, r->cap, "%s: line %zu: ", r->fn, line)
                     : snprintf(r->err, r->cap, "%s: ", r->fn);
        if (k > 0 && (size_t)k < r->cap) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(r->err + k, r->cap - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return st;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next token on the current line (false at the end of the line). */
static bool token(reader *r, const char **tok, size_t *len)
{
    while (r->p < r->end && is_blank(*r->p))
        r->p++;
    if (r->p == r->end || *r->p == '\n')
        return false;
    *tok = r->p;
    while (r->p < r->end && !is_blank(*r->p) && *r->p != '\n')
        r->p++;
    *len = (size_t)(r->p - *tok);
    return true;
}

/* Moves to the start of the next line (the current one must be used up). */
static void next_line(reader *r)
{
    if (r->p < r->end && *r->p == '\n')
        r->p++;
    r->line++;
}

static bool same_key(const char *tok, size_t len, const char *key)
{
    size_t k = strlen(key);
    if (len != k)
        return false;
    for (size_t i = 0; i < k; i++) {
        char c = tok[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != key[i])
            return false;
    }
    return true;
}

enum { K_NCOLS, K_NROWS, K_XLLCORNER, K_XLLCENTER, K_YLLCORNER, K_YLLCENTER, K_CELLSIZE,
       K_DX, K_DY, K_NODATA, K_COUNT };
static const char *const keys[K_COUNT] = {"ncols",     "nrows",     "xllcorner", "xllcenter",
                                          "yllcorner", "yllcenter", "cellsize",  "dx",
                                          "dy",        "nodata_value"};

typedef struct header {
    bool has[K_COUNT];
    double v[K_COUNT];
    size_t ncols, nrows;
} header;

/* Shows at most 24 characters of a token in a message. */
#define TOK_FMT "'%.*s'"
#define TOK_ARG(t, n) (int)((n) < 24 ? (n) : 24), (t)

static cdyn_status read_header(reader *r, header *hd)
{
    memset(hd, 0, sizeof *hd);
    for (;;) {
        const char *save = r->p, *tok;
        size_t len;
        if (!token(r, &tok, &len)) {
            if (r->p == r->end)
                return fail(r, CDYN_ERR_FORMAT, r->line, "the file ends in the header");
            return fail(r, CDYN_ERR_FORMAT, r->line, "empty line in the header");
        }
        if (!((tok[0] >= 'a' && tok[0] <= 'z') || (tok[0] >= 'A' && tok[0] <= 'Z'))) {
            r->p = save; /* the first row of data */
            break;
        }
        int k = 0;
        while (k < K_COUNT && !same_key(tok, len, keys[k]))
            k++;
        if (k == K_COUNT)
            return fail(r, CDYN_ERR_FORMAT, r->line, "field 1: unknown header key " TOK_FMT,
                        TOK_ARG(tok, len));
        if (hd->has[k])
            return fail(r, CDYN_ERR_FORMAT, r->line, "field 1: %s given twice", keys[k]);
        const char *val;
        size_t vlen;
        if (!token(r, &val, &vlen))
            return fail(r, CDYN_ERR_FORMAT, r->line, "field 2: %s has no value", keys[k]);
        if (k == K_NCOLS || k == K_NROWS) {
            size_t *c = k == K_NCOLS ? &hd->ncols : &hd->nrows;
            if (!cdyn__asc_parse_count(val, vlen, UINT32_MAX, c))
                return fail(r, CDYN_ERR_FORMAT, r->line,
                            "field 2: %s " TOK_FMT " is not a whole number in 1 .. %u",
                            keys[k], TOK_ARG(val, vlen), (unsigned)UINT32_MAX);
        } else if (!cdyn__asc_parse_double(val, vlen, &hd->v[k])) {
            return fail(r, CDYN_ERR_FORMAT, r->line, "field 2: %s " TOK_FMT " is not a number",
                        keys[k], TOK_ARG(val, vlen));
        }
        const char *extra;
        size_t elen;
        if (token(r, &extra, &elen))
            return fail(r, CDYN_ERR_FORMAT, r->line, "field 3: unexpected " TOK_FMT
                        " after the value of %s", TOK_ARG(extra, elen), keys[k]);
        hd->has[k] = true;
        next_line(r);
    }
    /* What is missing or contradicts itself. */
    static const int required[2] = {K_NCOLS, K_NROWS};
    for (int i = 0; i < 2; i++)
        if (!hd->has[required[i]])
            return fail(r, CDYN_ERR_FORMAT, 0, "the header has no %s", keys[required[i]]);
    for (int axis = 0; axis < 2; axis++) {
        int corner = axis ? K_YLLCORNER : K_XLLCORNER, center = corner + 1;
        if (hd->has[corner] == hd->has[center])
            return fail(r, CDYN_ERR_FORMAT, 0, "the header needs exactly one of %s and %s",
                        keys[corner], keys[center]);
    }
    if (hd->has[K_CELLSIZE] == (hd->has[K_DX] || hd->has[K_DY]) ||
        hd->has[K_DX] != hd->has[K_DY])
        return fail(r, CDYN_ERR_FORMAT, 0, "the header needs cellsize, or dx and dy");
    return CDYN_OK;
}

/* The rows, top first, into the lattice's heights and a no-data mask. */
static cdyn_status read_rows(reader *r, const header *hd, cdyn_lattice *lat, uint8_t *holes)
{
    size_t w = hd->ncols, h = hd->nrows;
    bool has_nodata = hd->has[K_NODATA];
    double nodata = hd->v[K_NODATA];
    for (size_t row = 0; row < h; row++) {
        size_t y = h - 1 - row, line = r->line;
        for (size_t x = 0; x < w; x++) {
            const char *tok;
            size_t len;
            if (!token(r, &tok, &len)) {
                if (x == 0 && r->p == r->end)
                    return fail(r, CDYN_ERR_FORMAT, line,
                                "the data ends after %zu of %zu rows", row, h);
                return fail(r, CDYN_ERR_FORMAT, line, "row %zu has %zu values, ncols is %zu",
                            row + 1, x, w);
            }
            double v;
            if (!cdyn__asc_parse_double(tok, len, &v))
                return fail(r, CDYN_ERR_FORMAT, line, "field %zu: " TOK_FMT " is not a number",
                            x + 1, TOK_ARG(tok, len));
            size_t i = y * w + x;
            if (has_nodata && v == nodata) {
                holes[i] = 1;
                lat->height[i] = 0;
            } else if (!cdyn__lattice_height_ok(v)) {
                return fail(r, CDYN_ERR_FORMAT, line,
                            "field %zu: height %g is outside [-%g, %g]", x + 1, v,
                            CDYN_LATTICE_HEIGHT_MAX, CDYN_LATTICE_HEIGHT_MAX);
            } else {
                lat->height[i] = v;
            }
        }
        const char *extra;
        size_t elen;
        if (token(r, &extra, &elen))
            return fail(r, CDYN_ERR_FORMAT, line, "row %zu has more than %zu values", row + 1, w);
        next_line(r);
    }
    /* Only blank space may follow. */
    for (;;) {
        const char *extra;
        size_t elen;
        if (token(r, &extra, &elen))
            return fail(r, CDYN_ERR_FORMAT, r->line, "data after the last of %zu rows", h);
        if (r->p == r->end)
            return CDYN_OK;
        next_line(r);
    }
}

/* The settings from the header, checked as their setters check them. */
static cdyn_status apply_header(reader *r, const header *hd, cdyn_lattice *lat)
{
    double dx = hd->has[K_CELLSIZE] ? hd->v[K_CELLSIZE] : hd->v[K_DX];
    double dy = hd->has[K_CELLSIZE] ? hd->v[K_CELLSIZE] : hd->v[K_DY];
    if (cdyn_lattice_set_cell_size(lat, dx, dy) != CDYN_OK)
        return fail(r, CDYN_ERR_FORMAT, 0, "the cell size %g x %g is outside [1e-100, 1e100]",
                    dx, dy);
    /* A centre names the middle of the lower-left cell: the corner is half
     * a cell further down and left. */
    double x0 = hd->has[K_XLLCORNER] ? hd->v[K_XLLCORNER] : hd->v[K_XLLCENTER] - dx / 2;
    double y0 = hd->has[K_YLLCORNER] ? hd->v[K_YLLCORNER] : hd->v[K_YLLCENTER] - dy / 2;
    if (cdyn_lattice_set_origin(lat, x0, y0) != CDYN_OK)
        return fail(r, CDYN_ERR_FORMAT, 0, "the origin (%g, %g) is not finite", x0, y0);
    /* Water leaves a map at its edges and where its data ends. */
    lat->outlet_edges = CDYN__LATTICE_EDGES_ALL;
    return CDYN_OK;
}

static cdyn_status read_text(reader *r, const cdyn_allocator *alloc, cdyn_lattice **out)
{
    header hd;
    cdyn_status st = read_header(r, &hd);
    if (st)
        return st;
    size_t w = hd.ncols, h = hd.nrows;
    if (w < 2 || h < 2)
        return fail(r, CDYN_ERR_FORMAT, 0, "%zu x %zu cells: a lattice needs at least 2 x 2",
                    w, h);
    /* Each value takes two bytes at least ("0 "): refuse sizes the text
     * cannot hold before allocating for them. */
    size_t left = (size_t)(r->end - r->p);
    if (w > left / 2 + 1 || h > (left / 2 + 1) / w)
        return fail(r, CDYN_ERR_FORMAT, 0,
                    "ncols %zu x nrows %zu declares more values than the %zu bytes after the "
                    "header can hold",
                    w, h, left);
    if ((uint64_t)w * h > UINT32_MAX)
        return fail(r, CDYN_ERR_FORMAT, 0, "%zu x %zu cells: more than 2^32 - 1", w, h);
    cdyn_lattice *lat;
    if ((st = cdyn_lattice_create(w, h, 0, alloc, &lat)))
        return fail(r, st, 0, "no memory for %zu x %zu cells", w, h); /* alloc is valid */
    uint8_t *holes = cdyn__calloc_array(&lat->alloc, w * h, 1);
    if (!holes) {
        cdyn_lattice_destroy(lat);
        return fail(r, CDYN_ERR_NO_MEMORY, 0, "no memory for %zu x %zu cells", w, h);
    }
    st = read_rows(r, &hd, lat, holes);
    if (!st)
        st = apply_header(r, &hd, lat);
    if (!st) {
        size_t n = w * h, k = 0;
        for (size_t i = 0; i < n; i++)
            k += holes[i];
        if (k == n)
            st = fail(r, CDYN_ERR_FORMAT, 0, "every cell is NODATA_value");
        else if (k > 0 && cdyn_lattice_set_nodata_mask(lat, holes, n) != CDYN_OK)
            st = fail(r, CDYN_ERR_NO_MEMORY, 0, "no memory for the no-data mask");
    }
    cdyn__free_array(&lat->alloc, holes, w * h, 1);
    if (st) {
        cdyn_lattice_destroy(lat);
        return st;
    }
    cdyn__lattice_heights_replaced(lat);
    *out = lat;
    return CDYN_OK;
}

cdyn_status cdyn_lattice_read_asc(const char *text, size_t length, const cdyn_allocator *alloc,
                                  cdyn_lattice **out, char *error, size_t error_capacity)
{
    reader r = {text, text + length, 1, "cdyn_lattice_read_asc", error, error_capacity};
    if (error && error_capacity > 0)
        error[0] = '\0';
    if (!out)
        return fail(&r, CDYN_ERR_INVALID_ARGUMENT, 0, "out is NULL");
    *out = NULL;
    if (!text)
        return fail(&r, CDYN_ERR_INVALID_ARGUMENT, 0, "text is NULL");
    cdyn_allocator a;
    if (!cdyn__allocator_init(&a, alloc))
        return fail(&r, CDYN_ERR_INVALID_ARGUMENT, 0, "the allocator lacks alloc or free");
    return read_text(&r, &a, out);
}

cdyn_status cdyn_lattice_read_asc_file(const char *path, const cdyn_allocator *alloc,
                                       cdyn_lattice **out, char *error, size_t error_capacity)
{
    reader r = {NULL, NULL, 1, "cdyn_lattice_read_asc_file", error, error_capacity};
    cdyn_allocator a;
    if (error && error_capacity > 0)
        error[0] = '\0';
    if (!out)
        return fail(&r, CDYN_ERR_INVALID_ARGUMENT, 0, "out is NULL");
    *out = NULL;
    if (!path)
        return fail(&r, CDYN_ERR_INVALID_ARGUMENT, 0, "path is NULL");
    if (!cdyn__allocator_init(&a, alloc))
        return fail(&r, CDYN_ERR_INVALID_ARGUMENT, 0, "the allocator lacks alloc or free");
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(&r, CDYN_ERR_IO, 0, "cannot open '%s' for reading", path);
    /* The whole file, in a buffer that doubles as it fills. */
    size_t cap = 1 << 16, len = 0;
    char *buf = cdyn__alloc_array(&a, cap, 1);
    cdyn_status st = buf ? CDYN_OK : CDYN_ERR_NO_MEMORY;
    while (!st) {
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        char *bigger = cap <= SIZE_MAX / 2 ? cdyn__alloc_array(&a, 2 * cap, 1) : NULL;
        if (!bigger) {
            st = CDYN_ERR_NO_MEMORY;
            break;
        }
        memcpy(bigger, buf, len);
        cdyn__free_array(&a, buf, cap, 1);
        buf = bigger;
        cap *= 2;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (st == CDYN_ERR_NO_MEMORY)
        st = fail(&r, st, 0, "no memory to read '%s' (%zu bytes so far)", path, len);
    else if (bad)
        st = fail(&r, CDYN_ERR_IO, 0, "cannot read '%s'", path);
    else {
        r.p = buf;
        r.end = buf + len;
        st = read_text(&r, &a, out);
    }
    cdyn__free_array(&a, buf, cap, 1);
    return st;
}
