/* Runs the rows: a row's baseline, then each of its bad cases on a fresh
 * fixture, then (for calls that change a system or a network) the call from
 * inside a callback; checks every case and prints each failure. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "runner.h"

void mx_broken(mx_ctx *c, const char *what)
{
    if (!c->broken[0])
        snprintf(c->broken, sizeof c->broken, "%s", what);
}

cdyn_status mx_finite_out(mx_ctx *c, cdyn_status st, const void *out, size_t n)
{
    if (st == CDYN_OK && out) {
        double v[64];
        memcpy(v, out, (n < 64 ? n : 64) * sizeof *v);
        for (size_t i = 0; i < n && i < 64; i++)
            if (!isfinite(v[i]))
                mx_broken(c, "CDYN_OK with a non-finite output");
    }
    return st;
}

cdyn_system *mx_system(mx_ctx *c)
{
    return c->fix->s.sys;
}

cdyn_lattice *mx_lattice(mx_ctx *c)
{
    return c->fix->lat;
}

cdyn_kinetics *mx_kinetics(mx_ctx *c)
{
    return c->fix->kin;
}

cdyn_status mx_in_jacobian(mx_ctx *c, mx_call call, mx_val *a, cdyn_status *step)
{
    cdyn_system *sys = c->fix->s.sys;
    c->jac_call = call;
    c->jac_args = a;
    c->jac_calls = 0;
    c->jac_status = CDYN_OK;
    cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_BACKWARD_EULER);
    /* Nothing on a shape: backward Euler refuses those. */
    *step = cdyn_system_step(sys, 1e-3);
    cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_SYMPLECTIC_EULER);
    c->jac_call = NULL;
    return c->jac_calls ? c->jac_status : CDYN_ERR_UNSUPPORTED;
}

mx_ctx *mx_ctx_new(void)
{
    mx_ctx *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    for (int k = 0; k < MX_MAXARGS; k++) {
        c->region[k] = malloc(MX_REGION * sizeof(double));
        c->sbuf[k] = malloc(MX_SBUF);
        c->sdata[k] = malloc(MX_SDATA * sizeof(double));
        if (!c->region[k] || !c->sbuf[k] || !c->sdata[k])
            abort();
    }
    return c;
}

void mx_ctx_free(mx_ctx *c)
{
    for (int k = 0; k < MX_MAXARGS; k++) {
        free(c->region[k]);
        free(c->sbuf[k]);
        free(c->sdata[k]);
        free(c->input[k]);
    }
    free(c);
}

/* The names a message may start with: "cdyn_lattice_rain", "particle_add",
 * and for system functions "set_time" (the system's own calls drop
 * "system_"). */
static bool names(const char *msg, const char *fn, bool anywhere)
{
    const char *cands[3] = {fn, fn + 5, strncmp(fn + 5, "system_", 7) == 0 ? fn + 12 : NULL};
    for (int i = 0; i < 3; i++) {
        if (!cands[i])
            continue;
        size_t n = strlen(cands[i]);
        for (const char *p = msg; *p; p++) {
            bool start = p == msg || (anywhere && (p[-1] == ' ' || p[-1] == ':' || p[-1] == '('));
            if (start && strncmp(p, cands[i], n) == 0 &&
                (p[n] == ':' || p[n] == ' ' || p[n] == '('))
                return true;
            if (!anywhere)
                break;
        }
    }
    return false;
}

static const char *message(mx_fix *f)
{
    switch (f->obj) {
    case OBJ_SYS:
        return cdyn_system_last_error(f->s.sys);
    case OBJ_LAT:
        return cdyn_lattice_last_error(f->lat);
    case OBJ_KIN:
        return cdyn_kinetics_last_error(f->kin);
    }
    return "";
}

/* Records a failure of another call, so that a failing call that records
 * nothing is caught. */
static void prime(mx_fix *f, const char *fn)
{
    switch (f->obj) {
    case OBJ_SYS:
        if (strcmp(fn, "cdyn_system_set_time") != 0)
            cdyn_system_set_time(f->s.sys, NAN);
        else
            cdyn_particle_set_mass(f->s.sys, f->s.p[P_FREE], -1);
        break;
    case OBJ_LAT:
        if (strcmp(fn, "cdyn_lattice_rain_at") != 0)
            cdyn_lattice_rain_at(f->lat, MX_LAT_W, 0, 1);
        else
            cdyn_lattice_set_walk_cap(f->lat, 0);
        break;
    case OBJ_KIN:
        if (strcmp(fn, "cdyn_kinetics_set_time") != 0)
            cdyn_kinetics_set_time(f->kin, NAN);
        else
            cdyn_kinetics_set_rate_constant(f->kin, 0, -1);
        break;
    }
}

