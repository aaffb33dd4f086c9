/* The power of the drivers at an evaluation (dynamics/drive.h) and the
 * public total. */
#include "dynamics/drive.h"

#include "cdyn/diagnostics.h"
#include "constraint/constraint.h"
#include "generalized/generalized.h"
#include "ground/ground.h"
#include "kinematic/kinematic.h"

bool cdyn__drives_present(const cdyn_system *sys)
{
    if ((sys->kin && sys->kin->count) || (sys->cons && sys->cons->n_driven) ||
        sys->n_moving_shapes)
        return true;
    const cdyn__grounds *k = sys->grounds;
    for (uint32_t i = 0; k && i < k->slots.count; i++) {
        const cdyn__ground *g = &k->g[i];
        if (k->slots.alive[i] &&
            (g->carrier.moving || g->kind == CDYN_GROUND_CALLBACK || g->surface_velocity[0] != 0 ||
             g->surface_velocity[1] != 0 || g->surface_velocity[2] != 0))
            return true;
    }
    return false;
}

cdyn_status cdyn__drive_power(cdyn_system *sys, double t, const double *x, const double *v,
                              const double *a, double ground_power)
{
    (void)a;
    double p = ground_power + cdyn__kinematics_power(sys, v) + cdyn__params_drive_power(sys);
    const cdyn__constraints *k = sys->cons;
    if (!sys->skip_constraint_solve && k && k->n_rows) {
        double pc;
        cdyn_status st = cdyn__constraints_drive_power(sys, t, x, v, k->lambda, &pc);
        if (st)
            return st;
        p += pc;
    }
    sys->drive_power = p;
    return CDYN_OK;
}

cdyn_status cdyn_system_get_drive_work(const cdyn_system *sys, double *out)
{
    cdyn_status st = cdyn__enter_query(sys, out, "get_drive_work");
    if (!st)
        *out = sys->drive_work;
    return st;
}
