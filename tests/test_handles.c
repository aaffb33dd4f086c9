/* Handles: every particle and force function refuses a zero, wrong-kind,
 * foreign (another system's) or stale (removed) handle with a status and
 * changes nothing; slots are reused with a new generation; removing a
 * particle removes its springs; is_valid answers without a status.
 *
 * Which status is which (src/handle.c): CDYN_ERR_INVALID_HANDLE for zero,
 * wrong kind, another system's handle or a slot never used;
 * CDYN_ERR_STALE_HANDLE for a removed object of this system. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

#define MAXP 8

/* Two systems with a few particles and forces each. */
typedef struct fixture {
    cdyn_system *sys, *other;
    cdyn_particle p[MAXP];  /* particles of sys */
    cdyn_force spring;      /* p[0]-p[1] */
    cdyn_force gravity;
    cdyn_particle other_p;  /* first particle of other (same slot as p[0]) */
    cdyn_force other_f;     /* first force of other (same slot as spring) */
    cdyn_particle stale_p;  /* a removed particle of sys */
    cdyn_force stale_f;     /* a removed force of sys */
    cdyn_system *extra[8];  /* systems created to get a distinct salt */
    size_t n_extra;
} fixture;

static cdyn_particle add_particle(cdyn_system *sys, double x)
{
    double pos[3] = {x, 0.5 * x, -x};
    cdyn_particle p = 0;
    assert_int_equal(cdyn_particle_add(sys, 1.0 + x, pos, NULL, &p), CDYN_OK);
    assert_true(p != 0);
    return p;
}

/* Builds the other system so that its handles differ from sys's ones in the
 * salt. The salt is per system and collides with probability 1/4096; the
 * first particle of each system has the same kind, generation and slot, so
 * equal handles mean equal salts: then another system is made (the earlier
 * one stays alive, so the address, and thus the salt, differs). */
static void make_other(fixture *fx)
{
    for (;;) {
        cdyn_system *o = NULL;
        assert_int_equal(cdyn_system_create(3, &o), CDYN_OK);
        cdyn_particle q = add_particle(o, 7.0);
        if (q != fx->p[0]) {
            fx->other = o;
            fx->other_p = q;
            break;
        }
        assert_true(fx->n_extra < 8);
        fx->extra[fx->n_extra++] = o;
    }
    /* A spring in the same slot as fx->spring (slot 0). */
    cdyn_particle q2 = add_particle(fx->other, 8.0);
    assert_int_equal(cdyn_force_add_spring(fx->other, fx->other_p, q2, 2.0, 0.1, 1.0,
                                           &fx->other_f), CDYN_OK);
}

static int setup(void **state)
{
    static fixture fx;
    memset(&fx, 0, sizeof fx);
    assert_int_equal(cdyn_system_create(3, &fx.sys), CDYN_OK);
    for (int i = 0; i < MAXP; i++)
        fx.p[i] = add_particle(fx.sys, (double)i);
    assert_int_equal(cdyn_force_add_spring(fx.sys, fx.p[0], fx.p[1], 3.0, 0.2, 0.5, &fx.spring),
                     CDYN_OK);
    const double g[3] = {0, -9.81, 0};
    assert_int_equal(cdyn_force_add_gravity(fx.sys, g, &fx.gravity), CDYN_OK);
    make_other(&fx);

    /* Stale handles: remove the last particle and a drag force. */
    fx.stale_p = fx.p[MAXP - 1];
    assert_int_equal(cdyn_particle_remove(fx.sys, fx.stale_p), CDYN_OK);
    fx.p[MAXP - 1] = 0;
    assert_int_equal(cdyn_force_add_drag(fx.sys, 0.5, &fx.stale_f), CDYN_OK);
    assert_int_equal(cdyn_force_remove(fx.sys, fx.stale_f), CDYN_OK);
    *state = &fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    cdyn_system_destroy(fx->sys);
    cdyn_system_destroy(fx->other);
    for (size_t i = 0; i < fx->n_extra; i++)
        cdyn_system_destroy(fx->extra[i]);
    return 0;
}

/* The whole observable state of a system, to check that a refused call
 * changed nothing. */
