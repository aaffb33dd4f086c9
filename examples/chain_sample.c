/* Canonical chains of rigid bonds (chain_sample.h). */
#include "chain_sample.h"

#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

double chain_uniform(uint64_t *state)
{
    return (double)(splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}

/* Standard normal, Box-Muller (1 - u keeps the logarithm finite). */
static double normal(uint64_t *state)
{
    double u = 1.0 - chain_uniform(state), w = chain_uniform(state);
    return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * w);
}

/* A direction uniform on the sphere (Archimedes: z uniform in [-1, 1]). */
static void direction(uint64_t *state, double u[3])
{
    double z = 2.0 * chain_uniform(state) - 1.0, phi = 2.0 * M_PI * chain_uniform(state);
    double s = sqrt(fmax(0.0, 1.0 - z * z));
    u[0] = s * cos(phi);
    u[1] = s * sin(phi);
    u[2] = z;
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Acceptance sqrt(det Z / 2^n): Z = tridiag(-c_i, 2, -c_i) with
 * c_i = u_i . u_{i+1}; r_k = det(Z_k) / 2^k obeys
 * r_k = r_{k-1} - (c_{k-1}^2 / 4) r_{k-2} and never exceeds 1 (Hadamard). */
long chain_draw_bonds(uint64_t *state, int n, double *u)
{
    for (long tries = 1;; tries++) {
        double r_prev = 1.0, r = 1.0;
        for (int i = 0; i < n; i++) {
            direction(state, u + 3 * i);
            if (i > 0) {
                double c = dot3(u + 3 * i - 3, u + 3 * i);
                double next = r - 0.25 * c * c * r_prev;
                r_prev = r;
                r = next;
            }
        }
        if (chain_uniform(state) < sqrt(r))
            return tries;
    }
}

/* The projection v -= M^-1 G^T lambda solves (G M^-1 G^T) lambda = G v, a
 * tridiagonal system for a chain (Thomas algorithm; positive definite). */
void chain_draw_velocities(uint64_t *state, int n, const double *u, double *v, double *scratch)
{
    const int beads = n + 1;
    for (int j = 0; j < 3 * beads; j++)
        v[j] = normal(state);
    double *diag = scratch, *rhs = scratch + n, *lam = scratch + 2 * n;
    for (int i = 0; i < n; i++) {
        double dv[3] = {v[3 * i + 3] - v[3 * i], v[3 * i + 4] - v[3 * i + 1],
                        v[3 * i + 5] - v[3 * i + 2]};
        rhs[i] = dot3(u + 3 * i, dv);
        diag[i] = 2.0;
    }
    for (int i = 1; i < n; i++) {
        double off = -dot3(u + 3 * i - 3, u + 3 * i);
        double f = off / diag[i - 1];
        diag[i] -= f * off;
        rhs[i] -= f * rhs[i - 1];
    }
    for (int i = n - 1; i >= 0; i--) {
        double off = i + 1 < n ? -dot3(u + 3 * i, u + 3 * i + 3) : 0.0;
        lam[i] = (rhs[i] - (i + 1 < n ? off * lam[i + 1] : 0.0)) / diag[i];
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            v[3 * i + k] += lam[i] * u[3 * i + k];
            v[3 * i + 3 + k] -= lam[i] * u[3 * i + k];
        }
    /* A uniform shift keeps every bond's rate of change at zero. */
    for (int k = 0; k < 3; k++) {
        double mean = 0;
        for (int j = 0; j < beads; j++)
            mean += v[3 * j + k];
        mean /= beads;
        for (int j = 0; j < beads; j++)
            v[3 * j + k] -= mean;
    }
}
