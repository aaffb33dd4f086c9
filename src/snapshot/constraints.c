/* The constraints section of a snapshot: the solver's settings and report,
 * the pool, and each live constraint with its particles, its kind's
 * geometry or callback or shape, and what makes it depend on time. The
 * multipliers and the Jacobian the next step starts from are in the
 * multipliers section (snapshot/multipliers.c).
 *
 *     u8 present; then
 *     options: u8 solver, f64 ks, kd, CG tolerance, u64 CG cap; u8 any compliance,
 *     report: u64 rows, iterations, f64 residual, u64 redundant rows,
 *             solves, redundant solves, CG caps hit, last redundant
 *             (handle), factor nonzeros
 *     slot pool; per live constraint
 *       u8 kind, u8 flags (1 enabled, 2 compliant, 4 time-dependent,
 *       8 moving, 16 scheduled), u16 particles, u16 rows, u32 x particles
 *       (slots), [f64 compliance], then by kind
 *         distance                       f64 length
 *         pin                            f64 x dim point
 *         anchor, plane                  f64 x dim point or normal, f64 length
 *                                        or offset
 *         user, implicit                 u64 tag
 *         curve, surface                 the shape's record (snapshot/params.c)
 *       [motion], [schedule] */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "constraint/drive.h"
#include "constraint/kind.h"
#include "core/alloc.h"
#include "core/holders.h"
#include "core/system.h"
#include "generalized/generalized.h"
#include "snapshot/snapshot.h"

enum { ENABLED = 1, COMPLIANT = 2, TIME_DEPENDENT = 4, MOVING = 8, SCHEDULED = 16 };

/* The entries of d.p a built-in kind uses, into @p at; their count. The
 * others are zero. */
static int geometry_entries(uint8_t kind, int dim, int at[4])
{
    int n = 0;
    if (kind == CDYN_CONSTRAINT_DISTANCE) {
        at[n++] = 0;
        return n;
    }
    for (int k = 0; k < dim; k++)
        at[n++] = k;
    if (kind != CDYN_CONSTRAINT_PIN)
        at[n++] = 3;
    return n;
}

/* --- constraints ------------------------------------------------------------ */

static void save_one(cdyn__save *S, const cdyn__constraint *c)
{
    const cdyn__drive *d = c->drive;
    uint8_t flags = (uint8_t)((c->enabled ? ENABLED : 0) | (c->compliance != 0 ? COMPLIANT : 0));
    if (d)
        flags |= (uint8_t)((d->time_dependent ? TIME_DEPENDENT : 0) | (d->moving ? MOVING : 0) |
                           (d->scheduled ? SCHEDULED : 0));
    cdyn__out_u8(&S->w, c->kind);
    cdyn__out_u8(&S->w, flags);
    cdyn__out_u16(&S->w, c->n_particles);
    cdyn__out_u16(&S->w, c->n_rows);
    for (uint32_t j = 0; j < c->n_particles; j++)
        cdyn__out_u32(&S->w, cdyn__constraint_particle(c, j));
    if (flags & COMPLIANT)
        cdyn__out_f64(&S->w, c->compliance);
    const cdyn__constraint_kind *kind = cdyn__kind_of(c);
    if (kind->shape) {
        cdyn__save_param(S, c->d.param);
    } else if (kind->time_callback) {
        cdyn_callback_binding b = {.size = sizeof b, .user = c->d.cb.user};
        cdyn_callback_kind ck = CDYN_CALLBACK_IMPLICIT;
        if (c->kind == CDYN_CONSTRAINT_USER) {
            b.constraint = c->d.cb.fn.user;
            ck = CDYN_CALLBACK_CONSTRAINT;
        } else {
            b.implicit = c->d.cb.fn.implicit;
        }
        cdyn__save_callback(S, ck, c->d.cb.tag, &b);
    } else {
        int at[4], n = geometry_entries(c->kind, S->sys->dim, at);
        for (int k = 0; k < n; k++)
            cdyn__out_f64(&S->w, c->d.p[at[k]]);
    }
    if (flags & MOVING)
        cdyn__save_motion(S, &d->motion);
    if (flags & SCHEDULED)
        cdyn__save_schedule(S, &d->length);
}

