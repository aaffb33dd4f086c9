/* White-box tests of the pair module: the analytic Jacobian (for backward
 * Euler) against central finite differences of the forces, dF/dx and dF/dv,
 * for Hertz and WCA, lists and sets, damped and undamped, 2-D and 3-D. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "force/force.h"
#include "pair/pair.h"
#include "support.h"
#include "core/system.h"
#include "core/alloc.h"
#include "core/tasks.h"
#include "pair/neighbor.h"

#define MAXN 16
#define MAXD (3 * MAXN)

typedef struct dense {
    int dim;
    double dx[MAXD][MAXD], dv[MAXD][MAXD];
    int calls, dv_calls;
} dense;

static void add_block(void *ctx, uint32_t i, uint32_t j, const double *bx, const double *bv)
{
    dense *m = ctx;
    int d = m->dim;
    m->calls++;
    for (int r = 0; r < d; r++)
        for (int c = 0; c < d; c++) {
            m->dx[(int)i * d + r][(int)j * d + c] += bx[r * d + c];
            if (bv)
                m->dv[(int)i * d + r][(int)j * d + c] += bv[r * d + c];
        }
    if (bv)
        m->dv_calls++;
}

static cdyn__pair *pair_of(cdyn_system *sys, cdyn_force f)
{
    uint32_t slot;
    assert_int_equal(cdyn__slots_resolve(&sys->forces, f, CDYN__KIND_FORCE, sys->salt, &slot),
                     CDYN_OK);
    assert_int_equal(cdyn__force_kind(&sys->force[slot]), CDYN_FORCE_PAIR);
    return sys->force[slot].pair;
}

/* Compares the analytic blocks with central differences of the forces. */
static void check_jacobian(cdyn_system *sys, cdyn_force f, size_t n, bool damped)
{
    const int dim = sys->dim;
    const size_t len = n * (size_t)dim;
    cdyn__pair *p = pair_of(sys, f);
    static dense m;
    memset(&m, 0, sizeof m);
    m.dim = dim;
    cdyn__pair_add_jacobian(sys, p, sys->x, sys->v, add_block, &m);
    assert_true(m.calls > 0);
    assert_true(damped ? m.dv_calls == m.calls : m.dv_calls == 0);

    double x[MAXD], v[MAXD], fp[MAXD], fm[MAXD];
    double worst_x = 0, worst_v = 0, scale_x = 0, scale_v = 0;
    for (int which = 0; which < 2; which++) {
        for (size_t j = 0; j < len; j++) {
            memcpy(x, sys->x, len * sizeof *x);
            memcpy(v, sys->v, len * sizeof *v);
            double *z = which ? v : x, h = 1e-6 * fmax(1.0, fabs(z[j]));
            double z0 = z[j];
            z[j] = z0 + h;
            memset(fp, 0, sizeof fp);
            assert_int_equal(cdyn__pair_apply(sys, p, 0.0, x, v, fp), CDYN_OK);
            z[j] = z0 - h;
            memset(fm, 0, sizeof fm);
            assert_int_equal(cdyn__pair_apply(sys, p, 0.0, x, v, fm), CDYN_OK);
            for (size_t i = 0; i < len; i++) {
                double fd = (fp[i] - fm[i]) / (2 * h);
                double an = which ? m.dv[i][j] : m.dx[i][j];
                if (which) {
                    worst_v = fmax(worst_v, fabs(fd - an));
                    scale_v = fmax(scale_v, fabs(an));
                } else {
                    worst_x = fmax(worst_x, fabs(fd - an));
                    scale_x = fmax(scale_x, fabs(an));
                }
            }
        }
    }
    print_message("  dim %d, %zu particles: max |dF/dx| %.3g, error %.2g; max |dF/dv| %.3g, "
                  "error %.2g\n", dim, n, scale_x, worst_x, scale_v, worst_v);
    assert_true(scale_x > 0);
    assert_true(worst_x <= 1e-8 * scale_x);
    if (damped) {
        assert_true(scale_v > 0);
        assert_true(worst_v <= 1e-8 * scale_v);
    } else {
        assert_true(scale_v == 0 && worst_v == 0);
    }
}

