/* The Langevin thermostat: settings, its noise, and the BAOAB step
 * (include/cdyn/thermostat.h, docs/pairs.md).
 *
 * With constraints (RATTLE) each drift A ends on the constraint manifold:
 *   x' = x + h/2 v + W G(x)^T mu,  g(x') = 0,  v += W G(x)^T mu / (h/2)
 * (SHAKE from x), and velocities are projected onto G(x') v = 0 after the
 * noise (O) and after the closing kick (B). The opening kick needs no
 * projection of its own: the first drift's SHAKE takes out the normal part
 * of h/2 a, as RATTLE's does, and the projection after O removes what is
 * left (a projection is linear, so projecting once after O equals
 * projecting before and after it). */
#include "step/langevin.h"

#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "core/system.h"
#include "dynamics/dynamics.h"
#include "kinematic/kinematic.h"
#include "projection/projection.h"
#include "rigid/rigid.h"
#include "step/integrator.h"
#include "step/reuse.h"

static uint64_t mix(uint64_t z)
{
    z ^= z >> 30;
    z *= 0xbf58476d1ce4e5b9ull;
    z ^= z >> 27;
    z *= 0x94d049bb133111ebull;
    z ^= z >> 31;
    return z;
}

/* The stream of step @p count of @p seed. */
static uint64_t step_stream(uint64_t seed, uint64_t count)
{
    return mix(seed + 0x9e3779b97f4a7c15ull * (count + 1));
}

/* Standard normal number @p j of a step's stream @p h, by the
 * ratio-of-uniforms method with Leva's quadratic bounds (ACM Trans. Math.
 * Software 18, 434 (1992)): (u, v) uniform in (0, 1] x [-0.8578, 0.8578]
 * is accepted when v^2 <= -4 u^2 ln u, and v / u is then normal; two
 * quadratic forms decide all but about 1 % of the points without the
 * logarithm. Each attempt draws its two uniforms from the counter (j,
 * attempt), so the result depends on (seed, step, j) alone. */
static double normal(uint64_t h, uint64_t j)
{
    const uint64_t base = mix(h ^ (j * 0xd1b54a32d192ed03ull + 0x632be59bd9b4e019ull));
    for (uint64_t m = 0;; m++) {
        /* u and v from the two halves of one hash: 2^-32 resolution */
        const uint64_t r = mix(base + m * 0x9e3779b97f4a7c15ull);
        double u = (double)((r >> 32) + 1) * 0x1p-32;
        double v = 1.7156 * ((double)(r & 0xffffffffu) * 0x1p-32 - 0.5);
        double x = u - 0.449871, y = fabs(v) + 0.386595;
        double q = x * x + y * (0.19600 * y - 0.25472 * x);
        if (q < 0.27597)
            return v / u;
        if (q <= 0.27846 && v * v <= -4.0 * u * u * log(u))
            return v / u;
    }
}

double cdyn__langevin_normal(uint64_t seed, uint64_t count, uint64_t j)
{
    return normal(step_stream(seed, count), j);
}

void cdyn__langevin_after_step(cdyn_system *sys)
{
    if (cdyn__langevin_on(sys))
        sys->langevin->count++;
}

void cdyn__langevin_destroy(cdyn_system *sys)
{
    if (sys->langevin)
        sys->alloc.free(sys->langevin, sizeof *sys->langevin, sys->alloc.user);
    sys->langevin = NULL;
}

/* O: v = c v + sqrt((1 - c^2) kT / m) R for every particle that moves;
 * the normal numbers are numbered slot times dim plus component. */
static void ornstein_uhlenbeck(const cdyn_system *sys, double dt, double *v)
{
    const cdyn__langevin *l = sys->langevin;
    const size_t dim = (size_t)sys->dim;
    const double c = exp(-l->opt.gamma * dt), s2 = (1.0 - c * c) * l->opt.kT;
    const uint64_t h = step_stream(l->opt.seed, l->count);
    for (uint32_t i = 0; i < sys->particles.count; i++) {
        double w = sys->inv_mass[i];
        if (!(w > 0))
            continue; /* fixed or removed */
        double s = sqrt(s2 * w), *vi = v + (size_t)i * dim;
        for (size_t k = 0; k < dim; k++)
            vi[k] = c * vi[k] + s * normal(h, (uint64_t)i * dim + k);
    }
}

static cdyn_status check(cdyn_system *sys, bool *constrained)
{
    const bool rattle = sys->integrator == CDYN_INTEGRATOR_RATTLE;
    const bool rows = sys->cons && sys->cons->n_rows > 0;
    if (!rattle && sys->integrator != CDYN_INTEGRATOR_VELOCITY_VERLET)
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "step: the Langevin thermostat needs velocity Verlet or RATTLE");
    if (!rattle && rows)
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "step: the Langevin thermostat with constraints needs RATTLE");
    /* The stores of bodies and kinematic particles outlive their last entry
     * (handles keep their generations): what counts is what they hold. */
    if (sys->param_of || (sys->rigids && sys->rigids->slots.live > 0))
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "step: the Langevin thermostat does not support particles on shapes "
                          "or rigid bodies");
    if (sys->drives || (sys->kin && sys->kin->count > 0))
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "step: the Langevin thermostat does not support driven systems "
                          "(kinematic particles, moving constraints or grounds)");
    *constrained = rattle && rows;
    return CDYN_OK;
}

