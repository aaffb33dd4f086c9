/* The state of a fixture, hashed through public getters only: what a
 * refused call must leave as it was. For a system: time, integrator, the
 * particles (positions, velocities, masses, fixed flags, applied forces,
 * motions, bodies), every option struct, every object of every role and
 * every removed one (alive or not, and each setting a getter reads back),
 * and the energies and drive work. For a lattice: its snapshot's bytes. For
 * a network: species, concentrations, time, options, reactions, rate
 * constants and stoichiometry. Statuses of the getters are hashed too. */
#include <string.h>

#include "internal.h"
#include "support.h"

typedef struct hasher {
    uint64_t h;
} hasher;

static void bytes(hasher *s, const void *p, size_t n)
{
    s->h = ts_hash_bytes(p, n, s->h);
}

static void num(hasher *s, double v)
{
    s->h = ts_hash_doubles(&v, 1, s->h);
}

static void u64(hasher *s, uint64_t v)
{
    bytes(s, &v, sizeof v);
}

static void status(hasher *s, cdyn_status st)
{
    u64(s, (uint64_t)st);
}

/* Doubles of a getter, the unwritten tail zeroed so that it hashes the same. */
#define GET(call, n)                                      \
    do {                                                  \
        double v_[16] = {0};                              \
        status(s, call);                                  \
        s->h = ts_hash_doubles(v_, (n), s->h);            \
    } while (0)

static void motion(hasher *s, cdyn_status st, const cdyn_motion_desc *m, bool on)
{
    status(s, st);
    u64(s, on);
    if (on) {
        u64(s, (uint64_t)m->kind);
        s->h = ts_hash_doubles(m->velocity, 3, s->h);
        s->h = ts_hash_doubles(m->acceleration, 3, s->h);
        s->h = ts_hash_doubles(m->amplitude, 3, s->h);
        num(s, m->frequency), num(s, m->phase), num(s, m->angular_velocity);
        s->h = ts_hash_doubles(m->center, 3, s->h);
        s->h = ts_hash_doubles(m->axis, 3, s->h);
    }
}

static void particle(hasher *s, const cdyn_system *sys, cdyn_particle p)
{
    u64(s, cdyn_particle_is_valid(sys, p));
    cdyn_motion_desc m;
    memset(&m, 0, sizeof m);
    bool on = false;
    motion(s, cdyn_particle_get_motion(sys, p, &m, &on), &m, on);
    cdyn_rigid r = 0;
    status(s, cdyn_rigid_find(sys, p, &r));
    u64(s, r != 0);
}

static void force(hasher *s, const cdyn_system *sys, cdyn_force f, const mx_sys *m)
{
    u64(s, cdyn_force_is_valid(sys, f));
    cdyn_force_kind k = 0;
    status(s, cdyn_force_get_kind(sys, f, &k));
    u64(s, (uint64_t)k);
    GET(cdyn_force_get_energy(sys, f, v_), 1);
    if (k == CDYN_FORCE_SPRING) {
        GET(cdyn_force_get_spring_tension(sys, f, v_), 1);
        GET(cdyn_force_get_spring(sys, f, &v_[0], &v_[1], &v_[2]), 3);
    }
    if (k == CDYN_FORCE_GRAVITY)
        GET(cdyn_force_get_gravity(sys, f, v_), 3);
    if (k == CDYN_FORCE_DRAG)
        GET(cdyn_force_get_drag(sys, f, v_), 1);
    if (k == CDYN_FORCE_PAIR) {
        for (int i = P_PAIR0; i <= P_PAIR2; i++)
            GET(cdyn_force_get_pair_radius(sys, f, m->p[i], v_), 1);
        cdyn_pair_stats ps;
        memset(&ps, 0, sizeof ps);
        ps.size = sizeof ps;
        int depth = -1;
        if (cdyn_force_get_pair_stats(sys, f, &ps) == CDYN_OK) { /* a set */
            GET(cdyn_force_get_pair_skin(sys, f, v_), 1);
            status(s, cdyn_force_get_pair_exclude_bonded(sys, f, &depth));
            u64(s, (uint64_t)depth), u64(s, ps.excluded);
        }
    }
}

