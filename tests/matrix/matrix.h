/* The bad-input matrix: every exported function called with a valid
 * baseline (which must succeed) and then with one argument at a time made
 * bad -- NULL, a handle that is zero, of the wrong kind, of another system,
 * of a removed object or never issued, NaN, infinities, zero, negative and
 * huge values, enums out of range, short capacities and wrong counts, bad
 * size fields and bad fields of option and description structs -- and, for
 * every call that changes a system or a network, the same call from inside
 * a callback of a step.
 *
 * A function is a row: a one-line wrapper that passes an array of values to
 * the real function, and the classes of its arguments. A class says how to
 * make the argument's baseline value from the fixture and which bad values
 * to try, with the status each gets unless the row says otherwise (the
 * documented one: every header's @return lines). The runner checks, for
 * every case, the status; for every failure the message (non-empty, naming
 * the function) and that the object's state, hashed through public getters,
 * did not change and no output was written; for every query that the state
 * did not change even on success. main() fails when a function of
 * src/cdyn.map has no row, so that a new export must get one.
 *
 * Test code: not part of the library. */
#ifndef CDYN_MATRIX_H
#define CDYN_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cdyn/cdyn.h>

enum { MX_MAXARGS = 13, MX_REGION = 4096 /* doubles per output region */ };

/* An argument's value, whatever its C type: wrappers pick the member. */
typedef union mx_val {
    void *w;          /* every data pointer (const or not) */
    uint64_t h;       /* handles and uint64_t */
    double d;
    size_t z;
    int i;            /* int and enums */
    bool b;
    uint32_t u32;
    void (*fp)(void); /* callbacks, cast back to their type by the wrapper */
} mx_val;

/* Argument classes: how the baseline is made and which bad values are
 * tried (classes.c). */
typedef enum mx_class {
    A_NONE = 0,
    A_SYS,     /* the fixture's system: NULL refused (no message possible) */
    A_LAT,     /* the fixture's lattice */
    A_KIN,     /* the fixture's reaction network */
    A_JAC,     /* the Jacobian accumulator inside a callback (rows_force.c) */
    A_PART,    /* handles: role = object; zero, wrong kind, foreign, stale, */
    A_FORCE,   /* never issued and all-ones handles refused */
    A_CONS,
    A_GROUND,
    A_RIGID,
    A_FINITE,  /* double, finite: NaN, +-inf refused */
    A_POS,     /* double, finite and > 0 */
    A_NONNEG,  /* double, finite and >= 0 */
    A_VEC,     /* role = vector: NULL, NaN, +-inf refused; zero and huge accepted */
    A_VEC_NZ,  /* as A_VEC, zero refused */
    A_VEC_OPT, /* as A_VEC, NULL accepted */
    A_BULK,    /* a whole-system input array: NULL and non-finite at a live entry
                  refused, non-finite at a removed index accepted */
    A_OUT,     /* an output: NULL refused */
    A_OPT,     /* an optional output: NULL accepted */
    A_ENUM,    /* int or enum in [lo, hi] = [base, role]: values around refused */
    A_ENUM_ANY,/* an enum stored as given: values out of range accepted */
    A_CAP,     /* capacity of an output, role = need: 0 and need - 1 refused, SIZE_MAX
                  accepted */
    A_CAP_ANY, /* a capacity that may be short (the call writes a prefix) */
    A_COUNT,   /* count of an input, role = need: must be exact */
    A_RANGE,   /* size_t in [base, hi-need], baseline role-need: values around refused */
    A_INDEX,   /* index below role = need: need and SIZE_MAX refused */
    A_SIZED_GET, /* a size-first report or options struct to fill, role = struct */
    A_SIZED_SET, /* a size-first struct to copy in, role = struct */
    A_DESC,    /* a description (size-first) to read, role = struct */
    A_HLIST,   /* an array of particle handles, role = list */
    A_FN,      /* a callback, role = which: NULL refused */
    A_FN_OPT,  /* a callback that may be NULL */
    A_USER,    /* a user pointer: anything accepted */
    A_BOOL,    /* a flag: both values accepted */
    A_U64,     /* uint64_t in [base, hi-need], baseline role-need: values around refused */
    A_STR,     /* a string, role = which */
    A_ALLOC,   /* an allocator: NULL accepted, one lacking alloc or free refused */
    A_OBJ_OUT, /* cdyn_system ** and the like: NULL refused */
    A_BYTES,   /* a byte buffer, role = which (snapshot, text): NULL refused */
    A_PATH,    /* a file name, role = which: NULL refused, an unreachable one IO */
    A_KLIST,   /* species indices of a reaction, role = list */
    A_KCOEF,   /* their coefficients: NULL accepted (all ones) */
    A_CLASS_COUNT
} mx_class;