typedef struct snapshot {
    size_t count, index_count;
    double x[3 * MAXP], v[3 * MAXP];
    double time, pe;
} snapshot;

static void take(const cdyn_system *sys, snapshot *s)
{
    memset(s, 0, sizeof *s);
    assert_int_equal(cdyn_system_get_particle_count(sys, &s->count), CDYN_OK);
    assert_int_equal(cdyn_system_get_index_count(sys, &s->index_count), CDYN_OK);
    assert_int_equal(cdyn_system_get_positions(sys, s->x, 3 * MAXP), CDYN_OK);
    assert_int_equal(cdyn_system_get_velocities(sys, s->v, 3 * MAXP), CDYN_OK);
    assert_int_equal(cdyn_system_get_time(sys, &s->time), CDYN_OK);
    assert_int_equal(cdyn_system_get_potential_energy(sys, &s->pe), CDYN_OK);
}

static void assert_same(const snapshot *a, const snapshot *b)
{
    assert_int_equal(a->count, b->count);
    assert_int_equal(a->index_count, b->index_count);
    assert_memory_equal(a->x, b->x, sizeof a->x);
    assert_memory_equal(a->v, b->v, sizeof a->v);
    assert_memory_equal(&a->time, &b->time, sizeof a->time);
    assert_memory_equal(&a->pe, &b->pe, sizeof a->pe);
}

/* Calls every function that takes a particle handle with @p bad and checks
 * each returns @p want, leaves its output untouched and changes nothing. */
static void check_particle_refused(cdyn_system *sys, cdyn_particle good, cdyn_particle bad,
                                   cdyn_status want)
{
    snapshot before, after;
    take(sys, &before);
    const double vec[3] = {1.5, 2.5, 3.5};
    double out[3] = {-7, -7, -7};
    size_t idx = 12345;
    double m = -7;
    bool fixed = true;
    cdyn_force f = 777;

    assert_false(cdyn_particle_is_valid(sys, bad));
    assert_int_equal(cdyn_particle_remove(sys, bad), want);
    assert_true(strlen(cdyn_system_last_error(sys)) > 0);
    assert_int_equal(cdyn_particle_get_index(sys, bad, &idx), want);
    assert_int_equal(idx, 12345);
    assert_int_equal(cdyn_particle_get_position(sys, bad, out), want);
    assert_int_equal(cdyn_particle_set_position(sys, bad, vec), want);
    assert_int_equal(cdyn_particle_get_velocity(sys, bad, out), want);
    assert_int_equal(cdyn_particle_set_velocity(sys, bad, vec), want);
    assert_true(out[0] == -7 && out[1] == -7 && out[2] == -7);
    assert_int_equal(cdyn_particle_get_mass(sys, bad, &m), want);
    assert_true(m == -7);
    assert_int_equal(cdyn_particle_set_mass(sys, bad, 2.0), want);
    assert_int_equal(cdyn_particle_set_fixed(sys, bad, true), want);
    assert_int_equal(cdyn_particle_get_fixed(sys, bad, &fixed), want);
    assert_true(fixed);
    /* Springs take two particle handles: a bad one in either place. */
    assert_int_equal(cdyn_force_add_spring(sys, bad, good, 1.0, 0.0, 1.0, &f), want);
    assert_int_equal(cdyn_force_add_spring(sys, good, bad, 1.0, 0.0, 1.0, &f), want);
    assert_true(f == 777);

    take(sys, &after);
    assert_same(&before, &after);
}

/* As check_particle_refused, for every function that takes a force handle. */
static void check_force_refused(cdyn_system *sys, cdyn_force bad, cdyn_status want)
{
    snapshot before, after;
    take(sys, &before);
    cdyn_force_kind kind = (cdyn_force_kind)99;
    double e = -7, t = -7;

    assert_false(cdyn_force_is_valid(sys, bad));
    assert_int_equal(cdyn_force_remove(sys, bad), want);
    assert_true(strlen(cdyn_system_last_error(sys)) > 0);
    assert_int_equal(cdyn_force_get_kind(sys, bad, &kind), want);
    assert_int_equal((int)kind, 99);
    assert_int_equal(cdyn_force_get_energy(sys, bad, &e), want);
    assert_true(e == -7);
    assert_int_equal(cdyn_force_get_spring_tension(sys, bad, &t), want);
    assert_true(t == -7);

    take(sys, &after);
    assert_same(&before, &after);
}

