/* Rigid-body handles: the store created on first use, making and dissolving
 * bodies, membership checks, the body state derived from the members. */
#include "rigid/rigid.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/holders.h"
#include "core/lookup.h"
#include "generalized/generalized.h"
#include "rigid/rigid_math.h"
#include "core/system.h"
#include "core/vec.h"

/* A mark put as a particle's holder body while cdyn_rigid_add validates its
 * list. */
#define PENDING UINT32_MAX

cdyn_status cdyn__rigid_slot(const cdyn_system *sys, cdyn_rigid h, const char *what,
                             uint32_t *slot)
{
    return cdyn__resolve(sys, sys->rigids ? &sys->rigids->slots : NULL, h, CDYN__KIND_RIGID, slot,
                         what);
}

static void free_one(cdyn_system *sys, cdyn__rigid *r)
{
    cdyn__free_array(&sys->alloc, r->member, r->n, sizeof *r->member);
    cdyn__free_array(&sys->alloc, r->b, (size_t)r->n * 3, sizeof *r->b);
    memset(r, 0, sizeof *r);
}

void cdyn__rigids_destroy(cdyn_system *sys)
{
    cdyn__rigids *k = sys->rigids;
    if (!k)
        return;
    for (uint32_t i = 0; i < k->slots.count; i++)
        if (k->slots.alive[i])
            free_one(sys, &k->r[i]);
    void **arrays[] = {(void **)&k->r};
    size_t sizes[] = {sizeof(cdyn__rigid)};
    cdyn__slots_free(&k->slots, &sys->alloc, 1, arrays, sizes);
    cdyn__free_array(&sys->alloc, k, 1, sizeof *k);
    sys->rigids = NULL;
}

void cdyn__rigid_omega(int dim, const cdyn__rigid *r, const double q[9], const double l[3],
                       double omega[3])
{
    if (dim == 2) {
        omega[0] = omega[1] = 0;
        omega[2] = l[2] * r->ib_inv[8];
        return;
    }
    double lb[3], wb[3];
    cdyn__m3_apply_t(q, l, lb);
    cdyn__m3_apply(r->ib_inv, lb, wb);
    cdyn__m3_apply(q, wb, omega);
}

void cdyn__rigid_state(const cdyn_system *sys, const cdyn__rigid *r, const double *x,
                       const double *v, double xc[3], double uc[3], double l[3], double q[9])
{
    size_t d = (size_t)sys->dim;
    double sx[3] = {0, 0, 0}, su[3] = {0, 0, 0};
    for (uint32_t k = 0; k < r->n; k++) {
        size_t i = r->member[k];
        double m = sys->mass[i];
        for (size_t c = 0; c < d; c++) {
            sx[c] += m * x[i * d + c];
            su[c] += m * v[i * d + c];
        }
    }
    double X[3], U[3];
    for (int c = 0; c < 3; c++) {
        X[c] = sx[c] / r->mass;
        U[c] = su[c] / r->mass;
    }
    if (xc)
        memcpy(xc, X, sizeof X);
    if (uc)
        memcpy(uc, U, sizeof U);
    if (l) {
        double acc[3] = {0, 0, 0};
        for (uint32_t k = 0; k < r->n; k++) {
            size_t i = r->member[k];
            double m = sys->mass[i], rel[3] = {0, 0, 0}, dv[3] = {0, 0, 0}, c3[3];
            for (size_t c = 0; c < d; c++) {
                rel[c] = x[i * d + c] - X[c];
                dv[c] = v[i * d + c] - U[c];
            }
            cdyn__v3_cross(c3, rel, dv);
            for (int c = 0; c < 3; c++)
                acc[c] += m * c3[c];
        }
        memcpy(l, acc, sizeof acc);
    }
    if (!q)
        return;
    /* s = sum m b (x - X)^T, the cross-covariance of the body-frame offsets
     * and the present ones. */
    double s[9] = {0};
    for (uint32_t k = 0; k < r->n; k++) {
        size_t i = r->member[k];
        double m = sys->mass[i], rel[3] = {0, 0, 0};
        const double *b = r->b + (size_t)k * 3;
        for (size_t c = 0; c < d; c++)
            rel[c] = x[i * d + c] - X[c];
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++)
                s[a * 3 + c] += m * b[a] * rel[c];
    }
    if (d == 3) {
        cdyn__fit_rotation(s, q);
        return;
    }
    /* 2-D: the angle that maximizes sum m (x - X) . (Q b) has
     * cos ~ sum m b . rel and sin ~ sum m b x rel. */
    double cs = s[0] + s[4], sn = s[1] - s[3], len = hypot(cs, sn);
    memset(q, 0, 9 * sizeof *q);
    if (len > 0)
        cs /= len, sn /= len;
    else
        cs = 1, sn = 0;
    q[0] = cs, q[1] = -sn;
    q[3] = sn, q[4] = cs;
    q[8] = 1;
}

