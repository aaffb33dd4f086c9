/* The standard chain under RATTLE with twisted eliminations, two rows a
 * time (chain_twisted.h). Rows 1..n join particles r - 1 and r; lane A
 * takes rows 1..m from the pivot down, lane B rows n..m + 1 from the free
 * end up (m = n / 2), each lane a mirror of the other, so that one vector
 * instruction does a row of each. The sweeps are the library kernel's:
 *
 *   Newton    inwards: x* = x_p + W G0^T mu, the residuals, the
 *             elimination of J delta = -g (J = G(x*) W G0^T) towards the
 *             middle, where rows m and m + 1 meet in a 2 x 2 system;
 *   final     outwards: delta, mu + delta, x1 and v_h, each row's residual
 *             and the change of its g over the step;
 *   forward   inwards: the closing kick, A1 = G(x1) W G(x1)^T factored
 *             towards the middle (a tridiagonal matrix factors inwards
 *             without fill), its two right-hand sides eliminated;
 *   backward  outwards from the middle's 2 x 2 system: nu, v1, the
 *             multipliers, each row's velocity test.
 *
 * In lane A the row before (towards the end the lane started from) is
 * r - 1 and the row after r + 1; in lane B the other way round. A row's
 * new particle is r in lane A and r - 1 in lane B, so expressions that
 * name "this row's particle minus the other" carry the lane's sign. */
#include "chain_twisted.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

#if defined(__GNUC__)

#define LINK 0.1
#define GY (-9.81)

typedef double lanes __attribute__((vector_size(16)));

typedef struct twisted {
    long n, m;
    double h;
    double *x0, *v0, *x1, *vh, *v1;           /* 2 (n + 1) */
    double *w, *lam, *nc, *ny, *dres;          /* per particle or row, n + 1 */
    double *pinv, *off, *vz, *vz2;
    double worst_g, worst_v;                   /* largest g^2, (G v)^2 */
} twisted;

static inline lanes pick(const double *a, long ia, long ib)
{
    return (lanes){a[ia], a[ib]};
}

static inline void put(double *a, long ia, long ib, lanes v)
{
    a[ia] = v[0];
    a[ib] = v[1];
}

static inline lanes both(double s)
{
    return (lanes){s, s};
}

static inline lanes larger(lanes a, lanes b)
{
    return (lanes){a[0] > b[0] ? a[0] : b[0], a[1] > b[1] ? a[1] : b[1]};
}

/* Gravity's share of the kick, h/2 g on moving particles. */
static inline lanes kick_y(const twisted *t, long pa, long pb)
{
    return both(0.5 * t->h * GY) * (lanes){t->w[pa] > 0 ? 1.0 : 0.0, t->w[pb] > 0 ? 1.0 : 0.0};
}

#define PX(arr, pa, pb) pick(arr, 2 * (pa), 2 * (pb))
#define PY(arr, pa, pb) pick(arr, 2 * (pa) + 1, 2 * (pb) + 1)

static const lanes SIGN = {1.0, -1.0};

static void newton(twisted *t)
{
    const long n = t->n, m = t->m;
    const double h = t->h, warm = 0.5 * h * h;
    const double *x0 = t->x0, *v0 = t->v0, *w = t->w, *lam = t->lam;
    /* The carried particle (the pivot, particle n), the row vectors e0 of
     * the row before and this one, this row's mu, the row before's
     * coupling to this one, its pivot and its y. */
    const double e0nx = x0[2 * n] - x0[2 * n - 2], e0ny = x0[2 * n + 1] - x0[2 * n - 1];
    const double mun = warm * lam[n];
    const double vny = v0[2 * n + 1] + 0.5 * h * GY;
    lanes xcx = {x0[0], x0[2 * n] + h * v0[2 * n] + w[n] * mun * e0nx};
    lanes xcy = {x0[1], x0[2 * n + 1] + h * vny + w[n] * mun * e0ny};
    lanes wc = {0.0, w[n]}, epx = both(0), epy = both(0);
    lanes ecx = {x0[2] - x0[0], e0nx}, ecy = {x0[3] - x0[1], e0ny};
    lanes muc = {warm * lam[1], mun}, jnp = both(0), pivp = both(1), yp = both(0);
    lanes worst = both(0);
    for (long k = 0; k < m; k++) {
        const long ra = 1 + k, rb = n - k, qa = ra + 1, qb = rb - 1, pa = ra, pb = rb - 1;
        const lanes enx = PX(x0, qa, qb) - PX(x0, qa - 1, qb - 1);
        const lanes eny = PY(x0, qa, qb) - PY(x0, qa - 1, qb - 1);
        const lanes mun_ = both(warm) * pick(lam, qa, qb), wn = pick(w, pa, pb);
        const lanes vpx = PX(v0, pa, pb), vpy = PY(v0, pa, pb) + kick_y(t, pa, pb);
        const lanes dx = SIGN * wn * (muc * ecx - mun_ * enx);
        const lanes dy = SIGN * wn * (muc * ecy - mun_ * eny);
        const lanes xsx = PX(x0, pa, pb) + both(h) * vpx + dx;
        const lanes xsy = PY(x0, pa, pb) + both(h) * vpy + dy;
        const lanes ex = SIGN * (xsx - xcx), ey = SIGN * (xsy - xcy);
        const lanes g = both(0.5) * (ex * ex + ey * ey - both(LINK * LINK));
        worst = larger(worst, g * g);
        const lanes di = (wc + wn) * (ex * ecx + ey * ecy);
        const lanes jp = -(wc * (ex * epx + ey * epy)), jn = -(wn * (ex * enx + ey * eny));
        const lanes piv = di - jp * jnp / pivp, inv = both(1) / piv;
        const lanes y = (-g - jp * yp) * inv;
        put(t->nc, ra, rb, jn * inv);
        put(t->ny, ra, rb, y);
        xcx = xsx, xcy = xsy, wc = wn;
        epx = ecx, epy = ecy, ecx = enx, ecy = eny;
        muc = mun_, jnp = jn, pivp = piv, yp = y;
    }
    t->worst_g = fmax(worst[0], worst[1]);
}

