/* The standard chain stepped by code that knows it is a chain: 2-D
 * positions x_0..x_n (x_0 the fixed pivot), rods g_i = (|d_i|^2 - L^2) / 2
 * with d_i = x_i - x_{i-1}, unit masses, gravity. Each step forms the
 * tridiagonal A = G W G^T and rhs = -G'v - G W F - ks g - kd g' in one pass,
 * solves A lambda = rhs by Thomas elimination, adds G^T lambda and takes a
 * symplectic Euler step: the same equations as the library, without its
 * generality (any topology, any forces, status checks). */
#include "chain_reference.h"

#include <math.h>
#include <stdlib.h>

#include "bench_util.h"

#define LINK 0.1
#define DT 1e-3
#define KS 100.0
#define KD 20.0
#define GY (-9.81)

typedef struct chain {
    long n;
    double *x, *v; /* (n + 1) * 2 */
    double *w;     /* inverse masses, n + 1 (w[0] = 0: the pivot) */
    double *d;     /* rod vectors, (n + 1) * 2 (row i at 2 i) */
    double *piv;   /* pivots of the elimination, n + 1 */
    double *off;   /* A_{i,i+1}, n + 1 */
    double *y;     /* the eliminated rhs, then lambda, n + 2 */
} chain;

static void step(chain *c)
{
    const long n = c->n;
    double *restrict x = c->x, *restrict v = c->v, *restrict d = c->d;
    double *restrict piv = c->piv, *restrict off = c->off, *restrict y = c->y;
    const double *restrict w = c->w;
    /* Rows and forward elimination in one pass (row i needs d_{i+1} for
     * its coupling entry, so d runs one row ahead). */
    d[2] = x[2] - x[0], d[3] = x[3] - x[1];
    double prev_piv = 1, prev_off = 0, prev_y = 0;
    for (long i = 1; i <= n; i++) {
        double dx = d[2 * i], dy = d[2 * i + 1];
        if (i < n)
            d[2 * i + 2] = x[2 * i + 2] - x[2 * i], d[2 * i + 3] = x[2 * i + 3] - x[2 * i + 1];
        double ux = v[2 * i] - v[2 * i - 2], uy = v[2 * i + 1] - v[2 * i - 1];
        double dd = dx * dx + dy * dy;
        /* G W F: W F is gravity for a moving particle, 0 for the pivot. */
        double wf = dy * GY * ((w[i] > 0) - (w[i - 1] > 0));
        double rhs = -(ux * ux + uy * uy) - wf - KS * 0.5 * (dd - LINK * LINK) -
                     KD * (dx * ux + dy * uy);
        double diag = (w[i - 1] + w[i]) * dd;
        off[i] = i < n ? -w[i] * (dx * d[2 * i + 2] + dy * d[2 * i + 3]) : 0;
        double f = prev_off / prev_piv;
        piv[i] = diag - f * prev_off;
        y[i] = rhs - f * prev_y;
        prev_piv = piv[i], prev_off = off[i], prev_y = y[i];
    }
    /* Back substitution, forces G^T lambda and the step, from the free end. */
    y[n + 1] = 0;
    double lam_next = 0, nx = 0, ny = 0;
    for (long i = n; i >= 1; i--) {
        double lam = (y[i] - off[i] * lam_next) / piv[i];
        double dx = d[2 * i], dy = d[2 * i + 1];
        double fx = lam * dx - lam_next * nx, fy = lam * dy - lam_next * ny;
        v[2 * i] += DT * w[i] * fx;
        v[2 * i + 1] += DT * (w[i] * fy + (w[i] > 0) * GY);
        x[2 * i] += DT * v[2 * i];
        x[2 * i + 1] += DT * v[2 * i + 1];
        lam_next = lam, nx = dx, ny = dy;
    }
}

double chain_reference_step_seconds(long n, double *rod_error)
{
    chain c = {.n = n};
    size_t m = (size_t)n + 2;
    c.x = calloc(2 * m, sizeof *c.x);
    c.v = calloc(2 * m, sizeof *c.v);
    c.w = calloc(m, sizeof *c.w);
    c.d = calloc(2 * m, sizeof *c.d);
    c.piv = calloc(m, sizeof *c.piv);
    c.off = calloc(m, sizeof *c.off);
    c.y = calloc(m, sizeof *c.y);
    double seconds = -1;
    if (c.x && c.v && c.w && c.d && c.piv && c.off && c.y) {
        for (long i = 1; i <= n; i++)
            c.x[2 * i] = LINK * (double)i, c.w[i] = 1.0;
        double t0 = bench_now();
        for (int s = 0; s < 1000; s++)
            step(&c);
        seconds = (bench_now() - t0) / 1000.0;
        double worst = 0;
        for (long i = 1; i <= n; i++) {
            double len = hypot(c.x[2 * i] - c.x[2 * i - 2], c.x[2 * i + 1] - c.x[2 * i - 1]);
            worst = fmax(worst, fabs(len - LINK) / LINK);
        }
        *rod_error = worst;
    }
    free(c.x), free(c.v), free(c.w), free(c.d), free(c.piv), free(c.off), free(c.y);
    return seconds;
}