static void constraint(hasher *s, const cdyn_system *sys, cdyn_constraint c, int dim)
{
    u64(s, cdyn_constraint_is_valid(sys, c));
    cdyn_constraint_kind k = 0;
    status(s, cdyn_constraint_get_kind(sys, c, &k));
    u64(s, (uint64_t)k);
    size_t n = 0;
    status(s, cdyn_constraint_get_row_count(sys, c, &n));
    u64(s, n);
    bool b = false;
    status(s, cdyn_constraint_get_enabled(sys, c, &b));
    u64(s, b);
    GET(cdyn_constraint_get_compliance(sys, c, v_), 1);
    status(s, cdyn_constraint_get_coordinate_count(sys, c, &n));
    u64(s, n);
    if (k == CDYN_CONSTRAINT_CURVE || k == CDYN_CONSTRAINT_SURFACE) {
        double q[2] = {0}, qd[2] = {0};
        status(s, cdyn_constraint_get_coordinates(sys, c, q, qd));
        s->h = ts_hash_doubles(q, 2, s->h);
        s->h = ts_hash_doubles(qd, 2, s->h);
    }
    cdyn_motion_desc m;
    memset(&m, 0, sizeof m);
    bool on = false;
    motion(s, cdyn_constraint_get_motion(sys, c, &m, &on), &m, on);
    cdyn_schedule_desc sd;
    memset(&sd, 0, sizeof sd);
    on = false;
    status(s, cdyn_constraint_get_length_schedule(sys, c, &sd, &on));
    u64(s, on);
    if (on) {
        u64(s, (uint64_t)sd.kind);
        num(s, sd.rate), num(s, sd.acceleration), num(s, sd.amplitude);
        num(s, sd.frequency), num(s, sd.phase);
    }
    b = false;
    status(s, cdyn_constraint_get_time_dependent(sys, c, &b));
    u64(s, b);
    if (k == CDYN_CONSTRAINT_ANCHOR || k == CDYN_CONSTRAINT_PIN)
        GET(cdyn_constraint_get_point(sys, c, v_), (size_t)dim);
    if (k == CDYN_CONSTRAINT_DISTANCE || k == CDYN_CONSTRAINT_ANCHOR)
        GET(cdyn_constraint_get_length(sys, c, v_), 1);
}

static void ground(hasher *s, const cdyn_system *sys, cdyn_ground g, int dim)
{
    u64(s, cdyn_ground_is_valid(sys, g));
    cdyn_ground_kind k = 0;
    status(s, cdyn_ground_get_kind(sys, g, &k));
    u64(s, (uint64_t)k);
    GET(cdyn_ground_get_stiffness(sys, g, v_), 1);
    GET(cdyn_ground_get_damping(sys, g, v_), 1);
    GET(cdyn_ground_get_friction(sys, g, v_), 1);
    GET(cdyn_ground_get_friction_speed(sys, g, v_), 1);
    GET(cdyn_ground_get_surface_velocity(sys, g, v_), (size_t)dim);
    cdyn_motion_desc m;
    memset(&m, 0, sizeof m);
    bool on = false;
    motion(s, cdyn_ground_get_motion(sys, g, &m, &on), &m, on);
}

static void rigid(hasher *s, const cdyn_system *sys, cdyn_rigid r, int dim)
{
    u64(s, cdyn_rigid_is_valid(sys, r));
    size_t n = 0;
    status(s, cdyn_rigid_get_particle_count(sys, r, &n));
    u64(s, n);
    cdyn_rigid_scheme sc = 0;
    status(s, cdyn_rigid_get_scheme(sys, r, &sc));
    u64(s, (uint64_t)sc);
    GET(cdyn_rigid_get_mass(sys, r, v_), 1);
    GET(cdyn_rigid_get_center_of_mass(sys, r, v_), (size_t)dim);
    GET(cdyn_rigid_get_velocity(sys, r, v_), (size_t)dim);
    GET(cdyn_rigid_get_angular_velocity(sys, r, v_), 3);
    GET(cdyn_rigid_get_orientation(sys, r, v_), 9);
    GET(cdyn_rigid_get_body_inertia(sys, r, v_), 9);
}

