/* Argument classes: each one's baseline value from the fixture, the bad
 * values it tries and the status each gets unless the row says otherwise. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define H_ALL (BIT(B_H_ZERO) | BIT(B_H_KIND) | BIT(B_H_FOREIGN) | BIT(B_H_STALE) | \
               BIT(B_H_NEVER) | BIT(B_H_ONES))
#define D_ALL (BIT(B_NAN) | BIT(B_INF) | BIT(B_NINF) | BIT(B_ZERO) | BIT(B_NEG) | \
               BIT(B_NTINY) | BIT(B_TINY) | BIT(B_HUGE) | BIT(B_NHUGE) | BIT(B_MAX))
#define V_ALL (BIT(B_NULL) | BIT(B_NAN) | BIT(B_INF) | BIT(B_HUGE) | BIT(B_ZERO))
#define E_ALL (BIT(B_E_BELOW) | BIT(B_E_ABOVE) | BIT(B_E_MIN) | BIT(B_E_MAX))
#define SZ_ALL (BIT(B_NULL) | BIT(B_SZ_ZERO) | BIT(B_SZ_LESS) | BIT(B_SZ_MORE) | BIT(B_SZ_HUGE))

typedef struct cls_info {
    const char *name;
    uint64_t tries, accepts;
} cls_info;

static const cls_info info[A_CLASS_COUNT] = {
    [A_SYS] = {"system", BIT(B_NULL), 0},
    [A_LAT] = {"lattice", BIT(B_NULL), 0},
    [A_KIN] = {"network", BIT(B_NULL), 0},
    [A_JAC] = {"jacobian", BIT(B_NULL), 0},
    [A_PART] = {"particle", H_ALL, 0},
    [A_FORCE] = {"force", H_ALL, 0},
    [A_CONS] = {"constraint", H_ALL, 0},
    [A_GROUND] = {"ground", H_ALL, 0},
    [A_RIGID] = {"rigid body", H_ALL, 0},
    [A_FINITE] = {"double", D_ALL & ~BIT(B_NTINY) & ~BIT(B_TINY),
                  BIT(B_ZERO) | BIT(B_NEG) | BIT(B_HUGE) | BIT(B_NHUGE) | BIT(B_MAX)},
    [A_POS] = {"double > 0", D_ALL & ~BIT(B_NHUGE), BIT(B_TINY) | BIT(B_HUGE) | BIT(B_MAX)},
    [A_NONNEG] = {"double >= 0", D_ALL & ~BIT(B_NHUGE),
                  BIT(B_ZERO) | BIT(B_TINY) | BIT(B_HUGE) | BIT(B_MAX)},
    [A_VEC] = {"vector", V_ALL, BIT(B_HUGE) | BIT(B_ZERO)},
    [A_VEC_NZ] = {"vector (not zero)", V_ALL, BIT(B_HUGE)},
    [A_VEC_OPT] = {"optional vector", V_ALL, BIT(B_NULL) | BIT(B_HUGE) | BIT(B_ZERO)},
    [A_BULK] = {"array", BIT(B_NULL) | BIT(B_NAN) | BIT(B_INF) | BIT(B_NEG) | BIT(B_HUGE) |
                             BIT(B_DEAD_NAN),
                BIT(B_NEG) | BIT(B_HUGE) | BIT(B_DEAD_NAN)},
    [A_OUT] = {"output", BIT(B_NULL), 0},
    [A_OPT] = {"optional output", BIT(B_NULL), BIT(B_NULL)},
    [A_ENUM] = {"enum", E_ALL, 0},
    [A_ENUM_ANY] = {"enum (kept as given)", BIT(B_E_MIN) | BIT(B_E_MAX),
                    BIT(B_E_MIN) | BIT(B_E_MAX)},
    [A_CAP] = {"capacity", BIT(B_CAP_ZERO) | BIT(B_CAP_SHORT) | BIT(B_CAP_HUGE),
               BIT(B_CAP_HUGE)},
    [A_CAP_ANY] = {"capacity (a prefix)", BIT(B_CAP_ZERO) | BIT(B_CAP_SHORT) | BIT(B_CAP_HUGE),
                   BIT(B_CAP_ZERO) | BIT(B_CAP_SHORT) | BIT(B_CAP_HUGE)},
    [A_COUNT] = {"count", BIT(B_CAP_ZERO) | BIT(B_CNT_LESS) | BIT(B_CNT_MORE) | BIT(B_CAP_HUGE),
                 0},
    [A_RANGE] = {"size", BIT(B_Z_BELOW) | BIT(B_Z_ABOVE) | BIT(B_CAP_HUGE), 0},
    [A_INDEX] = {"index", BIT(B_IDX_END) | BIT(B_CAP_HUGE), 0},
    [A_SIZED_GET] = {"report", BIT(B_NULL) | BIT(B_SZ_ZERO) | BIT(B_SZ_SMALL) | BIT(B_SZ_MIN) |
                                   BIT(B_SZ_LESS) | BIT(B_SZ_MORE) | BIT(B_SZ_HUGE),
                     BIT(B_SZ_MIN) | BIT(B_SZ_LESS) | BIT(B_SZ_MORE) | BIT(B_SZ_HUGE)},
    [A_SIZED_SET] = {"options", SZ_ALL, 0},
    [A_DESC] = {"description", SZ_ALL, 0},
    [A_HLIST] = {"handles", BIT(B_NULL) | BIT(B_H_ZERO) | BIT(B_H_KIND) | BIT(B_H_FOREIGN) |
                                BIT(B_H_STALE) | BIT(B_DUP),
                 0},
    [A_FN] = {"callback", BIT(B_NULL), 0},
    [A_FN_OPT] = {"optional callback", BIT(B_NULL), BIT(B_NULL)},
    [A_USER] = {"user pointer", BIT(B_NULL), BIT(B_NULL)},
    [A_BOOL] = {"flag", BIT(B_FLIP), BIT(B_FLIP)},
    [A_U64] = {"count", BIT(B_Z_BELOW) | BIT(B_Z_ABOVE) | BIT(B_CAP_HUGE), 0},
    [A_STR] = {"string", BIT(B_NULL) | BIT(B_EMPTY) | BIT(B_LONG) | BIT(B_TAKEN) | BIT(B_UNKNOWN),
               0},
    [A_ALLOC] = {"allocator", BIT(B_NULL) | BIT(B_NOALLOC) | BIT(B_NOFREE), BIT(B_NULL)},
    [A_OBJ_OUT] = {"object output", BIT(B_NULL), 0},
    [A_BYTES] = {"bytes", BIT(B_NULL) | BIT(B_CORRUPT) | BIT(B_GARBAGE) | BIT(B_IDX_END), 0},
    [A_PATH] = {"path", BIT(B_NULL) | BIT(B_NOFILE), 0},
    [A_KLIST] = {"species", BIT(B_NULL) | BIT(B_IDX_END), 0},
    [A_KCOEF] = {"coefficients", BIT(B_NULL) | BIT(B_COEF_ZERO) | BIT(B_COEF_BIG) | BIT(B_NEG),
                 BIT(B_NULL)},
};

/* As a field of a struct, an array pointer (A_BYTES) is a list of doubles. */
static const cls_info bytes_field = {"array", (V_ALL & ~BIT(B_ZERO)) | BIT(B_DUP), 0};

