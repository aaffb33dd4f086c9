/* The standard chain of the benchmarks and tests. */
#include <cdyn/cdyn.h>

#include "support.h"

cdyn_status ts_standard_chain(cdyn_system *sys, int n, cdyn_particle *particles,
                              cdyn_constraint *rods)
{
    cdyn_particle prev, p;
    cdyn_constraint rod;
    cdyn_force g;
    double x[3] = {0, 0, 0};
    cdyn_status st = cdyn_particle_add(sys, 1.0, x, NULL, &prev);
    if (st || (st = cdyn_particle_set_fixed(sys, prev, true)))
        return st;
    if (particles)
        particles[0] = prev;
    for (int i = 1; i <= n; i++) {
        x[0] = 0.1 * i;
        if ((st = cdyn_particle_add(sys, 1.0, x, NULL, &p)) ||
            (st = cdyn_constraint_add_distance(sys, prev, p, 0.1, &rod)))
            return st;
        if (particles)
            particles[i] = p;
        if (rods)
            rods[i - 1] = rod;
        prev = p;
    }
    double gv[3] = {0, -9.81, 0};
    return cdyn_force_add_gravity(sys, gv, &g);
}