static void bulk(hasher *s, const cdyn_system *sys, size_t n, int dim)
{
    static double buf[MX_REGION];
    static bool flags[MX_REGION];
    size_t nd = n * (size_t)dim;
    if (nd > MX_REGION)
        return;
    cdyn_status (*const reads[])(const cdyn_system *, double *, size_t) = {
        cdyn_system_get_positions, cdyn_system_get_velocities, cdyn_system_get_applied_forces};
    for (size_t r = 0; r < sizeof reads / sizeof *reads; r++) {
        memset(buf, 0, nd * sizeof *buf);
        status(s, reads[r](sys, buf, nd));
        s->h = ts_hash_doubles(buf, nd, s->h);
    }
    memset(buf, 0, n * sizeof *buf);
    status(s, cdyn_system_get_masses(sys, buf, n));
    s->h = ts_hash_doubles(buf, n, s->h);
    memset(flags, 0, n);
    status(s, cdyn_system_get_fixed(sys, flags, n));
    bytes(s, flags, n);
}

static void options(hasher *s, const cdyn_system *sys)
{
    cdyn_rk45_options r;
    cdyn_newton_options n;
    cdyn_solver_options so;
    cdyn_projection_options p;
    memset(&r, 0, sizeof r), memset(&n, 0, sizeof n), memset(&so, 0, sizeof so);
    memset(&p, 0, sizeof p);
    r.size = sizeof r, n.size = sizeof n, so.size = sizeof so, p.size = sizeof p;
    status(s, cdyn_system_get_rk45_options(sys, &r));
    num(s, r.abs_tol), num(s, r.rel_tol), num(s, r.initial_step), num(s, r.max_step);
    status(s, cdyn_system_get_newton_options(sys, &n));
    num(s, n.tolerance), u64(s, n.max_iterations);
    status(s, cdyn_system_get_solver_options(sys, &so));
    u64(s, (uint64_t)so.solver), num(s, so.ks), num(s, so.kd), num(s, so.cg_tolerance);
    u64(s, so.cg_max_iterations);
    status(s, cdyn_system_get_projection_options(sys, &p));
    u64(s, (uint64_t)p.enabled), u64(s, (uint64_t)p.method), num(s, p.position_tolerance);
    num(s, p.velocity_tolerance), u64(s, p.max_iterations);
}

static void box_and_thermostat(hasher *s, const cdyn_system *sys)
{
    double o[3] = {0}, l[3] = {0};
    bool per[3] = {false, false, false}, has = false;
    status(s, cdyn_system_get_box(sys, o, l, per, &has));
    u64(s, has);
    s->h = ts_hash_doubles(o, 3, s->h);
    s->h = ts_hash_doubles(l, 3, s->h);
    bytes(s, per, sizeof per);
    cdyn_langevin_options lo;
    memset(&lo, 0, sizeof lo);
    lo.size = sizeof lo;
    status(s, cdyn_system_get_langevin_options(sys, &lo));
    num(s, lo.kT), num(s, lo.gamma), u64(s, lo.seed);
}