/* RATTLE: velocity Verlet whose constraint impulses come from projections.
 * With x* = x_p + W G0^T mu (G0 = G(x0): x*_i = x_p,i + w_i (mu_i d0_i -
 * mu_(i+1) d0_(i+1))), Newton solves J delta = -g(x*) with the tridiagonal
 * J = G(x*) W G0^T by Thomas elimination in the sweep that evaluates g; the
 * sweep that finds every rod within tolerance stores x1 = x*. The velocity
 * projection solves (G1 W G1^T) nu = -G1 v by one more Thomas pass. */
typedef struct rattle {
    long n;
    double dt;
    double *x, *v, *w, *xp, *d0, *mu, *c, *y, *off; /* x, v, xp, d0: 2 (n + 2); the rest n + 2 */
} rattle;

#define TOL 1e-12
#define MAX_NEWTON 20

/* One sweep at the current mu: residuals, and the forward elimination of
 * J delta = -g. Returns the largest |g| / L^2; stores x* into x when
 * store is set. */
static double newton_sweep(rattle *s, int store)
{
    const long n = s->n;
    const double *restrict xp = s->xp, *restrict d0 = s->d0, *restrict mu = s->mu;
    const double *restrict w = s->w;
    double *restrict c = s->c, *restrict y = s->y, *restrict x = s->x;
    double worst = 0, c_prev = 0, y_prev = 0;
    /* The correction D = W G0^T mu of particle r - 1, carried from the row
     * before (0 for the pivot). The rod vector is formed as
     * (x_p,b - x_p,a) + (D_b - D_a): the first difference is exact for
     * neighbours, so the residual does not carry the rounding of positions
     * far from the origin (x* itself is rounded once, when stored). */
    double ax = 0, ay = 0;
    for (long r = 1; r <= n; r++) {
        double m0 = mu[r], m1 = r < n ? mu[r + 1] : 0.0;
        double d0x = d0[2 * r], d0y = d0[2 * r + 1];
        double dnx = r < n ? d0[2 * r + 2] : 0.0, dny = r < n ? d0[2 * r + 3] : 0.0;
        double bx = w[r] * (m0 * d0x - m1 * dnx), by = w[r] * (m0 * d0y - m1 * dny);
        double ex = (xp[2 * r] - xp[2 * r - 2]) + (bx - ax);
        double ey = (xp[2 * r + 1] - xp[2 * r - 1]) + (by - ay);
        double g = 0.5 * (ex * ex + ey * ey - LINK * LINK);
        worst = fmax(worst, fabs(g));
        double jd = (w[r] + w[r - 1]) * (ex * d0x + ey * d0y);
        double jl = r > 1 ? -w[r - 1] * (ex * d0[2 * r - 2] + ey * d0[2 * r - 1]) : 0.0;
        double ju = -w[r] * (ex * dnx + ey * dny);
        double piv = jd - jl * c_prev;
        c[r] = c_prev = ju / piv;
        y[r] = y_prev = (-g - jl * y_prev) / piv;
        if (store)
            x[2 * r] = xp[2 * r] + bx, x[2 * r + 1] = xp[2 * r + 1] + by;
        ax = bx, ay = by;
    }
    return worst / (LINK * LINK);
}

