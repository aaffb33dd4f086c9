/* Determinism: a spring-dashpot network (2-D and 3-D) with gravity, drag
 * and a callback force, run with RK4 and with velocity Verlet for 4000
 * steps:
 *  - run twice (the second time through another allocator, with another
 *    system alive so that addresses and handle salts differ) the final
 *    positions and velocities are bit-identical;
 *  - the hash of the final state equals a pinned constant;
 *  - against RK4, velocity Verlet's error on this run falls by a factor
 *    near 4 when dt is halved (order 2): the run is the physics it claims
 *    to be, not just a reproducible number.
 *
 * PINNED HASHES: the constants below are FNV-1a 64 hashes of the final
 * state (time, then positions, then velocities, each double as its IEEE-754
 * bits in little-endian byte order, so the value does not depend on the
 * host's byte order). The build uses -ffp-contract=off and the library a
 * fixed order of operations, so they hold on every IEEE-754 platform with a
 * correctly rounded sqrt (the only libm function on this path). They change
 * only on a deliberate change of the arithmetic (the order of a sum in a
 * force, an integrator's formula); such a change updates them here together
 * with a line in CHANGELOG.md saying so. A failure with no such change is a
 * determinism bug. To print the current values, run this test with
 * CDYN_PRINT_HASHES=1 in the environment. */
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

#include "support.h"

/* Pinned: see the comment at the top before changing one. */
#define HASH_2D_RK4 UINT64_C(0x73787155885f357b)
#define HASH_2D_VERLET UINT64_C(0x67d74826056d4305)
#define HASH_3D_RK4 UINT64_C(0x6f9a32a7a10c9046)
#define HASH_3D_VERLET UINT64_C(0x8a54d5b75dc99078)

#define STEPS 4000
#define DT 1e-3
#define MAX_P 80

typedef struct result {
    size_t n;       /* index count * dim */
    double time;
    double x[3 * MAX_P], v[3 * MAX_P];
    unsigned long calls;
} result;

/* A swirl about the z axis that fades with speed and a push growing with
 * time: polynomial only, so no libm rounding enters the pinned state. */
static int swirl(const cdyn_system *sys, double t, size_t n, int dim, const double *x,
                 const double *v, double *f, void *user)
{
    (void)sys;
    unsigned long *calls = user;
    ++*calls;
    for (size_t i = 0; i < n; i++) {
        const double *xi = x + i * (size_t)dim, *vi = v + i * (size_t)dim;
        double *fi = f + i * (size_t)dim;
        double speed2 = 0;
        for (int k = 0; k < dim; k++)
            speed2 += vi[k] * vi[k];
        double s = 0.3 / (1.0 + speed2);
        fi[0] += -s * xi[1] + 0.02 * t;
        fi[1] += s * xi[0];
        if (dim == 3)
            fi[2] += -0.1 * xi[2] * xi[2] * xi[2];
    }
    return 0;
}

/* nx * ny * nz particles 0.1 apart (nz = 1 in 2-D), the first row fixed;
 * springs to the neighbours along each axis and across face diagonals. */
static void run(int dim, cdyn_integrator integ, double dt, int steps,
                const cdyn_allocator *alloc, result *out)
{
    const int nx = 6, ny = dim == 2 ? 6 : 4, nz = dim == 2 ? 1 : 3;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create_with_allocator(dim, alloc, &sys), CDYN_OK);
    cdyn_particle p[MAX_P];
    int np = 0;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                double pos[3] = {0.1 * i + 0.003 * j, -0.1 * j, 0.1 * k + 0.002 * i};
                double vel[3] = {0.0, 0.0, 0.0};
                vel[0] = 0.05 * (double)((i * 7 + j * 3 + k) % 5) - 0.1;
                double mass = 1.0 + 0.1 * (double)((i + 2 * j + 3 * k) % 4);
                assert_true(np < MAX_P);
                assert_int_equal(cdyn_particle_add(sys, mass, pos, vel, &p[np]), CDYN_OK);
                if (j == 0 && k == 0)
                    assert_int_equal(cdyn_particle_set_fixed(sys, p[np], true), CDYN_OK);
                np++;
            }