/* n particles in a loose cluster with random velocities. */
static void scatter(cdyn_system *sys, size_t n, double spacing, uint64_t seed, cdyn_particle *p)
{
    uint64_t rng = seed;
    int dim = sys->dim;
    for (size_t i = 0; i < n; i++) {
        double x[3] = {spacing * (double)(i % 3) + 0.1 * spacing * ts_rand_sym(&rng),
                       spacing * (double)((i / 3) % 3) + 0.1 * spacing * ts_rand_sym(&rng),
                       dim == 3 ? spacing * (double)(i / 9) + 0.1 * spacing * ts_rand_sym(&rng)
                                : 0};
        double v[3] = {0.3 * ts_rand_sym(&rng), 0.3 * ts_rand_sym(&rng),
                       dim == 3 ? 0.3 * ts_rand_sym(&rng) : 0};
        assert_int_equal(cdyn_particle_add(sys, 1.0, x, v, &p[i]), CDYN_OK);
    }
}

static double lj_u(double r)
{
    double s6 = pow(0.9 / r, 6);
    return 4 * 0.7 * s6 * (s6 - 1);
}

static double lj_f(double r)
{
    double s6 = pow(0.9 / r, 6);
    return 24 * 0.7 * s6 * (2 * s6 - 1) / r;
}

static int lj_cb(const cdyn_system *sys, double t, size_t i, size_t j, double r, double *energy,
                 double *force, double *dforce, void *user)
{
    (void)sys, (void)t, (void)i, (void)j, (void)user;
    double s6 = pow(0.9 / r, 6);
    if (energy)
        *energy = lj_u(r);
    if (force)
        *force = lj_f(r);
    if (dforce)
        *dforce = 24 * 0.7 * s6 * (7 - 26 * s6) / (r * r);
    return 0;
}

static double table[2 * 200];

static void check_case(int dim, cdyn_pair_kind kind, bool set, double damping, uint64_t seed)
{
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(dim, &sys), CDYN_OK);
    const size_t n = dim == 3 ? 14 : 9;
    cdyn_particle p[MAXN];
    double spacing = kind == CDYN_PAIR_HERTZ ? 0.92 : 1.02;
    scatter(sys, n, spacing, seed, p);
    cdyn_pair_params pp;
    cdyn_pair_params_init(&pp, kind);
    pp.stiffness = 300;
    pp.radius = 0.5;
    pp.epsilon = 0.7;
    pp.sigma = 1.0;
    pp.damping = damping;
    if (kind == CDYN_PAIR_LJ) {
        pp.sigma = 0.9;
        pp.cutoff = 1.6;
    } else if (kind == CDYN_PAIR_TABLE) {
        for (int k = 0; k < 200; k++) {
            double r = 0.6 + k * (1.6 - 0.6) / 199;
            table[2 * k] = lj_u(r);
            table[2 * k + 1] = lj_f(r);
        }
        pp.table = table;
        pp.table_size = 200;
        pp.table_r_min = 0.6;
        pp.cutoff = 1.6;
    } else if (kind == CDYN_PAIR_CALLBACK) {
        pp.fn = lj_cb;
        pp.cutoff = 1.6;
    }
    if (seed % 3 == 0) /* some cases through the faces of a periodic box */
        assert_int_equal(cdyn_system_set_box(sys, (double[]){0.6, 0.7, 0.8},
                                             (double[]){3.7, 3.5, 3.9},
                                             (bool[]){true, true, true}),
                         CDYN_OK);
    cdyn_force f;
    if (set) {
        assert_int_equal(cdyn_force_add_pair_set(sys, &pp, p, n, &f), CDYN_OK);
    } else {
        cdyn_particle list[2 * MAXN];
        for (size_t i = 0; i + 1 < n; i++) {
            list[2 * i] = p[i];
            list[2 * i + 1] = p[i + 1];
        }
        assert_int_equal(cdyn_force_add_pairs(sys, &pp, list, n - 1, &f), CDYN_OK);
    }
    if (kind == CDYN_PAIR_HERTZ)
        for (size_t i = 0; i < n; i += 3)
            assert_int_equal(cdyn_force_set_pair_radius(sys, f, p[i], 0.53), CDYN_OK);
    static const char *names[] = {"", "Hertz", "WCA", "LJ", "table", "callback"};
    print_message("%s %s, damping %g%s:\n", names[kind], set ? "set" : "list", damping,
                  seed % 3 == 0 ? ", periodic" : "");
    check_jacobian(sys, f, n, damping > 0);
    cdyn_system_destroy(sys);
}

