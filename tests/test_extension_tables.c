/* The library's extension points are tables: every integrator a descriptor
 * row, every constraint kind a row of operations, every force kind an ops
 * struct. A kind added to a public enum without its row, or a row missing
 * an operation it must have, fails here instead of falling into a silent
 * default. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "constraint/constraint.h"
#include "core/system.h"
#include "force/force.h"
#include "pair/pair.h"
#include "step/integrator.h"

/* The enums' ranges: values are pinned and appended, never renumbered. */
#define FIRST_INTEGRATOR CDYN_INTEGRATOR_EXPLICIT_EULER
#define LAST_INTEGRATOR CDYN_INTEGRATOR_BACKWARD_EULER
#define FIRST_CONSTRAINT CDYN_CONSTRAINT_DISTANCE
#define LAST_CONSTRAINT CDYN_CONSTRAINT_SURFACE

static void test_every_integrator_has_a_complete_row(void **state)
{
    (void)state;
    for (int id = FIRST_INTEGRATOR; id <= LAST_INTEGRATOR; id++) {
        const cdyn__integrator *row = cdyn__integrator_of((cdyn_integrator)id);
        assert_non_null(row);
        assert_int_equal(row->id, id);
        assert_non_null(row->name);
        assert_non_null(row->step);
        assert_true(row->stages <= 20); /* the workspace's stage pointers */
        /* A state has an init; a state that owns memory says how to free it. */
        if (row->state_size)
            assert_non_null(row->state_init);
        else
            assert_null(row->state_free);
    }
    assert_null(cdyn__integrator_of((cdyn_integrator)0));
    assert_null(cdyn__integrator_of((cdyn_integrator)(LAST_INTEGRATOR + 1)));
    assert_true(LAST_INTEGRATOR < CDYN__INTEGRATOR_SLOTS);
}

static void test_every_constraint_kind_has_a_complete_row(void **state)
{
    (void)state;
    for (int k = FIRST_CONSTRAINT; k <= LAST_CONSTRAINT; k++) {
        const cdyn__constraint_kind *row = cdyn__constraint_kind_of((uint8_t)k);
        assert_non_null(row);
        assert_int_equal(row->kind, k);
        assert_non_null(row->name);
        if (row->shape) {
            /* Generalized coordinates: no rows, so no row operations, and a
             * release that gives the particle back. */
            assert_true(row->coordinates == 1 || row->coordinates == 2);
            assert_null(row->eval);
            assert_null(row->hessian);
            assert_non_null(row->release);
        } else {
            assert_int_equal(row->coordinates, 0);
            assert_non_null(row->eval);
            assert_non_null(row->hessian);
            assert_non_null(row->length_scale);
        }
    }
    assert_null(cdyn__constraint_kind_of(0));
    assert_null(cdyn__constraint_kind_of(LAST_CONSTRAINT + 1));
}

static void test_every_force_kind_has_complete_ops(void **state)
{
    (void)state;
    const cdyn__force_ops *ops[] = {&cdyn__gravity_ops, &cdyn__drag_ops, &cdyn__spring_ops,
                                    &cdyn__callback_ops, &cdyn__pair_ops, &cdyn__pair_set_ops};
    int seen[CDYN_FORCE_PAIR + 1] = {0};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        assert_true(ops[i]->kind >= CDYN_FORCE_GRAVITY && ops[i]->kind <= CDYN_FORCE_PAIR);
        seen[ops[i]->kind] = 1;
        assert_non_null(ops[i]->apply);
        assert_non_null(ops[i]->energy);
        /* Only user callbacks leave their Jacobian to the integrator. */
        if (ops[i]->kind == CDYN_FORCE_CALLBACK)
            assert_null(ops[i]->jacobian);
        else
            assert_non_null(ops[i]->jacobian);
        /* A kind that owns memory releases it; one whose pattern changes
         * with the state has no fixed coupled pairs. */
        if (ops[i]->dynamic_pattern)
            assert_null(ops[i]->coupled_pairs);
        /* A kind that splits names its ends and runs whole too (a run too
         * small to split). */
        assert_true((ops[i]->apply_listed == NULL) == (ops[i]->ends == NULL));
        if (ops[i]->apply_listed)
            assert_non_null(ops[i]->apply_run);
    }
    for (int k = CDYN_FORCE_GRAVITY; k <= CDYN_FORCE_PAIR; k++)
        assert_true(seen[k]);
    assert_non_null(cdyn__pair_ops.release);
    assert_non_null(cdyn__pair_set_ops.release);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_integrator_has_a_complete_row),
        cmocka_unit_test(test_every_constraint_kind_has_a_complete_row),
        cmocka_unit_test(test_every_force_kind_has_complete_ops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