/* The bad values. A class tries a fixed subset; each has a default status. */
typedef enum mx_bad {
    B_NULL, B_NAN, B_INF, B_NINF, B_ZERO, B_NEG, B_NTINY, B_TINY, B_HUGE, B_NHUGE, B_MAX,
    B_H_ZERO, B_H_KIND, B_H_FOREIGN, B_H_STALE, B_H_NEVER, B_H_ONES,
    B_E_BELOW, B_E_ABOVE, B_E_MIN, B_E_MAX,
    B_CAP_ZERO, B_CAP_SHORT, B_CAP_HUGE, B_CNT_LESS, B_CNT_MORE,
    B_Z_BELOW, B_Z_ABOVE, B_IDX_END,
    B_SZ_ZERO, B_SZ_SMALL, B_SZ_MIN, B_SZ_LESS, B_SZ_MORE, B_SZ_HUGE,
    B_DEAD_NAN, B_DUP, B_FLIP, B_EMPTY, B_LONG, B_TAKEN, B_UNKNOWN,
    B_NOALLOC, B_NOFREE, B_CORRUPT, B_GARBAGE, B_NOFILE,
    B_COEF_ZERO, B_COEF_BIG, B_ALT0, B_ALT1, B_ALT2,
    B_COUNT_
} mx_bad;

#define BIT(b) (1ull << (b))

/* An argument of a row. */
typedef struct mx_arg {
    uint8_t cls;       /* mx_class */
    uint8_t role;      /* class-specific: which object, vector, struct, need */
    uint8_t hi;        /* ranges: the need that is the upper bound */
    double base;       /* baseline of scalars; lower bound of ranges */
    uint64_t ok;       /* bad values accepted here, besides the class's */
    uint64_t no;       /* bad values refused here though the class accepts them */
    uint64_t may;      /* bad values either accepted or refused (both documented) */
    cdyn_status may_st; /* status of the refusals of @c may (0: as the others') */
    uint64_t skip;     /* bad values not tried here */
    cdyn_status st;    /* status of this argument's refusals (0: each value's default) */
    uint8_t alt[3];    /* other roles to try (B_ALT0..2), each refused with alt_st */
    cdyn_status alt_st[3];
} mx_arg;

/* A fixture of a case: the objects the rows' roles name (fixture.c). */
typedef struct mx_fix mx_fix;

/* The context of one call: the fixture, per-argument buffers and what a
 * wrapper found broken in the contract (outputs on failure and the like). */
typedef struct mx_ctx mx_ctx;

typedef cdyn_status (*mx_call)(mx_ctx *c, mx_val *a);

/* Row flags. */
enum {
    MX_Q = 1u << 0,       /* a query: the state must not change, even on success; allowed
                             from a callback */
    MX_BOOL = 1u << 1,    /* the wrapper maps a false/empty answer to INVALID_* */
    MX_NOMSG = 1u << 2,   /* records no message: the primed one must survive */
    MX_2D = 1u << 3,      /* needs a 2-D system */
    MX_NOBUSY = 1u << 4,  /* not refused from a callback (documented so) */
    MX_MSG_ANY = 1u << 5, /* the message names the function after another (nested) */
    MX_WRITES = 1u << 6,  /* outputs are unspecified after a failure */
    MX_NOSTATE = 1u << 7, /* no state to compare (the wrapper checks what it can) */
    MX_KEEPS = 1u << 8,   /* changes nothing (as a query) but is refused from a callback */
    MX_FLAT = 1u << 9,    /* a system without particles on shapes (backward Euler's) */
};

