/* A program outside the tree, built against the installed library with
 * `pkg-config --cflags --libs cdyn` (pkgconfig/consumer/run.sh): the
 * headers and the library agree on the version, and a system steps. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cdyn/cdyn.h>

int main(void)
{
    if (cdyn_version() != CDYN_VERSION_NUMBER ||
        strcmp(cdyn_version_string(), CDYN_VERSION_STRING) != 0) {
        fprintf(stderr, "version mismatch: headers %s (%d), library %s (%u)\n",
                CDYN_VERSION_STRING, CDYN_VERSION_NUMBER, cdyn_version_string(), cdyn_version());
        return 1;
    }

    /* A projectile under gravity: RK4 integrates a constant acceleration
     * exactly, x(t) = x0 + v0 t + g t^2 / 2, up to rounding. */
    cdyn_system *sys = NULL;
    cdyn_particle p;
    cdyn_force g;
    const double x0[3] = {0.0, 1.0, 0.0}, v0[3] = {1.0, 2.0, -0.5}, gv[3] = {0.0, -9.81, 0.0};
    if (cdyn_system_create(3, &sys) != CDYN_OK ||
        cdyn_particle_add(sys, 1.5, x0, v0, &p) != CDYN_OK ||
        cdyn_force_add_gravity(sys, gv, &g) != CDYN_OK ||
        cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RK4) != CDYN_OK) {
        fprintf(stderr, "setup failed: %s\n", cdyn_system_last_error(sys));
        cdyn_system_destroy(sys);
        return 1;
    }
    for (int i = 0; i < 100; i++) {
        cdyn_status st = cdyn_system_step(sys, 0.01);
        if (st != CDYN_OK) {
            fprintf(stderr, "step: %s: %s\n", cdyn_status_name(st), cdyn_system_last_error(sys));
            cdyn_system_destroy(sys);
            return 1;
        }
    }
    double t, x[3];
    cdyn_system_get_time(sys, &t);
    cdyn_particle_get_position(sys, p, x);
    cdyn_system_destroy(sys);
    double err = 0;
    for (int k = 0; k < 3; k++)
        err = fmax(err, fabs(x[k] - (x0[k] + v0[k] * t + 0.5 * gv[k] * t * t)));
    printf("cdyn %s: projectile at t = %g s off by %.3g m\n", cdyn_version_string(), t, err);
    return err < 1e-9 ? 0 : 1;
}