static const char *const bad_names[B_COUNT_] = {
    [B_NULL] = "NULL",          [B_NAN] = "NaN",
    [B_INF] = "+inf",           [B_NINF] = "-inf",
    [B_ZERO] = "0",             [B_NEG] = "-1",
    [B_NTINY] = "-5e-324",      [B_TINY] = "5e-324",
    [B_HUGE] = "1e300",         [B_NHUGE] = "-1e300",
    [B_MAX] = "DBL_MAX",        [B_H_ZERO] = "handle 0",
    [B_H_KIND] = "a handle of another kind", [B_H_FOREIGN] = "another system's handle",
    [B_H_STALE] = "a removed object's handle", [B_H_NEVER] = "a slot never used",
    [B_H_ONES] = "all ones",    [B_E_BELOW] = "below the range",
    [B_E_ABOVE] = "above the range", [B_E_MIN] = "INT_MIN",
    [B_E_MAX] = "INT_MAX",      [B_CAP_ZERO] = "0",
    [B_CAP_SHORT] = "one short", [B_CAP_HUGE] = "SIZE_MAX",
    [B_CNT_LESS] = "one less",  [B_CNT_MORE] = "one more",
    [B_Z_BELOW] = "below the range", [B_Z_ABOVE] = "above the range",
    [B_IDX_END] = "one past the end", [B_SZ_ZERO] = "size 0",
    [B_SZ_SMALL] = "size below sizeof(size_t)", [B_SZ_MIN] = "size sizeof(size_t)",
    [B_SZ_LESS] = "size one short", [B_SZ_MORE] = "size one more",
    [B_SZ_HUGE] = "size SIZE_MAX", [B_DEAD_NAN] = "NaN at a removed index",
    [B_DUP] = "an entry repeated", [B_FLIP] = "the other value",
    [B_EMPTY] = "\"\"",         [B_LONG] = "300 characters",
    [B_TAKEN] = "a name taken", [B_UNKNOWN] = "an unknown name",
    [B_NOALLOC] = "no alloc",   [B_NOFREE] = "no free",
    [B_CORRUPT] = "corrupt",    [B_GARBAGE] = "garbage",
    [B_NOFILE] = "unreachable", [B_COEF_ZERO] = "coefficient 0",
    [B_COEF_BIG] = "coefficient 1001", [B_ALT0] = "another object",
    [B_ALT1] = "another object", [B_ALT2] = "another object",
};