typedef struct mx_row {
    const char *name;   /* the exported function */
    mx_call call;
    unsigned flags;
    uint32_t also;      /* statuses (bits) an accepted value may also give */
    const char *note;   /* what the variant tries, "" for the main row */
    mx_arg args[MX_MAXARGS];
} mx_row;

/* Roles of particles, forces, constraints, grounds and rigid bodies. */
enum { P_FREE, P_FREE2, P_SA, P_SB, P_DA, P_DB, P_ANCHOR, P_PIN, P_PLANE, P_USER0, P_USER1,
       P_IMPL, P_CURVE, P_SURF, P_R0, P_R1, P_R2, P_R3, P_PAIR0, P_PAIR1, P_PAIR2, P_FIXED,
       P_KIN, P_GROUND, P_NEW0, P_NEW1, P_NEW2, P_NEW3, P_PARAB, P_COUNT };
enum { F_GRAVITY, F_SPRING, F_DRAG, F_CB, F_JAC, F_PAIRS, F_PAIRSET, F_COUNT };
enum { C_DIST, C_ANCHOR, C_PIN, C_PLANE, C_USER, C_IMPL, C_CURVE, C_SURF, C_PARAB, C_COUNT };
enum { G_PLANE, G_SPHERE, G_HF, G_CB, G_COUNT };
enum { R_BODY, R_COUNT };

/* Vector roles (inputs), with their lengths. */
enum { V_POINT, V_VEL, V_G, V_NORMAL, V_FORCE, V_BOX_ORIGIN, V_BOX_LENGTHS, V3_OMEGA, V3_POINT,
       V_Q1, V_Q2, V_BLOCK,
       V_ALL_X, V_ALL_V, V_ALL_F, V_HEIGHTS, V_CONC, V_ATOL, V_TIMES, V_COUNT };

/* What a capacity or count must hold (fixture.c: mx_need). */
enum { N_XD, N_IDX, N_ROWS_USER, N_RIGID, N_NEWTON, N_CONTACTS, N_LAT, N_WALK, N_LAT_W,
       N_LAT_H, N_SPECIES, N_REACTIONS, N_STOICH, N_MOIETY_VALUES, N_MOIETIES, N_SNAP,
       N_ASC, N_TEXT, N_TIMES_OUT, N_PAIRS, N_SET, N_USER, N_USER_ROWS, N_RIGID_NEW,
       N_SITES, N_ERRBUF, N_ONE, N_TWO, N_64, N_2_30, N_U32MAX, N_SYS_SNAP, N_SMALL_SNAP,
       N_COUNT };

/* Struct roles (structs.c). */
enum { S_RK45, S_RK45_STATS, S_NEWTON, S_NEWTON_STATS, S_SOLVER, S_SOLVER_STATS, S_PROJ,
       S_PROJ_STATS, S_MOTION_LIN, S_MOTION_OSC, S_MOTION_ROT, S_MOTION_CB, S_SCHED_LIN,
       S_SCHED_OSC, S_SCHED_CB, S_PAIR_HERTZ, S_PAIR_WCA, S_PAIR_LJ, S_PAIR_TABLE, S_PAIR_CB,
       S_PAIR_STATS, S_LANGEVIN, S_CURVE_LINE, S_CURVE_CIRCLE,
       S_CURVE_PARABOLA, S_CURVE_HELIX, S_CURVE_CYCLOID, S_CURVE_NATURAL, S_CURVE_CLAMPED,
       S_CURVE_CLOSED, S_CURVE_CB, S_SURF_PLANE, S_SURF_SPHERE, S_SURF_TORUS, S_SURF_HF,
       S_SURF_CB, S_HF, S_HF2, S_LAT_COUNTERS, S_LAT_STATS, S_LAT_STATS_OPTS, S_KIN_OPTS,
       S_KIN_STATS, S_TASKS, S_COUNT };