/* Validation of a new body's list, with the members marked PENDING as
 * their holder body (the holders cover every particle slot). On failure
 * the marks of the slots resolved so far are cleared by the caller through
 * @p *n_marked. */
static cdyn_status check_members(cdyn_system *sys, const cdyn_particle *ps, size_t n,
                                 uint32_t *slots, size_t *n_marked, const char *what)
{
    for (size_t j = 0; j < n; j++) {
        uint32_t s;
        cdyn_status st = cdyn__particle_slot(sys, ps[j], what, &s);
        if (st)
            return st;
        uint32_t body = cdyn__holder_body(sys, s);
        if (body == PENDING)
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: particle %zu appears twice in the list", what, j);
        if (body)
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: particle %zu is already in another rigid body", what, j);
        if (sys->fixed[s])
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: particle %zu is fixed; a rigid body moves all its particles",
                              what, j);
        if (cdyn__is_kinematic(sys, s))
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: particle %zu moves by a prescribed motion; a rigid body "
                              "moves all its particles",
                              what, j);
        cdyn__holders_set_body(sys, s, PENDING);
        slots[j] = s;
        *n_marked = j + 1;
    }
    /* No member may be held by a constraint (implicit rows or a shape). */
    for (size_t j = 0; j < n; j++)
        if (cdyn__holder_constraints(sys, slots[j]))
            return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                              "%s: particle index %u is in a constraint; a rigid body's "
                              "particles cannot be constrained",
                              what, slots[j]);
    return CDYN_OK;
}

/* Centre of mass, body-frame offsets, inertia and its inverse of a new body
 * with member slots r->member; CDYN_ERR_SINGULAR (message set) when the
 * inertia cannot be inverted. */