const char *mx_bad_name(int bad)
{
    return bad >= 0 && bad < B_COUNT_ && bad_names[bad] ? bad_names[bad] : "?";
}

int mx_row_obj(const mx_row *row)
{
    switch (row->args[0].cls) {
    case A_SYS:
        return OBJ_SYS;
    case A_LAT:
        return OBJ_LAT;
    case A_KIN:
        return OBJ_KIN;
    case A_JAC:
        return OBJ_SYS;
    }
    return OBJ_NONE;
}

static bool is_handle(int cls)
{
    return cls >= A_PART && cls <= A_RIGID;
}

static cdyn_status default_status(int bad)
{
    switch (bad) {
    case B_H_STALE:
        return CDYN_ERR_STALE_HANDLE;
    case B_H_ZERO:
    case B_H_KIND:
    case B_H_FOREIGN:
    case B_H_NEVER:
    case B_H_ONES:
        return CDYN_ERR_INVALID_HANDLE;
    case B_NOFILE:
        return CDYN_ERR_IO;
    case B_CORRUPT:
    case B_GARBAGE:
        return CDYN_ERR_FORMAT;
    }
    return CDYN_ERR_INVALID_ARGUMENT;
}

/* ---- enumeration ---- */

static size_t add(mx_case *out, size_t n, size_t cap, int arg, int field, int bad)
{
    if (n < cap)
        out[n] = (mx_case){arg, field, bad};
    return n + 1;
}

/* Values that would be no case at all here (a capacity of 0 when nothing is
 * needed) or that the argument cannot carry. */
static bool applies(mx_ctx *c, const mx_arg *a, int bad)
{
    size_t need = 0;
    switch (a->cls) {
    case A_CAP:
    case A_CAP_ANY:
    case A_COUNT:
        need = mx_need(c, a->role);
        if (bad == B_CAP_ZERO)
            return need > 0;
        if (bad == B_CAP_SHORT || bad == B_CNT_LESS)
            return need > 1;
        return true;
    case A_RANGE:
    case A_U64:
        if (bad == B_Z_BELOW)
            return a->base > 0;
        return true;
    case A_BULK:
        if (bad == B_DEAD_NAN)
            return a->role == V_ALL_X || a->role == V_ALL_V || a->role == V_ALL_F;
        return true;
    case A_STR:
        if (a->role == STR_NEW)
            return bad != B_UNKNOWN;
        return bad == B_NULL || bad == B_UNKNOWN;
    case A_BYTES:
        switch (a->role) {
        case BYTES_SNAPSHOT:
            return bad == B_NULL || bad == B_CORRUPT;
        case BYTES_ASC:
            return bad == B_NULL || bad == B_GARBAGE;
        case BYTES_RECEIVERS:
            return bad == B_NULL || bad == B_IDX_END || bad == B_CORRUPT;
        case BYTES_MASK:
            return bad == B_NULL || bad == B_GARBAGE;
        case BYTES_PERIODIC:
            return bad == B_NULL;
        case BYTES_SYS_SNAPSHOT:
            return bad == B_NULL || bad == B_CORRUPT;
        }
        return false;
    }
    return true;
}

