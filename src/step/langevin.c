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
#include "projection/projection.h"
#include "step/integrator.h"
#include "step/reuse.h"

#define TWO_PI 6.283185307179586

static uint64_t mix(uint64_t z)
{
    z ^= z >> 30;
    z *= 0xbf58476d1ce4e5b9ull;
    z ^= z >> 27;
    z *= 0x94d049bb133111ebull;
    z ^= z >> 31;
    return z;
}

/* Two independent standard normal numbers (Box-Muller) for pair @p pair
 * of the components of particle slot @p slot at step @p count. */
static void normal_pair(uint64_t seed, uint64_t count, uint32_t slot, uint32_t pair, double *z0,
                        double *z1)
{
    uint64_t h = mix(seed + 0x9e3779b97f4a7c15ull * (count + 1));
    h = mix(h ^ (((uint64_t)slot << 2 | pair) * 0xd1b54a32d192ed03ull + 0x632be59bd9b4e019ull));
    double u1 = (double)((mix(h) >> 11) + 1) * 0x1p-53; /* (0, 1] */
    double u2 = (double)(mix(h + 0x9e3779b97f4a7c15ull) >> 11) * 0x1p-53;
    double r = sqrt(-2.0 * log(u1)), phi = TWO_PI * u2;
    *z0 = r * cos(phi);
    *z1 = r * sin(phi);
}

double cdyn__langevin_normal(uint64_t seed, uint64_t count, uint32_t slot, uint32_t k)
{
    double z0, z1;
    normal_pair(seed, count, slot, k / 2, &z0, &z1);
    return k % 2 ? z1 : z0;
}

cdyn_status cdyn_system_set_langevin(cdyn_system *sys, double kT, double gamma, uint64_t seed)
{
    const char *what = "system_set_langevin";
    cdyn_status st = cdyn__check_mutable(sys, what);
    if (st)
        return st;
    if (!isfinite(kT) || kT < 0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: kT %g must be finite and >= 0",
                          what, kT);
    if (!isfinite(gamma) || gamma < 0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: gamma %g must be finite and >= 0",
                          what, gamma);
    if (gamma == 0) {
        cdyn__langevin_destroy(sys);
        return CDYN_OK;
    }
    cdyn__langevin *l = sys->langevin;
    if (!l) {
        l = sys->alloc.alloc(sizeof *l, sys->alloc.user);
        if (!l)
            return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
        sys->langevin = l;
    }
    l->kT = kT;
    l->gamma = gamma;
    l->seed = seed;
    l->count = 0;
    return CDYN_OK;
}

cdyn_status cdyn_system_get_langevin(const cdyn_system *sys, double *kT, double *gamma,
                                     bool *on)
{
    cdyn_status st = cdyn__enter_query(sys, on, "system_get_langevin");
    if (st)
        return st;
    const cdyn__langevin *l = sys->langevin;
    *on = l != NULL;
    if (l && kT)
        *kT = l->kT;
    if (l && gamma)
        *gamma = l->gamma;
    return CDYN_OK;
}

void cdyn__langevin_after_step(cdyn_system *sys)
{
    if (sys->langevin)
        sys->langevin->count++;
}

void cdyn__langevin_destroy(cdyn_system *sys)
{
    if (sys->langevin)
        sys->alloc.free(sys->langevin, sizeof *sys->langevin, sys->alloc.user);
    sys->langevin = NULL;
}

/* O: v = c v + sqrt((1 - c^2) kT / m) R for every particle that moves. */
static void ornstein_uhlenbeck(const cdyn_system *sys, double dt, double *v)
{
    const cdyn__langevin *l = sys->langevin;
    const int dim = sys->dim;
    const double c = exp(-l->gamma * dt), s2 = (1.0 - c * c) * l->kT;
    for (uint32_t i = 0; i < sys->particles.count; i++) {
        double w = sys->inv_mass[i];
        if (!(w > 0))
            continue; /* fixed or removed */
        double s = sqrt(s2 * w), z[4];
        normal_pair(l->seed, l->count, i, 0, &z[0], &z[1]);
        if (dim == 3)
            normal_pair(l->seed, l->count, i, 1, &z[2], &z[3]);
        double *vi = v + (size_t)i * (size_t)dim;
        for (int k = 0; k < dim; k++)
            vi[k] = c * vi[k] + s * z[k];
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
    if (sys->param_of || sys->rigids)
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "step: the Langevin thermostat does not support particles on shapes "
                          "or rigid bodies");
    if (sys->drives || sys->kin)
        return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                          "step: the Langevin thermostat does not support driven systems "
                          "(kinematic particles, moving constraints or grounds)");
    *constrained = rattle && rows;
    return CDYN_OK;
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