/* Handle lists, callbacks, strings, byte buffers, paths, species lists. */
enum { L_PAIRS, L_SET, L_USER, L_RIGID, L_EXCL, L_COUNT };
enum { FN_FORCE, FN_JAC, FN_USER, FN_IMPLICIT, FN_GROUND, FN_RATE, FN_RATE_JAC, FN_CURVE,
       FN_SURFACE, FN_MOTION, FN_SCHEDULE, FN_PAIR, FN_COUNT };
enum { STR_NEW, STR_KNOWN };
enum { BYTES_SNAPSHOT, BYTES_ASC, BYTES_RECEIVERS, BYTES_MASK, BYTES_PERIODIC, BYTES_SYS_SNAPSHOT };
enum { PATH_READ, PATH_WRITE };
enum { K_REACTANTS, K_PRODUCTS, K_DEPS };

/* ---- Argument macros: the rows' vocabulary ----------------------------
 * Each is a list of designators; a row puts each argument in braces and may
 * add modifiers: {PART(P_FREE), ALT(P_R0, INVALID)}, {POS(2), OK(BIT(B_ZERO))}. */
#define SYS .cls = A_SYS
#define LAT .cls = A_LAT
#define KIN .cls = A_KIN
#define JAC .cls = A_JAC
#define PART(r) .cls = A_PART, .role = (r)
#define FORCE(r) .cls = A_FORCE, .role = (r)
#define CONS(r) .cls = A_CONS, .role = (r)
#define GROUND(r) .cls = A_GROUND, .role = (r)
#define RIGID(r) .cls = A_RIGID, .role = (r)
#define FINITE(v) .cls = A_FINITE, .base = (v)
#define POS(v) .cls = A_POS, .base = (v)
#define NONNEG(v) .cls = A_NONNEG, .base = (v)
#define VEC(r) .cls = A_VEC, .role = (r)
#define VEC_NZ(r) .cls = A_VEC_NZ, .role = (r)
#define VEC_OPT(r) .cls = A_VEC_OPT, .role = (r)
#define BULK(r) .cls = A_BULK, .role = (r)
#define OUT .cls = A_OUT
#define OPT .cls = A_OPT
#define ENUM(lo, hi) .cls = A_ENUM, .base = (lo), .role = (hi)
#define ENUM_ANY(v) .cls = A_ENUM_ANY, .base = (v)
#define CAP(n) .cls = A_CAP, .role = (n)
#define CAP_ANY(n) .cls = A_CAP_ANY, .role = (n)
#define COUNT(n) .cls = A_COUNT, .role = (n)
#define RANGE(lo, h, n) .cls = A_RANGE, .base = (lo), .hi = (h), .role = (n)
#define INDEX(n) .cls = A_INDEX, .role = (n)
#define GETS(s) .cls = A_SIZED_GET, .role = (s)
#define SETS(s) .cls = A_SIZED_SET, .role = (s)
#define DESC(s) .cls = A_DESC, .role = (s)
#define HLIST(l) .cls = A_HLIST, .role = (l)
#define FN(f) .cls = A_FN, .role = (f)
#define FN_OPT(f) .cls = A_FN_OPT, .role = (f)
#define USER .cls = A_USER
#define FLAG(v) .cls = A_BOOL, .base = (v)
#define U64(lo, h, n) .cls = A_U64, .base = (lo), .hi = (h), .role = (n)
#define STR(s) .cls = A_STR, .role = (s)
#define ALLOC .cls = A_ALLOC
#define OBJ_OUT .cls = A_OBJ_OUT
#define BYTES(b) .cls = A_BYTES, .role = (b)
#define PATH(p) .cls = A_PATH, .role = (p)
#define KLIST(k) .cls = A_KLIST, .role = (k)
#define KCOEF .cls = A_KCOEF
/* A value with no bad variant tried (a count that must match an array). */
#define CONST_Z(n) .cls = A_RANGE, .role = (n), .skip = ~0ull
#define CONST_I(v) .cls = A_ENUM_ANY, .base = (v), .skip = ~0ull