size_t mx_cases(mx_ctx *c, const mx_row *row, int k, mx_case *out, size_t cap)
{
    const mx_arg *a = &row->args[k];
    size_t n = 0;
    if (a->cls == A_NONE || a->skip == ~0ull)
        return 0;
    uint64_t tries = info[a->cls].tries & ~a->skip;
    for (int b = 0; b < B_COUNT_; b++)
        if ((tries & BIT(b)) && applies(c, a, b))
            n = add(out, n, cap, k, -1, b);
    for (int i = 0; i < 3; i++)
        if (a->alt_st[i] != 0)
            n = add(out, n, cap, k, -1, B_ALT0 + i);
    if (a->cls == A_SIZED_SET || a->cls == A_DESC) {
        const mx_struct *s = mx_struct_of(a->role);
        for (int f = 0; f < 16 && s->fields[f].name; f++) {
            const mx_field *fd = &s->fields[f];
            const cls_info *ci = fd->cls == A_BYTES ? &bytes_field : &info[fd->cls];
            uint64_t ft = ci->tries & ~fd->skip;
            if (fd->cls == A_VEC || fd->cls == A_VEC_NZ)
                ft &= ~BIT(B_NULL); /* an array in the struct, not a pointer */
            if (fd->cls == A_ENUM || fd->cls == A_RANGE)
                ft &= ~(fd->lo <= 0 ? BIT(B_Z_BELOW) : 0);
            for (int b = 0; b < B_COUNT_; b++)
                if (ft & BIT(b))
                    n = add(out, n, cap, k, f, b);
        }
    }
    return n;
}

uint32_t mx_expect(const mx_row *row, const mx_case *cs)
{
    const mx_arg *a = &row->args[cs->arg];
    uint64_t accepts, ok, no, may;
    cdyn_status st, may_st;
    if (cs->bad >= B_ALT0 && cs->bad <= B_ALT2)
        return 1u << a->alt_st[cs->bad - B_ALT0];
    if (cs->field >= 0) {
        const mx_field *fd = &mx_struct_of(a->role)->fields[cs->field];
        accepts = (fd->cls == A_BYTES ? bytes_field : info[fd->cls]).accepts;
        ok = fd->ok, no = fd->no, may = fd->may, st = fd->st, may_st = fd->may_st;
    } else {
        accepts = info[a->cls].accepts;
        ok = a->ok, no = a->no, may = a->may, st = a->st, may_st = a->may_st;
    }
    uint64_t b = BIT(cs->bad);
    cdyn_status refused = st ? st : default_status(cs->bad);
    uint32_t okset = 1u | row->also;
    if (may & b)
        return okset | 1u << (may_st ? may_st : refused);
    if (((accepts | ok) & b) && !(no & b))
        return okset;
    return 1u << refused;
}

void mx_describe(const mx_row *row, const mx_case *cs, char *out, size_t cap)
{
    const mx_arg *a = &row->args[cs->arg];
    if (cs->field >= 0) {
        const mx_struct *s = mx_struct_of(a->role);
        snprintf(out, cap, "arg %d (%s) field %s = %s", cs->arg, s->name,
                 s->fields[cs->field].name, mx_bad_name(cs->bad));
    } else {
        snprintf(out, cap, "arg %d (%s) = %s", cs->arg, info[a->cls].name, mx_bad_name(cs->bad));
    }
}

/* ---- values ---- */

/* An input array in a block of exactly its size, so that a read beyond it
 * is a sanitizer report. */
static void *copy_in(mx_ctx *c, int k, const void *src, size_t bytes)
{
    free(c->input[k]);
    c->input[k] = malloc(bytes ? bytes : 1);
    if (!c->input[k])
        abort();
    if (bytes && src)
        memcpy(c->input[k], src, bytes);
    return c->input[k];
}