/* The particle and row counts kind @p kind has (user: within the limits). */
static bool counts_fit(const cdyn_system *sys, uint8_t kind, uint16_t np, uint16_t nr)
{
    switch (kind) {
    case CDYN_CONSTRAINT_DISTANCE:
        return np == 2 && nr == 1;
    case CDYN_CONSTRAINT_ANCHOR:
    case CDYN_CONSTRAINT_PLANE:
    case CDYN_CONSTRAINT_IMPLICIT:
        return np == 1 && nr == 1;
    case CDYN_CONSTRAINT_PIN:
        return np == 1 && nr == sys->dim;
    case CDYN_CONSTRAINT_USER:
        return np >= 1 && np <= CDYN__CONSTRAINT_MAX_PARTICLES && nr >= 1 &&
               nr <= CDYN__CONSTRAINT_MAX_ROWS;
    case CDYN_CONSTRAINT_CURVE:
    case CDYN_CONSTRAINT_SURFACE:
        return np == 1 && nr == 0;
    }
    return false;
}

/* The geometry of a built-in kind: lengths > 0, a plane's normal not zero. */
static bool geometry_fits(uint8_t kind, const double p[4])
{
    switch (kind) {
    case CDYN_CONSTRAINT_DISTANCE:
        return p[0] > 0;
    case CDYN_CONSTRAINT_ANCHOR:
        return p[3] > 0;
    case CDYN_CONSTRAINT_PLANE:
        return p[0] != 0 || p[1] != 0 || p[2] != 0;
    }
    return true;
}

/* Reads the drive of @p c (kind row @p kind) that @p flags announce; the
 * record is allocated only when something drives it. */
static bool load_drive(cdyn__load *L, cdyn__constraint *c, const cdyn__constraint_kind *kind,
                       uint8_t flags)
{
    cdyn__win *r = &L->r;
    if (!(flags & (TIME_DEPENDENT | MOVING | SCHEDULED)))
        return true;
    if (((flags & TIME_DEPENDENT) && !kind->time_callback) ||
        ((flags & MOVING) && (!kind->attach_motion || kind->shape)) ||
        ((flags & SCHEDULED) && !kind->length_entry))
        return cdyn__in_fail(r, "constraint: a %s constraint cannot have drive flags 0x%x",
                             kind->name, flags);
    cdyn__drive *d = cdyn__calloc_array(&L->sys->alloc, 1, sizeof *d);
    if (!d)
        return cdyn__load_oom(L, "constraint drive");
    c->drive = d;
    d->time_dependent = (flags & TIME_DEPENDENT) != 0;
    d->moving = (flags & MOVING) != 0;
    d->scheduled = (flags & SCHEDULED) != 0;
    c->driven = 1;
    if ((d->moving && !cdyn__load_motion(L, &d->motion)) ||
        (d->scheduled && !cdyn__load_schedule(L, &d->length)))
        return false;
    if (d->time_dependent && cdyn__drive_reserve_differences(L->sys, c, "constraint"))
        return cdyn__load_oom(L, "constraint time differences");
    return true;
}

/* Frees what a partly read @p c owns. */
static void drop(cdyn__load *L, cdyn__constraint *c)
{
    cdyn_system *sys = L->sys;
    cdyn__drive_free(sys, c);
    if (c->n_particles > 2 && c->u.particles)
        cdyn__free_array(&sys->alloc, c->u.particles, c->n_particles, sizeof *c->u.particles);
    memset(c, 0, sizeof *c);
}

/* Reads the constraint of slot @p i into @p c and registers what it holds
 * (the particle counts, a shape's record). */