#define AT(i, j, k) p[((k) * ny + (j)) * nx + (i)]
    cdyn_force f;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                double stiff = 400.0 + 10.0 * (double)((i + j + k) % 3);
                if (i + 1 < nx)
                    assert_int_equal(cdyn_force_add_spring(sys, AT(i, j, k), AT(i + 1, j, k), stiff,
                                                           0.4, 0.1, &f), CDYN_OK);
                if (j + 1 < ny)
                    assert_int_equal(cdyn_force_add_spring(sys, AT(i, j, k), AT(i, j + 1, k), stiff,
                                                           0.4, 0.1, &f), CDYN_OK);
                if (k + 1 < nz)
                    assert_int_equal(cdyn_force_add_spring(sys, AT(i, j, k), AT(i, j, k + 1), stiff,
                                                           0.4, 0.1, &f), CDYN_OK);
                if (i + 1 < nx && j + 1 < ny) {
                    assert_int_equal(cdyn_force_add_spring(sys, AT(i, j, k), AT(i + 1, j + 1, k),
                                                           200.0, 0.2, 0.1414, &f), CDYN_OK);
                    assert_int_equal(cdyn_force_add_spring(sys, AT(i + 1, j, k), AT(i, j + 1, k),
                                                           200.0, 0.2, 0.1414, &f), CDYN_OK);
                }
            }
#undef AT
    const double g[3] = {0.0, -9.81, 0.0};
    assert_int_equal(cdyn_force_add_gravity(sys, g, &f), CDYN_OK);
    assert_int_equal(cdyn_force_add_drag(sys, 0.05, &f), CDYN_OK);
    out->calls = 0;
    assert_int_equal(cdyn_force_add_callback(sys, swirl, &out->calls, true, &f), CDYN_OK);
    assert_int_equal(cdyn_system_set_integrator(sys, integ), CDYN_OK);

    for (int s = 0; s < steps; s++)
        if (cdyn_system_step(sys, dt) != CDYN_OK)
            fail_msg("step %d: %s", s, cdyn_system_last_error(sys));

    size_t count;
    assert_int_equal(cdyn_system_get_index_count(sys, &count), CDYN_OK);
    assert_int_equal(count, (size_t)np);
    out->n = count * (size_t)dim;
    memset(out->x, 0, sizeof out->x);
    memset(out->v, 0, sizeof out->v);
    assert_int_equal(cdyn_system_get_positions(sys, out->x, 3 * MAX_P), CDYN_OK);
    assert_int_equal(cdyn_system_get_velocities(sys, out->v, 3 * MAX_P), CDYN_OK);
    assert_int_equal(cdyn_system_get_time(sys, &out->time), CDYN_OK);
    cdyn_system_destroy(sys);
}

static uint64_t hash_result(const result *r)
{
    uint64_t h = ts_hash_doubles(&r->time, 1, 0);
    h = ts_hash_doubles(r->x, r->n, h);
    return ts_hash_doubles(r->v, r->n, h);
}