static void *malloc_alloc(size_t size, void *user)
{
    (void)user;
    return malloc(size);
}

static void malloc_free(void *p, size_t size, void *user)
{
    (void)size, (void)user;
    free(p);
}

/* No final newline: one character less is a short row. */
static const char asc_text[] =
    "ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3\n4 5 6";

static const char *path_of(mx_ctx *c, int role)
{
    if (c->temp_n >= MX_MAXARGS)
        abort();
    char *p = c->temp[c->temp_n++];
    const char *dir = getenv("TMPDIR");
    snprintf(p, 96, "%s/cdyn-matrix-%ld-%d.asc", dir && *dir ? dir : "/tmp", (long)c->temp_n,
             role);
    FILE *f = fopen(p, "wb");
    if (!f)
        abort();
    if (role == PATH_READ)
        fputs(asc_text, f);
    fclose(f);
    return p;
}

const char *mx_temp_path(mx_ctx *c)
{
    return path_of(c, PATH_WRITE);
}

void mx_base(mx_ctx *c, const mx_row *row, int k, mx_val *out)
{
    const mx_arg *a = &row->args[k];
    mx_fix *f = c->fix;
    double tmp[MX_REGION];
    size_t len;
    memset(out, 0, sizeof *out);
    switch (a->cls) {
    case A_SYS:
        out->w = f->s.sys;
        break;
    case A_LAT:
        out->w = f->lat;
        break;
    case A_KIN:
        out->w = f->kin;
        break;
    case A_JAC:
        out->w = c; /* replaced by the accumulator inside the callback */
        break;
    case A_PART:
    case A_FORCE:
    case A_CONS:
    case A_GROUND:
    case A_RIGID:
        out->h = mx_handle(&f->s, a->cls, a->role);
        break;
    case A_FINITE:
    case A_POS:
    case A_NONNEG:
        out->d = a->base;
        break;
    case A_VEC:
    case A_VEC_NZ:
    case A_VEC_OPT:
    case A_BULK: {
        const double *v = mx_vector(c, a->role, &len, tmp);
        out->w = copy_in(c, k, v, len * sizeof *v);
        break;
    }
    case A_OUT:
    case A_OPT:
    case A_OBJ_OUT:
        out->w = c->region[k];
        break;
    case A_ENUM:
    case A_ENUM_ANY:
        out->i = (int)a->base;
        break;
    case A_CAP:
    case A_CAP_ANY:
    case A_COUNT:
        out->z = mx_need(c, a->role);
        break;
    case A_RANGE:
    case A_INDEX:
        out->z = a->cls == A_INDEX ? (size_t)a->base : mx_need(c, a->role);
        break;
    case A_U64:
        out->h = mx_need(c, a->role);
        break;
    case A_SIZED_GET:
    case A_SIZED_SET:
    case A_DESC: {
        const mx_struct *s = mx_struct_of(a->role);
        memset(c->sbuf[k], MX_SENTINEL, MX_SBUF);
        if (a->cls != A_SIZED_GET) /* a report: only its size is the caller's */
            s->fill(c, c->sbuf[k], f->s.dim ? f->s.dim : 3);
        memcpy(c->sbuf[k], &s->size, sizeof s->size);
        out->w = c->sbuf[k];
        break;
    }
    case A_HLIST: {
        cdyn_particle l[8];
        len = mx_hlist(&f->s, a->role, l);
        out->w = copy_in(c, k, l, len * sizeof *l);
        break;
    }
    case A_FN:
    case A_FN_OPT:
        out->fp = mx_callback(a->role);
        break;
    case A_USER:
        out->w = f;
        break;
    case A_BOOL:
        out->b = a->base != 0;
        break;
    case A_STR:
        out->w = (void *)(a->role == STR_NEW ? "E" : "B");
        break;
    case A_ALLOC: {
        static const cdyn_allocator al = {malloc_alloc, malloc_free, NULL};
        out->w = (void *)&al;
        break;
    }
    case A_BYTES:
        if (a->role == BYTES_SNAPSHOT) {
            /* Room for one byte more than the snapshot, so that a size one
             * more names bytes that exist. */
            size_t n = mx_need(c, N_SNAP);
            unsigned char *b = copy_in(c, k, NULL, n + 1);
            b[n] = 0;
            cdyn_lattice_save(f->lat, b, n, NULL);
            out->w = b;
        } else if (a->role == BYTES_SYS_SNAPSHOT) {
            size_t n = mx_need(c, N_SMALL_SNAP);
            unsigned char *b = copy_in(c, k, NULL, n + 1);
            b[n] = 0;
            mx_small_snapshot(b, &n);
            out->w = b;
        } else if (a->role == BYTES_ASC) {
            out->w = copy_in(c, k, asc_text, strlen(asc_text));
        } else if (a->role == BYTES_RECEIVERS) {
            uint32_t r[MX_LAT_W * MX_LAT_H];
            for (uint32_t i = 0; i < MX_LAT_W * MX_LAT_H; i++)
                r[i] = i % MX_LAT_W == 0 ? i : i - 1; /* rows draining to x = 0 */
            out->w = copy_in(c, k, r, sizeof r);
        } else if (a->role == BYTES_PERIODIC) {
            const bool open[3] = {false, false, false};
            out->w = copy_in(c, k, open, sizeof open);
        } else {
            uint8_t m[MX_LAT_W * MX_LAT_H] = {0};
            m[3] = m[40] = 1;
            out->w = copy_in(c, k, m, sizeof m);
        }
        break;
    case A_PATH:
        out->w = (void *)path_of(c, a->role);
        break;
    case A_KLIST: {
        size_t l[4];
        len = mx_klist(a->role, l);
        out->w = copy_in(c, k, l, len * sizeof *l);
        break;
    }
    case A_KCOEF: {
        const int ones[4] = {1, 1, 1, 1};
        out->w = copy_in(c, k, ones, 2 * sizeof(int));
        break;
    }
    }
}

