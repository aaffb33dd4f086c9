/* The residual tests of the projections (internal), shared by the general
 * passes (projection_solve.c) and the rod-chain kernel (projection_chain.c);
 * the tests themselves are stated in include/cdyn/projection.h. */
#ifndef CDYN__PROJECTION_PASS_H
#define CDYN__PROJECTION_PASS_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cdyn/system.h"
#include "core/compiler.h"

/* The round-off floor of the tests, in units of eps times the magnitude. */
#define CDYN__FLOOR (4.0 * DBL_EPSILON)

static CDYN__ALWAYS_INLINE double cdyn__maxd(double a, double b)
{
    return a > b ? a : b;
}

static CDYN__ALWAYS_INLINE double cdyn__absd(double a)
{
    return a < 0 ? -a : a;
}

/* ------------------------------------------------------------------------
 * Residual tests
 * ------------------------------------------------------------------------ */

/* What one pass of residual tests found. A row's squared relative
 * residual is a ratio num / den: (g^2) / (b^2 s^2) for positions,
 * (G v)^2 / (b^2 S^2) for velocities; the largest ones are tracked by
 * cross-multiplying, without a division per row. */
typedef struct cdyn__pass {
    double wn, wd;     /* largest ratio over all rows */
    double bn, bd;     /* largest ratio among the rows above their threshold */
    uint32_t worst_row, bad_row;
    uint32_t n_bad;    /* rows above their threshold */
    int finite;        /* every numerator was finite */
} cdyn__pass;

static inline void cdyn__pass_init(cdyn__pass *p)
{
    p->wn = 0;
    p->wd = 1;
    p->bn = -1;
    p->bd = 1;
    p->worst_row = p->bad_row = 0;
    p->n_bad = 0;
    p->finite = 1;
}

static inline double cdyn__pass_worst(const cdyn__pass *p)
{
    return sqrt(p->wn / p->wd);
}

static inline double cdyn__pass_bad(const cdyn__pass *p)
{
    return sqrt(p->bn / p->bd);
}

/* Records row @p row of ratio num / den (den > 0); ok: within threshold. A
 * NaN or infinite num fails every comparison, so it is never ok: finiteness
 * is checked on that (rare) branch only. */
static CDYN__ALWAYS_INLINE void cdyn__pass_note(cdyn__pass *p, uint32_t row, double num, double den, int ok)
{
    if (num * p->wd > p->wn * den) {
        p->wn = num;
        p->wd = den;
        p->worst_row = row;
    }
    if (!ok) {
        p->finite &= num <= DBL_MAX;
        p->n_bad++;
        if (num * p->bd > p->bn * den) {
            p->bn = num;
            p->bd = den;
            p->bad_row = row;
        }
    }
}

/* Position test of a row evaluated without rounding (rods, anchors):
 * |g| / b <= max(tol, CDYN__FLOOR) s; tol2 = max(tol, CDYN__FLOOR)^2. */
static CDYN__ALWAYS_INLINE int cdyn__check_exact(cdyn__pass *p, uint32_t row, double g, double b2, double s,
                                           double tol2)
{
    double num = g * g, den = (b2 > 0 ? b2 : 1.0) * (s * s);
    int ok = num <= tol2 * den;
    cdyn__pass_note(p, row, num, den, ok);
    return ok;
}

/* Position test of a row evaluated at rounded positions (other kinds):
 * |g| / b <= max(tol s, CDYN__FLOOR (X + s)), X the coordinate magnitude. */
static inline int cdyn__check_rounded(cdyn__pass *p, uint32_t row, double g, double b2, double s,
                                double xmag, double tol2)
{
    double num = g * g, bb = b2 > 0 ? b2 : 1.0, den = bb * (s * s), fl = CDYN__FLOOR * (xmag + s);
    int ok = num <= tol2 * den || num <= (fl * fl) * bb;
    cdyn__pass_note(p, row, num, den, ok);
    return ok;
}

/* Velocity test: |G v| / b <= tol S, s2 = S^2, tol2 = max(tol, CDYN__FLOOR)^2. A
 * row whose particles are all at rest has G v = 0 and passes. */
static CDYN__ALWAYS_INLINE int cdyn__check_velocity(cdyn__pass *p, uint32_t row, double gv, double b2,
                                              double s2, double tol2)
{
    double num = gv * gv, den = (b2 > 0 ? b2 : 1.0) * s2;
    int ok = num <= tol2 * den;
    cdyn__pass_note(p, row, num, den > 0 ? den : 1.0, ok);
    return ok;
}

static inline double cdyn__tol2_of(double tol)
{
    double t = cdyn__maxd(tol, CDYN__FLOOR);
    return t * t;
}


/* Fails the step with CDYN_ERR_NOT_CONVERGED: the message names the
 * constraint of @p p's worst row above tolerance (@p p: the last pass with
 * finite residuals; @p diverged: the next one was not finite). */
cdyn_status cdyn__projection_not_converged(cdyn_system *sys, const cdyn__pass *p, const char *what,
                                           size_t iterations, double tol, bool diverged);

/* Fails the step with CDYN_ERR_DIVERGED (non-finite state). */
cdyn_status cdyn__projection_non_finite(cdyn_system *sys, const char *what);

/* The handle of the constraint that owns @p row. */
cdyn_constraint cdyn__projection_row_handle(const cdyn_system *sys, uint32_t row);

#endif /* CDYN__PROJECTION_PASS_H */