static int rattle_step(rattle *s, int *newton)
{
    const long n = s->n;
    double *restrict x = s->x, *restrict v = s->v, *restrict xp = s->xp, *restrict d0 = s->d0;
    double *restrict mu = s->mu, *restrict c = s->c, *restrict y = s->y, *restrict off = s->off;
    const double *restrict w = s->w;
    xp[0] = x[0], xp[1] = x[1]; /* the pivot stays */
    for (long i = 1; i <= n; i++) {
        v[2 * i + 1] += 0.5 * s->dt * GY * (w[i] > 0);
        xp[2 * i] = x[2 * i] + s->dt * v[2 * i];
        xp[2 * i + 1] = x[2 * i + 1] + s->dt * v[2 * i + 1];
        d0[2 * i] = x[2 * i] - x[2 * i - 2];
        d0[2 * i + 1] = x[2 * i + 1] - x[2 * i - 1];
    }
    /* Newton from the previous step's multipliers. Every sweep stores
     * x* = x_p + W G0^T mu (x is not read again before the velocity pass),
     * so the sweep that finds the residuals small has left x1 in place. */
    int it = 0;
    while (newton_sweep(s, 1) > TOL) {
        if (++it > MAX_NEWTON)
            return 1;
        double delta = 0;
        for (long r = n; r >= 1; r--) {
            delta = y[r] - (r < n ? c[r] * delta : 0.0);
            mu[r] += delta;
        }
    }
    *newton += it;
    /* Closing kick, then the velocity projection at x1: forward pass. */
    double piv_prev = 1, off_prev = 0, z_prev = 0;
    for (long r = 1; r <= n; r++) {
        v[2 * r] += (x[2 * r] - xp[2 * r]) / s->dt;
        v[2 * r + 1] += (x[2 * r + 1] - xp[2 * r + 1]) / s->dt + 0.5 * s->dt * GY * (w[r] > 0);
        double ex = x[2 * r] - x[2 * r - 2], ey = x[2 * r + 1] - x[2 * r - 1];
        d0[2 * r] = ex, d0[2 * r + 1] = ey; /* G(x1), for the backward pass */
        double rhs = -(ex * (v[2 * r] - v[2 * r - 2]) + ey * (v[2 * r + 1] - v[2 * r - 1]));
        double diag = (w[r] + w[r - 1]) * (ex * ex + ey * ey);
        double f = off_prev / piv_prev;
        double piv = diag - f * off_prev;
        double z = rhs - f * z_prev;
        c[r] = piv, y[r] = z;
        piv_prev = piv, z_prev = z;
        off_prev = 0; /* set from the next row's e below */
        if (r < n) {
            double nx = x[2 * r + 2] - x[2 * r], ny = x[2 * r + 3] - x[2 * r + 1];
            off_prev = -w[r] * (ex * nx + ey * ny);
        }
        off[r] = off_prev;
    }
    /* Backward pass: nu, and v += W G1^T nu. */
    double nu_next = 0, nx = 0, ny = 0;
    for (long r = n; r >= 1; r--) {
        double nu = (y[r] - off[r] * nu_next) / c[r];
        double ex = d0[2 * r], ey = d0[2 * r + 1];
        v[2 * r] += w[r] * (nu * ex - nu_next * nx);
        v[2 * r + 1] += w[r] * (nu * ey - nu_next * ny);
        nu_next = nu, nx = ex, ny = ey;
    }
    return 0;
}

double chain_reference_rattle_seconds(long n, int *steps, double *newton, double *rod_error)
{
    return chain_reference_rattle_run(n, DT, 1000, steps, newton, rod_error, NULL, NULL);
}

double chain_reference_rattle_run(long n, double dt, int max_steps, int *steps, double *newton,
                                  double *rod_error, double *first_step, double *cpu_per_step)
{
    rattle s = {.n = n, .dt = dt};
    size_t m = (size_t)n + 2;
    s.x = calloc(2 * m, sizeof *s.x);
    s.v = calloc(2 * m, sizeof *s.v);
    s.xp = calloc(2 * m, sizeof *s.xp);
    s.d0 = calloc(2 * m, sizeof *s.d0);
    s.w = calloc(m, sizeof *s.w);
    s.mu = calloc(m, sizeof *s.mu);
    s.c = calloc(m, sizeof *s.c);
    s.y = calloc(m, sizeof *s.y);
    s.off = calloc(m, sizeof *s.off);
    double seconds = -1;
    if (s.x && s.v && s.xp && s.d0 && s.w && s.mu && s.c && s.y && s.off) {
        for (long i = 1; i <= n; i++)
            s.x[2 * i] = LINK * (double)i, s.w[i] = 1.0;
        int done = 0, it = 0;
        if (first_step) {
            const double f0 = bench_now();
            int first_it = 0;
            if (rattle_step(&s, &first_it))
                max_steps = 0; /* stalled at once: no step to time */
            *first_step = bench_now() - f0;
        }
        const double c0 = bench_thread_cpu(), t0 = bench_now();
        while (done < max_steps && !rattle_step(&s, &it))
            done++;
        seconds = (bench_now() - t0) / (done > 0 ? done : 1);
        if (cpu_per_step)
            *cpu_per_step = (bench_thread_cpu() - c0) / (done > 0 ? done : 1);
        *steps = done;
        *newton = done > 0 ? (double)it / done : 0.0;
        double worst = 0;
        for (long i = 1; i <= n; i++) {
            double len = hypot(s.x[2 * i] - s.x[2 * i - 2], s.x[2 * i + 1] - s.x[2 * i - 1]);
            worst = fmax(worst, fabs(len - LINK) / LINK);
        }
        *rod_error = worst;
    }
    free(s.x), free(s.v), free(s.xp), free(s.d0), free(s.w), free(s.mu), free(s.c), free(s.y),
        free(s.off);
    return seconds;
}