/* Particle n after the outward sweeps, and the end rows' residuals. */
static void final_ends(twisted *t, const double *mu_n, lanes *worst)
{
    const long n = t->n;
    const double h = t->h, *x0 = t->x0, *v0 = t->v0, *w = t->w;
    const double e0x = x0[2 * n] - x0[2 * n - 2], e0y = x0[2 * n + 1] - x0[2 * n - 1];
    const double vpx = v0[2 * n], vpy = v0[2 * n + 1] + 0.5 * h * GY;
    const double dx = w[n] * *mu_n * e0x, dy = w[n] * *mu_n * e0y;
    t->x1[2 * n] = x0[2 * n] + h * vpx + dx;
    t->x1[2 * n + 1] = x0[2 * n + 1] + h * vpy + dy;
    t->vh[2 * n] = vpx + dx / h;
    t->vh[2 * n + 1] = vpy + dy / h;
    t->x1[0] = x0[0], t->x1[1] = x0[1], t->vh[0] = t->vh[1] = 0;
    const long rows[2] = {1, n};
    for (int q = 0; q < 2; q++) {
        const long r = rows[q];
        const double ex = t->x1[2 * r] - t->x1[2 * r - 2], ey = t->x1[2 * r + 1] - t->x1[2 * r - 1];
        const double fx = x0[2 * r] - x0[2 * r - 2], fy = x0[2 * r + 1] - x0[2 * r - 1];
        const double d2 = ex * ex + ey * ey, g = 0.5 * (d2 - LINK * LINK);
        (*worst)[0] = fmax((*worst)[0], g * g);
        t->dres[r] = 0.5 * (d2 - (fx * fx + fy * fy));
    }
}

