/* The matrix's machinery behind the rows: fixtures, argument classes,
 * struct descriptions, state hashes. Test code. */
#ifndef CDYN_MATRIX_INTERNAL_H
#define CDYN_MATRIX_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "matrix.h"

/* Which object a row works on: from the class of its first argument. */
enum { OBJ_NONE, OBJ_SYS, OBJ_LAT, OBJ_KIN };

/* A system with one object in every role, one removed object of every kind
 * (stale handles) and a removed particle's index (a hole in bulk arrays). */
typedef struct mx_sys {
    cdyn_system *sys;
    int dim;
    cdyn_particle p[P_COUNT];
    cdyn_force f[F_COUNT];
    cdyn_constraint c[C_COUNT];
    cdyn_ground g[G_COUNT];
    cdyn_rigid r[R_COUNT];
    cdyn_particle stale_p;
    cdyn_force stale_f;
    cdyn_constraint stale_c;
    cdyn_ground stale_g;
    cdyn_rigid stale_r;
    size_t hole; /* index of the removed particle */
} mx_sys;

enum { MX_LAT_W = 9, MX_LAT_H = 7 };

struct mx_fix {
    int obj;
    mx_sys s;       /* the system of the case */
    mx_sys foreign; /* another system: its handles are foreign to s */
    cdyn_lattice *lat;
    cdyn_kinetics *kin;
    mx_ctx *ctx;    /* the callbacks' way back to the case (hooks) */
};

struct mx_ctx {
    mx_fix *fix;
    const mx_row *row;
    /* A call made from inside a force callback or a rate law (the busy
     * cases): the row's wrapper with these values, once per callback. */
    bool busy;
    int busy_calls;
    cdyn_status busy_status;
    mx_val busy_args[MX_MAXARGS];
    /* The call inside a Jacobian callback (jacobian_add_block). */
    mx_call jac_call;
    mx_val *jac_args;
    int jac_calls;
    cdyn_status jac_status;
    char broken[256];
    /* Per argument: an output region (MX_REGION doubles, filled with a
     * sentinel before the call), an exact-size copy of an input array, a
     * struct buffer (the struct and a tail that must stay untouched) and
     * room for arrays a struct points to. */
    double *region[MX_MAXARGS];
    void *input[MX_MAXARGS];
    unsigned char *sbuf[MX_MAXARGS];
    double *sdata[MX_MAXARGS];
    char temp[MX_MAXARGS][96];
    int temp_n;
};

enum { MX_SBUF = 1024, MX_SDATA = 256, MX_SENTINEL = 0xa5 };

/* ---- fixture.c ---- */
/* Builds the objects a row of kind @p obj needs (2-D or 3-D system; with
 * @p flat, no particle on a curve or surface). */
void mx_fix_build(mx_fix *f, mx_ctx *c, int obj, int dim, bool flat);
void mx_fix_free(mx_fix *f);
/* What a capacity or count role needs in this fixture. */
size_t mx_need(mx_ctx *c, int need);
/* The input vector of role @p v: its values (static or the fixture's) and
 * length. */
const double *mx_vector(mx_ctx *c, int v, size_t *len, double *tmp);
/* The callback of role @p fn, as a generic function pointer. */
void (*mx_callback(int fn))(void);
/* The handle of role @p role of class @p cls in @p s (0 when absent). */
uint64_t mx_handle(const mx_sys *s, int cls, int role);
/* A live handle of another kind, a removed one, one never issued. */
uint64_t mx_wrong_kind(const mx_sys *s, int cls);
uint64_t mx_stale(const mx_sys *s, int cls);
/* The particle lists of role @p l (n handles into out). */
size_t mx_hlist(const mx_sys *s, int l, cdyn_particle *out);
/* Species lists and coefficients of the reactions rows add. */
size_t mx_klist(int k, size_t *out);

/* ---- hash.c ---- */
uint64_t mx_hash(mx_fix *f);

/* ---- structs.c ---- */
typedef struct mx_field {
    const char *name;
    size_t off;
    uint8_t cls; /* A_FINITE, A_POS, A_NONNEG, A_VEC, A_VEC_NZ, A_ENUM, A_RANGE, A_OUT
                    (a pointer that must be set), A_FN, A_BYTES (an array of n doubles it
                    points to), A_USER (anything) */
    uint8_t n;   /* doubles of a vector or array */
    double lo, hi;
    uint64_t ok, no, skip, may;
    cdyn_status st;
    cdyn_status may_st; /* status of the refusals of @c may (0: st's) */
} mx_field;

typedef struct mx_struct {
    const char *name;
    size_t size;
    void (*fill)(mx_ctx *c, void *buf, int dim);
    mx_field fields[16];
} mx_struct;

const mx_struct *mx_struct_of(int s);

/* ---- classes.c ---- */
/* One case: a bad value of an argument (field < 0) or of a field of the
 * struct it points to. */
typedef struct mx_case {
    int arg;
    int field;
    int bad;
} mx_case;

/* The cases of argument @p k of @p row, in order; returns how many (at most
 * @p cap written). */
size_t mx_cases(mx_ctx *c, const mx_row *row, int k, mx_case *out, size_t cap);
/* The baseline value of argument @p k. */
void mx_base(mx_ctx *c, const mx_row *row, int k, mx_val *out);
/* The value of a case. */
void mx_bad_value(mx_ctx *c, const mx_row *row, const mx_case *cs, mx_val *out);
/* The statuses (bits) a case may give. */
uint32_t mx_expect(const mx_row *row, const mx_case *cs);
/* A label: "arg 2 (double) = NaN", "field radius = 0". */
void mx_describe(const mx_row *row, const mx_case *cs, char *out, size_t cap);
const char *mx_bad_name(int bad);
int mx_row_obj(const mx_row *row);

#endif /* CDYN_MATRIX_INTERNAL_H */
