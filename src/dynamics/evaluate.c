/* One evaluation of the equations of motion at the committed state, from
 * outside a step (cdyn_system_evaluate, include/cdyn/constraint.h). */
#include <string.h>

#include "box/box.h"
#include "constraint/constraint.h"
#include "core/system.h"
#include "core/workspace.h"
#include "dynamics/dynamics.h"
#include "force/force.h"
#include "generalized/generalized.h"

static cdyn_status evaluate(cdyn_system *sys, double *out, size_t capacity)
{
    cdyn_status st = cdyn__check_mutable(sys, "evaluate");
    if (st)
        return st;
    size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    if (out && capacity < n)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "evaluate: capacity %zu < %zu doubles needed", capacity, n);
    if (n == 0)
        return CDYN_OK;
    if ((st = cdyn__workspace_ensure(sys, 0)) || (st = cdyn__constraints_prepare(sys)) ||
        (st = cdyn__box_reserve(sys)) || (st = cdyn__forces_prepare(sys)) ||
        (st = cdyn__box_prepare(sys)))
        return st;
    /* The acceleration lands in the candidate-state buffer, which no one
     * reads between steps. */
    double *a = sys->x_new;
    sys->in_step = true;
    st = cdyn__dynamics_accel(sys, sys->time, sys->u, sys->ud, a);
    sys->in_step = false;
    if (!st && sys->param_of)
        cdyn__params_cartesian_accel(sys, a);
    if (!st && out)
        memcpy(out, a, n * sizeof *a);
    cdyn__box_undo(sys); /* the state never changes: clusters moved back */
    return st;
}

cdyn_status cdyn_system_evaluate(cdyn_system *sys, double *out, size_t capacity)
{
    const uint64_t mark = cdyn__failure_mark(sys);
    return cdyn__blame(sys, evaluate(sys, out, capacity), mark, "evaluate", NULL);
}