static double bad_double(int bad)
{
    switch (bad) {
    case B_NAN:
        return NAN;
    case B_INF:
        return INFINITY;
    case B_NINF:
        return -INFINITY;
    case B_ZERO:
        return 0.0;
    case B_NEG:
        return -1.0;
    case B_NTINY:
        return -5e-324;
    case B_TINY:
        return 5e-324;
    case B_HUGE:
        return 1e300;
    case B_NHUGE:
        return -1e300;
    case B_MAX:
        return DBL_MAX;
    }
    return 0;
}

/* A vector of n doubles made bad: NaN in the first, +inf in the second,
 * all huge or all zero. */
static void bad_vector(double *v, size_t n, int bad)
{
    if (bad == B_NAN)
        v[0] = NAN;
    else if (bad == B_INF)
        v[n > 1 ? 1 : 0] = INFINITY;
    else if (bad == B_NINF)
        v[0] = -INFINITY;
    else
        for (size_t i = 0; i < n; i++)
            v[i] = bad == B_HUGE ? 1e300 : 0.0;
}

static int bad_int(const mx_arg *a, double lo, double hi, int bad)
{
    (void)a;
    switch (bad) {
    case B_E_BELOW:
        return (int)lo - 1;
    case B_E_ABOVE:
        return (int)hi + 1;
    case B_E_MIN:
        return INT_MIN;
    }
    return INT_MAX;
}

static size_t bad_size(double lo, double hi, int bad)
{
    switch (bad) {
    case B_Z_BELOW:
        return (size_t)lo - 1;
    case B_Z_ABOVE:
        return (size_t)hi + 1;
    }
    return SIZE_MAX;
}