static void test_jacobian_matches_finite_differences(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++)
        for (int kind = 1; kind <= 5; kind++)
            for (int set = 0; set <= 1; set++)
                for (int damped = 0; damped <= 1; damped++)
                    check_case(dim, (cdyn_pair_kind)kind, set, damped ? 0.05 : 0.0,
                               (uint64_t)(dim * 100 + kind * 10 + set * 2 + damped));
}

/* Blocks sum to zero over each block row (translation invariance) and the
 * undamped dx Jacobian is symmetric (a conservative force). */
static void test_jacobian_structure(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(3, &sys), CDYN_OK);
    cdyn_particle p[MAXN];
    scatter(sys, 12, 0.92, 7, p);
    cdyn_pair_params pp;
    cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ);
    pp.stiffness = 100;
    cdyn_force f;
    assert_int_equal(cdyn_force_add_pair_set(sys, &pp, p, 12, &f), CDYN_OK);
    static dense m;
    memset(&m, 0, sizeof m);
    m.dim = 3;
    cdyn__pair_add_jacobian(sys, pair_of(sys, f), sys->x, sys->v, add_block, &m);
    double worst_sym = 0, worst_row = 0, scale = 0;
    for (int i = 0; i < 36; i++)
        for (int j = 0; j < 36; j++) {
            scale = fmax(scale, fabs(m.dx[i][j]));
            worst_sym = fmax(worst_sym, fabs(m.dx[i][j] - m.dx[j][i]));
        }
    for (int i = 0; i < 36; i++)
        for (int c = 0; c < 3; c++) {
            double s = 0;
            for (int jb = 0; jb < 12; jb++)
                s += m.dx[i][jb * 3 + c];
            worst_row = fmax(worst_row, fabs(s));
        }
    assert_true(scale > 0);
    assert_true(worst_sym <= 1e-14 * scale);
    assert_true(worst_row <= 1e-13 * scale);
    cdyn_system_destroy(sys);
}

/* A damped pair separating fast enough that the force is clamped at 0:
 * no blocks at all (and finite differences agree: the force is 0 nearby). */
static void test_jacobian_clamped(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    cdyn_particle a, b;
    cdyn_particle_add(sys, 1, (double[]){0, 0}, (double[]){-5, 0}, &a);
    cdyn_particle_add(sys, 1, (double[]){0.9, 0}, (double[]){5, 0}, &b);
    cdyn_pair_params pp;
    cdyn_pair_params_init(&pp, CDYN_PAIR_HERTZ);
    pp.damping = 0.1; /* 1 - 1.5 alpha r' = 1 - 1.5 < 0 */
    cdyn_force f;
    assert_int_equal(cdyn_force_add_pairs(sys, &pp, (cdyn_particle[]){a, b}, 1, &f), CDYN_OK);
    static dense m;
    memset(&m, 0, sizeof m);
    m.dim = 2;
    cdyn__pair_add_jacobian(sys, pair_of(sys, f), sys->x, sys->v, add_block, &m);
    assert_int_equal(m.calls, 0);
    double acc[4];
    assert_int_equal(cdyn_system_evaluate(sys, acc, 4), CDYN_OK);
    for (int k = 0; k < 4; k++)
        assert_true(acc[k] == 0);
    cdyn_system_destroy(sys);
}