static bool region_arg(int cls)
{
    return cls == A_OUT || cls == A_OPT || cls == A_OBJ_OUT;
}

static bool untouched(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != MX_SENTINEL)
            return false;
    return true;
}

static void fail(mx_report *r, const mx_row *row, const char *label, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void fail(mx_report *r, const mx_row *row, const char *label, const char *fmt, ...)
{
    r->failures++;
    if (r->failures > 400)
        return;
    fprintf(stderr, "FAIL %s%s%s%s: %s: ", row->name, row->note[0] ? " [" : "", row->note,
            row->note[0] ? "]" : "", label);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void status_set(char *out, size_t cap, uint32_t mask)
{
    out[0] = 0;
    for (int s = 0; s < 32; s++)
        if (mask & (1u << s)) {
            size_t n = strlen(out);
            snprintf(out + n, cap - n, "%s%s", n ? " or " : "", cdyn_status_name(s));
        }
}

static void cleanup_call(mx_ctx *c)
{
    for (int k = 0; k < MX_MAXARGS; k++) {
        free(c->input[k]);
        c->input[k] = NULL;
    }
    for (int i = 0; i < c->temp_n; i++)
        remove(c->temp[i]);
    c->temp_n = 0;
}

/* One case (cs NULL: the baseline). Returns whether it passed. */
static bool run_case(mx_ctx *c, const mx_row *row, const mx_case *cs, mx_report *r)
{
    int obj = mx_row_obj(row), dim = row->flags & MX_2D ? 2 : 3;
    mx_fix fix;
    mx_fix_build(&fix, c, obj, dim, row->flags & MX_FLAT);
    c->row = row;
    c->broken[0] = 0;
    c->temp_n = 0;
    mx_val a[MX_MAXARGS];
    memset(a, 0, sizeof a);
    for (int k = 0; k < MX_MAXARGS && row->args[k].cls; k++) {
        if (region_arg(row->args[k].cls))
            memset(c->region[k], MX_SENTINEL, MX_REGION * sizeof(double));
        mx_base(c, row, k, &a[k]);
    }
    char label[200] = "baseline";
    uint32_t want = 1u;
    if (cs) {
        mx_bad_value(c, row, cs, &a[cs->arg]);
        mx_describe(row, cs, label, sizeof label);
        want = mx_expect(row, cs);
    }
    if ((row->flags & MX_BOOL) && !(want & 1u))
        want = 1u << CDYN_ERR_INVALID_HANDLE;
    uint64_t h0 = mx_hash(&fix);
    prime(&fix, row->name);
    char primed[256];
    snprintf(primed, sizeof primed, "%s", message(&fix));
    cdyn_status st = row->call(c, a);
    size_t before = r->failures;
    if (!(want & (1u << st))) {
        char w[200];
        status_set(w, sizeof w, want);
        fail(r, row, label, "status %s, want %s (message \"%s\")", cdyn_status_name(st), w,
             message(&fix));
    }
    bool no_object = cs && cs->arg == 0 && cs->bad == B_NULL;
    const char *msg = message(&fix);
    if (row->flags & MX_NOMSG) {
        if (obj != OBJ_NONE && strcmp(msg, primed) != 0)
            fail(r, row, label, "changed the message to \"%s\"", msg);
    } else if (st != CDYN_OK && obj != OBJ_NONE && !no_object &&
               !names(msg, row->name, row->flags & MX_MSG_ANY)) {
        fail(r, row, label, "%s with the message \"%s\", which does not name the function",
             cdyn_status_name(st), msg);
    }
    bool failed = st != CDYN_OK && !(row->flags & MX_BOOL);
    if (obj != OBJ_NONE && !(row->flags & MX_NOSTATE) &&
        (failed || (row->flags & (MX_Q | MX_KEEPS))) &&
        mx_hash(&fix) != h0)
        fail(r, row, label, "%s and changed the state", cdyn_status_name(st));
    for (int k = 0; k < MX_MAXARGS && row->args[k].cls; k++) {
        const mx_arg *ak = &row->args[k];
        if (failed && !(row->flags & MX_WRITES) && (ak->cls == A_OUT || ak->cls == A_OPT) &&
            a[k].w == c->region[k] && !untouched(c->region[k], MX_REGION * sizeof(double)))
            fail(r, row, label, "%s and wrote output argument %d", cdyn_status_name(st), k);
        if (ak->cls == A_SIZED_GET && a[k].w) {
            size_t size, full = mx_struct_of(ak->role)->size;
            memcpy(&size, c->sbuf[k], sizeof size);
            size_t from = failed ? sizeof(size_t) : size < full ? size : full;
            if (!untouched(c->sbuf[k] + from, MX_SBUF - from))
                fail(r, row, label, "%s and wrote beyond byte %zu of the struct (size %zu)",
                     cdyn_status_name(st), from, size);
        }
    }
    if (c->broken[0])
        fail(r, row, label, "%s", c->broken);
    cleanup_call(c);
    mx_fix_free(&fix);
    r->cases++;
    return r->failures == before;
}

/* The call from inside a callback of a step (a system) or of a rate query
 * (a network): refused with CDYN_ERR_BUSY, a message naming it, and the
 * run as if it had not been made (a twin fixture without the call). */
static void run_busy(mx_ctx *c, const mx_row *row, mx_report *r)
{
    int obj = mx_row_obj(row), dim = row->flags & MX_2D ? 2 : 3;
    mx_fix fa, fb;
    mx_fix_build(&fa, c, obj, dim, row->flags & MX_FLAT);
    c->row = row;
    c->broken[0] = 0;
    c->temp_n = 0;
    for (int k = 0; k < MX_MAXARGS && row->args[k].cls; k++) {
        if (region_arg(row->args[k].cls))
            memset(c->region[k], MX_SENTINEL, MX_REGION * sizeof(double));
        mx_base(c, row, k, &c->busy_args[k]);
    }
    prime(&fa, row->name);
    c->busy = true;
    c->busy_calls = 0;
    c->busy_status = CDYN_OK;
    double rates[8];
    cdyn_status st = obj == OBJ_SYS ? cdyn_system_step(fa.s.sys, 1e-3)
                                    : cdyn_kinetics_get_reaction_rates(fa.kin, rates, 8);
    c->busy = false;
    const char *label = "from a callback";
    if (st != CDYN_OK)
        fail(r, row, label, "the step around it gave %s (%s)", cdyn_status_name(st),
             message(&fa));
    if (c->busy_calls != 1)
        fail(r, row, label, "the callback made %d calls", c->busy_calls);
    else if (c->busy_status != CDYN_ERR_BUSY)
        fail(r, row, label, "status %s, want CDYN_ERR_BUSY", cdyn_status_name(c->busy_status));
    else if (!names(message(&fa), row->name, false))
        fail(r, row, label, "BUSY with the message \"%s\"", message(&fa));
    uint64_t ha = mx_hash(&fa);
    cleanup_call(c);
    mx_fix_build(&fb, c, obj, dim, row->flags & MX_FLAT);
    if (obj == OBJ_SYS)
        cdyn_system_step(fb.s.sys, 1e-3);
    else
        cdyn_kinetics_get_reaction_rates(fb.kin, rates, 8);
    if (mx_hash(&fb) != ha)
        fail(r, row, label, "the refused call changed the state");
    mx_fix_free(&fb);
    c->fix = &fa;
    mx_fix_free(&fa);
    r->cases++;
}

void mx_run_row(mx_ctx *c, const mx_row *row, mx_report *r)
{
    if (!run_case(c, row, NULL, r))
        return; /* a bad case means nothing without a working baseline */
    for (int k = 0; k < MX_MAXARGS && row->args[k].cls; k++) {
        mx_case cs[512];
        mx_fix fix;
        /* The cases may depend on the fixture (needs), so enumerate on one. */
        mx_fix_build(&fix, c, mx_row_obj(row), row->flags & MX_2D ? 2 : 3, row->flags & MX_FLAT);
        size_t n = mx_cases(c, row, k, cs, 512);
        mx_fix_free(&fix);
        for (size_t i = 0; i < n && i < 512; i++)
            run_case(c, row, &cs[i], r);
    }
    int obj = mx_row_obj(row);
    if ((obj == OBJ_SYS || obj == OBJ_KIN) && !(row->flags & (MX_Q | MX_NOBUSY | MX_BOOL)))
        run_busy(c, row, r);
}
