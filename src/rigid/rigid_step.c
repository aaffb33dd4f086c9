/* The rigid-body step hook: both schemes of docs/rigid.md.
 *
 * Called by cdyn_system_step after the integrator has written the candidate
 * state x_new, v_new (in which members moved kinematically, their inverse
 * mass being 0). For every body: the start state (X_cm, U_cm, L, Q) is
 * derived from the committed member positions and velocities, advanced over
 * dt, and the members' candidate entries are overwritten with
 * x = X_cm + Q b, v = U_cm + Omega x (Q b). Forces are evaluated on whole
 * system states with cdyn__forces_apply plus the grounds' force on each
 * member; free particles are seen at their committed state (start-of-step
 * evaluation) or at the integrator's candidate (end-of-step evaluations).
 * All bodies share each evaluation. Nothing here allocates; the committed
 * state is only read. */
#include <math.h>
#include <string.h>

#include "generalized/generalized.h"
#include "ground/ground.h"
#include "dynamics/dynamics.h"
#include "force/force.h"
#include "rigid/rigid.h"
#include "rigid/rigid_math.h"
#include "core/box.h"
#include "core/system.h"
#include "core/vec.h"

enum { AT_START = 0, AT_END = 1 };

/* Evaluates the forces at (t, x, v) and accumulates each body's total force
 * and torque about its centre (start or candidate) into r->f, r->tau, for
 * the bodies whose scheme bit is in @p mask (bit 1 << scheme). */
static cdyn_status eval(cdyn_system *sys, double t, const double *x, const double *v,
                        unsigned mask, int where)
{
    size_t d = (size_t)sys->dim, n = sys->particles.count;
    double *f = sys->ws.f;
    memset(f, 0, n * d * sizeof *f);
    cdyn_status st = cdyn__forces_apply(sys, t, x, v, f);
    if (st)
        return st;
    cdyn__rigids *k = sys->rigids;
    const cdyn__grounds *gs = sys->grounds;
    for (uint32_t bi = 0; bi < k->slots.count; bi++) {
        cdyn__rigid *r = &k->r[bi];
        if (!k->slots.alive[bi] || !(mask & (1u << r->scheme)))
            continue;
        const double *xc = where == AT_START ? r->x0 : r->x1;
        double F[3] = {0, 0, 0}, T[3] = {0, 0, 0};
        for (uint32_t j = 0; j < r->n; j++) {
            size_t i = r->member[j];
            double fk[3] = {0, 0, 0}, rel[3] = {0, 0, 0}, c3[3];
            for (size_t c = 0; c < d; c++) {
                fk[c] = f[i * d + c];
                rel[c] = x[i * d + c] - xc[c];
            }
            /* The grounds' force on the member (cdyn__grounds_apply would
             * visit every particle of the system). */
            double xw[3]; /* wrapped into a periodic box, as the grounds see it */
            const double *xg = cdyn__box_ground_point(sys->box, sys->dim, x + i * d, xw);
            for (uint32_t gi = 0; gs && gi < gs->slots.count; gi++) {
                if (!gs->slots.alive[gi])
                    continue;
                cdyn__ground_at at;
                if ((st = cdyn__ground_at_time(sys, &gs->g[gi], t, &at)))
                    return st;
                if (cdyn__ground_surely_above(&gs->g[gi], &at, sys->dim, xg))
                    continue;
                double fn[3], ff[3];
                bool in;
                if ((st = cdyn__ground_force(sys, &gs->g[gi], &at, x + i * d, v + i * d, fn, ff,
                                             NULL, &in)))
                    return st;
                if (in)
                    for (size_t c = 0; c < d; c++)
                        fk[c] += fn[c] + ff[c];
            }
            cdyn__v3_cross(c3, rel, fk);
            for (int c = 0; c < 3; c++) {
                F[c] += fk[c];
                T[c] += c3[c];
            }
        }
        memcpy(r->f, F, sizeof F);
        memcpy(r->tau, T, sizeof T);
    }
    return CDYN_OK;
}

/* The Cartesian candidate state, on which the end-of-step forces are
 * evaluated: x_new, v_new themselves, or, with particles on shapes (whose
 * entries there are generalized coordinates), their Cartesian image in the
 * workspace (members, being free particles, are copied). */
static cdyn_status candidate(cdyn_system *sys, double t1, const double **x, const double **v)
{
    *x = sys->x_new;
    *v = sys->v_new;
    if (!sys->param_of)
        return CDYN_OK;
    *x = sys->ws.px;
    *v = sys->ws.pv;
    return cdyn__params_to_cartesian(sys, t1, sys->x_new, sys->v_new, sys->ws.px, sys->ws.pv);
}

/* Writes the members' candidate positions X + Q b (when @p positions) and
 * velocities U + Omega(Q, L) x (Q b) into x_new, v_new. */
