/* A pendulum through cdyn built as a subproject: prints its period over
 * 2 pi sqrt(L/g) (1 + theta^2/16 = 1.00048 at 5 degrees) and exits 0 when
 * that is 1 to within 1e-3. */
#include <math.h>
#include <stdio.h>

#include <cdyn/cdyn.h>

int main(void)
{
    const double L = 1.0, g = 9.81, th = 5.0 * 3.14159265358979 / 180.0, dt = 1e-3;
    cdyn_system *sys;
    if (cdyn_system_create(2, &sys) != CDYN_OK)
        return 1;
    cdyn_particle bob;
    cdyn_constraint rod;
    cdyn_force f;
    cdyn_particle_add(sys, 1.0, (double[]){L * sin(th), -L * cos(th)}, NULL, &bob);
    cdyn_force_add_gravity(sys, (double[]){0, -g}, &f);
    cdyn_constraint_add_anchor(sys, bob, (double[]){0, 0}, L, &rod);
    cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4);
    double x[2], prev = L * sin(th), t = 0, crossing = 0;
    int halves = 0;
    while (halves < 2 && t < 10) {
        if (cdyn_system_step(sys, dt) != CDYN_OK)
            return 1;
        t += dt;
        cdyn_particle_get_position(sys, bob, x);
        if ((prev > 0) != (x[0] > 0)) {
            crossing = t - dt * x[0] / (x[0] - prev);
            halves++;
        }
        prev = x[0];
    }
    cdyn_system_destroy(sys);
    /* the second crossing of x = 0 is three quarters of a period in */
    double period = crossing * 4.0 / 3.0;
    double ratio = period / (2 * 3.14159265358979 * sqrt(L / g));
    printf("cdyn %s as a subproject: period / 2 pi sqrt(L/g) = %.5f\n", cdyn_version_string(),
           ratio);
    return fabs(ratio - 1.0) < 1e-3 ? 0 : 1;
}