/* ------------------------------------------------------------------------
 * The row-by-row list build in blocks
 * ------------------------------------------------------------------------ */

typedef struct built {
    uint32_t *start, *nbr;
    size_t len;
} built;

/* Builds the list of @p x (n members, 2-D, open) with @p tasks (may be
 * NULL) into @p nl, growing its room when it is too small; copies the
 * result to @p out. */
static void build_list(cdyn__nlist *nl, cdyn__cell_list *cl, const cdyn_allocator *a,
                       uint32_t n, const uint32_t *slot, const double *x,
                       const cdyn__tasks *tasks, built *out)
{
    if (!cdyn__nlist_build(nl, cl, NULL, n, slot, NULL, x, 0.5, NULL, 0, tasks)) {
        assert_int_equal(cdyn__nlist_reserve(nl, a, nl->need, nl->need_sh + 1), CDYN_OK);
        assert_true(cdyn__nlist_build(nl, cl, NULL, n, slot, NULL, x, 0.5, NULL, 0, tasks));
    }
    out->len = nl->start[n];
    out->start = malloc(((size_t)n + 1) * sizeof *out->start);
    out->nbr = malloc((out->len ? out->len : 1) * sizeof *out->nbr);
    assert_non_null(out->start);
    assert_non_null(out->nbr);
    memcpy(out->start, nl->start, ((size_t)n + 1) * sizeof *out->start);
    memcpy(out->nbr, nl->nbr, out->len * sizeof *out->nbr);
}

static void assert_same_list(const built *a, const built *b, uint32_t n)
{
    assert_int_equal(a->len, b->len);
    assert_memory_equal(a->start, b->start, ((size_t)n + 1) * sizeof *a->start);
    assert_memory_equal(a->nbr, b->nbr, a->len * sizeof *a->nbr);
}

static void free_built(built *b)
{
    free(b->start);
    free(b->nbr);
}

/* The list built in blocks equals the serial build entry for entry: on
 * uniform members, and on members crowded into one corner after a build of
 * uniform ones, whose shares of the room (from that build) the crowded
 * blocks overflow, so that the build falls back to the calling thread. */
