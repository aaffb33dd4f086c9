/* step_overhead: the cost of one cdyn_system_step from C on the system
 * bench_overhead.py steps from Python, so that the two can be compared.
 *
 * The system: 10 particles in 2-D on a line, 0.1 m apart, the first fixed,
 * joined by springs (k = 100 N/m, damping 0.1 N s/m, rest length 0.1 m)
 * under gravity, symplectic Euler, dt = 1e-4 s.
 *
 * Usage: python_step_overhead [STEPS]   (default 200000)
 * Prints "c_step_ns <ns per step>", the best of 5 repeats.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cdyn/cdyn.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long steps = argc > 1 ? strtol(argv[1], NULL, 10) : 200000;
    cdyn_system *sys = NULL;
    if (steps < 1 || cdyn_system_create(2, &sys) != CDYN_OK)
        return 1;
    cdyn_particle prev = 0;
    cdyn_force spring;
    for (int i = 0; i < 10; i++) {
        cdyn_particle p;
        if (cdyn_particle_add(sys, 1.0, (double[]){0.1 * i, 0.0}, NULL, &p) != CDYN_OK)
            return 1;
        if (i == 0)
            cdyn_particle_set_fixed(sys, p, true);
        else if (cdyn_force_add_spring(sys, prev, p, 100.0, 0.1, 0.1, &spring) != CDYN_OK)
            return 1;
        prev = p;
    }
    cdyn_force g;
    cdyn_force_add_gravity(sys, (double[]){0.0, -9.81}, &g);
    double best = 1e300;
    for (int r = 0; r < 5; r++) {
        double t0 = now();
        for (long s = 0; s < steps; s++)
            if (cdyn_system_step(sys, 1e-4) != CDYN_OK)
                return 1;
        double dt = (now() - t0) / (double)steps;
        if (dt < best)
            best = dt;
    }
    printf("c_step_ns %.1f\n", best * 1e9);
    cdyn_system_destroy(sys);
    return 0;
}