static void test_good_handles_accepted(void **state)
{
    fixture *fx = *state;
    for (int i = 0; i < MAXP - 1; i++) {
        size_t idx;
        assert_true(cdyn_particle_is_valid(fx->sys, fx->p[i]));
        assert_int_equal(cdyn_particle_get_index(fx->sys, fx->p[i], &idx), CDYN_OK);
        assert_int_equal(idx, (size_t)i);
    }
    cdyn_force_kind kind;
    assert_true(cdyn_force_is_valid(fx->sys, fx->spring));
    assert_int_equal(cdyn_force_get_kind(fx->sys, fx->spring, &kind), CDYN_OK);
    assert_int_equal(kind, CDYN_FORCE_SPRING);
    assert_int_equal(cdyn_force_get_kind(fx->sys, fx->gravity, &kind), CDYN_OK);
    assert_int_equal(kind, CDYN_FORCE_GRAVITY);
    /* Distinct objects have distinct handles. */
    for (int i = 0; i < MAXP - 1; i++)
        for (int j = i + 1; j < MAXP - 1; j++)
            assert_true(fx->p[i] != fx->p[j]);
    assert_true(fx->spring != fx->gravity);
}

static void test_zero_handle(void **state)
{
    fixture *fx = *state;
    check_particle_refused(fx->sys, fx->p[0], 0, CDYN_ERR_INVALID_HANDLE);
    check_force_refused(fx->sys, 0, CDYN_ERR_INVALID_HANDLE);
}

static void test_wrong_kind(void **state)
{
    fixture *fx = *state;
    /* A live force handle passed as a particle, and vice versa: both name
     * a slot that is live in the other pool. */
    check_particle_refused(fx->sys, fx->p[0], (cdyn_particle)fx->spring, CDYN_ERR_INVALID_HANDLE);
    check_particle_refused(fx->sys, fx->p[0], (cdyn_particle)fx->gravity, CDYN_ERR_INVALID_HANDLE);
    check_force_refused(fx->sys, (cdyn_force)fx->p[0], CDYN_ERR_INVALID_HANDLE);
    check_force_refused(fx->sys, (cdyn_force)fx->p[1], CDYN_ERR_INVALID_HANDLE);
    /* Stale handles of the wrong kind are still the wrong kind. */
    check_particle_refused(fx->sys, fx->p[0], (cdyn_particle)fx->stale_f, CDYN_ERR_INVALID_HANDLE);
    check_force_refused(fx->sys, (cdyn_force)fx->stale_p, CDYN_ERR_INVALID_HANDLE);
}

static void test_foreign_system(void **state)
{
    fixture *fx = *state;
    /* other_p and other_f name slot 0 of the other system, which is live in
     * sys too (p[0], spring): only the system identity tells them apart. */
    check_particle_refused(fx->sys, fx->p[0], fx->other_p, CDYN_ERR_INVALID_HANDLE);
    check_force_refused(fx->sys, fx->other_f, CDYN_ERR_INVALID_HANDLE);
    /* And the other way round. */
    check_particle_refused(fx->other, fx->other_p, fx->p[0], CDYN_ERR_INVALID_HANDLE);
    check_force_refused(fx->other, fx->spring, CDYN_ERR_INVALID_HANDLE);
    /* A spring between particles of two systems is refused. */
    cdyn_force f = 0;
    assert_int_equal(cdyn_force_add_spring(fx->sys, fx->p[0], fx->other_p, 1, 0, 1, &f),
                     CDYN_ERR_INVALID_HANDLE);
    assert_true(f == 0);
    /* Each system still accepts its own handles. */
    assert_true(cdyn_particle_is_valid(fx->other, fx->other_p));
    assert_true(cdyn_force_is_valid(fx->other, fx->other_f));
}