static cdyn_status build_body(cdyn_system *sys, cdyn__rigid *r, const char *what)
{
    size_t d = (size_t)sys->dim;
    double m_tot = 0, sx[3] = {0, 0, 0}, xmax = 0;
    for (uint32_t k = 0; k < r->n; k++) {
        size_t i = r->member[k];
        m_tot += sys->mass[i];
        for (size_t c = 0; c < d; c++) {
            sx[c] += sys->mass[i] * sys->x[i * d + c];
            xmax = fmax(xmax, fabs(sys->x[i * d + c]));
        }
    }
    r->mass = m_tot;
    double X[3];
    for (int c = 0; c < 3; c++)
        X[c] = sx[c] / m_tot;
    double ib[9] = {0}, r2 = 0;
    for (uint32_t k = 0; k < r->n; k++) {
        size_t i = r->member[k];
        double m = sys->mass[i], *b = r->b + (size_t)k * 3;
        b[0] = b[1] = b[2] = 0;
        for (size_t c = 0; c < d; c++)
            b[c] = sys->x[i * d + c] - X[c];
        double bb = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
        r2 += m * bb;
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++)
                ib[a * 3 + c] += m * ((a == c ? bb : 0.0) - b[a] * b[c]);
    }
    memcpy(r->ib, ib, sizeof ib);
    /* All members at one point (to the round-off of the offsets). */
    double rms = sqrt(r2 / m_tot);
    if (r->n < 2 || !(rms > 1e3 * DBL_EPSILON * xmax) || !(rms > 0))
        return cdyn__fail(sys, CDYN_ERR_SINGULAR,
                          "%s: singular inertia: %s", what,
                          r->n < 2 ? "a body needs at least two particles (three, not on one "
                                     "line, in 3-D)"
                                   : "all particles are at one point");
    memset(r->ib_inv, 0, sizeof r->ib_inv);
    if (d == 2) {
        r->ib_inv[8] = 1 / ib[8];
        return CDYN_OK;
    }
    double w[3], v[9];
    cdyn__sym_eigen(3, ib, w, v);
    if (!(w[0] > 1e-10 * w[2]))
        return cdyn__fail(sys, CDYN_ERR_SINGULAR,
                          "%s: singular inertia: the particles lie on one line (principal "
                          "moments %g, %g, %g); add a particle off the line",
                          what, w[0], w[1], w[2]);
    for (int a = 0; a < 3; a++)
        for (int c = a; c < 3; c++) {
            double t = 0;
            for (int e = 0; e < 3; e++)
                t += v[a * 3 + e] * v[c * 3 + e] / w[e];
            r->ib_inv[a * 3 + c] = r->ib_inv[c * 3 + a] = t;
        }
    return CDYN_OK;
}

/* Replaces the members' velocities with the rigid motion of the same
 * momentum and angular momentum (Q is the identity: a new body). */
static void make_velocities_rigid(cdyn_system *sys, const cdyn__rigid *r)
{
    size_t d = (size_t)sys->dim;
    double X[3], U[3], L[3], w[3];
    static const double eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    cdyn__rigid_state(sys, r, sys->x, sys->v, X, U, L, NULL);
    cdyn__rigid_omega(sys->dim, r, eye, L, w);
    for (uint32_t k = 0; k < r->n; k++) {
        size_t i = r->member[k];
        double rel[3] = {0, 0, 0}, wr[3];
        for (size_t c = 0; c < d; c++)
            rel[c] = sys->x[i * d + c] - X[c];
        cdyn__v3_cross(wr, w, rel);
        for (size_t c = 0; c < d; c++)
            sys->v[i * d + c] = U[c] + wr[c];
        (void)cdyn__params_sync_slot(sys, (uint32_t)i); /* a free particle: a copy */
    }
}

/* Makes room in the store for one more body and in the holders for every
 * particle slot. */
static cdyn_status reserve(cdyn_system *sys, const char *what)
{
    cdyn__rigids *k = sys->rigids;
    cdyn_status st = cdyn__holders_reserve(sys, 1, what);
    if (st)
        return st;
    if (cdyn__slots_full(&k->slots)) {
        void **arrays[] = {(void **)&k->r};
        size_t sizes[] = {sizeof(cdyn__rigid)};
        uint32_t cap = cdyn__grown_capacity(k->slots.capacity, k->slots.capacity + 1u);
        if (cdyn__slots_grow(&k->slots, &sys->alloc, cap, 1, arrays, sizes))
            return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
    }
    return CDYN_OK;
}