static void write_members(cdyn_system *sys, const cdyn__rigid *r, const double X[3],
                          const double Q[9], const double U[3], const double L[3],
                          bool positions)
{
    size_t d = (size_t)sys->dim;
    double w[3];
    cdyn__rigid_omega(sys->dim, r, Q, L, w);
    for (uint32_t j = 0; j < r->n; j++) {
        size_t i = r->member[j];
        double qb[3], wr[3];
        cdyn__m3_apply(Q, r->b + (size_t)j * 3, qb);
        cdyn__v3_cross(wr, w, qb);
        for (size_t c = 0; c < d; c++) {
            if (positions)
                sys->x_new[i * d + c] = X[c] + qb[c];
            sys->v_new[i * d + c] = U[c] + wr[c];
        }
    }
}

/* Q1 = R(Omega, dt) Q0 for the angular momentum L held constant over the
 * drift: the first-order scheme takes Omega at the start orientation; the second-order
 * scheme takes it at the orientation half-way (explicit midpoint on the
 * rotation group). */
static void rotate(int dim, const cdyn__rigid *r, const double q0[9], const double l[3],
                   double dt, bool midpoint, double q1[9])
{
    double w[3], rot[9];
    cdyn__rigid_omega(dim, r, q0, l, w);
    if (midpoint) {
        double qm[9];
        cdyn__rotation(w, 0.5 * dt, rot);
        cdyn__m3_mul(rot, q0, qm);
        cdyn__rigid_omega(dim, r, qm, l, w);
    }
    cdyn__rotation(w, dt, rot);
    cdyn__m3_mul(rot, q0, q1);
}

cdyn_status cdyn__rigids_step(cdyn_system *sys, double dt)
{
    cdyn__rigids *k = sys->rigids;
    if (!k || k->slots.live == 0)
        return CDYN_OK;
    const unsigned first = 1u << CDYN_RIGID_FIRST_ORDER;
    const unsigned second = 1u << CDYN_RIGID_SECOND_ORDER;
    const int dim = sys->dim;
    const double t0 = sys->time, t1 = sys->time + dt, h = 0.5 * dt;
    unsigned used = 0;
    cdyn_status st;

    for (uint32_t bi = 0; bi < k->slots.count; bi++) {
        cdyn__rigid *r = &k->r[bi];
        if (!k->slots.alive[bi])
            continue;
        cdyn__rigid_state(sys, r, sys->x, sys->v, r->x0, r->u0, r->l0, r->q0);
        used |= 1u << r->scheme;
    }

    /* Second order: the opening half kick, with the forces at the start. */
    if ((used & second) && (st = eval(sys, t0, sys->x, sys->v, second, AT_START)))
        return st;

    /* The drift: centres move with a constant velocity, orientations turn
     * under a constant angular momentum. */
    for (uint32_t bi = 0; bi < k->slots.count; bi++) {
        cdyn__rigid *r = &k->r[bi];
        if (!k->slots.alive[bi])
            continue;
        bool mid = r->scheme == CDYN_RIGID_SECOND_ORDER;
        for (int c = 0; c < 3; c++) {
            r->uh[c] = mid ? r->u0[c] + h * r->f[c] / r->mass : r->u0[c];
            r->lh[c] = mid ? r->l0[c] + h * r->tau[c] : r->l0[c];
            r->x1[c] = r->x0[c] + dt * r->uh[c];
        }
        rotate(dim, r, r->q0, r->lh, dt, mid, r->q1);
        write_members(sys, r, r->x1, r->q1, r->uh, r->lh, true);
    }

    /* Forces at the end: positions of the candidate, velocities of the
     * momenta held during the drift. */
    const double *xe, *ve;
    if ((st = candidate(sys, t1, &xe, &ve)) ||
        (st = eval(sys, t1, xe, ve, first | second, AT_END)))
        return st;

    /* Second order with velocity-dependent forces: the closing kick needs
     * the forces at the final velocities, predicted by a trial kick (as in
     * velocity Verlet), which keeps the order 2. */
    if ((used & second) &&
        (cdyn__dynamics_velocity_dependent(sys) || cdyn__grounds_velocity_dependent(sys))) {
        for (uint32_t bi = 0; bi < k->slots.count; bi++) {
            cdyn__rigid *r = &k->r[bi];
            if (!k->slots.alive[bi] || r->scheme != CDYN_RIGID_SECOND_ORDER)
                continue;
            double u[3], l[3];
            for (int c = 0; c < 3; c++) {
                u[c] = r->uh[c] + h * r->f[c] / r->mass;
                l[c] = r->lh[c] + h * r->tau[c];
            }
            write_members(sys, r, r->x1, r->q1, u, l, false);
        }
        if ((st = candidate(sys, t1, &xe, &ve)) ||
            (st = eval(sys, t1, xe, ve, second, AT_END)))
            return st;
    }

    /* The closing kick: U_cm and L from the force and torque at the end. */
    for (uint32_t bi = 0; bi < k->slots.count; bi++) {
        cdyn__rigid *r = &k->r[bi];
        if (!k->slots.alive[bi])
            continue;
        double kick = r->scheme == CDYN_RIGID_SECOND_ORDER ? h : dt;
        for (int c = 0; c < 3; c++) {
            r->u1[c] = r->uh[c] + kick * r->f[c] / r->mass;
            r->l1[c] = r->lh[c] + kick * r->tau[c];
        }
        write_members(sys, r, r->x1, r->q1, r->u1, r->l1, false);
    }
    return CDYN_OK;
}