/* Modifiers. */
#define OK(mask) .ok = (mask)    /* these bad values are accepted here */
#define NO(mask) .no = (mask)    /* these are refused here */
#define MAY(mask) .may = (mask)  /* these may be accepted or refused */
/* these may be accepted or refused with status s (an overflow: DIVERGED) */
#define MAY_ST(mask, s) .may = (mask), .may_st = (s)
#define SKIP(mask) .skip = (mask) /* these are not tried */
#define ST(s) .st = (s)          /* refusals give this status */
#define ALT(r, s) .alt = {(r)}, .alt_st = {(s)}
#define ALT2(r1, s1, r2, s2) .alt = {(r1), (r2)}, .alt_st = {(s1), (s2)}
#define ALT3(r1, s1, r2, s2, r3, s3) .alt = {(r1), (r2), (r3)}, .alt_st = {(s1), (s2), (s3)}
#define INVALID CDYN_ERR_INVALID_ARGUMENT
#define UNSUPPORTED CDYN_ERR_UNSUPPORTED

/* ---- Rows ----------------------------------------------------------- */

/* A wrapper: W(particle_set_mass, a[0].w, a[1].h, a[2].d) defines
 * w_particle_set_mass calling cdyn_particle_set_mass with those values. */
#define W(fn, ...)                                                  \
    static cdyn_status w_##fn(mx_ctx *c, mx_val *a)                  \
    {                                                               \
        (void)c;                                                    \
        (void)a;                                                    \
        return cdyn_##fn(__VA_ARGS__);                              \
    }

#define ROW(fn, fl, ...) {.name = "cdyn_" #fn, .call = w_##fn, .flags = (fl), .note = "", \
                          .args = {__VA_ARGS__}}
/* A variant: another baseline of the same function, with its own wrapper
 * w_<fn>_<v>. */
#define ROWV(fn, v, fl, ...) {.name = "cdyn_" #fn, .call = w_##fn##_##v, .flags = (fl), \
                              .note = #v, .args = {__VA_ARGS__}}
/* A variant through the main wrapper (other roles or structs). */
#define ROWN(fn, v, fl, ...) {.name = "cdyn_" #fn, .call = w_##fn, .flags = (fl), \
                              .note = #v, .args = {__VA_ARGS__}}

/* The row tables, one per header (rows_*.c). */
typedef struct mx_table {
    const char *header;
    const mx_row *rows;
    size_t n;
} mx_table;

extern const mx_table mx_rows_core, mx_rows_system, mx_rows_particle, mx_rows_force,
    mx_rows_pair, mx_rows_constraint, mx_rows_parametric, mx_rows_projection,
    mx_rows_motion, mx_rows_shapes, mx_rows_ground, mx_rows_rigid, mx_rows_lattice,
    mx_rows_kinetics, mx_rows_box, mx_rows_snapshot, mx_rows_tasks;

/* ---- What wrappers may use ------------------------------------------ */

/* The snapshot of a small system without callbacks (two particles and a
 * spring): its size into *n, and its bytes into @p buf when not NULL
 * (room for *n). Aborts if the library cannot make it. */
void mx_small_snapshot(unsigned char *buf, size_t *n);

/* A contract broken inside a wrapper (an output written on failure, a
 * created object not NULL on failure): recorded, the case fails. */
void mx_broken(mx_ctx *c, const char *what);

/* An OK from finite input gives finite output: the first @p n doubles at
 * @p out (when not NULL) must be finite after a call that returned @p st. */
cdyn_status mx_finite_out(mx_ctx *c, cdyn_status st, const void *out, size_t n);

/* The fixture's system, lattice and network of the call (NULL when the row
 * needs none). */
cdyn_system *mx_system(mx_ctx *c);
cdyn_lattice *mx_lattice(mx_ctx *c);
cdyn_kinetics *mx_kinetics(mx_ctx *c);

/* A fresh path in the temporary directory for a file a call writes. */
const char *mx_temp_path(mx_ctx *c);

/* Runs a backward Euler step of the fixture's system whose Jacobian
 * callback calls @p call with @p a (rows_force.c's jacobian_add_block);
 * returns what that call returned and the step's status in *step. */
cdyn_status mx_in_jacobian(mx_ctx *c, mx_call call, mx_val *a, cdyn_status *step);

#endif /* CDYN_MATRIX_H */