static void final(twisted *t)
{
    const long m = t->m;
    const double h = t->h, warm = 0.5 * h * h;
    const double *x0 = t->x0, *v0 = t->v0, *w = t->w, *lam = t->lam, *nc = t->nc, *ny = t->ny;
    /* The middle: delta_m = y_m - c_m delta_(m+1), delta_(m+1) = y_(m+1) -
     * c_(m+1) delta_m. */
    const double dm = (ny[m] - nc[m] * ny[m + 1]) / (1 - nc[m] * nc[m + 1]);
    const double dm1 = ny[m + 1] - nc[m + 1] * dm;
    /* Lane A comes from row m + 1, lane B from row m. */
    lanes dfrom = {dm1, dm}, mufrom = {warm * lam[m + 1] + dm1, warm * lam[m] + dm};
    lanes efx = {x0[2 * m + 2] - x0[2 * m], x0[2 * m] - x0[2 * m - 2]};
    lanes efy = {x0[2 * m + 3] - x0[2 * m + 1], x0[2 * m + 1] - x0[2 * m - 1]};
    lanes x1cx = both(0), x1cy = both(0), worst = both(0), mu_last = both(0);
    for (long k = 0; k < m; k++) {
        const long ra = m - k, rb = m + 1 + k, pa = ra, pb = rb - 1;
        const lanes d = pick(ny, ra, rb) - pick(nc, ra, rb) * dfrom;
        const lanes muc = both(warm) * pick(lam, ra, rb) + d;
        const lanes ecx = PX(x0, ra, rb) - PX(x0, ra - 1, rb - 1);
        const lanes ecy = PY(x0, ra, rb) - PY(x0, ra - 1, rb - 1);
        const lanes wn = pick(w, pa, pb);
        const lanes vpx = PX(v0, pa, pb), vpy = PY(v0, pa, pb) + kick_y(t, pa, pb);
        const lanes dx = SIGN * wn * (muc * ecx - mufrom * efx);
        const lanes dy = SIGN * wn * (muc * ecy - mufrom * efy);
        const lanes x1x = PX(x0, pa, pb) + both(h) * vpx + dx;
        const lanes x1y = PY(x0, pa, pb) + both(h) * vpy + dy;
        put(t->x1, 2 * pa, 2 * pb, x1x);
        put(t->x1, 2 * pa + 1, 2 * pb + 1, x1y);
        put(t->vh, 2 * pa, 2 * pb, vpx + dx / both(h));
        put(t->vh, 2 * pa + 1, 2 * pb + 1, vpy + dy / both(h));
        if (k > 0) { /* the row before, now that both its particles are known */
            const lanes e1x = -SIGN * (x1x - x1cx), e1y = -SIGN * (x1y - x1cy);
            const lanes d2 = e1x * e1x + e1y * e1y, g = both(0.5) * (d2 - both(LINK * LINK));
            worst = larger(worst, g * g);
            put(t->dres, ra + 1, rb - 1, both(0.5) * (d2 - (efx * efx + efy * efy)));
        }
        x1cx = x1x, x1cy = x1y, dfrom = d, mufrom = muc, efx = ecx, efy = ecy;
        mu_last = muc;
    }
    const double mu_n = mu_last[1];
    final_ends(t, &mu_n, &worst);
    t->worst_g = fmax(worst[0], worst[1]);
}

static void forward(twisted *t)
{
    const long n = t->n, m = t->m;
    const double *x1 = t->x1, *vh = t->vh, *w = t->w;
    lanes xcx = {x1[0], x1[2 * n]}, xcy = {x1[1], x1[2 * n + 1]};
    lanes vcx = {vh[0], vh[2 * n]}, vcy = {vh[1], vh[2 * n + 1] + 0.5 * t->h * GY};
    lanes wc = {0, w[n]}, epx = both(0), epy = both(0), dp = both(1), zp = both(0),
          z2p = both(0);
    for (long k = 0; k < m; k++) {
        const long ra = 1 + k, rb = n - k, pa = ra, pb = rb - 1;
        const lanes wn = pick(w, pa, pb), xnx = PX(x1, pa, pb), xny = PY(x1, pa, pb);
        const lanes vnx = PX(vh, pa, pb), vny = PY(vh, pa, pb) + kick_y(t, pa, pb);
        const lanes ex = SIGN * (xnx - xcx), ey = SIGN * (xny - xcy);
        const lanes rhs = -(ex * (SIGN * (vnx - vcx)) + ey * (SIGN * (vny - vcy)));
        const lanes rhs2 = rhs + pick(t->dres, ra, rb) / both(t->h);
        const lanes o = -(wc * (epx * ex + epy * ey)), l = o / dp;
        const lanes d = (wc + wn) * (ex * ex + ey * ey) - o * l;
        const lanes z = rhs - l * zp, z2 = rhs2 - l * z2p;
        put(t->pinv, ra, rb, both(1) / d);
        put(t->off, ra, rb, o);
        put(t->vz, ra, rb, z);
        put(t->vz2, ra, rb, z2);
        xcx = xnx, xcy = xny, vcx = vnx, vcy = vny, wc = wn;
        epx = ex, epy = ey, dp = d, zp = z, z2p = z2;
    }
}