static bool load_one(cdyn__load *L, cdyn__constraint *c)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    memset(c, 0, sizeof *c);
    uint8_t kind_value = cdyn__in_u8(r), flags = cdyn__in_u8(r);
    uint16_t np = cdyn__in_u16(r), nr = cdyn__in_u16(r);
    if (!cdyn__load_ok(L))
        return false;
    if (!counts_fit(sys, kind_value, np, nr) || flags >= 32)
        return cdyn__in_fail(r, "constraint: kind %u with %u particles, %u rows and flags 0x%x",
                             kind_value, np, nr, flags);
    bool enabled = flags & ENABLED;
    const cdyn__constraint_kind *kind = cdyn__constraint_kind_of(kind_value);
    c->kind = kind_value;
    c->enabled = enabled ? 1 : 0;
    c->n_particles = np;
    c->n_rows = nr;
    uint32_t slots[CDYN__CONSTRAINT_MAX_PARTICLES];
    cdyn__in_u32s(r, slots, np);
    for (uint32_t j = 0; j < np && cdyn__load_ok(L); j++) {
        bool ok = slots[j] < sys->particles.count && sys->particles.alive[slots[j]];
        for (uint32_t q = 0; q < j; q++)
            ok = ok && slots[q] != slots[j];
        if (!ok)
            return cdyn__in_fail(r, "constraint: particle %u (slot %u) is removed, out of range "
                                    "or twice", j, slots[j]);
    }
    if (flags & COMPLIANT)
        c->compliance = cdyn__in_finite(r, "constraint compliance");
    if (!cdyn__load_ok(L))
        return false;
    bool compliant = flags & COMPLIANT;
    if ((compliant && !(c->compliance > 0)) || (kind->shape && (compliant || !enabled)))
        return cdyn__in_fail(r, "constraint: compliance %g or enabled flag out of range",
                             c->compliance);
    if (np > 2) {
        if (!(c->u.particles = cdyn__alloc_array(&sys->alloc, np, sizeof *c->u.particles)))
            return cdyn__load_oom(L, "constraint particles");
        memcpy(c->u.particles, slots, np * sizeof *slots);
    } else {
        memcpy(c->u.particle, slots, np * sizeof *slots);
    }
    cdyn__param *p = NULL;
    if (kind->shape) {
        if (!L->generalized || cdyn__param_of(sys, slots[0]))
            cdyn__in_fail(r, "constraint: a shape without generalized coordinates, or a second "
                             "shape on particle slot %u", slots[0]);
        else
            p = cdyn__load_param(L, kind->coordinates, slots[0]);
        c->d.param = p;
    } else if (kind->time_callback) {
        cdyn_callback_binding b;
        bool user = kind_value == CDYN_CONSTRAINT_USER;
        if (cdyn__load_callback(L, user ? CDYN_CALLBACK_CONSTRAINT : CDYN_CALLBACK_IMPLICIT,
                                false, &b, &c->d.cb.tag)) {
            if (user)
                c->d.cb.fn.user = b.constraint;
            else
                c->d.cb.fn.implicit = b.implicit;
            c->d.cb.user = b.user;
        }
    } else {
        int at[4], n = geometry_entries(kind_value, sys->dim, at);
        for (int k = 0; k < n; k++)
            c->d.p[at[k]] = cdyn__in_finite(r, "constraint geometry");
        if (cdyn__load_ok(L) && !geometry_fits(kind_value, c->d.p))
            cdyn__in_fail(r, "constraint: %s geometry out of range", kind->name);
    }
    if (cdyn__load_ok(L))
        load_drive(L, c, kind, flags);
    if (!cdyn__load_ok(L)) {
        if (p)
            cdyn__param_free(sys, p);
        drop(L, c);
        return false;
    }
    if (p) {
        sys->param_of[p->slot] = p;
        sys->n_param++;
        sys->n_moving_shapes += cdyn__param_moves(p);
    }
    for (uint32_t j = 0; j < np; j++)
        cdyn__holders_count_constraint(sys, slots[j], +1);
    return true;
}

static void save_stats(cdyn__save *S, const cdyn_solver_stats *s)
{
    cdyn__out_u64(&S->w, s->rows);
    cdyn__out_u64(&S->w, s->iterations);
    cdyn__out_f64(&S->w, s->residual);
    cdyn__out_u64(&S->w, s->redundant_rows);
    cdyn__out_u64(&S->w, s->solves);
    cdyn__out_u64(&S->w, s->redundant_solves);
    cdyn__out_u64(&S->w, s->cg_not_converged);
    cdyn__out_u64(&S->w, s->last_redundant);
    cdyn__out_u64(&S->w, s->factor_nonzeros);
}

