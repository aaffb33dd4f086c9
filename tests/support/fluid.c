/* A liquid's starting state for the suites of periodic systems. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include <cdyn/cdyn.h>

#include "support.h"

size_t ts_fluid_count(int dim, int n)
{
    size_t m = (size_t)n;
    return dim == 3 ? 4 * m * m * m : 2 * m * m;
}

static double gauss(uint64_t *s)
{
    double u = 0.5 * (ts_rand_sym(s) + 1.0) + 0x1p-60, v = ts_rand_sym(s);
    return sqrt(-2.0 * log(u)) * cos(TS_PI * v);
}

size_t ts_make_fluid(cdyn_system *sys, int n, double rho, double kT, double jitter,
                     uint64_t seed, cdyn_particle *particles)
{
    const int dim = cdyn_system_get_dimension(sys);
    const size_t count = ts_fluid_count(dim, n);
    double a[3], len[3] = {1, 1, 1};
    if (dim == 3) {
        a[0] = a[1] = a[2] = cbrt(4.0 / rho);
    } else {
        a[0] = sqrt(2.0 / (rho * sqrt(3.0)));
        a[1] = a[0] * sqrt(3.0);
        a[2] = 0;
    }
    for (int k = 0; k < dim; k++)
        len[k] = n * a[k];
    double *v = malloc(count * 3 * sizeof *v), *x = malloc(count * 3 * sizeof *x);
    if (!v || !x) {
        free(v);
        free(x);
        return 0;
    }
    static const double fcc[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
    static const double tri[2][3] = {{0.25, 0.25, 0}, {0.75, 0.75, 0}};
    const int per = dim == 3 ? 4 : 2, nz = dim == 3 ? n : 1;
    uint64_t s = seed;
    size_t k = 0;
    double mean[3] = {0, 0, 0}, sum2 = 0;
    for (int cz = 0; cz < nz; cz++)
        for (int cy = 0; cy < n; cy++)
            for (int cx = 0; cx < n; cx++)
                for (int b = 0; b < per; b++, k++) {
                    const double *o = dim == 3 ? fcc[b] : tri[b];
                    const int c[3] = {cx, cy, cz};
                    for (int i = 0; i < 3; i++) {
                        double j = jitter * ts_rand_sym(&s);
                        x[3 * k + (size_t)i] = i < dim ? (c[i] + o[i] + j) * a[i] : 0;
                        v[3 * k + (size_t)i] = i < dim ? gauss(&s) : 0;
                        mean[i] += v[3 * k + (size_t)i] / (double)count;
                    }
                }
    for (size_t i = 0; i < count; i++)
        for (int c = 0; c < dim; c++) {
            v[3 * i + (size_t)c] -= mean[c];
            sum2 += v[3 * i + (size_t)c] * v[3 * i + (size_t)c];
        }
    double scale = sum2 > 0 ? sqrt(kT * dim * (double)(count - 1) / sum2) : 0;
    size_t made = count;
    for (size_t i = 0; i < count; i++) {
        double xi[3], vi[3];
        for (int c = 0; c < 3; c++) {
            xi[c] = x[3 * i + (size_t)c];
            vi[c] = v[3 * i + (size_t)c] * scale;
        }
        cdyn_particle p;
        if (cdyn_particle_add(sys, 1.0, xi, vi, &p) != CDYN_OK) {
            made = 0;
            break;
        }
        if (particles)
            particles[i] = p;
    }
    free(v);
    free(x);
    double origin[3] = {0, 0, 0};
    bool periodic[3] = {true, true, true};
    if (made && cdyn_system_set_box(sys, origin, len, periodic) != CDYN_OK)
        made = 0;
    return made;
}

cdyn_status ts_set_langevin(cdyn_system *sys, double kT, double gamma, uint64_t seed)
{
    cdyn_langevin_options o;
    cdyn_langevin_options_init(&o);
    o.kT = kT;
    o.gamma = gamma;
    o.seed = seed;
    return cdyn_system_set_langevin_options(sys, &o);
}