cdyn_status cdyn_rigid_add(cdyn_system *sys, const cdyn_particle *particles, size_t n,
                           cdyn_rigid *out)
{
    const char *what = "rigid_add";
    cdyn_status st = cdyn__check_mutable(sys, what);
    if (st)
        return st;
    if (!particles || !out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    if (n == 0)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "%s: no particles", what);
    if (n > sys->particles.live)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT,
                          "%s: %zu particles listed but the system has %u", what, n,
                          sys->particles.live);
    bool created = false;
    if (!sys->rigids) {
        sys->rigids = cdyn__calloc_array(&sys->alloc, 1, sizeof *sys->rigids);
        if (!sys->rigids)
            return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory", what);
        created = true;
    }
    cdyn__rigids *k = sys->rigids;
    cdyn__rigid r = {0};
    r.n = (uint32_t)n;
    r.scheme = CDYN_RIGID_SECOND_ORDER;
    r.member = cdyn__alloc_array(&sys->alloc, n, sizeof *r.member);
    r.b = cdyn__alloc_array(&sys->alloc, n, 3 * sizeof *r.b);
    if (!r.member || !r.b) {
        st = cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "%s: out of memory for %zu particles", what, n);
        goto fail;
    }
    if ((st = reserve(sys, what)))
        goto fail;
    size_t n_marked = 0;
    st = check_members(sys, particles, n, r.member, &n_marked, what);
    for (size_t j = 0; j < n_marked; j++)
        cdyn__holders_set_body(sys, r.member[j], 0);
    if (st || (st = build_body(sys, &r, what)))
        goto fail;

    uint32_t i = cdyn__slots_take(&k->slots);
    k->r[i] = r;
    for (uint32_t j = 0; j < r.n; j++) {
        cdyn__holders_set_body(sys, r.member[j], i + 1);
        sys->inv_mass[r.member[j]] = 0; /* moved by the body, not the integrator */
    }
    make_velocities_rigid(sys, &k->r[i]);
    *out = cdyn__handle_make(CDYN__KIND_RIGID, sys->salt, k->slots.generation[i], i);
    return CDYN_OK;

fail:
    cdyn__free_array(&sys->alloc, r.member, n, sizeof *r.member);
    cdyn__free_array(&sys->alloc, r.b, n, 3 * sizeof *r.b);
    if (created)
        cdyn__rigids_destroy(sys);
    return st;
}

cdyn_status cdyn_rigid_remove(cdyn_system *sys, cdyn_rigid body)
{
    cdyn_status st = cdyn__check_mutable(sys, "rigid_remove");
    uint32_t i;
    if (st || (st = cdyn__rigid_slot(sys, body, "rigid_remove", &i)))
        return st;
    cdyn__rigids *k = sys->rigids;
    cdyn__rigid *r = &k->r[i];
    for (uint32_t j = 0; j < r->n; j++) {
        uint32_t s = r->member[j];
        cdyn__holders_set_body(sys, s, 0);
        sys->inv_mass[s] = 1.0 / sys->mass[s];
    }
    free_one(sys, r);
    cdyn__slots_release(&k->slots, i);
    return CDYN_OK;
}

bool cdyn_rigid_is_valid(const cdyn_system *sys, cdyn_rigid body)
{
    uint32_t i;
    return sys && sys->rigids &&
           cdyn__slots_resolve(&sys->rigids->slots, body, CDYN__KIND_RIGID, sys->salt, &i) ==
               CDYN_OK;
}

cdyn_status cdyn_rigid_find(const cdyn_system *sys, cdyn_particle particle, cdyn_rigid *out)
{
    if (!sys)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!out)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "rigid_find: NULL argument");
    uint32_t s;
    cdyn_status st = cdyn__particle_slot(sys, particle, "rigid_find", &s);
    if (st)
        return st;
    uint32_t body = cdyn__holder_body(sys, s);
    *out = body ? cdyn__handle_of(sys, &sys->rigids->slots, CDYN__KIND_RIGID, body - 1) : 0;
    return CDYN_OK;
}

cdyn_status cdyn_rigid_set_scheme(cdyn_system *sys, cdyn_rigid body, cdyn_rigid_scheme scheme)
{
    cdyn_status st = cdyn__check_mutable(sys, "rigid_set_scheme");
    uint32_t i;
    if (st || (st = cdyn__rigid_slot(sys, body, "rigid_set_scheme", &i)))
        return st;
    if (scheme != CDYN_RIGID_FIRST_ORDER && scheme != CDYN_RIGID_SECOND_ORDER)
        return cdyn__fail(sys, CDYN_ERR_INVALID_ARGUMENT, "rigid_set_scheme: unknown scheme %d",
                          (int)scheme);
    sys->rigids->r[i].scheme = (uint8_t)scheme;
    return CDYN_OK;
}
