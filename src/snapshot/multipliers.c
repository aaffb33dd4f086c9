/* The multipliers section of a snapshot: what the constraint solve of the
 * next step starts from. When the saved topology was laid out, the loaded
 * system lays out the same one (the layout depends only on the
 * constraints, which are loaded by now) and takes the multipliers (the
 * warm start of CG and of RATTLE's projections), whether they describe the
 * committed state, and the Jacobian of the last evaluation (what the
 * constraint-force queries and RATTLE's held factorization read).
 *
 *     u8 laid out; then u32 rows, u32 blocks, u8 evaluated, u8 blocks
 *     unstored, f64 x rows multipliers, u8 Jacobian, [f64 x blocks x dim]
 *
 * Before it, the checks that span the sections read so far. */
#include <string.h>

#include "constraint/constraint.h"
#include "core/system.h"
#include "projection/projection.h"
#include "snapshot/snapshot.h"

/* The Jacobian is saved when something may read it: the force queries
 * after an evaluation that stored it, or the factorization RATTLE holds. */
static bool jacobian_read(const cdyn_system *sys)
{
    const cdyn__constraints *k = sys->cons;
    return !k->blocks_unstored && (k->evaluated || cdyn__projection_held(sys));
}

void cdyn__save_multipliers(cdyn__save *S)
{
    const cdyn_system *sys = S->sys;
    const cdyn__constraints *k = sys->cons;
    bool laid_out = k && !k->dirty;
    cdyn__out_u8(&S->w, laid_out ? 1 : 0);
    if (!laid_out)
        return;
    cdyn__out_u32(&S->w, k->n_rows);
    cdyn__out_u32(&S->w, k->n_blocks);
    cdyn__out_u8(&S->w, k->evaluated ? 1 : 0);
    cdyn__out_u8(&S->w, k->blocks_unstored ? 1 : 0);
    cdyn__out_f64s(&S->w, k->lambda, k->n_rows);
    bool jac = jacobian_read(sys);
    cdyn__out_u8(&S->w, jac ? 1 : 0);
    if (jac)
        cdyn__out_f64s(&S->w, k->jac, (size_t)k->n_blocks * (size_t)sys->dim);
}

/* The checks across sections: particles on shapes and the generalized
 * state come together. */
static bool cross_check(cdyn__load *L)
{
    const cdyn_system *sys = L->sys;
    if (L->generalized != (sys->n_param > 0))
        return cdyn__in_fail(&L->r, "the particles %s generalized coordinates but %u are on "
                                    "shapes", L->generalized ? "have" : "lack", sys->n_param);
    return true;
}

bool cdyn__load_multipliers(cdyn__load *L)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    if (!cross_check(L))
        return false;
    bool laid_out = cdyn__in_flag(r, "multipliers: laid out");
    if (!cdyn__load_ok(L) || !laid_out)
        return cdyn__load_ok(L);
    if (!sys->cons)
        return cdyn__in_fail(r, "multipliers without constraints");
    cdyn__constraints *k = sys->cons;
    uint32_t rows = cdyn__in_u32(r), blocks = cdyn__in_u32(r);
    bool evaluated = cdyn__in_flag(r, "multipliers: evaluated");
    bool unstored = cdyn__in_flag(r, "multipliers: blocks unstored");
    if (!cdyn__load_ok(L) || !cdyn__in_room(r, rows, 8, "multipliers"))
        return false;
    /* The layout a step would make; its sizes must be the saved ones. */
    cdyn_status st = cdyn__constraints_prepare(sys);
    if (st == CDYN_ERR_NO_MEMORY)
        return cdyn__load_fail(L, st, "constraint topology: %s", sys->error);
    if (st)
        return cdyn__in_fail(r, "constraint topology: %s", sys->error);
    if (k->n_rows != rows || k->n_blocks != blocks)
        return cdyn__in_fail(r, "multipliers: %u rows and %u blocks saved, the constraints "
                                "make %u and %u", rows, blocks, k->n_rows, k->n_blocks);
    /* Blocks formed from the positions are rods'; no rows, no solve. */
    if ((unstored && !k->all_rods) || (evaluated && rows == 0))
        return cdyn__in_fail(r, "multipliers: flags (evaluated %d, blocks unstored %d) that "
                                "these constraints cannot have", evaluated, unstored);
    /* What the last solve left, finite or not (a step that diverged may
     * leave them otherwise): read as bits. */
    cdyn__in_f64s(r, k->lambda, rows);
    bool jac = cdyn__in_flag(r, "multipliers: Jacobian");
    L->jacobian = jac;
    if (jac)
        cdyn__in_f64s(r, k->jac, (size_t)blocks * (size_t)sys->dim);
    k->evaluated = evaluated;
    k->blocks_unstored = unstored; /* also after a failed solve, which clears evaluated */
    return cdyn__load_ok(L);
}