static uint64_t hash_system(const mx_sys *m)
{
    hasher hs = {0}, *s = &hs;
    const cdyn_system *sys = m->sys;
    int dim = cdyn_system_get_dimension(sys);
    u64(s, (uint64_t)dim);
    GET(cdyn_system_get_time(sys, v_), 1);
    cdyn_integrator in = 0;
    status(s, cdyn_system_get_integrator(sys, &in));
    u64(s, (uint64_t)in);
    size_t n = 0, live = 0;
    status(s, cdyn_system_get_index_count(sys, &n));
    status(s, cdyn_system_get_particle_count(sys, &live));
    u64(s, n), u64(s, live);
    bulk(s, sys, n, dim);
    options(s, sys);
    box_and_thermostat(s, sys);
    for (int i = 0; i < P_COUNT; i++)
        particle(s, sys, m->p[i]);
    particle(s, sys, m->stale_p);
    for (int i = 0; i < F_COUNT; i++)
        force(s, sys, m->f[i], m);
    force(s, sys, m->stale_f, m);
    for (int i = 0; i < C_COUNT; i++)
        constraint(s, sys, m->c[i], dim);
    constraint(s, sys, m->stale_c, dim);
    for (int i = 0; i < G_COUNT; i++)
        ground(s, sys, m->g[i], dim);
    ground(s, sys, m->stale_g, dim);
    for (int i = 0; i < R_COUNT; i++)
        rigid(s, sys, m->r[i], dim);
    rigid(s, sys, m->stale_r, dim);
    GET(cdyn_system_get_kinetic_energy(sys, v_), 1);
    GET(cdyn_system_get_potential_energy(sys, v_), 1);
    GET(cdyn_system_get_drive_work(sys, v_), 1);
    return s->h;
}

static uint64_t hash_lattice(const cdyn_lattice *lat)
{
    size_t n = 0;
    static unsigned char buf[1 << 16];
    if (cdyn_lattice_snapshot_size(lat, &n) != CDYN_OK || n > sizeof buf ||
        cdyn_lattice_save(lat, buf, n, NULL) != CDYN_OK)
        return 1;
    return ts_hash_bytes(buf, n, 0);
}

static uint64_t hash_kinetics(const cdyn_kinetics *kin)
{
    hasher hs = {0}, *s = &hs;
    size_t ns = 0, nr = 0, nz = 0;
    status(s, cdyn_kinetics_get_species_count(kin, &ns));
    status(s, cdyn_kinetics_get_reaction_count(kin, &nr));
    status(s, cdyn_kinetics_get_stoichiometry_size(kin, &nz));
    u64(s, ns), u64(s, nr), u64(s, nz);
    for (size_t i = 0; i < ns; i++) {
        const char *name = "";
        status(s, cdyn_kinetics_get_species_name(kin, i, &name));
        bytes(s, name, strlen(name));
    }
    double c[64] = {0};
    if (ns <= 64) {
        status(s, cdyn_kinetics_get_concentrations(kin, c, ns));
        s->h = ts_hash_doubles(c, ns, s->h);
    }
    for (size_t j = 0; j < nr; j++)
        GET(cdyn_kinetics_get_rate_constant(kin, j, v_), 1);
    size_t sp[64] = {0}, re[64] = {0};
    int co[64] = {0};
    if (nz <= 64) {
        status(s, cdyn_kinetics_get_stoichiometry(kin, sp, re, co, nz));
        bytes(s, sp, sizeof sp), bytes(s, re, sizeof re), bytes(s, co, sizeof co);
    }
    GET(cdyn_kinetics_get_time(kin, v_), 1);
    cdyn_kinetics_options o;
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    status(s, cdyn_kinetics_get_options(kin, &o));
    u64(s, (uint64_t)o.method), num(s, o.rtol), num(s, o.atol), u64(s, o.max_steps);
    num(s, o.initial_step), num(s, o.max_step), num(s, o.fixed_step);
    u64(s, (uint64_t)o.max_order), u64(s, (uint64_t)o.max_newton_iterations);
    return s->h;
}

uint64_t mx_hash(mx_fix *f)
{
    switch (f->obj) {
    case OBJ_SYS:
        return hash_system(&f->s);
    case OBJ_LAT:
        return hash_lattice(f->lat);
    case OBJ_KIN:
        return hash_kinetics(f->kin);
    }
    return 0;
}