static void test_rows_in_blocks(void **state)
{
    (void)state;
    const uint32_t n = 60000;
    cdyn_allocator a;
    assert_true(cdyn__allocator_init(&a, NULL));
    double *x = malloc(2 * (size_t)n * sizeof *x);
    uint32_t *slot = malloc((size_t)n * sizeof *slot);
    assert_non_null(x);
    assert_non_null(slot);
    uint64_t seed = 5;
    for (uint32_t i = 0; i < n; i++) {
        slot[i] = i;
        x[2 * i] = 120.0 * (0.5 + 0.5 * ts_rand_sym(&seed));
        x[2 * i + 1] = 120.0 * (0.5 + 0.5 * ts_rand_sym(&seed));
    }
    ts_reverse_host host = {0, 0, 0};
    const cdyn_task_system ts = ts_reverse_tasks(&host, 2);
    cdyn__tasks tasks;
    cdyn__tasks_set(&tasks, &ts);

    for (int crowd = 0; crowd < 2; crowd++) {
        if (crowd) /* a third of the members into a corner, ten times as dense */
            for (uint32_t i = 0; i < n; i += 3) {
                x[2 * i] = 12.0 * (0.5 + 0.5 * ts_rand_sym(&seed));
                x[2 * i + 1] = 12.0 * (0.5 + 0.5 * ts_rand_sym(&seed));
            }
        cdyn__cell_list cl;
        cdyn__nlist nl;
        assert_int_equal(cdyn__cell_list_init(&cl, &a, 2, n, 0), CDYN_OK);
        assert_int_equal(cdyn__nlist_init(&nl, &a, 2, n, false), CDYN_OK);
        nl.skin = nl.skin_used = 0.25;
        built serial, blocks;
        build_list(&nl, &cl, &a, n, slot, x, NULL, &serial);
        if (crowd) {
            /* The last build, of uniform members, sets the blocks' shares. */
            double *u = malloc(2 * (size_t)n * sizeof *u);
            assert_non_null(u);
            uint64_t s2 = 5;
            for (uint32_t i = 0; i < 2 * n; i++)
                u[i] = 120.0 * (0.5 + 0.5 * ts_rand_sym(&s2));
            built uniform;
            build_list(&nl, &cl, &a, n, slot, u, NULL, &uniform);
            free_built(&uniform);
            free(u);
        }
        const unsigned long before = host.loops;
        build_list(&nl, &cl, &a, n, slot, x, &tasks, &blocks);
        assert_true(host.loops > before); /* the blocks ran */
        assert_same_list(&serial, &blocks, n);
        /* Each member's entries ascend (the kernel's blocks rely on it to
         * find the shares that reach them), as the index finds by a scan. */
        assert_true(nl.sorted);
        cdyn__nlist_index(&nl, UINT32_MAX, false);
        assert_true(nl.sorted);
        assert_true(serial.len > n);
        free_built(&serial);
        free_built(&blocks);
        cdyn__nlist_free(&nl, &a);
        cdyn__cell_list_free(&cl, &a);
    }
    free(x);
    free(slot);
}

/* ------------------------------------------------------------------------
 * The cell sort on the host's threads
 * ------------------------------------------------------------------------ */

typedef struct sorted_copy {
    uint32_t *order, *start;
    double *pos, *rad;
    uint32_t used;
} sorted_copy;

static void copy_sorted(const cdyn__cell_list *cl, uint32_t n, sorted_copy *c)
{
    const size_t d = (size_t)cl->dim;
    c->used = cl->n_used;
    c->order = malloc((size_t)n * sizeof *c->order);
    c->start = malloc(((size_t)cl->n_used + 1) * sizeof *c->start);
    c->pos = malloc((size_t)n * d * sizeof *c->pos);
    c->rad = malloc((size_t)n * sizeof *c->rad);
    assert_true(c->order && c->start && c->pos && c->rad);
    memcpy(c->order, cl->order, (size_t)n * sizeof *c->order);
    memcpy(c->start, cl->start, ((size_t)cl->n_used + 1) * sizeof *c->start);
    memcpy(c->pos, cl->pos, (size_t)n * d * sizeof *c->pos);
    if (cl->rad)
        memcpy(c->rad, cl->rad, (size_t)n * sizeof *c->rad);
}

static void assert_same_sort(const cdyn__cell_list *cl, uint32_t n, const sorted_copy *c)
{
    assert_int_equal(cl->n_used, c->used);
    assert_memory_equal(cl->order, c->order, (size_t)n * sizeof *c->order);
    assert_memory_equal(cl->start, c->start, ((size_t)c->used + 1) * sizeof *c->start);
    assert_memory_equal(cl->pos, c->pos, (size_t)n * (size_t)cl->dim * sizeof *c->pos);
    if (cl->rad)
        assert_memory_equal(cl->rad, c->rad, (size_t)n * sizeof *c->rad);
}

static void free_sorted(sorted_copy *c)
{
    free(c->order);
    free(c->start);
    free(c->pos);
    free(c->rad);
}

/* The sort in slabs gives the serial sort's order, positions, radii and
 * bucket starts, entry for entry: on uniform members (dense cells), on
 * members nearly all in a few cells (slabs of very unequal size), on
 * members spread so thinly that their cells are hashed, and with one
 * member not finite (hashed too); in 2-D and 3-D, through a permutation
 * of slots, with and without radii. Then a whole build through the host
 * equals the serial one as well. */
