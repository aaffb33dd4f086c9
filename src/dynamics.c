/* One evaluation of the equations of motion (design.md section 3): clear
 * forces, apply generators, then accelerations from the inverse masses. */
#include "dynamics.h"

#include <string.h>

#include "constraint/constraint.h"
#include "force.h"
#include "system.h"

cdyn_status cdyn__dynamics_accel(cdyn_system *sys, double t, const double *x, const double *v,
                                 double *a)
{
    size_t d = (size_t)sys->dim, n = sys->particles.count;
    double *f = sys->ws.f;
    memset(f, 0, n * d * sizeof *f);
    cdyn_status st = cdyn__forces_apply(sys, t, x, v, f);
    if (st || (st = cdyn__constraints_apply(sys, x, v, f)))
        return st;
    const double *w = sys->inv_mass;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < d; k++)
            a[i * d + k] = w[i] * f[i * d + k];
    return CDYN_OK;
}

int cdyn__dynamics_velocity_dependent(const cdyn_system *sys)
{
    return sys->n_velocity_dependent > 0 || (sys->cons && sys->cons->n_rows > 0);
}