static void test_stale(void **state)
{
    fixture *fx = *state;
    check_particle_refused(fx->sys, fx->p[0], fx->stale_p, CDYN_ERR_STALE_HANDLE);
    check_force_refused(fx->sys, fx->stale_f, CDYN_ERR_STALE_HANDLE);
    /* Removing twice: the second time the handle is stale. */
    cdyn_particle p = add_particle(fx->sys, 3.25);
    assert_int_equal(cdyn_particle_remove(fx->sys, p), CDYN_OK);
    assert_int_equal(cdyn_particle_remove(fx->sys, p), CDYN_ERR_STALE_HANDLE);
    cdyn_force d;
    assert_int_equal(cdyn_force_add_drag(fx->sys, 0.25, &d), CDYN_OK);
    assert_int_equal(cdyn_force_remove(fx->sys, d), CDYN_OK);
    assert_int_equal(cdyn_force_remove(fx->sys, d), CDYN_ERR_STALE_HANDLE);
}

static void test_never_used_slot(void **state)
{
    fixture *fx = *state;
    /* A handle whose slot was never handed out (the last valid handle with
     * a slot far beyond the pool) is refused, whatever its code. */
    size_t n;
    assert_int_equal(cdyn_system_get_index_count(fx->sys, &n), CDYN_OK);
    cdyn_particle forged = fx->p[0] + 1000u;
    assert_false(cdyn_particle_is_valid(fx->sys, forged));
    double out[3];
    assert_int_not_equal(cdyn_particle_get_position(fx->sys, forged, out), CDYN_OK);
    cdyn_force forged_f = fx->gravity + 1000u;
    assert_false(cdyn_force_is_valid(fx->sys, forged_f));
    assert_int_not_equal(cdyn_force_remove(fx->sys, forged_f), CDYN_OK);
    size_t n2;
    assert_int_equal(cdyn_system_get_index_count(fx->sys, &n2), CDYN_OK);
    assert_int_equal(n, n2);
}

static void test_null_system(void **state)
{
    fixture *fx = *state;
    double out[3];
    size_t idx;
    assert_false(cdyn_particle_is_valid(NULL, fx->p[0]));
    assert_false(cdyn_force_is_valid(NULL, fx->spring));
    assert_int_equal(cdyn_particle_get_index(NULL, fx->p[0], &idx), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_get_position(NULL, fx->p[0], out), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_particle_remove(NULL, fx->p[0]), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_force_remove(NULL, fx->spring), CDYN_ERR_INVALID_ARGUMENT);
}

static void test_slot_reuse_particle(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    cdyn_particle p[4];
    for (int i = 0; i < 4; i++)
        p[i] = add_particle(sys, (double)i);
    size_t idx_old, idx_new, count;
    assert_int_equal(cdyn_particle_get_index(sys, p[2], &idx_old), CDYN_OK);
    assert_int_equal(idx_old, 2);
    assert_int_equal(cdyn_particle_remove(sys, p[2]), CDYN_OK);
    assert_false(cdyn_particle_is_valid(sys, p[2]));

    const double pos[2] = {9.0, -9.0};
    cdyn_particle q;
    assert_int_equal(cdyn_particle_add(sys, 2.0, pos, NULL, &q), CDYN_OK);
    assert_int_equal(cdyn_particle_get_index(sys, q, &idx_new), CDYN_OK);
    assert_int_equal(idx_new, idx_old);  /* slot reused */
    assert_true(q != p[2]);              /* with a new generation */
    assert_true(cdyn_particle_is_valid(sys, q));
    assert_false(cdyn_particle_is_valid(sys, p[2]));
    double out[2];
    assert_int_equal(cdyn_particle_get_position(sys, p[2], out), CDYN_ERR_STALE_HANDLE);
    assert_int_equal(cdyn_particle_get_position(sys, q, out), CDYN_OK);
    assert_true(out[0] == 9.0 && out[1] == -9.0);
    assert_int_equal(cdyn_system_get_index_count(sys, &count), CDYN_OK);
    assert_int_equal(count, 4); /* no new index */

    /* Many remove/add cycles on one slot: every handle differs from all
     * earlier ones of that slot, and only the newest is valid. */
    cdyn_particle seen[64];
    seen[0] = q;
    for (int k = 1; k < 64; k++) {
        assert_int_equal(cdyn_particle_remove(sys, seen[k - 1]), CDYN_OK);
        assert_int_equal(cdyn_particle_add(sys, 1.0, pos, NULL, &seen[k]), CDYN_OK);
        assert_int_equal(cdyn_particle_get_index(sys, seen[k], &idx_new), CDYN_OK);
        assert_int_equal(idx_new, idx_old);
        for (int j = 0; j < k; j++) {
            assert_true(seen[j] != seen[k]);
            assert_int_equal(cdyn_particle_get_index(sys, seen[j], &idx_new),
                             CDYN_ERR_STALE_HANDLE);
        }
        assert_false(cdyn_particle_is_valid(sys, p[2]));
    }
    /* The other particles were untouched. */
    for (int i = 0; i < 4; i++)
        if (i != 2)
            assert_true(cdyn_particle_is_valid(sys, p[i]));
    cdyn_system_destroy(sys);
}