static bool load_stats(cdyn__load *L, cdyn_solver_stats *s)
{
    cdyn__win *r = &L->r;
    uint64_t rows = cdyn__in_u64(r), iterations = cdyn__in_u64(r);
    double residual = cdyn__in_f64(r);
    uint64_t redundant = cdyn__in_u64(r);
    s->solves = cdyn__in_u64(r);
    s->redundant_solves = cdyn__in_u64(r);
    s->cg_not_converged = cdyn__in_u64(r);
    s->last_redundant = cdyn__in_u64(r);
    uint64_t nonzeros = cdyn__in_u64(r);
    if (!cdyn__load_ok(L))
        return false;
    if (rows > SIZE_MAX || iterations > SIZE_MAX || redundant > SIZE_MAX || nonzeros > SIZE_MAX)
        return cdyn__in_fail(r, "solver report: counts or residual out of range");
    s->rows = (size_t)rows;
    s->iterations = (size_t)iterations;
    s->residual = residual;
    s->redundant_rows = (size_t)redundant;
    s->factor_nonzeros = (size_t)nonzeros;
    return true;
}

void cdyn__save_constraints(cdyn__save *S)
{
    const cdyn__constraints *k = S->sys->cons;
    cdyn__out_u8(&S->w, k ? 1 : 0);
    if (!k)
        return;
    cdyn__out_u8(&S->w, (uint8_t)k->opt.solver);
    cdyn__out_f64(&S->w, k->opt.ks);
    cdyn__out_f64(&S->w, k->opt.kd);
    cdyn__out_f64(&S->w, k->opt.cg_tolerance);
    cdyn__out_u64(&S->w, k->opt.cg_max_iterations);
    cdyn__out_u8(&S->w, k->any_compliance ? 1 : 0);
    save_stats(S, &k->stats);
    cdyn__save_slots(S, &k->slots);
    for (uint32_t i = 0; i < k->slots.count; i++)
        if (k->slots.alive[i])
            save_one(S, &k->c[i]);
}

bool cdyn__load_constraints(cdyn__load *L)
{
    cdyn__win *r = &L->r;
    cdyn_system *sys = L->sys;
    if (!cdyn__in_flag(r, "constraints: present"))
        return cdyn__load_ok(L);
    if (cdyn__constraints_ensure(sys, "system_load"))
        return cdyn__load_oom(L, "constraints");
    cdyn__constraints *k = sys->cons;
    uint8_t solver = cdyn__in_u8(r);
    double ks = cdyn__in_f64(r), kd = cdyn__in_f64(r), cg_tol = cdyn__in_f64(r);
    uint64_t cg_cap = cdyn__in_u64(r);
    bool any_compliance = cdyn__in_flag(r, "constraints: compliance");
    if (!cdyn__load_ok(L))
        return false;
    /* The setter's rules (constraint/solver_options.c). */
    if (!isfinite(ks) || ks < 0 || !isfinite(kd) || kd < 0 ||
        (solver != CDYN_SOLVER_DIRECT && solver != CDYN_SOLVER_CG) || !isfinite(cg_tol) ||
        !(cg_tol > 0) || cg_cap < 1 || cg_cap > UINT32_MAX)
        return cdyn__in_fail(r, "constraints: gains %g, %g, solver %u or CG options %g, %llu "
                                "out of range", ks, kd, solver, cg_tol,
                             (unsigned long long)cg_cap);
    k->opt.solver = (cdyn_constraint_solver)solver;
    k->opt.ks = ks;
    k->opt.kd = kd;
    k->opt.cg_tolerance = cg_tol;
    k->opt.cg_max_iterations = (size_t)cg_cap;
    k->any_compliance = any_compliance;
    if (!load_stats(L, &k->stats))
        return false;
    if (cdyn__holders_reserve(sys, 0, "constraints"))
        return cdyn__load_oom(L, "constraints");
    void **arrays[] = {(void **)&k->c};
    const size_t sizes[] = {sizeof(cdyn__constraint)};
    uint8_t *alive;
    if (!cdyn__load_slots(L, &k->slots, 1, arrays, sizes, 15, &alive, "constraints"))
        return false;
    bool compliant = false;
    for (uint32_t i = 0; i < k->slots.count && cdyn__load_ok(L); i++) {
        if (!alive[i] || !load_one(L, &k->c[i]))
            continue;
        cdyn__slots_revive(&k->slots, i);
        compliant |= k->c[i].compliance > 0;
    }
    cdyn__load_free_alive(L, alive, k->slots.count);
    if (cdyn__load_ok(L) && compliant && !any_compliance)
        cdyn__in_fail(r, "constraints: a compliant constraint, but the store says none");
    return cdyn__load_ok(L);
}