static void test_cell_sort_in_slabs(void **state)
{
    (void)state;
    const uint32_t n = 70001; /* five blocks, the last short */
    cdyn_allocator a;
    assert_true(cdyn__allocator_init(&a, NULL));
    double *x = malloc(3 * (size_t)n * sizeof *x), *rad = malloc((size_t)n * sizeof *rad);
    uint32_t *slot = malloc((size_t)n * sizeof *slot);
    assert_true(x && rad && slot);
    ts_reverse_host host = {0, 0, 0};
    const cdyn_task_system ts = ts_reverse_tasks(&host, 2);
    cdyn__tasks tasks;
    cdyn__tasks_set(&tasks, &ts);
    for (int dim = 2; dim <= 3; dim++)
        for (int layout = 0; layout < 4; layout++) {
            uint64_t seed = (uint64_t)(17 + 10 * dim + layout);
            const size_t d = (size_t)dim;
            for (uint32_t i = 0; i < n; i++) {
                slot[i] = (uint32_t)(((uint64_t)i * 7919u) % n); /* a permutation */
                rad[i] = 0.3 + 0.1 * (0.5 + 0.5 * ts_rand_sym(&seed));
                const double side = layout == 2 ? 1e7 : 60.0;
                for (size_t k = 0; k < d; k++) {
                    double u = side * (0.5 + 0.5 * ts_rand_sym(&seed));
                    if (layout == 1 && i % 50 != 0) /* 98 % within a cell or two */
                        u = 0.3 * (0.5 + 0.5 * ts_rand_sym(&seed));
                    x[i * d + k] = u;
                }
            }
            if (layout == 3)
                x[d * 12345] = NAN;
            const double *r = layout % 2 ? rad : NULL;
            cdyn__cell_list cl;
            assert_int_equal(cdyn__cell_list_init(&cl, &a, dim, n, r != NULL), CDYN_OK);
            cdyn__cell_list_build(&cl, n, slot, x, r, 1.0, 0.2, NULL, NULL);
            assert_int_equal(cl.dense, layout == 0 || layout == 1);
            sorted_copy serial;
            copy_sorted(&cl, n, &serial);
            /* The slabs alone, from the buckets the serial build found. */
            memset(cl.order, 0xA5, (size_t)n * sizeof *cl.order);
            memset(cl.start, 0xA5, ((size_t)cl.n_used + 1) * sizeof *cl.start);
            memset(cl.pos, 0xA5, (size_t)n * d * sizeof *cl.pos);
            const unsigned long before = host.loops;
            assert_true(cdyn__cell_sort_parallel(&cl, n, slot, x, r, &tasks));
            assert_true(host.loops >= before + 3);
            assert_same_sort(&cl, n, &serial);
            /* A whole build through the host. */
            cdyn__cell_list_build(&cl, n, slot, x, r, 1.0, 0.2, NULL, &tasks);
            assert_same_sort(&cl, n, &serial);
            free_sorted(&serial);
            cdyn__cell_list_free(&cl, &a);
        }
    /* Too few members to split: nothing done. */
    cdyn__cell_list small;
    assert_int_equal(cdyn__cell_list_init(&small, &a, 2, 1000, 0), CDYN_OK);
    cdyn__cell_list_build(&small, 1000, NULL, x, NULL, 1.0, 0.2, NULL, NULL);
    assert_false(cdyn__cell_sort_parallel(&small, 1000, NULL, x, NULL, &tasks));
    assert_false(cdyn__cell_sort_parallel(&small, 1000, NULL, x, NULL, NULL));
    cdyn__cell_list_free(&small, &a);
    free(x);
    free(rad);
    free(slot);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jacobian_matches_finite_differences),
        cmocka_unit_test(test_jacobian_structure),
        cmocka_unit_test(test_jacobian_clamped),
        cmocka_unit_test(test_rows_in_blocks),
        cmocka_unit_test(test_cell_sort_in_slabs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