static void test_slot_reuse_force(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(3, &sys), CDYN_OK);
    cdyn_particle a = add_particle(sys, 0.0), b = add_particle(sys, 1.0);
    cdyn_force f0, f1, f2;
    const double g[3] = {0, 0, -1};
    assert_int_equal(cdyn_force_add_gravity(sys, g, &f0), CDYN_OK);
    assert_int_equal(cdyn_force_add_spring(sys, a, b, 1, 0, 1, &f1), CDYN_OK);
    assert_int_equal(cdyn_force_remove(sys, f0), CDYN_OK);
    assert_int_equal(cdyn_force_add_drag(sys, 0.1, &f2), CDYN_OK);
    assert_true(f2 != f0);
    assert_false(cdyn_force_is_valid(sys, f0));
    assert_true(cdyn_force_is_valid(sys, f1));
    assert_true(cdyn_force_is_valid(sys, f2));
    cdyn_force_kind kind;
    assert_int_equal(cdyn_force_get_kind(sys, f0, &kind), CDYN_ERR_STALE_HANDLE);
    assert_int_equal(cdyn_force_get_kind(sys, f2, &kind), CDYN_OK);
    assert_int_equal(kind, CDYN_FORCE_DRAG);
    /* The reused slot's old handle and the new one differ only in
     * generation: as particles, neither is valid (wrong kind). */
    assert_false(cdyn_particle_is_valid(sys, (cdyn_particle)f2));
    cdyn_system_destroy(sys);
}