/* BAOAB on rod chains with the kernel of projection_chain.c, whose step is
 * a kick of h/2 a, a drift of h and SHAKE: each of the two drifts of h/2 is
 * that step with h/2 (the first with 2 a, so that its kick is h/2 a, the
 * second with none), the noise's projection a closing kick of zero, and
 * the final kick with projection as in RATTLE. */
static cdyn_status baoab_chains(cdyn_system *sys, double dt, const double *a0)
{
    const size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    double *scratch = sys->ws.f, *xm = sys->ws.stage[0], *vm = sys->ws.stage[1];
    double *xn = sys->x_new, *vn = sys->v_new;
    const double h2 = 0.5 * dt, t1 = sys->time + dt;
    bool finite = false;
    cdyn_status st;
    for (size_t i = 0; i < n; i++) /* in place when a0 is the scratch */
        scratch[i] = 2.0 * a0[i];
    if ((st = cdyn__projection_chain_positions(sys, sys->x, sys->v, scratch, xm, vm, h2)))
        return st;
    cdyn__projection_chain_store_vh(sys, vm);
    ornstein_uhlenbeck(sys, dt, vm);
    memset(scratch, 0, n * sizeof *scratch);
    if ((st = cdyn__projection_chain_velocities(sys, xm, vm, scratch, h2, &finite)) ||
        (st = cdyn__projection_chain_positions(sys, xm, vm, scratch, xn, vn, h2)))
        return st;
    double *a1 = cdyn__reuse_target(sys);
    if (!a1)
        a1 = scratch;
    if (cdyn__dynamics_shows_velocity(sys))
        cdyn__projection_chain_store_vh(sys, vn);
    if ((st = cdyn__dynamics_accel(sys, t1, xn, vn, a1)))
        return st;
    return cdyn__projection_chain_velocities(sys, xn, vn, a1, dt, &finite);
}

static cdyn_status baoab(cdyn_system *sys, double dt, bool constrained)
{
    const size_t n = (size_t)sys->particles.count * (size_t)sys->dim;
    const double *x = sys->x, *v = sys->v;
    double *a = sys->ws.f, *xn = sys->x_new, *vn = sys->v_new;
    double *xm = sys->ws.stage[0], *vp = sys->ws.stage[1];
    const double h2 = 0.5 * dt, t0 = sys->time, tm = t0 + h2, t1 = t0 + dt;
    cdyn_status st;

    const double *a0 = cdyn__reuse_start(sys);
    if (!a0) {
        if ((st = cdyn__dynamics_accel(sys, sys->time, x, v, a)))
            return st;
        a0 = a;
    }
    const bool velocity_dependent = cdyn__dynamics_velocity_dependent(sys);
    bool chain = false;
    if (constrained && !velocity_dependent && (st = cdyn__projection_chain_usable(sys, &chain)))
        return st;
    if (chain)
        return baoab_chains(sys, dt, a0);
    /* B, A */
    for (size_t i = 0; i < n; i++) {
        vn[i] = v[i] + h2 * a0[i];
        xn[i] = x[i] + h2 * vn[i];
    }
    if (constrained && (st = cdyn__projection_positions(sys, t0, x, tm, xn, vn, 2.0 / dt)))
        return st;
    /* O */
    ornstein_uhlenbeck(sys, dt, vn);
    if (constrained && (st = cdyn__projection_velocities(sys, tm, xn, vn, false, 0.0)))
        return st;
    /* A */
    memcpy(xm, xn, n * sizeof *xm);
    for (size_t i = 0; i < n; i++)
        xn[i] += h2 * vn[i];
    if (constrained && (st = cdyn__projection_positions(sys, tm, xm, t1, xn, vn, 2.0 / dt)))
        return st;
    /* B */
    double *a1 = velocity_dependent ? NULL : cdyn__reuse_target(sys);
    if (!a1)
        a1 = a;
    if ((st = cdyn__dynamics_accel(sys, t1, xn, vn, a1)))
        return st;
    if (velocity_dependent) { /* a(x1, v1) to O(h^2) through a predictor */
        for (size_t i = 0; i < n; i++)
            vp[i] = vn[i] + h2 * a1[i];
        if ((st = cdyn__dynamics_accel(sys, t1, xn, vp, a1)))
            return st;
    }
    for (size_t i = 0; i < n; i++)
        vn[i] += h2 * a1[i];
    return constrained ? cdyn__projection_velocities(sys, t1, xn, vn, false, 2.0 / dt) : CDYN_OK;
}

cdyn_status cdyn__step_langevin(cdyn_system *sys, double dt, bool *finite)
{
    (void)finite;
    bool constrained = false;
    cdyn_status st = check(sys, &constrained);
    if (st)
        return st;
    if (sys->integrator == CDYN_INTEGRATOR_RATTLE) {
        if ((st = cdyn__projection_begin(sys, "step (Langevin)")))
            return st;
        sys->skip_constraint_solve = true; /* constraint forces come from the projections */
    }
    st = baoab(sys, dt, constrained);
    sys->skip_constraint_solve = false;
    return st;
}