/* A field of the struct in c->sbuf[k] made bad. */
static void bad_field(mx_ctx *c, int k, const mx_field *fd, int bad, int dim)
{
    unsigned char *p = c->sbuf[k] + fd->off;
    switch (fd->cls) {
    case A_FINITE:
    case A_POS:
    case A_NONNEG: {
        double v = bad_double(bad);
        memcpy(p, &v, sizeof v);
        break;
    }
    case A_VEC:
    case A_VEC_NZ: {
        double v[16];
        memcpy(v, p, fd->n * sizeof *v);
        bad_vector(v, fd->n, bad);
        memcpy(p, v, fd->n * sizeof *v);
        break;
    }
    case A_ENUM: {
        int v = bad_int(NULL, fd->lo, fd->hi, bad);
        memcpy(p, &v, sizeof v);
        break;
    }
    case A_RANGE: {
        size_t v = bad_size(fd->lo, fd->hi, bad);
        memcpy(p, &v, sizeof v);
        break;
    }
    case A_OUT: {
        void *v = NULL;
        memcpy(p, &v, sizeof v);
        break;
    }
    case A_FN: {
        void (*v)(void) = NULL;
        memcpy(p, &v, sizeof v);
        break;
    }
    case A_BYTES: {
        const double *src;
        memcpy(&src, p, sizeof src);
        size_t n = fd->n * (fd->lo > 0 ? (size_t)dim : 1), w = fd->lo > 0 ? (size_t)dim : 1;
        double *v = c->sdata[k];
        if (bad == B_NULL) {
            v = NULL;
        } else {
            memcpy(v, src, n * sizeof *v);
            if (bad == B_DUP)
                memcpy(v + w, v, w * sizeof *v);
            else
                bad_vector(v, n, bad);
        }
        memcpy(p, &v, sizeof v);
        break;
    }
    }
}