static void backward(twisted *t)
{
    const long n = t->n, m = t->m;
    const double scale = 2.0 / t->h, *x1 = t->x1, *vh = t->vh, *w = t->w;
    const double *pinv = t->pinv, *off = t->off, *vz = t->vz, *vz2 = t->vz2;
    /* The middle: rows m and m + 1 and their coupling. */
    const double ex = x1[2 * m + 2] - x1[2 * m], ey = x1[2 * m + 3] - x1[2 * m + 1];
    const double fx = x1[2 * m] - x1[2 * m - 2], fy = x1[2 * m + 1] - x1[2 * m - 1];
    const double om = -(w[m] * (fx * ex + fy * ey));
    const double da = 1.0 / pinv[m], db = 1.0 / pinv[m + 1], det = da * db - om * om;
    lanes nuf = {(da * vz[m + 1] - om * vz[m]) / det, (vz[m] * db - om * vz[m + 1]) / det};
    lanes nu2f = {(da * vz2[m + 1] - om * vz2[m]) / det, (vz2[m] * db - om * vz2[m + 1]) / det};
    lanes offf = {om, om}, efx = {ex, fx}, efy = {ey, fy};
    lanes v1cx = both(0), v1cy = both(0), worst = both(0);
    for (long k = 0; k < m; k++) {
        const long ra = m - k, rb = m + 1 + k, pa = ra, pb = rb - 1;
        const lanes pv = pick(pinv, ra, rb);
        const lanes nu = pick(vz, ra, rb) * pv - offf * pv * nuf;
        const lanes nu2 = pick(vz2, ra, rb) * pv - offf * pv * nu2f;
        put(t->lam, ra, rb, both(scale) * nu2);
        const lanes ecx = PX(x1, ra, rb) - PX(x1, ra - 1, rb - 1);
        const lanes ecy = PY(x1, ra, rb) - PY(x1, ra - 1, rb - 1);
        const lanes wn = pick(w, pa, pb);
        const lanes vx = PX(vh, pa, pb) + SIGN * wn * (nu * ecx - nuf * efx);
        const lanes vy = PY(vh, pa, pb) + kick_y(t, pa, pb) + SIGN * wn * (nu * ecy - nuf * efy);
        put(t->v1, 2 * pa, 2 * pb, vx);
        put(t->v1, 2 * pa + 1, 2 * pb + 1, vy);
        if (k > 0) {
            const lanes gv = -SIGN * (efx * (vx - v1cx) + efy * (vy - v1cy));
            worst = larger(worst, gv * gv);
        }
        v1cx = vx, v1cy = vy;
        offf = (lanes){off[ra], off[rb]};
        nuf = nu, nu2f = nu2, efx = ecx, efy = ecy;
    }
    /* Particle n (lane B's last row was row n); the pivot stays. */
    const double enx = x1[2 * n] - x1[2 * n - 2], eny = x1[2 * n + 1] - x1[2 * n - 1];
    t->v1[2 * n] = vh[2 * n] + w[n] * nuf[1] * enx;
    t->v1[2 * n + 1] = vh[2 * n + 1] + 0.5 * t->h * GY + w[n] * nuf[1] * eny;
    t->v1[0] = t->v1[1] = 0;
    t->worst_v = fmax(worst[0], worst[1]);
}

static void step(twisted *t)
{
    newton(t);
    final(t);
    forward(t);
    backward(t);
    double *s = t->x0;
    t->x0 = t->x1, t->x1 = s;
    s = t->v0, t->v0 = t->v1, t->v1 = s;
}

double chain_twisted_run(long n, double dt, int steps, double *rod_error, double *first_step,
                         double *positions)
{
    if (n < 4 || n % 2)
        return -1;
    twisted t = {.n = n, .m = n / 2, .h = dt};
    const size_t m2 = 2 * (size_t)(n + 1), m1 = (size_t)n + 2;
    double **two[] = {&t.x0, &t.v0, &t.x1, &t.vh, &t.v1};
    double **one[] = {&t.w, &t.lam, &t.nc, &t.ny, &t.dres, &t.pinv, &t.off, &t.vz, &t.vz2};
    int ok = 1;
    for (size_t i = 0; i < 5; i++)
        ok &= (*two[i] = calloc(m2, sizeof(double))) != NULL;
    for (size_t i = 0; i < 9; i++)
        ok &= (*one[i] = calloc(m1, sizeof(double))) != NULL;
    double seconds = -1;
    if (ok) {
        for (long i = 1; i <= n; i++)
            t.x0[2 * i] = LINK * (double)i, t.w[i] = 1.0;
        const double f0 = bench_now();
        step(&t);
        *first_step = bench_now() - f0;
        const double t0 = bench_now();
        for (int k = 0; k < steps; k++)
            step(&t);
        seconds = (bench_now() - t0) / (steps > 0 ? steps : 1);
        double worst = 0;
        for (long i = 1; i <= n; i++) {
            const double len =
                hypot(t.x0[2 * i] - t.x0[2 * i - 2], t.x0[2 * i + 1] - t.x0[2 * i - 1]);
            worst = fmax(worst, fabs(len - LINK) / LINK);
        }
        *rod_error = worst;
        if (positions)
            memcpy(positions, t.x0, m2 * sizeof *positions);
    }
    for (size_t i = 0; i < 5; i++)
        free(*two[i]);
    for (size_t i = 0; i < 9; i++)
        free(*one[i]);
    return seconds;
}

#else

double chain_twisted_run(long n, double dt, int steps, double *rod_error, double *first_step,
                         double *positions)
{
    (void)n, (void)dt, (void)steps, (void)rod_error, (void)first_step, (void)positions;
    return -1;
}

#endif