static void check(int dim, cdyn_integrator integ, uint64_t pinned, const char *name)
{
    static result a, b;
    run(dim, integ, DT, STEPS, NULL, &a);

    /* Second run: another allocator, and a live system occupying the first
     * run's addresses, so nothing may depend on addresses or salts. */
    cdyn_system *other;
    assert_int_equal(cdyn_system_create(dim, &other), CDYN_OK);
    ts_counting_alloc ca;
    memset(&ca, 0, sizeof ca);
    cdyn_allocator alloc = ts_counting_allocator(&ca);
    run(dim, integ, DT, STEPS, &alloc, &b);
    cdyn_system_destroy(other);
    assert_int_equal(ca.live_bytes, 0);

    assert_int_equal(a.n, b.n);
    assert_int_equal(a.calls, b.calls);
    assert_memory_equal(&a.time, &b.time, sizeof a.time);
    assert_memory_equal(a.x, b.x, a.n * sizeof a.x[0]);
    assert_memory_equal(a.v, b.v, a.n * sizeof a.v[0]);

    /* The run went somewhere and stayed finite. */
    for (size_t i = 0; i < a.n; i++)
        assert_true(isfinite(a.x[i]) && isfinite(a.v[i]));

    uint64_t h = hash_result(&a);
    if (getenv("CDYN_PRINT_HASHES"))
        print_message("#define %s UINT64_C(0x%016llx)\n", name, (unsigned long long)h);
    if (h != pinned)
        fail_msg("%s: state hash 0x%016llx != pinned 0x%016llx (see the comment at the top of "
                 "tests/test_determinism.c)", name, (unsigned long long)h,
                 (unsigned long long)pinned);
}

static void test_2d_rk4(void **state)
{
    (void)state;
    check(2, CDYN_INTEGRATOR_RK4, HASH_2D_RK4, "HASH_2D_RK4");
}

static void test_2d_verlet(void **state)
{
    (void)state;
    check(2, CDYN_INTEGRATOR_VELOCITY_VERLET, HASH_2D_VERLET, "HASH_2D_VERLET");
}

static void test_3d_rk4(void **state)
{
    (void)state;
    check(3, CDYN_INTEGRATOR_RK4, HASH_3D_RK4, "HASH_3D_RK4");
}

static void test_3d_verlet(void **state)
{
    (void)state;
    check(3, CDYN_INTEGRATOR_VELOCITY_VERLET, HASH_3D_VERLET, "HASH_3D_VERLET");
}

/* The pinned run is the physics it claims to be: velocity Verlet is of
 * order 2 on this damped, velocity-dependent network (its corrector
 * evaluation keeps it so), so against an RK4 reference its final error
 * drops by a factor near 4 when dt is halved. */
static double max_diff(const result *a, const result *b)
{
    double d = 0;
    for (size_t i = 0; i < a->n; i++)
        d = fmax(d, fmax(fabs(a->x[i] - b->x[i]), fabs(a->v[i] - b->v[i])));
    return d;
}

static void check_verlet_order(int dim)
{
    static result ref, coarse, fine;
    /* RK4's error at dt is (w dt)^2 ~ 1e-3 of Verlet's: a fine reference. */
    run(dim, CDYN_INTEGRATOR_RK4, DT, STEPS, NULL, &ref);
    run(dim, CDYN_INTEGRATOR_VELOCITY_VERLET, DT, STEPS, NULL, &coarse);
    run(dim, CDYN_INTEGRATOR_VELOCITY_VERLET, DT / 2, 2 * STEPS, NULL, &fine);
    double e1 = max_diff(&coarse, &ref), e2 = max_diff(&fine, &ref);
    print_message("dim %d: Verlet error %.3g at dt, %.3g at dt/2: ratio %.3f\n", dim, e1, e2,
                  e1 / e2);
    assert_true(e1 / e2 > 3.5 && e1 / e2 < 4.5);
}

static void test_verlet_order_2d(void **state)
{
    (void)state;
    check_verlet_order(2);
}

static void test_verlet_order_3d(void **state)
{
    (void)state;
    check_verlet_order(3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_2d_rk4),
        cmocka_unit_test(test_2d_verlet),
        cmocka_unit_test(test_3d_rk4),
        cmocka_unit_test(test_3d_verlet),
        cmocka_unit_test(test_verlet_order_2d),
        cmocka_unit_test(test_verlet_order_3d),
    };
    return cmocka_run_group_tests_name("determinism", tests, NULL, NULL);
}