static void test_remove_particle_removes_springs(void **state)
{
    (void)state;
    cdyn_system *sys;
    assert_int_equal(cdyn_system_create(2, &sys), CDYN_OK);
    cdyn_particle a = add_particle(sys, 0.0), b = add_particle(sys, 1.0),
                  c = add_particle(sys, 2.0);
    cdyn_force ab, bc, ca, ba, grav, drag;
    const double g[2] = {0, -9.81};
    assert_int_equal(cdyn_force_add_spring(sys, a, b, 1, 0.1, 1, &ab), CDYN_OK);
    assert_int_equal(cdyn_force_add_gravity(sys, g, &grav), CDYN_OK);
    assert_int_equal(cdyn_force_add_spring(sys, b, c, 1, 0.1, 1, &bc), CDYN_OK);
    assert_int_equal(cdyn_force_add_spring(sys, c, a, 1, 0.1, 1, &ca), CDYN_OK);
    assert_int_equal(cdyn_force_add_drag(sys, 0.3, &drag), CDYN_OK);
    assert_int_equal(cdyn_force_add_spring(sys, b, a, 2, 0.0, 0.5, &ba), CDYN_OK);

    assert_int_equal(cdyn_particle_remove(sys, b), CDYN_OK);
    /* Springs on b are gone, their handles stale; the rest is untouched. */
    double t;
    assert_false(cdyn_force_is_valid(sys, ab));
    assert_false(cdyn_force_is_valid(sys, bc));
    assert_false(cdyn_force_is_valid(sys, ba));
    assert_int_equal(cdyn_force_get_spring_tension(sys, ab, &t), CDYN_ERR_STALE_HANDLE);
    assert_int_equal(cdyn_force_remove(sys, bc), CDYN_ERR_STALE_HANDLE);
    assert_int_equal(cdyn_force_remove(sys, ba), CDYN_ERR_STALE_HANDLE);
    assert_true(cdyn_force_is_valid(sys, ca));
    assert_true(cdyn_force_is_valid(sys, grav));
    assert_true(cdyn_force_is_valid(sys, drag));
    assert_int_equal(cdyn_force_get_spring_tension(sys, ca, &t), CDYN_OK);

    /* The system still steps with the remaining springs, and the potential
     * energy is that of gravity plus spring ca alone. */
    double pe, e_ca, e_g;
    assert_int_equal(cdyn_system_get_potential_energy(sys, &pe), CDYN_OK);
    assert_int_equal(cdyn_force_get_energy(sys, ca, &e_ca), CDYN_OK);
    assert_int_equal(cdyn_force_get_energy(sys, grav, &e_g), CDYN_OK);
    assert_true(pe == e_ca + e_g);
    assert_int_equal(cdyn_system_step(sys, 1e-3), CDYN_OK);

    /* The freed spring slots are reused with new handles. */
    cdyn_particle d = add_particle(sys, 3.0);
    cdyn_force ad;
    assert_int_equal(cdyn_force_add_spring(sys, a, d, 1, 0, 1, &ad), CDYN_OK);
    assert_true(ad != ab && ad != bc && ad != ba);
    assert_false(cdyn_force_is_valid(sys, ab));
    assert_false(cdyn_force_is_valid(sys, bc));
    assert_false(cdyn_force_is_valid(sys, ba));
    cdyn_system_destroy(sys);
}

static void test_is_valid_answers(void **state)
{
    fixture *fx = *state;
    for (int i = 0; i < MAXP - 1; i++) {
        assert_true(cdyn_particle_is_valid(fx->sys, fx->p[i]));
        assert_false(cdyn_force_is_valid(fx->sys, (cdyn_force)fx->p[i]));
    }
    assert_true(cdyn_force_is_valid(fx->sys, fx->spring));
    assert_true(cdyn_force_is_valid(fx->sys, fx->gravity));
    assert_false(cdyn_particle_is_valid(fx->sys, 0));
    assert_false(cdyn_force_is_valid(fx->sys, 0));
    assert_false(cdyn_particle_is_valid(fx->sys, fx->stale_p));
    assert_false(cdyn_force_is_valid(fx->sys, fx->stale_f));
    assert_false(cdyn_particle_is_valid(fx->sys, fx->other_p));
    assert_false(cdyn_force_is_valid(fx->sys, fx->other_f));
    assert_false(cdyn_particle_is_valid(fx->sys, UINT64_MAX));
    assert_false(cdyn_force_is_valid(fx->sys, UINT64_MAX));
    /* is_valid does not touch the error message. */
    cdyn_particle_remove(fx->sys, 0);
    char msg[512];
    strncpy(msg, cdyn_system_last_error(fx->sys), sizeof msg - 1);
    msg[sizeof msg - 1] = '\0';
    assert_false(cdyn_particle_is_valid(fx->sys, fx->stale_p));
    assert_false(cdyn_force_is_valid(fx->sys, fx->other_f));
    assert_string_equal(msg, cdyn_system_last_error(fx->sys));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_good_handles_accepted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zero_handle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wrong_kind, setup, teardown),
        cmocka_unit_test_setup_teardown(test_foreign_system, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale, setup, teardown),
        cmocka_unit_test_setup_teardown(test_never_used_slot, setup, teardown),
        cmocka_unit_test_setup_teardown(test_null_system, setup, teardown),
        cmocka_unit_test_setup_teardown(test_is_valid_answers, setup, teardown),
        cmocka_unit_test(test_slot_reuse_particle),
        cmocka_unit_test(test_slot_reuse_force),
        cmocka_unit_test(test_remove_particle_removes_springs),
    };
    return cmocka_run_group_tests_name("handles", tests, NULL, NULL);
}