void mx_bad_value(mx_ctx *c, const mx_row *row, const mx_case *cs, mx_val *out)
{
    const mx_arg *a = &row->args[cs->arg];
    int k = cs->arg, bad = cs->bad;
    mx_fix *f = c->fix;
    int dim = f->s.dim ? f->s.dim : 3;
    mx_base(c, row, k, out); /* buffers of the baseline, made bad below */
    if (bad >= B_ALT0 && bad <= B_ALT2) {
        int r = a->alt[bad - B_ALT0];
        if (is_handle(a->cls))
            out->h = mx_handle(&f->s, a->cls, r);
        else if (a->cls == A_HLIST)
            ((cdyn_particle *)out->w)[0] = f->s.p[r];
        else if (a->cls == A_INDEX || a->cls == A_RANGE || a->cls == A_CAP ||
                 a->cls == A_COUNT)
            out->z = (size_t)r;
        else if (a->cls == A_ENUM)
            out->i = r;
        return;
    }
    if (cs->field >= 0) {
        bad_field(c, k, &mx_struct_of(a->role)->fields[cs->field], bad, dim);
        return;
    }
    if (bad == B_NULL && a->cls != A_USER && a->cls != A_ALLOC) {
        if (a->cls == A_FN || a->cls == A_FN_OPT)
            out->fp = NULL;
        else
            out->w = NULL;
        return;
    }
    size_t len;
    switch (a->cls) {
    case A_USER:
    case A_ALLOC:
        if (bad == B_NULL) {
            out->w = NULL;
        } else {
            static const cdyn_allocator no_alloc = {NULL, malloc_free, NULL},
                                        no_free = {malloc_alloc, NULL, NULL};
            out->w = (void *)(bad == B_NOALLOC ? &no_alloc : &no_free);
        }
        break;
    case A_PART:
    case A_FORCE:
    case A_CONS:
    case A_GROUND:
    case A_RIGID:
        switch (bad) {
        case B_H_ZERO:
            out->h = 0;
            break;
        case B_H_KIND:
            out->h = mx_wrong_kind(&f->s, a->cls);
            break;
        case B_H_FOREIGN:
            out->h = mx_handle(&f->foreign, a->cls, a->role);
            break;
        case B_H_STALE:
            out->h = mx_stale(&f->s, a->cls);
            break;
        case B_H_NEVER:
            out->h = (out->h & ~(uint64_t)0xffffffffu) | 0x00100000u;
            break;
        default:
            out->h = UINT64_MAX;
        }
        break;
    case A_FINITE:
    case A_POS:
    case A_NONNEG:
        out->d = bad_double(bad);
        break;
    case A_VEC:
    case A_VEC_NZ:
    case A_VEC_OPT: {
        double tmp[MX_REGION];
        mx_vector(c, a->role, &len, tmp);
        bad_vector(out->w, len, bad);
        break;
    }
    case A_BULK: {
        double tmp[MX_REGION], *v = out->w;
        mx_vector(c, a->role, &len, tmp);
        if (bad == B_NAN)
            v[0] = NAN; /* index 0 is live in every fixture */
        else if (bad == B_INF)
            v[1] = INFINITY;
        else if (bad == B_HUGE || bad == B_NEG)
            for (size_t i = 0; i < len; i++)
                v[i] = bad == B_HUGE ? 1e300 : -1.0;
        else
            v[f->s.hole * (size_t)dim] = NAN;
        break;
    }
    case A_ENUM:
    case A_ENUM_ANY:
        out->i = bad_int(a, a->base, a->role, bad);
        break;
    case A_CAP:
    case A_CAP_ANY:
    case A_COUNT: {
        size_t need = mx_need(c, a->role);
        out->z = bad == B_CAP_ZERO                       ? 0
                 : bad == B_CAP_SHORT || bad == B_CNT_LESS ? need - 1
                 : bad == B_CNT_MORE                       ? need + 1
                                                           : SIZE_MAX;
        break;
    }
    case A_RANGE:
        out->z = bad_size(a->base, (double)mx_need(c, a->hi), bad);
        break;
    case A_U64:
        out->h = bad == B_Z_BELOW   ? (uint64_t)a->base - 1
                 : bad == B_Z_ABOVE ? (uint64_t)mx_need(c, a->hi) + 1
                                    : UINT64_MAX;
        break;
    case A_INDEX:
        out->z = bad == B_IDX_END ? mx_need(c, a->role) : SIZE_MAX;
        break;
    case A_SIZED_GET:
    case A_SIZED_SET:
    case A_DESC: {
        size_t size = mx_struct_of(a->role)->size;
        size = bad == B_SZ_ZERO    ? 0
               : bad == B_SZ_SMALL ? sizeof(size_t) - 1
               : bad == B_SZ_MIN   ? sizeof(size_t)
               : bad == B_SZ_LESS  ? size - 1
               : bad == B_SZ_MORE  ? size + 1
                                   : SIZE_MAX;
        memcpy(c->sbuf[k], &size, sizeof size);
        break;
    }
    case A_HLIST: {
        cdyn_particle *l = out->w;
        switch (bad) {
        case B_H_ZERO:
            l[0] = 0;
            break;
        case B_H_KIND:
            l[0] = mx_wrong_kind(&f->s, A_PART);
            break;
        case B_H_FOREIGN:
            l[0] = f->foreign.p[P_FREE];
            break;
        case B_H_STALE:
            l[0] = f->s.stale_p;
            break;
        default:
            l[1] = l[0];
        }
        break;
    }
    case A_BOOL:
        out->b = !out->b;
        break;
    case A_STR: {
        static char long_name[301];
        memset(long_name, 'x', 300);
        out->w = (void *)(bad == B_EMPTY    ? ""
                          : bad == B_LONG   ? long_name
                          : bad == B_TAKEN  ? "A"
                                            : "no such species");
        break;
    }
    case A_BYTES:
        if (a->role == BYTES_SNAPSHOT) {
            ((unsigned char *)out->w)[mx_need(c, N_SNAP) / 2] ^= 0x10;
        } else if (a->role == BYTES_SYS_SNAPSHOT) {
            ((unsigned char *)out->w)[mx_need(c, N_SMALL_SNAP) / 2] ^= 0x10;
        } else if (a->role == BYTES_ASC) {
            memcpy(out->w, "ncols x", 7);
        } else if (a->role == BYTES_MASK) {
            memset(out->w, 1, MX_LAT_W * MX_LAT_H); /* every site */
        } else if (a->role == BYTES_RECEIVERS) {
            uint32_t *r = out->w;
            if (bad == B_IDX_END)
                r[5] = MX_LAT_W * MX_LAT_H;
            else
                r[0] = 1; /* 0 -> 1 -> 0: a cycle */
        }
        break;
    case A_PATH:
        out->w = (void *)"/nonexistent-cdyn-dir/grid.asc";
        break;
    case A_KLIST:
        ((size_t *)out->w)[0] = 4;
        break;
    case A_KCOEF:
        ((int *)out->w)[0] = bad == B_COEF_ZERO ? 0 : bad == B_COEF_BIG ? 1001 : -1;
        break;
    }
}
